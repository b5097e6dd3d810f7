"""The face networks alone on the physically based renders' labelled dice: where faces are lost.

`render3d_reader.py` measures the whole reader; this one cuts each labelled die's face
crop at its labelled box (the finder left out) and names it with the networks a game of
that kind reads with (``Reader.embed``: poker dice with their own networks), so what the
figures lose is the face networks' alone. Prints dice named right by kind of die, then by
held-out family and body the photo shows (a die counts under each), by the die's side in
pixels, by the camera's tilt and, for photos whose notes say it (``print_seen``, rendered
since session 42), by how much print the photo shows on the die's top face and how far it
stands out from the body.
``--split train --skip K`` reads training photos no network saw (the poker dice's
networks learnt the first 400 and 800 of the first look's): the same families, the
control that says how much of the held-out figure is the art and how much the renders.

    .venv/bin/python benchmarks/render3d_faces.py [--root DIR] [--count N] [--models DIR]
        [--split test|train] [--skip K]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

SIDES = (24, 40)  # px: under 24, 24-39, 40 and more
TILTS = (15, 30)  # degrees: straight down to 14, 15-29, 30 and more
PRINTED = (10, 30)  # printed pixels on the top face the photo shows
CONTRAST = (10, 20)  # the print's colour difference from the body there (CIE76)


def bucket(value: float, edges: tuple[int, int], unit: str) -> str:
    """``under 24 px``, ``24-39 px``, ``40+ px``: the bucket a die's side or tilt falls in."""
    if value < edges[0]:
        return f"under {edges[0]} {unit}"
    if value < edges[1]:
        return f"{edges[0]}-{edges[1] - 1} {unit}"
    return f"{edges[1]}+ {unit}"


def main(argv: list[str] | None = None) -> int:
    from scorer.dice import face_class
    from scorer.vision.crop import face_crop
    from scorer.vision.labelled import load_split
    from scorer.vision.reader import Reader
    from vision_models.render3d.dataset import default_root

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=None, help="render cache (default: ~/.cache)")
    parser.add_argument("--count", type=int, default=None, help="the first N photos read")
    parser.add_argument("--split", choices=("test", "train"), default="test")
    parser.add_argument("--skip", type=int, default=0, help="photos of the split passed over")
    parser.add_argument("--models", type=Path, default=None, help="folder of the .onnx networks")
    args = parser.parse_args(argv)
    root = args.root or default_root()
    if not (root / "images" / args.split).is_dir():
        print(f"render3d faces: no {args.split} photos in {root}; run `make renders`")
        return 0
    reader = Reader(args.models)
    seen: Counter = Counter()
    right: Counter = Counter()
    photos = load_split(root, args.split)[args.skip :]
    for photo in photos[: args.count]:
        if not photo.dice:
            continue
        notes = json.loads((root / "notes" / args.split / f"{photo.path.stem}.json").read_text())
        image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
        crops = [face_crop(image, d.centre, max(d.box[2], d.box[3])) for d in photo.dice]
        _, probs = reader.embed(crops, "card" if notes["kind"] == "cards" else None)
        tilt = bucket(notes["camera"]["tilt_deg"], TILTS, "degrees")
        prints = notes.get("print_seen") or [None] * len(photo.dice)
        for die, p, shown in zip(photo.dice, probs, prints, strict=True):
            faces = slice(6, 12) if die.face == "card" else slice(0, 6)
            named = int(np.argmax(p[faces])) + faces.start == face_class(die.face, die.value)
            side = bucket(max(die.box[2], die.box[3]), SIDES, "px")
            groups = [("kind", die.face), ("side", f"{die.face}, {side}")]
            groups += [("tilt", f"{die.face}, {tilt}")]
            groups += [("held out", f"{die.face}, {h}") for h in notes["held_out"]]
            groups += [("body", f"{die.face}, {b}") for b in notes["families"]["body"]]
            if shown is not None:
                printed = bucket(shown[1], PRINTED, "px printed")
                groups += [("print shown", f"{die.face}, {printed}")]
                groups += [("print contrast", f"{die.face}, {bucket(shown[2], CONTRAST, 'dE')}")]
            for group in groups:
                seen[group] += 1
                right[group] += named
    for title in ("kind", "held out", "body", "side", "tilt", "print shown", "print contrast"):
        print(f"by {title}:")
        for group in sorted(g for g in seen if g[0] == title):
            n, k = seen[group], right[group]
            print(f"  {group[1]:32s} {k:4d} of {n:4d}  {100 * k / n:6.2f} %")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
