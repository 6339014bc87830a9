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


# --- the expected length of a game, for the setup ----------------------------------------

LENGTH_TARGETS = (81, 100, 125, 150, 175, 200, 225, 250, 300)
"""The targets of DURCHGAENGE_FOR_TARGET's columns."""
DURCHGAENGE_FOR_TARGET = {
    2: (1.0, 2.6, 6.0, 9.5, 13.2, 17.0, 21.1, 24.9, 33.1),
    3: (1.0, 2.8, 7.0, 11.6, 16.9, 22.4, 28.1, 33.7, 45.3),
    4: (1.0, 3.1, 8.1, 14.2, 21.0, 27.8, 34.7, 41.2, 55.6),
    5: (1.0, 3.4, 9.4, 16.8, 24.8, 32.9, 41.3, 50.0, 68.1),
    6: (1.0, 3.5, 9.9, 18.1, 26.7, 35.9, 45.7, 55.9, 77.0),
    7: (1.0, 3.6, 11.0, 20.1, 30.2, 40.8, 52.1, 63.9, 86.0),
    8: (1.0, 3.8, 11.7, 21.5, 32.3, 45.0, 57.4, 70.0, 92.0),
}
"""Mean Durchgänge until someone has the target, per player count (400 games of Normal
computers each, benchmarks/engel_bengel_target.py, docs/engel-bengel.md; a target of 81 is
reached in the first Durchgang; at 250 and 300 the many-player means are the measurement's
lower bounds, ">70")."""
TURNS_PER_DURCHGANG = {2: 8.7, 3: 9.1, 4: 10.8, 5: 11.0, 6: 11.2, 7: 13.7, 8: 19.4}
"""Mean turns of a Durchgang, all seats together (benchmarks/engel_bengel_minutes.py: 40
games of Normal computers per player count, 6 Durchgänge each)."""
HUMAN_TURN_S = 25
"""What a human's turn takes at the table, rolling and placing (an assumption, said so
at the setup by "etwa"; docs/engel-bengel.md)."""
COMPUTER_TURN_S = 4
"""A computer's turn: its thinking and its moves shown (bot.show_ms) for a roll or two."""


def expected_durchgaenge(players: int, end: str, target: int, count: int) -> float:
    """The Durchgänge a game is expected to last: the fixed number, or for a target the
    measured mean (interpolated between the measured targets), never more than `count`
    (the cap)."""
    if end != "ziel":
        return float(count)
    row = DURCHGAENGE_FOR_TARGET[min(8, max(2, players))]
    targets = LENGTH_TARGETS
    if target >= targets[-1]:
        mean = row[-1] * target / targets[-1]
    else:
        i = max(k for k in range(len(targets)) if targets[k] <= max(target, targets[0]))
        share = (target - targets[i]) / (targets[i + 1] - targets[i])
        mean = row[i] + share * (row[i + 1] - row[i])
    return min(float(count), max(1.0, mean))


def minutes(players: int, humans: int, end: str, target: int, count: int) -> int:
    """The minutes a game is expected to last at the table, rounded to 5 (at least 5):
    its Durchgänge times their turns, a human's at HUMAN_TURN_S, a computer's at
    COMPUTER_TURN_S.

    >>> minutes(4, 1, "ziel", TARGET, LIMIT)
    15
    >>> minutes(2, 2, "durchgaenge", TARGET, 8)
    30
    """
    rounds = expected_durchgaenge(players, end, target, count)
    per_turn = (humans * HUMAN_TURN_S + (players - humans) * COMPUTER_TURN_S) / players
    seconds = rounds * TURNS_PER_DURCHGANG[min(8, max(2, players))] * per_turn
    return max(5, 5 * round(seconds / 300))
