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
TARGET_BOUNDS = (81, 150)
"""The targets the settings accept: from one chip over the start to the highest measured
target that every table of 2 to 8 Normal or Stark computers reached within the default cap
in every game (8 Normal players: mean 21.5, 95th percentile 30 Durchgänge; at 175, 15 % of
their games end by the cap). Measured with benchmarks/engel_bengel_target.py, quoted in
docs/engel-bengel.md. The rule engine takes any target, so every record replays."""
DURCHGAENGE = 8
"""Durchgänge of a game with a fixed number of them (end = "durchgaenge")."""
LIMIT = 40
"""The cap, by default: a game that ends by the target ends after this many Durchgänge
even when nobody has the target (the richest wins). Black rows cost chips, so with
uploaded faces the chips need not grow and a target may never be reached; the cap is
shown at the setup and in the match's Info."""
LIMIT_BOUNDS = (20, 100)
"""The caps the settings accept. At the smallest, every table of 2 to 8 computers still
reaches the default target in 95 % of games (8 Normal players: 95th percentile 18); the
largest is a day's play, room for uploaded faces that pay less than the shipped ones (8
Normal players reach 250 chips by then in 95 % of games). Measured, docs/engel-bengel.md."""
RECORD_LIMIT = 40
"""The cap of a record whose parameters name none: before the cap was a setting, every
game stopped after 40 Durchgänge, and such records replay as they were played. Never
change it (the default cap, LIMIT, may change)."""
DURCHGAENGE_BOUNDS = (1, LIMIT_BOUNDS[1])
"""The fixed numbers of Durchgänge the settings accept: up to the longest cap."""
LONGEST = 200
"""The most Durchgänge the rule engine plays (as a cap or as a fixed number): the settings
stay well below it; it bounds a record's length."""
END_CHOICES = ("ziel", "durchgaenge")
START_CHOICES = ("zufall", "erster")

INFO = GameInfo(
    name="engel-bengel",
    title="Engel & Bengel",
    min_players=2,
    max_players=8,
    min_utility=0.0,
    max_utility=1.0,
    max_game_length=LONGEST * 4_000,
    practical_length=30_000,
    rule_text="engel-und-bengel.de.txt",
)
