"""Test opponents for Speedtombola: players that are not Stark's own model, for tests and
tournaments (`spielleiter-host tournament speedtombola --seats stark,patient,patient`).

Each is a closed-threshold policy (sim.Policy) played on the seat's view alone:

* `patient`: takes only once the pot covers what the lot costs it (cost 1, no bias);
* `greedy`: takes a lot that costs it little at once, anything else early;
* `hoarder`: sits on its groschen and takes only when the pot pays well over the cost;
* `noisy`: Normal's sense of cost with a wide random temper per decision;
* `deep`: a searching opponent — Stark's search (drums sampled from its view, opponents
  from its beliefs) with 6000 drums per option and no early stop: tenths of a second a
  decision, three times Stark's look.
* `ismcts`: information-set Monte Carlo tree search as published for No Thanks! (single
  observer): 400 iterations a move; each draws a drum consistent with the view (the
  unseen lots shuffled, the first `drum` of them in the drum), walks one tree of every
  seat's takes and passes (and the lots a take turns up) by UCB1 on each mover's win
  share, adds a node, plays the round out with Normal's thresholds (no noise) and backs
  the win shares (ties split, the match's finished rounds counted) up the path. It moves
  by the most visited choice. Pure Python, written for these tests; no part of Stark.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

from spielleiter.games.speedtombola.rules import Move, lot_cost, round_points
from spielleiter.games.speedtombola.sim import Policy

OPPONENTS: dict[str, Policy] = {
    "patient": Policy(cost=1.0),
    "greedy": Policy(cost=0.3, bias=-2.0),
    "hoarder": Policy(cost=1.0, bias=4.0, reserve=2, slope=2),
    "noisy": Policy(cost=0.2, lot=0.15, noise=6.0, reserve=3, slope=1),
}


DEEP_PLAYOUTS = 6000
ISMCTS_ITERATIONS = 400
ISMCTS_EXPLORE = 0.7
"""UCB1's exploration constant on win shares in [0, 1]."""
SEARCHERS = ("deep", "ismcts")
"""Test opponents that search rather than follow a threshold."""


def choose(view: Mapping[str, Any], *, level: str, rng: random.Random) -> int:
    """The move of test opponent `level` on its seat's view."""
    if level == "deep":
        return _deep(dict(view), rng)
    if level == "ismcts":
        return ismcts(view, rng)
    seat = int(view["seat"])
    lot, pot = int(view["lot"]), int(view["pot"])
    groschen = int(view["groschen"][seat])
    if groschen == 0:
        return Move.NEHMEN
    policy = OPPONENTS[level]
    u = rng.uniform(-1.0, 1.0) if policy.noise else 0.0
    cost = lot_cost(view["lots"][seat], lot)
    take = policy.accepts(cost, lot, int(view["drum"]), u, pot, groschen)
    return Move.NEHMEN if take else Move.NEIN_DANKE


def _deep(view: dict[str, Any], rng: random.Random) -> int:
    from spielleiter.games.speedtombola import bots

    seat = int(view["seat"])
    if int(view["groschen"][seat]) == 0:
        return Move.NEHMEN
    generator = bots._numpy(rng)
    played = bots._Circulation.play(view, generator, DEEP_PLAYOUTS, moves=1)
    return bots._better(float(played.win_gain().mean()), float(played.points_gain().mean()))


def ismcts(view: Mapping[str, Any], rng: random.Random, iterations: int = ISMCTS_ITERATIONS) -> int:
    """The IS-MCTS searcher's move on the view (see the module's text)."""
    me = int(view["seat"])
    if int(view["groschen"][me]) == 0:
        return Move.NEHMEN
    tree: dict[tuple[int, ...], list[float]] = {}
    for _ in range(iterations):
        _iteration(view, rng, tree)
    root = tree[()]
    return Move.NEHMEN if root[0] > root[2] else Move.NEIN_DANKE


def _iteration(
    view: Mapping[str, Any], rng: random.Random, tree: dict, first: bool | None = None
) -> list[int]:
    """One determinised descent, expansion, playout and back-up; every seat's points
    (the match's finished rounds counted). With `first` the seat to move takes (True) or
    passes, and the tree below that move is kept apart (for a reference search)."""
    from spielleiter.games.speedtombola.bots import NORMAL

    n = int(view["players"])
    unseen = list(view["unseen"])
    rng.shuffle(unseen)
    drum = unseen[: int(view["drum"])]
    lots = [set(x) for x in view["lots"]]
    groschen = [int(g) for g in view["groschen"]]
    seat, lot, pot = int(view["seat"]), int(view["lot"]), int(view["pot"])
    key: tuple[int, ...] = () if first is None else (2 + int(first),)
    path: list[tuple[list[float], int, int]] = []
    growing = True
    while True:
        if first is not None:  # the mover's forced move (it must take without groschen)
            take, first = first or groschen[seat] == 0, None
        elif groschen[seat] == 0:
            take = True
        elif growing:
            node = tree.get(key)
            if node is None:
                node = tree[key] = [0.0, 0.0, 0.0, 0.0]
                growing = False
            take = _select(node, rng)
            path.append((node, 0 if take else 2, seat))
        else:
            take = NORMAL.accepts(
                lot_cost(lots[seat], lot), lot, len(drum), 0.0, pot, groschen[seat]
            )
        if take:
            lots[seat].add(lot)
            groschen[seat] += pot
            if not drum:
                break
            lot, pot = drum.pop(), 0
            key += (1, lot)
        else:
            groschen[seat] -= 1
            pot += 1
            seat = (seat + 1) % n
            key += (0,)
    finished = view.get("match_points") or [0] * n
    points = [round_points(lots[s], groschen[s]) + int(finished[s]) for s in range(n)]
    share = win_shares(points)
    for node, at, mover in path:
        node[at] += 1.0
        node[at + 1] += share[mover]
    return points


def win_shares(points: list[int]) -> list[float]:
    """Each seat's share of first place (the fewest points; a tie splits it)."""
    best = min(points)
    winners = points.count(best)
    return [1.0 / winners if p == best else 0.0 for p in points]


def _select(node: list[float], rng: random.Random) -> bool:
    """UCB1 between take (node[0:2]: visits, wins) and pass (node[2:4]); untried first."""
    if node[0] == 0 or node[2] == 0:
        if node[0] == node[2]:
            return rng.random() < 0.5
        return node[0] == 0
    total = math.log(node[0] + node[2])
    take = node[1] / node[0] + ISMCTS_EXPLORE * math.sqrt(total / node[0])
    passing = node[3] / node[2] + ISMCTS_EXPLORE * math.sqrt(total / node[2])
    return take >= passing
