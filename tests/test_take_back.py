"""Zurück: a human's mis-press is taken back while nothing new has been revealed.

For every game in the catalog, headless: a human's move is committed at once, then the
match holds for `undo.ms` (no chance drawn, no computer moving); taking it back removes
it from the record in one transaction (replay and resume see the record without it)
and the human decides again. A power cut around that transaction loses nothing.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from helpers import assert_golden, run_box
from spielleiter.games import catalog
from spielleiter.games.base import CHANCE, IllegalActionError, Seat
from spielleiter.games.besenbingo.screens import SheetScreen
from spielleiter.games.maskenball.rules import PENDING_REPORT
from spielleiter.games.speedtombola.rules import Move
from spielleiter.games.speedtombola.screens import TableScreen
from spielleiter.games.table import HeadlessHost, Table
from spielleiter.hal.keys import Key, KeyEvent
from spielleiter.records import Record
from spielleiter.session import Session
from spielleiter.store import Store
from spielleiter.ui.screen import render
from spielleiter.ui.take_back import TakeBackScreen
from spielleiter_host.replay import replay_text
from test_besenbingo_device import ANNA, STARK, game_box, press
from test_match_faults import PowerCut, faulty, seats_for
from test_speedtombola_device import SOLO_SETUP, solo_box

UNDO_S = 1.5


def undo_table(store: Store, record_id: int) -> Table:
    session = Session.resume(store, record_id)
    host = HeadlessHost(store, {"undo.ms": int(UNDO_S * 1000)})
    table: Table = catalog.entry(session.record.game).table_class()(host, session)
    return table


def start(tmp_path: Path, game: str) -> tuple[Store, Table]:
    store = Store(tmp_path / "box.sqlite3")
    params, seats = seats_for(catalog.entry(game))
    session = Session.start(store, game, params, seats, seed=3)
    table = undo_table(store, session.record_id)
    table.advance()
    return store, table


def to_human_move(table: Table, rng: random.Random) -> bool:
    """Play on (Weiter, chance, computers) until a human is asked; False at the end."""
    for _ in range(5000):
        if table.over:
            return False
        if table.hold_until is not None:
            table.host.time = table.hold_until  # type: ignore[attr-defined]
            table.tick(table.hold_until)
        elif table.holding():
            table.proceed()
        elif table.to_move() == CHANCE:
            table.supply(table.session.draw_chance())
        elif table.human_to_move() and table.waiting_for(table.to_move()):
            return True
        else:
            table.advance()
    raise AssertionError("the match got stuck")


@pytest.mark.parametrize("game", catalog.names())
def test_a_move_is_held_and_taken_back_then_the_human_decides_again(
    game: str, tmp_path: Path
) -> None:
    store, table = start(tmp_path, game)
    rng = random.Random(1)
    taken = ended_rounds = 0
    for _ in range(400):
        if not to_human_move(table, rng):
            break
        seat = table.to_move()
        before = list(table.session.record.actions)
        news = table.news
        legal = table.state.legal_actions()
        action = rng.choice(legal)
        rounds = table.rounds_over()
        table.command(seat, action)
        if table.over:
            assert table.take_back_offer is None, "the move that ends the match is final"
            break
        if table.rounds_over() != rounds:
            assert table.take_back_offer is None, "a move that ends a round is not held"
            ended_rounds += 1
            continue
        offer = table.take_back_offer
        assert offer is not None and offer.seat == seat and offer.action == action
        assert table.session.record.actions == [*before, action]  # committed at once
        # nothing else happens while the move may be taken back
        table.host.time = offer.until - 0.01  # type: ignore[attr-defined]
        table.tick(table.host.time)  # type: ignore[attr-defined]
        assert table.session.record.actions == [*before, action]
        assert table.thinking is None and not table.waiting_for(seat)
        if rng.random() < 0.5:
            table.take_back()
            taken += 1
            assert table.take_back_offer is None
            assert table.session.record.actions == before
            assert table.to_move() == seat and table.waiting_for(seat)
            assert table.state.legal_actions() == legal and table.news == news
            stored = store.record(table.session.record_id)
            assert stored.actions == before, "the record is truncated in the store"
            assert stored.meta["taken_back"][-1] == [len(before), action]
            resumed = undo_table(store, table.session.record_id)
            assert resumed.state.history() == table.state.history()
            with pytest.raises(IllegalActionError):
                table.take_back()  # once only
        else:
            table.host.time = offer.until  # type: ignore[attr-defined]
            table.tick(offer.until)
            assert table.take_back_offer is None
            with pytest.raises(IllegalActionError):
                table.take_back()  # the moment passed: the move stands
    assert taken >= 3
    if game in ("bungee", "engel-bengel"):  # a call, the last die: the next round is dealt
        assert ended_rounds >= 1
    record = store.record(table.session.record_id)
    assert record.replay().history() == table.state.history()


def test_weiter_lets_the_move_stand_at_once(tmp_path: Path) -> None:
    store, table = start(tmp_path, "speedtombola")
    to_human_move(table, random.Random(2))
    seat = table.to_move()
    table.command(seat, table.state.legal_actions()[0])
    assert table.take_back_offer is not None and table.busy
    table.let_stand()
    assert table.take_back_offer is None and table.hold_until is None
    assert table.to_move() != seat or table.thinking is not None or table.over


def test_the_clock_keeps_the_time_it_had_and_a_timeout_is_never_held(tmp_path: Path) -> None:
    store = Store(tmp_path / "box.sqlite3")
    params, seats = seats_for(catalog.entry("speedtombola"), humans=1)
    session = Session.start(store, "speedtombola", params, seats, seed=3)
    host = HeadlessHost(store, {"undo.ms": 1500, "clock.enabled": True, "clock.seconds": 10})
    table = catalog.entry("speedtombola").table_class()(host, session)
    table.advance()
    to_human_move(table, random.Random(3))
    seat = table.to_move()
    assert table.deadline is not None
    host.time = table.deadline - 6  # 6 s left
    deadline = table.deadline
    table.command(seat, table.state.legal_actions()[-1])
    host.time += 1  # the clock runs on through the moment
    table.take_back()
    assert table.deadline == pytest.approx(deadline)  # 5 s left: what was left, never more
    host.time = table.deadline
    table.tick(host.time)  # time is up: the clock's move is not a human's decision
    assert table.take_back_offer is None


def test_zurueck_never_gives_more_time_than_the_clock_had(tmp_path: Path) -> None:
    """A move with 0.2 s left is held only until the clock would have run out; taken back
    inside it, it gives back what is left, and 60 take-backs never make the decision last."""
    store = Store(tmp_path / "box.sqlite3")
    params, seats = seats_for(catalog.entry("speedtombola"), humans=1)
    session = Session.start(store, "speedtombola", params, seats, seed=3)
    host = HeadlessHost(store, {"undo.ms": 1500, "clock.enabled": True, "clock.seconds": 10})
    table = catalog.entry("speedtombola").table_class()(host, session)
    table.advance()
    to_human_move(table, random.Random(3))
    seat = table.to_move()
    started = host.time
    deadline = table.deadline
    assert deadline is not None
    host.time = deadline - 0.2
    before = table.session.committed
    for _ in range(60):
        table.command(seat, table.state.legal_actions()[-1])
        offer = table.take_back_offer
        assert offer is not None and offer.until <= deadline
        host.time = min(host.time + 0.003, offer.until - 0.001)
        table.take_back()
        assert table.deadline == deadline and table.waiting_for(seat)
    host.time = deadline
    table.tick(host.time)  # the clock's move, 10 s after the decision began, as ever
    assert deadline - started == 10
    assert table.session.committed > before and table.session.record.actions[before] in (0, 1)


def test_a_move_is_not_held_past_the_end_of_its_clock(tmp_path: Path) -> None:
    store = Store(tmp_path / "box.sqlite3")
    params, seats = seats_for(catalog.entry("speedtombola"), humans=1)
    session = Session.start(store, "speedtombola", params, seats, seed=3)
    host = HeadlessHost(store, {"undo.ms": 1500, "clock.enabled": True, "clock.seconds": 10})
    table = catalog.entry("speedtombola").table_class()(host, session)
    table.advance()
    to_human_move(table, random.Random(3))
    seat = table.to_move()
    host.time = table.deadline - 0.2
    table.command(seat, table.state.legal_actions()[-1])
    offer = table.take_back_offer
    assert offer is not None and offer.until == pytest.approx(host.time + 0.2)
    host.time = offer.until
    with pytest.raises(IllegalActionError, match="Zeit ist um"):
        table.take_back()


def test_a_computers_move_is_never_taken_back(tmp_path: Path) -> None:
    store = Store(tmp_path / "box.sqlite3")
    params, seats = seats_for(catalog.entry("speedtombola"), humans=1)
    session = Session.start(store, "speedtombola", params, seats, seed=3)
    table = undo_table(store, session.record_id)
    table.advance()
    rng = random.Random(4)
    for _ in range(40):
        to_human_move(table, rng)
        committed = table.session.committed
        table.command(table.to_move(), table.state.legal_actions()[0])
        table.let_stand()
        assert table.take_back_offer is None
        if table.session.committed > committed + 1:  # a computer (or chance) moved after
            with pytest.raises(IllegalActionError):
                table.take_back()
            return
    raise AssertionError("no computer moved")


@pytest.mark.parametrize("when", [0, 1])
def test_a_power_cut_while_taking_back_loses_nothing(tmp_path: Path, when: int) -> None:
    """Cut before the COMMIT: the move stands. Cut after it: the move is gone. Either
    way the restarted box resumes with the record as stored and the human to move."""
    path = tmp_path / "box.sqlite3"
    store, table = start(tmp_path, "speedtombola")
    to_human_move(table, random.Random(5))
    seat = table.to_move()
    before = list(table.session.record.actions)
    action = table.state.legal_actions()[0]
    table.command(seat, action)
    with pytest.raises(PowerCut), faulty(store, {"when": when}):
        table.take_back()
    store.close()
    store = Store(path)
    record_id = table.session.record_id
    stored = store.record(record_id).actions
    assert stored == ([*before, action] if when == 0 else before)
    resumed = undo_table(store, record_id)
    resumed.advance()
    assert resumed.state.history() == store.record(record_id).replay().history()
    if when == 1:
        assert resumed.to_move() == seat and resumed.waiting_for(seat)
    assert store.integrity_check() == "ok"


# --- on the box: the moment with "Zurück", and the screens coming back ----------------


def test_on_the_box_zurueck_brings_back_the_decision_and_its_screen(tmp_path: Path) -> None:

    box = solo_box(tmp_path)
    screen = box.top
    assert isinstance(screen, TableScreen)
    table = screen.table
    lot, committed = table.state.lot, table.session.committed
    box.dispatch(KeyEvent(Key.K2))  # Nehmen ...
    box.step()
    over = box.top
    assert isinstance(over, TakeBackScreen)
    assert [k.label if k else "" for k in over.softkeys()] == ["Zurück", "", "", "Weiter"]
    assert table.session.committed == committed + 1 and table.state.lot is None
    box.clock.advance(1.0)  # still within the moment: nothing is drawn, nobody moves
    box.step()
    assert_golden(render(over).image, "take_back_speedtombola")
    assert box.top is over and table.session.committed == committed + 1
    box.dispatch(KeyEvent(Key.K1))  # ... Zurück
    box.step()
    assert box.top is screen and screen.awaits_key()
    assert table.state.lot == lot and table.session.committed == committed
    assert box.store.record(table.session.record_id).meta["taken_back"] == [[committed, 1]]


def test_a_key_script_presses_zurueck_at_once_with_a_bang(tmp_path: Path) -> None:

    run_box(tmp_path, SOLO_SETUP + "K2\n!K1\nK1\n")  # Nehmen, Zurück, then Nein danke
    store = Store.open(tmp_path / "data")
    record = store.record(store.records()[0].id)
    index, action = record.meta["taken_back"][0]
    assert action == Move.NEHMEN and record.actions[index] == Move.NEIN_DANKE
    text = replay_text(Record.from_json(record.to_json()))  # as the laptop replays it
    assert f"Zurückgenommen: {index + 1}. A: Nehmen" in text.splitlines()


def test_a_besenbingo_cross_taken_back_shows_the_sheet_again(tmp_path: Path) -> None:

    box = game_box(tmp_path, [ANNA, STARK])
    press(box, 4)  # Weiter: the first tower
    sheet = box.top
    assert isinstance(sheet, SheetScreen)
    press(box, 1)  # the next witch
    cell = sheet.cell
    box.dispatch(KeyEvent(Key.K4))  # Streich
    box.step()
    assert isinstance(box.top, TakeBackScreen)
    assert len(sheet.table.state.sheets[0].moves) == 1
    box.dispatch(KeyEvent(Key.K1))  # Zurück
    box.step()
    assert box.top is sheet and sheet.cell == cell
    assert len(sheet.table.state.sheets[0].moves) == 0


def test_with_undo_off_a_move_is_final_at_once(tmp_path: Path) -> None:

    box = solo_box(tmp_path, **{"undo.ms": 0})
    box.dispatch(KeyEvent(Key.K2))
    box.step()
    assert not isinstance(box.top, TakeBackScreen)
    assert box.table.take_back_offer is None


# --- what the players enter by hand: a report of the magnets, real dice --------------


def hand_table(
    tmp_path: Path, game: str, params: dict[str, Any], seats: list[Seat], meta: dict[str, Any]
) -> Table:
    store = Store(tmp_path / "box.sqlite3")
    session = Session.start(store, game, params, seats, meta=meta, seed=4)
    table = undo_table(store, session.record_id)
    table.advance()
    return table


def test_a_report_of_the_magnets_can_be_taken_back(tmp_path: Path) -> None:
    table = hand_table(
        tmp_path, "maskenball", {"players": 2, "mode": "physical"}, [Seat("Tisch")], {}
    )
    rng = random.Random(6)
    for _ in range(300):
        if table.state.pending() == PENDING_REPORT:
            break
        if table.hold_until is not None:
            table.tick(table.hold_until)
        elif table.to_move() == CHANCE:
            table.supply(table.session.draw_chance())
        else:
            table.command(table.to_move(), rng.choice(table.state.legal_actions()))
    assert table.state.pending() == PENDING_REPORT
    before = list(table.session.record.actions)
    table.report(swapped=False, confirmed=True)
    assert (
        table.take_back_offer is not None and len(table.session.record.actions) == len(before) + 1
    )
    table.take_back()
    assert table.session.record.actions == before
    assert table.state.pending() == PENDING_REPORT


def test_real_dice_entered_by_hand_can_be_taken_back(tmp_path: Path) -> None:
    seats = [Seat("Anna"), Seat("Ben")]
    table = hand_table(tmp_path, "engel-bengel", {"players": 2}, seats, {"wuerfel": "echt"})
    for _ in range(300):
        if table.roll_wanted():  # type: ignore[attr-defined]
            break
        if table.hold_until is not None:
            table.tick(table.hold_until)
        elif table.holding():
            table.proceed()
        elif table.to_move() == CHANCE:
            table.supply(table.session.draw_chance())
        else:
            table.command(table.to_move(), table.state.legal_actions()[0])
    wanted = table.roll_wanted()  # type: ignore[attr-defined]
    assert wanted
    before = list(table.session.record.actions)
    table.enter_roll([6] * wanted)  # type: ignore[attr-defined]
    assert table.take_back_offer is not None
    table.take_back()
    assert table.session.record.actions == before
    assert table.roll_wanted() == wanted  # type: ignore[attr-defined]


def test_on_the_box_a_move_taken_back_keeps_the_clocks_time(tmp_path: Path) -> None:
    box = solo_box(tmp_path, **{"clock.enabled": True, "clock.seconds": 10})
    table = box.table
    box.clock.advance(4.0)
    box.step()
    assert table.seconds_left() == 6
    box.dispatch(KeyEvent(Key.K2))  # Nehmen ...
    box.step()
    box.dispatch(KeyEvent(Key.K1))  # ... Zurück
    box.step()
    assert table.seconds_left() == 6 and table.waiting_for(table.to_move())
