"""`spielleiter-host compare`: two tournaments' results files paired deal by deal, as
docs/host.md shows it; files that do not belong together are named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from spielleiter_host import cli

pytestmark = pytest.mark.usefixtures("english")


def tournament(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], seats: str, seed: int, games: int = 9
) -> tuple[Path, dict]:
    """A Speedtombola tournament kept in a results file: (the file, its --json result)."""
    results = tmp_path / f"{seats.replace(',', '-')}-{seed}-{games}.res"
    argv = ["tournament", "speedtombola", "--seats", seats, "--games", str(games),
            "--seed", str(seed), "--json", "--no-progress", "--results", str(results)]  # fmt: skip
    assert cli.main(argv) == 0
    return results, json.loads(capsys.readouterr().out)


def compare(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(["compare", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, int], Path]:
    """Normal and Leicht at seat 1 against the same two Leicht, on seeds 2 and 3."""
    folder = tmp_path_factory.mktemp("runs")
    found = {}
    for level in ("normal", "leicht"):
        for seed in (2, 3):
            results = folder / f"{level}-{seed}.res"
            argv = ["tournament", "speedtombola", "--seats", f"{level},leicht,leicht",
                    "--games", "9", "--seed", str(seed), "--no-progress", "--results",
                    str(results), "--lang", "en"]  # fmt: skip
            assert cli.main(argv) == 0
            found[level, seed] = results
    return found


def per_deal(results: Path, seat: int = 0) -> list[float]:
    """Each deal's mean win share of a seat, read from the file by hand."""
    lines = results.read_text(encoding="utf-8").splitlines()[1:]
    deals = sorted((json.loads(line) for line in lines), key=lambda item: item["item"])
    return [sum(g[0][seat] for g in d["result"]) / len(d["result"]) for d in deals]


def test_a_pairing_is_the_mean_of_the_differences_deal_by_deal(
    runs: dict, capsys: pytest.CaptureFixture[str]
) -> None:
    before, after = runs["leicht", 2], runs["normal", 2]
    code, out, err = compare(capsys, "--before", str(before), "--after", str(after), "--json")
    assert code == 0 and err == ""
    result = json.loads(out)
    old, new = per_deal(before), per_deal(after)
    differences = [b - a for a, b in zip(old, new, strict=True)]
    assert result["deals"] == 3 and result["games"] == 9 and result["left_out"] == 0
    assert result["before"] == ["leicht"] and result["after"] == ["normal"]
    assert result["before_win_share"] == pytest.approx(sum(old) / 3)
    assert result["after_win_share"] == pytest.approx(sum(new) / 3)
    assert result["difference"] == pytest.approx(sum(differences) / 3)
    mean = sum(differences) / 3
    se = (sum((d - mean) ** 2 for d in differences) / 2 / 3) ** 0.5
    assert result["difference_se"] == pytest.approx(se)
    assert [s["seed"] for s in result["seeds"]] == [2]


def test_the_win_shares_are_the_tournaments_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before, old = tournament(tmp_path, capsys, "leicht,normal,leicht", 5)
    after, new = tournament(tmp_path, capsys, "leicht,normal,normal", 5)
    code, out, _ = compare(
        capsys, "--before", str(before), "--after", str(after), "--seat", "3", "--json"
    )
    result = json.loads(out)
    assert code == 0 and result["seat"] == 3
    assert result["before_win_share"] == pytest.approx(old["results"][2]["win_share"])
    assert result["after_win_share"] == pytest.approx(new["results"][2]["win_share"])


def test_a_run_against_itself_differs_by_nothing(
    runs: dict, capsys: pytest.CaptureFixture[str]
) -> None:
    same = str(runs["normal", 3])
    result = json.loads(compare(capsys, "--before", same, "--after", same, "--json")[1])
    assert result["difference"] == 0 and result["difference_se"] == 0


def test_seeds_pool_each_paired_with_its_own(
    runs: dict, capsys: pytest.CaptureFixture[str]
) -> None:
    before = [str(runs["leicht", s]) for s in (2, 3)]
    after = [str(runs["normal", s]) for s in (3, 2)]  # any order: matched by seed
    code, out, _ = compare(capsys, "--before", *before, "--after", *after, "--json")
    result = json.loads(out)
    assert code == 0 and result["deals"] == 6 and result["games"] == 18
    assert [s["seed"] for s in result["seeds"]] == [2, 3]
    old = per_deal(runs["leicht", 2]) + per_deal(runs["leicht", 3])
    new = per_deal(runs["normal", 2]) + per_deal(runs["normal", 3])
    assert result["difference"] == pytest.approx((sum(new) - sum(old)) / 6)
    code, text, _ = compare(capsys, "--before", *before, "--after", *after)
    lines = text.splitlines()
    assert lines[0] == "speedtombola, seat 1: before leicht, after normal; 18 games a side"
    assert lines[1].split() == ["seed", "deals", "before", "after", "difference", "per", "deal"]
    assert [line.split()[0] for line in lines[3:]] == ["2", "3", "all"]
    assert lines[-1].split()[1] == "6"


def test_deals_of_one_side_only_are_left_out_and_counted(
    runs: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stopped = tmp_path / "stopped.res"
    lines = runs["normal", 2].read_text(encoding="utf-8").splitlines()
    stopped.write_text("\n".join([*lines[:3], lines[3][:20]]) + "\n", encoding="utf-8")
    before = str(runs["leicht", 2])
    code, out, _ = compare(capsys, "--before", before, "--after", str(stopped))
    assert code == 0 and out.splitlines()[-1] == "1 deal played on one side only: left out"
    result = json.loads(compare(capsys, "--before", before, "--after", str(stopped), "--json")[1])
    assert result["deals"] == 2 and result["left_out"] == 1


@pytest.mark.parametrize(
    ("make", "code", "says"),
    [
        (lambda runs, tmp: [runs["leicht", 2], tmp / "nix.res"], 2, "nix.res: No such file"),
        (lambda runs, tmp: [runs["leicht", 2], tmp], 2, "Is a directory"),
        (lambda runs, tmp: [runs["leicht", 2], tmp / "png"], 2, "not a results file"),
        (lambda runs, tmp: [runs["leicht", 2], tmp / "object"], 7, "not the results of a"),
        (lambda runs, tmp: [runs["leicht", 2], tmp / "stats"], 7, "not the results of a"),
        (lambda runs, tmp: [runs["leicht", 2], tmp / "bent"], 7, "deal 1 is not a tourn"),
        (lambda runs, tmp: [runs["leicht", 2], runs["normal", 3]], 2, "no deal in both"),
    ],
    ids=["missing", "folder", "not json", "not results", "other command", "bad deal", "seeds"],
)
def test_files_that_do_not_belong_are_named(
    make: object, code: int, says: str, runs: dict, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    good = runs["normal", 2].read_text(encoding="utf-8").splitlines()
    (tmp_path / "png").write_bytes(b"\x89PNG\r\n\x1a\n\x00")
    (tmp_path / "object").write_text("{}\n", encoding="utf-8")
    header = json.loads(good[0])
    header["command"] = "boards stats engel-bengel"
    (tmp_path / "stats").write_text(json.dumps(header) + "\n", encoding="utf-8")
    bent = json.loads(good[2])
    bent["result"] = [[[1.0, 0.0]]]
    (tmp_path / "bent").write_text("\n".join([good[0], good[1], json.dumps(bent)]) + "\n", "utf-8")
    before, after = make(runs, tmp_path)  # type: ignore[operator]
    result = compare(capsys, "--before", str(before), "--after", str(after))
    assert result[0] == code
    err = result[2].strip()
    assert len(err.splitlines()) == 1 and says in err and "Traceback" not in err


def test_only_the_compared_seat_may_differ(
    runs: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other, _ = tournament(tmp_path, capsys, "normal,normal,leicht", 2)
    code, _, err = compare(capsys, "--before", str(runs["leicht", 2]), "--after", str(other))
    assert code == 2
    assert "seats normal,normal,leicht, but" in err and "only seat 1 may differ" in err
    code, _, err = compare(
        capsys, "--before", str(runs["leicht", 2]), "--after", str(other), "--seat", "2"
    )
    assert code == 2 and "only seat 2 may differ" in err
    twice = [str(runs["leicht", 2])] * 2
    code, _, err = compare(capsys, "--before", *twice, "--after", str(runs["normal", 2]))
    assert code == 2 and "--before:" in err and "both of seed 2" in err
    code, _, err = compare(
        capsys, "--before", twice[0], "--after", str(runs["normal", 2]), "--seat", "4"
    )
    assert code == 2 and "--seat 4:" in err and "has seats 1 to 3" in err


def test_other_house_rules_are_named(
    runs: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "rules.res"
    argv = ["tournament", "speedtombola", "--seats", "normal,leicht,leicht", "--games", "3",
            "--seed", "2", "--no-progress", "--results", str(results), "--rounds", "3"]  # fmt: skip
    assert cli.main(argv) == 0
    capsys.readouterr()
    code, _, err = compare(capsys, "--before", str(runs["leicht", 2]), "--after", str(results))
    assert code == 2 and "other house rules than" in err and '"rounds": 3' in err


def test_the_docs_example_runs_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/host.md's example, on 30 games instead of 300: the same heading and columns."""
    docs = (Path(__file__).resolve().parent.parent / "docs" / "host.md").read_text("utf-8")
    block = docs.split("### Is it better?", 1)[1].split("```\n", 2)[1]
    commands = [line[2:].split() for line in block.splitlines() if line.startswith("$ ")]
    shown = [line for line in block.splitlines() if line and not line.startswith("$ ")]
    monkeypatch.chdir(tmp_path)
    for words in commands[:-1]:
        assert words[:2] == ["spielleiter-host", "tournament"]
        words[words.index("--games") + 1] = "30"
        assert cli.main([*words[1:], "--no-progress"]) == 0
    capsys.readouterr()
    assert cli.main(commands[-1][1:]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == shown[0].replace("300 games", "30 games")
    assert out[1:3] == shown[1:3]
    assert out[3].split()[:2] == ["1", "10"] and out[3].split()[2:5] == ["0.333", "±", "0.000"]


def test_a_results_file_that_cannot_be_read_or_written_is_said_as_every_file_is(
    runs: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The words of docs/host.md's table ("cannot read FILE", "cannot write FILE", exit 2),
    in the tool's language around the system's own, not the system's words alone."""
    missing = tmp_path / "nix.res"
    code, _, err = compare(capsys, "--before", str(runs["leicht", 2]), "--after", str(missing))
    assert code == 2 and err.startswith(f"spielleiter-host: cannot read {missing}: "), err
    nowhere = tmp_path / "nix" / "run.res"
    argv = ["tournament", "speedtombola", "--seats", "normal,leicht,leicht", "--games", "3",
            "--no-progress", "--results", str(nowhere)]  # fmt: skip
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"spielleiter-host: tournament: cannot write {nowhere}: "), err
