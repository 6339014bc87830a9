"""Engel & Bengel: every sentence of the rule text and every DESIGN.md decision, as a test."""

from __future__ import annotations

import random
from typing import Any

import pytest
from spielleiter.games.base import (
    CHANCE,
    TERMINAL,
    IllegalActionError,
    ParameterError,
    sample_chance,
)
from spielleiter.games.engel_bengel.faces import (
    FaceError,
    default_faces,
    validate_face,
)
from spielleiter.games.engel_bengel.info import LIMIT, RECORD_LIMIT, TARGET, TARGET_BOUNDS
from spielleiter.games.engel_bengel.policy import policy_move
from spielleiter.games.engel_bengel.rules import (
    EngelBengelGame,
    EngelBengelState,
    Move,
    place_action,
    roll_code,
    roll_outcomes,
)

# A test face: row 1 pays 5 for a 6; row 2 a white star row of three; row 3 a mixed
# white row worth 10; row 4 a black 1-2 costing 4; row 5 a black star of two costing 20;
# row 6 a white single 3 paying 2.
FACE: dict[str, Any] = {
    "name": "Probe",
    "rows": [
        {"kind": "pips", "colour": "white", "value": 5, "pips": [6]},
        {"kind": "star", "colour": "white", "value": 6, "boxes": 3},
        {"kind": "mixed", "colour": "white", "value": 10},
        {"kind": "pips", "colour": "black", "value": 4, "pips": [1, 2]},
        {"kind": "star", "colour": "black", "value": 20, "boxes": 2},
        {"kind": "pips", "colour": "white", "value": 2, "pips": [3]},
    ],
}
SECOND = {**FACE, "name": "Zweite"}


def game(players: int = 3, **params: Any) -> EngelBengelGame:
    base = {"players": players, "faces": [FACE, SECOND], "shuffle": False, "start": "erster"}
    return EngelBengelGame({**base, **params})


def roll(state: EngelBengelState, *pips: int) -> None:
    assert state.current_player() == CHANCE
    assert len(pips) == state.cup
    state.apply_action(roll_code(pips))


def place(state: EngelBengelState, row: int, pips: int) -> None:
    """Place a die showing `pips` in row `row` (1-based, as the players count rows)."""
    state.apply_action(place_action(row - 1, pips))


# --- setup: dice, chips, faces, start player ----------------------------------------


@pytest.mark.parametrize(("players", "each"), [(2, 15), (3, 10), (4, 7), (7, 4), (8, 3)])
def test_the_30_dice_are_shared_out_evenly_the_rest_stays_in_the_box(
    players: int, each: int
) -> None:
    state = game(players).new_initial_state()
    assert sum(state.dice) + state.cup == players * each
    assert state.dice[1:] == [each] * (players - 1)


def test_every_player_starts_with_80_chips() -> None:
    assert game(4).new_initial_state().chips == [80, 80, 80, 80]


def test_the_start_player_is_drawn_at_random_and_the_stack_shuffled_once() -> None:
    g = EngelBengelGame({"players": 3})
    state = g.new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 16 and all(p == pytest.approx(1 / 16) for _, p in outcomes)
    for _ in range(16):
        state.apply_action(state.chance_outcomes()[-1][0])
    assert sorted(state.order) == list(range(16)) and state.order[0] == 15
    assert state.current_player() == CHANCE
    assert [o for o, _ in state.chance_outcomes()] == [0, 1, 2]
    state.apply_action(2)
    assert state.turn == 2 and state.starter == 2


def test_the_order_of_the_stack_is_secret_until_each_face_comes_up() -> None:
    g = EngelBengelGame({"players": 2})
    state = g.new_initial_state()
    for _ in range(17):
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.secret_actions() == list(range(1, 16))
    assert "order" not in state.view(0)


# --- 1. Würfeln -----------------------------------------------------------------------


def test_you_roll_five_of_your_dice_and_the_others_stay_aside() -> None:
    state = game(3).new_initial_state()
    assert state.turn == 0 and state.cup == 5 and state.dice[0] == 5
    assert [n for n, _ in [(len(list(roll_outcomes(5))), 0)]] == [252]


def test_with_fewer_than_five_dice_you_roll_all_you_have() -> None:
    state = game(8).new_initial_state()
    assert state.cup == 3 and state.dice[0] == 0


def test_a_player_without_dice_is_skipped_for_the_rest_of_the_durchgang() -> None:
    state = game(8).new_initial_state()
    roll(state, 6, 3, 1)
    place(state, 1, 6)
    place(state, 6, 3)
    place(state, 4, 1)  # all three placed: the turn ends
    assert state.dice[0] == 0 and state.turn == 1
    for seat in range(1, 8):
        assert state.turn == seat
        roll(state, 4, 4, 4)
        state.apply_action(state.legal_actions()[0])
        state.apply_action(Move.STOPP)
    assert state.turn == 1 and state.free_boxes() > 0


# --- 2. Würfel platzieren -------------------------------------------------------------


def test_after_a_roll_you_must_place_at_least_one_fitting_die() -> None:
    state = game().new_initial_state()
    roll(state, 6, 5, 5, 4, 4)
    assert Move.STOPP not in state.legal_actions()
    assert Move.NOCHMAL not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="Erst einen passenden Würfel legen"):
        state.apply_action(Move.STOPP)


def test_you_may_place_more_fitting_dice_but_need_not() -> None:
    state = game().new_initial_state()
    roll(state, 6, 5, 5, 4, 4)
    place(state, 1, 6)
    legal = state.legal_actions()
    assert Move.STOPP in legal and Move.NOCHMAL in legal and place_action(1, 5) in legal


def test_a_die_fits_a_box_only_if_its_pips_match() -> None:
    state = game().new_initial_state()
    roll(state, 4, 4, 4, 4, 5)
    with pytest.raises(
        IllegalActionError, match="Die 4 passt nicht in Reihe 1: Reihe 1 will eine 6"
    ):
        place(state, 1, 4)


def test_an_illegal_die_is_explained_in_the_players_words() -> None:
    state = game().new_initial_state()
    roll(state, 6, 5, 5, 5, 5)
    place(state, 2, 5)
    place(state, 3, 5)
    place(state, 5, 5)
    place(state, 1, 6)
    # the 5 left fits rows 2, 3 and 5; row 6 wants a 3
    with pytest.raises(IllegalActionError, match="Reihe 6 will eine 3"):
        place(state, 6, 5)
    with pytest.raises(IllegalActionError, match="Keine 2 im Wurf"):
        place(state, 4, 2)
    with pytest.raises(IllegalActionError, match="Reihe 1 ist schon voll"):
        place(state, 1, 5)


def test_a_die_that_fits_no_row_says_so() -> None:
    state = game().new_initial_state()
    roll(state, 6, 3, 4, 4, 4)
    for row, pips in ((1, 6), (6, 3), (2, 4), (3, 4), (5, 4)):
        place(state, row, pips)
    roll(state, 4, 2, 2, 2, 2)
    with pytest.raises(IllegalActionError, match="Die 2 passt in keine Reihe: Reihe 4 will eine 1"):
        place(state, 4, 2)


def test_rows_fill_from_left_to_right() -> None:
    state = game().new_initial_state()
    roll(state, 2, 1, 5, 5, 5)
    with pytest.raises(IllegalActionError, match="Reihe 4 will eine 1"):
        place(state, 4, 2)
    place(state, 4, 1)
    place(state, 4, 2)
    assert state.board[3] == [1, 2]


def test_a_star_row_takes_any_first_die_and_then_only_the_same_pips() -> None:
    state = game().new_initial_state()
    roll(state, 2, 2, 4, 5, 5)
    place(state, 2, 4)
    assert place_action(1, 2) not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="Reihe 2 will eine 4"):
        place(state, 2, 5)


def test_a_mixed_row_wants_three_equal_then_two_equal_of_another_value() -> None:
    state = game().new_initial_state()
    roll(state, 3, 3, 3, 3, 5)
    for _ in range(3):
        place(state, 3, 3)
    with pytest.raises(IllegalActionError, match="Reihe 3 will eine andere Zahl als 3"):
        place(state, 3, 3)
    place(state, 3, 5)
    assert state.board[2] == [3, 3, 3, 5]
    state.apply_action(Move.STOPP)
    assert state.turn == 1


def test_rows_are_independent_two_star_rows_may_hold_the_same_pips() -> None:
    state = game().new_initial_state()
    roll(state, 4, 4, 4, 4, 4)
    place(state, 2, 4)
    place(state, 5, 4)
    place(state, 3, 4)  # a mixed row need not differ from the star rows
    assert state.board[1] == [4] and state.board[4] == [4] and state.board[2] == [4]


def test_placed_dice_stay_on_the_board_until_the_durchgang_ends() -> None:
    state = game().new_initial_state()
    roll(state, 6, 1, 1, 1, 1)
    place(state, 1, 6)
    state.apply_action(Move.STOPP)
    roll(state, 5, 5, 5, 5, 5)
    place(state, 2, 5)
    assert state.board[0] == [6]


# --- 3. Weitermachen oder stoppen --------------------------------------------------------


def test_rolling_again_uses_all_of_this_turns_unplaced_dice_and_never_the_reserve() -> None:
    state = game().new_initial_state()
    roll(state, 6, 2, 2, 1, 1)
    place(state, 1, 6)
    place(state, 4, 1)
    state.apply_action(Move.NOCHMAL)
    assert state.cup == 3 and state.dice[0] == 5
    roll(state, 2, 2, 2)
    assert state.rolls == 2


def test_after_rolling_again_a_fitting_die_must_be_placed_again() -> None:
    state = game().new_initial_state()
    roll(state, 6, 2, 2, 2, 2)
    place(state, 1, 6)
    state.apply_action(Move.NOCHMAL)
    roll(state, 5, 5, 5, 5)
    assert Move.STOPP not in state.legal_actions()


def test_you_roll_at_most_five_times_per_turn() -> None:
    state = game(2).new_initial_state()
    roll(state, 5, 5, 5, 5, 5)
    for n in range(4):
        place(state, 3, 5) if n < 3 else place(state, 2, 5)
        assert state.rolls == n + 1
        state.apply_action(Move.NOCHMAL)
        roll(state, *([5] * state.cup))
    assert state.rolls == 5 and state.cup == 1
    place(state, 2, 5)
    assert state.turn == 1  # every die of the turn is placed: the turn ends


def test_stopping_puts_the_unplaced_dice_back_into_the_reserve() -> None:
    state = game().new_initial_state()
    roll(state, 6, 2, 2, 2, 2)
    place(state, 1, 6)
    state.apply_action(Move.STOPP)
    assert state.dice[0] == 9 and state.turn == 1


def test_a_roll_with_no_fitting_die_ends_the_turn_and_the_dice_go_back() -> None:
    state = game().new_initial_state()
    roll(state, 6, 1, 1, 1, 1)
    place(state, 1, 6)
    place(state, 4, 1)
    place(state, 2, 1)
    place(state, 2, 1)  # the star row wants a third 1
    state.apply_action(Move.STOPP)
    # seat 1: the mixed and the black star row take anything, so fill them first
    roll(state, 4, 4, 4, 4, 4)
    place(state, 3, 4)
    place(state, 3, 4)
    place(state, 3, 4)
    place(state, 5, 4)
    place(state, 5, 4)
    assert state.turn == 2
    roll(state, 4, 4, 4, 4, 4)  # rows 2, 3, 4 and 6 want a 1, a non-4, a 2, a 3: none fits
    assert state.turn == 0 and state.dice[2] == 10


# --- Punkte kassieren ----------------------------------------------------------------


def test_the_last_box_of_a_white_row_pays_its_value() -> None:
    state = game().new_initial_state()
    roll(state, 6, 2, 2, 2, 2)
    place(state, 1, 6)
    assert state.chips[0] == 85


def test_the_last_box_of_a_black_row_costs_its_value() -> None:
    state = game().new_initial_state()
    roll(state, 1, 2, 3, 3, 3)
    place(state, 4, 1)
    assert state.chips[0] == 80  # the first box of a row counts nothing
    place(state, 4, 2)
    assert state.chips[0] == 76


def test_who_placed_the_other_dice_of_the_row_does_not_matter() -> None:
    state = game().new_initial_state()
    roll(state, 1, 5, 5, 5, 5)
    place(state, 4, 1)
    state.apply_action(Move.STOPP)
    roll(state, 2, 5, 5, 5, 5)
    place(state, 4, 2)
    assert state.chips == [80, 76, 80]


def test_paying_more_than_you_have_leaves_you_at_zero() -> None:
    state = game(chips=10).new_initial_state()
    roll(state, 4, 4, 5, 5, 5)
    place(state, 5, 4)
    place(state, 5, 4)  # black star row worth 20
    assert state.chips[0] == 0
    assert state.payments[-1].value == -20 and state.payments[-1].moved == -10


def test_several_rows_completed_in_one_turn_each_count() -> None:
    state = game().new_initial_state()
    roll(state, 6, 3, 1, 2, 5)
    place(state, 1, 6)
    place(state, 6, 3)
    place(state, 4, 1)
    place(state, 4, 2)
    assert state.chips[0] == 80 + 5 + 2 - 4
    assert len(state.payments) == 3


# --- Ende eines Durchgangs ------------------------------------------------------------


def fill_board(state: EngelBengelState) -> None:
    """Seats 0, 1 and 2 fill every box but row 6's 3, which is then seat 0's to fill.

    Seat 0 completes row 1 (+5); seat 1 the mixed row (+10) and the black 1-2 (-4); seat 2
    the star row (+6) and the black star row (-20): chips 85, 86, 66.
    """
    roll(state, 6, 4, 4, 4, 5)
    for row, pips in ((1, 6), (3, 4), (3, 4), (3, 4), (3, 5)):
        place(state, row, pips)
    roll(state, 5, 1, 2, 2, 2)
    for row, pips in ((3, 5), (4, 1), (4, 2), (2, 2), (2, 2)):
        place(state, row, pips)
    roll(state, 2, 6, 6, 1, 1)
    place(state, 2, 2)
    place(state, 5, 6)
    place(state, 5, 6)
    state.apply_action(Move.STOPP)
    assert state.free_boxes() == 1 and state.turn == 0
    assert state.chips == [85, 86, 66]


def test_the_last_free_box_ends_the_turn_and_the_durchgang() -> None:
    state = game(3).new_initial_state()
    fill_board(state)
    roll(state, 3, 3, 3, 3, 3)
    place(state, 6, 3)
    assert state.durchgang == 1 and len(state.results) == 1
    result = state.results[0]
    assert result.last == 0 and result.next_start == 1
    assert [(p.seat, p.row, p.moved) for p in result.payments][-1] == (0, 5, 2)


def test_after_a_durchgang_the_dice_are_shared_again_the_next_face_comes_up() -> None:
    state = game(3).new_initial_state()
    fill_board(state)
    roll(state, 3, 3, 3, 3, 3)
    place(state, 6, 3)
    assert state.face.name == "Zweite"
    assert state.board == [[] for _ in range(6)]
    assert state.turn == 1 and state.cup == 5  # the left neighbour of the last placer starts
    assert sum(state.dice) + state.cup == 30


def test_chips_won_are_kept_across_durchgaenge() -> None:
    state = game(3).new_initial_state()
    fill_board(state)
    before = list(state.chips)
    roll(state, 3, 3, 3, 3, 3)
    place(state, 6, 3)
    assert state.chips == [before[0] + 2, before[1], before[2]]


def test_the_played_face_goes_under_the_stack_and_faces_come_round_again() -> None:
    state = game(3, target=10_000).new_initial_state()
    rng = random.Random(2)
    while len(state.results) < 3:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
        else:
            state.apply_action(state.legal_actions()[-1])
    assert [r.face for r in state.results] == ["Probe", "Zweite", "Probe"]


# --- the end of the game --------------------------------------------------------------


def test_the_game_ends_after_the_durchgang_in_which_someone_reaches_the_target() -> None:
    state = game(3, target=82).new_initial_state()
    fill_board(state)
    assert not state.is_terminal()
    roll(state, 3, 3, 3, 3, 3)
    place(state, 6, 3)
    assert state.current_player() == TERMINAL
    assert state.returns() == [1.0, 0.0, 0.0]


def test_the_richest_players_share_the_win() -> None:
    state = game(3, end="durchgaenge", durchgaenge=1).new_initial_state()
    fill_board(state)
    roll(state, 3, 3, 3, 3, 3)
    place(state, 6, 3)
    assert state.is_terminal()
    best = max(state.chips)
    winners = [s for s, c in enumerate(state.chips) if c == best]
    assert state.returns() == [1 / len(winners) if s in winners else 0.0 for s in range(3)]
    assert state.places()[winners[0]] == 1


def test_a_fixed_number_of_durchgaenge_is_an_alternative_end() -> None:
    g = EngelBengelGame({"players": 4, "end": "durchgaenge", "durchgaenge": 3})
    state = g.new_initial_state()
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.durchgang == 3


def normal_game(state: EngelBengelState, seed: int) -> EngelBengelState:
    """Play the state to its end: the chance from `seed`, every seat on the rollout policy
    (Normal's play when benchmarks/engel_bengel_target.py measured the bounds)."""
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            s = state
            state.apply_action(policy_move(s.face, s.board, s.roll, s.placed_now, s.rolls))
    return state


def test_a_high_target_is_not_cut_after_40_durchgaenge() -> None:
    """No hidden stop: with a cap above 40, a game goes on until someone has the target."""
    state = EngelBengelGame({"players": 2, "target": 400, "limit": 100}).new_initial_state()
    normal_game(state, seed=3)
    assert state.durchgang > 40
    assert max(state.chips) >= 400 and not state.capped()
    assert max(state.results[-2].chips) < 400  # the Durchgang before had nobody there


def test_the_cap_ends_the_game_where_set_and_the_richest_win() -> None:
    state = EngelBengelGame({"players": 3, "target": 10_000, "limit": 7}).new_initial_state()
    normal_game(state, seed=1)
    assert state.is_terminal() and state.durchgang == 7 and state.capped()
    best = max(state.chips)
    assert state.returns() == [1.0 if c == best else 0.0 for c in state.chips]
    assert state.places()[state.chips.index(best)] == 1


def test_at_the_cap_tied_richest_players_share_the_win() -> None:
    state = game(3, target=10_000, limit=1).new_initial_state()
    fill_board(state)
    state.chips = [84, 86, 66]  # seat 0's last die (+2) draws level with seat 1
    roll(state, 3, 3, 3, 3, 3)
    place(state, 6, 3)
    assert state.is_terminal() and state.capped() and state.chips == [86, 86, 66]
    assert state.returns() == [0.5, 0.5, 0.0] and state.places() == [1, 1, 3]


def test_reaching_the_target_in_the_last_durchgang_of_the_cap_is_no_cap() -> None:
    state = game(3, target=87, limit=1).new_initial_state()
    fill_board(state)
    roll(state, 3, 3, 3, 3, 3)
    place(state, 6, 3)
    assert state.is_terminal() and state.chips[0] == 87 and not state.capped()


def test_the_cap_does_not_shorten_a_fixed_number_of_durchgaenge() -> None:
    g = EngelBengelGame({"players": 4, "end": "durchgaenge", "durchgaenge": 12, "limit": 5})
    state = normal_game(g.new_initial_state(), seed=2)
    assert g.last_durchgang == 12 and state.durchgang == 12 and not state.capped()


@pytest.mark.parametrize("seed", range(5))
def test_eight_normal_players_reach_the_highest_target_within_the_default_cap(seed: int) -> None:
    """The target's bound is one a game reaches (benchmarks/engel_bengel_target.py: every
    one of 400 such games of Normal computers did, the 95th percentile at 30 Durchgänge)."""
    g = EngelBengelGame({"players": 8, "target": TARGET_BOUNDS[1], "limit": LIMIT})
    state = normal_game(g.new_initial_state(), seed=seed)
    assert not state.capped() and max(state.chips) >= TARGET_BOUNDS[1]


def test_without_a_limit_a_game_stops_after_40_as_records_before_the_cap_did() -> None:
    """A record's parameters name no limit when it was played before the cap was a
    setting: it was played with the fixed stop of 40 Durchgänge, and replays so."""
    g = EngelBengelGame({"players": 3, "target": 10_000})
    assert g.params["limit"] == RECORD_LIMIT == 40 and g.last_durchgang == 40
    state = normal_game(g.new_initial_state(), seed=4)
    assert state.durchgang == 40 and state.capped()


def test_the_view_names_the_end_and_the_cap() -> None:
    view = EngelBengelGame({"players": 3, "limit": 55}).new_initial_state().view(0)
    assert (view["end"], view["target"], view["limit"]) == ("ziel", TARGET, 55)


@pytest.mark.parametrize("limit", [0, 201, 2.5, True])
def test_a_cap_the_engine_cannot_play_is_refused(limit: Any) -> None:
    with pytest.raises(ParameterError, match="limit"):
        EngelBengelGame({"players": 3, "limit": limit})


# --- the boards -------------------------------------------------------------------------


def test_sixteen_different_faces_ship_each_with_six_rows_and_at_most_24_boxes() -> None:
    faces = default_faces()
    assert len(faces) == 16
    assert len({f.name for f in faces}) == 16
    assert len({f.rows for f in faces}) == 16
    assert all(len(f.rows) == 6 and f.boxes <= 24 for f in faces)


def test_a_face_over_24_boxes_is_refused() -> None:
    rows = [{"kind": "star", "colour": "white", "value": 3, "boxes": 5}] * 5
    rows = [*rows, {"kind": "pips", "colour": "black", "value": 2, "pips": [1]}]
    with pytest.raises(FaceError, match="at most 24"):
        validate_face({"name": "Zu voll", "rows": rows})


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda f: f["rows"][2].update(colour="grau"), "rows[2].colour"),
        (lambda f: f["rows"][0].update(pips=[6, 7]), "rows[0].pips[1]"),
        (lambda f: f["rows"][1].update(boxes=0), "rows[1].boxes"),
        (lambda f: f["rows"][3].update(kind="bunt"), "rows[3].kind"),
        (lambda f: f["rows"][5].update(value=0), "rows[5].value"),
        (lambda f: f["rows"].pop(), "rows"),
    ],
)
def test_validation_names_the_path_of_the_bad_field(change: Any, path: str) -> None:
    import copy

    data = copy.deepcopy(FACE)
    change(data)
    with pytest.raises(FaceError) as info:
        validate_face(data)
    assert info.value.path == path


def test_unknown_faces_or_players_are_refused() -> None:
    with pytest.raises(ParameterError):
        EngelBengelGame({"players": 9})
    with pytest.raises(ParameterError, match="faces\\[0\\]"):
        EngelBengelGame({"faces": ["Gibt es nicht"]})
