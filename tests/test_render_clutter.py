"""Coins and poker chips painted beside dice (``scorer.render.clutter``)."""

from __future__ import annotations

import numpy as np

from scorer import render
from scorer.render.clutter import add_clutter


def test_given_a_rendered_throw_when_cluttered_then_coins_lie_clear_of_every_die():
    # given a rendered throw of four dice and their labels
    image, labels = render.render_throw(np.random.default_rng(5), 4, kind="mixed", size=(640, 640))
    boxes = [box for _, _, box in labels]
    centres = np.array([(x + w / 2, y + h / 2) for x, y, w, h in boxes], np.float32)
    sides = np.array([max(w, h) for _, _, w, h in boxes], np.float32)
    # when coins or chips are painted on it
    cluttered = add_clutter(image, centres, sides, np.random.default_rng(2))
    # then something was painted, the throw itself is untouched, and no die's face was
    # painted over (a coin's soft shadow may reach a die's corner, not its middle)
    assert cluttered.shape == image.shape and cluttered is not image
    changed = np.any(cluttered != image, axis=2)
    assert changed.sum() > 200
    for x, y, w, h in boxes:
        middle = changed[int(y + h / 4) : int(y + 3 * h / 4), int(x + w / 4) : int(x + 3 * w / 4)]
        assert not middle.any()
