"""A taught poker set's print matched by SIFT features, against the profile's vote: a
prototype's measure, on labelled boxes (the finder left out); not in the reader
(docs/teaching.md: not kept on fresh tables).

A taught set's face network features do not tell unseen card art apart (docs/teaching.md),
but a set's K looks like the next K of the same set, turned and lit otherwise: local
features that ignore turns and light (OpenCV's SIFT) can match it. For each one-make
table (``render3d --table N --kind cards``), photos 1..T teach a profile as ``scorer
teach`` does and keep each labelled die's SIFT descriptors (its box cut square at 128
px, grey); on photos T+1.. each labelled box is read four ways: untaught, taught (the
profile's vote), print (per face, the taught crop with most good matches, Lowe's ratio
0.75) and both (the taught probabilities of the six card faces times a softmax of the
match counts over 2). Prints the boxes right of each, per table and in all, and the
match's milliseconds a die:

    .venv/bin/python benchmarks/taught_print.py TABLE_DIR [TABLE_DIR ...] [--taught T]
        [--wrong FRACTION --seed S]

``--wrong``: that share of the taught dice named another face (a mistaken tap), the
same names for the profile and the prints.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

SIDE = 128
RATIO = 0.75
SOFTNESS = 2.0
WAYS = ("untaught", "taught", "print", "both")


def _lowe(pair) -> bool:
    """Lowe's ratio test: the nearest taught descriptor clearly nearer than the next."""
    return len(pair) == 2 and pair[0].distance < RATIO * pair[1].distance


def print_crop(image: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """The die's box, square on its longer side, at ``SIDE`` px in grey."""
    x, y, w, h = box
    cx, cy, scale = x + w / 2, y + h / 2, SIDE / max(w, h)
    m = np.float32([[scale, 0, SIDE / 2 - cx * scale], [0, scale, SIDE / 2 - cy * scale]])
    square = cv2.warpAffine(
        image, m, (SIDE, SIDE), flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE
    )
    return cv2.cvtColor(square, cv2.COLOR_BGR2GRAY)


class Prints:
    """Each taught face's crops' SIFT descriptors, and the match of a new crop to them."""

    def __init__(self) -> None:
        self.sift = cv2.SIFT_create()
        self.matcher = cv2.BFMatcher(cv2.NORM_L2)
        self.taught: dict[int, list[np.ndarray]] = defaultdict(list)

    def describe(self, crop: np.ndarray) -> np.ndarray | None:
        found = self.sift.detectAndCompute(crop, None)[1]
        return found if found is not None and len(found) >= 2 else None

    def teach(self, crop: np.ndarray, value: int) -> None:
        found = self.describe(crop)
        if found is not None:
            self.taught[value].append(found)

    def counts(self, crop: np.ndarray) -> np.ndarray:
        """Per value 1..6, the most good matches of one taught crop of that value."""
        out = np.zeros(6)
        found = self.describe(crop)
        if found is None:
            return out
        for value, crops in self.taught.items():
            for taught in crops:
                pairs = self.matcher.knnMatch(found, taught, k=2)
                good = sum(
                    1 for p in pairs if len(p) == 2 and p[0].distance < RATIO * p[1].distance
                )
                out[value - 1] = max(out[value - 1], good)
        return out


def misnamed(value: int, rng: random.Random) -> int:
    """Another face than ``value``, as a mistaken tap names it."""
    return rng.choice([v for v in range(1, 7) if v != value])


def table(
    root: Path, taught_photos: int, reader, wrong: float = 0.0, seed: int = 0
) -> tuple[Counter, float, int]:
    from scorer.dice import face_class
    from scorer.vision.crop import face_crop
    from scorer.vision.labelled import load_split
    from scorer.vision.teaching import TaughtDie, open_profile, teach_dice

    photos = load_split(root, "test")
    profile = open_profile(Path(tempfile.mkdtemp()) / "profile", reader, create=True)
    prints = Prints()
    rng = random.Random(seed)
    for i, photo in enumerate(photos[:taught_photos]):
        image = cv2.imread(str(photo.path))
        values = [misnamed(d.value, rng) if rng.random() < wrong else d.value for d in photo.dice]
        named = [
            TaughtDie(d.centre, max(d.box[2], d.box[3]), face_class(d.face, v), False)
            for d, v in zip(photo.dice, values, strict=True)
        ]
        teach_dice(reader, profile, image, named, f"photo {i}")
        for d, v in zip(photo.dice, values, strict=True):
            prints.teach(print_crop(image, d.box), v)
    profile.calibrate()
    right: Counter = Counter()
    seconds, dice = 0.0, 0
    for photo in photos[taught_photos:]:
        image = cv2.imread(str(photo.path))
        crops = [face_crop(image, d.centre, max(d.box[2], d.box[3])) for d in photo.dice]
        features, probs = reader.embed(crops, "card")
        voted = profile.rescore(features, probs)
        for k, d in enumerate(photo.dice):
            start = time.perf_counter()
            counts = prints.counts(print_crop(image, d.box))
            seconds += time.perf_counter() - start
            dice += 1
            soft = np.exp((counts - counts.max()) / SOFTNESS)
            taught = voted[k][6:12]
            readings = {
                "untaught": probs[k][6:12],
                "taught": taught,
                "print": counts,
                "both": taught / taught.sum() * soft / soft.sum(),
            }
            for way, scores in readings.items():
                right[way] += int(np.argmax(scores) == d.value - 1)
    return right, seconds, dice


def main(argv: list[str] | None = None) -> int:
    from scorer.vision.reader import Reader

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tables", nargs="+", type=Path, help="one-make poker tables' folders")
    parser.add_argument("--taught", type=int, default=10, help="photos taught (default 10)")
    parser.add_argument("--wrong", type=float, default=0.0, help="share of taught dice misnamed")
    parser.add_argument("--seed", type=int, default=0, help="which dice are misnamed")
    args = parser.parse_args(argv)
    reader = Reader()
    total: Counter = Counter()
    seconds, dice = 0.0, 0
    print(f"{'table':28s} {'boxes':>6s} " + " ".join(f"{w:>9s}" for w in WAYS))
    for root in args.tables:
        right, s, n = table(root, args.taught, reader, args.wrong, args.seed)
        total.update(right)
        seconds, dice = seconds + s, dice + n
        print(f"{root.name:28s} {n:6d} " + " ".join(f"{right[w]:9d}" for w in WAYS))
    print(f"{'all':28s} {dice:6d} " + " ".join(f"{total[w]:9d}" for w in WAYS))
    print(f"print match: {1000 * seconds / max(1, dice):.2f} ms a die (one thread)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
