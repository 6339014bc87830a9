"""The Engel & Bengel table, headless: real dice, the settlement hold, news, awards, replay."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from spielleiter.games.base import CHANCE, IllegalActionError, Seat
from spielleiter.games.engel_bengel.replay import replay_text
from spielleiter.games.engel_bengel.rules import Move, place_action
from spielleiter.games.engel_bengel.table import EngelBengelTable
from spielleiter.games.table import HeadlessHost
from spielleiter.session import Session
from spielleiter.store import Store

PARAMS = {"players": 2, "shuffle": False, "start": "erster"}


def new_table(
    store: Store, wuerfel: str = "echt", seats: list[Seat] | None = None
) -> EngelBengelTable:
    seats = seats or [Seat("Anna"), Seat("Ben")]
    params = {**PARAMS, "players": len(seats)}
    session = Session.start(store, "engel-bengel", params, seats, {"wuerfel": wuerfel}, seed=4)
    table = EngelBengelTable(HeadlessHost(store), session)
    table.advance()
    return table


def test_with_real_dice_a_humans_roll_waits_for_the_values(tmp_path: Path) -> None:
    table = new_table(Store(tmp_path / "s.sqlite3"))
    assert table.to_move() == CHANCE and table.roll_wanted() == 5
    with pytest.raises(IllegalActionError, match="5 Würfel"):
        table.enter_roll([1, 2])
    table.enter_roll([6, 5, 5, 1, 2])
    assert table.state.roll == [1, 2, 5, 5, 6] and table.to_move() == 0


def test_the_box_rolls_itself_when_it_is_the_cup(tmp_path: Path) -> None:
    table = new_table(Store(tmp_path / "s.sqlite3"), wuerfel="box")
    assert table.to_move() == 0 and len(table.state.roll) == 5


def test_the_news_tells_the_die_placed_and_what_it_paid(tmp_path: Path) -> None:
    table = new_table(Store(tmp_path / "s.sqlite3"))
    table.enter_roll([6, 5, 5, 1, 2])
    table.command(0, place_action(0, 6))
    assert table.news == "Anna: 6 in Reihe 1 +3"
    table.command(0, Move.STOPP)
    assert table.news == "Anna hört auf"


def test_a_roll_in_which_nothing_fits_is_told(tmp_path: Path) -> None:
    table = new_table(Store(tmp_path / "s.sqlite3"))
    table.enter_roll([6, 1, 1, 1, 1])
    table.command(0, place_action(0, 6))
    table.command(0, place_action(2, 1))
    table.command(0, place_action(2, 1))
    table.command(0, place_action(2, 1))  # the star row 3 is full of ones
    table.command(0, Move.STOPP)
    table.enter_roll([4, 4, 4, 6, 4])  # Ben: the mixed row 4, 4, 4, 6; the star row 6 a 4
    for pips in (4, 4, 4, 6):
        table.command(1, place_action(3, pips))
    table.command(1, place_action(5, 4))  # every die placed: the turn ends
    table.enter_roll([2, 2, 2, 2, 2])  # rows want: -, 5, -, 6, 1, 4
    assert table.news == "Anna: 2 2 2 2 2 passt nicht"
    assert table.state.turn == 1 and table.state.dice[0] == 11


def test_the_black_row_warning_names_the_cost(tmp_path: Path) -> None:
    table = new_table(Store(tmp_path / "s.sqlite3"))
    table.enter_roll([1, 2, 3, 4, 4])
    table.command(0, place_action(4, 1))
    table.command(0, place_action(4, 2))
    assert table.black_cost(place_action(4, 3)) == 5
    assert table.black_cost(place_action(2, 4)) == 0


def test_a_durchgang_end_holds_until_its_settlement_was_read(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    seats = [Seat("Anna"), Seat("Normal", "computer", "normal")]
    table = new_table(store, wuerfel="box", seats=seats)
    rng = random.Random(1)
    while table.settlement() is None:
        table.command(0, rng.choice(table.state.legal_actions()))
    result = table.settlement()
    assert result is not None and result.number == 1
    assert table.holding() and table.to_move() != CHANCE or table.holding()
    table.proceed()
    assert table.settlement() is None and table.state.durchgang == 1


def test_the_bestenliste_gets_the_final_chips_and_the_win_bonus(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    seats = [Seat("Anna"), Seat("Normal", "computer", "normal")]
    table = new_table(store, wuerfel="box", seats=seats)
    rng = random.Random(2)
    for _ in range(20_000):
        if table.over and not table.holding():
            break
        if table.holding():
            table.proceed()
        else:
            table.command(0, rng.choice(table.state.legal_actions()))
    state = table.state
    won = int(0 in state.winners())
    assert [(s.name, s.points, s.wins) for s in store.bestenliste("engel-bengel")] == [
        ("Anna", state.chips[0], won)
    ]
    text = replay_text(store.record(table.session.record_id))
    assert "Durchgang 1:" in text and "Spielende" in text
