"""The device program: cold start to the first frame, frame render time, idle memory.

Goals on the Pi Zero 2 W: first frame within 1.0 s, a frame drawn within 5 ms, the idle
box within 60 MB resident (with numpy, which it preloads after its first frame, and
without: setting bot.preload). Prints numbers only, measured here (wall time);
benchmarks/pi.py estimates the figures for the Pi.

Run: .venv/bin/python benchmarks/device.py
"""

from __future__ import annotations

import json
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from spielleiter.app import Box, VirtualClock
from spielleiter.games.base import Seat
from spielleiter.hal.display import FrameSink
from spielleiter.store import Store
from spielleiter.ui.menus import launch, main_menu

COLD_STARTS = 5
RENDERS = 300
IDLE_S = 1.5


def spawn_headless(folder: Path) -> subprocess.Popen[bytes]:
    """The emulated box with no terminal and no script: it waits for input until SIGTERM."""
    argv = [sys.executable, "-m", "spielleiter", "--emulate"]
    argv += ["--frames", str(folder / "frames"), "--data", str(folder / "data")]
    return subprocess.Popen(
        argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def cold_start_s(folder: Path) -> float:
    """Seconds from spawn until the first frame file exists."""
    first = folder / "frames" / "frame-000001.png"
    started = time.perf_counter()
    proc = spawn_headless(folder)
    try:
        while not first.exists():
            if proc.poll() is not None:
                raise RuntimeError(f"the box exited with {proc.returncode} before a frame")
            time.sleep(0.002)
        return time.perf_counter() - started
    finally:
        stop(proc)


def idle_memory(folder: Path, preload: bool = True) -> tuple[float, bool]:
    """Resident MB of the idle box after IDLE_S, and whether numpy got loaded (it is, in
    the background after the first frame, unless the setting bot.preload is off)."""
    store = Store.open(folder / "data")
    store.set_settings({"bot.preload": preload})
    store.close()
    proc = spawn_headless(folder)
    try:
        time.sleep(IDLE_S)
        status = Path(f"/proc/{proc.pid}/status").read_text()
        rss_kb = next(int(line.split()[1]) for line in status.splitlines() if line[:6] == "VmRSS:")
        numpy = "numpy" in Path(f"/proc/{proc.pid}/maps").read_text()
        return rss_kb / 1024, numpy
    finally:
        stop(proc)


KEYS_WHILE_PRELOADING = """
import json, random, sys, tempfile, time
from pathlib import Path
from spielleiter import preload
from spielleiter.app import Box, VirtualClock
from spielleiter.hal.display import FrameSink
from spielleiter.hal.keys import KeyEvent
from spielleiter.store import Store
from spielleiter.ui.menus import main_menu
with tempfile.TemporaryDirectory() as folder:
    store = Store.open(Path(folder))
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(1))
    box.push(main_menu(box))
    box.settle()
    thread = preload.start() if sys.argv[1] == "1" else None
    started, times = time.perf_counter(), []
    while time.perf_counter() - started < 0.4 or (thread is not None and thread.is_alive()):
        pressed = time.perf_counter()
        box.post(KeyEvent.parse("K2"))
        box.step()
        times.append((time.perf_counter() - pressed) * 1000)
        time.sleep(0.005)
    box.close()
    store.close()
print(json.dumps(times))
"""
"""A key every 5 ms on the main menu, each handled and drawn (`step`), while numpy loads
on the preload's thread (argv 1) or with nothing beside it (0); milliseconds."""


def keys_while_preloading(preload: bool) -> list[float]:
    argv = [sys.executable, "-c", KEYS_WHILE_PRELOADING, str(int(preload))]
    done = subprocess.run(argv, check=True, capture_output=True, text=True)
    times: list[float] = json.loads(done.stdout.strip().splitlines()[-1])
    return times


def render_ms(box: Box) -> list[float]:
    times = []
    for _ in range(RENDERS):
        started = time.perf_counter()
        box.frame()
        times.append((time.perf_counter() - started) * 1000)
    return times


def boxes(folder: Path) -> dict[str, Box]:
    """A box on the main menu, and one on the Speedtombola table."""
    store = Store.open(folder / "render-data")
    menu = Box(store, FrameSink([]), VirtualClock(), random.Random(1))
    menu.push(main_menu(menu))
    found = {"main menu": menu}
    table = Box(store, FrameSink([]), VirtualClock(), random.Random(1))
    table.push(main_menu(table))
    seats = [Seat("Anna"), Seat("Leicht 1", "computer", "leicht"), Seat("Ben")]
    launch(table, "speedtombola", {"players": 3}, seats)
    table.settle()
    found["Speedtombola table"] = table
    return found


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        starts = [cold_start_s(root / f"cold-{i}") for i in range(COLD_STARTS)]
        print(
            f"cold start to first frame: median {statistics.median(starts):.3f} s, "
            f"max {max(starts):.3f} s over {COLD_STARTS} starts (goal <= 1.0 s)"
        )
        rendered = boxes(root)
        for name, box in rendered.items():
            times = render_ms(box)
            print(
                f"render {name}: median {statistics.median(times):.3f} ms, "
                f"max {max(times):.3f} ms over {RENDERS} frames (goal <= 5 ms)"
            )
            box.close()
        rendered["main menu"].store.close()
        for preload in (False, True):
            times = keys_while_preloading(preload)
            beside = "while numpy preloads" if preload else "with nothing beside"
            print(
                f"a key handled and drawn on the main menu {beside}: median "
                f"{statistics.median(times):.3f} ms, max {max(times):.3f} ms over {len(times)} keys"
            )
        for preload in (True, False):
            rss, numpy = idle_memory(root / f"idle-{preload}", preload)
            print(
                f"idle box resident memory, bot.preload {str(preload).lower()}: {rss:.1f} MB "
                f"after {IDLE_S} s, numpy {'loaded' if numpy else 'not loaded'} (goal <= 60 MB)"
            )


if __name__ == "__main__":
    main()
