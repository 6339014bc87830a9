"""How quickly Speedtombola's Stark tells a searching opponent from a threshold player
(belief.searcher_chance).

Plays one-round games of three alike for each kind of player (the searchers: the IS-MCTS
test opponent, the deep one and Stark; the threshold players: Normal, Leicht and the
threshold test opponents) and prints, for each kind, the median chance that a seat
searches after its first 1, 3, 6, 10 and 20 telling decisions (forced takes say
nothing) and after its whole round.

    .venv/bin/python benchmarks/speedtombola_searchers.py [--games 16] [--deep 6]

About two minutes here (the deep searcher's games are the slow part).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping
from typing import Any

import numpy as np
from spielleiter.games.speedtombola import arena, belief

KINDS = ("ismcts", "deep", "stark", "normal", "leicht", "patient", "greedy", "hoarder", "noisy")
AFTER = (1, 3, 6, 10, 20)


def seats(level: str, games: int, seed: int = 1) -> list[list[Mapping[str, Any]]]:
    """Each seat's telling decisions in `games` rounds of three `level`s."""
    found = []
    for g in range(games):
        history = arena.match([level] * 3, (seed, g), g, {}).view(0)["history"]
        found += [belief._decisions(history, s) for s in range(3)]
    return [s for s in found if s]


def median_chance(decisions: list[list[Mapping[str, Any]]]) -> float:
    chances = [belief._searcher(belief._log_likelihoods(d, belief.FAMILY), d) for d in decisions]
    return float(np.median(chances))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=16, help="games of each kind")
    parser.add_argument("--deep", type=int, default=6, help="games of the deep searcher")
    args = parser.parse_args()
    print(f"load {os.getloadavg()[0]:.2f}; the prior: {belief.SEARCHER_PRIOR}")
    print(f"median chance that a seat searches after its first {AFTER} decisions / its round:")
    for kind in KINDS:
        found = seats(kind, args.deep if kind == "deep" else args.games)
        line = [median_chance([s[:k] for s in found if len(s) >= k]) for k in AFTER]
        line.append(median_chance(found))
        print(f"  {kind:<8} {'  '.join(f'{x:.2f}' for x in line)}  ({len(found)} seats)")


if __name__ == "__main__":
    main()
