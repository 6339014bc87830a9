"""`spielleiter-host records list|get|delete`: the games the box recorded."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from spielleiter.link.protocol import RECORDS_MAX

from .device import (
    Device,
    HostError,
    add_connection_args,
    call_with_pin,
    report,
    run_with_device,
    whole_number,
)
from .i18n import _, ngettext, pgettext
from .output import confirmed, print_json, saved, show, table, write_text


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("records", help=_("list, download or delete game records"))
    sub = parser.add_subparsers(dest="action", metavar=_("ACTION"), required=True)
    lst = sub.add_parser("list", help=_("the newest records first"))
    lst.add_argument(
        "--limit",
        type=whole_number(1, RECORDS_MAX),
        default=100,
        metavar="N",
        help=_("at most this many (1 to {most})").format(most=RECORDS_MAX),
    )
    lst.set_defaults(func=records_list)
    get = sub.add_parser("get", help=_("one record as JSON (docs/records.md)"))
    get.add_argument(
        "id",
        type=int,
        metavar=pgettext("metavar", "id"),
        help=_("the record's id from `records list`"),
    )
    get.add_argument(
        "-o", "--output", type=Path, metavar=_("FILE"), help=_("write it to this file")
    )
    get.set_defaults(func=records_get)
    delete = sub.add_parser("delete", help=_("delete a record (needs the admin PIN)"))
    delete.add_argument(
        "id",
        type=int,
        metavar=pgettext("metavar", "id"),
        help=_("the record's id from `records list`"),
    )
    delete.add_argument("--pin", help=_("the admin PIN (asked for at a terminal when needed)"))
    delete.add_argument("--yes", action="store_true", help=_("do not ask at a terminal first"))
    delete.set_defaults(func=records_delete)
    for p in (lst, get, delete):
        add_connection_args(p)


def records_list(args: argparse.Namespace) -> int:
    def body(box: Device) -> int:
        result = box.call("records.list", limit=args.limit)
        if args.json:
            print_json(result)
            return 0
        rows = [
            [
                r["id"],
                r["game"],
                time.strftime("%Y-%m-%d %H:%M", time.localtime(r["started"])),
                ", ".join(r["seats"]),
                r["actions"],
                _("finished") if r["finished"] else _("abandoned") if r["abandoned"] else _("open"),
            ]
            for r in result["records"]
        ]
        headers = [_("id"), _("game"), _("started"), _("seats"), _("actions"), _("state")]
        print(table(headers, rows) if rows else _("no records"))
        return 0

    return run_with_device(args, body)


def records_get(args: argparse.Namespace) -> int:
    def body(box: Device) -> int:
        record = box.call("records.get", id=args.id)["record"]
        text = json.dumps(record, ensure_ascii=False, sort_keys=True)
        write_text(text, args.output)
        if args.output is None:
            return 0
        actions = len(record.get("actions") or [])
        what = ngettext(
            "record {id} ({game}, {actions} action)",
            "record {id} ({game}, {actions} actions)",
            actions,
        ).format(id=args.id, game=record.get("game"), actions=actions)
        return saved(args.output, what, args.json, id=args.id, game=record.get("game"))

    return run_with_device(args, body)


def records_delete(args: argparse.Namespace) -> int:
    question = _(
        "Delete record {id} from the box? A finished match's game folds its ratings again"
        " without it."
    ).format(id=args.id)
    if not confirmed(question, args.yes):
        return report(HostError(_("nothing deleted")))

    def body(box: Device) -> int:
        result = call_with_pin(box, "records.delete", args.pin, id=args.id)
        return show(result, args.json, _("deleted record {id}").format(id=result["deleted"]))

    return run_with_device(args, body)
