"""The catalog lists every game with its facts, and loads a game's rules only when needed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from spielleiter import settings
from spielleiter.games import catalog

HEAVY = (".rules", ".bots", ".sim", ".tips", ".table", ".screens", ".templates", ".faces")
"""A game's modules that the first screen must not load (rules, computers, data)."""

FIRST_FRAME = """
import json, sys
from spielleiter import cli
code = cli.main(sys.argv[1:])
print(json.dumps({
    "code": code,
    "modules": sorted(m for m in sys.modules if m.startswith("spielleiter.games.")),
    "numpy": "numpy" in sys.modules,
}))
"""


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


def test_the_first_screen_loads_no_games_rules_computers_or_data(tmp_path: Path) -> None:
    """The box up to its first frame (a fresh process) imports each game's package and its
    facts only; a game's rules and data come when it is chosen."""
    keys = tmp_path / "empty.keys"
    keys.write_text("")
    argv = [sys.executable, "-c", FIRST_FRAME, "--keys", str(keys), "--display", "none"]
    done = subprocess.run(
        [*argv, "--data", str(tmp_path / "data")], capture_output=True, text=True, check=True
    )
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["code"] == 0
    heavy = [m for m in found["modules"] if m.endswith(HEAVY)]
    assert heavy == []
    assert {f"{e.package}.info" for e in catalog.entries()} <= set(found["modules"])
    assert not found["numpy"]


def test_a_chosen_game_loads_its_rules() -> None:
    entry = catalog.entry("bungee")
    game = entry.make({"players": 3})
    assert type(game).__module__ == f"{entry.package}.rules"
    assert game.info.title == entry.title
