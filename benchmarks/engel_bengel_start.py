"""Engel & Bengel: what a seat's place in a Durchgang's order is worth — the chips each
player gains in a Durchgang by its place after the one who starts it (0: the starter,
the left neighbour of the last Durchgang's last placer), in whole games of computers of
one level, per player count.

"against the others" is a place's mean less the mean of the other places: what a plan
that counts its own chips against the others' mean would count. The last place is the
last placer's: whoever fills the last box of a face hands the next Durchgang's start to
its left neighbour and plays last in it.

Run: .venv/bin/python benchmarks/engel_bengel_start.py [--games N] [--players 2 3 ...]
     [--level normal|stark]
"""

from __future__ import annotations

import argparse
import statistics

from spielleiter.games.engel_bengel import arena

SEED = 17
"""The deals' seed (`arena.match`)."""


def gains_by_place(players: int, games: int, level: str) -> list[list[int]]:
    """The chips each Durchgang brought the seat at each place after its starter, over
    `games` games of `players` computers of `level` (the first Durchgang's starter is
    seat 0: the house rule "erster")."""
    gains: list[list[int]] = [[] for _ in range(players)]
    for g in range(games):
        state = arena.match([level] * players, (SEED, g), g, {"start": "erster"})
        starter, before = 0, [int(state.game.params["chips"])] * players
        for result in state.results:
            for seat in range(players):
                gains[(seat - starter) % players].append(result.chips[seat] - before[seat])
            starter, before = result.next_start, list(result.chips)
    return gains


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5, 6, 7, 8])
    parser.add_argument("--level", choices=("normal", "stark"), default="normal")
    args = parser.parse_args()
    print(f"{args.games} games a table of {args.level} computers; chips a Durchgang by place")
    print("(0 = the starter; mean ± standard error, then against the others' mean)")
    for players in args.players:
        gains = gains_by_place(players, args.games, args.level)
        means = [statistics.mean(g) for g in gains]
        errors = [statistics.stdev(g) / len(g) ** 0.5 for g in gains]
        against = [m - (sum(means) - m) / (players - 1) for m in means]
        print(f"{players} players, {len(gains[0])} Durchgänge")
        print("  place  " + "".join(f"{p:>8}" for p in range(players)))
        print("  mean   " + "".join(f"{m:8.2f}" for m in means))
        print("  ± s.e. " + "".join(f"{e:8.2f}" for e in errors))
        print("  against" + "".join(f"{a:8.2f}" for a in against))


if __name__ == "__main__":
    main()
