"""The PDF layer of `spielleiter-host print`: a game's drawing (spielleiter.games.drawing)
rendered as A4 pages with fpdf2.

Text stays text (vector, searchable, crisp at any printer resolution) and is set only in
the bundled font, DejaVu Sans Condensed (`fonts/`, its licence beside it), so a sheet
prints the same on every laptop. fpdf2 embeds only the glyphs a document uses. The game
lays out its pages with this font's sizes (:class:`FontMetrics`), so what it measured is
what prints.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from fontTools.ttLib import TTFont
from fpdf import FPDF
from spielleiter.games.drawing import (
    MARGIN,
    Colour,
    Drawing,
    Ellipse,
    Line,
    Page,
    Polygon,
    Rect,
    Star,
    Text,
)

FONT_DIR = Path(__file__).resolve().parent / "fonts"
FONT_FILES = {False: "DejaVuSansCondensed.ttf", True: "DejaVuSansCondensed-Bold.ttf"}
"""The only fonts a sheet uses (regular, bold), both in FONT_DIR."""
FAMILY = "DejaVu Sans Condensed"


@cache
def font_metrics(bold: bool = False) -> tuple[float, float]:
    """Capital height and descender of a bundled font, as fractions of the font size
    (from the font file itself: the top of "H" and the hhea descender)."""
    font = TTFont(FONT_DIR / FONT_FILES[bold], lazy=True)
    units = font["head"].unitsPerEm
    glyph = font["glyf"][font.getBestCmap()[ord("H")]]
    return glyph.yMax / units, -font["hhea"].descent / units


def _document(title: str) -> FPDF:
    """An empty A4 document in millimetres with the bundled fonts."""
    pdf = FPDF(orientation="portrait", unit="mm", format="A4")
    pdf.set_auto_page_break(False)
    pdf.set_margin(MARGIN)
    pdf.set_title(title)
    pdf.set_creator("spielleiter-host print")
    pdf.set_lang("de-DE")
    for bold, name in FONT_FILES.items():
        pdf.add_font(FAMILY, "B" if bold else "", FONT_DIR / name)
    return pdf


class FontMetrics:
    """The sizes of the bundled font, as fpdf2 sets it: what a game lays its sheets out by.

    >>> round(FontMetrics().width("Hexe", 14, False), 2)
    11.44
    """

    def __init__(self) -> None:
        self._pdf = _document("")

    def width(self, text: str, size: float, bold: bool) -> float:
        self._pdf.set_font(FAMILY, "B" if bold else "", size)
        return float(self._pdf.get_string_width(text))

    def cap(self, bold: bool) -> float:
        return font_metrics(bold)[0]

    def descent(self, bold: bool) -> float:
        return font_metrics(bold)[1]


def render(drawing: Drawing) -> bytes:
    """The drawing as a PDF document."""
    pdf = _document(drawing.title)
    for command in drawing.commands:
        match command:
            case Page():
                pdf.add_page()
            case Text(x, y, text, size, bold, colour):
                pdf.set_text_color(*_rgb(colour))
                pdf.set_font(FAMILY, "B" if bold else "", size)
                pdf.text(x, y, text)
            case Rect(x, y, w, h, line, fill, outline, radius, ink):
                _pen(pdf, line, fill, ink)
                style = ("D" if outline else "") + ("F" if fill is not None else "")
                pdf.rect(x, y, w, h, style=style, round_corners=radius > 0,
                         corner_radius=radius)  # fmt: skip
            case Line(a, b, line, ink, dash):
                _pen(pdf, line, None, ink)
                if dash:
                    pdf.set_dash_pattern(dash, dash)
                pdf.line(a[0], a[1], b[0], b[1])
                if dash:
                    pdf.set_dash_pattern()
            case Polygon(points, fill, line, ink):
                _pen(pdf, line, fill, ink)
                pdf.polygon(list(points), style="DF" if fill is not None else "D")
            case Ellipse(x0, y0, x1, y1, fill, line, outline):
                _pen(pdf, line, fill, 0)
                style = ("D" if outline else "") + ("F" if fill is not None else "")
                pdf.ellipse(x0, y0, x1 - x0, y1 - y0, style=style)
            case Star(cx, cy, r, fill):
                _pen(pdf, 0.1, fill, fill)
                pdf.star(cx, cy, r * 0.45, r, 5, rotate_degrees=-90, style="F")
    return bytes(pdf.output())


def _pen(pdf: FPDF, line: float, fill: Colour | None, ink: Colour) -> None:
    pdf.set_line_width(line)
    pdf.set_draw_color(*_rgb(ink))
    if fill is not None:
        pdf.set_fill_color(*_rgb(fill))


def _rgb(colour: Colour) -> tuple[int, int, int]:
    return colour if isinstance(colour, tuple) else (colour, colour, colour)
