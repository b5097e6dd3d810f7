"""A game of pip dice that leaves a die unsure looks again with the pip finder
(``finder-pips.onnx``, trained on 3D renders of many more bodies), which only adds dice the
general finder did not mark; poker-dice and mixed games never load it."""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from scorer.vision.reader import PIP_FINDER, Reader, apart, default_model_dir
from tests.test_vision_reader import throw

SHARED = Path(__file__).resolve().parents[2] / "shared" / "datasets"
#: tray-multicolor test: with the sensor noise of benchmarks/vision_robustness.py (sd 12)
#: the general finder misses the three at (499, 159) px; the pip finder marks it
NOISY_TRAY = SHARED / "tray-multicolor" / "images" / "test" / "IMG_20191208_112933.jpg"
THREE_AT = (499.0, 159.0)

pytestmark = pytest.mark.skipif(
    not (default_model_dir() / PIP_FINDER).is_file(),
    reason="vision_models/finder-pips.onnx not built: run `make train`",
)


def noisy(path: Path) -> np.ndarray:
    """The photo as ``vision_robustness.py``'s "noise sd 12" row reads it."""
    image = cv2.imread(str(path)).astype(np.float32)
    image = image + np.random.default_rng(0).normal(0, 12, image.shape)
    return np.clip(image, 0, 255).astype(np.uint8)


def without_pip_finder(folder: Path) -> Path:
    for network in default_model_dir().glob("*.onnx"):
        if network.name != PIP_FINDER:
            shutil.copy(network, folder / network.name)
    return folder


def centre(box: tuple[int, int, int, int]) -> tuple[float, float]:
    x, y, w, h = box
    return x + w / 2, y + h / 2


def test_given_spots_near_and_far_from_read_ones_when_judged_then_only_far_ones_are_new():
    known = np.array([[100.0, 100.0]], np.float32)
    centres = np.array([[110.0, 100.0], [100.0, 125.0], [300.0, 300.0]], np.float32)
    sides = np.full(3, 40.0, np.float32)

    new = apart(centres, sides, known, np.array([40.0], np.float32))

    assert new.tolist() == [False, True, True]  # within half a side: the same die
    assert apart(centres, sides, np.zeros((0, 2), np.float32), np.zeros(0, np.float32)).all()


@pytest.mark.skipif(not NOISY_TRAY.is_file(), reason="../shared/datasets is absent")
def test_given_a_die_the_finder_misses_when_a_pip_game_reads_it_then_the_pip_finder_adds_it(
    tmp_path,
):
    image = noisy(NOISY_TRAY)

    before = Reader(without_pip_finder(tmp_path)).read(image, faces="pips")
    after = Reader().read(image, faces="pips")

    def near(die) -> bool:
        return np.hypot(*np.subtract(centre(die.box), THREE_AT)) < die.box[2] / 2

    assert not any(near(d) for d in before.dice)
    assert [d.value for d in after.dice if near(d)] == [3]
    assert set(before.dice) <= set(after.dice)  # it only adds


@pytest.mark.skipif(not NOISY_TRAY.is_file(), reason="../shared/datasets is absent")
@pytest.mark.parametrize("faces", ["cards", "any"])
def test_given_a_game_of_other_dice_when_read_then_the_pip_finder_never_loads(faces):
    reader = Reader()

    reader.read(noisy(NOISY_TRAY), faces=faces)

    assert "_pip_finder" not in vars(reader)


def test_given_a_pip_game_whose_dice_are_all_sure_when_read_then_no_second_look():
    reader = Reader()

    image, _ = throw([1, 2, 3, 4, 5])
    reading = reader.read(image, faces="pips")

    assert sorted(reading.values) == [1, 2, 3, 4, 5] and not reading.unsure
    assert "_pip_finder" not in vars(reader)


#: webcam-white test, as ``vision_robustness.py``'s "gamma 0.5" row shows it: read untold,
#: no die is found (a two, its pips at about 400, 118 px), so none is unsure and nothing
#: looks again; told a die was thrown, the reader looks again with the pip finder
PALE_WEBCAM = SHARED / "webcam-white" / "images" / "test" / "valid_6.jpg"


def paler(path: Path) -> np.ndarray:
    image = cv2.imread(str(path)).astype(np.float32)
    return np.clip(255 * (image / 255) ** 0.5, 0, 255).astype(np.uint8)


@pytest.mark.skipif(not PALE_WEBCAM.is_file(), reason="../shared/datasets is absent")
def test_given_a_game_that_threw_one_die_when_none_is_read_then_the_pip_finder_finds_it():
    image = paler(PALE_WEBCAM)
    reader = Reader()

    untold = reader.read(image, faces="pips")
    told = reader.read(image, faces="pips", least=1)

    assert untold.dice == ()
    assert [d.value for d in told.dice] == [2]
    # the labels box a webcam-white die's pips: their middle lies within the die's box
    assert (
        np.hypot(*np.subtract(centre(told.dice[0].box), (400.0, 118.0))) < told.dice[0].box[2] / 2
    )


@pytest.mark.skipif(not PALE_WEBCAM.is_file(), reason="../shared/datasets is absent")
def test_given_frames_of_a_throw_of_one_die_when_voted_on_told_then_the_die_is_read():
    image = paler(PALE_WEBCAM)

    reading = Reader().read_votes([image, image, image], faces="pips", least=1)

    assert [d.value for d in reading.dice] == [2]


@pytest.mark.skipif(not PALE_WEBCAM.is_file(), reason="../shared/datasets is absent")
def test_given_a_poker_dice_game_told_its_dice_when_read_then_no_pip_finder():
    reader = Reader()

    reader.read(paler(PALE_WEBCAM), faces="cards", least=1)

    assert "_pip_finder" not in vars(reader)
