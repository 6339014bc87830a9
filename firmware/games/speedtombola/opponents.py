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
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from spielleiter.games.speedtombola.rules import Move, lot_cost
from spielleiter.games.speedtombola.sim import Policy

OPPONENTS: dict[str, Policy] = {
    "patient": Policy(cost=1.0),
    "greedy": Policy(cost=0.3, bias=-2.0),
    "hoarder": Policy(cost=1.0, bias=4.0, reserve=2, slope=2),
    "noisy": Policy(cost=0.2, lot=0.15, noise=6.0, reserve=3, slope=1),
}


DEEP_PLAYOUTS = 6000
SEARCHERS = ("deep",)
"""Test opponents that search rather than follow a threshold."""


def choose(view: Mapping[str, Any], *, level: str, rng: random.Random) -> int:
    """The move of test opponent `level` on its seat's view."""
    if level == "deep":
        return _deep(dict(view), rng)
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
    win, points = bots._paired(view, generator, DEEP_PLAYOUTS)
    return bots._better(float(win.mean()), float(points.mean()))
