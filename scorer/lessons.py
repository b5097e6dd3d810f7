"""What a table's sets of dice learn: from the turns written in play, and from the
lessons taught on purpose on /camera.

The table photographs and reads; what its sets learn from the photos is kept here. A
write or undo is taught on a thread of its own, in the order stored, so that a write
never waits for a photo to be read; a lesson's photo is kept until the player has named
its dice. Teaching shares the table's reader and its lock: one reading or lesson at a
time.
"""

from __future__ import annotations

import dataclasses
import logging
import queue
import random
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from scorer.errors import ScorerError
from scorer.tray import TrayRegion

log = logging.getLogger(__name__)


class Lessons:
    """What the table's sets of dice (``dice_sets``, None: the table keeps none) learn
    from play and from /camera, read with the table's ``reader`` under its ``lock``.

    ``set_of`` names the set a game is read with, ``use_dice_set`` and ``use_letters``
    ready the reader for a set as the table's readings do, ``say`` shows a line on
    every page; ``photos`` is the folder the table keeps its photos in.
    """

    LESSONS_KEPT = 12
    """The lesson photos kept for teaching and reading again (the newest)."""

    def __init__(
        self,
        store: Any,
        dice_sets: Any,
        reader: Any,
        *,
        lock: threading.RLock,
        tray: TrayRegion,
        photos: Path | None,
        set_of: Callable[[int], str | None],
        use_dice_set: Callable[[str | None, str], None],
        use_letters: Callable[[str | None], None],
        say: Callable[[str], None],
        rng: random.Random,
        unsure_below: float,
    ) -> None:
        self.store = store
        self.dice_sets = dice_sets
        self.reader = reader
        self.photos = photos
        self.tray = tray
        self.unsure_below = unsure_below
        self._reader_lock = lock
        self._set_of = set_of
        self._use_dice_set = use_dice_set
        self._use_letters = use_letters
        self._say = say
        self._rng = rng
        self._lessons: dict[str, tuple[Any, str | None]] = {}
        self._lesson_dice: dict[str, list[Any]] = {}  # a taught lesson's dice as named
        # written throws wait here to be taught, in order, off the request's thread
        self._lessons_due: queue.Queue = queue.Queue()
        self._learner: threading.Thread | None = None

    # -- learning from play -----------------------------------------------------------

    def learn_later(self, game_id: int, kind: str, seq: int) -> None:
        """Queue a write or undo for ``learn`` on the table's learner thread: teaching
        reads a photo and saves the profile, which a write must not wait for."""
        if self.dice_sets is None or self.reader is None or not hasattr(self.reader, "embed"):
            return
        if self._learner is None or not self._learner.is_alive():
            self._learner = threading.Thread(target=self._learning, name="table-learn", daemon=True)
            self._learner.start()
        self._lessons_due.put((game_id, kind, seq))

    def _learning(self) -> None:
        while True:
            item = self._lessons_due.get()
            try:
                if item is None:
                    return
                self.learn(*item)
            finally:
                self._lessons_due.task_done()

    def settle(self) -> None:
        """Wait until every write and undo so far has been taught (or taken back)."""
        self._lessons_due.join()

    def close(self) -> None:
        """Stop the learner thread once what it was given is taught."""
        if self._learner is not None and self._learner.is_alive():
            self._lessons_due.put(None)
            self._learner.join(timeout=10)

    def learn(self, game_id: int, kind: str, seq: int | None = None) -> int:
        """Teach the game's set from the turn the write at ``seq`` ended (its throws'
        photos, with the values written), or, after an undo, take back what a write no
        longer standing taught. Never stops the game: a failure is a log line. Returns
        how many dice were taught."""
        set_id = self._set_of(game_id)
        if set_id is None or self.reader is None or not hasattr(self.reader, "embed"):
            return 0
        try:
            return self._learn(game_id, set_id, kind, seq)
        except Exception:  # teaching is a bonus; the game must go on whatever happens
            log.exception("game %s: the dice set %s learnt nothing", game_id, set_id)
            return 0

    def _learn(self, game_id: int, set_id: str, kind: str, seq: int | None) -> int:
        from scorer.dice_sets import effective, turn_lessons

        rows = effective(self.store.events(game_id))
        if kind != "undo" and seq is not None:
            ends = [i for i, r in enumerate(rows) if r["seq"] == seq]
            if not ends:  # undone before it was taught
                return 0
            rows = rows[: ends[0] + 1]
        prefix = f"game {game_id} event "
        with self._reader_lock:
            profile = self.dice_sets.editable(set_id, self.reader)
            if profile is None:  # an unusable profile file: /camera says so
                return 0
            if kind == "undo":
                standing = {f"{prefix}{r['seq']}" for r in rows}
                gone = [s for s in profile.sources() if s.startswith(prefix) and s not in standing]
                removed = sum(profile.forget(s) for s in gone)
                if removed:
                    self.dice_sets.save(set_id, profile)
                return 0
            dice_kind = self.store.setup(game_id).dice
            source = f"{prefix}{rows[-1]['seq']}"
            taught = 0
            for lesson in turn_lessons(rows, dice_kind):
                frame = self._photo(lesson.photo)
                if frame is None:
                    continue
                taught += self._teach_frame(profile, frame, lesson.dice, source)
            if not taught:
                return 0
            self.dice_sets.save(set_id, profile)
        self._judge(set_id, profile, self._game_views(rows, dice_kind, prefix))
        return taught

    def _game_views(self, rows: list[dict[str, Any]], dice_kind: str, prefix: str) -> Any:
        """The game's written turns' photos, newest first, as ``teaching.judge`` reads them
        (each photo loaded only when its turn comes)."""
        from scorer.dice_sets import turn_lessons

        for end in range(len(rows) - 1, -1, -1):
            if rows[end]["event"].get("type") not in ("write", "scratch"):
                continue
            source = f"{prefix}{rows[end]['seq']}"
            for lesson in turn_lessons(rows[: end + 1], dice_kind):
                frame = self._photo(lesson.photo)
                if frame is not None:
                    yield source, frame, _named(lesson.dice)

    def _judge(self, set_id: str, profile: Any, views: Any) -> None:
        """Read the set's newest taught photos with its size and without it (``teaching.
        judge``), one reading at a time under the reader's lock so that a throw waits for
        one reading at most; the trials are kept if the set was not forgotten meanwhile."""
        from itertools import islice

        from scorer.vision.teaching import JUDGED_PHOTOS, game_faces, record_trials, trials

        faces = game_faces(profile)
        # a set printing another script is read with its prior: so are its trials (loaded
        # under the reader's lock: a prior built with other networks is described by them)
        with self._reader_lock:
            prior = self.dice_sets.prior(set_id, self.reader) if faces == "cards" else None

        def read(trial: Any, frame: Any) -> Any:  # under the reader's lock (``trials``)
            before = self.reader.profile, getattr(self.reader, "ranks", None)
            self._use_letters(set_id)
            self.reader.profile = trial.joined(prior) if prior is not None else trial
            try:
                reading = self.reader.read(self.tray.cut(frame), faces)
            finally:
                self.reader.profile = before[0]
                if before[1] is not None:
                    self.reader.ranks = before[1]
            return self.tray.placed(reading, frame)

        mine = (v for v in views if v[0] in profile.sources())
        seen: dict[str, Any] = {}
        scores = trials(profile, islice(mine, JUDGED_PHOTOS), read, self._reader_lock, seen)
        with self._reader_lock:
            if self.dice_sets.editable(set_id, self.reader) is not profile:
                return
            if scores:
                record_trials(profile, scores, seen)
                self.dice_sets.save(set_id, profile)

    def _teach_frame(self, profile: Any, frame: Any, dice: Sequence[Any], source: str) -> int:
        """Teach ``dice`` ((box, value, kind, corrected) each) of one photo; dice of the
        other kind than the set's are refused (logged) and the rest still taught."""
        from scorer.vision.profile import ProfileError
        from scorer.vision.teaching import teach_dice

        try:
            return teach_dice(self.reader, profile, frame, _named(dice), source)
        except ProfileError as err:
            log.warning("not taught from %s: %s", source, err)
            self._say(str(err))
            return 0

    def _photo(self, relative: str) -> Any:
        if self.photos is None:
            return None
        import cv2

        path = (self.photos / relative).resolve()
        if self.photos.resolve() not in path.parents:
            return None
        return cv2.imread(str(path), cv2.IMREAD_COLOR)

    # -- teaching a set on purpose (/camera) --------------------------------------------

    def faces(self, set_id: str) -> str:
        """The dice a set's lesson is read as: poker dice where the set prints letters
        the networks did not learn (its prior is of poker dice), else any."""
        from scorer.vision.script import PRIORS

        assert self.dice_sets is not None
        return "cards" if self.dice_sets.ranks(set_id) in PRIORS else "any"

    def keep(self, set_id: str, frame: Any, photo: str | None, reading: Any) -> dict[str, Any]:
        """Keep a lesson the table photographed for ``set_id`` (the frame, its saved
        ``photo`` and the reading of it as the set reads now): the page shows the photo
        with what was read, for the player to fix before ``teach``."""
        lesson_id = f"{set_id}-{len(self._lessons) + 1}-{self._rng.randrange(1 << 30):x}"
        self._lessons[lesson_id] = (frame, photo)
        for old in list(self._lessons)[: -self.LESSONS_KEPT]:
            del self._lessons[old]
            self._lesson_dice.pop(old, None)
        height, width = frame.shape[:2]
        dice = [dataclasses.asdict(d) | {"box": list(d.box)} for d in reading.dice]
        profile = self.reader.profile if hasattr(self.reader, "profile") else None
        kind = getattr(profile, "kind", None) or _likely_kind(dice)
        return {
            "lesson": lesson_id,
            "photo": photo,
            "size": [int(width), int(height)],
            "dice": dice,
            "kind": kind,
            "threshold": float(getattr(reading, "threshold", self.unsure_below)),
        }

    def teach(
        self, set_id: str, lesson_id: str, dice: Sequence[dict[str, Any]], kind: str
    ) -> dict[str, Any]:
        """Teach the set from a lesson's photo: ``dice`` are every die on it as the
        player settled them (``box`` as read, or ``x, y`` tapped where a missed die lies;
        ``value``, 0 for a box where there is no die; ``read``: the value read, if any).
        Returns the set's summary."""
        from statistics import median

        if self.dice_sets is None or self.reader is None:
            raise ScorerError("this table keeps no sets of dice")
        if lesson_id not in self._lessons or not lesson_id.startswith(f"{set_id}-"):
            raise ScorerError("that photo is no longer kept: throw and read again")
        if kind not in ("pips", "card"):
            raise ScorerError(f"dice are pips or card dice, not {kind!r}")
        frame, _ = self._lessons[lesson_id]
        boxes = [d["box"] for d in dice if d.get("box")]
        side = median(max(b[2], b[3]) for b in boxes) if boxes else min(frame.shape[:2]) / 10
        named = []
        for die in dice:
            value = die.get("value")
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 6:
                raise ScorerError(f"a die's value is 1..6 (0: no die there), not {value!r}")
            if not value and not die.get("box"):
                raise ScorerError("only a box the reader marked can be no die (value 0)")
            if die.get("box"):
                box = tuple(int(v) for v in die["box"])
            else:
                x, y = float(die["x"]), float(die["y"])
                box = (round(x - side / 2), round(y - side / 2), round(side), round(side))
            named.append((box, value, kind, die.get("read") != value))
        with self._reader_lock:
            profile = self.dice_sets.editable(set_id, self.reader, replace=True)
            self._teach_frame_strict(profile, frame, named, f"lesson {lesson_id}")
            self.dice_sets.save(set_id, profile)
        self._lesson_dice[lesson_id] = _named(named)
        kept = [k for k in reversed(self._lessons) if k in self._lesson_dice]
        self._judge(
            set_id,
            profile,
            ((f"lesson {k}", self._lessons[k][0], self._lesson_dice[k]) for k in kept),
        )
        return self.summary(set_id)

    def _teach_frame_strict(self, profile: Any, frame: Any, dice: Sequence[Any], source: str):
        from scorer.vision.profile import ProfileError
        from scorer.vision.teaching import teach_dice

        kinds = {face for _, _, face, _ in dice}
        if profile.kind is not None and kinds - {profile.kind}:
            raise ProfileError(
                f"the set {profile.name or '(unnamed)'} holds {profile.kind} dice: "
                f"{' and '.join(sorted(kinds))} labels belong to another set"
            )
        profile.forget(source)  # a lesson taught twice counts once
        teach_dice(self.reader, profile, frame, _named(dice), source)

    def summary(self, set_id: str, *, reread: bool = True) -> dict[str, Any]:
        """How many faces of each value the set has seen, and (``reread``) what it reads now
        on the photos it was taught from on /camera (the lessons this table still keeps:
        up to a dozen readings, which a page load should not wait for)."""
        from scorer.dice import BACKGROUND, class_face

        if self.dice_sets is None:
            raise ScorerError("this table keeps no sets of dice")
        with self._reader_lock:
            kind = self.faces(set_id)
            self._use_dice_set(set_id, kind)
            # what it has seen is its own; what it reads now, with the prior it reads with
            profile = self.dice_sets.profile(set_id, self.reader)
            faces: dict[str, int] = {}
            counts = profile.counts() if profile is not None else {}
            for label, n in counts.items():
                if label != BACKGROUND:
                    face, value = class_face(label)
                    faces[f"{face}:{value}"] = n
            reads = []
            taught = set(profile.sources()) if profile is not None else set()
            for lesson_id, (frame, photo) in self._lessons.items() if reread else ():
                if f"lesson {lesson_id}" in taught:
                    reading = self.reader.read(self.tray.cut(frame), kind)
                    reading = self.tray.placed(reading, frame)
                    reads.append({"photo": photo, "dice": [d.to_dict() for d in reading.dice]})
        return {
            "set": set_id,
            "name": self.dice_sets.name(set_id),
            "kind": getattr(profile, "kind", None),
            "faces": faces,
            "not_dice": counts.get(BACKGROUND, 0),
            "crops": len(profile) if profile is not None else 0,
            "reads": reads,
            "size": _size_of(profile),
            "sureness": _sureness_of(profile),
            "problem": self.dice_sets.problem(set_id),
            "ranks": self.dice_sets.ranks(set_id),
            "rank_labels": list(self.dice_sets.labels(set_id)),
        }

    def forget(self, set_id: str) -> dict[str, Any]:
        """Forget everything a set was taught (its profile file goes; the set stays)."""
        if self.dice_sets is None:
            raise ScorerError("this table keeps no sets of dice")
        with self._reader_lock:
            folder = self.dice_sets.folder(set_id)
            (folder / "profile.npz").unlink(missing_ok=True)
            self.dice_sets.save(set_id, _Empty())
        return self.summary(set_id)


def _size_of(profile: Any) -> dict[str, Any] | None:
    """How big the set's dice look (side px, frame [w, h]) and whether the reader uses it
    (its taught photos read no worse with it), for /camera; None before it is known."""
    size = getattr(profile, "size", None)
    if size is None:
        return None
    return {
        "side": round(float(size.side), 1),
        "frame": [int(v) for v in size.frame],
        "used": bool(getattr(profile, "uses_size", True)),
    }


def _sureness_of(profile: Any) -> dict[str, Any] | None:
    """How sure the set has found its readings to be (``DiceProfile.temperature``): the dice
    its trials read, the sure ones and those of them wrong; None before any trial."""
    from scorer.vision.reading import DEFAULT_THRESHOLD

    if profile is None or not hasattr(profile, "trial_sureness"):
        return None
    dice, sure, wrong = profile.trial_sureness(DEFAULT_THRESHOLD)
    if not dice:
        return None
    return {
        "temperature": float(profile.temperature),
        "dice": dice,
        "sure": sure,
        "wrong": wrong,
    }


def _named(dice: Sequence[Any]) -> list[Any]:
    """A photo's dice ((box, value, kind, corrected) each; value 0: no die there) as
    ``teaching.TaughtDie``."""
    from scorer.dice import BACKGROUND, face_class
    from scorer.vision.teaching import TaughtDie

    return [
        TaughtDie(
            (x + w / 2, y + h / 2),
            float(max(w, h)),
            face_class(face, value) if value else BACKGROUND,
            fixed,
        )
        for (x, y, w, h), value, face, fixed in dice
    ]


class _Empty:
    """A profile with nothing taught (``DiceSets.save`` then removes the file)."""

    def __len__(self) -> int:
        return 0


def _likely_kind(dice: Sequence[dict[str, Any]]) -> str:
    """The kind most dice of a reading were read as ("pips" when none was read)."""
    cards = sum(d.get("face") == "card" for d in dice)
    return "card" if 2 * cards > len(dice) else "pips"


__all__ = ["Lessons"]
