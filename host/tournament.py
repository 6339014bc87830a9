"""`spielleiter-host tournament`: computer players against each other, offline.

Each deal (the removed lots and the draw order of every round) is played once per seat
rotation, so every entry of --seats meets the same luck from every chair; the games are
rounded up to a multiple of the number of seats. Win share counts a tie for first as a
split share.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from spielleiter.games.speedtombola import bots
from spielleiter.games.speedtombola.rules import ALL_LOTS, SpeedtombolaGame


@dataclass(frozen=True)
class Setup:
    """What every match of a tournament shares."""

    seats: tuple[str, ...]
    rounds: int = 1
    removed: int = 9
    seed: int = 7


def deal_orders(setup: Setup, deal: int) -> list[list[int]]:
    """Each round's lots in drum order (the first `removed` fly out) for one deal."""
    rng = random.Random(f"speedtombola-deal-{setup.seed}-{deal}")
    return [rng.sample(ALL_LOTS, len(ALL_LOTS)) for _ in range(setup.rounds)]


def play_match(
    setup: Setup, levels: Sequence[str], orders: list[list[int]], bot_seed: int
) -> list[int]:
    """Match points of each seat, `levels[s]` playing seat s on the given drums."""
    params = {"players": len(levels), "rounds": setup.rounds, "removed": setup.removed}
    game = SpeedtombolaGame(params)
    state = game.new_initial_state()
    decision = 0
    while not state.is_terminal():
        if state.is_chance_node():
            order = orders[state.round_index]
            state.apply_action(next(lot for lot in order if lot in state.drum))
            continue
        seat = state.current_player()
        decision += 1
        rng = random.Random(bot_seed * 1_000_003 + decision)
        move = bots.choose(state.view(seat), level=levels[seat], rng=rng)
        state.apply_action(move)
    return state.match_points


def win_shares(points: Sequence[int]) -> list[float]:
    """1 for the sole winner, split equally among tied winners, else 0."""
    best = min(points)
    winners = sum(1 for p in points if p == best)
    return [1.0 / winners if p == best else 0.0 for p in points]


def play_deal(args: tuple[Setup, int]) -> list[tuple[list[float], list[int]]]:
    """Every seat rotation of one deal: per game, each entry's win share and points."""
    setup, deal = args
    orders = deal_orders(setup, deal)
    k = len(setup.seats)
    games = []
    for rotation in range(k):
        levels = [setup.seats[(s - rotation) % k] for s in range(k)]
        points = play_match(setup, levels, orders, setup.seed * 7919 + deal * k + rotation)
        shares = win_shares(points)
        entry_seat = [(i + rotation) % k for i in range(k)]
        games.append(([shares[s] for s in entry_seat], [points[s] for s in entry_seat]))
    return games


def run(setup: Setup, games: int, jobs: int = 1, progress: bool = True) -> dict:
    """Play the tournament; the --json result."""
    k = len(setup.seats)
    deals = max(1, math.ceil(games / k))
    tasks = [(setup, d) for d in range(deals)]
    results: list[tuple[list[float], list[int]]] = []
    for done, deal_games in enumerate(_map(tasks, jobs), start=1):
        results.extend(deal_games)
        if progress:
            _progress(done, deals)
    summary = []
    for i, level in enumerate(setup.seats):
        shares = [g[0][i] for g in results]
        points = [g[1][i] for g in results]
        summary.append(
            {
                "seat": level,
                "win_share": _mean(shares),
                "win_share_se": _se(shares),
                "mean_points": _mean(points),
            }
        )
    return {"game": "speedtombola", "games": len(results), "results": summary}


def _map(tasks: list[tuple[Setup, int]], jobs: int) -> Iterator[list]:
    if jobs <= 1:
        yield from map(play_deal, tasks)
        return
    with multiprocessing.Pool(jobs) as pool:
        yield from pool.imap_unordered(play_deal, tasks)


def _progress(done: int, total: int) -> None:
    width = 30
    filled = width * done // total
    bar = "#" * filled + "." * (width - filled)
    print(f"\r[{bar}] {done}/{total} deals", end="", file=sys.stderr)
    if done == total:
        print(file=sys.stderr)


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs)


def _se(xs: Sequence[float]) -> float:
    if len(xs) < 2:
        return 0.0
    m = _mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1) / len(xs))


def _command(args: argparse.Namespace) -> int:
    seats = tuple(s.strip() for s in args.seats.split(","))
    unknown = [s for s in seats if s not in bots.LEVELS]
    if unknown or not 3 <= len(seats) <= 7:
        print(f"--seats: 3 to 7 of {', '.join(bots.LEVELS)}", file=sys.stderr)
        return 2
    setup = Setup(seats=seats, rounds=args.rounds, removed=args.removed, seed=args.seed)
    result = run(setup, args.games, jobs=args.jobs, progress=not args.no_progress)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{result['game']}: {result['games']} games, seats {','.join(seats)}")
    for r in result["results"]:
        print(
            f"  {r['seat']:<7} win {r['win_share']:.3f} ± {r['win_share_se']:.3f}"
            f"   mean points {r['mean_points']:.1f}"
        )
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `tournament GAME --seats ...`."""
    p = subparsers.add_parser("tournament", help="computer players against each other, offline")
    p.add_argument("game", choices=["speedtombola"])
    p.add_argument("--seats", required=True, help="levels in seat order, e.g. stark,normal,normal")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--rounds", type=int, default=1, choices=[1, 3, 5])
    p.add_argument("--removed", type=int, default=9, choices=[6, 9, 12])
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.set_defaults(func=_command)
