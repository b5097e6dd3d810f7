"""The camera over the dice tray: its interface, and how one is chosen.

Every camera, real or not, is a :class:`Camera`: ``capture()`` returns BGR
frames or raises a :class:`~scorer.devices.faults.CameraError` whose
``problem`` is a plain sentence for the page ("camera timed out");
``health()`` says what is wrong right now.
The hardware behind it is chosen at run time by :func:`open_camera`, as
gpiozero chooses its pin factory, and wrapped in a
:class:`~scorer.devices.supervisor.ResilientCamera` that notices black, frozen,
hung or vanished cameras and picks them up again when they return.

>>> from scorer.devices import open_camera
>>> camera = open_camera("demo")
>>> camera.name, camera.live, camera.health()
('demo', False, None)
>>> camera.close()
>>> open_camera("none") is None
True
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol, runtime_checkable

import numpy as np

from scorer.devices.faults import CameraError
from scorer.devices.replay import DemoCamera, ReplayCamera
from scorer.devices.spec import BadDeviceSpec, parse_camera_spec
from scorer.devices.supervisor import ResilientCamera, within_timeout

log = logging.getLogger("scorer.devices")


@runtime_checkable
class Camera(Protocol):
    """What the table needs from a camera; adapters and fakes all look like this."""

    name: str
    #: True for hardware that sees the tray now (pi, usb): repeated frames mean a stall.
    live: bool

    def capture(self, frames: int = 1) -> list[np.ndarray]:
        """Photograph the tray ``frames`` times: BGR uint8 arrays; raises CameraError."""
        ...

    def health(self) -> str | None:
        """None when the camera is fine, else the problem in plain words."""
        ...

    def close(self) -> None:
        """Let go of the hardware; safe to call twice."""
        ...


def open_camera(spec: str, **options: object) -> Camera | None:
    """The camera a ``--camera`` spec names, ready to capture, or None for ``none``.

    ``auto`` tries the Pi camera, then USB webcam 0, then the demo replay of
    rendered throws, and logs which it chose and why (also kept in ``.why``).
    A pi or usb camera that is missing at start does not stop the server: the
    returned camera reports "camera disconnected" and is picked up when it
    appears. A replay folder with no photos, a spec that names nothing, or
    ``pi`` on a machine without picamera2 raise :class:`BadDeviceSpec`.
    ``options`` go to :class:`~scorer.devices.supervisor.ResilientCamera`
    (``capture_timeout``, ``open_timeout``, ``retry_every``, ``watch_every``,
    ``on_health``).
    """
    parsed = parse_camera_spec(spec)
    if parsed.kind == "none":
        log.info("camera: none; dice are typed in")
        return None
    if parsed.kind == "replay":
        assert parsed.folder is not None
        replay = ReplayCamera(parsed.folder)
        return ResilientCamera(lambda: replay, name=replay.name, first=replay, **options)
    if parsed.kind == "demo":
        return _demo(options, why="demo asked for")
    if parsed.kind == "pi":
        _require_picamera2()
        return ResilientCamera(_pi_opener(), name="pi", live=True, **options)
    if parsed.kind == "usb":
        return ResilientCamera(
            _usb_opener(parsed.index), name=f"usb:{parsed.index}", live=True, **options
        )
    assert parsed.kind == "auto"
    return _auto(options)


def _demo(options: dict[str, object], why: str) -> Camera:
    demo = DemoCamera()
    camera = ResilientCamera(lambda: demo, name=demo.name, first=demo, **options)
    camera.why = why
    return camera


def _auto(options: dict[str, object]) -> Camera:
    timeout = float(options.get("open_timeout", 10.0))  # type: ignore[arg-type]
    reasons = []
    for name, opener in (("pi", _pi_opener()), ("usb:0", _usb_opener(0))):
        try:
            first = within_timeout(timeout, opener, on_late=lambda camera: camera.close())
        except ImportError as err:
            reasons.append(f"no {name} camera (picamera2 is not installed: {err})")
            continue
        except CameraError as err:
            reasons.append(f"no {name} camera ({err})")
            continue
        why = "; ".join([*reasons, f"chose {name}"])
        log.info("camera auto: %s", why)
        camera = ResilientCamera(opener, name=name, live=True, first=first, **options)
        camera.why = why
        return camera
    why = "; ".join([*reasons, "chose the demo replay of rendered throws"])
    log.warning("camera auto: %s", why)
    return _demo(options, why=why)


def _require_picamera2() -> None:
    try:
        import picamera2  # noqa: F401
    except ImportError as err:
        raise BadDeviceSpec(
            "the Pi camera needs picamera2 (apt install python3-picamera2, and a venv "
            f"made with --system-site-packages): {err}"
        ) from err


def _pi_opener() -> Callable[[], Camera]:
    def open_pi() -> Camera:
        from scorer.devices.picamera import PiCamera

        return PiCamera()

    return open_pi


def _usb_opener(index: int) -> Callable[[], Camera]:
    def open_usb() -> Camera:
        from scorer.devices.webcam import UsbCamera

        return UsbCamera(index)

    return open_usb
