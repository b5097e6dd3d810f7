"""A taught set's own look: the face network swept over the tray, a head fitted on the
taught photos' windows, the dice it marks where the finder marks none."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scorer.dice import face_class
from scorer.vision import reader as reader_module
from scorer.vision.labelled import load_split
from scorer.vision.profile import FILE_NAME, LOOK_PHOTOS, DiceProfile, ProfileError
from scorer.vision.reader import Reader, default_model_dir
from scorer.vision.sweep import (
    FLOOR_WINDOWS,
    GATE,
    HIT,
    Sweep,
    fitted,
    marks,
    swept,
    windows,
)
from scorer.vision.teaching import TaughtDie, named_dice, open_profile, teach_dice
from tests.test_vision_pip_finder import NOISY_TRAY, THREE_AT, noisy

pytestmark = pytest.mark.skipif(
    not (default_model_dir() / "faces.onnx").is_file(),
    reason="vision_models/*.onnx not built: run `make train`",
)

TRAY = NOISY_TRAY.parents[2]


@pytest.fixture(scope="module")
def reader() -> Reader:
    return Reader()


def grid_sweep(rows: np.ndarray, step: float = 10.0) -> Sweep:
    """Windows on a row of centres ``step`` px apart."""
    centres = np.stack([np.arange(len(rows)) * step, np.zeros(len(rows))], 1)
    return Sweep(np.asarray(rows, np.float32), centres.astype(np.float32))


# ---------------------------------------------------------------------- the sweep


def test_given_a_tray_one_crop_wide_when_swept_then_its_window_is_that_crops_features(reader):
    # given a tray exactly one face crop wide (a die of 32 px, cut 1.5x, at scale 1)
    rng = np.random.default_rng(3)
    image = rng.integers(0, 255, (48, 48, 3), dtype=np.uint8)
    # when the face network is swept over it
    sweep = swept(reader._sweeper(""), image, (0, 0, 48, 48), 1.0)
    # then it has one window, in the middle, holding the crop's map by quarters (``grid``,
    # which a profile keeps after the 128 pooled features)
    features, _ = reader.embed([image])
    assert sweep.rows.shape == (1, 512)
    np.testing.assert_allclose(sweep.centres, [[24.0, 24.0]])
    np.testing.assert_allclose(sweep.rows[0], features[0, 128:], atol=1e-4)


def test_given_a_wider_tray_when_swept_at_a_scale_then_windows_every_stride_in_frame_pixels(
    reader,
):
    image = np.full((200, 300, 3), 90, np.uint8)
    # when swept at half scale (dice of 64 px fill a crop), on the tray's part from x = 20
    sweep = reader.sweep(image, 64.0)
    part = swept(reader._sweeper(""), image, (20, 0, 300, 200), 0.5)
    # then windows lie 16 frame px apart (8 at half scale), the first a crop's half in
    assert sweep.rows.shape[1] == 512 and len(sweep.rows) == len(sweep.centres)
    assert np.allclose(np.diff(np.unique(sweep.centres[:, 0])), 16.0)
    assert sweep.centres[:, 0].min() == pytest.approx(48.0)
    assert part.centres[:, 0].min() == pytest.approx(68.0)


# ---------------------------------------------------------------------- its head


def test_given_windows_on_dice_and_floor_when_fitted_then_dice_score_above_the_gate():
    rng = np.random.default_rng(0)
    dice = rng.normal(2.0, 0.3, (20, 8))
    floor = rng.normal(0.0, 0.3, (200, 8))
    look = fitted(np.vstack([dice, floor]), np.r_[np.ones(20, bool), np.zeros(200, bool)])
    assert look is not None
    assert (look.odds(rng.normal(2.0, 0.3, (10, 8))) >= GATE).all()
    assert (look.odds(rng.normal(0.0, 0.3, (50, 8))) < 0).all()
    # without both kinds of window there is nothing to fit
    assert fitted(floor, np.zeros(200, bool)) is None
    assert fitted(np.zeros((0, 8)), np.zeros(0, bool)) is None


def test_given_marks_close_together_when_found_then_the_strongest_of_them_alone():
    rng = np.random.default_rng(1)
    dice = rng.normal(2.0, 0.1, (20, 4))
    look = fitted(
        np.vstack([dice, rng.normal(0.0, 0.1, (80, 4))]),
        np.r_[np.ones(20, bool), np.zeros(80, bool)],
    )
    # windows 10 px apart: a die (two strong windows side by side), floor, another die
    rows = np.vstack([dice[:1] * 0.9, dice[1:2], np.zeros((4, 4)), dice[2:3]])
    found = marks(look, grid_sweep(rows), side=40.0)
    # then one mark a die, strongest first, and none on the floor
    assert sorted(found[:, 0].tolist()) == [10.0, 60.0]


def test_given_a_photos_dice_and_clutter_when_its_windows_are_chosen_then_labelled_and_bounded():
    rng = np.random.default_rng(2)
    xs, ys = np.meshgrid(np.arange(0, 640, 8.0), np.arange(0, 480, 8.0))
    sweep = Sweep(
        rng.random((xs.size, 16)).astype(np.float32),
        np.stack([xs.ravel(), ys.ravel()], 1).astype(np.float32),
    )
    dice, sides = [(100.0, 100.0), (300.0, 200.0)], [40.0, 40.0]
    rows, labels = windows(sweep, dice, sides, "throw 1", [(500.0, 400.0)], [40.0])
    on = sum(np.hypot(*(sweep.centres - d).T) <= HIT * 40 for d in dice)
    assert labels.sum() == on.sum() > 0
    # the windows on the spot named no die are all kept, as floor, with FLOOR_WINDOWS more
    junk = (np.hypot(*(sweep.centres - (500.0, 400.0)).T) <= HIT * 40).sum()
    assert (~labels).sum() == junk + FLOOR_WINDOWS
    # the same photo gives the same windows
    again, _ = windows(sweep, dice, sides, "throw 1", [(500.0, 400.0)], [40.0])
    np.testing.assert_array_equal(rows, again)


# ---------------------------------------------------------------------- in a profile


def looked_profile(seed: int = 0, photos: int = 3) -> DiceProfile:
    rng = np.random.default_rng(seed)
    profile = DiceProfile("t")
    for k in range(photos):
        rows = np.vstack([rng.normal(2.0, 0.3, (10, 8)), rng.normal(0.0, 0.3, (40, 8))])
        profile.teach_look(rows, np.r_[np.ones(10, bool), np.zeros(40, bool)], f"throw {k}")
    return profile


def test_given_a_looked_profile_when_a_throw_is_undone_then_its_windows_go():
    profile = looked_profile()
    assert profile.look is not None and len(profile._look_rows) == 150
    profile.forget("throw 1")
    assert len(profile._look_rows) == 100 and "throw 1" not in profile._look_sources
    profile.forget()
    assert profile.look is None and not len(profile._look_rows)


def test_given_many_taught_photos_when_looked_then_the_newest_photos_windows_kept():
    profile = looked_profile(photos=LOOK_PHOTOS + 3)
    assert len(set(profile._look_sources)) == LOOK_PHOTOS
    assert "throw 0" not in profile._look_sources
    assert f"throw {LOOK_PHOTOS + 2}" in profile._look_sources
    with pytest.raises(ProfileError, match="one label"):
        profile.teach_look(np.zeros((3, 8)), np.zeros(2, bool), "bad")


def test_given_a_looked_profile_when_saved_and_loaded_then_the_same_look(tmp_path):
    profile = looked_profile()
    profile.save(tmp_path)
    again = DiceProfile.load(tmp_path)
    probe = np.random.default_rng(5).normal(1.0, 1.0, (20, 8)).astype(np.float32)
    assert again._look_sources == profile._look_sources
    np.testing.assert_allclose(again.look.odds(probe), profile.look.odds(probe), atol=0.05)


def test_given_a_profile_whose_windows_disagree_when_loaded_then_a_clear_error(tmp_path):
    path = looked_profile().save(tmp_path)
    with np.load(path) as stored:
        parts = {k: stored[k] for k in stored.files}
    parts["look_labels"] = parts["look_labels"][:-1]
    np.savez(path, **parts)
    with pytest.raises(ProfileError, match="damaged: its look"):
        DiceProfile.load(tmp_path)


def test_given_a_profile_of_another_face_network_when_loaded_then_its_look_forgotten(
    reader, tmp_path
):
    # given a profile taught a photo (crops and windows), written with other networks
    image, dice = np.full((480, 640, 3), 70, np.uint8), []
    from tests.test_vision_reader import draw_die

    for i, value in enumerate((2, 5, 3)):
        centre = (150.0 + 150 * i, 240.0)
        draw_die(image, centre, value, 50, 10.0)
        dice.append(TaughtDie(centre, 50.0, face_class("pips", value), False))
    profile = DiceProfile("t", model=reader.faces_digest())
    teach_dice(reader, profile, image, dice, "throw 1")
    assert len(profile._look_rows) and profile._look_labels.any()
    path = profile.save(tmp_path)
    with np.load(path) as stored:
        parts = {k: stored[k] for k in stored.files}
    meta = json.loads(bytes(parts["meta"]).decode())
    meta["model"] = "an older network"
    parts["meta"] = np.frombuffer(json.dumps(meta).encode(), np.uint8)
    np.savez(tmp_path / FILE_NAME, **parts)
    # when loaded, then its crops are described again, and its windows (which cannot be:
    # their photos are not kept) are forgotten until photos are taught again
    again = open_profile(tmp_path, reader)
    assert len(again) == 3 and again.look is None


# ---------------------------------------------------------------------- reading with it


@pytest.mark.skipif(not NOISY_TRAY.is_file(), reason="../shared/datasets is absent")
def test_given_a_set_taught_from_noisy_photos_when_a_die_goes_unmarked_then_its_look_finds_it(
    reader, monkeypatch
):
    # given tray-multicolor's dice taught from 5 train photos with sensor noise (sd 12), as
    # a table teaches them from corrections
    profile = DiceProfile("tray")
    reader.profile = profile
    try:
        for photo in sorted(load_split(TRAY, "train"), key=lambda p: p.path.name)[:5]:
            image = noisy(photo.path)
            teach_dice(reader, profile, image, named_dice(reader, image, photo), photo.path.name)
        image = noisy(NOISY_TRAY)

        def three(least: int = 0) -> list:
            dice = reader.read(image, "any", least=least).dice
            centres = [np.add(d.box[:2], np.divide(d.box[2:], 2)) for d in dice]
            return [d for d, c in zip(dice, centres, strict=True) if np.hypot(*(c - THREE_AT)) < 15]

        # when a noisy test photo is read in a game of any dice (no pip finder), then the
        # three the finder leaves unmarked is found by the set's look, and read
        found = three()
        assert [(d.value, d.face) for d in found] == [(3, "pips")]
        # and a table told its 8 dice lie there pays for the sweep as the reading is short;
        # told 7 (as many as the finder marks), it does not look
        assert len(three(least=8)) == 1 and not three(least=7)
        # and a press of three frames (the dice lie still between them) sweeps once
        sweeps = []
        real = reader_module.swept
        monkeypatch.setattr(reader_module, "swept", lambda *args: sweeps.append(1) or real(*args))
        voted = reader.read_votes([image, image.copy(), image.copy()], "any").dice
        centres = [np.add(d.box[:2], np.divide(d.box[2:], 2)) for d in voted]
        assert len(sweeps) == 1
        assert [
            d.value for d, c in zip(voted, centres, strict=True) if np.hypot(*(c - THREE_AT)) < 15
        ] == [3]
        monkeypatch.undo()
        # and without the look's windows the same profile leaves it unmarked
        profile._drop_looks(set(profile._look_sources))
        assert profile.look is None and len(profile) and not three()
    finally:
        reader.profile = None


def test_given_a_profile_with_no_size_when_read_then_no_sweep(reader):
    profile = looked_profile()
    assert profile.look is not None and profile.size is None
    reader.profile = profile
    try:
        image = np.full((240, 320, 3), 90, np.uint8)
        assert reader.read(image).dice == ()
    finally:
        reader.profile = None


def test_given_faces_files_without_a_map_when_swept_then_nothing(tmp_path):
    # given the networks of before the sweep: the face network's last map not an output
    # (its name changed where the graph names its outputs)
    for path in default_model_dir().glob("*.onnx"):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    faces = (default_model_dir() / "faces.onnx").read_bytes()
    node, output = b"\x12\x03map", b"\x0a\x03map"  # a node's output, the graph's output
    assert faces.count(node) == faces.count(output) == 1
    (tmp_path / "faces.onnx").write_bytes(
        faces.replace(node, b"\x12\x03mop").replace(output, b"\x0a\x03mop")
    )
    # when a tray is swept, then nothing: no window, no look, and the reader reads as before
    for backend in ("cv2", "onnxruntime"):
        old = Reader(tmp_path, backend=backend)
        sweep = old.sweep(np.full((200, 200, 3), 90, np.uint8), 40.0)
        assert not len(sweep.rows) and sweep.centres.shape == (0, 2)
