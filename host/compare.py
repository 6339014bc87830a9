"""`spielleiter-host compare`: two tournaments on the same deals, side by side deal by deal.

A tournament's results file (`tournament GAME … --results FILE`) keeps every deal's games.
Two runs with the same game, seed and house rules, in which one seat changed and every
other seat stayed (a level against another, your own bot before and after an edit), met
the same luck: paired deal by deal, most of it cancels, and the change of that seat's win
share has a standard error several times smaller than either run's. Files of several
seeds pool: each --before file is paired with the --after file of its seed.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import runner
from .device import HostError, InvalidError, UsageError, report, whole_number
from .i18n import _, ngettext
from .output import table
from .tournament import mean, standard_error

TOURNAMENT = "tournament "
"""How the command of a tournament's results file begins (then the game)."""


@dataclass(frozen=True)
class Run:
    """One tournament's results file: its setup and each finished deal's win shares per
    entry of --seats, one list per seat rotation."""

    path: Path
    game: str
    seats: tuple[str, ...]
    rules: str
    """The house rules, as JSON (equal rules, equal text)."""
    seed: int
    shares: dict[int, list[list[float]]]


def load(path: Path) -> Run:
    """A tournament's results file; UsageError for a file that cannot be read or holds no
    JSON lines, InvalidError for one that holds no tournament (naming the file)."""
    try:
        header, items = runner.read_results(path)
    except runner.RunError as exc:
        raise UsageError(str(exc)) from None
    params = header.get("params") if isinstance(header, dict) else None
    command = header.get("command") if isinstance(header, dict) else None
    seats = params.get("seats") if isinstance(params, dict) else None
    if not (
        isinstance(params, dict)
        and isinstance(command, str)
        and command.startswith(TOURNAMENT)
        and isinstance(seats, list)
        and all(isinstance(s, str) for s in seats)
        and isinstance(params.get("seed"), int)
    ):
        raise InvalidError(_("{path}: not the results of a tournament").format(path=path))
    shares = {}
    for deal, games in sorted(items.items()):
        try:
            shares[deal] = [[float(x) for x in game[0]] for game in games]
        except (TypeError, ValueError, IndexError, KeyError):
            shares[deal] = []
        if not shares[deal] or any(len(row) != len(seats) for row in shares[deal]):
            raise InvalidError(
                _("{path}: deal {deal} is not a tournament's games of {seats} seats").format(
                    path=path, deal=deal, seats=len(seats)
                )
            )
    rules = json.dumps(params.get("params", {}), sort_keys=True)
    game = command.removeprefix(TOURNAMENT)
    return Run(path, game, tuple(seats), rules, params["seed"], shares)


def _by_seed(runs: Sequence[Run], side: str) -> dict[int, Run]:
    found: dict[int, Run] = {}
    for run in runs:
        if run.seed in found:
            raise UsageError(
                _("{side}: {first} and {second} are both of seed {seed}").format(
                    side=side, first=found[run.seed].path, second=run.path, seed=run.seed
                )
            )
        found[run.seed] = run
    return found


def _check_alike(runs: Sequence[Run], seat: int) -> None:
    """Every file the same game, house rules and seats but the compared one."""
    first = runs[0]
    if not 1 <= seat <= len(first.seats):
        raise UsageError(
            _("--seat {seat}: {path} has seats 1 to {seats}").format(
                seat=seat, path=first.path, seats=len(first.seats)
            )
        )
    others = [s for i, s in enumerate(first.seats, start=1) if i != seat]
    for run in runs[1:]:
        if run.game != first.game:
            why = _("a tournament of {game}, {first} of {other}").format(
                game=run.game, first=first.path, other=first.game
            )
        elif run.rules != first.rules:
            why = _("other house rules than {first}: {rules}, not {other}").format(
                first=first.path, rules=run.rules, other=first.rules
            )
        elif (
            len(run.seats) != len(first.seats)
            or [s for i, s in enumerate(run.seats, start=1) if i != seat] != others
        ):
            why = _("seats {seats}, but {first} has {other}: only seat {seat} may differ").format(
                seats=",".join(run.seats), first=first.path, other=",".join(first.seats), seat=seat
            )
        else:
            continue
        raise UsageError(f"{run.path}: {why}")


def compare(before: Sequence[Run], after: Sequence[Run], seat: int = 1) -> dict[str, Any]:
    """Seat `seat` (from 1) of the --before runs against the --after runs on the deals both
    played: per seed and over all, each side's mean win share per deal and the mean
    difference, with standard errors per deal; the --json result."""
    _check_alike([*before, *after], seat)
    olds, news = _by_seed(before, "--before"), _by_seed(after, "--after")
    i = seat - 1
    seeds: list[dict[str, Any]] = []
    pooled: tuple[list[float], list[float]] = ([], [])
    left_out = 0
    for seed in sorted(set(olds) & set(news)):
        old, new = olds[seed].shares, news[seed].shares
        deals = sorted(set(old) & set(new))
        left_out += len(set(old) ^ set(new))
        if not deals:
            continue
        pair = (
            [mean([g[i] for g in old[d]]) for d in deals],
            [mean([g[i] for g in new[d]]) for d in deals],
        )
        seeds.append({"seed": seed, **_summary(*pair)})
        pooled[0].extend(pair[0])
        pooled[1].extend(pair[1])
    left_out += sum(len(r.shares) for s, r in olds.items() if s not in news)
    left_out += sum(len(r.shares) for s, r in news.items() if s not in olds)
    if not seeds:
        raise UsageError(
            _("no deal in both: --before has seeds {before}, --after {after}").format(
                before=", ".join(map(str, sorted(olds))), after=", ".join(map(str, sorted(news)))
            )
        )
    rotations = len(before[0].seats)
    return {
        "game": before[0].game,
        "seat": seat,
        "before": sorted({r.seats[i] for r in before}),
        "after": sorted({r.seats[i] for r in after}),
        "games": len(pooled[0]) * rotations,
        **_summary(*pooled),
        "seeds": seeds,
        "left_out": left_out,
    }


def _summary(old: list[float], new: list[float]) -> dict[str, Any]:
    differences = [b - a for a, b in zip(old, new, strict=True)]
    return {
        "deals": len(old),
        "before_win_share": mean(old),
        "before_win_share_se": standard_error(old),
        "after_win_share": mean(new),
        "after_win_share_se": standard_error(new),
        "difference": mean(differences),
        "difference_se": standard_error(differences),
    }


def text(result: dict[str, Any]) -> str:
    """The comparison for people: the seats compared, a line per seed and the pooled line."""

    def share(row: dict[str, Any], side: str) -> str:
        return f"{row[f'{side}_win_share']:.3f} ± {row[f'{side}_win_share_se']:.3f}"

    def line(label: str, row: dict[str, Any]) -> list[Any]:
        difference = f"{row['difference']:+.3f} ± {row['difference_se']:.3f}"
        return [label, row["deals"], share(row, "before"), share(row, "after"), difference]

    rows = [line(str(s["seed"]), s) for s in result["seeds"]]
    if len(rows) > 1:
        rows.append(line(_("all"), result))
    head = _("{game}, seat {seat}: before {before}, after {after}; {games} games a side").format(
        game=result["game"], seat=result["seat"], before=", ".join(result["before"]),
        after=", ".join(result["after"]), games=result["games"],
    )  # fmt: skip
    headers = [_("seed"), _("deals"), _("before"), _("after"), _("difference per deal")]
    lines = [head, table(headers, rows)]
    if result["left_out"]:
        left_out = ngettext(
            "{deals} deal played on one side only: left out",
            "{deals} deals played on one side only: left out",
            result["left_out"],
        )
        lines.append(left_out.format(deals=result["left_out"]))
    return "\n".join(lines)


def _command(args: argparse.Namespace) -> int:
    try:
        before = [load(Path(p)) for p in args.before]
        after = [load(Path(p)) for p in args.after]
        result = compare(before, after, args.seat)
    except HostError as exc:
        return report(exc)
    if args.json:
        print(json.dumps(result))
    else:
        print(text(result))
    return 0


def register(subparsers: Any) -> None:
    """Add `compare --before FILE… --after FILE…`."""
    p = subparsers.add_parser(
        "compare", help=_("two tournaments on the same deals, side by side deal by deal")
    )
    p.add_argument(
        "--before", nargs="+", required=True, metavar=_("FILE"),
        help=_("results files (tournament --results) of the seat before, one a seed"),
    )  # fmt: skip
    p.add_argument(
        "--after", nargs="+", required=True, metavar=_("FILE"),
        help=_("results files of the seat after, on the same seeds"),
    )  # fmt: skip
    p.add_argument(
        "--seat", type=whole_number(1), default=1, metavar="N",
        help=_("the seat that changed, counted from 1 in --seats (default 1)"),
    )  # fmt: skip
    p.add_argument("--json", action="store_true", help=_("print the result as JSON"))
    p.set_defaults(func=_command)
