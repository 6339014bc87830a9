"""What a screen says: its lines of speech, and the few German number words they need.

Next to drawing, every screen says what it shows (`Screen.spoken`), as a list of
:class:`Line`. A line is one of three kinds:

* **news** (a `key`): something that changed at the table ("Ben sagt nein danke"). The
  box says it once: the same key with the same text is never said again in a match.
* **focus**: what the screen is and what is chosen on it ("Einstellungen. Ton: an, 4 von
  9"; "Anna ist dran. Los 27, 3 Groschen darauf"). Said when the screen comes up and
  whenever its text changes.
* **description**: the rest of what the panel shows (every guest's groschen). Said when
  someone asks for the whole screen (the repeat key), and with "alles".

The texts are German sentences for eSpeak NG's German voice, which reads digits as
German numbers ("27" is "siebenundzwanzig"); only counted things need words here ("ein
Groschen", never "eins Groschen"), and a minus sign is written out.

    >>> count(1, "Groschen")
    'ein Groschen'
    >>> count(0, "Karte", "Karten", female=True)
    'keine Karten'
    >>> punkte(-10)
    'minus 10 Punkte'
    >>> listing(["Anna", "Ben", "Carla"])
    'Anna, Ben und Carla'
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "Line", "count", "describe", "focus", "listing", "news", "number", "ordinal", "place",
    "punkte", "sentence", "text_of",
]  # fmt: skip


@dataclass(frozen=True)
class Line:
    """A sentence a screen says (see the module's docstring for the three kinds)."""

    text: str
    key: Hashable = None
    """What the news is about: the same key and text are one piece of news (None: not news)."""
    focus: bool = False
    """What the screen is and what is chosen on it (said when it comes up or changes)."""

    @property
    def is_news(self) -> bool:
        return self.key is not None


def news(key: Hashable, text: str) -> Line:
    """Something that changed at the table, said once; `key` tells two of them apart
    (include a move counter where the same words can come again)."""
    return Line(text, key=("news", key))


def focus(text: str) -> Line:
    """What the screen is or what is chosen on it: said when it comes up and when it
    changes."""
    return Line(text, focus=True)


def describe(text: str) -> Line:
    """The rest of the screen: said when the whole screen is asked for."""
    return Line(text)


def text_of(lines: Iterable[Line]) -> str:
    """The lines as one utterance, each a sentence."""
    return " ".join(sentence(line.text) for line in lines if line.text.strip())


def sentence(text: str) -> str:
    """A text that ends like a sentence (a full stop unless it has its own mark)."""
    text = text.strip()
    return text if not text or text[-1] in ".!?:" else f"{text}."


def number(n: int) -> str:
    """A number as eSpeak reads it well: digits, a negative one with "minus"."""
    return f"minus {-n}" if n < 0 else str(n)


def count(n: int, one: str, many: str | None = None, female: bool = False) -> str:
    """A count of things: "keine Groschen", "ein Groschen", "eine Karte", "3 Groschen"."""
    many = one if many is None else many
    if n == 0:
        return f"keine {many}"
    if n == 1:
        return f"{'eine' if female else 'ein'} {one}"
    return f"{number(n)} {many}"


def punkte(n: int) -> str:
    """Points, which may be negative: "ein Punkt", "null Punkte", "minus 10 Punkte"."""
    if n in (1, -1):
        return "ein Punkt" if n == 1 else "minus ein Punkt"
    if n == 0:
        return "null Punkte"
    return f"{number(n)} Punkte"


ORDINALS = ("erste", "zweite", "dritte", "vierte", "fünfte", "sechste", "siebte", "achte")


def ordinal(n: int) -> str:
    """ "erste", "zweite", ... (the stem: "der erste", "den ersten" add their ending)."""
    return ORDINALS[n - 1] if 1 <= n <= len(ORDINALS) else f"{n}."


def listing(items: Sequence[str]) -> str:
    """ "A", "A und B", "A, B und C"."""
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} und {items[-1]}"


def place(n: int) -> str:
    """A place in the standings: "Platz 1"."""
    return f"Platz {n}"
