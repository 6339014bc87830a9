"""How long a Tipp takes: Besenbingo's, Bungee's and Engel & Bengel's, here and estimated
for a Raspberry Pi Zero 2 W (benchmarks/pi.py's calibration loop), against the goal that a
hint answers within 1 s on the box (as Speedtombola's Rat, timed beside them).

Each game's Tipp is the work its table's `advice` hook hands the box (tips.tip on a
seat's view), timed in CPU on positions met in games between computers; Bungee and
Engel & Bengel after one warm-up call (the box's computers have thought before a human's
Tipp is asked: numpy is imported, Stark's tables are built).

Run: .venv/bin/python benchmarks/tips.py [--quick]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import besenbingo  # noqa: E402
import bungee_stark  # noqa: E402
import engel_bengel  # noqa: E402
import tombola_sim  # noqa: E402
from pi import Report, calibrate, cpu  # noqa: E402
from spielleiter.games.besenbingo import bots as besen_bots  # noqa: E402
from spielleiter.games.besenbingo import tips as besen_tips  # noqa: E402
from spielleiter.games.besenbingo.templates import default_templates  # noqa: E402
from spielleiter.games.bungee import tips as bungee_tips  # noqa: E402
from spielleiter.games.engel_bengel import tips as engel_tips  # noqa: E402
from spielleiter.games.speedtombola import bots as tombola_bots  # noqa: E402

GOAL_S = 1.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer positions")
    args = parser.parse_args()
    count = 15 if args.quick else 50
    _, factor = calibrate(100 if args.quick else 300, 2 if args.quick else 3)
    print(f"Zero 2 W factor x{factor.low:.1f}-{factor.high:.1f}")
    report = Report(factor)

    times = []
    for _, state in besenbingo.stark_durchgaenge(default_templates(), 2 if args.quick else 5):
        seat = state.current_player()
        view = state.view(seat)
        times.append(cpu(besen_tips.tip, view))
        state.apply_action(besen_bots.choose(view, level="stark", rng=random.Random(seat)))
    report.percentiles("Besenbingo Tipp (9 seats, shipped templates)", times, (GOAL_S, GOAL_S))
    report.line("Besenbingo Tipp: max", max(times), GOAL_S)

    for players in (3, 5):
        states = bungee_stark.positions(players, count)
        bungee_tips.tip(states[0].view(states[0].current_player()), random.Random(0))
        times = [
            cpu(bungee_tips.tip, s.view(s.current_player()), random.Random(i))
            for i, s in enumerate(states)
        ]
        report.percentiles(f"Bungee Tipp, {players} players", times, (GOAL_S, GOAL_S))
        report.line(f"Bungee Tipp, {players} players: max", max(times), GOAL_S)

    for players in (3, 8):
        views = engel_bengel.decision_views(players, count, seed=players)
        engel_tips.tip(views[0], random.Random(0))
        times = [cpu(engel_tips.tip, v, random.Random(i)) for i, v in enumerate(views)]
        report.percentiles(f"Engel & Bengel Tipp, {players} players", times, (GOAL_S, GOAL_S))
        report.line(f"Engel & Bengel Tipp, {players} players: max", max(times), GOAL_S)

    views = tombola_sim.positions(4)[:count]
    playouts = tombola_bots.STARK_PLAYOUTS
    times = [
        cpu(tombola_bots.advice, v, rng=random.Random(i), playouts=playouts)
        for i, v in enumerate(views)
    ]
    report.percentiles("Speedtombola Rat, 4 players (for comparison)", times, (GOAL_S, GOAL_S))
    met = sum(1 for _, verdict in report.verdicts if verdict == "met")
    print(f"{met} of {len(report.verdicts)} goals met")


if __name__ == "__main__":
    main()
