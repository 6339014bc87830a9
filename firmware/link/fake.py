"""A LinkDevice without the app: for tests, benchmarks, and trying spielleiter-host.

`python -m spielleiter.link.fake --data DIR` serves a pty with a real Store and a
fixed picture, and prints `serial: /dev/pts/N` like the app's `--serial pty` mode.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
import threading
import time
from typing import Any

from PIL import Image, ImageDraw

from .. import __version__
from ..admin import PinGuard
from ..store import Store
from .server import LinkServer


def test_picture() -> bytes:
    """A 128x64 PNG with a frame and a diagonal, so orientation errors show."""
    image = Image.new("1", (128, 64), 0)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 127, 63), outline=1)
    draw.line((0, 0, 127, 63), fill=1)
    draw.rectangle((4, 4, 11, 9), fill=1)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


class FakeDevice:
    """Answers like the app, from a Store and fixed values; remembers what it was told."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.started = time.monotonic()
        self.picture = test_picture()
        self.summary: dict[str, Any] = {"screen": "Hauptmenü"}
        self.applied: list[dict[str, Any]] = []
        self.calibrations: list[dict[str, Any]] = []
        self.game: str | None = None
        self.fault: str | None = None
        self.pin_skew = 0.0
        """Seconds added to the PIN guard's clock (tests step over a back-off)."""
        self.pin_guard = PinGuard(store, lambda: time.time() + self.pin_skew)
        self._lock = threading.Lock()

    def hello(self) -> dict[str, Any]:
        return {
            "firmware": __version__,
            "hardware": {"display": "emulated", "buttons": "keyboard", "spinner": "emulated"},
            "uptime_s": round(time.monotonic() - self.started, 1),
            "game": self.game,
        }

    def screen(self) -> tuple[bytes, dict[str, Any]]:
        return self.picture, dict(self.summary)

    def settings_changed(self, settings: dict[str, Any]) -> None:
        with self._lock:
            self.applied.append(dict(settings))

    def spinner_read(self) -> dict[str, Any]:
        return {"angle": 12.5, "result": "petal", "sector": 0, "source": "emulated"}

    def spinner_calibrate(self, params: dict[str, Any], check_only: bool = False) -> dict[str, Any]:
        offset = params.get("offset", 0.0)
        if isinstance(offset, bool) or not isinstance(offset, int | float):
            raise ValueError("offset must be a number of degrees")
        if check_only:
            return {}
        with self._lock:
            self.calibrations.append(params)
        return {"calibration": {"offset": float(offset)}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="a fake Spielleiter link on a pty")
    parser.add_argument("--data", help="data directory (default: a temporary one)")
    args = parser.parse_args(argv)
    data = args.data or tempfile.mkdtemp(prefix="spielleiter-fake-")
    server = LinkServer.on_pty(FakeDevice(Store.open(data)))
    server.start()
    print(f"serial: {server.port_name}", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
