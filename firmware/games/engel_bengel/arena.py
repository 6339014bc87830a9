"""Whole Engel & Bengel games between computers, for the host's tournaments (offline).

A deal fixes the chance stream (the stack, the start player, every roll in order), so
every seat rotation of a deal draws from the same luck. A game of the box's defaults: the
tournament's house rules, the default target and the default cap (as a new game on the
box gets them from its settings).

A seat is a computer level (leicht, normal, stark), a test opponent (opponents.OPPONENTS),
or your own bot: "PATH.py:FUNCTION", a function that gets its seat's view (the keys of
EngelBengelState.view, with `legal` its moves) and answers one of `view["legal"]`. A
move that is the only legal one is made without asking.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from spielleiter.games import outside
from spielleiter.games.base import sample_chance
from spielleiter.games.engel_bengel import bots, opponents
from spielleiter.games.engel_bengel.info import LIMIT
from spielleiter.games.engel_bengel.rules import EngelBengelGame, EngelBengelState

Player = Callable[..., int]


def seat(name: str) -> str:
    """The seat's canonical name (levels case-insensitive); SeatError names an unknown one."""
    return outside.seat_of(name, bots, opponents)


def player(name: str) -> Player:
    """A seat's move function: (view, rng) -> move."""
    return outside.player_of(name, bots, opponents)


def play(
    levels: Sequence[str], deal: tuple[int, int], bot_seed: int, params: Mapping[str, Any]
) -> tuple[list[int], list[float]]:
    """One game, `levels[s]` playing seat s on the deal's chance: (places, final chips)."""
    state = match(levels, deal, bot_seed, params)
    return state.places(), [float(c) for c in state.chips]


def match(
    levels: Sequence[str], deal: tuple[int, int], bot_seed: int, params: Mapping[str, Any]
) -> EngelBengelState:
    """The game of :func:`play` played to its end (its `results` tell each Durchgang)."""
    known = EngelBengelGame.default_params()
    rules = {k: v for k, v in params.items() if k in known}  # "wuerfel" is the table's
    game = EngelBengelGame({"limit": LIMIT, **rules, "players": len(levels)})
    chance = random.Random(f"engel-bengel-deal-{deal[0]}-{deal[1]}")
    players = [player(level) for level in levels]
    state = game.new_initial_state()
    decision = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, chance))
            continue
        seat = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
            continue
        decision += 1
        rng = random.Random(bot_seed * 1_000_003 + decision)
        try:
            state.apply_action(players[seat](state.view(seat), rng=rng))
        except outside.SeatError as exc:
            raise outside.seat_failed(seat, levels[seat], exc) from None
    return state
