"""The Speedtombola simulator: many rounds at once as numpy arrays, one lot per step.

While a lot goes round, no holding changes. A rollout policy in closed-threshold form
takes once the pot reaches a threshold that depends on the lot's cost to that seat, the
lot and the drum (plus noise drawn per playout, lot and seat), lowered by `slope` for
each groschen below `reserve`; nobody passes without a groschen. So each seat's first
accepting visit follows from the lot alone (its k-th visit sees the starting pot + its
offset from the first decider + k x players, and holds its groschen - k), the taker is
the seat whose first accepting visit comes first, and every seat's passes follow.

Holdings are bitmasks (bit x set: lot x held). `scalar_round` plays the same round
through the rule engine, one decision at a time; the tests hold the two to each other.

How a step stays cheap in numpy alone (no compiled code runs on the Pi):

* Seat-major arrays, (n, B): the first visit over the seats is an elementwise minimum
  of n rows, not a reduction along a short axis, and each seat's row is contiguous.
* Small integers: groschen, shortfalls and visits are int16 (a quarter of the memory
  traffic of int64); only the bitmasks need 64 bits.
* Tables instead of arithmetic, exact by construction: a seat's threshold depends only
  on its policy, the lot and whether it holds the lot's two neighbours, so one table
  holds the very float sum and ceiling `Policy.threshold` computes (`_Thresholds`); the
  first accepting visit depends only on the shortfall at the first visit and the seat's
  groschen, so a second table holds it, found by trying every visit (`_first_visits`).
  Only a noisy policy's sum is finished per step, in float64, in the scalar's order.
* No reductions to find the taker: visits of different seats differ modulo n, so the
  earliest visit names its seat, and every seat's passes are whole rounds before it
  plus one if the seat sits before the taker.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from spielleiter.games.speedtombola.rules import Move, SpeedtombolaGame, lot_cost

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
    """How much lower the threshold lies per groschen below `reserve` (not negative)."""

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


@dataclass(frozen=True)
class RowPolicies:
    """A policy per row and seat: `choices` (B, n) indexes `family`."""

    family: tuple[Policy, ...]
    choices: np.ndarray

    def rows(self, part: slice) -> RowPolicies:
        """The policies of the rows in `part` (a chunk of the batch)."""
        return RowPolicies(self.family, self.choices[part])

    def repeated(self, times: int) -> RowPolicies:
        """The same rows `times` over, one block after the other (rows of both options)."""
        return RowPolicies(self.family, np.concatenate([self.choices] * times))


Policies = Sequence[Policy] | RowPolicies
"""One policy per seat for every row, or a policy per row and seat."""


def stack_policies(choices: np.ndarray, family: Sequence[Policy]) -> RowPolicies:
    """Per-row policies from indices into `family`: choices (B, n)."""
    return RowPolicies(tuple(family), np.asarray(choices, dtype=np.int64))


def bitmasks(lots: Sequence[Sequence[int]]) -> np.ndarray:
    """Each seat's lots as one bitmask (bit x: lot x)."""
    return np.array([sum(1 << x for x in held) for held in lots], dtype=np.int64)


def _word_points() -> np.ndarray:
    """(3, 65536) int16: for each 16-bit word of a bitmask of Garnitur starts (word w
    holds bits 16w..16w+15), the sum of the lots its set bits stand for: the sum of its
    bits' places plus 16w for each set bit, both built by doubling (word with bit b on =
    the same word without it, plus b)."""
    places = np.zeros(1 << 16, dtype=np.int16)
    bits = np.zeros(1 << 16, dtype=np.int16)
    for bit in range(16):
        size = 1 << bit
        places[size : 2 * size] = places[:size] + bit
        bits[size : 2 * size] = bits[:size] + 1
    return np.stack([places + 16 * word * bits for word in range(3)])


_WORD_POINTS = _word_points()


def lot_points(holdings: np.ndarray) -> np.ndarray:
    """The lowest lot of each Garnitur, summed, for bitmask holdings of any shape.

    The lowest lot of a Garnitur is a set bit whose lower neighbour is clear. The
    bitmask of those starts is read as four little-endian 16-bit words (no shifts or
    masks), and the first three (lots reach bit 35) are summed from `_WORD_POINTS`."""
    starts = np.ascontiguousarray(holdings & ~(holdings << 1), dtype="<i8")
    words = starts.view("<u2").reshape(*starts.shape, 4)
    total = _WORD_POINTS[0].take(words[..., 0]).astype(np.int64)
    total += _WORD_POINTS[1].take(words[..., 1])
    total += _WORD_POINTS[2].take(words[..., 2])
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
"""For each Policy field, an array of its values."""


def policy_weights(policies: Sequence[Policy]) -> Weights:
    """The fields of the policies, one (len(policies),) float array per field."""
    return {
        name: np.array([getattr(p, name) for p in policies], dtype=np.float64)
        for name in Policy.__dataclass_fields__
    }


_CODES = 8
"""Neighbour codes per lot: (holding >> (lot - 1)) & 5 has bit 0 set when the seat holds
lot - 1 and bit 2 when it holds lot + 1 (codes 0, 1, 4, 5)."""
_LOTS = 64
"""Lot slots per policy in a threshold table (lots are below 64)."""
_PER_POLICY = _LOTS * _CODES
_TOP = 16_000
"""Thresholds are held in [-1, _TOP]: beyond, every visit count is already settled."""


@dataclass(frozen=True)
class _Thresholds:
    """A family's thresholds at index policy x 512 + lot x 8 + neighbour code.

    Without noise, `whole` (drums, P x 512) int16 holds ceil(raw) itself. With noise,
    `base` holds the float sum of the cost, lot, drum and bias terms and `milk` the milk
    term, so a step adds noise x u and then milk in the order `Policy.threshold` does."""

    whole: np.ndarray | None
    base: np.ndarray | None
    milk: np.ndarray | None
    noise: np.ndarray
    """(P,) each policy's noise weight."""


@functools.lru_cache(maxsize=64)
def _thresholds(family: tuple[Policy, ...], drums: tuple[int, ...]) -> _Thresholds:
    """The threshold tables of `family`, one block per drum count in `drums`."""
    w = {name: v[:, None, None] for name, v in policy_weights(family).items()}
    lot = np.arange(_LOTS, dtype=np.int64)[:, None]
    code = np.arange(_CODES, dtype=np.int64)[None, :]
    cost = np.where(code & 1, 0, lot) - np.where(code & 4, lot + 1, 0)
    milk = w["milk"] * (cost <= 0)
    base = np.stack(
        [w["cost"] * cost + w["lot"] * lot + w["drum"] * drum + w["bias"] for drum in drums]
    ).reshape(len(drums), -1)
    milk = np.broadcast_to(milk, (len(family), _LOTS, _CODES)).reshape(-1)
    if not np.any(w["noise"]):
        # noise x u is a signed zero here, and adding one changes no sum.
        whole = np.clip(np.ceil(base + milk), -1, _TOP).astype(np.int16)
        return _read_only(_Thresholds(whole, None, None, w["noise"].reshape(-1)))
    return _read_only(
        _Thresholds(None, base, milk if np.any(milk) else None, w["noise"].reshape(-1))
    )


def _read_only(tables: _Thresholds) -> _Thresholds:
    """Cached tables are shared by every later call: lock them."""
    for table in (tables.whole, tables.base, tables.milk, tables.noise):
        if table is not None:
            table.setflags(write=False)
    return tables


@functools.lru_cache(maxsize=64)
def _first_visits(n: int, reserve: float, slope: float, most: int) -> np.ndarray:
    """(top + 1, most + 1) int16: k[need, g], the visit (0, 1, ...) at which a seat
    takes when its first visit's pot falls `need` short of its threshold and it holds
    g groschen, found by trying every visit: at visit k the pot has grown by k x n,
    the seat holds g - k, and it takes when that is 0 or the pot reaches its threshold
    lowered by slope per groschen below reserve.

    A shortfall at or below 0 takes at once; from top = n x most + slope x reserve on,
    every seat passes until its groschen are gone, so shortfalls are clipped to 0..top."""
    if slope < 0:
        raise ValueError("a policy's slope must not be negative")
    top = n * most + math.ceil(slope * max(0.0, reserve))
    need = np.arange(top + 1)[:, None]
    g = np.arange(most + 1)[None, :]
    first = np.full((top + 1, most + 1), -1, dtype=np.int16)
    for k in range(most + 1):
        takes = (k == g) | (k * n >= need - slope * np.maximum(0, reserve - (g - k)))
        first[(first < 0) & takes & (k <= g)] = k
    first.setflags(write=False)
    return first


@dataclass(frozen=True)
class _Visits:
    """The first-visit tables of several (reserve, slope) pairs, end to end, each
    (top + 1) x `width`; `base` (n, B or 1) is where each seat's table starts. A visit
    v = r x n + p (r whole rounds, then p places on) has r = rounds[v], p = place[v]."""

    table: np.ndarray
    top: int
    width: int
    rounds: np.ndarray
    place: np.ndarray
    index: type[np.signedinteger[Any]]
    """The smallest integer type that indexes `table` (int16 mostly: less to read)."""
    base: np.ndarray | None = None


@functools.lru_cache(maxsize=64)
def _visit_tables(pairs: tuple[tuple[float, float], ...], n: int, most: int) -> _Visits:
    """The tables of `pairs` (reserve, slope), padded to one height."""
    top = max(n * most + math.ceil(slope * max(0.0, reserve)) for reserve, slope in pairs)
    if top + n + most >= _TOP:
        raise ValueError("too many groschen for the simulator's tables")
    tables = [_first_visits(n, reserve, slope, most) for reserve, slope in pairs]
    padded = [np.pad(t, ((0, top + 1 - t.shape[0]), (0, 0)), mode="edge") for t in tables]
    table = np.concatenate(padded).reshape(-1)
    visit = np.arange((most + 1) * n, dtype=np.int16)
    rounds, place = visit // n, visit % n
    for array in (table, rounds, place):
        array.setflags(write=False)
    index = np.int16 if table.size <= np.iinfo(np.int16).max else np.intp
    return _Visits(table, top, most + 1, rounds, place, index)


def _visits(family: tuple[Policy, ...], ids: np.ndarray, n: int, most: int) -> _Visits:
    """The first-visit tables for `family`, each seat (ids) pointed at its policy's."""
    pair = [(float(p.reserve), float(p.slope)) for p in family]
    pairs = tuple(sorted(set(pair)))
    tables = _visit_tables(pairs, n, most)
    if len(pairs) == 1:
        return tables
    start = np.array([pairs.index(p) for p in pair], dtype=np.intp)
    start *= (tables.top + 1) * tables.width
    return dataclasses.replace(tables, base=start.take(ids))


def _policy_ids(policies: Policies, n: int) -> tuple[tuple[Policy, ...], np.ndarray]:
    """(family, ids): ids (n, rows), or (n, 1) when every row has the same policies."""
    if isinstance(policies, RowPolicies):
        return policies.family, np.ascontiguousarray(policies.choices.T, dtype=np.intp)
    return tuple(policies), np.arange(n, dtype=np.intp)[:, None]


def _wrap(offset: np.ndarray, n: int) -> None:
    """offset mod n in place, for int16 offsets in (-n, n): a negative int16 shifted
    right by 15 is all ones, so n & (offset >> 15) adds n exactly to the negatives."""
    offset += np.bitwise_and(np.right_shift(offset, 15), n)


@dataclass
class _Rounds:
    """A batch as seat-major working arrays, changed in place lot by lot."""

    holdings: np.ndarray
    """(n, B) int64 bitmasks."""
    groschen: np.ndarray
    """(n, B) int16."""
    offset: np.ndarray
    """(n, B) int16: how many places each seat sits after the seat that decides first
    on the open lot (so that seat is the one at offset 0)."""
    bits: np.ndarray
    """(n, B) int64 scratch."""

    @classmethod
    def of(cls, batch: Batch) -> _Rounds:
        n = batch.holdings.shape[1]
        offset = np.arange(n, dtype=np.int16)[:, None] - batch.seat.astype(np.int16)
        _wrap(offset, n)
        holdings = np.ascontiguousarray(batch.holdings.T, dtype=np.int64)
        groschen = np.ascontiguousarray(batch.groschen.T, dtype=np.int16)
        return cls(holdings, groschen, offset, np.empty_like(holdings))

    def batch(self, pot: np.ndarray) -> Batch:
        n = self.offset.shape[0]
        seat = np.negative(self.offset[0], dtype=np.int64)
        seat += n * (seat < 0)
        return Batch(
            np.ascontiguousarray(self.holdings.T),
            np.ascontiguousarray(self.groschen.T, dtype=np.int64),
            seat,
            pot,
        )

    def keys(self, lot: np.ndarray, policy_base: np.ndarray, out: np.ndarray) -> np.ndarray:
        """Each seat's threshold-table index for the open lot: policy x 512 + lot x 8 +
        neighbour code, the code read with one shift of the bitmask. `out` is np.intp, as
        `take` wants it (int32 on 32-bit: the shifted mask keeps its low bits, all we read)."""
        np.right_shift(self.holdings, lot - 1, out=out)
        np.bitwise_and(out, 5, out=out)
        np.add(out, lot * _CODES, out=out)
        np.add(out, policy_base, out=out)
        return out

    def first_visit(self, need: np.ndarray, visits: _Visits, index: np.ndarray) -> np.ndarray:
        """(B,) the earliest accepting visit of any seat, counted in decisions from the
        first decider's; `need` (n, B) int16 (overwritten) is each seat's shortfall at its
        first visit, `index` (n, B) index scratch."""
        n = need.shape[0]
        np.clip(need, 0, visits.top, out=need)
        np.multiply(need, visits.width, out=index, dtype=index.dtype)
        np.add(index, self.groschen, out=index)
        if visits.base is not None:
            np.add(index, visits.base, out=index)
        visit = visits.table.take(index)
        visit *= n
        visit += self.offset
        return visit.min(axis=0).astype(np.intp)

    def settle(self, first: np.ndarray, lot: np.ndarray, visits: _Visits, gain: Any) -> None:
        """The lot goes to the seat deciding at visit `first`, with `gain` (the pot
        before the first visit, or 0) and every groschen laid on it; that seat decides
        first on the next lot.

        first = rounds x n + place: the taker sits `place` after the first decider;
        every seat passed `rounds` times, once more if it sits before the taker. The
        taker's row is the mask offset == place (n products beat two scattered writes)."""
        n = self.groschen.shape[0]
        place = visits.place.take(first)
        self.groschen -= visits.rounds.take(first)
        self.groschen -= self.offset < place
        took = self.offset == place
        self.groschen += took * (first + gain).astype(np.int16)
        np.multiply(took, np.left_shift(1, lot), out=self.bits)
        self.holdings |= self.bits
        self.offset -= place
        _wrap(self.offset, n)


def advance(
    batch: Batch,
    lots: np.ndarray,
    policies: Policies,
    noise: np.ndarray,
    drum: int,
) -> Batch:
    """Play the lots of each row in order (one numpy step per lot) and return the batch.

    lots: (B, L) lots in draw order; noise: (B, L, n) in [-1, 1); drum: lots left in the
    drum once the first of them lies open; policies: one per seat, or RowPolicies giving
    each row its own. Rows are independent; none is changed in place. Lots and noise may
    hold B / k rows instead, shared by each of k blocks of rows (row b takes row b % (B /
    k) of them), so that parts played on the same drums need no copies of them.
    """
    rows, n = batch.holdings.shape
    steps = lots.shape[1]
    family, ids = _policy_ids(policies, n)
    state = _Rounds.of(batch)
    most = int((state.groschen.sum(axis=0, dtype=np.int64) + batch.pot).max()) if rows else 0
    uses_drum = any(p.drum for p in family)
    thresholds = _thresholds(family, tuple(drum - j for j in range(steps)) if uses_drum else (0,))
    visits = _visits(family, ids, n, most)
    noise_w = None if thresholds.whole is not None else thresholds.noise.take(ids)
    pot = batch.pot.astype(np.int16)
    policy_base = ids * _PER_POLICY
    key, index = np.empty((n, rows), dtype=np.intp), np.empty((n, rows), dtype=visits.index)
    shared = len(lots)
    blocks = np.empty((rows // shared, shared), dtype=np.int64) if 0 < shared < rows else None
    for j in range(steps):
        if blocks is None:
            lot = lots[:, j].astype(np.int64)  # 1 << lot needs 64 bits
        else:  # each block of rows draws the shared lots
            blocks[:] = lots[:, j]
            lot = blocks.reshape(-1)
        state.keys(lot, policy_base, out=key)
        step = j if uses_drum else 0
        if thresholds.whole is not None:
            need = thresholds.whole[step].take(key)
        else:
            need = _noisy_threshold(thresholds, step, key, noise[:, j, :].T, noise_w)
        need -= state.offset
        if j == 0:
            need -= pot
        first = state.first_visit(need, visits, index)
        state.settle(first, lot, visits, pot if j == 0 else 0)
    return state.batch(np.zeros(rows, dtype=np.int64) if steps else batch.pot.astype(np.int64))


def _noisy_threshold(
    thresholds: _Thresholds,
    step: int,
    key: np.ndarray,
    u: np.ndarray,
    noise_w: np.ndarray | None,
) -> np.ndarray:
    """ceil(base + noise x u + milk) as int16, summed in `Policy.threshold`'s order.
    u (n, B) or (n, B / k), the same for each of k blocks of rows."""
    assert thresholds.base is not None and noise_w is not None
    raw = thresholds.base[step].take(key)
    n, shared = u.shape
    if shared == raw.shape[1]:
        raw += np.multiply(noise_w, u)
    else:  # the same u for each block of rows: added block by block, as one array would
        weights = noise_w.reshape(n, -1, shared) if noise_w.shape[1] > 1 else noise_w[:, :, None]
        blocks = raw.reshape(n, -1, shared)
        blocks += np.multiply(weights, u[:, None, :])
    if thresholds.milk is not None:
        raw += thresholds.milk.take(key)
    np.ceil(raw, out=raw)
    np.clip(raw, -1, _TOP, out=raw)
    return raw.astype(np.int16)


def simulate(
    batch: Batch,
    lots: np.ndarray,
    policies: Policies,
    noise: np.ndarray,
    drum: int,
    chunk: int = DEFAULT_CHUNK,
) -> Batch:
    """`advance` in chunks of rows, so memory stays bounded however many playouts (lots
    and noise as `advance` takes them; shared by blocks of rows, a chunk is whole blocks)."""
    rows, shared = len(batch.seat), len(lots)
    if shared != rows:
        if not shared or rows % shared or len(noise) != shared:
            raise ValueError(f"lots and noise of {len(lots)} and {len(noise)} rows for {rows}")
        chunk = max(1, chunk // shared) * shared
    parts = []
    for start in range(0, rows, chunk):
        part = slice(start, start + chunk)
        sub = Batch(batch.holdings[part], batch.groschen[part], batch.seat[part], batch.pot[part])
        chunk_policies = policies.rows(part) if isinstance(policies, RowPolicies) else policies
        chunk_lots, chunk_noise = (lots[part], noise[part]) if shared == rows else (lots, noise)
        parts.append(advance(sub, chunk_lots, chunk_policies, chunk_noise, drum))
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
