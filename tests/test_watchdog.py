"""The systemd notifier: what systemd receives, how often, and silence without systemd."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from spielleiter.hal.watchdog import Watchdog, socket_address, watchdog_interval_s


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def systemd(tmp_path: Path) -> Iterator[socket.socket]:
    """A datagram socket standing in for systemd's notify socket."""
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(str(tmp_path / "notify"))
    server.settimeout(1.0)
    yield server
    server.close()


def received(server: socket.socket) -> list[str]:
    """Every datagram waiting on the socket, decoded."""
    messages = []
    server.setblocking(False)
    try:
        while True:
            messages.append(server.recv(4096).decode())
    except BlockingIOError:
        pass
    finally:
        server.settimeout(1.0)
    return messages


def env_for(server: socket.socket, watchdog_usec: int | None = 10_000_000) -> dict[str, str]:
    env = {"NOTIFY_SOCKET": server.getsockname()}
    if watchdog_usec is not None:
        env["WATCHDOG_USEC"] = str(watchdog_usec)
        env["WATCHDOG_PID"] = str(os.getpid())
    return env


def test_ready_reaches_systemd_with_a_first_ping(systemd: socket.socket) -> None:
    with Watchdog.from_env(clock=FakeClock(), environ=env_for(systemd)) as watchdog:
        assert watchdog.ready()
    assert systemd.recv(4096) == b"READY=1\nWATCHDOG=1"


def test_ready_without_a_watchdog_sends_only_ready(systemd: socket.socket) -> None:
    with Watchdog.from_env(environ=env_for(systemd, watchdog_usec=None)) as watchdog:
        watchdog.ready()
        assert not watchdog.ping()
    assert received(systemd) == ["READY=1"]


def test_ping_sends_watchdog(systemd: socket.socket) -> None:
    with Watchdog.from_env(clock=FakeClock(), environ=env_for(systemd)) as watchdog:
        assert watchdog.ping()
    assert systemd.recv(4096) == b"WATCHDOG=1"


def test_ping_sends_at_most_every_half_timeout(systemd: socket.socket) -> None:
    clock = FakeClock()
    with Watchdog.from_env(clock=clock, environ=env_for(systemd, 10_000_000)) as watchdog:
        assert watchdog.ping_interval_s == 5.0
        sent = []
        for _ in range(12):  # one call per second for 12 s
            sent.append(watchdog.ping())
            clock.now += 1.0
    assert sent == [True, False, False, False, False] * 2 + [True, False]
    assert received(systemd) == ["WATCHDOG=1"] * 3


def test_ready_counts_as_the_first_ping(systemd: socket.socket) -> None:
    clock = FakeClock()
    with Watchdog.from_env(clock=clock, environ=env_for(systemd, 4_000_000)) as watchdog:
        watchdog.ready()
        clock.now += 1.9
        assert not watchdog.ping()
        clock.now += 0.1
        assert watchdog.ping()


def test_status_and_stopping(systemd: socket.socket) -> None:
    with Watchdog.from_env(environ=env_for(systemd)) as watchdog:
        watchdog.status("Speedtombola\nRunde 2")
        watchdog.stopping()
    assert received(systemd) == ["STATUS=Speedtombola Runde 2", "STOPPING=1"]


def test_without_notify_socket_nothing_happens() -> None:
    watchdog = Watchdog.from_env(clock=FakeClock(), environ={"WATCHDOG_USEC": "1000000"})
    assert not watchdog.enabled
    assert watchdog.ping_interval_s is None
    assert not watchdog.ready()
    assert not watchdog.ping()
    assert not watchdog.status("x")
    assert not watchdog.stopping()
    assert watchdog.suggested_wait_s(1.0) == 1.0


def test_a_vanished_socket_is_not_an_error(tmp_path: Path) -> None:
    env = {"NOTIFY_SOCKET": str(tmp_path / "gone"), "WATCHDOG_USEC": "1000000"}
    watchdog = Watchdog.from_env(clock=FakeClock(), environ=env)
    assert watchdog.enabled
    assert not watchdog.ping()


def test_abstract_namespace_socket() -> None:
    name = f"spielleiter-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(b"\0" + name.encode())
        server.settimeout(1.0)
        with Watchdog.from_env(environ={"NOTIFY_SOCKET": "@" + name}) as watchdog:
            assert watchdog.ready()
        assert server.recv(4096) == b"READY=1"


def test_socket_addresses() -> None:
    assert socket_address("/run/systemd/notify") == "/run/systemd/notify"
    assert socket_address("@abc") == b"\0abc"
    assert socket_address("vsock:2:1") is None
    assert socket_address("@") is None


def test_watchdog_meant_for_another_process_is_off() -> None:
    env = {"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}
    assert watchdog_interval_s(env, pid=1) == 30.0
    assert watchdog_interval_s(env, pid=2) is None
    assert watchdog_interval_s({"WATCHDOG_USEC": "0"}, pid=2) is None
    assert watchdog_interval_s({"WATCHDOG_USEC": "soon"}, pid=2) is None


def test_suggested_wait_leaves_room_before_the_timeout(systemd: socket.socket) -> None:
    watchdog = Watchdog.from_env(environ=env_for(systemd, 2_000_000))
    assert watchdog.suggested_wait_s(1.0) == 0.5
    assert watchdog.suggested_wait_s(0.1) == 0.1
