"""The box's spinner service: electronic spins, the sensor's sampler, read/calibrate, the menu."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import pytest
from helpers import assert_golden
from spielleiter.app import Box, VirtualClock
from spielleiter.games.maskenball.spinner_setup import CalibrationScreen, TrialSpinScreen
from spielleiter.hal.display import FrameSink
from spielleiter.hal.keys import Key, KeyEvent
from spielleiter.hal.spinner import AS5600, Calibration, Outcome, Sector, SystemClock
from spielleiter.hal.spinner_sim import MAGNET_NONE, SimClock, SimulatedAS5600Bus, SpinMotion
from spielleiter.spinner_service import SpinnerService, SpinnerUnavailable
from spielleiter.store import Store
from spielleiter.ui.canvas import Canvas
from spielleiter.ui.menus import main_menu, settings_menu

K1, K2, K3, K4 = (KeyEvent(k) for k in Key)


def make_box(tmp_path: Path, **settings: object) -> Box:
    store = Store.open(tmp_path / "data")
    if settings:
        store.set_settings(settings)
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(7))
    box.push(main_menu(box))
    return box


def sensor_box(
    tmp_path: Path, rest_deg: float = 0.0, **bus: object
) -> tuple[Box, SimulatedAS5600Bus]:
    """A box whose spinner is a simulated AS5600 (no thread: the test drives the sampler)."""
    box = make_box(tmp_path)
    sim = SimulatedAS5600Bus(SimClock(), seed=3, noise_deg=0.0, rest_deg=rest_deg, **bus)
    box.spinner = SpinnerService(box, AS5600(sim), clock=sim.clock, threaded=False)
    return box, sim


def put_arrow(sim: SimulatedAS5600Bus, deg: float) -> None:
    """Turn the simulated arrow by hand to rest at `deg`."""
    sim.motion = SpinMotion(start_deg=deg, t0=sim.clock.now(), wobble_deg=0.0)


def test_the_electronic_spinner_turns_for_a_second_then_gives_a_sector(tmp_path: Path) -> None:
    box = make_box(tmp_path)
    service = SpinnerService.of(box)
    assert box.spinner is service and service.mode == "electronic" and service.can_push
    got: list[Outcome] = []
    service.wait(got.append)
    assert service.spin()
    positions = set()
    while service.busy:
        positions.add(service.arrow_deg(box.now()))
        box.clock.advance(0.05)
        service.tick(box.now())
    assert len(positions) > 10  # the arrow was seen turning
    assert box.now() == pytest.approx(1.0, abs=0.06)
    assert len(got) == 1 and isinstance(got[0], Sector)
    assert not service.waiting and not service.spin()  # one outcome per wait


def test_a_spin_drawn_elsewhere_turns_the_arrow_into_its_sector(tmp_path: Path) -> None:
    uneven = Calibration(0.0, (30.0, 15.0) * 8).to_json()
    box = make_box(tmp_path, **{"spinner.calibration": uneven})
    service = SpinnerService.of(box)
    got: list[Outcome] = []
    service.wait(got.append)
    for sector in (5, 0, 15, 8):
        service.show_spin(sector)
        rest = service.arrow_deg(box.now() + 10.0)
        assert rest is not None and service.calibration.locate_position(rest) == Sector(sector)
        box.clock.advance(2.0)
        service.tick(box.now())
        assert not service.busy
    assert got == [] and service.waiting  # the game knew the result: nothing is delivered


def test_the_uncalibrated_spinner_has_the_sectors_it_was_made_with(tmp_path: Path) -> None:
    box = make_box(tmp_path)
    assert SpinnerService(box, sectors=8).calibration == Calibration.equal(8)
    assert SpinnerService(box).calibration == Calibration()


def test_the_same_seed_spins_the_same_sectors(tmp_path: Path) -> None:
    def sectors(path: Path) -> list[int]:
        box = make_box(path)
        service = SpinnerService.of(box)
        got: list[Outcome] = []
        for _ in range(5):
            service.wait(got.append)
            service.spin()
            box.clock.advance(2.0)
            service.tick(box.now())
        return [o.index for o in got]

    assert sectors(tmp_path / "a") == sectors(tmp_path / "b")


def test_the_sensor_sampler_hands_outcomes_to_the_loop(tmp_path: Path) -> None:
    box = make_box(tmp_path)
    clock = SystemClock()
    sim = SimulatedAS5600Bus(clock, seed=1)  # type: ignore[arg-type]
    service = SpinnerService(box, AS5600(sim), clock=clock)
    box.spinner = service
    got: list[tuple[Outcome, bool]] = []
    service.wait(lambda o: got.append((o, threading.current_thread() is threading.main_thread())))
    time.sleep(0.05)
    sim.spin(2000.0, friction_dps2=4000.0, wobble_deg=0.0)
    deadline = time.monotonic() + 3.0
    while not got and time.monotonic() < deadline:
        box.step()
        time.sleep(0.02)
    assert got and got[0][1]  # delivered on the loop's thread
    assert got[0][0] == service.calibration.locate(sim.motion.rest_deg)
    assert service.sampler is None  # the thread stopped with the outcome


def test_read_without_a_sensor_says_so(tmp_path: Path) -> None:
    reading = make_box(tmp_path).spinner_read()
    assert reading["sensor"] is False and reading["mode"] == "electronic"
    assert reading["angle_deg"] is None and reading["message"] == "Kein Drehsensor"


def test_read_gives_angle_magnet_and_sector(tmp_path: Path) -> None:
    box, _ = sensor_box(tmp_path, rest_deg=3 * 22.5)
    reading = box.spinner_read()
    assert reading["magnet"] == "ok" and reading["mode"] == "sensor"
    assert reading["angle_deg"] == pytest.approx(67.5, abs=0.1)
    assert reading["sector"] == 3 and reading["ambiguous"] is None


def test_read_reports_a_magnet_fault(tmp_path: Path) -> None:
    box, _ = sensor_box(tmp_path, magnet=MAGNET_NONE)
    reading = box.spinner_read()
    assert reading["magnet"] == "fault" and reading["message"] == "Kein Magnet erkannt"
    assert reading["sector"] is None


def test_calibrate_zero_takes_the_arrow_at_petal_one(tmp_path: Path) -> None:
    box, _ = sensor_box(tmp_path, rest_deg=40.0)
    answer = box.spinner_calibrate({"action": "zero"})
    assert answer["calibration"]["zero_deg"] == pytest.approx(40.0, abs=0.1)
    stored = box.store.settings()["spinner.calibration"]
    assert stored == answer["calibration"]
    assert box.spinner_read()["sector"] == 0


def test_calibrate_from_boundaries_measures_every_width(tmp_path: Path) -> None:
    box, _ = sensor_box(tmp_path)
    widths = [30.0, 15.0] * 8
    ends = [sum(widths[: i + 1]) - 15.0 for i in range(16)]  # petal 1 centred on 0°
    answer = box.spinner_calibrate({"action": "boundaries", "readings": [e % 360 for e in ends]})
    cal = Calibration.from_json(answer["calibration"])
    assert cal.widths_deg == pytest.approx(widths) and cal.zero_deg == pytest.approx(0.0)
    assert box.spinner.sector_probabilities()[:2] == pytest.approx([30 / 360, 15 / 360])


def test_calibrate_explicit_data_and_bad_params(tmp_path: Path) -> None:
    box = make_box(tmp_path)
    data = Calibration.equal(16, zero_deg=10.0).to_json()
    assert box.spinner_calibrate({"calibration": data})["calibration"] == data
    assert box.store.settings()["spinner.calibration"] == data
    with pytest.raises(ValueError):
        box.spinner_calibrate({"calibration": {"zero_deg": 0, "widths_deg": [10, 10]}})
    with pytest.raises(ValueError):
        box.spinner_calibrate({"action": "boundaries", "readings": [1, 2, 3]})
    with pytest.raises(ValueError):
        box.spinner_calibrate({"action": "sideways"})
    with pytest.raises(SpinnerUnavailable):
        box.spinner_calibrate({"action": "zero"})  # no sensor to read


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"acton": "reset"}, "acton"),  # a typo is never passed over in silence
        ({"action": "reset", "readings": [1.0] * 16}, "readings"),
        ({"action": "reset", "calibration": Calibration.equal(16).to_json()}, "action"),
        ({}, "action"),
    ],
)
def test_calibrate_refuses_what_it_would_not_use(
    tmp_path: Path, params: dict[str, object], field: str
) -> None:
    box = make_box(tmp_path)
    before = box.store.settings()["spinner.calibration"]
    with pytest.raises(ValueError, match=f"^{field}: "):
        box.spinner_calibrate(params)
    assert box.store.settings()["spinner.calibration"] == before


def test_calibration_from_the_device_menu_golden(tmp_path: Path) -> None:
    box, sim = sensor_box(tmp_path, rest_deg=40.0)
    menu = settings_menu(box)
    labels = [item.text() for item in menu.items]
    assert "Pfeil kalibrieren" in labels and "Pfeil: automatisch" in labels
    menu.items[labels.index("Pfeil kalibrieren")].action()
    screen = box.top
    assert isinstance(screen, CalibrationScreen)
    box.step()
    assert_golden(box.frame().image, "maskenball_calibration")
    box.dispatch(K3)  # OK: the arrow is at the middle of petal 1
    assert box.store.settings()["spinner.calibration"]["zero_deg"] == pytest.approx(40.0, abs=0.1)
    box.dispatch(K1)  # Ja: each boundary too
    widths = [28.0, 17.0] * 8
    for i in range(16):
        put_arrow(sim, 40.0 - 14.0 + sum(widths[: i + 1]))
        box.step()
        box.dispatch(K3)
    assert screen.step == "done"
    stored = Calibration.from_json(box.store.settings()["spinner.calibration"])
    assert stored.widths_deg == pytest.approx(widths, abs=0.2)
    assert stored.zero_deg == pytest.approx(40.0, abs=0.2)


def test_calibration_without_a_reading_shows_why(tmp_path: Path) -> None:
    box, _ = sensor_box(tmp_path, magnet=MAGNET_NONE)
    box.push(CalibrationScreen(box.spinner))
    box.dispatch(K3)
    assert box.top.flash == "Kein Magnet erkannt"
    assert box.store.settings()["spinner.calibration"] is None


def texts_on(screen: object) -> str:
    """Every text the screen draws on the panel now, joined by spaces."""
    canvas = Canvas()
    screen.draw(canvas)  # type: ignore[attr-defined]
    return " ".join(run.text for run in canvas.runs)


def test_a_sensor_that_does_not_answer_says_so_in_full(tmp_path: Path) -> None:
    box, sim = sensor_box(tmp_path)
    sim.address = 0x40  # the AS5600 answers no more
    box.push(CalibrationScreen(box.spinner))
    box.step()
    assert "Drehsensor antwortet nicht" in texts_on(box.top)
    box.dispatch(K3)
    assert "Drehsensor antwortet nicht" in texts_on(box.top)


def test_boundaries_out_of_order_say_so_in_full(tmp_path: Path) -> None:
    box, sim = sensor_box(tmp_path)
    box.push(CalibrationScreen(box.spinner))
    box.dispatch(K3)  # OK: the zero
    box.dispatch(K1)  # Ja: each boundary
    for _ in range(16):
        box.dispatch(K3)  # the arrow never moves
    assert "Grenzen nicht der Reihe nach" in texts_on(box.top)


def test_the_spinner_mode_setting_cycles_and_switches_the_sensor_off(tmp_path: Path) -> None:
    box, _ = sensor_box(tmp_path)
    menu = settings_menu(box)
    item = next(i for i in menu.items if i.text().startswith("Pfeil:"))
    item.action()
    assert item.text() == "Pfeil: Sensor" and box.spinner.mode == "sensor"
    item.action()
    assert item.text() == "Pfeil: elektronisch" and box.spinner.mode == "electronic"


def test_a_test_spin_shows_the_sector(tmp_path: Path) -> None:
    box = make_box(tmp_path)
    box.push(TrialSpinScreen(SpinnerService.of(box)))
    box.dispatch(K1)  # Drehen
    box.settle()
    assert box.top.result.startswith(("Blütenblatt", "zwischen zwei Blütenblättern"))
    box.dispatch(K4)
    assert not box.spinner.waiting
