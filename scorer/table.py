"""The table: a press becomes a throw on the scoresheet, and every page hears of it.

A press (the push button, the page's "Throw complete" button or the kiosk's space
bar) captures a few frames, reads the dice and applies the throw to the current
game; corrections, holds, writes and undo come from the pages. Every change goes
through the store (one event, one transaction) and then to the bus as the full
state, so the kiosk and every phone show the same sheet.

What the camera cannot settle, a person does: dice read with low confidence stay
"unsure" until tapped, and a reading with the wrong number of dice waits as a
*pending* throw until the dice are typed in. Without a camera or a reader the
game goes on by typing the dice in.
"""

from __future__ import annotations

import contextlib
import logging
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from scorer import tally
from scorer.bus import Bus
from scorer.dice import CARD_RANKS
from scorer.dice_sets import DEFAULT_RANKS, rank_labels
from scorer.errors import BadDice, ForbiddenMove, ScorerError, StaleState
from scorer.framing import framing
from scorer.lessons import Lessons
from scorer.tray import TrayRegion

log = logging.getLogger(__name__)

UNSURE_BELOW = 0.6
"""A die read with less confidence than this waits for a tap (the reader's own threshold)."""

FRAMES_PER_PRESS = 3
"""Frames captured per press; the reader votes over them."""

PRESS_GAP_SECONDS = 0.4
"""Presses closer together than this are one press (a bouncing or held button)."""

PHOTO_URL = "/photos/"
"""Where the web app serves the photos folder; the state names each throw's photo by it."""


class Camera(Protocol):
    """What the table needs of a camera (:class:`scorer.devices.Camera` and its fakes)."""

    def capture(self, frames: int = 1) -> list[Any]: ...


class Reader(Protocol):
    """What the table needs of a dice reader (:class:`scorer.vision.Reader`); one with
    ``read_votes(frames)`` votes over the frames of a press."""

    def read(self, frame: Any, faces: str = "any", least: int = 0) -> Any: ...


#: What the reader is told of a game's dice (``Setup.dice``): a game of pip dice never
#: gets a card face back, a poker-dice game never pips; "auto" lets the camera decide.
READER_FACES: dict[str, str] = {"pips": "pips", "cards": "cards", "auto": "any"}


class CameraUnavailable(ForbiddenMove):
    """No camera, or it failed: the dice must be typed in."""


class TableBusy(ForbiddenMove):
    """A reading is already running; this press is ignored."""


@dataclass
class Pending:
    """A reading the table could not apply by itself: the player types the dice in."""

    game_id: int
    values: list[int]
    expected: int
    message: str
    photo: str | None = None
    #: held dice the camera did not find among the dice it saw: ``{"index", "value"}``
    missing: list[dict[str, int]] = field(default_factory=list)
    #: every die the camera saw, in its order: ``{"value", "box"}`` (the box on the photo)
    seen: list[dict[str, Any]] = field(default_factory=list)
    #: where the camera saw more dice than the game has: the seen dice (indexes into
    #: ``seen``) left out of ``values``, each read less surely than every die kept
    left_out: list[int] = field(default_factory=list)
    #: the die of the throw undone that the players named no die (``no_die_here``)
    no_die: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "values": self.values,
            "expected": self.expected,
            "message": self.message,
            "photo": photo_url(self.photo),
            "missing": self.missing,
            "seen": self.seen,
            "left_out": self.left_out,
            "no_die": self.no_die,
        }


@dataclass
class Status:
    """What the pages show about the table itself, beside the game."""

    camera: str = "none"
    camera_message: str = "No camera: type the dice in."
    camera_name: str = ""
    camera_problem: str = ""
    reader: str = "unavailable"
    button_problem: str = ""
    busy: bool = False
    message: str = ""
    message_id: int = 0
    pending: Pending | None = None
    presses: int = 0
    ignored: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "camera": self.camera,
            "camera_message": self.camera_message,
            "camera_name": self.camera_name,
            "camera_problem": self.camera_problem,
            "reader": self.reader,
            "button_problem": self.button_problem,
            "busy": self.busy,
            "message": self.message,
            "message_id": self.message_id,
            "pending": self.pending.to_dict() if self.pending else None,
            "presses": self.presses,
            "ignored": self.ignored,
            **self.extra,
        }


def hints_available(ruleset: str) -> bool:
    """Whether the strategy package can advise on this ruleset (lazy: it may land late)."""
    try:
        from scorer.strategy import SOLVABLE
    except ImportError:
        return False
    return ruleset in SOLVABLE


def load_reader(backend: str = "cv2") -> Reader | None:
    """The dice reader on ``backend`` (or on OpenCV's dnn where that one fails to load: a
    broken onnxruntime must not cost the table its camera), if the vision package
    provides one and it loads; None otherwise.

    Imported lazily: the vision models may be missing (a fresh clone before
    training), and then the game goes on by typing the dice in.
    """
    import importlib

    problems = []
    for module_name in ("scorer.vision", "scorer.vision.reader"):
        for runner in dict.fromkeys((backend, "cv2")):
            try:
                module = importlib.import_module(module_name)
                factory = getattr(module, "Reader", None)
                if factory is None:
                    problems.append(f"{module_name} has no Reader")
                    break
                reader = factory(backend=runner)
            except Exception as err:  # a missing model file is as fatal as a missing module
                problems.append(f"{module_name} on {runner}: {err}")
                continue
            if problems:
                log.warning("dice reader on %s: %s", runner, "; ".join(problems))
            return reader
    log.warning("dice reader unavailable: %s", "; ".join(problems))
    return None


class Table:
    """The orchestrator: press -> capture -> read -> game -> store -> bus.

    >>> import tempfile, pathlib
    >>> from scorer.game import Setup
    >>> from scorer.store import Store
    >>> table = Table(Store(pathlib.Path(tempfile.mkdtemp()) / "t.sqlite3"))  # no camera
    >>> game_id, _ = table.new_game(Setup("generala", ("Anna", "Borys")))
    >>> table.throw(game_id, [1, 2, 3, 4, 5]).values       # typed in by hand
    (1, 2, 3, 4, 5)
    >>> table.view(game_id)["scores"]["escalera"]           # servida: 20 + 5
    25
    >>> table.press("button")                          # nothing to photograph with
    False
    >>> table.status.message
    'No camera: type the dice in.'
    """

    def __init__(
        self,
        store: Any,
        bus: Bus | None = None,
        camera: Camera | None = None,
        reader: Reader | None = None,
        *,
        photos: Path | None = None,
        tray_file: Path | None = None,
        frames: int = FRAMES_PER_PRESS,
        unsure_below: float = UNSURE_BELOW,
        press_gap: float = PRESS_GAP_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
        dice_sets: Any = None,
    ) -> None:
        self.store = store
        self.bus = bus or Bus()
        self.camera = camera
        self.reader = reader
        self.photos = photos
        self.frames = frames
        self.unsure_below = unsure_below
        self.press_gap = press_gap
        self.clock = clock
        self.rng = rng or random.Random()
        self.current_game_id: int | None = None
        self._act_lock = threading.RLock()
        self._busy_lock = threading.Lock()
        self._last_press = float("-inf")
        self._message_ids = 0
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None
        self._deadlines: dict[int, tuple[tuple[Any, ...], float]] = {}
        self.status = Status()
        #: where the tray lies in the picture, kept in ``tray_file`` (``scorer.tray``)
        self.tray = TrayRegion(tray_file)
        self.last_frame: Any = None
        #: the table's sets of dice and their taught profiles (``scorer.dice_sets``)
        self.dice_sets = dice_sets
        self._reader_lock = threading.RLock()  # one reading or lesson at a time
        self._pending_reading: Any = None  # the reading a pending throw waits with
        #: per game: boxes of the pending reading's throw named no die (``no_die_here``)
        self._no_dice: dict[int, list[list[int]]] = {}
        #: what the sets learn from play and from /camera (``scorer.lessons``)
        self.lessons = Lessons(
            store,
            dice_sets,
            reader,
            lock=self._reader_lock,
            tray=self.tray,
            photos=photos,
            set_of=self.dice_set_of,
            use_dice_set=self._use_dice_set,
            use_letters=self._use_letters,
            say=self.say,
            rng=self.rng,
            unsure_below=unsure_below,
        )
        self._describe_devices()

    # -- devices ----------------------------------------------------------------

    def _describe_devices(self) -> None:
        """Refresh what the pages say about the camera and the reader."""
        if self.camera is None:
            self.status.camera = "none"
            self.status.camera_message = "No camera: type the dice in."
        else:
            problem = None
            health = getattr(self.camera, "health", None)
            if callable(health):
                try:
                    problem = health()
                except Exception as err:  # a health check must not break the page
                    problem = str(err)
            name = str(getattr(self.camera, "name", "camera"))
            self.status.camera_name = name
            self.status.camera_problem = problem or ""
            if problem:
                self.status.camera = "failed"
                self.status.camera_message = (
                    f"Camera problem ({name}): {problem}. Type the dice in meanwhile."
                )
            else:
                self.status.camera = "ok"
                self.status.camera_message = f"Camera: {name}"
        self.status.reader = "ok" if self.reader is not None else "unavailable"
        if self.camera is not None and self.reader is None:
            self.status.camera_message += " (no dice reader: type the dice in)"

    def camera_failed(self, problem: str) -> None:
        """The camera broke mid-game: say so plainly; typing the dice in still works."""
        self.status.camera = "failed"
        self.status.camera_problem = problem
        self.status.camera_message = f"Camera problem: {problem}. Type the dice in meanwhile."
        log.warning("camera failed: %s", problem)

    def on_camera_health(self, problem: str | None) -> None:
        """The camera's own watcher saw it fail or come back: tell every page."""
        self._describe_devices()
        self.publish()

    def on_button_health(self, problem: str | None) -> None:
        """The push button got stuck (or came free): every page says so; the screen still throws."""
        self.status.button_problem = problem or ""
        self.publish()

    def can_read(self) -> bool:
        return self.camera is not None and self.reader is not None

    # -- games --------------------------------------------------------------------

    def new_game(self, setup: Any) -> tuple[int, Any]:
        """Start a game at the table; it becomes the one the button throws for."""
        dice_set = getattr(setup, "dice_set", None)
        if dice_set is not None:
            if self.dice_sets is None:
                raise ScorerError("this table keeps no sets of dice")
            self.dice_sets.choose(dice_set)  # the next game's default; unknown ones refused
        with self._act_lock:
            game_id, game = self.store.create(setup)
            self.current_game_id = game_id
            self.status.pending = None
            self.say("")  # a settled line of the last game must not greet the new one
            self.publish(game_id, game)
        return game_id, game

    def load(self, game_id: int) -> Any:
        return self.store.load(game_id)

    def current(self) -> tuple[int, Any] | None:
        """The game the table plays now: the last one started, else the newest unfinished."""
        if self.current_game_id is None:
            for summary in sorted(self.store.games(), key=lambda s: s["id"], reverse=True):
                if not summary.get("finished"):
                    self.current_game_id = int(summary["id"])
                    break
        if self.current_game_id is None:
            return None
        return self.current_game_id, self.store.load(self.current_game_id)

    def select(self, game_id: int) -> Any:
        """Make a stored game the table's current one (resume it)."""
        game = self.store.load(game_id)
        self.current_game_id = game_id
        self.publish(game_id, game)
        return game

    def view(self, game_id: int, game: Any | None = None) -> dict[str, Any]:
        """The state the API and the pages send: the game's state plus what the table adds."""
        game = game if game is not None else self.store.load(game_id)
        state = dict(game.state())
        state["id"] = game_id
        state["photo"] = photo_url(game.photo) if game.dice else None
        if state.get("timer"):
            deadline = self.deadline(game_id, state)
            remaining = None if deadline is None else round(max(0.0, deadline - time.time()), 2)
            state["timer"] = dict(state["timer"], deadline=deadline, remaining=remaining)
        if self.camera is not None and self.status.camera != "failed":
            self._describe_devices()
        state["table"] = self.status.to_dict()
        state["table"]["current_game"] = self.current_game_id
        state["hints"] = hints_available(state["ruleset"]) and bool(state.get("coach"))
        state["notes"] = tally.notes(game)
        state["moves"] = self.moves(game, state)
        state["ranks"] = self.ranks_of(getattr(game.setup, "dice_set", None))
        state["rank_labels"] = list(rank_labels(state["ranks"]))
        return state

    def ranks_of(self, set_id: str | None) -> str:
        """The letters the game's set of dice prints (``scorer.dice.RANK_SCRIPTS``):
        the pages draw poker dice as the table's dice show them. Latin without a set,
        or with one since deleted."""
        if self.dice_sets is None or set_id is None:
            return DEFAULT_RANKS
        try:
            return self.dice_sets.ranks(set_id)
        except ScorerError:
            return DEFAULT_RANKS

    @staticmethod
    def moves(game: Any, state: dict[str, Any]) -> dict[str, list[str]]:
        """The cells the rules take a strike or a commit on now, asked of the rules
        themselves, so a page never offers a tap the server refuses."""
        out: dict[str, list[str]] = {"strike": [], "commit": []}
        if state.get("finished") or not state.get("throw") or game.is_duel:
            return out
        for kind in out:
            for cell in game.rules.cells:
                try:
                    game.apply({"type": "scratch" if kind == "strike" else kind, "cell": cell})
                except ScorerError:
                    continue
                out[kind].append(cell)
        return out

    def deadline(self, game_id: int, state: dict[str, Any]) -> float | None:
        """When the current turn's timer runs out (epoch seconds); a new turn restarts it."""
        if state.get("finished") or not state.get("timer"):
            return None
        if (state.get("rolloff") or {}).get("pending"):
            return None  # a roll-off throw is no turn: the timer starts with part 1
        key = (state.get("round"), state.get("current_player"), state.get("extra_turns"))
        known = self._deadlines.get(game_id)
        if known is None or known[0] != key:
            known = (key, time.time() + float(state["timer"]["seconds"]))
            self._deadlines[game_id] = known
        return known[1]

    def publish(self, game_id: int | None = None, game: Any | None = None) -> None:
        """Send the full state to every page (the game's, or the table's status alone)."""
        if game_id is None:
            game_id = self.current_game_id
        if game_id is None:
            self.bus.publish("table", {"table": self.status.to_dict()})
            return
        try:
            self.bus.publish("state", self.view(game_id, game))
        except ScorerError as err:  # the game vanished: tell the pages about the table alone
            log.warning("cannot publish game %s: %s", game_id, err)
            self.bus.publish("table", {"table": self.status.to_dict()})

    def say(self, message: str) -> None:
        """A short line every page shows (a press ignored, a camera fault...)."""
        self._message_ids += 1
        self.status.message = message
        self.status.message_id = self._message_ids

    # -- acting on a game -------------------------------------------------------------

    def act(self, game_id: int, event: dict[str, Any], version: int | None = None) -> Any:
        """Validate and store one event, then publish; nothing changes on an error.

        Published before the lock is let go: two moves at once reach the pages in the
        order they were stored, never an older state last.
        """
        with self._act_lock:
            game = self.store.act(game_id, event, expected_version=version)
            if event["type"] in {"throw", "rolloff", "undo", "write", "scratch"}:
                self._clear_pending(game_id)
            self.say("")  # a move settles whatever the table last said
            self.current_game_id = game_id
            self.publish(game_id, game)
            if event["type"] in {"write", "scratch", "undo"}:  # queued in the order stored
                self.lessons.learn_later(game_id, event["type"], int(game.version))
        return game

    def _clear_pending(self, game_id: int) -> None:
        if self.status.pending and self.status.pending.game_id == game_id:
            self.status.pending = None
            self._pending_reading = None
        self._no_dice.pop(game_id, None)

    def throw(
        self,
        game_id: int,
        dice: Sequence[int] | None = None,
        version: int | None = None,
    ) -> Any:
        """A throw typed in (``dice``), or read from the camera when ``dice`` is None."""
        if dice is not None:
            event = self._offer_taken(game_id, dice)
            if event is None:
                event = {"type": "throw", "dice": list(dice), "reading": None}
            return self.act(game_id, event, version)
        return self.capture_throw(game_id, version)

    def _offer_taken(self, game_id: int, dice: Sequence[int]) -> dict[str, Any] | None:
        """The camera's throw where the players confirmed its offer as it stood (a die too
        many, the least sure left out: ``pending_for``): the dice kept as read, and the
        boxes left out named as no die (``not_dice``), which the game's set of dice learns
        when the turn is written. None where the typed dice are not the offer."""
        pending, reading = self.status.pending, self._pending_reading
        if (
            pending is None
            or reading is None
            or pending.game_id != game_id
            or not pending.left_out
            or list(dice) != pending.values
        ):
            return None
        import dataclasses

        kept = tuple(d for i, d in enumerate(reading.dice) if i not in pending.left_out)
        state = self.store.load(game_id).state()
        event = self.throw_event(state, dataclasses.replace(reading, dice=kept), pending.photo)
        if event is None or event["dice"] != list(dice):
            return None
        left = [_box_of(reading.dice[i]) for i in pending.left_out]
        event["reading"]["not_dice"] = [b for b in left if b is not None]
        event["reading"]["unsure"] = []  # the players confirmed every die of the offer
        return event

    def no_die_here(self, game_id: int, index: int, version: int | None = None) -> Any:
        """A die of the throw just read where there is no die (a token, a coin the camera
        took for one): the throw is undone and waits with the rest of its dice, as a
        reading a die short does, for the die the camera missed to be tapped where it
        lies (``mark_missed``) or the dice typed in. The spot is taught to the game's set
        as no die once the turn is written (``not_dice`` in the throw's reading)."""
        with self._act_lock:
            from scorer.vision.reading import Die, Reading

            game = self.store.load(game_id)
            if version is not None and version != game.version:
                raise StaleState(f"the game moved on (version {game.version}, you saw {version})")
            events = self.store.events(game_id)
            last = events[-1]["event"] if events else {}
            reading = last.get("reading") or {}
            if last.get("type") != "throw" or not reading.get("photo"):
                raise ForbiddenMove(
                    "only a die of the throw the camera just read can be no die: undo instead"
                )
            state = game.state()
            dice, boxes = state["dice"], reading.get("boxes") or []
            if (
                not 0 <= index < min(len(dice), len(boxes))
                or dice[index]["held"]
                or not boxes[index]
            ):
                raise ForbiddenMove(f"die {index + 1} was not read on this throw's photo")
            kind = {"cards": "card"}.get(game.setup.dice, "pips")
            faces = reading.get("faces") or [None] * len(dice)
            sure = reading.get("confidence") or [1.0] * len(dice)
            seen = tuple(
                Die(
                    int(value),
                    faces[i] or kind,
                    float(sure[i]),
                    tuple(int(v) for v in boxes[i]),
                    CARD_RANKS[int(value) - 1] if (faces[i] or kind) == "card" else None,
                )
                for i, value in enumerate(last["dice"])
                if i != index and boxes[i] is not None and not dice[i]["held"]
            )
            game = self.act(game_id, {"type": "undo"}, version)
            rest = Reading(seen, 0.0, self.unsure_below)
            pending = self.pending_for(game_id, game.state(), rest, reading["photo"])
            pending.message = (
                f"Die {index + 1} is no die: tap where the missed die lies on the photo, or "
                "type the dice in."
            )
            pending.no_die = index
            pending.seen = [{"value": d.value, "box": list(d.box)} for d in seen]
            self.status.pending = pending
            self._pending_reading = rest
            self._no_dice[game_id] = [list(boxes[index])]
            self.say(pending.message)
            self.publish(game_id)
            return self.store.load(game_id)

    def mark_missed(
        self, game_id: int, x: float, y: float, value: int, version: int | None = None
    ) -> Any:
        """A die the camera missed, tapped where it lies on the waiting reading's photo.

        It joins the dice the camera saw, at the size of theirs; once as many dice lie
        there as are in play the throw is applied, the tapped die a correction (taught
        to the game's set of dice when the throw is written).
        """
        with self._act_lock:  # two taps, or a tap during a capture, change one reading
            import dataclasses
            from statistics import median

            pending, reading = self.status.pending, self._pending_reading
            if (
                pending is None
                or pending.game_id != game_id
                or reading is None
                or not pending.photo
            ):
                raise ForbiddenMove("no reading waits for a missed die: type the dice in")
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
                raise BadDice(f"a die shows 1..6 (or 9, 10, J, Q, K, A), not {value}")
            game = self.store.load(game_id)
            if version is not None and version != game.version:
                raise StaleState(f"the game moved on (version {game.version}, you saw {version})")
            sides = [max(d.box[2], d.box[3]) for d in reading.dice]
            if not sides:
                raise ForbiddenMove("the camera saw no dice here: type the dice in")
            side = float(median(sides))
            box = (round(x - side / 2), round(y - side / 2), round(side), round(side))
            kind = {"cards": "card"}.get(game.setup.dice, "pips")
            if any(
                abs(d.box[0] + d.box[2] / 2 - x) + abs(d.box[1] + d.box[3] / 2 - y) < side / 2
                for d in reading.dice
            ):
                raise ForbiddenMove("a die the camera saw lies there: tap it to correct it")
            rank = CARD_RANKS[value - 1] if kind == "card" else None
            tapped = type(reading.dice[0])(value, kind, 1.0, box, rank)
            dice = sorted(
                [*reading.dice, tapped], key=lambda d: (d.box[0] + d.box[2] / 2, d.box[1])
            )
            reading = dataclasses.replace(reading, dice=tuple(dice))
            state = game.state()
            event = self.throw_event(state, reading, pending.photo)
            if event is None:
                self._pending_reading = reading
                pending.seen = [{"value": int(d.value), "box": _box_of(d)} for d in reading.dice]
                pending.values = [int(d.value) for d in reading.dice]
                self.publish(game_id)
                return game
            boxes = event["reading"]["boxes"]
            event["reading"]["tapped"] = [i for i, b in enumerate(boxes) if b == list(box)]
            if self._no_dice.get(game_id):
                event["reading"]["not_dice"] = self._no_dice[game_id]
            self._pending_reading = None
            return self.act(game_id, event, version)

    def rolloff(
        self, game_id: int, dice: Sequence[int] | None = None, version: int | None = None
    ) -> Any:
        """A roll-off throw typed in, or read from the camera (a press does the same while a
        roll-off is under way)."""
        if dice is not None:
            return self.act(game_id, {"type": "rolloff", "dice": list(dice)}, version)
        if self.store.load(game_id).rolloff is None:
            raise ForbiddenMove("there is no roll-off now")
        return self.capture_throw(game_id, version)

    def correct(self, game_id: int, index: int, value: int, version: int | None = None) -> Any:
        return self.act(game_id, {"type": "correct", "index": index, "value": value}, version)

    def hold(self, game_id: int, held: Sequence[int], version: int | None = None) -> Any:
        return self.act(game_id, {"type": "hold", "held": list(held)}, version)

    def write(self, game_id: int, cell: str, version: int | None = None) -> Any:
        return self.act(game_id, {"type": "write", "cell": cell}, version)

    def scratch(self, game_id: int, cell: str, version: int | None = None) -> Any:
        return self.act(game_id, {"type": "scratch", "cell": cell}, version)

    def undo(self, game_id: int, version: int | None = None) -> Any:
        return self.act(game_id, {"type": "undo"}, version)

    # -- the press ----------------------------------------------------------------

    def press(self, source: str = "button") -> bool:
        """A "throw complete" press from the button or keyboard: read in the background.

        Returns False (and says why on every page) when the press is ignored: a
        reading still runs, the press bounced, or there is no game or camera.
        """
        now = self.clock()
        if now - self._last_press < self.press_gap:
            self.status.ignored += 1
            return False
        self._last_press = now
        if not self._busy_lock.acquire(blocking=False):
            self.status.ignored += 1
            self.say("Still reading the dice: press ignored.")
            self.publish()
            return False
        try:
            target = self._press_target()
        except ScorerError as err:
            self._busy_lock.release()
            self.say(str(err))
            self.publish()
            return False
        self.status.presses += 1
        worker = threading.Thread(
            target=self._press_worker, args=(target, source), name="table-press", daemon=True
        )
        worker.start()
        return True

    def _press_target(self) -> int:
        current = self.current()
        if current is None:
            raise ForbiddenMove("No game at the table: start one on the setup page.")
        if not self.can_read():
            raise CameraUnavailable(self.status.camera_message or "No camera: type the dice in.")
        return current[0]

    def _press_worker(self, game_id: int, source: str) -> None:
        try:
            self._capture_locked(game_id, None)
        except ScorerError as err:  # already said on every page
            log.info("press from %s: %s", source, err)
        except Exception as err:  # a worker thread must never die silently
            log.exception("press from %s failed", source)
            self.say(f"The dice could not be read: {err}")
            self.publish(game_id)
        finally:
            self._busy_lock.release()

    def capture_throw(self, game_id: int, version: int | None = None) -> Any:
        """Capture, read and apply a throw now (the API's bodiless POST /throw)."""
        if not self.can_read():
            raise CameraUnavailable(self.status.camera_message or "No camera: type the dice in.")
        if not self._busy_lock.acquire(blocking=False):
            self.status.ignored += 1
            self.say("Still reading the dice: press ignored.")
            self.publish(game_id)
            raise TableBusy("Still reading the dice: press ignored.")
        try:
            return self._capture_locked(game_id, version)
        finally:
            self._busy_lock.release()

    def _capture_locked(self, game_id: int, version: int | None) -> Any:
        game = self.store.load(game_id)
        state = game.state()
        try:
            self._check_throw_allowed(game, state)
        except ScorerError as err:
            self.say(str(err))
            self.publish(game_id, game)
            raise
        self.status.busy = True
        self.say("Reading the dice...")
        self.publish(game_id, game)
        try:
            self._tell_camera(state)
            frames = self._grab()
            reading = self._read(
                frames,
                READER_FACES.get(game.setup.dice, "any"),
                self.dice_set_of(game_id),
                least=self.free_dice(state),
            )
            photo = self._save_photo(game_id, frames[-1])
        except Exception as err:
            self.status.busy = False
            problem = str(err) if isinstance(err, ScorerError) else f"cannot read the dice: {err}"
            self.say(problem)
            self.publish(game_id)
            raise
        self.status.busy = False
        event = self.throw_event(state, reading, photo)
        if event is not None and game.rolloff is not None:
            event = {**event, "type": "rolloff"}  # the camera reads the roll-off's throws too
        if event is None:
            self.status.pending = self.pending_for(game_id, state, reading, photo)
            self.status.pending.seen = [
                {"value": int(d.value), "box": _box_of(d)} for d in reading.dice
            ]
            self._pending_reading = reading
            self._keep_misread(self.status.pending)
            self.say(self.status.pending.message)
            self.publish(game_id)
            return self.store.load(game_id)
        self.say("")
        try:
            return self.act(game_id, event, version)
        except ScorerError as err:
            self.say(str(err))
            self.publish(game_id)
            raise

    @staticmethod
    def _check_throw_allowed(game: Any, state: dict[str, Any]) -> None:
        """Ask the rules before photographing: a throw they forbid (no throws left, a die
        to confirm, a number to commit to) is refused without using the camera."""
        free = Table.free_dice(state)
        kind = "rolloff" if game.rolloff is not None else "throw"
        game.apply({"type": kind, "dice": [1] * free})

    def _tell_camera(self, state: dict[str, Any]) -> None:
        """A camera that renders its throws (the demo's) is told what stays on the tray."""
        adapter = getattr(self.camera, "adapter", None) or self.camera
        prepare = getattr(adapter, "prepare_throw", None)
        if callable(prepare):
            prepare(list(self.held_dice(state).values()), state.get("dice_kind") or "pips")

    def _grab(self) -> list[Any]:
        assert self.camera is not None
        try:
            frames = list(self.camera.capture(frames=max(1, self.frames)))
        except Exception as err:  # CameraError, or anything a driver throws
            self.camera_failed(getattr(err, "problem", None) or str(err))
            raise CameraUnavailable(self.status.camera_message) from err
        if not frames:
            self.camera_failed("no picture came back")
            raise CameraUnavailable(self.status.camera_message)
        self._describe_devices()
        return frames

    @staticmethod
    def free_dice(state: dict[str, Any]) -> int:
        """How many dice the next throw throws: those not held, or all of them."""
        return sum(not d["held"] for d in state.get("dice") or []) or Table.dice_in_play(state)

    def _read(
        self, frames: list[Any], faces: str = "any", dice_set: str | None = None, least: int = 0
    ) -> Any:
        """The reading of a press's frames; ``least``: the dice the game knows were thrown
        (the reader looks again where it reads fewer)."""
        assert self.reader is not None
        self.last_frame = frames[-1]
        crops = [self.tray.cut(f) for f in frames]
        with self._reader_lock:
            self._use_dice_set(dice_set, faces)
            votes = getattr(self.reader, "read_votes", None)
            if callable(votes) and len(crops) > 1:
                reading = votes(crops, faces=faces, least=least)
            else:
                reading = self.reader.read(crops[-1], faces=faces, least=least)
        return self.tray.placed(reading, frames[-1])

    # -- the table's dice sets: reading with a taught profile ---------------------------

    def dice_set_of(self, game_id: int) -> str | None:
        """The set of dice a game is read with (chosen on /setup), if it still exists."""
        if self.dice_sets is None:
            return None
        try:
            set_id = getattr(self.store.setup(game_id), "dice_set", None)
            if set_id is not None:
                self.dice_sets.folder(set_id)
            return set_id
        except ScorerError:
            return None

    def _use_dice_set(self, set_id: str | None, faces: str = "any") -> None:
        """Give the reader the set's taught profile (none for an untaught or unusable
        set: the reading goes on untaught, and /camera says why); in a game of poker dice
        (``faces``) joined with the prior of the letters the set prints."""
        if self.reader is None or not hasattr(self.reader, "profile"):
            return
        self._use_letters(set_id)
        profile = None
        if self.dice_sets is not None and set_id is not None:
            try:
                profile = self.dice_sets.reading_profile(set_id, self.reader, faces)
            except ScorerError as err:
                log.warning("dice set %s: %s", set_id, err)
        self.reader.profile = profile
        self.status.extra["dice_set_problem"] = (
            self.dice_sets.problem(set_id) if self.dice_sets is not None else None
        )

    def _use_letters(self, set_id: str | None) -> None:
        """Tell the reader the letters the set's poker dice print (Latin for no set): a
        script with face networks of its own is read with them. (``DiceSets.profile``
        tells it too, for every profile it gives: a set is taught and described so.)"""
        if self.reader is None or not hasattr(self.reader, "ranks"):
            return
        known = self.dice_sets is not None and set_id is not None
        self.reader.ranks = self.dice_sets.ranks(set_id) if known else "latin"

    # -- a lesson's photo for /camera (kept and taught by ``self.lessons``) ------------

    def lesson(self, set_id: str) -> dict[str, Any]:
        """Photograph the tray and read it as the set reads now: the page shows the photo
        with what was read, for the player to fix before ``Lessons.teach``."""
        if self.dice_sets is None:
            raise ScorerError("this table keeps no sets of dice")
        self.dice_sets.folder(set_id)
        if self.camera is None or self.reader is None:
            raise CameraUnavailable(self.status.camera_message or "No camera: nothing to teach.")
        if not self._busy_lock.acquire(blocking=False):
            raise TableBusy("Still reading the dice: try again in a moment.")
        try:
            frames = self._grab()
            reading = self._read(frames, self.lessons.faces(set_id), dice_set=set_id)
        finally:
            self._busy_lock.release()
        frame = frames[-1]
        photo = self._save_photo(f"lessons/{set_id}", frame)
        return self.lessons.keep(set_id, frame, photo, reading)

    # -- the tray region and the camera page ----------------------------------------

    def set_region(self, region: Sequence[float] | None) -> None:
        """The part of the picture where the tray is, as fractions [x, y, w, h]; None: all.

        Kept in ``tray_file`` (when given), so the tray stays marked across restarts.
        """
        self.tray.mark(region)

    @property
    def region(self) -> list[float] | None:
        """The tray's part of the picture as fractions [x, y, w, h]; None: all of it."""
        return self.tray.fractions

    def test_read(self) -> dict[str, Any]:
        """Capture and read without touching any game (the camera page's "Test read")."""
        if self.camera is None:
            raise CameraUnavailable(self.status.camera_message)
        if not self._busy_lock.acquire(blocking=False):
            raise TableBusy("Still reading the dice: try again in a moment.")
        try:
            frames = self._grab()
            self.last_frame = frames[-1]
            if self.reader is None:
                return {"dice": [], "unsure": [], "ms": 0, "message": self.status.camera_message}
            reading = self._read(frames, dice_set=self.dice_sets.chosen if self.dice_sets else None)
        finally:
            self._busy_lock.release()
        to_dict = getattr(reading, "to_dict", None)
        out = to_dict() if callable(to_dict) else {"dice": []}
        height, width = frames[-1].shape[:2]
        out["size"] = [int(width), int(height)]
        out.update(framing(out["dice"]))
        return out

    def preview_jpeg(self) -> bytes | None:
        """A picture of the tray for the camera page: live cameras shoot, others show the last."""
        import cv2

        frame = self.last_frame
        shoot = self.camera is not None and (frame is None or getattr(self.camera, "live", False))
        if shoot and self._busy_lock.acquire(blocking=False):
            try:
                frame = self.camera.capture(frames=1)[-1]
                self.last_frame = frame
            except Exception as err:
                self.camera_failed(getattr(err, "problem", None) or str(err))
            finally:
                self._busy_lock.release()
        if frame is None:
            return None
        ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 80])
        return data.tobytes() if ok else None

    def _save_photo(self, game_id: int | str, frame: Any) -> str | None:
        if self.photos is None:
            return None
        try:
            import cv2

            stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
            folder = f"game-{game_id}" if isinstance(game_id, int) else game_id
            relative = Path(folder) / f"{stamp}.jpg"
            target = self.photos / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            if not cv2.imwrite(str(target), frame, [cv2.IMWRITE_JPEG_QUALITY, 85]):
                return None
            return relative.as_posix()
        except Exception as err:  # a full disk must not stop the game
            log.warning("photo not saved: %s", err)
            return None

    def _keep_misread(self, pending: Pending) -> None:
        """Keep a reading that could not become a throw beside its photo, for /history.

        The game's log holds only what happened to the game; a failed reading is not a
        move, so it lives with the photos (``<photo>.misread.json``, see :func:`misreads`).
        """
        if self.photos is None or pending.photo is None:
            return
        import json

        record = {
            "at": datetime.now(UTC).isoformat(timespec="milliseconds"),
            "photo": pending.photo,
            "values": [d["value"] for d in pending.seen],
            "boxes": [d["box"] for d in pending.seen],
            "expected": pending.expected,
        }
        try:
            target = self.photos / f"{pending.photo}.misread.json"
            target.write_text(json.dumps(record) + "\n", encoding="utf-8")
        except OSError as err:  # a full disk must not stop the game
            log.warning("failed reading not kept: %s", err)

    def misreads(self, game_id: int) -> list[dict[str, Any]]:
        """The readings of a game that could not become throws, oldest first."""
        import json

        if self.photos is None:
            return []
        found = []
        for path in sorted((self.photos / f"game-{int(game_id)}").glob("*.misread.json")):
            try:
                record = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as err:
                log.warning("ignoring %s: %s", path, err)
                continue
            if isinstance(record, dict) and isinstance(record.get("photo"), str):
                found.append(record)
        return found

    # -- turning a reading into a throw ----------------------------------------------

    def pending_for(
        self, game_id: int, state: dict[str, Any], reading: Any, photo: str | None
    ) -> Pending:
        """A reading that does not fit, with the dice to type in filled as far as known.

        When every die was seen but held ones are not among them, the line names those
        held dice, and the values offered keep each held die at its place (the throw
        accepts them as they are).
        """
        expected = self.dice_in_play(state)
        left_out = least_sure(reading.dice, expected)
        seen = [int(d.value) for i, d in enumerate(reading.dice) if i not in left_out]
        held = self.held_dice(state)
        rest = list(seen)
        missing = []
        for index, value in held.items():
            if value in rest:
                rest.remove(value)
            else:
                missing.append({"index": index, "value": value})
        count = len(reading.dice)
        if len(seen) == expected and (missing or left_out):
            free = iter(rest)
            values = [held[i] if i in held else next(free) for i in range(expected)]
        else:
            values = seen
        if len(seen) != expected:
            missing = []  # the count is wrong: which held die is not there cannot be told
        if missing:
            names = ", ".join(f"die {m['index'] + 1} ({m['value']})" for m in missing)
            message = f"Held dice not seen: {names}. Check the dice and type them in."
        elif left_out:
            message = (
                f"Saw {count} dice, expected {expected}: the least sure left out (crossed out on "
                "the photo). Check the dice and confirm."
            )
        else:
            message = f"Saw {count} dice, expected {expected}: check the dice and type them in."
        return Pending(game_id, values, expected, message, photo, missing, left_out=left_out)

    @staticmethod
    def dice_in_play(state: dict[str, Any]) -> int:
        info = state.get("ruleset_info") or {}
        return int(info.get("dice") or len(state.get("dice") or []) or 5)

    def held_dice(self, state: dict[str, Any]) -> dict[int, int]:
        """Index -> value of the dice kept from the last throw (none at a turn's start)."""
        return {i: d["value"] for i, d in enumerate(state.get("dice") or []) if d.get("held")}

    def throw_event(self, state: dict[str, Any], reading: Any, photo: str | None) -> dict | None:
        """The throw event for a reading, or None when the count does not fit.

        The camera may still see the held dice (all dice read: the held values are
        taken out of the reading) or only the thrown ones (as many as not held).
        The event always lists every die, held ones at their places.
        """
        total = self.dice_in_play(state)
        held = self.held_dice(state)
        threshold = float(getattr(reading, "threshold", self.unsure_below))
        seen = list(reading.dice)
        held_seen: dict[int, Any] = {}  # a held die the camera saw again, where it lies now
        if len(seen) == total and held:
            rest = list(seen)
            for index, value in held.items():
                match = next((d for d in rest if d.value == value), None)
                if match is None:
                    return None
                rest.remove(match)
                held_seen[index] = match
            seen = rest
        if len(seen) != total - len(held):
            return None
        thrown = iter(seen)
        dice: list[int] = []
        confidence: list[float] = []
        boxes: list[list[int] | None] = []
        faces: list[str | None] = []
        guesses: list[int | None] = []
        for index in range(total):
            if index in held:
                dice.append(held[index])
                confidence.append(1.0)
                boxes.append(_box_of(held_seen[index]) if index in held_seen else None)
                faces.append(None)
                guesses.append(None)
            else:
                die = next(thrown)
                dice.append(int(die.value))
                confidence.append(round(float(die.confidence), 4))
                boxes.append(_box_of(die))
                faces.append(getattr(die, "face", None))
                guesses.append(getattr(die, "guess", None))
        return {
            "type": "throw",
            "dice": dice,
            "virtual": False,
            "reading": {
                "confidence": confidence,
                "photo": photo,
                "boxes": boxes,
                "faces": faces,
                "guesses": guesses,
                "unsure": [i for i, c in enumerate(confidence) if i not in held and c < threshold],
                "ms": round(float(getattr(reading, "ms", 0.0)), 2),
            },
        }

    # -- the turn timer ---------------------------------------------------------------

    def tick(self, now: float | None = None) -> bool:
        """Apply the timeout of the current game if its turn timer ran out; True if it did."""
        current = self.current_game_id
        if current is None:
            return False
        with self._act_lock:
            try:
                game = self.store.load(current)
            except ScorerError:
                return False
            state = game.state()
            deadline = self.deadline(current, state)
            if deadline is None or (now if now is not None else time.time()) < deadline:
                return False
            try:
                events = game.timeout_events(self.rng)
                for event in events:
                    game = self.store.act(current, event)
            except ScorerError as err:
                events = []
                self.say(f"Time is up, but: {err}")
            if any(e["type"] == "write" for e in events):
                self.say("Time is up: the best cell was written.")
            else:  # a die still waits for a tap: the player gets another period
                self._deadlines.pop(current, None)
                if events:
                    self.say("Time is up: confirm the dice, then write.")
            self.publish(current, game)
        return True

    def start(self, interval: float = 0.5) -> None:
        """Run the turn timer in a background thread until :meth:`close`."""
        if self._ticker is not None:
            return

        def loop() -> None:
            while not self._stop.wait(interval):
                try:
                    self.tick()
                except Exception:
                    log.exception("timer tick failed")

        self._ticker = threading.Thread(target=loop, name="table-timer", daemon=True)
        self._ticker.start()

    def close(self) -> None:
        self._stop.set()
        self.lessons.close()
        if self._ticker is not None:
            self._ticker.join(timeout=2)
        self.bus.close()
        closer = getattr(self.camera, "close", None)
        if callable(closer):
            with contextlib.suppress(Exception):
                closer()


def least_sure(dice: Sequence[Any], expected: int) -> list[int]:
    """Where a reading holds more dice than the game has (a side face, a token, the tray's
    screw taken for a die), the indexes of the dice left out to make the count: those read
    less surely than every die kept. None where the confidences do not tell (a tie at the
    cut): then the players type the dice in, as with too few."""
    if len(dice) <= expected:
        return []
    ranked = sorted(range(len(dice)), key=lambda i: -float(dice[i].confidence))
    kept, out = ranked[:expected], ranked[expected:]
    if float(dice[kept[-1]].confidence) <= float(dice[out[0]].confidence):
        return []
    return sorted(out)


def _box_of(die: Any) -> list[int] | None:
    """A read die's box as the log keeps it: [x, y, w, h] in the photo's pixels."""
    box = getattr(die, "box", None)
    return None if box is None else [int(v) for v in box]


def photo_url(name: str | None) -> str | None:
    """The address the pages fetch a stored photo from (``web.pages.photo``)."""
    return None if not name else PHOTO_URL + name


__all__ = [
    "CameraUnavailable",
    "Pending",
    "Status",
    "Table",
    "TableBusy",
    "hints_available",
    "load_reader",
]
