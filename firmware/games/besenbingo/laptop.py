"""Besenbingo's own laptop commands, `spielleiter-host templates score|check`: templates,
offline (the catalog entry's `laptop`).

`score` reports each template's expected final score under the strongest computer
play and under a greedy player who takes the most points each turn (both exact), with
simulated games of the strongest play beside them, and how far each lies from the mean
of the set (the shipped nine: within 5 % for best play, 8 % greedy). `check` validates
template files before they are uploaded (`spielleiter-host boards put besenbingo FILE`):
every field, every bar field some witch on the grid can cross, and no two templates
(nor one and a shipped one) that play the same game under different names.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

from spielleiter.games.besenbingo.bots import Solver, simulate
from spielleiter.games.besenbingo.templates import (
    Template,
    default_templates,
    retired_templates,
    twin_of,
    validate_template,
)
from spielleiter_host import runner
from spielleiter_host.board_files import BoardFileError, check_files, report_checks, validated
from spielleiter_host.device import HostError, UsageError, report, whole_number
from spielleiter_host.i18n import _
from spielleiter_host.output import print_json, table


def load_template_files(paths: Sequence[Path]) -> list[Template]:
    """Templates from JSON files: one template, a list of them, or {name: template}."""
    return [t for _where, t in validated(paths, "grid", validate_template)]


def check_twins(items: Sequence[tuple[str, Template]]) -> None:
    """Refuse a template that plays the same game as another under another name (the grid
    and the bar equal up to rotation, mirroring and renaming witches, copilots and towers):
    one of the items before it or a shipped template, retired ones included."""
    shipped = [*default_templates(), *retired_templates()]
    for i, (where, template) in enumerate(items):
        earlier = [t for _, t in items[:i]]
        twin = twin_of(template, earlier)
        if twin is not None:
            twin_where = items[earlier.index(twin)][0]
            what = _("the template {name!r} ({where})").format(name=twin.name, where=twin_where)
        elif (twin := twin_of(template, shipped)) is not None:
            what = _("the shipped template {name!r}").format(name=twin.name)
        else:
            continue
        raise BoardFileError(
            _(
                "{where}: {name!r} is the same as {what} up to rotation, mirroring "
                "and renaming witches, copilots and towers; templates must all differ"
            ).format(where=where, name=template.name, what=what)
        )


def score_template(templates: Sequence[Template], games: int, seed: int, i: int) -> dict:
    """One template's exact expected score, and its simulated mean with the standard error."""
    template = templates[i]
    solver = Solver.of(template)
    row: dict[str, Any] = {
        "template": template.name,
        "expected": round(solver.expected_score(), 3),
        "greedy": round(solver.greedy_score(), 3),
    }
    if games > 0:
        scores = simulate(template, games, seed + i)
        row["simulated"] = round(float(scores.mean()), 3)
        row["standard_error"] = (
            round(float(scores.std(ddof=1) / len(scores) ** 0.5), 3) if games > 1 else None
        )
    return row


def template_scores(
    templates: Sequence[Template], games: int, seed: int = 0, options: Any = None
) -> list[dict]:
    """Per template: exact expected score, simulated mean and its standard error, spread.

    Each template is one item of a run (runner.Options: processes, a cluster, a results
    file); the spread is measured against the mean of the exact scores."""
    fingerprint = hashlib.sha256(
        json.dumps([t.to_json() for t in templates], sort_keys=True).encode()
    ).hexdigest()[:16]
    plan = runner.Plan(
        "templates score",
        {"templates": fingerprint, "games": games, "seed": seed, "greedy": True},
        len(templates),
        partial(score_template, tuple(templates), games, seed),
        games_per_item=max(1, games),
    )
    rows = runner.execute(plan, options or runner.Options())
    mean = statistics.mean(r["expected"] for r in rows)
    greedy_mean = statistics.mean(r["greedy"] for r in rows)
    ordered = []
    for row in rows:
        spread = {"vs_mean_percent": round(100 * (row["expected"] / mean - 1), 2)}
        greedy = {
            "greedy": row["greedy"],
            "greedy_vs_mean_percent": round(100 * (row["greedy"] / greedy_mean - 1), 2),
        }
        rest = {k: v for k, v in row.items() if k not in ("template", "expected", "greedy")}
        ordered.append(
            {"template": row["template"], "expected": row["expected"]} | spread | greedy | rest
        )
    return ordered


def register(where: str, subparsers: Any) -> None:
    """`templates score|check` among spielleiter-host's commands."""
    if where != "commands":
        return
    parser = subparsers.add_parser("templates", help=_("Besenbingo templates: score, check"))
    sub = parser.add_subparsers(dest="action", metavar=_("ACTION"), required=True)
    score = sub.add_parser(
        "score", help=_("expected score of the strongest and of greedy play per template")
    )
    score.add_argument(
        "--games",
        type=whole_number(0),
        default=200,
        metavar="N",
        help=_("simulated games per template (0: the exact scores only)"),
    )
    score.add_argument(
        "--seed", type=int, default=0, metavar="N", help=_("seed of the simulated games")
    )
    score.add_argument(
        "--template",
        type=Path,
        nargs="+",
        default=[],
        metavar=_("FILE"),
        help=_("score these template files instead of the shipped nine"),
    )
    score.add_argument("--json", action="store_true", help=_("print JSON"))
    runner.add_arguments(score)
    score.set_defaults(func=templates_score)
    check = sub.add_parser("check", help=_("validate template files"))
    check.add_argument(
        "file",
        type=Path,
        nargs="+",
        metavar=_("file"),
        help=_("JSON: a template, a list, or {name: template}"),
    )
    check.add_argument("--json", action="store_true", help=_("a result per file, as JSON"))
    check.set_defaults(func=templates_check)


def templates_score(args: argparse.Namespace) -> int:
    templates = load_template_files(args.template) if args.template else default_templates()
    try:
        options = runner.options_from(args, args.json)
        rows = template_scores(templates, args.games, args.seed, options)
    except runner.Stopped as exc:
        return report(HostError(f"templates score: {exc}"), code=130)
    except runner.RunError as exc:
        raise UsageError(f"templates score: {exc}") from None
    spread = max(abs(r["vs_mean_percent"]) for r in rows)
    greedy_spread = max(abs(r["greedy_vs_mean_percent"]) for r in rows)
    if args.json:
        print_json(
            {
                "templates": rows,
                "largest_deviation_percent": spread,
                "largest_greedy_deviation_percent": greedy_spread,
            }
        )
        return 0
    headers = [_("template"), _("best play"), _("best vs mean %"), _("greedy"),
               _("greedy vs mean %")]  # fmt: skip
    if args.games > 0:
        headers += [_("simulated"), _("± s.e.")]
    shown = [[round(v, 2) if isinstance(v, float) else v for v in r.values()] for r in rows]
    print(table(headers, shown))
    print(
        _("largest deviation from the mean: best play {best:.1f} %, greedy {greedy:.1f} %").format(
            best=spread, greedy=greedy_spread
        )
    )
    return 0


def templates_check(args: argparse.Namespace) -> int:
    """Every template of the files valid, and none the same game as another (an earlier
    one of the files, or a shipped one): a result per file."""
    accepted: list[tuple[str, Template]] = []

    def check(path: Path) -> list[str]:
        items = validated([path], "grid", validate_template)
        check_twins([*accepted, *items])
        accepted.extend(items)
        return [t.name for _, t in items]

    return report_checks(check_files(args.file, check), args.json)
