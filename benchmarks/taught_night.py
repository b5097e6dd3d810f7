"""A night at the table: each throw read with what the throws before it taught.

`scorer teach` then `scorer eval --skip N` measures a set taught on purpose and then
read without learning more. At the table a set goes on learning: every written throw
teaches its dice (a die read right is confirmed, one read wrong or missed corrected),
and its size is judged again on the newest taught photos. This replays a labelled
split in order as one evening: photo k is read with the profile the photos before it
taught (its reading is what the players saw), then taught from its labels as the
table would teach it, and the set's size judged (``teaching.judge``) as the table's
learner does after a written turn. It prints per-die figures for the photos after
the first ``--after`` of them, read untaught and read as the night went, and the same
by thirds of the night.

    python benchmarks/taught_night.py DATASET [--split test] [--faces pips|cards|any]
        [--after 5] [--wrong 0.05 --seed 1]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorer.vision.evaluation import match  # noqa: E402
from scorer.vision.labelled import LabelledPhoto, load_split  # noqa: E402
from scorer.vision.profile import DiceProfile  # noqa: E402
from scorer.vision.reader import Reader  # noqa: E402
from scorer.vision.reading import Reading  # noqa: E402
from scorer.vision.teaching import (  # noqa: E402
    JUDGED_PHOTOS,
    View,
    judge,
    mistaken,
    named_dice,
    teach_dice,
)


@dataclass
class Tally:
    """Dice read right, missed and extra over some photos."""

    dice: int = 0
    right: int = 0
    missed: int = 0
    extra: int = 0
    exact: int = 0
    photos: int = 0

    def add(self, photo: LabelledPhoto, reading: Reading) -> None:
        pairs, missed, extra = match(photo, reading)
        right = sum(
            (photo.dice[i].face, photo.dice[i].value)
            == (reading.dice[j].face, reading.dice[j].value)
            for i, j in pairs
        )
        self.dice += len(photo.dice)
        self.right += right
        self.missed += len(missed)
        self.extra += len(extra)
        self.exact += right == len(photo.dice) and not extra
        self.photos += 1

    def line(self) -> str:
        share = 100.0 * self.right / max(self.dice, 1)
        return (
            f"{share:6.2f} % ({self.right}/{self.dice}), photos exact "
            f"{100.0 * self.exact / max(self.photos, 1):5.1f} %, missed {self.missed}, "
            f"extra {self.extra}"
        )


def night(
    photos: list[LabelledPhoto], faces: str, after: int, wrong: float, seed: int
) -> tuple[list[Tally], list[Tally], DiceProfile]:
    """Replay ``photos`` as one evening; per third of the photos after ``after``: the
    untaught tally and the night's."""
    untaught, taught = Reader(), Reader()
    profile = DiceProfile("night")
    rng = np.random.default_rng(seed)
    views: list[View] = []
    thirds = [(Tally(), Tally()) for _ in range(3)]
    scored = len(photos) - after

    def read(trial: DiceProfile, image: np.ndarray) -> Reading:
        taught.profile = trial
        try:
            return taught.read(image, faces)
        finally:
            taught.profile = profile

    for k, photo in enumerate(photos):
        image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
        if image is None:
            raise SystemExit(f"cannot read {photo.path}")
        taught.profile = profile if len(profile) else None
        if k >= after:
            third = thirds[min(2, 3 * (k - after) // max(scored, 1))]
            third[0].add(photo, untaught.read(image, faces))
            third[1].add(photo, taught.read(image, faces))
        dice = [
            mistaken(d, rng) if rng.random() < wrong else d
            for d in named_dice(taught, image, photo)
        ]
        source = f"throw {k + 1}"
        teach_dice(taught, profile, image, dice, source)
        taught.profile = profile
        views.append((source, image, dice))
        judge(profile, views[-JUDGED_PHOTOS:], read)
    return [t[0] for t in thirds], [t[1] for t in thirds], profile


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--split", default="test")
    parser.add_argument("--faces", default="any", choices=("pips", "cards", "any"))
    parser.add_argument("--after", type=int, default=5, help="photos taught before scoring")
    parser.add_argument("--wrong", type=float, default=0.0, help="share of dice taught wrong")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    photos = load_split(args.dataset, args.split)
    if len(photos) <= args.after:
        raise SystemExit(f"{args.dataset} ({args.split}) has {len(photos)} photos: none to read")
    plain, learnt, profile = night(photos, args.faces, args.after, args.wrong, args.seed)
    print(
        f"taught_night: {args.dataset} ({args.split}, --faces {args.faces}), "
        f"{len(photos)} photos, scored after the first {args.after}"
        + (f", {args.wrong:.0%} of dice taught wrong (seed {args.seed})" if args.wrong else "")
    )
    for name, tallies in (("untaught", plain), ("the night", learnt)):
        whole = Tally()
        for t in tallies:
            for field in ("dice", "right", "missed", "extra", "exact", "photos"):
                setattr(whole, field, getattr(whole, field) + getattr(t, field))
        print(f"  {name:9} {whole.line()}")
        for i, t in enumerate(tallies, 1):
            print(f"    third {i}: {t.line()}")
    vote = "on" if profile.near <= 1.0 else "off"
    print(
        f"  at the end: {len(profile)} taught dice, vote {vote}, size "
        f"{'used' if profile.reading_size else 'not used'}"
    )


if __name__ == "__main__":
    main()
