"""The spinner's parts alone: AS5600 decoding, calibration, spin detection, electronic spinner."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from spielleiter.hal.spinner import (
    AS5600,
    MAGNET_TOO_STRONG,
    MAGNET_TOO_WEAK,
    NO_ANSWER,
    NO_MAGNET,
    REG_STATUS,
    Ambiguous,
    Calibration,
    CalibrationError,
    ElectronicSpinner,
    Sector,
    SensorError,
    SensorFault,
    SpinAgain,
    SpinDetector,
)

PETALS_AND_LEAVES = (30.0, 15.0) * 8
"""Wide petals with narrow leaves between them, as on a real flower."""


class RecordingBus:
    """A bus that answers one fixed block and remembers the calls."""

    def __init__(self, block: list[int]) -> None:
        self.block = block
        self.calls: list[tuple[int, int, int]] = []

    def read_i2c_block_data(self, addr: int, register: int, length: int) -> list[int]:
        self.calls.append((addr, register, length))
        return self.block[:length]

    def read_byte_data(self, addr: int, register: int) -> int:
        raise AssertionError("the driver reads one block, never byte by byte")


# --- the AS5600 ---------------------------------------------------------------------


def test_the_angle_and_status_come_in_one_block_read() -> None:
    bus = RecordingBus([0x20, 0x04, 0x00])
    assert AS5600(bus, 0x36).read() == pytest.approx(90.0)
    assert bus.calls == [(0x36, REG_STATUS, 3)]


def test_no_magnet_gives_a_german_message_and_no_angle() -> None:
    with pytest.raises(SensorFault) as caught:
        AS5600(RecordingBus([0x00, 0x04, 0x00])).read()
    assert caught.value.message == NO_MAGNET == "Kein Magnet erkannt"


@pytest.mark.parametrize(
    ("status", "message"), [(0x30, MAGNET_TOO_WEAK), (0x28, MAGNET_TOO_STRONG)]
)
def test_a_weak_or_strong_magnet_is_a_warning_beside_a_good_angle(
    status: int, message: str
) -> None:
    sensor = AS5600(RecordingBus([status, 0x04, 0x00]))
    assert sensor.read() == pytest.approx(90.0) and sensor.warning == message
    sensor.bus = RecordingBus([0x20, 0x04, 0x00])
    assert sensor.read() == pytest.approx(90.0) and sensor.warning is None


def test_a_silent_bus_is_a_sensor_fault() -> None:
    class DeadBus(RecordingBus):
        def read_i2c_block_data(self, addr: int, register: int, length: int) -> list[int]:
            raise OSError(121, "Remote I/O error")

    with pytest.raises(SensorFault, match=NO_ANSWER):
        AS5600(DeadBus([])).read()


# --- calibration ----------------------------------------------------------------------


def test_zero_is_the_middle_of_sector_0() -> None:
    cal = Calibration(zero_deg=100.0, widths_deg=PETALS_AND_LEAVES)
    assert cal.locate(100.0) == Sector(0)
    assert cal.locate(100.0 + 15 + 7.5) == Sector(1)
    assert cal.locate(100.0 - 12) == Sector(0)
    assert cal.locate(100.0 - 15 - 7.5) == Sector(15)


def test_near_a_boundary_it_asks_which_of_the_two() -> None:
    cal = Calibration(zero_deg=0.0, widths_deg=PETALS_AND_LEAVES, margin_deg=2.0)
    assert cal.locate(15.5) == Ambiguous(0, 1)
    assert cal.locate(14.0) == Ambiguous(0, 1)
    assert cal.locate(345.5) == Ambiguous(15, 0)
    assert cal.locate(12.0) == Sector(0)


def test_direction_minus_one_counts_sectors_the_other_way() -> None:
    cal = Calibration(zero_deg=50.0, widths_deg=PETALS_AND_LEAVES, direction=-1)
    assert cal.locate(50.0 - 22.5) == Sector(1)


def test_calibration_helpers_zero_and_boundaries() -> None:
    cal = Calibration.equal().with_zero(200.0)
    assert cal.zero_deg == 200.0 and cal.locate(200.0) == Sector(0)
    truth = Calibration(zero_deg=300.0, widths_deg=PETALS_AND_LEAVES, direction=-1)
    boundaries = [truth.reading(truth.span(i)[1]) for i in range(16)]
    measured = Calibration.from_boundaries(boundaries)
    assert measured.direction == -1 and measured.zero_deg == pytest.approx(300.0)
    assert measured.widths_deg == pytest.approx(PETALS_AND_LEAVES)


def test_calibration_survives_json_and_rejects_nonsense() -> None:
    cal = Calibration(12.5, PETALS_AND_LEAVES, 1.5, -1, tuple("ab" * 8))
    assert Calibration.from_json(cal.to_json()) == cal
    for bad in (
        {"zero_deg": 0, "widths_deg": [20.0] * 16},
        {"zero_deg": 0, "widths_deg": [45.0] + [22.5] * 14 + [0.0]},
        {"zero_deg": 400, "widths_deg": [22.5] * 16},
        {"zero_deg": 0, "widths_deg": [22.5] * 16, "margin_deg": 12},
        {"widths_deg": [22.5] * 16},
        {"zero_deg": 0, "widths_deg": [22.5] * 16, "labels": ["x"]},
    ):
        with pytest.raises(CalibrationError):
            Calibration.from_json(bad)


# --- spin detection ---------------------------------------------------------------------


def feed_all(det: SpinDetector, samples: list[tuple[float, float | SensorFault]]) -> list:
    return [o for t, a in samples if (o := det.feed(t, a)) is not None]


def turn(start: float, degrees: float, t0: float = 0.0, step: float = 20.0) -> list:
    """Samples every 20 ms turning `degrees` at `step` degrees a sample, then 1 s at rest."""
    n = int(abs(degrees) / step)
    sign = 1 if degrees >= 0 else -1
    moving = [(t0 + 0.02 * k, (start + sign * step * k) % 360) for k in range(1, n + 1)]
    end = (start + degrees) % 360
    return moving + [(t0 + 0.02 * (n + k), end) for k in range(1, 51)]


def test_a_full_turn_gives_the_sector_where_the_arrow_rests() -> None:
    det = SpinDetector(Calibration.equal())
    assert feed_all(det, [(0.0, 0.0), *turn(0.0, 720 + 45)]) == [Sector(2)]


def test_the_result_waits_until_the_arrow_is_still_for_half_a_second() -> None:
    det = SpinDetector(Calibration.equal())
    det.feed(0.0, 0.0)
    samples = turn(0.0, 400)
    moving = samples[:20]
    assert moving[-1][1] == 40.0 and feed_all(det, moving) == []
    stop_t = moving[-1][0]
    assert det.feed(stop_t + 0.48, 40.0) is None
    assert det.feed(stop_t + 0.52, 40.0) == Sector(2)


def test_less_than_a_full_turn_asks_to_spin_again() -> None:
    det = SpinDetector(Calibration.equal())
    assert feed_all(det, [(0.0, 0.0), *turn(0.0, -300)]) == [SpinAgain()]
    assert SpinAgain().message == "Nochmal drehen"


def test_a_small_nudge_is_not_a_spin() -> None:
    det = SpinDetector(Calibration.equal())
    assert feed_all(det, [(0.0, 0.0), *turn(0.0, 10, step=2)]) == []


def test_a_fault_mid_spin_gives_the_error_and_no_result() -> None:
    det = SpinDetector(Calibration.equal())
    samples = [(0.0, 0.0), *turn(0.0, 900)]
    samples[20:30] = [(t, SensorFault(NO_MAGNET)) for t, _ in samples[20:30]]
    assert feed_all(det, samples) == [SensorError(NO_MAGNET)]
    assert det.state == "rest" and det.rest_deg == pytest.approx(180.0)
    assert feed_all(det, turn(180.0, 400, t0=10.0)) == [Sector(10)]


def test_the_current_fault_is_shown_until_the_sensor_reads_again() -> None:
    det = SpinDetector(Calibration.equal())
    det.feed(0.0, 0.0)
    det.feed(0.1, SensorFault(MAGNET_TOO_WEAK))
    assert det.fault is not None and det.fault.message == MAGNET_TOO_WEAK
    det.feed(0.2, 0.0)
    assert det.fault is None


# --- the electronic spinner -------------------------------------------------------------


def test_the_electronic_spinner_draws_by_sector_width() -> None:
    cal = Calibration(zero_deg=0.0, widths_deg=PETALS_AND_LEAVES)
    spinner = ElectronicSpinner(cal, random.Random(5))
    counts = Counter(spinner.spin().outcome.index for _ in range(4000))
    petals = sum(counts[i] for i in range(0, 16, 2))
    assert petals / 4000 == pytest.approx(2 / 3, abs=0.03)
    assert set(counts) == set(range(16))


def test_the_animation_turns_at_least_twice_and_ends_clearly_in_the_drawn_sector() -> None:
    cal = Calibration(zero_deg=0.0, widths_deg=PETALS_AND_LEAVES)
    spinner = ElectronicSpinner(cal, random.Random(1))
    for _ in range(50):
        start = spinner.position_deg
        spin = spinner.spin()
        assert cal.locate_position(spin.frames[-1]) == spin.outcome
        steps = [(b - a) % 360 for a, b in zip([start, *spin.frames], spin.frames, strict=False)]
        assert sum(steps) >= 720 and steps == sorted(steps, reverse=True)


def spin_then(det: SpinDetector, tail: list[tuple[float, float]]) -> list:
    """Two fast turns from rest at 0 (100 readings a second), then the given readings."""
    samples = [(0.0, 0.0)] + [(0.01 * k, (k * 9.0) % 360) for k in range(1, 81)]
    return feed_all(det, samples + tail)


def test_an_arrow_creeping_on_is_not_at_rest_until_it_stops() -> None:
    """8 degrees a second from sector 0 into sector 1 (22.5 degrees each): sector 1."""
    det = SpinDetector(Calibration.equal())
    creep = [(0.81 + 0.01 * k, 5.0 + 0.08 * k) for k in range(250)]  # 5 -> 25 degrees
    rest = [(3.31 + 0.01 * k, 25.0) for k in range(100)]
    assert spin_then(det, creep + rest) == [Sector(1)]


def test_one_bad_read_inside_a_spin_does_not_drop_it() -> None:
    det = SpinDetector(Calibration.equal())
    samples = [(0.0, 0.0)] + [(0.01 * k, (k * 9.0) % 360) for k in range(1, 81)]
    samples[40] = (samples[40][0], SensorFault(NO_ANSWER))  # type: ignore[assignment]
    rest = [(0.81 + 0.01 * k, 50.0) for k in range(100)]
    assert feed_all(det, samples + rest) == [Sector(2)]


def test_a_gap_in_the_readings_does_not_make_a_long_spin_short() -> None:
    """630 degrees in all, 250 ms of it unread: the turns in the gap are counted."""
    det = SpinDetector(Calibration.equal())
    fast = [(0.0, 0.0)] + [(0.01 * k, (k * 9.0) % 360) for k in range(1, 21)]  # 180 degrees
    after_gap = [(0.45 + 0.01 * k, (405.0 + k * 9.0) % 360) for k in range(26)]  # to 630
    rest = [(0.71 + 0.01 * k, 270.0) for k in range(100)]
    assert feed_all(det, fast + after_gap + rest) == [Sector(12)]
