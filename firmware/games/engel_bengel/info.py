"""Engel & Bengel's facts, which the catalog reads without loading the rules or faces.

The rule engine (`rules`) imports them from here, so the end of a game's choices and
defaults are declared once and the box's first screen loads neither the engine nor the
faces' data.
"""

from __future__ import annotations

from spielleiter.games.base import GameInfo

TARGET = 125
"""The default target (chips) that ends the game after its Durchgang: measured so that a
four-player game of Normal computers lasts about eight Durchgänge (docs/engel-bengel.md)."""
DURCHGAENGE = 8
"""Durchgänge of a game with a fixed number of them (end = "durchgaenge")."""
LIMIT = 40
"""The game ends after this many Durchgänge whatever the target (a safety stop)."""
END_CHOICES = ("ziel", "durchgaenge")
START_CHOICES = ("zufall", "erster")

INFO = GameInfo(
    name="engel-bengel",
    title="Engel & Bengel",
    min_players=2,
    max_players=8,
    min_utility=0.0,
    max_utility=1.0,
    max_game_length=LIMIT * 4_000,
    practical_length=30_000,
    rule_text="engel-und-bengel.de.txt",
)
