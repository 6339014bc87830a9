"""The rollout policy of Engel & Bengel: Normal's play, the simulator's seats, the screen's
preselected die. Pure Python (no numpy), so a human's turn never loads numpy.

A die is worth what it does to a row, in tenths of a chip: completing a row counts its chips
(+ white, - black); leaving a white row one box short for the next player costs half its
value; progress on a white row is worth a tenth of its value; a black row's progress is
neutral. A die in hand is worth 10 (one chip), so a die is placed when one must be, or when
it pays more than that; the player rolls again while at least `keep` dice are left.
"""

from __future__ import annotations

from collections.abc import Sequence

from spielleiter.games.engel_bengel.faces import Face, Row
from spielleiter.games.engel_bengel.rules import (
    MAX_ROLLS,
    Move,
    decode_place,
    placements,
    row_delta,
)

NEVER = -(10**9)
"""The score of a box that takes no die."""
KEEP = 3
"""Normal rolls again while at least this many dice of its turn are left."""


def place_score(row: Row, filled: int) -> int:
    """The rollout policy's worth of one more die in a row (tenths of a chip, a die costs 10).

    Completing a row counts its chips; leaving one box of a white row for the next player is
    bad; progress on a white row is worth a little; a black row's progress is neutral.
    """
    left = row.boxes - filled - 1
    if left == 0:
        gain = 10 * row_delta(row)
    elif left == 1 and row.white:
        gain = -5 * row.value
    elif row.white:
        gain = row.value
    else:
        gain = 0
    return gain - 10


def policy_move(
    face: Face,
    board: Sequence[Sequence[int]],
    roll: Sequence[int],
    placed_now: int,
    rolls: int,
    keep: int = KEEP,
) -> int:
    """The rollout policy: place the best-scoring fitting die when one must be placed or when
    it is worth it; else roll again while at least `keep` dice are left, or stop."""
    best, best_score = -1, NEVER
    for action in placements(face, board, roll):
        r, _ = decode_place(action)
        score = place_score(face.rows[r], len(board[r]))
        if score > best_score:
            best, best_score = action, score
    if best >= 0 and (placed_now == 0 or best_score > 0):
        return best
    if len(roll) >= keep and rolls < MAX_ROLLS:
        return Move.NOCHMAL
    return Move.STOPP
