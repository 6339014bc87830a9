"""Every registered game keeps the game contract (OpenSpiel's generic simulation test).

New games join automatically: the tests are parametrized over the catalog.
"""

from __future__ import annotations

import json
import random

import pytest
from spielleiter.games import catalog
from spielleiter.games.base import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalActionError,
    ParameterError,
    Seat,
    State,
    replay,
    sample_chance,
)
from spielleiter.games.bungee.info import HOUSE_RULES
from spielleiter.records import Record

GAMES = catalog.names()
SEEDS = (1, 2, 3, 4, 5)


def game_of(name: str) -> Game:
    """The game at its default parameters."""
    return catalog.make(name)


def length_limit(game: Game) -> int:
    return game.info.practical_length or game.info.max_game_length


def play_random(game: Game, rng: random.Random, check: bool = False) -> State:
    """A random game to its end: chance from `rng`, players pick uniformly from their actions."""
    state = game.new_initial_state()
    limit = length_limit(game)
    while not state.is_terminal():
        assert len(state.history()) <= limit, f"no end after {limit} actions"
        if check:
            check_position(state)
        state.apply_action(random_action(state, rng))
    return state


def random_action(state: State, rng: random.Random) -> int:
    """A chance outcome drawn from `rng`, or a uniformly chosen legal action."""
    if state.is_chance_node():
        return sample_chance(state, rng)
    return rng.choice(state.legal_actions())


def check_position(state: State) -> None:
    """What must hold at every position before the end."""
    player = state.current_player()
    assert player == CHANCE or 0 <= player < state.game.num_players
    actions = state.legal_actions()
    assert actions, "no legal action before the end"
    assert actions == sorted(set(actions)), "legal actions must be sorted and unique"
    if player == CHANCE:
        outcomes = state.chance_outcomes()
        assert sorted(o for o, _ in outcomes) == actions
        assert all(p > 0 for _, p in outcomes)
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)


def same_position(a: State, b: State) -> bool:
    """Two states agree on history, whose move, every seat's view and the returns."""
    seats = range(a.game.num_players)
    return (
        a.history() == b.history()
        and a.current_player() == b.current_player()
        and all(a.view(s) == b.view(s) for s in seats)
        and a.returns() == b.returns()
    )


@pytest.mark.parametrize("name", GAMES)
def test_random_games_keep_the_contract_and_end_in_time(name: str) -> None:
    game = game_of(name)
    for seed in SEEDS:
        state = play_random(game, random.Random(seed), check=True)
        assert state.current_player() == TERMINAL
        assert state.legal_actions() == []
        assert len(state.history()) <= length_limit(game)
        returns = state.returns()
        assert len(returns) == game.num_players
        assert all(game.info.min_utility <= r <= game.info.max_utility for r in returns)


@pytest.mark.parametrize("name", GAMES)
def test_replaying_the_history_reproduces_the_state(name: str) -> None:
    game = game_of(name)
    rng = random.Random(11)
    state = game.new_initial_state()
    while not state.is_terminal():
        if len(state.history()) % 7 == 0:
            assert same_position(replay(game, state.history()), state)
        state.apply_action(random_action(state, rng))
    assert same_position(replay(game, state.history()), state)


@pytest.mark.parametrize("name", GAMES)
def test_a_clone_is_equal_and_independent(name: str) -> None:
    game = game_of(name)
    rng = random.Random(5)
    state = game.new_initial_state()
    for _ in range(10):
        if state.is_terminal():
            break
        state.apply_action(random_action(state, rng))
    twin = state.clone()
    assert same_position(twin, state)
    before = state.history()
    while not twin.is_terminal():
        twin.apply_action(random_action(twin, rng))
    assert state.history() == before
    assert same_position(state, replay(game, before))


@pytest.mark.parametrize("name", GAMES)
def test_a_record_survives_json_and_replays_to_the_same_returns(name: str) -> None:
    game = game_of(name)
    state = play_random(game, random.Random(7))
    record = Record(
        game=name,
        params=dict(game.params),
        seats=[Seat(f"Spieler {i + 1}") for i in range(game.num_players)],
        actions=state.history(),
        meta={"note": "test"},
    )
    again = Record.loads(json.dumps(json.loads(record.dumps())))
    assert again.to_json() == json.loads(record.dumps())
    replayed = again.replay()
    assert replayed.is_terminal()
    assert replayed.returns() == state.returns()


@pytest.mark.parametrize("name", GAMES)
def test_the_same_seed_gives_the_same_record_whatever_the_global_random(name: str) -> None:
    game = game_of(name)
    random.seed(1)
    first = play_random(game, random.Random(42)).history()
    random.seed(99999)
    random.random()
    second = play_random(game, random.Random(42)).history()
    assert first == second


@pytest.mark.parametrize("name", GAMES)
def test_an_illegal_action_raises_and_changes_nothing(name: str) -> None:
    game = game_of(name)
    rng = random.Random(3)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 20:
        legal = set(state.legal_actions())
        illegal = next(a for a in range(-1, max(legal) + 2) if a not in legal)
        before = state.clone()
        with pytest.raises(IllegalActionError):
            state.apply_action(illegal)
        assert same_position(state, before)
        checked += 1
        state.apply_action(random_action(state, rng))
    end = play_random(game, rng)
    with pytest.raises(IllegalActionError):
        end.apply_action(0)


@pytest.mark.parametrize("name", GAMES)
def test_the_declared_secret_is_chance_no_seat_saw_and_open_at_the_end(name: str) -> None:
    """secret_actions() names positions of chance outcomes, and none once the game is over."""
    game = catalog.make(name)
    rng = random.Random(8)
    state = game.new_initial_state()
    chance_positions: set[int] = set()
    seen_secret = False
    while not state.is_terminal():
        secret = state.secret_actions()
        assert set(secret) <= chance_positions, "only chance outcomes are secret"
        seen_secret = seen_secret or bool(secret)
        if state.is_chance_node():
            chance_positions.add(len(state.history()))
        state.apply_action(random_action(state, rng))
    assert state.secret_actions() == []
    assert seen_secret == bool(catalog.entry(name).secret)


@pytest.mark.parametrize("name", GAMES)
def test_a_player_count_outside_the_game_is_refused_naming_players(name: str) -> None:
    cls = type(catalog.make(name))
    info = cls.info
    for players in (info.min_players - 1, info.max_players + 1, True, "3", 2.0):
        with pytest.raises(ParameterError, match=f"^{name}: players "):
            cls({"players": players})
    assert cls({"players": info.min_players}).num_players == info.min_players


REFUSED = {
    "speedtombola": [{"removed": 5}, {"rounds": 2}, {"first_seat": 3}, {"rounds": "1"}],
    "bungee": [{"rounds": 13}, {"mode": "x"}, {"first_dealer": 9}, {"rounds": 1.0},
               {next(iter(HOUSE_RULES)): 1}],
    "engel-bengel": [{"chips": -1}, {"end": "x"}, {"start": "x"}, {"shuffle": 1},
                     {"faces": "x"}, {"faces": ["nope"]}],
    "maskenball": [{"mode": "x"}, {"sector_probabilities": [1.0]}, {"vine": 9},
                   {"sector_probabilities": [0.5] * 8}],
    "besenbingo": [{"templates": ["x"]}, {"templates": ["nope", "nope"]}, {"templates": [{}, {}]},
                   {"templates": ["Hexentanz", "Hexentanz"]}],
}  # fmt: skip


@pytest.mark.parametrize("name", GAMES)
def test_every_refusal_of_parameters_is_a_text_the_laptop_translates(name: str) -> None:
    """Unknown keys and each rule's refusal name the game and are a `texts.T` text (the
    laptop says it in German, docs/protocol.md), never plain English prose."""
    from spielleiter.texts import text_of

    cls = type(catalog.make(name))
    for params in [{"colour": "rot"}, *REFUSED[name]]:
        with pytest.raises(ParameterError, match=f"^{name}: ") as caught:
            cls({**cls.default_params(), **params})
        assert text_of(caught.value) is not None, (params, str(caught.value))
