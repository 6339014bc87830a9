"""Speedtombola on the panel: the table, Rat, Info, the Tafel after each round, the standings.

The table: the other guests at the top (the next after you on the left), the
Gabentisch in the middle (the drum with its count, the open lot, the groschen on it),
your place at the bottom with the line that shows how your points change on Nehmen
and on "Nein danke". "You" is the human whose turn it is.
"""

from __future__ import annotations

import random
from typing import Any

from spielleiter.games.speedtombola.rules import Decision, Move, RoundResult, garnituren
from spielleiter.games.speedtombola.table import TIMEOUT_NEWS, SpeedtombolaTable
from spielleiter.hal.keys import Key, KeyEvent
from spielleiter.ui.canvas import WIDTH, Canvas, fit_line, short_name
from spielleiter.ui.fonts import LARGE, SMALL, TEXT, TINY
from spielleiter.ui.game_screen import GameScreen
from spielleiter.ui.game_screen import StandingsScreen as BaseStandings
from spielleiter.ui.screen import App, Screen, SoftKey
from spielleiter.ui.speech import Line, count, describe, focus, listing, news, number, punkte


def start(app: App, table: SpeedtombolaTable) -> TableScreen:
    """The first screen of a new or resumed Speedtombola match."""
    return TableScreen(app, table)


def garnituren_text(lots: list[int]) -> str:
    """Garnituren as text, the counting lot in brackets: "[3]4 5 [12]"."""
    return " ".join(f"[{run[0]}]" + "".join(f" {x}" for x in run[1:]) for run in garnituren(lots))


def garnituren_said(lots: list[int]) -> str:
    """Garnituren in words, each run by its lowest lot (the one that counts): "3 bis 5, 12"."""
    runs = garnituren(lots)
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]} bis {r[-1]}" for r in runs)


def decision_said(table: SpeedtombolaTable, d: Decision) -> str:
    """A decision in the rule text's words: "Ben nimmt Los 27 und 3 Groschen", "Anna sagt
    nein danke"."""
    name = table.name(d.seat)
    if d.move == Move.NEHMEN:
        groschen = "einen Groschen" if d.pot == 1 else count(d.pot, "Groschen")
        return f"{name} nimmt Los {d.lot}" + (f" und {groschen}" if d.pot else "")
    return f"{name} sagt nein danke"


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


class TableScreen(GameScreen):
    """The Gabentisch: decisions by key; the Tafel and the Endstand when the table says so."""

    table: SpeedtombolaTable

    def __init__(self, app: App, table: SpeedtombolaTable) -> None:
        super().__init__(app, table)
        self.flash = ""
        """Why the last key was refused (shown until the next move)."""

    # --- following the table ---------------------------------------------------
    def enter(self) -> None:
        self.table.restart_clock()
        super().enter()

    def on_menu(self) -> bool:
        self.table.stop_clock()  # the pause menu opens: the clock waits
        return False

    def due_screen(self) -> Screen | None:
        """A round's Tafel, or the Endstand."""
        round_index = self.table.tafel_round()
        if round_index is not None:
            return TafelScreen(self, round_index)
        if self.table.standings_due():
            return StandingsScreen(self)
        return None

    def human_move(self, move: Move) -> None:
        """The human to move chose; a refusal is shown with its reason."""
        if not self.awaits_key():
            return
        self.flash = self.try_command(move) or ""
        if not self.flash:
            self.follow()

    # --- keys ----------------------------------------------------------------
    def softkeys(self) -> list[SoftKey | None]:
        mine = self.awaits_key()
        return [
            SoftKey("Nein", "n") if mine else None,
            SoftKey("Nehmen", "g ") if mine else None,
            SoftKey("Rat", "r") if mine and self.table.solo else None,
            SoftKey("Info", "i"),
        ]

    def on_key(self, event: KeyEvent) -> None:
        if event.long:
            return
        if event.key == Key.K1:
            self.human_move(Move.NEIN_DANKE)
        elif event.key == Key.K2:
            self.human_move(Move.NEHMEN)
        elif event.key == Key.K3 and self.table.rat_available():
            self.table.stop_clock()  # asking for Rat is part of deciding
            self.app.push(RatScreen(self))
        elif event.key == Key.K4:
            self.table.stop_clock()
            self.app.push(InfoScreen(self))

    # --- drawing -------------------------------------------------------------
    def ended_round(self) -> RoundResult | None:
        """The round just over whose Tafel is still to come: its last move shows on its own
        round's table (never on the next round's), until the Tafel is read."""
        table = self.table
        if not table.holding():
            return None
        return table.tafel(table.tafel_seen())

    def groschen(self, seat: int) -> int:
        ended = self.ended_round()
        return ended.groschen[seat] if ended is not None else self.table.state.groschen[seat]

    def round_points(self, seat: int) -> int:
        ended = self.ended_round()
        return ended.points[seat] if ended is not None else self.table.round_points(seat)

    def draw(self, canvas: Canvas) -> None:
        table = self.table
        state = table.state
        ended = self.ended_round()
        n = len(table.seats)
        to_move = table.to_move() if ended is None else -1
        others = [(self.you + k) % n for k in range(1, n)]
        width = WIDTH // max(1, len(others))
        for i, seat in enumerate(others):
            x = i * width
            chars = max(1, (width - 1) // 4)
            column = (x, 0, x + width - 1, 20)
            canvas.text((x + 1, 0), short_name(table.name(seat), chars), TINY, box=column)
            if seat == to_move:
                canvas.invert((x, 0, x + width - 2, 6))
            canvas.text((x + 1, 7), f"{self.groschen(seat)}G", TINY, box=column)
            points = self.round_points(seat)
            label = f"{points}P" if len(f"{points}P") <= chars else str(points)
            canvas.text((x + 1, 14), label, TINY, box=column)
        canvas.line((0, 21, WIDTH - 1, 21))
        # the Gabentisch
        drum, lot, pot = (state.drum_count, state.lot, state.pot) if ended is None else (0, None, 0)
        canvas.text((1, 23), "Trommel", TINY)
        canvas.text((4, 29), f"{drum}", TEXT)
        canvas.rect((50, 23, 77, 40))
        canvas.text_center(24, f"{lot}" if lot is not None else "--", LARGE, 50, 78)
        canvas.text_right(WIDTH - 1, 24, "Groschen", TINY)
        canvas.text_right(WIDTH - 6, 31, f"{pot}", TEXT)
        canvas.line((0, 41, WIDTH - 1, 41))
        # your place
        you = self.you
        corner = []
        rounds = table.rounds
        if rounds > 1:
            shown = state.round_index if ended is None else table.tafel_seen()
            corner.append(f"R{shown + 1}/{rounds}")
        seconds = table.seconds_left()
        if seconds is not None:
            corner.append(f"{seconds}s")
        right = " ".join(corner)
        canvas.text_right(WIDTH - 1, 42, right, SMALL)
        mine = f" {self.groschen(you)}G {self.round_points(you)}P"
        room = (WIDTH - 2 - canvas.text_width(right + " " if right else "", SMALL)) // 5
        name = short_name(table.name(you), max(3, room - len(mine)))
        canvas.text((1, 42), name + mine, SMALL, box=(0, 42, WIDTH - 1, 48))
        status, size = fit_line(self.status_line(), WIDTH - 1, [s.name for s in table.seats])
        canvas.text((1, 49 if size == SMALL else 50), status, size, box=(0, 49, WIDTH - 1, 54))
        several = len(table.humans()) > 1
        if several and self.awaits_key():
            canvas.invert((0, 42, WIDTH - 1, 48))  # whose turn: the decider's line lit
        self.draw_turn_banner(canvas)

    def status_line(self) -> str:
        table = self.table
        if table.news and (table.hold_until is not None or not table.human_to_move()):
            return table.news
        if table.thinking is not None:
            return f"{table.name(table.thinking)[:12]} denkt ..."
        if table.human_to_move():
            if self.flash:
                return self.flash
            seat = table.to_move()
            take = f"Nehmen {table.take_change(seat):+d}"
            if table.must_take(seat):
                return f"{take}  (muss nehmen)"
            return f"{take}  Nein danke +1"
        return table.news

    def summary(self) -> dict[str, Any]:
        table = self.table
        state = table.state
        ended = self.ended_round()
        if ended is not None:  # the round over, as the table shows it until its Tafel
            return {
                "screen": "speedtombola.table",
                "round": table.tafel_seen() + 1,
                "lot": None,
                "pot": 0,
                "drum": 0,
                "to_move": table.to_move(),
                "ended": True,
                "seats": [
                    {"name": s.name, "groschen": ended.groschen[i], "lots": list(ended.lots[i]),
                     "points": ended.points[i]}  # fmt: skip
                    for i, s in enumerate(table.seats)
                ],
            }
        return {
            "screen": "speedtombola.table",
            "round": state.round_index + 1,
            "lot": state.lot,
            "pot": state.pot,
            "drum": state.drum_count,
            "to_move": table.to_move(),
            "seats": [
                {
                    "name": s.name,
                    "groschen": state.groschen[i],
                    "lots": list(state.lots[i]),
                    "points": table.round_points(i),
                }
                for i, s in enumerate(table.seats)
            ],
        }

    def spoken(self) -> list[Line]:
        """News: the round, each decision, the lot drawn. Focus: whose turn, the lot and its
        groschen, what Nehmen costs. The rest: every guest's groschen and points."""
        table = self.table
        state = table.state
        lines = []
        if table.rounds > 1:
            said = f"Runde {state.round_index + 1} von {table.rounds}"
            lines.append(news(("runde", state.round_index), said))
        last = len(state.decisions)
        recent = state.decisions[-3:]
        for i, d in enumerate(recent, last - len(recent)):
            said = decision_said(table, d)
            if i == last - 1 and table.news.startswith(TIMEOUT_NEWS):
                said = f"Zeit um: {said}"
            lines.append(news(("zug", i), said))
        if state.lot is not None and state.pot == 0:  # with groschen on it, it went round
            drawn = ("los", state.round_index, state.drum_count)
            lines.append(news(drawn, f"Neues Los: {state.lot}"))
        if table.human_to_move() and self.awaits_key():
            seat = table.to_move()
            turn = (
                f"{table.name(seat)} ist dran: Los {state.lot}, "
                f"{count(state.pot, 'Groschen')} darauf; "
                f"{'du hast' if len(table.humans()) == 1 else 'hat'} "
                f"{count(state.groschen[seat], 'Groschen')}"
            )
            lines.append(focus(turn))
            if self.flash:
                lines.append(focus(self.flash))
            elif table.must_take(seat):
                lines.append(focus("Kein Groschen mehr: du musst nehmen"))
            else:
                lines.append(focus(f"Nehmen: {signed_points(table.take_change(seat))}"))
        elif table.thinking is not None:
            lines.append(describe(f"{table.name(table.thinking)} denkt"))
        lines.append(describe(f"In der Trommel: {count(state.drum_count, 'Los', 'Lose')}"))
        for seat in range(len(table.seats)):
            lines.append(describe(
                f"{table.name(seat)}: {count(state.groschen[seat], 'Groschen')}, "
                f"{punkte(table.round_points(seat))}"
            ))  # fmt: skip
        return lines


class RatScreen(Screen):
    """Rat: what Stark would do, the expected points and win chances of both options."""

    def __init__(self, screen: TableScreen) -> None:
        self.screen = screen
        self.table = screen.table
        self.advice: Any = None
        self.details = False
        """The second page: the numbers behind the advice."""
        self.asked = False
        self.at = screen.table.session.committed
        """The position Rat is about (a move by the clock makes the advice stale)."""

    def enter(self) -> None:
        if self.advice is not None or self.asked:
            return
        self.asked = True
        work = self.table.advice(random.Random(self.app.rng.getrandbits(64)))
        if work is not None:
            self.app.submit(work, self.got)

    def got(self, advice: Any) -> None:
        self.advice = advice

    def softkeys(self) -> list[SoftKey | None]:
        ready = self.advice is not None
        return [
            SoftKey("Nein", "n") if ready and self.advice.nein_danke else None,
            SoftKey("Nehmen", "g ") if ready else None,
            SoftKey("Kurz" if self.details else "Mehr", "m") if ready else None,
            SoftKey("Zurück", "\x08r"),
        ]

    def on_key(self, event: KeyEvent) -> None:
        if event.long:
            return
        if event.key == Key.K4:
            self.app.pop()
        elif event.key == Key.K3 and self.advice is not None:
            self.details = not self.details
        elif event.key in (Key.K1, Key.K2) and self.advice is not None:
            move = Move.NEIN_DANKE if event.key == Key.K1 else Move.NEHMEN
            self.app.pop()
            if self.table.session.committed == self.at:
                self.screen.human_move(move)

    def draw(self, canvas: Canvas) -> None:
        y = canvas.title("Rat", f"Los {self.table.state.lot}")
        a = self.advice
        if a is None:
            canvas.text((2, y + 8), "Stark rechnet ...", TEXT)
            return
        best = "Nehmen" if a.recommended == Move.NEHMEN else "Nein danke"
        canvas.text((2, y), f"Rat: {best}", TEXT)
        y += 11
        match = self.table.rounds > 1 and self.table.state.round_index > 0
        if not self.details:
            canvas.wrap((2, y), rat_reason(a, match), SMALL, 124)
            return
        for line in rat_details(a, match):
            canvas.text((2, y), line, TINY, box=(2, y, WIDTH - 1, y + 5))
            y += 6

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

    def spoken(self) -> list[Line]:
        """Rat: what Stark would do and why; with Mehr, the numbers behind it."""
        a = self.advice
        head = focus(f"Rat zu Los {self.table.state.lot}")
        if a is None:
            return [head, focus("Stark rechnet.")]
        best = "Nehmen" if a.recommended == Move.NEHMEN else "Nein danke"
        match = self.table.rounds > 1
        lines = [head, focus(f"Rat: {best}. {rat_reason(a, match)}")]
        if not self.details:
            return lines
        for label, est in (("Nehmen", a.nehmen), ("Nein danke", a.nein_danke)):
            if est is None:
                lines.append(focus(f"{label}: geht nicht, du musst nehmen"))
                continue
            text = (
                f"{label}: im Schnitt {said_decimal(est.points)} Punkte, "
                f"Siegchance Runde {est.round_win:.0%}"
            )
            if match:
                text += f", Partie {est.match_win:.0%}"
            lines.append(focus(text))
        lines.append(describe(f"{a.playouts} Trommeln je Möglichkeit"))
        return lines


def decimal(value: float) -> str:
    """A number with one decimal, the German way ("63,3")."""
    return f"{value:.1f}".replace(".", ",")


def rat_details(advice: Any, match: bool) -> list[str]:
    """Rat's second page in words: per option the points to expect (± how sure) and the
    chance to win the round, and the match once a round of it is over (before, the two
    are the same number); then how many drums were played out for it."""
    lines = []
    for label, est in (("Nehmen", advice.nehmen), ("Nein danke", advice.nein_danke)):
        if est is None:
            lines += [f"{label}: geht nicht,", "  kein Groschen mehr"]
            continue
        lines.append(f"{label}: {decimal(est.points)} Punkte ±{decimal(est.points_se)}")
        wins = f"  Siegchance {est.round_win:.0%}"
        lines.append(wins + (f", Partie {est.match_win:.0%}" if match else ""))
    return [*lines, f"je {advice.playouts} Trommeln ausgespielt"]


def rat_reason(advice: Any, match: bool) -> str:
    """Why Rat advises what it does, in plain German, from the numbers the details show."""
    if advice.nein_danke is None:
        return "Kein Groschen mehr: du musst nehmen."
    best = advice.options[advice.recommended]
    other = advice.options[Move.NEIN_DANKE if advice.recommended == Move.NEHMEN else Move.NEHMEN]
    mine, theirs = round(100 * best.match_win), round(100 * other.match_win)
    fewer = round(other.points, 1) - round(best.points, 1)
    value = round(abs(fewer), 1)
    whole = value >= 3 or value == int(value)
    amount = f"{value:.0f}" if whole else f"{value:.1f}".replace(".", ",")
    points = f"im Schnitt {amount} Punkte"
    chance = "Partie-Sieg" if match else "Siegchance"
    if mine != theirs:
        text = f"{chance} {mine}% statt {theirs}%"
        if fewer >= 0.05:
            return f"{text} und {points} weniger."
        if fewer <= -0.05:
            return f"{text}, auch wenn {points} mehr."
        return f"{text}."
    if abs(fewer) >= 0.05:
        return f"Im Schnitt {amount} Punkte weniger; {chance} beide {mine}%."
    return f"Beides etwa gleich gut ({chance} {mine}%)."


class InfoScreen(Screen):
    """Info (the device's hover): step through the guests, what the open lot means to each;
    the last page (Verlauf) lists the round's last moves, for whoever looked away."""

    MOVES = 5
    """Moves on the Verlauf page."""

    def __init__(self, screen: TableScreen) -> None:
        self.screen = screen
        self.table = screen.table
        self.index = screen.you

    def softkeys(self) -> list[SoftKey | None]:
        return [SoftKey("<", "h"), SoftKey(">", "l"), None, SoftKey("Zurück", "\x08i")]

    def on_key(self, event: KeyEvent) -> None:
        n = len(self.table.seats) + 1  # the guests, then the Verlauf
        if event.key == Key.K1:
            self.index = (self.index - 1) % n
        elif event.key == Key.K2:
            self.index = (self.index + 1) % n
        elif event.key == Key.K4 and not event.long:
            self.app.pop()

    def draw(self, canvas: Canvas) -> None:
        table = self.table
        state = table.state
        seat = self.index
        n = len(table.seats) + 1
        if seat == n - 1:
            y = canvas.title(f"Verlauf Runde {state.round_index + 1}", f"{n}/{n}")
            moves = table.recent_moves(self.MOVES) or ["noch kein Zug"]
            names = [s.name for s in table.seats]
            for line in moves:
                text, size = fit_line(line, WIDTH - 2, names)
                canvas.text((2, y), text, size, box=(2, y, WIDTH - 1, y + 8))
                y += 9
            return
        y = canvas.title(table.name(seat), f"{seat + 1}/{n}")
        canvas.text(
            (2, y),
            f"{state.groschen[seat]} Groschen  {table.round_points(seat)} Punkte",
            SMALL,
        )
        y += 9
        if state.lot is not None:
            fits = "passt" if table.lot_fits(seat) else "passt nicht"
            canvas.text((2, y), f"Los {state.lot}: {fits} ({table.take_change(seat):+d})", SMALL)
            y += 9
        if state.lots[seat]:
            draw_garnituren(canvas, 2, y, state.lots[seat], WIDTH - 4)
        else:
            canvas.text((2, y + 1), "noch keine Gewinne", SMALL)

    def summary(self) -> dict[str, Any]:
        if self.index == len(self.table.seats):
            return {"screen": "speedtombola.moves", "moves": self.table.recent_moves(self.MOVES)}
        return {"screen": "speedtombola.info", "seat": self.index}

    def spoken(self) -> list[Line]:
        """The guest shown (groschen, points, what the open lot means, the Garnituren), or
        the Verlauf: the round's last moves."""
        table = self.table
        state = table.state
        seat = self.index
        if seat == len(table.seats):
            mine = [d for d in state.decisions if d.round == state.round_index][-self.MOVES :]
            moves = ". ".join(decision_said(table, d) for d in mine) or "Noch kein Zug"
            return [focus(f"Verlauf Runde {state.round_index + 1}"), focus(moves)]
        lines = [
            focus(
                f"{table.name(seat)}: {count(state.groschen[seat], 'Groschen')}, "
                f"{punkte(table.round_points(seat))}"
            )
        ]
        if state.lot is not None:
            fits = "passt" if table.lot_fits(seat) else "passt nicht"
            change = signed_points(table.take_change(seat))
            lines.append(focus(f"Los {state.lot} {fits}, Nehmen: {change}"))
        won = state.lots[seat]
        lines.append(focus(f"Garnituren: {garnituren_said(won)}" if won else "Noch keine Gewinne"))
        return lines


class TafelScreen(Screen):
    """The Tafel after a round: each guest's Garnituren, the calculation, the removed lots.

    Page 1 lists every guest's points; then one page per guest with the Garnituren (the
    counting lot framed) and the calculation; the last page shows the removed lots.
    """

    def __init__(self, screen: TableScreen, round_index: int) -> None:
        self.screen = screen
        self.table = screen.table
        self.round_index = round_index
        self.result: RoundResult = screen.table.tafel(round_index)
        self.page = 0

    ROWS = 5
    """Guests per summary page (a header line sits above them)."""

    @property
    def summary_pages(self) -> int:
        return -(-len(self.result.lots) // self.ROWS)

    @property
    def pages(self) -> int:
        return self.summary_pages + len(self.result.lots) + 1

    def enter(self) -> None:
        self.table.restart_clock()

    def on_menu(self) -> bool:
        self.table.stop_clock()  # the pause menu opens: the Tafel waits
        return False

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
        if self.read():
            self.app.pop()  # the clock moved the table on

    def read(self) -> bool:
        """This Tafel was read (by Weiter or by the clock)."""
        return self.table.tafel_seen() > self.round_index

    def totals(self) -> list[int]:
        """Each guest's points over the rounds up to this one."""
        return self.table.tafel_totals(self.round_index)

    def weiter(self) -> None:
        """On to the next round (or the standings)."""
        if not self.read():
            self.table.acknowledge_round()
        self.app.pop()

    def draw(self, canvas: Canvas) -> None:
        r = self.result
        table = self.table
        right = f"{self.page + 1}/{self.pages}"
        seconds = table.tafel_seconds_left()
        if seconds is not None:
            right = f"{seconds}s {right}"
        y = canvas.title(f"Tafel Runde {self.round_index + 1}", right)
        if self.page < self.summary_pages:
            several = table.rounds > 1
            totals = self.totals()
            columns = (
                [("Runde", r.points), ("Summe", totals)] if several else [("Punkte", r.points)]
            )
            for i, (header, _) in enumerate(reversed(columns)):
                canvas.text_right(WIDTH - 1 - i * 36, y, header, TINY)
            y += 7
            first = self.page * self.ROWS
            for seat in range(first, min(first + self.ROWS, len(r.points))):
                canvas.text((2, y), short_name(table.name(seat), 14), SMALL)
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
            line, size = fit_line(f"{table.name(seat)}: {r.points[seat]} Punkte", WIDTH - 2)
            if size != SMALL:
                line = f"{short_name(table.name(seat), 11)}: {r.points[seat]} Punkte"
            canvas.text((2, y), line, SMALL, box=(2, y, WIDTH - 1, y + 7))
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

    def spoken(self) -> list[Line]:
        """The round's result: every guest's points (and the sum over the rounds), who has
        the fewest; a guest's Garnituren and calculation; the lots that were out."""
        r = self.result
        table = self.table
        where = f"Seite {self.page + 1} von {self.pages}"
        lines = [focus(f"Tafel Runde {self.round_index + 1}, {where}")]
        if self.page < self.summary_pages:
            totals = self.totals()
            several = table.rounds > 1
            rows = [
                f"{table.name(s)} {punkte(r.points[s])}"
                + (f", zusammen {punkte(totals[s])}" if several else "")
                for s in range(len(r.points))
            ]
            lines.append(focus(". ".join(rows)))
            best = min(r.points)
            fewest = [table.name(s) for s in range(len(r.points)) if r.points[s] == best]
            lines.append(focus(f"Die wenigsten Punkte: {listing(fewest)}"))
        elif self.page == self.pages - 1:
            lines.append(focus(f"Diese Lose waren raus: {', '.join(map(str, r.removed))}"))
        else:
            seat = self.page - self.summary_pages
            lots = list(r.lots[seat])
            counting = " plus ".join(str(run[0]) for run in garnituren(lots)) or "0"
            lines.append(focus(f"{table.name(seat)}: {punkte(r.points[seat])}"))
            groschen = count(r.groschen[seat], "Groschen")
            lines.append(focus(f"{counting} minus {groschen} ist {number(r.points[seat])}"))
            if lots:
                lines.append(describe(f"Garnituren: {garnituren_said(lots)}"))
        return lines


class StandingsScreen(BaseStandings):
    """The end of the match: places, points and the Bestenliste points; Nochmal, Weiter."""

    table: SpeedtombolaTable

    def rows(self) -> list[tuple[int, str, int, int | None]]:
        return self.table.standings()

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

    def spoken(self) -> list[Line]:
        """The Endstand: each place with its points and the Bestenliste points."""
        rows = [
            f"Platz {place}: {name}, {punkte(match_points)}"
            + (f", Bestenliste plus {bonus}" if bonus is not None else "")
            for place, name, match_points, bonus in self.rows()
        ]
        return [focus("Endstand"), focus(". ".join(rows))]


def signed_points(change: int) -> str:
    """A change of points: "plus 4 Punkte", "minus 3 Punkte", "null Punkte"."""
    if change > 0:
        return f"plus {punkte(change)}"
    return punkte(change)


def said_decimal(value: float) -> str:
    """A number with one decimal, as German says it ("12,3")."""
    return f"{value:.1f}".replace(".", ",").replace("-", "minus ")
