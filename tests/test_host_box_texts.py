"""What the box itself says reaches the family in the laptop's language: a refusal the
box sends (a setting's range, a record it lacks, a name it cannot show, a wrong PIN, a
restore it refuses) comes out of spielleiter-host in German, in English with --lang en,
and the same under --json whatever the language (docs/protocol.md, "Texts in the
laptop's language")."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from spielleiter import admin
from spielleiter.link.fake import FakeDevice
from spielleiter.link.protocol import PIN_LOCKED
from spielleiter.link.server import LinkServer
from spielleiter.store import Store
from spielleiter.texts import T
from spielleiter_host import device as host_device
from spielleiter_host import i18n
from spielleiter_host.cli import main


@pytest.fixture(scope="module")
def box(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A fake box on a pty with an admin PIN set: its port."""
    store = Store.open(tmp_path_factory.mktemp("box") / "data")
    store.set_settings({admin.PIN_SETTING: "4711"})
    with LinkServer.on_pty(FakeDevice(store)) as server:
        yield server.port_name
    store.close()


@pytest.fixture(autouse=True)
def afresh() -> Iterator[None]:
    yield
    i18n.use(None)


def said(argv: list[str], port: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main([*argv, "--port", port, "--timeout", "3"])
    out, err = capsys.readouterr()
    return code, out, err


CASES = [
    (
        ["settings", "set", "clock.seconds=500", "--pin", "4711"],
        7,
        "abgelehnt: clock.seconds: muss zwischen 3 und 120 liegen, nicht 500",
        "refused: clock.seconds: must be from 3 to 120, not 500",
    ),
    (
        ["settings", "set", "clock.secnds=5", "--pin", "4711"],
        7,
        "clock.secnds: keine solche Einstellung (gemeint: clock.seconds?)",
        "clock.secnds: no such setting (did you mean clock.seconds?)",
    ),
    (["records", "get", "999", "-o", "x.json"], 1, "keine Partie 999", "no record 999"),
    (
        ["names", "add", "Ben\u263a", "--pin", "4711"],
        7,
        "die Anzeige der Box kann '☺' nicht zeigen (Umlaute und Akzente wie ä, ß, é gehen)",
        "the box's screen cannot show '☺' (letters with umlauts and accents such as ä, ß, é"
        " are fine)",
    ),
]


@pytest.mark.parametrize(("argv", "code", "german", "english"), CASES,
                         ids=[" ".join(c[0][:3]) for c in CASES])  # fmt: skip
def test_a_refusal_of_the_box_comes_in_german_and_in_english_with_lang_en(
    argv: list[str], code: int, german: str, english: str, box: str, tmp_path: Path,
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    found, out, err = said([*argv, "--lang", "de"], box, capsys)
    assert found == code and german in err and not out, err
    found, out, err = said([*argv, "--lang", "en"], box, capsys)
    assert found == code and english in err and not out, err
    found, de_json, _ = said([*argv, "--json", "--lang", "de"], box, capsys)
    found_en, en_json, _ = said([*argv, "--json", "--lang", "en"], box, capsys)
    assert found == found_en == code
    assert de_json == en_json and english in json.loads(de_json)["error"]


def test_a_wrong_pin_and_its_back_off_come_in_both_languages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = Store.open(tmp_path / "data")
    store.set_settings({admin.PIN_SETTING: "4711"})
    with LinkServer.on_pty(FakeDevice(store)) as server:
        wrong = ["names", "add", "Ben", "--pin", "0000"]
        code, _, err = said([*wrong, "--lang", "de"], server.port_name, capsys)
        assert code == 1 and "spielleiter-host: falsche Admin-PIN\n" == err
        code, _, err = said([*wrong, "--lang", "en"], server.port_name, capsys)
        assert code == 1 and "PIN calls backing off after 1 wrong PIN: wait 1 s" in err
        code, _, err = said([*wrong, "--lang", "de"], server.port_name, capsys)
        assert code == 1 and "PIN-Aufrufe warten nach 1 falschen PIN: 1 s warten" in err
    store.close()


@pytest.mark.parametrize(
    ("template", "failures", "german", "english"),
    [
        (host_device.BACKING_OFF, 2, "PIN-Aufrufe warten nach 2 falschen PINs: 4 s warten",
         "PIN calls backing off after 2 wrong PINs: wait 4 s"),
        (host_device.LOCKED, 10, "PIN-Aufrufe gesperrt nach 10 falschen PINs: 4 s warten",
         "PIN calls locked after 10 wrong PINs: wait 4 s"),
        (host_device.LOCKED, 1, "PIN-Aufrufe gesperrt nach 1 falschen PIN: 4 s warten",
         "PIN calls locked after 1 wrong PIN: wait 4 s"),
    ],
)  # fmt: skip
def test_the_count_of_wrong_pins_is_said_in_the_singular_or_the_plural(
    template: str, failures: int, german: str, english: str
) -> None:
    text = T(template, failures=failures, seconds=4)
    refused = host_device.RemoteError(PIN_LOCKED, str(text), {"text": text.to_json()})
    for lang, expected in (("de", german), ("en", english)):
        i18n.use(lang)
        assert host_device.describe(refused).startswith(expected + " ("), lang
    i18n.use(None)
    assert f'"{template}"' in Path(admin.__file__).read_text("utf-8")  # the box's own


def test_a_text_the_catalog_does_not_know_stays_the_box_s_english() -> None:
    """An older laptop, a newer box: a template the catalog lacks, or one whose argument
    is such a text, leaves the English message as it came."""
    i18n.use("de")
    known = T("no record {id}", id=7).to_json()
    assert i18n.box_text("no record 7", known) == "keine Partie 7"
    newer = {"id": "a refusal of a newer box {n}", "args": {"n": 1}}
    assert i18n.box_text("a refusal of a newer box 1", newer) == "a refusal of a newer box 1"
    inside = {"id": "{path}: {why}", "args": {"path": "x", "why": newer}}
    assert i18n.box_text("x: a refusal of a newer box 1", inside) == (
        "x: a refusal of a newer box 1"
    )
    broken = {"id": "no record {id}", "args": {}}
    assert i18n.box_text("no record ?", broken) == "no record ?"
    assert i18n.box_text("as it came", None) == "as it came"
    i18n.use("en")
    assert i18n.box_text("no record 7", known) == "no record 7"


def test_the_wire_carries_the_text_beside_the_english_message() -> None:
    from spielleiter.link.protocol import VALIDATION_ERROR, RpcError

    why = T("must be from {low} to {high}, not {value}", low=3, high=120, value=500)
    error = RpcError(VALIDATION_ERROR, T("{path}: {why}", path="clock.seconds", why=why),
                     {"path": "clock.seconds", "message": str(why)}).to_json()  # fmt: skip
    assert error["message"] == "clock.seconds: must be from 3 to 120, not 500"
    assert error["data"]["path"] == "clock.seconds"
    assert error["data"]["text"] == {
        "id": "{path}: {why}",
        "args": {"path": "clock.seconds", "why": why.to_json()},
    }
    assert RpcError(2, "plain").to_json() == {"code": 2, "message": "plain"}


# --- the box's texts in the laptop's offline tools: a tournament's seats ---------------

ARENAS = ["speedtombola", "bungee", "engel-bengel"]
LEGAL = ("ein Bot antwortet einen Zug aus view['legal']", "a bot answers one of view['legal']")
NONSENSE = {
    "speedtombola": (
        "ein Bot antwortet 1 (Nehmen) oder 0 (Nein danke)",
        "a bot answers 1 (take) or 0 (pass)",
    ),
    "bungee": LEGAL,
    "engel-bengel": LEGAL,
}
"""What each arena says of an answer that is no move: German, English."""


def offline(argv: list[str], lang: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """An offline command in `lang`: its exit code and the one line it says on stderr."""
    code = main([*argv, "--lang", lang])
    out, err = capsys.readouterr()
    assert not out and len(err.splitlines()) == 1 and "Traceback" not in err, err
    return code, err


def test_a_missing_bot_file_is_said_in_both_languages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    argv = ["tournament", "speedtombola", "--seats", "nix.py:f,normal,normal", "--games", "3"]
    said = "spielleiter-host: --seats: nix.py:f:"
    assert offline(argv, "de", capsys) == (2, f"{said} keine Datei nix.py\n")
    assert offline(argv, "en", capsys) == (2, f"{said} no file nix.py\n")
    assert main([*argv, "--json", "--lang", "de"]) == 2
    assert json.loads(capsys.readouterr().out)["error"] == "--seats: nix.py:f: no file nix.py"


@pytest.mark.parametrize("game", ARENAS)
def test_a_mistyped_level_gets_its_suggestion_in_both_languages(
    game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["tournament", game, "--seats", "normal,Strak,normal", "--games", "3"]
    code, err = offline(argv, "de", capsys)
    assert code == 2 and "--seats: unbekannter Platz 'Strak' (gemeint: stark?): einer von " in err
    assert err.endswith(" oder PFAD.py:FUNKTION\n"), err
    code, err = offline(argv, "en", capsys)
    assert code == 2 and "--seats: unknown seat 'Strak' (did you mean stark?): one of " in err
    assert err.endswith(", or PATH.py:FUNCTION\n"), err


@pytest.mark.parametrize("game", ARENAS)
def test_a_bot_that_answers_nonsense_is_named_with_its_seat_in_both_languages(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bot = tmp_path / "quatsch.py"
    bot.write_text("def decide(view):\n    return 'Quatsch'\n", encoding="utf-8")
    spec = f"{bot}:decide"
    argv = ["tournament", game, "--seats", f"normal,{spec},normal", "--games", "3",
            "--no-progress"]  # fmt: skip
    german, english = NONSENSE[game]
    code, err = offline(argv, "de", capsys)
    assert code == 1
    assert f"tournament: Platz 2 ({spec}): {spec} antwortete 'Quatsch': {german}" in err
    code, err = offline(argv, "en", capsys)
    assert code == 1 and f"tournament: seat 2 ({spec}): {spec} answered 'Quatsch': {english}" in err


def test_a_bot_that_cannot_be_loaded_is_said_in_both_languages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken, plain = tmp_path / "kaputt.py", tmp_path / "leer.py"
    broken.write_text("raise RuntimeError('kaputt')\n", encoding="utf-8")
    plain.write_text("x = 1\n", encoding="utf-8")
    cases = [
        (f"{broken}:f", f"{broken} ließ sich nicht laden: RuntimeError('kaputt')",
         f"loading {broken} failed: RuntimeError('kaputt')"),
        (f"{plain}:f", f"{plain} hat keine Funktion f", f"{plain} has no function f"),
    ]  # fmt: skip
    for spec, german, english in cases:
        argv = ["tournament", "bungee", "--seats", f"{spec},normal", "--games", "2"]
        assert offline(argv, "de", capsys) == (2, f"spielleiter-host: --seats: {spec}: {german}\n")
        assert offline(argv, "en", capsys) == (2, f"spielleiter-host: --seats: {spec}: {english}\n")


# --- a game's own board and template checks ---------------------------------------------


def template_no_witch_can_cross() -> tuple[dict, str, str]:
    """A shipped template whose first Paar field names a pair the grid does not have: the
    template, and why it is refused in German and in English."""
    from spielleiter.games.besenbingo.templates import default_templates

    data = default_templates()[0].to_json()
    pairs = {(c["witch"], c["copilot"]) for row in data["grid"] for c in row if isinstance(c, dict)}
    witch, copilot = next((w, c) for w, _c in sorted(pairs) for c in ("Katze", "Rabe", "Ratte")
                          if (w, c) not in pairs)  # fmt: skip
    data["bar"]["paar"][0].update(witch=witch, copilot=copilot)
    return (
        data,
        f"kein Hexenfeld des Rasters zeigt {witch} mit {copilot}: es kann nie angekreuzt werden",
        f"no witch field on the grid is {witch} with {copilot}: it can never be crossed",
    )


def test_a_template_check_is_said_in_both_languages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, german, english = template_no_witch_can_cross()
    bad = tmp_path / "tot.json"
    bad.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    argv = ["templates", "check", str(bad)]
    assert offline(argv, "de", capsys) == (7, f"spielleiter-host: {bad}: bar.paar[0]: {german}\n")
    assert offline(argv, "en", capsys) == (7, f"spielleiter-host: {bad}: bar.paar[0]: {english}\n")
    main([*argv, "--json", "--lang", "de"])
    assert "no witch field on the grid" in json.loads(capsys.readouterr().out)["error"]


def test_a_face_check_is_said_in_both_languages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from spielleiter.games.engel_bengel.faces import default_boards

    face = dict(next(iter(default_boards().values())))
    face["rows"] = [dict(r) for r in face["rows"]]
    face["rows"][1]["pips"] = [5, 9]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(face), encoding="utf-8")
    argv = ["boards", "check", "engel-bengel", str(bad)]
    said = f"spielleiter-host: {bad}: rows[1].pips[1]:"
    assert offline(argv, "de", capsys) == (7, f"{said} muss zwischen 1 und 6 liegen, nicht 9\n")
    assert offline(argv, "en", capsys) == (7, f"{said} must be from 1 to 6, not 9\n")
    face["rows"] = face["rows"][:2]
    bad.write_text(json.dumps(face), encoding="utf-8")
    assert offline(argv, "de", capsys)[1].endswith("rows: braucht genau 6 Reihen, hat 2\n")


def test_the_box_refuses_a_template_in_the_laptop_s_language(
    box: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, german, english = template_no_witch_can_cross()
    data["name"] = "Eigen"
    upload = tmp_path / "eigen.json"
    upload.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    argv = ["boards", "put", "besenbingo", str(upload), "--pin", "4711"]
    code, out, err = said([*argv, "--lang", "de"], box, capsys)
    assert code == 7 and not out
    assert err == f"spielleiter-host: abgelehnt: bar.paar[0]: {german} (Brett 'Eigen')\n"
    code, out, err = said([*argv, "--lang", "en"], box, capsys)
    assert code == 7
    assert err == f"spielleiter-host: refused: bar.paar[0]: {english} (board 'Eigen')\n"


# --- what the box says of its settings and its Bestenliste ------------------------------

MEANINGS = {
    "clock.seconds": (
        "Sekunden je Entscheidung, wenn die Uhr an ist",
        "seconds per decision with the clock on",
    ),
    "speedtombola.takeover": (
        "der Computer, der einen verlassenen Platz übernimmt",
        "the computer that takes a left seat",
    ),
    "speedtombola.removed": (
        "die letzte Wahl bei „Lose raus“ beim Aufstellen",
        'the last choice of "Lose raus" in the setup',
    ),
}
"""A setting of the box, a game's option and a house rule the box remembers: German,
English."""


def test_settings_get_says_each_meaning_in_both_languages(
    box: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for lang, which in (("de", 0), ("en", 1)):
        code, out, _err = said(["settings", "get", *MEANINGS, "--lang", lang], box, capsys)
        assert code == 0
        for key, meanings in MEANINGS.items():
            line = next(line for line in out.splitlines() if line.startswith(key))
            assert line.endswith(meanings[which]), (lang, line)
    code, out, _err = said(["settings", "get", *MEANINGS, "--json", "--lang", "de"], box, capsys)
    assert code == 0 and json.loads(out) == {"clock.seconds": 10, "speedtombola.takeover":
                                            "normal", "speedtombola.removed": 9}  # fmt: skip


def test_a_game_option_s_range_is_refused_in_both_languages(
    box: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["settings", "set", "speedtombola.takeover=profi", "--pin", "4711"]
    code, _out, err = said([*argv, "--lang", "de"], box, capsys)
    assert code == 7 and err == (
        "spielleiter-host: abgelehnt: speedtombola.takeover: muss eins davon sein: leicht,"
        " normal, stark\n"
    )
    code, _out, err = said([*argv, "--lang", "en"], box, capsys)
    assert code == 7 and err == (
        "spielleiter-host: refused: speedtombola.takeover: must be one of leicht, normal, stark\n"
    )


def test_a_port_that_is_no_serial_device_is_refused_wholly_in_german(
    box: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["settings", "set", "serial.port=/dev/null", "--pin", "4711"]
    code, _out, err = said([*argv, "--lang", "de"], box, capsys)
    assert code == 7 and "ist kein serielles Gerät (gib /dev/ttyGS0," in err
    assert err.rstrip().endswith("oder /dev/serial/by-id/... an)") and "give" not in err
    code, _out, err = said([*argv, "--lang", "en"], box, capsys)
    assert code == 7 and "is not a serial device (give /dev/ttyGS0," in err


def test_the_bestenliste_says_what_its_points_mean_in_both_languages(
    box: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _err = said(["leaderboard", "speedtombola", "--lang", "de"], box, capsys)
    assert code == 0 and "   (je Mensch und Partie: je Runde max(0, 50 − Rundenpunkte)" in out
    code, out, _err = said(["leaderboard", "speedtombola", "--lang", "en"], box, capsys)
    assert code == 0 and "   (per human and match: per round max(0, 50 - round points)" in out


def test_every_meaning_the_box_sends_is_a_text() -> None:
    """A setting's meaning and a game's Bestenliste meaning written without T would reach
    the laptop in English only (the catalog checks cover what T marks)."""
    from spielleiter import settings
    from spielleiter.games import catalog
    from spielleiter.texts import Text

    assert [k for k, s in settings.SETTINGS.items() if not isinstance(s.help, Text)] == []
    assert [e.id for e in catalog.entries() if not isinstance(e.bestenliste, Text)] == []
