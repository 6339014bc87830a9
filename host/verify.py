"""`spielleiter-host verify RECORD.json | --id N`: did the box draw fairly?

A record commits to its chance secret when the match starts (a SHA-256 in its meta) and
reveals the secret when the match has ended. This command recomputes every chance
outcome the box drew from the revealed secret and checks it against the record, or names
the first that does not match (docs/records.md, "Draws anyone can verify").
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from spielleiter import draws
from spielleiter.games import catalog
from spielleiter.games.base import CHANCE
from spielleiter.records import Record

from .device import (
    Device,
    HostError,
    InvalidError,
    UsageError,
    add_connection_args,
    read_json,
    report,
    run_with_device,
)
from .i18n import _, pgettext, said
from .output import print_json
from .replay import game_of, record_from, still_running


def register(subparsers: Any) -> None:
    """Add `verify RECORD.json` and `verify --id N`."""
    p = subparsers.add_parser("verify", help=_("check that a record's chance is what the box drew"))
    p.add_argument(
        "record",
        nargs="?",
        type=Path,
        metavar=pgettext("metavar", "record"),
        help=_("a record file (as `records get` saves it)"),
    )
    p.add_argument(
        "--id", type=int, metavar="N", help=_("the record of this id on the box instead")
    )
    add_connection_args(p)
    p.set_defaults(func=_command)


def outcome_name(record: Record, index: int, action: int) -> str:
    """A chance outcome at `index` in the rules' words ("Los 27"), else its number."""
    try:
        game = record.make_game()
        return str(game.action_to_string(CHANCE, action))
    except (ValueError, KeyError, IndexError, TypeError, catalog.UnknownGame):
        return str(action)


def check(record: Record, where: str = "record") -> dict[str, Any]:
    """The verdict as data (what --json prints); InvalidError/HostError when it fails (a
    game this tool does not know, or parameters its rules refuse, named with `where`)."""
    game_of(record, where)
    verdict = draws.verify(record)
    chance = record.meta.get("chance")
    commit = str(chance.get("commitment", "")) if isinstance(chance, dict) else ""
    facts = {"game": record.game, "commitment": commit, "drawn": verdict.drawn,
             "entered": verdict.entered, "index": verdict.index}  # fmt: skip
    if verdict.ok:
        return {"ok": True, **facts}
    if verdict.index is None:
        # a revealed secret that is not the one committed to is refused as a changed
        # outcome is; without one (a running match, an older record) nothing can be said
        revealed = isinstance(chance, dict) and "secret" in chance and "commitment" in chance
        kind = InvalidError if revealed else HostError
        text = (
            _("record of {game} is not what the box drew: {why}")
            if revealed
            else _("record of {game} cannot be verified: {why}")
        )
        raise kind(text.format(game=record.game, why=said(verdict.reason)), facts)
    index, expected = verdict.index, verdict.expected
    given = record.actions[index]
    if expected is None:
        why = said(verdict.reason)
    else:
        why = _(
            "action {number} is {given}, but the committed secret draws {expected} there"
        ).format(
            number=index + 1,
            given=outcome_name(record, index, given),
            expected=outcome_name(record, index, expected),
        )
    raise InvalidError(
        _("record of {game} is not what the box drew: {why}").format(game=record.game, why=why),
        {**facts, "action": given, "expected": expected},
    )


def _say(result: dict[str, Any], as_json: bool, where: str) -> int:
    if as_json:
        print_json(result)
        return 0
    entered = result["entered"]
    typed = (
        _("; {count} entered at the table (real dice, the sensor)").format(count=entered)
        if entered
        else ""
    )
    text = _(
        "{where}: {game}, all {drawn} chance outcomes the box drew come"
        " from its committed secret (commitment {commitment}…){entered}"
    ).format(
        where=where,
        game=result["game"],
        drawn=result["drawn"],
        commitment=result["commitment"][:16],
        entered=typed,
    )
    print(text)
    return 0


def verifiable(data: Any, where: str) -> Record:
    """The record in `data` (from the file or the box named by `where`); HostError for a
    match still running, whose chance is revealed only when it ends, InvalidError for
    what is no record."""
    if still_running(data):
        raise HostError(
            _("{where} is a match still running: its chance is revealed when it ends").format(
                where=where
            )
        )
    return record_from(data, where)


def _command(args: argparse.Namespace) -> int:
    if (args.record is None) == (args.id is None):
        return report(
            UsageError(_("verify: name a record file or --id N, one of them (see --help)"))
        )
    if args.record is not None:
        where = str(args.record)
        try:
            record = verifiable(read_json(args.record), where)
            return _say(check(record, where), args.json, where)
        except HostError as exc:
            return report(exc)

    def body(box: Device) -> int:
        where = _("record {id}").format(id=args.id)
        record = verifiable(box.call("records.get", id=args.id)["record"], where)
        return _say(check(record, where), args.json, where)

    return run_with_device(args, body)
