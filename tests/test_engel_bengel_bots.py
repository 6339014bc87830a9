"""Engel & Bengel computers and their numpy simulator.

The simulator must agree exactly with the rule engine when both play the rollout policy on
the same dice; the computers see only their seat's view and play legal moves.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from spielleiter.games.base import sample_chance
from spielleiter.games.engel_bengel import arena, bots
from spielleiter.games.engel_bengel.policy import policy_move
from spielleiter.games.engel_bengel.rules import EngelBengelGame, EngelBengelState, roll_code
from spielleiter.games.engel_bengel.sim import Batch, simulate


def random_position(seed: int) -> EngelBengelState | None:
    """A position a few random moves into a random game (None when it is not a turn)."""
    rng = random.Random(seed)
    game = EngelBengelGame({"players": rng.randint(2, 8)})
    state = game.new_initial_state()
    for _ in range(rng.randint(17, 90)):
        if state.is_terminal():
            return None
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return None if state.is_terminal() or state.turn < 0 else state


def engine_playout(
    state: EngelBengelState, dice: np.ndarray, keep: np.ndarray, horizon: int
) -> EngelBengelState:
    """The rule engine on the rollout policy, rolling dice[t, :cup] for its t-th roll, until
    the Durchgang ends or `horizon` further turns have begun (as the simulator stops)."""
    t, turns, durchgang = 0, 0, state.durchgang
    while not state.is_terminal() and state.durchgang == durchgang:
        seat = state.turn
        if state.is_chance_node():
            state.apply_action(roll_code(dice[t, : state.cup]))
            t += 1
        else:
            state.apply_action(
                policy_move(state.face, state.board, state.roll, state.placed_now, state.rolls,
                            int(keep[seat]))
            )  # fmt: skip
        if state.turn != seat and state.durchgang == durchgang:
            turns += 1
            if turns > horizon:
                state.dice[state.turn] += state.cup  # the simulator stops before the cup
                break
    return state


@pytest.mark.parametrize("horizon", [1, 3, 1_000])
def test_the_simulator_agrees_exactly_with_the_rules_on_the_same_dice(horizon: int) -> None:
    checked = 0
    for seed in range(40):
        start = random_position(seed)
        if start is None:
            continue
        gen = np.random.default_rng(seed)
        dice = gen.integers(1, 7, size=(1, 300, 5))
        keep = gen.integers(1, 6, size=(1, start.players))
        batch = simulate(start.face, Batch.of([start]), dice, keep, horizon=horizon)
        end = engine_playout(start.clone(), dice[0], keep[0], horizon)
        assert list(batch.chips[0]) == end.chips, seed
        if end.durchgang == start.durchgang:
            assert list(batch.filled[0]) == [len(b) for b in end.board], seed
            assert list(batch.dice[0]) == end.dice, seed
        checked += 1
    assert checked >= 20


def test_the_simulator_plays_many_rows_at_once_like_one_at_a_time() -> None:
    starts = [s for s in (random_position(seed) for seed in range(12)) if s is not None]
    starts = [s for s in starts if s.players == starts[0].players and s.face == starts[0].face]
    gen = np.random.default_rng(1)
    dice = gen.integers(1, 7, size=(len(starts) * 3, 300, 5))
    keep = gen.integers(1, 6, size=(len(starts) * 3, starts[0].players))
    together = simulate(starts[0].face, Batch.of(starts, repeat=3), dice, keep)
    for row in range(len(starts) * 3):
        alone = simulate(
            starts[0].face, Batch.of([starts[row // 3]]), dice[row : row + 1], keep[row : row + 1]
        )
        assert list(alone.chips[0]) == list(together.chips[row])


@pytest.mark.parametrize("level", bots.LEVELS)
def test_every_level_plays_a_legal_move_from_the_view_alone(level: str) -> None:
    rng = random.Random(3)
    for seed in range(15):
        state = random_position(seed)
        if state is None or state.is_chance_node():
            continue
        view = state.view(state.current_player())
        assert "order" not in view
        assert bots.choose(view, level=level, rng=rng) in state.legal_actions()


def test_normal_never_stops_before_placing_and_takes_a_white_row_it_can_finish() -> None:
    game = EngelBengelGame({"players": 3, "shuffle": False, "start": "erster"})
    state = game.new_initial_state()
    state.apply_action(roll_code([6, 6, 6, 6, 6]))
    view = state.view(state.turn)
    move = bots.choose(view, level="normal", rng=random.Random(1))
    assert move in state.legal_actions() and move >= 2


def test_stark_rates_every_legal_move() -> None:
    state = next(s for s in map(random_position, range(40)) if s and not s.is_chance_node())
    view = state.view(state.current_player())
    values = bots.stark_values(view, random.Random(2), playouts=8)
    assert sorted(values) == state.legal_actions()


def test_an_arena_game_is_the_same_for_the_same_deal_and_seed() -> None:
    first = arena.play(["normal", "leicht", "leicht"], (1, 2), 7, {})
    again = arena.play(["normal", "leicht", "leicht"], (1, 2), 7, {})
    assert first == again
    places, chips = first
    assert sorted(places)[0] == 1 and len(chips) == 3
