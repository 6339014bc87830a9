"""The running box's spinner: the sensor or the electronic arrow, and its calibration.

One :class:`SpinnerService` hangs on ``box.spinner``. A screen that waits for a spin
calls :meth:`SpinnerService.wait` with a callback, which later receives exactly one
outcome per spin on the loop thread (``Sector``, ``Ambiguous``, ``SpinAgain`` or
``SensorError``; only the first two end the wait):

* sensor mode: a :class:`~spielleiter.hal.spinner.SpinnerSampler` thread reads the
  AS5600 while a screen waits, and hands each outcome to the loop via ``call_soon``;
* electronic mode: :meth:`SpinnerService.spin` draws a sector with the box's seeded
  generator and plays the arrow's frames over :data:`ANIMATION_S` of (virtual) time;
  the screen is busy meanwhile, so key scripts stay deterministic. A game whose spin
  is chance of its record draws and commits it first, then calls
  :meth:`SpinnerService.show_spin` to turn the arrow into that sector.

The calibration lives in the setting ``spinner.calibration`` (``Calibration.to_json``).
:meth:`read` and :meth:`calibrate` answer the laptop link with plain dicts.

Example (emulated, electronic)::

    service = SpinnerService(box)
    service.wait(print)
    service.spin()            # the screen's tick() drives service.tick(now)
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Mapping
from typing import Any

from .hal.spinner import (
    AS5600,
    Ambiguous,
    AngleSensor,
    Calibration,
    CalibrationError,
    Clock,
    ElectronicSpin,
    ElectronicSpinner,
    Outcome,
    Sector,
    SensorFault,
    SpinDetector,
    SpinnerSampler,
)
from .link.protocol import calibration_problem
from .texts import T

SENSOR = "sensor"
ELECTRONIC = "electronic"
AUTO = "auto"
MODES = (AUTO, SENSOR, ELECTRONIC)
"""Values of the setting spinner.mode."""
ANIMATION_S = 1.0
"""How long the electronic arrow turns on the screen."""
SETTING = "spinner.calibration"
NO_SENSOR = "Kein Drehsensor"


class SpinnerUnavailable(RuntimeError):
    """The sensor cannot be read now (none fitted, or a magnet fault); the message says why."""


class _LockedSensor:
    """One reader at a time: the sampler thread and the link share one I²C device."""

    def __init__(self, sensor: AngleSensor) -> None:
        self.sensor = sensor
        self.lock = threading.Lock()

    def read(self) -> float:
        with self.lock:
            return self.sensor.read()

    @property
    def warning(self) -> str | None:
        """The magnet's strength warning of the last read, where the sensor gives one."""
        return getattr(self.sensor, "warning", None)


class SpinnerService:
    """The spinner source of the running box (sensor or electronic) and its calibration.

    `sensor` is None when no AS5600 is fitted; `push` (simulation only) gives the
    simulated arrow a turn when the player presses "Drehen". With `threaded=False`
    the sampler does not run by itself: :meth:`run_sampler` drives it (tests).
    """

    def __init__(
        self,
        box: Any,
        sensor: AngleSensor | None = None,
        clock: Clock | None = None,
        threaded: bool = True,
        push: Callable[[], None] | None = None,
        animation_s: float = ANIMATION_S,
        sectors: int | None = None,
    ) -> None:
        self.box = box
        self.sectors = sectors
        """Sectors of the uncalibrated spinner (None: the hal's default calibration)."""
        self.sensor = _LockedSensor(sensor) if sensor is not None else None
        self.clock = clock
        self.threaded = threaded
        self.push = push
        self.animation_s = animation_s
        self.sampler: SpinnerSampler | None = None
        self._callback: Callable[[Outcome], None] | None = None
        self._token = 0
        self._electronic: ElectronicSpinner | None = None
        self._animation: ElectronicSpin | None = None
        self._animation_delivers = True
        self._animation_t0 = 0.0
        self._calibration: Calibration | None = None
        self._settings_seen: Any = object()

    @classmethod
    def of(cls, box: Any, sectors: int | None = None) -> SpinnerService:
        """The box's service; an electronic one (with `sectors`) is attached when it has none."""
        if getattr(box, "spinner", None) is None:
            box.spinner = cls(box, sectors=sectors)
        return box.spinner

    # --- mode and calibration -------------------------------------------
    @property
    def preference(self) -> str:
        """The setting spinner.mode: auto, sensor or electronic."""
        value = self.box.settings().get("spinner.mode", AUTO)
        return value if value in MODES else AUTO

    @property
    def mode(self) -> str:
        """What is used: "sensor" when one is fitted and not switched off, else "electronic"."""
        if self.sensor is not None and self.preference != ELECTRONIC:
            return SENSOR
        return ELECTRONIC

    @property
    def can_push(self) -> bool:
        """Whether a "Drehen" key turns the arrow (electronic, or the simulated sensor)."""
        return self.mode == ELECTRONIC or self.push is not None

    @property
    def calibration(self) -> Calibration:
        """The stored calibration, or equal sectors when none (or a broken one) is stored."""
        data = self.box.settings().get(SETTING)
        if self._calibration is None or data != self._settings_seen:
            try:
                cal = Calibration.from_json(data) if data else self._uncalibrated()
            except CalibrationError:
                cal = self._uncalibrated()
            self._calibration, self._settings_seen = cal, data
        return self._calibration

    def _uncalibrated(self) -> Calibration:
        return Calibration.equal(self.sectors) if self.sectors else Calibration()

    def sector_probabilities(self) -> list[float]:
        """Each sector's share of the turn: the chance the arrow lands there."""
        widths = self.calibration.widths_deg
        return [w / sum(widths) for w in widths]

    def save(self, calibration: Calibration) -> Calibration:
        """Store a calibration in the settings (and use it at once)."""
        self._settings_seen = self.box.settings().get(SETTING)  # until the box reloads
        self.box.store.set_settings({SETTING: calibration.to_json()})
        self._calibration = calibration
        self.box.call_soon(self.box.reload_settings)
        return calibration

    # --- waiting for a spin ---------------------------------------------
    @property
    def waiting(self) -> bool:
        return self._callback is not None

    def wait(self, on_outcome: Callable[[Outcome], None]) -> None:
        """Deliver the outcomes of the next spin to `on_outcome` on the loop thread."""
        self.cancel()
        self._callback = on_outcome
        self._token += 1
        if self.mode == SENSOR:
            self._start_sampler(self._token)

    def spin(self) -> bool:
        """The "Drehen" key: turn the electronic (or simulated) arrow; False when it cannot."""
        if self._callback is None or self._animation is not None:
            return False
        if self.mode == SENSOR:
            if self.push is None:
                return False
            self.push()
            return True
        cal = self.calibration
        if self._electronic is None:
            self._electronic = ElectronicSpinner(cal, self.box.rng)
        self._electronic.calibration = cal
        self._animation = self._electronic.spin()
        self._animation_t0 = self.box.now()
        self._animation_delivers = True
        return True

    def show_spin(self, sector: int) -> None:
        """Turn the electronic arrow to rest well inside `sector`, a result already drawn
        (and committed) by its game: the screen is busy meanwhile, nothing is delivered."""
        cal = self.calibration
        if self._electronic is None:
            self._electronic = ElectronicSpinner(cal, self.box.rng)
        arrow, rng = self._electronic, self.box.rng
        start, end = cal.span(sector)
        inner = min(cal.margin_deg + 0.5, (end - start) / 2)
        target = start + inner + rng.random() * (end - start - 2 * inner)
        travel = (target - arrow.position_deg) % 360.0 + 360.0 * rng.randint(*arrow.turns)
        frames = [
            (arrow.position_deg + travel * (1.0 - (1.0 - k / arrow.frames) ** 3)) % 360.0
            for k in range(1, arrow.frames + 1)
        ]
        arrow.position_deg = frames[-1]
        self._animation = ElectronicSpin(Sector(sector), frames)
        self._animation_t0 = self.box.now()
        self._animation_delivers = False

    def cancel(self) -> None:
        """Stop waiting (the screen went away); a late outcome is dropped."""
        self._token += 1
        self._callback = None
        self._animation = None
        self._stop_sampler()

    @property
    def busy(self) -> bool:
        """The electronic arrow is turning."""
        return self._animation is not None

    def arrow_deg(self, now: float) -> float | None:
        """Where the electronic arrow points now (flower degrees), while it turns."""
        anim = self._animation
        if anim is None:
            return None
        share = (now - self._animation_t0) / self.animation_s if self.animation_s > 0 else 1.0
        k = min(len(anim.frames) - 1, max(0, int(share * len(anim.frames))))
        return anim.frames[k]

    def tick(self, now: float) -> None:
        """Finish the electronic spin once its animation has run."""
        anim = self._animation
        if anim is not None and now - self._animation_t0 >= self.animation_s:
            self._animation = None
            if self._animation_delivers:
                self._deliver(self._token, anim.outcome)

    def _deliver(self, token: int, outcome: Outcome) -> None:
        """On the loop: pass the outcome on if it belongs to the current wait."""
        if token != self._token or self._callback is None:
            return
        callback = self._callback
        if isinstance(outcome, Sector | Ambiguous):
            self._callback = None
            self._stop_sampler()
        callback(outcome)

    # --- the sampler (sensor mode) ---------------------------------------
    def _start_sampler(self, token: int) -> None:
        assert self.sensor is not None
        detector = SpinDetector(self.calibration)

        def handed(outcome: Outcome) -> None:
            self.box.call_soon(lambda: self._deliver(token, outcome))

        self.sampler = SpinnerSampler(self.sensor, detector, self.clock, handed)
        if self.threaded:
            self.sampler.start()

    def _stop_sampler(self) -> None:
        sampler, self.sampler = self.sampler, None
        if sampler is not None and self.threaded:
            sampler.stop()

    def run_sampler(self, max_s: float) -> Outcome | None:
        """Sample until an outcome or `max_s` of the sampler's clock (unthreaded mode)."""
        if self.sampler is None:
            return None
        return self.sampler.run_until_outcome(max_s)

    def fault(self) -> str | None:
        """The sensor's current fault message while a spin is awaited, if any."""
        sampler = self.sampler
        if sampler is None or sampler.detector.fault is None:
            return None
        return sampler.detector.fault.message

    # --- what the laptop link asks -----------------------------------------
    def reading(self) -> float:
        """The sensor's angle now; SpinnerUnavailable without a sensor or on a fault."""
        if self.sensor is None:
            raise SpinnerUnavailable(NO_SENSOR)
        try:
            return self.sensor.read()
        except SensorFault as fault:
            raise SpinnerUnavailable(fault.message) from fault

    def read(self) -> dict[str, Any]:
        """The spinner now: source, angle, magnet status, the sector under the arrow."""
        cal = self.calibration
        out: dict[str, Any] = {
            "mode": self.mode,
            "setting": self.preference,
            "sensor": self.sensor is not None,
            "angle_deg": None,
            "magnet": None,
            "message": None,
            "position_deg": None,
            "sector": None,
            "ambiguous": None,
            "calibration": cal.to_json(),
        }
        if self.sensor is None:
            out["message"] = NO_SENSOR
            return out
        try:
            angle = self.sensor.read()
        except SensorFault as fault:
            out.update(magnet="fault", message=fault.message)
            return out
        where = cal.locate(angle)
        warning = self.sensor.warning
        out.update(
            angle_deg=round(angle, 2),
            magnet="warning" if warning else "ok",
            message=warning,
            position_deg=round(cal.position(angle), 2),
            sector=where.index if isinstance(where, Sector) else None,
            ambiguous=[where.a, where.b] if not isinstance(where, Sector) else None,
        )
        return out

    def calibrate(self, params: Mapping[str, Any], check_only: bool = False) -> dict[str, Any]:
        """Change the calibration; ValueError for bad params, SpinnerUnavailable without a reading.

        {"action": "zero"}: the arrow points at the middle of petal 1 (sector 0) now;
        {"action": "boundaries", "readings": [16 angles]}: each boundary after sector i;
        {"action": "reset"}: equal sectors; {"calibration": {...}}: explicit data.
        """
        problem = calibration_problem(dict(params) if isinstance(params, Mapping) else params)
        if problem is not None:
            raise ValueError(T("{field}: {why}", field=problem[0], why=problem[1]))
        cal = self.calibration
        action = params.get("action")
        if "calibration" in params:
            data = params["calibration"]
            if not isinstance(data, Mapping):
                raise ValueError(T("calibration must be an object"))
            new = Calibration.from_json(data)
        elif action == "zero":
            new = cal.with_zero(self.reading())
        elif action == "boundaries":
            readings = params.get("readings")
            if not isinstance(readings, list) or not all(
                isinstance(r, int | float) and not isinstance(r, bool) and math.isfinite(r)
                for r in readings
            ):
                raise ValueError(T("readings must be a list of angles in degrees"))
            if len(readings) != cal.sectors:
                raise ValueError(
                    T(
                        "readings: want {sectors} boundaries, got {count}",
                        sectors=cal.sectors,
                        count=len(readings),
                    )
                )
            new = Calibration.from_boundaries(
                [float(r) % 360.0 for r in readings], cal.margin_deg, cal.labels
            )
        elif action == "reset":
            new = Calibration.equal(cal.sectors)
        else:
            raise ValueError(
                T('want {{"action": "zero" | "boundaries" | "reset"}} or {{"calibration"}}')
            )
        if new.sectors != cal.sectors:
            raise ValueError(
                T(
                    "calibration: the spinner has {sectors} sectors, not {given}",
                    sectors=cal.sectors,
                    given=new.sectors,
                )
            )
        if not check_only:
            self.save(new)
        return {"calibration": new.to_json()}


def open_service(box: Any, choice: str, emulated: bool, seed: int | None = None) -> SpinnerService:
    """The service for `spielleiter --spinner CHOICE` (auto, sensor, electronic, sim).

    auto: the real AS5600 on a Pi (when the setting allows a sensor), else electronic;
    sim: a simulated AS5600 on real time, turned by the "Drehen" key.
    """
    if choice == "sim":
        return simulated_service(box, seed)
    sensor = None
    wants_sensor = choice == SENSOR or (
        choice == AUTO and not emulated and box.settings().get("spinner.mode", AUTO) != ELECTRONIC
    )
    if wants_sensor:
        try:
            sensor = AS5600.open()
        except (ImportError, OSError) as exc:
            print(f"spielleiter: no spinner sensor ({exc}); electronic spinner", flush=True)
    return SpinnerService(box, sensor)


def simulated_service(box: Any, seed: int | None = None) -> SpinnerService:
    """A sensor-mode service on the simulated AS5600, in real time (the emulated box)."""
    import random

    from .hal.clock import SystemClock
    from .hal.spinner_sim import SimulatedAS5600Bus

    clock = SystemClock()
    bus = SimulatedAS5600Bus(clock, seed=seed or 0)  # type: ignore[arg-type]
    rng = random.Random(seed)

    def push() -> None:
        bus.spin(rng.uniform(700.0, 1400.0))

    return SpinnerService(box, AS5600(bus), clock=clock, push=push)
