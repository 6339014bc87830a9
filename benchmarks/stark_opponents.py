"""Stark with opponent modelling against Stark with the old fixed model ("every opponent
plays like Normal with a wide temper"), side by side in one process on the same deals,
each against pairs of test opponents (3 players, seats rotated, ties split).

    .venv/bin/python benchmarks/stark_opponents.py [GAMES] [OPPONENT ...]

GAMES per line (default 30, rounded up to whole rotations; the docs quote a run
of 60); opponents default: normal,
patient, greedy, hoarder, noisy. Prints win share ± standard error and the load.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
from spielleiter.games.speedtombola import bots
from spielleiter.games.speedtombola.sim import Policy, RowPolicies
from spielleiter_host import tournament

OLD_OPPONENT = Policy(cost=0.2, lot=0.15, noise=3.0, reserve=3, slope=1)


@contextmanager
def fixed_model() -> Iterator[None]:
    """Stark as it was: every opponent's rollouts by OLD_OPPONENT, whatever they did."""
    original = bots.stack_policies

    def old(choices: np.ndarray, family: Any) -> RowPolicies:
        own = int(choices.max())  # the mover's own column holds the largest index
        return RowPolicies((OLD_OPPONENT, bots.STARK_SELF), (choices == own).astype(np.int64))

    bots.stack_policies = old
    try:
        yield
    finally:
        bots.stack_policies = original


def share(opponent: str, games: int) -> tuple[float, float, float]:
    setup = tournament.Setup("speedtombola", ("stark", opponent, opponent), seed=21)
    start = time.perf_counter()
    result = tournament.run(setup, games)["results"][0]
    return result["win_share"], result["win_share_se"], time.perf_counter() - start


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    opponents = sys.argv[2:] or ["normal", "patient", "greedy", "hoarder", "noisy"]
    print(f"Stark against two of each, {games} games a line, load {os.getloadavg()[0]:.2f}")
    print(f"{'opponents':<10} {'fixed model':>16} {'belief':>16}")
    for opponent in opponents:
        with fixed_model():
            old, old_se, _ = share(opponent, games)
        new, new_se, seconds = share(opponent, games)
        line = f"{opponent:<10} {old:8.3f} ± {old_se:.3f} {new:8.3f} ± {new_se:.3f}"
        print(f"{line}  ({seconds:.0f} s)")


if __name__ == "__main__":
    main()
