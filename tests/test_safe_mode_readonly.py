"""Safe mode on a card that went read-only: the store (in WAL mode) is still read, so
its PIN guards the link; and where no PIN can be read at all for a box that held data,
the link stays shut rather than open (DESIGN.md "Trust": the link lets no one in)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from spielleiter import admin, settings
from spielleiter.hal.display import FrameSink
from spielleiter.link import protocol
from spielleiter.link.methods import Methods
from spielleiter.safe_mode import SafeLink, SafeMode
from spielleiter.store import BACKUP_DIR, FILE_NAME, Store, StoreFault, newest_pin
from test_pin_backoff import PIN, WRONG, Clock, kept_backup


@pytest.fixture
def read_only(tmp_path: Path) -> Iterator[Path]:
    """A data folder with a PIN, as a read-only bind mount (needs root; else skipped)."""
    data, view = tmp_path / "data", tmp_path / "ro"
    store = Store.open(data)
    store.set_settings({"admin.pin": PIN})
    store.backup("test")
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    store.close()
    view.mkdir()
    if os.geteuid() != 0:
        pytest.skip("a read-only bind mount needs root")
    try:
        subprocess.run(["mount", "--bind", str(data), str(view)], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"cannot bind-mount here: {exc}")
    try:
        subprocess.run(
            ["mount", "-o", "remount,ro,bind", str(view)], check=True, capture_output=True
        )
        yield view
    finally:
        # lazily: a store a failed test left open must not keep the mount (nor its tmp)
        subprocess.run(["umount", "-l", str(view)], check=False, capture_output=True)


def test_a_wal_store_on_a_read_only_card_is_read_as_it_lies(read_only: Path) -> None:
    with pytest.raises(OSError):
        (read_only / "x").write_text("")
    store = Store.open(read_only, reader=True)
    assert admin.verify_pin(PIN, store.setting("admin.pin"))
    store.close()


def test_safe_mode_on_a_read_only_card_keeps_the_pin(read_only: Path) -> None:
    clock = Clock()
    safe = SafeMode(StoreFault("readonly", "test"), read_only, FrameSink([]), now=clock)
    link = Methods(SafeLink(safe))
    assert safe.store is not None and safe.pin_set()  # read from the store itself
    clock.t += 61  # the minute the uncountable guesses are held
    assert kept_backup(link, WRONG)["error"]["code"] == protocol.WRONG_PIN
    clock.t += 1  # its back-off
    assert "result" in kept_backup(link, PIN)
    safe.close()


def test_no_readable_pin_for_a_box_that_held_data_keeps_the_link_shut(tmp_path: Path) -> None:
    data = tmp_path / "data"
    store = Store.open(data)
    store.set_settings({"admin.pin": PIN})
    store.close()
    (data / FILE_NAME).write_bytes(b"\0" * 4096)  # the store is gone to damage, no backup
    assert not (data / BACKUP_DIR).exists() or not list((data / BACKUP_DIR).iterdir())
    assert newest_pin(data) == settings.UNREADABLE_PIN
    clock = Clock()
    safe = SafeMode(StoreFault("corrupt", "test"), data, FrameSink([]), now=clock)
    link = Methods(SafeLink(safe))
    assert safe.pin_set()
    for pin in (PIN, WRONG, ""):
        assert "error" in kept_backup(link, pin)
    safe.close()


def test_a_box_that_never_held_data_is_open_as_before(tmp_path: Path) -> None:
    assert newest_pin(tmp_path) == ""


def test_a_backup_whose_pin_is_not_json_is_skipped_for_the_next(tmp_path: Path) -> None:
    import sqlite3

    data = tmp_path / "data"
    store = Store.open(data)
    store.set_settings({"admin.pin": PIN})
    older = store.backup("older")
    store.close()
    newer = older.with_name(older.name.replace("spielleiter-", "spielleiter-9"))
    newer.write_bytes(older.read_bytes())
    db = sqlite3.connect(newer)
    db.execute("UPDATE settings SET value='{kaputt' WHERE key='admin.pin'")
    db.commit()
    db.close()
    assert admin.verify_pin(PIN, newest_pin(data))
