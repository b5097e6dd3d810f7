"""Teaching a dice profile from photos whose dice a person named.

The table teaches from a throw once it is written (the photo, the boxes the reader
found, the values after the players' corrections, and a die it missed tapped where it
lies); ``scorer teach`` teaches from a labelled set in the same way: each labelled die is
a confirmed example, a die read wrong or missed a correction.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from scorer.dice import BACKGROUND, class_face, face_class
from scorer.vision.crop import face_crop
from scorer.vision.evaluation import closer, match, wider
from scorer.vision.labelled import LabelledDie, LabelledPhoto
from scorer.vision.profile import FILE_NAME, TRIAL, DiceProfile, ProfileError
from scorer.vision.reader import Reader
from scorer.vision.reading import Reading
from scorer.vision.sweep import windows

log = logging.getLogger(__name__)

#: A box around the pip pattern only (``box: pips`` sets) is this much smaller than the die.
PIPS_TO_DIE = 1.6


@dataclass(frozen=True)
class TaughtDie:
    """One die a person named on a photo: where it lies (centre and side, px), its class,
    and whether the reader had it wrong (or missed it)."""

    centre: tuple[float, float]
    side: float
    label: int
    correction: bool


def open_profile(folder: str | Path, reader: Reader, *, create: bool = False) -> DiceProfile:
    """The profile in ``folder`` for this reader's face networks (migrated if it was taught
    with others: ``Reader.faces_digest`` of its kind); with ``create`` an empty one where
    there is none yet."""
    if create and not (Path(folder) / FILE_NAME).exists():
        return DiceProfile(Path(folder).name, model=reader.faces_digest())
    return DiceProfile.load(folder, reader.embed, reader.faces_digest)


def teach_dice(
    reader: Reader, profile: DiceProfile, image: np.ndarray, dice: Sequence[TaughtDie], source: str
) -> int:
    """Cut each named die's face crop as the reader cuts it and teach the profile, with
    each die's side in this frame (the set's ``size``). A spot named no die that lies on
    or against a die (``on_a_die``) is left out: its crop shows that die."""
    dice = [d for d in dice if d.label != BACKGROUND or not on_a_die(d, dice)]
    crops = [face_crop(image, d.centre, d.side) for d in dice]
    height, width = image.shape[:2]
    taught = profile.teach(
        crops,
        [d.label for d in dice],
        source,
        reader.embed,
        [d.correction for d in dice],
        sides=[d.side for d in dice],
        frame=(width, height),
    )
    # the set's kind is known once its first die is taught: its features are that
    # kind's networks' (``Reader.faces_digest``)
    profile.model = reader.faces_digest(profile.kind)
    named = [d for d in dice if d.label != BACKGROUND]
    if named:
        sweep = reader.sweep(image, float(np.median([d.side for d in named])), profile.kind)
        junk = [d for d in dice if d.label == BACKGROUND]
        rows, labels = windows(
            sweep,
            [d.centre for d in named],
            [d.side for d in named],
            source,
            [d.centre for d in junk],
            [d.side for d in junk],
        )
        profile.teach_look(rows, labels, source)
    return taught


def on_a_die(spot: TaughtDie, dice: Sequence[TaughtDie]) -> bool:
    """Whether a spot lies within a side of a named die (the larger of the two sides): a
    second peak on a die, or its side face, is no clutter to learn from."""
    return any(
        d.label != BACKGROUND and math.dist(d.centre, spot.centre) < max(d.side, spot.side)
        for d in dice
    )


def named_dice(reader: Reader, image: np.ndarray, photo: LabelledPhoto) -> list[TaughtDie]:
    """The labelled dice of a photo as the table would learn them from corrections.

    The photo is read first, with the profile taught so far and every kind of face (read
    with its game's faces alone, tray-multicolor taught 2x and 3x wider read 2 and 1 dice
    fewer: ``docs/teaching.md``): a die found is cut where the reader found it, a missed
    die where its label lies, and a die found where none is labelled is taught as "not a
    die" (at the table: a die left out of an offer, "No die here" on a die's picker or
    on /camera).
    """
    reading = reader.read(image)
    pairs, missed, extra = match(photo, reading)
    sides = [max(d.box[2], d.box[3]) for d in reading.dice]
    typical = float(np.median(sides)) if sides else 0.0
    out = []
    for i, j in pairs:
        label, die = photo.dice[i], reading.dice[j]
        x, y, w, h = die.box
        wanted = face_class(label.face, label.value)
        read = face_class(die.face, die.value)
        out.append(TaughtDie((x + w / 2, y + h / 2), float(max(w, h)), wanted, read != wanted))
    for i in missed:
        label = photo.dice[i]
        side = float(max(label.box[2], label.box[3]))
        if photo.box_kind == "pips":
            side = typical or side * PIPS_TO_DIE
        out.append(TaughtDie(label.centre, side, face_class(label.face, label.value), True))
    for j in extra:
        x, y, w, h = reading.dice[j].box
        out.append(TaughtDie((x + w / 2, y + h / 2), float(max(w, h)), BACKGROUND, True))
    return out


#: A set's size is judged on its newest taught photos, at most this many (each read twice):
#: a night's play costs the table a few seconds a turn.
JUDGED_PHOTOS = 8

#: a taught photo as a trial reads it: its source, the photo, and its dice as named
View = tuple[str, np.ndarray, Sequence[TaughtDie]]
#: the dice trials read, by source and TRIAL: [confidence, right] each (``dice_seen``)
Seen = dict[str, dict[str, list[list[float]]]]


def judge(
    profile: DiceProfile,
    views: Iterable[View],
    read: Callable[[DiceProfile, np.ndarray], Reading],
) -> bool:
    """Read each taught photo (``views``) with the set's size and without it, each time
    as the profile would without what that photo taught (``DiceProfile.tried``), record
    how many of its named dice were read right less the extra dice found, and let the
    profile choose whether to use its size. Returns that choice.

    ``read`` reads a photo with a given profile (the table's reader, under its lock). A
    photo read without itself, as cross-validation reads it: a size at which the finder
    loses the set's dice loses them on its own photos too."""
    seen: Seen = {}
    return record_trials(profile, trials(profile, views, read, seen=seen), seen)


def trials(
    profile: DiceProfile,
    views: Iterable[View],
    read: Callable[[DiceProfile, np.ndarray], Reading],
    lock: AbstractContextManager[object] | None = None,
    seen: Seen | None = None,
) -> dict[str, dict[str, int]]:
    """The trials of ``judge`` (source -> TRIAL -> score), not yet recorded; ``seen``
    gets each trial's dice (``dice_seen``). Reading takes a while: the table passes its
    reader's ``lock``, held for one trial at a time (the profile is looked at and read
    under it, as a lesson changes it under it)."""
    scores: dict[str, dict[str, int]] = {}
    if profile.size is None:  # no size to judge: both readings would be the same
        return scores
    for source, image, dice in views:
        row: dict[str, int] = {}
        dice_of: dict[str, list[list[float]]] = {}
        for key in TRIAL:
            with lock or nullcontext():
                if source not in profile.sources():  # undone meanwhile: no trial
                    break
                reading = read(profile.tried(key == "sized", source), image)
            row[key] = dice_read_right(dice, reading)
            dice_of[key] = dice_seen(dice, reading)
        else:
            mine = scores.setdefault(source, dict.fromkeys(TRIAL, 0))
            for key, value in row.items():
                mine[key] += value
            if seen is not None:
                kept = seen.setdefault(source, {k: [] for k in TRIAL})
                for key, rows in dice_of.items():
                    kept[key] += rows
    return scores


def record_trials(
    profile: DiceProfile, scores: dict[str, dict[str, int]], seen: Seen | None = None
) -> bool:
    """Keep the trials (and the dice they read, ``seen``) of the sources the profile still
    holds; whether it uses its size."""
    for source, mine in scores.items():
        if source in profile.sources():
            profile.record(source, mine, (seen or {}).get(source))
    return profile.uses_size


def dice_read_right(dice: Sequence[TaughtDie], reading: Reading) -> int:
    """The named ``dice`` a reading found with their taught face, less the dice it found
    where none is named (each costs a player's tap): paired as ``evaluation.match`` pairs
    a labelled photo's dice, each named die a box of its side."""
    right, extra = _judged(dice, reading)
    return len(right) - len(extra)


def dice_seen(dice: Sequence[TaughtDie], reading: Reading) -> list[list[float]]:
    """Each die of a reading as [its confidence, 1 if it is a named die read with its
    taught face else 0] (a die found where none is named: 0), paired as
    ``dice_read_right`` pairs them: how sure a set's reading was, and how rightly."""
    right, _ = _judged(dice, reading)
    return [[float(d.confidence), float(j in right)] for j, d in enumerate(reading.dice)]


def _judged(dice: Sequence[TaughtDie], reading: Reading) -> tuple[set[int], list[int]]:
    """The reading's dice that are named dice read with their taught face, and those found
    where none is named (indexes into ``reading.dice``)."""
    named = _as_labelled(dice)
    pairs, _, extra = match(LabelledPhoto(Path(), named, "die"), reading)
    right = {
        j
        for i, j in pairs
        if (named[i].face, named[i].value) == (reading.dice[j].face, reading.dice[j].value)
    }
    return right, extra


def _as_labelled(dice: Sequence[TaughtDie]) -> tuple[LabelledDie, ...]:
    return tuple(
        LabelledDie(
            *class_face(d.label),
            (d.centre[0] - d.side / 2, d.centre[1] - d.side / 2, d.side, d.side),
        )
        for d in dice
        if d.label != BACKGROUND
    )


def game_faces(profile: DiceProfile) -> str:
    """The ``faces`` a game played with the set's dice reads (``Reader.read``)."""
    return {"pips": "pips", "card": "cards"}.get(profile.kind or "", "any")


@dataclass
class Lesson:
    """What one round of teaching did (``scorer teach`` prints it)."""

    photos: int = 0
    dice: int = 0
    corrections: int = 0
    #: spots the reader found where no die is labelled (clear of the dice), taught as no die
    not_dice: int = 0
    refused: int = 0
    #: photos left out because seen ``zoom`` x closer a die would leave the picture
    out_of_view: int = 0
    #: whether the set reads with its size after its trials (``judge``)
    sized: bool = True


def teach_photos(
    reader: Reader,
    profile: DiceProfile,
    photos: Sequence[LabelledPhoto],
    source: str,
    *,
    wrong: float = 0.0,
    seed: int = 0,
    zoom: float = 1.0,
    widen: float = 1.0,
    prior: DiceProfile | None = None,
) -> Lesson:
    """Teach the profile from labelled photos, one after another, as a table would learn
    them throw by throw (each photo read with what the photos before it taught).

    ``wrong`` > 0 measures mistaken taps: that share of the labelled dice (rounded, at
    least one) is taught as another face of its kind, the dice drawn at random (``seed``).
    ``zoom`` and ``widen`` teach each photo as ``scorer eval --closer`` and ``--wider`` read
    it (``evaluation.closer``, ``evaluation.wider``): a set taught at the table's view.
    Then the newest JUDGED_PHOTOS are read again to judge the set's size (``judge``).
    ``prior``: the set's dice print another script than 9 10 J Q K A, and the table reads
    them with that script's prior (``scorer.vision.script``): each photo, and each trial of
    the set's size, is read so, and what that reading gets wrong is a correction.
    """
    lesson = Lesson()
    kinds = {d.face for p in photos for d in p.dice}
    if profile.kind is not None and kinds - {profile.kind}:
        raise ProfileError(
            f"the set {profile.name or '(unnamed)'} holds {profile.kind} dice; these photos "
            f"show {' and '.join(sorted(kinds))} dice: teach them to another set"
        )
    if len(kinds) > 1:
        raise ProfileError("these photos show pip and poker dice: one set holds one kind")
    reader.profile = profile
    rng = np.random.default_rng(seed)
    total = sum(len(p.dice) for p in photos)
    count = max(1, round(wrong * total)) if wrong > 0 and total else 0
    drawn = set(rng.choice(total, size=count, replace=False).tolist()) if count else set()
    seen = 0
    taught: list[tuple[str, LabelledPhoto, list[TaughtDie]]] = []
    for photo in photos:
        image, photo = _seen(photo, zoom, widen)
        if image is None:
            if photo is None:
                lesson.refused += 1
                continue
            lesson.out_of_view += 1
            seen += len(photo.dice)
            continue
        reader.profile = profile.joined(prior) if prior is not None else profile
        dice = named_dice(reader, image, photo)
        reader.profile = profile
        # named_dice gives one taught die per label: the drawn ones are taught wrong
        dice = [
            mistaken(d, rng) if seen + i in drawn and i < len(photo.dice) else d
            for i, d in enumerate(dice)
        ]
        seen += len(photo.dice)
        name = f"{source}:{photo.path.name}"
        teach_dice(reader, profile, image, dice, name)
        taught.append((name, photo, dice))
        lesson.photos += 1
        lesson.dice += sum(d.label != BACKGROUND for d in dice)
        lesson.corrections += sum(d.correction and d.label != BACKGROUND for d in dice)
        lesson.not_dice += sum(d.label == BACKGROUND and not on_a_die(d, dice) for d in dice)

    def views() -> Iterable[View]:
        for name, photo, dice in taught[-JUDGED_PHOTOS:]:
            image, _ = _seen(photo, zoom, widen)
            if image is not None:
                yield name, image, dice

    def read(trial: DiceProfile, image: np.ndarray) -> Reading:
        reader.profile = trial.joined(prior) if prior is not None else trial
        try:
            return reader.read(image, game_faces(profile))
        finally:
            reader.profile = profile

    lesson.sized = judge(profile, views(), read)
    return lesson


def _seen(
    photo: LabelledPhoto, zoom: float, widen: float
) -> tuple[np.ndarray | None, LabelledPhoto | None]:
    """A labelled photo as the table's view shows it (``closer``, ``wider``); no image
    where it cannot be read (and no photo then) or a die would leave the view."""
    import cv2

    image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
    if image is None:
        log.warning("cannot read %s: not taught", photo.path)
        return None, None
    if zoom != 1.0:
        view = closer(image, photo, zoom)
        if view is None:
            return None, photo
        image, photo = view
    if widen != 1.0:
        image, photo = wider(image, photo, widen)
    return image, photo


def mistaken(die: TaughtDie, rng: np.random.Generator) -> TaughtDie:
    """The die taught as another face of its kind (a mistaken tap)."""
    if die.label == BACKGROUND:
        return die
    kind = die.label - die.label % 6
    other = kind + (die.label - kind + int(rng.integers(1, 6))) % 6
    return TaughtDie(die.centre, die.side, other, True)
