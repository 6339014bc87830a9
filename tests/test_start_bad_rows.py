"""A stored row that cannot be read is reported, never a crash at start (DESIGN.md "Trust").

Each bad row is written into the live store with sqlite3 directly, as damage inside a
page would leave it (``PRAGMA quick_check`` does not look at values). The box starts
anyway: an unreadable setting counts as its default and the panel says so; an open game
whose record cannot be read or replayed is reported in German, kept but no longer
offered; and the rest of the box works: a new game starts, the link answers.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import load_frame, run_box, same_pixels
from spielleiter import admin, settings
from spielleiter.app import Box
from spielleiter.games.base import Seat
from spielleiter.hal.clock import VirtualClock
from spielleiter.hal.display import FrameSink
from spielleiter.hal.keys import Key, KeyEvent
from spielleiter.link import protocol
from spielleiter.link.fake import FakeDevice
from spielleiter.link.methods import Methods
from spielleiter.records import Record, RecordError
from spielleiter.session import Session
from spielleiter.store import FILE_NAME, Store
from spielleiter.ui.menus import launch
from spielleiter.ui.screen import render
from spielleiter.ui.widgets import Message
from spielleiter_host import i18n
from spielleiter_host.info import notes

GAME = "speedtombola"
SEATS = [
    Seat("Anna"),
    Seat("Leicht 1", "computer", "leicht"),
    Seat("Leicht 2", "computer", "leicht"),
]

# From the main menu: Speedtombola with a new name "A" and two Leicht computers.
NEW_GAME = """
K3      # Speedtombola
K3      # 3 Plätze
K3      # Neuer Name ...
K3      # take the letter A
K4      # Fertig
K2
K3      # Computer Leicht
K2
K3      # Computer Leicht
K2
K2
K3      # Start
"""


def open_game(data: Path) -> int:
    """A store holding an open Speedtombola game of a few actions; its record id."""
    store = Store.open(data)
    try:
        session = Session.start(store, GAME, {"players": 3}, SEATS)
        session.play_chance()
        return session.record_id
    finally:
        store.close()


def damage(data: Path, *sql: str) -> None:
    """Write rows straight into the live store file, as damage would."""
    db = sqlite3.connect(data / FILE_NAME)
    try:
        for statement in sql:
            db.execute(statement)
        db.commit()
    finally:
        db.close()


def stored_row(data: Path, record_id: int) -> tuple[Any, ...]:
    db = sqlite3.connect(data / FILE_NAME)
    try:
        return tuple(db.execute("SELECT * FROM records WHERE id=?", (record_id,)).fetchone())
    finally:
        db.close()


def box_on(data: Path) -> Box:
    """The box as `spielleiter` starts it (Box.show_start), in this process."""
    store = Store.open(data)
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(1))
    box.reload_settings()
    box.show_start()
    box.step()
    return box


def ask(box: Box, method: str, **params: Any) -> dict[str, Any]:
    line = protocol.request_line(method, params, 1)
    return json.loads(protocol.answer(line.strip(), Methods(box).call) or b"{}")


def said_on_the_laptop(hello: dict[str, Any]) -> tuple[list[str], list[str]]:
    """`hello`'s notes as `spielleiter-host info` says them in German and in English."""
    try:
        i18n.use("de")
        german = notes(hello)
        i18n.use("en")
        return german, notes(hello)
    finally:
        i18n.use(None)


def frames_show(frame: Path, title: str, text: str) -> bool:
    """Whether a frame is exactly the panel's message `title`/`text`."""
    return same_pixels(load_frame(frame), render(Message(title, text)).image)


def started_a_game(frames: list[Path]) -> bool:
    notes = (frames[0].parent / "frames.tsv").read_text().splitlines()
    return any(line.split("\t")[1] != "-" for line in notes)


# --- settings -------------------------------------------------------------------------
BAD_SETTINGS = {
    "not JSON": ("display.contrast", "abc"),
    "1e999": ("bot.playouts", "1e999"),
    "the wrong type": ("clock.enabled", '"ja"'),
    "out of range": ("undo.ms", "-5"),
    "a calibration of junk": ("spinner.calibration", '{"zero_deg": "Norden"}'),
}


@pytest.mark.parametrize("case", list(BAD_SETTINGS))
def test_an_unreadable_setting_starts_the_box_at_its_default_and_says_so(
    case: str, tmp_path: Path
) -> None:
    key, text = BAD_SETTINGS[case]
    data = tmp_path / "data"
    Store.open(data).close()
    damage(data, f"INSERT OR REPLACE INTO settings VALUES ('{key}', '{text}')")
    frames = run_box(tmp_path, "K3\n" + NEW_GAME)  # OK, then a new game
    notice = f"Es gilt der Standard für {key}. Neu setzen: Einstellungen oder Laptop."
    assert frames_show(frames[0], "Einstellung unlesbar", notice)
    assert started_a_game(frames)
    box = box_on(data)
    try:
        assert box.settings()[key] == settings.SETTINGS[key].default
        hello = ask(box, "hello")["result"]
        assert hello["notes"] == [f"Einstellungen nicht lesbar, es gilt der Standard: {key}."]
        assert said_on_the_laptop(hello) == (
            hello["notes"],
            [f"Settings that cannot be read count at their default: {key}."],
        )
        got = ask(box, "settings.get")["result"]["settings"]
        assert got[key] == settings.SETTINGS[key].default
        # setting it again replaces the row: the next start says nothing
        assert "result" in ask(box, "settings.set", changes={key: settings.SETTINGS[key].default})
    finally:
        box.close()
        box.store.close()
    box = box_on(data)
    try:
        assert box.notes == []
        assert [s.summary()["screen"] for s in box.stack] == ["menu", "confirm"]  # A's game
    finally:
        box.close()
        box.store.close()


def test_several_unreadable_settings_are_named_on_one_panel(tmp_path: Path) -> None:
    data = tmp_path / "data"
    Store.open(data).close()
    damage(
        data,
        "INSERT INTO settings VALUES ('display.contrast', 'abc')",
        "INSERT INTO settings VALUES ('clock.seconds', '1e999')",
        "INSERT INTO settings VALUES ('undo.ms', 'null')",
    )
    box = box_on(data)
    try:
        assert box.top is not None
        text = box.top.summary()["text"]
        assert text.startswith("Es gilt der Standard für display.contrast, clock.seconds und 1")
        box.dispatch(KeyEvent(Key.K3))
        assert box.top.summary()["screen"] == "menu"
        assert int(box.settings()["display.contrast"]) == 200
    finally:
        box.close()
        box.store.close()


def test_an_unreadable_admin_pin_keeps_the_link_shut_until_it_is_reset_at_the_box(
    tmp_path: Path,
) -> None:
    """Damage never opens the link: the PIN counts as set, and no PIN opens it."""
    data = tmp_path / "data"
    store = Store.open(data)
    store.set_settings({"admin.pin": "2468"})
    store.close()
    damage(data, "UPDATE settings SET value='\"scrypt$kaputt\"' WHERE key='admin.pin'")
    box = box_on(data)
    try:
        assert box.top is not None and box.top.summary()["title"] == "Admin-PIN unlesbar"
        hello = ask(box, "hello")["result"]
        assert hello["pin_set"] is True
        assert said_on_the_laptop(hello) == (
            [box.top.summary()["text"]],
            ["The stored PIN cannot be read: the link stays locked. At the box, Einstellungen,"
             " Admin-PIN: set it again or delete it."],
        )  # fmt: skip
        for pin in ("2468", "", "0000"):
            refused = ask(box, "names.add", names=["Mia"], pin=pin)
            assert refused["error"]["code"] in (protocol.WRONG_PIN, protocol.PIN_LOCKED)
            box.store.set_value(admin.GUARD_KEY, None)  # no back-off between the tries
        assert box.store.names() == []
        box.store.set_settings({"admin.pin": ""})  # Einstellungen, Admin-PIN: PIN löschen
        admin.reset(box.store)
        assert "result" in ask(box, "names.add", names=["Mia"])
    finally:
        box.close()
        box.store.close()


def test_an_unreadable_guard_value_does_not_break_the_pin_calls(tmp_path: Path) -> None:
    data = tmp_path / "data"
    store = Store.open(data)
    store.set_settings({"admin.pin": "2468"})
    store.close()
    damage(data, f"INSERT OR REPLACE INTO scores VALUES ('{admin.GUARD_KEY}', '{{kaputt')")
    box = box_on(data)
    try:
        assert "result" in ask(box, "names.add", names=["Mia"], pin="2468")
        assert ask(box, "names.add", names=["Ole"], pin="1111")["error"]["code"] == (
            protocol.WRONG_PIN
        )
        assert box.store.get_value(admin.GUARD_KEY)["failures"] == 1  # counted again
    finally:
        box.close()
        box.store.close()


# --- the open game --------------------------------------------------------------------
BAD_RECORDS = {
    "seats that are not seats": ("seats", "'[1, 2, 3]'", "Plätze nicht lesbar"),
    "seats that are not JSON": ("seats", "'[{name'", "Plätze nicht lesbar"),
    "meta that is not JSON": ("meta", "'{seed'", "Zusatzdaten nicht lesbar"),
    "meta that is a list": ("meta", "'[1]'", "Zusatzdaten nicht lesbar"),
    "params that are not JSON": ("params", "'players=3'", "Parameter nicht lesbar"),
}


@pytest.mark.parametrize("case", list(BAD_RECORDS))
def test_an_open_game_that_cannot_be_read_is_reported_kept_and_no_longer_offered(
    case: str, tmp_path: Path
) -> None:
    column, value, reason = BAD_RECORDS[case]
    data = tmp_path / "data"
    rid = open_game(data)
    damage(data, f"UPDATE records SET {column}={value} WHERE id={rid}")
    row = stored_row(data, rid)
    frames = run_box(tmp_path, "K3\n" + NEW_GAME)
    text = f"Die offene Partie kann nicht gelesen werden: {reason}."
    assert frames_show(frames[0], "Partie nicht lesbar", text)
    assert started_a_game(frames)
    after = stored_row(data, rid)
    assert after[:-1] == row[:-1] and after[-1] == 1  # the same data, set aside (abandoned)
    box = box_on(data)
    try:
        assert box.store.unfinished_record() not in (None, rid)  # A's new game, not this one
        assert "result" in ask(box, "settings.get")
    finally:
        box.close()
        box.store.close()


def test_an_open_game_that_does_not_replay_is_reported_with_the_record_id(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    data = tmp_path / "data"
    rid = open_game(data)
    damage(data, f"UPDATE actions SET action=99 WHERE record_id={rid} AND idx=0")
    store = Store.open(data)
    with pytest.raises(RecordError) as refused:
        store.record(rid).replay()
    store.close()
    box = box_on(data)
    try:
        assert box.top is not None
        shown = box.top.summary()
        assert shown["title"] == "Partie nicht lesbar"
        reason = refused.value.reason  # the players' words, without "record of …"
        assert "record of" not in reason and "record of" in str(refused.value)
        assert shown["text"] == f"Die offene Partie kann nicht gelesen werden: {reason}."
        assert f"open record {rid} cannot be resumed" in caplog.text
        hello = ask(box, "hello")["result"]
        assert hello["notes"] == [
            f"{shown['text']} Partie {rid} bleibt gespeichert und wird nicht fortgesetzt."
        ]
        # its reason is the rules' German: no English for it, the laptop says it as it came
        assert hello["notes_text"] == [None]
        assert said_on_the_laptop(hello) == (hello["notes"], hello["notes"])
        box.dispatch(KeyEvent(Key.K3))  # OK: the main menu, and a new game starts
        launch(box, GAME, {"players": 3}, SEATS)
        box.settle()
        assert box.session is not None and box.session.record_id != rid
        assert box.store.record(box.session.record_id).actions  # it plays
    finally:
        box.close()
        box.store.close()


def test_an_open_game_of_a_game_the_box_does_not_have_is_set_aside(tmp_path: Path) -> None:
    data = tmp_path / "data"
    rid = open_game(data)
    damage(data, f"UPDATE records SET game='schach' WHERE id={rid}")
    box = box_on(data)
    try:
        assert box.top is not None
        assert box.top.summary()["text"].endswith("diese Box kennt ihr Spiel nicht.")
        assert not box.store.running(rid) and box.store.record(rid).game == "schach"
        hello = ask(box, "hello")["result"]
        assert said_on_the_laptop(hello) == (
            [f"Die offene Partie kann nicht gelesen werden: diese Box kennt ihr Spiel nicht."
             f" Partie {rid} bleibt gespeichert und wird nicht fortgesetzt."],
            [f"The open game cannot be read: this box does not know its game. Record {rid}"
             " stays stored and is not resumed."],
        )  # fmt: skip
    finally:
        box.close()
        box.store.close()


def test_the_reason_session_resume_gives_is_what_the_panel_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One place decides: any RecordError from Session.resume (a record whose chance
    another box sealed, say) is shown in its own words and the game is set aside."""
    data = tmp_path / "data"
    rid = open_game(data)
    why = f"Partie {rid} kann hier nicht weitergehen: ihr Zufall ist anderswo versiegelt"

    def refuse(store: Store, record_id: int) -> Session:
        raise RecordError(why)

    monkeypatch.setattr(Session, "resume", refuse)
    box = box_on(data)
    try:
        assert box.top is not None
        assert box.top.summary()["text"] == f"Die offene Partie kann nicht gelesen werden: {why}."
        assert not box.store.running(rid)
    finally:
        box.close()
        box.store.close()


def test_after_an_error_the_unreadable_game_is_not_offered_again(tmp_path: Path) -> None:
    """The box's own recovery (Weiter after "Fehler") goes through the same place."""
    data = tmp_path / "data"
    rid = open_game(data)
    damage(data, f"UPDATE records SET meta='{{' WHERE id={rid}")
    box = box_on(data)
    try:
        box.dispatch(KeyEvent(Key.K3))
        box.fail()  # an error somewhere: "Fehler", then Weiter back to the menu
        box.dispatch(KeyEvent(Key.K3))
        assert box.top is not None and box.top.summary()["screen"] == "menu"
    finally:
        box.close()
        box.store.close()


def test_a_readable_open_game_is_still_offered_and_resumes(tmp_path: Path) -> None:
    data = tmp_path / "data"
    rid = open_game(data)
    damage(data, "INSERT INTO settings VALUES ('display.contrast', 'abc')")
    box = box_on(data)
    try:
        assert box.top is not None and box.top.summary()["title"] == "Einstellung unlesbar"
        box.dispatch(KeyEvent(Key.K3))
        assert box.top.summary()["question"].startswith("Partie fortsetzen?")
        box.dispatch(KeyEvent(Key.K1))
        box.settle()
        assert box.session is not None and box.session.record_id == rid
    finally:
        box.close()
        box.store.close()


def test_the_real_program_starts_on_bad_rows_without_a_traceback(tmp_path: Path) -> None:
    """`python -m spielleiter` itself, as systemd starts it: it runs its script and exits 0."""
    data = tmp_path / "data"
    rid = open_game(data)
    damage(
        data,
        f"UPDATE records SET seats='\"Anna\"' WHERE id={rid}",
        "INSERT INTO settings VALUES ('display.contrast', '1e999')",
    )
    keys = tmp_path / "keys.txt"
    keys.write_text("K3\nK3\n" + NEW_GAME, encoding="utf-8")
    frames = tmp_path / "frames"
    done = subprocess.run(
        [sys.executable, "-m", "spielleiter", "--keys", str(keys), "--data", str(data),
         "--frames", str(frames), "--seed", "1"],
        capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert f"open record {rid} cannot be resumed" in done.stderr
    assert "settings[display.contrast]" in done.stderr
    shown = sorted(frames.glob("frame-*.png"))
    notice = "Es gilt der Standard für display.contrast. Neu setzen: Einstellungen oder Laptop."
    assert frames_show(shown[0], "Einstellung unlesbar", notice)
    assert started_a_game(shown)
    store = Store.open(data)
    try:
        assert not store.running(rid) and store.unfinished_record() != rid
    finally:
        store.close()


def test_records_with_unreadable_seats_still_list(tmp_path: Path) -> None:
    data = tmp_path / "data"
    store = Store.open(data)
    done = store.start_record(Record(GAME, {"players": 3}, SEATS, []))
    store.update_record(done, finished=True)
    store.close()
    damage(data, f"UPDATE records SET seats='kaputt' WHERE id={done}")
    box = box_on(data)
    try:
        listed = ask(box, "records.list")["result"]["records"]
        assert [(r["id"], r["seats"]) for r in listed] == [(done, [])]
        assert f"records[{done}].seats" in box.store.unreadable
    finally:
        box.close()
        box.store.close()


def test_records_get_of_a_record_that_cannot_be_read_is_a_clear_error(tmp_path: Path) -> None:
    data = tmp_path / "data"
    rid = open_game(data)
    damage(data, f"UPDATE records SET seats='[1, 2]' WHERE id={rid}")
    store = Store.open(data)
    try:
        answer = json.loads(
            protocol.answer(
                protocol.request_line("records.get", {"id": rid}, 1).strip(),
                Methods(FakeDevice(store)).call,
            )
            or b"{}"
        )
    finally:
        store.close()
    assert answer["error"]["code"] == protocol.DEVICE_ERROR, answer
    assert answer["error"]["message"].startswith(f"record {rid} cannot be read: ")


def test_a_restored_game_sealed_by_another_box_is_noted_in_both_languages_until_the_next_restore(
    tmp_path: Path,
) -> None:
    """A backup of another box whose game was still open: the panel and `hello` say why it
    cannot go on, the laptop in its language; the next restore's data has its own notes."""
    from spielleiter import draws

    other = tmp_path / "other"
    rid = open_game(other)
    store = Store.open(other)
    sealed, empty = store.snapshot(), Store.open(tmp_path / "empty").snapshot()
    store.close()
    draws._keys.clear()  # this box has a key of its own
    box = box_on(tmp_path / "here")
    try:
        box.restore_backup(sealed)
        box.settle()
        hello = ask(box, "hello")["result"]
        german, english = said_on_the_laptop(hello)
        assert german == [
            "Die offene Partie kann nicht gelesen werden: ihr Zufall ist von einer anderen Box"
            f" versiegelt. Partie {rid} bleibt gespeichert und wird nicht fortgesetzt."
        ]
        assert english == [
            "The open game cannot be read: its chance was sealed by another box. Record"
            f" {rid} stays stored and is not resumed."
        ]
        box.restore_backup(empty)
        box.settle()
        assert ask(box, "hello")["result"]["notes"] == []
    finally:
        box.close()
        box.store.close()
