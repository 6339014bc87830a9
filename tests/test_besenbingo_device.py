"""Besenbingo on the device: the towers on paper, sheets, computers, the end, solo rounds."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from helpers import assert_golden, run_box
from spielleiter.app import Box, VirtualClock
from spielleiter.games.base import Seat
from spielleiter.games.besenbingo import ENTRY
from spielleiter.games.besenbingo.rules import MINUS, REVEALS
from spielleiter.games.besenbingo.screens import (
    EndScreen,
    HandoverScreen,
    ResultsScreen,
    SheetScreen,
    TowerScreen,
    setup,
)
from spielleiter.games.besenbingo.table import (
    DIGITAL,
    GAME,
    PAPIER,
    SOLO_KEY,
    digital_durchgang,
    paper_durchgang,
)
from spielleiter.games.besenbingo.templates import default_boards
from spielleiter.hal.display import FrameSink
from spielleiter.hal.keys import Key, KeyEvent
from spielleiter.session import Session
from spielleiter.store import Store
from spielleiter.ui.canvas import WIDTH, Canvas
from spielleiter.ui.fonts import SIZES
from spielleiter.ui.menus import launch, main_menu, start_game
from spielleiter.ui.tip import TipScreen
from spielleiter.ui.widgets import ListMenu, Message

ANNA = Seat("Anna")
STARK = Seat("Stark 1", "computer", "stark")


def empty_box(tmp_path: Path, seed: int = 3) -> Box:
    store = Store.open(tmp_path / "data")
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(seed))
    box.push(main_menu(box))
    return box


def new_game(box: Box, seats: list[Seat], mode: str = DIGITAL, **kw: Any) -> None:
    """Start a Durchgang as the setup menu does (paper mode keeps no seats)."""
    if mode == PAPIER:
        launch(box, GAME, *paper_durchgang())
    else:
        launch(box, GAME, *digital_durchgang(box.store, seats, **kw))


def game_box(
    tmp_path: Path, seats: list[Seat], mode: str = DIGITAL, seed: int = 3, **kw: Any
) -> Box:
    """A box showing a new Besenbingo Durchgang's tower screen (`seed` seeds the box, and
    so the record's towers)."""
    box = empty_box(tmp_path, seed)
    new_game(box, seats, mode, **kw)
    box.settle()
    return box


def press(box: Box, key: int) -> None:
    box.dispatch(KeyEvent(Key(key)))
    box.settle()


def shown(box: Box) -> list[str]:
    """The texts on the top screen, each checked to end on the panel."""
    canvas = Canvas()
    box.top.draw(canvas)
    for run in canvas.runs:
        right = run.xy[0] + SIZES[run.size][0] * len(run.text)
        assert right <= WIDTH and not run.cut, f"{run.text!r} runs off the panel"
    return [run.text for run in canvas.runs]


def play_first_choices(box: Box) -> None:
    """Weiter and Streichen (each human takes the first allowed choice) until the end."""
    for _ in range(200):
        if isinstance(box.top, EndScreen):
            return
        press(box, 4)
    raise AssertionError("the game did not end")


# --- paper mode -------------------------------------------------------------------


def test_paper_mode_reveals_seven_towers_then_the_silent_one(tmp_path: Path) -> None:
    box = game_box(tmp_path, [ANNA], PAPIER)
    table = box.top
    assert isinstance(table, TowerScreen)
    assert table.state.revealed == [] and table.session.committed == 1  # the silent tower
    for n in range(1, REVEALS + 1):
        press(box, 4)
        assert box.top is table
        assert len(table.state.revealed) == n
        if n == 3:
            assert_golden(box.frame().image, "besenbingo_tower")
    silent = table.session.record.actions[0]
    assert table.state.is_terminal()
    press(box, 4)
    end = box.top
    assert isinstance(end, EndScreen)
    assert end.summary()["silent_tower"] == silent
    assert sorted([silent, *end.summary()["revealed"]]) == list(range(1, 9))
    assert_golden(box.frame().image, "besenbingo_paper_end")
    assert box.store.records()[0].finished
    press(box, 4)
    assert box.session is None and len(box.stack) == 1


def test_the_menu_sets_up_a_paper_game_without_seats(tmp_path: Path) -> None:
    keys = """
    K2
    K3      # Besenbingo
    K2
    K3      # Papier (Spielleiter): no seats, no names
    """ + "K4\n" * (REVEALS + 1)
    run_box(tmp_path, keys)
    store = Store.open(tmp_path / "data")
    (info,) = store.records()
    record = store.record(info.id)
    assert info.finished and record.meta["mode"] == "papier"
    state = record.replay()
    assert state.is_terminal() and len(state.revealed) == REVEALS
    assert state.silent_tower == record.actions[0]
    assert store.names() == []


def test_the_menu_sets_up_a_digital_game(tmp_path: Path) -> None:
    keys = """
    K2
    K3      # Besenbingo
    K3      # Digital
    K3      # 1 Platz
    K3      # Neuer Name ...
    K3      # A
    K4      # Fertig
    K2
    K2
    K3      # Start (after "Durchgänge" and the template)
    """
    run_box(tmp_path, keys)
    store = Store.open(tmp_path / "data")
    (info,) = store.records()
    assert store.record(info.id).meta["mode"] == "digital"
    assert store.names() == ["A"]


def test_the_table_counts_cards_so_the_count_is_not_read_as_a_tower(tmp_path: Path) -> None:
    box = game_box(tmp_path, [ANNA], PAPIER)
    press(box, 4)
    press(box, 4)
    tower = box.top.state.current_tower
    texts = shown(box)
    assert "Karte 2/7" in texts and str(tower) in texts
    assert not any(t.startswith("Turm ") for t in texts)


# --- digital play -----------------------------------------------------------------


def test_one_human_and_one_computer_play_to_the_end(tmp_path: Path) -> None:
    box = game_box(tmp_path, [ANNA, STARK], seed=10)  # towers where Anna has three choices
    table = box.top
    assert isinstance(table, TowerScreen) and table.table.prepared
    while len(table.state.revealed) < 4:  # to the fourth tower: some fields are crossed
        press(box, 4)
    sheet = box.top
    assert isinstance(sheet, SheetScreen) and sheet.seat == 0
    assert len(table.state.sheets[0].crossed) > 0
    assert_golden(box.frame().image, "besenbingo_sheet")
    press(box, 3)
    assert_golden(box.frame().image, "besenbingo_sheet_bar")
    press(box, 3)  # Tipp (one human against a computer)
    assert isinstance(box.top, TipScreen) and box.top.tip is not None
    assert_golden(box.frame().image, "besenbingo_tip")
    press(box, 4)  # back to the grid
    assert box.top is sheet and sheet.page == "feld"
    press(box, 4)  # Streichen: the preselected choice
    results = box.top
    assert isinstance(results, ResultsScreen)
    line = results.summary()["lines"][0]
    assert line["name"] == "Stark 1"
    assert line["score"] == table.state.scores()[1]
    assert len(table.state.sheets[1].moves) == 4
    assert_golden(box.frame().image, "besenbingo_computer")
    play_first_choices(box)
    state = table.state
    assert state.is_terminal()
    assert all(len(s.moves) == REVEALS for s in state.sheets)
    summary = box.top.summary()
    assert summary["silent_tower"] == table.session.record.actions[0]
    scores, places = state.scores(), state.places()
    expected = [[places[i], name, scores[i]] for i, name in enumerate(["Anna", "Stark 1"])]
    assert sorted(summary["rows"]) == sorted(expected)
    assert_golden(box.frame().image, "besenbingo_end")
    record = box.store.record(table.session.record_id)
    assert record.meta["finished"] and record.replay().scores() == scores
    end = box.top
    for seat in (0, 1, 0):  # Blatt shows every finished sheet in turn
        press(box, 3)
        sheet = box.top
        assert isinstance(sheet, SheetScreen) and sheet.readonly and sheet.seat == seat
        press(box, 4)
        assert box.top is end


def test_each_seat_plays_its_own_template(tmp_path: Path) -> None:
    box = game_box(tmp_path, [ANNA, STARK], templates=["Rabenturm", "Irrlicht"])
    sheets = box.top.state.sheets
    assert [s.template.name for s in sheets] == ["Rabenturm", "Irrlicht"]


def test_an_illegal_choice_is_refused_with_the_reason(tmp_path: Path) -> None:
    box = game_box(tmp_path, [ANNA])
    press(box, 4)
    sheet = box.top
    assert isinstance(sheet, SheetScreen)
    for _ in range(5):  # step the row until the rules forbid the choice
        if sheet.choice() is None:
            break
        press(box, 2)
    action = sheet.action()
    assert sheet.choice() is None
    committed = sheet.table.session.committed
    press(box, 4)
    message = box.top
    assert isinstance(message, Message)
    assert message.text == sheet.table.state.explain_illegal(action)
    assert sheet.table.session.committed == committed
    press(box, 3)
    assert box.top is sheet


def test_minus_is_refused_while_a_witch_can_land(tmp_path: Path) -> None:
    box = game_box(tmp_path, [ANNA])
    press(box, 4)
    sheet = box.top
    assert sheet.table.state.choices(0)[0]["action"] != MINUS
    while sheet.row != "minus":
        press(box, 2)
    press(box, 4)
    assert box.top.text == "Ein Minusfeld nur, wenn keine Hexe passend landen kann."


def test_the_witch_key_steps_through_the_witches_next_to_the_tower(tmp_path: Path) -> None:
    box = game_box(tmp_path, [ANNA])
    press(box, 4)
    sheet = box.top
    seen = set()
    for _ in range(len(sheet.candidates())):
        seen.add(sheet.cell)
        press(box, 1)
    assert seen == set(sheet.candidates())


def test_a_computers_sheet_shows_its_whole_template_name(tmp_path: Path) -> None:
    box = game_box(tmp_path, [ANNA, STARK], templates=["Hexentanz", "Sternschnuppe"])
    press(box, 4)
    press(box, 4)  # Anna crosses; the computer's result follows
    assert isinstance(box.top, ResultsScreen)
    press(box, 3)
    sheet = box.top
    assert isinstance(sheet, SheetScreen) and sheet.readonly
    assert "Sternschnuppe" in "".join(shown(box)).replace("-", "")


def test_a_sheet_says_when_only_the_minus_field_is_left(tmp_path: Path) -> None:
    box = game_box(tmp_path, [ANNA])
    table = box.top
    sheet_state = table.state.sheets[0]
    for _ in range(60):
        press(box, 4)
        if isinstance(box.top, SheetScreen) and table.state.choices(0)[0]["action"] == MINUS:
            break
    else:
        raise AssertionError("no tower left only the minus field")
    assert "nichts passt" in shown(box)
    assert sheet_state is table.state.sheets[0]


def test_two_humans_take_turns_on_their_own_sheets(tmp_path: Path) -> None:
    box = game_box(tmp_path, [ANNA, Seat("Bert")])
    press(box, 4)
    handover = box.top
    assert isinstance(handover, HandoverScreen) and handover.sheet.seat == 0
    press(box, 4)
    assert isinstance(box.top, SheetScreen) and box.top.seat == 0
    press(box, 4)
    assert isinstance(box.top, HandoverScreen) and box.top.sheet.seat == 1
    press(box, 4)
    assert isinstance(box.top, SheetScreen) and box.top.seat == 1
    press(box, 4)
    table = box.top
    assert isinstance(table, TowerScreen)
    assert [len(s.moves) for s in table.state.sheets] == [1, 1]


# --- setup, solo --------------------------------------------------------------------


def test_setup_offers_uploaded_templates_all_different_per_seat(tmp_path: Path) -> None:
    box = empty_box(tmp_path)
    own = dict(default_boards()["Hexentanz"], name="Eigene")
    own["bar"] = dict(own["bar"], minus=[*own["bar"]["minus"][:-1], own["bar"]["minus"][-1] - 1])
    box.store.put_boards("besenbingo", {"Eigene": own})
    seats = [ANNA, Seat("Bert")]
    setup(box, {"players": 2}, seats, ENTRY.variants[0])
    assert box.store.records() == []  # no record before Start
    menu = box.top
    assert isinstance(menu, ListMenu)
    labels = [item.text() for item in menu.items]
    assert labels == ["Anna: Hexentanz", "Bert: Zauberwald", "Start"]
    options = menu.setup
    for _ in range(8):
        options.cycle_template(0)
        assert options.templates[0] != options.templates[1]
    assert options.templates[0] == "Eigene"  # after the eight other shipped ones
    menu.items[-1].action()
    box.settle()
    table = box.top
    assert isinstance(table, TowerScreen)
    assert table.state.sheets[0].template.name == "Eigene"
    assert table.session.record.params["templates"][1] == "Zauberwald"
    assert [r.id for r in box.store.records()] == [table.session.record_id]


def test_a_negative_score_to_beat_fits_the_table(tmp_path: Path) -> None:
    box = empty_box(tmp_path)
    box.store.set_value(SOLO_KEY, {"Anna": -16})
    new_game(box, [ANNA], rounds=3)
    box.settle()
    assert "Zu schlagen: -16" in shown(box)


def test_solo_rounds_keep_the_score_to_beat(tmp_path: Path) -> None:
    box = game_box(tmp_path, [ANNA], rounds=3)
    first = box.top
    assert first.table.solo["to_beat"] is None
    play_first_choices(box)
    score = first.state.scores()[0]
    assert box.store.get_value(SOLO_KEY) == {"Anna": score}
    press(box, 4)  # on to the second Durchgang
    second = box.top
    assert isinstance(second, TowerScreen) and second is not first
    assert second.table.solo["round"] == 2 and second.table.solo["to_beat"] == score
    assert f"Zu schlagen: {score}" in shown(box)  # the score to beat, while playing
    names = [first.state.sheets[0].template.name, second.state.sheets[0].template.name]
    assert names[0] != names[1]
    play_first_choices(box)
    assert box.top.summary()["solo"]["to_beat"] == score
    assert_golden(box.frame().image, "besenbingo_solo_end")
    assert box.store.get_value(SOLO_KEY) == {"Anna": second.state.scores()[0]}


def test_a_resumed_game_goes_on_at_its_last_action(tmp_path: Path) -> None:
    box = game_box(tmp_path, [ANNA, STARK])
    press(box, 4)
    press(box, 4)  # Anna crosses; the computer follows
    session = box.session
    actions = list(session.record.actions)
    resumed = Session.resume(box.store, session.record_id)
    again = empty_box(tmp_path / "again")
    again.store = box.store
    start_game(again, resumed)
    again.settle()
    assert resumed.record.actions == actions
    table = again.top
    assert isinstance(table, TowerScreen) and table.table.prepared
    assert len(resumed.state.sheets[1].moves) == 1
    press(again, 4)  # the second tower
    assert isinstance(again.top, SheetScreen)


def test_the_menu_key_on_a_sheet_opens_the_pause_menu(tmp_path: Path) -> None:
    box = game_box(tmp_path, [ANNA])
    press(box, 4)
    box.dispatch(KeyEvent(Key.K4, long=True))
    assert [item.text() for item in box.top.items] == ["Weiter", "Hilfe", "Verlassen", "Info"]


def test_leaving_from_a_sheet_ends_the_durchgang_unscored(tmp_path: Path) -> None:
    box = game_box(tmp_path, [ANNA, STARK])
    press(box, 4)
    assert isinstance(box.top, SheetScreen)
    box.dispatch(KeyEvent(Key.K4, long=True))
    verlassen = next(item for item in box.top.items if item.text() == "Verlassen")
    verlassen.action()
    box.top.on_key(KeyEvent(Key.K1))  # Ja
    box.settle()
    assert box.session is None and len(box.stack) == 1
    (info,) = box.store.records()
    assert info.abandoned and not info.finished
    assert box.store.bestenliste("besenbingo") == []


# --- Nochmal ------------------------------------------------------------------------


def test_nochmal_plays_again_with_the_same_seats_each_on_a_fresh_template(
    tmp_path: Path,
) -> None:
    bert = Seat("Bert")
    box = game_box(tmp_path, [ANNA, bert, STARK])
    first = box.top
    assert isinstance(first, TowerScreen)
    play_first_choices(box)
    end = box.top
    assert isinstance(end, EndScreen)
    assert [k.label if k else "" for k in end.softkeys()][1] == "Nochmal"
    before = [s.template.name for s in first.state.sheets]
    press(box, 2)
    again = box.top
    assert isinstance(again, TowerScreen) and again is not first and again.table is box.table
    assert again.table.seats == [ANNA, bert, STARK]
    after = [s.template.name for s in again.state.sheets]
    assert len(set(after)) == 3 and not set(after) & set(before)
    assert box.store.records()[1].finished and not box.store.records()[0].finished


def test_nochmal_after_a_solo_series_starts_a_new_series_after_its_templates(
    tmp_path: Path,
) -> None:
    box = game_box(tmp_path, [ANNA], rounds=2)
    first = box.top
    play_first_choices(box)
    end = box.top
    assert isinstance(end, EndScreen) and not end.rematch_offered  # Weiter: Durchgang 2
    press(box, 4)
    second = box.top
    play_first_choices(box)
    assert box.top.rematch_offered
    press(box, 2)
    third = box.top
    assert isinstance(third, TowerScreen)
    solo = third.table.solo
    assert solo["round"] == 1 and solo["rounds"] == 2
    assert solo["to_beat"] == second.state.scores()[0]
    played = {first.state.sheets[0].template.name, second.state.sheets[0].template.name}
    assert third.state.sheets[0].template.name not in played


def test_nochmal_after_paper_play_turns_towers_again(tmp_path: Path) -> None:
    box = game_box(tmp_path, [ANNA], PAPIER)
    for _ in range(REVEALS + 1):
        press(box, 4)
    assert isinstance(box.top, EndScreen)
    press(box, 2)
    again = box.top
    assert isinstance(again, TowerScreen) and again.table.paper
    assert again.state.revealed == [] and not box.store.records()[0].finished


# --- hints, preselection, quick play ------------------------------------------------


def test_the_sheet_preselects_the_most_points_now(tmp_path: Path) -> None:
    box = game_box(tmp_path, [ANNA, STARK], seed=10)
    for _ in range(7):
        if box.table.over:
            break
        press(box, 4)  # Weiter (the results go on to the next tower)
        sheet = box.top
        if not isinstance(sheet, SheetScreen):
            continue
        choices = sheet.table.state.choices(0)
        chosen = sheet.choice()
        assert chosen is not None, "the preselection is a legal move"
        assert chosen["gain"] == max(c["gain"] for c in choices)
        if any(c["row"] != "minus" for c in choices):
            assert chosen["row"] != "minus", "never a minus field where a witch lands"
        press(box, 4)  # Streich


def test_the_tipp_is_what_stark_crosses_and_machen_crosses_it(tmp_path: Path) -> None:
    from spielleiter.games.besenbingo import bots

    box = game_box(tmp_path, [ANNA, STARK], seed=10)
    press(box, 4)  # the first tower
    sheet = box.top
    state = sheet.table.state
    best = bots.Solver.of(sheet.template).best_move(state.revealed, 0, (0, 0, 0, 0, 0))
    press(box, 3)
    press(box, 3)  # Leiste, then Tipp
    tip = box.top.tip
    assert tip.action in best and "im Schnitt" in tip.why
    before = len(state.sheets[0].moves)
    press(box, 1)  # Machen
    assert list(state.sheets[0].moves[before:]) == [tip.action]


def test_no_tipp_with_two_humans_at_the_box(tmp_path: Path) -> None:
    box = game_box(tmp_path, [ANNA, Seat("Ben"), STARK])
    press(box, 4)
    press(box, 4)  # Anna takes the box
    sheet = box.top
    assert isinstance(sheet, SheetScreen)
    press(box, 3)
    assert sheet.softkeys()[2].label == "Feld" and sheet.table.advice(random.Random(1)) is None


def test_a_tower_takes_two_presses_streich_and_weiter(tmp_path: Path) -> None:
    box = game_box(tmp_path, [ANNA, STARK], seed=10)
    press(box, 4)  # the first tower
    for tower in range(2, REVEALS + 1):
        assert isinstance(box.top, SheetScreen)
        press(box, 4)  # Streich
        assert isinstance(box.top, ResultsScreen)
        press(box, 4)  # Weiter: the next tower at once
        assert len(box.table.state.revealed) == tower


def test_zurueck_names_what_was_crossed(tmp_path: Path) -> None:
    from spielleiter.games.besenbingo.table import bar_field_text
    from spielleiter.ui.take_back import TakeBackScreen

    box = game_box(tmp_path, [ANNA, STARK], seed=10)
    box.store.set_settings({"undo.ms": 1500})
    box.reload_settings()
    press(box, 4)
    sheet = box.top
    chosen = sheet.choice()
    box.dispatch(KeyEvent(Key.K4))  # Streich
    box.step()
    assert isinstance(box.top, TakeBackScreen)
    row = chosen["row"]
    field = bar_field_text(sheet.template, row, 0)
    words = {"hexe": "Hexe", "copilot": "Copilot", "paar": "Paar", "kombi": "Kombi"}
    assert box.table.news == f"Anna streicht {words.get(row, 'Minus')} {field}"
    assert box.table.news in shown(box)
