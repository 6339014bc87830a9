"""The soft keys: one key event per real press, whatever the contact bounce.

The buttons are gpiozero Buttons on mock pins (low = pressed, pull-up), wired as
hardware/pins.toml says; time comes from a fake clock, so nothing sleeps.
"""

from __future__ import annotations

import gc
import pathlib
from collections.abc import Iterator

import pytest
from gpiozero.exc import PinInvalidPin
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st
from spielleiter.hal.buttons import ButtonPanel
from spielleiter.hal.keys import Key, KeyEvent
from spielleiter.hal.pins import load_pin_map

PINS = load_pin_map()
DEBOUNCE_S = PINS.debounce_ms / 1000
LONG_S = PINS.long_press_ms / 1000
POLL_S = 0.01


class FakeClock:
    """Time that moves only when the test says so."""

    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


class Bench:
    """A button panel on mock pins with a fake clock: press, bounce, wait, collect events."""

    def __init__(self) -> None:
        self.factory = MockFactory()
        self.clock = FakeClock()
        self.panel = ButtonPanel(
            PINS.buttons, self.clock, DEBOUNCE_S, LONG_S, pin_factory=self.factory
        )
        self.events: list[KeyEvent] = []

    def contact(self, key: Key, closed: bool) -> None:
        pin = self.factory.pin(PINS.buttons[key])
        if closed:
            pin.drive_low()
        else:
            pin.drive_high()
        self.events.extend(self.panel.poll(self.clock.t))

    def edge(self, key: Key, closed: bool) -> None:
        """The contact changes and nobody polls (the loop is busy elsewhere)."""
        pin = self.factory.pin(PINS.buttons[key])
        if closed:
            pin.drive_low()
        else:
            pin.drive_high()

    def wait(self, seconds: float) -> None:
        """Let time pass, polling like the device loop does."""
        end = self.clock.t + seconds
        while self.clock.t < end:
            self.clock.t = min(end, self.clock.t + POLL_S)
            self.events.extend(self.panel.poll(self.clock.t))

    def bounce(self, key: Key, gaps: list[float], closed: bool) -> None:
        """A bounce train: the contact flips after each gap, then settles `closed`."""
        state = closed
        for gap in gaps:
            self.contact(key, state)
            state = not state
            self.clock.t += gap
            self.events.extend(self.panel.poll(self.clock.t))
        self.contact(key, closed)

    def close(self) -> None:
        self.panel.close()

    def fresh(self) -> Bench:
        """All keys released and settled, no events: ready for the next case."""
        for key in Key:
            self.contact(key, False)
        self.wait(0.2)
        self.events.clear()
        return self


@pytest.fixture(scope="module")
def shared_bench() -> Iterator[Bench]:
    """One panel for the module: gpiozero needs a tenth of a second to close a button."""
    made = Bench()
    yield made
    made.close()


@pytest.fixture
def bench(shared_bench: Bench) -> Bench:
    return shared_bench.fresh()


def test_the_pins_come_from_the_pin_map() -> None:
    assert set(PINS.buttons) == set(Key)
    assert len(set(PINS.buttons.values())) == 4
    assert 0 < DEBOUNCE_S < LONG_S


def test_a_panel_that_cannot_open_a_pin_gives_back_the_pins_it_opened() -> None:
    """K3 on a pin the board lacks: the panel fails, and K1 and K2 are free again (a
    gpiozero Button holds its pin until it is closed), so the next panel opens."""
    factory = MockFactory()
    wrong = {**PINS.buttons, Key.K3: 99}
    gc.disable()  # only closing releases a pin: the collector must not do it for the test
    try:
        with pytest.raises(PinInvalidPin):
            ButtonPanel(wrong, FakeClock(), DEBOUNCE_S, LONG_S, pin_factory=factory)
        ButtonPanel(PINS.buttons, FakeClock(), DEBOUNCE_S, LONG_S, pin_factory=factory).close()
    finally:
        gc.enable()


def test_a_plain_press_gives_one_short_event(bench: Bench) -> None:
    bench.contact(Key.K2, True)
    bench.wait(0.1)
    assert bench.events == []
    bench.contact(Key.K2, False)
    bench.wait(0.1)
    assert bench.events == [KeyEvent(Key.K2)]


@pytest.mark.parametrize("key", list(Key))
def test_each_key_reports_itself(bench: Bench, key: Key) -> None:
    bench.contact(key, True)
    bench.wait(0.1)
    bench.contact(key, False)
    bench.wait(0.1)
    assert bench.events == [KeyEvent(key)]


def test_a_quick_tap_between_two_polls_of_the_loop_still_counts(bench: Bench) -> None:
    # the device loop polls every 50 ms; this 40 ms tap starts and ends between two polls
    bench.events.extend(bench.panel.poll(bench.clock.t))
    bench.clock.t += 0.005
    bench.edge(Key.K3, True)
    bench.clock.t += 0.040
    bench.edge(Key.K3, False)
    bench.clock.t += 0.005
    bench.events.extend(bench.panel.poll(bench.clock.t))
    bench.wait(0.1)
    assert bench.events == [KeyEvent(Key.K3)]


def test_a_touch_shorter_than_the_debounce_is_no_press(bench: Bench) -> None:
    bench.contact(Key.K1, True)
    bench.clock.t += DEBOUNCE_S / 2
    bench.contact(Key.K1, False)
    bench.wait(0.2)
    assert bench.events == []


# Bounce trains whose every gap is shorter than the debounce; with the hold they stay
# well under a long press.
gaps = st.lists(
    st.floats(min_value=0.0005, max_value=DEBOUNCE_S * 0.95, allow_nan=False), max_size=12
)


@settings(max_examples=40, deadline=None)
@given(press_bounce=gaps, release_bounce=gaps, hold=st.floats(0.05, LONG_S * 0.4))
def test_bouncing_contacts_give_exactly_one_press(
    shared_bench: Bench, press_bounce: list[float], release_bounce: list[float], hold: float
) -> None:
    bench = shared_bench.fresh()
    bench.bounce(Key.K3, press_bounce, closed=True)
    bench.wait(hold)
    bench.bounce(Key.K3, release_bounce, closed=False)
    bench.wait(0.2)
    assert bench.events == [KeyEvent(Key.K3)]


def test_a_long_press_gives_one_long_event_and_no_short_one(bench: Bench) -> None:
    bench.contact(Key.K4, True)
    bench.wait(LONG_S + 0.05)
    assert bench.events == [KeyEvent(Key.K4, long=True)]
    bench.wait(1.0)
    bench.contact(Key.K4, False)
    bench.wait(0.2)
    assert bench.events == [KeyEvent(Key.K4, long=True)]


def test_two_keys_pressed_together_both_count(bench: Bench) -> None:
    bench.contact(Key.K1, True)
    bench.contact(Key.K4, True)
    bench.wait(0.1)
    bench.contact(Key.K1, False)
    bench.contact(Key.K4, False)
    bench.wait(0.1)
    assert bench.events == [KeyEvent(Key.K1), KeyEvent(Key.K4)]


def test_the_buzzer_plays_every_tune_on_a_pwm_pin() -> None:
    from gpiozero.pins.mock import MockFactory, MockPWMPin
    from spielleiter.hal.buzzer import TUNES, PiezoBuzzer

    factory = MockFactory(pin_class=MockPWMPin)
    buzzer = PiezoBuzzer(18, pin_factory=factory, wait=True)
    pin = factory.pin(18)
    frequencies: list[float] = []
    original = buzzer.device.play
    buzzer.device.play = lambda tone: (frequencies.append(float(tone)), original(tone))[1]
    for tune in TUNES:
        buzzer.play(tune)
    buzzer.play("unknown")  # a name the buzzer does not know plays nothing
    assert buzzer.played == list(TUNES)
    assert frequencies == [f for notes in TUNES.values() for f, _ in notes if f > 0]
    assert pin.state == 0, "silent after each tune"
    buzzer.close()


def test_the_box_plays_the_tables_tunes_unless_sound_is_off(tmp_path: pathlib.Path) -> None:
    import random

    from spielleiter.app import Box, VirtualClock
    from spielleiter.games.base import Seat
    from spielleiter.hal.buzzer import LogBuzzer
    from spielleiter.hal.display import FrameSink
    from spielleiter.store import Store
    from spielleiter.ui.menus import launch, main_menu

    store = Store.open(tmp_path / "data")
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(1))
    box.buzzer = LogBuzzer()
    box.reload_settings()
    box.push(main_menu(box))
    seats = [Seat("Anna"), Seat("Leicht 1", "computer", "leicht")]
    seats.append(Seat("Leicht 2", "computer", "leicht"))
    launch(box, "speedtombola", {"players": 3}, seats)
    box.settle()
    assert "turn" in box.buzzer.played
    store.set_settings({"sound.enabled": False})
    box.reload_settings()
    box.buzzer.played.clear()
    box.table.sound("turn")
    box.step()
    assert box.buzzer.played == [] and box.table.sounds == []
    box.close()
    store.close()
