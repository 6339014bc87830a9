"""The laptop tool's language: German by default, English on request.

Every message of `spielleiter-host` is written in English in the source and marked for
the catalog: `_("…")` for a message, `ngettext(singular, plural, n)` for one with a
count, `N_("…")` for a text marked where it is defined and translated where it is shown.
Placeholders are named (`_("cannot read {path}").format(path=path)`) so a translation can
put them where German wants them. The German catalog is
`host/locale/de/LC_MESSAGES/spielleiter_host.po`, kept up to date by `make messages`
(Babel's extractor); `tests/test_host_i18n.py` fails on a message it lacks. English is
the source itself: no catalog.

The catalog is read from the .po file when the tool starts, with the standard library
only (the box never needs Babel, and an install needs no compile step): about 1 ms
(docs/development.md has the measurements).

Which language (`choose`): `--lang de|en` first; else the locale, the first of
LANGUAGE, LC_ALL, LC_MESSAGES and LANG that is set (the order gettext reads them): an
English one (`en`, `en_GB.UTF-8`, a LANGUAGE list whose first known entry is English)
gives English, anything else German, C and POSIX too (the family's box speaks German).
Under `--json` the tool speaks English whatever is asked, so what a script reads is the
same in every language.

    >>> choose(["records", "list", "--lang", "en"], {})
    'en'
    >>> choose(["records", "list"], {"LANG": "C.UTF-8"})
    'de'
    >>> choose(["info"], {"LANGUAGE": "fr:en_GB", "LANG": "de_DE.UTF-8"})
    'en'
"""

from __future__ import annotations

import argparse
import gettext as _gettext
import io
import os
import re
import struct
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from importlib import resources
from typing import Any

LANGUAGES = ("de", "en")
DEFAULT = "de"
"""The family's language: the box speaks German to its players."""
SOURCE = "en"
"""The language the messages are written in (no catalog)."""
DOMAIN = "spielleiter_host"
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_current: _gettext.NullTranslations | None = None
"""The catalog in use; None until a message is first asked for (then the locale's)."""
_language = DEFAULT
_loaded: dict[str, _gettext.NullTranslations] = {}
_known: dict[str, frozenset[str]] = {}
"""The messages each catalog translates (a box's text the catalog lacks stays English)."""


def N_(message: str) -> str:
    """Mark `message` for the catalog without translating it here."""
    return message


def _(message: str) -> str:
    """`message` in the current language."""
    return _translations().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for `n`, in the current language."""
    return _translations().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """`message` where the same English word needs another translation (a metavar)."""
    return _translations().pgettext(context, message)


def language() -> str:
    """The language messages come in now ("de" or "en")."""
    _translations()
    return _language


def use(lang: str | None) -> None:
    """Speak `lang` from now on (one of LANGUAGES); None: the locale's, when next asked
    (what the tool's functions speak when no command line chose)."""
    global _current, _language
    if lang is None:
        _current = None
        return
    if lang not in LANGUAGES:
        raise ValueError(f"no catalog for {lang!r}; languages: {', '.join(LANGUAGES)}")
    _current = _gettext.NullTranslations() if lang == SOURCE else _catalog(lang)
    _language = lang


def _translations() -> _gettext.NullTranslations:
    if _current is None:
        use(from_locale(os.environ))
    assert _current is not None
    return _current


def choose(argv: Sequence[str], environ: Mapping[str, str]) -> str:
    """The language for a command line: `--lang`, else the locale's (see the module)."""
    asked = lang_argument(argv)
    if asked in LANGUAGES:
        return asked
    return from_locale(environ)


def lang_argument(argv: Sequence[str]) -> str | None:
    """The value of `--lang X` or `--lang=X` in `argv` (the last one given; `--la` and
    `--lan` as argparse takes them), else None."""
    found = None
    for i, word in enumerate(argv):
        if word == "--":
            break
        option, equals, value = word.partition("=")
        if len(option) < 4 or not "--lang".startswith(option):
            continue
        if equals:
            found = value
        elif i + 1 < len(argv):
            found = argv[i + 1]
    return found


def from_locale(environ: Mapping[str, str]) -> str:
    """English when the locale asks for it, else German (C and POSIX too)."""
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable, "")
        if not value:
            continue
        for entry in value.split(":"):
            name = re.split(r"[_.@]", entry, maxsplit=1)[0].lower()
            if name in LANGUAGES:
                return name
        return DEFAULT
    return DEFAULT


def yes_answers() -> frozenset[str]:
    """The answers that mean yes to a confirmation ("j", "ja" in German)."""
    # TRANSLATORS: the answers that confirm "[y/N]", separated by "|"
    return frozenset(a.strip().lower() for a in _("y|yes").split("|") if a.strip())


# --- the catalogs -------------------------------------------------------------------


def catalog_text(lang: str) -> str:
    """The .po file of `lang`, as shipped with the package."""
    folder = resources.files(__package__ or "spielleiter_host").joinpath("locale")
    return folder.joinpath(lang, "LC_MESSAGES", f"{DOMAIN}.po").read_text("utf-8")


def _catalog(lang: str) -> _gettext.NullTranslations:
    if lang not in _loaded:
        entries = read_po(catalog_text(lang))
        _loaded[lang] = _gettext.GNUTranslations(io.BytesIO(mo_bytes(entries)))
        _known[lang] = frozenset(k for k in entries if isinstance(k, str) and k)
    return _loaded[lang]


# --- what the box says ---------------------------------------------------------------


def box_text(message: str, text: Any) -> str:
    """A text the box sent, in the current language: `text` as the box sends it beside its
    English `message` ({"id": template, "args": {...}}, an argument that is a text of its
    own the same; docs/protocol.md), translated by the catalog, its arguments formatted in;
    `message` as it came in English, without a `text`, or where the catalog does not know
    a template (an older laptop's catalog, a newer box).

    >>> use("de")
    >>> box_text("no record 7", {"id": "no record {id}", "args": {"id": 7}})
    'keine Partie 7'
    >>> box_text("no such thing", {"id": "no such thing", "args": {}})
    'no such thing'
    >>> use(None)
    """
    if _translations() is _loaded.get(_language) and _language != SOURCE:
        said = _said(text, _known.get(_language, frozenset()), 0)
        if said is not None:
            return said
    return message


def said(text: Any) -> str:
    """A text the box's code made here (a `spielleiter.texts.Text`, e.g. a verdict's
    reason, or an exception whose message is one: a seat of a tournament that failed, a
    board file's check), in the current language; any other value as its str."""
    from spielleiter.texts import text_of

    found = text_of(text)
    return box_text(str(text), None if found is None else found.to_json())


def box_note(note: str, text: Any) -> str:
    """A line the box wrote in German (`hello`'s notes, as its panel said it), in the
    current language: in English the English of `text` (the box's text beside the note,
    {"id": template, "args": {...}}, formatted as it stands); in German the catalog's words
    for it, else `note` as the box wrote it; `note` too where the box sent no text (a
    line whose reason is the rules' German).

    >>> use("en")
    >>> box_note("Einstellungen nicht lesbar, es gilt der Standard: x.",
    ...          {"id": "Settings that cannot be read count at their default: {keys}.",
    ...           "args": {"keys": "x"}})
    'Settings that cannot be read count at their default: x.'
    >>> box_note("Die offene Partie …", None)
    'Die offene Partie …'
    >>> use(None)
    """
    if language() == SOURCE:
        english = _said(text, None, 0)
        return note if english is None else english
    return box_text(note, text)


def _said(text: Any, known: frozenset[str] | None, depth: int) -> str | None:
    """`text` translated by the catalog (None for `known`: in the box's English as it
    stands), or None where any part of it is not in the catalog or not a text."""
    if not isinstance(text, dict) or depth > 8:
        return None
    template, args = text.get("id"), text.get("args", {})
    if not isinstance(template, str) or not isinstance(args, dict):
        return None
    if known is not None and template not in known:
        return None
    values: dict[str, Any] = {}
    for name, value in args.items():
        if isinstance(value, dict):
            value = _said(value, known, depth + 1)
            if value is None:
                return None
        values[str(name)] = value
    try:
        return (template if known is None else _(template)).format(**values)
    except (KeyError, IndexError, ValueError, AttributeError, TypeError):
        return None


_ESCAPE = re.compile(r"\\([\\trn\"])")
_ESCAPES = {"\\": "\\", "t": "\t", "r": "\r", "n": "\n", '"': '"'}


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise ValueError(f"not a quoted PO string: {text[:40]!r}")
    return _ESCAPE.sub(lambda m: _ESCAPES[m.group(1)], text[1:-1])


def read_po(text: str) -> dict[str | tuple[str, str], str | list[str]]:
    """The translated entries of a .po file: msgid -> msgstr, and (msgid, msgid_plural)
    -> [msgstr[0], msgstr[1], …]; the header under "", a msgid with a context as
    "context\x04msgid" (gettext's key). Fuzzy, untranslated and obsolete entries are left
    out, as gettext's msgfmt leaves them out."""
    entries: dict[str | tuple[str, str], str | list[str]] = {}
    fields: dict[str, str] = {}
    key: str | None = None
    fuzzy = False

    def finish() -> None:
        msgid = fields.get("msgid")
        if msgid is not None and "msgctxt" in fields:
            msgid = f"{fields['msgctxt']}\x04{msgid}"
        if msgid is not None and (not fuzzy or msgid == ""):
            if "msgid_plural" in fields:
                forms = [fields[k] for k in sorted(fields, key=_form_index) if k[:7] == "msgstr["]
                if forms and all(forms):
                    entries[(msgid, fields["msgid_plural"])] = forms
            elif fields.get("msgstr") or msgid == "":
                entries[msgid] = fields.get("msgstr", "")
        fields.clear()

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        try:
            if line.startswith("#"):  # a comment before an entry ends the one before
                if key is not None and key.startswith("msgstr"):
                    finish()
                    fuzzy = False
                if line.startswith("#,"):
                    fuzzy = fuzzy or "fuzzy" in (f.strip() for f in line[2:].split(","))
                key = None
            elif line.startswith('"'):
                if key is None:
                    raise ValueError("a string that belongs to no keyword")
                fields[key] += _unquote(line)
            elif line:
                word, _space, rest = line.partition(" ")
                if word in ("msgctxt", "msgid") and key is not None and key.startswith("msgstr"):
                    finish()
                    fuzzy = False
                key = word
                fields[key] = _unquote(rest)
        except ValueError as exc:
            raise ValueError(f"line {number} of the catalog: {exc}") from None
    finish()
    return entries


def _form_index(key: str) -> int:
    return int(key[7:-1]) if key.startswith("msgstr[") else -1


def mo_bytes(entries: Mapping[str | tuple[str, str], str | list[str]]) -> bytes:
    """A GNU .mo file of `entries` (as read_po gives them), for gettext.GNUTranslations."""
    pairs: list[tuple[bytes, bytes]] = []
    for key, value in entries.items():
        original = "\0".join(key) if isinstance(key, tuple) else key
        translated = "\0".join(value) if isinstance(value, list) else value
        pairs.append((original.encode("utf-8"), translated.encode("utf-8")))
    pairs.sort()
    count = len(pairs)
    originals_at = 7 * 4
    translations_at = originals_at + count * 8
    data_at = translations_at + count * 8
    table: list[int] = []
    blob = io.BytesIO()
    for column in (0, 1):
        for pair in pairs:
            text = pair[column]
            table += [len(text), data_at + blob.tell()]
            blob.write(text + b"\0")
    header = struct.pack("<7I", 0x950412DE, 0, count, originals_at, translations_at, 0, 0)
    return header + struct.pack(f"<{len(table)}I", *table) + blob.getvalue()


# --- argparse's own words ------------------------------------------------------------

ARGPARSE_MESSAGES = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("can't open '%(filename)s': %(error)s"),
)
"""What argparse says to a person (its help's headings, its usage errors), in its own
words, so the catalog translates them (argparse_words)."""


@contextmanager
def argparse_words() -> Iterator[None]:
    """argparse's own words from this catalog while the tool's parser builds, parses and
    formats its help (argparse looks them up through its module's `_` and `ngettext`,
    gettext's functions); anything else that uses argparse in the process is left alone."""
    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._, argparse.ngettext = _, ngettext  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]
