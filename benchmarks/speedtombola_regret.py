"""Stark's decisions against two IS-MCTS searchers, judged by a much deeper search.

Plays GAMES one-round games of Stark against two of the IS-MCTS test opponent (Stark's
seat rotated), keeps every decision of Stark that is not forced, and for a sample of
them runs the IS-MCTS searcher with each of Stark's two moves forced at the root and
ITERATIONS iterations below each (the opponents in the tree search as deep as the mover):
the reference win share of Nehmen and of "Nein danke". Stark (the box's `bots._stark`,
its random numbers seeded from the position's number) is then scored by its **regret**:
the reference's better win share minus that of the move Stark chose, averaged over the
positions; and by how often it agrees where the reference's two lie CLEAR or more apart.

    .venv/bin/python benchmarks/speedtombola_regret.py [--games 24] [--positions 800]
        [--iterations 10000] [--jobs 2] [--cache out/speedtombola_regret.json]

The positions and their reference are kept in --cache (JSON; a run finds them there and
only plays Stark again), so a change to Stark is measured on the same positions: about
ten minutes here with two jobs for the reference, seconds for Stark.
"""

from __future__ import annotations

import argparse
import json
import os
import random
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np
from spielleiter.games.speedtombola import arena, bots, opponents
from spielleiter.games.speedtombola.rules import Move

CLEAR = 0.02
SEED = 101


def positions(games: int) -> list[dict[str, Any]]:
    """Stark's unforced decision views in `games` rounds against two IS-MCTS searchers."""
    return [view for g in range(games) for view in _stark_views(g)]


def _stark_views(game: int) -> list[dict[str, Any]]:
    """Stark's unforced decision views in one round, its seat rotated game by game."""
    levels = ["ismcts"] * 3
    levels[game % 3] = "stark"
    views = []

    def keep(seat: int, view: dict[str, Any]) -> None:
        if levels[seat] == "stark" and view["groschen"][seat] > 0:
            views.append(view)

    arena.match(levels, (SEED, game), game, {}, keep)
    return views


def reference(job: tuple[int, dict[str, Any], int]) -> dict[str, float]:
    """The mover's mean win share with Nehmen and with "Nein danke" forced at the root."""
    number, view, iterations = job
    rng, tree = random.Random(1000 + number), {}
    me, shares = int(view["seat"]), {}
    for name, first in (("nehmen", True), ("nein_danke", False)):
        total = 0.0
        for _ in range(iterations):
            total += opponents.win_shares(opponents._iteration(view, rng, tree, first))[me]
        shares[name] = total / iterations
    return shares


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--positions", type=int, default=800)
    parser.add_argument("--iterations", type=int, default=10_000, help="per forced move")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cache", type=Path, default=Path("out/speedtombola_regret.json"))
    args = parser.parse_args()
    print(f"load {os.getloadavg()[0]:.2f}")
    if args.cache.exists():
        cases = json.loads(args.cache.read_text())
    else:
        views = positions(args.games)
        random.Random(5).shuffle(views)
        views = views[: args.positions]
        jobs = [(i, v, args.iterations) for i, v in enumerate(views)]
        with Pool(args.jobs) as pool:
            refs = pool.map(reference, jobs)
        cases = [{"view": v, "reference": r} for v, r in zip(views, refs, strict=True)]
        args.cache.parent.mkdir(parents=True, exist_ok=True)
        args.cache.write_text(json.dumps(cases))
    regret, clear, agree = [], 0, 0
    for number, case in enumerate(cases):
        ref = case["reference"]
        move = bots._stark(case["view"], np.random.default_rng([0, number]))
        chosen = ref["nehmen"] if move == Move.NEHMEN else ref["nein_danke"]
        regret.append(max(ref.values()) - chosen)
        if abs(ref["nehmen"] - ref["nein_danke"]) >= CLEAR:
            clear += 1
            agree += regret[-1] == 0
    r = np.array(regret)
    print(
        f"{len(cases)} positions of Stark against two IS-MCTS, reference IS-MCTS"
        f" {args.iterations} iterations per move: mean regret {1000 * r.mean():.2f}"
        f" ± {1000 * r.std(ddof=1) / np.sqrt(len(r)):.2f} thousandths of a win share;"
        f" agrees in {agree} of the {clear} where the reference is clear ({CLEAR})"
    )


if __name__ == "__main__":
    main()
