"""The reading types other parts of the product import: Die and Reading."""

from __future__ import annotations

import dataclasses

import pytest

from scorer.vision import DEFAULT_THRESHOLD, Die, Reading


def test_given_a_card_die_when_turned_to_dict_then_its_rank_is_there():
    die = Die(3, "card", 0.91234, (10, 20, 30, 31), "J")
    assert die.to_dict() == {
        "value": 3,
        "face": "card",
        "confidence": 0.9123,
        "box": [10, 20, 30, 31],
        "rank": "J",
    }


def test_given_a_die_with_a_second_guess_when_turned_to_dict_then_the_guess_is_there():
    die = Die(3, "card", 0.55, (10, 20, 30, 31), "J", guess=5)
    assert die.to_dict()["guess"] == 5
    assert "guess" not in Die(3, "card", 0.99, (10, 20, 30, 31), "J").to_dict()


def test_given_a_pip_die_when_turned_to_dict_then_no_rank_key():
    assert "rank" not in Die(4, "pips", 1.0, (0, 0, 5, 5), None).to_dict()


def test_given_dice_under_the_threshold_when_asked_unsure_then_their_indexes():
    reading = Reading(
        (
            Die(1, "pips", 0.99, (0, 0, 1, 1), None),
            Die(2, "pips", DEFAULT_THRESHOLD - 0.01, (5, 0, 1, 1), None),
            Die(6, "card", 0.2, (9, 0, 1, 1), "A"),
        ),
        ms=3.0,
    )
    assert reading.values == (1, 2, 6)
    assert reading.unsure == (1, 2)
    assert reading.to_dict()["unsure"] == [1, 2]


def test_given_a_reading_when_changed_then_it_refuses_being_frozen():
    reading = Reading((), ms=1.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        reading.ms = 2.0  # type: ignore[misc]
