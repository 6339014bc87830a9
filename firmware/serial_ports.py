"""Which serial ports the laptop link may use: a tty of a known serial class, nothing else.

The link runs on a serial line: the USB gadget port (ttyGS*), a UART (ttyS*, ttyAMA*,
and the names /dev/serial0 and /dev/serial1 that Raspberry Pi OS gives them), or a USB
adapter (ttyUSB*, ttyACM*, and their stable names under /dev/serial/by-id/). Any other
character device would swallow the link or feed it junk (/dev/null, /dev/zero,
/dev/urandom, the controlling terminal /dev/tty, a console), and a pyserial URL would
open a socket or write a file: all of them are refused. A name that is a link
(serial0, by-id) is followed, and what it leads to must be of a serial class too.

Example::

    >>> port_problem("/dev/zero")
    "'/dev/zero' is not a serial device (give /dev/ttyGS0, /dev/ttyS*, ...)"
    >>> name_problem("/dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0") is None
    True
"""

from __future__ import annotations

import glob
import os
import re
import stat
from typing import Any

from .texts import T

CLASSES = ("ttyS", "ttyAMA", "ttyGS", "ttyUSB", "ttyACM")
"""The kernel's serial tty classes the link may use (the systemd unit allows the same)."""

_TTY = re.compile(r"/dev/(?:ttyS|ttyAMA|ttyGS|ttyUSB|ttyACM)[0-9]{1,3}")
_ALIAS = re.compile(r"/dev/serial[01]|/dev/serial/by-id/[A-Za-z0-9._:+@=,-]{1,120}")

WANT = T(
    "give /dev/ttyGS0, /dev/ttyS*, /dev/ttyAMA*, /dev/ttyUSB*, /dev/ttyACM*, /dev/serial0,"
    " /dev/serial1 or /dev/serial/by-id/..."
)
"""The ports the link takes, said in every refusal (a text the laptop translates)."""

ROOT = "/"
"""Where /dev is looked up. Tests point it at a folder with device nodes of their own."""


def name_problem(path: Any) -> str | None:
    """Why `path` does not name a serial port, from the name alone (None when it does)."""
    if not isinstance(path, str) or not path.strip() or len(path) > 200:
        return T("must be the path of a serial device ({want})", want=WANT)
    if _TTY.fullmatch(path) or (_ALIAS.fullmatch(path) and not path.endswith("/..")):
        return None
    return T("{path!r} is not a serial device ({want})", path=path[:60], want=WANT)


def port_problem(path: Any, *, absent_ok: bool = False) -> str | None:
    """Why `path` is not a serial port that is there now (None when it is one).

    The name must be of a serial class; what it leads to (links followed) must be a
    character device of a serial class. `absent_ok` lets a well-named port that is not
    there yet pass (the gadget port appears only once the USB side is up).
    """
    problem = name_problem(path)
    if problem is not None:
        return problem
    real = _resolve(path)
    if real is None:
        return T("{path!r} leads outside /dev ({want})", path=path[:60], want=WANT)
    try:
        mode = os.stat(_local(real)).st_mode
    except FileNotFoundError:
        if absent_ok and not os.path.lexists(_local(path)):
            return None
        return T("{path!r} is not there: no such serial device now", path=path[:60])
    except OSError as exc:
        return T("{path!r} cannot be looked at: {why}", path=path[:60], why=exc.strerror)
    if not _TTY.fullmatch(real):
        return T(
            "{path!r} leads to {real!r}, which is not a serial device ({want})",
            path=path[:60], real=real[:60], want=WANT,
        )  # fmt: skip
    if not stat.S_ISCHR(mode):
        return T("{path!r} is not a serial device: not a character device", path=path[:60])
    return None


def available() -> list[str]:
    """The serial ports there now, each under the name to choose it by: /dev/serial0 and
    1, the by-id names, then the ttys of the serial classes, each group sorted."""
    dev = _local("/dev")
    found: list[str] = []
    for pattern in ("serial[01]", "serial/by-id/*", *(f"{c}[0-9]*" for c in CLASSES)):
        names = sorted(glob.glob(os.path.join(dev, pattern)))
        found.extend("/dev/" + os.path.relpath(name, dev) for name in names)
    return [p for p in found if port_problem(p) is None]


def _local(path: str) -> str:
    """`path` (absolute, under /dev) in the tree at ROOT."""
    return os.path.join(ROOT, path.lstrip("/"))


def _resolve(path: str) -> str | None:
    """What `path` leads to, links followed, as a path under ROOT's /dev (None outside)."""
    real = os.path.realpath(_local(path))
    rel = os.path.relpath(real, os.path.realpath(ROOT))
    if rel.startswith(".."):
        return None
    return "/" + rel
