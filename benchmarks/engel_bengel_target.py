"""How long an Engel & Bengel game lasts for each target, and how often the cap ends it.

Plays games of computers with no target (they stop only after `--horizon` Durchgänge),
notes the richest player's chips after every Durchgang, and prints:

1. for four Normal computers and targets 100 to 150, the mean and median number of
   Durchgänge until someone has reached the target: the measurement that chose the default
   target (info.TARGET, about eight Durchgänge, DESIGN.md);
2. for 2 to 8 players of Normal computers (and of Stark computers), per target, the mean and
   95th percentile of those Durchgänge, and the share of games in which nobody has the
   target when the cap (info.LIMIT Durchgänge, the default) ends the game: the measurement
   that chose the bounds of the target and of the cap (docs/engel-bengel.md);
3. the CPU time the computers took per Durchgang, here and estimated for a Raspberry Pi
   Zero 2 W (the factor of benchmarks/pi.py's calibration loop), and this run's total.

A game whose richest player never reaches a target within the horizon counts as longer
than the horizon: a mean or percentile beyond it prints as ">N".

The defaults take about 30 min of CPU on the development machine (9 for Normal, 20 for
Stark); `--jobs 2` shares them out, `--stark-games 0` leaves Stark out.

Run: .venv/bin/python benchmarks/engel_bengel_target.py [--games 400] [--stark-games 20]
     [--horizon 100] [--stark-horizon 40] [--jobs 1]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from spielleiter.games.base import sample_chance
from spielleiter.games.engel_bengel import bots
from spielleiter.games.engel_bengel.info import LIMIT, TARGET
from spielleiter.games.engel_bengel.rules import EngelBengelGame

PLAYERS = range(2, 9)
DEFAULT_TARGETS = range(100, 155, 5)
"""The targets of the first table (four Normal computers)."""
TARGETS = (100, 125, 150, 175, 200, 225, 250, 300)
"""The targets of the table per player count."""


@dataclass(frozen=True)
class Runs:
    """Games of one table: the richest player's chips after each Durchgang, and the CPU."""

    level: str
    players: int
    horizon: int
    richest: list[list[int]]
    cpu_s: float

    def lengths(self, target: int) -> list[float]:
        """Per game the Durchgänge until someone has `target` (inf: not within the horizon)."""
        return [
            next((i + 1 for i, chips in enumerate(run) if chips >= target), math.inf)
            for run in self.richest
        ]

    @property
    def durchgaenge(self) -> int:
        return sum(len(run) for run in self.richest)


def play(level: str, players: int, game: int, horizon: int) -> list[int]:
    """One game of `players` computers of `level`: the richest chips after each Durchgang."""
    state = EngelBengelGame(
        {"players": players, "target": 10_000, "limit": horizon}
    ).new_initial_state()
    chance = random.Random(game)
    thoughts = random.Random(f"engel-bengel-target-{level}-{players}-{game}")
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, chance))
            continue
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
            continue
        view = state.view(state.current_player())
        state.apply_action(bots.choose(view, level=level, rng=thoughts))
    return [max(result.chips) for result in state.results]


def play_table(level: str, players: int, games: int, horizon: int) -> Runs:
    started = time.process_time()
    richest = [play(level, players, g, horizon) for g in range(games)]
    return Runs(level, players, horizon, richest, time.process_time() - started)


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank percentile (inf stays inf)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def cell(runs: Runs, target: int, cap: int) -> str:
    """ "mean/p95 miss%": the Durchgänge until the target, and the share not there by the cap."""
    lengths = runs.lengths(target)
    reached = [x for x in lengths if x != math.inf]
    if len(reached) == len(lengths):
        mean = f"{statistics.mean(lengths):.1f}"
    else:
        mean = f">{statistics.mean(min(x, runs.horizon) for x in lengths):.0f}"
    p95 = percentile(lengths, 95)
    high = f"{p95:.0f}" if p95 != math.inf else f">{runs.horizon}"
    missed = 100 * sum(1 for x in lengths if x > cap) / len(lengths)
    share = "<1%" if 0 < missed < 0.5 else f"{missed:.0f}%"
    return f"{mean}/{high} {share}"


def default_target_table(runs: Runs) -> None:
    """The first table: four Normal computers, the mean and median for targets 100-150."""
    print(
        f"{len(runs.richest)} games of four Normal computers; Durchgänge until someone has "
        "the target"
    )
    for target in DEFAULT_TARGETS:
        lengths = [min(x, runs.horizon) for x in runs.lengths(target)]
        mark = "  <- default" if target == TARGET else ""
        print(
            f"target {target}: mean {statistics.mean(lengths):.2f} "
            f"(se {statistics.stdev(lengths) / len(lengths) ** 0.5:.2f}), "
            f"median {statistics.median(lengths):.0f}{mark}"
        )


def players_table(tables: list[Runs], cap: int) -> None:
    """The table per player count: rows are targets, columns player counts."""
    first = tables[0]
    print(
        f"{first.level.capitalize()} computers, {len(first.richest)} games per player count "
        f"(up to {first.horizon} Durchgänge); per target: mean/95th percentile of the "
        f"Durchgänge until someone has it, and the share of games in which nobody has it "
        f"when the cap of {cap} ends the game"
    )
    width = 14
    print("target " + "".join(f"{f'{r.players} players':<{width}}" for r in tables))
    for target in TARGETS:
        mark = "  <- default" if target == TARGET else ""
        print(f"{target:<7}" + "".join(f"{cell(r, target, cap):<{width}}" for r in tables) + mark)


def times_table(tables: list[Runs], factor: tuple[float, float] | None) -> None:
    """The computers' CPU per Durchgang, here and on a Zero 2 W."""
    for runs in tables:
        per = runs.cpu_s / max(1, runs.durchgaenge)
        pi = f", Zero 2 W {per * factor[0]:.2f}-{per * factor[1]:.2f} s" if factor else ""
        print(
            f"  {runs.level:<6} {runs.players} players: {per * 1000:7.1f} ms CPU per Durchgang "
            f"here{pi} ({runs.durchgaenge} Durchgänge)"
        )


def zero_2w_factor() -> tuple[float, float] | None:
    """How many times slower a Zero 2 W is than this machine (benchmarks/pi.py's loop)."""
    try:
        import pi
    except ImportError as exc:  # run from elsewhere than benchmarks/
        print(f"no Zero 2 W estimate: benchmarks/pi.py does not load ({exc})")
        return None
    _, factor = pi.calibrate(200, 2)
    return factor.low, factor.high


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="Normal games per player count")
    parser.add_argument(
        "--stark-games", type=int, default=20, help="Stark games per count (0: none)"
    )
    parser.add_argument("--horizon", type=int, default=100, help="Durchgänge a Normal game plays")
    parser.add_argument("--stark-horizon", type=int, default=LIMIT, help="the same for Stark")
    parser.add_argument("--cap", type=int, default=LIMIT, help="the cap whose misses are counted")
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    args = parser.parse_args()
    if min(args.horizon, args.stark_horizon if args.stark_games else args.cap) < args.cap:
        parser.error("a horizon shorter than the cap cannot tell who reached the target by it")
    started = time.perf_counter()
    work = [("normal", n, args.games, args.horizon) for n in PLAYERS]
    if args.stark_games:
        work += [("stark", n, args.stark_games, args.stark_horizon) for n in PLAYERS]
    with ProcessPoolExecutor(args.jobs) as pool:
        tables = list(pool.map(play_table, *zip(*work, strict=True)))
    normal = [t for t in tables if t.level == "normal"]
    stark = [t for t in tables if t.level == "stark"]
    default_target_table(next(t for t in normal if t.players == 4))
    print()
    players_table(normal, args.cap)
    if stark:
        print()
        players_table(stark, args.cap)
    print()
    factor = zero_2w_factor()
    slower = (
        f" (a Zero 2 W is x{factor[0]:.1f}-{factor[1]:.1f} slower: benchmarks/pi.py)"
        if factor
        else ""
    )
    print(f"the computers' thinking{slower}")
    times_table(tables, factor)
    cpu = sum(t.cpu_s for t in tables)
    pi = (
        f"; on a Zero 2 W about {cpu * factor[0] / 60:.0f}-{cpu * factor[1] / 60:.0f} min"
        if factor
        else ""
    )
    print(
        f"this run: {cpu / 60:.1f} min CPU here ({time.perf_counter() - started:.0f} s wall "
        f"with {args.jobs} process(es)){pi}"
    )


if __name__ == "__main__":
    main()
