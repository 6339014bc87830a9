"""The link lets no one in (DESIGN.md "Trust"): the PIN on every changing call, checked
after the parameters and what they name; a slow salted hash; back-off and lockout
refused at once; device paths only; capped uploads; finite numbers in range."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from spielleiter import admin, settings
from spielleiter.games import catalog
from spielleiter.games.base import Seat
from spielleiter.link import protocol
from spielleiter.link.fake import FakeDevice
from spielleiter.link.methods import GUARDED, Methods, method_names
from spielleiter.link.server import LinkServer
from spielleiter.records import Record
from spielleiter.store import BOARD_BYTES_MAX, Store
from spielleiter_host.device import Device, RemoteError, UsageError

pytestmark = pytest.mark.usefixtures("english")  # the host's English; German: test_host_i18n

PIN = "4711"
WRONG = "1234"
DOCS = Path(__file__).resolve().parent.parent / "docs"


class Clock:
    """The PIN guard's wall clock, moved by hand."""

    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def device(store: Store, clock: Clock) -> FakeDevice:
    fake = FakeDevice(store)
    fake.pin_guard = admin.PinGuard(store, clock)
    store.set_settings({"admin.pin": PIN})
    return fake


@pytest.fixture
def link(device: FakeDevice) -> Methods:
    return Methods(device)


def ask(link: Methods, method: str, **params: Any) -> dict[str, Any]:
    """One request line through the server's dispatch; the answer object."""
    line = protocol.request_line(method, params, 7)
    return json.loads(protocol.answer(line.strip(), link.call) or b"{}")


def code(answer: dict[str, Any]) -> int | None:
    return answer["error"]["code"] if "error" in answer else None


def finished_record(store: Store) -> int:
    game = catalog.names()[0]
    rid = store.start_record(Record(game, {}, [Seat("Anna")], [1, 2]))
    store.update_record(rid, finished=True)
    return rid


def valid_calls(store: Store) -> dict[str, dict[str, Any]]:
    """A call of each guarded method that succeeds with the PIN."""
    game = catalog.names()[0]
    rid = finished_record(store)
    store.remember_names(["Ulla", "Vera"])
    raw = store.snapshot()
    import base64
    import hashlib

    return {
        "settings.set": {"changes": {"display.contrast": 17}},
        "names.add": {"names": ["Zoë"]},
        "names.delete": {"name": "Ulla"},
        "names.rename": {"old": "Vera", "new": "Wanda"},
        "bestenliste.reset": {"game": game},
        "records.delete": {"id": rid},
        "spinner.calibrate": {"offset": 2},
        "backup.get": {},
        "backup.restore": {
            "data": base64.b64encode(raw[:30000]).decode(),
            "offset": 0,
            "size": len(raw),
            "sha256": hashlib.sha256(raw).hexdigest(),
        },
    }


def state(store: Store, device: FakeDevice) -> Any:
    return (
        store.settings(),
        [r.id for r in store.records()],
        store.names(),
        [store.bestenliste(g) for g in catalog.names()],
        len(device.calibrations),
    )


# --- the PIN on every changing call ------------------------------------------------
def test_every_changing_method_is_guarded_and_the_docs_list_them() -> None:
    changing = {
        "settings.set", "boards.put", "boards.delete", "bestenliste.reset", "records.delete",
        "names.add", "names.delete", "names.rename", "spinner.calibrate", "backup.get",
        "backup.restore",
    }  # fmt: skip
    assert GUARDED == changing and GUARDED <= set(method_names())
    page = (DOCS / "protocol.md").read_text("utf-8")
    section = page.split("## The admin PIN", 1)[1].split("\n## ", 1)[0]
    assert set(re.findall(r"`([a-z]+\.[a-z]+)`", section)) >= GUARDED


def test_without_the_pin_or_with_a_wrong_one_nothing_changes(store, device, link, clock):
    calls = valid_calls(store)
    before = state(store, device)
    for name, params in calls.items():
        assert code(ask(link, name, **params)) == protocol.PIN_REQUIRED, name
        clock.t += 3600
        assert code(ask(link, name, **params, pin=WRONG)) == protocol.WRONG_PIN, name
        clock.t += 3600
    assert state(store, device) == before
    for name, params in calls.items():
        assert "result" in ask(link, name, **params, pin=PIN), name
    assert state(store, device) != before


@pytest.fixture
def kind() -> Iterator[str]:
    """A board kind that takes any object."""
    from spielleiter import boards
    from spielleiter.boards import BoardKind

    def validate(data: Any) -> None:
        if not isinstance(data, dict):
            raise boards.BoardError("", "a board is an object")

    boards.register(BoardKind("trust", validate, lambda: {"Standard": {}}))
    yield "trust"
    boards.unregister("trust")


def test_boards_put_and_delete_are_guarded(store, link, clock, kind):
    put = {"game": kind, "boards": {"Eigen": {"rows": [9, 8, 7]}}}
    assert code(ask(link, "boards.put", **put)) == protocol.PIN_REQUIRED
    assert code(ask(link, "boards.put", **put, pin=WRONG)) == protocol.WRONG_PIN
    clock.t += 10
    assert store.uploaded_boards(kind) == []
    assert "result" in ask(link, "boards.put", **put, pin=PIN)
    gone = {"game": kind, "name": "Eigen"}
    assert code(ask(link, "boards.delete", **gone)) == protocol.PIN_REQUIRED
    assert "result" in ask(link, "boards.delete", **gone, pin=PIN)
    assert store.uploaded_boards(kind) == []


def test_no_answer_but_success_tells_a_right_pin_from_a_wrong_one(store, link, clock):
    """Parameters and existence are checked first: a right and a wrong PIN meet the same
    refusal on a missing record, a bad parameter or a running game."""
    game = catalog.names()[0]
    running = store.start_record(Record(game, {}, [Seat("Anna")], [1]))
    cases = [
        ("records.delete", {"id": 999999}),
        ("records.delete", {"id": running}),
        ("records.delete", {"id": 2**63}),
        ("settings.set", {"changes": {"display.contrast": 1e300}}),
        ("settings.set", {"changes": {"serial.port": "spy://loop://"}}),
        ("names.add", {"names": ["a\nb"]}),
        ("names.add", {"names": ["x"] * 33}),
        ("bestenliste.reset", {"game": "kein"}),
        ("spinner.calibrate", {"offset": "links"}),
        ("backup.restore", {"data": "!", "offset": 0, "size": 10, "sha256": "0" * 64}),
    ]
    for name, params in cases:
        answers = []
        for pin in (WRONG, PIN):
            clock.t += 3600
            answers.append(ask(link, name, **params, pin=pin)["error"])
        assert answers[0] == answers[1], name
    assert admin.PinGuard(store, clock).state()[0] == 0  # no PIN was even tried


# --- the hash ------------------------------------------------------------------
def test_the_pin_is_stored_only_as_a_salted_scrypt_hash(store: Store) -> None:
    store.set_settings({"admin.pin": PIN})
    stored = store.setting("admin.pin")
    assert stored.startswith("scrypt$") and PIN not in stored
    store.set_settings({"admin.pin": PIN})
    assert store.setting("admin.pin") != stored  # a new salt each time
    assert admin.verify_pin(PIN, store.setting("admin.pin"))
    assert not admin.verify_pin(WRONG, store.setting("admin.pin"))
    raw = (store.path).read_bytes() + store.path.with_name(store.path.name + "-wal").read_bytes()
    assert b'"4711"' not in raw


def test_a_plain_pin_of_an_older_box_is_hashed_when_the_store_opens(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    store._db.execute("INSERT OR REPLACE INTO settings VALUES ('admin.pin', '\"0815\"')")
    store.close()
    store = Store.open(tmp_path)
    assert admin.is_hashed(store.setting("admin.pin"))
    assert admin.verify_pin("0815", store.setting("admin.pin"))
    store.close()


# --- back-off and lockout ---------------------------------------------------------
def test_wrong_pins_back_off_doubling_and_lock_after_ten(store, link, clock, monkeypatch):
    def no_sleeping(seconds: float) -> None:
        raise AssertionError("the link thread must never sleep")

    monkeypatch.setattr("time.sleep", no_sleeping)
    params = {"game": catalog.names()[0]}
    waits = []
    for _ in range(admin.LOCK_AFTER):
        wrong = ask(link, "bestenliste.reset", **params, pin=WRONG)
        assert code(wrong) == protocol.WRONG_PIN
        waits.append(wrong["error"]["data"]["retry_after_s"])
        # during the back-off even the right PIN is refused at once
        refused = ask(link, "bestenliste.reset", **params, pin=PIN)
        assert code(refused) == protocol.PIN_LOCKED
        assert "wait" in refused["error"]["message"]
        clock.t += waits[-1]
    assert waits[:7] == [1, 2, 4, 8, 16, 32, 60] and waits[-1] == admin.LOCK_S
    assert waits == sorted(waits)
    clock.t -= 1
    locked = ask(link, "bestenliste.reset", **params, pin=PIN)
    assert code(locked) == protocol.PIN_LOCKED and locked["error"]["data"]["retry_after_s"] == 1
    clock.t += 1
    assert "result" in ask(link, "bestenliste.reset", **params, pin=PIN)
    assert admin.PinGuard(store, clock).state()[0] == 0  # a right PIN clears the count


def test_the_lockout_survives_a_restart(tmp_path: Path, clock: Clock) -> None:
    store = Store.open(tmp_path)
    store.set_settings({"admin.pin": PIN})
    guard = admin.PinGuard(store, clock)
    for _ in range(admin.LOCK_AFTER):
        with pytest.raises(admin.PinRefused):
            guard.check(WRONG)
        clock.t += admin.backoff_s(guard.state()[0])
    clock.t -= 1
    store.close()
    store = Store.open(tmp_path)
    with pytest.raises(admin.PinRefused) as info:
        admin.PinGuard(store, clock).check(PIN)
    assert info.value.kind == "wait"
    store.close()


def test_at_the_box_pin_loeschen_resets_the_pin_and_the_lockout(tmp_path, clock) -> None:
    """Einstellungen → Admin-PIN → PIN löschen (docs/device.md)."""
    import random

    from spielleiter.app import Box
    from spielleiter.hal.clock import VirtualClock
    from spielleiter.hal.display import FrameSink
    from spielleiter.ui.menus import main_menu, settings_menu

    store = Store.open(tmp_path)
    store.set_settings({"admin.pin": PIN})
    guard = admin.PinGuard(store, clock)
    for _ in range(admin.LOCK_AFTER):
        with pytest.raises(admin.PinRefused):
            guard.check(WRONG)
        clock.t += admin.backoff_s(guard.state()[0])
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(1))
    box.push(main_menu(box))
    menu = settings_menu(box)
    box.push(menu)
    item = next(i for i in menu.items if "Admin-PIN" in i.text())
    item.action()
    pin_menu = box.top
    next(i for i in pin_menu.items if i.text() == "PIN löschen").action()  # type: ignore[attr-defined]
    assert box.top.summary()["text"].startswith("PIN gelöscht")
    assert store.setting("admin.pin") == "" and guard.state()[0] == 0
    guard.check(None)  # open again
    label = next(i.text() for i in settings_menu(box).items if "PIN" in i.text())
    assert label == "Ohne PIN: Link offen"
    box.close()
    store.close()


# --- device paths only --------------------------------------------------------------
@pytest.mark.parametrize(
    "url",
    [
        "spy://loop://?file=/var/lib/spielleiter/spielleiter.sqlite3",
        "socket://evil.example:4444",
        "loop://",
        "/var/lib/spielleiter/spielleiter.sqlite3",
    ],
)
def test_the_link_refuses_a_serial_port_that_is_no_device(store, link, url):
    answer = ask(link, "settings.set", changes={"serial.port": url}, pin=PIN)
    assert code(answer) == protocol.VALIDATION_ERROR
    assert answer["error"]["data"]["path"] == "serial.port"
    assert store.setting("serial.port") == "/dev/ttyGS0"


def test_the_link_server_never_opens_a_url_even_one_stored_long_ago() -> None:
    from spielleiter.link.server import _SerialPort

    with pytest.raises(Exception, match="serial device"):
        _SerialPort("spy://loop://?file=/tmp/x")


# --- caps and numbers ---------------------------------------------------------------
def test_uploads_are_capped(store, link, kind):
    too_many = ask(link, "names.add", names=[f"N{i}" for i in range(33)], pin=PIN)
    assert code(too_many) == protocol.VALIDATION_ERROR
    for i in range(8):
        ask(link, "names.add", names=[f"Name {i}.{k}" for k in range(32)], pin=PIN)
    assert len(store.names()) == 200  # store.NAMES_MAX: the oldest go
    big = {"x": "y" * BOARD_BYTES_MAX}
    assert code(ask(link, "boards.put", game=kind, boards={"big": big}, pin=PIN)) == 1
    many = {f"b{i}": {} for i in range(17)}
    assert code(ask(link, "boards.put", game=kind, boards=many, pin=PIN)) == 1
    for k in range(4):
        part = {f"b{k}-{i}": {"n": 16 * k + i} for i in range(16)}  # all differ
        assert "result" in ask(link, "boards.put", game=kind, boards=part, pin=PIN)
    full = ask(link, "boards.put", game=kind, boards={"one more": {}}, pin=PIN)
    assert code(full) == 1 and "at most 64" in full["error"]["message"]


def test_numbers_must_be_finite_and_in_range(store, link):
    def line(text: str) -> dict[str, Any]:
        return json.loads(protocol.answer(text.encode(), link.call) or b"{}")

    assert code(line('{"jsonrpc":"2.0","method":"records.get","params":{"id":1e999},"id":1}')) == (
        protocol.PARSE_ERROR
    )
    assert code(ask(link, "records.get", id=2**63)) == protocol.INVALID_PARAMS
    assert code(ask(link, "records.list", limit=-(2**70))) == protocol.INVALID_PARAMS
    nan = {"zero_deg": 0, "widths_deg": [math.nan] * 16}
    with pytest.raises(settings.SettingsError):
        store.set_settings({"spinner.calibration": nan})
    two = {"zero_deg": 0, "widths_deg": [180, 180]}
    with pytest.raises(settings.SettingsError, match="16 sectors"):
        store.set_settings({"spinner.calibration": two})
    assert store.settings()["spinner.calibration"] is None


def test_the_spinner_service_refuses_nan_and_a_wrong_sector_count(tmp_path: Path) -> None:
    import random

    from spielleiter.app import Box
    from spielleiter.hal.clock import VirtualClock
    from spielleiter.hal.display import FrameSink

    store = Store.open(tmp_path)
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(1))
    for bad in (
        {"calibration": {"zero_deg": 0, "widths_deg": [180, 180]}},
        {"calibration": {"zero_deg": 0, "widths_deg": [float("nan")] * 16}},
        {"action": "boundaries", "readings": [float("inf")] * 16},
    ):
        with pytest.raises(ValueError):
            box.spinner_calibrate(bad)
    assert store.settings()["spinner.calibration"] is None
    assert box.spinner_calibrate({"action": "reset"})["calibration"]
    box.close()
    store.close()


# --- the host -----------------------------------------------------------------------
@pytest.fixture
def small_server(store: Store) -> Iterator[LinkServer]:
    with LinkServer.on_pty(FakeDevice(store), max_line=300) as server:
        yield server


def test_the_host_shows_an_error_that_carries_id_null(small_server: LinkServer) -> None:
    with Device.open(small_server.port_name, timeout=3.0) as box:
        with pytest.raises(RemoteError) as info:
            box.call("names.add", names=["Anna"] * 60)
        assert info.value.code == protocol.INVALID_REQUEST
        assert "could not read the names.add request" in info.value.message
        assert "longer than 300 bytes" in info.value.message
        assert box.call("hello")["protocol"] == protocol.PROTOCOL_VERSION


def test_the_host_refuses_to_send_a_line_the_box_would_drop(store: Store) -> None:
    with LinkServer.on_pty(FakeDevice(store)) as server:
        with Device.open(server.port_name, timeout=3.0) as box:
            with pytest.raises(UsageError, match="at most 65536 bytes"):
                box.call("names.add", names=["x" * 70000])
            with pytest.raises(UsageError, match="cannot send"):
                box.call("settings.set", changes={"display.contrast": float("inf")})


def test_a_huge_number_in_host_settings_set_is_refused_not_a_traceback(store, capsys) -> None:
    from spielleiter_host.cli import main

    with LinkServer.on_pty(FakeDevice(store)) as server:
        exit_code = main(["settings", "set", "display.contrast=1e999", "--port", server.port_name])
    assert exit_code == 7 and "display.contrast" in capsys.readouterr().err
