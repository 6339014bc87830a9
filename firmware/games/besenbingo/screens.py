"""Besenbingo on the panel: the tower cards, each seat's sheet, the computers' crosses, the end.

Two modes. "Papier" (Spielleiter for printed templates): the box only turns the tower
cards; Weiter reveals the next, and the silent tower (stiller Turm) at the end.
"Digital": the box keeps every sheet; a human crosses on their own sheet with the soft
keys (K1 the witch, K2 the row), a computer on its own template in the background. The
solo variant plays a number of Durchgänge, each on a new template, against the
previous score.

The flow of a Durchgang lives in :class:`~spielleiter.games.besenbingo.table.BesenbingoTable`;
these screens draw its state and turn keys into its commands. The options of a digital
game (a template per seat, solo rounds) are chosen on a screen of its own after the
seats; no record exists before Start.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from spielleiter.games.base import IllegalActionError, Seat
from spielleiter.games.besenbingo import ENTRY, SOLO_ROUNDS
from spielleiter.games.besenbingo.rules import MINUS, REVEALS, ROW_TITLES, decode, encode
from spielleiter.games.besenbingo.table import (
    COPILOT_CODES,
    GAME,
    PAPIER,
    BesenbingoTable,
    bar_field_text,
    digital_durchgang,
    field_code,
    is_solo,
    paper_durchgang,
    witch_codes,
)
from spielleiter.games.besenbingo.templates import ROWS, SIZE, Template, WitchField
from spielleiter.games.catalog import Variant
from spielleiter.hal.keys import Key, KeyEvent
from spielleiter.ui.canvas import WIDTH, Canvas, fit_line, fitting, short_name
from spielleiter.ui.fonts import LARGE, SMALL, TEXT, TINY
from spielleiter.ui.game_screen import GameScreen
from spielleiter.ui.menus import launch
from spielleiter.ui.screen import App, Screen, SoftKey
from spielleiter.ui.speech import Line, count, describe, focus, listing, news, punkte
from spielleiter.ui.tip import TipScreen
from spielleiter.ui.widgets import Item, ListMenu, Message

BAR_ROWS = (*ROWS, "minus")
BAR_LABELS = {"hexe": "Hexe", "copilot": "Cop.", "paar": "Paar", "kombi": "Kom.", "minus": "Min."}
ROUNDS_SETTING = ENTRY.setting("rounds")
"""Setting: the solo Durchgänge chosen last."""
STATUS = {
    "preparing": "Computer bereiten sich vor ...",
    "end": "Weiter: der stille Turm",
    "first": "Weiter: Turm aufdecken",
    "tower": "Weiter: nächster Turm",
    "cross": "Weiter: streichen",
}
"""The tower screen's bottom line for each phase of the table."""
STATUS_SAID = {
    "preparing": "Die Computer bereiten sich vor",
    "end": "Taste 4: der stille Turm",
    "first": "Taste 4 deckt den ersten Turm auf",
    "tower": "Taste 4 deckt den nächsten Turm auf",
}
"""What the box says the tower screen waits for (a human's cross: their sheet says it)."""


# --- short names for the small panel ---------------------------------------------


def move_text(template: Template, action: int) -> str:
    """What a move crossed, short: "WKa Hexe", "Minusfeld"."""
    if action == MINUS:
        return "Minusfeld"
    cell, row = decode(action)
    field = template.witch_field(cell)
    assert field is not None
    return f"{field_code(template, field.witch, field.copilot)} {ROW_TITLES[row]}"


def cross_said(template: Template, action: int) -> str:
    """What a cross crossed, in words: "Walpurga mit Katze in der Reihe Hexe", "ein
    Minusfeld"."""
    if action == MINUS:
        return "ein Minusfeld"
    cell, row = decode(action)
    field = template.witch_field(cell)
    assert field is not None
    return f"{field.witch} mit {field.copilot} in der Reihe {ROW_TITLES[row]}"


def gain_text(gain: int) -> str:
    """What a move does to the sheet's points, in words ("gibt 3 Punkte", "kostet 2")."""
    if gain == 0:
        return "gibt nichts"
    word = "gibt" if gain > 0 else "kostet"
    text = f"{word} {abs(gain)} Punkt{'' if abs(gain) == 1 else 'e'}"
    return text if len(text) <= 13 else f"{word} {abs(gain)}"


def legend_pages(templates: Sequence[Template]) -> list[str]:
    """The sheet's signs in words, for these templates (the printed sheet's legend)."""
    witches: dict[str, str] = {}
    for template in templates:
        for name, code in witch_codes(template).items():
            witches.setdefault(code, name)
    letters = ", ".join(f"{code} {name}" for code, name in sorted(witches.items()))
    copilots = ", ".join(f"{code} {name}" for name, code in COPILOT_CODES.items())
    first = next(iter(sorted(witches.items())), ("W", "Walpurga"))
    return [
        f"Zeichen: {letters}. {copilots}. {first[0]}Ka: {first[1]} mit Katze. "
        "Schraffiert: gelandet. Im Rahmen: der Turm.",
        "Leiste (3 Leiste): Reihen Hexe, Cop. Copilot, Paar, Kom. Kombi, Min. Minus. "
        f"Ein Feld: wer passt, dann sein Wert ({first[0]}Ka2: {first[1]} mit Katze, 2 "
        "Punkte). Hell: gestrichen. Rahmen: was du streichst.",
    ]


# --- starting a game -----------------------------------------------------------------


def setup(app: App, params: dict[str, Any], seats: list[Seat], variant: Variant | None) -> None:
    """After the menu's seats: paper play starts at once (nobody needs a seat); digital
    play asks for the templates and solo rounds first (no record before Start)."""
    if variant is not None and variant.name == PAPIER:
        launch(app, GAME, *paper_durchgang())
        return
    app.push(Setup(app, seats).menu())


def start(app: App, table: BesenbingoTable) -> Screen:
    """The game screen of a new or resumed Durchgang."""
    return TowerScreen(app, table)


class SetupMenu(ListMenu):
    """The options list; leaving it (Zurück or the menu key) goes back to the seats."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        super().__init__("Besenbingo", [], back=setup.cancel)

    def on_menu(self) -> bool:
        self.setup.cancel()
        return True


class Setup:
    """A different template per seat (shipped and uploaded boards), solo rounds."""

    def __init__(self, app: App, seats: Sequence[Seat]) -> None:
        self.app = app
        self.seats = list(seats)
        self.names = list(app.store.boards(GAME))
        self.templates = [self.names[i % len(self.names)] for i in range(len(self.seats))]
        rounds = app.settings().get(ROUNDS_SETTING, 1)
        self.rounds = rounds if rounds in SOLO_ROUNDS else 1
        self.screen = SetupMenu(self)

    def menu(self) -> SetupMenu:
        self.screen.items = self.items()
        return self.screen

    def items(self) -> list[Item]:
        items = []
        if is_solo(self.seats):
            items.append(Item(lambda: f"Durchgänge: {self.rounds}", self.cycle_rounds))
        for i, seat in enumerate(self.seats):
            items.append(Item(self.template_label(i, seat), self.template_cycler(i)))
        items.append(Item("Start", self.start))
        return items

    def template_label(self, i: int, seat: Seat) -> Callable[[], str]:
        return lambda: f"{seat.name[:8]}: {self.templates[i]}"

    def template_cycler(self, i: int) -> Callable[[], None]:
        return lambda: self.cycle_template(i)

    def cycle_rounds(self) -> None:
        self.rounds = SOLO_ROUNDS[(SOLO_ROUNDS.index(self.rounds) + 1) % len(SOLO_ROUNDS)]

    def cycle_template(self, seat: int) -> None:
        """The next board that no other seat has (the templates are all different)."""
        taken = {t for i, t in enumerate(self.templates) if i != seat}
        k = self.names.index(self.templates[seat])
        for step in range(1, len(self.names) + 1):
            name = self.names[(k + step) % len(self.names)]
            if name not in taken:
                self.templates[seat] = name
                return

    def cancel(self) -> None:
        self.app.pop()

    def start(self) -> None:
        if len(self.seats) > len(self.names):
            self.app.push(Message("Vorlagen", "Zu wenige Vorlagen für alle Plätze."))
            return
        self.app.store.set_settings({ROUNDS_SETTING: self.rounds})
        self.app.reload_settings()
        new = digital_durchgang(self.app.store, self.seats, self.templates, self.rounds)
        launch(self.app, GAME, *new)


# --- the table: towers, turns, computers ------------------------------------------------


class TowerScreen(GameScreen):
    """The tower card in the middle; Weiter turns the next. Whatever the table waits for
    next (a human's sheet, the computers' results, the end) comes on top of it."""

    table: BesenbingoTable

    def enter(self) -> None:
        self.follow()

    def tick(self, now: float) -> None:
        if self.app.top is self:
            self.follow()

    def follow(self) -> None:
        """Show what the table waits for: the end, the computers' results, a human's sheet
        (after a handover when several humans share the box)."""
        table = self.table
        if table.closed:
            return
        if table.silent_revealed:
            self.app.push(EndScreen(self))
        elif table.results_pending:
            table.results_seen()
            self.app.push(ResultsScreen(self))
        elif (seat := table.human_waiting()) is not None:
            sheet = SheetScreen(self, seat)
            self.app.push(HandoverScreen(self, sheet) if len(table.humans()) > 1 else sheet)

    def weiter(self) -> None:
        """Weiter: the next tower, or the end with the silent tower."""
        if self.table.can_proceed:
            self.table.proceed()
            self.follow()

    def next_round(self) -> None:
        """Solo: the next Durchgang on the next template, else back to the main menu."""
        new = self.table.next_round()
        if new is None:
            self.end()
        else:
            launch(self.app, GAME, *new)

    @property
    def busy(self) -> bool:
        return bool(self.table.busy)

    # --- keys -------------------------------------------------------------------
    def softkeys(self) -> list[SoftKey | None]:
        weiter = SoftKey("Weiter", "\n ") if self.table.can_proceed else None
        return [None, None, None, weiter]

    def on_key(self, event: KeyEvent) -> None:
        if event.key == Key.K4 and not event.long:
            self.weiter()

    # --- drawing ----------------------------------------------------------------
    def draw(self, canvas: Canvas) -> None:
        state = self.state
        solo = self.table.solo
        revealed = state.revealed
        right = f"Karte {len(revealed)}/{REVEALS}"  # "Turm N" is a tower's number elsewhere
        title = "Besenbingo"
        if solo is not None:
            title = f"Durchgang {solo['round']}/{solo['rounds']}"
        y = canvas.title(title, right)
        canvas.rect((4, y + 1, 43, y + 30))
        canvas.text_center(y + 6, str(state.current_tower) if revealed else "?", LARGE, 4, 44)
        x = 50
        canvas.text((x, y), "Schon da:", SMALL)
        shown = " ".join(map(str, revealed)) or "-"
        canvas.text((x, y + 9), shown, SMALL)
        deck = max(0, len(state.towers_left()) - 1)  # the silent tower lies apart
        canvas.text((x, y + 18), f"Im Stapel: {deck}", SMALL)
        to_beat = solo.get("to_beat") if solo is not None else None
        last = "Stiller Turm: ?" if to_beat is None else f"Zu schlagen: {to_beat}"
        fits = canvas.text_width(last, SMALL) <= WIDTH - x
        canvas.text((x, y + 27), last, SMALL if fits else TINY)
        status, size = fit_line(self.status_line(), WIDTH - 2, [s.name for s in self.table.seats])
        top = y + 35 if size == SMALL else y + 36
        canvas.text((2, top), status, size, box=(2, y + 35, WIDTH - 1, 54))

    def status_line(self) -> str:
        table = self.table
        if table.take_back_offer is not None and table.news:
            return table.news  # what was just crossed, while Zurück may take it back
        thinking = table.thinking
        if thinking is not None:
            return f"{table.name(thinking)} streicht ..."
        return STATUS[table.phase]

    def legend(self) -> list[str]:
        """The signs of the sheets in words: the witches' and copilots' letters of the
        templates in play, the score bar's rows and fields."""
        return legend_pages([sheet.template for sheet in self.state.sheets])

    def summary(self) -> dict[str, Any]:
        state = self.state
        return {
            "screen": "besenbingo.tower",
            "mode": self.table.mode,
            "revealed": state.revealed,
            "tower": state.current_tower,
            "towers_left": len(state.towers_left()),
            "scores": [] if self.table.paper else state.scores(),
        }

    def spoken(self) -> list[Line]:
        """News: the Durchgang (solo), each tower turned ("Turm 5"), each human's cross.
        Focus: what Weiter does now, or who crosses. The rest: the towers so far, the
        stack, the scores."""
        table = self.table
        state = self.state
        lines = []
        solo = table.solo
        if solo is not None:
            to_beat = solo.get("to_beat")
            beat = f", zu schlagen: {punkte(to_beat)}" if to_beat is not None else ""
            lines.append(news(("durchgang", solo["round"]), f"Durchgang {solo['round']} von "
                              f"{solo['rounds']}{beat}"))  # fmt: skip
        if state.revealed:
            turned = len(state.revealed)
            said = f"Karte {turned} von {REVEALS}: Turm {state.current_tower}"
            lines.append(news(("turm", turned), said))
        if not table.paper:
            for seat in table.humans():
                moves = state.sheets[seat].moves
                if moves:
                    crossed = cross_said(state.sheets[seat].template, moves[-1])
                    said = f"{table.name(seat)} streicht {crossed}"
                    lines.append(news(("kreuz", seat, len(moves)), said))
        if table.thinking is not None:
            lines.append(describe(f"{table.name(table.thinking)} streicht"))
        elif table.phase in STATUS_SAID:
            lines.append(focus(STATUS_SAID[table.phase]))
        shown = listing([str(t) for t in state.revealed]) or "noch keiner"
        lines.append(describe(f"Schon aufgedeckt: {shown}"))
        deck = max(0, len(state.towers_left()) - 1)
        lines.append(describe(f"Im Stapel: {count(deck, 'Karte', 'Karten', female=True)}"))
        if not table.paper:
            scores = state.scores()
            lines.extend(
                describe(f"{table.name(s)}: {punkte(scores[s])}") for s in range(len(scores))
            )
        return lines


class _InGame(Screen):
    """A screen above the tower screen (the pause menu comes from the tower screen)."""

    def __init__(self, game: TowerScreen) -> None:
        self.game = game
        self.table: BesenbingoTable = game.table


class HandoverScreen(_InGame):
    """Between two humans: the next one takes the box, the others look away."""

    def __init__(self, game: TowerScreen, sheet: SheetScreen) -> None:
        super().__init__(game)
        self.sheet = sheet

    def softkeys(self) -> list[SoftKey | None]:
        return [None, None, None, SoftKey("Los", "\n ")]

    def on_key(self, event: KeyEvent) -> None:
        if event.key == Key.K4 and not event.long:
            self.app.replace(self.sheet)

    def draw(self, canvas: Canvas) -> None:
        y = canvas.title("Besenbingo", f"Turm {self.table.state.current_tower}")
        turn = f"{self.table.name(self.sheet.seat)} ist dran"
        canvas.text_center(y + 6, turn, fitting(turn, WIDTH - 2, (TEXT, SMALL)))
        canvas.text_center(y + 24, "Die anderen schauen weg.", SMALL)

    def summary(self) -> dict[str, Any]:
        return {"screen": "besenbingo.handover", "seat": self.sheet.seat}

    def spoken(self) -> list[Line]:
        name = self.table.name(self.sheet.seat)
        return [focus(f"{name} ist dran. Die anderen schauen weg. Taste 4: Los.")]


class SheetScreen(_InGame):
    """A seat's Bingo-Vorlage: the grid, or the score bar (K3); K1 the witch, K2 the row.

    The choice may be any witch next to the tower and any row; a choice the rules do
    not allow is refused with the reason. With `readonly` it only shows the sheet.
    """

    def __init__(self, game: TowerScreen, seat: int, readonly: bool = False) -> None:
        super().__init__(game)
        self.seat = seat
        self.readonly = readonly
        self.page = "feld"
        self.cell: int | None = None
        self.row = "minus"
        choices = self.table.state.choices(seat)
        if choices and not readonly:  # the most points now (never a minus field where a
            best = max(choices, key=lambda c: c["gain"])  # witch lands): the first of them
            self.cell = best.get("cell")
            self.row = best["row"]
        if self.cell is None and self.candidates():
            self.cell = self.candidates()[0]

    @property
    def template(self) -> Template:
        return self.table.state.sheets[self.seat].template

    def candidates(self) -> tuple[int, ...]:
        """The witch cells next to the revealed tower."""
        tower = self.table.state.current_tower
        return self.template.neighbours(tower) if tower and not self.readonly else ()

    def action(self) -> int:
        if self.row == "minus" or self.cell is None:
            return MINUS
        return encode(self.cell, self.row)

    def choice(self) -> dict[str, Any] | None:
        """The selection as one of the legal choices, None when the rules forbid it."""
        action = self.action()
        return next((c for c in self.table.state.choices(self.seat) if c["action"] == action), None)

    # --- keys ---------------------------------------------------------------
    def tip_offered(self) -> bool:
        """The Leiste page's K3 turns to the Tipp (one human at the table, crossing now)."""
        table = self.table
        return not self.readonly and table.tip_allowed() and table.human_waiting() == self.seat

    def softkeys(self) -> list[SoftKey | None]:
        if self.page == "feld":
            page = SoftKey("Leiste", "b")
        else:
            page = SoftKey("Tipp", "bt") if self.tip_offered() else SoftKey("Feld", "b")
        if self.readonly:
            return [None, None, page, SoftKey("Zurück", "\x08\n")]
        return [SoftKey("Hexe", "h"), SoftKey("Reihe", "r"), page, SoftKey("Streich", "\n ")]

    def on_key(self, event: KeyEvent) -> None:
        if event.long:
            return
        if event.key == Key.K3:
            tip = self.page == "leiste" and self.tip_offered()
            self.page = "leiste" if self.page == "feld" else "feld"
            if tip:
                self.app.push(TipScreen(self.table, self.cross_action))
        elif self.readonly:
            if event.key == Key.K4:
                self.app.pop()
        elif event.key == Key.K1:
            self.next_witch()
        elif event.key == Key.K2:
            self.row = BAR_ROWS[(BAR_ROWS.index(self.row) + 1) % len(BAR_ROWS)]
        elif event.key == Key.K4:
            self.cross()

    def next_witch(self) -> None:
        """The next witch next to the tower, with her first allowed row if she has one."""
        cells = self.candidates()
        if not cells:
            return
        i = cells.index(self.cell) if self.cell in cells else -1
        self.cell = cells[(i + 1) % len(cells)]
        rows = [c["row"] for c in self.table.state.choices(self.seat) if c.get("cell") == self.cell]
        if rows:
            self.row = rows[0]
        elif self.row == "minus":
            self.row = "hexe"

    def cross(self) -> None:
        """Cross the chosen move on the table, or show why the rules refuse it."""
        self.cross_action(self.action())

    def cross_action(self, action: int) -> None:
        """Cross a move (the chosen one, or the Tipp's) and go back to the tower."""
        try:
            self.table.command(self.seat, action)
        except IllegalActionError as refused:
            self.app.push(Message("Nicht erlaubt", str(refused)))
            return
        if self.app.top is self:
            self.app.pop()

    # --- drawing -------------------------------------------------------------
    def draw(self, canvas: Canvas) -> None:
        if self.page == "feld":
            self.draw_grid(canvas)
            self.draw_panel(canvas)
        else:
            self.draw_bar(canvas)

    def draw_grid(self, canvas: Canvas) -> None:
        """The 4x4 grid: towers by number, witches as codes ("WKa": Walpurga with Katze),
        the revealed tower framed, landed witches hatched, the chosen witch inverted."""
        sheet = self.table.state.sheets[self.seat]
        tower = self.table.state.current_tower
        w, h = 18, 13
        for index in range(SIZE * SIZE):
            x, y = (index % SIZE) * w, (index // SIZE) * h
            canvas.rect((x, y, x + w, y + h))
            inner = (x + 1, y + 1, x + w - 1, y + h - 1)
            cell = self.template.cell(index)
            if isinstance(cell, WitchField):
                code = field_code(self.template, cell.witch, cell.copilot)
                if index in sheet.crossed:
                    canvas.hatch(inner)
                else:
                    canvas.text_center(y + 3, code, SMALL, x + 1, x + w)
                if index == self.cell and not self.readonly:
                    canvas.invert(inner)
            else:
                canvas.text_center(y + 3, str(cell), SMALL, x + 1, x + w)
                if cell == tower and not self.readonly:
                    canvas.rect((x + 2, y + 2, x + w - 2, y + h - 2))

    def draw_panel(self, canvas: Canvas) -> None:
        """Right of the grid: who, which tower, the points, and the chosen move."""
        state = self.table.state
        x = 76
        canvas.text((x, 0), short_name(self.table.name(self.seat), 10), SMALL)
        canvas.text((x, 8), f"Turm {state.current_tower or '-'} {state.scores()[self.seat]}P", TINY)
        canvas.line((x, 15, WIDTH - 1, 15))
        if self.readonly:
            self.draw_template_name(canvas, x, 18)
            return
        field = self.template.witch_field(self.cell) if self.cell is not None else None
        if self.row == "minus":
            canvas.text((x, 18), "Minusfeld", SMALL)
            if [c["action"] for c in state.choices(self.seat)] == [MINUS]:
                canvas.text((x, 26), "nichts passt", TINY)
        elif field is not None:
            canvas.text((x, 18), short_name(field.witch, 10), SMALL)
            canvas.text((x, 26), f"mit {field.copilot}", TINY)
        canvas.text((x, 33), f"> {ROW_TITLES.get(self.row, 'Minus')}", SMALL)
        choice = self.choice()
        canvas.text((x, 41), "nicht erlaubt" if choice is None else gain_text(choice["gain"]), TINY)
        allowed = len(state.choices(self.seat))
        canvas.text((x, 48), f"{allowed} {'Zug geht' if allowed == 1 else 'Züge gehen'}", TINY)

    def draw_template_name(self, canvas: Canvas, x: int, y: int) -> None:
        """The template's name in the panel: small, else tiny, else small on two lines
        with a hyphen ("Walpurgi-" "snacht")."""
        name = self.template.name
        width = WIDTH - x
        for size in (SMALL, TINY):
            if canvas.text_width(name, size) <= width:
                canvas.text((x, y), name, size)
                return
        per_line = width // canvas.text_width("x", SMALL)
        canvas.text((x, y), name[: per_line - 1] + "-", SMALL)
        canvas.text((x, y + 8), name[per_line - 1 : 2 * per_line - 1], SMALL)

    def bar_fields(self, row: str) -> list[tuple[str, int]]:
        """(text, value) of each field of a score-bar row."""
        t = self.template
        if row == "minus":
            return [(bar_field_text(t, row, i), v) for i, v in enumerate(t.minus)]
        if row == "kombi":
            return [(bar_field_text(t, row, 0), 0), (bar_field_text(t, row, 1), t.kombi_value)]
        return [(bar_field_text(t, row, i), f.value) for i, f in enumerate(t.row(row))]

    def draw_bar(self, canvas: Canvas) -> None:
        """The score bar: a row per line, crossed fields inverted, the field the chosen
        move would cross framed; a long row scrolls to keep its next field in view."""
        progress = self.table.state.sheets[self.seat].progress
        left = 19
        for r, row in enumerate(BAR_ROWS):
            y = r * 11
            canvas.text((0, y + 2), BAR_LABELS[row], TINY)
            if row == self.row and not self.readonly:
                canvas.invert((0, y + 1, left - 2, y + 8))
            fields = self.bar_fields(row)
            done = progress[r]
            widths = [len(text) * 4 + 3 for text, _ in fields]
            first = 0
            while first < done and sum(widths[first:]) + 2 * (len(widths) - first) > WIDTH - left:
                first += 1
            x = left
            if first:
                canvas.text((left - 1, y + 2), "<", TINY)
                x += 4
            for i in range(first, len(fields)):
                text = fields[i][0]
                box = (x, y + 1, x + widths[i] - 1, y + 9)
                if box[2] >= WIDTH:
                    break
                canvas.text((x + 2, y + 2), text, TINY)
                if i < done:
                    canvas.invert(box)
                elif i == done and row == self.row and not self.readonly:
                    canvas.rect(box)
                x += widths[i] + 2

    def summary(self) -> dict[str, Any]:
        sheet = self.table.state.sheets[self.seat]
        return {
            "screen": "besenbingo.sheet",
            "seat": self.seat,
            "page": self.page,
            "template": self.template.name,
            "crossed": sorted(sheet.crossed),
            "bar": dict(zip(BAR_ROWS, sheet.progress, strict=True)),
            "score": sheet.score,
            "selected": None if self.readonly else self.action(),
            "allowed": None if self.readonly else self.choice() is not None,
        }

    def spoken(self) -> list[Line]:
        """Whose sheet, the tower, the points; the witch and the row chosen, whether the
        rules allow it and what it gains; on the Leiste each row's crossed fields."""
        state = self.table.state
        name = self.table.name(self.seat)
        tower = state.current_tower
        head = f"Blatt von {name}" + (f", Turm {tower}" if tower and not self.readonly else "")
        lines = [focus(f"{head}, {punkte(state.scores()[self.seat])}")]
        if self.page != "feld":
            progress = state.sheets[self.seat].progress
            rows = [
                f"{ROW_TITLES.get(row, 'Minus')}: {done} von {len(self.bar_fields(row))}"
                for row, done in zip(BAR_ROWS, progress, strict=True)
            ]
            lines.append(focus("Leiste, gestrichen: " + ", ".join(rows)))
            return lines
        if self.readonly:
            lines.append(focus(f"Vorlage {self.template.name}"))
            return lines
        field = self.template.witch_field(self.cell) if self.cell is not None else None
        if self.row == "minus" or field is None:
            only = [c["action"] for c in state.choices(self.seat)] == [MINUS]
            lines.append(focus("Minusfeld" + (": nichts passt" if only else "")))
        else:
            lines.append(focus(f"{field.witch} mit {field.copilot}, Reihe {ROW_TITLES[self.row]}"))
        choice = self.choice()
        if choice is None:
            lines.append(focus("nicht erlaubt"))
        else:
            gain = choice["gain"]
            lines.append(focus(f"{'plus ' if gain > 0 else ''}{punkte(gain)}"))
        allowed = [c["text"].replace(" → ", ", ") for c in state.choices(self.seat)]
        lines.append(describe(f"Erlaubt: {'; '.join(allowed)}"))
        return lines


class ResultsScreen(_InGame):
    """After a tower: what each computer crossed and its running score; K3 shows its sheet."""

    ROWS = 5

    def __init__(self, game: TowerScreen) -> None:
        super().__init__(game)
        self.index = 0

    @property
    def seats(self) -> list[int]:
        return self.table.computers()

    def lines(self) -> list[tuple[int, str, int]]:
        state = self.table.state
        result = []
        for seat in self.seats:
            sheet = state.sheets[seat]
            crossed = move_text(sheet.template, sheet.moves[-1]) if sheet.moves else "-"
            result.append((seat, crossed, sheet.score))
        return result

    def softkeys(self) -> list[SoftKey | None]:
        many = len(self.seats) > 1
        return [
            SoftKey("Auf", "k") if many else None,
            SoftKey("Ab", "j") if many else None,
            SoftKey("Blatt", "b"),
            SoftKey("Weiter", "\n "),
        ]

    def on_key(self, event: KeyEvent) -> None:
        if event.long:
            return
        n = len(self.seats)
        if event.key == Key.K1:
            self.index = (self.index - 1) % n
        elif event.key == Key.K2:
            self.index = (self.index + 1) % n
        elif event.key == Key.K3:
            self.app.push(SheetScreen(self.game, self.seats[self.index], readonly=True))
        elif event.key == Key.K4:  # Weiter: on to the next tower at once (one press)
            self.app.pop()
            if self.app.top is self.game:
                self.game.weiter()

    def draw(self, canvas: Canvas) -> None:
        y = canvas.title(f"Turm {self.table.state.current_tower}: Computer", "Punkte")
        top = (self.index // self.ROWS) * self.ROWS
        for row, (seat, crossed, points) in enumerate(self.lines()[top : top + self.ROWS]):
            yy = y + row * 9
            name = short_name(self.table.name(seat), 9)
            score = str(points)
            right = WIDTH - 2 - canvas.text_width(score, SMALL) - 3
            canvas.text((2, yy), f"{name:<9} {crossed}", SMALL, box=(2, yy, right, yy + 7))
            canvas.text_right(WIDTH - 2, yy, score, SMALL)
            if top + row == self.index and len(self.seats) > 1:
                canvas.invert((0, yy - 1, WIDTH - 1, yy + 7))

    def summary(self) -> dict[str, Any]:
        return {
            "screen": "besenbingo.results",
            "tower": self.table.state.current_tower,
            "selected": self.index,
            "lines": [
                {"name": self.table.name(s), "crossed": c, "score": p} for s, c, p in self.lines()
            ],
        }

    def spoken(self) -> list[Line]:
        """What each computer crossed at the tower and its score; the one chosen."""
        state = self.table.state
        said = []
        for seat in self.seats:
            sheet = state.sheets[seat]
            crossed = cross_said(sheet.template, sheet.moves[-1]) if sheet.moves else "nichts"
            said.append(f"{self.table.name(seat)} streicht {crossed}, {punkte(sheet.score)}")
        lines = [focus(f"Turm {state.current_tower}: die Computer"), focus(". ".join(said))]
        if len(self.seats) > 1:
            lines.append(focus(f"Gewählt: {self.table.name(self.seats[self.index])}"))
        return lines


class EndScreen(_InGame):
    """The end: the silent tower revealed, then places and scores (ties share a place);
    solo: the score against the one to beat; paper: every tower in its order."""

    ROWS = 5

    def __init__(self, game: TowerScreen) -> None:
        super().__init__(game)
        self.page = 0
        self.next_sheet = 0

    def lines(self) -> list[tuple[int, str, int, int | None]]:
        """(place, name, score, Bestenliste points or None) of each sheet, best first."""
        state = self.table.state
        places, scores = state.places(), state.scores()
        points = self.table.points(state)
        return sorted(
            ((places[s], self.table.name(s), scores[s], points[s]) for s in range(len(scores))),
            key=lambda line: line[:3],
        )

    def rows(self) -> list[tuple[int, str, int]]:
        return [line[:3] for line in self.lines()]

    @property
    def pages(self) -> int:
        return max(1, -(-len(self.rows()) // self.ROWS))

    @property
    def rematch_offered(self) -> bool:
        """Nochmal: at the end of a Durchgang, or of a solo series (not between its
        Durchgänge, where Weiter starts the next one)."""
        solo = self.table.solo
        return solo is None or solo["round"] >= solo["rounds"]

    def softkeys(self) -> list[SoftKey | None]:
        paging = self.pages > 1 and not self.table.paper
        sheets = SoftKey("Blatt", "b") if not self.table.paper else None
        again = SoftKey("Nochmal", "a") if self.rematch_offered else None
        return [SoftKey(">", "l") if paging else None, again, sheets, SoftKey("Weiter", "\n ")]

    def on_key(self, event: KeyEvent) -> None:
        if event.long:
            return
        if event.key == Key.K1:
            self.page = (self.page + 1) % self.pages
        elif event.key == Key.K2 and self.rematch_offered:
            launch(self.app, GAME, *self.table.rematch())
        elif event.key == Key.K3 and not self.table.paper:
            self.show_next_sheet()
        elif event.key == Key.K4:
            self.game.next_round()

    def show_next_sheet(self) -> None:
        """Every finished sheet, one after the other (Zurück comes back here)."""
        seat = self.next_sheet % len(self.table.seats)
        self.next_sheet += 1
        self.app.push(SheetScreen(self.game, seat, readonly=True))

    def draw(self, canvas: Canvas) -> None:
        state = self.table.state
        solo = self.table.solo
        if self.table.paper:
            title = "Ende"
        elif solo is not None:
            title = f"Durchgang {solo['round']}/{solo['rounds']}"
        else:
            title = "Endstand"
        right = f"{self.page + 1}/{self.pages}" if self.pages > 1 and not self.table.paper else ""
        y = canvas.title(title, right)
        canvas.text_center(y, "Stiller", TINY, 0, 36)
        canvas.text_center(y + 6, "Turm", TINY, 0, 36)
        canvas.rect((4, y + 13, 31, y + 37))
        canvas.text_center(y + 16, str(state.silent_tower), LARGE, 4, 32)
        x = 40
        if self.table.paper:
            canvas.text((x, y), "Die Türme:", SMALL)
            canvas.wrap((x, y + 9), " ".join(map(str, state.revealed)), SMALL, WIDTH - x)
            canvas.wrap((x, y + 27), "Zählt eure Punkte!", SMALL, WIDTH - x)
            return
        if solo is not None:
            to_beat = solo.get("to_beat")
            canvas.text((x, y), f"Punkte: {state.scores()[0]}", TEXT)
            if to_beat is None:
                canvas.text((x, y + 11), "Erster Durchgang", SMALL)
            else:
                canvas.text((x, y + 11), f"Zu schlagen: {to_beat}", SMALL)
                verdict = "Geschafft!" if self.table.solo_beaten else "Nicht geschafft."
                canvas.text((x, y + 19), verdict, SMALL)
            canvas.text((x, y + 27), f"Bestenliste +{self.table.points(state)[0]}", TINY)
            template = state.sheets[0].template.name
            canvas.text((x, y + 34), short_name(template, (WIDTH - x) // 4), TINY)
            return
        lines = self.lines()[self.page * self.ROWS : (self.page + 1) * self.ROWS]
        for i, (place, name, score, points) in enumerate(lines):
            yy = y + i * 9
            canvas.text((x, yy), f"{place}. {short_name(name, 7)}", SMALL)
            canvas.text_right(WIDTH - 19, yy, str(score), SMALL)
            if points is not None:  # a human's Bestenliste points
                canvas.text_right(WIDTH - 1, yy + 1, f"+{points}", TINY)

    def summary(self) -> dict[str, Any]:
        state = self.table.state
        return {
            "screen": "besenbingo.end",
            "silent_tower": state.silent_tower,
            "revealed": state.revealed,
            "rows": [] if self.table.paper else [list(r) for r in self.rows()],
            "bestenliste": [[n, p] for _, n, _, p in self.lines() if p is not None],
            "solo": self.table.solo,
        }

    def spoken(self) -> list[Line]:
        """The silent tower; then every tower (paper), the score against the one to beat
        (solo), or the places with their scores and Bestenliste points."""
        table = self.table
        state = table.state
        lines = [focus(f"Der stille Turm ist Turm {state.silent_tower}")]
        if table.paper:
            towers = listing([str(t) for t in state.revealed])
            lines.append(focus(f"Die Türme: {towers}. Zählt eure Punkte!"))
            return lines
        solo = table.solo
        if solo is not None:
            lines.append(focus(f"Durchgang {solo['round']} von {solo['rounds']}: "
                               f"{punkte(state.scores()[0])}"))  # fmt: skip
            to_beat = solo.get("to_beat")
            if to_beat is None:
                lines.append(focus("Der erste Durchgang"))
            else:
                verdict = "Geschafft!" if table.solo_beaten else "Nicht geschafft."
                lines.append(focus(f"Zu schlagen: {punkte(to_beat)}. {verdict}"))
            lines.append(focus(f"Bestenliste plus {table.points(state)[0]}"))
            return lines
        rows = [
            f"Platz {place}: {name}, {punkte(score)}"
            + (f", Bestenliste plus {points}" if points is not None else "")
            for place, name, score, points in self.lines()
        ]
        lines.append(focus(". ".join(rows)))
        return lines
