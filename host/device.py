"""The laptop end of the link: find the box, open its port, call methods.

The box is found by the USB identity in the pin map (pins.toml [usb]); --port (or the
environment variable SPIELLEITER_PORT) names any other port, e.g. a UART adapter or the
emulator's /dev/pts/N. Every failure is a HostError whose message tells the person at
the laptop what to do, and whose exit code tells a script what happened.

Example::

    with Device.open(port=None, timeout=5.0) as box:
        print(box.call("settings.get")["settings"])
"""

from __future__ import annotations

import argparse
import difflib
import errno
import getpass
import json
import os
import secrets
import sys
import time
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import serial
from serial.tools import list_ports
from spielleiter.link.protocol import (
    BAUDRATE,
    MAX_LINE,
    PIN_LOCKED,
    PIN_REQUIRED,
    PROTOCOL_VERSION,
    VALIDATION_ERROR,
    LineFramer,
    request_line,
)

from . import answers
from .i18n import _, box_text, ngettext

DEFAULT_TIMEOUT_S = 5.0
RESPONSE_LIMIT = 64 * 1024 * 1024
"""The longest answer line the host reads (a big record or a screen fits easily)."""
PORT_ENV = "SPIELLEITER_PORT"

# Exit codes: 1 the box refused the request, 2 usage (argparse), then one per failure.
EXIT_REFUSED = 1
EXIT_USAGE = 2
EXIT_NO_DEVICE = 3
EXIT_BUSY = 4
EXIT_TIMEOUT = 5
EXIT_PROTOCOL = 6
EXIT_INVALID = 7
EXIT_ANSWER = 8


class HostError(Exception):
    """A failure explained for people; `exit_code` for scripts. `details` go into the JSON
    error object under --json (e.g. what a check found in each file)."""

    exit_code = EXIT_REFUSED

    def __init__(self, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details or {}


class UsageError(HostError):
    """A wrong command line, or a file named on it that cannot be read or written."""

    exit_code = EXIT_USAGE


class InvalidError(HostError):
    """A value refused as invalid (a board or template file's content, a calibration
    parameter); the message names the field."""

    exit_code = EXIT_INVALID


class NoDeviceError(HostError):
    exit_code = EXIT_NO_DEVICE


class PortBusyError(HostError):
    exit_code = EXIT_BUSY


class NoAnswerError(HostError):
    exit_code = EXIT_TIMEOUT


class ProtocolError(HostError):
    exit_code = EXIT_PROTOCOL


class AnswerError(HostError):
    """The box answered something this tool does not expect: a result without the
    documented shape (answers.RESULTS), or an error that is no JSON-RPC error object."""

    exit_code = EXIT_ANSWER


class RemoteError(HostError):
    """The box answered with a JSON-RPC error: its message in the tool's language, where the
    box sent its text for the catalog (i18n.box_text), else as the box said it."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        text = data.get("text") if isinstance(data, dict) else None
        super().__init__(box_text(message, text))
        self.english = message
        """The box's own words, as they came (the message says them in the tool's language)."""
        self.code = code
        self.data = data
        self.exit_code = EXIT_INVALID if code == VALIDATION_ERROR else EXIT_REFUSED


@dataclass(frozen=True)
class UsbIdentity:
    """How the box announces itself on USB."""

    vendor_id: int
    product_id: int
    product: str

    def __str__(self) -> str:
        return f'{self.vendor_id:04x}:{self.product_id:04x} "{self.product}"'


def usb_identity() -> UsbIdentity:
    """The identity from the shipped pin map."""
    text = resources.files("spielleiter.hardware").joinpath("pins.toml").read_text("utf-8")
    usb = tomllib.loads(text)["usb"]
    return UsbIdentity(int(usb["vendor_id"]), int(usb["product_id"]), str(usb["product"]))


def find_port(identity: UsbIdentity | None = None) -> str:
    """The port of the one attached box; NoDeviceError for none or several."""
    identity = identity or usb_identity()
    found = [
        p.device
        for p in list_ports.comports()
        if p.vid == identity.vendor_id
        and p.pid == identity.product_id
        and (p.product is None or p.product == identity.product)
    ]
    if not found:
        raise NoDeviceError(
            _(
                "no Spielleiter box found (USB {identity}). Is it plugged in with a data cable"
                " and booted (about 30 s)? For a UART adapter or the emulator pass --port."
            ).format(identity=identity)
        )
    if len(found) > 1:
        raise NoDeviceError(
            _("several boxes found ({ports}): choose one with --port").format(
                ports=", ".join(sorted(found))
            )
        )
    return found[0]


def _open_serial(port: str) -> serial.Serial:
    try:
        return serial.serial_for_url(
            port, baudrate=BAUDRATE, timeout=0.05, write_timeout=2.0, exclusive=True
        )
    except (ValueError, KeyError, TypeError) as exc:  # a URL pyserial cannot read
        raise NoDeviceError(
            _("cannot open {port}: it is no port and no URL pyserial knows ({why})").format(
                port=port, why=exc
            )
        ) from None
    except serial.SerialException as exc:
        cause = exc.errno if isinstance(exc.errno, int) else None
        text = str(exc)
        windows_busy = sys.platform == "win32" and "denied" in text.lower()
        if cause == errno.EBUSY or windows_busy or "lock" in text.lower() or "busy" in text.lower():
            raise PortBusyError(
                _(
                    "{port} is busy: another program has it open (a serial terminal, another"
                    " spielleiter-host, or ModemManager; see docs/host.md for the udev rule)"
                ).format(port=port)
            ) from None
        if cause == errno.EACCES:
            raise PortBusyError(
                _(
                    "no permission to open {port}: install the udev rule (docs/host.md)"
                    " or add yourself to the dialout group"
                ).format(port=port)
            ) from None
        if cause == errno.ENOENT or "no such file" in text.lower():
            raise NoDeviceError(
                _("{port} does not exist: is the box plugged in?").format(port=port)
            ) from None
        if cause in (errno.ENOTTY, errno.EISDIR) or "inappropriate ioctl" in text.lower():
            raise NoDeviceError(
                _("{port} is not a serial port: name the box's port").format(port=port)
            ) from None
        raise NoDeviceError(_("cannot open {port}: {why}").format(port=port, why=text)) from None


class Device:
    """An open link to a box; `call` sends one request and waits for its answer."""

    def __init__(self, port: serial.Serial, name: str, timeout: float) -> None:
        self._port = port
        self.name = name
        self.timeout = timeout
        self._prefix = secrets.token_hex(3)
        self._counter = 0
        self._framer = LineFramer(RESPONSE_LIMIT)
        self._lines: list[bytes | None] = []
        self.hello: dict[str, Any] = {}

    @classmethod
    def open(cls, port: str | None = None, timeout: float = DEFAULT_TIMEOUT_S) -> Device:
        """Open `port` (or find the box), greet it and check its protocol version."""
        name = port or os.environ.get(PORT_ENV) or find_port()
        device = cls(_open_serial(name), name, timeout)
        try:
            device.greet()
        except BaseException:
            device.close()
            raise
        return device

    def greet(self) -> dict[str, Any]:
        """End any half line the box holds, then `hello`: check the protocol version, then
        the answer's shape (a box of another version may answer another shape)."""
        self._port.reset_input_buffer()
        self._port.write(b"\n")
        hello = self.request("hello")
        if not isinstance(hello, dict) or "protocol" not in hello:
            raise ProtocolError(
                _(
                    "the device on {port} does not speak the Spielleiter protocol"
                    " (its hello answer was {answer})"
                ).format(port=self.name, answer=json.dumps(hello)[:60])
            )
        theirs = hello["protocol"]
        if theirs != PROTOCOL_VERSION:
            raise ProtocolError(
                _(
                    "the box on {port} speaks link protocol {theirs!r}, this spielleiter-host"
                    " speaks {ours}: update the older one (pip install -U spielleiter"
                    " on the laptop, or the box's software)"
                ).format(port=self.name, theirs=theirs, ours=PROTOCOL_VERSION)
            )
        self.hello = checked("hello", hello)
        return self.hello

    def close(self) -> None:
        self._port.close()

    def __enter__(self) -> Device:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def call(self, method: str, **params: Any) -> Any:
        """The result of `method`, checked to have its documented shape (AnswerError when
        not); RemoteError when the box refuses, NoAnswerError if silent."""
        return checked(method, self.request(method, **params))

    def request(self, method: str, **params: Any) -> Any:
        """The result of `method` as it came (RemoteError, NoAnswerError as for `call`)."""
        self._counter += 1
        request_id = f"{self._prefix}-{self._counter}"
        try:
            line = request_line(method, params, request_id)
        except ValueError as exc:  # NaN or infinity: not JSON
            raise UsageError(
                _("{method}: cannot send {what}").format(method=method, what=exc)
            ) from None
        if len(line) - 1 > MAX_LINE:
            raise UsageError(
                _(
                    "{method}: the request is {size} bytes; the box reads lines of at"
                    " most {limit} bytes (send less at once)"
                ).format(method=method, size=len(line) - 1, limit=MAX_LINE)
            )
        try:
            self._port.write(line)
        except serial.SerialTimeoutException:
            raise NoAnswerError(
                _("{port} does not take data: is the box running?").format(port=self.name)
            ) from None
        except serial.SerialException as exc:
            raise NoDeviceError(_("lost {port}: {why}").format(port=self.name, why=exc)) from None
        return self._await(request_id, method)

    def _await(self, request_id: str, method: str) -> Any:
        deadline = time.monotonic() + self.timeout
        strange: bytes | None = None
        while True:
            line = self._next_line(deadline)
            if line is None:
                if strange is not None:
                    raise ProtocolError(
                        _(
                            "the device on {port} does not speak the Spielleiter protocol"
                            " (it said {said!r})"
                        ).format(port=self.name, said=strange[:60])
                    )
                raise NoAnswerError(
                    _(
                        "no answer from {port} to {method} within {seconds:g} s:"
                        " is the Spielleiter program running on the box?"
                    ).format(port=self.name, method=method, seconds=self.timeout)
                )
            try:
                message = json.loads(line)
            except ValueError:
                strange = strange or line
                continue
            if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
                strange = strange or line
                continue
            if "result" not in message and "error" not in message:
                strange = strange or line  # an echo of our request, or a request to us
                continue
            if message.get("id") is None and "error" in message:
                # the box could not read our request (too long, not JSON ...): it answers
                # with id null, and that answer is ours, as nothing else is in flight
                code, text, data = rpc_error(method, message["error"])
                if isinstance(data, dict):  # its text is said inside this one
                    text = box_text(text, data.get("text"))
                    data = {k: v for k, v in data.items() if k != "text"}
                raise RemoteError(
                    code,
                    _("the box could not read the {method} request: {why}").format(
                        method=method, why=text
                    ),
                    data,
                )
            if message.get("id") != request_id:
                continue  # an answer to an earlier session's request
            if "error" in message:
                raise RemoteError(*rpc_error(method, message["error"]))
            return message.get("result")

    def _next_line(self, deadline: float) -> bytes | None:
        """The next complete line, or None at the deadline."""
        while not self._lines:
            if time.monotonic() >= deadline:
                return None
            try:
                data = self._port.read(max(1, self._port.in_waiting))
            except serial.SerialException as exc:
                raise NoDeviceError(
                    _("lost {port}: {why}").format(port=self.name, why=exc)
                ) from None
            if data:
                self._lines.extend(self._framer.feed(data))
        line = self._lines.pop(0)
        return line if line is not None else b"(overlong line)"


def checked(method: str, result: Any) -> Any:
    """`result` when it has the shape docs/protocol.md gives `method`, else AnswerError
    naming the method and the field."""
    if method in answers.RESULTS:
        problem = answers.problem(method, result)
        if problem is not None:
            raise AnswerError(
                _("the box answered {method} with {problem}").format(method=method, problem=problem)
            )
    return result


def rpc_error(method: str, error: Any) -> tuple[int, str, Any]:
    """(code, message, data) of a JSON-RPC error object; AnswerError showing what came
    when it is none (not an object, no integer code, no message)."""
    if (
        isinstance(error, dict)
        and isinstance(error.get("code"), int)
        and not isinstance(error.get("code"), bool)
        and isinstance(error.get("message"), str)
    ):
        return error["code"], error["message"], error.get("data")
    came = json.dumps(error, ensure_ascii=False)
    came = came if len(came) <= 200 else came[:200] + "..."
    raise AnswerError(
        _(
            "the box answered {method} with an error that is not a JSON-RPC error object: {came}"
        ).format(method=method, came=came)
    )


# --- what every command shares ------------------------------------------------
def seconds(text: str) -> float:
    """An argparse type: more than 0 and at most an hour of seconds (--interval, --timeout)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{text!r} is not a number of seconds").format(text=text)
        ) from None
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(
            _("{text} s: give more than 0 and at most 3600").format(text=text)
        )
    return value


def whole_number(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number of at least `minimum` (--games, --jobs ...), and at
    most `maximum` where one is given (--limit, --kept)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                _("{text!r} is not a whole number").format(text=text)
            ) from None
        if maximum is not None and not minimum <= value <= maximum:
            raise argparse.ArgumentTypeError(
                _("from {minimum} to {maximum}, not {value}").format(
                    minimum=minimum, maximum=maximum, value=value
                )
            )
        if value < minimum:
            raise argparse.ArgumentTypeError(
                _("at least {minimum}, not {value}").format(minimum=minimum, value=value)
            )
        return value

    return parse


def png_file(text: str) -> Path:
    """An argparse type: the path of a PNG picture to write (--png), its name ending in
    .png in any case, so a mistyped suffix is refused before the box is asked."""
    path = Path(text)
    if path.suffix.lower() != ".png":
        raise argparse.ArgumentTypeError(
            _("a .png file, not {name!r}").format(name=path.name or text)
        )
    return path


def did_you_mean(name: str, known: Iterable[Any]) -> str:
    """ " (did you mean X?)" for a mistyped name, or "" when nothing is close."""
    close = difflib.get_close_matches(name, [str(k) for k in known], n=1, cutoff=0.6)
    return _(" (did you mean {name}?)").format(name=close[0]) if close else ""


def add_connection_args(parser: argparse.ArgumentParser) -> None:
    """--port, --timeout and --json, on every command that talks to the box."""
    parser.add_argument(
        "--port",
        help=_("serial port or pyserial URL (default: ${variable}, else found by USB id)").format(
            variable=PORT_ENV
        ),
    )
    parser.add_argument(
        "--timeout",
        metavar=_("SECONDS"),
        type=seconds,
        default=DEFAULT_TIMEOUT_S,
        help=_("seconds to wait for an answer"),
    )
    parser.add_argument(
        "--json", action="store_true", help=_("print JSON for scripts (the same in every language)")
    )


def run_with_device(args: argparse.Namespace, body: Callable[[Device], int | None]) -> int:
    """Open the box, run a command body, and turn failures into a message and exit code."""
    try:
        with Device.open(args.port, args.timeout) as box:
            return int(body(box) or 0)
    except HostError as exc:
        return report(exc)
    except BrokenPipeError:  # the output went to `head` or similar, which has had enough
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def until_interrupted(step: Callable[[], None], interval: float) -> int:
    """Repeat `step` every `interval` seconds until Ctrl-C, the usual way to end it (0)."""
    try:
        while True:
            step()
            time.sleep(interval)
    except KeyboardInterrupt:
        print()
        return 0


def read_json(path: Path) -> Any:
    """A JSON file named on the command line; UsageError when it cannot be read."""
    try:
        return json.loads(path.read_text("utf-8"))
    except OSError as exc:
        raise UsageError(
            _("cannot read {path}: {why}").format(path=path, why=exc.strerror or exc)
        ) from None
    except UnicodeDecodeError:
        raise UsageError(_("cannot read {path}: it is not UTF-8 text").format(path=path)) from None
    except ValueError as exc:
        raise UsageError(_("{path} is not JSON: {why}").format(path=path, why=exc)) from None


def write_file(path: Path, data: bytes) -> None:
    """Save a download whole or not at all: into a new file beside it that then takes its
    name, so a full disk or a Ctrl-C leaves no half file and keeps the file that was there,
    with its permissions (a link's target is written; a device or a pipe, `-o /dev/stdout`,
    as it is). UsageError when the file cannot be written."""
    try:
        if path.exists() and not path.is_file():
            path.write_bytes(data)
            return
        target = path.resolve() if path.is_symlink() else path
        part = target.with_name(f".{target.name}.{os.getpid()}.part")
        try:
            with part.open("xb") as out:
                out.write(data)
            if target.exists():
                part.chmod(target.stat().st_mode & 0o7777)
            os.replace(part, target)
        finally:
            part.unlink(missing_ok=True)
    except OSError as exc:
        raise UsageError(
            _("cannot write {path}: {why}").format(path=path, why=exc.strerror or exc)
        ) from None


JSON_ERRORS = False
"""Set by the command line under --json: errors come as a JSON object on stdout too."""


def report(exc: HostError, code: int | None = None) -> int:
    """Tell the person what went wrong (and a script, as JSON under --json); the exit code
    (`code` instead of the error's own)."""
    exit_code = exc.exit_code if code is None else code
    text = " ".join(describe(exc).splitlines())  # one line, whatever the message holds
    print(f"spielleiter-host: {text}", file=sys.stderr)
    if JSON_ERRORS:
        answer = {**exc.details, "error": text, "exit_code": exit_code}
        print(json.dumps(answer, ensure_ascii=False))
    return exit_code


def describe(exc: HostError) -> str:
    """The message, with the bad field named for validation errors."""
    if isinstance(exc, RemoteError) and exc.code == VALIDATION_ERROR:
        return _("refused: {why}").format(why=exc.message)
    if isinstance(exc, RemoteError) and exc.code == PIN_REQUIRED:
        return _("an admin PIN is set: give it with --pin")
    if isinstance(exc, RemoteError) and exc.code == PIN_LOCKED:
        return _(
            "{why} (too many wrong PINs; at the box, Einstellungen → Admin-PIN resets)"
        ).format(why=pin_wait(exc) or exc.message)
    return exc.message


BACKING_OFF = "PIN calls backing off after {failures} wrong PIN(s): wait {seconds} s"
LOCKED = "PIN calls locked after {failures} wrong PIN(s): wait {seconds} s"
"""The box's texts for a PIN call that must wait (firmware/admin.py), which `pin_wait`
says with the count in the singular or the plural."""


def pin_wait(exc: RemoteError) -> str | None:
    """The box's wait after wrong PINs, the count in the singular or the plural ("after 1
    wrong PIN"), in the tool's language; None for any other text (a newer box's)."""
    text = exc.data.get("text") if isinstance(exc.data, dict) else None
    if not isinstance(text, dict) or not isinstance(text.get("args"), dict):
        return None
    args = text["args"]
    failures, seconds = args.get("failures"), args.get("seconds")
    if not isinstance(failures, int) or not isinstance(seconds, int | float):
        return None
    if text.get("id") == BACKING_OFF:
        said = ngettext(
            "PIN calls backing off after {failures} wrong PIN: wait {seconds} s",
            "PIN calls backing off after {failures} wrong PINs: wait {seconds} s",
            failures,
        )
    elif text.get("id") == LOCKED:
        said = ngettext(
            "PIN calls locked after {failures} wrong PIN: wait {seconds} s",
            "PIN calls locked after {failures} wrong PINs: wait {seconds} s",
            failures,
        )
    else:
        return None
    return said.format(failures=failures, seconds=seconds)


def add_pin_arg(parser: argparse.ArgumentParser) -> None:
    """--pin on a command that changes data on the box."""
    parser.add_argument("--pin", help=_("the admin PIN, once one is set (asked for at a terminal)"))


def call_with_pin(box: Device, method: str, pin: str | None, **params: Any) -> Any:
    """Call a PIN-protected method; ask for the PIN at a terminal when the box wants one."""
    if pin is not None:
        return box.call(method, pin=pin, **params)
    try:
        return box.call(method, **params)
    except RemoteError as exc:
        if exc.code != PIN_REQUIRED or not sys.stdin.isatty():
            raise
        wanted = exc
    pin = ask_pin()
    if pin is None:  # Ctrl-D: no PIN given, as where there is no terminal to ask at
        raise wanted from None
    return box.call(method, pin=pin, **params)


def ask_pin() -> str | None:
    """The admin PIN typed at the terminal, or None at Ctrl-D. An empty answer is asked
    again: sent, it would only cost one of the box's tries before it backs off."""
    while True:
        try:
            pin = getpass.getpass(_("admin PIN: "))
        except EOFError:
            print(file=sys.stderr)  # the prompt's line ends before what follows
            return None
        if pin.strip():
            return pin
