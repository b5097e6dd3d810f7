"""What /camera's test read says of the dice's size in the picture (scorer/framing.py)."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from scorer.framing import SMALL_DIE_PX, die_side, framing

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "datasets"


def die(side: float, height: float | None = None) -> dict:
    return {"value": 3, "box": [5, 5, side, side if height is None else height]}


def test_the_median_die_sets_the_size_so_one_odd_box_cannot_sway_it():
    # given four dice of 40 px and one half-hidden die of 12 px
    dice = [die(40)] * 4 + [die(12)]
    # then the throw's dice are 40 px
    assert framing(dice) == {"die_px": 40.0, "small": False}


def test_a_die_leaning_in_the_picture_counts_its_area_not_its_longest_side():
    assert die_side([(0, 0, 16, 36)]) == pytest.approx(24.0)


@pytest.mark.parametrize(
    ("side", "small"), [(SMALL_DIE_PX - 0.5, True), (SMALL_DIE_PX, False), (60, False)]
)
def test_dice_under_the_least_side_are_small(side, small):
    assert framing([die(side)] * 3)["small"] is small


def test_no_dice_says_nothing_of_their_size():
    assert framing([]) == {"die_px": None, "small": False}
    assert die_side([]) is None


@pytest.mark.skipif(not SHARED.is_dir(), reason=f"{SHARED} is absent")
def test_a_real_tray_photo_taken_from_three_times_farther_is_called_small():
    from scorer.vision.labelled import load_split
    from scorer.vision.reader import Reader, default_model_dir

    if not (default_model_dir() / "faces.onnx").is_file():
        pytest.skip("vision_models/*.onnx not built: run `make train`")
    # given a tray-multicolor test photo, its dice about 40 px, as the reader reads it
    photo = load_split(SHARED / "tray-multicolor", "test")[0]
    image = cv2.imread(str(photo.path))
    reader = Reader()
    labelled = die_side(d.box for d in photo.dice)
    near = framing(d.to_dict() for d in reader.read(image, faces="pips").dice)
    # when the same tray is seen from a camera three times farther away
    far_image = cv2.resize(image, None, fx=1 / 3, fy=1 / 3, interpolation=cv2.INTER_AREA)
    far = framing(d.to_dict() for d in reader.read(far_image, faces="pips").dice)
    # then the dice near are the labels' size and fine, and far they are small
    assert near["die_px"] == pytest.approx(labelled, rel=0.25) and not near["small"]
    assert far["die_px"] == pytest.approx(labelled / 3, rel=0.25) and far["small"]
