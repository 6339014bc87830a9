"""Engel & Bengel's plans side by side: another checkout's `bots.py` against this one's, in
one process, so that a speed-up is a ratio measured under the same load.

On the decision views `benchmarks/pi.py` times (Normal's games, 100 a player count) the
old module and the new take turns view by view (the first of each pair alternating), the
plans cleared before each pass; in whole games of the level the two take turns game by
game, each module playing its own game on the same chance stream, the plans kept as on a
fresh box. CPU time. It also says whether the two modules value every view alike (the
same values, so the same moves and games).

Run: git worktree add /tmp/old REV
     .venv/bin/python benchmarks/engel_bengel_against.py /tmp/old [--level normal]
     (--passes N over the views, 3; --games N whole games each, 4). Without a checkout
     it compares the working tree's bots.py with the last commit's (`git show HEAD:…`).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import engel_bengel
from spielleiter.games.engel_bengel import bots

BOTS = "firmware/games/engel_bengel/bots.py"


def load_bots(tree: Path) -> ModuleType:
    """The `bots.py` of another checkout (or that file itself), as a module of its own."""
    path = tree if tree.suffix == ".py" else tree / BOTS
    spec = importlib.util.spec_from_file_location("engel_bengel_bots_against", path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def mover(module: ModuleType, level: str) -> Callable[[dict[str, Any]], int]:
    """The module's move function of the level."""
    move: Callable[[dict[str, Any]], int] = getattr(module, f"{level}_move")
    return move


def on_views(old: ModuleType, level: str, players: int, passes: int) -> dict[str, list[float]]:
    views = engel_bengel.decision_views(players, 100, seed=players)
    times: dict[str, list[float]] = {"old": [], "new": []}
    for p in range(passes):
        old._plans().clear()
        bots._plans().clear()
        for i, view in enumerate(views):
            pair = [("old", old), ("new", bots)]
            for name, module in pair if (i + p) % 2 == 0 else pair[::-1]:
                move = mover(module, level)
                t0 = time.process_time()
                move(view)
                times[name].append(time.process_time() - t0)
    return times


def in_games(old: ModuleType, level: str, players: int, games: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"old": [], "new": []}
    old._plans().clear()
    bots._plans().clear()
    for g in range(games):
        pair = [("old", old), ("new", bots)]
        for name, module in pair if g % 2 == 0 else pair[::-1]:
            rng = random.Random(players * 1000 + g)
            times[name] += engel_bengel.game_time(players, rng, mover(module, level))
    return times


def same_values(old: ModuleType, level: str, players: int) -> bool:
    views = engel_bengel.decision_views(players, 100, seed=players)
    values = "stark_values" if level == "stark" else "normal_values"
    old._plans().clear()
    bots._plans().clear()
    return all(getattr(old, values)(v) == getattr(bots, values)(v) for v in views)


def p95(times: list[float]) -> float:
    return statistics.quantiles(times, n=20)[-1]


def report(label: str, times: dict[str, list[float]]) -> None:
    for name in ("old", "new"):
        t = times[name]
        print(
            f"{label} {name}: n={len(t)} all {sum(t):.2f} s,"
            f" median {statistics.median(t) * 1e3:.2f} ms,"
            f" p95 {p95(t) * 1e3:.1f} ms, max {max(t) * 1e3:.1f} ms"
        )
    old, new = times["old"], times["new"]
    print(
        f"{label} new/old: all x{sum(new) / sum(old):.2f}, p95 x{p95(new) / p95(old):.2f},"
        f" max x{max(new) / max(old):.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path, nargs="?", help="another checkout, or its bots.py")
    parser.add_argument("--level", choices=("stark", "normal"), default="stark")
    parser.add_argument("--passes", type=int, default=3, help="passes over the decision views")
    parser.add_argument("--games", type=int, default=4, help="whole games each, a player count")
    args = parser.parse_args()
    if args.old is None:
        root = Path(__file__).resolve().parent.parent
        source = subprocess.run(
            ["git", "-C", str(root), "show", f"HEAD:{BOTS}"],
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
        with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as file:
            file.write(source)
        print(f"old: the last commit's {BOTS}")
        old = load_bots(Path(file.name))
        os.unlink(file.name)
    else:
        old = load_bots(args.old)
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for players in (3, 4):
        label = f"{args.level}, {players} players"
        report(f"{label}, decision views", on_views(old, args.level, players, args.passes))
        report(f"{label}, whole games", in_games(old, args.level, players, args.games))
        print(f"{label}: the same values on the views: {same_values(old, args.level, players)}")
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
