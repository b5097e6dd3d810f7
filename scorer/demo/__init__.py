"""Demo throws: rendered photos of five dice, for the replay camera when no camera exists.

The frames are rendered on demand from a seed, so the repository carries no photos
and the demo shows the same throws every time it starts.
"""

from __future__ import annotations

import numpy as np

from scorer.render.scene import render_scene

DEMO_DICE = 5
#: Keeps the demo's random stream apart from other renders (12: its first throws vary well).
_DEMO_STREAM = 12


def demo_frames(
    n: int = 12, seed: int = 0, kind: str = "pips"
) -> list[tuple[np.ndarray, list[int]]]:
    """``n`` throws of five dice: (BGR photo 640x640, the values on top in label order).

    Throw ``i`` depends only on ``seed`` and ``i``, so a replay can start anywhere.
    """
    frames = []
    for i in range(n):
        rng = np.random.default_rng([_DEMO_STREAM, seed, i])
        scene = render_scene(rng, DEMO_DICE, kind=kind)
        frames.append((scene.image, [die.value for die in scene.dice]))
    return frames
