"""Speedtombola on the device: the table, Rat, Info, the Tafel, the Bestenliste, the clock."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from helpers import assert_golden, load_frame, run_box, same_pixels
from spielleiter.app import Box, VirtualClock, Wait
from spielleiter.games.base import Seat
from spielleiter.games.speedtombola import bots
from spielleiter.games.speedtombola.bots import Advice, OptionEstimate, shown_choice
from spielleiter.games.speedtombola.rules import Move, bestenliste_points
from spielleiter.games.speedtombola.screens import (
    InfoScreen,
    RatScreen,
    TableScreen,
    TafelScreen,
    rat_reason,
    short_name,
)
from spielleiter.hal.display import FrameSink
from spielleiter.hal.keys import Key, KeyEvent
from spielleiter.store import Store
from spielleiter.ui.menus import PauseMenu, launch, main_menu
from spielleiter.ui.screen import render
from spielleiter.ui.speech import text_of
from spielleiter.ui.take_back import TakeBackScreen

# Main menu -> Speedtombola -> 3 Plätze -> new name "A" -> Computer Stark -> Computer Normal
# -> house rules -> Start.
SOLO_SETUP = """
K3      # Speedtombola
K3      # 3 Plätze
K3      # Neuer Name ...
K3      # take the letter A
K4      # Fertig
K2
K2
K2
K3      # Computer Stark
K2
K2
K3      # Computer Normal
K2
K2
K3      # Start
"""


def solo_box(
    tmp_path: Path, seats: list[Seat] | None = None, rounds: int = 1, **settings: object
) -> Box:
    """A box with a Speedtombola match on its table screen (no displays)."""
    store = Store.open(tmp_path / "data")
    if settings:
        store.set_settings(settings)
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(5))
    box.push(main_menu(box))
    seats = seats or [
        Seat("A"),
        Seat("Stark 1", "computer", "stark"),
        Seat("Normal 2", "computer", "normal"),
    ]
    params = {"players": len(seats), "rounds": rounds}
    launch(box, "speedtombola", params, seats)
    box.settle()
    return box


def test_table_rat_and_info_screens(tmp_path: Path) -> None:
    frames = run_box(tmp_path, SOLO_SETUP + "K3\nK4\nK4\nK2\n")
    # frames.tsv notes the record id of each frame: the first one in the game is the table
    notes = (frames[0].parent / "frames.tsv").read_text().splitlines()
    first_in_game = next(i for i, line in enumerate(notes) if line.split("\t")[1] != "-")
    assert_golden(load_frame(frames[first_in_game]), "speedtombola_table")
    # then: Rat thinking, Rat, table, Info (seat A), Info (next guest)
    assert_golden(load_frame(frames[-4]), "speedtombola_rat")
    assert_golden(load_frame(frames[-2]), "speedtombola_info")


def test_a_whole_match_fills_the_bestenliste(tmp_path: Path) -> None:
    frames = run_box(tmp_path, SOLO_SETUP + "K2\n" * 40 + "K4\nK4\n")
    store = Store.open(tmp_path / "data")
    record_info = store.records()[0]
    assert record_info.finished
    state = store.record(record_info.id).replay()
    assert state.is_terminal()
    places = state.places()
    expected = bestenliste_points([r.points[0] for r in state.results], places[0])
    standings = store.bestenliste("speedtombola")
    assert [(s.name, s.points, s.matches) for s in standings] == [("A", expected, 1)]
    assert len(frames) > 20


def test_tafel_standings_and_bestenliste_goldens(tmp_path: Path) -> None:
    box = solo_box(tmp_path)
    table = box.top
    assert isinstance(table, TableScreen)
    for _ in range(400):  # the human plays as Normal would, by the keys
        if not isinstance(box.top, TableScreen):
            break
        seat = table.state.current_player()
        move = bots.choose(table.state.view(seat), level="normal", rng=random.Random(0))
        box.dispatch(KeyEvent(Key.K2 if move == Move.NEHMEN else Key.K1))
        box.settle()
    assert isinstance(box.top, TafelScreen)
    assert_golden(box.frame().image, "speedtombola_tafel")
    box.dispatch(KeyEvent(Key.K2))
    assert_golden(box.frame().image, "speedtombola_tafel_garnituren")
    box.dispatch(KeyEvent(Key.K4))
    box.settle()
    assert_golden(box.frame().image, "speedtombola_standings")


def test_rat_only_for_one_human_against_computers(tmp_path: Path) -> None:
    solo = solo_box(tmp_path / "solo")
    assert solo.top.softkeys()[2].label == "Rat"
    two = solo_box(tmp_path / "two", [Seat("A"), Seat("B"), Seat("Normal 1", "computer", "normal")])
    assert two.top.softkeys()[2] is None
    two.dispatch(KeyEvent(Key.K3))
    assert isinstance(two.top, TableScreen)


def test_rat_shows_both_options_with_standard_errors(tmp_path: Path) -> None:
    box = solo_box(tmp_path)
    box.dispatch(KeyEvent(Key.K3))
    box.settle()
    rat = box.top
    assert isinstance(rat, RatScreen)
    summary = rat.summary()
    assert summary["ready"] and summary["playouts"] >= 1000
    assert set(summary["options"]) == {"nehmen", "nein_danke"}
    for option in summary["options"].values():
        assert option["points_se"] > 0
        assert 0.0 <= option["round_win"] <= 1.0


def test_golden_rat_details_on_its_second_page(tmp_path: Path) -> None:
    frames = run_box(tmp_path, SOLO_SETUP + "K3\nK3\n")  # Rat, Mehr
    assert_golden(load_frame(frames[-1]), "speedtombola_rat_details")


def estimate(move: Move, points: float, win: float) -> OptionEstimate:
    return OptionEstimate(move, points, 0.5, win, win)


def test_rat_never_advises_against_the_numbers_it_shows() -> None:
    """The case of the audit: Nehmen 71.8 points, Nein danke 74.0, both 30 %: Nehmen."""
    nehmen, nein = estimate(Move.NEHMEN, 71.8, 0.301), estimate(Move.NEIN_DANKE, 74.0, 0.304)
    assert shown_choice(nehmen, nein) == Move.NEHMEN
    advice = Advice(Move.NEHMEN, nehmen, nein, 2000)
    assert rat_reason(advice, False) == "Im Schnitt 2,2 Punkte weniger; Siegchance beide 30%."
    rng = random.Random(3)
    for _ in range(2000):
        a = estimate(Move.NEHMEN, rng.uniform(20, 80), rng.random())
        b = estimate(Move.NEIN_DANKE, rng.uniform(20, 80), rng.random())
        best, other = (a, b) if shown_choice(a, b) == Move.NEHMEN else (b, a)
        shown = round(100 * best.match_win), round(100 * other.match_win)
        assert shown[0] >= shown[1]
        if shown[0] == shown[1]:
            assert round(best.points, 1) <= round(other.points, 1)


def test_rat_says_why_in_plain_german() -> None:
    nehmen, nein = estimate(Move.NEHMEN, 40.0, 0.34), estimate(Move.NEIN_DANKE, 42.0, 0.30)
    advice = Advice(Move.NEHMEN, nehmen, nein, 2000)
    assert rat_reason(advice, False) == "Siegchance 34% statt 30% und im Schnitt 2 Punkte weniger."
    nehmen = estimate(Move.NEHMEN, 44.5, 0.34)
    advice = Advice(Move.NEHMEN, nehmen, nein, 2000)
    expected = "Partie-Sieg 34% statt 30%, auch wenn im Schnitt 2,5 Punkte mehr."
    assert rat_reason(advice, True) == expected
    assert rat_reason(Advice(Move.NEHMEN, nehmen, None, 2000), False).startswith("Kein Groschen")


def test_emulator_letters_press_the_soft_keys(tmp_path: Path) -> None:
    box = solo_box(tmp_path)
    assert box.resolve_char("n") == KeyEvent(Key.K1)
    assert box.resolve_char("g") == KeyEvent(Key.K2)
    assert box.resolve_char(" ") == KeyEvent(Key.K2)
    assert box.resolve_char("r") == KeyEvent(Key.K3)
    assert box.resolve_char("\x1b") == KeyEvent(Key.K4, long=True)


def test_the_clock_says_nein_danke_when_time_runs_out(tmp_path: Path) -> None:
    box = solo_box(tmp_path, **{"clock.enabled": True, "clock.seconds": 3})
    table = box.top
    seat = table.state.current_player()
    assert table.session.seats[seat].is_human
    before = table.session.committed
    box.run_script([Wait(3.2)])
    actions = table.session.record.actions
    assert len(actions) > before
    assert actions[before] == Move.NEIN_DANKE


def test_the_clock_takes_when_no_groschen_is_left(tmp_path: Path) -> None:
    box = solo_box(tmp_path, **{"clock.enabled": True, "clock.seconds": 3})
    table = box.top
    seat = table.state.current_player()
    table.state.groschen[seat] = 0  # as if every groschen was spent
    before = table.session.committed
    box.run_script([Wait(3.2)])
    assert table.session.record.actions[before] == Move.NEHMEN


def test_without_groschen_nein_danke_is_refused_with_a_reason(tmp_path: Path) -> None:
    box = solo_box(tmp_path)
    table = box.top
    seat = table.state.current_player()
    table.state.groschen[seat] = 0
    before = table.session.committed
    box.dispatch(KeyEvent(Key.K1))
    assert table.session.committed == before
    assert "nehmen" in table.flash


def test_a_human_who_leaves_other_humans_gets_minus_ten(tmp_path: Path) -> None:
    box = solo_box(
        tmp_path,
        [Seat("A"), Seat("B"), Seat("Normal 1", "computer", "normal")],
        **{"speedtombola.takeover": "stark"},
    )
    box.dispatch(KeyEvent(Key.K4, long=True))
    assert isinstance(box.top, PauseMenu)
    labels = [item.text() for item in box.top.items]
    assert labels == ["Weiter", "Hilfe", "A geht", "B geht", "Info"]
    box.top.items[2].action()  # A geht
    box.dispatch(KeyEvent(Key.K1))  # Ja
    box.settle()
    session = box.session
    assert not session.seats[0].is_human
    assert session.seats[0].level == "stark"  # the setting speedtombola.takeover
    assert [(s.name, s.points) for s in box.store.bestenliste("speedtombola")] == [("A", -10)]
    assert session.record.meta["left"][0]["name"] == "A"


def test_leaving_alone_abandons_the_match_without_penalty(tmp_path: Path) -> None:
    box = solo_box(tmp_path)
    box.dispatch(KeyEvent(Key.K4, long=True))
    assert [item.text() for item in box.top.items] == ["Weiter", "Hilfe", "Verlassen", "Info"]
    box.top.items[2].action()
    box.dispatch(KeyEvent(Key.K1))
    assert box.session is None
    assert box.store.unfinished_record() is None
    assert box.store.bestenliste("speedtombola") == []


def test_a_restart_offers_the_unfinished_match_at_its_last_action(tmp_path: Path) -> None:
    run_box(tmp_path, SOLO_SETUP + "K1\nK2\nK1\n")
    store = Store.open(tmp_path / "data")
    record_id = store.unfinished_record()
    assert record_id is not None
    committed = store.record(record_id).actions
    store.close()
    frames = run_box(tmp_path, "K1\n")  # Partie fortsetzen? Ja
    first = load_frame(frames[0])
    assert_golden(first, "resume_prompt")
    store = Store.open(tmp_path / "data")
    assert store.record(record_id).actions[: len(committed)] == committed


def test_a_lot_that_has_gone_round_is_not_announced_as_new(tmp_path: Path) -> None:
    """After a restart nothing has been said yet: a lot with groschen on it (each Nein
    danke puts one on it) is named with whose turn it is, never as "Neues Los"."""
    box = solo_box(tmp_path, [Seat("A"), Seat("Normal 1", "computer", "normal"), Seat("B")])
    screen = box.top
    assert isinstance(screen, TableScreen)
    table = screen.table
    lot = table.state.lot
    assert table.state.pot == 0 and f"Neues Los: {lot}." in text_of(screen.spoken())
    box.dispatch(KeyEvent(Key.K1))  # A: Nein danke
    box.settle()
    assert table.state.lot == lot and table.state.pot == 2  # A and Normal 1 passed
    said = text_of(screen.spoken())
    pot = table.state.pot
    assert f"B ist dran: Los {lot}, {pot} Groschen darauf" in said and "Neues Los" not in said


def test_info_steps_through_the_guests(tmp_path: Path) -> None:
    box = solo_box(tmp_path)
    box.dispatch(KeyEvent(Key.K4))
    info = box.top
    assert isinstance(info, InfoScreen)
    first = info.index
    box.dispatch(KeyEvent(Key.K2))
    assert info.index == (first + 1) % 4  # three guests, then the Verlauf
    box.dispatch(KeyEvent(Key.K4))
    assert isinstance(box.top, TableScreen)


def test_the_last_moves_of_the_round_on_a_page_of_their_own(tmp_path: Path) -> None:
    frames = run_box(tmp_path, SOLO_SETUP + "K1\nK1\nK2\nK4\nK1\n")  # moves, Info, <
    assert_golden(load_frame(frames[-1]), "speedtombola_moves")
    box = solo_box(tmp_path / "b")
    box.dispatch(KeyEvent(Key.K1))  # A: Nein danke
    box.settle()
    box.dispatch(KeyEvent(Key.K4))
    box.dispatch(KeyEvent(Key.K1))  # from A's page back round to the Verlauf
    summary = box.top.summary()
    assert summary["screen"] == "speedtombola.moves"
    assert summary["moves"][0] == "A: Nein danke" and len(summary["moves"]) <= 5


@pytest.mark.parametrize("players", [3, 7])
def test_every_seat_is_drawn_at_the_table(tmp_path: Path, players: int) -> None:
    seats = [Seat("A")] + [Seat(f"Normal {i}", "computer", "normal") for i in range(1, players)]
    box = solo_box(tmp_path, seats)
    summary = box.top.summary()
    assert len(summary["seats"]) == players
    box.frame()  # draws without error for the widest table


def play_to_the_tafel(box: Box) -> None:
    """The human takes every lot until the round's Tafel shows."""
    for _ in range(400):
        if not isinstance(box.top, TableScreen):
            return
        box.dispatch(KeyEvent(Key.K2))
        box.settle()


def test_with_the_clock_the_tafel_goes_on_by_itself(tmp_path: Path) -> None:
    box = solo_box(tmp_path, **{"clock.enabled": True, "clock.tafel_seconds": 4})
    play_to_the_tafel(box)
    tafel = box.top
    assert isinstance(tafel, TafelScreen)
    box.run_script([Wait(3.5)])
    assert box.top is tafel
    box.run_script([Wait(1.0)])
    assert box.top is not tafel
    assert box.session.record.meta["tafel_seen"] == 1


def test_without_the_clock_the_tafel_waits_for_weiter(tmp_path: Path) -> None:
    box = solo_box(tmp_path)
    play_to_the_tafel(box)
    tafel = box.top
    assert isinstance(tafel, TafelScreen)
    box.run_script([Wait(60)])
    assert box.top is tafel
    assert box.resolve_char("\n") == KeyEvent(Key.K4)  # Enter is Weiter


def test_a_match_of_three_rounds_shows_the_round_and_adds_up_on_the_tafel(tmp_path: Path) -> None:
    box = solo_box(tmp_path, rounds=3)
    assert_golden(box.frame().image, "speedtombola_table_match")
    for round_index in range(2):
        play_to_the_tafel(box)
        tafel = box.top
        assert isinstance(tafel, TafelScreen) and tafel.round_index == round_index
        if round_index == 1:
            first, second = tafel.table.state.results
            expected = [a + b for a, b in zip(first.points, second.points, strict=True)]
            assert tafel.totals() == expected
            assert_golden(box.frame().image, "speedtombola_tafel_match")
        box.dispatch(KeyEvent(Key.K4))
        box.settle()
    table = box.top
    assert isinstance(table, TableScreen) and table.state.round_index == 2
    assert table.state.start_seat == 2  # the first lot moves on to the next seat


def test_short_names_keep_their_number() -> None:
    assert short_name("Normal 3", 4) == "Nor3"
    assert short_name("Annegret", 5) == "Anneg"
    assert short_name("Ben", 5) == "Ben"


def test_seven_guests_fit_the_tafel_and_the_endstand(tmp_path: Path) -> None:
    seats = [Seat("Annegret")] + [Seat(f"Normal {i}", "computer", "normal") for i in range(1, 7)]
    box = solo_box(tmp_path, seats)
    play_to_the_tafel(box)
    tafel = box.top
    assert isinstance(tafel, TafelScreen)
    assert tafel.pages == 2 + 7 + 1  # two summary pages, one per guest, the removed lots
    assert_golden(box.frame().image, "speedtombola_tafel_seven")
    box.dispatch(KeyEvent(Key.K4))
    box.settle()
    assert_golden(box.frame().image, "speedtombola_standings_seven")


def test_a_computer_that_finishes_thinking_after_the_match_was_left_plays_nothing(
    tmp_path: Path,
) -> None:
    seats = [Seat("Normal 1", "computer", "normal"), Seat("A"), Seat("Normal 2", "computer")]
    store = Store.open(tmp_path / "data")
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(5))
    box.push(main_menu(box))
    session = launch(box, "speedtombola", {"players": 3}, seats)
    table = box.table  # the first computer starts thinking at once
    assert table.thinking == 0
    screen = box.top
    assert isinstance(screen, TableScreen)
    screen.leave()  # the match is left before its answer arrives
    committed = len(store.record(session.record_id).actions)
    box.settle()
    assert len(store.record(session.record_id).actions) == committed


@pytest.mark.parametrize("sub_screen", [Key.K3, Key.K4])
def test_a_long_menu_key_on_rat_or_info_opens_the_pause_menu_and_the_clock_waits(
    tmp_path: Path, sub_screen: Key
) -> None:
    box = solo_box(tmp_path, **{"clock.enabled": True, "clock.seconds": 3})
    committed = box.session.committed
    box.dispatch(KeyEvent(sub_screen))
    box.settle()
    assert isinstance(box.top, (RatScreen, InfoScreen))
    box.run_script([Wait(10)])
    assert box.session.committed == committed  # Rat and Info stop the clock
    box.dispatch(KeyEvent(Key.K4, long=True))
    assert isinstance(box.top, PauseMenu)
    assert [item.text() for item in box.top.items] == ["Weiter", "Hilfe", "Verlassen", "Info"]


def test_a_long_menu_key_on_the_tafel_opens_the_pause_menu(tmp_path: Path) -> None:
    box = solo_box(tmp_path)
    play_to_the_tafel(box)
    assert isinstance(box.top, TafelScreen)
    box.dispatch(KeyEvent(Key.K4, long=True))
    assert isinstance(box.top, PauseMenu)
    box.top.items[0].action()  # Weiter
    assert isinstance(box.top, TafelScreen)


def test_asking_rat_and_info_changes_no_lot_no_move_and_no_frame(tmp_path: Path) -> None:
    """The same seed and decisions, once plain, once opening Rat and Info before each
    decision: the same record (params, seats, every action) and the same last frame."""
    decisions = ["K1", "K2", "K1", "K1", "K2", "K1", "K1", "K2", "K1", "K1", "K1", "K2"]
    ask = "K3\nK4\nK4\nK2\nK1\nK4\n"  # Rat, Zurück; Info, >, <, Zurück
    plain = run_box(tmp_path / "plain", SOLO_SETUP + "".join(f"{d}\n" for d in decisions))
    asked = run_box(
        tmp_path / "asked", SOLO_SETUP + "".join(f"{ask}{d}\n" for d in decisions), seed=1
    )
    records = []
    for folder in ("plain", "asked"):
        store = Store.open(tmp_path / folder / "data")
        record = store.record(store.records()[0].id)
        records.append((record.params, record.seats, record.actions))
        store.close()
    assert records[0] == records[1]
    assert len(records[0][2]) > 30, "the decisions were played"
    assert same_pixels(load_frame(plain[-1]), load_frame(asked[-1]))


def test_with_two_humans_the_turn_passing_is_announced(tmp_path: Path) -> None:
    box = solo_box(tmp_path, [Seat("Anna"), Seat("Ben"), Seat("Normal 1", "computer", "normal")])
    table = box.top
    assert isinstance(table, TableScreen)
    first = table.table.to_move()
    box.dispatch(KeyEvent(Key.K1))  # Nein danke: the next human decides ...
    box.step()
    assert isinstance(box.top, TakeBackScreen)  # ... once the move stands
    box.dispatch(KeyEvent(Key.K4))  # Weiter: it stands now
    box.step()
    box.step()
    assert table.table.to_move() != first and table.banner_until is not None
    assert_golden(render(table).image, "speedtombola_turn_banner")
    box.run_script([Wait(2.0)])
    assert table.banner_until is None


def test_a_rematch_from_the_endstand_keeps_the_seats_and_house_rules(tmp_path: Path) -> None:
    run_box(tmp_path, SOLO_SETUP + "K2\n" * 40 + "K4\nK1\n")  # ... Tafel Weiter, Nochmal
    store = Store.open(tmp_path / "data")
    second, first = (store.record(info.id) for info in store.records()[:2])
    assert store.records()[1].finished and not store.records()[0].finished
    assert [s.to_json() for s in second.seats] == [s.to_json() for s in first.seats]
    assert second.params == first.params
    assert second.meta["chance"]["commitment"] != first.meta["chance"]["commitment"]
    store.close()


def test_the_pause_menus_info_shows_the_seal_of_the_matchs_chance(tmp_path: Path) -> None:
    """Every game's pause menu has Info: the record's number and its chance commitment,
    in groups of four, as records.get shows it and `spielleiter-host verify` checks it."""
    box = solo_box(tmp_path)
    commit = box.session.record.meta["chance"]["commitment"]
    box.dispatch(KeyEvent(Key.K4, long=True))
    box.top.items[-1].action()  # Info
    shown = box.top.summary()
    assert shown["title"] == "Info" and f"Partie {box.session.record_id}" in shown["text"]
    assert shown["text"].replace(" ", "").replace("\n", "").endswith(commit)
    assert "Siegel" in shown["text"]
    assert_golden(render(box.top).image, "info_seal")
    box.dispatch(KeyEvent(Key.K2))
    assert "verify" in box.top.summary()["text"]
