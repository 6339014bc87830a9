"""Engel & Bengel to print: the pages of `spielleiter-host print engel-bengel`.

Every board face on A4, two a page: six rows, each with its chips (a white label with +
for an Engel row, a black one with − for a Bengel row) and its boxes (printed pips, ★ then
= for a star row, three red and two yellow boxes for a mixed row: ★ = = and ≠ =, so that
a black-and-white printer's two greys need not tell them apart), and a legend at the foot
of every page with what a table needs to play on paper (the chips and the dice per
player). Drawn as commands (spielleiter.games.drawing) that the laptop renders.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..drawing import A4, INK, MARGIN, PAPER, Drawing, Metrics
from .faces import Face, Row, default_faces

FACE_H = 124.0
FACE_GAP = 6.0
ROW_PITCH = 18.0
BOX = 15.0
"""The side of a box in millimetres (room for a die laid on it)."""
BOX_GAP = 3.0
LABEL_W = 30.0
RED, YELLOW = (170, 30, 30), (255, 225, 80)
"""Far apart in grey too (a luminance of about 70 and 215 of 255)."""
DICE = 30
CHIPS = 80
LEGEND = (
    "Weiß (+): Wer das letzte Kästchen belegt, bekommt die Chips. Schwarz (−): zahlt sie.",
    "★ beliebige Zahl, = dieselbe Zahl; rot/gelb: drei gleiche, dann zwei gleiche andere (≠).",
    f"Auf Papier: jeder bekommt {CHIPS} Chips, und die {DICE} Würfel werden gleich verteilt:",
    ", ".join(f"{n} je {DICE // n}" if n > 2 else f"{n} Spieler je {DICE // n}"
              for n in range(2, 9)) + "; der Rest bleibt in der Schachtel.",  # fmt: skip
)


def marks(row: Row) -> list[str]:
    """What each box of a row shows."""
    if row.kind == "pips":
        return [str(p) for p in row.pips]
    if row.kind == "star":
        return ["★"] + ["="] * (row.boxes - 1)
    return ["★", "=", "=", "≠", "="]


def draw_face(sheet: Drawing, face: Face, x: float, y: float, w: float) -> None:
    """One face in a frame `w` wide and FACE_H tall at (x, y)."""
    sheet.box(x, y, w, FACE_H, line=0.8, role="face")
    sheet.text(x + 6, y + 11, face.name, 20, bold=True, align="L", width=w - 12)
    for r, row in enumerate(face.rows):
        top = y + 17 + r * ROW_PITCH
        fill, ink = (PAPER, INK) if row.white else (INK, PAPER)
        sheet.box(x + 6, top, LABEL_W, BOX, line=0.8, fill=fill, radius=3.0, role="chips")
        label = f"{'+' if row.white else '−'}{row.value}"
        sheet.text(x + 6 + LABEL_W / 2, top + BOX / 2, label, 22, bold=True, middle=True,
                   colour=ink)  # fmt: skip
        for k, mark in enumerate(marks(row)):
            bx = x + 12 + LABEL_W + k * (BOX + BOX_GAP)
            colour = PAPER if row.kind != "mixed" else RED if k < 3 else YELLOW
            sheet.box(bx, top, BOX, BOX, line=0.8, fill=colour, role="box")
            if mark:
                ink = PAPER if colour == RED else INK  # light on the dark red
                sheet.text(bx + BOX / 2, top + BOX / 2, mark, 20, bold=True, middle=True,
                           colour=ink)  # fmt: skip


def faces_sheet(faces: Sequence[Face], metrics: Metrics) -> Drawing:
    """A4 pages, two faces each, with the legend at the foot of every page."""
    sheet = Drawing("Engel & Bengel", metrics)
    width = A4[0] - 2 * MARGIN
    for i in range(0, len(faces), 2):
        sheet.page()
        for j, face in enumerate(faces[i : i + 2]):
            draw_face(sheet, face, MARGIN, MARGIN + j * (FACE_H + FACE_GAP), width)
        for k, line in enumerate(LEGEND):
            sheet.text(MARGIN, A4[1] - MARGIN - 17 + 5.5 * k, line, 12, align="L",
                       width=width, smallest=9)  # fmt: skip
    sheet.holds("{count} face", "{count} faces", len(faces))
    return sheet


def draw(faces: Sequence[Face] | None, metrics: Metrics) -> Drawing:
    """`spielleiter-host print engel-bengel`: the given faces, or the shipped 16."""
    return faces_sheet(list(default_faces()) if faces is None else faces, metrics)
