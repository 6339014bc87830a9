"""Drawing on the 128x64 one-bit panel: text in the bundled fonts, boxes, soft keys."""

from __future__ import annotations

import io
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from .fonts import SIZES, SMALL, TEXT, TINY, font

WIDTH = 128
HEIGHT = 64
SOFTKEY_TOP = 56
"""The bottom line (y 56..63) labels the four soft keys."""
BODY_HEIGHT = SOFTKEY_TOP - 1
PANEL = (0, 0, WIDTH - 1, HEIGHT - 1)
BODY = (0, 0, WIDTH - 1, SOFTKEY_TOP - 2)
"""Where a screen's body may draw (the line above the soft keys is y 55)."""

Box = tuple[int, int, int, int]
"""x0, y0, x1, y1 in pixels, the last row and column included."""


@dataclass(frozen=True)
class TextRun:
    """A text as it was drawn: where, in which font, and the box it must stay inside.

    Screens never check this; tests do (tests/test_text_fits.py), with the font's own
    metrics: a text that leaves its box, or was cut to fit it, or overlaps another."""

    xy: tuple[int, int]
    text: str
    size: str
    box: Box
    cut: str = ""
    """The text that was wanted, when it had to be cut to fit its box ("" if not)."""
    order: int = 0


def short_name(name: str, chars: int) -> str:
    """A name cut to `chars`, keeping a trailing number ("Normal 3" -> "Nor3")."""
    if len(name) <= chars:
        return name
    head, _, number = name.rpartition(" ")
    if number.isdigit() and head and len(number) < chars:
        return head[: chars - len(number)] + number
    return name[:chars]


class Canvas:
    """A frame being drawn. Coordinates in pixels, origin top left; white = 1."""

    def __init__(self) -> None:
        self.image = Image.new("1", (WIDTH, HEIGHT), 0)
        self.draw = ImageDraw.Draw(self.image)
        self.runs: list[TextRun] = []
        """Every text drawn, in order (for the tests that check what fits)."""
        self.covers: list[tuple[Box, int]] = []
        """Filled boxes drawn over what was there (a banner, a box over the table)."""
        self.limit: Box = PANEL
        """The box a text without one of its own must stay in (render: the body, then
        the whole panel for the soft keys)."""

    def png(self) -> bytes:
        """The frame as a PNG file (for the laptop link; the panel never needs one)."""
        buf = io.BytesIO()
        self.image.save(buf, "PNG")
        return buf.getvalue()

    @staticmethod
    def text_width(text: str, size: str = TEXT) -> int:
        return SIZES[size][0] * len(text)

    def text(
        self,
        xy: tuple[int, int],
        text: str,
        size: str = TEXT,
        fill: int = 1,
        box: Box | None = None,
    ) -> None:
        """Text with its top-left corner at xy (characters the fonts lack become "?").

        With `box`, the text belongs inside it and is cut at its right edge where it is
        longer (never spilling into its neighbour; the tests flag the cut)."""
        printable = text.encode("latin-1", "replace").decode("latin-1")
        cut = ""
        if box is not None:
            # a cell's last column is its gap to the next: it may lie past the box
            room = max(0, (box[2] + 2 - xy[0]) // SIZES[size][0])
            if len(printable) > room:
                cut, printable = printable, printable[:room]
        self.runs.append(
            TextRun((int(xy[0]), int(xy[1])), printable, size, box or self.limit, cut,
                    len(self.runs) + len(self.covers))
        )  # fmt: skip
        self.draw.text(xy, printable, font=font(size), fill=fill)

    def text_center(
        self,
        y: int,
        text: str,
        size: str = TEXT,
        x0: int = 0,
        x1: int = WIDTH,
        fill: int = 1,
    ) -> None:
        """Text centred between x0 and x1 (it belongs there: a longer one is cut)."""
        w = self.text_width(text, size)
        x = x0 + max(0, (x1 - x0 - w) // 2)
        self.text((x, y), text, size, fill, box=(x0, y, x1 - 1, y + SIZES[size][1] - 1))

    def text_right(self, x_right: int, y: int, text: str, size: str = TEXT, fill: int = 1) -> None:
        """Text whose right edge is at x_right."""
        self.text((x_right - self.text_width(text, size), y), text, size, fill)

    def rect(
        self, box: tuple[int, int, int, int], fill: int | None = None, outline: int = 1
    ) -> None:
        if fill is not None:
            self.covers.append((box, len(self.runs) + len(self.covers)))
        self.draw.rectangle(box, fill=fill, outline=outline)

    def line(self, xy: Sequence[int], fill: int = 1) -> None:
        self.draw.line(list(xy), fill=fill)

    def invert(self, box: tuple[int, int, int, int]) -> None:
        """Swap black and white inside a box (highlight)."""
        x0, y0, x1, y1 = box
        region = self.image.crop((x0, y0, x1 + 1, y1 + 1))
        self.image.paste(ImageChops.invert(region.convert("L")).convert("1"), (x0, y0))

    def hatch(self, box: tuple[int, int, int, int]) -> None:
        """A checker pattern: the panel's stand-in for a colour or a crossed field."""
        x0, y0, x1, y1 = box
        for y in range(y0, y1 + 1):
            for x in range(x0 + (y - y0) % 2, x1 + 1, 2):
                self.draw.point((x, y), fill=1)

    def title(self, text: str, right: str = "") -> int:
        """A title line at the top, inverted, with `right` at its right end; returns the
        y below it. The title keeps a gap of a character before `right`."""
        self.draw.rectangle((0, 0, WIDTH - 1, 8), fill=1)
        end = WIDTH - 1
        if right:
            self.text_right(WIDTH - 1, 0, right, SMALL, fill=0)
            end = WIDTH - 1 - self.text_width(right, SMALL) - SIZES[SMALL][0]
        self.text((1, 0), text, SMALL, fill=0, box=(0, 0, end, 8))
        return 11

    def softkeys(self, labels: Sequence[str]) -> None:
        """The bottom line: four cells labelled for K1..K4 (empty label: key unused)."""
        self.draw.line((0, SOFTKEY_TOP - 1, WIDTH - 1, SOFTKEY_TOP - 1), fill=1)
        for i, label in enumerate(list(labels)[:4]):
            x0 = i * 32
            if i:
                self.draw.line((x0, SOFTKEY_TOP, x0, HEIGHT - 1), fill=1)
            if label:
                size = SMALL if len(label) <= 6 else TINY
                left = x0 + 1 if i else x0
                cell = (left, SOFTKEY_TOP, x0 + 31, HEIGHT - 1)
                x = max(left, x0 + (32 - self.text_width(label, size)) // 2)
                y = SOFTKEY_TOP + (1 if size == SMALL else 2)
                self.text((x, y), label, size, box=cell)

    def wrap(
        self,
        xy: tuple[int, int],
        text: str,
        size: str = TEXT,
        width: int = WIDTH,
        bottom: int | None = None,
    ) -> int:
        """Word-wrapped text; returns the y below the last line. Each line belongs inside
        `width` (and above `bottom`, when given)."""
        x, y = xy
        ch = SIZES[size][1]
        for line in wrap_lines(text, size, width):
            low = bottom if bottom is not None else self.limit[3]
            self.text((x, y), line, size, box=(x, self.limit[1], x + width - 1, low))
            y += ch + 1
        return y


def fitting(text: str, width: int, sizes: Sequence[str] = (TEXT, SMALL, TINY)) -> str:
    """The largest of `sizes` in which `text` fits `width` pixels (the smallest if none)."""
    for size in sizes:
        if Canvas.text_width(text, size) <= width:
            return size
    return sizes[-1]


def fitting_wrap(
    text: str, width: int, height: int, sizes: Sequence[str] = (TEXT, SMALL, TINY)
) -> str:
    """The largest of `sizes` in which `text`, wrapped as `Canvas.wrap` does (a pixel
    row between lines), fits `width` x `height` pixels (the smallest if none)."""
    for size in sizes:
        lines = wrap_lines(text, size, width)
        widest = max(len(line) for line in lines) * SIZES[size][0]
        if len(lines) * (SIZES[size][1] + 1) - 1 <= height and widest <= width:
            return size
    return sizes[-1]


def fit_line(
    text: str, width: int, names: Sequence[str] = (), sizes: Sequence[str] = (SMALL, TINY)
) -> tuple[str, str]:
    """A line of news as it fits `width` pixels: in the largest of `sizes` it fits, else
    in the smallest with the players' `names` in it shortened (short_name), as little as
    needed. (text, size); a text that fits in no way comes back whole, to be cut."""
    for size in sizes:
        if Canvas.text_width(text, size) <= width:
            return text, size
    size = sizes[-1]
    present = sorted({n for n in names if n and n in text}, key=len, reverse=True)
    for chars in range(max((len(n) for n in present), default=0) - 1, 2, -1):
        shorter = text
        for name in present:
            shorter = shorter.replace(name, short_name(name, chars))
        if Canvas.text_width(shorter, size) <= width:
            return shorter, size
    return text, size


def fit_wrap(
    text: str, width: int, lines: int, names: Sequence[str] = (), size: str = TINY
) -> list[str]:
    """Text wrapped into at most `lines` lines of `width` pixels, the players' `names` in
    it shortened as little as needed; the whole text wrapped (more lines) if no way fits."""
    wrapped = wrap_lines(text, size, width)
    if len(wrapped) <= lines and all(Canvas.text_width(w, size) <= width for w in wrapped):
        return wrapped
    present = sorted({n for n in names if n and n in text}, key=len, reverse=True)
    for chars in range(max((len(n) for n in present), default=0) - 1, 2, -1):
        shorter = text
        for name in present:
            shorter = shorter.replace(name, short_name(name, chars))
        found = wrap_lines(shorter, size, width)
        if len(found) <= lines and all(Canvas.text_width(w, size) <= width for w in found):
            return found
    return wrapped


def wrap_lines(text: str, size: str = TEXT, width: int = WIDTH) -> list[str]:
    """The lines `wrap` draws: words moved to the next line where they do not fit,
    paragraphs at each "\n"."""
    per_line = max(1, width // SIZES[size][0])
    lines = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            candidate = f"{line} {word}".strip()
            if len(candidate) > per_line and line:
                lines.append(line)
                line = word
            else:
                line = candidate
        lines.append(line)
    return lines


class ShownFrame:
    """The frame on the panel now and its screen's summary, as the laptop link asks for
    them from its own thread: the PNG is encoded once, when first asked, never per frame."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._canvas: Canvas | None = None
        self._png = b""
        self._summary: dict[str, Any] = {}

    def shown(self, canvas: Canvas, summary: dict[str, Any]) -> None:
        """`canvas` went to the panel (it is not drawn on again)."""
        with self._lock:
            self._canvas, self._png, self._summary = canvas, b"", summary

    def png(self) -> tuple[bytes, dict[str, Any]]:
        """(PNG of the frame shown now, b"" before the first; a copy of its summary)."""
        with self._lock:
            if self._canvas is not None and not self._png:
                self._png = self._canvas.png()
            return self._png, dict(self._summary)
