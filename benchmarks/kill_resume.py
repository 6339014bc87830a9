"""SIGKILL the emulated box at random moments, ≥ 100 times, and count what was lost.

Uses the harness of tests/test_resume_kill.py (which runs 20 kills in `make test`):
the box plays Speedtombola from a key script in a subprocess, is killed after a
random number of frames plus a random instant, restarts, answers "Partie
fortsetzen?" with Ja and plays on. After every kill the harness checks the database
(integrity_check), that every record replays and still starts with what it had
(nothing rewritten), and that the last frame shown names no more committed actions
than the database holds. Prints the counts.

    .venv/bin/python benchmarks/kill_resume.py [KILLS]
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import test_resume_kill as harness  # noqa: E402
from spielleiter.store import Store  # noqa: E402


def main() -> None:
    kills_wanted = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    rng = random.Random(1066)
    failures: dict[str, int] = {}
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        table = harness.Table(data=root / "data")
        runs = 0
        while table.kills < kills_wanted and runs < kills_wanted * 2:
            runs += 1
            try:
                harness.run_once(table, root, runs, rng)
            except AssertionError as exc:
                kind = str(exc).split(":")[0][:60] or "assertion"
                failures[kind] = failures.get(kind, 0) + 1
        store = Store.open(table.data)
        try:
            verdict = store.integrity_check()
            records = store.records()
            actions = sum(r.actions for r in records)
            finished = sum(r.finished for r in records)
        finally:
            store.close()
    print(f"runs: {runs}, SIGKILLs: {table.kills}, restarts back into their game: {table.resumed}")
    print(f"records: {len(records)} ({finished} finished), committed actions: {actions}")
    print(f"integrity_check at the end: {verdict}")
    print(f"lost shown actions / rewritten records / corrupt databases: {failures or 0}")
    print(f"time: {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
