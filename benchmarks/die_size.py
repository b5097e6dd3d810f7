"""How well the reader reads a die against how many pixels the camera gives it.

A die photographed small is read from few pixels: /camera tells the player when the
dice are smaller than the reader needs (``scorer/framing.py``). This prints what that
advice rests on, per-die accuracy by the labelled die's side in pixels:

- the real test splits (tray-multicolor, webcam-white) as taken, and shrunk as a camera
  farther away would take them (each photo resized by 0.85, 0.7, 0.55, 0.4 and 0.3 with area
  averaging, its labels scaled the same);
- with ``--renders A B``: two render caches of the same scenes (the 640-px test photos
  and the same photos rendered larger with ``render3d --min-die``), read told their dice.

    .venv/bin/python benchmarks/die_size.py [--renders DIR DIR] [--count N] [--models DIR]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

SHARED = REPO.parent / "shared" / "datasets"
SCALES = (1.0, 0.85, 0.7, 0.55, 0.4, 0.3)
BUCKETS = (0, 24, 32, 40, 48, 56, 72, 96, 10_000)
FACES = {"pips": "pips", "cards": "cards", "mixed": "any"}


def farther(image: np.ndarray, photo, scale: float):
    """The photo as a camera 1/scale times farther would take it: fewer pixels a die."""
    from scorer.vision.labelled import LabelledDie, LabelledPhoto

    if scale == 1.0:
        return image, photo
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    dice = tuple(LabelledDie(d.face, d.value, tuple(v * scale for v in d.box)) for d in photo.dice)
    return small, LabelledPhoto(photo.path, dice, photo.box_kind)


def bucket(side: float) -> int:
    return next(i for i in range(len(BUCKETS) - 1) if side < BUCKETS[i + 1])


def tally(result, counts: dict[int, list[int]]) -> None:
    """Add a photo's labelled dice to [right, all] of their size's bucket."""
    from scorer.framing import die_side
    from scorer.vision.evaluation import same_face

    read = {i: j for i, j in result.pairs}
    for i, label in enumerate(result.photo.dice):
        side = die_side([label.box])  # the measure /camera's warning reads
        right = i in read and same_face(label, result.reading.dice[read[i]])
        counts[bucket(side)][0] += int(right)
        counts[bucket(side)][1] += 1


def line(name: str, counts: dict[int, list[int]]) -> str:
    cells = []
    for b in range(len(BUCKETS) - 1):
        right, seen = counts.get(b, [0, 0])
        cells.append(f"{100 * right / seen:6.1f}% {seen:4d}" if seen else f"{'-':>7} {0:4d}")
    total = [sum(c[0] for c in counts.values()), sum(c[1] for c in counts.values())]
    return (
        f"{name:34s} "
        + " ".join(cells)
        + f"   all {100 * total[0] / max(1, total[1]):.2f}% of {total[1]}"
    )


def header() -> str:
    names = [
        f"{BUCKETS[b]}-{BUCKETS[b + 1] if BUCKETS[b + 1] < 10_000 else ''}px"
        for b in range(len(BUCKETS) - 1)
    ]
    return f"{'per die by its side (right%, dice)':34s} " + " ".join(f"{n:>12s}" for n in names)


def main(argv: list[str] | None = None) -> int:
    from scorer.vision.evaluation import PhotoResult, evaluate, match
    from scorer.vision.labelled import load_split
    from scorer.vision.reader import Reader

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", nargs=2, type=Path, default=None, metavar="DIR")
    parser.add_argument("--count", type=int, default=80, help="render test photos to read")
    parser.add_argument("--models", type=Path, default=None, help="folder of the .onnx networks")
    args = parser.parse_args(argv)
    reader = Reader(args.models)
    print(header())
    for name in ("tray-multicolor", "webcam-white"):
        photos = load_split(SHARED / name, "test")
        for scale in SCALES:
            counts: dict[int, list[int]] = defaultdict(lambda: [0, 0])
            for photo in photos:
                image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
                image, seen = farther(image, photo, scale)
                reading = reader.read(image, faces="pips")
                pairs, missed, extra = match(seen, reading)
                tally(PhotoResult(seen, reading, pairs, missed, extra), counts)
            print(line(f"{name} x{scale:g}", counts))
    for root in args.renders or ():
        counts = defaultdict(lambda: [0, 0])
        for photo in load_split(root, "test")[: args.count]:
            notes = json.loads((root / "notes" / "test" / f"{photo.path.stem}.json").read_text())
            faces = FACES[notes["kind"]]
            report = evaluate(
                lambda image, f=faces, **told: reader.read(image, faces=f, **told),
                [photo],
                told=True,
            )
            tally(report.results[0], counts)
        print(line(f"{root.name} (told)", counts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
