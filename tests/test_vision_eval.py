"""Matching reads to labels by centre, and the figures built on it."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from scorer.vision.evaluation import NONE, closer, evaluate, match, wider
from scorer.vision.labelled import LabelledDie, LabelledPhoto
from scorer.vision.reading import Die, Reading


def photo(*dice: LabelledDie, kind: str = "die", path: Path = Path("x.png")) -> LabelledPhoto:
    return LabelledPhoto(path, tuple(dice), kind)


def black_photo(folder: Path, *dice: LabelledDie) -> LabelledPhoto:
    """A labelled 300x300 black picture on disk, for evaluate() to open."""
    path = folder / "p.png"
    cv2.imwrite(str(path), np.zeros((300, 300, 3), np.uint8))
    return photo(*dice, path=path)


def test_given_a_tiny_pip_box_when_matched_then_the_die_centre_counts_not_overlap():
    # given a one whose label boxes only its pip (8 px) and a read box of the whole die
    label = LabelledDie("pips", 1, (96, 96, 8, 8))
    reading = Reading((Die(1, "pips", 0.9, (75, 78, 50, 50), None),), 1.0)
    pairs, missed, extra = match(photo(label, kind="pips"), reading)
    assert pairs == [(0, 0)] and missed == [] and extra == []


def test_given_a_read_beside_the_label_when_matched_then_missed_and_extra():
    label = LabelledDie("pips", 4, (100, 100, 40, 40))
    reading = Reading((Die(4, "pips", 0.9, (200, 100, 40, 40), None),), 1.0)
    pairs, missed, extra = match(photo(label), reading)
    assert pairs == [] and missed == [0] and extra == [0]


def test_given_two_reads_near_one_label_when_matched_then_the_nearer_wins():
    label = LabelledDie("pips", 2, (100, 100, 40, 40))
    reading = Reading(
        (
            Die(2, "pips", 0.9, (105, 100, 40, 40), None),
            Die(2, "pips", 0.9, (101, 99, 40, 40), None),
        ),
        1.0,
    )
    pairs, _, extra = match(photo(label), reading)
    assert pairs == [(0, 1)] and extra == [0]


def test_given_reads_when_evaluated_then_confusion_and_confidence_figures(tmp_path):
    labels = black_photo(
        tmp_path,
        LabelledDie("pips", 5, (10, 10, 40, 40)),
        LabelledDie("card", 3, (100, 10, 40, 40)),
        LabelledDie("pips", 6, (200, 10, 40, 40)),
    )
    said = Reading(
        (
            Die(5, "pips", 0.99, (10, 10, 40, 40), None),  # right, sure
            Die(3, "pips", 0.95, (100, 10, 40, 40), None),  # J read as a pip three, sure: wrong
            Die(1, "pips", 0.30, (150, 200, 40, 40), None),  # extra, unsure
        ),
        4.0,
    )
    report = evaluate(lambda image: said, [labels], threshold=0.6, failures=tmp_path / "f")
    m = report.confusion()
    assert report.correct == 1 and report.missed == 1 and report.extra == 1
    assert m[4, 4] == 1 and m[8, 2] == 1 and m[5, NONE] == 1 and m[NONE, 0] == 1
    assert report.confident() == (2, 1, 1, 3)
    assert report.per_image == 0.0
    assert (tmp_path / "f" / "p.jpg").is_file()
    assert any("1 in 2" in line for line in report.lines())


def test_given_sure_dice_wrong_or_extra_when_evaluated_then_the_extra_ones_counted_apart(tmp_path):
    # given a five read as a six, surely, and two dice no label has: one sure, one unsure
    labels = black_photo(tmp_path, LabelledDie("pips", 5, (10, 10, 40, 40)))
    said = Reading(
        (
            Die(6, "pips", 0.99, (10, 10, 40, 40), None),
            Die(2, "pips", 0.97, (150, 200, 40, 40), None),
            Die(1, "pips", 0.30, (300, 200, 40, 40), None),
        ),
        4.0,
    )
    # when evaluated, then two sure dice are wrong, one of them extra
    report = evaluate(lambda image: said, [labels], threshold=0.6)
    assert report.confident() == (2, 2, 1, 3)
    assert report.confident_extra() == 1
    assert report.to_dict()["confident_extra"] == 1
    assert any("1 of them extra" in line for line in report.lines())


def test_given_misread_unsure_dice_when_evaluated_then_second_guesses_counted(tmp_path):
    # given a pip four and a king, both read wrong and unsure, the king's second guess right
    labels = black_photo(
        tmp_path,
        LabelledDie("pips", 4, (10, 10, 40, 40)),
        LabelledDie("card", 5, (100, 10, 40, 40)),
        LabelledDie("pips", 2, (200, 10, 40, 40)),
    )
    said = Reading(
        (
            Die(5, "pips", 0.5, (10, 10, 40, 40), None, guess=6),  # second guess wrong too
            Die(3, "card", 0.5, (100, 10, 40, 40), "J", guess=5),  # J, or K? a K
            Die(2, "pips", 0.5, (200, 10, 40, 40), None, guess=3),  # right: not counted
        ),
        4.0,
    )
    # when evaluated
    report = evaluate(lambda image: said, [labels], threshold=0.8)
    # then two unsure dice are wrong, and the second guess settles one
    assert report.second_guesses() == (2, 1)
    assert "unsure & wrong     2, the second guess right on 1" in report.lines()


def test_given_a_photo_seen_closer_then_its_dice_grow_and_their_labels_follow():
    # given a 400x300 picture with a white square (a "die") labelled where it is drawn
    image = np.zeros((300, 400, 3), np.uint8)
    image[100:140, 150:190] = 255
    labelled = photo(LabelledDie("pips", 4, (150, 100, 40, 40)))
    # when seen twice as close
    view, moved = closer(image, labelled, 2.0)
    # then the picture keeps its size, the die is twice as big and its label moved with it
    assert view.shape == image.shape
    x, y, w, h = moved.dice[0].box
    assert (w, h) == (80, 80) and moved.dice[0].value == 4
    inside = view[round(y) + 4 : round(y + h) - 4, round(x) + 4 : round(x + w) - 4]
    assert inside.min() > 200
    assert view[: max(0, round(y) - 4)].max(initial=0) < 50


def test_given_dice_far_apart_when_seen_closer_then_the_photo_is_left_out(tmp_path):
    # given two dice at opposite corners of the photo
    labels = black_photo(
        tmp_path, LabelledDie("pips", 1, (5, 5, 30, 30)), LabelledDie("pips", 2, (260, 260, 30, 30))
    )
    image = cv2.imread(str(labels.path))
    # when seen twice as close, then no window holds both: the photo is not measured
    assert closer(image, labels, 2.0) is None
    report = evaluate(lambda frame: Reading((), 1.0), [labels], zoom=2.0)
    assert report.results == []
    # and a zoom under 1 is refused by name
    with pytest.raises(ValueError, match="at least 1"):
        closer(image, labels, 0.5)


def test_given_a_photo_in_a_wider_frame_then_its_dice_keep_their_pixels_and_labels_follow():
    # given a 400x300 grey picture with a white square labelled where it is drawn
    image = np.full((300, 400, 3), 90, np.uint8)
    image[100:140, 150:190] = 255
    labelled = photo(LabelledDie("card", 2, (150, 100, 40, 40)))
    # when put in a frame three times as wide
    view, moved = wider(image, labelled, 3.0)
    # then the frame is 1200x900 of the picture's edge colour with the picture in the middle
    assert view.shape == (900, 1200, 3)
    assert tuple(view[0, 0]) == (90, 90, 90)
    x, y, w, h = moved.dice[0].box
    assert (x, y, w, h) == (550, 400, 40, 40) and moved.dice[0].face == "card"
    assert view[400:440, 550:590].min() == 255
