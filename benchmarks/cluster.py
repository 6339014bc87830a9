"""Games per second of one tournament on 1 and 2 local processes and a local 2-worker
Dask cluster (the same results each time; see host/runner.py).

    .venv/bin/python benchmarks/cluster.py [GAMES]

The cluster figure is given with and without its start (about a second or two).
"""

from __future__ import annotations

import os
import sys
import time

from spielleiter_host import runner, tournament

SEATS = ("stark", "normal", "normal")


def timed(games: int, **where: object) -> tuple[float, dict]:
    setup = tournament.Setup("speedtombola", SEATS, seed=11)
    start = time.perf_counter()
    result = tournament.run(setup, games, **where)  # type: ignore[arg-type]
    return time.perf_counter() - start, result


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    load = os.getloadavg()[0]
    print(f"speedtombola tournament {','.join(SEATS)}, {games} games, load {load:.2f}")
    one, first = timed(games)
    print(f"1 process            {games / one:6.1f} games/s   ({one:.1f} s)")
    two, second = timed(games, jobs=2)
    print(f"2 processes          {games / two:6.1f} games/s   ({two:.1f} s)  x{one / two:.2f}")
    try:
        import distributed  # noqa: F401
    except ImportError:
        print("local cluster        (Dask not installed: pip install '.[cluster]')")
        return
    start = time.perf_counter()
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster:
        up = time.perf_counter() - start
        options = runner.Options(cluster=cluster.scheduler_address)
        run_s, third = timed(games, **vars(options))
        with Client(cluster):
            pass
    print(
        f"local 2-worker Dask  {games / run_s:6.1f} games/s   ({run_s:.1f} s, +{up:.1f} s to start)"
        f"  x{one / run_s:.2f}"
    )
    same = first == second == third
    print(f"identical results: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
