"""Printable pages as data: what a game's print-and-play sheets draw, for the laptop to render.

A game's sheets (its package's ``sheets`` module, declared by its catalog entry) draw on a
:class:`Drawing`: A4 pages in millimetres with texts, boxes, lines, polygons, ellipses and
stars. The drawing is a list of commands (:attr:`Drawing.commands`) that
``spielleiter-host print`` renders as a vector PDF; it also keeps what it drew (texts with
their boxes, named boxes) for tests to measure. Laying out text needs the widths of the
one font a sheet is set in: the renderer hands in its :class:`Metrics`, so nothing here
needs a font file or a PDF library, and the box never imports one.

    >>> drawing = Drawing("Probe", Monospaced())
    >>> drawing.page()
    >>> drawing.text(105, 20, "Krähenwald", 14).text
    'Krähenwald'
    >>> [type(c).__name__ for c in drawing.commands]
    ['Page', 'Text']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

A4 = (210.0, 297.0)
"""Width and height of an A4 page in millimetres (portrait)."""
MARGIN = 10.0
"""Kept free on every side: home printers do not print to the edge."""
PT = 25.4 / 72
"""Millimetres per typographic point."""
MIN_CAP_MM = 3.5
"""The capital height that reads at arm's length."""
MIN_FIELD_PT = 14.0
"""The smallest size of field text: its capitals are 3.6 mm tall in the sheets' font."""
INK, DARK, GREY, LIGHT, PAPER = 0, 70, 150, 215, 255
"""Grey levels (0 black .. 255 white); a colour may also be (red, green, blue)."""

Point = tuple[float, float]
Colour = int | tuple[int, int, int]


class Metrics(Protocol):
    """The sizes of the font a sheet is set in (regular and bold), from whoever renders."""

    def width(self, text: str, size: float, bold: bool) -> float:
        """The width of `text` in millimetres at `size` points."""
        ...

    def cap(self, bold: bool) -> float:
        """The height of capitals as a fraction of the font size."""
        ...

    def descent(self, bold: bool) -> float:
        """How far descenders reach below the baseline, as a fraction of the font size."""
        ...


class Monospaced:
    """Metrics of a plain stand-in font (every character 0.5 em wide, capitals 0.7 em):
    for laying out a drawing where no font is at hand (doctests, the box's own tests)."""

    def width(self, text: str, size: float, bold: bool) -> float:
        return 0.5 * len(text) * size * PT

    def cap(self, bold: bool) -> float:
        return 0.7

    def descent(self, bold: bool) -> float:
        return 0.2


# --- the commands a renderer draws -----------------------------------------------------------


@dataclass(frozen=True)
class Page:
    """Start a new page."""


@dataclass(frozen=True)
class Text:
    """A text starting at `x` with its baseline at `y`, as it is to be set (already fitted)."""

    x: float
    y: float
    text: str
    size: float
    bold: bool
    colour: Colour


@dataclass(frozen=True)
class Rect:
    """A rectangle, outlined, filled or both, with rounded corners where `radius` > 0."""

    x: float
    y: float
    w: float
    h: float
    line: float
    fill: Colour | None
    outline: bool
    radius: float
    ink: Colour


@dataclass(frozen=True)
class Line:
    """A straight line, dashed where `dash` is given (dash and gap lengths)."""

    a: Point
    b: Point
    line: float
    ink: Colour
    dash: float


@dataclass(frozen=True)
class Polygon:
    """A closed polygon, outlined, and filled unless `fill` is None."""

    points: tuple[Point, ...]
    fill: Colour | None
    line: float
    ink: Colour


@dataclass(frozen=True)
class Ellipse:
    """An ellipse in the box (x0, y0)-(x1, y1)."""

    x0: float
    y0: float
    x1: float
    y1: float
    fill: Colour | None
    line: float
    outline: bool


@dataclass(frozen=True)
class Star:
    """A five-pointed star, filled, without outline."""

    cx: float
    cy: float
    r: float
    fill: Colour


Command = Page | Text | Rect | Line | Polygon | Ellipse | Star


# --- what was drawn, for measuring ---------------------------------------------------------


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


class Drawing:
    """Pages in the making: A4 in millimetres, every text in the renderer's font."""

    def __init__(self, title: str, metrics: Metrics) -> None:
        self.title = title
        self.metrics = metrics
        self.contents = ""
        """What the pages hold, in a few English words for the line that says what was
        written (the laptop tool translates it from its catalog); `holds` sets it."""
        self.contents_plural = ""
        self.contents_count = 0
        self.commands: list[Command] = []
        self.texts: list[Placed] = []
        self.boxes: list[Box] = []
        self._pages = 0

    @property
    def pages(self) -> int:
        return self._pages

    def holds(self, singular: str, plural: str, count: int) -> None:
        """Say what the pages hold, with a number: `singular` (count 1) or `plural`, in
        English with {count} for it; `make messages` takes both for the laptop's catalog
        (the keyword holds:1,2), which picks the form of its language."""
        self.contents, self.contents_plural, self.contents_count = singular, plural, count

    def page(self) -> None:
        """Start a new page."""
        self._pages += 1
        self.commands.append(Page())

    def cap_height(self, size: float, bold: bool = False) -> float:
        """The height of capitals in millimetres at `size` points."""
        return self.metrics.cap(bold) * size * PT

    # --- text -------------------------------------------------------------------------

    def width(self, text: str, size: float, bold: bool = False) -> float:
        """The width of `text` in millimetres."""
        return float(self.metrics.width(text, size, bold))

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
        cap = self.metrics.cap(bold) * size * PT
        descent = self.metrics.descent(bold) * size * PT
        baseline = y + cap / 2 if middle else y
        w = self.width(text, size, bold)
        x0 = {"L": x, "R": x - w, "C": x - w / 2}[align]
        self.commands.append(Text(x0, baseline, text, size, bold, colour))
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

    # --- line art ---------------------------------------------------------------------

    def box(
        self, x: float, y: float, w: float, h: float, line: float = 0.4, fill: Colour | None = None,
        role: str = "", radius: float = 0.0, outline: bool = True, ink: Colour = INK,
    ) -> Box:  # fmt: skip
        """A rectangle (outlined, filled or both); `role` names it for whoever measures."""
        self.commands.append(Rect(x, y, w, h, line, fill, outline or fill is None, radius, ink))
        placed = Box(self.pages - 1, role, x, y, x + w, y + h)
        self.boxes.append(placed)
        return placed

    def line(self, a: Point, b: Point, line: float = 0.4, ink: Colour = INK,
             dash: float = 0.0) -> None:  # fmt: skip
        """A straight line, dashed where `dash` is given (dash and gap lengths)."""
        self.commands.append(Line(a, b, line, ink, dash))

    def polygon(self, points: Sequence[Point], fill: Colour | None = GREY, line: float = 0.3,
                ink: Colour = INK) -> None:  # fmt: skip
        """A closed polygon, outlined and filled (`fill` None: outline only)."""
        self.commands.append(Polygon(tuple(points), fill, line, ink))

    def ellipse(self, x0: float, y0: float, x1: float, y1: float, fill: Colour | None = INK,
                line: float = 0.3, outline: bool = True) -> None:  # fmt: skip
        """An ellipse in the box (x0, y0)-(x1, y1)."""
        self.commands.append(Ellipse(x0, y0, x1, y1, fill, line, outline or fill is None))

    def star(self, cx: float, cy: float, r: float, fill: Colour = PAPER) -> None:
        """A five-pointed star, filled, without outline."""
        self.commands.append(Star(cx, cy, r, fill))

    def mark(self, role: str, x: float, y: float, w: float, h: float) -> Box:
        """Record a rectangle under `role` without drawing it (a card's edge, say)."""
        placed = Box(self.pages - 1, role, x, y, x + w, y + h)
        self.boxes.append(placed)
        return placed
