"""The link server over a real pty with a fake device: every method, every kind of bad input."""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
import serial
from spielleiter import boards
from spielleiter.admin import verify_pin
from spielleiter.boards import BoardError, BoardKind
from spielleiter.games import catalog
from spielleiter.games.base import Seat
from spielleiter.link import protocol
from spielleiter.link.fake import FakeDevice
from spielleiter.link.server import LinkServer
from spielleiter.records import Record
from spielleiter.session import Session
from spielleiter.store import Store
from spielleiter_host.device import Device, RemoteError

pytestmark = pytest.mark.usefixtures("english")  # the box's English; German: test_host_box_texts

GAME = "testspiel"


def validate_board(data: Any) -> None:
    """A tiny schema: {"rows": [three whole numbers 1..9]}."""
    if not isinstance(data, dict) or set(data) != {"rows"}:
        raise BoardError("", 'a board is {"rows": [...]}')
    rows = data["rows"]
    if not isinstance(rows, list) or len(rows) != 3:
        raise BoardError("rows", "needs 3 entries")
    for i, value in enumerate(rows):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 9:
            raise BoardError(f"rows[{i}]", "must be a whole number from 1 to 9")


@pytest.fixture
def board_kind() -> Iterator[None]:
    boards.register(BoardKind(GAME, validate_board, lambda: {"Standard": {"rows": [1, 2, 3]}}))
    yield
    boards.unregister(GAME)


@pytest.fixture
def store(tmp_path, monkeypatch) -> Iterator[Store]:
    known = catalog.names()
    monkeypatch.setattr(catalog, "names", lambda: [*known, GAME])
    s = Store.open(tmp_path)
    yield s
    s.close()


@pytest.fixture
def device(store) -> FakeDevice:
    return FakeDevice(store)


@pytest.fixture
def server(device, board_kind) -> Iterator[LinkServer]:
    with LinkServer.on_pty(device) as srv:
        yield srv


@pytest.fixture
def box(server) -> Iterator[Device]:
    with Device.open(server.port_name, timeout=3.0) as dev:
        yield dev


@pytest.fixture
def wire(server) -> Iterator[serial.Serial]:
    """The laptop's end of the pty, raw: write any bytes, read answer lines."""
    port = serial.Serial(server.port_name, timeout=3.0)
    yield port
    port.close()


def exchange(port: serial.Serial, data: bytes) -> dict:
    port.write(data)
    line = port.readline()
    assert line.endswith(b"\n"), f"no answer to {data[:40]!r}"
    return json.loads(line)


def refused(box: Device, method: str, **params: Any) -> RemoteError:
    with pytest.raises(RemoteError) as info:
        box.call(method, **params)
    return info.value


def add_record(store: Store, actions: list[int]) -> int:
    seats = [Seat("Anna"), Seat("Bert"), Seat("Rechner", "computer", "normal")]
    return store.start_record(Record(GAME, {"players": 3}, seats, actions))


# --- hello ---------------------------------------------------------------------
def test_hello_tells_protocol_firmware_hardware_uptime_and_game(box):
    hello = box.call("hello")
    assert hello["protocol"] == protocol.PROTOCOL_VERSION
    assert hello["firmware"] and hello["hardware"]["display"] == "emulated"
    assert hello["uptime_s"] >= 0 and hello["game"] is None
    assert "settings.set" in hello["methods"]


# --- settings ------------------------------------------------------------------
def test_settings_get_shows_values_defaults_help_but_never_the_pin(box, store):
    store.set_settings({"admin.pin": "4711"})
    got = box.call("settings.get")
    assert got["settings"]["display.contrast"] == 200
    assert got["defaults"]["clock.seconds"] == 10
    assert "contrast" in got["help"]["display.contrast"]
    assert "admin.pin" not in got["settings"] and got["pin_set"] is True


def test_settings_set_stores_and_tells_the_device(box, store, device):
    got = box.call("settings.set", changes={"display.contrast": 90, "clock.enabled": True})
    assert got["settings"]["display.contrast"] == 90
    assert store.setting("clock.enabled") is True
    assert device.applied[-1]["display.contrast"] == 90


def test_a_bad_setting_is_refused_naming_it_and_nothing_changes(box, store):
    before = store.settings()
    err = refused(box, "settings.set", changes={"display.contrast": 90, "clock.seconds": 999})
    assert err.code == protocol.VALIDATION_ERROR
    assert err.data["path"] == "clock.seconds"
    assert store.settings() == before
    assert refused(box, "settings.set", changes={"no.such": 1}).data["path"] == "no.such"


def test_changing_the_admin_pin_needs_the_current_one(box, store, device):
    box.call("settings.set", changes={"admin.pin": "1234"})
    assert refused(box, "settings.set", changes={"admin.pin": ""}).code == protocol.PIN_REQUIRED
    err = refused(box, "settings.set", changes={"admin.pin": ""}, pin="9999")
    assert err.code == protocol.WRONG_PIN and verify_pin("1234", store.setting("admin.pin"))
    device.pin_skew += err.data["retry_after_s"]
    box.call("settings.set", changes={"admin.pin": "5678"}, pin="1234")
    assert verify_pin("5678", store.setting("admin.pin"))


def test_changing_the_serial_port_warns_that_it_takes_effect_at_the_next_start(
    box, store, serial_dev
):
    result = box.call("settings.set", changes={"serial.port": "/dev/ttyAMA0"})
    assert store.setting("serial.port") == "/dev/ttyAMA0" and "starts again" in result["warning"]
    assert "warning" not in box.call("settings.set", changes={"serial.port": "/dev/ttyAMA0"})


def test_a_device_that_cannot_apply_a_setting_now_still_keeps_it(box, store, device, monkeypatch):
    def fail(settings):
        raise RuntimeError("display busy")

    monkeypatch.setattr(device, "settings_changed", fail)
    got = box.call("settings.set", changes={"display.contrast": 10})
    assert "display busy" in got["warning"] and store.setting("display.contrast") == 10


# --- boards --------------------------------------------------------------------
def test_boards_list_get_put_delete(box, store):
    box.call("boards.put", game=GAME, boards={"Eigen": {"rows": [9, 8, 7]}})
    listed = box.call("boards.list", game=GAME)["boards"]
    assert [(b["name"], b["shipped"], b["uploaded"]) for b in listed] == [
        ("Eigen", False, True),
        ("Standard", True, False),
    ]
    assert box.call("boards.get", game=GAME, name="Eigen")["board"] == {"rows": [9, 8, 7]}
    assert box.call("boards.delete", game=GAME, name="Eigen") == {"game": GAME, "deleted": "Eigen"}
    assert "Eigen" not in store.boards(GAME)


def test_every_registered_kind_is_listed_without_a_game(box):
    games = {b["game"] for b in box.call("boards.list")["boards"]}
    assert GAME in games


def test_a_refused_upload_names_the_bad_field_and_keeps_the_old_board(box, store):
    box.call("boards.put", game=GAME, boards={"Eigen": {"rows": [9, 8, 7]}})
    err = refused(
        box,
        "boards.put",
        game=GAME,
        boards={"Neu": {"rows": [1, 1, 1]}, "Eigen": {"rows": [1, 0, 1]}},
    )
    assert err.code == protocol.VALIDATION_ERROR and err.data["path"] == "rows[1]"
    assert "Eigen" in err.data["message"]
    assert store.boards(GAME)["Eigen"] == {"rows": [9, 8, 7]}
    assert "Neu" not in store.boards(GAME)


def test_board_mistakes_are_named(box):
    assert refused(box, "boards.get", game="kein", name="x").code == protocol.NOT_FOUND
    assert refused(box, "boards.get", game=GAME, name="x").code == protocol.NOT_FOUND
    assert refused(box, "boards.put", game=GAME, boards={}).data["path"] == "boards"
    assert refused(box, "boards.put", game=GAME, boards={"": {"rows": [1, 2, 3]}}).code == 1
    whole = refused(box, "boards.put", game=GAME, boards={"Eigen": {"rows": [1], "x": 2}})
    assert whole.data["path"] == "" and whole.message.startswith("a board is")
    shipped = refused(box, "boards.delete", game=GAME, name="Standard")
    assert shipped.code == protocol.NOT_FOUND and "shipped" in shipped.message


# --- Bestenliste ---------------------------------------------------------------
def test_bestenliste_shares_places_on_ties(box, store):
    for name, points in (("Anna", 80), ("Bert", 80), ("Carla", 50)):
        store.add_to_bestenliste(GAME, name, points)
    answer = box.call("bestenliste.get", game=GAME)
    lines = answer["points"][GAME]
    assert [(s["place"], s["name"], s["points"], s["matches"]) for s in lines] == [
        (1, "Anna", 80, 1),
        (1, "Bert", 80, 1),
        (3, "Carla", 50, 1),
    ]
    assert answer["bestenliste"][GAME] == []  # points without a record rate nobody
    assert GAME in box.call("bestenliste.get")["bestenliste"]
    assert refused(box, "bestenliste.get", game="kein").code == protocol.NOT_FOUND


def test_resetting_the_bestenliste_needs_the_right_pin_when_one_is_set(box, store, device):
    store.add_to_bestenliste(GAME, "Anna", 80)
    store.set_settings({"admin.pin": "2468"})
    assert refused(box, "bestenliste.reset", game=GAME).code == protocol.PIN_REQUIRED
    wrong = refused(box, "bestenliste.reset", game=GAME, pin="1357")
    assert wrong.code == protocol.WRONG_PIN and wrong.message == "wrong admin PIN"
    assert len(store.bestenliste(GAME)) == 1
    device.pin_skew += wrong.data["retry_after_s"]
    assert box.call("bestenliste.reset", game=GAME, pin="2468")["removed"] == 1
    assert store.bestenliste(GAME) == []


def test_without_a_pin_the_bestenliste_resets_freely(box, store):
    store.add_to_bestenliste(GAME, "Anna", 80)
    assert box.call("bestenliste.reset")["removed"] == 1


# --- records -------------------------------------------------------------------
def test_records_list_and_get_give_the_record_format(box, store):
    first = add_record(store, [3, 0, 1])
    second = add_record(store, [])
    listed = box.call("records.list")["records"]
    assert [r["id"] for r in listed] == [second, first]
    assert listed[1]["seats"] == ["Anna", "Bert", "Rechner"] and listed[1]["actions"] == 3
    got = Record.from_json(box.call("records.get", id=first)["record"])
    assert got.actions == [3, 0, 1] and got.seats[2].level == "normal"
    assert box.call("records.list", limit=1)["records"][0]["id"] == second
    assert refused(box, "records.list", limit=0).data["path"] == "limit"
    assert refused(box, "records.get", id=999).code == protocol.NOT_FOUND


def test_the_record_of_a_game_not_over_cannot_be_deleted(box, store):
    older = add_record(store, [1])
    store.update_record(older, abandoned=True)
    running = add_record(store, [1, 0])
    err = refused(box, "records.delete", id=running)
    assert err.code == protocol.VALIDATION_ERROR and err.data["path"] == "id"
    assert store.record(running).actions == [1, 0]
    assert box.call("records.delete", id=older) == {"deleted": older}


def test_deleting_a_record_needs_the_pin_when_one_is_set(box, store, device):
    rid = add_record(store, [1])
    store.update_record(rid, finished=True)
    store.set_settings({"admin.pin": "0000"})
    assert refused(box, "records.delete", id=rid, pin="1111").code == protocol.WRONG_PIN
    assert store.record(rid).actions == [1]
    device.pin_skew += 1
    assert box.call("records.delete", id=rid, pin="0000") == {"deleted": rid}
    assert store.records() == []


# --- names ---------------------------------------------------------------------
def test_names_from_the_laptop_are_remembered(box, store):
    assert set(box.call("names.add", names=["Jörg", " Zoë "])["names"]) == {"Jörg", "Zoë"}
    assert set(box.call("names.list")["names"]) == {"Jörg", "Zoë"} == set(store.names())


def test_bad_names_are_refused_and_none_is_stored(box, store):
    for bad in ("", "x" * 17, "a\nb", 5):
        err = refused(box, "names.add", names=["Gut", bad])
        assert err.data["path"] == "names[1]", bad
    assert store.names() == []



def test_names_the_screen_cannot_show_are_refused_naming_the_characters(box, store):
    for bad in ("🎲Würfel", "Łukasz", "👨‍👩‍👧"):
        err = refused(box, "names.add", names=[bad])
        assert err.code == protocol.VALIDATION_ERROR and "cannot show" in err.message, bad
    assert "'🎲'" in refused(box, "names.add", names=["🎲Würfel"]).message
    assert store.names() == []


def test_a_name_with_a_combining_accent_is_stored_as_one_letter(box, store):
    assert box.call("names.add", names=["Rene\u0301"])["names"] == ["René"]
    assert box.call("names.add", names=["Ma\u0308x", "Ärger für Jörg ß"])["names"][1] == "Mäx"


# --- screen and spinner ---------------------------------------------------------
def test_screen_sends_the_frame_as_base64_png_and_a_summary(box, device):
    got = box.call("screen")
    assert base64.b64decode(got["png"]) == device.picture
    assert got["summary"] == {"screen": "Hauptmenü"}


def test_spinner_read_and_calibrate_go_to_the_device(box, device):
    assert box.call("spinner.read")["result"] == "petal"
    assert box.call("spinner.calibrate", offset=3) == {"calibration": {"offset": 3.0}}
    assert device.calibrations == [{"offset": 3}]
    assert refused(box, "spinner.calibrate", offset="x").code == protocol.VALIDATION_ERROR


def test_a_device_failure_is_a_device_error(box, device, monkeypatch):
    def no_sensor():
        raise OSError("no AS5600 at 0x36")

    monkeypatch.setattr(device, "spinner_read", no_sensor)
    err = refused(box, "spinner.read")
    assert err.code == protocol.DEVICE_ERROR and "AS5600" in err.message


# --- bad requests ----------------------------------------------------------------
def test_unknown_methods_and_parameters_are_named(box):
    assert refused(box, "format.disk").code == protocol.METHOD_NOT_FOUND
    err = refused(box, "records.get", id=1, force=True)
    assert err.code == protocol.INVALID_PARAMS and err.data["path"] == "force"
    err = refused(box, "records.get", id="1")
    assert err.code == protocol.INVALID_PARAMS and "integer" in err.message
    assert refused(box, "records.get", id=True).code == protocol.INVALID_PARAMS
    assert refused(box, "boards.get", game=GAME).data["path"] == "name"


HELLO = b'{"jsonrpc":"2.0","method":"hello","id":"h"}\n'


@pytest.mark.parametrize(
    "junk, code",
    [
        (b"AT\r", protocol.PARSE_ERROR),
        (b"ATE0 Q0 V1\r\n", protocol.PARSE_ERROR),
        (b"\xc3\x28\xff\n", protocol.PARSE_ERROR),
        (b'{"jsonrpc":"2.0","method":"hello"\n', protocol.PARSE_ERROR),
        (b'[{"jsonrpc":"2.0","method":"hello","id":1}]\n', protocol.INVALID_REQUEST),
        (b'{"jsonrpc":"2.0","method":["hello"],"id":1}\n', protocol.INVALID_REQUEST),
        (b"x" * (protocol.MAX_LINE + 10) + b"\n", protocol.INVALID_REQUEST),
        (
            b'{"jsonrpc":"2.0","method":"settings.set","params":{"changes":[1]},"id":1}\n',
            protocol.INVALID_PARAMS,
        ),
    ],
)
def test_each_bad_line_gets_an_error_and_the_next_line_is_served(wire, store, junk, code):
    before = store.settings()
    assert exchange(wire, junk)["error"]["code"] == code
    assert exchange(wire, HELLO)["result"]["protocol"] == protocol.PROTOCOL_VERSION
    assert store.settings() == before


def test_an_overlong_settings_request_changes_nothing(wire, store):
    padding = "x" * protocol.MAX_LINE
    line = json.dumps(
        {
            "jsonrpc": "2.0",
            "method": "settings.set",
            "params": {"changes": {"display.contrast": 1}, "pad": padding},
            "id": 1,
        }
    ).encode()
    assert exchange(wire, line + b"\n")["error"]["code"] == protocol.INVALID_REQUEST
    assert store.setting("display.contrast") == 200


def test_the_server_goes_on_after_the_laptop_closes_the_port(server):
    for _ in range(2):
        with Device.open(server.port_name, timeout=3.0) as dev:
            assert dev.call("names.list") == {"names": []}


def test_a_missing_port_is_retried_quietly_and_stop_returns_promptly(device):
    srv = LinkServer("/dev/does-not-exist", device)
    srv.start()
    time.sleep(0.05)
    started = time.monotonic()
    srv.stop()
    assert time.monotonic() - started < 1.5


def test_a_running_games_secret_never_leaves_the_box(store: Store, box: Device) -> None:
    """The removed lots of the running round are withheld; once the game is left, not."""
    seats = [Seat("Anna"), Seat("Ben"), Seat("Normal 1", "computer", "normal")]
    session = Session.start(store, "speedtombola", {"players": 3}, seats, seed=3)
    session.play_chance()
    got = box.call("records.get", id=session.record_id)["record"]
    assert got["actions"][:9] == [None] * 9  # the nine lots removed unseen
    assert got["actions"][9] == session.record.actions[9]  # the open lot is public
    assert "removed" in got["withheld"]
    store.update_record(session.record_id, abandoned=True)
    got = box.call("records.get", id=session.record_id)["record"]
    assert got["actions"] == session.record.actions and "withheld" not in got
