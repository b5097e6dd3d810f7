"""Where the tray lies in the camera's picture: the reader reads only there.

The camera page marks it once, as fractions of the picture [x, y, w, h] (so a change of
resolution keeps it), and a file keeps it across restarts. A reading of the cut-out is
moved back into the whole picture's pixels, where the photos and the page's boxes are.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from scorer.errors import ScorerError

log = logging.getLogger(__name__)


class TrayRegion:
    """The tray's part of the picture (``fractions``; None: the whole picture), kept in
    ``file`` when one is given. A file that cannot be read is a log line, never a stop:
    the table then reads the whole picture."""

    def __init__(self, file: Path | None = None) -> None:
        self.file = file
        self.fractions: list[float] | None = None
        if file is not None and file.exists():
            try:
                self.fractions = checked(json.loads(file.read_text())["region"])
            except (ValueError, KeyError, TypeError, ScorerError) as err:
                log.warning("ignoring the tray region in %s: %s", file, err)

    def mark(self, region: Sequence[float] | None) -> None:
        """Mark the tray as fractions [x, y, w, h] (None: all of it), kept in the file."""
        self.fractions = checked(region)
        if self.file is not None:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            self.file.write_text(json.dumps({"region": self.fractions}) + "\n")

    def pixels(self, frame: Any) -> tuple[int, int, int, int]:
        """The tray in ``frame``'s pixels: x, y, width, height."""
        height, width = frame.shape[:2]
        if not self.fractions:
            return 0, 0, width, height
        x, y, w, h = self.fractions
        return int(x * width), int(y * height), max(1, int(w * width)), max(1, int(h * height))

    def cut(self, frame: Any) -> Any:
        """The tray's part of ``frame`` (a view, not a copy)."""
        if not self.fractions:
            return frame
        x, y, w, h = self.pixels(frame)
        return frame[y : y + h, x : x + w]

    def placed(self, reading: Any, frame: Any) -> Any:
        """A reading of ``cut(frame)`` with its dice's boxes in ``frame``'s pixels."""
        if not self.fractions:
            return reading
        x0, y0, _, _ = self.pixels(frame)
        try:
            dice = tuple(
                dataclasses.replace(d, box=(d.box[0] + x0, d.box[1] + y0, d.box[2], d.box[3]))
                for d in reading.dice
            )
            return dataclasses.replace(reading, dice=dice)
        except (TypeError, AttributeError, IndexError):
            return reading


def checked(region: Sequence[float] | None) -> list[float] | None:
    """``region`` as four fractions that lie inside the picture, or a message naming
    what is wrong with it."""
    if region is None:
        return None
    try:
        values = [float(v) for v in region]
    except (TypeError, ValueError) as err:
        raise ScorerError("the tray region is [x, y, w, h], each a fraction 0..1") from err
    if len(values) != 4 or not all(0.0 <= v <= 1.0 for v in values):
        raise ScorerError("the tray region is [x, y, w, h], each a fraction 0..1")
    x, y, w, h = values
    if w < 0.05 or h < 0.05 or x + w > 1.0001 or y + h > 1.0001:
        raise ScorerError("the tray region must lie inside the picture and not be tiny")
    return values
