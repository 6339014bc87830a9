"""Speedtombola's facts, which the catalog reads without loading the rules.

The menu, the settings and the link need the game's name, seat counts and choices at
the box's start; the rule engine (`rules`) imports them from here, so they are declared
once and the first screen never loads the engine.
"""

from __future__ import annotations

from spielleiter.games.base import GameInfo

LOWEST_LOT = 3
HIGHEST_LOT = 35
ALL_LOTS: tuple[int, ...] = tuple(range(LOWEST_LOT, HIGHEST_LOT + 1))
REMOVED_CHOICES = (9, 6, 12)
"""Lots removed unseen per round: the default first, then the menu's order."""
ROUND_CHOICES = (1, 3, 5)

MAX_ROUND_POINTS = sum(range(LOWEST_LOT, HIGHEST_LOT + 1, 2))
"""The most a holding can score: every other lot, each its own Garnitur."""
MAX_GROSCHEN_TOTAL = 55

INFO = GameInfo(
    name="speedtombola",
    title="Speedtombola",
    min_players=3,
    max_players=7,
    min_utility=-float(MAX_ROUND_POINTS * max(ROUND_CHOICES)),
    max_utility=float(MAX_GROSCHEN_TOTAL * max(ROUND_CHOICES)),
    max_game_length=max(ROUND_CHOICES)
    * (len(ALL_LOTS) + (len(ALL_LOTS) - min(REMOVED_CHOICES)) * (MAX_GROSCHEN_TOTAL + 1)),
    practical_length=max(ROUND_CHOICES) * 600,
    rule_text="speedtombola.de.txt",
)
