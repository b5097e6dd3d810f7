"""A USB webcam, through OpenCV's VideoCapture."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import cv2
import numpy as np

from scorer.devices.faults import CameraDisconnected, CameraError, CameraTimedOut

log = logging.getLogger("scorer.devices")

#: Asked of the webcam; it gives the nearest size it has.
FRAME_SIZE = (1280, 720)
#: Where Linux puts webcams' device nodes (a seam for tests).
DEV_DIR = Path("/dev")
#: Frames read and thrown away before a capture: webcams buffer a few stale ones.
STALE_FRAMES = 2


class UsbCamera:
    """USB webcam number ``index`` (``/dev/video<index>`` on Linux).

    Opening reads one frame to prove the camera delivers; each capture first
    drops the frames the driver buffered while nobody was looking, so the
    photo shows the tray as it is now, not as it was at the last press.

    >>> camera = UsbCamera(0)                    # doctest: +SKIP
    >>> frame, = camera.capture()                # doctest: +SKIP
    >>> frame.shape                              # doctest: +SKIP
    (720, 1280, 3)
    """

    live = True

    def __init__(self, index: int = 0, size: tuple[int, int] = FRAME_SIZE) -> None:
        self.name = f"usb:{index}"
        self.index = index
        self._node = DEV_DIR / f"video{index}"
        if sys.platform.startswith("linux") and not self._node.exists():
            # Checked first: OpenCV would otherwise print warnings and probe backends.
            raise CameraDisconnected(f"no {self._node}")
        self._cap = cv2.VideoCapture(index)
        if not self._cap.isOpened():
            self._cap.release()
            raise CameraDisconnected(f"webcam {index} would not open")
        self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        ok, _ = self._cap.read()
        if not ok:
            self._cap.release()
            raise CameraDisconnected(f"webcam {index} opened but sent no frame")
        log.info(
            "usb camera %d open at %dx%d",
            index,
            int(self._cap.get(cv2.CAP_PROP_FRAME_WIDTH)),
            int(self._cap.get(cv2.CAP_PROP_FRAME_HEIGHT)),
        )

    def capture(self, frames: int = 1) -> list[np.ndarray]:
        """Drop the stale buffered frames, then read ``frames`` fresh ones (BGR)."""
        cap = self._cap
        if cap is None:
            raise CameraDisconnected("the webcam was closed")
        for _ in range(STALE_FRAMES):
            cap.grab()
        got = []
        for _ in range(frames):
            ok, frame = cap.read()
            if not ok or frame is None:
                raise self._read_failure()
            got.append(frame)
        return got

    def _read_failure(self) -> CameraError:
        """Tell an unplugged webcam from one that stopped answering."""
        if sys.platform.startswith("linux") and not self._node.exists():
            return CameraDisconnected(f"{self._node} is gone")
        return CameraTimedOut(f"webcam {self.index} sent no frame")

    def health(self) -> str | None:
        """None while the device node is there; the supervisor judges the frames."""
        if sys.platform.startswith("linux") and not self._node.exists():
            return CameraDisconnected.default_problem
        return None

    def close(self) -> None:
        """Release the webcam; safe to call twice."""
        cap, self._cap = getattr(self, "_cap", None), None
        if cap is not None:
            cap.release()
