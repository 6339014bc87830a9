"""spielleiter-host speaks German by default and English on request: every message comes
from the German catalog (a message the catalog lacks fails here), the locale or --lang
chooses, help and usage errors are German too, a confirmation asks [j/N] or [y/N], and
what --json prints is the same in both languages."""

from __future__ import annotations

import argparse
import builtins
import json
import re
import string
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
import test_host_every_command as every
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.pofile import read_po
from spielleiter.games import catalog
from spielleiter.link.fake import FakeDevice
from spielleiter.link.server import LinkServer
from spielleiter.store import Store
from spielleiter_host import i18n
from spielleiter_host.cli import build_parser, leaves, main
from spielleiter_host.output import confirmed

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "host" / "locale" / "de" / "LC_MESSAGES" / "spielleiter_host.po"

box = every.box
places = every.places


GAME_SOURCES = ("laptop.py", "sheets.py", "__init__.py")
"""What `make messages` reads of each game's package (MESSAGE_SOURCES in the Makefile)."""
KEYWORDS = {**DEFAULT_KEYWORDS, "holds": (1, 2), "T": None, "around": (1,), "_expect": (3,)}
"""Babel's keywords, Drawing.holds(singular, plural, count) of the printed sheets, and the
box's texts for the laptop (spielleiter.texts: T and around, and the message of a game's
board check, _expect(ok, path, message, **args))."""


def link_sources() -> list[Path]:
    """The box's modules that write texts for the laptop: every one that imports them from
    spielleiter.texts (LINK_SOURCES in the Makefile), found here on its own."""
    marker = re.compile(r"^from [.a-z_]*texts import", re.MULTILINE)
    return sorted(p for p in ROOT.glob("firmware/**/*.py") if marker.search(p.read_text("utf-8")))


def message_sources() -> list[Path]:
    """The files `make messages` extracts: host/, the games' laptop texts and the box's
    texts for the laptop."""
    games = [p for name in GAME_SOURCES for p in ROOT.glob(f"firmware/games/*/{name}")]
    return sorted((ROOT / "host").rglob("*.py")) + sorted(games) + link_sources()


def extracted() -> dict[tuple[str | None, str | tuple[str, str]], list[str]]:
    """Every message marked in the sources, as Babel's extractor finds it: (context, msgid
    or (singular, plural)) -> where it is."""
    found: dict[tuple[str | None, str | tuple[str, str]], list[str]] = {}
    for path in message_sources():
        for line, message, _comments, context in extract_from_file(
            "python", path, keywords=KEYWORDS
        ):
            key = message if isinstance(message, str) else (message[0], message[1])
            where = f"{path.relative_to(ROOT)}:{line}"
            found.setdefault((context, key), []).append(where)
    return found


def german_catalog():  # noqa: ANN201 - a babel Catalog
    with CATALOG.open("rb") as po:
        return read_po(po)


def translated(message) -> bool:  # noqa: ANN001 - a babel Message
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return not message.fuzzy and bool(strings) and all(strings)


@pytest.fixture
def locale(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A German locale, unless a test sets another; the language chosen afresh after it."""
    for variable in i18n.LOCALE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    yield
    i18n.use(None)


# --- the catalog ----------------------------------------------------------------------


def test_every_message_in_the_source_has_a_german_translation() -> None:
    catalog = german_catalog()
    missing = []
    for (context, msgid), where in extracted().items():
        entry = catalog.get(msgid, context=context)
        if entry is None or not translated(entry):
            missing.append(f"{where[0]}: {msgid!r}")
    assert not missing, (
        "messages without a German translation (run `make messages`, translate them in "
        f"{CATALOG.relative_to(ROOT)}):\n" + "\n".join(missing)
    )


def test_the_catalog_holds_no_message_the_source_no_longer_has() -> None:
    marked = set(extracted())
    stale = [
        m.id
        for m in german_catalog()
        if m.id and (m.context, m.id if isinstance(m.id, str) else tuple(m.id)) not in marked
    ]
    assert not stale, f"run `make messages`: the catalog still has {stale}"


def placeholders(text: str) -> list[tuple[str, str | None, str | None]]:
    """The {name!r:spec} fields and %-specifiers a message fills in."""
    fields = [
        (name, conversion, spec)
        for _literal, name, spec, conversion in string.Formatter().parse(text)
        if name is not None
    ]
    return sorted(fields + [(m, None, None) for m in re.findall(r"%(?:\(\w+\))?[sdr]", text)])


def test_a_translation_fills_in_what_its_message_fills_in() -> None:
    wrong = []
    for message in german_catalog():
        if not message.id or not translated(message):
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        for text in strings:
            if placeholders(text) not in [placeholders(i) for i in ids]:
                wrong.append((message.id, text))
    assert not wrong


def test_the_tool_reads_the_catalog_as_babel_does() -> None:
    """The tool reads the .po itself (no Babel on a laptop that only runs it): the same
    entries as Babel's reader."""
    expected: dict[str | tuple[str, str], str | list[str]] = {}
    for m in german_catalog():
        if not m.id or not translated(m):
            continue
        if isinstance(m.id, str):
            expected[f"{m.context}\x04{m.id}" if m.context else m.id] = m.string
        else:
            expected[(m.id[0], m.id[1])] = list(m.string)
    read = i18n.read_po(CATALOG.read_text("utf-8"))
    header = read.pop("")
    assert read == expected
    assert "Plural-Forms: nplurals=2; plural=(n != 1);" in header


def test_the_reader_leaves_out_fuzzy_and_untranslated_entries_and_takes_plurals() -> None:
    text = "\n".join(
        [
            'msgid ""',
            'msgstr "Content-Type: text/plain; charset=utf-8\\n"',
            "",
            "#, fuzzy, python-brace-format",
            'msgid "old {x}"',
            'msgstr "alt {x}"',
            "",
            'msgid "new"',
            'msgstr ""',
            "",
            "#: host/x.py",
            'msgid "a \\"quoted\\" line"',
            'msgstr ""',
            '"eine \\"zitierte\\" "',
            '"Zeile"',
            'msgid "{n} game"',
            'msgid_plural "{n} games"',
            'msgstr[0] "{n} Spiel"',
            'msgstr[1] "{n} Spiele"',
            '#~ msgid "gone"',
            '#~ msgstr "weg"',
        ]
    )
    entries = i18n.read_po(text)
    assert entries.keys() == {"", 'a "quoted" line', ("{n} game", "{n} games")}
    assert entries['a "quoted" line'] == 'eine "zitierte" Zeile'
    assert entries[("{n} game", "{n} games")] == ["{n} Spiel", "{n} Spiele"]


def test_every_module_that_speaks_is_extracted() -> None:
    """A module that takes `_` from the i18n module is among the files `make messages`
    reads (host/ and the GAME_SOURCES of every game's package)."""
    sources = set(message_sources())
    speaking = [
        path
        for path in [*ROOT.glob("host/**/*.py"), *ROOT.glob("firmware/**/*.py")]
        if re.search(r"from (\.|spielleiter_host\.)i18n import", path.read_text("utf-8"))
    ]
    assert speaking and not [p for p in speaking if p not in sources]
    makefile = (ROOT / "Makefile").read_text("utf-8")
    wildcard = " ".join(f"firmware/games/*/{name}" for name in GAME_SOURCES)
    assert f"MESSAGE_SOURCES := $(wildcard {wildcard})" in makefile.replace("\\\n\t", "")
    assert "-k holds:1,2" in makefile
    assert "-k T -k around:1" in makefile and "$(LINK_SOURCES)" in makefile


def test_every_text_the_box_marks_for_the_laptop_is_extracted() -> None:
    """The box's modules that make texts for the laptop (T, around) are what `make
    messages` reads, and they mark enough to matter: the link's refusals, the settings'
    ranges, the PIN's refusals, the restore's checks, the verdicts of verify."""
    sources = {p.relative_to(ROOT).as_posix() for p in link_sources()}
    for module in ("link/methods.py", "link/protocol.py", "settings.py", "admin.py",
                   "store.py", "draws.py", "boards.py", "serial_ports.py"):  # fmt: skip
        assert f"firmware/{module}" in sources
    marked = {msgid for (_c, msgid), where in extracted().items()
              if any(w.startswith("firmware/") and "/games/" not in w for w in where)}  # fmt: skip
    assert len(marked) > 100
    assert "must be from {low} to {high}, not {value}" in marked
    assert "wrong admin PIN" in marked


def test_the_catalog_ships_with_the_package() -> None:
    """The catalog's folder is a package of the wheel (as host/fonts is), its .po the data."""
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    folder = ".".join(CATALOG.parent.relative_to(ROOT / "host").parts)
    package = f"spielleiter_host.{folder}"
    assert package in setup["packages"]
    assert any(CATALOG.match(p) for p in setup["package-data"][package])
    assert i18n.catalog_text("de") == CATALOG.read_text("utf-8")


# --- which language -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "environ", "language"),
    [
        ([], {}, "de"),
        ([], {"LANG": "C"}, "de"),
        ([], {"LANG": "C.UTF-8"}, "de"),
        ([], {"LC_ALL": "POSIX", "LANG": "en_US.UTF-8"}, "de"),
        ([], {"LANG": "en_US.UTF-8"}, "en"),
        ([], {"LANG": "en"}, "en"),
        ([], {"LANG": "de_DE.UTF-8"}, "de"),
        ([], {"LANG": "fr_FR.UTF-8"}, "de"),
        ([], {"LANGUAGE": "", "LC_ALL": "en_GB.UTF-8", "LANG": "de_DE.UTF-8"}, "en"),
        ([], {"LC_MESSAGES": "de_AT.UTF-8", "LANG": "en_US.UTF-8"}, "de"),
        ([], {"LANGUAGE": "fr:en_GB:de", "LANG": "de_DE.UTF-8"}, "en"),
        ([], {"LANGUAGE": "de_CH:en", "LANG": "en_US.UTF-8"}, "de"),
        ([], {"LANGUAGE": "fr", "LANG": "en_US.UTF-8"}, "de"),
        (["info", "--lang", "en"], {"LANG": "de_DE.UTF-8"}, "en"),
        (["--lang=de", "info"], {"LANGUAGE": "en"}, "de"),
        (["info", "--lang", "fr"], {"LANG": "en_US.UTF-8"}, "en"),
    ],
)
def test_the_language_is_lang_else_the_locale_else_german(
    argv: list[str], environ: dict[str, str], language: str
) -> None:
    assert i18n.choose(argv, environ) == language


def help_of(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 0
    return capsys.readouterr().out


def test_the_help_is_german_by_default_and_english_with_lang_en(locale, capsys) -> None:
    german = help_of(["--help"], capsys)
    assert german.startswith("Aufruf: spielleiter-host [-h] [--lang {de,en}] BEFEHL ...")
    assert "Mit einer Spielleiter-Box über ihr USB-Kabel sprechen" in german
    assert "Optionen:\n  -h, --help" in german and "diese Hilfe zeigen und beenden" in german
    english = help_of(["--help", "--lang", "en"], capsys)
    assert english.startswith("usage: spielleiter-host [-h] [--lang {de,en}] COMMAND ...")
    assert "Talk to a Spielleiter box over its USB cable; offline tools." in english
    assert "show this help message and exit" in english
    command = help_of(["records", "delete", "--help"], capsys)
    assert re.search(r"--yes +am Terminal nicht erst fragen", command)
    assert "--timeout SEKUNDEN" in command
    english = help_of(["records", "delete", "--help", "--lang", "en"], capsys)
    assert re.search(r"--yes +do not ask at a terminal first", english)


def test_an_english_locale_gives_english(locale, monkeypatch, capsys) -> None:
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    assert help_of(["--help"], capsys).startswith("usage: ")
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    assert help_of(["--help"], capsys).startswith("Aufruf: ")


def texts(parser: argparse.ArgumentParser) -> list[str]:
    """What a parser's help says in words: description, epilog, each option's help and
    metavar, each command's line."""
    found = [parser.description or "", parser.epilog or ""]
    for action in parser._actions:
        found += [str(action.help or ""), str(action.metavar or "")]
        found += [str(choice.help or "") for choice in getattr(action, "_choices_actions", [])]
    return found


def test_every_help_text_of_every_command_is_translated(locale) -> None:
    """Each help text, description and metavar differs between the languages (so it went
    through the catalog), but for names that are the same in German and the games' ids."""
    same_in_both = {"", "N", "PIN", "PORT", "NAME", "name", argparse.SUPPRESS, *catalog.names()}
    i18n.use("en")
    english = [(words, texts(parser)) for words, parser in leaves(build_parser())]
    english += [([], texts(build_parser()))]
    i18n.use("de")
    german = [(words, texts(parser)) for words, parser in leaves(build_parser())]
    german += [([], texts(build_parser()))]
    untranslated = [
        (" ".join(words), en)
        for (words, ens), (_, des) in zip(english, german, strict=True)
        for en, de in zip(ens, des, strict=True)
        if en == de and en not in same_in_both and re.search("[a-z]{3}", en)
    ]
    assert not untranslated


# --- usage errors -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "german", "english"),
    [
        (
            ["records", "get"],
            "records get: diese Argumente fehlen: nr (siehe --help)",
            "records get: the following arguments are required: id (see --help)",
        ),
        (
            ["recrods", "list"],
            "unbekannter Befehl 'recrods' (gemeint: records?); zur Wahl stehen",
            "unknown command 'recrods' (did you mean records?); choose from",
        ),
        (
            ["records", "lst"],
            "records: unbekannte Aktion 'lst' (gemeint: list?)",
            "records: unknown action 'lst' (did you mean list?)",
        ),
        (
            ["verify", "--id", "x"],
            "Argument --id: ungültiger int-Wert: 'x'",
            "argument --id: invalid int value: 'x'",
        ),
        (
            ["records", "list", "--limit", "0"],
            "Argument --limit: von 1 bis 1000, nicht 0 (siehe --help)",
            "argument --limit: from 1 to 1000, not 0 (see --help)",
        ),
        (
            ["--port", "/dev/pts/2", "info"],
            "--port steht hinter dem Befehl: spielleiter-host info --port ... (siehe --help)",
            "--port goes after the command: spielleiter-host info --port ... (see --help)",
        ),
        (
            ["info", "--timeout", "0"],
            "Argument --timeout: 0 s: mehr als 0 und höchstens 3600 angeben (siehe --help)",
            "argument --timeout: 0 s: give more than 0 and at most 3600 (see --help)",
        ),
        (
            ["names", "list", "--bogus"],
            "names list: unbekannte Argumente: --bogus (siehe --help)",
            "names list: unrecognized arguments: --bogus (see --help)",
        ),
        (
            ["settings", "set"],
            "nichts zu setzen: SCHLÜSSEL=WERT oder --file angeben",
            "nothing to set: give KEY=VALUE or --file",
        ),
    ],
)
def test_a_usage_error_is_in_the_language_asked_for(
    argv: list[str], german: str, english: str, locale, capsys
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("spielleiter-host: ") and german in err and len(err.splitlines()) == 1
    assert main([*argv, "--lang", "en"]) == 2
    assert english in capsys.readouterr().err


def test_lang_takes_only_a_language_with_a_catalog(locale, capsys) -> None:
    assert main(["info", "--lang", "fr"]) == 2
    assert (
        "Argument --lang: ungültige Wahl: 'fr'; zur Wahl stehen de, en" in capsys.readouterr().err
    )


def test_an_abbreviated_lang_is_heard_too(locale, capsys) -> None:
    assert main(["records", "get", "--la", "en"]) == 2
    assert "the following arguments are required: id" in capsys.readouterr().err


# --- confirmations --------------------------------------------------------------------


class Terminal:
    """Standard input at a terminal, where the person answers `answer`."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, answer: str) -> None:
        self.asked: list[str] = []
        monkeypatch.setattr(sys, "stdin", self)
        monkeypatch.setattr(builtins, "input", self.input)
        self.answer = answer

    def isatty(self) -> bool:
        return True

    def input(self, prompt: str) -> str:
        self.asked.append(prompt)
        return self.answer


@pytest.mark.parametrize(
    ("language", "answer", "yes"),
    [
        ("de", "j", True), ("de", "Ja", True), ("de", " ja ", True), ("de", "y", False),
        ("de", "", False), ("de", "n", False),
        ("en", "y", True), ("en", "YES", True), ("en", "j", False), ("en", "", False),
    ],
)  # fmt: skip
def test_a_confirmation_takes_the_answers_of_its_language(
    language: str, answer: str, yes: bool, monkeypatch, locale
) -> None:
    terminal = Terminal(monkeypatch, answer)
    i18n.use(language)
    assert confirmed("Really?", yes=False) is yes
    assert terminal.asked == ["Really? [j/N] " if language == "de" else "Really? [y/N] "]


def test_deleting_a_record_asks_in_german(monkeypatch, locale, capsys) -> None:
    terminal = Terminal(monkeypatch, "y")
    assert main(["records", "delete", "3"]) == 1
    assert terminal.asked == [
        "Partie 3 von der Box löschen? Bei einer beendeten Partie berechnet die Box die"
        " Wertungen ihres Spiels ohne sie neu. [j/N] "
    ]
    assert capsys.readouterr().err == "spielleiter-host: nichts gelöscht\n"
    terminal.answer = "n"
    assert main(["records", "delete", "3", "--lang", "en"]) == 1
    assert terminal.asked[-1] == (
        "Delete record 3 from the box? A finished match's game folds its ratings again"
        " without it. [y/N] "
    )
    assert capsys.readouterr().err == "spielleiter-host: nothing deleted\n"


# --- German at the box, the same JSON in both languages ---------------------------------------


def run(argv: list[str], port: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main([*argv, "--port", port, "--timeout", "3"])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_main_commands_speak_german(box: tuple[str, Store], locale, capsys) -> None:
    port = box[0]
    code, out, _ = run(["records", "list"], port, capsys)
    assert code == 0 and out.startswith("Nr.  Spiel ")
    assert "begonnen" in out and "Plätze" in out and "Aktionen" in out and "offen" in out
    code, out, _ = run(["settings", "get"], port, capsys)
    assert out.startswith("Einstellung ") and "Bedeutung" in out
    assert out.endswith("Admin-PIN: nicht gesetzt\n")
    code, out, _ = run(["names", "list"], port, capsys)
    assert out.splitlines()[0] == "Name"
    code, _, err = run(["records", "get", "1", "-o", "/nonexistent/r.json"], port, capsys)
    assert code == 2 and err.startswith("spielleiter-host: /nonexistent/r.json lässt sich nicht")
    code, _, err = run(["settings", "get", "clock.secnds"], port, capsys)
    assert "keine solche Einstellung: clock.secnds (gemeint: clock.seconds?)" in err


SUCCEEDING = [
    "info", "settings get", "records list", "names list", "spinner read", "boards list",
    "leaderboard",
]  # fmt: skip


def same_json_in_both(
    command: str, argv: list[str], port: str, capsys: pytest.CaptureFixture[str], monkeypatch
) -> tuple[int, str, str]:
    """The command under --json in German, with --lang en and in an English locale: the
    same exit code and the same output (what it printed in German)."""
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    german = every.run(command, [*argv, "--json"], port, capsys)
    english = every.run(command, [*argv, "--json", "--lang", "en"], port, capsys)
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    by_locale = every.run(command, [*argv, "--json"], port, capsys)

    def steady(out: str) -> str:  # the uptime goes on between the calls
        return re.sub(r'"uptime_s": [0-9.e+-]+', '"uptime_s": 0', out)

    assert german[0] == english[0] == by_locale[0]
    assert steady(german[1]) == steady(english[1]) == steady(by_locale[1]), argv
    return german


@pytest.mark.parametrize("command", SUCCEEDING)
def test_json_is_the_same_in_both_languages(
    command: str, box: tuple[str, Store], locale, monkeypatch, capsys
) -> None:
    code, out, _ = same_json_in_both(command, [], box[0], capsys, monkeypatch)
    assert code == 0 and json.loads(out)


@pytest.mark.parametrize(
    ("command", "argv", "expected"),
    every.CASES,
    ids=[f"{c} {' '.join(a)}" for c, a, _ in every.CASES],
)
def test_a_json_error_is_the_same_in_both_languages(
    command: str, argv: list[str], expected: int, places: dict[str, str],
    box: tuple[str, Store], locale, monkeypatch, capsys,
) -> None:  # fmt: skip
    record = str(box[1].records()[0].id)
    filled = [a.format(**places, record=record) for a in argv]
    code, out, err = same_json_in_both(command, filled, box[0], capsys, monkeypatch)
    assert json.loads(out)["error"] == err.strip().removeprefix("spielleiter-host: ")


def test_printing_says_what_it_wrote_in_german(tmp_path: Path, locale, capsys) -> None:
    out = tmp_path / "e.pdf"
    assert main(["print", "engel-bengel", "--out", str(out)]) == 0
    assert capsys.readouterr().out.startswith(f"{out}: 8 Seiten (16 Brettseiten), ")
    assert main(["print", "engel-bengel", "--out", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["pages"] == 8


def test_a_file_that_is_no_record_is_named_in_german(tmp_path: Path, locale, capsys) -> None:
    path = tmp_path / "hallo.json"
    path.write_text(json.dumps({"hello": 1}), "utf-8")
    assert main(["replay", str(path)]) == 7
    err = capsys.readouterr().err
    assert err == f'spielleiter-host: {path} ist keine Partie: es fehlen "format" und "actions"\n'


@pytest.mark.parametrize(
    ("data", "german"),
    [
        ([1, 2], "eine Partie ist ein JSON-Objekt"),
        ({"format": 1, "game": "bungee", "seats": []}, "es fehlt 'actions'"),
        ({"format": 1, "game": "nogame", "seats": [], "actions": []},
         "unbekanntes Spiel 'nogame'; bekannt: speedtombola, "),
        ({"format": 1, "game": "bungee", "seats": [], "actions": [], "params": {"x": 1}},
         "die Regeln lassen ihre Parameter nicht zu: bungee: unbekannte(r) Parameter x"),
        ({"format": 1, "game": "bungee", "seats": [], "actions": [], "params": {"rounds": 13}},
         "die Regeln lassen ihre Parameter nicht zu: bungee: rounds muss eine ganze Zahl von 1"
         " bis 12 sein"),
    ],
)  # fmt: skip
def test_a_record_the_tool_cannot_read_is_named_in_german(
    data: object, german: str, tmp_path: Path, locale, capsys
) -> None:
    path = tmp_path / "partie.json"
    path.write_text(json.dumps(data), "utf-8")
    for command in ("replay", "verify"):
        assert main([command, str(path)]) == 7
        err = capsys.readouterr().err
        assert err.startswith(f"spielleiter-host: {path}") and err.count("\n") == 1
        said = err.removeprefix(f"spielleiter-host: {path}")
        assert german in said and "record" not in said and "known:" not in said, err


def test_the_bestenliste_and_clearing_it_speak_german(tmp_path: Path, locale, capsys) -> None:
    store = Store.open(tmp_path / "data")
    store.add_to_bestenliste("bungee", "Anna", 12)
    store.add_to_bestenliste("bungee", "Ben", 20)
    try:
        with LinkServer.on_pty(FakeDevice(store)) as server:
            code, out, _err = run(["leaderboard", "bungee"], server.port_name, capsys)
            assert code == 0 and "Punkte (nach dem Mittel je Partie, die wenigsten zuerst):" in out
            assert "Platz  Name  Mittel  Punkte  Partien  Siege" in out
            code, out, _err = run(
                ["leaderboard", "bungee", "--reset", "--yes"], server.port_name, capsys
            )
            assert code == 0
            assert out == (
                "Bestenliste von bungee geleert: 2 Zeilen entfernt; ihre Wertungen beginnen neu\n"
            )
    finally:
        store.close()


def test_a_wrong_answer_is_named_in_german(locale) -> None:
    from spielleiter_host import answers

    i18n.use("de")
    assert answers.problem("records.list", {"records": [{"id": "7"}]}) == (
        "records[0].id sollte eine ganze Zahl sein"
    )
    assert answers.problem("hello", []) == "das Ergebnis sollte ein Objekt sein"
    assert (answers.STR | answers.NULL).want == "ein Text oder null"
    i18n.use("en")
    assert (answers.STR | answers.NULL).want == "a string or null"
