"""What every game's main screen shares: its table, the pause menu's entries, leaving.

A game screen draws its table's state and turns keys into table commands. The ways out
of a match are the same for every game and go through :meth:`Table.leave`.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ..games.base import IllegalActionError
from ..hal.keys import Key, KeyEvent
from .canvas import WIDTH, Canvas, fitting, short_name
from .fonts import SMALL, TEXT
from .screen import App, Screen, SoftKey
from .widgets import Confirm, Item, Pages

TAKE_BACK_HELP = (
    "Vertippt? Solange nach deinem Zug der Balken läuft: K1 Zurück nimmt ihn zurück, "
    "K4 Weiter geht gleich weiter."
)
"""The last page of every game's Hilfe while moves can be taken back (undo.ms)."""

BANNER_S = 1.5
"""How long "Anna ist dran" shows large when the turn passes to another human."""


class GameScreen(Screen):
    """Base of a game's main screen (the bottom of a match's screens on the stack)."""

    def __init__(self, app: App, table: Any) -> None:
        self.app = app
        self.table = table
        humans = table.humans()
        self.you = humans[0] if humans else 0
        """The seat drawn as "yours": the human to move (or who moved last)."""
        self.banner_until: float | None = None
        """With several humans: "Anna ist dran" shows large until then."""
        self._last_turn: int | None = None

    # --- following the table ------------------------------------------------------
    def enter(self) -> None:
        """On top again: the match moves on, the screen follows it."""
        self.table.advance()
        self.follow()

    def tick(self, now: float) -> None:
        self.follow()

    def follow(self) -> None:
        """Follow the table: whose seat is drawn, the turn banner, and the screen the
        table waits for now (a round's sheet, the standings, ...) pushed on top."""
        table = self.table
        if table.human_to_move() and table.to_move() != self.you:
            self.you = table.to_move()
            self.new_decider()
        self.follow_turn()
        if self.app.top is not self or table.closed:
            return
        due = self.due_screen()
        if due is not None:
            self.app.push(due)

    def new_decider(self) -> None:
        """Another human decides now (a game resets its choices here)."""

    def due_screen(self) -> Screen | None:
        """The screen the table waits for now, over this one (None: this one)."""
        return None

    def whose_turn(self) -> tuple[int, str] | None:
        """The player now to decide, as (id, name), where several humans share the table
        (None: one human, or nobody is asked now). A game whose players share one seat
        names its player itself."""
        table = self.table
        if len(table.humans()) > 1 and self.awaits_key():
            seat = table.to_move()
            return seat, table.name(seat)
        return None

    def follow_turn(self) -> None:
        """With several humans at the table, announce the turn when it passes from one
        human to another (call it from the screen's tick); the banner ends by itself."""
        turn = self.whose_turn()
        if turn is not None:
            if self._last_turn is not None and turn[0] != self._last_turn:
                self.banner_until = self.app.now() + BANNER_S
            self._last_turn = turn[0]
        if self.banner_until is not None and self.app.now() >= self.banner_until:
            self.banner_until = None

    def draw_turn_banner(self, canvas: Canvas, top: int = 22) -> None:
        """ "Anna ist dran" large over the middle of the panel while the banner lasts."""
        turn = self.whose_turn()
        if self.banner_until is None or turn is None:
            return
        text = f"{turn[1]} ist dran"
        size = fitting(text, WIDTH - 20, (TEXT, SMALL))
        if size != TEXT and canvas.text_width(text, size) > WIDTH - 20:
            text = f"{short_name(turn[1], 12)} ist dran"
        canvas.rect((8, top, WIDTH - 9, top + 18), fill=0)
        canvas.text_center(top + 5 if size == TEXT else top + 6, text, size, 10, WIDTH - 10)

    @property
    def session(self) -> Any:
        return self.table.session

    @property
    def state(self) -> Any:
        return self.table.state

    def game_items(self) -> list[Item]:
        """The game's own entries of the pause menu (e.g. tips on/off)."""
        return []

    def legend(self) -> list[str]:
        """Pages of the Hilfe after the game's own: what the screen's signs mean, in words
        (the printed sheet's legend), for this match's boards."""
        return []

    def pause_items(self) -> list[Item]:
        """Entries of the pause menu after "Weiter": the game's own, then the ways out."""
        items = self.game_items()
        entry = self.table.entry
        if entry.help:
            pages = [*entry.help, *self.legend()]
            if self.app.settings().get("undo.ms"):
                pages.append(TAKE_BACK_HELP)
            items.append(Item("Hilfe", partial(self.app.push, Pages(entry.title, pages))))
        humans = self.table.humans()
        leavers = [s for s in humans if self.table.can_leave_seat(s)]
        if len(humans) > 1 and leavers:
            for seat in leavers:
                label = f"{self.table.name(seat)} geht"
                items.append(Item(label, partial(self.confirm_leave, seat)))
        else:
            items.append(Item("Verlassen", partial(self.confirm_leave, None)))
        items.append(Item("Info", partial(self.app.push, Pages("Info", self.info_pages()))))
        return items

    def info_pages(self) -> list[str]:
        """The match's number and the seal of its chance (the commitment the record shows),
        so the table can check afterwards that the box drew fairly."""
        chance = self.session.record.meta.get("chance")
        commit = str(chance.get("commitment", "")) if isinstance(chance, dict) else ""
        number = f"Partie {self.session.record_id}"
        if len(commit) != 64:
            return [f"{number}\nOhne Siegel des Zufalls (vor dem Siegel begonnen)."]
        groups = [commit[i : i + 4] for i in range(0, 64, 4)]
        lines = [" ".join(groups[i : i + 4]) for i in range(0, 16, 4)]
        return [
            "\n".join([f"{number}, Siegel:", *lines]),
            "Die Box hat ihren Zufall zu Beginn versiegelt und deckt ihn am Ende auf: "
            "spielleiter-host verify prüft dann jede Ziehung gegen dieses Siegel.",
        ]

    def confirm_leave(self, seat: int | None) -> None:
        entry = self.table.entry
        if seat is None:
            question = "Partie wirklich verlassen?"
        else:
            question = (
                f"{self.table.name(seat)} verlässt die Partie: {entry.leave_penalty} Punkte, "
                "ein Computer übernimmt."
            )
        self.app.replace(Confirm(question, lambda: self.leave(seat), self.app.pop))

    def leave(self, seat: int | None = None) -> None:
        """Leave through the table; back to the match, or to the main menu when it ended."""
        self.table.leave(seat)
        if self.table.closed:
            self.app.show_table(None)
            self.app.reset(self.app.stack[0])
        else:
            self.app.reset(self)

    def try_command(self, action: int, seat: int | None = None) -> str | None:
        """A human's move to the table (the seat to move by default): None when it was
        played, else why the rules refuse it, for the screen to show its own way."""
        try:
            self.table.command(self.table.to_move() if seat is None else seat, action)
        except IllegalActionError as refused:
            return str(refused)
        return None

    def awaits_key(self) -> bool:
        """The table waits for the human to move (no computer's move is still shown)."""
        table = self.table
        return bool(table.human_to_move() and table.waiting_for(table.to_move()))

    def rematch(self) -> None:
        """The same game again, the same seats and house rules (from the final standings)."""
        from .menus import launch

        record = self.session.record
        meta = self.table.rematch_meta()
        self.end()
        launch(self.app, record.game, dict(record.params), list(record.seats), meta)

    def end(self) -> None:
        """The match is over and its record finished: back to the main menu."""
        self.table.close()
        self.app.show_table(None)
        self.app.reset(self.app.stack[0])


class StandingsScreen(Screen):
    """The base of a game's final standings: K1 Nochmal (a rematch with the same seats and
    house rules), K4 Weiter (back to the main menu). Games draw the standings."""

    FINISH_LABEL = "Weiter"

    def __init__(self, screen: GameScreen) -> None:
        self.screen = screen
        self.table = screen.table

    def softkeys(self) -> list[SoftKey | None]:
        return [SoftKey("Nochmal", "a"), None, None, SoftKey(self.FINISH_LABEL, "\n ")]

    def on_key(self, event: KeyEvent) -> None:
        if event.long:
            return
        if event.key == Key.K1:
            self.screen.rematch()
        elif event.key == Key.K4:
            self.screen.end()
