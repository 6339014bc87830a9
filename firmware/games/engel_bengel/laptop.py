"""Engel & Bengel's own laptop command, `spielleiter-host boards stats engel-bengel` (the
catalog entry's `laptop`; its printed faces are `sheets.py`).

`boards stats` plays simulated games between computers and reports, per face and row, who
completes the row (the player who placed its first die, or another), the mean chips it
moved, and how long a Durchgang on the face lasts (turns, and placements), so faces can
be tuned.
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from spielleiter.games.base import ParameterError, sample_chance
from spielleiter.games.engel_bengel import bots
from spielleiter.games.engel_bengel.faces import Face, default_faces, validate_face
from spielleiter.games.engel_bengel.rules import EngelBengelGame, decode_place
from spielleiter_host import runner
from spielleiter_host.board_files import validated
from spielleiter_host.device import (
    HostError,
    InvalidError,
    UsageError,
    did_you_mean,
    report,
    whole_number,
)
from spielleiter_host.i18n import N_, _, said
from spielleiter_host.output import print_json, table

GAME = "engel-bengel"


def load_face_files(paths: Sequence[Path]) -> list[Face]:
    """Faces from JSON files: one face, a list of faces, or {name: face}."""
    return [f for _where, f in validated(paths, "rows", validate_face)]


# --- boards stats -------------------------------------------------------------------------


@dataclass
class RowStats:
    """One row of one face over the simulated Durchgänge."""

    completed: int = 0
    by_starter: int = 0
    moved: int = 0
    turn_sum: int = 0
    """Turns of the Durchgang that had begun when the row was completed (summed)."""


@dataclass
class FaceStats:
    durchgaenge: int = 0
    turns: int = 0
    rows: dict[int, RowStats] = field(default_factory=lambda: defaultdict(RowStats))


STATS_CHUNK = 10
"""Games per piece of work (a run's item): few enough for a fair split, many enough that
sending them out costs little."""


def play_stats(
    seats: Sequence[str], games: int, seed: int, faces: Sequence[Face] | None = None,
    options: runner.Options | None = None,
) -> dict[str, FaceStats]:  # fmt: skip
    """Simulated games; per face name, how its rows were completed and how long it lasted.

    Game g's dice and computers are seeded from `seed` and g alone, so one process, local
    processes and a cluster (runner.Options) give the same table."""
    faces_json = [f.to_json() for f in faces] if faces is not None else None
    items = -(-games // STATS_CHUNK)
    plan = runner.Plan(
        "boards stats engel-bengel",
        {"seats": list(seats), "games": games, "seed": seed, "faces": faces_json},
        items,
        partial(_stats_item, tuple(seats), games, seed, faces_json),
        games_per_item=STATS_CHUNK,
    )
    stats: dict[str, FaceStats] = defaultdict(FaceStats)
    for part in runner.execute(plan, options or runner.Options()):
        for name, data in part.items():
            fs = stats[name]
            fs.durchgaenge += data["durchgaenge"]
            fs.turns += data["turns"]
            for row, (completed, by_starter, moved, turn_sum) in data["rows"].items():
                rs = fs.rows[int(row)]
                rs.completed += completed
                rs.by_starter += by_starter
                rs.moved += moved
                rs.turn_sum += turn_sum
    return stats


def _stats_item(
    seats: Sequence[str], games: int, seed: int, faces_json: Any, item: int
) -> dict[str, Any]:
    """The statistics of games item*STATS_CHUNK ... as plain data (JSON for results files)."""
    stats: dict[str, FaceStats] = defaultdict(FaceStats)
    params: dict[str, Any] = {"players": len(seats)}
    if faces_json is not None:
        params["faces"] = faces_json
    for g in range(item * STATS_CHUNK, min(games, (item + 1) * STATS_CHUNK)):
        _play_game(seats, seed, params, g, stats)
    return {
        name: {
            "durchgaenge": fs.durchgaenge,
            "turns": fs.turns,
            "rows": {
                str(r): [rs.completed, rs.by_starter, rs.moved, rs.turn_sum]
                for r, rs in fs.rows.items()
            },
        }  # fmt: skip
        for name, fs in stats.items()
    }


def _play_game(
    seats: Sequence[str], seed: int, params: dict[str, Any], g: int,
    stats: dict[str, FaceStats],
) -> None:  # fmt: skip
    """Game g, its dice and computers seeded from `seed` and g; counted into `stats`."""
    game = EngelBengelGame(params)
    state = game.new_initial_state()
    chance = random.Random(f"engel-bengel-stats-{seed}-{g}")
    bot_rng = random.Random(seed * 7919 + g)
    starters: dict[int, int] = {}
    turns = 0
    durchgang = 0
    last_turn = -1
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, chance))
            continue
        seat = state.current_player()
        if state.rolls == 1 and state.placed_now == 0 and seat != last_turn:
            turns += 1
        last_turn = seat
        view = state.view(seat)
        action = bots.choose(view, level=seats[seat], rng=bot_rng)
        face = state.face.name
        paid_before = len(state.payments)
        if action >= 2:
            row, _value = decode_place(action)
            if not state.board[row]:
                starters[row] = seat
        state.apply_action(action)
        record = state.results[-1] if state.durchgang != durchgang else None
        payments = record.payments if record else state.payments
        for p in payments[paid_before:]:
            rs = stats[face].rows[p.row]
            rs.completed += 1
            rs.by_starter += starters.get(p.row) == p.seat
            rs.moved += p.moved
            rs.turn_sum += turns
        if record is not None:
            stats[face].durchgaenge += 1
            stats[face].turns += turns
            starters, turns, durchgang, last_turn = {}, 0, state.durchgang, -1


def stats_rows(stats: dict[str, FaceStats], faces: Sequence[Face]) -> list[list[Any]]:
    """The table: face, Durchgänge, mean turns, row, kind, value, completions by the
    starter, mean chips moved, mean turn of completion."""
    rows = []
    for face in faces:
        fs = stats.get(face.name)
        if fs is None or not fs.durchgaenge:
            continue
        for r, row in enumerate(face.rows):
            rs = fs.rows[r]
            n = max(1, rs.completed)
            kind = {"pips": "".join(map(str, row.pips)), "star": f"*{row.boxes}", "mixed": "rrrgg"}
            rows.append([
                face.name if r == 0 else "",
                fs.durchgaenge if r == 0 else "",
                f"{fs.turns / fs.durchgaenge:.1f}" if r == 0 else "",
                r + 1,
                kind[row.kind],
                f"{'+' if row.white else '-'}{row.value}",
                f"{rs.completed / fs.durchgaenge:.0%}",
                f"{rs.by_starter / n:.0%}",
                f"{rs.moved / n:+.1f}",
                f"{rs.turn_sum / n:.1f}",
            ])  # fmt: skip
    return rows


STATS_HEADERS = [
    N_("face"), N_("Durchg."), N_("turns"), N_("row"), N_("kind"), N_("chips"),
    N_("completed"), N_("by starter"), N_("mean moved"), N_("at turn"),
]  # fmt: skip
"""The table's columns, in English under --json; translated in the table."""


def boards_stats(args: argparse.Namespace) -> int:
    """`spielleiter-host boards stats engel-bengel`."""
    seats = [s.strip().lower() for s in args.seats.split(",")]
    unknown = [s for s in seats if s not in bots.LEVELS]
    if unknown:
        hint = did_you_mean(unknown[0], bots.LEVELS)
        raise UsageError(
            _("--seats: unknown seat {seat!r}{hint}: one of {levels}").format(
                seat=unknown[0], hint=hint, levels=", ".join(bots.LEVELS)
            )
        )
    if not 2 <= len(seats) <= 8:
        raise UsageError(_("--seats: 2 to 8 seats, not {count}").format(count=len(seats)))
    faces = load_face_files(args.file) if args.file else list(default_faces())
    if args.file:
        try:  # the rules' own limits on faces (how many a game takes)
            EngelBengelGame({"players": len(seats), "faces": [f.to_json() for f in faces]})
        except ParameterError as exc:
            raise InvalidError(said(exc)) from None
    try:
        options = runner.options_from(args, args.json)
        stats = play_stats(seats, args.games, args.seed, faces if args.file else None, options)
    except runner.Stopped as exc:
        return report(HostError(f"boards stats: {exc}"), code=130)
    except runner.RunError as exc:
        raise UsageError(f"boards stats: {exc}") from None
    rows = stats_rows(stats, faces)
    if args.json:
        print_json({"seats": seats, "games": args.games, "seed": args.seed,
                    "headers": STATS_HEADERS, "rows": rows})  # fmt: skip
    else:
        print(
            _("{games} games, seats {seats}, seed {seed}").format(
                games=args.games, seats=",".join(seats), seed=args.seed
            )
        )
        print(table([_(h) for h in STATS_HEADERS], rows))
    return 0


def register(where: str, sub: Any) -> None:
    """The `boards stats` subcommand (offline, no device)."""
    if where != "boards":
        return
    stats = sub.add_parser("stats", help=_("simulated games per face and row (engel-bengel)"))
    stats.add_argument("game", choices=[GAME], help=GAME)
    stats.add_argument(
        "file",
        type=Path,
        nargs="*",
        metavar=_("file"),
        help=_("face files (default: the shipped 16)"),
    )
    stats.add_argument(
        "--seats",
        default="normal,normal,normal,normal",
        metavar=_("SEATS"),
        help=_("computer levels in seat order (default: four Normal)"),
    )
    stats.add_argument(
        "--games",
        type=whole_number(1),
        default=2000,
        metavar="N",
        help=_("games in all (default 2000)"),
    )
    stats.add_argument(
        "--seed", type=int, default=1, metavar="N", help=_("seed of the dice and the computers")
    )
    stats.add_argument("--json", action="store_true", help=_("print the table as JSON"))
    runner.add_arguments(stats)
    stats.set_defaults(func=boards_stats)
