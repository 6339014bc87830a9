"""Soft keys: our own debounce and short/long press, fed by gpiozero buttons.

gpiozero's mock pins do not model contact bounce, so debouncing is a pure state
machine with an injected clock: feed it raw contact changes, poll it with the time,
and it yields one KeyEvent per real press, whatever the bounce.

Example::

    >>> d = Debouncer(debounce_s=0.025, long_press_s=0.7)
    >>> d.feed(0.000, True); d.feed(0.003, False); d.feed(0.005, True)
    >>> d.poll(0.040)   # stable long enough: pressed, nothing to report yet
    []
    >>> d.feed(0.200, False); d.poll(0.230)
    [False]
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from .keys import Key, KeyEvent


class Debouncer:
    """One contact: raw changes in, presses out (False = short press, True = long press)."""

    def __init__(self, debounce_s: float, long_press_s: float) -> None:
        self.debounce_s = debounce_s
        self.long_press_s = long_press_s
        self._raw = False
        self._raw_since = 0.0
        self._pressed = False
        self._pressed_at = 0.0
        self._long_sent = False
        self._ready: list[bool] = []

    def feed(self, t: float, pressed: bool) -> None:
        """A raw contact change seen at time t.

        The state up to t is settled first, so a whole tap between two polls still counts.
        """
        self._ready.extend(self._advance(t))
        if pressed != self._raw:
            self._raw = pressed
            self._raw_since = t

    def poll(self, t: float) -> list[bool]:
        """Advance to time t; return the presses that completed (False short, True long)."""
        out = self._ready + self._advance(t)
        self._ready = []
        return out

    def _advance(self, t: float) -> list[bool]:
        out: list[bool] = []
        if self._raw != self._pressed and t - self._raw_since >= self.debounce_s:
            self._pressed = self._raw
            if self._pressed:
                self._pressed_at = self._raw_since
                self._long_sent = False
            elif not self._long_sent:
                out.append(False)
        if self._pressed and not self._long_sent and t - self._pressed_at >= self.long_press_s:
            self._long_sent = True
            out.append(True)
        return out

    @property
    def is_pressed(self) -> bool:
        """The debounced contact state."""
        return self._pressed


class ButtonPanel:
    """The four soft keys on GPIO pins (gpiozero Button, pull-up, to ground).

    Raw edges arrive on gpiozero's thread; `poll(now)` on the main loop turns them
    into KeyEvents. Use as a context manager to release the pins.
    """

    def __init__(
        self,
        pins: dict[Key, int],
        clock: Callable[[], float],
        debounce_s: float = 0.025,
        long_press_s: float = 0.7,
        pin_factory: Any = None,
    ) -> None:
        from gpiozero import Button

        self._clock = clock
        self._lock = threading.Lock()
        self._debouncers = {key: Debouncer(debounce_s, long_press_s) for key in pins}
        self._buttons = {}
        try:
            for key, pin in pins.items():
                button = Button(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
                button.when_pressed = self._edge(key, True)
                button.when_released = self._edge(key, False)
                self._buttons[key] = button
        except Exception:
            self.close()  # the pins opened before the one that failed are free again
            raise

    def _edge(self, key: Key, pressed: bool) -> Callable[[], None]:
        def handler() -> None:
            with self._lock:
                self._debouncers[key].feed(self._clock(), pressed)

        return handler

    def poll(self, now: float) -> list[KeyEvent]:
        """Presses completed by time `now`, in key order."""
        events: list[KeyEvent] = []
        with self._lock:
            for key, debouncer in self._debouncers.items():
                events.extend(KeyEvent(key, long=long) for long in debouncer.poll(now))
        return events

    def close(self) -> None:
        for button in self._buttons.values():
            button.close()

    def __enter__(self) -> ButtonPanel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
