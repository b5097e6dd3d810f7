"""Dice profiles: how long teaching takes, what a profile costs a reading, how big it gets.

Prints (issue 24's budget in brackets):
- teaching 5 photos of rendered dice as ``scorer teach`` does (<= 10 s),
- the median time to read a photo with and without the taught profile (<= +2 ms),
- the size of that profile, and of a full one: every face of a kind and "not a die" at
  the most crops a profile keeps (<= 5 MB).

    python benchmarks/teach_profiles.py [--photos 5] [--kind pips|cards] [--threads 1]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from scorer.render import write_dataset
from scorer.vision.labelled import load_split
from scorer.vision.profile import BACKGROUND, CARDS, MAX_PER_FACE, DiceProfile
from scorer.vision.reader import Reader, face_crop
from scorer.vision.teaching import open_profile, teach_photos


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=5, help="photos taught (default 5)")
    parser.add_argument("--read", type=int, default=20, help="photos read (default 20)")
    parser.add_argument("--kind", choices=("pips", "cards"), default="cards")
    parser.add_argument("--threads", type=int, default=1, help="OpenCV threads (default 1)")
    args = parser.parse_args()
    cv2.setNumThreads(args.threads)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "set"
        write_dataset(folder, args.photos + args.read, 5, kind=args.kind, held_out=True)
        photos = load_split(folder, "test")
        reader = Reader()
        profile = open_profile(Path(tmp) / "profile", reader, create=True)

        start = time.perf_counter()
        lesson = teach_photos(reader, profile, photos[: args.photos], "benchmark")
        taught_s = time.perf_counter() - start
        path = profile.save(Path(tmp) / "profile")
        print(
            f"teach {lesson.photos} photos ({lesson.dice} dice, held-out {args.kind} renders): "
            f"{taught_s:.2f} s   [<= 10 s]"
        )

        images = [cv2.imread(str(p.path)) for p in photos[args.photos :]]
        plain, taught = [], []
        for _ in range(3):
            for image in images:
                reader.profile = None
                plain.append(_timed(reader, image))
                reader.profile = profile
                taught.append(_timed(reader, image))
        extra = statistics.median(t - p for t, p in zip(taught, plain, strict=True))
        print(
            f"read a photo: {statistics.median(plain):.1f} ms untaught, "
            f"{statistics.median(taught):.1f} ms with the profile "
            f"(median of the differences {extra:+.2f} ms, {len(plain)} reads)   [<= +2 ms]"
        )
        print(f"profile of {len(profile)} taught dice: {path.stat().st_size / 1e6:.2f} MB")

        full = _full_profile(reader, images, photos[args.photos :], args.kind)
        full_path = full.save(Path(tmp) / "full")
        reader.profile = full
        full_ms = statistics.median(_timed(reader, image) for image in images)
        print(
            f"a full profile ({len(full)} crops: {MAX_PER_FACE} of each face and of 'not a "
            f"die'): {full_path.stat().st_size / 1e6:.2f} MB   [<= 5 MB]; "
            f"reads a photo in {full_ms:.1f} ms"
        )


def _timed(reader: Reader, image: np.ndarray) -> float:
    start = time.perf_counter()
    reader.read(image)
    return (time.perf_counter() - start) * 1000.0


def _full_profile(reader: Reader, images: list, photos: list, kind: str) -> DiceProfile:
    """A profile at its cap: real crops of rendered dice, MAX_PER_FACE per class."""
    crops = []
    for image, photo in zip(images, photos, strict=True):
        for die in photo.dice:
            crops.append(face_crop(image, die.centre, max(die.box[2], die.box[3])))
    first = CARDS if kind == "cards" else 0
    classes = [*range(first, first + 6), BACKGROUND]
    profile = DiceProfile("full")
    for label in classes:
        picked = [crops[i % len(crops)] for i in range(label * 7, label * 7 + MAX_PER_FACE)]
        profile.teach(picked, [label] * len(picked), f"class {label}", reader.embed)
    return profile


if __name__ == "__main__":
    main()
