"""The moment after a human's move: its result shows, "Zurück" may take it back.

The table holds the match while the move may be taken back (setting `undo.ms`): no lot,
tower, roll or spin is drawn and no computer moves. This screen lies over the game's
screens meanwhile: it draws them as they are after the move, with a bar that runs out
in the soft keys' top line, K1 "Zurück" and K4 "Weiter". Zurück takes the move back through
the table and brings back the screens as they were before the key was pressed; Weiter
lets the move stand at once. When the time is up the screen goes by itself.
"""

from __future__ import annotations

from typing import Any

from ..hal.keys import Key, KeyEvent
from .canvas import HEIGHT, SOFTKEY_TOP, WIDTH, Canvas
from .fonts import TINY
from .screen import Screen, SoftKey
from .speech import Line, focus

TAKE_BACK_SAID = "Zurück mit Taste 1."
"""What the box says while a move may be taken back (the moment lasts until it is said)."""
BAR_ROWS = 2
"""Height in pixels of the bar that shows the time left: the soft keys' top line and
the empty row under it."""
TOO_LATE = "zu spät"
LATE_NOTE_S = 1.0
"""How long "zu spät" stays over K1 after Zurück was pressed once its moment had ended."""


def draw_too_late(canvas: Canvas) -> None:
    """ "zu spät" lit in K1's cell: Zurück was pressed after its moment ended (the press
    did nothing; the table's LATE_S says how long after)."""
    canvas.rect((0, SOFTKEY_TOP, 31, HEIGHT - 1), fill=1)
    canvas.text_center(SOFTKEY_TOP + 2, TOO_LATE, TINY, 0, 32, fill=0)


class TakeBackScreen(Screen):
    """Over a game's screens while the human's last move may be taken back."""

    def __init__(self, table: Any, before: list[Screen]) -> None:
        self.table = table
        self.offer = table.take_back_offer
        self.before = before
        """The screens as they were before the key that made the move."""
        self.total = max(1e-3, self.offer.until - table.host.now()) if self.offer else 1.0

    @property
    def open(self) -> bool:
        """The move may still be taken back."""
        return self.offer is not None and self.table.take_back_offer is self.offer

    @property
    def busy(self) -> bool:
        """A key script lets the moment pass unless it presses a key at once."""
        return self.open

    def softkeys(self) -> list[SoftKey | None]:
        return [SoftKey("Zurück", "z\x08"), None, None, SoftKey("Weiter", "\n ")]

    def on_key(self, event: KeyEvent) -> None:
        if event.long or not self.open:
            return
        if event.key == Key.K1:
            self.table.take_back()
            self.app.stack[:] = self.before
            self.app.stack[-1].enter()
        elif event.key == Key.K4:
            self.table.let_stand()
            self.leave()

    def on_menu(self) -> bool:
        """The pause menu waits until the move stands (a moment at most)."""
        return True

    def tick(self, now: float) -> None:
        if not self.open:
            self.leave()

    def leave(self) -> None:
        """Off the stack (the move stands, or the match was left meanwhile)."""
        if self.app.top is self:
            self.app.pop()
        elif self in self.app.stack:
            self.app.stack.remove(self)

    def below(self) -> Screen | None:
        stack = self.app.stack
        if self in stack:
            index = stack.index(self)
            return stack[index - 1] if index > 0 else None
        return stack[-1] if stack else None

    def draw(self, canvas: Canvas) -> None:
        """The screens below as they are after the move."""
        screen = self.below()
        if screen is not None:
            screen.draw(canvas)

    def overlay(self, canvas: Canvas) -> None:
        """The time left as a bar in place of the line above the soft keys."""
        top = SOFTKEY_TOP - 1
        canvas.rect((0, top, WIDTH - 1, top + BAR_ROWS - 1), fill=0, outline=0)
        if self.offer is None:
            return
        left = max(0.0, self.offer.until - self.table.host.now()) / self.total
        width = round((WIDTH - 1) * min(1.0, left))
        if width > 0:
            canvas.rect((0, top, width, top + BAR_ROWS - 1), fill=1)

    def summary(self) -> dict[str, Any]:
        screen = self.below()
        base = screen.summary() if screen is not None else {}
        return {**base, "take_back": True}

    def covers(self) -> Screen | None:
        return self.below()

    def spoken(self) -> list[Line]:
        """The screens below as they are after the move (their news says the move), and
        while the move may be taken back, how."""
        screen = self.below()
        below = screen.spoken() if screen is not None else []
        return [*below, focus(TAKE_BACK_SAID)] if self.open else below
