"""Printing for people (aligned tables) and for scripts (JSON)."""

from __future__ import annotations

import json
import sys
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .device import write_file
from .i18n import _, ngettext, yes_answers

NONE: Mapping[str, str] = MappingProxyType({})
"""No labels, or no words (what `plain` and `labelled` take when given none)."""


def confirmed(question: str, yes: bool) -> bool:
    """Ask at a terminal before something is cleared or deleted (`--yes` skips it; a
    script without a terminal is not asked). The answer is in the tool's language:
    "[j/N]" takes j or ja in German, "[y/N]" y or yes in English."""
    if yes or not sys.stdin.isatty():
        return True
    try:
        # TRANSLATORS: after a question; the capital letter is what Enter alone answers
        choices = _("[y/N]")
        answer = input(f"{question} {choices} ")
    except EOFError:
        return False
    return answer.strip().lower() in yes_answers()


def print_json(value: Any) -> None:
    """A result as indented JSON with stable key order."""
    print(json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True))


def show(result: Any, as_json: bool, text: str) -> int:
    """A command's answer: the device's result as JSON for scripts, a line for people."""
    if as_json:
        print_json(result)
    else:
        print(text)
    return 0


def saved(path: Path, what: str, as_json: bool, note: str = "", **facts: Any) -> int:
    """Say that a file was written: one line for people ("FILE: what, its size", and a
    `note`), or under --json an object naming the file, its size and `facts`."""
    size = path.stat().st_size
    if as_json:
        print_json({"file": str(path), "bytes": size, **facts})
    else:
        print(f"{path}: {what}, {size_text(size)}{note}")
    return 0


def size_text(size: int) -> str:
    """A file's size for people: bytes, or KiB from 10 KiB on."""
    if size < 10 * 1024:
        return ngettext("{size} byte", "{size} bytes", size).format(size=size)
    return _("{size} KiB").format(size=size // 1024)


def write_text(text: str, output: Path | None) -> None:
    """Text to a file when one is named (a download), else to the terminal."""
    if output is not None:
        write_file(output, (text + "\n").encode("utf-8"))
    else:
        print(text)


def table(
    headers: Sequence[str], rows: Sequence[Sequence[Any]], figures: Collection[int] = ()
) -> str:
    """Rows under headers in aligned columns; numbers right-aligned, and so are the
    columns numbered in `figures` (numbers written as text: "23.4", "-", "new")."""
    cells = [[_cell(v) for v in row] for row in rows]
    widths = [len(h) for h in headers]
    for row in cells:
        widths = [max(w, len(c)) for w, c in zip(widths, row, strict=True)]
    numeric = [
        i in figures
        or bool(rows)
        and all(isinstance(r[i], int | float) and not isinstance(r[i], bool) for r in rows)
        for i in range(len(headers))
    ]

    def line(values: Sequence[str]) -> str:
        parts = [
            v.rjust(w) if num else v.ljust(w)
            for v, w, num in zip(values, widths, numeric, strict=True)
        ]
        return "  ".join(parts).rstrip()

    out = [line(list(headers)), line(["-" * w for w in widths])]
    out.extend(line(row) for row in cells)
    return "\n".join(out)


def labelled(
    fields: Mapping[str, Any], labels: Mapping[str, str], words: Mapping[str, str] = NONE
) -> list[list[str]]:
    """A box's fields as rows of a table for people: each field under its label in the
    laptop's language, in the order of `labels` (a field it lacks, from a newer box, under
    its own key, after them), its value `plain`."""
    order = {key: i for i, key in enumerate(labels)}
    keys = sorted(fields, key=lambda k: (order.get(k, len(order)), k))
    return [[labels.get(k, k), plain(fields[k], labels, words)] for k in keys]


def plain(value: Any, labels: Mapping[str, str] = NONE, words: Mapping[str, str] = NONE) -> str:
    """A value the box sent, for people: yes or no, "-" for none, a list joined with
    commas, an object as (label: value; …) under `labels`; a string that is one of our
    `words` (a state such as "emulated") in the laptop's language, anything else (a
    version, a name, a number, the panel's words) as it came.

    >>> from spielleiter_host import i18n
    >>> i18n.use("de")
    >>> plain([True, None, "keyboard", "Anna", 2], words={"keyboard": "Tastatur"})
    'ja, -, Tastatur, Anna, 2'
    >>> i18n.use(None)
    """
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, list | tuple):
        return ", ".join(plain(v, labels, words) for v in value)
    if isinstance(value, dict):
        inner = "; ".join(
            f"{labels.get(k, k)}: {plain(v, labels, words)}" for k, v in value.items()
        )
        return f"({inner})"
    if isinstance(value, str):
        return words.get(value, value)
    return "-" if value is None else str(value)


def _cell(value: Any) -> str:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None:
        return "-"
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False)
    return str(value)
