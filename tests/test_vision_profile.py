"""Dice profiles: teaching a set of dice the reader misreads, undo, forget, files.

The set is drawn here: violet dice with white pips whose six is a maker's logo (a ring
with three spokes), which the untaught reader reads as a one, a six or a 10 card.
"""

from __future__ import annotations

import json
import math
import zipfile
from pathlib import Path

import cv2
import numpy as np
import pytest

from scorer.cli import main
from scorer.dice import BACKGROUND, CARD_RANKS, face_class
from scorer.errors import ScorerError
from scorer.vision.evaluation import match
from scorer.vision.labelled import LabelledDie, LabelledPhoto
from scorer.vision.network import load_net
from scorer.vision.profile import (
    FEATURES,
    FILE_NAME,
    GRID,
    MAX_PER_FACE,
    NEARS,
    POOLED,
    SURENESS_DICE,
    DiceProfile,
    ProfileError,
    doubted,
    model_digest,
    sured,
)
from scorer.vision.reader import COURTS, Reader, default_model_dir, face_mask
from scorer.vision.teaching import TaughtDie, named_dice, open_profile, teach_dice
from tests.test_vision_reader import draw_die, felt

pytestmark = pytest.mark.skipif(
    not (default_model_dir() / "faces.onnx").is_file(),
    reason="vision_models/*.onnx not built: run `make train`",
)

BODY = (90, 60, 200)
INK = (240, 240, 240)


def logo_die(image: np.ndarray, centre: tuple[float, float], value: int, side: float, angle: float):
    """A die of the logo set: pips as usual, but a logo where the six should be."""
    if value != 6:
        draw_die(image, centre, value, side, angle, body=BODY, pip=INK)
        return
    draw_die(image, centre, 1, side, angle, body=BODY, pip=BODY)
    c = (round(centre[0]), round(centre[1]))
    cv2.circle(image, c, round(side * 0.3), INK, 3, cv2.LINE_AA)
    for k in range(3):
        t = math.radians(angle) + k * 2 * math.pi / 3
        end = (round(c[0] + side * 0.3 * math.cos(t)), round(c[1] + side * 0.3 * math.sin(t)))
        cv2.line(image, c, end, INK, 3, cv2.LINE_AA)


def logo_throw(values: list[int], seed: int) -> tuple[np.ndarray, list[TaughtDie]]:
    """A photo of the logo set and its dice as a person names them."""
    rng = np.random.default_rng(seed)
    image = felt(seed=seed)
    dice = []
    for i, value in enumerate(values):
        centre = (110 + 100 * i + rng.uniform(-8, 8), 200 + rng.uniform(-40, 120))
        side = float(rng.uniform(52, 64))
        logo_die(image, centre, value, side, float(rng.uniform(0, 90)))
        dice.append(TaughtDie(centre, side, face_class("pips", value), False))
    return image, dice


@pytest.fixture(scope="module")
def reader() -> Reader:
    return Reader()


def sixes_read(reader: Reader, seeds: range) -> tuple[int, int]:
    """(logo sixes read as six, logo sixes) over fresh throws of 6 4 6 2 1."""
    right = total = 0
    for seed in seeds:
        image, _ = logo_throw([6, 4, 6, 2, 1], seed)
        reading = reader.read(image)
        by_x = sorted(reading.dice, key=lambda d: d.box[0])
        assert len(by_x) == 5
        right += sum(by_x[i].value == 6 and by_x[i].face == "pips" for i in (0, 2))
        total += 2
    return right, total


def taught(reader: Reader, seeds=(10, 11), name: str = "logo") -> DiceProfile:
    profile = DiceProfile(name)
    for seed in seeds:
        image, dice = logo_throw([6, 1, 6, 3, 5, 2], seed)
        teach_dice(reader, profile, image, dice, f"throw {seed}")
    return profile


def test_given_a_set_misread_untaught_when_taught_from_two_photos_then_its_logo_six_reads_six(
    reader,
):
    # given the logo set, whose six the untaught reader gets wrong on most throws
    reader.profile = None
    before, total = sixes_read(reader, range(20, 30))
    assert before <= total // 2
    # when two photos of it are taught
    reader.profile = taught(reader)
    # then fresh throws read the logo six as a six, and the other faces stay right
    after, _ = sixes_read(reader, range(20, 30))
    assert after == total
    image, _ = logo_throw([5, 4, 3, 2, 1], 40)
    assert sorted(reader.read(image).values) == [1, 2, 3, 4, 5]
    reader.profile = None


def test_given_a_taught_throw_when_undone_then_its_crops_go_and_the_rest_stay(reader):
    # given a profile taught from two throws
    profile = taught(reader)
    assert len(profile) == 12 and profile.sources() == {"throw 10", "throw 11"}
    # when one throw is undone
    removed = profile.forget("throw 11")
    # then only its six crops went, and the set is still pip dice
    assert removed == 6
    assert profile.sources() == {"throw 10"}
    assert profile.counts() == {0: 1, 1: 1, 2: 1, 4: 1, 5: 2}
    assert profile.kind == "pips"


def test_given_a_taught_set_when_forgotten_then_it_reads_as_untaught(reader):
    # given a taught set
    profile = taught(reader)
    image, _ = logo_throw([6, 4, 6, 2, 1], 21)
    reader.profile = None
    untaught = reader.read(image).to_dict()["dice"]
    # when all of it is forgotten
    assert profile.forget() == 12
    # then it holds nothing, belongs to no kind, and reads exactly as no profile does
    assert len(profile) == 0 and profile.kind is None and profile.counts() == {}
    reader.profile = profile
    assert reader.read(image).to_dict()["dice"] == untaught
    reader.profile = None


def test_given_a_saved_profile_when_loaded_then_the_same_crops_and_the_same_reading(
    reader, tmp_path
):
    # given a taught profile, saved
    profile = taught(reader)
    profile.save(tmp_path / "logo")
    # when loaded again (as after a restart)
    again = open_profile(tmp_path / "logo", reader)
    # then it holds the same crops, labels and sources, and reads the same
    assert again.counts() == profile.counts() and again.sources() == profile.sources()
    assert again.kind == "pips" and again.near == profile.near
    image, _ = logo_throw([6, 4, 6, 2, 1], 22)
    reader.profile = profile
    first = reader.read(image).values
    reader.profile = again
    assert reader.read(image).values == first == (6, 4, 6, 2, 1)
    reader.profile = None


def test_given_a_profile_of_another_face_network_when_loaded_then_migrated(reader, tmp_path):
    # given a profile whose features came from another face network
    profile = taught(reader)
    profile.model = "0123456789abcdef"
    profile._features[:] = 0.0  # features that network would give, useless to this one
    profile.save(tmp_path / "old")
    # when loaded for this reader
    again = open_profile(tmp_path / "old", reader)
    # then its crops were described again by this network, and the six reads
    assert again.model != "0123456789abcdef"
    reader.profile = again
    right, total = sixes_read(reader, range(20, 24))
    assert right == total
    reader.profile = None


@pytest.mark.parametrize(
    "damage",
    ["truncated", "garbage", "empty", "newer", "labels", "trials", "seen"],
)
def test_given_a_damaged_profile_when_loaded_then_a_clear_error(reader, tmp_path, damage):
    # given a saved profile, then damaged
    folder = tmp_path / "set"
    path = taught(reader).save(folder)
    data = path.read_bytes()
    if damage == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "garbage":
        path.write_bytes(b"not a profile at all" * 10)
    elif damage == "empty":
        path.write_bytes(b"")
    else:
        with np.load(path) as stored:
            parts = {k: stored[k] for k in stored.files}
        meta = json.loads(bytes(parts["meta"]).decode())
        if damage == "newer":
            meta["format"] = 99
        elif damage == "trials":
            meta["trials"] = {"throw 10": {"sized": "many"}}
        elif damage == "seen":
            meta["seen"] = {"throw 10": {"sized": [[1.5, 1]]}}
        else:
            meta["examples"] = meta["examples"][:3]
        parts["meta"] = np.frombuffer(json.dumps(meta).encode(), np.uint8)
        np.savez(path, **parts)
    # when loaded, then refused with a message naming the file and the problem
    with pytest.raises(ProfileError) as err:
        open_profile(folder, reader)
    message = str(err.value)
    assert FILE_NAME in message
    expected = {
        "truncated": "not a readable dice profile",
        "garbage": "not a readable dice profile",
        "empty": "not a readable dice profile",
        "newer": "newer scorer",
        "labels": "damaged",
        "trials": "trials of the set's size",
        "seen": "trials' dice",
    }[damage]
    assert expected in message


def test_given_no_profile_when_opened_then_a_clear_error_unless_created(reader, tmp_path):
    with pytest.raises(ProfileError, match="no dice profile"):
        open_profile(tmp_path / "nothing", reader)
    fresh = open_profile(tmp_path / "nothing", reader, create=True)
    assert len(fresh) == 0 and fresh.name == "nothing"


def test_given_a_pip_set_when_taught_card_labels_then_refused_and_nothing_added(reader):
    # given a set of pip dice
    profile = taught(reader)
    image, dice = logo_throw([2, 3], 50)
    cards = [TaughtDie(d.centre, d.side, face_class("card", 3), False) for d in dice]
    # when taught card faces, then refused by name, and the set is unchanged
    with pytest.raises(ProfileError, match="holds pips dice"):
        teach_dice(reader, profile, image, cards, "throw 50")
    assert len(profile) == 12 and "throw 50" not in profile.sources()


def test_given_many_throws_of_one_face_when_taught_then_kept_within_the_limit(reader):
    # given more crops of one face than a profile keeps, a few of them corrections
    profile = DiceProfile("ones")
    image, dice = logo_throw([1] * 5, 60)
    for throw in range(MAX_PER_FACE // 5 + 3):
        fixed = [TaughtDie(d.centre, d.side, d.label, throw == 0) for d in dice]
        teach_dice(reader, profile, image, fixed, f"throw {throw}")
    # then it keeps MAX_PER_FACE of them, the corrections among them
    assert profile.counts() == {0: MAX_PER_FACE}
    assert "throw 0" in profile.sources()
    assert len(profile._features) == 4 * MAX_PER_FACE


def test_given_a_labelled_set_when_taught_and_evaluated_from_the_command_line_then_read_right(
    tmp_path, capsys
):
    # given a YOLO set of the logo dice: 2 photos to teach, 4 to read
    root = tmp_path / "logo-set"
    (root / "images" / "test").mkdir(parents=True)
    (root / "labels" / "test").mkdir(parents=True)
    (root / "data.yaml").write_text("names: {0: 1, 1: 2, 2: 3, 3: 4, 4: 5, 5: 6}\nbox: die\n")
    for i, seed in enumerate((10, 11, 20, 21, 22, 23)):
        values = [6, 1, 6, 3, 5, 2] if i < 2 else [6, 4, 6, 2, 1]
        image, dice = logo_throw(values, seed)
        cv2.imwrite(str(root / "images" / "test" / f"p{i}.png"), image)
        lines = [
            f"{d.label} {d.centre[0] / 640} {d.centre[1] / 640} {d.side / 640} {d.side / 640}"
            for d in dice
        ]
        (root / "labels" / "test" / f"p{i}.txt").write_text("\n".join(lines) + "\n")
    profile = tmp_path / "profile"
    # when the first two photos are taught and the rest read with and without the profile
    assert (
        main(["teach", str(root), "--split", "test", "--photos", "2", "--profile", str(profile)])
        == 0
    )
    taught_line = capsys.readouterr().out
    main(["eval", str(root), "--skip", "2", "--json"])
    untaught = json.loads(capsys.readouterr().out)
    main(["eval", str(root), "--skip", "2", "--json", "--profile", str(profile)])
    with_profile = json.loads(capsys.readouterr().out)
    # then teaching said what it saw, and the taught set reads every die right
    assert "taught 12 dice from 2 photos" in taught_line and "6 x4" in taught_line
    assert "its own look: " in taught_line and " windows of 2 photos, " in taught_line
    assert "how sure: " in taught_line
    assert untaught["per_die"] < 0.9
    assert with_profile["per_die"] == 1.0 and with_profile["photos"] == 4
    # and card labels are refused for this pip set, with the profile left as it was
    (root / "data.yaml").write_text("names: {0: 9, 1: 10, 2: J, 3: Q, 4: K, 5: A}\nbox: die\n")
    before = (profile / FILE_NAME).read_bytes()
    assert main(["teach", str(root), "--split", "test", "--profile", str(profile)]) == 2
    assert "holds pips dice" in capsys.readouterr().err
    assert (profile / FILE_NAME).read_bytes() == before
    assert zipfile.is_zipfile(profile / FILE_NAME)


def test_given_a_face_network_exported_under_other_names_when_taught_then_the_same_features(
    reader, tmp_path
):
    # given the committed networks, the face network's layers renamed as a retrained one
    # may name them ("net/features" -> "net/layers_x": same length, so the file stays
    # valid), its output of features kept
    for name in ("finder.onnx", "courts.onnx"):
        (tmp_path / name).write_bytes((default_model_dir() / name).read_bytes())
    faces = (default_model_dir() / "faces.onnx").read_bytes()
    assert b"/net/features/features.11/Flatten" in faces
    (tmp_path / "faces.onnx").write_bytes(faces.replace(b"net/features", b"net/layers_x"))
    renamed = Reader(tmp_path)
    image, dice = logo_throw([6, 1, 6, 3, 5, 2], 10)
    crops = [cv2.resize(image[:48, :48], (48, 48)), cv2.resize(image[100:160, 100:160], (48, 48))]
    # when crops are described for a profile, and a throw is taught
    features, probs = renamed.embed(crops)
    profile = DiceProfile("renamed")
    teach_dice(renamed, profile, image, dice, "throw 10")
    # then the features are the committed network's, and the profile holds the throw
    want_features, want_probs = reader.embed(crops)
    np.testing.assert_allclose(features, want_features, atol=1e-5)
    np.testing.assert_allclose(probs, want_probs, atol=1e-6)
    assert len(profile) == len(dice)


def test_given_a_face_network_without_its_features_output_when_taught_then_classic_or_a_message(
    reader, tmp_path
):
    # given a face network exported before its features were an output (every name of
    # "features" changed, the outputs' too, and its map by quarters left out)
    for name in ("finder.onnx", "courts.onnx"):
        (tmp_path / name).write_bytes((default_model_dir() / name).read_bytes())
    faces = (default_model_dir() / "faces.onnx").read_bytes()
    assert GRID.encode() in faces
    old = faces.replace(GRID.encode(), b"gxid").replace(b"features", b"layers_x")
    (tmp_path / "faces.onnx").write_bytes(old)
    crops = [np.full((48, 48, 3), 200, np.uint8)]
    committed = load_net(default_model_dir() / "faces.onnx")
    committed.setInput(cv2.dnn.blobFromImages(crops, 1.0 / 255.0))
    pooled = committed.forward(FEATURES)
    # when crops are described for a profile
    try:
        features, _ = Reader(tmp_path).embed(crops)
    except ScorerError as err:
        # then OpenCV's new engine (5.1 on) says why it cannot teach with it
        assert "features" in str(err) and cv2.__version__ in str(err)
        assert not hasattr(cv2.dnn, "ENGINE_CLASSIC") and cv2.__version__ >= "5"
    else:
        # or the classic engine reads the inner layer, the committed network's pooled features
        np.testing.assert_allclose(features, pooled, atol=1e-5)


def test_given_the_committed_face_network_when_crops_are_described_then_its_map_by_quarters(
    reader,
):
    # given the committed face network and crops of drawn dice
    image, _ = logo_throw([6, 1, 6, 3, 5, 2], 10)
    crops = [cv2.resize(image[y : y + 60, x : x + 60], (48, 48)) for x, y in ((0, 0), (90, 110))]
    # when crops are described for a profile
    features, _ = reader.embed(crops)
    # then the features are the pooled features the network's last layer reads, then the
    # last map's 128 channels averaged over each quarter of the crop: together the pooled
    # ones, apart where the pips lie
    net = load_net(default_model_dir() / "faces.onnx")
    net.setInput(cv2.dnn.blobFromImages(crops, 1.0 / 255.0))
    pooled = net.forward(FEATURES)
    quarters = features[:, POOLED:].reshape(2, POOLED, 4)
    assert features.shape == (2, 5 * POOLED)
    np.testing.assert_allclose(features[:, :POOLED], pooled, atol=1e-5)
    np.testing.assert_allclose(quarters.mean(2), pooled, atol=1e-5)
    assert np.abs(quarters - quarters.mean(2, keepdims=True)).max() > 0.1


def test_given_a_profile_of_the_quarters_alone_when_loaded_then_described_again(reader, tmp_path):
    # given a profile taught by the scorer that kept only the quarters (512 numbers a
    # crop) of the networks of now, and fingerprinted them by their files alone
    profile = taught(reader)
    want = profile.rescore(*reader.embed([e.crop for e in profile.examples]))
    profile._features = profile._features[:, POOLED:].copy()
    profile.model = model_digest(default_model_dir() / "faces.onnx", layout="")
    profile.save(tmp_path / "quarters")
    # when loaded for this reader
    again = open_profile(tmp_path / "quarters", reader)
    # then its crops are described again, the pooled features beside the quarters
    assert again._features.shape[1] == 5 * POOLED
    np.testing.assert_allclose(
        again.rescore(*reader.embed([e.crop for e in again.examples])), want, atol=1e-6
    )


def test_given_a_profile_of_pooled_features_when_loaded_then_described_again_by_quarters(
    reader, tmp_path
):
    # given a profile taught before profiles compared the map by quarters: 128 pooled
    # features a crop, and the digest of the face network file of then
    profile = taught(reader)
    want = profile.rescore(*reader.embed([e.crop for e in profile.examples]))
    profile.model = "0123456789abcdef"
    profile._features = profile._features[:, :128].copy()
    profile.save(tmp_path / "old")
    # when loaded for this reader
    again = open_profile(tmp_path / "old", reader)
    # then its crops are described again, by quarters, and read as the profile taught now
    assert again._features.shape[1] == 5 * POOLED and again.model == reader.faces_digest("pips")
    got = again.rescore(*reader.embed([e.crop for e in again.examples]))
    np.testing.assert_allclose(got, want, atol=1e-6)


def _embedding(top: int, sure: float, background: float = 0.0):
    """A stand-in face network: every crop the same features, read as ``top`` at ``sure``."""
    features = np.zeros(128, np.float32)
    features[0] = 1.0

    def embed(crops, kind=None):
        probs = np.full((len(crops), 13), (1.0 - sure - background) / 11, np.float32)
        probs[:, top] = sure
        probs[:, 12] = background
        return np.tile(features, (len(crops), 1)), probs

    return embed, features


def _taught_ones() -> DiceProfile:
    """A set taught three ones from three photos, its gate opened as wide as it goes."""
    embed, _ = _embedding(face_class("pips", 1), 0.9)
    profile = DiceProfile("ones")
    crop = np.zeros((48, 48, 3), np.uint8)
    for n in range(3):
        profile.teach([crop], [face_class("pips", 1)], f"photo {n}", embed)
    profile.near = 0.7
    return profile


def test_given_a_set_taught_only_ones_when_a_sure_four_comes_near_then_it_stays_a_four():
    # given a set that has shown only ones, and a die the network surely reads as a four
    # whose features are as near the taught ones as they come
    profile = _taught_ones()
    embed, features = _embedding(face_class("pips", 4), 0.95)
    _, probs = embed([None])
    # when the set's vote is mixed in
    read = profile.rescore(features[None], probs)
    # then it stays a four: the set never showed a four, so it cannot vote one away
    assert read[0].argmax() == face_class("pips", 4) and read[0, face_class("pips", 4)] > 0.9


def test_given_a_set_of_dice_when_a_spot_the_network_calls_no_die_comes_near_then_still_no_die():
    # given a set taught ones, and a spot the network takes for no die (a bottle cap)
    profile = _taught_ones()
    embed, features = _embedding(face_class("pips", 1), 0.05, background=0.9)
    _, probs = embed([None])
    # when the set's vote is mixed in
    read = profile.rescore(features[None], probs)
    # then it is still no die: taught dice say which face, not whether a spot is a die
    assert read[0, 12] >= 0.9 - 1e-6


@pytest.mark.parametrize(
    ("chance", "twin", "set_aside"),
    [
        (0.001, False, True),  # neither the network nor a taught crop backs the label
        (0.3, False, False),  # the network gives it a chance: kept
        (0.001, True, False),  # a second crop of that face, close by, backs it: kept
    ],
)
def test_given_a_tap_nothing_backs_when_the_profile_weighs_its_crops_then_it_waits(
    chance, twin, set_aside
):
    # given two taught threes alike, and a crop taught as a five that the network, unsure
    # of every face, gives ``chance`` of being a five (and a second five close to it, or not)
    three, five = face_class("pips", 3), face_class("pips", 5)
    labels = np.array([three, three, five, five if twin else three])
    sims = np.full((4, 4), 0.3)
    sims[0, 1] = sims[1, 0] = 0.95
    if twin:
        sims[2, 3] = sims[3, 2] = 0.95
    np.fill_diagonal(sims, -1.0)
    probs = np.full((4, 13), 0.01)
    probs[:, three] = 0.5
    probs[2, five] = chance
    probs[3, five] = 0.5 if twin else 0.01
    # when the profile looks for mistaken taps
    out = doubted(sims, labels, probs)
    # then the five is set aside only when nothing backs it, and the threes never are
    assert bool(out[2]) is set_aside
    assert not out[:2].any()


def _features(*hot: tuple[int, float]) -> np.ndarray:
    """A stand-in crop's features: unit weight on the given dimensions."""
    features = np.zeros(128, np.float32)
    for index, weight in hot:
        features[index] = weight
    return features


def _fixed_embedding(table: dict[int, np.ndarray], sure: float = 0.9):
    """A stand-in face network that describes crop ``k`` (a crop filled with k) by
    ``table[k]`` and reads it as a one at ``sure``."""

    def embed(crops, kind=None):
        features = np.stack([table[int(c[0, 0, 0])] for c in crops])
        probs = np.full((len(crops), 13), (1.0 - sure) / 12, np.float32)
        probs[:, face_class("pips", 1)] = sure
        return features, probs

    return embed


def _crop(k: int) -> np.ndarray:
    return np.full((48, 48, 3), k, np.uint8)


def test_given_a_spot_taught_as_no_die_when_one_like_it_comes_then_it_is_no_die():
    # given a set taught two ones and a token the reader took for a one, named no die
    one = face_class("pips", 1)
    table = {1: _features((0, 1.0)), 2: _features((0, 0.9), (1, 0.44)), 3: _features((1, 1.0))}
    embed = _fixed_embedding(table)
    profile = DiceProfile("tokens")
    profile.teach([_crop(1), _crop(2)], [one, one], "throw 1", embed, sides=[40.0, 40.0])
    profile.teach([_crop(3)], [BACKGROUND], "throw 2", embed, [True], sides=[30.0])
    # when the token comes back as big, and when a one comes back
    probs = np.full((2, 13), 0.1 / 12)
    probs[:, one] = 0.9
    read = profile.rescore(np.stack([table[3], table[1]]), probs, np.array([32.0, 40.0]))
    # then the token is no die, and the one, nearer a taught one, still a one
    assert read[0].argmax() == BACKGROUND and read[0, BACKGROUND] == 1.0
    assert read[1].argmax() == one
    # but a spot like it four times as big (a die the finder sized wrong), or one whose
    # size is not known, is read as the network reads it
    assert profile.rescore(table[3][None], probs[:1], np.array([120.0]))[0].argmax() == one
    assert profile.rescore(table[3][None], probs[:1])[0].argmax() == one
    # and "no die" is a taught crop like any other: undo takes it back
    profile.forget("throw 2")
    assert profile.rescore(table[3][None], probs[:1], np.array([32.0]))[0].argmax() == one


def test_given_a_spot_taught_as_no_die_when_a_die_between_comes_then_it_stays_a_die():
    # given a set taught a one, and no die taught nearly as like that one as like itself
    one = face_class("pips", 1)
    table = {1: _features((0, 1.0)), 3: _features((0, 0.6), (1, 0.8))}
    embed = _fixed_embedding(table)
    profile = DiceProfile("close")
    profile.teach([_crop(1)], [one], "throw 1", embed, sides=[40.0])
    profile.teach([_crop(3)], [BACKGROUND], "throw 2", embed, [True], sides=[40.0])
    # when a crop comes as like the taught no die as JUNK_NEAR, but nearly as like the one
    between = _unit_rows(table[1] + 1.2 * table[3])[0]
    probs = np.full((1, 13), 0.1 / 12)
    probs[0, one] = 0.9
    read = profile.rescore(between[None], probs, np.array([40.0]))
    # then it stays as the network reads it: no die only well clear of every taught face
    assert read[0].argmax() == one


def _unit_rows(rows: np.ndarray) -> np.ndarray:
    rows = np.atleast_2d(rows).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_given_spots_taught_as_no_die_when_the_vote_is_weighed_then_they_change_nothing():
    # given the logo set, and the same set with two crops of felt taught as no die
    reader = Reader()
    plain = taught(reader)
    with_junk = taught(reader)
    image = felt(seed=40)
    felt_crops = [
        np.ascontiguousarray(image[10:58, 10:58]),
        np.ascontiguousarray(image[300:348, 500:548]),
    ]
    with_junk.teach(felt_crops, [BACKGROUND, BACKGROUND], "felt", reader.embed, [True, True])
    # when their votes are calibrated
    # then the gate and the crops set aside are the same: no die never votes on a face
    assert with_junk.near == plain.near
    assert not with_junk._doubted[-2:].any()
    assert with_junk.counts()[BACKGROUND] == 2


def test_given_a_labelled_photo_when_the_reader_finds_a_spot_no_label_names_then_taught_no_die(
    reader,
):
    # given a photo of the logo set with a white square tile beside its dice, labelled dice
    # only (a round token would be dropped by its outline: test_vision_outline.py)
    image, dice = logo_throw([3, 4], seed=21)
    cv2.rectangle(image, (540, 70), (580, 110), (235, 235, 235), -1, cv2.LINE_AA)
    cv2.circle(image, (560, 90), 7, (30, 30, 30), -1, cv2.LINE_AA)
    photo = LabelledPhoto(
        Path("tile.jpg"),
        tuple(
            LabelledDie("pips", d.label + 1, (d.centre[0] - 30, d.centre[1] - 30, 60, 60))
            for d in dice
        ),
        "die",
    )
    reading = reader.read(image)
    _, _, extra = match(photo, reading)
    # when the photo's dice are named as the table would learn them
    named = named_dice(reader, image, photo)
    # then every spot the reader found where no die is labelled is taught as no die
    assert sum(d.label == BACKGROUND for d in named) == len(extra)
    assert extra, "the tile should read as a die untaught (a one)"


def test_given_a_spot_named_no_die_on_a_die_when_taught_then_left_out(reader):
    # given a throw of two dice, and a spot named no die on the first die's edge
    image, dice = logo_throw([3, 4], seed=22)
    first = dice[0]
    edge = TaughtDie(
        (first.centre[0] + first.side * 0.4, first.centre[1]), first.side, BACKGROUND, True
    )
    far = TaughtDie((600.0, 80.0), first.side, BACKGROUND, True)
    profile = DiceProfile("edges")
    # when taught
    taught_count = teach_dice(reader, profile, image, [*dice, edge, far], "throw")
    # then the spot on the die is left out (its crop shows the die), the one clear of it kept
    assert taught_count == 3
    assert profile.counts()[BACKGROUND] == 1


# ------------------------------------------------------------------ how sure a set may be


def _seen(sure: float, right: int, wrong: int) -> dict[str, list[list[float]]]:
    rows = [[sure, 1.0]] * right + [[sure, 0.0]] * wrong
    return {"sized": rows, "unsized": rows}


def test_given_trials_that_read_sure_dice_wrong_when_weighed_then_the_set_is_less_sure(reader):
    # given a taught set whose trials read 24 dice at 0.97, a quarter of them wrong
    profile = taught(reader)
    for source in ("throw 10", "throw 11"):
        profile.record(source, {"sized": 5, "unsized": 5}, _seen(0.97, 9, 3))
    # then it tells its readings less surely, a sure 0.97 now under 0.8
    assert profile.temperature > 1.0
    assert float(sured(0.97, profile.temperature)) < 0.8
    # and a trial of it reads as the networks say
    assert profile.tried(True, "throw 10").temperature == 1.0
    # when the trials had read them all right, it is as sure as its networks
    for source in ("throw 10", "throw 11"):
        profile.record(source, {"sized": 5, "unsized": 5}, _seen(0.97, 12, 0))
    assert profile.temperature == 1.0


def test_given_a_trial_of_odd_dice_when_recorded_then_refused_by_what_is_wrong(reader):
    profile = taught(reader)
    with pytest.raises(ProfileError, match="right 0 or 1"):
        profile.record("throw 10", {"sized": 1, "unsized": 1}, {"sized": [[0.9, 2]]})
    assert profile.seen == {} and profile.trials == {}


def test_given_few_dice_tried_when_weighed_then_no_temperature(reader):
    # given trials of fewer than SURENESS_DICE dice, every one read wrong
    profile = taught(reader)
    profile.record("throw 10", {"sized": 0, "unsized": 0}, _seen(0.99, 0, SURENESS_DICE - 1))
    # then the set says nothing yet of how sure it may be
    assert profile.temperature == 1.0


def test_given_a_sureness_when_saved_loaded_or_undone_then_kept_or_gone(reader, tmp_path):
    # given a set that has learnt to be less sure, saved and loaded again
    profile = taught(reader)
    for source in ("throw 10", "throw 11"):
        profile.record(source, {"sized": 5, "unsized": 5}, _seen(0.97, 9, 3))
    profile.save(tmp_path / "logo")
    again = open_profile(tmp_path / "logo", reader)
    # then it is as sure as before
    assert again.seen == profile.seen and again.temperature == profile.temperature > 1.0
    # when one throw is undone, its trial's dice go with it; with both, the sureness
    again.forget("throw 11")
    assert set(again.seen) == {"throw 10"}
    again.forget("throw 10")
    assert again.seen == {} and again.temperature == 1.0


def test_given_a_less_sure_set_when_it_reads_then_the_same_faces_less_surely(reader, monkeypatch):
    # given a taught set and a throw it reads
    profile = taught(reader)
    image, _ = logo_throw([6, 4, 6, 2, 1], 23)
    reader.profile = profile
    sure = reader.read(image)
    # when its trials have found its readings surer than they were right
    monkeypatch.setattr(DiceProfile, "temperature", property(lambda self: 2.0))
    told = reader.read(image)
    reader.profile = None
    # then it reads the same faces where they lie, each less surely (as ``sured`` says)
    assert told.values == sure.values and [d.box for d in told.dice] == [d.box for d in sure.dice]
    for a, b in zip(sure.dice, told.dice, strict=True):
        assert b.confidence == pytest.approx(float(sured(a.confidence, 2.0)))
        assert b.confidence <= a.confidence


@pytest.mark.parametrize(("gate", "named"), [(NEARS[-1], "Q"), (NEARS[0], "J")])
def test_given_a_court_the_set_reads_surely_when_the_court_network_disagrees_then_it_has_one_say(
    reader, monkeypatch, gate, named
):
    # given a die the set reads as a jack (0.97) that the court network takes for a queen,
    # the set's vote shut (it reads as its networks) or open
    profile = DiceProfile("courts")
    profile.near = gate
    monkeypatch.setattr(reader, "profile", profile)
    monkeypatch.setattr(
        reader, "_run_courts", lambda crops: np.tile([0.05, 0.9, 0.05], (len(crops), 1))
    )
    probs = np.zeros((1, 13))
    probs[0, COURTS] = [0.97, 0.02, 0.01]
    image = np.full((100, 100, 3), 128, np.uint8)
    # when the court network shares out the courts' probability
    centres, sides, cards = np.array([[50.0, 50.0]]), np.array([30.0]), face_mask("cards")
    out = reader._name_courts(image, centres, sides, probs, [0.0], cards)
    # then it decides alone where the set's vote has no say, and is one more say
    # (multiplied with the set's reading) where it has
    assert out[0].argmax() == face_class("card", CARD_RANKS.index(named) + 1)
    assert out[0, COURTS].sum() == pytest.approx(1.0)
