"""What is restored is checked like what is typed (DESIGN.md "Trust").

`backup.restore` takes only a store with exactly the box's schema (of a version it knows;
an older one is migrated as the box's own store is) and rows the box could have written.
A hostile or broken backup is refused over the link with the table, row and field that
failed, and nothing changes: the live store stays byte for byte what it was and no file
is left behind — on a running box and in safe mode alike.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from spielleiter import admin
from spielleiter.app import Box
from spielleiter.games import catalog
from spielleiter.games.base import Seat, sample_chance
from spielleiter.hal.clock import VirtualClock
from spielleiter.hal.display import FrameSink
from spielleiter.link import protocol
from spielleiter.link.methods import RESTORE_CHUNK_MAX, Methods
from spielleiter.records import Record
from spielleiter.safe_mode import SafeLink, SafeMode
from spielleiter.store import (
    FILE_NAME,
    SCHEMA_VERSION,
    BackupError,
    Store,
    StoreFault,
    check_backup,
)
from spielleiter.ui.menus import main_menu

GAME = "speedtombola"
PIN = "2468"

# The schemas older boxes wrote, as they wrote them (firmware/store.py at versions 1 and 2).
SCHEMA_V1 = """
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE records (
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
CREATE TABLE actions (
    record_id INTEGER NOT NULL REFERENCES records(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    action INTEGER NOT NULL,
    PRIMARY KEY (record_id, idx)
);
CREATE TABLE bestenliste (
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    points INTEGER NOT NULL DEFAULT 0,
    matches INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, name)
);
CREATE TABLE names (name TEXT PRIMARY KEY, last_used REAL NOT NULL);
CREATE TABLE boards (
    game TEXT NOT NULL, name TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (game, name)
);
CREATE TABLE scores (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
SCHEMA_V2 = (
    SCHEMA_V1
    + """
CREATE TABLE awards (
    id INTEGER PRIMARY KEY,
    record_id INTEGER,
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    points INTEGER NOT NULL,
    matches INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX awards_game ON awards(game, name);
"""
)


def played(actions: int, seed: int = 1) -> Record:
    """A Speedtombola record of `actions` legal actions (chance drawn at random)."""
    rng = random.Random(seed)
    state = catalog.make(GAME, {"players": 3}).new_initial_state()
    while len(state.history()) < actions and not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    seats = [Seat("Anna"), Seat("Leicht 1", "computer", "leicht"), Seat("Ben")]
    return Record(GAME, {"players": 3}, seats, state.history(), {"seed": seed})


def saved_box(data: Path) -> tuple[bytes, int]:
    """A store as a laptop would have saved it: settings with a PIN, finished and open
    records, a Bestenliste, names; its bytes and the open record's id."""
    store = Store.open(data)
    try:
        done = store.start_record(played(10_000, seed=2))
        store.update_record(done, finished=True)
        store.add_to_bestenliste(GAME, "Anna", 64)
        open_id = store.start_record(played(40))
        store.remember_names(["Anna", "Ben"])
        store.set_settings({"admin.pin": PIN, "clock.seconds": 15})
        return store.snapshot(), open_id
    finally:
        store.close()


def edited(raw: bytes, *sql: str, version: int | None = None) -> bytes:
    """A backup's bytes changed by SQL run on a copy (a hostile or damaged backup)."""
    db = sqlite3.connect(":memory:")
    try:
        db.deserialize(raw)
        for statement in sql:
            db.execute(statement)
        if version is not None:
            db.execute(f"PRAGMA user_version={version}")
        db.commit()
        return db.serialize()
    finally:
        db.close()


def restore(device: Any, raw: bytes, pin: str | None = PIN) -> dict[str, Any]:
    """Send a backup over the link in parts, as spielleiter-host does; the last answer."""
    methods = Methods(device)
    digest = hashlib.sha256(raw).hexdigest()
    answer: dict[str, Any] = {}
    for offset in range(0, len(raw), RESTORE_CHUNK_MAX):
        params = {
            "data": base64.b64encode(raw[offset : offset + RESTORE_CHUNK_MAX]).decode(),
            "offset": offset,
            "size": len(raw),
            "sha256": digest,
            **({"pin": pin} if pin else {}),
        }
        line = protocol.request_line("backup.restore", params, 1)
        answer = json.loads(protocol.answer(line.strip(), methods.call) or b"{}")
        if "error" in answer:
            break
    return answer


def files(folder: Path) -> dict[str, bytes | None]:
    """Every file under a data folder with its bytes (sqlite's -shm index by name only:
    readers write their marks into it)."""
    return {
        str(p.relative_to(folder)): None if p.name.endswith("-shm") else p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


class RunningBox:
    """A box on its main menu with its own store, the link's device."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.store = Store.open(data)
        self.store.set_settings({"admin.pin": PIN})
        self.store.add_to_bestenliste(GAME, "Mara", 12)
        self.box = Box(self.store, FrameSink([]), VirtualClock(), random.Random(1))
        self.box.push(main_menu(self.box))

    def close(self) -> None:
        self.box.close()
        self.store.close()


class SafeBox:
    """A box in safe mode: its store's header is garbled, the newest backup holds the PIN."""

    def __init__(self, data: Path) -> None:
        self.data = data
        store = Store.open(data)
        store.set_settings({"admin.pin": PIN})
        store.backup("test")
        store.close()
        con = sqlite3.connect(data / FILE_NAME)
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.close()
        raw = bytearray((data / FILE_NAME).read_bytes())
        raw[0:16] = b"garbage garbage!"
        (data / FILE_NAME).write_bytes(bytes(raw))
        self.safe = SafeMode(StoreFault("corrupt", "file is not a database"), data, FrameSink([]))
        self.box = SafeLink(self.safe)

    def close(self) -> None:
        self.safe.close()


@pytest.fixture(params=["running box", "safe mode"])
def device(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[RunningBox | SafeBox]:
    made = RunningBox(tmp_path / "box") if request.param == "running box" else None
    made = made or SafeBox(tmp_path / "box")
    try:
        yield made
    finally:
        made.close()


@pytest.fixture
def saved(tmp_path: Path) -> tuple[bytes, int]:
    return saved_box(tmp_path / "laptop")


def open_record(raw: bytes, open_id: int, column: str, value: str) -> bytes:
    return edited(raw, f"UPDATE records SET {column}={value} WHERE id={open_id}")


HOSTILE: dict[str, tuple[Callable[[bytes, int], bytes], str, str]] = {
    # name: (how the backup is made hostile, the path refused, words of the reason)
    "a trigger that empties the Bestenliste": (
        lambda raw, _: edited(
            raw, "CREATE TRIGGER t AFTER INSERT ON actions BEGIN DELETE FROM awards; END"
        ),
        "schema",
        "trigger 't' (on actions) is not part of the box's store",
    ),
    "a view": (
        lambda raw, _: edited(raw, "CREATE VIEW v AS SELECT * FROM awards"),
        "schema",
        "view 'v'",
    ),
    "an extra table": (
        lambda raw, _: edited(raw, "CREATE TABLE extra (x)"),
        "schema",
        "table 'extra'",
    ),
    "an extra index": (
        lambda raw, _: edited(raw, "CREATE INDEX names_used ON names(last_used)"),
        "schema",
        "index 'names_used'",
    ),
    "a table with a column of its own": (
        lambda raw, _: edited(raw, "ALTER TABLE names ADD COLUMN secret TEXT"),
        "schema",
        "table 'names' differs",
    ),
    "a setting that is not JSON": (
        lambda raw, _: edited(raw, "UPDATE settings SET value='abc' WHERE key='clock.seconds'"),
        "settings[clock.seconds].value",
        "not JSON",
    ),
    "a setting of 1e999": (
        lambda raw, _: edited(raw, "UPDATE settings SET value='1e999' WHERE key='clock.seconds'"),
        "settings[clock.seconds].value",
        "not a finite number",
    ),
    "a setting of the wrong type": (
        lambda raw, _: edited(
            raw, """UPDATE settings SET value='"fünfzehn"' WHERE key='clock.seconds'"""
        ),
        "settings[clock.seconds].value",
        "must be a whole number from 3 to 120",
    ),
    "a setting out of range": (
        lambda raw, _: edited(raw, "UPDATE settings SET value='1000' WHERE key='clock.seconds'"),
        "settings[clock.seconds].value",
        "must be from 3 to 120",
    ),
    "a setting the box does not have": (
        lambda raw, _: edited(raw, "INSERT INTO settings VALUES ('clock.secs', '15')"),
        "settings[clock.secs].key",
        "no such setting",
    ),
    "a PIN that is neither a hash nor a PIN": (
        lambda raw, _: edited(raw, """UPDATE settings SET value='"x"' WHERE key='admin.pin'"""),
        "settings[admin.pin].value",
        "hash",
    ),
    "an open record that does not replay": (
        lambda raw, rid: edited(raw, f"UPDATE actions SET action=99 WHERE record_id={rid}"),
        "records[{open}].actions",
        "does not replay",
    ),
    "an open record whose seats are not seats": (
        lambda raw, rid: open_record(raw, rid, "seats", """'["Anna", "Ben"]'"""),
        "records[{open}].seats[0]",
        "a seat is an object",
    ),
    "an open record whose seats are no list": (
        lambda raw, rid: open_record(raw, rid, "seats", """'{"name": "Anna"}'"""),
        "records[{open}].seats",
        "must be a list",
    ),
    "an open record whose meta is not JSON": (
        lambda raw, rid: open_record(raw, rid, "meta", "'{seed: 1'"),
        "records[{open}].meta",
        "not JSON",
    ),
    "a finished record whose meta is not JSON": (
        lambda raw, rid: edited(raw, f"UPDATE records SET meta='[' WHERE id != {rid}"),
        "records[1].meta",
        "not JSON",
    ),
    "an open record of a game the box does not have": (
        lambda raw, rid: open_record(raw, rid, "game", "'schach'"),
        "records[{open}].game",
        "no game 'schach'",
    ),
    "a record flagged neither finished nor not": (
        lambda raw, rid: open_record(raw, rid, "finished", "'ja'"),
        "records[{open}].finished",
        "must be integer, not text",
    ),
    "actions with a gap": (
        lambda raw, rid: edited(raw, f"DELETE FROM actions WHERE record_id={rid} AND idx=3"),
        "records[{open}].actions",
        "numbered 0, 1, 2",
    ),
    "an award of text points": (
        lambda raw, _: edited(raw, "UPDATE awards SET points='viele'"),
        "awards[1].points",
        "must be integer, not text",
    ),
    "a name used at an infinite time": (
        lambda raw, _: edited(raw, "UPDATE names SET last_used=9e999 WHERE name='Ben'"),
        "names[Ben].last_used",
        "finite",
    ),
    "a score that is not JSON": (
        lambda raw, _: edited(raw, "INSERT INTO scores VALUES ('besenbingo.solo', '{')"),
        "scores[besenbingo.solo].value",
        "not JSON",
    ),
    "not sqlite at all": (
        lambda raw, _: b"Spielleiter, ganz bestimmt! " * 400,
        "data",
        "not an sqlite database",
    ),
    "sqlite's header over junk": (
        lambda raw, _: raw[:100] + bytes(range(256)) * 64,
        "data",
        "",
    ),
    "an unknown, newer schema version": (
        lambda raw, _: edited(raw, version=SCHEMA_VERSION + 1),
        "schema",
        f"schema version {SCHEMA_VERSION + 1} is not one this box knows (1 to {SCHEMA_VERSION}):"
        " the backup is from a newer program; update this box's program first",
    ),
    "no schema version": (
        lambda raw, _: edited(raw, version=0),
        "schema",
        "schema version 0 is not one this box knows",
    ),
    "the wrong schema version for its tables": (
        lambda raw, _: edited(raw, version=2),
        "schema",
        "not the schema of a version 2 store: table 'awards' differs",
    ),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_backup_is_refused_with_its_reason_and_nothing_changes(
    case: str, device: RunningBox | SafeBox, saved: tuple[bytes, int]
) -> None:
    make, path, words = HOSTILE[case]
    raw, open_id = saved
    hostile = make(raw, open_id)
    before = files(device.data)
    answer = restore(device.box, hostile)
    error = answer.get("error", {})
    assert error.get("code") == protocol.VALIDATION_ERROR, answer
    assert error["data"]["path"] == path.format(open=open_id), error
    assert words in error["data"]["message"], error
    assert error["message"] == f"{error['data']['path']}: {error['data']['message']}"
    assert files(device.data) == before  # byte for byte, and no file made or left
    if isinstance(device, RunningBox):
        assert device.store.bestenliste(GAME)[0].name == "Mara"
    else:
        assert not device.safe.restored


def test_the_same_backup_unedited_is_restored(
    device: RunningBox | SafeBox, saved: tuple[bytes, int]
) -> None:
    """The control: every check above passes a backup the box itself wrote."""
    raw, open_id = saved
    assert restore(device.box, raw).get("result", {}).get("restored") is True
    if isinstance(device, SafeBox):
        assert device.safe.restored
    store = device.store if isinstance(device, RunningBox) else Store.open(device.data)
    try:
        assert store.running(open_id) and store.record(open_id).actions == played(40).actions
        assert store.bestenliste(GAME)[0].name == "Anna"
        assert admin.verify_pin(PIN, store.setting("admin.pin"))
    finally:
        if isinstance(device, SafeBox):
            store.close()


def test_a_trigger_would_have_emptied_the_bestenliste_on_the_next_move(
    tmp_path: Path, saved: tuple[bytes, int]
) -> None:
    """Why a trigger is refused: sqlite runs it on the box's own writes."""
    raw, open_id = saved
    hostile = edited(raw, "CREATE TRIGGER t AFTER INSERT ON actions BEGIN DELETE FROM awards; END")
    db = sqlite3.connect(":memory:")
    db.deserialize(hostile)
    db.execute("INSERT INTO actions VALUES (?, 40, 0)", (open_id,))
    assert db.execute("SELECT COUNT(*) FROM awards").fetchone() == (0,)
    db.close()
    with pytest.raises(BackupError) as refused:
        check_backup(hostile)
    assert refused.value.path == "schema"


def old_store(schema: str, version: int, rows: list[str]) -> bytes:
    db = sqlite3.connect(":memory:")
    try:
        db.executescript(schema)
        for row in rows:
            db.execute(row)
        db.execute(f"PRAGMA user_version={version}")
        db.commit()
        return db.serialize()
    finally:
        db.close()


@pytest.mark.parametrize("version", [1, 2])
def test_an_older_schema_version_is_migrated_and_restored(
    version: int, device: RunningBox | SafeBox
) -> None:
    record = played(25)
    rows = [
        "INSERT INTO settings VALUES ('admin.pin', '\"2468\"')",  # plain, as version 1 kept it
        "INSERT INTO settings VALUES ('clock.seconds', '20')",
        "INSERT INTO records VALUES (1, 'speedtombola', '{\"players\": 3}',"
        f" '{json.dumps([s.to_json() for s in record.seats])}', '{{}}', 1.0, 2.0, 0, 0)",
        *(f"INSERT INTO actions VALUES (1, {i}, {a})" for i, a in enumerate(record.actions)),
        "INSERT INTO names VALUES ('Anna', 3.0)",
    ]
    if version == 1:
        rows.append("INSERT INTO bestenliste VALUES ('speedtombola', 'Anna', 95, 3)")
        schema = SCHEMA_V1
    else:
        rows.append("INSERT INTO awards VALUES (1, NULL, 'speedtombola', 'Anna', 95, 3)")
        schema = SCHEMA_V2
    answer = restore(device.box, old_store(schema, version, rows))
    assert answer.get("result", {}).get("restored") is True, answer
    store = device.store if isinstance(device, RunningBox) else Store.open(device.data)
    try:
        assert store._query("PRAGMA user_version") == [(SCHEMA_VERSION,)]
        assert store.bestenliste(GAME)[0].name == "Anna" and store.bestenliste(GAME)[0].points == 95
        assert store.setting("clock.seconds") == 20
        assert admin.is_hashed(store.setting("admin.pin"))  # migrated: hashed before it lands
        assert admin.verify_pin(PIN, store.setting("admin.pin"))
        assert store.record(1).replay().history() == record.actions
    finally:
        if isinstance(device, SafeBox):
            store.close()


def test_an_older_version_is_checked_against_its_own_schema(device: RunningBox | SafeBox) -> None:
    """A version 2 store with an extra object is refused before anything migrates it."""
    hostile = old_store(
        SCHEMA_V2, 2, ["CREATE TRIGGER t AFTER INSERT ON names BEGIN SELECT 1; END"]
    )
    before = files(device.data)
    error = restore(device.box, hostile)["error"]
    assert error["data"]["path"] == "schema" and "version 2" in error["data"]["message"]
    assert files(device.data) == before


def test_a_backup_in_another_text_encoding_is_refused() -> None:
    db = sqlite3.connect(":memory:")
    db.execute('PRAGMA encoding="UTF-16le"')
    db.executescript(SCHEMA_V2)
    db.execute("PRAGMA user_version=2")
    raw = db.serialize()
    db.close()
    with pytest.raises(BackupError) as refused:
        check_backup(raw)
    assert refused.value.path == "data" and "UTF-16le" in refused.value.message


def test_a_backup_of_other_page_size_is_refused_by_the_running_box(tmp_path: Path) -> None:
    """sqlite cannot copy pages of another size into the box's store (its journal is a
    WAL): the restore says so instead of failing half-way."""
    box = RunningBox(tmp_path / "box")
    try:
        db = sqlite3.connect(":memory:")
        db.execute("PRAGMA page_size=1024")
        db.execute("VACUUM")
        db.executescript(SCHEMA_V2)
        db.execute("PRAGMA user_version=2")
        raw = db.serialize()
        db.close()
        before = files(box.data)
        error = restore(box.box, raw)["error"]
        assert error["data"]["path"] == "data" and "1024-byte pages" in error["data"]["message"]
        assert files(box.data) == before
    finally:
        box.close()


def test_a_restore_refused_on_the_box_leaves_its_game_offer_and_link_as_they_were(
    tmp_path: Path, saved: tuple[bytes, int]
) -> None:
    raw, open_id = saved
    box = RunningBox(tmp_path / "box")
    try:
        shown = box.box.top.summary() if box.box.top else None
        restore(box.box, open_record(raw, open_id, "seats", "'[1]'"))
        box.box.step()
        assert box.box.top is not None and box.box.top.summary() == shown
        answer = Methods(box.box).call("settings.get", {})
        assert answer["settings"]["display.contrast"] == 200
    finally:
        box.close()
