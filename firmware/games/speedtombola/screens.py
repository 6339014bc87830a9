"""Speedtombola on the panel: the table, Rat, Info, the Tafel after each round, the standings.

The table: the other guests at the top (the next after you on the left), the
Gabentisch in the middle (the drum with its count, the open lot, the groschen on it),
your place at the bottom with the line that shows how your points change on Nehmen
and on "Nein danke". "You" is the human whose turn it is.
"""

from __future__ import annotations

from typing import Any

from spielleiter.games.speedtombola.rules import (
    Move,
    RoundResult,
    bestenliste_points,
    garnituren,
    lot_cost,
    lot_points,
)
from spielleiter.hal.keys import Key, KeyEvent
from spielleiter.session import Session
from spielleiter.ui.canvas import WIDTH, Canvas
from spielleiter.ui.fonts import LARGE, SMALL, TEXT, TINY
from spielleiter.ui.game_screen import GameScreen
from spielleiter.ui.screen import Screen, SoftKey
from spielleiter.ui.widgets import Confirm, Item

GAME = "speedtombola"
LEAVE_PENALTY = -10


def start(app: Any, session: Session) -> TableScreen:
    """The first screen of a new or resumed Speedtombola match."""
    return TableScreen(app, session)


def garnituren_text(lots: list[int]) -> str:
    """Garnituren as text, the counting lot in brackets: "[3]4 5 [12]"."""
    return " ".join(f"[{run[0]}]" + "".join(f" {x}" for x in run[1:]) for run in garnituren(lots))


def draw_garnituren(
    canvas: Canvas, x: int, y: int, lots: list[int], width: int = WIDTH, bottom: int = 54
) -> int:
    """Garnituren with a frame around each counting lot (the rule text's golden frame).

    Wraps onto further lines, in the small font, or the tiny one when the small one would
    run past `bottom`; returns the y below the last line.
    """
    for size, cw, lh in ((SMALL, 5, 9), (TINY, 4, 7)):
        lines = _layout_garnituren(lots, width, cw)
        if y + len(lines) * lh <= bottom + 1 or size == TINY:
            break
    for row, line in enumerate(lines):
        for dx, word, counting in line:
            yy = y + row * lh
            canvas.text((x + dx + 1, yy + 1), word, size)
            if counting:
                canvas.rect((x + dx, yy, x + dx + len(word) * cw + 1, yy + lh - 1), fill=None)
    return y + len(lines) * lh + 1


def _layout_garnituren(lots: list[int], width: int, cw: int) -> list[list[tuple[int, str, bool]]]:
    """Place each lot: lines of (x offset, text, is the counting lot); runs never split."""
    lines: list[list[tuple[int, str, bool]]] = [[]]
    cx = 0
    for run in garnituren(lots):
        need = sum(len(str(v)) * cw + 3 for v in run)
        if cx + need > width and cx > 0:
            lines.append([])
            cx = 0
        for i, value in enumerate(run):
            lines[-1].append((cx, str(value), i == 0))
            cx += len(str(value)) * cw + 3
        cx += 3
    return lines


def _name(session: Session, seat: int) -> str:
    return session.seats[seat].name


def short_name(name: str, chars: int) -> str:
    """A name cut to `chars`, keeping a trailing number ("Normal 3" -> "Nor3")."""
    if len(name) <= chars:
        return name
    head, _, number = name.rpartition(" ")
    if number.isdigit() and head and len(number) < chars:
        return head[: chars - len(number)] + number
    return name[:chars]


class TableScreen(GameScreen):
    """The Gabentisch: decisions by key, computers thinking in the background."""

    def __init__(self, app: Any, session: Session) -> None:
        super().__init__(app, session)
        humans = self.humans()
        self.you = humans[0] if humans else 0
        self.flash = ""
        self.hold_until: float | None = None
        self.deadline: float | None = None
        self.thinking: int | None = None

    # --- who is who --------------------------------------------------------
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.session.seats) if s.is_human]

    @property
    def solo(self) -> bool:
        """Rat exists only when one human plays against computers."""
        return len(self.humans()) == 1 and len(self.session.seats) > 1

    def human_to_move(self) -> bool:
        seat = self.state.current_player()
        return 0 <= seat < len(self.session.seats) and self.session.seats[seat].is_human

    # --- the flow ------------------------------------------------------------
    def enter(self) -> None:
        self.deadline = None
        self.advance()

    def advance(self) -> None:
        """Play chance, show a finished round's Tafel, start a computer, or wait for a human."""
        state = self.state
        if state.is_chance_node():
            self.session.play_chance(self.app.rng)
        seen = self.shown_rounds()
        if len(state.results) > seen:
            if state.is_terminal():
                self.finalize()
            self.app.push(TafelScreen(self, seen))
            return
        if state.is_terminal():
            self.finalize()
            self.app.push(StandingsScreen(self))
            return
        seat = state.current_player()
        if self.session.seats[seat].is_human:
            self.you = seat
            if self.app.settings()["clock.enabled"] and self.deadline is None:
                self.deadline = self.app.now() + int(self.app.settings()["clock.seconds"])
        elif self.thinking is None:
            self.think(seat)

    def shown_rounds(self) -> int:
        """How many rounds' Tafeln were acknowledged with Weiter."""
        return int(self.session.record.meta.get("tafel_seen", 0))

    def think(self, seat: int) -> None:
        """Ask the seat's computer for its move, off the loop."""
        view = self.state.view(seat)
        level = self.session.seats[seat].level or "normal"
        seed = self.app.rng.randrange(2**31)
        self.thinking = seat

        def work() -> int:
            from spielleiter.games.speedtombola import bots

            return int(bots.choose(view, level, seed))

        self.app.submit(work, lambda move: self.computer_moved(seat, move))

    def computer_moved(self, seat: int, move: int) -> None:
        self.thinking = None
        if self.state.current_player() != seat or self not in self.app.stack:
            return  # the match was left while the computer thought
        self.play(move, by=_name(self.session, seat))
        self.hold_until = self.app.now() + int(self.app.settings()["bot.show_ms"]) / 1000
        if self.app.top is not self:
            self.hold_until = None

    def play(self, move: int, by: str) -> None:
        """Commit a move and say what it was."""
        lot, pot = self.state.lot, self.state.pot
        self.session.apply(move)
        if self.state.is_chance_node() and not self.state.results[self.shown_rounds() :]:
            self.session.play_chance(self.app.rng)  # the taker draws the next lot at once
        if move == Move.NEHMEN:
            self.flash = f"{by} nimmt {lot}" + (f" +{pot}G" if pot else "")
        else:
            self.flash = f"{by}: Nein danke"

    def human_move(self, move: Move) -> None:
        if not self.human_to_move() or self.hold_until is not None:
            return
        if move not in self.state.legal_actions():
            self.flash = "Kein Groschen: nehmen!"
            return
        self.deadline = None
        self.play(move, by=_name(self.session, self.state.current_player()))
        self.advance()

    def tick(self, now: float) -> None:
        if self.hold_until is not None and now >= self.hold_until:
            self.hold_until = None
            self.advance()
        if self.deadline is not None and now >= self.deadline and self.human_to_move():
            seat = self.state.current_player()
            move = Move.NEIN_DANKE if self.state.groschen[seat] > 0 else Move.NEHMEN
            self.deadline = None
            self.play(move, by=_name(self.session, seat))
            self.flash = "Zeit um! " + self.flash
            self.advance()

    @property
    def busy(self) -> bool:
        return self.thinking is not None or self.hold_until is not None

    # --- end of the match ----------------------------------------------------
    def finalize(self) -> None:
        """Bestenliste points for every human still at the table; the record is finished."""
        meta = self.session.record.meta
        if meta.get("bestenliste_done"):
            return
        state = self.state
        places = state.places()
        awarded = {}
        for seat in self.humans():
            per_round = [r.points[seat] for r in state.results]
            points = bestenliste_points(per_round, places[seat])
            self.app.store.add_to_bestenliste(GAME, _name(self.session, seat), points)
            awarded[_name(self.session, seat)] = points
        self.session.set_meta(bestenliste_done=True, bestenliste=awarded)
        self.session.finish()

    # --- pause menu: leaving -------------------------------------------------
    def pause_items(self) -> list[Item]:
        humans = self.humans()
        if len(humans) < 2:
            return [Item("Verlassen", self.confirm_leave)]
        return [
            Item(f"{_name(self.session, s)} geht", lambda s=s: self.confirm_leave_seat(s))
            for s in humans
        ]

    def confirm_leave_seat(self, seat: int) -> None:
        name = _name(self.session, seat)
        self.app.replace(
            Confirm(
                f"{name} verlässt die Partie: -10 Punkte, ein Computer übernimmt.",
                lambda: self.leave_seat(seat),
                self.app.pop,
            )
        )

    def leave_seat(self, seat: int) -> None:
        """A human leaves a match with other humans: -10, a computer takes the seat."""
        name = _name(self.session, seat)
        self.app.store.add_to_bestenliste(GAME, name, LEAVE_PENALTY)
        self.session.take_over(seat, str(self.app.settings()["speedtombola.takeover"]))
        self.thinking = None
        self.app.pop()

    # --- keys ----------------------------------------------------------------
    def softkeys(self) -> list[SoftKey | None]:
        mine = self.human_to_move() and self.hold_until is None
        return [
            SoftKey("Nein", "n") if mine else None,
            SoftKey("Nehmen", "g ") if mine else None,
            SoftKey("Rat", "r") if mine and self.solo else None,
            SoftKey("Info", "i"),
        ]

    def on_key(self, event: KeyEvent) -> None:
        if event.long:
            return
        if event.key == Key.K1:
            self.human_move(Move.NEIN_DANKE)
        elif event.key == Key.K2:
            self.human_move(Move.NEHMEN)
        elif event.key == Key.K3 and self.solo and self.human_to_move():
            self.app.push(RatScreen(self))
        elif event.key == Key.K4:
            self.app.push(InfoScreen(self))

    # --- drawing -------------------------------------------------------------
    def round_points(self, seat: int) -> int:
        state = self.state
        return lot_points(state.lots[seat]) - state.groschen[seat]

    def draw(self, canvas: Canvas) -> None:
        state = self.state
        n = len(self.session.seats)
        to_move = state.current_player()
        others = [(self.you + k) % n for k in range(1, n)]
        width = WIDTH // max(1, len(others))
        for i, seat in enumerate(others):
            x = i * width
            chars = max(1, (width - 1) // 4)
            canvas.text((x + 1, 0), short_name(_name(self.session, seat), chars), TINY)
            if seat == to_move:
                canvas.invert((x, 0, x + width - 2, 6))
            canvas.text((x + 1, 7), f"{state.groschen[seat]}G", TINY)
            canvas.text((x + 1, 14), f"{self.round_points(seat)}P", TINY)
        canvas.line((0, 21, WIDTH - 1, 21))
        # the Gabentisch
        canvas.text((1, 23), "Trommel", TINY)
        canvas.text((4, 29), f"{state.drum_count}", TEXT)
        canvas.rect((50, 23, 77, 40))
        canvas.text_center(24, f"{state.lot}" if state.lot is not None else "--", LARGE, 50, 78)
        canvas.text_right(WIDTH - 1, 24, "Groschen", TINY)
        canvas.text_right(WIDTH - 6, 31, f"{state.pot}", TEXT)
        canvas.line((0, 41, WIDTH - 1, 41))
        # your place
        you = self.you
        line = f"{_name(self.session, you)[:10]} {state.groschen[you]}G {self.round_points(you)}P"
        canvas.text((1, 42), line, SMALL)
        corner = []
        if self.session.game.rounds > 1:
            corner.append(f"R{state.round_index + 1}/{self.session.game.rounds}")
        if self.deadline is not None and self.human_to_move():
            corner.append(f"{max(0, int(self.deadline - self.app.now() + 0.999))}s")
        canvas.text_right(WIDTH - 1, 42, " ".join(corner), SMALL)
        canvas.text((1, 49), self.status_line(), SMALL)

    def status_line(self) -> str:
        if self.flash and (self.hold_until is not None or not self.human_to_move()):
            return self.flash
        state = self.state
        if self.thinking is not None:
            return f"{_name(self.session, self.thinking)[:12]} denkt ..."
        if self.human_to_move():
            seat = state.current_player()
            change = lot_cost(state.lots[seat], state.lot) - state.pot
            take = f"Nehmen {change:+d}"
            if state.groschen[seat] == 0:
                return f"{take}  (muss nehmen)"
            return f"{take}  Nein danke +1"
        return self.flash

    def summary(self) -> dict[str, Any]:
        state = self.state
        return {
            "screen": "speedtombola.table",
            "round": state.round_index + 1,
            "lot": state.lot,
            "pot": state.pot,
            "drum": state.drum_count,
            "to_move": state.current_player(),
            "seats": [
                {
                    "name": s.name,
                    "groschen": state.groschen[i],
                    "lots": list(state.lots[i]),
                    "points": self.round_points(i),
                }
                for i, s in enumerate(self.session.seats)
            ],
        }


class RatScreen(Screen):
    """Rat: what Stark would do, the expected points and win chances of both options."""

    def __init__(self, table: TableScreen) -> None:
        self.table = table
        self.advice: Any = None

    def enter(self) -> None:
        if self.advice is not None:
            return
        state = self.table.state
        view = state.view(state.current_player())
        seed = self.app.rng.randrange(2**31)
        playouts = int(self.app.settings().get("bot.playouts", 2000))

        def work() -> Any:
            from spielleiter.games.speedtombola import bots

            return bots.advice(view, seed, playouts)

        self.app.submit(work, self.got)

    def got(self, advice: Any) -> None:
        self.advice = advice

    def softkeys(self) -> list[SoftKey | None]:
        ready = self.advice is not None
        return [
            SoftKey("Nein", "n") if ready and self.advice.nein_danke else None,
            SoftKey("Nehmen", "g ") if ready else None,
            None,
            SoftKey("Zurück", "\x08r"),
        ]

    def on_key(self, event: KeyEvent) -> None:
        if event.long:
            return
        if event.key == Key.K4:
            self.app.pop()
        elif event.key in (Key.K1, Key.K2) and self.advice is not None:
            move = Move.NEIN_DANKE if event.key == Key.K1 else Move.NEHMEN
            self.app.pop()
            self.table.human_move(move)

    def draw(self, canvas: Canvas) -> None:
        y = canvas.title("Rat", f"Los {self.table.state.lot}")
        a = self.advice
        if a is None:
            canvas.text((2, y + 8), "Stark rechnet ...", TEXT)
            return
        best = "Nehmen" if a.recommended == Move.NEHMEN else "Nein danke"
        canvas.text((2, y), f"Stark: {best}", TEXT)
        y += 11
        match = self.table.session.game.rounds > 1
        canvas.text((2, y), "Pkt ±SE    Runde" + (" Partie" if match else ""), TINY)
        y += 7
        for label, est in (("Nehmen", a.nehmen), ("Nein dk", a.nein_danke)):
            if est is None:
                canvas.text((2, y), f"{label}: muss nehmen", TINY)
            else:
                line = f"{label:<7}{est.points:5.1f}±{est.points_se:.1f}  {est.round_win:4.0%}"
                if match:
                    line += f" {est.match_win:4.0%}"
                canvas.text((2, y), line, TINY)
            y += 7
        canvas.text((2, y + 1), f"{a.playouts} Trommeln je Option", TINY)

    def summary(self) -> dict[str, Any]:
        a = self.advice
        if a is None:
            return {"screen": "speedtombola.rat", "ready": False}
        return {
            "screen": "speedtombola.rat",
            "ready": True,
            "recommended": "nehmen" if a.recommended == Move.NEHMEN else "nein_danke",
            "playouts": a.playouts,
            "options": {
                ("nehmen" if m == Move.NEHMEN else "nein_danke"): {
                    "points": e.points,
                    "points_se": e.points_se,
                    "round_win": e.round_win,
                    "match_win": e.match_win,
                }
                for m, e in a.options.items()
            },
        }


class InfoScreen(Screen):
    """Info (the device's hover): step through the guests, what the open lot means to each."""

    def __init__(self, table: TableScreen) -> None:
        self.table = table
        self.index = table.you

    def softkeys(self) -> list[SoftKey | None]:
        return [SoftKey("<", "h"), SoftKey(">", "l"), None, SoftKey("Zurück", "\x08i")]

    def on_key(self, event: KeyEvent) -> None:
        n = len(self.table.session.seats)
        if event.key == Key.K1:
            self.index = (self.index - 1) % n
        elif event.key == Key.K2:
            self.index = (self.index + 1) % n
        elif event.key == Key.K4 and not event.long:
            self.app.pop()

    def draw(self, canvas: Canvas) -> None:
        state = self.table.state
        seat = self.index
        n = len(self.table.session.seats)
        y = canvas.title(_name(self.table.session, seat), f"{seat + 1}/{n}")
        canvas.text(
            (2, y),
            f"{state.groschen[seat]} Groschen  {self.table.round_points(seat)} Punkte",
            SMALL,
        )
        y += 9
        if state.lot is not None:
            cost = lot_cost(state.lots[seat], state.lot)
            fits = cost < state.lot
            text = f"Los {state.lot}: " + ("passt" if fits else "passt nicht")
            text += f" ({cost - state.pot:+d})"
            canvas.text((2, y), text, SMALL)
            y += 9
        if state.lots[seat]:
            draw_garnituren(canvas, 2, y, state.lots[seat], WIDTH - 4)
        else:
            canvas.text((2, y + 1), "noch keine Gewinne", SMALL)

    def summary(self) -> dict[str, Any]:
        return {"screen": "speedtombola.info", "seat": self.index}


class TafelScreen(Screen):
    """The Tafel after a round: each guest's Garnituren, the calculation, the removed lots.

    Page 1 lists every guest's points; then one page per guest with the Garnituren (the
    counting lot framed) and the calculation; the last page shows the removed lots.
    """

    def __init__(self, table: TableScreen, round_index: int) -> None:
        self.table = table
        self.round_index = round_index
        self.result: RoundResult = table.state.results[round_index]
        self.page = 0
        self.deadline: float | None = None

    ROWS = 5
    """Guests per summary page (a header line sits above them)."""

    @property
    def summary_pages(self) -> int:
        return -(-len(self.result.lots) // self.ROWS)

    @property
    def pages(self) -> int:
        return self.summary_pages + len(self.result.lots) + 1

    def enter(self) -> None:
        if self.app.settings()["clock.enabled"]:
            self.deadline = self.app.now() + int(self.app.settings()["clock.tafel_seconds"])

    def softkeys(self) -> list[SoftKey | None]:
        return [SoftKey("<", "h"), SoftKey(">", "l"), None, SoftKey("Weiter", "\n ")]

    def on_key(self, event: KeyEvent) -> None:
        if event.key == Key.K1:
            self.page = (self.page - 1) % self.pages
        elif event.key == Key.K2:
            self.page = (self.page + 1) % self.pages
        elif event.key == Key.K4 and not event.long:
            self.weiter()

    def tick(self, now: float) -> None:
        if self.deadline is not None and now >= self.deadline:
            self.weiter()

    def totals(self) -> list[int]:
        """Each guest's points over the rounds up to this one."""
        rounds = self.table.state.results[: self.round_index + 1]
        return [sum(r.points[seat] for r in rounds) for seat in range(len(self.result.lots))]

    def weiter(self) -> None:
        """On to the next round (or the standings)."""
        self.deadline = None
        self.table.session.set_meta(tafel_seen=self.round_index + 1)
        self.app.pop()

    def draw(self, canvas: Canvas) -> None:
        r = self.result
        right = f"{self.page + 1}/{self.pages}"
        if self.deadline is not None:
            right = f"{max(0, int(self.deadline - self.app.now() + 0.999))}s {right}"
        y = canvas.title(f"Tafel Runde {self.round_index + 1}", right)
        session = self.table.session
        if self.page < self.summary_pages:
            several = session.game.rounds > 1
            totals = self.totals()
            columns = (
                [("Runde", r.points), ("Summe", totals)] if several else [("Punkte", r.points)]
            )
            for i, (header, _) in enumerate(reversed(columns)):
                canvas.text_right(WIDTH - 1 - i * 36, y, header, TINY)
            y += 7
            first = self.page * self.ROWS
            for seat in range(first, min(first + self.ROWS, len(r.points))):
                canvas.text((2, y), short_name(_name(session, seat), 14), SMALL)
                for i, (_, values) in enumerate(reversed(columns)):
                    canvas.text_right(WIDTH - 1 - i * 36, y, str(values[seat]), SMALL)
                y += 7
        elif self.page == self.pages - 1:
            canvas.text((2, y), "Diese Lose waren raus:", SMALL)
            canvas.wrap((2, y + 10), " ".join(map(str, r.removed)), SMALL, 124)
        else:
            seat = self.page - self.summary_pages
            lots = list(r.lots[seat])
            counting = "+".join(str(run[0]) for run in garnituren(lots)) or "0"
            canvas.text((2, y), f"{_name(session, seat)[:14]}: {r.points[seat]} Punkte", SMALL)
            calc = f"{counting} - {r.groschen[seat]} Groschen = {r.points[seat]}"
            y = canvas.wrap((2, y + 8), calc, TINY, 124)
            if lots:
                draw_garnituren(canvas, 2, y, lots, WIDTH - 4)

    def summary(self) -> dict[str, Any]:
        return {
            "screen": "speedtombola.tafel",
            "round": self.round_index + 1,
            **self.result.to_json(),
        }


class StandingsScreen(Screen):
    """The end of the match: places, points and the Bestenliste points."""

    def __init__(self, table: TableScreen) -> None:
        self.table = table

    def softkeys(self) -> list[SoftKey | None]:
        return [None, None, None, SoftKey("Weiter", "\n ")]

    def on_key(self, event: KeyEvent) -> None:
        if event.key == Key.K4 and not event.long:
            self.table.end()

    def rows(self) -> list[tuple[int, str, int, int | None]]:
        state = self.table.state
        places = state.places()
        awarded = self.table.session.record.meta.get("bestenliste", {})
        rows = []
        for seat, seat_info in enumerate(self.table.session.seats):
            bonus = awarded.get(seat_info.name) if seat_info.is_human else None
            rows.append((places[seat], seat_info.name, state.match_points[seat], bonus))
        return sorted(rows)

    def draw(self, canvas: Canvas) -> None:
        y = canvas.title("Endstand", "Bestenl.")
        rows = self.rows()
        size, step = (SMALL, 7) if len(rows) <= 6 else (TINY, 6)
        for place, name, points, bonus in rows:
            extra = f"+{bonus}" if bonus is not None else ""
            canvas.text((1, y), f"{place}. {short_name(name, 10):<10}{points:>4}P", size)
            canvas.text_right(WIDTH - 1, y, extra, size)
            y += step

    def summary(self) -> dict[str, Any]:
        return {"screen": "speedtombola.standings", "rows": [list(r) for r in self.rows()]}
