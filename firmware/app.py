"""The device loop: key events in, the top screen reacts, a frame goes out.

The same loop runs on the Pi (gpiozero buttons, the OLED), in a terminal (keyboard,
half-block drawing) and from a key script (virtual time, PNG frames). Computer
players think in a worker thread; the screen says so meanwhile.
"""

from __future__ import annotations

import logging
import queue
import random
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any

from . import __version__
from .hal.clock import SystemClock, VirtualClock
from .hal.display import FrameSink
from .hal.keys import MENU, REPEAT, Key, KeyEvent
from .session import Session
from .store import Store, is_full
from .texts import Text
from .ui.canvas import Canvas, ShownFrame
from .ui.screen import Screen, render
from .ui.take_back import LATE_NOTE_S, TakeBackScreen, draw_too_late

TICK_S = 0.05
"""How often the loop looks at the time when nothing happens."""

log = logging.getLogger("spielleiter")

ARROW_KEYS = {"\u2191": 1, "\u2190": 1, "\u2193": 2, "\u2192": 2}
"""The terminal's arrows (hal.terminal posts them as these characters) -> soft key."""
NAVIGATION = {"<", ">", "Auf", "Ab"}
"""Soft-key labels the arrows may press: moving in a list or a page, never a game move."""


@dataclass(frozen=True)
class Wait:
    """A script entry: let time pass."""

    seconds: float


@dataclass(frozen=True)
class AtOnce:
    """A script entry: a key pressed at once, while the box still shows something (a
    move that "Zurück" may take back, a computer's move), instead of when it waits."""

    event: KeyEvent


ScriptEntry = KeyEvent | Wait | AtOnce


def parse_script(text: str) -> list[ScriptEntry]:
    """Read a key script: K1..K4, K1-long..K4-long, `wait SECONDS`, `#` comments; a key
    written with a leading "!" (`!K1`) is pressed at once, without waiting for the box."""
    entries: list[ScriptEntry] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            if line.split()[0].lower() == "wait":
                entries.append(Wait(_wait_seconds(line.split()[1:])))
            elif line.startswith("!"):
                entries.append(AtOnce(KeyEvent.parse(line[1:])))
            else:
                entries.append(KeyEvent.parse(line))
        except (ValueError, IndexError) as exc:
            raise ValueError(f"key script line {number}: {raw.strip()!r}: {exc}") from exc
    return entries


SCRIPT_WAIT_MAX_S = 3600.0
"""The longest `wait` in a key script (the Uhr's longest is 120 s)."""


def _wait_seconds(words: list[str]) -> float:
    """The seconds of a script's `wait SECONDS` (ValueError saying what it wants)."""
    want = f"want wait SECONDS, a number from 0 to {SCRIPT_WAIT_MAX_S:g}"
    try:
        (seconds,) = (float(word) for word in words)
    except ValueError:
        raise ValueError(want) from None
    if not 0 <= seconds <= SCRIPT_WAIT_MAX_S:  # also NaN
        raise ValueError(want)
    return seconds


def _warm_ratings(store: Store) -> None:
    """Off the loop, after the first frame: the ratings' cache file read (openskill stays
    unloaded), so the first Bestenliste of a boot folds only what is new."""
    from . import ratings

    ratings.warm(store)


def _hand_over(future: Future[Any], done: Callable[[Any], None]) -> None:
    done(future.result())


class Box:
    """The running device: a stack of screens, the store, the displays, the jobs."""

    def __init__(
        self,
        store: Store,
        sink: FrameSink,
        clock: SystemClock | VirtualClock,
        rng: random.Random,
        hardware: dict[str, Any] | None = None,
        watchdog: Any = None,
        seeds: random.Random | None = None,
    ) -> None:
        self.store = store
        self.sink = sink
        self.clock = clock
        self.rng = rng
        """The box's stream for advice, tips and animations: never for chance or computers."""
        self.seeds = seeds or random.Random(rng.getrandbits(64))
        """The stream that seeds each new record (its chance and its computers)."""
        self.hardware = hardware or {}
        self.watchdog = watchdog
        self.session: Session | None = None
        self.table: Any = None
        """The table of the match being shown (None in the menus)."""
        self.errors = 0
        """How many exceptions the loop caught (and showed) since the start."""
        self.notes: list[str] = []
        """What the box noted since the start, in German: a stored row it could not read
        (a setting at its default, an open game set aside). `hello` sends them."""
        self.note_texts: list[Text | None] = []
        """Each note as the laptop's text (None: the note has none; it stays German)."""
        self.stack: list[Screen] = []
        self.started = time.monotonic()
        self._settings = store.settings()
        self._events: queue.Queue[KeyEvent | str | Callable[[], None]] = queue.Queue()
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bots")
        self._jobs: list[tuple[Future[Any], Callable[[Any], None]]] = []
        self._quit = threading.Event()
        self._shown = ShownFrame()
        self.polls: list[Callable[[float], list[KeyEvent]]] = []
        self.spinner: Any = None
        self.buzzer: Any = None
        """Plays the tables' tunes (hal.buzzer); None: a box without sound."""
        self.late_note_until = 0.0
        self.speech: Any = None
        """Says what the screens say (spielleiter.speech); None: a box that never speaks."""
        """Until then the panel says "zu spät" (a Zurück pressed after its moment)."""

    # --- what screens use ------------------------------------------------
    def now(self) -> float:
        return self.clock.now()

    def settings(self) -> dict[str, Any]:
        return self._settings

    def reload_settings(self) -> None:
        self._settings = self.store.settings()
        self.sink.contrast(int(self._settings["display.contrast"]))

    def record_seed(self) -> int:
        """A new record's chance secret (its chance and its computers): 256 bits from the
        system's entropy on a real box; 62 from a fixed stream (--seed, tests), whose
        draws are meant to repeat and so are predictable by design."""
        return self.seeds.getrandbits(256 if isinstance(self.seeds, random.SystemRandom) else 62)

    def show_table(self, table: Any) -> None:
        """The match being shown changes (None: back in the menus); a previous one closes."""
        if self.table is not None and self.table is not table:
            self.table.close()
        self.table = table
        self.session = table.session if table is not None else None

    def game_screen(self) -> Screen | None:
        """The main screen of the match being shown (the one above the main menu)."""
        if self.table is None:
            return None
        for screen in self.stack[1:]:
            if getattr(screen, "table", None) is self.table and hasattr(screen, "pause_items"):
                return screen
        return None

    @property
    def top(self) -> Screen | None:
        return self.stack[-1] if self.stack else None

    def push(self, screen: Screen) -> None:
        screen.attach(self)
        self.stack.append(screen)
        screen.enter()

    def pop(self) -> None:
        if len(self.stack) > 1:
            self.stack.pop()
            self.stack[-1].enter()

    def replace(self, screen: Screen) -> None:
        if self.stack:
            self.stack.pop()
        self.push(screen)

    def reset(self, screen: Screen) -> None:
        """Clear the stack down to the main menu, then show `screen` on top of it."""
        del self.stack[1:]
        if screen is not self.stack[0]:
            self.push(screen)
        else:
            screen.enter()

    def submit(self, work: Callable[[], Any], done: Callable[[Any], None]) -> None:
        """Run `work` off the loop (a computer thinking); call `done(result)` on the loop."""
        self._jobs.append((self._executor.submit(work), done))

    def call_soon(self, fn: Callable[[], None]) -> None:
        """Run `fn` on the loop thread (thread-safe; used by the serial link)."""
        self._events.put(fn)

    def post(self, event: KeyEvent | str) -> None:
        """A key event, or a keyboard character resolved against the soft keys."""
        self._events.put(event)

    def quit(self) -> None:
        self._quit.set()

    @property
    def thinking(self) -> bool:
        return bool(self._jobs)

    @property
    def idle(self) -> bool:
        """Waiting for input: no computer thinking, no animation running."""
        top = self.top
        table = self.table
        held = table is not None and (table.hold_until is not None or table.too_late())
        return not self._jobs and not held and not (top is not None and top.busy)

    # --- the loop --------------------------------------------------------
    def guarded(self, what: str, fn: Callable[[], None]) -> None:
        """Run a step of the loop; an exception is logged and shown, never fatal."""
        try:
            fn()
        except Exception as exc:
            self.errors += 1
            record = self.session.record_id if self.session is not None else None
            if is_full(exc):
                log.error("storage full in %s (record %s): %s", what, record, exc)
                self.fail(full=True)
                return
            log.exception("error in %s (record %s)", what, record)
            self.fail()

    def fail(self, full: bool = False) -> None:
        """After an error: the match is set aside (resumable), the panel says so.

        A full store ("Speicher voll") loses nothing: the action that could not be
        committed was never shown, and Weiter resumes the match once there is room."""
        from .ui.widgets import Message

        if self.table is not None:
            self.table.close()
        self.table = None
        self.session = None
        del self._jobs[:]
        if self.stack:
            del self.stack[1:]
            if full:
                message = Message(
                    "Speicher voll",
                    "Nichts ist verloren. Platz schaffen (alte Partien löschen), dann Weiter.",
                    self._after_error,
                )
            else:
                message = Message(
                    "Fehler", "Ein Fehler ist passiert. Weiter zum Menü.", self._after_error
                )
            self.push(message)

    def _after_error(self) -> None:
        del self.stack[1:]
        self.stack[0].enter()
        self.offer_resume()

    def note(self, line: str, text: Text | None = None) -> None:
        """Keep a German line for the laptop (`hello`'s notes), once, with its text for
        the laptop's language (`notes_text`) where it has one."""
        if line not in self.notes:
            self.notes.append(line)
            self.note_texts.append(text)

    def offer_resume(self) -> None:
        """The open game, if there is one: "Partie fortsetzen?", or why it cannot go on."""
        from .ui.menus import resume_prompt

        unfinished = self.store.unfinished_record()
        if unfinished is not None:
            self.push(resume_prompt(self, unfinished, self.note))

    def show_start(self) -> None:
        """The first screens: the main menu, the open game (offered, or why it cannot go
        on), and on top what the box could not read of its settings (each at its
        default: shown at every start until the setting is set again)."""
        from .ui.menus import main_menu

        self.push(main_menu(self))
        self.offer_resume()
        self.submit(partial(_warm_ratings, self.store), lambda _: None)
        self._tell_unreadable_settings()

    def _tell_unreadable_settings(self) -> None:
        """What the box could not read of its stored settings: on the panel and for the
        laptop (each at its default until it is set again)."""
        from .ui.menus import unreadable_settings_notice
        from .ui.widgets import Message

        for title, text, line, said in unreadable_settings_notice(self.store.unreadable_settings()):
            self.note(line, said)
            self.push(Message(title, text))

    def dispatch(self, event: KeyEvent | str | Callable[[], None]) -> None:
        self.guarded("input", lambda: self._dispatch(event))

    def _dispatch(self, event: KeyEvent | str | Callable[[], None]) -> None:
        if callable(event) and not isinstance(event, KeyEvent):
            event()
            return
        if isinstance(event, str):
            resolved = self.resolve_char(event)
            if resolved is None:
                return
            event = resolved
        top = self.top
        if top is None:
            return
        if self.speech is not None:
            self.speech.pressed()  # what is being said is stale now
        if event == REPEAT:
            if self.speech is not None:
                self.speech.repeat(top, self.sink.sent)
            return
        if event == MENU:
            if not top.on_menu():
                self.open_menu()
            return
        if self.too_late(event):
            return
        before = list(self.stack)
        offered = self.table.take_back_offer if self.table is not None else None
        top.on_key(event)
        self.offer_take_back(before, offered)

    def too_late(self, event: KeyEvent) -> bool:
        """Zurück's key (a short K1) just after the Zurück moment ended: it was meant for
        Zurück, so it does nothing but say "zu spät" (never the next player's move)."""
        table = self.table
        if table is None or event.long or event.key != Key.K1:
            return False
        if table.take_back_offer is not None or not table.too_late():
            return False
        self.late_note_until = self.now() + LATE_NOTE_S
        return True

    def offer_take_back(self, before: list[Screen], offered: Any = None) -> None:
        """A human's move was just committed and may be taken back: show it with
        "Zurück" over the screens (which come back as `before` if it is taken back)."""
        table = self.table
        offer = None if table is None else table.take_back_offer
        if offer is None or offer is offered:
            return
        if not any(isinstance(s, TakeBackScreen) and s.open for s in self.stack):
            self.push(TakeBackScreen(table, before))

    def resolve_char(self, ch: str) -> KeyEvent | None:
        """The emulator's keyboard: 1-4, shift+1-4 (long), Esc, and the screen's letters."""
        if ch in "1234":
            return KeyEvent(Key(int(ch)))
        if ch in "!@#$":
            return KeyEvent(Key("!@#$".index(ch) + 1), long=True)
        if ch == "\x1b":
            return MENU
        if ch == "\r":
            ch = "\n"
        if ch == "\x7f":
            ch = "\x08"
        top = self.top
        if top is None:
            return None
        typed = getattr(top, "type_text", None)
        if typed is not None and typed(ch):
            return None  # a screen that takes typed text (the speller) took it
        keys = top.softkeys()
        for position, key in enumerate(keys, 1):
            if key and ch.lower() in key.hotkeys:
                return KeyEvent(Key(position))
        if ch in ARROW_KEYS:
            # up/left is K1 and down/right K2 where those keys move (never a game's move)
            key = keys[ARROW_KEYS[ch] - 1]
            if key is not None and key.label in NAVIGATION:
                return KeyEvent(Key(ARROW_KEYS[ch]))
        return None

    def open_menu(self) -> None:
        from .ui.menus import open_menu

        open_menu(self)

    def finish_jobs(self, block: bool = False) -> None:
        """Hand finished jobs' results to their screens (waiting for one when block).

        Under virtual time (key scripts) only a blocking call hands over a result, the
        oldest job's alone, so how fast a thread runs never changes the frames.
        """
        if block and self._jobs:
            self._jobs[0][0].exception()
        if isinstance(self.clock, VirtualClock):
            if not block:
                return
            ready, waiting = self._jobs[:1], self._jobs[1:]
        else:
            ready, waiting = [], []
            for job in self._jobs:
                (ready if job[0].done() else waiting).append(job)
        self._jobs = waiting
        for future, done in ready:
            self.guarded("a computer's answer", partial(_hand_over, future, done))

    def frame(self) -> Canvas:
        """Draw the top screen (and "zu spät" over K1 just after a late Zurück)."""
        assert self.top is not None
        canvas = render(self.top)
        if self.now() < self.late_note_until:
            draw_too_late(canvas)
        return canvas

    def refresh(self) -> None:
        """Draw and send the frame (nothing is sent when it did not change)."""
        top = self.top
        if top is None:
            return
        canvas = self.frame()
        note = f"{self.session.record_id}\t{self.session.committed}" if self.session else "-\t0"
        if self.sink.show(canvas.image, note):
            summary = top.summary()
            if self.now() < self.late_note_until:
                summary = {**summary, "too_late": True}
            self._shown.shown(canvas, summary)

    def step(self) -> None:
        """One pass of the loop: buttons, queued events, finished jobs, time, frame."""
        now = self.clock.now()
        for poll in self.polls:
            for event in poll(now):
                self.dispatch(event)
        while True:
            try:
                queued = self._events.get_nowait()
            except queue.Empty:
                break
            self.dispatch(queued)
        self.finish_jobs()
        self.guarded("the clock", lambda: self._tick(now))
        self.guarded("drawing", self.refresh)
        self.guarded("speaking", self.speak)
        if self.watchdog is not None:
            self.watchdog.ping()

    def _tick(self, now: float) -> None:
        if self.table is not None:
            if self.table.take_back_offer is not None:  # a move made other than by a key
                self.offer_take_back(list(self.stack))
            self.table.tick(now)
            self.play_sounds()
        if self.top is not None:
            self.top.tick(now)

    def speak(self) -> None:
        """What the screens say about the frame just shown, to the speech (which speaks off
        the loop): the top screen, and the match's main screen for its news."""
        top = self.top
        if self.speech is not None and top is not None:
            self.speech.observe(top, self.game_screen(), self.session, self.sink.sent)

    def words_end(self) -> float | None:
        """When the words about what the panel shows now end (box time), for a table whose
        held move lasts until then; None when nothing is being said."""
        return self.speech.words_end() if self.speech is not None else None

    def play_sounds(self) -> None:
        """The tunes the table asked for, on the buzzer when sound is on."""
        table = self.table
        if table is None or not table.sounds:
            return
        tunes, table.sounds[:] = list(table.sounds), []
        if self.buzzer is not None and self._settings.get("sound.enabled", True):
            for tune in tunes[-2:]:  # never a queue of old tunes: the latest moments only
                self.buzzer.play(tune)

    def run(self) -> None:
        """Run in real time until quit() (SIGTERM, SIGINT, the menu's Aus)."""
        while not self._quit.is_set():
            self.step()
            self._quit.wait(TICK_S)

    def settle(self, limit_s: float = 120.0) -> None:
        """Script mode: let computers finish and animations run until input is awaited."""
        assert isinstance(self.clock, VirtualClock)
        spent = 0.0
        self.step()
        while not self.idle and spent < limit_s:
            if self._jobs:
                self.finish_jobs(block=True)
            else:
                self.clock.advance(TICK_S)
                spent += TICK_S
            self.step()

    def run_script(self, entries: Iterable[ScriptEntry]) -> None:
        """Deliver each entry when the box next waits for input, then stop."""
        assert isinstance(self.clock, VirtualClock)
        for entry in entries:
            if self._quit.is_set():
                break
            if isinstance(entry, AtOnce):
                self.dispatch(entry.event)
                self.step()
                continue
            self.settle()
            if isinstance(entry, Wait):
                remaining = entry.seconds
                while remaining > 1e-9 and not self._quit.is_set():  # Ctrl-C ends a wait
                    dt = min(TICK_S, remaining)
                    self.clock.advance(dt)
                    remaining -= dt
                    self.step()
                    if self._jobs:
                        self.settle()
            else:
                self.dispatch(entry)
                self.step()
        self.settle()

    def close(self) -> None:
        if self.speech is not None:
            self.speech.close()
        self._executor.shutdown(wait=True, cancel_futures=True)
        if self.buzzer is not None:
            self.buzzer.close()
        if self.watchdog is not None:
            self.watchdog.stopping()
        self.sink.close()

    # --- what the serial link asks ---------------------------------------
    def hello(self) -> dict[str, Any]:
        return {
            "firmware": __version__,
            "hardware": dict(self.hardware),
            "uptime_s": round(time.monotonic() - self.started, 1),
            "game": self.session.record.game if self.session else None,
            "fault": None,
            "notes": list(self.notes),
            "notes_text": [None if t is None else t.to_json() for t in self.note_texts],
        }

    def screen(self) -> tuple[bytes, dict[str, Any]]:
        """The frame shown now as PNG (encoded when the link first asks), and its summary."""
        return self._shown.png()

    def settings_changed(self, settings: dict[str, Any]) -> None:
        self.call_soon(self.reload_settings)

    def spinner_read(self) -> dict[str, Any]:
        """The spinner now (source, angle, magnet, sector), for the laptop link."""
        from .spinner_service import SpinnerService

        return SpinnerService.of(self).read()

    def spinner_calibrate(self, params: dict[str, Any], check_only: bool = False) -> dict[str, Any]:
        """Change the spinner's calibration from the laptop (ValueError for bad params)."""
        from .spinner_service import SpinnerService

        return SpinnerService.of(self).calibrate(params, check_only)

    def restore_backup(self, data: bytes) -> None:
        """Replace the store with a backup from the laptop (ValueError when unsound); the
        box goes back to its main menu with the restored data."""
        if self.session is not None:
            raise ValueError("a game is on the box: leave it there first")
        self.store.restore(data)
        self.call_soon(self._restored)

    def _restored(self) -> None:
        """The restored data's own notes replace the old store's: its open game (offered, or
        why it cannot go on) and its settings the box cannot read."""
        self.notes.clear()
        self.note_texts.clear()
        self.reload_settings()
        if self.stack:
            self._after_error()
            self._tell_unreadable_settings()
