"""Test opponents for Bungee: players that are not Stark's own model, for tests and
tournaments (`spielleiter-host tournament bungee --seats stark,pairs,pairs`). None of
them is a computer level of the box; each plays on its seat's view alone.

* `lowcaller`: waits for a hand worth 1 or less before it calls; takes a top discard only
  when it counts 0 (the lucky number, a Bungee card); else discards its dearest group.
* `pairs`: a hoarder of pairs. It takes the top discard whenever that matches a card in
  its hand (a pair or more to shed later at once) and sheds its dearest single card,
  breaking a group only when it holds no single; calls at 5 or less.
* `fastcaller`: calls the moment it may; takes any top discard that counts less than its
  dearest card, and always sheds its dearest group.
* `searcher`: flat Monte Carlo, as Stark was before it modelled its opponents: every
  candidate move played out on 48 samples of the hidden cards, every seat on Normal's
  policy, the best expected score against the others' average.
"""

from __future__ import annotations

import random
from typing import Any

from spielleiter.games.bungee.rules import (
    CALL_LIMIT,
    FACES,
    Move,
    Phase,
    card_value,
    discard_action,
)

OPPONENTS = ("lowcaller", "pairs", "fastcaller", "searcher")
LOW_CALL = 1
"""The low-caller calls with a hand worth this much or less."""
SEARCHER_SAMPLES = 48
"""The searcher's samples of the hidden cards per candidate move, at any table."""


def choose(view: dict[str, Any], *, level: str, rng: random.Random) -> int:
    """The move of test opponent `level` on its seat's view."""
    if level == "lowcaller":
        return _lowcaller(view)
    if level == "pairs":
        return _pairs(view)
    if level == "fastcaller":
        return _fastcaller(view)
    if level == "searcher":
        return searcher(view, rng)
    raise ValueError(f"unknown test opponent {level!r}; known: {', '.join(OPPONENTS)}")


def _hand(view: dict[str, Any]) -> list[int]:
    from spielleiter.games.bungee.bots import _available

    return _available(view)


def _worth(view: dict[str, Any]) -> int:
    from spielleiter.games.bungee.bots import counts, hand_worth

    return hand_worth(counts(view["hand"]), view["lucky"])


def _dearest(hand: list[int], lucky: int | None, exclude: int = 0) -> int:
    from spielleiter.games.bungee.bots import _best_group

    return _best_group(hand, lucky, exclude)


def _top(view: dict[str, Any]) -> int:
    return int(view["discards"][-1]) if view["discards"] else 0


def _shed(hand: list[int], face: int) -> int:
    return discard_action(face, hand[face])


def _lowcaller(view: dict[str, Any]) -> int:
    lucky, hand = view["lucky"], _hand(view)
    if view["phase"] == Phase.TAKEN:
        return _shed(hand, _dearest(hand, lucky))
    if _worth(view) <= LOW_CALL:
        return int(Move.CALL)
    top = _top(view)
    if top and card_value(top, lucky) == 0:
        other = _dearest(hand, lucky, exclude=top)
        if other and card_value(other, lucky) > 0:
            return int(Move.TAKE)
    return _shed(hand, _dearest(hand, lucky))


def _dearest_single(hand: list[int], lucky: int | None, exclude: int = 0) -> int:
    singles = [f for f in FACES if hand[f] == 1 and f != exclude]
    if not singles:
        return _dearest(hand, lucky, exclude)
    return max(singles, key=lambda f: (card_value(f, lucky), f))


def _pairs(view: dict[str, Any]) -> int:
    lucky, hand = view["lucky"], _hand(view)
    if view["phase"] == Phase.TAKEN:
        face = _dearest_single(hand, lucky, exclude=view["taken"] or 0)
        return _shed(hand, face if hand[face] else _dearest(hand, lucky))
    if _worth(view) <= CALL_LIMIT:
        return int(Move.CALL)
    top = _top(view)
    if top and hand[top] and any(hand[f] for f in FACES if f != top):
        return int(Move.TAKE)
    return _shed(hand, _dearest_single(hand, lucky))


def _fastcaller(view: dict[str, Any]) -> int:
    lucky, hand = view["lucky"], _hand(view)
    if view["phase"] == Phase.TAKEN:
        return _shed(hand, _dearest(hand, lucky))
    if _worth(view) <= CALL_LIMIT:
        return int(Move.CALL)
    top = _top(view)
    dearest = _dearest(hand, lucky)
    if (
        top
        and card_value(top, lucky) < card_value(dearest, lucky)
        and any(hand[f] for f in FACES if f != top)
    ):
        return int(Move.TAKE)
    return _shed(hand, dearest)


def searcher(view: dict[str, Any], rng: random.Random) -> int:
    """Flat Monte Carlo with every seat on Normal's policy."""
    import numpy as np
    from spielleiter.games.bungee import sim
    from spielleiter.games.bungee.bots import NORMAL_TAKE, candidates, sample_batch

    moves = candidates(view)
    gen = np.random.default_rng(rng.getrandbits(64))
    base = sample_batch(view, SEARCHER_SAMPLES, gen)
    k, samples = len(moves), SEARCHER_SAMPLES
    b = sim.Batch(**{name: np.concatenate([getattr(base, name)] * k) for name in base.__dict__})
    n, me = view["players"], view["seat"]
    forced = np.repeat(np.array([m[0] for m in moves]), samples)
    face = np.repeat(np.array([m[1] for m in moves]), samples)
    call_at = np.full((b.size, n), CALL_LIMIT)
    take_at = np.full((b.size, n), NORMAL_TAKE)
    for i in range(120):
        if not b.active.any():
            break
        u = np.tile(gen.random(samples), k)
        sim.step(b, u, call_at, take_at, forced if i == 0 else None, face)
    written = sim.scores(b)[0].astype(float)
    others = (written.sum(1) - written[:, me]) / (n - 1)
    edge = (written[:, me] - others).reshape(k, samples).mean(1)
    best: dict[int, float] = {}
    for i, (_, _, action) in enumerate(moves):
        best[action] = min(float(edge[i]), best.get(action, float(edge[i])))
    return min(best, key=lambda a: (best[a], a))
