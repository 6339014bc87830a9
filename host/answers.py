"""What the box's answers look like: one result shape per method, checked before use.

docs/protocol.md shows each method's result; RESULTS writes the same shapes once, and
Device.call checks every answer against its method's shape before a command reads it.
So a box that answers the right shape with a wrong type (a record id that is a string,
a picture that is not base64, a field left out) is one line naming the method and the
field, exit code 8, never a traceback or an empty table in the middle of a command.

A shape is a leaf (INT, STR, ... and `a | b` for either), a dict of the fields an
object must have (more are allowed; `Optional(shape)` for a field that may be left
out), `[shape]` for a list of them, `MapOf(shape)` for an object whose every value
is one, or `Nullable(shape)` for null or that. OBJECT is any object: what the app puts
there is the app's (the hardware it found, a board, a screen's summary).

The problem is said in the tool's language (English here):

    >>> from spielleiter_host import i18n
    >>> i18n.use("en")
    >>> problem("records.list", {"records": [{"id": "7"}]})
    'records[0].id not an integer'
    >>> problem("names.list", {"names": ["Anna", "Jörg"]}) is None
    True
    >>> i18n.use(None)
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .i18n import N_, _


@dataclass(frozen=True)
class Kind:
    """A leaf: what it is called in a message (in English, translated when said; either
    of several: "a string or null"), and the test a value must pass."""

    wants: tuple[str, ...]
    test: Callable[[Any], bool]

    def __or__(self, other: Kind) -> Kind:
        return Kind(self.wants + other.wants, lambda v: self.test(v) or other.test(v))

    @property
    def want(self) -> str:
        """What it is called, in the tool's language."""
        return _(" or ").join(_(w) for w in self.wants)


@dataclass(frozen=True)
class Optional:
    """A field that may be left out (when it is there, it has this shape)."""

    shape: Any


@dataclass(frozen=True)
class Nullable:
    """null, or this shape (an object in safe mode, null otherwise ...)."""

    shape: Any


@dataclass(frozen=True)
class MapOf:
    """An object whose every value has this shape (a game's name -> its lines, ...)."""

    shape: Any


def _integer(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


_BASE64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")

INT = Kind((N_("an integer"),), _integer)
NUMBER = Kind((N_("a number"),), _number)
STR = Kind((N_("a string"),), lambda v: isinstance(v, str))
BOOL = Kind((N_("true or false"),), lambda v: isinstance(v, bool))
NULL = Kind((N_("null"),), lambda v: v is None)
OBJECT = Kind((N_("an object"),), lambda v: isinstance(v, dict))
ANY = Kind((N_("anything"),), lambda v: True)
BASE64 = Kind(
    (N_("base64"),),
    lambda v: isinstance(v, str) and len(v) % 4 == 0 and bool(_BASE64.fullmatch(v)),
)
SHA256 = Kind(
    (N_("a sha256 in hex"),),
    lambda v: isinstance(v, str) and bool(re.fullmatch(r"[0-9a-f]{64}", v)),
)

_BOARD_LINE = {"game": STR, "name": STR, "shipped": BOOL, "uploaded": BOOL}
_RATED = {
    "place": INT, "name": STR, "kind": STR, "rating": NUMBER, "mu": NUMBER, "sigma": NUMBER,
    "matches": INT, "wins": INT, "new": BOOL, "level": Optional(STR), "bot_version": Optional(INT),
}  # fmt: skip
_POINTS = {"place": INT, "name": STR, "points": INT, "average": NUMBER, "matches": INT, "wins": INT}
_STEP = {
    "record": INT, "finished": NUMBER, "mu": NUMBER, "sigma": NUMBER, "rating": NUMBER,
    "place": INT, "seats": INT,
}  # fmt: skip
_SERIES = {"name": STR, "kind": STR, "steps": [_STEP]}
_RECORD_LINE = {
    "id": INT, "game": STR, "seats": [STR], "actions": INT, "started": NUMBER,
    "finished": BOOL, "abandoned": BOOL,
}  # fmt: skip
_RECORD = {
    "format": INT, "game": STR, "params": OBJECT, "seats": [{"name": STR, "kind": STR}],
    "actions": [INT | NULL], "meta": OBJECT, "withheld": Optional(ANY),
}  # fmt: skip
_FAULT = {"kind": STR, "detail": STR, "panel": STR, "records_readable": BOOL}

RESULTS: dict[str, Any] = {
    "hello": {
        "firmware": STR, "hardware": OBJECT, "uptime_s": NUMBER, "game": STR | NULL,
        "protocol": INT, "methods": [STR], "pin_set": BOOL, "fault": Nullable(_FAULT),
    },
    "settings.get": {
        "settings": OBJECT, "defaults": OBJECT, "help": MapOf(STR),
        "help_text": Optional(MapOf(OBJECT)), "pin_set": BOOL,
    },
    "settings.set": {
        "settings": OBJECT, "pin_set": BOOL, "warning": Optional(STR),
        "warning_text": Optional(OBJECT),
    },
    "boards.list": {"boards": [_BOARD_LINE]},
    "boards.get": {"game": STR, "name": STR, "board": OBJECT},
    "boards.put": {"game": STR, "stored": [STR]},
    "boards.delete": {"game": STR, "deleted": STR},
    "bestenliste.get": {
        "bestenliste": MapOf([_RATED]), "points": MapOf([_POINTS]), "meaning": MapOf(STR),
        "meaning_text": Optional(MapOf(OBJECT)), "lowest_first": MapOf(BOOL),
        "history": Optional(MapOf([_SERIES])),
    },
    "bestenliste.reset": {"game": STR | NULL, "removed": INT},
    "records.list": {"records": [_RECORD_LINE]},
    "records.get": {"record": _RECORD},
    "records.delete": {"deleted": INT},
    "names.list": {"names": [STR]},
    "names.add": {"names": [STR]},
    "names.delete": {"deleted": STR, "names": [STR]},
    "names.rename": {"old": STR, "new": STR, "merged": BOOL, "names": [STR]},
    "screen": {"png": BASE64, "summary": OBJECT},
    "spinner.read": {},
    "spinner.calibrate": {"calibration": OBJECT},
    "backup.get": {
        "size": INT, "sha256": SHA256, "data": BASE64, "left_out": [INT], "name": Optional(STR),
    },
    "backup.restore": {"received": INT, "size": INT, "restored": BOOL},
}  # fmt: skip
"""Every method the laptop tool calls, and the shape of its result (docs/protocol.md)."""


def problem(method: str, result: Any) -> str | None:
    """What is wrong with `result` as an answer to `method`, naming the field: "records[0].id
    not an integer", "png missing" (None when it has the documented shape)."""
    return _problem(RESULTS[method], result, "")


def _problem(shape: Any, value: Any, path: str) -> str | None:
    where = path or _("the result")
    if isinstance(shape, Kind):
        return None if shape.test(value) else _not(where, shape.want)
    if isinstance(shape, dict):
        if not isinstance(value, dict):
            return _not(where, OBJECT.want)
        for key, field in shape.items():
            inner = _join(path, key)
            if isinstance(field, Optional):
                if key not in value:
                    continue
                field = field.shape
            if key not in value:
                return _("{field} missing").format(field=inner)
            found = _problem(field, value[key], inner)
            if found:
                return found
        return None
    if isinstance(shape, list):
        if not isinstance(value, list):
            return _not(where, _("a list"))
        for i, item in enumerate(value):
            found = _problem(shape[0], item, f"{path}[{i}]")
            if found:
                return found
        return None
    if isinstance(shape, Nullable):
        return None if value is None else _problem(shape.shape, value, path)
    if isinstance(shape, MapOf):
        if not isinstance(value, dict):
            return _not(where, OBJECT.want)
        for key, item in value.items():
            found = _problem(shape.shape, item, _join(path, key))
            if found:
                return found
        return None
    raise TypeError(f"not a shape: {shape!r}")


def _not(where: str, want: str) -> str:
    """The field and what it should have been: "records[0].id not an integer"."""
    return _("{field} not {want}").format(field=where, want=want)


def _join(path: str, key: str) -> str:
    """`path.key`, or `path["key"]` for a key that is no plain name (a dotted setting)."""
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key):
        return f"{path}.{key}" if path else key
    return f"{path}[{json.dumps(key[:40], ensure_ascii=False)}]"
