"""Bungee (Haim Shafir): the rule engine of shared/rules/bungee.de.txt and DESIGN.md.

56 cards: 1-9 five times, eight 10s, three Bungee cards (face `BUNGEE` = 11). Each player
gets 5 cards; the next card is turned up as the lucky card (Glückskarte) and slid under
the pile: every card of its number counts 0 this round, and it is never drawn. A turn
is exactly one of: discard one card or several equal cards, then draw; take the top
discard, then discard one or several equal cards (not the card just taken); call Bungee
with a hand worth 5 or less. Each 6 discarded makes one more player sit out. After the
first call every other player has one more turn. The fewest points in hand win the round
(a tie goes to the later call); the winners write -10, the others their hand (Bungee
cards 10). After `rounds` rounds the lowest total wins.

Two modes share the turn order: ``digital`` (the box deals and knows every card;
chance actions are card faces) and ``tisch`` (real cards at the table: the box keeps the
turn order with skips, the lucky number, the calls, and the hands entered at the end).

Actions are read by node type. At a chance node an action is a card face 1..11 (the
deal, the lucky card, each draw). A seat's actions: `Move.CALL`, `Move.TAKE`, a discard
`discard_action(face, count)`; in tisch mode also `zug_action(sixes)`,
`lucky_action(face)` and `hand_action(points, bungees)`.
"""

from __future__ import annotations

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
    whole_number,
)
from spielleiter.games.bungee.info import (
    HOUSE_RULES,
    INFO,
    MAX_HAND_POINTS,
    WINNER_POINTS,
)
from spielleiter.texts import T

BUNGEE = 11
"""The face of a Bungee card."""
FACES: tuple[int, ...] = tuple(range(1, BUNGEE + 1))
DECK: dict[int, int] = {**{f: 5 for f in range(1, 10)}, 10: 8, BUNGEE: 3}
"""How many cards of each face the 56-card deck holds."""
HAND_SIZE = 5
CALL_LIMIT = 5
"""A hand worth this much or less may call Bungee."""
BUNGEE_POINTS = 10
"""What a Bungee card costs when a round is scored (it counts 0 for calling and deciding)."""
MODES = ("digital", "tisch")

DISCARD_BASE = 10
ZUG_BASE = 200
LUCKY_BASE = 300
HAND_BASE = 1000


class Move(IntEnum):
    """A seat's moves that carry no card."""

    CALL = 0
    """Bungee ausrufen."""
    TAKE = 1
    """Take the top card of the discard pile."""


def discard_action(face: int, count: int) -> int:
    """Discard `count` cards of `face` (1..5 of 1..11)."""
    return DISCARD_BASE * face + count


def zug_action(sixes: int) -> int:
    """Tisch mode: the player to move has played (discarded `sixes` sixes)."""
    return ZUG_BASE + sixes


def lucky_action(face: int) -> int:
    """Tisch mode: the lucky number of the round (1..10) as turned up at the table."""
    return LUCKY_BASE + face


def hand_action(points: int, bungees: int) -> int:
    """Tisch mode: a hand at the end of the round, its points without Bungee cards (lucky-
    number cards 0) and how many Bungee cards it holds."""
    return HAND_BASE + points * 4 + bungees


def decode_discard(action: int) -> tuple[int, int] | None:
    """(face, count) of a discard action, None for other actions."""
    face, count = divmod(action, DISCARD_BASE)
    if 1 <= face <= BUNGEE and 1 <= count <= HAND_SIZE + 1 and action < ZUG_BASE:
        return face, count
    return None


def decode_hand(action: int) -> tuple[int, int]:
    """(points, bungees) of a hand entry action."""
    return divmod(action - HAND_BASE, 4)


def face_name(face: int) -> str:
    """A card's face as the players say it."""
    return "Bungee" if face == BUNGEE else str(face)


def card_value(face: int, lucky: int | None) -> int:
    """What a card counts for calling and deciding: its number; 0 for the lucky number
    and for a Bungee card."""
    return 0 if face in (BUNGEE, lucky) else face


def hand_value(hand: list[int], lucky: int | None) -> int:
    """A hand's points for calling and deciding (counts per face, index = face)."""
    return sum(card_value(f, lucky) * hand[f] for f in FACES)


def hand_score(hand: list[int], lucky: int | None) -> int:
    """A hand's points when the round is scored: lucky-number cards 0, Bungee cards 10."""
    return hand_value(hand, lucky) + BUNGEE_POINTS * hand[BUNGEE]


def round_winners(points: list[int], calls: list[int], tie_all_win: bool = True) -> list[int]:
    """Who wins a round: the fewest points (any player, caller or not); on a tie the later
    call wins and a call beats no call; tied players of whom none called all win (or,
    with `tie_all_win` False, nobody wins)."""
    best = min(points)
    tied = [s for s, p in enumerate(points) if p == best]
    callers = [s for s in reversed(calls) if s in tied]
    if callers:
        return [callers[0]]
    return tied if tie_all_win or len(tied) == 1 else []


def round_scores(scores: list[int], winners: list[int]) -> list[int]:
    """What each player writes: -10 for a winner, the hand's score for the others."""
    return [WINNER_POINTS if s in winners else p for s, p in enumerate(scores)]


def empty_hand() -> list[int]:
    """A hand as counts per face (index 0 unused)."""
    return [0] * (BUNGEE + 1)


def hand_cards(hand: list[int]) -> list[int]:
    """A hand as a sorted list of faces."""
    return [f for f in FACES for _ in range(hand[f])]


@dataclass(frozen=True)
class RoundResult:
    """One finished round as the sheet shows it."""

    lucky: int
    calls: tuple[int, ...]
    """Callers in the order of their calls."""
    points: tuple[int, ...]
    """Each hand's points for deciding (lucky-number and Bungee cards 0)."""
    bungees: tuple[int, ...]
    """Bungee cards in each hand."""
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    """What each player writes for the round."""
    hands: tuple[tuple[int, ...], ...] = ()
    """Each hand's faces (digital play; empty at a real-card table)."""
    dealer: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "lucky": self.lucky,
            "calls": list(self.calls),
            "points": list(self.points),
            "bungees": list(self.bungees),
            "winners": list(self.winners),
            "scores": list(self.scores),
            "hands": [list(h) for h in self.hands],
            "dealer": self.dealer,
        }


class Phase(IntEnum):
    """What the round waits for."""

    DEAL = 0
    LUCKY = 1
    TURN = 2
    TAKEN = 3
    """A player took the top discard and must discard now."""
    DRAW = 4
    """A player discarded and draws (chance)."""
    ENTER = 5
    """Tisch mode: the hands are entered at the end of the round."""
    OVER = 6


class BungeeGame(Game):
    """Bungee with its parameters: players 2..5, rounds, mode, first dealer."""

    info = INFO

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(params)
        rounds = self.rounds
        self.info = replace(
            type(self).info,
            min_utility=-float(MAX_HAND_POINTS * rounds),
            max_utility=float(-WINNER_POINTS * rounds),
            max_game_length=rounds * 4000,
            practical_length=rounds * 4000,
        )

    @classmethod
    def default_params(cls) -> dict[str, Any]:
        return {"players": 3, "rounds": 6, "mode": "digital", "first_dealer": 0, **HOUSE_RULES}

    def validate_params(self) -> None:
        p = self.params
        for key in ("players", "rounds", "first_dealer"):
            if not isinstance(p[key], int) or isinstance(p[key], bool):
                raise refused(INFO.name, key, T("must be a whole number"))
        if not 1 <= p["rounds"] <= 12:
            raise refused(INFO.name, "rounds", whole_number(1, 12))
        if p["mode"] not in MODES:
            raise refused(INFO.name, "mode", one_of(MODES))
        if not 0 <= p["first_dealer"] < p["players"]:
            raise refused(INFO.name, "first_dealer", T("must be a seat"))
        for key in HOUSE_RULES:
            if not isinstance(p[key], bool):
                raise refused(INFO.name, key, T("must be true or false"))

    def rule(self, name: str) -> bool:
        """A house rule of HOUSE_RULES (True: DESIGN.md's default)."""
        return bool(self.params[name])

    @property
    def rounds(self) -> int:
        return int(self.params["rounds"])

    @property
    def tisch(self) -> bool:
        """Real cards at the table: the box knows no card."""
        return bool(self.params["mode"] == "tisch")

    def new_initial_state(self) -> BungeeState:
        return BungeeState(self)

    def action_to_string(self, player: int, action: int) -> str:
        return action_text(player, action)


def action_text(player: int, action: int) -> str:
    """An action in the players' words."""
    if player == CHANCE:
        return f"Karte {face_name(action)}"
    if action == Move.CALL:
        return "Bungee!"
    if action == Move.TAKE:
        return "nimmt vom Ablagestapel"
    if ZUG_BASE <= action < LUCKY_BASE:
        sixes = action - ZUG_BASE
        return "Zug" + (f" mit {sixes}x 6" if sixes else "")
    if LUCKY_BASE < action < HAND_BASE:
        return f"Glückszahl {action - LUCKY_BASE}"
    if action >= HAND_BASE:
        points, bungees = decode_hand(action)
        return f"Hand {points} Punkte, {bungees} Bungee"
    found = decode_discard(action)
    if found:
        face, count = found
        return f"legt {count}x {face_name(face)} ab"
    return str(action)


class BungeeState(State):
    """A position: the round, hands, pile, discards, lucky card, whose turn, the calls."""

    game: BungeeGame
    private_view = ("hand",)

    def __init__(self, game: BungeeGame) -> None:
        super().__init__(game)
        self.round_index = 0
        self.results: list[RoundResult] = []
        self.moves: list[tuple[int, int, int, int]] = []
        """Every seat's move of the match as the table saw it: (round, seat, action, the top
        discard before it, 0 for none); draws and hands are not in it."""
        self._start_round()

    # --- a round ---------------------------------------------------------------
    def _start_round(self) -> None:
        n = self.game.num_players
        moves = self.round_index if self.game.rule("dealer_moves") else 0
        self.dealer = (self.game.params["first_dealer"] + moves) % n
        self.starter = (self.dealer + 1) % n
        self.seat = self.starter
        self.hands: list[list[int]] = [empty_hand() for _ in range(n)]
        self.pile: list[int] = [DECK.get(f, 0) for f in range(BUNGEE + 1)]
        """The face-down pile as counts per face (its order is drawn when a card is)."""
        self.lucky: int | None = None
        self.discards: list[int] = []
        """The face-up discard pile, the top card last."""
        self.known: list[list[int]] = [[] for _ in range(n)]
        """Cards each seat took from the discard pile and still holds (all saw them)."""
        self.taken: int | None = None
        self.calls: list[int] = []
        self.walk = 0
        """After the first call: seats passed since the first caller (turns and skips)."""
        self.next_seat = self.seat
        self.turns = 0
        self.dealt = 0
        self.reshuffles = 0
        self.secret_at: list[int] = []
        """Where in the history the running round's hidden cards were drawn."""
        self.entered: list[tuple[int, int] | None] = [None] * n
        self.next_sixes = 0
        """The sixes of a discard whose draw is still to come."""
        if self.game.tisch:
            self.phase = Phase.LUCKY
            self.seat = self.dealer
        else:
            self.phase = Phase.DEAL

    def _move_on(self, sixes: int) -> None:
        """The turn passes: 1 + the sixes just discarded seats on; after the first call the
        round ends once the walk comes back round to the first caller."""
        n = self.game.num_players
        self.turns += 1
        if not self.game.rule("skip_discarder"):
            sixes = min(sixes, n - 1)
        if self.calls and not self.game.rule("skip_last_turn"):
            sixes = 0
        if not self.calls:
            self.seat = (self.seat + 1 + sixes) % n
            self.phase = Phase.TURN
            return
        self.walk += 1 + sixes
        if self.walk >= n:
            self._end_round()
            return
        self.seat = (self.calls[0] + self.walk) % n
        self.phase = Phase.TURN

    def _end_round(self) -> None:
        if self.game.tisch:
            self.phase = Phase.ENTER
            self.seat = self.starter
            return
        lucky = self.lucky
        points = [hand_value(h, lucky) for h in self.hands]
        scores = [hand_score(h, lucky) for h in self.hands]
        bungees = [h[BUNGEE] for h in self.hands]
        self._finish(points, bungees, scores, [hand_cards(h) for h in self.hands])

    def _finish(
        self, points: list[int], bungees: list[int], scores: list[int], hands: list[list[int]]
    ) -> None:
        winners = round_winners(points, self.calls, self.game.rule("tie_all_win"))
        assert self.lucky is not None
        self.results.append(
            RoundResult(
                lucky=self.lucky,
                calls=tuple(self.calls),
                points=tuple(points),
                bungees=tuple(bungees),
                winners=tuple(winners),
                scores=tuple(round_scores(scores, winners)),
                hands=tuple(tuple(h) for h in hands),
                dealer=self.dealer,
            )
        )
        self.round_index += 1
        if self.round_index < self.game.rounds:
            self._start_round()
        else:
            self.phase = Phase.OVER

    # --- public facts ------------------------------------------------------------
    @property
    def totals(self) -> list[int]:
        """Each seat's points over the finished rounds."""
        return match_totals((r.scores for r in self.results), self.game.num_players)

    def places(self) -> list[int]:
        """Competition places by total points (lowest best)."""
        return ranks(self.totals, lower_is_better=True)

    @property
    def top(self) -> int | None:
        """The top card of the discard pile."""
        return self.discards[-1] if self.discards else None

    @property
    def pile_count(self) -> int:
        return sum(self.pile)

    def last_turns(self) -> list[int]:
        """Seats still owed their last turn after the first call, in order."""
        if not self.calls or self.phase in (Phase.ENTER, Phase.OVER):
            return []
        n = self.game.num_players
        return [(self.calls[0] + w) % n for w in range(max(self.walk, 1), n)]

    def can_call(self, seat: int) -> bool:
        """The seat's hand is worth 5 or less (digital play; at a real table the box trusts
        the call and checks it when the hands are entered)."""
        return self.game.tisch or hand_value(self.hands[seat], self.lucky) <= CALL_LIMIT

    # --- the contract ---------------------------------------------------------------
    def current_player(self) -> int:
        if self.phase == Phase.OVER:
            return TERMINAL
        if self.phase in (Phase.DEAL, Phase.DRAW) or (
            self.phase == Phase.LUCKY and not self.game.tisch
        ):
            return CHANCE
        return self.seat

    def _draw_counts(self) -> list[int]:
        """Counts per face the next chance card comes from."""
        if self.phase == Phase.LUCKY and self.game.rule("bungee_lucky_again"):
            return [c if f != BUNGEE else 0 for f, c in enumerate(self.pile)]
        return self.pile

    def legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == Phase.OVER:
            return []
        if self.current_player() == CHANCE:
            return [f for f in FACES if self._draw_counts()[f] > 0]
        if phase == Phase.LUCKY:
            return [lucky_action(f) for f in range(1, 11)]
        if phase == Phase.ENTER:
            return [
                hand_action(p, b)
                for p in range(MAX_HAND_POINTS + 1)
                for b in range(DECK[BUNGEE] + 1)
                if self._entry_problem(p, b) is None
            ]
        if self.game.tisch:
            return [Move.CALL, *(zug_action(k) for k in range(HAND_SIZE + 1))]
        hand = self.hands[self.seat]
        actions: list[int] = []
        if phase == Phase.TURN:
            if self.can_call(self.seat):
                actions.append(Move.CALL)
            if self.discards:
                actions.append(Move.TAKE)
        for face in FACES:
            have = hand[face] - (1 if phase == Phase.TAKEN and face == self.taken else 0)
            actions += [discard_action(face, k) for k in range(1, have + 1)]
        return sorted(actions)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            raise IllegalActionError("not a chance node")
        counts = self._draw_counts()
        total = sum(counts)
        return [(f, counts[f] / total) for f in FACES if counts[f] > 0]

    def _entry_problem(self, points: int, bungees: int) -> str | None:
        """Why a hand entry cannot be right (None when it can)."""
        seat = self.seat
        if points > MAX_HAND_POINTS:
            return f"Mehr als {MAX_HAND_POINTS} Punkte hat keine Hand"
        others = sum(e[1] for e in self.entered if e is not None)
        if bungees + others > DECK[BUNGEE]:
            return "Es gibt nur 3 Bungee-Karten"
        if seat in self.calls and points > CALL_LIMIT:
            return f"Wer Bungee ruft, hat höchstens {CALL_LIMIT} Punkte. Bitte nachzählen"
        return None

    def explain_illegal(self, action: int) -> str:
        player = self.current_player()
        if player == TERMINAL:
            return "Das Spiel ist vorbei."
        if player == CHANCE:
            if self.phase == Phase.LUCKY and action == BUNGEE and self.pile[BUNGEE]:
                return "Eine Bungee-Karte wird nicht Glückskarte: neu mischen"
            if action not in FACES:
                return "Diese Karte gibt es nicht (1 bis 10 und Bungee)"
            return f"Keine {face_name(action)} mehr im Nachziehstapel"
        if self.phase == Phase.LUCKY:
            return "Erst die Glückszahl eingeben (1 bis 10)"
        if self.phase == Phase.ENTER:
            if action < HAND_BASE:
                return "Jetzt die Hand eingeben: Punkte und Bungee-Karten"
            points, bungees = decode_hand(action)
            return self._entry_problem(points, bungees) or "So eine Hand gibt es nicht"
        if self.game.tisch:
            return "Am Tisch: Zug (mit den abgelegten 6en) oder Bungee"
        hand = self.hands[self.seat]
        value = hand_value(hand, self.lucky)
        if action == Move.CALL:
            if self.phase == Phase.TAKEN:
                return "Nach dem Nehmen musst du ablegen; Bungee erst im nächsten Zug"
            return f"Bungee nur mit {CALL_LIMIT} oder weniger Punkten, du hast {value}"
        if action == Move.TAKE:
            if self.phase == Phase.TAKEN:
                return "Du hast schon genommen: jetzt ablegen"
            return "Der Ablagestapel ist leer"
        found = decode_discard(action)
        if found is None:
            return "Ablegen, Nehmen oder Bungee"
        face, count = found
        if self.phase == Phase.TAKEN and face == self.taken and hand[face] >= count:
            return (
                f"Die genommene {face_name(face)} darf erst im nächsten Zug wieder abgelegt werden"
            )
        if hand[face] == 0:
            return f"Du hast keine {face_name(face)}"
        return f"Du hast nur {hand[face]}x {face_name(face)}"

    def _apply(self, action: int) -> None:
        phase = self.phase
        n = self.game.num_players
        if phase == Phase.DEAL:
            self.pile[action] -= 1
            seat = (self.starter + self.dealt) % n
            self.hands[seat][action] += 1
            self.secret_at.append(len(self._history))
            self.dealt += 1
            if self.dealt == n * HAND_SIZE:
                self.phase = Phase.LUCKY
            return
        if phase == Phase.LUCKY:
            if self.game.tisch:
                self.lucky = action - LUCKY_BASE
            else:
                self.pile[action] -= 1
                self.lucky = action
            self.phase = Phase.TURN
            self.seat = self.starter
            return
        if phase == Phase.DRAW:
            self.pile[action] -= 1
            self.hands[self.seat][action] += 1
            self.secret_at.append(len(self._history))
            self._move_on(self.next_sixes)
            return
        if phase == Phase.ENTER:
            self.entered[self.seat] = decode_hand(action)
            if all(e is not None for e in self.entered):
                entries = [e for e in self.entered if e is not None]
                points = [p for p, _ in entries]
                bungees = [b for _, b in entries]
                scores = [p + BUNGEE_POINTS * b for p, b in entries]
                self._finish(points, bungees, scores, [])
            else:
                self.seat = (self.seat + 1) % n
            return
        top = self.discards[-1] if self.discards else 0
        self.moves.append((self.round_index, self.seat, action, top))
        if action == Move.CALL:
            self.calls.append(self.seat)
            self._move_on(0)
            return
        if self.game.tisch:
            self._move_on(action - ZUG_BASE)
            return
        if action == Move.TAKE:
            face = self.discards.pop()
            self.hands[self.seat][face] += 1
            self.known[self.seat].append(face)
            self.taken = face
            self.phase = Phase.TAKEN
            return
        found = decode_discard(action)
        assert found is not None
        face, count = found
        self.hands[self.seat][face] -= count
        self.discards += [face] * count
        known = self.known[self.seat]
        for _ in range(min(count, known.count(face))):
            known.remove(face)
        sixes = count if face == 6 else 0
        if phase == Phase.TAKEN:
            self.taken = None
            self._move_on(sixes)
            return
        self.next_sixes = sixes
        self.phase = Phase.DRAW
        if self.pile_count == 0:
            if not self.game.rule("empty_pile_reshuffle"):
                self.turns += 1
                self._end_round()
                return
            self._reshuffle()

    def _reshuffle(self) -> None:
        """Only the lucky card is left: the discards but the top card become the new pile."""
        for face in self.discards[:-1]:
            self.pile[face] += 1
        self.discards = self.discards[-1:]
        self.reshuffles += 1

    def returns(self) -> list[float]:
        """Minus each seat's total points (the fewest points: highest utility)."""
        return [-float(p) for p in self.totals]

    def view(self, seat: int) -> dict[str, Any]:
        """What one seat knows: its own hand, the open cards, card counts, the calls."""
        n = self.game.num_players
        return {
            "seat": seat,
            "players": n,
            "mode": self.game.params["mode"],
            "rounds": self.game.rounds,
            "round": min(self.round_index, self.game.rounds - 1),
            "dealer": self.dealer,
            "to_move": self.current_player(),
            "phase": int(self.phase),
            "hand": hand_cards(self.hands[seat]),
            "hand_sizes": [sum(h) for h in self.hands],
            "lucky": self.lucky,
            "discards": list(self.discards),
            "taken": self.taken,
            "pile": self.pile_count,
            "reshuffles": self.reshuffles,
            "known": [list(k) for k in self.known],
            "calls": list(self.calls),
            "last_turns": self.last_turns(),
            "turns": self.turns,
            "totals": self.totals,
            "results": [r.to_json() for r in self.results],
            "moves": [list(m) for m in self.moves],
        }

    def secret_actions(self) -> list[int]:
        """The running round's dealt and drawn cards (the hands and the pile)."""
        return [] if self.phase == Phase.OVER else list(self.secret_at)

    def clone(self) -> BungeeState:
        other = object.__new__(BungeeState)
        other.__dict__.update(self.__dict__)
        other._history = list(self._history)
        other.results = list(self.results)
        other.moves = list(self.moves)
        other.hands = [list(h) for h in self.hands]
        other.pile = list(self.pile)
        other.discards = list(self.discards)
        other.known = [list(k) for k in self.known]
        other.calls = list(self.calls)
        other.secret_at = list(self.secret_at)
        other.entered = list(self.entered)
        return other
