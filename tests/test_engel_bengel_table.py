"""The Engel & Bengel table, headless: real dice, the settlement hold, news, awards, replay,
the end by the cap, the settings' bounds, and records from before the cap."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from spielleiter.games.base import CHANCE, IllegalActionError, Seat
from spielleiter.games.engel_bengel.info import (
    LIMIT,
    LIMIT_BOUNDS,
    LONGEST,
    TARGET,
    TARGET_BOUNDS,
)
from spielleiter.games.engel_bengel.replay import replay_text
from spielleiter.games.engel_bengel.rules import CHIPS, EngelBengelState, Move, place_action
from spielleiter.games.engel_bengel.table import EngelBengelTable
from spielleiter.games.table import HeadlessHost
from spielleiter.records import Record
from spielleiter.session import Session
from spielleiter.settings import SettingsError
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


# --- the end: the target, the cap, records from before the cap ---------------------------

OLD_RECORD = Path(__file__).parent / "golden" / "engel-bengel_record_before_the_cap.json"
"""A game of three (target 1000) recorded before the cap was a setting: its parameters name
no limit, and it stopped after 40 Durchgänge with nobody at the target."""


def test_a_record_from_before_the_cap_replays_as_it_was_played() -> None:
    record = Record.loads(OLD_RECORD.read_text(encoding="utf-8"))
    assert "limit" not in record.params and record.params["target"] == 1000
    state = record.replay()
    assert isinstance(state, EngelBengelState)
    assert state.is_terminal() and len(state.history()) == len(record.actions)
    assert state.durchgang == 40 and state.capped()
    assert state.chips == record.meta["chips"]
    assert [record.seats[s].name for s in state.winners()] == record.meta["winners"]
    text = replay_text(record)
    assert text.endswith(
        "Spielende nach 40 Durchgängen (höchstens 40): niemand hat 1000 Chips\n"
        "  1. Normal 1  312 Chips\n  2. Anna  241 Chips\n  3. Normal 2  127 Chips"
    )


def play_out(table: EngelBengelTable, seed: int) -> None:
    """Anna plays random legal moves and reads every settlement, to the standings."""
    rng = random.Random(seed)
    for _ in range(50_000):
        if table.over and not table.holding():
            return
        if table.holding():
            table.proceed()
        else:
            table.command(0, rng.choice(table.state.legal_actions()))
    raise AssertionError("the game did not end")


def test_the_cap_ends_a_match_and_the_richest_gets_the_win(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    seats = [Seat("Anna"), Seat("Normal", "computer", "normal")]
    params = {**PARAMS, "target": 10_000, "limit": 3}
    session = Session.start(store, "engel-bengel", params, seats, {"wuerfel": "box"}, seed=5)
    table = EngelBengelTable(HeadlessHost(store), session)
    table.advance()
    play_out(table, seed=5)
    state = table.state
    assert state.durchgang == 3 and state.capped() and table.standings_due()
    won = int(state.chips[0] == max(state.chips))
    assert [(s.name, s.points, s.wins) for s in store.bestenliste("engel-bengel")] == [
        ("Anna", state.chips[0], won)
    ]
    assert store.record(session.record_id).params["limit"] == 3
    assert "Spielende nach 3 Durchgängen (höchstens 3): niemand hat 10000 Chips" in replay_text(
        store.record(session.record_id)
    )


@pytest.mark.parametrize(
    ("key", "low", "high"),
    [
        ("engel-bengel.target", TARGET_BOUNDS[0], TARGET_BOUNDS[1]),
        ("engel-bengel.limit", LIMIT_BOUNDS[0], LIMIT_BOUNDS[1]),
        ("engel-bengel.durchgaenge", 1, LIMIT_BOUNDS[1]),
    ],
)
def test_the_settings_take_the_end_within_its_bounds_only(
    tmp_path: Path, key: str, low: int, high: int
) -> None:
    store = Store(tmp_path / "s.sqlite3")
    assert store.set_settings({key: low})[key] == low
    assert store.set_settings({key: high})[key] == high
    for bad in (low - 1, high + 1):
        with pytest.raises(SettingsError, match=f"{key}: must be from {low} to {high}"):
            store.set_settings({key: bad})
    assert store.setting(key) == high


def test_the_default_target_and_cap_lie_within_their_bounds() -> None:
    assert TARGET_BOUNDS[0] <= TARGET <= TARGET_BOUNDS[1]
    assert LIMIT_BOUNDS[0] <= LIMIT <= LIMIT_BOUNDS[1] <= LONGEST
    assert TARGET_BOUNDS[0] > CHIPS  # the target is more than the chips at the start
