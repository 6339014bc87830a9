"""Bungee's Tipp: what Stark would do now and why, from a seat's view.

Stark plays every candidate move to the end of the round on the same samples of the
hidden cards (bots.evaluate) and takes the one whose written score beats the others'
average by the most. The Tipp says that move in words and what it is worth against
the others, beside the next best move.
"""

from __future__ import annotations

import random
from typing import Any

from spielleiter.games.base import Tip
from spielleiter.games.bungee import bots, sim
from spielleiter.games.bungee.rules import face_name

__all__ = ["move_words", "tip"]


def move_words(view: dict[str, Any], kind: int, face: int) -> str:
    """A candidate move in words: "die 9 ablegen", "beide 5 ablegen", "die 2 nehmen,
    dann die 9 ablegen", "Bungee rufen"."""
    if kind == sim.CALL:
        return "Bungee rufen"
    count = bots._available(view)[face]
    cards = {1: "die", 2: "beide"}.get(count, f"alle {count}")
    discard = f"{cards} {face_name(face)} ablegen"
    if kind == sim.TAKE:
        return f"die {face_name(view['discards'][-1])} nehmen, dann {discard}"
    return discard


def edge_words(edge: float, full: bool = True) -> str:
    """What a move's edge means: "2,5 Punkte weniger als die anderen" (fewer is better)."""
    amount = f"{abs(edge):.1f}".replace(".", ",")
    words = f"{amount} {'weniger' if edge <= 0 else 'mehr'}"
    return words.replace(" ", " Punkte ", 1) + " als die anderen" if full else words


def tip(view: dict[str, Any], rng: random.Random) -> Tip:
    """Stark's move with why: the score it expects to write against the others' average
    at the round's end, and the next best move's."""
    moves = bots.candidates(view)
    edges = bots.evaluate(view, rng)
    ranked = sorted(range(len(moves)), key=lambda i: (edges[i][0], moves[i][2]))
    best = ranked[0]
    kind, face, action = moves[best]
    what = move_words(view, kind, face)
    why = f"So schreibst du am Rundenende im Schnitt {edge_words(edges[best][0])}."
    if len(ranked) > 1:
        second = ranked[1]
        other = move_words(view, moves[second][0], moves[second][1])
        why += f" Sonst am besten: {other} ({edge_words(edges[second][0], full=False)})."
    return Tip(action, what[:1].upper() + what[1:], why)
