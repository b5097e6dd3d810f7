"""Poker dice printing 9 10 В Д К Т read by face networks of their own.

``faces-cards-cyrillic.onnx`` and ``faces-cards-2-cyrillic.onnx`` (``make train``) read the
poker dice of a reader told they print Cyrillic (``Reader.ranks``: a set's letters, or
``--ranks``); their courts are theirs to name. Latin poker dice, pip and mixed games read
as before, and a folder without them reads Cyrillic dice with the Latin pair.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scorer.dice_sets import DiceSets
from scorer.errors import ScorerError
from scorer.render.scene import write_dataset
from scorer.vision import reader as reader_module
from scorer.vision.labelled import load_split
from scorer.vision.reader import CARD_FACES, CARD_FACES_TOO, Reader, default_model_dir
from scorer.vision.script import NETWORKS
from scorer.vision.teaching import teach_photos

OWN = NETWORKS["cyrillic"]
pytestmark = pytest.mark.skipif(
    not all((default_model_dir() / n).is_file() for n in OWN),
    reason="no Cyrillic poker-dice networks: run `make train`",
)


@pytest.fixture(scope="module")
def throws(tmp_path_factory) -> list:
    """Five throws of held-out card art printing Cyrillic, as images and labels."""
    root = tmp_path_factory.mktemp("cyrillic")
    write_dataset(root, 5, 5, kind="cards", held_out=True, ranks="cyrillic")
    return [(cv2.imread(str(p.path)), p) for p in load_split(root, "test")]


def networks_run(reader: Reader, monkeypatch, image: np.ndarray, faces: str) -> list:
    """The networks that ran on the crops of one reading of ``image``."""
    used: list = []
    real = reader_module.run_crops
    monkeypatch.setattr(
        reader_module, "run_crops", lambda net, crops: used.append(net) or real(net, crops)
    )
    reader.read(image, faces=faces)
    monkeypatch.setattr(reader_module, "run_crops", real)
    return used


def test_given_cyrillic_letters_when_poker_dice_are_read_then_their_own_networks_name_them(
    throws, monkeypatch
):
    # given a reader told its poker dice print Cyrillic, and one that is not
    told, untold = Reader(ranks="cyrillic"), Reader()
    assert told.card_files == OWN and told.own_script
    assert untold.card_files == (CARD_FACES, CARD_FACES_TOO) and not untold.own_script
    # when each reads the same throws of poker dice
    ran_told = [n for image, _ in throws for n in networks_run(told, monkeypatch, image, "cards")]
    ran_untold = [
        n for image, _ in throws for n in networks_run(untold, monkeypatch, image, "cards")
    ]
    # then the told reader ran its script's own pair, never the Latin pair nor the courts
    assert set(told.card_nets) == set(OWN)
    assert all(any(n is told.card_nets[f] for n in ran_told) for f in OWN)
    assert all(n is not told._courts for n in ran_told)
    # and the untold one the Latin pair, with the court network looking at its courts
    assert set(untold.card_nets) == {CARD_FACES, CARD_FACES_TOO}
    assert any(n is untold._courts for n in ran_untold)
    # and each die the told reader names, it names in the labels' ranks more often
    right = {
        name: sum(
            sorted(d.value for d in r.read(image, faces="cards").dice)
            == sorted(d.value for d in photo.dice)
            for image, photo in throws
        )
        for name, r in (("told", told), ("untold", untold))
    }
    assert right["told"] > right["untold"]


def test_given_pip_or_mixed_games_then_the_letters_change_no_reading(throws):
    # given readers told Latin and Cyrillic letters
    latin, cyrillic = Reader(), Reader(ranks="cyrillic")
    for image, _ in throws[:3]:
        for faces in ("pips", "any"):
            # when a pip game or a mixed tray reads the same photo
            a, b = latin.read(image, faces=faces), cyrillic.read(image, faces=faces)
            # then the letters changed nothing: only poker dice games have networks of a script
            assert [(d.value, d.face, d.confidence, d.box) for d in a.dice] == [
                (d.value, d.face, d.confidence, d.box) for d in b.dice
            ]


def test_given_a_folder_without_the_scripts_networks_then_the_latin_pair_and_the_courts(
    tmp_path, throws, monkeypatch
):
    # given the networks' folder without the Cyrillic pair
    for path in default_model_dir().glob("*.onnx"):
        if path.name not in OWN:
            (tmp_path / path.name).symlink_to(path)
    reader = Reader(tmp_path, ranks="cyrillic")
    # when Cyrillic poker dice are read there
    ran = [n for image, _ in throws for n in networks_run(reader, monkeypatch, image, "cards")]
    # then the Latin pair reads them, and the court network has its say as for Latin dice
    assert reader.card_files == (CARD_FACES, CARD_FACES_TOO) and not reader.own_script
    assert any(n is reader._courts for n in ran)


def test_given_unknown_letters_then_refused_by_name():
    with pytest.raises(ScorerError, match="ranks are one of latin, cyrillic, not 'greek'"):
        Reader(ranks="greek")


def test_given_a_taught_set_when_its_letters_change_then_its_crops_are_described_again(
    tmp_path, throws
):
    # given a set of poker dice taught as Latin dice
    sets = DiceSets(tmp_path)
    dice = sets.create("poker dice")
    reader = Reader()
    own = sets.editable(dice, reader)
    teach_photos(reader, own, [photo for _, photo in throws[:2]], "lesson")
    reader.profile = None
    sets.save(dice, own)
    latin_model = sets.profile(dice, reader).model
    # when the players say its dice print Cyrillic, and the table reads with its letters
    sets.set_ranks(dice, "cyrillic")
    reader.ranks = "cyrillic"
    again = sets.profile(dice, reader)
    # then the same crops were described again, by the Cyrillic networks
    assert again is not own and again.model == reader.faces_digest("card") != latin_model
    assert len(again) == len(own)
