"""Tipp: what Stark would do and why, for the human to move (a game's Rat, its hint).

The game's table gives the advice (its `advice(rng)`: work that runs off the loop on the
seat's view, drawing only from the box's advice stream, so asking never changes the
deal); the answer is a :class:`~spielleiter.games.base.Tip`. This screen asks for it,
shows "Stark rechnet ..." meanwhile, then the move in words and why (K2 "Mehr" turns to
the rest of a why longer than the panel holds). K1 "Machen" plays the move (through the
game screen's `play`, as if its keys had chosen it), K4 goes back. An answer about a
position the match has left is never shown.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..games.base import Tip
from ..hal.keys import Key, KeyEvent
from .canvas import WIDTH, Canvas, fitting, fitting_wrap, wrap_lines
from .fonts import SIZES, SMALL, TEXT, TINY
from .screen import Screen, SoftKey
from .speech import Line, describe, focus

TITLE = "Tipp"


class TipScreen(Screen):
    """Over a game's screen while its human looks at the Tipp."""

    def __init__(self, table: Any, play: Callable[[int], None]) -> None:
        self.table = table
        self.play = play
        """Plays the tip's move as the game's keys would (a refusal shows as usual)."""
        self.tip: Tip | None = None
        self.asked = False
        self.at = table.session.committed
        """The position the tip is about."""
        self.page = 0

    def enter(self) -> None:
        if self.tip is not None or self.asked:
            return
        self.asked = True
        work = self.table.advice(random.Random(self.app.rng.getrandbits(64)))
        if work is not None:
            self.app.submit(work, self.got)

    def got(self, tip: Tip) -> None:
        if self.table.session.committed == self.at:
            self.tip = tip

    @property
    def stale(self) -> bool:
        """The match moved on (the clock, a leave): the tip is about a position gone."""
        return self.table.session.committed != self.at or self.table.closed

    def layout(self) -> tuple[str, list[str], str, list[list[str]]]:
        """(font, lines) of the move and (font, pages of lines) of why, as they fit."""
        assert self.tip is not None
        what, why = self.tip.what, self.tip.why
        size = fitting(what, WIDTH - 3, (TEXT, SMALL, TINY))
        head = wrap_lines(what, size, WIDTH - 3)
        top = 11 + len(head) * (SIZES[size][1] + 1) + 1
        small = fitting_wrap(why, WIDTH - 3, 54 - top, (SMALL, TINY))
        lines = wrap_lines(why, small, WIDTH - 3)
        room = max(1, (54 - top + 1) // (SIZES[small][1] + 1))
        return size, head, small, [lines[i : i + room] for i in range(0, len(lines), room)]

    def softkeys(self) -> list[SoftKey | None]:
        ready = self.tip is not None and not self.stale
        more = ready and len(self.layout()[3]) > 1
        return [
            SoftKey("Machen", "m") if ready else None,
            SoftKey("Mehr", "l") if more else None,
            None,
            SoftKey("Zurück", "\x08t"),
        ]

    def on_key(self, event: KeyEvent) -> None:
        if event.long:
            return
        if event.key == Key.K4:
            self.app.pop()
        elif event.key == Key.K1 and self.tip is not None and not self.stale:
            action = self.tip.action
            self.app.pop()
            self.play(action)
        elif event.key == Key.K2 and self.tip is not None and not self.stale:
            self.page = (self.page + 1) % len(self.layout()[3])

    def tick(self, now: float) -> None:
        if self.table.closed:
            self.app.pop()

    def draw(self, canvas: Canvas) -> None:
        y = canvas.title(TITLE, "Stark")
        tip = self.tip
        if tip is None or self.stale:
            canvas.text((2, y + 8), "Stark rechnet ..." if not self.stale else "Vorbei.", TEXT)
            return
        size, head, small, pages = self.layout()
        y = canvas.wrap((2, y), "\n".join(head), size, WIDTH - 3) + 1
        page = pages[min(self.page, len(pages) - 1)]
        canvas.wrap((2, y), "\n".join(page), small, WIDTH - 3)

    def spoken(self) -> list[Line]:
        tip = self.tip
        if tip is None or self.stale:
            return [focus("Tipp: Stark rechnet.")]
        return [focus(f"Tipp: {tip.what}"), describe(tip.why),
                describe("Taste 1: Machen. Taste 4: Zurück.")]  # fmt: skip

    def summary(self) -> dict[str, Any]:
        tip = self.tip
        if tip is None:
            return {"screen": "tip", "ready": False}
        return {"screen": "tip", "ready": True, "action": tip.action, "what": tip.what,
                "why": tip.why}  # fmt: skip
