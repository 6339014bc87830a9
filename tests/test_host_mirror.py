"""The terminal mirror: two pixel rows per line of half blocks."""

from __future__ import annotations

from PIL import Image
from spielleiter_host.mirror import half_blocks


def test_upper_lower_both_and_no_pixel_each_have_their_block():
    image = Image.new("1", (4, 3), 0)
    for xy in ((0, 0), (1, 1), (2, 0), (2, 1), (3, 2)):
        image.putpixel(xy, 1)
    assert half_blocks(image) == "▀▄█ \n   ▀"
