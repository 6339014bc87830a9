"""Bad storage is a state, not a crash loop (DESIGN.md "Trust").

Each fault the SD card can bring — a truncated file, a garbled header, junk in the
middle, 0 bytes where data was, a read-only card (sqlite's mode=ro: the tests run as
root, so file modes would not stop them), a full card (a real SQLITE_FULL through
PRAGMA max_page_count), a missing or broken pins.toml, two boxes on one folder — gives
the safe-mode screen naming it, a link that answers with the fault, and loses nothing.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from spielleiter import cli
from spielleiter.admin import verify_pin
from spielleiter.games import catalog
from spielleiter.games.base import Seat
from spielleiter.hal.display import FrameSink
from spielleiter.hal.keys import Key, KeyEvent
from spielleiter.link import protocol
from spielleiter.link.methods import Methods
from spielleiter.records import Record
from spielleiter.safe_mode import SafeLink, SafeMode
from spielleiter.store import BACKUPS_KEPT, FILE_NAME, DataLock, Store, StoreFault

GAME = catalog.names()[0]


def filled(data: Path, records: int = 30) -> list[int]:
    """A store with finished records, a Bestenliste and a PIN; the record ids."""
    store = Store.open(data)
    ids = []
    for i in range(records):
        rid = store.start_record(Record(GAME, {}, [Seat(f"Spieler {i}")], [1, 2, 3] * 20))
        store.update_record(rid, finished=True)
        ids.append(rid)
    store.add_to_bestenliste(GAME, "Anna", 77)
    store.set_settings({"admin.pin": "2468"})
    store.close()
    return ids


_LINKS: dict[int, Methods] = {}


def call(device: Any, method: str, **params: Any) -> dict[str, Any]:
    """One request through the link's dispatch (one method table per device, as a server
    has), as the wire would carry it."""
    methods = _LINKS.get(id(device))
    if methods is None or methods.device is not device:
        methods = _LINKS[id(device)] = Methods(device)
    line = protocol.request_line(method, params, 1)
    return json.loads(protocol.answer(line.strip(), methods.call) or b"{}")


def safe_mode(data: Path, fault: StoreFault) -> SafeMode:
    return SafeMode(fault, data, FrameSink([]))


def fault_of(data: Path, **options: Any) -> StoreFault:
    with pytest.raises(StoreFault) as info:
        Store.open(data, **options)
    return info.value


# --- what each fault is called -----------------------------------------------------
def test_a_truncated_file_is_corrupt_and_the_link_still_answers(tmp_path: Path) -> None:
    data = tmp_path / "data"
    filled(data, 60)
    db = data / FILE_NAME
    _checkpoint(db)
    db.write_bytes(db.read_bytes()[: db.stat().st_size // 2])
    fault = fault_of(data)
    assert fault.kind in ("corrupt", "unopenable")
    safe = safe_mode(data, fault)
    hello = call(SafeLink(safe), "hello")["result"]
    assert hello["fault"]["kind"] == fault.kind and "backup restore" in hello["fault"]["panel"]
    refused = call(SafeLink(safe), "settings.set", changes={"display.contrast": 1})
    assert (
        refused["error"]["code"] == protocol.DEVICE_ERROR
        and "safe mode" in refused["error"]["message"]
    )


def test_a_garbled_header_is_named(tmp_path: Path) -> None:
    data = tmp_path / "data"
    filled(data)
    db = data / FILE_NAME
    _checkpoint(db)
    raw = bytearray(db.read_bytes())
    raw[0:16] = b"not a database!!"
    db.write_bytes(bytes(raw))
    assert fault_of(data).kind in ("corrupt", "unopenable")


def test_junk_in_the_middle_is_found_at_start_not_when_a_screen_reads_it(tmp_path: Path) -> None:
    data = tmp_path / "data"
    filled(data, 80)
    db = data / FILE_NAME
    _checkpoint(db)
    raw = bytearray(db.read_bytes())
    page = 4096
    middle = (len(raw) // page // 2) * page
    raw[middle : middle + page] = bytes(range(256)) * (page // 256)
    db.write_bytes(bytes(raw))
    assert fault_of(data).kind == "corrupt"


def test_an_empty_file_where_data_was_is_a_fault_never_a_fresh_box(tmp_path: Path) -> None:
    data = tmp_path / "data"
    filled(data)
    db = data / FILE_NAME
    _checkpoint(db)
    db.write_bytes(b"")
    assert fault_of(data).kind == "emptied"
    assert db.read_bytes() == b""  # nothing was created over it
    db.unlink()
    assert fault_of(data).kind == "emptied"


def test_a_new_folder_is_a_fresh_box(tmp_path: Path) -> None:
    Store.open(tmp_path / "new").close()
    Store.open(tmp_path / "new").close()


def test_a_read_only_card_is_named_and_its_records_can_still_be_read(tmp_path: Path) -> None:
    data = tmp_path / "data"
    ids = filled(data)
    _checkpoint(data / FILE_NAME)
    fault = fault_of(data, mode="ro")
    assert fault.kind == "readonly"
    safe = safe_mode(data, fault)
    link = SafeLink(safe)
    listed = call(link, "records.list")["result"]["records"]
    assert sorted(r["id"] for r in listed) == ids
    got = call(link, "records.get", id=ids[0])["result"]["record"]
    assert got["actions"] == [1, 2, 3] * 20
    # the store's own PIN guards the restore in safe mode
    assert call(link, "backup.get")["error"]["code"] == protocol.PIN_REQUIRED
    safe.close()


def test_the_data_folder_is_locked_and_a_second_box_names_the_holder(tmp_path: Path) -> None:
    first = DataLock(tmp_path)
    first.acquire()
    try:
        with pytest.raises(StoreFault) as info:
            DataLock(tmp_path).acquire()
        assert info.value.kind == "locked" and "pid" in info.value.detail
        safe = safe_mode(tmp_path, info.value)
        assert "Daten belegt" in call(SafeLink(safe), "hello")["result"]["fault"]["panel"]
    finally:
        first.release()
    DataLock(tmp_path).acquire()


def test_a_second_box_on_the_same_folder_shows_safe_mode(tmp_path: Path, capsys) -> None:
    lock = DataLock(tmp_path / "data")
    lock.acquire()
    try:
        keys = tmp_path / "keys.txt"
        keys.write_text("K1\n")
        frames = tmp_path / "frames"
        code = cli.main(
            ["--keys", str(keys), "--data", str(tmp_path / "data"), "--frames", str(frames)]
        )
        assert code == cli.EXIT_SAFE_MODE
        assert "locked" in capsys.readouterr().err
        assert list(frames.glob("*.png"))  # the panel showed the fault
    finally:
        lock.release()


@pytest.mark.parametrize("broken", ["missing", "garbled"])
def test_a_missing_or_broken_pin_map_is_safe_mode(
    tmp_path: Path, monkeypatch, capsys, broken
) -> None:
    def load(path: Path | None = None, text: str | None = None) -> Any:
        if text is None:
            if broken == "missing":
                raise FileNotFoundError("pins.toml")
            raise ValueError("Invalid value (at line 3)")
        return real(text=text)

    from spielleiter.hal import pins

    real = pins.load_pin_map
    monkeypatch.setattr(pins, "load_pin_map", load)
    keys = tmp_path / "keys.txt"
    keys.write_text("K1\n")
    code = cli.main(["--keys", str(keys), "--data", str(tmp_path / "data")])
    assert code == cli.EXIT_SAFE_MODE
    assert "pins.toml missing or broken" in capsys.readouterr().err


def test_the_safe_mode_panel_names_the_fault_in_german(tmp_path: Path) -> None:
    safe = safe_mode(tmp_path, StoreFault("corrupt", "database disk image is malformed"))
    safe.step()
    summary = safe.screen.summary()
    assert summary["title"] == "Speicher beschädigt" and "backup restore" in summary["text"]
    png, shown = SafeLink(safe).screen()
    assert png.startswith(b"\x89PNG") and shown["fault"] == "corrupt"


# --- backups ------------------------------------------------------------------------
def test_backups_rotate_and_a_schema_change_makes_one(tmp_path: Path) -> None:
    data = tmp_path / "data"
    store = Store.open(data)
    for _ in range(BACKUPS_KEPT + 2):
        store.backup("test")
    assert len(store.backups()) == BACKUPS_KEPT
    store._db.execute("PRAGMA user_version=1")
    store.close()
    before = set(Store.open(data).backups())
    store = Store.open(data)
    try:
        assert any("schema" in p.name for p in before)
        backup = sqlite3.connect(next(p for p in before if "schema" in p.name))
        assert backup.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        backup.close()
    finally:
        store.close()


def test_a_day_of_play_makes_a_backup(store: Store) -> None:
    store.start_record(Record(GAME, {}, [Seat("Anna")], []))
    assert [p.name for p in store.backups() if "daily" in p.name]
    store.start_record(Record(GAME, {}, [Seat("Anna")], []))
    assert len(store.backups()) == 1  # not again the same day


def test_backup_get_leaves_the_running_game_on_the_box(tmp_path: Path) -> None:
    from spielleiter.link.fake import FakeDevice

    data = tmp_path / "data"
    ids = filled(data, 3)
    store = Store.open(data)
    running = store.start_record(Record(GAME, {}, [Seat("Anna")], [4, 5]))
    device = FakeDevice(store)
    assert call(device, "backup.get")["error"]["code"] == protocol.PIN_REQUIRED
    got = call(device, "backup.get", pin="2468")["result"]
    raw = base64.b64decode(got["data"])
    assert hashlib.sha256(raw).hexdigest() == got["sha256"] and got["left_out"] == [running]
    copy = sqlite3.connect(":memory:")
    copy.deserialize(raw)
    assert sorted(r for (r,) in copy.execute("SELECT id FROM records")) == ids
    store.close()


def restore_parts(device: Any, raw: bytes, pin: str | None, part: int = 20000) -> dict[str, Any]:
    digest = hashlib.sha256(raw).hexdigest()
    answer: dict[str, Any] = {}
    for offset in range(0, len(raw), part):
        params = {
            "data": base64.b64encode(raw[offset : offset + part]).decode(),
            "offset": offset,
            "size": len(raw),
            "sha256": digest,
        }
        answer = call(device, "backup.restore", **params, **({"pin": pin} if pin else {}))
        if "error" in answer:
            return answer
    return answer


def test_safe_mode_restores_a_backup_with_the_pin_and_the_box_starts_on_it(tmp_path: Path) -> None:
    data = tmp_path / "data"
    ids = filled(data, 40)
    good = Store.open(data)
    raw = good.snapshot()
    good.backup("test")
    good.close()
    db = data / FILE_NAME
    db.write_bytes(b"")
    fault = fault_of(data)
    safe = safe_mode(data, fault)
    link = SafeLink(safe)
    # the PIN comes from the newest backup, since the store holds nothing
    assert restore_parts(link, raw, None)["error"]["code"] == protocol.PIN_REQUIRED
    assert restore_parts(link, raw, "1111")["error"]["code"] == protocol.WRONG_PIN
    assert db.read_bytes() == b""
    safe.pin_guard.now = lambda: 1e12  # the back-off is over
    bad = restore_parts(link, b"SQLite format 3\x00" + b"x" * 5000, "2468")
    assert bad["error"]["code"] == protocol.VALIDATION_ERROR
    restored = restore_parts(link, raw, "2468")
    assert restored.get("result", {}).get("restored") is True, restored
    assert safe.restored
    store = Store.open(data)
    assert [r.id for r in store.records()][::-1] == ids
    assert store.bestenliste(GAME)[0].points == 77 and verify_pin(
        "2468", store.setting("admin.pin")
    )
    store.close()


def test_at_the_box_a_long_k1_then_k4_opens_the_safe_mode_link(tmp_path: Path) -> None:
    data = tmp_path / "data"
    filled(data)
    Store.open(data).backup("test")
    safe = safe_mode(data, StoreFault("corrupt", "x"))
    assert safe.pin_set()
    safe.post(KeyEvent(Key.K1, long=True))
    safe.post(KeyEvent(Key.K4))
    assert not safe.pin_set()
    assert call(SafeLink(safe), "hello")["result"]["pin_set"] is False


# --- a full card in the middle of a match ---------------------------------------------
def test_a_full_card_mid_game_shows_speicher_voll_loses_nothing_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    import random

    from spielleiter.app import Box
    from spielleiter.hal.clock import VirtualClock
    from spielleiter.ui.menus import launch, main_menu

    store = Store.open(tmp_path / "data")
    entry = catalog.entry(GAME)
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(1))
    box.push(main_menu(box))
    params = {"players": 3} if entry.needs_seats else {}
    seats = [Seat("Anna")] + [Seat(f"C{i}", "computer", entry.levels[0]) for i in range(2)]
    if not entry.needs_seats:
        seats = [Seat("Tisch")]
    session = launch(box, GAME, params, seats)
    box.settle()
    rid = session.record_id
    done_before = store.record(rid).actions
    # a card that fills up: no page beyond what the file has, and the last ones full
    ballast = store.start_record(Record(GAME, {}, [Seat("Ballast")], []))
    store.update_record(ballast, abandoned=True)
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count={pages}")
    with pytest.raises(sqlite3.OperationalError, match="full"):
        for i in range(100000):
            store.append_action(ballast, i, 0)
    shown = box.top.summary()
    for _ in range(40):
        for key in (Key.K2, Key.K3):
            box.dispatch(KeyEvent(key))
            box.settle()
            if box.top.summary().get("title") == "Speicher voll":
                break
        else:
            continue
        break
    assert box.top.summary().get("title") == "Speicher voll", shown
    kept = store.record(rid).actions
    assert kept[: len(done_before)] == done_before  # nothing earlier is lost
    assert store.integrity_check() == "ok"
    # room again: Weiter, then the match resumes where it stood
    store._db.execute("PRAGMA max_page_count=1000000")
    store.delete_record(ballast)
    box.dispatch(KeyEvent(Key.K3))
    box.settle()
    assert "fortsetzen" in str(box.top.summary())
    box.dispatch(KeyEvent(Key.K1))  # Ja
    box.settle()
    assert box.session is not None and box.session.record_id == rid
    assert box.session.record.actions == store.record(rid).actions
    resumed_at = len(store.record(rid).actions)
    for _ in range(10):
        box.dispatch(KeyEvent(Key.K2))
        box.settle()
    assert len(store.record(rid).actions) > resumed_at  # the game goes on
    box.close()
    store.close()


def _checkpoint(db: Path) -> None:
    """Fold the WAL into the file, so that damage to the file is damage to the data."""
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()


def test_spielleiter_host_backup_get_and_restore(tmp_path: Path, capsys) -> None:
    from spielleiter.link.fake import FakeDevice
    from spielleiter.link.server import LinkServer
    from spielleiter_host.cli import main

    data = tmp_path / "data"
    ids = filled(data, 5)
    store = Store.open(data)
    saved = tmp_path / "box.sqlite3"
    with LinkServer.on_pty(FakeDevice(store)) as server:
        port = ["--port", server.port_name, "--timeout", "5"]
        assert main(["backup", "get", "-o", str(saved), "--pin", "2468", *port]) == 0
        for rid in ids[:3]:
            store.update_record(rid, finished=True)
            store.delete_record(rid)
        assert len(store.records()) == 2
        assert main(["backup", "restore", str(saved), *port]) == 1  # no PIN, no terminal
        assert "--pin" in capsys.readouterr().err
        assert main(["backup", "restore", str(saved), "--pin", "2468", *port]) == 0
    assert [r.id for r in store.records()][::-1] == ids
    assert any("restore" in p.name for p in store.backups())  # what it had is kept
    store.close()


def test_a_url_stored_by_an_older_box_is_never_opened_at_start(tmp_path: Path) -> None:
    from spielleiter.hal.pins import load_pin_map

    store = Store.open(tmp_path)
    store._db.execute(
        "INSERT OR REPLACE INTO settings VALUES ('serial.port', ?)",
        (json.dumps("spy://loop://?file=/var/lib/spielleiter/spielleiter.sqlite3"),),
    )
    assert cli._serial_port(store, load_pin_map()) == "/dev/ttyGS0"
    store.close()


def test_end_to_end_a_corrupt_box_is_brought_back_from_the_laptop(tmp_path: Path) -> None:
    """The real program in safe mode on a pty, and the real spielleiter-host."""
    import contextlib
    import io
    import re
    import subprocess
    import sys
    import time

    from spielleiter_host.cli import main as host

    data = tmp_path / "data"
    ids = filled(data, 10)
    saved = tmp_path / "saved.sqlite3"
    store = Store.open(data)
    saved.write_bytes(store.snapshot())
    store.close()
    _checkpoint(data / FILE_NAME)
    raw = bytearray((data / FILE_NAME).read_bytes())
    raw[0:16] = b"garbage garbage!"
    (data / FILE_NAME).write_bytes(bytes(raw))
    box = subprocess.Popen(
        [sys.executable, "-m", "spielleiter", "--emulate", "--serial", "pty", "--display",
         "none", "--data", str(data)],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert box.stdout is not None
        port = re.search(r"serial: (\S+)", box.stdout.readline())
        assert port, "the box printed no port"

        def run(*argv: str) -> tuple[int, str, str]:
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = host([*argv, "--port", port.group(1), "--timeout", "5"])
            return code, out.getvalue(), err.getvalue()

        code, out, _ = run("info", "--json")
        assert code == 0 and json.loads(out)["fault"]["kind"] in ("corrupt", "unopenable")
        code, _, err = run("settings", "get", "--lang", "en")
        assert code == 1 and "safe mode" in err
        code, _, err = run("settings", "get", "--lang", "de")  # the box's text, in German
        assert code == 1 and "Notbetrieb (" in err and "die Box beantwortet nur" in err
        assert run("backup", "restore", str(saved), "--pin", "2468")[0] == 0
        # the box leaves safe mode and starts on the restored store, on a new pty
        line = box.stdout.readline()
        while "serial:" not in line and line:
            line = box.stdout.readline()
        port = re.search(r"serial: (\S+)", line)
        assert port, "the box did not start again"
        deadline = time.monotonic() + 20
        while True:
            code, out, _ = run("records", "list", "--json")
            if code == 0 or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert sorted(r["id"] for r in json.loads(out)["records"]) == ids
        assert json.loads(run("info", "--json")[1])["fault"] is None
    finally:
        box.terminate()
        box.wait(10)
    assert list(data.glob(f"{FILE_NAME}.broken-*"))  # the faulty file was kept aside


def test_a_box_whose_store_is_gone_hands_out_its_kept_backups(tmp_path: Path) -> None:
    """A laptop without a saved file still gets the box's own backups in safe mode,
    without the record of a game that was running when the backup was made."""
    data = tmp_path / "data"
    ids = filled(data, 4)
    store = Store.open(data)
    running = store.start_record(Record(GAME, {}, [Seat("Anna")], [7, 7]))  # a daily backup
    store.backup("test")  # the newest one holds the running game
    store.close()
    (data / FILE_NAME).write_bytes(b"")
    safe = safe_mode(data, fault_of(data))
    link = SafeLink(safe)
    assert call(link, "backup.get", kept=0)["error"]["code"] == protocol.PIN_REQUIRED
    assert call(link, "backup.get", kept=9, pin="2468")["error"]["code"] == protocol.NOT_FOUND
    got = call(link, "backup.get", kept=0, pin="2468")["result"]
    assert got["left_out"] == [running] and "test" in got["name"]
    raw = base64.b64decode(got["data"])
    assert restore_parts(link, raw, "2468")["result"]["restored"] is True
    store = Store.open(data)
    assert [r.id for r in store.records()][::-1] == ids
    store.close()


def test_the_install_pages_trouble_table_names_each_safe_mode_card_as_the_panel_does() -> None:
    from spielleiter.safe_mode import FAULT_TEXT

    page = (Path(__file__).resolve().parent.parent / "docs" / "install-pi.md").read_text()
    row = next(line for line in page.splitlines() if line.startswith("| the panel shows "))
    named = re.findall(r'"([^"]+)"', row.split("|")[1])
    assert sorted(named) == sorted(title for title, _ in FAULT_TEXT.values())
