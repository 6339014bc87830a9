"""Engel & Bengel's Tipp: what Stark would do now and why, from a seat's view.

Stark's move is the best by its plan; the Tipp plays Stark's best few moves to the end
of the round of the table on the same dice (bots.stark_choice) and says the move in
words, the chips it leaves the player with against the others, and the next best move's;
a placement that completes a black row says what it costs.
"""

from __future__ import annotations

import random
from typing import Any

from spielleiter.games.base import Tip
from spielleiter.games.engel_bengel import bots
from spielleiter.games.engel_bengel.rules import Move, decode_place, row_delta

__all__ = ["move_words", "tip"]


def move_words(view: dict[str, Any], action: int) -> str:
    """A move in words: "Die 4 in Reihe 3", "Nochmal würfeln", "Aufhören"."""
    if action == Move.STOPP:
        return "Aufhören"
    if action == Move.NOCHMAL:
        return "Nochmal würfeln"
    row, pips = decode_place(action)
    return f"Die {pips} in Reihe {row + 1}"


def chips(value: float) -> str:
    """A mean of chips against the others, in words ("3 Chips vor", "2 Chips hinter")."""
    amount = round(abs(value))
    if amount == 0:
        return "gleichauf mit den anderen"
    word = "Chip" if amount == 1 else "Chips"
    return f"{amount} {word} {'vor' if value >= 0 else 'hinter'} den anderen"


def cost(view: dict[str, Any], action: int) -> int:
    """The chips a placement costs when it completes a black row (0: it does not)."""
    if action < 2:
        return 0
    face = bots.face_of(view)
    r, _ = decode_place(action)
    row = face.rows[r]
    filled = view["board"][r]
    if row.white or len(filled) + 1 != row.boxes:
        return 0
    return -row_delta(row)


def tip(view: dict[str, Any], rng: random.Random) -> Tip:
    """Stark's move with why: where it leaves the player against the others at the end of
    the round of the table, and the next best move."""
    action, edges = bots.stark_choice(view, rng)
    what = move_words(view, action)
    if not edges:
        return Tip(action, what, "Es geht nur dieser Zug.")
    why = f"Nach der Runde am Tisch im Schnitt {chips(edges[action])}."
    paid = cost(view, action)
    if paid:
        why = f"Kostet {paid} Chips (schwarze Reihe), lohnt sich aber: nach der Runde am " \
            f"Tisch im Schnitt {chips(edges[action])}."
    others = sorted((a for a in edges if a != action), key=lambda a: (-edges[a], a))
    if others:
        second = others[0]
        other = move_words(view, second)
        other = other[0].lower() + other[1:]
        if edges[second] > edges[action]:  # one round of the table, against Stark's plan
            why += f" {move_words(view, second)} ({chips(edges[second])}) ist nicht sicher besser."
        else:
            why += f" Sonst am besten: {other} ({chips(edges[second])})."
    return Tip(action, what, why)
