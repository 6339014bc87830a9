"""The link's port is a serial port, and a port that is gone never leaves the box without
its link (DESIGN.md "Trust": the serial port setting accepts only a serial device).

`serial.port` takes a tty of a serial class that is there now (links such as by-id and
serial0 followed, and what they lead to checked too); a stored port that does not open
within PORT_WAIT_S of the start gives way to the pin map's port, with a German message
on the panel; and the box's own Einstellungen set the port back.
"""

from __future__ import annotations

import json
import os
import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from spielleiter import cli, serial_ports
from spielleiter.app import Box
from spielleiter.hal.clock import VirtualClock
from spielleiter.hal.display import FrameSink
from spielleiter.hal.keys import Key, KeyEvent
from spielleiter.link import protocol
from spielleiter.link.fake import FakeDevice
from spielleiter.link.methods import Methods
from spielleiter.link.server import PORT_WAIT_S, LinkServer, close_pty, open_pty
from spielleiter.safe_mode import SafeMode
from spielleiter.settings import SettingsError
from spielleiter.store import Store, StoreFault
from spielleiter.ui.menus import main_menu, settings_menu
from spielleiter_host.device import Device

BY_ID = "/dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0"


def ask(link: Methods, method: str, **params: Any) -> dict[str, Any]:
    line = protocol.request_line(method, params, 1)
    return json.loads(protocol.answer(line.strip(), link.call) or b"{}")


# --- what the setting takes --------------------------------------------------------------
@pytest.mark.parametrize("port", ["/dev/zero", "/dev/null", "/dev/urandom", "/dev/tty"])
def test_a_character_device_that_is_no_serial_port_is_refused(store: Store, port: str) -> None:
    """This machine's own /dev: each of them is there and a character device."""
    assert os.path.exists(port)
    with pytest.raises(SettingsError) as refused:
        store.set_settings({"serial.port": port})
    assert refused.value.key == "serial.port"
    assert f"'{port}' is not a serial device (give /dev/ttyGS0" in refused.value.message
    assert store.setting("serial.port") == "/dev/ttyGS0"


@pytest.mark.parametrize(
    ("port", "says"),
    [
        ("/dev/tty1", "is not a serial device"),  # a console: a tty, not of a serial class
        ("/dev/serial/by-id/usb-Evil-if00", "leads to '/dev/zero', which is not a serial"),
        ("/dev/ttyUSB5", "not a character device"),  # a plain file with a serial name
        ("/dev/ttyUSB9", "is not there"),
        ("/dev/serial/by-id/usb-Gone-if00-port0", "is not there"),
        ("/dev/serial/by-id/..", "is not a serial device"),
        ("/dev/ttyS0/../zero", "is not a serial device"),
        ("spy://loop://?file=/var/lib/spielleiter/spielleiter.sqlite3", "is not a serial device"),
        ("ttyUSB0", "is not a serial device"),
        (7, "must be the path of a serial device"),
    ],
)
def test_what_is_no_serial_port_there_now_is_refused_with_the_reason(
    store: Store, serial_dev: Path, port: Any, says: str
) -> None:
    with pytest.raises(SettingsError) as refused:
        store.set_settings({"serial.port": port})
    assert says in refused.value.message
    assert store.setting("serial.port") == "/dev/ttyGS0"


def test_a_link_to_a_serial_port_is_taken_under_its_own_name(
    store: Store, serial_dev: Path
) -> None:
    store.set_settings({"serial.port": BY_ID})
    assert store.setting("serial.port") == BY_ID
    store.set_settings({"serial.port": "/dev/serial0"})  # -> ttyAMA0
    assert store.setting("serial.port") == "/dev/serial0"


def test_the_default_port_is_taken_while_the_gadget_is_not_up(
    store: Store, serial_dev: Path
) -> None:
    assert not (serial_dev / "dev" / "ttyGS0").exists()
    store.set_settings({"serial.port": "/dev/ttyAMA0"})
    store.set_settings({"serial.port": "/dev/ttyGS0"})
    assert store.setting("serial.port") == "/dev/ttyGS0"
    with pytest.raises(SettingsError, match="is not there"):
        store.set_settings({"serial.port": "/dev/ttyGS1"})


def test_the_link_refuses_each_of_them_with_error_1_naming_the_setting(store: Store) -> None:
    link = Methods(FakeDevice(store))
    for port in ("/dev/zero", "/dev/null", "/dev/urandom", "/dev/tty", "/dev/ttyUSB9"):
        answer = ask(link, "settings.set", changes={"serial.port": port})
        assert answer["error"]["code"] == protocol.VALIDATION_ERROR, port
        assert answer["error"]["data"]["path"] == "serial.port"
    assert store.setting("serial.port") == "/dev/ttyGS0"


def test_the_ports_there_now_are_listed_under_the_names_to_choose_them_by(
    serial_dev: Path,
) -> None:
    assert serial_ports.available() == [
        "/dev/serial0", "/dev/serial1", BY_ID,
        "/dev/ttyS0", "/dev/ttyAMA0", "/dev/ttyUSB0", "/dev/ttyACM0",
    ]  # fmt: skip


def test_the_link_server_opens_no_device_that_is_no_serial_port() -> None:
    from spielleiter.link.server import _SerialPort

    for port in ("/dev/zero", "/dev/tty", "/dev/null"):
        with pytest.raises(Exception, match="is not a serial device"):
            _SerialPort(port)


# --- a port that does not open at the start ----------------------------------------------
class Steps:
    """A monotonic clock that stands still unless moved; counts how often it is read."""

    def __init__(self) -> None:
        self.t = 100.0
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return self.t


def wait_for(condition: Any, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_a_stored_port_that_does_not_open_gives_way_to_the_fallback(store: Store) -> None:
    """After wait_s the link serves the fallback (here a pty's master side) and says so."""
    master, slave = open_pty()
    clock = Steps()
    told: list[tuple[str, str]] = []
    server = LinkServer(
        "/dev/ttyUSB9", FakeDevice(store), fallback=master, wait_s=10,
        on_fallback=lambda wanted, used: told.append((wanted, used)), clock=clock,
    )  # fmt: skip
    server.start()
    try:
        wait_for(lambda: clock.reads >= 2)  # the start and one try of /dev/ttyUSB9
        assert told == [] and server.port == "/dev/ttyUSB9" and not server.opened.is_set()
        clock.t += 10
        wait_for(server.opened.is_set)
        assert told == [("/dev/ttyUSB9", f"fd {master}")]
        with Device.open(slave, timeout=3) as laptop:
            assert laptop.hello["protocol"] == protocol.PROTOCOL_VERSION
    finally:
        server.stop()
        close_pty(master)


def test_a_port_that_opens_in_time_keeps_the_link(store: Store) -> None:
    master, slave = open_pty()
    told: list[tuple[str, str]] = []
    server = LinkServer(master, FakeDevice(store), fallback="/dev/ttyGS0", wait_s=0,
                        on_fallback=lambda *names: told.append(names))  # fmt: skip
    with server:
        wait_for(server.opened.is_set)
        with Device.open(slave, timeout=3) as laptop:
            assert laptop.hello["protocol"] == protocol.PROTOCOL_VERSION
    assert told == [] and server.port == master
    close_pty(master)


def test_the_box_waits_ten_seconds_for_the_stored_port_then_takes_the_pin_maps(
    store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    assert PORT_WAIT_S == 10
    server = cli._start_link(FakeDevice(store), "/dev/ttyUSB9", "/dev/ttyGS0", None)
    try:
        assert server.fallback == "/dev/ttyGS0" and server.wait_s == PORT_WAIT_S
    finally:
        server.stop()
    said = capsys.readouterr().out
    assert "/dev/ttyUSB9 not there yet; waiting 10 s for it, then using /dev/ttyGS0" in said
    server = cli._start_link(FakeDevice(store), "/dev/ttyGS0", "/dev/ttyGS0", None)
    server.stop()
    assert server.fallback is None  # the pin map's port itself is waited for as long as it takes


def test_the_fallback_is_told_on_the_panel_in_german(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "data")
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(1))
    box.reload_settings()
    box.push(main_menu(box))
    master, _ = open_pty()
    server = LinkServer(
        "/dev/ttyUSB9", box, fallback=master, wait_s=0, on_fallback=cli._tell_box(box)
    )
    with server:
        wait_for(server.opened.is_set)
    done = threading.Event()
    box.call_soon(done.set)
    box.run_script([])  # the loop runs what the link handed it
    assert done.is_set()
    shown = box.top.summary()
    assert shown["title"] == "Link-Port fehlt"
    assert shown["text"].startswith("ttyUSB9 geht nicht auf. Link jetzt auf fd ")
    assert shown["text"].endswith("Einstellungen: Link-Port.")
    box.dispatch(KeyEvent(Key.K3))  # OK
    assert box.top.summary()["title"] == "Spielleiter"
    close_pty(master)
    box.close()
    store.close()


def test_in_safe_mode_the_fallback_is_told_over_the_fault_until_ok(tmp_path: Path) -> None:
    safe = SafeMode(StoreFault("corrupt", "test"), tmp_path, FrameSink([]))
    cli._tell_safe_mode(safe)("/dev/ttyUSB9", "/dev/ttyGS0")
    shown = safe.screen.summary()
    assert shown["title"] == "Link-Port fehlt" and "Link jetzt auf ttyGS0" in shown["text"]
    assert [k.label if k else None for k in safe.screen.softkeys()] == [None, None, "OK", None]
    safe.post(KeyEvent(Key.K3))
    assert safe.screen.summary()["title"] == "Speicher beschädigt"
    safe.close()


def test_at_start_a_stored_name_of_no_serial_port_is_never_tried(store: Store) -> None:
    from types import SimpleNamespace

    pins = SimpleNamespace(serial_port="/dev/ttyGS0")
    store._db.execute("INSERT OR REPLACE INTO settings VALUES ('serial.port', '\"/dev/zero\"')")
    assert cli._serial_port(store, pins) == "/dev/ttyGS0"
    store.set_settings({"serial.port": "/dev/ttyGS0"})
    store._db.execute("INSERT OR REPLACE INTO settings VALUES ('serial.port', '\"/dev/ttyUSB3\"')")
    assert cli._serial_port(store, pins) == "/dev/ttyUSB3"  # a serial port: waited for


# --- the box's own menu sets it back -----------------------------------------------------
def test_einstellungen_link_port_offers_the_default_and_the_ports_there(
    tmp_path: Path, serial_dev: Path
) -> None:
    store = Store.open(tmp_path / "data")
    store.set_settings({"serial.port": BY_ID})
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(1))
    box.reload_settings()
    box.push(main_menu(box))
    menu = settings_menu(box)
    box.push(menu)
    item = next(i for i in menu.items if i.text().startswith("Link-Port: "))
    assert item.text() == "Link-Port: usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0"
    item.action()
    ports = box.top.summary()
    assert ports["title"] == "Link-Port"
    assert ports["items"] == [
        "Standard: ttyGS0", "serial0", "serial1", BY_ID.rsplit("/", 1)[-1],
        "ttyS0", "ttyAMA0", "ttyUSB0", "ttyACM0",
    ]  # fmt: skip
    box.top.items[0].action()  # type: ignore[attr-defined]
    assert store.setting("serial.port") == "/dev/ttyGS0"
    assert box.top.summary()["text"] == "Der Link nimmt /dev/ttyGS0 beim nächsten Start."
    box.pop()
    assert item.text() == "Link-Port: ttyGS0"
    item.action()
    next(i for i in box.top.items if i.text() == "ttyAMA0").action()  # type: ignore[attr-defined]
    assert store.setting("serial.port") == "/dev/ttyAMA0"
    box.close()
    store.close()


def test_a_port_that_went_away_before_it_was_chosen_is_not_stored(
    tmp_path: Path, serial_dev: Path
) -> None:
    store = Store.open(tmp_path / "data")
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(1))
    box.push(main_menu(box))
    box.push(settings_menu(box))
    next(i for i in box.top.items if i.text().startswith("Link-Port")).action()  # type: ignore[attr-defined]
    (serial_dev / "dev" / "ttyACM0").unlink()  # unplugged
    next(i for i in box.top.items if i.text() == "ttyACM0").action()  # type: ignore[attr-defined]
    assert box.top.summary()["text"] == "ttyACM0 ist nicht mehr da."
    assert store.setting("serial.port") == "/dev/ttyGS0"
    box.close()
    store.close()


# --- the service may open what the setting takes ------------------------------------------
def test_the_unit_allows_every_serial_class_the_setting_takes() -> None:
    from test_install import UNIT, parse_unit

    allowed = {line.split()[0] for line in parse_unit(UNIT.read_text())["Service"]["DeviceAllow"]}
    assert {f"char-{c}" for c in serial_ports.CLASSES} <= allowed
