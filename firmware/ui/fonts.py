"""The bundled bitmap fonts (X11 misc-fixed, public domain): screens never drift."""

from __future__ import annotations

from functools import cache
from importlib import resources

from PIL import ImageFont

TINY = "4x6"
SMALL = "5x7"
TEXT = "6x10"
LARGE = "10x20"

SIZES = {TINY: (4, 6), SMALL: (5, 7), TEXT: (6, 10), LARGE: (10, 20)}
"""Cell width and height of each font in pixels."""


@cache
def font(size: str = TEXT) -> ImageFont.ImageFont:
    """One of the bundled fonts: TINY, SMALL, TEXT or LARGE."""
    folder = resources.files("spielleiter.ui") / "fonts"
    with resources.as_file(folder / f"misc-fixed-{size}.pil") as path:
        return ImageFont.load(str(path))
