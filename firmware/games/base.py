"""The game contract every rule engine follows (OpenSpiel's vocabulary).

A game is its parameters; a state is reached from the initial state by a list of
actions, chance included. That list is the record: resume, replay, export and
test fixtures are one mechanism. Engines are pure: no I/O, no clock, no global
random. Chance outcomes are supplied from outside (a seeded generator or a sensor).

Example::

    >>> from spielleiter.games import catalog
    >>> game = catalog.make("speedtombola", {"players": 3})
    >>> state = game.new_initial_state()
    >>> state.current_player() == CHANCE
    True
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from spielleiter.texts import T, Text

if TYPE_CHECKING:
    import random

CHANCE = -1
"""current_player() while nature moves (a draw, a roll, a spin)."""
TERMINAL = -4
"""current_player() once the game is over."""
SIMULTANEOUS = -2
"""current_player() where every seat decides at once (not used by the five games yet)."""


class IllegalActionError(ValueError):
    """An action that the rules do not allow in this state; the message says why, in the
    players' words (German)."""


GAME_OVER = "Das Spiel ist vorbei."
"""Why no action is legal once the game is over."""


@dataclass(frozen=True)
class Tip:
    """A game's hint ("Tipp") for the human to move: what Stark would do and why, in
    plain German. Advice only: computed on a seat's view, it never changes the deal."""

    action: int
    """The move the hint gives (what "Machen" plays)."""
    what: str
    """The move in words ("Walpurga mit Katze, Reihe Paar")."""
    why: str
    """Why, from the numbers behind it, in a sentence or two."""


class ParameterError(ValueError):
    """Game parameters that the rules do not allow (e.g. too many seats)."""


def refused(game: str, key: str, why: Text) -> ParameterError:
    """The rules' refusal of parameter `key`, `why` in the words the box's settings refuse
    a value with (one text each in the laptop's catalog): see `one_of`, `whole_number`."""
    return ParameterError(T("{game}: {key} {why}", game=game, key=key, why=why))


def one_of(choices: Iterable[Any]) -> Text:
    """Why a value outside `choices` is refused (the settings' words)."""
    return T("must be one of {choices}", choices=", ".join(str(c) for c in choices))


def whole_number(least: int, most: int) -> Text:
    """Why a value that is no whole number from least to most is refused."""
    return T("must be a whole number from {low} to {high}", low=least, high=most)


@dataclass(frozen=True)
class GameInfo:
    """The facts a game declares once (OpenSpiel's GameType + GameInfo)."""

    name: str
    title: str
    min_players: int
    max_players: int
    min_utility: float
    max_utility: float
    max_game_length: int
    """An upper bound on the number of actions (chance included) of one game."""
    practical_length: int = 0
    """The length random test games must stay within (0: use max_game_length)."""
    rule_text: str = ""
    """File name of the rule text in shared/rules/."""
    bot_version: int = 1
    """The version of the game's computer players: raise it when a change to them changes
    how they play. Each record keeps the version it started with (meta ``bot_version``),
    and the ratings rate a computer level per version (docs/ratings.md)."""


class Game(ABC):
    """A game with its parameters; makes initial states."""

    info: GameInfo

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        self.params: dict[str, Any] = dict(self.default_params())
        unknown = set(params or {}) - set(self.params)
        if unknown:
            raise ParameterError(
                T("{game}: unknown parameter(s) {names}", game=self.info.name,
                  names=", ".join(sorted(unknown)))
            )  # fmt: skip
        self.params.update(params or {})
        self._check_players()
        self.validate_params()

    def _check_players(self) -> None:
        """Every game: `players` is a whole number within the game's info."""
        players, info = self.params.get("players"), self.info
        if (
            not isinstance(players, int)
            or isinstance(players, bool)
            or not info.min_players <= players <= info.max_players
        ):
            raise ParameterError(
                T(
                    "{game}: players must be a whole number from {least} to {most}, not"
                    " {value!r}",
                    game=info.name, least=info.min_players, most=info.max_players,
                    value=players,
                )
            )  # fmt: skip

    @classmethod
    @abstractmethod
    def default_params(cls) -> dict[str, Any]:
        """The parameters and their defaults; every house rule is one of them."""

    def validate_params(self) -> None:
        """Raise ParameterError when the parameters break the rules."""

    @property
    def num_players(self) -> int:
        return int(self.params["players"])

    @abstractmethod
    def new_initial_state(self) -> State:
        """The state before the first action."""

    def action_to_string(self, player: int, action: int) -> str:
        """A short human-readable name for an action (for logs and the Tafel)."""
        return str(action)


class State(ABC):
    """A position in a game. Mutable; clone() before exploring."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._history: list[int] = []

    # --- whose move -------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """A seat (0..players-1), CHANCE or TERMINAL."""

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    # --- moves -----------------------------------------------------------
    @abstractmethod
    def legal_actions(self) -> list[int]:
        """Sorted, unique legal actions of the player to move (chance outcomes at chance nodes)."""

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(outcome, probability) pairs at a chance node; probabilities sum to 1."""
        raise IllegalActionError("not a chance node")

    def apply_action(self, action: int) -> None:
        """Play an action; raises IllegalActionError (state unchanged) when it is not legal."""
        if self.is_terminal():
            raise IllegalActionError(GAME_OVER)
        action = int(action)
        if action not in self.legal_actions():
            raise IllegalActionError(self.explain_illegal(action))
        self._apply(action)
        self._history.append(action)

    def explain_illegal(self, action: int) -> str:
        """Why an action is not legal here, in words a player understands (German, and
        never an action's number: a player does not know the codes)."""
        return "Dieser Zug ist jetzt nicht erlaubt."

    def describe(self, action: int) -> str:
        """An action of the player to move now, in the players' words: the game's
        action_to_string. A game whose chance outcomes read only in their position (the
        code of a roll of so many dice) says more here."""
        return self.game.action_to_string(self.current_player(), action)

    @abstractmethod
    def _apply(self, action: int) -> None:
        """Change the state by a legal action."""

    def history(self) -> list[int]:
        """Every action so far, chance included: the record's action list."""
        return list(self._history)

    # --- results ---------------------------------------------------------
    @abstractmethod
    def returns(self) -> list[float]:
        """Each seat's utility (meaningful at the end; 0s before)."""

    @abstractmethod
    def view(self, seat: int) -> dict[str, Any]:
        """What one seat may know, as plain data: never the hidden chance results."""

    def places(self) -> list[int]:
        """Each seat's place at the end (1 best, ties share: 1, 1, 3): by default by its
        returns(). A game whose places say more than its returns (Engel & Bengel's win
        share leaves every loser second) says so here; the ratings rate by the places."""
        return ranks(self.returns())

    private_view: tuple[str, ...] = ()
    """Keys of view(seat) that only that seat may see (its hand), never in public_view()."""

    def public_view(self) -> dict[str, Any]:
        """What everyone at the table may see: what every seat's view shares (so nothing
        one seat knows alone, nor what is said of the seat itself), without the keys the
        game declares private."""
        views = [self.view(seat) for seat in range(self.game.num_players)]
        return {
            key: value
            for key, value in views[0].items()
            if key not in self.private_view
            and all(key in other and other[key] == value for other in views[1:])
        }

    def secret_actions(self) -> list[int]:
        """Positions in history() of chance outcomes that no seat may know yet (the game's
        declared secret, e.g. removed lots); empty once the game is over."""
        return []

    def clone(self) -> State:
        """An independent copy."""
        import copy

        return copy.deepcopy(self)


def ranks(points: Sequence[float], lower_is_better: bool = False) -> list[int]:
    """Standard competition ranking (1, 1, 3): each value's place among all of them.

    >>> ranks([10, 30, 10])
    [2, 1, 2]
    >>> ranks([4, 9, 4], lower_is_better=True)
    [1, 3, 1]
    """
    sign = -1 if lower_is_better else 1
    return [1 + sum(1 for q in points if sign * q > sign * p) for p in points]


def match_totals(round_points: Iterable[Sequence[int]], num_players: int) -> list[int]:
    """Each seat's points summed over the finished rounds.

    >>> match_totals([[3, 0, 5], [1, 2, 0]], 3)
    [4, 2, 5]
    """
    totals = [0] * num_players
    for points in round_points:
        totals = [a + b for a, b in zip(totals, points, strict=True)]
    return totals


def sample_chance(state: State, rng: random.Random) -> int:
    """Draw a chance outcome of `state` with the given generator (never the global one)."""
    outcomes = state.chance_outcomes()
    r = rng.random()
    acc = 0.0
    for outcome, p in outcomes:
        acc += p
        if r < acc:
            return outcome
    return outcomes[-1][0]


def replay(game: Game, actions: Sequence[int]) -> State:
    """The state reached from the initial state by `actions` (raises on an illegal one)."""
    state = game.new_initial_state()
    for a in actions:
        state.apply_action(a)
    return state


@dataclass
class Seat:
    """Who sits at a seat: a human by name, or a computer by level."""

    name: str
    kind: str = "human"
    """"human" or "computer"."""
    level: str = ""
    """For computers: the bot level (e.g. "leicht", "normal", "stark")."""

    def to_json(self) -> dict[str, str]:
        d = {"name": self.name, "kind": self.kind}
        if self.level:
            d["level"] = self.level
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Seat:
        return cls(
            name=str(d["name"]), kind=str(d.get("kind", "human")), level=str(d.get("level", ""))
        )

    @property
    def is_human(self) -> bool:
        return self.kind == "human"
