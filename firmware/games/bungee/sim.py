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

from dataclasses import dataclass
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


def values(lucky: NDArray[Any]) -> NDArray[Any]:
    """[B, F] what each face counts for calling and deciding (lucky and Bungee 0)."""
    import numpy as np

    faces = np.arange(F)
    vals = np.where(faces == BUNGEE, 0, faces)[None, :].repeat(len(lucky), 0)
    vals[np.arange(len(lucky)), lucky] = 0
    return vals


def draw(pile: NDArray[Any], u: NDArray[Any]) -> NDArray[Any]:
    """A face from each pile, uniform over its cards, chosen by u in [0, 1)."""
    import numpy as np

    cum = pile.cumsum(1)
    total = cum[:, -1]
    pick = np.floor(u * total).astype(np.int64)
    return (cum <= pick[:, None]).sum(1)


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
    collects (kind, face, count, drawn) arrays of the step for tests."""
    import numpy as np

    size, n = b.size, b.players
    rows = np.arange(size)
    act = b.active.copy()
    seat = b.seat.astype(np.int64)
    hand = b.hands[rows, seat].astype(np.int64)
    vals = values(b.lucky.astype(np.int64))
    top = b.top.astype(np.int64)
    taken = b.taken.astype(np.int64)
    worth = (hand * vals).sum(1)
    avail = hand.copy()
    avail[rows, taken] -= (taken > 0).astype(np.int64)
    group = avail * vals
    # the policy: call, take, or discard the group worth most (all its cards)
    best = F - 1 - np.argmax(group[:, ::-1], axis=1)
    anyface = F - 1 - np.argmax((avail[:, 1:] > 0)[:, ::-1], axis=1)
    best = np.where(group[rows, best] > 0, best, anyface)
    kind = np.where(worth <= call_at[rows, seat], CALL, DISCARD)
    other = group.copy()
    other[rows, top] = 0
    take_ok = (top > 0) & (vals[rows, top] <= take_at[rows, seat]) & (other.sum(1) > 0)
    kind = np.where((kind == DISCARD) & take_ok, TAKE, kind)
    face = np.where(kind == TAKE, F - 1 - np.argmax(other[:, ::-1], axis=1), best)
    kind = np.where(taken > 0, TAKEN_DISCARD, kind)
    if forced is not None and forced_face is not None:
        use = forced >= 0
        kind = np.where(use, forced, kind)
        face = np.where(use, forced_face, face)
    count = np.where(kind == CALL, 0, avail[rows, face])
    # take: the top discard joins the hand
    takes = act & (kind == TAKE)
    hand[takes, top[takes]] += 1
    b.disc[takes, top[takes]] -= 1
    # discard
    discards = act & (kind != CALL)
    hand[rows, face] -= np.where(discards, count, 0)
    b.disc[rows, face] += np.where(discards, count, 0).astype(np.int16)
    b.top = np.where(discards, face, b.top).astype(np.int16)
    # draw (after a reshuffle when only the lucky card is left)
    draws = act & (kind == DISCARD)
    empty = draws & (b.pile.sum(1) == 0)
    if empty.any():
        onehot_top = np.zeros((size, F), dtype=np.int16)
        onehot_top[rows, b.top] = 1
        b.pile[empty] = b.disc[empty] - onehot_top[empty]
        b.disc[empty] = onehot_top[empty]
    drawn = np.where(draws, draw(np.maximum(b.pile, 0), u), 0)
    hand[rows[draws], drawn[draws]] += 1
    b.pile[rows[draws], drawn[draws]] -= 1
    b.hands[rows[act], seat[act]] = hand[act].astype(np.int16)
    b.taken[act] = 0
    # call
    calls = act & (kind == CALL)
    number = (b.calls > 0).sum(1) + 1
    b.calls[rows[calls], seat[calls]] = number[calls].astype(np.int16)
    b.first = np.where(calls & (b.first < 0), seat, b.first).astype(np.int16)
    # move on
    sixes = np.where((kind != CALL) & (face == 6), count, 0)
    called = b.first >= 0
    walk = b.walk + np.where(act & called, 1 + sixes, 0)
    b.walk = walk.astype(np.int16)
    b.seat = np.where(
        act, np.where(called, (b.first + walk) % n, (seat + 1 + sixes) % n), b.seat
    ).astype(np.int16)
    b.active = act & ~(called & (walk >= n))
    if log is not None:
        log.append((act, kind, face, count, drawn))


def scores(b: Batch) -> tuple[NDArray[Any], NDArray[Any]]:
    """([B, n] what each seat writes, [B, n] who wins) of the rounds as they stand."""
    import numpy as np

    vals = values(b.lucky.astype(np.int64))
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
    scored as it stands); [B, n] what each seat writes."""
    for i in range(max_steps):
        if not b.active.any():
            break
        step(b, rng.random(b.size), call_at, take_at, forced if i == 0 else None, forced_face)
    return scores(b)[0]
