"""Besenbingo bots: decision times and each template's expected score (prints numbers).

Run: .venv/bin/python benchmarks/besenbingo.py
"""

from __future__ import annotations

import random
import statistics
import time

from spielleiter.games.base import sample_chance
from spielleiter.games.besenbingo.bots import Solver, choose, prepare, simulate
from spielleiter.games.besenbingo.rules import BesenbingoGame
from spielleiter.games.besenbingo.templates import default_templates

GAMES = 300
"""Simulated Durchgänge per template."""
WARM_GAMES = 60
"""Nine-seat games whose decisions are timed once the tables are built."""


def ms(seconds: list[float]) -> str:
    return f"median {1000 * statistics.median(seconds):.2f} ms, max {1000 * max(seconds):.2f} ms"


def main() -> None:
    templates = default_templates()

    cold: list[float] = []
    for template in templates:
        for tower in range(1, 9):
            solver = Solver(template)
            start = time.perf_counter()
            solver.best_move([tower], 0, (0, 0, 0, 0, 0))
            cold.append(time.perf_counter() - start)
    print(f"first decision of a template, its table empty ({len(cold)}): {ms(cold)}")

    builds, expected = [], []
    Solver._cached.cache_clear()
    for template in templates:
        start = time.perf_counter()
        expected.append(prepare(template))
        builds.append(time.perf_counter() - start)
    print(f"prepare (whole table) per template: {ms(builds)}")

    warm: list[float] = []
    rng = random.Random(1)
    game = BesenbingoGame({"players": 9})
    for g in range(WARM_GAMES):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            view = state.view(state.current_player())
            start = time.perf_counter()
            action = choose(view, level="stark", rng=random.Random(g))
            warm.append(time.perf_counter() - start)
            state.apply_action(action)
    print(f"decision once prepared ({len(warm)} decisions): {ms(warm)}")

    mean = statistics.mean(expected)
    print(f"\nexpected final score, strongest play (exact), and {GAMES} simulated games:")
    print(f"{'template':16} {'exact':>7} {'vs mean':>8} {'simulated':>10} {'± s.e.':>7}")
    for i, (template, value) in enumerate(zip(templates, expected, strict=True)):
        scores = simulate(template, GAMES, seed=i)
        se = scores.std(ddof=1) / len(scores) ** 0.5
        print(
            f"{template.name:16} {value:7.2f} {100 * (value / mean - 1):+7.1f}% "
            f"{scores.mean():10.2f} {se:7.2f}"
        )
    spread = max(abs(v / mean - 1) for v in expected)
    print(f"mean {mean:.2f}; largest deviation from the mean {100 * spread:.1f}% (limit 10%)")


if __name__ == "__main__":
    main()
