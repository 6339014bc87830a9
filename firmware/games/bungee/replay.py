"""A recorded Bungee match as text, for `spielleiter-host replay`.

Each finished round prints as its sheet: the lucky number, the calls in order, every
hand (digital play) with its points, who won and what each player writes, and the
running totals. An unfinished record ends with the position so far.
"""

from __future__ import annotations

from collections.abc import Sequence

from spielleiter.games.bungee.rules import BungeeState, RoundResult, face_name
from spielleiter.records import Record


def sheet_lines(
    result: RoundResult, names: Sequence[str], number: int, totals: Sequence[int]
) -> list[str]:
    """The sheet of one finished round."""
    calls = ", ".join(names[s] for s in result.calls) or "niemand"
    lines = [f"Runde {number}: Glückszahl {result.lucky}, Bungee: {calls}"]
    width = max(len(n) for n in names)
    for seat, name in enumerate(names):
        cards = " ".join(face_name(f) for f in result.hands[seat]) if result.hands else ""
        bungees = f" + {result.bungees[seat]} Bungee" if result.bungees[seat] else ""
        won = "  gewinnt" if seat in result.winners else ""
        lines.append(
            f"  {name:<{width}}  {cards:<24} {result.points[seat]:>2} Punkte{bungees}"
            f"  schreibt {result.scores[seat]:>3}  Summe {totals[seat]:>4}{won}"
        )
    return lines


def replay_text(record: Record) -> str:
    """The whole record as text: each round's sheet, then the Endstand or the position."""
    state = record.replay()
    assert isinstance(state, BungeeState)
    n = state.game.num_players
    seats = record.seats
    names = [seats[i].name if i < len(seats) else f"Platz {i + 1}" for i in range(n)]
    lines: list[str] = []
    totals = [0] * n
    for number, result in enumerate(state.results, start=1):
        totals = [t + s for t, s in zip(totals, result.scores, strict=True)]
        lines += sheet_lines(result, names, number, totals)
    if state.is_terminal():
        lines.append("Endstand")
        for place, name, total in sorted(zip(state.places(), names, state.totals, strict=True)):
            lines.append(f"  {place}. {name}  {total} Punkte")
    else:
        lines.append(f"Runde {state.round_index + 1} läuft, {len(state.history())} Aktionen")
        if state.calls:
            lines.append("  Bungee: " + ", ".join(names[s] for s in state.calls))
    return "\n".join(lines)
