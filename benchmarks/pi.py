"""The box's figures as measured here and as estimated for a Raspberry Pi Zero 2 W.

A fixed calibration loop runs in the same process as the figures: the inner loop of the
cpu-benchmark project (alexdedyura/cpu-benchmark: ``3.141592 * 2**x`` for x below
1000, then ``float(x) / 3.141592`` and ``float(3.141592) / x`` for x below 10,000, at a
script's top level), whose 10,000 repetitions were published at 245 s on a Pi 3B+ with
Python 3.11.2. The Zero 2 W has the same Cortex-A53 cores at 1.0 GHz instead of 1.4 GHz:
x1.2-1.4, so 294-343 s. A fraction of the repetitions runs here (CPU time, the best of
a few) and is scaled to 10,000; the factor (Zero 2 W time / this machine's time) is a
range, and every figure is printed as measured here and times that range.

All figures are CPU time of the process (time.process_time, or the child's rusage), so
another process on a shared machine inflates them less than wall time; the load is
printed. The estimate scales Python's own work; numpy's compiled loops (Stark, Rat)
may scale differently on the Pi's NEON than here, and the SD card's waits (sqlite's
fsync, the daily backup) are not CPU time and are not in it. A goal is "met" when the
slow end of the range meets it, "met at the low end" when only the fast end does.

Run: .venv/bin/python benchmarks/pi.py [--quick] [--against TREE]

--quick measures fewer repetitions and positions (about ten seconds), to quote the
machine's load beside a full run (about a minute). --against TREE adds the figures that
run in fresh processes (the first frame, Besenbingo's start) for another checkout, e.g.
``git worktree add /tmp/old REV``, alternated with this one's, and their ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import besenbingo
import bungee_stark
import device
import engel_bengel
import tombola_sim
from spielleiter.games.besenbingo import bots as besen_bots
from spielleiter.games.besenbingo.templates import default_templates
from spielleiter.games.bungee import bots as bungee_bots
from spielleiter.games.engel_bengel import bots as engel_bots
from spielleiter.games.speedtombola import bots as tombola_bots

PUBLISHED_PI3B_PLUS_S = 245.0
"""cpu-benchmark, 10,000 repetitions, Raspberry Pi 3B+ (1.4 GHz Cortex-A53), Python 3.11.2."""
ZERO_2W_SLOWER = (1.2, 1.4)
"""The Zero 2 W's 1.0 GHz against the 3B+'s 1.4 GHz (memory and caches make it less
than the clock ratio alone)."""
FULL_REPETITIONS = 10_000

CALIBRATION = compile(
    textwrap.dedent(
        """
        for i in range(0, repetitions):
            for x in range(1, 1000):
                3.141592 * 2**x
            for x in range(1, 10000):
                float(x) / 3.141592
            for x in range(1, 10000):
                float(3.141592) / x
        """
    ),
    "<cpu-benchmark>",
    "exec",
)
"""The published loop, run as the script runs it: at top level (global names)."""


@dataclass(frozen=True)
class Factor:
    """How many times slower a Zero 2 W is than this machine (a range)."""

    low: float
    high: float

    def pi(self, seconds: float) -> tuple[float, float]:
        return seconds * self.low, seconds * self.high


def calibrate(repetitions: int, tries: int) -> tuple[float, Factor]:
    """(CPU seconds here for all 10,000 repetitions, the Zero 2 W factor)."""
    best = float("inf")
    for _ in range(tries):
        started = time.process_time()
        exec(CALIBRATION, {"repetitions": repetitions})  # noqa: S102 - our own fixed loop
        best = min(best, time.process_time() - started)
    here = best * FULL_REPETITIONS / repetitions
    low, high = (PUBLISHED_PI3B_PLUS_S * k for k in ZERO_2W_SLOWER)
    return here, Factor(low / here, high / here)


# --- printing ----------------------------------------------------------------------------


def amount(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1.0 else f"{seconds:.2f} s"


class Report:
    """One line per figure: here, on the Pi, the goal and whether it is met."""

    def __init__(self, factor: Factor) -> None:
        self.factor = factor
        self.verdicts: list[tuple[str, str]] = []
        print(f"{'figure':<52} {'here':>9}  {'Zero 2 W (est.)':>19}  goal")

    def line(self, name: str, seconds: float, goal: float | None = None) -> None:
        low, high = self.factor.pi(seconds)
        pi = f"{amount(low)} - {amount(high)}"
        verdict = ""
        if goal is not None:
            met = "met" if high <= goal else "not met" if low > goal else "met at the low end"
            verdict = f"<= {amount(goal)}  {met}"
            self.verdicts.append((name, met))
        print(f"{name:<52} {amount(seconds):>9}  {pi:>19}  {verdict}")

    def percentiles(
        self, name: str, seconds: Sequence[float], goals: tuple[float, float] | None = None
    ) -> None:
        median, p95 = statistics.median(seconds), percentile(seconds, 95)
        self.line(f"{name}: median (n={len(seconds)})", median, goals[0] if goals else None)
        self.line(f"{name}: p95", p95, goals[1] if goals else None)

    def note(self, text: str) -> None:
        print(f"  {text}")


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def cpu(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> float:
    """CPU seconds of one call."""
    started = time.process_time()
    fn(*args, **kwargs)
    return time.process_time() - started


# --- the first frame, in fresh processes --------------------------------------------------

PI_ONLY = {
    "luma": ["luma.core.interface.serial", "luma.oled.device"],
    "parts": ["gpiozero", "serial", "spielleiter.link.server"],
}
"""What the real panel needs before its first frame (the OLED's driver), and what the
buttons and the serial link load (opened after the first frame)."""


FIRST_FRAME_CODE = """
import time
start = time.process_time()
import json, sys
PI_ONLY = json.loads(sys.argv.pop(1))
from spielleiter import cli
from spielleiter.hal.display import FrameSink
imported = time.process_time()
marks = []
show = FrameSink.show
def first(self, frame, note=""):
    if not marks:
        marks.append(time.process_time())
    return show(self, frame, note)
FrameSink.show = first
cli.main(sys.argv[1:])
found = {"start": start, "imported": imported, "frame": marks[0]}
for name, modules in PI_ONLY.items():
    before = time.process_time()
    try:
        for module in modules:
            __import__(module)
    except ImportError:
        continue
    found[name] = time.process_time() - before
print(json.dumps(found))
"""
"""The box as `spielleiter --keys EMPTY --display none --data DIR` runs it, up to the
first frame handed to the panel (the interpreter's own start is `start`); then the
imports that only the Pi's real parts need (PI_ONLY), timed after it."""


def child_cpu(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, str]:
    """(user + system CPU seconds, stdout) of one child process. The child may write
    bytecode (an installed box has it; a first run here writes it for the later ones)."""
    env = {k: v for k, v in (env or os.environ).items() if k != "PYTHONDONTWRITEBYTECODE"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, check=True, capture_output=True, text=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return used, done.stdout


def first_frame_argv(folder: Path) -> list[str]:
    """The child that starts the box on `folder` (made once: the box's everyday start)."""
    keys = folder / "empty.keys"
    keys.write_text("")
    argv = [sys.executable, "-c", FIRST_FRAME_CODE, json.dumps(PI_ONLY), "--keys", str(keys)]
    argv += ["--display", "none"]
    return [*argv, "--data", str(folder / "data")]


def first_frame_once(argv: list[str], env: dict[str, str] | None = None) -> dict[str, float]:
    """One start: the interpreter (a bare `python -c pass`), imports, the rest; PI_ONLY."""
    python = child_cpu([sys.executable, "-c", "pass"], env)[0]
    marks = json.loads(child_cpu(argv, env)[1].strip().splitlines()[-1])
    found = {
        "python": python,
        "imports": marks["imported"] - marks["start"],
        "rest": marks["frame"] - marks["imported"],
    }
    return found | {name: marks[name] for name in PI_ONLY if name in marks}


def medians(runs: Sequence[dict[str, float]]) -> dict[str, float]:
    return {k: statistics.median(r[k] for r in runs) for k in runs[0]}


def first_frame(folder: Path, starts: int) -> dict[str, float]:
    """Medians over fresh processes on a data folder that exists (the box's every start)."""
    argv = first_frame_argv(folder)
    child_cpu(argv)  # the data folder's first start creates the database
    return medians([first_frame_once(argv) for _ in range(starts)])


# --- a game ready to play after Start, in a fresh process --------------------------------

GAME_READY = """
import json, random, sys, tempfile, time
from pathlib import Path
from spielleiter.app import Box, VirtualClock
from spielleiter.games import catalog
from spielleiter.games.base import Seat
from spielleiter.hal.display import FrameSink
from spielleiter.store import Store
from spielleiter.ui.menus import launch, main_menu
game, level, computers, preloaded = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"
with tempfile.TemporaryDirectory() as folder:
    store = Store.open(Path(folder))
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(1))
    box.push(main_menu(box))
    box.settle()
    store.daily_backup()  # the day's backup is made (the day's first game copies the data)
    if preloaded:
        import numpy.random  # what the box's preload (setting bot.preload) has done by then
    names = [f"{level.capitalize()} {i + 1}" for i in range(computers)]
    seats = [Seat("Anna")] + [Seat(name, "computer", level) for name in names]
    start = time.process_time()
    if game == "besenbingo":
        durchgang = catalog.entry("besenbingo").load("table:digital_durchgang")
        launch(box, "besenbingo", *durchgang(store, seats))
    else:
        launch(box, game, {}, seats)
    box.settle()
    took = time.process_time() - start
    if game == "besenbingo":
        assert box.table.phase == "first", box.table.phase
    box.close()
    store.close()
print(json.dumps({"ready": took}))
"""
"""From the setup's Start to the game's first screen, ready for a key: the game's modules
loaded (numpy too, unless `preloaded`), the record stored, the computers' tables built
(threads included: a Besenbingo computer's). The day's first game also makes the daily
backup (mostly the SD card's time, not the CPU's)."""


class Start(NamedTuple):
    """A start measured: its line, the game, the computers' level and number, whether
    numpy is preloaded, and the goal (Besenbingo's, from its computers issue)."""

    name: str
    game: str
    level: str
    computers: int
    preloaded: bool = False
    goal: float | None = None


READY = {
    "besenbingo 1": Start(
        "Besenbingo ready to play, 1 human + 1 Stark", "besenbingo", "stark", 1, goal=0.5
    ),
    "besenbingo 8": Start(
        "Besenbingo ready to play, 1 human + 8 Stark", "besenbingo", "stark", 8, goal=0.5
    ),
    "speedtombola": Start(
        "Speedtombola ready to play, first of a boot", "speedtombola", "normal", 2
    ),
    "speedtombola preloaded": Start(
        "  the same, numpy preloaded (bot.preload)", "speedtombola", "normal", 2, preloaded=True
    ),
}
"""The starts measured; Speedtombola with Normal computers, whose first thought is too
small to count beside the start."""


def ready_once(start: str, env: dict[str, str] | None = None) -> float:
    at = READY[start]
    argv = [sys.executable, "-c", GAME_READY, at.game, at.level, str(at.computers)]
    argv.append(str(int(at.preloaded)))
    ready: float = json.loads(child_cpu(argv, env)[1].strip().splitlines()[-1])["ready"]
    return ready


def ready(start: str, starts: int) -> float:
    ready_once(start)  # bytecode written
    return statistics.median(ready_once(start) for _ in range(starts))


# --- this tree against another one (a git worktree of an older commit) -------------------


def tree_env(tree: Path, shim: Path) -> dict[str, str]:
    """An environment whose children import `spielleiter` from another checkout: a folder
    of links to its firmware/ (plus hardware/ as spielleiter.hardware) and its host/,
    ahead of this checkout's editable install on the path."""
    package = shim / "spielleiter"
    package.mkdir()
    for item in (tree / "firmware").iterdir():
        (package / item.name).symlink_to(item)
    (package / "hardware").symlink_to(tree / "hardware")
    (shim / "spielleiter_host").symlink_to(tree / "host")
    return {**os.environ, "PYTHONPATH": str(shim)}


def compare(tree: Path, rounds: int, factor: Factor) -> None:
    """The figures that run in fresh processes, here and in `tree`, alternated."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "shim").mkdir()
        envs = {"old": tree_env(tree.resolve(), root / "shim"), "new": None}
        argv: dict[str, list[str]] = {}
        for name in envs:
            (root / name).mkdir(exist_ok=True)
            argv[name] = first_frame_argv(root / name)
            child_cpu(argv[name], envs[name])  # the database made, bytecode written
            ready_once("besenbingo 1", envs[name])
        runs: dict[str, list[dict[str, float]]] = {name: [] for name in envs}
        for i in range(rounds):
            for name in list(envs) if i % 2 == 0 else list(envs)[::-1]:
                frame = first_frame_once(argv[name], envs[name])
                frame["sum"] = frame["python"] + frame["imports"] + frame["rest"]
                for start in READY:
                    frame[start] = ready_once(start, envs[name])
                runs[name].append(frame)
    old, new = medians(runs["old"]), medians(runs["new"])
    print(f"\n{tree} (old) against this checkout (new), {rounds} alternated runs each:")
    names = {
        "imports": "first frame: imports",
        "rest": "first frame: data, box, menu, first frame",
        "sum": "first frame, emulated box (sum)",
    } | {start: at.name for start, at in READY.items()}
    for key, name in names.items():
        low, high = factor.pi(new[key])
        print(
            f"{name:<46} old {amount(old[key]):>9}  new {amount(new[key]):>9}  "
            f"new/old {new[key] / old[key]:.2f}  (new, Zero 2 W: {amount(low)}-{amount(high)})"
        )


# --- computers ------------------------------------------------------------------------------


def tombola_times(views: list[dict], level: str) -> list[float]:
    return [
        cpu(tombola_bots.choose, v, level=level, rng=random.Random(i)) for i, v in enumerate(views)
    ]


def rat_times(views: list[dict], playouts: int) -> list[float]:
    return [
        cpu(tombola_bots.advice, v, rng=random.Random(i), playouts=playouts)
        for i, v in enumerate(views)
    ]


def rat_peak_mb(views: list[dict], playouts: int) -> float:
    """The most memory one Rat held at once, in MB: numpy's arrays and Python's objects as
    `tracemalloc` traces them (not time: about the same on the Pi)."""
    peaks = []
    for i, v in enumerate(views):
        tracemalloc.start()
        try:
            tombola_bots.advice(v, rng=random.Random(i), playouts=playouts)
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
    return max(peaks) / 2**20


def besenbingo_times(games: int) -> tuple[dict[str, list[float]], float]:
    """Decision times of every level in nine-seat Durchgänge, as a fresh box meets them
    (no table built beforehand but what the table's preparation builds, timed too)."""
    besen_bots.Solver._cached.cache_clear()
    templates = default_templates()
    prepared = cpu(lambda: [besen_bots.prepare(t) for t in templates]) / len(templates)
    times: dict[str, list[float]] = {level: [] for level in besen_bots.LEVELS}
    for g, state in besenbingo.stark_durchgaenge(templates, games):
        view = state.view(state.current_player())
        for level in besen_bots.LEVELS:
            times[level].append(cpu(besen_bots.choose, view, level=level, rng=random.Random(g)))
        state.apply_action(besen_bots.choose(view, level="stark", rng=random.Random(g)))
    return times, prepared


def bungee_times(players: int, count: int, level: str = "stark") -> list[float]:
    return [
        cpu(bungee_bots.choose, s.view(s.current_player()), level=level, rng=random.Random(i))
        for i, s in enumerate(bungee_stark.positions(players, count))
    ]


def engel_bengel_times(players: int, count: int, level: str = "stark") -> list[float]:
    views = engel_bengel.decision_views(players, count, seed=players)
    engel_bots.choose(views[0], level=level, rng=random.Random(0))  # numpy warm
    return [
        cpu(engel_bots.choose, v, level=level, rng=random.Random(i)) for i, v in enumerate(views)
    ]


def numpy_import() -> float:
    """CPU of `import numpy` beyond the bare interpreter (the first computer thought of a
    boot pays it)."""
    bare = min(child_cpu([sys.executable, "-c", "pass"])[0] for _ in range(3))
    loaded = min(child_cpu([sys.executable, "-c", "import numpy"])[0] for _ in range(3))
    return max(0.0, loaded - bare)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions and positions")
    parser.add_argument(
        "--against",
        type=Path,
        metavar="TREE",
        help="also the fresh-process figures of another checkout (git worktree add TREE REV), "
        "alternated with this one's",
    )
    args = parser.parse_args()
    quick = args.quick
    reps, tries = (200, 2) if quick else (1000, 3)
    starts = 3 if quick else 7
    positions = 10 if quick else tombola_sim.POSITIONS
    games = 3 if quick else 20

    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} CPUs)")
    here, factor = calibrate(reps, tries)
    print(
        f"calibration: the cpu-benchmark loop, {reps:,} of {FULL_REPETITIONS:,} repetitions "
        f"(best of {tries}): {here:.1f} s CPU for {FULL_REPETITIONS:,} here; the Zero 2 W "
        f"{PUBLISHED_PI3B_PLUS_S * ZERO_2W_SLOWER[0]:.0f}-"
        f"{PUBLISHED_PI3B_PLUS_S * ZERO_2W_SLOWER[1]:.0f} s, so x{factor.low:.1f}-{factor.high:.1f}"
    )
    print()
    report = Report(factor)

    with tempfile.TemporaryDirectory() as tmp:
        frame = first_frame(Path(tmp), starts)
        total = frame["python"] + frame["imports"] + frame["rest"]
        report.line("first frame: the interpreter's start", frame["python"])
        report.line("first frame: imports (spielleiter.cli)", frame["imports"])
        report.line("first frame: data, box, menu, first frame", frame["rest"])
        report.line("first frame, emulated box (sum)", total, 1.0)
        if "luma" in frame:
            report.line("  + the OLED driver's import on the Pi (luma.oled)", frame["luma"])
            report.line("first frame on the Pi (with the OLED driver)", total + frame["luma"], 1.0)
        if "parts" in frame:
            report.line("  then the buttons' and the link's imports", frame["parts"])

        for name, box in device.boxes(Path(tmp)).items():
            box.frame()
            times = [cpu(box.frame) for _ in range(100 if quick else device.RENDERS)]
            report.percentiles(f"a frame, {name}", times, (0.005, 0.005))
            box.close()

    report.line("numpy import (a boot's first computer thought)", numpy_import())
    for players in (4, 7):
        views = tombola_sim.positions(players)[:positions]
        tombola_bots.choose(views[0], level="stark", rng=random.Random(0))  # caches warm
        for level in ("stark", "normal", "leicht") if players == 4 else ("stark",):
            name = f"Speedtombola {level.capitalize()}, {players} players"
            report.percentiles(name, tombola_times(views, level), (0.1, 0.3))
        rat = rat_times(views, tombola_bots.STARK_PLAYOUTS)
        report.line(f"Speedtombola Rat, {players} players: median", statistics.median(rat), 1.0)
        report.line(f"Speedtombola Rat, {players} players: max", max(rat), 1.0)
        peak = rat_peak_mb(views[:5], tombola_bots.STARK_PLAYOUTS)
        report.note(f"Rat's peak memory, {players} players: {peak:.1f} MB (the box has 512 MB)")

    for start, at in READY.items():
        report.line(at.name, ready(start, max(1, starts // 2)), at.goal)
    times, prepared = besenbingo_times(games)
    report.line("Besenbingo table preparation per template", prepared)
    for level in ("stark", "normal", "leicht"):
        report.percentiles(f"Besenbingo {level.capitalize()}, 9 seats", times[level], (0.1, 0.3))

    count = 20 if quick else 100
    for players in (3, 4):
        for level in ("stark", "normal"):
            name = f"Engel & Bengel {level.capitalize()}, {players} players"
            report.percentiles(name, engel_bengel_times(players, count, level), (0.1, 0.3))
    for players in (3, 4):  # after the views: a whole game starts with no plan kept
        for level in ("stark", "normal"):
            times = engel_bengel.game_times(players, 1 if quick else 8, level, seed=players)
            name = f"E&B {level.capitalize()} in whole games, {players} players"
            report.percentiles(name, times, (0.1, 0.3))
            report.line(f"{name}: max (a face's first plan)", max(times))
    for players in (3, 4, 5):  # Stark's samples depend on the table (bots.STARK_SAMPLES)
        for level in ("stark", "normal"):
            name = f"Bungee {level.capitalize()}, {players} players"
            report.percentiles(name, bungee_times(players, count, level), (0.1, 0.3))

    if args.against:
        compare(args.against, starts, factor)

    print()
    missed = [name for name, met in report.verdicts if met != "met"]
    print(f"goals met: {len(report.verdicts) - len(missed)} of {len(report.verdicts)}")
    for name in missed:
        print(f"  not (or not surely) met: {name}")
    load = os.getloadavg()
    print(f"load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
