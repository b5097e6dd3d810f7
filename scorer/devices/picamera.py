"""The Raspberry Pi camera, through picamera2.

picamera2 comes from apt (``python3-picamera2``) and needs libcamera, so it
cannot even be imported on a laptop: it is imported inside :class:`PiCamera`
only, and tests inject a fake ``picamera2`` module.
"""

from __future__ import annotations

import logging
import time

import numpy as np

from scorer.devices.faults import CameraDisconnected, CameraError

log = logging.getLogger("scorer.devices")

#: Still size asked of the sensor: enough pixels per die, small enough to read fast on a Pi.
STILL_SIZE = (1920, 1080)
#: libcamera's AfModeEnum.Continuous; an int so libcamera need not be imported here.
AF_MODE_CONTINUOUS = 2


class PiCamera:
    """A Raspberry Pi camera module taking stills of the tray.

    After ``settle_s`` of automatic exposure and white balance it locks both
    (``AeEnable``/``AwbEnable`` off at the values it settled on), so every
    throw is lit the same and the reader sees steady colours. A module with
    autofocus (Camera Module 3) focuses continuously.

    >>> camera = PiCamera()                      # doctest: +SKIP
    >>> frame, = camera.capture()                # doctest: +SKIP
    >>> frame.shape                              # doctest: +SKIP
    (1080, 1920, 3)
    """

    live = True

    def __init__(
        self,
        size: tuple[int, int] = STILL_SIZE,
        settle_s: float = 1.0,
        lock: bool = True,
        autofocus: bool = True,
    ) -> None:
        from picamera2 import Picamera2  # only here: it needs libcamera

        self.name = "pi"
        self.locked: dict[str, object] = {}
        try:
            self._cam = Picamera2()
        except (IndexError, RuntimeError, OSError) as err:
            # Picamera2() with no camera attached fails with "list index out of range".
            raise CameraDisconnected(f"no Pi camera found ({err})") from err
        try:
            # RGB888 is laid out B, G, R in memory: the order OpenCV wants.
            config = self._cam.create_still_configuration(
                main={"size": tuple(size), "format": "RGB888"}
            )
            self._cam.configure(config)
            if autofocus and "AfMode" in self._cam.camera_controls:
                self._cam.set_controls({"AfMode": AF_MODE_CONTINUOUS})
            self._cam.start()
            time.sleep(settle_s)
            if lock:
                self.locked = self._lock_exposure()
        except Exception as err:
            self.close()
            raise CameraError(f"the Pi camera would not start ({err})") from err
        log.info("pi camera started %s, locked %s", size, self.locked)

    def _lock_exposure(self) -> dict[str, object]:
        """Freeze exposure and white balance at what automatic mode settled on."""
        metadata = self._cam.capture_metadata()
        controls: dict[str, object] = {"AeEnable": False, "AwbEnable": False}
        for key in ("ExposureTime", "AnalogueGain", "ColourGains"):
            if key in metadata:
                controls[key] = metadata[key]
        self._cam.set_controls(controls)
        return controls

    def capture(self, frames: int = 1) -> list[np.ndarray]:
        """Take ``frames`` stills, each a fresh exposure, as BGR arrays."""
        cam = self._cam
        if cam is None:
            raise CameraDisconnected("the Pi camera was closed")
        try:
            return [np.ascontiguousarray(cam.capture_array("main")) for _ in range(frames)]
        except Exception as err:
            raise CameraError(f"Pi camera capture failed ({err})") from err

    def health(self) -> str | None:
        """Always None: faults show up as errors and the supervisor judges frames."""
        return None

    def close(self) -> None:
        """Stop and release the camera so another process (or a reopen) can have it."""
        cam = getattr(self, "_cam", None)
        if cam is None:
            return
        self._cam = None
        for step in (cam.stop, cam.close):
            try:
                step()
            except Exception as err:
                log.debug("pi camera close: %s", err)
