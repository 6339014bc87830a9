"""Whole Speedtombola matches between computers, for the host's tournaments (offline).

A deal fixes each round's drum order, so every seat rotation meets the same luck. A seat
is a computer level (leicht, normal, stark), a test opponent (opponents.OPPONENTS), or
your own bot: "PATH.py:FUNCTION", a function that gets its seat's view (the keys of
SpeedtombolaState.view) and answers 1 to take or 0 to pass.
"""

from __future__ import annotations

import difflib
import importlib.util
import random
from collections.abc import Callable, Mapping, Sequence
from functools import cache, partial
from pathlib import Path
from typing import Any

from spielleiter.games.base import IllegalActionError
from spielleiter.games.speedtombola import bots, opponents
from spielleiter.games.speedtombola.rules import ALL_LOTS, Move, SpeedtombolaGame

Player = Callable[..., int]


class SeatError(ValueError):
    """A seat that is not known, or an outside bot that cannot be loaded or answers wrong."""


def seat(name: str) -> str:
    """The seat's canonical name (levels case-insensitive); SeatError names an unknown one."""
    key = name.strip().lower()
    if key in bots.LEVELS or key in opponents.OPPONENTS or key in opponents.SEARCHERS:
        return key
    if is_outside(name):
        _outside(name.strip())
        return name.strip()
    names = (*bots.LEVELS, *opponents.OPPONENTS, *opponents.SEARCHERS)
    close = difflib.get_close_matches(key, names, n=1, cutoff=0.6)
    hint = f" (did you mean {close[0]}?)" if close else ""
    raise SeatError(
        f"unknown seat {name!r}{hint}: one of {', '.join(names)}, or PATH.py:FUNCTION"
    )


def is_outside(name: str) -> bool:
    """Whether a seat names an outside bot ("PATH.py:FUNCTION")."""
    path, _, function = name.strip().rpartition(":")
    return path.endswith(".py") and bool(function)


@cache
def _outside(spec: str) -> Callable[[dict[str, Any]], Any]:
    path, _, name = spec.rpartition(":")
    file = Path(path)
    if not file.is_file():
        raise SeatError(f"{spec}: no file {path}")
    module_spec = importlib.util.spec_from_file_location(f"outside_bot_{abs(hash(spec))}", file)
    if module_spec is None or module_spec.loader is None:
        raise SeatError(f"{spec}: cannot load {path}")
    module = importlib.util.module_from_spec(module_spec)
    try:
        module_spec.loader.exec_module(module)
    except Exception as exc:  # the outside file is someone else's code
        raise SeatError(f"{spec}: loading {path} failed: {exc!r}") from exc
    function = getattr(module, name, None)
    if not callable(function):
        raise SeatError(f"{spec}: {path} has no function {name}")
    return function


def player(name: str) -> Player:
    """A seat's move function: (view, rng) -> move."""
    key = seat(name)
    if key in bots.LEVELS:
        return partial(bots.choose, level=key)
    if key in opponents.OPPONENTS or key in opponents.SEARCHERS:
        return partial(opponents.choose, level=key)
    function = _outside(key)

    def outside(view: dict[str, Any], rng: random.Random) -> int:
        answer = function(dict(view))
        if isinstance(answer, bool) or answer not in (Move.NEHMEN, Move.NEIN_DANKE):
            raise SeatError(f"{key} answered {answer!r}: a bot answers 1 (take) or 0 (pass)")
        return int(answer)

    return outside


def deal_orders(seed: int, deal: int, rounds: int) -> list[list[int]]:
    """Each round's lots in drum order (the first `removed` fly out) for one deal."""
    rng = random.Random(f"speedtombola-deal-{seed}-{deal}")
    return [rng.sample(ALL_LOTS, len(ALL_LOTS)) for _ in range(rounds)]


def play(
    levels: Sequence[str], deal: tuple[int, int], bot_seed: int, params: Mapping[str, Any]
) -> tuple[list[int], list[float]]:
    """One match, `levels[s]` playing seat s on the deal's drums: (places, match points)."""
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
        try:
            move = players[s](state.view(s), rng=rng)
            state.apply_action(move)
        except (SeatError, IllegalActionError) as exc:
            raise SeatError(f"seat {s + 1} ({levels[s]}): {exc}") from None
    return state.places(), [float(p) for p in state.match_points]
