"""`spielleiter-host leaderboard [GAME] [--reset]`: the Bestenliste of each game."""

from __future__ import annotations

import argparse
from typing import Any

from .device import (
    Device,
    HostError,
    add_connection_args,
    call_with_pin,
    report,
    run_with_device,
)
from .output import confirmed, print_json, show, table


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("leaderboard", help="show (or reset) the Bestenliste")
    parser.add_argument("game", nargs="?", help="one game (default: every game)")
    parser.add_argument("--reset", action="store_true", help="clear it (needs the admin PIN)")
    parser.add_argument("--pin", help="the admin PIN (asked for at a terminal when needed)")
    parser.add_argument("--yes", action="store_true", help="--reset: do not ask first")
    add_connection_args(parser)
    parser.set_defaults(func=leaderboard)


def leaderboard(args: argparse.Namespace) -> int:
    game = {"game": args.game} if args.game else {}
    which = f"of {args.game}" if args.game else "of every game"
    if args.reset and not confirmed(f"Clear the Bestenliste {which}?", args.yes):
        return report(HostError("nothing cleared"))

    def body(box: Device) -> int:
        if args.reset:
            result = call_with_pin(box, "bestenliste.reset", args.pin, **game)
            text = (
                f"Bestenliste of {args.game or 'every game'} cleared:"
                f" {result['removed']} lines removed"
            )
            return show(result, args.json, text)
        result = box.call("bestenliste.get", **game)
        if args.json:
            print_json(result)
            return 0
        meanings = result.get("meaning", {})
        for name, lines in result["bestenliste"].items():
            print(f"== {name}")
            if meanings.get(name):
                print(f"   ({meanings[name]})")
            rows = [[s["place"], s["name"], s["points"], s["matches"], s.get("wins", 0)]
                    for s in lines]  # fmt: skip
            headers = ["place", "name", "points", "matches", "wins"]
            print(table(headers, rows) if rows else "(empty)")
        return 0

    return run_with_device(args, body)
