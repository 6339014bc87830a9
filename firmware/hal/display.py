"""Displays: anything that can show a 128x64 one-bit frame.

A luma device (the real SSD1306/SH1106 over I2C, luma's `dummy` in tests, the
luma.emulator window), the terminal, or a folder of PNG frames. `FrameSink` sends a
frame to all of them, and never resends a frame identical to the last one.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, TextIO

from PIL import Image, ImageChops

from .terminal_panel import HALF_BLOCKS, render

WIDTH = 128
HEIGHT = 64


class Display(Protocol):
    """Something that shows frames."""

    def show(self, frame: Image.Image) -> None: ...

    def close(self) -> None: ...


def frames_equal(a: Image.Image | None, b: Image.Image | None) -> bool:
    """True when two frames have the same pixels."""
    if a is None or b is None:
        return a is b
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


class LumaDisplay:
    """A luma.core device: the OLED, the `dummy` device, or the emulator window."""

    def __init__(self, device: Any) -> None:
        self.device = device

    def show(self, frame: Image.Image) -> None:
        self.device.display(frame.convert(self.device.mode))

    def contrast(self, level: int) -> None:
        self.device.contrast(level)

    def close(self) -> None:
        cleanup = getattr(self.device, "cleanup", None)
        if cleanup:
            cleanup()


def open_oled(driver: str, bus: int, address: int) -> LumaDisplay:
    """The real panel over I2C: SSD1306 by default, SH1106 as option."""
    from luma.core.interface.serial import i2c

    serial = i2c(port=bus, address=address)
    if driver == "sh1106":
        from luma.oled.device import sh1106 as make
    else:
        from luma.oled.device import ssd1306 as make
    device = make(serial, width=WIDTH, height=HEIGHT)
    device.cleanup = lambda: None  # keep the last frame visible after exit
    return LumaDisplay(device)


def open_window(scale: int = 4) -> LumaDisplay:
    """A desktop window through luma.emulator (needs the `desktop` extra)."""
    try:
        from luma.emulator.device import pygame
    except ImportError as exc:
        raise RuntimeError(
            "the window needs luma.emulator: pip install 'spielleiter[desktop]'"
        ) from exc
    return LumaDisplay(
        pygame(width=WIDTH, height=HEIGHT, mode="1", transform="identity", scale=scale)
    )


class TerminalDisplay:
    """The emulated panel drawn in a terminal, the soft-key labels under it.

    It takes the finest rendering that fits the terminal (half blocks, quadrants,
    braille; see terminal_panel) and draws anew, cleanly, when the terminal is resized.
    """

    def __init__(
        self,
        out: TextIO = sys.stdout,
        labels: Callable[[], list[str]] | None = None,
        size: Callable[[], tuple[int, int]] | None = None,
    ) -> None:
        self.out = out
        self.labels = labels
        self.size = size or self._terminal_size
        self._shown: tuple[int, int] | None = None
        self._last: Image.Image | None = None
        self._watch_resize()

    def _terminal_size(self) -> tuple[int, int]:
        try:
            columns, lines = os.get_terminal_size(self.out.fileno())
        except (AttributeError, OSError, ValueError):
            return (HALF_BLOCKS.columns, HALF_BLOCKS.rows)  # not a terminal: the finest
        return (columns, lines)

    def _watch_resize(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return
        if not hasattr(signal, "SIGWINCH") or not getattr(self.out, "isatty", lambda: False)():
            return
        signal.signal(signal.SIGWINCH, lambda *_: self.redraw())

    def redraw(self) -> None:
        """Draw the last frame again (after a resize)."""
        if self._last is not None:
            self.show(self._last)

    def show(self, frame: Image.Image) -> None:
        self._last = frame
        size = self.size()
        labels = self.labels() if self.labels is not None else None
        lines = render(frame, size, labels)
        # a new size starts from a clean screen: no wrapped debris of the old drawing
        prefix = "\x1b[2J\x1b[H" if size != self._shown else "\x1b[H"
        self._shown = size
        self.out.write(prefix + "\n".join(lines) + "\n")
        self.out.flush()

    def close(self) -> None:
        self.out.write("\n")
        self.out.flush()


class FrameFolder:
    """Every new frame as frame-000001.png, frame-000002.png, ... in a folder, each listed
    in frames.tsv. A folder used before starts afresh: the frames and the list of the
    earlier run are removed (other files stay), so it holds this run's frames only."""

    def __init__(self, folder: Path | str, scale: int = 1) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        for old in self.folder.glob("frame-[0-9]*.png"):
            old.unlink()
        self.scale = scale
        self.count = 0
        self._log = (self.folder / "frames.tsv").open("w", encoding="utf-8")

    def show(self, frame: Image.Image, note: str = "") -> None:
        self.count += 1
        name = f"frame-{self.count:06d}.png"
        picture = frame.convert("1")
        if self.scale > 1:
            size = (picture.width * self.scale, picture.height * self.scale)
            picture = picture.resize(size, Image.Resampling.NEAREST)
        picture.save(self.folder / name)
        self._log.write(f"{name}\t{note}\n")
        self._log.flush()

    def close(self) -> None:
        self._log.close()


class FrameSink:
    """Shows each frame on every display, skipping frames identical to the last one."""

    def __init__(self, displays: list[Any]) -> None:
        self.displays = displays
        self.last: Image.Image | None = None
        self.sent = 0

    def show(self, frame: Image.Image, note: str = "") -> bool:
        """Send a frame; False when it equals the last one and nothing was sent."""
        if frames_equal(frame, self.last):
            return False
        self.last = frame.copy()
        self.sent += 1
        for display in self.displays:
            if isinstance(display, FrameFolder):
                display.show(frame, note)
            else:
                display.show(frame)
        return True

    def contrast(self, level: int) -> None:
        for display in self.displays:
            if hasattr(display, "contrast"):
                display.contrast(level)

    def close(self) -> None:
        for display in self.displays:
            display.close()
