"""The spinner: an AS5600 angle sensor under the arrow, turned into one outcome per spin.

The hal knows no game: it speaks of sectors (by default 16) whose widths and labels
are calibration data. The parts, each usable alone:

* :class:`AS5600` reads the angle and the magnet status in one I²C block read and
  raises :class:`SensorFault` (with a German message for the screen) when the
  magnet is missing, too weak or too strong.
* :class:`Calibration` maps a reading to a sector, and refuses to guess near a
  boundary (:class:`Ambiguous`).
* :class:`SpinDetector` is a pure state machine fed ``(t, angle)``: a spin starts when
  the arrow leaves its rest angle and ends when it has been still for half a second;
  less than a full turn asks to spin again. Exactly one outcome per spin.
* :class:`SpinnerSampler` polls a sensor at a fixed rate with an injected clock, in
  its own thread on the device or step by step in tests.
* :class:`ElectronicSpinner` draws a result by sector widths when there is no sensor,
  with the frames of a short animation.

Example::

    >>> cal = Calibration.equal(16)
    >>> det = SpinDetector(cal)
    >>> det.feed(0.0, 0.0) is None
    True
    >>> for step in range(1, 36):           # two turns, then the arrow rests on sector 3
    ...     _ = det.feed(step * 0.02, step * 22.5 % 360 - 1.0)
    >>> resting = (det.feed(0.7 + 0.02 * k, 3 * 22.5 - 1.0) for k in range(100))
    >>> [outcome for outcome in resting if outcome]
    [Sector(index=3)]
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..texts import T
from .clock import Clock, SystemClock

# --- the AS5600 -----------------------------------------------------------------

REG_STATUS = 0x0B
REG_RAW_ANGLE = 0x0C
REG_ANGLE = 0x0E
REG_AGC = 0x1A
REG_MAGNITUDE = 0x1B
STATUS_MH = 0x08
"""STATUS bit: magnet too strong."""
STATUS_ML = 0x10
"""STATUS bit: magnet too weak."""
STATUS_MD = 0x20
"""STATUS bit: magnet detected."""
COUNTS = 4096
"""The AS5600 resolves a turn in 12 bits."""

NO_MAGNET = "Kein Magnet erkannt"
MAGNET_TOO_WEAK = "Magnet zu schwach"
MAGNET_TOO_STRONG = "Magnet zu stark"
NO_ANSWER = "Drehsensor antwortet nicht"
SPIN_AGAIN = "Nochmal drehen"


class SensorFault(Exception):
    """The sensor cannot give an angle; `message` is the German line for the screen."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class I2CBus(Protocol):
    """The part of smbus2.SMBus the driver uses."""

    def read_i2c_block_data(self, i2c_addr: int, register: int, length: int) -> list[int]: ...

    def read_byte_data(self, i2c_addr: int, register: int) -> int: ...


class AngleSensor(Protocol):
    """Anything that reads the arrow's angle in degrees or raises SensorFault."""

    def read(self) -> float: ...


def decode_block(block: Sequence[int]) -> float:
    """Degrees from the 3 bytes STATUS, RAW ANGLE (high, low); SensorFault without a magnet.

    "Too weak" and "too strong" are warnings, not faults (see magnet_warning): many modules
    report "too strong" with good angles, and the spin detector judges the angles."""
    status = block[0]
    if not status & STATUS_MD:
        raise SensorFault(NO_MAGNET)
    raw = (block[1] & 0x0F) << 8 | block[2]
    return raw * 360.0 / COUNTS


def magnet_warning(status: int) -> str | None:
    """The German warning for a magnet the chip finds too weak or too strong (None: fine)."""
    if status & STATUS_ML:
        return MAGNET_TOO_WEAK
    if status & STATUS_MH:
        return MAGNET_TOO_STRONG
    return None


class AS5600:
    """The AS5600 on an I²C bus: status and raw angle in one block read, so they match.

    The raw angle is used (not ANGLE) so that nothing programmed into the chip's
    zero/max registers can shift it; the zero is our calibration's business.

    Example (on the device)::

        with AS5600.open() as sensor:
            print(sensor.read())
    """

    def __init__(self, bus: I2CBus, address: int = 0x36) -> None:
        self.bus = bus
        self.address = address
        self.warning: str | None = None
        """The magnet's strength warning of the last read (None when it is fine)."""

    @classmethod
    def open(cls) -> AS5600:
        """The sensor on the bus and address of the pin map (needs smbus2 and /dev/i2c-N)."""
        from smbus2 import SMBus

        from .pins import load_pin_map

        pins = load_pin_map()
        return cls(SMBus(pins.i2c_bus), pins.spinner_address)

    def read(self) -> float:
        """The angle in degrees [0, 360); SensorFault when the magnet or the bus fails."""
        try:
            block = self.bus.read_i2c_block_data(self.address, REG_STATUS, 3)
        except OSError as exc:
            raise SensorFault(NO_ANSWER) from exc
        angle = decode_block(block)
        self.warning = magnet_warning(block[0])
        return angle

    def close(self) -> None:
        close = getattr(self.bus, "close", None)
        if close is not None:
            close()

    def __enter__(self) -> AS5600:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# --- outcomes -----------------------------------------------------------------------


@dataclass(frozen=True)
class Sector:
    """The arrow rests clearly in one sector."""

    index: int


@dataclass(frozen=True)
class Ambiguous:
    """The arrow rests on the boundary between sectors a and b (b follows a): ask which."""

    a: int
    b: int


@dataclass(frozen=True)
class SpinAgain:
    """The arrow turned less than a full turn: the spin does not count."""

    message: str = SPIN_AGAIN


@dataclass(frozen=True)
class SensorError:
    """The sensor failed during the spin; no result. `message` is German for the screen."""

    message: str


Outcome = Sector | Ambiguous | SpinAgain | SensorError


def wrap180(degrees: float) -> float:
    """An angle difference folded into [-180, 180)."""
    return (degrees + 180.0) % 360.0 - 180.0


# --- calibration ----------------------------------------------------------------------


class CalibrationError(ValueError):
    """Calibration data that cannot describe the spinner; the message says why."""


@dataclass(frozen=True)
class Calibration:
    """Where the sectors lie under the arrow.

    Positions are measured in "flower degrees": 0 is the middle of sector 0 and they
    grow towards sector 1. `zero_deg` is the sensor reading there; `direction` is +1
    when the reading grows with the sector index, -1 when it falls.
    """

    zero_deg: float = 0.0
    widths_deg: tuple[float, ...] = (22.5,) * 16
    margin_deg: float = 2.0
    """Within this distance of a boundary the result is Ambiguous."""
    direction: int = 1
    labels: tuple[str, ...] = ()
    """Optional names of the sectors (data from the game; the hal does not read them)."""
    _starts: tuple[float, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "widths_deg", tuple(float(w) for w in self.widths_deg))
        object.__setattr__(self, "labels", tuple(str(x) for x in self.labels))
        self.validate()
        starts, acc = [], 0.0
        for w in self.widths_deg:
            starts.append(acc)
            acc += w
        object.__setattr__(self, "_starts", tuple(starts))

    @classmethod
    def equal(
        cls, sectors: int = 16, zero_deg: float = 0.0, margin_deg: float = 2.0
    ) -> Calibration:
        """Sectors of equal width."""
        return cls(zero_deg, (360.0 / sectors,) * sectors, margin_deg)

    def validate(self) -> None:
        """Raise CalibrationError unless the data describe a whole turn of sectors."""
        w = self.widths_deg
        if len(w) < 2:
            raise CalibrationError(T("at least two sectors"))
        if len(w) > 64:
            raise CalibrationError(T("at most 64 sectors"))
        if not all(math.isfinite(x) for x in (*w, self.zero_deg, self.margin_deg)):
            raise CalibrationError(T("every angle must be a finite number"))
        if min(w) <= 0:
            raise CalibrationError(T("every sector must be wider than 0°"))
        if abs(sum(w) - 360.0) > 0.01:
            raise CalibrationError(
                T("sector widths add up to {total}°, not 360°", total=f"{sum(w):.2f}")
            )
        if not 0 <= self.margin_deg < min(w) / 2:
            raise CalibrationError(T("the margin must be smaller than half the narrowest sector"))
        if self.direction not in (1, -1):
            raise CalibrationError(T("direction is 1 or -1"))
        if not 0 <= self.zero_deg < 360 or not math.isfinite(self.zero_deg):
            raise CalibrationError(T("the zero offset lies in [0, 360)"))
        if self.labels and len(self.labels) != len(w):
            raise CalibrationError(T("one label per sector"))

    @property
    def sectors(self) -> int:
        return len(self.widths_deg)

    # --- mapping ---------------------------------------------------------------
    def position(self, reading_deg: float) -> float:
        """Flower degrees [0, 360) of a sensor reading."""
        return (self.direction * (reading_deg - self.zero_deg)) % 360.0

    def reading(self, position_deg: float) -> float:
        """The sensor reading [0, 360) at a flower position (inverse of position())."""
        return (self.zero_deg + self.direction * position_deg) % 360.0

    def span(self, sector: int) -> tuple[float, float]:
        """Start and end of a sector in flower degrees (the start may be negative for 0)."""
        start = self._starts[sector] - self.widths_deg[0] / 2
        return start, start + self.widths_deg[sector]

    def locate_position(self, position_deg: float) -> Sector | Ambiguous:
        """The sector at a flower position, or Ambiguous within the margin of a boundary."""
        q = (position_deg + self.widths_deg[0] / 2) % 360.0
        n = self.sectors
        i = max(k for k in range(n) if self._starts[k] <= q)
        into = q - self._starts[i]
        if into < self.margin_deg:
            return Ambiguous((i - 1) % n, i)
        if self.widths_deg[i] - into < self.margin_deg:
            return Ambiguous(i, (i + 1) % n)
        return Sector(i)

    def locate(self, reading_deg: float) -> Sector | Ambiguous:
        """The sector under the arrow for a sensor reading."""
        return self.locate_position(self.position(reading_deg))

    # --- calibration procedure ---------------------------------------------------
    def with_zero(self, reading_deg: float) -> Calibration:
        """This calibration with the arrow's reading taken as the middle of sector 0."""
        return self._replace(zero_deg=reading_deg % 360.0)

    @classmethod
    def from_boundaries(
        cls, readings_deg: Sequence[float], margin_deg: float = 2.0, labels: Sequence[str] = ()
    ) -> Calibration:
        """From the readings with the arrow on each boundary, in sector order.

        readings_deg[i] is the boundary after sector i (between i and i+1; the last one
        between the last sector and sector 0). The direction follows from the order.
        """
        n = len(readings_deg)
        if n < 2:
            raise CalibrationError(T("at least two boundaries"))
        direction = 1 if (readings_deg[1] - readings_deg[0]) % 360.0 < 180.0 else -1
        widths = [(direction * (readings_deg[i] - readings_deg[i - 1])) % 360.0 for i in range(n)]
        if abs(sum(widths) - 360.0) > 0.01:
            raise CalibrationError(T("the boundaries must go once round in sector order"))
        zero = (readings_deg[-1] + direction * widths[0] / 2) % 360.0
        return cls(zero, tuple(widths), margin_deg, direction, tuple(labels))

    def _replace(self, **changes: Any) -> Calibration:
        data: dict[str, Any] = {
            "zero_deg": self.zero_deg,
            "widths_deg": self.widths_deg,
            "margin_deg": self.margin_deg,
            "direction": self.direction,
            "labels": self.labels,
        }
        data.update(changes)
        return Calibration(**data)

    # --- settings -------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Plain data for the settings store."""
        return {
            "zero_deg": self.zero_deg,
            "widths_deg": list(self.widths_deg),
            "margin_deg": self.margin_deg,
            "direction": self.direction,
            "labels": list(self.labels),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Calibration:
        """Read settings data back (CalibrationError when it is malformed)."""
        try:
            return cls(
                zero_deg=float(data["zero_deg"]),
                widths_deg=tuple(float(w) for w in data["widths_deg"]),
                margin_deg=float(data.get("margin_deg", 2.0)),
                direction=int(data.get("direction", 1)),
                labels=tuple(str(x) for x in data.get("labels", ())),
            )
        except KeyError as exc:
            raise CalibrationError(
                T("the field {field!r} is missing", field=str(exc.args[0]))
            ) from exc
        except (TypeError, ValueError) as exc:
            if isinstance(exc, CalibrationError):
                raise
            raise CalibrationError(T("malformed calibration: {why}", why=str(exc))) from exc


# --- spin detection -------------------------------------------------------------------

REST = "rest"
SPINNING = "spinning"
FAULT = "fault"
WAITING = "waiting"


class SpinDetector:
    """Samples in, one outcome per spin out. Pure: the caller supplies the time.

    rest -> spinning when the arrow is more than `start_deg` from its rest angle (a
    wobble at rest smaller than that never starts a spin);
    spinning -> rest when every sample for `still_s` stayed within `still_deg` of the
    first of them and the later half of them lies within `drift_deg` of the earlier half
    (no net motion: an arrow creeping on is not at rest yet): the result is the sector of
    the mean of the later half, or SpinAgain when the arrow turned less than
    `full_turn_deg` in all. The travel is counted across a gap in the readings from the
    arrow's speed before it (a long gap can hide whole turns). Up to `bad_reads` faulty
    reads in a row inside a spin are passed over; more give one SensorError and drop the
    spin; once the sensor reads again and the arrow is still, the detector rests there
    without a result.
    """

    def __init__(
        self,
        calibration: Calibration,
        start_deg: float = 15.0,
        still_deg: float = 5.0,
        still_s: float = 0.5,
        full_turn_deg: float = 360.0,
        drift_deg: float = 1.0,
        bad_reads: int = 3,
    ) -> None:
        self.calibration = calibration
        self.start_deg = start_deg
        self.still_deg = still_deg
        self.still_s = still_s
        self.full_turn_deg = full_turn_deg
        self.drift_deg = drift_deg
        self.bad_reads = bad_reads
        self._bad = 0
        self._prev_t = 0.0
        self._speed = 0.0
        """Degrees a second of the arrow lately (signed), to bridge a gap in the readings."""
        self.state = WAITING
        self.rest_deg: float | None = None
        self.fault: SensorFault | None = None
        self._prev = 0.0
        self._travel = 0.0
        self._anchor = 0.0
        self._anchor_t = 0.0
        self._still: list[float] = []

    def feed(self, t: float, sample: float | SensorFault) -> Outcome | None:
        """One sample (degrees, or the fault the sensor raised) at time t."""
        if isinstance(sample, SensorFault):
            if self.state == SPINNING and self._bad < self.bad_reads:
                self._bad += 1  # one bad read does not drop a whole spin
                return None
            self.fault = sample
            if self.state == FAULT:
                return None
            self.state = FAULT
            return SensorError(sample.message)
        self._bad = 0
        self.fault = None
        if self.state == WAITING and self.rest_deg is None:
            self.state = REST
            self.rest_deg = sample
            return None
        if self.state == REST:
            assert self.rest_deg is not None
            if abs(wrap180(sample - self.rest_deg)) > self.start_deg:
                self.state = SPINNING
                self._travel = wrap180(sample - self.rest_deg)
                self._prev, self._prev_t, self._speed = sample, t, 0.0
                self._hold(t, sample)
            return None
        if self.state == SPINNING:
            self._travel += self._step(t, sample)
            self._prev, self._prev_t = sample, t
        elif self.state == FAULT:
            self.state = WAITING
            self._hold(t, sample)
            return None
        if not self._is_still(t, sample):
            return None
        still_at = self._still_angle()
        was_spinning = self.state == SPINNING
        self.state = REST
        self.rest_deg = still_at
        if not was_spinning:
            return None
        if abs(self._travel) < self.full_turn_deg:
            return SpinAgain()
        return self.calibration.locate(still_at)

    def _step(self, t: float, angle: float) -> float:
        """Degrees turned since the last reading: the short way round, unless the arrow's
        speed says it went round further during a gap in the readings."""
        step = wrap180(angle - self._prev)
        dt = t - self._prev_t
        if dt > 0:
            expected = self._speed * dt
            if abs(expected) > 180.0:
                step += 360.0 * round((expected - step) / 360.0)
            self._speed = 0.5 * self._speed + 0.5 * step / dt
        return step

    def _hold(self, t: float, angle: float) -> None:
        self._anchor = angle
        self._anchor_t = t
        self._still = [0.0]

    def _is_still(self, t: float, angle: float) -> bool:
        off = wrap180(angle - self._anchor)
        if abs(off) > self.still_deg:
            self._hold(t, angle)
            return False
        self._still.append(off)
        if t - self._anchor_t < self.still_s:
            return False
        half = len(self._still) // 2
        earlier, later = self._still[:half] or [0.0], self._still[half:]
        if abs(sum(later) / len(later) - sum(earlier) / len(earlier)) > self.drift_deg:
            self._hold(t, angle)  # still creeping on: watch again from here
            return False
        return True

    def _still_angle(self) -> float:
        later = self._still[len(self._still) // 2 :]
        return (self._anchor + sum(later) / len(later)) % 360.0


# --- sampling ---------------------------------------------------------------------------


class SpinnerSampler:
    """Reads the sensor `rate_hz` times a second and hands each outcome to `on_outcome`.

    On the device, start() runs it in a daemon thread (on_outcome is then called from
    that thread: pass a queue's put). In tests, step() or run_until_outcome() drive it
    with a simulated clock and no thread.
    """

    def __init__(
        self,
        sensor: AngleSensor,
        detector: SpinDetector,
        clock: Clock | None = None,
        on_outcome: Callable[[Outcome], None] | None = None,
        rate_hz: float = 100.0,
    ) -> None:
        self.sensor = sensor
        self.detector = detector
        self.clock = clock or SystemClock()
        self.on_outcome = on_outcome
        self.period_s = 1.0 / rate_hz
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def step(self) -> Outcome | None:
        """Take one sample now; pass on and return the outcome it completes, if any."""
        t = self.clock.now()
        try:
            sample: float | SensorFault = self.sensor.read()
        except SensorFault as fault:
            sample = fault
        outcome = self.detector.feed(t, sample)
        if outcome is not None and self.on_outcome is not None:
            self.on_outcome(outcome)
        return outcome

    def run_until_outcome(self, max_s: float) -> Outcome | None:
        """Sample at the rate until an outcome or until `max_s` of clock time passed."""
        end = self.clock.now() + max_s
        while self.clock.now() < end:
            outcome = self.step()
            if outcome is not None:
                return outcome
            self.clock.sleep(self.period_s)
        return None

    def start(self) -> None:
        """Sample in a daemon thread until stop()."""
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="spinner", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=1.0)
            self._thread = None

    def _run(self) -> None:
        due = self.clock.now()
        while not self._stop.is_set():
            self.step()
            due += self.period_s
            self.clock.sleep(max(0.0, due - self.clock.now()))


# --- the electronic spinner ------------------------------------------------------------


@dataclass(frozen=True)
class ElectronicSpin:
    """A drawn result and the arrow's flower positions (degrees) frame by frame."""

    outcome: Sector
    frames: list[float]


class ElectronicSpinner:
    """A spinner without a sensor: each sector drawn with probability width/360.

    The arrow ends well inside the drawn sector (away from the ambiguity margin), after
    `turns` whole turns or more, slowing down like a real arrow.
    """

    def __init__(
        self,
        calibration: Calibration,
        rng: random.Random,
        frames: int = 30,
        turns: tuple[int, int] = (2, 4),
    ) -> None:
        self.calibration = calibration
        self.rng = rng
        self.frames = frames
        self.turns = turns
        self.position_deg = 0.0

    def spin(self) -> ElectronicSpin:
        """Draw a sector and the frames that lead the arrow there from where it rests."""
        cal = self.calibration
        u = self.rng.random() * 360.0
        sector = next(i for i in range(cal.sectors) if u < sum(cal.widths_deg[: i + 1]))
        start, end = cal.span(sector)
        share = (u - sum(cal.widths_deg[:sector])) / cal.widths_deg[sector]
        inner = cal.margin_deg + 0.5
        target = start + inner + share * (end - start - 2 * inner)
        travel = (target - self.position_deg) % 360.0 + 360.0 * self.rng.randint(*self.turns)
        frames = [
            (self.position_deg + travel * (1.0 - (1.0 - k / self.frames) ** 3)) % 360.0
            for k in range(1, self.frames + 1)
        ]
        self.position_deg = frames[-1]
        return ElectronicSpin(Sector(sector), frames)
