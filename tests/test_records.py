"""Records: one JSON format for every game; a record replays to its game."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from spielleiter.games import catalog
from spielleiter.games.base import Seat, sample_chance
from spielleiter.records import FORMAT_VERSION, Record, RecordError
from spielleiter.session import Session
from spielleiter.store import Store


def played_record(actions: int = 25, seed: int = 4) -> Record:
    """A Speedtombola game a few actions in, chance and decisions from one generator."""
    game = catalog.make("speedtombola", {"players": 3})
    state = game.new_initial_state()
    rng = random.Random(seed)
    while len(state.history()) < actions and not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return Record(
        game="speedtombola",
        params=dict(game.params),
        seats=[Seat("Anna"), Seat("Ben"), Seat("Stark 1", "computer", "stark")],
        actions=state.history(),
        meta={"started": 1700000000.0},
    )


def test_the_json_names_format_game_params_seats_actions_meta() -> None:
    data = json.loads(played_record().dumps())
    assert set(data) == {"format", "game", "params", "seats", "actions", "meta"}
    assert data["format"] == FORMAT_VERSION
    assert data["seats"][2] == {"name": "Stark 1", "kind": "computer", "level": "stark"}
    assert data["seats"][0] == {"name": "Anna", "kind": "human"}


def test_a_record_round_trips_through_json() -> None:
    record = played_record()
    again = Record.loads(record.dumps())
    assert again == record
    assert again.replay().history() == record.actions


def test_a_record_in_the_store_replays_like_the_original(store: Store) -> None:
    record = played_record()
    rid = store.start_record(record)
    back = store.record(rid)
    assert back.replay().view(0) == record.replay().view(0)


def test_an_unknown_format_version_is_refused() -> None:
    data = played_record().to_json()
    data["format"] = FORMAT_VERSION + 1
    with pytest.raises(RecordError, match="format"):
        Record.from_json(data)


@pytest.mark.parametrize(
    "text", ["[1, 2]", "not json", '{"format": 1, "game": "speedtombola"}']
)
def test_a_malformed_record_is_a_record_error(text: str) -> None:
    with pytest.raises(RecordError):
        Record.loads(text)


def test_a_record_with_an_illegal_action_says_so() -> None:
    record = played_record()
    record.actions.append(-7)
    with pytest.raises(RecordError, match="speedtombola"):
        record.replay()


def test_a_session_commits_each_action_before_playing_it(store: Store) -> None:
    session = Session.start(store, "speedtombola", {"players": 3}, played_record().seats, seed=1)
    session.play_chance()
    assert store.record(session.record_id).actions == session.state.history()
    action = session.state.legal_actions()[0]
    session.apply(action)
    assert store.record(session.record_id).actions[-1] == action
    assert session.committed == len(session.state.history())


def test_a_session_refuses_an_illegal_action_and_stores_nothing(store: Store) -> None:
    session = Session.start(store, "speedtombola", {"players": 3}, played_record().seats, seed=1)
    before = session.committed
    with pytest.raises(ValueError):
        session.apply(-1)
    assert store.record(session.record_id).actions == session.record.actions
    assert session.committed == before


def test_a_resumed_session_is_at_its_last_committed_action(store: Store) -> None:
    session = Session.start(store, "speedtombola", {"players": 3}, played_record().seats, seed=1)
    session.play_chance()
    session.apply(session.state.legal_actions()[-1])
    session.play_chance()
    again = Session.resume(store, session.record_id)
    assert again.state.history() == session.state.history()
    assert again.state.view(1) == session.state.view(1)


def test_the_example_in_the_docs_replays() -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "records.md").read_text("utf-8")
    example = text.split("```json\n", 1)[1].split("```", 1)[0]
    state = Record.loads(example).replay()
    assert len(state.history()) == 14
    assert state.current_player() == 2, "Stark 1 is to move"
