"""Bungee's Stark believes what the other players' public moves say about their styles."""

from __future__ import annotations

import random

import numpy as np
import pytest
from spielleiter.games.base import sample_chance
from spielleiter.games.bungee import belief, bots, opponents
from spielleiter.games.bungee.rules import BungeeGame, BungeeState, Move, discard_action


def weight(posterior: np.ndarray, *, call: int | None = None, take: int | None = None) -> float:
    """The belief's weight on the styles with that call or take threshold."""
    return float(
        sum(
            posterior[i]
            for i, (c, t) in enumerate(belief.FAMILY)
            if (call is None or c == call) and (take is None or t == take)
        )
    )


def test_with_no_moves_the_belief_is_uniform() -> None:
    view = {"seat": 0, "players": 3, "lucky": 4, "results": [], "moves": []}
    for posterior in belief.beliefs(view).values():
        assert posterior == pytest.approx(np.full(len(belief.FAMILY), 1 / len(belief.FAMILY)))


def test_a_player_who_takes_dear_cards_is_believed_to_take_anything() -> None:
    moves = [[0, 1, int(Move.TAKE), 9], [0, 1, discard_action(2, 1), 9]]  # took a 9, shed a 2
    moves += [[0, 1, int(Move.TAKE), 8], [0, 1, int(Move.TAKE), 10]]
    view = {"seat": 0, "players": 3, "lucky": 4, "results": [], "moves": moves}
    taker = belief.beliefs(view)[1]
    assert weight(taker, take=9) > 0.9
    assert belief.beliefs(view)[2] == pytest.approx(np.full(len(belief.FAMILY), 1 / 15))


def test_a_player_who_leaves_cheap_discards_is_believed_to_take_little() -> None:
    moves = [[0, 2, discard_action(9, 1), top] for top in (2, 3, 1, 2, 3)]
    view = {"seat": 0, "players": 3, "lucky": 7, "results": [], "moves": moves}
    leaver = belief.beliefs(view)[2]
    assert weight(leaver, take=0) > 0.6 and weight(leaver, take=3) + weight(leaver, take=9) < 0.05


def test_the_discard_after_a_take_says_nothing_about_taking() -> None:
    moves = [[0, 1, int(Move.TAKE), 3], [0, 1, discard_action(9, 1), 3]]
    view = {"seat": 0, "players": 2, "lucky": 7, "results": [], "moves": moves}
    only_take = {**view, "moves": moves[:1]}
    assert belief.beliefs(view)[1] == pytest.approx(belief.beliefs(only_take)[1])


def test_callers_with_low_hands_shown_are_believed_to_call_late() -> None:
    def result(points: list[int]) -> dict:
        return {"lucky": 3, "calls": [1], "points": points, "bungees": [0, 0],
                "winners": [1], "scores": [9, -10], "hands": [[], []], "dealer": 0}  # fmt: skip

    low = {"seat": 0, "players": 2, "lucky": 5, "moves": [],
           "results": [result([9, 0]), result([12, 1]), result([7, 0])]}  # fmt: skip
    high = {**low, "results": [result([9, 5]), result([12, 4])]}
    assert weight(belief.beliefs(low)[1], call=1) > 0.6
    assert weight(belief.beliefs(high)[1], call=1) + weight(belief.beliefs(high)[1], call=3) < 0.05


def positions(seed: int, count: int) -> list[BungeeState]:
    state = BungeeGame({"players": 3, "rounds": 3}).new_initial_state()
    rng = random.Random(seed)
    found = []
    levels = ["normal", "fastcaller", "pairs"]
    while not state.is_terminal() and len(found) < count:
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        seat = state.current_player()
        found.append(state.clone())
        view = state.view(seat)
        move = (
            bots.normal(view)
            if levels[seat] == "normal"
            else opponents.choose(view, level=levels[seat], rng=rng)
        )
        state.apply_action(move)
    return found


def test_the_view_lists_the_public_moves_and_the_rollouts_draw_from_the_belief() -> None:
    late = positions(seed=2, count=150)[-1]
    view = late.view(0)
    assert view["moves"] and all(len(m) == 4 for m in view["moves"])
    assert all(m[2] < 200 for m in view["moves"])  # a call, a take or a discard: no draw
    call, take = belief.rollout_styles(view, np.random.default_rng(1), 4000, own=(5, 3))
    assert (call[:, 0] == 5).all() and (take[:, 0] == 3).all()
    for seat, posterior in belief.beliefs(view).items():
        drawn = np.array(
            [belief.FAMILY.index((c, t)) for c, t in zip(call[:, seat], take[:, seat], strict=True)]
        )
        share = np.bincount(drawn, minlength=len(belief.FAMILY)) / len(drawn)
        assert share == pytest.approx(posterior, abs=0.03)


def test_stark_plays_a_legal_move_against_the_believed_styles() -> None:
    for state in positions(seed=4, count=60)[20::10]:
        view = state.view(state.current_player())
        assert bots.choose(view, level="stark", rng=random.Random(1)) in state.legal_actions()
