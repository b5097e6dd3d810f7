"""A dice profile: what one table's own set of dice looks like, taught by its players.

No reader knows every die ever made (a maker's logo for a six, a marbled body, card art
it never saw). A profile keeps face crops of one set that players confirmed or corrected,
with their values, and re-scores the face network's reading of a crop that looks like
them: the network's last feature map, averaged over each quarter of the crop (``GRID``,
512 numbers: where a face's pips lie as well as what they look like), is compared with
the taught crops' (the pooled features beside it judge mistaken taps and spots that are
no die: ``POOLED``), and where the nearest taught crops are close, their vote
takes over from the network's. Dice that look like nothing taught read as before.

The table's camera is fixed, so a profile also knows how big its dice look: each taught
die keeps its side in frame pixels and the frame's size, and ``size`` (the median side
at the newest frame size) lets the reader look at a photo of that size at the scale its
dice need instead of guessing it.

A size can also lose a set's dice: the finder sees some sets better at the scale that
fills its board than at the one that makes their dice TARGET_DIE px. So a profile keeps,
for each photo it was taught from, how many of its dice were read right with the set's
size and without it, the photo read without what it taught itself (``tried``, ``judge``
in ``teaching``), and uses its size only where that read its photos no worse
(``uses_size``). The vote has its own such check on the taught crops (``calibrate``).

Where the finder does not mark the set's dice at all, a profile also keeps, for each of its
newest taught photos, what the face network sees at windows on its named dice and on the
floor around them (``scorer.vision.sweep``), and fits a head that marks the set's dice on
a tray (``look``).

A profile is one file (``profile.npz``) in its own folder. It keeps the crops themselves,
so a new face network re-describes them (``migrate``) rather than throwing them away.
"""

from __future__ import annotations

import copy
import hashlib
import io
import json
import logging
import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from scorer.dice import BACKGROUND, CARDS, FACE_CLASSES, FACES, class_face, face_class
from scorer.errors import ScorerError
from scorer.vision.sweep import Look, fitted

log = logging.getLogger(__name__)

#: Version of the file layout; a file of a later version is refused, never guessed at.
#: 2: each example keeps its die's side and frame size (format 1 loads without them).
#: 3: the trials of the set's size on its taught photos (``trials``; format 2 loads without
#: them and uses its size, as it did).
#: 4: the windows of the set's own look (``teach_look``; format 3 loads without them: no
#: look until photos are taught again).
FORMAT = 4
FILE_NAME = "profile.npz"
#: the face network's features: global average pooling, before its one linear layer
EMBEDDING = "onnx_node!/net/features/features.11/Flatten"
OUTPUT = "probs"
#: the same features as a second output of the file (``vision_models.train.fit.expose_features``)
FEATURES = "features"
#: the last feature map averaged over each quarter of the crop, the file's third output
#: (``vision_models.train.fit.expose_grid``): what a profile compares, where a file has it.
#: On a marbled body every face pools to nearly the same ``features`` (0.85-0.95 alike),
#: and the vote made most of a set's dice the face taught most often; the quarters keep
#: where the pips lie (docs/teaching.md, "Where the pips lie")
GRID = "grid"
#: A profile's rows hold the pooled features (this many) and then the quarters: the face
#: vote compares the quarters; the mistaken-tap and no-die checks, whose thresholds were
#: set on them, the pooled features
POOLED = 128
#: What a profile's rows hold, part of its networks' fingerprint (``model_digest``): a
#: profile written by a scorer that kept other features (the pooled ones alone, or the
#: quarters alone) is described again on load
LAYOUT = "features+grid"
CROP = 48  # the face network's crop side (``crop.FACE_INPUT``)
#: Each taught crop is kept in four quarter turns: the reader turns a die's edges upright,
#: which leaves the face in any of four turns.
TURNS = 4
#: At most this many crops of one face are kept (corrections before plain confirmations,
#: newer before older): a night of play stays a few MB.
MAX_PER_FACE = 40
#: Nearest taught crops voting on a die (each by its nearest turn), and how sharply
#: closer ones count more.
NEIGHBOURS = 5
SHARPNESS = 0.02
#: Taught crops that look like a mistaken tap are set aside (``doubted``).
DOUBT = 0.95
CONTRARY = 0.9
BACKING = 0.9
UNLIKELY = 0.01
#: Cosine similarity of a die's features to the nearest taught crop at which the taught
#: vote starts to count: ``near`` (calibrated) for a die the network cannot name at all,
#: ``near`` + SURE for one it names surely (a taught crop of another face of the same
#: dice can be nearly as close as one of its own face); the vote has replaced the
#: network's another BLEND above that.
SURE = 0.12
BLEND = 0.05

#: Where the vote starts counting is chosen per profile (``calibrate``) from NEARS: the
#: taught crops are read again, each without itself, and the gate under which their
#: taught faces are likeliest wins, if it reads as many of them right as the network
#: alone and makes them likelier by GAIN (log) a crop on average; else the vote stays
#: off (1.01). A set the network already reads surely keeps its reading (on 100 taught
#: tray-multicolor dice a looser gate gained 0.002 a crop, and lost 0.4 points on the
#: rest of the split); a set it misreads or doubts is voted on (the drawn logo set of
#: the tests: 0.17 a crop). A face read at under LEAST counts as LEAST.
NEARS = (0.70, 0.74, 0.78, 0.82, 0.86, 0.90, 0.94, 1.01)
LEAST = 1e-3
GAIN = 0.02

#: A spot the reader took for a die where the players said there is none (a token, a
#: coin, a playing card's pip) is taught as "not a die" (BACKGROUND). Such crops do not
#: vote on faces; a crop at least JUNK_NEAR alike to one of them, and JUNK_MARGIN more
#: alike to it than to every taught face, is no die (``_no_die``): a table's clutter
#: comes back throw after throw, while a die of the set lies nearer its own taught faces.
JUNK_NEAR = 0.9
JUNK_MARGIN = 0.05
#: ... and only at its size (the camera is fixed: a token is as big in every photo): a
#: spot of a die the finder sized far too big shows a small dark blob like a taught
#: screw cap, and dropping it lost the closer look that reads that die
JUNK_SIZE = 1.5

#: A set's size (``measure``) counts the dice the reader read right on its own, other than
#: ones (a lone pip, or one pip of a big die, reads as a one at any size; and a die read
#: wrong or missed may have been looked at at the wrong size), once SIZED_DICE are taught.
#: Counting every die let a wrong size feed itself: webcam-white seen 3x closer, taught
#: from its first 5 train photos (8 ones), was read at the size of its pips (7 % per die).
SIZED_DICE = 3
ONE = face_class("pips", 1)

#: A taught photo's trial (``DiceProfile.trials``): its dice read right, less the extra
#: dice found, with the set's size and without it.
TRIAL = ("sized", "unsized")
#: Temperatures a set may put on its confidences (``DiceProfile.temperature``), and how
#: many dice its trials must have read before it does: never surer than the networks, and
#: not on a few.
TEMPERATURES = (1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 4.0)
SURENESS_DICE = 12
#: The windows of the set's own look are kept for this many newest taught photos (512
#: numbers a window, 150-250 windows a photo: about 2 MB at most).
LOOK_PHOTOS = 12

#: crops and the set's kind of dice ("pips", "card" or None) -> (features (n, k), the
#: network's face probabilities (n, 13)): a set of poker dice may have its own network
Embed = Callable[[Sequence[np.ndarray], str | None], tuple[np.ndarray, np.ndarray]]


class ProfileError(ScorerError):
    """A profile that cannot be used: unreadable, foreign, of a newer scorer, or taught
    with dice of the other kind."""


@dataclass(frozen=True)
class Example:
    """One taught die: its upright face crop, the class it is (0-5 pips, 6-11 cards, 12 not
    a die), where it came from (for undo), whether a player corrected the reader, and how
    big it was: its side (frame px, 0 if unknown) in a frame of ``frame`` (width, height)."""

    crop: np.ndarray
    label: int
    source: str
    correction: bool = False
    taught: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    side: float = 0.0
    frame: tuple[int, int] | None = None


@dataclass(frozen=True)
class DieSize:
    """How big a set's dice look to the table's camera: the median ``side`` (frame px) of
    the taught dice in frames of ``frame`` (width, height)."""

    side: float
    frame: tuple[int, int]


def model_digest(*paths: Path, layout: str = LAYOUT) -> str:
    """A short fingerprint of the face networks whose features a profile holds, and of
    which of their features it keeps (``LAYOUT``): a profile of other networks or of
    other features is described again on load."""
    digest = hashlib.sha256(layout.encode("utf-8"))
    for path in paths:
        digest.update(Path(path).read_bytes())
    return digest.hexdigest()[:16]


class DiceProfile:
    """The taught crops of one set of dice and their features.

    >>> profile = DiceProfile("blue marbled")                    # doctest: +SKIP
    >>> profile.teach([crop], [face_class("pips", 6)], "game 3", reader.embed)  # doctest: +SKIP
    >>> reader.profile = profile                                 # doctest: +SKIP
    """

    def __init__(self, name: str = "", kind: str | None = None, model: str = "") -> None:
        if kind is not None and kind not in FACES:
            raise ProfileError(f"a set of dice is pips or card dice, not {kind!r}")
        self.name = name
        self.kind = kind
        self.model = model
        self.examples: list[Example] = []
        # TURNS rows per example: unit features, the network's probabilities, the class
        self._features = np.zeros((0, 0), np.float32)
        self._probs = np.zeros((0, FACE_CLASSES), np.float32)
        self._labels = np.zeros(0, np.int64)
        self.near = NEARS[-1]
        self._doubted = np.zeros(0, bool)  # per example: set aside as a mistaken tap
        #: how big the taught dice look (``measure``), None until a die of known size is taught
        self.size: DieSize | None = None
        #: per taught photo's source: TRIAL -> its dice read right less extra dice found,
        #: read without what it taught (``teaching.judge``); and whether they chose the size
        self.trials: dict[str, dict[str, int]] = {}
        #: per taught photo's source: TRIAL -> each die that trial read, as [confidence,
        #: right] (a die where none is named: not right): how sure the set may be
        self.seen: dict[str, dict[str, list[list[float]]]] = {}
        self.uses_size = True
        #: crops kept a class (``_keep_within_limits``): a set's; a prior built from many
        #: renders keeps more (``vision_models.train.ranks``)
        self.per_face = MAX_PER_FACE
        self._temperature = 1.0  # fitted by ``choose`` (``temperature``)
        #: the windows of the set's own look: features (n, 512), on a die or not, source
        self._look_rows = np.zeros((0, 0), np.float32)
        self._look_labels = np.zeros(0, bool)
        self._look_sources: list[str] = []
        self._fitted: Look | None = None
        self._fit = False  # whether ``_fitted`` holds the fit of the windows now kept
        self._looking = True  # a trial of the size reads without the look (``tried``)
        self._without: str | None = None  # a trial's source, whose crops do not vote

    def __len__(self) -> int:
        return len(self.examples)

    # ------------------------------------------------------------------ teaching

    def teach(
        self,
        crops: Sequence[np.ndarray],
        labels: Sequence[int],
        source: str,
        embed: Embed,
        corrections: Sequence[bool] | None = None,
        sides: Sequence[float] | None = None,
        frame: tuple[int, int] | None = None,
    ) -> int:
        """Add taught crops (upright 48x48 BGR) with their classes; returns how many.

        ``sides`` (frame px) and ``frame`` (width, height) say how big the dice were in the
        photo they were cut from (``size``). A die of the other kind than the set's is
        refused (the set's kind is fixed by its first taught die): nothing is added then.
        """
        if len(crops) != len(labels):
            raise ProfileError("every taught crop needs one label")
        labels = [int(v) for v in labels]
        for value in labels:
            if not 0 <= value < FACE_CLASSES:
                raise ProfileError(f"class {value} is not a face (0..{FACE_CLASSES - 1})")
        kinds = {class_face(v)[0] for v in labels if v != BACKGROUND}
        if len(kinds) > 1:
            raise ProfileError("one set of dice is pip dice or poker dice, not both")
        if kinds and self.kind is not None and kinds != {self.kind}:
            (other,) = kinds
            raise ProfileError(
                f"the set {self.name or '(unnamed)'} holds {self.kind} dice: "
                f"{other} labels belong to another set"
            )
        if not crops:
            return 0
        for crop in crops:
            if not isinstance(crop, np.ndarray) or crop.shape != (CROP, CROP, 3):
                raise ProfileError(f"a taught crop is a {CROP}x{CROP} colour image")
        fixes = list(corrections) if corrections is not None else [False] * len(crops)
        measured = [float(v) for v in sides] if sides is not None else [0.0] * len(crops)
        if len(measured) != len(crops) or any(not v >= 0.0 for v in measured):
            raise ProfileError("every taught crop needs one side of 0 px or more")
        where = (int(frame[0]), int(frame[1])) if frame is not None else None
        kind = next(iter(kinds)) if kinds else self.kind
        features, probs = _described(crops, embed, kind)
        self.kind = kind
        for crop, label, fix, side in zip(crops, labels, fixes, measured, strict=True):
            crop = np.ascontiguousarray(crop, np.uint8)
            self.examples.append(Example(crop, label, source, fix, side=side, frame=where))
        self._features = (
            np.concatenate([self._features, features]) if len(self._features) else features
        )
        self._probs = np.concatenate([self._probs, probs])
        self._labels = np.concatenate([self._labels, np.repeat(labels, TURNS)])
        self._keep_within_limits()
        self._settle()
        return len(crops)

    def teach_look(self, rows: np.ndarray, labels: np.ndarray, source: str) -> None:
        """Keep a taught photo's windows (``sweep.windows``: features and whether each lies
        on a named die) for the set's own look; the newest LOOK_PHOTOS photos' are kept."""
        rows = np.asarray(rows, np.float32)
        labels = np.asarray(labels, bool)
        if len(rows) != len(labels):
            raise ProfileError("every window of a look needs one label")
        if not len(rows):
            return
        if len(self._look_rows) and rows.shape[1] != self._look_rows.shape[1]:
            self._drop_looks(set(self._look_sources))  # another network's windows
        self._look_rows = np.concatenate([self._look_rows, rows]) if len(self._look_rows) else rows
        self._look_labels = np.concatenate([self._look_labels, labels])
        self._look_sources += [source] * len(rows)
        kept = list(dict.fromkeys(self._look_sources))
        self._drop_looks(set(kept[:-LOOK_PHOTOS]))

    def _drop_looks(self, sources: set[str]) -> None:
        keep = np.array([s not in sources for s in self._look_sources], bool)
        if len(keep) and not keep.all():
            self._look_rows = self._look_rows[keep]
            self._look_labels = self._look_labels[keep]
            self._look_sources = [s for s, k in zip(self._look_sources, keep, strict=True) if k]
        self._fit = False

    @property
    def look_windows(self) -> tuple[int, int, int]:
        """The look's windows kept, the photos they come from, those on a die."""
        sources = len(set(self._look_sources))
        return len(self._look_rows), sources, int(self._look_labels.sum())

    @property
    def look(self) -> Look | None:
        """The set's own look fitted on its taught photos' windows, or None where they
        hold no die."""
        if not self._looking:
            return None
        if not self._fit:
            self._fitted, self._fit = fitted(self._look_rows, self._look_labels), True
        return self._fitted

    def joined(self, prior: DiceProfile) -> DiceProfile:
        """This set read with ``prior``'s taught crops voting beside its own: a set whose
        dice print another script starts from crops taught from renders of it
        (``scorer.vision.script``). Size, look and trials stay the set's own; how sure it
        may be is its own once its trials read SURENESS_DICE dice, else the prior's. A copy
        for reading, never saved: the set's file keeps its own crops, undo and "Forget
        these dice" never touch the prior's. A prior of the other kind is not joined."""
        if not len(prior) or (self.kind is not None and self.kind != prior.kind):
            return self
        both = copy.copy(self)
        both.examples = prior.examples + self.examples
        own = len(self.examples) > 0
        both._features = (
            np.concatenate([prior._features, self._features]) if own else prior._features
        )
        both._probs = np.concatenate([prior._probs, self._probs]) if own else prior._probs
        both._labels = np.concatenate([prior._labels, self._labels]) if own else prior._labels
        both.kind = prior.kind
        both.calibrate()
        if len(self.trial_dice()) < SURENESS_DICE:
            both._temperature = prior._temperature
        return both

    def as_prior(self) -> DiceProfile:
        """This profile cut down, in place, to its taught faces alone, to join other sets
        (``joined``): no spot taught as no die (a render's table is not theirs), no size
        (their dice are as big as their camera makes them), no look of a tray; its trials
        kept (how sure it may be)."""
        keep = [i for i, e in enumerate(self.examples) if e.label != BACKGROUND]
        self._select(keep)
        self.examples = [replace(e, side=0.0, frame=None) for e in self.examples]
        self._drop_looks(set(self._look_sources))
        self._settle()
        return self

    def forget(self, source: str | None = None) -> int:
        """Remove the crops taught from ``source`` (an undone throw), or all of them."""
        keep = [i for i, e in enumerate(self.examples) if source is not None and e.source != source]
        removed = len(self.examples) - len(keep)
        self._select(keep)
        self._drop_looks({source} if source is not None else set(self._look_sources))
        if not self.examples:
            self.kind = None
        self._settle()
        return removed

    def _settle(self) -> None:
        """After the taught crops changed: trials of sources gone dropped, the gate, the
        size and the use of the size chosen again."""
        sources = self.sources()
        self.trials = {s: t for s, t in self.trials.items() if s in sources}
        self.seen = {s: t for s, t in self.seen.items() if s in sources}
        self.calibrate()
        self.measure()
        self.choose()

    def counts(self) -> dict[int, int]:
        """Taught crops per class (0-5 pips, 6-11 cards, 12 not a die)."""
        out: dict[int, int] = {}
        for e in self.examples:
            out[e.label] = out.get(e.label, 0) + 1
        return dict(sorted(out.items()))

    def sources(self) -> set[str]:
        return {e.source for e in self.examples}

    def _keep_within_limits(self) -> None:
        """At most ``per_face`` crops a class: corrections first, then the newest."""
        drop: set[int] = set()
        for label in set(e.label for e in self.examples):
            mine = [i for i, e in enumerate(self.examples) if e.label == label]
            if len(mine) <= self.per_face:
                continue
            ranked = sorted(mine, key=lambda i: (self.examples[i].correction, i), reverse=True)
            drop.update(ranked[self.per_face :])
        if drop:
            self._select([i for i in range(len(self.examples)) if i not in drop])

    def _select(self, keep: list[int]) -> None:
        rows = np.array([i * TURNS + t for i in keep for t in range(TURNS)], np.int64)
        self.examples = [self.examples[i] for i in keep]
        self._features = self._features[rows] if len(rows) else self._features[:0]
        self._probs = self._probs[rows] if len(rows) else self._probs[:0]
        self._labels = self._labels[rows] if len(rows) else self._labels[:0]

    def measure(self) -> DieSize | None:
        """Set ``size`` from the taught dice of known size that the reader read right, other
        than ones (``SIZED_DICE``): the median side of those taught in frames of the newest
        one's frame size, so a camera changed or moved since counts only once it has been
        taught at; None under SIZED_DICE of them."""
        self.size = self._measured()
        return self.size

    def _measured(self, without: str | None = None) -> DieSize | None:
        sized = [
            e
            for e in self.examples
            if e.label not in (BACKGROUND, ONE)
            and not e.correction
            and e.side > 0
            and e.frame
            and e.source != without
        ]
        if sized:
            frame = sized[-1].frame
            sides = [e.side for e in sized if e.frame == frame]
            if frame is not None and len(sides) >= SIZED_DICE:
                return DieSize(float(np.median(sides)), frame)
        return None

    # ------------------------------------------------------------------ its trials

    @property
    def reading_size(self) -> DieSize | None:
        """The set's size where the reader is to look for it (``uses_size``), else None."""
        return self.size if self.uses_size else None

    def tried(self, sized: bool, without: str) -> DiceProfile:
        """This profile with or without its size (``sized``), knowing nothing of what
        ``without`` (a source) taught: how the set would read that source's photo had it
        not been taught. Without the set's own look: the size is judged on the dice the
        finder marks at it (the look only adds to them; judged with it, a size that loses
        the finder dice the look then marks again ties, and was chosen). A shallow copy:
        the taught crops' arrays are shared, the list of examples copied."""
        trial = copy.copy(self)
        trial.examples = list(self.examples)  # a lesson taught later leaves it as it was
        trial._looking = False
        trial.uses_size = sized
        trial._without = without
        trial.size = self._measured(without)
        return trial

    def record(
        self,
        source: str,
        scores: dict[str, int],
        seen: dict[str, list[list[float]]] | None = None,
    ) -> None:
        """Keep a taught photo's trial (TRIAL -> dice read right less extra) and choose
        again whether to use the size (a source of several photos, a turn of several throws,
        scores their sum)."""
        if set(scores) != set(TRIAL):
            raise ProfileError(f"a trial scores {' and '.join(TRIAL)}")
        if seen is not None:
            checked = _trial_seen(seen)
            if checked is None:
                raise ProfileError("a trial's dice are [confidence 0..1, right 0 or 1] each")
            self.seen[source] = checked
        self.trials[source] = {k: int(v) for k, v in scores.items()}
        self.choose()

    def choose(self) -> bool:
        """Use the size unless the taught photos' trials read fewer dice right with it."""
        sized, unsized = (sum(t[k] for t in self.trials.values()) for k in TRIAL)
        self.uses_size = sized >= unsized
        self._temperature = self._fitted_temperature()
        return self.uses_size

    def trial_dice(self) -> list[list[float]]:
        """The dice its trials read ([confidence, right] each) by the trial it reads by:
        with its size where it uses one, else without."""
        key = TRIAL[0] if self.uses_size and self.size is not None else TRIAL[1]
        return [r for t in self.seen.values() for r in t.get(key, [])]

    def trial_sureness(self, threshold: float) -> tuple[int, int, int]:
        """(dice, sure, sure and wrong) of the dice its trials read (``trial_dice``), sure
        at ``threshold``: what the set says of how sure it may be."""
        rows = self.trial_dice()
        sure = [right for confidence, right in rows if confidence >= threshold]
        return len(rows), len(sure), len(sure) - int(sum(sure))

    @property
    def temperature(self) -> float:
        """How much less sure than its networks a reading with this set should say it is
        (``sured``), as fitted when its trials or the use of its size last changed
        (``choose``); a trial reads as the networks say (``tried``)."""
        return 1.0 if self._without is not None else self._temperature

    def _fitted_temperature(self) -> float:
        """The likeliest of TEMPERATURES for whether each die its trials read was right
        (each taught photo without itself, by the trial it reads by: with its size or
        without); 1 until they read SURENESS_DICE dice. Its own taught crops would flatter
        the vote; its trials' photos were not taught when read."""
        rows = self.trial_dice()
        if len(rows) < SURENESS_DICE:
            return 1.0
        # a die read wrong at 1.00 weighs as one at 1 - 1e-6: one such die must not set it
        sure = np.clip(np.array([r[0] for r in rows], np.float64), 1e-6, 1 - 1e-6)
        right = np.array([r[1] for r in rows], bool)

        def likelihood(t: float) -> float:
            told = sured(sure, t)
            return float(np.log(np.where(right, told, 1.0 - told)).sum())

        return max(TEMPERATURES, key=likelihood)

    # ------------------------------------------------------------------ reading

    @property
    def votes(self) -> bool:
        """Whether its taught crops' vote has a say in a reading (its gate open: ``near``,
        chosen by ``calibrate``)."""
        return self.near <= 1.0

    def rescore(
        self, features: np.ndarray, probs: np.ndarray, sides: np.ndarray | None = None
    ) -> np.ndarray:
        """The face probabilities (n, 13) of crops whose features are ``features`` (n, k),
        with the taught crops' vote mixed in where they are near (``near``, ``SURE``); a
        crop of a spot whose side (frame px, ``sides``) is given, like a spot taught as
        no die at its size, is no die (``_no_die``)."""
        probs = np.array(probs, np.float64).reshape(len(features), -1)
        labels = self._labels[::TURNS]
        junk = labels == BACKGROUND
        if not len(labels) or not len(features) or (not self.votes and not junk.any()):
            return probs
        unit = _unit(np.asarray(features, np.float32).reshape(len(features), -1))
        if self.votes and not junk.all():
            near = self._similar(_quarters(unit), _quarters(self._features))
            probs = _voted(near[:, ~junk], labels[~junk], probs, self.near)
        if junk.any() and sides is not None:
            sims = self._similar(_pooled(unit), _pooled(self._features))
            taught = np.array([e.side for e in self.examples])
            ratio = np.asarray(sides, np.float64).reshape(-1, 1) / np.maximum(taught, 1e-6)
            sized = (ratio <= JUNK_SIZE) & (ratio >= 1.0 / JUNK_SIZE)
            gone = _no_die(np.where(sized | ~junk, sims, -1.0), junk)
            probs[gone] = 0.0
            probs[gone, BACKGROUND] = 1.0
        return probs

    def _similar(self, rows: np.ndarray, taught: np.ndarray) -> np.ndarray:
        """Each row's similarity to each taught crop (its nearest turn), the doubted crops
        and those of the photo left out (``tried``) out of reach."""
        sims = _per_example(rows @ taught.T)
        sims[:, self._doubted] = -1.0
        if self._without is not None:
            sims[:, [e.source == self._without for e in self.examples]] = -1.0
        return sims

    def calibrate(self) -> float:
        """Set aside taught crops that look like a mistaken tap (``doubted``), then choose
        ``near`` by reading the taught crops again, each without itself (one upright look
        each, as a first look reads them)."""
        self.near = NEARS[-1]
        self._doubted = np.zeros(len(self.examples), bool)
        faces = np.flatnonzero(self._labels[::TURNS] != BACKGROUND)  # "not a die" never votes
        if len(faces) < 2:
            return self.near
        upright = faces * TURNS
        rows = (upright[:, None] + np.arange(TURNS)).ravel()
        pooled, quarters = _pooled(self._features), _quarters(self._features)
        sims = _per_example(pooled[upright] @ pooled[rows].T)
        np.fill_diagonal(sims, -1.0)
        wanted = self._labels[upright]
        probs = self._probs[upright].astype(np.float64)
        doubt = doubted(sims, wanted, probs)
        self._doubted[faces] = doubt
        sims = _per_example(quarters[upright] @ quarters[rows].T)
        np.fill_diagonal(sims, -1.0)
        sims[:, doubt] = -1.0
        scores = []
        for near in NEARS:
            voted = _voted(sims, wanted, probs, near)
            right = int((voted.argmax(1) == wanted)[~doubt].sum())
            chance = np.maximum(voted[np.arange(len(wanted)), wanted], LEAST)[~doubt]
            scores.append((right, float(np.log(chance).sum()), near))
        right_alone, likely_alone, _ = scores[-1]
        fair = [(likely, near) for right, likely, near in scores if right >= right_alone]
        likely, near = max(fair, key=lambda s: (s[0], s[1]))
        if likely - likely_alone >= GAIN * len(wanted):
            self.near = near
        return self.near

    # ------------------------------------------------------------------ files

    def save(self, folder: str | Path) -> Path:
        """Write ``folder/profile.npz`` whole or not at all (a temporary file renamed)."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        meta = {
            "format": FORMAT,
            "name": self.name,
            "kind": self.kind,
            "model": self.model,
            "examples": [
                {
                    "label": e.label,
                    "source": e.source,
                    "correction": e.correction,
                    "taught": e.taught,
                    "side": e.side,
                    "frame": list(e.frame) if e.frame is not None else None,
                }
                for e in self.examples
            ],
            "trials": self.trials,
            "seen": self.seen,
            "looks": self._look_sources,
        }
        crops = (
            np.stack([e.crop for e in self.examples])
            if self.examples
            else np.zeros((0, CROP, CROP, 3), np.uint8)
        )
        buffer = io.BytesIO()
        np.savez_compressed(
            buffer,
            meta=np.frombuffer(json.dumps(meta).encode("utf-8"), np.uint8),
            crops=crops,
            features=self._features.astype(np.float16),
            probs=self._probs.astype(np.float16),
            look=self._look_rows.astype(np.float16),
            look_labels=self._look_labels,
        )
        target = folder / FILE_NAME
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".profile-", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(buffer.getvalue())
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        return target

    @classmethod
    def load(
        cls,
        folder: str | Path,
        embed: Embed | None = None,
        model: str | Callable[[str | None], str] = "",
    ) -> DiceProfile:
        """Read ``folder/profile.npz``; a profile made with other face networks than
        ``model`` (their digest, or the digest for a set's kind) is migrated: its crops are
        described again by ``embed``."""
        path = Path(folder) / FILE_NAME
        if not path.is_file():
            raise ProfileError(f"no dice profile in {folder} (looked for {FILE_NAME})")
        try:
            with np.load(io.BytesIO(path.read_bytes()), allow_pickle=False) as data:
                meta = json.loads(bytes(data["meta"]).decode("utf-8"))
                crops = np.array(data["crops"])
                features = np.array(data["features"], np.float32)
                probs = np.array(data["probs"], np.float32)
                look = np.array(data["look"], np.float32) if "look" in data else None
                look_labels = np.array(data["look_labels"]) if "look_labels" in data else None
        except (OSError, ValueError, KeyError, EOFError, UnicodeDecodeError) as err:
            raise ProfileError(f"{path} is not a readable dice profile: {err}") from err
        except Exception as err:  # zipfile.BadZipFile and friends from a truncated file
            raise ProfileError(f"{path} is not a readable dice profile: {err}") from err
        if not isinstance(meta, dict) or not isinstance(meta.get("format"), int):
            raise ProfileError(f"{path} is not a dice profile (no format number)")
        if meta["format"] > FORMAT:
            raise ProfileError(
                f"{path} was written by a newer scorer (format {meta['format']}, this one "
                f"reads up to {FORMAT}): update the scorer or forget these dice"
            )
        if meta["format"] < 1:
            raise ProfileError(f"{path} has an unknown format {meta['format']}")
        if meta["format"] < 4:
            look = None  # written before the set's own look
        rows = meta.get("examples")
        if (
            not isinstance(rows, list)
            or crops.shape != (len(rows), CROP, CROP, 3)
            or crops.dtype != np.uint8
        ):
            raise ProfileError(f"{path} is damaged: its crops and their labels do not agree")
        profile = cls(str(meta.get("name") or ""), meta.get("kind"), str(meta.get("model") or ""))
        try:
            profile.examples = [
                Example(
                    crop,
                    int(row["label"]),
                    str(row["source"]),
                    bool(row.get("correction")),
                    str(row.get("taught", "")),
                    *_size_of(row),
                )
                for crop, row in zip(crops, rows, strict=True)
            ]
        except (KeyError, TypeError, ValueError) as err:
            raise ProfileError(f"{path} is damaged: {err}") from err
        if any(not 0 <= e.label < FACE_CLASSES for e in profile.examples):
            raise ProfileError(f"{path} is damaged: a label is not a face")
        if any(not e.side >= 0.0 for e in profile.examples):
            raise ProfileError(f"{path} is damaged: a die's side is not a size")
        profile._labels = np.repeat([e.label for e in profile.examples], TURNS).astype(np.int64)
        if callable(model):
            model = model(profile.kind)
        stale = model and profile.model != model
        if stale or len(features) != len(rows) * TURNS or len(probs) != len(features):
            if embed is None:
                raise ProfileError(f"{path} was taught with another face network")
            log.info("dice profile %s: described again for face network %s", path, model)
            features, probs = _described([e.crop for e in profile.examples], embed, profile.kind)
            profile.model = model or profile.model
            look = None  # windows of the tray cannot be described again without its photos
        profile._features = _unit(features.astype(np.float32))
        profile._probs = probs.astype(np.float32)
        profile.trials = _trials_of(meta.get("trials", {}), path)
        profile.seen = _seen_of(meta.get("seen", {}), path)
        if look is not None:
            sources = meta.get("looks")
            if (
                look_labels is None
                or look_labels.dtype != bool
                or not isinstance(sources, list)
                or len(sources) != len(look)
                or len(look_labels) != len(look)
            ):
                raise ProfileError(f"{path} is damaged: its look's windows and labels disagree")
            if len(look):
                profile._look_rows, profile._look_labels = look, look_labels
                profile._look_sources = [str(s) for s in sources]
        profile.calibrate()
        profile.measure()
        profile.choose()
        return profile


def _seen_of(rows: object, path: Path) -> dict[str, dict[str, list[list[float]]]]:
    """A stored profile's dice seen by its trials, checked: source -> ``_trial_seen``."""
    out = {}
    for source, trial in rows.items() if isinstance(rows, dict) else [(None, None)]:
        checked = _trial_seen(trial)
        if checked is None:
            raise ProfileError(f"{path} is damaged: its trials' dice")
        out[str(source)] = checked
    return out


def _trial_seen(trial: object) -> dict[str, list[list[float]]] | None:
    """One source's trials' dice (TRIAL -> [confidence 0..1, right 0 or 1] each) as
    floats, or None where they are not that."""

    def die(row: object) -> bool:
        return (
            isinstance(row, list | tuple)
            and len(row) == 2
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in row)
            and 0.0 <= row[0] <= 1.0
            and row[1] in (0, 1)
        )

    if not isinstance(trial, dict) or not set(trial) <= set(TRIAL):
        return None
    if not all(isinstance(d, list) and all(die(r) for r in d) for d in trial.values()):
        return None
    return {k: [[float(r[0]), float(r[1])] for r in d] for k, d in trial.items()}


def sured(confidence: np.ndarray | float, t: float) -> np.ndarray:
    """A confidence told at temperature ``t``: its odds against the rest taken to the power
    1 / t (t > 1: less sure; the face read is the same)."""
    c = np.clip(np.asarray(confidence, np.float64), 1e-9, 1 - 1e-9)
    a, b = c ** (1.0 / t), (1.0 - c) ** (1.0 / t)
    return a / (a + b)


def _trials_of(rows: object, path: Path) -> dict[str, dict[str, int]]:
    """A stored profile's trials, checked: source -> TRIAL -> a whole number."""
    if not isinstance(rows, dict) or not all(
        isinstance(t, dict)
        and set(t) == set(TRIAL)
        and all(isinstance(v, int) and not isinstance(v, bool) for v in t.values())
        for t in rows.values()
    ):
        raise ProfileError(f"{path} is damaged: its trials of the set's size")
    return {str(s): dict(t) for s, t in rows.items()}


def _size_of(row: dict) -> tuple[float, tuple[int, int] | None]:
    """A stored example's side and frame size; a format-1 example has neither (0, None)."""
    frame = row.get("frame")
    if frame is None:
        return float(row.get("side") or 0.0), None
    width, height = (int(v) for v in frame)
    if width < 1 or height < 1:
        raise ValueError(f"a frame of {width}x{height} px")
    return float(row.get("side") or 0.0), (width, height)


def _described(
    crops: Sequence[np.ndarray], embed: Embed, kind: str | None
) -> tuple[np.ndarray, np.ndarray]:
    """Unit features and the network's probabilities of each crop in TURNS quarter turns
    (TURNS rows a crop)."""
    turned = [np.ascontiguousarray(np.rot90(c, t)) for c in crops for t in range(TURNS)]
    if not turned:
        return np.zeros((0, 0), np.float32), np.zeros((0, FACE_CLASSES), np.float32)
    features, probs = embed(turned, kind)
    n = len(turned)
    features = np.asarray(features, np.float32).reshape(n, -1)
    return _unit(features), np.asarray(probs, np.float32).reshape(n, FACE_CLASSES)


def _per_example(sims: np.ndarray) -> np.ndarray:
    """Similarities to each taught crop's nearest turn: (n, examples x TURNS) -> (n, examples)."""
    return sims.reshape(len(sims), -1, TURNS).max(2)


def doubted(sims: np.ndarray, labels: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """Which taught crops look like a mistaken tap (``sims``: taught crop to taught crop,
    itself left out): the network does not back the label (under 0.5) and the taught
    crops nearest to it, at least DOUBT alike, surely name another face; or the network
    is sure (CONTRARY) of another face and no taught crop close to it (BACKING) shares
    its label; or neither the network (under UNLIKELY) nor the taught crops back it. A
    lone correction the network is sure against, or gives no chance, waits for a second
    one."""
    rows = np.arange(len(labels))
    votes = _voted(sims, labels, np.zeros_like(probs), -1.0)
    own = votes[rows, labels]
    top = sims.max(1)
    said = probs[rows, labels]
    outvoted = (own < 0.2) & (votes.max(1) >= 0.8) & (top >= DOUBT) & (said < 0.5)
    backed = (own >= 0.5) & (top >= BACKING)
    contrary = (probs.max(1) >= CONTRARY) & (probs.argmax(1) != labels) & ~backed
    unbacked = (said < UNLIKELY) & (own < 0.2) & ~backed
    return outvoted | contrary | unbacked


def _voted(sims: np.ndarray, labels: np.ndarray, probs: np.ndarray, near: float) -> np.ndarray:
    """``probs`` (n, 13) mixed with the vote of the NEIGHBOURS most similar taught crops
    (``sims``: n rows of similarities to every taught crop, whose classes are ``labels``)."""
    k = min(NEIGHBOURS, sims.shape[1])
    nearest = np.argpartition(-sims, k - 1, axis=1)[:, :k]
    close = np.take_along_axis(sims, nearest, 1)
    top = close.max(1, keepdims=True)
    weight = np.exp((close - top) / SHARPNESS) * (close > -1.0)
    votes = np.zeros((len(sims), FACE_CLASSES))
    np.add.at(votes, (np.arange(len(sims))[:, None], labels[nearest]), weight)
    votes /= np.maximum(votes.sum(1, keepdims=True), 1e-12)
    start = near + SURE * probs.max(1, keepdims=True)
    share = np.clip((top - start) / BLEND, 0.0, 1.0)
    # the set never showed the face the network reads: the vote has no say on it, as far
    # as the network is sure of it (a set taught only ones must not make every die a one)
    shown = np.zeros(FACE_CLASSES, bool)
    shown[np.unique(labels)] = True
    faces = np.arange(CARDS, BACKGROUND) if shown[CARDS:BACKGROUND].any() else np.arange(CARDS)
    first = faces[probs[:, faces].argmax(1)]  # among the set's kind of faces
    unseen = ~shown[first] & (probs[:, faces].sum(1) > 0)
    share[unseen, 0] *= 1.0 - probs[unseen, first[unseen]]
    if not shown[BACKGROUND]:
        # taught dice say which face a die shows, not that a spot the network takes for
        # no die is one
        junk = probs[:, BACKGROUND] >= 0.5
        votes[junk] *= 1.0 - probs[junk, BACKGROUND : BACKGROUND + 1]
        votes[junk, BACKGROUND] = probs[junk, BACKGROUND]
    return (1.0 - share) * probs + share * votes


def _no_die(sims: np.ndarray, junk: np.ndarray) -> np.ndarray:
    """Which crops (rows of ``sims`` to every taught crop) are no die: at least JUNK_NEAR
    alike to a taught "not a die" (``junk``) and JUNK_MARGIN more than to any taught face."""
    nearest_junk = sims[:, junk].max(1)
    nearest_face = sims[:, ~junk].max(1) if (~junk).any() else np.full(len(sims), -1.0)
    return (nearest_junk >= JUNK_NEAR) & (nearest_junk >= nearest_face + JUNK_MARGIN)


def _pooled(features: np.ndarray) -> np.ndarray:
    """The pooled features of rows that hold them and the quarters (else the rows)."""
    return features[:, :POOLED] if features.shape[1] == POOLED * 5 else features


def _quarters(features: np.ndarray) -> np.ndarray:
    """The quarters of rows that hold the pooled features and them (else the rows)."""
    return features[:, POOLED:] if features.shape[1] == POOLED * 5 else features


def _unit(features: np.ndarray) -> np.ndarray:
    if features.shape[1] == POOLED * 5:  # each part to unit length
        return np.hstack([_unit(_pooled(features)), _unit(_quarters(features))])
    norms = np.linalg.norm(features, axis=1, keepdims=True)
    return features / np.maximum(norms, 1e-6)
