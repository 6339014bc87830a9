"""Bungee benchmark: the decision time of the Stark computer (goal: median <= 150 ms on
the development machine), the simulator's rounds per second, and the presses per
player to enter the hands at a round's end with real cards (goal: <= 4 typically).

Run: .venv/bin/python benchmarks/bungee_stark.py
"""

from __future__ import annotations

import random
import statistics
import time

import numpy as np
from spielleiter.games.base import sample_chance
from spielleiter.games.bungee import bots, sim
from spielleiter.games.bungee.rules import CALL_LIMIT, BungeeGame, BungeeState, Phase

POSITIONS = 200
SIM_ROUNDS = 5_000


def positions(players: int, count: int) -> list[BungeeState]:
    """Decisions met in games between Normal computers."""
    found: list[BungeeState] = []
    seed = 0
    while len(found) < count:
        state = BungeeGame({"players": players, "rounds": 1}).new_initial_state()
        rng = random.Random(seed)
        seed += 1
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            found.append(state.clone())
            state.apply_action(bots.normal(state.view(state.current_player())))
    return found[:count]


def stark_times(players: int) -> list[float]:
    times = []
    for i, state in enumerate(positions(players, POSITIONS)):
        view = state.view(state.current_player())
        t = time.perf_counter()
        bots.choose(view, level="stark", rng=random.Random(i))
        times.append(time.perf_counter() - t)
    return times


def sim_rate(players: int) -> float:
    """Whole rounds per second, from the deal, Normal's policy for every seat."""
    states = []
    for seed in range(SIM_ROUNDS):
        state = BungeeGame({"players": players, "rounds": 1}).new_initial_state()
        rng = random.Random(seed)
        while state.phase != Phase.TURN:
            state.apply_action(sample_chance(state, rng))
        states.append(state)
    batch = sim.Batch(
        hands=np.array([s.hands for s in states], dtype=np.int16),
        pile=np.array([s.pile for s in states], dtype=np.int16),
        disc=np.zeros((SIM_ROUNDS, sim.F), dtype=np.int16),
        top=np.zeros(SIM_ROUNDS, dtype=np.int16),
        lucky=np.array([s.lucky for s in states], dtype=np.int16),
        seat=np.array([s.seat for s in states], dtype=np.int16),
        first=np.full(SIM_ROUNDS, -1, dtype=np.int16),
        walk=np.zeros(SIM_ROUNDS, dtype=np.int16),
        calls=np.zeros((SIM_ROUNDS, players), dtype=np.int16),
        taken=np.zeros(SIM_ROUNDS, dtype=np.int16),
        active=np.ones(SIM_ROUNDS, dtype=bool),
    )
    policy = np.full((SIM_ROUNDS, players), CALL_LIMIT)
    take = np.full((SIM_ROUNDS, players), bots.NORMAL_TAKE)
    t = time.perf_counter()
    sim.play_out(batch, np.random.default_rng(1), policy, take)
    return SIM_ROUNDS / (time.perf_counter() - t)


def hand_keys(players: int, rounds: int = 2000) -> tuple[float, float]:
    """Real cards: presses per player to enter the hands at a round's end (the key tree,
    one press per Bungee card, the table's one OK shared out), over rounds of Normal
    computers; (mean, share of players entered in 4 presses or fewer)."""
    from spielleiter.games.bungee.screens import keys_for_hand

    presses = []
    for seed in range(rounds // 10):
        state = BungeeGame({"players": players, "rounds": 10}).new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            else:
                state.apply_action(bots.normal(state.view(state.current_player())))
        for result in state.results:
            for points, bungees in zip(result.points, result.bungees, strict=True):
                presses.append(len(keys_for_hand(points, bungees)) + 1 / players)
    within = sum(1 for p in presses if p <= 4 + 1 / players) / len(presses)
    return statistics.mean(presses), within


def main() -> None:
    for players in (3, 5):
        mean, within = hand_keys(players)
        print(
            f"hands at the round's end, {players} players: {mean:.2f} presses per player, "
            f"{within:.0%} of hands in 4 presses or fewer (+ the table's OK)"
        )
    for players in (3, 5):
        times = sorted(stark_times(players))
        median = statistics.median(times) * 1000
        p90 = times[int(0.9 * len(times))] * 1000
        print(
            f"Stark, {players} players: median {median:.1f} ms, 90th percentile {p90:.1f} ms, "
            f"max {times[-1] * 1000:.1f} ms over {len(times)} decisions"
        )
        print(f"simulator, {players} players: {sim_rate(players):,.0f} rounds/s")


if __name__ == "__main__":
    main()
