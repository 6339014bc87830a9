"""Tipp: what Stark would do and why, for the human to move (a game's Rat, its hint).

The game's table gives the advice (its `advice(rng)`: work that runs off the loop on the
seat's view, drawing only from the box's advice stream, so asking never changes the
deal); the answer is a :class:`~spielleiter.games.base.Tip`. This screen asks for it,
shows "Stark rechnet ..." meanwhile, then the move in words and why. K1 "Machen" plays
the move (through the game screen's `play`, as if its keys had chosen it), K4 goes back.
An answer about a position the match has left is never shown.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..games.base import Tip
from ..hal.keys import Key, KeyEvent
from .canvas import WIDTH, Canvas, fitting, fitting_wrap
from .fonts import SMALL, TEXT, TINY
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

    def softkeys(self) -> list[SoftKey | None]:
        ready = self.tip is not None and not self.stale
        return [SoftKey("Machen", "m") if ready else None, None, None, SoftKey("Zurück", "\x08t")]

    def on_key(self, event: KeyEvent) -> None:
        if event.long:
            return
        if event.key == Key.K4:
            self.app.pop()
        elif event.key == Key.K1 and self.tip is not None and not self.stale:
            action = self.tip.action
            self.app.pop()
            self.play(action)

    def tick(self, now: float) -> None:
        if self.table.closed:
            self.app.pop()

    def draw(self, canvas: Canvas) -> None:
        y = canvas.title(TITLE, "Stark")
        tip = self.tip
        if tip is None or self.stale:
            canvas.text((2, y + 8), "Stark rechnet ..." if not self.stale else "Vorbei.", TEXT)
            return
        size = fitting(tip.what, WIDTH - 3, (TEXT, SMALL, TINY))
        if canvas.text_width(tip.what, size) <= WIDTH - 3:
            canvas.text((2, y), tip.what, size)
            y += 11 if size == TEXT else 9
        else:
            y = canvas.wrap((2, y), tip.what, TINY, WIDTH - 3)
        why = fitting_wrap(tip.why, WIDTH - 3, 54 - y, (SMALL, TINY))
        canvas.wrap((2, y), tip.why, why, WIDTH - 3)

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
