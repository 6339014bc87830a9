"""Engel & Bengel: how often the next player finishes a row that a turn leaves one, two
or three boxes short, by the row's colour, whether it is still empty and the next
player's cup — measured in games of Stark against two Normal, beside what the plans
assume (`bots.FINISH`, `bots.BLACK_FINISH`, which were measured this way).

A row counts when a turn ends with it 1-3 boxes short; it is finished when it is full at
the end of the next player's turn (the same Durchgang). Rows of a kind met fewer than
`--least` times are left out.

Run: .venv/bin/python benchmarks/engel_bengel_finish.py [GAMES] [--least N]
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict

from spielleiter.games.base import sample_chance
from spielleiter.games.engel_bengel import bots
from spielleiter.games.engel_bengel.rules import EngelBengelGame

Kind = tuple[bool, str, int, int]
"""(white, what the next box takes (bots.row_state), boxes left, the next player's cup)."""


def finish_counts(games: int, players: int = 3) -> dict[Kind, list[int]]:
    """(rows met, rows the next player finished) per kind, in games of Stark (seat 0)
    against Normal."""
    counts: dict[Kind, list[int]] = defaultdict(lambda: [0, 0])
    for g in range(games):
        state = EngelBengelGame({"players": players}).new_initial_state()
        rng = random.Random(g)
        left_by: tuple[int, list[tuple[int, int, Kind]]] | None = None
        last = None
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            seat = state.current_player()
            view = state.view(seat)
            if last is not None and seat != last:
                # `last`'s turn is over and `seat`'s begins: count what the turn before
                # `last`'s left, then note what `last` leaves to `seat`
                if left_by is not None and left_by[0] == state.durchgang:
                    for r, boxes, kind in left_by[1]:
                        counts[kind][0] += 1
                        counts[kind][1] += len(state.board[r]) == boxes
                face = bots.face_of(view)
                rows = []
                for r, row in enumerate(face.rows):
                    left = row.boxes - len(state.board[r])
                    if 1 <= left <= 3:
                        filled = len(state.board[r])
                        kind = (row.white, bots.row_state(row, filled), left, int(view["cup"]))
                        rows.append((r, row.boxes, kind))
                left_by = (state.durchgang, rows)
            last = seat
            mover = bots.stark_move if seat == 0 else bots.normal_move
            state.apply_action(mover(view))
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=150)
    parser.add_argument("--least", type=int, default=20)
    args = parser.parse_args()
    counts = finish_counts(args.games)
    print(f"{args.games} games of Stark against two Normal (3 players)")
    print("colour  next box  left  cup     rows  finished  bots.FINISH")
    for kind in sorted(counts):
        white, state, left, cup = kind
        met, done = counts[kind]
        if met < args.least:
            continue
        table = bots.FINISH.get((state, left)) if white else None
        if not white and left == 1:
            table = bots.BLACK_FINISH
        assumed = table[cup - 1] if table else 0.0
        colour = "white" if white else "black"
        print(
            f"{colour:6}  {state:8}  {left:4}  {cup:3}  {met:7}  {done / met:8.2f}"
            f"  {assumed:11.2f}"
        )


if __name__ == "__main__":
    main()
