"""Long offline runs (tournaments, template scores, board statistics) on one process,
on local processes, or on a Dask cluster, with the same results whatever runs them.

A run is split into numbered items (deals, games, templates), each seeded from the
command's seed and its number. Results are combined in item order, so `--jobs 1`,
`--jobs 4` and `--cluster` print the same numbers. Finished items can be kept in a
results file (`--results FILE`): a run stopped with Ctrl-C, or by a machine that went
away, continues where it stopped. A local worker process that dies loses only its
unfinished items, which run again; Dask re-runs a dead worker's tasks by itself.

    >>> plan = Plan("demo", {"n": 3}, 3, abs)
    >>> execute(plan, Options())
    [0, 1, 2]
"""

from __future__ import annotations

import json
import logging
import math
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from spielleiter import __version__

from .device import whole_number
from .i18n import N_, _, said

MAX_RESTARTS = 8
"""Local pools rebuilt after a worker died, before the run gives up."""


class RunError(RuntimeError):
    """A run that cannot start or go on; the message says why in a line."""


class Stopped(RuntimeError):
    """The run was stopped (Ctrl-C); finished items are kept in the results file."""

    def __init__(self, done: int, total: int, results: Path | None) -> None:
        kept = (
            _("; {done} kept in {file}, run the same command again to go on").format(
                done=done, file=results
            )
            if results
            else ""
        )
        super().__init__(
            _("stopped after {done} of {total} items{kept}").format(
                done=done, total=total, kept=kept
            )
        )


@dataclass(frozen=True)
class Plan:
    """What a run computes: `work(i)` for i in range(count), combined in that order."""

    command: str
    params: Mapping[str, Any]
    """Everything that decides the results (a results file must match it)."""
    count: int
    work: Callable[[int], Any]
    """A picklable function (module level, or a partial of one): item number -> result."""
    games_per_item: int = 1
    unit: str = N_("games")
    """What the progress bar counts, in English (the bar shows it translated)."""


@dataclass
class Options:
    """How to run: where, with which results file, with or without a progress bar."""

    jobs: int = 1
    cluster: str = ""
    """"" (local), "local:N" (a local Dask cluster of N workers) or a scheduler address."""
    results: Path | None = None
    progress: bool = False
    stream: IO[str] = field(default_factory=lambda: sys.stderr)


def add_arguments(parser: Any) -> None:
    """The options every long-running command shares."""
    parser.add_argument("--jobs", type=whole_number(1), default=1, help=_("local worker processes"))
    parser.add_argument(
        "--cluster",
        default="",
        metavar="ADDRESS",
        help=_(
            "run on a Dask scheduler (tcp://host:8786), or local:N for a local cluster"
            " of N workers (needs the `cluster` extra)"
        ),
    )
    parser.add_argument(
        "--results",
        type=Path,
        metavar="FILE",
        help=_("keep finished work here; a re-run goes on"),
    )
    parser.add_argument("--no-progress", action="store_true", help=_("no progress bar on stderr"))


def options_from(args: Any, json_mode: bool) -> Options:
    """Options from parsed arguments: a progress bar on a terminal, never under --json."""
    quiet = json_mode or getattr(args, "no_progress", False)
    if args.cluster and args.jobs != 1:
        raise RunError(_("--jobs and --cluster: choose one"))
    return Options(
        jobs=args.jobs,
        cluster=args.cluster,
        results=args.results,
        progress=not quiet and sys.stderr.isatty(),
    )


def execute(plan: Plan, options: Options) -> list[Any]:
    """Every item's result, in item order (Stopped on Ctrl-C, RunError when it cannot run)."""
    done: dict[int, Any] = _load(plan, options.results) if options.results else {}
    pending = [i for i in range(plan.count) if i not in done]
    sink = _open_results(plan, options.results, fresh=not done)
    bar = Progress(plan, len(done), options.stream if options.progress else None)
    try:
        for index, result in _backend(plan, pending, options):
            done[index] = result
            if sink is not None:
                sink.write(json.dumps({"item": index, "result": result}) + "\n")
                sink.flush()
            bar.step()
    except KeyboardInterrupt:
        bar.close()
        raise Stopped(len(done), plan.count, options.results) from None
    finally:
        if sink is not None:
            sink.close()
    bar.close()
    return [done[i] for i in range(plan.count)]


# --- results files ---------------------------------------------------------------------


def _header(plan: Plan) -> dict[str, Any]:
    return {"spielleiter": __version__, "command": plan.command, "params": dict(plan.params)}


def read_results(path: Path) -> tuple[Any, dict[int, Any]]:
    """A results file's header (its first line: the command and its parameters, as read)
    and its finished items by number (a line cut short by a stop is left out: that item
    runs again); RunError names a file that cannot be read or is no JSON lines."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
        header = json.loads(lines[0]) if lines else {}
    except OSError as exc:
        why = exc.strerror or exc  # the system's words
        raise RunError(_("cannot read {path}: {why}").format(path=path, why=why)) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RunError(_("{path}: not a results file ({why})").format(path=path, why=exc)) from None
    done: dict[int, Any] = {}
    for line in lines[1:]:
        try:
            item = json.loads(line)
            done[int(item["item"])] = item["result"]
        except (json.JSONDecodeError, KeyError, TypeError, ValueError):
            continue
    return header, done


def _load(plan: Plan, path: Path | None) -> dict[int, Any]:
    """The finished items of an earlier run with the same parameters."""
    if path is None or not path.exists():
        return {}
    header, done = read_results(path)
    if not isinstance(header, dict) or not isinstance(header.get("params"), dict):
        raise RunError(_("{path}: not a results file of spielleiter-host").format(path=path))
    want = json.loads(json.dumps(_header(plan)))
    here_there = _("{name} {here!r} here, {there!r} there")
    differences = [
        here_there.format(name=key, here=want["params"].get(key), there=header["params"].get(key))
        for key in sorted(set(want["params"]) | set(header["params"]))
        if want["params"].get(key) != header["params"].get(key)
    ]
    if header.get("command") != plan.command:
        command = _("command")
        differences.insert(
            0, here_there.format(name=command, here=plan.command, there=header.get("command"))
        )
    if differences:
        raise RunError(
            _("{path} holds results of other parameters: {differences}").format(
                path=path, differences="; ".join(differences)
            )
        )
    return {i: r for i, r in done.items() if 0 <= i < plan.count}


def _open_results(plan: Plan, path: Path | None, fresh: bool) -> IO[str] | None:
    if path is None:
        return None
    try:
        if fresh:
            sink = path.open("w", encoding="utf-8")
            sink.write(json.dumps(_header(plan)) + "\n")
            return sink
        text = path.read_text(encoding="utf-8")
        sink = path.open("a", encoding="utf-8")
        if text and not text.endswith("\n"):
            sink.write("\n")
        return sink
    except OSError as exc:
        why = exc.strerror or exc  # the system's words
        raise RunError(_("cannot write {path}: {why}").format(path=path, why=why)) from None


# --- where the work runs -----------------------------------------------------------------


def _backend(plan: Plan, pending: list[int], options: Options) -> Iterator[tuple[int, Any]]:
    if options.cluster:
        return _dask(plan, pending, options.cluster)
    if options.jobs > 1 and len(pending) > 1:
        return _processes(plan, pending, options.jobs)
    return ((i, plan.work(i)) for i in pending)


def _processes(plan: Plan, pending: list[int], jobs: int) -> Iterator[tuple[int, Any]]:
    """Local worker processes; a pool whose worker died is rebuilt for the unfinished items."""
    left = list(pending)
    restarts = 0
    while left:
        pool = ProcessPoolExecutor(max_workers=min(jobs, len(left)))
        futures: dict[Future[Any], int] = {pool.submit(plan.work, i): i for i in left}
        broken = False
        try:
            waiting = set(futures)
            while waiting:
                finished, waiting = wait(waiting, return_when=FIRST_COMPLETED)
                for future in finished:
                    try:
                        result = future.result()
                    except BrokenProcessPool:
                        broken = True
                        continue
                    left.remove(futures[future])
                    yield futures[future], result
                if broken:
                    break
        finally:
            pool.shutdown(wait=not broken, cancel_futures=True)
        if broken:
            restarts += 1
            if restarts > MAX_RESTARTS:
                raise RunError(
                    _("worker processes kept dying ({restarts} times); {left} left").format(
                        restarts=restarts, left=len(left)
                    )
                )


def _dask(plan: Plan, pending: list[int], address: str) -> Iterator[tuple[int, Any]]:
    """A Dask cluster: its scheduler places the work and re-runs a dead worker's tasks."""
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise RunError(
            _(
                "--cluster needs Dask: pip install 'spielleiter[cluster]'"
                " (or .[cluster] in a checkout)"
            )
        ) from None
    cluster = None
    try:
        if address.startswith("local:"):
            count = address.partition(":")[2]
            workers = int(count) if count.isdigit() else 0
            if workers < 1:
                raise RunError(
                    _("--cluster {address}: local:N needs N >= 1 workers").format(address=address)
                )
            with _ctrl_c_left_to_this_process():
                cluster = LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.ERROR,  # no warning for the tasks a Ctrl-C cancels
                )
            client = Client(cluster)
        else:
            client = Client(address, timeout=5)
    except (OSError, TimeoutError, ValueError) as exc:
        raise RunError(
            _("--cluster {address}: cannot reach the scheduler ({why})").format(
                address=address, why=exc
            )
        ) from None
    try:
        _check_versions(client)
        futures = {client.submit(plan.work, i, pure=False): i for i in pending}
        for future in as_completed(futures):
            try:
                result = future.result()
            except Exception as exc:  # the task failed on every worker Dask tried
                raise RunError(
                    _("item {item} failed on the cluster: {why}").format(
                        item=futures[future], why=said(exc)
                    )
                ) from exc
            yield futures[future], result
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


@contextmanager
def _ctrl_c_left_to_this_process() -> Iterator[None]:
    """Start worker processes that ignore Ctrl-C (SIGINT, which a terminal sends to every
    process of the command): this one stops the run and closes the cluster, and a worker
    that took it too would print its own traceback. A Ctrl-C while they start is lost."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def project_version() -> str:
    """This project's version (run on each worker to compare)."""
    return __version__


def _check_versions(client: Any) -> None:
    versions = client.run(project_version)
    other = {worker: v for worker, v in versions.items() if v != __version__}
    if other:
        has = _("{worker} has {version}")
        names = ", ".join(has.format(worker=w, version=v) for w, v in sorted(other.items()))
        raise RunError(
            _("workers run another spielleiter than this {version}: {workers}").format(
                version=__version__, workers=names
            )
        )
    if not versions:
        raise RunError(_("the cluster has no workers"))


# --- the progress bar ----------------------------------------------------------------------


class Progress:
    """Games done, the rate and the time left, on one line of a terminal."""

    def __init__(self, plan: Plan, already: int, stream: IO[str] | None) -> None:
        self.plan = plan
        self.done = already
        self.started = time.monotonic()
        self.new = 0
        self.stream = stream
        self.shown = False

    def step(self) -> None:
        self.done += 1
        self.new += 1
        if self.stream is not None:
            self.stream.write("\r" + self.line(time.monotonic() - self.started))
            self.stream.flush()
            self.shown = True

    def line(self, elapsed: float) -> str:
        """The bar: "[######......] 120/600 games  8.1/s  0:59 left" (in the tool's language)."""
        width = 24
        total = self.plan.count * self.plan.games_per_item
        games = self.done * self.plan.games_per_item
        filled = width * self.done // max(1, self.plan.count)
        rate = self.new * self.plan.games_per_item / elapsed if elapsed > 0 else 0.0
        left = (total - games) / rate if rate > 0 else math.inf
        eta = "?" if math.isinf(left) else f"{int(left) // 60}:{int(left) % 60:02d}"
        bar = "#" * filled + "." * (width - filled)
        return _("[{bar}] {done}/{total} {unit}  {rate:.1f}/s  {eta} left").format(
            bar=bar, done=games, total=total, unit=_(self.plan.unit), rate=rate, eta=eta
        )

    def close(self) -> None:
        if self.shown and self.stream is not None:
            self.stream.write("\n")
            self.stream.flush()
            self.shown = False
