"""Engel & Bengel: the pure rule engine (the dice cup, the top face, placements, chips).

Every player starts with 80 chips and floor(30 / players) dice. A turn: roll min(5, own
dice) (a chance action); after each roll place at least one fitting die if any fits,
more if you like; then stop (the unplaced dice go back to your reserve) or roll again with
all of this turn's unplaced dice. A roll with nothing that fits ends the turn. Whoever fills
the last (or only) box of a row is paid its value (white, Engel) or pays it (black, Bengel,
never below 0). The last free box ends the turn and the Durchgang: the dice are shared out
again, the next face comes up, the left neighbour of the last placer starts. The game ends
after a Durchgang in which someone reached the target, or when the cap (`limit`) of
Durchgänge is played out first; or, the other end rule, after a fixed number of
Durchgänge. The richest player wins, ties share.

Actions::

    0              Stopp: end the turn, the unplaced dice go back to the reserve
    1              Nochmal: roll again with all of this turn's unplaced dice
    2 + 6*r + v-1  place a die showing v (1-6) in row r (0-5)

Chance outcomes: while the stack is laid out, the face at the next stack position (0-15);
then the start player (a seat); then each roll: the sorted pips as base-6 digits
(:func:`roll_code`), e.g. a roll of 1, 3, 6 is 0 + 2*6 + 5*36.

    >>> game = EngelBengelGame({"players": 3, "shuffle": False, "start": "erster"})
    >>> state = game.new_initial_state()
    >>> state.dice, state.cup, state.current_player() == CHANCE
    ([5, 10, 10], 5, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import cache
from typing import Any

from spielleiter.games.base import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalActionError,
    ParameterError,
    State,
    one_of,
    refused,
    whole_number,
)
from spielleiter.games.engel_bengel.faces import (
    MAX_BOXES,
    Face,
    FaceError,
    Row,
    default_faces,
    face_by_name,
    fits,
    row_need,
    validate_face,
)
from spielleiter.games.engel_bengel.info import (
    DURCHGAENGE,
    END_CHOICES,
    INFO,
    LONGEST,
    RECORD_LIMIT,
    START_CHOICES,
    TARGET,
)
from spielleiter.texts import T

DICE = 30
"""Dice in the box; shared out floor(DICE / players) each, the rest stays in the box."""
CHIPS = 80
"""Chips every player starts with."""
CUP = 5
"""Dice rolled at most at once."""
MAX_ROLLS = 5
"""Rolls per turn at most (follows by itself: each roll places at least one die)."""


class Move(IntEnum):
    """The two moves besides placing a die."""

    STOPP = 0
    NOCHMAL = 1


PLACE = 2
"""The first placing action: PLACE + 6 * row + pips - 1."""


def place_action(row: int, pips: int) -> int:
    """The action that places a die showing `pips` in row `row` (both as on the face).

    >>> place_action(0, 1), place_action(5, 6)
    (2, 37)
    """
    return PLACE + 6 * row + pips - 1


def decode_place(action: int) -> tuple[int, int]:
    """(row, pips) of a placing action.

    >>> decode_place(place_action(2, 4))
    (2, 4)
    """
    return (action - PLACE) // 6, (action - PLACE) % 6 + 1


def roll_code(pips: Sequence[int]) -> int:
    """The chance outcome of a roll: its sorted pips as base-6 digits (lowest first).

    >>> roll_code([6, 1, 3]), roll_dice(roll_code([6, 1, 3]), 3)
    (192, [1, 3, 6])
    """
    return sum((p - 1) * 6**i for i, p in enumerate(sorted(pips)))


def roll_dice(code: int, n: int) -> list[int]:
    """The sorted pips of a roll of `n` dice from its outcome code."""
    return [(code // 6**i) % 6 + 1 for i in range(n)]


@cache
def roll_outcomes(n: int) -> tuple[tuple[int, float], ...]:
    """(code, probability) of every sorted roll of n dice, codes ascending."""
    from math import factorial

    counts: dict[int, int] = {}

    def walk(prefix: tuple[int, ...]) -> None:
        if len(prefix) == n:
            code = roll_code(prefix)
            ways = factorial(n)
            for v in set(prefix):
                ways //= factorial(prefix.count(v))
            counts[code] = ways
            return
        for v in range(prefix[-1] if prefix else 1, 7):
            walk((*prefix, v))

    walk(())
    total = 6**n
    return tuple((code, ways / total) for code, ways in sorted(counts.items()))


def placements(face: Face, board: Sequence[Sequence[int]], roll: Sequence[int]) -> list[int]:
    """The placing actions that fit now: each distinct rolled value on each row it fits."""
    return sorted(
        place_action(r, v)
        for r, row in enumerate(face.rows)
        for v in set(roll)
        if fits(row, board[r], v)
    )


def row_delta(row: Row) -> int:
    """What completing the row does to the placer's chips (+value white, -value black)."""
    return row.value if row.white else -row.value


@dataclass(frozen=True)
class Payment:
    """A completed row: who placed its last die, the row, and the chips that moved."""

    seat: int
    row: int
    value: int
    """The row's value, signed (+ paid to the seat, - the seat pays)."""
    moved: int
    """The chips that really moved (a seat pays at most what it has)."""


@dataclass(frozen=True)
class DurchgangResult:
    """A finished Durchgang: its face, who paid and got what, the chips after it."""

    number: int
    face: str
    payments: tuple[Payment, ...]
    chips: tuple[int, ...]
    last: int
    """The seat that placed the last die."""
    next_start: int
    """The left neighbour of the last placer: starts the next Durchgang."""


class EngelBengelGame(Game):
    """Engel & Bengel with its parameters (players, chips, faces, the end of the game)."""

    info = INFO

    @classmethod
    def default_params(cls) -> dict[str, Any]:
        return {
            "players": 4,
            "chips": CHIPS,
            "faces": None,
            "shuffle": True,
            "start": "zufall",
            "end": "ziel",
            "target": TARGET,
            "durchgaenge": DURCHGAENGE,
            "limit": RECORD_LIMIT,
        }

    def validate_params(self) -> None:
        p = self.params
        for key, low, high in (
            ("chips", 0, 1000),
            ("target", 1, 10_000),
            ("durchgaenge", 1, LONGEST),
            ("limit", 1, LONGEST),
        ):
            if not isinstance(p[key], int) or isinstance(p[key], bool) or not low <= p[key] <= high:
                raise refused(INFO.name, key, whole_number(low, high))
        if p["end"] not in END_CHOICES:
            raise refused(INFO.name, "end", one_of(END_CHOICES))
        if p["start"] not in START_CHOICES:
            raise refused(INFO.name, "start", one_of(START_CHOICES))
        if not isinstance(p["shuffle"], bool):
            raise refused(INFO.name, "shuffle", T("must be true or false"))
        self.faces = self._resolve(p["faces"])
        if self.share * p["players"] < MAX_BOXES:  # pragma: no cover
            raise ParameterError(T("{game}: too few dice in play", game=INFO.name))

    @staticmethod
    def _resolve(faces: Any) -> tuple[Face, ...]:
        if faces is None:
            return default_faces()
        if not isinstance(faces, list) or not 1 <= len(faces) <= 64:
            raise ParameterError(
                T("{game}: faces must be a list of 1 to {most} faces", game=INFO.name, most=64)
            )
        result = []
        for i, f in enumerate(faces):
            try:
                result.append(face_by_name(f) if isinstance(f, str) else validate_face(f))
            except KeyError:
                raise ParameterError(
                    T(
                        "{game}: faces[{index}]: no face named {name!r}",
                        game=INFO.name,
                        index=i,
                        name=f,
                    )
                ) from None
            except FaceError as exc:
                where = f"faces[{i}]: {exc.path}" if exc.path else f"faces[{i}]"
                raise ParameterError(
                    T("{game}: {path}: {why}", game=INFO.name, path=where, why=exc.message)
                ) from exc
        return tuple(result)

    @property
    def last_durchgang(self) -> int:
        """The Durchgang after which the game ends at the latest: the cap when it ends by
        the target, else the fixed number."""
        p = self.params
        return int(p["limit"] if p["end"] == "ziel" else p["durchgaenge"])

    @property
    def share(self) -> int:
        """Dice per player at the start of every Durchgang."""
        return DICE // self.num_players

    def new_initial_state(self) -> EngelBengelState:
        return EngelBengelState(self)

    def action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            return f"Zufall {action}"
        if action == Move.STOPP:
            return "Stopp"
        if action == Move.NOCHMAL:
            return "Nochmal"
        row, pips = decode_place(action)
        return f"{pips} in Reihe {row + 1}"


class EngelBengelState(State):
    """A position: the stack, the top face's boxes, dice, chips, the running turn."""

    def __init__(self, game: EngelBengelGame) -> None:
        super().__init__(game)
        self.game: EngelBengelGame = game
        n = len(game.faces)
        self.order: list[int] = [] if game.params["shuffle"] else list(range(n))
        """The stack, top first: indices into game.faces (laid out by chance when shuffled)."""
        self.players = game.num_players
        self.chips = [int(game.params["chips"])] * self.players
        self.dice = [0] * self.players
        """Each seat's reserve: its dice neither on the board nor in this turn's cup."""
        self.board: list[list[int]] = [[] for _ in range(6)]
        self.turn = -1
        """The seat whose turn runs (-1 before the first)."""
        self.starter = -1
        """The seat that started the running Durchgang."""
        self.cup = 0
        """This turn's dice not yet placed (rolled, or about to be rolled)."""
        self.roll: list[int] = []
        """The last roll's dice not yet placed, sorted (empty while a roll is awaited)."""
        self.awaiting_roll = False
        self.rolls = 0
        self.placed_now = 0
        """Dice placed since the last roll."""
        self.durchgang = 0
        """Finished Durchgänge (the running one is number durchgang + 1)."""
        self.payments: list[Payment] = []
        """Completed rows of the running Durchgang."""
        self.results: list[DurchgangResult] = []
        self.last_placer = -1
        self.over = False
        if game.params["start"] == "erster" and len(self.order) == n:
            self._start_durchgang(0)

    # --- what the engine reads ----------------------------------------------------
    @property
    def face(self) -> Face:
        """The face on top of the stack (the one played)."""
        order = self.order or list(range(len(self.game.faces)))
        return self.game.faces[order[self.durchgang % len(order)]]

    @property
    def laying_out(self) -> bool:
        return len(self.order) < len(self.game.faces)

    def free_boxes(self) -> int:
        return sum(row.boxes - len(self.board[r]) for r, row in enumerate(self.face.rows))

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        if self.laying_out or self.turn < 0 or self.awaiting_roll:
            return CHANCE
        return self.turn

    def legal_actions(self) -> list[int]:
        player = self.current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [o for o, _ in self.chance_outcomes()]
        actions = placements(self.face, self.board, self.roll)
        if self.placed_now > 0:
            actions.append(Move.STOPP)
            if self.roll and self.rolls < MAX_ROLLS:
                actions.append(Move.NOCHMAL)
        return sorted(actions)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.current_player() != CHANCE:
            raise IllegalActionError("not a chance node")
        if self.laying_out:
            left = [f for f in range(len(self.game.faces)) if f not in self.order]
            return [(f, 1 / len(left)) for f in left]
        if self.turn < 0:
            return [(s, 1 / self.players) for s in range(self.players)]
        return list(roll_outcomes(self.cup))

    def explain_illegal(self, action: int) -> str:
        player = self.current_player()
        if player == TERMINAL:
            return "Das Spiel ist vorbei"
        if player == CHANCE:
            if self.laying_out:
                if not 0 <= action < len(self.game.faces):
                    return f"Es gibt {len(self.game.faces)} Tafeln"
                return f"Die Tafel {self.game.faces[action].name} liegt schon im Stapel"
            if self.turn < 0:
                return f"Es spielen {self.players}: Platz {self.players} ist der letzte"
            return f"Das ist kein Wurf mit {self.cup} Würfeln"
        if action == Move.STOPP:
            return f"Erst einen passenden Würfel legen: {self._hint()}"
        if action == Move.NOCHMAL:
            if self.placed_now == 0:
                return f"Erst einen passenden Würfel legen: {self._hint()}"
            return "Keine Würfel mehr im Becher"
        if not PLACE <= action < PLACE + 36:
            return "Diesen Zug gibt es nicht: Würfel legen, Stopp oder Nochmal"
        r, v = decode_place(action)
        if v not in self.roll:
            rolled = ", ".join(map(str, self.roll))
            return f"Keine {v} im Wurf (gewürfelt: {rolled})"
        row = self.face.rows[r]
        if len(self.board[r]) >= row.boxes:
            return f"Reihe {r + 1} ist schon voll"
        need = row_need(row, self.board[r])
        if not any(fits(w, self.board[i], v) for i, w in enumerate(self.face.rows)):
            return f"Die {v} passt in keine Reihe: Reihe {r + 1} will {need}"
        return f"Die {v} passt nicht in Reihe {r + 1}: Reihe {r + 1} will {need}"

    def describe(self, action: int) -> str:
        """An action in the players' words; a chance outcome as what it means now: the
        face laid on the stack, the start player, the roll's pips."""
        if self.current_player() != CHANCE:
            return self.game.action_to_string(self.current_player(), action)
        if self.laying_out:
            return f"Tafel {self.game.faces[action].name} in den Stapel"
        if self.turn < 0:
            return f"Platz {action + 1} beginnt"
        return "Wurf " + " ".join(map(str, roll_dice(action, self.cup)))

    def _hint(self) -> str:
        options = placements(self.face, self.board, self.roll)
        r, v = decode_place(options[0])
        return f"die {v} passt in Reihe {r + 1}"

    # --- moves -------------------------------------------------------------------
    def _apply(self, action: int) -> None:
        if self.current_player() == CHANCE:
            self._chance(action)
        elif action == Move.STOPP:
            self._end_turn()
        elif action == Move.NOCHMAL:
            self.cup = len(self.roll)
            self.roll = []
            self.awaiting_roll = True
        else:
            self._place(*decode_place(action))

    def _chance(self, outcome: int) -> None:
        if self.laying_out:
            self.order.append(outcome)
            if not self.laying_out and self.game.params["start"] == "erster":
                self._start_durchgang(0)
        elif self.turn < 0:
            self._start_durchgang(outcome)
        else:
            self.roll = roll_dice(outcome, self.cup)
            self.rolls += 1
            self.placed_now = 0
            self.awaiting_roll = False
            if not placements(self.face, self.board, self.roll):
                self._end_turn()

    def _start_durchgang(self, starter: int) -> None:
        """Share out the dice, clear the board and give the cup to the starter."""
        share = self.game.share
        self.dice = [share] * self.players
        self.board = [[] for _ in range(6)]
        self.payments = []
        self.last_placer = -1
        self.starter = starter
        self._begin_turn(starter)

    def _begin_turn(self, seat: int) -> None:
        """The seat takes min(5, own dice) into the cup; the rest stays aside."""
        self.turn = seat
        self.cup = min(CUP, self.dice[seat])
        self.dice[seat] -= self.cup
        self.roll = []
        self.rolls = 0
        self.placed_now = 0
        self.awaiting_roll = True

    def _place(self, r: int, v: int) -> None:
        seat = self.turn
        self.roll.remove(v)
        self.cup -= 1
        self.board[r].append(v)
        self.placed_now += 1
        self.last_placer = seat
        row = self.face.rows[r]
        if len(self.board[r]) == row.boxes:
            value = row_delta(row)
            moved = value if value > 0 else -min(self.chips[seat], -value)
            self.chips[seat] += moved
            self.payments.append(Payment(seat, r, value, moved))
        if self.free_boxes() == 0:
            self._end_durchgang()
        elif not self.roll:
            self._end_turn()

    def _end_turn(self) -> None:
        """The unplaced dice go back to the reserve; the next seat with dice takes the cup."""
        seat = self.turn
        self.dice[seat] += len(self.roll)
        self.roll = []
        self.cup = 0
        for step in range(1, self.players + 1):
            nxt = (seat + step) % self.players
            if self.dice[nxt] > 0:
                self._begin_turn(nxt)
                return
        self._end_durchgang()  # pragma: no cover - every face has room for the dice in play

    def _end_durchgang(self) -> None:
        last = self.last_placer if self.last_placer >= 0 else self.turn
        nxt = (last + 1) % self.players
        self.results.append(
            DurchgangResult(
                number=self.durchgang + 1,
                face=self.face.name,
                payments=tuple(self.payments),
                chips=tuple(self.chips),
                last=last,
                next_start=nxt,
            )
        )
        self.durchgang += 1
        self.roll = []
        self.cup = 0
        reached = self.game.params["end"] == "ziel" and self.target_reached()
        if reached or self.durchgang >= self.game.last_durchgang:
            self.over = True
            self.turn = -1
            return
        self._start_durchgang(nxt)

    # --- results -----------------------------------------------------------------
    def target_reached(self) -> bool:
        """Someone has at least the target."""
        return max(self.chips) >= self.game.params["target"]

    def capped(self) -> bool:
        """The game ended by the cap: it ends by the target, and nobody has it."""
        return self.over and self.game.params["end"] == "ziel" and not self.target_reached()

    def winners(self) -> list[int]:
        """The richest seats (all of them share the win)."""
        best = max(self.chips)
        return [s for s, c in enumerate(self.chips) if c == best]

    def places(self) -> list[int]:
        """Each seat's place by chips (1, 1, 3 for ties)."""
        return [1 + sum(1 for q in self.chips if q > c) for c in self.chips]

    def returns(self) -> list[float]:
        """The win share: 1 for a sole winner, split among tied winners, 0 otherwise."""
        if not self.over:
            return [0.0] * self.players
        winners = self.winners()
        return [1 / len(winners) if s in winners else 0.0 for s in range(self.players)]

    def view(self, seat: int) -> dict[str, Any]:
        """What a seat sees at the table: the top face and its boxes, the roll, every
        player's dice and chips. Never the order of the stack below the top face."""
        face = self.face
        return {
            "seat": seat,
            "players": self.players,
            "to_move": self.current_player(),
            "face": face.to_json(),
            "board": [list(b) for b in self.board],
            "roll": list(self.roll),
            "cup": self.cup,
            "rolls": self.rolls,
            "placed_now": self.placed_now,
            "dice": list(self.dice),
            "chips": list(self.chips),
            "turn": self.turn,
            "durchgang": self.durchgang + 1,
            "legal": self.legal_actions() if self.current_player() == seat else [],
            "end": self.game.params["end"],
            "target": self.game.params["target"],
            "durchgaenge": self.game.params["durchgaenge"],
            "limit": self.game.params["limit"],
            "over": self.over,
        }

    def clone(self) -> EngelBengelState:
        """An independent copy; the game (its parameters and faces) is shared, as no state
        ever changes it."""
        import copy

        return copy.deepcopy(self, {id(self.game): self.game})

    def secret_actions(self) -> list[int]:
        """The stack positions below the faces that came up so far (positions in history()
        of the chance actions that laid the stack out); none once the game is over."""
        if self.over or not self.game.params["shuffle"]:
            return []
        return [k for k in range(len(self.order)) if k > self.durchgang]


def face_of_view(view: Mapping[str, Any]) -> Face:
    """The top face of a view as a Face."""
    return validate_face(view["face"])
