"""Time, injected: the system's monotonic clock on the box, a virtual one in scripts and tests."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    """What the loop and the spinner sampler need of time."""

    def now(self) -> float: ...

    def sleep(self, seconds: float) -> None: ...


class SystemClock:
    """The monotonic system clock."""

    def now(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


class VirtualClock:
    """Time that moves only when told: key scripts and simulations repeat exactly."""

    def __init__(self, start: float = 0.0) -> None:
        self.t = start

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += max(0.0, seconds)

    def sleep(self, seconds: float) -> None:
        self.advance(seconds)
