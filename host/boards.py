"""`spielleiter-host boards list|get|put|delete`: boards and templates of every game."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from spielleiter import boards as board_kinds
from spielleiter.games import catalog
from spielleiter.link.protocol import NOT_FOUND

from .board_files import check_files, item_error, report_checks
from .device import (
    Device,
    HostError,
    InvalidError,
    RemoteError,
    UsageError,
    add_connection_args,
    add_pin_arg,
    call_with_pin,
    did_you_mean,
    read_json,
    report,
    run_with_device,
)
from .i18n import _, pgettext
from .output import print_json, saved, show, table, write_text


def _with_boards() -> str:
    """The games whose catalog entry declares boards, for the help texts."""
    return ", ".join(e.id for e in catalog.entries() if e.boards) or _("none")


def game_with_boards(game: str) -> str:
    """`game` when it has boards; else a UsageError (exit 2) naming the games that have
    them, with a suggestion for a mistyped one."""
    known = sorted(board_kinds.kinds())
    if game in known:
        return game
    listed = ", ".join(known) or _("none")
    if game in catalog.names():
        raise UsageError(
            _("{game} has no boards; games with boards: {games}").format(game=game, games=listed)
        )
    hint = did_you_mean(game, known)
    raise UsageError(
        _("unknown game {game!r}{hint}; games with boards: {games}").format(
            game=game, hint=hint, games=listed
        )
    )


def board_not_found(box: Device, exc: RemoteError, game: str, name: str, uploaded: bool) -> None:
    """Raise `exc` (the box found no board `name`) with a suggestion: the name closest to
    it of the game's boards (only the uploaded ones where `uploaded`)."""
    if exc.code != NOT_FOUND:
        raise exc
    listed = box.call("boards.list", game=game)["boards"]
    names = [b["name"] for b in listed if b["uploaded"] or not uploaded]
    hint = did_you_mean(name, names)
    if not hint:
        raise exc
    data = exc.data  # its text is said already, in exc.message
    if isinstance(data, dict):
        data = {k: v for k, v in data.items() if k != "text"}
    raise RemoteError(exc.code, f"{exc.message}{hint}", data) from None


def register(subparsers: Any) -> None:
    with_boards = _("a game with boards: {games}").format(games=_with_boards())
    game = pgettext("metavar", "game")
    parser = subparsers.add_parser("boards", help=_("list, download, upload, delete boards"))
    sub = parser.add_subparsers(dest="action", metavar=_("ACTION"), required=True)
    lst = sub.add_parser("list", help=_("every board (of one game)"))
    lst.add_argument(
        "game", nargs="?", metavar=game, help=_("only this game (default: every game)")
    )
    lst.set_defaults(func=boards_list)
    get = sub.add_parser("get", help=_("one board as JSON"))
    get.add_argument("game", metavar=game, help=with_boards)
    get.add_argument(
        "name",
        metavar=pgettext("metavar", "name"),
        help=_("a board's name as `boards list` shows it"),
    )
    get.add_argument(
        "-o", "--output", type=Path, metavar=_("FILE"), help=_("write it to this file")
    )
    get.set_defaults(func=boards_get)
    put = sub.add_parser("put", help=_("upload boards; all are checked before any is stored"))
    put.add_argument("game", metavar=game, help=with_boards)
    put.add_argument(
        "file",
        type=Path,
        metavar=_("file"),
        help=_("JSON: one board (as `boards get` writes it) or {name: board}"),
    )
    put.add_argument(
        "--name",
        metavar=_("NAME"),
        help=_("store the single board in FILE under this name (default: its own name)"),
    )
    add_pin_arg(put)
    put.set_defaults(func=boards_put)
    delete = sub.add_parser("delete", help=_("delete an uploaded board"))
    delete.add_argument("game", metavar=game, help=with_boards)
    delete.add_argument(
        "name", metavar=pgettext("metavar", "name"), help=_("an uploaded board's name")
    )
    add_pin_arg(delete)
    delete.set_defaults(func=boards_delete)
    for p in (lst, get, put, delete):
        add_connection_args(p)
    check = sub.add_parser("check", help=_("validate board files offline (no device needed)"))
    check.add_argument(
        "game", choices=[e.id for e in catalog.entries() if e.boards], help=with_boards
    )
    check.add_argument(
        "files",
        type=Path,
        nargs="+",
        metavar=_("file"),
        help=_("JSON: one board (as `boards get` writes it) or {name: board}"),
    )
    check.add_argument("--json", action="store_true", help=_("a result per file, as JSON"))
    check.set_defaults(func=boards_check)
    for entry in catalog.entries():  # the games' own tools for their boards
        if entry.laptop:
            entry.load(entry.laptop)("boards", sub)


def boards_check(args: argparse.Namespace) -> int:
    """Validate board files with the game's own validator: a result per file, naming the
    file and the field of what is not valid. A file is read as `boards put` reads it, so
    what put refuses is refused here in the same words."""
    functions = catalog.entry(args.game).board_functions()
    assert functions is not None  # the parser offers only games with boards
    validate = functions[0]

    def check(path: Path) -> list[str]:
        boards = load_boards(path, None)
        for where, _name, board in boards:
            try:
                validate(board)
            except ValueError as exc:
                raise item_error(path, where, exc) from exc
        return [name for _where, name, _board in boards]

    return report_checks(check_files(args.files, check), args.json)


def boards_list(args: argparse.Namespace) -> int:
    if args.game:
        game_with_boards(args.game)

    def body(box: Device) -> int:
        result = box.call("boards.list", **({"game": args.game} if args.game else {}))
        if args.json:
            print_json(result)
            return 0
        rows = [[b["game"], b["name"], _source(b)] for b in result["boards"]]
        print(table([_("game"), _("board"), _("source")], rows) if rows else _("no boards"))
        return 0

    return run_with_device(args, body)


def _source(board: dict[str, Any]) -> str:
    if board["uploaded"]:
        return _("uploaded (replaces shipped)") if board["shipped"] else _("uploaded")
    return _("shipped")


def boards_get(args: argparse.Namespace) -> int:
    game_with_boards(args.game)

    def body(box: Device) -> int:
        try:
            board = box.call("boards.get", game=args.game, name=args.name)["board"]
        except RemoteError as exc:
            board_not_found(box, exc, args.game, args.name, uploaded=False)
        text = json.dumps(board, indent=2, ensure_ascii=False)
        write_text(text, args.output)
        if args.output is None:
            return 0
        what = _("board {name} of {game}").format(name=args.name, game=args.game)
        return saved(args.output, what, args.json, game=args.game, name=args.name)

    return run_with_device(args, body)


def load_boards(path: Path, name: str | None) -> list[tuple[str, str, Any]]:
    """A board file as `boards put` uploads it (and `boards check` checks it): (where in
    the file: "" for a single board, '["Eigen"]' in a {name: board} file; the name it is
    stored under; the board).

    A file of {name: board, ...} (every value an object) is uploaded as it is. A single
    board (what `boards get` writes) is stored under --name, else under its own "name";
    --name also becomes the board's "name", so the box shows one name for it. Anything
    else (a list of boards, a board without a name and no --name), and a board over the
    box's size limit, is an InvalidError (exit 7).
    """
    data = read_json(path)
    single = name is not None or not (
        isinstance(data, dict) and data and all(isinstance(v, dict) for v in data.values())
    )
    if single:
        items = [("", *_single_board(path, data, name))]
    else:
        items = [(f"[{json.dumps(k, ensure_ascii=False)}]", k, v) for k, v in data.items()]
    for _where, stored, board in items:
        size = len(json.dumps(board, ensure_ascii=False).encode("utf-8"))
        if size > board_kinds.BOARD_BYTES_MAX:
            raise InvalidError(
                _("{path}: {name}: a board has at most {limit} bytes of JSON, not {size}").format(
                    path=path, name=stored, limit=board_kinds.BOARD_BYTES_MAX, size=size
                )
            )
    return items


def _single_board(path: Path, data: Any, name: str | None) -> tuple[str, Any]:
    """(the name, the board) of a file that holds one board, named by --name or its own."""
    own = data.get("name") if isinstance(data, dict) else None
    if name is None:
        if not isinstance(own, str) or not own.strip():
            raise InvalidError(
                _("{path}: give --name NAME for a single board, or a {{name: board}} file").format(
                    path=path
                )
            )
        return own.strip(), data
    if isinstance(own, str):
        return name, {**data, "name": name}
    return name, data


def boards_put(args: argparse.Namespace) -> int:
    game_with_boards(args.game)
    try:
        items = {name: board for _where, name, board in load_boards(args.file, args.name)}
    except HostError as exc:
        return report(exc)

    def body(box: Device) -> int:
        result = call_with_pin(box, "boards.put", args.pin, game=args.game, boards=items)
        stored = ", ".join(result["stored"])
        text = _("stored for {game}: {names}").format(game=result["game"], names=stored)
        return show(result, args.json, text)

    return run_with_device(args, body)


def boards_delete(args: argparse.Namespace) -> int:
    game_with_boards(args.game)

    def body(box: Device) -> int:
        try:
            result = call_with_pin(box, "boards.delete", args.pin, game=args.game, name=args.name)
        except RemoteError as exc:
            board_not_found(box, exc, args.game, args.name, uploaded=True)
        text = _("deleted {game} board {name}").format(game=result["game"], name=result["deleted"])
        return show(result, args.json, text)

    return run_with_device(args, body)
