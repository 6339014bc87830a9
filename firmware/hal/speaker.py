"""The speaker: German speech from eSpeak NG, played without holding up the loop.

eSpeak NG (`espeak-ng`, from apt on the Pi) turns a text into 16-bit mono audio on its
standard output; a player of the machine (ALSA's `aplay` on the Pi, PipeWire's
`pw-play` or PulseAudio's `paplay` on a laptop) plays it. Both run as processes of their
own, started from a thread of the speaker's: `say` only hands the text over, so no key
and no frame waits for speech. A newer text cuts the one playing short. The hal knows no
game and no screen: it says the texts it is given.

    >>> estimate_s("Turm 5.", 160) < estimate_s("Carla nimmt Los 27 mit 3 Groschen.", 160)
    True
    >>> engine_command("espeak-ng", speed=160, volume=100)[:5]
    ['espeak-ng', '-v', 'de', '-b', '1']
"""

from __future__ import annotations

import io
import logging
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

log = logging.getLogger("spielleiter.speech")

ENGINE = "espeak-ng"
VOICE = "de"
"""eSpeak NG's German voice."""
WAV_HEADER = 44
"""Bytes before the first sample of the WAV that `espeak-ng --stdout` writes."""
PLAYERS: tuple[tuple[str, ...], ...] = (
    ("aplay", "-q", "-t", "wav", "-"),
    ("pw-play", "-"),
    ("paplay",),
)
"""Players that take a WAV on their standard input, in the order they are tried."""
CHUNK = 4096


def find_engine() -> str | None:
    """The path of eSpeak NG, None when the machine has none."""
    return shutil.which(ENGINE)


def find_player() -> list[str] | None:
    """The first player of PLAYERS the machine has (its command line), else None."""
    for command in PLAYERS:
        path = shutil.which(command[0])
        if path is not None:
            return [path, *command[1:]]
    return None


def sound_output(proc_pcm: Path = Path("/proc/asound/pcm"), runtime: str | None = None) -> bool:
    """Whether the machine has somewhere to play to: an ALSA playback device (the Pi's
    I²S amplifier or USB card), or a PipeWire or PulseAudio server of this user."""
    try:
        if any("playback" in line for line in proc_pcm.read_text().splitlines()):
            return True
    except OSError:
        pass
    runtime = runtime if runtime is not None else os.environ.get("XDG_RUNTIME_DIR", "")
    if runtime and any((Path(runtime) / p).exists() for p in ("pipewire-0", "pulse/native")):
        return True
    return sys.platform == "darwin"


def engine_command(engine: str, speed: int, volume: int, voice: str = VOICE) -> list[str]:
    """eSpeak NG's command line: the voice, UTF-8 text on its standard input (whatever the
    locale: systemd starts the box without one), words per minute, amplitude (0-200),
    the WAV on its standard output."""
    return [engine, "-v", voice, "-b", "1", "-s", str(int(speed)), "-a", str(int(volume)),
            "--stdout"]  # fmt: skip


_NUMBER = re.compile(r"\d+")
_VOWELS = re.compile(r"[aeiouäöüy]+")
_PAUSES = re.compile(r"[.,:;!?]")


def estimate_s(text: str, speed: int) -> float:
    """How long eSpeak NG's German voice takes to say `text` at `speed` words per minute,
    from its syllables, numbers and pauses (fitted to eSpeak NG 1.51 within about 20 %;
    tests/test_speech_audio.py holds it to the real audio). Key scripts run on this
    estimate, so their frames never depend on the machine's engine."""
    words = _NUMBER.sub(" ", text.lower())
    numbers = _NUMBER.findall(text)
    syllables = len(_VOWELS.findall(words)) + sum(len(n) + 1 for n in numbers)
    pauses = len(_PAUSES.findall(text))
    return (0.5 + 0.215 * syllables + 0.146 * pauses) * 160 / max(1, speed)


@dataclass
class Utterance:
    """A text handed to the speaker, and what became of it (times from the speaker's clock)."""

    text: str
    speed: int
    volume: int
    requested: float
    first_sample: float | None = None
    """When the first audio sample came from the engine."""
    ended: float | None = None
    """When it was played to the end or cut short."""
    cut: bool = False
    """Cut short by a newer text (or stopped)."""
    failed: str = ""
    """Why it could not be played ("" when it was)."""
    done: threading.Event = field(default_factory=threading.Event, repr=False)

    @property
    def over(self) -> bool:
        return self.done.is_set()


class Speaker:
    """Speech through eSpeak NG and a player, one utterance at a time, in its own thread.

    `player` is a command that plays a WAV from its standard input; None discards the
    audio (benchmarks), `capture` keeps it (tests). A newer `say` cuts the one playing
    short (its processes are killed, nothing of it is said afterwards) and drops those
    waiting; `say(..., after=True)` waits its turn behind them instead."""

    def __init__(
        self,
        engine: str,
        player: Sequence[str] | None,
        clock: Callable[[], float] = time.monotonic,
        voice: str = VOICE,
        capture: bool = False,
    ) -> None:
        self.engine = engine
        self.player = list(player) if player is not None else None
        self.clock = clock
        self.voice = voice
        self.captured: list[bytes] = []
        """Each utterance's audio, when `capture` (tests): the WAV as the player gets it."""
        self._capture = capture
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._pending: list[Utterance] = []
        self._current: Utterance | None = None
        self._processes: list[subprocess.Popen[bytes]] = []
        self._closed = False
        self._warned = False
        self._thread = threading.Thread(target=self._run, name="speaker", daemon=True)
        self._thread.start()

    def say(self, text: str, speed: int = 160, volume: int = 100, after: bool = False) -> Utterance:
        """Say `text` now, cutting short what is being said; `after`: once what is being
        said and waits is said (returns at once either way)."""
        utterance = Utterance(text, speed, volume, self.clock())
        with self._lock:
            if not after:
                self._drop()
            self._pending.append(utterance)
            self._wake.notify()
        return utterance

    def stop(self) -> None:
        """Say nothing more: what is being said is cut short, what waits is dropped."""
        with self._lock:
            self._drop()

    @property
    def speaking(self) -> bool:
        """Something is being said or waits to be."""
        with self._lock:
            return bool(self._pending) or self._current is not None

    def _drop(self) -> None:
        """(Lock held.) Cut the utterance playing, drop the waiting ones."""
        for waiting in self._pending:
            self._end(waiting, cut=True)
        self._pending = []
        self._cut_current()

    def close(self) -> None:
        self.stop()
        with self._lock:
            self._closed = True
            self._wake.notify()
        self._thread.join(timeout=2)

    # --- the speaker's thread ---------------------------------------------------
    def _cut_current(self) -> None:
        """(Lock held.) The utterance playing is cut: its processes are killed."""
        if self._current is not None:
            self._current.cut = True
        for process in self._processes:
            if process.poll() is None:
                process.kill()

    def _end(self, utterance: Utterance, cut: bool = False, failed: str = "") -> None:
        utterance.cut = utterance.cut or cut
        utterance.failed = utterance.failed or failed
        utterance.ended = self.clock()
        utterance.done.set()

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._pending and not self._closed:
                    self._wake.wait()
                if self._closed:
                    return
                utterance = self._pending.pop(0)
                self._current = utterance
            try:
                self._play(utterance)
            except OSError as exc:
                self._end(utterance, failed=f"{self.engine} cannot be played: {exc}")
            finally:
                with self._lock:
                    self._current = None
                    self._processes = []
                if not utterance.over:
                    self._end(utterance)
                if utterance.failed and not self._warned:
                    self._warned = True  # once: a box without its speaker goes on silent
                    log.warning("speech: %s", utterance.failed)

    def _start(self, command: list[str]) -> subprocess.Popen[bytes]:
        process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        with self._lock:
            self._processes.append(process)
            if self._current is not None and self._current.cut:
                process.kill()
        return process

    def _play(self, utterance: Utterance) -> None:
        command = engine_command(self.engine, utterance.speed, utterance.volume, self.voice)
        engine = self._start(command)
        player = self._start(self.player) if self.player is not None else None
        assert engine.stdin is not None and engine.stdout is not None
        try:
            engine.stdin.write(utterance.text.encode("utf-8"))
            engine.stdin.close()
        except BrokenPipeError:
            pass
        received = 0
        audio = bytearray() if self._capture else None
        try:
            out = engine.stdout
            while chunk := (out.read1(CHUNK) if isinstance(out, io.BufferedReader) else b""):
                received += len(chunk)
                if utterance.first_sample is None and received > WAV_HEADER:
                    utterance.first_sample = self.clock()
                if audio is not None:
                    audio += chunk
                if player is not None and player.stdin is not None:
                    player.stdin.write(chunk)
        except (BrokenPipeError, ValueError):
            pass  # cut short: the player is gone
        finally:
            engine.stdout.close()
            if player is not None and player.stdin is not None:
                try:
                    player.stdin.close()
                except BrokenPipeError:
                    pass
        if player is not None:
            player.wait()
        engine.wait()
        if audio is not None:
            self.captured.append(bytes(audio))
        if engine.returncode not in (0, None) and not utterance.cut:
            self._end(utterance, failed=f"{self.engine} exited with {engine.returncode}")
        elif player is not None and player.returncode not in (0, None) and not utterance.cut:
            self._end(utterance, failed=f"{player.args!r} exited with {player.returncode}")


def render(text: str, speed: int = 160, volume: int = 100, engine: str | None = None) -> bytes:
    """`text` as a complete WAV file (its header counts its samples), for tests and
    benchmarks. RuntimeError when the machine has no eSpeak NG."""
    engine = engine or find_engine()
    if engine is None:
        raise RuntimeError("no espeak-ng on this machine (apt-get install espeak-ng)")
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "speech.wav"
        command = [*engine_command(engine, speed, volume)[:-1], "-w", str(out)]
        subprocess.run(command, input=text.encode("utf-8"), check=True, timeout=60)
        return out.read_bytes()
