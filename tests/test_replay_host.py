"""`spielleiter-host replay`: the match as data (validated by the schema in docs/records.md)
for every game, and a refused record named by its action's index and the rules' words."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import jsonschema
import pytest
from helpers import ROOT
from spielleiter.games import catalog
from spielleiter.games.base import CHANCE, Seat, sample_chance
from spielleiter.games.table import HeadlessHost
from spielleiter.records import Record
from spielleiter.session import Session
from spielleiter.store import Store
from spielleiter_host.cli import main

pytestmark = pytest.mark.usefixtures("english")  # the English messages; German in test_host_i18n

GAMES = catalog.names()
ENGLISH = re.compile(r"\b(the|is|not|action|game|over|legal|move|no)\b", re.IGNORECASE)


def schema() -> dict:
    """The JSON Schema of `replay --json`, as docs/records.md prints it."""
    text = (ROOT / "docs" / "records.md").read_text(encoding="utf-8")
    block = text.split("### The schema", 1)[1].split("```json\n", 1)[1].split("```", 1)[0]
    found = json.loads(block)
    jsonschema.Draft202012Validator.check_schema(found)
    return found


def random_match(game: str, seed: int = 1, stop: int | None = None) -> Record:
    """A match of three seats (the whole table as one where the game plays so), played by
    random legal moves, to the end or for `stop` actions."""
    entry = catalog.entry(game)
    players = max(entry.min_seats, min(3, entry.max_seats))
    state = entry.make({"players": players}).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal() and (stop is None or len(state.history()) < stop):
        chance = state.is_chance_node()
        state.apply_action(
            sample_chance(state, rng) if chance else rng.choice(state.legal_actions())
        )
    seats = [Seat(n) for n in ("Anna", "Ben", "Carla")[:players]]
    if not entry.needs_seats:
        seats = [Seat("Tisch")]
    return Record(game, dict(state.game.params), seats, state.history(), {})


def replay_json(tmp_path: Path, record: Record, capsys: pytest.CaptureFixture[str]) -> dict:
    path = tmp_path / "record.json"
    path.write_text(record.dumps(), encoding="utf-8")
    assert main(["replay", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("game", GAMES)
def test_replay_json_is_the_match_as_data(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = random_match(game)
    data = replay_json(tmp_path, record, capsys)
    jsonschema.validate(data, schema())
    state = record.make_game().new_initial_state()
    assert [a["index"] for a in data["actions"]] == list(range(len(record.actions)))
    for step, action in zip(data["actions"], record.actions, strict=True):
        player = state.current_player()
        assert step["action"] == action
        assert step["kind"] == ("chance" if player == CHANCE else "move")
        assert step["seat"] == (None if player == CHANCE else player)
        assert step["move"] == state.describe(action) and not step["move"].isdigit()
        state.apply_action(action)
        assert step["hidden"] == (player == CHANCE and step["index"] in state.secret_actions())
        assert step["view"] == json.loads(json.dumps(state.public_view()))
    assert data["over"] and data["result"]["returns"] == state.returns()
    assert data["game"] == game and data["title"] == catalog.entry(game).title


@pytest.mark.parametrize("game", GAMES)
def test_the_public_view_holds_only_what_every_seat_sees(game: str) -> None:
    """After every action: each item of the public view is in every seat's own view."""
    record = random_match(game, seed=2)
    state = record.make_game().new_initial_state()
    for action in record.actions:
        state.apply_action(action)
        public = state.public_view()
        for seat in range(state.game.num_players):
            view = state.view(seat)
            assert all(view[key] == value for key, value in public.items())
        assert "seat" not in public or state.game.num_players == 1 or game == "maskenball"
    if game == "bungee":
        assert "hand" not in public and "hand_sizes" in public


@pytest.mark.parametrize("game", GAMES)
def test_the_awards_are_the_ones_the_box_stored(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same match played on a headless box: its store holds the awards replay reads."""
    record = random_match(game, seed=3)
    store = Store(tmp_path / "s.sqlite3")
    session = Session.start(store, game, record.params, record.seats, seed=1)
    catalog.entry(game).table_class()(HeadlessHost(store), session)  # it ends the match
    for action in record.actions:
        session.apply(action)
    stored = [[a.name, a.points, a.matches, a.wins] for a in store.awards(session.record_id)]
    store.close()
    data = replay_json(tmp_path, record, capsys)
    assert stored and [[a["name"], a["points"], a["matches"], a["wins"]]
                       for a in data["awards"]] == stored  # fmt: skip


def test_a_human_who_left_is_listed_with_the_penalty(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = random_match("speedtombola", stop=30)
    record.seats[1] = Seat("Ben (CPU)", "computer", "normal")
    record.meta["left"] = [{"seat": 1, "name": "Ben", "at": 12}]
    data = replay_json(tmp_path, record, capsys)
    penalty = catalog.entry("speedtombola").leave_penalty
    assert data["awards"] == [
        {"name": "Ben", "points": penalty, "matches": 1, "wins": 0, "left": True}
    ]
    assert not data["over"] and data["result"] is None
    assert data["seats"][1] == {"seat": 1, "name": "Ben (CPU)", "kind": "computer",
                                "level": "normal"}  # fmt: skip
    jsonschema.validate(data, schema())


def refused(tmp_path: Path, record: Record, capsys: pytest.CaptureFixture[str]) -> dict:
    """Replay a record that should be refused: its JSON error object (exit 7, one line)."""
    path = tmp_path / "bad.json"
    path.write_text(record.dumps(), encoding="utf-8")
    assert main(["replay", str(path)]) == 7
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert main(["replay", str(path), "--json"]) == 7
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("where", ["chance", "move"])
def test_a_refused_action_names_its_index_and_the_reason_in_the_players_words(
    game: str, where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = random_match(game, seed=4)
    state = record.make_game().new_initial_state()
    for index, action in enumerate(record.actions):  # noqa: B007 - the index is used below
        if (state.current_player() == CHANCE) == (where == "chance"):
            break
        state.apply_action(action)
    else:
        pytest.skip(f"{game} has no {where} action")
    actions = [*record.actions[:index], 46267]
    error = refused(tmp_path, Record(game, record.params, record.seats, actions, {}), capsys)
    assert error["index"] == index and f"action {index} cannot be played" in error["error"]
    reason = error["reason"]
    assert "46267" not in reason and not ENGLISH.search(reason), reason
    assert reason in error["error"]


@pytest.mark.parametrize("game", GAMES)
def test_an_action_after_the_end_is_refused_in_german(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = random_match(game, seed=5)
    after = Record(game, record.params, record.seats, [*record.actions, 0], {})
    error = refused(tmp_path, after, capsys)
    assert error["index"] == len(record.actions) and error["reason"] == "Das Spiel ist vorbei."


def test_maskenball_names_its_players_not_the_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = random_match("maskenball")
    data = replay_json(tmp_path, record, capsys)
    assert data["players"] == ["Spieler 1", "Spieler 2", "Spieler 3"]
    names = {a["name"] for a in data["actions"] if a["kind"] == "move"}
    assert names and names <= set(data["players"])
    path = tmp_path / "record.json"
    assert main(["replay", str(path)]) == 0
    text = capsys.readouterr().out
    assert ". Spieler 1: " in text and "?" not in text and ". Tisch:" not in text


def test_a_board_file_is_not_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from spielleiter.games.besenbingo.templates import default_templates

    path = tmp_path / "vorlage.json"
    path.write_text(json.dumps(default_templates()[0].to_json(), ensure_ascii=False), "utf-8")
    assert main(["replay", str(path)]) == 7
    err = capsys.readouterr().err
    assert "is a board of besenbingo, not a record" in err and "format None" not in err
    path.write_text(json.dumps({"hello": 1}), "utf-8")
    assert main(["replay", str(path)]) == 7
    assert 'is not a record: it has no "format"' in capsys.readouterr().err


def test_a_running_match_from_the_box_waits_for_its_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """records get of a running match withholds its hidden draws (null actions)."""
    data = random_match("speedtombola", stop=12).to_json()
    data["actions"][:9] = [None] * 9
    path = tmp_path / "running.json"
    path.write_text(json.dumps(data), "utf-8")
    assert main(["replay", str(path)]) == 7
    assert "still running on the box" in capsys.readouterr().err


def test_engel_bengel_says_who_pays_a_black_row_they_cannot_afford() -> None:
    from spielleiter.games.engel_bengel.replay import payment_words
    from spielleiter.games.engel_bengel.rules import Payment

    assert payment_words(Payment(0, 2, 5, 5), "Anna") == "bekommt 5"
    assert payment_words(Payment(0, 2, -8, -8), "Anna") == "zahlt 8"
    assert (
        payment_words(Payment(0, 2, -8, 0), "Anna") == "zahlt 0 statt 8: Anna hat keine Chips mehr"
    )
    assert (
        payment_words(Payment(0, 2, -8, -3), "Anna") == "zahlt 3 statt 8: Anna hat nicht mehr Chips"
    )


def apply_patch(view: dict, patch: list[dict]) -> dict:
    """A view_patch applied as RFC 6902 says, for the operations replay uses."""
    view = json.loads(json.dumps(view))
    for op in patch:
        parts = [p.replace("~1", "/").replace("~0", "~") for p in op["path"][1:].split("/")]
        if op["op"] == "remove":
            del view[parts[0]]
        elif len(parts) == 2 and parts[1] == "-":
            view[parts[0]].append(op["value"])
        else:
            view[parts[0]] = op["value"]
    return view


@pytest.mark.parametrize("game", GAMES)
def test_views_changes_gives_patches_that_make_every_view(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--views changes`: each action's view_patch turns the view before into the view
    after it, so applying them in order gives every view `--views all` gives."""
    record = random_match(game, seed=4)
    whole = replay_json(tmp_path, record, capsys)
    path = tmp_path / "record.json"
    assert main(["replay", str(path), "--json", "--views", "changes"]) == 0
    changes = json.loads(capsys.readouterr().out)
    jsonschema.validate(changes, schema())
    assert changes["views"] == "changes" and "views" not in whole
    view: dict = {}
    for full, patched in zip(whole["actions"], changes["actions"], strict=True):
        assert "view" not in patched
        view = apply_patch(view, patched["view_patch"])
        assert view == full["view"]
        assert {k: v for k, v in patched.items() if k != "view_patch"} == {
            k: v for k, v in full.items() if k != "view"
        }
    rest = {k: v for k, v in changes.items() if k not in ("actions", "views")}
    assert rest == {k: v for k, v in whole.items() if k != "actions"}


def test_a_growing_list_is_appended_not_repeated() -> None:
    from spielleiter_host.replay import view_patch

    assert view_patch({"moves": [[1], [2]], "a/b": 1}, {"moves": [[1], [2], [3]], "c": 0}) == [
        {"op": "remove", "path": "/a~1b"},
        {"op": "add", "path": "/moves/-", "value": [3]},
        {"op": "add", "path": "/c", "value": 0},
    ]
    assert view_patch({"moves": [[1], [2]]}, {"moves": [[4]]}) == [
        {"op": "replace", "path": "/moves", "value": [[4]]}
    ]


def test_views_none_leaves_the_views_out_and_needs_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "record.json"
    path.write_text(random_match("bungee", seed=5).dumps(), encoding="utf-8")
    assert main(["replay", str(path), "--json", "--views", "none"]) == 0
    data = json.loads(capsys.readouterr().out)
    jsonschema.validate(data, schema())
    assert data["views"] == "none"
    assert not [a for a in data["actions"] if "view" in a or "view_patch" in a]
    assert main(["replay", str(path), "--views", "none"]) == 2
    assert "--views goes with --json" in capsys.readouterr().err
