"""The "throw complete" push button: press to capture, hold to undo.

Wired between a GPIO pin and ground (the pin's pull-up holds it high), read
through gpiozero. A contact bounces, and gpiozero's mock pins (and some real
pin factories) do not debounce, so :class:`Button` debounces on its own: an
edge counts only after the line was quiet for ``bounce`` seconds, and the
pin's real level is re-read once it settles, so no edge is lost either.

A short press fires ``on_press`` when the button is let go; a press held
``hold_time`` seconds or more fires ``on_hold`` (undo) when let go. Firing on
release is deliberate: a button stuck down (a crumb under the cap, a shorted
wire) fires nothing at all. Held past ``stuck_time`` it is reported as
"button stuck" through ``health()`` and ``on_health``, and its eventual
release is ignored; the game goes on from the page.
"""

from __future__ import annotations

import logging
import threading
import time
import warnings
from collections.abc import Callable
from typing import Any

from scorer.devices.spec import parse_pin_spec

log = logging.getLogger("scorer.devices")

STUCK = "button stuck"
NO_GPIO = "no GPIO on this machine"

Callback = Callable[[], Any]


class Button:
    """A debounced push button with press, hold (undo) and stuck detection.

    >>> from gpiozero import Device
    >>> from gpiozero.pins.mock import MockFactory
    >>> Device.pin_factory = MockFactory()
    >>> presses = []
    >>> button = Button("gpio:17", on_press=lambda: presses.append("press"),
    ...                 on_hold=lambda: presses.append("undo"), poll=None)
    >>> pin = Device.pin_factory.pin(17)
    >>> pin.drive_low(); pin.drive_high(); pin.drive_low()   # one press, bouncing
    >>> button.check(now=time.monotonic() + 0.2)             # ...settles, then let go:
    >>> pin.drive_high(); button.check(now=time.monotonic() + 0.4)
    >>> presses
    ['press']
    >>> button.close(); Device.pin_factory.close(); Device.pin_factory = None
    """

    def __init__(
        self,
        pin_spec: str | int,
        on_press: Callback | None = None,
        on_hold: Callback | None = None,
        hold_time: float = 1.5,
        bounce: float = 0.05,
        *,
        stuck_time: float = 10.0,
        on_health: Callable[[str | None], Any] | None = None,
        poll: float | None = 0.05,
        clock: Callable[[], float] = time.monotonic,
        pin_factory: Any = None,
    ) -> None:
        from gpiozero import Button as GpioButton

        pin = pin_spec if isinstance(pin_spec, int) else parse_pin_spec(pin_spec)
        if pin is None:
            raise ValueError("Button needs a pin; use open_button() for 'none'")
        self.pin = pin
        self.on_press = on_press
        self.on_hold = on_hold
        self.on_health = on_health
        self.hold_time = hold_time
        self.bounce = bounce
        self.stuck_time = stuck_time
        self._clock = clock
        self._lock = threading.Lock()
        self._last_edge = float("-inf")
        self._down_since: float | None = None
        self._suspect = False  # down since before we looked: its release means nothing
        self._stuck = False
        self._device = GpioButton(
            pin, pull_up=True, bounce_time=bounce or None, pin_factory=pin_factory
        )
        if self._device.is_pressed:
            self._down_since, self._suspect = clock(), True
            log.warning("button gpio:%d is down at start; watching it", pin)
        self._device.when_pressed = self._pressed_edge
        self._device.when_released = self._released_edge
        self._closed = threading.Event()
        self._monitor: threading.Thread | None = None
        if poll:
            self._monitor = threading.Thread(
                target=self._watch, args=(poll,), name=f"button gpio:{pin}", daemon=True
            )
            self._monitor.start()

    @property
    def is_pressed(self) -> bool:
        """The debounced state: True from an accepted press until its release."""
        return self._down_since is not None

    def health(self) -> str | None:
        """None, or "button stuck" while it has been held past ``stuck_time``."""
        return STUCK if self._stuck else None

    def check(self, now: float | None = None) -> None:
        """Re-read the settled pin and look for a stuck button (the monitor does this).

        ``now`` is for tests that drive the clock by hand.
        """
        now = self._clock() if now is None else now
        with self._lock:
            fire = None
            if now - self._last_edge >= self.bounce:
                actual = bool(self._device.is_pressed)
                if actual != self.is_pressed:
                    settled_at = self._last_edge if self._last_edge > float("-inf") else now
                    fire = self._settle(actual, settled_at)
            changed = self._update_stuck(now)
        self._fire(fire)
        if changed:
            self._report()

    def close(self) -> None:
        """Stop watching and free the pin; safe to call twice."""
        self._closed.set()
        if self._monitor is not None and self._monitor is not threading.current_thread():
            self._monitor.join(timeout=1)
        self._device.close()

    def __enter__(self) -> Button:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- edges -----------------------------------------------------------------------

    def _pressed_edge(self) -> None:
        self._edge(True)

    def _released_edge(self) -> None:
        self._edge(False)

    def _edge(self, pressed: bool) -> None:
        now = self._clock()
        with self._lock:
            quiet = now - self._last_edge >= self.bounce
            self._last_edge = now
            fire = self._settle(pressed, now) if quiet else None
            changed = self._update_stuck(now)
        self._fire(fire)
        if changed:
            self._report()

    def _settle(self, pressed: bool, at: float) -> Callback | None:
        """Move the debounced state; return the callback a completed press earns."""
        if pressed and self._down_since is None:
            self._down_since, self._suspect = at, False
            return None
        if pressed or self._down_since is None:
            return None
        held = at - self._down_since
        suspect = self._suspect
        self._down_since, self._suspect = None, False
        if suspect or held >= self.stuck_time:
            log.info("button gpio:%d let go after %.1f s; ignored", self.pin, held)
            return None
        return self.on_hold if held >= self.hold_time else self.on_press

    def _update_stuck(self, now: float) -> bool:
        stuck = self._down_since is not None and now - self._down_since >= self.stuck_time
        changed, self._stuck = stuck != self._stuck, stuck
        return changed

    def _fire(self, callback: Callback | None) -> None:
        if callback is None:
            return
        try:
            callback()
        except Exception:
            log.exception("button gpio:%d: callback failed", self.pin)

    def _report(self) -> None:
        problem = self.health()
        if problem:
            log.warning("button gpio:%d: %s", self.pin, problem)
        else:
            log.info("button gpio:%d is free again", self.pin)
        if self.on_health is not None:
            try:
                self.on_health(problem)
            except Exception:
                log.exception("button gpio:%d: on_health callback failed", self.pin)

    def _watch(self, every: float) -> None:
        while not self._closed.wait(every):
            try:
                self.check()
            except Exception:
                log.exception("button gpio:%d: monitor", self.pin)


def open_button(
    spec: str,
    on_press: Callback | None = None,
    on_hold: Callback | None = None,
    **options: Any,
) -> Button | None:
    """The button a ``--button`` spec names, or None for ``none`` or a machine without GPIO.

    A typo raises :class:`~scorer.devices.spec.BadDeviceSpec`; a laptop (no
    pins: gpiozero's ``BadPinFactory``) or a pin already taken logs the
    reason and returns None, so the server still starts and the page works.
    """
    pin = parse_pin_spec(spec, "button")
    if pin is None:
        return None
    return _with_gpio(f"button gpio:{pin}", lambda: Button(pin, on_press, on_hold, **options))


def _with_gpio(what: str, make: Callable[[], Any]) -> Any:
    """Make a gpiozero device, or log why this machine cannot and return None."""
    from gpiozero.exc import BadPinFactory, GPIOZeroError

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            device = make()
        except BadPinFactory as err:
            tried = "; ".join(str(w.message) for w in caught)
            log.warning("%s: %s (%s%s)", what, NO_GPIO, err, f": {tried}" if tried else "")
            return None
        except (GPIOZeroError, OSError, RuntimeError) as err:
            log.warning("%s: cannot use it: %s", what, err)
            return None
    for warning in caught:
        log.info("%s: %s", what, warning.message)
    return device
