"""The flow of a Besenbingo Durchgang, without pictures.

The silent tower (stiller Turm) is drawn first, from the record's own chance stream;
then the table waits for Weiter (`proceed()`) before it turns each of the seven
towers. After a tower every sheet crosses in seat order: a human by command, a
computer on its own template off the loop, and in paper mode the box fills the one
stand-in sheet nobody sees. The Stark computers' tables are built off the loop before
the first tower. After a tower the computers' results wait to be shown; after the
seventh, Weiter reveals the silent tower. Solo play (one human alone) is a series of
Durchgänge, each a record of its own on the next template, against the previous score.

    >>> import pathlib, tempfile
    >>> from spielleiter.games.table import HeadlessHost
    >>> from spielleiter.session import Session
    >>> from spielleiter.store import Store
    >>> store = Store(pathlib.Path(tempfile.mkdtemp()) / "s.sqlite3")
    >>> session = Session.start(store, GAME, *paper_durchgang())
    >>> table = BesenbingoTable(HeadlessHost(store), session)
    >>> table.advance()  # the silent tower lies apart
    >>> for _ in range(7):
    ...     table.proceed()
    >>> table.over, table.awards(table.state)
    (True, [])
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from spielleiter.games.base import CHANCE, IllegalActionError, Seat, State, Tip
from spielleiter.games.besenbingo import bots, tips
from spielleiter.games.besenbingo.rules import (
    MINUS,
    ROW_TITLES,
    ROWS,
    BesenbingoState,
    decode,
    solo_beaten,
)
from spielleiter.games.besenbingo.templates import Template, default_boards, default_templates
from spielleiter.games.table import Award, Host, Table
from spielleiter.session import Session
from spielleiter.store import Store

GAME = "besenbingo"
DIGITAL = "digital"
PAPIER = "papier"
SOLO_KEY = "besenbingo.solo.last"
"""Store value: {player name: score of their latest solo Durchgang}, the score to beat."""
STAND_IN = Seat("Spielleiter", "computer", "papier")
"""Paper mode's one seat: the engine wants a move per sheet after each tower, so the box
fills a sheet nobody sees with the first legal move; the record then replays as usual."""
PLACE_BONUS = {1: 30, 2: 15, 3: 5}
"""Bestenliste bonus for places 1/2/3 when two or more sheets play (ties share)."""

NewRecord = tuple[dict[str, Any], list[Seat], dict[str, Any]]
"""(params, seats, meta) of a Durchgang to start."""
COPILOT_CODES = {"Katze": "Ka", "Rabe": "Rb", "Ratte": "Rt"}


# --- the sheet's short names (the panel's and the news's) --------------------------------


def witch_codes(template: Template) -> dict[str, str]:
    """The shortest prefix that tells each of the template's witches apart ("W", "M")."""
    names = [w.name for w in template.witches]
    codes = {}
    for name in names:
        for n in range(1, len(name) + 1):
            if not any(o != name and o[:n] == name[:n] for o in names):
                codes[name] = name[:n]
                break
        else:
            codes[name] = name
    return codes


def copilot_code(copilot: str) -> str:
    return COPILOT_CODES.get(copilot, copilot[:2])


def field_code(template: Template, witch: str | None, copilot: str | None) -> str:
    """A witch field or bar field in two to four letters: "WKa", "M", "Rb"."""
    codes = witch_codes(template)
    return (codes.get(witch, "") if witch else "") + (copilot_code(copilot) if copilot else "")


def bar_field_text(template: Template, row: str, index: int) -> str:
    """A score-bar field as the sheet writes it: who fits, then its value ("W1", "MRb2";
    the kombi's first field without a value, a minus field its value)."""
    if row == "minus":
        return str(template.minus[index])
    if row == "kombi":
        field = template.kombi[index]
        code = field_code(template, field.witch if index == 0 else None,
                          field.copilot if index == 1 else None)  # fmt: skip
        return code if index == 0 else f"{code}{template.kombi_value}"
    field = template.row(row)[index]
    return f"{field_code(template, field.witch, field.copilot)}{field.value}"


# --- starting a Durchgang ---------------------------------------------------------------


def is_solo(seats: Sequence[Seat]) -> bool:
    """The solo variant: one human alone."""
    return len(seats) == 1 and seats[0].is_human


def board_param(store: Store, name: str) -> str | dict[str, Any]:
    """A template for the engine's parameters: a shipped one by name, others as JSON."""
    data = store.boards(GAME)[name]
    return name if default_boards().get(name) == data else data


def paper_durchgang() -> NewRecord:
    """Paper play: one stand-in seat on the first shipped template, named in the record
    (no player has a template: the box only turns the towers)."""
    params = {"players": 1, "templates": [default_templates()[0].name]}
    return params, [STAND_IN], {"mode": PAPIER}


def digital_durchgang(
    store: Store,
    seats: Sequence[Seat],
    templates: Sequence[str] | None = None,
    rounds: int = 1,
    round_index: int = 0,
    solo_boards: Sequence[str] | None = None,
) -> NewRecord:
    """A digital Durchgang (templates: board names, one per seat; by default seat i gets
    board i). Solo play runs `rounds` Durchgänge, each on the next board after the first
    one's (`solo_boards` names them all); the score to beat comes from the store."""
    names = list(store.boards(GAME))
    chosen = list(templates or [names[i % len(names)] for i in range(len(seats))])
    meta: dict[str, Any] = {"mode": DIGITAL}
    if is_solo(seats):
        if solo_boards is None:
            first = names.index(chosen[0]) if chosen[0] in names else 0
            solo_boards = [names[(first + i) % len(names)] for i in range(rounds)]
        chosen = [solo_boards[round_index]]
        meta["solo"] = {
            "round": round_index + 1,
            "rounds": rounds,
            "boards": list(solo_boards),
            "to_beat": store.get_value(SOLO_KEY, {}).get(seats[0].name),
        }
    params = {"players": len(seats), "templates": [board_param(store, n) for n in chosen]}
    return params, list(seats), meta


# --- the table ------------------------------------------------------------------------------


class BesenbingoTable(Table):
    """A Durchgang in progress: towers on Weiter, sheets in seat order, solo rounds."""

    def __init__(self, host: Host, session: Session) -> None:
        super().__init__(host, session)
        meta = session.record.meta
        self.mode: str = meta.get("mode", DIGITAL)
        self.solo: dict[str, Any] | None = meta.get("solo")
        """Solo play: round, rounds, boards and the score to beat (None otherwise)."""
        self.preparing = False
        self.prepared = self.paper or all(map(bots.prepared, self.stark_templates()))
        """The Stark computers' tables are ready: shipped with the default templates, built
        earlier in this run, or none needed; others are built before the first tower."""
        self.ordered = len(self.state.revealed)
        """Towers that Weiter has asked for (a resumed Durchgang waits for the next one)."""
        self.results_shown = len(self.state.revealed)
        """Towers whose computer results were shown (none again after a resume)."""
        self.silent_revealed = False
        """Weiter after the seventh tower revealed the silent tower: the end is shown."""

    # --- who is who ---------------------------------------------------------------
    @property
    def paper(self) -> bool:
        return self.mode == PAPIER

    def level(self, seat: int) -> str:
        """A computer's level ("Computer" without a level plays stark)."""
        level = self.seats[seat].level
        return level if level in bots.LEVELS else "stark"

    def stark_templates(self) -> list[Template]:
        return [self.state.sheets[s].template for s in self.computers() if self.level(s) == "stark"]

    # --- what the screens show ------------------------------------------------------
    @property
    def phase(self) -> str:
        """What the table waits for: "preparing", "thinking", "end" (the silent tower on
        Weiter), "first" / "tower" (Weiter turns a tower), or "cross" (a human crosses)."""
        if not self.prepared:
            return "preparing"
        if self.thinking is not None:
            return "thinking"
        if self.over:
            return "end"
        if self.to_move() == CHANCE:
            return "tower" if self.state.revealed else "first"
        return "cross"

    @property
    def can_proceed(self) -> bool:
        """Weiter is offered: the table is ready and no computer is crossing."""
        return self.prepared and not self.busy and not self.closed

    @property
    def results_pending(self) -> bool:
        """Every sheet crossed at the latest tower and the computers' crosses are unshown."""
        return (
            not self.paper
            and bool(self.computers())
            and self.results_shown < len(self.state.revealed)
            and self.to_move() < 0
            and not self.busy
        )

    def results_seen(self) -> None:
        """The computers' results of the latest tower were shown."""
        self.results_shown = len(self.state.revealed)

    def human_waiting(self) -> int | None:
        """The human whose cross the table waits for now (None: nobody's)."""
        seat = self.to_move()
        return seat if 0 <= seat < len(self.seats) and self.waiting_for(seat) else None

    @property
    def busy(self) -> bool:
        return self.preparing or super().busy

    def tip_allowed(self) -> bool:
        """A Tipp may be asked now: one human at the table (against computers or alone, so
        it helps nobody against another human), and it is that human's cross."""
        return not self.paper and len(self.humans()) == 1 and self.human_waiting() is not None

    def advice(self, rng: random.Random) -> Callable[[], Tip] | None:
        """Tipp: Stark's cross on the human's view, as work for off the loop (exact: it
        draws nothing, so it never touches the record)."""
        seat = self.human_waiting()
        if not self.tip_allowed() or seat is None:
            return None
        return partial(tips.tip, self.state.view(seat))

    # --- the loop's hooks ---------------------------------------------------------------
    def holding(self) -> bool:
        """Wait for the computers' tables, and for Weiter before each tower is turned."""
        if not self.prepared:
            return True
        return (
            self.to_move() == CHANCE
            and self.session.committed > 0
            and len(self.state.revealed) >= self.ordered
        )

    def autoplay(self, seat: int) -> int | None:
        """Paper mode: the stand-in sheet takes the first legal move."""
        return self.state.legal_actions()[0] if self.paper else None

    def decide(self, view: Any, level: str, seed: int) -> int:
        return bots.choose(view, level=self.level(view["seat"]), rng=random.Random(seed))

    def advance(self) -> None:
        """Build the Stark tables first (off the loop), then the shared loop."""
        if not self.prepared:
            self.prepare()
            return
        super().advance()

    def prepare(self) -> None:
        """Build the Stark computers' tables off the loop, so each decision is a look-up."""
        if self.preparing or self.closed:
            return
        self.preparing = True
        templates = [t for t in self.stark_templates() if not bots.prepared(t)]
        generation = self._generation

        def work() -> None:
            for template in templates:
                bots.prepare(template)

        def ready(_: Any) -> None:
            if generation != self._generation:
                return
            self.preparing = False
            self.prepared = True
            self.advance()

        self.host.submit(work, ready)

    def play(self, seat: int, action: int, by_computer: bool = False) -> None:
        """Computers cross in the background and their crosses are shown together after
        the tower (`results_pending`), so no single cross is held on the panel."""
        super().play(seat, action, by_computer=False)

    def moved(self, seat: int, action: int, by_computer: bool) -> None:
        """A human's cross in the news: the row and the field it crossed ("Ute streicht
        Hexe W1"), what Zurück's moment names."""
        if not (0 <= seat < len(self.seats) and self.seats[seat].is_human) or self.paper:
            return
        sheet = self.state.sheets[seat]
        if action == MINUS:
            crossed = f"Minus {bar_field_text(sheet.template, 'minus', sheet.progress[4] - 1)}"
        else:
            row = decode(action)[1]
            index = sheet.progress[ROWS.index(row)] - 1
            crossed = f"{ROW_TITLES[row]} {bar_field_text(sheet.template, row, index)}"
        self.news = f"{self.name(seat)} streicht {crossed}"

    def proceed(self) -> None:
        """Weiter: turn the next tower; after the seventh, reveal the silent tower."""
        if not self.can_proceed:
            raise IllegalActionError("Noch nicht: die Computer sind nicht fertig.")
        if self.over:
            self.silent_revealed = True
            return
        if self.to_move() == CHANCE and self.session.committed > 0:
            self.ordered = len(self.state.revealed) + 1
        self.advance()

    # --- the end --------------------------------------------------------------------------
    def points(self, state: State) -> list[int | None]:
        """Each seat's Bestenliste points (None for computers and on paper): the sheet's
        points, never below 0, plus 30/15/5 for places 1/2/3 when two or more sheets play."""
        assert isinstance(state, BesenbingoState)
        if self.paper:
            return [None] * len(self.seats)
        scores, places = state.scores(), state.places()
        several = len(scores) > 1
        return [
            max(0, scores[s]) + (PLACE_BONUS.get(places[s], 0) if several else 0)
            if seat.is_human
            else None
            for s, seat in enumerate(self.seats)
        ]

    def awards(self, state: State) -> list[Award]:
        assert isinstance(state, BesenbingoState)
        places, several = state.places(), len(self.seats) > 1
        return [
            Award(self.name(s), p, wins=int(several and places[s] == 1))
            for s, p in enumerate(self.points(state))
            if p is not None
        ]

    def end_values(self, state: State) -> dict[str, Any]:
        """Solo: the player's score becomes the one to beat (with the last action)."""
        assert isinstance(state, BesenbingoState)
        if self.solo is None:
            return {}
        last: Mapping[str, Any] = self.host.store.get_value(SOLO_KEY, {})
        return {SOLO_KEY: {**last, self.name(0): state.scores()[0]}}

    @property
    def solo_beaten(self) -> bool:
        """Solo: this Durchgang topped the score to beat (the first one always counts)."""
        assert self.solo is not None
        return solo_beaten(self.solo.get("to_beat"), self.state.scores()[0])

    def rematch(self) -> NewRecord:
        """Nochmal from the end: paper play again; or the same seats, each on the template
        after the ones just played (a fresh sheet for everyone, still all different); solo:
        a new series of as many Durchgänge, from the template after the last one."""
        if self.paper:
            return paper_durchgang()
        store = self.host.store
        names = list(store.boards(GAME))
        played = [sheet.template.name for sheet in self.state.sheets]
        if self.solo is not None:
            last = self.solo["boards"][-1]
            after = (names.index(last) + 1) % len(names) if last in names else 0
            boards = [names[(after + i) % len(names)] for i in range(self.solo["rounds"])]
            return digital_durchgang(
                store, self.seats, rounds=self.solo["rounds"], solo_boards=boards
            )
        shift = len(played)
        templates = [
            names[((names.index(name) if name in names else seat) + shift) % len(names)]
            for seat, name in enumerate(played)
        ]
        if len(set(templates)) < len(templates):  # uploads removed meanwhile: from the start
            templates = [names[seat % len(names)] for seat in range(len(played))]
        return digital_durchgang(store, self.seats, templates)

    def next_round(self) -> NewRecord | None:
        """Solo: the next Durchgang on the next template (None after the last one, and
        outside solo play)."""
        solo = self.solo
        if not self.over or solo is None or solo["round"] >= solo["rounds"]:
            return None
        return digital_durchgang(
            self.host.store,
            self.seats,
            rounds=solo["rounds"],
            round_index=solo["round"],
            solo_boards=solo["boards"],
        )
