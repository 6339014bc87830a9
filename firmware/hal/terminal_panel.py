"""The 128x64 panel as text, in the largest form that fits the terminal.

Three renderings, finest first: half blocks (1x2 pixels a character: 130 x 36 with
the frame, the key line and the help line), quadrant blocks (2x2: 66 x 36) and
braille (2x4: 66 x 20, which fits an 80 x 24 terminal). When not even braille fits,
one line says how large the terminal must be.

In braille, a lit area with dark text in it (a title bar, a selected line) would be an
even carpet of dots in which no letter shows; there the dots are drawn the other way
round (`INVERTED`): the text as dots on the dark, as everywhere else.

    >>> from PIL import Image
    >>> lines = render(Image.new("1", (128, 64), 1), (80, 24), ["Nein", "", "", "Info"])
    >>> len(lines) <= 24 and max(map(len, lines)) <= 80
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

WIDTH = 128
HEIGHT = 64
HELP = "Tasten: 1-4, lang: Shift+1-4, Esc: Menü, Strg-C: Ende"

_QUADRANTS = " ▘▝▀▖▌▞▛▗▚▐▜▄▙▟█"
"""Index = upper-left 1 + upper-right 2 + lower-left 4 + lower-right 8."""
_BRAILLE_BITS = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08),
                 (1, 1, 0x10), (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80))  # fmt: skip
INVERTED = 0.55
"""A braille cell whose surroundings (8 px to each side, 2 rows above and below its 4)
are lit more than this share is part of an inverted area: its dots are drawn the other
way round."""
_AROUND = 8


@dataclass(frozen=True)
class Rendering:
    """One way to draw the panel: pixels per character cell."""

    name: str
    cell_w: int
    cell_h: int

    @property
    def columns(self) -> int:
        return WIDTH // self.cell_w + 2

    @property
    def rows(self) -> int:
        """Panel rows with its frame, the key line and the help line."""
        return HEIGHT // self.cell_h + 4


HALF_BLOCKS = Rendering("half blocks", 1, 2)
QUADRANTS = Rendering("quadrants", 2, 2)
BRAILLE = Rendering("braille", 2, 4)
RENDERINGS = (HALF_BLOCKS, QUADRANTS, BRAILLE)


def choose(size: tuple[int, int]) -> Rendering | None:
    """The finest rendering that fits a terminal of (columns, lines); None if none does."""
    columns, lines = size
    for rendering in RENDERINGS:
        if rendering.columns <= columns and rendering.rows <= lines:
            return rendering
    return None


def cells(frame: Image.Image, rendering: Rendering) -> list[str]:
    """The panel's pixels as text rows in the given rendering."""
    img = frame.convert("1")
    px = img.load()
    assert px is not None

    def on(x: int, y: int) -> bool:
        return x < WIDTH and y < HEIGHT and bool(px[x, y])

    lit: list[list[int]] = []
    if rendering is BRAILLE:  # how many pixels are lit in each row up to x (prefix sums)
        for y in range(HEIGHT):
            sums = [0]
            for x in range(WIDTH):
                sums.append(sums[-1] + bool(px[x, y]))
            lit.append(sums)

    def inverted(left: int, top: int) -> bool:
        x0, x1 = max(0, left - _AROUND), min(WIDTH, left + 2 + _AROUND)
        ys = range(max(0, top - 2), min(HEIGHT, top + 6))
        count = sum(lit[y][x1] - lit[y][x0] for y in ys)
        return count > INVERTED * (x1 - x0) * len(ys)

    rows = []
    for top in range(0, HEIGHT, rendering.cell_h):
        row = []
        for left in range(0, WIDTH, rendering.cell_w):
            if rendering is HALF_BLOCKS:
                row.append(" ▀▄█"[on(left, top) + 2 * on(left, top + 1)])
            elif rendering is QUADRANTS:
                index = (on(left, top) + 2 * on(left + 1, top) + 4 * on(left, top + 1)
                         + 8 * on(left + 1, top + 1))  # fmt: skip
                row.append(_QUADRANTS[index])
            else:
                bits = sum(bit for dx, dy, bit in _BRAILLE_BITS if on(left + dx, top + dy))
                if inverted(left, top):
                    bits ^= 0xFF
                row.append(chr(0x2800 + bits))
        rows.append("".join(row))
    return rows


def render(frame: Image.Image, size: tuple[int, int], labels: Sequence[str] | None) -> list[str]:
    """Every line to print for a terminal of (columns, lines)."""
    rendering = choose(size)
    if rendering is None:
        need = BRAILLE
        text = f"Terminal zu klein: mindestens {need.columns} x {need.rows} Zeichen."
        return [text[: max(1, size[0] - 1)]]
    body = cells(frame, rendering)
    inner = len(body[0])
    border = "+" + "-" * inner + "+"
    lines = [border, *(f"|{row}|" for row in body), border]
    if labels is not None:
        width = inner // 4
        lines.append(
            " " + "".join(f"[{i + 1}] {label}"[: width - 1].ljust(width) for i, label in
                          enumerate(labels))  # fmt: skip
        )
    else:
        lines.append("")
    lines.append(" " + HELP[: size[0] - 1])
    return lines
