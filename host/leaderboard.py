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
import io
from pathlib import Path
from typing import Any

from spielleiter.games import catalog

from .device import (
    Device,
    HostError,
    UsageError,
    add_connection_args,
    call_with_pin,
    report,
    run_with_device,
    write_file,
)
from .i18n import _, box_text, ngettext, pgettext
from .output import confirmed, print_json, saved, show, table

PLOT_SUFFIXES = (".png", ".svg")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "leaderboard",
        help=_("show the Bestenliste (ratings, points), a rating's history, or reset"),
    )
    parser.add_argument(
        "game",
        nargs="?",
        choices=catalog.names(),
        metavar=pgettext("metavar", "game"),
        help=_("one game (default: every game)"),
    )
    parser.add_argument("--reset", action="store_true", help=_("clear it (needs the admin PIN)"))
    parser.add_argument("--pin", help=_("the admin PIN (asked for at a terminal when needed)"))
    parser.add_argument("--yes", action="store_true", help=_("--reset: do not ask first"))
    parser.add_argument(
        "--history",
        metavar=_("NAME"),
        help=_("a player's (or computer level's) rating after each match, oldest first"),
    )
    parser.add_argument(
        "--plot",
        metavar=_("FILE"),
        type=Path,
        help=_("--history: draw it over time with its band into FILE.png or FILE.svg"),
    )
    add_connection_args(parser)
    parser.set_defaults(func=leaderboard)


def leaderboard(args: argparse.Namespace) -> int:
    game = {"game": args.game} if args.game else {}
    if args.plot is not None and args.history is None:
        return report(UsageError(_("--plot draws a --history NAME")))
    if args.plot is not None and args.plot.suffix.lower() not in PLOT_SUFFIXES:
        return report(
            UsageError(_("--plot: a .png or .svg file, not {name!r}").format(name=args.plot.name))
        )
    if args.reset and args.history is not None:
        return report(UsageError(_("--reset and --history: one at a time")))
    after = _(
        "Its points go, and its ratings count only the matches that finish from now on"
        " (the records stay)."
    )
    question = (
        _("Clear the Bestenliste of {game}?").format(game=args.game)
        if args.game
        else _("Clear the Bestenliste of every game?")
    )
    if args.reset and not confirmed(f"{question} {after}", args.yes):
        return report(HostError(_("nothing cleared")))

    def body(box: Device) -> int:
        if args.reset:
            result = call_with_pin(box, "bestenliste.reset", args.pin, **game)
            removed = result["removed"]
            text = (
                ngettext(
                    "Bestenliste of {game} cleared: {removed} line removed; its ratings start"
                    " again",
                    "Bestenliste of {game} cleared: {removed} lines removed; its ratings start"
                    " again",
                    removed,
                ).format(game=args.game, removed=removed)
                if args.game
                else ngettext(
                    "Bestenliste of every game cleared: {removed} line removed; the ratings"
                    " start again",
                    "Bestenliste of every game cleared: {removed} lines removed; the ratings"
                    " start again",
                    removed,
                ).format(removed=removed)
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
    meaning_texts = result.get("meaning_text") or {}
    points = result.get("points", {})
    lowest = result.get("lowest_first", {})
    for name, lines in result["bestenliste"].items():
        out.append(f"== {name}")
        out.append(_("ratings (ranked by mu - 3 sigma; 'new' after a first match):"))
        own = {p["name"]: p for p in points.get(name, [])}
        rows = [
            [
                s["place"],
                s["name"] + ("" if s["kind"] == "human" else f" ({_kind(s)})"),
                _("new") if s["new"] else f"{s['rating']:.1f}",
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
        headers = [_("place"), _("name"), _("rating"), "mu", "sigma", _("matches"), _("wins"),
                   _("avg points")]  # fmt: skip
        out.append(table(headers, rows, figures=(2, 3, 4, 7)) if rows else _("(no rated match)"))
        out.append(
            _("points (by the average per match, fewest first):")
            if lowest.get(name)
            else _("points (by the average per match, most first):")
        )
        if meanings.get(name):
            out.append(f"   ({box_text(meanings[name], meaning_texts.get(name))})")
        rows = [
            [p["place"], p["name"], f"{p['average']:.1f}", p["points"], p["matches"], p["wins"]]
            for p in points.get(name, [])
        ]
        headers = [_("place"), _("name"), _("average"), _("points"), _("matches"), _("wins")]
        out.append(table(headers, rows, figures=(2,)) if rows else _("(empty)"))
    return "\n".join(out) + "\n"


def _kind(line: dict[str, Any]) -> str:
    if line["kind"] == "computer":
        return _("computer, bots v{version}").format(version=line.get("bot_version", 1))
    return _kind_word(str(line["kind"]))


def _history(args: argparse.Namespace, result: dict[str, Any]) -> int:
    series = [
        (game, s) for game, found in result.get("history", {}).items() for s in found if s["steps"]
    ]
    if not series:
        text = (
            _("no rated match of {name!r} in {game}").format(name=args.history, game=args.game)
            if args.game
            else _("no rated match of {name!r}").format(name=args.history)
        )
        return report(HostError(text))
    if args.plot is not None:
        try:
            plot_history(series, args.plot)
        except ImportError:
            return report(
                HostError(
                    _(
                        "--plot needs matplotlib: pip install 'spielleiter[plot]' (the laptop's"
                        " extra; never on the box)"
                    )
                )
            )
        what = _("rating history of {name}").format(name=args.history)
        return saved(args.plot, what, args.json)
    if args.json:
        print_json({"history": result["history"]})
        return 0
    for game, s in series:
        print(f"== {game}: {s['name']} ({_kind_word(s['kind'])})")
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
        # TRANSLATORS: a column of record ids, beside "match" (the player's 1st, 2nd ... match)
        record = _("record")
        headers = [_("match"), _("finished"), record, _("place"), "mu", "sigma", _("rating")]
        print(table(headers, rows, figures=(4, 5, 6)))
    return 0


def _kind_word(kind: str) -> str:
    """ "human" or "computer" (as the box sends it) for people."""
    return {"human": _("human"), "computer": _("computer")}.get(kind, kind)


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
            (line,) = axes.plot(when, mu, marker="o", label=_("{name}: mu").format(name=label))
            low = [m - 3 * g for m, g in zip(mu, sigma, strict=True)]
            high = [m + 3 * g for m, g in zip(mu, sigma, strict=True)]
            axes.fill_between(when, low, high, color=line.get_color(), alpha=0.15)
            rank = _("{name}: mu - 3 sigma (the box's rank)").format(name=label)
            axes.plot(when, low, linestyle="--", color=line.get_color(), label=rank)
        axes.xaxis_date()
        axes.set_ylabel(_("rating"))
        axes.set_title(_("Rating over time (band: mu ± 3 sigma)"))
        axes.legend(loc="best", fontsize="small")
        axes.grid(True, alpha=0.3)
        figure.autofmt_xdate()
        figure.tight_layout()
        kind = path.suffix.lower().lstrip(".")
        drawn = io.BytesIO()
        figure.savefig(drawn, format=kind, metadata=_stable(kind))
        write_file(path, drawn.getvalue())  # whole, as every other output option writes
    finally:
        pyplot.close(figure)


def _stable(kind: str) -> dict[str, Any]:
    """File metadata without the date (the same history gives the same file)."""
    return {"Date": None} if kind == "svg" else {}
