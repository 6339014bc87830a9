"""Whole Speedtombola matches between computers, for the host's tournaments (offline).

A deal fixes each round's drum order, so every seat rotation meets the same luck. A seat
is a computer level (leicht, normal, stark), a test opponent (opponents.OPPONENTS), or
your own bot: "PATH.py:FUNCTION", a function that gets its seat's view (the keys of
SpeedtombolaState.view) and answers 1 to take or 0 to pass.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from spielleiter.games import outside
from spielleiter.games.base import IllegalActionError
from spielleiter.games.outside import SeatError
from spielleiter.games.speedtombola import bots, opponents
from spielleiter.games.speedtombola.rules import (
    ALL_LOTS,
    Move,
    SpeedtombolaGame,
    SpeedtombolaState,
)
from spielleiter.texts import T

Player = Callable[..., int]


def seat(name: str) -> str:
    """The seat's canonical name (levels case-insensitive); SeatError names an unknown one."""
    return outside.canonical(name, (*bots.LEVELS, *opponents.OPPONENTS, *opponents.SEARCHERS))


is_outside = outside.is_outside


def player(name: str) -> Player:
    """A seat's move function: (view, rng) -> move."""
    key = seat(name)
    if key in bots.LEVELS:
        return partial(bots.choose, level=key)
    if key in opponents.OPPONENTS or key in opponents.SEARCHERS:
        return partial(opponents.choose, level=key)
    function = outside.load(key)

    def yours(view: dict[str, Any], rng: random.Random) -> int:
        answer = function(dict(view))
        if isinstance(answer, bool) or answer not in (Move.NEHMEN, Move.NEIN_DANKE):
            raise SeatError(
                T(
                    "{spec} answered {answer}: a bot answers 1 (take) or 0 (pass)",
                    spec=key,
                    answer=repr(answer),
                )
            )
        return int(answer)

    return yours


def deal_orders(seed: int, deal: int, rounds: int) -> list[list[int]]:
    """Each round's lots in drum order (the first `removed` fly out) for one deal."""
    rng = random.Random(f"speedtombola-deal-{seed}-{deal}")
    return [rng.sample(ALL_LOTS, len(ALL_LOTS)) for _ in range(rounds)]


def play(
    levels: Sequence[str], deal: tuple[int, int], bot_seed: int, params: Mapping[str, Any]
) -> tuple[list[int], list[float]]:
    """One match, `levels[s]` playing seat s on the deal's drums: (places, match points)."""
    state = match(levels, deal, bot_seed, params)
    return state.places(), [float(p) for p in state.match_points]


Watch = Callable[[int, dict[str, Any]], None]


def match(
    levels: Sequence[str],
    deal: tuple[int, int],
    bot_seed: int,
    params: Mapping[str, Any],
    watch: Watch | None = None,
) -> SpeedtombolaState:
    """The match of :func:`play` played to its end; `watch(seat, view)` sees the view of
    every decision before the seat's move (the benchmarks collect positions by it)."""
    game = SpeedtombolaGame({**params, "players": len(levels)})
    players = [player(level) for level in levels]
    orders = deal_orders(deal[0], deal[1], game.rounds)
    state = game.new_initial_state()
    decision = 0
    while not state.is_terminal():
        if state.is_chance_node():
            order = orders[state.round_index]
            state.apply_action(next(lot for lot in order if lot in state.drum))
            continue
        s = state.current_player()
        decision += 1
        rng = random.Random(bot_seed * 1_000_003 + decision)
        view = state.view(s)
        if watch is not None:
            watch(s, view)
        try:
            move = players[s](view, rng=rng)
            state.apply_action(move)
        except (SeatError, IllegalActionError) as exc:
            raise outside.seat_failed(s, levels[s], exc) from None
    return state
