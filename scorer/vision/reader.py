"""The dice reader: a photo of the tray in, every die's top face out.

Three small ONNX networks run by OpenCV's ``cv2.dnn`` (or by onnxruntime, where it is
installed and asked for: ``BACKENDS``): a
CenterNet-style finder marks die centres and sizes on a 320x320 copy of the frame, then
a face network names each die from a 48x48 crop cut from the full-resolution frame and
turned so the die's edges run upright,
with a half-turned and a wider crop voting when one look is not decisive, and a court
network tells a jack, queen or king from a closer 64x64 crop. A survey on a 160x160 copy
comes first, so that dice too big for the finder are read at a smaller scale.
``vision_models/*.md`` say how they were trained and what they reach.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from scorer.dice import BACKGROUND, CARDS, RANK_SCRIPTS, card_rank, class_face
from scorer.errors import ScorerError
from scorer.vision.crop import CROP_SPAN, FACE_INPUT, court_crop, face_crop, upright_looks
from scorer.vision.network import (
    OnnxRuntimeNet,
    board_blob,
    described,
    free_board_net,
    load_net,
    run_crops,
)
from scorer.vision.outline import ROUND, roundness
from scorer.vision.profile import DiceProfile, model_digest, sured
from scorer.vision.reading import (
    BACKENDS,
    DEFAULT_THRESHOLD,
    FACE_KINDS,
    GUESS_FLOOR,
    Die,
    Reading,
)
from scorer.vision.script import NETWORKS
from scorer.vision.sweep import MAP, Sweep, marks, swept

# Each constant's history (what was tried, on which sets) is in the model cards:
# vision_models/faces.md "The reader's constants", courts.md and finder.md.
FINDER_INPUT = 320
FINDER_STRIDE = 4
SIZE_UNIT = 16.0
#: the finder's peaks sit half a heatmap cell up-left of the centres (training rounded down)
PEAK_SHIFT = 0.5
COURTS = slice(8, 11)  # classes of the jack, queen and king
#: the poker dice's own face network, read in a game of cards where it is there
CARD_FACES = "faces-cards.onnx"
#: a second one, trained alike on twice the 3D renders: where it is there, a poker die's
#: faces are the two networks' mean, untaught and taught (vision_models/faces-cards.md)
CARD_FACES_TOO = "faces-cards-2.onnx"
#: a second finder, fine-tuned on 3D renders of many more bodies: where a game of pip dice
#: leaves a die unsure, it looks at the same board again for dice the first one missed
PIP_FINDER = "finder-pips.onnx"
#: one court look is enough above this; otherwise its three other quarter turns vote too
COURT_DECISIVE = 0.95
#: heat above which a spot is reported as a die even when its face cannot be read
SURE_DIE = 0.7
#: ... unless the face network is this sure it is not a die (a screw cap, a coin)
NOT_A_DIE = 0.9
#: weakest heat considered at all (the face network then decides "die or not")
WEAKEST = 0.2
#: one look is enough above this; otherwise the crop turned by TURNS x 90 degrees votes too
DECISIVE = 0.995
#: a half turn reads as well as three quarter turns, at a third of the extra crops
TURNS = (2,)
#: ... and a crop ZOOM_OUT x wider: the finder sizes a dark die by its print, too small
ZOOM_OUT = 1.3
#: ... and, for a poker die of a set no one taught, ZOOM_IN x narrower: on unseen makes
#: the finder also sizes poker dice too big (their print and a side face read as one)
ZOOM_IN = 0.8
MAX_DICE = 60
#: a faint spot this many times the sure dice's median side (with this many sure dice)
#: is looked at again at their size (``Reader._oversized``)
OVERSIZE = 1.6
OVERSIZE_PEERS = 3
#: two peaks closer than this x the larger side are one die (touching dice sit >= 1 side apart)
SAME_DIE = 0.5
#: a card print's parts may peak apart: a spot this close (x the larger side) reading the
#: same card face is the same die if FAINT, or if a crop spanning both reads it WHOLE
SAME_FACE = 0.8
FAINT = 0.4
WHOLE = 0.9
#: a marked tray fills the finder's board, up to this x the whole frame's scale
MAX_ZOOM = 4.0
#: the finder splits dice over BIG_DIE board px into pips: such photos are read at TARGET_DIE
BIG_DIE = 44.0
TARGET_DIE = 28.0
#: dice under SMALL_DIE board px get a closer look (``closer_look``), SMALL_MARGIN dice
#: around them, when that magnifies CLOSER x or more
SMALL_DIE = 16.0
SMALL_MARGIN = 2.0
CLOSER = 1.4
#: ... on a board up to this wide where small dice lie all over a big photo (the finder
#: is convolutional: a wider board is the same network over more of the frame)
WIDE_BOARD = 960
#: a board's sides are whole multiples of the finder's coarsest stride
BOARD_STEP = 32
#: a survey's spot counts this hot and read this surely (a huddle makes a warm, unsure spot)
SURVEY_HEAT = 0.5
SURVEY_SURE = 0.8
#: a huddle's dice: this share of the survey's spot's side, covering this much of it
HUDDLE = (0.3, 0.65)
HUDDLE_COVER = 0.4
#: a spot the set's own look marks (``Reader._own_look``) counts this hot: a faint spot,
#: dropped where the face network calls it no die
LOOK_HEAT = 0.5
#: ... and lies this share of a side from every die found (touching dice lie a side apart):
#: a mark nearer is that die's edge
LOOK_APART = 0.9
#: a throw read short of the dice it threw is looked at again on a board this wide (twice
#: the finder's: a die it missed at one scale it often finds at another), keeping the spots
#: of a side within SHORT_SIZES of the dice read (a speck or a pip is smaller)
SHORT_BOARD = 2 * FINDER_INPUT
SHORT_SIZES = (0.6, 1 / 0.6)
#: a taught set's dice (``DiceProfile.size``) may look this many times bigger in a photo
#: than taught (a camera nearer in some photos: webcam-white's survey finds dice 1.6-2.0x
#: its taught size on 9 test photos, and is right); a survey's bigger guess is a tray or a
#: felt taken for one die (8-19x on 19 tray-multicolor test photos at 3x wider)
TAUGHT_SPREAD = 3.0

Tray = tuple[int, int, int, int]


class ModelMissing(ScorerError):
    """The reader's ONNX files are not where it was told to look."""


class BadFrame(ScorerError):
    """Something that is not a picture was handed to the reader."""


def default_model_dir() -> Path:
    """``vision_models/`` beside the ``scorer`` package (installed as package data too)."""
    import vision_models

    return Path(vision_models.__file__).resolve().parent


@dataclass(frozen=True)
class _Spot:
    """A die as seen in one frame, with the full face probabilities (for voting)."""

    centre: tuple[float, float]
    side: float
    heat: float
    probs: np.ndarray  # 13 probabilities, last = not a die


@dataclass
class _Press:
    """What the frames of one press share: the dice lie still between them, so a look
    over the whole tray made on one frame holds for the others."""

    marks: np.ndarray | None = None  # the taught set's own look's marks (``_own_look``)
    twice: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None  # ``_look_twice``'s spots


class Reader:
    """Reads the top face of every die in a frame.

    >>> reader = Reader()                                     # doctest: +SKIP
    >>> reading = reader.read(cv2.imread("throw.jpg"))        # doctest: +SKIP
    >>> reading.values, reading.unsure                        # doctest: +SKIP
    ((4, 4, 2, 6, 1), ())
    """

    def __init__(
        self,
        model_dir: str | Path | None = None,
        threshold: float = DEFAULT_THRESHOLD,
        tray: Tray | None = None,
        backend: str = "cv2",
        profile: DiceProfile | None = None,
        ranks: str = "latin",
    ) -> None:
        folder = Path(model_dir) if model_dir is not None else default_model_dir()
        if backend not in BACKENDS:
            raise ScorerError(f"backend is one of {', '.join(BACKENDS)}, not {backend!r}")
        if ranks not in RANK_SCRIPTS:
            raise ScorerError(f"ranks are one of {', '.join(RANK_SCRIPTS)}, not {ranks!r}")
        self.model_dir = folder
        #: the taught dice of the set in play (``scorer.vision.profile``), or None
        self.profile = profile
        #: the letters the poker dice in play print (``scorer.dice.RANK_SCRIPTS``): a script
        #: whose own face networks lie in the folder (``scorer.vision.script.NETWORKS``) is
        #: read with them, and its courts are theirs to name (``_name_courts``)
        self.ranks = ranks
        nets = []
        for name in ("finder.onnx", "faces.onnx", "courts.onnx"):
            path = folder / name
            if not path.is_file():
                raise ModelMissing(f"no {name} in {folder}: run `make train` to build it")
            nets.append(load_net(path, backend))
        self._finder, self._faces, self._courts = nets
        #: whether a face network for poker dice alone was trained (``CARD_FACES``): a game
        #: that names its dice as cards reads them with it (``_card_faces``)
        self.has_card_faces = (folder / CARD_FACES).is_file()
        self.has_pip_finder = (folder / PIP_FINDER).is_file()
        #: the poker-dice face networks loaded so far, by file (``card_files``)
        self.card_nets: dict[str, cv2.dnn.Net | OnnxRuntimeNet] = {}
        # the survey's own copy of the finder, and one for closer looks on a board of the
        # photo's own shape (``WIDE_BOARD``): cv2.dnn re-plans a network whose input size
        # changes, which cost more than a copy's memory
        self._surveyor = free_board_net(folder / "finder.onnx", backend)
        self._wide = free_board_net(folder / "finder.onnx", backend)
        self.backend = backend
        if not 0.0 <= threshold <= 1.0:
            raise ScorerError(f"threshold must be within 0..1, not {threshold}")
        self.threshold = threshold
        if tray is not None and (len(tray) != 4 or tray[2] <= 0 or tray[3] <= 0):
            raise ScorerError(f"tray must be x, y, w, h with positive size, not {tray}")
        self.tray = tuple(int(v) for v in tray) if tray is not None else None

    @property
    def _card_faces(self) -> cv2.dnn.Net | OnnxRuntimeNet | None:
        """The poker dice's own face network for the letters in play, loaded when a
        poker-dice game or set first needs it: a table that plays only pip dice never
        holds it."""
        return self._card_net(self.card_files[0]) if self.has_card_faces else None

    @property
    def _card_faces_too(self) -> cv2.dnn.Net | OnnxRuntimeNet | None:
        """The second poker-dice face network, where the folder has one beside the first."""
        second = self.card_files[1]
        return self._card_net(second) if self.has_card_faces and second else None

    def _card_net(self, name: str) -> cv2.dnn.Net | OnnxRuntimeNet:
        if name not in self.card_nets:
            self.card_nets[name] = load_net(self.model_dir / name, self.backend)
        return self.card_nets[name]

    @property
    def card_files(self) -> tuple[str, str | None]:
        """The poker-dice face networks' files read now: those of the letters in play
        (``ranks``) where the folder holds both, else the Latin pair (the second None
        where there is none)."""
        return self._card_files_of(self.ranks)

    @functools.cache  # noqa: B019 (one reader a process; its folder never changes)
    def _card_files_of(self, ranks: str) -> tuple[str, str | None]:
        own = NETWORKS.get(ranks)
        if own is not None and all((self.model_dir / n).is_file() for n in own):
            return own
        return CARD_FACES, CARD_FACES_TOO if (self.model_dir / CARD_FACES_TOO).is_file() else None

    @property
    def own_script(self) -> bool:
        """Whether the poker dice in play print a script read by networks of its own."""
        return self.card_files[0] != CARD_FACES

    @functools.cached_property
    def _pip_finder(self) -> tuple[cv2.dnn.Net | OnnxRuntimeNet, cv2.dnn.Net | OnnxRuntimeNet]:
        """The pip finder for the 320-px board and for boards of a photo's own shape,
        loaded when a pip game first leaves a die unsure."""
        path = self.model_dir / PIP_FINDER
        return load_net(path, self.backend), free_board_net(path, self.backend)

    # ------------------------------------------------------------------ public

    def read(self, frame: np.ndarray, faces: str = "any", least: int = 0) -> Reading:
        """Every die in one frame (BGR, BGRA or grey), ordered left to right.

        ``faces`` is the kind of dice in play (``pips``, ``cards`` or ``any``): a game
        played with pip dice never gets a card face back, nor a poker-dice game pips.
        ``least`` is how many dice the game knows lie in the frame at least (the dice it
        threw; 0: unknown): a reading with fewer looks again for them (a pip game with its
        pip finder first, then any game twice as close).
        """
        allowed = face_mask(faces)
        start = time.perf_counter()
        spots = self._spots(frame, allowed, least)
        dice = self._told(tuple(_die(s, frame_shape(frame)) for s in spots))
        dice = without_round(as_bgr(frame), dice, least)
        ms = (time.perf_counter() - start) * 1000.0
        return Reading(_ordered(dice), ms, self.threshold)

    def read_votes(
        self, frames: Sequence[np.ndarray], faces: str = "any", least: int = 0
    ) -> Reading:
        """Several frames of one throw: dice seen in most frames, faces voted on.

        A die seen in only some frames gets a confidence scaled by how often it was
        seen, so a flickering detection comes out unsure rather than silently kept.
        """
        if not frames:
            raise BadFrame("read_votes needs at least one frame")
        allowed = face_mask(faces)
        start = time.perf_counter()
        press = _Press()  # the looks over the whole tray made once a press
        seen = [self._spots(f, allowed, least, press) for f in frames]
        clusters: list[list[_Spot]] = []
        for spots in seen:
            for spot in spots:
                home = _nearest(clusters, spot)
                if home is None:
                    clusters.append([spot])
                else:
                    home.append(spot)
        shape = frame_shape(frames[0])
        dice = []
        for cluster in clusters:
            if 2 * len(cluster) < len(frames):
                continue
            probs = np.sum([s.probs for s in cluster], axis=0) / len(frames)
            centre = tuple(np.mean([s.centre for s in cluster], axis=0))
            side = float(np.median([s.side for s in cluster]))
            heat = float(np.max([s.heat for s in cluster]))
            dice.append(_die(_Spot(centre, side, heat, probs), shape))
        told = without_round(as_bgr(frames[0]), self._told(tuple(dice)), least)
        ms = (time.perf_counter() - start) * 1000.0
        return Reading(_ordered(told), ms, self.threshold)

    def _told(self, dice: tuple[Die, ...]) -> tuple[Die, ...]:
        """The dice as sure as the taught set has found its readings to be
        (``DiceProfile.temperature``): the same faces, less sure where its trials read
        sure dice wrong. Untaught, as read."""
        t = getattr(self.profile, "temperature", 1.0)
        if t == 1.0:
            return dice
        return tuple(replace(d, confidence=float(sured(d.confidence, t))) for d in dice)

    # ------------------------------------------------------------------ steps

    def sweep(self, frame: np.ndarray, side: float, kind: str | None = None) -> Sweep:
        """What the face network of ``kind``'s dice sees at every window of the tray (the
        marked one, else the frame), scaled so that dice of ``side`` frame pixels fill its
        crop as the reader cuts them: what a set's own look is fitted on and marks dice in
        (``scorer.vision.sweep``). Nothing where the network's file has no ``map``."""
        image = as_bgr(frame)
        net = self._sweeper(kind or "")
        if net is None or not side > 0:
            return Sweep.nothing()
        area = self._area(*image.shape[1::-1])
        return swept(net, image, area, FACE_INPUT / (CROP_SPAN * side))

    def _sweeper(self, kind: str) -> cv2.dnn.Net | OnnxRuntimeNet | None:
        cards = kind == "card" and self.has_card_faces
        return self._sweeper_of(self.card_files[0] if cards else "faces.onnx")

    @functools.cache  # noqa: B019 (one reader a process; its networks never change)
    def _sweeper_of(self, name: str) -> cv2.dnn.Net | OnnxRuntimeNet | None:
        net = free_board_net(self.model_dir / name, self.backend)
        names = (
            net.outputs if isinstance(net, OnnxRuntimeNet) else net.getUnconnectedOutLayersNames()
        )
        return net if MAP in names else None

    def _area(self, width: int, height: int) -> tuple[int, int, int, int]:
        """The part of a frame the dice lie in: the marked tray, else all of it."""
        if self.tray is None:
            return (0, 0, width, height)
        x, y, w, h = self.tray
        area = (max(0, x), max(0, y), min(width, x + w), min(height, y + h))
        if area[2] - area[0] < 8 or area[3] - area[1] < 8:
            raise ScorerError(f"tray {self.tray} lies outside the {width}x{height} frame")
        return area

    def _spots(
        self,
        frame: np.ndarray,
        allowed: np.ndarray,
        least: int = 0,
        press: _Press | None = None,
    ) -> list[_Spot]:
        image = as_bgr(frame)
        H, W = image.shape[:2]
        area = self._area(W, H)
        max_scale = MAX_ZOOM * FINDER_INPUT / max(H, W)
        side = self._taught_side(W, H)
        spots: list[_Spot] = []
        if side:
            spots, scale, side, seen = self._look(image, area, max_scale, allowed, side)
        if not spots:
            spots, scale, side, seen = self._look(image, area, max_scale, allowed)
        closer = closer_look(spots, scale, area, side)
        if closer is not None:
            nearer, nearer_scale, _, nearer_seen = self._look(
                image, *closer, allowed, side, board=WIDE_BOARD
            )
            if nearer:
                spots, area, scale, seen = nearer, closer[0], nearer_scale, nearer_seen
        # the sweep costs a few finder passes: at a table that knows how many dice were
        # thrown, only a throw read short pays for it
        looks = not least or _dice_in(spots) < least
        own = self._own_look(image, allowed, spots, press) if looks else []
        if own:
            spots = spots + own
            seen = np.concatenate([seen, [(*s.centre, s.side) for s in own]]).astype(np.float32)
        pips_only = not allowed[CARDS:BACKGROUND].any()  # a game of pip dice
        if self.has_pip_finder and pips_only:
            unsure = any(s.probs[:BACKGROUND].max() < self.threshold for s in spots)
            short = _dice_in(spots) < least
            if short:
                # a die is missing for sure: the pip finder's spots near spots the first
                # finder marked but the face network judged no die are named again too (a
                # better size or centre can make a die of one)
                seen = np.array([(*s.centre, s.side) for s in spots], np.float32).reshape(-1, 3)
            if unsure or short:
                spots = spots + self._look_again(image, area, scale, seen, allowed)
        found = _dice_in(spots)
        if found < least:
            more = self._look_twice(image, area, max_scale, scale, spots, allowed, press)
            # the likeliest dice first, as many as are missing (held dice may lie there too)
            more.sort(key=lambda s: (s.probs[BACKGROUND], -s.heat))
            spots = spots + more[: least - found]
        return spots

    def _look_again(
        self,
        image: np.ndarray,
        area: tuple[int, int, int, int],
        scale: float,
        seen: np.ndarray,
        allowed: np.ndarray,
    ) -> list[_Spot]:
        """Dice the pip finder marks on the board just read (``area`` at ``scale``) away
        from every spot in ``seen`` (n x 3, centre and side in frame px: those the first
        finder marked there, a die or judged none; where a die is missing for sure, those
        read as dice), named as the first finder's are.

        The general finder misses dice of bodies it never saw (marbled, swirled,
        translucent; vision_models/finder-pips.md); the pip finder, trained on renders of
        such dice too, reads the real photos' strange light less well, so it only adds,
        and only where the reading is already in doubt."""
        x0, y0, x1, y1 = area
        small = shrink(image[y0:y1, x0:x1], scale)
        board, wide = self._pip_finder
        if max(small.shape[:2]) > FINDER_INPUT:
            centres, sides, heats = find_on_board(wide, small, scale, board_shape(small.shape[:2]))
        else:
            centres, sides, heats = find_on_board(board, small, scale, FINDER_INPUT)
        new = apart(centres, sides, seen[:, :2] - (x0, y0), seen[:, 2])
        if not new.any():
            return []
        return self._named(image, area, centres[new], sides[new], heats[new], allowed)

    def _look_twice(
        self,
        image: np.ndarray,
        area: tuple[int, int, int, int],
        max_scale: float,
        scale: float,
        spots: list[_Spot],
        allowed: np.ndarray,
        press: _Press | None = None,
    ) -> list[_Spot]:
        """Dice of a throw read short (fewer than the table knows it threw) that the finder
        marks over the whole ``area`` on a board SHORT_BOARD wide, twice its own: spots
        LOOK_APART of a side or more from every spot in ``spots`` (read at ``scale``; a
        better-centred spot nearer is a second spot on a die read) and of a side within
        SHORT_SIZES of the dice read there, named as the finder's are.

        The finder misses some dice of makes and floors it never saw at one scale and
        marks them at another (wooden dice on a chequered cloth; dice 10-16 board px);
        on every frame a pass over four times the board would more than double the
        reading's time, so only a throw known short pays for it, and a press's frames
        (the dice lie still between them) share one pass (``press``)."""
        x0, y0, x1, y1 = area
        part = image[y0:y1, x0:x1]
        twice = min(SHORT_BOARD / max(part.shape[:2]), max_scale)
        if twice < CLOSER * scale:
            return []
        if press is not None and press.twice is not None:
            centres, sides, heats = press.twice
        else:
            small = shrink(part, twice)
            centres, sides, heats = find_on_board(
                self._wide, small, twice, board_shape(small.shape[:2])
            )
            if press is not None:
                press.twice = (centres, sides, heats)
        known = np.array([(*s.centre, s.side) for s in spots], np.float32).reshape(-1, 3)
        new = apart(centres, sides, known[:, :2] - (x0, y0), known[:, 2], LOOK_APART)
        dice = [s.side for s in spots if s.probs[BACKGROUND] < 0.5]
        if dice:
            side = float(np.median(dice))
            new &= (sides >= SHORT_SIZES[0] * side) & (sides <= SHORT_SIZES[1] * side)
        if not new.any():
            return []
        named = self._named(image, area, centres[new], sides[new], heats[new], allowed)
        return [s for s in named if s.probs[BACKGROUND] < 0.5]

    def _own_look(
        self,
        image: np.ndarray,
        allowed: np.ndarray,
        spots: list[_Spot],
        press: _Press | None = None,
    ) -> list[_Spot]:
        """Dice that a taught set's own look (``DiceProfile.look``) marks on the tray
        (``sweep``) away from every spot already named, named as the finder's faint spots
        are: where the finder never saw the set's bodies, it leaves some unmarked throw
        after throw. A ``press`` keeps the marks of the first of its frames swept (the
        dice lie still between its frames: one sweep a press)."""
        look = getattr(self.profile, "look", None)
        size = getattr(self.profile, "size", None)
        height, width = image.shape[:2]
        if look is None or size is None or size.frame != (width, height):
            return []
        if press is not None and press.marks is not None:
            centres = press.marks
        else:
            centres = marks(look, self.sweep(image, size.side, self.profile.kind), size.side)
            if press is not None:
                press.marks = centres
        sides = np.full(len(centres), size.side, np.float32)
        known = np.array([(*s.centre, s.side) for s in spots], np.float32).reshape(-1, 3)
        new = apart(centres, sides, known[:, :2], known[:, 2], LOOK_APART)
        if not new.any():
            return []
        heats = np.full(int(new.sum()), LOOK_HEAT)
        return self._named(image, (0, 0, width, height), centres[new], sides[new], heats, allowed)

    def _taught_side(self, width: int, height: int) -> float:
        """The side (frame px) of the taught set's dice in a frame this size, or 0 where
        the profile does not know it (untaught, taught before sizes were kept, or taught
        in frames of another size: the camera changed) or does not use it (its taught
        photos read better without it: ``DiceProfile.uses_size``)."""
        size = getattr(self.profile, "reading_size", None)
        if size is None or size.frame != (width, height):
            return 0.0
        return float(size.side)

    def _look(
        self,
        image: np.ndarray,
        area: tuple[int, int, int, int],
        max_scale: float,
        allowed: np.ndarray,
        side: float = 0.0,
        board: int = FINDER_INPUT,
    ) -> tuple[list[_Spot], float, float, np.ndarray]:
        """Dice in ``area`` (x0, y0, x1, y1) of the frame, at the scale that fills the
        finder's board (at most ``max_scale``) or less where a survey finds big dice.
        Given the dice's ``side`` (a taught set's), the survey is believed only within
        TAUGHT_SPREAD of it; else the dice are looked at at the scale that makes them
        TARGET_DIE px (within the same bounds). Returns the spots, the scale, the
        side looked for (0 where the survey or the board set the scale) and every spot the
        finder marked, named a die or not (n x 3: centre and side in frame px). A ``board``
        wider than the finder's own is for a closer look at dice already known small:
        the board is then cut to the part's shape and no survey is made.

        The survey judges sizes with the face network's plain outputs; the faces named
        (and "not a die") are those ``allowed`` leaves (``face_mask``)."""
        x0, y0, x1, y1 = area
        part = image[y0:y1, x0:x1]
        scale = min(board / max(part.shape[:2]), max_scale)
        small = shrink(part, scale)
        if max(small.shape[:2]) > FINDER_INPUT:
            centres, sides, heats = find_on_board(
                self._wide, small, scale, board_shape(small.shape[:2])
            )
            named = self._named(image, area, centres, sides, heats, allowed)
            return named, scale, side, _seen(area, centres, sides)
        big = self._big_dice(part, small, scale, allowed)
        if side and not (big and big <= TAUGHT_SPREAD * side):
            scale = min(scale, TARGET_DIE / side)
            small = shrink(part, scale)
        else:
            side = 0.0
            if big:
                scale = TARGET_DIE / big
                small = shrink(part, scale)
        centres, sides, heats = find_on_board(self._finder, small, scale, FINDER_INPUT)
        named = self._named(image, area, centres, sides, heats, allowed)
        return named, scale, side, _seen(area, centres, sides)

    def _named(
        self,
        image: np.ndarray,
        area: tuple[int, int, int, int],
        centres: np.ndarray,
        sides: np.ndarray,
        heats: np.ndarray,
        allowed: np.ndarray,
    ) -> list[_Spot]:
        """The finder's spots in ``area`` named, without those that are no die."""
        if not len(centres):
            return []
        centres = centres + np.array(area[:2], np.float32)
        probs = self._name_faces(image, centres, sides, heats, allowed)
        probs = self._oversized(image, centres, sides, heats, probs, allowed)
        dropped = (probs[:, BACKGROUND] >= NOT_A_DIE) | (
            (heats < SURE_DIE) & (probs[:, BACKGROUND] >= 0.5)
        )
        spots = [
            _Spot((c[0], c[1]), s, h, p)
            for c, s, h, p, out in zip(
                centres.tolist(),
                sides.tolist(),
                heats.tolist(),
                probs,
                dropped.tolist(),
                strict=True,
            )
            if not out
        ]
        return self._one_per_die(image, spots, allowed)

    def _oversized(
        self,
        image: np.ndarray,
        centres: np.ndarray,
        sides: np.ndarray,
        heats: np.ndarray,
        probs: np.ndarray,
        allowed: np.ndarray,
    ) -> np.ndarray:
        """``probs`` with faint spots far bigger than the sure dice looked at again at
        the dice's size: "not a die" there is believed.

        The finder sizes a faint spot badly (a tray's screw cap as twice a die), and in a
        crop that wide a small round thing looks like the one pip of a one."""
        sure = heats >= SURE_DIE
        if sure.sum() < OVERSIZE_PEERS:
            return probs
        typical = float(np.median(sides[sure]))
        odd = np.nonzero(~sure & (sides > OVERSIZE * typical))[0]
        if not len(odd):
            return probs
        crops, _ = upright_looks(image, centres[odd], np.full(len(odd), typical, np.float32))
        again = restricted(self._run_faces(crops, allowed), allowed)
        probs = probs.copy()
        for i, p in zip(odd, again, strict=True):
            if p[BACKGROUND] >= 0.5:
                probs[i] = p
        return probs

    def _one_per_die(
        self, image: np.ndarray, spots: list[_Spot], allowed: np.ndarray
    ) -> list[_Spot]:
        """The spots (strongest first) without second peaks on a card die already found."""
        if not spots:
            return []
        kept: list[_Spot] = []
        kept_faces: list[int] = []
        faces = np.argmax(np.array([s.probs[:BACKGROUND] for s in spots]), 1).tolist()
        for spot, face in zip(spots, faces, strict=True):
            twin = None
            if face >= CARDS:
                twin = next(
                    (
                        k
                        for k, f in zip(kept, kept_faces, strict=True)
                        if f == face
                        and math.dist(k.centre, spot.centre) < SAME_FACE * max(k.side, spot.side)
                    ),
                    None,
                )
            if twin is None or not self._one_die(image, twin, spot, face, allowed):
                kept.append(spot)
                kept_faces.append(face)
        return kept

    def _one_die(
        self, image: np.ndarray, stronger: _Spot, weaker: _Spot, face: int, allowed: np.ndarray
    ) -> bool:
        """Whether two close spots reading ``face`` are one die (``SAME_FACE``)."""
        if weaker.heat < FAINT:
            return True
        (x0, y0), (x1, y1) = stronger.centre, weaker.centre
        side = max(stronger.side, weaker.side) + math.dist(stronger.centre, weaker.centre)
        crop = face_crop(image, ((x0 + x1) / 2, (y0 + y1) / 2), side)
        return bool(restricted(self._run_faces([crop], allowed), allowed)[0, face] >= WHOLE)

    def _big_dice(
        self, image: np.ndarray, small: np.ndarray, scale: float, allowed: np.ndarray
    ) -> float:
        """The side (image px) of dice too big for the finder at ``scale``, or 0.

        A survey at half that scale sees them whole. Its strong spots must be big in the
        median, and those the face network reads surely as a face the game's dice show
        set the size, so that neither a felt's pattern, a playing card nor a huddle of
        small dice (one warm spot, mostly read unsure) sends the photo to a smaller scale;
        nor do big spots the finder at full scale sees as smaller dice (``_huddle``).
        """
        survey = shrink(small, 0.5)
        level = scale * survey.shape[1] / small.shape[1]
        centres, sides, _ = find_on_board(
            self._surveyor, survey, level, FINDER_INPUT // 2, SURVEY_HEAT
        )
        if not len(sides) or np.median(sides) * scale <= BIG_DIE:
            return 0.0
        probs = self._run_faces(upright_looks(image, centres, sides)[0], allowed, taught=False)
        read = sure_dice(probs, allowed)
        if not read.any():
            return 0.0
        side = float(np.median(sides[read]))
        if side * scale <= BIG_DIE or self._huddle(
            image, small, scale, centres[read], sides[read], allowed
        ):
            return 0.0
        return side

    def _huddle(
        self,
        image: np.ndarray,
        small: np.ndarray,
        scale: float,
        centres: np.ndarray,
        sides: np.ndarray,
        allowed: np.ndarray,
    ) -> bool:
        """Whether the survey's big spots are smaller dice, as the finder sees them at
        full scale: most spots huddles of them, or outnumbered by them (``_smaller``).

        Touching dice a third to two thirds of the spot (``huddled``), or dice of a camera
        far from the table, which the survey sees as one: the finder splits a big die into
        its pips, which the face network reads as ones, so two things inside read surely
        as any other face are dice.
        """
        found, found_sides, _ = find_on_board(self._finder, small, scale, FINDER_INPUT, SURVEY_HEAT)
        if self._smaller(image, found, found_sides, centres, sides, allowed):
            return True
        # dice a few board px wide, as a far camera leaves them, are found on a wider board
        wide = min(scale * WIDE_BOARD / FINDER_INPUT, 1.0)
        if wide < CLOSER * scale:
            return False
        nearer = shrink(image, wide)
        found, found_sides, _ = find_on_board(
            self._wide, nearer, wide, board_shape(nearer.shape[:2]), SURVEY_HEAT
        )
        return self._smaller(image, found, found_sides, centres, sides, allowed)

    def _smaller(
        self,
        image: np.ndarray,
        found: np.ndarray,
        found_sides: np.ndarray,
        centres: np.ndarray,
        sides: np.ndarray,
        allowed: np.ndarray,
    ) -> bool:
        """Whether most big spots (``centres``, ``sides``) hold the ``found`` dice of a
        huddle, or more ``found`` dice lie beside the big spots than there are of them.

        A playing card, or a huddle read as one face, makes a big spot read surely; read
        at its size, the dice beside it shrink to a third of TARGET_DIE and are missed
        (a rendered table's marbled dice, docs/teaching.md). A big die's pips lie inside
        its spot and read as ones, so they outnumber nothing.
        """
        if not len(found):
            return False
        huddles = 0
        outside = np.ones(len(found), bool)
        for (x, y), side in zip(centres, sides, strict=True):
            inside = (np.abs(found[:, 0] - x) < side / 2) & (np.abs(found[:, 1] - y) < side / 2)
            outside &= ~inside
            if huddled(found_sides[inside] / side):
                huddles += 1
            elif inside.sum() >= 2:
                crops, _ = upright_looks(image, found[inside], found_sides[inside])
                probs = self._run_faces(crops, allowed, taught=False)
                huddles += int(sure_dice(probs, allowed, ones=False).sum()) >= 2
        if 2 * huddles > len(sides):
            return True
        if outside.sum() <= len(sides):
            return False
        crops, _ = upright_looks(image, found[outside], found_sides[outside])
        probs = self._run_faces(crops, allowed, taught=False)
        return int(sure_dice(probs, allowed, ones=False).sum()) > len(sides)

    def _name_faces(
        self,
        image: np.ndarray,
        centres: np.ndarray,
        sides: np.ndarray,
        heats: np.ndarray,
        allowed: np.ndarray,
    ) -> np.ndarray:
        """Face probabilities (n, 13), averaged with a turned and a wider crop where one
        look is unsure (but not for faint spots already judged not to be dice); an
        untaught poker die's also with a narrower one."""
        crops, turns = upright_looks(image, centres, sides)
        probs = restricted(self._run_faces(crops, allowed, sides=sides), allowed)
        unsure = np.nonzero(
            (probs.max(1) < DECISIVE) & ((heats >= SURE_DIE) | (probs[:, BACKGROUND] < 0.5))
        )[0].tolist()
        if unsure:
            unseen = dice_kind(allowed) == "card" and not self.profile
            zooms = (ZOOM_OUT, ZOOM_IN) if unseen else (ZOOM_OUT,)
            # each side scaled as a scalar, as before: numpy 1 (the Pi's) widens a float32
            # scalar times a Python float to float64, but not a float32 array
            zoomed = [
                upright_looks(image, centres[unsure], np.array([z * sides[i] for i in unsure]))[0]
                for z in zooms
            ]
            looks, looked = [], []
            for k, i in enumerate(unsure):
                looks += [np.ascontiguousarray(np.rot90(crops[i], r)) for r in TURNS]
                looks += [wide[k] for wide in zoomed]
                looked += [sides[i]] * len(TURNS) + [z * sides[i] for z in zooms]
            more = restricted(self._run_faces(looks, allowed, sides=np.array(looked)), allowed)
            more = more.reshape(len(unsure), len(TURNS) + len(zooms), -1)
            for j, i in enumerate(unsure):
                probs[i] = (probs[i] + more[j].sum(0)) / (1 + len(TURNS) + len(zooms))
        return self._name_courts(image, centres, sides, probs, turns, allowed)

    def _name_courts(
        self,
        image: np.ndarray,
        centres: np.ndarray,
        sides: np.ndarray,
        probs: np.ndarray,
        turns: Sequence[float],
        allowed: np.ndarray,
    ) -> np.ndarray:
        """Dice read as a jack, queen or king: the court network shares out the three's
        probability between them from its closer crop (and its three other quarter turns,
        averaged, where one look is not decisive). Where a taught set's vote has a say
        (its gate open), the court network's share is one more say, multiplied with the
        set's reading, not the last word: it never saw the set's courts, the set did.
        Dice read by networks of their script's own (``own_script``) keep their reading:
        the court network learnt Latin courts alone, never a В, Д or К."""
        first = probs[:, :BACKGROUND].argmax(1)
        courts = np.nonzero((first >= COURTS.start) & (first < COURTS.stop))[0]
        if not len(courts) or (dice_kind(allowed) == "card" and self.own_script):
            return probs
        crops = [court_crop(image, centres[i], sides[i], turns[i]) for i in courts]
        shares = self._run_courts(crops)
        unsure = np.nonzero(shares.max(1) < COURT_DECISIVE)[0]
        if len(unsure):
            turns = [np.ascontiguousarray(np.rot90(crops[j], r)) for j in unsure for r in (1, 2, 3)]
            more = self._run_courts(turns).reshape(len(unsure), 3, -1)
            shares[unsure] = (shares[unsure] + more.sum(1)) / 4
        if self.profile is not None and self.profile.votes:
            shares = shares * probs[courts, COURTS]
            shares /= np.maximum(shares.sum(1, keepdims=True), 1e-12)
        for i, share in zip(courts, shares, strict=True):
            probs[i, COURTS] = probs[i, COURTS].sum() * share
        return probs

    def _run_courts(self, crops: list[np.ndarray]) -> np.ndarray:
        return run_crops(self._courts, crops)

    def _run_faces(
        self,
        crops: list[np.ndarray],
        allowed: np.ndarray,
        taught: bool = True,
        sides: np.ndarray | None = None,
    ) -> np.ndarray:
        """Face probabilities (n, 13) of crops; ``taught``: with the set's profile voting
        (and, given each crop's die ``sides`` in frame px, saying which spots are no die).
        The scale a photo is read at is chosen untaught (``_big_dice``, ``_smaller``): a
        vote names a set's faces, it does not know how big a spot of two dice is."""
        if self.profile and taught:
            # a set's profile holds the features of its own kind's network
            features, probs = self.embed(crops, self.profile.kind or dice_kind(allowed))
            return self.profile.rescore(features, probs, sides)
        probs = run_crops(self._faces, crops)
        if not self.has_card_faces or dice_kind(allowed) != "card":
            return probs
        cards = self._with_second(crops, run_crops(self._card_faces, crops))
        # a taught set's own crops were named as it keeps them (``embed``)
        return card_faces_named(probs, cards, untaught=not self.profile)

    def _with_second(self, crops: Sequence[np.ndarray], cards: np.ndarray) -> np.ndarray:
        """The card network's reading of ``crops`` (n, 13), averaged with the second card
        network's where there is one: two networks trained on different renders read an
        art neither saw better together than either alone."""
        if self._card_faces_too is None:
            return cards
        return (cards + run_crops(self._card_faces_too, list(crops))) / 2

    def embed(
        self, crops: Sequence[np.ndarray], kind: str | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """The face network's features (n, k: ``feature_layer``) and face probabilities
        (n, 13) of face crops, untaught: what a dice profile keeps of a taught die
        (``kind`` "card": the poker dice's own network, where there is one). Always
        cv2.dnn, which also returns the inner layer of a file without a ``features``
        output on its classic engine."""
        cards = kind == "card" and self.has_card_faces
        blob = cv2.dnn.blobFromImages(list(crops), 1.0 / 255.0)
        probs, features = described(self._embedder(""), blob)
        n = len(crops)
        probs = np.array(probs).reshape(n, -1)
        if cards:
            named, features = described(self._embedder("card"), blob)
            probs = card_faces_named(
                probs, self._with_second(crops, np.array(named).reshape(n, -1))
            )
        return np.array(features, np.float32).reshape(n, -1), probs

    def faces_digest(self, kind: str | None = None) -> str:
        """A fingerprint of the face networks a profile of ``kind`` takes its features
        from (a set of poker dice: the general and the card networks of the letters in
        play, and the second card network where there is one; else the general one alone,
        so retraining a card network leaves pip sets as they are, and a set whose letters
        change is described again)."""
        cards = kind == "card" and self.has_card_faces
        first, second = self.card_files
        names = ("faces.onnx", first) if cards else ("faces.onnx",)
        if cards and second:
            names = (*names, second)
        return self._digest(names)

    @functools.cache  # noqa: B019 (one reader a process; its networks never change)
    def _digest(self, names: tuple[str, ...]) -> str:
        # hashed once: every profile a table loads or creates asks for it
        return model_digest(*(self.model_dir / n for n in names))

    def _embedder(self, kind: str) -> cv2.dnn.Net:
        if kind != "card":
            return self._embedder_of("faces.onnx")
        return self._card_faces if self.backend == "cv2" else self._embedder_of(self.card_files[0])

    @functools.cache  # noqa: B019 (one reader a process; the net lives as long as it)
    def _embedder_of(self, name: str) -> cv2.dnn.Net:
        if self.backend == "cv2" and name == "faces.onnx":
            return self._faces
        return load_net(self.model_dir / name)


# ---------------------------------------------------------------------- pieces


def face_mask(faces: str) -> np.ndarray:
    """Which of the face network's 13 classes a game's dice can show ("not a die" always)."""
    if faces not in FACE_KINDS:
        raise ScorerError(f"faces is one of {', '.join(FACE_KINDS)}, not {faces!r}")
    allowed = np.ones(BACKGROUND + 1, bool)
    if faces == "pips":
        allowed[CARDS:BACKGROUND] = False
    elif faces == "cards":
        allowed[:CARDS] = False
    return allowed


def sure_dice(probs: np.ndarray, allowed: np.ndarray, ones: bool = True) -> np.ndarray:
    """Which crops (their plain face probabilities, n x 13) the survey takes for dice: a
    face the game's dice show read at SURVEY_SURE or more, and not "not a die"; without
    ``ones``, a one does not count (a big die's pips each read as a one)."""
    faces = probs[:, :BACKGROUND] * allowed[:BACKGROUND]
    sure = (faces.max(1) >= SURVEY_SURE) & (probs[:, BACKGROUND] < 0.5)
    if not ones:
        sure &= faces.argmax(1) != 0
    return sure


def card_faces_named(general: np.ndarray, cards: np.ndarray, untaught: bool = False) -> np.ndarray:
    """Probabilities (n, 13) of poker dice: which face, from the card network (``cards``),
    whether a die at all, from the general one (which has seen every real table's bits
    of tray; the card network alone took 2 more of them for dice on the 2D held-out art,
    ``vision_models/faces-cards.md``): what a taught set keeps of its poker dice. For dice
    no one taught (``untaught``), "not a die" is the mean of the general network's and the
    card network's own among the card faces: the card network has seen the 3D renders'
    poker dice, which the general one drops as no die (session 26)."""
    none = general[:, BACKGROUND:]
    if untaught:
        own = cards[:, BACKGROUND:] / np.maximum(cards[:, CARDS:].sum(1, keepdims=True), 1e-12)
        none = (none + own) / 2
    faces = cards[:, :BACKGROUND] / np.maximum(cards[:, :BACKGROUND].sum(1, keepdims=True), 1e-12)
    return np.concatenate([faces * (1.0 - none), none], 1)


def dice_kind(allowed: np.ndarray) -> str | None:
    """ "card" where a game's ``face_mask`` leaves only card faces, else None."""
    return None if allowed[:CARDS].any() else "card"


def restricted(probs: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    """Face probabilities (n, 13) given that only the ``allowed`` classes can be true.

    The other kind's share is dropped and the rest renormalised, "not a die" included:
    a round token the network calls a card face is, in a pip game, mostly not a die.
    """
    if allowed.all():
        return probs
    kept = probs * allowed
    return kept / np.maximum(kept.sum(1, keepdims=True), 1e-12)


def frame_shape(frame: np.ndarray) -> tuple[int, int]:
    """(height, width) of a frame, after checking it is a picture."""
    if not isinstance(frame, np.ndarray) or frame.ndim not in (2, 3) or frame.size == 0:
        raise BadFrame("a frame is a non-empty 2-D (grey) or 3-D (colour) numpy array")
    return int(frame.shape[0]), int(frame.shape[1])


def as_bgr(frame: np.ndarray) -> np.ndarray:
    """Any picture as 8-bit BGR: grey and BGRA are converted, 16-bit and float rescaled."""
    frame_shape(frame)
    image = frame
    if image.dtype != np.uint8:
        if image.dtype == np.uint16:
            image = (image >> 8).astype(np.uint8)
        elif np.issubdtype(image.dtype, np.floating):
            top = 1.0 if float(np.nanmax(image)) <= 1.0 else 255.0
            image = np.clip(np.nan_to_num(image) * (255.0 / top), 0, 255).astype(np.uint8)
        else:
            image = np.clip(image, 0, 255).astype(np.uint8)
    if image.ndim == 2 or image.shape[2] == 1:
        return cv2.cvtColor(image.reshape(image.shape[:2]), cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.shape[2] != 3:
        raise BadFrame(f"a colour frame has 1, 3 or 4 channels, not {image.shape[2]}")
    return image


def shrink(image: np.ndarray, scale: float) -> np.ndarray:
    """``image`` resized by ``scale`` (area-averaged when shrinking), at least 1x1."""
    h, w = image.shape[:2]
    return cv2.resize(
        image,
        (max(1, round(w * scale)), max(1, round(h * scale))),
        interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
    )


def find_dice(
    finder: cv2.dnn.Net, image: np.ndarray, max_scale: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Die centres (image px), sides (image px) and heat, strongest first.

    A function of its own so training cuts face crops where the reader will cut them.
    """
    h, w = image.shape[:2]
    scale = min(FINDER_INPUT / max(h, w), max_scale)
    return find_on_board(finder, shrink(image, scale), scale, FINDER_INPUT)


#: the log-side clamp in the finder's own float32, and a peak's 3x3 cells about it
LOG_SIDE = (np.float32(-3.0), np.float32(3.0))
NEIGHBOURS = np.arange(-1, 2)


def find_on_board(
    finder: cv2.dnn.Net,
    small: np.ndarray,
    scale: float,
    board_side: int | tuple[int, int],
    weakest: float = WEAKEST,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``find_dice`` on the frame already shrunk by ``scale`` to ``small`` (within the
    board: ``board_side`` square, or its height and width)."""
    rows, columns = board_side if isinstance(board_side, tuple) else (board_side, board_side)
    finder.setInput(board_blob(small, rows, columns))
    maps = finder.forward()[0]
    return peaks_found(maps[0], maps[1], scale, weakest)


def peaks_found(
    heat: np.ndarray, log_side: np.ndarray, scale: float, weakest: float = WEAKEST
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Die centres, sides (frame px) and heat from the finder's maps, strongest first:
    each peak's centre is the heat-weighted mean of its 3x3 cells, and a peak closer to a
    stronger one than SAME_DIE x the larger side is a second peak on the same die.

    All peaks at once, the sums added in the order numpy adds a 3x3 patch's (so every
    centre is the one-peak-at-a-time loop's to the bit, tests/test_vision_reader.py): a
    photo's peaks cost a few array operations, not a dozen each (issue 23)."""
    peaks = (heat >= weakest) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
    ys, xs = np.nonzero(peaks)
    order = np.argsort(-heat[ys, xs])[:MAX_DICE]
    ys, xs = ys[order], xs[order]
    if not len(ys):
        return np.array([], np.float32), np.array([], np.float32), np.array([])
    # each peak's 3x3 patch, zero off the map (an added zero changes no sum)
    py, px = ys[:, None] + NEIGHBOURS, xs[:, None] + NEIGHBOURS  # (n, 3) int64
    h, w = heat.shape
    patch = heat[np.clip(py, 0, h - 1)[:, :, None], np.clip(px, 0, w - 1)[:, None, :]]
    whole = (ys > 0) & (ys < h - 1) & (xs > 0) & (xs < w - 1)
    if not whole.all():
        patch = patch * ((py >= 0) & (py < h))[:, :, None] * ((px >= 0) & (px < w))[:, None, :]
    # the heat (float32) and its moments (float64: int64 indices times float32 heat)
    total = _patch_sums(patch.reshape(-1, 9), whole)
    moments = np.concatenate([patch * py[:, :, None], patch * px[:, None, :]]).reshape(-1, 9)
    moments = _patch_sums(moments, np.concatenate([whole, whole]))
    cy, cx = moments[: len(ys)] / total, moments[len(ys) :] / total
    ls = log_side[ys, xs]
    sides = np.exp(np.minimum(np.maximum(ls, LOG_SIDE[0]), LOG_SIDE[1])).astype(np.float64)
    sides = sides * SIZE_UNIT / scale
    centres = np.stack(
        [(cx + PEAK_SHIFT) * FINDER_STRIDE / scale, (cy + PEAK_SHIFT) * FINDER_STRIDE / scale], 1
    )
    apart = np.hypot(
        centres[:, None, 0] - centres[None, :, 0], centres[:, None, 1] - centres[None, :, 1]
    )
    near = (apart < SAME_DIE * np.maximum(sides[:, None], sides[None, :])).tolist()
    kept: list[int] = []
    for i, row in enumerate(near):
        if not any(row[k] for k in kept):
            kept.append(i)
    return (
        centres[kept].astype(np.float32),
        sides[kept].astype(np.float32),
        heat[ys[kept], xs[kept]].astype(np.float64),
    )


def _seen(area: tuple[int, int, int, int], centres: np.ndarray, sides: np.ndarray) -> np.ndarray:
    """A look's spots as (n, 3): centre in frame px (``centres`` are the area's) and side."""
    if not len(centres):
        return np.zeros((0, 3), np.float32)
    return np.column_stack([centres + np.array(area[:2], np.float32), sides]).astype(np.float32)


def apart(
    centres: np.ndarray,
    sides: np.ndarray,
    known: np.ndarray,
    known_sides: np.ndarray,
    share: float = SAME_DIE,
) -> np.ndarray:
    """Which spots (``centres`` (n, 2), ``sides``) lie ``share`` (SAME_DIE) x the larger
    side or more from every ``known`` spot: a second finder's peak on a spot the first one marked is
    that spot, already named (a die, or judged none)."""
    if not len(centres) or not len(known):
        return np.ones(len(centres), bool)
    dx = centres[:, None, 0] - known[None, :, 0]
    gaps = np.hypot(dx, centres[:, None, 1] - known[None, :, 1])
    return (gaps >= share * np.maximum(sides[:, None], known_sides[None, :])).all(1)


def _patch_sums(terms: np.ndarray, whole: np.ndarray) -> np.ndarray:
    """Sums of (n, 9) terms, each in the order numpy sums one patch's: a whole 3x3 patch
    pairwise (eight, then the ninth), a patch cut by the map's edge (six or four cells;
    zeros stand for the rest) one term after another."""
    t = terms
    pairs = ((t[:, 0] + t[:, 1]) + (t[:, 2] + t[:, 3])) + (
        (t[:, 4] + t[:, 5]) + (t[:, 6] + t[:, 7])
    )
    sums = pairs + t[:, 8]
    if whole.all():
        return sums
    running = np.zeros(len(t), t.dtype)
    for k in range(9):
        running = running + t[:, k]
    return np.where(whole, sums, running)


def board_shape(shape: tuple[int, int]) -> tuple[int, int]:
    """The smallest board (height, width) holding a picture of ``shape``."""
    return tuple(-(-n // BOARD_STEP) * BOARD_STEP for n in shape)  # type: ignore[return-value]


def closer_look(
    spots: Sequence[_Spot], scale: float, area: tuple[int, int, int, int], taught: float = 0.0
) -> tuple[tuple[int, int, int, int], float] | None:
    """Where and at what scale to look again at dice too small on the finder's board.

    A camera far from the tray, or a big photo of a few dice, leaves dice of a few board
    pixels, which the finder half misses. The dice it did find say where the others
    are: the box around them, ``SMALL_MARGIN`` dice wide on every side, is looked at
    again at the scale that makes them TARGET_DIE wide (or fills a board of up to
    WIDE_BOARD px with it).

    A taught set's dice are ``taught`` px (``DiceProfile.size``), whatever the finder
    made of them at a few board px: that side sets the margin and the scale, and a spot
    bigger than it (a tray's huddle of dice seen as one) is looked at whole.
    """
    dice = [s for s in spots if s.probs[BACKGROUND] < 0.5]
    if not dice:
        return None
    side = taught or float(np.median([s.side for s in dice]))
    if side * scale >= SMALL_DIE:
        return None
    xs = [s.centre[0] for s in dice]
    ys = [s.centre[1] for s in dice]
    margin = SMALL_MARGIN * side
    if taught:
        reach = [max(margin, s.side / 2) for s in dice]
        x0 = max(area[0], int(min(x - r for x, r in zip(xs, reach, strict=True))))
        y0 = max(area[1], int(min(y - r for y, r in zip(ys, reach, strict=True))))
        x1 = min(area[2], int(max(x + r for x, r in zip(xs, reach, strict=True))) + 1)
        y1 = min(area[3], int(max(y + r for y, r in zip(ys, reach, strict=True))) + 1)
    else:
        x0, y0 = max(area[0], int(min(xs) - margin)), max(area[1], int(min(ys) - margin))
        x1 = min(area[2], int(max(xs) + margin) + 1)
        y1 = min(area[3], int(max(ys) + margin) + 1)
    nearer = min(TARGET_DIE / side, WIDE_BOARD / max(x1 - x0, y1 - y0))
    if nearer < CLOSER * scale:
        return None
    return (x0, y0, x1, y1), nearer


def huddled(shares: np.ndarray) -> bool:
    """Whether spots found inside a bigger one (their sides as shares of its side) are
    the dice of a huddle rather than the pips of one big die.

    Dice of a huddle are a third to two thirds of the spot's side and together cover
    much of it; a big die's pips are a fifth of its side (a third for a two's far-apart
    pips, but two of them cover little), and a die found whole is most of it.
    """
    dice = shares[(shares >= HUDDLE[0]) & (shares <= HUDDLE[1])]
    return len(dice) >= 2 and float((dice**2).sum()) >= HUDDLE_COVER


def _die(spot: _Spot, shape: tuple[int, int]) -> Die:
    k = int(np.argmax(spot.probs[:BACKGROUND]))
    confidence = float(np.clip(spot.probs[k], 0.0, 1.0))
    h, w = shape
    half = spot.side / 2
    x0 = max(0, round(spot.centre[0] - half))
    y0 = max(0, round(spot.centre[1] - half))
    x1 = min(w, round(spot.centre[0] + half))
    y1 = min(h, round(spot.centre[1] + half))
    box = (int(x0), int(y0), int(max(1, x1 - x0)), int(max(1, y1 - y0)))
    guess = second_guess(spot.probs, k)
    face, value = class_face(k)
    return Die(value, face, confidence, box, card_rank(value) if face == "card" else None, guess)


def without_round(image: np.ndarray, dice: tuple[Die, ...], least: int = 0) -> tuple[Die, ...]:
    """The dice less those read in doubt whose outline is round (a number token, a coin, a
    chip: ``outline.roundness``), roundest first, as long as ``least`` dice remain. A die
    read surely is never measured: it costs nothing, and no token was read so surely."""
    rounds = []
    for i, d in enumerate(dice):
        if d.confidence >= DECISIVE:
            continue
        x, y, w, h = d.box
        r = roundness(image, (x + w / 2, y + h / 2), max(w, h))
        if r is not None and r >= ROUND:
            rounds.append((r, i))
    spare = max(0, len(dice) - least) if least else len(rounds)
    dropped = {i for _, i in sorted(rounds, reverse=True)[:spare]}
    return tuple(d for i, d in enumerate(dice) if i not in dropped)


def _dice_in(spots: Sequence[_Spot]) -> int:
    """How many of the spots the face network takes for dice (the count a table's is met by)."""
    return sum(s.probs[BACKGROUND] < 0.5 for s in spots)


def second_guess(probs: np.ndarray, first: int) -> int | None:
    """The value of the likeliest other face of the same kind as class ``first`` (0-5 pips,
    6-11 cards), if at least :data:`GUESS_FLOOR` likely: a jack's doubt is a king, not a 3."""
    kind = 0 if first < CARDS else CARDS
    others = np.array(probs[kind : kind + 6], np.float64)
    others[first - kind] = -1.0
    second = int(np.argmax(others))
    return second + 1 if others[second] >= GUESS_FLOOR else None


def _ordered(dice: tuple[Die, ...]) -> tuple[Die, ...]:
    return tuple(sorted(dice, key=lambda d: (d.box[0] + d.box[2] / 2, d.box[1])))


def _nearest(clusters: list[list[_Spot]], spot: _Spot) -> list[_Spot] | None:
    best, best_d = None, 0.5 * spot.side
    for cluster in clusters:
        c = cluster[0]
        d = float(np.hypot(c.centre[0] - spot.centre[0], c.centre[1] - spot.centre[1]))
        if d < best_d:
            best, best_d = cluster, d
    return best
