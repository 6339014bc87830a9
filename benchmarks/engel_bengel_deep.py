"""Engel & Bengel: Stark with a Nochmal weighed two rolls deep, as outside seats.

Stark's plan weighs a Nochmal by each of its rolls placed and then stopped, and where
another Nochmal may follow it adds a fitted option (`bots.STARK_OPTION`). These seats
weigh such a Nochmal two rolls deep instead: each of its rolls placed, then the better
of stopping and one more Nochmal as the plan weighs it (docs/engel-bengel.md, "Issue 22,
session 18").

- `everywhere`: every such Nochmal, the ones inside Stark's placements too. It patches
  `bots._Plan.again` in its process on its first move, so seat it alone (not beside
  `root` or the box's Stark in one tournament).
- `root`: only the Nochmal Stark may choose now; the rest of the plan as the box's.

    spielleiter-host tournament engel-bengel \\
        --seats benchmarks/engel_bengel_deep.py:root,planner,planner --games 300 --seed 15
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spielleiter.games.engel_bengel import bots
from spielleiter.games.engel_bengel.rules import MAX_ROLLS, Move, roll_dice, roll_outcomes

Board = tuple[tuple[int, ...], ...]


def rolls(dice: int, drawn: int) -> list[tuple[int, tuple[int, ...]]]:
    """(weight, roll) of the rolls the plan weighs a Nochmal of `dice` dice by."""
    if dice > bots.NORMAL_LOOKAHEAD:
        return [(1, roll) for roll in bots._drawn(dice, drawn)]
    return [
        (round(p * 6**dice), tuple(sorted(roll_dice(code, dice))))
        for code, p in roll_outcomes(dice)
    ]


def two_rolls_deep(plan: bots._Plan, board: Board, dice: int) -> int:
    """A Nochmal's worth in the plan's units: each roll placed, then the better of
    stopping and one more Nochmal (the plan's own: its roll placed and stopped)."""
    key = (board, dice, "two rolls deep")
    found = plan.memo.get(key)
    if found is None:
        weighted = rolls(dice, plan.drawn)
        total = sum(w * plan.best(board, roll, True, 1) for w, roll in weighted)
        found = plan.memo[key] = total // sum(w for w, _ in weighted)
    return found


_AGAIN = bots._Plan.again


def _again(plan: bots._Plan, board: Board, dice: int, later: bool = False) -> int:
    if later and dice in plan.option:
        return two_rolls_deep(plan, board, dice)
    return _AGAIN(plan, board, dice, False)


def everywhere(view: Mapping[str, Any], rng: Any = None) -> int:
    """Stark with every Nochmal that another may follow weighed two rolls deep."""
    bots._Plan.again = _again  # type: ignore[method-assign]
    return bots.stark_move(view)


def root(view: Mapping[str, Any], rng: Any = None) -> int:
    """Stark with the Nochmal it may choose now weighed two rolls deep where another may
    follow (the Nochmals inside its placements keep the option)."""
    legal = [int(a) for a in view["legal"]]
    if len(legal) == 1:
        return legal[0]
    values = bots.stark_values(view)
    dice = len(view["roll"])
    if Move.NOCHMAL in legal and MAX_ROLLS - int(view["rolls"]) > 1 and dice in bots.STARK_OPTION:
        key = bots.PlanKey(
            bots.face_of(view),
            int(view["players"]),
            bots._next_cup(view),
            bots.STARK_DRAWN,
            bots.stark_die(view),
            True,
        )
        plan = bots._plan(key)
        board = tuple(tuple(b) for b in view["board"])
        values[int(Move.NOCHMAL)] = two_rolls_deep(plan, board, dice) / plan.chip
    return max(legal, key=lambda a: (values[a], -legal.index(a)))
