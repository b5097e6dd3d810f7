"""A taught set's dice size: kept with the profile, followed by undo and forget, used by
the reader in place of its survey's guess where the frame is the one it was taught in,
and left unused where its own photos, each read without itself, read worse with it.

The set is the logo dice of ``test_vision_profile``; the photo whose size the survey
misjudges is a dark-rimmed tray of small dice in a wide, flat frame, which the survey
takes for one big die (as it does 19 of 50 tray-multicolor test photos at ``--wider 3``).
"""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from scorer.dice import BACKGROUND, face_class
from scorer.vision import reader as reader_module
from scorer.vision.profile import FILE_NAME, FORMAT, SIZED_DICE, DiceProfile, DieSize
from scorer.vision.reader import Reader, default_model_dir
from scorer.vision.reading import Die, Reading
from scorer.vision.teaching import (
    TaughtDie,
    dice_read_right,
    dice_seen,
    judge,
    open_profile,
    teach_dice,
    trials,
)
from tests.test_vision_profile import logo_throw, taught
from tests.test_vision_reader import draw_die, felt

pytestmark = pytest.mark.skipif(
    not (default_model_dir() / "faces.onnx").is_file(),
    reason="vision_models/*.onnx not built: run `make train`",
)

TRAY_VALUES = [1, 2, 3, 4, 5, 6]


@pytest.fixture(scope="module")
def reader() -> Reader:
    return Reader()


def tray_throw(seed: int, frame: int = 1920, tray: int = 400, side: float = 40.0):
    """Six red dice in a dark-rimmed white tray in the middle of a flat grey frame."""
    rng = np.random.default_rng(seed)
    image = felt(frame, frame, colour=(200, 200, 205), seed=seed)
    x0 = y0 = frame // 2 - tray // 2
    rim = 20
    cv2.rectangle(image, (x0, y0), (x0 + tray, y0 + tray), (30, 30, 30), -1)
    cv2.rectangle(image, (x0 + rim, y0 + rim), (x0 + tray - rim, y0 + tray - rim), (225,) * 3, -1)
    step = (tray - 2 * rim) / 3.4
    dice = []
    for i, value in enumerate(TRAY_VALUES):
        centre = (
            x0 + rim + step * (0.7 + i % 3) + float(rng.uniform(-5, 5)),
            y0 + rim + step * (1.0 + 1.2 * (i // 3)) + float(rng.uniform(-5, 5)),
        )
        draw_die(
            image,
            centre,
            value,
            side,
            float(rng.uniform(0, 90)),
            body=(40, 40, 200),
            pip=(240,) * 3,
        )
        dice.append(TaughtDie(centre, side, face_class("pips", value), False))
    return image, dice


def sized(side: float, frame: tuple[int, int]) -> DiceProfile:
    """A profile that knows only its dice's size (no crops: its face vote is off)."""
    profile = DiceProfile("sized")
    profile.size = DieSize(side, frame)
    return profile


def test_given_throws_taught_when_undone_or_forgotten_then_the_size_follows(reader):
    # given a set taught from a throw of big dice and one of small dice, in 640x640 frames
    profile = DiceProfile("logo")
    image, dice = logo_throw([6, 2, 6, 3, 5, 4], 10)
    teach_dice(reader, profile, image, dice, "big")
    small = [TaughtDie(d.centre, 30.0, d.label, False) for d in dice]
    teach_dice(reader, profile, image, small, "small")
    sides = [d.side for d in dice]
    # then its size is the median side of all twelve, in the frame they were taught in
    assert profile.size == DieSize(float(np.median(sides + [30.0] * 6)), (640, 640))
    # when the small throw is undone, then the size is the big throw's again
    profile.forget("small")
    assert profile.size == DieSize(float(np.median(sides)), (640, 640))
    # when a throw is taught from a camera of another frame size, with dice that do not
    # tell a size (a one, a corrected die, "not a die")
    wide = cv2.copyMakeBorder(image, 0, 320, 0, 640, cv2.BORDER_REPLICATE)
    moved = [TaughtDie(d.centre, 20.0 + i, d.label, False) for i, d in enumerate(dice)]
    moved += [
        TaughtDie((600.0, 700.0), 90.0, face_class("pips", 1), False),
        TaughtDie((600.0, 800.0), 90.0, face_class("pips", 2), True),
        TaughtDie((600.0, 900.0), 90.0, BACKGROUND, True),
    ]
    teach_dice(reader, profile, wide, moved, "new camera")
    # then the size is that frame's dice read right alone
    assert profile.size == DieSize(22.5, (1280, 960))
    # when that throw is undone, the old camera's size is back; forgotten, none at all
    profile.forget("new camera")
    assert profile.size == DieSize(float(np.median(sides)), (640, 640))
    profile.forget()
    assert profile.size is None


def test_given_only_ones_or_corrections_taught_when_measured_then_no_size(reader):
    # given a set taught two dice read right and ones and corrections (a one's pip reads
    # as a one at any size; a corrected die may have been seen at the wrong size)
    profile = DiceProfile("ones")
    image, dice = logo_throw([2, 3, 1, 1, 4], 12)
    fixed = [TaughtDie(d.centre, d.side, d.label, i == 4) for i, d in enumerate(dice)]
    teach_dice(reader, profile, image, fixed, "throw 12")
    # then it knows no size yet: under SIZED_DICE dice tell it
    assert SIZED_DICE == 3 and profile.size is None
    # and its taught photo is not read again to judge a size it does not have
    asked = []
    assert trials(profile, [("throw 12", image, fixed)], lambda *a: asked.append(a)) == {}
    assert asked == []
    # when one more die read right is taught, then the three tell it
    more = [TaughtDie((320.0, 500.0), 61.0, face_class("pips", 5), False)]
    teach_dice(reader, profile, image, more, "throw 13")
    assert profile.size == DieSize(float(np.median([dice[0].side, dice[1].side, 61.0])), (640, 640))


def test_given_a_tray_of_small_dice_when_read_untaught_then_not_one_big_die(reader):
    # given small dice in a tray, which the survey sees as one big die with pips
    image, _ = tray_throw(seed=2)
    reader.profile = None
    # when read, then the huddle looked for on a wider board keeps the dice small
    assert sorted(reader.read(image, "pips").values) == TRAY_VALUES


def test_given_a_set_the_survey_misjudges_when_read_with_its_size_then_its_dice_are_found(
    reader, monkeypatch
):
    # given photos of small dice in a tray the survey takes for one big die (no wider
    # board to look for the huddle on)
    monkeypatch.setattr(reader_module, "WIDE_BOARD", reader_module.FINDER_INPUT)
    image, dice = tray_throw(seed=2)
    reader.profile = None
    untaught = reader.read(image, "pips")
    assert len(untaught.dice) <= 2
    # when read with a set taught in another photo of the same camera
    profile = DiceProfile("tray")
    other, other_dice = tray_throw(seed=5)
    teach_dice(reader, profile, other, other_dice, "throw 5")
    assert profile.size == DieSize(40.0, (1920, 1920))
    reader.profile = profile
    reading = reader.read(image, "pips")
    # then it is looked at at its dice's size, and every die is found and read
    assert sorted(reading.values) == TRAY_VALUES
    for die, taught_die in zip(reading.dice, sorted(dice, key=lambda d: d.centre[0]), strict=False):
        assert abs(die.box[0] + die.box[2] / 2 - taught_die.centre[0]) < 20
    reader.profile = None


def test_given_a_profile_of_another_frame_size_when_read_then_as_if_no_size_were_known(
    reader, monkeypatch
):
    # given a set taught at 640x640, and the sides each look is asked for
    profile = sized(60.0, (640, 640))
    asked: list[float] = []
    look = reader._look

    def spy(image, area, max_scale, allowed, side=0.0):
        asked.append(side)
        return look(image, area, max_scale, allowed, side)

    monkeypatch.setattr(reader, "_look", spy)
    image, _ = logo_throw([5, 4, 3, 2, 1], 22)
    reader.profile = profile
    # when a 640x640 photo is read, then at the set's size first
    reader.read(image)
    assert asked[0] == 60.0
    # when a photo of another frame size is read (the camera changed)
    wide = cv2.copyMakeBorder(image, 0, 0, 0, 160, cv2.BORDER_REPLICATE)
    asked.clear()
    reading = reader.read(wide).to_dict()["dice"]
    # then the size is not used, and it reads exactly as a profile without a size does
    assert 60.0 not in asked
    profile.size = None
    assert reader.read(wide).to_dict()["dice"] == reading
    reader.profile = None


def test_given_a_size_under_which_nothing_is_found_when_read_then_the_untaught_look(
    reader, monkeypatch
):
    # given a set whose size is far off (dice 2 px on the board: nothing found there)
    image, _ = logo_throw([5, 4, 3, 2, 1], 23)
    reader.profile = None
    untaught = reader.read(image).to_dict()["dice"]
    reader.profile = sized(4000.0, (640, 640))
    # when read, then the reader falls back to its own survey and reads as untaught
    assert reader.read(image).to_dict()["dice"] == untaught
    reader.profile = None


def test_given_a_format_1_profile_when_loaded_then_no_size_and_saved_as_the_new_format(
    reader, tmp_path
):
    # given a profile written before sizes were kept (format 1: no side, no frame)
    folder = tmp_path / "old"
    path = taught(reader).save(folder)
    with np.load(path) as stored:
        parts = {k: stored[k] for k in stored.files}
    meta = json.loads(bytes(parts["meta"]).decode())
    meta["format"] = 1
    del meta["trials"], meta["looks"], parts["look"], parts["look_labels"]
    for row in meta["examples"]:
        del row["side"], row["frame"]
    parts["meta"] = np.frombuffer(json.dumps(meta).encode(), np.uint8)
    np.savez(path, **parts)
    # when loaded, then its crops are all there and it knows no size: read as before
    old = open_profile(folder, reader)
    assert len(old) == 12 and old.size is None and old.trials == {} and old.uses_size
    image, _ = logo_throw([6, 4, 6, 2, 1], 22)
    reader.profile = old
    assert reader.read(image).values == (6, 4, 6, 2, 1)
    # when saved again, then in this format, and a lesson taught since gives it its size
    teach_dice(reader, old, *logo_throw([2, 3, 4, 5], 30), "throw 30")
    old.save(folder)
    with np.load(folder / FILE_NAME) as stored:
        assert json.loads(bytes(stored["meta"]).decode())["format"] == FORMAT == 4
    again = open_profile(folder, reader)
    assert again.size == old.size and again.size is not None and again.size.frame == (640, 640)
    reader.profile = None


def test_given_a_size_that_loses_the_dice_when_judged_on_its_photos_then_read_without_it(
    reader,
):
    # given a set taught from three photos whose boxes were drawn six times its dice (a
    # size at which the finder loses them: one die of five found on a fresh throw)
    profile = DiceProfile("boxes too big")
    views = []
    for seed in (10, 11, 12):
        image, dice = logo_throw([2, 3, 4, 5, 6], seed)
        drawn = [TaughtDie(d.centre, d.side * 6, d.label, False) for d in dice]
        teach_dice(reader, profile, image, drawn, f"throw {seed}")
        views.append((f"throw {seed}", image, dice))
    fresh, _ = logo_throw([2, 3, 4, 5, 6], 21)
    reader.profile = profile
    assert profile.uses_size and len(reader.read(fresh, "pips").dice) < 5
    # when judged on its taught photos, each read without what it taught

    def read(trial: DiceProfile, image: np.ndarray):
        reader.profile = trial
        return reader.read(image, "pips")

    sized = judge(profile, views, read)
    # then the photos read fewer dice right with the size, and the set no longer uses it
    assert not sized and not profile.uses_size
    with_size = sum(t["sized"] for t in profile.trials.values())
    assert with_size < sum(t["unsized"] for t in profile.trials.values())
    reader.profile = profile
    assert len(reader.read(fresh, "pips").dice) == 5
    # when the throws whose trials spoke against it are undone, the size is used again
    for source, trial in list(profile.trials.items()):
        if trial["sized"] < trial["unsized"]:
            profile.forget(source)
    assert profile.uses_size and set(profile.trials) == profile.sources()
    reader.profile = None


def test_given_a_size_that_finds_the_dice_when_judged_then_kept_and_saved(
    reader, monkeypatch, tmp_path
):
    # given photos of small dice the survey takes for one big die, a set taught from two
    monkeypatch.setattr(reader_module, "WIDE_BOARD", reader_module.FINDER_INPUT)
    profile = DiceProfile("tray")
    views = []
    for seed in (5, 6):
        image, dice = tray_throw(seed=seed)
        teach_dice(reader, profile, image, dice, f"throw {seed}")
        views.append((f"throw {seed}", image, dice))

    def read(trial: DiceProfile, image: np.ndarray):
        reader.profile = trial
        return reader.read(image, "pips")

    # when judged, then each photo read more dice right with the size: it stays in use
    assert judge(profile, views, read)
    assert all(t["sized"] > t["unsized"] for t in profile.trials.values())
    # when saved and loaded, the trials and the choice come back
    profile.save(tmp_path / "tray")
    again = open_profile(tmp_path / "tray", reader)
    assert again.trials == profile.trials and again.uses_size
    reader.profile = None


def test_given_a_reading_when_scored_against_named_dice_then_right_less_extra():
    # given three named dice, and a reading that has two right, one wrong face and an
    # extra die far from any named one
    named = [
        TaughtDie((100.0, 100.0), 40.0, face_class("pips", 2), False),
        TaughtDie((200.0, 100.0), 40.0, face_class("pips", 5), False),
        TaughtDie((300.0, 100.0), 40.0, face_class("card", 1), False),
    ]
    reading = Reading(
        (
            Die(2, "pips", 0.9, (82, 80, 40, 40)),
            Die(6, "pips", 0.9, (180, 80, 40, 40)),
            Die(1, "card", 0.9, (280, 82, 40, 40)),
            Die(3, "pips", 0.9, (500, 500, 40, 40)),
        ),
        1.0,
    )
    # then two right, less one extra
    assert dice_read_right(named, reading) == 1
    # and each die read is its confidence and whether it was right (the extra one: not)
    assert dice_seen(named, reading) == [[0.9, 1.0], [0.9, 0.0], [0.9, 1.0], [0.9, 0.0]]
    # and a die found beyond a named die's reach pairs with nothing
    far = Reading((Die(2, "pips", 0.9, (160, 160, 40, 40)),), 1.0)
    assert dice_read_right(named[:1], far) == -1


def test_given_a_throw_undone_while_its_trial_reads_then_no_half_trial_is_kept(reader):
    # given a set taught from two throws, one of them undone between its two trial readings
    profile = DiceProfile("logo")
    views = []
    for seed in (10, 11):
        image, dice = logo_throw([2, 3, 4, 5, 6], seed)
        teach_dice(reader, profile, image, dice, f"throw {seed}")
        views.append((f"throw {seed}", image, dice))
    readings = []

    def read(trial: DiceProfile, image: np.ndarray):
        reader.profile = trial
        readings.append(trial._without)
        if len(readings) == 3:  # the second throw's first reading: then it is undone
            profile.forget("throw 11")
        return reader.read(image, "pips")

    # when its trials are read, then only the throw still taught has one, read in full
    scores = trials(profile, views, read)
    assert set(scores) == {"throw 10"} and readings == ["throw 10", "throw 10", "throw 11"]
    assert set(scores["throw 10"]) == {"sized", "unsized"}
    reader.profile = None
