"""The test opponents of Engel & Bengel and Bungee: legal moves from the view alone, each
playing the way its name says."""

from __future__ import annotations

import random

import pytest
from spielleiter.games.base import sample_chance
from spielleiter.games.bungee import bots as bungee_bots
from spielleiter.games.bungee import opponents as bungee_opponents
from spielleiter.games.bungee.rules import CALL_LIMIT, BungeeGame, BungeeState, Move, Phase
from spielleiter.games.engel_bengel import opponents as engel_opponents
from spielleiter.games.engel_bengel.rules import EngelBengelGame, EngelBengelState, roll_code
from spielleiter.games.engel_bengel.rules import Move as EngelMove


def engel_positions(players: int, seed: int, count: int) -> list[EngelBengelState]:
    """Decisions with a choice from games of random legal moves."""
    rng = random.Random(seed)
    found: list[EngelBengelState] = []
    while len(found) < count:
        state = EngelBengelGame({"players": players, "durchgaenge": 2, "end": "durchgaenge"})
        s = state.new_initial_state()
        while not s.is_terminal() and len(found) < count:
            if s.is_chance_node():
                s.apply_action(sample_chance(s, rng))
                continue
            if len(s.legal_actions()) > 1:
                found.append(s.clone())
            s.apply_action(rng.choice(s.legal_actions()))
    return found


def bungee_positions(players: int, seed: int, count: int) -> list[BungeeState]:
    state = BungeeGame({"players": players, "rounds": 3}).new_initial_state()
    rng = random.Random(seed)
    found: list[BungeeState] = []
    while not state.is_terminal() and len(found) < count:
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        found.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return found


@pytest.mark.parametrize("level", engel_opponents.OPPONENTS)
def test_every_engel_bengel_opponent_plays_a_legal_move_from_the_view_alone(level: str) -> None:
    for state in engel_positions(3, seed=1, count=12):
        view = state.view(state.current_player())
        move = engel_opponents.choose(view, level=level, rng=random.Random(2))
        assert move in state.legal_actions()


def test_the_cautious_stopper_never_rolls_again_and_the_reckless_roller_always_does() -> None:
    rolled = 0
    for state in engel_positions(3, seed=4, count=120):
        view = state.view(state.current_player())
        if EngelMove.NOCHMAL not in view["legal"]:
            continue
        cautious = engel_opponents.choose(view, level="cautious", rng=random.Random(1))
        reckless = engel_opponents.choose(view, level="reckless", rng=random.Random(1))
        assert cautious != EngelMove.NOCHMAL
        if reckless == EngelMove.NOCHMAL:
            rolled += 1
        else:
            assert reckless >= 2  # it only places first where placing pays
    assert rolled >= 10


def test_the_planner_finishes_a_white_row_with_two_dice_of_one_roll() -> None:
    face = {"name": "Probe", "rows": [
        {"kind": "pips", "colour": "white", "value": 8, "pips": [5, 2]},
        {"kind": "pips", "colour": "black", "value": 3, "pips": [1]},
        {"kind": "pips", "colour": "white", "value": 1, "pips": [3, 3, 3, 3, 3, 3]},
        {"kind": "pips", "colour": "white", "value": 1, "pips": [4, 4, 4, 4, 4, 4]},
        {"kind": "pips", "colour": "white", "value": 1, "pips": [6, 6, 6, 6, 6, 6]},
        {"kind": "star", "colour": "black", "value": 2, "boxes": 2},
    ]}  # fmt: skip
    game = EngelBengelGame({"players": 3, "faces": [face], "shuffle": False, "start": "erster"})
    state = game.new_initial_state()
    state.apply_action(roll_code([2, 3, 4, 5, 6]))
    rng = random.Random(0)
    first = engel_opponents.choose(state.view(0), level="planner", rng=rng)
    assert first == 2 + 6 * 0 + 5 - 1  # the 5 first: it sets up the 2 of the same roll
    state.apply_action(first)
    assert engel_opponents.choose(state.view(0), level="planner", rng=rng) == 2 + 6 * 0 + 2 - 1


@pytest.mark.parametrize("level", bungee_opponents.OPPONENTS)
def test_every_bungee_opponent_plays_a_legal_move_from_the_view_alone(level: str) -> None:
    for players in (2, 4):
        for state in bungee_positions(players, seed=players, count=25):
            view = state.view(state.current_player())
            move = bungee_opponents.choose(view, level=level, rng=random.Random(1))
            assert move in state.legal_actions()


def test_the_bungee_opponents_call_as_their_names_say() -> None:
    low = fast = 0
    for state in bungee_positions(3, seed=9, count=400):
        view = state.view(state.current_player())
        if not bungee_bots.may_call(view):
            continue
        worth = bungee_bots.hand_worth(bungee_bots.counts(view["hand"]), view["lucky"])
        assert worth <= CALL_LIMIT
        assert bungee_opponents.choose(view, level="fastcaller", rng=random.Random(0)) == Move.CALL
        fast += 1
        lowcaller = bungee_opponents.choose(view, level="lowcaller", rng=random.Random(0))
        assert (lowcaller == Move.CALL) == (worth <= bungee_opponents.LOW_CALL)
        low += lowcaller != Move.CALL
    assert fast >= 5 and low >= 1


def test_the_hoarder_of_pairs_takes_a_discard_that_matches_its_hand() -> None:
    took = 0
    for state in bungee_positions(3, seed=3, count=400):
        view = state.view(state.current_player())
        top = view["discards"][-1] if view["discards"] else 0
        if view["phase"] != Phase.TURN or bungee_bots.may_call(view) or not top:
            continue
        hand = bungee_bots.counts(view["hand"])
        if hand[top] and sum(hand) > hand[top]:
            assert bungee_opponents.choose(view, level="pairs", rng=random.Random(0)) == Move.TAKE
            took += 1
    assert took >= 3
