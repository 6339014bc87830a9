"""`spielleiter-host replay RECORD.json`: a recorded game as text.

A game that declares a replay in its catalog entry prints its own text (Speedtombola:
each round's Tafel and the Endstand); any other game prints its actions one by one,
in the rules' own names.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from spielleiter.games import catalog
from spielleiter.games.base import CHANCE
from spielleiter.records import Record, RecordError

from .device import InvalidError, read_json
from .output import print_json


def replay_text(record: Record) -> str:
    """The whole record as text (RecordError for a record that does not replay)."""
    try:
        entry = catalog.entry(record.game)
    except catalog.UnknownGame as exc:
        raise RecordError(str(exc)) from None
    text: str = entry.load(entry.replay)(record) if entry.replay else action_lines(record)
    taken = taken_back_lines(record)
    return "\n".join([text, *taken]) if taken else text


def taken_back_lines(record: Record) -> list[str]:
    """The moves players took back with "Zurück" (kept in the meta; the actions are only
    what stood): "Zurückgenommen: 13. Anna: Nehmen"."""
    taken = record.meta.get("taken_back") or []
    if not taken:
        return []
    game = record.make_game()
    names = [s.name for s in record.seats]
    lines = []
    for index, action in taken:
        state = game.new_initial_state()
        try:
            for earlier in record.actions[:index]:
                state.apply_action(earlier)
            player = state.current_player()
            who = "Zufall" if player == CHANCE else names[player] if player < len(names) else "?"
            lines.append(f"{who}: {game.action_to_string(player, action)}")
        except (ValueError, IndexError, TypeError):
            lines.append(f"Aktion {action}")
        lines[-1] = f"Zurückgenommen: {index + 1}. {lines[-1]}"
    return lines


def action_lines(record: Record) -> str:
    """Every action of the record with who made it, in the rules' words."""
    game = record.make_game()
    state = game.new_initial_state()
    names = [s.name for s in record.seats]
    lines = [f"{game.info.title}: {', '.join(names)}"]
    for number, action in enumerate(record.actions, start=1):
        player = state.current_player()
        who = "Zufall" if player == CHANCE else names[player] if player < len(names) else "?"
        try:
            lines.append(f"{number:>4}. {who}: {game.action_to_string(player, action)}")
            state.apply_action(action)
        except ValueError as exc:
            raise RecordError(f"record of {record.game}, action {number}: {exc}") from exc
    if state.is_terminal():
        results = zip(names, state.returns(), strict=False)
        lines.append("Ende: " + ", ".join(f"{name} {value:g}" for name, value in results))
    return "\n".join(lines)


def _command(args: argparse.Namespace) -> int:
    path = Path(args.record)
    try:
        record = Record.from_json(read_json(path))
        text = replay_text(record)
    except RecordError as exc:
        raise InvalidError(f"{path} is not a record this tool can replay: {exc}") from None
    if args.json:
        print_json({"game": record.game, "seats": [s.name for s in record.seats], "text": text})
    else:
        print(text)
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `replay RECORD.json`."""
    p = subparsers.add_parser("replay", help="print a recorded game as text")
    p.add_argument("record", help="a record file (JSON, as `records get` saves it)")
    p.add_argument("--json", action="store_true", help="the text inside a JSON object")
    p.set_defaults(func=_command)
