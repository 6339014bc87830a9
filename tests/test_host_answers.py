"""The laptop tool checks what the box tells it (docs/protocol.md's result shapes).

A scripted box on a pty answers every method the tool calls: first as documented (every
command succeeds), then, field by field, with a wrong type or the field left out. Each
wrong answer is one line on stderr naming the method and the field, with exit code 8
(docs/host.md), never a traceback; an error that is not a JSON-RPC error object is shown
as it came. The examples and the walk over them are this test's own, written from
docs/protocol.md, not taken from the tool's table of shapes.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import json
import os
import re
import select
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from spielleiter.link.fake import test_picture as picture
from spielleiter.link.methods import method_names
from spielleiter.link.protocol import PROTOCOL_VERSION, LineFramer
from spielleiter.link.server import close_pty, open_pty
from spielleiter_host import answers
from spielleiter_host.cli import main
from spielleiter_host.device import EXIT_ANSWER

pytestmark = pytest.mark.usefixtures("english")  # the English messages; German in test_host_i18n

HOST = Path(__file__).resolve().parent.parent / "host"
BACKUP = b"SQLite format 3\x00" + bytes(200)

EXAMPLES: dict[str, Any] = {
    "hello": {
        "firmware": "0.1.0", "hardware": {"emulated": True, "display": None}, "uptime_s": 73.4,
        "game": None, "protocol": PROTOCOL_VERSION, "methods": ["hello", "screen"],
        "pin_set": False,
        "fault": {"kind": "corrupt", "detail": "malformed", "panel": "Speicher beschädigt: …",
                  "records_readable": True},
    },
    "settings.get": {
        "settings": {"clock.seconds": 10}, "defaults": {"clock.seconds": 10},
        "help": {"clock.seconds": "seconds per decision with the clock on"}, "pin_set": False,
    },
    "settings.set": {"settings": {"clock.seconds": 15}, "pin_set": False, "warning": "stored"},
    "boards.list": {
        "boards": [{"game": "besenbingo", "name": "Hexentanz", "shipped": True, "uploaded": False}]
    },
    "boards.get": {"game": "besenbingo", "name": "Hexentanz", "board": {"name": "Hexentanz"}},
    "boards.put": {"game": "besenbingo", "stored": ["Eigen"]},
    "boards.delete": {"game": "besenbingo", "deleted": "Eigen"},
    "bestenliste.get": {
        "bestenliste": {"speedtombola": [
            {"place": 1, "name": "Stark", "kind": "computer", "level": "stark", "bot_version": 1,
             "rating": 3.1, "mu": 27.9, "sigma": 8.3, "matches": 2, "wins": 1, "new": False}]},
        "points": {"speedtombola": [
            {"place": 1, "name": "Anna", "points": 95, "average": 95.0, "matches": 1, "wins": 0}]},
        "meaning": {"speedtombola": "per human and match: ..."},
        "lowest_first": {"speedtombola": False},
        "history": {"speedtombola": [{"name": "Anna", "kind": "human", "steps": [
            {"record": 1, "finished": 1795997318.08, "mu": 27.9, "sigma": 8.3, "rating": 3.1,
             "place": 1, "seats": 3}]}]},
    },
    "bestenliste.reset": {"game": "speedtombola", "removed": 3},
    "records.list": {"records": [
        {"id": 1, "game": "speedtombola", "seats": ["Anna", "Stark 1"], "actions": 57,
         "started": 1795997318.08, "finished": True, "abandoned": False}]},
    "records.get": {"record": {
        "format": 1, "game": "speedtombola", "params": {"players": 2},
        "seats": [{"name": "Anna", "kind": "human"}], "actions": [12, None], "meta": {"id": 1}}},
    "records.delete": {"deleted": 1},
    "names.list": {"names": ["Jörg", "Anna"]},
    "names.add": {"names": ["Jörg", "Anna"]},
    "names.delete": {"deleted": "Anna", "names": ["Jörg"]},
    "names.rename": {"old": "Jorg", "new": "Jörg", "merged": True, "names": ["Jörg", "Anna"]},
    "screen": {"png": base64.b64encode(picture()).decode(), "summary": {"screen": "menu"}},
    "spinner.read": {"mode": "sensor", "sector": 0},
    "spinner.calibrate": {"calibration": {"zero_deg": 359.7}},
    "backup.get": {
        "size": len(BACKUP), "sha256": hashlib.sha256(BACKUP).hexdigest(),
        "data": base64.b64encode(BACKUP).decode(), "left_out": [2],
    },
    "backup.restore": {"received": len(BACKUP), "size": len(BACKUP), "restored": True},
}  # fmt: skip
"""An answer to each method as docs/protocol.md shows it."""

COMMANDS: dict[str, list[str]] = {
    "hello": ["info"],
    "settings.get": ["settings", "get"],
    "settings.set": ["settings", "set", "clock.seconds=15"],
    "boards.list": ["boards", "list"],
    "boards.get": ["boards", "get", "besenbingo", "Hexentanz"],
    "boards.put": ["boards", "put", "besenbingo", "{board}", "--name", "Eigen"],
    "boards.delete": ["boards", "delete", "besenbingo", "Eigen"],
    "bestenliste.get": ["leaderboard"],
    "bestenliste.reset": ["leaderboard", "--reset", "--yes"],
    "records.list": ["records", "list"],
    "records.get": ["records", "get", "1"],
    "records.delete": ["records", "delete", "1", "--yes"],
    "names.list": ["names", "list"],
    "names.add": ["names", "add", "Anna"],
    "names.delete": ["names", "delete", "Anna"],
    "names.rename": ["names", "rename", "Jorg", "Jörg"],
    "screen": ["mirror", "--once"],
    "spinner.read": ["spinner", "read"],
    "spinner.calibrate": ["spinner", "calibrate", "action=zero"],
    "backup.get": ["backup", "get", "-o", "{out}"],
    "backup.restore": ["backup", "restore", "{backup}"],
}
"""A command line that calls each method."""

FREE = {
    "hello": {"hardware"}, "settings.get": {"settings", "defaults"},
    "settings.set": {"settings"}, "boards.get": {"board"},
    "records.get": {"record.params", "record.meta"}, "screen": {"summary"},
    "spinner.read": {""}, "spinner.calibrate": {"calibration"},
}  # fmt: skip
"""Objects whose insides are the app's (the hardware found, a board ...): only that they
are objects is checked."""
MAPS = {
    "settings.get": {"help"},
    "bestenliste.get": {"bestenliste", "points", "meaning", "lowest_first", "history"},
}
"""Objects of name -> value: any names, each value of one shape."""
OPTIONAL = {
    "settings.set": {"warning"},
    "bestenliste.get": {
        "bestenliste.speedtombola[0].level", "bestenliste.speedtombola[0].bot_version", "history",
    },
}  # fmt: skip
"""Fields the box may leave out."""


def join(path: str, key: str) -> str:
    if re.fullmatch(r"[A-Za-z_]\w*", key):
        return f"{path}.{key}" if path else key
    return f"{path}[{json.dumps(key)}]"


def wrong(value: Any, path: str) -> list[Any]:
    """Values of another type than `value`."""
    if isinstance(value, bool):
        return ["yes"]
    if isinstance(value, int | float):
        return [str(value)]
    if isinstance(value, str):
        special = {"png": ["not base64!"], "data": ["abc"], "sha256": ["00ff"]}
        return [7, *special.get(path, [])]
    if value is None:
        return [[]]
    return [[]] if isinstance(value, dict) else [{}]


def cases(method: str) -> Iterator[tuple[str, Any, str, str]]:
    """(the field, the wrong answer, what the tool says about it, a label) for `method`."""
    example = EXAMPLES[method]

    def walk(value: Any, path: str) -> Iterator[tuple[str, Any]]:
        """(path, a function of the answer that spoils it there)."""
        for bad in wrong(value, path):
            yield path, ("set", path, bad)
        if isinstance(value, dict) and path not in FREE.get(method, ()):
            for key, inner in value.items():
                child = join(path, key)
                if path not in MAPS.get(method, ()) and child not in OPTIONAL.get(method, ()):
                    yield child, ("del", child, None)
                yield from walk(inner, child)
        elif isinstance(value, list) and value:
            yield from walk(value[0], f"{path}[0]")

    for path, change in walk(example, ""):
        answer = spoil(copy.deepcopy(example), example, change)
        what = "missing" if change[0] == "del" else "not "
        label = "missing" if change[0] == "del" else json.dumps(change[2], ensure_ascii=False)
        yield path or "the result", answer, what, label


def spoil(answer: Any, example: Any, change: tuple[str, str, Any]) -> Any:
    """The answer with the change made at its path (the path as the tool names it)."""
    how, path, bad = change
    if not path:
        return bad
    steps = re.findall(r"\.?([A-Za-z_]\w*)|\[(\d+)\]|\[(\"[^\"]*\")\]", path)
    keys: list[Any] = [int(i) if i else (json.loads(q) if q else name) for name, i, q in steps]
    node = answer
    for key in keys[:-1]:
        node = node[key]
    if how == "del":
        del node[keys[-1]]
    else:
        node[keys[-1]] = bad
    return answer


PROTOCOL_CASES = {("hello", "the result"), ("hello", "protocol")}
"""A hello that is no object or has no protocol number is no Spielleiter box (exit 6)."""
ALL_CASES = [
    (method, *case)
    for method in EXAMPLES
    for case in cases(method)
    if (method, case[0]) not in PROTOCOL_CASES
]


class ScriptedBox:
    """A box on a pty that answers each method with `results[method]` (or the raw error
    in `errors[method]`), whatever it was asked."""

    def __init__(self) -> None:
        self.master, self.port = open_pty()
        os.set_blocking(self.master, False)
        self.results: dict[str, Any] = {}
        self.errors: dict[str, Any] = {}
        self.asked: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        framer = LineFramer(1 << 20)
        while not self._stop.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(self.master, 65536)
            except BlockingIOError:
                continue
            for line in framer.feed(data):
                if line and line.strip():
                    self._answer(json.loads(line))

    def _answer(self, request: dict[str, Any]) -> None:
        method = request["method"]
        self.asked.append(method)
        answer: dict[str, Any] = {"jsonrpc": "2.0", "id": request.get("id")}
        if method in self.errors:
            answer["error"] = self.errors[method]
        else:
            answer["result"] = self.results.get(method, EXAMPLES.get(method))
        data = (json.dumps(answer) + "\n").encode()
        while data:
            select.select([], [self.master], [], 1)
            try:
                data = data[os.write(self.master, data) :]
            except BlockingIOError:
                continue

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        close_pty(self.master)


@pytest.fixture(scope="module")
def box() -> Iterator[ScriptedBox]:
    scripted = ScriptedBox()
    yield scripted
    scripted.close()


NOTHING = object()


@pytest.fixture
def run(box: ScriptedBox, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Any:
    """Run the command that calls `method` against the scripted box, answering `result`
    to it: (exit code, stdout, stderr)."""
    board = tmp_path / "board.json"
    board.write_text(json.dumps({"name": "Eigen", "rows": [1]}))
    saved = tmp_path / "backup.sqlite3"
    saved.write_bytes(BACKUP)
    places = {"board": str(board), "backup": str(saved), "out": str(tmp_path / "out")}

    def command(method: str, *extra: str, result: Any = None, error: Any = NOTHING
                ) -> tuple[int, str, str]:  # fmt: skip
        box.results.clear()
        box.errors.clear()
        if error is not NOTHING:
            box.errors[method] = error
        elif result is not None:
            box.results[method] = result
        argv = [a.format(**places) for a in COMMANDS[method]]
        code = main([*argv, *extra, "--port", box.port, "--timeout", "3"])
        out, err = capsys.readouterr()
        return code, out, err

    return command


# --- the table of shapes is the methods' table ----------------------------------------------
def test_every_method_the_tool_calls_has_a_shape_an_example_and_a_command() -> None:
    called = set()
    for source in HOST.glob("*.py"):
        text = source.read_text("utf-8")
        called |= set(re.findall(r"""\.(?:call|request)\(\s*"([a-z.]+)\"""", text))
        called |= set(re.findall(r"""call_with_pin\(\s*\w+,\s*"([a-z.]+)\"""", text))
    assert called <= set(answers.RESULTS)
    assert set(answers.RESULTS) == set(method_names()) == set(EXAMPLES) == set(COMMANDS)


def test_each_documented_answer_is_taken(run: Any, box: ScriptedBox) -> None:
    for method in EXAMPLES:
        box.asked.clear()
        code, out, err = run(method)
        assert code == 0, (method, err)
        assert method in box.asked and "Traceback" not in out + err
        assert err in ("", "spielleiter-host: warning: stored\n"), (method, err)


# --- every wrong answer, one line ------------------------------------------------------------
@pytest.mark.parametrize(
    ("method", "field", "answer", "what", "label"), ALL_CASES,
    ids=[f"{m} {f} {label}" for m, f, _, _, label in ALL_CASES],
)  # fmt: skip
def test_a_wrong_answer_is_one_line_naming_the_method_and_the_field(
    run: Any, method: str, field: str, answer: Any, what: str, label: str
) -> None:
    code, out, err = run(method, result=answer)
    assert code == EXIT_ANSWER, (code, err)
    assert "Traceback" not in out + err
    assert err.startswith(f"spielleiter-host: the box answered {method} with {field} {what}"), err
    assert len(err.splitlines()) == 1


def test_records_list_names_the_record_whose_id_is_no_integer(run: Any) -> None:
    answer = copy.deepcopy(EXAMPLES["records.list"])
    answer["records"].append({**answer["records"][0], "id": "2"})
    code, _, err = run("records.list", result=answer)
    assert (code, err) == (
        8, "spielleiter-host: the box answered records.list with records[1].id not an integer\n"
    )  # fmt: skip


@pytest.mark.parametrize(
    "hello", [[], "hallo", {"firmware": "0.1.0"}, {**EXAMPLES["hello"], "protocol": "1"}]
)
def test_a_hello_without_this_protocol_number_is_another_protocol(run: Any, hello: Any) -> None:
    code, out, err = run("hello", result=hello)
    assert code == 6 and out == "" and len(err.splitlines()) == 1 and "protocol" in err


def test_info_with_a_wrong_hello_prints_no_table(run: Any) -> None:
    for hello in ({"protocol": PROTOCOL_VERSION}, {**EXAMPLES["hello"], "hardware": "Pi"}):
        code, out, err = run("hello", result=hello)
        assert code == EXIT_ANSWER and out == "" and "the box answered hello with" in err


def test_under_json_a_wrong_answer_is_a_json_object_with_its_exit_code(run: Any) -> None:
    code, out, err = run("records.list", "--json", result={"records": {}})
    said = "the box answered records.list with records not a list"
    assert code == EXIT_ANSWER and err == f"spielleiter-host: {said}\n"
    assert json.loads(out) == {"error": said, "exit_code": EXIT_ANSWER}


# --- errors that are no JSON-RPC error objects -------------------------------------------------
@pytest.mark.parametrize(
    "error",
    ["disk kaputt", 17, None, [1, 2], {"code": "1", "message": "x"}, {"code": 1},
     {"code": True, "message": "x"}, {"message": "nur Text"}],
)  # fmt: skip
@pytest.mark.parametrize("method", ["records.list", "settings.get", "backup.get"])
def test_an_error_that_is_no_error_object_is_shown_as_it_came(
    run: Any, method: str, error: Any
) -> None:
    code, out, err = run(method, error=error)
    assert code == EXIT_ANSWER and "Traceback" not in out + err
    assert err == (
        f"spielleiter-host: the box answered {method} with an error that is not a JSON-RPC"
        f" error object: {json.dumps(error, ensure_ascii=False)}\n"
    )


def test_a_long_error_is_shown_in_one_line_cut_short(run: Any) -> None:
    code, _, err = run("names.list", error="x\n" * 500)
    assert code == EXIT_ANSWER and len(err.splitlines()) == 1 and err.endswith("...\n")


def test_a_real_error_object_still_says_what_the_box_refused(run: Any) -> None:
    error = {"code": 2, "message": "no record 1", "data": {"path": "id"}}
    code, _, err = run("records.get", error=error)
    assert (code, err) == (1, "spielleiter-host: no record 1\n")


def test_a_restore_the_box_does_not_finish_is_not_reported_as_done(run: Any) -> None:
    unfinished = {**EXAMPLES["backup.restore"], "restored": False}
    code, out, err = run("backup.restore", result=unfinished)
    assert code == EXIT_ANSWER and "restored" not in out
    assert err.startswith("spielleiter-host: the box answered backup.restore with restored false")


def test_docs_name_the_exit_code_and_every_shape() -> None:
    docs = HOST.parent / "docs"
    assert f"{EXIT_ANSWER} the box answered something" in " ".join(
        (docs / "host.md").read_text("utf-8").split()
    )
    shapes = (docs / "protocol.md").read_text("utf-8").split("## Result shapes", 1)[1]
    for method in answers.RESULTS:
        assert f"`{method}`" in shapes.split("## ", 1)[0], method
