"""What the laptop says reads as one language, the laptop's (issue 26): a box in safe mode
as sentences, info's and spinner read's tables, the mirror's summary line, Engel &
Bengel's `boards stats` refused by the rules, a task that failed on a Dask cluster, and
the frame round a move the rules refuse in a tournament (the rules' reason itself stays
in the players' German). German by default, English with --lang en, --json unchanged."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest
from spielleiter.games import catalog
from spielleiter.games.engel_bengel.rules import EngelBengelGame
from spielleiter.hal.display import FrameSink
from spielleiter.link.fake import FakeDevice
from spielleiter.link.server import LinkServer
from spielleiter.safe_mode import SafeLink, SafeMode
from spielleiter.store import Store, StoreFault
from spielleiter_host import i18n, info, mirror, runner, spinner
from spielleiter_host.cli import main

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"


@pytest.fixture(autouse=True)
def afresh() -> Iterator[None]:
    yield
    i18n.use(None)


def said(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# --- info: a box in safe mode ------------------------------------------------------------


@pytest.fixture
def safe_box(tmp_path: Path) -> Iterator[str]:
    """A box in safe mode with a damaged store (its PIN set), on a pty: its port."""
    store = Store.open(tmp_path / "data")
    store.set_settings({"admin.pin": "2468"})
    store.close()
    safe = SafeMode(StoreFault("corrupt", "file is not a database"), tmp_path / "data",
                    FrameSink([]))  # fmt: skip
    with LinkServer.on_pty(SafeLink(safe)) as server:
        yield server.port_name
    safe.close()


PANEL = (
    "Speicher beschädigt: Die Daten sind beschädigt. Am Laptop: spielleiter-host backup"
    " restore DATEI."
)
"""What the panel of a box with a damaged store shows (the box's German in both)."""

SAFE_MODE_SAID = {
    "de": [
        "Notbetrieb: Die Daten der Box sind beschädigt.",
        f"  Das Display zeigt: {PANEL}",
        "  Was tun: Eine Sicherung zurückspielen: spielleiter-host backup restore DATEI"
        " --pin PIN",
        "  Die gespeicherten Partien lassen sich noch lesen: spielleiter-host records list",
        "  Meldung des Systems: file is not a database",
    ],
    "en": [
        "Safe mode: The box's data are damaged.",
        f"  The panel shows: {PANEL}",
        "  What to do: Restore a backup: spielleiter-host backup restore FILE --pin PIN",
        "  The recorded matches can still be read: spielleiter-host records list",
        "  The system's message: file is not a database",
    ],
}


@pytest.mark.parametrize("lang", ["de", "en"])
def test_info_says_a_box_in_safe_mode_in_sentences(
    lang: str, safe_box: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = said(["info", "--port", safe_box, "--timeout", "3", "--lang", lang], capsys)
    assert code == 0 and out.splitlines()[:6] == [*SAFE_MODE_SAID[lang], ""], out
    assert '"kind"' not in out and "fault" not in out


def test_info_json_gives_the_fault_as_the_box_sent_it(
    safe_box: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["info", "--port", safe_box, "--timeout", "3", "--json", "--lang", "de"]
    code, out, _ = said(argv, capsys)
    fault = json.loads(out)["fault"]
    assert code == 0 and fault["kind"] == "corrupt" and fault["detail"] == "file is not a database"
    assert fault["panel"] == PANEL and fault["records_readable"]


def test_every_fault_kind_of_the_box_has_its_sentences() -> None:
    from spielleiter.safe_mode import FAULT_TEXT
    from spielleiter_host import info

    assert set(FAULT_TEXT) <= set(info.FAULTS)
    i18n.use("de")
    lines = info.fault_lines({"kind": "locked", "detail": "pid 12: python -m spielleiter"}, False)
    assert lines[0] == "Notbetrieb: Ein anderes Programm auf der Box nutzt ihre Daten (pid 12)."
    lines = info.fault_lines({"kind": "neu", "detail": ""}, False)
    assert lines[0] == "Notbetrieb: Der Speicher der Box ist gestört (neu)."
    assert lines[1] == (
        "  Was tun: Eine Sicherung zurückspielen: spielleiter-host backup restore DATEI"
    )


# --- info's table ---------------------------------------------------------------------


class RealBox(FakeDevice):
    """A fake box that says hello as a running box does (its hardware, a note), and a field
    and a hardware part a newer box might add."""

    def hello(self) -> dict[str, object]:
        return {
            "firmware": "0.9.1",
            "hardware": {
                "emulated": False,
                "display": "sh1106",
                "buttons": True,
                "buzzer": 17,
                "speaker": False,
                "spinner": "sensor",
                "lamp": "on",
            },
            "uptime_s": 3725.3,
            "game": "speedtombola",
            "fault": None,
            "notes": ["Die offene Partie 3 lässt sich nicht lesen."],
            "notes_text": [None],
            "flux": 3,
        }


INFO_SAID = {
    "de": [
        "Feld                    Wert",
        "----------------------  -------------------------------------------",
        "Port                    PORT",
        "Firmware                0.9.1",
        "Protokoll               1",
        "Laufzeit                1 Std. 2 Min.",
        "Spiel                   speedtombola",
        "PIN gesetzt             nein",
        "Störung                 -",
        "Hardware: emuliert      nein",
        "Hardware: Display       sh1106",
        "Hardware: Tasten        ja",
        "Hardware: Drehpfeil     Sensor",
        "Hardware: Summer        17",
        "Hardware: Lautsprecher  nein",
        "flux                    3",
        "hardware.lamp           on",
        "Hinweis                 Die offene Partie 3 lässt sich nicht lesen.",
    ],
    "en": [
        "field               value",
        "------------------  -------------------------------------------",
        "port                PORT",
        "firmware            0.9.1",
        "protocol            1",
        "uptime              1 h 2 min",
        "game                speedtombola",
        "PIN set             no",
        "fault               -",
        "hardware: emulated  no",
        "hardware: display   sh1106",
        "hardware: buttons   yes",
        "hardware: spinner   sensor",
        "hardware: buzzer    17",
        "hardware: speaker   no",
        "flux                3",
        "hardware.lamp       on",
        "note                Die offene Partie 3 lässt sich nicht lesen.",
    ],
}
"""info's table of RealBox (PORT: its port): the labels, yes and no, the hardware's states
and the uptime's units in the laptop's language; versions, names and numbers as they came;
a field this laptop does not know under its key; the note as the box wrote it (no text
beside it: the rules' German)."""


@pytest.fixture
def real_box(tmp_path: Path) -> Iterator[str]:
    """RealBox on a pty: its port."""
    store = Store.open(tmp_path / "data")
    with LinkServer.on_pty(RealBox(store)) as server:
        yield server.port_name
    store.close()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_info_s_table_reads_in_the_laptop_s_language(
    lang: str, real_box: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = said(["info", "--port", real_box, "--timeout", "3", "--lang", lang], capsys)
    assert code == 0 and out.splitlines() == [
        line.replace("PORT", real_box) for line in INFO_SAID[lang]
    ], out


def test_info_json_is_the_same_in_both_languages(
    real_box: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["info", "--port", real_box, "--timeout", "3", "--json"]
    said_in = {lang: said([*argv, "--lang", lang], capsys) for lang in ("de", "en")}
    hello = json.loads(said_in["de"][1])
    assert said_in["de"] == said_in["en"] and hello["uptime_s"] == 3725.3
    assert hello["hardware"]["spinner"] == "sensor" and hello["pin_set"] is False


def _strings(*nodes: ast.AST | None) -> set[str]:
    """The string constants in `nodes` (a dict's keys or values, an assignment's value)."""
    return {n.value for node in nodes if node is not None for n in ast.walk(node)
            if isinstance(n, ast.Constant) and isinstance(n.value, str)}  # fmt: skip


def _hellos() -> tuple[set[str], set[str], set[str]]:
    """What the box's hello() functions send: the fields, the hardware parts (also those
    firmware/cli.py finds), and the hardware states that are words (string constants)."""
    fields: set[str] = set()
    parts: set[str] = set()
    states: set[str] = set()
    for path in FIRMWARE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name in ("hello", "_hello"):
                for found in ast.walk(node):
                    if isinstance(found, ast.Return) and isinstance(found.value, ast.Dict):
                        for key, value in zip(found.value.keys, found.value.values, strict=True):
                            fields |= _strings(key)
                            if _strings(key) == {"hardware"} and isinstance(value, ast.Dict):
                                parts |= _strings(*value.keys)
                                states |= _strings(*value.values)
            # firmware/cli.py: hardware: dict = {"part": …} and hardware["part"] = "state"
            elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name) and target.id == "hardware":
                        if isinstance(node.value, ast.Dict):
                            parts |= _strings(*node.value.keys)
                    elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) \
                            and target.value.id == "hardware":  # fmt: skip
                        parts |= _strings(target.slice)
                        states |= _strings(node.value)
    return fields, parts, states


def test_every_field_of_the_box_s_hello_has_its_label() -> None:
    """A field or hardware part the box sends without a label would stay English (its key)
    in a German table; a hardware state without its words too."""
    from spielleiter.spinner_service import ELECTRONIC, SENSOR

    fields, parts, states = _hellos()
    assert {"firmware", "pin_set", "uptime_s", "notes"} <= fields
    assert {"emulated", "display", "buttons", "buzzer", "speaker", "spinner"} <= parts
    labels = info.fields()
    assert sorted(fields - set(labels) - set(info.HIDDEN)) == []
    assert sorted(f"hardware.{part}" for part in parts if f"hardware.{part}" not in labels) == []
    assert "keyboard" in states  # the emulated box's
    assert sorted((states | {SENSOR, ELECTRONIC}) - set(info.hardware_words())) == []


# --- spinner read's table -------------------------------------------------------------


class SensorBox(FakeDevice):
    """A fake box whose spinner reads as a fitted sensor reads (firmware/spinner_service.py)."""

    def spinner_read(self) -> dict[str, object]:
        return {"mode": "sensor", "setting": "auto", "sensor": True, "angle_deg": 12.5,
                "magnet": "warning", "message": "Magnet zu schwach", "position_deg": 10.0,
                "sector": None, "ambiguous": [3, 4], "calibration": {"sectors": 16}}  # fmt: skip


SPINNER_SAID = {
    "de": ["in Betrieb            Sensor", "Einstellung           automatisch",
           "Sensor eingebaut      ja", "Magnet                Warnung",
           "Meldung               Magnet zu schwach", "Winkel (°)            12.5",
           "Stellung (°)          10.0", "Feld                  -",
           "zwischen den Feldern  3, 4", 'Kalibrierung          {"sectors": 16}'],
    "en": ["in use           sensor", "setting          auto", "sensor fitted    yes",
           "magnet           warning", "message          Magnet zu schwach",
           "angle (°)        12.5", "position (°)     10.0", "sector           -",
           "between sectors  3, 4", 'calibration      {"sectors": 16}'],
}  # fmt: skip
"""spinner read's rows (under the header and its rule): the states in the laptop's words,
the numbers as they came, the calibration as the JSON `calibrate` takes back, the sensor's
message as the box said it."""


@pytest.mark.parametrize("lang", ["de", "en"])
def test_spinner_read_s_table_reads_in_the_laptop_s_language(
    lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = Store.open(tmp_path / "data")
    with LinkServer.on_pty(SensorBox(store)) as server:
        argv = ["spinner", "read", "--port", server.port_name, "--timeout", "3"]
        code, out, _ = said([*argv, "--lang", lang], capsys)
        assert code == 0 and out.splitlines()[2:] == SPINNER_SAID[lang], out
        json_said = {la: said([*argv, "--json", "--lang", la], capsys) for la in ("de", "en")}
    store.close()
    assert json_said["de"] == json_said["en"] and json.loads(json_said["de"][1])["mode"] == "sensor"


def test_every_field_of_the_spinner_has_its_label() -> None:
    """What SpinnerService.read and .calibrate send, and the states read() gives."""
    from spielleiter.spinner_service import MODES

    source = (FIRMWARE / "spinner_service.py").read_text(encoding="utf-8")
    keys: set[str] = set()
    for function in ast.walk(ast.parse(source)):
        if isinstance(function, ast.FunctionDef) and function.name in ("read", "calibrate"):
            for node in ast.walk(function):
                if isinstance(node, ast.Dict):
                    keys |= _strings(*node.keys)
                elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "update":
                    keys |= {k.arg for k in node.keywords if k.arg}
    assert {"mode", "magnet", "angle_deg", "calibration"} <= keys
    assert sorted(keys - set(spinner.fields())) == []
    assert sorted({*MODES, "ok", "warning", "fault"} - set(spinner.words())) == []


# --- mirror's summary line ---------------------------------------------------------------


def test_the_mirror_s_summary_line_reads_in_the_laptop_s_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = Store.open(tmp_path / "data")
    fake = FakeDevice(store)
    fake.summary = {"screen": "menu", "title": "Spielleiter", "items": ["Speedtombola",
                    "Bestenliste"], "selected": 0, "take_back": True, "game": None}  # fmt: skip
    with LinkServer.on_pty(fake) as server:
        argv = ["mirror", "--once", "--port", server.port_name, "--timeout", "3"]
        out = said([*argv, "--lang", "de"], capsys)[1]
        assert out.splitlines()[-1] == (
            "Bildschirm: Menü  Titel: Spielleiter  Einträge: Speedtombola, Bestenliste"
            "  gewählt: 0  Zurücknehmen: ja  Spiel: -"
        )
        out = said([*argv, "--lang", "en"], capsys)[1]
        assert out.splitlines()[-1] == (
            "screen: menu  title: Spielleiter  items: Speedtombola, Bestenliste  selected: 0"
            "  take back: yes  game: -"
        )
        out = said([*argv, "--json", "--lang", "de"], capsys)[1]
        assert json.loads(out)["summary"] == fake.summary
    store.close()
    i18n.use("de")
    assert mirror.summary_line({"screen": "speedtombola.table", "under": {"seat": 1}}) == (
        "Bildschirm: speedtombola.Tisch  darunter: (Platz: 1)"
    )


def _summaries() -> tuple[set[str], set[str]]:
    """Every key the box's screens put in a summary, and every screen name they give."""
    keys: set[str] = set()
    screens: set[str] = set()
    for path in FIRMWARE.rglob("*.py"):
        for function in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(function, ast.FunctionDef) or function.name != "summary":
                continue
            for node in ast.walk(function):
                if not isinstance(node, ast.Dict):
                    continue
                for key, value in zip(node.keys, node.values, strict=True):
                    if isinstance(key, ast.Constant) and isinstance(key.value, str):
                        keys.add(key.value)
                        if key.value == "screen" and isinstance(value, ast.Constant):
                            screens.add(value.value)
    return keys, screens


def test_every_summary_key_and_screen_of_the_box_has_its_words() -> None:
    """A screen's new key or name without a label would stay English in a German line."""
    keys, screens = _summaries()
    assert len(keys) > 50 and "menu" in screens
    assert sorted(keys - set(mirror.summary_labels())) == []
    names = mirror.screen_names()
    games = set(catalog.names())
    assert sorted(s for s in screens if s not in names and s not in games
                  and s.rpartition(".")[2] not in names) == []  # fmt: skip


# --- Engel & Bengel's boards stats, refused by the rules --------------------------------


def test_boards_stats_says_the_rules_refusal_in_both_languages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from spielleiter.games.engel_bengel.faces import default_boards

    face = next(iter(default_boards().values()))
    many = tmp_path / "many.json"
    many.write_text(json.dumps({f"F{i}": {**face, "name": f"F{i}"} for i in range(65)}),
                    encoding="utf-8")  # fmt: skip
    argv = ["boards", "stats", "engel-bengel", str(many), "--games", "1"]
    assert said([*argv, "--lang", "de"], capsys) == (7, "", "spielleiter-host: engel-bengel:"
            " die Brettseiten müssen eine Liste von 1 bis 64 Brettseiten sein\n")  # fmt: skip
    assert said([*argv, "--lang", "en"], capsys) == (7, "", "spielleiter-host: engel-bengel:"
            " faces must be a list of 1 to 64 faces\n")  # fmt: skip
    code, out, _ = said([*argv, "--json", "--lang", "de"], capsys)
    assert code == 7
    assert json.loads(out)["error"] == "engel-bengel: faces must be a list of 1 to 64 faces"


def test_the_rules_refusals_of_the_parameters_are_texts() -> None:
    from spielleiter.games.base import ParameterError

    i18n.use("de")
    with pytest.raises(ParameterError) as players:
        EngelBengelGame({"players": 9})
    assert i18n.said(players.value) == (
        "engel-bengel: die Zahl der Spieler muss eine ganze Zahl von 2 bis 8 sein, nicht 9"
    )
    with pytest.raises(ParameterError) as named:
        EngelBengelGame({"players": 3, "faces": ["Gibt es nicht"]})
    assert i18n.said(named.value) == (
        "engel-bengel: faces[0]: keine Brettseite namens 'Gibt es nicht'"
    )
    i18n.use("en")
    assert i18n.said(players.value) == (
        "engel-bengel: players must be a whole number from 2 to 8, not 9"
    )


# --- a task that failed on a Dask cluster -------------------------------------------------


def _refused(players: int, item: int) -> None:
    """A piece of work the rules refuse (a ParameterError whose message is a text)."""
    EngelBengelGame({"players": players})


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("de", "Teil 0 ist auf dem Cluster gescheitert: engel-bengel: die Zahl der Spieler"
               " muss eine ganze Zahl von 2 bis 8 sein, nicht 9"),
        ("en", "item 0 failed on the cluster: engel-bengel: players must be a whole number"
               " from 2 to 8, not 9"),
    ],
)  # fmt: skip
def test_a_task_that_failed_on_the_cluster_is_said_in_one_language(
    lang: str, expected: str
) -> None:
    pytest.importorskip("distributed")
    i18n.use(lang)
    plan = runner.Plan("t", {}, 1, partial(_refused, 9))
    with pytest.raises(runner.RunError) as failed:
        runner.execute(plan, runner.Options(cluster="local:1"))
    assert str(failed.value) == expected


# --- a tournament: a move the rules refuse ------------------------------------------------


def test_a_move_the_rules_refuse_is_framed_in_the_laptop_s_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bot = tmp_path / "nie.py"
    bot.write_text("def f(view):\n    return 0\n", encoding="utf-8")  # always Nein danke
    spec = f"{bot}:f"
    argv = ["tournament", "speedtombola", "--seats", f"{spec},normal,normal", "--games", "3",
            "--no-progress"]  # fmt: skip
    reason = "Wer keinen Groschen mehr hat, muss nehmen."  # the rules' own words
    code, out, err = said([*argv, "--lang", "de"], capsys)
    assert (code, out) == (1, "") and err == (
        f"spielleiter-host: tournament: Platz 1 ({spec}): die Regeln lassen seinen Zug nicht"
        f" zu: {reason}\n"
    )
    code, out, err = said([*argv, "--lang", "en"], capsys)
    assert (code, out) == (1, "") and err == (
        f"spielleiter-host: tournament: seat 1 ({spec}): the rules refuse its move: {reason}\n"
    )
    code, out, _ = said([*argv, "--json", "--lang", "de"], capsys)
    assert code == 1 and re.fullmatch(
        rf"tournament: seat 1 \({re.escape(spec)}\): the rules refuse its move: {reason}",
        json.loads(out)["error"],
    )
