"""How many turns and rolls an Engel & Bengel Durchgang takes, per player count: the basis
of the expected length in minutes that the box shows at the setup (info.TURNS_PER_DURCHGANG,
info.minutes).

Plays games of Normal computers on the shipped faces (the planner, as the box plays) and
counts per Durchgang the turns (a turn ends with Stopp, a roll that fits nothing, or the
last box) and the rolls. Prints the mean per player count, to be copied into
info.TURNS_PER_DURCHGANG (rounded), and the minutes the box would show for the default
target at four players.

Run: .venv/bin/python benchmarks/engel_bengel_minutes.py [--games 40]
"""

from __future__ import annotations

import argparse
import random
import statistics

from spielleiter.games.base import CHANCE, sample_chance
from spielleiter.games.engel_bengel import bots
from spielleiter.games.engel_bengel.info import TARGET, minutes
from spielleiter.games.engel_bengel.rules import EngelBengelGame, Move


def count(players: int, game: int, durchgaenge: int = 6) -> tuple[list[int], list[int]]:
    """(turns, rolls) of each Durchgang of one game of Normal computers."""
    state = EngelBengelGame(
        {"players": players, "end": "durchgaenge", "durchgaenge": durchgaenge}
    ).new_initial_state()
    chance = random.Random(game)
    thoughts = random.Random(f"minutes-{players}-{game}")
    turns, rolls = [0], [0]
    while not state.is_terminal():
        done = len(state.results)
        if state.current_player() == CHANCE:
            rolling = not state.laying_out and state.turn >= 0
            turn = state.turn
            state.apply_action(sample_chance(state, chance))
            if rolling:
                rolls[-1] += 1
                if state.turn != turn and len(state.results) == done:
                    turns[-1] += 1  # nothing fitted: the turn passed
        else:
            view = state.view(state.current_player())
            action = bots.choose(view, level="normal", rng=thoughts)
            turn = state.turn
            state.apply_action(action)
            if action == Move.STOPP or (state.turn != turn and len(state.results) == done):
                turns[-1] += 1
        if len(state.results) > done:
            turns[-1] += 1  # the last box ended the turn and the Durchgang
            turns.append(0)
            rolls.append(0)
    return turns[:-1], rolls[:-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per player count")
    args = parser.parse_args()
    print(f"{args.games} games of Normal computers per player count, 6 Durchgänge each")
    print("players  turns/Durchgang  rolls/Durchgang")
    for players in range(2, 9):
        turns: list[int] = []
        rolls: list[int] = []
        for game in range(args.games):
            t, r = count(players, game)
            turns += t
            rolls += r
        print(f"{players:>7}  {statistics.mean(turns):>15.1f}  {statistics.mean(rolls):>15.1f}")
    print(f"the box shows for target {TARGET}, four players (one human): "
          f"about {minutes(4, 1, 'ziel', TARGET, 40)} minutes")  # fmt: skip


if __name__ == "__main__":
    main()
