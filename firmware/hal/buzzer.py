"""The buzzer: short tunes for the table's moments, played without holding up the loop.

A piezo on a PWM-capable pin (pins.toml `[buzzer]`) through gpiozero's TonalBuzzer, or,
on the emulated box, the terminal's bell or a line in the log. The hal knows no game:
it knows tunes by the names the tables use.

    >>> from gpiozero.pins.mock import MockFactory, MockPWMPin
    >>> buzzer = PiezoBuzzer(18, pin_factory=MockFactory(pin_class=MockPWMPin), wait=True)
    >>> buzzer.play("turn")
    >>> buzzer.played
    ['turn']
    >>> buzzer.close()
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import Any, Protocol, TextIO

Note = tuple[float, float]
"""(frequency in Hz, or 0 for a rest; seconds)."""

TUNES: dict[str, tuple[Note, ...]] = {
    "turn": ((880.0, 0.08), (0.0, 0.04), (1175.0, 0.10)),  # a human's turn to decide
    "clock": ((1568.0, 0.06),),  # each of the clock's last three seconds
    "take": ((659.0, 0.06), (523.0, 0.08)),  # a computer took something (a lot, a card)
    "round": ((523.0, 0.10), (659.0, 0.10), (784.0, 0.16)),  # a round is over
    "win": ((523.0, 0.10), (659.0, 0.10), (784.0, 0.10), (1047.0, 0.30)),  # a human won
    "end": ((784.0, 0.12), (523.0, 0.24)),  # the match is over, no human won
}
"""The tunes by name: what the tables ask for."""

log = logging.getLogger("spielleiter.buzzer")


class Buzzer(Protocol):
    """Anything that plays a tune by name without blocking the caller."""

    def play(self, tune: str) -> None: ...

    def close(self) -> None: ...


class PiezoBuzzer:
    """gpiozero's TonalBuzzer on one pin; each tune plays in a thread of its own (a new
    tune cuts the old one short). `wait=True` plays in the caller's thread (tests)."""

    def __init__(self, pin: int, pin_factory: Any = None, wait: bool = False) -> None:
        from gpiozero import TonalBuzzer

        self.device = TonalBuzzer(pin, pin_factory=pin_factory, mid_tone=880.0, octaves=3)
        self.wait = wait
        self.played: list[str] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def play(self, tune: str) -> None:
        notes = TUNES.get(tune)
        if notes is None:
            return
        self.played.append(tune)
        if self.wait:
            self._play(notes)
            return
        with self._lock:
            self._stop.set()
            if self._thread is not None:
                self._thread.join(timeout=1.0)
            self._stop = threading.Event()
            self._thread = threading.Thread(target=self._play, args=(notes,), daemon=True)
            self._thread.start()

    def _play(self, notes: Sequence[Note]) -> None:
        stop = self._stop
        for frequency, seconds in notes:
            if stop.is_set():
                break
            if frequency > 0:
                self.device.play(frequency)
            else:
                self.device.stop()
            stop.wait(0 if self.wait else seconds)
        self.device.stop()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=1.0)
        self.device.close()


class TerminalBell:
    """The emulated box's buzzer: the terminal's bell (one ring a tune)."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.played: list[str] = []

    def play(self, tune: str) -> None:
        if tune in TUNES:
            self.played.append(tune)
            self.out.write("\a")
            self.out.flush()

    def close(self) -> None:
        pass


class LogBuzzer:
    """A buzzer that writes a line to the log (key scripts, a box without a piezo)."""

    def __init__(self) -> None:
        self.played: list[str] = []

    def play(self, tune: str) -> None:
        if tune in TUNES:
            self.played.append(tune)
            log.info("buzzer: %s", tune)

    def close(self) -> None:
        pass
