"""The pin map: read once from hardware/pins.toml, shipped inside the package.

Everything in it is checked when it is read: a missing or misspelt key, a pin that is
not a GPIO of the 40-pin header, a pin used twice. The message names the key, so the
journal (and `spielleiter --check-pins`) says what to change:

    >>> load_pin_map(text=DEFAULT_PINS.replace("K2 = 6", "K2 = 5"))
    Traceback (most recent call last):
    ...
    spielleiter.hal.pins.PinMapError: pins.toml: [buttons] K2 = 5: GPIO5 is already K1
"""

from __future__ import annotations

import importlib
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .keys import Key


class PinMapError(ValueError):
    """pins.toml cannot describe the wiring; the message names the file and the key."""


@dataclass(frozen=True)
class PinMap:
    """Everything the firmware needs to know about the wiring."""

    buttons: dict[Key, int]
    debounce_ms: int
    long_press_ms: int
    i2c_bus: int
    display_driver: str
    display_address: int
    spinner_address: int
    serial_port: str
    usb_vendor_id: int
    usb_product_id: int
    usb_product: str
    raw: dict[str, Any]
    buzzer_pin: int | None = None
    """The piezo's GPIO (None: no buzzer fitted)."""


DEFAULT_PINS = """
[buttons]
K1 = 5
K2 = 6
K3 = 13
K4 = 19
[i2c]
bus = 1
[display]
driver = "ssd1306"
address = 0x3C
[spinner]
address = 0x36
[serial]
port = "/dev/ttyGS0"
[usb]
vendor_id = 0x1D6B
product_id = 0x0104
product = "Spielleiter"
"""
"""The default build's wiring, for the safe-mode panel when pins.toml is missing or broken."""

HEADER_PINS = tuple(map(int, "27 28 3 5 7 29 31 26 24 21 19 23 32 33 8 10 36 11 12 35".split()))
HEADER_PINS += tuple(map(int, "38 40 15 16 18 22 37 13".split()))
"""The 40-pin header's physical pin of GPIO n (BCM number) at index n, on every 40-pin Pi."""

I2C_PINS = {1: {2: "SDA", 3: "SCL"}}
"""The GPIOs of an I2C bus on the header."""

DISPLAY_DRIVERS = ("ssd1306", "sh1106")

KEYS: dict[str, tuple[str, ...]] = {
    "buttons": (*(key.name for key in Key), "timing"),
    "buttons.timing": ("debounce_ms", "long_press_ms"),
    "i2c": ("bus", "baudrate"),
    "display": ("driver", "address", "width", "height"),
    "spinner": ("driver", "address"),
    "buzzer": ("pin",),
    "serial": ("port",),
    "usb": ("vendor_id", "product_id", "product"),
}
"""Every section of pins.toml and the keys it may have (a misspelt one is refused, never
passed over for a default)."""
OPTIONAL = frozenset(
    "buttons.timing buttons.timing.debounce_ms buttons.timing.long_press_ms buzzer buzzer.pin"
    " i2c.baudrate display.width display.height spinner.driver".split()
)
"""What pins.toml may leave out: the timing's defaults, no buzzer, what the install reads."""


def shipped_folder() -> Path:
    """The folder of the package spielleiter.hardware (by its file, which an installed box
    and a checkout both have: importlib.resources would cost the first frame a tenth of a
    second on a Pi Zero)."""
    return Path(importlib.import_module("spielleiter.hardware").__file__ or "").parent


def shipped_path() -> Path:
    """The pins.toml the program reads."""
    return shipped_folder() / "pins.toml"


def load_pin_map(path: Path | None = None, text: str | None = None) -> PinMap:
    """Parse and check pins.toml (the packaged one unless a path or the text is given).

    OSError when the file cannot be read, PinMapError for anything in it that is wrong.
    """
    name = "pins.toml"
    if text is None:
        path = Path(path) if path is not None else shipped_path()
        name = str(path)
        try:
            text = path.read_text("utf-8")
        except UnicodeDecodeError as exc:
            raise PinMapError(f"{name}: not UTF-8 text (byte {exc.start})") from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PinMapError(f"{name}: not TOML: {exc}") from exc
    return _pin_map(_Reader(name, data))


class _Reader:
    """Reads pins.toml's values by "section.key", each checked, naming what is wrong."""

    def __init__(self, name: str, data: dict[str, Any]) -> None:
        self.name = name
        self.data = data
        self._check_keys("", data, tuple(s for s in KEYS if "." not in s))
        for section, keys in KEYS.items():
            table = self.table(section)
            if table is not None:
                self._check_keys(section, table, keys)

    def fail(self, where: str, why: str) -> PinMapError:
        return PinMapError(f"{self.name}: {where}: {why}")

    def _check_keys(self, section: str, table: dict[str, Any], known: tuple[str, ...]) -> None:
        for key in table:
            if key not in known:
                import difflib  # only for a misspelt key: not at the start

                lower = {k.lower(): k for k in known}
                near = difflib.get_close_matches(key.lower(), lower, n=1)
                hint = f"did you mean {lower[near[0]]}?" if near else f"want {', '.join(known)}"
                where = f"[{section}] {key}" if section else f"[{key}]"
                raise self.fail(where, f"unknown {'key' if section else 'section'} ({hint})")
        for key in known:
            path = f"{section}.{key}" if section else key
            if key not in table and path not in OPTIONAL:
                where = f"[{section}] {key}" if section else f"[{key}]"
                raise self.fail(where, "missing")

    def table(self, section: str) -> dict[str, Any] | None:
        node: Any = self.data
        for part in section.split("."):
            if not isinstance(node, dict) or part not in node:
                return None
            node = node[part]
        if not isinstance(node, dict):
            raise self.fail(f"[{section}]", "must be a section of keys")
        return node

    def where(self, path: str, hex_: bool = False) -> str:
        section, _, key = path.rpartition(".")
        value = self.raw(path)
        if hex_ and isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            shown = f"{value:#04x}"
        elif isinstance(value, bool):
            shown = str(value).lower()
        elif isinstance(value, str):
            shown = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
        else:
            shown = repr(value)
        return f"[{section}] {key} = {shown}"

    def raw(self, path: str) -> Any:
        section, _, key = path.rpartition(".")
        return (self.table(section) or {}).get(key)

    def has(self, path: str) -> bool:
        section, _, key = path.rpartition(".")
        return key in (self.table(section) or {})

    def integer(
        self, path: str, low: int, high: int, default: int | None = None, hex_: bool = False
    ) -> int:
        if default is not None and not self.has(path):
            return default
        value = self.raw(path)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(self.where(path), "want a whole number, without quotes")
        if not low <= value <= high:
            span = f"{low:#04x} to {high:#04x}" if hex_ else f"{low} to {high}"
            raise self.fail(self.where(path, hex_), f"want {span}")
        return value

    def choice(self, path: str, choices: tuple[str, ...]) -> str:
        value = self.raw(path)
        if value not in choices:
            raise self.fail(self.where(path), "want " + " or ".join(f'"{c}"' for c in choices))
        return str(value)

    def gpio(self, path: str, used: dict[int, str]) -> int:
        """A BCM GPIO number of the header, not used by anything before it."""
        value = self.raw(path)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(self.where(path), "want a GPIO number (BCM), without quotes")
        if not 0 <= value < len(HEADER_PINS):
            gpio = HEADER_PINS.index(value) if value in HEADER_PINS else None
            hint = f"; header pin {value} is GPIO{gpio}" if gpio is not None else ""
            raise self.fail(
                self.where(path), f"not a GPIO of the header: want a BCM number 0 to 27{hint}"
            )
        if value in used:
            raise self.fail(self.where(path), f"GPIO{value} is already {used[value]}")
        return value


def _pin_map(pins: _Reader) -> PinMap:
    i2c_bus = pins.integer("i2c.bus", 0, 255)
    if pins.has("i2c.baudrate"):
        pins.integer("i2c.baudrate", 1, 3_400_000)
    used = {
        gpio: f"{line} of I2C bus {i2c_bus}" for gpio, line in I2C_PINS.get(i2c_bus, {}).items()
    }
    buttons: dict[Key, int] = {}
    for key in Key:
        buttons[key] = pins.gpio(f"buttons.{key.name}", used)
        used[buttons[key]] = key.name
    buzzer = pins.gpio("buzzer.pin", used) if pins.has("buzzer.pin") else None
    debounce_ms = pins.integer("buttons.timing.debounce_ms", 0, 1000, default=25)
    long_press_ms = pins.integer("buttons.timing.long_press_ms", 1, 10_000, default=700)
    if long_press_ms <= debounce_ms:
        raise pins.fail(
            "[buttons.timing]", f"long_press_ms ({long_press_ms}) must be more than debounce_ms"
        )
    for path, size in (("display.width", 128), ("display.height", 64)):
        if pins.has(path) and pins.raw(path) != size:
            raise pins.fail(pins.where(path), f"the box draws 128×64 only: want {size}")
    if pins.has("spinner.driver"):
        pins.choice("spinner.driver", ("as5600",))
    display_address = pins.integer("display.address", 0x03, 0x77, hex_=True)
    spinner_address = pins.integer("spinner.address", 0x03, 0x77, hex_=True)
    if spinner_address == display_address:
        raise pins.fail(pins.where("spinner.address", True), "the display's address already")
    port = pins.raw("serial.port")
    if not isinstance(port, str) or not port.startswith("/dev/"):
        raise pins.fail(pins.where("serial.port"), "want a device path such as '/dev/ttyGS0'")
    product = pins.raw("usb.product")
    if not isinstance(product, str) or not re.fullmatch(r"[A-Za-z0-9._-]+", product):
        raise pins.fail(pins.where("usb.product"), "use letters, digits, '.', '_', '-'")
    return PinMap(
        buttons=buttons,
        debounce_ms=debounce_ms,
        long_press_ms=long_press_ms,
        i2c_bus=i2c_bus,
        display_driver=pins.choice("display.driver", DISPLAY_DRIVERS),
        display_address=display_address,
        spinner_address=spinner_address,
        serial_port=port,
        usb_vendor_id=pins.integer("usb.vendor_id", 0, 0xFFFF, hex_=True),
        usb_product_id=pins.integer("usb.product_id", 0, 0xFFFF, hex_=True),
        usb_product=product,
        raw=pins.data,
        buzzer_pin=buzzer,
    )


def describe(pins: PinMap) -> str:
    """The wiring the pin map asks for, in a few lines (for `spielleiter --check-pins`)."""
    keys = ", ".join(
        f"{key.name} GPIO{gpio} (pin {HEADER_PINS[gpio]})" for key, gpio in pins.buttons.items()
    )
    buzzer = (
        f"GPIO{pins.buzzer_pin} (pin {HEADER_PINS[pins.buzzer_pin]})"
        if pins.buzzer_pin is not None
        else "none"
    )
    return (
        f"buttons: {keys}\n"
        f"buzzer: {buzzer}\n"
        f"I2C bus {pins.i2c_bus}: display {pins.display_driver} at {pins.display_address:#04x},"
        f" spinner at {pins.spinner_address:#04x}\n"
        f"link: {pins.serial_port}, USB {pins.usb_vendor_id:04x}:{pins.usb_product_id:04x}"
        f" {pins.usb_product}"
    )
