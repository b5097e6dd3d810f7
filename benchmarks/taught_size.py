"""Reading a taught set at its dice's size: does it find the dice the survey misjudges?

A profile knows how big its dice look in the table's frames (``DiceProfile.size``); the
reader then looks at a photo of that frame size at the scale that makes them the
finder's TARGET_DIE px instead of trusting its survey's guess. Per dataset and view
(``scorer eval --wider Z`` / ``--closer Z``), this teaches a profile from the first N
train photos seen the same way (``scorer teach --wider Z`` / ``--closer Z``), then reads
the test split seen that way three ways (``--spread``: N photos spread over the train
split; webcam-white's first 5 show only ones, which tell no size):

- untaught: no profile;
- taught, old: the profile's face vote only, the reader ignoring its size (as before
  sizes were kept; taught that way too);
- taught, new: the whole profile, size included where its taught photos, read without
  themselves, read no worse with it (``teaching.judge``; printed).

and prints per-die accuracy, missed, extra, confident-and-wrong and the median time a
photo (one OpenCV thread; a shared machine's times are noisy).

    python benchmarks/taught_size.py [--datasets tray-multicolor webcam-white] [--zooms 1 2 3]
        [--views wider closer] [--photos 5] [--spread]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorer.vision.evaluation import closer, evaluate  # noqa: E402
from scorer.vision.labelled import LabelledPhoto, load_split  # noqa: E402
from scorer.vision.reader import Reader  # noqa: E402
from scorer.vision.teaching import open_profile, teach_photos  # noqa: E402

DATASETS = ROOT.parent / "shared" / "datasets"


def in_view(
    photos: list[LabelledPhoto], zoom: float, n: int, spread: bool = False
) -> list[LabelledPhoto]:
    """The first ``n`` photos whose dice all stay in the picture seen ``zoom`` x closer
    (with ``spread``, the first such photo at or after each of ``n`` even steps)."""
    if spread:
        step = len(photos) / n
        picked: list[LabelledPhoto] = []
        for k in range(n):
            rest = [p for p in photos[round(k * step) :] if p not in picked]
            picked += in_view(rest, zoom, 1)
        return picked
    kept = []
    for photo in photos:
        image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
        if image is not None and (zoom == 1.0 or closer(image, photo, zoom) is not None):
            kept.append(photo)
        if len(kept) == n:
            break
    return kept


def line(name: str, figures: dict) -> str:
    return (
        f"    {name:12} per die {figures['per_die'] * 100:6.2f} %  missed {figures['missed']:4}  "
        f"extra {figures['extra']:4}  confident & wrong {figures['confident_wrong']:3} of "
        f"{figures['confident']:3}  ms median {figures['ms_median']:6.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=["tray-multicolor", "webcam-white"])
    parser.add_argument("--zooms", nargs="+", type=float, default=[1.0, 2.0, 3.0])
    parser.add_argument("--views", nargs="+", default=["wider", "closer"])
    parser.add_argument("--photos", type=int, default=5, help="train photos taught (default 5)")
    parser.add_argument(
        "--spread", action="store_true", help="teach photos spread over the split, not the first"
    )
    parser.add_argument("--faces", default="pips", choices=("pips", "cards", "any"))
    parser.add_argument("--threads", type=int, default=1, help="OpenCV threads (default 1)")
    args = parser.parse_args()
    cv2.setNumThreads(args.threads)
    reader = Reader()
    for name in args.datasets:
        root = DATASETS / name
        train, test = load_split(root, "train"), load_split(root, "test")
        views = [("normal", 1.0)] if 1.0 in args.zooms else []
        views += [(v, z) for v in args.views for z in args.zooms if z != 1.0]
        for view, z in views:
            zoom, widen = (z, 1.0) if view == "closer" else (1.0, z)
            taught = in_view(train, zoom, args.photos, args.spread)
            which = "spread" if args.spread else "first"
            print(
                f"{name}, {view} {z:g}x: teach the {which} {len(taught)} train photos "
                f"({sum(len(p.dice) for p in taught)} dice), read the test split"
            )
            read = {}
            for variant in ("untaught", "taught, old", "taught, new"):
                reader.profile = None
                if variant == "taught, old":  # a reader that ignores the size
                    reader._taught_side = lambda width, height: 0.0  # type: ignore[method-assign]
                else:
                    reader.__dict__.pop("_taught_side", None)
                if variant != "untaught":
                    with tempfile.TemporaryDirectory() as tmp:
                        profile = open_profile(Path(tmp), reader, create=True)
                        start = time.perf_counter()
                        lesson = teach_photos(reader, profile, taught, name, zoom=zoom, widen=widen)
                        seconds = time.perf_counter() - start
                    size = profile.size
                    said = f"{size.side:.1f} px in {size.frame[0]}x{size.frame[1]}" if size else "-"
                    print(
                        f"    ({variant}: taught in {seconds:.1f} s, dice {said}, "
                        f"its size {'used' if lesson.sized else 'not used'})"
                    )
                    reader.profile = profile
                report = evaluate(
                    lambda im: reader.read(im, args.faces), test, zoom=zoom, widen=widen
                )
                read[variant] = report.to_dict()
            reader.__dict__.pop("_taught_side", None)
            for variant, figures in read.items():
                print(line(variant, figures))


if __name__ == "__main__":
    main()
