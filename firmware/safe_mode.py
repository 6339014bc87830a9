"""Safe mode: the box with a faulty store (or pin map) says so and keeps the link up.

Instead of a traceback and a restart every two seconds with a blank panel, the box
shows what is wrong in German and what to do, and the laptop link answers `hello`
(with the fault), `records.list`/`records.get` where the store can still be read,
`backup.get`, and `backup.restore` with the admin PIN. A restore that succeeds ends
safe mode: the box starts normally on the restored data.

The PIN in safe mode is the store's when it can be read, else the newest backup's.
At the box, a long K1 then K4 ("PIN aus") opens the link without a PIN until the
next start: the physical box is trusted.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import __version__, admin
from .hal.display import FrameSink
from .hal.keys import Key, KeyEvent
from .store import FILE_NAME, Store, StoreFault, newest_pin, write_restored
from .ui.canvas import Canvas, ShownFrame
from .ui.fonts import SMALL
from .ui.screen import Screen, SoftKey, render

log = logging.getLogger("spielleiter")

TICK_S = 0.05

FAULT_TEXT: dict[str, tuple[str, str]] = {
    "corrupt": (
        "Speicher beschädigt",
        "Die Daten sind beschädigt. Am Laptop: spielleiter-host backup restore DATEI.",
    ),
    "unopenable": (
        "Speicher fehlt",
        "Die Daten lassen sich nicht öffnen. SD-Karte prüfen oder Sicherung zurückspielen.",
    ),
    "readonly": (
        "Nur lesbar",
        "Die SD-Karte ist schreibgeschützt. Partien am Laptop sichern, Karte tauschen.",
    ),
    "full": (
        "Speicher voll",
        "Kein Platz auf der SD-Karte. Platz schaffen, dann neu starten.",
    ),
    "emptied": (
        "Daten verschwunden",
        "Der Speicher ist leer, hatte aber Daten. Sicherung zurückspielen (Laptop).",
    ),
    "locked": (
        "Daten belegt",
        "Ein anderes Programm ({detail}) nutzt die Daten. Es zuerst beenden.",
    ),
    "pins": (
        "pins.toml fehlt",
        "Die Pinbelegung fehlt oder ist kaputt. Neu installieren (install-pi.sh).",
    ),
}


def fault_text(kind: str, detail: str) -> tuple[str, str]:
    """The panel's title and text for a fault."""
    title, text = FAULT_TEXT.get(kind, ("Störung", "Der Speicher ist gestört: {detail}"))
    if kind == "locked":
        detail = detail.split(":")[0]  # "pid N": the rest is the command line
    return title, text.format(detail=detail[:40])


class _MemoryValues:
    """The PIN guard's values while the store cannot be written."""

    def __init__(self, pin_hash: str) -> None:
        self.pin_hash = pin_hash
        self.values: dict[str, Any] = {}

    def get_value(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)

    def set_value(self, key: str, value: Any) -> None:
        self.values[key] = value

    def setting(self, key: str) -> Any:
        return self.pin_hash if key == admin.PIN_SETTING else None


class SafeScreen(Screen):
    """The fault, what to do, and whether the link is open."""

    def __init__(self, safe: SafeMode) -> None:
        self.safe = safe
        self._armed = False

    def softkeys(self) -> list[SoftKey | None]:
        return [None, None, None, SoftKey("PIN aus", "p") if self._armed else None]

    def draw(self, canvas: Canvas) -> None:
        title, text = fault_text(self.safe.fault.kind, self.safe.fault.detail)
        y = canvas.title(title)
        if not self.safe.pin_set():
            text += " Link offen."
        canvas.wrap((2, y + 1), text, SMALL, 124)

    def on_key(self, event: KeyEvent) -> None:
        if event.key is Key.K1 and event.long:
            self._armed = True
        elif event.key is Key.K4 and self._armed:
            self._armed = False
            self.safe.open_link()
        else:
            self._armed = False

    def summary(self) -> dict[str, Any]:
        title, text = fault_text(self.safe.fault.kind, self.safe.fault.detail)
        return {"screen": "safe mode", "title": title, "text": text, "fault": self.safe.fault.kind}


class SafeMode:
    """The box in safe mode: a LinkDevice and a loop with one screen."""

    def __init__(
        self,
        fault: StoreFault,
        data_dir: Path,
        sink: FrameSink,
        *,
        clock: Callable[[], float] = time.monotonic,
        watchdog: Any = None,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.fault = fault
        self.data_dir = Path(data_dir)
        self.sink = sink
        self.clock = clock
        self.watchdog = watchdog
        self.started = time.monotonic()
        self.polls: list[Callable[[float], list[KeyEvent]]] = []
        self.hardware: dict[str, Any] = {}
        self.store: Store | None = None
        if fault.kind not in ("locked", "emptied"):
            try:
                self.store = Store.open(self.data_dir, reader=True)
            except StoreFault as exc:
                log.info("safe mode: the store cannot be read either: %s", exc)
        pin = ""
        if self.store is not None:
            try:
                pin = str(self.store.setting(admin.PIN_SETTING) or "")
            except Exception:  # noqa: BLE001 - a damaged settings table: the backup's PIN
                pin = newest_pin(self.data_dir)
        else:
            pin = newest_pin(self.data_dir)
        self._values = _MemoryValues(pin)
        self.pin_guard = admin.PinGuard(self._values, now)
        self.restored = False
        self._quit = threading.Event()
        self._shown = ShownFrame()
        self.screen = SafeScreen(self)
        self.screen.attach(self)  # type: ignore[arg-type]

    # --- what the link asks ---------------------------------------------------
    def hello(self) -> dict[str, Any]:
        title, text = fault_text(self.fault.kind, self.fault.detail)
        return {
            "firmware": __version__,
            "hardware": dict(self.hardware),
            "uptime_s": round(time.monotonic() - self.started, 1),
            "game": None,
            "fault": {
                "kind": self.fault.kind,
                "detail": self.fault.detail,
                "panel": f"{title}: {text}",
                "records_readable": self.store is not None,
            },
        }

    def screen_png(self) -> tuple[bytes, dict[str, Any]]:
        return self._shown.png()

    def settings_changed(self, settings: dict[str, Any]) -> None:
        """Nothing is live in safe mode."""

    def spinner_read(self) -> dict[str, Any]:
        raise RuntimeError("safe mode")

    def spinner_calibrate(self, params: dict[str, Any], check_only: bool = False) -> dict[str, Any]:
        raise RuntimeError("safe mode")

    def restore_backup(self, data: bytes) -> None:
        """Put a checked backup in place of the faulty file; the box then starts normally."""
        if self.fault.kind in ("locked", "pins"):
            raise ValueError(f"safe mode for {self.fault.kind}: a restore does not help")
        if self.store is not None:
            self.store.close()
            self.store = None
        aside = write_restored(self.data_dir / FILE_NAME, data)
        log.warning("restored a backup; the faulty store was kept as %s", aside)
        self.restored = True
        self._quit.set()

    @property
    def fault_message(self) -> str:
        return f"{self.fault.kind}: {self.fault.detail}"

    def pin_set(self) -> bool:
        return bool(self._values.pin_hash)

    def open_link(self) -> None:
        """The box's own reset: no PIN until the next start."""
        self._values.pin_hash = ""
        self._values.values.clear()

    # --- the loop -------------------------------------------------------------
    def post(self, event: KeyEvent) -> None:
        self.screen.on_key(event)

    def refresh(self) -> None:
        canvas = render(self.screen)
        if self.sink.show(canvas.image, f"safe\t{self.fault.kind}"):
            self._shown.shown(canvas, self.screen.summary())

    def step(self) -> None:
        now = self.clock()
        for poll in self.polls:
            for event in poll(now):
                self.screen.on_key(event)
        self.refresh()
        if self.watchdog is not None:
            self.watchdog.ping()

    def run(self) -> bool:
        """Run until quit() or a restore; True when a backup was restored."""
        while not self._quit.is_set():
            self.step()
            self._quit.wait(TICK_S)
        return self.restored

    def quit(self) -> None:
        self._quit.set()

    def close(self) -> None:
        if self.store is not None:
            self.store.close()
            self.store = None


class SafeLink:
    """SafeMode as the link sees it (`screen` is a method name on the link device)."""

    def __init__(self, safe: SafeMode) -> None:
        self._safe = safe
        self.pin_guard = safe.pin_guard

    @property
    def store(self) -> Store | None:
        return self._safe.store

    @property
    def data_dir(self) -> Path:
        return self._safe.data_dir

    @property
    def fault(self) -> str:
        return self._safe.fault_message

    def hello(self) -> dict[str, Any]:
        return self._safe.hello()

    def screen(self) -> tuple[bytes, dict[str, Any]]:
        return self._safe.screen_png()

    def settings_changed(self, settings: dict[str, Any]) -> None:
        self._safe.settings_changed(settings)

    def spinner_read(self) -> dict[str, Any]:
        return self._safe.spinner_read()

    def spinner_calibrate(self, params: dict[str, Any], check_only: bool = False) -> dict[str, Any]:
        return self._safe.spinner_calibrate(params, check_only)

    def restore_backup(self, data: bytes) -> None:
        self._safe.restore_backup(data)
