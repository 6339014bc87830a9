"""The emulator's keyboard: raw key presses from a terminal, read in their own thread."""

from __future__ import annotations

import os
import select
import termios
import threading
import tty
from collections.abc import Callable
from typing import TextIO

CTRL_C = "\x03"
ARROWS = {
    f"\x1b{kind}{code}": arrow
    for kind in "[O"
    for code, arrow in zip("ABCD", "\u2191\u2193\u2192\u2190", strict=True)
}
"""The arrow keys' escape sequences, posted as the arrows ↑ ↓ → ← (one character each)."""


class Keyboard:
    """Reads single characters from a terminal and hands them to the box."""

    def __init__(self, stream: TextIO) -> None:
        self.fd = stream.fileno()
        self._saved: list | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, post: Callable[[str], None], quit: Callable[[], None]) -> None:
        """Put the terminal in cbreak mode and start reading."""
        self._saved = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd)
        self._thread = threading.Thread(target=self._read, args=(post, quit), daemon=True)
        self._thread.start()

    def _read(self, post: Callable[[str], None], quit: Callable[[], None]) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self.fd], [], [], 0.1)
            if not ready:
                continue
            data = os.read(self.fd, 16).decode("utf-8", "replace")
            if not data:
                quit()
                return
            if data == "\x1b":
                post("\x1b")
                continue
            if data.startswith("\x1b"):
                arrow = ARROWS.get(data[:3])
                if arrow is not None:
                    post(arrow)
                continue  # other escape sequences (function keys) mean nothing here
            for ch in data:
                if ch == CTRL_C:
                    quit()
                    return
                post(ch)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1.0)  # it looks at the flag every 0.1 s
        if self._saved is not None:
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
            self._saved = None
