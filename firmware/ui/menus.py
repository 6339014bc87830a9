"""The box's menus: choose a game, set up the seats and house rules, settings, Bestenliste."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from functools import partial
from typing import Any

from .. import admin, ratings
from ..games import catalog
from ..games.base import Seat
from ..games.catalog import GameEntry, HouseRule, Variant
from ..hal.keys import Key, KeyEvent
from ..records import RecordError
from ..session import Session
from ..settings import SETTINGS, SettingsError
from ..texts import T, Text
from .canvas import Canvas
from .fonts import SMALL, TEXT
from .screen import App, Screen, SoftKey
from .speech import Line, count, focus
from .widgets import ALPHABET, Confirm, Item, ListMenu, Message, Speller

log = logging.getLogger("spielleiter")

LEVEL_NAMES = {"leicht": "Leicht", "normal": "Normal", "stark": "Stark", "computer": "Computer"}


def main_menu(app: App) -> ListMenu:
    """The first screen: the games, the Bestenliste, the settings."""
    items = [Item(e.title, partial(open_setup, app, e)) for e in catalog.entries()]
    items.append(Item("Bestenliste", lambda: app.push(bestenliste_menu(app))))
    items.append(Item("Einstellungen", lambda: app.push(settings_menu(app))))
    return ListMenu("Spielleiter", items, back=lambda: None, back_label="")


def open_setup(app: App, entry: GameEntry, variant: Variant | None = None) -> None:
    """A game's first setup step: the way to play it when it has several, else the seats
    (or the start at once, when there is nothing to choose)."""
    if entry.variants and variant is None:
        items = [Item(v.title, partial(open_setup, app, entry, v)) for v in entry.variants]
        app.push(ListMenu(entry.title, items))
        return
    flow = SetupFlow(entry, variant)
    first = flow.first_screen(app)
    if flow.needs_seats or entry.house_rules:
        app.push(first)
    else:
        flow.start()


def start_game(app: App, session: Session) -> None:
    """Set a match's table up, start it moving, and show its first screen on top of the
    main menu."""
    entry = catalog.entry(session.record.game)
    table = entry.table_class()(app, session)
    app.show_table(table)
    table.advance()
    app.reset(entry.start_screen()(app, table))


def launch(
    app: App,
    game: str,
    params: dict[str, Any],
    seats: list[Seat],
    meta: dict[str, Any] | None = None,
) -> Session:
    """Store a new game's record (its chance seeded from the box) and show its first screen."""
    session = Session.start(app.store, game, params, seats, meta, seed=app.record_seed())
    start_game(app, session)
    return session


def resume_prompt(
    app: App, record_id: int, noted: Callable[[str, Text | None], None] | None = None
) -> Screen:
    """The one place that decides whether an open game can go on (after a restart, an
    error or a restore): "Partie fortsetzen?" when Session.resume reads and replays its
    record; else a message why not (RecordError's German reason), told to `noted` too,
    with the laptop's text where the whole line has one (a RecordError's reason is often
    the rules' German, and then its line has none).
    A record that cannot go on keeps its data but is set aside (abandoned), so it is
    never offered again, and the rest of the box works as before."""
    try:
        session = Session.resume(app.store, record_id)
    except RecordError as exc:
        reason, why = exc.reason, exc.said
        detail = f"{exc} ({exc.__cause__})" if exc.__cause__ is not None else str(exc)
        log.warning("open record %s cannot be resumed: %s", record_id, detail)
    except catalog.UnknownGame as exc:
        reason, why = "diese Box kennt ihr Spiel nicht", T("this box does not know its game")
        log.warning("open record %s cannot be resumed: no game %s", record_id, exc)
    except Exception:  # noqa: BLE001 - a stored record may break a game in any way
        reason, why = "sie lässt sich nicht nachspielen", T("it cannot be replayed")
        log.exception("open record %s cannot be resumed", record_id)
    else:
        return _resume_question(app, session)
    try:
        app.store.update_record(record_id, abandoned=True)
    except (sqlite3.Error, OSError) as exc:
        log.warning("open record %s stays open (it could not be set aside): %s", record_id, exc)
    text = f"Die offene Partie kann nicht gelesen werden: {reason}."
    if noted is not None:
        said = (
            None
            if why is None
            else T(
                "The open game cannot be read: {why}. Record {id} stays stored and is not"
                " resumed.",
                why=why,
                id=record_id,
            )
        )
        noted(f"{text} Partie {record_id} bleibt gespeichert und wird nicht fortgesetzt.", said)
    return Message("Partie nicht lesbar", text)


def unreadable_settings_notice(keys: list[str]) -> list[tuple[str, str, str, Text]]:
    """The panel's title and text, and the laptop's line (German, and as the laptop's
    text), for stored settings the box could not read: each counts as its default, the
    admin PIN as one that no PIN opens (the link stays shut until it is set again at the
    box)."""
    notices = []
    if admin.PIN_SETTING in keys:
        text = (
            "Die gespeicherte PIN ist nicht lesbar: der Link bleibt gesperrt."
            " Einstellungen, Admin-PIN: neu setzen oder löschen."
        )
        said = T(
            "The stored PIN cannot be read: the link stays locked. At the box, Einstellungen,"
            " Admin-PIN: set it again or delete it."
        )
        notices.append(("Admin-PIN unlesbar", text, text, said))
    others = [key for key in keys if key != admin.PIN_SETTING]
    if others:
        shown = ", ".join(others[:2]) + (f" und {len(others) - 2} weitere" if others[2:] else "")
        listed = ", ".join(others)
        notices.append(
            (
                "Einstellung unlesbar",
                f"Es gilt der Standard für {shown}. Neu setzen: Einstellungen oder Laptop.",
                f"Einstellungen nicht lesbar, es gilt der Standard: {listed}.",
                T("Settings that cannot be read count at their default: {keys}.", keys=listed),
            )
        )
    return notices


def _resume_question(app: App, session: Session) -> Confirm:
    record = session.record
    title = catalog.entry(record.game).title

    def yes() -> None:
        start_game(app, session)

    def no() -> None:
        session.abandon()
        app.pop()

    names = ", ".join(s.name for s in record.seats if s.is_human)
    return Confirm(f"Partie fortsetzen? {title}" + (f" ({names})" if names else ""), yes, no)


class SetupFlow:
    """Seats, then a name or computer level per seat, then the house rules, then start."""

    def __init__(self, entry: GameEntry, variant: Variant | None = None) -> None:
        self.entry = entry
        self.variant = variant
        self.min_seats = variant.min_seats if variant else entry.min_seats
        self.max_seats = variant.max_seats if variant else entry.max_seats
        self.levels = variant.levels if variant else entry.levels
        self.needs_seats = variant.needs_seats if variant else entry.needs_seats
        self.title = variant.title if variant else entry.title
        self.seats: list[Seat] = []
        self.count = self.min_seats
        self.params: dict[str, Any] = {}

    def first_screen(self, app: App) -> Screen:
        self.app = app
        settings = app.store.settings()
        for rule in self.entry.house_rules:
            self.params[rule.param] = self.entry.remembered(settings, rule)
        if not self.needs_seats:
            return self.rules_menu()
        choices = range(self.min_seats, self.max_seats + 1)
        items = [
            Item(f"{n} Plätze" if n > 1 else "1 Platz", partial(self.choose_count, n))
            for n in choices
        ]
        title = f"{self.title}: Plätze"  # the game's name alone where both do not fit
        return ListMenu(title if len(title) <= 20 else self.title, items)

    def choose_count(self, n: int) -> None:
        self.count = n
        self.seats = []
        self.app.push(self.seat_menu())

    def seat_menu(self) -> ListMenu:
        i = len(self.seats)
        taken = {s.name for s in self.seats}
        last = self.app.store.last_name()
        items = [
            Item(f"{name} (zuletzt)" if name == last else name, partial(self.add_seat, Seat(name)))
            for name in sorted_names(self.app.store.names())
            if name not in taken
        ]
        items.append(Item("Neuer Name ...", self.spell_name))
        for level in self.levels:
            label = LEVEL_NAMES.get(level, level.title())
            items.append(
                Item(
                    f"Computer {label}" if level != "computer" else "Computer",
                    partial(self.add_computer, level),
                )
            )
        return SeatMenu(self, i, items)

    def spell_name(self) -> None:
        def done(word: str) -> None:
            name = word.strip()
            taken = {s.name for s in self.seats}
            if not name:
                self.app.pop()
                return
            if name in taken:
                self.app.replace(Message("Name vergeben", f"{name} sitzt schon am Tisch."))
                return
            self.app.store.remember_name(name)
            self.app.pop()
            self.add_seat(Seat(name))

        self.app.push(Speller("Name", done, ALPHABET))

    def add_computer(self, level: str) -> None:
        number = sum(1 for s in self.seats if not s.is_human) + 1
        label = LEVEL_NAMES.get(level, level.title())
        self.add_seat(Seat(name=f"{label} {number}", kind="computer", level=level))

    def add_seat(self, seat: Seat) -> None:
        self.seats.append(seat)
        if seat.is_human:
            self.app.store.remember_name(seat.name)
        if len(self.seats) < self.count:
            self.app.push(self.seat_menu())
        elif self.entry.house_rules:
            self.app.push(self.rules_menu())
        else:
            self.start()  # nothing left to choose

    def rules_menu(self) -> ListMenu:
        items = []
        for rule in self.entry.house_rules:
            items.append(
                Item(
                    partial(self.rule_label, rule),
                    partial(self.cycle, rule),
                )
            )
        items.append(Item("Start", self.start))
        return ListMenu(f"{self.title}", items)

    def rule_label(self, rule: HouseRule) -> str:
        return f"{rule.label}: {rule.label_of(self.params[rule.param])}"

    def cycle(self, rule: HouseRule) -> None:
        options = list(rule.options)
        value = self.params[rule.param]
        self.params[rule.param] = options[(options.index(value) + 1) % len(options)]

    def start(self) -> None:
        params = dict(self.params)
        if self.needs_seats:
            params["players"] = len(self.seats)
            seats = self.seats
        else:
            seats = [Seat("Tisch")]
        remembered = {
            self.entry.setting(r.setting): params[r.param]
            for r in self.entry.house_rules
            if r.setting
        }
        if remembered:
            try:
                self.app.store.set_settings(remembered)
                self.app.reload_settings()
            except SettingsError:
                pass
        hook = self.entry.setup_hook()
        if hook is not None:
            hook(self.app, params, list(seats), self.variant)
        else:
            launch(self.app, self.entry.id, params, list(seats))


class SeatMenu(ListMenu):
    """Who sits at seat i. Shown again (Zurück from a later step), it forgets the seats
    chosen from here on, so a seat is never counted twice."""

    def __init__(self, flow: SetupFlow, index: int, items: list[Item]) -> None:
        super().__init__(f"Platz {index + 1} von {flow.count}", items)
        self.flow = flow
        self.seat_index = index

    def enter(self) -> None:
        del self.flow.seats[self.seat_index :]


# --- Bestenliste ----------------------------------------------------------


class BestenlisteScreen(Screen):
    """One game's Bestenliste: the ratings (place, name, Stärke = μ − 3σ or "neu",
    matches, wins), best first; K3 turns to the game's own points (the average per match,
    ranked by it) and back; K1/K2 page. What it shows is computed when it comes up, the
    same numbers the link's bestenliste.get sends."""

    ROWS = 4
    PAGES = ("stärke", "punkte")

    def __init__(self, game: str) -> None:
        self.game = game
        self.page = 0
        self.view = self.PAGES[0]
        self.ratings: list[ratings.Line] = []
        self.points: list[ratings.PointsLine] = []

    def enter(self) -> None:
        self.ratings = ratings.lines(self.app.store, self.game)
        self.points = ratings.points_lines(self.app.store, self.game)

    def softkeys(self) -> list[SoftKey | None]:
        other = "Punkte" if self.view == "stärke" else "Stärke"
        return [SoftKey("Auf", "k"), SoftKey("Ab", "j"), SoftKey(other, "p"),
                SoftKey("Zurück", "\x08\n")]  # fmt: skip

    def rows(self) -> list[str]:
        """The lines of the page shown, as the panel writes them."""
        if self.view == "stärke":
            return [
                f"{line.place:>2} {line.label[:9]:<9} {_strength(line.rating):>5}"
                f" {line.rating.matches:>3} {line.rating.wins:>2}"
                for line in self.ratings
            ]
        return [
            f"{s.place:>2} {s.name[:9]:<9} {s.average:>5.1f} {s.matches:>3} {s.wins:>2}"
            for s in self.points
        ]

    def draw(self, canvas: Canvas) -> None:
        rows = self.rows()
        pages = max(1, -(-len(rows) // self.ROWS))
        self.page = min(self.page, pages - 1)
        try:
            title = catalog.entry(self.game).title
        except catalog.UnknownGame:
            title = self.game
        right = f"{self.page + 1}/{pages}"
        y = canvas.title(title[: 24 - len(right)], right)
        head = "Pl Name     Stärke" if self.view == "stärke" else "Pl Name      Ø Pkt"
        canvas.text((2, y), f"{head}  Sp  S", SMALL)
        y += 9
        if not rows:
            canvas.text((2, y + 4), "Noch keine Partie.", TEXT)
        for row in rows[self.page * self.ROWS : (self.page + 1) * self.ROWS]:
            canvas.text((2, y), row, SMALL)
            y += 9

    def on_key(self, event: KeyEvent) -> None:
        if event.key == Key.K1:
            self.page = max(0, self.page - 1)
        elif event.key == Key.K2:
            self.page += 1
        elif event.key == Key.K3:
            self.view = self.PAGES[1 - self.PAGES.index(self.view)]
            self.page = 0
        elif event.key == Key.K4 and not event.long:
            self.app.pop()

    def summary(self) -> dict[str, Any]:
        return {
            "screen": "bestenliste",
            "game": self.game,
            "view": self.view,
            "lines": [
                [line.place, line.label, _strength(line.rating), line.rating.matches,
                 line.rating.wins]
                for line in self.ratings
            ],
            "points": [
                [s.place, s.name, round(s.average, 1), s.matches, s.wins] for s in self.points
            ],
        }  # fmt: skip

    def spoken(self) -> list[Line]:
        """The game, the page shown (Stärke or Punkte), and its lines: place, name, the
        strength or the average points, matches and wins."""
        try:
            title = catalog.entry(self.game).title
        except catalog.UnknownGame:
            title = self.game
        rows = self.ratings if self.view == "stärke" else self.points
        pages = max(1, -(-len(rows) // self.ROWS))
        page = min(self.page, pages - 1)
        head = f"Bestenliste {title}, {self.view.title()}, Seite {page + 1} von {pages}"
        if not rows:  # one line: said again on the other page, where only the head changes
            return [focus(f"{head}: noch keine Partie")]
        said = []
        for line in rows[page * self.ROWS : (page + 1) * self.ROWS]:
            if isinstance(line, ratings.Line):
                strength = _strength(line.rating).replace(".", ",")
                name, value = line.label, f"Stärke {strength}"
                matches, wins = line.rating.matches, line.rating.wins
            else:
                average = f"{line.average:.1f}".replace(".", ",").replace("-", "minus ")
                name, value = line.name, f"im Schnitt {average} Punkte"
                matches, wins = line.matches, line.wins
            played = count(matches, "Partie", "Partien", female=True)
            said.append(f"Platz {line.place}: {name}, {value}, {played}, {wins} gewonnen")
        return [focus(head), focus(". ".join(said))]


def _strength(rating: ratings.Rating) -> str:
    """A rating as the Bestenliste shows it: μ − 3σ to one decimal, "neu" after the first
    match."""
    return "neu" if rating.new else f"{rating.conservative:.1f}"


def _push(app: App, screen: Screen) -> None:
    app.push(screen)


def bestenliste_menu(app: App) -> ListMenu:
    items = [Item(e.title, partial(_push, app, BestenlisteScreen(e.id))) for e in catalog.entries()]
    return ListMenu("Bestenliste", items)


# --- settings -------------------------------------------------------------

CONTRASTS = (50, 100, 150, 200, 255)
CLOCK_SECONDS = (5, 10, 15, 20, 30, 60)
UNDO_MS = (0, 1000, 1500, 2500, 4000)
"""The Einstellungen menu's choices for how long a move can be taken back (ms)."""
SPEECH_MODES = {"ereignisse": "Ereignisse", "alles": "alles"}
"""What the box says by itself (speech.mode), as the Einstellungen menu names it."""
SPEECH_VOLUMES = (50, 75, 100, 150, 200)
SPEECH_SPEEDS = (120, 140, 160, 190, 230)
"""The Einstellungen menu's choices for the speech's loudness and its words per minute."""


def settings_menu(app: App) -> ListMenu:
    """Display contrast, the clock, the sound, Zurück, the admin PIN, the link's port."""

    def cycle(key: str, options: tuple[Any, ...]) -> None:
        value = app.settings()[key]
        nxt = options[(options.index(value) + 1) % len(options)] if value in options else options[0]
        app.store.set_settings({key: nxt})
        app.reload_settings()

    def spell_pin() -> None:
        def done(word: str) -> None:
            try:
                app.store.set_settings({"admin.pin": word})
                admin.reset(app.store)
                app.reload_settings()
                app.replace(Message("Admin-PIN", "PIN gespeichert." if word else "PIN gelöscht."))
            except SettingsError:
                app.replace(Message("Admin-PIN", "Die PIN braucht 4 bis 8 Ziffern."))

        app.push(Speller("Admin-PIN, leer=keine", done, "0123456789", 8, secret=True))

    def clear_pin() -> None:
        """The box's own reset (the physical box is trusted): no PIN, no lockout."""
        app.store.set_settings({"admin.pin": ""})
        admin.reset(app.store)
        app.reload_settings()
        app.replace(Message("Admin-PIN", "PIN gelöscht. Der Link ist offen."))

    def pin_menu() -> None:
        app.push(
            ListMenu("Admin-PIN", [Item("Neue PIN", spell_pin), Item("PIN löschen", clear_pin)])
        )

    def onoff(key: str) -> str:
        return "an" if app.settings()[key] else "aus"

    def speech_text() -> str:
        if not app.settings()["speech.enabled"]:
            return "aus"
        return "an" if getattr(app, "speech", None) is not None else "an (stumm)"

    def undo_text() -> str:
        ms = int(app.settings()["undo.ms"])
        return f"{ms / 1000:g} s".replace(".", ",") if ms else "aus"

    items = [
        Item(
            lambda: f"Kontrast: {app.settings()['display.contrast']}",
            lambda: cycle("display.contrast", CONTRASTS),
        ),
        Item(
            lambda: f"Uhr: {onoff('clock.enabled')}", lambda: cycle("clock.enabled", (False, True))
        ),
        Item(
            lambda: f"Uhr-Sekunden: {app.settings()['clock.seconds']}",
            lambda: cycle("clock.seconds", CLOCK_SECONDS),
        ),
        Item(
            lambda: f"Ton: {onoff('sound.enabled')}",
            lambda: cycle("sound.enabled", (False, True)),
        ),
        Item(lambda: f"Sprache: {speech_text()}", lambda: cycle("speech.enabled", (False, True))),
        Item(
            lambda: f"Sprechen: {SPEECH_MODES[app.settings()['speech.mode']]}",
            lambda: cycle("speech.mode", tuple(SPEECH_MODES)),
        ),
        Item(
            lambda: f"Lautstärke: {app.settings()['speech.volume']}",
            lambda: cycle("speech.volume", SPEECH_VOLUMES),
        ),
        Item(
            lambda: f"Tempo: {app.settings()['speech.speed']}",
            lambda: cycle("speech.speed", SPEECH_SPEEDS),
        ),
        Item(lambda: f"Zurück: {undo_text()}", lambda: cycle("undo.ms", UNDO_MS)),
        Item(
            lambda: (
                "Admin-PIN: gesetzt" if app.settings()["admin.pin"] else "Ohne PIN: Link offen"
            ),
            pin_menu,
        ),
        Item(
            lambda: f"Link-Port: {short_port(str(app.settings()[PORT_SETTING]))}",
            lambda: app.push(port_menu(app)),
        ),
        Item("Namen", lambda: app.push(names_menu(app))),
    ]
    extra = _extra_settings(app)
    items.extend(extra)
    return ListMenu("Einstellungen", items)


PORT_SETTING = "serial.port"


# --- names ---------------------------------------------------------------------------


def sorted_names(names: list[str]) -> list[str]:
    """Names in a stable alphabetical order (ä with a, upper and lower case alike)."""
    plain = str.maketrans("äöüÄÖÜß", "aouAOUs")
    return sorted(names, key=lambda n: (n.translate(plain).casefold(), n))


NAME_REFUSED = {
    "running": "{old} spielt in einer Partie, die nicht vorbei ist. Erst beenden oder verlassen.",
    "together": "{old} und {new} haben zusammen gespielt: das sind zwei Spieler.",
    "same": "Der Name ist derselbe.",
    "unknown": "Den Namen {old} gibt es nicht mehr.",
}
"""Why the box refuses a rename (store.NameChange's `why`), in the players' words."""


def names_menu(app: App) -> ListMenu:
    """Einstellungen → Namen: the names the box offers at the seats, alphabetically (the
    last player marked); OK on one renames or deletes it."""
    last = app.store.last_name()
    items = [
        Item(f"{name} (zuletzt)" if name == last else name, partial(_name_menu, app, name))
        for name in sorted_names(app.store.names())
    ]
    return ListMenu("Namen", items or [Item("Noch keine Namen", lambda: None)])


def _name_menu(app: App, name: str) -> None:
    app.push(ListMenu(name, [Item("Umbenennen", partial(_rename, app, name)),
                             Item("Löschen", partial(_delete, app, name))]))  # fmt: skip


def _names_again(app: App) -> None:
    """Back to the list of names, as it is now."""
    app.pop()  # the name's menu
    app.replace(names_menu(app))


def _delete(app: App, name: str) -> None:
    def yes() -> None:
        app.store.forget_name(name)  # gone already (from the laptop): nothing to do
        app.pop()  # the question
        _names_again(app)

    app.push(Confirm(f"{name} aus den Namen löschen? Partien und Bestenliste bleiben.",
                     yes, app.pop, "Löschen", "Nein"))  # fmt: skip


def _rename(app: App, name: str) -> None:
    from ..store import NameChange

    def rename(new: str) -> None:
        try:
            merged = app.store.rename_name(name, new)
        except NameChange as exc:
            text = NAME_REFUSED.get(exc.why, str(exc)).format(old=name, new=new)
            app.replace(Message("Umbenennen", text))
            return
        app.pop()  # the speller or the question
        _names_again(app)
        if merged:
            app.push(Message("Umbenennen", f"{name} und {new} sind jetzt ein Spieler."))

    def done(word: str) -> None:
        new = word.strip()
        if not new or new == name:
            app.pop()
            return
        if new in app.store.names():
            app.replace(Confirm(f"{new} gibt es schon. {name} und {new} zusammenlegen?",
                                lambda: rename(new), app.pop, "Ja", "Nein"))  # fmt: skip
            return
        rename(new)

    app.push(Speller("Neuer Name", done, ALPHABET, initial=name))


def short_port(path: str) -> str:
    """A port as the panel names it: without /dev/ (a by-id name by its own name)."""
    return path.rsplit("/", 1)[-1] if path.startswith("/dev/") else path


def port_menu(app: App) -> ListMenu:
    """The laptop link's port: the default, or one of the serial ports there now. It
    takes effect at the next start (the link already runs on the port it has)."""
    from ..serial_ports import available

    default = str(SETTINGS[PORT_SETTING].default)

    def choose(port: str) -> None:
        try:
            app.store.set_settings({PORT_SETTING: port})
        except SettingsError:
            app.replace(Message("Link-Port", f"{short_port(port)} ist nicht mehr da."))
            return
        app.reload_settings()
        app.replace(Message("Link-Port", f"Der Link nimmt {port} beim nächsten Start."))

    items = [Item(f"Standard: {short_port(default)}", partial(choose, default))]
    items.extend(Item(short_port(p), partial(choose, p)) for p in available() if p != default)
    return ListMenu("Link-Port", items)


def port_fallback_notice(wanted: str, used: str) -> tuple[str, str]:
    """The panel's title and text when the link's port did not open at the start."""
    return (
        "Link-Port fehlt",
        f"{short_port(wanted)[:20]} geht nicht auf. Link jetzt auf {short_port(used)[:20]}."
        " Einstellungen: Link-Port.",
    )


def _extra_settings(app: App) -> list[Item]:
    """Settings items that games add (the spinner's calibration, tips)."""
    items: list[Item] = []
    for entry in catalog.entries():
        if entry.settings_items:
            items.extend(entry.load(entry.settings_items)(app))
    return items


# --- the menu on long K4 ----------------------------------------------------


def open_menu(app: App) -> None:
    """Long K4: the pause menu while a match is shown (from any of its screens), else
    back to the main menu."""
    game_screen = app.game_screen()
    if game_screen is not None:
        if not isinstance(app.top, PauseMenu):
            app.push(PauseMenu(game_screen))
    elif len(app.stack) > 1:
        app.reset(app.stack[0])


class PauseMenu(ListMenu):
    """In a game: Weiter (resume), the game's own entries, the ways to leave."""

    def __init__(self, game_screen: Any) -> None:
        self.game_screen = game_screen
        super().__init__("Pause", [])

    def attach(self, app: App) -> None:
        super().attach(app)
        self.items = [Item("Weiter", app.pop), *self.game_screen.pause_items()]

    def on_menu(self) -> bool:
        self.app.pop()
        return True
