"""Settings: every house rule has a default, changes are checked and applied all or nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from spielleiter import settings
from spielleiter.settings import SETTINGS, SettingsError
from spielleiter.store import Store

DOCS = Path(__file__).resolve().parent.parent / "docs" / "settings.md"


def test_every_default_passes_its_own_check() -> None:
    assert settings.validate(settings.defaults()) == settings.defaults()


def test_a_fresh_store_has_the_defaults(store: Store) -> None:
    assert store.settings() == settings.defaults()


def test_a_valid_batch_is_stored_and_survives_reopening(tmp_path: Path) -> None:
    first = Store.open(tmp_path)
    new = first.set_settings({"display.contrast": 50, "clock.enabled": True})
    assert new["display.contrast"] == 50 and new["clock.enabled"] is True
    first.close()
    second = Store.open(tmp_path)
    assert second.setting("display.contrast") == 50
    assert second.setting("clock.enabled") is True
    second.close()


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("display.contrast", 256),
        ("display.contrast", "200"),
        ("display.contrast", True),
        ("display.driver", "ssd1309"),
        ("clock.enabled", 1),
        ("clock.seconds", 2),
        ("admin.pin", "12a4"),
        ("admin.pin", "123"),
        ("speedtombola.removed", 7),
        ("speedtombola.rounds", True),
        ("bot.playouts", 99),
        ("bot.preload", "ja"),
        ("no.such.setting", 1),
    ],
)
def test_a_bad_value_is_refused_with_its_key(key: str, value: object) -> None:
    with pytest.raises(SettingsError) as err:
        settings.validate({key: value})
    assert err.value.key == key


def test_a_batch_with_one_bad_key_changes_nothing(store: Store) -> None:
    before = store.settings()
    with pytest.raises(SettingsError) as err:
        store.set_settings({"display.contrast": 10, "clock.seconds": 1000, "clock.enabled": True})
    assert err.value.key == "clock.seconds"
    assert store.settings() == before


def test_a_pin_may_be_empty_or_four_to_eight_digits() -> None:
    for pin in ("", "1234", "12345678"):
        settings.validate({"admin.pin": pin})


def test_a_value_of_a_forgotten_setting_is_ignored(store: Store) -> None:
    store._db.execute("INSERT INTO settings(key, value) VALUES ('old.key', '1')")
    assert "old.key" not in store.settings()


def test_the_settings_page_documents_every_setting() -> None:
    text = DOCS.read_text("utf-8")
    for key in SETTINGS:
        assert f"`{key}`" in text, f"docs/settings.md does not describe {key}"


@pytest.mark.parametrize(
    "port",
    [
        "", "   ", "ttyGS0", 5,
        "spy://loop://?file=/var/lib/spielleiter/spielleiter.sqlite3",
        "socket://localhost:7777", "loop://", "rfc2217://box:2217", "/dev/../var/lib/x",
        "/dev/ttyGS0/../../var/lib/spielleiter/spielleiter.sqlite3", "/dev/null/x",
        "/dev/shm/spielleiter", "/var/lib/spielleiter/spielleiter.sqlite3",
    ],
)  # fmt: skip
def test_a_serial_port_that_is_no_device_is_refused(store, port) -> None:
    with pytest.raises(SettingsError, match="serial.port"):
        store.set_settings({"serial.port": port})
    assert store.settings()["serial.port"] == "/dev/ttyGS0"


@pytest.mark.parametrize(
    "port",
    ["/dev/ttyUSB0", "/dev/ttyAMA0", "/dev/ttyS0", "/dev/ttyACM0", "/dev/serial0", "/dev/serial1",
     "/dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0"],
)  # fmt: skip
def test_a_serial_device_path_is_a_fine_port(store, port, serial_dev) -> None:
    """serial_dev: a /dev where these ports are (conftest); tests/test_serial_port.py
    has the devices that are refused."""
    store.set_settings({"serial.port": port})
    assert store.settings()["serial.port"] == port


def test_a_calibration_without_its_widths_names_the_missing_field(store) -> None:
    with pytest.raises(SettingsError, match="the field 'widths_deg' is missing"):
        store.set_settings({"spinner.calibration": {"zero_deg": 1}})
