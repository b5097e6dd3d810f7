"""The court network's training samples: which dice become court patches, and what a
sample looks like (torch is not needed for either)."""

from __future__ import annotations

import cv2
import numpy as np

from scorer.vision.crop import COURT_INPUT
from vision_models.train import data


def _photo() -> data.Photo:
    """A grey table with a red die of each given class, 40 px wide."""
    image = np.full((240, 480, 3), 90, np.uint8)
    classes = np.array([2, 8, 9, 10, 11])  # a pip three, J, Q, K, an ace
    centres = np.array([(40.0 + 90 * i, 120.0) for i in range(len(classes))], np.float32)
    for x, y in centres:
        cv2.rectangle(
            image, (int(x) - 20, int(y) - 20), (int(x) + 20, int(y) + 20), (30, 30, 220), -1
        )
    return data.Photo(image, centres, np.full(len(classes), 40.0, np.float32), classes, "x")


def test_given_a_throw_when_cut_for_the_court_network_then_only_its_courts_labelled_0_to_2():
    # given a throw of a pip three, a jack, a queen, a king and an ace, where the finder
    # missed the queen
    seen = np.array([(0.0, 0.0, 1.0), (0.1, -0.05, 0.8), (np.nan,) * 3, (0, 0, 1), (0, 0, 1)])
    # when its court patches are cut
    patches = data.court_patches(_photo(), seen)
    # then the jack, queen and king are there, as 0, 1 and 2, each with where the finder
    # saw it (none for the queen), at the court network's patch size
    assert [p.label for p in patches] == [0, 1, 2]
    assert [p.seen for p in patches] == [(0.1, -0.05, 0.8), None, (0.0, 0.0, 1.0)]
    assert all(p.image.shape == (data.COURT_PATCH, data.COURT_PATCH, 3) for p in patches)


def test_given_a_red_court_when_sampled_then_its_colour_tells_nothing():
    # given the red jack of a throw
    jack = data.court_patches(_photo())[0]
    # when it is sampled for training many times
    rng = np.random.default_rng(0)
    samples = [data.court_sample(jack, rng) for _ in range(60)]
    # then each is a court crop, and its middle is reddest in about a third of them, as
    # green or blue are: the inks come in every order (the colour jitter alone, which
    # turns hues too, left red leading in 34 of these 60)
    assert all(s.shape == (COURT_INPUT, COURT_INPUT, 3) for s in samples)
    m = COURT_INPUT // 2
    reddest = [int(np.argmax(s[m - 4 : m + 4, m - 4 : m + 4].mean((0, 1)))) for s in samples]
    assert all(reddest.count(channel) >= 12 for channel in range(3))
    assert reddest.count(2) <= 25
