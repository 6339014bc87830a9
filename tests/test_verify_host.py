"""`spielleiter-host verify`: every game's finished records verify; a record with one
chance outcome changed is refused, naming it; a running match cannot be verified yet."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from spielleiter.games import catalog
from spielleiter.link.fake import FakeDevice
from spielleiter.link.server import LinkServer
from spielleiter.store import Store
from spielleiter_host.cli import main
from test_draws import new_match, play

pytestmark = pytest.mark.usefixtures("english")  # the English messages; German in test_host_i18n

GAMES = catalog.names()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def finished(tmp_path: Path) -> dict[str, Path]:
    """One finished record file per game."""
    store = Store(tmp_path / "s.sqlite3")
    files = {}
    for game in GAMES:
        table = new_match(store, game)
        play(table, random.Random(7))
        files[game] = tmp_path / f"{game}.json"
        files[game].write_text(store.record(table.session.record_id).dumps())
    store.close()
    return files


def test_every_games_record_verifies_and_a_changed_outcome_is_named(
    finished: dict[str, Path], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for game, path in finished.items():
        code, out, err = run(capsys, "verify", str(path))
        assert code == 0 and "chance outcomes the box drew come from its committed secret" in out
        assert err == ""
        data = json.loads(path.read_text())
        game_obj = catalog.make(game, data["params"])
        state = game_obj.new_initial_state()
        target = None
        for i, action in enumerate(data["actions"]):
            if state.is_chance_node() and len(state.chance_outcomes()) > 1 and target is None:
                target = (i, next(o for o, _ in state.chance_outcomes() if o != action))
            state.apply_action(action)
        assert target is not None, game
        i, other = target
        data["actions"][i] = other
        bad = tmp_path / f"{game}-changed.json"
        bad.write_text(json.dumps(data))
        code, out, err = run(capsys, "verify", str(bad))
        assert code == 7, (game, err)
        assert f"action {i + 1} is " in err and "but the committed secret draws" in err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_verify_json_gives_the_counts(
    finished: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "verify", str(finished["speedtombola"]), "--json")
    result = json.loads(out)
    assert code == 0 and result["ok"] and result["drawn"] > 0 and result["entered"] == 0
    assert len(result["commitment"]) == 64


def test_a_running_match_and_a_record_without_commitment_cannot_be_verified(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = Store.open(tmp_path / "data")
    table = new_match(store, "speedtombola")
    with LinkServer.on_pty(FakeDevice(store)) as server:
        code, _, err = run(
            capsys, "verify", "--id", str(table.session.record_id), "--port", server.port_name
        )
    assert code == 1 and "still running" in err
    old = json.loads(store.record(table.session.record_id).dumps())
    old["meta"].pop("chance")
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    code, _, err = run(capsys, "verify", str(path))
    assert code == 1 and "no chance commitment" in err
    code, _, err = run(capsys, "verify")
    assert code == 2 and "name a record file or --id N" in err
    store.close()


def test_verify_by_id_fetches_the_finished_record_from_the_box(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = Store.open(tmp_path / "data")
    table = new_match(store, "bungee")
    play(table, random.Random(2))
    with LinkServer.on_pty(FakeDevice(store)) as server:
        code, out, err = run(
            capsys, "verify", "--id", str(table.session.record_id), "--port", server.port_name
        )
    assert code == 0 and f"record {table.session.record_id}: bungee" in out, err
    store.close()


BAD = {
    "unknown game": ({"game": "nogame"}, "unknown game 'nogame'"),
    "game a number": ({"game": 5}, "its 'game' is not a text"),
    "unknown parameter": ({"params": {"removed": "x"}}, "the rules refuse its parameters"),
    "params a number": ({"params": -3}, "its 'params' is not a JSON object"),
    "another game's parameters": (
        {"game": "bungee", "params": {"players": 3, "removed": 9, "rounds": 1}},
        "the rules refuse its parameters: bungee: ",
    ),
    "actions a text": ({"actions": "x"}, "its 'actions' is not a list of whole numbers"),
    "entered a text": ({"meta": {"entered": "x"}}, "its 'meta.entered' is not a list"),
}


@pytest.mark.parametrize("change", list(BAD))
def test_a_record_of_an_unknown_game_or_bad_parameters_is_refused_in_one_line(
    change: str, finished: dict[str, Path], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """verify and replay refuse it alike: one line, exit 7, and under --json the error."""
    fields, said = BAD[change]
    good = json.loads(finished["speedtombola"].read_text())
    data = {**good, **fields, "meta": {**good["meta"], **fields.get("meta", {})}}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    for command in ("verify", "replay"):
        code, out, err = run(capsys, command, str(path))
        assert code == 7 and out == "" and said in err, (command, err)
        assert err.startswith(f"spielleiter-host: {path}") and err.count("\n") == 1
        code, out, err = run(capsys, command, str(path), "--json")
        assert code == 7 and json.loads(out) == {"error": err[18:-1], "exit_code": 7}


def test_a_running_match_saved_by_records_get_cannot_be_verified_yet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The file `records get` saves of a running match is told as what it is, exit 1, as
    `verify --id` tells it: its chance is revealed when the match ends."""
    store = Store.open(tmp_path / "data")
    table = new_match(store, "speedtombola")
    path = tmp_path / "running.json"
    with LinkServer.on_pty(FakeDevice(store)) as server:
        rid = str(table.session.record_id)
        assert main(["records", "get", rid, "-o", str(path), "--port", server.port_name]) == 0
    store.close()
    capsys.readouterr()
    code, out, err = run(capsys, "verify", str(path))
    assert code == 1 and out == ""
    said = f"{path} is a match still running: its chance is revealed when it ends"
    assert err == f"spielleiter-host: {said}\n"


def test_a_board_file_is_named_as_a_board_not_a_record_of_format_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from spielleiter.games.besenbingo.templates import default_templates

    path = tmp_path / "vorlage.json"
    path.write_text(json.dumps(default_templates()[0].to_json(), ensure_ascii=False), "utf-8")
    code, _, err = run(capsys, "verify", str(path))
    assert code == 7 and "is a board of besenbingo, not a record" in err
    assert "format None" not in err


def test_a_revealed_secret_that_is_not_the_committed_one_is_refused_as_not_what_was_drawn(
    finished: dict[str, Path], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Not "cannot be verified" (exit 1, as for a running match): the record shows that its
    chance is not what the box committed to, as a changed outcome does (exit 7)."""
    data = json.loads(finished["speedtombola"].read_text())
    data["meta"]["chance"]["secret"] = "123"
    path = tmp_path / "other-secret.json"
    path.write_text(json.dumps(data))
    code, out, err = run(capsys, "verify", str(path))
    assert code == 7 and out == ""
    assert "is not what the box drew: the revealed secret does not match the commitment" in err
