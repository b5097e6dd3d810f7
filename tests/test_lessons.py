"""What a table's sets of dice learn, apart from the table: the lessons /camera keeps,
and what is refused before anything is read."""

from __future__ import annotations

import random
import threading

import numpy as np
import pytest

from scorer.dice_sets import DiceSets
from scorer.errors import ScorerError
from scorer.lessons import Lessons
from scorer.tray import TrayRegion
from scorer.vision.reading import Die, Reading

NO_READING = object()
"""A reader that is never asked to read: every refusal here comes before a reading."""


def lessons_of(dice_sets: DiceSets | None, reader: object = None) -> Lessons:
    return Lessons(
        None,
        dice_sets,
        reader,
        lock=threading.RLock(),
        tray=TrayRegion(),
        photos=None,
        set_of=lambda game_id: None,
        use_dice_set=lambda set_id, faces: None,
        use_letters=lambda set_id: None,
        say=lambda message: None,
        rng=random.Random(7),
        unsure_below=0.6,
    )


def kept(lessons: Lessons, set_id: str, *faces: str) -> dict:
    """A lesson photographed for ``set_id``: a 200x100 frame with a die of each face."""
    dice = tuple(Die(3, face, 0.9, (10 + 30 * i, 20, 15, 15)) for i, face in enumerate(faces))
    return lessons.keep(set_id, np.zeros((100, 200, 3), np.uint8), None, Reading(dice, 1.0, 0.5))


@pytest.mark.parametrize(
    "ask",
    [
        lambda lessons: lessons.summary("red"),
        lambda lessons: lessons.teach("red", "red-1-0", [], "pips"),
        lambda lessons: lessons.forget("red"),
    ],
    ids=["summary", "teach", "forget"],
)
def test_given_a_table_without_sets_of_dice_when_a_set_is_asked_for_then_refused_plainly(ask):
    # given lessons of a table that keeps no sets of dice
    lessons = lessons_of(None, NO_READING)
    # when a set's summary, a lesson or forgetting is asked for, then the table says so
    with pytest.raises(ScorerError, match="this table keeps no sets of dice"):
        ask(lessons)


def test_given_a_kept_lesson_when_shown_then_its_photo_size_dice_and_likely_kind(tmp_path):
    # given a set of dice and a photographed lesson of two card dice and a pip die
    sets = DiceSets(tmp_path / "dice-sets")
    red = sets.create("Red")
    # when it is kept
    shown = kept(lessons_of(sets, NO_READING), red, "card", "card", "pip")
    # then the page gets its id, the frame's size, the dice as read and the kind most are
    assert shown["lesson"].startswith(f"{red}-1-")
    assert shown["size"] == [200, 100]
    assert [d["box"] for d in shown["dice"]] == [
        [10, 20, 15, 15],
        [40, 20, 15, 15],
        [70, 20, 15, 15],
    ]
    assert shown["kind"] == "card"
    assert shown["threshold"] == 0.5


def test_given_a_lesson_of_another_set_or_a_dozen_lessons_ago_when_taught_then_refused(tmp_path):
    # given two sets and a lesson of the first
    sets = DiceSets(tmp_path / "dice-sets")
    red, blue = sets.create("Red"), sets.create("Blue")
    lessons = lessons_of(sets, NO_READING)
    first = kept(lessons, red, "pip")["lesson"]
    # when it is taught as the other set's, then refused
    with pytest.raises(ScorerError, match="that photo is no longer kept: throw and read again"):
        lessons.teach(blue, first, [], "pips")
    # when a dozen newer lessons are kept, then it is refused as its own set's too
    newest = [kept(lessons, red, "pip")["lesson"] for _ in range(Lessons.LESSONS_KEPT)][-1]
    with pytest.raises(ScorerError, match="that photo is no longer kept: throw and read again"):
        lessons.teach(red, first, [], "pips")
    # and the newest is still kept: only what is wrong with its dice is refused
    with pytest.raises(ScorerError, match="dice are pips or card dice, not 'coins'"):
        lessons.teach(red, newest, [], "coins")


def test_given_a_taught_set_when_forgotten_then_its_profile_goes_and_the_set_stays(tmp_path):
    # given a set with a profile file
    sets = DiceSets(tmp_path / "dice-sets")
    red = sets.create("Red")
    (sets.folder(red) / "profile.npz").write_bytes(b"taught")
    # when it is forgotten
    summary = lessons_of(sets).forget(red)
    # then the file is gone, the set is still there, and it has seen nothing
    assert not (sets.folder(red) / "profile.npz").exists()
    assert summary["set"] == red and summary["name"] == "Red"
    assert (summary["crops"], summary["faces"], summary["reads"]) == (0, {}, [])


def test_given_a_game_without_a_set_when_its_write_is_learnt_then_nothing_is_taught():
    # given lessons of a table whose games have no set of dice
    lessons = lessons_of(None)
    # when a write is queued and learnt
    lessons.learn_later(1, "write", 3)
    lessons.settle()
    # then nothing was taught, and there is no learner to stop
    assert lessons.learn(1, "write", 3) == 0
    lessons.close()
