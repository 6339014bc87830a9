"""The PDF layer of `spielleiter-host print`: A4 pages drawn in millimetres with fpdf2.

Text stays text (vector, searchable, crisp at any printer resolution) and is set only in
the bundled font, DejaVu Sans Condensed (`fonts/`, its licence beside it), so a sheet
prints the same on every laptop. fpdf2 embeds only the glyphs a document uses. A Sheet
also keeps what it drew (texts with their boxes, named boxes) for tests to measure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from fontTools.ttLib import TTFont
from fpdf import FPDF

A4 = (210.0, 297.0)
"""Width and height of an A4 page in millimetres (portrait)."""
MARGIN = 10.0
"""Kept free on every side: home printers do not print to the edge."""
PT = 25.4 / 72
"""Millimetres per typographic point."""
FONT_DIR = Path(__file__).resolve().parent / "fonts"
FONT_FILES = {False: "DejaVuSansCondensed.ttf", True: "DejaVuSansCondensed-Bold.ttf"}
"""The only fonts a sheet uses (regular, bold), both in FONT_DIR."""
FAMILY = "DejaVu Sans Condensed"
MIN_CAP_MM = 3.5
"""The capital height that reads at arm's length."""
MIN_FIELD_PT = 14.0
"""The smallest size of field text: its capitals are 3.6 mm tall (cap_height(14) >= MIN_CAP_MM)."""
INK, DARK, GREY, LIGHT, PAPER = 0, 70, 150, 215, 255
"""Grey levels (0 black .. 255 white); a colour may also be (red, green, blue)."""

Point = tuple[float, float]
Colour = int | tuple[int, int, int]


@cache
def font_metrics(bold: bool = False) -> tuple[float, float]:
    """Capital height and descender of a bundled font, as fractions of the font size
    (from the font file itself: the top of "H" and the hhea descender)."""
    font = TTFont(FONT_DIR / FONT_FILES[bold], lazy=True)
    units = font["head"].unitsPerEm
    glyph = font["glyf"][font.getBestCmap()[ord("H")]]
    return glyph.yMax / units, -font["hhea"].descent / units


def cap_height(size: float, bold: bool = False) -> float:
    """The height of capitals in millimetres at `size` points."""
    return font_metrics(bold)[0] * size * PT


@dataclass(frozen=True)
class Placed:
    """A text as drawn: its page (from 0), its size and the box from the capitals' top to
    the descenders' bottom, in millimetres."""

    page: int
    text: str
    size: float
    bold: bool
    x0: float
    top: float
    x1: float
    bottom: float
    baseline: float


@dataclass(frozen=True)
class Box:
    """A rectangle drawn on a page, with the role the drawing gave it ("" for none)."""

    page: int
    role: str
    x0: float
    y0: float
    x1: float
    y1: float

    def holds(self, text: Placed) -> bool:
        """Whether `text` lies wholly inside, clear of the outline."""
        return (
            text.page == self.page
            and self.x0 < text.x0
            and text.x1 < self.x1
            and self.y0 < text.top
            and text.baseline < self.y1
        )


class Sheet:
    """A PDF document in the making: A4 pages in millimetres, the bundled font only.

    >>> sheet = Sheet("Probe")
    >>> sheet.page()
    >>> sheet.text(105, 20, "Krähenwald – Hexen", 14).text
    'Krähenwald – Hexen'
    >>> sheet.pdf_bytes()[:5]
    b'%PDF-'
    """

    def __init__(self, title: str) -> None:
        pdf = FPDF(orientation="portrait", unit="mm", format="A4")
        pdf.set_auto_page_break(False)
        pdf.set_margin(MARGIN)
        pdf.set_title(title)
        pdf.set_creator("spielleiter-host print")
        pdf.set_lang("de-DE")
        for bold, name in FONT_FILES.items():
            pdf.add_font(FAMILY, "B" if bold else "", FONT_DIR / name)
        self.pdf = pdf
        self.texts: list[Placed] = []
        self.boxes: list[Box] = []

    @property
    def pages(self) -> int:
        return self.pdf.page

    def page(self) -> None:
        """Start a new page."""
        self.pdf.add_page()

    def pdf_bytes(self) -> bytes:
        """The finished document."""
        return bytes(self.pdf.output())

    # --- text -------------------------------------------------------------------------

    def width(self, text: str, size: float, bold: bool = False) -> float:
        """The width of `text` in millimetres."""
        self._font(size, bold)
        return float(self.pdf.get_string_width(text))

    def fitted(
        self, text: str, width: float, size: float, bold: bool = False,
        smallest: float = MIN_FIELD_PT,
    ) -> tuple[str, float]:  # fmt: skip
        """`text` and a size of at most `size` points at which it fits `width`: a long
        name shrinks, half a point at a time, down to `smallest`; beyond that it is
        shortened ("Hildegard-Phil…")."""
        while size > smallest and self.width(text, size, bold) > width:
            size = max(smallest, size - 0.5)
        if self.width(text, size, bold) > width:
            while len(text) > 1 and self.width(text + "…", size, bold) > width:
                text = text[:-1]
            text = text.rstrip(" -–,") + "…"
        return text, size

    def text(
        self, x: float, y: float, text: str, size: float, bold: bool = False,
        align: str = "C", width: float | None = None, smallest: float = MIN_FIELD_PT,
        middle: bool = False, colour: Colour = INK,
    ) -> Placed:  # fmt: skip
        """`text` with its baseline at `y` (or, with `middle`, its capitals centred on `y`),
        starting at `x` (align "L"), ending there ("R") or centred on it ("C"); it fits
        `width` where one is given (see `fitted`)."""
        if width is not None:
            text, size = self.fitted(text, width, size, bold, smallest)
        cap, descent = (f * size * PT for f in font_metrics(bold))
        baseline = y + cap / 2 if middle else y
        w = self.width(text, size, bold)
        x0 = {"L": x, "R": x - w, "C": x - w / 2}[align]
        self.pdf.set_text_color(*_rgb(colour))
        self._font(size, bold)
        self.pdf.text(x0, baseline, text)
        placed = Placed(self.pages - 1, text, size, bold, x0, baseline - cap, x0 + w,
                        baseline + descent, baseline)  # fmt: skip
        self.texts.append(placed)
        return placed

    def paragraph(
        self, x: float, y: float, width: float, text: str, size: float, bold: bool = False,
        leading: float = 1.3,
    ) -> float:  # fmt: skip
        """`text` wrapped into lines of at most `width`, the first baseline at `y`; returns
        the baseline after the last line (a no-break space keeps two words together)."""
        line = size * PT * leading
        words = text.split(" ")
        while words:
            n = len(words)
            while n > 1 and self.width(" ".join(words[:n]), size, bold) > width:
                n -= 1
            self.text(x, y, " ".join(words[:n]), size, bold, align="L", width=width,
                      smallest=size)  # fmt: skip
            words = words[n:]
            y += line
        return y

    def _font(self, size: float, bold: bool) -> None:
        self.pdf.set_font(FAMILY, "B" if bold else "", size)

    # --- line art ---------------------------------------------------------------------

    def box(
        self, x: float, y: float, w: float, h: float, line: float = 0.4, fill: Colour | None = None,
        role: str = "", radius: float = 0.0, outline: bool = True, ink: Colour = INK,
    ) -> Box:  # fmt: skip
        """A rectangle (outlined, filled or both); `role` names it for whoever measures."""
        self._pen(line, fill, ink)
        style = ("D" if outline else "") + ("F" if fill is not None else "")
        self.pdf.rect(x, y, w, h, style=style or "D", round_corners=radius > 0,
                      corner_radius=radius)  # fmt: skip
        placed = Box(self.pages - 1, role, x, y, x + w, y + h)
        self.boxes.append(placed)
        return placed

    def line(self, a: Point, b: Point, line: float = 0.4, ink: Colour = INK,
             dash: float = 0.0) -> None:  # fmt: skip
        """A straight line, dashed where `dash` is given (dash and gap lengths)."""
        self._pen(line, None, ink)
        if dash:
            self.pdf.set_dash_pattern(dash, dash)
        self.pdf.line(a[0], a[1], b[0], b[1])
        if dash:
            self.pdf.set_dash_pattern()

    def polygon(self, points: Sequence[Point], fill: Colour | None = GREY, line: float = 0.3,
                ink: Colour = INK) -> None:  # fmt: skip
        """A closed polygon, outlined and filled (`fill` None: outline only)."""
        self._pen(line, fill, ink)
        self.pdf.polygon(list(points), style="DF" if fill is not None else "D")

    def ellipse(self, x0: float, y0: float, x1: float, y1: float, fill: Colour | None = INK,
                line: float = 0.3, outline: bool = True) -> None:  # fmt: skip
        """An ellipse in the box (x0, y0)-(x1, y1)."""
        self._pen(line, fill, INK)
        style = ("D" if outline else "") + ("F" if fill is not None else "")
        self.pdf.ellipse(x0, y0, x1 - x0, y1 - y0, style=style or "D")

    def star(self, cx: float, cy: float, r: float, fill: Colour = PAPER) -> None:
        """A five-pointed star, filled, without outline."""
        self._pen(0.1, fill, fill)
        self.pdf.star(cx, cy, r * 0.45, r, 5, rotate_degrees=-90, style="F")

    def _pen(self, line: float, fill: Colour | None, ink: Colour) -> None:
        self.pdf.set_line_width(line)
        self.pdf.set_draw_color(*_rgb(ink))
        if fill is not None:
            self.pdf.set_fill_color(*_rgb(fill))

    def mark(self, role: str, x: float, y: float, w: float, h: float) -> Box:
        """Record a rectangle under `role` without drawing it (a card's edge, say)."""
        placed = Box(self.pages - 1, role, x, y, x + w, y + h)
        self.boxes.append(placed)
        return placed


def _rgb(colour: Colour) -> tuple[int, int, int]:
    return colour if isinstance(colour, tuple) else (colour, colour, colour)
