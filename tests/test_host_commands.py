"""spielleiter-host against the link server with a fake device, over a real pty."""

from __future__ import annotations

import argparse
import json
import os
import threading
from collections.abc import Iterator
from types import SimpleNamespace

import pytest
import serial
from spielleiter import admin, boards
from spielleiter.admin import verify_pin
from spielleiter.boards import BoardKind
from spielleiter.games import catalog
from spielleiter.games.base import Seat
from spielleiter.link.fake import FakeDevice
from spielleiter.link.server import LinkServer, close_pty, open_pty
from spielleiter.records import Record
from spielleiter.store import Store
from spielleiter_host import device as host_device
from spielleiter_host.cli import main
from spielleiter_host.device import UsbIdentity, find_port, usb_identity

pytestmark = pytest.mark.usefixtures("english")  # the English messages; German in test_host_i18n

GAME = "testspiel"


def validate_board(data):
    if not isinstance(data, dict) or not isinstance(data.get("rows"), list):
        raise boards.BoardError("rows", "missing")
    for i, v in enumerate(data["rows"]):
        if not isinstance(v, int) or not 1 <= v <= 9:
            raise boards.BoardError(f"rows[{i}]", "must be from 1 to 9")


@pytest.fixture
def store(tmp_path, monkeypatch) -> Iterator[Store]:
    known = catalog.names()
    monkeypatch.setattr(catalog, "names", lambda: [*known, GAME])
    boards.register(BoardKind(GAME, validate_board, lambda: {"Standard": {"rows": [1, 2]}}))
    s = Store.open(tmp_path / "data")
    yield s
    s.close()
    boards.unregister(GAME)


@pytest.fixture
def fake(store) -> FakeDevice:
    return FakeDevice(store)


@pytest.fixture
def host(fake, capsys):
    """Run a spielleiter-host command line against the fake box: (exit code, stdout, stderr)."""
    with LinkServer.on_pty(fake) as server:

        def run(*argv: str) -> tuple[int, str, str]:
            code = main([*argv, "--port", server.port_name, "--timeout", "3"])
            out = capsys.readouterr()
            return code, out.out, out.err

        yield run


def test_info_prints_a_table_and_json(host):
    code, out, _ = host("info")
    assert code == 0 and "firmware" in out and "hardware: display" in out
    code, out, _ = host("info", "--json")
    assert json.loads(out)["protocol"] == 1


def test_settings_round_trip_through_a_file(host, store, tmp_path):
    assert host("settings", "set", "display.contrast=77", "clock.enabled=true")[0] == 0
    code, out, _ = host("settings", "get", "--json")
    saved = tmp_path / "settings.json"
    saved.write_text(out)
    store.set_settings({"display.contrast": 1, "clock.enabled": False})
    assert host("settings", "set", "--file", str(saved))[0] == 0
    assert store.setting("display.contrast") == 77 and store.setting("clock.enabled") is True


def test_settings_table_marks_changed_values(host, store):
    store.set_settings({"clock.seconds": 20})
    code, out, _ = host("settings", "get")
    line = next(x for x in out.splitlines() if x.startswith("clock.seconds"))
    assert "20" in line and "changed" in line
    assert "admin PIN: not set" in out


def test_a_pin_is_sent_as_text(host, store):
    assert host("settings", "set", "admin.pin=0042")[0] == 0
    assert verify_pin("0042", store.setting("admin.pin"))


def test_a_refused_setting_names_the_key_and_exits_7(host, store):
    code, _, err = host("settings", "set", "display.contrast=999")
    assert code == 7 and "display.contrast" in err and "255" in err
    assert store.setting("display.contrast") == 200


def test_boards_upload_list_download_delete(host, store, tmp_path):
    upload = tmp_path / "eigen.json"
    upload.write_text(json.dumps({"rows": [4, 5]}))
    assert host("boards", "put", GAME, str(upload), "--name", "Eigen")[0] == 0
    code, out, _ = host("boards", "list", GAME)
    assert "Eigen" in out and "uploaded" in out and "Standard" in out and "shipped" in out
    target = tmp_path / "back.json"
    assert host("boards", "get", GAME, "Eigen", "-o", str(target))[0] == 0
    assert json.loads(target.read_text()) == {"rows": [4, 5]}
    assert host("boards", "delete", GAME, "Eigen")[0] == 0
    assert "Eigen" not in store.boards(GAME)


def test_a_refused_board_names_the_field_and_keeps_the_old_one(host, store, tmp_path):
    store.put_boards(GAME, {"Eigen": {"rows": [4, 5]}})
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"Eigen": {"rows": [4, 50]}}))
    code, _, err = host("boards", "put", GAME, str(bad))
    assert code == 7 and "rows[1]" in err
    assert store.boards(GAME)["Eigen"] == {"rows": [4, 5]}


def test_leaderboard_shows_places_and_reset_needs_the_pin(host, store, fake):
    store.add_to_bestenliste(GAME, "Anna", 90)
    store.set_settings({"admin.pin": "1234"})
    code, out, _ = host("leaderboard", GAME)
    assert code == 0 and "Anna" in out and "90" in out
    code, _, err = host("leaderboard", GAME, "--reset")
    assert code == 1 and "--pin" in err
    code, _, err = host("leaderboard", GAME, "--reset", "--pin", "4321")
    assert code == 1 and "wrong admin PIN" in err
    fake.pin_skew += 1
    assert host("leaderboard", GAME, "--reset", "--pin", "1234")[0] == 0
    assert store.bestenliste(GAME) == []


def test_records_list_get_delete(host, store, tmp_path):
    rid = store.start_record(Record(GAME, {}, [Seat("Anna"), Seat("Bert")], [5, 6, 7]))
    code, out, _ = host("records", "list")
    assert code == 0 and "Anna, Bert" in out and "open" in out
    target = tmp_path / "r.json"
    assert host("records", "get", str(rid), "-o", str(target))[0] == 0
    assert Record.loads(target.read_text()).actions == [5, 6, 7]
    code, _, err = host("records", "delete", str(rid))
    assert code != 0 and "not over" in err  # an open game keeps its record
    store.update_record(rid, finished=True)
    assert host("records", "delete", str(rid))[0] == 0
    assert store.records() == []


def test_names_add_and_list(host, store):
    assert host("names", "add", "Anna", "Bert")[0] == 0
    code, out, _ = host("names", "list", "--json")
    assert set(json.loads(out)["names"]) == {"Anna", "Bert"}
    code, _, err = host("names", "add", "Ein viel zu langer Name")
    assert code == 7 and "names[0]" in err


def test_mirror_once_draws_half_blocks_and_saves_the_png(host, fake, tmp_path):
    target = tmp_path / "frame.png"
    code, out, _ = host("mirror", "--once", "--png", str(target))
    lines = out.splitlines()
    assert code == 0 and target.read_bytes() == fake.picture
    frame = lines[:32]
    assert all(len(line) == 128 and line[0] == line[-1] == "█" for line in frame)
    assert set(frame[0]) <= {"▀", "█"} and set(frame[31]) <= {"▄", "█"}
    assert lines[32] == "screen: Hauptmenü"


@pytest.mark.parametrize("name", ["frame.jpg", "frame", "frame.png.txt"])
def test_a_png_name_without_png_is_refused_before_the_box_is_asked(name, tmp_path, capsys):
    target = tmp_path / name
    argv = ["mirror", "--once", "--png", str(target), "--port", str(tmp_path / "no-box")]
    assert main(argv) == 2  # not 3: the missing box is never asked
    said = f"mirror: argument --png: a .png file, not {name!r} (see --help)"
    assert capsys.readouterr().err == f"spielleiter-host: {said}\n"
    assert not target.exists()


def test_a_png_name_in_capitals_is_a_png(host, fake, tmp_path):
    target = tmp_path / "FRAME.PNG"
    assert host("mirror", "--once", "--png", str(target))[0] == 0
    assert target.read_bytes() == fake.picture


def test_spinner_read_and_calibrate(host, fake):
    code, out, _ = host("spinner", "read")
    assert code == 0 and "petal" in out
    code, out, _ = host("spinner", "calibrate", "action=reset", "--json")
    assert code == 0 and json.loads(out) == {"calibration": {"offset": 0.0}}
    assert fake.calibrations == [{"action": "reset"}]


@pytest.mark.parametrize(
    ("assignments", "says"),
    [
        (["acton=zero"], "acton: no such calibration parameter (did you mean action?)"),
        (["sectors=abc"], "sectors: no such calibration parameter; give action=zero"),
        (["action=zeor"], "action: 'zeor' (did you mean zero?): one of zero, boundaries, reset"),
        (["action=boundaries"], "readings: action=boundaries needs readings="),
        (["action=zero", "readings=[1, 2]"], "readings: only with action=boundaries"),
        (["calibration=5"], "calibration: a JSON object"),
        (["action=zero", "calibration={}"], "action and calibration: give one of them"),
    ],
)
def test_a_calibration_the_box_would_not_use_as_meant_is_refused_here(
    host, fake, assignments, says
):
    code, _, err = host("spinner", "calibrate", *assignments)
    assert code == 7 and says in err and len(err.splitlines()) == 1
    assert fake.calibrations == []


# --- finding the box and the failures a person meets ------------------------------------
def test_the_usb_identity_comes_from_the_pin_map():
    assert usb_identity() == UsbIdentity(0x1D6B, 0x0104, "Spielleiter")


def test_the_box_is_found_by_vendor_product_and_name(monkeypatch):
    ports = [
        SimpleNamespace(device="/dev/ttyACM0", vid=0x1D6B, pid=0x0104, product="Other Gadget"),
        SimpleNamespace(device="/dev/ttyACM1", vid=0x1D6B, pid=0x0104, product="Spielleiter"),
        SimpleNamespace(device="/dev/ttyUSB0", vid=0x0403, pid=0x6001, product="FT232R"),
    ]
    monkeypatch.setattr(host_device.list_ports, "comports", lambda: ports)
    assert find_port() == "/dev/ttyACM1"


def test_no_box_says_what_to_do(monkeypatch, capsys):
    monkeypatch.setattr(host_device.list_ports, "comports", lambda: [])
    monkeypatch.delenv(host_device.PORT_ENV, raising=False)
    assert main(["info"]) == 3
    assert "no Spielleiter box found" in capsys.readouterr().err


def test_a_missing_port_is_no_device(capsys):
    assert main(["info", "--port", "/dev/no-such-tty"]) == 3
    assert "does not exist" in capsys.readouterr().err


@pytest.mark.parametrize("url", ["foo://bar", "loop://?logging=zzz"])
def test_a_url_pyserial_cannot_open_is_no_device_in_one_line(url, capsys):
    assert main(["info", "--port", url, "--json"]) == 3
    out, err = capsys.readouterr()
    assert json.loads(out)["exit_code"] == 3
    assert err.startswith(f"spielleiter-host: cannot open {url}: ") and err.count("\n") == 1


def test_a_busy_port_is_named(fake, capsys):
    with LinkServer.on_pty(fake) as server:
        holder = serial.Serial(server.port_name, exclusive=True)
        try:
            assert main(["info", "--port", server.port_name]) == 4
        finally:
            holder.close()
    assert "busy" in capsys.readouterr().err


@pytest.fixture
def silent_pty() -> Iterator[tuple[int, str]]:
    master, path = open_pty()
    yield master, path
    close_pty(master)


def test_a_silent_port_times_out(silent_pty, capsys):
    assert main(["info", "--port", silent_pty[1], "--timeout", "0.3"]) == 5
    assert "no answer" in capsys.readouterr().err


def test_another_protocol_version_is_refused(host, monkeypatch):
    monkeypatch.setattr(host_device, "PROTOCOL_VERSION", 2)
    code, _, err = host("info")
    assert code == 6 and "speaks link protocol 1" in err and "speaks 2" in err


# --- what a person meets at the laptop ------------------------------------------------
def test_the_command_list_has_one_line_per_command_with_its_description(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for command in ("info", "settings", "leaderboard", "records", "mirror", "tournament"):
        line = next(x for x in out.splitlines() if x.strip().startswith(command))
        assert len(line.split()) > 1, line


def test_a_board_as_downloaded_is_stored_under_its_own_name(host, store, tmp_path):
    upload = tmp_path / "eigen.json"
    upload.write_text(json.dumps({"name": "Eigen", "rows": [4, 5]}))
    assert host("boards", "put", GAME, str(upload))[0] == 0
    assert store.boards(GAME)["Eigen"] == {"name": "Eigen", "rows": [4, 5]}


def test_name_option_also_renames_the_board_inside(host, store, tmp_path):
    upload = tmp_path / "kopie.json"
    upload.write_text(json.dumps({"name": "Standard", "rows": [4, 5]}))
    assert host("boards", "put", GAME, str(upload), "--name", "Eigen")[0] == 0
    assert store.boards(GAME)["Eigen"] == {"name": "Eigen", "rows": [4, 5]}


def test_a_single_board_without_a_name_asks_for_one(host, tmp_path):
    upload = tmp_path / "ohne.json"
    upload.write_text(json.dumps({"rows": [4, 5]}))
    code, _, err = host("boards", "put", GAME, str(upload))
    assert code == 7 and "--name" in err


def test_a_board_file_that_cannot_be_read_is_a_usage_error(host, tmp_path):
    code, _, err = host("boards", "put", GAME, str(tmp_path / "fehlt.json"), "--name", "X")
    assert code == 2 and "cannot read" in err and "Errno" not in err
    broken = tmp_path / "kaputt.json"
    broken.write_text('{"rows": [4,')
    code, _, err = host("boards", "put", GAME, str(broken), "--name", "X")
    assert code == 2 and "is not JSON" in err


def test_a_download_to_a_missing_folder_says_so(host, store, tmp_path):
    code, _, err = host("mirror", "--once", "--png", str(tmp_path / "fehlt" / "x.png"))
    assert code == 2 and "cannot write" in err
    rid = store.start_record(Record(GAME, {}, [Seat("Anna")], [1]))
    code, _, err = host("records", "get", str(rid), "-o", str(tmp_path / "fehlt" / "r.json"))
    assert code == 2 and "cannot write" in err


def test_a_wrong_assignment_or_nothing_to_set_is_a_usage_error(host, store):
    code, _, err = host("settings", "set", "clockseconds")
    assert code == 2 and "KEY=VALUE" in err
    assert host("settings", "set")[0] == 2
    assert host("spinner", "calibrate")[0] == 2


def test_a_setting_given_twice_is_refused_before_the_box_is_asked(tmp_path, capsys):
    argv = ["settings", "set", "clock.seconds=15", "display.contrast=70", " clock.seconds=20"]
    assert main([*argv, "--port", str(tmp_path / "no-box")]) == 2  # not 3: never asked
    err = capsys.readouterr().err
    assert err == (
        "spielleiter-host: clock.seconds is given more than once: set each setting once\n"
    )


def test_changing_a_set_pin_without_it_names_the_option(host, store):
    store.set_settings({"admin.pin": "1234"})
    code, _, err = host("settings", "set", "admin.pin=5678")
    assert code == 1 and "give it with --pin" in err
    assert host("settings", "set", "admin.pin=5678", "--pin", "1234")[0] == 0
    assert verify_pin("5678", store.setting("admin.pin"))


def typed_at_the_pin_prompt(monkeypatch, *answers: str) -> list[str]:
    """A terminal where the PIN prompt reads `answers` in turn, then Ctrl-D; the prompts
    it showed."""
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    prompts: list[str] = []
    left = list(answers)

    def getpass(prompt: str = "") -> str:
        prompts.append(prompt)
        if not left:
            raise EOFError
        return left.pop(0)

    monkeypatch.setattr(host_device.getpass, "getpass", getpass)
    return prompts


def test_ctrl_d_at_the_pin_prompt_is_no_pin_in_one_line(host, store, monkeypatch):
    store.set_settings({"admin.pin": "1234"})
    typed_at_the_pin_prompt(monkeypatch)  # nothing typed: Ctrl-D
    code, out, err = host("settings", "set", "admin.pin=5678")
    assert code == 1 and "give it with --pin" in err and "Traceback" not in err
    assert err.strip().splitlines() == [err.strip()] and out == ""
    assert verify_pin("1234", store.setting("admin.pin"))


def test_an_empty_pin_is_asked_again_not_sent(host, store, monkeypatch):
    store.set_settings({"admin.pin": "1234"})
    prompts = typed_at_the_pin_prompt(monkeypatch, "", "  ", "1234")
    assert host("settings", "set", "admin.pin=5678")[0] == 0
    assert prompts == ["admin PIN: "] * 3
    assert verify_pin("5678", store.setting("admin.pin"))
    assert not store.get_value(admin.GUARD_KEY)  # no try was spent on the empty answers


def test_an_empty_pin_then_ctrl_d_is_no_pin_and_costs_no_try(host, store, monkeypatch):
    store.set_settings({"admin.pin": "1234"})
    typed_at_the_pin_prompt(monkeypatch, "")
    code, out, err = host("settings", "set", "admin.pin=5678")
    assert code == 1 and err.strip() == "spielleiter-host: an admin PIN is set: give it with --pin"
    assert not store.get_value(admin.GUARD_KEY)
    assert host("settings", "set", "admin.pin=5678", "--pin", "1234")[0] == 0  # no waiting


def test_an_empty_pin_for_a_restore_is_asked_again_not_sent(host, store, monkeypatch, tmp_path):
    store.set_settings({"admin.pin": "1234"})
    saved = tmp_path / "backup.sqlite3"
    assert host("backup", "get", "-o", str(saved), "--pin", "1234")[0] == 0
    prompts = typed_at_the_pin_prompt(monkeypatch, "", "1234")
    assert host("backup", "restore", str(saved))[0] == 0
    assert len(prompts) == 2 and not store.get_value(admin.GUARD_KEY)


def test_asking_for_the_pin_setting_explains_that_it_is_never_shown(host, store):
    code, _, err = host("settings", "get", "admin.pin")
    assert code == 1 and "never shows the admin PIN" in err


def test_a_warning_from_the_box_goes_to_stderr(host, store, serial_dev):
    code, out, err = host("settings", "set", "serial.port=/dev/ttyAMA0")
    assert code == 0 and "serial.port" in out and "warning" in err and "warning" not in out


def test_ctrl_c_ends_the_live_mirror_normally(host, monkeypatch):
    def interrupt(_seconds: float) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(host_device.time, "sleep", interrupt)
    code, out, err = host("mirror")
    assert code == 0 and "█" in out and err == ""
    code, out, _ = host("spinner", "read", "--watch")
    assert code == 0 and out


def test_the_mirror_interval_must_be_positive(capsys):
    assert main(["mirror", "--interval", "0"]) == 2
    assert capsys.readouterr().err == (
        "spielleiter-host: mirror: argument --interval: 0 s: give more than 0 and at most 3600"
        " (see --help)\n"
    )


def test_the_screen_summary_reads_as_words(host, fake):
    fake.summary = {"screen": "menu", "items": ["Speedtombola", "Bestenliste"], "game": None}
    out = host("mirror", "--once")[1]
    assert out.splitlines()[-1] == "screen: menu  items: Speedtombola, Bestenliste  game: -"


def test_a_file_is_not_a_serial_port(tmp_path, capsys):
    plain = tmp_path / "ttyFAKE"
    plain.write_text("")
    assert main(["info", "--port", str(plain)]) == 3
    assert "is not a serial port" in capsys.readouterr().err


@pytest.mark.parametrize(
    "answer",
    [lambda line: b"OK\r\n", lambda line: line],  # a modem saying OK; a port that echoes
    ids=["modem", "echo"],
)
def test_a_port_that_speaks_something_else_is_not_a_box(silent_pty, capsys, answer):
    master, path = silent_pty
    stop = threading.Event()

    def other_device() -> None:
        while not stop.is_set():
            try:
                data = os.read(master, 1024)
                if data:
                    os.write(master, answer(data))
            except BlockingIOError:
                stop.wait(0.01)

    os.set_blocking(master, False)
    thread = threading.Thread(target=other_device, daemon=True)
    thread.start()
    try:
        assert main(["info", "--port", path, "--timeout", "0.5"]) == 6
    finally:
        stop.set()
        thread.join()
    assert "does not speak the Spielleiter protocol" in capsys.readouterr().err


def test_every_argument_of_the_box_commands_says_what_it_is():
    from spielleiter_host.cli import build_parser

    def parsers(parser, path):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    yield from parsers(sub, [*path, name])
        yield path, parser

    offline = {"tournament", "replay", "templates", "print"}
    for path, parser in parsers(build_parser(), []):
        if not path or path[0] in offline:
            continue
        for action in parser._actions:
            if not isinstance(action, argparse._SubParsersAction | argparse._HelpAction):
                assert action.help, f"{' '.join(path)} {action.dest}"


def test_at_a_terminal_clearing_and_deleting_ask_first(host, store, monkeypatch):
    store.add_to_bestenliste(GAME, "Anna", 90)
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt: "n")
    code, _, err = host("leaderboard", GAME, "--reset")
    assert code == 1 and "nothing cleared" in err
    assert [s.name for s in store.bestenliste(GAME)] == ["Anna"]
    assert host("leaderboard", GAME, "--reset", "--yes")[0] == 0
    assert store.bestenliste(GAME) == []
    code, _, err = host("records", "delete", "1")
    assert code == 1 and "nothing deleted" in err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["records", "list", "--limit", "0"], "--limit: from 1 to 1000, not 0"),
        (["records", "list", "--limit", "1001"], "--limit: from 1 to 1000, not 1001"),
        (["backup", "get", "-o", "x.sqlite3", "--kept", "5"], "--kept: from 0 to 2, not 5"),
        (["backup", "get", "-o", "x.sqlite3", "--kept", "-1"], "--kept: from 0 to 2, not -1"),
        (["leaderboard", "bungi"], "unknown game 'bungi' (did you mean bungee?)"),
        (["leaderboard", "--history", "A", "bungi"], "unknown game 'bungi'"),
        (["leaderboard", "bungi", "--reset", "--yes"], "unknown game 'bungi'"),
    ],
)
def test_a_count_out_of_range_or_a_mistyped_game_is_a_wrong_command_line(host, store, argv, said):
    store.add_to_bestenliste("bungee", "Anna", 12)
    code, out, err = host(*argv)
    assert code == 2 and said in err and err.count("\n") == 1 and out == ""
    assert [s.name for s in store.bestenliste("bungee")] == ["Anna"]


def test_the_laptop_s_ranges_are_the_box_s():
    from spielleiter.link.methods import RECORDS_MAX
    from spielleiter.store import BACKUPS_KEPT
    from spielleiter_host import backup, records

    assert records.RECORDS_MAX == RECORDS_MAX and backup.BACKUPS_KEPT == BACKUPS_KEPT


def test_an_option_before_the_command_is_said_to_go_after_it(capsys):
    assert main(["--port", "/dev/pts/2", "info"]) == 2
    assert capsys.readouterr().err == (
        "spielleiter-host: --port goes after the command: spielleiter-host info --port ..."
        " (see --help)\n"
    )
    assert main(["--lang", "en", "--json", "records", "list"]) == 2
    out, err = capsys.readouterr()
    assert "--json goes after the command: spielleiter-host records list --json" in err
    assert json.loads(out)["exit_code"] == 2


def test_a_mistyped_setting_gets_a_suggestion(host):
    code, _, err = host("settings", "set", "clock.secnds=15")
    assert code == 7 and "did you mean clock.seconds?" in err
    code, _, err = host("settings", "get", "clock.enabeld")
    assert code != 0 and "did you mean clock.enabled?" in err


def test_backup_get_names_the_running_game_s_record_it_leaves_on_the_box(host, store, tmp_path):
    running = store.start_record(Record("speedtombola", {"players": 2}, [Seat("A"), Seat("B")]))
    saved = tmp_path / "backup.sqlite3"
    code, out, err = host("backup", "get", "-o", str(saved))
    assert code == 0, err
    assert out.endswith(f"; the running game's record {running} stays on the box\n"), out
    assert "[" not in out
