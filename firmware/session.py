"""A game in progress on the device: its record in the store and its current state.

Every action is committed to sqlite before the state changes and before any screen
can show its effect, so a pulled plug loses nothing that was shown.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any

from .games.base import Game, IllegalActionError, Seat, State, sample_chance
from .records import Record
from .store import Store


class Session:
    """One game: the record id, the seats, and the state rebuilt from committed actions."""

    def __init__(self, store: Store, record_id: int, record: Record) -> None:
        self.store = store
        self.record_id = record_id
        self.record = record
        self.game: Game = record.make_game()
        self.state: State = record.replay()

    @classmethod
    def start(
        cls,
        store: Store,
        game: str,
        params: Mapping[str, Any],
        seats: list[Seat],
        meta: Mapping[str, Any] | None = None,
    ) -> Session:
        """A new game, stored before its first action."""
        record = Record(
            game=game,
            params=dict(params),
            seats=list(seats),
            meta={"started": time.time(), **(meta or {})},
        )
        record.make_game()  # raises on bad parameters before anything is stored
        record_id = store.start_record(record)
        return cls(store, record_id, record)

    @classmethod
    def resume(cls, store: Store, record_id: int) -> Session:
        """The stored game at its last committed action."""
        return cls(store, record_id, store.record(record_id))

    @property
    def seats(self) -> list[Seat]:
        return self.record.seats

    def apply(self, action: int) -> None:
        """Commit an action, then play it (IllegalActionError: nothing stored, nothing changed)."""
        action = int(action)
        if self.state.is_terminal():
            raise IllegalActionError("the game is over")
        if action not in self.state.legal_actions():
            raise IllegalActionError(self.state.explain_illegal(action))
        self.store.append_action(self.record_id, len(self.record.actions), action)
        self.record.actions.append(action)
        self.state.apply_action(action)

    def play_chance(self, rng: random.Random) -> list[int]:
        """Play chance outcomes from `rng` until a player (or the end) is to move."""
        played = []
        while self.state.is_chance_node():
            outcome = sample_chance(self.state, rng)
            self.apply(outcome)
            played.append(outcome)
        return played

    @property
    def committed(self) -> int:
        """How many actions are committed."""
        return len(self.record.actions)

    def take_over(self, seat: int, level: str) -> None:
        """A computer takes over a seat (its human left the match)."""
        old = self.record.seats[seat]
        self.record.seats[seat] = Seat(name=f"{old.name} (CPU)", kind="computer", level=level)
        left = list(self.record.meta.get("left", []))
        left.append({"seat": seat, "name": old.name, "at": self.committed})
        self.record.meta["left"] = left
        self.store.update_record(self.record_id, seats=self.record.seats, meta=self.record.meta)

    def set_meta(self, **values: Any) -> None:
        self.record.meta.update(values)
        self.store.update_record(self.record_id, meta=self.record.meta)

    def finish(self) -> None:
        self.store.update_record(self.record_id, finished=True)

    def abandon(self) -> None:
        self.store.update_record(self.record_id, abandoned=True)
