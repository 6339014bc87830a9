"""The flow of a Speedtombola match without pictures.

The shared turn loop draws the lots (the taker draws the next lot at once: the loop plays
chance as soon as a lot is taken), asks the computers and runs the clock. This table adds
what Speedtombola adds: "Nein danke" with a groschen as the clock's default, the news
line after each move, the Tafel after each round (the match holds until it is read, or
until `clock.tafel_seconds` pass when the clock is on), and the Bestenliste points.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any, cast

from spielleiter.games.base import IllegalActionError, State
from spielleiter.games.speedtombola import bots
from spielleiter.games.speedtombola.rules import (
    Move,
    RoundResult,
    SpeedtombolaState,
    bestenliste_points,
    lot_cost,
    lot_points,
)
from spielleiter.games.table import Award, Host, Table
from spielleiter.session import Session

TIMEOUT_NEWS = "Zeit um! "
NO_GROSCHEN = "Kein Groschen: nehmen!"


class SpeedtombolaTable(Table):
    """One Speedtombola match: the Gabentisch, the Tafel after each round, the Endstand."""

    clock_applies = True

    def __init__(self, host: Host, session: Session) -> None:
        super().__init__(host, session)
        self.tafel_deadline: float | None = None
        """When the shown Tafel goes on by itself (None: it waits for Weiter)."""
        self.clock_stopped = False
        """The players look at something else (Rat, Info, the pause menu): no clock runs."""
        self._before: tuple[int | None, int] = (None, 0)
        self._timed_out = False

    @property
    def state(self) -> SpeedtombolaState:
        return cast(SpeedtombolaState, self.session.state)

    # --- what the screens read ----------------------------------------------
    @property
    def rounds(self) -> int:
        """Rounds in this match."""
        return self.state.game.rounds

    @property
    def solo(self) -> bool:
        """One human against computers: only then Rat is offered."""
        return len(self.humans()) == 1 and len(self.seats) > 1

    def rat_available(self) -> bool:
        """Rat may be asked now (one human against computers, and it is that human's turn)."""
        return self.solo and self.human_to_move() and self.waiting_for(self.to_move())

    def advice(self, rng: random.Random) -> Callable[[], bots.Advice] | None:
        """Rat for the human to move, as work to run off the loop (None: no Rat now).

        `rng` comes from the box's advice stream: asking never touches the record's
        streams, so it changes no lot and no computer's move."""
        if not self.rat_available():
            return None
        view = self.state.view(self.to_move())
        playouts = int(self.host.settings().get("bot.playouts", bots.STARK_PLAYOUTS))
        return partial(bots.advice, view, rng=rng, playouts=playouts)

    def round_points(self, seat: int) -> int:
        """A seat's points in the running round so far."""
        state = self.state
        return lot_points(state.lots[seat]) - state.groschen[seat]

    def take_change(self, seat: int) -> int:
        """How the seat's points change if it takes the open lot now."""
        state = self.state
        if state.lot is None:
            return 0
        return lot_cost(state.lots[seat], state.lot) - state.pot

    def lot_fits(self, seat: int) -> bool:
        """The open lot joins one of the seat's Garnituren (it costs less than its number)."""
        state = self.state
        return state.lot is not None and lot_cost(state.lots[seat], state.lot) < state.lot

    def must_take(self, seat: int) -> bool:
        """The seat has no groschen left: Nehmen is its only move."""
        return self.state.groschen[seat] == 0

    def tafel_seen(self) -> int:
        """How many rounds' Tafeln were read (acknowledged with Weiter, or timed out)."""
        return int(self.session.record.meta.get("tafel_seen", 0))

    def tafel_round(self) -> int | None:
        """The round whose Tafel is shown now (None: no Tafel is due, or a computer's last
        move is still shown)."""
        if self.hold_until is not None or not self.holding():
            return None
        return self.tafel_seen()

    def tafel(self, round_index: int) -> RoundResult:
        return self.state.results[round_index]

    def tafel_totals(self, round_index: int) -> list[int]:
        """Each seat's points over the rounds up to and including this one."""
        rounds = self.state.results[: round_index + 1]
        return [sum(r.points[seat] for r in rounds) for seat in range(len(self.seats))]

    def tafel_seconds_left(self) -> int | None:
        """Whole seconds until the Tafel goes on by itself (None: it waits for Weiter)."""
        if self.tafel_deadline is None:
            return None
        return max(0, int(self.tafel_deadline - self.host.now() + 0.999))

    def standings_due(self) -> bool:
        """The match is over and its last Tafel was read: the Endstand shows."""
        return self.over and not self.holding()

    def standings(self) -> list[tuple[int, str, int, int | None]]:
        """(place, name, match points, Bestenliste points or None) per seat, best first."""
        state = self.state
        places = state.places()
        awarded = self.session.record.meta.get("bestenliste", {})
        rows = []
        for seat, info in enumerate(self.seats):
            points = awarded.get(info.name) if info.is_human else None
            rows.append((places[seat], info.name, state.match_points[seat], points))
        return sorted(rows)

    # --- the hooks of the loop -------------------------------------------------
    def rounds_over(self) -> int:
        """Rounds over: a move that ends one is not held for Zurück."""
        return len(self.state.results)

    def holding(self) -> bool:
        """A finished round's Tafel was not read yet."""
        return len(self.state.results) > self.tafel_seen()

    def decide(self, view: Any, level: str, seed: int) -> int:
        return bots.choose(view, level=level, rng=random.Random(seed))

    def default_move(self, seat: int) -> int:
        """Time is up: "Nein danke" while a groschen is left, else Nehmen."""
        return Move.NEIN_DANKE if self.state.groschen[seat] > 0 else Move.NEHMEN

    def command(self, seat: int, action: int) -> None:
        """A human's move; "Nein danke" without a groschen is refused in a few words."""
        if self.waiting_for(seat) and action == Move.NEIN_DANKE and self.must_take(seat):
            raise IllegalActionError(NO_GROSCHEN)
        super().command(seat, action)

    def play(self, seat: int, action: int, by_computer: bool = False) -> None:
        state = self.state
        self._before = (state.lot, state.pot)
        super().play(seat, action, by_computer)

    def moved(self, seat: int, action: int, by_computer: bool) -> None:
        """The news line: who took what, or who said "Nein danke"."""
        if seat < 0:
            return
        lot, pot = self._before
        news = self.move_text(seat, lot, pot, action)
        if by_computer and action == Move.NEHMEN:
            self.sound("take")
        if self.holding() or self.over:
            self.sound("round")
        self.news = (TIMEOUT_NEWS if self._timed_out else "") + news

    def move_text(self, seat: int, lot: int | None, pot: int, action: int) -> str:
        """A decision in words: "Anna nimmt 23 +4G", "Ben: Nein danke"."""
        name = self.name(seat)
        if action == Move.NEHMEN:
            return f"{name} nimmt {lot}" + (f" +{pot}G" if pot else "")
        return f"{name}: Nein danke"

    def recent_moves(self, count: int) -> list[str]:
        """The last `count` decisions of the running round, the newest last."""
        state = self.state
        mine = [d for d in state.decisions if d.round == state.round_index][-count:]
        return [self.move_text(d.seat, d.lot, d.pot, d.move) for d in mine]

    def advance(self) -> None:
        """Move on; when the match stops at a round's Tafel, its clock starts (if on)."""
        super().advance()
        self._start_tafel_clock()

    def start_clock(self) -> None:
        if not self.clock_stopped:
            super().start_clock()

    def _start_tafel_clock(self) -> None:
        if self.closed or self.clock_stopped or self.tafel_round() is None:
            return
        settings = self.host.settings()
        if settings.get("clock.enabled") and self.tafel_deadline is None:
            self.tafel_deadline = self.host.now() + int(settings["clock.tafel_seconds"])

    def stop_clock(self) -> None:
        """Rat, Info or the pause menu is open: the clock stops until `restart_clock`."""
        self.clock_stopped = True
        self.deadline = None
        self.tafel_deadline = None

    def restart_clock(self) -> None:
        """Back at the table or the Tafel: a clock stopped for Rat, Info or the pause menu
        runs again with the full time; one that was not stopped (a move just taken back
        has the time it had) runs on."""
        if self.clock_stopped:
            self.deadline = None
            self.tafel_deadline = None
        self.clock_stopped = False
        if self.closed:
            return
        if self.human_to_move() and self.waiting_for(self.to_move()):
            self.start_clock()
        self._start_tafel_clock()

    def tick(self, now: float) -> None:
        """A shown move ends, the decision clock runs out, or the Tafel goes on by itself."""
        if self.deadline is not None and now >= self.deadline and self.human_to_move():
            self._timed_out = True
            try:
                super().tick(now)
            finally:
                self._timed_out = False
        else:
            super().tick(now)
        if self.tafel_deadline is not None and now >= self.tafel_deadline and not self.closed:
            self.proceed()

    def proceed(self) -> None:
        """Weiter on the Tafel: it was read; the next round's lots are drawn."""
        if self.holding():
            self.acknowledge_round()
        else:
            self.advance()

    def acknowledge_round(self) -> None:
        """The shown Tafel was read (kept in the record, so a resumed match goes on)."""
        if not self.holding():
            raise IllegalActionError("keine Tafel zu lesen")
        self.tafel_deadline = None
        self.session.set_meta(tafel_seen=self.tafel_seen() + 1)
        self.advance()

    # --- the end -------------------------------------------------------------------
    def awards(self, state: State) -> list[Award]:
        """Per human: per round max(0, 50 - points), plus 30/15/5 for places 1/2/3."""
        assert isinstance(state, SpeedtombolaState)
        places = state.places()
        return [
            Award(
                self.name(s),
                bestenliste_points([r.points[s] for r in state.results], places[s]),
                wins=int(places[s] == 1),
            )
            for s in self.humans()
        ]

    def end_meta(self, state: State) -> dict[str, Any]:
        """The Bestenliste points by name, for the Endstand."""
        return {"bestenliste": {a.name: a.points for a in self.awards(state)}}

    def leave(self, seat: int | None = None) -> None:
        self.tafel_deadline = None
        super().leave(seat)
