"""Rendered photographs of thrown dice, with labels, for training and honest measuring.

No public photographs of poker dice exist, so the project renders its own: a
pinhole camera above a felt tray, 1-6 rounded dice (pip or card art, see
:mod:`scorer.render.art`) lying on it, some leaning on a neighbour or the
tray wall, lit by one or two point lights with soft shadows and glare, then
blurred, noised and JPEG-compressed like a cheap camera. Every die's label is
computed from the geometry that drew it: the face whose normal points up.

Art families and tray colours are split: :data:`HELD_OUT_FAMILIES` and
:data:`HELD_OUT_TRAY_COLOURS` are never drawn unless ``held_out=True``, so a
reader can be measured on dice and felts it never trained on. ``family="random"``
(training only) paints each throw in freshly drawn art instead of a fixed family.

    scorer render data/rendered --images 2000 --kind mixed --split train
    scorer render data/rendered --images 300 --kind mixed --held-out --seed 1
    scorer render docs/samples --samples      # the pictures in docs/rendering.md
"""

from __future__ import annotations

import csv
import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from scorer.dice import CLASS_NAMES, RANK_SCRIPTS, class_face, face_class
from scorer.errors import ScorerError
from scorer.render.art import (
    HELD_OUT_ART,
    TEXELS,
    TRAIN_ART,
    DieArt,
    face_art,
    playing_card_art,
    random_art,
    typefaces,
)

KINDS: tuple[str, ...] = ("pips", "cards", "mixed")

FAMILIES: dict[str, DieArt] = {art.name: art for art in TRAIN_ART}
HELD_OUT_FAMILIES: dict[str, DieArt] = {art.name: art for art in HELD_OUT_ART}
#: ``family=RANDOM`` paints every throw's dice in freshly drawn art (:func:`random_art`).
RANDOM = "random"
#: ``family=RANDOM_TYPESET``: as ``RANDOM``, poker dice with ranks set in TrueType fonts
#: (:func:`typefaces`: training only, where matplotlib's fonts are installed).
RANDOM_TYPESET = "random-typeset"
#: ``family=RANDOM_PLAYING_CARDS``: as ``RANDOM``, poker dice printed as small playing cards
#: (:func:`playing_card_art`: suit symbols in a card's pattern on the 9 and 10).
RANDOM_PLAYING_CARDS = "random-playing-cards"

#: OpenCV 5's own sans-serif typeface, which has Cyrillic capitals and is no training
#: font: a fixed family's Hershey font draws ASCII alone, so its Cyrillic ranks are set in it.
CYRILLIC_FALLBACK = "sans"

DIE_MM = 16.0  # side of a die; the camera's distance sets how many pixels that is
#: radians: the most a slanted camera (a quarter of the throws) leans off straight down;
#: training may ask for more (``most_slant``), as a phone held at a table leans
MOST_SLANT = 0.24
#: A crowded tray (``render_scene(crowd=True)``): as many dice as a round of Liar's dice
#: pours out, packed so that many touch, each smaller in the frame.
CROWD_DICE = (8, 30)
#: A crowded tray's die side in pixels of a 640 px frame (a plain throw's: 27-62).
CROWD_PX = (18.0, 42.0)
Label = tuple[str, int, tuple[int, int, int, int]]


class BadRender(ScorerError):
    """A render request the renderer cannot honour (unknown family, kind, size)."""


@dataclass(frozen=True)
class TrayLook:
    """A tray's floor: felt colour (BGR sRGB) and cloth (felt, leather or wood grain)."""

    name: str
    colour: tuple[int, int, int]
    cloth: str = "felt"


TRAY_COLOURS: dict[str, TrayLook] = {
    t.name: t
    for t in (
        TrayLook("green", (60, 110, 35)),
        TrayLook("blue", (120, 70, 30)),
        TrayLook("red", (40, 40, 140)),
        TrayLook("black", (34, 34, 34)),
        TrayLook("grey", (150, 150, 148)),
        TrayLook("light-grey", (200, 200, 196), "leather"),
        TrayLook("brown", (45, 75, 110), "leather"),
        TrayLook("pine", (150, 195, 220), "wood"),
    )
}
HELD_OUT_TRAY_COLOURS: dict[str, TrayLook] = {
    t.name: t
    for t in (
        TrayLook("purple", (100, 40, 85)),
        TrayLook("teal", (120, 125, 25), "leather"),
    )
}

_FRAME_COLOURS = ((30, 30, 30), (60, 90, 130), (200, 200, 200), (40, 50, 70), (120, 120, 120))
_TABLE_COLOURS = ((220, 222, 222), (120, 160, 190), (70, 75, 80), (190, 200, 205))


# --- geometry -----------------------------------------------------------------------------------


def _rot_x(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def _rot_y(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])


def _rot_z(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def _rot_axis(axis: np.ndarray, a: float) -> np.ndarray:
    x, y, z = axis / np.linalg.norm(axis)
    k = np.array([[0, -z, y], [z, 0, -x], [-y, x, 0]])
    return np.eye(3) + math.sin(a) * k + (1 - math.cos(a)) * (k @ k)


#: A die at rest: (outward normal, texture's u direction, value). Opposite faces sum to 7.
_FACES: tuple[tuple[np.ndarray, np.ndarray, int], ...] = tuple(
    (np.array(n, float), np.array(u, float), v)
    for n, u, v in (
        ((0, 0, 1), (1, 0, 0), 1),
        ((0, 0, -1), (1, 0, 0), 6),
        ((1, 0, 0), (0, 1, 0), 2),
        ((-1, 0, 0), (0, 1, 0), 5),
        ((0, 1, 0), (0, 0, 1), 3),
        ((0, -1, 0), (0, 0, 1), 4),
    )
)
#: Turns that bring each value's face to the top.
_VALUE_UP = {
    1: np.eye(3),
    6: _rot_x(math.pi),
    2: _rot_y(-math.pi / 2),
    5: _rot_y(math.pi / 2),
    3: _rot_x(math.pi / 2),
    4: _rot_x(-math.pi / 2),
}
_CORNERS = np.array([(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float) / 2


@dataclass
class Camera:
    """A pinhole camera above the tray; world millimetres, z up, the tray floor at z = 0."""

    f: float
    cx: float
    cy: float
    rotation: np.ndarray  # world -> camera
    centre: np.ndarray  # camera position in the world

    def project(self, points: np.ndarray) -> np.ndarray:
        """Pixel coordinates (pixel centres at integers) of world points (N, 3)."""
        pc = (np.asarray(points, float) - self.centre) @ self.rotation.T
        return np.stack(
            [self.f * pc[:, 0] / pc[:, 2] + self.cx, self.f * pc[:, 1] / pc[:, 2] + self.cy], 1
        )

    def floor_homography(self) -> np.ndarray:
        """The 3x3 map from floor points (x, y, 1) to pixels."""
        k = np.array([[self.f, 0, self.cx], [0, self.f, self.cy], [0, 0, 1]])
        p = k @ np.hstack([self.rotation, -(self.rotation @ self.centre)[:, None]])
        return p[:, [0, 1, 3]]

    def to_floor(self, pixels: np.ndarray) -> np.ndarray:
        """Floor points (N, 2) seen at pixels (N, 2)."""
        hinv = np.linalg.inv(self.floor_homography())
        ph = np.hstack([pixels, np.ones((len(pixels), 1))]) @ hinv.T
        return ph[:, :2] / ph[:, 2:3]


@dataclass
class Light:
    """A point light: position (mm), strength and BGR tint."""

    position: np.ndarray
    strength: float
    tint: np.ndarray


@dataclass
class PlacedDie:
    """One die in the scene: art, value on top, pose, and what the photo shows of it."""

    art: DieArt
    value: int
    rotation: np.ndarray  # die -> world
    position: np.ndarray  # centre, mm
    tint: np.ndarray
    box: tuple[int, int, int, int] = (0, 0, 0, 0)
    top_quad: np.ndarray = field(default_factory=lambda: np.zeros((4, 2)))

    @property
    def face(self) -> str:
        return self.art.face

    def corners(self, inset: float = 0.0) -> np.ndarray:
        """The cube's 8 corners in the world; ``inset`` pulls them in (rounded corners)."""
        return (_CORNERS * DIE_MM * (1 - inset)) @ self.rotation.T + self.position

    def value_towards(self, direction: tuple[float, float, float]) -> int:
        """The value on the face whose normal points most nearly along ``direction``."""
        d = np.asarray(direction, float)
        return max(_FACES, key=lambda f: float((self.rotation @ f[0]) @ d))[2]

    def up_value(self) -> int:
        """The value whose face points most nearly up: what a reader must say."""
        return self.value_towards((0.0, 0.0, 1.0))


@dataclass
class Scene:
    """A rendered throw: the photo, its dice, the tray, and the camera that took it."""

    image: np.ndarray
    dice: list[PlacedDie]
    tray: TrayLook
    camera: Camera
    px_per_die: float

    def labels(self) -> list[Label]:
        """(face, value, box) for each die, as :func:`render_throw` returns them."""
        return [(d.face, d.value, d.box) for d in self.dice]


# --- choosing a scene ---------------------------------------------------------------------------


def _pick_arts(
    rng: np.random.Generator, n: int, kind: str, family: str | None, held_out: bool
) -> list[DieArt]:
    if family == RANDOM:
        return _pick_random_arts(rng, n, kind, held_out)
    if family == RANDOM_TYPESET:
        fonts = typefaces()
        if not fonts:
            raise BadRender(
                "family 'random-typeset' sets ranks in matplotlib's fonts with OpenCV 5's "
                "TrueType text: pip install matplotlib (training only), on OpenCV 5 or later"
            )
        return _pick_random_arts(rng, n, kind, held_out, fonts)
    if family == RANDOM_PLAYING_CARDS:
        return _pick_random_arts(rng, n, kind, held_out, playing_cards=True)
    if family is not None:
        art = FAMILIES.get(family) or HELD_OUT_FAMILIES.get(family)
        if art is None:
            known = ", ".join([*FAMILIES, *HELD_OUT_FAMILIES])
            raise BadRender(f"unknown dice family {family!r}; known: {known}")
        return [art] * n
    pool = [
        a
        for a in (HELD_OUT_FAMILIES if held_out else FAMILIES).values()
        if kind == "mixed" or a.face == ("pips" if kind == "pips" else "card")
    ]
    if rng.random() < 0.65:  # most throws use one matched set of dice
        art = pool[rng.integers(len(pool))]
        return [art] * n
    return [pool[i] for i in rng.integers(len(pool), size=n)]


def _pick_random_arts(
    rng: np.random.Generator,
    n: int,
    kind: str,
    held_out: bool,
    fonts: Sequence[str] = (),
    playing_cards: bool = False,
) -> list[DieArt]:
    """Fresh art for a throw: one matched set (65 %) or a new make for every die (poker
    dice printed as playing cards where ``playing_cards``)."""
    if held_out:
        raise BadRender(
            "a random family draws new training art; it has no held-out part "
            "(measure on held_out=True without a family)"
        )

    def draw() -> DieArt:
        face = {"pips": "pips", "cards": "card"}.get(kind) or ("pips", "card")[rng.integers(2)]
        if playing_cards and face == "card":
            return playing_card_art(rng, fonts)
        return random_art(rng, face, fonts)

    if rng.random() < 0.65:
        return [draw()] * n
    return [draw() for _ in range(n)]


def _check_script(ranks: str) -> None:
    if ranks not in RANK_SCRIPTS:
        raise BadRender(f"ranks must be one of {', '.join(RANK_SCRIPTS)}, not {ranks!r}")


def in_script(art: DieArt, ranks: str | None) -> DieArt:
    """``art`` printing its poker dice's ranks in ``ranks`` (a :data:`RANK_SCRIPTS` key).

    The same make of dice but for its letters, so a set rendered in both scripts from one
    seed differs in nothing else; pip dice, and every die where ``ranks`` is None, are
    returned as they are (a random family drawn Cyrillic stays Cyrillic).
    """
    if ranks is None:
        return art
    _check_script(ranks)
    if art.face != "card" or art.ranks == RANK_SCRIPTS[ranks]:
        return art
    if ranks == "cyrillic" and not art.typeface and not hasattr(cv2, "FontFace"):
        raise BadRender(
            f"Cyrillic ranks are set in OpenCV 5's TrueType text; OpenCV {cv2.__version__} has none"
        )
    typeface = art.typeface or (CYRILLIC_FALLBACK if ranks == "cyrillic" else "")
    return dataclasses.replace(
        art, name=f"{art.name}-{ranks}", ranks=RANK_SCRIPTS[ranks], typeface=typeface
    )


def _camera(
    rng: np.random.Generator,
    width: int,
    height: int,
    px_per_die: float,
    most_slant: float = MOST_SLANT,
) -> Camera:
    h = rng.uniform(260.0, 520.0)
    f = px_per_die * h / DIE_MM
    yaw = rng.integers(4) * math.pi / 2 + rng.normal(0, 0.05)
    if rng.random() < 0.25:  # a camera mounted at a slant: more of the dice's sides show
        slant, towards = rng.uniform(0.08, most_slant), rng.uniform(0, 2 * math.pi)
        tilt = _rot_x(slant * math.cos(towards)) @ _rot_y(slant * math.sin(towards))
    else:
        tilt = _rot_x(rng.normal(0, 0.045)) @ _rot_y(rng.normal(0, 0.045))
    rotation = tilt @ np.diag([1.0, -1.0, -1.0]) @ _rot_z(yaw)
    centre = np.array([rng.normal(0, 8), rng.normal(0, 8), h])
    return Camera(f, (width - 1) / 2, (height - 1) / 2, rotation, centre)


def _tray_walls(rng: np.random.Generator, cam: Camera, width: int, height: int) -> np.ndarray:
    """The floor rectangle [x0, y0, x1, y1]: some walls in view, some beyond the frame."""
    corners = cam.to_floor(np.array([[0, 0], [width, 0], [width, height], [0, height]], float))
    lo, hi = corners.min(0), corners.max(0)
    span = hi - lo
    rect = np.array([lo[0] - 80, lo[1] - 80, hi[0] + 80, hi[1] + 80])
    for i in range(4):
        if rng.random() < 0.3:
            inset = rng.uniform(0.02, 0.16) * span[i % 2]
            rect[i] = lo[i % 2] + inset if i < 2 else hi[i % 2] - inset
    return rect


def _lights(rng: np.random.Generator) -> list[Light]:
    lights = []
    for i in range(1 + int(rng.random() < 0.45)):
        azimuth = rng.uniform(0, 2 * math.pi)
        elevation = rng.uniform(0.6, 1.4) if i == 0 else rng.uniform(0.4, 1.0)
        distance = rng.uniform(500.0, 1400.0)
        pos = distance * np.array(
            [
                math.cos(elevation) * math.cos(azimuth),
                math.cos(elevation) * math.sin(azimuth),
                math.sin(elevation),
            ]
        )
        strength = 1.0 if i == 0 else rng.uniform(0.25, 0.55)
        warmth = rng.normal(0, 0.06)
        tint = np.array([1 - warmth, 1.0, 1 + warmth])
        lights.append(Light(pos, strength, tint))
    return lights


def _die_pose(value: int, yaw: float, lean_dir: float, lean: float) -> np.ndarray:
    axis = np.array([-math.sin(lean_dir), math.cos(lean_dir), 0.0])
    return _rot_axis(axis, lean) @ _rot_z(yaw) @ _VALUE_UP[value]


@dataclass(frozen=True)
class _Floor:
    """Where a throw's dice may lie: the camera that sees them, the tray's walls (mm) and
    the frame (px), with the margin a die's centre keeps from the frame's edges (px)."""

    cam: Camera
    rect: np.ndarray
    width: int
    height: int
    margin: float

    @classmethod
    def under(
        cls, cam: Camera, rect: np.ndarray, size: tuple[int, int], px_per_die: float
    ) -> _Floor:
        """The floor a camera sees dice ``px_per_die`` wide on, in a frame of ``size``."""
        return cls(cam, rect, size[0], size[1], 0.95 * px_per_die + 3)

    def spot(self, rng: np.random.Generator) -> np.ndarray:
        """A point of the floor seen anywhere in the frame, the margin kept (mm)."""
        m = self.margin
        px = np.array([[rng.uniform(m, self.width - m), rng.uniform(m, self.height - m)]])
        return self.cam.to_floor(px)[0]


def _resting(
    art: DieArt, value: int, rotation: np.ndarray, xy: np.ndarray, rng: np.random.Generator
) -> PlacedDie:
    """A die of ``art`` turned by ``rotation`` lying on the floor at ``xy`` (mm)."""
    die = PlacedDie(
        art, value, rotation, np.array([xy[0], xy[1], 0.0]), tint=1 + rng.normal(0, 0.025, 3)
    )
    die.position[2] = -die.corners(inset=0.06)[:, 2].min()
    return die


def _place_dice(
    rng: np.random.Generator, floor: _Floor, arts: list[DieArt], values: list[int]
) -> list[PlacedDie]:
    rect = floor.rect
    placed: list[PlacedDie] = []
    clustered = rng.random() < 0.5
    hub = floor.spot(rng)
    for art, value in zip(arts, values, strict=True):
        for attempt in range(400):
            lean, lean_dir, lean_on = abs(rng.normal(0, 0.025)), rng.uniform(0, 2 * math.pi), None
            yaw = rng.uniform(0, 2 * math.pi)
            roll = rng.random()
            if placed and roll < 0.15:  # leaning on a die already there
                lean_on = placed[rng.integers(len(placed))]
                lean = rng.uniform(0.2, 0.5)
                lean_dir = rng.uniform(0, 2 * math.pi)
                d = np.array([math.cos(lean_dir), math.sin(lean_dir)])
                xy = lean_on.position[:2] - d * DIE_MM * rng.uniform(1.3, 1.45)
                yaw = lean_dir + rng.normal(0, 0.1)
            elif clustered and attempt < 200:
                xy = hub + rng.normal(0, 2.2 * DIE_MM, 2)
            else:
                xy = floor.spot(rng)
            if roll > 0.9:  # against the nearest wall, if it is close
                gaps = np.array(
                    [xy[0] - rect[0], xy[1] - rect[1], rect[2] - xy[0], rect[3] - xy[1]]
                )
                side = int(np.argmin(gaps))
                if gaps[side] < 3 * DIE_MM:
                    lean = rng.uniform(0.15, 0.4)
                    lean_dir = (math.pi, -math.pi / 2, 0.0, math.pi / 2)[side]
                    inward = 0.72 * DIE_MM
                    xy = xy.copy()
                    xy[side % 2] = rect[side] + inward if side < 2 else rect[side] - inward
                    yaw = lean_dir + rng.normal(0, 0.08)
            die = _resting(art, value, _die_pose(value, yaw, lean_dir, lean), xy, rng)
            if not _fits(die, placed, lean_on, floor):
                continue
            placed.append(die)
            break
    return placed


def _place_crowd(
    rng: np.random.Generator, floor: _Floor, arts: list[DieArt], values: list[int]
) -> list[PlacedDie]:
    """Dice poured out in a heap's one layer: each laid as near the heap's middle as it
    will go, so that most touch a neighbour. Footprints may meet but never overlap."""
    hub = floor.spot(rng)
    spread = DIE_MM * rng.uniform(0.6, 1.0) * math.sqrt(len(values))
    placed: list[PlacedDie] = []
    for art, value in zip(arts, values, strict=True):
        best: PlacedDie | None = None
        for attempt in range(260):
            if best is not None and attempt >= 60:
                break
            # the heap's ring first; anywhere where the tray's walls or the frame stop it
            xy = hub + rng.normal(0, spread, 2) if attempt < 60 else floor.spot(rng)
            lean, lean_dir = abs(rng.normal(0, 0.02)), rng.uniform(0, 2 * math.pi)
            rotation = _die_pose(value, rng.uniform(0, 2 * math.pi), lean_dir, lean)
            die = _resting(art, value, rotation, xy, rng)
            if not _fits(die, placed, None, floor, touching=True):
                continue
            if best is None or np.linalg.norm(xy - hub) < np.linalg.norm(best.position[:2] - hub):
                best = die
        if best is not None:
            placed.append(_slid_in(best, hub, placed, floor))
    return placed


def _slid_in(die: PlacedDie, hub: np.ndarray, placed: list[PlacedDie], floor: _Floor) -> PlacedDie:
    """``die`` pushed towards ``hub`` until it meets a die already there (bisected)."""
    start = die.position.copy()
    fits, blocked = 0.0, 1.0
    for _ in range(8):
        t = (fits + blocked) / 2
        die.position = start + t * np.array([hub[0] - start[0], hub[1] - start[1], 0.0])
        if _fits(die, placed, None, floor, touching=True):
            fits = t
        else:
            blocked = t
    die.position = start + fits * np.array([hub[0] - start[0], hub[1] - start[1], 0.0])
    return die


def _footprint(die: PlacedDie) -> np.ndarray:
    """The die's outline on the floor seen from above (float32 convex polygon, mm)."""
    return cv2.convexHull(die.corners()[:, :2].astype(np.float32))


def _fits(
    die: PlacedDie,
    placed: list[PlacedDie],
    lean_on: PlacedDie | None,
    floor: _Floor,
    touching: bool = False,
) -> bool:
    x, y = die.position[:2]
    reach = 0.5 * DIE_MM
    rect = floor.rect
    if not (rect[0] + reach <= x <= rect[2] - reach and rect[1] + reach <= y <= rect[3] - reach):
        return False
    outline = _footprint(die) if touching else None
    for other in placed:
        gap = np.linalg.norm(other.position[:2] - die.position[:2])
        if outline is not None:
            if gap < 1.8 * DIE_MM:
                overlap, _ = cv2.intersectConvexConvex(outline, _footprint(other))
                if overlap > 0.5:  # mm²: meeting along an edge is touching, more is inside
                    return False
        elif gap < (1.28 if other is lean_on else 1.45) * DIE_MM:
            return False
    px = floor.cam.project(die.corners())
    return bool(
        px.min() >= 2 and px[:, 0].max() <= floor.width - 3 and px[:, 1].max() <= floor.height - 3
    )


# --- drawing ------------------------------------------------------------------------------------


def _to_linear(bgr: tuple[int, int, int] | np.ndarray) -> np.ndarray:
    return (np.asarray(bgr, np.float32) / 255.0) ** 2.2


def _noise(rng: np.random.Generator, shape: tuple[int, int], cells: tuple[int, int]) -> np.ndarray:
    """Smooth noise of unit-ish amplitude with about ``cells`` bumps across the frame."""
    small = rng.standard_normal(cells).astype(np.float32)
    return cv2.resize(small, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)


def _cloth(rng: np.random.Generator, tray: TrayLook, shape: tuple[int, int]) -> np.ndarray:
    """Multiplicative texture of the tray floor: felt fibres, leather grain or wood."""
    h, w = shape
    grain = rng.standard_normal(shape, dtype=np.float32)
    if tray.cloth == "wood":
        rings = _noise(rng, shape, (3, 3)) * 6 + np.linspace(0, rng.uniform(20, 40), w)[None, :]
        streaks = cv2.resize(rng.standard_normal((h, 24)).astype(np.float32), (w, h))
        return 1 + 0.06 * np.sin(rings) + 0.05 * streaks + 0.02 * grain
    fine = cv2.GaussianBlur(grain, (0, 0), 0.8 if tray.cloth == "felt" else 1.6)
    amp = rng.uniform(0.1, 0.2) if tray.cloth == "felt" else 0.1
    return 1 + amp * fine + 0.04 * _noise(rng, shape, (12, 12)) + 0.03 * _noise(rng, shape, (4, 4))


def _floor_light(cam: Camera, lights: list[Light], shape: tuple[int, int]) -> list[np.ndarray]:
    """Per light, the direct light falling on the floor seen at each pixel (Lambert, 1/r^2)."""
    h, w = shape
    gy, gx = np.mgrid[0:h:16, 0:w:16].astype(float)
    floor = cam.to_floor(np.stack([gx.ravel(), gy.ravel()], 1))
    maps = []
    for light in lights:
        rel = np.hstack(
            [light.position[None, :2] - floor, np.full((len(floor), 1), light.position[2])]
        )
        dist = np.linalg.norm(rel, axis=1)
        lam = light.position[2] / dist * (np.linalg.norm(light.position) / dist) ** 2
        small = (light.strength * lam).reshape(gx.shape).astype(np.float32)
        maps.append(cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR))
    return maps


def _poly_mask(shape: tuple[int, int], polys: list[np.ndarray], scale: float = 1.0) -> np.ndarray:
    mask = np.zeros(shape, np.float32)
    for poly in polys:
        pts = np.round(np.asarray(poly) * scale * 16).astype(np.int32)
        cv2.fillPoly(mask, [pts], 1.0, cv2.LINE_AA, shift=4)
    return mask


def _shadows(
    cam: Camera,
    lights: list[Light],
    dice: list[PlacedDie],
    shape: tuple[int, int],
    px_per_die: float,
    rng: np.random.Generator,
) -> tuple[list[np.ndarray], np.ndarray]:
    """Soft cast shadows (one map per light) and contact shadows, drawn at half size."""
    h, w = shape
    half = (h // 2 + 1, w // 2 + 1)
    casts = []
    for light in lights:
        polys = []
        for die in dice:
            pts = die.corners(inset=0.08)
            t = light.position[2] / (light.position[2] - pts[:, 2])
            on_floor = light.position + t[:, None] * (pts - light.position)
            px = cam.project(np.hstack([on_floor[:, :2], np.zeros((8, 1))]))
            polys.append(cv2.convexHull(px.astype(np.float32))[:, 0, :])
        mask = _poly_mask(half, polys, 0.5)
        sigma = px_per_die * rng.uniform(0.04, 0.12) * (1.5 if light.strength < 1 else 1.0)
        mask = cv2.GaussianBlur(mask, (0, 0), sigma)
        casts.append(cv2.resize(mask, (w, h), interpolation=cv2.INTER_LINEAR)[:h, :w])
    feet = []
    for die in dice:
        pts = die.corners(inset=-0.05)
        low = pts[pts[:, 2] < 0.35 * DIE_MM]
        if len(low) < 2:
            low = pts[np.argsort(pts[:, 2])[:4]]
        px = cam.project(np.hstack([low[:, :2], np.zeros((len(low), 1))]))
        feet.append(cv2.convexHull(px.astype(np.float32))[:, 0, :])
    contact = cv2.GaussianBlur(_poly_mask(half, feet, 0.5), (0, 0), px_per_die * 0.07)
    return casts, cv2.resize(contact, (w, h), interpolation=cv2.INTER_LINEAR)[:h, :w]


def _blend(image: np.ndarray, poly: np.ndarray, paint: np.ndarray | Callable) -> None:
    """Paint inside a pixel polygon, anti-aliased, touching only its bounding box.

    ``paint`` is a BGR colour or ``paint(ys, xs)`` giving the (h, w, 3) pixels of that box.
    """
    h, w = image.shape[:2]
    x0, y0 = np.maximum(np.floor(poly.min(0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(poly.max(0)).astype(int) + 1, (w, h))
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    pts = np.round((poly - (x0, y0)) * 16).astype(np.int32)
    cv2.fillPoly(mask, [pts], 255, cv2.LINE_AA, shift=4)
    cover = mask.astype(np.float32)[..., None] * np.float32(1 / 255)
    roi = image[y0:y1, x0:x1]
    fill = paint(slice(y0, y1), slice(x0, x1)) if callable(paint) else paint
    roi += (fill - roi) * cover


def _draw_tray(
    rng: np.random.Generator,
    cam: Camera,
    tray: TrayLook,
    rect: np.ndarray,
    lights: list[Light],
    dice: list[PlacedDie],
    shape: tuple[int, int],
    px_per_die: float,
    shadows: bool,
) -> tuple[np.ndarray, float]:
    """The empty tray in linear light with the dice's shadows on its floor, and the ambient."""
    h, w = shape
    wall_h = rng.uniform(20.0, 45.0)
    rim = rng.uniform(6.0, 18.0)
    x0, y0, x1, y1 = rect

    def ring(z: float, grow: float) -> np.ndarray:
        pts = [
            (x0 - grow, y0 - grow),
            (x1 + grow, y0 - grow),
            (x1 + grow, y1 + grow),
            (x0 - grow, y1 + grow),
        ]
        return np.array([(x, y, z) for x, y in pts])

    floor3d, top3d, outer3d = ring(0.0, 0.0), ring(wall_h, 0.0), ring(wall_h, rim)
    floor_px, top_px, outer_px = cam.project(floor3d), cam.project(top3d), cam.project(outer3d)

    ambient = float(rng.uniform(0.25, 0.5))
    direct = _floor_light(cam, lights, shape)
    cloth = _cloth(rng, tray, shape)
    felt = _to_linear(tray.colour) * (1 + rng.normal(0, 0.04, 3)).astype(np.float32)
    frame = _to_linear(_FRAME_COLOURS[rng.integers(len(_FRAME_COLOURS))])
    table = _to_linear(_TABLE_COLOURS[rng.integers(len(_TABLE_COLOURS))])
    wall_colour = felt if rng.random() < 0.6 else frame

    flat_light = ambient + sum(direct)  # light on horizontal surfaces with no shadow
    if shadows and dice:
        casts, contact = _shadows(cam, lights, dice, shape, px_per_die, rng)
        lit = ambient * (1 - 0.55 * contact)
        for d_map, cast in zip(direct, casts, strict=True):
            lit = lit + d_map * (1 - 0.92 * cast) * (1 - 0.5 * contact)
    else:
        lit = flat_light
    image = felt[None, None, :] * (lit * cloth)[..., None]
    corners_in = all(
        cv2.pointPolygonTest(floor_px.astype(np.float32), (float(x), float(y)), False) > 0
        for x, y in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1))
    )
    if corners_in:
        return image, ambient  # no wall in view

    outside = image.copy()
    outside[:] = table * (1 + 0.03 * cloth[..., None] - 0.03) * flat_light[..., None]
    _blend(outside, outer_px, lambda ys, xs: frame * flat_light[ys, xs, None])
    normals = (
        np.array([1.0, 0, 0]),
        np.array([0, 1.0, 0]),
        np.array([-1.0, 0, 0]),
        np.array([0, -1.0, 0]),
    )
    sides = ((3, 0), (0, 1), (1, 2), (2, 3))  # left, bottom(y0), right, top(y1) edges of the ring
    for (a, b), normal in zip(sides, normals, strict=True):
        quad = np.array([floor_px[a], floor_px[b], top_px[b], top_px[a]])
        mid = (floor3d[a] + top3d[b]) / 2
        shade = 0.7 * ambient
        for light in lights:
            to_light = light.position - mid
            shade += light.strength * max(0.0, float(normal @ to_light / np.linalg.norm(to_light)))
        tone = (wall_colour * shade).astype(np.float32)
        _blend(outside, quad, lambda ys, xs, tone=tone: tone * (0.97 + 0.03 * cloth[ys, xs, None]))
    # the floor over everything: blend the outside in where the floor is not
    mask = np.zeros((h, w), np.uint8)
    cv2.fillPoly(mask, [np.round(floor_px * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
    cover = mask.astype(np.float32)[..., None] * np.float32(1 / 255)
    image += (outside - image) * (1 - cover)
    return image, ambient


#: Lighting is smooth across a face: work it out on a coarser grid than the art.
_SHADE_TEXELS = 48


def _grid(n: int) -> tuple[np.ndarray, np.ndarray]:
    c = (np.arange(n, dtype=np.float32) + 0.5) / n
    v, u = np.meshgrid(c, c, indexing="ij")
    return u, v


_U, _V = _grid(_SHADE_TEXELS)


@lru_cache(maxsize=16)
def _face_alpha(bevel: float) -> np.ndarray:
    """Coverage of a face: a square with corners rounded like the die's."""
    u, v = _grid(TEXELS)
    r = bevel * TEXELS * 0.9
    c = TEXELS / 2
    qx = np.maximum(np.abs(u * TEXELS - c) - (c - r), 0)
    qy = np.maximum(np.abs(v * TEXELS - c) - (c - r), 0)
    return np.clip(r - np.sqrt(qx**2 + qy**2) + 0.5, 0, 1).astype(np.float32)


@lru_cache(maxsize=512)
def _linear_art(art: DieArt, value: int) -> np.ndarray:
    albedo, _ = face_art(art, value)
    return albedo**2.2


def _unit(x: np.ndarray) -> np.ndarray:
    return x / np.sqrt(np.einsum("...k,...k->...", x, x))[..., None]


def _shade_face(
    die: PlacedDie,
    normal: np.ndarray,
    u_dir: np.ndarray,
    value: int,
    corners: np.ndarray,
    cam: Camera,
    lights: list[Light],
    ambient: float,
) -> np.ndarray:
    """The lit face as premultiplied BGRA texels (linear light).

    Near the edges the normal turns towards the neighbouring face (45 degrees at the
    edge itself), which gives the rounded edges their shading and glints.
    """
    art = die.art
    p00, p10, p01 = (c.astype(np.float32) for c in (corners[0], corners[1], corners[3]))
    pos = p00 + _U[..., None] * (p10 - p00) + _V[..., None] * (p01 - p00)
    n_w = (die.rotation @ normal).astype(np.float32)
    u_w = (die.rotation @ u_dir).astype(np.float32)
    v_w = np.cross(u_w, n_w)
    b = art.bevel
    du, dv = _U - 0.5, _V - 0.5
    tu = np.clip((np.abs(du) - (0.5 - b)) / b, 0, 1) ** 1.2
    tv = np.clip((np.abs(dv) - (0.5 - b)) / b, 0, 1) ** 1.2
    n = _unit(n_w + (np.sign(du) * tu)[..., None] * u_w + (np.sign(dv) * tv)[..., None] * v_w)
    view = _unit(cam.centre.astype(np.float32) - pos)
    diffuse = ambient * (0.6 + 0.4 * n[..., 2])
    shine = np.zeros_like(diffuse)
    for light in lights:
        to_light = _unit(light.position.astype(np.float32) - pos)
        lam = np.clip(np.einsum("...k,...k->...", n, to_light), 0, None)
        diffuse = diffuse + light.strength * lam
        nh = np.clip(np.einsum("...k,...k->...", n, _unit(to_light + view)), 0, None)
        lobe = nh**art.shininess + 0.05 * nh ** (art.shininess / 10)
        shine = shine + (art.gloss * light.strength) * lobe * (lam > 0)
    occlusion = 0.55 + 0.45 * np.clip(pos[..., 2] / (0.4 * DIE_MM), 0, 1)
    lighting = np.dstack([diffuse * occlusion, shine]).astype(np.float32)
    lighting = cv2.resize(lighting, (TEXELS, TEXELS), interpolation=cv2.INTER_LINEAR)
    albedo = _linear_art(art, value) * die.tint.astype(np.float32)
    colour = albedo * lighting[..., :1] + lighting[..., 1:]
    alpha = _face_alpha(b)
    return np.dstack([colour * alpha[..., None], alpha])


def _draw_die(
    image: np.ndarray, die: PlacedDie, cam: Camera, lights: list[Light], ambient: float
) -> None:
    """Paint one die over ``image`` (linear light) and record its box and top face.

    A translucent body (``DieArt.translucency``) lets part of what lies behind it through:
    the tray, blurred, and the pips of the hidden faces (seen mirrored, as through real
    translucent dice), both tinted by the body's colour. Its own ink stays opaque.
    """
    h, w = image.shape[:2]
    px = cam.project(die.corners())
    x0, y0 = np.floor(px.min(0)).astype(int) - 2
    x1, y1 = np.ceil(px.max(0)).astype(int) + 3
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    rw, rh = (x1 - x0) * 2, (y1 - y0) * 2
    see_through = float(die.art.translucency)
    # front: premultiplied colour, coverage, light let through; back: ghost ink, its cover
    acc = np.zeros((rh, rw, 5 if see_through > 0 else 4), np.float32)
    back = np.zeros((rh, rw, 4) if see_through > 0 else (1, 1, 4), np.float32)
    src = np.array(
        [[-0.5, -0.5], [TEXELS - 0.5, -0.5], [TEXELS - 0.5, TEXELS - 0.5], [-0.5, TEXELS - 0.5]],
        np.float32,
    )
    best_up = -2.0
    for normal, u_dir, value in _FACES:
        n_w = die.rotation @ normal
        u_w = die.rotation @ u_dir
        v_w = np.cross(u_w, n_w)
        centre = die.position + n_w * DIE_MM / 2
        facing = n_w @ (cam.centre - centre) > 1e-3
        if not facing and see_through <= 0:
            continue
        half = DIE_MM / 2
        corners = np.array(
            [
                centre - u_w * half - v_w * half,
                centre + u_w * half - v_w * half,
                centre + u_w * half + v_w * half,
                centre - u_w * half + v_w * half,
            ]
        )
        quad = cam.project(corners)
        dst = ((quad - [x0, y0]) * 2 + 0.5).astype(np.float32)
        warp = cv2.getPerspectiveTransform(src, dst)
        if not facing:
            back += cv2.warpPerspective(
                _ghost_texels(die.art, value), warp, (rw, rh), flags=cv2.INTER_LINEAR
            )
            continue
        if n_w[2] > best_up:
            best_up, die.top_quad = n_w[2], quad
        texels = _shade_face(die, normal, u_dir, value, corners, cam, lights, ambient)
        if see_through > 0:
            body = (1.0 - face_art(die.art, value)[1]) * see_through * texels[..., 3]
            texels = np.dstack([texels[..., :3] * (1.0 - body[..., None]), texels[..., 3], body])
        acc += cv2.warpPerspective(
            texels,
            warp,
            (rw, rh),
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=0,
        )
    small = cv2.resize(acc, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    cover = small[..., 3]
    alpha = np.clip(cover, 0, 1)[..., None]
    colour = small[..., :3] / np.maximum(cover, 1e-4)[..., None]
    roi = image[y0:y1, x0:x1]
    if see_through > 0:
        behind = _seen_through(roi, back, die, x1 - x0, y1 - y0)
        over = 1.0 / np.maximum(cover, 1.0)[..., None]  # edges where two faces meet
        let = np.clip(small[..., 4:] * over, 0, 1)
        roi[:] = roi * (1 - alpha) + small[..., :3] * over + let * behind
    else:
        roi[:] = roi * (1 - alpha) + colour * alpha
    ys, xs = np.nonzero(cover > 0.35)
    if len(xs):
        bx, by = x0 + int(xs.min()), y0 + int(ys.min())
        die.box = (bx, by, x0 + int(xs.max()) + 1 - bx, y0 + int(ys.max()) + 1 - by)


@lru_cache(maxsize=256)
def _ghost_texels(art: DieArt, value: int) -> np.ndarray:
    """A hidden face as seen through the body: its ink only (premultiplied), no body."""
    albedo, ink = face_art(art, value)
    cover = ink * _face_alpha(art.bevel)
    return np.dstack([(albedo**2.2) * cover[..., None], cover]).astype(np.float32)


def _seen_through(
    roi: np.ndarray, back: np.ndarray, die: PlacedDie, width: int, height: int
) -> np.ndarray:
    """What a translucent die shows of what lies behind it (linear light, before the
    share the body lets through): the tray and the hidden pips, blurred by the body's
    depth and tinted by its colour."""
    side = max(width, height)
    tray = cv2.GaussianBlur(roi, (0, 0), max(0.5, 0.12 * side))
    ghost = cv2.resize(back, (width, height), interpolation=cv2.INTER_AREA)
    ghost = cv2.GaussianBlur(ghost, (0, 0), max(0.4, 0.03 * side))
    body = np.asarray(die.art.body, np.float32) / 255.0
    tint = np.clip(body**2.2 * 1.6 + 0.08, 0, 1) * die.tint.astype(np.float32)
    # hidden pips are seen through the body's depth: faint, and in the body's colour
    g = np.clip(ghost[..., 3:], 0, 1) * 0.75
    return tray * tint * (1 - g) + ghost[..., :3] * 0.75 * tint


@lru_cache(maxsize=8)
def _radius2(h: int, w: int) -> np.ndarray:
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    return ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / (0.25 * (w * w + h * h))


_RAMP = np.arange(4096, dtype=np.float32) / 4095


def _tone_curve(gamma: float = 2.2, contrast: float = 0.0) -> np.ndarray:
    """8-bit output for 4096 levels of linear light: a gamma and an S-shaped contrast."""
    out = _RAMP ** (1 / gamma)
    out = out + contrast * out * (1 - out) * (out - 0.5) * 4
    return np.round(255 * np.clip(out, 0, 1)).astype(np.uint8)


_GAMMA = _tone_curve()


def _to_srgb8(linear: np.ndarray, curve: np.ndarray = _GAMMA) -> np.ndarray:
    """Linear light 0..1 to 8-bit values through a tone curve, clipping highlights."""
    index = np.clip(linear * 4095 + 0.5, 0, 4095).astype(np.uint16)
    return curve[index]


def _exposure(
    rng: np.random.Generator,
    tray: np.ndarray,
    dice: list[PlacedDie],
    lights: list[Light],
    ambient: float,
) -> float:
    """Auto-exposure, metered on the tray before the dice land: the felt towards mid-grey,
    but not so far that the brightest die's top face blows out."""
    mid = float(np.median(tray[::7, ::7]))
    exposure = 0.18 / max(mid, 0.02) ** 0.6 * 0.18**-0.4
    brightest = float(np.percentile(tray[::7, ::7].max(axis=2), 99.5))
    full_sun = ambient + sum(light.strength for light in lights)
    for die in dice:
        paint = max(max(die.art.body), *(max(ink) for ink in die.art.inks)) / 255.0
        brightest = max(brightest, 0.8 * paint**2.2 * full_sun)
    return rng.uniform(0.8, 1.1) * min(exposure, 1.0 / max(brightest, 1e-3))


def _develop(
    rng: np.random.Generator, linear: np.ndarray, exposure: float, photo: bool
) -> np.ndarray:
    """What a cheap camera makes of the light: exposure, white balance, vignette, gamma,
    and unless ``photo`` is off a little lens blur, sensor noise and JPEG."""
    h, w = linear.shape[:2]
    if not photo:
        return _to_srgb8(linear * np.float32(exposure))
    balance = (1 + rng.normal(0, 0.05, 3)).astype(np.float32)
    vignette = 1 - np.float32(rng.uniform(0.0, 0.3)) * _radius2(h, w)
    curve = _tone_curve(rng.uniform(1.9, 2.6), rng.uniform(-0.1, 0.5))
    img = _to_srgb8(linear * (np.float32(exposure) * vignette)[..., None] * balance, curve)
    img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.35, 1.1) if rng.random() < 0.8 else 1.6)
    shot = rng.uniform(1.3, 5.0)  # noise in 8-bit steps at full scale
    read = rng.uniform(1.0, 3.5)
    sigma = np.sqrt(shot**2 * np.arange(256, dtype=np.float32) / 255 + read**2)
    noise = rng.standard_normal(img.shape, dtype=np.float32)
    noise *= sigma[img]
    noise += img
    out = np.clip(noise + 0.5, 0, 255).astype(np.uint8)
    quality = int(rng.integers(55, 96))
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else out


# --- the public surface -------------------------------------------------------------------------


def render_scene(
    rng: np.random.Generator,
    n_dice: int,
    *,
    kind: str = "pips",
    family: str | None = None,
    held_out: bool = False,
    size: tuple[int, int] = (640, 640),
    values: list[int] | None = None,
    tray: str | None = None,
    photo: bool = True,
    shadows: bool = True,
    empty_tray: bool = False,
    ranks: str | None = None,
    most_slant: float = MOST_SLANT,
    crowd: bool = False,
) -> Scene:
    """Render a throw and keep everything about it (for tests and for the demo camera).

    ``values`` fixes the value on top of each die; ``tray`` fixes the felt. ``photo=False``
    skips the camera's blur, noise and JPEG; ``empty_tray=True`` lays the dice out (the
    labels still say where) but does not draw them nor their shadows: the difference of
    the two renders of one seed is exactly the dice. ``family="random"`` paints the dice
    in art drawn afresh for this throw (training only: it refuses ``held_out``), with
    pip or card faces as ``kind`` says. ``ranks="cyrillic"`` prints the poker dice's ranks
    as Russian and Ukrainian dice do, ``"latin"`` as the rest (:func:`in_script`); the
    throw is otherwise the same. None: as each family prints them. ``most_slant``: the
    most (radians) a slanted camera leans; the same throw otherwise. ``crowd=True`` packs
    up to :data:`CROWD_DICE` dice around one spot, touching one another (:func:`_place_crowd`),
    each smaller in the frame (one seed draws another throw with it than without).
    """
    if kind not in KINDS:
        raise BadRender(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    most = CROWD_DICE[1] if crowd else 12
    if not 0 <= n_dice <= most:
        raise BadRender(f"a throw has 0 to {most} dice, not {n_dice}")
    width, height = (int(v) for v in size)
    if not (96 <= width <= 4096 and 96 <= height <= 4096):
        raise BadRender(f"image size must be 96..4096 px a side, not {size}")
    if not 0.08 <= most_slant <= 1.0:
        raise BadRender(f"a camera leans 0.08 to 1.0 radians at most, not {most_slant}")
    if values is not None and (len(values) != n_dice or any(v not in range(1, 7) for v in values)):
        raise BadRender(f"values must be {n_dice} numbers 1..6, not {values}")
    trays = HELD_OUT_TRAY_COLOURS if held_out else TRAY_COLOURS
    if tray is not None:
        look = TRAY_COLOURS.get(tray) or HELD_OUT_TRAY_COLOURS.get(tray)
        if look is None:
            raise BadRender(f"unknown tray colour {tray!r}")
    else:
        look = list(trays.values())[rng.integers(len(trays))]
    arts = [in_script(a, ranks) for a in _pick_arts(rng, n_dice, kind, family, held_out)]
    if values is None:
        values = [int(v) for v in rng.integers(1, 7, size=n_dice)]
    low, high = CROWD_PX if crowd else (27.0, 62.0)
    px_per_die = rng.uniform(low, high) * min(width, height) / 640
    cam = _camera(rng, width, height, px_per_die, most_slant)
    rect = _tray_walls(rng, cam, width, height)
    lights = _lights(rng)
    place = _place_crowd if crowd else _place_dice
    dice = place(rng, _Floor.under(cam, rect, (width, height), px_per_die), arts, list(values))
    if len(dice) < n_dice:
        raise BadRender(f"could not lay {n_dice} dice apart in a {width}x{height} frame")
    image = photograph(
        rng,
        cam,
        look,
        rect,
        lights,
        dice,
        (width, height),
        px_per_die,
        photo=photo,
        shadows=shadows,
        empty_tray=empty_tray,
    )
    return Scene(image, dice, look, cam, px_per_die)


def photograph(
    rng: np.random.Generator,
    cam: Camera,
    look: TrayLook,
    rect: np.ndarray,
    lights: list[Light],
    dice: list[PlacedDie],
    size: tuple[int, int],
    px_per_die: float,
    *,
    felt: np.random.Generator | None = None,
    photo: bool = True,
    shadows: bool = True,
    empty_tray: bool = False,
) -> np.ndarray:
    """The BGR photo of dice laid on a tray: the tray, the dice far to near, then the camera.

    The one place a scene is drawn (:func:`render_scene`, the demo camera's table).
    ``felt`` draws the cloth's grain (default ``rng``): a table that keeps its felt from
    throw to throw passes a generator of its own. ``photo``, ``shadows`` and
    ``empty_tray`` are :func:`render_scene`'s.
    """
    width, height = size
    shown = [] if empty_tray else dice
    linear, ambient = _draw_tray(
        rng if felt is None else felt,
        cam,
        look,
        rect,
        lights,
        shown,
        (height, width),
        px_per_die,
        shadows,
    )
    exposure = _exposure(rng, linear, dice, lights, ambient)
    far_first = sorted(dice, key=lambda d: -float(np.linalg.norm(cam.centre - d.position)))
    for die in far_first:
        canvas = np.zeros((height, width, 3), np.float32) if empty_tray else linear
        _draw_die(canvas, die, cam, lights, ambient)
    return _develop(rng, linear, exposure, photo)


def render_throw(
    rng: np.random.Generator,
    n_dice: int,
    *,
    kind: str = "pips",
    family: str | None = None,
    held_out: bool = False,
    size: tuple[int, int] = (640, 640),
    most_slant: float = MOST_SLANT,
    crowd: bool = False,
) -> tuple[np.ndarray, list[Label]]:
    """A photo of ``n_dice`` thrown dice (BGR uint8, ``size`` = (width, height)) and labels:
    (face ``"pips"|"card"``, value 1..6, (x, y, w, h) box of the whole die in pixels).

    ``family`` fixes the dice's make; ``"random"`` draws new art every throw (one set for
    all dice, or one make per die) so that training sees endless colourings and fonts.
    ``crowd``: :func:`render_scene`'s crowded tray."""
    scene = render_scene(
        rng,
        n_dice,
        kind=kind,
        family=family,
        held_out=held_out,
        size=size,
        most_slant=most_slant,
        crowd=crowd,
    )
    return scene.image, scene.labels()


def _data_yaml(out_dir: Path) -> str:
    splits = sorted(p.name for p in (out_dir / "images").iterdir() if p.is_dir())
    kinds = [class_face(i)[0] for i in range(len(CLASS_NAMES))]
    names = ", ".join(
        f"{i}: {n}" if kind == "pips" else f'{i}: "{n}"'
        for (i, n), kind in zip(enumerate(CLASS_NAMES), kinds, strict=True)
    )
    faces = ", ".join(f"{i}: {kind}" for i, kind in enumerate(kinds))
    lines = [
        "# Rendered by scorer.render.scene. YOLO labels: class x_center y_center width height",
        "# (normalised). Box = the whole die. Classes 0..5: pip faces 1..6; 6..11: card ranks",
        "# 9..A, read as values 1..6.",
        "path: .",
        *(f"{s}: images/{s}" for s in splits),
        f"names: {{{names}}}",
        "box: die",
        f"faces: {{{faces}}}",
    ]
    return "\n".join(lines) + "\n"


def write_dataset(
    out_dir: Path,
    n_images: int,
    seed: int,
    *,
    kind: str,
    held_out: bool,
    split: str = "test",
    size: tuple[int, int] = (640, 640),
    ranks: str | None = None,
    family: str | None = None,
    crowd: bool = False,
) -> None:
    """Render ``n_images`` throws of 1-6 dice into a YOLO set (the layout of ../shared/datasets).

    Beside the labels, ``renders-<split>.csv`` names each photo's tray and dice families,
    so results can be broken down by what the reader saw. Photo ``i`` is drawn from
    ``default_rng([seed, i])``: sets of one seed grow without changing their first photos,
    and two seeds give different photos. ``held_out=True`` is refused for ``train``/``val``.
    ``ranks`` and ``family`` are :func:`render_scene`'s: one seed in both scripts gives the
    same throws. ``crowd=True``: crowded trays of :data:`CROWD_DICE` dice instead.
    """
    if kind not in KINDS:
        raise BadRender(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    if n_images < 0:
        raise BadRender(f"cannot render {n_images} images")
    if not split.replace("-", "").replace("_", "").isalnum():
        raise BadRender(f"split must be a plain name like 'train' or 'test', not {split!r}")
    if ranks is not None:
        _check_script(ranks)
    if held_out and split in ("train", "val"):
        raise BadRender("held-out families and trays are for measuring only: write them to 'test'")
    out_dir = Path(out_dir)
    images = out_dir / "images" / split
    labels = out_dir / "labels" / split
    images.mkdir(parents=True, exist_ok=True)
    labels.mkdir(parents=True, exist_ok=True)
    rows = []
    throw = {"kind": kind, "family": family, "held_out": held_out, "size": size}
    dice = CROWD_DICE if crowd else (1, 6)
    for i in range(n_images):
        rng = np.random.default_rng([seed, i])  # each photo can be re-rendered on its own
        n_dice = int(rng.integers(dice[0], dice[1] + 1))
        scene = render_scene(rng, n_dice, ranks=ranks, crowd=crowd, **throw)
        stem = f"s{seed}-{i:05d}"
        cv2.imwrite(str(images / f"{stem}.jpg"), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 95])
        h, w = scene.image.shape[:2]
        lines = []
        for face, value, (x, y, bw, bh) in scene.labels():
            lines.append(
                f"{face_class(face, value)} {(x + bw / 2) / w:.6f} {(y + bh / 2) / h:.6f} "
                f"{bw / w:.6f} {bh / h:.6f}"
            )
        (labels / f"{stem}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
        rows.append((stem, scene.tray.name, " ".join(d.art.name for d in scene.dice)))
    with (out_dir / f"renders-{split}.csv").open("a", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        if fh.tell() == 0:
            writer.writerow(("image", "tray", "families"))
        writer.writerows(rows)
    (out_dir / "data.yaml").write_text(_data_yaml(out_dir), encoding="utf-8")


def sample_sheet(family: str, seed: int = 0, tile: int = 88, kind: str = "pips") -> np.ndarray:
    """Six close-ups of one family's dice, values 1..6, from two rendered throws (for docs).

    Each close-up is cut from a full 640x640 render around one die, so it shows the
    photo's real scale, light and noise. ``kind`` matters only to ``family="random"``.
    """
    crops = []
    rng = np.random.default_rng(seed)
    for values in ([1, 2, 3], [4, 5, 6]):
        scene = render_scene(rng, 3, kind=kind, family=family, values=values)
        h, w = scene.image.shape[:2]
        for die in scene.dice:
            x, y, bw, bh = die.box
            side = int(max(bw, bh) * 1.35)
            x0 = min(max(x + bw // 2 - side // 2, 0), w - side)
            y0 = min(max(y + bh // 2 - side // 2, 0), h - side)
            crop = scene.image[y0 : y0 + side, x0 : x0 + side]
            crops.append(cv2.resize(crop, (tile, tile), interpolation=cv2.INTER_AREA))
    return np.vstack([np.hstack(crops[:3]), np.hstack(crops[3:])])
