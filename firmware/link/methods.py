"""The link's method table and the device interface it needs (LinkDevice).

Every method takes named parameters, checks them strictly (an unknown or mistyped
parameter is INVALID_PARAMS naming it), and answers a JSON object. Data lives in the
Store (thread-safe, every write one transaction); live things (screen, spinner,
hardware) come from the device object, whose methods must return at once: the link
thread calls them while the game loop runs. docs/protocol.md shows every method.

The methods in GUARDED change or delete data or connectivity: with an admin PIN set
they need it. Each checks its parameters and that what it names exists first, then
the PIN (admin.PinGuard: back-off and lockout, refused at once), then acts, so no
answer but success tells a right PIN from a wrong one. In safe mode (the store is
faulty) only SAFE_MODE_METHODS are served.
"""

from __future__ import annotations

import base64
import binascii
import difflib
import hashlib
import hmac
import sqlite3
import threading
import unicodedata
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from .. import admin, boards, draws, ratings, settings
from ..games import catalog
from ..records import RecordError
from ..store import (
    RESTORE_BYTES_MAX,
    NameChange,
    Store,
    backup_bytes,
    kept_backup_bytes,
    kept_backups,
    text_problem,
)
from ..texts import T, Text, text_of
from .protocol import (
    DEVICE_ERROR,
    INVALID_PARAMS,
    METHOD_NOT_FOUND,
    NOT_FOUND,
    PIN_LOCKED,
    PIN_REQUIRED,
    PROTOCOL_VERSION,
    RECORDS_MAX,
    VALIDATION_ERROR,
    WRONG_PIN,
    RpcError,
)

PIN_SETTING = admin.PIN_SETTING
SERIAL_SETTING = "serial.port"
NAME_MAX = 16
"""The longest player name the device accepts (it must fit the 128-pixel screen)."""
NAMES_PER_CALL = 32
"""names.add takes at most this many names (the store keeps store.NAMES_MAX)."""
BOARDS_PER_CALL = 16
"""boards.put takes at most this many boards (a game keeps store.BOARDS_MAX)."""
ID_MAX = 2**53
"""Integers on the link lie within ±ID_MAX (what every JSON reader keeps exact)."""
RESTORE_CHUNK_MAX = 48 * 1024
"""backup.restore's "data" per call, in bytes before base64 (the line cap is 64 KiB)."""

GUARDED = frozenset(
    {
        "settings.set",
        "boards.put",
        "boards.delete",
        "bestenliste.reset",
        "records.delete",
        "names.add",
        "names.delete",
        "names.rename",
        "spinner.calibrate",
        "backup.get",
        "backup.restore",
    }
)
"""The methods that need the admin PIN once one is set (docs/protocol.md lists them)."""

SAFE_MODE_METHODS = frozenset(
    {"hello", "screen", "records.list", "records.get", "backup.get", "backup.restore"}
)
"""What the link serves while the store is faulty (safe mode)."""


class LinkDevice(Protocol):
    """What the app gives the link. Every method must be quick and thread-safe."""

    store: Store

    def hello(self) -> dict[str, Any]:
        """{"firmware": version, "hardware": {part: what was found}, "uptime_s": seconds,
        "game": the current game's name or None}; more keys are passed on."""
        ...

    def screen(self) -> tuple[bytes, dict[str, Any]]:
        """The frame on the display now as PNG bytes (128x64) and a short summary of
        the game state (plain JSON data)."""
        ...

    def settings_changed(self, settings: dict[str, Any]) -> None:
        """Settings were changed from the laptop; apply what is live (e.g. contrast)."""
        ...

    def spinner_read(self) -> dict[str, Any]:
        """The spinner now (angle, sector, source ...); raise to report no sensor."""
        ...

    def spinner_calibrate(self, params: dict[str, Any], check_only: bool = False) -> dict[str, Any]:
        """Calibrate the spinner with `params`; raise ValueError for bad params. With
        `check_only` nothing changes: the params are only checked."""
        ...


Handler = Callable[["Methods", dict[str, Any]], Any]
_TABLE: dict[str, Handler] = {}


def method(name: str) -> Callable[[Handler], Handler]:
    """Register a handler under its wire name."""

    def register(handler: Handler) -> Handler:
        _TABLE[name] = handler
        return handler

    return register


def method_names() -> list[str]:
    """Every method the link serves."""
    return sorted(_TABLE)


# --- parameter checks ------------------------------------------------------
_TYPE_WORDS = {str: T("a string"), int: T("an integer"), dict: T("an object"), list: T("a list")}


def _type_word(want: type) -> str:
    return _TYPE_WORDS.get(want, want.__name__)


def _params(
    params: Mapping[str, Any],
    required: Mapping[str, type] | None = None,
    optional: Mapping[str, type] | None = None,
) -> dict[str, Any]:
    """The named parameters, checked for presence and type; INVALID_PARAMS names the bad one."""
    required = required or {}
    optional = optional or {}
    for key in params:
        if key not in required and key not in optional:
            raise RpcError(
                INVALID_PARAMS,
                T("invalid params: unknown parameter {key!r}", key=key),
                {"path": key},
            )
    for key in required:
        if key not in params:
            raise RpcError(
                INVALID_PARAMS, T("invalid params: {key!r} is missing", key=key), {"path": key}
            )
    for key, value in params.items():
        want = required.get(key) or optional[key]
        if not isinstance(value, want) or (want is int and isinstance(value, bool)):
            raise RpcError(
                INVALID_PARAMS,
                T("invalid params: {key!r} must be {kind}", key=key, kind=_type_word(want)),
                {"path": key},
            )
        if isinstance(value, int) and not -ID_MAX <= value <= ID_MAX:
            raise RpcError(
                INVALID_PARAMS, T("invalid params: {key!r} is out of range", key=key), {"path": key}
            )
    return dict(params)


def _validation(path: str, message: str | Exception) -> RpcError:
    """A refused value; the message starts with its path (none for the whole value). A
    `message` written as a Text (or an exception that says one) goes to the laptop's
    catalog whole; plain English stays English."""
    said = text_of(message)
    message = str(message)
    if said is None:
        text = f"{path}: {message}" if path else message
    else:
        text = T("{path}: {why}", path=path, why=said) if path else said
    return RpcError(VALIDATION_ERROR, text, {"path": path, "message": message})


def _texts(values: Mapping[str, Any]) -> dict[str, Any]:
    """The values that are texts (texts.T), each as the laptop's catalog reads it: a
    result's prose as its sibling `…_text` (docs/protocol.md)."""
    return {k: v.to_json() for k, v in values.items() if isinstance(v, Text)}


def _public(values: Mapping[str, Any]) -> dict[str, Any]:
    """Settings as the laptop sees them: the admin PIN is never sent."""
    return {k: v for k, v in values.items() if k != PIN_SETTING}


class Methods:
    """The method table bound to one device; `call` is the server's dispatch.

    The device may bring its own `pin_guard` (safe mode does); else the PIN is the
    store's. A device whose `fault` is set is in safe mode.
    """

    def __init__(self, device: LinkDevice) -> None:
        self.device = device
        guard = getattr(device, "pin_guard", None)
        self.guard: admin.PinGuard = guard if guard is not None else admin.PinGuard(device.store)
        self._upload = bytearray()
        self._upload_sha = ""
        self._upload_pin: str | None = None
        self._upload_lock = threading.Lock()

    @property
    def store(self) -> Store:
        store = self.device.store
        if store is None:
            raise RpcError(
                DEVICE_ERROR, T("safe mode: the store cannot be read ({fault})", fault=self.fault())
            )
        return store

    def fault(self) -> str | None:
        """The store's fault in safe mode (None when the box runs normally)."""
        fault = getattr(self.device, "fault", None)
        return None if fault is None else str(fault)

    def call(self, name: str, params: dict[str, Any]) -> Any:
        handler = _TABLE.get(name)
        if handler is None:
            raise RpcError(
                METHOD_NOT_FOUND,
                T("method not found: {name!r}", name=name[:60]),
                {"methods": method_names()},
            )
        fault = self.fault()
        if fault is not None and name not in SAFE_MODE_METHODS:
            raise RpcError(
                DEVICE_ERROR,
                T(
                    "safe mode ({fault}): the box serves only {methods}",
                    fault=fault,
                    methods=", ".join(sorted(SAFE_MODE_METHODS)),
                ),
                {"fault": fault},
            )
        return handler(self, params)

    def check_pin(self, given: Any) -> None:
        """Refuse unless no admin PIN is set or `given` is it (with back-off, at once)."""
        try:
            self.guard.check(given)
        except admin.PinRefused as refused:
            if refused.kind == "required":
                raise RpcError(PIN_REQUIRED, refused.message) from None
            if refused.kind == "wait":
                raise RpcError(
                    PIN_LOCKED, refused.message, {"retry_after_s": refused.wait_s}
                ) from None
            raise RpcError(WRONG_PIN, refused.message, {"retry_after_s": refused.wait_s}) from None

    def pin_set(self) -> bool:
        return bool(self.guard.store.setting(PIN_SETTING))

    def live(self, name: str, *args: Any) -> Any:
        """Call a device method; its failures become DEVICE_ERROR (ValueError: VALIDATION_ERROR)."""
        call = getattr(self.device, name, None)
        if call is None:
            raise RpcError(DEVICE_ERROR, T("this box's software has no {name} yet", name=name))
        try:
            return call(*args)
        except RpcError:
            raise
        except ValueError as exc:
            raise _validation(str(getattr(exc, "path", "params")), exc) from exc
        except Exception as exc:
            raise RpcError(DEVICE_ERROR, T("device: {why}", why=exc)) from exc


# --- hello ------------------------------------------------------------------
@method("hello")
def _hello(m: Methods, params: dict[str, Any]) -> dict[str, Any]:
    _params(params)
    found = m.live("hello")
    return {
        **found,
        "protocol": PROTOCOL_VERSION,
        "methods": method_names(),
        "pin_set": m.pin_set(),
        "fault": found.get("fault"),
    }


# --- settings ---------------------------------------------------------------
@method("settings.get")
def _settings_get(m: Methods, params: dict[str, Any]) -> dict[str, Any]:
    _params(params)
    return {
        "settings": _public(m.store.settings()),
        "defaults": _public(settings.defaults()),
        "help": _public({k: s.help for k, s in settings.SETTINGS.items()}),
        "help_text": _public(_texts({k: s.help for k, s in settings.SETTINGS.items()})),
        "pin_set": m.pin_set(),
    }


@method("settings.set")
def _settings_set(m: Methods, params: dict[str, Any]) -> dict[str, Any]:
    p = _params(params, {"changes": dict}, {"pin": str})
    try:
        settings.validate(p["changes"])
    except settings.SettingsError as exc:
        raise _validation(exc.key, exc.message) from exc
    m.check_pin(p.get("pin"))
    old_port = m.store.setting(SERIAL_SETTING)
    try:
        new = m.store.set_settings(p["changes"])
    except settings.SettingsError as exc:
        raise _validation(exc.key, exc.message) from exc
    result: dict[str, Any] = {"settings": _public(new), "pin_set": bool(new[PIN_SETTING])}
    if new[SERIAL_SETTING] != old_port:
        result["warning"] = T(
            "{setting} takes effect when the box starts again; a port that does not"
            " open within seconds then falls back to the default",
            setting=SERIAL_SETTING,
        )
    try:
        m.device.settings_changed(new)
    except Exception as exc:
        result["warning"] = T("stored, but the device could not apply it now: {why}", why=exc)
    if "warning" in result:  # for the laptop's catalog, as an error's data["text"]
        result["warning_text"] = result["warning"].to_json()
    return result


# --- boards -----------------------------------------------------------------
def _board_kind(game: str) -> boards.BoardKind:
    try:
        return boards.kind(game)
    except boards.BoardError as exc:
        raise RpcError(NOT_FOUND, text_of(exc) or exc.message, {"path": "game"}) from exc


@method("boards.list")
def _boards_list(m: Methods, params: dict[str, Any]) -> dict[str, Any]:
    p = _params(params, optional={"game": str})
    games = [p["game"]] if "game" in p else sorted(boards.kinds())
    listed = []
    for game in games:
        shipped = set(_board_kind(game).defaults())
        uploaded = set(m.store.uploaded_boards(game))
        for name in sorted(shipped | uploaded):
            listed.append(
                {
                    "game": game,
                    "name": name,
                    "shipped": name in shipped,
                    "uploaded": name in uploaded,
                }
            )
    return {"boards": listed}


@method("boards.get")
def _boards_get(m: Methods, params: dict[str, Any]) -> dict[str, Any]:
    p = _params(params, {"game": str, "name": str})
    _board_kind(p["game"])
    found = m.store.boards(p["game"])
    if p["name"] not in found:
        raise RpcError(
            NOT_FOUND,
            T("no board {name!r} for {game}", name=p["name"], game=p["game"]),
            {"path": "name"},
        )
    return {"game": p["game"], "name": p["name"], "board": found[p["name"]]}


@method("boards.put")
def _boards_put(m: Methods, params: dict[str, Any]) -> dict[str, Any]:
    p = _params(params, {"game": str, "boards": dict}, {"pin": str})
    _board_kind(p["game"])
    if not p["boards"]:
        raise _validation("boards", T("no boards given"))
    if len(p["boards"]) > BOARDS_PER_CALL:
        raise _validation("boards", T("at most {count} boards per call", count=BOARDS_PER_CALL))
    try:
        m.store.check_boards(p["game"], p["boards"])
    except boards.BoardError as exc:
        raise _validation(exc.path, exc.message) from exc
    m.check_pin(p.get("pin"))
    try:
        m.store.put_boards(p["game"], p["boards"])
    except boards.BoardError as exc:
        raise _validation(exc.path, exc.message) from exc
    return {"game": p["game"], "stored": sorted(p["boards"])}


@method("boards.delete")
def _boards_delete(m: Methods, params: dict[str, Any]) -> dict[str, Any]:
    p = _params(params, {"game": str, "name": str}, {"pin": str})
    _board_kind(p["game"])
    if p["name"] in m.store.uploaded_boards(p["game"]):
        m.check_pin(p.get("pin"))
    if not m.store.delete_board(p["game"], p["name"]):
        raise RpcError(
            NOT_FOUND,
            T(
                "no uploaded board {name!r} for {game} (shipped boards stay)",
                name=p["name"],
                game=p["game"],
            ),
            {"path": "name"},
        )
    return {"game": p["game"], "deleted": p["name"]}


# --- Bestenliste --------------------------------------------------------------
HISTORY_NAME_MAX = 64
"""bestenliste.get's `history` names one player (a stored name has at most 64 characters)."""


def _game(name: str) -> str:
    if name not in catalog.names():
        known = ", ".join(catalog.names()) or "none"
        close = difflib.get_close_matches(name, catalog.names(), n=1, cutoff=0.6)
        text = (
            T("unknown game {name!r} (did you mean {close}?); known: {known}",
              name=name, close=close[0], known=known)
            if close
            else T("unknown game {name!r}; known: {known}", name=name, known=known)
        )  # fmt: skip
        raise RpcError(NOT_FOUND, text, {"path": "game"})
    return name


@method("bestenliste.get")
def _bestenliste_get(m: Methods, params: dict[str, Any]) -> dict[str, Any]:
    p = _params(params, optional={"game": str, "history": str})
    games = [_game(p["game"])] if "game" in p else catalog.names()
    wanted = p.get("history")
    if wanted is not None and not 0 < len(wanted) <= HISTORY_NAME_MAX:
        raise _validation("history", T("a name of 1 to {most} characters", most=HISTORY_NAME_MAX))
    answer: dict[str, Any] = {
        "bestenliste": {},
        "points": {},
        "meaning": {},
        "meaning_text": {},
        "lowest_first": {},
    }
    if wanted is not None:
        answer["history"] = {}
    for game in games:
        try:
            entry = catalog.entry(game)
            meaning, lowest = entry.bestenliste, entry.bestenliste_lowest_first
        except catalog.UnknownGame:
            meaning, lowest = "", False
        answer["meaning"][game] = meaning
        if isinstance(meaning, Text):
            answer["meaning_text"][game] = meaning.to_json()
        answer["lowest_first"][game] = lowest
        answer["bestenliste"][game] = [
            {"place": line.place, "name": line.label, **_rated(line.rating)}
            for line in ratings.lines(m.store, game)
        ]
        answer["points"][game] = [
            {"place": s.place, "name": s.name, "points": s.points, "average": s.average,
             "matches": s.matches, "wins": s.wins}
            for s in ratings.points_lines(m.store, game)
        ]  # fmt: skip
        if wanted is not None:
            answer["history"][game] = [
                {"name": ratings.label(player, game), **_who(player), "steps": _steps(steps)}
                for player, steps in ratings.history(m.store, game, wanted)
            ]
    return answer


def _steps(steps: list[ratings.Step]) -> list[dict[str, Any]]:
    """A player's history: its rating after each of its matches."""
    return [
        {"record": s.record, "finished": s.finished, "mu": s.mu, "sigma": s.sigma,
         "rating": s.conservative, "place": s.place, "seats": s.seats}
        for s in steps
    ]  # fmt: skip


def _who(player: ratings.Player) -> dict[str, Any]:
    """What kind of player a line is: human, computer (with its level and bot version),
    table or game."""
    if player.kind == ratings.COMPUTER:
        return {"kind": player.kind, "level": player.name, "bot_version": player.version}
    return {"kind": player.kind}


def _rated(rating: ratings.Rating) -> dict[str, Any]:
    return {
        **_who(rating.player),
        "rating": rating.conservative,
        "mu": rating.mu,
        "sigma": rating.sigma,
        "matches": rating.matches,
        "wins": rating.wins,
        "new": rating.new,
    }


@method("bestenliste.reset")
def _bestenliste_reset(m: Methods, params: dict[str, Any]) -> dict[str, Any]:
    p = _params(params, optional={"game": str, "pin": str})
    game = _game(p["game"]) if "game" in p else None
    m.check_pin(p.get("pin"))
    return {"game": game, "removed": m.store.reset_bestenliste(game)}


# --- records ----------------------------------------------------------------
@method("records.list")
def _records_list(m: Methods, params: dict[str, Any]) -> dict[str, Any]:
    p = _params(params, optional={"limit": int})
    limit = p.get("limit", RECORDS_MAX)
    if not 1 <= limit <= RECORDS_MAX:
        raise _validation("limit", T("must be from 1 to {most}", most=RECORDS_MAX))
    return {
        "records": [
            {
                "id": r.id,
                "game": r.game,
                "seats": r.seats,
                "actions": r.actions,
                "started": r.started,
                "finished": r.finished,
                "abandoned": r.abandoned,
            }
            for r in m.store.records(limit)
        ]
    }


@method("records.get")
def _records_get(m: Methods, params: dict[str, Any]) -> dict[str, Any]:
    p = _params(params, {"id": int})
    try:
        record = m.store.record(p["id"])
    except KeyError:
        raise RpcError(NOT_FOUND, T("no record {id}", id=p["id"]), {"path": "id"}) from None
    except RecordError as exc:
        cause = f" ({exc.__cause__})" if exc.__cause__ is not None else ""
        why = T("{why}{cause}", why=exc, cause=cause) if cause else exc
        text = T("record {id} cannot be read: {why}", id=p["id"], why=why)
        raise RpcError(DEVICE_ERROR, text) from exc
    data = record.to_json()
    if not m.store.running(p["id"]):
        return {"record": data}
    # Nothing from which a draw can be computed leaves the box while the game runs: the
    # chance commitment does, its secret (sealed or not) never.
    data["meta"] = draws.public_chance(record.meta)
    try:
        entry = catalog.entry(record.game)
    except catalog.UnknownGame:
        return {"record": data}  # a game this box does not know: nobody plays it here
    # What no seat may know yet leaves the box only when the game is over.
    try:
        hidden = set(record.replay().secret_actions())
    except RecordError:
        hidden = set(range(len(record.actions)))  # cannot tell: give none of them
    if hidden:
        data["actions"] = [None if i in hidden else a for i, a in enumerate(record.actions)]
        data["withheld"] = entry.secret
    return {"record": data}


@method("records.delete")
def _records_delete(m: Methods, params: dict[str, Any]) -> dict[str, Any]:
    p = _params(params, {"id": int}, {"pin": str})
    try:
        m.store.record(p["id"])
    except KeyError:
        raise RpcError(NOT_FOUND, T("no record {id}", id=p["id"]), {"path": "id"}) from None
    if p["id"] == m.store.unfinished_record():
        # the game on the table (or the one "Partie fortsetzen?" offers) must keep its record
        raise _validation("id", T("this game is not over: finish or leave it on the box first"))
    m.check_pin(p.get("pin"))
    if not m.store.delete_record(p["id"]):
        raise RpcError(NOT_FOUND, T("no record {id}", id=p["id"]), {"path": "id"})
    return {"deleted": p["id"]}


# --- names ------------------------------------------------------------------
def _check_name(name: Any, path: str) -> str:
    """A player name the screen can show: its fonts have Latin-1's letters (ä, ß, é ...)."""
    if not isinstance(name, str):
        raise _validation(path, T("a name is a string"))
    name = unicodedata.normalize("NFC", name.strip())
    if not 1 <= len(name) <= NAME_MAX:
        raise _validation(path, T("a name has 1 to {most} characters", most=NAME_MAX))
    problem = text_problem(name)
    if problem:
        raise _validation(path, problem)
    return name


@method("names.list")
def _names_list(m: Methods, params: dict[str, Any]) -> dict[str, Any]:
    _params(params)
    return {"names": m.store.names()}


@method("names.add")
def _names_add(m: Methods, params: dict[str, Any]) -> dict[str, Any]:
    p = _params(params, {"names": list}, {"pin": str})
    if not 1 <= len(p["names"]) <= NAMES_PER_CALL:
        raise _validation("names", T("1 to {most} names per call", most=NAMES_PER_CALL))
    checked = [_check_name(n, f"names[{i}]") for i, n in enumerate(p["names"])]
    m.check_pin(p.get("pin"))
    m.store.remember_names(checked)
    return {"names": m.store.names()}


def _name_change(exc: NameChange, path: str) -> RpcError:
    if exc.why == "unknown":
        return RpcError(NOT_FOUND, text_of(exc) or str(exc), {"path": path})
    return _validation(path, exc)


@method("names.delete")
def _names_delete(m: Methods, params: dict[str, Any]) -> dict[str, Any]:
    """A name off the names the box offers; what it played stays (records, Bestenliste)."""
    p = _params(params, {"name": str}, {"pin": str})
    m.check_pin(p.get("pin"))
    try:
        m.store.delete_name(p["name"])
    except NameChange as exc:
        raise _name_change(exc, "name") from exc
    return {"deleted": p["name"], "names": m.store.names()}


@method("names.rename")
def _names_rename(m: Methods, params: dict[str, Any]) -> dict[str, Any]:
    """A player renamed everywhere (names, Bestenliste, the finished records' seats): onto
    a name that is there, the two are merged."""
    p = _params(params, {"old": str, "new": str}, {"pin": str})
    new = _check_name(p["new"], "new")
    m.check_pin(p.get("pin"))
    try:
        merged = m.store.rename_name(p["old"], new)
    except NameChange as exc:
        raise _name_change(exc, "new" if exc.why in ("same", "together") else "old") from exc
    return {"old": p["old"], "new": new, "merged": merged, "names": m.store.names()}


# --- screen and spinner -------------------------------------------------------
@method("screen")
def _screen(m: Methods, params: dict[str, Any]) -> dict[str, Any]:
    _params(params)
    png, summary = m.live("screen")
    return {"png": base64.b64encode(png).decode("ascii"), "summary": summary}


@method("spinner.read")
def _spinner_read(m: Methods, params: dict[str, Any]) -> dict[str, Any]:
    _params(params)
    return m.live("spinner_read")


@method("spinner.calibrate")
def _spinner_calibrate(m: Methods, params: dict[str, Any]) -> dict[str, Any]:
    given = dict(params)
    pin = given.pop("pin", None)
    if pin is not None and not isinstance(pin, str):
        raise RpcError(
            INVALID_PARAMS,
            T("invalid params: {key!r} must be {kind}", key="pin", kind=_type_word(str)),
            {"path": "pin"},
        )
    m.live("spinner_calibrate", dict(given), True)
    m.check_pin(pin)
    return m.live("spinner_calibrate", given)


# --- backups ----------------------------------------------------------------
@method("backup.get")
def _backup_get(m: Methods, params: dict[str, Any]) -> dict[str, Any]:
    p = _params(params, optional={"pin": str, "kept": int})
    if "kept" in p:
        return _kept_backup(m, p)
    store = m.store
    m.check_pin(p.get("pin"))
    running = [r.id for r in store.records(RECORDS_MAX) if store.running(r.id)]
    # A running game's record holds what no seat may know yet: it stays on the box.
    data = store.snapshot(leave_out=running)
    return {**backup_bytes(data), "left_out": running}


def _kept_backup(m: Methods, p: dict[str, Any]) -> dict[str, Any]:
    """One of the backups the box keeps (0 the newest): readable when the store is not."""
    data_dir = getattr(m.device, "data_dir", None)
    if data_dir is None:
        data_dir = m.store.path.parent
    kept = kept_backups(data_dir)
    if not 0 <= p["kept"] < len(kept):
        raise RpcError(
            NOT_FOUND,
            T(
                "the box keeps {count} backup(s): kept is 0 to {last}",
                count=len(kept),
                last=len(kept) - 1,
            ),  # fmt: skip
            {"path": "kept"},
        )
    m.check_pin(p.get("pin"))
    try:
        data, running = kept_backup_bytes(kept[p["kept"]])
    except sqlite3.Error as exc:
        name = kept[p["kept"]].name
        text = T("the backup {name} cannot be read: {why}", name=name, why=str(exc))
        raise RpcError(DEVICE_ERROR, text) from exc
    return {**backup_bytes(data), "left_out": running, "name": kept[p["kept"]].name}


@method("backup.restore")
def _backup_restore(m: Methods, params: dict[str, Any]) -> dict[str, Any]:
    """Upload a backup in parts (data, offset, size, sha256); the last part restores it."""
    p = _params(params, {"data": str, "offset": int, "size": int, "sha256": str}, {"pin": str})
    if not 1 <= p["size"] <= RESTORE_BYTES_MAX:
        raise _validation("size", T("a backup has 1 to {most} bytes", most=RESTORE_BYTES_MAX))
    try:
        chunk = base64.b64decode(p["data"], validate=True)
    except (binascii.Error, ValueError):
        raise _validation("data", T("data is base64")) from None
    if not 1 <= len(chunk) <= RESTORE_CHUNK_MAX:
        raise _validation("data", T("1 to {most} bytes per part", most=RESTORE_CHUNK_MAX))
    if len(p["sha256"]) != 64 or any(c not in "0123456789abcdef" for c in p["sha256"]):
        raise _validation("sha256", T("the backup's sha256 in 64 lowercase hex digits"))
    if p["offset"] + len(chunk) > p["size"]:
        raise _validation("offset", T("the part reaches past the size"))
    game = m.live("hello").get("game")
    if game is not None:
        raise _validation("", T("a game of {game} is on the box: leave it there first", game=game))
    with m._upload_lock:
        if p["offset"] == 0:
            m._upload = bytearray()
            m._upload_sha = p["sha256"]
            m._upload_pin = None
        elif p["offset"] != len(m._upload) or p["sha256"] != m._upload_sha:
            raise _validation(
                "offset", T("the box expects offset {offset}; start at 0", offset=len(m._upload))
            )
        given = p.get("pin")
        known = m._upload_pin
        if known is None or given is None or not hmac.compare_digest(given, known):
            m.check_pin(given)  # a part with the PIN the upload began with skips scrypt
            m._upload_pin = given
        m._upload += chunk
        if len(m._upload) < p["size"]:
            return {"received": len(m._upload), "size": p["size"], "restored": False}
        data, m._upload = bytes(m._upload), bytearray()
    if hashlib.sha256(data).hexdigest() != p["sha256"]:
        raise _validation("sha256", T("the parts do not add up to the backup's sha256"))
    restore = getattr(m.device, "restore_backup", None)
    try:
        if restore is not None:
            restore(data)
        else:
            m.store.restore(data)
    except ValueError as exc:
        # store.BackupError names the table, row and field (records[7].seats), "schema" or
        # "data"; the box's other refusals are about the backup as a whole
        path = str(getattr(exc, "path", "") or "data")
        said = getattr(exc, "message", None)
        raise _validation(path, said if isinstance(said, str) else exc) from exc
    return {"received": len(data), "size": p["size"], "restored": True}
