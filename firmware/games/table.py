"""The flow of a match without pictures: one turn loop that every game's table shares.

A table asks the seat to move: a human (the table waits for a command), a computer
(its bot thinks off the loop through the host's `submit`; an answer that comes after
the match moved on or was left is dropped), or chance (an outcome from the record's
own random stream, or from a sensor the game waits for). Every action goes through
the session, which commits it before anything can show it; the last action, the
Bestenliste awards and the finished flag are one transaction. A game's table adds
only what its rules add: its bots, its waits (a Tafel to read, a tower to turn), its
clock default, its awards.

Tables never draw. Screens read a table's state and turn keys into table commands, so
a table is tested with no frame at all (see :class:`HeadlessHost`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol, cast

from spielleiter.games.base import CHANCE, IllegalActionError, Seat, State
from spielleiter.games.catalog import GameEntry, entry
from spielleiter.records import Record
from spielleiter.session import Award, MatchEnd, Session
from spielleiter.store import Store

__all__ = ["Award", "HeadlessHost", "Host", "MatchEnd", "Table", "TakeBack"]


SOUNDS_KEPT = 64
"""Tunes a table keeps until the box plays them."""
LATE_S = 0.5
"""After the Zurück moment ends, a press of Zurück's key (K1) for this long is too late:
it does nothing (the box says "zu spät"), never the next player's move."""


class Host(Protocol):
    """What a table uses of the running box."""

    store: Store

    def now(self) -> float: ...
    def settings(self) -> Mapping[str, Any]: ...
    def submit(self, work: Callable[[], Any], done: Callable[[Any], None]) -> None: ...


@dataclass(frozen=True)
class TakeBack:
    """A human's move that "Zurück" may still take back, until `until` (box time)."""

    first: int
    """How many actions were committed before the move."""
    news: str
    """The news line before the move (shown again when it is taken back)."""
    deadline: float | None
    """When the clock ran out for the move (box time; None: no clock ran). It runs on
    through the moment: Zurück gives back what is left when it is pressed."""
    rounds: int = 0
    """Rounds (Durchgänge) over before the move: a move that ends one is never held."""
    last: bool = True
    """The last action of the move (a move of several actions is held after the last)."""
    seat: int = -1
    action: int = -1
    """The move's last action and its seat."""
    committed: int = 0
    """How many actions were committed with it (they are the last ones)."""
    until: float = 0.0


class Table:
    """One match in progress: seats, whose turn, computers, chance, the clock, the end.

    Subclasses override the hooks below; the loop itself is :meth:`advance`.
    """

    clock_applies = False
    """Whether the box's Uhr (clock.enabled) limits a human's decisions in this game."""

    def __init__(self, host: Host, session: Session) -> None:
        self.host = host
        self.session = session
        self.entry: GameEntry = entry(session.record.game)
        self.thinking: int | None = None
        """The seat whose computer is thinking, if any."""
        self.deadline: float | None = None
        """When the clock runs out for the human to move (None: no clock running)."""
        self.hold_until: float | None = None
        """A computer's move (or a human's, while it may be taken back) stays shown until
        then before the match goes on."""
        self.take_back_offer: TakeBack | None = None
        """The human's move just committed that "Zurück" may take back (setting undo.ms)."""
        self.news_told = 0
        """How many news lines the table has told (each new one counts, the same words too:
        the box's speech tells two moves with the same words apart by it)."""
        self.news = ""
        self.closed = False
        self.sounds: list[str] = []
        """Tunes the box should play (hal.buzzer.TUNES names); the box takes them away."""
        self._generation = 0
        self._turn_sounded = -1
        self._clock_sounded: int | None = None
        self._undoable: TakeBack | None = None
        """While a human's move is being played: what taking it back restores."""
        self.late_until: float | None = None
        """Until then a press of Zurück's key comes too late (the moment just ended)."""
        session.on_end = self.match_end

    @property
    def news(self) -> str:
        """The last thing that happened, in the players' words."""
        return self._news

    @news.setter
    def news(self, text: str) -> None:
        self._news = text
        self.news_told += 1

    # --- who is who ---------------------------------------------------------
    @property
    def state(self) -> Any:
        return self.session.state

    @property
    def seats(self) -> list[Seat]:
        return self.session.seats

    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.is_human]

    def computers(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if not s.is_human]

    def name(self, seat: int) -> str:
        return self.seats[seat].name

    def to_move(self) -> int:
        """The seat to move, CHANCE or TERMINAL."""
        return int(self.state.current_player())

    def human_to_move(self) -> bool:
        seat = self.to_move()
        return 0 <= seat < len(self.seats) and self.seats[seat].is_human

    def waiting_for(self, seat: int) -> bool:
        """True when the table waits for this human's command now."""
        return (
            not self.closed
            and self.hold_until is None
            and self.thinking is None
            and self.to_move() == seat
            and self.seats[seat].is_human
            and not self.holding()
        )

    @property
    def busy(self) -> bool:
        """A computer thinks or its move is still shown: no input is awaited."""
        return self.thinking is not None or self.hold_until is not None

    # --- hooks a game overrides ---------------------------------------------
    def holding(self) -> bool:
        """True while the match waits for something outside the turn order (a Tafel to be
        read, a tower to be turned, a sensor); the loop stops there."""
        return False

    def rounds_over(self) -> int:
        """How many rounds (Durchgänge) of the match are over (games without rounds: 0)."""
        return 0

    def chance_from_box(self) -> bool:
        """Whether the box draws the next chance outcome itself (False: a sensor brings it)."""
        return True

    def autoplay(self, seat: int) -> int | None:
        """An action the box plays for a seat without asking anyone (None: ask the seat)."""
        return None

    def decide(self, view: Any, level: str, seed: int) -> int:
        """A computer's move (runs off the loop): the game's bot on the seat's view."""
        raise NotImplementedError(f"{self.entry.id} has no computer players")

    def default_move(self, seat: int) -> int:
        """The move the clock makes for a human whose time ran out."""
        raise NotImplementedError(f"{self.entry.id} has no clock default")

    def advice(self, rng: random.Random) -> Callable[[], Any] | None:
        """The game's advice (Rat, tips) for the human to move, as work to run off the loop.

        The position is taken now, on the loop; the work draws from `rng` alone and never
        touches the record, so asking changes no chance outcome and no computer's move.
        None where the game offers no advice now."""
        return None

    def moved(self, seat: int, action: int, by_computer: bool) -> None:
        """An action of a seat was committed (set `news` here). Runs before advance."""

    def awards(self, state: State) -> list[Award]:
        """The Bestenliste lines a finished match earns (one per human by default: none)."""
        return []

    def end_meta(self, state: State) -> dict[str, Any]:
        """Facts stored with the finished record (e.g. who won)."""
        return {}

    def rematch_meta(self) -> dict[str, Any]:
        """The record meta a rematch carries over (what the game's setup put there)."""
        return {}

    def end_values(self, state: State) -> dict[str, Any]:
        """Store values written with the end of the match (e.g. a solo score to beat)."""
        return {}

    # --- the turn loop --------------------------------------------------------
    def advance(self) -> None:
        """Move the match on until it waits for a human, a computer, a sensor or the end."""
        while not self.closed and self.hold_until is None:
            if self.holding():
                return
            state = self.state
            if state.is_terminal():
                return
            player = self.to_move()
            if player == CHANCE:
                if not self.chance_from_box():
                    return
                self.session.apply(self.session.draw_chance())
                continue
            automatic = self.autoplay(player)
            if automatic is not None:
                self.session.apply(automatic)
                continue
            if self.seats[player].is_human:
                self.start_clock()
                if self._turn_sounded != self.session.committed:
                    self._turn_sounded = self.session.committed
                    self.sound("turn")
                return
            self.think(player)
            return

    def sound(self, tune: str) -> None:
        """Ask the box to play a tune (the buzzer, if it has one and sound is on). Only the
        latest few are kept: a table nobody drains (a tournament, a test) stays small."""
        self.sounds.append(tune)
        del self.sounds[:-SOUNDS_KEPT]

    def start_clock(self) -> None:
        settings = self.host.settings()
        if self.clock_applies and settings.get("clock.enabled") and self.deadline is None:
            self.deadline = self.host.now() + int(settings["clock.seconds"])

    def seconds_left(self) -> int | None:
        """Whole seconds left on the clock (None when no clock runs)."""
        if self.deadline is None or not self.human_to_move():
            return None
        return max(0, int(self.deadline - self.host.now() + 0.999))

    def think(self, seat: int) -> None:
        """Ask the seat's computer for its move, off the loop."""
        if self.thinking is not None:
            return
        view = self.state.view(seat)
        level = self.seats[seat].level or "normal"
        seed = self.session.bot_seed(seat)
        generation, at = self._generation, self.session.committed
        self.thinking = seat

        def work() -> int:
            return int(self.decide(view, level, seed))

        self.host.submit(work, lambda action: self._answer(generation, at, seat, action))

    def _answer(self, generation: int, at: int, seat: int, action: int) -> None:
        """A computer's answer on the loop; dropped when the match moved on or was left."""
        if generation != self._generation:
            return
        self.thinking = None
        if self.closed or self.session.committed != at or self.to_move() != seat:
            return
        self.play(seat, action, by_computer=True)

    def play(self, seat: int, action: int, by_computer: bool = False) -> None:
        """Commit a seat's action (IllegalActionError: nothing changed), then move on."""
        if self.to_move() != seat:
            raise IllegalActionError(f"{self.name(seat) if seat >= 0 else 'chance'} is not to move")
        self.session.apply(action)
        self.deadline = None
        self.moved(seat, action, by_computer)
        if self.over:
            returns = self.state.returns()
            best = max(returns)
            humans_won = any(returns[s] == best for s in self.humans())
            self.sound("win" if humans_won else "end")
        if self.offer_take_back(seat, action):
            return
        show_ms = int(self.host.settings().get("bot.show_ms", 0))
        if by_computer and show_ms > 0 and not self.state.is_terminal():
            self.hold_until = self.host.now() + show_ms / 1000
            return
        self.advance()

    def command(self, seat: int, action: int) -> None:
        """A human's move from a screen; IllegalActionError says why it is refused.

        The move is committed at once. With `undo.ms` set, its result then stays shown
        for that long and nothing else happens (no chance, no computer): "Zurück" may take
        it back meanwhile (:meth:`take_back`)."""
        if not self.waiting_for(seat):
            raise IllegalActionError(f"{self.name(seat)} ist nicht am Zug")
        if self._undoable is not None:  # one of several actions of one move
            self.play(seat, action)
            return
        self._undoable = self._before_move()
        try:
            self.play(seat, action)
        finally:
            self._undoable = None

    def commands(self, moves: Sequence[tuple[int, int]]) -> None:
        """Several humans' actions made with one key (Bungee's table of hands): one
        transaction, all stored or none (a power cut between two of them cannot leave a
        table half stored), then each one's `moved` in order on the state after the last;
        held once after the last, and taken back together. IllegalActionError (nothing
        changed) names the first refused: a seat not to move then, or its action."""
        moves = [(int(seat), int(action)) for seat, action in moves]
        if not moves:
            return
        if not self.waiting_for(moves[0][0]):
            raise IllegalActionError(f"{self.name(moves[0][0])} ist nicht am Zug")
        trial = self.state.clone()
        for seat, action in moves:
            if int(trial.current_player()) != seat or seat < 0 or not self.seats[seat].is_human:
                who = self.name(seat) if seat >= 0 else "Zufall"
                raise IllegalActionError(f"{who} ist nicht am Zug")
            trial.apply_action(action)
        before = self._before_move()
        self.session.apply_all([action for _, action in moves])
        self.deadline = None
        for seat, action in moves:
            self.moved(seat, action, False)
        if self.over:
            returns = self.state.returns()
            humans_won = any(returns[s] == max(returns) for s in self.humans())
            self.sound("win" if humans_won else "end")
        self._undoable = before
        try:
            if self.offer_take_back(*moves[-1]):
                return
        finally:
            self._undoable = None
        self.advance()

    def _before_move(self) -> TakeBack:
        return TakeBack(self.session.committed, self.news, self.deadline, self.rounds_over())

    # --- taking back a mis-press ---------------------------------------------------
    def offer_take_back(self, seat: int, action: int) -> bool:
        """Hold the match on a human's move just committed, so it can be taken back
        (False: not a human's move, or undo is off). A move that ends the match is never
        held (its awards are committed with it), nor one that ends a round or Durchgang
        (the engine has turned up the next face, hand or lot: nobody may see past a move
        that can still be taken back). The moment ends when the move's clock runs out."""
        undoable = self._undoable
        if undoable is None or not undoable.last or self.over:
            return False
        if self.rounds_over() != undoable.rounds:
            return False
        ms = int(self.host.settings().get("undo.ms", 0))
        if ms <= 0:
            return False
        until = self.host.now() + ms / 1000
        if undoable.deadline is not None:
            until = min(until, undoable.deadline)
            if until <= self.host.now():
                return False
        self.take_back_offer = replace(
            undoable, seat=seat, action=action, committed=self.session.committed, until=until
        )
        self.hold_until = until
        return True

    def take_back(self) -> TakeBack:
        """Zurück: the held move is removed from the record (one transaction) and its human
        decides again, with the clock's time as it was. IllegalActionError when no move
        can be taken back now."""
        offer = self.take_back_offer
        if offer is None or self.closed or self.session.committed != offer.committed:
            raise IllegalActionError("Nichts zurückzunehmen")
        if offer.deadline is not None and self.host.now() >= offer.deadline:
            raise IllegalActionError("Die Zeit ist um")
        self.session.take_back(offer.committed - offer.first)
        self.take_back_offer = None
        self.hold_until = None
        self.news = offer.news
        self.deadline = offer.deadline  # the clock ran on: what is left, never more
        self._turn_sounded = self.session.committed  # the same turn: no tune again
        self.advance()
        return offer

    def let_stand(self) -> None:
        """Weiter while a move may be taken back: it stands, the match goes on now."""
        if self.take_back_offer is None:
            return
        self.take_back_offer = None
        self.hold_until = None
        self.late_until = self.host.now() + LATE_S
        self.advance()

    def too_late(self) -> bool:
        """The Zurück moment ended less than LATE_S ago: a press of its key (K1) now was
        meant for Zurück and does nothing, whoever is to move next."""
        return self.late_until is not None and self.host.now() < self.late_until

    def proceed(self) -> None:
        """Weiter: move on past what the table holds for (a Tafel read, a tower to turn).

        Games with holds override this; the base just moves the match on."""
        self.advance()

    def supply(self, outcome: int, drawn: bool = False) -> None:
        """A chance outcome from outside the box's generator (a sensor, real dice), noted in
        the record as entered; `drawn`: the box's own draw, shown before it goes on."""
        if self.to_move() != CHANCE:
            raise IllegalActionError("no chance outcome is expected now")
        self.session.apply(outcome, entered=not drawn)
        self.moved(CHANCE, outcome, False)
        if self.offer_take_back(CHANCE, outcome):
            return
        self.advance()

    def enter(self, outcome: int) -> None:
        """A chance outcome the players enter by hand (what the magnets did, the values of
        real dice): committed at once and, like a human's move, it may be taken back."""
        self._undoable = self._before_move()
        try:
            self.supply(outcome)
        finally:
            self._undoable = None

    def tick(self, now: float) -> None:
        """Time passed: a shown computer move ends, the clock's last seconds sound, or it
        runs out."""
        left = self.seconds_left()
        if left is not None and 0 < left <= 3 and left != self._clock_sounded:
            self._clock_sounded = left
            self.sound("clock")
        if self.hold_until is not None and now >= self.hold_until and not self.words_hold(now):
            if self.take_back_offer is not None:
                self.late_until = self.hold_until + LATE_S
            self.hold_until = None
            self.take_back_offer = None
            self.advance()
        if self.deadline is not None and now >= self.deadline and self.human_to_move():
            seat = self.to_move()
            self.deadline = None
            if not self.holding():
                self.play(seat, self.default_move(seat))

    def words_hold(self, now: float) -> bool:
        """The held move's time is up but the box still says it (the host's `words_end`,
        where it speaks): the hold lasts until the words end, never past the move's clock.
        True while it lasts."""
        ask = getattr(self.host, "words_end", None)
        end = ask() if ask is not None else None
        offer = self.take_back_offer
        if end is not None and offer is not None and offer.deadline is not None:
            end = min(end, offer.deadline)
        if end is None or end <= now:
            return False
        self.hold_until = end
        return True

    # --- the end and leaving ---------------------------------------------------
    @property
    def over(self) -> bool:
        return bool(self.state.is_terminal())

    def match_end(self, state: State) -> MatchEnd:
        """What the session commits with the last action (one transaction): the awards,
        the end meta with each seat's place (`ranks`, what the ratings fold reads), the
        store values."""
        meta = {**self.end_meta(state), "ranks": list(state.places())}
        return MatchEnd(self.awards(state), meta, self.end_values(state))

    def can_leave_seat(self, seat: int) -> bool:
        """A single human may leave a running match and a computer takes over."""
        others = [s for s in self.humans() if s != seat]
        return bool(self.entry.leave_penalty and others and self.entry.levels)

    def leave(self, seat: int | None = None) -> None:
        """The one way out of a running match.

        With a seat named and other humans staying (a game with a leave penalty), that
        human leaves: the penalty is awarded and a computer takes the seat, in one
        transaction. Otherwise the whole match ends unscored (kept as an abandoned
        record). A computer still thinking is forgotten either way.
        """
        self._generation += 1
        self.thinking = None
        self.hold_until = None
        self.take_back_offer = None
        self.deadline = None
        if seat is not None and self.can_leave_seat(seat) and not self.over:
            level = str(self.host.settings().get(f"{self.entry.id}.takeover", self.entry.levels[0]))
            self.session.take_over(seat, level, Award(self.name(seat), self.entry.leave_penalty))
            self.news = f"{self.name(seat)} geht"
            self.advance()
            return
        self.close()
        if not self.over:
            self.session.abandon()

    def close(self) -> None:
        """The table is no longer shown: late computer answers are dropped."""
        self._generation += 1
        self.closed = True
        self.thinking = None
        self.take_back_offer = None

    @classmethod
    def replayed(cls, record: Record) -> Table:
        """The table of a record read off the box (the laptop's replay), to ask what its
        match awards: it has no box and no store, so it plays, draws and stores nothing."""
        return cls(cast(Host, None), Session(cast(Store, None), -1, record))


class HeadlessHost:
    """A host for tables without a box: settings, a clock you move, work done at once.

    >>> from spielleiter.store import Store
    >>> import tempfile, pathlib
    >>> host = HeadlessHost(Store(pathlib.Path(tempfile.mkdtemp()) / "s.sqlite3"))
    >>> host.now()
    0.0
    """

    def __init__(self, store: Store, settings: Mapping[str, Any] | None = None) -> None:
        self.store = store
        self._settings = {**store.settings(), "bot.show_ms": 0, "undo.ms": 0, **(settings or {})}
        self.time = 0.0
        self.pending: list[tuple[Callable[[], Any], Callable[[Any], None]]] = []
        self.deferred = False
        """True: submitted work waits until `run_pending()` (to test late answers)."""
        self._draining = False

    def now(self) -> float:
        return self.time

    def settings(self) -> Mapping[str, Any]:
        return self._settings

    def submit(self, work: Callable[[], Any], done: Callable[[Any], None]) -> None:
        self.pending.append((work, done))
        if not self.deferred:
            self.run_pending()

    def run_pending(self) -> None:
        """Do the submitted work in order (work submitted meanwhile too), one at a time."""
        if self._draining:
            return
        self._draining = True
        try:
            while self.pending:
                work, done = self.pending.pop(0)
                done(work())
        finally:
            self._draining = False
