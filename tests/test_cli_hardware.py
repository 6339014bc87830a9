"""The real-hardware start-up paths: a missing part is reported, never a crash loop."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from spielleiter import cli
from spielleiter.hal.clock import SystemClock
from spielleiter.hal.pins import load_pin_map
from spielleiter.settings import defaults


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
