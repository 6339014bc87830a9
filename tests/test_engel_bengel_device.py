"""Engel & Bengel on the device: the cup, choosing a die and a row, the warning, the
settlement, the standings, real dice, the key presses a turn takes, and the goldens."""

from __future__ import annotations

import random
import statistics
from pathlib import Path
from typing import Any

import pytest
from helpers import assert_golden, run_box
from spielleiter.app import Box, VirtualClock, Wait
from spielleiter.games.base import Seat
from spielleiter.games.engel_bengel import bots
from spielleiter.games.engel_bengel.info import LIMIT, TARGET
from spielleiter.games.engel_bengel.rules import Move, decode_place
from spielleiter.games.engel_bengel.screens import BoardScreen, setup
from spielleiter.hal.display import FrameSink
from spielleiter.hal.keys import Key, KeyEvent
from spielleiter.store import Store
from spielleiter.ui.menus import main_menu, resume_prompt
from spielleiter.ui.widgets import Confirm, Message

K1, K2, K3, K4 = (KeyEvent(k) for k in Key)
TWO = [Seat("Anna"), Seat("Ben")]


def summary_box(
    tmp_path: Path,
    seats: list[Seat],
    wuerfel: str = "echt",
    seed: int = 3,
    settings: dict[str, Any] | None = None,
    **params: Any,
) -> Box:
    """A box showing the summary of a new game (after the setup's seats and house rules) on
    the shipped faces in stack order, the first seat first."""
    store = Store.open(tmp_path / "data")
    store.set_settings(
        {"engel-bengel.shuffle": False, "engel-bengel.start": "erster", **(settings or {})}
    )
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(seed))
    box.push(main_menu(box))
    params = {"players": len(seats), "wuerfel": wuerfel, "end": "ziel", **params}
    setup(box, params, seats, None)
    box.settle()
    assert box.top.summary()["screen"] == "engel-bengel.setup"
    return box


def game_box(
    tmp_path: Path, seats: list[Seat], wuerfel: str = "echt", seed: int = 3, **params: Any
) -> Box:
    """A box showing a new game on the shipped faces in stack order, the first seat first."""
    box = summary_box(tmp_path, seats, wuerfel, seed, **params)
    press(box, K3)  # Start on the summary of the match
    box.run_script([Wait(2.0)])  # the first turn's "Anna ist dran" has passed
    return box


def press(box: Box, *keys: KeyEvent) -> None:
    for key in keys:
        box.dispatch(key)
        box.settle()


def die_keys(pips: int) -> list[KeyEvent]:
    """A real die's two presses: the group (K1 1-3, K2 4-6), then the value in it."""
    return [K1 if pips <= 3 else K2, (K1, K2, K3)[(pips - 1) % 3]]


def enter(box: Box, *pips: int) -> None:
    """Real dice: each value in two presses."""
    assert box.top.summary()["screen"] == "engel-bengel.dice"
    for p in pips:
        press(box, *die_keys(p))


def board(box: Box) -> BoardScreen:
    screen = box.stack[1]
    assert isinstance(screen, BoardScreen)
    return screen


def keys_to(screen: BoardScreen, action: int) -> list[KeyEvent]:
    """The presses that make a move: K1 through the dice (then Nochmal), K2 to the row, K3
    Legen or Nochmal (and Legen on a black row's warning); K4 Stopp."""
    if action == Move.STOPP:
        return [K4]
    die, at = screen.choice()
    cycle = screen.cycle()
    want = 0 if action == Move.NOCHMAL else decode_place(action)[1]
    keys: list[KeyEvent] = []
    while die != want:
        die = cycle[(cycle.index(die) + 1) % len(cycle)] if die in cycle else cycle[0]
        row = screen.row_for(die) if die else None
        at = row if row is not None else at
        keys.append(K1)
    if action != Move.NOCHMAL:
        keys += [K2] * ((decode_place(action)[0] - at) % 6)
    keys.append(K3)
    if screen.table.black_cost(action):
        keys.append(K1)  # "Legen" on the warning
    return keys


def choose(box: Box, row: int, pips: int) -> None:
    """Choose the die and the row (1-based) with K1/K2 and place it with K3."""
    screen = board(box)
    while screen.choice()[0] != pips:
        press(box, K1)
    while screen.choice()[1] != row - 1:
        press(box, K2)
    press(box, K3)


# --- the board and the choice -----------------------------------------------------------


def test_golden_roll_the_top_face_with_the_roll_and_the_duty_to_place(tmp_path: Path) -> None:
    box = game_box(tmp_path, TWO)
    enter(box, 6, 5, 5, 1, 2)
    summary = box.top.summary()
    assert summary["roll"] == [1, 2, 5, 5, 6] and summary["choice"] == [6, 0]
    assert_golden(box.frame().image, "engel-bengel_roll")


def test_golden_choice_k1_takes_the_next_die_and_its_first_fitting_row(tmp_path: Path) -> None:
    box = game_box(tmp_path, TWO)
    enter(box, 6, 5, 5, 1, 2)
    assert board(box).choice() == (6, 0)  # the 6 completes row 1: suggested
    press(box, K1)  # the 1: it fits the star row 3 first
    assert board(box).choice() == (1, 2)
    press(box, K1, K1)
    assert board(box).choice() == (5, 1)
    assert_golden(box.frame().image, "engel-bengel_choice")


def test_golden_board_dice_placed_rows_paid_and_the_chips(tmp_path: Path) -> None:
    box = game_box(tmp_path, TWO)
    enter(box, 6, 5, 5, 1, 2)
    choose(box, 1, 6)
    choose(box, 2, 5)
    choose(box, 2, 5)
    summary = box.top.summary()
    assert summary["board"][:2] == [[6], [5, 5]]
    assert summary["chips"] == [80 + 3 + 6, 80]
    assert_golden(box.frame().image, "engel-bengel_board")


def test_an_illegal_choice_is_explained(tmp_path: Path) -> None:
    box = game_box(tmp_path, TWO)
    enter(box, 6, 5, 5, 1, 2)
    press(box, K2, K3)  # the 6 into row 2, which wants a 5
    assert isinstance(box.top, Message)
    assert box.top.text == "Die 6 passt nicht in Reihe 2: Reihe 2 will eine 5"
    press(box, K3)
    assert isinstance(box.top, BoardScreen)


def test_ending_before_a_die_is_placed_explains_the_duty(tmp_path: Path) -> None:
    box = game_box(tmp_path, TWO)
    enter(box, 6, 5, 5, 1, 2)
    press(box, K4)
    assert isinstance(box.top, Message)
    assert box.top.text.startswith("Erst einen passenden Würfel legen")


def test_golden_warning_before_a_placement_completes_a_black_row(tmp_path: Path) -> None:
    box = game_box(tmp_path, TWO)
    enter(box, 1, 2, 3, 4, 4)
    choose(box, 5, 1)
    choose(box, 5, 2)
    choose(box, 5, 3)
    assert isinstance(box.top, Confirm)
    assert box.top.question == "Reihe 5 ist schwarz: du zahlst 5 Chips. Trotzdem legen?"
    assert_golden(box.frame().image, "engel-bengel_warning")
    press(box, K4)  # Nein: nothing placed
    assert board(box).table.state.board[4] == [1, 2]
    press(box, K3, K1)  # Legen, then Legen on the warning
    assert board(box).table.state.chips[0] == 75


def test_stop_or_roll_again_after_placing(tmp_path: Path) -> None:
    box = game_box(tmp_path, TWO)
    enter(box, 6, 5, 5, 1, 2)
    choose(box, 1, 6)
    assert board(box).choice() == (0, 0)  # Nochmal is suggested with four dice left
    press(box, K3)  # Nochmal: four dice to enter
    assert box.top.summary()["screen"] == "engel-bengel.dice"
    enter(box, 5, 5, 3, 3)
    choose(box, 2, 5)
    press(box, K4)  # Stopp: the three left go back
    state = board(box).table.state
    assert state.turn == 1 and state.dice[0] == 13


def test_real_dice_are_entered_in_two_presses_each_with_a_way_back(tmp_path: Path) -> None:
    box = game_box(tmp_path, TWO)
    press(box, K1, K3)  # 1-3, then 3
    assert box.top.summary()["values"] == [3]
    press(box, K2)  # 4-6 ... no: back
    assert [k.label if k else None for k in box.top.softkeys()] == ["4", "5", "6", "Zurück"]
    from spielleiter.ui.speech import text_of

    assert "4: Taste 1, 5: Taste 2, 6: Taste 3" in text_of(box.top.spoken())  # said as shown
    press(box, K4)
    assert box.top.summary()["group"] == 0
    press(box, K1, K2)  # a 2 ... no: back, it is gone
    press(box, K4)
    assert box.top.summary()["values"] == [3]
    press(box, K1, K1)  # a 1 instead
    enter(box, 6, 6, 6)
    assert board(box).table.state.roll == [1, 3, 6, 6, 6]


def test_a_roll_of_five_real_dice_takes_ten_presses_at_most(tmp_path: Path) -> None:
    box = game_box(tmp_path, TWO)
    wanted = board(box).table.roll_wanted()
    presses = [key for pips in (1, 6, 3, 4, 5)[:wanted] for key in die_keys(pips)]
    assert len(presses) <= 2 * wanted
    press(box, *presses)
    assert board(box).table.state.roll == sorted((1, 6, 3, 4, 5)[:wanted])


def test_the_box_rolls_when_it_is_the_cup(tmp_path: Path) -> None:
    box = game_box(tmp_path, TWO, wuerfel="box")
    summary = box.top.summary()
    assert summary["screen"] == "engel-bengel.board" and len(summary["roll"]) == 5


def play_on(box: Box, until: str, limit: int = 3000) -> None:
    """Every human plays Normal's move by keys; settlements are read; until a screen shows."""
    for _ in range(limit):
        top = box.top
        name = top.summary()["screen"]
        if name == until:
            return
        if name == "engel-bengel.settlement":
            press(box, K4)
        elif isinstance(top, BoardScreen) and top.mine():
            view = top.table.state.view(top.table.to_move())
            press(box, *keys_to(top, bots.normal_move(view)))
        else:
            box.settle()
    raise AssertionError(f"no {until}")


def test_golden_durchgang_end_who_paid_and_got_what(tmp_path: Path) -> None:
    seats = [
        Seat("Anna"),
        Seat("Normal 1", "computer", "normal"),
        Seat("Stark 2", "computer", "stark"),
    ]
    box = game_box(tmp_path, seats, wuerfel="box", seed=5)
    play_on(box, "engel-bengel.settlement")
    assert_golden(box.frame().image, "engel-bengel_durchgang")


def test_golden_standings_and_the_bestenliste(tmp_path: Path) -> None:
    seats = [
        Seat("Anna"),
        Seat("Normal 1", "computer", "normal"),
        Seat("Leicht 2", "computer", "leicht"),
    ]
    box = game_box(tmp_path, seats, wuerfel="box", seed=5)
    play_on(box, "engel-bengel.standings")
    rows = box.top.summary()["rows"]
    anna = next(r for r in rows if r[1] == "Anna")
    assert anna[3] == anna[2]  # the Bestenliste gets the final chips (and a win)
    assert_golden(box.frame().image, "engel-bengel_standings")
    standing = box.store.bestenliste("engel-bengel")
    assert [(s.name, s.points, s.matches, s.wins) for s in standing] == [
        ("Anna", anna[3], 1, int(anna[0] == 1))
    ]
    press(box, K4)
    assert box.top is box.stack[0]


def test_a_game_resumes_after_a_power_cut(tmp_path: Path) -> None:
    box = game_box(tmp_path, TWO)
    enter(box, 6, 5, 5, 1, 2)
    choose(box, 1, 6)
    before = box.top.summary()
    box.store.close()
    store = Store.open(tmp_path / "data")
    again = Box(store, FrameSink([]), VirtualClock(), random.Random(9))
    again.push(main_menu(again))
    record = store.unfinished_record()
    assert record is not None
    again.push(resume_prompt(again, record))
    again.settle()
    press(again, K1)  # Ja
    after = again.top.summary()
    assert (after["board"], after["roll"], after["chips"]) == (
        before["board"],
        before["roll"],
        before["chips"],
    )


# --- how many presses ------------------------------------------------------------------------


def measure_presses(
    tmp_path: Path, games: int = 2, level: str = "normal"
) -> tuple[list[int], list[int]]:
    """Presses per placement and per turn of a human playing the moves of a computer level
    (Normal: the screen's suggestion; Leicht: random fitting dice) against two Normal
    computers, the box rolling."""
    placements: list[int] = []
    turns: list[int] = []
    for g in range(games):
        seats = [Seat("Anna"), Seat("Normal 1", "computer", "normal"),
                 Seat("Normal 2", "computer", "normal")]  # fmt: skip
        box = game_box(tmp_path / str(g), seats, wuerfel="box", seed=20 + g)
        turn = 0
        for _ in range(5000):
            top = box.top
            name = top.summary()["screen"]
            if name == "engel-bengel.standings":
                break
            if name == "engel-bengel.settlement":
                press(box, K4)
                continue
            if isinstance(top, BoardScreen) and top.mine():
                state = top.table.state
                if state.rolls == 1 and state.placed_now == 0 and turn:
                    turns.append(turn)  # a new turn of the human begins
                    turn = 0
                view = state.view(top.table.to_move())
                action = bots.choose(view, level=level, rng=random.Random(len(turns)))
                keys = keys_to(top, action)
                if action >= 2:
                    placements.append(len(keys))
                turn += len(keys)
                press(box, *keys)
            else:
                box.settle()
    return placements, turns


def test_a_typical_placement_takes_three_presses_at_most_and_a_turn_eight(tmp_path: Path) -> None:
    placements, turns = measure_presses(tmp_path, games=1)
    assert statistics.median(placements) <= 3
    assert statistics.median(turns) <= 8


@pytest.mark.parametrize("wuerfel", ["box"])
def test_the_board_names_the_player_and_the_duty(tmp_path: Path, wuerfel: str) -> None:
    box = game_box(tmp_path, TWO, wuerfel=wuerfel)
    assert board(box).status() == "Anna beginnt Leg einen Würfel!"


KEY_SCRIPT = """
K1
K1
K1
K3      # Engel & Bengel (the last game of the menu)
K3      # 2 Plätze
K3      # Neuer Name ...
K3      # take the letter A
K4      # Fertig
K2
K2
K3      # Computer Normal
K2
K2
K3      # Start (Würfel: Box, Ende: Ziel)
K3      # Start on the summary (Ziel 125 Chips, höchstens 40 Durchgänge)
K3      # Legen: the suggested die
K3      # the next suggestion (a die, or Nochmal)
K4      # Stopp
"""


def test_a_key_script_reaches_the_game_through_the_menus_and_plays(tmp_path: Path) -> None:
    frames = run_box(tmp_path, KEY_SCRIPT, seed=2)
    assert frames
    store = Store.open(tmp_path / "data")
    record = store.record(store.unfinished_record() or 0)
    assert record.game == "engel-bengel" and [s.name for s in record.seats] == ["A", "Normal 1"]
    state = record.replay()
    assert state.durchgang == 0 and len(record.actions) > 17
    store.close()


def test_uploaded_faces_join_the_stack(tmp_path: Path) -> None:
    from spielleiter.games.engel_bengel.faces import default_boards

    store = Store.open(tmp_path / "data")
    face = {**next(iter(default_boards().values())), "name": "Eigene Tafel"}
    first = face["rows"][0]
    face["rows"] = [dict(first, value=first["value"] % 9 + 1), *face["rows"][1:]]  # its own
    store.put_boards("engel-bengel", {"Eigene Tafel": face})
    store.close()
    box = game_box(tmp_path, TWO)
    faces = board(box).table.state.game.faces
    assert len(faces) == 17 and "Eigene Tafel" in [f.name for f in faces]


# --- how the game ends: the summary at the setup, Info during the match -----------------


def test_golden_setup_the_summary_names_the_target_and_the_cap_before_the_start(
    tmp_path: Path,
) -> None:
    box = summary_box(tmp_path, TWO, wuerfel="box")
    assert box.top.summary()["lines"] == [
        f"Ziel: {TARGET} Chips",
        "etwa 6 Durchgänge, 20 Minuten",
        f"höchstens {LIMIT} Durchgänge",
        "2 Spieler, Würfel: Box",
        "Tafeln in Reihenfolge",
        "Beginn: Anna",
    ]
    assert box.store.unfinished_record() is None  # nothing is stored before Start
    assert [k.label if k else "" for k in box.top.softkeys()] == ["-", "+", "Start", "Zurück"]
    assert_golden(box.frame().image, "engel-bengel_setup")


def test_the_target_is_changed_at_the_setup_with_the_expected_length(tmp_path: Path) -> None:
    """K1 less, K2 more: the target within the settings' bounds, the expected Durchgänge
    and minutes with it; Start stores it in the record and as the next game's start."""
    from spielleiter.games.engel_bengel.info import TARGET_BOUNDS

    seats = [Seat("Anna"), *(Seat(f"Normal {i}", "computer", "normal") for i in (1, 2, 3))]
    box = summary_box(tmp_path, seats, wuerfel="box")
    lengths = []
    for _ in range(20):
        lines = box.top.summary()["lines"]
        lengths.append((lines[0], lines[1]))
        press(box, K1)
    assert box.top.summary()["lines"][0] == f"Ziel: {TARGET_BOUNDS[0]} Chips"
    assert lengths[0] == (f"Ziel: {TARGET} Chips", "etwa 8 Durchgänge, 15 Minuten")
    assert box.top.summary()["lines"][1] == "etwa 1 Durchgang, 5 Minuten"
    for _ in range(30):
        press(box, K2)
    assert box.top.summary()["lines"][0] == f"Ziel: {TARGET_BOUNDS[1]} Chips"
    press(box, K1)
    press(box, K3)  # Start
    record = box.store.record(box.store.unfinished_record() or 0)
    assert record.params["target"] == 145
    assert box.store.settings()["engel-bengel.target"] == 145


def test_a_fixed_number_of_durchgaenge_is_changed_at_the_setup(tmp_path: Path) -> None:
    box = summary_box(tmp_path, TWO, wuerfel="box", end="durchgaenge")
    assert box.top.summary()["lines"][:2] == ["Ende: 8 Durchgänge", "etwa 30 Minuten"]
    press(box, K2, K2)
    assert box.top.summary()["lines"][0] == "Ende: 12 Durchgänge"
    press(box, K3)
    record = box.store.record(box.store.unfinished_record() or 0)
    assert record.params["durchgaenge"] == 12 and record.params["end"] == "durchgaenge"


def test_the_summary_shows_the_settings_end_and_the_record_keeps_it(tmp_path: Path) -> None:
    settings = {
        "engel-bengel.target": 150,
        "engel-bengel.limit": 60,
        "engel-bengel.start": "zufall",
    }
    box = summary_box(tmp_path, TWO, wuerfel="box", settings=settings)
    lines = box.top.summary()["lines"]
    assert [lines[0], lines[2]] == ["Ziel: 150 Chips", "höchstens 60 Durchgänge"]
    assert lines[-1] == "Beginn: ausgelost"
    press(box, K3)
    record = box.store.record(box.store.unfinished_record() or 0)
    assert (record.params["target"], record.params["limit"]) == (150, 60)
    assert isinstance(box.stack[1], BoardScreen)


def test_with_a_fixed_number_the_summary_names_it(tmp_path: Path) -> None:
    box = summary_box(
        tmp_path, TWO, wuerfel="echt", settings={"engel-bengel.durchgaenge": 12}, end="durchgaenge"
    )
    lines = box.top.summary()["lines"]
    assert [lines[0], lines[2]] == ["Ende: 12 Durchgänge", "2 Spieler, Würfel: echt"]


def test_zurueck_on_the_summary_goes_back_and_starts_nothing(tmp_path: Path) -> None:
    box = summary_box(tmp_path, TWO)
    press(box, K4)
    assert box.top.summary()["screen"] == "menu"
    assert box.store.unfinished_record() is None


def open_info(box: Box) -> None:
    """Long K4: the pause menu; its item "Info" by its label."""
    box.dispatch(KeyEvent(Key.K4, long=True))
    box.settle()
    items = box.top.summary()["items"]
    press(box, *[K2] * items.index("Info"), K3)


def test_golden_info_in_the_match_names_the_target_the_cap_and_the_durchgang(
    tmp_path: Path,
) -> None:
    box = game_box(tmp_path, TWO, wuerfel="box")
    open_info(box)
    summary = box.top.summary()
    assert summary["screen"] == "pages" and summary["title"] == "Info"
    assert summary["text"].split("\n") == [
        f"Ziel: {TARGET} Chips",
        f"höchstens {LIMIT} Durchgänge",
        "2 Spieler, Würfel: Box",
        "Tafeln in Reihenfolge",
        "Jetzt: Durchgang 1",
    ]
    assert_golden(box.frame().image, "engel-bengel_info")
    press(box, K4)  # Zurück to the pause menu
    assert box.top.summary()["screen"] == "menu"


def test_the_pause_menu_has_one_info_with_the_match_and_then_the_seal(tmp_path: Path) -> None:
    """Two entries named "Info" would leave a family guessing: the one Info shows how the
    match ends first, then the seal of its chance (every game's Info)."""
    seats = [Seat("Anna"), Seat("Normal 1", "computer", "normal")]
    box = game_box(tmp_path, seats, wuerfel="box")
    open_info(box)
    assert box.top.summary()["text"].startswith(f"Ziel: {TARGET} Chips")
    press(box, K2)
    assert f"Partie {box.session.record_id}, Siegel:" in box.top.summary()["text"]
    press(box, K4)  # Zurück to the pause menu
    assert box.top.summary()["items"] == ["Weiter", "Tipp", "Hilfe", "Verlassen", "Info"]


def test_the_help_says_where_the_end_is_shown() -> None:
    from spielleiter.games.engel_bengel import ENTRY

    assert any("zeigt Info" in page for page in ENTRY.help)
