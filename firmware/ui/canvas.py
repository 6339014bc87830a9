"""Drawing on the 128x64 one-bit panel: text in the bundled fonts, boxes, soft keys."""

from __future__ import annotations

import io
import threading
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from .fonts import SIZES, SMALL, TEXT, TINY, font

WIDTH = 128
HEIGHT = 64
SOFTKEY_TOP = 56
"""The bottom line (y 56..63) labels the four soft keys."""
BODY_HEIGHT = SOFTKEY_TOP - 1



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

    def png(self) -> bytes:
        """The frame as a PNG file (for the laptop link; the panel never needs one)."""
        buf = io.BytesIO()
        self.image.save(buf, "PNG")
        return buf.getvalue()

    @staticmethod
    def text_width(text: str, size: str = TEXT) -> int:
        return SIZES[size][0] * len(text)

    def text(self, xy: tuple[int, int], text: str, size: str = TEXT, fill: int = 1) -> None:
        """Text with its top-left corner at xy (characters the fonts lack become "?")."""
        printable = text.encode("latin-1", "replace").decode("latin-1")
        self.draw.text(xy, printable, font=font(size), fill=fill)

    def text_center(
        self, y: int, text: str, size: str = TEXT, x0: int = 0, x1: int = WIDTH
    ) -> None:
        """Text centred between x0 and x1."""
        w = self.text_width(text, size)
        self.text((x0 + max(0, (x1 - x0 - w) // 2), y), text, size)

    def text_right(self, x_right: int, y: int, text: str, size: str = TEXT, fill: int = 1) -> None:
        """Text whose right edge is at x_right."""
        self.text((x_right - self.text_width(text, size), y), text, size, fill)

    def rect(
        self, box: tuple[int, int, int, int], fill: int | None = None, outline: int = 1
    ) -> None:
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
        """A title line at the top, inverted; returns the y below it."""
        self.draw.rectangle((0, 0, WIDTH - 1, 8), fill=1)
        self.text((1, 0), text[:21], SMALL, fill=0)
        if right:
            self.text_right(WIDTH - 1, 0, right, SMALL, fill=0)
        return 11

    def softkeys(self, labels: Sequence[str]) -> None:
        """The bottom line: four cells labelled for K1..K4 (empty label: key unused)."""
        self.draw.line((0, SOFTKEY_TOP - 1, WIDTH - 1, SOFTKEY_TOP - 1), fill=1)
        for i, label in enumerate(list(labels)[:4]):
            x0 = i * 32
            if i:
                self.draw.line((x0, SOFTKEY_TOP, x0, HEIGHT - 1), fill=1)
            if label:
                fit = label[:7] if len(label) > 6 else label
                size = SMALL if len(fit) <= 6 else TINY
                self.text_center(SOFTKEY_TOP + (1 if size == SMALL else 2), fit, size, x0, x0 + 32)

    def wrap(self, xy: tuple[int, int], text: str, size: str = TEXT, width: int = WIDTH) -> int:
        """Word-wrapped text; returns the y below the last line."""
        cw, ch = SIZES[size]
        per_line = max(1, width // cw)
        x, y = xy
        for paragraph in text.split("\n"):
            line = ""
            for word in paragraph.split(" "):
                candidate = f"{line} {word}".strip()
                if len(candidate) > per_line and line:
                    self.text((x, y), line, size)
                    y += ch + 1
                    line = word
                else:
                    line = candidate
            self.text((x, y), line, size)
            y += ch + 1
        return y


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
