"""General screens: a list to choose from, a yes/no question, a message, a speller."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..hal.keys import Key, KeyEvent
from .canvas import WIDTH, Canvas, fitting, fitting_wrap, wrap_lines
from .fonts import SIZES, SMALL, TEXT, TINY
from .screen import Screen, SoftKey
from .speech import Line, count, describe, focus


@dataclass
class Item:
    """A line of a list: its label (or a function giving it) and what OK does."""

    label: str | Callable[[], str]
    action: Callable[[], None]

    def text(self) -> str:
        return self.label() if callable(self.label) else self.label


class ListMenu(Screen):
    """A scrolling list: K1 up, K2 down, K3 OK, K4 back."""

    ROWS = 4

    def __init__(
        self,
        title: str,
        items: Sequence[Item],
        back: Callable[[], None] | None = None,
        back_label: str = "Zurück",
    ) -> None:
        self.title = title
        self.back_label = back_label
        self.items = list(items)
        self.index = 0
        self._back = back

    def softkeys(self) -> list[SoftKey | None]:
        return [
            SoftKey("Auf", "k"),
            SoftKey("Ab", "j"),
            SoftKey("OK", "\n"),
            SoftKey(self.back_label, "\x08") if self.back_label else None,
        ]

    def draw(self, canvas: Canvas) -> None:
        y = canvas.title(self.title, f"{self.index + 1}/{len(self.items)}" if self.items else "")
        top = min(max(0, self.index - self.ROWS + 1), max(0, len(self.items) - self.ROWS))
        top = max(0, min(top, self.index))
        for row, item in enumerate(self.items[top : top + self.ROWS]):
            yy = y + row * 11
            text = item.text()
            size = fitting(text, WIDTH - 2)  # a long line in a smaller font, never cut
            dy = (10 - SIZES[size][1]) // 2
            canvas.text((2, yy + dy), text, size, box=(2, yy - 1, WIDTH - 1, yy + 9))
            if top + row == self.index:
                canvas.invert((0, yy - 1, 127, yy + 9))

    def on_key(self, event: KeyEvent) -> None:
        if not self.items and event.key != Key.K4:
            return
        if event.key == Key.K1:
            self.index = (self.index - 1) % len(self.items)
        elif event.key == Key.K2:
            self.index = (self.index + 1) % len(self.items)
        elif event.key == Key.K3:
            self.items[self.index].action()
        elif event.key == Key.K4 and not event.long:
            if self._back:
                self._back()
            else:
                self.app.pop()

    def summary(self) -> dict[str, Any]:
        return {
            "screen": "menu",
            "title": self.title,
            "items": [i.text() for i in self.items],
            "selected": self.index,
        }

    def spoken(self) -> list[Line]:
        """The title, then the item chosen and where it is in the list."""
        if not self.items:
            return [focus(self.title), focus("Die Liste ist leer.")]
        item = self.items[self.index].text()
        return [focus(self.title), focus(f"{item}, {self.index + 1} von {len(self.items)}")]


class Pages(Screen):
    """Pages of text (help, short rules): K1 and K2 turn the pages, K4 goes back.

    A page longer than the panel holds goes on over the next (never cut)."""

    BOTTOM = 54
    """The last pixel row a page may use (the soft-key line lies below)."""
    TOP = 11
    WIDTH = 124
    LINES = (BOTTOM - TOP + 2) // (SIZES[SMALL][1] + 1)
    """Lines of a page in the small font."""

    def __init__(self, title: str, pages: Sequence[str]) -> None:
        self.title = title
        self.pages = [part for page in (list(pages) or [""]) for part in self.split(page)]
        self.page = 0

    @classmethod
    def split(cls, page: str) -> list[str]:
        """A page as the panel's pages: as many lines as fit on each."""
        lines = wrap_lines(page, SMALL, cls.WIDTH)
        return [
            "\n".join(lines[i : i + cls.LINES]) for i in range(0, len(lines), cls.LINES)
        ] or [""]

    def softkeys(self) -> list[SoftKey | None]:
        return [SoftKey("<", "h"), SoftKey(">", "l"), None, SoftKey("Zurück", "\x08")]

    def draw(self, canvas: Canvas) -> None:
        y = canvas.title(self.title, f"{self.page + 1}/{len(self.pages)}")
        canvas.wrap((2, y), self.pages[self.page], SMALL, self.WIDTH)

    def on_key(self, event: KeyEvent) -> None:
        if event.long:
            return
        if event.key == Key.K1:
            self.page = (self.page - 1) % len(self.pages)
        elif event.key == Key.K2:
            self.page = (self.page + 1) % len(self.pages)
        elif event.key == Key.K4:
            self.app.pop()

    def summary(self) -> dict[str, Any]:
        return {"screen": "pages", "title": self.title, "page": self.page + 1,
                "text": self.pages[self.page]}  # fmt: skip

    def spoken(self) -> list[Line]:
        """The title and the page shown (its lines as sentences)."""
        where = f", Seite {self.page + 1} von {len(self.pages)}" if len(self.pages) > 1 else ""
        text = ". ".join(line for line in self.pages[self.page].splitlines() if line.strip())
        return [focus(f"{self.title}{where}"), focus(text)]


class Confirm(Screen):
    """A yes/no question: K1 Ja, K4 Nein."""

    def __init__(
        self,
        question: str,
        yes: Callable[[], None],
        no: Callable[[], None],
        yes_label: str = "Ja",
        no_label: str = "Nein",
    ) -> None:
        self.question = question
        self._yes = yes
        self._no = no
        self.labels = (yes_label, no_label)

    def softkeys(self) -> list[SoftKey | None]:
        return [SoftKey(self.labels[0], "y\n"), None, None, SoftKey(self.labels[1], "n\x08")]

    def draw(self, canvas: Canvas) -> None:
        size = fitting_wrap(self.question, 124, 54 - 4)
        canvas.wrap((2, 4), self.question, size, 124)

    def on_key(self, event: KeyEvent) -> None:
        if event.key == Key.K1 and not event.long:
            self._yes()
        elif event.key == Key.K4 and not event.long:
            self._no()

    def summary(self) -> dict[str, Any]:
        return {"screen": "confirm", "question": self.question}

    def spoken(self) -> list[Line]:
        """The question and which key answers how."""
        yes, no = self.labels
        return [focus(self.question), focus(f"Taste 1: {yes}. Taste 4: {no}.")]


class Message(Screen):
    """A message with one OK key (K3 or K4)."""

    def __init__(self, title: str, text: str, ok: Callable[[], None] | None = None) -> None:
        self.title_text = title
        self.text = text
        self._ok = ok

    def softkeys(self) -> list[SoftKey | None]:
        return [None, None, SoftKey("OK", "\n"), None]

    def draw(self, canvas: Canvas) -> None:
        y = canvas.title(self.title_text)
        size = fitting_wrap(self.text, 124, 54 - y - 1, (SMALL, TINY))
        canvas.wrap((2, y + 1), self.text, size, 124)

    def on_key(self, event: KeyEvent) -> None:
        if event.key in (Key.K3, Key.K4) and not event.long:
            if self._ok:
                self._ok()
            else:
                self.app.pop()

    def summary(self) -> dict[str, Any]:
        return {"screen": "message", "title": self.title_text, "text": self.text}

    def spoken(self) -> list[Line]:
        """The title, the message, and the key that goes on."""
        return [focus(self.title_text), focus(self.text), describe("Weiter mit Taste 3.")]


ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜß-0123456789"
DELETE = "<x"
DONE = "OK"


class Speller(Screen):
    """Spell a word with four keys: K1/K2 choose a letter, K3 takes it, K4 done.

    The last two choices of the wheel are delete and done; a long K1 deletes too.
    """

    def __init__(
        self,
        title: str,
        done: Callable[[str], None],
        alphabet: str = ALPHABET,
        max_length: int = 12,
        initial: str = "",
        secret: bool = False,
    ) -> None:
        self.title = title
        self._done = done
        self.choices = [*alphabet, DELETE, DONE]
        self.index = 0
        self.word = initial
        self.max_length = max_length
        self.secret = secret

    def softkeys(self) -> list[SoftKey | None]:
        return [SoftKey("<", "h"), SoftKey(">", "l"), SoftKey("Nimm", " "), SoftKey("Fertig", "\n")]

    def draw(self, canvas: Canvas) -> None:
        y = canvas.title(self.title)
        shown = "*" * len(self.word) if self.secret else self.word
        canvas.text((2, y + 2), (shown + "_")[-20:], TEXT)
        strip = [self.choices[(self.index + d) % len(self.choices)] for d in range(-3, 4)]
        for i, ch in enumerate(strip):
            x = 4 + i * 17
            canvas.text_center(y + 20, ch, TEXT, x, x + 16)
            if i == 3:
                canvas.rect((x, y + 18, x + 16, y + 30))

    def _take(self) -> None:
        choice = self.choices[self.index]
        if choice == DELETE:
            self.word = self.word[:-1]
        elif choice == DONE:
            self._finish()
        elif len(self.word) < self.max_length:
            self.word += choice if not self.word else choice.lower()

    def _finish(self) -> None:
        self._done(self.word)

    def type_text(self, ch: str) -> bool:
        """A character typed on the emulator's keyboard: a letter of the alphabet goes
        into the word at once, Backspace deletes, Enter is done. True when it was used."""
        if ch == "\x08":
            self.word = self.word[:-1]
            return True
        if ch == "\n":
            self._finish()
            return True
        letters = [c for c in self.choices if len(c) == 1]
        match = next((c for c in letters if c.lower() == ch.lower()), None)
        if match is None or len(self.word) >= self.max_length:
            return False
        self.index = self.choices.index(match)
        self._take()
        return True

    def on_key(self, event: KeyEvent) -> None:
        if event.key == Key.K1:
            if event.long:
                self.word = self.word[:-1]
            else:
                self.index = (self.index - 1) % len(self.choices)
        elif event.key == Key.K2:
            self.index = (self.index + 1) % len(self.choices)
        elif event.key == Key.K3:
            self._take()
        elif event.key == Key.K4 and not event.long:
            self._finish()

    def summary(self) -> dict[str, Any]:
        return {"screen": "speller", "title": self.title, "word": "" if self.secret else self.word}

    def spoken(self) -> list[Line]:
        """The title, the word so far (a secret one by its length) and the choice of the
        wheel."""
        if self.secret:
            word = count(len(self.word), "Ziffer", "Ziffern", female=True)
        else:
            word = f"Bisher: {' '.join(self.word)}" if self.word else "Noch leer"
        return [focus(self.title), focus(word), focus(letter_name(self.choices[self.index]))]


LETTER_NAMES = {DELETE: "Löschen", DONE: "Fertig", "-": "Bindestrich", "ß": "scharfes S"}


def letter_name(choice: str) -> str:
    """A choice of the speller's wheel as it is said: the letter, or what the key does."""
    return LETTER_NAMES.get(choice, choice)
