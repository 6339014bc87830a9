"""Besenbingo computer players: legal, from their own view, and as strong as the table says."""

from __future__ import annotations

import json
import random
from importlib import resources

import numpy as np
import pytest
from spielleiter.games.besenbingo.bots import (
    LEVELS,
    SHIPPED_FILE,
    Solver,
    choose,
    play_out,
    shipped_file,
    shipped_values,
    simulate,
)
from spielleiter.games.besenbingo.rules import MINUS, BesenbingoGame, advance
from spielleiter.games.besenbingo.templates import default_templates, validate_template


def play(game: BesenbingoGame, deck: list[int], level: str = "stark", seed: int = 0):
    """A whole Durchgang with the bots at every seat: deck[0] is the silent tower."""
    state = game.new_initial_state()
    cards = iter(deck)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(next(cards))
        else:
            seat = state.current_player()
            state.apply_action(choose(state.view(seat), level=level, rng=random.Random(seed)))
    return state


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_only_legal_moves(level: str) -> None:
    rng = random.Random(3)
    game = BesenbingoGame({"players": 3})
    for _ in range(3):
        deck = rng.sample(range(1, 9), 8)
        state = play(game, deck, level, seed=rng.randrange(1000))
        assert state.is_terminal()


def test_the_bot_decides_from_its_view_alone() -> None:
    game = BesenbingoGame({"players": 2})
    one = play(game, [1, 2, 3, 4, 5, 6, 7, 8])
    other = play(game, [8, 2, 3, 4, 5, 6, 7, 1])  # a different silent tower, same reveals
    assert one.sheets[0].moves == other.sheets[0].moves


def test_the_simulator_agrees_with_the_engine_on_the_same_towers() -> None:
    rng = random.Random(11)
    templates = default_templates()[:3]
    game = BesenbingoGame({"players": 3, "templates": [t.name for t in templates]})
    for _ in range(4):
        deck = rng.sample(range(1, 9), 8)
        state = play(game, deck, seed=5)
        for seat, template in enumerate(templates):
            points, moves = play_out(template, deck[1:], seed=5)
            assert (points, moves) == (state.scores()[seat], list(state.sheets[seat].moves))


def test_the_exact_expectation_matches_simulated_games() -> None:
    template = default_templates()[4]
    scores = simulate(template, 400, seed=2)
    expected = Solver.of(template).expected_score()
    error = scores.std(ddof=1) / np.sqrt(len(scores))
    assert abs(scores.mean() - expected) < 4 * error


def test_the_exact_greedy_expectation_matches_games_of_the_level_normal() -> None:
    template = default_templates()[2]
    game = BesenbingoGame({"players": 1, "templates": [template.name]})
    rng = random.Random(8)
    scores = [
        play(game, rng.sample(range(1, 9), 8), "normal", seed=rng.randrange(10**6)).scores()[0]
        for _ in range(300)
    ]
    error = np.std(scores, ddof=1) / np.sqrt(len(scores))
    assert abs(np.mean(scores) - Solver.of(template).greedy_score()) < 4 * error
    assert Solver.of(template).greedy_score() < Solver.of(template).expected_score()


def test_stark_beats_normal_and_leicht_on_average() -> None:
    rng = random.Random(5)
    game = BesenbingoGame({"players": 2})
    totals = dict.fromkeys(LEVELS, 0)
    for _ in range(15):
        deck = rng.sample(range(1, 9), 8)
        for level in LEVELS:
            totals[level] += sum(play(game, deck, level, seed=1).scores())
    assert totals["stark"] >= totals["normal"] >= totals["leicht"]


def test_an_unknown_level_is_refused() -> None:
    state = BesenbingoGame({"players": 1}).new_initial_state()
    state.apply_action(1)
    state.apply_action(2)
    with pytest.raises(ValueError, match="unknown level"):
        choose(state.view(0), level="gemein", rng=random.Random(0))


def test_the_shipped_stark_tables_are_what_the_solver_computes() -> None:
    """data/stark.json cannot go stale: every default template's top of the table, computed
    here in full, equals the shipped one (tools/besenbingo_tables.py writes it again)."""
    templates = default_templates()
    shipped = json.loads(
        resources.files("spielleiter.games.besenbingo").joinpath("data", SHIPPED_FILE).read_text()
    )
    assert shipped == shipped_file(templates)
    assert [t["name"] for t in shipped["templates"]] == [t.name for t in templates]
    assert all(Solver(t).prepared and not Solver(t, shipped=False).prepared for t in templates)


def test_an_uploaded_template_has_no_shipped_table() -> None:
    own = validate_template(dict(default_templates()[0].to_json(), name="Eigene"))
    assert shipped_values(own) == {} and shipped_values(default_templates()[0])


def test_stark_decides_the_same_with_the_shipped_table_as_with_a_built_one() -> None:
    rng = random.Random(21)
    for template in default_templates()[:4]:
        built, shipped = Solver(template, shipped=False), Solver(template)
        built.expected_score()
        for _ in range(5):
            deck = rng.sample(range(1, 9), 8)
            crossed, progress, revealed = 0, (0, 0, 0, 0, 0), []
            for tower in deck[1:]:
                revealed.append(tower)
                best = built.best_move(revealed, crossed, progress)
                assert shipped.best_move(revealed, crossed, progress) == best
                action = best[0]
                if action != MINUS:
                    crossed |= 1 << (action // 4)
                progress = advance(progress, action)
