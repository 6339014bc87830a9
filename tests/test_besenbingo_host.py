"""spielleiter-host templates score|check, offline (print besenbingo: test_printing.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from spielleiter.games.besenbingo.bots import Solver
from spielleiter.games.besenbingo.templates import (
    default_templates,
    retired_templates,
)
from spielleiter_host.cli import main

pytestmark = pytest.mark.usefixtures("english")  # the English messages; German in test_host_i18n


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
