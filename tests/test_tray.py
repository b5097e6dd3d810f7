"""The tray's part of the picture: marked, kept, cut out and read back in place."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from scorer.errors import ScorerError
from scorer.tray import TrayRegion
from scorer.vision.reading import Die, Reading


def test_given_a_marked_tray_when_a_frame_is_cut_then_the_reading_comes_back_in_its_pixels(
    tmp_path,
):
    # given the right half of a 200x100 picture marked as the tray
    tray = TrayRegion(tmp_path / "tray.json")
    tray.mark([0.5, 0.0, 0.5, 1.0])
    frame = np.zeros((100, 200, 3), np.uint8)
    # when the frame is cut to it
    part = tray.cut(frame)
    # then the reader sees 100x100 pixels, and a die at (10, 20) there lies at (110, 20)
    assert part.shape[:2] == (100, 100)
    reading = Reading((Die(3, "pip", 0.9, (10, 20, 15, 15)),), 1.0)
    assert tray.placed(reading, frame).dice[0].box == (110, 20, 15, 15)
    # and a table started again later finds the same tray in the file
    assert TrayRegion(tmp_path / "tray.json").fractions == [0.5, 0.0, 0.5, 1.0]


def test_given_no_tray_marked_when_read_then_the_whole_picture_as_it_is():
    tray = TrayRegion()
    frame = np.zeros((100, 200, 3), np.uint8)
    reading = Reading((Die(3, "pip", 0.9, (10, 20, 15, 15)),), 1.0)
    assert tray.cut(frame) is frame
    assert tray.placed(reading, frame) is reading
    assert tray.pixels(frame) == (0, 0, 200, 100)


@pytest.mark.parametrize(
    ("region", "problem"),
    [
        ([0.9, 0.0, 0.5, 1.0], "inside the picture"),
        ([0.1, 0.1, 0.01, 0.5], "not be tiny"),
        ([0.1, 0.1, 0.5], "each a fraction"),
        (["left", 0.1, 0.5, 0.5], "each a fraction"),
        ([0.1, 0.1, 1.5, 0.5], "each a fraction"),
    ],
)
def test_given_a_bad_region_when_marked_then_refused_by_what_is_wrong_and_the_old_kept(
    tmp_path, region, problem
):
    tray = TrayRegion(tmp_path / "tray.json")
    tray.mark([0.1, 0.1, 0.5, 0.5])
    with pytest.raises(ScorerError, match=problem):
        tray.mark(region)
    assert tray.fractions == [0.1, 0.1, 0.5, 0.5]
    assert TrayRegion(tmp_path / "tray.json").fractions == [0.1, 0.1, 0.5, 0.5]


def test_given_a_damaged_tray_file_when_started_then_the_whole_picture_and_a_log_line(
    tmp_path, caplog
):
    (tmp_path / "tray.json").write_text('{"region": [0.9, 0.9')
    with caplog.at_level(logging.WARNING, logger="scorer.tray"):
        tray = TrayRegion(tmp_path / "tray.json")
    assert tray.fractions is None
    assert "ignoring the tray region" in caplog.text
