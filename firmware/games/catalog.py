"""The one list of games: each line names a game package; everything else reads its entry.

A game declares its facts once, in its package's ``ENTRY`` (a :class:`GameEntry`): the
rules, the table (the flow of a match), the screens, seat counts and computer levels,
house rules, settings, boards, what stays secret while it runs, what its Bestenliste
means and what leaving costs. Settings, the setup menu, the link and the host tool read
them here; nothing else in the program is keyed by a game's name.

An entry names its rules, table and screens as "module:attr" and loads each when it is
first needed: listing the games, their settings and their facts (the `info` of the
game's small ``info`` module, which the rules share) loads no rule engine, no computer
and no data, so the box's first screen does not wait for every game.

Adding a game is a new package under ``games/`` plus one line in :data:`PACKAGES`.

    >>> [e.id for e in entries()][:3]
    ['speedtombola', 'besenbingo', 'maskenball']
    >>> entry("speedtombola").title
    'Speedtombola'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ..texts import T
from .base import Game, GameInfo, ranks

__all__ = [
    "GameEntry", "HouseRule", "Option", "Sheets", "T", "Variant", "entries", "entry", "make",
    "names", "ranks",
]  # fmt: skip

PACKAGES: tuple[str, ...] = (
    "speedtombola",
    "besenbingo",
    "maskenball",
    "bungee",
    "engel_bengel",
)
"""The games in menu order: one line per game package under ``spielleiter.games``."""


class UnknownGame(KeyError):
    """A game id that the catalog does not list."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown game"


@dataclass(frozen=True)
class Option:
    """A setting a game adds to the box's settings (key without the game's prefix).

    Exactly one of `choices`, `bounds` or a bool default says what is valid.
    """

    name: str
    default: Any
    help: str
    """What the setting means, in English, written with T (the laptop's `settings get`
    says it in its language)."""
    choices: tuple[Any, ...] = ()
    bounds: tuple[int, int] | None = None

    def problem(self, value: Any) -> str | None:
        """Why `value` is not valid for this option (None when it is), as a text the laptop
        says in its language (the same words as the box's own settings)."""
        if isinstance(self.default, bool):
            return None if isinstance(value, bool) else T("must be true or false")
        if self.choices:
            if isinstance(value, bool) or value not in self.choices:
                return T("must be one of {choices}", choices=", ".join(map(str, self.choices)))
            return None
        if self.bounds is not None:
            lo, hi = self.bounds
            if isinstance(value, bool) or not isinstance(value, int):
                return T("must be a whole number from {low} to {high}", low=lo, high=hi)
            if lo <= value <= hi:
                return None
            return T("must be from {low} to {high}, not {value}", low=lo, high=hi, value=value)
        return None


@dataclass(frozen=True)
class HouseRule:
    """A game parameter chosen in the setup menu before the start.

    The first option is the game's default for the parameter. The last choice is
    remembered in the setting ``<game>.<setting>`` (one of the game's options) when
    `setting` is given.
    """

    param: str
    label: str
    options: tuple[Any, ...]
    setting: str = ""
    names: tuple[str, ...] = ()
    """German names of the options, shown instead of the values (same order)."""

    def label_of(self, value: Any) -> str:
        if self.names and value in self.options:
            return self.names[self.options.index(value)]
        if isinstance(value, bool):
            return "an" if value else "aus"
        return str(value)


@dataclass(frozen=True)
class Variant:
    """A way to play a game that the menu asks for first (e.g. digital or on paper)."""

    name: str
    title: str
    min_seats: int
    max_seats: int
    levels: tuple[str, ...] = ()
    needs_seats: bool = True
    params: Mapping[str, Any] = field(default_factory=dict)
    """Parameters and meta this variant fixes (merged into the setup's choices)."""


def N_(text: str) -> str:
    """Mark an English text that only the laptop tool shows (a `print` help text) for its
    German catalog: `make messages` finds it here, spielleiter-host translates it where it
    shows it. The box shows none of these."""
    return text


@dataclass(frozen=True)
class Sheets:
    """A game's print-and-play pages: `spielleiter-host print GAME --out PDF` renders them.

    The pages are drawing commands (:mod:`spielleiter.games.drawing`), so the game needs no
    PDF library and the laptop tool knows no game's pages."""

    draw: str
    """"module:function" `(boards, metrics) -> Drawing`: the pages for `boards` (the game's
    boards as `parse` returns them; None: the shipped ones), laid out by `metrics`."""
    help: str
    """What the pages hold, for `print --help` ("every board face on A4, two a page"),
    in English, marked with N_ (the laptop tool translates it)."""
    files: str = ""
    """The option that names board files to print instead of the shipped boards
    ("template": `--template FILE ...`); "" when there is none."""
    files_help: str = ""
    parse: str = ""
    """"module:function" `(data) -> board`: one board read from such a file (a ValueError
    with `path` and `message` where it is not valid)."""
    single_key: str = ""
    """A key only a single board has, so a file's object with it is one board, not
    {name: board} ("grid")."""


@dataclass(frozen=True)
class GameEntry:
    """Everything the platform knows of one game."""

    id: str
    """The game's name in records, settings keys, boards and the link."""
    info: GameInfo
    """The game's facts (title, seat counts, bounds): the `Game` subclass's own `info`."""
    game: str
    """"module:Class" of the game's rules (its `Game` subclass)."""
    table: str
    """"module:Class" (relative to the package) of the game's Table."""
    screens: str
    """"module:function" of `start(app, table) -> Screen`, the game's first screen."""
    levels: tuple[str, ...] = ()
    """Computer levels a seat may take (none: no computer players)."""
    house_rules: tuple[HouseRule, ...] = ()
    variants: tuple[Variant, ...] = ()
    needs_seats: bool = True
    """False: the table plays as one ("Tisch"), the menu asks for no seats."""
    options: tuple[Option, ...] = ()
    """The game's own settings, stored as ``<id>.<name>``."""
    boards: str = ""
    """"module:validate:defaults" for a game with boards or templates ("" for none)."""
    board_twin: str = ""
    """Optional "module:function" `(board, others) -> name | None`: the name of one of the
    game's boards (`others`, name -> data) that plays the same game as `board` though
    they differ (a template rotated or renamed); an upload of one is refused. A copy
    that differs only in its name is refused for every game."""
    setup: str = ""
    """Optional "module:function" `(app, params, seats, variant)`: the game asks for options
    of its own (or completes its parameters) before the record starts."""
    settings_items: str = ""
    """Optional "module:function" `(app) -> list[Item]`: entries of the settings menu."""
    arena: str = ""
    """Optional "module:function" `play(levels, deal, bot_seed, params) -> (places, points)`:
    one whole game between computers, for the host's tournaments (deal = (seed, index)
    fixes the chance every seat rotation meets)."""
    replay: str = ""
    """Optional "module:function" `(record) -> str`: a record as text for the host's replay."""
    sheets: Sheets | None = None
    """The game's print-and-play pages, if it has any."""
    laptop: str = ""
    """Optional "module:function" `(where, subparsers)`: the game's own commands of the
    laptop tool (offline tools for its boards, say), added to `spielleiter-host` itself
    (`where` "commands") or under `spielleiter-host boards` ("boards")."""
    help: tuple[str, ...] = ()
    """Pages of help on the box (German): the short rules and what each key does."""
    advice: str = ""
    """What advice the box offers a human (Rat, tips); "" for none. The table's `advice()`."""
    secret: str = ""
    """What no seat may see while a match runs (the link never gives it out before the end)."""
    bestenliste: str = ""
    """What a Bestenliste line of this game means (shown in docs and by the host tool), in
    English, written with T (the laptop's `leaderboard` says it in its language)."""
    bestenliste_lowest_first: bool = False
    """The game's Bestenliste points count against you (fewest first: a total of points)."""
    leave: str = ""
    """What leaving a running match costs."""
    leave_penalty: int = 0
    """Bestenliste points of a human who leaves while other humans stay (0: none)."""

    @property
    def title(self) -> str:
        return self.info.title

    @property
    def min_seats(self) -> int:
        return self.info.min_players

    @property
    def max_seats(self) -> int:
        return self.info.max_players

    @property
    def package(self) -> str:
        return f"{__package__}.{self.id.replace('-', '_')}"

    def load(self, target: str) -> Any:
        """An attribute named "module:attr" inside the game's package."""
        module, _, attr = target.partition(":")
        return getattr(importlib.import_module(f"{self.package}.{module}"), attr)

    def game_class(self) -> type[Game]:
        """The game's `Game` subclass (its rules are imported on the first call)."""
        found: type[Game] = self.load(self.game)
        return found

    def make(self, params: Mapping[str, Any] | None = None) -> Game:
        """A game object with the given parameters (defaults for the rest)."""
        return self.game_class()(params)

    def table_class(self) -> type[Any]:
        return self.load(self.table)

    def start_screen(self) -> Callable[..., Any]:
        return self.load(self.screens)

    def setup_hook(self) -> Callable[..., None] | None:
        return self.load(self.setup) if self.setup else None

    def board_functions(self) -> tuple[Callable[[Any], None], Callable[[], dict[str, Any]]] | None:
        """(validate, defaults) of the game's boards, None when it has none."""
        if not self.boards:
            return None
        module, validate, defaults = self.boards.split(":")
        return self.load(f"{module}:{validate}"), self.load(f"{module}:{defaults}")

    def settings(self) -> tuple[Option, ...]:
        """Every setting of the game: its options, and one per remembered house rule (its
        default the rule's first option, which is the game's own parameter default, its
        values the rule's options)."""
        derived = tuple(
            Option(
                rule.setting,
                rule.options[0],
                T('the last choice of "{label}" in the setup', label=rule.label),
                choices=rule.options,
            )
            for rule in self.house_rules
            if rule.setting and all(o.name != rule.setting for o in self.options)
        )
        return self.options + derived

    def setting(self, name: str) -> str:
        """The settings key of one of the game's options."""
        return f"{self.id}.{name}"

    def remembered(self, settings: Mapping[str, Any], rule: HouseRule) -> Any:
        """The house rule's last choice (the first option when none is remembered)."""
        value = settings.get(self.setting(rule.setting)) if rule.setting else None
        return value if value in rule.options else rule.options[0]


@cache
def _load(package: str) -> GameEntry:
    module = importlib.import_module(f"{__package__}.{package}")
    found = getattr(module, "ENTRY", None)
    if not isinstance(found, GameEntry):
        raise TypeError(f"{module.__name__} declares no ENTRY = GameEntry(...)")
    return found


def entries() -> list[GameEntry]:
    """Every game, in menu order."""
    return [_load(p) for p in PACKAGES]


def names() -> list[str]:
    """Every game's id, in menu order."""
    return [e.id for e in entries()]


def entry(game: str) -> GameEntry:
    """The entry of a game id (UnknownGame names the known ones)."""
    for found in entries():
        if found.id == game:
            return found
    import difflib  # only for a mistyped name: not at the start

    close = difflib.get_close_matches(str(game), names(), n=1, cutoff=0.6)
    hint = f" (did you mean {close[0]}?)" if close else ""
    raise UnknownGame(f"unknown game {game!r}{hint}; known: {', '.join(names())}")


def make(game: str, params: Mapping[str, Any] | None = None) -> Game:
    """A game object by id with the given parameters."""
    return entry(game).make(params)
