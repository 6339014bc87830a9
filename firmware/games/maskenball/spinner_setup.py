"""The spinner in the settings menu: calibrate the arrow, a test spin, sensor or electronic.

Calibration on the device: the player points the arrow at the middle of petal 1 and
presses OK (that is the zero); then, if wanted, at each of the game's ``SECTORS``
boundaries in turn, which measures every sector's width. The result is stored in the
setting ``spinner.calibration`` through the box's
:class:`~spielleiter.spinner_service.SpinnerService`.
"""

from __future__ import annotations

import math
from typing import Any

from spielleiter.games.maskenball.rules import COLOURS, SECTORS, is_petal, petal_of
from spielleiter.hal.keys import Key, KeyEvent
from spielleiter.hal.spinner import Ambiguous, Calibration, CalibrationError, Outcome, Sector
from spielleiter.settings import SettingsError
from spielleiter.spinner_service import (
    AUTO,
    ELECTRONIC,
    MODES,
    SENSOR,
    SpinnerService,
    SpinnerUnavailable,
)
from spielleiter.ui import speech as said
from spielleiter.ui.canvas import Canvas
from spielleiter.ui.fonts import LARGE, SMALL, TEXT, TINY
from spielleiter.ui.screen import App, Screen, SoftKey
from spielleiter.ui.speech import Line
from spielleiter.ui.widgets import Item

MODE_NAMES = {AUTO: "automatisch", SENSOR: "Sensor", ELECTRONIC: "elektronisch"}


LEAF = "zwischen"
"""What the players call the arrow between two petals (the rule text's "zwischen zwei
Blütenblätter"; never "Blatt", which a child reads as a petal)."""


def sector_name(sector: int) -> str:
    """What the players call a sector: "Blütenblatt Rot" or "zwischen zwei Blütenblättern"."""
    if is_petal(sector):
        return f"Blütenblatt {COLOURS[petal_of(sector)]}"
    return f"{LEAF} zwei Blütenblättern"


def sector_short(sector: int) -> str:
    """A sector's name on a soft key: the petal's colour, or "zwischen"."""
    return COLOURS[petal_of(sector)] if is_petal(sector) else LEAF


def draw_dial(
    canvas: Canvas, cal: Calibration, position_deg: float | None, cx: int, cy: int, r: int
) -> None:
    """The flower seen from above: a ring with a tick on every sector boundary, petal
    letters, and the arrow at `position_deg` (flower degrees; 0 = middle of petal 1, up)."""
    canvas.draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=1)
    for sector in range(cal.sectors):
        start, end = cal.span(sector)
        canvas.line((*_polar(cx, cy, r - 3, end), *_polar(cx, cy, r, end)))
        if is_petal(sector) and sector // 2 < len(COLOURS) and r >= 14:
            x, y = _polar(cx, cy, r - 7, (start + end) / 2)
            canvas.text((x - 1, y - 2), COLOURS[petal_of(sector)][0], TINY)
    if position_deg is not None:
        canvas.line((cx, cy, *_polar(cx, cy, r - 2, position_deg)))
        canvas.rect((cx - 1, cy - 1, cx + 1, cy + 1), fill=1)


def draw_message(canvas: Canvas, text: str) -> None:
    """A line left of the dial: a reading, or a fault the players must read in full
    ("Drehsensor antwortet nicht" takes two small lines)."""
    if Canvas.text_width(text, SMALL) <= MESSAGE_WIDTH:
        canvas.text((1, 46), text, SMALL)
    else:
        canvas.wrap((1, 43), text, TINY, MESSAGE_WIDTH)


MESSAGE_WIDTH = 84
"""Pixels left of the dial on the calibration and test spin screens."""


def _polar(cx: int, cy: int, r: float, deg: float) -> tuple[int, int]:
    a = math.radians(deg)
    return round(cx + r * math.sin(a)), round(cy - r * math.cos(a))


def settings_items(app: App) -> list[Item]:
    """The spinner's lines in the settings menu."""
    service = SpinnerService.of(app, SECTORS)

    def cycle_mode() -> None:
        nxt = MODES[(MODES.index(service.preference) + 1) % len(MODES)]
        try:
            app.store.set_settings({"spinner.mode": nxt})
        except SettingsError:
            return
        app.reload_settings()

    return [
        Item("Pfeil kalibrieren", lambda: app.push(CalibrationScreen(service))),
        Item("Testdrehung", lambda: app.push(TrialSpinScreen(service))),
        Item(lambda: f"Pfeil: {MODE_NAMES[service.preference]}", cycle_mode),
    ]


ZERO = "zero"
ASK = "ask"
BOUNDARY = "boundary"
DONE = "done"


class CalibrationScreen(Screen):
    """Drehpfeil kalibrieren: the zero at the middle of petal 1, then optionally each boundary."""

    def __init__(self, service: SpinnerService) -> None:
        self.service = service
        self.step = ZERO
        self.readings: list[float] = []
        self.live: dict[str, Any] = {}
        self.flash = ""

    def enter(self) -> None:
        self.live = self.service.read()

    def tick(self, now: float) -> None:
        if self.step in (ZERO, BOUNDARY):
            self.live = self.service.read()

    def softkeys(self) -> list[SoftKey | None]:
        if self.step == ASK:
            return [SoftKey("Ja", "y"), None, None, SoftKey("Fertig", "\n\x08")]
        if self.step == DONE:
            return [None, None, None, SoftKey("Fertig", "\n\x08")]
        back = "Zurück" if self.step == ZERO else "Abbr."
        return [None, None, SoftKey("OK", "\n "), SoftKey(back, "\x08")]

    def on_key(self, event: KeyEvent) -> None:
        if event.long:
            return
        if event.key == Key.K4:
            self.app.pop()
        elif event.key == Key.K3 and self.step in (ZERO, BOUNDARY):
            self.take()
        elif event.key == Key.K1 and self.step == ASK:
            self.step, self.readings, self.flash = BOUNDARY, [], ""

    def take(self) -> None:
        """OK: the arrow's reading becomes the zero, or the next boundary."""
        try:
            angle = self.service.reading()
        except SpinnerUnavailable as exc:
            self.flash = str(exc)
            return
        self.flash = ""
        if self.step == ZERO:
            self.service.save(self.service.calibration.with_zero(angle))
            self.step = ASK
            return
        self.readings.append(angle)
        if len(self.readings) < self.service.calibration.sectors:
            return
        cal = self.service.calibration
        try:
            new = Calibration.from_boundaries(self.readings, cal.margin_deg, cal.labels)
        except CalibrationError:
            self.flash = "Grenzen nicht der Reihe nach"
            self.readings = []
            return
        self.service.save(new)
        self.step = DONE

    def draw(self, canvas: Canvas) -> None:
        y = canvas.title("Drehpfeil kalibrieren")
        cal = self.service.calibration
        live = self.live
        draw_dial(canvas, cal, live.get("position_deg"), 106, 32, 20)
        if self.step == ZERO:
            text = "Pfeil auf die Mitte von Blütenblatt 1 (Rot), dann OK."
            y = canvas.wrap((1, y), text, SMALL, 84)
        elif self.step == ASK:
            y = canvas.wrap((1, y), "Mitte gespeichert. Jede Grenze einzeln messen?", SMALL, 84)
        elif self.step == BOUNDARY:
            i = len(self.readings)
            a, b = sector_short(i), sector_short((i + 1) % cal.sectors)
            canvas.text((1, y), f"Grenze {i + 1}/{cal.sectors}", SMALL)
            y = canvas.wrap((1, y + 9), f"Pfeil zwischen {a} und {b}, dann OK.", SMALL, 84)
        else:
            petals = [w for i, w in enumerate(cal.widths_deg) if is_petal(i)]
            leaves = [w for i, w in enumerate(cal.widths_deg) if not is_petal(i)]
            canvas.text((1, y), "Gespeichert.", SMALL)
            canvas.text((1, y + 9), f"Blütenbl. {sum(petals) / len(petals):.1f}°", SMALL)
            canvas.text((1, y + 18), f"Blätter {sum(leaves) / len(leaves):.1f}°", SMALL)
            return
        if self.flash:
            draw_message(canvas, self.flash)
        elif live.get("angle_deg") is not None:
            where = live["sector"]
            name = sector_short(where) if where is not None else "Grenze"
            canvas.text((1, 46), f"{live['angle_deg']:5.1f}° {name}", SMALL)
        else:
            draw_message(canvas, str(live.get("message") or ""))

    def summary(self) -> dict[str, Any]:
        return {"screen": "spinner.calibration", "step": self.step, "live": self.live}

    def spoken(self) -> list[Line]:
        """The step and what to do for it; the arrow's reading on request."""
        cal = self.service.calibration
        if self.step == ZERO:
            step = "Pfeil auf die Mitte von Blütenblatt 1, Rot, dann OK mit Taste 3"
        elif self.step == ASK:
            step = "Mitte gespeichert. Jede Grenze einzeln messen? Taste 1: Ja. Taste 4: Fertig"
        elif self.step == BOUNDARY:
            i = len(self.readings)
            a, b = sector_short(i), sector_short((i + 1) % cal.sectors)
            step = f"Grenze {i + 1} von {cal.sectors}: Pfeil zwischen {a} und {b}, dann OK"
        else:
            step = "Gespeichert"
        lines = [said.focus("Drehpfeil kalibrieren"), said.focus(step)]
        if self.flash:
            lines.append(said.focus(self.flash))
        live = self.live
        if live.get("angle_deg") is not None:
            where = live.get("sector")
            name = sector_name(where) if where is not None else "auf einer Grenze"
            lines.append(said.describe(f"Der Pfeil zeigt {round(live['angle_deg'])} Grad, {name}"))
        elif live.get("message"):
            lines.append(said.describe(str(live["message"])))
        return lines


class TrialSpinScreen(Screen):
    """Testdrehung: spin once and see which sector the box read."""

    def __init__(self, service: SpinnerService) -> None:
        self.service = service
        self.result = ""
        self.message = ""

    def enter(self) -> None:
        self.service.wait(self.got)

    def got(self, outcome: Outcome) -> None:
        if isinstance(outcome, Sector):
            self.result, self.message = sector_name(outcome.index), ""
        elif isinstance(outcome, Ambiguous):
            self.result = ""
            self.message = f"Grenze {sector_short(outcome.a)} / {sector_short(outcome.b)}"
        else:
            self.message = outcome.message
        if isinstance(outcome, Sector | Ambiguous):
            self.service.wait(self.got)

    def tick(self, now: float) -> None:
        self.service.tick(now)

    @property
    def busy(self) -> bool:
        return self.service.busy

    def softkeys(self) -> list[SoftKey | None]:
        spin = SoftKey("Drehen", " d") if self.service.can_push and not self.busy else None
        return [spin, None, None, SoftKey("Zurück", "\x08")]

    def on_key(self, event: KeyEvent) -> None:
        if event.long:
            return
        if event.key == Key.K1:
            self.result, self.message = "", ""
            self.service.spin()
        elif event.key == Key.K4:
            self.service.cancel()
            self.app.pop()

    def draw(self, canvas: Canvas) -> None:
        y = canvas.title("Testdrehung", MODE_NAMES[self.service.mode])
        arrow = self.service.arrow_deg(self.app.now())
        draw_dial(canvas, self.service.calibration, arrow, 106, 32, 20)
        if self.busy:
            canvas.text((1, y + 8), "dreht ...", TEXT)
            return
        if self.result:
            head, _, colour = self.result.rpartition(" ")
            canvas.text((1, y), head or "", SMALL)
            canvas.text((1, y + 9), colour, LARGE)
        elif not self.message:
            canvas.wrap((1, y), "Pfeil drehen!", TEXT, 84)
        fault = self.service.fault()
        message = fault or self.message
        if message:
            draw_message(canvas, message)

    def summary(self) -> dict[str, Any]:
        return {"screen": "spinner.test", "result": self.result, "message": self.message}

    def spoken(self) -> list[Line]:
        """Testdrehung: turning, what the box read, or what went wrong."""
        lines = [said.focus("Testdrehung")]
        if self.busy:
            lines.append(said.focus("dreht"))
        elif self.result:
            lines.append(said.focus(self.result))
        message = self.service.fault() or self.message
        if message:
            lines.append(said.focus(message))
        elif not self.result and not self.busy:
            lines.append(said.focus("Pfeil drehen!"))
        return lines
