"""Shared test helpers: drive the real box from a key script, compare screens with goldens.

Golden PNGs live in tests/golden/. `make golden` (SPIELLEITER_REGOLD=1) rewrites them
and copies each into docs/screens/ so the docs show the very pictures the tests check.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops
from spielleiter import cli

ROOT = Path(__file__).resolve().parent.parent
GOLDEN_DIR = ROOT / "tests" / "golden"
DOCS_SCREENS_DIR = ROOT / "docs" / "screens"
REGOLD_ENV = "SPIELLEITER_REGOLD"


def run_box(tmp_path: Path, keys: str, seed: int = 1, extra_args: Sequence[str] = ()) -> list[Path]:
    """Run `spielleiter` in-process on a key script; return the PNG frames it wrote, in order.

    The data directory tmp_path/"data" is shared by every run in one test (the box's
    memory survives a restart); each run writes its frames into a fresh folder.
    """
    tmp_path.mkdir(parents=True, exist_ok=True)
    runs = len(list(tmp_path.glob("frames-*")))
    frames = tmp_path / f"frames-{runs + 1}"
    script = tmp_path / f"keys-{runs + 1}.txt"
    script.write_text(keys, encoding="utf-8")
    argv = [
        "--keys", str(script),
        "--frames", str(frames),
        "--data", str(tmp_path / "data"),
        "--seed", str(seed),
        *extra_args,
    ]  # fmt: skip
    saved = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        code = cli.main(argv)
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)
    assert code == 0, f"spielleiter exited with {code}"
    return sorted(frames.glob("frame-*.png"))


def load_frame(path: Path) -> Image.Image:
    """A frame PNG as a one-bit image, fully read (the file may go away afterwards)."""
    with Image.open(path) as img:
        return img.convert("1")


def same_pixels(a: Image.Image, b: Image.Image) -> bool:
    """True when two images have the same size and light the same pixels.

    Compared in "L": Canvas draws with fill=1, a PNG reads back as 255; both are "on".
    """
    a1, b1 = a.convert("L"), b.convert("L")
    return a1.size == b1.size and ImageChops.difference(a1, b1).getbbox() is None


def lit(image: Image.Image, box: tuple[int, int, int, int] | None = None) -> int:
    """How many pixels are on (inside a box, when given)."""
    region = image.crop(box) if box else image
    return region.convert("L").histogram()[255]


DOCS_SCALE = 4
"""The docs show the panel 4 times as large (nearest neighbour: every pixel a square)."""


def save_docs_copy(frame: Image.Image, name: str) -> None:
    """The picture for docs/screens/: the golden at DOCS_SCALE."""
    DOCS_SCREENS_DIR.mkdir(parents=True, exist_ok=True)
    size = (frame.width * DOCS_SCALE, frame.height * DOCS_SCALE)
    frame.resize(size, Image.Resampling.NEAREST).save(DOCS_SCREENS_DIR / f"{name}.png")


def assert_golden(image: Image.Image, name: str) -> None:
    """The image equals tests/golden/NAME.png (rewritten, with its docs copy, when regolding)."""
    golden = GOLDEN_DIR / f"{name}.png"
    frame = image.convert("1")
    if os.environ.get(REGOLD_ENV) == "1":
        GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
        frame.save(GOLDEN_DIR / f"{name}.png")
        save_docs_copy(frame, name)
        return
    assert golden.exists(), f"no golden {golden.name}: run `make golden` and review the picture"
    expected = load_frame(golden)
    assert same_pixels(frame, expected), (
        f"screen differs from {golden.relative_to(ROOT)}; if the change is intended, "
        "run `make golden` and review the new pictures"
    )


def finished_record(
    store: Any,
    game: str,
    seats: Sequence[Any],
    places: Sequence[int],
    *,
    at: float,
    points: Sequence[int | None] | None = None,
    meta: dict[str, Any] | None = None,
    params: dict[str, Any] | None = None,
) -> int:
    """A finished match stored as the box stores one (its awards, its end meta with each
    seat's place), that finished at `at`; seats are names (humans) or Seats. Its actions
    are left out: what the Bestenliste folds is in the meta. `points` (the awards of the
    first seats; None or left out: no award) go to humans only."""
    from spielleiter.games.base import Seat
    from spielleiter.records import Record
    from spielleiter.store import Award

    seated = [s if isinstance(s, Seat) else Seat(str(s)) for s in seats]
    given = [*(points or []), *[None] * len(seated)][: len(seated)]
    awards = [
        Award(seat.name, int(p), wins=int(place == 1))
        for seat, place, p in zip(seated, places, given, strict=True)
        if seat.is_human and p is not None
    ]
    computers = any(not s.is_human for s in seated)
    record = Record(
        game=game,
        params={"players": len(seated), **(params or {})},
        seats=seated,
        meta={"started": at - 60, **({"bot_version": 1} if computers else {})},
    )
    rid = store.start_record(record)
    end = {**record.meta, "ranks": list(places), **(meta or {})}
    store.append_actions(rid, 0, [], finish=(game, awards, end, {}))
    with store._tx() as db:
        db.execute("UPDATE records SET started=?, updated=? WHERE id=?", (at - 60, at, rid))
    return rid
