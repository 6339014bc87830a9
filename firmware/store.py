"""sqlite storage: settings, records, the Bestenliste, remembered names, boards.

One database file, WAL journal, synchronous=FULL: an action that was committed
survives a pulled plug. Every write is one transaction.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import boards, settings
from .games.base import Seat
from .records import Record

SCHEMA_VERSION = 2

_SCHEMA = """
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS records (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    params TEXT NOT NULL,
    seats TEXT NOT NULL,
    meta TEXT NOT NULL,
    started REAL NOT NULL,
    updated REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    abandoned INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS actions (
    record_id INTEGER NOT NULL REFERENCES records(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    action INTEGER NOT NULL,
    PRIMARY KEY (record_id, idx)
);
CREATE TABLE IF NOT EXISTS bestenliste (
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    points INTEGER NOT NULL DEFAULT 0,
    matches INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, name)
);
CREATE TABLE IF NOT EXISTS awards (
    id INTEGER PRIMARY KEY,
    record_id INTEGER,
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    points INTEGER NOT NULL,
    matches INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX IF NOT EXISTS awards_game ON awards(game, name);
CREATE TABLE IF NOT EXISTS names (name TEXT PRIMARY KEY, last_used REAL NOT NULL);
CREATE TABLE IF NOT EXISTS boards (
    game TEXT NOT NULL, name TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (game, name)
);
CREATE TABLE IF NOT EXISTS scores (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


def default_data_dir() -> Path:
    """/var/lib/spielleiter on the Pi (when writable), else the user's data directory."""
    system = Path("/var/lib/spielleiter")
    if system.is_dir() and os.access(system, os.W_OK):
        return system
    if sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "spielleiter"


@dataclass(frozen=True)
class RecordInfo:
    """A line of the record list."""

    id: int
    game: str
    seats: list[str]
    actions: int
    started: float
    finished: bool
    abandoned: bool


@dataclass(frozen=True)
class Award:
    """A Bestenliste line a match gives one name: points, and matches counted (1 or 0)."""

    name: str
    points: int
    matches: int = 1


@dataclass(frozen=True)
class Standing:
    """A line of the Bestenliste."""

    name: str
    points: int
    matches: int


class Store:
    """The device's database. Safe to share between the loop and the link thread."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(
            str(self.path), isolation_level=None, check_same_thread=False, timeout=10
        )
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        with self._tx():
            for stmt in _SCHEMA.strip().split(";"):
                if stmt.strip():
                    self._db.execute(stmt)
            self._migrate()
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def _migrate(self) -> None:
        """Version 1 kept running totals; they become one award each (no record)."""
        version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
        if version == 1:
            self._db.execute(
                "INSERT INTO awards(record_id, game, name, points, matches)"
                " SELECT NULL, game, name, points, matches FROM bestenliste"
            )
            self._db.execute("DELETE FROM bestenliste")

    @classmethod
    def open(cls, data_dir: Path | str) -> Store:
        """The store in a data directory (created when missing)."""
        return cls(Path(data_dir) / "spielleiter.sqlite3")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    def integrity_check(self) -> str:
        """sqlite's own verdict on the file ("ok" when sound)."""
        return str(self._query("PRAGMA integrity_check")[0][0])

    # --- settings ---------------------------------------------------------
    def settings(self) -> dict[str, Any]:
        """Every setting: stored values over defaults."""
        values = settings.defaults()
        for key, value in self._query("SELECT key, value FROM settings"):
            if key in values:
                values[key] = json.loads(value)
        return values

    def setting(self, key: str) -> Any:
        return self.settings()[key]

    def set_settings(self, changes: Mapping[str, Any]) -> dict[str, Any]:
        """Validate and apply a batch of changes, all or nothing; return the new settings."""
        checked = settings.validate(changes)
        with self._tx() as db:
            for key, value in checked.items():
                db.execute(
                    "INSERT OR REPLACE INTO settings(key, value) VALUES (?, ?)",
                    (key, json.dumps(value)),
                )
        return self.settings()

    # --- records ----------------------------------------------------------
    def start_record(self, record: Record) -> int:
        """Store a new game's record (with any actions it has) and return its id."""
        now = time.time()
        with self._tx() as db:
            cur = db.execute(
                "INSERT INTO records(game, params, seats, meta, started, updated)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (
                    record.game,
                    json.dumps(record.params),
                    json.dumps([s.to_json() for s in record.seats]),
                    json.dumps(record.meta),
                    now,
                    now,
                ),
            )
            rid = int(cur.lastrowid or 0)
            db.executemany(
                "INSERT INTO actions(record_id, idx, action) VALUES (?, ?, ?)",
                [(rid, i, a) for i, a in enumerate(record.actions)],
            )
        return rid

    def append_action(
        self,
        record_id: int,
        index: int,
        action: int,
        finish: tuple[str, list[Award], Mapping[str, Any], Mapping[str, Any]] | None = None,
    ) -> None:
        """Commit one action at its place in the record (durable when this returns).

        `finish` = (game, awards, meta, values) ends the match in the same transaction:
        the awards go to the Bestenliste, the meta and store values are written and the
        record is marked finished, or none of it happens.
        """
        with self._tx() as db:
            db.execute(
                "INSERT INTO actions(record_id, idx, action) VALUES (?, ?, ?)",
                (record_id, index, int(action)),
            )
            db.execute("UPDATE records SET updated=? WHERE id=?", (time.time(), record_id))
            if finish is not None:
                game, awards, meta, values = finish
                self._award(db, record_id, game, awards)
                db.execute(
                    "UPDATE records SET meta=?, finished=1 WHERE id=?",
                    (json.dumps(dict(meta)), record_id),
                )
                for key, value in values.items():
                    db.execute(
                        "INSERT OR REPLACE INTO scores(key, value) VALUES (?, ?)",
                        (key, json.dumps(value)),
                    )

    @staticmethod
    def _award(
        db: sqlite3.Connection, record_id: int | None, game: str, awards: list[Award]
    ) -> None:
        db.executemany(
            "INSERT INTO awards(record_id, game, name, points, matches) VALUES (?, ?, ?, ?, ?)",
            [(record_id, game, a.name, int(a.points), int(a.matches)) for a in awards],
        )

    def update_record(
        self,
        record_id: int,
        *,
        seats: list[Seat] | None = None,
        meta: Mapping[str, Any] | None = None,
        finished: bool | None = None,
        abandoned: bool | None = None,
        awards: tuple[str, list[Award]] | None = None,
    ) -> None:
        """Change a record's seats (a computer took over), meta or end flags, and add the
        awards that go with the change (game, awards), in one transaction."""
        with self._tx() as db:
            if seats is not None:
                db.execute(
                    "UPDATE records SET seats=? WHERE id=?",
                    (json.dumps([s.to_json() for s in seats]), record_id),
                )
            if meta is not None:
                db.execute("UPDATE records SET meta=? WHERE id=?", (json.dumps(meta), record_id))
            if finished is not None:
                db.execute("UPDATE records SET finished=? WHERE id=?", (int(finished), record_id))
            if abandoned is not None:
                db.execute("UPDATE records SET abandoned=? WHERE id=?", (int(abandoned), record_id))
            if awards is not None:
                self._award(db, record_id, *awards)

    def record(self, record_id: int) -> Record:
        """A stored record with every committed action (KeyError when unknown)."""
        rows = self._query(
            "SELECT game, params, seats, meta, finished FROM records WHERE id=?", (record_id,)
        )
        if not rows:
            raise KeyError(f"no record {record_id}")
        game, params, seats, meta, finished = rows[0]
        actions = [
            int(a)
            for (a,) in self._query(
                "SELECT action FROM actions WHERE record_id=? ORDER BY idx", (record_id,)
            )
        ]
        meta_d = json.loads(meta)
        meta_d["id"] = record_id
        meta_d["finished"] = bool(finished)
        return Record(
            game=game,
            params=json.loads(params),
            seats=[Seat.from_json(s) for s in json.loads(seats)],
            actions=actions,
            meta=meta_d,
        )

    def records(self, limit: int = 1000) -> list[RecordInfo]:
        """The newest records first."""
        rows = self._query(
            "SELECT r.id, r.game, r.seats, r.started, r.finished, r.abandoned,"
            " (SELECT COUNT(*) FROM actions a WHERE a.record_id = r.id)"
            " FROM records r ORDER BY r.id DESC LIMIT ?",
            (limit,),
        )
        return [
            RecordInfo(
                id=rid,
                game=game,
                seats=[s["name"] for s in json.loads(seats)],
                actions=n,
                started=started,
                finished=bool(fin),
                abandoned=bool(ab),
            )
            for rid, game, seats, started, fin, ab, n in rows
        ]

    def unfinished_record(self) -> int | None:
        """The id of the newest game that was neither finished nor abandoned."""
        rows = self._query(
            "SELECT id FROM records WHERE finished=0 AND abandoned=0 ORDER BY id DESC LIMIT 1"
        )
        return int(rows[0][0]) if rows else None

    def running(self, record_id: int) -> bool:
        """True for a game that is neither finished nor abandoned (it may still be played)."""
        rows = self._query("SELECT finished, abandoned FROM records WHERE id=?", (record_id,))
        return bool(rows) and not rows[0][0] and not rows[0][1]

    def delete_record(self, record_id: int) -> bool:
        with self._tx() as db:
            return db.execute("DELETE FROM records WHERE id=?", (record_id,)).rowcount > 0

    # --- Bestenliste ------------------------------------------------------
    def add_to_bestenliste(self, game: str, name: str, points: int, matches: int = 1) -> None:
        """Add points to a name's Bestenliste line without a record (imports, tests)."""
        with self._tx() as db:
            self._award(db, None, game, [Award(name, points, matches)])

    def awards(self, record_id: int) -> list[Award]:
        """The Bestenliste lines one record gave."""
        rows = self._query(
            "SELECT name, points, matches FROM awards WHERE record_id=? ORDER BY id", (record_id,)
        )
        return [Award(n, p, m) for n, p, m in rows]

    def bestenliste(self, game: str) -> list[Standing]:
        """One game's Bestenliste, best first: every award of the game added up per name."""
        rows = self._query(
            "SELECT name, SUM(points) AS p, SUM(matches) AS m FROM awards WHERE game=?"
            " GROUP BY name ORDER BY p DESC, m ASC, name ASC",
            (game,),
        )
        return [Standing(n, int(p), int(m)) for n, p, m in rows]

    def reset_bestenliste(self, game: str | None = None) -> int:
        """Clear one game's Bestenliste (or all); returns how many lines went."""
        with self._tx() as db:
            where, args = ("", ()) if game is None else (" WHERE game=?", (game,))
            lines = db.execute(
                f"SELECT COUNT(DISTINCT game || '/' || name) FROM awards{where}", args
            ).fetchone()[0]
            db.execute(f"DELETE FROM awards{where}", args)
            return int(lines)

    # --- names ------------------------------------------------------------
    def remember_name(self, name: str) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT OR REPLACE INTO names(name, last_used) VALUES (?, ?)", (name, time.time())
            )

    def names(self) -> list[str]:
        """Remembered player names, most recently used first."""
        return [n for (n,) in self._query("SELECT name FROM names ORDER BY last_used DESC, name")]

    def forget_name(self, name: str) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM names WHERE name=?", (name,))

    # --- small scores (e.g. the solo score to beat) ------------------------
    def get_value(self, key: str, default: Any = None) -> Any:
        rows = self._query("SELECT value FROM scores WHERE key=?", (key,))
        return json.loads(rows[0][0]) if rows else default

    def set_value(self, key: str, value: Any) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT OR REPLACE INTO scores(key, value) VALUES (?, ?)", (key, json.dumps(value))
            )

    # --- boards -----------------------------------------------------------
    def boards(self, game: str) -> dict[str, dict[str, Any]]:
        """A game's boards: the shipped defaults with uploaded ones over them."""
        result = dict(boards.kind(game).defaults())
        for name, data in self._query("SELECT name, data FROM boards WHERE game=?", (game,)):
            result[name] = json.loads(data)
        return result

    def uploaded_boards(self, game: str) -> list[str]:
        return [
            n for (n,) in self._query("SELECT name FROM boards WHERE game=? ORDER BY name", (game,))
        ]

    def put_boards(self, game: str, items: Mapping[str, Any]) -> None:
        """Validate every board first, then store them all in one transaction."""
        for name, data in items.items():
            if not isinstance(name, str) or not name or len(name) > 64:
                raise boards.BoardError("name", "a board needs a name of 1 to 64 characters")
            try:
                boards.validate(game, data)
            except boards.BoardError as exc:
                raise boards.BoardError(exc.path, f"{exc.message} (board {name!r})") from exc
        with self._tx() as db:
            for name, data in items.items():
                db.execute(
                    "INSERT OR REPLACE INTO boards(game, name, data) VALUES (?, ?, ?)",
                    (game, name, json.dumps(data, ensure_ascii=False)),
                )

    def delete_board(self, game: str, name: str) -> bool:
        """Delete an uploaded board (shipped defaults cannot be deleted)."""
        with self._tx() as db:
            return (
                db.execute("DELETE FROM boards WHERE game=? AND name=?", (game, name)).rowcount > 0
            )
