"""A batched Bungee round in numpy: many rounds at once, one whole turn per step.

Every array has a leading batch axis; finished rounds are frozen by the `active` mask.
Hands, the pile and the discards are counts per face (index = face, 0 unused); the
top discard is a face (0: none). A step plays one turn in every running round: the
seat's policy (or a forced first move) calls, discards and draws, or takes the top
discard and discards; the sixes skip seats; after the first call the walk round the
table ends the round; at the end the hands are decided and scored exactly as
`rules.BungeeState` does. The simulator agrees with the rule engine when both are fed
the same cards (tests/test_bungee_sim.py replays its logged moves through the engine).

The rollout policy is Normal's: call at `call` points or less; take the top discard
when it counts `take` or less and a card group of another number can go; else discard
the card group worth most (all its cards) and draw.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from spielleiter.games.bungee.rules import (
    BUNGEE,
    BUNGEE_POINTS,
    WINNER_POINTS,
)

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

F = BUNGEE + 1
"""Faces as an array axis (0 unused)."""

CALL, DISCARD, TAKE, TAKEN_DISCARD = 0, 1, 2, 3
"""Kinds of a forced first move: call; discard and draw; take then discard; discard after
a take already made (the round's seat is in the rules' TAKEN phase)."""


@dataclass
class Batch:
    """B rounds of `n` players in progress."""

    hands: NDArray[np.int16]
    """[B, n, F] cards per face in each hand."""
    pile: NDArray[np.int16]
    """[B, F] the face-down pile."""
    disc: NDArray[np.int16]
    """[B, F] the discard pile (the top card included)."""
    top: NDArray[np.int16]
    """[B] the top discard's face (0: empty)."""
    lucky: NDArray[np.int16]
    """[B] the lucky number."""
    seat: NDArray[np.int16]
    """[B] the seat to move."""
    first: NDArray[np.int16]
    """[B] the first caller (-1: nobody called yet)."""
    walk: NDArray[np.int16]
    """[B] seats passed since the first call."""
    calls: NDArray[np.int16]
    """[B, n] each seat's call number (0: no call)."""
    taken: NDArray[np.int16]
    """[B] the face taken this turn (0: none; only for a TAKEN start)."""
    active: NDArray[np.bool_]

    @property
    def size(self) -> int:
        return int(self.top.shape[0])

    @property
    def players(self) -> int:
        return int(self.hands.shape[1])

    def select(self, rows: NDArray[Any]) -> Batch:
        """The rounds at `rows` (indices) as a batch of their own."""
        return Batch(**{f.name: getattr(self, f.name)[rows] for f in fields(self)})

    def update(self, rows: NDArray[Any], part: Batch) -> None:
        """Write `part`, a `select(rows)` played on, back into the rounds at `rows`."""
        for f in fields(self):
            getattr(self, f.name)[rows] = getattr(part, f.name)


_TABLES: dict[str, Any] = {}
"""The lookup tables, made on first use (numpy is imported late)."""


def _table(name: str) -> NDArray[Any]:
    """A lookup table by name. values: [lucky, face] what a face counts under each lucky
    number (numpy's default integer, as `values` has always returned); reversed: the
    same in int16, the faces from the highest down; upper: [F, F] float ones on and above
    the diagonal (a pile times it: its running totals); ones: [F] float."""
    import numpy as np

    if not _TABLES:
        faces = np.arange(F)
        counts = np.where(faces == BUNGEE, 0, faces)[None, :].repeat(F, 0)
        counts[faces, faces] = 0
        _TABLES["values"] = counts
        _TABLES["reversed"] = np.ascontiguousarray(counts[:, ::-1], dtype=np.int16)
        _TABLES["upper"] = np.triu(np.ones((F, F)))
        _TABLES["ones"] = np.ones(F)
    table: NDArray[Any] = _TABLES[name]
    return table


def values(lucky: NDArray[Any]) -> NDArray[Any]:
    """[B, F] what each face counts for calling and deciding (lucky and Bungee 0)."""
    import numpy as np

    # `take` casts its indices "safely" to the platform's index type: int64 fails on a
    # 32-bit Pi (int32 indices), so they are made that type here
    return _table("values").take(np.asarray(lucky).astype(np.intp, copy=False), 0)


def draw(pile: NDArray[Any], u: NDArray[Any]) -> NDArray[Any]:
    """A face from each pile, uniform over its cards, chosen by u in [0, 1)."""
    return _pick(pile @ _table("upper"), u)


def _pick(cum: NDArray[Any], u: NDArray[Any]) -> NDArray[Any]:
    """`draw` from the piles' running totals over the faces (float: a product with a
    small matrix is one fast numpy call where a cumsum or a sum over the 12 faces of
    each row is not; the counts are small integers, exact in float)."""
    import numpy as np

    pick = np.floor(u * cum[:, -1])
    drawn: NDArray[Any] = ((cum <= pick[:, None]) @ _table("ones")).astype(np.intp)
    return drawn


@functools.lru_cache(maxsize=8)
def _indices(size: int, n: int) -> tuple[NDArray[Any], ...]:
    """(rows, each row's flat index in a [size, F] array, in a [size, n] array, and of its
    face 0 where the faces run from the highest down) of a batch; read only."""
    import numpy as np

    rows = np.arange(size)
    made = (rows, rows * F, rows * n, rows * F + (F - 1))
    for a in made:
        a.flags.writeable = False
    return made


def step(
    b: Batch,
    u: NDArray[Any],
    call_at: NDArray[Any],
    take_at: NDArray[Any],
    forced: NDArray[Any] | None = None,
    forced_face: NDArray[Any] | None = None,
    log: list[Any] | None = None,
) -> None:
    """One turn in every running round. `call_at`/`take_at` [B, n]: each seat's policy;
    `forced` [B] (kind or -1) and `forced_face` [B]: a first move to play instead; `log`
    collects (kind, face, count, drawn) arrays of the step for tests.

    A step costs numpy's overhead per call far more than the work on its few hundred
    rows, so the turn is worked out for every row, finished or not, and written only
    where the round runs (the masks add 0 elsewhere); a card is read and written by its
    flat index (one `take` or one `+=` on a flattened array); the hand to move is held
    with its faces from the highest down, so that argmax finds the last best face."""
    import numpy as np

    size, n = b.size, b.players
    for name in ("hands", "disc", "pile"):
        if not getattr(b, name).flags.c_contiguous:
            setattr(b, name, np.ascontiguousarray(getattr(b, name)))
    hands, disc, pile = b.hands.reshape(-1), b.disc.reshape(-1), b.pile.reshape(-1)
    rows, row, seats, last = _indices(size, n)
    act = b.active
    top = b.top
    mover = seats + b.seat  # the seat to move as a row of the hands seen as [B * n, F]
    held = mover * F  # the flat index of its face 0 in the hands
    hand = b.hands.reshape(size * n, F).take(mover, 0)[:, ::-1].copy()
    vals = _table("reversed").take(b.lucky, 0)
    taken = b.taken.any()
    if taken:
        avail = hand.copy()
        avail.reshape(-1)[last - b.taken] -= b.taken > 0
    else:
        avail = hand
    group = avail * vals
    worth = np.einsum("ij->i", group)
    # the policy: call, take, or discard the group worth most (all its cards; ties: the
    # higher face; no group worth anything: the highest face held)
    at_top = last - top
    others = worth - group.reshape(-1).take(at_top)
    if taken:
        worth = np.einsum("ij,ij->i", hand, vals)
    calling = worth <= call_at.reshape(-1).take(mover)
    cheap = vals.reshape(-1).take(at_top) <= take_at.reshape(-1).take(mover)
    take = (top > 0) & cheap & (others > 0) & ~calling
    kind = np.where(calling, CALL, np.where(take, TAKE, DISCARD))
    # the group worth most, of another number than the top discard's where it is taken
    key = group * 2 + (avail > 0)
    key.reshape(-1)[at_top] *= ~take
    face = F - 1 - np.argmax(key, axis=1)
    if taken:
        kind = np.where(b.taken > 0, TAKEN_DISCARD, kind)
    if forced is not None and forced_face is not None:
        use = forced >= 0
        kind = np.where(use, forced, kind)
        face = np.where(use, forced_face, face)
    calling = kind == CALL
    calls = act & calling
    count = avail.reshape(-1).take(last - face) * ~calling
    # take: the top discard joins the hand
    takes = act & (kind == TAKE)
    hands[held + top] += takes
    disc[row + top] -= takes
    # discard
    discards = act & ~calls
    shed = count * discards
    hands[held + face] -= shed
    disc[row + face] += shed
    b.top = np.where(discards, face, top).astype(np.int16)
    # draw (after a reshuffle when only the lucky card is left; no count in a pile is
    # below 0, as a draw takes only a card that is there, so its total is the draw's)
    draws = act & (kind == DISCARD)
    cum = np.maximum(b.pile, 0) @ _table("upper")
    empty = draws & (cum[:, -1] == 0)
    if empty.any():
        onehot_top = np.zeros((size, F), dtype=np.int16)
        onehot_top[rows, b.top] = 1
        b.pile[empty] = b.disc[empty] - onehot_top[empty]
        b.disc[empty] = onehot_top[empty]
        cum = np.maximum(b.pile, 0) @ _table("upper")
    drawn = np.where(draws, _pick(cum, u), 0)
    hands[held + drawn] += draws
    pile[row + drawn] -= draws
    if taken:
        b.taken[act] = 0
    # call
    if calls.any():
        who = np.flatnonzero(calls)
        b.calls[who, b.seat[who]] = (b.calls[who] > 0).sum(1) + 1
        b.first = np.where(calls & (b.first < 0), b.seat, b.first)
    # move on (int16 throughout: the seats a turn passes, a six skipping one per card)
    passed = 1 + count * (face == 6)
    called = b.first >= 0
    walk = b.walk + passed * (act & called)
    b.walk = walk
    b.seat = np.where(act, np.where(called, b.first + walk, b.seat + passed) % n, b.seat)
    b.active = act & ~(called & (walk >= n))
    if log is not None:
        log.append((act, kind, face, count, drawn))


def scores(b: Batch) -> tuple[NDArray[Any], NDArray[Any]]:
    """([B, n] what each seat writes, [B, n] who wins) of the rounds as they stand."""
    import numpy as np

    vals = values(b.lucky)
    points = (b.hands * vals[:, None, :]).sum(2)
    best = points.min(1, keepdims=True)
    tied = points == best
    order = np.where(tied, b.calls, 0)
    latest = order.max(1, keepdims=True)
    winners = np.where(latest > 0, tied & (order == latest), tied)
    scored = points + BUNGEE_POINTS * b.hands[:, :, BUNGEE]
    return np.where(winners, WINNER_POINTS, scored), winners


def play_out(
    b: Batch,
    rng: np.random.Generator,
    call_at: NDArray[Any],
    take_at: NDArray[Any],
    forced: NDArray[Any] | None = None,
    forced_face: NDArray[Any] | None = None,
    max_steps: int = 120,
) -> NDArray[Any]:
    """Play every round to its end (a round still running after `max_steps` turns is
    scored as it stands); [B, n] what each seat writes. Once half the rounds are over,
    the running ones are played on as a smaller batch (each keeps its random numbers)."""
    import numpy as np

    run, held = b, np.arange(b.size)
    for i in range(max_steps):
        running = np.count_nonzero(run.active)
        if not running:
            break
        if i and running <= run.size // 2:
            run, held, call_at, take_at = compact(b, run, held, call_at, take_at)
        u = rng.random(b.size)[held] if run is not b else rng.random(b.size)
        step(run, u, call_at, take_at, forced if i == 0 else None, forced_face)
    if run is not b:
        b.update(held, run)
    return scores(b)[0]


def compact(b: Batch, run: Batch, held: NDArray[Any], *per_row: NDArray[Any]) -> tuple[Any, ...]:
    """(the running rounds of `run` as a batch, the rows of `b` they are, and each of
    `per_row` cut to them) after writing `run` back into `b` at `held`: a step's cost
    falls with its batch, and the finished rounds stay frozen in `b`."""
    import numpy as np

    keep = np.flatnonzero(run.active)
    if run is not b:
        b.update(held, run)
    return (run.select(keep), held[keep], *(a[keep] for a in per_row))
