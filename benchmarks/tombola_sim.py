"""Speedtombola simulator benchmark: playouts/s of today's simulator beside the baseline
(the simulator before the speed-up, benchmarks/tombola_sim_baseline.py) in the same
process on the same drums, scoring included, at 20,000 rows and at Stark's batch size
(Normal's policy at every seat), then with Stark's own rollout policies (per row and
seat from the belief family, noisy); the rule engine's rate; Stark's decision time; the
simulator's peak extra memory; a circulation's parts on shared drums against copies.
Goals: >= 2.5x the baseline at 20,000 rows, >= 2x at Stark's batch, <= 50 ms a Stark
decision at 4 players, <= 50 MB.

Run: .venv/bin/python benchmarks/tombola_sim.py
"""

from __future__ import annotations

import os
import random
import statistics
import time
import tracemalloc

import numpy as np
import tombola_sim_baseline as baseline
from spielleiter.games.base import sample_chance
from spielleiter.games.speedtombola import belief
from spielleiter.games.speedtombola.bots import NORMAL, STARK_SELF, choose
from spielleiter.games.speedtombola.rules import SpeedtombolaGame
from spielleiter.games.speedtombola.sim import (
    Batch,
    advance,
    deal,
    fresh_batch,
    lot_points,
    policy_weights,
    scalar_round,
    simulate,
    stack_policies,
)

PLAYERS = 4
BATCH_FIELDS = ("holdings", "groschen", "seat", "pot")
REMOVED = 9
SIM_PLAYOUTS = 20_000
SCALAR_PLAYOUTS = 300
STARK_BATCH = 500
"""Stark's first look: 500 drums per option."""
POSITIONS = 50


def rounds(rows: int, seed: int):
    rng = np.random.default_rng(seed)
    removed, draws = deal(rng, rows, REMOVED)
    noise = rng.uniform(-1.0, 1.0, (rows, draws.shape[1], PLAYERS))
    return removed, draws, noise


def rates(rows: int, repeats: int) -> tuple[float, float, bool]:
    """Playouts/s of (baseline, today) on the same drums, scoring included; same results?"""
    _, draws, noise = rounds(rows, 1)
    start = fresh_batch(rows, PLAYERS, 11, 0)
    drum = draws.shape[1] - 1
    best = {"baseline": float("inf"), "today": float("inf")}
    points = {}
    for _ in range(repeats):
        for name, step, score in (
            ("baseline", baseline.advance, baseline.lot_points),
            ("today", advance, lot_points),
        ):
            t = time.perf_counter()
            end: Batch = step(start, draws, [NORMAL] * PLAYERS, noise, drum)
            points[name] = score(end.holdings) - end.groschen
            best[name] = min(best[name], time.perf_counter() - t)
    same = bool((points["baseline"] == points["today"]).all())
    return rows / best["baseline"], rows / best["today"], same


def decision_rates(rows: int, repeats: int) -> tuple[float, float]:
    """Playouts/s for the two options of one Stark decision (`rows` drums each): the
    baseline simulates them in two calls, today's Stark in one call of twice the rows."""
    _, draws, noise = rounds(rows, 5)
    start = fresh_batch(rows, PLAYERS, 11, 0)
    both = fresh_batch(2 * rows, PLAYERS, 11, 0)
    lots2, noise2 = np.concatenate([draws, draws]), np.concatenate([noise, noise])
    drum = draws.shape[1] - 1
    best = {"baseline": float("inf"), "today": float("inf")}
    for _ in range(repeats):
        t = time.perf_counter()
        for _ in range(2):
            end = baseline.advance(start, draws, [NORMAL] * PLAYERS, noise, drum)
            baseline.lot_points(end.holdings)
        best["baseline"] = min(best["baseline"], time.perf_counter() - t)
        t = time.perf_counter()
        end = advance(both, lots2, [NORMAL] * PLAYERS, noise2, drum)
        lot_points(end.holdings)
        best["today"] = min(best["today"], time.perf_counter() - t)
    return 2 * rows / best["baseline"], 2 * rows / best["today"]


def belief_rates(rows: int, repeats: int) -> tuple[float, float, bool]:
    """Playouts/s with Stark's own rollout policies (each row and seat drawn from the
    belief family, noisy, Stark's milk), scoring included: the baseline reads them as
    per-row weight arrays, today's simulator as indices into the family."""
    _, draws, noise = rounds(rows, 6)
    family = (*belief.FAMILY, STARK_SELF)
    choices = np.random.default_rng(6).integers(len(family), size=(rows, PLAYERS))
    weights = {name: w[choices] for name, w in policy_weights(family).items()}
    start = fresh_batch(rows, PLAYERS, 11, 0)
    drum = draws.shape[1] - 1
    rows_policies = stack_policies(choices, family)
    best = {"baseline": float("inf"), "today": float("inf")}
    points = {}
    for _ in range(repeats):
        t = time.perf_counter()
        end = baseline.advance(start, draws, weights, noise, drum)
        points["baseline"] = baseline.lot_points(end.holdings) - end.groschen
        best["baseline"] = min(best["baseline"], time.perf_counter() - t)
        t = time.perf_counter()
        end = advance(start, draws, rows_policies, noise, drum)
        points["today"] = lot_points(end.holdings) - end.groschen
        best["today"] = min(best["today"], time.perf_counter() - t)
    same = bool((points["baseline"] == points["today"]).all())
    return rows / best["baseline"], rows / best["today"], same


def shared_rates(players: int, drums: int, parts: int, repeats: int) -> tuple[float, float, bool]:
    """A circulation's parts (Stark's and Rat's `_Circulation.play`) played on the same
    `drums` drums and noise: each part's copy of them, as before session 19, against the
    one set shared by every part, alternated in this process. (ms copied, ms shared, same
    results)."""
    rng = np.random.default_rng(players * drums)
    _, draws = deal(rng, drums, REMOVED)
    noise = rng.uniform(-1.0, 1.0, (drums, draws.shape[1], players))
    family = (*belief.FAMILY, STARK_SELF)
    policies = stack_policies(rng.integers(len(family), size=(drums, players)), family)
    starts = [fresh_batch(drums, players, 11, part % players) for part in range(parts)]
    start = Batch(*(np.concatenate([getattr(b, f) for b in starts]) for f in BATCH_FIELDS))
    drum, rows_policies = draws.shape[1] - 1, policies.repeated(parts)
    times: dict[str, list[float]] = {"copied": [], "shared": []}
    ends = {}
    for i in range(repeats):
        for name in ("copied", "shared") if i % 2 == 0 else ("shared", "copied"):
            t = time.process_time()
            if name == "copied":
                lots, each = np.concatenate([draws] * parts), np.concatenate([noise] * parts)
                ends[name] = simulate(start, lots, rows_policies, each, drum)
            else:
                ends[name] = simulate(start, draws, rows_policies, noise, drum)
            times[name].append(time.process_time() - t)
    copied, shared = ends["copied"], ends["shared"]
    same = all((getattr(copied, f) == getattr(shared, f)).all() for f in BATCH_FIELDS)
    ms = {name: 1000 * statistics.median(t) for name, t in times.items()}
    return ms["copied"], ms["shared"], same


def scalar_rate() -> float:
    removed, draws, noise = rounds(SCALAR_PLAYOUTS, 2)
    game = SpeedtombolaGame({"players": PLAYERS, "removed": REMOVED})
    t = time.perf_counter()
    for row in range(SCALAR_PLAYOUTS):
        scalar_round(game, removed[row], draws[row], [NORMAL] * PLAYERS, noise[row])
    return SCALAR_PLAYOUTS / (time.perf_counter() - t)


def positions(players: int = PLAYERS) -> list[dict]:
    """Decisions from rounds of Normal players, spread over the round."""
    rng = random.Random(3)
    views: list[dict] = []
    while len(views) < POSITIONS:
        state = SpeedtombolaGame({"players": players}).new_initial_state()
        seen = []
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            view = state.view(state.current_player())
            if view["groschen"][view["seat"]] > 0:
                seen.append(view)
            state.apply_action(choose(view, level="normal", rng=random.Random(0)))
        views += seen[:: max(1, len(seen) // 10)][:10]
    return views[:POSITIONS]


def stark_decision_ms() -> float:
    times = []
    for i, view in enumerate(positions()):
        t = time.perf_counter()
        choose(view, level="stark", rng=random.Random(i))
        times.append(time.perf_counter() - t)
    return 1000 * statistics.median(times)


def peak_memory_mb() -> float:
    _, draws, noise = rounds(SIM_PLAYOUTS, 4)
    start = fresh_batch(SIM_PLAYOUTS, PLAYERS, 11, 0)
    tracemalloc.start()
    simulate(start, draws, [NORMAL] * PLAYERS, noise, draws.shape[1] - 1)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20


def main() -> None:
    load = os.getloadavg()[0]
    print(f"players {PLAYERS}, removed {REMOVED}, one round per playout, load {load:.2f}")
    for rows, repeats in ((SIM_PLAYOUTS, 3), (STARK_BATCH, 20)):
        old, new, same = rates(rows, repeats)
        print(
            f"simulator at {rows:>6,} rows: baseline {old:10,.0f}/s, today {new:10,.0f}/s"
            f"  x{new / old:.2f}  (same results: {'yes' if same else 'NO'})"
        )
    old, new = decision_rates(STARK_BATCH, 20)
    print(
        f"a Stark decision, 2 x {STARK_BATCH} drums: baseline {old:8,.0f}/s (two calls),"
        f" today {new:8,.0f}/s (one)  x{new / old:.2f}"
    )
    for rows, repeats in ((SIM_PLAYOUTS, 3), (2 * STARK_BATCH, 20)):
        old, new, same = belief_rates(rows, repeats)
        print(
            f"Stark's rollouts at {rows:>6,} rows: baseline {old:10,.0f}/s, today {new:10,.0f}/s"
            f"  x{new / old:.2f}  (same results: {'yes' if same else 'NO'})"
        )
    for players, drums, parts, repeats in ((4, 150, 5, 100), (7, 200, 9, 60), (7, 2000, 9, 10)):
        old_ms, new_ms, same = shared_rates(players, drums, parts, repeats)
        print(
            f"{parts} parts on {drums:>5,} drums, {players} players: copied {old_ms:6.2f} ms,"
            f" shared {new_ms:6.2f} ms  x{old_ms / new_ms:.2f}"
            f"  (same results: {'yes' if same else 'NO'})"
        )
    sim = rates(SIM_PLAYOUTS, 1)[1]
    scalar = scalar_rate()
    print(f"scalar engine   {scalar:12,.0f} playouts/s   (simulator {sim / scalar:.0f}x)")
    print(f"Stark decision  {stark_decision_ms():12.1f} ms median over {POSITIONS} positions")
    print(f"peak memory     {peak_memory_mb():12.1f} MB for {SIM_PLAYOUTS:,} playouts")


if __name__ == "__main__":
    main()
