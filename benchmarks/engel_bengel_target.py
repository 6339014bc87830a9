"""How long an Engel & Bengel game of four Normal computers lasts for each target.

Plays games with no target (a stop after 25 Durchgänge), notes the richest player's chips
after every Durchgang, and prints, per target, the mean and median number of Durchgänge
until someone has reached it. The default target (rules.TARGET) is the one that gives
about eight Durchgänge (DESIGN.md).

Run: .venv/bin/python benchmarks/engel_bengel_target.py [GAMES]
"""

from __future__ import annotations

import random
import statistics
import sys

from spielleiter.games.base import sample_chance
from spielleiter.games.engel_bengel import bots
from spielleiter.games.engel_bengel.rules import TARGET, EngelBengelGame

LIMIT = 25


def richest_after_each_durchgang(games: int) -> list[list[int]]:
    runs = []
    for g in range(games):
        state = EngelBengelGame(
            {"players": 4, "target": 10_000, "limit": LIMIT}
        ).new_initial_state()
        rng = random.Random(g)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            else:
                state.apply_action(bots.normal_move(state.view(state.current_player())))
        runs.append([max(r.chips) for r in state.results])
    return runs


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    runs = richest_after_each_durchgang(games)
    print(f"{games} games of four Normal computers; Durchgänge until someone has the target")
    for target in range(100, 155, 5):
        lengths = [next((i + 1 for i, m in enumerate(r) if m >= target), LIMIT) for r in runs]
        mark = "  <- default" if target == TARGET else ""
        print(
            f"target {target}: mean {statistics.mean(lengths):.2f} "
            f"(se {statistics.stdev(lengths) / len(lengths) ** 0.5:.2f}), "
            f"median {statistics.median(lengths):.0f}{mark}"
        )


if __name__ == "__main__":
    main()
