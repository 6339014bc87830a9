"""`spielleiter-host names list|add|delete|rename`: the player names the box offers.

`delete` takes a name off the list (what it played stays); `rename` renames a player
everywhere on the box (its Bestenliste and its finished records), merging onto a name
that is there already."""

from __future__ import annotations

import argparse
from typing import Any

from .device import add_connection_args, add_pin_arg, call_with_pin, run_with_device
from .i18n import _
from .output import show, table


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "names", help=_("list, add, delete or rename player names")
    )
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
    delete = sub.add_parser(
        "delete", help=_("take a name off the names the box offers (its games and points stay)")
    )
    delete.add_argument("name", metavar="NAME", help=_("the name as the box has it"))
    add_pin_arg(delete)
    delete.set_defaults(func=names_delete)
    rename = sub.add_parser(
        "rename",
        help=_(
            "rename a player everywhere: the Bestenliste and the finished games follow; "
            "onto a name that is there, the two are merged"
        ),
    )
    rename.add_argument("old", metavar=_("OLD"), help=_("the name as the box has it"))
    rename.add_argument("new", metavar=_("NEW"), help=_("the new name (up to 16 characters)"))
    add_pin_arg(rename)
    rename.set_defaults(func=names_rename)
    for p in (lst, add, delete, rename):
        add_connection_args(p)


def names_list(args: argparse.Namespace) -> int:
    return run_with_device(args, lambda box: _show(args, box.call("names.list")))


def names_add(args: argparse.Namespace) -> int:
    return run_with_device(
        args, lambda box: _show(args, call_with_pin(box, "names.add", args.pin, names=args.names))
    )


def names_delete(args: argparse.Namespace) -> int:
    return run_with_device(
        args, lambda box: _show(args, call_with_pin(box, "names.delete", args.pin, name=args.name))
    )


def names_rename(args: argparse.Namespace) -> int:
    def call(box: Any) -> int:
        result = call_with_pin(box, "names.rename", args.pin, old=args.old, new=args.new)
        if result.get("merged") and not args.json:
            print(_("{old} and {new} are one player now").format(**result))
        return _show(args, result)

    return run_with_device(args, call)


def _show(args: argparse.Namespace, result: dict[str, Any]) -> int:
    names = result["names"]
    text = table([_("name")], [[n] for n in names]) if names else _("no names")
    return show(result, args.json, text)
