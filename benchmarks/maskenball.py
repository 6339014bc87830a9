"""Maskenball der Käfer: simulator speed, tips time, spinner sampler throughput (prints numbers).

Run: .venv/bin/python benchmarks/maskenball.py
"""

from __future__ import annotations

import random
import statistics
import time

import numpy as np
from spielleiter.games.maskenball.rules import SPIN, MaskenballGame
from spielleiter.games.maskenball.tips import (
    draw_groupings,
    draw_sectors,
    simulate,
    table_from_view,
    tips,
)
from spielleiter.hal.spinner import AS5600, Calibration, SpinDetector, SpinnerSampler
from spielleiter.hal.spinner_sim import SimClock, SimulatedAS5600Bus

GAMES = 10_000
REPEATS = 5


def simulator() -> None:
    state = MaskenballGame({"mode": "physical"}).new_initial_state()
    table = table_from_view(state.view(0))
    rng = np.random.default_rng(1)
    times, cpu, chances = [], [], []
    for _ in range(REPEATS):
        start, start_cpu = time.perf_counter(), time.process_time()
        grouping = draw_groupings(table, GAMES, rng)
        sectors = draw_sectors(table, GAMES, rng)
        won, used = simulate(table, grouping, sectors, rng)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        chances.append(won.mean())
    print(
        f"{GAMES} simulated games from the start (draws included): "
        f"wall median {1000 * statistics.median(times):.1f} ms, min {1000 * min(times):.1f} ms; "
        f"CPU median {1000 * statistics.median(cpu):.1f} ms (goal <= 200 ms); "
        f"win chance {statistics.mean(chances):.3f}, spins per game {used.mean():.1f}"
    )


def advice() -> None:
    state = MaskenballGame({"mode": "physical"}).new_initial_state()
    state.apply_action(SPIN + 0)
    start = time.perf_counter()
    result = tips(state.view(0), games=2000)
    took = time.perf_counter() - start
    print(
        f"tips for the first visit (7 options x 2000 games): {1000 * took:.0f} ms, "
        f"win chance {result.win_chance:.3f} ± {result.stderr:.3f}"
    )


def sampler() -> None:
    clock = SimClock()
    bus = SimulatedAS5600Bus(clock, seed=3)
    sampler = SpinnerSampler(AS5600(bus), SpinDetector(Calibration.equal()), clock, rate_hz=200)
    rng = random.Random(4)
    spins = 100
    start = time.perf_counter()
    for _ in range(spins):
        bus.spin(rng.uniform(400, 1500))
        sampler.run_until_outcome(max_s=30)
    took = time.perf_counter() - start
    print(
        f"spinner sampler on the simulated AS5600: {bus.reads / took:,.0f} samples/s "
        f"({spins} spins, {bus.reads} samples at 200 Hz simulated, {took:.2f} s)"
    )


if __name__ == "__main__":
    simulator()
    advice()
    sampler()
