"""Maskenball der Käfer on the panel: the flower, the spin, the flight, the ants, the end.

One game screen changes its picture with what the game waits for:

* a spin: the flower (each beetle's petal letter and its five dots as letters, "Flug"
  or "Ball" beside it), the ants on the stump and the vine, the last event;
* the electronic arrow turning, then the result large ("Blütenblatt Rot" / "zwischen
  zwei Blütenblättern");
* a flight: who flies, the beetles it may visit (struck through: forbidden), the tip;
* physical play: after a visit the players say with the soft keys whether the two
  swapped or turned away; a report that contradicts earlier visits asks to confirm.

The flow is the table's (:class:`~spielleiter.games.maskenball.table.MaskenballTable`):
it draws the hidden groups in digital play and every electronic spin, committed before
the arrow turns into its sector here; a sensor's spin (the box's
:class:`~spielleiter.spinner_service.SpinnerService`) is handed to it.
"""

from __future__ import annotations

import random
import textwrap
from collections.abc import Sequence
from functools import partial
from typing import Any

from spielleiter.games.base import Seat
from spielleiter.games.catalog import Variant
from spielleiter.games.maskenball import ENTRY
from spielleiter.games.maskenball.rules import (
    BEETLES,
    COLOUR_CODES,
    COLOURS,
    FLY,
    HOME,
    PENDING_CHOOSE,
    PENDING_REPORT,
    PENDING_SPIN,
    PENDING_VISIT,
    PENDING_VISIT_OR_HOME,
    SECTORS,
    SPIN,
    VISIT,
    colour_letters,
    is_petal,
    petal_of,
)
from spielleiter.games.maskenball.spinner_setup import (
    LEAF,
    draw_dial,
    sector_name,
    sector_short,
)
from spielleiter.games.maskenball.table import SEAT, MaskenballTable, visit_news
from spielleiter.hal.keys import Key, KeyEvent
from spielleiter.spinner_service import ELECTRONIC, Ambiguous, Outcome, Sector, SpinnerService
from spielleiter.ui import speech as said
from spielleiter.ui.canvas import WIDTH, Canvas, fit_line
from spielleiter.ui.fonts import LARGE, SMALL, TEXT, TINY
from spielleiter.ui.game_screen import GameScreen
from spielleiter.ui.game_screen import StandingsScreen as BaseStandings
from spielleiter.ui.screen import App, Screen, SoftKey
from spielleiter.ui.speech import Line
from spielleiter.ui.widgets import Confirm, Item

__all__ = ["EndScreen", "MaskenballScreen", "WhichSectorScreen", "setup", "start", "visit_news"]

RESULT_S = 1.5
"""How long a spin's result stays large on the screen."""
DECISIONS = (PENDING_VISIT, PENDING_VISIT_OR_HOME, PENDING_CHOOSE)


def setup(app: App, params: dict[str, Any], seats: list[Seat], variant: Variant | None) -> None:
    """A new game takes its sector probabilities from the spinner's calibration, so its
    record tells how the spinner was. "Tipps" at the setup is the setting maskenball.tips
    (stored by the setup), not a rule of the game: it stays out of the record."""
    from spielleiter.ui.menus import launch

    params.pop("tips", None)
    probabilities = SpinnerService.of(app, SECTORS).sector_probabilities()
    launch(app, ENTRY.id, {**params, "sector_probabilities": probabilities}, seats)


def start(app: App, table: MaskenballTable) -> MaskenballScreen:
    """The game screen of a new or resumed game."""
    return MaskenballScreen(app, table)


class MaskenballScreen(GameScreen):
    """The game: spins from the spinner service, visits and reports by soft key."""

    table: MaskenballTable

    def __init__(self, app: App, table: MaskenballTable) -> None:
        super().__init__(app, table)
        self.service = SpinnerService.of(app, SECTORS)
        self.cursor = 0
        self.alert = ""
        """Nochmal drehen, or a sensor fault: shown over the flower until the next spin."""
        self.result_until: float | None = None
        self.tips: Any = None
        self.tips_at = -1
        self.tips_asked = -1
        self.cursor_moved = False
        self.refused = False
        """Besuch was pressed on a beetle the rules forbid: its reason is highlighted."""
        self.over = False
        self.held: Outcome | None = None
        self.cursor_at = -1
        """The decision (actions committed) the cursor was preselected for."""
        self.spinning_seat: int | None = None
        """Who pressed Drehen: the arrow turns for them (a leaf has already passed the
        turn in the record when the arrow starts)."""

    @property
    def flash(self) -> str:
        """The last thing that happened (a swap, a turn-away, an ant), from the table."""
        return self.table.news

    # --- the flow ------------------------------------------------------------
    def enter(self) -> None:
        if self.held is not None:
            outcome, self.held = self.held, None
            self.spun(outcome)
            return
        if self.result_until is None:
            self.follow()

    def follow(self) -> None:
        """Show what the table waits for: the end, a spin, or a decision."""
        if self.table.over:
            self.finish()
            return
        pending = self.state.pending()
        if pending == PENDING_SPIN:
            if not self.service.waiting:
                self.service.wait(self.spun)
        elif pending in DECISIONS:
            at = self.session.committed
            if self.cursor_at != at and not self.cursor_moved:  # a new decision
                self.cursor_at = at
                self.cursor = self.table.preselect()
            elif self.cursor not in self.table.candidates():
                self.cursor = self.table.preselect()
            self.ask_tips()

    def finish(self) -> None:
        """Won or lost (the record was finished with the last action): the end screen."""
        self.service.cancel()
        if not self.over:
            self.over = True
            self.app.push(EndScreen(self))

    def press_spin(self) -> None:
        """Drehen: the electronic arrow turns into the sector the table committed; the
        simulated sensor's arrow gets a push."""
        if self.service.mode == ELECTRONIC:
            self.service.cancel()
            self.spinning_seat = self.state.seat()
            sector = self.table.spin()
            self.service.show_spin(sector)
            self.spin_taken(self.service.animation_s)
        elif self.service.spin():
            self.alert = ""

    def spun(self, outcome: Outcome) -> None:
        """An outcome from the sensor (on the loop)."""
        if self.app.top is not self:
            self.held = outcome
            return
        if isinstance(outcome, Sector):
            self.take_spin(outcome.index)
        elif isinstance(outcome, Ambiguous):
            self.app.push(WhichSectorScreen(outcome, self.chosen_sector))
        else:
            self.alert = outcome.message

    def chosen_sector(self, sector: int) -> None:
        self.take_spin(sector)  # first, so that coming back shows the result
        self.app.pop()

    def take_spin(self, sector: int) -> None:
        """A sensor's spin goes to the table; its result is shown large for a moment."""
        if self.state.pending() != PENDING_SPIN:
            return
        self.table.supply(SPIN + sector)
        self.spin_taken(0.0)

    def spin_taken(self, turning_s: float) -> None:
        self.alert = ""
        self.cursor_moved = False
        self.result_until = self.app.now() + turning_s + RESULT_S

    def tick(self, now: float) -> None:
        self.service.tick(now)
        self.follow_turn()
        if self.result_until is not None and now >= self.result_until:
            self.result_until = None
            if self.app.top is self:
                self.follow()

    @property
    def busy(self) -> bool:
        return self.result_until is not None or self.service.busy

    # --- decisions -------------------------------------------------------------
    def move_cursor(self, step: int) -> None:
        options = self.table.candidates()
        i = options.index(self.cursor) if self.cursor in options else 0
        self.cursor = options[(i + step) % len(options)]
        self.cursor_moved = True
        self.refused = False

    def pick(self) -> None:
        """Besuch or Wählen: refused with the rule's reason when the rules forbid it."""
        self.play(self.table.pick(self.cursor))

    def home(self) -> None:
        if self.table.can_go_home():
            self.play(HOME)

    def report(self, swapped: bool) -> None:
        """Physical play: what the magnets did; a contradiction must be confirmed."""
        question = self.table.contradiction(swapped)
        if question is None:
            self.table.report(swapped)
            self.played()
            return

        def yes() -> None:
            self.app.pop()
            self.table.report(swapped, confirmed=True)
            self.played()

        self.app.push(Confirm(question, yes, self.app.pop))

    def play(self, action: int) -> None:
        """A decision to the table; a refusal keeps its reason highlighted."""
        if self.try_command(action, SEAT):
            self.refused = True
            return
        self.played()

    def played(self) -> None:
        self.cursor_moved = False
        self.refused = False
        self.follow()

    # --- tips ----------------------------------------------------------------
    def tips_on(self) -> bool:
        return bool(self.app.settings().get("maskenball.tips"))

    def ask_tips(self) -> None:
        """Compute the tip for this decision in the background (setting maskenball.tips):
        advice, seeded from the box's advice stream, never from the record's chance."""
        at = self.session.committed
        if not self.tips_on() or self.tips_at == at or self.tips_asked == at:
            return
        self.tips_asked = at
        rng = random.Random(self.app.rng.getrandbits(64))
        self.app.submit(self.table.advice(rng), partial(self.got_tips, at))

    def got_tips(self, at: int, result: Any) -> None:
        if at != self.session.committed:
            return
        self.tips, self.tips_at = result, at
        best = result.best_action
        if best is not None and not self.cursor_moved:
            if VISIT <= best < VISIT + BEETLES:
                self.cursor = best - VISIT
            elif FLY <= best < FLY + BEETLES:
                self.cursor = best - FLY

    def current_tips(self) -> Any:
        return self.tips if self.tips_at == self.session.committed else None

    # --- pause menu ----------------------------------------------------------
    def game_items(self) -> list[Item]:
        """Tipps an/aus."""

        def toggle() -> None:
            self.app.store.set_settings({"maskenball.tips": not self.tips_on()})
            self.app.reload_settings()
            self.app.pop()
            self.ask_tips()

        return [Item(lambda: f"Tipps: {'an' if self.tips_on() else 'aus'}", toggle)]

    def leave(self, seat: int | None = None) -> None:
        self.service.cancel()
        super().leave(seat)

    def end(self) -> None:
        self.service.cancel()
        super().end()

    # --- keys ----------------------------------------------------------------
    def softkeys(self) -> list[SoftKey | None]:
        if self.busy or self.table.over:
            return [None, None, None, None]
        pending = self.state.pending()
        if pending == PENDING_SPIN:
            spin = SoftKey("Drehen", " d") if self.service.can_push else None
            return [spin, None, None, None]
        if pending == PENDING_REPORT:
            return [SoftKey("Tausch", "t"), None, None, SoftKey("Weg", "w")]
        if pending == PENDING_CHOOSE:
            return [SoftKey("<", "h"), SoftKey(">", "l"), SoftKey("Wählen", "\n "), None]
        home = SoftKey("Heim", "x") if self.table.can_go_home() else None
        return [SoftKey("<", "h"), SoftKey(">", "l"), SoftKey("Besuch", "\n "), home]

    def on_key(self, event: KeyEvent) -> None:
        if event.long or self.busy:
            return
        pending = self.state.pending()
        key = event.key
        if pending == PENDING_SPIN:
            if key == Key.K1:
                self.press_spin()
        elif pending == PENDING_REPORT:
            if key in (Key.K1, Key.K4):
                self.report(swapped=key == Key.K1)
        elif pending in DECISIONS:
            if key in (Key.K1, Key.K2):
                self.move_cursor(-1 if key == Key.K1 else 1)
            elif key == Key.K3:
                self.pick()
            elif key == Key.K4:
                self.home()

    def whose_turn(self) -> tuple[int, str] | None:
        """With several players at the table, the one who spins now (the players share
        the table's seat, so the banner names them by their place: "Spieler 2")."""
        players = int(self.session.record.params.get("players", 1))
        if players < 2 or self.busy or self.table.over:
            return None
        if self.state.pending() != PENDING_SPIN:
            return None
        return self.state.seat(), self.turn_name()

    # --- drawing -------------------------------------------------------------
    def turn_name(self, seat: int | None = None) -> str:
        return f"Spieler {(self.state.seat() if seat is None else seat) + 1}"

    def draw(self, canvas: Canvas) -> None:
        if self.service.busy:
            self.draw_spinning(canvas)
        elif self.result_until is not None:
            self.draw_result(canvas)
        elif self.state.pending() in DECISIONS:
            self.draw_flight(canvas)
        elif self.state.pending() == PENDING_REPORT:
            self.draw_report(canvas)
        else:
            self.draw_flower(canvas)

    def draw_flower(self, canvas: Canvas) -> None:
        """Every beetle with its dots and where it is, the ants, the last event."""
        state = self.state
        canvas.title(f"{self.turn_name()} dreht", f"Ball {len(state.ball())}/8")
        for b in range(BEETLES):
            draw_beetle(canvas, (b // 4) * 64 + 1, 10 + (b % 4) * 8, state, b)
        draw_ants(canvas, 42, state)
        news(canvas, 49, self.flash)
        alert = self.service.fault() or self.alert
        if alert:
            draw_alert(canvas, alert)
        else:
            self.draw_turn_banner(canvas)

    def draw_spinning(self, canvas: Canvas) -> None:
        seat = self.spinning_seat if self.result_until is not None else None
        canvas.title(f"{self.turn_name(seat)} dreht ...")
        arrow = self.service.arrow_deg(self.app.now())
        draw_dial(canvas, self.service.calibration, arrow, 64, 32, 21)

    def draw_result(self, canvas: Canvas) -> None:
        """The spin's result large; a leaf shows the ants."""
        state = self.state
        sector = state.last_spin()
        canvas.title(f"{self.turn_name(self.table.spinner_seat)} hat gedreht")
        if sector is not None and is_petal(sector):
            canvas.text_center(11, "Blütenblatt", TEXT)
            canvas.text_center(22, COLOURS[petal_of(sector)], LARGE)
            text, size = fit_line(self.flash, WIDTH)
            canvas.text_center(46, text, size)
        else:
            canvas.text_center(9, LEAF, LARGE)
            canvas.text_center(28, "zwei Blütenblättern", TEXT)
            text, size = fit_line(self.flash, WIDTH)
            canvas.text_center(39, text, size)
            draw_ants(canvas, 47, state)

    def draw_flight(self, canvas: Canvas) -> None:
        """Who flies, the beetles to visit (or to choose), the selected one, tip, event."""
        state = self.state
        choosing = state.pending() == PENDING_CHOOSE
        flyer = state.flyer()
        if choosing:
            sector = state.last_spin() or 0
            canvas.title(f"{COLOURS[petal_of(sector)]} ist leer", self.turn_name())
            canvas.text((1, 11), "Wähle einen Käfer:", SMALL)
        else:
            assert flyer is not None
            canvas.title(f"{COLOURS[flyer]} fliegt", self.turn_name())
            draw_beetle(canvas, 1, 11, state, flyer)
            canvas.text((66, 12), "besucht ...", TINY)
        allowed = self.table.allowed()
        for i, b in enumerate(self.table.candidates()):
            x = 1 + i * 18
            box = (x, 20, x + 12, 29)
            if b == self.cursor:
                canvas.rect(box, fill=1)
                canvas.text((x + 4, 21), COLOUR_CODES[b], SMALL, fill=0)
                if b not in allowed:
                    canvas.line((x, 29, x + 12, 20), fill=0)
            else:
                canvas.text((x + 4, 21), COLOUR_CODES[b], SMALL)
                if b in allowed:
                    canvas.rect(box)
                else:
                    canvas.line((x, 29, x + 12, 20))
        target = self.cursor
        canvas.text((1, 31), f"{COLOURS[target]} {colour_letters(state.dots(target))}", SMALL)
        tips = self.current_tips()
        action = self.table.pick(target)
        refusal = self.table.refusal(action)
        if refusal is not None:
            note = refusal
        elif tips is not None:
            best = tips.best_action
            name = _action_colour(best)
            note = f"Tipp: {name}  Sieg {tips.options.get(best, tips.win_chance):.0%}"
            canvas.text_right(WIDTH - 1, 31, f"{tips.options.get(action, 0.0):.0%}", SMALL)
        elif self.tips_on():
            note = "Tipp wird berechnet ..."
        else:
            note = ""
        box = (0, 39, WIDTH - 1, 45)
        if self.refused and note:
            canvas.rect((0, 39, min(WIDTH - 1, Canvas.text_width(note, TINY) + 1), 45), fill=1)
            canvas.text((1, 40), note, TINY, fill=0, box=box)
        else:
            canvas.text((1, 40), note, TINY, box=box)
        news(canvas, 47, self.flash)

    def draw_report(self, canvas: Canvas) -> None:
        state = self.state
        a, b = state.flyer(), state.visited()
        assert a is not None and b is not None
        canvas.title(f"{COLOURS[a]} besucht {COLOURS[b]}")
        canvas.text((1, 12), "Was zeigen die Magnete?", SMALL)
        canvas.text((1, 23), "Tausch: beide bleiben", TINY)
        canvas.text((1, 29), "        einander zugewandt", TINY)
        canvas.text((1, 37), "Weg: einer dreht sich weg", TINY)
        news(canvas, 47, self.flash)

    def summary(self) -> dict[str, Any]:
        state = self.state
        return {
            "screen": "maskenball",
            "pending": state.pending(),
            "seat": state.seat(),
            "beetles": [
                {"dots": colour_letters(state.dots(b)), "place": state.place(b)}
                for b in range(BEETLES)
            ],
            "stump": state.stump(),
            "vine": state.vine(),
            "cursor": self.cursor,
            "flash": self.flash,
            "alert": self.alert,
        }

    def spoken(self) -> list[Line]:
        """News: the spin (once its result shows, never while the arrow turns), and what
        it did: an ant, a flight, a swap or a turn-away. Focus: who spins, or who flies and
        the beetle chosen (with the tip), or the magnets to report. The rest: every
        beetle's dots and place, the ants."""
        state = self.state
        table = self.table
        if self.service.busy:
            who = self.turn_name(table.spinner_seat)
            return [said.focus(f"{who} dreht. Der Pfeil dreht sich")]
        lines = []
        sector = state.last_spin()
        spins = table.spins()
        if sector is not None and spins:
            who = self.turn_name(table.spinner_seat)
            lines.append(said.news(("dreh", spins), f"{who} hat gedreht: {spin_said(sector)}"))
        if self.flash:
            text = maskenball_news_said(self.flash, state)
            lines.append(said.news(("zug", table.news_told), text))
        pending = state.pending()
        alert = self.service.fault() or self.alert
        if alert:
            lines.append(said.focus(alert))
        if self.result_until is not None or table.over:
            pass
        elif pending == PENDING_SPIN:
            push = ": Taste 1" if self.service.can_push else ""
            lines.append(said.focus(f"{self.turn_name()} dreht{push}"))
        elif pending in DECISIONS:
            lines.extend(self.decision_said())
        elif pending == PENDING_REPORT:
            a, b = state.flyer(), state.visited()
            if a is not None and b is not None:
                lines.append(said.focus(f"{COLOURS[a]} besucht {COLOURS[b]}. Was zeigen die "
                                        "Magnete? Taste 1: Tausch, Taste 4: Weg"))  # fmt: skip
        for b in range(BEETLES):
            lines.append(said.describe(f"{COLOURS[b]}: {beetle_said(state, b)}"))
        lines.append(said.describe(ants_said(state)))
        return lines

    def decision_said(self) -> list[Line]:
        """Who flies (or which petal is empty), the beetle chosen, why not or the tip."""
        state = self.state
        target = self.cursor
        if state.pending() == PENDING_CHOOSE:
            sector = state.last_spin() or 0
            head = f"{COLOURS[petal_of(sector)]} ist leer: wähle einen Käfer"
        else:
            flyer = state.flyer()
            head = f"Wen besucht {COLOURS[flyer]}?" if flyer is not None else "Wer fliegt?"
        lines = [said.focus(head)]
        chosen = f"{COLOURS[target]}, {dots_said(state.dots(target))}"
        lines.append(said.focus(f"Gewählt: {chosen}"))
        refusal = self.table.refusal(self.table.pick(target))
        tips = self.current_tips()
        if refusal is not None:
            lines.append(said.focus(refusal))
        elif tips is not None:
            best = _action_colour(tips.best_action)
            chance = tips.options.get(tips.best_action, tips.win_chance)
            lines.append(said.focus(f"Tipp: {best}, Siegchance {chance:.0%}"))
        allowed = [COLOURS[b] for b in self.table.allowed()]
        lines.append(said.describe(f"Erlaubt: {said.listing(allowed) or 'keiner'}"))
        return lines


def news(canvas: Canvas, y: int, text: str) -> None:
    """The last event on one line of the smallest font (it belongs there: never cut)."""
    canvas.text((1, y), text, TINY, box=(0, y, WIDTH - 1, y + 5))


def _action_colour(action: int | None) -> str:
    if action is None:
        return "-"
    if action == HOME:
        return "Heim"
    return COLOURS[(action - FLY) % 8]


def draw_beetle(canvas: Canvas, x: int, y: int, state: Any, b: int) -> None:
    """A beetle: its petal letter (inverted while it sits on its petal; plain once the
    petal is empty), its dots, Flug or Ball."""
    place = state.place(b)
    on_petal = place != "ball"
    if on_petal:
        canvas.rect((x, y, x + 6, y + 7), fill=1)
    canvas.text((x + 1, y), COLOUR_CODES[b], SMALL, fill=0 if on_petal else 1)
    canvas.text((x + 9, y), colour_letters(state.dots(b)), SMALL)
    mark = {"ball": "Ball", "flying": "Flug"}.get(place, "")
    if mark:
        canvas.text((x + 37, y + 1), mark, TINY)


def draw_alert(canvas: Canvas, alert: str) -> None:
    """A box over the flower with a message the players must not miss, on two lines
    when one is too narrow ("Drehsensor antwortet nicht")."""
    lines = textwrap.wrap(alert, (WIDTH - 12) // Canvas.text_width("x", TEXT))
    width = max(Canvas.text_width(line, TEXT) for line in lines) + 8
    x0 = (WIDTH - width) // 2
    y0 = 16 - 5 * (len(lines) - 1)
    y1 = y0 + 7 + 11 * len(lines)
    canvas.rect((x0, y0, x0 + width, y1), fill=0)
    canvas.rect((x0 + 1, y0 + 1, x0 + width - 1, y1 - 1), fill=1)
    for i, line in enumerate(lines):
        canvas.text((x0 + 4, y0 + 4 + 11 * i), line, TEXT, fill=0)


def draw_ants(canvas: Canvas, y: int, state: Any) -> None:
    """The tree stump (one field) and the vine's fields, filled where an ant sits."""
    canvas.text((1, y), "Stumpf", TINY)
    canvas.rect((27, y + 1, 32, y + 5), fill=1 if state.stump() else 0)
    canvas.text((40, y), "Ranke", TINY)
    fields = int(state.game.params["vine"])
    for i in range(fields):
        x = 62 + i * 8
        canvas.rect((x, y + 1, x + 5, y + 5), fill=1 if i < state.vine() else 0)


class WhichSectorScreen(Screen):
    """The arrow rests on a boundary: the players say which of the two it shows."""

    def __init__(self, outcome: Ambiguous, done: Any) -> None:
        self.outcome = outcome
        self._done = done

    def choices(self) -> tuple[int, int]:
        """The two sectors, the one between two petals first (its word fits K1 alone)."""
        a, b = self.outcome.a, self.outcome.b
        return (b, a) if is_petal(a) and not is_petal(b) else (a, b)

    def softkeys(self) -> list[SoftKey | None]:
        a, b = (sector_short(s) for s in self.choices())
        return [SoftKey(a, "a"), None, None, SoftKey(b, "b")]

    def on_key(self, event: KeyEvent) -> None:
        if event.long:
            return
        a, b = self.choices()
        if event.key == Key.K1:
            self._done(a)
        elif event.key == Key.K4:
            self._done(b)

    def draw(self, canvas: Canvas) -> None:
        canvas.title("Pfeil auf der Grenze")
        canvas.wrap((1, 12), "Worauf zeigt der Pfeil?", TEXT, 126)
        a, b = self.choices()
        words = [f"auf {COLOURS[petal_of(s)]}" if is_petal(s) else LEAF for s in (a, b)]
        canvas.wrap((1, 34), f"{words[0]} oder {words[1]}?", SMALL, 126)

    def summary(self) -> dict[str, Any]:
        return {"screen": "maskenball.which", "sectors": [self.outcome.a, self.outcome.b]}

    def spoken(self) -> list[Line]:
        a, b = sector_short(self.outcome.a), sector_short(self.outcome.b)
        return [
            said.focus("Der Pfeil steht auf der Grenze. Worauf zeigt er?"),
            said.focus(f"Taste 1: {a}. Taste 4: {b}."),
        ]


class EndScreen(BaseStandings):
    """Won (all eight at the ball) or lost (the vine is full); Nochmal, Weiter."""

    table: MaskenballTable

    def __init__(self, game: MaskenballScreen) -> None:
        super().__init__(game)
        self.game = game

    def draw(self, canvas: Canvas) -> None:
        state = self.game.state
        spins = self.game.table.spins()
        if state.won():
            canvas.title("Gewonnen!", f"{spins} Dreh.")
            canvas.wrap((1, 11), "Alle acht Käfer sind auf dem Ball.", TEXT, 126)
            canvas.text((1, 34), f"Bestenliste: {self.game.table.points()} Punkte", SMALL)
        else:
            canvas.title("Verloren!", f"{spins} Dreh.")
            canvas.wrap((1, 11), "Die Ranke ist voll: die Ameisen sind da.", TEXT, 126)
            canvas.text((1, 34), f"{len(state.ball())} Käfer auf dem Ball", SMALL)
        draw_ants(canvas, 46, state)

    def summary(self) -> dict[str, Any]:
        state = self.game.state
        return {
            "screen": "maskenball.end",
            "won": state.won(),
            "ball": state.ball(),
            "points": self.game.table.points(),
        }

    def spoken(self) -> list[Line]:
        """Won or lost, after how many spins; the Bestenliste points or the beetles at the
        ball."""
        state = self.game.state
        spins = said.count(self.game.table.spins(), "Drehung", "Drehungen", female=True)
        if state.won():
            return [
                said.focus(f"Gewonnen! Alle acht Käfer sind auf dem Ball, nach {spins}"),
                said.focus(f"Bestenliste: {said.punkte(self.game.table.points())}"),
            ]
        return [
            said.focus(f"Verloren! Die Ranke ist voll: die Ameisen sind da, nach {spins}"),
            said.focus(f"{said.count(len(state.ball()), 'Käfer')} auf dem Ball"),
        ]


def dots_said(counts: Sequence[int]) -> str:
    """A beetle's dots in words: "3 Punkte Rot, ein Punkt Blau"."""
    parts = [f"{said.punkte(n)} {COLOURS[c]}" for c, n in enumerate(counts) if n]
    return ", ".join(parts) or "keine Punkte"


def beetle_said(state: Any, b: int) -> str:
    """Where a beetle is and its dots."""
    where = {"ball": "auf dem Ball", "flying": "fliegt"}.get(state.place(b), "auf der Blüte")
    return f"{where}, {dots_said(state.dots(b))}"


def ants_said(state: Any) -> str:
    """The ants: on the stump, on the vine."""
    stump = "eine Ameise" if state.stump() else "keine Ameise"
    fields = int(state.game.params["vine"])
    return f"Auf dem Stumpf {stump}, auf der Ranke {state.vine()} von {fields}"


def maskenball_news_said(text: str, state: Any) -> str:
    """The table's news line in whole words: a visit by the pair's colour names ("Pink
    besucht Rot: sie drehen sich weg", "Pink und Gelb tauschen. Gelb fliegt zum Ball!")."""
    reports = state.reports()
    if reports and (text.startswith("Tausch ") or text.endswith(": weggedreht")):
        a, b, swapped = reports[-1]
        if not swapped:
            return f"{COLOURS[a]} besucht {COLOURS[b]}: sie drehen sich weg"
        told = f"{COLOURS[a]} und {COLOURS[b]} tauschen"
        if text.endswith(" Beide zum Ball!"):
            return f"{told}. Beide fliegen zum Ball!"
        for colour in COLOURS:
            if text.endswith(f" {colour} zum Ball!"):
                return f"{told}. {colour} fliegt zum Ball!"
        return told
    if text.endswith(" ist auf dem Ball: wähle"):
        return text.replace(": wähle", ": wählt einen Käfer")
    return text


def spin_said(sector: int) -> str:
    """What the arrow shows, as the panel and the players name it: "Blütenblatt Rot", or
    "zwischen zwei Blütenblättern" (never "Blatt", which a child hears as a petal)."""
    return sector_name(sector)
