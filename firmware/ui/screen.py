"""The screen contract: what the app asks of every screen, and what a screen may ask of the app.

A screen draws the body of a frame, names its four soft keys (with the emulator's
letter shortcuts) and reacts to key events and the passing of time. Screens live on
the app's stack; the top one is shown.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from ..hal.keys import KeyEvent
from ..store import Store
from .canvas import BODY, PANEL, Canvas
from .speech import Line


@dataclass(frozen=True)
class SoftKey:
    """A soft key's label on the bottom line, and the keyboard letters that press it."""

    label: str
    hotkeys: str = ""
    """Lower-case letters (and "\\n" for Enter, " " for Space) that press this key."""


class App(Protocol):
    """What a screen may use of the running box."""

    store: Store
    rng: random.Random
    """For advice, tips and animations only: chance and computers have streams of their own."""
    stack: list[Screen]
    session: Any
    table: Any
    spinner: Any

    @property
    def top(self) -> Screen | None: ...
    def now(self) -> float: ...
    def settings(self) -> dict[str, Any]: ...
    def reload_settings(self) -> None: ...
    def push(self, screen: Screen) -> None: ...
    def pop(self) -> None: ...
    def replace(self, screen: Screen) -> None: ...
    def reset(self, screen: Screen) -> None: ...
    def submit(self, work: Callable[[], Any], done: Callable[[Any], None]) -> None: ...
    def show_table(self, table: Any) -> None: ...
    def game_screen(self) -> Screen | None: ...
    def record_seed(self) -> int: ...


class Screen:
    """Base class of every screen. Subclasses override what they need."""

    app: App

    def attach(self, app: App) -> None:
        """Called once when the screen is first pushed."""
        self.app = app

    def softkeys(self) -> list[SoftKey | None]:
        return [None, None, None, None]

    def draw(self, canvas: Canvas) -> None:
        """Draw the body (y 0..54); the app draws the soft-key line."""

    def on_key(self, event: KeyEvent) -> None:
        """A soft key was pressed (short or long)."""

    def on_menu(self) -> bool:
        """Long K4 (Esc): return True when handled here, else the app opens its menu."""
        return False

    def tick(self, now: float) -> None:
        """Time passed (clocks, countdowns, animations)."""

    def enter(self) -> None:
        """Called whenever this screen becomes the top of the stack again."""

    @property
    def busy(self) -> bool:
        """True while the screen is not waiting for input (an animation runs)."""
        return False

    def summary(self) -> dict[str, Any]:
        """A plain-data description of what the screen shows (for the laptop link)."""
        return {"screen": type(self).__name__}

    def spoken(self) -> list[Line]:
        """What the screen shows, in words (ui.speech: news, focus, the rest), next to
        `draw`: the box's speech says it. Every screen says something."""
        return []

    def covers(self) -> Screen | None:
        """The screen this one is drawn over and speaks for too (Zurück's moment, a
        hand-over): the players still look at that one. None: a screen of its own."""
        return None

    def overlay(self, canvas: Canvas) -> None:
        """Draw over the finished frame, soft-key line included (most screens: nothing)."""


def render(screen: Screen) -> Canvas:
    """Draw a screen into a fresh frame, soft-key line included."""
    canvas = Canvas()
    canvas.limit = BODY
    screen.draw(canvas)
    canvas.limit = PANEL
    canvas.softkeys([k.label if k else "" for k in screen.softkeys()])
    screen.overlay(canvas)
    return canvas
