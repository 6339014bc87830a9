"""Which games exist, by name; each game module is imported only when asked for."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from .base import Game

GAMES: dict[str, str] = {
    # name -> "module:GameClass"; a game joins the device by one line here.
    "besenbingo": "spielleiter.games.besenbingo.rules:BesenbingoGame",
    "maskenball": "spielleiter.games.maskenball.rules:MaskenballGame",
    "speedtombola": "spielleiter.games.speedtombola.rules:SpeedtombolaGame",
}


def names() -> list[str]:
    """The registered game names, in menu order."""
    return list(GAMES)


def game_class(name: str) -> type[Game]:
    """The Game subclass registered under `name` (KeyError for an unknown game)."""
    try:
        target = GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(GAMES)}") from None
    module, _, cls = target.partition(":")
    return getattr(importlib.import_module(module), cls)


def make(name: str, params: Mapping[str, Any] | None = None) -> Game:
    """A game object with the given parameters (defaults for the rest)."""
    return game_class(name)(params)
