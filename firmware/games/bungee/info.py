"""Bungee's facts, which the catalog reads without loading the rules.

The rule engine (`rules`) imports them from here, so the seat counts, the round
choices and the house rules' defaults are declared once and the box's first screen does
not load the engine.
"""

from __future__ import annotations

from spielleiter.games.base import GameInfo

WINNER_POINTS = -10
MAX_HAND_POINTS = 50
"""The most a hand can score (five cards of 10 points)."""
ROUND_CHOICES = (1, 3, 6)
HOUSE_RULES: dict[str, bool] = {
    "bungee_lucky_again": True,
    "empty_pile_reshuffle": True,
    "skip_discarder": True,
    "skip_last_turn": True,
    "tie_all_win": True,
    "dealer_moves": True,
}
"""DESIGN.md's defaults where the rule text is silent (each a parameter, True = default):
a Bungee card turned up as lucky card is shuffled back and another one turned (False:
it stays, and no number counts 0 that round); when the pile is empty the discards but
the top card become the new pile (False: the round ends as if everyone had had the
last turn); sixes skip round the table, the discarder too (False: at most every other
player); a skipped player loses the last turn after a call (False: sixes skip nobody
once Bungee was called); tied players of whom none called all win (False: nobody wins
that round); the dealer moves one seat on each round (False: the same dealer)."""

INFO = GameInfo(
    name="bungee",
    title="Bungee",
    min_players=2,
    max_players=5,
    min_utility=-float(MAX_HAND_POINTS * max(ROUND_CHOICES)),
    max_utility=float(-WINNER_POINTS * max(ROUND_CHOICES)),
    max_game_length=max(ROUND_CHOICES) * 4000,
    practical_length=max(ROUND_CHOICES) * 4000,
    rule_text="bungee.de.txt",
)
