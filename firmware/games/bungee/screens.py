"""Bungee on the panel: the hand, the discard choice, the calls, the round sheet.

Gegen Computer: the others at the top (cards in hand, their calls, who still owes the
last turn), the lucky number, the top discard and the pile in a line, your hand as card
faces (the lucky number's cards drawn inverted: they count 0), the news line, and four
soft keys: Wahl (the next card group, several equal cards or fewer), Ablegen, Bungee,
Nehmen. After a take the same keys choose the discard. With several humans at the box
a hand shows only after its hand-over (ui.hand_over: "Ben ist dran", OK) and is hidden
when that player's move ends; meanwhile the public table shows (every seat, "Karten
verdeckt"). Whose cards are private the table says (`hand_over`, from the game's view).

Karten am Tisch: the player to move with the lucky number, the calls and the last
turns; keys: 6 (one press per 6 discarded), Zug, Bungee. The dealer enters the lucky
number in two presses; at the round's end each hand is entered in a key tree (tens,
a group of three or four, the number: three presses below 20, four from 20), with a
key for each Bungee card held.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import partial
from typing import Any

from spielleiter.games.base import IllegalActionError, Seat
from spielleiter.games.bungee.rules import (
    BUNGEE,
    HOUSE_RULES,
    Move,
    Phase,
    RoundResult,
    discard_action,
    face_name,
    hand_action,
    lucky_action,
    zug_action,
)
from spielleiter.games.bungee.table import BungeeTable
from spielleiter.games.catalog import Variant
from spielleiter.hal.keys import Key, KeyEvent
from spielleiter.ui.canvas import WIDTH, Canvas, fit_line, short_name
from spielleiter.ui.fonts import SMALL, TEXT, TINY
from spielleiter.ui.game_screen import GameScreen
from spielleiter.ui.game_screen import StandingsScreen as BaseStandings
from spielleiter.ui.hand_over import HandOverScreen
from spielleiter.ui.menus import launch
from spielleiter.ui.screen import App, Screen, SoftKey
from spielleiter.ui.speech import (
    Line,
    count,
    describe,
    focus,
    listing,
    news,
    number,
    ordinal,
    punkte,
)
from spielleiter.ui.tip import TipScreen
from spielleiter.ui.widgets import Item

GAME = "bungee"
TISCH = "tisch"


def setup(app: App, params: dict[str, Any], seats: list[Seat], variant: Variant | None) -> None:
    """After the menu's seats and rounds: the way to play chosen first is the mode."""
    mode = TISCH if variant is not None and variant.name == TISCH else "digital"
    settings = app.settings()
    rules = {name: bool(settings.get(f"{GAME}.{name}", d)) for name, d in HOUSE_RULES.items()}
    launch(app, GAME, {**params, **rules, "mode": mode}, list(seats))


def start(app: App, table: BungeeTable) -> Screen:
    """The first screen of a new or resumed Bungee match."""
    return PlayScreen(app, table)


def card_label(face: int) -> str:
    return "B" if face == BUNGEE else str(face)


def draw_card(
    canvas: Canvas, x: int, y: int, face: int, lucky: int | None, w: int = 18, h: int = 19
) -> None:
    """A card face: its number (B for Bungee, hatched corner); the lucky number inverted."""
    canvas.rect((x, y, x + w - 1, y + h - 1))
    canvas.text_center(y + 4, card_label(face), TEXT, x, x + w)
    if face == BUNGEE:
        canvas.hatch((x + 2, y + 2, x + 5, y + 4))
        canvas.hatch((x + w - 6, y + h - 5, x + w - 3, y + h - 3))
    if face == lucky:
        canvas.invert((x + 1, y + 1, x + w - 2, y + h - 2))


class PlayScreen(GameScreen):
    """The table: your hand and the choices (digital), or the turn keeper (real cards)."""

    table: BungeeTable

    def __init__(self, app: App, table: BungeeTable) -> None:
        super().__init__(app, table)
        self.cursor = -1
        """The chosen card group among `options()` (-1: none chosen yet)."""
        self.sixes = 0
        """Real cards: the 6s pressed for the turn being entered."""
        self.lucky_group = 0
        """Real cards: the group of the lucky number chosen by the first press (0: none)."""
        self.flash = ""
        self.shown: tuple[int, tuple[int, int]] | None = None
        """With several humans at the box: the seat that took the box and pressed OK, and
        its turn (the table's `turn()`); its cards show until that turn's move ends."""

    # --- following the table ---------------------------------------------------
    def new_decider(self) -> None:
        self.cursor = -1

    def due_screen(self) -> Screen | None:
        """A round's sheet, the Endstand, (real cards) the hands to enter, or the hand-over
        before a human's cards show where other humans share the panel."""
        table = self.table
        round_index = table.sheet_round()
        if round_index is not None:
            return SheetScreen(self, round_index)
        if table.standings_due():
            return StandingsScreen(self)
        if table.tisch and table.state.phase == Phase.ENTER and self.awaits_key():
            return HandsScreen(self)
        seat = table.to_move()
        if self.awaits_key() and table.hand_over(seat) and self.shown_seat() is None:
            turn = table.turn()
            return HandOverScreen(
                table.name(seat),
                partial(self.show_hand, seat, turn),
                partial(self.hand_over_due, seat, turn),
                player=seat,
            )
        return None

    def command(self, action: int) -> None:
        """The human to move acts; a refusal shows its reason. When the move ends, the
        cards shown after a hand-over are hidden before the panel shows anything else."""
        if not self.awaits_key():
            return
        self.flash = self.try_command(action) or ""
        if self.flash:
            return
        table = self.table
        if self.shown is not None and self.shown != (table.to_move(), table.turn()):
            self.shown = None
        self.cursor = -1
        self.sixes = 0
        self.lucky_group = 0
        self.follow()

    # --- whose cards the panel shows ------------------------------------------------------
    def shown_seat(self) -> int | None:
        """The seat whose hand the panel shows now; None: the public table only.

        With one human at the box, that human's (as always); where the table wants a
        hand-over, only the player who took the box and pressed OK, during that turn."""
        table = self.table
        if table.tisch:
            return None
        if not table.hand_over(self.you):
            return self.you
        if self.shown is not None and self.shown == (table.to_move(), table.turn()):
            return self.shown[0]
        return None

    def show_hand(self, seat: int, turn: tuple[int, int]) -> None:
        """OK on the hand-over: the seat has the box; its cards show for this turn."""
        self.shown = (seat, turn)
        self.cursor = -1
        self.flash = ""

    def hand_over_due(self, seat: int, turn: tuple[int, int]) -> bool:
        """The hand-over for this seat and turn still waits (the match did not move on)."""
        table = self.table
        return (
            not table.closed
            and self.awaits_key()
            and table.to_move() == seat
            and table.turn() == turn
        )

    # --- the digital hand ------------------------------------------------------------
    def hand(self) -> list[int]:
        """The cards the panel shows: the shown seat's hand (none on the public table)."""
        seat = self.shown_seat()
        return [] if seat is None else list(self.table.state.view(seat)["hand"])

    def options(self) -> list[tuple[int, int]]:
        """(face, count) the player may discard now: each group whole, then fewer."""
        state = self.table.state
        found = []
        for action in state.legal_actions() if self.awaits_key() else []:
            if action >= 10 and action < 200:
                face, count = divmod(action, 10)
                found.append((face, count))
        return sorted(found, key=lambda fc: (fc[0], -fc[1]))

    def chosen(self) -> tuple[int, int] | None:
        options = self.options()
        if not options:
            return None
        if not 0 <= self.cursor < len(options):
            self.cursor = len(options) - 1
            face = options[-1][0]
            self.cursor = next(i for i, o in enumerate(options) if o[0] == face)
        return options[self.cursor]

    # --- keys ----------------------------------------------------------------------------
    def softkeys(self) -> list[SoftKey | None]:
        if not self.awaits_key() or not self.deciding():
            return [None, None, None, None]
        state = self.table.state
        if self.table.tisch:
            if state.phase == Phase.LUCKY:
                if self.lucky_group:
                    lo = self.lucky_group
                    return [SoftKey(str(lo), "1"), SoftKey(str(lo + 1), "2"),
                            SoftKey(str(lo + 2), "3"), SoftKey("Zurück", "\x08")]  # fmt: skip
                return [SoftKey("1-3", "1"), SoftKey("4-6", "2"), SoftKey("7-9", "3"),
                        SoftKey("10", "0")]  # fmt: skip
            return [
                SoftKey(f"6 ({self.sixes})" if self.sixes else "6", "6"),
                SoftKey("Zug", "z\n "),
                SoftKey("Bungee", "b"),
                None,
            ]
        taken = state.phase == Phase.TAKEN
        legal = state.legal_actions()
        if Move.CALL in legal:
            third: SoftKey | None = SoftKey("Bungee", "b")
        else:
            third = SoftKey("Tipp", "t") if self.table.tip_allowed() else None
        return [
            SoftKey("Wahl", "w"),
            SoftKey("Ablegen", "a\n "),
            third,
            SoftKey("Nehmen", "n") if Move.TAKE in legal and not taken else None,
        ]

    def deciding(self) -> bool:
        """The player to move sees what they decide on (their cards, or real cards)."""
        return self.table.tisch or self.shown_seat() == self.table.to_move()

    def on_key(self, event: KeyEvent) -> None:
        if event.long or not self.awaits_key() or not self.deciding():
            return
        if self.table.tisch:
            self.tisch_key(event.key)
            return
        state = self.table.state
        if event.key == Key.K1:
            options = self.options()
            self.chosen()
            self.cursor = (self.cursor + 1) % max(1, len(options))
        elif event.key == Key.K2:
            chosen = self.chosen()
            if chosen is not None:
                self.command(discard_action(*chosen))
        elif event.key == Key.K3:
            if Move.CALL in state.legal_actions() or not self.table.tip_allowed():
                self.command(Move.CALL)
            else:
                self.show_tip()
        elif event.key == Key.K4 and state.phase == Phase.TURN:
            self.command(Move.TAKE)

    def show_tip(self) -> None:
        """Tipp: what Stark would do now and why ("Machen" plays it)."""
        if self.table.tip_allowed() and self.deciding():
            self.app.push(TipScreen(self.table, self.command))

    def game_items(self) -> list[Item]:
        """Tipp in the pause menu too (K3 is Bungee while a call is allowed)."""
        table = self.table
        return [Item("Tipp", self.tip_from_menu)] if table.solo and not table.tisch else []

    def tip_from_menu(self) -> None:
        self.app.pop()  # the pause menu
        self.show_tip()

    def tisch_key(self, key: Key) -> None:
        state = self.table.state
        if state.phase == Phase.LUCKY:
            if self.lucky_group:
                if key == Key.K4:
                    self.lucky_group = 0
                else:
                    self.command(lucky_action(self.lucky_group + key.value - 1))
            elif key == Key.K4:
                self.command(lucky_action(10))
            else:
                self.lucky_group = 1 + 3 * (key.value - 1)
            return
        if key == Key.K1:
            self.sixes = (self.sixes + 1) % 6
        elif key == Key.K2:
            self.command(zug_action(self.sixes))
        elif key == Key.K3:
            self.command(Move.CALL)

    # --- drawing -------------------------------------------------------------------------
    def ended_round(self) -> RoundResult | None:
        """The round just over whose sheet is still to come: its last move shows with that
        round (never on the next round's deal) until the sheet was read."""
        table = self.table
        return table.result(table.sheet_seen()) if table.holding() else None

    def draw_ended(self, canvas: Canvas, r: RoundResult) -> None:
        """The round over: everyone's hand points and calls, who won, the last move."""
        table = self.table
        n = len(table.seats)
        width = WIDTH // n
        for seat in range(n):
            x = seat * width
            chars = max(1, (width - 2) // 4)
            column = (x, 0, x + width - 1, 13)
            canvas.text((x + 1, 0), short_name(table.name(seat), chars), TINY, box=column)
            call = f"B{r.calls.index(seat) + 1} " if seat in r.calls else ""
            canvas.text((x + 1, 7), f"{call}{r.points[seat]}P", TINY, box=column)
        canvas.line((0, 14, WIDTH - 1, 14))
        number = table.sheet_seen() + 1
        canvas.text((1, 16), f"Runde {number} vorbei, Glück {r.lucky}", TINY)
        names = [table.name(s) for s in r.winners]
        won, size = fit_line(f"Gewinnt: {', '.join(names)}" if names else "Niemand gewinnt",
                             WIDTH - 2, names)  # fmt: skip
        canvas.text((1, 28), won, size, box=(0, 28, WIDTH - 1, 35))
        self.draw_status(canvas)

    def draw(self, canvas: Canvas) -> None:
        table = self.table
        state = table.state
        ended = self.ended_round()
        if ended is not None:
            self.draw_ended(canvas, ended)
            return
        seat = self.shown_seat()
        self.draw_others(canvas, seat)
        canvas.line((0, 14, WIDTH - 1, 14))
        if table.tisch:
            self.draw_tisch(canvas)  # the turn keeper names whose turn it is itself
            return
        lucky = state.lucky
        top = state.top
        line = f"Glück {lucky if lucky is not None else '-'}"
        line += f"  Ablage {card_label(top) if top else '-'}  Stapel {state.pile_count}"
        canvas.text((1, 16), line, TINY)
        if seat is None:  # the public table: the cards stay with their players
            canvas.text_center(29, "Karten verdeckt", SMALL)
            self.draw_status(canvas)
            return
        hand = self.hand()
        chosen = self.chosen()
        taken = state.taken if state.phase == Phase.TAKEN and seat == table.to_move() else None
        picked = 0
        x = 1
        for face in hand:
            draw_card(canvas, x, 23, face, lucky)
            if taken is not None and face == taken:  # the card just taken: a double frame
                canvas.rect((x - 1, 22, x + 18, 42))
                taken = None
            if chosen and face == chosen[0] and picked < chosen[1]:
                canvas.line((x + 1, 43, x + 16, 43))
                canvas.line((x + 1, 44, x + 16, 44))
                picked += 1
            x += 20
        self.draw_status(canvas)
        if not table.hand_over(seat):  # after a hand-over the player knows whose turn it is
            self.draw_turn_banner(canvas)

    def draw_status(self, canvas: Canvas) -> None:
        """The news line; a refusal's reason over the cards, wrapped."""
        if self.flash and self.awaits_key():
            canvas.rect((0, 22, WIDTH - 1, 54), fill=0)
            canvas.wrap((2, 24), self.flash, SMALL, WIDTH - 4)
            return
        line, size = fit_line(self.status_line(), WIDTH - 1, [s.name for s in self.table.seats])
        canvas.text((1, 47 if size == SMALL else 48), line, size, box=(0, 46, WIDTH - 1, 54))

    def draw_others(self, canvas: Canvas, seat: int | None = None) -> None:
        """The seats at the top: everyone but the seat whose hand shows below (all of
        them on the public table)."""
        table = self.table
        state = table.state
        n = len(table.seats)
        to_move = table.to_move()
        others = [(seat + k) % n for k in range(1, n)] if seat is not None else list(range(n))
        width = WIDTH // max(1, len(others))
        owed = state.last_turns()
        for i, seat in enumerate(others):
            x = i * width
            chars = max(1, (width - 2) // 4)
            column = (x, 0, x + width - 1, 13)
            canvas.text((x + 1, 0), short_name(table.name(seat), chars), TINY, box=column)
            if seat == to_move:
                canvas.invert((x, 0, x + width - 2, 6))
            parts = [] if table.tisch else [f"{sum(state.hands[seat])}K"]
            if seat in state.calls:
                parts.append(f"B{state.calls.index(seat) + 1}")
            elif seat in owed:
                parts.append("letzt")
            if not parts:
                parts.append(f"{state.totals[seat]}P")
            canvas.text((x + 1, 7), " ".join(parts), TINY, box=column)

    def draw_tisch(self, canvas: Canvas) -> None:
        table = self.table
        state = table.state
        seat = table.to_move()
        rnd = f"Runde {state.round_index + 1}/{table.rounds}"
        if state.phase == Phase.LUCKY:
            self.draw_who(canvas, seat, "gibt", rnd)
            canvas.text((1, 28), "Glückszahl eingeben:", SMALL)
            if self.lucky_group:
                canvas.text((1, 38), f"{self.lucky_group} bis {self.lucky_group + 2}?", SMALL)
            return
        if seat < 0:
            return
        self.draw_who(canvas, seat, "ist dran", rnd)
        canvas.text((1, 26), f"Glück {state.lucky}", TEXT)
        if state.calls:
            names = [table.name(s) for s in state.last_turns()]
            owed, _ = fit_line(", ".join(names), WIDTH - 50, names, (TINY,))
            canvas.text((50, 26), "Letzte Züge:", TINY)
            canvas.text((50, 33), owed, TINY, box=(50, 33, WIDTH - 1, 38))
        elif self.sixes:
            canvas.text((50, 28), f"{self.sixes}x 6: aussetzen", TINY)
        self.draw_status(canvas)

    def draw_who(self, canvas: Canvas, seat: int, what: str, right: str) -> None:
        """Real cards: "Anna ist dran" (or "gibt") with the round at the right, the name
        shortened where both do not fit."""
        canvas.text_right(WIDTH - 1, 18, right, TINY)
        room = (WIDTH - 4 - canvas.text_width(right, TINY)) // 5 - len(what) - 1
        name = short_name(self.table.name(seat), max(3, room))
        canvas.text((1, 17), f"{name} {what}", SMALL, box=(0, 17, WIDTH - 1, 24))

    def status_line(self) -> str:
        table = self.table
        if table.news and (table.hold_until is not None or not table.human_to_move()):
            return table.news
        if table.thinking is not None:
            return f"{table.name(table.thinking)} denkt ..."
        if self.flash:
            return self.flash
        state = table.state
        if table.tisch:
            return table.news or "6 je abgelegte 6, dann Zug"
        if self.shown_seat() is None and table.human_to_move():
            return table.news or f"Runde {state.round_index + 1}/{table.rounds}"
        if state.phase == Phase.TAKEN and state.taken:
            return f"Ablegen, nicht die neue {face_name(state.taken)}"
        if state.calls and table.to_move() in state.last_turns():
            return "Letzter Zug!"
        return table.news or "Du bist dran"

    def summary(self) -> dict[str, Any]:
        state = self.table.state
        ended = self.ended_round()
        if ended is not None:  # the round over, as the panel shows it until its sheet
            return {
                "screen": "bungee.table",
                "round": self.table.sheet_seen() + 1,
                "ended": True,
                "calls": list(ended.calls),
                "winners": list(ended.winners),
            }
        return {
            "screen": "bungee.table",
            "round": state.round_index + 1,
            "phase": state.phase.name.lower(),
            "to_move": self.table.to_move(),
            "lucky": state.lucky,
            "top": state.top,
            "calls": list(state.calls),
            "last_turns": state.last_turns(),
            "shown_to": self.shown_seat(),
            "hand": self.hand(),
            "sixes": self.sixes,
        }

    def spoken(self) -> list[Line]:
        """News: the round and its lucky number, each move (who sits out, who calls).
        Focus: whose turn it is; with the player's cards on the panel, the cards, the
        choice and what may be done. The cards stay unsaid where other humans share the
        box (they would hear them). The rest: every seat's cards, calls and totals."""
        table = self.table
        state = table.state
        lines = []
        if state.round_index < table.rounds:
            rnd = f"Runde {state.round_index + 1} von {table.rounds}"
            lines.append(news(("runde", state.round_index), rnd))
        if state.lucky is not None and state.round_index < table.rounds:
            lucky = f"Die Glückszahl ist {state.lucky}: jede {state.lucky} zählt null"
            lines.append(news(("glück", state.round_index), lucky))
        if table.news:
            lines.append(news(("zug", table.news_told), news_said(table.news)))
        if self.awaits_key() and self.deciding():
            lines.extend(self.turn_said(table.to_move()))
        elif table.thinking is not None:
            lines.append(describe(f"{table.name(table.thinking)} denkt"))
        if not table.tisch:
            top = card_said(state.top) if state.top else "leer"
            pile = count(state.pile_count, "Karte", "Karten", female=True)
            lines.append(describe(f"Ablage: {top}, im Stapel {pile}"))
        owed = state.last_turns()
        for other in range(len(table.seats)):
            parts = [table.name(other)]
            if not table.tisch:
                parts.append(count(sum(state.hands[other]), "Karte", "Karten", female=True))
            if other in state.calls:
                parts.append(f"rief den {ordinal(state.calls.index(other) + 1)}n Bungee")
            elif other in owed:
                parts.append("hat noch den letzten Zug")
            parts.append(f"bisher {punkte(state.totals[other])}")
            lines.append(describe(", ".join(parts)))
        return lines

    def turn_said(self, seat: int) -> list[Line]:
        """Whose turn it is and what they decide on: the cards and the choice (digital),
        the lucky number to enter or the sixes pressed (real cards)."""
        table = self.table
        state = table.state
        name = table.name(seat)
        if table.tisch:
            if state.phase == Phase.LUCKY:
                low = self.lucky_group
                ask = f"{low}, {low + 1} oder {low + 2}?" if low else LUCKY_GROUPS_SAID
                return [focus(f"{name} gibt. Glückszahl eingeben"), focus(ask)]
            lines = [focus(f"{name} ist dran")]
            if self.sixes:
                sixes = count(self.sixes, "Sechs", "Sechsen", female=True)
                lines.append(focus(f"{sixes} gedrückt"))
            if state.calls:
                lines.append(focus("Letzter Zug"))
            return lines
        last = " Letzter Zug!" if state.calls and seat in state.last_turns() else ""
        lines = [focus(f"{name} ist dran.{last}")]
        if self.flash:
            lines.append(focus(self.flash))
        if table.hand_over(seat):  # the others at the box would hear them
            lines.append(focus("Deine Karten zeigt nur das Panel"))
        else:
            lines.append(focus(f"Deine Karten: {listing([card_said(f) for f in self.hand()])}"))
        if state.phase == Phase.TAKEN and state.taken:
            taken = card_said(state.taken)
            lines.append(focus(f"Genommen: {taken}. Jetzt ablegen, nicht die neue"))
        elif state.top:
            lines.append(focus(f"Oben auf der Ablage: {card_said(state.top)}"))
        chosen = self.chosen()
        if chosen is not None:
            lines.append(focus(f"Wahl: {group_said(*chosen)}"))
        if table.may_call(seat):
            lines.append(focus("Bungee rufen geht"))
        return lines


class HandsScreen(Screen):
    """Real cards: each player's hand at the round's end, entered in a key tree; then the
    whole table is checked and committed with OK, in one transaction.

    A record from before the table was one transaction may hold some hands already (a
    power cut between them): those stand, and the entries start at the first hand not
    stored."""

    def __init__(self, screen: PlayScreen) -> None:
        self.screen = screen
        self.table = screen.table
        stored = self.table.state.entered
        self.stored = [e is not None for e in stored]
        """The hands the record holds already (they are not entered again)."""
        self.entries: list[tuple[int, int] | None] = [
            (int(e[0]), int(e[1])) if e is not None else None for e in stored
        ]
        self.seat = self.table.state.seat
        self.bungees = 0
        self.path: list[int] = []
        """The groups chosen so far in the key tree."""
        self.flash = ""

    def order(self) -> list[int]:
        n = len(self.table.seats)
        first = self.table.state.starter
        return [(first + k) % n for k in range(n)]

    def to_enter(self) -> list[int]:
        """The seats whose hands are entered here, in the round's order."""
        return [s for s in self.order() if not self.stored[s]]

    def done(self) -> bool:
        return all(e is not None for e in self.entries)

    def choices(self) -> list[tuple[str, int, int]]:
        """(label, low, high) of the keys K1..K3 at this stage of the tree (K4: see keys)."""
        return choices(self.path)

    def softkeys(self) -> list[SoftKey | None]:
        if self.done():
            return [SoftKey("Ändern", "c"), None, None, SoftKey("OK", "\n ")]
        options = self.choices()
        keys: list[SoftKey | None] = [
            SoftKey(label, str(i + 1)) for i, (label, _, _) in enumerate(options)
        ]
        if len(keys) < 4:
            keys += [None] * (3 - len(keys))
            keys.append(SoftKey("Bungee", "b") if not self.path else SoftKey("Zurück", "\x08"))
        return keys

    def on_key(self, event: KeyEvent) -> None:
        if event.long:
            return
        if self.done():
            if event.key == Key.K1:
                for seat in self.to_enter():
                    self.entries[seat] = None
                self.seat = self.to_enter()[0]
            elif event.key == Key.K4:
                self.commit()
            return
        options = self.choices()
        if event.key == Key.K4 and len(options) < 4:
            if self.path:
                self.path.pop()
            else:
                self.bungees = (self.bungees + 1) % 4
            return
        index = event.key.value - 1
        if index >= len(options):
            return
        _, low, high = options[index]
        if low == high:
            self.enter_hand(low)
        else:
            self.path.append(index)

    def enter_hand(self, points: int) -> None:
        self.entries[self.seat] = (points, self.bungees)
        problem = self.table.hand_problem(self.entries)
        if problem:
            self.flash = problem
            self.entries[self.seat] = None
        else:
            self.flash = ""
            left = [s for s in self.to_enter() if self.entries[s] is None]
            self.seat = left[0] if left else self.seat
        self.bungees = 0
        self.path = []

    def commit(self) -> None:
        moves = []
        for seat in self.to_enter():
            points, bungees = self.entries[seat] or (0, 0)
            moves.append((seat, hand_action(points, bungees)))
        try:
            self.table.commands(moves)
        except IllegalActionError as refused:
            self.flash = str(refused)
            return
        self.app.pop()
        self.screen.follow()

    def draw(self, canvas: Canvas) -> None:
        table = self.table
        if self.done():
            y = canvas.title("Hände prüfen", "OK?")
            for seat in self.order():
                points, bungees = self.entries[seat] or (0, 0)
                called = " B" if seat in table.state.calls else ""
                canvas.text((2, y), f"{short_name(table.name(seat), 10)}{called}", SMALL)
                extra = f" +{bungees}B" if bungees else ""
                canvas.text_right(WIDTH - 1, y, f"{points}{extra}", SMALL)
                y += 8
            return
        y = canvas.title(f"Hand: {short_name(table.name(self.seat), 10)}", f"Bungee {self.bungees}")
        canvas.text((2, y), "Punkte ohne Bungee-Karten", TINY)
        canvas.text((2, y + 7), f"(Glückszahl {table.state.lucky} zählt 0)", TINY)
        low, high = span(self.path)
        canvas.text((2, y + 17), f"{low} .. {high}" if low != high else str(low), TEXT)
        if self.seat in table.state.calls:
            canvas.text_right(WIDTH - 1, y + 19, "rief Bungee", TINY)
        if self.flash:
            canvas.wrap((2, y + 30), self.flash, TINY, WIDTH - 3)

    def summary(self) -> dict[str, Any]:
        return {
            "screen": "bungee.hands",
            "seat": self.seat,
            "entries": [list(e) if e else None for e in self.entries],
        }

    def spoken(self) -> list[Line]:
        """Whose hand is entered and what the keys narrow it to; at the end, every hand
        to check, and OK."""
        table = self.table
        if self.done():
            hands = []
            for seat in self.order():
                points, bungees = self.entries[seat] or (0, 0)
                extra = f" und {bungee_cards(bungees)}" if bungees else ""
                hands.append(f"{table.name(seat)} {punkte(points)}{extra}")
            return [
                focus("Hände prüfen"),
                focus(". ".join(hands)),
                focus("Taste 4: OK. Taste 1: ändern."),
            ]
        low, high = span(self.path)
        lucky = table.state.lucky
        lines = [
            focus(f"Hand von {table.name(self.seat)}, ohne Bungee-Karten; die {lucky} zählt null"),
            focus(f"{low} bis {high}" if low != high else str(low)),
            focus(bungee_cards(self.bungees)),
        ]
        if self.flash:
            lines.append(focus(self.flash))
        return lines


TREE: dict[tuple[int, ...], list[tuple[str, int, int]]] = {}


def _groups(low: int, high: int) -> list[tuple[str, int, int]]:
    """Split low..high into keys: single numbers when four or fewer, else three groups."""
    size = high - low + 1
    if size <= 4:
        return [(str(v), v, v) for v in range(low, high + 1)]
    out = []
    start = low
    for i in range(3):
        width = (size + i) // 3
        end = start + width - 1
        out.append((f"{start}-{end}", start, end))
        start = end + 1
    return out


def choices(path: Sequence[int]) -> list[tuple[str, int, int]]:
    """The value keys at a stage of the hand tree: 0-9 / 10-19 / 20+ first."""
    options = [("0-9", 0, 9), ("10-19", 10, 19), ("20+", 20, 50)]
    for index in path:
        _, low, high = options[index]
        if (low, high) == (20, 50):
            options = [("20-29", 20, 29), ("30-39", 30, 39), ("40+", 40, 50)]
        else:
            options = _groups(low, high)
    return options


def keys_for_hand(points: int, bungees: int) -> list[Key]:
    """The presses that enter a hand: K4 once per Bungee card, then the tree to `points`."""
    keys = [Key.K4] * bungees
    path: list[int] = []
    while True:
        for index, (_, low, high) in enumerate(choices(path)):
            if low <= points <= high:
                keys.append(Key(index + 1))
                if low == high:
                    return keys
                path.append(index)
                break
        else:
            raise ValueError(f"no hand has {points} points")


def span(path: Sequence[int]) -> tuple[int, int]:
    """The numbers still possible after the groups chosen so far."""
    if not path:
        return 0, 50
    options = choices(path[:-1])
    _, low, high = options[path[-1]]
    return low, high


class SheetScreen(Screen):
    """The round sheet: each player's hand, what they write, the totals; then the hands."""

    def __init__(self, screen: PlayScreen, round_index: int) -> None:
        self.screen = screen
        self.table = screen.table
        self.round_index = round_index
        self.result: RoundResult = screen.table.result(round_index)
        self.page = 0

    @property
    def pages(self) -> int:
        return 2 if self.result.hands else 1

    def softkeys(self) -> list[SoftKey | None]:
        paging = self.pages > 1
        return [SoftKey("<", "h") if paging else None, SoftKey(">", "l") if paging else None,
                None, SoftKey("Weiter", "\n ")]  # fmt: skip

    def on_key(self, event: KeyEvent) -> None:
        if event.long:
            return
        if event.key in (Key.K1, Key.K2):
            self.page = (self.page + 1) % self.pages
        elif event.key == Key.K4:
            if self.table.sheet_seen() <= self.round_index:
                self.table.proceed()
            self.app.pop()
            self.screen.follow()

    def draw(self, canvas: Canvas) -> None:
        r = self.result
        table = self.table
        title = f"Runde {self.round_index + 1}/{table.rounds}"
        y = canvas.title(title, f"Glück {r.lucky}")
        totals = table.totals_after(self.round_index)
        if self.page == 0:
            canvas.text((1, y - 1), "Name", TINY)
            for x, head in ((84, "Hand"), (106, "Rd"), (127, "Sum")):
                canvas.text_right(x, y - 1, head, TINY)
            y += 6
            for seat, name in enumerate(s.name for s in table.seats):
                mark = f"B{r.calls.index(seat) + 1}" if seat in r.calls else ""
                win = "*" if seat in r.winners else " "
                canvas.text((1, y), f"{win}{short_name(name, 8)}", SMALL)
                canvas.text((47, y + 1), mark, TINY)
                hand = str(r.points[seat]) + (f"+{r.bungees[seat]}B" if r.bungees[seat] else "")
                canvas.text_right(84, y, hand, SMALL)
                canvas.text_right(106, y, str(r.scores[seat]), SMALL)
                canvas.text_right(127, y, str(totals[seat]), SMALL)
                y += 8
            return
        for seat, name in enumerate(s.name for s in table.seats):
            cards = " ".join(card_label(f) for f in r.hands[seat])
            canvas.text((1, y), f"{short_name(name, 6):<6} {cards}", SMALL, box=(1, y, 127, y + 7))
            y += 8

    def summary(self) -> dict[str, Any]:
        return {"screen": "bungee.sheet", "round": self.round_index + 1, **self.result.to_json()}

    def spoken(self) -> list[Line]:
        """The round's result: who won, who called, what each writes and the totals; on
        the second page the hands."""
        r = self.result
        table = self.table
        head = focus(f"Runde {self.round_index + 1} von {table.rounds}, Glückszahl {r.lucky}")
        if self.page == 1:
            hands = [
                f"{s.name}: {listing([card_said(f) for f in r.hands[i]])}"
                for i, s in enumerate(table.seats)
            ]
            return [head, focus("Die Hände"), focus(". ".join(hands))]
        totals = table.totals_after(self.round_index)
        winners = listing([table.name(s) for s in r.winners]) or "niemand"
        lines = [head, focus(f"Gewonnen: {winners}")]
        calls = [f"{table.name(s)} als {ordinal(i + 1)}r" for i, s in enumerate(r.calls)]
        if calls:
            lines.append(focus(f"Bungee gerufen: {listing(calls)}"))
        rows = []
        for i, s in enumerate(table.seats):
            extra = f" und {bungee_cards(r.bungees[i])}" if r.bungees[i] else ""
            rows.append(
                f"{s.name}: Hand {r.points[i]}{extra}, schreibt {number(r.scores[i])}, "
                f"zusammen {punkte(totals[i])}"
            )
        lines.append(focus(". ".join(rows)))
        return lines


class StandingsScreen(BaseStandings):
    """The end of the match: places, totals and rounds won; Nochmal, Weiter."""

    table: BungeeTable

    def draw(self, canvas: Canvas) -> None:
        y = canvas.title("Endstand", "Punkte Siege")
        for place, name, total, wins in self.table.standings():
            canvas.text((1, y), f"{place}. {short_name(name, 11)}", SMALL)
            canvas.text_right(96, y, str(total), SMALL)
            canvas.text_right(WIDTH - 3, y, str(wins), SMALL)
            y += 8

    def summary(self) -> dict[str, Any]:
        return {"screen": "bungee.standings", "rows": [list(r) for r in self.table.standings()]}

    def spoken(self) -> list[Line]:
        """The Endstand: each place, its total and the rounds won."""
        rows = [
            f"Platz {place}: {name}, {punkte(total)}, "
            f"{count(wins, 'Runde', 'Runden', female=True)} gewonnen"
            for place, name, total, wins in self.table.standings()
        ]
        return [focus("Endstand"), focus(". ".join(rows))]


LUCKY_GROUPS_SAID = "1 bis 3, 4 bis 6, 7 bis 9 oder 10?"
CARD_WORDS = ("Null", "Eins", "Zwei", "Drei", "Vier", "Fünf", "Sechs", "Sieben", "Acht", "Neun",
              "Zehn")  # fmt: skip
CARDS_WORDS = ("Nullen", "Einsen", "Zweien", "Dreien", "Vieren", "Fünfen", "Sechsen",
               "Siebenen", "Achten", "Neunen", "Zehnen")  # fmt: skip
"""A card's number as a noun, one and several ("eine Fünf", "zwei Fünfen")."""
CALLED = {"Erstes": 1, "Zweites": 2, "Drittes": 3, "Viertes": 4, "Fünftes": 5}


def card_said(face: int) -> str:
    """A card as it is said: "7", "Bungee"."""
    return "Bungee" if face == BUNGEE else str(face)


def bungee_cards(number: int) -> str:
    return count(number, "Bungee-Karte", "Bungee-Karten", female=True)


def group_said(face: int, number: int) -> str:
    """Equal cards as German counts them: "eine Fünf", "zwei Fünfen", "eine Bungee-Karte"."""
    if face == BUNGEE:
        return bungee_cards(number)
    return count(number, CARD_WORDS[face], CARDS_WORDS[face], female=True)


def news_said(text: str) -> str:
    """The table's news line in whole words: "Ben ruft den ersten Bungee", "Anna legt eine
    Sechs ab. Ben setzt aus", "Carla nimmt die 7 von der Ablage".

    >>> news_said("Ben: Zweites Bungee!")
    'Ben ruft den zweiten Bungee'
    >>> news_said("Anna: 2x 6! Ben, Carla setzen aus")
    'Anna legt 2 Sechsen ab. Ben, Carla setzen aus'
    >>> news_said("Carla legt 3x 5")
    'Carla legt 3 Fünfen ab'
    """
    if found := re.fullmatch(r"(.+): (\w+) Bungee!", text):
        which = CALLED.get(found[2])
        if which is not None:
            return f"{found[1]} ruft den {ordinal(which)}n Bungee"
    if found := re.fullmatch(r"(.+): (?:(\d+)x )?6! (.+)", text):
        return f"{found[1]} legt {group_said(6, int(found[2] or 1))} ab. {found[3]}"
    if found := re.fullmatch(r"(.+) legt (\d+)x (\w+)", text):
        face = BUNGEE if found[3] == "Bungee" else int(found[3])
        return f"{found[1]} legt {group_said(face, int(found[2]))} ab"
    if found := re.fullmatch(r"(.+) nimmt (\w+)", text):
        card = "die Bungee-Karte" if found[2] == "Bungee" else f"die {found[2]}"
        return f"{found[1]} nimmt {card} von der Ablage"
    if found := re.fullmatch(r"(.+): Zug(?:, (.+))?", text):
        return f"{found[1]} ist fertig" + (f". {found[2]}" if found[2] else "")
    return text
