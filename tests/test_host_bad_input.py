"""The laptop tool meets wrong files, paths and values with one line and its exit code,
never a traceback (docs/host.md lists the codes: 2 a file or command line, 7 invalid)."""

from __future__ import annotations

from pathlib import Path

import pytest
from spielleiter_host import cli

PNG = Path(__file__).resolve().parent / "golden" / "main_menu.png"


@pytest.mark.parametrize(
    "argv",
    [
        ["replay", "{png}"],
        ["replay", "{missing}"],
        ["templates", "check", "{png}"],
        ["templates", "check", "{missing}"],
        ["templates", "score", "--games", "1", "--template", "{png}"],
        ["boards", "check", "engel-bengel", "{png}"],
        ["boards", "check", "engel-bengel", "{missing}"],
        ["print", "besenbingo", "--out", "{nofolder}/b.pdf"],
        ["print", "besenbingo", "--out", "{folder}"],
        ["tournament", "speedtombola", "--seats", "stark,profi,normal"],
        ["tournament", "speedtombola", "--seats", "stark,normal,normal", "--games", "0"],
        ["tournament", "speedtombola", "--seats", "normal,normal,normal", "--results", "{png}"],
    ],
)
def test_a_bad_file_path_or_value_is_one_line_with_its_exit_code(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    places = {"png": str(PNG), "missing": str(tmp_path / "nix.json"),
              "nofolder": str(tmp_path / "gibtsnicht"), "folder": str(tmp_path)}  # fmt: skip
    code = cli.main([a.format(**places) for a in argv])
    out, err = capsys.readouterr()
    assert code in (1, 2, 7), (code, err)
    assert "Traceback" not in err + out
    assert len(err.strip().splitlines()) == 1, err


def test_under_json_an_error_is_a_json_object_too(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    code = cli.main(["tournament", "speedtombola", "--seats", "stark,x,normal", "--json"])
    out, err = capsys.readouterr()
    assert code == 2 and "unknown seat" in err
    assert json.loads(out) == {"error": err.strip().removeprefix("spielleiter-host: "),
                               "exit_code": 2}  # fmt: skip


@pytest.mark.parametrize("game", ["besenbingo", "engel-bengel"])
def test_print_says_what_it_wrote_and_does_so_as_json(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    out = tmp_path / "sheets.pdf"
    assert cli.main(["print", game, "--out", str(out), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["file"] == str(out) and answer["pages"] >= 8
    assert answer["bytes"] == out.stat().st_size and out.read_bytes().startswith(b"%PDF")
