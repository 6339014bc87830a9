"""Besenbingo to print and play: the pages of `spielleiter-host print besenbingo`, drawn as
commands (spielleiter.games.drawing) that the laptop renders.

The document, in print order: the eight tower cards (page 1) and their backs (page 2,
mirrored so that they meet the fronts when printed double-sided, flipped on the long
edge), the rules in short (page 3), then one page per template (Bingo-Vorlage): the grid
above, the score bar (Punkteleiste) below it, laid out as the rule text places it: the
rows Hexe, Copilot and Paar on the left, the Kombi pair at the top right, the minus row
at the bottom right; lines for the name and the points at the foot. Field text is never
smaller than MIN_FIELD_PT (capitals of 3.6 mm, readable at arm's length).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..drawing import A4, DARK, GREY, INK, MARGIN, MIN_FIELD_PT, PAPER, Drawing, Metrics
from .templates import (
    REVEALS_PER_DURCHGANG,
    SIZE,
    TOWERS,
    BarField,
    Template,
    WitchField,
    default_templates,
)

TITLE_PT = 22.0
NOTE_PT = 12.0
"""Hints beside the fields (not field text)."""
RIGHT = A4[0] - MARGIN
"""The right edge of the printed area."""

GRID_TOP = 25.0
CELL = 33.5
"""The side of a grid cell in millimetres."""
BAR_GAP = 6.0
"""Between the grid and the score bar."""
ROW_GAP = 3.0
LABEL_W = 20.5
"""The column of the row names ("Copilot" in bold at 14 pt is 17.7 mm)."""
FIELD_GAP = 1.2
FIELD_W = 28.0
"""The widest score-bar field; a row of seven shares the width left of the labels."""
FIELD_H = 19.0
PAAR_H = 24.0
"""Paar fields hold two names, each at MIN_FIELD_PT."""
STRIP = 7.5
"""The top strip of a bar field: the witch's hat on the left, the points on the right."""
MINUS_W, MINUS_MIN_W, MINUS_H = 14.0, 12.0, 15.0
FOOTER_GAP = 8.0
"""From the minus row to the capitals of the name line."""

ROWS = (("Hexe", "hexe"), ("Copilot", "copilot"), ("Paar", "paar"))
"""The ordinary rows of the score bar, top to bottom: label and role."""


# --- pictures -----------------------------------------------------------------------------


def draw_hat(sheet: Drawing, cx: float, base: float, w: float, hat: str) -> None:
    """A witch's hat standing on `base`, `w` wide; each default witch has her own shape."""
    h = w * 0.8
    if hat == "Zipfelmütze":
        sheet.polygon([(cx - w * 0.35, base), (cx + w * 0.35, base), (cx + w * 0.1, base - h * 0.6),
                       (cx + w * 0.45, base - h * 0.9)])  # fmt: skip
        sheet.ellipse(cx + w * 0.38, base - h * 0.98, cx + w * 0.52, base - h * 0.84)
    elif hat == "Krempenhut":
        sheet.box(cx - w * 0.22, base - h * 0.6, w * 0.44, h * 0.6, line=0.3, fill=GREY)
        sheet.ellipse(cx - w * 0.5, base - h * 0.12, cx + w * 0.5, base + h * 0.12)
    elif hat == "Blumenhut":
        dome = [(cx + w * 0.3 * math.cos(a), base - h * 0.6 * math.sin(a))
                for a in (math.pi * k / 16 for k in range(17))]  # fmt: skip
        sheet.polygon(dome)
        sheet.line((cx - w * 0.48, base), (cx + w * 0.48, base), line=w * 0.06)
        for dx in (-0.12, 0.0, 0.12):
            x = cx + w * dx
            sheet.ellipse(x - w * 0.06, base - h * 0.5, x + w * 0.06, base - h * 0.38, PAPER, 0.2)
    else:  # Spitzhut, and the fallback for a template's own hats
        sheet.polygon([(cx - w * 0.3, base), (cx + w * 0.3, base), (cx, base - h)])
        sheet.line((cx - w * 0.5, base), (cx + w * 0.5, base), line=w * 0.06)


def draw_tower(sheet: Drawing, x: float, y: float, w: float, h: float, n: int) -> None:
    """A tower with battlements in the box (x, y, w, h), its number inside."""
    left, right, top = x + w * 0.25, x + w * 0.75, y + h * 0.22
    sheet.box(left, top, right - left, h * 0.7, line=max(0.4, w * 0.02), fill=PAPER)
    step = (right - left) / 5
    for i in range(0, 5, 2):
        sheet.box(left + i * step, top - h * 0.1, step, h * 0.1, line=0.1, fill=INK)
    size = 0.3 * h / sheet.cap_height(1.0, bold=True)  # digits 0.3 of the tower's height
    sheet.text((left + right) / 2, top + h * 0.35, str(n), size, bold=True, middle=True)


# --- a template ---------------------------------------------------------------------------


def template_page(sheet: Drawing, template: Template) -> None:
    """One Bingo-Vorlage on a new page: title, grid, score bar, name and points."""
    sheet.page()
    hats = {w.name: w.hat for w in template.witches}
    sheet.text(A4[0] / 2, GRID_TOP - 6, f"Besenbingo – {template.name}", TITLE_PT, bold=True,
               width=A4[0] - 2 * MARGIN)  # fmt: skip
    left = (A4[0] - SIZE * CELL) / 2
    for i in range(SIZE * SIZE):
        r, c = divmod(i, SIZE)
        x, y = left + c * CELL, GRID_TOP + r * CELL
        sheet.box(x, y, CELL, CELL, line=0.6, role="cell")
        content = template.cell(i)
        if isinstance(content, WitchField):
            _witch_cell(sheet, x, y, content, hats[content.witch])
        else:
            draw_tower(sheet, x + 2, y + 2, CELL - 4, CELL - 4, content)
    y = GRID_TOP + SIZE * CELL + BAR_GAP
    rows = [template.hexe, template.copilot, template.paar]
    width = min(FIELD_W, (RIGHT - MARGIN - LABEL_W + FIELD_GAP) / max(map(len, rows)) - FIELD_GAP)
    y = _kombi_band(sheet, y, template, width, hats) + ROW_GAP
    for (label, role), fields in zip(ROWS, rows, strict=True):
        height = PAAR_H if role == "paar" else FIELD_H
        sheet.text(MARGIN, y + height / 2, label, MIN_FIELD_PT, bold=True, align="L",
                   middle=True)  # fmt: skip
        for k, field in enumerate(fields):
            x = MARGIN + LABEL_W + k * (width + FIELD_GAP)
            _bar_field(sheet, x, y, width, height, field, hats, field.value, role)
        y += height + ROW_GAP
    y = _minus_band(sheet, y, template.minus)
    _name_and_points(sheet, y + FOOTER_GAP + sheet.cap_height(MIN_FIELD_PT))


def _witch_cell(sheet: Drawing, x: float, y: float, field: WitchField, hat: str) -> None:
    cx, inner = x + CELL / 2, CELL - 3
    draw_hat(sheet, cx, y + CELL * 0.42, CELL * 0.42, hat)
    sheet.text(cx, y + CELL * 0.66, field.witch, 16, bold=True, width=inner)
    sheet.text(cx, y + CELL * 0.87, f"mit {field.copilot}", MIN_FIELD_PT, width=inner)


def _bar_field(
    sheet: Drawing, x: float, y: float, w: float, h: float, field: BarField,
    hats: dict[str, str], value: int | None, role: str,
) -> None:  # fmt: skip
    """A score-bar field: the hat and the points in the top strip, the name(s) below."""
    sheet.box(x, y, w, h, role=role)
    inner = w - 1.2
    points = f"{value} P." if value is not None else ""
    taken = sheet.width(points, MIN_FIELD_PT, bold=True) if points else 0.0
    if field.witch:
        draw_hat(sheet, x + 4.3, y + STRIP - 1.4, 6.4, hats.get(field.witch, ""))
        taken += 8.5
    if points:
        sheet.text(x + w - 0.8, y + STRIP - 1.6, points, MIN_FIELD_PT, bold=True, align="R")
    names = [n for n in (field.witch, field.copilot) if n]
    first = y + STRIP + (h - STRIP) / 2 + (-3.0 if len(names) > 1 else 0.0)
    for j, name in enumerate(names):
        sheet.text(x + w / 2, first + 6.0 * j, name, MIN_FIELD_PT, width=inner, middle=True)
    assert taken <= w, f"{points!r} and a hat do not fit a field {w:.1f} mm wide"


def _kombi_band(
    sheet: Drawing, y: float, template: Template, width: float, hats: dict[str, str]
) -> float:
    """The top band of the score bar: its title on the left, the Kombi pair at the top
    right (the witch, then the copilot with the pair's value); returns the band's foot."""
    sheet.text(MARGIN, y + 7, "Punkteleiste", 16, bold=True, align="L")
    sheet.text(MARGIN, y + 14, "Jede Reihe von links nach rechts streichen.", NOTE_PT,
               align="L", smallest=NOTE_PT)  # fmt: skip
    left = RIGHT - 2 * width - FIELD_GAP
    witch, copilot = template.kombi
    _bar_field(sheet, left, y, width, FIELD_H, witch, hats, None, "kombi")
    _bar_field(sheet, left + width + FIELD_GAP, y, width, FIELD_H, copilot, hats,
               template.kombi_value, "kombi")  # fmt: skip
    sheet.text(left - 2.5, y + 6.5, "Kombi", MIN_FIELD_PT, bold=True, align="R")
    for k, line in enumerate((f"{template.kombi_value} P. nur, wenn", "beide gestrichen")):
        sheet.text(left - 2.5, y + 12 + 5 * k, line, NOTE_PT, align="R")
    return y + FIELD_H


def _minus_band(sheet: Drawing, y: float, minus: Sequence[int]) -> float:
    """The minus row at the bottom right; returns its foot. A row holds as many fields as
    fit (at least 13: only REVEALS_PER_DURCHGANG can ever be crossed)."""
    label = sheet.width("Minus", MIN_FIELD_PT, bold=True) + 2.5
    room = RIGHT - MARGIN - label
    fit = int((room + FIELD_GAP) // (MINUS_MIN_W + FIELD_GAP))
    shown = list(minus[: max(fit, REVEALS_PER_DURCHGANG)])
    width = min(MINUS_W, (room + FIELD_GAP) / len(shown) - FIELD_GAP)
    left = RIGHT - len(shown) * (width + FIELD_GAP) + FIELD_GAP
    sheet.text(left - 2.5, y + MINUS_H / 2, "Minus", MIN_FIELD_PT, bold=True, align="R",
               middle=True)  # fmt: skip
    for k, value in enumerate(shown):
        x = left + k * (width + FIELD_GAP)
        sheet.box(x, y, width, MINUS_H, role="minus")
        sheet.text(x + width / 2, y + MINUS_H / 2, f"−{-value}", 16, bold=True,
                   width=width - 1.6, middle=True)  # fmt: skip
    return y + MINUS_H


def _name_and_points(sheet: Drawing, baseline: float) -> None:
    """Lines to write the player's name and final points on."""
    middle = A4[0] * 0.6
    for x, label, end in ((MARGIN, "Name:", middle - 8), (middle, "Punkte:", RIGHT)):
        placed = sheet.text(x, baseline, label, MIN_FIELD_PT, align="L")
        sheet.line((placed.x1 + 2, baseline + 0.8), (end, baseline + 0.8), line=0.3)


# --- the tower cards ----------------------------------------------------------------------

CARD_W, CARD_H = 85.0, 57.0
CARD_GUTTER = 8.0
CARDS_TOP = 36.0
BLEED = 2.0
"""How far a back's pattern reaches past the card's edge, for an imperfect duplex printer."""


def card_boxes() -> list[tuple[float, float]]:
    """The top-left corners of the eight cards on the fronts page, two columns of four,
    centred on the page (so the mirrored layout of the backs is the same grid)."""
    left = (A4[0] - 2 * CARD_W - CARD_GUTTER) / 2
    return [(left + c * (CARD_W + CARD_GUTTER), CARDS_TOP + r * (CARD_H + CARD_GUTTER))
            for r in range(4) for c in range(2)]  # fmt: skip


def tower_cards_page(sheet: Drawing) -> None:
    """The eight tower cards (Turmkarten) to cut out along their lines."""
    sheet.page()
    sheet.text(A4[0] / 2, 18, "Besenbingo – Turmkarten", TITLE_PT, bold=True)
    sheet.paragraph(MARGIN, 26, A4[0] - 2 * MARGIN,
                    "Vorderseiten. Zusammen mit der nächsten Seite (Rückseiten) beidseitig"
                    " drucken, an der langen Kante wenden – am besten auf dickes Papier."
                    " Dann an den Linien ausschneiden.", NOTE_PT)  # fmt: skip
    for tower, (x, y) in zip(TOWERS, card_boxes(), strict=True):
        sheet.box(x, y, CARD_W, CARD_H, line=0.3, role="card", radius=2.0)
        draw_tower(sheet, x + CARD_W / 2 - 22, y + 4, 44, CARD_H - 6, tower)
        for cx in (x + 6, x + CARD_W - 6):
            sheet.text(cx, y + 9, str(tower), 16, bold=True)


def tower_backs_page(sheet: Drawing) -> None:
    """The backs of the tower cards, mirrored left to right, so that printed on the back
    of the fronts page (flipped on the long edge) each back lies behind its card. A back
    shows no number: face down, every card looks the same, and no number shows through."""
    sheet.page()
    sheet.text(A4[0] / 2, 18, "Besenbingo – Turmkarten, Rückseiten", NOTE_PT)
    for x, y in card_boxes():
        x = A4[0] - x - CARD_W
        sheet.box(x - BLEED, y - BLEED, CARD_W + 2 * BLEED, CARD_H + 2 * BLEED, fill=DARK,
                  outline=False, radius=3.0)  # fmt: skip
        for row in range(5):
            for col in range(8):
                shift = 5.0 if row % 2 else 0.0
                sx, sy = x + 3 + col * 11 + shift, y + 5 + row * 12
                if sx < x + CARD_W - 2:
                    sheet.star(sx, sy, 2.2, fill=GREY)
        sheet.box(x + 14, y + 15, CARD_W - 28, CARD_H - 30, line=0.6, fill=PAPER, radius=3.0)
        sheet.text(x + CARD_W / 2, y + 27, "Besenbingo", 20, bold=True)
        sheet.text(x + CARD_W / 2, y + 35, "Turmkarte", MIN_FIELD_PT)
        sheet.mark("back", x, y, CARD_W, CARD_H)


# --- the rules ----------------------------------------------------------------------------

RULES: tuple[tuple[str, str], ...] = (
    ("Spielziel",
     "Jede Person spielt auf ihrer eigenen Bingo-Vorlage. Wer unten in der Punkteleiste die"
     " wertvollsten Felder durchstreicht, hat am Ende die meisten Punkte und gewinnt."
     " Ihr braucht die Vorlagen, die acht Turmkarten und für jede Person einen Stift."),
    ("Vorbereitung",
     "Druckt für jede Person eine Vorlage aus (für weitere Durchgänge je eine neue); alle"
     " Vorlagen sind verschieden. Jede hat acht Türme (1 bis 8) und acht Hexenfelder,"
     " abwechselnd wie ein Schachbrett. Die Turmkarten (Seiten 1 und 2) beidseitig auf"
     " dickes Papier drucken oder auf Pappe kleben und ausschneiden. Mischt sie gut und legt"
     " eine Karte ungesehen verdeckt zur Seite: Das ist der stille Turm\u00a0– er lässt in diesem"
     " Spiel keine Hexe landen. Die übrigen sieben Karten bilden einen verdeckten Stapel."),
    ("Spielverlauf",
     "Eine Person ist Spielleiter:in (oder der Spielleiter-Kasten übernimmt das) und deckt"
     " die oberste Turmkarte auf. Alle suchen diesen Turm auf ihrer Vorlage. Er gibt einer"
     " Hexe Landeerlaubnis, die waagerecht oder senkrecht direkt neben ihm liegt\u00a0– nicht"
     " schräg. Welche, entscheidest du selbst. Ein Turm in der Mitte hat vier Nachbarhexen,"
     " ein Turm am Rand zwei oder drei."),
    ("",
     "Streiche die gewählte Hexe im Spielfeld durch und in der Punkteleiste das erste freie"
     " Feld einer Reihe, zu der sie passt: in der Reihe Hexe, wenn dort diese Hexe steht; in"
     " der Reihe Copilot, wenn dort ihr Copilot steht; in der Reihe Paar, wenn Hexe und"
     " Copilot beide stimmen (das bringt mehr). Jede Reihe wird von links nach rechts"
     " gestrichen: ein Feld erst, wenn alle links davon schon gestrichen sind."),
    ("Mehrere Reihen passen?",
     "Dann musst du die Reihe nehmen, die dir die meisten Punkte bringt. Bringen zwei gleich"
     " viel, hast du die Wahl."),
    ("Kombi (rechts oben)",
     "Rechts oben in der Punkteleiste stehen zwei Felder: erst eine Hexe, dann ein Copilot."
     " Dieses Paar gibt es auf deinem Spielfeld nicht. Du streichst die Hexe in einem Zug und"
     " den Copiloten in einem späteren, auch hier von links nach rechts. Die Kombi darfst du"
     " immer wählen, wenn sie passt. Ihre Punkte zählen nur, wenn am Ende beide Felder"
     " gestrichen sind."),
    ("Minusfelder (unten rechts)",
     "Sind alle Hexen rund um den aufgedeckten Turm schon gestrichen, oder passt keine von"
     " ihnen auf ein freies Feld der Punkteleiste, streichst du stattdessen das nächste"
     " Minusfeld\u00a0– von links nach rechts\u00a0– und im Spielfeld keine Hexe."),
    ("Spielende",
     "Nach der siebten Turmkarte ist Schluss; der stille Turm kommt nie ins Spiel, nun dürft"
     " ihr ihn anschauen. Jedes gestrichene Feld zählt die Punkte, die darin stehen,"
     " Minusfelder zählen minus. Die Kombi zählt nur mit beiden Feldern. Die meisten Punkte"
     " gewinnen."),
    ("Solovariante",
     "Allein legst du vorher fest, wie viele Durchgänge du spielst, und nimmst in jedem eine"
     " andere Vorlage. Ziel: in jedem Durchgang dein voriges Ergebnis übertreffen."),
)  # fmt: skip
"""The rules in short, in the order of the rule text, in our own words."""

RULES_PT = 11.5


def rules_page(sheet: Drawing) -> None:
    """The rules in short, to read at the table."""
    sheet.page()
    sheet.text(A4[0] / 2, 22, "Besenbingo – Spielregeln in Kürze", TITLE_PT, bold=True)
    y, width = 36.0, A4[0] - 2 * MARGIN
    for heading, body in RULES:
        if heading:
            y += 2.5
            sheet.text(MARGIN, y, heading, 14, bold=True, align="L")
            y += 6.5
        y = sheet.paragraph(MARGIN, y, width, body, RULES_PT) + 1.0
    assert y < A4[1] - MARGIN, "the rules run off their page"


# --- the document -------------------------------------------------------------------------


def besenbingo_sheet(templates: Sequence[Template], metrics: Metrics) -> Drawing:
    """Tower cards, their backs, the rules, then one page per template."""
    sheet = Drawing("Besenbingo", metrics)
    tower_cards_page(sheet)
    tower_backs_page(sheet)
    rules_page(sheet)
    for template in templates:
        template_page(sheet, template)
    sheet.holds(
        "tower cards and their backs, rules, {count} template",
        "tower cards and their backs, rules, {count} templates",
        len(templates),
    )
    return sheet


def draw(templates: Sequence[Template] | None, metrics: Metrics) -> Drawing:
    """`spielleiter-host print besenbingo`: the given templates, or the shipped nine."""
    return besenbingo_sheet(default_templates() if templates is None else templates, metrics)
