"""Engel & Bengel computer players (Leicht, Normal, Stark), on a seat's view only.

- Leicht places a random fitting die when it must, adds a finished white row now and
  then, and rolls again or stops by a coin toss.
- Normal plans each roll (:func:`normal_move`): every order of placing the roll's fitting
  dice, each completed row counted, each die placed costing a little, and every row left
  unfinished valued by who is likely to finish it: the next player with dice, by the
  chance that its cup brings what the row still needs (a white row it finishes is lost to
  me, a black row it is forced to finish is its loss). Wherever it may stop it weighs
  Nochmal by one more roll, planned the same way and then stopped: every outcome of one
  die, eight fixed rolls of more (the same every time, so Normal is deterministic).
- Stark plans its turn as Normal does and looks further into Nochmal: it weighs rolling
  on with more dice by STARK_DRAWN fixed rolls, not eight, each planned to its end, so
  its choice between Stopp and Nochmal (and every placement that leaves a roll, the
  first die of a big roll's too) rests on a three times surer estimate; a Nochmal that
  another may follow is worth more by the chance to roll on after it (STARK_OPTION), which
  a plan of one roll leaves out. Near a Durchgang's end a die it keeps is worth less
  (STARK_DIE_HORIZON): the dice are shared out anew.
  Its values, like Normal's, do not depend on who the opponents are: a row left
  unfinished is valued by the chance that the next player's cup finishes it. Stark's
  earlier search (Normal's best four moves played out against a family of opponents)
  lost to Normal: the playouts' own rollout play was weaker than the plan they were to
  improve (docs/engel-bengel.md). The playouts stay for the Tipp (:func:`stark_choice`):
  after the round of the table, where each of Stark's best few moves leaves the player
  against the others, on the same dice, every opponent drawn from
  :data:`OPPONENT_FAMILY`.

The view is everything a player at the table sees: the top face, its boxes, the roll,
every player's dice and chips. No bot ever sees the stack below the top face.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from fractions import Fraction
from functools import cache, lru_cache
from math import inf, lcm
from typing import Any, NamedTuple

from spielleiter.games.engel_bengel.faces import Face, Row, fits, validate_face
from spielleiter.games.engel_bengel.policy import KEEP, STYLE, Style
from spielleiter.games.engel_bengel.rules import (
    CUP,
    MAX_ROLLS,
    EngelBengelGame,
    EngelBengelState,
    Move,
    decode_place,
    roll_dice,
    roll_outcomes,
    row_delta,
)

LEVELS = ("leicht", "normal", "stark")
NORMAL_KEEP = KEEP
"""Stark's own rollouts roll again while at least this many dice of its turn are left."""
NORMAL_DIE = 0.4
"""What a die Normal keeps is worth to it, in chips."""
NORMAL_LOOKAHEAD = 1
"""Normal weighs Nochmal by every outcome of one more roll with this many dice or fewer,
and by NORMAL_DRAWN fixed rolls with more."""
NORMAL_DRAWN = 8
STARK_DRAWN = 24
"""Stark plans as Normal does, but weighs Nochmal with more dice by this many fixed rolls
(Normal's eight among them): its estimate of rolling on is three times as sure."""
STARK_OPTION: dict[int, tuple[float, float]] = {2: (0.16, 0.16), 3: (0.40, 0.21), 4: (0.47, 0.15)}
"""The worth of rolling on after a Nochmal of 2, 3 or 4 dice that another Nochmal may
follow, in chips: the larger of 0 and a + b × what the plan's one roll adds (dice: (a,
b)). The plan weighs that roll by placing and then stopping; these are fitted to a plan
two rolls deep (`benchmarks/engel_bengel_option.py`), which costs five to eight times
the time a Zero 2 W has for a move."""
STARK_OPTION_WEIGHT = 2
"""Stark adds STARK_OPTION times this: twice the two rolls' worth won more games than once
(docs/engel-bengel.md), as a player may roll on up to MAX_ROLLS times."""
STARK_DIE_HORIZON = 8
"""With fewer boxes than this left on the board, a die Stark keeps is worth less, in
proportion (NORMAL_DIE with eight or more, nothing with the last box; rounded down to a
tenth): the Durchgang will likely end before its next turn, and at its end every die is
shared out anew, so a die kept then buys nothing."""
OPPONENT_FAMILY: tuple[tuple[int, Style], ...] = tuple(
    (keep, style)
    for keep in (1, 2, 3, 4, 99)
    for style in (STYLE, Style(setup=10, progress=0, trap=3), Style(setup=2, progress=2, die=5))
)
"""(roll-again threshold, style) of the players Stark's playouts draw each opponent from:
reckless (1) to cautious (99, never again); Normal's rollout style, a careful one and a
careless one."""
STARK_PLAYOUTS = 48
"""Playouts per move for the Tipp's figures (the same dice for every move)."""
STARK_HORIZON = 0
"""Turns the playouts look ahead past the player's own (0: one round of the table)."""
STARK_CANDIDATES = 4
"""The Tipp plays out Stark's best few moves by its plan, not every legal move."""


def face_of(view: Mapping[str, Any]) -> Face:
    """The view's face, read once per face (a bot asks for it many times a decision)."""
    return _face(_face_key(view))


def _face_key(view: Mapping[str, Any]) -> str:
    return json.dumps(view["face"], sort_keys=True, separators=(",", ":"))


@lru_cache(maxsize=32)
def _face(key: str) -> Face:
    return validate_face(json.loads(key))


def normal_move(view: Mapping[str, Any]) -> int:
    """Normal's move: the best of every legal move by its plan of the roll (the first of
    equals)."""
    legal = [int(a) for a in view["legal"]]
    if len(legal) == 1:
        return legal[0]
    values = normal_values(view)
    return max(legal, key=lambda a: (values[a], -legal.index(a)))


def normal_values(view: Mapping[str, Any]) -> dict[int, float]:
    """Each legal move's value by Normal's plan: the chips it brings this turn, less a
    little per die placed, plus the rows it leaves as valued by who is likely to finish
    them (against the others' mean)."""
    return plan_values(view, NORMAL_DRAWN)


def stark_values(view: Mapping[str, Any]) -> dict[int, float]:
    """Each legal move's value by Stark's plan: Normal's, with Nochmal weighed by
    STARK_DRAWN rolls, a Nochmal that another may follow worth more (STARK_OPTION) and a
    die kept worth :func:`stark_die`."""
    return plan_values(view, STARK_DRAWN, stark_die(view), option=True)


def stark_die(view: Mapping[str, Any]) -> float:
    """What a die Stark keeps is worth at this decision, in chips: NORMAL_DIE, less near
    the Durchgang's end (STARK_DIE_HORIZON)."""
    left = face_of(view).boxes - sum(map(len, view["board"]))
    tenths = int(10 * NORMAL_DIE * min(left, STARK_DIE_HORIZON)) // STARK_DIE_HORIZON
    return tenths / 10


def plan_values(
    view: Mapping[str, Any], drawn: int, die: float = NORMAL_DIE, option: bool = False
) -> dict[int, float]:
    """Each legal move's value by the plan that weighs Nochmal with more dice by `drawn`
    fixed rolls and counts a die kept `die` chips (`option`: a Nochmal that another may
    follow by STARK_OPTION too)."""
    plan = _plan(PlanKey(face_of(view), int(view["players"]), _next_cup(view), drawn, die, option))
    board = tuple(tuple(b) for b in view["board"])
    roll = tuple(sorted(view["roll"]))
    rolls = int(view["rolls"])
    more = min(MAX_ROLLS - rolls, 2 if option else 1)
    values = {}
    for action in (int(a) for a in view["legal"]):
        if action == Move.STOPP:
            value = plan.leave(board)
        elif action == Move.NOCHMAL:
            value = plan.again(board, len(roll), more > 1)
        else:
            value = plan.place(board, roll, action, more)
        values[action] = value / plan.chip
    return values


@cache
def _drawn(dice: int, count: int = NORMAL_DRAWN) -> tuple[tuple[int, ...], ...]:
    """`count` rolls of `dice` dice, the same every time (the plans are deterministic; a
    longer list begins with the shorter one)."""
    rng = random.Random(f"normal-{dice}")
    return tuple(tuple(sorted(rng.randint(1, 6) for _ in range(dice))) for _ in range(count))


@cache
def _weighted(dice: int, drawn: int) -> tuple[tuple[tuple[int, int], ...], int]:
    """The rolls that weigh a Nochmal of `dice` dice (by :func:`dice_code`), each with
    its weight, and the weights' sum: every outcome of NORMAL_LOOKAHEAD dice or fewer,
    else `drawn` fixed rolls."""
    if dice > NORMAL_LOOKAHEAD:
        return tuple((1, dice_code(roll)) for roll in _drawn(dice, drawn)), drawn
    return tuple(
        (round(p * 6**dice), dice_code(tuple(roll_dice(code, dice))))
        for code, p in roll_outcomes(dice)
    ), 6**dice


def _next_cup(view: Mapping[str, Any]) -> int:
    """The next player's cup after this turn: who is likely to finish what it leaves."""
    players, me = int(view["players"]), int(view["seat"])
    dice = list(view["dice"])
    dice[me] += len(view["roll"])
    others = [dice[(me + k) % players] for k in range(1, players)]
    return max(1, min(CUP, next((d for d in others if d), dice[me])))


FINISH: dict[tuple[str, int], tuple[float, float, float, float, float]] = {
    ("fixed", 1): (0.30, 0.50, 0.65, 0.76, 0.83),
    ("fixed", 2): (0.02, 0.08, 0.18, 0.30, 0.50),
    ("fixed", 3): (0.00, 0.02, 0.06, 0.10, 0.18),
    ("free", 1): (0.90, 0.92, 0.92, 0.92, 0.92),
    ("free", 2): (0.10, 0.30, 0.55, 0.75, 0.90),
    ("free", 3): (0.02, 0.08, 0.18, 0.25, 0.36),
    ("mixed", 1): (0.35, 0.55, 0.70, 0.80, 0.88),
    ("mixed", 2): (0.08, 0.25, 0.50, 0.70, 0.85),
    ("mixed", 3): (0.05, 0.20, 0.40, 0.55, 0.74),
}  # fmt: skip
"""How often the next player finishes a white row that a turn leaves one to three boxes
short: by (what the row's next box takes, boxes left), then by the next player's cup of
1 to 5 dice. "free": a star row not yet begun (any die, then the same); "mixed": a mixed
row; "fixed": a pips row or a begun star row (one value next). Measured in 150 games of
Stark against two Normal (`benchmarks/engel_bengel_finish.py`), rounded; the smaller cups
are rare there and smoothed. A player rolls up to five times, so from a full cup a
white row one box short is finished five times in six, two short of fixed values one in
two, a star row of two not yet begun nine in ten (a row four or more boxes short: 0)."""
BLACK_FINISH = (0.50, 0.45, 0.35, 0.30, 0.15)
"""The same for a black row one box short, of any kind, by the next player's cup: it pays
only when forced, about one in seven from a full cup, more from a small one (fewer other
places); a black row two or more short it never finishes (measured alike)."""


def row_state(row: Row, filled: int) -> str:
    """What a white row's next box takes, as :data:`FINISH` tells it: "free" (a star row not
    yet begun), "mixed" (a mixed row) or "fixed" (one value)."""
    if row.kind == "mixed":
        return "mixed"
    return "free" if row.kind == "star" and filled == 0 else "fixed"


def finish_chance(row: Row, filled: int, cup: int) -> float:
    """The chance that the next player, with `cup` dice, finishes `row` left with
    `filled` boxes (:data:`FINISH`)."""
    left = row.boxes - filled
    if row.white:
        chances = FINISH.get((row_state(row, filled), left))
    else:
        chances = BLACK_FINISH if left == 1 else None
    return chances[min(max(cup, 1), CUP) - 1] if chances else 0.0


PLAN_MEMO = 200_000
"""Values a plan keeps per face, player count, next cup and drawn rolls (they depend on
nothing else)."""


Rows = tuple[tuple[int, tuple[int, ...]], ...]
"""Rows of a board that are not full, each as (row, its dice so far)."""


class PlanKey(NamedTuple):
    """What a plan's values depend on: the face, the player count, the next player's cup,
    the drawn rolls that weigh a Nochmal, a kept die's worth and whether a Nochmal that
    another may follow is worth more (STARK_OPTION)."""

    face: Face
    players: int
    cup: int
    drawn: int = NORMAL_DRAWN
    die: float = NORMAL_DIE
    option: bool = False


@cache
def _plans() -> dict[PlanKey, _Plan]:
    return {}


def _plan(key: PlanKey) -> _Plan:
    """The plan of `key`, its values kept between decisions."""
    plans = _plans()
    plan = plans.get(key)
    if plan is None or plan.size() > PLAN_MEMO:
        if len(plans) > 16:
            plans.clear()
        plan = plans[key] = _Plan(key)
    return plan


class _Plan:
    """Normal's and Stark's values (memoised: they depend only on the face, the players,
    the next cup, the drawn rolls and the position of the roll). Wherever a plan may stop
    it may also roll once more, weighed by the rolls of :meth:`again` (each planned, then
    stopped). The placements of one roll end alike in any order, so a plan places them
    row by row.

    Values are whole numbers of :attr:`chip` units (a chip is as many units as it takes
    for every chance, the die's worth and the mean of the drawn rolls to be whole), so
    equal plans are equal in whatever order they are summed; :func:`plan_values` gives
    chips. A roll that must place and then stops (:meth:`stopped`, and each roll of a
    Nochmal, :meth:`_again_gain`: most of a plan's work) is the best sum over the rows,
    each row's placements from the dice the rows before it leave: what the later rows
    make of the dice left is kept and shared by every board that differs only in earlier
    rows. A Nochmal's worth is kept per open rows (boards that
    differ only in full rows share it). Open rows are kept by number and dice by
    :func:`dice_code`, so the values kept are found by small whole numbers, and a row's
    ways of taking dice are tried in an order that skips, with a way the dice do not
    hold, every way that places more after it."""

    def __init__(self, key: PlanKey) -> None:
        face, players, cup, drawn, die, option = key
        self.face, self.players, self.cup, self.drawn = face, players, cup, drawn
        self.memo: dict[tuple[Any, ...], int] = {}
        self.gains: dict[int, float] = {}
        """Per open rows and dice to place: the best gain placing one die or more."""
        self.open: dict[tuple[Any, ...], int] = {}
        """Per board and first row, the number of its open rows (:meth:`_number`)."""
        self.numbers: dict[Rows, int] = {(): 0}
        self.belows: list[int] = [0]
        self.ways: list[tuple[tuple[int, int, int], ...]] = [()]
        """Per open rows (by number), the number of the rows below the first, and the ways
        of placing dice in the first (:meth:`_ways`)."""
        self.agains: dict[tuple[int, int], int] = {}
        """Per open rows and dice, what a Nochmal adds (:meth:`_again_gain`)."""
        self.row_ways: dict[tuple[int, tuple[int, ...]], tuple[tuple[int, int, int], ...]] = {}
        """Per row and its dice so far: (gain, dice, skip) of each way of placing one or
        more (:meth:`_ways`)."""
        exact = [[self.row_left(row, k) for k in range(row.boxes + 1)] for row in face.rows]
        worth = Fraction(str(die))
        self.chip = lcm(worth.denominator, *(q.denominator for r in exact for q in r)) * lcm(
            6**NORMAL_LOOKAHEAD, drawn
        )
        """Units in a chip: every value below is a whole number of them, and so is a mean
        over the drawn rolls (each roll's value a multiple of lcm(6^lookahead, drawn))."""
        self.rows = [[int(q * self.chip) for q in r] for r in exact]
        """What each row is worth left with k boxes filled, in units."""
        self.die = int(worth * self.chip)
        self.boxes = [row.boxes for row in face.rows]
        self.paid = [row_delta(row) * self.chip - self.die for row in face.rows]
        """What the die that completes a row brings (its chips, less the die)."""
        self.total = sum(self.boxes)
        weight = STARK_OPTION_WEIGHT
        self.option = {
            dice: (int(Fraction(str(a)) * weight * self.chip), Fraction(str(b)) * weight)
            for dice, (a, b) in (STARK_OPTION.items() if option else ())
        }
        """Per dice of a Nochmal that another may follow: what it adds (a in units, b a
        fraction of the roll's gain), :data:`STARK_OPTION` × STARK_OPTION_WEIGHT."""
        self.fitting: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] = {}
        """The pips that fit a row's next box, per row and its dice so far."""

    def size(self) -> int:
        """Values kept."""
        return (
            len(self.memo) + len(self.gains) + len(self.row_ways) + len(self.open)
            + len(self.agains) + len(self.numbers)
        )  # fmt: skip

    def row_left(self, row: Row, filled: int) -> Fraction:
        """What a row left with `filled` boxes is worth against the others' mean, in chips:
        the next player finishes it with :func:`finish_chance` (a white row is theirs, a
        black row they pay); otherwise it is anyone's."""
        if filled >= row.boxes:
            return Fraction(0)
        chance = Fraction(str(finish_chance(row, filled, self.cup)))
        return -chance * row_delta(row) / (self.players - 1)

    def leave(self, board: tuple[tuple[int, ...], ...]) -> int:
        """The rows as this turn leaves them, against the others' mean."""
        r0, r1, r2, r3, r4, r5 = self.rows  # a face has six rows
        b0, b1, b2, b3, b4, b5 = board
        return r0[len(b0)] + r1[len(b1)] + r2[len(b2)] + r3[len(b3)] + r4[len(b4)] + r5[len(b5)]

    def place(
        self, board: tuple[tuple[int, ...], ...], roll: tuple[int, ...], action: int, more: int
    ) -> int:
        """Place the die of `action`, then the best of the rest (`more`: how many Nochmals
        may follow, 0, 1 or 2 for more than one)."""
        r, v = decode_place(action)
        return self._place(board, roll, r, v, more)

    def _place(
        self, board: tuple[tuple[int, ...], ...], roll: tuple[int, ...], r: int, v: int, more: int
    ) -> int:
        cells = (*board[r], v)
        new = board[:r] + (cells,) + board[r + 1 :]
        value = self.paid[r] if len(cells) == self.boxes[r] else -self.die
        i = roll.index(v)
        rest = roll[:i] + roll[i + 1 :]
        if not rest or sum(map(len, new)) == self.total:
            return value + self.leave(new)
        return value + self.best(new, rest, False, more, r)

    def fits(self, r: int, cells: tuple[int, ...]) -> tuple[int, ...]:
        """The pips that fit row r's next box after `cells`."""
        key = (r, cells)
        found = self.fitting.get(key)
        if found is None:
            row = self.face.rows[r]
            found = self.fitting[key] = tuple(v for v in range(1, 7) if fits(row, cells, v))
        return found

    def best(
        self,
        board: tuple[tuple[int, ...], ...],
        roll: tuple[int, ...],
        must: bool,
        more: int,
        low: int = 0,
    ) -> int:
        """The best from here: more dice (in rows from `low` on), or stop, or keep dice to
        roll again; a roll that fits nowhere ends the turn."""
        if not more:  # placements alone: the best sum row by row
            gain = self._gains(self._open(board, low), dice_code(roll))
            if gain == -inf or (gain < 0 and not must):  # none fits, or better placed not
                gain = 0
            return self.leave(board) + int(gain)
        key = (board, roll, must, more, low)
        if key in self.memo:
            return self.memo[key]
        dice = set(roll)
        options = [
            self._place(board, roll, r, v, more)
            for r in range(low, len(board))
            for v in self.fits(r, board[r])
            if v in dice
        ]
        if must and not options:
            value = self.leave(board)
        else:
            if not must:
                options.append(self.leave(board))
                if more:
                    options.append(self.again(board, len(roll), more > 1))
            value = max(options)
        self.memo[key] = value
        return value

    def again(self, board: tuple[tuple[int, ...], ...], dice: int, later: bool = False) -> int:
        """Nochmal: the mean over every roll of `dice` dice (the plan's fixed drawn rolls
        of more than NORMAL_LOOKAHEAD), each planned and then stopped; where another
        Nochmal may follow (`later`), more by the plan's option (:data:`STARK_OPTION`)."""
        later = later and dice in self.option
        key = (board, dice, later)
        found = self.memo.get(key)
        if found is None:
            gain = self._again_gain(self._open(board, 0), dice)
            if later:  # rolling on after it: the option's a + b × the roll's gain, or 0
                a, b = self.option[dice]
                gain += max(0, a + b.numerator * gain // b.denominator)
            found = self.memo[key] = self.leave(board) + gain
        return found

    def _again_gain(self, rows: int, dice: int) -> int:
        """What a Nochmal of `dice` dice adds to the open `rows` (by number), each roll
        planned and then stopped: kept per open rows, so boards that differ only in full
        rows share it (the rows left as they are count in :meth:`leave`, the same for
        every roll)."""
        key = (rows, dice)
        found = self.agains.get(key)
        if found is None:
            weighted, total = _weighted(dice, self.drawn)
            gain = 0
            for weight, held in weighted:
                best = self._gains(rows, held)
                if best != -inf:  # a roll that fits nowhere leaves the rows as they are
                    gain += weight * int(best)
            found = self.agains[key] = gain // total
        return found

    def stopped(self, board: tuple[tuple[int, ...], ...], roll: tuple[int, ...]) -> int:
        """A roll that must place a fitting die and then stops: the rows as the best
        placement of one or more of its dice leaves them (as they are if none fits)."""
        return self.best(board, roll, True, False)

    def _open(self, board: tuple[tuple[int, ...], ...], low: int) -> int:
        """The rows from `low` on that are not full, each as (row, its dice), by number
        (:meth:`_number`)."""
        key = (board, low)
        found = self.open.get(key)
        if found is None:
            boxes = self.boxes
            found = self.open[key] = self._number(
                tuple((r, board[r]) for r in range(low, len(board)) if len(board[r]) < boxes[r])
            )
        return found

    def _number(self, rows: Rows) -> int:
        """A number for open rows (0 for none): the values kept per open rows are looked up
        by it, which hashes faster than the rows (:attr:`belows`, :attr:`ways`)."""
        found = self.numbers.get(rows)
        if found is None:
            below = self._number(rows[1:])
            found = self.numbers[rows] = len(self.belows)
            self.belows.append(below)
            self.ways.append(self._ways(rows[0]))
        return found

    def _gains(self, rows: int, dice: int) -> float:
        """The best gain of placing one or more of `dice` (by :func:`dice_code`) in the
        open `rows` (by number) over leaving them (-inf where none fits; placing none
        gains 0)."""
        if not rows or not dice:
            return -inf
        gains = self.gains
        key = rows << 24 | dice  # a dice code is below 2**24
        found = gains.get(key)
        if found is None:
            below = self.belows[rows]
            found = self._gains(below, dice)
            guarded, after_key = dice | GUARDS, below << 24
            ways = self.ways[rows]
            i, end = 0, len(ways)
            while i < end:
                gain, used, skip = ways[i]
                if (guarded - used) & GUARDS != GUARDS:  # the dice do not hold them
                    i = skip  # nor any way that places more after them
                    continue
                i += 1
                rest = dice - used
                value: float = gain
                if below and rest:
                    after = gains.get(after_key | rest)
                    if after is None:
                        after = self._gains(below, rest)
                    if after > 0:
                        value += after
                if value > found:
                    found = value
            gains[key] = found
        return found

    def _ways(self, row: tuple[int, tuple[int, ...]]) -> tuple[tuple[int, int, int], ...]:
        """(gain, dice, skip) of every way of placing one die or more in a row (its number
        and its dice so far), CUP dice at most, each way before those that place more after
        it: the gain over leaving the row as it is, the dice by :func:`dice_code`, and
        where the ways that do not begin with it begin."""
        found = self.row_ways.get(row)
        if found is None:
            ways: list[list[int]] = []
            r, cells = row
            start, left, boxes = self.rows[r][len(cells)], self.rows[r], self.boxes[r]

            def walk(cells: tuple[int, ...], used: int, count: int, gain: int) -> None:
                for v in self.fits(r, cells):
                    more = (*cells, v)
                    full = len(more) == boxes
                    paid = gain + (self.paid[r] if full else -self.die)
                    way = [paid + left[len(more)] - start, used + PIPS[v], 0]
                    ways.append(way)
                    if count + 1 < CUP and not full:
                        walk(more, used + PIPS[v], count + 1, paid)
                    way[2] = len(ways)

            walk(cells, 0, 0, 0)
            found = self.row_ways[row] = tuple((g, u, k) for g, u, k in ways)
        return found


PIPS = (0, *(1 << 4 * (v - 1) for v in range(1, 7)))
"""A die of v pips in a :func:`dice_code`."""
GUARDS = sum(8 << 4 * k for k in range(6))
"""A guard bit above each count of a :func:`dice_code`: ((dice | GUARDS) - part) & GUARDS
is GUARDS exactly when `part` is part of `dice` (then dice - part is what is left)."""


@cache
def dice_code(dice: tuple[int, ...]) -> int:
    """Dice as one number: how many of each pips, four bits each (ones lowest)."""
    return sum(PIPS[v] for v in dice)


def leicht_move(view: Mapping[str, Any], rng: random.Random) -> int:
    """Leicht's move: a random fitting die, a white row's last box half the time, a coin toss."""
    legal = list(view["legal"])
    places = [a for a in legal if a >= 2]
    if view["placed_now"] == 0:
        return rng.choice(places)
    face = face_of(view)
    finishing = [
        a for a in places
        if len(view["board"][decode_place(a)[0]]) + 1 == face.rows[decode_place(a)[0]].boxes
        and row_delta(face.rows[decode_place(a)[0]]) > 0
    ]  # fmt: skip
    if finishing and rng.random() < 0.5:
        return rng.choice(finishing)
    if Move.NOCHMAL in legal and rng.random() < 0.5:
        return Move.NOCHMAL
    return Move.STOPP


def position(view: Mapping[str, Any]) -> EngelBengelState:
    """A state that matches the view (the stack below the top face left out)."""
    state = _position_game(_face_key(view), int(view["players"])).new_initial_state()
    state.board = [list(b) for b in view["board"]]
    state.dice = list(view["dice"])
    state.chips = list(view["chips"])
    state.turn = view["turn"]
    state.roll = sorted(view["roll"])
    state.cup = view["cup"]
    state.rolls = view["rolls"]
    state.placed_now = view["placed_now"]
    state.awaiting_roll = False
    return state


@lru_cache(maxsize=16)
def _position_game(face: str, players: int) -> EngelBengelGame:
    """The game of :func:`position`: the view's face alone (a game is never changed by
    its states, so one serves every position on that face)."""
    return EngelBengelGame(
        {"players": players, "faces": [json.loads(face)], "shuffle": False,
         "start": "erster", "target": 10_000}
    )  # fmt: skip


def _plan_on(state: EngelBengelState, seat: int) -> EngelBengelState:
    """The rest of the roll as Stark plans it: more dice, then Stopp or Nochmal (the state
    waits for the new roll then)."""
    durchgang = state.durchgang
    while (
        not state.is_terminal() and state.durchgang == durchgang and state.current_player() == seat
    ):
        move = stark_move(state.view(seat))
        state.apply_action(move)
        if move == Move.NOCHMAL:
            break
    return state


def _candidates(view: Mapping[str, Any]) -> list[int]:
    """The legal moves the Tipp plays out: Stark's STARK_CANDIDATES best by its plan."""
    values = stark_values(view)
    legal = [int(a) for a in view["legal"]]
    ranked = sorted(legal, key=lambda a: (-values[a], legal.index(a)))
    return sorted(ranked[:STARK_CANDIDATES])


def stark_playouts(
    view: Mapping[str, Any], rng: random.Random, playouts: int = STARK_PLAYOUTS
) -> dict[int, Any]:
    """Per candidate move (_candidates), (own chips - the others' mean chips) in each
    playout: the move, the rest of its roll as Stark plans it, then the simulator to the
    end of the round of the table (the player's later rolls on the rollout policy), each
    opponent playing a style drawn from OPPONENT_FAMILY per playout. The same dice and
    draws for every move."""
    import numpy as np
    from spielleiter.games.engel_bengel.sim import Batch, simulate

    seat = int(view["seat"])
    legal = _candidates(view)
    base = position(view)
    states = []
    for action in legal:
        s = base.clone()
        s.apply_action(action)
        if s.durchgang == base.durchgang and action != Move.NOCHMAL:
            _plan_on(s, seat)
        if s.durchgang != base.durchgang:
            s.over = True
        states.append(s)
    n = int(view["players"])
    batch = Batch.of(states, repeat=playouts)
    ended = np.repeat([s.turn != seat for s in states], playouts)
    batch.turns[ended] = 1  # its own turn is over: the others' turns are left
    gen = np.random.default_rng(rng.getrandbits(64))
    dice = np.tile(gen.integers(1, 7, size=(playouts, 64, 5)), (len(legal), 1, 1))
    drawn = np.tile(gen.integers(0, len(OPPONENT_FAMILY), size=(playouts, n)), (len(legal), 1))
    keeps = np.array([k for k, _ in OPPONENT_FAMILY])
    keep, style = keeps[drawn], drawn + 1
    keep[:, seat], style[:, seat] = NORMAL_KEEP, 0
    styles = (STYLE, *(s for _, s in OPPONENT_FAMILY))
    simulate(face_of(view), batch, dice, keep, n - 1 + STARK_HORIZON, styles, style)
    chips = batch.chips.astype(float)
    mine = chips[:, seat]
    others = (chips.sum(axis=1) - mine) / (n - 1)
    edge = (mine - others).reshape(len(legal), playouts)
    return {a: edge[i] for i, a in enumerate(legal)}


def playout_means(
    view: Mapping[str, Any], rng: random.Random, playouts: int = STARK_PLAYOUTS
) -> dict[int, float]:
    """Each candidate move's mean of (own chips - the others' mean chips) over the playouts."""
    return {a: float(e.mean()) for a, e in stark_playouts(view, rng, playouts).items()}


def stark_move(view: Mapping[str, Any], rng: random.Random | None = None) -> int:
    """Stark's move: the best of every legal move by its plan (the first of equals).
    Deterministic: `rng` is taken for the computers' common signature only."""
    legal = [int(a) for a in view["legal"]]
    if len(legal) == 1:
        return legal[0]
    values = stark_values(view)
    return max(legal, key=lambda a: (values[a], -legal.index(a)))


def stark_choice(
    view: Mapping[str, Any], rng: random.Random, playouts: int = STARK_PLAYOUTS
) -> tuple[int, dict[int, float]]:
    """Stark's move and, for its best few moves by the plan, the playouts' mean of (own
    chips - the others' mean chips) after the round of the table (empty when only one
    move is legal): what a Tipp says."""
    legal = list(view["legal"])
    if len(legal) == 1:
        return int(legal[0]), {}
    return stark_move(view), playout_means(view, rng, playouts)


def choose(view: Mapping[str, Any], *, level: str, rng: random.Random) -> int:
    """A computer's move on its view, at level leicht, normal or stark."""
    if level == "leicht":
        return leicht_move(view, rng)
    if level == "stark":
        return stark_move(view, rng)
    return normal_move(view)
