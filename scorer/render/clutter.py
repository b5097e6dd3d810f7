"""Coins and poker chips painted beside dice: round things a table has that are no dice.

The robustness benchmark paints them beside the dice of real photos to count how many
the reader takes for dice (a training run that painted them on renders is in
``vision_models/faces.md``).
"""

from __future__ import annotations

import math

import cv2
import numpy as np


def add_clutter(
    image: np.ndarray, centres: np.ndarray, sides: np.ndarray, rng: np.random.Generator
) -> np.ndarray:
    """A copy of ``image`` with 1-3 coins or poker chips on the felt, each clear of every
    die (``centres`` and ``sides`` in pixels) and sized like them."""
    out = image.copy()
    h, w = out.shape[:2]
    side = float(np.median(sides))
    for _ in range(int(rng.integers(1, 4))):
        r = side * rng.uniform(0.35, 0.75)
        for _try in range(20):
            cx, cy = rng.uniform(r, w - r), rng.uniform(r, h - r)
            clear = zip(centres, sides, strict=True)
            if all(math.hypot(cx - x, cy - y) > r + 0.8 * s for (x, y), s in clear):
                break
        else:
            continue
        _disc(out, (cx, cy), r, rng)
    return out


def _disc(
    image: np.ndarray, centre: tuple[float, float], r: float, rng: np.random.Generator
) -> None:
    """A coin (metal with a raised rim and a stamped middle) or a poker chip (a coloured disc
    with stripes on its edge), lit from one side, with a soft shadow."""
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    dx, dy = xx - centre[0], yy - centre[1]
    d = np.sqrt(dx * dx + dy * dy)
    shadow = np.clip((r * 1.15 - np.hypot(dx - 0.12 * r, dy - 0.15 * r)) / (0.3 * r), 0, 1)
    image[:] = (image * (1 - 0.35 * shadow[..., None])).astype(np.uint8)
    inside = np.clip(r - d + 0.5, 0, 1)[..., None]
    light = np.clip(0.75 + 0.35 * (-dx - dy) / (1.4 * r), 0.4, 1.2)[..., None]
    if rng.random() < 0.6:
        metal = [(60, 170, 210), (190, 190, 195), (70, 110, 180), (150, 160, 170)]
        base = np.array(metal[int(rng.integers(len(metal)))], np.float32) * rng.uniform(0.8, 1.1)
        rim = (np.abs(d - 0.85 * r) < 0.1 * r)[..., None] * 0.25
        stamp = rng.normal(0, 1, (8, 8)).astype(np.float32)
        stamp = cv2.resize(stamp, (w, h))[..., None] * 0.08 * (d < 0.7 * r)[..., None]
        paint = base * (light + rim + stamp)
    else:
        colours = [(40, 40, 200), (200, 60, 40), (40, 140, 40), (30, 30, 30), (230, 230, 230)]
        body = np.array(colours[int(rng.integers(len(colours)))], np.float32)
        stripe = np.array(colours[int(rng.integers(len(colours)))], np.float32)
        angle = np.arctan2(dy, dx)
        edge = ((d > 0.72 * r) & (np.sin(angle * 6) > 0.3))[..., None]
        paint = np.where(edge, stripe, body) * light
    image[:] = (image * (1 - inside) + np.clip(paint, 0, 255) * inside).astype(np.uint8)
