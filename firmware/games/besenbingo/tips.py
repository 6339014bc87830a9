"""Besenbingo's Tipp: what Stark would cross at this tower and why, from a seat's view.

Stark maximises the expected final score over the towers still unknown (bots.Solver,
exact). The Tipp says its move in words, the points it expects at the end, and, where
Stark does not take the most points now, what taking them would be worth instead.

    >>> from spielleiter.games.besenbingo.rules import BesenbingoGame
    >>> state = BesenbingoGame({"players": 1}).new_initial_state()
    >>> state.apply_action(state.chance_outcomes()[0][0])  # the silent tower
    >>> state.apply_action(state.chance_outcomes()[0][0])  # the first tower
    >>> tip(state.view(0)).action in state.legal_actions()
    True
"""

from __future__ import annotations

from typing import Any

from spielleiter.games.base import Tip
from spielleiter.games.besenbingo import bots
from spielleiter.games.besenbingo.rules import MINUS, ROW_TITLES, decode
from spielleiter.games.besenbingo.templates import Template

__all__ = ["move_words", "tip"]


def move_words(template: Template, action: int) -> str:
    """A move in words: "Walpurga mit Katze, Reihe Paar" or "das nächste Minusfeld"."""
    if action == MINUS:
        return "das nächste Minusfeld"
    cell, row = decode(action)
    field = template.witch_field(cell)
    assert field is not None
    return f"{field.witch} mit {field.copilot}, Reihe {ROW_TITLES[row]}"


def points(value: float) -> str:
    """Points with one decimal, the German way ("14,3 Punkte")."""
    return f"{value:.1f}".replace(".", ",") + " Punkte"


def tip(view: dict[str, Any]) -> Tip:
    """Stark's cross at the revealed tower (the one of equal moves crossing least), with
    why: the points it expects at the end, against the most points now."""
    template, crossed, progress = bots._sheet_of(view)
    solver = bots.Solver.of(template)
    unknown = bots._ALL
    for tower in view["revealed"]:
        unknown &= ~bots._bit(tower)
    now = int(view["scores"][view["seat"]])
    moves = solver.moves(view["current_tower"], crossed, progress)
    scored = sorted(
        ((now + solver.after(unknown, crossed, progress, a, g), g, a) for a, g in moves),
        key=lambda m: (-m[0], -m[1], m[2]),
    )
    expected, gain, action = scored[0]
    what = move_words(template, action)
    if action == MINUS:
        return Tip(action, "Minusfeld streichen",
                   f"Keine Hexe neben dem Turm passt: das nächste Minusfeld ({gain}). "
                   f"Am Ende im Schnitt {points(expected)}.")  # fmt: skip
    most = max(g for _, g, _ in scored)
    if gain == most:
        why = f"Bringt jetzt am meisten ({gain:+d}); am Ende im Schnitt {points(expected)}."
    else:
        greedy = next(m for m in scored if m[1] == most)
        why = (
            f"Jetzt {'nichts' if gain == 0 else f'nur {gain:+d}'}, aber am Ende im Schnitt "
            f"{points(expected)}. Das Meiste "
            f"jetzt ({greedy[1]:+d}: {move_words(template, greedy[2])}) gäbe "
            f"{points(greedy[0])}."
        )
    return Tip(action, what, why)
