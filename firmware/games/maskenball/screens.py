"""Maskenball der Käfer on the panel: the flower, the spin, the flight, the ants, the end.

One game screen changes its picture with what the game waits for:

* a spin: the flower (each beetle's petal letter and its five dots as letters, "Flug"
  or "Ball" beside it), the ants on the stump and the vine, the last event;
* the electronic arrow turning, then the result large ("Blütenblatt Rot" / "Blatt");
* a flight: who flies, the beetles it may visit (struck through: forbidden), the tip;
* physical play: after a visit the players say with the soft keys whether the two
  swapped or turned away; a report that contradicts earlier visits asks to confirm.

Spins come from the box's :class:`~spielleiter.spinner_service.SpinnerService`: the
sensor, or the electronic arrow on "Drehen". In digital play the box draws the
hidden groups at the start and plays the magnets.
"""

from __future__ import annotations

import textwrap
from typing import Any

from spielleiter.games.base import sample_chance
from spielleiter.games.maskenball.rules import (
    BEETLES,
    COLOUR_CODES,
    COLOURS,
    FLY,
    HOME,
    PENDING_CHOOSE,
    PENDING_GROUPING,
    PENDING_REPORT,
    PENDING_SPIN,
    PENDING_VISIT,
    PENDING_VISIT_OR_HOME,
    REPORT_SWAPPED,
    REPORT_TURNED_AWAY,
    SPIN,
    VISIT,
    colour_letters,
    is_petal,
    petal_of,
)
from spielleiter.hal.keys import Key, KeyEvent
from spielleiter.hal.spinner import Ambiguous, Outcome, Sector, SensorError
from spielleiter.session import Session
from spielleiter.spinner_service import SpinnerService
from spielleiter.ui.canvas import WIDTH, Canvas
from spielleiter.ui.fonts import LARGE, SMALL, TEXT, TINY
from spielleiter.ui.game_screen import GameScreen
from spielleiter.ui.screen import Screen, SoftKey
from spielleiter.games.maskenball.spinner_setup import draw_dial, sector_short
from spielleiter.ui.widgets import Confirm, Item

GAME = "maskenball"
RESULT_S = 1.5
"""How long a spin's result stays large on the screen."""
DECISIONS = (PENDING_VISIT, PENDING_VISIT_OR_HOME, PENDING_CHOOSE)


def begin(app: Any, params: dict[str, Any], seats: list[Any]) -> None:
    """A new game takes its sector probabilities from the spinner's calibration, so its
    record tells how the spinner was."""
    from spielleiter.ui.menus import launch

    probabilities = SpinnerService.of(app).sector_probabilities()
    launch(app, GAME, {**params, "sector_probabilities": probabilities}, seats)


def start(app: Any, session: Session) -> MaskenballScreen:
    """The game screen of a new or resumed game."""
    return MaskenballScreen(app, session)


class MaskenballScreen(GameScreen):
    """The game: spins from the spinner service, visits and reports by soft key."""

    def __init__(self, app: Any, session: Session) -> None:
        super().__init__(app, session)
        self.service = SpinnerService.of(app)
        self.cursor = 0
        self.flash = ""
        """The last thing that happened (a swap, a turn-away, an ant, a refusal)."""
        self.alert = ""
        """Nochmal drehen, or a sensor fault: shown over the flower until the next spin."""
        self.result_until: float | None = None
        self.spinner_seat = 0
        """Who spun the result shown large (a leaf passes the turn at once)."""
        self.tips: Any = None
        self.tips_at = -1
        self.tips_asked = -1
        self.cursor_moved = False
        self.refused = False
        """Besuch was pressed on a beetle the rules forbid: its reason is highlighted."""
        self.over = False
        self.held: Outcome | None = None

    # --- the flow ------------------------------------------------------------
    def enter(self) -> None:
        if self.held is not None:
            outcome, self.held = self.held, None
            self.spun(outcome)
            return
        if self.result_until is None:
            self.advance()

    def advance(self) -> None:
        """Draw the groups, end the game, wait for a spin, or prepare a decision."""
        state = self.state
        if state.pending() == PENDING_GROUPING:
            self.session.apply(sample_chance(state, self.app.rng))
        if state.is_terminal():
            self.finish()
            return
        pending = state.pending()
        if pending == PENDING_SPIN:
            if not self.service.waiting:
                self.service.wait(self.spun)
        elif pending in DECISIONS:
            if self.cursor not in self.allowed():
                self.cursor = self.default_cursor()
            self.ask_tips()

    def finish(self) -> None:
        """Won or lost: the record is finished, the end screen shows it."""
        self.service.cancel()
        if self.over:
            return
        self.over = True
        self.session.set_meta(won=self.state.won(), spins=self.spins())
        self.session.finish()
        self.app.push(EndScreen(self))

    def spins(self) -> int:
        """How often the arrow was spun (spin results are the actions below 16)."""
        return sum(1 for a in self.session.record.actions if SPIN <= a < SPIN + 16)

    def spun(self, outcome: Outcome) -> None:
        """An outcome from the spinner (on the loop)."""
        if self.app.top is not self:
            self.held = outcome
            return
        if isinstance(outcome, Sector):
            self.take_spin(outcome.index)
        elif isinstance(outcome, Ambiguous):
            self.app.push(WhichSectorScreen(outcome, self.chosen_sector))
        elif isinstance(outcome, SensorError):
            self.alert = outcome.message
        else:
            self.alert = outcome.message

    def chosen_sector(self, sector: int) -> None:
        self.take_spin(sector)  # first, so that coming back shows the result
        self.app.pop()

    def take_spin(self, sector: int) -> None:
        """Commit a spin result and show it large for a moment."""
        if self.state.pending() != PENDING_SPIN:
            return
        before = (self.state.stump(), self.state.vine())
        self.spinner_seat = self.state.seat()
        self.session.apply(SPIN + sector)
        self.alert = ""
        self.cursor_moved = False
        state = self.state
        if not is_petal(sector):
            self.flash = (
                "Ameise auf den Baumstumpf"
                if state.stump() > before[0]
                else "Ameise auf die Ranke"
            )
        elif state.pending() == PENDING_CHOOSE:
            self.flash = f"{COLOURS[petal_of(sector)]} ist auf dem Ball: wähle"
        else:
            self.flash = f"{COLOURS[petal_of(sector)]} fliegt los"
        self.result_until = self.app.now() + RESULT_S

    def tick(self, now: float) -> None:
        self.service.tick(now)
        if self.result_until is not None and now >= self.result_until:
            self.result_until = None
            if self.app.top is self:
                self.advance()

    @property
    def busy(self) -> bool:
        return self.result_until is not None or self.service.busy

    # --- decisions -------------------------------------------------------------
    def candidates(self) -> list[int]:
        """The beetles the cursor steps through: every other one on a visit."""
        state = self.state
        if state.pending() == PENDING_CHOOSE:
            return state.beetles_on_flower()
        flyer = state.flyer()
        return [b for b in range(BEETLES) if b != flyer]

    def allowed(self) -> list[int]:
        """The beetles the rules let the player pick now."""
        state = self.state
        if state.pending() == PENDING_CHOOSE:
            return state.beetles_on_flower()
        return state.visit_targets()

    def default_cursor(self) -> int:
        state = self.state
        if state.pending() == PENDING_CHOOSE:
            return state.beetles_on_flower()[0]
        targets = state.visit_targets()
        return targets[0] if targets else self.candidates()[0]

    def move_cursor(self, step: int) -> None:
        options = self.candidates()
        i = options.index(self.cursor) if self.cursor in options else 0
        self.cursor = options[(i + step) % len(options)]
        self.cursor_moved = True
        self.refused = False

    def visit(self) -> None:
        """Besuch: refused with the rule's reason when the rules forbid it."""
        state = self.state
        action = VISIT + self.cursor
        if action not in state.legal_actions():
            self.refused = True
            return
        self.play(action)

    def choose(self) -> None:
        self.play(FLY + self.cursor)

    def home(self) -> None:
        if HOME in self.state.legal_actions():
            self.play(HOME)

    def report(self, swapped: bool) -> None:
        """Physical play: what the magnets did; a contradiction must be confirmed."""
        state = self.state
        action = REPORT_SWAPPED if swapped else REPORT_TURNED_AWAY
        if state.report_is_consistent(swapped):
            self.play(action)
            return
        flyer, visited = COLOURS[state.flyer()], COLOURS[state.visited()]
        expected = "wegdrehen" if swapped else "tauschen"
        question = (
            f"Nach den früheren Besuchen müssten {flyer} und {visited} {expected}. "
            + ("Wirklich getauscht?" if swapped else "Wirklich weggedreht?")
        )

        def yes() -> None:
            self.app.pop()
            self.play(action)

        self.app.push(Confirm(question, yes, self.app.pop))

    def play(self, action: int) -> None:
        """Commit a decision or report and say what happened."""
        state = self.state
        flyer, ball, reports = state.flyer(), state.ball(), len(state.reports())
        self.session.apply(action)
        self.cursor_moved = False
        self.refused = False
        if FLY <= action < FLY + BEETLES:
            self.flash = f"{COLOURS[action - FLY]} fliegt los"
        elif action == HOME:
            self.flash = f"{COLOURS[flyer]} fliegt heim"
        elif len(state.reports()) > reports:
            a, b, swapped = state.reports()[-1]
            self.flash = visit_news(a, b, swapped, state.ball()[len(ball) :])
        else:
            self.flash = ""  # a visit waiting for the players' report
        self.advance()

    # --- tips ----------------------------------------------------------------
    def tips_on(self) -> bool:
        return bool(self.app.settings().get("maskenball.tips"))

    def ask_tips(self) -> None:
        """Compute the tip for this decision in the background (setting maskenball.tips)."""
        at = self.session.committed
        if not self.tips_on() or self.tips_at == at or self.tips_asked == at:
            return
        self.tips_asked = at
        view = self.state.view(self.state.seat())
        games = int(self.app.settings().get("bot.playouts", 2000))

        def work() -> Any:
            from spielleiter.games.maskenball.tips import tips

            return tips(view, games=games, seed=at)

        self.app.submit(work, lambda result: self.got_tips(at, result))

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
    def pause_items(self) -> list[Item]:
        def toggle() -> None:
            self.app.store.set_settings({"maskenball.tips": not self.tips_on()})
            self.app.reload_settings()
            self.app.pop()
            self.ask_tips()

        label = f"Tipps: {'an' if self.tips_on() else 'aus'}"
        return [Item(label, toggle), Item("Verlassen", self.confirm_leave)]

    def leave(self) -> None:
        self.service.cancel()
        super().leave()

    def end(self) -> None:
        self.service.cancel()
        super().end()

    # --- keys ----------------------------------------------------------------
    def softkeys(self) -> list[SoftKey | None]:
        if self.busy:
            return [None, None, None, None]
        pending = self.state.pending()
        if pending == PENDING_SPIN:
            spin = SoftKey("Drehen", " d") if self.service.can_push else None
            return [spin, None, None, None]
        if pending == PENDING_REPORT:
            return [SoftKey("Tausch", "t"), None, None, SoftKey("Weg", "w")]
        if pending == PENDING_CHOOSE:
            return [SoftKey("<", "h"), SoftKey(">", "l"), SoftKey("Wählen", "\n "), None]
        if pending in (PENDING_VISIT, PENDING_VISIT_OR_HOME):
            home = SoftKey("Heim", "x") if HOME in self.state.legal_actions() else None
            return [SoftKey("<", "h"), SoftKey(">", "l"), SoftKey("Besuch", "\n "), home]
        return [None, None, None, None]

    def on_key(self, event: KeyEvent) -> None:
        if event.long or self.busy:
            return
        pending = self.state.pending()
        key = event.key
        if pending == PENDING_SPIN:
            if key == Key.K1 and self.service.spin():
                self.alert = ""
        elif pending == PENDING_REPORT:
            if key in (Key.K1, Key.K4):
                self.report(swapped=key == Key.K1)
        elif pending in DECISIONS:
            if key in (Key.K1, Key.K2):
                self.move_cursor(-1 if key == Key.K1 else 1)
            elif key == Key.K3:
                self.choose() if pending == PENDING_CHOOSE else self.visit()
            elif key == Key.K4 and pending != PENDING_CHOOSE:
                self.home()

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
        canvas.text((1, 49), self.flash[:32], TINY)
        alert = self.service.fault() or self.alert
        if alert:
            draw_alert(canvas, alert)

    def draw_spinning(self, canvas: Canvas) -> None:
        canvas.title(f"{self.turn_name()} dreht ...")
        arrow = self.service.arrow_deg(self.app.now())
        draw_dial(canvas, self.service.calibration, arrow, 64, 32, 21)

    def draw_result(self, canvas: Canvas) -> None:
        """The spin's result large; a leaf shows the ants."""
        state = self.state
        sector = state.last_spin()
        canvas.title(f"{self.turn_name(self.spinner_seat)} hat gedreht")
        if sector is not None and is_petal(sector):
            canvas.text_center(11, "Blütenblatt", TEXT)
            canvas.text_center(22, COLOURS[petal_of(sector)], LARGE)
            canvas.text_center(46, self.flash[:32], TINY)
        else:
            canvas.text_center(11, "Blatt", LARGE)
            canvas.text_center(33, self.flash[:25], SMALL)
            draw_ants(canvas, 45, state)

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
        allowed = self.allowed()
        for i, b in enumerate(self.candidates()):
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
        action = (FLY if choosing else VISIT) + target
        if action not in state.legal_actions():
            note = state.explain_illegal(action)
        elif tips is not None:
            best = tips.best_action
            name = _action_colour(best)
            note = f"Tipp: {name}  Sieg {tips.options.get(best, tips.win_chance):.0%}"
            canvas.text_right(WIDTH - 1, 31, f"{tips.options.get(action, 0.0):.0%}", SMALL)
        elif self.tips_on():
            note = "Tipp wird berechnet ..."
        else:
            note = ""
        if self.refused and note:
            canvas.rect((0, 39, Canvas.text_width(note[:32], TINY) + 1, 45), fill=1)
            canvas.text((1, 40), note[:32], TINY, fill=0)
        else:
            canvas.text((1, 40), note[:32], TINY)
        canvas.text((1, 47), self.flash[:32], TINY)

    def draw_report(self, canvas: Canvas) -> None:
        state = self.state
        a, b = state.flyer(), state.visited()
        assert a is not None and b is not None
        canvas.title(f"{COLOURS[a]} besucht {COLOURS[b]}")
        canvas.text((1, 12), "Was zeigen die Magnete?", SMALL)
        canvas.text((1, 23), "Tausch: beide bleiben", TINY)
        canvas.text((1, 29), "        einander zugewandt", TINY)
        canvas.text((1, 37), "Weg: einer dreht sich weg", TINY)
        canvas.text((1, 47), self.flash[:32], TINY)

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


def visit_news(flyer: int, visited: int, swapped: bool, to_ball: list[int]) -> str:
    """What a visit did, in one line of the panel: who swapped or turned away, and who
    went to the ball. Colour names where they fit, else the petal letters for the pair."""
    if not swapped:
        return f"{COLOURS[flyer]}-{COLOURS[visited]}: weggedreht"
    ball = ""
    if len(to_ball) == 1:
        ball = f" {COLOURS[to_ball[0]]} zum Ball!"
    elif to_ball:
        ball = " Beide zum Ball!"
    news = f"Tausch {COLOURS[flyer]}-{COLOURS[visited]}!{ball}"
    if Canvas.text_width(news, TINY) <= WIDTH:
        return news
    return f"Tausch {COLOUR_CODES[flyer]}-{COLOUR_CODES[visited]}!{ball}"


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

    def softkeys(self) -> list[SoftKey | None]:
        a, b = sector_short(self.outcome.a), sector_short(self.outcome.b)
        return [SoftKey(a, "a"), None, None, SoftKey(b, "b")]

    def on_key(self, event: KeyEvent) -> None:
        if event.long:
            return
        if event.key == Key.K1:
            self._done(self.outcome.a)
        elif event.key == Key.K4:
            self._done(self.outcome.b)

    def draw(self, canvas: Canvas) -> None:
        canvas.title("Pfeil auf der Grenze")
        canvas.wrap((1, 12), "Worauf zeigt der Pfeil?", TEXT, 126)
        a, b = sector_short(self.outcome.a), sector_short(self.outcome.b)
        canvas.text_center(36, f"{a} oder {b}", SMALL)

    def summary(self) -> dict[str, Any]:
        return {"screen": "maskenball.which", "sectors": [self.outcome.a, self.outcome.b]}


class EndScreen(Screen):
    """Won (all eight at the ball) or lost (the vine is full)."""

    def __init__(self, game: MaskenballScreen) -> None:
        self.game = game

    def softkeys(self) -> list[SoftKey | None]:
        return [None, None, None, SoftKey("Weiter", "\n ")]

    def on_key(self, event: KeyEvent) -> None:
        if event.key == Key.K4 and not event.long:
            self.game.end()

    def draw(self, canvas: Canvas) -> None:
        state = self.game.state
        spins = self.game.spins()
        if state.won():
            canvas.title("Gewonnen!", f"{spins} Dreh.")
            canvas.wrap((1, 11), "Alle acht Käfer sind auf dem Ball.", TEXT, 126)
        else:
            canvas.title("Verloren!", f"{spins} Dreh.")
            canvas.wrap((1, 11), "Die Ranke ist voll: die Ameisen sind da.", TEXT, 126)
            canvas.text((1, 34), f"{len(state.ball())} Käfer auf dem Ball", SMALL)
        draw_ants(canvas, 46, state)

    def summary(self) -> dict[str, Any]:
        state = self.game.state
        return {"screen": "maskenball.end", "won": state.won(), "ball": state.ball()}
