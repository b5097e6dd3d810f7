"""How far the reader's confidence is from issue 23's target, and what needs no training.

Target, on both real test splits together: at most 1 confident die wrong in 500 confident
ones, at most 3 % of dice unsure. Reads the train and test splits of tray-multicolor and
webcam-white from ../shared once (``--faces pips``, as a game of pip dice reads them),
keeps every die's final probabilities, and prints, for each split, the confident errors
and the unsure share under: the thresholds 0.5-0.99; a temperature T on the final
probabilities (calibration: p ** (1 / T), renormalised) with those thresholds; and two
rules for the unsure flag (a die cut by the frame's edge, a die under 0.6 of a touching
neighbour's side: a side face). Choose on the train splits (the networks fitted 7/8 of
them, so they flatter), report the test splits.

    .venv/bin/python benchmarks/vision_confidence.py
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from scorer.dice import face_class
from scorer.vision import Reader
from scorer.vision import reader as reader_module
from scorer.vision.evaluation import match
from scorer.vision.labelled import load_split

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "datasets"
SETS = ("tray-multicolor", "webcam-white")
THRESHOLDS = (0.5, 0.7, 0.8, 0.9, 0.95, 0.99)
TEMPERATURES = (0.7, 1.0, 1.5, 2.0)


@dataclass
class Seen:
    """One die as read: its probabilities, its label's class (-1: no label), and where."""

    probs: np.ndarray
    label: int
    at_edge: bool
    side_face: bool


def read_split(reader: Reader, split: str) -> list[Seen]:
    """Every die the reader reports on one split of both sets, with its probabilities."""
    probs: dict[tuple[int, ...], np.ndarray] = {}
    plain = reader_module._die

    def keep(spot, shape):  # the reader's own Die, with its probabilities noted by box
        die = plain(spot, shape)
        probs[die.box] = spot.probs
        return die

    reader_module._die = keep
    seen = []
    try:
        for name in SETS:
            for photo in load_split(SHARED / name, split):
                image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
                probs.clear()
                reading = reader.read(image, faces="pips")
                pairs, _, _ = match(photo, reading)
                labels = {j: i for i, j in pairs}
                height, width = image.shape[:2]
                for j, die in enumerate(reading.dice):
                    label = photo.dice[labels[j]] if j in labels else None
                    cls = face_class(label.face, label.value) if label else -1
                    seen.append(
                        Seen(
                            probs[die.box],
                            cls,
                            cut_by_edge(die.box, width, height),
                            side_face(die.box, [d.box for d in reading.dice]),
                        )
                    )
    finally:
        reader_module._die = plain
    return seen


def cut_by_edge(box: tuple[int, int, int, int], width: int, height: int) -> bool:
    """Whether the die's centre lies within half its side of the frame's edge."""
    x, y, w, h = box
    cx, cy, side = x + w / 2, y + h / 2, max(w, h)
    return min(cx, cy, width - cx, height - cy) < side / 2


def side_face(box: tuple[int, int, int, int], boxes: list[tuple[int, int, int, int]]) -> bool:
    """Whether a neighbour touching this die is over 1 / 0.6 times its side."""
    x, y, w, h = box
    side = max(w, h)
    for other in boxes:
        if other == box:
            continue
        a, b, c, d = other
        apart = np.hypot(x + w / 2 - a - c / 2, y + h / 2 - b - d / 2)
        if apart < 0.75 * (side + max(c, d)) and side < 0.6 * max(c, d):
            return True
    return False


def figures(seen: list[Seen], threshold: float, temperature: float = 1.0, rules: bool = False):
    """(confident, confident and wrong, unsure, dice)."""
    sure = wrong = unsure = 0
    for die in seen:
        p = die.probs ** (1.0 / temperature)
        p = p / p.sum()
        face = int(np.argmax(p[:12]))
        if p[face] < threshold or (rules and (die.at_edge or die.side_face)):
            unsure += 1
            continue
        sure += 1
        wrong += face != die.label
    return sure, wrong, unsure, len(seen)


def line(what: str, sure: int, wrong: int, unsure: int, dice: int) -> str:
    one_in = f"1 in {sure / wrong:.0f}" if wrong else f"0 in {sure}"
    return (
        f"{what}: confident & wrong {one_in} ({wrong} of {sure}),"
        f" unsure {100 * unsure / dice:.1f} % ({unsure} of {dice})"
    )


def main() -> int:
    if not SHARED.is_dir():
        print(f"vision_confidence: skipped, {SHARED} is absent")
        return 0
    reader = Reader()
    for split in ("train", "test"):
        seen = read_split(reader, split)
        print(f"vision_confidence: {split} splits of {' and '.join(SETS)}, --faces pips")
        for threshold in THRESHOLDS:
            print("  " + line(f"threshold {threshold:g}", *figures(seen, threshold)))
        for temperature in TEMPERATURES:
            for threshold in (0.5, 0.7, 0.8):
                what = f"T {temperature:g}, threshold {threshold:g}"
                print("  " + line(what, *figures(seen, threshold, temperature)))
        for threshold in (0.7, 0.8):
            what = f"edge and side-face rules, threshold {threshold:g}"
            print("  " + line(what, *figures(seen, threshold, rules=True)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
