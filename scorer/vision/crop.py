"""Where a die is cut from a frame: the face crop, turned so its edges run upright, and
the court network's closer crop.

Training cuts its crops at these spans and sizes and turns them by the same measure
(``tilt``), so a crop the networks read is cut as the ones they learnt from.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence

import cv2
import numpy as np

FACE_INPUT = 48
CROP_SPAN = 1.5  # a face crop covers 1.5 x the die's side, as in training
#: a court's headwear and index are a few pixels at 48 px: a closer, tighter second look
COURT_INPUT = 64
COURT_SPAN = 1.3


def face_crop(image: np.ndarray, centre: Iterable[float], side: float) -> np.ndarray:
    """A 48x48 crop of 1.5 x the die's side around its centre, turned so that the die's
    edges run upright: the network then learns four turns of a face, not every angle."""
    return upright_look(image, centre, side)[0]


def upright_look(
    image: np.ndarray, centre: Iterable[float], side: float
) -> tuple[np.ndarray, float]:
    """The face crop and the turn (degrees) that made it upright."""
    crops, turns = upright_looks(image, np.array([list(centre)], np.float64), np.array([side]))
    return crops[0], turns[0]


def upright_looks(
    image: np.ndarray, centres: np.ndarray, sides: np.ndarray
) -> tuple[list[np.ndarray], list[float]]:
    """``upright_look`` of many dice at once: the same crops and turns, with the turns
    measured over the stack of crops in one go (``tilts``), which an extra die's cost
    is mostly made of besides the face network (issue 23)."""
    squares = [
        _square(image, c, CROP_SPAN * s, FACE_INPUT) for c, s in zip(centres, sides, strict=True)
    ]
    turns = tilts(squares)
    crops = [
        square if abs(turn) < 1.0 else _turned(image, c, CROP_SPAN * s, FACE_INPUT, turn)
        for square, turn, c, s in zip(squares, turns, centres, sides, strict=True)
    ]
    return crops, turns


def court_crop(
    image: np.ndarray, centre: Iterable[float], side: float, turn: float | None = None
) -> np.ndarray:
    """The court network's crop: COURT_INPUT px of COURT_SPAN x the die's side, turned
    as the face crop is (by the turn measured on the face crop, as in training, which
    the reader hands over from the face crop it already cut)."""
    if turn is None:
        turn = tilt(_square(image, centre, CROP_SPAN * side, FACE_INPUT))
    return _turned(image, centre, COURT_SPAN * side, COURT_INPUT, turn)


def _turned(
    image: np.ndarray, centre: Iterable[float], span: float, size: int, turn: float
) -> np.ndarray:
    n = round(size * math.sqrt(2))  # a square's corners stay inside it when turned
    wide = _square(image, centre, span * n / size, n)
    m = cv2.getRotationMatrix2D(((n - 1) / 2, (n - 1) / 2), turn, 1.0)
    m[:, 2] -= (n - size) / 2
    return cv2.warpAffine(
        wide, m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def tilt(crop: np.ndarray) -> float:
    """Degrees (-45..45) that turn the edges of the die in the middle of ``crop`` upright.

    A die's outline and a card's print are square: their brightness gradients point four
    ways, so the fourth power of the gradient, weighted towards the crop's middle, sums to
    the turn. Round pips add nothing to it, so a pip die is turned by its outline.
    """
    return tilts([crop])[0]


def tilts(crops: Sequence[np.ndarray]) -> list[float]:
    """``tilt`` of each of same-sized square crops, computed over their stack at once.

    The 3x3 Sobel gradients (borders reflected as OpenCV reflects them) are sums of
    whole grey levels, exact in float32, and each crop's sums run in the order a single
    crop's do, so every turn is ``tilt``'s to the last bit (tests/test_vision_reader.py).
    """
    # a few crops at a time: a whole photo's stack would make each temporary fresh
    # pages from the system, which cost more than the sums (twice as much at 25 crops)
    return [t for k in range(0, len(crops), TILT_BATCH) for t in _tilts(crops[k : k + TILT_BATCH])]


#: crops whose turns are measured together (``tilts``)
TILT_BATCH = 8


def _tilts(crops: Sequence[np.ndarray]) -> list[float]:
    stack = np.stack(crops)
    n, h, w = stack.shape[:3]
    grey = cv2.cvtColor(stack.reshape(n * h, w, 3), cv2.COLOR_BGR2GRAY).reshape(n, h, w)
    # each crop reflected one pixel out, the crops stacked in one picture: OpenCV's
    # Sobel then takes each pixel's 3x3 within its own crop
    board = np.empty((n, h + 2, w + 2), np.float32)
    board[:, 1:-1, 1:-1] = grey
    board[:, 0, 1:-1], board[:, -1, 1:-1] = grey[:, 1], grey[:, -2]
    board[:, :, 0], board[:, :, -1] = board[:, :, 2], board[:, :, -3]
    flat = board.reshape(n * (h + 2), w + 2)
    gx = cv2.Sobel(flat, cv2.CV_32F, 1, 0).reshape(board.shape)[:, 1:-1, 1:-1]
    gy = cv2.Sobel(flat, cv2.CV_32F, 0, 1).reshape(board.shape)[:, 1:-1, 1:-1]
    # (gx + i gy)^4 / |g|^2, in reals: a + ib is the gradient squared. In place where
    # the same sums allow: a stack's temporaries are fresh pages, each one a cost
    xx, yy = gx * gx, gy * gy
    a = xx - yy
    weight = np.add(xx, yy, out=xx)
    weight += 1e-6
    np.divide(_middle(h), weight, out=weight)
    b = np.multiply(gx, 2, out=yy)
    b *= gy
    real = a * a
    real -= b * b
    real *= weight
    re = real.reshape(n, -1).sum(1)
    imag = np.multiply(a, 2, out=a)
    imag *= b
    imag *= weight
    im = imag.reshape(n, -1).sum(1)
    return [math.degrees(math.atan2(float(i), float(r)) / 4) for i, r in zip(im, re, strict=True)]


@functools.cache
def _middle(n: int) -> np.ndarray:
    yy, xx = np.mgrid[:n, :n] - (n - 1) / 2
    return np.exp(-(xx**2 + yy**2) / (2 * (0.3 * n) ** 2)).astype(np.float32)


def _square(image: np.ndarray, centre: Iterable[float], span: float, size: int) -> np.ndarray:
    cx, cy = (float(v) for v in centre)
    span = max(4.0, span)
    x0, y0 = round(cx - span / 2), round(cy - span / 2)
    n = max(4, round(span))
    h, w = image.shape[:2]
    if x0 < 0 or y0 < 0 or x0 + n > w or y0 + n > h:
        # the frame's edge pixels repeated outward, as if the whole frame were padded
        # (a copy of only the part in the frame, at least its nearest pixel)
        ix0, iy0 = min(max(x0, 0), w - 1), min(max(y0, 0), h - 1)
        ix1, iy1 = max(min(x0 + n, w), ix0 + 1), max(min(y0 + n, h), iy0 + 1)
        left = min(max(ix0 - x0, 0), n - (ix1 - ix0))
        top = min(max(iy0 - y0, 0), n - (iy1 - iy0))
        crop = cv2.copyMakeBorder(
            image[iy0:iy1, ix0:ix1],
            top,
            n - top - (iy1 - iy0),
            left,
            n - left - (ix1 - ix0),
            cv2.BORDER_REPLICATE | cv2.BORDER_ISOLATED,
        )
    else:
        crop = image[y0 : y0 + n, x0 : x0 + n]
    interp = cv2.INTER_AREA if n > size else cv2.INTER_LINEAR
    return cv2.resize(crop, (size, size), interpolation=interp)
