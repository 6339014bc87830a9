"""The device's settings: names, defaults and validation, one place for all of them.

Settings are flat dotted keys ("clock.enabled"). Every house rule DESIGN.md marks as a
default lives here. Changes are validated as a whole and applied all or nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .texts import T, around


class SettingsError(ValueError):
    """A rejected settings change; `key` names the setting, the message says why."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(around("{key}: {why}", message, key=key))
        self.key = key
        self.message = message


@dataclass(frozen=True)
class Setting:
    """One setting: its default, a check, and a line of help."""

    default: Any
    check: Callable[[Any], str | None]
    help: str
    """What it means, in English, written with T (the laptop says it in its language)."""


def _int_range(lo: int, hi: int) -> Callable[[Any], str | None]:
    def check(v: Any) -> str | None:
        if isinstance(v, bool) or not isinstance(v, int):
            return T("must be a whole number from {low} to {high}", low=lo, high=hi)
        return None if lo <= v <= hi else T("must be from {low} to {high}, not {value}", low=lo,
                                             high=hi, value=v)  # fmt: skip

    return check


def _one_of(*choices: Any) -> Callable[[Any], str | None]:
    def check(v: Any) -> str | None:
        wrong = T("must be one of {choices}", choices=", ".join(map(str, choices)))
        if isinstance(v, bool) and not any(isinstance(c, bool) for c in choices):
            return wrong
        return None if v in choices else wrong

    return check


def _bool(v: Any) -> str | None:
    return None if isinstance(v, bool) else T("must be true or false")


def _pin(v: Any) -> str | None:
    if not isinstance(v, str):
        return T("must be a string of 4 to 8 digits, or empty for no PIN")
    if v == "" or (v.isdigit() and v.isascii() and 4 <= len(v) <= 8):
        return None
    return T("must be 4 to 8 digits, or empty for no PIN")


def _str(v: Any) -> str | None:
    return None if isinstance(v, str) and len(v) <= 200 else T("must be a short string")


def _calibration(v: Any) -> str | None:
    if v is None:
        return None
    if not isinstance(v, dict):
        return T("must be an object (see docs/spinner.md) or null")
    from .hal.spinner import Calibration

    try:
        cal = Calibration.from_json(v)
    except (ValueError, TypeError) as exc:
        return around("invalid calibration: {why}", exc)
    if cal.sectors != Calibration().sectors:
        return T(
            "invalid calibration: the spinner has {sectors} sectors", sectors=Calibration().sectors
        )
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
    "display.contrast": Setting(200, _int_range(0, 255), T("OLED contrast 0..255")),
    "display.driver": Setting("ssd1306", _one_of("ssd1306", "sh1106"), T("OLED controller")),
    "clock.enabled": Setting(False, _bool, T("a time limit per decision (Uhr)")),
    "clock.seconds": Setting(10, _int_range(3, 120), T("seconds per decision with the clock on")),
    "clock.tafel_seconds": Setting(
        8, _int_range(2, 60), T("the Tafel advances after this, clock on")
    ),
    "admin.pin": Setting(
        "",
        _pin,
        T("admin PIN (4-8 digits) for every link call that changes data; empty: link open"),
    ),
    "serial.port": Setting(
        "/dev/ttyGS0",
        _port,
        T(
            "serial port of the laptop link: ttyGS*, ttyS*, ttyAMA*, ttyUSB*, ttyACM*, serial0/1,"
            " serial/by-id/*"
        ),
    ),
    "spinner.mode": Setting("auto", _one_of("auto", "sensor", "electronic"), T("spinner source")),
    "spinner.calibration": Setting(None, _calibration, T("spinner sector calibration")),
    "sound.enabled": Setting(True, _bool, T("the buzzer's tunes (turn, clock, take, end)")),
    "speech.enabled": Setting(
        True, _bool, T("the box says what happens at the table (where it finds a speaker)")
    ),
    "speech.mode": Setting(
        "ereignisse",
        _one_of("ereignisse", "alles"),
        T("say the events only, or every screen whole"),
    ),
    "speech.volume": Setting(100, _int_range(0, 200), T("speech volume (eSpeak NG: 100 normal)")),
    "speech.speed": Setting(160, _int_range(80, 400), T("speech speed in words per minute")),
    "bot.playouts": Setting(2000, _int_range(100, 20000), T("playouts per option for Stark/Rat")),
    "bot.show_ms": Setting(800, _int_range(0, 5000), T("how long a computer's move stays shown")),
    "bot.preload": Setting(
        True, _bool, T("load the computers' numpy in the background after start-up")
    ),
    "undo.ms": Setting(
        1500, _int_range(0, 5000), T("how long a human's move can be taken back (Zurück); 0: never")
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
        raise SettingsError("(settings)", T("changes must be an object of key: value"))
    for key, value in changes.items():
        setting = SETTINGS.get(key)
        if setting is None:
            import difflib  # only for a mistyped name: not at the start

            close = difflib.get_close_matches(str(key), list(SETTINGS), n=1, cutoff=0.6)
            if close:
                raise SettingsError(
                    key, T("no such setting (did you mean {close}?)", close=close[0])
                )
            raise SettingsError(key, T("no such setting"))
        problem = setting.check(value)
        if problem:
            raise SettingsError(key, problem)
    return dict(changes)


# --- reading what the store holds ------------------------------------------------------

UNREADABLE_PIN = "scrypt$0$0$0$$"
"""What an admin PIN the store cannot read counts as: a PIN is set and no PIN verifies
(the hash format with a cost scrypt refuses), so damage never opens the link. The box's
own reset (Einstellungen, Admin-PIN) replaces it."""


def parse_stored(text: Any) -> Any:
    """A stored value: the JSON text the store keeps, read strictly.

    ValueError unless `text` is a string of JSON without NaN, Infinity or a number too
    large for a double (``1e999``): what no write of the box ever produces.

    >>> parse_stored('{"a": [1, 2.5]}')
    {'a': [1, 2.5]}
    >>> parse_stored("1e999")
    Traceback (most recent call last):
    ...
    ValueError: not a finite number: 1e999
    """
    import json
    import math

    if not isinstance(text, str):
        raise ValueError(f"not JSON text but {type(text).__name__}")

    def finite(number: str) -> float:
        value = float(number)
        if not math.isfinite(value):
            raise ValueError(f"not a finite number: {number[:40]}")
        return value

    def constant(name: str) -> Any:
        raise ValueError(f"not a finite number: {name}")

    try:
        return json.loads(text, parse_float=finite, parse_constant=constant)
    except RecursionError:
        raise ValueError("nested too deeply") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON ({exc.msg} at {exc.pos})") from None


def _stored_pin_problem(value: Any) -> str | None:
    """Why a stored admin PIN is not one the box writes: "" (none), its salted hash with
    scrypt costs up to four times the box's own, or a plain PIN of an older version."""
    from . import admin

    if not isinstance(value, str):
        return "must be the PIN's hash, or empty for no PIN"
    if value == "" or _pin(value) is None:
        return None
    if not admin.is_hashed(value):
        return "must be the PIN's hash, or empty for no PIN"
    _, n, r, p, salt, digest = value.split("$")
    budget = 4 * admin.SCRYPT_N * admin.SCRYPT_R * admin.SCRYPT_P
    try:
        cost = [int(n), int(r), int(p)]
        import base64

        sizes = [len(base64.b64decode(part, validate=True)) for part in (salt, digest)]
    except ValueError:
        return "the PIN's hash is malformed"
    if cost[0] < 2 or cost[0] & (cost[0] - 1) or min(cost) < 1:
        return "the PIN's hash has an invalid scrypt cost"
    if cost[0] * cost[1] * cost[2] > budget:
        return "the PIN's hash costs more than the box allows"
    if not (8 <= sizes[0] <= 64 and 16 <= sizes[1] <= 64):
        return "the PIN's hash is malformed"
    return None


def _stored_port_problem(value: Any) -> str | None:
    from .serial_ports import name_problem

    return name_problem(value)


def _stored_check(key: str, setting: Setting) -> Callable[[Any], str | None]:
    """How a stored value is checked: as a change is, except the admin PIN (kept as its
    hash, "" for none) and the serial port (by its name only: an adapter that is not
    plugged in now is still the setting, and the link waits for it)."""
    from . import admin

    return {admin.PIN_SETTING: _stored_pin_problem, "serial.port": _stored_port_problem}.get(
        key, setting.check
    )


def stored_value(key: str, text: Any) -> Any:
    """A setting as the store keeps it (`text`: its JSON), read and checked by the same
    checks as a change: SettingsError names the key and says why it cannot be used.

    Two are read by checks of their own (_stored_check): the admin PIN, kept as its
    salted hash, and the serial port, whose device need not be plugged in.

    >>> stored_value("clock.seconds", "15")
    15
    >>> stored_value("clock.seconds", '"abc"')
    Traceback (most recent call last):
    ...
    spielleiter.settings.SettingsError: clock.seconds: must be a whole number from 3 to 120
    """
    setting = SETTINGS.get(key) if isinstance(key, str) else None
    if setting is None:
        raise SettingsError(str(key), T("no such setting"))
    try:
        value = parse_stored(text)
    except ValueError as exc:
        raise SettingsError(key, str(exc)) from None
    try:
        problem = _stored_check(key, setting)(value)
    except (TypeError, ValueError) as exc:
        problem = T("cannot be checked: {why}", why=str(exc))
    if problem:
        raise SettingsError(key, problem)
    return value


def fallback(key: str) -> Any:
    """What a setting counts as when its stored value cannot be read: its default, but
    for the admin PIN one that no PIN opens (UNREADABLE_PIN)."""
    from . import admin

    return UNREADABLE_PIN if key == admin.PIN_SETTING else SETTINGS[key].default
