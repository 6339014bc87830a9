"""Engel & Bengel on the laptop: boards check, boards stats, print, tournament, replay."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from spielleiter.games.base import Seat, sample_chance
from spielleiter.games.engel_bengel.faces import default_boards
from spielleiter.games.engel_bengel.rules import EngelBengelGame
from spielleiter.records import Record
from spielleiter_host.cli import main


def test_boards_check_accepts_the_shipped_faces_and_names_a_bad_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(default_boards(), ensure_ascii=False), encoding="utf-8")
    assert main(["boards", "check", "engel-bengel", str(good)]) == 0
    face = dict(next(iter(default_boards().values())))
    face["rows"] = [dict(r) for r in face["rows"]]
    face["rows"][1]["pips"] = [5, 9]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(face), encoding="utf-8")
    assert main(["boards", "check", "engel-bengel", str(bad)]) != 0
    assert "rows[1].pips[1]" in capsys.readouterr().err


def test_boards_stats_reports_every_row_of_the_faces_played(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["boards", "stats", "engel-bengel", "--games", "2", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["games"] == 2 and result["seats"] == ["normal"] * 4
    assert result["rows"] and len(result["rows"]) % 6 == 0


def test_print_writes_every_face_on_a4(tmp_path: Path) -> None:
    out = tmp_path / "boards.pdf"
    assert main(["print", "engel-bengel", "--out", str(out)]) == 0
    data = out.read_bytes()
    assert (
        data.startswith(b"%PDF") and data.count(b"/Type /Page") - data.count(b"/Type /Pages") == 8
    )


def test_a_tournament_rotates_the_seats_and_gives_win_shares(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["tournament", "engel-bengel", "--seats", "normal,leicht", "--games", "4", "--seed",
            "3", "--json", "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    shares = [r["win_share"] for r in result["results"]]
    assert result["games"] == 4 and sum(shares) == pytest.approx(1.0)


def test_replay_prints_each_durchgang_and_the_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = EngelBengelGame({"players": 3})
    state = game.new_initial_state()
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply_action(
            sample_chance(state, rng)
            if state.is_chance_node()
            else rng.choice(state.legal_actions())
        )
    record = Record("engel-bengel", dict(game.params), [Seat("A"), Seat("B"), Seat("C")],
                    state.history(), {})  # fmt: skip
    path = tmp_path / "record.json"
    path.write_text(record.dumps(), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    text = capsys.readouterr().out
    assert "Durchgang 1:" in text and "Spielende" in text


def test_the_links_board_kind_validates_faces_and_names_the_path(tmp_path: Path) -> None:
    from spielleiter import boards
    from spielleiter.store import Store

    face = json.loads(json.dumps(next(iter(default_boards().values()))))
    face["rows"][3]["colour"] = "grau"
    with pytest.raises(boards.BoardError) as info:
        boards.validate("engel-bengel", face)
    assert info.value.path == "rows[3].colour"
    store = Store(tmp_path / "s.sqlite3")
    assert len(store.boards("engel-bengel")) == 16
    store.close()
