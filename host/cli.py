"""spielleiter-host: the command line of the laptop tool.

Each command lives in its own module of this package with a `register(subparsers)`
function that adds its sub-parser and sets `func` (args -> exit code).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMAND_MODULES: list[str] = [
    # "spielleiter_host.<module>" for each command family; one line per module.
    "spielleiter_host.tournament",
    "spielleiter_host.replay",
    "spielleiter_host.info",
    "spielleiter_host.settings",
    "spielleiter_host.boards",
    "spielleiter_host.leaderboard",
    "spielleiter_host.records",
    "spielleiter_host.names",
    "spielleiter_host.mirror",
    "spielleiter_host.spinner",
    "spielleiter_host.besenbingo_tools",
    "spielleiter_host.printing",
]


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every registered command."""
    parser = argparse.ArgumentParser(
        prog="spielleiter-host", description="Talk to a Spielleiter box; offline tools."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `spielleiter-host`."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("abgebrochen", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
