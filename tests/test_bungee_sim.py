"""The numpy simulator plays Bungee exactly as the rule engine does, fed the same cards."""

from __future__ import annotations

import random

import numpy as np
import pytest
from spielleiter.games.base import sample_chance
from spielleiter.games.bungee import sim
from spielleiter.games.bungee.rules import BungeeGame, BungeeState, Move, Phase, discard_action


def dealt(players: int, seed: int) -> BungeeState:
    """A round dealt by the engine, the lucky card turned."""
    state = BungeeGame({"players": players, "rounds": 1}).new_initial_state()
    rng = random.Random(seed)
    while state.phase != Phase.TURN:
        state.apply_action(sample_chance(state, rng))
    return state


def batch_of(states: list[BungeeState]) -> sim.Batch:
    """The engine's rounds as one sim batch."""
    n = states[0].game.num_players

    def arr(values: list[object], dtype: type = np.int16) -> np.ndarray:
        return np.array(values, dtype=dtype)

    return sim.Batch(
        hands=arr([s.hands for s in states]),
        pile=arr([s.pile for s in states]),
        disc=arr([[s.discards.count(f) for f in range(sim.F)] for s in states]),
        top=arr([s.top or 0 for s in states]),
        lucky=arr([s.lucky for s in states]),
        seat=arr([s.seat for s in states]),
        first=arr([-1] * len(states)),
        walk=arr([0] * len(states)),
        calls=np.zeros((len(states), n), dtype=np.int16),
        taken=arr([0] * len(states)),
        active=np.ones(len(states), dtype=bool),
    )


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_simulator_agrees_with_the_rules_fed_the_same_cards(players: int) -> None:
    states = [dealt(players, seed) for seed in range(40)]
    b = batch_of(states)
    rng = np.random.default_rng(players)
    size = len(states)
    call_at = rng.integers(3, 6, (size, players))
    take_at = rng.integers(0, 8, (size, players))
    log: list[tuple[np.ndarray, ...]] = []
    for _ in range(400):
        if not b.active.any():
            break
        sim.step(b, rng.random(size), call_at, take_at, log=log)
    assert b.active.sum() <= 1, "the rounds end"
    written, winners = sim.scores(b)
    reshuffled = 0
    for i, state in enumerate(states):
        if b.active[i]:
            continue
        for act, kind, face, count, drawn in log:
            if not act[i]:
                continue
            if kind[i] == sim.CALL:
                state.apply_action(Move.CALL)
                continue
            if kind[i] == sim.TAKE:
                state.apply_action(Move.TAKE)
            state.apply_action(discard_action(int(face[i]), int(count[i])))
            if kind[i] == sim.DISCARD:
                state.apply_action(int(drawn[i]))
        reshuffled += state.reshuffles
        assert state.is_terminal()
        result = state.results[0]
        assert list(result.scores) == written[i].tolist()
        assert [s in result.winners for s in range(players)] == winners[i].tolist()
    assert reshuffled > 0 or players < 5, "the long rounds reshuffle the discards"


def test_a_forced_first_move_is_played_in_every_round() -> None:
    states = [dealt(3, seed) for seed in range(10)]
    b = batch_of(states)
    face = np.array([max(f for f in range(1, 12) if s.hands[s.seat][f]) for s in states])
    forced = np.full(len(states), sim.DISCARD)
    log: list[tuple[np.ndarray, ...]] = []
    sim.step(b, np.zeros(len(states)), np.full((10, 3), 5), np.full((10, 3), 3), forced, face, log)
    assert (log[0][2] == face).all()


def test_a_draw_takes_each_card_of_the_pile_alike() -> None:
    pile = np.array([[0, 2, 0, 1, 0, 0, 0, 0, 0, 0, 3, 1]], dtype=np.int16)
    total = int(pile.sum())
    u = (np.arange(total) + 0.5) / total
    drawn = [int(sim.draw(pile, np.array([x]))[0]) for x in u]
    assert drawn == [1, 1, 3, 10, 10, 10, 11]


def test_the_finished_rounds_left_behind_change_no_round() -> None:
    """play_out goes on with the running rounds alone once half are over; each keeps its
    random numbers, so every round ends as in the whole batch step by step."""
    states = [dealt(5, seed) for seed in range(30)]
    alone, whole = batch_of(states), batch_of(states)
    rng = np.random.default_rng(3)
    call_at = rng.integers(3, 6, (30, 5))
    take_at = rng.integers(0, 8, (30, 5))
    written = sim.play_out(alone, np.random.default_rng(4), call_at, take_at)
    gen = np.random.default_rng(4)
    for _ in range(120):
        if not whole.active.any():
            break
        sim.step(whole, gen.random(30), call_at, take_at)
    assert (written == sim.scores(whole)[0]).all()
    for name in ("hands", "pile", "disc", "top", "seat", "first", "walk", "calls", "active"):
        assert (getattr(alone, name) == getattr(whole, name)).all(), name
