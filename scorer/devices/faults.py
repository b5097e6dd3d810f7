"""How a camera fails: the errors it raises and the checks that spot bad frames.

Every camera fault is a :class:`CameraError` whose ``problem`` is a plain
sentence for the page. This module imports nothing else of the devices, so
the camera chooser, its adapters and the supervisor can all use it without
importing each other.

>>> import numpy as np
>>> frames_problem([np.zeros((4, 4, 3), np.uint8)], None, live=True)
BlackFrames('camera frames are black')
>>> str(CameraTimedOut("no answer in 5 s"))
'camera timed out: no answer in 5 s'
"""

from __future__ import annotations

import numpy as np

#: Mean brightness (0..255) under which a frame counts as black: too dark to read any die.
BLACK_LEVEL = 10.0


class CameraError(RuntimeError):
    """A camera that cannot deliver a usable photo.

    ``problem`` is the short sentence the page shows; ``str(err)`` may add a
    detail for the log.
    """

    default_problem = "camera failed"

    def __init__(self, detail: str | None = None, *, problem: str | None = None) -> None:
        self.problem = problem or self.default_problem
        self.detail = detail
        super().__init__(f"{self.problem}: {detail}" if detail else self.problem)


class CameraTimedOut(CameraError):
    """The camera did not answer in time (a hung driver or a USB stall)."""

    default_problem = "camera timed out"


class CameraDisconnected(CameraError):
    """The camera is not there (unplugged, never plugged, or taken by another program)."""

    default_problem = "camera disconnected"


class BlackFrames(CameraError):
    """Frames too dark to read: lens cap, lights off, or a sensor sending zeros."""

    default_problem = "camera frames are black"


class FrozenFrames(CameraError):
    """A live camera sending the very same frame again: its driver has stalled."""

    default_problem = "camera frames are frozen"


def is_black(frame: np.ndarray) -> bool:
    """True when the frame is too dark for any die to be seen (mean under BLACK_LEVEL).

    A subsample is enough and keeps this cheap on a 2-megapixel frame.
    """
    return frame.size == 0 or float(frame[::4, ::4].mean()) < BLACK_LEVEL


def is_repeat(frame: np.ndarray, previous: np.ndarray | None) -> bool:
    """True when a live camera's frame equals the one before it, byte for byte.

    Sensor noise makes two real exposures differ in some pixel even of a still
    tray, so an exact repeat means the driver handed back a stale buffer.
    """
    return (
        previous is not None
        and frame.shape == previous.shape
        and frame.dtype == previous.dtype
        and np.array_equal(frame, previous)
    )


def frames_problem(
    frames: list[np.ndarray], previous: np.ndarray | None, live: bool
) -> CameraError | None:
    """Judge a capture: the error to raise for black or frozen frames, else None."""
    if not frames:
        return CameraTimedOut("no frame came back")
    for frame in frames:
        if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3:
            return CameraError(f"not a BGR frame: {getattr(frame, 'shape', type(frame))}")
    if all(is_black(frame) for frame in frames):
        return BlackFrames()
    if live:
        before = previous
        for frame in frames:
            if is_repeat(frame, before):
                return FrozenFrames()
            before = frame
    return None
