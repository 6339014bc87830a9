"""Besenbingo on the panel: the tower cards, each seat's sheet, the computers' crosses, the end.

Two modes. "Papier" (Spielleiter for printed templates): the box only turns the tower
cards; OK reveals the next, and the silent tower (stiller Turm) at the end. "Digital":
the box keeps every sheet; a human crosses on their own sheet with the soft keys
(K1 the witch, K2 the row), a computer on its own template in the background. The
solo variant plays a number of Durchgänge, each on a new template, against the
previous score, which the store keeps.

The options of a game (mode, a template per seat, solo rounds) are chosen on a screen
of its own after the seats: the menu first stores a record without them, which
`Setup` replaces by the real one before the first tower.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spielleiter.games.base import CHANCE, TERMINAL, Seat, sample_chance
from spielleiter.games.besenbingo.rules import MINUS, REVEALS, ROW_TITLES, decode, encode
from spielleiter.games.besenbingo.templates import ROWS, SIZE, Template, WitchField, default_boards
from spielleiter.hal.keys import Key, KeyEvent
from spielleiter.session import Session
from spielleiter.ui.canvas import WIDTH, Canvas
from spielleiter.ui.fonts import LARGE, SMALL, TEXT, TINY
from spielleiter.ui.game_screen import GameScreen
from spielleiter.ui.screen import Screen, SoftKey
from spielleiter.ui.widgets import Item, ListMenu, Message

GAME = "besenbingo"
DIGITAL = "digital"
PAPIER = "papier"
ROUND_CHOICES = (1, 3, 5)
ROUNDS_KEY = "besenbingo.rounds"
"""Store value: the solo rounds chosen last."""
SOLO_KEY = "besenbingo.solo.last"
"""Store value: {player name: score of their latest solo Durchgang}, the score to beat."""
BOT_LEVELS = ("leicht", "normal", "stark")
STAND_IN = Seat("Spielleiter", "computer", "papier")
"""Paper mode's one seat: the engine wants a move per sheet after each tower, so the box
fills a sheet nobody sees with the first legal move; the record then replays as usual."""
BAR_ROWS = (*ROWS, "minus")
BAR_LABELS = {"hexe": "Hexe", "copilot": "Cop.", "paar": "Paar", "kombi": "Kom.", "minus": "Min."}
COPILOT_CODES = {"Katze": "Ka", "Rabe": "Rb", "Ratte": "Rt"}


# --- short names for the small panel ---------------------------------------------


def witch_codes(template: Template) -> dict[str, str]:
    """The shortest prefix that tells each of the template's witches apart ("W", "M")."""
    names = [w.name for w in template.witches]
    codes = {}
    for name in names:
        for n in range(1, len(name) + 1):
            if not any(o != name and o[:n] == name[:n] for o in names):
                codes[name] = name[:n]
                break
        else:
            codes[name] = name
    return codes


def copilot_code(copilot: str) -> str:
    return COPILOT_CODES.get(copilot, copilot[:2])


def field_code(template: Template, witch: str | None, copilot: str | None) -> str:
    """A witch field or bar field in two to four letters: "WKa", "M", "Rb"."""
    codes = witch_codes(template)
    return (codes.get(witch, "") if witch else "") + (copilot_code(copilot) if copilot else "")


def move_text(template: Template, action: int) -> str:
    """What a move crossed, short: "WKa Hexe", "Minusfeld"."""
    if action == MINUS:
        return "Minusfeld"
    cell, row = decode(action)
    field = template.witch_field(cell)
    assert field is not None
    return f"{field_code(template, field.witch, field.copilot)} {ROW_TITLES[row]}"


def _name(session: Session, seat: int) -> str:
    return session.seats[seat].name


# --- starting a game -----------------------------------------------------------------


def begin(app: Any, params: dict[str, Any], seats: list[Seat]) -> None:
    """Digital play, after the seats: the templates and solo rounds; no record before Start."""
    app.push(Setup(app, seats).menu())


def begin_paper(app: Any, params: dict[str, Any], seats: list[Seat]) -> None:
    """Paper play: the box only turns the tower cards, so nobody needs a seat."""
    new_game(app, [], PAPIER)


def start(app: Any, session: Session) -> Screen:
    """The game screen of a new or resumed Durchgang."""
    return TowerScreen(app, session)


def board_param(app: Any, name: str) -> str | dict[str, Any]:
    """A template for the engine's parameters: a shipped one by name, others as JSON."""
    data = app.store.boards(GAME)[name]
    return name if default_boards().get(name) == data else data


def new_game(
    app: Any,
    seats: Sequence[Seat],
    mode: str = DIGITAL,
    templates: Sequence[str] | None = None,
    rounds: int = 1,
    round_index: int = 0,
    solo_boards: Sequence[str] | None = None,
) -> TowerScreen:
    """Store a new Durchgang and show it (templates: board names, one per seat).

    In paper mode the players' seats are not kept: the box only turns the towers. A
    solo game (one human) plays `rounds` Durchgänge, each on the next board after the
    first one's (`solo_boards` names them all); the score to beat comes from the store.
    """
    names = list(app.store.boards(GAME))
    meta: dict[str, Any] = {"mode": mode}
    if mode == PAPIER:
        params: dict[str, Any] = {"players": 1}
        seats = [STAND_IN]
    else:
        chosen = list(templates or [names[i % len(names)] for i in range(len(seats))])
        if is_solo(seats):
            if solo_boards is None:
                first = names.index(chosen[0]) if chosen[0] in names else 0
                solo_boards = [names[(first + i) % len(names)] for i in range(rounds)]
            chosen = [solo_boards[round_index]]
            meta["solo"] = {
                "round": round_index + 1,
                "rounds": rounds,
                "boards": list(solo_boards),
                "to_beat": app.store.get_value(SOLO_KEY, {}).get(seats[0].name),
            }
        params = {"players": len(seats), "templates": [board_param(app, n) for n in chosen]}
    session = Session.start(app.store, GAME, params, list(seats), meta)
    app.session = session
    screen = TowerScreen(app, session)
    app.reset(screen)
    return screen


def is_solo(seats: Sequence[Seat]) -> bool:
    """The solo variant: one human alone."""
    return len(seats) == 1 and seats[0].is_human


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

    def __init__(self, app: Any, seats: Sequence[Seat]) -> None:
        self.app = app
        self.seats = list(seats)
        self.names = list(app.store.boards(GAME))
        self.templates = [self.names[i % len(self.names)] for i in range(len(self.seats))]
        rounds = app.store.get_value(ROUNDS_KEY, 1)
        self.rounds = rounds if rounds in ROUND_CHOICES else 1
        self.screen = SetupMenu(self)

    def menu(self) -> SetupMenu:
        self.screen.items = self.items()
        return self.screen

    def items(self) -> list[Item]:
        items = []
        if is_solo(self.seats):
            items.append(Item(lambda: f"Durchgänge: {self.rounds}", self.cycle_rounds))
        for i, seat in enumerate(self.seats):
            items.append(
                Item(
                    lambda i=i, seat=seat: f"{seat.name[:8]}: {self.templates[i]}",
                    lambda i=i: self.cycle_template(i),
                )
            )
        items.append(Item("Start", self.start))
        return items

    def cycle_rounds(self) -> None:
        self.rounds = ROUND_CHOICES[(ROUND_CHOICES.index(self.rounds) + 1) % len(ROUND_CHOICES)]

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
        self.app.store.set_value(ROUNDS_KEY, self.rounds)
        new_game(self.app, self.seats, DIGITAL, self.templates, self.rounds)


# --- the table: towers, turns, computers ------------------------------------------------


class TowerScreen(GameScreen):
    """The tower card in the middle: OK reveals the next; the game's flow lives here."""

    def __init__(self, app: Any, session: Session) -> None:
        super().__init__(app, session)
        meta = session.record.meta
        self.mode = meta.get("mode", DIGITAL)
        self.solo: dict[str, Any] | None = meta.get("solo")
        self.preparing = False
        self.prepared = self.mode == PAPIER or not self.stark_templates()
        self.thinking: int | None = None
        self.results_shown = len(self.state.revealed)
        """Towers whose computer results were shown (none again after a resume)."""

    # --- who is who --------------------------------------------------------
    @property
    def paper(self) -> bool:
        return self.mode == PAPIER

    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.session.seats) if s.is_human]

    def computers(self) -> list[int]:
        return [i for i, s in enumerate(self.session.seats) if not s.is_human]

    def level(self, seat: int) -> str:
        level = self.session.seats[seat].level
        return level if level in BOT_LEVELS else "stark"

    def stark_templates(self) -> list[Template]:
        return [self.state.sheets[s].template for s in self.computers() if self.level(s) == "stark"]

    # --- the flow -------------------------------------------------------------
    def enter(self) -> None:
        if not self.prepared:
            self.prepare()
        else:
            self.advance()

    def prepare(self) -> None:
        """Build the computers' tables off the loop, so each later decision is a look-up."""
        if self.preparing:
            return
        self.preparing = True
        templates = self.stark_templates()

        def work() -> None:
            from spielleiter.games.besenbingo import bots

            for template in templates:
                bots.prepare(template)

        self.app.submit(work, self.ready)

    def ready(self, _: Any) -> None:
        self.preparing = False
        self.prepared = True
        if self.app.top is self:
            self.advance()

    def advance(self) -> None:
        """Set the silent tower aside, fill the stand-in sheet, start a computer, or push the
        screen a human decides on, or the computers' results; else wait for Weiter."""
        state = self.state
        while True:
            if self.session.committed == 0:
                self.session.apply(sample_chance(state, self.app.rng))  # the silent tower
                continue
            player = state.current_player()
            if player in (CHANCE, TERMINAL):
                if not self.paper and self.computers() and self.results_shown < len(state.revealed):
                    self.results_shown = len(state.revealed)
                    self.app.push(ResultsScreen(self))
                return
            if self.paper:
                self.session.apply(state.legal_actions()[0])
                continue
            if self.session.seats[player].is_human:
                sheet = SheetScreen(self, player)
                self.app.push(HandoverScreen(self, sheet) if len(self.humans()) > 1 else sheet)
            elif self.thinking is None:
                self.think(player)
            return

    def think(self, seat: int) -> None:
        """Ask the seat's computer for its move, off the loop."""
        view = self.state.view(seat)
        level = self.level(seat)
        seed = self.app.rng.randrange(2**31)
        self.thinking = seat

        def work() -> int:
            from spielleiter.games.besenbingo import bots

            return int(bots.choose(view, seed, level))

        self.app.submit(work, lambda move: self.computer_moved(seat, move))

    def computer_moved(self, seat: int, move: int) -> None:
        self.thinking = None
        if self.app.session is not self.session or self.state.current_player() != seat:
            return
        self.session.apply(move)
        if self.app.top is self:
            self.advance()

    def human_moved(self, seat: int, action: int) -> None:
        """A human crossed on their sheet: commit it, back to the table, on to the next seat."""
        self.session.apply(action)
        self.app.pop()

    def weiter(self) -> None:
        """Reveal the next tower; after the seventh, the end with the silent tower."""
        if self.busy or not self.prepared:
            return
        state = self.state
        if state.is_terminal():
            self.show_end()
        elif state.current_player() == CHANCE and self.session.committed > 0:
            self.session.apply(sample_chance(state, self.app.rng))
            self.advance()
        else:
            self.advance()

    def show_end(self) -> None:
        """Finish the record once (a solo score goes to the store) and show the end."""
        meta = self.session.record.meta
        if not meta.get("done"):
            if self.solo is not None:
                seat = self.session.seats[0]
                last = dict(self.app.store.get_value(SOLO_KEY, {}))
                last[seat.name] = self.state.scores()[0]
                self.app.store.set_value(SOLO_KEY, last)
            self.session.set_meta(done=True)
            self.session.finish()
        self.app.push(EndScreen(self))

    def next_round(self) -> None:
        """Solo: the next Durchgang on the next template, or back to the main menu."""
        solo = self.solo
        if solo is None or solo["round"] >= solo["rounds"]:
            self.end()
            return
        new_game(
            self.app,
            list(self.session.seats),
            DIGITAL,
            rounds=solo["rounds"],
            round_index=solo["round"],
            solo_boards=solo["boards"],
        )

    @property
    def busy(self) -> bool:
        return self.preparing or self.thinking is not None

    # --- pause menu -------------------------------------------------------------
    def pause_items(self) -> list[Item]:
        return [Item("Verlassen", self.confirm_leave)]

    # --- keys -------------------------------------------------------------------
    def softkeys(self) -> list[SoftKey | None]:
        waiting = not self.busy and self.prepared
        return [None, None, None, SoftKey("Weiter", "\n ") if waiting else None]

    def on_key(self, event: KeyEvent) -> None:
        if event.key == Key.K4 and not event.long:
            self.weiter()

    # --- drawing ----------------------------------------------------------------
    def draw(self, canvas: Canvas) -> None:
        state = self.state
        revealed = state.revealed
        right = f"Karte {len(revealed)}/{REVEALS}"  # "Turm N" is a tower's number elsewhere
        title = "Besenbingo"
        if self.solo is not None:
            title = f"Durchgang {self.solo['round']}/{self.solo['rounds']}"
        y = canvas.title(title, right)
        canvas.rect((4, y + 1, 43, y + 30))
        canvas.text_center(y + 6, str(state.current_tower) if revealed else "?", LARGE, 4, 44)
        x = 50
        canvas.text((x, y), "Schon da:", SMALL)
        shown = " ".join(map(str, revealed)) or "-"
        canvas.text((x, y + 9), shown, SMALL)
        deck = max(0, len(state.towers_left()) - 1)  # the silent tower lies apart
        canvas.text((x, y + 18), f"Im Stapel: {deck}", SMALL)
        to_beat = self.solo.get("to_beat") if self.solo is not None else None
        last = "Stiller Turm: ?" if to_beat is None else f"Zu schlagen: {to_beat}"
        fits = canvas.text_width(last, SMALL) <= WIDTH - x
        canvas.text((x, y + 27), last, SMALL if fits else TINY)
        status = self.status_line()
        fits = canvas.text_width(status, SMALL) <= WIDTH - 2
        canvas.text((2, y + 35 if fits else y + 36), status, SMALL if fits else TINY)

    def status_line(self) -> str:
        state = self.state
        if self.preparing or not self.prepared:
            return "Computer bereiten sich vor ..."
        if self.thinking is not None:
            return f"{_name(self.session, self.thinking)[:14]} streicht ..."
        if state.is_terminal():
            return "Weiter: der stille Turm"
        if not state.revealed:
            return "Weiter: Turm aufdecken"
        if state.current_player() == CHANCE:
            return "Weiter: nächster Turm"
        return "Weiter: streichen"

    def summary(self) -> dict[str, Any]:
        state = self.state
        return {
            "screen": "besenbingo.tower",
            "mode": self.mode,
            "revealed": state.revealed,
            "tower": state.current_tower,
            "towers_left": len(state.towers_left()),
            "scores": [] if self.paper else state.scores(),
        }


class _InGame(Screen):
    """A screen above the table: the pause menu still offers the table's entries."""

    table: TowerScreen

    def pause_items(self) -> list[Item]:
        return self.table.pause_items()


class HandoverScreen(_InGame):
    """Between two humans: the next one takes the box, the others look away."""

    def __init__(self, table: TowerScreen, sheet: SheetScreen) -> None:
        self.table = table
        self.sheet = sheet

    def softkeys(self) -> list[SoftKey | None]:
        return [None, None, None, SoftKey("Los", "\n ")]

    def on_key(self, event: KeyEvent) -> None:
        if event.key == Key.K4 and not event.long:
            self.app.replace(self.sheet)

    def draw(self, canvas: Canvas) -> None:
        y = canvas.title("Besenbingo", f"Turm {self.table.state.current_tower}")
        canvas.text_center(y + 6, f"{_name(self.table.session, self.sheet.seat)} ist dran", TEXT)
        canvas.text_center(y + 24, "Die anderen schauen weg.", SMALL)

    def summary(self) -> dict[str, Any]:
        return {"screen": "besenbingo.handover", "seat": self.sheet.seat}


class SheetScreen(_InGame):
    """A seat's Bingo-Vorlage: the grid, or the score bar (K3); K1 the witch, K2 the row.

    The choice may be any witch next to the tower and any row; a choice the rules do
    not allow is refused with the reason. With `readonly` it only shows the sheet.
    """

    def __init__(self, table: TowerScreen, seat: int, readonly: bool = False) -> None:
        self.table = table
        self.seat = seat
        self.readonly = readonly
        self.page = "feld"
        self.cell: int | None = None
        self.row = "minus"
        choices = table.state.choices(seat)
        if choices and not readonly:
            self.cell = choices[0].get("cell")
            self.row = choices[0]["row"]
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
    def softkeys(self) -> list[SoftKey | None]:
        page = SoftKey("Leiste", "b") if self.page == "feld" else SoftKey("Feld", "b")
        if self.readonly:
            return [None, None, page, SoftKey("Zurück", "\x08\n")]
        return [SoftKey("Hexe", "h"), SoftKey("Reihe", "r"), page, SoftKey("Streich", "\n ")]

    def on_key(self, event: KeyEvent) -> None:
        if event.long:
            return
        if event.key == Key.K3:
            self.page = "leiste" if self.page == "feld" else "feld"
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
        action = self.action()
        if self.choice() is None:
            reason = self.table.state.explain_illegal(action)
            self.app.push(Message("Nicht erlaubt", reason))
            return
        self.table.human_moved(self.seat, action)

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
        canvas.text((x, 0), _name(self.table.session, self.seat)[:10], SMALL)
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
            canvas.text((x, 18), field.witch[:10], SMALL)
            canvas.text((x, 26), f"mit {field.copilot}", TINY)
        canvas.text((x, 33), f"> {ROW_TITLES.get(self.row, 'Minus')}", SMALL)
        choice = self.choice()
        if choice is None:
            canvas.text((x, 41), "nicht erlaubt", TINY)
        else:
            canvas.text((x, 41), f"{choice['gain']:+d} Punkte", TINY)
        canvas.text((x, 48), f"{len(state.choices(self.seat))} erlaubt", TINY)

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
            return [(str(v), v) for v in t.minus]
        if row == "kombi":
            first, second = t.kombi
            return [
                (field_code(t, first.witch, first.copilot), 0),
                (field_code(t, second.witch, second.copilot) + str(second.value), second.value),
            ]
        return [(field_code(t, f.witch, f.copilot) + str(f.value), f.value) for f in t.row(row)]

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


class ResultsScreen(_InGame):
    """After a tower: what each computer crossed and its running score; K3 shows its sheet."""

    ROWS = 5

    def __init__(self, table: TowerScreen) -> None:
        self.table = table
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
            self.app.push(SheetScreen(self.table, self.seats[self.index], readonly=True))
        elif event.key == Key.K4:
            self.app.pop()

    def draw(self, canvas: Canvas) -> None:
        y = canvas.title(f"Turm {self.table.state.current_tower}: Computer", "Pkt")
        top = (self.index // self.ROWS) * self.ROWS
        for row, (seat, crossed, points) in enumerate(self.lines()[top : top + self.ROWS]):
            yy = y + row * 9
            name = _name(self.table.session, seat)[:9]
            canvas.text((2, yy), f"{name:<9} {crossed}", SMALL)
            canvas.text_right(WIDTH - 2, yy, str(points), SMALL)
            if top + row == self.index and len(self.seats) > 1:
                canvas.invert((0, yy - 1, WIDTH - 1, yy + 7))

    def summary(self) -> dict[str, Any]:
        return {
            "screen": "besenbingo.results",
            "tower": self.table.state.current_tower,
            "lines": [
                {"name": _name(self.table.session, s), "crossed": c, "score": p}
                for s, c, p in self.lines()
            ],
        }


class EndScreen(_InGame):
    """The end: the silent tower revealed, then places and scores (ties share a place);
    solo: the score against the one to beat; paper: every tower in its order."""

    ROWS = 5

    def __init__(self, table: TowerScreen) -> None:
        self.table = table
        self.page = 0
        self.next_sheet = 0

    def rows(self) -> list[tuple[int, str, int]]:
        state = self.table.state
        places = state.places()
        scores = state.scores()
        return sorted(
            (places[s], _name(self.table.session, s), scores[s])
            for s in range(len(self.table.session.seats))
        )

    @property
    def pages(self) -> int:
        return max(1, -(-len(self.rows()) // self.ROWS))

    def softkeys(self) -> list[SoftKey | None]:
        paging = self.pages > 1 and not self.table.paper
        sheets = SoftKey("Blatt", "b") if not self.table.paper else None
        return [SoftKey(">", "l") if paging else None, None, sheets, SoftKey("Weiter", "\n ")]

    def on_key(self, event: KeyEvent) -> None:
        if event.long:
            return
        if event.key == Key.K1:
            self.page = (self.page + 1) % self.pages
        elif event.key == Key.K3 and not self.table.paper:
            self.show_next_sheet()
        elif event.key == Key.K4:
            self.table.next_round()

    def show_next_sheet(self) -> None:
        """Every finished sheet, one after the other (Zurück comes back here)."""
        seat = self.next_sheet % len(self.table.session.seats)
        self.next_sheet += 1
        self.app.push(SheetScreen(self.table, seat, readonly=True))

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
            score = state.scores()[0]
            to_beat = solo.get("to_beat")
            canvas.text((x, y), f"Punkte: {score}", TEXT)
            if to_beat is None:
                canvas.text((x, y + 13), "Erster Durchgang", SMALL)
            else:
                canvas.text((x, y + 13), f"Zu schlagen: {to_beat}", SMALL)
                verdict = "Geschafft!" if score > to_beat else "Nicht geschafft."
                canvas.text((x, y + 22), verdict, SMALL)
            canvas.text((x, y + 33), self.table.state.sheets[0].template.name[:17], TINY)
            return
        rows = self.rows()[self.page * self.ROWS : (self.page + 1) * self.ROWS]
        for i, (place, name, score) in enumerate(rows):
            yy = y + i * 9
            canvas.text((x, yy), f"{place}. {name[:10]}", SMALL)
            canvas.text_right(WIDTH - 2, yy, str(score), SMALL)

    def summary(self) -> dict[str, Any]:
        state = self.table.state
        return {
            "screen": "besenbingo.end",
            "silent_tower": state.silent_tower,
            "revealed": state.revealed,
            "rows": [] if self.table.paper else [list(r) for r in self.rows()],
            "solo": self.table.solo,
        }
