"""A camera for tests whose faults a test switches on and off.

Like gpiozero's ``MockFactory``: the real thing's behaviour, no hardware.
:class:`FakeCamera` plays the hardware; its :meth:`FakeCamera.open` is the
opener a :class:`~scorer.devices.supervisor.ResilientCamera` calls, and it
fails while the fake is "disconnected", just as a missing webcam does.
"""

from __future__ import annotations

import threading

import numpy as np

from scorer.devices.faults import CameraDisconnected

#: The faults a FakeCamera can show; None is a working camera.
FAULTS = (None, "timeout", "black", "frozen", "disconnected")


class FakeCamera:
    """A live camera that sends a grey tray with fresh noise, until told to fail.

    Set ``fault`` to ``"timeout"`` (capture blocks until the fault is cleared
    or the camera closed), ``"black"``, ``"frozen"`` (the last frame again) or
    ``"disconnected"`` (capture and open raise); set it to None to mend it.
    ``frame`` is the scene (BGR); ``opened`` counts opens.

    >>> camera = FakeCamera()
    >>> a, b = camera.capture(frames=2)
    >>> bool((a != b).any())
    True
    >>> camera.fault = "frozen"
    >>> c, d = camera.capture(frames=2)
    >>> bool((c == d).all())
    True
    """

    live = True

    def __init__(self, frame: np.ndarray | None = None, name: str = "fake") -> None:
        self.name = name
        self.frame = frame if frame is not None else np.full((120, 160, 3), (60, 120, 40), np.uint8)
        self.opened = 0
        self.captures = 0
        self.closed = False
        self._fault: str | None = None
        self._changed = threading.Condition()
        self._last: np.ndarray | None = None
        self._count = 0

    @property
    def fault(self) -> str | None:
        """The fault the camera shows now (see :data:`FAULTS`)."""
        return self._fault

    @fault.setter
    def fault(self, value: str | None) -> None:
        if value not in FAULTS:
            raise ValueError(f"fault must be one of {FAULTS}, not {value!r}")
        with self._changed:
            self._fault = value
            self._changed.notify_all()

    def open(self) -> FakeCamera:
        """Plug the camera in again (the opener); raises while it is disconnected."""
        if self._fault == "disconnected":
            raise CameraDisconnected("fake camera unplugged")
        self.opened += 1
        self.closed = False
        return self

    def capture(self, frames: int = 1) -> list[np.ndarray]:
        """Frames as the current fault makes them."""
        self.captures += 1
        with self._changed:
            self._changed.wait_for(lambda: self._fault != "timeout" or self.closed)
        if self._fault == "disconnected" or self.closed:
            raise CameraDisconnected("fake camera unplugged")
        got = []
        for _ in range(frames):
            if self._fault == "black":
                frame = np.zeros_like(self.frame)
            elif self._fault == "frozen" and self._last is not None:
                frame = self._last.copy()
            else:
                frame = self.frame.copy()
                self._count += 1
                # "sensor noise": a counter written into a corner, so no two frames match
                frame[0, 0] = (self._count % 256, (self._count // 256) % 256, 7)
            self._last = frame
            got.append(frame)
        return got

    def health(self) -> str | None:
        """None: the supervisor is what judges a camera."""
        return None

    def close(self) -> None:
        """Mark closed; a blocked capture is let go."""
        with self._changed:
            self.closed = True
            self._changed.notify_all()
