"""sqlite storage: settings, records, the Bestenliste, remembered names, boards.

One database file, WAL journal, synchronous=FULL: an action that was committed
survives a pulled plug. Every write is one transaction.

Opening checks the file (``PRAGMA quick_check``) and raises StoreFault for a store
that cannot be opened, is corrupt, read-only, full, or was there and is now empty
(a marker file beside it remembers that it existed): the box then runs in safe mode
instead of starting an empty box or crashing. Backups (sqlite's backup API) go to
``backups/`` beside the file before any schema change and once a day of play; the
newest BACKUPS_KEPT stay. `lock_data_dir` makes one box per data folder.

What is restored is checked like what is typed (`check_backup`): exactly the schema of
a version the box knows, every row validated. A stored row that cannot be read is never
a crash: a setting counts as its default (`Store.unreadable` says which), a record
raises RecordError.
"""

from __future__ import annotations

import base64
import fcntl
import functools
import json
import logging
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, NamedTuple

from . import admin, boards, settings
from .games.base import Seat
from .records import Record, RecordError
from .texts import T, around

log = logging.getLogger(__name__)

FILE_NAME = "spielleiter.sqlite3"
MARKER_SUFFIX = ".seen"
"""A file beside the database, made once it holds the schema: it existed."""
LOCK_NAME = "spielleiter.lock"
BACKUP_DIR = "backups"
BACKUPS_KEPT = 3
BACKUP_EVERY_S = 24 * 3600.0
"""A day of play: a match started this long after the newest backup makes a new one."""
BOARDS_MAX = 64
"""Uploaded boards per game."""
BOARD_BYTES_MAX = boards.BOARD_BYTES_MAX
"""One board's JSON, in bytes."""
NAMES_MAX = 200
"""Remembered player names."""
RESTORE_BYTES_MAX = 32 * 1024 * 1024
"""The largest database a restore takes."""
_TABLES = {"settings", "records", "actions", "awards", "names", "boards", "scores"}
SEATS_MAX = 16
"""Seats a stored record may have (every game has at most 8)."""
TEXT_MAX = 64
"""The longest game id, player name, seat level or board name a stored row may hold."""
COUNT_MAX = 2**31
"""Bestenliste points (either sign), matches and wins of one award lie within this."""
_SQLITE_HEADER = b"SQLite format 3\x00"


def text_problem(text: str, board: bool = False) -> str | None:
    """Why the panel cannot show `text` as a name (a player's, or with `board` a board's),
    in English for the link (None: it can). The panel's fonts have ISO 8859-1's letters and signs
    (ä, ß, é ...); nothing above that (no emoji, no right-to-left overrides) and no
    control characters, nor a soft hyphen or a no-break space that would hide there.

    >>> text_problem("Jörg") is None, text_problem("Ben\\u202e") is None
    (True, False)
    >>> text_problem("A\\x07")
    'a name has no control characters'
    """
    unshown = sorted({c for c in text if ord(c) > 0xFF}, key=text.index)
    if unshown:
        return T(
            "the box's screen cannot show {signs!r}"
            " (letters with umlauts and accents such as ä, ß, é are fine)",
            signs="".join(unshown),
        )
    if not text.isprintable() or "\xad" in text or "\xa0" in text:
        if board:
            return T("a board's name has no control characters")
        return T("a name has no control characters")
    return None


class NameChange(ValueError):
    """A name that cannot be renamed or deleted: `why` is "unknown" (no such name),
    "same" (the new name is the old), "running" (it sits in a match that is not over) or
    "together" (the two names played in one match: two players, never merged)."""

    def __init__(self, why: str, message: str) -> None:
        super().__init__(message)
        self.why = why


class BackupError(ValueError):
    """A backup the box does not take, or a stored row it cannot read.

    `path` names where: the table, the row and the field (``records[7].seats``,
    ``settings[clock.seconds].value``, ``actions[7/3].action``), ``schema`` for the
    store's tables and indexes, ``data`` for the file as a whole; `message` says why.
    """

    def __init__(self, path: str, message: str) -> None:
        super().__init__(around("{path}: {why}", message, path=path))
        self.path = path
        self.message = message


def _seat_names_of(seats: Any, meta: Any) -> set[str]:
    """The humans' names of a record: its human seats and who left a seat."""
    humans = [s for s in seats if isinstance(s, dict) and s.get("kind", "human") == "human"]
    names = {s.get("name") for s in humans}
    left = meta.get("left") if isinstance(meta, dict) else None
    if isinstance(left, list):
        names |= {e.get("name") for e in left if isinstance(e, dict)}
    return {n for n in names if isinstance(n, str)}


def _renamed_seats(seats: list[Any], old: str, new: str) -> list[Any]:
    return [
        {**s, "name": new}
        if isinstance(s, dict) and s.get("name") == old and s.get("kind", "human") == "human"
        else s
        for s in seats
    ]


def _renamed_meta(meta: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    """The meta with a player's name renamed where the games keep names: the seats left
    (`left`), objects keyed by name (the Bestenliste points, totals, places) and lists of
    names (the winners)."""
    out: dict[str, Any] = {}
    for key, value in meta.items():
        if key == "left" and isinstance(value, list):
            value = [
                {**e, "name": new} if isinstance(e, dict) and e.get("name") == old else e
                for e in value
            ]
        elif isinstance(value, dict) and old in value:
            value = {(new if k == old else k): v for k, v in value.items()}
        elif isinstance(value, list) and old in value and all(isinstance(v, str) for v in value):
            value = [new if v == old else v for v in value]
        out[key] = value
    return out


class StoreFault(Exception):
    """The store cannot be used as it is: `kind` names the fault, `detail` what sqlite said.

    kind: "unopenable", "corrupt", "readonly", "full", "emptied", "locked".
    """

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


def is_full(exc: BaseException) -> bool:
    """True for sqlite's "database or disk is full" (SQLITE_FULL) or an OS ENOSPC."""
    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", None)
        return code == sqlite3.SQLITE_FULL or "full" in str(exc).lower()
    return isinstance(exc, OSError) and exc.errno == 28


def _fault_of(exc: BaseException) -> StoreFault:
    """The fault an sqlite error at opening means."""
    text = str(exc)
    low = text.lower()
    if is_full(exc):
        return StoreFault("full", text)
    if "readonly" in low or "read-only" in low or getattr(exc, "errno", None) == 30:
        return StoreFault("readonly", text)
    if "unable to open" in low or isinstance(exc, OSError):
        return StoreFault("unopenable", text)
    return StoreFault("corrupt", text)


class DataLock:
    """One box per data folder: an flock on `spielleiter.lock` naming the holder."""

    def __init__(self, data_dir: Path | str) -> None:
        self.path = Path(data_dir) / LOCK_NAME
        self._file: IO[str] | None = None

    def acquire(self) -> None:
        """Take the lock, or raise StoreFault("locked") naming the process that holds it."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 - held while running
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            handle.close()
            raise StoreFault("locked", holder) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()}: {' '.join(sys.argv)[:200]}\n")
        handle.flush()
        self._file = handle

    def release(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


SCHEMA_VERSION = 3

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
    matches INTEGER NOT NULL DEFAULT 1,
    wins INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS awards_game ON awards(game, name);
CREATE TABLE IF NOT EXISTS names (name TEXT PRIMARY KEY, last_used REAL NOT NULL);
CREATE TABLE IF NOT EXISTS boards (
    game TEXT NOT NULL, name TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (game, name)
);
CREATE TABLE IF NOT EXISTS scores (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

_EARLIER: dict[int, tuple[str, ...]] = {
    2: ("ALTER TABLE awards DROP COLUMN wins",),
    1: ("DROP TABLE awards",),
}
"""Each older schema version as the statements that take the one after it back to it
(what Store._migrate adds, undone): version 2 counted no wins, version 1 kept running
totals in `bestenliste` and had no awards."""


def _statements(script: str) -> list[str]:
    return [stmt for stmt in script.strip().split(";") if stmt.strip()]


def _upgrade(db: sqlite3.Connection) -> None:
    """Bring a store to SCHEMA_VERSION, inside the caller's transaction: the tables and
    indexes it lacks, then Store._migrate, then the version number."""
    for stmt in _statements(_SCHEMA):
        db.execute(stmt)
    Store._migrate(db)
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")


def _canonical(sql: str | None) -> str | None:
    r"""A CREATE statement with uniform spacing: sqlite keeps the text as it was written,
    and ALTER TABLE ADD COLUMN splices into it. Whitespace runs become one space, none
    is kept around ( ) and , (which are tokens of their own), so equal results mean the
    same tokens in the same order.

    >>> _canonical("CREATE TABLE t (\n    a INT,\n    b INT\n)")
    'CREATE TABLE t(a INT,b INT)'
    """
    import re

    if sql is None:
        return None
    return re.sub(r"\s*([(),])\s*", r"\1", re.sub(r"\s+", " ", sql)).strip()


def _objects(db: sqlite3.Connection) -> dict[tuple[str, str], tuple[str, str | None]]:
    """Every object of a store's schema, (type, name) -> (its table, its canonical SQL)."""
    rows = db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
    return {(str(t), str(n)): (str(table), _canonical(sql)) for t, n, table, sql in rows}


@functools.cache
def _schema_of(version: int) -> dict[tuple[str, str], tuple[str, str | None]]:
    """The objects of a fresh store of a schema version (1 to SCHEMA_VERSION)."""
    db = sqlite3.connect(":memory:")
    try:
        for stmt in _statements(_SCHEMA):
            db.execute(stmt)
        for older in range(SCHEMA_VERSION - 1, version - 1, -1):
            for stmt in _EARLIER[older]:
                db.execute(stmt)
        return _objects(db)
    finally:
        db.close()


def _check_schema(db: sqlite3.Connection, version: int) -> None:
    """BackupError("schema") unless a store's schema is exactly a fresh one of `version`."""
    problem = _schema_problem(db, version)
    if problem is not None:
        raise BackupError("schema", problem)


def _schema_problem(db: sqlite3.Connection, version: int) -> str | None:
    """What differs between a store's schema and a fresh one of `version` (None: nothing)."""
    found, want = _objects(db), _schema_of(version)
    problems = [
        f"{kind} {name!r} (on {found[kind, name][0]}) is not part of the box's store"
        for kind, name in sorted(found.keys() - want.keys())
    ]
    problems += [f"{kind} {name!r} is missing" for kind, name in sorted(want.keys() - found.keys())]
    problems += [
        f"{kind} {name!r} differs from the box's: {(found[kind, name][1] or '')[:120]}"
        for kind, name in sorted(found.keys() & want.keys())
        if found[kind, name] != want[kind, name]
    ]
    if not problems:
        return None
    more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
    return f"not the schema of a version {version} store: {'; '.join(problems[:3])}{more}"


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
    """A Bestenliste line a match gives one name: points, matches counted (1 or 0), and
    whether the name won the match (1; tied winners each)."""

    name: str
    points: int
    matches: int = 1
    wins: int = 0


@dataclass(frozen=True)
class Standing:
    """A line of the Bestenliste."""

    name: str
    points: int
    matches: int
    wins: int = 0


RESULTS_GENERATION_KEY = "ratings.generation"
"""A store value bumped by every change in place of finished records (Store.changed_results)."""

CUTOFF_KEY = "bestenliste.cutoff."
"""The store value (scores table) of a game's rating cutoff: this prefix + the game's id."""


@dataclass(frozen=True)
class RatingCutoff:
    """Where `reset_bestenliste` cut a game's ratings: they fold the records that finish
    after it, those with a higher id than the highest then (`after`), those still running
    then, and those started after it (`at`; an id freed by a deletion may come again)."""

    after: int
    running: frozenset[int]
    at: float

    def keeps(self, row: ResultRow) -> bool:
        """Whether a finished record counts after the cutoff."""
        return row.id > self.after or row.id in self.running or row.started > self.at


class ResultRow(NamedTuple):
    """A finished record as the ratings fold reads it (`Store.results`)."""

    id: int
    started: float
    finished: float
    """When it finished (the record's last write: its last action)."""
    seats: str
    meta: str
    params: str


class Store:
    """The device's database. Safe to share between the loop and the link thread.

    `mode` is sqlite's URI mode ("rwc"; "ro" reads only: safe mode, and the tests'
    read-only card); `max_pages` caps the file (the tests' full card); a `reader` only
    reads (safe mode: no schema, no writes). Raises StoreFault when the file cannot
    serve as the box's store.
    """

    def __init__(
        self,
        path: Path | str,
        *,
        mode: str = "rwc",
        max_pages: int | None = None,
        reader: bool = False,
    ) -> None:
        self.path = Path(path)
        self.readonly = reader
        self.unreadable: dict[str, str] = {}
        """Stored rows found unreadable since the store opened, path -> why (e.g.
        "settings[display.contrast]"): each is logged once, and the box reports them."""
        marker = self.marker
        try:
            size = self.path.stat().st_size if self.path.exists() else None
            seen = marker.exists()
        except OSError as exc:
            raise _fault_of(exc) from exc
        if seen and not size:
            raise StoreFault(
                "emptied", f"{self.path} is {'empty' if size == 0 else 'missing'} but held data"
            )
        if not self.readonly:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise _fault_of(exc) from exc
        self._lock = threading.RLock()
        try:
            self._connect(f"mode={'ro' if reader else mode}", seen, max_pages)
        except StoreFault as exc:
            if not (reader and exc.kind in ("unopenable", "readonly")):
                raise
            # A reader on a read-only card: a store in WAL mode cannot make its shared-memory
            # file there, so sqlite reads the file as it lies (what the log still held after a
            # power cut is not seen; after a clean stop the log was folded into the file).
            log.info("store %s read as immutable: %s", self.path, exc)
            self._connect("mode=ro&immutable=1", seen, max_pages)

    def _connect(self, query: str, seen: bool, max_pages: int | None) -> None:
        try:
            self._db = sqlite3.connect(
                f"file:{self.path}?{query}",
                uri=True,
                isolation_level=None,
                check_same_thread=False,
                timeout=10,
            )
        except sqlite3.Error as exc:
            raise _fault_of(exc) from exc
        try:
            self._open(seen, max_pages)
        except StoreFault:
            self._db.close()
            raise
        except (sqlite3.Error, OSError) as exc:
            self._db.close()
            raise _fault_of(exc) from exc

    def _open(self, seen: bool, max_pages: int | None) -> None:
        verdict = [str(row[0]) for row in self._db.execute("PRAGMA quick_check").fetchall()]
        if verdict != ["ok"]:
            raise StoreFault("corrupt", "; ".join(verdict)[:300])
        tables = {
            str(n) for (n,) in self._db.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
        version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
        if seen and not tables & _TABLES:
            raise StoreFault("emptied", f"{self.path} holds no tables but held data")
        if self.readonly:
            return
        if max_pages is not None:
            self._db.execute(f"PRAGMA max_page_count={int(max_pages)}")
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        if tables and version != SCHEMA_VERSION:
            self.backup("schema")
        with self._tx():
            _upgrade(self._db)
        if not self.marker.exists():
            self.marker.write_text("This folder holds a Spielleiter store.\n", "utf-8")

    @staticmethod
    def _migrate(db: sqlite3.Connection) -> None:
        """Version 1 kept running totals; they become one award each (no record).
        A PIN stored in plain text becomes its salted hash. The box's own store runs
        this when it opens, a restored backup before it replaces the store."""
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        columns = {row[1] for row in db.execute("PRAGMA table_info(awards)")}
        if "wins" not in columns:  # version 2 counted no wins
            db.execute("ALTER TABLE awards ADD COLUMN wins INTEGER NOT NULL DEFAULT 0")
        if version == 1:
            db.execute(
                "INSERT INTO awards(record_id, game, name, points, matches)"
                " SELECT NULL, game, name, points, matches FROM bestenliste"
            )
            db.execute("DELETE FROM bestenliste")
        rows = db.execute("SELECT value FROM settings WHERE key=?", (admin.PIN_SETTING,)).fetchall()
        try:
            stored = settings.parse_stored(rows[0][0]) if rows else None
        except ValueError:
            stored = None  # unreadable: reading it counts as a PIN nobody knows
        plain = settings.SETTINGS[admin.PIN_SETTING].check(stored) is None
        if isinstance(stored, str) and stored and plain and not admin.is_hashed(stored):
            db.execute(
                "UPDATE settings SET value=? WHERE key=?",
                (json.dumps(admin.hash_pin(stored)), admin.PIN_SETTING),
            )

    @property
    def marker(self) -> Path:
        return self.path.with_name(self.path.name + MARKER_SUFFIX)

    @classmethod
    def open(
        cls,
        data_dir: Path | str,
        *,
        mode: str = "rwc",
        max_pages: int | None = None,
        reader: bool = False,
    ) -> Store:
        """The store in a data directory (created when missing)."""
        return cls(Path(data_dir) / FILE_NAME, mode=mode, max_pages=max_pages, reader=reader)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # --- backups ------------------------------------------------------------
    @property
    def backup_dir(self) -> Path:
        return self.path.parent / BACKUP_DIR

    def backups(self) -> list[Path]:
        """The kept backups, newest first."""
        if not self.backup_dir.is_dir():
            return []
        return sorted(self.backup_dir.glob("spielleiter-*.sqlite3"), reverse=True)

    def backup(self, reason: str) -> Path:
        """Copy the store with sqlite's backup API into backups/ and keep the newest few."""
        self.backup_dir.mkdir(parents=True, exist_ok=True)
        now = time.time()
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(now)) + f"-{int(now * 1e6) % 10**6:06d}"
        target = self.backup_dir / f"spielleiter-{stamp}-{reason}.sqlite3"
        n = 1
        while target.exists():
            n += 1
            target = self.backup_dir / f"spielleiter-{stamp}-{reason}{n}.sqlite3"
        partial = target.with_suffix(".part")
        with self._lock:
            out = sqlite3.connect(str(partial))
            try:
                self._db.backup(out)
                out.execute("PRAGMA journal_mode=DELETE")  # one file, readable on its own
            finally:
                out.close()
        os.replace(partial, target)
        for old in self.backups()[BACKUPS_KEPT:]:
            old.unlink(missing_ok=True)
        return target

    def daily_backup(self) -> Path | None:
        """A backup when the newest is a day old (or there is none); never raises."""
        try:
            kept = self.backups()
            if kept and time.time() - kept[0].stat().st_mtime < BACKUP_EVERY_S:
                return None
            return self.backup("daily")
        except (OSError, sqlite3.Error) as exc:
            log.warning("no backup: %s", exc)
            return None

    def snapshot(self, leave_out: list[int] | None = None) -> bytes:
        """The whole store as one sqlite file's bytes (records in `leave_out` removed)."""
        mem = sqlite3.connect(":memory:")
        try:
            with self._lock:
                self._db.backup(mem)
            if leave_out:
                mem.execute("PRAGMA secure_delete=ON")  # their bytes do not stay in free pages
                mem.execute("PRAGMA foreign_keys=ON")
                mem.executemany("DELETE FROM actions WHERE record_id=?", [(i,) for i in leave_out])
                mem.executemany("DELETE FROM records WHERE id=?", [(i,) for i in leave_out])
                mem.commit()
            return _rollback_journal(mem.serialize())
        finally:
            mem.close()

    def restore(self, data: bytes) -> None:
        """Replace the whole store with a backup's bytes, checked and brought to this
        schema version first (`check_backup`; BackupError: nothing changed), after a
        backup of what it had."""
        source = check_backup(data)
        try:
            self.changed_results(source)
            source.commit()
            pages = int(source.execute("PRAGMA page_size").fetchone()[0])
            live = int(self._query("PRAGMA page_size")[0][0])
            if pages != live:
                raise BackupError(
                    "data",
                    T(
                        "the backup has {pages}-byte pages, the box's store {live}-byte pages",
                        pages=pages,
                        live=live,
                    ),  # fmt: skip
                )
            try:
                self.backup("restore")
            except (OSError, sqlite3.Error) as exc:
                log.warning("no backup before the restore: %s", exc)
            with self._lock:
                source.backup(self._db)
                self.unreadable.clear()
        finally:
            source.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                self._db.execute("COMMIT")
            except BaseException:
                # sqlite rolls back by itself on SQLITE_FULL: only roll back what is open
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    def _note_unreadable(self, path: str, why: str) -> None:
        if self.unreadable.get(path) != why:
            log.warning("stored row %s cannot be read: %s", path, why)
            self.unreadable[path] = why

    def integrity_check(self) -> str:
        """sqlite's own verdict on the file ("ok" when sound)."""
        return str(self._query("PRAGMA integrity_check")[0][0])

    # --- settings ---------------------------------------------------------
    def settings(self) -> dict[str, Any]:
        """Every setting: stored values over defaults.

        A stored value that cannot be read (not JSON, or not what its setting allows)
        counts as `settings.fallback` (the default; for the admin PIN one no PIN opens)
        and is noted in `unreadable` as "settings[KEY]"; rows of unknown settings are
        left alone."""
        values = settings.defaults()
        for key, text in self._query("SELECT key, value FROM settings"):
            if key not in values:
                continue
            try:
                values[key] = settings.stored_value(key, text)
            except settings.SettingsError as exc:
                values[key] = settings.fallback(key)
                self._note_unreadable(f"settings[{key}]", exc.message)
            else:
                self.unreadable.pop(f"settings[{key}]", None)
        return values

    def unreadable_settings(self) -> list[str]:
        """The settings whose stored value could not be read when last read (at defaults)."""
        return [
            p[len("settings[") : -1] for p in list(self.unreadable) if p.startswith("settings[")
        ]

    def setting(self, key: str) -> Any:
        return self.settings()[key]

    def stored_settings(self) -> dict[str, Any]:
        """Only the settings someone set (at the box or from the laptop) and that can be
        read: where a setting was never set, the wiring may have the say (pins.toml's
        display driver)."""
        values = self.settings()
        unreadable = set(self.unreadable_settings())
        stored = {key for (key,) in self._query("SELECT key FROM settings")}
        return {key: values[key] for key in values if key in stored and key not in unreadable}

    def set_settings(self, changes: Mapping[str, Any]) -> dict[str, Any]:
        """Validate and apply a batch of changes, all or nothing; return the new settings.

        The admin PIN is stored as its salted hash, never as given."""
        checked = settings.validate(changes)
        if admin.PIN_SETTING in checked:
            checked[admin.PIN_SETTING] = admin.hash_pin(str(checked[admin.PIN_SETTING]))
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
        if not self.readonly:
            self.daily_backup()
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
        meta: Mapping[str, Any] | None = None,
    ) -> None:
        """Commit one action at its place in the record (durable when this returns).

        `finish` = (game, awards, meta, values) ends the match in the same transaction:
        the awards go to the Bestenliste, the meta and store values are written and the
        record is marked finished, or none of it happens. `meta` (without `finish`)
        rewrites the record's meta with the action.
        """
        self.append_actions(record_id, index, [action], finish, meta)

    def append_actions(
        self,
        record_id: int,
        index: int,
        actions: Sequence[int],
        finish: tuple[str, list[Award], Mapping[str, Any], Mapping[str, Any]] | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> None:
        """Commit several actions from `index` on in one transaction (a table of hands):
        all of them are stored, or none; `finish` and `meta` as for :meth:`append_action`."""
        with self._tx() as db:
            db.executemany(
                "INSERT INTO actions(record_id, idx, action) VALUES (?, ?, ?)",
                [(record_id, index + i, int(a)) for i, a in enumerate(actions)],
            )
            db.execute("UPDATE records SET updated=? WHERE id=?", (time.time(), record_id))
            if meta is not None and finish is None:
                db.execute(
                    "UPDATE records SET meta=? WHERE id=?", (json.dumps(dict(meta)), record_id)
                )
            if finish is not None:
                game, awards, end_meta, values = finish
                self._award(db, record_id, game, awards)
                db.execute(
                    "UPDATE records SET meta=?, finished=1 WHERE id=?",
                    (json.dumps(dict(end_meta)), record_id),
                )
                for key, value in values.items():
                    db.execute(
                        "INSERT OR REPLACE INTO scores(key, value) VALUES (?, ?)",
                        (key, json.dumps(value)),
                    )

    def take_back_actions(self, record_id: int, first: int, meta: Mapping[str, Any]) -> None:
        """Remove the record's actions from index `first` on and write its meta, in one
        transaction: a human took back a mis-press. The record then reads as if those
        actions had never been played (the meta keeps what was taken back)."""
        with self._tx() as db:
            row = db.execute("SELECT finished FROM records WHERE id=?", (record_id,)).fetchone()
            if row is None or row[0]:
                raise ValueError(f"record {record_id} is not a running match")
            db.execute("DELETE FROM actions WHERE record_id=? AND idx>=?", (record_id, first))
            db.execute(
                "UPDATE records SET meta=?, updated=? WHERE id=?",
                (json.dumps(dict(meta)), time.time(), record_id),
            )

    @staticmethod
    def _award(
        db: sqlite3.Connection, record_id: int | None, game: str, awards: list[Award]
    ) -> None:
        db.executemany(
            "INSERT INTO awards(record_id, game, name, points, matches, wins)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [(record_id, game, a.name, int(a.points), int(a.matches), int(a.wins)) for a in awards],
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
        """A stored record with every committed action (KeyError when unknown).

        RecordError, in German for the panel, names the part that cannot be read (its
        cause, a BackupError, the row's field and why)."""
        rows = self._query(
            "SELECT game, params, seats, meta, finished FROM records WHERE id=?", (record_id,)
        )
        if not rows:
            raise KeyError(f"no record {record_id}")
        game, params, seats, meta, finished = rows[0]
        actions = [
            a
            for (a,) in self._query(
                "SELECT action FROM actions WHERE record_id=? ORDER BY idx", (record_id,)
            )
        ]
        try:
            if not all(isinstance(a, int) for a in actions):
                raise BackupError(f"records[{record_id}].actions", "an action is a whole number")
            return _record_of(record_id, game, params, seats, meta, finished, actions)
        except BackupError as exc:
            part = _RECORD_PARTS.get(exc.path.split("].", 1)[-1].split("[")[0], "Daten")
            raise RecordError(f"{part} nicht lesbar") from exc

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
                seats=self._seat_names(rid, seats),
                actions=n,
                started=started,
                finished=bool(fin),
                abandoned=bool(ab),
            )
            for rid, game, seats, started, fin, ab, n in rows
        ]

    def _seat_names(self, record_id: int, seats: Any) -> list[str]:
        """The names in a record's seats (none when they cannot be read: noted)."""
        try:
            where = f"records[{record_id}]"
            return [s.name for s in _seats_of(where, _json_field(where, "seats", seats, list))]
        except BackupError as exc:
            self._note_unreadable(f"records[{record_id}].seats", exc.message)
            return []

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
            "SELECT name, points, matches, wins FROM awards WHERE record_id=? ORDER BY id",
            (record_id,),
        )
        return [Award(n, p, m, w) for n, p, m, w in rows]

    def bestenliste(self, game: str, lowest_first: bool = False) -> list[Standing]:
        """One game's Bestenliste, best first: every award of the game added up per name
        (most points first; fewest first for a game whose points count against you)."""
        order = "ASC" if lowest_first else "DESC"
        rows = self._query(
            "SELECT name, SUM(points) AS p, SUM(matches) AS m, SUM(wins) AS w FROM awards"
            f" WHERE game=? GROUP BY name ORDER BY p {order}, w DESC, m ASC, name ASC",
            (game,),
        )
        return [Standing(n, int(p), int(m), int(w)) for n, p, m, w in rows]

    def reset_bestenliste(self, game: str | None = None) -> int:
        """Clear one game's Bestenliste (or all); returns how many lines went.

        In the same transaction each game's rating cutoff is stored (`rating_cutoff`):
        its ratings then fold only the matches that finish after the reset."""
        with self._tx() as db:
            where, args = ("", ()) if game is None else (" WHERE game=?", (game,))
            lines = db.execute(
                f"SELECT COUNT(DISTINCT game || '/' || name) FROM awards{where}", args
            ).fetchone()[0]
            db.execute(f"DELETE FROM awards{where}", args)
            self._cut_ratings(db, game)
            return int(lines)

    # --- what the ratings fold (spielleiter.ratings) -------------------------
    @staticmethod
    def _cut_ratings(db: sqlite3.Connection, game: str | None) -> None:
        """Store the rating cutoff of a game (or of every game with records or awards):
        the highest record id now, the games still running (they finish after it) and
        the time."""
        if game is None:
            games = [
                g for (g,) in db.execute("SELECT game FROM records UNION SELECT game FROM awards")
            ]
        else:
            games = [game]
        last = int(db.execute("SELECT COALESCE(MAX(id), 0) FROM records").fetchone()[0])
        now = time.time()
        for name in games:
            running = [
                int(r)
                for (r,) in db.execute(
                    "SELECT id FROM records WHERE game=? AND finished=0 AND abandoned=0", (name,)
                )
            ]
            cutoff = {"after": last, "running": running, "at": now}
            db.execute(
                "INSERT OR REPLACE INTO scores(key, value) VALUES (?, ?)",
                (CUTOFF_KEY + name, json.dumps(cutoff)),
            )

    def rating_cutoff(self, game: str) -> RatingCutoff | None:
        """Where the last `reset_bestenliste` of a game cut its ratings (None: never
        reset, or the stored cutoff cannot be read: noted, and every match counts)."""
        found = self.get_value(CUTOFF_KEY + game)
        if found is None:
            return None
        try:
            if not isinstance(found, dict):
                raise BackupError("value", "must be an object")
            running = found.get("running", [])
            if not isinstance(running, list):
                raise BackupError("running", "must be a list")
            return RatingCutoff(
                after=_count("after", found.get("after"), 0),
                running=frozenset(_count("running", r, 1) for r in running),
                at=_finite("at", found.get("at")),
            )
        except BackupError as exc:
            self._note_unreadable(f"scores[{CUTOFF_KEY}{game}]", str(exc))
            return None

    def results_upto(self, game: str, upto: tuple[float, int]) -> list[Any]:
        """A cheap fingerprint of a game's finished records up to (finish time, id) in
        finish order — how many, the highest id, their finish times and text lengths, the
        cutoff, and the generation `changed_results` bumps — read by sqlite without a row
        reaching Python: equal, and those records are the ones folded before (only a
        change in place of the same length would not show, and those bump the generation)."""
        with self._lock:
            row = self._db.execute(
                "SELECT COUNT(*), MAX(id), TOTAL(updated),"
                " TOTAL(LENGTH(seats) + LENGTH(meta) + LENGTH(params)) FROM records"
                " WHERE game=? AND finished=1 AND (updated < ? OR (updated = ? AND id <= ?))",
                (game, upto[0], upto[0], upto[1]),
            ).fetchone()
            extra = self._db.execute(
                "SELECT key, value FROM scores WHERE key IN (?, ?) ORDER BY key",
                (CUTOFF_KEY + game, RESULTS_GENERATION_KEY),
            ).fetchall()
        return [*row, *(v for _, v in extra)]

    @staticmethod
    def changed_results(db: sqlite3.Connection) -> None:
        """Within a transaction that edits finished records in place (a name renamed in
        their seats), or on a store a restore brings: a new generation, so the ratings
        fold those records again (a random one: a restored store never has the one its
        cache file saw)."""
        db.execute(
            "INSERT OR REPLACE INTO scores(key, value) VALUES (?, ?)",
            (RESULTS_GENERATION_KEY, json.dumps(os.urandom(8).hex())),
        )

    def results_key(self, game: str) -> tuple[Any, ...]:
        """A cheap fingerprint of what a game's ratings fold: it changes with every write
        through this store, a finished record more or less, a restore that brings other
        records, a new cutoff. Equal keys: `results(game)` is what it was."""
        with self._lock:
            row = self._db.execute(
                "SELECT COUNT(*), MAX(id), MAX(updated), TOTAL(LENGTH(seats)) FROM records"
                " WHERE game=? AND finished=1",
                (game,),
            ).fetchone()
            extra = self._db.execute(
                "SELECT key, value FROM scores WHERE key IN (?, ?) ORDER BY key",
                (CUTOFF_KEY + game, RESULTS_GENERATION_KEY),
            ).fetchall()
            return (self._db.total_changes, *row, *(v for _, v in extra))

    def results(self, game: str, after: tuple[float, int] | None = None) -> list[ResultRow]:
        """A game's finished records after its cutoff, in the order they finished (finish
        time, then id), as the ratings fold reads them: the seats, meta and parameters as
        stored text (`spielleiter.ratings` reads each seat's place, who left, the bot
        version from them). `after` (finish time, id): only those that finished later."""
        cutoff = self.rating_cutoff(game)
        later, args = "", list[Any]([game])
        if after is not None:
            later = " AND (updated > ? OR (updated = ? AND id > ?))"
            args += [after[0], after[0], after[1]]
        rows = self._query(
            "SELECT id, started, updated, seats, meta, params FROM records"
            f" WHERE game=? AND finished=1{later} ORDER BY updated, id",
            tuple(args),
        )
        found = [ResultRow(*row) for row in rows]
        if cutoff is None:
            return found
        return [row for row in found if cutoff.keeps(row)]

    # --- names ------------------------------------------------------------
    def remember_name(self, name: str) -> None:
        self.remember_names([name])

    def remember_names(self, names: list[str]) -> None:
        """Remember names in one transaction; the least recently used beyond NAMES_MAX go."""
        now = time.time()
        with self._tx() as db:
            db.executemany(
                "INSERT OR REPLACE INTO names(name, last_used) VALUES (?, ?)",
                [(name, now + i * 1e-6) for i, name in enumerate(names)],
            )
            db.execute(
                "DELETE FROM names WHERE name NOT IN"
                " (SELECT name FROM names ORDER BY last_used DESC, name LIMIT ?)",
                (NAMES_MAX,),
            )

    def names(self) -> list[str]:
        """Remembered player names, most recently used first."""
        return [n for (n,) in self._query("SELECT name FROM names ORDER BY last_used DESC, name")]

    def forget_name(self, name: str) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM names WHERE name=?", (name,))

    def last_name(self) -> str | None:
        """The name of the player who played last (the most recently used)."""
        rows = self._query("SELECT name FROM names ORDER BY last_used DESC, name LIMIT 1")
        return str(rows[0][0]) if rows else None

    def delete_name(self, name: str) -> None:
        """Take a name off the names the box offers (NameChange "unknown" when it is not
        one). What the name played stays: its records, its Bestenliste line."""
        with self._tx() as db:
            if db.execute("DELETE FROM names WHERE name=?", (name,)).rowcount == 0:
                raise NameChange("unknown", T("no name {name!r}", name=name))

    def rename_name(self, old: str, new: str) -> bool:
        """Rename a player, in one transaction: the names offered, the Bestenliste's awards,
        and the name in the seats and meta of every finished record, so the ratings fold
        the player as one (Store.changed_results makes them fold those records again).
        Renaming onto a name that is there merges the two (True is returned). NameChange
        when `old` is no name, `new` is `old`, a match not over seats `old` (leave or
        finish it first), or `old` and `new` played in one match (two players)."""
        if old == new:
            raise NameChange("same", T("the new name is the old one"))
        with self._tx() as db:
            known = {n for (n,) in db.execute("SELECT name FROM names WHERE name IN (?, ?)",
                                              (old, new))}  # fmt: skip
            if old not in known:
                raise NameChange("unknown", T("no name {name!r}", name=old))
            merged = new in known
            changed = []
            for rid, seats_text, meta_text, finished, abandoned in db.execute(
                "SELECT id, seats, meta, finished, abandoned FROM records"
            ).fetchall():
                seats, meta = json.loads(seats_text), json.loads(meta_text)
                names = _seat_names_of(seats, meta)
                if old not in names:
                    continue
                if not finished and not abandoned:
                    raise NameChange(
                        "running",
                        T("{name} sits in match {id}, which is not over", name=old, id=rid),
                    )
                if new in names:
                    raise NameChange(
                        "together",
                        T(
                            "{old} and {new} played together in match {id}",
                            old=old,
                            new=new,
                            id=rid,
                        ),
                    )
                changed.append((json.dumps(_renamed_seats(seats, old, new)),
                                json.dumps(_renamed_meta(meta, old, new)), rid))  # fmt: skip
            db.executemany("UPDATE records SET seats=?, meta=? WHERE id=?", changed)
            db.execute("UPDATE awards SET name=? WHERE name=?", (new, old))
            last = db.execute("SELECT MAX(last_used) FROM names WHERE name IN (?, ?)",
                              (old, new)).fetchone()[0]  # fmt: skip
            db.execute("DELETE FROM names WHERE name IN (?, ?)", (old, new))
            db.execute("INSERT INTO names(name, last_used) VALUES (?, ?)", (new, last))
            if changed:
                self.changed_results(db)
        return merged

    # --- small scores (e.g. the solo score to beat) ------------------------
    def get_value(self, key: str, default: Any = None) -> Any:
        """A stored value (`default` when there is none, or it cannot be read: noted)."""
        rows = self._query("SELECT value FROM scores WHERE key=?", (key,))
        if not rows:
            return default
        try:
            return settings.parse_stored(rows[0][0])
        except ValueError as exc:
            self._note_unreadable(f"scores[{key}]", str(exc))
            return default

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

    def check_boards(self, game: str, items: Mapping[str, Any]) -> None:
        """Raise BoardError unless every board is valid and the game's boards stay within
        BOARDS_MAX uploaded boards of at most BOARD_BYTES_MAX bytes each."""
        uploaded = set(self.uploaded_boards(game))
        if len(uploaded | set(items)) > BOARDS_MAX:
            raise boards.BoardError(
                "boards",
                T(
                    "a game keeps at most {most} uploaded boards; delete some first",
                    most=BOARDS_MAX,
                ),
            )
        for name, data in items.items():
            if not isinstance(name, str) or not name or len(name) > 64:
                raise boards.BoardError("name", T("a board needs a name of 1 to 64 characters"))
            shown = data.get("name") if isinstance(data, dict) else None
            for text in (name, shown) if isinstance(shown, str) else (name,):
                problem = text_problem(text, board=True)  # the panel shows a board by its name
                if problem:
                    raise boards.BoardError("name", problem)
            size = len(json.dumps(data, ensure_ascii=False).encode("utf-8"))
            if size > BOARD_BYTES_MAX:
                raise boards.BoardError(
                    name,
                    T("a board has at most {most} bytes of JSON, not {size}",
                      most=BOARD_BYTES_MAX, size=size),
                )  # fmt: skip
            try:
                boards.validate(game, data)
            except boards.BoardError as exc:
                raise boards.BoardError(
                    exc.path, around("{why} (board {name!r})", exc.message, name=name)
                ) from exc
        kept = self.boards(game)
        for name, data in items.items():  # no board twice under two names
            others = {n: d for n, d in {**kept, **items}.items() if n != name}
            twin = boards.twin(game, data, others)
            if twin is not None:
                raise boards.BoardError(
                    name,
                    T("the same as the board {twin!r} (a copy, or the same game): boards must"
                      " differ", twin=twin),
                )  # fmt: skip

    def put_boards(self, game: str, items: Mapping[str, Any]) -> None:
        """Check every board first (check_boards), then store them all in one transaction."""
        self.check_boards(game, items)
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


def check_backup(data: bytes) -> sqlite3.Connection:
    """An in-memory copy of a backup's bytes, checked to be a store the box can use as it
    is and brought to this schema version; BackupError (a ValueError) names what is
    refused and why, and nothing is changed anywhere. The caller closes the copy.

    The file: sqlite in UTF-8, sound by sqlite's integrity_check. The schema: exactly a
    fresh store's of a version the box knows (the same tables, columns and indexes; no
    trigger, view or other object); an older version is then migrated as the box's own
    store is (Store._migrate). Every row (`_check_rows`): settings by their checks,
    records readable and each open one replayed, the other tables' types and ranges.
    """
    if len(data) > RESTORE_BYTES_MAX:
        raise BackupError("data", T("a backup has at most {most} bytes", most=RESTORE_BYTES_MAX))
    if not data.startswith(_SQLITE_HEADER):
        raise BackupError("data", T("not an sqlite database"))
    mem = sqlite3.connect(":memory:", isolation_level=None)
    try:
        try:
            mem.deserialize(_rollback_journal(data))
            verdict = [str(r[0]) for r in mem.execute("PRAGMA integrity_check").fetchall()]
            if verdict != ["ok"]:
                raise BackupError(
                    "data", T("the backup is corrupt: {why}", why="; ".join(verdict)[:200])
                )
            encoding = str(mem.execute("PRAGMA encoding").fetchone()[0])
            if encoding != "UTF-8":
                raise BackupError(
                    "data", T("the backup's text is {encoding}, the box's UTF-8", encoding=encoding)
                )
            version = int(mem.execute("PRAGMA user_version").fetchone()[0])
            if version > SCHEMA_VERSION:
                raise BackupError(
                    "schema",
                    T(
                        "schema version {version} is not one this box knows (1 to {newest}):"
                        " the backup is from a newer program; update this box's program first",
                        version=version,
                        newest=SCHEMA_VERSION,
                    ),  # fmt: skip
                )
            if version < 1:
                raise BackupError(
                    "schema",
                    T(
                        "schema version {version} is not one this box knows (1 to {newest})",
                        version=version,
                        newest=SCHEMA_VERSION,
                    ),  # fmt: skip
                )
            _check_schema(mem, version)
            if version != SCHEMA_VERSION:
                mem.execute("BEGIN")
                _upgrade(mem)
                mem.execute("COMMIT")
                _check_schema(mem, SCHEMA_VERSION)  # what the migration made of it
            _check_rows(mem)
        except sqlite3.Error as exc:
            raise BackupError(
                "data", T("not a sound sqlite database: {why}", why=str(exc))
            ) from exc
    except BaseException:
        mem.close()
        raise
    return mem


_RECORD_PARTS = {
    "game": "Spiel",
    "params": "Parameter",
    "seats": "Plätze",
    "meta": "Zusatzdaten",
    "actions": "Züge",
}
"""A record's parts in the players' words, for RecordError on the panel."""

_TYPES: dict[str, tuple[tuple[str, ...], dict[str, tuple[str, ...]]]] = {
    "settings": (("key",), {"key": ("text",), "value": ("text",)}),
    "records": (
        ("id",),
        {
            "id": ("integer",),
            **dict.fromkeys(("game", "params", "seats", "meta"), ("text",)),
            **dict.fromkeys(("started", "updated"), ("real", "integer")),
            **dict.fromkeys(("finished", "abandoned"), ("integer",)),
        },
    ),
    "actions": (("record_id", "idx"), dict.fromkeys(("record_id", "idx", "action"), ("integer",))),
    "bestenliste": (
        ("game", "name"),
        {"game": ("text",), "name": ("text",), "points": ("integer",), "matches": ("integer",)},
    ),
    "awards": (
        ("id",),
        {
            "id": ("integer",),
            "record_id": ("integer", "null"),
            "game": ("text",),
            "name": ("text",),
            **dict.fromkeys(("points", "matches", "wins"), ("integer",)),
        },
    ),
    "names": (("name",), {"name": ("text",), "last_used": ("real", "integer")}),
    "boards": (("game", "name"), dict.fromkeys(("game", "name", "data"), ("text",))),
    "scores": (("key",), {"key": ("text",), "value": ("text",)}),
}
"""Each table's row key (for the error's path) and the sqlite types each column takes."""


def _row(table: str, key: Sequence[Any]) -> str:
    """A row as an error's path names it: ``records[7]``, ``actions[7/3]``."""
    return f"{table}[{'/'.join(str(k)[:40] for k in key)}]"


def _check_types(db: sqlite3.Connection) -> None:
    """Every column holds the sqlite type the box writes there (sqlite takes any)."""
    for table, (key, columns) in _TYPES.items():
        wrong = " OR ".join(
            f"typeof({c}) NOT IN ({', '.join(repr(t) for t in kinds)})"
            for c, kinds in columns.items()
        )
        types = ", ".join(f"typeof({c})" for c in columns)
        row = db.execute(f"SELECT {', '.join(key)}, {types} FROM {table} WHERE {wrong} LIMIT 1")
        found = row.fetchone()
        if found is None:
            continue
        got = dict(zip(columns, found[len(key) :], strict=True))
        column = next(c for c, kinds in columns.items() if got[c] not in kinds)
        raise BackupError(
            f"{_row(table, found[: len(key)])}.{column}",
            T("must be {kinds}, not {kind}", kinds=" or ".join(columns[column]), kind=got[column]),
        )


def _text(path: str, value: Any, limit: int = TEXT_MAX) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= limit:
        raise BackupError(path, T("must be a text of 1 to {most} characters", most=limit))
    return value


def _finite(path: str, value: Any) -> float:
    if not isinstance(value, int | float) or not -1e300 < value < 1e300:
        raise BackupError(path, T("must be a finite number"))
    return float(value)


def _count(path: str, value: Any, low: int) -> int:
    if not isinstance(value, int) or not low <= value <= COUNT_MAX:
        raise BackupError(
            path, T("must be a whole number from {low} to {high}", low=low, high=COUNT_MAX)
        )
    return value


def _points(path: str, value: Any) -> None:
    if not isinstance(value, int) or abs(value) > COUNT_MAX:
        raise BackupError(
            path, T("must be a whole number from {low} to {high}", low=-COUNT_MAX, high=COUNT_MAX)
        )


def _json_field(where: str, field: str, text: Any, kind: type) -> Any:
    """A record's JSON column, read strictly and of the right kind (object or list)."""
    try:
        value = settings.parse_stored(text)
    except ValueError as exc:
        raise BackupError(f"{where}.{field}", str(exc)) from None
    if not isinstance(value, kind):
        want = T("an object") if kind is dict else T("a list")
        raise BackupError(f"{where}.{field}", T("must be {kind} in JSON", kind=want))
    return value


def _seats_of(where: str, seats: list[Any]) -> list[Seat]:
    """Stored seats as Seats: each an object of a name, a kind and a computer's level."""
    if not 1 <= len(seats) <= SEATS_MAX:
        raise BackupError(f"{where}.seats", T("a record has 1 to {most} seats", most=SEATS_MAX))
    found = []
    for i, seat in enumerate(seats):
        path = f"{where}.seats[{i}]"
        if not isinstance(seat, dict) or set(seat) - {"name", "kind", "level"}:
            raise BackupError(path, T("a seat is an object of name, kind and level"))
        if seat.get("kind", "human") not in ("human", "computer"):
            raise BackupError(f"{path}.kind", T("must be human or computer"))
        level = seat.get("level", "")
        if level != "":
            _text(f"{path}.level", level)
        found.append(Seat.from_json({**seat, "name": _text(f"{path}.name", seat.get("name"))}))
    return found


def _record_of(
    record_id: int, game: Any, params: Any, seats: Any, meta: Any, finished: Any, actions: list[int]
) -> Record:
    """A stored record row as a Record; BackupError names the field that cannot be read."""
    where = f"records[{record_id}]"
    game = _text(f"{where}.game", game)
    params = _json_field(where, "params", params, dict)
    seat_list = _seats_of(where, _json_field(where, "seats", seats, list))
    meta = _json_field(where, "meta", meta, dict)
    meta["id"] = record_id
    meta["finished"] = bool(finished)
    return Record(game=game, params=params, seats=seat_list, actions=actions, meta=meta)


def _check_rows(db: sqlite3.Connection) -> None:
    """Every row of a store at SCHEMA_VERSION is one the box could have written."""
    _check_types(db)
    for key, text in db.execute("SELECT key, value FROM settings"):
        try:
            settings.stored_value(key, text)
        except settings.SettingsError as exc:
            field = "key" if key not in settings.SETTINGS else "value"
            raise BackupError(f"{_row('settings', [key])}.{field}", exc.message) from None
    for key, text in db.execute("SELECT key, value FROM scores"):
        _text(f"{_row('scores', [key])}.key", key, 200)
        try:
            settings.parse_stored(text)
        except ValueError as exc:
            raise BackupError(f"{_row('scores', [key])}.value", str(exc)) from None
    _check_records(db)
    for row in db.execute("SELECT id, record_id, game, name, points, matches, wins FROM awards"):
        where = _row("awards", row[:1])
        _count(f"{where}.id", row[0], 1)
        _text(f"{where}.game", row[2])
        _text(f"{where}.name", row[3])
        _points(f"{where}.points", row[4])
        _count(f"{where}.matches", row[5], 0)
        _count(f"{where}.wins", row[6], 0)
    for game, name, points, matches in db.execute("SELECT * FROM bestenliste"):
        where = _row("bestenliste", [game, name])
        _text(f"{where}.game", game)
        _text(f"{where}.name", name)
        _points(f"{where}.points", points)
        _count(f"{where}.matches", matches, 0)
    for name, last_used in db.execute("SELECT name, last_used FROM names"):
        _text(f"{_row('names', [name])}.name", name)
        _finite(f"{_row('names', [name])}.last_used", last_used)
    _check_boards(db)


def _check_records(db: sqlite3.Connection) -> None:
    """Records readable as Records, their actions numbered 0, 1, 2 ... of records that
    exist, and every open game (neither finished nor abandoned) replayed to its end."""
    orphan = db.execute(
        "SELECT record_id, idx FROM actions WHERE record_id NOT IN (SELECT id FROM records) LIMIT 1"
    ).fetchone()
    if orphan is not None:
        raise BackupError(f"{_row('actions', orphan)}.record_id", T("no such record"))
    gap = db.execute(
        "SELECT record_id FROM actions GROUP BY record_id"
        " HAVING MIN(idx) != 0 OR MAX(idx) != COUNT(*) - 1 LIMIT 1"
    ).fetchone()
    if gap is not None:
        raise BackupError(
            f"{_row('records', gap)}.actions", "its actions must be numbered 0, 1, 2 ... in order"
        )
    rows = db.execute(
        "SELECT id, game, params, seats, meta, started, updated, finished, abandoned FROM records"
    )
    for rid, game, params, seats, meta, started, updated, finished, abandoned in rows:
        where = _row("records", [rid])
        _count(f"{where}.id", rid, 1)
        _finite(f"{where}.started", started)
        _finite(f"{where}.updated", updated)
        for field, flag in (("finished", finished), ("abandoned", abandoned)):
            if flag not in (0, 1):
                raise BackupError(f"{where}.{field}", T("must be 0 or 1"))
        record = _record_of(rid, game, params, seats, meta, finished, [])
        if finished or abandoned:
            continue  # never resumed: its actions are not replayed (docs/protocol.md)
        record.actions = [
            a
            for (a,) in db.execute(
                "SELECT action FROM actions WHERE record_id=? ORDER BY idx", (rid,)
            )
        ]
        _replays(where, record)


def _replays(where: str, record: Record) -> None:
    """An open record's game can be made from its parameters and replays its actions."""
    from .games import catalog

    try:
        record.make_game()
    except catalog.UnknownGame:
        raise BackupError(
            f"{where}.game", T("no game {game!r} on this box", game=record.game)
        ) from None
    except Exception as exc:  # noqa: BLE001 - hostile parameters may break a game in any way
        raise BackupError(f"{where}.params", T("the game refuses them: {why}", why=exc)) from None
    try:
        record.replay()
    except RecordError as exc:
        raise BackupError(
            f"{where}.actions", T("the record does not replay: {why}", why=exc)
        ) from None
    except Exception as exc:  # noqa: BLE001 - a replay of hostile actions may fail in any way
        raise BackupError(f"{where}.actions", f"the record does not replay: {exc!r}") from None


def _check_boards(db: sqlite3.Connection) -> None:
    """Uploaded boards as boards.put takes them: valid, small, not too many per game."""
    counts: dict[str, int] = {}
    for game, name, data in db.execute("SELECT game, name, data FROM boards"):
        where = _row("boards", [game, name])
        _text(f"{where}.game", game)
        _text(f"{where}.name", name)
        counts[game] = counts.get(game, 0) + 1
        if counts[game] > BOARDS_MAX:
            raise BackupError(
                f"{where}.name", T("a game keeps at most {most} boards", most=BOARDS_MAX)
            )
        if len(data.encode("utf-8")) > BOARD_BYTES_MAX:
            raise BackupError(
                f"{where}.data", T("a board has at most {most} bytes", most=BOARD_BYTES_MAX)
            )
        try:
            boards.validate(game, settings.parse_stored(data))
        except boards.BoardError as exc:
            path = f"{where}.data" + (f".{exc.path}" if exc.path else "")
            raise BackupError(path, exc.message) from None
        except ValueError as exc:
            raise BackupError(f"{where}.data", str(exc)) from None


def _rollback_journal(data: bytes) -> bytes:
    """The file marked as a rollback-journal database (header bytes 18 and 19 = 1), as a
    copy of a WAL database must be to open without its -wal file (sqlite file format)."""
    if len(data) >= 20 and data[18:20] == b"\x02\x02":
        return data[:18] + b"\x01\x01" + data[20:]
    return data


def write_restored(path: Path, data: bytes) -> Path | None:
    """Safe mode's restore: the backup is checked and brought to this schema version
    (`check_backup`; BackupError: nothing changed), then the faulty file goes aside
    (returned) and the checked copy takes its place, written whole and synced before it
    is renamed in."""
    checked = check_backup(data)
    try:
        Store.changed_results(checked)
        checked.commit()
        data = checked.serialize()
    finally:
        checked.close()
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    aside: Path | None = None
    if path.exists():
        aside = path.with_name(f"{path.name}.broken-{stamp}")
        os.replace(path, aside)
    for suffix in ("-wal", "-shm"):
        extra = path.with_name(path.name + suffix)
        if extra.exists():
            os.replace(extra, path.with_name(f"{path.name}.broken-{stamp}{suffix}"))
    partial = path.with_name(path.name + ".restore")
    with open(partial, "wb") as out:
        out.write(_rollback_journal(data))
        out.flush()
        os.fsync(out.fileno())
    os.replace(partial, path)
    return aside


def backup_bytes(data: bytes) -> dict[str, Any]:
    """A backup as the link sends it: base64, size and sha256."""
    import hashlib  # here, not at the start: the first frame needs no OpenSSL

    return {
        "size": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "data": base64.b64encode(data).decode("ascii"),
    }


def kept_backups(data_dir: Path) -> list[Path]:
    """The backups kept in a data folder, newest first."""
    return sorted((Path(data_dir) / BACKUP_DIR).glob("spielleiter-*.sqlite3"), reverse=True)


def kept_backup_bytes(path: Path) -> tuple[bytes, list[int]]:
    """A kept backup's bytes without the records of games that were running in it (what
    no seat may know yet stays on the box), and those records' ids."""
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    mem = sqlite3.connect(":memory:")
    try:
        source.backup(mem)
        mem.execute("PRAGMA secure_delete=ON")  # their bytes do not stay in free pages
        running = [
            int(r)
            for (r,) in mem.execute("SELECT id FROM records WHERE finished=0 AND abandoned=0")
        ]
        mem.executemany("DELETE FROM actions WHERE record_id=?", [(i,) for i in running])
        mem.executemany("DELETE FROM records WHERE id=?", [(i,) for i in running])
        mem.commit()
        return _rollback_journal(mem.serialize()), running
    finally:
        mem.close()
        source.close()


def newest_pin(data_dir: Path) -> str:
    """The stored admin PIN of the newest readable backup: safe mode's PIN when the store
    itself cannot be read. With no readable backup: "" for a box that never held data,
    else a PIN no one knows (settings.UNREADABLE_PIN: the link stays shut until the PIN
    is reset at the box), never an open link for a store that may have had a PIN."""
    for path in sorted((data_dir / BACKUP_DIR).glob("spielleiter-*.sqlite3"), reverse=True):
        try:
            db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            try:
                rows = db.execute(
                    "SELECT value FROM settings WHERE key=?", (admin.PIN_SETTING,)
                ).fetchall()
            finally:
                db.close()
            return str(json.loads(rows[0][0])) if rows else ""
        except (sqlite3.Error, ValueError, TypeError):
            continue
    store = data_dir / FILE_NAME
    held = store.with_name(store.name + MARKER_SUFFIX).exists() or (
        store.exists() and store.stat().st_size > 0
    )
    return settings.UNREADABLE_PIN if held else ""
