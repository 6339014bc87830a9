"""`spielleiter-host backup get|restore`: the box's whole store, down and up.

`backup get` saves a copy of the box's database (a running game's record stays on the
box until it is over). `backup restore FILE` sends a database back in parts that fit
the link's line cap; the box checks it whole (sha256, sqlite's quick_check, its
tables) before it replaces anything, keeps a backup of what it had, and leaves safe
mode if it was in it. Both need the admin PIN once one is set.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from .device import (
    AnswerError,
    Device,
    HostError,
    UsageError,
    add_connection_args,
    add_pin_arg,
    ask_pin,
    call_with_pin,
    report,
    run_with_device,
    whole_number,
    write_file,
)
from .i18n import _
from .output import saved, show

BACKUPS_KEPT = 3
"""How many backups the box keeps (its store's BACKUPS_KEPT): `--kept` is 0 to 2."""

PART_BYTES = 32 * 1024
"""Bytes per backup.restore call: base64 makes 43 KiB, under the box's 64 KiB lines."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("backup", help=_("download or restore the box's whole store"))
    sub = parser.add_subparsers(dest="action", metavar=_("ACTION"), required=True)
    get = sub.add_parser("get", help=_("save the box's database to a file"))
    get.add_argument(
        "-o", "--output", type=Path, required=True, metavar=_("FILE"), help=_("the file to write")
    )
    get.add_argument(
        "--kept",
        type=whole_number(0, BACKUPS_KEPT - 1),
        metavar="N",
        help=_(
            "one of the {count} backups the box keeps (0 the newest, {last} the oldest), e.g."
            " when its store is faulty"
        ).format(count=BACKUPS_KEPT, last=BACKUPS_KEPT - 1),
    )
    get.set_defaults(func=backup_get)
    put = sub.add_parser("restore", help=_("replace the box's database with a saved one"))
    put.add_argument("file", type=Path, metavar=_("file"), help=_("a file written by `backup get`"))
    put.set_defaults(func=backup_restore)
    for p in (get, put):
        add_pin_arg(p)
        add_connection_args(p)


def backup_get(args: argparse.Namespace) -> int:
    def body(box: Device) -> int:
        kept = {} if args.kept is None else {"kept": args.kept}
        result = call_with_pin(box, "backup.get", args.pin, **kept)
        data = base64.b64decode(result["data"])
        if hashlib.sha256(data).hexdigest() != result["sha256"]:
            raise HostError(_("the backup arrived damaged (sha256 differs): try again"))
        write_file(args.output, data)
        left = result.get("left_out") or []
        note = ""
        if left:
            ids = ", ".join(str(i) for i in left)
            note = _("; the running game's record {ids} stays on the box").format(ids=ids)
        what = (
            _("the box's store")
            if args.kept is None
            else _("the box's kept backup {number}").format(number=args.kept)
        )
        return saved(args.output, what, args.json, note, left_out=left)

    return run_with_device(args, body)


def backup_restore(args: argparse.Namespace) -> int:
    try:
        data = args.file.read_bytes()
    except OSError as exc:
        why = exc.strerror or str(exc)
        return report(UsageError(_("cannot read {path}: {why}").format(path=args.file, why=why)))
    if not data.startswith(b"SQLite format 3\x00"):
        return report(
            UsageError(_("{path} is not a backup (no sqlite database)").format(path=args.file))
        )
    digest = hashlib.sha256(data).hexdigest()

    def body(box: Device) -> int:
        pin = args.pin
        if pin is None and box.hello.get("pin_set") and sys.stdin.isatty():
            pin = ask_pin()
        result: dict[str, Any] = {}
        for offset in range(0, len(data), PART_BYTES):
            part = base64.b64encode(data[offset : offset + PART_BYTES]).decode("ascii")
            params = {"data": part, "offset": offset, "size": len(data), "sha256": digest}
            result = box.call("backup.restore", **params, **({} if pin is None else {"pin": pin}))
        if not result["restored"] or result["received"] != len(data):
            raise AnswerError(
                _(
                    "the box answered backup.restore with restored {restored} and received"
                    " {received} after the last part of {size} bytes"
                ).format(
                    restored=json.dumps(result["restored"]),
                    received=result["received"],
                    size=len(data),
                )
            )
        text = _("restored {size} bytes from {path}").format(size=len(data), path=args.file)
        return show(result, args.json, text)

    return run_with_device(args, body)
