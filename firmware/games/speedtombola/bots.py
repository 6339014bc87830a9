"""Speedtombola computer players (Leicht, Normal, Stark) and Rat, the advice of Stark.

Every function takes only `view(seat)` of the seat to move, never the true state.
Leicht takes by feel once enough groschen lie on the lot (a random threshold per
decision). Normal weighs what the lot costs its Garnituren against the groschen and
keeps a small reserve. Stark samples many drums consistent with its view (each unseen
lot is removed or still in the drum, uniformly) and follows the open lot round the table
on them: for each move that may take it (its own first, then each seat in turn, twice
round), the round played to its end for all seats with closed-threshold rollout policies
(`sim`): each opponent's drawn, row by row, from Stark's belief about how that opponent
plays (`belief`, rebuilt from the match's history in the view), its own STARK_SELF.
"Nein danke" is these outcomes weighed by who takes the lot where, found backwards from
the last move: a searching opponent takes it where that wins it more of the match than
passing on, a threshold player where its threshold says (by the belief's chance that the
opponent searches), Stark itself where taking wins it more. Nehmen and "Nein danke" are
compared on the same drums (common random numbers), by the chance to win the match (the
points of finished rounds counted, a tie as a split share), and by expected round points
where the chances are equal.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property
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

STARK_CIRCUITS = 2
"""How far Stark follows the open lot move by move: twice round the table (at most
STARK_MOVES moves), each mover taking it or passing it on; the rollout policies after."""
STARK_MOVES = 8
STARK_DRUMS: dict[int, tuple[int, int]] = {3: (200, 600), 4: (150, 450)}
"""Per table size, Stark's drums: a first look, and all it plays when that is close;
BIG_TABLE_DRUMS at 5 to 7 players. A bigger table follows more moves and each drum costs
more, so fewer drums keep a decision in the time a Zero 2 W has."""
BIG_TABLE_DRUMS = (120, 360)
STARK_PLAYOUTS = 2000
"""Rat's drums (every move that may take the lot played out on each of them)."""
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
    """A first look on a few drums; more (:data:`STARK_DRUMS`) only when the options are close."""
    first, total = STARK_DRUMS.get(int(view["players"]), BIG_TABLE_DRUMS)
    played = _Circulation.play(view, rng, first)
    gain = played.win_gain()
    if abs(gain.mean()) > CLEAR_GAP_SE * gain.std(ddof=1) / np.sqrt(len(gain)) + 1e-9:
        return Move.NEHMEN if gain.mean() > 0 else Move.NEIN_DANKE
    played = played.joined(_Circulation.play(view, rng, total - first, 0, played.opponents))
    return _better(float(played.win_gain().mean()), float(played.points_gain().mean()))


def _better(win_gain: float, points_gain: float) -> Move:
    """Nehmen when it wins the match more often; on equal chances, when it costs fewer points."""
    if abs(win_gain) > 1e-9:
        return Move.NEHMEN if win_gain > 0 else Move.NEIN_DANKE
    return Move.NEHMEN if points_gain > 0 else Move.NEIN_DANKE


def _match_points(view: dict[str, Any]) -> np.ndarray:
    return np.array(view.get("match_points") or [0] * int(view["players"]), dtype=np.int64)


def _win_shares(points: np.ndarray) -> np.ndarray:
    """(..., n) every seat's share of first place per row (a tie splits it)."""
    best = points.min(axis=-1, keepdims=True)
    first = points == best
    return first / first.sum(axis=-1, keepdims=True)


Stage = tuple[int, int, np.ndarray]
"""A move that may take the open lot: (mover, pot, every seat's groschen before it)."""


def stark_moves(players: int) -> int:
    """How many moves Stark follows the open lot: STARK_CIRCUITS times round the table,
    at most STARK_MOVES."""
    return min(STARK_CIRCUITS * players, STARK_MOVES)


def _stages(view: dict[str, Any], moves: int) -> list[Stage]:
    """The first `moves` moves that may take the open lot, from the seat to move on,
    ending early at a mover without a groschen (it must take)."""
    seat, _, pot, _, _ = _mover(view)
    groschen = np.array(view["groschen"], dtype=np.int64)
    n = len(groschen)
    stages = []
    for k in range(moves):
        mover = (seat + k) % n
        stages.append((mover, pot + k, groschen.copy()))
        if groschen[mover] == 0:
            break
        groschen[mover] -= 1
    return stages


@dataclass(frozen=True)
class _Circulation:
    """The open lot followed round the table on the same drums: for each move that may take
    it (the seat to move first), every seat's points when that mover takes it; and, unless
    the last of them must take, the points when the rollout policies play on after the last
    pass. `passing` weighs these parts into "Nein danke" (:func:`_passing`)."""

    view: dict[str, Any]
    stages: list[Stage]
    opponents: belief.Opponents
    points: np.ndarray
    """(parts, drums, n) round points."""

    @classmethod
    def play(
        cls,
        view: dict[str, Any],
        rng: np.random.Generator,
        count: int,
        moves: int = 0,
        opponents: belief.Opponents | None = None,
    ) -> _Circulation:
        """Every part played out on the same `count` drums, noise and opponents, in one
        simulation; the lot followed for `moves` moves (:func:`stark_moves` if 0; with 1,
        "Nein danke" is the rollout policies' alone, as Stark played before issue 22's
        session 15; `opponents`: Stark's beliefs, rebuilt from the view if None)."""
        _, lot, _, _, _ = _mover(view)
        opponents = opponents or belief.Opponents.of(view)
        n, drum = int(view["players"]), int(view["drum"])
        unseen = np.array(view["unseen"], dtype=np.int64)
        order = np.argsort(rng.random((count, len(unseen))), axis=1)[:, :drum]
        draws = unseen[order]
        noise = rng.uniform(-1.0, 1.0, (count, drum + 1, n))
        own = len(belief.FAMILY)
        choices = belief.rollout_choices(view, rng, count, own, opponents.beliefs)
        policies = stack_policies(choices, (*belief.FAMILY, STARK_SELF))
        holdings = np.broadcast_to(bitmasks(view["lots"]), (count, n))
        stages = _stages(view, moves or stark_moves(n))
        parts = []
        for mover, pot, groschen in stages:
            stack = np.broadcast_to(groschen, (count, n)).copy()
            parts.append(_took(holdings.copy(), stack, mover, lot, pot))
        mover, pot, groschen = stages[-1]
        if groschen[mover] > 0:  # the last pass: the lot goes on round by the policies
            stack = np.broadcast_to(groschen, (count, n)).copy()
            stack[:, mover] -= 1
            seats, pots = np.full(count, (mover + 1) % n), np.full(count, pot + 1)
            after = Batch(holdings.copy(), stack, seats, pots)
            parts.append(advance(after, np.full((count, 1), lot), policies, noise[:, :1], drum))
        both = Batch(*(np.concatenate(field) for field in zip(*map(_fields, parts), strict=True)))
        if drum:
            times = len(parts)
            both = simulate(  # every part on the same drums and noise, shared uncopied
                both,
                draws,
                policies.repeated(times),
                noise[:, 1:],
                drum - 1,
            )
        return cls(view, stages, opponents, both.points.reshape(len(parts), count, n))

    def joined(self, more: _Circulation) -> _Circulation:
        """These drums and `more`'s together."""
        points = np.concatenate([self.points, more.points], axis=1)
        return _Circulation(self.view, self.stages, self.opponents, points)

    @cached_property
    def shares(self) -> np.ndarray:
        """(parts, drums, n) every seat's share of winning the match."""
        return _win_shares(self.points + _match_points(self.view))

    @property
    def nehmen(self) -> Rows:
        """Per drum, Nehmen's (points, round win shares, match win shares): the first part."""
        return self.points[0], _win_shares(self.points[0]), self.shares[0]

    @cached_property
    def nein_danke(self) -> Rows:
        """Per drum, "Nein danke"'s (points, round win shares, match win shares): the
        parts weighed by :func:`_passing`."""
        weights = _passing(self.view, self.stages, self.shares.mean(axis=1), self.opponents)
        points, rounds, match = (
            np.tensordot(weights, a, 1)
            for a in (self.points, _win_shares(self.points), self.shares)
        )
        return points, rounds, match

    def win_gain(self) -> np.ndarray:
        """Per drum, what Nehmen gains over "Nein danke" in match win share."""
        seat = int(self.view["seat"])
        return self.shares[0, :, seat] - self.nein_danke[2][:, seat]

    def points_gain(self) -> np.ndarray:
        """Per drum, the points Nehmen saves over "Nein danke"."""
        seat = int(self.view["seat"])
        return self.nein_danke[0][:, seat] - self.points[0, :, seat]


def _passing(
    view: dict[str, Any], stages: list[Stage], shares: np.ndarray, opponents: belief.Opponents
) -> np.ndarray:
    """How "Nein danke" weighs the parts of a circulation, by backward induction from the
    last: each later mover takes the lot where taking wins it more of the match than what
    follows its pass — Stark's own seat always so; an opponent so by the chance that it
    searches, else by the chance its threshold takes it at that pot (`opponents`).
    `shares` (parts, n): each part's mean match win shares."""
    seat = int(view["seat"])
    threshold = np.zeros(len(stages))  # each opponent's chance to take by its threshold
    for other, posterior in opponents.beliefs.items():
        at = [k for k, (mover, _, _) in enumerate(stages) if mover == other]
        moves = [(stages[k][1], int(stages[k][2][other])) for k in at]
        threshold[at] = belief.take_now(view, other, moves, posterior)
    parts = len(shares)
    weights = np.zeros(parts)
    weights[-1] = 1.0
    for k in range(len(stages) - 1, 0, -1):
        mover, pot, groschen = stages[k]
        if groschen[mover] == 0:
            continue  # the last stage, which must take: its weight is set
        taking = np.zeros(parts)
        taking[k] = 1.0
        rational = float(shares[k, mover] > weights @ shares[:, mover])
        if mover == seat:
            take = rational
        else:
            searcher = opponents.searchers[mover]
            take = searcher * rational + (1.0 - searcher) * float(threshold[k])
        weights = take * taking + (1.0 - take) * weights
    return weights


def _fields(batch: Batch) -> tuple[np.ndarray, ...]:
    return batch.holdings, batch.groschen, batch.seat, batch.pot


def _took(holdings: np.ndarray, stack: np.ndarray, seat: int, lot: int, pot: int) -> Batch:
    """The rounds right after the seat to move takes the open lot: it decides first next."""
    took_h, took_g = holdings.copy(), stack.copy()
    took_h[:, seat] |= 1 << lot
    took_g[:, seat] += pot
    return Batch(took_h, took_g, np.full(len(took_h), seat), np.zeros(len(took_h), dtype=np.int64))


Rows = tuple[np.ndarray, np.ndarray, np.ndarray]
"""Per drum and seat: (points, round win shares, match win shares)."""


def _estimate(move: Move, rows: Rows, seat: int) -> OptionEstimate:
    """An option's estimate from its drums' (points, round win shares, match win shares)."""
    points, round_shares, match_shares = rows
    mine = points[:, seat]
    return OptionEstimate(
        move=move,
        points=float(mine.mean()),
        points_se=float(mine.std(ddof=1) / np.sqrt(len(mine))),
        round_win=float(round_shares[:, seat].mean()),
        match_win=float(match_shares[:, seat].mean()),
    )


def advice(view: dict[str, Any], *, rng: random.Random, playouts: int = STARK_PLAYOUTS) -> Advice:
    """Rat for the seat to move: Stark's choice with the estimates of both options.

    `rng` is the advice's own generator (the box's `app.rng`), never a record's stream."""
    seat, _, _, groschen, _ = _mover(view)
    played = _Circulation.play(view, _numpy(rng), max(2, playouts))
    nehmen = _estimate(Move.NEHMEN, played.nehmen, seat)
    if groschen == 0:
        return Advice(Move.NEHMEN, nehmen, None, played.points.shape[1])
    nein = _estimate(Move.NEIN_DANKE, played.nein_danke, seat)
    return Advice(shown_choice(nehmen, nein), nehmen, nein, played.points.shape[1])


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
