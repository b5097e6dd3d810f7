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
from scorer.vision.profile import DiceProfile, model_digest
from scorer.vision.reader import CARD_FACES, Reader, default_model_dir, face_crop
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
        reader_module, "run_crops", lambda net, crops: used.append(net) or real(net, crops)
    )
    # when a game of poker dice reads a throw
    reader.read(throw, faces="cards")
    # then every die was named by the card network (the court network aside)
    named = [n for n in used if n is not reader._courts]
    assert named and all(n is reader._card_faces for n in named)
    # and a pip game and a mixed tray name them with the general one
    for faces in ("pips", "any"):
        used.clear()
        reader.read(throw, faces=faces)
        named = [n for n in used if n is not reader._courts]
        assert named and all(n is reader._faces for n in named)


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
    # and a profile taught before the card network came is described again (its digest moved)
    assert reader.faces_digest() != model_digest(tmp_path / "faces.onnx")
