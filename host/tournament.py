"""`spielleiter-host tournament GAME`: computer players against each other, offline.

Any game whose catalog entry names an arena (one whole game between computers) can
hold a tournament. Each deal (the chance a game meets: drums, dice, cards, seeded from
the command's seed and the deal's index) is played once per seat rotation, so every
entry of --seats meets the same luck from every chair; the games are rounded up to a
multiple of the number of seats. Win share counts a tie for first as a split share.
Each entry's rating after the run (the box's model, folded in game order) states a bot's
strength in the unit of the Bestenliste. Results are combined in deal order, so the same
seed gives the same numbers on one process, several (--jobs) or a Dask cluster
(--cluster); --results FILE keeps finished deals so a stopped run goes on (see
host/runner.py).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from spielleiter import ratings
from spielleiter.games import catalog

from . import runner
from .device import HostError, UsageError, did_you_mean, report, whole_number
from .i18n import _, said


@dataclass(frozen=True)
class Setup:
    """What every game of a tournament shares."""

    game: str
    seats: tuple[str, ...]
    params: Mapping[str, Any] = field(default_factory=dict)
    """House rules of the game (e.g. Speedtombola's rounds and removed lots)."""
    seed: int = 7


def with_arena() -> list[catalog.GameEntry]:
    """The games that can hold a tournament."""
    return [e for e in catalog.entries() if e.arena]


def win_shares(places: Sequence[int]) -> list[float]:
    """1 for the sole winner, split equally among tied winners, else 0."""
    winners = sum(1 for p in places if p == 1)
    return [1.0 / winners if p == 1 else 0.0 for p in places]


def play_deal(setup: Setup, deal: int) -> list[tuple[list[float], list[float], list[int]]]:
    """Every seat rotation of one deal: per game, each entry's win share, points and place."""
    entry = catalog.entry(setup.game)
    play = entry.load(entry.arena)
    k = len(setup.seats)
    games = []
    for rotation in range(k):
        levels = [setup.seats[(s - rotation) % k] for s in range(k)]
        bot_seed = setup.seed * 7919 + deal * k + rotation
        places, points = play(levels, (setup.seed, deal), bot_seed, setup.params)
        shares = win_shares(places)
        entry_seat = [(i + rotation) % k for i in range(k)]
        games.append(
            (
                [shares[s] for s in entry_seat],
                [points[s] for s in entry_seat],
                [int(places[s]) for s in entry_seat],
            )
        )
    return games


def plan(setup: Setup, games: int) -> runner.Plan:
    """The deals of a tournament of at least `games` games, as a run."""
    k = len(setup.seats)
    deals = max(1, math.ceil(games / k))
    params = {"game": setup.game, "seats": list(setup.seats), "params": dict(setup.params),
              "seed": setup.seed, "deals": deals, "results": "places"}  # fmt: skip
    return runner.Plan(
        f"tournament {setup.game}", params, deals, partial(play_deal, setup), games_per_item=k
    )


def run(
    setup: Setup, games: int, jobs: int = 1, progress: bool = False, **where: Any
) -> dict[str, Any]:
    """Play the tournament; the --json result (`where`: runner.Options fields)."""
    options = runner.Options(jobs=jobs, progress=progress, **where)
    results = [g for deal in runner.execute(plan(setup, games), options) for g in deal]
    rated = seat_ratings(setup.seats, [g[2] for g in results])
    summary = []
    for i, level in enumerate(setup.seats):
        shares = [g[0][i] for g in results]
        points = [g[1][i] for g in results]
        summary.append(
            {
                "seat": level,
                "win_share": mean(shares),
                "win_share_se": standard_error(shares),
                "mean_points": mean(points),
                "rating": rated[i].conservative,
                "mu": rated[i].mu,
                "sigma": rated[i].sigma,
            }
        )
    return {"game": setup.game, "games": len(results), "results": summary}


def seat_ratings(seats: Sequence[str], places: Sequence[Sequence[int]]) -> list[ratings.Rating]:
    """Each entry's rating after the tournament's games, folded in their order with the
    box's model (spielleiter.ratings): every entry of --seats is a player of its own, new
    at the start, so a bot's strength is stated in the unit of the box's Bestenliste.

    >>> [round(r.mu, 2) for r in seat_ratings(["stark", "normal"], [[1, 2], [1, 2]])]
    [29.66, 20.34]
    """
    players = [ratings.Player("seat", f"{i + 1}:{seat}") for i, seat in enumerate(seats)]
    done = ratings.fold(
        ratings.Match(n, float(n), tuple(zip(players, game, strict=True)))
        for n, game in enumerate(places)
    )
    return [done.ratings.get(p) or ratings.Rating(p) for p in players]


def mean(xs: Sequence[float]) -> float:
    """The mean of win shares or points."""
    return sum(xs) / len(xs)


def standard_error(xs: Sequence[float]) -> float:
    """The standard error of their mean (0 for fewer than two)."""
    if len(xs) < 2:
        return 0.0
    m = mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1) / len(xs))


def _house_rules(args: argparse.Namespace, entry: catalog.GameEntry) -> dict[str, Any] | str:
    """The game's house rules from the options (its defaults for the rest), or a problem."""
    params: dict[str, Any] = {}
    for rule in _rules():
        value = getattr(args, rule.param, None)
        ours = next((r for r in entry.house_rules if r.param == rule.param), None)
        if value is None:
            continue
        if ours is None:
            return _("--{option} is not a house rule of {game}").format(
                option=rule.param, game=entry.id
            )
        if value not in ours.options:
            choices = ", ".join(map(str, ours.options))
            return _("--{option}: one of {choices} for {game}").format(
                option=rule.param, choices=choices, game=entry.id
            )
        params[rule.param] = value
    return params


def _command(args: argparse.Namespace) -> int:
    try:
        setup = _setup(args)
        options = runner.options_from(args, args.json)
        result = run(setup, args.games, **vars(options))
    except runner.Stopped as exc:
        return report(HostError(f"tournament: {exc}"), code=130)
    except runner.RunError as exc:
        return report(UsageError(f"tournament: {exc}"))
    except HostError as exc:
        return report(exc)
    except ValueError as exc:  # an outside bot that answered wrong: its seat is named
        return report(HostError(f"tournament: {said(exc)}"))
    seats = setup.seats
    if result["games"] != args.games:
        rounded = _(
            "{games} games: every deal is played from each of the {seats} seats, so --games"
            " is rounded up to a multiple of {seats}"
        ).format(games=result["games"], seats=len(seats))
        print(f"tournament: {rounded}", file=sys.stderr)
    if args.json:
        print(json.dumps(result))
        return 0
    print(
        _("{game}: {games} games, seats {seats}").format(
            game=result["game"], games=result["games"], seats=",".join(seats)
        )
    )
    line = _(
        "  {number}. {seat:<7} win {win:.3f} ± {se:.3f}   mean points {points:.1f}"
        "   rating {rating:.1f} (mu {mu:.1f}, sigma {sigma:.1f})"
    )
    for number, r in enumerate(result["results"], start=1):  # seat numbers: twins differ
        print(
            line.format(
                number=number, seat=r["seat"], win=r["win_share"], se=r["win_share_se"],
                points=r["mean_points"], rating=r["rating"], mu=r["mu"], sigma=r["sigma"],
            )
        )  # fmt: skip
    return 0


def _setup(args: argparse.Namespace) -> Setup:
    """The tournament the command line asks for (UsageError names what is wrong)."""
    entry = catalog.entry(args.game)
    try:
        seats = tuple(canonical_seat(entry, s) for s in args.seats.split(","))
    except ValueError as exc:
        raise UsageError(f"--seats: {said(exc)}") from None
    if not entry.min_seats <= len(seats) <= entry.max_seats:
        raise UsageError(
            _("--seats: {least} to {most} seats").format(
                least=entry.min_seats, most=entry.max_seats
            )
        )
    if args.cluster and any(_is_outside(s) for s in seats):
        raise UsageError(
            _(
                "--cluster: your own bots (PATH.py:FUNCTION) run only on this computer;"
                " use --jobs N with them"
            )
        )
    params = _house_rules(args, entry)
    if isinstance(params, str):
        raise UsageError(params)
    return Setup(game=entry.id, seats=seats, params=params, seed=args.seed)


def canonical_seat(entry: catalog.GameEntry, name: str) -> str:
    """A seat of --seats as the game's arena knows it (levels are case-insensitive);
    ValueError names a seat it does not know."""
    module = entry.arena.partition(":")[0]
    try:
        check = entry.load(f"{module}:seat")
    except AttributeError:
        key = name.strip().lower()
        if key not in entry.levels:
            hint = did_you_mean(key, entry.levels)
            raise ValueError(
                _("unknown seat {seat!r}{hint}: one of {levels}").format(
                    seat=name, hint=hint, levels=", ".join(entry.levels)
                )
            ) from None
        return key
    return str(check(name))


def _is_outside(seat: str) -> bool:
    path, _colon, function = seat.rpartition(":")
    return path.endswith(".py") and bool(function)


def _rules() -> list[catalog.HouseRule]:
    """Every house rule of the games with an arena, once per parameter name."""
    found: dict[str, catalog.HouseRule] = {}
    for entry in with_arena():
        for rule in entry.house_rules:
            found.setdefault(rule.param, rule)
    return list(found.values())


def register(subparsers: Any) -> None:
    """Add `tournament GAME --seats ...`."""
    p = subparsers.add_parser("tournament", help=_("computer players against each other, offline"))
    p.add_argument("game", choices=[e.id for e in with_arena()])
    p.add_argument(
        "--seats",
        required=True,
        metavar=_("SEATS"),
        help=_(
            "seats in order, e.g. stark,normal,normal: computer levels, the game's test"
            " opponents, or your own bot as PATH.py:FUNCTION"
        ),
    )
    p.add_argument(
        "--games", type=whole_number(1), default=1000, metavar="N",
        help=_("games in all (default 1000; a multiple of the seats)"),
    )  # fmt: skip
    p.add_argument("--seed", type=int, default=7, metavar="N", help=_("seed of the games"))
    for rule in _rules():
        games = ", ".join(e.id for e in with_arena() if rule in e.house_rules)
        p.add_argument(
            f"--{rule.param}",
            type=type(rule.options[0]),
            metavar=rule.param.upper(),
            help=_("{rule} ({games}; default: the game's)").format(rule=rule.label, games=games),
        )
    runner.add_arguments(p)
    p.add_argument("--json", action="store_true", help=_("print the result as JSON"))
    p.set_defaults(func=_command)
