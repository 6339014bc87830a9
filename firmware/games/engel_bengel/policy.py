"""The rollout policy of Engel & Bengel: Normal's play, the simulator's seats, the screen's
preselected die. Pure Python (no numpy), so a human's turn never loads numpy.

A die is worth what it does to a row, in tenths of a chip: completing a row counts its chips
(+ white, - black); leaving a white row one box short for the next player costs half its
value; progress on a white row is worth a tenth of its value; a black row's progress is
neutral. A die in hand is worth 10 (one chip), so a die is placed when one must be, or when
it pays more than that; the player rolls again while at least `keep` dice are left.

Those weights are Normal's rollout :data:`STYLE`; other :class:`Style` s (how much a seat
fears setting up a white row, likes a black row left one short, and how long it rolls on)
are the opponents Stark plays against in its playouts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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


@dataclass(frozen=True)
class Style:
    """A rollout player: its weights in tenths of a chip per chip of the row's value."""

    setup: int = 5
    """What leaving a white row one box short for the next player costs."""
    progress: int = 1
    """What any other progress on a white row is worth."""
    trap: int = 0
    """What leaving a black row one box short (for the next player to be forced) is worth."""
    die: int = 10
    """What a die kept in hand is worth (a die is placed past the first only when it pays
    more)."""


STYLE = Style()
"""Normal's rollout style (the simulator's and the screen's suggestion)."""


def place_score(row: Row, filled: int, style: Style = STYLE) -> int:
    """The rollout policy's worth of one more die in a row (tenths of a chip, a die costs
    `style.die`).

    Completing a row counts its chips; leaving one box of a white row for the next player is
    bad; progress on a white row is worth a little; a black row's progress is neutral
    unless the style likes to leave it one box short.
    """
    left = row.boxes - filled - 1
    if left == 0:
        gain = 10 * row_delta(row)
    elif left == 1 and row.white:
        gain = -style.setup * row.value
    elif row.white:
        gain = style.progress * row.value
    elif left == 1:
        gain = style.trap * row.value
    else:
        gain = 0
    return gain - style.die


def policy_move(
    face: Face,
    board: Sequence[Sequence[int]],
    roll: Sequence[int],
    placed_now: int,
    rolls: int,
    keep: int = KEEP,
    style: Style = STYLE,
) -> int:
    """The rollout policy: place the best-scoring fitting die when one must be placed or when
    it is worth it; else roll again while at least `keep` dice are left, or stop."""
    best, best_score = -1, NEVER
    for action in placements(face, board, roll):
        r, _ = decode_place(action)
        score = place_score(face.rows[r], len(board[r]), style)
        if score > best_score:
            best, best_score = action, score
    if best >= 0 and (placed_now == 0 or best_score > 0):
        return best
    if len(roll) >= keep and rolls < MAX_ROLLS:
        return Move.NOCHMAL
    return Move.STOPP
