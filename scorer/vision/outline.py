"""How round a spot's outline is: number tokens, coins and chips lie round on a table,
while a die's top face outlines a square (rounded at its corners, foreshortened by a
slanted camera). The face networks read a token's printed 9 as a poker die's 9; its
outline tells the two apart."""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np

ROUND = 0.98  # tokens on the 3D tables 0.980-0.994; dice there at most 0.969, real 0.976
SPAN = 2.0  # the crop covers 2 x the spot's side: the object and the floor around it
SIZE = 96
RING = 6  # px of the crop's border that show the floor
CLOSE = np.ones((5, 5), np.uint8)


def roundness(image: np.ndarray, centre: Iterable[float], side: float) -> float | None:
    """The circularity (4 pi area / perimeter^2: a disc 1, a square 0.785) of the convex
    outline of the object at ``centre``, told from the floor around it by its colour; None
    where no object stands out there."""
    cx, cy = centre
    s = SIZE / (SPAN * side)
    m = np.float32([[s, 0, SIZE / 2 - cx * s], [0, s, SIZE / 2 - cy * s]])
    crop = cv2.warpAffine(
        image, m, (SIZE, SIZE), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )
    lab = cv2.cvtColor(cv2.GaussianBlur(crop, (3, 3), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    ring = np.concatenate(
        [
            lab[:RING].reshape(-1, 3),
            lab[-RING:].reshape(-1, 3),
            lab[:, :RING].reshape(-1, 3),
            lab[:, -RING:].reshape(-1, 3),
        ]
    )
    away = np.linalg.norm(lab - np.median(ring, 0), axis=2)
    away8 = np.clip(away * 2, 0, 255).astype(np.uint8)
    _, mask = cv2.threshold(away8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, CLOSE)
    _, parts = cv2.connectedComponents(mask)
    middle = parts[SIZE // 2 - 4 : SIZE // 2 + 5, SIZE // 2 - 4 : SIZE // 2 + 5].ravel()
    middle = middle[middle > 0]
    if not len(middle):
        return None
    thing = (parts == np.bincount(middle).argmax()).astype(np.uint8)
    contours, _ = cv2.findContours(thing, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    area = cv2.contourArea(hull)
    if area < 20:
        return None
    perimeter = cv2.arcLength(hull, True)
    return float(4 * np.pi * area / perimeter**2)


def is_round(image: np.ndarray, centre: Iterable[float], side: float) -> bool:
    """Whether the object at ``centre`` outlines a disc or an ellipse, not a die."""
    r = roundness(image, centre, side)
    return r is not None and r >= ROUND
