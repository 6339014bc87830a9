"""A pulled plug loses nothing that was shown: SIGKILL the box mid-game, again and again.

The emulated box runs as a subprocess on a key script (a Speedtombola game against two
computers). It is killed at seeded random moments and restarted each time; the restart
answers "Partie fortsetzen?" with Ja and plays on. After every kill:

- the database passes sqlite's integrity check, and every record still replays;
- every record's action list starts with the list it had after the previous kill
  (the game went on from its last committed action, nothing was rewritten);
- the last frame the box wrote names no more committed actions than the database holds
  (no action whose effect was shown is lost).
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from helpers import GOLDEN_DIR, load_frame, same_pixels
from spielleiter.store import Store

KILLS = 20
MAX_RUNS = 30
NAME = "A"

# Main menu -> Speedtombola -> 3 Plätze -> seat 1 (a new name or the remembered one)
# -> two Leicht computers -> Start at the default house rules.
NEW_NAME = "K3\nK3\nK4\n"  # Neuer Name ..., take the letter A, Fertig
REMEMBERED_NAME = "K3\n"  # the remembered name heads the list
SETUP_START = "K3\nK3\n"  # Speedtombola, 3 Plätze
COMPUTERS_AND_START = "K2\nK3\nK2\nK3\nK2\nK2\nK3\n"



@dataclass
class Table:
    """What the harness knows between kills."""

    data: Path
    seen: dict[int, list[int]] = field(default_factory=dict)
    kills: int = 0
    resumed: int = 0


def presses(rng: random.Random, count: int = 300) -> str:
    """Nein (K1), Nehmen (K2), now and then Info/Zurück/Weiter (K4)."""
    return "".join(rng.choices(["K1\n", "K2\n", "K4\n"], weights=[45, 45, 10], k=count))


def script_for(table: Table, rng: random.Random) -> tuple[str, int | None]:
    """Resume the open game with Ja, or set up a new one; and the record resumed."""
    store = Store.open(table.data)
    try:
        open_record = store.unfinished_record()
        remembered = NAME in store.names()
    finally:
        store.close()
    if open_record is not None:
        return "K1\n" + presses(rng), open_record
    seat = REMEMBERED_NAME if remembered else NEW_NAME
    return SETUP_START + seat + COMPUTERS_AND_START + presses(rng), None


def frame_notes(frames: Path) -> list[tuple[str, int]]:
    """(record id or "-", committed actions) of every completely written frame note."""
    log = frames / "frames.tsv"
    if not log.exists():
        return []
    notes = []
    for line in log.read_text("utf-8").split("\n")[:-1]:  # the last piece may be cut off
        _name, rid, committed = line.split("\t")
        notes.append((rid, int(committed)))
    return notes


def check_after_run(table: Table, frames: Path, resumed: int | None) -> None:
    store = Store.open(table.data)
    try:
        assert store.integrity_check() == "ok"
        records = [store.record(info.id) for info in store.records()]
    finally:
        store.close()
    for record in records:
        assert record.seats[0].name == NAME
        record.replay()  # raises when the committed actions break the rules
    actions = {record.meta["id"]: record.actions for record in records}
    for rid, before in table.seen.items():
        assert rid in actions, f"record {rid} vanished"
        assert actions[rid][: len(before)] == before, f"record {rid} was rewritten"
    notes = frame_notes(frames)
    if notes and notes[-1][0] != "-":
        rid, shown = int(notes[-1][0]), notes[-1][1]
        assert shown <= len(actions[rid]), f"frame showed {shown} actions, db has fewer"
    if resumed is not None and notes:
        first = load_frame(frames / "frame-000001.png")
        assert same_pixels(first, load_frame(GOLDEN_DIR / "resume_prompt.png")), "no offer"
        in_game = [committed for rid, committed in notes if rid == str(resumed)]
        if in_game:
            table.resumed += 1
            assert in_game[0] >= len(table.seen.get(resumed, [])), "the game went back"
    table.seen = actions


def wait_for_frames(proc: subprocess.Popen[bytes], frames: Path, count: int) -> bool:
    """Wait until the box has written `count` frames (False when it ended before)."""
    log = frames / "frames.tsv"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return False
        if log.exists() and log.read_bytes().count(b"\n") >= count:
            return True
        time.sleep(0.003)
    raise AssertionError(f"the box wrote fewer than {count} frames in 20 s")


def run_once(table: Table, tmp_path: Path, number: int, rng: random.Random) -> None:
    """Start the box, kill it after a random number of frames (plus a random instant)."""
    script, resumed = script_for(table, rng)
    keys = tmp_path / f"keys-{number}.txt"
    keys.write_text(script, encoding="utf-8")
    frames = tmp_path / f"frames-{number}"
    argv = [sys.executable, "-m", "spielleiter", "--emulate", "--keys", str(keys)]
    argv += ["--frames", str(frames), "--data", str(table.data), "--seed", str(number)]
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    try:
        if wait_for_frames(proc, frames, rng.randint(1, 120)):
            time.sleep(rng.uniform(0, 0.02))
            proc.send_signal(signal.SIGKILL)
            table.kills += 1
        proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode in (0, -signal.SIGKILL)
    check_after_run(table, frames, resumed)


def test_killed_at_random_moments_the_box_resumes_without_loss(tmp_path: Path) -> None:
    rng = random.Random(2024)
    table = Table(data=tmp_path / "data")
    runs = 0
    while table.kills < KILLS and runs < MAX_RUNS:
        runs += 1
        run_once(table, tmp_path, runs, rng)
    assert table.kills >= KILLS, f"only {table.kills} kills in {runs} runs"
    assert table.resumed >= 3, "too few restarts got back into their game"
    assert any(len(acts) > 20 for acts in table.seen.values()), "the games never got going"
