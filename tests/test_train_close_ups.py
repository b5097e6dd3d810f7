"""The face stage's close-up renders (``render3d --close-ups``): each square teaches its own
die, the one it was cut about, and nothing of its floor."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from scorer.dice import face_class
from vision_models.render3d import dataset
from vision_models.train import data


def close_up_cache(root: Path) -> None:
    """Two throws: the first a square about a ten with a king's corner at its edge, the
    second a square about an ace."""
    square = np.full((64, 64, 3), 90, np.uint8)
    ten = dataset.LabelledDie("card", 2, (20.0, 20.0, 24.0, 24.0))
    king_at_edge = dataset.LabelledDie("card", 5, (52.0, 0.0, 24.0, 24.0))
    ace = dataset.LabelledDie("card", 6, (21.0, 19.0, 22.0, 26.0))
    dataset.write_data_yaml(root)
    dataset.write_close_ups(root, "train", 0, [(square, [king_at_edge, ten])], {})
    dataset.write_close_ups(root, "train", 1, [(square, [ace])], {})


def test_given_close_ups_when_loaded_then_each_teaches_the_die_it_was_cut_about(
    tmp_path: Path,
) -> None:
    # given a close-up cache of two throws
    close_up_cache(tmp_path)
    assert data.close_up_throws(tmp_path) == 2
    # when the first throw is loaded
    [photo] = data.load_close_ups(1, tmp_path)
    # then its square teaches the ten at its centre, not the king cut off by its edge
    assert photo.source == data.CLOSE_UP
    assert photo.classes.tolist() == [face_class("card", 2)]
    assert photo.centres.tolist() == [[32.0, 32.0]] and photo.sides.tolist() == [24.0]
    # and both throws load when both are asked for
    assert len(data.load_close_ups(2, tmp_path)) == 2


def test_given_a_close_up_when_cut_into_patches_then_no_bit_of_floor_is_not_a_die(
    tmp_path: Path,
) -> None:
    close_up_cache(tmp_path)
    [photo] = data.load_close_ups(1, tmp_path)
    # when the face stage cuts its samples
    patches = data.patches_of(photo, np.random.default_rng(0))
    # then there is one, the die's (a square of a few sides shows too little floor)
    assert [p.label for p in patches] == [face_class("card", 2)]


def test_given_a_throw_stopped_halfway_when_loaded_then_it_is_left_out(tmp_path: Path) -> None:
    close_up_cache(tmp_path)
    dataset.throw_notes(tmp_path, "train", 1).unlink()
    assert len(data.load_close_ups(2, tmp_path)) == 1


def test_given_no_cache_when_loaded_then_nothing(tmp_path: Path) -> None:
    assert data.load_close_ups(5, tmp_path) == [] and data.close_up_throws(tmp_path) == 0
