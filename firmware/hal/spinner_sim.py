"""A simulated AS5600 on a fake I²C bus, with a physical model of the arrow.

The emulated device and the tests use it in place of smbus2: :class:`SimulatedAS5600Bus`
answers ``read_i2c_block_data``/``read_byte_data`` for the AS5600's registers at the
time of a shared :class:`SimClock`. A spin is :class:`SpinMotion`: a start speed slowed
by dry friction (constant) and air drag (proportional to speed), then a decaying wobble
at rest; every reading adds noise and is quantised to 12 bits. The magnet can be
missing, too weak, too strong, or lost at a given time.

Example::

    >>> from spielleiter.hal.spinner import AS5600, Calibration, SpinDetector, SpinnerSampler
    >>> clock = SimClock()
    >>> bus = SimulatedAS5600Bus(clock, seed=1)
    >>> motion = bus.spin(speed_dps=900.0)
    >>> sampler = SpinnerSampler(AS5600(bus), SpinDetector(Calibration.equal()), clock)
    >>> outcome = sampler.run_until_outcome(max_s=20)
    >>> outcome == Calibration.equal().locate(motion.rest_deg)
    True
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from .clock import VirtualClock
from .spinner import (
    COUNTS,
    REG_AGC,
    REG_ANGLE,
    REG_MAGNITUDE,
    REG_RAW_ANGLE,
    REG_STATUS,
    STATUS_MD,
    STATUS_MH,
    STATUS_ML,
)

MAGNET_OK = "ok"
MAGNET_NONE = "none"
MAGNET_WEAK = "weak"
MAGNET_STRONG = "strong"
_STATUS = {MAGNET_OK: STATUS_MD, MAGNET_NONE: 0, MAGNET_WEAK: STATUS_MD | STATUS_ML}
_STATUS[MAGNET_STRONG] = STATUS_MD | STATUS_MH
_WRAP_AFTER = (REG_RAW_ANGLE + 1, REG_ANGLE + 1, REG_MAGNITUDE + 1)


SimClock = VirtualClock
"""Simulated time for the sampler: sleep() advances it at once."""


@dataclass(frozen=True)
class SpinMotion:
    """One spin from `start_deg` at time `t0` with start speed `speed_dps` (signed).

    dω/dt = -friction - drag·ω until the arrow stops; then it wobbles round its rest
    angle with `wobble_deg` amplitude, decaying over `wobble_decay_s`.
    """

    start_deg: float = 0.0
    t0: float = 0.0
    speed_dps: float = 0.0
    friction_dps2: float = 150.0
    drag_per_s: float = 0.3
    wobble_deg: float = 2.0
    wobble_hz: float = 3.0
    wobble_decay_s: float = 0.4

    @property
    def _sign(self) -> float:
        return 1.0 if self.speed_dps >= 0 else -1.0

    @property
    def duration_s(self) -> float:
        """How long the arrow turns before it stops."""
        w, a, k = abs(self.speed_dps), self.friction_dps2, self.drag_per_s
        return math.log((w + a / k) / (a / k)) / k

    def _travel(self, dt: float) -> float:
        w, a, k = abs(self.speed_dps), self.friction_dps2, self.drag_per_s
        dt = min(dt, self.duration_s)
        return (w + a / k) * (1.0 - math.exp(-k * dt)) / k - a / k * dt

    @property
    def travel_deg(self) -> float:
        """The signed angle turned in all."""
        return self._sign * self._travel(self.duration_s)

    @property
    def rest_deg(self) -> float:
        """Where the arrow comes to rest, in sensor degrees [0, 360)."""
        return (self.start_deg + self.travel_deg) % 360.0

    def angle(self, t: float) -> float:
        """The true angle (sensor degrees, unwrapped) at time t, wobble included."""
        dt = t - self.t0
        if dt <= 0:
            return self.start_deg
        angle = self.start_deg + self._sign * self._travel(dt)
        after = dt - self.duration_s
        if after > 0 and self.wobble_deg:
            decay = math.exp(-after / self.wobble_decay_s)
            angle += self.wobble_deg * decay * math.sin(2 * math.pi * self.wobble_hz * after)
        return angle


class SimulatedAS5600Bus:
    """An smbus2-like bus with one AS5600 whose magnet sits on the simulated arrow."""

    def __init__(
        self,
        clock: SimClock,
        address: int = 0x36,
        seed: int = 0,
        noise_deg: float = 0.2,
        magnet: str = MAGNET_OK,
        rest_deg: float = 0.0,
    ) -> None:
        self.clock = clock
        self.address = address
        self.rng = random.Random(seed)
        self.noise_deg = noise_deg
        self.magnet = magnet
        self.magnet_lost_at: float | None = None
        self.motion = SpinMotion(start_deg=rest_deg, t0=clock.now(), wobble_deg=0.0)
        self.reads = 0

    def spin(self, speed_dps: float, **physics: float) -> SpinMotion:
        """Give the arrow a push now, from where it is; returns the motion."""
        start = self.motion.angle(self.clock.now()) % 360.0
        self.motion = SpinMotion(start, self.clock.now(), speed_dps, **physics)
        return self.motion

    def lose_magnet_at(self, t: float) -> None:
        """From time t on, the sensor sees no magnet."""
        self.magnet_lost_at = t

    def _magnet_now(self) -> str:
        if self.magnet_lost_at is not None and self.clock.now() >= self.magnet_lost_at:
            return MAGNET_NONE
        return self.magnet

    def _registers(self) -> bytearray:
        regs = bytearray(0x20)
        magnet = self._magnet_now()
        if magnet == MAGNET_NONE:
            raw = self.rng.randrange(COUNTS)
        else:
            angle = self.motion.angle(self.clock.now()) + self.rng.gauss(0.0, self.noise_deg)
            raw = round(angle * COUNTS / 360.0) % COUNTS
        regs[REG_STATUS] = _STATUS[magnet]
        for reg in (REG_RAW_ANGLE, REG_ANGLE):
            regs[reg], regs[reg + 1] = raw >> 8, raw & 0xFF
        regs[REG_AGC] = {MAGNET_WEAK: 255, MAGNET_STRONG: 0}.get(magnet, 128)
        regs[REG_MAGNITUDE], regs[REG_MAGNITUDE + 1] = 0x07, 0xD0
        return regs

    def _check(self, i2c_addr: int) -> None:
        if i2c_addr != self.address:
            raise OSError(121, "Remote I/O error")
        self.reads += 1

    def read_i2c_block_data(self, i2c_addr: int, register: int, length: int) -> list[int]:
        """Registers `register`.. in one transaction, as the real bus reads them."""
        self._check(i2c_addr)
        regs = self._registers()
        out, reg = [], register
        for _ in range(length):
            out.append(regs[reg % len(regs)])
            # Past the low byte of RAW ANGLE, ANGLE or MAGNITUDE the pointer returns to
            # the high byte (the datasheet's rule for reading these words repeatedly).
            reg = reg - 1 if reg in _WRAP_AFTER else reg + 1
        return out

    def read_byte_data(self, i2c_addr: int, register: int) -> int:
        self._check(i2c_addr)
        return self._registers()[register % 0x20]

    def close(self) -> None:
        """Nothing to release."""
