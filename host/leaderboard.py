"""`spielleiter-host leaderboard [GAME] [--reset | --history NAME [--plot FILE]]`: the
Bestenliste of each game, its ratings and how a player's rating moved.

The box sends the numbers (bestenliste.get): each game's ratings (μ, σ and the
conservative μ − 3σ the box ranks by, matches and wins), its own points (ranked by
the average per match) and, with --history, a player's rating after each match, which
--plot draws over time with its band (matplotlib, the laptop's extra `plot`).
"""

from __future__ import annotations

import argparse
import datetime
from pathlib import Path
from typing import Any

from .device import (
    Device,
    HostError,
    UsageError,
    add_connection_args,
    call_with_pin,
    report,
    run_with_device,
)
from .output import confirmed, print_json, saved, show, table

PLOT_SUFFIXES = (".png", ".svg")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "leaderboard", help="show the Bestenliste (ratings, points), a rating's history, or reset"
    )
    parser.add_argument("game", nargs="?", help="one game (default: every game)")
    parser.add_argument("--reset", action="store_true", help="clear it (needs the admin PIN)")
    parser.add_argument("--pin", help="the admin PIN (asked for at a terminal when needed)")
    parser.add_argument("--yes", action="store_true", help="--reset: do not ask first")
    parser.add_argument(
        "--history",
        metavar="NAME",
        help="a player's (or computer level's) rating after each match, oldest first",
    )
    parser.add_argument(
        "--plot",
        metavar="FILE",
        type=Path,
        help="--history: draw it over time with its band into FILE.png or FILE.svg",
    )
    add_connection_args(parser)
    parser.set_defaults(func=leaderboard)


def leaderboard(args: argparse.Namespace) -> int:
    game = {"game": args.game} if args.game else {}
    which = f"of {args.game}" if args.game else "of every game"
    if args.plot is not None and args.history is None:
        return report(UsageError("--plot draws a --history NAME"))
    if args.plot is not None and args.plot.suffix.lower() not in PLOT_SUFFIXES:
        return report(UsageError(f"--plot: a .png or .svg file, not {args.plot.name!r}"))
    if args.reset and args.history is not None:
        return report(UsageError("--reset and --history: one at a time"))
    if args.reset and not confirmed(
        f"Clear the Bestenliste {which}? Its points go, and its ratings count only the"
        " matches that finish from now on (the records stay).",
        args.yes,
    ):
        return report(HostError("nothing cleared"))

    def body(box: Device) -> int:
        if args.reset:
            result = call_with_pin(box, "bestenliste.reset", args.pin, **game)
            text = (
                f"Bestenliste of {args.game or 'every game'} cleared:"
                f" {result['removed']} lines removed; its ratings start again"
            )
            return show(result, args.json, text)
        if args.history is not None:
            result = box.call("bestenliste.get", **game, history=args.history)
            return _history(args, result)
        result = box.call("bestenliste.get", **game)
        if args.json:
            print_json(result)
            return 0
        print(board_text(result), end="")
        return 0

    return run_with_device(args, body)


def board_text(result: dict[str, Any]) -> str:
    """Each game's ratings (with the average points of each human), then its points."""
    out = []
    meanings = result.get("meaning", {})
    points = result.get("points", {})
    lowest = result.get("lowest_first", {})
    for name, lines in result["bestenliste"].items():
        out.append(f"== {name}")
        out.append("ratings (ranked by mu - 3 sigma; 'new' after a first match):")
        own = {p["name"]: p for p in points.get(name, [])}
        rows = [
            [
                s["place"],
                s["name"] + ("" if s["kind"] == "human" else f" ({_kind(s)})"),
                "new" if s["new"] else f"{s['rating']:.1f}",
                f"{s['mu']:.1f}",
                f"{s['sigma']:.1f}",
                s["matches"],
                s["wins"],
                f"{own[s['name']]['average']:.1f}"
                if s["kind"] == "human" and s["name"] in own
                else "-",
            ]
            for s in lines
        ]
        headers = ["place", "name", "rating", "mu", "sigma", "matches", "wins", "avg points"]
        out.append(table(headers, rows) if rows else "(no rated match)")
        order = "fewest first" if lowest.get(name) else "most first"
        out.append(f"points (by the average per match, {order}):")
        if meanings.get(name):
            out.append(f"   ({meanings[name]})")
        rows = [
            [p["place"], p["name"], f"{p['average']:.1f}", p["points"], p["matches"], p["wins"]]
            for p in points.get(name, [])
        ]
        headers = ["place", "name", "average", "points", "matches", "wins"]
        out.append(table(headers, rows) if rows else "(empty)")
    return "\n".join(out) + "\n"


def _kind(line: dict[str, Any]) -> str:
    if line["kind"] == "computer":
        return f"computer, bots v{line.get('bot_version', 1)}"
    return str(line["kind"])


def _history(args: argparse.Namespace, result: dict[str, Any]) -> int:
    series = [
        (game, s) for game, found in result.get("history", {}).items() for s in found if s["steps"]
    ]
    if not series:
        where = f" in {args.game}" if args.game else ""
        return report(HostError(f"no rated match of {args.history!r}{where}"))
    if args.plot is not None:
        try:
            plot_history(series, args.plot)
        except ImportError:
            return report(
                HostError(
                    "--plot needs matplotlib: pip install 'spielleiter[plot]' (the laptop's"
                    " extra; never on the box)"
                )
            )
        return saved(args.plot, f"rating history of {args.history}", args.json)
    if args.json:
        print_json({"history": result["history"]})
        return 0
    for game, s in series:
        print(f"== {game}: {s['name']} ({s['kind']})")
        rows = [
            [
                i + 1,
                _when(step["finished"]),
                step["record"],
                f"{step['place']}/{step['seats']}",
                f"{step['mu']:.1f}",
                f"{step['sigma']:.1f}",
                f"{step['rating']:.1f}",
            ]
            for i, step in enumerate(s["steps"])
        ]
        print(table(["match", "finished", "record", "place", "mu", "sigma", "rating"], rows))
    return 0


def _when(timestamp: float) -> str:
    return datetime.datetime.fromtimestamp(timestamp).strftime("%Y-%m-%d %H:%M")


def plot_history(series: list[tuple[str, dict[str, Any]]], path: Path) -> None:
    """Draw each series' μ over time with its band μ ± 3σ and the conservative μ − 3σ the
    box ranks by, into a PNG or SVG file."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import dates, pyplot

    figure, axes = pyplot.subplots(figsize=(8, 4.5), dpi=100)
    try:
        for game, s in series:
            when = dates.date2num(
                [datetime.datetime.fromtimestamp(p["finished"]) for p in s["steps"]]
            )
            mu = [p["mu"] for p in s["steps"]]
            sigma = [p["sigma"] for p in s["steps"]]
            label = f"{s['name']} ({game})" if len(series) > 1 else s["name"]
            (line,) = axes.plot(when, mu, marker="o", label=f"{label}: mu")
            low = [m - 3 * g for m, g in zip(mu, sigma, strict=True)]
            high = [m + 3 * g for m, g in zip(mu, sigma, strict=True)]
            axes.fill_between(when, low, high, color=line.get_color(), alpha=0.15)
            axes.plot(when, low, linestyle="--", color=line.get_color(),
                      label=f"{label}: mu - 3 sigma (the box's rank)")  # fmt: skip
        axes.xaxis_date()
        axes.set_ylabel("rating")
        axes.set_title("Rating over time (band: mu ± 3 sigma)")
        axes.legend(loc="best", fontsize="small")
        axes.grid(True, alpha=0.3)
        figure.autofmt_xdate()
        figure.tight_layout()
        path.parent.mkdir(parents=True, exist_ok=True)
        kind = path.suffix.lower().lstrip(".")
        figure.savefig(path, format=kind, metadata=_stable(kind))
    finally:
        pyplot.close(figure)


def _stable(kind: str) -> dict[str, Any]:
    """File metadata without the date (the same history gives the same file)."""
    return {"Date": None} if kind == "svg" else {}
