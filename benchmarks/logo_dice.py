"""A labelled set of drawn dice the untaught reader misreads, to measure teaching on.

Violet dice with white pips whose six is a maker's logo (a ring with three spokes), five
to a throw on green felt, each die turned and sized at random: the face network has
never seen the logo and reads it as a one, a six or a 10 card. The tests draw the same
dice (``tests/test_vision_profile.py``).

    python benchmarks/logo_dice.py /tmp/logo --photos 40
    scorer teach /tmp/logo --split test --photos 5 --profile /tmp/logo-profile
    scorer eval /tmp/logo --skip 5                             # untaught
    scorer eval /tmp/logo --skip 5 --profile /tmp/logo-profile   # taught
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import cv2
import numpy as np

from scorer.dice import PIP_LAYOUT

BODY = (90, 60, 200)
INK = (240, 240, 240)


def draw(image: np.ndarray, centre: tuple[float, float], value: int, side: float, angle: float):
    """One die of the logo set, seen from above."""
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))

    def at(u: float, v: float) -> tuple[int, int]:
        return (round(centre[0] + u * c - v * s), round(centre[1] + u * s + v * c))

    h = side / 2
    outline = np.array([at(-h, -h), at(h, -h), at(h, h), at(-h, h)], np.int32)
    cv2.fillConvexPoly(image, outline, (40, 40, 40), cv2.LINE_AA)
    inner = np.array([at(-h + 2, -h + 2), at(h - 2, -h + 2), at(h - 2, h - 2), at(-h + 2, h - 2)])
    cv2.fillConvexPoly(image, inner.astype(np.int32), BODY, cv2.LINE_AA)
    if value == 6:
        middle = at(0, 0)
        cv2.circle(image, middle, round(side * 0.3), INK, 3, cv2.LINE_AA)
        for k in range(3):
            t = math.radians(angle) + k * 2 * math.pi / 3
            end = (
                round(middle[0] + side * 0.3 * math.cos(t)),
                round(middle[1] + side * 0.3 * math.sin(t)),
            )
            cv2.line(image, middle, end, INK, 3, cv2.LINE_AA)
        return
    for u, v in PIP_LAYOUT[value]:
        cv2.circle(
            image, at(u * side * 0.27, v * side * 0.27), round(side * 0.09), INK, -1, cv2.LINE_AA
        )


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
            draw(image, centre, value, side, float(rng.uniform(0, 90)))
            x, y, s = centre[0] / 640, centre[1] / 640, side / 640
            lines.append(f"{value - 1} {x:.6f} {y:.6f} {s:.6f} {s:.6f}")
        cv2.imwrite(str(images / f"logo-{i:03d}.png"), image)
        (labels / f"logo-{i:03d}.txt").write_text("\n".join(lines) + "\n")
    print(f"drew {args.photos} photos of the logo dice into {images}")


if __name__ == "__main__":
    main()
