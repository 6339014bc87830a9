"""The emulated panel in a small terminal: braille keeps inverted text readable.

An 80 x 24 terminal gets the braille rendering (2 x 4 pixels a character). A lit bar
with dark text (the title line, the selected line of a list) is drawn the other way
round there: the letters as dots on the dark, as they are drawn anywhere else, never an
even carpet of dots.
"""

from __future__ import annotations

from spielleiter.hal.terminal_panel import BRAILLE, cells, choose, render
from spielleiter.ui.canvas import Canvas
from spielleiter.ui.fonts import SMALL, TEXT


def braille_rows(canvas: Canvas) -> list[str]:
    return cells(canvas.image, BRAILLE)


def test_an_80_by_24_terminal_gets_braille() -> None:
    assert choose((80, 24)) is BRAILLE


def test_an_inverted_title_reads_as_the_same_text_drawn_plain() -> None:
    titled, plain = Canvas(), Canvas()
    titled.title("Einstellungen", "1/12")
    plain.text((1, 0), "Einstellungen", SMALL)
    plain.text_right(127, 0, "1/12", SMALL)
    assert braille_rows(titled)[:2] == braille_rows(plain)[:2]
    full = chr(0x28FF)
    assert braille_rows(titled)[0].count(full) < 8  # no carpet of dots


def test_a_selected_line_is_readable_and_plain_text_stays_as_it_is() -> None:
    selected, plain = Canvas(), Canvas()
    for canvas in (selected, plain):
        canvas.text((2, 12), "Kontrast: 200", TEXT)
        canvas.text((2, 24), "Uhr: aus", TEXT)
    selected.invert((0, 11, 127, 21))
    rows, plain_rows = braille_rows(selected), braille_rows(plain)
    assert rows[3:5] == plain_rows[3:5]  # the selected line, read the other way round
    assert rows[6:8] == plain_rows[6:8]  # the next line as drawn


def test_the_whole_panel_fits_80_by_24() -> None:
    canvas = Canvas()
    canvas.title("Speedtombola", "1/7")
    lines = render(canvas.image, (80, 24), ["Auf", "Ab", "OK", "Zurück"])
    assert len(lines) <= 24 and max(map(len, lines)) <= 80
