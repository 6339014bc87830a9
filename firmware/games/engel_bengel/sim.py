"""A vectorised Engel & Bengel simulator: many continuations of one Durchgang at once.

Rows of the batch are independent positions on the same face; every array has the batch
as its leading axis, finished rows are frozen by the `done` mask, and one numpy step moves
every row on by one event (a roll, or one decision: place a die, roll again or stop). The
seats play the rollout policy of :func:`policy.policy_move`, with a per-seat "roll again
while at least `keep` dice are left" threshold and, optionally, a per-seat
:class:`policy.Style` (how it scores a die in a row) from a family of styles.

Fed the same dice (`dice[b, t, :cup]` is the t-th roll of row b) the simulator agrees
exactly with the rule engine playing :func:`policy.policy_move` (tested).

numpy is imported here only; the idle box never loads this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from spielleiter.games.engel_bengel.faces import Face
from spielleiter.games.engel_bengel.policy import NEVER, STYLE, Style, place_score
from spielleiter.games.engel_bengel.rules import CUP, MAX_ROLLS, EngelBengelState, row_delta

ROLL, PLACE = 0, 1
KINDS = {"pips": 0, "star": 1, "mixed": 2}


@dataclass
class FaceArrays:
    """A face as arrays: kind, boxes, printed pips (padded), chips delta, score table."""

    kind: np.ndarray
    boxes: np.ndarray
    pips: np.ndarray
    """(6, 7): the printed pips of box k of row r (0 past the row's end)."""
    delta: np.ndarray
    score: np.ndarray
    """(P, 6, 7): place_score of row r with k boxes filled, for each of P styles."""
    fit: np.ndarray | None = None
    """(6, 7, 7, 7, 7): :func:`fitting` tabulated, [row, filled, first, fourth, pips]."""

    @classmethod
    def of(cls, face: Face, styles: Sequence[Style] = (STYLE,)) -> FaceArrays:
        """The face's arrays (kept for the last few faces and families of styles)."""
        return _face_arrays(face, tuple(styles))

    def fits(self, b: Batch, rows: np.ndarray) -> np.ndarray:
        """(len(rows), 6, 7): a die of pips v fits row r's next box now, in these rows of
        the batch: one look-up in the table of :func:`fitting`."""
        assert self.fit is not None
        return self.fit[SIX, b.filled[rows], b.first[rows], b.fourth[rows]]


SIX = np.arange(6)[None, :]


@lru_cache(maxsize=16)
def _face_arrays(face: Face, styles: tuple[Style, ...]) -> FaceArrays:
    pips = np.zeros((6, 7), dtype=np.int64)
    score = np.full((len(styles), 6, 7), NEVER, dtype=np.int64)
    for r, row in enumerate(face.rows):
        pips[r, : len(row.pips)] = row.pips
        for k in range(row.boxes):
            score[:, r, k] = [place_score(row, k, style) for style in styles]
    fa = FaceArrays(
        kind=np.array([KINDS[row.kind] for row in face.rows]),
        boxes=np.array([row.boxes for row in face.rows]),
        pips=pips,
        delta=np.array([row_delta(row) for row in face.rows]),
        score=score,
    )
    # Every (filled, first, fourth) of every row at once: 343 positions of six rows.
    grid = np.array(np.meshgrid(np.arange(7), np.arange(7), np.arange(7), indexing="ij"))
    filled, first, fourth = (np.repeat(g.reshape(-1, 1), 6, axis=1) for g in grid)
    zeros = np.zeros(len(filled), dtype=np.int64)
    rest = ("dice", "chips", "turn", "counts", "cup", "rolls", "placed", "phase", "turns")
    table = Batch(filled, first, fourth, **dict.fromkeys(rest, zeros), done=zeros.astype(bool))
    fa.fit = fitting(fa, table).reshape(7, 7, 7, 6, 7).transpose(3, 0, 1, 2, 4).copy()
    for a in (fa.kind, fa.boxes, fa.pips, fa.delta, fa.score, fa.fit):
        a.flags.writeable = False
    return fa


@dataclass
class Batch:
    """Positions of one Durchgang in progress: one row per playout."""

    filled: np.ndarray
    """(B, 6) boxes filled per row."""
    first: np.ndarray
    """(B, 6) pips of a row's first die (0: none yet)."""
    fourth: np.ndarray
    """(B, 6) pips of a mixed row's fourth die (0: none yet)."""
    dice: np.ndarray
    """(B, n) reserves."""
    chips: np.ndarray
    """(B, n)."""
    turn: np.ndarray
    counts: np.ndarray
    """(B, 7) the unplaced dice of the last roll by pips (index 1-6)."""
    cup: np.ndarray
    rolls: np.ndarray
    placed: np.ndarray
    phase: np.ndarray
    turns: np.ndarray
    """(B,) turns begun since the start."""
    done: np.ndarray

    @classmethod
    def of(cls, states: Sequence[EngelBengelState], repeat: int = 1) -> Batch:
        """The batch of `states`, each repeated `repeat` times (rows of one state together).

        A state whose Durchgang is over (or the game) starts done."""
        rows = []
        for s in states:
            filled = [len(b) for b in s.board]
            first = [b[0] if b else 0 for b in s.board]
            fourth = [b[3] if len(b) > 3 else 0 for b in s.board]
            counts = [0] * 7
            for v in s.roll:
                counts[v] += 1
            rows.append(
                (filled, first, fourth, s.dice, s.chips, s.turn, counts, s.cup, s.rolls,
                 s.placed_now, ROLL if s.awaiting_roll else PLACE, 0, s.over)
            )  # fmt: skip
        cols = list(zip(*rows, strict=True))

        def arr(i: int, dtype: type = np.int64) -> np.ndarray:
            return np.repeat(np.array(cols[i], dtype=dtype), repeat, axis=0)

        names = [f for f in cls.__dataclass_fields__ if f != "done"]
        fields = {name: arr(i) for i, name in enumerate(names)}
        return cls(**fields, done=arr(12, bool))


def fitting(fa: FaceArrays, b: Batch) -> np.ndarray:
    """(B, 6, 7): a die of pips v fits row r's next box now."""
    v = np.arange(7)[None, None, :]
    f = b.filled[:, :, None]
    first = b.first[:, :, None]
    printed = np.take_along_axis(np.broadcast_to(fa.pips, b.filled.shape + (7,)), f, axis=2)
    by_pips = printed == v
    star = (f == 0) | (v == first)
    mixed = (
        (f == 0)
        | (((f == 1) | (f == 2)) & (v == first))
        | ((f == 3) & (v != first))
        | ((f == 4) & (v == b.fourth[:, :, None]))
    )
    kind = fa.kind[None, :, None]
    fit = np.where(kind == 0, by_pips, np.where(kind == 1, star, mixed))
    return fit & (f < fa.boxes[None, :, None]) & (v >= 1)


def simulate(
    face: Face,
    batch: Batch,
    dice: np.ndarray,
    keep: np.ndarray,
    horizon: int = 1_000,
    styles: Sequence[Style] = (STYLE,),
    style: np.ndarray | None = None,
) -> Batch:
    """Play each row on until its Durchgang ends or `horizon` further turns have begun.

    dice: (B, T, 5) pips 1-6; row b's t-th roll is dice[b, t, :cup]. keep: (B, n) each
    seat's roll-again threshold per row; style: (B, n) each seat's index into `styles`
    (None: every seat plays styles[0]). Returns the batch (changed in place).
    """
    fa = FaceArrays.of(face, styles)
    b = batch
    size = b.chips.shape[0]
    idx = np.arange(size)
    t = np.zeros(size, dtype=np.int64)
    total_boxes = int(fa.boxes.sum())
    values = np.arange(7)
    for _ in range(100_000):
        live = ~b.done
        if not live.any():
            break
        # --- rows that roll ---------------------------------------------------------
        rolling = live & (b.phase == ROLL)
        if rolling.any():
            r_idx = idx[rolling]
            drawn = dice[r_idx, t[r_idx], :]
            use = np.arange(CUP)[None, :] < b.cup[r_idx, None]
            counts = ((drawn[:, :, None] == values[None, None, :]) & use[:, :, None]).sum(axis=1)
            b.counts[r_idx] = counts
            t[r_idx] += 1
            b.rolls[r_idx] += 1
            b.placed[r_idx] = 0
            b.phase[r_idx] = PLACE
            fit = fa.fits(b, r_idx) & (counts[:, None, :] > 0)
            nothing = ~fit.any(axis=(1, 2))
            if nothing.any():
                _end_turn(b, r_idx[nothing], horizon)
        # --- rows that decide (those that just rolled too) ----------------------------
        deciding = ~b.done & (b.phase == PLACE)
        if not deciding.any():
            continue
        d_idx = idx[deciding]
        filled = b.filled[d_idx]
        fit = fa.fits(b, d_idx) & (b.counts[d_idx][:, None, :] > 0)
        if style is None:
            table = np.broadcast_to(fa.score[0], (len(d_idx), 6, 7))
        else:
            table = fa.score[style[d_idx, b.turn[d_idx]]]
        score = np.take_along_axis(
            table,
            np.minimum(filled, 6)[:, :, None],
            axis=2,
        )[:, :, 0]
        scores = np.where(fit, score[:, :, None], NEVER).reshape(len(d_idx), 42)
        best = scores.argmax(axis=1)
        best_score = scores[np.arange(len(d_idx)), best]
        places = (best_score > NEVER) & ((b.placed[d_idx] == 0) | (best_score > 0))
        if places.any():
            p_idx = d_idx[places]
            row = best[places] // 7
            pip = best[places] % 7
            k = b.filled[p_idx, row]
            b.first[p_idx, row] = np.where(k == 0, pip, b.first[p_idx, row])
            b.fourth[p_idx, row] = np.where(k == 3, pip, b.fourth[p_idx, row])
            b.filled[p_idx, row] = k + 1
            b.counts[p_idx, pip] -= 1
            b.cup[p_idx] -= 1
            b.placed[p_idx] += 1
            seat = b.turn[p_idx]
            complete = b.filled[p_idx, row] == fa.boxes[row]
            delta = fa.delta[row]
            have = b.chips[p_idx, seat]
            moved = np.where(delta > 0, delta, -np.minimum(have, -delta))
            b.chips[p_idx, seat] = have + np.where(complete, moved, 0)
            full = b.filled[p_idx].sum(axis=1) == total_boxes
            b.done[p_idx[full]] = True
            empty = ~full & (b.counts[p_idx].sum(axis=1) == 0)
            if empty.any():
                _end_turn(b, p_idx[empty], horizon)
        rest = d_idx[~places]
        if len(rest):
            left = b.counts[rest].sum(axis=1)
            again = (left >= keep[rest, b.turn[rest]]) & (b.rolls[rest] < MAX_ROLLS)
            b.cup[rest] = left
            b.phase[rest[again]] = ROLL
            b.counts[rest[again]] = 0
            if (~again).any():
                _end_turn(b, rest[~again], horizon)
    return b


def _end_turn(b: Batch, rows: np.ndarray, horizon: int) -> None:
    """The unplaced dice go back; the next seat with dice takes the cup (or the horizon)."""
    n = b.dice.shape[1]
    seat = b.turn[rows]
    b.dice[rows, seat] += b.counts[rows].sum(axis=1)
    b.counts[rows] = 0
    offsets = (seat[:, None] + np.arange(1, n + 1)[None, :]) % n
    has = np.take_along_axis(b.dice[rows], offsets, axis=1) > 0
    nxt = offsets[np.arange(len(rows)), has.argmax(axis=1)]
    nobody = ~has.any(axis=1)
    b.turns[rows] += 1
    stop = nobody | (b.turns[rows] > horizon)
    b.done[rows[stop]] = True
    go = rows[~stop]
    nxt = nxt[~stop]
    b.turn[go] = nxt
    cup = np.minimum(CUP, b.dice[go, nxt])
    b.cup[go] = cup
    b.dice[go, nxt] -= cup
    b.rolls[go] = 0
    b.placed[go] = 0
    b.phase[go] = ROLL
