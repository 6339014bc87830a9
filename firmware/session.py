"""A game in progress on the device: its record in the store and its current state.

Every action is committed to sqlite before any screen can show its effect, so a pulled
plug loses nothing that was shown. The action that ends the match is committed with
the match's Bestenliste awards and the finished flag in one transaction.

Chance has its own random stream per record: the outcome at action index i is drawn
from a generator seeded by the record's chance secret and i, so nothing else that uses
random numbers (a computer thinking, Rat, tips) can change what chance brings, and a
resumed game draws what it would have drawn. The secret is committed at the start,
sealed by the box's key while the match runs and revealed when it ends
(:mod:`spielleiter.draws`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from . import draws
from .draws import derived_seed
from .games import catalog
from .games.base import Game, IllegalActionError, Seat, State
from .records import Record, RecordError
from .store import Award, Store
from .texts import T

__all__ = ["Award", "MatchEnd", "RecordError", "Session", "derived_seed"]


@dataclass
class MatchEnd:
    """What the end of a match writes with its last action, all in one transaction."""

    awards: list[Award] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    values: dict[str, Any] = field(default_factory=dict)
    """Store values (e.g. the solo score to beat)."""


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
        self._secret: str | None = None

    @classmethod
    def start(
        cls,
        store: Store,
        game: str,
        params: Mapping[str, Any],
        seats: list[Seat],
        meta: Mapping[str, Any] | None = None,
        seed: int | str | None = None,
    ) -> Session:
        """A new game, stored before its first action; `seed` is its chance secret (None:
        256 bits from the system's entropy), sealed with the box's key and committed."""
        secret = str(random.SystemRandom().getrandbits(256) if seed is None else seed)
        computers = any(not s.is_human for s in seats)
        record = Record(
            game=game,
            params=dict(params),
            seats=list(seats),
            meta={
                "started": time.time(),
                **({"bot_version": catalog.entry(game).info.bot_version} if computers else {}),
                **(meta or {}),
                "chance": draws.seal(draws.box_key(store.path.parent), secret),
            },
        )
        record.make_game()  # raises on bad parameters before anything is stored
        record_id = store.start_record(record)
        session = cls(store, record_id, record)
        session._secret = secret
        return session

    @classmethod
    def resume(cls, store: Store, record_id: int) -> Session:
        """The stored game at its last committed action (RecordError, in German, when it
        cannot be replayed or its chance was sealed on another box)."""
        session = cls(store, record_id, store.record(record_id))
        if not session.finished:
            try:
                session.secret  # noqa: B018 - opened now: a sealed record fails here, not mid-move
            except draws.ChanceSealed as exc:
                raise RecordError(
                    f"Partie {record_id} kann hier nicht weitergehen: ihr Zufall ist von einer "
                    "anderen Box versiegelt",
                    "ihr Zufall ist von einer anderen Box versiegelt",
                    T("its chance was sealed by another box"),
                ) from exc
        return session

    @property
    def seats(self) -> list[Seat]:
        return self.record.seats

    @property
    def secret(self) -> str:
        """The record's chance secret: unsealed with the box's key (records from before
        the commitment keep their plain seed, the oldest their id)."""
        if self._secret is None:
            chance = self.record.meta.get("chance")
            if isinstance(chance, Mapping) and "secret" in chance:
                self._secret = str(chance["secret"])
            elif isinstance(chance, Mapping):
                self._secret = draws.unseal(draws.box_key(self.store.path.parent), chance)
            else:
                self._secret = str(self.record.meta.get("seed", self.record_id))
        return self._secret

    def draw_chance(self) -> int:
        """The chance outcome at the next action index, from the record's own stream."""
        return draws.draw(self.state, self.secret, self.committed)

    def bot_seed(self, seat: int) -> int:
        """A computer's seed for its decision at the next action index."""
        return derived_seed(self.secret, "bot", seat, self.committed)

    def revealed_meta(self) -> dict[str, Any]:
        """The meta with the chance secret in the clear: written when the match ends."""
        meta = dict(self.record.meta)
        chance = meta.get("chance")
        if isinstance(chance, Mapping):
            try:
                meta["chance"] = draws.reveal(chance, self.secret)
            except (draws.ChanceSealed, OSError):
                pass  # sealed by another box (or no key): it stays sealed
        return meta

    def apply(self, action: int, entered: bool = False) -> None:
        """Play an action and commit it (IllegalActionError: nothing stored, nothing changed).

        `entered`: a chance outcome brought from the table (real dice, a sensor), not drawn
        by the box; the record lists it under the meta's "entered". The state moves first,
        so the end of the match is known before the commit; when the commit fails the
        state is rebuilt from what is stored.
        """
        self.apply_all([action], entered)

    def apply_all(self, actions: list[int], entered: bool = False) -> None:
        """Play several actions and commit them in one transaction (a table of hands): all
        are stored or none (IllegalActionError names the first refused; nothing changed)."""
        actions = [int(a) for a in actions]
        index = len(self.record.actions)
        trial = self.state if len(actions) == 1 else self.state.clone()
        for action in actions:
            if trial.is_terminal():
                raise IllegalActionError("Das Spiel ist vorbei.")
            if action not in trial.legal_actions():
                raise IllegalActionError(trial.explain_illegal(action))
            if trial is not self.state:
                trial.apply_action(action)
        if trial is self.state:
            self.state.apply_action(actions[0])
        else:
            self.state = trial
        noted: dict[str, Any] = {}
        if entered:
            noted["entered"] = [*self.record.meta.get("entered", []), index]
        try:
            if self.state.is_terminal():
                end = self.on_end(self.state) if self.on_end is not None else MatchEnd()
                meta = _stored({**self.revealed_meta(), **noted, **end.meta})
                self.store.append_actions(
                    self.record_id,
                    index,
                    actions,
                    finish=(self.record.game, end.awards, meta, end.values),
                )
                self.record.meta.update(meta)
                self.record.meta["finished"] = True
            elif noted:
                meta = _stored({**self.record.meta, **noted})
                self.store.append_actions(self.record_id, index, actions, meta=meta)
                self.record.meta.update(noted)
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
        changes: dict[str, Any] = {"taken_back": taken}
        if "entered" in self.record.meta:
            changes["entered"] = [i for i in self.record.meta["entered"] if i < first]
        self.store.take_back_actions(
            self.record_id, first, _stored({**self.record.meta, **changes})
        )
        del self.record.actions[first:]
        self.record.meta.update(changes)
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
        """The match was left unfinished: it ends, and its chance secret is revealed."""
        meta = self.revealed_meta()
        self.store.update_record(self.record_id, abandoned=True, meta=_stored(meta))
        self.record.meta.update(meta)


def _stored(meta: Mapping[str, Any]) -> dict[str, Any]:
    """Meta as stored: without the facts the store adds when it reads a record."""
    return {k: v for k, v in meta.items() if k not in ("id", "finished")}
