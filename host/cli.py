"""spielleiter-host: the command line of the laptop tool.

Each command lives in its own module of this package with a `register(subparsers)`
function that adds its sub-parser and sets `func` (args -> exit code); a game's own
commands live in its package, named by its catalog entry's `laptop`.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Iterator, Sequence
from typing import Any, NoReturn

from spielleiter.games import catalog

from . import device, i18n
from .device import HostError, UsageError, did_you_mean, report
from .i18n import _

PROG = "spielleiter-host"

COMMAND_MODULES: list[str] = [
    # "spielleiter_host.<module>" for each command family; one line per module.
    "spielleiter_host.tournament",
    "spielleiter_host.compare",
    "spielleiter_host.replay",
    "spielleiter_host.verify",
    "spielleiter_host.info",
    "spielleiter_host.settings",
    "spielleiter_host.boards",
    "spielleiter_host.leaderboard",
    "spielleiter_host.records",
    "spielleiter_host.backup",
    "spielleiter_host.names",
    "spielleiter_host.mirror",
    "spielleiter_host.spinner",
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


class CommandParser(argparse.ArgumentParser):
    """A parser whose mistakes are one line: a UsageError naming the command (exit 2, and
    a JSON object under --json like every other error), with a suggestion for a mistyped
    command or choice; argparse's own words in the tool's language. The commands'
    sub-parsers are of this class too."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        with i18n.argparse_words():
            super().__init__(*args, **kwargs)

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        with i18n.argparse_words():
            return super().parse_known_args(args, namespace)

    def format_usage(self) -> str:
        with i18n.argparse_words():
            return super().format_usage()

    def format_help(self) -> str:
        with i18n.argparse_words():
            return super().format_help()

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix(PROG).strip()
        if command:
            message = f"{command}: {message}"
        raise UsageError(_("{message} (see --help)").format(message=message))

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        if action.choices is not None and value not in action.choices:
            choices = ", ".join(map(str, action.choices))
            hint = did_you_mean(str(value), action.choices)
            if isinstance(action, argparse._SubParsersAction):  # a command, an action
                text = {
                    "command": _("unknown command {value!r}{hint}; choose from {choices}"),
                    "game": _("unknown game {value!r}{hint}; choose from {choices}"),
                }.get(action.dest, _("unknown action {value!r}{hint}; choose from {choices}"))
                raise argparse.ArgumentError(
                    None, text.format(value=value, hint=hint, choices=choices)
                )
            if action.dest == "game":  # a game by name: said as a command's game is
                text = _("unknown game {value!r}{hint}; choose from {choices}")
                raise argparse.ArgumentError(
                    None, text.format(value=value, hint=hint, choices=choices)
                )
            text = _("invalid choice: {value!r}{hint}; choose from {choices}")
            raise argparse.ArgumentError(
                action, text.format(value=value, hint=hint, choices=choices)
            )


def leaves(parser: argparse.ArgumentParser) -> Iterator[tuple[list[str], argparse.ArgumentParser]]:
    """(the words of a command, its parser) for every command that runs (`boards put` ...)."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield parser.prog.removeprefix(PROG).split(), parser
    for action in subs:
        for sub in dict.fromkeys(action.choices.values()):
            yield from leaves(sub)


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every registered command."""
    parser = CommandParser(
        prog=PROG,
        description=_("Talk to a Spielleiter box over its USB cable; offline tools."),
        epilog=_(
            "`spielleiter-host COMMAND --help` tells more. The box is found by its USB"
            " id; --port PORT (or $SPIELLEITER_PORT) names another port. docs/host.md has"
            " the exit codes."
        ),
        formatter_class=_CommandHelp,
    )
    add_lang_arg(parser, default=None)
    sub = parser.add_subparsers(dest="command", metavar=_("COMMAND"))
    sub.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    for entry in catalog.entries():  # the games' own commands (their catalog `laptop`)
        if entry.laptop:
            entry.load(entry.laptop)("commands", sub)
    for _words, leaf in leaves(parser):
        add_lang_arg(leaf, default=argparse.SUPPRESS)
        leaf.set_defaults(command_prog=leaf.prog)
    return parser


def add_lang_arg(parser: argparse.ArgumentParser, default: Any) -> None:
    """--lang, before the command and after it."""
    parser.add_argument(
        "--lang",
        choices=i18n.LANGUAGES,
        default=default,
        help=_(
            "the language of the messages: de (German) or en (English); without it the"
            " locale decides (an English one gives English, any other German)"
        ),
    )


def option_before_command(parser: argparse.ArgumentParser, argv: Sequence[str]) -> str | None:
    """An option of the commands that comes before the command (`--port P info`), after
    the tool's own options (--lang); None when the command line starts otherwise."""
    i = 0
    while i < len(argv):
        option, equals, _value = argv[i].partition("=")
        if len(option) >= 4 and "--lang".startswith(option):
            i += 1 if equals else 2
            continue
        break
    else:
        return None
    option = argv[i].partition("=")[0]
    if not option.startswith("-") or option in parser._option_string_actions:
        return None
    of_commands = {o for _words, leaf in leaves(parser) for o in leaf._option_string_actions}
    return option if option in of_commands else None


def parse(argv: Sequence[str]) -> argparse.Namespace:
    """The command line as arguments; UsageError (one line) for any mistake in it."""
    parser = build_parser()
    option = option_before_command(parser, argv)
    command = ""
    if option is not None:
        words = [word for word in argv if not word.startswith("-")]
        found = [
            " ".join(leaf)
            for leaf, _parser in leaves(parser)
            if any(words[i : i + len(leaf)] == leaf for i in range(len(words)))
        ]
        command = max(found, key=len, default="")
    if option is not None and command:  # else argparse names what is missing or unknown
        raise UsageError(
            _(
                "{option} goes after the command: spielleiter-host {command} {option} ..."
                " (see --help)"
            ).format(option=option, command=command)
        )
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        command = getattr(args, "command_prog", PROG).removeprefix(PROG).strip()
        raise UsageError(
            _("{command}: unrecognized arguments: {arguments} (see --help)").format(
                command=command, arguments=" ".join(unknown)
            )
        )
    return args


def language(as_json: bool, lang: str | None) -> str:
    """The language of a run: English under --json (what scripts read is the same in
    every language), else --lang, else the locale's (i18n.choose)."""
    if as_json:
        return i18n.SOURCE
    return lang if lang in i18n.LANGUAGES else i18n.from_locale(os.environ)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `spielleiter-host`."""
    argv = list(sys.argv[1:] if argv is None else argv)
    device.JSON_ERRORS = "--json" in argv
    i18n.use(language(device.JSON_ERRORS, i18n.lang_argument(argv)))
    try:
        args = parse(argv)
        as_json = bool(getattr(args, "json", False))
        wanted = language(as_json, getattr(args, "lang", None))
        if wanted != i18n.language():  # an abbreviation (--js, --la) said more
            i18n.use(wanted)
            args = parse(argv)
    except HostError as exc:
        return report(exc)
    device.JSON_ERRORS = as_json
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return report(HostError(_("interrupted")), code=130)
    except HostError as exc:
        return report(exc)
    except BrokenPipeError:  # the reader went away (`… | head`): nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + 13  # as a shell reports a command ended by SIGPIPE
    except OSError as exc:  # a file named on the command line: missing, unwritable, a folder
        why = exc.strerror or str(exc)
        if exc.filename:
            text = _("cannot use {file}: {why}").format(file=exc.filename, why=why)
        else:
            text = _("cannot use: {why}").format(why=why)
        return report(UsageError(text))
    except UnicodeDecodeError:
        return report(UsageError(_("a file named on the command line is not UTF-8 text")))


if __name__ == "__main__":
    sys.exit(main())
