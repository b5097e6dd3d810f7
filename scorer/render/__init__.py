"""Rendered photographs of thrown dice: training data, ``scorer render`` and the demo camera.

The reader (:mod:`scorer.vision`) never imports this package: it takes a frame and gives a
reading, whether the frame came from a camera or from here.

>>> import numpy as np
>>> from scorer import render
>>> image, labels = render.render_throw(np.random.default_rng(0), 2, kind="pips")
>>> image.shape, len(labels)
((640, 640, 3), 2)
"""

from scorer.render.clutter import add_clutter
from scorer.render.scene import (
    FAMILIES,
    HELD_OUT_FAMILIES,
    KINDS,
    RANDOM,
    RANDOM_PLAYING_CARDS,
    RANDOM_TYPESET,
    BadRender,
    Scene,
    render_scene,
    render_throw,
    sample_sheet,
    write_dataset,
)

__all__ = [
    "FAMILIES",
    "HELD_OUT_FAMILIES",
    "KINDS",
    "RANDOM",
    "RANDOM_PLAYING_CARDS",
    "RANDOM_TYPESET",
    "BadRender",
    "Scene",
    "add_clutter",
    "render_scene",
    "render_throw",
    "sample_sheet",
    "write_dataset",
]
