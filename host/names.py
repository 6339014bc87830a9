"""`spielleiter-host names list|add`: the player names the box offers."""

from __future__ import annotations

import argparse
from typing import Any

from .device import add_connection_args, add_pin_arg, call_with_pin, run_with_device
from .i18n import _
from .output import show, table


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("names", help=_("list or add player names"))
    sub = parser.add_subparsers(dest="action", metavar=_("ACTION"), required=True)
    lst = sub.add_parser("list", help=_("remembered names, most recent first"))
    lst.set_defaults(func=names_list)
    add = sub.add_parser(
        "add", help=_("add names (up to 16 characters each; umlauts and accents, no emoji)")
    )
    add.add_argument(
        "names", nargs="+", metavar="NAME", help=_('quote names with spaces: "Anna B."')
    )
    add_pin_arg(add)
    add.set_defaults(func=names_add)
    for p in (lst, add):
        add_connection_args(p)


def names_list(args: argparse.Namespace) -> int:
    return run_with_device(args, lambda box: _show(args, box.call("names.list")))


def names_add(args: argparse.Namespace) -> int:
    return run_with_device(
        args, lambda box: _show(args, call_with_pin(box, "names.add", args.pin, names=args.names))
    )


def _show(args: argparse.Namespace, result: dict[str, Any]) -> int:
    names = result["names"]
    text = table([_("name")], [[n] for n in names]) if names else _("no names")
    return show(result, args.json, text)
