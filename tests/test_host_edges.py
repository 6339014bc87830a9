"""The edges of spielleiter-host's command line (issue 26): boards of a game without
boards, mistyped board names, twins and oversized boards, tournament rows, the mirror's
scale, a frames folder used before, and a reader that goes away (`… | head`)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image
from spielleiter.games.besenbingo.templates import default_boards
from spielleiter.hal.display import FrameFolder
from spielleiter.link.fake import FakeDevice
from spielleiter.link.server import LinkServer
from spielleiter.store import Store
from spielleiter_host.cli import main

pytestmark = pytest.mark.usefixtures("english")  # the English messages; German in test_host_i18n


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store.open(tmp_path / "data")
    yield s
    s.close()


@pytest.fixture
def fake(store: Store) -> FakeDevice:
    return FakeDevice(store)


@pytest.fixture
def host(fake: FakeDevice, capsys: pytest.CaptureFixture[str]):
    """A command line against the fake box: (exit code, stdout, stderr)."""
    with LinkServer.on_pty(fake) as server:

        def run(*argv: str) -> tuple[int, str, str]:
            code = main([*argv, "--port", server.port_name, "--timeout", "3"])
            out = capsys.readouterr()
            return code, out.out, out.err

        yield run


def test_boards_of_a_game_without_boards_is_a_wrong_command_line(host) -> None:
    """docs/host.md: 2 for a wrong command line (a game without boards, a mistyped game)."""
    code, _, err = host("boards", "get", "speedtombola", "x")
    assert code == 2 and "speedtombola has no boards; games with boards: besenbingo" in err
    code, _, err = host("boards", "get", "besenbngo", "x")
    assert code == 2 and "besenbingo?" in err
    for argv in (("list", "bungee"), ("delete", "maskenball", "x")):
        assert host("boards", *argv)[0] == 2
    assert host("boards", "put", "speedtombola", "x.json")[0] == 2


def test_a_mistyped_board_name_gets_a_suggestion(host, store: Store, tmp_path: Path) -> None:
    code, _, err = host("boards", "get", "besenbingo", "Hexentaz")
    assert code == 1 and "no board 'Hexentaz'" in err and "Hexentanz?" in err
    assert host("boards", "get", "besenbingo", "Zzzz")[0] == 1
    own = dict(default_boards()["Hexentanz"], name="Eigen")
    own["bar"] = dict(own["bar"], minus=[*own["bar"]["minus"][:-1], -9])
    path = tmp_path / "eigen.json"
    path.write_text(json.dumps(own, ensure_ascii=False), encoding="utf-8")
    assert host("boards", "put", "besenbingo", str(path))[0] == 0
    code, _, err = host("boards", "delete", "besenbingo", "Eigne")
    assert code == 1 and "Eigen?" in err
    code, _, err = host("boards", "delete", "besenbingo", "Hexentanz")
    assert code == 1 and "?" not in err  # a shipped board is never deleted


def test_boards_put_refuses_a_copy_or_a_twin_under_another_name(
    host, store: Store, tmp_path: Path
) -> None:
    shipped = default_boards()["Hexentanz"]
    path = tmp_path / "kopie.json"
    path.write_text(json.dumps(shipped, ensure_ascii=False), encoding="utf-8")
    code, _, err = host("boards", "put", "besenbingo", str(path), "--name", "Kopie")
    assert code == 7 and "Kopie: the same as the board 'Hexentanz'" in err
    mirrored = dict(shipped, name="Spiegel", grid=[row[::-1] for row in shipped["grid"]])
    path.write_text(json.dumps(mirrored, ensure_ascii=False), encoding="utf-8")
    code, _, err = host("boards", "put", "besenbingo", str(path))
    assert code == 7 and "the same as the board 'Hexentanz'" in err
    assert "Kopie" not in store.boards("besenbingo") and "Spiegel" not in store.boards("besenbingo")
    assert host("boards", "put", "besenbingo", str(path), "--name", "Hexentanz")[0] == 0
    face = next(iter(store.boards("engel-bengel").items()))
    path.write_text(json.dumps({"Kopie": dict(face[1], name="Kopie")}), encoding="utf-8")
    code, _, err = host("boards", "put", "engel-bengel", str(path))
    assert code == 7 and f"the same as the board {face[0]!r}" in err


def test_a_board_too_big_for_the_box_is_refused_as_invalid(host, tmp_path: Path) -> None:
    big = dict(default_boards()["Hexentanz"], name="Riesig", note="x" * 300_000)
    path = tmp_path / "riesig.json"
    path.write_text(json.dumps(big), encoding="utf-8")
    code, _, err = host("boards", "put", "besenbingo", str(path))
    assert code == 7 and "Riesig: a board has at most 16384 bytes of JSON, not 30" in err


@pytest.mark.parametrize(
    "content",
    [
        [dict(default_boards()["Hexentanz"], name="Liste")],
        {key: value for key, value in default_boards()["Hexentanz"].items() if key != "name"},
        dict(default_boards()["Hexentanz"], name="Riesig", note="x" * 20_000),
    ],
    ids=["a list of boards", "a board without a name", "a board too big"],
)
def test_boards_check_refuses_what_boards_put_refuses_in_the_same_words(
    host, content: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "boards.json"
    path.write_text(json.dumps(content, ensure_ascii=False), encoding="utf-8")
    put_code, _, put_said = host("boards", "put", "besenbingo", str(path))
    assert main(["boards", "check", "besenbingo", str(path)]) == put_code == 7
    assert capsys.readouterr().err == put_said


def test_every_long_run_can_go_without_its_progress_bar(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from spielleiter_host.cli import build_parser, leaves

    long_runs = {
        " ".join(words): parser._option_string_actions
        for words, parser in leaves(build_parser())
        if "--jobs" in parser._option_string_actions
    }
    assert {"tournament", "templates score", "boards stats"} <= set(long_runs)
    assert [c for c, options in long_runs.items() if "--no-progress" not in options] == []
    monkeypatch.setattr("sys.stderr.isatty", lambda: True)  # a terminal: a bar by default
    argv = ["templates", "score", "--games", "1"]
    assert main(argv) == 0 and "games" in capsys.readouterr().err
    assert main([*argv, "--no-progress"]) == 0
    assert capsys.readouterr().err == ""


def test_tournament_rows_carry_their_seat_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "speedtombola", "--seats", "normal,normal,leicht", "--games", "3",
            "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    rows = [line.split()[:2] for line in capsys.readouterr().out.splitlines()[1:]]
    assert rows == [["1.", "normal"], ["2.", "normal"], ["3.", "leicht"]]


def test_mirror_scales_the_saved_png(host, fake: FakeDevice, tmp_path: Path) -> None:
    target = tmp_path / "frame.png"
    code, out, _ = host("mirror", "--once", "--png", str(target), "--scale", "4", "--json")
    picture = Image.open(target)
    original = Image.open(io.BytesIO(fake.picture)).convert("1")
    assert code == 0 and picture.size == (original.width * 4, original.height * 4)
    assert picture.convert("1").getpixel((5, 5)) == original.getpixel((1, 1))
    assert json.loads(out)["bytes"] == target.stat().st_size
    assert host("mirror", "--once", "--scale", "9")[0] == 2


def test_a_frames_folder_used_before_holds_only_the_new_frames(tmp_path: Path) -> None:
    folder = tmp_path / "frames"
    first = FrameFolder(folder)
    for _ in range(3):
        first.show(Image.new("1", (128, 64)))
    first.close()
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    second = FrameFolder(folder)
    second.show(Image.new("1", (128, 64), 1))
    second.close()
    assert sorted(p.name for p in folder.iterdir()) == ["frame-000001.png", "frames.tsv",
                                                       "notes.txt"]  # fmt: skip
    assert (folder / "frames.tsv").read_text("utf-8").splitlines() == ["frame-000001.png\t"]


def test_a_reader_that_goes_away_ends_the_command_quietly() -> None:
    """`spielleiter-host tournament … --json | head -c 10`: no traceback, the shell's
    status for a broken pipe (141)."""
    command = [sys.executable, "-m", "spielleiter_host.cli", "tournament", "speedtombola",
               "--seats", "normal,leicht,leicht", "--games", "3", "--json"]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # before the command prints its one line
    errors = process.stderr.read().decode()
    assert process.wait(timeout=120) == 141
    assert errors == ""


def test_docs_host_md_names_every_command() -> None:
    from spielleiter_host.cli import build_parser, leaves

    docs = (Path(__file__).resolve().parent.parent / "docs" / "host.md").read_text("utf-8")
    for words, _parser in leaves(build_parser()):
        assert f"`{words[0]}" in docs, words
    assert "| `verify FILE` / `verify --id ID` |" in docs


def test_a_file_that_cannot_be_written_whole_is_not_written_at_all(tmp_path: Path) -> None:
    """A full disk in the middle of `print` (here: a limit on a file's size) leaves the file
    that was there as it was, and no half file beside it."""
    import resource
    import signal

    def small_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    sheets = tmp_path / "sheets.pdf"
    sheets.write_bytes(b"the sheets printed last week")
    argv = ["print", "besenbingo", "--out", str(sheets), "--lang", "en"]
    done = subprocess.run([sys.executable, "-m", "spielleiter_host.cli", *argv],
                          capture_output=True, text=True, preexec_fn=small_files)  # fmt: skip
    assert done.returncode == 2 and f"cannot write {sheets}: " in done.stderr, done.stderr
    assert sheets.read_bytes() == b"the sheets printed last week"
    assert [p.name for p in tmp_path.iterdir()] == ["sheets.pdf"]
