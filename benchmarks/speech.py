"""The box's speech, measured: from an event to the first audio sample, and what speaking
costs a computer that thinks meanwhile.

1. Event to first sample. A real box on the system clock with the real speech service
   and eSpeak NG: a key press (the main menu's K2, a Speedtombola "Nein danke" with its
   Zurück moment) is handed to the box, whose loop draws the frame and gives the words to
   the speaker's thread, which starts eSpeak NG; the time until the first sample comes
   out of it (wall time, median and p95). The audio goes to the machine's player when it
   has a sound output, else nowhere (the synthesis is the same). Estimated for the Zero
   2 W with benchmarks/pi.py's calibration factor: the loop's part is Python (its CPU
   time here x the factor); eSpeak NG's part is C, its CPU time (the child's rusage) x
   the same factor, and the processes' start on the Pi is in it.
2. A computer's think while the box speaks. Speedtombola Stark decisions on the same 4-
   player positions, alternated without and with the speaker saying long texts the whole
   time; the think's time (wall and the thinking thread's CPU) with and without, and the
   box's and eSpeak NG's memory. The goal: the think slows by at most 10 %.

Run: .venv/bin/python benchmarks/speech.py [--quick]   (needs espeak-ng: apt-get install
espeak-ng; without it, it says so and exits 0)
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pi import Report, amount, calibrate, percentile  # noqa: E402
from spielleiter.app import Box  # noqa: E402
from spielleiter.games.base import Seat  # noqa: E402
from spielleiter.games.speedtombola import bots as tombola_bots  # noqa: E402
from spielleiter.hal.clock import SystemClock  # noqa: E402
from spielleiter.hal.display import FrameSink  # noqa: E402
from spielleiter.hal.keys import Key, KeyEvent  # noqa: E402
from spielleiter.hal.speaker import (  # noqa: E402
    Speaker,
    engine_command,
    find_engine,
    find_player,
    sound_output,
)
from spielleiter.speech import SpeechService  # noqa: E402
from spielleiter.store import Store  # noqa: E402
from spielleiter.ui.menus import launch, main_menu  # noqa: E402

LONG = (
    "Carla nimmt Los 27 und 3 Groschen. Neues Los: 14. Anna ist dran: Los 14, keine "
    "Groschen darauf; du hast 9 Groschen. Nehmen: plus 14 Punkte. Ben: 11 Groschen, 30 "
    "Punkte. Carla: 8 Groschen, 12 Punkte. In der Trommel: 17 Lose."
)


PACED_PLAYER = [
    sys.executable,
    "-c",
    "import sys, time\nwhile sys.stdin.buffer.read(4410):\n    time.sleep(0.1)",
]
"""Where the machine has no sound output: a player that takes the audio at the pace it
plays (44,100 bytes a second), as aplay does, and plays it nowhere."""


def player() -> list[str] | None:
    """The machine's player when it has somewhere to play, else None (audio discarded)."""
    return find_player() if sound_output() else None


def event_to_first_sample(engine: str, count: int, table: bool) -> tuple[list[float], list[float]]:
    """(wall seconds from the key to the first sample, the loop's CPU seconds for it)."""
    waits, loop_cpu = [], []
    with tempfile.TemporaryDirectory() as folder:
        store = Store.open(Path(folder) / "data")
        store.set_settings({"undo.ms": 0, "bot.show_ms": 0})
        clock = SystemClock()
        box = Box(store, FrameSink([]), clock, random.Random(1), seeds=random.Random(2))
        box.reload_settings()
        speaker = Speaker(engine, player())
        box.speech = SpeechService(clock.now, box.settings, speaker)
        box.push(main_menu(box))
        box.step()
        if table:
            seats = [Seat("Anna"), Seat("Ben", "computer", "leicht"), Seat("Carla", "computer")]
            launch(box, "speedtombola", {"players": 3, "rounds": 1}, seats)
        for _ in range(count):
            while speaker.speaking:  # the previous words end (or are cut: never counted)
                time.sleep(0.01)
                box.step()
            if table:
                while not box.table.human_to_move() or box.table.busy:
                    time.sleep(0.005)
                    box.step()
                key = Key.K1 if box.table.state.groschen[box.table.to_move()] else Key.K2
            else:
                key = Key.K2
            said = len(box.speech.said)
            started = time.monotonic()
            cpu = time.process_time()
            box.dispatch(KeyEvent(key))
            box.step()
            loop_cpu.append(time.process_time() - cpu)
            queue = box.speech._queue
            if len(box.speech.said) == said or not queue or queue[-1].utterance is None:
                continue
            utterance = queue[-1].utterance
            while utterance.first_sample is None and not utterance.over:
                time.sleep(0.001)
            if utterance.first_sample is not None:
                waits.append(utterance.first_sample - started)
            if table and box.table is None:
                break
        box.close()
    return waits, loop_cpu


def engine_alone(engine: str, count: int) -> tuple[float, float]:
    """eSpeak NG on its own: the CPU seconds to say a short text (its start, the German
    voice's load, the synthesis; the children's rusage), the median over `count` runs; and
    its peak RSS in MB while it says a long one (VmHWM of its own process: a child's
    ru_maxrss would count the box's pages it shared until it exec'd)."""
    import subprocess

    times = []
    for _ in range(count):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(
            engine_command(engine, 160, 100),
            input=b"Besenbingo, 2 von 7.",
            stdout=subprocess.DEVNULL,
            check=True,
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    process = subprocess.Popen(
        engine_command(engine, 160, 100), stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write((LONG * 4).encode())
    process.stdin.close()
    time.sleep(0.3)  # it fills the pipe and waits for the reader: the whole voice is loaded
    status = Path(f"/proc/{process.pid}/status").read_text()
    peak = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM"))
    process.stdout.read()
    process.wait()
    return statistics.median(times), peak / 1024


def thinks(views: list[dict], speaking: Speaker | None) -> tuple[list[float], list[float]]:
    """Stark's decisions on `views` in a thread of their own (as the box's computers think):
    (wall seconds, the thread's CPU seconds) of each, while `speaking` talks or not."""
    walls, cpus = [], []

    def run() -> None:
        for i, view in enumerate(views):
            started, cpu = time.perf_counter(), time.thread_time()
            tombola_bots.choose(view, level="stark", rng=random.Random(i))
            cpus.append(time.thread_time() - cpu)
            walls.append(time.perf_counter() - started)

    stop = threading.Event()

    def talk() -> None:
        while not stop.is_set() and speaking is not None:
            utterance = speaking.say(LONG)
            utterance.done.wait(30)

    talker = threading.Thread(target=talk, daemon=True)
    if speaking is not None:
        talker.start()
        time.sleep(0.2)
    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    stop.set()
    if speaking is not None:
        speaking.stop()
        talker.join(5)
    return walls, cpus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer presses and positions")
    args = parser.parse_args()
    engine = find_engine()
    if engine is None:
        print("speech: no espeak-ng here (apt-get install espeak-ng): nothing to measure")
        return
    presses, count, rounds = (8, 8, 2) if args.quick else (30, 30, 3)
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} CPUs)")
    out = player()
    print(f"engine {engine}; audio to {' '.join(out) if out else 'nowhere (no sound output)'}")
    here, factor = calibrate(200 if args.quick else 1000, 2 if args.quick else 3)
    print(f"calibration: x{factor.low:.1f}-{factor.high:.1f} for the Zero 2 W (benchmarks/pi.py)")
    print()
    report = Report(factor)

    menu_waits, menu_cpu = event_to_first_sample(engine, presses, table=False)
    table_waits, table_cpu = event_to_first_sample(engine, presses, table=True)
    espeak_cpu, espeak_rss = engine_alone(engine, presses)
    for name, waits in (("menu K2", menu_waits), ("table, Nein danke", table_waits)):
        print(
            f"{'event to first sample, ' + name + ': median / p95 (wall, here)':<52} "
            f"{amount(statistics.median(waits)):>9} / {amount(percentile(waits, 95))}"
        )
    report.line("  the loop's part (CPU): menu", statistics.median(menu_cpu))
    report.line("  the loop's part (CPU): table", statistics.median(table_cpu))
    report.line("  eSpeak NG: start, voice, a short text (CPU)", espeak_cpu)
    low, high = factor.pi(statistics.median(table_cpu) + espeak_cpu)
    print(f"{'event to first sample on the Zero 2 W (est., CPU)':<52} {'':>9}  "
          f"{amount(low)} - {amount(high)}")  # fmt: skip
    print()

    from tombola_sim import positions

    views = positions(4)[:count]
    tombola_bots.choose(views[0], level="stark", rng=random.Random(0))  # caches warm
    paced = out or PACED_PLAYER
    conditions = {
        "speaking": Speaker(engine, paced),
        "synthesising without pause": Speaker(engine, None),
    }
    quiet_wall: list[float] = []
    quiet_cpu: list[float] = []
    loud: dict[str, tuple[list[float], list[float], list[float]]] = {
        name: ([], [], [0.0, 0.0]) for name in conditions
    }
    for _ in range(rounds):
        w, c = thinks(views, None)
        quiet_wall += w
        quiet_cpu += c
        for name, speaker in conditions.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.perf_counter()
            w, c = thinks(views, speaker)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            walls, cpus, spent = loud[name]
            spent[0] += (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            spent[1] += time.perf_counter() - started
            walls += w
            cpus += c
    for speaker in conditions.values():
        speaker.close()
    if out is None:
        print("(no sound output here: the audio goes to a player that takes it at its pace)")
    for name, (walls, cpus, spent) in loud.items():
        for kind, quiet, noisy in (("wall", quiet_wall, walls), ("CPU", quiet_cpu, cpus)):
            q, n = statistics.median(quiet), statistics.median(noisy)
            slower = 100 * (n / q - 1)
            met = "met" if slower <= 10 else "not met"
            print(
                f"{'Stark think, 4 players, ' + kind + ', ' + name:<52} "
                f"{amount(q):>9} / {amount(n)}  {slower:+.1f} %  (goal <= +10 %: {met})"
            )
        share = 100 * spent[0] / max(1e-9, spent[1])
        print(f"{'  eSpeak NG and the player meanwhile: CPU':<52} {share:>6.1f} % of one core")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{'memory: the box process with the speaker, peak RSS':<52} {rss:>6.1f} MB")
    print(f"{'memory: eSpeak NG, peak RSS':<52} {espeak_rss:>6.1f} MB")
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the end")


if __name__ == "__main__":
    main()
