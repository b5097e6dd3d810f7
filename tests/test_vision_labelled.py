"""Reading YOLO sets: class names to faces, box kinds, splits, bad folders."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from scorer.vision.labelled import BadDataset, load_split, read_info


def make_set(root: Path, yaml: str, labels: str = "0 0.5 0.5 0.1 0.2\n") -> Path:
    (root / "images" / "test").mkdir(parents=True)
    (root / "labels" / "test").mkdir(parents=True)
    (root / "data.yaml").write_text(yaml)
    cv2.imwrite(str(root / "images" / "test" / "a.png"), np.zeros((100, 200, 3), np.uint8))
    (root / "labels" / "test" / "a.txt").write_text(labels)
    return root


def test_given_inline_names_when_read_then_pips_and_box_kind(tmp_path):
    make_set(tmp_path, "names: {0: 1, 1: 2}   # comment\nbox: pips\n")
    info = read_info(tmp_path)
    assert info.classes == {0: ("pips", 1), 1: ("pips", 2)}
    assert info.box_kind == "pips"


def test_given_block_names_with_card_ranks_when_read_then_cards(tmp_path):
    # given the renderer's layout: 0..5 pips, 6..11 card ranks 9..A
    text = "names:\n" + "".join(
        f"  {i}: '{n}'\n"
        for i, n in enumerate(["1", "2", "3", "4", "5", "6", "9", "10", "J", "Q", "K", "A"])
    )
    root = make_set(tmp_path, text + "box: die\n", labels="8 0.25 0.5 0.1 0.2\n")
    photo = load_split(root, "test")[0]
    die = photo.dice[0]
    assert (die.face, die.value) == ("card", 3)
    assert die.box == pytest.approx((40.0, 40.0, 20.0, 20.0))
    assert die.centre == pytest.approx((50.0, 50.0))


def test_given_a_folder_without_data_yaml_when_loaded_then_a_clear_error(tmp_path):
    with pytest.raises(BadDataset, match=r"data\.yaml"):
        load_split(tmp_path, "test")


def test_given_a_missing_split_when_loaded_then_the_error_names_it(tmp_path):
    make_set(tmp_path, "names: {0: 1}\nbox: die\n")
    with pytest.raises(BadDataset, match="train"):
        load_split(tmp_path, "train")
