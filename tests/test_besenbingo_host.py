"""spielleiter-host templates and print besenbingo: offline tools for the templates."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw
from spielleiter.games.besenbingo.bots import Solver
from spielleiter.games.besenbingo.templates import (
    Template,
    default_templates,
    retired_templates,
    validate_template,
)
from spielleiter_host import printing
from spielleiter_host.cli import main
from spielleiter_host.printing import template_page


def pdf_pages(path: Path) -> int:
    return len(re.findall(rb"/Type\s*/Page\b(?!s)", path.read_bytes()))


@pytest.fixture
def template_files(tmp_path: Path) -> list[Path]:
    """Two templates as files, the way they are uploaded to the box."""
    paths = []
    for i, t in enumerate(default_templates()[:2]):
        path = tmp_path / f"vorlage{i}.json"
        path.write_text(json.dumps(t.to_json(), ensure_ascii=False), encoding="utf-8")
        paths.append(path)
    return paths


def test_templates_score_reports_expected_scores_and_spread(
    template_files: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    files = [str(p) for p in template_files]
    assert main(["templates", "score", "--games", "20", "--json", "--template", *files]) == 0
    report = json.loads(capsys.readouterr().out)
    rows = report["templates"]
    assert [r["template"] for r in rows] == [t.name for t in default_templates()[:2]]
    for row in rows:
        assert 5 < row["expected"] < 30
        assert abs(row["simulated"] - row["expected"]) < 6 * row["standard_error"] + 0.5
    assert report["largest_deviation_percent"] == max(abs(r["vs_mean_percent"]) for r in rows)


def test_templates_score_reports_the_greedy_player_beside_the_best_play(
    template_files: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    files = [str(p) for p in template_files]
    assert main(["templates", "score", "--games", "0", "--json", "--template", *files]) == 0
    report = json.loads(capsys.readouterr().out)
    rows = report["templates"]
    for row, template in zip(rows, default_templates()[:2], strict=True):
        assert row["greedy"] == round(Solver.of(template).greedy_score(), 3)
        assert row["greedy"] < row["expected"]
    mean = sum(r["greedy"] for r in rows) / len(rows)
    assert rows[0]["greedy_vs_mean_percent"] == round(100 * (rows[0]["greedy"] / mean - 1), 2)
    assert report["largest_greedy_deviation_percent"] == max(
        abs(r["greedy_vs_mean_percent"]) for r in rows
    )
    assert main(["templates", "score", "--games", "0", "--template", *files]) == 0
    assert "greedy" in capsys.readouterr().out


def test_templates_check_refuses_a_field_no_witch_can_cross(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = default_templates()[0].to_json()
    grid_witches = {c["witch"] for row in data["grid"] for c in row if isinstance(c, dict)}
    pairs = {(c["witch"], c["copilot"]) for row in data["grid"] for c in row if isinstance(c, dict)}
    absent = next((w, c) for w in sorted(grid_witches) for c in ("Katze", "Rabe", "Ratte")
                  if (w, c) not in pairs)  # fmt: skip
    data["bar"]["paar"][0].update(witch=absent[0], copilot=absent[1])
    bad = tmp_path / "tot.json"
    bad.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert main(["templates", "check", str(bad)]) == 7
    assert f"tot.json: bar.paar[0]: no witch field on the grid is {absent[0]} with {absent[1]}" in (
        capsys.readouterr().err
    )


def test_templates_check_refuses_twins_and_names_the_twin(
    tmp_path: Path, template_files: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["templates", "check", *map(str, template_files)]) == 0
    shipped = default_templates()[1].to_json()
    own = dict(shipped, name="Eins")
    own["bar"] = dict(shipped["bar"], minus=[*shipped["bar"]["minus"][:-1], -9])
    twin = dict(own, name="Zwilling")
    twin["grid"] = [row[::-1] for row in own["grid"]]  # mirrored: the same game
    path = tmp_path / "zwilling.json"
    path.write_text(json.dumps({"Eins": own, "Zwilling": twin}))
    assert main(["templates", "check", str(path)]) == 7
    err = capsys.readouterr().err
    assert '["Zwilling"]' in err and "'Zwilling' is the same as the template 'Eins'" in err
    path.write_text(json.dumps(dict(twin, bar=shipped["bar"])))
    assert main(["templates", "check", str(path)]) == 7
    err = capsys.readouterr().err
    assert f"the same as the shipped template {shipped['name']!r}" in err
    retired = dict(retired_templates()[0].to_json(), name="Alter Blocksberg")
    path.write_text(json.dumps(retired))
    assert main(["templates", "check", str(path)]) == 7
    assert f"shipped template {retired_templates()[0].name!r}" in capsys.readouterr().err


def test_an_invalid_template_file_names_the_file_and_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = default_templates()[0].to_json()
    data["bar"]["minus"] = [-1]
    bad = tmp_path / "kaputt.json"
    bad.write_text(json.dumps([data]), encoding="utf-8")
    assert main(["templates", "check", str(bad)]) == 7
    assert "kaputt.json: [0].bar.minus: needs at least 7 minus fields" in capsys.readouterr().err
    out = tmp_path / "x.pdf"
    assert main(["print", "besenbingo", "--out", str(out), "--template", str(bad)]) == 7
    assert not out.exists()


def test_print_writes_one_page_per_template_and_one_for_the_tower_cards(
    tmp_path: Path, template_files: list[Path]
) -> None:
    out = tmp_path / "sheets.pdf"
    files = [str(p) for p in template_files]
    assert main(["print", "besenbingo", "--out", str(out), "--template", *files]) == 0
    assert out.read_bytes().startswith(b"%PDF")
    assert pdf_pages(out) == 3


def test_a_printed_sheet_is_a_readable_a4_page(tmp_path: Path) -> None:
    png = tmp_path / "vorlage.png"
    template_page(default_templates()[3]).save(png)
    page = Image.open(png).convert("L")
    assert page.size == (1240, 1754)  # A4 at 150 dpi
    ink = sum(page.point(lambda v: 255 if v < 128 else 0).histogram()[255:])
    assert 0.02 < ink / (page.width * page.height) < 0.5


class RecordingDraw(ImageDraw.ImageDraw):
    """Draws as usual and keeps every rectangle and the box of every text."""

    def __init__(self, image: Image.Image, mode: str | None = None) -> None:
        super().__init__(image, mode)
        self.boxes: list[tuple[float, ...]] = []
        self.texts: list[tuple[str, tuple[float, ...]]] = []

    def rectangle(self, xy: Any, *args: Any, **kwargs: Any) -> None:
        self.boxes.append(tuple(xy))
        super().rectangle(xy, *args, **kwargs)

    def text(self, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        bbox = self.textbbox(xy, text, font=kwargs.get("font"), anchor=kwargs.get("anchor"))
        self.texts.append((text, bbox))
        super().text(xy, text, *args, **kwargs)


def a_crowded_template() -> Template:
    """An uploaded template at the limits: long names, seven fields in a row (no row can
    cross more), twelve minus fields."""
    data = default_templates()[0].to_json()
    data["name"] = "Die lange Nacht der Hexen vom Brocken im Harz und im Thüringer"
    text = json.dumps(data, ensure_ascii=False).replace("Walpurga", "Hildegard-Philippine")
    data = json.loads(text)
    data["witches"] = [
        {"name": "Hildegard-Philippine", "hat": "Spitzhut"},
        {"name": "Mechthild", "hat": "Zipfelmütze"},
        {"name": "Griselda", "hat": "Krempenhut"},
        {"name": "Ottilie", "hat": "Blumenhut"},
    ]
    witches = ["Mechthild", "Hildegard-Philippine", "Griselda", "Ottilie"] * 2
    data["bar"]["hexe"] = [{"witch": w, "value": 1} for w in witches[:7]]
    pairs = [cell for row in data["grid"] for cell in row if isinstance(cell, dict)]
    data["bar"]["paar"] = [dict(pair, value=2) for pair in pairs[:7]]
    data["bar"]["minus"] = [-1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -10, -10]
    return validate_template(data)


def recorded_page(monkeypatch: pytest.MonkeyPatch, template: Template) -> RecordingDraw:
    """Print one template page and return what was drawn on it."""
    drawings: list[RecordingDraw] = []

    def recording(image: Image.Image, mode: str | None = None) -> RecordingDraw:
        drawings.append(RecordingDraw(image, mode))
        return drawings[-1]

    monkeypatch.setattr(printing.ImageDraw, "Draw", recording)
    page = template_page(template)
    (draw,) = [d for d in drawings if d.im is page.im]
    return draw


def test_every_name_on_a_printed_sheet_stays_inside_its_field(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    draw = recorded_page(monkeypatch, a_crowded_template())
    for text, (x0, y0, x1, y1) in draw.texts:
        assert 0 <= x0 and x1 <= printing.A4[0], f"{text!r} runs off the page"
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        around = [b for b in draw.boxes if b[0] <= cx <= b[2] and b[1] <= cy <= b[3]]
        if around:
            bx0, _, bx1, _ = min(around, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
            assert bx0 < x0 and x1 < bx1, f"{text!r} runs out of its field"
    shown = {text for text, _ in draw.texts}
    assert "Mechthild" in shown and any(t.startswith("Hildegard-") for t in shown)


def test_a_printed_sheet_has_lines_for_the_name_and_the_points(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts = {text for text, _ in recorded_page(monkeypatch, default_templates()[0]).texts}
    assert {"Name:", "Punkte:", "5 P. nur, wenn beide gestrichen"} <= texts
