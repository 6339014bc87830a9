"""Whole Bungee games between computers, for the host's tournaments (offline).

A deal fixes each round's card order (the deal, the lucky card, the draws, and the
order of every reshuffled pile), so every seat rotation meets the same luck.

A seat is a computer level (leicht, normal, stark), a test opponent (opponents.OPPONENTS),
or your own bot: "PATH.py:FUNCTION", a function that gets its seat's view (the keys of
BungeeState.view, and `legal`: its moves now) and answers one of `view["legal"]`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from spielleiter.games import outside
from spielleiter.games.bungee import bots, opponents
from spielleiter.games.bungee.rules import BUNGEE, DECK, BungeeGame, BungeeState, Phase

Player = Callable[..., int]


def seat(name: str) -> str:
    """The seat's canonical name (levels case-insensitive); SeatError names an unknown one."""
    return outside.seat_of(name, bots, opponents)


def player(name: str) -> Player:
    """A seat's move function: (view, rng) -> move; an outside bot's view has `legal`."""
    return outside.player_of(name, bots, opponents)


class Shuffler:
    """The chance of one deal: each round's deck order, each reshuffle's order."""

    def __init__(self, seed: int, deal: int) -> None:
        self.seed, self.deal = seed, deal
        self.round = -1
        self.order: list[int] = []
        self.reshuffles = 0

    def next_card(self, state: BungeeState) -> int:
        """The chance outcome the state asks for, from this deal's order."""
        if state.round_index != self.round:
            self.round, self.reshuffles = state.round_index, 0
            rng = random.Random(f"bungee-deal-{self.seed}-{self.deal}-{self.round}")
            self.order = [f for f, c in DECK.items() for _ in range(c)]
            rng.shuffle(self.order)
        if state.reshuffles != self.reshuffles:
            self.reshuffles = state.reshuffles
            rng = random.Random(
                f"bungee-deal-{self.seed}-{self.deal}-{self.round}-{self.reshuffles}"
            )
            self.order = [f for f in range(1, BUNGEE + 1) for _ in range(state.pile[f])]
            rng.shuffle(self.order)
        if state.phase == Phase.LUCKY:
            at = next(i for i, f in enumerate(self.order) if f != BUNGEE)
            return self.order.pop(at)
        return self.order.pop(0)


def play(
    levels: Sequence[str], deal: tuple[int, int], bot_seed: int, params: Mapping[str, Any]
) -> tuple[list[int], list[float]]:
    """One whole game, `levels[s]` playing seat s on the deal's cards: (places, totals)."""
    game = BungeeGame({**params, "players": len(levels), "mode": "digital"})
    shuffler = Shuffler(*deal)
    players = [player(level) for level in levels]
    state = game.new_initial_state()
    decision = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(shuffler.next_card(state))
            continue
        seat = state.current_player()
        decision += 1
        rng = random.Random(bot_seed * 1_000_003 + decision)
        view = {**state.view(seat), "legal": state.legal_actions()}
        try:
            state.apply_action(players[seat](view, rng=rng))
        except outside.SeatError as exc:
            raise outside.seat_failed(seat, levels[seat], exc) from None
    return state.places(), [float(p) for p in state.totals]
