"""Random bytes, overlong lines and malformed requests never break the link or change data."""

from __future__ import annotations

import itertools
import json
import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import serial
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spielleiter.games.base import Seat
from spielleiter.link import protocol
from spielleiter.link.fake import FakeDevice
from spielleiter.link.methods import method_names
from spielleiter.link.server import LinkServer
from spielleiter.records import Record
from spielleiter.store import Store

PIN = "80417326"

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)

malformed_requests = st.fixed_dictionaries(
    {},
    optional={
        "jsonrpc": st.sampled_from(["2.0", "1.0", 2, None]),
        "method": st.sampled_from(method_names()) | st.text(max_size=20) | json_values,
        "params": json_values,
        "id": json_values,
        "pin": st.text(max_size=8),
    },
).map(lambda d: json.dumps(d).encode())

lines = st.one_of(
    st.binary(max_size=200),
    malformed_requests,
    st.sampled_from([b"AT", b"ATZ\r", b"+++", b"\x00" * 64, b"[]", b"{}"]),
    st.integers(1, 2).map(lambda n: b"x" * (protocol.MAX_LINE * n + 1)),
)


@pytest.fixture(scope="module")
def link(tmp_path_factory) -> Iterator[tuple[serial.Serial, Store]]:
    store = Store.open(tmp_path_factory.mktemp("fuzz"))
    store.set_settings({"admin.pin": PIN, "display.contrast": 33})
    store.add_to_bestenliste("speedtombola", "Anna", 70)
    store.start_record(Record("speedtombola", {}, [Seat("Anna")], [1, 2]))
    with LinkServer.on_pty(FakeDevice(store)) as server:
        port = serial.Serial(server.port_name, timeout=3.0)
        yield port, store
        port.close()
    store.close()


ids = itertools.count()


def hello_after(port: serial.Serial, data: bytes) -> dict:
    """Send junk and then hello; every answer line must be JSON-RPC; return hello's result."""
    tag = f"h{next(ids)}"
    port.write(data + b"\n" + protocol.request_line("hello", None, tag))
    while True:
        line = port.readline()
        assert line.endswith(b"\n"), "the link fell silent"
        message = json.loads(line)
        assert message["jsonrpc"] == "2.0"
        if message.get("id") == tag:
            return message["result"]


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(junk=st.lists(lines, min_size=1, max_size=4))
def test_after_any_junk_hello_answers_and_nothing_changed(link, junk):
    port, store = link
    before = (store.settings(), store.bestenliste("speedtombola"), store.records())
    assert hello_after(port, b"\n".join(junk))["protocol"] == protocol.PROTOCOL_VERSION
    assert (store.settings(), store.bestenliste("speedtombola"), store.records()) == before


@pytest.fixture(scope="module")
def running_box(tmp_path_factory) -> Iterator[tuple[serial.Serial, Any]]:
    """The real Box with a Speedtombola match at a human's decision, its loop running in a
    thread, and the real link on a pty."""
    from spielleiter.app import Box
    from spielleiter.hal.clock import SystemClock
    from spielleiter.hal.display import FrameSink
    from spielleiter.ui.menus import launch, main_menu

    store = Store.open(tmp_path_factory.mktemp("running"))
    store.set_settings({"admin.pin": PIN, "display.contrast": 33})
    box = Box(store, FrameSink([]), SystemClock(), random.Random(3))
    box.push(main_menu(box))
    seats = [Seat("Anna"), Seat("Normal 1", "computer", "normal"), Seat("Ben")]
    session = launch(box, "speedtombola", {"players": 3}, seats)
    loop = threading.Thread(target=box.run, daemon=True)
    loop.start()
    deadline = time.monotonic() + 10
    while not (box.idle and session.seats[session.state.current_player()].is_human):
        assert time.monotonic() < deadline, "the computer never finished its move"
        time.sleep(0.01)
    with LinkServer.on_pty(box) as server:
        port = serial.Serial(server.port_name, timeout=3.0)
        yield port, box
        port.close()
    box.quit()
    loop.join(2)
    store.close()


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(junk=st.lists(lines, min_size=1, max_size=4))
def test_junk_while_a_game_runs_leaves_the_game_where_it_was(running_box, junk):
    port, box = running_box
    session = box.session
    before = (box.store.settings(), list(session.record.actions), session.state.view(0))
    hello = hello_after(port, b"\n".join(junk))
    assert hello["game"] == "speedtombola"
    after = (box.store.settings(), list(session.record.actions), session.state.view(0))
    assert after == before
