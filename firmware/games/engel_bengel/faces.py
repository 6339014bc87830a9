"""Engel & Bengel board faces (Tafeln): the data format, its validation, the shipped sixteen.

A face is plain JSON (documented in docs/engel-bengel.md): a name and six rows. Every row
has a colour ("white": Engel, pays its value; "black": Bengel, costs it) and a value, and
one of three kinds:

- ``{"kind": "pips", "pips": [6, 6, 2], ...}``: each box prints its value 1-6;
- ``{"kind": "star", "boxes": 3, ...}``: the leftmost box takes any value, every further
  box the same value;
- ``{"kind": "mixed", ...}``: five red/yellow boxes, the first three one common value, the
  last two another common value, different from the first.

A face holds at most 24 boxes (the dice in play with eight players), so a Durchgang can
always end. The sixteen shipped faces live in data/faces.json.

Example::

    >>> face = default_faces()[0]
    >>> validate_face(face.to_json()) == face
    True
    >>> row_need(Row("pips", "white", 4, 3, (6, 6, 2)), (6,))
    'eine 6'
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from spielleiter.texts import T

ROWS = 6
"""Rows on every face."""
MAX_BOXES = 24
"""Boxes on one face at most: the dice in play with eight players."""
MIXED_BOXES = 5
"""A mixed red/yellow row: three of one value, then two of another."""
MAX_ROW_BOXES = 6
"""Boxes in one fixed or star row at most."""
MAX_VALUE = 20
"""Chips a row pays or costs at most."""
KINDS = ("pips", "star", "mixed")
COLOURS = ("white", "black")


class FaceError(ValueError):
    """An invalid face; `path` names the bad field (e.g. "rows[2].pips[1]"), `message`
    says what is wrong (a text, spielleiter.texts.T, the laptop says in its language)."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.message = message


@dataclass(frozen=True)
class Row:
    """One row of a face: its kind, colour, value, number of boxes and printed pips."""

    kind: str
    colour: str
    value: int
    boxes: int
    pips: tuple[int, ...] = ()
    """The printed value of each box (kind "pips" only)."""

    @property
    def white(self) -> bool:
        """An Engel row: completing it pays its value."""
        return self.colour == "white"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "colour": self.colour, "value": self.value}
        if self.kind == "pips":
            data["pips"] = list(self.pips)
        elif self.kind == "star":
            data["boxes"] = self.boxes
        return data


@dataclass(frozen=True)
class Face:
    """A board face: a name and six rows."""

    name: str
    rows: tuple[Row, ...]

    @property
    def boxes(self) -> int:
        return sum(r.boxes for r in self.rows)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "rows": [r.to_json() for r in self.rows]}


def fits(row: Row, filled: Sequence[int], die: int) -> bool:
    """Whether a die of value `die` goes into the row's next free box (rows fill left to right).

    >>> star = Row("star", "black", 5, 3)
    >>> fits(star, (), 2), fits(star, (2,), 3), fits(star, (2,), 2)
    (True, False, True)
    >>> mixed = Row("mixed", "white", 9, 5)
    >>> fits(mixed, (4, 4, 4), 4), fits(mixed, (4, 4, 4), 1), fits(mixed, (4, 4, 4, 1), 1)
    (False, True, True)
    """
    k = len(filled)
    if k >= row.boxes or not 1 <= die <= 6:
        return False
    if row.kind == "pips":
        return die == row.pips[k]
    if row.kind == "star":
        return k == 0 or die == filled[0]
    if k in (0, 3):
        return k == 0 or die != filled[0]
    return die == filled[0 if k < 3 else 3]


def row_need(row: Row, filled: Sequence[int]) -> str:
    """What the row's next box wants, in the players' words ("eine 6", "eine andere als 4")."""
    k = len(filled)
    if k >= row.boxes:
        return "nichts mehr (voll)"
    if row.kind == "pips":
        return f"eine {row.pips[k]}"
    if k == 0:
        return "eine beliebige Zahl"
    if row.kind == "star":
        return f"eine {filled[0]}"
    if k == 3:
        return f"eine andere Zahl als {filled[0]}"
    return f"eine {filled[0 if k < 3 else 3]}"


# --- reading and checking JSON ----------------------------------------------------


def _expect(ok: bool, path: str, message: str, /, **args: Any) -> None:
    """FaceError(path, T(message, **args)) unless `ok`: the text is made only for a field
    that fails (`make messages` extracts `message` as it extracts T's)."""
    if not ok:
        raise FaceError(path, T(message, **args))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _object(
    data: Any, path: str, required: set[str], optional: frozenset[str] = frozenset()
) -> dict[str, Any]:
    _expect(isinstance(data, Mapping), path, "must be an object")
    missing = required - set(data)
    _expect(not missing, path, "missing {fields}", fields=", ".join(sorted(missing)))
    unknown = set(data) - required - set(optional)
    _expect(not unknown, path, "unknown field(s) {fields}", fields=", ".join(sorted(unknown)))
    return dict(data)


def _int(data: Any, path: str, low: int, high: int) -> int:
    _expect(_is_int(data), path, "must be a whole number from {low} to {high}", low=low, high=high)
    _expect(low <= data <= high, path, "must be from {low} to {high}, not {value}", low=low,
            high=high, value=data)  # fmt: skip
    return int(data)


def _row(data: Any, path: str) -> Row:
    _expect(isinstance(data, Mapping), path, "must be an object")
    kind = data.get("kind")
    _expect(kind in KINDS, f"{path}.kind", "must be one of {choices}", choices=", ".join(KINDS))
    extra = {"pips": {"pips"}, "star": {"boxes"}, "mixed": set()}[kind]
    data = _object(data, path, {"kind", "colour", "value"} | extra)
    colour = data["colour"]
    _expect(colour in COLOURS, f"{path}.colour", "must be white (Engel) or black (Bengel)")
    value = _int(data["value"], f"{path}.value", 1, MAX_VALUE)
    if kind == "pips":
        pips = data["pips"]
        _expect(isinstance(pips, list), f"{path}.pips", "must be a list of pips 1-6")
        _expect(1 <= len(pips) <= MAX_ROW_BOXES, f"{path}.pips", "needs 1 to {most} boxes",
                most=MAX_ROW_BOXES)  # fmt: skip
        values = tuple(_int(p, f"{path}.pips[{i}]", 1, 6) for i, p in enumerate(pips))
        return Row("pips", colour, value, len(values), values)
    if kind == "star":
        boxes = _int(data["boxes"], f"{path}.boxes", 1, MAX_ROW_BOXES)
        return Row("star", colour, value, boxes)
    return Row("mixed", colour, value, MIXED_BOXES)


def validate_face(data: Any) -> Face:
    """Read a face from JSON data; FaceError names the path of the first bad field."""
    data = _object(data, "", {"name", "rows"})
    name = data["name"]
    _expect(isinstance(name, str) and 1 <= len(name.strip()) <= 40, "name", "1 to 40 characters")
    rows = data["rows"]
    _expect(isinstance(rows, list), "rows", "must be a list of rows")
    _expect(len(rows) == ROWS, "rows", "needs exactly {rows} rows, found {count}", rows=ROWS,
            count=len(rows))  # fmt: skip
    face = Face(name.strip(), tuple(_row(r, f"rows[{i}]") for i, r in enumerate(rows)))
    _expect(
        face.boxes <= MAX_BOXES,
        "rows",
        "{boxes} boxes: a face holds at most {most} (the dice of eight players)",
        boxes=face.boxes,
        most=MAX_BOXES,
    )
    return face


@cache
def default_faces() -> tuple[Face, ...]:
    """The sixteen shipped faces (8 double-sided boards), in stack order."""
    text = resources.files(__package__).joinpath("data/faces.json").read_text(encoding="utf-8")
    return tuple(validate_face(f) for f in json.loads(text))


def face_by_name(name: str) -> Face:
    """A shipped face by its name (KeyError when there is none)."""
    for face in default_faces():
        if face.name == name:
            return face
    raise KeyError(f"no face named {name!r}")


# --- the board-kind hooks for the store and the link ---------------------------------


def validate_board(data: Any) -> None:
    """The link's board validator: FaceError (with .path) for a bad face."""
    validate_face(data)


def default_boards() -> dict[str, dict[str, Any]]:
    """The shipped faces as boards, name -> JSON."""
    return {f.name: f.to_json() for f in default_faces()}
