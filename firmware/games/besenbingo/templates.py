"""Besenbingo templates (Bingo-Vorlagen): the data format, its validation, the shipped nine.

A template is plain JSON (documented in docs/besenbingo.md): a 4x4 grid in a
checkerboard of 8 towers (numbers 1-8) and 8 witch fields (a witch and her
copilot), and the score bar (Punkteleiste) below it: rows "hexe", "copilot",
"paar", the two-field "kombi" row and the "minus" row. Every field carries its own
value. Templates are data: the nine defaults live in data/templates.json.

Example::

    >>> t = default_templates()[0]
    >>> validate_template(t.to_json()) == t
    True
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from spielleiter.texts import T

SIZE = 4
"""The grid is SIZE x SIZE."""
TOWERS = tuple(range(1, 9))
"""The tower numbers; one card per tower."""
COPILOTS = ("Katze", "Rabe", "Ratte")
"""Every witch flies with one of these copilots."""
ROWS = ("hexe", "copilot", "paar", "kombi")
"""The score-bar rows a landing witch can cross, in action order (minus is apart)."""
REVEALS_PER_DURCHGANG = 7
"""Towers revealed in a Durchgang (the eighth stays silent): no sheet crosses more fields."""
MIN_MINUS_FIELDS = REVEALS_PER_DURCHGANG
"""Seven towers are revealed, so seven minus fields always suffice."""
MAX_VALUE = 10
"""Field values lie in -MAX_VALUE..MAX_VALUE (keeps the game's utility bounds honest)."""
KOMBI_VALUE = 5
"""The rule text's value of the combo row; a template may set its own."""


@dataclass(frozen=True)
class Witch:
    """A witch: players tell the witches apart by name and hat."""

    name: str
    hat: str


DEFAULT_WITCHES = (
    Witch("Walpurga", "Spitzhut"),
    Witch("Mechthild", "Zipfelmütze"),
    Witch("Griselda", "Krempenhut"),
    Witch("Ottilie", "Blumenhut"),
)


@dataclass(frozen=True)
class WitchField:
    """A witch field of the grid: one witch with one copilot."""

    witch: str
    copilot: str


@dataclass(frozen=True)
class BarField:
    """One field of the score bar; it names a witch, a copilot or both."""

    value: int
    witch: str | None = None
    copilot: str | None = None

    def fits(self, field: WitchField) -> bool:
        """Whether a landing witch (with her copilot) may cross this field."""
        return (self.witch is None or self.witch == field.witch) and (
            self.copilot is None or self.copilot == field.copilot
        )


class TemplateError(ValueError):
    """An invalid template; `path` names the bad field, `message` says what is wrong (a
    text, spielleiter.texts.T, that the laptop says in its language)."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.message = message


Cell = int | WitchField
"""A grid cell: a tower number or a witch field."""


@dataclass(frozen=True)
class Template:
    """A validated Bingo-Vorlage. Cells are indexed row-major, 0..15."""

    name: str
    grid: tuple[tuple[Cell, ...], ...]
    hexe: tuple[BarField, ...]
    copilot: tuple[BarField, ...]
    paar: tuple[BarField, ...]
    kombi: tuple[BarField, BarField]
    """The combo: the witch field (value 0), then the copilot field (the combo's value)."""
    minus: tuple[int, ...]
    witches: tuple[Witch, ...] = DEFAULT_WITCHES

    # --- grid ----------------------------------------------------------------
    def cell(self, index: int) -> Cell:
        return self.grid[index // SIZE][index % SIZE]

    def witch_field(self, index: int) -> WitchField | None:
        """The witch field at a cell, None for a tower (or outside the grid)."""
        if not 0 <= index < SIZE * SIZE:
            return None
        cell = self.cell(index)
        return cell if isinstance(cell, WitchField) else None

    def tower_cell(self, tower: int) -> int:
        """The cell index of a tower."""
        return self._tower_cells()[tower]

    def neighbours(self, tower: int) -> tuple[int, ...]:
        """The witch cells orthogonally adjacent to a tower, in cell order."""
        return self._neighbours()[tower]

    def witch(self, name: str) -> Witch:
        return next(w for w in self.witches if w.name == name)

    # --- score bar -----------------------------------------------------------
    def row(self, name: str) -> tuple[BarField, ...]:
        """The fields of a score-bar row by its name (one of ROWS)."""
        if name not in ROWS:
            raise KeyError(f"unknown row {name!r}; rows: {', '.join(ROWS)}")
        return getattr(self, name)

    @property
    def kombi_value(self) -> int:
        return self.kombi[1].value

    def to_json(self) -> dict[str, Any]:
        """The template as JSON data (validate_template reads it back unchanged)."""

        def cell_json(cell: Cell) -> Any:
            if isinstance(cell, WitchField):
                return {"witch": cell.witch, "copilot": cell.copilot}
            return cell

        data: dict[str, Any] = {"name": self.name}
        if self.witches != DEFAULT_WITCHES:
            data["witches"] = [{"name": w.name, "hat": w.hat} for w in self.witches]
        data["grid"] = [[cell_json(c) for c in row] for row in self.grid]
        data["bar"] = {
            "hexe": [{"witch": f.witch, "value": f.value} for f in self.hexe],
            "copilot": [{"copilot": f.copilot, "value": f.value} for f in self.copilot],
            "paar": [
                {"witch": f.witch, "copilot": f.copilot, "value": f.value} for f in self.paar
            ],
            "kombi": {
                "witch": self.kombi[0].witch,
                "copilot": self.kombi[1].copilot,
                "value": self.kombi_value,
            },
            "minus": list(self.minus),
        }
        return data

    def _tower_cells(self) -> dict[int, int]:
        return {
            cell: i
            for i in range(SIZE * SIZE)
            if not isinstance(cell := self.cell(i), WitchField)
        }

    def _neighbours(self) -> dict[int, tuple[int, ...]]:
        result = {}
        for tower, i in self._tower_cells().items():
            r, c = divmod(i, SIZE)
            around = [(r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)]
            result[tower] = tuple(
                rr * SIZE + cc for rr, cc in around if 0 <= rr < SIZE and 0 <= cc < SIZE
            )
        return result


# --- validation ----------------------------------------------------------------


def _expect(ok: bool, path: str, message: str, /, **args: Any) -> None:
    """TemplateError(path, T(message, **args)) unless `ok`: the text is made only for a
    field that fails, so a valid template costs no text (`make messages` extracts
    `message` as it extracts T's)."""
    if not ok:
        raise TemplateError(path, T(message, **args))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _object(
    data: Any, path: str, keys: set[str], optional: frozenset[str] | set[str] = frozenset()
) -> Mapping:
    _expect(isinstance(data, Mapping), path, "must be a JSON object")
    missing = keys - set(data)
    _expect(not missing, path, "missing {keys}", keys=", ".join(sorted(missing)))
    extra = set(data) - keys - optional
    _expect(not extra, path, "unknown key(s) {keys}", keys=", ".join(sorted(map(str, extra))))
    return data


def _list(data: Any, path: str) -> list:
    _expect(isinstance(data, list), path, "must be a list")
    return data


def _name(data: Any, path: str, known: tuple[str, ...], what: str) -> str:
    if what == "witch":
        _expect(isinstance(data, str), path, "a witch name must be a string")
        _expect(data in known, path, "unknown witch {name!r} (known: {known})", name=data,
                known=", ".join(known))  # fmt: skip
    else:
        _expect(isinstance(data, str), path, "a copilot name must be a string")
        _expect(data in known, path, "unknown copilot {name!r} (known: {known})", name=data,
                known=", ".join(known))  # fmt: skip
    return data


def _value(data: Any, path: str, low: int, high: int) -> int:
    _expect(_is_int(data), path, "a value must be a whole number")
    _expect(low <= data <= high, path, "value {value} must lie in {low}..{high}", value=data,
            low=low, high=high)  # fmt: skip
    return data


def _witches(data: Any) -> tuple[Witch, ...]:
    witches = _list(data, "witches")
    _expect(2 <= len(witches) <= 8, "witches", "a template needs 2 to 8 witches")
    result: list[Witch] = []
    for i, w in enumerate(witches):
        path = f"witches[{i}]"
        w = _object(w, path, {"name", "hat"})
        for key in ("name", "hat"):
            _expect(isinstance(w[key], str) and w[key].strip() != "", f"{path}.{key}", "empty")
        _expect(w["name"] not in [x.name for x in result], f"{path}.name", "named twice")
        _expect(w["hat"] not in [x.hat for x in result], f"{path}.hat", "two witches share it")
        result.append(Witch(w["name"], w["hat"]))
    return tuple(result)


def _grid(data: Any, witches: tuple[str, ...]) -> tuple[tuple[Cell, ...], ...]:
    rows = _list(data, "grid")
    _expect(len(rows) == SIZE, "grid", "needs {size} rows, found {count}", size=SIZE,
            count=len(rows))  # fmt: skip
    seen: dict[int, str] = {}
    parity: int | None = None
    grid: list[tuple[Cell, ...]] = []
    for r, row in enumerate(rows):
        _list(row, f"grid[{r}]")
        _expect(len(row) == SIZE, f"grid[{r}]", "needs {size} cells, found {count}", size=SIZE,
                count=len(row))  # fmt: skip
        cells: list[Cell] = []
        for c, cell in enumerate(row):
            path = f"grid[{r}][{c}]"
            is_tower = _is_int(cell)
            if parity is None:
                parity = (r + c + (0 if is_tower else 1)) % 2
            tower_here = (r + c) % 2 == parity
            if is_tower:
                _expect(tower_here, path, "a witch field belongs here (checkerboard)")
                _expect(cell in TOWERS, path, "tower {tower} does not exist (towers are 1-8)",
                        tower=cell)  # fmt: skip
                _expect(cell not in seen, path, "tower {tower} appears twice", tower=cell)
                seen[cell] = path
                cells.append(cell)
            else:
                _expect(not tower_here, path, "a tower belongs here (checkerboard)")
                field = _object(cell, path, {"witch", "copilot"})
                witch = _name(field["witch"], f"{path}.witch", witches, "witch")
                copilot = _name(field["copilot"], f"{path}.copilot", COPILOTS, "copilot")
                cells.append(WitchField(witch, copilot))
        grid.append(tuple(cells))
    for tower in TOWERS:
        _expect(tower in seen, "grid", "tower {tower} is missing", tower=tower)
    return tuple(grid)


def _row(data: Any, path: str, keys: set[str], witches: tuple[str, ...]) -> tuple[BarField, ...]:
    fields = _list(data, path)
    _expect(1 <= len(fields) <= 12, path, "a row needs 1 to 12 fields")
    result = []
    for i, f in enumerate(fields):
        fpath = f"{path}[{i}]"
        f = _object(f, fpath, keys | {"value"})
        result.append(
            BarField(
                value=_value(f["value"], f"{fpath}.value", 0, MAX_VALUE),
                witch=_name(f["witch"], f"{fpath}.witch", witches, "witch")
                if "witch" in keys
                else None,
                copilot=_name(f["copilot"], f"{fpath}.copilot", COPILOTS, "copilot")
                if "copilot" in keys
                else None,
            )
        )
    return tuple(result)


def _describe(field: BarField) -> str:
    """What a field of the bar names: a witch, a copilot, or both."""
    if field.witch and field.copilot:
        return T("{witch} with {copilot}", witch=field.witch, copilot=field.copilot)
    return field.witch or field.copilot or ""


def _reachable(row: Sequence[BarField], fields: Sequence[WitchField], paths: list[str]) -> None:
    """Refuse a row field that no Durchgang can ever cross.

    A row is crossed left to right, one witch field per cross and each witch field lands
    once, so field i can be crossed only when fields 0..i can be matched to i + 1
    different witch fields of the grid that fit them (and i < REVEALS_PER_DURCHGANG).
    """
    owner: dict[int, int] = {}
    """Witch field index -> the row field it is matched to."""

    def place(i: int, seen: set[int]) -> bool:
        for w, field in enumerate(fields):
            if w in seen or not row[i].fits(field):
                continue
            seen.add(w)
            if w not in owner or place(owner[w], seen):
                owner[w] = i
                return True
        return False

    for i, field in enumerate(row):
        if not any(field.fits(w) for w in fields):
            message = T(
                "no witch field on the grid is {what}: it can never be crossed",
                what=_describe(field),
            )
            raise TemplateError(paths[i], message)
        _expect(
            i < REVEALS_PER_DURCHGANG,
            paths[i],
            "can never be crossed: a Durchgang reveals only {towers} towers",
            towers=REVEALS_PER_DURCHGANG,
        )
        if not place(i, set()):
            message = T(
                "can never be crossed: the grid has too few witch fields for {what} to cross"
                " the row up to here",
                what=_describe(field),
            )
            raise TemplateError(paths[i], message)


def validate_template(data: Any) -> Template:
    """Read a template from JSON data; TemplateError names the first bad field."""
    data = _object(data, "", {"name", "grid", "bar"}, optional={"witches"})
    name = data["name"]
    _expect(isinstance(name, str) and 1 <= len(name.strip()) <= 64, "name", "1 to 64 characters")
    witches = _witches(data["witches"]) if "witches" in data else DEFAULT_WITCHES
    names = tuple(w.name for w in witches)
    grid = _grid(data["grid"], names)
    bar = _object(data["bar"], "bar", {"hexe", "copilot", "paar", "kombi", "minus"})
    kombi = _object(bar["kombi"], "bar.kombi", {"witch", "copilot", "value"})
    kombi_witch = _name(kombi["witch"], "bar.kombi.witch", names, "witch")
    kombi_copilot = _name(kombi["copilot"], "bar.kombi.copilot", COPILOTS, "copilot")
    kombi_value = _value(kombi["value"], "bar.kombi.value", 1, MAX_VALUE)
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            _expect(
                cell != WitchField(kombi_witch, kombi_copilot),
                "bar.kombi",
                "the pair {witch} + {copilot} appears on the grid at {where}",
                witch=kombi_witch,
                copilot=kombi_copilot,
                where=f"grid[{r}][{c}]",
            )
    kombi_fields = (
        BarField(0, witch=kombi_witch),
        BarField(kombi_value, copilot=kombi_copilot),
    )
    rows = {
        "hexe": _row(bar["hexe"], "bar.hexe", {"witch"}, names),
        "copilot": _row(bar["copilot"], "bar.copilot", {"copilot"}, names),
        "paar": _row(bar["paar"], "bar.paar", {"witch", "copilot"}, names),
    }
    fields = [cell for row in grid for cell in row if isinstance(cell, WitchField)]
    for row_name, row_fields in rows.items():
        _reachable(row_fields, fields, [f"bar.{row_name}[{i}]" for i in range(len(row_fields))])
    _reachable(kombi_fields, fields, ["bar.kombi.witch", "bar.kombi.copilot"])
    minus = _list(bar["minus"], "bar.minus")
    _expect(
        len(minus) >= MIN_MINUS_FIELDS,
        "bar.minus",
        "needs at least {least} minus fields, found {count}",
        least=MIN_MINUS_FIELDS,
        count=len(minus),
    )
    return Template(
        name=name.strip(),
        grid=grid,
        hexe=rows["hexe"],
        copilot=rows["copilot"],
        paar=rows["paar"],
        kombi=kombi_fields,
        minus=tuple(
            _value(v, f"bar.minus[{i}]", -MAX_VALUE, -1) for i, v in enumerate(minus)
        ),
        witches=witches,
    )


# --- telling templates apart ---------------------------------------------------------


@cache
def _symmetries() -> tuple[tuple[int, ...], ...]:
    """The 8 rotations and mirrorings of the grid, each as the cell read at every index."""
    result = []
    for turns in range(4):
        for mirror in (False, True):
            perm = []
            for i in range(SIZE * SIZE):
                r, c = divmod(i, SIZE)
                if mirror:
                    c = SIZE - 1 - c
                for _ in range(turns):
                    r, c = c, SIZE - 1 - r
                perm.append(r * SIZE + c)
            result.append(tuple(perm))
    return tuple(result)


class _Numbering:
    """Numbers witches and copilots in the order they are first asked for (None: -1)."""

    def __init__(self) -> None:
        self.witches: dict[str | None, int] = {None: -1}
        self.copilots: dict[str | None, int] = {None: -1}

    def __call__(self, witch: str | None, copilot: str | None) -> tuple[int, int]:
        return (
            self.witches.setdefault(witch, len(self.witches) - 1),
            self.copilots.setdefault(copilot, len(self.copilots) - 1),
        )


def _shape(template: Template, with_bar: bool) -> tuple:
    """The template up to rotation, mirroring and renaming witches, copilots and towers:
    the smallest of its 8 turned or mirrored readings, each with witches and copilots
    numbered in the order they first appear (towers are all alike)."""
    readings = []
    for perm in _symmetries():
        key = _Numbering()
        cells = tuple(
            key(cell.witch, cell.copilot) if isinstance(cell, WitchField) else (-2, -2)
            for cell in (template.cell(i) for i in perm)
        )
        bar: tuple = ()
        if with_bar:
            bar = tuple(
                tuple((*key(f.witch, f.copilot), f.value) for f in template.row(row))
                for row in ROWS
            ) + (template.minus,)
        readings.append((cells, bar))
    return min(readings)


def grid_shape(template: Template) -> tuple:
    """The grid's layout up to rotation, mirroring and renaming witches, copilots and
    towers: two templates with equal shapes are on the same grid."""
    return _shape(template, with_bar=False)


def same_game(one: Template, other: Template) -> bool:
    """Whether two templates play the same game: grid and bar equal up to rotation,
    mirroring and renaming witches, copilots and towers (their names aside)."""
    return _shape(one, with_bar=True) == _shape(other, with_bar=True)


def twin_of(template: Template, others: Sequence[Template]) -> Template | None:
    """The first of `others` with another name that plays the same game, if any."""
    return next((o for o in others if o.name != template.name and same_game(template, o)), None)


# --- the shipped templates -----------------------------------------------------


def _load(file: str) -> tuple[Template, ...]:
    text = resources.files(__package__).joinpath(f"data/{file}").read_text(encoding="utf-8")
    result = []
    for i, item in enumerate(json.loads(text)):
        try:
            result.append(validate_template(item))
        except TemplateError as exc:
            raise TemplateError(f"{file}[{i}].{exc.path}", exc.message) from None
    return tuple(result)


@cache
def default_templates() -> tuple[Template, ...]:
    """The nine shipped templates offered for new games, in seat order."""
    return _load("templates.json")


@cache
def retired_templates() -> tuple[Template, ...]:
    """The first nine shipped templates (five grids among them): no longer offered, kept
    so that the records that name them replay and resume."""
    return _load("retired.json")


def template_by_name(name: str) -> Template:
    """A shipped template by its name, a retired one too (TemplateError naming the offered)."""
    for t in (*default_templates(), *retired_templates()):
        if t.name == name:
            return t
    known = ", ".join(t.name for t in default_templates())
    raise TemplateError("", T("unknown template {name!r}; known: {known}", name=name, known=known))


# --- the board-kind hooks for the store and the link ----------------------------


def twin_board(data: Any, others: Mapping[str, Any]) -> str | None:
    """The name of one of `others` (name -> template data, the box's templates) that plays
    the same game as the template `data` (see same_game), or None; `others` that are not
    valid templates are passed over."""
    template = validate_template(data)
    for name, other in others.items():
        try:
            if same_game(template, validate_template(other)):
                return name
        except TemplateError:
            continue
    return None


def validate_board(data: Any) -> None:
    """Check an uploaded template; raises TemplateError (with .path and .message)."""
    validate_template(data)


def default_boards() -> dict[str, dict[str, Any]]:
    """The shipped templates as name -> JSON data."""
    return {t.name: t.to_json() for t in default_templates()}
