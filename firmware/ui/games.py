"""The games the box offers in its menu: seats, computer levels, house rules, first screen."""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .screen import Screen


@dataclass(frozen=True)
class HouseRule:
    """A game parameter chosen before the start, remembered as a setting."""

    param: str
    label: str
    options: tuple[Any, ...]
    setting: str = ""
    """The settings key that remembers the last choice ("" for none)."""

    def label_of(self, value: Any) -> str:
        if isinstance(value, bool):
            return "an" if value else "aus"
        return str(value)


@dataclass(frozen=True)
class GameSetup:
    """How the menu sets up a game and which screen plays it."""

    name: str
    title: str
    min_seats: int
    max_seats: int
    levels: tuple[str, ...] = ()
    """Computer levels a seat may take ("" none: no computer players)."""
    house_rules: tuple[HouseRule, ...] = field(default_factory=tuple)
    screen: str = ""
    """"module:function" with function(app, session) -> Screen, the game's first screen."""
    needs_seats: bool = True
    variants: tuple[GameSetup, ...] = ()
    """Ways to play the same game (e.g. digital or on paper); the menu asks first."""
    game: str = ""
    """The game's registry name when it differs from `name` (a variant's setup)."""
    begin: str = ""
    """Optional "module:function" with function(app, params, seats): a game that asks for
    options of its own (or completes the parameters) before its record is started; it
    calls `menus.launch` when ready. Without it the setup flow launches at once."""

    @property
    def game_name(self) -> str:
        return self.game or self.name

    def start_screen(self) -> Callable[[Any, Any], Screen]:
        return _load(self.screen)

    def begin_hook(self) -> Callable[[Any, dict[str, Any], list[Any]], None] | None:
        return _load(self.begin) if self.begin else None


def _load(target: str) -> Any:
    module, _, func = target.partition(":")
    return getattr(importlib.import_module(module), func)


@dataclass(frozen=True)
class NamedHouseRule(HouseRule):
    """A house rule whose options the menu shows by their German names."""

    names: tuple[str, ...] = ()

    def label_of(self, value: Any) -> str:
        return self.names[self.options.index(value)] if value in self.options else str(value)


SETUPS: dict[str, GameSetup] = {
    s.name: s
    for s in (
        GameSetup(
            name="speedtombola",
            title="Speedtombola",
            min_seats=3,
            max_seats=7,
            levels=("leicht", "normal", "stark"),
            house_rules=(
                HouseRule("removed", "Lose raus", (9, 6, 12), "speedtombola.removed"),
                HouseRule("rounds", "Runden", (1, 3, 5), "speedtombola.rounds"),
            ),
            screen="spielleiter.ui.speedtombola:start",
        ),
        GameSetup(
            name="besenbingo",
            title="Besenbingo",
            min_seats=1,
            max_seats=9,
            screen="spielleiter.ui.besenbingo:start",
            variants=(
                GameSetup(
                    name="besenbingo.digital",
                    game="besenbingo",
                    title="Digital",
                    min_seats=1,
                    max_seats=9,
                    levels=("leicht", "normal", "stark"),
                    screen="spielleiter.ui.besenbingo:start",
                    begin="spielleiter.ui.besenbingo:begin",
                ),
                GameSetup(
                    name="besenbingo.papier",
                    game="besenbingo",
                    title="Papier (Spielleiter)",
                    min_seats=1,
                    max_seats=1,
                    needs_seats=False,
                    screen="spielleiter.ui.besenbingo:start",
                    begin="spielleiter.ui.besenbingo:begin_paper",
                ),
            ),
        ),
        GameSetup(
            name="maskenball",
            title="Maskenball der Käfer",
            min_seats=1,
            max_seats=1,
            house_rules=(
                HouseRule("players", "Spieler", (2, 3, 4, 5, 6, 7, 8, 1), "maskenball.players"),
                NamedHouseRule(
                    "mode", "Magnete", ("digital", "physical"), "maskenball.mode", ("Box", "echt")
                ),
            ),
            screen="spielleiter.ui.maskenball:start",
            begin="spielleiter.ui.maskenball:begin",
            needs_seats=False,
        ),
    )
}


def available() -> list[GameSetup]:
    """The games whose screens are installed, in menu order."""
    found = []
    for setup in SETUPS.values():
        module = setup.screen.partition(":")[0]
        if importlib.util.find_spec(module) is not None:
            found.append(setup)
    return found
