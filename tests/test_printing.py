"""`spielleiter-host print`: vector PDF sheets in the bundled font, laid out as the rule
text places the score bar, legible at arm's length, with tower-card backs and a rules page."""

from __future__ import annotations

import io
import itertools
import json
import logging
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from pypdf import PdfReader
from spielleiter.games.besenbingo.sheets import besenbingo_sheet, template_page
from spielleiter.games.besenbingo.templates import Template, default_templates, validate_template
from spielleiter.games.drawing import A4, MARGIN, Box, Drawing, Placed
from spielleiter.games.engel_bengel.faces import default_faces
from spielleiter.games.engel_bengel.sheets import faces_sheet
from spielleiter_host import pdf
from spielleiter_host.cli import main

pytestmark = pytest.mark.usefixtures("english")  # the English messages; German in test_host_i18n

METRICS = pdf.FontMetrics()
FIELDS = {"cell", "hexe", "copilot", "paar", "kombi", "minus"}
"""The roles of the boxes a player reads and crosses."""
ARMS_LENGTH_CAP_MM = 3.5


def a_crowded_template() -> Template:
    """An uploaded template at the limits: long names, seven fields in a row (no row can
    cross more), two-digit values, twelve minus fields."""
    data = default_templates()[0].to_json()
    data["name"] = "Die lange Nacht der Hexen vom Brocken im Harz und im Thüringer"
    data = json.loads(
        json.dumps(data, ensure_ascii=False).replace("Walpurga", "Hildegard-Philippine")
    )
    data["witches"] = [
        {"name": "Hildegard-Philippine", "hat": "Spitzhut"},
        {"name": "Mechthild", "hat": "Zipfelmütze"},
        {"name": "Griselda", "hat": "Krempenhut"},
        {"name": "Ottilie", "hat": "Blumenhut"},
    ]
    witches = ["Mechthild", "Hildegard-Philippine", "Griselda", "Ottilie"] * 2
    data["bar"]["hexe"] = [{"witch": w, "value": 1} for w in witches[:7]]
    pairs = [cell for row in data["grid"] for cell in row if isinstance(cell, dict)]
    data["bar"]["paar"] = [dict(pair, value=10) for pair in pairs[:7]]
    data["bar"]["minus"] = [-1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -10, -10]
    return validate_template(data)


@pytest.fixture(scope="module")
def sheets() -> Drawing:
    """The whole Besenbingo document: the shipped nine and a crowded one (the last page)."""
    return besenbingo_sheet([*default_templates(), a_crowded_template()], METRICS)


def template_pages(sheet: Drawing) -> range:
    return range(3, sheet.pages)


def texts_on(sheet: Drawing, page: int) -> list[Placed]:
    return [t for t in sheet.texts if t.page == page]


def boxes_on(sheet: Drawing, page: int, *roles: str) -> list[Box]:
    return [b for b in sheet.boxes if b.page == page and b.role in roles]


def extracted(data: bytes) -> list[str]:
    """The text a PDF reader finds on each page."""
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


def test_print_besenbingo_writes_cards_backs_rules_and_a_page_per_template(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = []
    for i, t in enumerate(default_templates()[:2]):
        files.append(tmp_path / f"vorlage{i}.json")
        files[-1].write_text(json.dumps(t.to_json(), ensure_ascii=False), encoding="utf-8")
    out = tmp_path / "sheets.pdf"
    assert main(["print", "besenbingo", "--out", str(out), "--template", *map(str, files)]) == 0
    assert len(PdfReader(out).pages) == 2 + 1 + 2
    assert capsys.readouterr().out.startswith(f"{out}: 5 pages (tower cards and their backs")


def test_text_stays_text_umlauts_and_all(sheets: Drawing) -> None:
    pages = extracted(pdf.render(sheets))
    assert "Besenbingo – Turmkarten" in pages[0]
    assert "Spielregeln" in pages[2] and "waagerecht oder senkrecht" in pages[2]
    names = [t.name for t in default_templates()]
    for name, text in zip(names, pages[3:], strict=False):
        assert f"Besenbingo – {name}" in text
    krotenteich = pages[3 + names.index("Krötenteich")]
    assert "Mechthild" in krotenteich and "−3" in krotenteich and "Punkteleiste" in krotenteich
    assert all(p.mediabox.width == pytest.approx(595.28, abs=0.1)
               for p in PdfReader(io.BytesIO(pdf.render(sheets))).pages)  # fmt: skip


@pytest.fixture
def only_bundled_fonts(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Path]]:
    """Every font a sheet loads, refused unless it is one of the bundled files."""
    loaded: list[Path] = []
    add_font = pdf.FPDF.add_font

    def bundled_only(self: pdf.FPDF, family: str | None = None, style: str = "",
                     fname: str | Path | None = None, **kwargs: object) -> None:  # fmt: skip
        path = Path(str(fname)).resolve()
        assert path.parent == pdf.FONT_DIR.resolve(), f"{path} is not a bundled font"
        loaded.append(path)
        add_font(self, family, style, path, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pdf.FPDF, "add_font", bundled_only)
    yield loaded


def test_every_page_renders_with_only_the_bundled_font(
    only_bundled_fonts: list[Path], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    documents = [besenbingo_sheet([*default_templates(), a_crowded_template()], METRICS),
                 faces_sheet(default_faces(), METRICS)]  # fmt: skip
    for sheet in documents:
        reader = PdfReader(io.BytesIO(pdf.render(sheet)))
        for page in reader.pages:
            for font in page["/Resources"]["/Font"].values():
                font = font.get_object()
                assert "DejaVuSansCondensed" in font["/BaseFont"]
                descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
                assert "/FontFile2" in descriptor.get_object()  # embedded, not the reader's
    assert {p.name for p in only_bundled_fonts} == set(pdf.FONT_FILES.values())
    assert "missing the following glyphs" not in caplog.text
    licence = (pdf.FONT_DIR / "LICENSE").read_text()
    assert "Bitstream Vera Fonts Copyright" in licence and "Arev Fonts Copyright" in licence


def bundled_cap_height(bold: bool) -> float:
    """The height of capitals as a fraction of the font size, from the font file itself."""
    font = TTFont(pdf.FONT_DIR / pdf.FONT_FILES[bold])
    os2 = font["OS/2"]
    units = getattr(os2, "sCapHeight", 0) or font["glyf"][font.getBestCmap()[ord("H")]].yMax
    return units / font["head"].unitsPerEm


def test_field_text_reads_at_arms_length(sheets: Drawing) -> None:
    smallest = {False: 99.0, True: 99.0}
    for page in template_pages(sheets):
        fields = boxes_on(sheets, page, *FIELDS)
        for text in texts_on(sheets, page):
            if any(box.holds(text) for box in fields):
                smallest[text.bold] = min(smallest[text.bold], text.size)
    for bold, size in smallest.items():
        cap_mm = bundled_cap_height(bold) * size * 25.4 / 72
        assert cap_mm >= ARMS_LENGTH_CAP_MM, f"{size} pt makes capitals of {cap_mm:.2f} mm"


def test_every_name_stays_inside_its_field_and_the_page(sheets: Drawing) -> None:
    crowded = sheets.pages - 1
    for page in template_pages(sheets):
        fields = boxes_on(sheets, page, *FIELDS)
        for text in texts_on(sheets, page):
            assert MARGIN <= text.x0 and text.x1 <= A4[0] - MARGIN, f"{text.text!r} off the page"
            cx, cy = (text.x0 + text.x1) / 2, (text.top + text.baseline) / 2
            around = [b for b in fields if b.x0 <= cx <= b.x1 and b.y0 <= cy <= b.y1]
            assert all(b.holds(text) for b in around), f"{text.text!r} runs out of its field"
    shown = {t.text for t in texts_on(sheets, crowded)}
    assert "Mechthild" in shown and "Hildegard…" in shown
    assert any(t.startswith("Besenbingo – Die lange Nacht") and t.endswith("…") for t in shown)


def overlap(a: Placed, b: Placed) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.top < b.bottom and b.top < a.bottom


def test_no_text_runs_into_another(sheets: Drawing) -> None:
    for sheet in (sheets, faces_sheet(default_faces(), METRICS)):
        for page in range(sheet.pages):
            for a, b in itertools.combinations(texts_on(sheet, page), 2):
                assert not overlap(a, b), f"{a.text!r} and {b.text!r} overlap on page {page}"


def test_kombi_sits_top_right_and_minus_bottom_right_as_the_rule_text_says(
    sheets: Drawing,
) -> None:
    right = A4[0] - MARGIN
    for page in template_pages(sheets):
        kombi = boxes_on(sheets, page, "kombi")
        minus = boxes_on(sheets, page, "minus")
        rows = boxes_on(sheets, page, "hexe", "copilot", "paar")
        grid = boxes_on(sheets, page, "cell")
        assert len(kombi) == 2 and kombi[0].x1 < kombi[1].x0
        assert max(b.x1 for b in kombi) == pytest.approx(right)
        assert min(b.y0 for b in kombi) > max(b.y1 for b in grid)
        assert max(b.y1 for b in kombi) < min(b.y0 for b in rows)  # the top of the bar
        assert min(b.x0 for b in rows) < min(b.x0 for b in kombi)  # the rows on the left
        assert max(b.x1 for b in minus) == pytest.approx(right)
        assert min(b.y0 for b in minus) > max(b.y1 for b in rows)  # the bottom of the bar


def test_the_name_line_stands_clear_below_the_minus_row(sheets: Drawing) -> None:
    for page in template_pages(sheets):
        minus_foot = max(b.y1 for b in boxes_on(sheets, page, "minus"))
        footer = [t for t in texts_on(sheets, page) if t.text in ("Name:", "Punkte:")]
        assert len(footer) == 2
        assert min(t.top for t in footer) - minus_foot >= 6.0
        assert max(t.bottom for t in footer) <= A4[1] - MARGIN


def test_card_backs_lie_behind_their_fronts_when_flipped_on_the_long_edge(
    sheets: Drawing,
) -> None:
    fronts = boxes_on(sheets, 0, "card")
    backs = boxes_on(sheets, 1, "back")
    assert len(fronts) == len(backs) == 8
    for front, back in zip(fronts, backs, strict=True):
        assert (back.x0, back.x1) == pytest.approx((A4[0] - front.x1, A4[0] - front.x0))
        assert (back.y0, back.y1) == pytest.approx((front.y0, front.y1))
    front_numbers = {t.text for t in texts_on(sheets, 0) if t.text.isdigit()}
    assert front_numbers == {str(n) for n in range(1, 9)}
    assert not any(c.isdigit() for t in texts_on(sheets, 1) for c in t.text)


def test_the_rules_page_follows_the_rule_text(sheets: Drawing) -> None:
    text = extracted(pdf.render(sheets))[2].replace("\n", " ").replace("\xa0", " ")
    order = ["Spielziel", "Vorbereitung", "stille Turm", "Spielverlauf",
             "waagerecht oder senkrecht", "Mehrere Reihen passen?", "die meisten Punkte bringt",
             "Kombi (rechts oben)", "Minusfelder (unten rechts)", "Spielende",
             "Solovariante"]  # fmt: skip
    at = 0
    for phrase in order:
        at = text.find(phrase, at)
        assert at >= 0, f"{phrase!r} missing or out of the rule text's order"
    body = [t for t in texts_on(sheets, 2) if not t.bold]
    assert max(t.bottom for t in body) <= A4[1] - MARGIN


def test_the_whole_set_is_small(sheets: Drawing) -> None:
    data = pdf.render(besenbingo_sheet(default_templates(), METRICS))
    assert len(data) < 200_000  # vector text, only the glyphs used; the Pillow pages were 2 MB


@pytest.mark.parametrize("game", ["besenbingo", "engel-bengel"])
def test_print_without_the_pdf_library_says_what_to_install(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    monkeypatch.setitem(sys.modules, "fpdf", None)  # as if the extra were not installed
    out = tmp_path / "x.pdf"
    assert main(["print", game, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert "pip install '.[print]'" in err
    assert not out.exists()


def test_one_template_page_alone(tmp_path: Path) -> None:
    sheet = Drawing("Probe", METRICS)
    template_page(sheet, default_templates()[0])
    assert sheet.pages == 1 and len(boxes_on(sheet, 0, "cell")) == 16


# --- a game's sheets come through the catalog -----------------------------------------------


def toy_sheets(boards: list[dict] | None, metrics: pdf.FontMetrics) -> Drawing:
    """A toy game's pages: one page per board, its name in a box."""
    drawing = Drawing("Spielzeug", metrics)
    for board in boards if boards is not None else [{"name": "Eins"}, {"name": "Zwei"}]:
        drawing.page()
        drawing.box(MARGIN, MARGIN, 100, 20, role="brett")
        drawing.text(MARGIN + 50, MARGIN + 10, f"Brett {board['name']}", 16, middle=True)
    drawing.contents = "the toy's boards"
    return drawing


def toy_board(data: object) -> dict:
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise ValueError("a toy board has a name")
    return data


@pytest.fixture
def toy_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A game package `spielleiter.games.spielzeug` with sheets, listed in the catalog: no
    host file names it."""
    import types

    from spielleiter.games import catalog
    from spielleiter.games.base import GameInfo

    package = types.ModuleType("spielleiter.games.spielzeug")
    package.__path__ = []  # a package, for its submodule
    sheets = types.ModuleType("spielleiter.games.spielzeug.sheets")
    sheets.draw = toy_sheets  # type: ignore[attr-defined]
    sheets.board = toy_board  # type: ignore[attr-defined]
    package.ENTRY = catalog.GameEntry(  # type: ignore[attr-defined]
        id="spielzeug",
        info=GameInfo("spielzeug", "Spielzeug", 1, 2, 0.0, 1.0, 10),
        game="rules:Game", table="table:Table", screens="screens:start",
        sheets=catalog.Sheets("sheets:draw", "the toy's boards, one a page", files="brett",
                              files_help="board files", parse="sheets:board"),
    )  # fmt: skip
    monkeypatch.setitem(sys.modules, package.__name__, package)
    monkeypatch.setitem(sys.modules, sheets.__name__, sheets)
    monkeypatch.setattr(catalog, "PACKAGES", (*catalog.PACKAGES, "spielzeug"))
    yield "spielzeug"
    catalog._load.cache_clear()


def test_a_game_added_to_the_catalog_prints_its_sheets_without_a_host_change(
    toy_game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "toy.pdf"
    assert main(["print", toy_game, "--out", str(out)]) == 0
    assert capsys.readouterr().out.startswith(f"{out}: 2 pages (the toy's boards)")
    assert [t.split("\n")[0] for t in extracted(out.read_bytes())] == ["Brett Eins", "Brett Zwei"]
    board = tmp_path / "brett.json"
    board.write_text(json.dumps({"name": "Eigen"}), encoding="utf-8")
    assert main(["print", toy_game, "--out", str(out), "--brett", str(board), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["pages"] == 1
    assert extracted(out.read_bytes()) == ["Brett Eigen"]
    board.write_text(json.dumps({"name": 3}), encoding="utf-8")
    assert main(["print", toy_game, "--out", str(out), "--brett", str(board)]) == 7
    assert "a toy board has a name" in capsys.readouterr().err


def test_one_board_prints_as_one_page_and_one_face(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The line that says what was written counts in the singular too."""
    face = tmp_path / "face.json"
    face.write_text(json.dumps(default_faces()[0].to_json(), ensure_ascii=False), "utf-8")
    out = tmp_path / "face.pdf"
    assert main(["print", "engel-bengel", "--out", str(out), "--face", str(face)]) == 0
    assert capsys.readouterr().out.startswith(f"{out}: 1 page (1 face), ")
    template = tmp_path / "vorlage.json"
    template.write_text(json.dumps(default_templates()[0].to_json(), ensure_ascii=False), "utf-8")
    assert main(["print", "besenbingo", "--out", str(out), "--template", str(template)]) == 0
    assert "rules, 1 template)" in capsys.readouterr().out


def test_engel_bengel_print_reads_in_black_and_white_and_tells_the_paper_setup() -> None:
    """A black-and-white printer makes red and yellow greys: the mixed row's boxes say their
    rule in signs too (★ = = for the red ones, ≠ = for the yellow), the two greys lie far
    apart, and the foot of every page says what a table needs without the box (80 chips
    each, the 30 dice shared out per player count)."""
    from spielleiter.games.engel_bengel.faces import Row
    from spielleiter.games.engel_bengel.sheets import RED, YELLOW, marks

    def grey(colour: tuple[int, int, int]) -> float:
        return 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2]

    assert marks(Row("mixed", "white", 9, 5)) == ["★", "=", "=", "≠", "="]
    assert grey(YELLOW) - grey(RED) > 120
    sheet = faces_sheet(default_faces(), METRICS)
    for page in range(sheet.pages):
        foot = " ".join(t.text for t in texts_on(sheet, page))
        assert "80 Chips" in foot and "30 Würfel" in foot
        assert "2 Spieler je 15" in foot and "8 je 3" in foot
