"""A game in progress on the device: its record in the store and its current state.

Every action is committed to sqlite before any screen can show its effect, so a pulled
plug loses nothing that was shown. The action that ends the match is committed with
the match's Bestenliste awards and the finished flag in one transaction.

Chance has its own random stream per record: the outcome at action index i is drawn
from a generator seeded by the record's seed and i, so nothing else that uses random
numbers (a computer thinking, Rat, tips) can change what chance brings, and a resumed
game draws what it would have drawn.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .games.base import Game, IllegalActionError, Seat, State, sample_chance
from .records import Record, RecordError
from .store import Award, Store

__all__ = ["Award", "MatchEnd", "RecordError", "Session", "derived_seed"]


@dataclass
class MatchEnd:
    """What the end of a match writes with its last action, all in one transaction."""

    awards: list[Award] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    values: dict[str, Any] = field(default_factory=dict)
    """Store values (e.g. the solo score to beat)."""


def derived_seed(*parts: Any) -> int:
    """A 63-bit seed from any parts, the same on every machine and Python."""
    import hashlib  # here, not at the start: the first frame needs no OpenSSL

    digest = hashlib.blake2b("/".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


class Session:
    """One game: the record id, the seats, and the state rebuilt from committed actions."""

    def __init__(self, store: Store, record_id: int, record: Record) -> None:
        self.store = store
        self.record_id = record_id
        self.record = record
        self.game: Game = record.make_game()
        self.state: State = record.replay()
        self.on_end: Callable[[State], MatchEnd] | None = None
        """Called with the terminal state before the last action is committed."""

    @classmethod
    def start(
        cls,
        store: Store,
        game: str,
        params: Mapping[str, Any],
        seats: list[Seat],
        meta: Mapping[str, Any] | None = None,
        seed: int | None = None,
    ) -> Session:
        """A new game, stored before its first action; `seed` seeds its chance stream."""
        record = Record(
            game=game,
            params=dict(params),
            seats=list(seats),
            meta={
                "started": time.time(),
                "seed": random.getrandbits(62) if seed is None else int(seed),
                **(meta or {}),
            },
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

    @property
    def seed(self) -> int:
        """The record's seed (records from before seeds were kept use their id)."""
        return int(self.record.meta.get("seed", self.record_id))

    def draw_chance(self) -> int:
        """The chance outcome at the next action index, from the record's own stream."""
        rng = random.Random(derived_seed(self.seed, "chance", self.committed))
        return sample_chance(self.state, rng)

    def bot_seed(self, seat: int) -> int:
        """A computer's seed for its decision at the next action index."""
        return derived_seed(self.seed, "bot", seat, self.committed)

    def apply(self, action: int) -> None:
        """Play an action and commit it (IllegalActionError: nothing stored, nothing changed).

        The state moves first, so the end of the match is known before the commit; when
        the commit fails the state is rebuilt from what is stored.
        """
        self.apply_all([action])

    def apply_all(self, actions: list[int]) -> None:
        """Play several actions and commit them in one transaction (a table of hands): all
        are stored or none (IllegalActionError names the first refused; nothing changed)."""
        actions = [int(a) for a in actions]
        index = len(self.record.actions)
        trial = self.state if len(actions) == 1 else self.state.clone()
        for action in actions:
            if trial.is_terminal():
                raise IllegalActionError("the game is over")
            if action not in trial.legal_actions():
                raise IllegalActionError(trial.explain_illegal(action))
            if trial is not self.state:
                trial.apply_action(action)
        if trial is self.state:
            self.state.apply_action(actions[0])
        else:
            self.state = trial
        try:
            if self.state.is_terminal():
                end = self.on_end(self.state) if self.on_end is not None else MatchEnd()
                meta = {**self.record.meta, **end.meta}
                meta.pop("id", None)
                meta.pop("finished", None)
                self.store.append_actions(
                    self.record_id,
                    index,
                    actions,
                    finish=(self.record.game, end.awards, meta, end.values),
                )
                self.record.meta.update(end.meta)
                self.record.meta["finished"] = True
            else:
                self.store.append_actions(self.record_id, index, actions)
        except BaseException:
            self.state = self.record.replay()
            raise
        self.record.actions.extend(actions)

    def take_back(self, count: int = 1) -> list[int]:
        """Remove the last `count` committed actions (a human's mis-press) and return them.

        One transaction truncates the record and notes each action under the meta's
        "taken_back" ([index, action] pairs), so replay and resume see the record as if
        they had never been played. A finished match is never taken back. On a failed
        commit nothing changed."""
        if self.finished or not 0 < count <= self.committed:
            raise IllegalActionError("nothing to take back")
        first = self.committed - count
        actions = self.record.actions[first:]
        taken = [*self.record.meta.get("taken_back", [])]
        taken += [[first + i, a] for i, a in enumerate(actions)]
        self.store.take_back_actions(
            self.record_id, first, _stored({**self.record.meta, "taken_back": taken})
        )
        del self.record.actions[first:]
        self.record.meta["taken_back"] = taken
        self.state = self.record.replay()
        return actions

    def play_chance(self) -> list[int]:
        """Play chance outcomes from the record's stream until a player (or the end) moves."""
        played = []
        while self.state.is_chance_node():
            outcome = self.draw_chance()
            self.apply(outcome)
            played.append(outcome)
        return played

    @property
    def committed(self) -> int:
        """How many actions are committed."""
        return len(self.record.actions)

    @property
    def finished(self) -> bool:
        return bool(self.record.meta.get("finished"))

    def take_over(self, seat: int, level: str, award: Award | None = None) -> None:
        """A computer takes over a seat (its human left), with the leaver's award, at once."""
        old = self.record.seats[seat]
        seats = list(self.record.seats)
        seats[seat] = Seat(name=f"{old.name} (CPU)", kind="computer", level=level)
        left = [*self.record.meta.get("left", []), {"seat": seat, "name": old.name}]
        left[-1]["at"] = self.committed
        meta = {**self.record.meta, "left": left}
        self.store.update_record(
            self.record_id,
            seats=seats,
            meta=_stored(meta),
            awards=(self.record.game, [award] if award else []),
        )
        self.record.seats[:] = seats
        self.record.meta["left"] = left

    def set_meta(self, **values: Any) -> None:
        meta = {**self.record.meta, **values}
        self.store.update_record(self.record_id, meta=_stored(meta))
        self.record.meta.update(values)

    def abandon(self) -> None:
        self.store.update_record(self.record_id, abandoned=True)


def _stored(meta: Mapping[str, Any]) -> dict[str, Any]:
    """Meta as stored: without the facts the store adds when it reads a record."""
    return {k: v for k, v in meta.items() if k not in ("id", "finished")}

