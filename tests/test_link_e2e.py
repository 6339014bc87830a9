"""End to end: the real emulated box (`spielleiter --emulate --serial pty`) and real
`spielleiter-host` commands, each in its own process.

The box runs on a pseudo-terminal of its own as keyboard and screen (so the test can
press keys) and serves the link on a second pty, whose path it prints.
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import json
import os
import re
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("spielleiter.app")
pytest.importorskip("spielleiter.cli")

from PIL import Image, ImageChops  # noqa: E402
from spielleiter.link import protocol  # noqa: E402
from spielleiter.records import Record  # noqa: E402
from spielleiter.store import Store  # noqa: E402
from spielleiter_host.cli import main as host_main  # noqa: E402

try:
    from test_speedtombola_device import SOLO_SETUP
except ImportError:  # the Speedtombola device tests are being rewritten
    SOLO_SETUP = None

BOX = [sys.executable, "-m", "spielleiter.cli"]
HOST = [sys.executable, "-m", "spielleiter_host.cli"]


def key_presses(script: str) -> bytes:
    """A key script's K1..K4 lines as the emulator's keyboard digits."""
    return "".join(re.findall(r"^\s*K([1-4])\b", script, re.M)).encode()


class RunningBox:
    """`spielleiter --emulate --serial pty` with a pty as its terminal."""

    def __init__(self, data: Path, frames: Path) -> None:
        self.frames = frames
        self.tty, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 160, 0, 0))
        self.process = subprocess.Popen(
            [*BOX, "--emulate", "--serial", "pty", "--data", str(data), "--frames", str(frames),
             "--seed", "3"],
            stdin=slave, stdout=slave, stderr=slave, close_fds=True,
        )  # fmt: skip
        os.close(slave)
        self.output = bytearray()
        self._drain = threading.Thread(target=self._read, daemon=True)
        self._drain.start()
        self.port = self._wait_for(rb"serial: (/dev/pts/\d+)").decode()

    def _read(self) -> None:
        while True:
            try:
                data = os.read(self.tty, 65536)
            except OSError:
                return
            if not data:
                return
            self.output += data

    def _wait_for(self, pattern: bytes, timeout: float = 15.0) -> bytes:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = re.search(pattern, bytes(self.output))
            if found:
                return found.group(1)
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise AssertionError(f"the box did not print {pattern!r}: {bytes(self.output[-500:])!r}")

    def press(self, keys: bytes) -> None:
        for key in keys:
            os.write(self.tty, bytes([key]))
            time.sleep(0.05)

    def settle(self) -> Path:
        """Wait until no new frame comes for a while; the newest frame."""
        last, stable_since = None, time.monotonic()
        while time.monotonic() - stable_since < 0.6:
            newest = max(self.frames.glob("*.png"), default=None, key=lambda p: p.name)
            if newest != last:
                last, stable_since = newest, time.monotonic()
            time.sleep(0.05)
        assert last is not None
        return last

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        os.close(self.tty)


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    """A data directory with one finished Speedtombola match (played from a key script)."""
    root = tmp_path_factory.mktemp("e2e")
    if SOLO_SETUP is not None:
        keys = root / "match.txt"
        keys.write_text(SOLO_SETUP + "K2\n" * 40 + "K4\nK4\n", encoding="utf-8")
        subprocess.run(
            [*BOX, "--keys", str(keys), "--data", str(root / "data"), "--seed", "1",
             "--display", "none"],
            check=True, timeout=60, capture_output=True,
        )  # fmt: skip
    return root / "data"


@pytest.fixture(scope="module")
def box(data, tmp_path_factory) -> Iterator[RunningBox]:
    running = RunningBox(data, tmp_path_factory.mktemp("frames"))
    yield running
    running.stop()


def host(box: RunningBox, *argv: str) -> subprocess.CompletedProcess[str]:
    """A spielleiter-host command line, run in this process (the console script's main)."""
    out, err = io.StringIO(), io.StringIO()
    args = [*argv, "--port", box.port, "--timeout", "5"]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = host_main(args)
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


def wait_for_game(box: RunningBox, game: str, timeout: float = 30.0) -> None:
    """Until the box says (`hello`) that a match of `game` runs: the keys pressed reach it
    through its terminal and it takes them in its own time."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        shown = host(box, "info", "--json")
        if shown.returncode == 0 and json.loads(shown.stdout).get("game") == game:
            return
        time.sleep(0.2)
    raise AssertionError(f"no match of {game} after {timeout} s: {bytes(box.output[-300:])!r}")


def test_the_console_script_talks_to_the_box(box):
    shown = subprocess.run(
        [*HOST, "info", "--json", "--port", box.port], capture_output=True, text=True, timeout=30
    )
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["protocol"] == protocol.PROTOCOL_VERSION


def test_settings_round_trip(box, tmp_path):
    assert host(box, "settings", "set", "display.contrast=42", "clock.seconds=15").returncode == 0
    saved = tmp_path / "settings.json"
    saved.write_text(host(box, "settings", "get", "--json").stdout)
    assert json.loads(saved.read_text())["display.contrast"] == 42
    assert host(box, "settings", "set", "display.contrast=200").returncode == 0
    assert host(box, "settings", "set", "--file", str(saved)).returncode == 0
    now = json.loads(
        host(box, "settings", "get", "display.contrast", "clock.seconds", "--json").stdout
    )
    assert now == {"display.contrast": 42, "clock.seconds": 15}


def test_a_refused_board_upload_leaves_the_old_board(box, tmp_path):
    listed = json.loads(host(box, "boards", "list", "besenbingo", "--json").stdout)["boards"]
    shipped = listed[0]["name"]
    good = tmp_path / "good.json"
    assert host(box, "boards", "get", "besenbingo", shipped, "-o", str(good)).returncode == 0
    own = json.loads(good.read_text())
    own["bar"]["minus"][-1] -= 1  # an own template: a copy of a shipped one is refused
    good.write_text(json.dumps(own))
    assert host(box, "boards", "put", "besenbingo", str(good), "--name", "Eigen").returncode == 0
    broken = json.loads(good.read_text())
    broken["grid"] = broken["grid"][:-1]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(broken))
    refused = host(box, "boards", "put", "besenbingo", str(bad), "--name", "Eigen")
    assert refused.returncode == 7 and "grid" in refused.stderr
    kept = host(box, "boards", "get", "besenbingo", "Eigen", "--json")
    assert json.loads(kept.stdout) == {**json.loads(good.read_text()), "name": "Eigen"}


@pytest.mark.skipif(SOLO_SETUP is None, reason="no key script for a whole match")
def test_a_downloaded_record_replays_to_the_same_result(box, data, tmp_path):
    records = json.loads(host(box, "records", "list", "--json").stdout)["records"]
    finished = next(r for r in records if r["finished"])
    target = tmp_path / "record.json"
    assert host(box, "records", "get", str(finished["id"]), "-o", str(target)).returncode == 0
    replayed = Record.loads(target.read_text()).replay()
    store = Store.open(data)
    try:
        on_box = store.record(finished["id"]).replay()
    finally:
        store.close()
    assert replayed.is_terminal() and replayed.returns() == on_box.returns()
    assert replayed.history() == on_box.history()


def test_the_mirror_shows_the_frame_on_the_display(box, tmp_path):
    newest = box.settle()
    picture = tmp_path / "mirror.png"
    shown = host(box, "mirror", "--once", "--png", str(picture))
    assert shown.returncode == 0 and len(shown.stdout.splitlines()) >= 32
    a = Image.open(picture).convert("1")
    b = Image.open(newest).convert("1")
    assert a.size == b.size == (128, 64)
    assert ImageChops.difference(a, b).getbbox() is None


@pytest.mark.skipif(SOLO_SETUP is None, reason="no key script to start a match")
def test_junk_on_the_link_while_a_game_runs_changes_nothing(box):
    import serial

    box.press(key_presses(SOLO_SETUP))
    wait_for_game(box, "speedtombola")  # a busy machine's box takes the keys late
    before = json.loads(host(box, "settings", "get", "--json").stdout)
    port = serial.Serial(box.port, timeout=5)
    try:
        junk = [
            b"AT\r",
            b"\xff\xfe\x00" * 50,
            b"x" * (protocol.MAX_LINE + 5),
            b"[]",
            b"{}",
            b'{"jsonrpc":"2.0","method":"settings.set","params":{"changes":{"x":1}},"id":1}',
        ]
        for i, line in enumerate(junk * 3):
            port.write(line + b"\n")
            if i % 3 == 0:
                box.press(b"2")
        port.write(protocol.request_line("hello", None, "last"))
        while True:
            line = port.readline()
            assert line, "the link fell silent"
            answer = json.loads(line)
            if answer.get("id") == "last":
                break
    finally:
        port.close()
    assert answer["result"]["game"] == "speedtombola"
    assert json.loads(host(box, "settings", "get", "--json").stdout) == before
    assert box.process.poll() is None


# --- docs/protocol.md shows what the box really answers -------------------------------
PROTOCOL_PAGE = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"
READ_ONLY = {"hello", "settings.get", "boards.list", "boards.get", "records.get", "screen",
             "spinner.read", "names.list", "nope"}  # fmt: skip
VARIES = {"hardware", "summary"}
"""Answers whose keys depend on the box's parts or on the screen shown."""


def documented_exchanges() -> list[tuple[str, str]]:
    """(request line, answer line) of every example on the protocol page."""
    lines = [x for x in PROTOCOL_PAGE.read_text("utf-8").splitlines() if x.strip()]
    starts = ('{"jsonrpc":"2.0","method"', "[{", "AT")
    return [
        (line, lines[i + 1])
        for i, line in enumerate(lines[:-1])
        if line.startswith(starts) and lines[i + 1].startswith('{"jsonrpc":"2.0","id"')
    ]


def _loose_json(text: str) -> object:
    """A documented answer as JSON, with its `…` shortenings taken out."""
    text = re.sub(r",\s*…|…\s*,", "", text)
    return json.loads(text.replace("[…]", "[]").replace("{…}", "{}"))


def _documented_keys_are_there(documented: object, real: object, where: str) -> None:
    if isinstance(documented, dict):
        assert isinstance(real, dict), where
        missing = set(documented) - set(real)
        assert not missing, f"{where}: the box does not answer {sorted(missing)}"
        for key, value in documented.items():
            if key not in VARIES:
                _documented_keys_are_there(value, real[key], f"{where}.{key}")


def test_the_protocol_page_examples_are_what_the_box_answers(box):
    import serial

    exchanges = [
        (request, answer)
        for request, answer in documented_exchanges()
        if "…" not in request
        and (not request.startswith("{") or json.loads(request)["method"] in READ_ONLY)
    ]
    assert len(exchanges) >= 9
    with serial.Serial(box.port, timeout=5, exclusive=True) as port:
        port.write(b"\n")
        for request, answer in exchanges:
            port.write(request.encode("utf-8") + b"\n")
            real = json.loads(port.readline())
            documented = _loose_json(answer)
            assert ("error" in real) == ("error" in documented), request
            if "error" in real:
                assert real["error"]["code"] == documented["error"]["code"], request
            else:
                _documented_keys_are_there(documented["result"], real["result"], request)
