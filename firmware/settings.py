"""The device's settings: names, defaults and validation, one place for all of them.

Settings are flat dotted keys ("clock.enabled"). Every house rule DESIGN.md marks as a
default lives here. Changes are validated as a whole and applied all or nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


class SettingsError(ValueError):
    """A rejected settings change; `key` names the setting, the message says why."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key
        self.message = message


@dataclass(frozen=True)
class Setting:
    """One setting: its default, a check, and a line of help."""

    default: Any
    check: Callable[[Any], str | None]
    help: str


def _int_range(lo: int, hi: int) -> Callable[[Any], str | None]:
    def check(v: Any) -> str | None:
        if isinstance(v, bool) or not isinstance(v, int):
            return f"must be a whole number from {lo} to {hi}"
        return None if lo <= v <= hi else f"must be from {lo} to {hi}, not {v}"

    return check


def _one_of(*choices: Any) -> Callable[[Any], str | None]:
    def check(v: Any) -> str | None:
        if isinstance(v, bool) and not any(isinstance(c, bool) for c in choices):
            return f"must be one of {', '.join(map(str, choices))}"
        return None if v in choices else f"must be one of {', '.join(map(str, choices))}"

    return check


def _bool(v: Any) -> str | None:
    return None if isinstance(v, bool) else "must be true or false"


def _pin(v: Any) -> str | None:
    if not isinstance(v, str):
        return "must be a string of 4 to 8 digits, or empty for no PIN"
    if v == "" or (v.isdigit() and v.isascii() and 4 <= len(v) <= 8):
        return None
    return "must be 4 to 8 digits, or empty for no PIN"


def _str(v: Any) -> str | None:
    return None if isinstance(v, str) and len(v) <= 200 else "must be a short string"


def _calibration(v: Any) -> str | None:
    if v is None:
        return None
    if not isinstance(v, dict):
        return "must be an object (see docs/spinner.md) or null"
    from .hal.spinner import Calibration

    try:
        cal = Calibration.from_json(v)
    except (ValueError, TypeError) as exc:
        return f"invalid calibration: {exc}"
    if cal.sectors != Calibration().sectors:
        return f"invalid calibration: the spinner has {Calibration().sectors} sectors"
    return None


def serial_port_problem(v: Any) -> str | None:
    """Why `v` is not a serial port the link may use (None when it is one).

    A tty of a serial class (ttyS, ttyAMA, ttyGS, ttyUSB, ttyACM; /dev/serial0 and 1
    and /dev/serial/by-id/* are followed to one) that is there now: never a pyserial URL,
    a file or another character device (spielleiter.serial_ports). The default port
    passes while it is not there yet: the box waits for the gadget port at start.
    """
    from .serial_ports import port_problem

    return port_problem(v, absent_ok=v == SETTINGS["serial.port"].default)


def _port(v: Any) -> str | None:
    return serial_port_problem(v)


SETTINGS: dict[str, Setting] = {
    "display.contrast": Setting(200, _int_range(0, 255), "OLED contrast 0..255"),
    "display.driver": Setting("ssd1306", _one_of("ssd1306", "sh1106"), "OLED controller"),
    "clock.enabled": Setting(False, _bool, "a time limit per decision (Uhr)"),
    "clock.seconds": Setting(10, _int_range(3, 120), "seconds per decision with the clock on"),
    "clock.tafel_seconds": Setting(8, _int_range(2, 60), "the Tafel advances after this, clock on"),
    "admin.pin": Setting(
        "", _pin, "admin PIN (4-8 digits) for every link call that changes data; empty: link open"
    ),
    "serial.port": Setting(
        "/dev/ttyGS0",
        _port,
        "serial port of the laptop link: ttyGS*, ttyS*, ttyAMA*, ttyUSB*, ttyACM*, serial0/1,"
        " serial/by-id/*",
    ),
    "spinner.mode": Setting("auto", _one_of("auto", "sensor", "electronic"), "spinner source"),
    "spinner.calibration": Setting(None, _calibration, "spinner sector calibration"),
    "sound.enabled": Setting(True, _bool, "the buzzer's tunes (turn, clock, take, end)"),
    "bot.playouts": Setting(2000, _int_range(100, 20000), "playouts per option for Stark/Rat"),
    "bot.show_ms": Setting(800, _int_range(0, 5000), "how long a computer's move stays shown"),
    "undo.ms": Setting(
        1500, _int_range(0, 5000), "how long a human's move can be taken back (Zurück); 0: never"
    ),
}


def _game_settings() -> dict[str, Setting]:
    """The settings each game declares in its catalog entry, as "<game>.<name>"."""
    from .games import catalog

    return {
        entry.setting(option.name): Setting(option.default, option.problem, option.help)
        for entry in catalog.entries()
        for option in entry.settings()
    }


SETTINGS.update(_game_settings())


def defaults() -> dict[str, Any]:
    """Every setting at its default."""
    return {k: s.default for k, s in SETTINGS.items()}


def validate(changes: Mapping[str, Any]) -> dict[str, Any]:
    """Check a batch of changes; raise SettingsError on the first bad one, else return it."""
    if not isinstance(changes, Mapping):
        raise SettingsError("(settings)", "changes must be an object of key: value")
    for key, value in changes.items():
        setting = SETTINGS.get(key)
        if setting is None:
            import difflib  # only for a mistyped name: not at the start

            close = difflib.get_close_matches(str(key), list(SETTINGS), n=1, cutoff=0.6)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise SettingsError(key, f"no such setting{hint}")
        problem = setting.check(value)
        if problem:
            raise SettingsError(key, problem)
    return dict(changes)
