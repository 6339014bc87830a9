"""A recorded Engel & Bengel game as text, for `spielleiter-host replay`.

Each finished Durchgang prints its face, who completed which row for how many chips, and
the chips after it; an unfinished record ends with the position so far.
"""

from __future__ import annotations

from collections.abc import Sequence

from spielleiter.games.engel_bengel.rules import DurchgangResult, EngelBengelState
from spielleiter.records import Record


def durchgang_lines(result: DurchgangResult, names: Sequence[str]) -> list[str]:
    """One finished Durchgang: the face, the rows completed, the chips after it."""
    lines = [f"Durchgang {result.number}: {result.face}"]
    for p in result.payments:
        what = "bekommt" if p.moved >= 0 else "zahlt"
        lines.append(f"  Reihe {p.row + 1}: {names[p.seat]} {what} {abs(p.moved)}")
    chips = ", ".join(f"{n} {c}" for n, c in zip(names, result.chips, strict=True))
    lines.append(f"  Chips: {chips}")
    lines.append(f"  letzter Würfel: {names[result.last]}, es beginnt {names[result.next_start]}")
    return lines


def position_lines(state: EngelBengelState, names: Sequence[str]) -> list[str]:
    """Where an unfinished game stands."""
    lines = [f"Durchgang {state.durchgang + 1} läuft: {state.face.name}"]
    for r, row in enumerate(state.face.rows):
        boxes = " ".join(str(v) for v in state.board[r]) or "-"
        lines.append(f"  Reihe {r + 1} ({row.kind}, {row.colour} {row.value}): {boxes}")
    if state.turn >= 0:
        lines.append(f"  am Zug: {names[state.turn]}, Wurf {' '.join(map(str, state.roll)) or '-'}")
    for seat, name in enumerate(names):
        lines.append(f"  {name}: {state.chips[seat]} Chips, {state.dice[seat]} Würfel")
    return lines


def replay_text(record: Record) -> str:
    """The whole record as text: each Durchgang's settlement, then the end or the position."""
    state = record.replay()
    assert isinstance(state, EngelBengelState)
    seats = record.seats
    names = [seats[i].name if i < len(seats) else f"Platz {i + 1}" for i in range(state.players)]
    lines: list[str] = []
    for result in state.results:
        lines += durchgang_lines(result, names)
    if state.is_terminal():
        lines.append("Spielende")
        order = sorted(range(state.players), key=lambda s: (state.places()[s], names[s]))
        for s in order:
            lines.append(f"  {state.places()[s]}. {names[s]}  {state.chips[s]} Chips")
    else:
        lines += position_lines(state, names)
    return "\n".join(lines)
