"""The push button and the status LED on gpiozero's MockFactory.

MockFactory does not debounce, so bounce is ours to prove. Time is a hand
driven clock, so no test depends on how fast this machine is.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from scorer.devices import BadDeviceSpec, Button, StatusLed, open_button, open_status_led

EVENT_WAIT_S = 10.0


class Clock:
    """A monotonic clock that moves only when the test says."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


@pytest.fixture
def pins() -> Iterator[MockFactory]:
    Device.pin_factory = MockFactory()
    yield Device.pin_factory
    Device.pin_factory.close()
    Device.pin_factory = None


class Table:
    """What the table does with the button: counts presses and undos."""

    def __init__(self) -> None:
        self.events: list[str] = []
        self.health: list[str | None] = []

    def press(self) -> None:
        self.events.append("press")

    def undo(self) -> None:
        self.events.append("undo")


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def table() -> Table:
    return Table()


@pytest.fixture
def button(pins: MockFactory, clock: Clock, table: Table) -> Iterator[Button]:
    b = Button(
        "gpio:17",
        on_press=table.press,
        on_hold=table.undo,
        hold_time=1.5,
        bounce=0.05,
        stuck_time=10.0,
        on_health=table.health.append,
        poll=None,
        clock=clock,
    )
    yield b
    b.close()


def bounce(pin: object, clock: Clock, final_low: bool, edges: int = 5) -> None:
    """A contact chattering for a few milliseconds before it settles."""
    for i in range(edges):
        clock.advance(0.001)
        if (i % 2 == 0) == final_low:
            pin.drive_low()
        else:
            pin.drive_high()
    if final_low:
        pin.drive_low()
    else:
        pin.drive_high()


def test_a_bouncing_press_is_one_press(
    button: Button, pins: MockFactory, clock: Clock, table: Table
) -> None:
    pin = pins.pin(17)
    # given a press whose contact bounces on the way down and on the way up
    bounce(pin, clock, final_low=True)
    clock.advance(0.15)
    button.check()
    bounce(pin, clock, final_low=False)
    clock.advance(0.1)
    button.check()
    # then the table saw exactly one press
    assert table.events == ["press"]


def test_two_presses_are_two_presses(
    button: Button, pins: MockFactory, clock: Clock, table: Table
) -> None:
    pin = pins.pin(17)
    for _ in range(2):
        bounce(pin, clock, final_low=True)
        clock.advance(0.12)
        bounce(pin, clock, final_low=False)
        clock.advance(0.3)
        button.check()
    assert table.events == ["press", "press"]


def test_a_press_fires_on_release_not_on_the_way_down(
    button: Button, pins: MockFactory, clock: Clock, table: Table
) -> None:
    pin = pins.pin(17)
    pin.drive_low()
    clock.advance(0.2)
    button.check()
    assert table.events == [] and button.is_pressed
    pin.drive_high()
    assert table.events == ["press"] and not button.is_pressed


def test_a_tap_shorter_than_the_bounce_time_is_not_lost(
    button: Button, pins: MockFactory, clock: Clock, table: Table
) -> None:
    # given a release edge that came inside the bounce window (and so was set aside)
    pin = pins.pin(17)
    pin.drive_low()
    clock.advance(0.03)
    pin.drive_high()
    # when the line settles, then re-reading the pin completes the press
    clock.advance(0.1)
    button.check()
    assert table.events == ["press"]


def test_holding_undoes_once(button: Button, pins: MockFactory, clock: Clock, table: Table) -> None:
    pin = pins.pin(17)
    # given the button held for 2 s, checked many times meanwhile
    bounce(pin, clock, final_low=True)
    for _ in range(20):
        clock.advance(0.1)
        button.check()
    assert table.events == []
    # when let go, then exactly one undo, and no press
    bounce(pin, clock, final_low=False)
    clock.advance(0.1)
    button.check()
    assert table.events == ["undo"]


def test_a_stuck_button_is_reported_once_and_fires_nothing(
    button: Button, pins: MockFactory, clock: Clock, table: Table
) -> None:
    pin = pins.pin(17)
    # given a button that goes down and stays down for a minute
    pin.drive_low()
    for _ in range(600):
        clock.advance(0.1)
        button.check()
    # then "button stuck" was reported once, and no press or undo flooded the table
    assert button.health() == "button stuck"
    assert table.health == ["button stuck"]
    assert table.events == []
    # when it finally comes up, then it is fine again and its release is ignored
    pin.drive_high()
    clock.advance(0.1)
    button.check()
    assert button.health() is None
    assert table.health == ["button stuck", None]
    assert table.events == []
    # and the next ordinary press works
    pin.drive_low()
    clock.advance(0.2)
    pin.drive_high()
    assert table.events == ["press"]


def test_a_button_down_at_start_is_watched_not_pressed(
    pins: MockFactory, clock: Clock, table: Table
) -> None:
    # given the button is already down when the server starts
    pins.pin(17).drive_low()
    with Button("gpio:17", table.press, table.undo, poll=None, clock=clock) as button:
        clock.advance(0.5)
        button.check()
        pins.pin(17).drive_high()
        clock.advance(0.1)
        button.check()
        # then its release fires nothing
        assert table.events == []


def test_a_failing_callback_does_not_break_the_button(
    pins: MockFactory, clock: Clock, table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    calls: list[int] = []

    def broken() -> None:
        calls.append(1)
        raise RuntimeError("the table is busy")

    pin = pins.pin(17)
    with Button("gpio:17", broken, table.undo, poll=None, clock=clock):
        for _ in range(2):
            pin.drive_low()
            clock.advance(0.2)
            pin.drive_high()
            clock.advance(0.2)
    assert len(calls) == 2
    assert "callback failed" in caplog.text


def test_the_monitor_thread_reports_a_stuck_button_by_itself(pins: MockFactory) -> None:
    # given a real clock and a monitor polling every 10 ms, stuck after 50 ms
    stuck = threading.Event()
    with Button(
        "gpio:17",
        stuck_time=0.05,
        poll=0.01,
        on_health=lambda problem: problem and stuck.set(),
    ) as button:
        pins.pin(17).drive_low()
        # then, with nobody calling check(), the stuck button is reported
        assert stuck.wait(EVENT_WAIT_S)
        assert button.health() == "button stuck"


def test_no_button_is_none(pins: MockFactory) -> None:
    assert open_button("none", print, print) is None


def test_a_typo_in_the_button_spec_is_an_error(pins: MockFactory) -> None:
    with pytest.raises(BadDeviceSpec):
        open_button("gpio:seventeen", print, print)


def test_open_button_on_mock_pins(pins: MockFactory, table: Table) -> None:
    button = open_button("gpio:17", table.press, table.undo, poll=None)
    assert isinstance(button, Button) and button.pin == 17
    button.close()


def test_a_machine_without_gpio_gets_no_button_and_a_reason(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # given gpiozero left to find real pins on this machine
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    Device.pin_factory = None
    if os.path.exists("/dev/gpiochip0"):
        pytest.skip("this machine has GPIO")
    # when the button is opened, then None, and the log says why; nothing raised
    with caplog.at_level(logging.WARNING, logger="scorer.devices"):
        assert open_button("gpio:17", print, print) is None
        assert open_status_led("gpio:27") is None
    assert "no GPIO on this machine" in caplog.text


def test_a_pin_already_taken_gives_no_button(pins: MockFactory) -> None:
    with StatusLed("gpio:17"):
        assert open_button("gpio:17", print, print) is None


# -- the status LED -----------------------------------------------------------------------


def test_status_led_shows_ready_reading_and_attention(pins: MockFactory) -> None:
    pin = pins.pin(27)
    led = open_status_led("gpio:27")
    assert isinstance(led, StatusLed)
    led.ready()
    assert led.state == "ready" and pin.state
    led.reading()
    assert led.state == "reading"
    led.attention()
    assert led.state == "attention"
    led.off()
    assert led.state == "off" and not pin.state
    led.close()
    assert open_status_led("none") is None
