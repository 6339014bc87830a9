"""The box's speech: what the screens say, said once, as it happens, off the loop.

After each frame the box hands its top screen (and the match's main screen, whose news
goes on under Info or the pause menu) to :class:`SpeechService`. The service takes each
screen's lines (`Screen.spoken`, see :mod:`spielleiter.ui.speech`) and says

* each piece of news once (a computer's move while it is shown, the lot drawn, a call);
* the focus of the screen the players look at when it comes up and when it changes
  ("Anna ist dran. Los 27, 3 Groschen darauf", the item chosen in a list);
* with the setting `speech.mode` "alles", the rest of each new screen and its keys too;
* on the repeat key (a long K3), the whole screen and its keys.

A newer utterance cuts the one playing short: what it still had to say is stale. A move
taken back is said ("Zurückgenommen") and its news forgotten, so the same move made again
is said again. The moment after a human's move, and a computer's move on the panel,
last until their words end: the table asks :meth:`SpeechService.words_end`.

The speaker (hal.speaker: eSpeak NG and the machine's player) runs in a thread of its
own; without one the box runs silent and says so once in the log. Under a key script
nothing is played: the transcript (``spielleiter --speech FILE``) says what would be, with
the frame each utterance belongs to, and the words' length comes from the estimate, so the
frames of a script never depend on the machine.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from .hal.speaker import Speaker, Utterance, estimate_s, find_engine, find_player, sound_output
from .ui.screen import Screen, SoftKey
from .ui.speech import Line, sentence, text_of

log = logging.getLogger("spielleiter.speech")

TAKEN_BACK = "Zurückgenommen."
GREETING = "Spielleiter spricht. Taste 3 lang: alles noch einmal."
"""The first words: how to hear the whole screen again (a long K3, the repeat key)."""
KEY_WORDS = {"<": "zurück", ">": "weiter", "+": "plus", "-": "minus"}
"""How soft-key labels that are signs are said."""
MEMORY = 2000
"""Pieces of news the service remembers (a long match has a few hundred)."""
HOLD_FACTOR = 2.0
HOLD_EXTRA_S = 1.0
"""A held move waits for its words at most this long: HOLD_FACTOR x the estimate + this
(a player that hangs never holds the match for good)."""
TICK_S = 0.05
MODES = ("ereignisse", "alles")


def open_speaker() -> tuple[Speaker | None, str]:
    """The box's speaker, or None and why the box runs silent (for its one log line)."""
    engine = find_engine()
    if engine is None:
        return None, "no espeak-ng here (on the Pi: sudo apt-get install espeak-ng)"
    if not sound_output():
        return None, "no sound output (no ALSA playback device, no PipeWire or PulseAudio)"
    player = find_player()
    if player is None:
        return None, "no player for the audio (aplay, pw-play or paplay)"
    return Speaker(engine, player), ""


def keys_text(keys: Sequence[SoftKey | None]) -> str:
    """The soft keys in words: "Tasten: 1 Nein, 2 Nehmen, 4 Info"."""
    said = [
        f"{i} {KEY_WORDS.get(k.label, k.label)}" for i, k in enumerate(keys, 1) if k and k.label
    ]
    return f"Tasten: {', '.join(said)}." if said else ""


def spoken_of(screen: Screen | None) -> list[Line]:
    return list(screen.spoken()) if screen is not None else []


def view_of(screen: Screen) -> Screen:
    """The screen the players look at: under a screen drawn over another (Zurück's moment,
    a hand-over), the one below."""
    seen = 0
    while (under := screen.covers()) is not None and seen < 8:
        screen, seen = under, seen + 1
    return screen


@dataclass
class Said:
    """An utterance said or waiting its turn: its text, when it begins (or would, by the
    estimate), how long it should take."""

    text: str
    frame: int
    start: float
    estimate: float
    event: bool
    """News or focus (the moment of a move waits for it); False: the repeat key's."""
    stale_soon: bool
    """It tells what is chosen or whose turn it is (or is the repeat key's): anything newer
    makes it stale. News alone is said to its end, and newer news waits behind it."""
    utterance: Utterance | None = None

    @property
    def end(self) -> float:
        return self.start + self.estimate


class SpeechService:
    """Says what the screens say (see the module's docstring)."""

    def __init__(
        self,
        clock: Callable[[], float],
        settings: Callable[[], Mapping[str, Any]],
        speaker: Speaker | None = None,
        transcript: TextIO | None = None,
        virtual: bool = False,
    ) -> None:
        self.clock = clock
        self.settings = settings
        self.speaker = speaker
        self.transcript = transcript
        self.virtual = virtual
        """Virtual time (key scripts): nothing is played, the words last their estimate."""
        self.said: list[tuple[int, str]] = []
        """(frame, text) of every utterance since the start (tests, benchmarks)."""
        self._news: OrderedDict[Hashable, tuple[str, int]] = OrderedDict()
        self._session: Any = None
        self._committed = 0
        self._view: Screen | None = None
        self._focus: list[str] = []
        self._rest: list[str] = []
        self._seen: tuple[int, int, int, int] | None = None
        self._queue: list[Said] = []
        """What is being said and what waits, until it is written into the transcript (once
        it is known whether it was said to its end)."""
        self._pressed = False
        self._greeted = False

    # --- settings ----------------------------------------------------------------
    @property
    def enabled(self) -> bool:
        return bool(self.settings().get("speech.enabled", True))

    @property
    def everything(self) -> bool:
        """ "alles": new screens are said whole, with their keys."""
        return self.settings().get("speech.mode") == "alles"

    # --- what the box hands over ---------------------------------------------------
    def observe(self, top: Screen, game: Screen | None, session: Any, frame: int) -> None:
        """After a frame: say what is new on the screens (see the module's docstring)."""
        if not self.enabled:
            if self._queue:
                self._stop()
            self._forget_view()
            return
        committed = int(session.committed) if session is not None else 0
        seen = (frame, id(top), id(session), committed)
        if seen == self._seen:
            return
        self._seen = seen
        told: set[str] = set()
        out: list[str] = [] if self._greeted else [GREETING]
        self._greeted = True
        if session is not self._session:
            self._news.clear()
            self._session = session
        elif committed < self._committed:
            out.append(TAKEN_BACK)
            for key in [k for k, (_, at) in self._news.items() if at > committed]:
                del self._news[key]
            told = {text for text, _ in self._news.values()}  # the news as it was, again
            self._view = None
        self._committed = committed
        lines = spoken_of(top)
        for line in (spoken_of(game) if game is not None and game is not top else []) + lines:
            if line.is_news and self._news.get(line.key, ("", 0))[0] != line.text:
                if line.text not in told:
                    out.append(line.text)
                self._remember(line.key, line.text, committed)
        focus = [line.text for line in lines if line.focus]
        rest = [line.text for line in lines if not line.focus and not line.is_news]
        view = view_of(top)
        if view is not self._view:
            out += focus
            if self.everything:
                out += [*rest, keys_text(top.softkeys())]
        else:
            out += [text for text in focus if text not in self._focus]
            if self.everything:
                out += [text for text in rest if text not in self._rest]
        self._view, self._focus, self._rest = view, focus, rest
        said = _unique([text for text in out if text.strip()])
        if said:
            stale_soon = any(t in focus for t in said) or TAKEN_BACK in said
            self._say(" ".join(sentence(t) for t in said), frame, True, stale_soon)

    def pressed(self) -> None:
        """A key was pressed: what is being said now is stale (the next words cut it)."""
        self._pressed = True

    def repeat(self, top: Screen, frame: int) -> None:
        """The repeat key: the whole screen, then its keys."""
        if not self.enabled:
            return
        whole = text_of(spoken_of(top))
        keys = keys_text(top.softkeys())
        self._say(" ".join(t for t in (whole, keys) if t) or "Nichts zu sagen.", frame, False, True)

    def words_end(self) -> float | None:
        """When the words being said end (box time), while they tell what the panel shows
        now (news or focus; the repeat key's never hold a move); None when nothing is."""
        events = [said for said in self._queue if said.event]
        if not events:
            return None
        now = self.clock()
        last = events[-1]
        if self.virtual:
            return last.end if last.end > now else None
        if all(said.utterance is None or said.utterance.over for said in events):
            return None  # played (or, on a box with nothing to play, never held)
        limit = last.start + HOLD_FACTOR * last.estimate + HOLD_EXTRA_S
        return min(now + TICK_S, limit) if now < limit else None

    def close(self) -> None:
        """Stop speaking, write the transcript's last lines."""
        self._settle(float("inf") if self.virtual else self.clock())
        self._stop()
        if self.speaker is not None:
            self.speaker.close()
        if self.transcript is not None:
            self.transcript.close()

    # --- inside ---------------------------------------------------------------------
    def _remember(self, key: Hashable, text: str, committed: int) -> None:
        self._news[key] = (text, committed)
        self._news.move_to_end(key)
        while len(self._news) > MEMORY:
            self._news.popitem(last=False)

    def _forget_view(self) -> None:
        self._view, self._focus, self._rest, self._seen = None, [], [], None

    def _finished(self, said: Said, now: float) -> bool:
        if said.utterance is not None:
            return said.utterance.over
        return said.end <= now

    def _settle(self, now: float) -> None:
        """Write what was said to its end into the transcript."""
        while self._queue and self._finished(self._queue[0], now):
            said = self._queue.pop(0)
            self._write(said, cut=said.utterance is not None and said.utterance.cut)

    def _stop(self) -> None:
        """Everything being said or waiting is cut short."""
        self._settle(self.clock())
        for said in self._queue:
            self._write(said, cut=True)
        self._queue = []
        if self.speaker is not None:
            self.speaker.stop()

    def _say(self, text: str, frame: int, event: bool, stale_soon: bool) -> None:
        settings = self.settings()
        speed = int(settings.get("speech.speed", 160))
        volume = int(settings.get("speech.volume", 100))
        now = self.clock()
        self._settle(now)
        after = bool(self._queue) and not self._pressed and not any(
            said.stale_soon for said in self._queue
        )
        self._pressed = False
        start = max(now, self._queue[-1].end) if after else now
        if not after:
            for said in self._queue:
                self._write(said, cut=True)
            self._queue = []
        said = Said(text, frame, start, estimate_s(text, speed), event, stale_soon)
        if self.speaker is not None and not self.virtual:
            said.utterance = self.speaker.say(text, speed, volume, after=after)
        self._queue.append(said)
        self.said.append((frame, text))

    def _write(self, said: Said, cut: bool) -> None:
        if self.transcript is None:
            return
        line = f"{frame_name(said.frame)}\t{said.text}" + ("\tabgebrochen" if cut else "")
        self.transcript.write(line + "\n")
        self.transcript.flush()


def frame_name(frame: int) -> str:
    """The frame as --frames names its file (the same count: the frames sent so far)."""
    return f"frame-{frame:06d}.png"


def _unique(texts: list[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for text in texts:
        if text not in seen:
            seen.add(text)
            out.append(text)
    return out
