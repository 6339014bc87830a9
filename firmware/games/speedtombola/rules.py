"""Speedtombola: the No Thanks! variant of shared/rules/speedtombola.de.txt.

Lots 3..35 lie in the drum; before each round `removed` lots fly out unseen. The open
lot goes round the table: "Nein danke" puts one of your groschen on it, Nehmen takes
the lot with every groschen on it, and the taker draws the next lot and decides first.
A round scores the lowest lot of each Garnitur (run of consecutive lots) minus the
groschen left; fewest points win.

Actions are read by node type: at a chance node an action is a lot number (first the
removed lots, one at a time, then each draw of the open lot); at a seat's node it is a
`Move`. The utility (`returns()`) is minus the match points, so higher is better.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import IntEnum
from typing import Any

from spielleiter.games.base import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalActionError,
    State,
    match_totals,
    one_of,
    ranks,
    refused,
)
from spielleiter.games.speedtombola.info import (
    ALL_LOTS,
    INFO,
    MAX_ROUND_POINTS,
    REMOVED_CHOICES,
    ROUND_CHOICES,
)
from spielleiter.texts import T

PLACE_BONUS = {1: 30, 2: 15, 3: 5}
BESTENLISTE_BASE = 50


class Move(IntEnum):
    """A seat's two choices at the open lot."""

    NEIN_DANKE = 0
    NEHMEN = 1


def groschen_per_player(players: int) -> int:
    """Groschen each player gets at the start of every round: 11 (3-5), 9 (6), 7 (7)."""
    if players <= 5:
        return 11
    return 9 if players == 6 else 7


def garnituren(lots: Iterable[int]) -> list[list[int]]:
    """The runs of consecutive lots, each sorted, lowest run first."""
    runs: list[list[int]] = []
    for lot in sorted(lots):
        if runs and runs[-1][-1] == lot - 1:
            runs[-1].append(lot)
        else:
            runs.append([lot])
    return runs


def lot_points(lots: Iterable[int]) -> int:
    """What the lots count: the lowest lot of each Garnitur, summed."""
    return sum(run[0] for run in garnituren(lots))


def round_points(lots: Iterable[int], groschen: int) -> int:
    """A round's points: the lowest lot of each Garnitur minus the groschen (never clamped)."""
    return lot_points(lots) - groschen


def lot_cost(lots: Iterable[int], lot: int) -> int:
    """How many points `lot` adds to a holding's Garnituren (negative when it joins two)."""
    held = set(lots)
    cost = 0 if lot - 1 in held else lot
    if lot + 1 in held:
        cost -= lot + 1
    return cost


def points_change(lots: Iterable[int], lot: int, pot: int) -> dict[Move, int]:
    """How a seat's points change on each choice: Nehmen costs the lot minus the pot,
    "Nein danke" costs the groschen laid down."""
    return {Move.NEHMEN: lot_cost(lots, lot) - pot, Move.NEIN_DANKE: 1}


def bestenliste_points(round_points_list: Sequence[int], place: int) -> int:
    """Bestenliste points of one match: per round max(0, 50 - points), plus the place bonus."""
    return sum(max(0, BESTENLISTE_BASE - p) for p in round_points_list) + PLACE_BONUS.get(place, 0)


@dataclass(frozen=True)
class Decision:
    """One decision of the match, as every seat saw it: who decided at which lot and pot,
    and the move; with what the lot cost that seat, its groschen and the drum then."""

    round: int
    seat: int
    lot: int
    pot: int
    move: int
    cost: int
    """What the lot cost that seat's Garnituren (lot_cost) when it decided."""
    groschen: int
    drum: int
    """Lots still in the drum (the open lot and the removed ones not counted)."""

    def to_json(self) -> dict[str, int]:
        return {
            "round": self.round, "seat": self.seat, "lot": self.lot, "pot": self.pot,
            "move": self.move, "cost": self.cost, "groschen": self.groschen, "drum": self.drum,
        }  # fmt: skip


@dataclass(frozen=True)
class RoundResult:
    """One finished round as the Tafel shows it."""

    lots: tuple[tuple[int, ...], ...]
    """Each seat's lots, sorted."""
    groschen: tuple[int, ...]
    """Each seat's groschen at the end of the round."""
    removed: tuple[int, ...]
    """The lots that were out of the drum this round, sorted."""
    start_seat: int

    @property
    def garnituren(self) -> list[list[list[int]]]:
        """Each seat's Garnituren; the first lot of each one is the lot that counts."""
        return [garnituren(lots) for lots in self.lots]

    @property
    def points(self) -> list[int]:
        """Each seat's points this round."""
        return [round_points(lots, g) for lots, g in zip(self.lots, self.groschen, strict=True)]

    def to_json(self) -> dict[str, Any]:
        return {
            "lots": [list(x) for x in self.lots],
            "garnituren": self.garnituren,
            "groschen": list(self.groschen),
            "points": self.points,
            "removed": list(self.removed),
            "start_seat": self.start_seat,
        }


class SpeedtombolaGame(Game):
    """Speedtombola with its parameters: players 3..7, removed 6/9/12, rounds 1/3/5."""

    info = INFO

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(params)
        rounds, players = self.rounds, self.num_players
        decisions = (len(ALL_LOTS) - self.removed) * (groschen_per_player(players) * players + 1)
        self.info = replace(
            type(self).info,
            min_utility=-float(MAX_ROUND_POINTS * rounds),
            max_utility=float(groschen_per_player(players) * players * rounds),
            max_game_length=rounds * (len(ALL_LOTS) + decisions),
            practical_length=rounds * 600,
        )

    @classmethod
    def default_params(cls) -> dict[str, Any]:
        return {"players": 3, "removed": 9, "rounds": 1, "first_seat": 0}

    def validate_params(self) -> None:
        p = self.params
        for key in p:
            if not isinstance(p[key], int) or isinstance(p[key], bool):
                raise refused(INFO.name, key, T("must be a whole number"))
        if p["removed"] not in REMOVED_CHOICES:
            raise refused(INFO.name, "removed", one_of(REMOVED_CHOICES))
        if p["rounds"] not in ROUND_CHOICES:
            raise refused(INFO.name, "rounds", one_of(ROUND_CHOICES))
        if not 0 <= p["first_seat"] < p["players"]:
            raise refused(INFO.name, "first_seat", T("must be a seat"))

    @property
    def removed(self) -> int:
        return int(self.params["removed"])

    @property
    def rounds(self) -> int:
        return int(self.params["rounds"])

    @property
    def groschen(self) -> int:
        """Groschen per player per round."""
        return groschen_per_player(self.num_players)

    def new_initial_state(self) -> SpeedtombolaState:
        return SpeedtombolaState(self)

    def action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            return f"Los {action}"
        return "Nehmen" if action == Move.NEHMEN else "Nein danke"


class SpeedtombolaState(State):
    """A position: the round, the drum, the open lot, the pot, each seat's groschen and lots."""

    game: SpeedtombolaGame

    def __init__(self, game: SpeedtombolaGame) -> None:
        super().__init__(game)
        self.round_index = 0
        self.results: list[RoundResult] = []
        self.decisions: list[Decision] = []
        """Every seat decision of the match so far (public: every seat saw it)."""
        self._start_round()

    def _start_round(self) -> None:
        n = self.game.num_players
        self.start_seat = (self.game.params["first_seat"] + self.round_index) % n
        self.seat = self.start_seat
        self.removed_lots: list[int] = []
        self.removed_at: list[int] = []
        """Where in the history the running round's removed lots were drawn."""
        self.drum: set[int] = set(ALL_LOTS)
        self.lot: int | None = None
        self.pot = 0
        self.groschen = [self.game.groschen] * n
        self.lots: list[list[int]] = [[] for _ in range(n)]

    # --- public facts for the UI and the bots ----------------------------
    @property
    def drum_count(self) -> int:
        """Lots still to draw (the open lot and the removed lots not counted)."""
        return len(self.drum) - (self.game.removed - len(self.removed_lots))

    @property
    def match_points(self) -> list[int]:
        """Each seat's points summed over the finished rounds."""
        return match_totals((r.points for r in self.results), self.game.num_players)

    def places(self) -> list[int]:
        """Competition places by match points so far."""
        return ranks(self.match_points, lower_is_better=True)

    def points_change(self) -> dict[Move, int]:
        """For the seat to move: how its points change on Nehmen and on "Nein danke"."""
        if self.lot is None or self.is_chance_node() or self.is_terminal():
            raise IllegalActionError("no lot is open for a decision")
        return points_change(self.lots[self.seat], self.lot, self.pot)

    # --- the contract ----------------------------------------------------
    def current_player(self) -> int:
        if self.round_index >= self.game.rounds:
            return TERMINAL
        if self.lot is None:
            return CHANCE
        return self.seat

    def legal_actions(self) -> list[int]:
        player = self.current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return sorted(self.drum)
        if self.groschen[player] == 0:
            return [Move.NEHMEN]
        return [Move.NEIN_DANKE, Move.NEHMEN]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            raise IllegalActionError("not a chance node")
        p = 1.0 / len(self.drum)
        return [(lot, p) for lot in sorted(self.drum)]

    def explain_illegal(self, action: int) -> str:
        player = self.current_player()
        if player == CHANCE:
            if action not in ALL_LOTS:
                return f"Lose gibt es nur von {ALL_LOTS[0]} bis {ALL_LOTS[-1]}."
            return f"Los {action} ist nicht in der Lostrommel."
        if action == Move.NEIN_DANKE and self.groschen[player] == 0:
            return "Wer keinen Groschen mehr hat, muss nehmen."
        return "Hier geht nur Nehmen oder Nein danke."

    def _apply(self, action: int) -> None:
        if self.lot is None:
            self.drum.discard(action)
            if len(self.removed_lots) < self.game.removed:
                self.removed_lots.append(action)
                self.removed_at.append(len(self._history))
            else:
                self.lot = action
            return
        seat, lot = self.seat, self.lot
        self.decisions.append(
            Decision(self.round_index, seat, lot, self.pot, action,
                     lot_cost(self.lots[seat], lot), self.groschen[seat], self.drum_count)
        )  # fmt: skip
        if action == Move.NEIN_DANKE:
            self.groschen[self.seat] -= 1
            self.pot += 1
            self.seat = (self.seat + 1) % self.game.num_players
            return
        self.lots[self.seat].append(self.lot)
        self.lots[self.seat].sort()
        self.groschen[self.seat] += self.pot
        self.pot = 0
        self.lot = None
        if self.drum_count == 0:
            self._finish_round()

    def _finish_round(self) -> None:
        self.results.append(
            RoundResult(
                lots=tuple(tuple(x) for x in self.lots),
                groschen=tuple(self.groschen),
                removed=tuple(sorted(self.removed_lots)),
                start_seat=self.start_seat,
            )
        )
        self.round_index += 1
        if self.round_index < self.game.rounds:
            self._start_round()

    def returns(self) -> list[float]:
        """Minus the match points of each seat (fewest points: highest utility)."""
        return [-float(p) for p in self.match_points]

    def view(self, seat: int) -> dict[str, Any]:
        """What every seat sees; the removed lots of the running round stay hidden.

        `history` lists every decision of the match so far (Decision.to_json), so a
        computer can learn how the others play without keeping anything itself."""
        seen = {lot for held in self.lots for lot in held}
        if self.lot is not None:
            seen.add(self.lot)
        terminal = self.is_terminal()
        return {
            "seat": seat,
            "players": self.game.num_players,
            "rounds": self.game.rounds,
            "removed_count": self.game.removed,
            "round": min(self.round_index, self.game.rounds - 1),
            "start_seat": self.start_seat,
            "to_move": self.current_player(),
            "lot": self.lot,
            "pot": self.pot,
            "groschen": list(self.groschen),
            "lots": [list(x) for x in self.lots],
            "drum": 0 if terminal else self.drum_count,
            "unseen": [] if terminal else [x for x in ALL_LOTS if x not in seen],
            "match_points": self.match_points,
            "results": [r.to_json() for r in self.results],
            "history": [d.to_json() for d in self.decisions],
        }

    def secret_actions(self) -> list[int]:
        """The running round's removed lots (shown at its Tafel)."""
        return [] if self.is_terminal() else list(self.removed_at)

    def clone(self) -> SpeedtombolaState:
        other = object.__new__(SpeedtombolaState)
        other.__dict__.update(self.__dict__)
        other._history = list(self._history)
        other.results = list(self.results)
        other.removed_lots = list(self.removed_lots)
        other.removed_at = list(self.removed_at)
        other.decisions = list(self.decisions)
        other.drum = set(self.drum)
        other.groschen = list(self.groschen)
        other.lots = [list(x) for x in self.lots]
        return other

    def __str__(self) -> str:
        lines = [f"Runde {self.round_index + 1}, Los {self.lot}, Groschen drauf {self.pot}"]
        for s in range(self.game.num_players):
            lines.append(f"  {s}: {self.groschen[s]} Groschen, {garnituren(self.lots[s])}")
        return "\n".join(lines)
