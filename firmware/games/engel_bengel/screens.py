"""Engel & Bengel on the panel: the top face, the roll, the choice of die and row, the
warning before a black row, the settlement after each Durchgang, the standings.

The board screen: the six rows of the top face on the left (each row's chips on its left:
"+5" white, an inverted "-4" black; a placed die is a filled box with its pips, a free box
shows what it wants: its printed pips, "*" then "=" for a star row, "r"/"g" for a mixed
row's red and yellow boxes, a number once the row's first die says it; the Hilfe's last
pages say these signs in words); on the right the player whose turn it is, the roll (the
chosen die inverted), the roll count and the dice aside, everyone's chips and the news.
While the Durchgang just over waits for its settlement, the board shows the face it ended
on (the table's `shown_position`), never the next.

Keys while a human places: K1 "Würfel" (the next value of the roll, then "Nochmal"), K2
"Reihe" (the next row), K3 "Legen" (or "Nochmal" when that is chosen), K4 "Stopp" (or
"Tipp" while Stopp is not allowed, one human against computers). A new roll starts at the
table's suggestion, never a black row that costs beside one that costs nothing. The
chosen box is hatched, the chosen die inverted. Real dice: two presses a die.

Before the record starts, the setup's summary shows how the game ends (the target and the
cap of Durchgänge, or the fixed number: K1 less, K2 more) with the expected length in
Durchgänge and minutes, who rolls, the stack and the start player (K3 Start, K4 Zurück);
during the match the pause menu's Info shows the same and the running Durchgang.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from spielleiter.games.base import Seat
from spielleiter.games.catalog import Variant
from spielleiter.games.engel_bengel.info import expected_durchgaenge, minutes
from spielleiter.games.engel_bengel.rules import EngelBengelGame, Move, place_action
from spielleiter.games.engel_bengel.table import EngelBengelTable
from spielleiter.hal.keys import Key, KeyEvent
from spielleiter.settings import SettingsError
from spielleiter.ui.canvas import WIDTH, Canvas, fit_wrap, short_name
from spielleiter.ui.fonts import LARGE, SMALL, TEXT, TINY
from spielleiter.ui.game_screen import GameScreen
from spielleiter.ui.game_screen import StandingsScreen as BaseStandings
from spielleiter.ui.menus import launch
from spielleiter.ui.screen import App, Screen, SoftKey
from spielleiter.ui.speech import Line, describe, focus, listing, news, number, punkte
from spielleiter.ui.tip import TipScreen
from spielleiter.ui.widgets import Confirm, Item, Message

GAME = "engel-bengel"
ROW_H = 9
BOX_W = 10
PANEL_X = 78


def setup(app: App, params: dict[str, Any], seats: list[Seat], variant: Variant | None) -> None:
    """After the menu's seats and house rules: the settings' defaults (the target, the cap,
    the fixed number, the stack, the start player), uploaded faces, and who rolls (kept in
    the record's meta); then the summary of the match, whose Start starts it."""
    settings = app.settings()
    meta = {"wuerfel": params.pop("wuerfel", "box")}
    for key in ("target", "limit", "durchgaenge", "shuffle", "start"):
        value = settings.get(f"{GAME}.{key}")
        if value is not None:
            params[key] = value
    if app.store.uploaded_boards(GAME):
        params["faces"] = list(app.store.boards(GAME).values())
    app.push(SetupSummary(params, seats, meta))


def end_lines(game: EngelBengelGame) -> list[str]:
    """How the game ends, in the panel's words: the target and the cap, or the number."""
    p, last = game.params, game.last_durchgang
    durchgaenge = f"{last} Durchgang" if last == 1 else f"{last} Durchgänge"
    if p["end"] == "ziel":
        return [f"Ziel: {p['target']} Chips", f"höchstens {durchgaenge}"]
    return [f"Ende: {durchgaenge}"]


def match_lines(game: EngelBengelGame, wuerfel: str) -> list[str]:
    """The end, the players and who rolls, the stack (lines of at most 24 characters)."""
    p = game.params
    return [
        *end_lines(game),
        f"{game.num_players} Spieler, Würfel: {'echt' if wuerfel == 'echt' else 'Box'}",
        "Tafeln gemischt" if p["shuffle"] else "Tafeln in Reihenfolge",
    ]


TARGET_STEPS = (81, 90, 100, 105, 110, 115, 120, 125, 130, 135, 140, 145, 150)
"""The targets K1/K2 step through at the setup (within the settings' bounds)."""
COUNT_STEPS = (1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100)
"""The fixed numbers of Durchgänge K1/K2 step through at the setup."""


def length_line(game: EngelBengelGame, humans: int) -> str:
    """How long the game is expected to last: "etwa 8 Durchgänge, 15 Minuten"."""
    p = game.params
    count = game.last_durchgang
    rounds = expected_durchgaenge(game.num_players, p["end"], p["target"], count)
    mins = minutes(game.num_players, humans, p["end"], p["target"], count)
    if p["end"] != "ziel":
        return f"etwa {mins} Minuten"
    shown = max(1, round(rounds))
    return f"etwa {shown} {'Durchgang' if shown == 1 else 'Durchgänge'}, {mins} Minuten"


class SetupSummary(Screen):
    """The match as it will be played, before its record starts: how it ends (K1 less,
    K2 more: the target, or the number of Durchgänge) and how long that is expected to
    take, who rolls, the stack, who begins; K3 Start, K4 Zurück."""

    def __init__(self, params: dict[str, Any], seats: Sequence[Seat], meta: dict[str, Any]):
        self.params = params
        self.seats = list(seats)
        self.meta = meta
        self.game = EngelBengelGame(params)

    @property
    def by_target(self) -> bool:
        return self.game.params["end"] == "ziel"

    def lines(self) -> list[str]:
        if self.game.params["start"] == "erster":
            beginner = f"Beginn: {short_name(self.seats[0].name, 16)}"
        else:
            beginner = "Beginn: ausgelost"
        humans = sum(1 for seat in self.seats if seat.is_human)
        first, *rest = match_lines(self.game, self.meta["wuerfel"])
        return [first, length_line(self.game, humans), *rest, beginner]

    def softkeys(self) -> list[SoftKey | None]:
        return [SoftKey("-", "-h"), SoftKey("+", "+l"), SoftKey("Start", "\n"),
                SoftKey("Zurück", "\x08")]  # fmt: skip

    def change(self, step: int) -> None:
        """The target (or the fixed number of Durchgänge) one step less or more."""
        key, steps = ("target", TARGET_STEPS) if self.by_target else ("durchgaenge", COUNT_STEPS)
        value = int(self.game.params[key])
        if step > 0:
            value = next((v for v in steps if v > value), steps[-1])
        else:
            value = next((v for v in reversed(steps) if v < value), steps[0])
        self.params[key] = value
        self.game = EngelBengelGame(self.params)

    def on_key(self, event: KeyEvent) -> None:
        if event.long:
            return
        if event.key in (Key.K1, Key.K2):
            self.change(-1 if event.key == Key.K1 else 1)
        elif event.key == Key.K3:
            key = "target" if self.by_target else "durchgaenge"
            try:  # the choice is the next game's start, as a house rule's is
                self.app.store.set_settings({f"{GAME}.{key}": self.game.params[key]})
                self.app.reload_settings()
            except SettingsError:
                pass
            launch(self.app, GAME, self.params, self.seats, self.meta)
        elif event.key == Key.K4:
            self.app.pop()

    def draw(self, canvas: Canvas) -> None:
        y = canvas.title(self.game.info.title)
        first, *rest = self.lines()
        canvas.text((2, y), first, SMALL)
        canvas.invert((0, y - 1, WIDTH - 1, y + 7))  # what K1 and K2 change
        canvas.wrap((2, y + 9), "\n".join(rest), TINY, 124)

    def summary(self) -> dict[str, Any]:
        return {"screen": "engel-bengel.setup", "lines": self.lines()}

    def spoken(self) -> list[Line]:
        return [
            focus(self.game.info.title),
            focus(". ".join(self.lines())),
            focus("Taste 1: weniger. Taste 2: mehr. Taste 3: Start. Taste 4: Zurück."),
        ]


LEGEND = [
    "Zeichen: links der Wert der Reihe. +5: weiß (Engel), wer sie füllt, bekommt 5 "
    "Chips. Dunkel mit hellem -4: schwarz (Bengel), wer sie füllt, zahlt 4.",
    "Ein volles Feld mit Zahl: ein gelegter Würfel. Ein leeres Feld zeigt, was es "
    "verlangt: eine Zahl diese Augen, * eine beliebige, = dieselbe wie das erste Feld.",
    "Rot und gelb (r, g): drei gleiche rote, dann zwei gleiche gelbe, gelb anders als "
    "rot. Liegt die erste, zeigen die übrigen ihre Zahl. Schraffiert: deine Wahl.",
]
"""The Hilfe's pages on the board's signs (the printed sheet's legend in words)."""


def box_mark(row: Any, filled: Sequence[int], k: int) -> str:
    """What a free box shows: the pips it wants, "*" any, "=" the same as the row's first
    box, "r"/"g" a mixed row's red and yellow box; a number as soon as it is known."""
    if row.kind == "pips":
        return str(row.pips[k])
    if row.kind == "star":
        if k == 0:
            return "*"
        return str(filled[0]) if filled else "="
    first = 0 if k < 3 else 3
    if k == first:
        return "r" if k < 3 else "g"
    return str(filled[first]) if len(filled) > first else ("r" if k < 3 else "g")


def start(app: App, table: EngelBengelTable) -> Screen:
    """The board screen of a new or resumed game."""
    return BoardScreen(app, table)


class BoardScreen(GameScreen):
    """The top face and the turn: die and row chosen with K1/K2, placed with K3."""

    table: EngelBengelTable

    def __init__(self, app: App, table: EngelBengelTable) -> None:
        super().__init__(app, table)
        self.die = 0
        """The chosen value of the roll (0: none)."""
        self.row = 0
        self.at = -1
        """The position the choice was made for (a new position resets it)."""

    # --- the pause menu ----------------------------------------------------------------
    def game_items(self) -> list[Item]:
        """The Tipp where one human plays against computers."""
        table = self.table
        if len(table.humans()) == 1 and len(table.seats) > 1:
            return [Item("Tipp", self.tip_from_menu)]
        return []

    def info_pages(self) -> list[str]:
        """Info: how the game ends (the target and the cap) and the running Durchgang,
        then the seal of the match's chance (one entry, as in every game)."""
        return [self.info_text(), *super().info_pages()]

    def tip_offered(self) -> bool:
        """K4 is Tipp while Stopp is not allowed yet (no die of this roll placed)."""
        state = self.table.state
        return self.table.tip_allowed() and Move.STOPP not in state.legal_actions()

    def show_tip(self) -> None:
        """Tipp: what Stark would do now and why ("Machen" plays it, as Legen would)."""
        if self.table.tip_allowed():
            self.app.push(TipScreen(self.table, self.place))

    def tip_from_menu(self) -> None:
        self.app.pop()  # the pause menu
        self.show_tip()

    def info_text(self) -> str:
        state = self.table.state
        wuerfel = "echt" if self.table.real_dice else "box"
        running = state.durchgang if state.over else state.durchgang + 1
        return "\n".join([*match_lines(state.game, wuerfel), f"Jetzt: Durchgang {running}"])

    # --- following the table -------------------------------------------------------
    def due_screen(self) -> Screen | None:
        """A Durchgang's settlement, the standings, or real dice to enter."""
        table = self.table
        if table.settlement() is not None:
            return SettlementScreen(self)
        if table.standings_due():
            return StandingsScreen(self)
        if table.roll_wanted():
            return DiceEntry(self)
        return None

    def mine(self) -> bool:
        """A human places now (the table waits for their key)."""
        table = self.table
        return table.human_to_move() and table.waiting_for(table.to_move())

    def choice(self) -> tuple[int, int]:
        """(die, row) chosen now (die 0: Nochmal is chosen). A new position starts at the
        table's suggestion: its die and row, or Nochmal; never a black row that costs
        where a placement costing nothing is open (a suggested stop keeps such a die
        chosen, Stopp is K4)."""
        committed = self.table.session.committed
        if committed != self.at:
            self.at = committed
            table = self.table
            legal = [a for a in table.state.legal_actions() if a >= 2]
            free = [a for a in legal if not table.black_cost(a)]
            suggested = table.suggestion()
            if suggested == Move.STOPP and legal:
                suggested = (free or legal)[0]
            elif suggested >= 2 and table.black_cost(suggested) and free:
                suggested = free[0]
            self.die, self.row = 0, 0
            if suggested >= 2:
                self.row, pips = divmod(suggested - 2, 6)
                self.die = pips + 1
        return self.die, self.row

    def row_for(self, die: int) -> int | None:
        """The row K1 chooses with a die: the first it fits that costs nothing, else the
        first it fits (None: it fits none)."""
        rows = self.table.fitting_rows(die)
        free = [r for r in rows if not self.table.black_cost(place_action(r, die))]
        found = free or rows
        return found[0] if found else None

    def cycle(self) -> list[int]:
        """What K1 steps through: the roll's values, then Nochmal (0) where it is allowed."""
        state = self.table.state
        values = sorted(set(state.roll))
        return values + ([0] if Move.NOCHMAL in state.legal_actions() else [])

    # --- keys ----------------------------------------------------------------------------
    def softkeys(self) -> list[SoftKey | None]:
        if not self.mine():
            return [None, None, None, None]
        die, _ = self.choice()
        return [
            SoftKey("Würfel", "w"),
            SoftKey("Reihe", "r") if die else None,
            SoftKey("Legen", "l\n") if die else SoftKey("Nochmal", "n\n"),
            SoftKey("Tipp", "t") if self.tip_offered() else SoftKey("Stopp", "s"),
        ]

    def on_key(self, event: KeyEvent) -> None:
        if event.long or not self.mine():
            return
        die, row = self.choice()
        if event.key == Key.K1:
            cycle = self.cycle()
            self.die = cycle[(cycle.index(die) + 1) % len(cycle)] if die in cycle else cycle[0]
            fitting = self.row_for(self.die) if self.die else None
            if fitting is not None:
                self.row = fitting
        elif event.key == Key.K2 and die:
            self.row = (row + 1) % 6
        elif event.key == Key.K3:
            self.place(place_action(row, die) if die else Move.NOCHMAL)
        elif event.key == Key.K4:
            if self.tip_offered():
                self.show_tip()
            else:
                self.stop()

    def place(self, action: int) -> None:
        """Legen: refused with the reason, or warned about first when a black row costs."""
        table = self.table
        seat = table.to_move()
        if action not in table.state.legal_actions():
            self.app.push(Message("Geht nicht", table.why_not(seat, action)))
            return
        cost = table.black_cost(action)
        if cost:
            r = (action - 2) // 6
            question = f"Reihe {r + 1} ist schwarz: du zahlst {cost} Chips. Trotzdem legen?"

            def yes() -> None:
                self.app.pop()
                self.command(action)

            self.app.push(Confirm(question, yes, self.app.pop, "Legen", "Nein"))
            return
        self.command(action)

    def stop(self) -> None:
        """Stopp: before a die is placed, the duty to place is explained."""
        table = self.table
        if Move.STOPP not in table.state.legal_actions():
            self.app.push(Message("Erst legen", table.why_not(table.to_move(), Move.STOPP)))
        else:
            self.command(Move.STOPP)

    def command(self, action: int) -> None:
        refused = self.try_command(action)
        if refused:
            self.app.push(Message("Geht nicht", refused))
            return
        self.follow()

    # --- drawing ---------------------------------------------------------------------------
    def draw(self, canvas: Canvas) -> None:
        table = self.table
        state = table.shown_position()  # the Durchgang just over until its settlement
        mine = self.mine() and state is table.state
        die, row = self.choice() if mine else (0, -1)
        row = row if die else -1
        for r, face_row in enumerate(state.face.rows):
            y = r * ROW_H
            label = f"{'+' if face_row.white else '-'}{face_row.value}"
            canvas.text((1, y + 1), label, TINY)
            if not face_row.white:
                canvas.invert((0, y, 12, y + 7))
            filled = state.board[r]
            for k in range(face_row.boxes):
                x = 14 + k * BOX_W
                box = (x, y, x + BOX_W - 2, y + ROW_H - 2)
                if k < len(filled):
                    canvas.rect(box, fill=1)
                    canvas.text((x + 2, y + 1), str(filled[k]), TINY, fill=0)
                    continue
                if r == row and k == len(filled):
                    canvas.rect(box)
                    canvas.hatch((x + 2, y + 2, x + BOX_W - 4, y + ROW_H - 4))
                    continue
                canvas.rect(box)
                canvas.text((x + 2, y + 1), box_mark(face_row, filled, k), TINY)
        self.draw_panel(canvas, die)
        self.draw_turn_banner(canvas)

    def legend(self) -> list[str]:
        """The board's signs in words (as the printed sheet's legend says them)."""
        return LEGEND

    def draw_panel(self, canvas: Canvas, die: int) -> None:
        table = self.table
        state = table.shown_position()
        x = PANEL_X
        canvas.line((x - 2, 0, x - 2, 53))
        for i, pips in enumerate(state.roll):
            bx = x + i * 10
            canvas.rect((bx, 0, bx + 8, 8))
            canvas.text((bx + 2, 1), str(pips), SMALL)
        if die and die in state.roll:
            i = state.roll.index(die)
            canvas.invert((x + i * 10, 0, x + i * 10 + 8, 8))
        elif self.mine() and not die:
            canvas.text((x, 1), "Nochmal?" if not state.roll else "", SMALL)
        turn = state.turn
        if turn >= 0:
            canvas.text((x, 10), f"W{state.rolls} Vorrat {state.dice[turn]}", TINY)
        n = len(table.seats)
        columns = 1 if n <= 4 else 2
        per = -(-n // columns)
        width = 50 // columns
        for s in range(n):
            cx = x + (s // per) * width
            cy = 17 + (s % per) * 6
            chars = (width - 13) // 4 if columns == 1 else 2
            chips = str(state.chips[s])
            chars = max(1, (width - 1) // 4 - len(chips) - (1 if columns == 1 else 0))
            text = f"{short_name(table.name(s), chars):<{chars}}{chips:>{width // 4 - chars}}"
            canvas.text((cx, cy), text, TINY, box=(cx, cy, min(WIDTH - 1, cx + width - 1), cy + 5))
            if s == turn:
                canvas.invert((cx, cy, min(WIDTH - 1, cx + len(text) * 4 - 1), cy + 5))
        top = max(30, 17 + per * 6 + 1)
        room = (54 - top) // 6
        names = [seat.name for seat in table.seats]
        for i, line in enumerate(fit_wrap(self.status(room), WIDTH - x, room, names)):
            canvas.text((x, top + 6 * i), line, TINY, box=(x, top, WIDTH - 1, 54))

    def status(self, room: int = 3) -> str:
        """The news, or the duty to place (with who begins, at the game's first turn), in
        words that wrap into `room` lines of 12 characters."""
        table = self.table
        if table.thinking is not None:
            return f"{table.name(table.thinking)} denkt"
        state = table.state
        if self.mine() and state.placed_now == 0:
            if state.durchgang == 0 and state.turn == state.starter and not any(state.board):
                duty = "Leg einen Würfel!" if room >= 3 else "Leg 1 Würfel"
                return f"{short_name(table.name(state.turn), 4)} beginnt {duty}"
            return "Leg einen Würfel!"
        if self.mine() and not self.choice()[0]:
            dice = len(table.state.roll)  # the dice, not a die showing that many pips
            if room < 2:
                return f"Nochmal mit {dice}?"
            return f"Nochmal mit {dice} {'Würfel' if dice == 1 else 'Würfeln'}?"
        return table.news

    def summary(self) -> dict[str, Any]:
        table = self.table
        state = table.state
        return {
            "screen": "engel-bengel.board",
            "face": table.shown_position().face.name,
            "board": [list(b) for b in state.board],
            "roll": list(state.roll),
            "turn": state.turn,
            "to_move": table.to_move(),
            "chips": list(state.chips),
            "dice": list(state.dice),
            "choice": list(self.choice()) if self.mine() else None,
            "news": table.news,
        }

    def spoken(self) -> list[Line]:
        """News: each roll ("Ben würfelt 2, 4, 4 und 6") and each move (the die placed and
        what it paid, stopping, rolling again, a roll in which nothing fitted). Focus: whose
        turn, the roll and the choice, or the duty to place. The rest: the face's rows and
        everyone's chips."""
        table = self.table
        state = table.state
        lines = []
        if table.news:
            lines.append(news(("zug", table.news_told), engel_news_said(table.news)))
        if state.roll and state.turn >= 0 and state.placed_now == 0 and not self.mine():
            roll = listing([str(p) for p in state.roll])  # a fresh roll (the player's own
            said = f"{table.name(state.turn)} würfelt {roll}"  # turn says it as it stands)
            lines.append(news(("wurf", table.news_told), said))
        if self.mine():
            lines.extend(self.turn_said())
        elif table.thinking is not None:
            lines.append(describe(f"{table.name(table.thinking)} denkt"))
        for r, face_row in enumerate(state.face.rows):
            lines.append(describe(row_said(r, face_row, state.board[r])))
        lines.extend(
            describe(f"{table.name(s)}: {state.chips[s]} Chips, {state.dice[s]} Würfel")
            for s in range(len(table.seats))
        )
        return lines

    def turn_said(self) -> list[Line]:
        """The human to place: the roll, the die and row chosen (or Nochmal), the duty."""
        table = self.table
        state = table.state
        die, row = self.choice()
        lines = [focus(f"{table.name(state.turn)} ist dran, Wurf {state.rolls}: "
                       f"{listing([str(p) for p in state.roll])}")]  # fmt: skip
        if state.placed_now == 0:
            lines.append(focus("Leg einen Würfel!"))
        if die:
            lines.append(focus(f"Gewählt: {die} in Reihe {row + 1}"))
        else:
            dice = len(state.roll)
            with_dice = "einem Würfel" if dice == 1 else f"{number(dice)} Würfeln"
            lines.append(focus(f"Gewählt: nochmal würfeln mit {with_dice}"))
        return lines


class DiceEntry(Screen):
    """Real dice: the values rolled, die by die, each in two presses (as Bungee's lucky
    number): K1 "1-3" or K2 "4-6", then the value on K1..K3; K4 goes back a step."""

    def __init__(self, screen: BoardScreen) -> None:
        self.screen = screen
        self.table = screen.table
        self.values: list[int] = []
        self.group = 0
        """The first value of the group chosen by the first press (0: none yet)."""

    @property
    def value(self) -> str:
        """The die being entered, as far as it is known ("1 bis 3" after the first press),
        in words for the speech."""
        if not self.group:
            return "Taste 1 für 1 bis 3, Taste 2 für 4 bis 6"
        return f"{self.group} bis {self.group + 2}"

    def softkeys(self) -> list[SoftKey | None]:
        back = SoftKey("Zurück", "\x08") if self.group or self.values else None
        if self.group:
            return [SoftKey(str(self.group + i), str(self.group + i)) for i in range(3)] + [back]
        return [SoftKey("1-3", "a"), SoftKey("4-6", "b"), None, back]

    def on_key(self, event: KeyEvent) -> None:
        if event.long:
            return
        if not self.table.roll_wanted():
            self.app.pop()
            return
        if event.key == Key.K4:
            if self.group:
                self.group = 0
            elif self.values:
                self.values.pop()
        elif self.group:
            value = self.group + event.key.value - 1
            self.group = 0
            self.take(value)
        elif event.key in (Key.K1, Key.K2):
            self.group = 1 if event.key == Key.K1 else 4

    def take(self, value: int) -> None:
        self.values.append(value)
        if len(self.values) == self.table.roll_wanted():
            values, self.values = self.values, []
            self.table.enter_roll(values)
            self.app.pop()

    def draw(self, canvas: Canvas) -> None:
        wanted = self.table.roll_wanted()
        name = self.table.name(self.table.state.turn) if self.table.state.turn >= 0 else ""
        y = canvas.title(f"{short_name(name, 12)} würfelt", f"{len(self.values) + 1}/{wanted}")
        canvas.text((2, y), f"Würfel {len(self.values) + 1} von {wanted}: Augen?", SMALL)
        canvas.text((2, y + 10), "Gewürfelt:", SMALL)
        canvas.text((2, y + 20), " ".join(map(str, self.values)) or "-", LARGE)
        if self.group:
            canvas.text_right(WIDTH - 2, y + 20, f"{self.group}-{self.group + 2}?", TEXT)

    def summary(self) -> dict[str, Any]:
        return {"screen": "engel-bengel.dice", "values": list(self.values), "group": self.group}

    def spoken(self) -> list[Line]:
        wanted = self.table.roll_wanted()
        turn = self.table.state.turn
        name = self.table.name(turn) if turn >= 0 else ""
        lines = [
            focus(f"{name} würfelt. Würfel {len(self.values) + 1} von {wanted}"),
            focus(
                ", ".join(f"{self.group + i}: Taste {i + 1}" for i in range(3))
                if self.group
                else "Augen 1 bis 3: Taste 1, 4 bis 6: Taste 2"
            ),
        ]
        if self.values:
            lines.append(describe(f"Bisher: {listing([str(v) for v in self.values])}"))
        return lines


class SettlementScreen(Screen):
    """A Durchgang's end: who paid and who got what, the chips after it; Weiter."""

    def __init__(self, screen: BoardScreen) -> None:
        self.screen = screen
        self.table = screen.table
        result = self.table.settlement()
        assert result is not None
        self.result = result

    def softkeys(self) -> list[SoftKey | None]:
        return [None, None, None, SoftKey("Weiter", "\n ")]

    def on_key(self, event: KeyEvent) -> None:
        if event.key == Key.K4 and not event.long:
            self.table.proceed()
            self.app.pop()

    def draw(self, canvas: Canvas) -> None:
        r = self.result
        table = self.table
        n = len(table.seats)
        if n <= 6:
            y = canvas.title(f"Durchgang {r.number} vorbei")
        else:
            canvas.text((0, 0), f"Durchgang {r.number} vorbei", TINY)
            y = 7
        size, step, cw = (SMALL, 9, 5) if n <= 4 else (TINY, 7 if n <= 6 else 6, 4)
        for s in range(n):
            moved = [p.moved for p in r.payments if p.seat == s]
            chips = str(r.chips[s])
            room = (WIDTH - 2 - len(chips) * cw - cw) // cw - 9  # after the name
            paid = " ".join(f"{m:+d}" for m in moved) or "-"
            if len(paid) > room:  # too many rows for the line: how many, and the sum
                paid = f"{len(moved)} Reihen {sum(moved):+d}"
            canvas.text((1, y), f"{short_name(table.name(s), 8):<8} {paid}", size)
            canvas.text_right(WIDTH - 1, y, chips, size)
            y += step
        if n <= 5:
            canvas.text((1, y), f"Es beginnt {short_name(table.name(r.next_start), 12)}", TINY)

    def summary(self) -> dict[str, Any]:
        r = self.result
        return {
            "screen": "engel-bengel.settlement",
            "number": r.number,
            "payments": [(p.seat, p.row, p.moved) for p in r.payments],
            "chips": list(r.chips),
        }

    def spoken(self) -> list[Line]:
        """Who paid and who got what, the chips after it, who begins next."""
        r = self.result
        table = self.table
        rows = []
        for s in range(len(table.seats)):
            moved = [p.moved for p in r.payments if p.seat == s]
            paid = ", ".join(f"plus {m}" if m > 0 else f"minus {-m}" for m in moved)
            rows.append(f"{table.name(s)}: {paid or 'nichts'}, jetzt {r.chips[s]} Chips")
        return [
            focus(f"Durchgang {r.number} vorbei"),
            focus(". ".join(rows)),
            focus(f"Es beginnt {table.name(r.next_start)}"),
        ]


class StandingsScreen(BaseStandings):
    """The game's end: places by chips, the Bestenliste points of the humans; Nochmal, Ende."""

    FINISH_LABEL = "Ende"
    table: EngelBengelTable

    def draw(self, canvas: Canvas) -> None:
        rows = self.table.standings()
        done = f"{self.table.state.durchgang} Durchg."
        if len(rows) <= 6:
            y = canvas.title("Spielende", done)
        else:
            canvas.text((0, 0), f"Spielende nach {done}", TINY)
            y = 7
        size, step = (SMALL, 9) if len(rows) <= 5 else (TINY, 7 if len(rows) <= 6 else 6)
        for place, name, chips, points in rows:
            extra = f" ({points:+d})" if points is not None else ""
            canvas.text((1, y), f"{place}. {short_name(name, 10):<10} {chips:>3}{extra}", size)
            y += step

    def summary(self) -> dict[str, Any]:
        return {"screen": "engel-bengel.standings", "rows": self.table.standings()}

    def spoken(self) -> list[Line]:
        """The end: places by chips, the humans' Bestenliste points."""
        rows = [
            f"Platz {place}: {name}, {chips} Chips"
            + (f", Bestenliste {punkte(points)}" if points is not None else "")
            for place, name, chips, points in self.table.standings()
        ]
        number = self.table.state.durchgang
        done = "einem Durchgang" if number == 1 else f"{number} Durchgängen"
        return [focus(f"Spielende nach {done}"), focus(". ".join(rows))]


def row_said(r: int, face_row: Any, filled: Sequence[int]) -> str:
    """A row of the face in words: its colour and value, how full, what its next box wants."""
    kind = "Engel" if face_row.white else "Bengel"
    said = f"Reihe {r + 1}, {kind} {face_row.value}: {len(filled)} von {face_row.boxes} belegt"
    k = len(filled)
    if k >= face_row.boxes:
        return said
    if face_row.kind == "pips":
        wants = str(face_row.pips[k])
    elif face_row.kind == "star":
        wants = f"nur {filled[0]}" if filled else "beliebig"
    else:
        wants = "rot" if k < 3 else "gelb"
    return f"{said}, als nächstes {wants}"


def engel_news_said(text: str) -> str:
    """The table's news line in whole words: "Anna legt eine 5 in Reihe 2 und bekommt 3
    Chips", "Ben würfelt 1, 3 und 6: nichts passt".

    >>> engel_news_said("Anna: 5 in Reihe 2 +3")
    'Anna legt eine 5 in Reihe 2 und bekommt 3 Chips'
    >>> engel_news_said("Ben: 1 3 6 passt nicht")
    'Ben würfelt 1, 3 und 6: nichts passt'
    """
    if found := re.fullmatch(r"(.+): (\d) in Reihe (\d+)((?: [+-]\d+)*)", text):
        said = f"{found[1]} legt eine {found[2]} in Reihe {found[3]}"
        for money in found[4].split():
            chips = int(money)
            said += f" und bekommt {chips} Chips" if chips > 0 else f" und zahlt {-chips} Chips"
        return said
    if found := re.fullmatch(r"(.+): ([\d ]+) passt nicht", text):
        return f"{found[1]} würfelt {listing(found[2].split())}: nichts passt"
    return text
