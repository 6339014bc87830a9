"""Handing the box over before a player's private cards show on the shared panel.

Where several humans share the box, what one seat may know (its hand) must not be
seen by the others: the game's screen shows only the public table until the player
whose turn it is has the box and presses OK. This screen lies over the game's screen
meanwhile: it draws it (the public table: whatever everyone may see) with a box over
the middle, "Anna ist dran" and "Box nehmen, OK zeigt die Karten", and K4 "OK". OK is
K4 alone, and on the keyboard "o" alone: Enter and Space, which made the previous
player's move, never show the next player's cards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..hal.keys import Key, KeyEvent
from .canvas import WIDTH, Canvas, fitting
from .fonts import SMALL, TEXT, TINY
from .screen import Screen, SoftKey
from .speech import Line, focus

PANEL_TOP = 22
"""Where the hand-over box starts (it covers y PANEL_TOP .. PANEL_TOP + PANEL_ROWS - 1)."""
PANEL_ROWS = 24


class HandOverScreen(Screen):
    """Over a game's screen until the player to move has the box and presses OK.

    `show` is called on OK (the game's screen then shows that player's cards); the
    screen goes by itself when `due()` is no longer True (the turn moved on, the match
    was left)."""

    def __init__(
        self,
        name: str,
        show: Callable[[], None],
        due: Callable[[], bool],
        what: str = "die Karten",
        player: Any = None,
    ) -> None:
        self.name = name
        self.show = show
        self.due = due
        self.what = what
        self.player = player
        """Who the box goes to, for the link's summary (a seat number, say)."""

    def softkeys(self) -> list[SoftKey | None]:
        return [None, None, None, SoftKey("OK", "o")]

    def on_key(self, event: KeyEvent) -> None:
        if event.long or event.key != Key.K4:
            return
        if self.due():
            self.show()
        self.leave()

    def tick(self, now: float) -> None:
        if not self.due():
            self.leave()

    def leave(self) -> None:
        if self.app.top is self:
            self.app.pop()
        elif self in self.app.stack:
            self.app.stack.remove(self)

    def below(self) -> Screen | None:
        stack = self.app.stack
        index = stack.index(self) if self in stack else len(stack)
        return stack[index - 1] if index > 0 else None

    def draw(self, canvas: Canvas) -> None:
        """The screen below (the public table), and the hand-over box over its middle."""
        screen = self.below()
        if screen is not None:
            screen.draw(canvas)
        bottom = PANEL_TOP + PANEL_ROWS - 1
        canvas.rect((0, PANEL_TOP, WIDTH - 1, bottom), fill=0)
        name = f"{self.name} ist dran"
        size = fitting(name, WIDTH - 2, (TEXT, SMALL))
        canvas.text_center(PANEL_TOP + 3, name, size)
        note = f"Box nehmen, OK zeigt {self.what}"
        canvas.text_center(PANEL_TOP + 15, note, fitting(note, WIDTH, (SMALL, TINY)))

    def covers(self) -> Screen | None:
        return self.below()

    def spoken(self) -> list[Line]:
        """The public table below, then who takes the box and how the cards show."""
        screen = self.below()
        below = screen.spoken() if screen is not None else []
        return [*below, focus(f"{self.name} ist dran. Box nehmen, Taste 4 zeigt {self.what}.")]

    def summary(self) -> dict[str, Any]:
        screen = self.below()
        return {
            "screen": "hand_over",
            "player": self.player,
            "name": self.name,
            "under": screen.summary() if screen is not None else {},
        }
