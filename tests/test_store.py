"""The store: durable sqlite, records and their actions, the Bestenliste, names, boards."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from spielleiter import boards
from spielleiter.boards import BoardError, BoardKind
from spielleiter.games.base import Seat
from spielleiter.records import Record
from spielleiter.store import Award, Standing, Store


def a_record(actions: list[int] | None = None) -> Record:
    return Record(
        game="speedtombola",
        params={"players": 3, "removed": 9, "rounds": 1, "first_seat": 0},
        seats=[Seat("Anna"), Seat("Ben"), Seat("Normal 1", "computer", "normal")],
        actions=actions or [],
        meta={"started": 1.5},
    )


def test_the_file_is_durable_wal_with_full_sync(store: Store) -> None:
    assert store._query("PRAGMA journal_mode")[0][0] == "wal"
    assert store._query("PRAGMA synchronous")[0][0] == 2  # FULL
    assert store._query("PRAGMA foreign_keys")[0][0] == 1
    assert store.integrity_check() == "ok"


def test_a_record_comes_back_as_stored(store: Store) -> None:
    rid = store.start_record(a_record([5, 7]))
    back = store.record(rid)
    assert back.game == "speedtombola"
    assert back.seats == a_record().seats
    assert back.actions == [5, 7]
    assert back.meta["started"] == 1.5
    assert back.meta["id"] == rid and back.meta["finished"] is False


def test_actions_are_kept_in_the_order_they_were_committed(store: Store) -> None:
    rid = store.start_record(a_record())
    for index, action in enumerate([30, 0, 1, 12, 3]):
        store.append_action(rid, index, action)
    assert store.record(rid).actions == [30, 0, 1, 12, 3]


def test_an_action_cannot_be_committed_twice_at_one_place(store: Store) -> None:
    rid = store.start_record(a_record())
    store.append_action(rid, 0, 4)
    with pytest.raises(Exception, match="UNIQUE"):
        store.append_action(rid, 0, 5)
    assert store.record(rid).actions == [4]


def test_committed_actions_survive_reopening(tmp_path: Path) -> None:
    first = Store.open(tmp_path)
    rid = first.start_record(a_record())
    first.append_action(rid, 0, 9)
    first.close()
    second = Store.open(tmp_path)
    assert second.record(rid).actions == [9]
    second.close()


def test_the_unfinished_record_is_the_newest_open_game(store: Store) -> None:
    assert store.unfinished_record() is None
    old = store.start_record(a_record())
    new = store.start_record(a_record())
    assert store.unfinished_record() == new
    store.update_record(new, finished=True)
    assert store.unfinished_record() == old
    store.update_record(old, abandoned=True)
    assert store.unfinished_record() is None


def test_the_record_list_counts_actions_newest_first(store: Store) -> None:
    a = store.start_record(a_record([1]))
    b = store.start_record(a_record([1, 2, 3]))
    infos = store.records()
    assert [i.id for i in infos] == [b, a]
    assert [i.actions for i in infos] == [3, 1]
    assert infos[0].seats == ["Anna", "Ben", "Normal 1"]
    assert store.delete_record(a)
    assert not store.delete_record(a)
    assert [i.id for i in store.records()] == [b]


def test_an_unknown_record_is_a_key_error(store: Store) -> None:
    with pytest.raises(KeyError):
        store.record(404)


def test_the_bestenliste_adds_up_and_sorts_best_first(store: Store) -> None:
    store.add_to_bestenliste("speedtombola", "Anna", 40)
    store.add_to_bestenliste("speedtombola", "Ben", 75)
    store.add_to_bestenliste("speedtombola", "Anna", 50)
    store.add_to_bestenliste("speedtombola", "Carla", 90, matches=2)
    store.add_to_bestenliste("besenbingo", "Anna", 5)
    lines = store.bestenliste("speedtombola")
    assert [(s.name, s.points, s.matches) for s in lines] == [
        ("Anna", 90, 2),
        ("Carla", 90, 2),
        ("Ben", 75, 1),
    ]


def test_the_bestenliste_ties_go_to_fewer_matches(store: Store) -> None:
    store.add_to_bestenliste("speedtombola", "Anna", 60, matches=3)
    store.add_to_bestenliste("speedtombola", "Ben", 60, matches=1)
    assert [s.name for s in store.bestenliste("speedtombola")] == ["Ben", "Anna"]


def test_resetting_one_bestenliste_keeps_the_others(store: Store) -> None:
    store.add_to_bestenliste("speedtombola", "Anna", 40)
    store.add_to_bestenliste("besenbingo", "Anna", 5)
    assert store.reset_bestenliste("speedtombola") == 1
    assert store.bestenliste("speedtombola") == []
    assert len(store.bestenliste("besenbingo")) == 1
    assert store.reset_bestenliste() == 1
    assert store.bestenliste("besenbingo") == []


def test_names_are_remembered_most_recent_first(store: Store, monkeypatch: Any) -> None:
    clock = iter([1.0, 2.0, 3.0, 4.0])
    monkeypatch.setattr("spielleiter.store.time.time", lambda: next(clock))
    store.remember_name("Anna")
    store.remember_name("Ben")
    store.remember_name("Jörg \U0001f3b2")
    store.remember_name("Anna")
    assert store.names() == ["Anna", "Jörg \U0001f3b2", "Ben"]
    store.forget_name("Ben")
    assert store.names() == ["Anna", "Jörg \U0001f3b2"]


def test_small_values_round_trip(store: Store) -> None:
    assert store.get_value("solo", 0) == 0
    store.set_value("solo", {"score": 31})
    assert store.get_value("solo") == {"score": 31}


# --- boards, with a tiny schema of the test's own ---------------------------


def check_tiny(data: Any) -> None:
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise BoardError("cells", "must be a list")
    for i, cell in enumerate(data["cells"]):
        if not isinstance(cell, int) or not 0 <= cell <= 9:
            raise BoardError(f"cells[{i}]", "must be a digit")


@pytest.fixture
def tiny_boards() -> Iterator[str]:
    boards.register(BoardKind("tiny", check_tiny, lambda: {"Standard": {"cells": [1, 2, 3]}}))
    yield "tiny"
    boards.unregister("tiny")


def test_boards_are_the_defaults_with_uploads_over_them(store: Store, tiny_boards: str) -> None:
    assert store.boards(tiny_boards) == {"Standard": {"cells": [1, 2, 3]}}
    store.put_boards(tiny_boards, {"Eigen": {"cells": [9]}, "Standard": {"cells": [0]}})
    assert store.boards(tiny_boards) == {"Standard": {"cells": [0]}, "Eigen": {"cells": [9]}}
    assert store.uploaded_boards(tiny_boards) == ["Eigen", "Standard"]
    assert store.delete_board(tiny_boards, "Standard")
    assert store.boards(tiny_boards)["Standard"] == {"cells": [1, 2, 3]}


def test_a_rejected_board_leaves_the_old_one_and_names_the_path(
    store: Store, tiny_boards: str
) -> None:
    store.put_boards(tiny_boards, {"Eigen": {"cells": [4]}})
    with pytest.raises(BoardError) as err:
        store.put_boards(tiny_boards, {"Neu": {"cells": [1]}, "Eigen": {"cells": [1, 12]}})
    assert err.value.path == "cells[1]"
    assert "Eigen" in str(err.value)
    assert store.boards(tiny_boards)["Eigen"] == {"cells": [4]}
    assert "Neu" not in store.boards(tiny_boards)


def test_a_board_needs_a_name(store: Store, tiny_boards: str) -> None:
    with pytest.raises(BoardError) as err:
        store.put_boards(tiny_boards, {"": {"cells": []}})
    assert err.value.path == "name"


def test_a_game_without_boards_is_a_board_error(store: Store) -> None:
    with pytest.raises(BoardError, match="has no boards"):
        store.boards("keine-solche-spiel")


def test_the_end_of_a_match_is_one_transaction(store: Store) -> None:
    """The last action, the awards, the meta and the finished flag: all or nothing."""
    rid = store.start_record(Record("speedtombola", {"players": 3}, [Seat("A")]))
    store.append_action(rid, 0, 5)
    with pytest.raises(sqlite3.IntegrityError):
        # the action's place is taken: nothing of the end may be stored either
        store.append_action(rid, 0, 6, finish=("speedtombola", [Award("A", 30)], {"x": 1}, {}))
    assert store.awards(rid) == []
    assert not store.record(rid).meta["finished"]
    store.append_action(
        rid, 1, 6, finish=("speedtombola", [Award("A", 30)], {"x": 1}, {"solo": {"A": 7}})
    )
    record = store.record(rid)
    assert record.meta["finished"] and record.meta["x"] == 1
    assert store.awards(rid) == [Award("A", 30)]
    assert store.get_value("solo") == {"A": 7}
    assert store.bestenliste("speedtombola")[0] == Standing("A", 30, 1)


def test_a_version_1_database_keeps_its_bestenliste(tmp_path: Path) -> None:
    """Running totals of the first schema become one award each (no record)."""
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE bestenliste (game TEXT NOT NULL, name TEXT NOT NULL,"
        " points INTEGER NOT NULL DEFAULT 0, matches INTEGER NOT NULL DEFAULT 0,"
        " PRIMARY KEY (game, name));"
        "INSERT INTO bestenliste VALUES ('speedtombola', 'Anna', 95, 3);"
        "PRAGMA user_version=1;"
    )
    db.close()
    store = Store(path)
    try:
        assert store.bestenliste("speedtombola") == [Standing("Anna", 95, 3)]
        store.close()
        store = Store(path)  # opening again migrates nothing twice
        assert store.bestenliste("speedtombola") == [Standing("Anna", 95, 3)]
    finally:
        store.close()


def test_a_bestenliste_can_count_wins_and_list_the_fewest_first(store: Store) -> None:
    rid = store.start_record(Record("bungee", {"players": 2}, [Seat("A"), Seat("B")]))
    store.append_action(rid, 0, 1, finish=("bungee", [Award("A", 30, wins=1), Award("B", 55)],
                                           {}, {}))  # fmt: skip
    store.add_to_bestenliste("bungee", "A", 40)
    assert store.bestenliste("bungee", lowest_first=True) == [
        Standing("B", 55, 1, 0), Standing("A", 70, 2, 1)
    ]
    assert store.awards(rid)[0].wins == 1


def test_a_version_2_database_gains_the_wins_column(tmp_path: Path) -> None:
    path = tmp_path / "v2.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE awards (id INTEGER PRIMARY KEY, record_id INTEGER, game TEXT NOT NULL,"
        " name TEXT NOT NULL, points INTEGER NOT NULL, matches INTEGER NOT NULL DEFAULT 1);"
        "INSERT INTO awards(record_id, game, name, points, matches)"
        " VALUES (NULL, 'speedtombola', 'Anna', 80, 2);"
        "PRAGMA user_version=2;"
    )
    db.close()
    store = Store(path)
    try:
        assert store.bestenliste("speedtombola") == [Standing("Anna", 80, 2, 0)]
    finally:
        store.close()
