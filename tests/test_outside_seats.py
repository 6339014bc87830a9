"""Your own bot (PATH.py:FUNCTION) and the test opponents at a tournament's seat, in every
game with computers; the examples of docs/host.md run as written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from spielleiter.games import outside
from spielleiter.games.bungee import arena as bungee_arena
from spielleiter.games.engel_bengel import arena as engel_arena
from spielleiter.games.speedtombola import arena as tombola_arena
from spielleiter_host import cli

pytestmark = pytest.mark.usefixtures("english")  # German: tests/test_host_box_texts.py

HOST_DOCS = Path(__file__).resolve().parent.parent / "docs" / "host.md"
EXAMPLES = {
    "speedtombola": "tombola_bot.py",
    "engel-bengel": "engel_bengel_bot.py",
    "bungee": "bungee_bot.py",
}


def second_seat(tmp_path: Path, game: str, answer: str) -> tuple[Path, list[str]]:
    """A bot file whose `decide` does `answer` (one line), and a short tournament of `game`
    with it at seat 2 between two Normal."""
    bot = tmp_path / "bot.py"
    bot.write_text(f"def decide(view):\n    {answer}\n", encoding="utf-8")
    seats = f"normal,{bot}:decide,normal"
    return bot, ["tournament", game, "--seats", seats, "--games", "3", "--no-progress"]


def example(name: str) -> str:
    """The code block of docs/host.md that starts with `# NAME`."""
    return HOST_DOCS.read_text("utf-8").split(f"# {name}\n", 1)[1].split("```", 1)[0]


@pytest.mark.parametrize("game", sorted(EXAMPLES))
def test_the_docs_example_bot_plays_a_tournament_in_every_game(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bot = tmp_path / EXAMPLES[game]
    bot.write_text(example(EXAMPLES[game]), encoding="utf-8")
    argv = ["tournament", game, "--seats", f"{bot}:decide,Normal,leicht", "--games", "3",
            "--json", "--no-progress"]  # fmt: skip
    assert cli.main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    assert [r["seat"] for r in result["results"]] == [f"{bot}:decide", "normal", "leicht"]
    assert result["games"] == 3


@pytest.mark.parametrize("game", ["engel-bengel", "bungee"])
def test_a_bot_that_answers_an_illegal_move_ends_with_its_seat_named(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, argv = second_seat(tmp_path, game, "return 999")
    assert cli.main(argv) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert "seat 2" in err and "bot.py:decide answered 999" in err


@pytest.mark.parametrize("game", ["engel-bengel", "bungee"])
def test_a_bool_is_not_a_move(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, argv = second_seat(tmp_path, game, "return True")
    assert cli.main(argv) == 1
    assert "answered True" in capsys.readouterr().err


@pytest.mark.parametrize("game", sorted(EXAMPLES))
def test_a_bot_that_raises_ends_with_its_seat_and_the_exception_named(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bot, argv = second_seat(tmp_path, game, "raise RuntimeError('kaputt')")
    assert cli.main(argv) == 1
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert f"seat 2 ({bot}:decide): {bot}:decide failed: RuntimeError('kaputt')" in err
    assert cli.main([*argv, "--json"]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert answer["exit_code"] == 1 and "RuntimeError('kaputt')" in answer["error"]


@pytest.mark.parametrize("game", ["engel-bengel", "bungee"])
def test_a_missing_bot_file_is_a_usage_error(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", game, "--seats", "normal,nix.py:decide,normal", "--games", "3"]
    assert cli.main(argv) == 2
    assert "no file nix.py" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("arena", "opponent"),
    [(engel_arena, "planner"), (bungee_arena, "pairs"), (tombola_arena, "patient")],
)
def test_an_unknown_seat_is_named_with_the_seats_there_are(arena: object, opponent: str) -> None:
    seat = arena.seat  # type: ignore[attr-defined]
    assert seat("Stark") == "stark" and seat(opponent.upper()) == opponent
    with pytest.raises(outside.SeatError, match="unknown seat 'Profi'") as caught:
        seat("Profi")
    assert opponent in str(caught.value) and "PATH.py:FUNCTION" in str(caught.value)
    with pytest.raises(outside.SeatError, match="did you mean stark"):
        seat("Strak")


def test_an_answer_is_checked_against_the_legal_moves(tmp_path: Path) -> None:
    bot = tmp_path / "numpyish.py"
    bot.write_text(
        "class Three:\n    def __index__(self):\n        return 3\n\n"
        "def decide(view):\n    return Three()\n",
        encoding="utf-8",
    )
    spec = f"{bot}:decide"
    assert outside.legal_answer(spec, {"legal": [0, 3]}, [0, 3]) == 3  # any integer type
    with pytest.raises(outside.SeatError, match=r"answered .*one of view\['legal'\] \(0, 1\)"):
        outside.legal_answer(spec, {"legal": [0, 1]}, [0, 1])


def test_the_bot_gets_a_copy_of_the_view(tmp_path: Path) -> None:
    bot = tmp_path / "spoiler.py"
    bot.write_text("def decide(view):\n    view.clear()\n    return 0\n", encoding="utf-8")
    view = {"legal": [0], "seat": 1}
    outside.legal_answer(f"{bot}:decide", view, view["legal"])
    assert view == {"legal": [0], "seat": 1}


def test_every_engel_bengel_and_bungee_seat_kind_plays_a_whole_game() -> None:
    engel = engel_arena.play(["cautious", "reckless", "planner"], (1, 0), 5, {})
    assert sorted(engel[0])[0] == 1 and len(engel[1]) == 3
    bungee = bungee_arena.play(["lowcaller", "pairs", "fastcaller"], (1, 0), 5, {})
    assert sorted(bungee[0])[0] == 1 and len(bungee[1]) == 3
