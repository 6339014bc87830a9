"""Tips for Maskenball der Käfer: whom to visit next, and the chance of winning now.

The tips see only the view (the table and every visit's outcome), never the drawn
magnets. They play many continuations at once as numpy arrays: each game draws
its hidden grouping from those consistent with what was learnt (after a confirmed
contradiction: those that break the fewest reports), and the spins
still to come from the sector probabilities. Knowledge is a 35-bit mask of the
groupings still possible, so "how likely does this visit swap?" is a popcount.

The rollout policy, also the tip it gives: fly on while some beetle may still swap
(a turn-away costs nothing that flying home would not), and visit the beetle most
likely to swap; on an empty petal pick the beetle with the best such visit. Ties go
at random (or to the lowest index with ``tie_noise=False``, to match the scalar
engine exactly).

Example::

    >>> from spielleiter.games.maskenball.rules import MaskenballGame, SPIN
    >>> state = MaskenballGame({"mode": "physical"}).new_initial_state()
    >>> state.apply_action(SPIN + 0)
    >>> t = tips(state.view(0), games=500, seed=1)
    >>> t.best_action in state.legal_actions() and 0.0 < t.win_chance < 1.0
    True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from spielleiter.games.maskenball.rules import (
    BEETLES,
    DOTS,
    FLY,
    HOME,
    PENDING_CHOOSE,
    PENDING_REPORT,
    PENDING_VISIT,
    PENDING_VISIT_OR_HOME,
    VISIT,
    groupings,
    likely_groupings,
    same_group,
)

if TYPE_CHECKING:
    import numpy as np


def popcount(masks: np.ndarray) -> np.ndarray:
    """The number of set bits of each uint64 mask: numpy 2's ``bitwise_count``, else
    `swar_popcount` (numpy 1.24, Raspberry Pi OS Bookworm's, lacks it)."""
    import numpy as np

    if hasattr(np, "bitwise_count"):
        return np.bitwise_count(masks)
    return swar_popcount(masks)


def swar_popcount(masks: np.ndarray) -> np.ndarray:
    """The set bits of each uint64 mask as uint8, by SWAR steps that any numpy has."""
    import numpy as np

    def u(value: int) -> np.uint64:
        return np.uint64(value)

    x = masks.astype(np.uint64)
    x = x - ((x >> u(1)) & u(0x5555555555555555))
    x = (x & u(0x3333333333333333)) + ((x >> u(2)) & u(0x3333333333333333))
    x = (x + (x >> u(4))) & u(0x0F0F0F0F0F0F0F0F)
    return ((x * u(0x0101010101010101)) >> u(56)).astype(np.uint8)


@dataclass(frozen=True)
class Tips:
    """The advice for the pending decision."""

    win_chance: float
    """With the best option now (or just from here when nothing is to decide)."""
    stderr: float
    options: dict[int, float] = field(default_factory=dict)
    """Action -> win chance, for each option of a visit or choose decision."""
    best_action: int | None = None
    games: int = 0


@dataclass
class Table:
    """The start of every simulated game, read from a view (numpy arrays)."""

    colours: np.ndarray
    """(8,) distinct colours each beetle wears."""
    swapped: np.ndarray
    """(8,) bit masks of swap partners."""
    ball: np.ndarray
    """(8,) bool."""
    known: int
    """Bit mask of the groupings still possible."""
    stump: int
    vine: int
    vine_fields: int
    flyer: int
    """The beetle in flight (-1: none)."""
    sector_probabilities: Sequence[float]


@cache
def _pair_masks() -> tuple[np.ndarray, np.ndarray]:
    """(8, 8) uint64 masks of the groupings in which a and b are in the same/different group."""
    import numpy as np

    same = np.zeros((BEETLES, BEETLES), dtype=np.uint64)
    for a in range(BEETLES):
        for b in range(BEETLES):
            bits = sum(1 << g for g in range(len(groupings())) if same_group(g, a, b))
            same[a, b] = bits
    every = np.uint64((1 << len(groupings())) - 1)
    return same, ~same & every


@cache
def _membership() -> np.ndarray:
    """(35, 8) bool: beetle b is in the group of beetle 0 in grouping g."""
    import numpy as np

    return np.array([[bool(m >> b & 1) for b in range(BEETLES)] for m in groupings()])


def table_from_view(view: Mapping[str, Any]) -> Table:
    """The simulator's start from a Maskenball view."""
    import numpy as np

    reports = [(int(a), int(b), bool(s)) for a, b, s in view["reports"]]
    possible = likely_groupings(reports)
    dots = np.array(view["dots"])
    swapped = np.zeros(BEETLES, dtype=np.uint8)
    for b, partners in enumerate(view["partners"]):
        for p in partners:
            swapped[b] |= 1 << p
    return Table(
        colours=(dots > 0).sum(axis=1),
        swapped=swapped,
        ball=np.array([place == "ball" for place in view["places"]]),
        known=sum(1 << g for g in possible),
        stump=int(view["stump"]),
        vine=int(view["vine"]),
        vine_fields=int(view["vine_fields"]),
        flyer=-1 if view["flyer"] is None else int(view["flyer"]),
        sector_probabilities=view["sector_probabilities"],
    )


def draw_groupings(table: Table, games: int, rng: np.random.Generator) -> np.ndarray:
    """A hidden grouping per game, uniform over those still possible."""
    import numpy as np

    possible = np.array([g for g in range(len(groupings())) if table.known >> g & 1])
    return possible[rng.integers(len(possible), size=games)]


def draw_sectors(table: Table, games: int, rng: np.random.Generator) -> np.ndarray:
    """(games, spins) sectors, enough spins that a game almost surely ends within them."""
    import numpy as np

    probs = np.asarray(table.sector_probabilities, dtype=float)
    leaf = probs[1::2].sum()
    spins = int(min(4000, 16 + 4 * table.vine_fields / leaf))
    cumulative = np.cumsum(probs / probs.sum())
    draws = np.searchsorted(cumulative, rng.random((games, spins)), side="right")
    return np.minimum(draws, len(probs) - 1).astype(np.int8)


def simulate(
    table: Table,
    grouping: np.ndarray,
    sectors: np.ndarray,
    rng: np.random.Generator | None = None,
    first_visit: int = -1,
    tie_noise: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    """Play every game to its end; returns (won, spins used) per game.

    `first_visit` forces the flyer's next visit (-2: it flies home at once). Finished
    games leave the working arrays, so the last few games cost little. A game that
    runs out of drawn sectors counts as lost.
    """
    import numpy as np

    same, cross = _pair_masks()
    n, spins = sectors.shape
    won_out = np.zeros(n, dtype=bool)
    used_out = np.zeros(n, dtype=np.int64)
    bits = (1 << np.arange(BEETLES)).astype(np.uint8)
    low_first = 7 - np.arange(BEETLES, dtype=np.int16)
    live = _Games(
        index=np.arange(n),
        member=_membership()[grouping],
        colours=np.repeat(table.colours[None, :], n, axis=0).astype(np.int8),
        swapped=np.repeat(table.swapped[None, :], n, axis=0),
        ball=np.full(n, _bitmask(table.ball), dtype=np.uint8),
        known=np.full(n, table.known, dtype=np.uint64),
        stump=np.full(n, table.stump, dtype=np.int8),
        vine=np.full(n, table.vine, dtype=np.int8),
        flyer=np.full(n, -1 if first_visit == -2 else table.flyer, dtype=np.int64),
        used=np.zeros(n, dtype=np.int64),
        won=table.ball.all() & np.ones(n, dtype=bool),
        done=table.ball.all() & np.ones(n, dtype=bool),
        tiebreak=(
            rng.integers(0, BEETLES, size=(n, BEETLES), dtype=np.int16) * BEETLES
            if tie_noise and rng
            else np.zeros((n, BEETLES), dtype=np.int16)
        ),
    )
    forced = -1 if first_visit == -2 else first_visit
    """A visit still to force; flying home was done above, and the next flyer visits freely."""
    while live.index.size:
        g = live
        m = g.index.size
        # The spin, for games without a flyer.
        spinning = ~g.done & (g.flyer < 0)
        out = spinning & (g.used >= spins)
        g.done |= out
        spinning &= ~out
        sector = sectors[g.index, np.minimum(g.used, spins - 1)]
        g.used += spinning
        leaf = spinning & (sector % 2 == 1)
        g.vine += leaf & (g.stump == 1)
        g.stump = np.where(leaf, 1 - g.stump, g.stump)
        g.done |= leaf & (g.vine >= table.vine_fields)
        petal = spinning & (sector % 2 == 0)
        beetle = sector // 2
        takes_off = petal & (g.ball >> beetle & 1 == 0)
        g.flyer = np.where(takes_off, beetle, g.flyer)
        choose = np.flatnonzero(petal & ~takes_off)
        if choose.size:
            g.flyer[choose] = _choose_flyers(
                g.ball[choose], g.swapped[choose], g.known[choose], cross, g.tiebreak[choose]
            )

        # The visit, for games with a flyer.
        flying = np.flatnonzero(~g.done & (g.flyer >= 0))
        if flying.size:
            v = g.flyer[flying]
            free = ~(g.ball[flying] | g.swapped[flying, v] | bits[v])
            allowed = (free[:, None] >> np.arange(BEETLES, dtype=np.uint8)) & 1 == 1
            counts = popcount(g.known[flying][:, None] & cross[v]).astype(np.int16)
            best = _row_max(np.where(allowed, counts * 64 + g.tiebreak[flying] + low_first, -1))
            target = 7 - (best & 7)
            hope = best >= 64
            if forced != -1:
                if forced >= 0:
                    target[:] = forced
                hope[:] = forced >= 0
                forced = -1
            g.flyer[flying[~hope]] = -1
            go, v, t = flying[hope], v[hope], target[hope]
            swaps = g.member[go, v] != g.member[go, t]
            g.known[go] &= np.where(swaps, cross[v, t], same[v, t])
            g.flyer[go[~swaps]] = -1
            s, vs, ts = go[swaps], v[swaps], t[swaps]
            g.swapped[s, vs] |= bits[ts]
            g.swapped[s, ts] |= bits[vs]
            g.colours[s, vs] += 1
            g.colours[s, ts] += 1
            flyer_done = g.colours[s, vs] >= DOTS
            g.ball[s] |= np.where(flyer_done, bits[vs], 0) | np.where(
                g.colours[s, ts] >= DOTS, bits[ts], 0
            )
            g.flyer[s[flyer_done]] = -1
            finished = s[g.ball[s] == 0xFF]
            g.won[finished] = True
            g.done[finished] = True
        if g.done.sum() * 4 >= m or m < 64:
            ended = g.done
            won_out[g.index[ended]] = g.won[ended]
            used_out[g.index[ended]] = g.used[ended]
            live = g.keep(~ended)
    return won_out, used_out


def _row_max(a: np.ndarray) -> np.ndarray:
    """The maximum of each row of an (m, 8) array (faster than max(axis=1) on short rows)."""
    import numpy as np

    out = a[:, 0].copy()
    for k in range(1, a.shape[1]):
        np.maximum(out, a[:, k], out=out)
    return out


def _bitmask(flags: Sequence[bool] | np.ndarray) -> int:
    return sum(1 << i for i, f in enumerate(flags) if f)


@dataclass
class _Games:
    """The working arrays of the games still running (one row each)."""

    index: np.ndarray
    member: np.ndarray
    colours: np.ndarray
    swapped: np.ndarray
    ball: np.ndarray
    known: np.ndarray
    stump: np.ndarray
    vine: np.ndarray
    flyer: np.ndarray
    used: np.ndarray
    won: np.ndarray
    done: np.ndarray
    tiebreak: np.ndarray

    def keep(self, rows: np.ndarray) -> _Games:
        return _Games(**{k: v[rows] for k, v in self.__dict__.items()})


def _choose_flyers(
    ball: np.ndarray,
    swapped: np.ndarray,
    known: np.ndarray,
    cross: np.ndarray,
    tiebreak: np.ndarray,
) -> np.ndarray:
    """For an empty petal: the beetle on the flower with the most promising visit."""
    import numpy as np

    counts = popcount(known[:, None, None] & cross[None]).astype(np.int16)
    shifts = np.arange(BEETLES, dtype=np.uint8)
    bits = (1 << shifts).astype(np.uint8)
    free = ~(ball[:, None] | swapped | bits[None, :])
    allowed = (free[:, :, None] >> shifts) & 1 == 1
    best = np.where(allowed, counts, -1).max(axis=2)
    on_flower = (ball[:, None] >> shifts) & 1 == 0
    key = np.where(on_flower, (best + 1) * 64 + tiebreak + 7 - shifts.astype(np.int16), -1)
    return 7 - (_row_max(key) & 7)


def _options(view: Mapping[str, Any]) -> list[int]:
    pending = view["pending"]
    if pending in (PENDING_VISIT, PENDING_VISIT_OR_HOME, PENDING_CHOOSE):
        return [int(a) for a in view["legal_actions"]]
    return []


def tips(
    view: Mapping[str, Any], games: int = 2000, seed: int = 0, tie_noise: bool = True
) -> Tips:
    """Win chances of each option of the pending decision, from `games` simulated games each.

    Every option plays the same hidden groupings and spins (common random numbers), so
    their difference is the option's, not the dice's. `tie_noise=False` breaks the
    policy's ties to the lowest index, as the scalar engine's tests do.
    """
    import numpy as np

    rng = np.random.default_rng(seed)
    table = table_from_view(view)
    grouping = draw_groupings(table, games, rng)
    sectors = draw_sectors(table, games, rng)

    def chance(first_visit: int = -1, flyer: int | None = None) -> float:
        start = table if flyer is None else _with_flyer(table, flyer)
        won, _ = simulate(
            start, grouping, sectors, np.random.default_rng(seed), first_visit, tie_noise
        )
        return float(won.mean())

    options: dict[int, float] = {}
    for action in _options(view):
        if action == HOME:
            options[action] = chance(first_visit=-2)
        elif FLY <= action < FLY + BEETLES:
            options[action] = chance(flyer=action - FLY)
        else:
            options[action] = chance(first_visit=action - VISIT)
    if options:
        best = max(options, key=lambda a: options[a])
        p = options[best]
    else:
        best = None
        visited = view.get("visited")
        forced = int(visited) if view["pending"] == PENDING_REPORT and visited is not None else -1
        p = chance(first_visit=forced)
    return Tips(p, float(np.sqrt(p * (1 - p) / games)), options, best, games)


def _with_flyer(table: Table, flyer: int) -> Table:
    return Table(**{**table.__dict__, "flyer": flyer})
