"""The flow of an Engel & Bengel match without pictures.

The shared turn loop rolls the dice from the record's chance stream (the box is the dice
cup) and asks the computers. This table adds what the game adds: real dice entered from
the soft keys (``meta["wuerfel"] == "echt"``: a human's roll waits for :meth:`enter_roll`),
the news line, the warning before a placement completes a black row, the hold after each
Durchgang until its settlement was read, and the Bestenliste (final chips and wins).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, cast

from spielleiter.games.base import CHANCE, IllegalActionError, State, Tip
from spielleiter.games.engel_bengel import bots, tips
from spielleiter.games.engel_bengel.faces import fits, row_need
from spielleiter.games.engel_bengel.policy import policy_move
from spielleiter.games.engel_bengel.rules import (
    PLACE,
    DurchgangResult,
    EngelBengelState,
    Move,
    decode_place,
    roll_code,
    roll_dice,
    row_delta,
)
from spielleiter.games.table import Award, Host, Table
from spielleiter.session import Session


class EngelBengelTable(Table):
    """One Engel & Bengel match: the cup, the top face, the settlements, the standings."""

    def __init__(self, host: Host, session: Session) -> None:
        super().__init__(host, session)
        self._before: EngelBengelState | None = None
        self.closing: EngelBengelState | None = None
        """The position the last Durchgang ended in (its face, its board with the last die
        placed, the roll), shown until its settlement was read: the next face only after."""

    @property
    def state(self) -> EngelBengelState:
        return cast(EngelBengelState, self.session.state)

    # --- what the screens read ------------------------------------------------------
    @property
    def real_dice(self) -> bool:
        """The players roll real dice and enter them (else the box rolls)."""
        return self.session.record.meta.get("wuerfel", "box") == "echt"

    def roll_wanted(self) -> int:
        """Dice a human must roll and enter now (0: none is awaited)."""
        state = self.state
        if self.closed or self.holding() or state.current_player() != CHANCE:
            return 0
        if state.laying_out or state.turn < 0 or not self.seats[state.turn].is_human:
            return 0
        return state.cup if self.real_dice else 0

    def turn_seat(self) -> int:
        """The seat whose turn runs (-1 before the first)."""
        return self.state.turn

    def black_cost(self, action: int) -> int:
        """The chips a placement costs when it completes a black row (0: it does not)."""
        if action < PLACE:
            return 0
        state = self.state
        r, _ = decode_place(action)
        row = state.face.rows[r]
        if row.white or len(state.board[r]) + 1 != row.boxes:
            return 0
        return -row_delta(row)

    def suggestion(self) -> int:
        """The move a screen preselects for the human to move: the die that completes or
        advances a row best (Normal's choice), or rolling again, or stopping."""
        state = self.state
        return policy_move(state.face, state.board, state.roll, state.placed_now, state.rolls)

    def tip_allowed(self) -> bool:
        """A Tipp may be asked now: one human against computers (as Rat is), and it is that
        human's decision."""
        seat = self.to_move()
        solo = len(self.humans()) == 1 and len(self.seats) > 1
        return solo and self.human_to_move() and self.waiting_for(seat)

    def advice(self, rng: random.Random) -> Callable[[], Tip] | None:
        """Tipp: Stark's move on the human's view, as work for off the loop (its playouts
        draw from `rng`, the box's advice stream, never the record's dice)."""
        if not self.tip_allowed():
            return None
        return partial(tips.tip, self.state.view(self.to_move()), rng)

    def why_not(self, seat: int, action: int) -> str:
        """Why a human's choice is refused, in the players' words."""
        return self.state.explain_illegal(action)

    def row_needs(self) -> list[str]:
        """What each row's next box wants now ("eine 6", "voll")."""
        state = self.state
        return [row_need(row, state.board[r]) for r, row in enumerate(state.face.rows)]

    def fitting_rows(self, pips: int) -> list[int]:
        """Rows whose next box takes a die of `pips` now."""
        state = self.state
        return [r for r, row in enumerate(state.face.rows) if fits(row, state.board[r], pips)]

    def seen(self) -> int:
        """How many Durchgang settlements were read (kept in the record's meta)."""
        return int(self.session.record.meta.get("seen", 0))

    def shown_position(self) -> EngelBengelState:
        """The position the board shows: the Durchgang just over until its settlement was
        read (never the next face before it), else the match as it stands."""
        closing = self.closing
        if closing is not None and self.holding() and closing.durchgang == self.seen():
            return closing
        return self.state

    def settlement(self) -> DurchgangResult | None:
        """The finished Durchgang whose settlement is shown now (None: none is due)."""
        if self.hold_until is not None or not self.holding():
            return None
        return self.state.results[self.seen()]

    def standings_due(self) -> bool:
        """The game is over and its last settlement was read: the standings show."""
        return self.over and not self.holding()

    def standings(self) -> list[tuple[int, str, int, int | None]]:
        """(place, name, chips, Bestenliste points or None) per seat, best first."""
        state = self.state
        awarded = self.session.record.meta.get("bestenliste", {})
        places = state.places()
        rows = [
            (
                places[s],
                info.name,
                state.chips[s],
                awarded.get(info.name) if info.is_human else None,
            )
            for s, info in enumerate(self.seats)
        ]
        return sorted(rows, key=lambda r: (r[0], -r[2], r[1]))

    # --- commands -------------------------------------------------------------------------
    def enter_roll(self, pips: Sequence[int]) -> None:
        """Real dice: the values the human rolled (one per die of the cup)."""
        wanted = self.roll_wanted()
        if not wanted:
            raise IllegalActionError("Jetzt wird nicht gewürfelt")
        if len(pips) != wanted or not all(1 <= p <= 6 for p in pips):
            raise IllegalActionError(f"{wanted} Würfel mit 1 bis 6 Augen eingeben")
        self.enter(roll_code(pips))

    def proceed(self) -> None:
        """Weiter on a Durchgang's settlement: it was read; the next Durchgang starts."""
        if self.holding():
            self.session.set_meta(seen=self.seen() + 1)
        self.advance()

    # --- the hooks of the loop ----------------------------------------------------------------
    def rounds_over(self) -> int:
        """Durchgänge over: a move that ends one is not held for Zurück."""
        return len(self.state.results)

    def holding(self) -> bool:
        """A finished Durchgang's settlement was not read yet."""
        return len(self.state.results) > self.seen()

    def chance_from_box(self) -> bool:
        """The box rolls, unless a human rolls real dice now."""
        state = self.state
        if state.laying_out or state.turn < 0 or not self.real_dice:
            return True
        return not self.seats[state.turn].is_human

    def decide(self, view: Any, level: str, seed: int) -> int:
        return bots.choose(view, level=level, rng=random.Random(seed))

    def play(self, seat: int, action: int, by_computer: bool = False) -> None:
        self._before = self.state.clone()
        super().play(seat, action, by_computer)

    def supply(self, outcome: int, drawn: bool = False) -> None:
        self._before = self.state.clone()
        super().supply(outcome, drawn)

    def advance(self) -> None:
        """Move on; a roll of the box's cup in which nothing fitted is told on the news line."""
        before = self.state.clone()
        start = len(before.history())
        super().advance()
        for action in self.state.history()[start:]:
            rolling = before.is_chance_node() and not before.laying_out and before.turn >= 0
            turn, cup = before.turn, before.cup
            before.apply_action(action)
            if rolling and before.turn != turn:
                self.news = miss_news(self.name(turn), roll_dice(action, cup))

    def moved(self, seat: int, action: int, by_computer: bool) -> None:
        """The news line: the roll, the die placed and what it paid, stopping, rolling again."""
        before = self._before
        if before is None:
            return
        if seat == CHANCE:
            if self.state.turn != before.turn:
                self.news = miss_news(self.name(before.turn), roll_dice(action, before.cup))
            return
        name = self.name(seat)
        if action == Move.STOPP:
            self.news = f"{name} hört auf"
        elif action == Move.NOCHMAL:
            self.news = f"{name} würfelt nochmal"
        else:
            r, v = decode_place(action)
            done = len(self.state.results) > len(before.results)
            if done:
                self.closing = before.clone()
                self.closing.board[r] = [*before.board[r], v]
            payments = self.state.results[-1].payments if done else self.state.payments
            paid = payments[len(before.payments) :]
            money = "".join(f" {p.moved:+d}" for p in paid)
            self.news = f"{name}: {v} in Reihe {r + 1}{money}"

    # --- the end -------------------------------------------------------------------------------
    def awards(self, state: State) -> list[Award]:
        """Per human: the final chips, and a win for the richest (tied winners each)."""
        assert isinstance(state, EngelBengelState)
        winners = state.winners()
        return [Award(self.name(s), state.chips[s], wins=int(s in winners)) for s in self.humans()]

    def rematch_meta(self) -> dict[str, Any]:
        """A rematch rolls the same way (the box's cup or real dice)."""
        return {"wuerfel": self.session.record.meta.get("wuerfel", "box")}

    def end_meta(self, state: State) -> dict[str, Any]:
        """Who won, the chips, and the Bestenliste points by name."""
        assert isinstance(state, EngelBengelState)
        return {
            "winners": [self.name(s) for s in state.winners()],
            "chips": list(state.chips),
            "bestenliste": {a.name: a.points for a in self.awards(state)},
        }


def miss_news(name: str, pips: Sequence[int]) -> str:
    """A roll in which no die fitted: the turn passed on."""
    return f"{name}: {' '.join(map(str, pips))} passt nicht"
