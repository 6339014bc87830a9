"""A late Zurück never moves for the next player.

Zurück is K1 while the bar of the Zurück moment runs. A K1 pressed in the half second
after the moment ends was meant for Zurück: it does nothing but say "zu spät" (in K1's
cell of the soft keys), whoever is to move next and whatever K1 means to them (Drehen in
Maskenball, Nein danke in Speedtombola, a 6 at Bungee's real-card table, ...). For every
game: a move, its moment running out, K1 just after; then K1 a moment later does what
it says again.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fits import texts
from spielleiter.app import TICK_S, Box
from spielleiter.games import catalog
from spielleiter.games.base import Seat
from spielleiter.games.table import LATE_S
from spielleiter.hal.clock import VirtualClock
from spielleiter.hal.display import FrameSink
from spielleiter.hal.keys import Key, KeyEvent
from spielleiter.store import Store
from spielleiter.ui.menus import launch, main_menu
from spielleiter.ui.take_back import TOO_LATE, TakeBackScreen

UNDO_MS = 1500
K1, K2, K3, K4 = (KeyEvent(k) for k in Key)


def new_box(
    tmp_path: Path, game: str, params: dict[str, Any], seats: list[Seat], **meta: Any
) -> Box:
    store = Store.open(tmp_path / "data")
    store.set_settings({"undo.ms": UNDO_MS, "bot.show_ms": 0})
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(3))
    box.reload_settings()
    box.push(main_menu(box))
    launch(box, game, params, seats, meta or None)
    box.settle()
    return box


def press(box: Box, key: KeyEvent) -> None:
    box.dispatch(key)
    box.step()


def wait(box: Box, seconds: float) -> None:
    for _ in range(round(seconds / TICK_S)):
        box.clock.advance(TICK_S)
        box.step()


def computers(box: Box) -> None:
    """Let the computers answer, without letting time pass."""
    box.step()
    while box.thinking:
        box.finish_jobs(block=True)
        box.step()


def move_and_let_the_moment_end(box: Box, key: KeyEvent) -> float:
    """A human's move by `key`, held for Zurück; then the bar runs out. When it ended."""
    press(box, key)
    assert isinstance(box.top, TakeBackScreen), "the move is held for Zurück"
    table = box.table
    until = table.take_back_offer.until
    while table.take_back_offer is not None:
        box.clock.advance(TICK_S)
        box.step()
    assert table.late_until is not None
    return until


def state_of(box: Box) -> tuple[int, Any]:
    return box.table.session.committed, box.top.summary()


def assert_late_k1_does_nothing(box: Box) -> None:
    """K1 within LATE_S of the moment's end: nothing happens, the panel says "zu spät"."""
    assert box.table.too_late()
    before = state_of(box)
    press(box, K1)
    assert state_of(box) == before, "a late Zurück acted for someone"
    assert TOO_LATE in texts(box.frame())
    box.refresh()
    assert box.screen()[1].get("too_late") is True


def after_the_window(box: Box) -> None:
    table = box.table
    assert table.late_until is not None
    box.clock.advance(max(0.0, table.late_until - box.now()) + TICK_S)
    box.step()
    assert not table.too_late()


# --- per game: the move, and what K1 would have done for the next player ---------------


def speedtombola(tmp_path: Path) -> Box:
    """Three humans: A says Nein danke; K1 would be B's Nein danke."""
    seats = [Seat("A"), Seat("B"), Seat("C")]
    box = new_box(tmp_path, "speedtombola", {"players": 3, "rounds": 1}, seats)
    move_and_let_the_moment_end(box, K1)
    assert box.table.to_move() == 1
    return box


def maskenball(tmp_path: Path) -> Box:
    """Two players, real magnets: Spieler 1 reports "Weg"; K1 would be Spieler 2's Drehen."""
    box = new_box(tmp_path, "maskenball", {"players": 2, "mode": "physical"}, [Seat("Tisch")])
    screen = box.top
    for _ in range(200):
        pending = box.table.state.pending()
        if pending == "report":
            break
        if pending == "spin":
            screen.take_spin(0)  # a petal: Rot flies
        else:
            press(box, K3)  # Besuch
        box.settle()
        if box.table.take_back_offer is not None:
            box.table.let_stand()
            box.settle()
    assert box.table.state.pending() == "report"
    move_and_let_the_moment_end(box, K4)  # Weg: the turn passes
    computers(box)
    assert box.table.state.pending() == "spin" and box.table.state.seat() == 1
    return box


def bungee(tmp_path: Path) -> Box:
    """Real cards: the dealer enters the lucky number, A plays a turn; K1 would count a 6
    for B."""
    seats = [Seat("A"), Seat("B"), Seat("C")]
    box = new_box(tmp_path, "bungee", {"players": 3, "mode": "tisch", "rounds": 1}, seats)
    press(box, K1)  # 1-3
    move_and_let_the_moment_end(box, K2)  # the lucky number 2
    after_the_window(box)
    move_and_let_the_moment_end(box, K2)  # Zug
    return box


def engel_bengel(tmp_path: Path) -> Box:
    """Two humans: Anna places the suggested die and stops; K1 would choose Ben's die."""
    seats = [Seat("Anna"), Seat("Ben")]
    box = new_box(tmp_path, "engel-bengel", {"players": 2, "start": "erster"}, seats)
    table = box.table
    for _ in range(50):
        if table.state.turn == 0 and table.state.placed_now:
            break
        if isinstance(box.top, TakeBackScreen):
            table.let_stand()
        else:
            press(box, K3)  # Legen (a black row asks: Legen)
            if box.top.softkeys()[0] is not None and box.top.softkeys()[0].label == "Legen":
                press(box, K1)
        box.settle()
    move_and_let_the_moment_end(box, K4)  # Stopp
    computers(box)
    assert table.state.turn == 1 and box.top.softkeys()[0].label == "Würfel"
    return box


def besenbingo(tmp_path: Path) -> Box:
    """Anna and two computers: Anna crosses; K1 would move the computers' results list."""
    from spielleiter.games.besenbingo.table import digital_durchgang

    store = Store.open(tmp_path / "data")
    store.set_settings({"undo.ms": UNDO_MS})
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(3))
    box.reload_settings()
    box.push(main_menu(box))
    seats = [Seat("Anna"), Seat("Leicht 1", "computer", "leicht"),
             Seat("Leicht 2", "computer", "leicht")]  # fmt: skip
    launch(box, "besenbingo", *digital_durchgang(store, seats))
    box.settle()
    press(box, K4)  # Weiter: the first tower
    box.settle()
    move_and_let_the_moment_end(box, K4)  # Streich
    computers(box)
    assert box.top.softkeys()[0].label == "Auf"
    return box


GAMES: dict[str, Callable[[Path], Box]] = {
    "speedtombola": speedtombola,
    "besenbingo": besenbingo,
    "maskenball": maskenball,
    "bungee": bungee,
    "engel-bengel": engel_bengel,
}


def test_every_game_is_tried() -> None:
    assert set(GAMES) == set(catalog.names())


@pytest.mark.parametrize("game", list(GAMES))
def test_a_k1_just_after_the_moment_does_nothing_but_say_too_late(
    game: str, tmp_path: Path
) -> None:
    box = GAMES[game](tmp_path)
    wait(box, 0.1)
    assert_late_k1_does_nothing(box)
    wait(box, 0.2)
    assert_late_k1_does_nothing(box)  # still within the half second
    after_the_window(box)
    before = state_of(box)
    press(box, K1)
    assert state_of(box) != before, "K1 does what it says again once the window is over"


def test_maskenball_a_late_k1_is_not_the_next_players_spin(tmp_path: Path) -> None:
    box = maskenball(tmp_path)
    table = box.table
    spins = table.spins()
    wait(box, 0.1)
    press(box, K1)
    assert table.spins() == spins and not box.top.busy  # the arrow did not turn
    after_the_window(box)
    press(box, K1)
    assert table.spins() == spins + 1  # Drehen: Spieler 2 spins


def test_the_window_is_half_a_second_after_the_bar_ends(tmp_path: Path) -> None:
    seats = [Seat("A"), Seat("B"), Seat("C")]
    box = new_box(tmp_path, "speedtombola", {"players": 3, "rounds": 1}, seats)
    ended = move_and_let_the_moment_end(box, K1)
    assert LATE_S == 0.5
    assert box.table.late_until == pytest.approx(ended + LATE_S)


def test_weiter_starts_the_window_too(tmp_path: Path) -> None:
    seats = [Seat("A"), Seat("B"), Seat("C")]
    box = new_box(tmp_path, "speedtombola", {"players": 3, "rounds": 1}, seats)
    press(box, K1)  # A: Nein danke
    press(box, K4)  # Weiter: it stands at once
    assert box.table.to_move() == 1
    assert_late_k1_does_nothing(box)


def test_a_new_moment_in_the_window_takes_its_zurueck(tmp_path: Path) -> None:
    """B's own move inside the window opens B's moment: K1 is Zurück for it."""
    box = speedtombola(tmp_path)
    committed = box.table.session.committed
    press(box, K2)  # B: Nehmen (not K1: it is free in the window)
    assert isinstance(box.top, TakeBackScreen)
    press(box, K1)  # Zurück
    assert box.table.session.committed == committed and box.table.to_move() == 1


def test_a_long_k1_is_never_swallowed(tmp_path: Path) -> None:
    """The long presses stay free (the spoken screen uses one)."""
    box = speedtombola(tmp_path)
    box.dispatch(KeyEvent(Key.K1, long=True))
    assert box.now() >= box.late_note_until


def test_a_key_script_waits_out_the_window(tmp_path: Path) -> None:
    """A script's next press comes after the window, so scripts play as before: the
    second Nein danke of A is played, not swallowed."""
    from helpers import run_box
    from spielleiter.games.speedtombola.rules import Move
    from test_speedtombola_device import SOLO_SETUP

    store = Store.open(tmp_path / "data")
    store.set_settings({"undo.ms": UNDO_MS})
    store.close()
    run_box(tmp_path, SOLO_SETUP + "K1\nK1\n")
    store = Store.open(tmp_path / "data")
    record = store.record(store.records()[0].id)
    session_state = record.replay()
    mine = [d for d in session_state.decisions if d.seat == 0]
    assert [d.move for d in mine][:2] == [Move.NEIN_DANKE, Move.NEIN_DANKE]
