"""The box's first frame needs little: no game's rules or data, no numpy, no image plugin;
the buttons, the spinner and the link open after it (a Pi Zero shows the menu sooner)."""

from __future__ import annotations

import io
import json
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageFont
from spielleiter import cli
from spielleiter.app import Box, VirtualClock
from spielleiter.hal.display import FrameSink
from spielleiter.store import Store
from spielleiter.ui import fonts
from spielleiter.ui.menus import main_menu

FIRST_FRAME = """
import json, sys
from spielleiter import cli
from spielleiter.hal.display import FrameSink
seen = []
show = FrameSink.show
def first(self, frame, note=""):
    if not seen:
        seen.append(sorted(sys.modules))
    return show(self, frame, note)
FrameSink.show = first
code = cli.main(sys.argv[1:])
print(json.dumps({"code": code, "modules": seen[0]}))
"""

GAME_MODULES = (".rules", ".bots", ".sim", ".tips", ".table", ".screens", ".templates", ".faces")
"""A game's modules that the first frame must not wait for (rules, computers, data)."""


def test_the_first_frame_loads_no_games_rules_no_numpy_and_no_image_plugin(
    tmp_path: Path,
) -> None:
    keys = tmp_path / "empty.keys"
    keys.write_text("")
    argv = [sys.executable, "-c", FIRST_FRAME, "--keys", str(keys), "--display", "none"]
    done = subprocess.run(
        [*argv, "--data", str(tmp_path / "data")], capture_output=True, text=True, check=True
    )
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["code"] == 0
    modules = found["modules"]
    games = [m for m in modules if m.startswith("spielleiter.games.")]
    assert [m for m in games if m.endswith(GAME_MODULES)] == []
    assert "spielleiter.games.speedtombola.info" in games  # the catalog's facts only
    assert [m for m in modules if m == "numpy" or m.endswith("ImagePlugin")] == []
    assert [m for m in modules if m in LATER] == []


LATER = ("difflib", "hashlib", "socket", "zipfile", "tempfile", "importlib.resources")
"""Standard modules only a rarer path needs (a misspelt name, a digest, the link, a backup;
argparse itself loads shutil):
each loads when first used, not before the first frame (docs/development.md)."""


@pytest.mark.parametrize("size", sorted(fonts.SIZES))
def test_the_fonts_draw_what_pillows_own_loader_draws(size: str) -> None:
    ours = fonts.font(size)
    folder = Path(fonts.__file__).with_name("fonts")
    pillows = ImageFont.load(str(folder / f"misc-fixed-{size}.pil"))
    text = "".join(chr(c) for c in range(32, 256))
    assert bytes(ours.getmask(text)) == bytes(pillows.getmask(text))
    assert ours.getbbox("Speedtombola") == pillows.getbbox("Speedtombola")


def test_a_glyph_sheet_must_be_a_binary_pbm() -> None:
    with pytest.raises(ValueError, match="P4"):
        fonts.glyphs(b"\x89PNG\r\n")
    sheet = fonts.glyphs(b"P4\n8 2\n\x80\x01")
    assert sheet.mode == "1" and sheet.getpixel((0, 0)) == 0 and sheet.getpixel((1, 0)) == 255


def test_the_link_gets_the_frame_shown_as_png(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    shown: list[Image.Image] = []
    box = Box(store, FrameSink([_Recorder(shown)]), VirtualClock(), random.Random(1))
    assert box.screen()[0] == b""  # nothing shown yet
    box.push(main_menu(box))
    box.settle()
    png, summary = box.screen()
    with Image.open(io.BytesIO(png)) as picture:
        assert picture.format == "PNG" and picture.convert("1").tobytes() == shown[-1].tobytes()
    assert summary["title"] == "Spielleiter" and box.screen()[0] == png
    box.close()
    store.close()


class _Recorder:
    def __init__(self, shown: list[Image.Image]) -> None:
        self.shown = shown

    def show(self, frame: Image.Image) -> None:
        self.shown.append(frame.copy())

    def close(self) -> None:
        pass


@pytest.mark.parametrize("preload", [True, False])
def test_the_real_box_shows_its_first_frame_before_the_buttons_spinner_and_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, preload: bool
) -> None:
    """On the Pi, the menu is on the panel before gpiozero, the spinner and pyserial load;
    numpy's preload (setting bot.preload) starts after it too."""
    if not preload:
        store = Store.open(tmp_path / "data")
        store.set_settings({"bot.preload": False})
        store.close()
    frames: list[Any] = []
    opened: dict[str, int] = {}
    real_show = FrameSink.show

    def show(self: FrameSink, frame: Image.Image, note: str = "") -> bool:
        frames.append(frame)
        return real_show(self, frame, note)

    def display(pins: Any, settings: Any, hardware: dict[str, Any]) -> list[Any]:
        hardware["display"] = "ssd1306"
        return []

    def buttons(pins: Any, clock: Any, hardware: dict[str, Any]) -> list[Any]:
        opened["buttons"] = len(frames)
        return []

    def spinner(box: Any, choice: str, emulated: bool, seed: int | None = None) -> Any:
        opened["spinner"] = len(frames)
        return type("Spinner", (), {"mode": "electronic"})()

    def link(box: Any, where: str, *fallback_and_tell: Any) -> None:
        opened["link"] = len(frames)

    monkeypatch.setattr(FrameSink, "show", show)
    monkeypatch.setattr(cli, "has_pi_hardware", lambda bus: True)
    monkeypatch.setattr(cli, "_real_display", display)
    monkeypatch.setattr(cli, "_real_buttons", buttons)
    monkeypatch.setattr(cli, "_buzzer", lambda *args: None)
    monkeypatch.setattr(cli, "_start_link", link)
    monkeypatch.setattr("spielleiter.spinner_service.open_service", spinner)
    def preloading() -> None:
        opened["preload"] = len(frames)

    monkeypatch.setattr("spielleiter.preload.start", preloading)
    monkeypatch.setattr(Box, "run", lambda self: None)
    saved = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        assert cli.main(["--data", str(tmp_path / "data")]) == 0
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)
    assert opened == {"buttons": 1, "spinner": 1, "link": 1} | ({"preload": 1} if preload else {})
