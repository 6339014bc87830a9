"""Maskenball der Käfer: the cooperative beetle ball (rule text maskenball-der-kaefer.de.txt).

Eight beetles sit on the eight petals of a flower, each wearing five dots of its
petal's colour. Hidden magnets split them into two groups of four: a beetle that
visits one of the other group swaps a dot with it, one of its own group turns away.
A beetle with five different colours goes to the ball. Leaves send ants over the
tree stump onto the vine; all eight beetles at the ball win, the seventh ant on the
vine loses.

Two modes share one engine:

* ``"digital"``: a chance action at the start draws the grouping (one of the 35
  splits into 4/4) and the engine decides every visit itself.
* ``"physical"``: the real magnets decide; after each visit the players report what
  happened (a chance-like REPORT action). The engine learns the groups from the
  reports (:func:`consistent_groupings`) and flags a report that contradicts them
  (:meth:`MaskenballState.report_is_consistent`) so the screen can ask again.

Action encoding (small integers, one range per kind):

====================  =========  =============================================
action                value      who
====================  =========  =============================================
spin result, sector   0..15      chance; even = petal s//2, odd = leaf
choose a flyer        16..23     player, when the spun petal is empty
visit beetle b        24..31     player
fly home              32         player, after a swap
report: turned away   33         chance (physical mode), after a visit
report: swapped       34         chance (physical mode), after a visit
grouping g            40..74     chance (digital mode), the first action
====================  =========  =============================================

Example::

    >>> game = MaskenballGame({"mode": "physical"})
    >>> state = game.new_initial_state()
    >>> state.apply_action(SPIN + 0)          # the arrow points at petal 1
    >>> state.pending()
    'visit'
    >>> state.apply_action(VISIT + 4)         # Rot visits Blau
    >>> state.apply_action(REPORT_SWAPPED)
    >>> state.dots(0)[4], state.dots(4)[0]
    (1, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations
from typing import Any

from spielleiter.games.base import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalActionError,
    ParameterError,
    State,
    one_of,
    refused,
    whole_number,
)
from spielleiter.games.maskenball.info import INFO
from spielleiter.texts import T

BEETLES = 8
"""Beetles, petals and colours: beetle b starts on petal b wearing colour b."""
SECTORS = 16
"""Spinner sectors: petal i is sector 2*i, the leaf after it is sector 2*i + 1."""
DOTS = 5
"""Dots on each beetle; five different colours send it to the ball."""
ANTS = 7
"""Ants, and fields on the vine."""

COLOURS: tuple[str, ...] = ("Rot", "Orange", "Gelb", "Türkis", "Blau", "Lila", "Pink", "Weiß")
"""German colour names of the petals (and of the beetle that starts there)."""
COLOUR_CODES: tuple[str, ...] = ("R", "O", "G", "T", "B", "L", "P", "W")
"""One distinct letter per colour for the monochrome panel."""

SPIN = 0
FLY = 16
VISIT = 24
HOME = 32
REPORT_TURNED_AWAY = 33
REPORT_SWAPPED = 34
GROUPING = 40

DIGITAL = "digital"
PHYSICAL = "physical"

# Places of a beetle.
ON_PETAL = "petal"
FLYING = "flying"
AT_BALL = "ball"

# What the game waits for (pending()).
PENDING_GROUPING = "grouping"
PENDING_SPIN = "spin"
PENDING_CHOOSE = "choose"
PENDING_VISIT = "visit"
PENDING_VISIT_OR_HOME = "visit_or_home"
PENDING_REPORT = "report"
PENDING_OVER = "over"


def is_petal(sector: int) -> bool:
    """Whether a spinner sector is a petal (even sectors) rather than a leaf."""
    return sector % 2 == 0


def petal_of(sector: int) -> int:
    """The petal (and beetle) index of a petal sector."""
    return sector // 2


@cache
def groupings() -> tuple[int, ...]:
    """The 35 ways to split 8 beetles into 4/4, as bit masks of the group holding beetle 0."""
    return tuple(
        1 | sum(1 << b for b in rest) for rest in combinations(range(1, BEETLES), BEETLES // 2 - 1)
    )


def same_group(grouping: int, a: int, b: int) -> bool:
    """Whether beetles a and b share a group in grouping index `grouping`."""
    mask = groupings()[grouping]
    return bool(mask >> a & 1) == bool(mask >> b & 1)


Report = tuple[int, int, bool]
"""(beetle a, beetle b, swapped): what one visit showed."""


def consistent_groupings(reports: Iterable[Report]) -> list[int]:
    """The grouping indexes (0..34) that agree with every report; empty on a contradiction."""
    reports = list(reports)
    return [
        g
        for g in range(len(groupings()))
        if all(same_group(g, a, b) != swapped for a, b, swapped in reports)
    ]


def likely_groupings(reports: Iterable[Report]) -> list[int]:
    """The groupings that agree with every report; after a confirmed contradiction (none
    agrees with all), those that break the fewest reports."""
    reports = list(reports)
    breaks = [
        sum(same_group(g, a, b) == swapped for a, b, swapped in reports)
        for g in range(len(groupings()))
    ]
    return [g for g, n in enumerate(breaks) if n == min(breaks)]


def report_is_consistent(reports: Iterable[Report], a: int, b: int, swapped: bool) -> bool:
    """Whether a new report (a, b, swapped) fits at least one of the likely groupings of
    the earlier reports (all that agree with them, or after a confirmed contradiction
    those that break the fewest): a contradiction once confirmed is not asked again."""
    return any(same_group(g, a, b) != swapped for g in likely_groupings(reports))


def default_sector_probabilities() -> list[float]:
    """Equal widths: each of the SECTORS sectors 1/SECTORS."""
    return [1.0 / SECTORS] * SECTORS


class MaskenballGame(Game):
    """Maskenball der Käfer with its parameters (mode, seats, sector probabilities)."""

    info = INFO

    @classmethod
    def default_params(cls) -> dict[str, Any]:
        return {
            "players": 2,
            "mode": DIGITAL,
            "sector_probabilities": default_sector_probabilities(),
            "vine": ANTS,
        }

    def validate_params(self) -> None:
        p = self.params
        if p["mode"] not in (DIGITAL, PHYSICAL):
            raise refused(INFO.name, "mode", one_of((DIGITAL, PHYSICAL)))
        probs = p["sector_probabilities"]
        if len(probs) != SECTORS or any(float(x) <= 0 for x in probs):
            raise ParameterError(
                T("{game}: {count} positive sector probabilities", game=INFO.name, count=SECTORS)
            )
        if abs(sum(float(x) for x in probs) - 1.0) > 1e-6:
            raise ParameterError(T("{game}: sector probabilities must sum to 1", game=INFO.name))
        if not 1 <= int(p["vine"]) <= ANTS:
            raise refused(INFO.name, "vine", whole_number(1, ANTS))

    @property
    def mode(self) -> str:
        return str(self.params["mode"])

    def new_initial_state(self) -> MaskenballState:
        return MaskenballState(self)

    def action_to_string(self, player: int, action: int) -> str:
        return action_name(action)


WAITING = {
    PENDING_GROUPING: "erst werden die Magnete verteilt",
    PENDING_SPIN: "jetzt wird gedreht",
    PENDING_CHOOSE: "jetzt fliegt ein Käfer los",
    PENDING_VISIT: "jetzt besucht der Käfer einen anderen",
    PENDING_VISIT_OR_HOME: "jetzt besucht der Käfer einen anderen oder fliegt heim",
    PENDING_REPORT: "jetzt wird gesagt, ob sie getauscht haben",
    PENDING_OVER: "das Spiel ist vorbei",
}
"""What the game waits for, in the players' words (pending() -> words)."""


def action_name(action: int) -> str:
    """A short German name for an action (for logs and the screen)."""
    if SPIN <= action < SPIN + SECTORS:
        if is_petal(action):
            return f"Blütenblatt {COLOURS[petal_of(action)]}"
        return "Blatt"
    if FLY <= action < FLY + BEETLES:
        return f"Käfer {COLOURS[action - FLY]} fliegt"
    if VISIT <= action < VISIT + BEETLES:
        return f"Besuch bei {COLOURS[action - VISIT]}"
    if action == HOME:
        return "Heimflug"
    if action == REPORT_TURNED_AWAY:
        return "Weggedreht"
    if action == REPORT_SWAPPED:
        return "Getauscht"
    if GROUPING <= action < GROUPING + len(groupings()):
        return "Magnete verteilt"
    return str(action)


class MaskenballState(State):
    """A position of Maskenball der Käfer; every seat sees it all except the magnets."""

    game: MaskenballGame

    def __init__(self, game: MaskenballGame) -> None:
        super().__init__(game)
        self._dots = [[DOTS if c == b else 0 for c in range(BEETLES)] for b in range(BEETLES)]
        self._at_ball = [False] * BEETLES
        self._ball_order: list[int] = []
        self._reports: list[Report] = []
        self._grouping: int | None = None
        self._seat = 0
        self._stump = 0
        self._vine = 0
        self._last_spin: int | None = None
        self._flyer: int | None = None
        self._visited: int | None = None
        self._swaps_this_flight = 0
        self._pending = PENDING_GROUPING if game.mode == DIGITAL else PENDING_SPIN
        self._won = False
        self._lost = False

    # --- whose move -------------------------------------------------------
    def current_player(self) -> int:
        if self._pending == PENDING_OVER:
            return TERMINAL
        if self._pending in (PENDING_GROUPING, PENDING_SPIN, PENDING_REPORT):
            return CHANCE
        return self._seat

    def pending(self) -> str:
        """What the game waits for: grouping, spin, choose, visit, visit_or_home, report, over."""
        return self._pending

    def seat(self) -> int:
        """The seat whose turn it is (the spinner)."""
        return self._seat

    # --- moves -----------------------------------------------------------
    def legal_actions(self) -> list[int]:
        p = self._pending
        if p == PENDING_GROUPING:
            return [GROUPING + g for g in range(len(groupings()))]
        if p == PENDING_SPIN:
            return [SPIN + s for s in range(SECTORS)]
        if p == PENDING_CHOOSE:
            return [FLY + b for b in self.beetles_on_flower()]
        if p in (PENDING_VISIT, PENDING_VISIT_OR_HOME):
            visits = [VISIT + b for b in self.visit_targets()]
            if p == PENDING_VISIT_OR_HOME or not visits:
                visits.append(HOME)
            return visits
        if p == PENDING_REPORT:
            return [REPORT_TURNED_AWAY, REPORT_SWAPPED]
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = self._pending
        if p == PENDING_GROUPING:
            n = len(groupings())
            return [(GROUPING + g, 1.0 / n) for g in range(n)]
        if p == PENDING_SPIN:
            probs = [float(x) for x in self.game.params["sector_probabilities"]]
            total = sum(probs)
            return [(SPIN + s, x / total) for s, x in enumerate(probs)]
        if p == PENDING_REPORT:
            swap = self.swap_probability()
            return [(REPORT_TURNED_AWAY, 1.0 - swap), (REPORT_SWAPPED, swap)]
        raise IllegalActionError("not a chance node")

    def explain_illegal(self, action: int) -> str:
        p = self._pending
        if p in (PENDING_VISIT, PENDING_VISIT_OR_HOME) and VISIT <= action < VISIT + BEETLES:
            b = action - VISIT
            if b == self._flyer:
                return "Ein Käfer kann sich nicht selbst besuchen"
            if self._at_ball[b]:
                return f"{COLOURS[b]} ist schon auf dem Ball"
            return f"Mit {COLOURS[b]} wurde schon getauscht"
        if p == PENDING_VISIT and action == HOME:
            return "Der Käfer muss erst einen anderen besuchen"
        if p == PENDING_CHOOSE and FLY <= action < FLY + BEETLES:
            return f"{COLOURS[action - FLY]} ist schon auf dem Ball"
        what = action_name(action) if action_name(action) != str(action) else "Dieser Zug"
        return f"{what} ist jetzt nicht möglich: {WAITING[p]}"

    def _apply(self, action: int) -> None:
        p = self._pending
        if p == PENDING_GROUPING:
            self._grouping = action - GROUPING
            self._pending = PENDING_SPIN
        elif p == PENDING_SPIN:
            self._spin(action - SPIN)
        elif p == PENDING_CHOOSE:
            self._take_off(action - FLY)
        elif action == HOME:
            self._end_turn()
        elif p == PENDING_REPORT:
            self._resolve_visit(action == REPORT_SWAPPED)
        else:
            self._visited = action - VISIT
            if self.game.mode == PHYSICAL:
                self._pending = PENDING_REPORT
            else:
                assert self._grouping is not None and self._flyer is not None
                self._resolve_visit(not same_group(self._grouping, self._flyer, self._visited))

    def _spin(self, sector: int) -> None:
        self._last_spin = sector
        if not is_petal(sector):
            self._ant_moves()
            return
        beetle = petal_of(sector)
        if self._at_ball[beetle]:
            self._pending = PENDING_CHOOSE
        else:
            self._take_off(beetle)

    def _ant_moves(self) -> None:
        """A leaf: a new ant onto the empty stump, or the stump's ant onto the vine."""
        if self._stump:
            self._stump = 0
            self._vine += 1
            if self._vine >= int(self.game.params["vine"]):
                self._lost = True
                self._pending = PENDING_OVER
                return
        else:
            self._stump = 1
        self._next_seat()

    def _take_off(self, beetle: int) -> None:
        self._flyer = beetle
        self._swaps_this_flight = 0
        self._pending = PENDING_VISIT

    def _resolve_visit(self, swapped: bool) -> None:
        flyer, visited = self._flyer, self._visited
        assert flyer is not None and visited is not None
        self._reports.append((flyer, visited, swapped))
        self._visited = None
        if not swapped:
            self._end_turn()
            return
        self._swap(flyer, visited)
        self._swaps_this_flight += 1
        if self._colour_count(visited) == DOTS:
            self._to_ball(visited)
        if self._colour_count(flyer) == DOTS:
            self._to_ball(flyer)
            self._end_turn()
            return
        self._pending = PENDING_VISIT_OR_HOME

    def _swap(self, a: int, b: int) -> None:
        """Each gives one dot of its own petal colour: the only one of the two it holds twice.

        Colour c moves only in swaps with beetle c, so a beetle that has not swapped with
        the other holds none of the other's colour; and a beetle on the flower has swapped
        at most three times, so it holds its own colour at least twice.
        """
        for giver, taker in ((a, b), (b, a)):
            if self._dots[giver][giver] <= 1:
                raise IllegalActionError(f"{COLOURS[giver]} hat keine Farbe doppelt")
            self._dots[giver][giver] -= 1
            self._dots[taker][giver] += 1

    def _to_ball(self, beetle: int) -> None:
        self._at_ball[beetle] = True
        self._ball_order.append(beetle)
        if all(self._at_ball):
            self._won = True

    def _end_turn(self) -> None:
        self._flyer = None
        self._visited = None
        if self._won:
            self._pending = PENDING_OVER
            return
        self._next_seat()

    def _next_seat(self) -> None:
        self._seat = (self._seat + 1) % self.game.num_players
        self._pending = PENDING_SPIN

    # --- what the rules need --------------------------------------------
    def _colour_count(self, beetle: int) -> int:
        return sum(1 for n in self._dots[beetle] if n > 0)

    def beetles_on_flower(self) -> list[int]:
        """Beetles not at the ball (on their petal or flying)."""
        return [b for b in range(BEETLES) if not self._at_ball[b]]

    def has_swapped(self, a: int, b: int) -> bool:
        """Whether a and b have swapped: a wears b's colour (and b wears a's)."""
        return self._dots[a][b] > 0 or self._dots[b][a] > 0

    def visit_targets(self) -> list[int]:
        """Beetles the flyer may visit: on the flower and not yet swapped with."""
        if self._flyer is None:
            return []
        f = self._flyer
        return [b for b in self.beetles_on_flower() if b != f and not self.has_swapped(f, b)]

    # --- what the players learnt ------------------------------------------
    def reports(self) -> list[Report]:
        """Every visit so far as (flyer, visited, swapped)."""
        return list(self._reports)

    def consistent_groupings(self) -> list[int]:
        """Groupings that agree with every visit so far (empty after a contradiction)."""
        return consistent_groupings(self._reports)

    def report_is_consistent(self, swapped: bool) -> bool:
        """Whether reporting `swapped` for the pending visit agrees with what was learnt."""
        if self._pending != PENDING_REPORT:
            raise IllegalActionError("no visit waits for a report")
        assert self._flyer is not None and self._visited is not None
        return report_is_consistent(self._reports, self._flyer, self._visited, swapped)

    def likely_groupings(self) -> list[int]:
        """The groupings that agree with every visit, or after a confirmed contradiction
        those that break the fewest reports (see :func:`likely_groupings`)."""
        return likely_groupings(self._reports)

    def swap_probability(self) -> float:
        """The share of the likely groupings in which the pending visit swaps."""
        a, b = self._flyer, self._visited
        assert a is not None and b is not None
        gs = self.likely_groupings()
        return sum(1 for g in gs if not same_group(g, a, b)) / len(gs)

    # --- what the screen shows ------------------------------------------
    def dots(self, beetle: int) -> list[int]:
        """The beetle's dots per colour (index = colour)."""
        return list(self._dots[beetle])

    def place(self, beetle: int) -> str:
        """Where the beetle is: "petal", "flying" or "ball"."""
        if self._at_ball[beetle]:
            return AT_BALL
        if beetle == self._flyer:
            return FLYING
        return ON_PETAL

    def partners(self, beetle: int) -> list[int]:
        """The beetles it has swapped with."""
        return [b for b in range(BEETLES) if b != beetle and self.has_swapped(beetle, b)]

    def flyer(self) -> int | None:
        """The beetle in flight, if any."""
        return self._flyer

    def visited(self) -> int | None:
        """The beetle whose visit waits for a report (physical mode)."""
        return self._visited

    def stump(self) -> int:
        """Ants on the tree stump (0 or 1)."""
        return self._stump

    def vine(self) -> int:
        """Ants on the vine."""
        return self._vine

    def ants_in_supply(self) -> int:
        return ANTS - self._stump - self._vine

    def last_spin(self) -> int | None:
        """The last spinner sector (0..15), or None before the first spin."""
        return self._last_spin

    def ball(self) -> list[int]:
        """Beetles at the ball, in the order they arrived."""
        return list(self._ball_order)

    def won(self) -> bool:
        return self._won

    def lost(self) -> bool:
        return self._lost

    # --- results ---------------------------------------------------------
    def returns(self) -> list[float]:
        value = 1.0 if self._won else -1.0 if self._lost else 0.0
        return [value] * self.game.num_players

    def secret_actions(self) -> list[int]:
        """The magnet groups the box drew (digital play: the first action) until the end."""
        drawn = self.game.mode == DIGITAL and bool(self._history)
        return [0] if drawn and not self.is_terminal() else []

    def view(self, seat: int) -> dict[str, Any]:
        """Everything on the table and every visit's outcome; never the drawn grouping."""
        return {
            "mode": self.game.mode,
            "seat": self._seat,
            "pending": self._pending,
            "current_player": self.current_player(),
            "dots": [list(d) for d in self._dots],
            "places": [self.place(b) for b in range(BEETLES)],
            "partners": [self.partners(b) for b in range(BEETLES)],
            "reports": [list(r) for r in self._reports],
            "flyer": self._flyer,
            "visited": self._visited,
            "stump": self._stump,
            "vine": self._vine,
            "vine_fields": int(self.game.params["vine"]),
            "last_spin": self._last_spin,
            "ball": list(self._ball_order),
            "sector_probabilities": [float(x) for x in self.game.params["sector_probabilities"]],
            "legal_actions": self.legal_actions(),
            "won": self._won,
            "lost": self._lost,
        }


def colour_letters(counts: Sequence[int]) -> str:
    """A beetle's dots as letters, one per dot (e.g. "RRRBT") for the monochrome panel."""
    return "".join(COLOUR_CODES[c] * n for c, n in enumerate(counts))
