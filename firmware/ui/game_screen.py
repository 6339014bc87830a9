"""What every game's screen shares: its session, the pause menu's entries, leaving."""

from __future__ import annotations

from typing import Any

from ..session import Session
from .screen import Screen
from .widgets import Confirm, Item


class GameScreen(Screen):
    """Base of a game's main screen. Subclasses draw the table and handle the keys."""

    def __init__(self, app: Any, session: Session) -> None:
        self.app = app
        self.session = session

    @property
    def state(self) -> Any:
        return self.session.state

    def pause_items(self) -> list[Item]:
        """Entries of the pause menu after "Weiter"."""
        return [Item("Verlassen", self.confirm_leave)]

    def confirm_leave(self) -> None:
        self.app.replace(Confirm("Partie wirklich verlassen?", self.leave, self.app.pop))

    def leave(self) -> None:
        """End the game without a result (it is kept as an abandoned record)."""
        self.session.abandon()
        self.app.session = None
        self.app.reset(self.app.stack[0])

    def end(self) -> None:
        """The game is over and its record finished: back to the main menu."""
        self.app.session = None
        self.app.reset(self.app.stack[0])
