"""The pin map: read once from hardware/pins.toml, shipped inside the package."""

from __future__ import annotations

import importlib
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .keys import Key


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


def shipped_folder() -> Path:
    """The folder of the package spielleiter.hardware (by its file, which an installed box
    and a checkout both have: importlib.resources would cost the first frame a tenth of a
    second on a Pi Zero)."""
    return Path(importlib.import_module("spielleiter.hardware").__file__ or "").parent


def load_pin_map(path: Path | None = None, text: str | None = None) -> PinMap:
    """Parse pins.toml (the packaged one unless a path or the text is given)."""
    if text is None and path is None:
        text = (shipped_folder() / "pins.toml").read_text("utf-8")
    elif text is None:
        assert path is not None
        text = Path(path).read_text("utf-8")
    data = tomllib.loads(text)
    buttons = data["buttons"]
    timing = buttons.get("timing", {})
    return PinMap(
        buttons={key: int(buttons[key.name]) for key in Key},
        debounce_ms=int(timing.get("debounce_ms", 25)),
        long_press_ms=int(timing.get("long_press_ms", 700)),
        i2c_bus=int(data["i2c"]["bus"]),
        display_driver=str(data["display"]["driver"]),
        display_address=int(data["display"]["address"]),
        spinner_address=int(data["spinner"]["address"]),
        serial_port=str(data["serial"]["port"]),
        usb_vendor_id=int(data["usb"]["vendor_id"]),
        usb_product_id=int(data["usb"]["product_id"]),
        usb_product=str(data["usb"]["product"]),
        raw=data,
        buzzer_pin=int(data["buzzer"]["pin"]) if "pin" in data.get("buzzer", {}) else None,
    )
