"""What a frame's texts do wrong, measured with the fonts' own glyphs.

A canvas keeps every text it drew (`Canvas.runs`: where, in which font, the box it
belongs in) and every filled box drawn over the picture (`Canvas.covers`: a banner, the
hand-over box). A text is wrong when its ink leaves its box, when it had to be cut to
fit the box, or when its ink overlaps another text's that is still to be seen (a text
under a later filled box is covered, not wrong).
"""

from __future__ import annotations

from collections.abc import Iterable

from spielleiter.ui.canvas import Box, Canvas, TextRun
from spielleiter.ui.fonts import font


def ink(run: TextRun) -> Box | None:
    """The pixels the text lights, as a box (None: only blanks)."""
    found = font(run.size).getmask(run.text).getbbox()
    if found is None:
        return None
    x, y = run.xy
    return (x + found[0], y + found[1], x + found[2] - 1, y + found[3] - 1)


def inside(inner: Box, outer: Box) -> bool:
    return (
        outer[0] <= inner[0]
        and outer[1] <= inner[1]
        and inner[2] <= outer[2]
        and (inner[3] <= outer[3])
    )


def meets(a: Box, b: Box) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def visible(canvas: Canvas) -> list[tuple[TextRun, Box]]:
    """The texts still to be seen, with their ink: those no later filled box lies over."""
    shown = []
    for run in canvas.runs:
        box = ink(run)
        if box is None:
            continue
        if any(order > run.order and meets(box, cover) for cover, order in canvas.covers):
            continue
        shown.append((run, box))
    return shown


def problems(canvas: Canvas) -> list[str]:
    """Every text of the frame that was cut, leaves its box or overlaps another."""
    found = []
    shown = visible(canvas)
    for run, box in shown:
        if run.cut:
            found.append(f"cut: {run.cut!r} shows as {run.text!r}")
        elif not inside(box, run.box):
            found.append(f"leaves its box: {run.text!r} at {run.xy} ({run.size}), box {run.box}")
    for i, (a, box_a) in enumerate(shown):
        for b, box_b in shown[i + 1 :]:
            if meets(box_a, box_b):
                found.append(f"overlap: {a.text!r} at {a.xy} and {b.text!r} at {b.xy}")
    return found


def texts(canvas: Canvas) -> list[str]:
    """The texts to be seen on the frame, in the order they were drawn."""
    return [run.text for run, _ in visible(canvas)]


def report(found: Iterable[tuple[str, str]]) -> str:
    """(where, problem) lines, once each, for an assertion message."""
    lines = sorted({f"{where}: {problem}" for where, problem in found})
    return "\n".join(lines[:60]) + (f"\n... and {len(lines) - 60} more" if len(lines) > 60 else "")
