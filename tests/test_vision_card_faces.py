"""A game of poker dice reads its dice with the poker dice's own face network, where the
model folder has one (``faces-cards.onnx``); pip games and mixed trays keep the general one,
and a taught set of poker dice keeps that network's features."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from scorer.dice import face_class
from scorer.vision import reader as reader_module
from scorer.vision.crop import face_crop
from scorer.vision.profile import DiceProfile, model_digest
from scorer.vision.reader import (
    CARD_FACES,
    CARD_FACES_TOO,
    Reader,
    card_faces_named,
    default_model_dir,
    face_mask,
)
from tests.test_vision_reader import draw_die, felt

pytestmark = pytest.mark.skipif(
    not (default_model_dir() / "faces.onnx").is_file(),
    reason="vision_models/*.onnx not built: run `make train`",
)


def models_with_card_faces(folder: Path) -> Path:
    """The committed networks, with a copy of the face network standing in as the card one."""
    for name in ("finder.onnx", "faces.onnx", "courts.onnx"):
        shutil.copy(default_model_dir() / name, folder / name)
    source = default_model_dir() / CARD_FACES
    shutil.copy(source if source.is_file() else folder / "faces.onnx", folder / CARD_FACES)
    return folder


@pytest.fixture
def throw() -> np.ndarray:
    image = felt()
    draw_die(image, (220, 320), 5, side=70)
    draw_die(image, (420, 300), 2, side=70)
    return image


def test_given_a_card_network_when_each_game_reads_then_only_poker_dice_use_it(
    tmp_path, monkeypatch, throw
):
    # given a model folder holding a face network for poker dice
    reader = Reader(models_with_card_faces(tmp_path))
    assert reader._card_faces is not None
    used = []
    real = reader_module.run_crops
    monkeypatch.setattr(
        reader_module,
        "run_crops",
        lambda net, crops: used.append((net, len(crops))) or real(net, crops),
    )
    # when a game of poker dice reads a throw
    reader.read(throw, faces="cards")
    # then the card network named every crop the general one judged (die or no die)
    cards = [n for net, n in used if net is reader._card_faces]
    general = [n for net, n in used if net is reader._faces]
    assert cards and cards == general
    # and a pip game and a mixed tray never run it
    for faces in ("pips", "any"):
        used.clear()
        reader.read(throw, faces=faces)
        assert used and all(net in (reader._faces, reader._courts) for net, _ in used)


def test_given_both_networks_when_a_poker_die_is_named_then_faces_from_one_die_or_not_the_other():
    # given the general network's reading (a third "not a die") and the card network's
    # (sure of a king, with a little "not a die" of its own)
    general = np.full((1, 13), 0.0)
    general[0, face_class("card", 5)] = 2 / 3
    general[0, 12] = 1 / 3
    cards = np.full((1, 13), 0.0)
    cards[0, face_class("card", 5)] = 0.72
    cards[0, face_class("card", 4)] = 0.18
    cards[0, 12] = 0.1
    # when they are put together
    probs = card_faces_named(general, cards)
    # then the faces share the card network's odds, and "not a die" is the general one's
    assert probs[0, 12] == pytest.approx(1 / 3)
    assert probs[0, face_class("card", 5)] == pytest.approx(0.8 * 2 / 3)
    assert probs[0, face_class("card", 4)] == pytest.approx(0.2 * 2 / 3)
    assert probs.sum() == pytest.approx(1.0)


def test_given_both_networks_when_an_untaught_poker_die_is_named_then_die_or_not_from_both():
    # given the general network's reading (half "not a die": it never saw a 3D render's
    # poker die) and the card network's (sure of a king, with a little "not a die")
    general = np.full((1, 13), 0.0)
    general[0, face_class("card", 5)] = 0.5
    general[0, 12] = 0.5
    cards = np.full((1, 13), 0.0)
    cards[0, face_class("card", 5)] = 0.72
    cards[0, face_class("card", 4)] = 0.18
    cards[0, 12] = 0.1
    # when they are put together for a set no one taught
    probs = card_faces_named(general, cards, untaught=True)
    # then the faces share the card network's odds, and "not a die" is both networks' mean
    assert probs[0, 12] == pytest.approx(0.3)
    assert probs[0, face_class("card", 5)] == pytest.approx(0.8 * 0.7)
    assert probs[0, face_class("card", 4)] == pytest.approx(0.2 * 0.7)
    assert probs.sum() == pytest.approx(1.0)


def test_given_two_card_networks_when_a_poker_die_is_read_then_their_mean_names_its_face(
    tmp_path, monkeypatch, throw
):
    # given a model folder with a second poker-dice network beside the first, the first
    # sure of a king and the second leaning to a queen
    folder = models_with_card_faces(tmp_path)
    shutil.copy(folder / CARD_FACES, folder / CARD_FACES_TOO)
    reader = Reader(folder)
    first, second = reader._card_faces, reader._card_faces_too
    assert second is not None and second is not first
    king, queen = face_class("card", 5), face_class("card", 4)
    said = {id(first): {king: 0.9, queen: 0.1}, id(second): {king: 0.3, queen: 0.7}}
    real = reader_module.run_crops

    def run(net, crops):
        if id(net) not in said:
            return real(net, crops)
        out = np.zeros((len(crops), 13))
        for face, p in said[id(net)].items():
            out[:, face] = p
        return out

    monkeypatch.setattr(reader_module, "run_crops", run)
    crop = face_crop(throw, (220.0, 320.0), 70.0)
    # when a game of poker dice names the die untaught
    probs = reader._run_faces([crop], face_mask("cards"), taught=False)
    # then its faces are the two networks' mean, shared out of the general one's "a die"
    die = 1.0 - probs[0, 12]
    assert probs[0, king] == pytest.approx(0.6 * die)
    assert probs[0, queen] == pytest.approx(0.4 * die)
    # and a set of poker dice taught with the first network alone is described again
    (tmp_path / "alone").mkdir()
    alone = Reader(models_with_card_faces(tmp_path / "alone"))
    assert reader.faces_digest("card") != alone.faces_digest("card")


def test_given_no_card_network_when_poker_dice_are_read_then_the_general_one_names_them(
    tmp_path, monkeypatch, throw
):
    # given the model folder as `make train` left it before the card network existed
    for name in ("finder.onnx", "faces.onnx", "courts.onnx"):
        shutil.copy(default_model_dir() / name, tmp_path / name)
    reader = Reader(tmp_path)
    used = []
    real = reader_module.run_crops
    monkeypatch.setattr(
        reader_module, "run_crops", lambda net, crops: used.append(net) or real(net, crops)
    )
    # when a game of poker dice reads, then the one face network reads it
    reader.read(throw, faces="cards")
    assert reader._card_faces is None
    assert used and all(n in (reader._faces, reader._courts) for n in used)


def test_given_a_card_network_when_poker_dice_are_taught_then_their_features_are_its_own(
    tmp_path, monkeypatch, throw
):
    # given a reader with a card network, and a set of poker dice being taught
    reader = Reader(models_with_card_faces(tmp_path))
    asked = []
    real = reader.embed
    monkeypatch.setattr(
        reader, "embed", lambda crops, kind=None: asked.append(kind) or real(crops, kind)
    )
    crop = face_crop(throw, (220.0, 320.0), 70.0)
    profile = DiceProfile("poker dice")
    # when a die is taught as an ace
    profile.teach([crop], [face_class("card", 6)], "lesson 1", reader.embed)
    # then it was described by the card network, which the reader uses for "card" features
    assert asked == ["card"]
    assert reader._embedder("card") is reader._card_faces
    assert reader._embedder("") is reader._faces
    # and a set of poker dice taught before the card network came is described again (its
    # kind's digest moved), while a set of pip dice is not (its features are the general
    # network's alone)
    assert reader.faces_digest("card") != model_digest(tmp_path / "faces.onnx")
    assert reader.faces_digest("pips") == model_digest(tmp_path / "faces.onnx")


def test_given_a_table_of_pip_dice_when_read_and_taught_then_the_card_network_stays_unloaded(
    tmp_path, throw
):
    # given a reader whose model folder has a card network
    reader = Reader(models_with_card_faces(tmp_path))
    assert reader.has_card_faces
    # when pip dice are read and a set of them is taught, saved and loaded again
    reader.read(throw, faces="pips")
    profile = DiceProfile("white", model=reader.faces_digest())
    crop = face_crop(throw, (220.0, 320.0), 70.0)
    profile.teach([crop], [face_class("pips", 3)], "lesson 1", reader.embed)
    profile.save(tmp_path / "white")
    again = DiceProfile.load(tmp_path / "white", reader.embed, reader.faces_digest)
    # then the card network was never loaded (a pip table never holds it in memory)
    assert not reader.card_nets
    assert again.model == reader.faces_digest("pips") and len(again) == 1
    # when a game of poker dice reads, then it is loaded, once
    reader.read(throw, faces="cards")
    assert reader.card_nets["faces-cards.onnx"] is reader._card_faces is not None
