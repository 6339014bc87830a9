"""Fixtures shared by the tests, and the `golden` mark that `make golden` selects."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from pathlib import Path

import pytest
from spielleiter.store import Store


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "golden: compares screens with tests/golden/ PNGs")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test that calls assert_golden, so `pytest -k golden` regolds them all."""
    for item in items:
        function = getattr(item, "function", None)
        try:
            source = inspect.getsource(function) if function else ""
        except (OSError, TypeError):
            continue
        if "assert_golden(" in source:
            item.add_marker(pytest.mark.golden)


@pytest.fixture
def english(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """spielleiter-host speaks English in this test, as under an English locale (it speaks
    German by default; tests/test_host_i18n.py checks both)."""
    from spielleiter_host import i18n

    monkeypatch.setenv("LANGUAGE", "en")
    i18n.use("en")
    yield
    i18n.use(None)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """An empty store in a temporary data directory, closed after the test."""
    opened = Store.open(tmp_path / "data")
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture
def serial_dev(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A /dev of its own for the serial port checks (spielleiter.serial_ports.ROOT): real
    character devices made with mknod (the tests are skipped where that is not allowed).

    Serial ports: ttyS0, ttyAMA0, ttyUSB0, ttyACM0, serial0 -> ttyAMA0, serial1 -> ttyS0,
    serial/by-id/usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0 -> ttyUSB0. Not serial
    ports: null, zero, urandom, tty, tty1, serial/by-id/usb-Evil-if00 -> zero, and
    ttyUSB5, a plain file. No ttyGS0: the gadget port is not up.
    """
    import os
    import stat

    from spielleiter import serial_ports

    root = tmp_path / "root"
    dev = root / "dev"
    (dev / "serial" / "by-id").mkdir(parents=True)
    nodes = {
        "ttyS0": (4, 64), "ttyAMA0": (204, 64), "ttyUSB0": (188, 0), "ttyACM0": (166, 0),
        "null": (1, 3), "zero": (1, 5), "urandom": (1, 9), "tty": (5, 0), "tty1": (4, 1),
    }  # fmt: skip
    for name, (major, minor) in nodes.items():
        try:
            os.mknod(dev / name, 0o600 | stat.S_IFCHR, os.makedev(major, minor))
        except PermissionError:
            pytest.skip("making device nodes needs CAP_MKNOD (root)")
    (dev / "serial0").symlink_to("ttyAMA0")
    (dev / "serial1").symlink_to("ttyS0")
    by_id = dev / "serial" / "by-id"
    (by_id / "usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0").symlink_to("../../ttyUSB0")
    (by_id / "usb-Evil-if00").symlink_to("../../zero")
    (dev / "ttyUSB5").write_text("")
    monkeypatch.setattr(serial_ports, "ROOT", str(root))
    return root
