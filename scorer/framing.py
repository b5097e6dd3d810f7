"""Whether the camera gives each die enough pixels to read.

Whoever sets the table up places the camera once; /camera's test read says how big the
dice came out and warns when they are too small. The reader is robust down to about 20 px
a die and then falls off (``benchmarks/die_size.py``: tray-multicolor's test photos shrunk
as a farther camera would take them read 97.7 % at 40 px a die, 96.8 % at 22, 94.8 % at
16, 89.3 % at 12), so that is where the warning starts.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from statistics import median
from typing import Any

SMALL_DIE_PX = 20.0
"""Below this median side a die (px) the test read warns: the reader starts to miss."""


def die_side(boxes: Iterable[Sequence[float]]) -> float | None:
    """The median die's side in pixels (the square root of its box's area), or None
    when no die was seen: one die half hidden or lying at an angle cannot sway it."""
    sides = [math.sqrt(max(0.0, float(w)) * max(0.0, float(h))) for _, _, w, h in boxes]
    return float(median(sides)) if sides else None


def framing(dice: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """What a test read says of the camera's framing: ``die_px``, the median die's side
    (rounded, None without dice), and ``small``, whether the dice are too small to read
    well."""
    side = die_side(d["box"] for d in dice)
    return {
        "die_px": None if side is None else round(side, 1),
        "small": side is not None and side < SMALL_DIE_PX,
    }
