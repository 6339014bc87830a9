"""`spielleiter-host print GAME`: a game's print-and-play sheets as an A4 PDF.

Every game whose catalog entry declares `sheets` gets a `print GAME` command: the game
draws its pages as commands (spielleiter.games.drawing), laid out with the sizes of the
bundled font, and pdf.py renders them with fpdf2 (vector text and line art). fpdf2 comes
with the laptop's extra `print` (also in `dev`), never with the box's own install, so
this module imports it only when a PDF is made; without it, `print` says in one line
what to install. Boards given as files print the same way as the shipped ones.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from spielleiter.games import catalog

from .board_files import validated
from .device import UsageError, write_file
from .i18n import N_, _, ngettext
from .output import saved

PDF_EXTRA = N_(
    "print needs the PDF library fpdf2, the laptop's extra 'print': in the checkout"
    " python3 -m pip install '.[print]' (or into this Python: python3 -m pip install"
    " 'fpdf2>=2.8')"
)


def need_pdf_library() -> None:
    """UsageError, saying what to install, where fpdf2 is missing."""
    try:
        import fpdf  # noqa: F401
    except ImportError:
        raise UsageError(_(PDF_EXTRA)) from None


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("print", help=_("print-and-play sheets as PDF"))
    sub = parser.add_subparsers(dest="game", metavar=_("GAME"), required=True)
    for entry in catalog.entries():
        if entry.sheets is not None:
            _game(sub, entry.id, entry.sheets)


def _game(sub: Any, game: str, sheets: catalog.Sheets) -> None:
    """`print GAME --out PDF [--FILES FILE ...] [--json]` (the entry's help texts are
    marked for the catalog in the game's package)."""
    parser = sub.add_parser(game, help=_(sheets.help))
    parser.add_argument(
        "--out", type=Path, required=True, metavar=_("FILE"), help=_("the PDF to write")
    )
    if sheets.files:
        parser.add_argument(f"--{sheets.files}", dest="files", type=Path, nargs="+", default=[],
                            metavar=_("FILE"), help=_(sheets.files_help))  # fmt: skip
    parser.add_argument("--json", action="store_true", help=_("say what was written, as JSON"))
    parser.set_defaults(func=print_sheets, files=[])


def print_sheets(args: argparse.Namespace) -> int:
    """`spielleiter-host print GAME --out sheets.pdf`: the game's pages, as a PDF."""
    need_pdf_library()
    entry = catalog.entry(args.game)
    sheets = entry.sheets
    assert sheets is not None  # the parser offers only games with sheets
    boards = None
    if args.files:
        boards = [b for _, b in validated(args.files, sheets.single_key or None,
                                          entry.load(sheets.parse))]  # fmt: skip
    from . import pdf

    drawing = entry.load(sheets.draw)(boards, pdf.FontMetrics())
    write_file(args.out, pdf.render(drawing))
    if drawing.contents_plural:
        count = drawing.contents_count
        what = ngettext(drawing.contents, drawing.contents_plural, count).format(count=count)
    else:
        what = _(drawing.contents) if drawing.contents else ""
    return printed(args, drawing.pages, what)


def printed(args: argparse.Namespace, pages: int, what: str) -> int:
    """Say what was written: a line for people, or JSON under --json."""
    count = ngettext("{count} page", "{count} pages", pages).format(count=pages)
    return saved(args.out, f"{count} ({what})" if what else count, args.json, pages=pages)
