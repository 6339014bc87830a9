"""A recorded Engel & Bengel game as text, for `spielleiter-host replay`.

Each finished Durchgang prints its face, who completed which row for how many chips, and
the chips after it; then the end (and whether the cap ended it before anyone had the
target), or for an unfinished record the position so far.
"""

from __future__ import annotations

from collections.abc import Sequence

from spielleiter.games.engel_bengel.rules import DurchgangResult, EngelBengelState, Payment
from spielleiter.records import Record


def durchgang_lines(result: DurchgangResult, names: Sequence[str]) -> list[str]:
    """One finished Durchgang: the face, the rows completed, the chips after it."""
    lines = [f"Durchgang {result.number}: {result.face}"]
    for p in result.payments:
        lines.append(f"  Reihe {p.row + 1}: {names[p.seat]} {payment_words(p, names[p.seat])}")
    chips = ", ".join(f"{n} {c}" for n, c in zip(names, result.chips, strict=True))
    lines.append(f"  Chips: {chips}")
    lines.append(f"  letzter Würfel: {names[result.last]}, es beginnt {names[result.next_start]}")
    return lines


def payment_words(payment: Payment, name: str) -> str:
    """What a completed row moved, as the players say it: a white row pays ("bekommt 5"),
    a black row costs ("zahlt 8"), at most what the player has ("zahlt 0 statt 8: Anna hat
    keine Chips mehr")."""
    if payment.value >= 0:
        return f"bekommt {payment.moved}"
    paid, owed = -payment.moved, -payment.value
    if paid == owed:
        return f"zahlt {paid}"
    more = "keine Chips mehr" if paid == 0 else "nicht mehr Chips"
    return f"zahlt {paid} statt {owed}: {name} hat {more}"


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
        n = state.durchgang
        played = f"{n} Durchgang" if n == 1 else f"{n} Durchgängen"
        if state.capped():
            target = state.game.params["target"]
            lines.append(
                f"Spielende nach {played} (höchstens {state.game.last_durchgang}): "
                f"niemand hat {target} Chips"
            )
        else:
            lines.append(f"Spielende nach {played}")
        order = sorted(range(state.players), key=lambda s: (state.places()[s], names[s]))
        for s in order:
            lines.append(f"  {state.places()[s]}. {names[s]}  {state.chips[s]} Chips")
    else:
        lines += position_lines(state, names)
    return "\n".join(lines)
