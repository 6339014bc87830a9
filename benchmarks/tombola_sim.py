"""Speedtombola simulator benchmark: playouts/s (numpy vs rule engine), Stark's decision
time and the simulator's peak extra memory. Goals: >= 10x the engine, <= 100 ms, <= 50 MB.

Run: .venv/bin/python benchmarks/tombola_sim.py
"""

from __future__ import annotations

import random
import statistics
import time
import tracemalloc

import numpy as np
from spielleiter.games.base import sample_chance
from spielleiter.games.speedtombola.bots import NORMAL, advice, choose
from spielleiter.games.speedtombola.rules import SpeedtombolaGame
from spielleiter.games.speedtombola.sim import deal, fresh_batch, scalar_round, simulate

PLAYERS = 4
REMOVED = 9
SIM_PLAYOUTS = 20_000
SCALAR_PLAYOUTS = 300
POSITIONS = 50


def rounds(rows: int, seed: int):
    rng = np.random.default_rng(seed)
    removed, draws = deal(rng, rows, REMOVED)
    noise = rng.uniform(-1.0, 1.0, (rows, draws.shape[1], PLAYERS))
    return removed, draws, noise


def simulator_rate() -> float:
    _, draws, noise = rounds(SIM_PLAYOUTS, 1)
    start = fresh_batch(SIM_PLAYOUTS, PLAYERS, 11, 0)
    t = time.perf_counter()
    simulate(start, draws, [NORMAL] * PLAYERS, noise, draws.shape[1] - 1)
    return SIM_PLAYOUTS / (time.perf_counter() - t)


def scalar_rate() -> float:
    removed, draws, noise = rounds(SCALAR_PLAYOUTS, 2)
    game = SpeedtombolaGame({"players": PLAYERS, "removed": REMOVED})
    t = time.perf_counter()
    for row in range(SCALAR_PLAYOUTS):
        scalar_round(game, removed[row], draws[row], [NORMAL] * PLAYERS, noise[row])
    return SCALAR_PLAYOUTS / (time.perf_counter() - t)


def positions() -> list[dict]:
    """Decisions from rounds of Normal players, spread over the round."""
    rng = random.Random(3)
    views: list[dict] = []
    while len(views) < POSITIONS:
        state = SpeedtombolaGame({"players": PLAYERS}).new_initial_state()
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
        advice(view, rng=random.Random(i), playouts=2000)
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
    sim, scalar = simulator_rate(), scalar_rate()
    print(f"players {PLAYERS}, removed {REMOVED}, one round per playout")
    print(f"simulator       {sim:12,.0f} playouts/s")
    print(f"scalar engine   {scalar:12,.0f} playouts/s   (simulator {sim / scalar:.0f}x)")
    print(f"Stark decision  {stark_decision_ms():12.1f} ms median over {POSITIONS} positions")
    print(f"peak memory     {peak_memory_mb():12.1f} MB for {SIM_PLAYOUTS:,} playouts")


if __name__ == "__main__":
    main()
