"""The flow of a Bungee match: computers, the round sheet to read, the Bestenliste.

Two ways to play share it. Digital ("Gegen Computer"): the box deals, every seat's
cards live in the engine, computers play on their views. Real cards ("Karten am
Tisch"): the box keeps whose turn it is with the sixes' skips, the lucky number, the
calls and the last turns; at the round's end each player's hand is entered. After each
round the sheet is held until Weiter.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any, cast

from spielleiter.games.base import IllegalActionError, State, Tip
from spielleiter.games.bungee import bots, tips
from spielleiter.games.bungee.rules import (
    ZUG_BASE,
    BungeeState,
    Move,
    Phase,
    RoundResult,
    action_text,
    decode_discard,
    face_name,
    hand_action,
)
from spielleiter.games.table import Award, Host, Table
from spielleiter.session import Session


class BungeeTable(Table):
    """A Bungee match in progress: rounds, the sheet after each, the end."""

    def __init__(self, host: Host, session: Session) -> None:
        super().__init__(host, session)
        self._before_top: int | None = None
        self._before_round = 0

    @property
    def state(self) -> BungeeState:
        return cast(BungeeState, self.session.state)

    # --- what the screens read -------------------------------------------------
    @property
    def tisch(self) -> bool:
        """Real cards at the table: the box knows no card."""
        return self.state.game.tisch

    @property
    def rounds(self) -> int:
        return self.state.game.rounds

    def sheet_seen(self) -> int:
        """How many finished rounds' sheets were read (kept in the record's meta)."""
        return int(self.session.record.meta.get("sheet_seen", 0))

    def sheet_round(self) -> int | None:
        """The round whose sheet is due now (None: none, or a computer's move still shows)."""
        if self.hold_until is not None or not self.holding():
            return None
        return self.sheet_seen()

    def result(self, round_index: int) -> RoundResult:
        return self.state.results[round_index]

    def totals_after(self, round_index: int) -> list[int]:
        """Each seat's total over the rounds up to and including this one."""
        rounds = self.state.results[: round_index + 1]
        return [sum(r.scores[s] for r in rounds) for s in range(len(self.seats))]

    def standings_due(self) -> bool:
        """The match is over and its last sheet was read."""
        return self.over and not self.holding()

    def standings(self) -> list[tuple[int, str, int, int]]:
        """(place, name, total, rounds won) per seat, best first."""
        state = self.state
        places = state.places()
        wins = [sum(1 for r in state.results if s in r.winners) for s in range(len(self.seats))]
        rows = [(places[s], self.name(s), state.totals[s], wins[s]) for s in range(len(self.seats))]
        return sorted(rows)

    def may_call(self, seat: int) -> bool:
        """The seat may call Bungee now (digital: its hand is worth 5 or less)."""
        state = self.state
        return state.phase == Phase.TURN and int(Move.CALL) in state.legal_actions()

    def tip_allowed(self) -> bool:
        """A Tipp may be asked now: one human against computers, with the cards on the box
        (never at a real-card table), and it is that human's decision."""
        seat = self.to_move()
        return (
            not self.tisch
            and self.solo
            and self.human_to_move()
            and self.waiting_for(seat)
        )

    @property
    def solo(self) -> bool:
        """One human against computers: only then a Tipp is offered (as Rat is)."""
        return len(self.humans()) == 1 and len(self.seats) > 1

    def advice(self, rng: random.Random) -> Callable[[], Tip] | None:
        """Tipp: Stark's move on the human's view, as work for off the loop (drawing from
        `rng`, the box's advice stream, never the record's)."""
        if not self.tip_allowed():
            return None
        return partial(tips.tip, self.state.view(self.to_move()), rng)

    def hand_over(self, seat: int) -> bool:
        """A human's own cards show on the panel only after a hand-over: other humans
        share the panel and the seat's view (the game's rule of what it may know) holds
        cards they may not see, its hand (none at a real-card table)."""
        if not (0 <= seat < len(self.seats) and self.seats[seat].is_human):
            return False
        others = [s for s in self.humans() if s != seat]
        return bool(others) and bool(self.state.view(seat)["hand"])

    def turn(self) -> tuple[int, int]:
        """The turn in progress (round, turns played): the actions of one move (take,
        then discard) share it; the next player's turn, a new round or the same player
        again after the others sat out do not."""
        state = self.state
        return state.round_index, state.turns

    def hand_problem(self, entries: list[tuple[int, int] | None]) -> str | None:
        """Real cards: why the hands entered so far (in the round's order) cannot be right,
        None when they can; checked on a copy, nothing is committed."""
        trial = self.state.clone()
        while trial.phase == Phase.ENTER:
            entry = entries[trial.seat]
            if entry is None:
                return None
            try:
                trial.apply_action(hand_action(*entry))
            except IllegalActionError as refused:
                return str(refused)
        return None

    # --- hooks of the loop ---------------------------------------------------------------
    def rounds_over(self) -> int:
        """Rounds over: a move that ends one is not held for Zurück."""
        return len(self.state.results)

    def holding(self) -> bool:
        """A finished round's sheet was not read yet."""
        return len(self.state.results) > self.sheet_seen()

    def decide(self, view: Any, level: str, seed: int) -> int:
        return bots.choose(view, level=level, rng=random.Random(seed))

    def play(self, seat: int, action: int, by_computer: bool = False) -> None:
        self._before_top = self.state.top
        self._before_round = len(self.state.results)
        super().play(seat, action, by_computer)

    def moved(self, seat: int, action: int, by_computer: bool) -> None:
        """The news line: who discarded, took or called."""
        if seat < 0:
            return
        name = self.name(seat)
        if action == Move.CALL:
            ended = len(self.state.results) > self._before_round
            number = len(self.state.results[-1].calls if ended else self.state.calls)
            self.news = f"{name}: {ordinal(number)} Bungee!"
            return
        if action == Move.TAKE and self._before_top is not None:
            self.news = f"{name} nimmt {face_name(self._before_top)}"
            return
        if self.tisch and ZUG_BASE <= action < ZUG_BASE + 10:
            sixes = action - ZUG_BASE
            self.news = f"{name}: Zug" + (f", {self.skipped(seat, sixes)}" if sixes else "")
            return
        found = decode_discard(action)
        if found is not None:
            face, count = found
            self.news = f"{name} legt {count}x {face_name(face)}"
            if face == 6:
                label = "6!" if count == 1 else f"{count}x 6!"
                self.news = f"{name}: {label} {self.skipped(seat, count)}"
            return
        self.news = f"{name}: {action_text(seat, action)}"

    def skipped(self, seat: int, sixes: int) -> str:
        """Who sits out after `seat` discarded `sixes` 6s, in words."""
        n = len(self.seats)
        if not self.state.game.rule("skip_discarder"):
            sixes = min(sixes, n - 1)
        out = [self.name((seat + k) % n) for k in range(1, sixes + 1)]
        if len(out) > 2:  # the next ones round the table: a count says it in one line
            return f"{len(out)} setzen aus"
        return f"{', '.join(out)} {'setzt' if len(out) == 1 else 'setzen'} aus"

    def proceed(self) -> None:
        """Weiter on the sheet: it was read; the next round is dealt."""
        if self.holding():
            self.session.set_meta(sheet_seen=self.sheet_seen() + 1)
        self.advance()

    # --- the end ---------------------------------------------------------------------------
    def awards(self, state: State) -> list[Award]:
        """Per human: the match total (the lowest is best: the game's Bestenliste lists the
        fewest first) and a win for first place (tied winners each)."""
        assert isinstance(state, BungeeState)
        places = state.places()
        return [
            Award(self.name(s), state.totals[s], wins=int(places[s] == 1)) for s in self.humans()
        ]

    def end_meta(self, state: State) -> dict[str, Any]:
        """Totals, places and rounds won by name."""
        assert isinstance(state, BungeeState)
        names = [self.name(s) for s in range(len(self.seats))]
        wins = [sum(1 for r in state.results if s in r.winners) for s in range(len(names))]
        return {
            "totals": dict(zip(names, state.totals, strict=True)),
            "places": dict(zip(names, state.places(), strict=True)),
            "rounds_won": dict(zip(names, wins, strict=True)),
        }


def ordinal(number: int) -> str:
    """ "Erstes", "Zweites", ... as the players call it."""
    words = ("Erstes", "Zweites", "Drittes", "Viertes", "Fünftes")
    return words[number - 1] if 1 <= number <= len(words) else f"{number}."
