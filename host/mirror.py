"""`spielleiter-host mirror`: the box's display, live in the terminal.

Two pixel rows make one line of Unicode half blocks, so the 128x64 screen takes
128 columns and 32 lines.
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import sys
from pathlib import Path
from typing import Any

from PIL import Image

from .device import (
    Device,
    HostError,
    add_connection_args,
    run_with_device,
    seconds,
    until_interrupted,
    write_file,
)
from .i18n import _
from .output import print_json, saved

_BLOCKS = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("mirror", help=_("show the box's screen live in the terminal"))
    parser.add_argument("--once", action="store_true", help=_("show one frame and stop"))
    parser.add_argument(
        "--png", type=Path, metavar=_("FILE"), help=_("also save the (last) frame as a PNG file")
    )
    parser.add_argument(
        "--scale",
        type=int,
        default=1,
        choices=range(1, 9),
        metavar="N",
        help=_("the --png picture N times as large (nearest neighbour; 1 to 8, default 1)"),
    )
    parser.add_argument(
        "--interval",
        type=seconds,
        default=0.25,
        metavar=_("SECONDS"),
        help=_("seconds between frames (Ctrl-C ends)"),
    )
    add_connection_args(parser)
    parser.set_defaults(func=mirror)


def decode_png(png: bytes) -> Image.Image:
    """A frame as a 1-bit image (lit pixels are 1)."""
    try:
        return Image.open(io.BytesIO(png)).convert("1")
    except (OSError, ValueError) as exc:
        raise HostError(
            _("the box sent a picture that is not a PNG: {why}").format(why=exc)
        ) from None


def scaled_png(png: bytes, scale: int) -> bytes:
    """The frame `scale` times as large, each pixel a square of pixels (as it is sent when
    `scale` is 1)."""
    if scale == 1:
        return png
    image = decode_png(png)
    size = (image.width * scale, image.height * scale)
    out = io.BytesIO()
    image.resize(size, Image.Resampling.NEAREST).save(out, format="PNG")
    return out.getvalue()


def half_blocks(image: Image.Image) -> str:
    """The image as lines of half blocks: the upper pixel in the top half, the lower below."""
    width, height = image.size
    lit = image.load()
    assert lit is not None
    lines = []
    for y in range(0, height, 2):
        lines.append(
            "".join(
                _BLOCKS[bool(lit[x, y]), y + 1 < height and bool(lit[x, y + 1])]
                for x in range(width)
            )
        )
    return "\n".join(lines)


def summary_line(summary: dict[str, Any]) -> str:
    """What the screen shows, in one line: key: value, lists joined with commas."""
    return "  ".join(f"{k}: {_plain(v)}" for k, v in summary.items())


def _plain(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(_plain(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    return "-" if value is None else str(value)


def mirror(args: argparse.Namespace) -> int:
    def body(box: Device) -> int:
        first = True

        def frame() -> None:
            nonlocal first
            result = box.call("screen")
            png = base64.b64decode(result["png"])
            written = scaled_png(png, args.scale) if args.png else b""
            if args.png:
                write_file(args.png, written)
            if args.json:
                named = {"file": str(args.png), "bytes": len(written)} if args.png else {}
                print_json({**result, **named})
            else:
                text = half_blocks(decode_png(png)) + "\n" + summary_line(result["summary"])
                if args.once:
                    sys.stdout.write(text + "\n")
                else:
                    home = "\x1b[2J\x1b[H" if first else "\x1b[H"
                    sys.stdout.write(home + text + "\x1b[K\n")
            sys.stdout.flush()
            first = False

        if args.once:
            frame()
        else:
            until_interrupted(frame, args.interval)
        if args.png and not args.json and not first:
            saved(args.png, _("the screen") if args.once else _("the last screen"), False)
        return 0

    return run_with_device(args, body)
