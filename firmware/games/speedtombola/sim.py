"""The Speedtombola simulator: many rounds at once as numpy arrays, one lot per step.

While a lot goes round, no holding changes. A rollout policy in closed-threshold form
takes once the pot reaches a threshold that depends on the lot's cost to that seat, the
lot and the drum (plus noise drawn per playout, lot and seat), lowered by `slope` for
each groschen below `reserve`; nobody passes without a groschen. So each seat's first
accepting visit has a closed form (its k-th visit sees the starting pot + its offset
from the first decider + k x players, and holds its groschen - k), the taker is the
seat whose first accepting visit comes first, and every seat's passes follow.

Holdings are bitmasks (bit x set: lot x held). `scalar_round` plays the same round
through the rule engine, one decision at a time; the tests hold the two to each other.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from spielleiter.games.speedtombola.rules import Move, SpeedtombolaGame, lot_cost

EPSILON = 1e-9
"""Below any fraction a ceiling of a small whole number over 1..9 seats can meet."""
DEFAULT_CHUNK = 8192
"""Playouts per numpy pass; bounds the simulator's memory."""


@dataclass(frozen=True)
class Policy:
    """A closed-threshold rollout policy: take once pot >= threshold (see module text)."""

    cost: float = 1.0
    """Weight of the lot's cost to the seat's Garnituren."""
    lot: float = 0.0
    """Weight of the lot's number (how big the Staubfänger looks)."""
    drum: float = 0.0
    """Weight of the lots still in the drum."""
    bias: float = 0.0
    noise: float = 0.0
    """Scale of the noise u in [-1, 1) drawn per playout, lot and seat."""
    milk: float = 0.0
    """Extra threshold on a lot that joins the seat's Garnituren (cost <= 0)."""
    reserve: int = 0
    slope: int = 0
    """How much lower the threshold lies per groschen below `reserve`."""

    def threshold(self, cost: Any, lot: Any, drum: Any, u: Any) -> Any:
        """The pot this seat wants before it takes; ints in, int out (arrays elementwise)."""
        raw = (
            self.cost * cost
            + self.lot * lot
            + self.drum * drum
            + self.bias
            + self.noise * u
            + self.milk * (cost <= 0)
        )
        return np.ceil(raw).astype(np.int64) if isinstance(raw, np.ndarray) else math.ceil(raw)

    def accepts(self, cost: int, lot: int, drum: int, u: float, pot: int, groschen: int) -> bool:
        """Whether this policy takes the open lot (the scalar twin of the closed form)."""
        if groschen == 0:
            return True
        below = max(0, self.reserve - groschen)
        return pot >= self.threshold(cost, lot, drum, u) - self.slope * below


def _ceil_div(a: np.ndarray, b: int | np.ndarray) -> np.ndarray:
    return -((-a) // b)


def bitmasks(lots: Sequence[Sequence[int]]) -> np.ndarray:
    """Each seat's lots as one bitmask (bit x: lot x)."""
    return np.array([sum(1 << x for x in held) for held in lots], dtype=np.int64)


def _bit_tables() -> tuple[np.ndarray, np.ndarray]:
    values = np.arange(1 << 16, dtype=np.int64)
    sums = np.zeros(1 << 16, dtype=np.int64)
    counts = np.zeros(1 << 16, dtype=np.int64)
    for bit in range(16):
        on = (values >> bit) & 1
        sums += on * bit
        counts += on
    return sums, counts


_BIT_SUM, _BIT_COUNT = _bit_tables()
"""For every 16-bit number: the sum of its set bits' positions, and how many are set."""


def lot_points(holdings: np.ndarray) -> np.ndarray:
    """The lowest lot of each Garnitur, summed, for bitmask holdings of any shape.

    The lowest lot of a Garnitur is a set bit whose lower neighbour is clear; their
    positions are summed 16 bits at a time from a table (lots reach bit 35)."""
    starts = holdings & ~(holdings << 1)
    total = _BIT_SUM[starts & 0xFFFF]
    for k in (1, 2):
        chunk = (starts >> (16 * k)) & 0xFFFF
        total = total + _BIT_SUM[chunk] + (16 * k) * _BIT_COUNT[chunk]
    return total


@dataclass
class Batch:
    """Rounds in progress: one row per playout, one column per seat."""

    holdings: np.ndarray
    """(B, n) int64 bitmasks."""
    groschen: np.ndarray
    """(B, n) int64."""
    seat: np.ndarray
    """(B,) the seat that decides first on the next lot."""
    pot: np.ndarray
    """(B,) groschen already on the next lot."""

    @property
    def points(self) -> np.ndarray:
        """(B, n) round points: Garnituren minus groschen."""
        return lot_points(self.holdings) - self.groschen


Weights = dict[str, np.ndarray]
"""Per-row policies: for each Policy field a (B, n) array (row, seat)."""


def policy_weights(policies: Sequence[Policy]) -> Weights:
    """The fields of one policy per seat, as (n,) arrays (the same for every row)."""
    return {
        name: np.array([getattr(p, name) for p in policies], dtype=np.float64)
        for name in Policy.__dataclass_fields__
    }


def stack_weights(choices: np.ndarray, family: Sequence[Policy]) -> Weights:
    """Per-row policies from indices into `family`: choices (B, n) -> (B, n) per field."""
    table = policy_weights(family)
    return {name: values[choices] for name, values in table.items()}


def advance(
    batch: Batch,
    lots: np.ndarray,
    policies: Sequence[Policy] | Weights,
    noise: np.ndarray,
    drum: int,
) -> Batch:
    """Play the lots of each row in order (one numpy step per lot) and return the batch.

    lots: (B, L) lots in draw order; noise: (B, L, n) in [-1, 1); drum: lots left in the
    drum once the first of them lies open; policies: one per seat, or Weights giving each
    row its own. Rows are independent; none is changed in place.
    """
    holdings = batch.holdings.copy()
    # Groschen, pots and visit counts are small whole numbers: float64 holds them exactly
    # and divides faster (a division by n is a product with 1/n and a ceiling, nudged by
    # EPSILON: a whole quotient stays whole, a fraction is at least 1/7 from one).
    groschen = batch.groschen.astype(np.float64)
    seat = batch.seat.astype(np.int64)
    pot = batch.pot.astype(np.float64)
    rows, n = holdings.shape
    w = policies if isinstance(policies, dict) else policy_weights(policies)
    reserve, slope = w["reserve"], w["slope"]
    used = {name: bool(np.any(w[name])) for name in ("lot", "drum", "bias", "noise", "milk")}
    offsets = ((np.arange(n)[None, :] - np.arange(n)[:, None]) % n).astype(np.float64)
    """offsets[s, t]: how many places seat t sits after seat s."""
    per_visit = 1.0 / n
    per_short_visit = 1.0 / (n + slope)
    row = np.arange(rows)
    for j in range(lots.shape[1]):
        lot = lots[:, j].astype(np.int64)
        col = lot[:, None]
        below = (holdings >> (col - 1)) & 1
        above = (holdings >> (col + 1)) & 1
        cost = col - col * below - (col + 1) * above
        raw: np.ndarray = w["cost"] * cost
        if used["lot"]:
            raw = raw + w["lot"] * col
        if used["drum"]:
            raw = raw + w["drum"] * (drum - j)
        if used["bias"]:
            raw = raw + w["bias"]
        if used["noise"]:
            raw = raw + w["noise"] * noise[:, j, :]
        if used["milk"]:
            raw = raw + w["milk"] * (cost <= 0)
        offset = offsets[seat]
        need = np.ceil(raw) - pot[:, None] - offset
        k_plain = np.ceil(need * per_visit - EPSILON)
        k_short = np.ceil((need - slope * (reserve - groschen)) * per_short_visit - EPSILON)
        k_short = np.maximum(k_short, groschen - reserve + 1)
        k = np.maximum(np.minimum(np.minimum(k_plain, k_short), groschen), 0.0)
        visit = offset + k * n
        taker = visit.argmin(axis=1)
        first = visit[row, taker]
        passes = np.ceil((first[:, None] - offset) * per_visit - EPSILON)
        groschen -= np.maximum(passes, 0.0)
        groschen[row, taker] += pot + first
        holdings[row, taker] |= np.left_shift(1, lot)
        seat = taker
        pot = np.zeros(rows)
    return Batch(holdings, groschen.astype(np.int64), seat, pot.astype(np.int64))


def simulate(
    batch: Batch,
    lots: np.ndarray,
    policies: Sequence[Policy] | Weights,
    noise: np.ndarray,
    drum: int,
    chunk: int = DEFAULT_CHUNK,
) -> Batch:
    """`advance` in chunks of rows, so memory stays bounded however many playouts."""
    parts = []
    for start in range(0, lots.shape[0], chunk):
        part = slice(start, start + chunk)
        sub = Batch(batch.holdings[part], batch.groschen[part], batch.seat[part], batch.pot[part])
        chunk_policies: Sequence[Policy] | Weights = policies
        if isinstance(policies, dict):
            chunk_policies = {k: v[part] if v.ndim == 2 else v for k, v in policies.items()}
        parts.append(advance(sub, lots[part], chunk_policies, noise[part], drum))
    return Batch(
        np.concatenate([p.holdings for p in parts]),
        np.concatenate([p.groschen for p in parts]),
        np.concatenate([p.seat for p in parts]),
        np.concatenate([p.pot for p in parts]),
    )


def fresh_batch(rows: int, players: int, groschen: int, start_seat: int) -> Batch:
    """The start of a round for `rows` playouts."""
    return Batch(
        np.zeros((rows, players), dtype=np.int64),
        np.full((rows, players), groschen, dtype=np.int64),
        np.full(rows, start_seat, dtype=np.int64),
        np.zeros(rows, dtype=np.int64),
    )


def deal(rng: np.random.Generator, rows: int, removed: int) -> tuple[np.ndarray, np.ndarray]:
    """Random rounds: (removed lots (B, removed), draw order (B, 33 - removed))."""
    order = np.argsort(rng.random((rows, 33)), axis=1) + 3
    return order[:, :removed], order[:, removed:]


def scalar_round(
    game: SpeedtombolaGame,
    removed: Sequence[int],
    draws: Sequence[int],
    policies: Sequence[Policy],
    noise: np.ndarray,
) -> tuple[list[list[int]], list[int]]:
    """One round through the rule engine, each decision by `policies`: (lots, groschen).

    noise: (L, n) as for `advance`; the first round of the game is played.
    """
    state = game.new_initial_state()
    for lot in removed:
        state.apply_action(int(lot))
    total = len(draws)
    for j, lot in enumerate(draws):
        state.apply_action(int(lot))
        drum = total - j - 1
        while state.lot is not None:
            s = state.seat
            cost = lot_cost(state.lots[s], state.lot)
            u = float(noise[j, s])
            take = policies[s].accepts(cost, state.lot, drum, u, state.pot, state.groschen[s])
            state.apply_action(Move.NEHMEN if take else Move.NEIN_DANKE)
    result = state.results[0]
    return [list(x) for x in result.lots], list(result.groschen)
