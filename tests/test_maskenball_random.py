"""Maskenball der Käfer: random play keeps the generic game invariants and the dot rules."""

from __future__ import annotations

import random

import pytest
from spielleiter.games.base import CHANCE, replay, sample_chance
from spielleiter.games.maskenball.rules import BEETLES, DOTS, MaskenballGame, MaskenballState


def random_game(mode: str, seed: int) -> MaskenballState:
    """Play one game with random choices, checking the invariants at every step."""
    rng = random.Random(seed)
    game = MaskenballGame({"mode": mode, "players": 1 + seed % 4})
    state = game.new_initial_state()
    limit = game.info.practical_length
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal and legal == sorted(set(legal))
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1)
            assert [a for a, _ in outcomes] == legal
            action = sample_chance(state, rng)
        else:
            assert state.current_player() == state.seat()
            action = rng.choice(legal)
        state.apply_action(action)
        check_dots(state)
        assert len(state.history()) <= limit
    assert state.legal_actions() == []
    assert state.won() != state.lost()
    return state


def check_dots(state: MaskenballState) -> None:
    for b in range(BEETLES):
        dots = state.dots(b)
        assert sum(dots) == DOTS and min(dots) >= 0
        colours = sum(1 for n in dots if n)
        assert (state.place(b) == "ball") == (colours == DOTS)
        assert state.partners(b) == [c for c in range(BEETLES) if c != b and dots[c]]


@pytest.mark.parametrize("mode", ["digital", "physical"])
def test_random_games_keep_the_invariants_and_replay_from_history(mode: str) -> None:
    for seed in range(40):
        state = random_game(mode, seed)
        again = replay(state.game, state.history())
        assert again.view(0) == state.view(0) and again.returns() == state.returns()
        if state.won():
            swaps = sum(1 for *_, swapped in state.reports() if swapped)
            assert swaps == 16 and sorted(state.ball()) == list(range(BEETLES))
        else:
            assert state.vine() == 7


def test_physical_reports_drawn_by_their_chances_never_contradict() -> None:
    for seed in range(20):
        state = random_game("physical", seed)
        assert state.consistent_groupings()


def test_clone_is_independent() -> None:
    state = MaskenballGame({"mode": "physical"}).new_initial_state()
    state.apply_action(0)
    copy = state.clone()
    copy.apply_action(24 + 4)
    assert state.pending() == "visit" and copy.pending() == "report"
    assert state.history() == [0] and copy.history() == [0, 28]
