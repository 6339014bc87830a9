"""Boards and templates: one generic mechanism for every game that registers a schema.

A game's catalog entry names its board validator and its shipped defaults. The store
keeps uploaded boards; the link lists, gets, puts and deletes them through here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .games import catalog
from .texts import T, around, text_of

BOARD_BYTES_MAX = 16 * 1024
"""The most bytes of JSON one board may have (the store refuses more; the laptop tool says
so before it sends one)."""


class BoardError(ValueError):
    """An invalid board; `path` names the bad field (e.g. "grid[1][2]")."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(around("{path}: {why}", message, path=path) if path else message)
        self.path = path
        self.message = message


@dataclass(frozen=True)
class BoardKind:
    """A game's board schema: how to validate one board, and which ship with the box."""

    game: str
    validate: Callable[[Any], None]
    """Raise an error with `.path` and `.message` (or BoardError) for an invalid board."""
    defaults: Callable[[], dict[str, dict[str, Any]]]
    """The shipped boards, name -> JSON data."""


_KINDS: dict[str, BoardKind] = {}


def register(kind: BoardKind) -> None:
    """Make a game's boards known (tests register small schemas of their own)."""
    _KINDS[kind.game] = kind


def unregister(game: str) -> None:
    """Forget a board kind (for tests)."""
    _KINDS.pop(game, None)


def kinds() -> dict[str, BoardKind]:
    """Every game's board kind (from the catalog), and those tests registered."""
    for entry in catalog.entries():
        functions = entry.board_functions() if entry.id not in _KINDS else None
        if functions is not None:
            register(BoardKind(entry.id, *functions))
    return dict(_KINDS)


def kind(game: str) -> BoardKind:
    """The board kind of a game; BoardError when the game has no boards."""
    found = kinds().get(game)
    if found is None:
        known = ", ".join(kinds()) or "none"
        raise BoardError(
            "game", T("{game!r} has no boards; known: {known}", game=game, known=known)
        )
    return found


def twin(game: str, data: Any, others: Mapping[str, Any]) -> str | None:
    """The name of one of `others` (the game's boards, name -> data) that `data` copies:
    the same board but for its "name", or one the game finds plays the same game (its
    entry's `board_twin`); None when it is new."""
    bare = _unnamed(data)
    for name, other in others.items():
        if _unnamed(other) == bare:
            return name
    for found in catalog.entries():
        if found.id == game and found.board_twin:
            same: str | None = found.load(found.board_twin)(data, others)
            return same
    return None


def _unnamed(data: Any) -> Any:
    return {k: v for k, v in data.items() if k != "name"} if isinstance(data, dict) else data


def validate(game: str, data: Any) -> None:
    """Validate one board of `game`; every error becomes a BoardError naming the path."""
    schema = kind(game)
    try:
        schema.validate(data)
    except BoardError:
        raise
    except ValueError as exc:
        path = str(getattr(exc, "path", ""))
        message = getattr(exc, "message", exc)
        raise BoardError(path, text_of(message) or str(message)) from exc
