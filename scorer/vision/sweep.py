"""The set's own look: the face network swept over the tray at a taught set's size.

The finder learnt its dice from a few makes; a set of another body (wood on printed
cloth, a swirled or marbled body) can lie on the tray unmarked, throw after throw, and a
player taps it in each time. The face network describes a die far better than the
finder's small maps do, and it is a stack of convolutions: run over the whole tray at
the scale that makes the set's dice fill its crop, its last map holds, every STRIDE
pixels, what a crop cut there would show in each of its quarters (a profile's ``grid``).
A logistic head fitted on the taught photos (windows on a named die against windows
clear of every die) marks where this set's dice lie; the reader names what it marks as
any spot (docs/teaching.md, "The set's own look").
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

#: the face network's file output of its last feature map (``vision_models.train.fit.expose_map``)
MAP = "map"
#: the face network halves a crop three times: a cell of its last map is this many pixels
STRIDE = 8
#: a crop's last map is this many cells a side (the reader's 48-px crop / STRIDE); a
#: window is described by the means of its four quarters (as a profile's ``grid``: where
#: a face's pips lie, not only what they look like)
CELLS = 6
HALF = CELLS // 2
#: a window whose centre lies within HIT of a named die's side from its centre shows that
#: die; one at least CLEAR of a side from every named die shows none (those between are
#: half a die, and teach neither)
HIT = 0.3
CLEAR = 0.5
#: windows clear of every die kept a taught photo (a few hundred a photo otherwise), drawn
#: at random with the photo's source as seed: enough floor to learn it, a profile stays small
FLOOR_WINDOWS = 150
#: ... of which this many are those most like the photo's dice (their mean features)
HARD_WINDOWS = 50
#: the head marks a die where its log-odds reach GATE; marks nearer than APART of a side
#: are one die (the strongest kept)
GATE = 2.0
APART = 0.6
#: the head's weight decay (features standardised): 5 taught photos give 20-100 windows
#: on dice against 512 numbers a window
DECAY = 0.1


@dataclass(frozen=True)
class Sweep:
    """What the face network sees at every window of a tray: ``rows`` (n, 512) the last
    map's means over each quarter of a crop cut there (its ``grid``), ``centres`` (n, 2)
    the windows' centres in frame pixels."""

    rows: np.ndarray
    centres: np.ndarray

    @classmethod
    def nothing(cls) -> Sweep:
        """No window: a tray smaller than one crop, or a network without its ``map``."""
        return cls(np.zeros((0, 0), np.float32), np.zeros((0, 2), np.float32))


def swept(
    net: cv2.dnn.Net, image: np.ndarray, area: tuple[int, int, int, int], scale: float
) -> Sweep:
    """The face network (a file with a ``map`` output) over ``area`` (x0, y0, x1, y1) of
    the frame shrunk by ``scale``: the one at which the set's dice fill a crop as the
    reader cuts them (``Reader.sweep``)."""
    x0, y0, x1, y1 = area
    part = image[y0:y1, x0:x1]
    small = cv2.resize(part, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    height, width = (small.shape[0] // STRIDE) * STRIDE, (small.shape[1] // STRIDE) * STRIDE
    if height < STRIDE * CELLS or width < STRIDE * CELLS:
        return Sweep.nothing()
    blob = small[:height, :width].astype(np.float32).transpose(2, 0, 1)[None] / 255.0
    net.setInput(np.ascontiguousarray(blob))
    cells = np.asarray(net.forward(MAP), np.float32)[0]
    channels = cells.shape[0]
    # a crop's quarters are the means of its four HALF x HALF blocks of cells: box sums
    summed = np.pad(cells.cumsum(1).cumsum(2), ((0, 0), (1, 0), (1, 0)))
    blocks = (
        summed[:, HALF:, HALF:]
        - summed[:, :-HALF, HALF:]
        - summed[:, HALF:, :-HALF]
        + summed[:, :-HALF, :-HALF]
    ) / (HALF * HALF)
    rows, columns = cells.shape[1] - CELLS + 1, cells.shape[2] - CELLS + 1
    quarters = np.stack(
        [blocks[:, dy : dy + rows, dx : dx + columns] for dy in (0, HALF) for dx in (0, HALF)],
        1,
    )  # channels x 4 x rows x columns: each window's quarters in the order of ``grid``
    middle = STRIDE * CELLS / 2
    ys = (np.arange(rows) * STRIDE + middle) / scale + y0
    xs = (np.arange(columns) * STRIDE + middle) / scale + x0
    grid_y, grid_x = np.meshgrid(ys, xs, indexing="ij")
    centres = np.stack([grid_x.ravel(), grid_y.ravel()], 1).astype(np.float32)
    return Sweep(quarters.reshape(channels * 4, -1).T.copy(), centres)


def windows(
    sweep: Sweep,
    centres: Sequence[tuple[float, float]],
    sides: Sequence[float],
    seed: str,
    clutter: Sequence[tuple[float, float]] = (),
    clutter_sides: Sequence[float] = (),
) -> tuple[np.ndarray, np.ndarray]:
    """A taught photo's windows to learn from: those on a named die (label True), those
    on a spot named no die (``clutter``: a token, a coin) and at most FLOOR_WINDOWS more
    clear of every die (False): HARD_WINDOWS most like the dice, the rest drawn with
    ``seed``."""
    if not len(sweep.rows):
        return np.zeros((0, 0), np.float32), np.zeros(0, bool)
    on, near = _within(sweep, centres, sides, HIT), _within(sweep, centres, sides, CLEAR)
    junk = _within(sweep, clutter, clutter_sides, HIT) & ~near
    floor = np.flatnonzero(~near & ~junk)
    if on.any():
        # the floor most like the dice (a playing card, a token, a meeple) first
        unit = sweep.rows / np.maximum(np.linalg.norm(sweep.rows, axis=1, keepdims=True), 1e-6)
        middle = unit[on].mean(0)
        floor = floor[np.argsort(-(unit[floor] @ middle), kind="stable")]
        hard, floor = floor[:HARD_WINDOWS], floor[HARD_WINDOWS:]
    else:
        hard = floor[:0]
    digest = hashlib.sha256(seed.encode("utf-8")).digest()
    floor = np.random.default_rng(list(digest)).permutation(floor)[: FLOOR_WINDOWS - len(hard)]
    floor = np.sort(np.concatenate([hard, floor]))
    keep = np.concatenate([np.flatnonzero(on), np.flatnonzero(junk), floor])
    return sweep.rows[keep], on[keep]


def _within(
    sweep: Sweep, centres: Sequence[tuple[float, float]], sides: Sequence[float], share: float
) -> np.ndarray:
    """Which windows lie within ``share`` of a side of one of the spots."""
    inside = np.zeros(len(sweep.rows), bool)
    for (x, y), side in zip(centres, sides, strict=True):
        inside |= np.hypot(sweep.centres[:, 0] - x, sweep.centres[:, 1] - y) <= share * side
    return inside


@dataclass(frozen=True)
class Look:
    """A fitted head: log-odds that a window shows one of the set's dice."""

    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float

    def odds(self, rows: np.ndarray) -> np.ndarray:
        return ((rows - self.mean) / self.scale) @ self.weights + self.bias


def fitted(rows: np.ndarray, labels: np.ndarray, steps: int = 25) -> Look | None:
    """A logistic head (Newton's method, weight decay DECAY) on windows and their labels,
    the dice and the floor weighted equally; None without both."""
    rows = np.asarray(rows, np.float64)
    labels = np.asarray(labels, bool)
    if not labels.any() or labels.all():
        return None
    mean = rows.mean(0)
    scale = rows.std(0) + 1e-6
    x = np.hstack([(rows - mean) / scale, np.ones((len(rows), 1))])
    y = labels.astype(np.float64)
    weight = np.where(labels, (~labels).sum() / labels.sum(), 1.0)
    decay = np.full(x.shape[1], 2.0 * DECAY)
    decay[-1] = 0.0
    theta = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ theta, -30.0, 30.0)))
        gradient = x.T @ (weight * (p - y)) + decay * theta
        hessian = (x * (weight * p * (1.0 - p))[:, None]).T @ x + np.diag(decay + 1e-9)
        step = np.linalg.solve(hessian, gradient)
        theta -= step
        if np.abs(step).max() < 1e-6:
            break
    weights = theta[:-1].astype(np.float32)
    return Look(mean.astype(np.float32), scale.astype(np.float32), weights, float(theta[-1]))


def marks(look: Look, sweep: Sweep, side: float) -> np.ndarray:
    """Where the head marks a die (m, 2 frame px), strongest first: windows at GATE or
    more, each at least APART of a side from every stronger one."""
    if not len(sweep.rows):
        return np.zeros((0, 2), np.float32)
    odds = look.odds(sweep.rows)
    order = np.flatnonzero(odds >= GATE)
    order = order[np.argsort(-odds[order], kind="stable")]
    kept: list[int] = []
    for i in order:
        c = sweep.centres[i]
        if all(np.hypot(*(c - sweep.centres[k])) >= APART * side for k in kept):
            kept.append(int(i))
    return sweep.centres[kept].reshape(-1, 2)
