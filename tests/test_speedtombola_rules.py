"""Speedtombola: each sentence of shared/rules/speedtombola.de.txt as a behaviour."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from spielleiter.games import catalog
from spielleiter.games.base import CHANCE, IllegalActionError, ParameterError, replay, sample_chance
from spielleiter.games.speedtombola.rules import (
    ALL_LOTS,
    Move,
    SpeedtombolaGame,
    SpeedtombolaState,
    bestenliste_points,
    garnituren,
    lot_cost,
    points_change,
    ranks,
    round_points,
)

REMOVED_9 = [3, 4, 5, 6, 7, 8, 9, 10, 11]


def make(**params: int) -> SpeedtombolaGame:
    game = catalog.make("speedtombola", params)
    assert isinstance(game, SpeedtombolaGame)
    return game


def dealt(game: SpeedtombolaGame, removed: Sequence[int] | None = None, first: int = 20):
    """A state after the removal draws and the first open lot."""
    state = game.new_initial_state()
    removed = list(removed if removed is not None else REMOVED_9[: game.removed])
    for lot in removed:
        state.apply_action(lot)
    state.apply_action(first)
    return state


def play_round(state: SpeedtombolaState, take_when_pot: int = 2) -> None:
    """Finish the running round: draw the lowest lot, take once the pot reaches a value."""
    round_index = state.round_index
    while not state.is_terminal() and state.round_index == round_index:
        if state.is_chance_node():
            state.apply_action(min(state.legal_actions()))
        elif state.pot >= take_when_pot or state.groschen[state.current_player()] == 0:
            state.apply_action(Move.NEHMEN)
        else:
            state.apply_action(Move.NEIN_DANKE)


# --- Die Lose ----------------------------------------------------------------
def test_the_drum_holds_the_lots_3_to_35():
    state = make().new_initial_state()
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert [lot for lot, _ in outcomes] == list(range(3, 36)) and len(outcomes) == 33
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)


@pytest.mark.parametrize("removed", [6, 9, 12])
def test_before_each_round_lots_fly_out_unseen(removed):
    game = make(removed=removed)
    state = game.new_initial_state()
    for i in range(removed):
        assert state.is_chance_node() and state.lot is None
        state.apply_action(ALL_LOTS[i])
    assert state.is_chance_node()
    assert state.drum_count == 33 - removed
    state.apply_action(35)
    assert state.lot == 35 and state.drum_count == 32 - removed


def test_removed_lots_are_never_shown_before_the_scoring():
    state = dealt(make())
    for seat in range(3):
        view = state.view(seat)
        assert "removed_lots" not in view
        assert all("removed" not in r for r in view["results"])
        assert set(view["unseen"]) == set(ALL_LOTS) - {20}
        assert view["drum"] == 23


def test_the_removed_lots_are_shown_at_the_scoring():
    state = dealt(make())
    play_round(state)
    assert state.is_terminal()
    assert state.view(0)["results"][0]["removed"] == REMOVED_9


@pytest.mark.parametrize("removed", [0, 5, 7, 33])
def test_only_9_or_the_house_rules_6_and_12_are_removed(removed):
    with pytest.raises(ParameterError):
        make(removed=removed)


@pytest.mark.parametrize("players", [2, 8])
def test_three_to_seven_play(players):
    with pytest.raises(ParameterError):
        make(players=players)


@pytest.mark.parametrize("players,groschen", [(3, 11), (4, 11), (5, 11), (6, 9), (7, 7)])
def test_groschen_11_for_3_to_5_players_9_for_six_7_for_seven(players, groschen):
    state = dealt(make(players=players))
    assert state.groschen == [groschen] * players


# --- Ablauf --------------------------------------------------------------------
def test_the_top_lot_lies_open_on_the_gabentisch():
    state = dealt(make(), first=27)
    assert state.lot == 27 and state.view(1)["lot"] == 27 and state.pot == 0
    assert state.current_player() == 0


def test_nein_danke_puts_a_groschen_on_the_lot_and_the_left_neighbour_is_next():
    state = dealt(make())
    state.apply_action(Move.NEIN_DANKE)
    assert state.groschen == [10, 11, 11] and state.pot == 1
    assert state.current_player() == 1
    state.apply_action(Move.NEIN_DANKE)
    state.apply_action(Move.NEIN_DANKE)
    assert state.current_player() == 0 and state.pot == 3


def test_nehmen_takes_the_lot_with_all_groschen_on_it():
    state = dealt(make())
    state.apply_action(Move.NEIN_DANKE)
    state.apply_action(Move.NEIN_DANKE)
    state.apply_action(Move.NEHMEN)
    assert state.lots[2] == [20] and state.groschen == [10, 10, 13] and state.pot == 0


def test_without_a_groschen_you_must_take():
    state = dealt(make())
    state.groschen[0] = 0
    assert state.legal_actions() == [Move.NEHMEN]
    with pytest.raises(IllegalActionError, match="muss nehmen"):
        state.apply_action(Move.NEIN_DANKE)
    assert state.pot == 0 and state.current_player() == 0


def test_with_one_groschen_you_may_still_pass():
    state = dealt(make())
    state.groschen[0] = 1
    assert state.legal_actions() == [Move.NEIN_DANKE, Move.NEHMEN]
    state.apply_action(Move.NEIN_DANKE)
    assert state.groschen[0] == 0


def test_the_taker_draws_the_next_lot_and_decides_first():
    state = dealt(make())
    state.apply_action(Move.NEIN_DANKE)
    state.apply_action(Move.NEHMEN)
    assert state.is_chance_node() and state.lot is None
    state.apply_action(30)
    assert state.lot == 30 and state.current_player() == 1


def test_when_the_drum_is_empty_the_round_is_counted():
    state = dealt(make())
    play_round(state)
    assert state.is_terminal() and len(state.results) == 1
    result = state.results[0]
    assert sorted(lot for held in result.lots for lot in held) == list(range(12, 36))
    assert sum(result.groschen) == 33
    assert state.returns() == [-float(p) for p in result.points]


def test_an_illegal_chance_outcome_is_refused():
    state = dealt(make())
    state.apply_action(Move.NEHMEN)
    with pytest.raises(IllegalActionError, match="nicht in der Lostrommel"):
        state.apply_action(20)


# --- Wertung ---------------------------------------------------------------------
def test_each_lot_counts_its_number_as_points():
    assert round_points([4, 6, 10, 21], 0) == 41


def test_a_garnitur_counts_only_its_lowest_lot():
    assert garnituren([27, 25, 26]) == [[25, 26, 27]]
    assert round_points([25, 26, 27], 0) == 25
    assert round_points([13, 15, 16], 0) == 28
    assert round_points([13, 14, 15, 16], 0) == 13


def test_each_groschen_left_takes_a_point_off():
    assert round_points([3, 10, 11, 12, 13, 20], 5) == 28
    assert round_points([3, 8, 19, 20, 21, 35], 5) == 60


def test_scores_can_be_negative_and_are_never_clamped():
    assert round_points([], 12) == -12
    assert round_points([3], 20) == -17


def test_fewest_points_win_and_ties_share_the_place():
    assert ranks([40, 12, 40, 7], lower_is_better=True) == [3, 2, 3, 1]
    assert ranks([5, 5, 9], lower_is_better=True) == [1, 1, 3]


def test_three_or_five_rounds_add_up_with_new_groschen_and_the_next_seat_first():
    game = make(rounds=3, first_seat=2)
    state = game.new_initial_state()
    for r in range(3):
        for lot in REMOVED_9:
            state.apply_action(lot)
        state.apply_action(35)
        assert state.round_index == r and state.current_player() == (2 + r) % 3
        assert state.groschen == [11, 11, 11] and state.lots == [[], [], []]
        play_round(state, take_when_pot=r)
    assert state.is_terminal() and len(state.results) == 3
    totals = [sum(r.points[s] for r in state.results) for s in range(3)]
    assert state.match_points == totals and state.returns() == [-float(t) for t in totals]


@pytest.mark.parametrize("rounds", [2, 4])
def test_only_one_three_or_five_rounds(rounds):
    with pytest.raises(ParameterError):
        make(rounds=rounds)


def test_the_tafel_after_each_round_shows_garnituren_and_calculation():
    state = dealt(make(rounds=3))
    play_round(state)
    assert state.round_index == 1 and not state.is_terminal()
    tafel = state.view(1)["results"][0]
    for seat in range(3):
        lots, g = tafel["lots"][seat], tafel["groschen"][seat]
        assert tafel["garnituren"][seat] == garnituren(lots)
        assert tafel["points"][seat] == round_points(lots, g)
    assert tafel["removed"] == REMOVED_9


# --- Am Tisch: the line above the buttons, the info on a lot ----------------------------
def test_the_points_change_on_nehmen_and_on_nein_danke():
    assert lot_cost([10, 12], 11) == -12
    assert lot_cost([10, 11], 12) == 0
    assert lot_cost([10], 9) == -1
    assert lot_cost([], 30) == 30
    assert points_change([10, 11], 12, 4) == {Move.NEHMEN: -4, Move.NEIN_DANKE: 1}
    state = dealt(make(), first=21)
    state.lots[0] = [22]
    state.pot = 3
    assert state.points_change() == {Move.NEHMEN: -1 - 3, Move.NEIN_DANKE: 1}


# --- Punkte für die Bestenliste ------------------------------------------------------
def test_bestenliste_50_minus_round_points_never_below_0_plus_place_bonus():
    assert bestenliste_points([20], 1) == 30 + 30
    assert bestenliste_points([20, 60, 45], 2) == 30 + 0 + 5 + 15
    assert bestenliste_points([-5], 3) == 55 + 5
    assert bestenliste_points([10], 4) == 40


def test_tied_players_each_get_the_shared_places_bonus():
    points = [30, 30, 50]
    places = ranks(points, lower_is_better=True)
    assert places == [1, 1, 3]
    bestenliste = [bestenliste_points([p], pl) for p, pl in zip(points, places, strict=True)]
    assert bestenliste == [50, 50, 5]


# --- the contract -------------------------------------------------------------
def test_random_games_keep_the_contracts_invariants():
    rng = random.Random(3)
    for players in range(3, 8):
        game = make(players=players, rounds=3, removed=rng.choice([6, 9, 12]))
        state = game.new_initial_state()
        while not state.is_terminal():
            assert len(state.history()) < game.info.practical_length
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            else:
                view = state.view(state.current_player())
                assert len(view["unseen"]) == view["drum"] + game.removed
                state.apply_action(rng.choice(state.legal_actions()))
        assert all(sum(r.groschen) == players * game.groschen for r in state.results)
        points = -sum(state.returns())
        assert game.info.min_utility * players <= -points <= game.info.max_utility
        again = catalog.make("speedtombola", game.params)
        assert replay(again, state.history()).returns() == state.returns()


def test_clone_is_independent():
    state = dealt(make())
    copy = state.clone()
    copy.apply_action(Move.NEIN_DANKE)
    copy.apply_action(Move.NEHMEN)
    assert state.pot == 0 and state.groschen == [11, 11, 11] and state.lots == [[], [], []]
    assert len(copy.history()) == len(state.history()) + 2
