"""The bundled bitmap fonts (X11 misc-fixed, public domain): screens never drift.

Each font is Pillow's metrics file (``.pil``) and its glyph sheet, a binary PBM read
here: opening it through Pillow's ``Image.open`` would first load every image plugin
(PNG, JPEG, GIF, BMP, PPM), which the panel never uses, before the first frame. The
files are found beside this module (importlib.resources and the zipfile, tempfile and
shutil modules it loads would cost the first frame about a tenth of a second on a Pi
Zero 2 W).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from PIL import Image, ImageFont

TINY = "4x6"
SMALL = "5x7"
TEXT = "6x10"
LARGE = "10x20"

SIZES = {TINY: (4, 6), SMALL: (5, 7), TEXT: (6, 10), LARGE: (10, 20)}
"""Cell width and height of each font in pixels."""

_PBM = re.compile(rb"P4\s+(\d+)\s+(\d+)\s")
"""A binary PBM's header (no comments in our files): width, height, one whitespace."""


@cache
def font(size: str = TEXT) -> ImageFont.ImageFont:
    """One of the bundled fonts: TINY, SMALL, TEXT or LARGE."""
    folder = Path(__file__).with_name("fonts")  # beside this module (see above)
    loaded = ImageFont.ImageFont()
    # ImageFont.load without its Image.open: a private method, the same in Pillow 9.4
    # and 13 (make floor and the goldens draw with both)
    with (folder / f"misc-fixed-{size}.pil").open("rb") as metrics:
        loaded._load_pilfont_data(metrics, glyphs((folder / f"misc-fixed-{size}.pbm").read_bytes()))
    return loaded


def glyphs(pbm: bytes) -> Image.Image:
    """A binary PBM (P4: 1 is black) as a one-bit image (white = 1), without a plugin."""
    header = _PBM.match(pbm)
    if header is None:
        raise ValueError("not a binary PBM (P4) glyph sheet")
    width, height = int(header[1]), int(header[2])
    return Image.frombytes("1", (width, height), pbm[header.end() :], "raw", "1;I")
