"""`spielleiter-host spinner read|calibrate`: the spinner sensor, read and calibrated."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from .device import EXIT_INVALID, Device, HostError, add_connection_args, run_with_device
from .output import print_json, table


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("spinner", help="read or calibrate the spinner")
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    read = sub.add_parser("read", help="what the spinner shows now")
    read.add_argument("--watch", action="store_true", help="read again every --interval")
    read.add_argument("--interval", type=float, default=0.5)
    read.set_defaults(func=spinner_read)
    cal = sub.add_parser("calibrate", help="send calibration parameters (docs/spinner.md)")
    cal.add_argument("--file", type=Path, help="a JSON object of calibration parameters")
    cal.add_argument("assignments", nargs="*", metavar="KEY=VALUE", help="VALUE is JSON or text")
    cal.set_defaults(func=spinner_calibrate)
    for p in (read, cal):
        add_connection_args(p)


def spinner_read(args: argparse.Namespace) -> int:
    def body(box: Device) -> int:
        while True:
            _show(args, box.call("spinner.read"))
            if not args.watch:
                return 0
            time.sleep(args.interval)

    return run_with_device(args, body)


def spinner_calibrate(args: argparse.Namespace) -> int:
    def body(box: Device) -> int:
        params = calibration_params(args.file, args.assignments)
        return _show(args, box.call("spinner.calibrate", **params))

    return run_with_device(args, body)


def calibration_params(path: Path | None, assignments: list[str]) -> dict[str, Any]:
    """The parameters from a file and KEY=VALUE pairs (the pairs win)."""
    params: dict[str, Any] = {}
    if path is not None:
        try:
            params = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError) as exc:
            raise HostError(f"cannot read {path}: {exc}") from None
        if not isinstance(params, dict):
            err = HostError(f"{path}: calibration parameters are a JSON object")
            err.exit_code = EXIT_INVALID
            raise err
    for text in assignments:
        key, sep, raw = text.partition("=")
        if not sep or not key:
            raise HostError(f"{text!r}: write KEY=VALUE")
        try:
            params[key] = json.loads(raw)
        except ValueError:
            params[key] = raw
    return params


def _show(args: argparse.Namespace, result: Any) -> int:
    if args.json or not isinstance(result, dict):
        print_json(result)
    else:
        print(table(["", ""], sorted(result.items())).split("\n", 2)[2])
    return 0
