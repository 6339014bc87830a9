"""Speedtombola computer players (Leicht, Normal, Stark) and Rat, the advice of Stark.

Every function takes only `view(seat)` of the seat to move, never the true state.
Leicht takes by feel once enough groschen lie on the lot (a random threshold per
decision). Normal weighs what the lot costs its Garnituren against the groschen and
keeps a small reserve. Stark samples many drums consistent with its view (each unseen
lot is removed or still in the drum, uniformly), plays each to the end of the round for
all seats with closed-threshold rollout policies (`sim`): each opponent's drawn, row by
row, from Stark's belief about how that opponent plays (`belief`, rebuilt from the
match's history in the view: broad at first, sharper with every take and pass), its
own STARK_SELF. It compares
Nehmen with "Nein danke" on the same drums (common random numbers). It decides by the
chance to win the match (the points of finished rounds counted, a tie as a split share),
and by expected round points where the chances are equal. Its own rollout policy lets a
lot that joins its Garnituren go round once more, so it passes such a lot whenever the
drums say nobody else wants it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np
from spielleiter.games.speedtombola import belief
from spielleiter.games.speedtombola.rules import Move, lot_cost
from spielleiter.games.speedtombola.sim import (
    Batch,
    Policy,
    advance,
    bitmasks,
    simulate,
    stack_policies,
)

LEVELS = ("leicht", "normal", "stark")

LEICHT = Policy(cost=0.0, lot=0.35, noise=4.0)
"""Takes once the pot reaches about a third of the lot's number, give or take four."""
NORMAL = Policy(cost=0.2, lot=0.15, reserve=3, slope=1)
"""Takes once the pot reaches a fifth of the lot's cost plus 15 % of its number; hurries a
groschen per groschen below its reserve of 3."""
STARK_SELF = Policy(cost=0.2, lot=0.15, noise=1.0, milk=3.0, reserve=3, slope=1)
"""How Stark expects to play on: like Normal, but its connecting lots go round once more."""

STARK_FIRST_PLAYOUTS = 500
"""Stark's first look per option; it plays out more only when the two are close."""
STARK_PLAYOUTS = 2000
CLEAR_GAP_SE = 3.0
"""A difference of this many standard errors counts as clear after the first look."""


@dataclass(frozen=True)
class OptionEstimate:
    """What one choice is worth, estimated over the played-out drums."""

    move: Move
    points: float
    """Expected points of the seat at the end of this round."""
    points_se: float
    """Standard error of `points`."""
    round_win: float
    """Chance to have the fewest points this round (a tie counts as a split share)."""
    match_win: float
    """The same for the match so far (finished rounds + this one); equals round_win in a
    one-round match."""


@dataclass(frozen=True)
class Advice:
    """Rat: what Stark would do and the estimates behind it."""

    recommended: Move
    nehmen: OptionEstimate
    nein_danke: OptionEstimate | None
    """None when the seat has no groschen left (it must take)."""
    playouts: int
    """Drums played out per option."""

    @property
    def options(self) -> dict[Move, OptionEstimate]:
        opts = {Move.NEHMEN: self.nehmen}
        if self.nein_danke is not None:
            opts[Move.NEIN_DANKE] = self.nein_danke
        return opts


def _mover(view: dict[str, Any]) -> tuple[int, int, int, int, int]:
    """(seat, lot, pot, groschen, cost) of the seat to move; the view must be theirs."""
    seat = int(view["seat"])
    if view.get("to_move") != seat or view.get("lot") is None:
        raise ValueError("the view is not of the seat to move at an open lot")
    lot, pot, groschen = int(view["lot"]), int(view["pot"]), int(view["groschen"][seat])
    return seat, lot, pot, groschen, lot_cost(view["lots"][seat], lot)


def choose(view: dict[str, Any], *, level: str, rng: random.Random) -> int:
    """The move of a computer at `level` ("leicht", "normal", "stark").

    All its randomness comes from `rng`: a generator seeded alike gives the same move."""
    seat, lot, pot, groschen, cost = _mover(view)
    if groschen == 0:
        return Move.NEHMEN
    if level in ("leicht", "normal"):
        policy, u = (NORMAL, 0.0)
        if level == "leicht":
            policy, u = (LEICHT, rng.uniform(-1.0, 1.0))
        take = policy.accepts(cost, lot, int(view["drum"]), u, pot, groschen)
        return Move.NEHMEN if take else Move.NEIN_DANKE
    if level == "stark":
        return _stark(view, _numpy(rng))
    raise ValueError(f"unknown level {level!r}; known: {', '.join(LEVELS)}")


def _numpy(rng: random.Random) -> np.random.Generator:
    """A numpy generator seeded from `rng` (the playouts draw in batches)."""
    return np.random.default_rng(rng.getrandbits(64))


def _stark(view: dict[str, Any], rng: np.random.Generator) -> Move:
    """A first look at 500 drums per option; all 2000 only when the options are close."""
    gain, points_gain = _paired(view, rng, STARK_FIRST_PLAYOUTS)
    if abs(gain.mean()) > CLEAR_GAP_SE * gain.std(ddof=1) / np.sqrt(len(gain)) + 1e-9:
        return Move.NEHMEN if gain.mean() > 0 else Move.NEIN_DANKE
    more, more_points = _paired(view, rng, STARK_PLAYOUTS - STARK_FIRST_PLAYOUTS)
    gain, points_gain = np.concatenate([gain, more]), np.concatenate([points_gain, more_points])
    return _better(float(gain.mean()), float(points_gain.mean()))


def _better(win_gain: float, points_gain: float) -> Move:
    """Nehmen when it wins the match more often; on equal chances, when it costs fewer points."""
    if abs(win_gain) > 1e-9:
        return Move.NEHMEN if win_gain > 0 else Move.NEIN_DANKE
    return Move.NEHMEN if points_gain > 0 else Move.NEIN_DANKE


def _paired(view: dict[str, Any], rng: np.random.Generator, count: int) -> tuple[np.ndarray, ...]:
    """Per drum, what Nehmen gains over "Nein danke": (match win share, points saved)."""
    take, passing = _outcomes(view, rng, count)
    seat, match = int(view["seat"]), _match_points(view)
    win = _win_shares(take + match, seat) - _win_shares(passing + match, seat)
    return win, passing[:, seat] - take[:, seat]


def _match_points(view: dict[str, Any]) -> np.ndarray:
    return np.array(view.get("match_points") or [0] * int(view["players"]), dtype=np.int64)


def _win_shares(points: np.ndarray, seat: int) -> np.ndarray:
    """Per row, the seat's share of first place (a tie splits it)."""
    best = points.min(axis=1)
    tied = (points == best[:, None]).sum(axis=1)
    return (points[:, seat] == best) / tied


def _outcomes(view: dict[str, Any], rng: np.random.Generator, count: int) -> tuple[np.ndarray, ...]:
    """Every seat's round points (count, n) after Nehmen and after "Nein danke"."""
    seat, lot, pot, groschen, _ = _mover(view)
    n, drum = int(view["players"]), int(view["drum"])
    unseen = np.array(view["unseen"], dtype=np.int64)
    order = np.argsort(rng.random((count, len(unseen))), axis=1)[:, :drum]
    draws = unseen[order]
    noise = rng.uniform(-1.0, 1.0, (count, drum + 1, n))
    choices = belief.rollout_choices(view, rng, count, own=len(belief.FAMILY))
    policies = stack_policies(choices, (*belief.FAMILY, STARK_SELF))
    holdings = np.broadcast_to(bitmasks(view["lots"]), (count, n)).copy()
    stack = np.broadcast_to(np.array(view["groschen"], dtype=np.int64), (count, n)).copy()
    took = _took(holdings, stack, seat, lot, pot)
    if groschen == 0:
        took = simulate(took, draws, policies, noise[:, 1:], drum - 1) if drum else took
        return took.points, took.points
    # "Nein danke" goes round the open lot first (one step); from then on both options
    # play out in one simulation of twice the rows, on the same drums, noise and opponents.
    stack[:, seat] -= 1
    passed = Batch(holdings, stack, np.full(count, (seat + 1) % n), np.full(count, pot + 1))
    passed = advance(passed, np.full((count, 1), lot), policies, noise[:, :1], drum)
    if not drum:
        return took.points, passed.points
    pairs = zip(_fields(took), _fields(passed), strict=True)
    both = Batch(*(np.concatenate([a, b]) for a, b in pairs))
    rest, doubled = np.concatenate([noise[:, 1:], noise[:, 1:]]), policies.repeated(2)
    points = simulate(both, np.concatenate([draws, draws]), doubled, rest, drum - 1).points
    return points[:count], points[count:]


def _fields(batch: Batch) -> tuple[np.ndarray, ...]:
    return batch.holdings, batch.groschen, batch.seat, batch.pot


def _took(holdings: np.ndarray, stack: np.ndarray, seat: int, lot: int, pot: int) -> Batch:
    """The rounds right after the seat to move takes the open lot: it decides first next."""
    took_h, took_g = holdings.copy(), stack.copy()
    took_h[:, seat] |= 1 << lot
    took_g[:, seat] += pot
    return Batch(took_h, took_g, np.full(len(took_h), seat), np.zeros(len(took_h), dtype=np.int64))


def _estimate(move: Move, points: np.ndarray, seat: int, match: np.ndarray) -> OptionEstimate:
    mine = points[:, seat]
    return OptionEstimate(
        move=move,
        points=float(mine.mean()),
        points_se=float(mine.std(ddof=1) / np.sqrt(len(mine))),
        round_win=float(_win_shares(points, seat).mean()),
        match_win=float(_win_shares(points + match, seat).mean()),
    )


def advice(view: dict[str, Any], *, rng: random.Random, playouts: int = STARK_PLAYOUTS) -> Advice:
    """Rat for the seat to move: Stark's choice with the estimates of both options.

    `rng` is the advice's own generator (the box's `app.rng`), never a record's stream."""
    seat, _, _, groschen, _ = _mover(view)
    take, passing = _outcomes(view, _numpy(rng), max(2, playouts))
    match = _match_points(view)
    nehmen = _estimate(Move.NEHMEN, take, seat, match)
    if groschen == 0:
        return Advice(Move.NEHMEN, nehmen, None, len(take))
    nein = _estimate(Move.NEIN_DANKE, passing, seat, match)
    return Advice(shown_choice(nehmen, nein), nehmen, nein, len(take))


def shown_choice(nehmen: OptionEstimate, nein: OptionEstimate) -> Move:
    """Rat's advice from the numbers as the screen shows them: the higher win chance in
    whole per cent; on equal shown chances, fewer points to one decimal; else Nehmen's
    chance unrounded. So the advice never contradicts what is on the panel."""
    win = round(100 * nehmen.match_win) - round(100 * nein.match_win)
    if win:
        return Move.NEHMEN if win > 0 else Move.NEIN_DANKE
    points = round(nein.points, 1) - round(nehmen.points, 1)
    if abs(points) > 1e-9:
        return Move.NEHMEN if points > 0 else Move.NEIN_DANKE
    return _better(nehmen.match_win - nein.match_win, 0.0)
