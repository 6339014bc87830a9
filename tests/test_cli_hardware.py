"""The real-hardware start-up paths: a missing part is reported, never a crash loop."""

from __future__ import annotations

import gc
import importlib.util
import re
import signal
import sys
from pathlib import Path
from typing import Any

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin
from helpers import ROOT
from luma.core.device import dummy
from spielleiter import cli
from spielleiter.app import Box
from spielleiter.hal import display
from spielleiter.hal import pins as pins_module
from spielleiter.hal.clock import SystemClock
from spielleiter.hal.pins import DEFAULT_PINS, PinMapError, load_pin_map
from spielleiter.safe_mode import SafeMode
from spielleiter.settings import defaults
from spielleiter.store import Store


def test_a_box_without_display_and_buttons_reports_both_and_runs_on(capsys) -> None:
    hardware: dict = {}
    displays, polls = cli._real_panel(load_pin_map(), defaults(), SystemClock(), hardware)
    # this machine has no I2C bus and no GPIO chip: both parts are missing
    assert displays == [] and polls == []
    assert hardware == {"display": None, "buttons": False}
    err = capsys.readouterr().err
    assert "no ssd1306 display at I2C 0x3c on bus 1" in err
    assert "buttons unavailable" in err


def test_the_sh1106_setting_chooses_the_driver(capsys, monkeypatch) -> None:
    opened = []
    monkeypatch.setattr(
        "spielleiter.hal.display.open_oled", lambda d, b, a: opened.append((d, b, a)) or "oled"
    )
    hardware: dict = {}
    settings = {**defaults(), "display.driver": "sh1106"}
    displays, _ = cli._real_panel(load_pin_map(), settings, SystemClock(), hardware)
    assert displays == ["oled"]
    assert opened == [("sh1106", 1, 0x3C)]


def test_the_window_without_luma_emulator_says_what_to_install(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    monkeypatch.setitem(sys.modules, "luma.emulator.device", None)  # as if not installed
    code = cli.main(["--emulate", "--display", "window", "--data", str(tmp_path)])
    assert code == 2
    assert "spielleiter[desktop]" in capsys.readouterr().err


def test_an_unusable_data_folder_is_a_clear_error(tmp_path: Path, capsys) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    keys = tmp_path / "keys.txt"
    keys.write_text("K1\n")
    code = cli.main(["--keys", str(keys), "--data", str(blocker / "data")])
    assert code == cli.EXIT_SAFE_MODE  # safe mode ran the key script, no traceback
    assert "safe mode, cannot use the data" in capsys.readouterr().err


@pytest.mark.skipif(
    importlib.util.find_spec("luma.emulator") is None, reason="luma.emulator not installed"
)
def test_the_desktop_window_shows_the_frames(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")  # no screen needed
    keys = tmp_path / "keys.txt"
    keys.write_text("K2\nK1\n")
    shown = []
    from spielleiter.hal import display

    real_show = display.LumaDisplay.show

    def show(self: display.LumaDisplay, frame: object) -> None:
        shown.append(frame)
        real_show(self, frame)

    monkeypatch.setattr(display.LumaDisplay, "show", show)
    args = ["--emulate", "--display", "window", "--keys", str(keys), "--data", str(tmp_path)]
    assert cli.main(args) == 0
    assert len(shown) == 3  # the main menu, then down, then up again


# --- the pin map ---------------------------------------------------------------------
SHIPPED = (ROOT / "hardware" / "pins.toml").read_text("utf-8")


@pytest.mark.parametrize(
    ("wrong", "right", "said"),
    [
        ("K4 = 19", "K5 = 19", "[buttons] K5: unknown key (want K1, K2, K3, K4, timing)"),
        ("K1 = 5", "k1 = 5", "[buttons] k1: unknown key (did you mean K1?)"),
        ("K2 = 6", "K2 = 5", "[buttons] K2 = 5: GPIO5 is already K1"),
        ("pin = 18", "pin = 19", "[buzzer] pin = 19: GPIO19 is already K4"),
        ("K1 = 5", "K1 = 2", "[buttons] K1 = 2: GPIO2 is already SDA of I2C bus 1"),
        ("K3 = 13", "K3 = 99", "[buttons] K3 = 99: not a GPIO of the header"),
        ("K1 = 5", "K1 = 29", "want a BCM number 0 to 27; header pin 29 is GPIO5"),
        ("K1 = 5", 'K1 = "GPIO5"', '[buttons] K1 = "GPIO5": want a GPIO number (BCM)'),
        ("K1 = 5", "K1 = 5.0", "[buttons] K1 = 5.0: want a GPIO number (BCM)"),
        ("K1 = 5", "K1 = true", "[buttons] K1 = true: want a GPIO number (BCM)"),
        ("debounce_ms", "debounce", "[buttons.timing] debounce: unknown key (did you mean"),
        ("long_press_ms = 700", "long_press_ms = 20", "long_press_ms (20) must be more than"),
        ("[buzzer]", "[buzer]", "[buzer]: unknown section (did you mean buzzer?)"),
        ('"ssd1306"', '"ssd1360"', '[display] driver = "ssd1360": want "ssd1306" or "sh1106"'),
        ("address = 0x3C", 'address = "0x3C"', '[display] address = "0x3C": want a whole'),
        ("address = 0x3C", "address = 0x3C0", "[display] address = 0x3c0: want 0x03 to 0x77"),
        ("height = 64", "height = 32", "[display] height = 32: the box draws 128×64 only"),
        ("address = 0x36", "address = 0x3C", "[spinner] address = 0x3c: the display's address"),
        ("bus = 1 ", "", "[i2c] bus: missing"),
        ("[serial]", "[serial]\nbaud = 1", "[serial] baud: unknown key (want port)"),
    ],
)
def test_a_mistake_in_pins_toml_is_refused_naming_the_key(
    tmp_path: Path, wrong: str, right: str, said: str
) -> None:
    assert wrong in SHIPPED
    path = tmp_path / "pins.toml"
    path.write_text(SHIPPED.replace(wrong, right, 1), "utf-8")
    with pytest.raises(PinMapError) as caught:
        load_pin_map(path)
    assert str(caught.value).startswith(f"{path}: ") and said in str(caught.value)


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"<pins/>\n", "not TOML: Invalid statement (at line 1, column 1)"),
        (b"\xff\xfe[\x00", "not UTF-8 text (byte 0)"),
        (b"", "[buttons]: missing"),
    ],
)
def test_a_pins_toml_that_is_no_pin_map_says_so(tmp_path: Path, content: bytes, said: str) -> None:
    path = tmp_path / "pins.toml"
    path.write_bytes(content)
    with pytest.raises(PinMapError, match=re.escape(f"{path}: {said}")):
        load_pin_map(path)


def test_the_shipped_pin_map_and_the_safe_mode_defaults_are_sound() -> None:
    shipped, defaults = load_pin_map(), load_pin_map(text=DEFAULT_PINS)
    assert shipped.buttons == defaults.buttons and shipped.buzzer_pin == 18
    assert (shipped.debounce_ms, shipped.long_press_ms) == (25, 700)


@pytest.fixture
def pins_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The folder the program reads pins.toml from (empty: write one into it)."""
    folder = tmp_path / "shipped"
    folder.mkdir()
    monkeypatch.setattr(pins_module, "shipped_folder", lambda: folder)
    return folder


def test_check_pins_prints_the_wiring_of_a_sound_pin_map(pins_folder: Path, capsys) -> None:
    (pins_folder / "pins.toml").write_text(SHIPPED, "utf-8")
    assert cli.main(["--check-pins"]) == 0
    out = capsys.readouterr().out
    assert f"{pins_folder / 'pins.toml'}: sound" in out
    assert "K1 GPIO5 (pin 29), K2 GPIO6 (pin 31), K3 GPIO13 (pin 33), K4 GPIO19 (pin 35)" in out
    assert "buzzer: GPIO18 (pin 12)" in out


def test_check_pins_says_what_is_wrong_in_one_line(pins_folder: Path, capsys) -> None:
    (pins_folder / "pins.toml").write_text(SHIPPED.replace("K4 = 19", "K4 = 6"), "utf-8")
    assert cli.main(["--check-pins"]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"spielleiter: pins.toml is wrong: {pins_folder / 'pins.toml'}: [buttons] K4 = 6:"
        " GPIO6 is already K2\n"
    )


def test_a_broken_pins_toml_is_safe_mode_naming_the_key(
    pins_folder: Path, tmp_path: Path, capsys
) -> None:
    (pins_folder / "pins.toml").write_text(SHIPPED.replace("K4 = 19", "K5 = 19"), "utf-8")
    keys = tmp_path / "keys.txt"
    keys.write_text("K1\n")
    assert cli.main(["--keys", str(keys), "--data", str(tmp_path / "data")]) == cli.EXIT_SAFE_MODE
    err = capsys.readouterr().err
    assert "pins.toml missing or broken" in err and "[buttons] K5: unknown key" in err
    assert "Traceback" not in err


# --- on a Pi: gpiozero's mock pins and luma's dummy display ---------------------------
@pytest.fixture
def pi(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[Any]]:
    """This machine as a Pi: mock pins, an OLED that notes its driver, a box whose loop
    returns at once and notes its hardware, a safe mode that is restored at once."""
    seen: dict[str, list[Any]] = {"drivers": [], "hardware": []}

    def open_oled(driver: str, bus: int, address: int) -> Any:
        seen["drivers"].append(driver)
        return display.LumaDisplay(dummy(width=128, height=64, mode="1"))

    monkeypatch.setattr(Device, "pin_factory", MockFactory(pin_class=MockPWMPin))
    monkeypatch.setattr(cli, "has_pi_hardware", lambda bus: True)
    monkeypatch.setattr(display, "open_oled", open_oled)
    monkeypatch.setattr(Box, "run", lambda box: seen["hardware"].append(dict(box.hardware)))
    monkeypatch.setattr(SafeMode, "run", lambda safe: True)  # a backup was restored
    monkeypatch.setattr(signal, "signal", lambda *args: None)
    return seen


def run_on_pi(data: Path) -> int:
    gc.disable()  # a pin is free once its button is closed: not when the collector runs
    try:
        return cli.main(["--data", str(data), "--serial", "pty", "--spinner", "electronic"])
    finally:
        gc.enable()


def test_after_a_restore_in_safe_mode_the_buttons_work(
    pi: dict[str, list[Any]], pins_folder: Path, tmp_path: Path, capsys
) -> None:
    """Safe mode (here: no pins.toml) reads the buttons; a restored backup starts the box,
    which opens the same pins again."""
    assert run_on_pi(tmp_path / "data") == 0
    assert pi["hardware"][0]["buttons"] is True
    assert "buttons unavailable" not in capsys.readouterr().err


def test_the_display_driver_is_pins_tomls_until_the_setting_is_set(
    pi: dict[str, list[Any]], pins_folder: Path, tmp_path: Path
) -> None:
    (pins_folder / "pins.toml").write_text(SHIPPED.replace('"ssd1306"', '"sh1106"'), "utf-8")
    data = tmp_path / "data"
    assert run_on_pi(data) == 0
    store = Store.open(data)
    store.set_settings({"display.driver": "ssd1306"})  # Einstellungen, or the laptop
    store.close()
    assert run_on_pi(data) == 0
    assert pi["drivers"] == ["sh1106", "ssd1306"]
