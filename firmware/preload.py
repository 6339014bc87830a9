"""What the box loads in the background once its first frame is on the panel.

The computers' simulators need numpy, and its import costs a Raspberry Pi Zero 2 W
about 1.5 s (`benchmarks/pi.py`). Loaded when first needed, that second and a half fell
on the press of Start (Speedtombola's table imports its computers) or on a computer's
first move. The box therefore imports it on a thread of its own right after the first
frame, while the players are still in the menus (setting `bot.preload`, on by default;
docs/development.md, "Estimated for the Pi").

Only numpy is loaded here (with `numpy.random`, which numpy 2 loads only when first
used, numpy 1.24 at once): a library that never imports the box's own modules, so the
thread cannot meet the box's own imports in a circle (Python's per-module import locks
let a second thread that wants numpy wait until it is whole). A failure is only logged:
the game that needs the module imports it again and says what is wrong there.
"""

from __future__ import annotations

import importlib
import logging
import threading
from collections.abc import Sequence

log = logging.getLogger("spielleiter")

MODULES = ("numpy", "numpy.random")
"""What the box preloads: libraries only, never a module of the box's own."""


def start(modules: Sequence[str] = MODULES) -> threading.Thread:
    """Import `modules` on a daemon thread (it does not hold up the box's exit)."""
    thread = threading.Thread(target=load, args=(tuple(modules),), name="preload", daemon=True)
    thread.start()
    return thread


def load(modules: Sequence[str]) -> None:
    """Import each module in turn; one that fails is logged and the rest still load."""
    for name in modules:
        try:
            importlib.import_module(name)
        except Exception as exc:  # noqa: BLE001 - any import failure: the game says it later
            log.warning("preload: %s not loaded: %s: %s", name, type(exc).__name__, exc)
