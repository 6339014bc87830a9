"""The catalog lists every game with its facts, and loads a game's rules only when needed
(tests/test_first_frame.py: the first screen loads none)."""

from __future__ import annotations

from spielleiter import settings
from spielleiter.games import catalog


def test_every_game_is_listed_with_its_facts() -> None:
    for entry in catalog.entries():
        game = entry.game_class()
        assert entry.info is game.info and entry.title == game.info.title, entry.id
        assert (entry.min_seats, entry.max_seats) == (game.info.min_players, game.info.max_players)
        assert entry.make().params == game.default_params(), entry.id
    assert catalog.names() == [e.id for e in catalog.entries()] == [
        "speedtombola", "besenbingo", "maskenball", "bungee", "engel-bengel",
    ]  # fmt: skip


def test_a_house_rules_first_option_is_the_games_default() -> None:
    """The remembered house rules' settings default to the first option (the catalog reads
    no rules for them), which must be what the game itself takes by default."""
    for entry in catalog.entries():
        defaults = entry.game_class().default_params()
        for rule in entry.house_rules:
            if rule.param in defaults:
                assert rule.options[0] == defaults[rule.param], (entry.id, rule.param)
            if rule.setting:
                key = entry.setting(rule.setting)
                assert settings.SETTINGS[key].default in rule.options, key


def test_a_chosen_game_loads_its_rules() -> None:
    entry = catalog.entry("bungee")
    game = entry.make({"players": 3})
    assert type(game).__module__ == f"{entry.package}.rules"
    assert game.info.title == entry.title
