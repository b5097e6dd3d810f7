"""The table's sets of dice ("white", "blue marbled", "poker dice"), each with its profile.

A set is a folder under ``<data>/dice-sets/``: ``set.json`` (its name and, for poker
dice, the letters its faces print: ``ranks``) and, once taught, ``profile.npz``
(:mod:`scorer.vision.profile`). ``chosen.json`` remembers the set the last game used,
which /setup offers first. The folder lives beside the games, so it
survives restarts and is copied with the data directory.

The vision package is imported lazily, as the table does: without the reader's models
the sets still list, and nothing is taught.
"""

from __future__ import annotations

import json
import logging
import re
import shutil
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorer.dice import CARD_RANKS, RANK_SCRIPTS
from scorer.errors import ScorerError
from scorer.game import not_undone

log = logging.getLogger(__name__)

MAX_NAME = 40
MAX_SETS = 20

# A set's poker dice print their ranks in one of RANK_SCRIPTS, by the name ``set.json``
# keeps: Russian and Ukrainian poker dice print 9 10 В Д К Т where others print 9 10 J Q
# K A. Only what the pages draw follows them; stored games and the API keep values 1..6
# and the Latin ranks of RULES.md.
#: What a set prints where ``set.json`` does not say (every set made before it could).
DEFAULT_RANKS = "latin"
BAD_RANKS = "a set of dice prints its ranks latin (9 10 J Q K A) or cyrillic (9 10 В Д К Т)"


def rank_labels(ranks: str | None) -> tuple[str, ...]:
    """The six labels poker dice printing ``ranks`` show for values 1..6 (Latin where
    ``ranks`` is None or unknown: the pages draw something rather than nothing).

    >>> rank_labels("cyrillic")[3], rank_labels(None)[3]
    ('Д', 'Q')
    """
    return RANK_SCRIPTS.get(ranks or DEFAULT_RANKS, CARD_RANKS)


def check_ranks(ranks: object) -> str:
    """``ranks`` if it names the letters of a set's dice, else a :class:`ScorerError`."""
    if not isinstance(ranks, str) or ranks not in RANK_SCRIPTS:
        raise ScorerError(f"{BAD_RANKS}, not {ranks!r}")
    return ranks


class UnknownDiceSet(ScorerError):
    """No set of dice by that id."""


@dataclass
class Loaded:
    """A set's profile as last read from its file (``problem``: why it is not used)."""

    stamp: float
    profile: Any
    problem: str | None


class DiceSets:
    """The sets of dice in ``root``; ``profile(id, reader)`` is what a reading uses.

    >>> import tempfile
    >>> sets = DiceSets(Path(tempfile.mkdtemp()))
    >>> white = sets.create("White")
    >>> [s["name"] for s in sets.list()], sets.chosen
    (['White'], 'white')
    >>> sets.set_ranks(white, "cyrillic"); sets.labels(white)[2:]
    ('В', 'Д', 'К', 'Т')
    """

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self._lock = threading.RLock()
        self._loaded: dict[str, Loaded] = {}
        # per script, the prior its poker dice start from (``scorer.vision.script``), and
        # per set the last profile joined with it, with what it was joined from (joining
        # takes tens of ms: not once a throw)
        self._priors: dict[str, Any] = {}
        self._joined: dict[str, tuple[tuple[Any, ...], Any]] = {}

    # ------------------------------------------------------------------ the sets

    def list(self) -> list[dict[str, Any]]:
        """Every set: id, name, taught faces per class, and a problem with its profile."""
        out = []
        if not self.root.is_dir():
            return out
        for folder in sorted(self.root.iterdir()):
            meta = _read_json(folder / "set.json")
            if not folder.is_dir() or not isinstance(meta, dict):
                continue
            loaded = self._loaded.get(folder.name)
            out.append(
                {
                    "id": folder.name,
                    "name": str(meta.get("name") or folder.name),
                    "taught": (folder / "profile.npz").is_file(),
                    "problem": loaded.problem if loaded else None,
                    "ranks": _ranks_of(meta, folder.name),
                }
            )
        return out

    def create(self, name: str, ranks: str | None = None) -> str:
        """A new set named ``name`` (or the one already so named); it becomes the chosen one.

        ``ranks``: the letters its poker dice print (``RANK_SCRIPTS``); None leaves a
        known set's as they are and makes a new one Latin.
        """
        name = " ".join(str(name).split())
        if not name or len(name) > MAX_NAME:
            raise ScorerError(f"a set of dice has a name of 1 to {MAX_NAME} characters")
        if ranks is not None:
            check_ranks(ranks)
        with self._lock:
            for known in self.list():
                if known["name"].casefold() == name.casefold():
                    if ranks is not None:
                        self.set_ranks(known["id"], ranks)
                    self.choose(known["id"])
                    return known["id"]
            if len(self.list()) >= MAX_SETS:
                raise ScorerError(f"a table keeps at most {MAX_SETS} sets of dice")
            base = re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-") or "dice"
            slug, n = base, 1
            while (self.root / slug).exists():
                n += 1
                slug = f"{base}-{n}"
            (self.root / slug).mkdir(parents=True)
            meta = {"name": name, "ranks": ranks or DEFAULT_RANKS}
            _write_json(self.root / slug / "set.json", meta)
            self.choose(slug)
            return slug

    def name(self, set_id: str) -> str:
        meta = _read_json(self.folder(set_id) / "set.json")
        return str(meta.get("name") or set_id) if isinstance(meta, dict) else set_id

    def ranks(self, set_id: str) -> str:
        """The letters the set's poker dice print (a key of ``RANK_SCRIPTS``): Latin for a
        set stored before sets said so, and for one whose ``set.json`` names something
        else (logged, so the set still plays)."""
        meta = _read_json(self.folder(set_id) / "set.json")
        return _ranks_of(meta if isinstance(meta, dict) else {}, set_id)

    def labels(self, set_id: str) -> tuple[str, ...]:
        """The six labels the set's poker dice show for values 1..6."""
        return rank_labels(self.ranks(set_id))

    def set_ranks(self, set_id: str, ranks: str) -> None:
        """Record the letters the set's poker dice print; it survives restarts (``set.json``
        is rewritten whole, atomically, keeping what else it says)."""
        check_ranks(ranks)
        with self._lock:
            path = self.folder(set_id) / "set.json"
            meta = _read_json(path)
            meta = dict(meta) if isinstance(meta, dict) else {"name": set_id}
            meta["ranks"] = ranks
            _write_json(path, meta)
            # its crops are described by the networks of the letters it prints: again
            self._loaded.pop(set_id, None)
            self._joined.pop(set_id, None)

    def folder(self, set_id: str) -> Path:
        """The folder of a set, refusing ids that are not one of ours."""
        if not isinstance(set_id, str) or not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,60}", set_id):
            raise UnknownDiceSet(f"no set of dice {set_id!r}")
        folder = self.root / set_id
        if not (folder / "set.json").is_file():
            raise UnknownDiceSet(f"no set of dice {set_id!r}")
        return folder

    @property
    def chosen(self) -> str | None:
        """The set the last game used (what /setup offers first), if it still exists."""
        meta = _read_json(self.root / "chosen.json")
        set_id = meta.get("set") if isinstance(meta, dict) else None
        if isinstance(set_id, str) and (self.root / set_id / "set.json").is_file():
            return set_id
        return None

    def choose(self, set_id: str) -> None:
        self.folder(set_id)
        _write_json(self.root / "chosen.json", {"set": set_id})

    # ------------------------------------------------------------------ profiles

    def profile(self, set_id: str | None, reader: Any) -> Any:
        """The set's taught profile for ``reader``, or None (untaught, or unusable: then
        a log line, and ``problem(set_id)`` says why for /camera). The reader is told the
        letters the set's dice print: their networks describe its crops and read its dice
        (the caller holds the reader, as the table does under its lock)."""
        if set_id is None or not hasattr(reader, "embed"):
            return None
        with self._lock:
            if hasattr(reader, "ranks"):
                reader.ranks = self.ranks(set_id)
            path = self.folder(set_id) / "profile.npz"
            stamp = path.stat().st_mtime_ns if path.is_file() else 0.0
            known = self._loaded.get(set_id)
            if known is not None and known.stamp == stamp:
                return known.profile
            profile, problem = None, None
            if stamp:
                try:
                    from scorer.vision.teaching import open_profile

                    profile = open_profile(path.parent, reader)
                except ScorerError as err:
                    problem = str(err)
                    log.warning("dice set %s reads untaught: %s", set_id, problem)
            self._loaded[set_id] = Loaded(stamp, profile, problem)
            return profile

    def reading_profile(self, set_id: str | None, reader: Any, faces: str = "any") -> Any:
        """What a reading of the set uses: its own profile, joined in a game of poker dice
        with the prior of the script its dice print (``scorer.vision.script``). Teaching
        and the set's summary use ``profile``, its own crops alone."""
        own = self.profile(set_id, reader)
        if set_id is None or faces != "cards" or not hasattr(reader, "embed"):
            return own
        from scorer.vision.script import with_prior

        prior = self.prior(set_id, reader)
        if prior is None:
            return own
        with self._lock:
            # a lesson changes the set's profile in place, then saves it (a new stamp)
            loaded = self._loaded.get(set_id)
            made_of = (own, len(own) if own is not None else 0, loaded and loaded.stamp, prior)
            known = self._joined.get(set_id)
            if known is not None and known[0] == made_of:
                return known[1]
            profile = with_prior(own, prior)
            self._joined[set_id] = (made_of, profile)
            return profile

    def prior(self, set_id: str, reader: Any) -> Any:
        """The prior of the letters the set's poker dice print (``scorer.vision.script``),
        or None: Latin, or no usable prior (logged once)."""
        from scorer.vision.script import PRIORS, load_prior

        ranks = self.ranks(set_id)
        if ranks not in PRIORS:
            return None
        with self._lock:
            if ranks not in self._priors:
                self._priors[ranks] = load_prior(reader, ranks)
            return self._priors[ranks]

    def problem(self, set_id: str | None) -> str | None:
        known = self._loaded.get(set_id) if set_id else None
        return known.problem if known else None

    def editable(self, set_id: str, reader: Any, *, replace: bool = False) -> Any:
        """The set's profile to teach: its own, or a fresh one where it has none yet. One
        whose file cannot be used is None, unless ``replace`` (a player teaching the set
        on purpose): then the file is kept beside it as ``profile.npz.unusable``."""
        from scorer.vision.teaching import open_profile

        with self._lock:
            folder = self.folder(set_id)
            profile = self.profile(set_id, reader)
            if profile is not None:
                return profile
            if (folder / "profile.npz").is_file():
                if not replace:
                    return None
                shutil.move(str(folder / "profile.npz"), str(folder / "profile.npz.unusable"))
                self._loaded.pop(set_id, None)
            profile = open_profile(folder, reader, create=True)
            profile.name = self.name(set_id)
            return profile

    def save(self, set_id: str, profile: Any) -> None:
        with self._lock:
            folder = self.folder(set_id)
            if len(profile):
                path = profile.save(folder)
                self._loaded[set_id] = Loaded(path.stat().st_mtime_ns, profile, None)
            else:
                (folder / "profile.npz").unlink(missing_ok=True)
                self._loaded[set_id] = Loaded(0.0, None, None)


def _ranks_of(meta: dict[str, Any], set_id: str) -> str:
    """The ``ranks`` a set's ``set.json`` holds: absent is Latin, a bad one is logged
    and read as Latin (a hand-edited file must not stop the table)."""
    ranks = meta.get("ranks", DEFAULT_RANKS)
    if isinstance(ranks, str) and ranks in RANK_SCRIPTS:
        return str(ranks)
    log.warning("dice set %s: %s, not %r: shown as latin", set_id, BAD_RANKS, ranks)
    return DEFAULT_RANKS


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _write_json(path: Path, data: Any) -> None:
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(data, ensure_ascii=False) + "\n", encoding="utf-8")
    temporary.replace(path)


@dataclass(frozen=True)
class ThrowLesson:
    """What one written throw teaches: its photo and, per die the camera saw, its box,
    the value it was written with, its kind ("pips"/"card") and whether a player
    corrected it."""

    photo: str
    dice: tuple[tuple[tuple[int, int, int, int], int, str, bool], ...]


def effective(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The log rows that still count: each undo takes back the latest one left."""
    return not_undone(events, lambda row: row["event"].get("type") == "undo")


def turn_lessons(rows: list[dict[str, Any]], dice_kind: str) -> list[ThrowLesson]:
    """The throws of the turn that the last row (a write or scratch) ended, with the
    values the players settled on: each throw's dice after the corrections made to it.

    ``rows`` is the game's effective log (``effective``); ``dice_kind`` the game's dice
    ("pips", "cards" or "auto": then each die's kind as the reader saw it). Throws
    without a photo (typed in) teach nothing, nor do held dice (the camera did not
    look at them again). Boxes the camera read as dice where the players confirmed
    there are none (``not_dice``) are taught as no die, value 0.
    """
    lessons: list[ThrowLesson] = []
    throw: dict[str, Any] | None = None
    values: list[int] = []
    fixed: set[int] = set()

    def close() -> None:
        if throw is None:
            return
        reading = throw.get("reading") or {}
        photo, boxes = reading.get("photo"), reading.get("boxes") or []
        faces = reading.get("faces") or []
        if not photo:
            return
        dice = []
        for i, box in enumerate(boxes):
            if box is None or i >= len(values):
                continue
            face = {"pips": "pips", "cards": "card"}.get(dice_kind)
            face = face or (faces[i] if i < len(faces) else None)
            if face not in ("pips", "card"):
                continue
            dice.append((tuple(int(v) for v in box), int(values[i]), face, i in fixed))
        # boxes the players confirmed hold no die (a die too many left out): value 0
        kinds = {d[2] for d in dice}
        face = {"pips": "pips", "cards": "card"}.get(dice_kind) or next(iter(kinds), None)
        if face in ("pips", "card") and len(kinds) <= 1:
            for box in reading.get("not_dice") or []:
                dice.append((tuple(int(v) for v in box), 0, face, True))
        if dice:
            lessons.append(ThrowLesson(str(photo), tuple(dice)))

    start = len(rows) - 1
    while start > 0 and rows[start - 1]["event"].get("type") not in ("write", "scratch"):
        start -= 1
    for row in rows[start:-1]:
        event = row["event"]
        if event.get("type") == "throw":
            close()
            throw, values = event, [int(v) for v in event.get("dice") or []]
            tapped = (event.get("reading") or {}).get("tapped") or []
            fixed = {i for i in tapped if isinstance(i, int)}  # dice the camera missed
        elif event.get("type") == "correct" and throw is not None:
            index, value = event.get("index"), event.get("value")
            if isinstance(index, int) and 0 <= index < len(values) and isinstance(value, int):
                if values[index] != value:
                    fixed.add(index)
                values[index] = value
    close()
    return lessons
