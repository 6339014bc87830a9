"""Bungee computer players (Leicht, Normal, Stark), on a seat's view only.

Leicht calls as soon as it may; otherwise it plays Normal's move half the time, else
discards a random card group or now and then takes the top discard. Normal is the
simulator's rollout policy: call at 5 points or less, take a top discard worth 3 or
less (the lucky number and Bungee cards count 0), else discard the card group worth
most and draw. Stark samples the hidden cards consistently with what it has seen (its
hand, the lucky card, the discards, the cards others took and still hold, and that a
caller holds 5 points or less), plays every candidate move to the end of the round on
the same samples with the numpy simulator (until all but the longest 2 % of the rounds are
over), and picks the move with the best expected score against the others' average.
In its playouts each other player calls and takes by a style drawn from Stark's belief
about that player (`belief`: a posterior over 15 threshold styles from the match's
public moves and the hands shown at the ends of rounds), its own seat as Normal.
"""

from __future__ import annotations

import random
from typing import Any

from spielleiter.games.bungee.rules import (
    BUNGEE,
    CALL_LIMIT,
    DECK,
    FACES,
    Move,
    Phase,
    card_value,
    discard_action,
)

LEVELS = ("leicht", "normal", "stark")
NORMAL_TAKE = 3
"""Normal takes a top discard that counts this much or less."""
LEICHT_SENSE = 0.5
"""How often Leicht plays Normal's move instead of a random card group."""
STARK_SAMPLES = {2: 192, 3: 192, 4: 96}
"""Samples of the hidden cards Stark plays out per candidate move, by the number of
players: as many as a Zero 2 W plays out in about 100 ms a decision at the median."""
STARK_FEWEST = 48
"""Samples with more players than STARK_SAMPLES names (their rounds are longer)."""
STARK_LONG = 0.02
"""Stark stops its playouts once no more than this share of them still runs (the longest
rounds, which would cost half the turns) and scores those as their hands stand."""


def counts(cards: list[int]) -> list[int]:
    """Cards as counts per face (index = face)."""
    hand = [0] * (BUNGEE + 1)
    for c in cards:
        hand[c] += 1
    return hand


def hand_worth(hand: list[int], lucky: int | None) -> int:
    return sum(card_value(f, lucky) * hand[f] for f in FACES)


def may_call(view: dict[str, Any]) -> bool:
    """The seat to move may call Bungee now."""
    return view["phase"] == Phase.TURN and hand_worth(counts(view["hand"]), view["lucky"]) <= (
        CALL_LIMIT
    )


def _available(view: dict[str, Any]) -> list[int]:
    """Cards per face the seat may discard now (not the card just taken)."""
    hand = counts(view["hand"])
    if view["phase"] == Phase.TAKEN and view["taken"]:
        hand[view["taken"]] -= 1
    return hand


def _best_group(hand: list[int], lucky: int | None, exclude: int = 0) -> int:
    """The face whose cards are worth most together (ties: the higher face)."""
    best, worth = 0, -1
    for f in FACES:
        if hand[f] and f != exclude and card_value(f, lucky) * hand[f] >= worth:
            best, worth = f, card_value(f, lucky) * hand[f]
    return best


def normal(view: dict[str, Any]) -> int:
    """Call at 5 or less; take a cheap top discard; else discard the dearest group."""
    lucky = view["lucky"]
    hand = _available(view)
    if view["phase"] == Phase.TAKEN:
        return discard_action(_best_group(hand, lucky), hand[_best_group(hand, lucky)])
    if may_call(view):
        return int(Move.CALL)
    top = view["discards"][-1] if view["discards"] else 0
    if top and card_value(top, lucky) <= NORMAL_TAKE:
        other = _best_group(hand, lucky, exclude=top)
        if other and card_value(other, lucky) > 0:
            return int(Move.TAKE)
    face = _best_group(hand, lucky)
    return discard_action(face, hand[face])


def leicht(view: dict[str, Any], rng: random.Random) -> int:
    """Call when allowed; else half the time as Normal, half a random group (sometimes
    the top discard)."""
    if rng.random() < LEICHT_SENSE:
        return normal(view)
    hand = _available(view)
    faces = [f for f in FACES if hand[f]]
    if view["phase"] == Phase.TAKEN:
        face = rng.choice(faces)
        return discard_action(face, hand[face])
    if may_call(view):
        return int(Move.CALL)
    if view["discards"] and rng.random() < 0.2:
        return int(Move.TAKE)
    face = rng.choice(faces)
    return discard_action(face, hand[face])


def choose(view: dict[str, Any], *, level: str, rng: random.Random) -> int:
    """The move of the seat whose view this is."""
    if level == "leicht":
        return leicht(view, rng)
    if level == "stark":
        return stark(view, rng)
    return normal(view)


# --- Stark ------------------------------------------------------


def unseen(view: dict[str, Any]) -> list[int]:
    """The cards this seat has not seen: in the others' hands (not taken openly) or the
    pile."""
    left = dict(DECK)
    seen = list(view["hand"]) + list(view["discards"])
    seen += [view["lucky"]] if view["lucky"] else []
    for seat, cards in enumerate(view["known"]):
        if seat != view["seat"]:
            seen += cards
    for c in seen:
        left[c] -= 1
    return [f for f in FACES for _ in range(max(0, left[f]))]


def candidates(view: dict[str, Any]) -> list[tuple[int, int, int]]:
    """(sim kind, face, engine action) of every move Stark weighs."""
    from spielleiter.games.bungee import sim

    hand = _available(view)
    if view["phase"] == Phase.TAKEN:
        return [(sim.TAKEN_DISCARD, f, discard_action(f, hand[f])) for f in FACES if hand[f]]
    moves = [(sim.DISCARD, f, discard_action(f, hand[f])) for f in FACES if hand[f]]
    if view["discards"]:
        top = view["discards"][-1]
        moves += [(sim.TAKE, f, int(Move.TAKE)) for f in FACES if hand[f] and f != top]
    if may_call(view):
        moves.append((sim.CALL, 0, int(Move.CALL)))
    return moves


def sample_batch(view: dict[str, Any], samples: int, rng: Any) -> Any:
    """A sim batch of `samples` deals of the hidden cards consistent with the view."""
    import numpy as np
    from spielleiter.games.bungee import sim

    n, me = view["players"], view["seat"]
    pool = np.array(unseen(view), dtype=np.int64)
    hidden = [0 if s == me else view["hand_sizes"][s] - len(view["known"][s]) for s in range(n)]
    owner = np.concatenate(
        [np.full(h, s) for s, h in enumerate(hidden)] + [np.full(len(pool) - sum(hidden), n)]
    ).astype(np.int64)
    tries = samples * (8 if view["calls"] else 1)
    order = np.argsort(rng.random((tries, len(pool))), axis=1)
    cards = pool[order]
    rows = np.repeat(np.arange(tries), len(pool))
    where = ((rows * (n + 1) + np.tile(owner, tries)) * sim.F + cards.ravel()).astype(np.intp)
    hands = np.bincount(where, minlength=tries * (n + 1) * sim.F).astype(np.int16)
    hands = hands.reshape(tries, n + 1, sim.F)
    for s in range(n):
        for c in view["known"][s] if s != me else []:
            hands[:, s, c] += 1
    hands[:, me] = np.array(counts(view["hand"]), dtype=np.int16)
    lucky = np.full(tries, view["lucky"], dtype=np.int64)
    if view["calls"]:
        vals = sim.values(lucky)
        worth = (hands[:, :n] * vals[:, None, :]).sum(2)
        ok = (worth[:, view["calls"]] <= CALL_LIMIT).all(1)
        keep = np.flatnonzero(ok)
        pick = keep[rng.integers(0, len(keep), samples)] if len(keep) else np.arange(samples)
        hands = hands[pick]
    else:
        hands = hands[:samples]
    disc = np.array(counts(view["discards"]), dtype=np.int16)
    calls = np.zeros(n, dtype=np.int16)
    for number, s in enumerate(view["calls"], start=1):
        calls[s] = number
    first = view["calls"][0] if view["calls"] else -1
    walk = (me - first) % n if view["calls"] else 0
    return sim.Batch(
        hands=hands[:, :n].copy(),
        pile=hands[:, n].copy(),
        disc=np.tile(disc, (samples, 1)),
        top=np.full(samples, view["discards"][-1] if view["discards"] else 0, dtype=np.int16),
        lucky=np.full(samples, view["lucky"], dtype=np.int16),
        seat=np.full(samples, me, dtype=np.int16),
        first=np.full(samples, first, dtype=np.int16),
        walk=np.full(samples, walk, dtype=np.int16),
        calls=np.tile(calls, (samples, 1)),
        taken=np.full(samples, view["taken"] or 0, dtype=np.int16),
        active=np.ones(samples, dtype=bool),
    )


def stark_samples(players: int) -> int:
    """How many samples of the hidden cards Stark plays out at a table of `players`."""
    return STARK_SAMPLES.get(players, STARK_FEWEST)


def evaluate(
    view: dict[str, Any], rng: random.Random, samples: int | None = None
) -> list[tuple[float, int]]:
    """(expected score minus the others' average, engine action) of each candidate, on
    the same samples, draws and opponents' styles (common random numbers); `samples`
    defaults to `stark_samples` of the table."""
    import numpy as np
    from spielleiter.games.bungee import belief, sim

    if samples is None:
        samples = stark_samples(int(view["players"]))
    moves = candidates(view)
    gen = np.random.default_rng(rng.getrandbits(64))
    base = sample_batch(view, samples, gen)
    k = len(moves)
    b = sim.Batch(**{name: np.concatenate([getattr(base, name)] * k) for name in base.__dict__})
    n, me = view["players"], view["seat"]
    forced = np.repeat(np.array([m[0] for m in moves]), samples)
    face = np.repeat(np.array([m[1] for m in moves]), samples)
    call, take = belief.rollout_styles(view, gen, samples, own=(CALL_LIMIT, NORMAL_TAKE))
    call_at, take_at = np.tile(call, (k, 1)), np.tile(take, (k, 1))
    long = STARK_LONG * b.size
    # once half the rounds are over, the running ones go on as a smaller batch, each
    # with its sample's random numbers (`col`) as before
    run, held, col = b, np.arange(b.size), np.tile(np.arange(samples), k)
    for i in range(120):
        running = np.count_nonzero(run.active)
        if not running or (i and running <= long):
            break
        if i and running <= run.size // 2:
            run, held, call_at, take_at, col = sim.compact(b, run, held, call_at, take_at, col)
        u = gen.random(samples)[col]
        sim.step(run, u, call_at, take_at, forced if i == 0 else None, face)
    if run is not b:
        b.update(held, run)
    written = sim.scores(b)[0].astype(float)
    others = (written.sum(1) - written[:, me]) / (n - 1)
    edge = (written[:, me] - others).reshape(k, samples).mean(1)
    return [(float(edge[i]), moves[i][2]) for i in range(k)]


def stark(view: dict[str, Any], rng: random.Random) -> int:
    """The candidate with the best expected score against the others' average."""
    results = evaluate(view, rng)
    best: dict[int, float] = {}
    for edge, action in results:
        best[action] = min(edge, best.get(action, edge))
    return min(best, key=lambda a: (best[a], a))
