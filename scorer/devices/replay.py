"""Cameras without a camera: a folder of photos, and the demo's rendered throws.

They let the whole loop (press, capture, read, score) run on any laptop and
in tests. Each capture is one throw: it serves the next photo, ``frames``
times, and after the last photo starts again at the first.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from scorer.devices.faults import CameraError
from scorer.devices.spec import BadDeviceSpec
from scorer.dice import PIP_LAYOUT

log = logging.getLogger("scorer.devices")

PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")
#: How many rendered throws the demo camera cycles through.
DEMO_THROWS = 12


class NoPhotos(BadDeviceSpec):
    """A replay folder that is missing, unreadable, or holds no photos."""


class ReplayCamera:
    """Serves the photos of ``folder`` in name order, one per capture, cycling.

    >>> import tempfile, cv2, numpy
    >>> folder = tempfile.mkdtemp()
    >>> cv2.imwrite(f"{folder}/throw-1.png", numpy.full((60, 80, 3), 200, numpy.uint8))
    True
    >>> camera = ReplayCamera(folder)
    >>> [f.shape for f in camera.capture(frames=2)], camera.last_photo.name
    ([(60, 80, 3), (60, 80, 3)], 'throw-1.png')
    """

    live = False

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.name = f"replay:{self.folder}"
        try:
            entries = sorted(self.folder.iterdir())
        except FileNotFoundError as err:
            raise NoPhotos(f"replay folder {self.folder} does not exist") from err
        except NotADirectoryError as err:
            raise NoPhotos(f"replay folder {self.folder} is not a folder") from err
        except OSError as err:
            raise NoPhotos(f"replay folder {self.folder} cannot be read: {err}") from err
        self.photos = [p for p in entries if p.suffix.lower() in PHOTO_SUFFIXES and p.is_file()]
        if not self.photos:
            raise NoPhotos(
                f"replay folder {self.folder} holds no photos ({', '.join(PHOTO_SUFFIXES)})"
            )
        self._next = 0
        self.last_photo: Path | None = None

    def capture(self, frames: int = 1) -> list[np.ndarray]:
        """The next photo, ``frames`` copies of it; an unreadable file is skipped next time."""
        photo = self.photos[self._next % len(self.photos)]
        self._next += 1
        self.last_photo = photo
        image = cv2.imread(str(photo), cv2.IMREAD_COLOR)
        if image is None:
            raise CameraError(f"cannot read photo {photo}", problem="replay photo unreadable")
        return [image.copy() for _ in range(frames)]

    def health(self) -> str | None:
        """None: a folder does not fail between captures."""
        return None

    def close(self) -> None:
        """Nothing to release."""


class DemoCamera:
    """The demo's tray: each capture renders a fresh throw; ``last_values`` are the true dice.

    The throws come from :class:`scorer.demo.DemoTable`: before a capture the table may
    tell the camera which dice are held and which kind the game plays with
    (:meth:`prepare_throw`); the held dice then lie where they lay and the others land
    anew. While that module is missing, simple dice drawn here stand in, in turn.

    >>> camera = DemoCamera(seed=3)
    >>> frame, = camera.capture()
    >>> camera.prepare_throw(held=camera.last_values[:2], kind="pips")
    >>> frame, = camera.capture()
    >>> frame.ndim, len(camera.last_values), len(camera.last_boxes)
    (3, 5, 5)
    """

    live = False

    def __init__(self, n: int | None = None, seed: int = 0, kind: str = "pips") -> None:
        self.name = "demo"
        self.n = DEMO_THROWS if n is None else n
        self.seed = seed
        self.kind = kind
        self._throws: list[tuple[np.ndarray, tuple[int, ...]]] | None = None
        self._table: object | None = None
        self._held: list[int] = []
        self._next = 0
        self.last_values: tuple[int, ...] = ()
        self.last_boxes: list[tuple[int, int, int, int]] = []

    @property
    def throws(self) -> list[tuple[np.ndarray, tuple[int, ...]]]:
        """The drawn (frame, values) pairs served in turn while scorer.demo is missing."""
        if self._throws is None:
            self._throws = drawn_throws(self.n, self.seed)
        return self._throws

    def prepare_throw(self, held: Sequence[int], kind: str) -> None:
        """What the next capture shows: ``held`` values stay on the tray, the rest are
        thrown; ``kind`` is the game's dice (``pips``, ``cards`` or ``auto``)."""
        self._held = [int(v) for v in held]
        self.kind = kind

    def warm_up(self) -> object | None:
        """The demo tray (built once: its camera, felt, lamps and dice), or None without
        scorer.demo."""
        if self._table is None:
            try:
                from scorer.demo import DemoTable
            except ModuleNotFoundError as err:
                if err.name not in ("scorer.demo", "scorer"):
                    raise
                log.info("scorer.demo is not there; drawing simple dice instead")
                self._table = False  # asked once, not on every press
                return None
            self._table = DemoTable(self.seed)
        return self._table or None

    def capture(self, frames: int = 1) -> list[np.ndarray]:
        """A fresh throw (or the next drawn one), ``frames`` copies of it."""
        table = self.warm_up()
        if table is None:
            frame, values = self.throws[self._next % len(self.throws)]
            self._next += 1
            self.last_values, self.last_boxes = values, []
            return [frame.copy() for _ in range(frames)]
        throw = table.throw(self._held, self.kind)  # type: ignore[attr-defined]
        self._held = []
        self.last_values, self.last_boxes = tuple(throw.values), list(throw.boxes)
        return [throw.image.copy() for _ in range(frames)]

    def health(self) -> str | None:
        """None: rendered throws do not fail."""
        return None

    def close(self) -> None:
        """Nothing to release."""


def drawn_throws(n: int = 12, seed: int = 0) -> list[tuple[np.ndarray, tuple[int, ...]]]:
    """``n`` throws of five white pip dice on green felt, drawn with OpenCV (a stand-in)."""
    rng = random.Random(seed)
    throws = []
    for _ in range(n):
        values = tuple(rng.randint(1, 6) for _ in range(5))
        frame = np.zeros((480, 640, 3), np.uint8)
        frame[:] = (40, 110, 30)
        for i, value in enumerate(values):
            cx, cy, half = 70 + i * 125, 240 + rng.randint(-120, 120), 40
            corners = (cx - half, cy - half), (cx + half, cy + half)
            cv2.rectangle(frame, *corners, (235, 235, 235), -1)
            for dx, dy in PIP_LAYOUT[value]:
                cv2.circle(frame, (cx + dx * 22, cy + dy * 22), 8, (20, 20, 20), -1, cv2.LINE_AA)
        throws.append((frame, values))
    return throws
