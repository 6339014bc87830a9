"""A recorded Speedtombola match as text, for `spielleiter-host replay`.

Each finished round prints as its Tafel: every Festgast's Garnituren with the counting
lot in brackets, the calculation, and the lots that were out of the drum. An unfinished
record ends with the position so far.
"""

from __future__ import annotations

from collections.abc import Sequence

from spielleiter.games.base import ranks
from spielleiter.games.speedtombola.rules import RoundResult, SpeedtombolaState, garnituren
from spielleiter.records import Record


def garnitur_text(run: Sequence[int]) -> str:
    """A Garnitur with the lot that counts in brackets: "[25] 26 27"."""
    return " ".join([f"[{run[0]}]", *(str(x) for x in run[1:])])


def calculation(lots: Sequence[int], groschen: int) -> str:
    """The Rechenweg of one seat: "4 + [10] 11 ... − 5 Groschen = 28"."""
    counted = [run[0] for run in garnituren(lots)]
    total = sum(counted) - groschen
    terms = " + ".join(str(x) for x in counted) or "0"
    return f"{terms} − {groschen} Groschen = {total}"


def tafel_lines(result: RoundResult, names: Sequence[str], number: int) -> list[str]:
    """The Tafel of one finished round."""
    lines = [f"Runde {number}"]
    width = max(len(n) for n in names)
    for seat, name in enumerate(names):
        runs = "  ".join(garnitur_text(r) for r in garnituren(result.lots[seat])) or "-"
        lines.append(f"  {name:<{width}}  {runs}")
        lines.append(f"  {'':<{width}}  {calculation(result.lots[seat], result.groschen[seat])}")
    lines.append(f"  Raus waren: {' '.join(str(x) for x in result.removed)}")
    return lines


def position_lines(state: SpeedtombolaState, names: Sequence[str]) -> list[str]:
    """Where an unfinished match stands."""
    lines = [f"Runde {state.round_index + 1} läuft, {state.drum_count} Lose in der Trommel"]
    if state.lot is not None:
        who = names[state.current_player()]
        lines.append(f"  Gewinn {state.lot} mit {state.pot} Groschen, {who} ist dran")
    width = max(len(n) for n in names)
    for seat, name in enumerate(names):
        runs = "  ".join(garnitur_text(r) for r in garnituren(state.lots[seat])) or "-"
        lines.append(f"  {name:<{width}}  {state.groschen[seat]:>2} Groschen  {runs}")
    return lines


def replay_text(record: Record) -> str:
    """The whole record as text: each finished round's Tafel, then the end or the position."""
    state = record.replay()
    assert isinstance(state, SpeedtombolaState)
    seats = record.seats
    names = [seats[i].name if i < len(seats) else f"Platz {i + 1}" for i in range(len(state.lots))]
    lines: list[str] = []
    for number, result in enumerate(state.results, start=1):
        lines += tafel_lines(result, names, number)
    if state.is_terminal():
        totals = state.match_points
        lines.append("Endstand")
        for name, points, place in sorted(
            zip(names, totals, ranks(totals, lower_is_better=True), strict=True), key=lambda t: t[2]
        ):
            lines.append(f"  {place}. {name}  {points} Punkte")
    else:
        lines += position_lines(state, names)
    return "\n".join(lines)
