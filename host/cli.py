"""spielleiter-host: the command line of the laptop tool.

Each command lives in its own module of this package with a `register(subparsers)`
function that adds its sub-parser and sets `func` (args -> exit code).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from . import device
from .device import HostError, UsageError, report

COMMAND_MODULES: list[str] = [
    # "spielleiter_host.<module>" for each command family; one line per module.
    "spielleiter_host.tournament",
    "spielleiter_host.replay",
    "spielleiter_host.info",
    "spielleiter_host.settings",
    "spielleiter_host.boards",
    "spielleiter_host.leaderboard",
    "spielleiter_host.records",
    "spielleiter_host.backup",
    "spielleiter_host.names",
    "spielleiter_host.mirror",
    "spielleiter_host.spinner",
    "spielleiter_host.besenbingo_tools",
    "spielleiter_host.printing",
]


class _CommandHelp(argparse.HelpFormatter):
    """Each command and its description on one line.

    argparse measures the command names without their indent, so the longest ones
    would wrap onto a line of their own: reserve room for them.
    """

    def __init__(self, prog: str) -> None:
        super().__init__(prog, max_help_position=24)
        self._action_max_length = 18


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every registered command."""
    parser = argparse.ArgumentParser(
        prog="spielleiter-host",
        description="Talk to a Spielleiter box over its USB cable; offline tools.",
        epilog="`spielleiter-host COMMAND --help` tells more. The box is found by its USB"
        " id; --port PORT (or $SPIELLEITER_PORT) names another port. docs/host.md has"
        " the exit codes.",
        formatter_class=_CommandHelp,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `spielleiter-host`."""
    args = build_parser().parse_args(argv)
    device.JSON_ERRORS = bool(getattr(args, "json", False))
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("spielleiter-host: interrupted", file=sys.stderr)
        return 130
    except HostError as exc:
        return report(exc)
    except OSError as exc:  # a file named on the command line: missing, unwritable, a folder
        where = f" {exc.filename}" if exc.filename else ""
        return report(UsageError(f"cannot use{where}: {exc.strerror or exc}"))
    except UnicodeDecodeError:
        return report(UsageError("a file named on the command line is not UTF-8 text"))


if __name__ == "__main__":
    sys.exit(main())
