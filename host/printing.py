"""`spielleiter-host print besenbingo|engel-bengel`: print-and-play sheets as an A4 PDF.

The pages are drawn by besenbingo_sheets and engel_bengel_sheets over the PDF layer in
pdf.py (fpdf2 and the bundled DejaVu font: vector text and line art). fpdf2 comes with
the laptop's extra `print` (also in `dev`), never with the box's own install, so this
module imports it only when a PDF is made; without it, `print` says in one line what to
install. Templates and faces given as files print the same way as the shipped ones.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from spielleiter.games.besenbingo.laptop import load_template_files
from spielleiter.games.besenbingo.templates import default_templates

from .device import UsageError, write_file
from .output import saved

PDF_EXTRA = (
    "print needs the PDF library fpdf2, the laptop's extra 'print': in the checkout"
    " python3 -m pip install '.[print]' (or into this Python: python3 -m pip install"
    " 'fpdf2>=2.8')"
)


def need_pdf_library() -> None:
    """UsageError, saying what to install, where fpdf2 is missing."""
    try:
        import fpdf  # noqa: F401
    except ImportError:
        raise UsageError(PDF_EXTRA) from None


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("print", help="print-and-play sheets as PDF")
    sub = parser.add_subparsers(dest="game", metavar="GAME", required=True)
    from spielleiter.games.engel_bengel.laptop import print_faces

    _game(sub, "besenbingo", "tower cards and their backs, the rules, one page per template",
          "--template", "template files (as uploaded to the box); default: the shipped nine",
          print_besenbingo)  # fmt: skip
    _game(sub, "engel-bengel", "every board face on A4, two a page",
          "--face", "face files (as uploaded to the box); default: the shipped 16",
          print_faces)  # fmt: skip


def _game(sub: Any, game: str, what: str, files: str, files_help: str, func: Any) -> None:
    """`print GAME --out PDF [--FILES FILE ...] [--json]`."""
    parser = sub.add_parser(game, help=what)
    parser.add_argument("--out", type=Path, required=True, help="the PDF to write")
    parser.add_argument(files, type=Path, nargs="+", default=[], metavar="FILE", help=files_help)
    parser.add_argument("--json", action="store_true", help="say what was written, as JSON")
    parser.set_defaults(func=func)


def print_besenbingo(args: argparse.Namespace) -> int:
    """`spielleiter-host print besenbingo --out sheets.pdf`."""
    need_pdf_library()
    templates = load_template_files(args.template) if args.template else default_templates()
    from spielleiter.games.besenbingo.sheets import besenbingo_sheet

    sheet = besenbingo_sheet(list(templates))
    write_file(args.out, sheet.pdf_bytes())
    what = f"tower cards and their backs, rules, {len(templates)} templates"
    return printed(args, sheet.pages, what)


def printed(args: argparse.Namespace, pages: int, what: str) -> int:
    """Say what was written: a line for people, or JSON under --json."""
    return saved(args.out, f"{pages} pages ({what})", args.json, pages=pages)
