"""The wire format of the laptop link: JSON-RPC 2.0, one UTF-8 JSON object per line.

Both ends use this module: the device's server and spielleiter-host. A line ends at
"\\n" or "\\r" (so a modem manager's "AT\\r" probe is a line of its own); empty lines are
ignored. A line longer than MAX_LINE bytes is dropped and answered with an error. Only
single requests with named parameters (a JSON object) are served; a batch is refused.
The error codes below are documented in docs/protocol.md.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..texts import T, Text

PROTOCOL_VERSION = 1
"""Raised when a method or a result changes incompatibly; hello reports it."""

MAX_LINE = 64 * 1024
"""The longest request line the device reads, in bytes (without the line end)."""

BAUDRATE = 115200
"""For a UART; the USB gadget ignores it."""

RECORDS_MAX = 1000
"""The most records `records.list` sends at once (its `limit`: 1 to this)."""

CALIBRATE_ACTIONS = ("zero", "boundaries", "reset")
"""What `spinner.calibrate`'s "action" asks of the spinner (docs/spinner.md)."""
CALIBRATE_KEYS = ("action", "readings", "calibration")
"""The parameters `spinner.calibrate` takes; any other is refused."""


def calibration_problem(params: Any) -> tuple[str, str] | None:
    """What is wrong with `spinner.calibrate`'s parameters, as (field, why), before any
    reading is taken (None: the shape is right; the values are checked by the spinner)."""
    ways = "action=zero|boundaries|reset (boundaries with readings) or calibration"
    if not isinstance(params, dict):
        return "params", T("must be an object")
    for key in params:
        if key not in CALIBRATE_KEYS:
            return str(key), T("no such calibration parameter; want {ways}", ways=ways)
    action = params.get("action")
    if "calibration" in params:
        if action is not None:
            return "action", T("give action or calibration, not both; want {ways}", ways=ways)
    elif action not in CALIBRATE_ACTIONS:
        return "action", T(
            "{action!r} is not one of {actions}",
            action=action,
            actions=", ".join(CALIBRATE_ACTIONS),
        )
    if "readings" in params and action != "boundaries":
        return "readings", T("only with action=boundaries")
    return None


# JSON-RPC 2.0's own codes.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
# Spielleiter's codes.
VALIDATION_ERROR = 1
"""A value the device refuses; data = {"path": the bad field, "message": why}."""
NOT_FOUND = 2
"""No such record, board or game."""
PIN_REQUIRED = 3
"""The call changes protected data and an admin PIN is set: send "pin"."""
WRONG_PIN = 4
"""The "pin" sent is not the admin PIN."""
DEVICE_ERROR = 5
"""The device could not do it now (e.g. no spinner sensor, or safe mode)."""
PIN_LOCKED = 6
"""Too many wrong PINs: PIN calls are refused for a while; data = {"retry_after_s": n}."""


class RpcError(Exception):
    """An error answer: a JSON-RPC error object, raised wherever the request failed.

    A message written as a Text (texts.T) goes out as its English words in "message" and
    as its template and arguments in data's "text", for the laptop's catalog."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data

    def to_json(self) -> dict[str, Any]:
        err: dict[str, Any] = {"code": self.code, "message": str(self.message)}
        data = self.data
        if isinstance(self.message, Text) and (data is None or isinstance(data, dict)):
            data = {**(data or {}), "text": self.message.to_json()}
        if data is not None:
            err["data"] = data
        return err


@dataclass
class Request:
    """A well-formed request; `notification` when it carried no id (no answer is sent)."""

    method: str
    params: Any = field(default_factory=dict)
    """Named parameters; anything else is refused with INVALID_PARAMS when dispatched."""
    id: str | int | None = None
    notification: bool = False


def encode(message: dict[str, Any]) -> bytes:
    """One message as a line of UTF-8 JSON."""
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.encode("utf-8") + b"\n"


def request_line(method: str, params: dict[str, Any] | None, id: str | int) -> bytes:
    """A request as it goes over the wire."""
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "id": id}
    if params:
        message["params"] = params
    return encode(message)


def result_line(id: str | int | None, result: Any) -> bytes:
    return encode({"jsonrpc": "2.0", "id": id, "result": result})


def error_line(id: str | int | None, error: RpcError) -> bytes:
    return encode({"jsonrpc": "2.0", "id": id, "error": error.to_json()})


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"{text[:20]} is out of range")
    return value


def decode(line: bytes) -> Any:
    """A line's JSON value; RpcError(PARSE_ERROR) for invalid UTF-8 or invalid JSON."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RpcError(
            PARSE_ERROR, T("parse error: invalid UTF-8 at byte {byte}", byte=exc.start)
        ) from None
    try:
        return json.loads(text, parse_constant=_no_constants, parse_float=_finite)
    except (ValueError, RecursionError) as exc:
        raise RpcError(PARSE_ERROR, T("parse error: not JSON ({why})", why=_short(exc))) from None


def _short(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 80 else text[:77] + "..."


def _valid_id(value: Any) -> bool:
    return (
        value is None
        or isinstance(value, str)
        or (isinstance(value, int) and not isinstance(value, bool))
    )


def is_response(message: Any) -> bool:
    """True for a JSON-RPC response object (never answered: it would echo forever)."""
    return (
        isinstance(message, dict)
        and "method" not in message
        and ("result" in message or "error" in message)
    )


def parse_request(message: Any) -> Request:
    """A decoded line as a Request; RpcError(INVALID_REQUEST) when it is not one."""
    if isinstance(message, list):
        raise RpcError(INVALID_REQUEST, T("invalid request: batches are not supported"))
    if not isinstance(message, dict):
        raise RpcError(INVALID_REQUEST, T("invalid request: a request is a JSON object"))
    if message.get("jsonrpc") != "2.0":
        raise RpcError(INVALID_REQUEST, T('invalid request: "jsonrpc" must be "2.0"'))
    method = message.get("method")
    if not isinstance(method, str) or not method:
        raise RpcError(INVALID_REQUEST, T('invalid request: "method" must be a string'))
    if not _valid_id(message.get("id")):
        raise RpcError(INVALID_REQUEST, T('invalid request: "id" must be a string or an integer'))
    extra = set(message) - {"jsonrpc", "method", "params", "id"}
    if extra:
        raise RpcError(
            INVALID_REQUEST,
            T("invalid request: unknown member(s) {members}", members=sorted(extra)),
        )
    return Request(method, message.get("params", {}), message.get("id"), "id" not in message)


Dispatch = Callable[[str, dict[str, Any]], Any]


def answer(line: bytes, dispatch: Dispatch) -> bytes | None:
    """The answer to one request line (None when nothing is to be sent).

    Parse and request errors are answered with id null; a method's RpcError with the
    request's id; any other exception becomes INTERNAL_ERROR. Notifications and stray
    responses are not answered.
    """
    line = line.strip(b" \t")
    if not line:
        return None
    try:
        message = decode(line)
    except RpcError as err:
        return error_line(None, err)
    if is_response(message):
        return None
    try:
        request = parse_request(message)
    except RpcError as err:
        return error_line(None, err)
    try:
        if not isinstance(request.params, dict):
            raise RpcError(INVALID_PARAMS, T("invalid params: params must be an object (named)"))
        result = dispatch(request.method, request.params)
    except RpcError as err:
        return None if request.notification else error_line(request.id, err)
    except Exception as exc:  # a bug must not take the link down
        internal = RpcError(INTERNAL_ERROR, T("internal error: {why}", why=_short(exc)))
        return None if request.notification else error_line(request.id, internal)
    if request.notification:
        return None
    try:
        return result_line(request.id, result)
    except (TypeError, ValueError) as exc:
        internal = RpcError(INTERNAL_ERROR, T("internal error: {why}", why=_short(exc)))
        return error_line(request.id, internal)


_LINE_END = re.compile(rb"[\r\n]")


class LineFramer:
    """Cuts a byte stream into lines; a line over `limit` bytes is dropped whole.

    feed() returns the complete lines, with None standing for each dropped overlong
    line (so the reader can answer it once its end has arrived).
    """

    def __init__(self, limit: int = MAX_LINE) -> None:
        self.limit = limit
        self._buf = bytearray()
        self._skipping = False

    def feed(self, data: bytes) -> list[bytes | None]:
        *complete, rest = _LINE_END.split(data)
        lines: list[bytes | None] = []
        for chunk in complete:
            lines.extend(self._end_line(chunk))
        self._take(rest)
        return lines

    def _take(self, chunk: bytes) -> None:
        if self._skipping:
            return
        self._buf += chunk
        if len(self._buf) > self.limit:
            self._buf.clear()
            self._skipping = True

    def _end_line(self, chunk: bytes) -> list[bytes | None]:
        self._take(chunk)
        if self._skipping:
            self._skipping = False
            return [None]
        line = bytes(self._buf)
        self._buf.clear()
        return [line] if line else []


def overlong_line(limit: int = MAX_LINE) -> bytes:
    """The answer to a line longer than the limit."""
    return error_line(
        None,
        RpcError(
            INVALID_REQUEST,
            T("invalid request: line longer than {limit} bytes, dropped", limit=limit),
            {"limit": limit},
        ),
    )
