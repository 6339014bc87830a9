"""Test opponents for Engel & Bengel: players that are not Stark's own model, for tests and
tournaments (`spielleiter-host tournament engel-bengel --seats stark,planner,planner`).
None of them is a computer level of the box; each plays on its seat's view alone.

* `cautious`: places the die the rollout policy likes best (and a white row's last box
  whenever it can), then stops: it never rolls again.
* `reckless`: places like the rollout policy, then rolls again whenever the rules let it.
* `planner`: a plain greedy player written from the rule text. It plans each roll's
  placements exhaustively (every order of every fitting die), values a row it leaves
  unfinished by who is likely to finish it (the next player, by the chance that one roll
  of five dice brings what the row still needs), and decides Nochmal by one roll's
  lookahead (every outcome of up to two dice it would roll, 20 drawn rolls of three to
  five, each planned the same way).
* `searcher`: flat Monte Carlo, as Stark was before it modelled its opponents: every legal
  move played out 48 times by the simulator for the rest of the turn and one round of the
  table, every seat on the rollout policy rolling again from three dice, the best mean of
  own chips minus the others' mean.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache
from typing import Any

from spielleiter.games.engel_bengel.faces import Face, Row, fits, validate_face
from spielleiter.games.engel_bengel.policy import policy_move
from spielleiter.games.engel_bengel.rules import (
    MAX_ROLLS,
    Move,
    decode_place,
    place_action,
    roll_dice,
    roll_outcomes,
    row_delta,
)

OPPONENTS = ("cautious", "reckless", "planner", "searcher")

NEVER_AGAIN = 99
"""A roll-again threshold no turn reaches: the cautious stopper's."""
ALWAYS_AGAIN = 1
"""Rolls again while one die is left: the reckless roller's."""
SEARCH_PLAYOUTS = 48
SEARCH_KEEP = 3

PLANNER_DIE = 0.5
"""What a die the planner keeps is worth to it, in chips (a placed die is gone)."""
PLANNER_EXACT = 2
"""The planner's lookahead is exact over every roll of this many dice or fewer ..."""
PLANNER_SAMPLES = 20
"""... and a mean over this many drawn rolls of more."""


def choose(view: Mapping[str, Any], *, level: str, rng: random.Random) -> int:
    """The move of test opponent `level` on its seat's view."""
    legal = [int(a) for a in view["legal"]]
    if len(legal) == 1:
        return legal[0]
    face = validate_face(view["face"])
    if level == "cautious":
        return _policy(face, view, NEVER_AGAIN)
    if level == "reckless":
        return _policy(face, view, ALWAYS_AGAIN)
    if level == "planner":
        return planner_move(face, view, rng)
    if level == "searcher":
        return searcher_move(view, rng)
    raise ValueError(f"unknown test opponent {level!r}; known: {', '.join(OPPONENTS)}")


def _policy(face: Face, view: Mapping[str, Any], keep: int) -> int:
    return policy_move(face, view["board"], view["roll"], view["placed_now"], view["rolls"], keep)


# --- the greedy planner ------------------------------------------------------------


def _need_chance(left: int) -> float:
    """The chance that the next player's roll of five brings what a row still needs."""
    one = 1.0 - (5 / 6) ** 5
    return {1: one, 2: one * one / 2}.get(left, 0.0)


def _leave_value(row: Row, left: int, players: int) -> float:
    """What a row left with `left` free boxes is worth to the planner against the others'
    mean: the next player finishes it with _need_chance (a black row only when forced,
    half as often), otherwise it is anyone's."""
    if left <= 0:
        return 0.0
    chance = _need_chance(left) * (1.0 if row.white else 0.5)
    return -chance * row_delta(row) / (players - 1)


def planner_move(face: Face, view: Mapping[str, Any], rng: random.Random) -> int:
    """The planner's move: the best of every placement, Stopp and Nochmal by its plan."""
    players = int(view["players"])
    board = tuple(tuple(b) for b in view["board"])
    roll = tuple(sorted(view["roll"]))
    can_roll = int(view["rolls"]) < MAX_ROLLS
    plan = _Planner(face, players, rng)
    best, best_value = int(view["legal"][0]), -1e18
    for action in view["legal"]:
        a = int(action)
        if a == Move.STOPP:
            value = plan.leave(board)
        elif a == Move.NOCHMAL:
            value = plan.again(board, len(roll))
        else:
            value = plan.after_place(board, roll, a, can_roll)
        if value > best_value + 1e-12:
            best, best_value = a, value
    return best


class _Planner:
    """The planner's values of one decision (memoised within it)."""

    def __init__(self, face: Face, players: int, rng: random.Random) -> None:
        self.face, self.players, self.rng = face, players, rng
        self.memo: dict[tuple[Any, ...], float] = {}
        self.rows = [
            [_leave_value(row, row.boxes - k, players) for k in range(row.boxes + 1)]
            for row in face.rows
        ]
        """What each row is worth left with k boxes filled."""

    def leave(self, board: tuple[tuple[int, ...], ...]) -> float:
        return sum(values[len(b)] for values, b in zip(self.rows, board, strict=True))

    def after_place(
        self, board: tuple[tuple[int, ...], ...], roll: tuple[int, ...], action: int,
        can_roll: bool, lookahead: bool = True,
    ) -> float:  # fmt: skip
        """Place the die of `action`, then the best of the roll's rest. Placements of one
        roll end alike in any order, so a plan places them row by row (rows from r on)."""
        r, v = decode_place(action)
        row = self.face.rows[r]
        new = board[:r] + ((*board[r], v),) + board[r + 1 :]
        gain = row_delta(row) if len(new[r]) == row.boxes else 0
        rest = list(roll)
        rest.remove(v)
        value = gain - PLANNER_DIE
        if all(len(new[i]) == w.boxes for i, w in enumerate(self.face.rows)) or not rest:
            return value + self.leave(new)
        return value + self.best(new, tuple(rest), False, can_roll and lookahead, r)

    def best(
        self, board: tuple[tuple[int, ...], ...], roll: tuple[int, ...], must: bool,
        lookahead: bool, low: int = 0,
    ) -> float:  # fmt: skip
        """The best value from here: place more (in rows from `low` on), stop, or (with
        lookahead) roll once more. A roll that fits nowhere ends the turn."""
        key = (board, roll, must, lookahead, low)
        if key in self.memo:
            return self.memo[key]
        options = [
            self.after_place(board, roll, place_action(r, v), lookahead, lookahead)
            for r, row in enumerate(self.face.rows)
            if r >= low
            for v in set(roll)
            if fits(row, board[r], v)
        ]
        if must and not options:
            value = self.leave(board)
        else:
            if not must:
                options.append(self.leave(board))
                if lookahead:
                    options.append(self.again(board, len(roll)))
            value = max(options)
        self.memo[key] = value
        return value

    def again(self, board: tuple[tuple[int, ...], ...], dice: int) -> float:
        """Nochmal: the mean over every roll of `dice` dice, each played by its plan (and
        stopped after it: one roll's lookahead); with more than PLANNER_EXACT dice, over
        PLANNER_SAMPLES rolls drawn."""
        if dice <= PLANNER_EXACT:
            return sum(
                p * self.best(board, tuple(roll_dice(code, dice)), True, False)
                for code, p in _outcomes(dice)
            )
        rolls = [
            tuple(sorted(self.rng.randint(1, 6) for _ in range(dice)))
            for _ in range(PLANNER_SAMPLES)
        ]
        return sum(self.best(board, roll, True, False) for roll in rolls) / len(rolls)


@cache
def _outcomes(dice: int) -> tuple[tuple[int, float], ...]:
    return roll_outcomes(dice)


# --- the searcher ------------------------------------------------------------------


def searcher_values(
    view: Mapping[str, Any], rng: random.Random, playouts: int = SEARCH_PLAYOUTS
) -> dict[int, float]:
    """Each legal move's mean of (own chips - the others' mean chips) over the playouts,
    every seat on the rollout policy rolling again from three dice."""
    import numpy as np
    from spielleiter.games.engel_bengel.bots import position
    from spielleiter.games.engel_bengel.sim import Batch, simulate

    seat = int(view["seat"])
    legal = [int(a) for a in view["legal"]]
    base = position(view)
    states = []
    for action in legal:
        s = base.clone()
        s.apply_action(action)
        if s.durchgang != base.durchgang:
            s.over = True
        states.append(s)
    n = int(view["players"])
    batch = Batch.of(states, repeat=playouts)
    gen = np.random.default_rng(rng.getrandbits(64))
    dice = np.tile(gen.integers(1, 7, size=(playouts, 64, 5)), (len(legal), 1, 1))
    keep = np.full((len(legal) * playouts, n), SEARCH_KEEP)
    simulate(validate_face(view["face"]), batch, dice, keep, horizon=n)
    chips = batch.chips.astype(float)
    mine = chips[:, seat]
    others = (chips.sum(axis=1) - mine) / (n - 1)
    score = (mine - others).reshape(len(legal), playouts).mean(axis=1)
    return {a: float(v) for a, v in zip(legal, score, strict=True)}


def searcher_move(view: Mapping[str, Any], rng: random.Random) -> int:
    """The searcher's move: the best mean (the rollout policy's move on a tie)."""
    values = searcher_values(view, rng)
    best = max(values.values())
    face = validate_face(view["face"])
    usual = _policy(face, view, SEARCH_KEEP)
    if values.get(usual, -1e9) >= best - 1e-9:
        return usual
    return max(values, key=lambda a: values[a])
