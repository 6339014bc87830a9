"""The whole spinner chain on the simulated AS5600: bus -> driver -> sampler -> detector."""

from __future__ import annotations

import queue
import random

import pytest
from spielleiter.hal.spinner import (
    AS5600,
    MAGNET_TOO_STRONG,
    MAGNET_TOO_WEAK,
    NO_ANSWER,
    NO_MAGNET,
    REG_RAW_ANGLE,
    Ambiguous,
    Calibration,
    Sector,
    SensorError,
    SensorFault,
    SpinAgain,
    SpinDetector,
    SpinnerSampler,
)
from spielleiter.hal.spinner_sim import SimClock, SimulatedAS5600Bus, SpinMotion

CALIBRATION = Calibration(zero_deg=37.0, widths_deg=(30.0, 15.0) * 8, margin_deg=2.0)
RATE_HZ = 50.0


def rig(**bus_options: object) -> tuple[SimClock, SimulatedAS5600Bus, SpinnerSampler]:
    clock = SimClock()
    bus = SimulatedAS5600Bus(clock, **bus_options)  # type: ignore[arg-type]
    sampler = SpinnerSampler(AS5600(bus), SpinDetector(CALIBRATION), clock, rate_hz=RATE_HZ)
    sampler.run_until_outcome(0.2)
    return clock, bus, sampler


def clear_of_boundaries(reading: float, clearance: float) -> bool:
    pos = CALIBRATION.position(reading)
    edges = [CALIBRATION.span(i)[1] % 360 for i in range(CALIBRATION.sectors)]
    return all(abs((pos - e + 180) % 360 - 180) > clearance for e in edges)


def test_a_thousand_spins_give_one_outcome_each_and_the_right_sector() -> None:
    rng = random.Random(2024)
    clock, bus, sampler = rig(seed=7)
    right = clear = again = 0
    for _ in range(1000):
        motion = bus.spin(
            rng.uniform(250, 1500) * rng.choice((1, -1)),
            friction_dps2=rng.uniform(100, 250),
            wobble_deg=rng.uniform(0, 2.5),
        )
        outcome = sampler.run_until_outcome(max_s=30)
        assert outcome is not None
        assert sampler.run_until_outcome(max_s=0.6) is None
        if abs(motion.travel_deg) < 360:
            assert outcome == SpinAgain()
            again += 1
        elif clear_of_boundaries(motion.rest_deg, CALIBRATION.margin_deg + 1.0):
            clear += 1
            right += outcome == CALIBRATION.locate(motion.rest_deg)
        else:
            assert isinstance(outcome, Sector | Ambiguous)
    assert again > 0 and clear > 500
    assert right / clear >= 0.995


def test_an_arrow_resting_on_a_boundary_asks_which_sector() -> None:
    travel = SpinMotion(speed_dps=900.0).travel_deg
    clock, bus, sampler = rig(seed=3, rest_deg=CALIBRATION.reading(14.0 - travel))
    assert bus.spin(900.0).rest_deg == pytest.approx(CALIBRATION.reading(14.0))
    assert sampler.run_until_outcome(max_s=30) == Ambiguous(0, 1)


def test_wobble_at_rest_never_gives_a_second_result() -> None:
    clock, bus, sampler = rig(seed=11)
    bus.spin(1000.0, wobble_deg=6.0, wobble_decay_s=3.0, wobble_hz=4.0)
    assert isinstance(sampler.run_until_outcome(max_s=30), Sector | Ambiguous)
    assert sampler.run_until_outcome(max_s=20) is None


def test_magnet_lost_mid_spin_gives_the_error_and_no_result() -> None:
    clock, bus, sampler = rig(seed=5)
    bus.spin(1200.0)
    bus.lose_magnet_at(clock.now() + 1.0)
    assert sampler.run_until_outcome(max_s=30) == SensorError(NO_MAGNET)
    assert sampler.run_until_outcome(max_s=20) is None
    assert sampler.detector.fault is not None


def test_magnet_back_after_a_loss_rests_without_a_result_then_spins_again() -> None:
    clock, bus, sampler = rig(seed=5)
    bus.spin(1200.0)
    bus.lose_magnet_at(clock.now() + 1.0)
    assert sampler.run_until_outcome(max_s=2) == SensorError(NO_MAGNET)
    bus.magnet_lost_at = None
    assert sampler.run_until_outcome(max_s=20) is None
    motion = bus.spin(900.0)
    assert sampler.run_until_outcome(max_s=30) == CALIBRATION.locate(motion.rest_deg)


@pytest.mark.parametrize(
    ("magnet", "message"), [("weak", MAGNET_TOO_WEAK), ("strong", MAGNET_TOO_STRONG)]
)
def test_a_weak_or_strong_magnet_warns_and_the_steady_angle_still_gives_the_result(
    magnet: str, message: str
) -> None:
    clock, bus, sampler = rig(seed=1, magnet=magnet)
    assert sampler.detector.fault is None and sampler.sensor.warning == message
    motion = bus.spin(1000.0)
    assert sampler.run_until_outcome(max_s=20) == CALIBRATION.locate(motion.rest_deg)


def test_less_than_a_full_turn_asks_to_spin_again() -> None:
    clock, bus, sampler = rig(seed=9)
    motion = bus.spin(-300.0)
    assert abs(motion.travel_deg) < 360
    assert sampler.run_until_outcome(max_s=10) == SpinAgain()


def test_the_wrong_address_does_not_answer() -> None:
    bus = SimulatedAS5600Bus(SimClock())
    with pytest.raises(SensorFault, match=NO_ANSWER):
        AS5600(bus, 0x37).read()


def test_the_raw_angle_word_can_be_read_repeatedly() -> None:
    bus = SimulatedAS5600Bus(SimClock(), noise_deg=0.0, rest_deg=90.0)
    assert bus.read_i2c_block_data(0x36, REG_RAW_ANGLE, 4) == [0x04, 0x00, 0x04, 0x00]
    assert bus.read_byte_data(0x36, REG_RAW_ANGLE + 1) == 0x00


def test_the_sampler_thread_hands_outcomes_to_a_queue() -> None:
    clock = SimClock()
    bus = SimulatedAS5600Bus(clock, seed=4)
    outcomes: queue.Queue = queue.Queue()
    sampler = SpinnerSampler(AS5600(bus), SpinDetector(CALIBRATION), clock, outcomes.put)
    motion = bus.spin(800.0)
    sampler.start()
    try:
        assert outcomes.get(timeout=5) == CALIBRATION.locate(motion.rest_deg)
    finally:
        sampler.stop()
