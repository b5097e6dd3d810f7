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
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorer.vision.evaluation import PhotoResult, Report, match  # noqa: E402
from scorer.vision.labelled import LabelledPhoto, load_split  # noqa: E402
from scorer.vision.profile import DiceProfile  # noqa: E402
from scorer.vision.reader import Reader  # noqa: E402
from scorer.vision.reading import DEFAULT_THRESHOLD, Reading  # noqa: E402
from scorer.vision.teaching import (  # noqa: E402
    JUDGED_PHOTOS,
    View,
    judge,
    mistaken,
    named_dice,
    teach_dice,
)


def scored(report: Report, photo: LabelledPhoto, reading: Reading) -> None:
    """Add a photo's reading to ``report``, matched as ``scorer eval`` matches it."""
    report.add(PhotoResult(photo, reading, *match(photo, reading)))


def line(report: Report) -> str:
    return (
        f"{100 * report.per_die:6.2f} % ({report.correct}/{report.labelled}), photos exact "
        f"{100 * report.per_image:5.1f} %, missed {report.missed}, extra {report.extra}"
    )


def night(
    photos: list[LabelledPhoto], faces: str, after: int, wrong: float, seed: int
) -> tuple[list[Report], list[Report], DiceProfile]:
    """Replay ``photos`` as one evening; per third of the photos after ``after``: the
    untaught tally and the night's."""
    untaught, taught = Reader(), Reader()
    profile = DiceProfile("night")
    rng = np.random.default_rng(seed)
    views: list[View] = []
    thirds = [(Report(DEFAULT_THRESHOLD), Report(DEFAULT_THRESHOLD)) for _ in range(3)]
    rest = len(photos) - after

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
            plain, learnt = thirds[min(2, 3 * (k - after) // max(rest, 1))]
            scored(plain, photo, untaught.read(image, faces))
            scored(learnt, photo, taught.read(image, faces))
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
    for name, reports in (("untaught", plain), ("the night", learnt)):
        whole = Report(DEFAULT_THRESHOLD, [r for report in reports for r in report.results])
        print(f"  {name:9} {line(whole)}")
        for i, report in enumerate(reports, 1):
            print(f"    third {i}: {line(report)}")
    vote = "on" if profile.near <= 1.0 else "off"
    print(
        f"  at the end: {len(profile)} taught dice, vote {vote}, size "
        f"{'used' if profile.reading_size else 'not used'}"
    )


if __name__ == "__main__":
    main()
