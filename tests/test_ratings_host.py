"""The laptop's side of the ratings: `leaderboard` (ratings with mu and sigma, average
points, --json), `leaderboard --history NAME --plot FILE`, the tournament's ratings, and
the box's screen and the link showing the same numbers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import finished_record
from spielleiter import ratings
from spielleiter.games.base import Seat
from spielleiter.link.fake import FakeDevice
from spielleiter.link.server import LinkServer
from spielleiter.store import Store
from spielleiter.ui.menus import BestenlisteScreen
from spielleiter_host import tournament
from spielleiter_host.cli import main

pytestmark = pytest.mark.usefixtures("english")
NORMAL = [Seat(f"Normal {i}", "computer", "normal") for i in (1, 2, 3)]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    found = Store.open(tmp_path / "data")
    finished_record(found, "bungee", ["Anna", "Ben"], [2, 1], at=1.7e9, points=[40, 10])
    finished_record(found, "bungee", ["Ben", *NORMAL], [1, 2, 3, 4], at=1.8e9, points=[35])
    yield found
    found.close()


@pytest.fixture
def host(store: Store, capsys: Any) -> Iterator[Any]:
    with LinkServer.on_pty(FakeDevice(store)) as server:

        def run(*argv: str) -> tuple[int, str, str]:
            code = main([*argv, "--port", server.port_name, "--timeout", "3"])
            out = capsys.readouterr()
            return code, out.out, out.err

        yield run


def test_leaderboard_shows_the_ratings_with_mu_sigma_and_the_average_points(host: Any) -> None:
    code, out, _ = host("leaderboard", "bungee")
    assert code == 0
    lines = out.splitlines()
    ben = next(line for line in lines if line.split()[1:2] == ["Ben"])
    assert ben.split()[0] == "1" and ben.split()[-1] == "22.5"  # first, 45 points in 2
    assert any("Normal (computer, bots v1)" in line for line in lines)
    anna = next(line for line in lines if line.split()[1:2] == ["Anna"])
    assert "new" in anna.split()
    assert "points (by the average per match, fewest first):" in out


def ends_under(header: str, row: str, title: str) -> bool:
    """Whether the row's cell under `title` ends where the title ends (right-aligned)."""
    end = header.index(title) + len(title)
    return row[end - 1] != " " and row[end : end + 1] in ("", " ")


def test_leaderboard_s_figures_stand_right_aligned_under_their_headers(host: Any) -> None:
    """As docs/host.md shows the table: the ratings, mu, sigma and the averages (numbers
    written to one decimal, "new", "-") end where their header ends."""
    code, out, _ = host("leaderboard", "bungee")
    lines = out.splitlines()
    first, second = (i for i, line in enumerate(lines) if line.startswith("place  name"))
    rated, points = lines[first + 2 : first + 5], lines[second + 2 :]
    assert code == 0 and any(" new" in row for row in rated) and "-" in rated[1].split()
    for row in rated:
        for title in ("rating", "mu", "sigma", "avg points"):
            assert ends_under(lines[first], row, title), (title, row)
    assert all(ends_under(lines[second], row, "average") for row in points), points


def test_leaderboard_json_is_the_boxs_answer_and_the_box_shows_the_same_numbers(
    host: Any, store: Store
) -> None:
    code, out, _ = host("leaderboard", "bungee", "--json")
    answer = json.loads(out)
    sent = answer["bestenliste"]["bungee"]
    screen = BestenlisteScreen("bungee")
    screen.app = type("App", (), {"store": store})()  # what enter() reads
    screen.enter()
    shown = screen.summary()["lines"]
    assert [[s["place"], s["name"], "neu" if s["new"] else f"{s['rating']:.1f}",
             s["matches"], s["wins"]] for s in sent] == shown  # fmt: skip
    assert [p["name"] for p in answer["points"]["bungee"]] == ["Ben", "Anna"]


def test_history_lists_each_match_and_plots_png_and_svg(host: Any, tmp_path: Path) -> None:
    code, out, _ = host("leaderboard", "--history", "ben", "bungee")
    assert code == 0 and out.count("\n") >= 4 and "1/2" in out and "1/4" in out
    for suffix in ("png", "svg"):
        target = tmp_path / f"ben.{suffix}"
        code, out, err = host("leaderboard", "--history", "Ben", "--plot", str(target))
        assert code == 0, err
        assert target.stat().st_size > 1000 and str(target) in out
    assert (tmp_path / "ben.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert b"<svg" in (tmp_path / "ben.svg").read_bytes()[:400]


def test_a_plot_into_a_missing_folder_is_refused_as_every_output_is(
    host: Any, tmp_path: Path
) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "nix" / "ben.png"
    code, out, err = host("leaderboard", "--history", "Ben", "--plot", str(target))
    assert code == 2 and f"cannot write {target}: " in err and err.count("\n") == 1
    assert out == "" and not target.parent.exists()


@pytest.mark.parametrize(
    ("lang", "titles"),
    [("de", ["Partie", "beendet", "Partie-Nr.", "Platz"]),
     ("en", ["match", "finished", "record", "place"])],
)  # fmt: skip
def test_the_history_s_columns_have_titles_of_their_own(
    host: Any, lang: str, titles: list[str]
) -> None:
    code, out, _ = host("leaderboard", "--history", "Ben", "bungee", "--lang", lang)
    header = out.splitlines()[1].split()
    assert code == 0 and header[:4] == titles and len(set(header)) == len(header)


def test_history_of_a_name_without_a_rated_match_says_so(host: Any) -> None:
    code, _, err = host("leaderboard", "--history", "Zoe")
    assert code == 1 and "no rated match of 'Zoe'" in err
    code, _, err = host("leaderboard", "--plot", "x.png")
    assert code == 2


def test_a_tournament_states_each_seats_rating_beside_its_win_share() -> None:
    setup = tournament.Setup(game="bungee", seats=("stark", "leicht"), params={"rounds": 1})
    result = tournament.run(setup, 6)
    stark, leicht = result["results"]
    assert {"rating", "mu", "sigma"} <= set(stark)
    assert (stark["win_share"] > leicht["win_share"]) == (stark["mu"] > leicht["mu"])
    again = tournament.seat_ratings(["a", "b"], [[1, 2]] * 3)
    assert again[0].mu > ratings.MU > again[1].mu and again[0].matches == 3


def test_the_docs_tournament_example_prints_what_docs_host_md_shows(
    capsys: pytest.CaptureFixture[str],
) -> None:
    command = "spielleiter-host tournament bungee --seats stark,normal,normal --games 6 --seed 3"
    docs = (Path(__file__).resolve().parent.parent / "docs" / "host.md").read_text("utf-8")
    shown = docs.split(f"$ {command}\n", 1)[1].split("```", 1)[0]
    assert main([*command.split()[1:], "--no-progress"]) == 0
    assert capsys.readouterr().out == shown
