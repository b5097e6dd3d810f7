"""A labelled set of drawn dice the untaught reader misreads, to measure teaching on.

Violet dice with white pips whose six is a maker's logo (a ring with three spokes), five
to a throw on green felt, each die turned and sized at random: the face network has
never seen the logo and reads it as a one, a six or a 10 card. The dice are the tests'
(``tests/test_vision_profile.py``'s ``logo_die``), drawn here in many more throws.

    python benchmarks/logo_dice.py /tmp/logo --photos 40
    scorer teach /tmp/logo --split test --photos 5 --profile /tmp/logo-profile
    scorer eval /tmp/logo --skip 5                             # untaught
    scorer eval /tmp/logo --skip 5 --profile /tmp/logo-profile   # taught
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorer.dice import face_class  # noqa: E402
from tests.test_vision_profile import logo_die  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--photos", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    images, labels = args.out_dir / "images" / "test", args.out_dir / "labels" / "test"
    images.mkdir(parents=True, exist_ok=True)
    labels.mkdir(parents=True, exist_ok=True)
    (args.out_dir / "data.yaml").write_text(
        "names: {0: 1, 1: 2, 2: 3, 3: 4, 4: 5, 5: 6}\nbox: die\n"
    )
    for i in range(args.photos):
        rng = np.random.default_rng([args.seed, i])
        felt = rng.normal(0, 4, (640, 640, 3)) + np.array([60, 120, 40])
        image = np.clip(felt, 0, 255).astype(np.uint8)
        lines = []
        for k, value in enumerate(int(v) for v in rng.integers(1, 7, size=5)):
            centre = (110 + 100 * k + rng.uniform(-8, 8), 200 + rng.uniform(-40, 120))
            side = float(rng.uniform(52, 64))
            logo_die(image, centre, value, side, float(rng.uniform(0, 90)))
            x, y, s = centre[0] / 640, centre[1] / 640, side / 640
            lines.append(f"{face_class('pips', value)} {x:.6f} {y:.6f} {s:.6f} {s:.6f}")
        cv2.imwrite(str(images / f"logo-{i:03d}.png"), image)
        (labels / f"logo-{i:03d}.txt").write_text("\n".join(lines) + "\n")
    print(f"drew {args.photos} photos of the logo dice into {images}")


if __name__ == "__main__":
    main()
