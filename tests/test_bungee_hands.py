"""Karten am Tisch: the table of hands at a round's end is one transaction.

All hands are stored with one OK, or none: a power cut between two of them (inside the
one transaction) leaves none, and the resumed record takes the whole table again and
finishes the round. A record from before (its hands stored one by one, some of them
before a power cut) resumes at the first hand not stored. The table's news, the
Zurück moment (held once after the last hand, all taken back together) work as for
one move.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from spielleiter.app import Box, VirtualClock
from spielleiter.games.base import IllegalActionError, Seat
from spielleiter.games.bungee.rules import Move, Phase, hand_action, lucky_action, zug_action
from spielleiter.games.bungee.screens import HandsScreen, SheetScreen, keys_for_hand
from spielleiter.games.bungee.table import BungeeTable
from spielleiter.games.table import HeadlessHost
from spielleiter.hal.display import FrameSink
from spielleiter.hal.keys import Key
from spielleiter.session import Session
from spielleiter.store import FILE_NAME, Store
from spielleiter.ui.menus import main_menu, resume_prompt
from spielleiter.ui.widgets import Message
from test_bungee_device import press, tisch_box

NAMES = ("Anna", "Ben", "Cleo", "Dora")
HANDS = {1: (4, 0), 2: (17, 1), 3: (23, 0), 0: (9, 0)}
"""Ben called with 4 points; Cleo holds 17 and a Bungee card, Dora 23, Anna 9."""
SCORES = (9, -10, 27, 23)
ORDER = (1, 2, 3, 0)
"""The hands in the round's order: the player after the dealer (Anna) first."""


def table_at_the_hands(
    path: Path, settings: dict[str, Any] | None = None, kind: type[BungeeTable] = BungeeTable
) -> BungeeTable:
    """Four players with real cards, at the round's end: Anna dealt, Ben called."""
    store = Store(path)
    seats = [Seat(name) for name in NAMES]
    session = Session.start(store, "bungee", {"players": 4, "rounds": 2, "mode": "tisch"}, seats)
    table = kind(HeadlessHost(store, settings), session)
    table.advance()
    moves = [(0, lucky_action(7)), (1, Move.CALL), *((s, zug_action(0)) for s in (2, 3, 0))]
    for seat, action in moves:
        table.command(seat, action)
        table.let_stand()  # Weiter at once in the Zurück moment
    assert table.state.phase == Phase.ENTER
    return table


def resumed(path: Path, record_id: int) -> BungeeTable:
    """The box after the power came back: a fresh store on the file, the record resumed."""
    store = Store(path)
    assert store.integrity_check() == "ok"
    table = BungeeTable(HeadlessHost(store), Session.resume(store, record_id))
    table.advance()
    return table


def the_table_of_hands() -> list[tuple[int, int]]:
    return [(seat, hand_action(*HANDS[seat])) for seat in ORDER]


class CutAfter:
    """The store's connection, with the power cut after `rows` actions were inserted."""

    def __init__(self, db: Any, rows: int) -> None:
        self.db = db
        self.rows = rows

    def executemany(self, sql: str, rows: list[tuple[Any, ...]]) -> Any:
        if not sql.startswith("INSERT INTO actions"):
            return self.db.executemany(sql, rows)
        for i, row in enumerate(rows):
            if i == self.rows:
                raise OSError("power cut")
            self.db.execute(sql, row)
        return None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)


@contextmanager
def power_cut_after(store: Store, rows: int) -> Iterator[None]:
    """The next transaction dies after `rows` of its actions were written (before COMMIT)."""
    original = store._tx

    @contextmanager
    def tx() -> Iterator[Any]:
        with original() as db:
            yield CutAfter(db, rows)

    store._tx = tx  # type: ignore[method-assign]
    try:
        yield
    finally:
        store._tx = original  # type: ignore[method-assign]


@pytest.mark.parametrize("stored", [1, 2, 3])
def test_a_power_cut_between_two_hands_stores_none_and_the_round_finishes_after(
    tmp_path: Path, stored: int
) -> None:
    path = tmp_path / "box.sqlite3"
    table = table_at_the_hands(path)
    record_id = table.session.record_id
    before = list(table.session.record.actions)
    with power_cut_after(table.session.store, stored), pytest.raises(OSError):
        table.commands(the_table_of_hands())
    table.session.store.close()
    again = resumed(path, record_id)
    assert again.session.record.actions == before, "no hand of the table was stored"
    assert again.state.phase == Phase.ENTER and again.state.entered == [None] * 4
    again.commands(the_table_of_hands())
    result = again.state.results[0]
    assert result.winners == (1,) and result.scores == SCORES
    assert again.holding() and again.sheet_round() == 0


def test_a_power_cut_after_the_commit_finds_the_round_finished(tmp_path: Path) -> None:
    path = tmp_path / "box.sqlite3"
    table = table_at_the_hands(path)
    store = table.session.store
    plain = store.append_actions

    def commit_then_cut(*args: Any, **kwargs: Any) -> None:
        plain(*args, **kwargs)
        raise OSError("power cut")

    store.append_actions = commit_then_cut  # type: ignore[method-assign]
    with pytest.raises(OSError):
        table.commands(the_table_of_hands())
    store.close()
    again = resumed(path, table.session.record_id)
    assert again.state.results[0].scores == SCORES and again.sheet_round() == 0


def test_a_table_of_hands_is_refused_whole_with_the_first_reason(tmp_path: Path) -> None:
    table = table_at_the_hands(tmp_path / "box.sqlite3")
    committed = table.session.committed
    wrong = the_table_of_hands()
    wrong[0] = (1, hand_action(9, 0))  # Ben called: at most 5 points
    with pytest.raises(IllegalActionError, match="höchstens 5 Punkte"):
        table.commands(wrong)
    with pytest.raises(IllegalActionError, match="Dora ist nicht am Zug"):
        table.commands([(1, hand_action(4, 0)), (3, hand_action(23, 0))])
    assert table.session.committed == committed and table.state.entered == [None] * 4
    assert (
        table.session.store.record(table.session.record_id).actions == table.session.record.actions
    )


class HeldTable(BungeeTable):
    """A table whose rounds never end for Zurück (Bungee's table of hands ends a round,
    and a move that ends a round is not held): how several moves of one key are held."""

    def rounds_over(self) -> int:
        return 0


def test_the_table_is_held_once_and_taken_back_together(tmp_path: Path) -> None:
    table = table_at_the_hands(tmp_path / "box.sqlite3", {"undo.ms": 1500}, HeldTable)
    news, committed = table.news, table.session.committed
    table.commands(the_table_of_hands())
    offer = table.take_back_offer
    assert offer is not None and offer.first == committed and offer.committed == committed + 4
    assert table.hold_until is not None and table.state.results[0].scores == SCORES
    assert table.news == "Anna: Hand 9 Punkte, 0 Bungee", "each hand's news, the last one shown"
    table.take_back()
    assert table.session.committed == committed and table.news == news
    assert table.state.phase == Phase.ENTER and table.waiting_for(1)
    stored = table.session.store.record(table.session.record_id)
    assert [a for _, a in stored.meta["taken_back"]] == [a for _, a in the_table_of_hands()]


def test_the_table_that_ends_the_round_stands_at_once_and_its_sheet_shows(
    tmp_path: Path,
) -> None:
    table = table_at_the_hands(tmp_path / "box.sqlite3", {"undo.ms": 1500})
    table.commands(the_table_of_hands())
    assert table.take_back_offer is None and table.sheet_round() == 0
    assert table.state.results[0].scores == SCORES


# --- on the box ------------------------------------------------------------------------


def box_on(tmp_path: Path, record_id: int) -> Box:
    """A box started after the power came back, the record resumed from the menu."""
    store = Store.open(tmp_path / "data")
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(7))
    box.push(main_menu(box))
    box.push(resume_prompt(box, record_id))
    press(box, Key.K1)  # Ja
    return box


def enter_hands(box: Box, hands: dict[int, tuple[int, int]]) -> HandsScreen:
    screen = box.top
    assert isinstance(screen, HandsScreen)
    for seat in screen.to_enter():
        assert screen.seat == seat
        press(box, *keys_for_hand(*hands[seat]))
    assert screen.done()
    return screen


@pytest.mark.parametrize("stored", [1, 2, 3])
def test_an_older_record_with_some_hands_stored_resumes_at_the_first_hand_not_stored(
    tmp_path: Path, stored: int
) -> None:
    (tmp_path / "data").mkdir()
    table = table_at_the_hands(tmp_path / "data" / FILE_NAME)
    for seat in ORDER[:stored]:  # as the box did before: one transaction per hand
        table.command(seat, hand_action(*HANDS[seat]))
    record_id = table.session.record_id
    table.session.store.close()  # the power cut
    box = box_on(tmp_path, record_id)
    hands = box.top
    assert isinstance(hands, HandsScreen)
    assert hands.seat == ORDER[stored] and hands.to_enter() == list(ORDER[stored:])
    enter_hands(box, HANDS)
    press(box, Key.K4)  # OK: the hands not stored yet
    assert isinstance(box.top, SheetScreen)
    assert box.top.result.scores == SCORES and box.top.result.winners == (1,)


def test_on_the_box_a_power_cut_at_ok_loses_the_table_whole_and_it_is_entered_again(
    tmp_path: Path,
) -> None:
    box = tisch_box(tmp_path, rounds=1)
    press(box, Key.K4, Key.K3, Key.K2, Key.K2)  # lucky 10; Ben calls; last turns
    hands = {1: (4, 0), 2: (17, 1), 0: (23, 0)}
    screen = enter_hands(box, hands)
    table = screen.table
    record_id, before = table.session.record_id, list(table.session.record.actions)

    def power_cut(*args: Any, **kwargs: Any) -> None:
        raise OSError("power cut")

    box.store.append_actions = power_cut  # type: ignore[method-assign]
    press(box, Key.K4)  # OK
    assert isinstance(box.top, Message)
    box.close()
    box.store.close()
    again = box_on(tmp_path, record_id)
    assert again.store.record(record_id).actions == before, "no hand was stored"
    enter_hands(again, hands)
    press(again, Key.K4)
    sheet = again.top
    assert isinstance(sheet, SheetScreen)
    assert sheet.result.winners == (1,) and sheet.result.scores == (23, -10, 27)
