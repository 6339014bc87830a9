"""`spielleiter-host replay RECORD.json`: a recorded game as text, or as data.

A game that declares a replay in its catalog entry prints its own text (each round's
sheet, the Endstand); any other game prints its actions one by one, in the rules' own
words. `--json` gives the match as data (docs/records.md, "The match as data"): every
action with its index, seat, kind and words and what everyone could see after it, the
result and the Bestenliste awards.

Every record is first played through here, action by action, so a refused one names its
index and the rules' reason in the players' words, whichever game it is.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spielleiter.games import catalog
from spielleiter.games.base import CHANCE, Game, State, ranks
from spielleiter.records import FORMAT_VERSION, Record, RecordError

from .device import InvalidError, UsageError, did_you_mean, read_json
from .i18n import _, pgettext, said
from .output import print_json

SCHEMA_VERSION = 1
"""The version of the match data `replay --json` prints (docs/records.md)."""

VIEWS = ("all", "changes", "none")
"""Which public views `replay --json` gives: the whole view after every action (the
default), only what changed in it as a JSON Patch (view_patch), or none."""


class ActionRefused(InvalidError):
    """An action of a record that its game's rules refuse: `index` (from 0) and `reason`
    (the rules' words) are in the JSON error object too."""

    def __init__(self, where: str, index: int, reason: str) -> None:
        super().__init__(
            _("{where}: action {index} cannot be played: {reason}").format(
                where=where, index=index, reason=reason
            ),
            {"index": index, "reason": reason},
        )
        self.index = index
        self.reason = reason


@dataclass(frozen=True)
class Step:
    """One action of a record as it was played: who, what, and the state after it."""

    index: int
    player: int
    """The seat that moved, or CHANCE."""
    action: int
    words: str
    hidden: bool
    """A chance outcome no seat saw when it came (it stayed hidden after it)."""
    view: dict[str, Any]
    """What everyone at the table could see after it (State.public_view)."""


def seat_names(record: Record, game: Game) -> list[str]:
    """The name of each of the rules' seats: the record's seats, or "Spieler N" where the
    whole table plays as one seat ("Tisch") and the rules still count players."""
    entry = catalog.entry(record.game)
    if entry.needs_seats and len(record.seats) == game.num_players:
        return [s.name for s in record.seats]
    return [f"Spieler {n + 1}" for n in range(game.num_players)]


def played(record: Record, where: str, views: bool = False) -> tuple[State, list[Step]]:
    """The state after every action of the record and each action as played (with the
    public view after it where `views`); ActionRefused at the first one the rules refuse,
    naming its index and why."""
    game = game_of(record, where)
    state = game.new_initial_state()
    steps = []
    for index, action in enumerate(record.actions):
        player = state.current_player()
        try:
            words = state.describe(action) if action in state.legal_actions() else ""
            state.apply_action(action)
        except ValueError as exc:
            raise ActionRefused(where, index, str(exc)) from None
        hidden = player == CHANCE and index in state.secret_actions()
        view = state.public_view() if views else {}
        steps.append(Step(index, player, action, words, hidden, view))
    return state, steps


def replay_text(record: Record, where: str = "record") -> str:
    """The whole record as text (InvalidError for a record that does not replay)."""
    entry = _entry(record, where)
    state, steps = played(record, where)
    if entry.replay:
        text: str = entry.load(entry.replay)(record)
    else:
        text = action_lines(record, state, steps)
    taken = taken_back_lines(record)
    return "\n".join([text, *taken]) if taken else text


def _entry(record: Record, where: str) -> catalog.GameEntry:
    try:
        return catalog.entry(record.game)
    except catalog.UnknownGame:
        raise InvalidError(
            _("{where}: unknown game {game!r}{hint}; known: {known}").format(
                where=where,
                game=record.game,
                hint=did_you_mean(record.game, catalog.names()),
                known=", ".join(catalog.names()),
            )
        ) from None


def game_of(record: Record, where: str) -> Game:
    """The record's game with its parameters; InvalidError naming the record for a game
    this tool does not know, or parameters its rules refuse (in the tool's language where
    the rules' refusal is a text)."""
    entry = _entry(record, where)
    try:
        return entry.make(record.params)
    except ValueError as exc:  # unknown parameters, too many seats ...
        raise InvalidError(
            _("{where}: the rules refuse its parameters: {why}").format(where=where, why=said(exc))
        ) from None


def _whole_numbers(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    )


def _problem(data: Any) -> str | None:
    """What makes `data` no record this tool reads (in the tool's language), else None."""
    if not isinstance(data, dict):
        return _("a record is a JSON object")
    if data.get("format") != FORMAT_VERSION:
        return _("record format {version!r} is not supported (want {want})").format(
            version=data.get("format"), want=FORMAT_VERSION
        )
    for key in ("game", "seats", "actions"):
        if key not in data:
            return _("it has no {key!r}").format(key=key)
    if not isinstance(data["game"], str):
        return _("its {key!r} is not a text").format(key="game")
    if not _whole_numbers(data["actions"]):
        return _("its {key!r} is not a list of whole numbers").format(key="actions")
    seats = data["seats"]
    if not isinstance(seats, list) or not all(isinstance(s, dict) and "name" in s for s in seats):
        return _("its {key!r} is not a list of seats with a name").format(key="seats")
    for key in ("params", "meta"):
        if not isinstance(data.get(key, {}), dict):
            return _("its {key!r} is not a JSON object").format(key=key)
    meta = data.get("meta", {})
    if not _whole_numbers(meta.get("entered", [])):
        return _("its {key!r} is not a list of whole numbers").format(key="meta.entered")
    taken = meta.get("taken_back", [])
    if not isinstance(taken, list) or not all(
        _whole_numbers(t) and len(t) == 2 and t[0] >= 0 for t in taken
    ):
        return _("its {key!r} is not a list of [index, action] pairs").format(key="meta.taken_back")
    left = meta.get("left", [])
    if not isinstance(left, list) or not all(isinstance(x, dict) for x in left):
        return _("its {key!r} is not a list of JSON objects").format(key="meta.left")
    return None


def record_of(data: Any) -> Record:
    """`data` (a record as JSON) as a Record; RecordError saying in the tool's language
    what makes it none (the record's own check is the last word)."""
    problem = _problem(data)
    if problem is not None:
        raise RecordError(problem)
    return Record.from_json(data)


def taken_back(record: Record) -> list[dict[str, Any]]:
    """The moves players took back with "Zurück" (kept in the meta; the actions are only
    what stood), each with its index, seat and words."""
    game = game_of(record, "record")
    names = seat_names(record, game)
    result = []
    for index, action in record.meta.get("taken_back") or []:
        item: dict[str, Any] = {"index": index, "seat": None, "name": None, "action": action}
        state = game.new_initial_state()
        try:
            for earlier in record.actions[:index]:
                state.apply_action(earlier)
            player = state.current_player()
            if 0 <= player < len(names):
                item.update(seat=player, name=names[player])
            item["move"] = state.describe(action)
        except (ValueError, IndexError, TypeError):
            item["move"] = f"Aktion {action}"
        result.append(item)
    return result


def taken_back_lines(record: Record) -> list[str]:
    """ "Zurückgenommen: 13. Anna: Nehmen" for every move taken back."""
    return [
        f"Zurückgenommen: {t['index'] + 1}. {t['name'] or 'Zufall'}: {t['move']}"
        for t in taken_back(record)
    ]


def action_lines(record: Record, state: State, steps: list[Step]) -> str:
    """Every action of the record with who made it, in the rules' words."""
    names = seat_names(record, state.game)
    lines = [f"{state.game.info.title}: {', '.join(s.name for s in record.seats)}"]
    for step in steps:
        who = "Zufall" if step.player == CHANCE else names[step.player]
        lines.append(f"{step.index + 1:>4}. {who}: {step.words}")
    if state.is_terminal():
        results = zip(names, state.returns(), strict=False)
        lines.append("Ende: " + ", ".join(f"{name} {value:g}" for name, value in results))
    return "\n".join(lines)


def match_data(record: Record, where: str = "record", views: str = "all") -> dict[str, Any]:
    """The match as data (docs/records.md, "The match as data"), with the public view
    after each action as `views` asks (VIEWS)."""
    if views not in VIEWS:
        raise ValueError(f"views is one of {', '.join(VIEWS)}, not {views!r}")
    entry = _entry(record, where)
    state, steps = played(record, where, views=views != "none")
    game = state.game
    names = seat_names(record, game)
    over = state.is_terminal()
    result = None
    if over:
        returns = state.returns()
        places = state.places() if hasattr(state, "places") else ranks(returns)
        result = {"returns": returns, "places": list(places)}
    data: dict[str, Any] = {
        "schema": SCHEMA_VERSION,
        "game": record.game,
        "title": entry.title,
        "params": dict(game.params),
        "seats": [
            {"seat": i, "name": s.name, "kind": s.kind, **({"level": s.level} if s.level else {})}
            for i, s in enumerate(record.seats)
        ],
        "players": names,
        "actions": [
            {
                "index": step.index,
                "kind": "chance" if step.player == CHANCE else "move",
                "seat": None if step.player == CHANCE else step.player,
                "name": None if step.player == CHANCE else names[step.player],
                "action": step.action,
                "move": step.words,
                "hidden": step.hidden,
                "entered": step.index in (record.meta.get("entered") or []),
                **_view(steps, i, views),
            }
            for i, step in enumerate(steps)
        ],
        "over": over,
        "result": result,
        "awards": awards(record, entry, state),
        "taken_back": taken_back(record),
        "text": replay_text(record, where),
    }
    if views != "all":  # the default output stays as it was before the choice
        data["views"] = views
    return data


def _view(steps: list[Step], i: int, views: str) -> dict[str, Any]:
    """An action's view as `views` asks: the whole "view" (all), a "view_patch" from the
    view after the action before (changes; the first action's from {}), or none."""
    if views == "none":
        return {}
    if views == "all":
        return {"view": steps[i].view}
    return {"view_patch": view_patch(steps[i - 1].view if i else {}, steps[i].view)}


def view_patch(old: dict[str, Any], new: dict[str, Any]) -> list[dict[str, Any]]:
    """A JSON Patch (RFC 6902) that turns the view `old` into `new`: a key that came or
    changed is added or replaced whole, a gone key removed, and a list that only grew gets
    its new items appended ("/moves/-"), so a match's growing move list is sent once.

    >>> view_patch({"turn": 1, "moves": [4]}, {"turn": 2, "moves": [4, 7]})
    [{'op': 'replace', 'path': '/turn', 'value': 2}, {'op': 'add', 'path': '/moves/-', 'value': 7}]
    """
    patch: list[dict[str, Any]] = []
    for key in old:
        if key not in new:
            patch.append({"op": "remove", "path": _pointer(key)})
    for key, value in new.items():
        if key not in old:
            patch.append({"op": "add", "path": _pointer(key), "value": value})
            continue
        before = old[key]
        if before == value:
            continue
        grown = isinstance(before, list) and isinstance(value, list) and len(value) > len(before)
        if grown and value[: len(before)] == before:
            where = _pointer(key) + "/-"
            patch.extend({"op": "add", "path": where, "value": v} for v in value[len(before) :])
        else:
            patch.append({"op": "replace", "path": _pointer(key), "value": value})
    return patch


def _pointer(key: str) -> str:
    """A view's key as a JSON Pointer (RFC 6901): "~" and "/" escaped."""
    return "/" + str(key).replace("~", "~0").replace("/", "~1")


def awards(record: Record, entry: catalog.GameEntry, state: State) -> list[dict[str, Any]]:
    """The Bestenliste lines the match gave: each human who left while others stayed (the
    game's penalty), then, when it was played to the end, what its table awards."""
    lines = [
        {"name": str(left.get("name")), "points": entry.leave_penalty, "matches": 1,
         "wins": 0, "left": True}
        for left in record.meta.get("left") or []
        if entry.leave_penalty
    ]  # fmt: skip
    if state.is_terminal():
        table = entry.table_class().replayed(record)
        lines += [
            {"name": a.name, "points": a.points, "matches": a.matches, "wins": a.wins,
             "left": False}
            for a in table.awards(table.state)
        ]  # fmt: skip
    return lines


def still_running(data: Any) -> bool:
    """Whether `data` is what `records get` gives of a match still running on the box:
    what no seat may know yet is withheld from it (its actions null there)."""
    actions = data.get("actions") if isinstance(data, dict) else None
    return isinstance(data, dict) and (
        "withheld" in data or (isinstance(actions, list) and None in actions)
    )


def read_record(path: Path) -> Record:
    """A record file; InvalidError that says what the file is where it is no record (a
    board, a match still running on the box)."""
    data = read_json(path)
    if still_running(data):
        raise InvalidError(
            _(
                "{path} is a match still running on the box: what no seat may know yet is"
                " withheld from it; replay it once the match has ended"
            ).format(path=path)
        )
    return record_from(data, str(path))


def record_from(data: Any, where: str) -> Record:
    """`data` (a record as JSON, from the file or the box named by `where`) as a Record;
    InvalidError that says what it is where it is no record (a board)."""
    if isinstance(data, dict) and "format" not in data and "actions" not in data:
        board = board_of(data)
        if board:
            raise InvalidError(
                _(
                    "{path} is a board of {game}, not a record (a record is what `records get`"
                    " saves; a board goes to the box with `boards put`)"
                ).format(path=where, game=board)
            )
        raise InvalidError(
            _('{path} is not a record: it has no "format" and no "actions"').format(path=where)
        )
    try:
        return record_of(data)
    except RecordError as exc:
        raise InvalidError(
            _("{path} is not a record this tool can replay: {why}").format(path=where, why=exc)
        ) from None


def board_of(data: Any) -> str:
    """The game whose board `data` is ("" for none)."""
    for entry in catalog.entries():
        functions = entry.board_functions()
        if functions is None:
            continue
        try:
            functions[0](data)
        except (ValueError, TypeError, KeyError, AttributeError):
            continue
        return entry.id
    return ""


def _command(args: argparse.Namespace) -> int:
    path = Path(args.record)
    if args.views != "all" and not args.json:
        raise UsageError(_("replay: --views goes with --json (see --help)"))
    record = read_record(path)
    if args.json:
        print_json(match_data(record, str(path), args.views))
    else:
        print(replay_text(record, str(path)))
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `replay RECORD.json`."""
    p = subparsers.add_parser("replay", help=_("print a recorded game as text, or as data"))
    p.add_argument(
        "record",
        metavar=pgettext("metavar", "record"),
        help=_("a record file (JSON, as `records get` saves it)"),
    )
    p.add_argument(
        "--json",
        action="store_true",
        help=_("the match as data: every action, what all could see after it, the result"),
    )
    p.add_argument(
        "--views",
        choices=VIEWS,
        default="all",
        help=_(
            "with --json, what all could see after each action: the whole view (all, the"
            " default), only what changed as a JSON Patch (changes), or nothing (none)"
        ),
    )
    p.set_defaults(func=_command)
