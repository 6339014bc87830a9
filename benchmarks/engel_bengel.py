"""Engel & Bengel benchmark: Stark's decision time, the simulator's rate, and the key
presses a human needs per placement and per turn.

Stark is timed on decision points of games between Normal computers (3 and 4 players):
only positions with more than one legal move count (a forced move costs nothing); and in
whole games of Stark computers, its plans kept as on a fresh box (a face's first
decisions pay for the face's plan). The key
presses come from a human playing Normal's moves on the box (the box rolling) against two
Normal computers, with the board screen's keys (K1 die, K2 row, K3 Legen/Nochmal, K4
Stopp).

Run: .venv/bin/python benchmarks/engel_bengel.py
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
from spielleiter.games.base import sample_chance
from spielleiter.games.engel_bengel import bots
from spielleiter.games.engel_bengel.rules import EngelBengelGame
from spielleiter.games.engel_bengel.sim import Batch, simulate


def decision_views(players: int, count: int, seed: int) -> list[dict]:
    """Views at decision points with a choice, from games of Normal computers."""
    views: list[dict] = []
    g = 0
    while len(views) < count:
        state = EngelBengelGame({"players": players}).new_initial_state()
        rng = random.Random(seed * 1000 + g)
        g += 1
        while not state.is_terminal() and len(views) < count:
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            view = state.view(state.current_player())
            if len(view["legal"]) > 1 and rng.random() < 0.2:
                views.append(view)
            state.apply_action(bots.normal_move(view))
    return views


def time_stark(players: int, count: int = 200) -> list[float]:
    views = decision_views(players, count, seed=players)
    bots.stark_move(views[0], random.Random(0))  # numpy and caches warm
    times = []
    for i, view in enumerate(views):
        t0 = time.perf_counter()
        bots.stark_move(view, random.Random(i))
        times.append((time.perf_counter() - t0) * 1000)
    return times


def game_times(players: int, games: int, level: str = "stark", seed: int = 0) -> list[float]:
    """CPU seconds of every decision with a choice in whole games where every seat plays
    `level`, the plans kept between decisions as on a box that starts fresh: each face's
    first decisions pay for its plan (the decision views above meet warmer plans)."""
    bots._plans().clear()
    times = []
    for g in range(games):
        rng = random.Random(seed * 1000 + g)
        times += game_time(players, rng, partial(bots.choose, level=level, rng=rng))
    return times


def game_time(
    players: int, rng: random.Random, move: Callable[[dict[str, Any]], int]
) -> list[float]:
    """CPU seconds of every decision with a choice in one whole game where every seat
    plays `move`, the chance drawn from `rng`."""
    times = []
    state = EngelBengelGame({"players": players}).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        view = state.view(state.current_player())
        if len(view["legal"]) == 1:
            state.apply_action(view["legal"][0])
            continue
        t0 = time.process_time()
        action = move(view)
        times.append(time.process_time() - t0)
        state.apply_action(action)
    return times


def simulator_rate(rows: int = 20_000) -> float:
    """Playouts of a whole Durchgang per second (4 players, fresh board)."""
    state = EngelBengelGame({"players": 4, "shuffle": False, "start": "erster"})
    start = state.new_initial_state()
    start.apply_action(start.chance_outcomes()[0][0])
    gen = np.random.default_rng(1)
    dice = gen.integers(1, 7, size=(rows, 64, 5))
    keep = np.full((rows, 4), 3)
    t0 = time.perf_counter()
    simulate(start.face, Batch.of([start], repeat=rows), dice, keep)
    return rows / (time.perf_counter() - t0)


def presses(games: int = 2, level: str = "normal") -> tuple[list[int], list[int]]:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from test_engel_bengel_device import measure_presses

    with tempfile.TemporaryDirectory() as folder:
        return measure_presses(Path(folder), games=games, level=level)


def main() -> None:
    for players in (3, 4):
        times = time_stark(players)
        q = statistics.quantiles(times, n=20)
        print(
            f"Stark decision, {players} players, {len(times)} positions: median "
            f"{statistics.median(times):.1f} ms, p95 {q[18]:.1f} ms, max {max(times):.1f} ms "
            f"(Nochmal weighed by {bots.STARK_DRAWN} rolls)"
        )
    for players in (3, 4):
        times = [t * 1000 for t in game_times(players, 2)]
        q = statistics.quantiles(times, n=20)
        print(
            f"Stark decision in whole games of Stark, {players} players, {len(times)} decisions: "
            f"median {statistics.median(times):.1f} ms, p95 {q[18]:.1f} ms, max {max(times):.1f} ms"
        )
    print(f"simulator: {simulator_rate():,.0f} Durchgang playouts/s (4 players, 20,000 rows)")
    for level, who in (("normal", "takes the suggestion"), ("leicht", "plays random fitting dice")):
        placements, turns = presses(level=level)
        print(
            f"key presses, a human who {who}: placement median "
            f"{statistics.median(placements)}, mean {statistics.mean(placements):.2f} "
            f"(n={len(placements)}); turn median {statistics.median(turns)}, mean "
            f"{statistics.mean(turns):.2f} (n={len(turns)})"
        )


if __name__ == "__main__":
    main()
