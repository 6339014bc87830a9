"""`spielleiter-host settings get|set`: the box's settings, validated on the box."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .device import (
    Device,
    HostError,
    InvalidError,
    UsageError,
    add_connection_args,
    call_with_pin,
    did_you_mean,
    read_json,
    report,
    run_with_device,
)
from .i18n import _, box_text
from .output import print_json, table


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("settings", help=_("show or change the box's settings"))
    sub = parser.add_subparsers(dest="action", metavar=_("ACTION"), required=True)
    get = sub.add_parser("get", help=_("show settings (all, or the keys named)"))
    get.add_argument(
        "keys", nargs="*", metavar=_("KEY"), help=_("e.g. clock.seconds (default: all)")
    )
    add_connection_args(get)
    get.set_defaults(func=settings_get)
    put = sub.add_parser("set", help=_("change settings, all or nothing"))
    put.add_argument(
        "assignments", nargs="*", metavar=_("KEY=VALUE"), help=_("VALUE is JSON or text")
    )
    put.add_argument(
        "--file",
        type=Path,
        metavar=_("FILE"),
        help=_("a JSON object of settings (e.g. from get --json)"),
    )
    put.add_argument("--pin", help=_("the admin PIN, once one is set (asked for at a terminal)"))
    add_connection_args(put)
    put.set_defaults(func=settings_set)


def settings_get(args: argparse.Namespace) -> int:
    def body(box: Device) -> int:
        result = box.call("settings.get")
        values = result["settings"]
        if "admin.pin" in args.keys:
            raise HostError(
                _("the box never shows the admin PIN; `settings get` says whether one is set")
            )
        unknown = [k for k in args.keys if k not in values]
        if unknown:
            hints = "".join(did_you_mean(k, values) for k in unknown)
            raise HostError(
                _("no such setting: {keys}{hints} (`settings get` lists them all)").format(
                    keys=", ".join(unknown), hints=hints
                )
            )
        keys = args.keys or sorted(values)
        if args.json:
            print_json({k: values[k] for k in keys})
            return 0
        texts = result.get("help_text") or {}
        rows = [
            [
                k,
                _show(values[k]),
                "" if values[k] == result["defaults"].get(k) else _("changed"),
                box_text(result["help"].get(k, ""), texts.get(k)),
            ]
            for k in keys
        ]
        print(table([_("setting"), _("value"), _("changed"), _("meaning")], rows))
        print(_("admin PIN: set") if result["pin_set"] else _("admin PIN: not set"))
        return 0

    return run_with_device(args, body)


def settings_set(args: argparse.Namespace) -> int:
    try:
        from_file = _read_file(args.file) if args.file else {}
        keys = [split_assignment(text)[0] for text in args.assignments]
        twice = next((key for i, key in enumerate(keys) if key in keys[:i]), None)
        if twice is not None:
            raise UsageError(
                _("{key} is given more than once: set each setting once").format(key=twice)
            )
        if not from_file and not args.assignments:
            raise UsageError(_("nothing to set: give KEY=VALUE or --file"))
    except HostError as exc:
        return report(exc)

    def body(box: Device) -> int:
        current = box.call("settings.get")
        changes = dict(from_file)
        for text in args.assignments:
            key, value = parse_assignment(text, current["defaults"])
            changes[key] = value
        result = call_with_pin(box, "settings.set", args.pin, changes=changes)
        if args.json:
            print_json(result)
        else:
            for key in sorted(changes):
                if key == "admin.pin":
                    shown = _("(set)") if changes[key] else _("(none: the link is open)")
                else:
                    shown = _show(result["settings"].get(key))
                print(f"{key} = {shown}")
        if "warning" in result:
            said = box_text(result["warning"], result.get("warning_text"))
            warning = _("warning: {text}").format(text=said)
            print(f"spielleiter-host: {warning}", file=sys.stderr)
        return 0

    return run_with_device(args, body)


def split_assignment(text: str) -> tuple[str, str]:
    """KEY=VALUE as (key, raw value); UsageError without a key or an "="."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise UsageError(_("{text!r}: write KEY=VALUE, e.g. clock.seconds=15").format(text=text))
    return key.strip(), raw


def parse_assignment(text: str, defaults: dict[str, Any]) -> tuple[str, Any]:
    """KEY=VALUE with VALUE as JSON, or as text where the setting is text (e.g. a PIN)."""
    key, raw = split_assignment(text)
    if isinstance(defaults.get(key, 0), str) or key == "admin.pin":
        return key, raw
    try:
        return key, json.loads(raw, parse_constant=_not_json, parse_float=_finite)
    except ValueError:
        return key, raw  # the box says why it does not take the text


def _not_json(name: str) -> Any:
    raise ValueError(name)


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(text)
    return value


def _read_file(path: Path) -> dict[str, Any]:
    data = read_json(path)
    if isinstance(data, dict) and isinstance(data.get("settings"), dict):
        data = data["settings"]
    if not isinstance(data, dict):
        raise InvalidError(
            _("{path}: a settings file is a JSON object of key: value").format(path=path)
        )
    return data


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
