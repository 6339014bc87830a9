"""What Stark believes about how each opponent plays, rebuilt from the match's history.

The family: closed-threshold policies (sim.Policy) that take once the pot reaches

    cost_w x (what the lot costs that seat) + lot_w x (the lot's number) + bias + noise

lowered by a groschen per groschen below a reserve of 3, with cost_w in {0, 0.2, 0.5,
1}, lot_w in {0, 0.15, 0.35} and bias in {-3, 0, 3}: 36 policies, from the greedy
(takes nearly anything at once) through Normal (0.2, 0.15, 0) to the patient (takes
only once the pot covers the cost, 1, 0, 0) and the hoarder (1, 0, 3). The noise is
uniform in [-1.5, 1.5) per decision.

The prior is uniform over the family: with no evidence the belief is broad. Every take
and pass an opponent made this match (view["history"]) is evidence: under a policy the
chance of taking is that of its noisy threshold lying at or below the pot (plus the
reserve allowance), a closed form; a forced take (no groschen) says nothing. A tremble
of 5 % keeps a move no policy of the family would make from ruling all of them out.
The posterior is prior x the product of these chances, normalised. Stark's rollouts
draw each opponent's policy from its posterior, row by row.

Whether an opponent plays a threshold at all or searches (searcher_chance): the family's
likelihood of its decisions against a constant chance of taking, which explains a
searcher's moves better; Stark weighs "takes where taking pays" by it when it follows the
open lot round the table (bots).

Worked example (tests/test_speedtombola_belief.py, docs/speedtombola.md): an opponent
passed a lot 30 costing it 30 with 5 groschen on it, then took a lot 12 costing it 12
with 4 groschen on it. A patient policy (cost 1) takes a 12 only at a pot of about 11,
so the twelve patient policies fall from 1/3 of the belief to 0.034 together; the four
likeliest now (0.148, 0.148, 0.124, 0.124) all take a 12 at a pot of 4 to 6.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import product
from math import lgamma
from typing import Any

import numpy as np
from spielleiter.games.speedtombola.rules import Move, lot_cost
from spielleiter.games.speedtombola.sim import Policy

NOISE = 1.5
TREMBLE = 0.05
SEARCHER_PRIOR = 0.5
"""The chance, before any move of it is seen, that an opponent searches rather than
plays a threshold of the family."""
FAMILY: tuple[Policy, ...] = tuple(
    Policy(cost=c, lot=lot, bias=b, noise=NOISE, reserve=3, slope=1)
    for c, lot, b in product((0.0, 0.2, 0.5, 1.0), (0.0, 0.15, 0.35), (-3.0, 0.0, 3.0))
)


@cache
def _fields(policies: tuple[Policy, ...]) -> dict[str, np.ndarray]:
    """Each field of the policies as a (K, 1) column (read-only: kept between calls)."""
    columns = {}
    for name in ("cost", "lot", "drum", "bias", "milk", "slope", "reserve", "noise"):
        column = np.array([float(getattr(p, name)) for p in policies])[:, None]
        column.flags.writeable = False
        columns[name] = column
    return columns


_FAMILY_FIELDS = _fields(FAMILY)


def take_chance(policies: Sequence[Policy], decisions: Sequence[Mapping[str, Any]]) -> np.ndarray:
    """(K, D): the chance that each policy takes at each decision (1 when it must).
    All policies at once, each (K, D) cell by the same float steps as one policy alone."""

    def seen(key: str) -> np.ndarray:
        return np.array([d[key] for d in decisions], dtype=np.float64)

    each = (_FAMILY_FIELDS if policies is FAMILY else _fields(tuple(policies))).__getitem__

    cost, lot, drum, pot, groschen = (seen(k) for k in ("cost", "lot", "drum", "pot", "groschen"))
    base = each("cost") * cost + each("lot") * lot + each("drum") * drum + each("bias")
    base = base + each("milk") * (cost <= 0)
    allowance = pot + each("slope") * np.maximum(0.0, each("reserve") - groschen)
    noise = each("noise")
    noisy = noise > 0
    smooth = np.clip(((allowance - base) / np.where(noisy, noise, 1.0) + 1.0) / 2.0, 0.0, 1.0)
    sharp = (np.ceil(base) <= allowance).astype(np.float64)
    chance = np.where(noisy, smooth, sharp)
    return np.where(groschen == 0, 1.0, chance).reshape(len(policies), len(decisions))


def _decisions(history: Sequence[Mapping[str, Any]], seat: int) -> list[Mapping[str, Any]]:
    """The seat's decisions that say something (not a forced take)."""
    return [d for d in history if d["seat"] == seat and d["groschen"] > 0]


def _log_likelihoods(
    decisions: Sequence[Mapping[str, Any]], family: Sequence[Policy]
) -> np.ndarray:
    """(K,) each policy's log chance of making these decisions, with the tremble."""
    took = np.array([d["move"] == Move.NEHMEN for d in decisions])
    chance = take_chance(family, decisions)
    likely = np.where(took, chance, 1.0 - chance) * (1.0 - TREMBLE) + TREMBLE / 2.0
    return np.asarray(np.log(likely).sum(axis=1))


def posterior(
    history: Sequence[Mapping[str, Any]],
    seat: int,
    family: Sequence[Policy] = FAMILY,
    prior: np.ndarray | None = None,
) -> np.ndarray:
    """(K,) the belief over `family` for one seat, from its decisions in `history`."""
    mine = _decisions(history, seat)
    return _posterior(_log_likelihoods(mine, family) if mine else None, len(family), prior)


def _posterior(logs: np.ndarray | None, size: int, prior: np.ndarray | None = None) -> np.ndarray:
    """The posterior from the policies' log likelihoods (None: no evidence)."""
    weights = np.full(size, 1.0 / size) if prior is None else np.asarray(prior)
    if logs is None:
        return weights / weights.sum()
    log = np.log(weights) + logs
    log -= log.max()
    belief = np.exp(log)
    return belief / belief.sum()


def searcher_chance(history: Sequence[Mapping[str, Any]], seat: int) -> float:
    """The chance that `seat` searches rather than plays a threshold of the family.

    A model comparison from its decisions: the family's mean likelihood (its uniform
    prior) against a constant chance of taking of unknown size (uniform: t! p! / (t + p +
    1)! for t takes and p passes), which explains a searcher's moves better than any
    threshold does; SEARCHER_PRIOR before any evidence."""
    mine = _decisions(history, seat)
    return _searcher(_log_likelihoods(mine, FAMILY), mine) if mine else SEARCHER_PRIOR


def _searcher(logs: np.ndarray, decisions: Sequence[Mapping[str, Any]]) -> float:
    """searcher_chance from the family's log likelihoods `logs` of these decisions."""
    top = float(logs.max())
    family = top + float(np.log(np.exp(logs - top).mean()))
    takes = sum(d["move"] == Move.NEHMEN for d in decisions)
    passes = len(decisions) - takes
    constant = lgamma(takes + 1) + lgamma(passes + 1) - lgamma(len(decisions) + 2)
    odds = family - constant + np.log1p(-SEARCHER_PRIOR) - np.log(SEARCHER_PRIOR)
    return float(1.0 / (1.0 + np.exp(min(odds, 700.0))))


def take_now(
    view: Mapping[str, Any], seat: int, moves: Sequence[tuple[int, int]], belief: np.ndarray
) -> np.ndarray:
    """For each of the seat's `moves` (pot, its groschen) at the view's open lot, the chance
    that it takes the lot, played by its `belief` over the family."""
    lot = int(view["lot"])
    cost, drum = lot_cost(view["lots"][seat], lot), int(view["drum"])
    decisions = [
        {"cost": cost, "lot": lot, "drum": drum, "pot": pot, "groschen": groschen}
        for pot, groschen in moves
    ]
    return np.asarray(belief @ take_chance(FAMILY, decisions))


def beliefs(view: Mapping[str, Any]) -> dict[int, np.ndarray]:
    """Each opponent's posterior, from the view's history."""
    history = view.get("history") or []
    me = int(view["seat"])
    return {s: posterior(history, s) for s in range(int(view["players"])) if s != me}


@dataclass(frozen=True)
class Opponents:
    """What Stark believes of each opponent at one decision: its posterior over the family
    and the chance that it searches."""

    beliefs: dict[int, np.ndarray]
    searchers: dict[int, float]

    @classmethod
    def of(cls, view: Mapping[str, Any]) -> Opponents:
        """Both from the view's history, each seat's decisions weighed once."""
        history = view.get("history") or []
        me = int(view["seat"])
        posteriors, searchers = {}, {}
        for seat in (s for s in range(int(view["players"])) if s != me):
            mine = _decisions(history, seat)
            logs = _log_likelihoods(mine, FAMILY) if mine else None
            posteriors[seat] = _posterior(logs, len(FAMILY))
            searchers[seat] = SEARCHER_PRIOR if logs is None else _searcher(logs, mine)
        return cls(posteriors, searchers)


def rollout_choices(
    view: Mapping[str, Any],
    rng: np.random.Generator,
    rows: int,
    own: int,
    posteriors: Mapping[int, np.ndarray] | None = None,
) -> np.ndarray:
    """(rows, n) policy indices: each opponent's drawn from its belief (`posteriors`, else
    rebuilt from the view); `own` for the seat to move (an index into the family extended by
    the mover's own policy)."""
    n = int(view["players"])
    choices = np.full((rows, n), own, dtype=np.int64)
    for seat, belief in (beliefs(view) if posteriors is None else posteriors).items():
        choices[:, seat] = rng.choice(len(belief), size=rows, p=belief)
    return choices


def summary(belief: np.ndarray, top: int = 3) -> list[tuple[Policy, float]]:
    """The most likely policies with their weights (for docs and tests)."""
    order = np.argsort(belief)[::-1][:top]
    return [(FAMILY[i], float(belief[i])) for i in order]
