"""A throw the table knows it read short (fewer dice than it threw) is looked at once more,
over the whole tray at twice the finder's scale; the dice found there are added, at most
as many as are missing. A reading not told its dice, or told and whole, is not."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from scorer.vision import reader as reader_module
from scorer.vision.evaluation import match, same_face
from scorer.vision.labelled import load_split
from scorer.vision.reader import Reader, default_model_dir
from tests.test_vision_pip_finder import PALE_WEBCAM, paler
from tests.test_vision_reader import throw

SHARED = Path(__file__).resolve().parents[2] / "shared" / "datasets"
TRAY = SHARED / "tray-multicolor"
#: tray-multicolor: the finder marks 8 of this test photo's 9 dice (a blue six against the
#: tray's wall is left) and 4 of this train photo's 5; twice as close, it marks them all
SHORT_TEST = "IMG_20191208_112933.jpg"
SHORT_TRAIN = "IMG_20191208_112426.jpg"
#: ``PALE_WEBCAM`` (webcam-white, gamma 0.5): one die thrown, none read; twice as close the
#: finder marks six spots on the pale felt

pytestmark = [
    pytest.mark.skipif(
        not (default_model_dir() / "faces.onnx").is_file(),
        reason="vision_models/*.onnx not built: run `make train`",
    ),
    pytest.mark.skipif(not TRAY.is_dir(), reason="../shared/datasets is absent"),
]


@pytest.fixture(scope="module")
def reader() -> Reader:
    return Reader()


def photo_of(split: str, name: str):
    [photo] = [p for p in load_split(TRAY, split) if p.path.name == name]
    return photo


def right(photo, reading) -> int:
    pairs, _, _ = match(photo, reading)
    return sum(same_face(photo.dice[i], reading.dice[j]) for i, j in pairs)


@pytest.mark.parametrize(("split", "name"), [("test", SHORT_TEST), ("train", SHORT_TRAIN)])
@pytest.mark.parametrize("faces", ["pips", "any"])
def test_given_a_throw_read_a_die_short_when_told_its_dice_then_the_missing_die_is_read(
    reader, split, name, faces
):
    # given a real photo whose dice the finder marks all but one of
    photo = photo_of(split, name)
    image = cv2.imread(str(photo.path))
    untold = reader.read(image, faces=faces)
    assert len(untold.dice) == len(photo.dice) - 1

    # when the table tells the reader how many dice it threw
    told = reader.read(image, faces=faces, least=len(photo.dice))

    # then it reads them all, each right, and keeps every die it had read
    assert len(told.dice) == len(photo.dice)
    assert right(photo, told) == len(photo.dice)
    assert set(untold.dice) <= set(told.dice)


def test_given_a_throw_read_whole_when_told_then_there_is_no_second_look(reader, monkeypatch):
    # given a throw whose five dice the reader reads
    image, _ = throw([1, 2, 3, 4, 5])
    calls = []
    look = Reader._look_twice
    monkeypatch.setattr(Reader, "_look_twice", lambda self, *a: calls.append(1) or look(self, *a))

    # when it is told five were thrown, or told nothing
    told = reader.read(image, faces="pips", least=5)
    untold = reader.read(image, faces="pips")

    # then it never looks twice as close
    assert sorted(told.values) == sorted(untold.values) == [1, 2, 3, 4, 5]
    assert calls == []


def test_given_a_photo_read_short_when_not_told_then_it_is_read_as_before(reader, monkeypatch):
    image = cv2.imread(str(TRAY / "images" / "test" / SHORT_TEST))
    monkeypatch.setattr(Reader, "_look_twice", lambda *a: pytest.fail("looked twice untold"))

    assert len(reader.read(image, faces="pips").dice) == 8


@pytest.mark.skipif(not PALE_WEBCAM.is_file(), reason="../shared/datasets is absent")
def test_given_one_die_thrown_and_none_read_when_told_then_at_most_one_spot_is_added(reader):
    # given a pale photo of one die, which the first looks read as none
    image = paler(PALE_WEBCAM)
    assert reader.read(image, faces="any").dice == ()

    # when told one die was thrown
    told = reader.read(image, faces="any", least=1)

    # then the closer look, which marks several spots there, adds one at most
    assert len(told.dice) <= 1


def test_given_a_press_of_three_frames_read_short_when_told_then_one_pass_serves_them(
    reader, monkeypatch
):
    # given three frames of one press (the dice lie still) that read a die short
    photo = photo_of("test", SHORT_TEST)
    image = cv2.imread(str(photo.path))
    passes = []
    real = reader_module.find_on_board
    monkeypatch.setattr(
        reader_module,
        "find_on_board",
        lambda net, small, *a, **k: passes.append(small.shape) or real(net, small, *a, **k),
    )
    reader.read(image, faces="pips")
    untold = list(passes)
    passes.clear()
    reader.read(image, faces="pips", least=len(photo.dice))
    twice = [shape for shape in passes if shape not in untold]
    assert len(twice) == 1  # the pass twice as close
    passes.clear()

    # when they are voted on, told the dice thrown
    voted = reader.read_votes([image, image.copy(), image.copy()], "pips", least=len(photo.dice))

    # then the finder looked twice as close once, and every die is read
    assert passes.count(twice[0]) == 1
    assert right(photo, voted) == len(photo.dice)
