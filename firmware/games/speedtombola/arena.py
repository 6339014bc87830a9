"""Whole Speedtombola matches between computers, for the host's tournaments (offline).

A deal fixes each round's drum order, so every seat rotation meets the same luck.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from spielleiter.games.speedtombola import bots
from spielleiter.games.speedtombola.rules import ALL_LOTS, SpeedtombolaGame


def deal_orders(seed: int, deal: int, rounds: int) -> list[list[int]]:
    """Each round's lots in drum order (the first `removed` fly out) for one deal."""
    rng = random.Random(f"speedtombola-deal-{seed}-{deal}")
    return [rng.sample(ALL_LOTS, len(ALL_LOTS)) for _ in range(rounds)]


def play(
    levels: Sequence[str], deal: tuple[int, int], bot_seed: int, params: Mapping[str, Any]
) -> tuple[list[int], list[float]]:
    """One match, `levels[s]` playing seat s on the deal's drums: (places, match points)."""
    game = SpeedtombolaGame({**params, "players": len(levels)})
    orders = deal_orders(deal[0], deal[1], game.rounds)
    state = game.new_initial_state()
    decision = 0
    while not state.is_terminal():
        if state.is_chance_node():
            order = orders[state.round_index]
            state.apply_action(next(lot for lot in order if lot in state.drum))
            continue
        seat = state.current_player()
        decision += 1
        rng = random.Random(bot_seed * 1_000_003 + decision)
        state.apply_action(bots.choose(state.view(seat), level=levels[seat], rng=rng))
    return state.places(), [float(p) for p in state.match_points]
