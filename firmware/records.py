"""Records: one JSON format for every game (parameters, seats, every action incl. chance).

A record is all it takes to rebuild a game: replay its actions on a fresh initial
state. The format is documented in docs/records.md.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .games import catalog
from .games.base import Game, Seat, State, replay
from .texts import Text

FORMAT_VERSION = 1


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message says where, `reason` why in
    the players' words (what the panel shows), `said` the reason as a text the laptop
    says in its language (None: the rules' German, which it shows as it is)."""

    def __init__(self, message: str, reason: str | None = None, said: Text | None = None) -> None:
        super().__init__(message)
        self.reason = reason or message
        self.said = said


@dataclass
class Record:
    """A game as data: which game, its parameters, who sat where, every action."""

    game: str
    params: dict[str, Any]
    seats: list[Seat]
    actions: list[int] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    """Free-form facts (start time, finished, device id); never needed to replay."""

    def make_game(self) -> Game:
        return catalog.make(self.game, self.params)

    def replay(self) -> State:
        """The state after every action of the record."""
        try:
            return replay(self.make_game(), self.actions)
        except ValueError as exc:
            raise RecordError(f"record of {self.game}: {exc}", str(exc)) from exc

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT_VERSION,
            "game": self.game,
            "params": self.params,
            "seats": [s.to_json() for s in self.seats],
            "actions": list(self.actions),
            "meta": self.meta,
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Record:
        if not isinstance(data, Mapping):
            raise RecordError("a record is a JSON object")
        version = data.get("format")
        if version != FORMAT_VERSION:
            raise RecordError(f"record format {version!r} is not supported (want {FORMAT_VERSION})")
        try:
            actions = [int(a) for a in data["actions"]]
            seats = [Seat.from_json(s) for s in data["seats"]]
            return cls(
                game=str(data["game"]),
                params=dict(data.get("params", {})),
                seats=seats,
                actions=actions,
                meta=dict(data.get("meta", {})),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"malformed record: {exc!r}") from exc

    @classmethod
    def loads(cls, text: str) -> Record:
        try:
            return cls.from_json(json.loads(text))
        except json.JSONDecodeError as exc:
            raise RecordError(f"record is not JSON: {exc}") from exc
