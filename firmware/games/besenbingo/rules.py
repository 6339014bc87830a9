"""Besenbingo: the rule engine of one Durchgang (rule text besenbingo.de.txt).

Chance: first the silent tower (stiller Turm) is set aside unseen, then seven
towers are revealed one at a time. After each reveal every seat takes its turn on
its own template, in seat order (the seats never interact).

Actions of a seat: `cell * 4 + row` lets the witch at grid cell `cell` (0..15,
row-major) land and crosses the next field of score-bar row `row` (0 hexe,
1 copilot, 2 paar, 3 kombi); MINUS crosses the next minus field and no witch lands.
Chance actions are tower numbers 1..8 (the first one is the silent tower).

Example::

    >>> game = BesenbingoGame({"players": 1})
    >>> state = game.new_initial_state()
    >>> for a in (8, 3):  # tower 8 is set aside silently, tower 3 revealed
    ...     state.apply_action(a)
    >>> state.current_player()
    0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from spielleiter.games.base import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalActionError,
    ParameterError,
    State,
    ranks,
)
from spielleiter.games.besenbingo.info import INFO, REVEALS
from spielleiter.games.besenbingo.templates import (
    ROWS,
    TOWERS,
    Template,
    TemplateError,
    retired_templates,
    template_by_name,
    validate_template,
)
from spielleiter.texts import T, around

MINUS = 64
"""The action that crosses the next minus field (no witch lands)."""
ROW_TITLES = {"hexe": "Hexe", "copilot": "Copilot", "paar": "Paar", "kombi": "Kombi"}

Progress = tuple[int, int, int, int, int]
"""Crossed fields per score-bar row: hexe, copilot, paar, kombi, minus."""


def encode(cell: int, row: str) -> int:
    """The action landing the witch at `cell` and crossing row `row`."""
    return cell * 4 + ROWS.index(row)


def decode(action: int) -> tuple[int, str]:
    """(cell, row name) of a landing action (not MINUS)."""
    return action // 4, ROWS[action % 4]


# --- the rules of one turn, shared by the engine and the bots -------------------


def row_options(template: Template, cell: int, progress: Progress) -> list[tuple[int, int]]:
    """(row index, gain) of each row the witch at `cell` may cross, by the rules.

    Among hexe, copilot and paar only the most valuable fitting rows may be taken
    (equal values: the player chooses); the kombi row's next field may always be
    taken instead. The kombi gain is its value when its second field is crossed.
    """
    field = template.witch_field(cell)
    if field is None:
        return []
    fitting = []
    for r in range(3):
        fields = template.row(ROWS[r])
        if progress[r] < len(fields) and fields[progress[r]].fits(field):
            fitting.append((r, fields[progress[r]].value))
    best = max((gain for _, gain in fitting), default=None)
    options = [(r, gain) for r, gain in fitting if gain == best]
    k = progress[3]
    if k < 2 and template.kombi[k].fits(field):
        options.append((3, template.kombi_value if k == 1 else 0))
    return options


def turn_options(
    template: Template, crossed: frozenset[int], progress: Progress, tower: int
) -> list[tuple[int, int]]:
    """(action, gain) of every legal move at `tower`; only MINUS when no witch can land."""
    options = [
        (cell * 4 + r, gain)
        for cell in template.neighbours(tower)
        if cell not in crossed
        for r, gain in row_options(template, cell, progress)
    ]
    if options:
        return sorted(options)
    return [(MINUS, template.minus[progress[4]])]


def advance(progress: Progress, action: int) -> Progress:
    """The row progress after an action."""
    r = 4 if action == MINUS else action % 4
    return progress[:r] + (progress[r] + 1,) + progress[r + 1 :]  # type: ignore[return-value]


def score(template: Template, progress: Progress) -> int:
    """Points of a sheet: every crossed field's value; the kombi only when both are crossed."""
    total = sum(f.value for r in range(3) for f in template.row(ROWS[r])[: progress[r]])
    total += template.kombi_value if progress[3] == 2 else 0
    return total + sum(template.minus[: progress[4]])


@dataclass
class Sheet:
    """One seat's Bingo-Vorlage as filled in so far."""

    template: Template
    crossed: frozenset[int] = frozenset()
    """Grid cells of witches that have landed."""
    progress: Progress = (0, 0, 0, 0, 0)
    moves: tuple[int, ...] = ()

    @property
    def score(self) -> int:
        return score(self.template, self.progress)

    def to_json(self) -> dict[str, Any]:
        return {
            "template": self.template.name,
            "crossed": sorted(self.crossed),
            "bar": dict(zip((*ROWS, "minus"), self.progress, strict=True)),
            "moves": list(self.moves),
            "score": self.score,
        }


# --- the game ------------------------------------------------------------------


class BesenbingoGame(Game):
    """One Durchgang of Besenbingo for 1 to 9 sheets."""

    info = INFO

    @classmethod
    def default_params(cls) -> dict[str, Any]:
        return {"players": 2, "templates": None}

    def validate_params(self) -> None:
        self.templates = self._resolve(self.params["templates"], self.params["players"])

    @staticmethod
    def _resolve(entries: Sequence[Any] | None, players: int) -> list[Template]:
        if entries is None:
            # Records made before the retired templates were replaced name none (paper
            # play's stand-in sheet): they replay on the templates they were played on.
            first = retired_templates()
            return [first[i % len(first)] for i in range(players)]
        if not isinstance(entries, Sequence) or len(entries) != players:
            raise ParameterError(T("{game}: templates needs one template per seat", game=INFO.name))
        result = []
        for i, entry in enumerate(entries):
            try:
                if isinstance(entry, str):
                    result.append(template_by_name(entry))
                else:
                    result.append(validate_template(entry))
            except TemplateError as exc:
                where = f"templates[{i}]: {exc.path}" if exc.path else f"templates[{i}]"
                raise ParameterError(
                    around("{game}: {path}: {why}", exc.message, game=INFO.name, path=where)
                ) from exc
        names = [t.name for t in result]
        if len(set(names)) != len(names):
            raise ParameterError(
                T("{game}: the templates are all different (rule text)", game=INFO.name)
            )
        return result

    def new_initial_state(self) -> BesenbingoState:
        return BesenbingoState(self)

    def action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            return f"Turm {action}"
        if action == MINUS:
            return "Minusfeld"
        cell, row = decode(action)
        field = self.templates[player].witch_field(cell)
        who = f"{field.witch}/{field.copilot}" if field else f"Feld {cell}"
        return f"{who} → {ROW_TITLES[row]}"


class BesenbingoState(State):
    """A Durchgang in progress: the tower deck and every seat's sheet."""

    game: BesenbingoGame

    def __init__(self, game: BesenbingoGame) -> None:
        super().__init__(game)
        self._silent: int | None = None
        self._revealed: list[int] = []
        self._seat = 0
        """The seat to move after the latest reveal; players() when all have moved."""
        self.sheets = [Sheet(t) for t in game.templates]

    # --- whose move -------------------------------------------------------
    def current_player(self) -> int:
        if self._silent is None or not self._revealed:
            return CHANCE
        if self._seat < len(self.sheets):
            return self._seat
        return CHANCE if len(self._revealed) < REVEALS else TERMINAL

    # --- chance -----------------------------------------------------------
    def towers_left(self) -> list[int]:
        """Towers not revealed yet (the silent one among them until the end)."""
        return [t for t in TOWERS if t not in self._revealed]

    def _deck(self) -> list[int]:
        return [t for t in self.towers_left() if t != self._silent]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            raise IllegalActionError("not a chance node")
        deck = list(TOWERS) if self._silent is None else self._deck()
        return [(t, 1.0 / len(deck)) for t in deck]

    def secret_actions(self) -> list[int]:
        """The silent tower (the first action) until the Durchgang is over."""
        return [0] if self._silent is not None and not self.is_terminal() else []

    # --- moves ------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        player = self.current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [t for t, _ in self.chance_outcomes()]
        return [a for a, _ in self._options(player)]

    def _options(self, seat: int) -> list[tuple[int, int]]:
        sheet = self.sheets[seat]
        return turn_options(sheet.template, sheet.crossed, sheet.progress, self.current_tower)

    def _apply(self, action: int) -> None:
        player = self.current_player()
        if player == CHANCE:
            if self._silent is None:
                self._silent = action
            else:
                self._revealed.append(action)
                self._seat = 0
            return
        sheet = self.sheets[player]
        if action != MINUS:
            sheet.crossed = sheet.crossed | {action // 4}
        sheet.progress = advance(sheet.progress, action)
        sheet.moves = (*sheet.moves, action)
        self._seat += 1

    def explain_illegal(self, action: int, lang: str = "de") -> str:
        """Why `action` is not legal now, in German (lang="de") or English ("en")."""
        text = _REASONS[lang]
        player = self.current_player()
        if player == TERMINAL:
            return text["over"]
        if player == CHANCE:
            if action not in TOWERS:
                return text["no_tower"].format(action)
            if self._silent is not None and action not in self._deck():
                return text["tower_gone"].format(action)
            return text["generic"]
        sheet = self.sheets[player]
        tower = self.current_tower
        options = [a for a, _ in self._options(player)]
        if action in options:
            return text["legal"]
        if action == MINUS:
            return text["minus"]
        if options == [MINUS]:
            return text["must_minus"].format(tower)
        if not 0 <= action < MINUS:
            return text["generic"]
        cell, row = decode(action)
        field = sheet.template.witch_field(cell)
        if field is None:
            return text["tower_cell"]
        if cell not in sheet.template.neighbours(tower):
            return text["not_adjacent"].format(field.witch, tower)
        if cell in sheet.crossed:
            return text["landed"].format(field.witch)
        r = ROWS.index(row)
        fields = sheet.template.row(row)
        if sheet.progress[r] >= len(fields):
            return text["full"].format(ROW_TITLES[row])
        nxt = fields[sheet.progress[r]]
        if not nxt.fits(field):
            return text["no_fit"].format(field.witch, field.copilot, ROW_TITLES[row])
        # The move is illegal though its row fits: only hexe, copilot and paar compete on
        # value (the kombi row never forbids one), so a more valuable one of them fits.
        rows = row_options(sheet.template, cell, sheet.progress)
        best, gain = max(((r, g) for r, g in rows if r < 3), key=lambda o: o[1])
        return text["better"].format(ROW_TITLES[ROWS[best]], gain, nxt.value)

    # --- what the seats and the screens see --------------------------------
    @property
    def revealed(self) -> list[int]:
        """The revealed towers in order."""
        return list(self._revealed)

    @property
    def current_tower(self) -> int:
        """The latest revealed tower (0 before the first reveal)."""
        return self._revealed[-1] if self._revealed else 0

    @property
    def silent_tower(self) -> int | None:
        """The silent tower, known to the seats only once the game is over."""
        return self._silent if self.is_terminal() else None

    def scores(self) -> list[int]:
        """Each seat's running score."""
        return [s.score for s in self.sheets]

    def returns(self) -> list[float]:
        return [float(s) for s in self.scores()]

    def places(self) -> list[int]:
        """Each seat's place by score; ties share the place (1, 1, 3)."""
        scores = self.scores()
        return ranks(scores)

    def choices(self, seat: int) -> list[dict[str, Any]]:
        """The moves open to `seat` at the current tower, for the screen, with words."""
        if self.current_player() != seat:
            return []
        template = self.sheets[seat].template
        result = []
        for action, gain in self._options(seat):
            if action == MINUS:
                result.append(
                    {"action": action, "row": "minus", "gain": gain, "text": "Minusfeld streichen"}
                )
                continue
            cell, row = decode(action)
            field = template.witch_field(cell)
            assert field is not None
            result.append(
                {
                    "action": action,
                    "cell": cell,
                    "witch": field.witch,
                    "copilot": field.copilot,
                    "row": row,
                    "gain": gain,
                    "text": f"{field.witch} mit {field.copilot} landet → Reihe {ROW_TITLES[row]}",
                }
            )
        return result

    def view(self, seat: int) -> dict[str, Any]:
        return {
            "seat": seat,
            "players": len(self.sheets),
            "to_move": self.current_player(),
            "template": self.sheets[seat].template.to_json(),
            "revealed": self.revealed,
            "towers_left": self.towers_left(),
            "current_tower": self.current_tower,
            "silent_tower": self.silent_tower,
            "sheets": [s.to_json() for s in self.sheets],
            "scores": self.scores(),
            "choices": self.choices(seat),
        }


_REASONS: dict[str, dict[str, str]] = {
    "de": {
        "over": "Das Spiel ist vorbei.",
        "no_tower": "Türme gibt es nur von 1 bis 8.",
        "tower_gone": "Turm {} ist nicht mehr im Stapel.",
        "generic": "Dieser Zug ist jetzt nicht erlaubt.",
        "legal": "Dieser Zug ist erlaubt.",
        "minus": "Ein Minusfeld nur, wenn keine Hexe passend landen kann.",
        "must_minus": "Keine Hexe kann an Turm {} landen: das nächste Minusfeld streichen.",
        "tower_cell": "Dort steht ein Turm, keine Hexe.",
        "not_adjacent": "Diese Hexe ({}) grenzt nicht an Turm {}.",
        "landed": "{} ist schon gelandet.",
        "full": "Die Reihe {} ist schon voll.",
        "no_fit": "{} mit {} passt nicht zum nächsten Feld der Reihe {}.",
        "better": "Die Reihe {} bringt mehr Punkte ({} statt {}).",
    },
    "en": {
        "over": "The game is over.",
        "no_tower": "Towers are numbered 1 to 8 only.",
        "tower_gone": "Tower {} is no longer in the deck.",
        "generic": "This move is not allowed now.",
        "legal": "This move is allowed.",
        "minus": "A minus field only when no witch can land on a fitting field.",
        "must_minus": "No witch can land at tower {}: cross the next minus field.",
        "tower_cell": "That cell is a tower, not a witch.",
        "not_adjacent": "This witch ({}) is not next to tower {}.",
        "landed": "{} has landed already.",
        "full": "Row {} is full.",
        "no_fit": "{} with {} does not fit the next field of row {}.",
        "better": "Row {} is worth more ({} instead of {}).",
    },
}


def solo_beaten(previous_score: int | None, score: int) -> bool:
    """Whether a solo round topped the previous one (the first round always counts)."""
    return previous_score is None or score > previous_score
