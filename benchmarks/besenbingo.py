"""Besenbingo bots: decision times and each template's expected scores (prints numbers).

Run: .venv/bin/python benchmarks/besenbingo.py
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Iterator

from spielleiter.games.base import sample_chance
from spielleiter.games.besenbingo.bots import Solver, choose, simulate
from spielleiter.games.besenbingo.rules import BesenbingoGame, BesenbingoState
from spielleiter.games.besenbingo.templates import Template, default_templates

GAMES = 300
"""Simulated Durchgänge per template."""
WARM_GAMES = 60
"""Nine-seat games whose decisions are timed once the tables are built."""


def stark_durchgaenge(
    templates: list[Template], games: int
) -> Iterator[tuple[int, BesenbingoState]]:
    """(game number, state) at each decision of nine-seat Durchgänge on `templates`, the
    same deals every run; the caller applies a move to each state before the next."""
    rng = random.Random(1)
    game = BesenbingoGame({"players": 9, "templates": [t.name for t in templates]})
    for g in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            yield g, state


def ms(seconds: list[float]) -> str:
    return f"median {1000 * statistics.median(seconds):.2f} ms, max {1000 * max(seconds):.2f} ms"


def main() -> None:
    templates = default_templates()

    for shipped, what in ((False, "its table empty"), (True, "the shipped top of its table")):
        cold: list[float] = []
        for template in templates:
            for tower in range(1, 9):
                solver = Solver(template, shipped=shipped)
                start = time.perf_counter()
                solver.best_move([tower], 0, (0, 0, 0, 0, 0))
                cold.append(time.perf_counter() - start)
        print(f"first decision of a template, {what} ({len(cold)}): {ms(cold)}")

    builds, expected = [], []
    for template in templates:
        start = time.perf_counter()
        expected.append(Solver(template, shipped=False).expected_score())
        builds.append(time.perf_counter() - start)
    print(f"the whole table per template (what prepare() builds for an uploaded one): {ms(builds)}")

    warm: list[float] = []
    for g, state in stark_durchgaenge(templates, WARM_GAMES):
        view = state.view(state.current_player())
        start = time.perf_counter()
        action = choose(view, level="stark", rng=random.Random(g))
        warm.append(time.perf_counter() - start)
        state.apply_action(action)
    print(f"decision in play, 9 seats ({len(warm)} decisions): {ms(warm)}")

    greedy = [Solver.of(t).greedy_score() for t in templates]
    mean, greedy_mean = statistics.mean(expected), statistics.mean(greedy)
    print("\nexpected final score (exact) of the strongest play and of a greedy player")
    print(f"(most points this turn), and {GAMES} simulated games of the strongest play:")
    print(
        f"{'template':16} {'best':>7} {'vs mean':>8} {'greedy':>7} {'vs mean':>8} "
        f"{'simulated':>10} {'± s.e.':>7}"
    )
    for i, (template, value, low) in enumerate(zip(templates, expected, greedy, strict=True)):
        scores = simulate(template, GAMES, seed=i)
        se = scores.std(ddof=1) / len(scores) ** 0.5
        print(
            f"{template.name:16} {value:7.2f} {100 * (value / mean - 1):+7.1f}% "
            f"{low:7.2f} {100 * (low / greedy_mean - 1):+7.1f}% {scores.mean():10.2f} {se:7.2f}"
        )
    spread = max(abs(v / mean - 1) for v in expected)
    greedy_spread = max(abs(v / greedy_mean - 1) for v in greedy)
    print(
        f"best play: mean {mean:.2f}, largest deviation {100 * spread:.1f}% (limit 5%); "
        f"greedy: mean {greedy_mean:.2f}, largest deviation {100 * greedy_spread:.1f}% (limit 8%)"
    )

if __name__ == "__main__":
    main()
