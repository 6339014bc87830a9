"""The flow of a Maskenball match without pictures: the magnets, the spins, the flights, the end.

The whole table plays as one seat ("Tisch"); the rules' seat (who spins) only names the
player. The box draws the hidden magnet groups itself (digital play, the first action).
A spin waits for the players: on "Drehen" the table draws it from the record's own
chance stream and commits it before the screen turns the arrow (:meth:`spin`), or a
sensor brings it (:meth:`supply`). Visits, flights home and flyers are table commands;
in physical play the players report what the magnets did (:meth:`report`), and a report
that contradicts the earlier visits must be confirmed.

    >>> import pathlib, tempfile
    >>> from spielleiter.games.base import Seat
    >>> from spielleiter.games.table import HeadlessHost
    >>> from spielleiter.session import Session
    >>> from spielleiter.store import Store
    >>> store = Store(pathlib.Path(tempfile.mkdtemp()) / "s.sqlite3")
    >>> session = Session.start(store, "maskenball", {"mode": "digital"}, [Seat("Tisch")], seed=1)
    >>> table = MaskenballTable(HeadlessHost(store), session)
    >>> table.advance()                # the box draws the magnets
    >>> table.state.pending()          # the magnets are drawn: the first spin waits
    'spin'
    >>> 0 <= table.spin() < SECTORS
    True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from spielleiter.games.base import IllegalActionError, State
from spielleiter.games.maskenball.rules import (
    BEETLES,
    COLOUR_CODES,
    COLOURS,
    FLY,
    HOME,
    PENDING_CHOOSE,
    PENDING_GROUPING,
    PENDING_REPORT,
    PENDING_SPIN,
    REPORT_SWAPPED,
    REPORT_TURNED_AWAY,
    SECTORS,
    SPIN,
    VISIT,
    MaskenballState,
    is_petal,
    petal_of,
    same_group,
)
from spielleiter.games.table import Award, Host, Table
from spielleiter.session import Session

if TYPE_CHECKING:
    from spielleiter.games.maskenball.tips import Tips

__all__ = ["NEWS_CHARS", "SEAT", "WIN_POINTS", "MaskenballTable", "visit_news"]

SEAT = 0
"""The one seat of the record: the whole table ("Tisch") plays together."""
WIN_POINTS = 10
"""Bestenliste points of a won game, before the vine fields still free are added."""
NEWS_CHARS = 32
"""The longest news line: one line of the panel's smallest font."""


def contradiction_question(flyer: int, visited: int, swapped: bool) -> str:
    """The question a report `swapped` of the visit flyer -> visited must confirm when the
    earlier visits say the opposite; four lines of the panel for every pair of colours."""
    expected = "wegdrehen" if swapped else "tauschen"
    return (
        f"Bisher gelernt: {COLOURS[flyer]} und {COLOURS[visited]} müssten {expected}. "
        + ("Wirklich getauscht?" if swapped else "Wirklich weggedreht?")
    )


class MaskenballTable(Table):
    """One Maskenball match: magnets drawn by the box, spins on "Drehen" or from a sensor."""

    def __init__(self, host: Host, session: Session) -> None:
        super().__init__(host, session)
        self.spinner_seat = self.state.seat()
        """The player who spun the last result (a leaf passes the turn at once)."""
        self._before: tuple[int | None, int, int] = (None, 0, 0)

    # --- who moves ----------------------------------------------------------
    @property
    def state(self) -> MaskenballState:
        return cast(MaskenballState, self.session.state)

    def to_move(self) -> int:
        """The table's one seat for every player's decision; CHANCE or TERMINAL else."""
        player = super().to_move()
        return SEAT if player >= 0 else player

    def chance_from_box(self) -> bool:
        """The box draws the magnets by itself; a spin waits for "Drehen" or the sensor,
        a report for the players."""
        return self.state.pending() == PENDING_GROUPING

    # --- commands -------------------------------------------------------------
    def spin(self) -> int:
        """Drehen (electronic arrow): draw the spin from the record's chance stream and
        commit it, before anything shows it; the sector, for the arrow to settle in."""
        if self.closed or self.state.pending() != PENDING_SPIN:
            raise IllegalActionError("Jetzt wird nicht gedreht")
        outcome = self.session.draw_chance()
        self.supply(outcome, drawn=True)
        return outcome - SPIN

    def supply(self, outcome: int, drawn: bool = False) -> None:
        """A spin from the sensor (SPIN + sector) or a report of the players."""
        if self.closed:
            raise IllegalActionError("Die Partie ist vorbei")
        self._note()
        super().supply(outcome, drawn)

    def play(self, seat: int, action: int, by_computer: bool = False) -> None:
        self._note()
        super().play(seat, action, by_computer)

    def report(self, swapped: bool, confirmed: bool = False) -> None:
        """Physical play: what the magnets did after a visit. A report that contradicts
        the earlier visits is refused (with the question) unless `confirmed`."""
        if self.closed or self.state.pending() != PENDING_REPORT:
            raise IllegalActionError("Kein Besuch wartet auf die Magnete")
        question = self.contradiction(swapped)
        if question is not None and not confirmed:
            raise IllegalActionError(question)
        self.enter(REPORT_SWAPPED if swapped else REPORT_TURNED_AWAY)

    def contradiction(self, swapped: bool) -> str | None:
        """The question to confirm when reporting `swapped` contradicts the earlier visits
        (after a confirmed contradiction: their likely groupings). It fits four lines of
        the panel above the soft keys for every pair of colours."""
        state = self.state
        if state.report_is_consistent(swapped):
            return None
        flyer, visited = state.flyer(), state.visited()
        assert flyer is not None and visited is not None
        return contradiction_question(flyer, visited, swapped)

    # --- what the screens ask ---------------------------------------------------
    def candidates(self) -> list[int]:
        """The beetles to step through: every other one on a visit, the flower's on a choice."""
        state = self.state
        if state.pending() == PENDING_CHOOSE:
            return state.beetles_on_flower()
        return [b for b in range(BEETLES) if b != state.flyer()]

    def allowed(self) -> list[int]:
        """The beetles the rules let the player pick now."""
        state = self.state
        if state.pending() == PENDING_CHOOSE:
            return state.beetles_on_flower()
        return state.visit_targets()

    def swap_chance(self, flyer: int, beetle: int) -> float:
        """The share of the groupings the visits so far leave likely in which `flyer` and
        `beetle` swap (0: they are known to turn away; what the players could know)."""
        likely = self.state.likely_groupings()
        return sum(1 for g in likely if not same_group(g, flyer, beetle)) / len(likely)

    def preselect(self) -> int:
        """The beetle a decision starts on: the allowed visit most likely to swap (never
        one known to turn away while another may swap); on an empty petal the flyer with
        the best such visit; the first of equals."""
        state = self.state
        allowed = self.allowed()
        if not allowed:
            return self.candidates()[0]
        if state.pending() == PENDING_CHOOSE:
            def best_visit(flyer: int) -> float:
                others = [b for b in state.beetles_on_flower() if b != flyer]
                chances = [self.swap_chance(flyer, b) for b in others
                           if not state.has_swapped(flyer, b)]  # fmt: skip
                return max(chances, default=0.0)

            return max(allowed, key=lambda b: (best_visit(b), -b))
        flyer = state.flyer()
        assert flyer is not None
        return max(allowed, key=lambda b: (self.swap_chance(flyer, b), -b))

    def pick(self, beetle: int) -> int:
        """The action that picks `beetle` now: fly (an empty petal) or visit."""
        return (FLY if self.state.pending() == PENDING_CHOOSE else VISIT) + beetle

    def can_go_home(self) -> bool:
        return HOME in self.state.legal_actions()

    def refusal(self, action: int) -> str | None:
        """Why the rules forbid `action` now, in the players' words (None: allowed)."""
        if action in self.state.legal_actions():
            return None
        return self.state.explain_illegal(action)

    def advice(self, rng: random.Random) -> Callable[[], Tips]:
        """Tips for the pending decision (setting maskenball.tips), as work for off the loop:
        the position is taken now; the work draws from `rng` alone, never the record."""
        from spielleiter.games.maskenball.tips import tips

        view = self.state.view(self.state.seat())
        games = int(self.host.settings().get("bot.playouts", 2000))
        return partial(tips, view, games=games, seed=rng.getrandbits(32))

    def spins(self, state: State | None = None) -> int:
        """How often the arrow was spun (spin results are the actions below SECTORS)."""
        state = self.state if state is None else state
        return sum(1 for a in state.history() if SPIN <= a < SPIN + SECTORS)

    def points(self, state: State | None = None) -> int:
        """Bestenliste points of the match: 10 + the vine fields still free when won, else 0."""
        state = self.state if state is None else state
        assert isinstance(state, MaskenballState)
        if not state.won():
            return 0
        return WIN_POINTS + int(state.game.params["vine"]) - state.vine()

    # --- news ---------------------------------------------------------------------
    def _note(self) -> None:
        """What the news needs of the position before an action: flyer, ball, reports."""
        state = self.state
        self._before = (state.flyer(), len(state.ball()), len(state.reports()))
        if state.pending() == PENDING_SPIN:
            self.spinner_seat = state.seat()

    def moved(self, seat: int, action: int, by_computer: bool) -> None:
        """Say what the action did: a flight, an ant, a swap, a turn-away, who went to the ball."""
        state = self.state
        flyer, ball, reports = self._before
        if SPIN <= action < SPIN + SECTORS:
            if not is_petal(action):
                where = "den Baumstumpf" if state.stump() else "die Ranke"
                self.news = f"Ameise auf {where}"
            elif state.pending() == PENDING_CHOOSE:
                self.news = f"{COLOURS[petal_of(action)]} ist auf dem Ball: wähle"
            else:
                self.news = f"{COLOURS[petal_of(action)]} fliegt los"
        elif FLY <= action < FLY + BEETLES:
            self.news = f"{COLOURS[action - FLY]} fliegt los"
        elif action == HOME and flyer is not None:
            self.news = f"{COLOURS[flyer]} fliegt heim"
        elif len(state.reports()) > reports:
            a, b, swapped = state.reports()[-1]
            self.news = visit_news(a, b, swapped, state.ball()[ball:])
        else:
            self.news = ""  # a visit waiting for the players' report

    # --- the end ------------------------------------------------------------------
    def awards(self, state: State) -> list[Award]:
        """One line for the whole table, named by its size ("4 Spieler")."""
        assert isinstance(state, MaskenballState)
        players = int(state.game.params["players"])
        return [Award(f"{players} Spieler", self.points(state), wins=int(state.won()))]

    def end_meta(self, state: State) -> dict[str, Any]:
        assert isinstance(state, MaskenballState)
        return {"won": state.won(), "spins": self.spins(state)}


def visit_news(flyer: int, visited: int, swapped: bool, to_ball: list[int]) -> str:
    """What a visit did, in one news line: who swapped or turned away, and who went to the
    ball. Colour names where they fit, else the petal letters for the pair."""
    if not swapped:
        return f"{COLOURS[flyer]}-{COLOURS[visited]}: weggedreht"
    ball = ""
    if len(to_ball) == 1:
        ball = f" {COLOURS[to_ball[0]]} zum Ball!"
    elif to_ball:
        ball = " Beide zum Ball!"
    news = f"Tausch {COLOURS[flyer]}-{COLOURS[visited]}!{ball}"
    if len(news) <= NEWS_CHARS:
        return news
    return f"Tausch {COLOUR_CODES[flyer]}-{COLOUR_CODES[visited]}!{ball}"
