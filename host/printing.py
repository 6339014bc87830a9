"""`spielleiter-host print besenbingo`: print-and-play sheets as an A4 PDF (Pillow only).

One page per template (Bingo-Vorlage: the grid, then the score bar), and one page
with the eight tower cards to cut out. Templates given as files print the same way
as the shipped ones.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont
from spielleiter.games.besenbingo.templates import (
    SIZE,
    TOWERS,
    BarField,
    Template,
    WitchField,
    default_templates,
)

from .besenbingo_tools import TemplateFileError, load_template_files
from .device import EXIT_INVALID
from .output import print_json

DPI = 150
A4 = (1240, 1754)
"""A4 at DPI, in pixels."""
MARGIN = 80
MIN_FONT = 10
"""The smallest font a long name shrinks to (about 1.7 mm at DPI)."""
FONT_PATHS = {
    False: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    True: "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
}
"""TrueType fonts used when present; Pillow's own font otherwise."""
INK, GREY, PAPER = (0, 0, 0), (150, 150, 150), (255, 255, 255)

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@cache
def font(size: int, bold: bool = False) -> Font:
    """A font of `size` pixels: DejaVu when installed, else Pillow's default at that size."""
    path = Path(FONT_PATHS[bold])
    if path.exists():
        return ImageFont.truetype(str(path), size)
    return ImageFont.load_default(size=size)


def fitted(text: str, width: float, size: int, bold: bool = False) -> tuple[str, Font]:
    """`text` in a font of at most `size` pixels that fits `width`: a long name from an
    uploaded template shrinks instead of running into the next field, down to MIN_FONT;
    beyond that it is shortened ("Hildegard-Phil…"; the hat still tells the witch)."""
    while size > MIN_FONT and font(size, bold).getlength(text) > width:
        size -= 1
    f = font(size, bold)
    if f.getlength(text) > width:
        while len(text) > 1 and f.getlength(text + "…") > width:
            text = text[:-1]
        text += "…"
    return text, f


def _centred(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    bold: bool = False,
    width: float = float(A4[0]),
) -> None:
    """`text` centred on `xy` at `size` pixels, smaller where it would not fit `width`."""
    text, f = fitted(text, width, size, bold)
    draw.text(xy, text, font=f, fill=INK, anchor="mm")


# --- pictures -------------------------------------------------------------------


def draw_hat(draw: ImageDraw.ImageDraw, cx: float, base: float, w: float, hat: str) -> None:
    """A witch's hat standing on `base`, `w` wide; each default witch has her own shape."""
    h = w * 0.8
    if hat == "Zipfelmütze":
        draw.polygon(
            [(cx - w * 0.35, base), (cx + w * 0.35, base), (cx + w * 0.1, base - h * 0.6),
             (cx + w * 0.45, base - h * 0.9)],
            fill=GREY, outline=INK, width=3,
        )
        draw.ellipse([cx + w * 0.38, base - h * 0.98, cx + w * 0.52, base - h * 0.84], fill=INK)
    elif hat == "Krempenhut":
        draw.rectangle([cx - w * 0.22, base - h * 0.6, cx + w * 0.22, base], fill=GREY,
                       outline=INK, width=3)
        draw.ellipse([cx - w * 0.5, base - h * 0.12, cx + w * 0.5, base + h * 0.12], fill=INK)
    elif hat == "Blumenhut":
        draw.pieslice([cx - w * 0.3, base - h * 0.6, cx + w * 0.3, base + h * 0.6], 180, 360,
                      fill=GREY, outline=INK, width=3)
        draw.line([cx - w * 0.48, base, cx + w * 0.48, base], fill=INK, width=5)
        for dx in (-0.12, 0.0, 0.12):
            x = cx + w * dx
            draw.ellipse([x - w * 0.06, base - h * 0.5, x + w * 0.06, base - h * 0.38],
                         fill=PAPER, outline=INK, width=2)
    else:  # Spitzhut, and the fallback for a template's own hats
        draw.polygon([(cx - w * 0.3, base), (cx + w * 0.3, base), (cx, base - h)],
                     fill=GREY, outline=INK, width=3)
        draw.line([cx - w * 0.5, base, cx + w * 0.5, base], fill=INK, width=5)


def draw_tower(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], n: int) -> None:
    """A tower with battlements and its number."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    left, right, top = x0 + w * 0.25, x1 - w * 0.25, y0 + h * 0.22
    draw.rectangle([left, top, right, y1 - h * 0.08], outline=INK, width=4)
    step = (right - left) / 5
    for i in range(0, 5, 2):
        draw.rectangle([left + i * step, top - h * 0.1, left + (i + 1) * step, top], fill=INK)
    _centred(draw, ((x0 + x1) / 2, (top + y1) / 2), str(n), int(h * 0.34), bold=True)


# --- pages ----------------------------------------------------------------------


def template_page(template: Template) -> Image.Image:
    """One Bingo-Vorlage on an A4 page: the grid and the score bar."""
    page = Image.new("RGB", A4, PAPER)
    draw = ImageDraw.Draw(page)
    hats = {w.name: w.hat for w in template.witches}
    title = f"Besenbingo – {template.name}"
    _centred(draw, (A4[0] / 2, 90), title, 56, True, A4[0] - 2 * MARGIN)

    cell, top = 205, 150
    left = (A4[0] - SIZE * cell) / 2
    for i in range(SIZE * SIZE):
        r, c = divmod(i, SIZE)
        box = (left + c * cell, top + r * cell, left + (c + 1) * cell, top + (r + 1) * cell)
        draw.rectangle(box, outline=INK, width=3)
        content = template.cell(i)
        if isinstance(content, WitchField):
            cx = (box[0] + box[2]) / 2
            draw_hat(draw, cx, box[1] + cell * 0.45, cell * 0.55, hats[content.witch])
            inner = cell - 20
            _centred(draw, (cx, box[1] + cell * 0.62), content.witch, 30, True, inner)
            _centred(draw, (cx, box[1] + cell * 0.82), f"mit {content.copilot}", 26, False, inner)
        else:
            draw_tower(draw, box, content)

    y = top + SIZE * cell + 50
    rows: list[tuple[str, Sequence[BarField | int]]] = [
        ("Hexe", template.hexe),
        ("Copilot", template.copilot),
        ("Paar", template.paar),
        ("Kombi", template.kombi),
        ("Minus", template.minus),
    ]
    for title, fields in rows:
        _bar_row(draw, y, title, fields, hats, template)
        y += 112
    note = "Jede Reihe von links nach rechts streichen."
    _centred(draw, (A4[0] / 2, y + 10), note, 24)
    _name_and_points(draw, y + 70)
    return page


def _name_and_points(draw: ImageDraw.ImageDraw, y: float) -> None:
    """Lines to write the player's name and final points on."""
    f = font(30)
    middle = A4[0] * 0.62
    for x, label, end in (
        (MARGIN, "Name:", middle - 40),
        (middle, "Punkte:", A4[0] - MARGIN),
    ):
        draw.text((x, y), label, font=f, fill=INK, anchor="ls")
        draw.line([x + f.getlength(label) + 12, y + 4, end, y + 4], fill=INK, width=2)


def _bar_row(
    draw: ImageDraw.ImageDraw,
    y: float,
    title: str,
    fields: Sequence[BarField | int],
    hats: dict[str, str],
    template: Template,
) -> None:
    label = 170
    draw.text((MARGIN, y + 50), title, font=font(34, bold=True), fill=INK, anchor="lm")
    avail = A4[0] - 2 * MARGIN - label
    width = min(140.0, avail / max(1, len(fields)))
    x: float = MARGIN + label
    for k, field in enumerate(fields):
        box = (x, y, x + width - 8, y + 100)
        draw.rectangle(box, outline=INK, width=3)
        cx = (box[0] + box[2]) / 2
        inner = box[2] - box[0] - 10
        if isinstance(field, int):
            _centred(draw, (cx, y + 50), str(field), 40, True, inner)
        else:
            lines = [n for n in (field.witch, field.copilot) if n]
            if field.witch:
                draw_hat(draw, cx, y + 30, 30, hats[field.witch])
            small = 19 if len(lines) > 1 else 22
            first = y + (42 if field.witch else 40) - (0 if len(lines) > 1 else -4)
            for j, line in enumerate(lines):
                _centred(draw, (cx, first + 19 * j), line, small, False, inner)
            value = template.kombi_value if title == "Kombi" and k == 1 else field.value
            if title != "Kombi" or k == 1:
                _centred(draw, (cx, y + 86), f"{value} P.", 22, True, inner)
        x += width
    if title == "Kombi":
        together = f"{template.kombi_value} P. nur, wenn beide gestrichen"
        draw.text((x + 12, y + 50), together, font=font(24), fill=INK, anchor="lm")


def tower_cards_page() -> Image.Image:
    """The eight tower cards (Turmkarten), to cut out along the lines."""
    page = Image.new("RGB", A4, PAPER)
    draw = ImageDraw.Draw(page)
    _centred(draw, (A4[0] / 2, 80), "Besenbingo – Turmkarten zum Ausschneiden", 44, True)
    cols, rows = 2, 4
    w = (A4[0] - 2 * MARGIN) / cols
    h = (A4[1] - 140 - MARGIN) / rows
    for i, tower in enumerate(TOWERS):
        r, c = divmod(i, cols)
        box = (MARGIN + c * w, 140 + r * h, MARGIN + (c + 1) * w, 140 + (r + 1) * h)
        draw.rectangle(box, outline=GREY, width=2)
        draw_tower(draw, (box[0] + 20, box[1] + 20, box[2] - 20, box[3] - 20), tower)
    return page


def besenbingo_pages(templates: Sequence[Template]) -> list[Image.Image]:
    """Every template's page, then the tower cards."""
    return [template_page(t) for t in templates] + [tower_cards_page()]


def save_pdf(pages: Sequence[Image.Image], out: Path) -> None:
    """Pages as one PDF at DPI (so that they print at A4 size)."""
    first, *rest = pages
    first.save(out, "PDF", save_all=True, append_images=rest, resolution=float(DPI))


# --- command --------------------------------------------------------------------


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("print", help="print-and-play sheets as PDF")
    sub = parser.add_subparsers(dest="game", metavar="GAME", required=True)
    bingo = sub.add_parser("besenbingo", help="templates and the eight tower cards on A4")
    bingo.add_argument("--out", type=Path, required=True, help="the PDF to write")
    bingo.add_argument("--template", type=Path, nargs="+", default=[], metavar="FILE",
                       help="template files (as uploaded to the box); default: the shipped nine")
    bingo.add_argument("--json", action="store_true", help="say what was written, as JSON")
    bingo.set_defaults(func=print_besenbingo)
    from .engel_bengel_tools import register_print

    register_print(sub)


def print_besenbingo(args: argparse.Namespace) -> int:
    try:
        templates = load_template_files(args.template) if args.template else default_templates()
    except TemplateFileError as exc:
        print(f"invalid template: {exc}", file=sys.stderr)
        return EXIT_INVALID
    pages = besenbingo_pages(list(templates))
    save_pdf(pages, args.out)
    return printed(args, len(pages), f"{len(templates)} templates, tower cards")


def printed(args: argparse.Namespace, pages: int, what: str) -> int:
    """Say what was written: a line for people, or JSON under --json."""
    size = args.out.stat().st_size
    if args.json:
        print_json({"out": str(args.out), "pages": pages, "bytes": size})
    else:
        print(f"{args.out}: {pages} pages ({what}), {size // 1024} KiB")
    return 0
