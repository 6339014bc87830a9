"""The laptop tools for Speedtombola: tournaments between computer players, and replay."""

from __future__ import annotations

import json
import random

import pytest
from spielleiter.games import catalog
from spielleiter.games.base import Seat, sample_chance
from spielleiter.games.speedtombola.bots import choose
from spielleiter.games.speedtombola.replay import calculation, garnitur_text
from spielleiter.games.speedtombola.rules import SpeedtombolaGame
from spielleiter.records import Record
from spielleiter_host import cli
from spielleiter_host.replay import replay_text
from spielleiter_host.tournament import Setup, run, win_shares

pytestmark = pytest.mark.usefixtures("english")  # the English messages; German in test_host_i18n


def test_a_short_match_of_normal_against_two_leicht():
    setup = Setup("speedtombola", ("normal", "leicht", "leicht"), seed=1)
    result = run(setup, games=60, progress=False)
    assert result["games"] == 60
    shares = [r["win_share"] for r in result["results"]]
    assert sum(shares) == pytest.approx(1.0)
    assert shares[0] > 0.25
    assert all(r["win_share_se"] > 0 for r in result["results"])


def test_games_are_rounded_up_to_a_multiple_of_the_seats():
    setup = Setup("speedtombola", ("normal", "normal", "leicht"), seed=2)
    result = run(setup, games=2, progress=False)
    assert result["games"] == 3


def test_a_tie_for_first_splits_the_win():
    assert win_shares([1, 1, 3]) == [0.5, 0.5, 0.0]


def test_the_same_seed_gives_the_same_result_with_one_or_two_processes():
    setup = Setup("speedtombola", ("normal", "leicht", "leicht"), {"removed": 6}, seed=4)
    assert run(setup, 12, jobs=1, progress=False) == run(setup, 12, jobs=2, progress=False)


def test_a_house_rule_of_the_game_is_checked(capsys):
    argv = ["tournament", "speedtombola", "--seats", "normal,leicht,leicht", "--removed", "7"]
    assert cli.main(argv) == 2
    assert "--removed: one of 9, 6, 12 for speedtombola" in capsys.readouterr().err


def test_the_tournament_command_prints_json_in_seats_order(capsys):
    argv = ["tournament", "speedtombola", "--seats", "normal,leicht,leicht", "--games", "6"]
    assert cli.main([*argv, "--json", "--seed", "3"]) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert data["game"] == "speedtombola" and data["games"] == 6
    assert [r["seat"] for r in data["results"]] == ["normal", "leicht", "leicht"]
    assert set(data["results"][0]) == {
        "seat", "win_share", "win_share_se", "mean_points", "rating", "mu", "sigma"
    }  # fmt: skip
    assert "6/6" not in out and "games" not in err  # no progress bar under --json


def test_the_tournament_command_prints_a_table(capsys):
    argv = ["tournament", "speedtombola", "--seats", "normal,leicht,leicht", "--games", "3"]
    assert cli.main([*argv, "--no-progress"]) == 0
    out, err = capsys.readouterr()
    assert "normal" in out and "±" in out and "mean points" in out and err == ""


def record_of(stop_in_round: int | None = None, rounds: int = 3) -> Record:
    """A record of Normal players; with stop_in_round, cut at that round's second lot."""
    game = SpeedtombolaGame({"players": 3, "rounds": rounds})
    state = game.new_initial_state()
    rng = random.Random(2)
    while not state.is_terminal():
        if state.round_index == stop_in_round and state.drum_count < 22:
            break
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            view = state.view(state.current_player())
            state.apply_action(choose(view, level="normal", rng=random.Random(0)))
    seats = [Seat("Anna"), Seat("Bot", "computer", "normal"), Seat("Carl")]
    return Record("speedtombola", dict(game.params), seats, state.history())


def test_the_tafel_marks_the_counting_lot_and_shows_the_calculation():
    assert garnitur_text([25, 26, 27]) == "[25] 26 27"
    assert calculation([3, 10, 11, 12, 13, 20], 5) == "3 + 10 + 20 − 5 Groschen = 28"
    assert calculation([], 4) == "0 − 4 Groschen = -4"


def test_replay_prints_each_rounds_tafel_and_the_end(tmp_path, capsys):
    record = record_of()
    path = tmp_path / "partie.json"
    path.write_text(record.dumps(), encoding="utf-8")
    assert cli.main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    for number in (1, 2, 3):
        assert f"Runde {number}" in out
    assert out.count("Raus waren:") == 3 and "Endstand" in out and "1. " in out
    state = record.replay()
    first = state.results[0]
    assert calculation(first.lots[0], first.groschen[0]) in out


def test_replay_of_an_unfinished_record_shows_the_position():
    text = replay_text(record_of(stop_in_round=1))
    assert "Runde 1\n" in text and "Runde 2 läuft" in text and "Groschen" in text


def test_replay_refuses_a_game_the_catalog_does_not_know(tmp_path, capsys):
    path = tmp_path / "x.json"
    path.write_text(Record("nochnichtda", {}, [], []).dumps(), encoding="utf-8")
    assert cli.main(["replay", str(path)]) == 7
    assert "unknown game 'nochnichtda'" in capsys.readouterr().err


def test_replay_of_a_game_without_its_own_text_lists_the_actions(tmp_path, capsys):
    game = catalog.make("besenbingo", {"players": 1})
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        action = sample_chance(state, rng) if state.is_chance_node() else state.legal_actions()[0]
        state.apply_action(action)
    path = tmp_path / "b.json"
    record = Record("besenbingo", game.params, [Seat("Anna")], state.history())
    path.write_text(record.dumps(), encoding="utf-8")
    assert cli.main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Besenbingo: Anna") and "Zufall: Turm" in out and "Ende: Anna" in out


@pytest.mark.parametrize(
    ("content", "message", "code"),
    [
        (None, "cannot read", 2),
        (b"\x89PNG\r\n\x1a\n", "not UTF-8 text", 2),
        (b"# Hallo", "is not JSON", 2),
        (b'{"format": 1, "game": "speedtombola", "params": {}, "seats": [], "actions": [99]}',
         "action 0 cannot be played", 7),
    ],
)  # fmt: skip
def test_replay_answers_a_bad_file_in_one_line(tmp_path, capsys, content, message, code):
    path = tmp_path / "record.json"
    if content is not None:
        path.write_bytes(content)
    assert cli.main(["replay", str(path)]) == code
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and message in err
    assert cli.main(["replay", str(path), "--json"]) == code
    answer = json.loads(capsys.readouterr().out)
    assert message in answer["error"] and answer["exit_code"] == code
