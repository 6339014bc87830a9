"""Bungee on the device: the way to play asked first, the hand, the discard choice, a
call, the last turns, the round sheet, real cards at the table, resume, goldens."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from helpers import assert_golden, load_frame, run_box
from spielleiter.app import Box, VirtualClock
from spielleiter.games.base import Seat
from spielleiter.games.bungee import bots
from spielleiter.games.bungee.rules import Move, Phase, decode_discard, discard_action
from spielleiter.games.bungee.screens import (
    HandsScreen,
    PlayScreen,
    SheetScreen,
    StandingsScreen,
    keys_for_hand,
)
from spielleiter.hal.display import FrameSink
from spielleiter.hal.keys import Key, KeyEvent
from spielleiter.store import Store
from spielleiter.ui.menus import launch, main_menu, resume_prompt

# Main menu -> Bungee (4th game) -> Gegen Computer -> 3 Plätze -> new name "A" ->
# Computer Stark -> Computer Normal -> Runden: 6 -> Start.
SOLO_SETUP = """
K2
K2
K2
K3      # Bungee
K2
K3      # Gegen Computer
K2
K3      # 3 Plätze
K3      # Neuer Name ...
K3      # the letter A
K4      # Fertig
K2
K2
K2
K3      # Computer Stark
K2
K2
K3      # Computer Normal
K2
K3      # Start
"""


def new_box(tmp_path: Path) -> Box:
    store = Store.open(tmp_path / "data")
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(5))
    box.push(main_menu(box))
    return box


def solo_box(tmp_path: Path, rounds: int = 6) -> Box:
    """A box on the table of a digital match: A against Stark and Normal."""
    box = new_box(tmp_path)
    seats = [
        Seat("A"),
        Seat("Stark 1", "computer", "stark"),
        Seat("Normal 2", "computer", "normal"),
    ]
    launch(box, "bungee", {"players": 3, "rounds": rounds}, seats)
    box.settle()
    return box


def tisch_box(tmp_path: Path, rounds: int = 6) -> Box:
    """A box keeping turns for real cards: Anna, Ben, Cleo."""
    box = new_box(tmp_path)
    seats = [Seat("Anna"), Seat("Ben"), Seat("Cleo")]
    launch(box, "bungee", {"players": 3, "rounds": rounds, "mode": "tisch"}, seats)
    box.settle()
    return box


def press(box: Box, *keys: Key) -> None:
    for key in keys:
        box.dispatch(KeyEvent(key))
        box.settle()


def play_by_keys(screen: PlayScreen, box: Box, action: int) -> int:
    """Play an engine action by the soft keys; returns the presses it took."""
    if action == Move.CALL:
        press(box, Key.K3)
        return 1
    if action == Move.TAKE:
        press(box, Key.K4)
        return 1
    wanted = decode_discard(action)
    presses = 1
    while screen.chosen() != wanted:
        press(box, Key.K1)
        presses += 1
        assert presses < 10, "Wahl reaches every discard"
    press(box, Key.K2)
    return presses


def play_until(box: Box, stop: Callable[[PlayScreen], bool], limit: int = 2000) -> None:
    """The human plays as Normal would, by the keys, until `stop` holds on the table."""
    for _ in range(limit):
        top = box.top
        if isinstance(top, SheetScreen):
            press(box, Key.K4)
            continue
        assert isinstance(top, PlayScreen)
        if stop(top):
            return
        state = top.table.state
        seat = state.current_player()
        play_by_keys(top, box, bots.normal(state.view(seat)))
    raise AssertionError("the position never came")


def test_the_menu_asks_the_way_to_play_first(tmp_path: Path) -> None:
    box = new_box(tmp_path)
    press(box, Key.K2, Key.K2, Key.K2, Key.K3)
    assert box.top is not None
    assert box.top.summary()["items"] == ["Karten am Tisch", "Gegen Computer"]


def test_a_solo_match_starts_from_the_menu_on_the_hand(tmp_path: Path) -> None:
    frames = run_box(tmp_path, SOLO_SETUP)
    store = Store.open(tmp_path / "data")
    record = store.record(store.records()[0].id)
    assert record.game == "bungee" and record.params["mode"] == "digital"
    assert [s.kind for s in record.seats] == ["human", "computer", "computer"]
    assert_golden(load_frame(frames[-1]), "bungee_hand")


def test_wahl_steps_through_the_card_groups_and_fewer_equal_cards(tmp_path: Path) -> None:
    box = solo_box(tmp_path)
    play_until(
        box,
        lambda s: s.awaits_key() and any(c > 1 for _, c in s.options()) and s.table.state.turns > 2,
    )
    screen = box.top
    assert isinstance(screen, PlayScreen)
    for _ in screen.options():
        if screen.chosen()[1] > 1:  # type: ignore[index]
            break
        press(box, Key.K1)
    assert_golden(box.frame().image, "bungee_discard_choice")
    face, count = screen.chosen()  # type: ignore[misc]
    actions = screen.table.session.record.actions
    at = len(actions)
    press(box, Key.K2)
    assert actions[at] == discard_action(face, count), "Ablegen discards the chosen cards"


def test_bungee_is_offered_only_with_5_points_or_less(tmp_path: Path) -> None:
    box = solo_box(tmp_path)
    play_until(box, lambda s: s.awaits_key() and s.table.may_call(s.table.to_move()))
    screen = box.top
    assert isinstance(screen, PlayScreen)
    assert screen.softkeys()[2] is not None and screen.softkeys()[2].label == "Bungee"
    assert_golden(box.frame().image, "bungee_call")
    press(box, Key.K3)
    assert screen.table.state.calls[:1] == [0] or screen.table.state.results


def test_the_last_turns_after_a_call_are_shown(tmp_path: Path) -> None:
    box = solo_box(tmp_path)
    play_until(
        box,
        lambda s: (
            s.awaits_key()
            and bool(s.table.state.calls)
            and s.table.state.calls[0] != 0
            and s.table.state.phase == Phase.TURN
        ),
    )
    screen = box.top
    assert isinstance(screen, PlayScreen)
    assert 0 in screen.table.state.last_turns()
    assert screen.status_line() == "Letzter Zug!"
    assert_golden(box.frame().image, "bungee_last_turns")


def test_a_whole_match_by_the_keys_ends_with_the_sheet_and_the_bestenliste(
    tmp_path: Path,
) -> None:
    box = solo_box(tmp_path, rounds=1)
    for _ in range(400):
        if isinstance(box.top, SheetScreen):
            break
        play_until(box, lambda s: True, limit=1)
        top = box.top
        assert isinstance(top, PlayScreen | SheetScreen)
        if isinstance(top, PlayScreen):
            state = top.table.state
            play_by_keys(top, box, bots.normal(state.view(state.current_player())))
    sheet = box.top
    assert isinstance(sheet, SheetScreen)
    assert_golden(box.frame().image, "bungee_sheet")
    press(box, Key.K2)
    assert_golden(box.frame().image, "bungee_sheet_hands")
    press(box, Key.K4)
    assert isinstance(box.top, StandingsScreen)
    assert_golden(box.frame().image, "bungee_standings")
    table = box.top.table
    total = table.state.totals[0]
    press(box, Key.K4)
    standings = box.store.bestenliste("bungee")
    assert [(s.name, s.points, s.matches) for s in standings] == [("A", total, 1)]


def test_a_match_resumes_after_a_power_cut(tmp_path: Path) -> None:
    box = solo_box(tmp_path)
    play_until(box, lambda s: s.table.state.turns >= 6 and s.awaits_key())
    record_id = box.store.unfinished_record()
    assert record_id is not None
    before = box.store.record(record_id).actions
    box.close()
    box.store.close()
    again = new_box(tmp_path)
    again.push(resume_prompt(again, record_id))
    press(again, Key.K1)  # Ja
    screen = again.top
    assert isinstance(screen, PlayScreen)
    assert again.store.record(record_id).actions[: len(before)] == before
    assert screen.awaits_key()


# --- real cards at the table -------------------------------------------------------


def test_real_cards_lucky_number_in_two_presses_sixes_and_calls(tmp_path: Path) -> None:
    box = tisch_box(tmp_path)
    screen = box.top
    assert isinstance(screen, PlayScreen)
    assert_golden(box.frame().image, "bungee_tisch_lucky")
    press(box, Key.K3, Key.K1)  # 7-9, then 7
    state = screen.table.state
    assert state.lucky == 7 and state.current_player() == 1
    press(box, Key.K1, Key.K2)  # Ben discarded one 6: Cleo sits out
    assert state.current_player() == 0
    assert "Cleo setzt aus" in screen.table.news
    press(box, Key.K3)  # Anna: Erstes Bungee
    assert state.calls == [0] and state.last_turns() == [1, 2]
    assert_golden(box.frame().image, "bungee_tisch_last_turns")


def test_real_cards_round_end_takes_at_most_4_presses_per_player_typically(
    tmp_path: Path,
) -> None:
    box = tisch_box(tmp_path, rounds=1)
    screen = box.top
    assert isinstance(screen, PlayScreen)
    press(box, Key.K4)  # lucky number 10
    press(box, Key.K3)  # Ben calls
    press(box, Key.K2, Key.K2)  # Cleo and Anna: their last turns
    hands = box.top
    assert isinstance(hands, HandsScreen)
    assert_golden(box.frame().image, "bungee_tisch_hands")
    entered = {1: (4, 0), 2: (17, 1), 0: (23, 0)}
    presses = {}
    for seat in hands.order():
        keys = keys_for_hand(*entered[seat])
        presses[seat] = len(keys)
        press(box, *keys)
    assert hands.done()
    assert_golden(box.frame().image, "bungee_tisch_check")
    press(box, Key.K4)  # OK: the whole table at once
    assert presses == {1: 3, 2: 4, 0: 4}
    assert isinstance(box.top, SheetScreen)
    result = screen.table.state.results[0]
    assert result.winners == (1,) and result.scores == (23, -10, 27)


def test_a_hand_over_5_points_for_a_caller_is_refused_with_the_reason(tmp_path: Path) -> None:
    box = tisch_box(tmp_path, rounds=1)
    press(box, Key.K4, Key.K3, Key.K2, Key.K2)
    hands = box.top
    assert isinstance(hands, HandsScreen) and hands.seat == 1
    press(box, *keys_for_hand(9, 0))
    assert hands.entries[1] is None and "höchstens 5 Punkte" in hands.flash


def test_every_hand_value_is_reached_by_its_keys() -> None:
    from spielleiter.games.bungee.screens import choices, span

    for points in range(51):
        path: list[int] = []
        for key in keys_for_hand(points, 0)[:-1]:
            path.append(key.value - 1)
        low, high = span(path)
        assert low <= points <= high
        assert any(lo == hi == points for _, lo, hi in choices(path))


def test_karten_am_tisch_from_the_menu_keeps_turns_for_named_players(tmp_path: Path) -> None:
    box = new_box(tmp_path)
    box.store.remember_names(["Anna", "Ben"])
    press(box, Key.K2, Key.K2, Key.K2, Key.K3)  # Bungee
    press(box, Key.K3)  # Karten am Tisch
    press(box, Key.K3)  # 2 Plätze
    assert box.top is not None
    assert not any("Computer" in item for item in box.top.summary()["items"])
    press(box, Key.K3)  # the first remembered name
    press(box, Key.K3)  # the other one
    press(box, Key.K2, Key.K3)  # Runden: 6 -> Start
    screen = box.top
    assert isinstance(screen, PlayScreen)
    assert screen.table.tisch and screen.table.rounds == 6
    assert [s.is_human for s in screen.table.seats] == [True, True]
