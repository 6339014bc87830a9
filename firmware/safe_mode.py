"""Safe mode: the box with a faulty store (or pin map) says so and keeps the link up.

Instead of a traceback and a restart every two seconds with a blank panel, the box
shows what is wrong in German and what to do, and the laptop link answers `hello`
(with the fault), `records.list`/`records.get` where the store can still be read,
`backup.get`, and `backup.restore` with the admin PIN. A restore that succeeds ends
safe mode: the box starts normally on the restored data.

The PIN in safe mode is the store's when it can be read, else the newest backup's.
The count of wrong PINs cannot go into the store, so it goes into a small file beside
it (GUARD_FILE, written whole and renamed in): a restart keeps the back-off. Where that
file cannot be written either (a read-only card), the PIN calls are held shut for
UNCOUNTED_HOLD_S after each start, so restarting never buys quick guesses. At the box,
a long K1 then K4 ("PIN aus") opens the link without a PIN until the next start: the
physical box is trusted.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import __version__, admin
from .hal.display import FrameSink
from .hal.keys import REPEAT, Key, KeyEvent
from .store import FILE_NAME, Store, StoreFault, newest_pin, write_restored
from .texts import T
from .ui.canvas import Canvas, ShownFrame
from .ui.fonts import SMALL
from .ui.screen import Screen, SoftKey, render
from .ui.speech import Line, focus

log = logging.getLogger("spielleiter")

TICK_S = 0.05
GUARD_FILE = "spielleiter.pin-guard.json"
"""Safe mode's count of wrong PINs, beside the store in the data folder."""
UNCOUNTED_HOLD_S = 60.0
"""Where the count cannot be written, the PIN calls are shut this long after the start."""

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
        "Schreibschutz",
        "Die SD-Karte ist schreibgeschützt. Am Laptop: spielleiter-host backup get, dann"
        " Karte tauschen.",
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
        "Die Pinbelegung fehlt oder ist falsch. pins.toml berichtigen, neu installieren.",
    ),
}


def read_only_fault(fault: StoreFault, data_dir: Path) -> StoreFault:
    """The fault as it is: a store that cannot be opened on a read-only file system (the
    data folder's lock or the database cannot be written) is a read-only card."""
    if fault.kind != "unopenable":
        return fault
    said = (
        f"[Errno {errno.EROFS}]" in fault.detail or "read-only file system" in fault.detail.lower()
    )
    if said or _on_read_only_fs(data_dir):
        return StoreFault("readonly", fault.detail)
    return fault


def _on_read_only_fs(path: Path) -> bool:
    """Whether `path` (or the nearest folder above it that exists) is mounted read-only."""
    for folder in (path, *path.parents):
        try:
            return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
        except OSError:
            continue
    return False


def fault_text(kind: str, detail: str) -> tuple[str, str]:
    """The panel's title and text for a fault."""
    title, text = FAULT_TEXT.get(kind, ("Störung", "Der Speicher ist gestört: {detail}"))
    if kind == "locked":
        detail = detail.split(":")[0]  # "pid N": the rest is the command line
    return title, text.format(detail=detail[:40])


class GuardValues:
    """The PIN guard's values in safe mode: the PIN's hash in memory, the count of wrong
    PINs in GUARD_FILE (the store cannot be written), replaced whole at each change."""

    def __init__(self, pin_hash: str, path: Path, counted: Any = None) -> None:
        self.pin_hash = pin_hash
        self.path = path
        self.values: dict[str, Any] = {}
        self.readable = True
        """False when the file was there but could not be read as a count."""
        start = _more_failures(self._read(), counted)
        if start is not None:
            self.values[admin.GUARD_KEY] = start
        self.writable = self._write(start)
        """Whether the count survives a restart (False on a read-only card)."""

    def get_value(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)

    def set_value(self, key: str, value: Any) -> None:
        self.values[key] = value
        if key == admin.GUARD_KEY:
            self.writable = self._write(value)

    def setting(self, key: str) -> Any:
        return self.pin_hash if key == admin.PIN_SETTING else None

    def _read(self) -> Any:
        try:
            text = self.path.read_text("utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as exc:
            log.warning("safe mode: cannot read %s: %s", self.path, exc)
            self.readable = False
            return None
        try:
            value = json.loads(text)
        except ValueError:
            value = None
        if value is not None and not isinstance(value, dict):
            value = None
        if value is None and text.strip() != "null":
            log.warning("safe mode: %s holds no count of wrong PINs", self.path)
            self.readable = False
        return value

    def _write(self, value: Any) -> bool:
        """The count into the file, whole: written beside it, synced, renamed in."""
        partial = self.path.with_name(self.path.name + ".new")
        try:
            with open(partial, "w", encoding="utf-8") as out:
                out.write(json.dumps(value))
                out.flush()
                os.fsync(out.fileno())
            os.replace(partial, self.path)
        except OSError as exc:
            log.warning("safe mode: wrong PINs cannot be counted in %s: %s", self.path, exc)
            return False
        return True


def _more_failures(*values: Any) -> Any:
    """Of stored guard values, the one with the most wrong PINs (None when none has any)."""
    counted = [v for v in values if admin.guard_state(v or {})[0] > 0]
    return max(counted, key=lambda v: admin.guard_state(v), default=None)


class SafeScreen(Screen):
    """The fault, what to do, and whether the link is open."""

    def __init__(self, safe: SafeMode) -> None:
        self.safe = safe
        self._armed = False

    def softkeys(self) -> list[SoftKey | None]:
        ok = SoftKey("OK", "\n") if self.safe.notice is not None else None
        return [None, None, ok, SoftKey("PIN aus", "p") if self._armed else None]

    def draw(self, canvas: Canvas) -> None:
        if self.safe.notice is not None:
            title, text = self.safe.notice
        else:
            title, text = fault_text(self.safe.fault.kind, self.safe.fault.detail)
            if not self.safe.pin_set():
                text += " Link offen."
        y = canvas.title(title)
        canvas.wrap((2, y + 1), text, SMALL, 124)

    def on_key(self, event: KeyEvent) -> None:
        if event.key is Key.K3 and not event.long and self.safe.notice is not None:
            self.safe.notice = None  # back to the fault
            self._armed = False
        elif event.key is Key.K1 and event.long:
            self._armed = True
        elif event.key is Key.K4 and self._armed:
            self._armed = False
            self.safe.open_link()
        else:
            self._armed = False

    def summary(self) -> dict[str, Any]:
        title, text = self.safe.notice or fault_text(self.safe.fault.kind, self.safe.fault.detail)
        return {"screen": "safe mode", "title": title, "text": text, "fault": self.safe.fault.kind}

    def spoken(self) -> list[Line]:
        """The fault (or the notice over it) and what to do, as the panel says it."""
        if self.safe.notice is not None:
            title, text = self.safe.notice
        else:
            title, text = fault_text(self.safe.fault.kind, self.safe.fault.detail)
            if not self.safe.pin_set():
                text += " Link offen."
        return [focus(title), focus(text)]


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
        self.data_dir = Path(data_dir)
        self.fault = read_only_fault(fault, self.data_dir)
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
        counted: Any = None
        if self.store is not None:
            try:
                pin = str(self.store.setting(admin.PIN_SETTING) or "")
            except Exception:  # noqa: BLE001 - a damaged settings table: the backup's PIN
                pin = newest_pin(self.data_dir)
            try:
                counted = self.store.get_value(admin.GUARD_KEY)
            except Exception:  # noqa: BLE001 - an unreadable count: the file's alone
                counted = None
        else:
            pin = newest_pin(self.data_dir)
        self._values = GuardValues(pin, self.data_dir / GUARD_FILE, counted)
        self.pin_guard = admin.PinGuard(self._values, now)
        if not (self._values.writable and self._values.readable):
            self.pin_guard.hold(UNCOUNTED_HOLD_S, T("wrong PINs cannot be counted on this card"))
        self.speech: Any = None
        """Says the card (spielleiter.speech), as the box says its screens; None: silent."""
        self.notice: tuple[str, str] | None = None
        """A note for the panel over the fault (the link's port fell back), until OK."""
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
        """The box's own reset: no PIN until the next start, no count, no hold."""
        self._values.pin_hash = ""
        self._values.set_value(admin.GUARD_KEY, None)
        self.pin_guard.release()

    # --- the loop -------------------------------------------------------------
    def post(self, event: KeyEvent) -> None:
        if self.speech is not None:
            self.speech.pressed()
            if event == REPEAT:  # the repeat key, as everywhere: the card again
                self.speech.repeat(self.screen, self.sink.sent)
                return
        self.screen.on_key(event)

    def refresh(self) -> None:
        canvas = render(self.screen)
        if self.sink.show(canvas.image, f"safe\t{self.fault.kind}"):
            self._shown.shown(canvas, self.screen.summary())
        if self.speech is not None:
            self.speech.observe(self.screen, None, None, self.sink.sent)

    def step(self) -> None:
        now = self.clock()
        for poll in self.polls:
            for event in poll(now):
                self.post(event)
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
        if self.speech is not None:
            self.speech.close()
            self.speech = None
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
