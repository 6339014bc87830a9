"""Wrong PINs back off across restarts (DESIGN.md "Trust": the link lets no one in).

In normal mode the count of wrong PINs lives in the store; in safe mode, where the store
cannot be written, in a small file beside it (safe_mode.GUARD_FILE). Where neither can
be written (a read-only card), the PIN calls are held shut for the first minute after
every start, so pulling the plug never buys quick guesses. A read-only card says so on
the panel, in German, with what to do.
"""

from __future__ import annotations

import errno
import json
from pathlib import Path
from typing import Any

import pytest
from spielleiter import admin, cli
from spielleiter.hal.display import FrameSink
from spielleiter.link import protocol
from spielleiter.link.fake import FakeDevice
from spielleiter.link.methods import Methods
from spielleiter.safe_mode import GUARD_FILE, UNCOUNTED_HOLD_S, SafeLink, SafeMode
from spielleiter.store import DataLock, Store, StoreFault

PIN = "4711"
WRONG = "1234"


class Clock:
    """The guard's wall clock, moved by hand."""

    def __init__(self) -> None:
        self.t = 2_000_000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A data folder whose store has the admin PIN, and one kept backup."""
    folder = tmp_path / "data"
    store = Store.open(folder)
    store.set_settings({"admin.pin": PIN})
    store.backup("test")
    store.close()
    return folder


def ask(link: Methods, method: str, **params: Any) -> dict[str, Any]:
    line = protocol.request_line(method, params, 1)
    return json.loads(protocol.answer(line.strip(), link.call) or b"{}")


def reset_with(link: Methods, pin: str) -> dict[str, Any]:
    """A guarded call that changes little: clear the (empty) Bestenliste."""
    return ask(link, "bestenliste.reset", pin=pin)


def kept_backup(link: Methods, pin: str) -> dict[str, Any]:
    """Safe mode's guarded call: the backup the box keeps."""
    return ask(link, "backup.get", kept=0, pin=pin)


def box_link(data: Path, clock: Clock) -> tuple[Store, Methods]:
    """The box in normal mode, as the link sees it, started afresh."""
    store = Store.open(data)
    device = FakeDevice(store)
    device.pin_guard = admin.PinGuard(store, clock)
    return store, Methods(device)


def safe_link(
    data: Path, clock: Clock, fault: StoreFault | None = None
) -> tuple[SafeMode, Methods]:
    """The box in safe mode, as the link sees it, started afresh."""
    safe = SafeMode(fault or StoreFault("corrupt", "test"), data, FrameSink([]), now=clock)
    return safe, Methods(SafeLink(safe))


def wrong_pins(link: Methods, call: Any, clock: Clock, count: int) -> None:
    """`count` wrong PINs, each after the back-off of the one before."""
    for _ in range(count):
        answer = call(link, WRONG)
        assert answer["error"]["code"] == protocol.WRONG_PIN, answer
        clock.t += answer["error"]["data"]["retry_after_s"]


def waits(answer: dict[str, Any]) -> int:
    assert answer["error"]["code"] == protocol.PIN_LOCKED, answer
    return int(answer["error"]["data"]["retry_after_s"])


# --- normal mode ----------------------------------------------------------------------
def test_a_restart_of_the_box_keeps_the_back_off(data: Path, clock: Clock) -> None:
    store, link = box_link(data, clock)
    wrong_pins(link, reset_with, clock, 4)
    clock.t -= 8  # the 4th wrong PIN just now: 8 s to wait
    store.close()
    store, link = box_link(data, clock)  # the plug pulled, the box started again
    assert waits(reset_with(link, PIN)) == 8
    clock.t += 8
    assert "result" in reset_with(link, PIN)
    store.close()
    store, link = box_link(data, clock)
    assert "result" in reset_with(link, PIN)  # the right PIN cleared the count for good
    store.close()


def test_a_restart_keeps_the_lockout_after_ten_wrong_pins(data: Path, clock: Clock) -> None:
    store, link = box_link(data, clock)
    wrong_pins(link, reset_with, clock, admin.LOCK_AFTER)
    clock.t -= admin.LOCK_S
    store.close()
    store, link = box_link(data, clock)
    assert waits(reset_with(link, PIN)) == admin.LOCK_S
    store.close()


def test_a_count_the_store_cannot_take_still_backs_off(data: Path, clock: Clock) -> None:
    """A full card: the wrong PIN is counted in memory, the next call waits anyway."""
    store = Store.open(data)

    class FullCard:
        def get_value(self, key: str, default: Any = None) -> Any:
            return store.get_value(key, default)

        def set_value(self, key: str, value: Any) -> None:
            raise OSError(errno.ENOSPC, "No space left on device")

        def setting(self, key: str) -> Any:
            return store.setting(key)

    guard = admin.PinGuard(FullCard(), clock)
    with pytest.raises(admin.PinRefused) as wrong:
        guard.check(WRONG)
    assert wrong.value.kind == "wrong"
    with pytest.raises(admin.PinRefused) as refused:
        guard.check(PIN)
    assert refused.value.kind == "wait" and refused.value.wait_s == 1
    store.close()


# --- safe mode -------------------------------------------------------------------------
def test_a_restart_in_safe_mode_keeps_the_back_off(data: Path, clock: Clock) -> None:
    safe, link = safe_link(data, clock)
    wrong_pins(link, kept_backup, clock, 5)
    clock.t -= 16  # the 5th wrong PIN just now
    saved = json.loads((data / GUARD_FILE).read_text("utf-8"))
    assert saved == {"failures": 5, "last": clock.t}
    assert sorted(p.name for p in data.iterdir() if p.name.startswith(GUARD_FILE)) == [GUARD_FILE]
    safe.close()
    safe, link = safe_link(data, clock)  # started again, still in safe mode
    assert waits(kept_backup(link, PIN)) == 16
    clock.t += 16
    assert "result" in kept_backup(link, PIN)
    safe.close()
    safe, link = safe_link(data, clock)
    assert "result" in kept_backup(link, PIN)  # the right PIN cleared the count
    safe.close()


def test_safe_mode_goes_on_with_the_count_the_store_had(data: Path, clock: Clock) -> None:
    store, link = box_link(data, clock)
    wrong_pins(link, reset_with, clock, 6)
    clock.t -= 32
    store.close()
    safe, link = safe_link(data, clock, StoreFault("pins", "pins.toml is missing"))
    assert waits(kept_backup(link, PIN)) == 32
    safe.close()


def test_where_the_count_cannot_be_written_pin_calls_wait_a_minute(
    data: Path, clock: Clock
) -> None:
    """The count's file cannot be replaced (here a folder is in the way of its new copy, as
    the tests run as root, to whom file modes are no obstacle): every start in safe mode
    refuses PIN calls for UNCOUNTED_HOLD_S, the right PIN too, and then takes them."""
    (data / f"{GUARD_FILE}.new").mkdir()
    safe, link = safe_link(data, clock)
    refused = kept_backup(link, PIN)
    assert UNCOUNTED_HOLD_S == 60 and waits(refused) == 60
    assert "cannot be counted" in refused["error"]["message"]
    clock.t += 30
    assert waits(kept_backup(link, WRONG)) == 30
    clock.t += 30
    assert "result" in kept_backup(link, PIN)
    safe.close()
    safe, link = safe_link(data, clock)  # a restart buys no quick guess
    assert waits(kept_backup(link, WRONG)) == 60
    safe.close()


def test_a_count_file_that_does_not_read_as_one_holds_the_pin_calls(
    data: Path, clock: Clock
) -> None:
    (data / GUARD_FILE).write_text("{kaputt", "utf-8")
    safe, link = safe_link(data, clock)
    assert waits(kept_backup(link, PIN)) == 60
    safe.close()


def test_pin_aus_at_the_box_clears_the_count_and_the_hold(data: Path, clock: Clock) -> None:
    """The physical box is trusted: long K1, then K4 ("PIN aus")."""
    from spielleiter.hal.keys import Key, KeyEvent

    (data / f"{GUARD_FILE}.new").mkdir()
    safe, link = safe_link(data, clock)
    assert waits(kept_backup(link, PIN)) == 60
    safe.post(KeyEvent(Key.K1, long=True))
    safe.post(KeyEvent(Key.K4))
    assert not safe.pin_set()
    assert "result" in kept_backup(link, WRONG)  # no PIN now, no wait
    safe.close()


# --- the read-only card on the panel -----------------------------------------------------
READ_ONLY = "[Errno 30] Read-only file system: '/var/lib/spielleiter/spielleiter.lock'"


def test_a_read_only_card_says_so_and_what_to_do(data: Path, clock: Clock) -> None:
    """What cli makes of the lock file that cannot be opened on a read-only card."""
    safe, link = safe_link(data, clock, StoreFault("unopenable", READ_ONLY))
    screen = safe.screen.summary()
    assert screen["fault"] == "readonly" and screen["title"] == "Schreibschutz"
    assert "schreibgeschützt" in screen["text"] and "backup get" in screen["text"]
    assert "Speicher fehlt" not in json.dumps(screen, ensure_ascii=False)
    hello = ask(link, "hello")["result"]
    assert hello["fault"]["kind"] == "readonly" and hello["fault"]["panel"].startswith(
        "Schreibschutz: Die SD-Karte ist schreibgeschützt."
    )
    safe.close()


def test_a_card_that_cannot_be_opened_for_another_reason_stays_unopenable(
    data: Path, clock: Clock
) -> None:
    safe, _ = safe_link(data, clock, StoreFault("unopenable", "unable to open database file"))
    assert safe.fault.kind == "unopenable" and safe.screen.summary()["title"] == "Speicher fehlt"
    safe.close()


def test_the_program_on_a_read_only_card_shows_the_read_only_message(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The real program: the data folder's lock cannot be written (EROFS), as on a card
    that went read-only; the panel shows the read-only fault, not "Speicher fehlt"."""

    def read_only(self: DataLock) -> None:
        raise OSError(errno.EROFS, "Read-only file system", str(self.path))

    monkeypatch.setattr(DataLock, "acquire", read_only)
    keys = tmp_path / "keys.txt"
    keys.write_text("K1\n")
    frames = tmp_path / "frames"
    argv = ["--keys", str(keys), "--data", str(data), "--frames", str(frames)]
    assert cli.main(argv) == cli.EXIT_SAFE_MODE
    assert "Read-only file system" in capsys.readouterr().err
    shown = (frames / "frames.tsv").read_text("utf-8").splitlines()
    assert shown and all(line.endswith("safe\treadonly") for line in shown)


def test_docs_device_lists_every_safe_mode_card() -> None:
    from spielleiter.safe_mode import FAULT_TEXT

    docs = (Path(__file__).resolve().parent.parent / "docs" / "device.md").read_text("utf-8")
    for title, _ in FAULT_TEXT.values():
        assert f"\n| {title} |" in docs, f"docs/device.md: no card {title!r}"
