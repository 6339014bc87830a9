"""Maskenball der Käfer: each sentence of the rule text as a behaviour."""

from __future__ import annotations

import pytest
from spielleiter.games import catalog
from spielleiter.games.base import CHANCE, TERMINAL, IllegalActionError, ParameterError
from spielleiter.games.maskenball.rules import (
    BEETLES,
    COLOUR_CODES,
    COLOURS,
    FLY,
    GROUPING,
    HOME,
    REPORT_SWAPPED,
    REPORT_TURNED_AWAY,
    SPIN,
    VISIT,
    MaskenballGame,
    MaskenballState,
    colour_letters,
    consistent_groupings,
    groupings,
    report_is_consistent,
)

LOW_HALF = groupings().index(0b00001111)
"""The grouping Rot, Orange, Gelb, Türkis | Blau, Lila, Pink, Weiß."""
LEAF = SPIN + 1


def petal(b: int) -> int:
    return SPIN + 2 * b


def physical(players: int = 2) -> MaskenballState:
    return MaskenballGame({"mode": "physical", "players": players}).new_initial_state()


def digital(grouping: int = LOW_HALF, players: int = 2) -> MaskenballState:
    state = MaskenballGame({"mode": "digital", "players": players}).new_initial_state()
    state.apply_action(GROUPING + grouping)
    return state


def play(state: MaskenballState, *actions: int) -> MaskenballState:
    for a in actions:
        state.apply_action(a)
    return state


def swap(state: MaskenballState, flyer: int, visited: int) -> None:
    """Spin the flyer's petal, visit, and report a swap; the flyer then flies home."""
    play(state, petal(flyer), VISIT + visited, REPORT_SWAPPED)
    if state.flyer() == flyer:
        play(state, HOME)


# --- setup ------------------------------------------------------------------


def test_registered_and_eight_distinct_colour_letters() -> None:
    assert isinstance(catalog.make("maskenball"), MaskenballGame)
    assert len(set(COLOURS)) == len(set(COLOUR_CODES)) == BEETLES


def test_each_beetle_starts_on_its_petal_with_five_dots_of_its_colour() -> None:
    state = physical()
    for b in range(BEETLES):
        assert state.dots(b) == [5 if c == b else 0 for c in range(BEETLES)]
        assert state.place(b) == "petal"
    assert (state.stump(), state.vine(), state.ants_in_supply()) == (0, 0, 7)
    assert colour_letters(state.dots(0)) == "RRRRR"


def test_the_youngest_seat_begins_with_a_spin() -> None:
    state = physical()
    assert state.current_player() == CHANCE and state.pending() == "spin"
    assert state.seat() == 0


def test_digital_play_first_draws_the_hidden_groups_by_chance() -> None:
    state = MaskenballGame({"mode": "digital"}).new_initial_state()
    assert state.pending() == "grouping" and state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 35 and sum(p for _, p in outcomes) == pytest.approx(1)
    state.apply_action(GROUPING + 7)
    assert "grouping" not in str(state.view(0)) and state.pending() == "spin"


def test_every_grouping_splits_the_beetles_four_and_four() -> None:
    assert len(set(groupings())) == 35
    assert all(bin(mask).count("1") == 4 and mask & 1 for mask in groupings())


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ParameterError):
        MaskenballGame({"mode": "magic"})
    with pytest.raises(ParameterError):
        MaskenballGame({"sector_probabilities": [0.5, 0.5]})
    with pytest.raises(ParameterError):
        MaskenballGame({"sector_probabilities": [0.0] + [1 / 15] * 15})


def test_spin_probabilities_are_parameters() -> None:
    probs = [0.1 / 8 if i % 2 == 0 else 0.9 / 8 for i in range(16)]
    state = MaskenballGame({"mode": "physical", "sector_probabilities": probs}).new_initial_state()
    assert [p for _, p in state.chance_outcomes()] == pytest.approx(probs)


# --- the arrow points at a petal ----------------------------------------------


def test_the_beetle_of_the_spun_petal_flies_and_must_visit_another_beetle() -> None:
    state = play(physical(), petal(2))
    assert state.pending() == "visit" and state.current_player() == 0
    assert state.flyer() == 2 and state.place(2) == "flying"
    assert state.legal_actions() == [VISIT + b for b in range(BEETLES) if b != 2]
    with pytest.raises(IllegalActionError):
        state.apply_action(HOME)
    with pytest.raises(IllegalActionError, match="selbst"):
        state.apply_action(VISIT + 2)


def test_case_a_a_beetle_turns_away_no_swap_the_visitor_flies_home_and_the_next_player_spins() -> (
    None
):
    state = play(physical(), petal(0), VISIT + 1, REPORT_TURNED_AWAY)
    assert state.dots(0) == [5, 0, 0, 0, 0, 0, 0, 0] and state.dots(1)[1] == 5
    assert state.place(0) == "petal" and state.flyer() is None
    assert state.pending() == "spin" and state.seat() == 1


def test_case_b_both_stay_face_to_face_and_swap_one_dot_each() -> None:
    state = play(physical(), petal(0), VISIT + 5, REPORT_SWAPPED)
    assert state.dots(0) == [4, 0, 0, 0, 0, 1, 0, 0]
    assert state.dots(5) == [1, 0, 0, 0, 0, 4, 0, 0]
    assert state.partners(0) == [5] and state.partners(5) == [0]


def test_after_a_swap_the_beetle_may_fly_on_or_home() -> None:
    state = play(physical(), petal(0), VISIT + 5, REPORT_SWAPPED)
    assert state.pending() == "visit_or_home" and state.current_player() == 0
    assert HOME in state.legal_actions()
    play(state, HOME)
    assert state.flyer() is None and state.pending() == "spin" and state.seat() == 1


def test_swapping_goes_on_until_a_beetle_turns_away() -> None:
    state = play(physical(), petal(0), VISIT + 4, REPORT_SWAPPED, VISIT + 5, REPORT_SWAPPED)
    assert state.dots(0) == [3, 0, 0, 0, 1, 1, 0, 0] and state.seat() == 0
    play(state, VISIT + 1, REPORT_TURNED_AWAY)
    assert state.flyer() is None and state.seat() == 1


def test_only_the_colours_of_the_two_petals_are_swapped_the_giver_gives_its_own() -> None:
    state = physical()
    swap(state, 0, 4)
    play(state, petal(1), VISIT + 4, REPORT_SWAPPED)
    # Blau holds Rot once and Blau three times: it gives Blau, never its single Rot.
    assert state.dots(4) == [1, 1, 0, 0, 3, 0, 0, 0]
    assert state.dots(1) == [0, 4, 0, 0, 1, 0, 0, 0]


def test_a_beetle_may_only_visit_beetles_whose_colour_it_does_not_wear() -> None:
    state = physical()
    swap(state, 0, 4)
    play(state, petal(4))
    assert VISIT + 0 not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="getauscht"):
        state.apply_action(VISIT + 0)


def test_a_beetle_that_turned_away_may_be_visited_again() -> None:
    state = play(physical(), petal(0), VISIT + 1, REPORT_TURNED_AWAY, petal(0))
    assert VISIT + 1 in state.legal_actions()


# --- five colours ----------------------------------------------------------------


def test_the_flyer_with_five_colours_goes_to_the_ball_at_once_and_the_turn_ends() -> None:
    state = play(physical(), petal(0))
    for b in (4, 5, 6):
        play(state, VISIT + b, REPORT_SWAPPED)
    play(state, VISIT + 7, REPORT_SWAPPED)
    assert state.dots(0) == [1, 0, 0, 0, 1, 1, 1, 1]
    assert state.place(0) == "ball" and state.ball() == [0]
    assert state.flyer() is None and state.pending() == "spin" and state.seat() == 1


def test_the_visited_beetle_with_five_colours_goes_to_the_ball_before_the_flyer_flies_on() -> None:
    state = physical()
    for b in (1, 2, 3):
        swap(state, b, 4)
    play(state, petal(0), VISIT + 4, REPORT_SWAPPED)
    assert state.place(4) == "ball" and state.ball() == [4]
    assert state.flyer() == 0 and state.pending() == "visit_or_home"
    assert VISIT + 4 not in state.legal_actions()


def test_an_empty_petal_lets_the_player_choose_any_beetle_still_on_the_flower() -> None:
    state = physical()
    for b in (1, 2, 3):
        swap(state, b, 4)
    swap(state, 0, 4)
    play(state, petal(4))
    assert state.pending() == "choose" and state.current_player() == state.seat()
    assert state.legal_actions() == [FLY + b for b in range(BEETLES) if b != 4]
    with pytest.raises(IllegalActionError, match="Ball"):
        state.apply_action(FLY + 4)
    play(state, FLY + 6, VISIT + 1, REPORT_SWAPPED)
    # The chosen beetle flies from its own petal: the colours are Pink and Orange.
    assert state.dots(6)[1] == 1 and state.dots(1)[6] == 1


def test_a_petal_stays_empty_for_the_rest_of_the_game() -> None:
    state = physical()
    for b in (1, 2, 3, 0):
        swap(state, b, 4)
    for _ in range(3):
        play(state, petal(4))
        assert state.pending() == "choose" and state.place(4) == "ball"
        play(state, FLY + 5, VISIT + 6, REPORT_TURNED_AWAY)


# --- the arrow points between two petals -------------------------------------------


def test_a_leaf_moves_no_beetle_but_puts_an_ant_on_the_stump() -> None:
    state = play(physical(), LEAF)
    assert (state.stump(), state.vine(), state.ants_in_supply()) == (1, 0, 6)
    assert all(state.place(b) == "petal" for b in range(BEETLES))
    assert state.pending() == "spin" and state.seat() == 1


def test_the_next_leaf_moves_the_stump_ant_onto_the_vine() -> None:
    state = play(physical(), LEAF, LEAF)
    assert (state.stump(), state.vine(), state.ants_in_supply()) == (0, 1, 6)
    play(state, LEAF)
    assert (state.stump(), state.vine()) == (1, 1)


def test_every_leaf_sector_is_a_leaf() -> None:
    for sector in range(1, 16, 2):
        state = play(physical(), SPIN + sector)
        assert state.stump() == 1 and state.last_spin() == sector


def test_the_seventh_ant_on_the_vine_loses() -> None:
    state = play(physical(), *[LEAF] * 13)
    assert state.vine() == 6 and state.stump() == 1 and not state.is_terminal()
    play(state, LEAF)
    assert state.vine() == 7 and state.lost() and state.is_terminal()
    assert state.current_player() == TERMINAL and state.returns() == [-1.0, -1.0]


def test_all_eight_beetles_at_the_ball_win() -> None:
    state = digital(LOW_HALF, players=3)
    for a in range(4):
        play(state, petal(a))
        for b in range(4, 8):
            if VISIT + b in state.legal_actions():
                play(state, VISIT + b)
        if state.flyer() is not None:
            play(state, HOME)
    assert state.ball() == [0, 1, 2, 4, 5, 6, 7, 3]
    assert state.won() and state.is_terminal() and state.returns() == [1.0, 1.0, 1.0]


# --- the turn goes round -----------------------------------------------------------


def test_the_turn_passes_clockwise_round_the_seats() -> None:
    state = physical(players=3)
    seats = []
    for _ in range(4):
        seats.append(state.seat())
        play(state, petal(0), VISIT + 1, REPORT_TURNED_AWAY)
    assert seats == [0, 1, 2, 0]


# --- the magnets --------------------------------------------------------------------


def test_digital_beetles_of_one_group_turn_away_of_different_groups_swap() -> None:
    state = play(digital(LOW_HALF), petal(0), VISIT + 1)
    assert state.dots(0)[0] == 5 and state.seat() == 1
    play(state, petal(0), VISIT + 7)
    assert state.dots(0)[7] == 1 and state.pending() == "visit_or_home"


def test_physical_visits_wait_for_the_players_report() -> None:
    state = play(physical(), petal(0), VISIT + 1)
    assert state.pending() == "report" and state.current_player() == CHANCE
    assert state.visited() == 1 and state.legal_actions() == [REPORT_TURNED_AWAY, REPORT_SWAPPED]
    assert dict(state.chance_outcomes())[REPORT_SWAPPED] == pytest.approx(16 / 28)


def test_the_engine_learns_the_groups_from_the_reports() -> None:
    reports = [(0, 1, False), (0, 2, False), (0, 3, False)]
    assert [groupings()[g] for g in consistent_groupings(reports)] == [0b00001111]
    assert consistent_groupings([]) == list(range(35))


def test_a_report_that_contradicts_what_was_learnt_is_flagged() -> None:
    state = play(physical(), petal(0), VISIT + 1, REPORT_TURNED_AWAY)
    play(state, petal(1), VISIT + 2, REPORT_TURNED_AWAY)
    play(state, petal(0), VISIT + 2)
    assert state.report_is_consistent(swapped=False)
    assert not state.report_is_consistent(swapped=True)
    assert dict(state.chance_outcomes())[REPORT_SWAPPED] == 0
    assert not report_is_consistent(state.reports(), 0, 2, True)


def test_a_confirmed_contradiction_is_still_played() -> None:
    state = play(physical(), petal(0), VISIT + 1, REPORT_TURNED_AWAY)
    play(state, petal(1), VISIT + 2, REPORT_TURNED_AWAY, petal(0), VISIT + 2, REPORT_SWAPPED)
    assert state.partners(0) == [2] and state.consistent_groupings() == []


def confirmed_contradiction() -> MaskenballState:
    """Rot turns away from Orange, Gelb and Türkis (so Rot, Orange, Gelb, Türkis are one
    group), then Rot and Orange are reported to swap after all, and Rot flies home."""
    state = physical()
    for b in (1, 2, 3):
        play(state, petal(0), VISIT + b, REPORT_TURNED_AWAY)
    return play(state, petal(0), VISIT + 1, REPORT_SWAPPED, HOME)


def test_after_a_confirmed_contradiction_the_least_contradicted_splits_judge() -> None:
    state = confirmed_contradiction()
    assert state.consistent_groupings() == []
    # Breaking one report each: the learnt split, or Orange in the other group instead
    # of one of Blau, Lila, Pink, Weiß. In all of them Gelb and Türkis share a group.
    likely = [groupings()[g] for g in state.likely_groupings()]
    assert sorted(likely) == sorted([0b00001111, 0b00011101, 0b00101101, 0b01001101, 0b10001101])
    play(state, petal(4), VISIT + 5)  # Blau and Lila: some likely splits swap, some do not
    assert state.report_is_consistent(swapped=True) and state.report_is_consistent(swapped=False)
    assert dict(state.chance_outcomes())[REPORT_SWAPPED] == pytest.approx(2 / 5)
    play(state, REPORT_TURNED_AWAY, petal(2), VISIT + 3)  # Gelb visits Türkis
    assert state.report_is_consistent(swapped=False)
    assert not state.report_is_consistent(swapped=True)
    assert not report_is_consistent(state.reports(), 2, 3, True)


def test_the_view_shows_the_table_for_the_screen() -> None:
    state = play(physical(), petal(0), VISIT + 5, REPORT_SWAPPED)
    view = state.view(1)
    assert view["dots"][0] == [4, 0, 0, 0, 0, 1, 0, 0]
    assert view["places"][0] == "flying" and view["flyer"] == 0
    assert view["partners"][5] == [0] and view["reports"] == [[0, 5, True]]
    assert view["pending"] == "visit_or_home" and view["last_spin"] == 0
    assert (view["stump"], view["vine"], view["vine_fields"]) == (0, 0, 7)
