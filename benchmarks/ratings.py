"""The Bestenliste's ratings on a box with 10,000 finished matches, here and on a Zero 2 W.

A store is filled with MATCHES finished Bungee records as the box writes them (seats of
six names and three computer levels, 2 to 5 seats, the end meta with each seat's
place, a revealed chance secret, the totals). Then, as CPU time (the Zero 2 W estimate
from benchmarks/pi.py's calibration, in the same process):

- the fold from nothing (no cache): every record read and rated, the first Bestenliste
  of a box that has no cache file, or after the file was lost;
- the Bestenliste again with nothing changed (the store's fingerprint only);
- a box started again, with the cache file beside the store;
- one more finished match (the records read and compared, one match rated);
- the oldest record deleted (all the others rated again: the worst case);
- openskill's import (a fresh process, the first Bestenliste of a boot);
- replaying a finished record that stored no places (records from before the ratings):
  a Speedtombola match of three rounds and a six-round Bungee match, by computers.

Run: .venv/bin/python benchmarks/ratings.py [--matches N] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pi import Report, calibrate
from spielleiter import ratings
from spielleiter.games import catalog
from spielleiter.games.base import Seat
from spielleiter.games.table import HeadlessHost, Table
from spielleiter.session import Session
from spielleiter.store import Store

MATCHES = 10_000
NAMES = ("Anna", "Ben", "Carla", "Dora", "Emil", "Frieda")
LEVELS = ("leicht", "normal", "stark")
GOAL_S = 0.3
"""The Bestenliste comes up within this (a screen the box shows on a key press)."""


def fill(store: Store, matches: int, rng: random.Random) -> None:
    """`matches` finished Bungee records as the box stores them, one transaction."""
    rows = []
    for i in range(matches):
        count = rng.randint(2, 5)
        humans = rng.sample(NAMES, rng.randint(1, min(3, count)))
        seats = [{"name": h, "kind": "human"} for h in humans]
        seats += [
            {"name": f"C {k + 1}", "kind": "computer", "level": rng.choice(LEVELS)}
            for k in range(count - len(humans))
        ]
        totals = [rng.randint(-30, 90) for _ in seats]
        places = [1 + sum(1 for t in totals if t < own) for own in totals]
        at = 1.7e9 + i * 600.0
        meta = {
            "started": at - 900,
            "bot_version": 1,
            "chance": {"scheme": 1, "commitment": "ab" * 32, "secret": str(rng.getrandbits(256))},
            "totals": dict(zip([s["name"] for s in seats], totals, strict=True)),
            "places": dict(zip([s["name"] for s in seats], places, strict=True)),
            "ranks": places,
            "sheet_seen": 6,
        }
        rows.append(
            ("bungee", json.dumps({"players": count, "rounds": 6, "mode": "digital"}),
             json.dumps(seats), json.dumps(meta), at - 900, at)
        )  # fmt: skip
    with store._tx() as db:
        db.executemany(
            "INSERT INTO records(game, params, seats, meta, started, updated, finished)"
            " VALUES (?, ?, ?, ?, ?, ?, 1)",
            rows,
        )


def cpu(fn: Callable[[], Any]) -> float:
    started = time.process_time()
    fn()
    return time.process_time() - started


def openskill_import() -> float:
    """openskill's import in a fresh process (CPU time of the import alone)."""
    code = (
        "import time; t = time.process_time(); import openskill.models;"
        " print(time.process_time() - t)"
    )
    runs = [
        float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True).stdout)
        for _ in range(5)
    ]  # fmt: skip
    return sorted(runs)[len(runs) // 2]


def played(store: Store, game: str, params: dict[str, Any], players: int) -> int:
    """A whole match between Leicht computers (the record of a finished match)."""
    seats = [Seat(f"Leicht {i + 1}", "computer", "leicht") for i in range(players)]
    session = Session.start(store, game, params, seats, seed=3)
    table: Table = catalog.entry(game).table_class()(HeadlessHost(store), session)
    table.advance()
    while not table.over:
        if table.holding():
            table.proceed()
        else:
            table.advance()
    return session.record_id


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=MATCHES)
    parser.add_argument("--quick", action="store_true", help="a shorter calibration")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    here, factor = calibrate(300 if args.quick else 1000, 2 if args.quick else 3)
    print(f"calibration: {here:.1f} s here for 10,000 repetitions; Zero 2 W x{factor.low:.1f}"
          f"-{factor.high:.1f}")  # fmt: skip
    report = Report(factor)
    n = args.matches
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "box.sqlite3"
        store = Store(path)
        fill(store, n, random.Random(1))
        size = path.stat().st_size + Path(f"{path}-wal").stat().st_size
        print(f"{n} finished matches: store {size / 1e6:.1f} MB")
        ratings._model()  # imported: the import is its own figure below
        report.line(f"fold of {n} matches from nothing (no cache)",
                    cpu(lambda: ratings.lines(store, "bungee")))  # fmt: skip
        report.line("Bestenliste again, nothing changed", cpu(
            lambda: ratings.lines(store, "bungee")), GOAL_S)  # fmt: skip
        cache = ratings.cache_path(store)
        print(f"cache file: {cache.stat().st_size / 1e6:.1f} MB")
        store.close()
        store = Store(path)
        report.line("a box started again: Bestenliste from the cache file",
                    cpu(lambda: ratings.lines(store, "bungee")), GOAL_S)  # fmt: skip
        fill(store, 1, random.Random(2))
        with store._tx() as db:
            db.execute("UPDATE records SET updated=? WHERE id=?", (2e9, n + 1))
        report.line("one more finished match", cpu(lambda: ratings.lines(store, "bungee")),
                    GOAL_S)  # fmt: skip
        store.delete_record(1)
        report.line("the oldest record deleted (all refolded)",
                    cpu(lambda: ratings.lines(store, "bungee")))  # fmt: skip
        store.close()
        report.line("openskill's import (a fresh process)", openskill_import())
        store = Store(Path(tmp) / "replay.sqlite3")
        for game, params, players in (
            ("speedtombola", {"players": 3, "rounds": 3}, 3),
            ("bungee", {"players": 3, "rounds": 6, "mode": "digital"}, 3),
        ):
            rid = played(store, game, params, players)
            record = store.record(rid)
            report.line(
                f"{game}: replay of a record without places ({len(record.actions)} actions)",
                min(cpu(record.replay) for _ in range(3)),
            )
        store.close()
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
