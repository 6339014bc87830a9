"""Convert the X11 misc-fixed PCF fonts into Pillow's .pil/.pbm bitmap fonts (run once).

Usage: apt-get download xfonts-base && dpkg -x xfonts-base_*.deb x &&
       python tools/convert_fonts.py x/usr/share/fonts/X11/misc
"""

import gzip
import io
import sys
from pathlib import Path

from PIL import PcfFontFile

SIZES = ["4x6", "5x7", "6x10", "10x20"]
OUT = Path(__file__).resolve().parent.parent / "firmware" / "ui" / "fonts"


def main(src: str) -> None:
    for size in SIZES:
        data = gzip.open(Path(src) / f"{size}-ISO8859-1.pcf.gz").read()
        font = PcfFontFile.PcfFontFile(io.BytesIO(data), "iso8859-1")
        font.save(str(OUT / f"misc-fixed-{size}"))


if __name__ == "__main__":
    main(sys.argv[1])
