"""Every command of the laptop tool meets bad input the same way: one line on stderr, the
exit code docs/host.md documents for it, never a traceback, and under --json a JSON
object with "error" and "exit_code" on stdout. The table below holds bad input for every
command the parser has; a new command without a line in it fails the first test."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from spielleiter.games.base import Seat
from spielleiter.games.besenbingo.templates import default_templates
from spielleiter.games.engel_bengel.faces import default_boards
from spielleiter.link.fake import FakeDevice
from spielleiter.link.server import LinkServer
from spielleiter.records import Record
from spielleiter.store import Store
from spielleiter_host.cli import build_parser, leaves, main

PNG = Path(__file__).resolve().parent / "golden" / "main_menu.png"
FACE = next(iter(default_boards()))
"""A board the box ships for engel-bengel."""

# (command, its arguments, the exit code docs/host.md gives: 1 refused or not found,
# 2 wrong command line or a file that cannot be read or written, 3 no box, 7 invalid)
CASES: list[tuple[str, list[str], int]] = [
    ("tournament", ["speedtombola", "--seats", "stark,profi,normal"], 2),
    ("tournament", ["speedtombla", "--seats", "normal,normal,normal"], 2),
    ("tournament", ["speedtombola", "--seats", "normal,normal,normal", "--games", "0"], 2),
    ("tournament", ["speedtombola", "--seats", "normal,normal,normal", "--jobs", "0"], 2),
    ("tournament", ["speedtombola", "--seats", "normal,normal,normal", "--results", "{png}"], 2),
    ("tournament", ["bungee", "--seats", "normal,normal", "--rounds", "99"], 2),
    ("compare", ["--before", "{missing}", "--after", "{missing}"], 2),
    ("compare", ["--before", "{png}", "--after", "{png}"], 2),
    ("compare", ["--before", "{object}", "--after", "{object}"], 7),
    ("compare", ["--before", "{object}", "--after", "{object}", "--seat", "0"], 2),
    ("compare", ["--before", "{object}"], 2),
    ("replay", ["{png}"], 2),
    ("replay", ["{missing}"], 2),
    ("replay", ["{object}"], 7),
    ("verify", ["{png}"], 2),
    ("verify", ["{missing}"], 2),
    ("verify", ["{object}"], 7),
    ("info", ["--timeout", "0"], 2),
    ("info", ["--timeout", "nan"], 2),
    ("info", ["--port", "{missing}"], 3),
    ("info", ["--port", "{png}"], 3),
    ("info", ["--bogus"], 2),
    ("settings get", ["clock.secnds"], 1),
    ("settings get", ["admin.pin"], 1),
    ("settings set", ["clock.secnds=5"], 7),
    ("settings set", ["clock.seconds=abc"], 7),
    ("settings set", ["clock.seconds"], 2),
    ("settings set", ["clock.seconds=5", "clock.seconds=6"], 2),
    ("settings set", [], 2),
    ("settings set", ["--file", "{png}"], 2),
    ("settings set", ["--file", "{missing}"], 2),
    ("settings set", ["--file", "{list}"], 7),
    ("boards list", ["speedtombol"], 2),
    ("boards get", ["engel-bengel", "Nix"], 1),
    ("boards get", ["engel-bengel", FACE, "-o", "{nofolder}/x.json"], 2),
    ("boards get", ["engel-bengel", FACE, "-o", "{folder}"], 2),
    ("boards put", ["engel-bengel", "{png}"], 2),
    ("boards put", ["engel-bengel", "{missing}"], 2),
    ("boards put", ["engel-bengel", "{bad_face}"], 7),
    ("boards put", ["engel-bengel", "{list}"], 7),
    ("boards delete", ["engel-bengel", "Nix"], 1),
    ("boards check", ["engel-bengl", "{faces}"], 2),
    ("boards check", ["engel-bengel", "{png}"], 2),
    ("boards check", ["engel-bengel", "{missing}"], 2),
    ("boards check", ["engel-bengel", "{bad_face}"], 7),
    ("boards check", ["engel-bengel", "{faces}", "{bad_face}"], 7),
    ("boards check", ["engel-bengel", "{empty}"], 7),
    ("boards check", ["besenbingo", "{list}"], 7),
    ("boards stats", ["engel-bengel", "{png}"], 2),
    ("boards stats", ["engel-bengel", "{bad_face}"], 7),
    ("boards stats", ["engel-bengel", "{empty}"], 7),
    ("boards stats", ["engel-bengl"], 2),
    ("boards stats", ["engel-bengel", "--seats", "normal,nromal"], 2),
    ("boards stats", ["engel-bengel", "--games", "0"], 2),
    ("leaderboard", ["speedtombol"], 2),
    ("leaderboard", ["speedtombol", "--reset", "--yes"], 2),
    ("records list", ["--limit", "-3"], 2),
    ("backup get", ["-o", "{nofolder}/x.sqlite3", "--kept", "3"], 2),
    ("records list", ["--limit", "abc"], 2),
    ("records get", ["abc"], 2),
    ("records get", ["999"], 1),
    ("records get", ["{record}", "-o", "{nofolder}/r.json"], 2),
    ("records delete", ["999", "--yes"], 1),
    ("records delete", ["-1x", "--yes"], 2),
    ("backup get", ["-o", "{nofolder}/b.sqlite3"], 2),
    ("backup get", ["-o", "{folder}/b.sqlite3", "--kept", "abc"], 2),
    ("backup get", [], 2),
    ("backup restore", ["{png}"], 2),
    ("backup restore", ["{missing}"], 2),
    ("names list", ["--timeout", "-1"], 2),
    ("names add", [""], 7),
    ("names add", ["Ein viel zu langer Name"], 7),
    ("names delete", ["Nobody"], 1),
    ("names rename", ["Anna", ""], 7),
    ("names rename", ["Nobody", "Anna"], 1),
    ("mirror", ["--once", "--png", "{nofolder}/x.png"], 2),
    ("mirror", ["--once", "--png", "{folder}"], 2),
    ("mirror", ["--once", "--png", "{folder}/x.jpg"], 2),
    ("mirror", ["--interval", "-1", "--once"], 2),
    ("spinner read", ["--interval", "0"], 2),
    ("spinner calibrate", ["sectors=abc"], 7),
    ("spinner calibrate", ["acton=zero"], 7),
    ("spinner calibrate", ["action=zeor"], 7),
    ("spinner calibrate", ["zero"], 2),
    ("spinner calibrate", [], 2),
    ("spinner calibrate", ["--file", "{png}"], 2),
    ("spinner calibrate", ["--file", "{list}"], 7),
    ("templates score", ["--games", "-1"], 2),
    ("templates score", ["--jobs", "0"], 2),
    ("templates score", ["--games", "0", "--template", "{png}"], 2),
    ("templates score", ["--games", "0", "--template", "{bad_template}"], 7),
    ("templates score", ["--games", "0", "--template", "{empty}"], 7),
    ("templates check", ["{png}"], 2),
    ("templates check", ["{missing}"], 2),
    ("templates check", ["{bad_template}"], 7),
    ("templates check", ["{empty}"], 7),
    ("print besenbingo", ["--out", "{nofolder}/b.pdf"], 2),
    ("print besenbingo", ["--out", "{folder}"], 2),
    ("print besenbingo", ["--out", "{folder}/b.pdf", "--template", "{bad_template}"], 7),
    ("print besenbingo", ["--out", "{folder}/b.pdf", "--template", "{png}"], 2),
    ("print engel-bengel", ["--out", "{folder}/e.pdf", "--face", "{png}"], 2),
    ("print engel-bengel", ["--out", "{folder}/e.pdf", "--face", "{bad_face}"], 7),
    ("print engel-bengel", ["--out", "{nofolder}/e.pdf"], 2),
]


def commands() -> dict[str, list[str]]:
    """Every command that runs ("boards put" ...) and its options."""
    return {
        " ".join(words): [o for a in parser._actions for o in a.option_strings]
        for words, parser in leaves(build_parser())
    }


def test_every_command_has_bad_input_in_the_table() -> None:
    missing = set(commands()) - {command for command, _, _ in CASES}
    assert not missing, f"add bad input for {sorted(missing)} to CASES"


def test_every_command_prints_json_on_request() -> None:
    assert [c for c, options in commands().items() if "--json" not in options] == []


@pytest.fixture(scope="module")
def places(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The files the cases name: missing, not JSON, JSON that holds no board, bad boards."""
    folder = tmp_path_factory.mktemp("files")
    face = dict(default_boards()[FACE], name="Kaputt")
    face["rows"] = [dict(r) for r in face["rows"]]
    face["rows"][1]["pips"] = [5, 9]
    template = default_templates()[0].to_json()
    template["bar"]["minus"] = [-1]
    files = {
        "faces": default_boards(), "bad_face": face, "bad_template": [template],
        "empty": [], "list": [1, 2], "object": {},
    }  # fmt: skip
    named = {"png": str(PNG), "missing": str(folder / "nix.json"), "folder": str(folder),
             "nofolder": str(folder / "gibtsnicht")}  # fmt: skip
    for name, data in files.items():
        (folder / f"{name}.json").write_text(json.dumps(data, ensure_ascii=False), "utf-8")
        named[name] = str(folder / f"{name}.json")
    return named


@pytest.fixture(scope="module")
def box(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Store]]:
    """A fake box on a pty, with a record, names and a Bestenliste: (its port, its store)."""
    store = Store.open(tmp_path_factory.mktemp("box") / "data")
    seats = [Seat("Anna"), Seat("Bert"), Seat("Carla")]
    store.start_record(Record("speedtombola", {}, seats, []))
    store.remember_names(["Anna", "Bert"])
    store.add_to_bestenliste("speedtombola", "Anna", 90)
    with LinkServer.on_pty(FakeDevice(store)) as server:
        yield server.port_name, store
    store.close()


def run(command: str, argv: list[str], port: str, capsys: pytest.CaptureFixture[str]
        ) -> tuple[int, str, str]:  # fmt: skip
    """The command line, with the fake box's port for a command that talks to a box."""
    words = command.split()
    connection = ["--port", port, "--timeout", "3"] if "--port" in commands()[command] else []
    code = main([*words, *connection, *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
@pytest.mark.parametrize(
    ("command", "argv", "expected"), CASES, ids=[f"{c} {' '.join(a)}" for c, a, _ in CASES]
)
def test_bad_input_is_one_line_with_the_documented_exit_code(
    command: str, argv: list[str], expected: int, as_json: bool,
    places: dict[str, str], box: tuple[str, Store], capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    record = str(box[1].records()[0].id)
    filled = [a.format(**places, record=record) for a in argv]
    code, out, err = run(command, [*filled, *(["--json"] if as_json else [])], box[0], capsys)
    assert code == expected, err
    assert "Traceback" not in out + err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("spielleiter-host: "), err
    if as_json:
        answer = json.loads(out)
        assert isinstance(answer, dict)
        assert answer["error"] == lines[0].removeprefix("spielleiter-host: ")
        assert answer["exit_code"] == code
    else:
        assert '"exit_code"' not in out


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["recrods", "list"], "host: unknown command 'recrods' (did you mean records?)"),
        (["boards", "lst"], "boards: unknown action 'lst' (did you mean list?); choose from list"),
        (["print", "bsenbingo"], "print: unknown game 'bsenbingo' (did you mean besenbingo?)"),
        (["tournament", "bunge"], "tournament: unknown game 'bunge' (did you mean bungee?)"),
        ([], "the following arguments are required: COMMAND"),
        (["records", "list", "--limt", "3"], "records list: unrecognized arguments: --limt 3"),
    ],
)
def test_a_wrong_command_is_one_line_with_a_suggestion(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*argv, "--json"]) == 2
    out, err = capsys.readouterr()
    assert says in err and len(err.splitlines()) == 1 and err.endswith("(see --help)\n")
    assert json.loads(out)["exit_code"] == 2


@pytest.mark.parametrize(
    "command", ["info", "settings get", "boards list", "leaderboard", "records list",
                "names list", "spinner read"],  # fmt: skip
)
def test_every_column_of_a_table_has_a_header(
    command: str, box: tuple[str, Store], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(command, [], box[0], capsys)
    lines = out.splitlines()
    rules = [i for i, line in enumerate(lines) if i and re.fullmatch(r"-+( +-+)*", line)]
    assert code == 0 and rules, out
    for i in rules:
        for column in re.finditer(r"-+", lines[i]):
            assert lines[i - 1][column.start() : column.end()].strip(), (command, lines[i - 1])


@pytest.mark.parametrize(
    ("command", "argv"),
    [
        ("boards get", ["engel-bengel", FACE, "-o", "{out}"]),
        ("records get", ["{record}", "-o", "{out}"]),
        ("backup get", ["-o", "{out}"]),
        ("mirror", ["--once", "--png", "{out}"]),
        ("print besenbingo", ["--out", "{out}"]),
        ("print engel-bengel", ["--out", "{out}"]),
    ],
)
def test_writing_a_file_ends_with_a_line_naming_it_or_a_json_object(
    command: str, argv: list[str], box: tuple[str, Store], tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    target = tmp_path / ("saved.png" if "--png" in argv else "saved")  # --png takes .png only
    filled = [a.format(out=target, record=box[1].records()[0].id) for a in argv]
    code, out, err = run(command, filled, box[0], capsys)
    size = target.stat().st_size
    assert code == 0 and err == "" and out.splitlines()[-1].startswith(f"{target}: ")
    target.unlink()
    code, out, _ = run(command, [*filled, "--json"], box[0], capsys)
    answer = json.loads(out)
    assert code == 0 and answer["file"] == str(target) and answer["bytes"] == size > 0


def test_a_check_under_json_gives_a_result_per_file(
    places: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    files = [places["faces"], places["bad_face"], places["missing"]]
    assert main(["boards", "check", "engel-bengel", *files, "--json"]) == 2
    answer = json.loads(capsys.readouterr().out)
    assert [f["valid"] for f in answer["files"]] == [True, False, False]
    assert answer["files"][0]["boards"] == list(default_boards())
    assert "rows[1].pips[1]" in answer["files"][1]["error"]
    assert main(["boards", "check", "engel-bengel", places["faces"], "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["valid"] is True
