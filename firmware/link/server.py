"""The link server: a thread that answers JSON-RPC requests on a serial port or a pty.

The server owns its thread and its port and calls the device only through the
quick methods of LinkDevice, so a slow or noisy laptop never slows the game loop.
A port that is missing (the USB gadget not up yet) or goes away is reopened every
second. A port that has not opened within `wait_s` of the start (PORT_WAIT_S) gives
way to the `fallback` port, once, with a log line and a call of `on_fallback`: a
stored port that is gone never leaves the box without its link. For the emulator,
`LinkServer.on_pty(device)` serves a fresh pseudo-terminal: the server holds the
master side, the laptop opens `server.port_name` (/dev/pts/N).

Example::

    server = LinkServer(store.setting("serial.port"), device, fallback="/dev/ttyGS0")
    server.start()
    ...
    server.stop()
"""

from __future__ import annotations

import logging
import os
import select
import threading
import time
import tty
from collections.abc import Callable
from typing import Protocol

import serial

from ..settings import serial_port_problem
from .methods import LinkDevice, Methods
from .protocol import BAUDRATE, MAX_LINE, LineFramer, answer, overlong_line

log = logging.getLogger(__name__)

POLL_S = 0.1
"""How long a read waits before the thread checks whether it should stop."""
WRITE_TIMEOUT_S = 2.0
"""An answer nobody reads for this long is dropped (no laptop attached)."""
REOPEN_S = 1.0
"""Pause between attempts to open a missing port."""
PORT_WAIT_S = 10.0
"""How long a port may take to open at the start before the fallback port is used."""


class _Port(Protocol):
    def read(self) -> bytes: ...
    def write(self, data: bytes) -> None: ...
    def cancel(self) -> None: ...
    def close(self) -> None: ...


class _SerialPort:
    """A serial device path. Never a pyserial URL: `spy://` would log the PINs, `socket://`
    dial out, `loop://?file=` write a file (settings.serial_port_problem refuses them)."""

    def __init__(self, path: str) -> None:
        problem = serial_port_problem(path)
        if problem is not None:
            raise serial.SerialException(problem)
        self._serial = serial.Serial(
            path, baudrate=BAUDRATE, timeout=POLL_S, write_timeout=WRITE_TIMEOUT_S
        )

    def read(self) -> bytes:
        return self._serial.read(max(1, self._serial.in_waiting))

    def write(self, data: bytes) -> None:
        try:
            self._serial.write(data)
        except serial.SerialTimeoutException:
            log.info("link: answer dropped, nobody reads")
            self._serial.reset_output_buffer()

    def cancel(self) -> None:
        """Wake a waiting read (stop)."""
        cancel = getattr(self._serial, "cancel_read", None)
        if cancel is not None:
            cancel()

    def close(self) -> None:
        self._serial.close()


class _FdPort:
    """An open file descriptor, e.g. a pty master; non-blocking so writes never hang."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        os.set_blocking(fd, False)
        self._wake_r, self._wake_w = os.pipe()

    def read(self) -> bytes:
        ready, _, _ = select.select([self._fd, self._wake_r], [], [], POLL_S)
        if self._fd not in ready:
            return b""
        try:
            return os.read(self._fd, 65536)
        except BlockingIOError:
            return b""

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            _, ready, _ = select.select([], [self._fd], [], WRITE_TIMEOUT_S)
            if not ready:
                log.info("link: answer dropped, nobody reads")
                return
            try:
                view = view[os.write(self._fd, view) :]
            except BlockingIOError:
                continue

    def cancel(self) -> None:
        os.write(self._wake_w, b"!")

    def close(self) -> None:
        """Close the wake pipe; the fd itself belongs to whoever opened it."""
        os.close(self._wake_r)
        os.close(self._wake_w)


def open_pty() -> tuple[int, str]:
    """A raw pseudo-terminal pair: (master fd for the server, slave path for the laptop).

    The slave is set raw (no echo, no line editing) so answers never come back as
    requests. The slave stays open in this process too (closed by close_pty), so the
    master keeps working while no laptop is attached.
    """
    master, slave = os.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    _held_slaves[master] = slave
    return master, path


def close_pty(master_fd: int) -> None:
    """Close a pair made by open_pty."""
    slave = _held_slaves.pop(master_fd, None)
    for fd in (master_fd, slave):
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass


_held_slaves: dict[int, int] = {}


class LinkServer:
    """Serves the link methods on a port: a serial device path (str), or an open fd (int)."""

    def __init__(
        self,
        port: str | int,
        device: LinkDevice,
        *,
        max_line: int = MAX_LINE,
        fallback: str | int | None = None,
        wait_s: float = PORT_WAIT_S,
        on_fallback: Callable[[str, str], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.port = port
        self.methods = Methods(device)
        self.max_line = max_line
        self.fallback = fallback if fallback != port else None
        """Where the link goes when `port` has not opened within `wait_s` of the start."""
        self.wait_s = wait_s
        self.on_fallback = on_fallback
        """Called (on the link's thread) with the two port names when the fallback is taken."""
        self._clock = clock
        self.opened = threading.Event()
        """Set once a port has opened."""
        self._owned_pty: int | None = None
        self._pty_path: str | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._port: _Port | None = None
        self._port_lock = threading.Lock()
        self.requests = 0
        """Lines answered or dropped so far (for status screens and tests)."""

    @classmethod
    def on_pty(cls, device: LinkDevice, *, max_line: int = MAX_LINE) -> LinkServer:
        """A server on a new pty of its own; the laptop opens `port_name`."""
        master, path = open_pty()
        server = cls(master, device, max_line=max_line)
        server._owned_pty, server._pty_path = master, path
        return server

    @classmethod
    def on_fd(cls, fd: int, device: LinkDevice, *, max_line: int = MAX_LINE) -> LinkServer:
        """A server on an open fd, e.g. the master of open_pty(); the caller closes it."""
        return cls(fd, device, max_line=max_line)

    @property
    def port_name(self) -> str:
        """What the laptop opens: the pty slave path, or the port as given."""
        if self._pty_path is not None:
            return self._pty_path
        return self.port if isinstance(self.port, str) else f"fd {self.port}"

    def start(self) -> None:
        """Start serving in a daemon thread."""
        if self._thread is not None:
            raise RuntimeError("the link server is already running")
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="link", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the thread, close the port (and the pty it owns)."""
        self._stop.set()
        with self._port_lock:
            if self._port is not None:
                self._port.cancel()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        if self._owned_pty is not None:
            close_pty(self._owned_pty)
            self._owned_pty = None

    def __enter__(self) -> LinkServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- the thread -------------------------------------------------------
    def _open(self) -> _Port:
        return _FdPort(self.port) if isinstance(self.port, int) else _SerialPort(self.port)

    def _run(self) -> None:
        started = self._clock()
        while not self._stop.is_set():
            try:
                port = self._open()
            except (OSError, serial.SerialException) as exc:
                log.debug("link: cannot open %s: %s", self.port_name, exc)
                if self.fallback is not None and not self.opened.is_set():
                    left = started + self.wait_s - self._clock()
                    if left <= 0:
                        self._fall_back(exc)
                        continue
                    self._stop.wait(min(REOPEN_S, left))
                else:
                    self._stop.wait(REOPEN_S)
                continue
            self.opened.set()
            self._port = port
            try:
                self._serve(port)
            except (OSError, serial.SerialException) as exc:
                log.info("link: %s went away: %s", self.port_name, exc)
                self._stop.wait(REOPEN_S)
            finally:
                with self._port_lock:
                    self._port = None
                    port.close()

    def _fall_back(self, exc: Exception) -> None:
        """The port did not open in time: serve the fallback from now on (once)."""
        wanted = self.port_name
        assert self.fallback is not None
        self.port, self.fallback = self.fallback, None
        log.warning(
            "spielleiter: serial port %s did not open within %g s (%s); the link uses %s",
            wanted,
            self.wait_s,
            exc,
            self.port_name,
        )
        if self.on_fallback is not None:
            try:
                self.on_fallback(wanted, self.port_name)
            except Exception:  # noqa: BLE001 - telling the panel must not end the link
                log.exception("link: could not tell the panel about the fallback")

    def _serve(self, port: _Port) -> None:
        framer = LineFramer(self.max_line)
        while not self._stop.is_set():
            data = port.read()
            if not data:
                continue
            for line in framer.feed(data):
                reply = (
                    overlong_line(self.max_line)
                    if line is None
                    else answer(line, self.methods.call)
                )
                self.requests += 1
                if reply is not None:
                    port.write(reply)
