"""`spielleiter-host mirror`: the box's display, live in the terminal.

Two pixel rows make one line of Unicode half blocks, so the 128x64 screen takes
128 columns and 32 lines. Under the picture, one line says what the screen shows (the
box's summary): its names in the laptop's language, its words as the panel shows them.
"""

from __future__ import annotations

import argparse
import base64
import io
import sys
from typing import Any

from PIL import Image

from .device import (
    Device,
    HostError,
    add_connection_args,
    png_file,
    run_with_device,
    seconds,
    until_interrupted,
    write_file,
)
from .i18n import _, pgettext
from .output import plain, print_json, saved

_BLOCKS = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("mirror", help=_("show the box's screen live in the terminal"))
    parser.add_argument("--once", action="store_true", help=_("show one frame and stop"))
    parser.add_argument(
        "--png",
        type=png_file,
        metavar=_("FILE"),
        help=_("also save the (last) frame as a PNG file"),
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
    """What the screen shows, in one line: label: value, lists joined with commas; the
    labels and the screen's name in the laptop's language, the values as the box sent
    them (the panel's words), yes and no in the laptop's words."""
    labels = summary_labels()
    return "  ".join(
        f"{labels.get(k, k)}: {screen_name(v) if k == 'screen' else plain(v, labels)}"
        for k, v in summary.items()
    )


def screen_name(name: Any) -> str:
    """A screen's name in the laptop's language: the box's own screens by name, a game's
    as the game's id and the screen's name ("GAME.Tisch" for "GAME.table")."""
    if not isinstance(name, str):
        return plain(name)
    names = screen_names()
    game, dot, own = name.rpartition(".")
    if dot and own in names:
        return f"{game}.{names[own]}"
    return names.get(name, name)


def screen_names() -> dict[str, str]:
    """The names of the screens in a summary (`screen`), in the laptop's language."""
    return {
        "menu": pgettext("screen", "menu"),
        "message": pgettext("screen", "message"),
        "confirm": pgettext("screen", "confirm"),
        "pages": pgettext("screen", "pages"),
        "speller": pgettext("screen", "speller"),
        "tip": pgettext("screen", "tip"),
        "hand_over": pgettext("screen", "hand_over"),
        "safe mode": pgettext("screen", "safe mode"),
        "bestenliste": pgettext("screen", "bestenliste"),
        "table": pgettext("screen", "table"),
        "tafel": pgettext("screen", "tafel"),
        "info": pgettext("screen", "info"),
        "moves": pgettext("screen", "moves"),
        "rat": pgettext("screen", "rat"),
        "standings": pgettext("screen", "standings"),
        "tower": pgettext("screen", "tower"),
        "handover": pgettext("screen", "handover"),
        "sheet": pgettext("screen", "sheet"),
        "results": pgettext("screen", "results"),
        "end": pgettext("screen", "end"),
        "hands": pgettext("screen", "hands"),
        "board": pgettext("screen", "board"),
        "dice": pgettext("screen", "dice"),
        "settlement": pgettext("screen", "settlement"),
        "setup": pgettext("screen", "setup"),
        "which": pgettext("screen", "which"),
        "calibration": pgettext("screen", "calibration"),
        "test": pgettext("screen", "test"),
    }


def summary_labels() -> dict[str, str]:
    """The keys of a screen's summary as labels in the laptop's language (every key the
    box's screens send: tests/test_host_one_language.py)."""
    return {
        "action": pgettext("summary", "action"),
        "alert": pgettext("summary", "alert"),
        "allowed": pgettext("summary", "allowed"),
        "ball": pgettext("summary", "ball"),
        "bar": pgettext("summary", "score bar"),
        "beetles": pgettext("summary", "beetles"),
        "bestenliste": pgettext("summary", "Bestenliste"),
        "board": pgettext("summary", "board"),
        "calls": pgettext("summary", "calls"),
        "chips": pgettext("summary", "chips"),
        "choice": pgettext("summary", "choice"),
        "crossed": pgettext("summary", "crossed"),
        "cursor": pgettext("summary", "cursor"),
        "dice": pgettext("summary", "dice"),
        "dots": pgettext("summary", "dots"),
        "drum": pgettext("summary", "drum"),
        "ended": pgettext("summary", "ended"),
        "entries": pgettext("summary", "entries"),
        "face": pgettext("summary", "face"),
        "fault": pgettext("summary", "fault"),
        "flash": pgettext("summary", "flash"),
        "game": pgettext("summary", "game"),
        "groschen": pgettext("summary", "Groschen"),
        "group": pgettext("summary", "group"),
        "hand": pgettext("summary", "hand"),
        "items": pgettext("summary", "items"),
        "last_turns": pgettext("summary", "last turns"),
        "lines": pgettext("summary", "lines"),
        "live": pgettext("summary", "live"),
        "lot": pgettext("summary", "lot"),
        "lots": pgettext("summary", "lots"),
        "lucky": pgettext("summary", "lucky number"),
        "match_win": pgettext("summary", "match win"),
        "message": pgettext("summary", "message"),
        "mode": pgettext("summary", "mode"),
        "moves": pgettext("summary", "moves"),
        "name": pgettext("summary", "name"),
        "news": pgettext("summary", "news"),
        "number": pgettext("summary", "number"),
        "options": pgettext("summary", "options"),
        "page": pgettext("summary", "page"),
        "payments": pgettext("summary", "payments"),
        "pending": pgettext("summary", "pending"),
        "phase": pgettext("summary", "phase"),
        "place": pgettext("summary", "place"),
        "player": pgettext("summary", "player"),
        "playouts": pgettext("summary", "playouts"),
        "points": pgettext("summary", "points"),
        "points_se": pgettext("summary", "points ±"),
        "pot": pgettext("summary", "pot"),
        "question": pgettext("summary", "question"),
        "ready": pgettext("summary", "ready"),
        "recommended": pgettext("summary", "recommended"),
        "result": pgettext("summary", "result"),
        "revealed": pgettext("summary", "revealed"),
        "roll": pgettext("summary", "roll"),
        "round": pgettext("summary", "round"),
        "round_win": pgettext("summary", "round win"),
        "rows": pgettext("summary", "rows"),
        "score": pgettext("summary", "score"),
        "scores": pgettext("summary", "scores"),
        "screen": pgettext("summary", "screen"),
        "seat": pgettext("summary", "seat"),
        "seats": pgettext("summary", "seats"),
        "sectors": pgettext("summary", "sectors"),
        "selected": pgettext("summary", "selected"),
        "shown_to": pgettext("summary", "shown to"),
        "silent_tower": pgettext("summary", "silent tower"),
        "sixes": pgettext("summary", "sixes"),
        "solo": pgettext("summary", "solo"),
        "step": pgettext("summary", "step"),
        "stump": pgettext("summary", "stump"),
        "take_back": pgettext("summary", "take back"),
        "template": pgettext("summary", "template"),
        "text": pgettext("summary", "text"),
        "title": pgettext("summary", "title"),
        "to_move": pgettext("summary", "to move"),
        "top": pgettext("summary", "top"),
        "tower": pgettext("summary", "tower"),
        "towers_left": pgettext("summary", "towers left"),
        "turn": pgettext("summary", "turn"),
        "under": pgettext("summary", "under"),
        "values": pgettext("summary", "values"),
        "view": pgettext("summary", "view"),
        "vine": pgettext("summary", "vine"),
        "what": pgettext("summary", "what"),
        "why": pgettext("summary", "why"),
        "winners": pgettext("summary", "winners"),
        "won": pgettext("summary", "won"),
        "word": pgettext("summary", "word"),
    }


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
