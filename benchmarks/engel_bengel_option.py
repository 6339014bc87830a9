"""Engel & Bengel: Stark's option on Nochmal (`bots.STARK_OPTION`), fitted again.

Stark's plan weighs a Nochmal by its roll placed and then stopped. Where another Nochmal
may follow, rolling on after that roll is worth something too; Stark adds
max(0, a + b × the roll's gain) for it, per number of dice. This script finds every
board where Stark's plan weighs such a Nochmal on Normal's decision views (3 and 4
players), values the Nochmal there two rolls deep (each roll placed, then the better of
stopping and one more Nochmal as the plan weighs it: the plan itself), and fits a and b
per number of dice by least squares. It prints the fit beside `bots.STARK_OPTION` and
how well each explains the deeper value (R², with the max). What the deeper plan costs:
`benchmarks/engel_bengel_against.py` with a module that plays it (docs/engel-bengel.md).

Run: .venv/bin/python benchmarks/engel_bengel_option.py [--views 300]
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from typing import Any

import numpy as np
from engel_bengel import decision_views
from engel_bengel_deep import rolls
from spielleiter.games.engel_bengel import bots

Board = tuple[tuple[int, ...], ...]


def boards_with_an_option(views: list[dict[str, Any]]) -> list[tuple[bots._Plan, Board, int]]:
    """(plan, board, dice) of every Nochmal that Stark's plan weighs with its option on
    these views, each once."""
    found: dict[tuple[int, Board, int], tuple[bots._Plan, Board, int]] = {}
    again = bots._Plan.again

    def noting(plan: bots._Plan, board: Board, dice: int, later: bool = False) -> int:
        if later and dice in plan.option:
            found.setdefault((id(plan), board, dice), (plan, board, dice))
        return again(plan, board, dice, later)

    bots._Plan.again = noting  # type: ignore[method-assign,assignment]
    try:
        for view in views:
            bots.stark_move(view)
    finally:
        bots._Plan.again = again  # type: ignore[method-assign]
    return list(found.values())


def two_rolls_deep(plan: bots._Plan, board: Board, dice: int) -> float:
    """The Nochmal's worth in chips: each roll placed, then the better of stopping and one
    more Nochmal (weighed by the plan: its roll placed and stopped)."""
    weighted = rolls(dice, plan.drawn)
    total = sum(w * plan.best(board, roll, True, 1) for w, roll in weighted)
    return total / sum(w for w, _ in weighted) / plan.chip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--views", type=int, default=300, help="decision views a player count")
    args = parser.parse_args()
    bots._plans().clear()
    views = [v for players in (3, 4) for v in decision_views(players, args.views, 100 + players)]
    boards = boards_with_an_option(views)
    by_dice: dict[int, list[tuple[float, float]]] = defaultdict(list)
    """Per dice: (the one roll's gain, what the deeper plan adds to it), in chips."""
    for plan, board, dice in boards:
        one = plan.again(board, dice)
        deep = two_rolls_deep(plan, board, dice)
        by_dice[dice].append(((one - plan.leave(board)) / plan.chip, deep - one / plan.chip))
    print(f"{len(views)} decision views, {len(boards)} boards where another Nochmal may follow")
    print("dice  boards  deeper plan adds  fit a, b (R²)          box a, b (R²)")
    for dice in sorted(by_dice):
        pairs = np.array(by_dice[dice])
        gain, more = pairs[:, 0], pairs[:, 1]
        x = np.column_stack([np.ones_like(gain), gain])
        (a, b), *_ = np.linalg.lstsq(x, more, rcond=None)
        box_a, box_b = bots.STARK_OPTION.get(dice, (0.0, 0.0))

        def r2(pred: np.ndarray[Any, Any], more: np.ndarray[Any, Any] = more) -> float:
            return float(1 - ((more - pred) ** 2).mean() / more.var()) if more.var() else 1.0

        fit_r2 = r2(np.maximum(0.0, a + b * gain))
        box_r2 = r2(np.maximum(0.0, box_a + box_b * gain))
        print(
            f"{dice:4d}  {len(gain):6d}  {more.mean():16.3f}  {a:5.2f}, {b:4.2f} ({fit_r2:.2f})"
            f"       {box_a:5.2f}, {box_b:4.2f} ({box_r2:.2f})"
        )


if __name__ == "__main__":
    main()
