"""Board and template files named on the command line: one board, a list of them, or
{name: board}; each item with where it came from, for messages that name the field.

A file that cannot be read, or is not JSON, is a UsageError (exit 2); a board in it that
is not valid is a BoardFileError naming the file and the field (exit 7). `check_files`
and `report_checks` are what `boards check` and `templates check` share: a result per
file, valid or why not.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from .device import HostError, InvalidError, UsageError, read_json
from .i18n import _, said
from .output import print_json

T = TypeVar("T")


class BoardFileError(InvalidError):
    """A board in a file that is not valid; the message names the file and the field."""


def board_items(paths: Sequence[Path], single_key: str | None) -> Iterator[tuple[Path, str, Any]]:
    """(file, where in it ("" or "[2]" or '["Eigen"]'), data) for every board in the files.

    A JSON object that has `single_key` ("grid", "rows") is one board; any other object
    maps names to boards. Without a `single_key`, an object is one board when it has a
    "name" or a value that is not an object."""
    for path in paths:
        data = read_json(Path(path))
        if isinstance(data, dict) and not _one_board(data, single_key):
            for name, board in data.items():
                yield path, f"[{json.dumps(name, ensure_ascii=False)}]", board
        elif isinstance(data, list):
            yield from ((path, f"[{i}]", v) for i, v in enumerate(data))
        else:
            yield path, "", data


def _one_board(data: dict[str, Any], single_key: str | None) -> bool:
    if single_key is not None:
        return single_key in data
    return "name" in data or not all(isinstance(v, dict) for v in data.values())


def item_error(path: Path, where: str, exc: ValueError) -> BoardFileError:
    """A validator's error (with `path` and `message`, like BoardError) as one naming the
    file and the field: "faces.json: [2].rows[1].pips[0]: ..."."""
    at = ".".join(p for p in (where, str(getattr(exc, "path", "") or "")) if p)
    message = said(getattr(exc, "message", exc))  # the game's check, in the tool's language
    return BoardFileError(f"{path}: {at}: {message}" if at else f"{path}: {message}")


def validated(
    paths: Sequence[Path], single_key: str | None, validate: Callable[[Any], T]
) -> list[tuple[str, T]]:
    """(where: the file and the item in it, validate(item)) for every board of the files;
    the first file or board that fails raises (UsageError, BoardFileError), and so does a
    file without a board."""
    result: list[tuple[str, T]] = []
    for path in paths:
        before = len(result)
        for _path, where, item in board_items([path], single_key):
            try:
                result.append((f"{path}: {where}" if where else str(path), validate(item)))
            except ValueError as exc:
                raise item_error(path, where, exc) from exc
        if len(result) == before:
            raise BoardFileError(_("{path}: holds no board").format(path=path))
    return result


@dataclass
class FileCheck:
    """What a check found in one file: the names of its boards, or why it is not valid."""

    path: Path
    names: list[str] = field(default_factory=list)
    problem: HostError | None = None

    def to_json(self) -> dict[str, Any]:
        if self.problem is None:
            return {"file": str(self.path), "valid": True, "boards": self.names}
        return {"file": str(self.path), "valid": False, "error": self.problem.message}


def check_files(paths: Sequence[Path], check: Callable[[Path], list[str]]) -> list[FileCheck]:
    """`check(file)` for every file: the names it holds, or the HostError that says why
    it cannot be used."""
    results = []
    for path in paths:
        try:
            results.append(FileCheck(path, check(path)))
        except HostError as exc:
            results.append(FileCheck(path, problem=exc))
    return results


def report_checks(checks: Sequence[FileCheck], as_json: bool) -> int:
    """A line per valid file (or under --json an object with a result per file) and 0;
    when a file is not valid, one error naming every problem (exit 2 where a file cannot
    be read, else 7), with the results per file in its JSON object."""
    files = [c.to_json() for c in checks]
    bad = [c for c in checks if c.problem is not None]
    if as_json and not bad:
        print_json({"valid": True, "files": files})
    elif not as_json:
        for c in checks:
            if c.problem is None:
                print(f"ok: {c.path}: {', '.join(c.names)}")
    if not bad:
        return 0
    problems = "; ".join(c.problem.message for c in bad if c.problem is not None)
    if len(checks) > 1:
        problems = _("{bad} of {count} files not valid: {problems}").format(
            bad=len(bad), count=len(checks), problems=problems
        )
    unreadable = any(isinstance(c.problem, UsageError) for c in bad)
    kind = UsageError if unreadable else InvalidError
    raise kind(problems, {"valid": False, "files": files})
