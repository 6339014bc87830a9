"""Talk to systemd's service manager: startup done, still alive, shutting down.

The box runs as a ``Type=notify`` unit with ``WatchdogSec=``: systemd restarts the
program when it stops sending ``WATCHDOG=1``. The messages are datagrams on the
AF_UNIX socket named in ``$NOTIFY_SOCKET`` (the sd_notify protocol), so no library
is needed. Without ``$NOTIFY_SOCKET`` (a laptop, a test) every call does nothing.

Example::

    watchdog = Watchdog.from_env()
    watchdog.ready()          # once the first screen is shown
    while running:
        handle_events(timeout=watchdog.suggested_wait_s(1.0))
        watchdog.ping()       # cheap: sends at most every half watchdog period
    watchdog.stopping()
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import socket

log = logging.getLogger(__name__)

Clock = Callable[[], float]


def socket_address(name: str) -> str | bytes | None:
    """The sendto() address for a ``$NOTIFY_SOCKET`` value, or None if unusable.

    A leading ``@`` names a socket in Linux's abstract namespace, spelled with a
    leading NUL byte on the wire.
    """
    if name.startswith("/"):
        return name
    if name.startswith("@") and len(name) > 1:
        return b"\0" + name[1:].encode()
    return None


def watchdog_interval_s(environ: Mapping[str, str], pid: int) -> float | None:
    """The watchdog timeout systemd expects for process ``pid``, in seconds.

    None when the watchdog is off: ``$WATCHDOG_USEC`` unset, not a positive number,
    or ``$WATCHDOG_PID`` naming another process (the variables were inherited).
    """
    try:
        usec = int(environ.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    if usec <= 0:
        return None
    owner = environ.get("WATCHDOG_PID")
    if owner is not None and owner.strip() != str(pid):
        return None
    return usec / 1_000_000


class Watchdog:
    """A sender of sd_notify messages; every method is a no-op when disabled.

    ``address`` is the socket to send to (None: disabled). ``timeout_s`` is the
    watchdog timeout (None: no watchdog; ``ping`` then sends nothing). ``clock``
    returns seconds and is used only to rate-limit ``ping``.
    """

    def __init__(
        self,
        address: str | bytes | None,
        timeout_s: float | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        self.address = address
        self.timeout_s = timeout_s if address is not None else None
        self._clock = clock
        self._last_ping: float | None = None
        self._socket: socket.socket | None = None
        self._warned = False

    @classmethod
    def from_env(
        cls, clock: Clock = time.monotonic, environ: Mapping[str, str] | None = None
    ) -> Watchdog:
        """The watchdog systemd set up for this process through its environment."""
        env = os.environ if environ is None else environ
        name = env.get("NOTIFY_SOCKET", "")
        address = socket_address(name) if name else None
        if name and address is None:
            log.warning("NOTIFY_SOCKET %r is not a unix socket path; not notifying", name)
        return cls(address, watchdog_interval_s(env, os.getpid()), clock)

    @property
    def enabled(self) -> bool:
        """True when messages go to systemd."""
        return self.address is not None

    @property
    def ping_interval_s(self) -> float | None:
        """How often ``ping`` actually sends: half the watchdog timeout (None: never)."""
        return None if self.timeout_s is None else self.timeout_s / 2

    def suggested_wait_s(self, longest_s: float) -> float:
        """The longest a loop may block between pings: ``longest_s`` or less.

        A quarter of the timeout leaves room for one slow frame after the wait.
        """
        if self.timeout_s is None:
            return longest_s
        return min(longest_s, self.timeout_s / 4)

    def ready(self) -> bool:
        """Tell systemd that startup is finished (``READY=1``), with a first ping."""
        if self.timeout_s is None:
            return self.notify("READY=1")
        sent = self.notify("READY=1\nWATCHDOG=1")
        if sent:
            self._last_ping = self._clock()
        return sent

    def ping(self) -> bool:
        """Tell systemd the program is alive (``WATCHDOG=1``), at most every half timeout.

        Call it from the main loop on every pass; it returns True when it sent.
        """
        interval = self.ping_interval_s
        if interval is None:
            return False
        now = self._clock()
        if self._last_ping is not None and now - self._last_ping < interval:
            return False
        sent = self.notify("WATCHDOG=1")
        if sent:
            self._last_ping = now
        return sent

    def status(self, text: str) -> bool:
        """Show one line of text in ``systemctl status`` (``STATUS=...``)."""
        return self.notify("STATUS=" + " ".join(text.split()))

    def stopping(self) -> bool:
        """Tell systemd the program is shutting down on purpose (``STOPPING=1``)."""
        return self.notify("STOPPING=1")

    def notify(self, message: str) -> bool:
        """Send one raw sd_notify message; True if it left, False if disabled or failed.

        A failure is logged once and never raised: the game must go on without systemd.
        """
        if self.address is None:
            return False
        try:
            if self._socket is None:
                import socket  # only a box under systemd talks to it (the first frame is out)

                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            self._socket.sendto(message.encode(), self.address)
        except OSError as error:
            if not self._warned:
                log.warning("cannot notify systemd: %s", error)
                self._warned = True
            return False
        return True

    def close(self) -> None:
        """Release the socket; a later message opens it again."""
        if self._socket is not None:
            self._socket.close()
            self._socket = None

    def __enter__(self) -> Watchdog:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
