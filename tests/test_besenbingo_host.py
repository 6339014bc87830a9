"""spielleiter-host templates and print besenbingo: offline tools for the templates."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from PIL import Image
from spielleiter.games.besenbingo_templates import default_templates
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
