"""How the reader holds up when the camera or the light is not like the test photos'.

Reads both shared test splits as they are and changed as another camera or room would
change them (darker, overexposed, a colour cast, out of focus, noisy, low JPEG quality,
grey, turned a quarter, seen by a tilted camera, coins and poker chips beside the dice)
and prints per-die accuracy, photos read whole, missed and extra dice, confident dice
that are wrong and dice flagged unsure, one line per change.
``scorer eval --closer Z`` and ``--wider Z`` measure the camera's distance.

    .venv/bin/python benchmarks/vision_robustness.py [--models DIR] [--faces pips|cards|any]

``--faces`` is the kind of dice the game tells the reader (default ``any``; a game of
pip dice reads these photos with ``pips``).
"""

from __future__ import annotations

import argparse
import zlib
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from scorer.render.clutter import add_clutter
from scorer.vision import Reader
from scorer.vision.evaluation import PhotoResult, Report, match
from scorer.vision.labelled import LabelledDie, LabelledPhoto, load_split
from scorer.vision.reading import FACE_KINDS

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "datasets"

Change = Callable[[np.ndarray, LabelledPhoto], tuple[np.ndarray, LabelledPhoto]]


def _pixels(f: Callable[[np.ndarray], np.ndarray]) -> Change:
    return lambda image, photo: (
        np.clip(f(image.astype(np.float32)), 0, 255).astype(np.uint8),
        photo,
    )


def _jpeg(image: np.ndarray, photo: LabelledPhoto) -> tuple[np.ndarray, LabelledPhoto]:
    _, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 25])
    return cv2.imdecode(data, cv2.IMREAD_COLOR), photo


def _turned(image: np.ndarray, photo: LabelledPhoto) -> tuple[np.ndarray, LabelledPhoto]:
    h = image.shape[0]
    dice = tuple(
        LabelledDie(d.face, d.value, (h - d.box[1] - d.box[3], d.box[0], d.box[3], d.box[2]))
        for d in photo.dice
    )
    turned = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
    return turned, LabelledPhoto(photo.path, dice, photo.box_kind)


def _tilted(image: np.ndarray, photo: LabelledPhoto) -> tuple[np.ndarray, LabelledPhoto]:
    """A camera leaning away from straight down: the frame's top edge 30 % narrower."""
    h, w = image.shape[:2]
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    m = cv2.getPerspectiveTransform(
        corners, np.float32([[0.15 * w, 0], [0.85 * w, 0], [w, h], [0, h]])
    )
    tilted = cv2.warpPerspective(image, m, (w, h), borderMode=cv2.BORDER_REPLICATE)
    dice = []
    for d in photo.dice:
        x, y, bw, bh = d.box
        box = np.float32([[[x, y], [x + bw, y], [x + bw, y + bh], [x, y + bh]]])
        seen = cv2.perspectiveTransform(box, m)[0]
        (x0, y0), (x1, y1) = seen.min(0), seen.max(0)
        dice.append(
            LabelledDie(d.face, d.value, (float(x0), float(y0), float(x1 - x0), float(y1 - y0)))
        )
    return tilted, LabelledPhoto(photo.path, tuple(dice), photo.box_kind)


def _grey(image: np.ndarray, photo: LabelledPhoto) -> tuple[np.ndarray, LabelledPhoto]:
    return cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR), photo


def _coins(image: np.ndarray, photo: LabelledPhoto) -> tuple[np.ndarray, LabelledPhoto]:
    """One to three coins or poker chips on the table, clear of the dice (the same ones
    every run: drawn from the photo's name)."""
    centres = np.array([d.centre for d in photo.dice], np.float32)
    # a label box covering only the pips is about 0.7 of the die
    grow = 1.0 if photo.box_kind == "die" else 1.4
    sides = np.array([grow * max(d.box[2:]) for d in photo.dice], np.float32)
    rng = np.random.default_rng(zlib.crc32(photo.path.name.encode()))
    return add_clutter(image, centres, sides, rng), photo


CHANGES: dict[str, Change] = {
    "as it is": lambda image, photo: (image, photo),
    "darker x0.45": _pixels(lambda i: i * 0.45),
    "overexposed x1.6": _pixels(lambda i: i * 1.6),
    "gamma 2": _pixels(lambda i: 255 * (i / 255) ** 2),
    "gamma 0.5": _pixels(lambda i: 255 * (i / 255) ** 0.5),
    "warm cast": _pixels(lambda i: i * np.array([0.7, 0.95, 1.25], np.float32)),
    "cold cast": _pixels(lambda i: i * np.array([1.3, 1.0, 0.75], np.float32)),
    "out of focus": _pixels(lambda i: cv2.GaussianBlur(i, (0, 0), 2.0)),
    "noise sd 12": _pixels(lambda i: i + np.random.default_rng(0).normal(0, 12, i.shape)),
    "JPEG quality 25": _jpeg,
    "grey": _grey,
    "turned a quarter": _turned,
    "tilted camera": _tilted,
    "coins beside": _coins,
}


def measure(
    reader: Reader, photos: list[LabelledPhoto], change: Change, faces: str = "any"
) -> Report:
    report = Report(reader.threshold)
    for photo in photos:
        image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
        if image is None:
            continue
        image, labels = change(image, photo)
        reading = reader.read(image, faces=faces)
        report.add(PhotoResult(labels, reading, *match(labels, reading)))
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=None, help="folder of the ONNX files")
    parser.add_argument(
        "--faces", choices=FACE_KINDS, default="any", help="the dice the game plays with"
    )
    args = parser.parse_args()
    if not SHARED.is_dir():
        print(f"vision_robustness: {SHARED} is absent: nothing to measure")
        return 0
    reader = Reader(args.models)
    for name in ("tray-multicolor", "webcam-white"):
        photos = load_split(SHARED / name, "test")
        for label, change in CHANGES.items():
            report = measure(reader, photos, change, args.faces)
            sure, wrong, unsure, total = report.confident()
            print(
                f"vision_robustness: {name} {label:17s} per-die {100 * report.per_die:6.2f} %  "
                f"exact {100 * report.per_image:5.1f} %  missed {report.missed:3d}  "
                f"extra {report.extra:3d}  confident & wrong {wrong}/{sure}  "
                f"unsure {unsure}/{total}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
