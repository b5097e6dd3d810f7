"""Measuring the reader on a labelled set: the figures of issue 3 and pictures of failures.

Predictions are matched to labels by centre, not by box overlap, because some sets box
only the pip pattern (tiny for a one): a prediction matches a label when its centre lies
within half a die of the label's centre (the larger of the label's size and the die size
the reader measured), nearest pairs first.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from scorer.dice import CARD_RANKS, CLASS_NAMES, face_class
from scorer.vision.labelled import LabelledDie, LabelledPhoto
from scorer.vision.reading import DEFAULT_THRESHOLD, Die, Reading

#: confusion-matrix axes: 12 faces, then "none" (a missed die / an extra die)
AXIS: tuple[str, ...] = (*CLASS_NAMES, "none")
NONE = len(AXIS) - 1


@dataclass
class PhotoResult:
    """One photo: its labels, the reading, and which prediction matched which label."""

    photo: LabelledPhoto
    reading: Reading | None
    pairs: list[tuple[int, int]]  # (label index, die index)
    missed: list[int]
    extra: list[int]
    error: str | None = None

    @property
    def exact(self) -> bool:
        """Every die read right and nothing extra."""
        if self.reading is None or self.missed or self.extra:
            return False
        return all(same_face(self.photo.dice[i], self.reading.dice[j]) for i, j in self.pairs)


@dataclass
class Report:
    """The figures of one set, as ``scorer eval`` prints them."""

    threshold: float
    results: list[PhotoResult] = field(default_factory=list)

    def add(self, result: PhotoResult) -> None:
        self.results.append(result)

    @property
    def labelled(self) -> int:
        return sum(len(r.photo.dice) for r in self.results)

    @property
    def correct(self) -> int:
        return sum(
            same_face(r.photo.dice[i], r.reading.dice[j])
            for r in self.results
            if r.reading is not None
            for i, j in r.pairs
        )

    @property
    def missed(self) -> int:
        return sum(len(r.missed) for r in self.results)

    @property
    def extra(self) -> int:
        return sum(len(r.extra) for r in self.results)

    @property
    def per_die(self) -> float:
        return self.correct / self.labelled if self.labelled else 1.0

    @property
    def per_image(self) -> float:
        return sum(r.exact for r in self.results) / len(self.results) if self.results else 1.0

    def confusion(self) -> np.ndarray:
        """Rows: the label (or none for an extra die); columns: what the reader said."""
        m = np.zeros((len(AXIS), len(AXIS)), np.int64)
        for r in self.results:
            for i in r.missed:
                m[face_class(r.photo.dice[i].face, r.photo.dice[i].value), NONE] += 1
            if r.reading is None:
                continue
            for i, j in r.pairs:
                d, p = r.photo.dice[i], r.reading.dice[j]
                m[face_class(d.face, d.value), face_class(p.face, p.value)] += 1
            for j in r.extra:
                p = r.reading.dice[j]
                m[NONE, face_class(p.face, p.value)] += 1
        return m

    def confident(self) -> tuple[int, int, int, int]:
        """(dice marked confident, of which wrong or extra, dice marked unsure, dice read)."""
        sure = wrong = unsure = total = 0
        for r in self.results:
            if r.reading is None:
                continue
            matched = dict((j, i) for i, j in r.pairs)
            for j, die in enumerate(r.reading.dice):
                total += 1
                if die.confidence < self.threshold:
                    unsure += 1
                    continue
                sure += 1
                if j not in matched or not same_face(r.photo.dice[matched[j]], die):
                    wrong += 1
        return sure, wrong, unsure, total

    def confident_extra(self) -> int:
        """Of the dice marked confident and wrong, how many match no label (an extra die:
        a side face, a thing that is no die, or a die the labels lack)."""
        return sum(
            1
            for r in self.results
            if r.reading is not None
            for j in r.extra
            if r.reading.dice[j].confidence >= self.threshold
        )

    def second_guesses(self) -> tuple[int, int]:
        """(unsure dice read wrong, of which the second guess is right): how often the
        choice the table offers beside the first (``Die.guess``) settles a misread die."""
        wrong = right = 0
        for r in self.results:
            if r.reading is None:
                continue
            for i, j in r.pairs:
                label, die = r.photo.dice[i], r.reading.dice[j]
                if die.confidence >= self.threshold or same_face(label, die):
                    continue
                wrong += 1
                right += label.face == die.face and label.value == die.guess
        return wrong, right

    def times(self) -> tuple[float, float]:
        ms = [r.reading.ms for r in self.results if r.reading is not None]
        if not ms:
            return 0.0, 0.0
        return float(np.median(ms)), float(np.percentile(ms, 95))

    def lines(self) -> list[str]:
        """The report as text: the figures, then the confusion matrix."""
        sure, wrong, unsure, total = self.confident()
        missread, settled = self.second_guesses()
        med, p95 = self.times()
        used = [
            k for k in range(len(AXIS)) if self.confusion()[k].sum() or self.confusion()[:, k].sum()
        ]
        one_in = f"1 in {sure / wrong:.0f}" if wrong else f"0 in {sure}"
        out = [
            f"photos {len(self.results)}, dice {self.labelled}",
            f"per-die accuracy   {100 * self.per_die:6.2f} %  ({self.correct}/{self.labelled})",
            f"per-image exact    {100 * self.per_image:6.2f} %",
            f"missed dice        {self.missed}",
            f"extra dice         {self.extra}",
            f"confident & wrong  {one_in}  ({wrong} of {sure} at threshold {self.threshold:g};"
            f" {self.confident_extra()} of them extra)",
            f"flagged unsure     {100 * unsure / total if total else 0:6.2f} %  ({unsure}/{total})",
            f"unsure & wrong     {missread}, the second guess right on {settled}",
            f"ms median {med:.1f}, p95 {p95:.1f}",
            f"errors             {sum(r.error is not None for r in self.results)}",
            "confusion (rows: label, columns: read; none = missed / extra):",
        ]
        m = self.confusion()
        out.append("       " + "".join(f"{AXIS[k]:>6}" for k in used))
        out.extend(f"{AXIS[r]:>6} " + "".join(f"{m[r, k]:6d}" for k in used) for r in used)
        return out

    def to_dict(self) -> dict[str, object]:
        sure, wrong, unsure, total = self.confident()
        missread, settled = self.second_guesses()
        med, p95 = self.times()
        return {
            "photos": len(self.results),
            "dice": self.labelled,
            "per_die": self.per_die,
            "per_image_exact": self.per_image,
            "missed": self.missed,
            "extra": self.extra,
            "confident": sure,
            "confident_wrong": wrong,
            "confident_extra": self.confident_extra(),
            "unsure": unsure,
            "unsure_rate": unsure / total if total else 0.0,
            "unsure_wrong": missread,
            "second_guess_right": settled,
            "ms_median": med,
            "ms_p95": p95,
        }


def same_face(label: LabelledDie, die: Die) -> bool:
    """Whether ``die`` was read as the face ``label`` names."""
    return label.face == die.face and label.value == die.value


def match(
    photo: LabelledPhoto, reading: Reading
) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """Pairs (label, die) by centre distance, nearest first; then the missed and the extra."""
    labels, dice = photo.dice, reading.dice
    typical = float(np.median([d.box[2] for d in dice])) if dice else 0.0
    candidates = []
    for i, label in enumerate(labels):
        lx, ly = label.centre
        reach = max(max(label.box[2], label.box[3]), typical if photo.box_kind == "pips" else 0.0)
        reach = reach / 2 * (1.25 if photo.box_kind == "die" else 1.0)
        for j, die in enumerate(dice):
            x, y, w, h = die.box
            d = math.hypot(x + w / 2 - lx, y + h / 2 - ly)
            if d <= reach:
                candidates.append((d, i, j))
    pairs, used_l, used_d = [], set(), set()
    for _, i, j in sorted(candidates):
        if i in used_l or j in used_d:
            continue
        pairs.append((i, j))
        used_l.add(i)
        used_d.add(j)
    missed = [i for i in range(len(labels)) if i not in used_l]
    extra = [j for j in range(len(dice)) if j not in used_d]
    return pairs, missed, extra


def closer(
    image: np.ndarray, photo: LabelledPhoto, zoom: float
) -> tuple[np.ndarray, LabelledPhoto] | None:
    """The photo as a camera ``zoom`` times closer would take it, or None if a die would
    leave the picture.

    A window 1/zoom of the frame, centred on the dice (inside the frame), enlarged back to
    the frame's size, with the labels moved to match. A real camera close to a small tray
    makes dice far bigger than both test splits do; this measures the reader on them.
    """
    if zoom < 1:
        raise ValueError(f"closer takes a zoom of at least 1, not {zoom}")
    h, w = image.shape[:2]
    if not photo.dice:
        return None
    ww, wh = w / zoom, h / zoom
    cx = float(np.mean([d.centre[0] for d in photo.dice]))
    cy = float(np.mean([d.centre[1] for d in photo.dice]))
    x0 = min(max(0.0, cx - ww / 2), w - ww)
    y0 = min(max(0.0, cy - wh / 2), h - wh)
    for d in photo.dice:
        x, y, bw, bh = d.box
        if x < x0 or y < y0 or x + bw > x0 + ww or y + bh > y0 + wh:
            return None
    # the window as an affine map, so that fractional corners stay exact
    m = np.float32([[zoom, 0, -x0 * zoom], [0, zoom, -y0 * zoom]])
    view = cv2.warpAffine(image, m, (w, h), flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE)
    dice = tuple(
        LabelledDie(
            d.face,
            d.value,
            ((d.box[0] - x0) * zoom, (d.box[1] - y0) * zoom, d.box[2] * zoom, d.box[3] * zoom),
        )
        for d in photo.dice
    )
    return view, LabelledPhoto(photo.path, dice, photo.box_kind)


def wider(image: np.ndarray, photo: LabelledPhoto, zoom: float) -> tuple[np.ndarray, LabelledPhoto]:
    """The photo in the middle of a frame ``zoom`` times as wide and high, filled with the
    colour of its edges: what a wider or sharper camera sees, the dice keeping their
    pixels while the finder's board gives them ``zoom`` times fewer. A Pi camera's
    1920x1080 frame of a whole table leaves dice about that small."""
    if zoom < 1:
        raise ValueError(f"wider takes a zoom of at least 1, not {zoom}")
    h, w = image.shape[:2]
    big_h, big_w = round(h * zoom), round(w * zoom)
    oy, ox = (big_h - h) // 2, (big_w - w) // 2
    rim = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]])
    view = np.empty((big_h, big_w, 3), np.uint8)
    view[:] = np.median(rim, axis=0)
    view[oy : oy + h, ox : ox + w] = image
    dice = tuple(
        LabelledDie(d.face, d.value, (d.box[0] + ox, d.box[1] + oy, d.box[2], d.box[3]))
        for d in photo.dice
    )
    return view, LabelledPhoto(photo.path, dice, photo.box_kind)


def evaluate(
    read: Callable[..., Reading],
    photos: Iterable[LabelledPhoto],
    *,
    threshold: float = DEFAULT_THRESHOLD,
    failures: Path | None = None,
    zoom: float = 1.0,
    widen: float = 1.0,
    told: bool = False,
) -> Report:
    """Read every photo, match, and (with ``failures``) draw every photo that went wrong.

    With ``zoom`` > 1 each photo is seen ``closer`` (photos whose dice would not all fit
    are left out of the report), with ``widen`` > 1 in a ``wider`` frame. ``told``: each
    photo is read as a table reads a throw, knowing how many dice it threw (``read`` is
    given ``least``, the photo's labelled dice).
    """
    report = Report(threshold)
    if failures is not None:
        failures.mkdir(parents=True, exist_ok=True)
    for photo in photos:
        image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
        if image is None:
            report.add(PhotoResult(photo, None, [], list(range(len(photo.dice))), [], "unreadable"))
            continue
        if zoom != 1.0:
            view = closer(image, photo, zoom)
            if view is None:
                continue
            image, photo = view
        if widen != 1.0:
            image, photo = wider(image, photo, widen)
        reading = read(image, least=len(photo.dice)) if told else read(image)
        pairs, missed, extra = match(photo, reading)
        result = PhotoResult(photo, reading, pairs, missed, extra)
        report.add(result)
        if failures is not None and not result.exact:
            cv2.imwrite(str(failures / f"{photo.path.stem}.jpg"), overlay(image, result, threshold))
    return report


def overlay(image: np.ndarray, result: PhotoResult, threshold: float) -> np.ndarray:
    """The photo with labels (green, value above) and reads (red wrong, orange unsure,
    blue right; value and confidence below), so a person sees what went wrong."""
    out = image.copy()
    scale = max(0.4, min(out.shape[:2]) / 1000)
    for label in result.photo.dice:
        x, y, w, h = (round(v) for v in label.box)
        cv2.rectangle(out, (x, y), (x + w, y + h), (0, 200, 0), 1)
        cv2.putText(out, _name(label.face, label.value), (x, y - 3), 0, scale, (0, 160, 0), 1)
    if result.reading is None:
        return out
    right = {j for i, j in result.pairs if same_face(result.photo.dice[i], result.reading.dice[j])}
    for j, die in enumerate(result.reading.dice):
        x, y, w, h = die.box
        colour = (255, 90, 0) if j in right else (0, 0, 230)
        if die.confidence < threshold:
            colour = (0, 140, 255)
        cv2.rectangle(out, (x, y), (x + w, y + h), colour, 2)
        text = f"{_name(die.face, die.value)} {die.confidence:.2f}"
        cv2.putText(out, text, (x, y + h + int(14 * scale * 2)), 0, scale, colour, 1)
    return out


def _name(face: str, value: int) -> str:
    return CARD_RANKS[value - 1] if face == "card" else str(value)
