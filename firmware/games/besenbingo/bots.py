"""Besenbingo computer players: each plays its own template, seeing only its view.

The game has no interaction between seats, so the strongest play maximises the
expected final score over the towers still unknown. That expectation is computed
exactly: a memoised recursion over (towers not yet revealed, landed witches, row
progress). The next tower is uniform over the unknown ones, and when one is left it
is the silent tower. Crossed witches whose towers are all revealed never matter
again, so they are dropped from the key, which keeps the table small.

Levels: "stark" (exact expectation), "normal" (the most points this turn),
"leicht" (any legal move).

The table's positions with SHIPPED_UNKNOWN or more towers unknown (a few hundred per
template, the costly top of the recursion) ship for the default templates in
data/stark.json, so a Durchgang on them starts at once and each decision computes only
the positions below (milliseconds). `python tools/besenbingo_tables.py` writes the file
again after the templates change; a test checks that it equals what the Solver computes.
A template without shipped positions (an uploaded one) is prepared at the start.

Example::

    >>> from spielleiter.games.besenbingo.templates import default_templates
    >>> round(Solver.of(default_templates()[0]).expected_score(), 1) > 0
    True
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from spielleiter.games.besenbingo.rules import MINUS, REVEALS, Progress, advance, row_options
from spielleiter.games.besenbingo.templates import TOWERS, Template, validate_template

if TYPE_CHECKING:
    import numpy as np

LEVELS = ("leicht", "normal", "stark")
SHIPPED_UNKNOWN = 6
"""Positions with at least this many towers unknown ship in data/stark.json."""
SHIPPED_FILE = "stark.json"

_START: Progress = (0, 0, 0, 0, 0)
_ALL = (1 << len(TOWERS)) - 1


def _bit(tower: int) -> int:
    return 1 << (tower - 1)


def _pack(progress: Progress) -> int:
    """Row progress as one int, four bits a row (seven turns never cross 16 fields)."""
    return sum(n << (4 * r) for r, n in enumerate(progress))


def _unpack(packed: int) -> Progress:
    return tuple((packed >> (4 * r)) & 15 for r in range(5))  # type: ignore[return-value]


class Solver:
    """The exact expected final score of a template under best play, memoised.

    Internally a sheet is (unknown towers bitmask, landed cells bitmask, packed
    progress), and a table entry is keyed by one int made of all three.
    """

    def __init__(self, template: Template, shipped: bool = True) -> None:
        """A solver of `template`, its table started with the shipped positions (unless
        `shipped` is False: the tests compare those with a table computed here)."""
        self.template = template
        self._towers = []
        for i, t in enumerate(TOWERS):
            cells = template.neighbours(t)
            self._towers.append((_bit(t), sum(1 << c for c in cells), i, cells))
        self._relevant = [0] * (_ALL + 1)
        for unknown in range(_ALL + 1):
            for bit, mask, _, _ in self._towers:
                if unknown & bit:
                    self._relevant[unknown] |= mask
        self._moves_at: dict[int, tuple[int, list[tuple[int, int, int, int]]]] = {}
        self._landings: dict[int, list[tuple[int, int, int, int]]] = {}
        self._values: dict[int, float] = dict(shipped_values(template)) if shipped else {}
        self._greedy: dict[int, float] = {}

    @staticmethod
    @lru_cache(maxsize=16)
    def _cached(key: str) -> Solver:
        return Solver(validate_template(json.loads(key)))

    @classmethod
    def of(cls, template: Template) -> Solver:
        """The shared solver of a template (its table survives between decisions)."""
        return cls._cached(json.dumps(template.to_json(), sort_keys=True))

    def _moves(self, tower_index: int, crossed: int, packed: int) -> tuple[int, list]:
        """(best gain, [(action, gain, landed cell bit, progress delta)]) at a tower."""
        bit, mask, _, cells = self._towers[tower_index]
        key = tower_index | (crossed & mask) << 3 | packed << 19
        found = self._moves_at.get(key)
        if found is not None:
            return found
        moves = [
            m for cell in cells if not crossed >> cell & 1 for m in self._landing(cell, packed)
        ]
        if not moves:
            moves.append((MINUS, self.template.minus[packed >> 16], 0, 1 << 16))
        found = self._moves_at[key] = (max(m[1] for m in moves), moves)
        return found

    def _landing(self, cell: int, packed: int) -> list[tuple[int, int, int, int]]:
        """The moves landing the witch at `cell`, by the rules of the engine."""
        key = cell | packed << 4
        found = self._landings.get(key)
        if found is None:
            found = self._landings[key] = [
                (cell * 4 + r, gain, 1 << cell, 1 << (4 * r))
                for r, gain in row_options(self.template, cell, _unpack(packed))
            ]
        return found

    def moves(self, tower: int, crossed: int, progress: Progress) -> list[tuple[int, int]]:
        """(action, gain) of every legal move at `tower` (crossed: bitmask of cells)."""
        return [(a, g) for a, g, _, _ in self._moves(tower - 1, crossed, _pack(progress))[1]]

    def _value(self, unknown: int, crossed: int, packed: int) -> float:
        return self._expected(unknown, crossed, packed, greedy=False)

    def _greedy_value(self, unknown: int, crossed: int, packed: int) -> float:
        """Like _value, for a player who takes the most points this turn (ties at random)."""
        return self._expected(unknown, crossed, packed, greedy=True)

    def _expected(self, unknown: int, crossed: int, packed: int, greedy: bool) -> float:
        """Expected points to come over the towers in `unknown` (one of them stays silent),
        for the best player, or for a greedy one; memoised per position."""
        if unknown & (unknown - 1) == 0:
            return 0.0
        crossed &= self._relevant[unknown]
        key = unknown | crossed << 8 | packed << 24
        memo = self._greedy if greedy else self._values
        found = memo.get(key)
        if found is not None:
            return found
        total = 0.0
        count = 0
        last = unknown.bit_count() == 2
        for bit, _, i, _ in self._towers:
            if unknown & bit:
                count += 1
                best, moves = self._moves(i, crossed, packed)
                if last:
                    total += best
                    continue
                rest = unknown ^ bit
                if greedy:
                    top = [(c, d) for _, g, c, d in moves if g == best]
                    later = sum(self._expected(rest, crossed | c, packed + d, True) for c, d in top)
                    total += best + later / len(top)
                else:
                    total += max(
                        g + self._expected(rest, crossed | c, packed + d, False)
                        for _, g, c, d in moves
                    )
        result = total / count
        memo[key] = result
        return result

    def value(self, unknown: int, crossed: int, progress: Progress) -> float:
        """Expected points still to come with `unknown` (bitmask) towers not yet revealed."""
        return self._value(unknown, crossed, _pack(progress))

    def after(
        self, unknown: int, crossed: int, progress: Progress, action: int, gain: int
    ) -> float:
        """The gain of a move plus the expected points after it."""
        if action != MINUS:
            crossed |= 1 << (action // 4)
        return gain + self.value(unknown, crossed, advance(progress, action))

    @property
    def prepared(self) -> bool:
        """The costly top of the table is known (shipped, or computed in this process)."""
        return (_ALL | _pack(_START) << 24) in self._values

    def top_of_table(self) -> list[tuple[int, float]]:
        """The table's positions with SHIPPED_UNKNOWN or more towers unknown, as
        (key, expected points to come), computed in full (what data/stark.json ships)."""
        self.expected_score()
        return sorted(
            (k, v) for k, v in self._values.items() if (k & _ALL).bit_count() >= SHIPPED_UNKNOWN
        )

    def expected_score(self) -> float:
        """The expected final score of the strongest play, before the silent tower is drawn."""
        return self.value(_ALL, 0, _START)

    def greedy_score(self) -> float:
        """The expected final score of a player who always takes the most points this turn
        (the level "normal"; equal gains drawn at random), before the silent tower is drawn."""
        return self._greedy_value(_ALL, 0, _pack(_START))

    def best_move(self, revealed: Sequence[int], crossed: int, progress: Progress) -> list[int]:
        """The moves at the latest revealed tower with the highest expectation."""
        unknown = _ALL
        for t in revealed:
            unknown &= ~_bit(t)
        scored = [
            (self.after(unknown, crossed, progress, a, g), a)
            for a, g in self.moves(revealed[-1], crossed, progress)
        ]
        top = max(v for v, _ in scored)
        return [a for v, a in scored if v >= top - 1e-9]


def prepare(template: Template) -> float:
    """Fill a template's whole table (a tenth of a second on a laptop, seconds on a Pi
    Zero) so that every later decision is quick; returns the expected final score of the
    strongest play. The table calls it off the UI thread, for templates not `prepared`."""
    return Solver.of(template).expected_score()


def prepared(template: Template) -> bool:
    """Whether Stark decides on `template` at once (its table's top shipped or built)."""
    return Solver.of(template).prepared


def template_key(template: Template) -> str:
    """A template's key in data/stark.json: the SHA-256 of its canonical JSON (name and
    every field), so an uploaded template that differs in anything has no shipped table."""
    import hashlib

    return hashlib.sha256(json.dumps(template.to_json(), sort_keys=True).encode()).hexdigest()


def shipped_values(template: Template) -> dict[int, float]:
    """The positions data/stark.json ships for `template` ({} for any other template)."""
    return _shipped().get(template_key(template), {})


@cache
def _shipped() -> dict[str, dict[int, float]]:
    text = resources.files(__package__).joinpath(f"data/{SHIPPED_FILE}").read_text("utf-8")
    return {
        entry["template"]: {int(k): float(v) for k, v in entry["values"]}
        for entry in json.loads(text)["templates"]
    }


def shipped_file(templates: Iterable[Template]) -> dict[str, Any]:
    """The contents of data/stark.json for `templates`, computed in full here."""
    return {
        "about": (
            "Besenbingo's Stark: the expected points still to come at every position with "
            f"{SHIPPED_UNKNOWN} or more towers unknown, as [key, points] (bots.Solver's "
            "keys), for each shipped template. Written by tools/besenbingo_tables.py; "
            "tests/test_besenbingo_bots.py checks it against the Solver."
        ),
        "shipped_unknown": SHIPPED_UNKNOWN,
        "templates": [
            {
                "name": t.name,
                "template": template_key(t),
                "values": [[k, v] for k, v in Solver(t, shipped=False).top_of_table()],
            }
            for t in templates
        ],
    }


def _sheet_of(view: dict[str, Any]) -> tuple[Template, int, Progress]:
    template = _template(json.dumps(view["template"], sort_keys=True))
    sheet = view["sheets"][view["seat"]]
    crossed = 0
    for cell in sheet["crossed"]:
        crossed |= 1 << cell
    bar = sheet["bar"]
    progress = (bar["hexe"], bar["copilot"], bar["paar"], bar["kombi"], bar["minus"])
    return template, crossed, progress


@cache
def _template(key: str) -> Template:
    return validate_template(json.loads(key))


def choose(view: dict[str, Any], *, level: str, rng: random.Random) -> int:
    """The move of a computer player for its seat, from its view only; `rng` breaks ties."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; known: {', '.join(LEVELS)}")
    template, crossed, progress = _sheet_of(view)
    solver = Solver.of(template)
    moves = solver.moves(view["current_tower"], crossed, progress)
    if level == "leicht":
        return _pick([a for a, _ in moves], rng)
    if level == "normal":
        top = max(g for _, g in moves)
        return _pick([a for a, g in moves if g == top], rng)
    return _pick(solver.best_move(view["revealed"], crossed, progress), rng)


def _pick(actions: list[int], rng: random.Random) -> int:
    """One of equally good actions, drawn with the decision's own generator."""
    return rng.choice(sorted(actions))


def play_out(template: Template, towers: Sequence[int], seed: int = 0) -> tuple[int, list[int]]:
    """The strongest play of one sheet for a tower order (the first 7 are revealed).

    Returns the final score and the moves; ties are broken as choose() does with
    `rng=random.Random(seed)` at each decision.
    """
    solver = Solver.of(template)
    crossed, progress, moves = 0, _START, []
    revealed: list[int] = []
    points = 0
    for tower in towers[:REVEALS]:
        revealed.append(tower)
        gains = dict(solver.moves(tower, crossed, progress))
        action = _pick(solver.best_move(revealed, crossed, progress), random.Random(seed))
        points += gains[action]
        if action != MINUS:
            crossed |= 1 << (action // 4)
        progress = advance(progress, action)
        moves.append(action)
    return points, moves


def simulate(template: Template, games: int, seed: int = 0) -> np.ndarray:
    """Final scores of `games` Durchgänge of the strongest play, on shuffled tower decks
    (for the tests and the benchmark: the box never loads numpy for Besenbingo)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    decks = rng.permuted(np.tile(np.array(TOWERS), (games, 1)), axis=1)
    return np.array(
        [play_out(template, deck[1:].tolist(), seed + i)[0] for i, deck in enumerate(decks)],
        dtype=np.int64,
    )
