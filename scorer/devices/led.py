"""The status LED beside the button: ready, reading, or needs attention.

Steady on: ready for a throw. Fast blink: reading the dice (do not touch the
tray). Slow blink: something needs a look (a die to confirm, a camera fault);
the page says what.
"""

from __future__ import annotations

import logging
from typing import Any

from scorer.devices.button import _with_gpio
from scorer.devices.spec import parse_pin_spec

log = logging.getLogger("scorer.devices")

STATES = ("off", "ready", "reading", "attention")


class StatusLed:
    """One LED (through a resistor to ground) showing what the table is doing.

    >>> from gpiozero import Device
    >>> from gpiozero.pins.mock import MockFactory
    >>> Device.pin_factory = MockFactory()
    >>> led = StatusLed("gpio:27")
    >>> led.ready(); led.state, Device.pin_factory.pin(27).state
    ('ready', True)
    >>> led.close(); Device.pin_factory.close(); Device.pin_factory = None
    """

    def __init__(self, pin_spec: str | int, *, pin_factory: Any = None) -> None:
        from gpiozero import LED

        pin = pin_spec if isinstance(pin_spec, int) else parse_pin_spec(pin_spec, "led")
        if pin is None:
            raise ValueError("StatusLed needs a pin; use open_status_led() for 'none'")
        self.pin = pin
        self.state = "off"
        self._led = LED(pin, pin_factory=pin_factory)

    def ready(self) -> None:
        """Steady on: throw, then press."""
        self._show("ready")

    def reading(self) -> None:
        """Fast blink: the camera is taking and reading the throw."""
        self._show("reading")

    def attention(self) -> None:
        """Slow blink: look at the page (a doubtful die, a device fault)."""
        self._show("attention")

    def off(self) -> None:
        """Dark: the server is stopping."""
        self._show("off")

    def _show(self, state: str) -> None:
        if state == self.state:
            return  # re-blinking would restart the pattern and flicker
        self.state = state
        if state == "ready":
            self._led.on()
        elif state == "reading":
            self._led.blink(on_time=0.1, off_time=0.1)
        elif state == "attention":
            self._led.blink(on_time=0.8, off_time=0.8)
        else:
            self._led.off()

    def close(self) -> None:
        """Turn it off and free the pin; safe to call twice."""
        self._led.close()

    def __enter__(self) -> StatusLed:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_status_led(spec: str, **options: Any) -> StatusLed | None:
    """The LED a ``--led`` spec names, or None for ``none`` or a machine without GPIO."""
    pin = parse_pin_spec(spec, "led")
    if pin is None:
        return None
    return _with_gpio(f"led gpio:{pin}", lambda: StatusLed(pin, **options))
