"""The Speedtombola simulator as it was before the speed-up (2026-11-30), kept as the
baseline that benchmarks/tombola_sim.py runs beside today's, in the same process, on the
same drums. Not used by the program.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from spielleiter.games.speedtombola.sim import Batch, Policy, Weights, policy_weights


def _ceil_div(a: np.ndarray, b: int | np.ndarray) -> np.ndarray:
    return -((-a) // b)


def lot_points(holdings: np.ndarray) -> np.ndarray:
    """The lowest lot of each Garnitur, summed, for bitmask holdings of any shape."""
    starts = holdings & ~(holdings << 1)
    bits = (starts[..., None] >> np.arange(64, dtype=np.int64)) & 1
    return bits @ np.arange(64, dtype=np.int64)


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
    groschen = batch.groschen.copy()
    seat = batch.seat.astype(np.int64)
    pot = batch.pot.astype(np.int64)
    rows, n = holdings.shape
    w = policies if isinstance(policies, dict) else policy_weights(policies)
    reserve = w["reserve"].astype(np.int64)
    slope = w["slope"].astype(np.int64)
    seats = np.arange(n, dtype=np.int64)
    row = np.arange(rows)
    for j in range(lots.shape[1]):
        lot = lots[:, j].astype(np.int64)
        col = lot[:, None]
        below = (holdings >> (col - 1)) & 1
        above = (holdings >> (col + 1)) & 1
        cost = np.where(below == 1, 0, col) - np.where(above == 1, col + 1, 0)
        raw = (
            w["cost"] * cost
            + w["lot"] * col
            + w["drum"] * (drum - j)
            + w["bias"]
            + w["noise"] * noise[:, j, :]
            + w["milk"] * (cost <= 0)
        )
        threshold = np.ceil(raw).astype(np.int64)
        offset = (seats - seat[:, None]) % n
        need = threshold - pot[:, None] - offset
        k_plain = _ceil_div(need, n)
        k_short = _ceil_div(need - slope * (reserve - groschen), n + slope)
        k_short = np.maximum(k_short, groschen - reserve + 1)
        k = np.maximum(np.minimum(np.minimum(k_plain, k_short), groschen), 0)
        visit = offset + k * n
        taker = visit.argmin(axis=1)
        first = visit[row, taker]
        groschen -= np.maximum(_ceil_div(first[:, None] - offset, n), 0)
        groschen[row, taker] += pot + first
        holdings[row, taker] |= np.left_shift(1, lot)
        seat = taker
        pot = np.zeros_like(pot)
    return Batch(holdings, groschen, seat, pot)
