"""Displays: the luma device shows the frame, identical frames are not resent, PNG frames."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from helpers import lit, load_frame, same_pixels
from luma.core.device import dummy
from PIL import Image
from spielleiter.hal.display import (
    HEIGHT,
    WIDTH,
    FrameFolder,
    FrameSink,
    LumaDisplay,
    TerminalDisplay,
    frames_equal,
)
from spielleiter.hal.terminal_panel import (
    BRAILLE,
    HALF_BLOCKS,
    QUADRANTS,
    RENDERINGS,
    Rendering,
    cells,
    choose,
)
from spielleiter.hal.terminal_panel import render as render_text
from spielleiter.ui.canvas import SOFTKEY_TOP, Canvas
from spielleiter.ui.screen import Screen, SoftKey, render
from spielleiter.ui.widgets import Item, ListMenu


class Recorder:
    """A display that keeps every frame it was shown."""

    def __init__(self) -> None:
        self.frames: list[Image.Image] = []
        self.closed = False

    def show(self, frame: Image.Image) -> None:
        self.frames.append(frame.copy())

    def close(self) -> None:
        self.closed = True


def a_frame(text: str) -> Image.Image:
    canvas = Canvas()
    canvas.text((2, 2), text)
    return canvas.image


def test_the_luma_device_shows_the_frame() -> None:
    device = dummy(width=WIDTH, height=HEIGHT, mode="1")
    display = LumaDisplay(device)
    frame = a_frame("Hallo Tisch")
    display.show(frame)
    assert same_pixels(device.image, frame)
    display.contrast(50)
    display.close()


def test_an_identical_frame_is_not_sent_again() -> None:
    recorder = Recorder()
    sink = FrameSink([recorder])
    assert sink.show(a_frame("eins"))
    assert not sink.show(a_frame("eins"))
    assert sink.show(a_frame("zwei"))
    assert not sink.show(a_frame("zwei"))
    assert sink.show(a_frame("eins"))
    assert sink.sent == 3
    assert len(recorder.frames) == 3
    assert frames_equal(recorder.frames[1], a_frame("zwei"))
    sink.close()
    assert recorder.closed


def test_the_sink_keeps_its_own_copy_of_the_last_frame() -> None:
    recorder = Recorder()
    sink = FrameSink([recorder])
    canvas = Canvas()
    sink.show(canvas.image)
    canvas.text((0, 0), "neu")
    assert sink.show(canvas.image), "a frame drawn over after sending is a new frame"


def test_the_frame_folder_numbers_frames_and_notes_them(tmp_path: Path) -> None:
    folder = FrameFolder(tmp_path / "frames")
    sink = FrameSink([folder])
    for i, text in enumerate(["a", "a", "b", "c"]):
        sink.show(a_frame(text), f"7\t{i}")
    sink.close()
    names = sorted(p.name for p in (tmp_path / "frames").glob("*.png"))
    assert names == ["frame-000001.png", "frame-000002.png", "frame-000003.png"]
    assert same_pixels(load_frame(tmp_path / "frames" / "frame-000002.png"), a_frame("b"))
    notes = (tmp_path / "frames" / "frames.tsv").read_text("utf-8").splitlines()
    assert notes == ["frame-000001.png\t7\t0", "frame-000002.png\t7\t2", "frame-000003.png\t7\t3"]


class TwoKeys(Screen):
    def softkeys(self) -> list[SoftKey | None]:
        return [SoftKey("Nimm", "n"), None, None, SoftKey("Nein", "g")]


def test_the_soft_key_line_labels_the_keys_in_use() -> None:
    image = render(TwoKeys()).image
    assert lit(image, (0, SOFTKEY_TOP - 1, WIDTH, SOFTKEY_TOP)) == WIDTH, "the dividing line"
    cells = [(x + 2, SOFTKEY_TOP + 1, x + 31, HEIGHT) for x in range(0, WIDTH, 32)]
    assert lit(image, cells[0]) > 0
    assert lit(image, cells[1]) == 0
    assert lit(image, cells[2]) == 0
    assert lit(image, cells[3]) > 0
    assert lit(image, (0, 0, WIDTH, SOFTKEY_TOP - 1)) == 0, "the body is empty"


def test_half_blocks_show_two_pixel_rows_per_text_row() -> None:
    rows = cells(Image.new("1", (WIDTH, HEIGHT), 1), HALF_BLOCKS)
    assert len(rows) == HEIGHT // 2
    assert all(row == "\u2588" * WIDTH for row in rows)
    half = Image.new("1", (WIDTH, HEIGHT), 0)
    half.paste(1, (0, 0, WIDTH, 1))
    assert cells(half, HALF_BLOCKS)[0] == "\u2580" * WIDTH


def pixels_back(rows: list[str], rendering: Rendering) -> Image.Image:
    """Decode a text rendering into pixels again (to check that no pixel is lost)."""
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    quadrants = " ▘▝▀▖▌▞▛▗▚▐▜▄▙▟█"
    braille = ((0, 0, 1), (0, 1, 2), (0, 2, 4), (1, 0, 8), (1, 1, 16), (1, 2, 32),
               (0, 3, 64), (1, 3, 128))  # fmt: skip
    for cy, row in enumerate(rows):
        for cx, ch in enumerate(row):
            x, y = cx * rendering.cell_w, cy * rendering.cell_h
            if rendering is HALF_BLOCKS:
                dots = [(0, 0)] * (ch in "▀█") + [(0, 1)] * (ch in "▄█")
            elif rendering is QUADRANTS:
                code = quadrants.index(ch)
                corners = ((1, (0, 0)), (2, (1, 0)), (4, (0, 1)), (8, (1, 1)))
                dots = [d for bit, d in corners if code & bit]
            else:
                code = ord(ch) - 0x2800
                dots = [(dx, dy) for dx, dy, bit in braille if code & bit]
            for dx, dy in dots:
                image.putpixel((x + dx, y + dy), 1)
    return image


@pytest.mark.parametrize("rendering", RENDERINGS, ids=lambda r: r.name)
def test_every_rendering_keeps_every_pixel(rendering: Rendering) -> None:
    frame = a_frame("Nein danke 31").convert("1")
    assert same_pixels(pixels_back(cells(frame, rendering), rendering), frame)


@pytest.mark.parametrize(
    ("size", "expected"),
    [((130, 40), HALF_BLOCKS), ((80, 36), QUADRANTS), ((80, 24), BRAILLE), ((66, 20), BRAILLE),
     ((60, 24), None), ((80, 19), None), ((20, 5), None)],
)  # fmt: skip
def test_the_finest_rendering_that_fits_the_terminal(
    size: tuple[int, int], expected: Rendering | None
) -> None:
    assert choose(size) is expected
    lines = render_text(a_frame("x"), size, ["Nein", "Nehmen", "Rat", "Info"])
    assert len(lines) <= size[1] and max(len(line) for line in lines) <= size[0]
    if expected is None:
        assert len(lines) == 1 and "zu klein" in lines[0]


def test_an_80_by_24_terminal_shows_the_whole_panel_and_a_resize_redraws_cleanly() -> None:
    out = io.StringIO()
    size = [(80, 24)]
    display = TerminalDisplay(out, labels=lambda: ["Nein", "", "", "Info"], size=lambda: size[0])
    display.show(a_frame("x"))
    first = out.getvalue()
    assert first.startswith("\x1b[2J") and first.count("|") == 2 * (HEIGHT // 4)
    assert "[1] Nein" in first
    display.show(a_frame("y"))
    assert out.getvalue()[len(first):].startswith("\x1b[H")  # same size: no clearing
    size[0] = (140, 40)
    mark = len(out.getvalue())
    display.redraw()
    again = out.getvalue()[mark:]
    assert again.startswith("\x1b[2J") and again.count("|") == 2 * (HEIGHT // 2)


def test_the_terminal_shows_the_panel_and_the_key_labels() -> None:
    out = io.StringIO()
    TerminalDisplay(out, labels=lambda: ["Nimm", "", "", "Nein"]).show(a_frame("x"))
    text = out.getvalue()
    assert "[1] Nimm" in text and "[4] Nein" in text
    assert text.count("|") == 2 * (HEIGHT // 2)


def test_text_outside_latin1_is_drawn_without_crashing() -> None:
    canvas = Canvas()
    canvas.text((0, 0), "Jörg \U0001f3b2 Ω")
    canvas.text_center(20, "\U0001f600\U0001f600")
    canvas.wrap((0, 30), "Anna \u2603 und \U0001f47b spielen")
    assert lit(canvas.image, (0, 0, WIDTH, 10)) > 0


def test_a_menu_with_an_emoji_name_renders() -> None:
    menu = ListMenu("Namen", [Item("Lena \U0001f984", lambda: None), Item("Ömer", lambda: None)])
    image = render(menu).image
    assert lit(image, (0, 11, WIDTH, 22)) > 0


def test_the_terminal_keyboard_posts_keys_and_arrows() -> None:
    import os
    import pty
    import time

    from spielleiter.hal.terminal import Keyboard

    main, child = pty.openpty()
    posted: list[str] = []
    stopped: list[bool] = []
    keyboard = Keyboard(os.fdopen(child, "r", closefd=False))
    keyboard.start(posted.append, lambda: stopped.append(True))
    try:
        for data in (b"1", b"\x1b[B", b"\x1bOA", b"\x1b[15~", b"x"):
            os.write(main, data)
            time.sleep(0.15)  # one read per key, as a person types
    finally:
        keyboard.stop()
        os.close(main)
        os.close(child)
    assert posted == ["1", "\u2193", "\u2191", "x"] and not stopped
