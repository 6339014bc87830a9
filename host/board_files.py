"""Board and template files named on the command line: one board, a list of them, or
{name: board}; each item with where it came from, for messages that name the field."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any


class BoardFileError(ValueError):
    """A file that cannot be read as boards; the message names the file."""


def board_items(paths: Sequence[Path], single_key: str) -> Iterator[tuple[Path, str, Any]]:
    """(file, where in it ("" or "[2]" or '["Eigen"]'), data) for every board in the files.

    A JSON object that has `single_key` ("grid", "rows") is one board; any other object
    maps names to boards."""
    for path in paths:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise BoardFileError(f"{path}: {exc}") from exc
        except UnicodeDecodeError:
            raise BoardFileError(f"{path}: not a JSON text file") from None
        if isinstance(data, dict) and single_key not in data:
            for name, board in data.items():
                yield path, f"[{json.dumps(name, ensure_ascii=False)}]", board
        elif isinstance(data, list):
            yield from ((path, f"[{i}]", v) for i, v in enumerate(data))
        else:
            yield path, "", data
