"""Maskenball's facts, which the catalog reads without loading the rules.

The rule engine (`rules`) uses this `INFO` as its own, so it is declared once and the
box's first screen does not load the engine.
"""

from __future__ import annotations

from spielleiter.games.base import GameInfo

INFO = GameInfo(
    name="maskenball",
    title="Maskenball der Käfer",
    min_players=1,
    max_players=8,
    min_utility=-1.0,
    max_utility=1.0,
    max_game_length=100_000,
    practical_length=3_000,
    rule_text="maskenball-der-kaefer.de.txt",
)
