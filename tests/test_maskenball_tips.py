"""Maskenball tips: the numpy simulator agrees with the engine, and the advice makes sense."""

from __future__ import annotations

import numpy as np
import pytest
from spielleiter.games.maskenball.rules import (
    FLY,
    GROUPING,
    HOME,
    REPORT_SWAPPED,
    REPORT_TURNED_AWAY,
    SPIN,
    VISIT,
    MaskenballGame,
    MaskenballState,
    action_name,
    same_group,
)
from spielleiter.games.maskenball.tips import (
    draw_groupings,
    draw_sectors,
    popcount,
    simulate,
    swar_popcount,
    table_from_view,
    tips,
)


def test_the_popcount_counts_every_bit_on_any_numpy() -> None:
    rng = np.random.default_rng(5)
    masks = np.concatenate(
        [
            np.array([0, 1, 2**35 - 1, 2**63, 2**64 - 1], dtype=np.uint64),
            rng.integers(0, 2**64 - 1, size=200, dtype=np.uint64, endpoint=True),
        ]
    ).reshape(5, 41)
    expected = [[int(m).bit_count() for m in row] for row in masks]
    assert swar_popcount(masks).tolist() == expected
    assert popcount(masks).tolist() == expected


def petal(b: int) -> int:
    return SPIN + 2 * b


def rollout_policy(state: MaskenballState) -> int:
    """The simulator's policy, written against the scalar engine (ties to the lowest index)."""
    groupings = state.consistent_groupings()

    def swaps(a: int, b: int) -> int:
        return sum(1 for g in groupings if not same_group(g, a, b))

    def targets(a: int) -> list[int]:
        return [b for b in state.beetles_on_flower() if b != a and not state.has_swapped(a, b)]

    if state.pending() == "choose":
        on_flower = state.beetles_on_flower()
        best = {b: max((swaps(b, t) for t in targets(b)), default=-1) for b in on_flower}
        return FLY + max(best, key=lambda b: (best[b], -b))
    flyer = state.flyer()
    assert flyer is not None
    options = [(swaps(flyer, t), -t) for t in targets(flyer)]
    if options and max(options)[0] >= 1:
        return VISIT - max(options)[1]
    return HOME if HOME in state.legal_actions() else VISIT + targets(flyer)[0]


def test_the_simulator_agrees_with_the_engine_fed_the_same_chance() -> None:
    rng = np.random.default_rng(3)
    start = MaskenballGame({"mode": "digital"}).new_initial_state()
    start.apply_action(GROUPING + 0)
    table = table_from_view(start.view(0))
    games = 150
    grouping = draw_groupings(table, games, rng)
    sectors = draw_sectors(table, games, rng)
    won, used = simulate(table, grouping, sectors, tie_noise=False)
    for i in range(games):
        state = MaskenballGame({"mode": "digital"}).new_initial_state()
        state.apply_action(GROUPING + int(grouping[i]))
        spins = 0
        while not state.is_terminal():
            if state.pending() == "spin":
                state.apply_action(SPIN + int(sectors[i, spins]))
                spins += 1
            else:
                state.apply_action(rollout_policy(state))
        assert (state.won(), spins) == (bool(won[i]), int(used[i])), f"game {i}"
    assert 0 < won.mean() < 1


def play_policy(start: MaskenballState, first: int, grouping: int, sectors: np.ndarray) -> bool:
    """One game on the scalar engine: `first`, then the rollout policy; the magnets of
    `grouping` answer every visit, the spins come from `sectors` (running out loses)."""
    state = start.clone()
    state.apply_action(first)
    spins = 0
    while not state.is_terminal():
        pending = state.pending()
        if pending == "spin":
            if spins == len(sectors):
                return False
            state.apply_action(SPIN + int(sectors[spins]))
            spins += 1
        elif pending == "report":
            flyer, visited = state.flyer(), state.visited()
            assert flyer is not None and visited is not None
            swaps = not same_group(grouping, flyer, visited)
            state.apply_action(REPORT_SWAPPED if swaps else REPORT_TURNED_AWAY)
        else:
            state.apply_action(rollout_policy(state))
    return state.won()


def test_the_tips_agree_with_the_engine_playing_the_same_policy_flying_home_too() -> None:
    state = MaskenballGame({"mode": "physical"}).new_initial_state()
    for _ in range(8):  # four ants on the vine
        state.apply_action(SPIN + 1)
    for action in (petal(0), VISIT + 4, REPORT_SWAPPED):
        state.apply_action(action)
    assert state.vine() == 4 and HOME in state.legal_actions()
    games, seed = 300, 4
    advice = tips(state.view(0), games=games, seed=seed, tie_noise=False)
    assert set(advice.options) == set(state.legal_actions())
    rng = np.random.default_rng(seed)
    table = table_from_view(state.view(0))
    grouping = draw_groupings(table, games, rng)
    sectors = draw_sectors(table, games, rng)
    for action, chance in advice.options.items():
        won = [play_policy(state, action, int(grouping[i]), sectors[i]) for i in range(games)]
        assert abs(chance - float(np.mean(won))) <= 0.01, (action_name(action), chance)
    assert 0.05 < advice.options[HOME] < 0.95


def test_the_known_turn_away_is_the_worst_visit_and_a_sure_swap_among_the_best() -> None:
    state = MaskenballGame({"mode": "physical"}).new_initial_state()
    for action in (petal(0), VISIT + 1, REPORT_TURNED_AWAY, petal(1), VISIT + 4, REPORT_SWAPPED):
        state.apply_action(action)
    state.apply_action(HOME)
    state.apply_action(petal(0))
    advice = tips(state.view(0), games=1000, seed=2)
    assert set(advice.options) == set(state.legal_actions())
    # Rot and Orange turned away: the worst visit. Blau swapped with Orange: sure to swap.
    assert min(advice.options, key=advice.options.__getitem__) == VISIT + 1
    assert advice.options[VISIT + 4] >= advice.win_chance - 2 * advice.stderr


def test_it_offers_flying_home_and_each_beetle_on_an_empty_petal() -> None:
    state = MaskenballGame({"mode": "physical"}).new_initial_state()
    for b in (1, 2, 3, 0):
        for action in (petal(b), VISIT + 4, REPORT_SWAPPED):
            state.apply_action(action)
        if state.flyer() is not None:
            state.apply_action(HOME)
    state.apply_action(petal(4))
    advice = tips(state.view(0), games=300)
    assert set(advice.options) == {FLY + b for b in range(8) if b != 4}
    state.apply_action(FLY + 5)
    state.apply_action(VISIT + 0)
    state.apply_action(REPORT_SWAPPED)
    assert HOME in tips(state.view(0), games=300).options


def test_the_win_chance_falls_as_ants_climb_the_vine() -> None:
    state = MaskenballGame({"mode": "digital"}).new_initial_state()
    state.apply_action(GROUPING + 5)
    fresh = tips(state.view(0), games=2000, seed=1)
    for _ in range(11):
        state.apply_action(SPIN + 1)
    late = tips(state.view(0), games=2000, seed=1)
    assert 0 <= late.win_chance < fresh.win_chance <= 1
    assert fresh.options == {} and fresh.stderr == pytest.approx(
        (fresh.win_chance * (1 - fresh.win_chance) / 2000) ** 0.5
    )


def test_a_confirmed_contradiction_still_gets_advice() -> None:
    state = MaskenballGame({"mode": "physical"}).new_initial_state()
    for action in (petal(0), VISIT + 1, REPORT_TURNED_AWAY, petal(1), VISIT + 2):
        state.apply_action(action)
    state.apply_action(REPORT_TURNED_AWAY)
    for action in (petal(0), VISIT + 2, REPORT_SWAPPED):
        state.apply_action(action)
    assert state.consistent_groupings() == []
    advice = tips(state.view(0), games=200)
    assert advice.best_action in state.legal_actions()


def test_a_pending_report_is_simulated_by_the_magnets() -> None:
    state = MaskenballGame({"mode": "physical"}).new_initial_state()
    state.apply_action(petal(0))
    state.apply_action(VISIT + 1)
    advice = tips(state.view(0), games=300)
    assert advice.best_action is None and 0 < advice.win_chance < 1
