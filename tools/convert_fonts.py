"""Convert the X11 misc-fixed PCF fonts into Pillow's .pil/.pbm bitmap fonts (run once).

Pillow writes the glyph sheet as PNG data under the .pbm name; it is saved again as a
binary PBM, which the box reads without loading Pillow's image plugins (ui/fonts.py).

Usage: apt-get download xfonts-base && dpkg -x xfonts-base_*.deb x &&
       python tools/convert_fonts.py x/usr/share/fonts/X11/misc
"""

import gzip
import io
import sys
from pathlib import Path

from PIL import Image, PcfFontFile

SIZES = ["4x6", "5x7", "6x10", "10x20"]
OUT = Path(__file__).resolve().parent.parent / "firmware" / "ui" / "fonts"


def main(src: str) -> None:
    for size in SIZES:
        data = gzip.open(Path(src) / f"{size}-ISO8859-1.pcf.gz").read()
        font = PcfFontFile.PcfFontFile(io.BytesIO(data), "iso8859-1")
        font.save(str(OUT / f"misc-fixed-{size}"))
        sheet = OUT / f"misc-fixed-{size}.pbm"
        with Image.open(sheet) as image:
            image.load()
            image.save(sheet, "PPM")


if __name__ == "__main__":
    main(sys.argv[1])
