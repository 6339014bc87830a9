"""Rat in Speedtombola's openings against a much deeper search.

Each opening is the first lot of a 3-player round with no history yet (so Stark plays
against its prior alone), nothing held, 9 lots removed. Rat (2000 drums for every move
that may take the lot, as on the box) is set beside the IS-MCTS searcher of the test
opponents run with 100 times its iterations (40,000): the move each recommends, Rat's
expected points and win chance of both options, and the searcher's win share of both at
its root with the mover's mean points after each.

    .venv/bin/python benchmarks/speedtombola_openings.py [ITERATIONS] [--grid]

With --grid it runs every first lot of GRID_LOTS after 0, 1 and 2 passes (30 openings)
instead of the five, and counts where the two agree: in all, and where the searcher's
win shares of the two options lie CLEAR or more apart (elsewhere it is a near tie for
the deeper search too, and Rat's 2000 drums cannot call it either).
"""

from __future__ import annotations

import argparse
import os
import random
import time

from spielleiter.games.speedtombola import bots, opponents
from spielleiter.games.speedtombola.rules import Move, SpeedtombolaGame

OPENINGS = (
    ("lot 3, two passed", 3, 2),
    ("lot 3, first to decide", 3, 0),
    ("lot 10, two passed", 10, 2),
    ("lot 20, two passed", 20, 2),
    ("lot 35, first to decide", 35, 0),
)
"""(name, lot, passes before the mover)."""
GRID_LOTS = (3, 5, 8, 10, 12, 15, 18, 20, 25, 30)
CLEAR = 0.02
"""A difference in the searcher's win shares that counts as a clear preference."""


def opening(lot: int, passes: int) -> dict:
    """The view of the seat that decides after `passes` others passed the first lot."""
    state = SpeedtombolaGame({"players": 3}).new_initial_state()
    removed = [x for x in range(35, 2, -1) if x != lot][:9]
    for x in removed:
        state.apply_action(x)
    state.apply_action(lot)
    for _ in range(passes):
        state.apply_action(Move.NEIN_DANKE)
    return state.view(state.current_player())


def deep(view: dict, iterations: int, rng: random.Random) -> dict[str, float]:
    tree: dict = {}
    me = int(view["seat"])
    points = {0: [0.0, 0], 2: [0.0, 0]}
    for _ in range(iterations):
        result = opponents._iteration(view, rng, tree)
        root = tree[()]
        taken = root[0] > points[0][1]
        points[0 if taken else 2][0] += result[me]
        points[0 if taken else 2][1] += 1
    root = tree[()]
    return {
        "take": root[1] / root[0], "pass": root[3] / root[2], "visits_take": root[0],
        "points_take": points[0][0] / max(1, points[0][1]),
        "points_pass": points[2][0] / max(1, points[2][1]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("iterations", type=int, nargs="?", default=40_000)
    parser.add_argument("--grid", action="store_true", help="30 openings, not the five")
    args = parser.parse_args()
    iterations = args.iterations
    openings = OPENINGS
    if args.grid:
        grid = [(lot, passes) for lot in GRID_LOTS for passes in (0, 1, 2)]
        openings = tuple((f"lot {lot}, {passes} passed", lot, passes) for lot, passes in grid)
    print(f"load {os.getloadavg()[0]:.2f}; IS-MCTS {iterations} iterations")
    agree = clear = clear_agree = 0
    for name, lot, passes in openings:
        view = opening(lot, passes)
        rat = bots.advice(view, rng=random.Random(1))
        t0 = time.process_time()
        d = deep(view, iterations, random.Random(2))
        deep_move = Move.NEHMEN if d["visits_take"] * 2 > iterations else Move.NEIN_DANKE
        nein = rat.nein_danke
        assert nein is not None
        same = deep_move == rat.recommended
        agree += same
        if abs(d["take"] - d["pass"]) >= CLEAR:
            clear += 1
            clear_agree += same
        print(
            f"{name:<24} groschen {view['groschen']} pot {view['pot']}:"
            f" Rat {rat.recommended.name:<10} (points {rat.nehmen.points:5.1f} vs"
            f" {nein.points:5.1f}, win {rat.nehmen.match_win:.3f} vs {nein.match_win:.3f});"
            f" IS-MCTS {deep_move.name:<10} (win {d['take']:.3f} vs {d['pass']:.3f},"
            f" points {d['points_take']:5.1f} vs {d['points_pass']:5.1f},"
            f" {time.process_time() - t0:.0f} s)"
            f"  {'agree' if same else 'DISAGREE'}",
            flush=True,
        )
    print(
        f"agree in {agree} of {len(openings)}; where the searcher's win shares lie"
        f" {CLEAR} or more apart, in {clear_agree} of {clear}"
    )


if __name__ == "__main__":
    main()
