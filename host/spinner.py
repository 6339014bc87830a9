"""`spielleiter-host spinner read|calibrate`: the spinner sensor, read and calibrated."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from spielleiter.link.protocol import CALIBRATE_ACTIONS, CALIBRATE_KEYS

from .device import (
    Device,
    HostError,
    InvalidError,
    UsageError,
    add_connection_args,
    add_pin_arg,
    call_with_pin,
    did_you_mean,
    read_json,
    report,
    run_with_device,
    seconds,
    until_interrupted,
)
from .i18n import _, pgettext
from .info import hardware_words
from .output import labelled, print_json, table

ACTIONS = CALIBRATE_ACTIONS
KEYS = CALIBRATE_KEYS
"""The parameters `spinner.calibrate` takes (the box refuses any other too); checked here
first, so a mistyped one gets a suggestion."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("spinner", help=_("read or calibrate the spinner"))
    sub = parser.add_subparsers(dest="action", metavar=_("ACTION"), required=True)
    read = sub.add_parser("read", help=_("what the spinner shows now"))
    read.add_argument(
        "--watch", action="store_true", help=_("read again every --interval (Ctrl-C ends)")
    )
    read.add_argument(
        "--interval",
        type=seconds,
        default=0.5,
        metavar=_("SECONDS"),
        help=_("seconds between readings"),
    )
    read.set_defaults(func=spinner_read)
    cal = sub.add_parser(
        "calibrate",
        help=_("send calibration parameters (docs/spinner.md)"),
        description=_(
            "Calibrate the spinner: action=zero (the arrow points at the middle of"
            " petal 1 now), action=reset, action=boundaries readings=[16 angles], or"
            " calibration={...} (see docs/spinner.md)."
        ),
    )
    cal.add_argument(
        "--file", type=Path, metavar=_("FILE"), help=_("a JSON object of calibration parameters")
    )
    cal.add_argument(
        "assignments", nargs="*", metavar=_("KEY=VALUE"), help=_("VALUE is JSON or text")
    )
    add_pin_arg(cal)
    cal.set_defaults(func=spinner_calibrate)
    for p in (read, cal):
        add_connection_args(p)


def spinner_read(args: argparse.Namespace) -> int:
    def body(box: Device) -> int:
        if not args.watch:
            return _show(args, box.call("spinner.read"))

        def reading() -> None:
            _show(args, box.call("spinner.read"))
            print(flush=True)

        return until_interrupted(reading, args.interval)

    return run_with_device(args, body)


def spinner_calibrate(args: argparse.Namespace) -> int:
    try:
        params = calibration_params(args.file, args.assignments)
    except HostError as exc:
        return report(exc)
    if not params:
        return report(UsageError(_("nothing to send: give e.g. action=zero, or --file")))

    def body(box: Device) -> int:
        return _show(args, call_with_pin(box, "spinner.calibrate", args.pin, **params))

    return run_with_device(args, body)


def calibration_params(path: Path | None, assignments: list[str]) -> dict[str, Any]:
    """The parameters from a file and KEY=VALUE pairs (the pairs win), checked."""
    params: dict[str, Any] = {}
    if path is not None:
        params = read_json(path)
        if not isinstance(params, dict):
            raise InvalidError(
                _("{path}: calibration parameters are a JSON object").format(path=path)
            )
    for text in assignments:
        key, sep, raw = text.partition("=")
        if not sep or not key:
            raise UsageError(_("{text!r}: write KEY=VALUE, e.g. action=zero").format(text=text))
        try:
            params[key] = json.loads(raw)
        except ValueError:
            params[key] = raw
    if params:
        check_calibration(params)
    return params


def check_calibration(params: dict[str, Any]) -> None:
    """InvalidError, naming the parameter, for what the box would not use as meant."""
    ways = _(
        "give action=zero, action=reset, action=boundaries readings=[...] or calibration={...}"
    )
    for key in params:
        if key not in KEYS:
            hint = did_you_mean(key, KEYS)
            raise InvalidError(
                _("{key}: no such calibration parameter{hint}; {ways}").format(
                    key=key, hint=hint, ways=ways
                )
            )
    action = params.get("action")
    if "calibration" in params:
        if not isinstance(params["calibration"], dict):
            raise InvalidError(_("calibration: a JSON object (as `spinner read --json` shows it)"))
        if action is not None:
            raise InvalidError(
                _("action and calibration: give one of them; {ways}").format(ways=ways)
            )
    elif action is None:
        raise InvalidError(_("action: missing; {ways}").format(ways=ways))
    elif action not in ACTIONS:
        hint = did_you_mean(str(action), ACTIONS)
        raise InvalidError(
            _("action: {action!r}{hint}: one of {actions}").format(
                action=action, hint=hint, actions=", ".join(ACTIONS)
            )
        )
    if action == "boundaries" and not isinstance(params.get("readings"), list):
        raise InvalidError(_("readings: action=boundaries needs readings=[an angle per sector]"))
    if "readings" in params and action != "boundaries":
        raise InvalidError(_("readings: only with action=boundaries"))


def _show(args: argparse.Namespace, result: Any) -> int:
    if args.json or not isinstance(result, dict):
        print_json(result)
    else:
        # a calibration stays JSON: what `calibrate calibration=…` takes back
        shown = {k: json.dumps(v) if isinstance(v, dict) else v for k, v in result.items()}
        print(table([_("field"), _("value")], labelled(shown, fields(), words())))
    return 0


def fields() -> dict[str, str]:
    """The label of each field of `spinner read` and `calibrate` in the laptop's language,
    in the order the table shows them (every field the box sends:
    tests/test_host_one_language.py); a field a newer box adds stays under its key."""
    return {
        "mode": pgettext("spinner", "in use"),
        "setting": pgettext("spinner", "setting"),
        "sensor": pgettext("spinner", "sensor fitted"),
        "magnet": pgettext("spinner", "magnet"),
        "message": pgettext("spinner", "message"),
        "angle_deg": pgettext("spinner", "angle (°)"),
        "position_deg": pgettext("spinner", "position (°)"),
        "sector": pgettext("spinner", "sector"),
        "ambiguous": pgettext("spinner", "between sectors"),
        "calibration": pgettext("spinner", "calibration"),
    }


def words() -> dict[str, str]:
    """The spinner's states (its source, its setting, its magnet) in the laptop's language."""
    return {
        **hardware_words(),
        "auto": pgettext("spinner", "auto"),
        "ok": pgettext("spinner", "ok"),
        "warning": pgettext("spinner", "warning"),
        "fault": pgettext("spinner", "fault"),
    }
