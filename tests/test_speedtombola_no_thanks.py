"""Speedtombola agrees with an independent No Thanks! implementation (PyPI `no-thanks`).

`no-thanks` counts its score with the opposite sign and removes only 7 cards in its
own deal, so its draw pile is set directly to the lots our engine drew.
"""

from __future__ import annotations

import random
from collections import deque

import pytest

no_thanks_core = pytest.importorskip("no_thanks.core")

from spielleiter.games.base import sample_chance  # noqa: E402
from spielleiter.games.speedtombola.rules import (  # noqa: E402
    ALL_LOTS,
    Move,
    SpeedtombolaGame,
    round_points,
)


class ScriptedPlayer(no_thanks_core.Player):
    """A no-thanks player who replays the decisions our engine saw, in table order."""

    def __init__(self, name: str, script: deque[int]) -> None:
        super().__init__(name)
        self.script = script

    def action(self):  # type: ignore[override]
        move = self.script.popleft()
        return no_thanks_core.Action.TAKE if move == Move.NEHMEN else no_thanks_core.Action.PASS


def reference_score(lots: list[int], groschen: int) -> int:
    player = no_thanks_core.Player("ref")
    player.cards = set(lots)
    player.tokens = groschen
    return player.score


def test_scoring_agrees_on_random_holdings():
    rng = random.Random(11)
    for _ in range(1500):
        lots = rng.sample(ALL_LOTS, rng.randint(0, 20))
        groschen = rng.randint(0, 55)
        assert round_points(lots, groschen) == -reference_score(lots, groschen)


def play_one_round(players: int, removed: int, rng: random.Random):
    """A round of our engine with a random policy: its draws, decisions and result."""
    first_seat = rng.randrange(players)
    game = SpeedtombolaGame({"players": players, "removed": removed, "first_seat": first_seat})
    state = game.new_initial_state()
    draws: list[int] = []
    decisions: list[int] = []
    take_bias = rng.uniform(0.1, 0.6)
    while not state.is_terminal():
        if state.is_chance_node():
            lot = sample_chance(state, rng)
            if len(state.removed_lots) == removed:
                draws.append(lot)
            state.apply_action(lot)
        else:
            legal = state.legal_actions()
            move = Move.NEHMEN if len(legal) == 1 or rng.random() < take_bias else Move.NEIN_DANKE
            decisions.append(move)
            state.apply_action(move)
    return game, draws, decisions, state.results[0]


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_replayed_rounds_agree_with_no_thanks(players):
    rng = random.Random(100 + players)
    for i in range(45):
        game, draws, decisions, result = play_one_round(players, (6, 9, 12)[i % 3], rng)
        script = deque(decisions)
        order = [(result.start_seat + k) % players for k in range(players)]
        table = [ScriptedPlayer(str(seat), script) for seat in order]
        reference = no_thanks_core.Game(table)
        reference.players = tuple(table)
        for player in table:
            player.reset(game=reference, tokens=game.groschen)
        reference.current_player = 0
        reference.tokens_on_card = 0
        reference.draw_pile = list(draws)
        reference.play()
        assert not script
        for player, seat in zip(table, order, strict=True):
            assert sorted(player.cards) == list(result.lots[seat])
            assert player.tokens == result.groschen[seat]
            assert -player.score == result.points[seat]
