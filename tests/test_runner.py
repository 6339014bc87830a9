"""Long offline runs: the same results on one process, several, or a Dask cluster; a
results file that lets a stopped run go on; a worker that dies loses only its work."""

from __future__ import annotations

import io
import json
import os
from functools import partial
from pathlib import Path

import pytest
from spielleiter_host import cli, runner, tournament

pytestmark = pytest.mark.usefixtures("english")  # the English messages; German in test_host_i18n


def square(i: int) -> int:
    return i * i


def dies_once(marker: str, victim: int, i: int) -> int:
    """Item `victim` kills its worker process the first time it runs."""
    if i == victim and not os.path.exists(marker):
        Path(marker).write_text("died", encoding="utf-8")
        os._exit(3)
    return i * i


def interrupted_after(limit: int, seen: list[int], i: int) -> int:
    if len(seen) >= limit:
        raise KeyboardInterrupt
    seen.append(i)
    return i * i


def test_one_process_gives_the_items_in_order() -> None:
    assert runner.execute(runner.Plan("t", {}, 5, square), runner.Options()) == [0, 1, 4, 9, 16]


def test_a_local_worker_that_dies_loses_only_its_item_which_runs_again(tmp_path: Path) -> None:
    work = partial(dies_once, str(tmp_path / "died"), 3)
    result = runner.execute(runner.Plan("t", {}, 8, work), runner.Options(jobs=2))
    assert result == [i * i for i in range(8)]
    assert (tmp_path / "died").exists(), "a worker really died"


def test_a_stopped_run_keeps_its_finished_items_and_goes_on(tmp_path: Path) -> None:
    results = tmp_path / "run.jsonl"
    seen: list[int] = []
    plan = runner.Plan("t", {"seed": 1}, 6, partial(interrupted_after, 4, seen))
    with pytest.raises(runner.Stopped, match="stopped after 4 of 6 items; 4 kept in"):
        runner.execute(plan, runner.Options(results=results))
    seen.clear()  # the second run computes only what is missing
    again = runner.execute(
        runner.Plan("t", {"seed": 1}, 6, partial(interrupted_after, 99, seen)),
        runner.Options(results=results),
    )
    assert again == [i * i for i in range(6)] and seen == [4, 5]


def test_a_results_file_of_other_parameters_is_refused_naming_the_difference(
    tmp_path: Path,
) -> None:
    results = tmp_path / "run.jsonl"
    first = runner.Plan("t", {"seed": 1, "seats": "a"}, 2, square)
    runner.execute(first, runner.Options(results=results))
    other = runner.Plan("t", {"seed": 2, "seats": "a"}, 2, square)
    with pytest.raises(runner.RunError, match="seed 2 here, 1 there"):
        runner.execute(other, runner.Options(results=results))


def test_the_progress_bar_says_games_rate_and_time_left() -> None:
    stream = io.StringIO()
    plan = runner.Plan("t", {}, 4, square, games_per_item=3)
    runner.execute(plan, runner.Options(progress=True, stream=stream))
    last = stream.getvalue().strip().split("\r")[-1]
    assert last.startswith("[########################] 12/12 games") and "/s" in last
    assert runner.Progress(plan, 1, None).line(2.0).endswith("? left")


@pytest.mark.parametrize("game", [e.id for e in tournament.with_arena()])
def test_the_same_seed_gives_the_same_json_on_one_two_processes_and_a_cluster(
    game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("distributed")
    entry = next(e for e in tournament.with_arena() if e.id == game)
    seats = ",".join([entry.levels[-1]] + [entry.levels[0]] * (max(3, entry.min_seats) - 1))
    argv = ["tournament", game, "--seats", seats, "--games", "6", "--seed", "5", "--json"]
    outputs = []
    for where in (["--jobs", "1"], ["--jobs", "2"], ["--cluster", "local:2"]):
        assert cli.main([*argv, *where]) == 0
        outputs.append(json.loads(capsys.readouterr().out))
    assert outputs[0] == outputs[1] == outputs[2]
    assert outputs[0]["games"] == 6


def test_a_cluster_worker_that_dies_loses_only_its_work(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    work = partial(dies_once, str(tmp_path / "died"), 2)
    plan = runner.Plan("t", {}, 6, work)
    assert runner.execute(plan, runner.Options(cluster="local:2")) == [i * i for i in range(6)]
    assert (tmp_path / "died").exists()


def test_an_unreachable_scheduler_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed")
    argv = ["tournament", "speedtombola", "--seats", "normal,leicht,leicht", "--games", "3"]
    assert cli.main([*argv, "--cluster", "tcp://127.0.0.1:9"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot reach the scheduler" in err[0]


def test_a_tournament_resumes_from_its_results_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "t.jsonl"
    argv = ["tournament", "speedtombola", "--seats", "normal,leicht,leicht", "--games", "9",
            "--seed", "2", "--json"]  # fmt: skip
    assert cli.main(argv) == 0
    straight = capsys.readouterr().out
    assert cli.main([*argv, "--results", str(results)]) == 0
    lines = results.read_text(encoding="utf-8").splitlines()
    results.write_text("\n".join(lines[:2]) + "\n", encoding="utf-8")  # one deal kept
    assert cli.main([*argv, "--results", str(results)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == straight.strip()
    assert len(results.read_text(encoding="utf-8").splitlines()) == 4  # header + 3 deals


def test_templates_score_prints_the_same_json_however_it_runs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("distributed")
    argv = ["templates", "score", "--games", "5", "--seed", "3", "--json"]
    outputs = []
    for where in (["--jobs", "1"], ["--jobs", "2"], ["--cluster", "local:2"]):
        assert cli.main([*argv, *where]) == 0
        outputs.append(json.loads(capsys.readouterr().out))
    assert outputs[0] == outputs[1] == outputs[2]
    assert len(outputs[0]["templates"]) == 9


def test_boards_stats_prints_the_same_json_however_it_runs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("distributed")
    argv = ["boards", "stats", "engel-bengel", "--games", "6", "--seed", "3", "--json"]
    outputs = []
    for where in (["--jobs", "1"], ["--jobs", "2"], ["--cluster", "local:2"]):
        assert cli.main([*argv, *where]) == 0
        outputs.append(json.loads(capsys.readouterr().out))
    assert outputs[0] == outputs[1] == outputs[2]
    assert outputs[0]["rows"], "the faces that came up have their rows"
