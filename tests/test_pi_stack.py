"""The comparison behind ``make pi-stack``: two stacks' readings, alike or not."""

from __future__ import annotations

import pytest

from tests.pi_stack import TOLERANCE, differences


def _reading(value: int = 4, confidence: float = 0.97, box=(10, 10, 30, 30)) -> list:
    return [value, "pips", list(box), None, confidence < 0.8, confidence]


def test_given_the_same_dice_a_little_surer_on_one_stack_when_compared_then_alike():
    mine = {"a.jpg": [_reading(), _reading(2)]}
    theirs = {"a.jpg": [_reading(confidence=0.97 + TOLERANCE / 2), _reading(2)]}
    assert differences(mine, theirs) == []


@pytest.mark.parametrize(
    "other",
    [
        _reading(value=5),  # another face
        _reading(box=(11, 10, 30, 30)),  # moved a pixel
        _reading(confidence=0.97 - 2 * TOLERANCE),  # much less sure
    ],
)
def test_given_a_die_read_otherwise_on_one_stack_when_compared_then_the_photo_is_named(other):
    mine = {"a.jpg": [_reading()], "b.jpg": []}
    theirs = {"a.jpg": [other], "b.jpg": []}
    assert [line.split(":")[0] for line in differences(mine, theirs)] == ["a.jpg"]


def test_given_a_die_unsure_on_one_stack_only_when_compared_then_named():
    mine = {"a.jpg": [_reading(confidence=0.81)]}
    theirs = {"a.jpg": [_reading(confidence=0.79)]}
    assert len(differences(mine, theirs)) == 1


def test_given_a_photo_read_on_one_stack_only_when_compared_then_named():
    assert differences({"a.jpg": []}, {}) == ["a.jpg: read on one stack only"]
