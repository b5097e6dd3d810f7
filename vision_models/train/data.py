"""Training data for the dice reader: real photos (train splits only), rendered throws,
and the augmentations that make a model read dice it has never seen.

Everything is decoded once and kept in memory; samples are cut on the fly with one affine
warp each, so two CPU cores keep up with the networks.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from scorer.dice import BACKGROUND, CARDS, face_class
from scorer.vision.crop import COURT_INPUT, COURT_SPAN, CROP_SPAN, FACE_INPUT, tilt
from scorer.vision.labelled import LabelledPhoto, load_split
from scorer.vision.reader import COURTS

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "datasets"
PATCH = 112  # cached die patches: side = PATCH_SPAN * die side, resized to PATCH px
PATCH_SPAN = 3.0
COURT_PATCH = 192  # the court network's patches: a die 64 px wide, its crops' full detail


@dataclass
class Photo:
    """A decoded training photo with die centres, die sides (pixels) and classes 0..11."""

    image: np.ndarray
    centres: np.ndarray  # (n, 2) float32
    sides: np.ndarray  # (n,) float32, the whole die's side
    classes: np.ndarray  # (n,) int64, 0..5 pips 1..6, 6..11 cards 9..A
    source: str
    sized: bool = True  # False: the side is an estimate (labels covered only the pips)


#: the shared real photo sets every network learns from
REAL_SETS = ("tray-multicolor", "webcam-white")


def load_real(split: str = "train") -> list[Photo]:
    """The shared real photo sets (``REAL_SETS``) of one split."""
    photos: list[Photo] = []
    for name in REAL_SETS:
        root = SHARED / name
        if not root.is_dir():
            continue
        for lp in load_split(root, split):
            image = cv2.imread(str(lp.path), cv2.IMREAD_COLOR)
            if image is None or not lp.dice:
                continue
            centres = np.array([d.centre for d in lp.dice], np.float32)
            classes = np.array([face_class(d.face, d.value) for d in lp.dice], np.int64)
            boxes = np.array([d.box[2:] for d in lp.dice], np.float32)
            if lp.box_kind == "die":
                sides = boxes.max(1)
                sized = True
            else:
                # The label boxes only cover the pip pattern: a die is a bit larger than the
                # largest pattern in the photo (all dice in one photo are at one height).
                side = float(boxes.max()) * 1.15
                sides = np.maximum(boxes.max(1) * 1.1, side).astype(np.float32)
                sized = bool((classes % 6 >= 3).any())
            photos.append(Photo(image, centres, sides, classes, name, sized))
    return photos


def load_crops() -> list[Photo]:
    """Single-die crops (folder = face): one die filling most of each small photo."""
    root = SHARED / "single-die-crops"
    words = ("one", "two", "three", "four", "five", "six")
    photos = []
    for value, word in enumerate(words, start=1):
        folder = root / word
        if not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                continue
            h, w = image.shape[:2]
            side = 0.8 * min(h, w)
            photos.append(
                Photo(
                    image,
                    np.array([[w / 2, h / 2]], np.float32),
                    np.array([side], np.float32),
                    np.array([value - 1]),
                    "single-die-crops",
                )
            )
    return photos


#: The source of a crowded rendered throw's photo (``load_rendered(crowd=True)``).
CROWD = "crowd"


def load_rendered(
    n_images: int,
    seed: int,
    families: list[str] | None = None,
    kinds: tuple[str, ...] = ("cards", "mixed", "pips", "cards"),
    most_slant: float | None = None,
    crowd: bool = False,
) -> list[Photo]:
    """Throws drawn by ``scorer.render.scene`` (pips, cards and mixed), if it is there.

    By default half the throws use freshly randomised art (``family="random"``), half the
    fixed train families: a rank must be learnt as a rank, not as one maker's print.
    ``most_slant``: the most (radians) a slanted camera leans (None: the renderer's own).
    ``crowd``: crowded trays (``scorer.render.scene.CROWD_DICE`` dice, many touching),
    their source :data:`CROWD` so the finder can learn them rather than keep them.
    """
    try:
        from scorer import render
        from scorer.render.scene import CROWD_DICE
    except ImportError:
        return []
    rng = np.random.default_rng(seed)
    fams: list[str | None] = list(families) if families is not None else [render.RANDOM, None]
    lean = {} if most_slant is None else {"most_slant": most_slant}
    photos = []
    for i in range(n_images):
        kind = kinds[i % len(kinds)]
        family = fams[int(rng.integers(len(fams)))] if fams else None  # None: any train family
        n = int(rng.integers(CROWD_DICE[0], CROWD_DICE[1] + 1) if crowd else rng.integers(1, 8))
        image, labels = render.render_throw(
            rng, n, kind=kind, family=family, size=(640, 640), crowd=crowd, **lean
        )
        if image.ndim == 2:
            image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        if not labels:
            continue
        centres = np.array([(x + w / 2, y + h / 2) for _, _, (x, y, w, h) in labels], np.float32)
        sides = np.array([max(w, h) for _, _, (x, y, w, h) in labels], np.float32)
        classes = np.array([face_class(f, v) for f, v, _ in labels], np.int64)
        source = CROWD if crowd else f"rendered:{family}"
        photos.append(Photo(image, centres, sides, classes, source))
    return photos


def _render3d_train(root: Path | None) -> list[LabelledPhoto]:
    """The 3D render cache's labelled train photos in index order ([] where none)."""
    from vision_models.render3d.dataset import default_root

    root = root if root is not None else default_root()
    if not (root / "data.yaml").is_file() or not (root / "images" / "train").is_dir():
        return []
    return load_split(root, "train")


def render3d_cached(root: Path | None = None) -> int:
    """How many train photos the 3D render cache holds (a photo whose dice all left the
    tray counts: it is photo *i* all the same, though it teaches nothing)."""
    return len(_render3d_train(root))


def load_render3d_tables(tables: Sequence[int], ranks: str, version: int) -> list[Photo]:
    """The train photos of 3D-rendered tables of poker dice printing ``ranks`` (``python -m
    vision_models.render3d --table N --kind cards --cyrillic --train K``), each table one
    make of train-family dice under one camera: what the letters look like as a camera sees
    them, for a script's own networks to learn and be calibrated on; ``version``: the
    renderer's look they were rendered in."""
    from vision_models.render3d.dataset import default_root

    cache = default_root(version)
    roots = [cache.with_name(f"{cache.name}-table{n}-cards-{ranks}") for n in tables]
    missing = [r.name for r in roots if not (r / "images" / "train").is_dir()]
    if missing:
        # a run without them would learn other networks than the card says: refuse
        raise SystemExit(
            f"no train photos of 3D tables {', '.join(missing)} in {cache.parent}: "
            "`make cyrillic-tables` renders them"
        )
    return [photo for root in roots for photo in load_render3d(None, root)]


#: a close-up render's source: one die alone in its square (``render3d --close-ups``)
CLOSE_UP = "render3d-close-up"


def load_close_ups(count: int, root: Path) -> list[Photo]:
    """The close-ups of the first ``count`` train throws of a close-up cache (``python -m
    vision_models.render3d --close-ups``), one photo each, its die centred: the face stage
    learns their dice (never bits of their floor: a square of a few sides shows little)."""
    from vision_models.render3d.dataset import close_ups_written

    folder = root / "images" / "train"
    if not (root / "data.yaml").is_file() or not folder.is_dir():
        return []
    photos = []
    for lp in load_split(root, "train"):
        throw = int(lp.path.stem.split("-")[1])
        # a throw stopped halfway (no notes yet) is rendered again whole: not yet
        if throw >= count or not lp.dice or not close_ups_written(root, "train", throw):
            continue
        image = cv2.imread(str(lp.path), cv2.IMREAD_COLOR)
        h, w = image.shape[:2]
        # the die the square was cut about; a neighbour in it is cut off by its edge
        die = min(lp.dice, key=lambda d: math.dist(d.centre, (w / 2, h / 2)))
        photos.append(
            Photo(
                image,
                np.array([die.centre], np.float32),
                np.array([max(die.box[2:])], np.float32),
                np.array([face_class(die.face, die.value)], np.int64),
                CLOSE_UP,
            )
        )
    return photos


def close_up_throws(root: Path) -> int:
    """How many train throws a close-up cache holds whole (their notes written)."""
    folder = root / "notes" / "train"
    return len(list(folder.glob("train-*.json"))) if folder.is_dir() else 0


def load_render3d(count: int | None = None, root: Path | None = None) -> list[Photo]:
    """The physically based renders (``vision_models/render3d``) cached so far, train split.

    The first ``count`` photos by index (all when None): photo *i* is always the same
    photo, so a run that names its count is repeatable on any machine that rendered that
    far (``make renders``). Photos are up to 1024 px on the long side; the finder's and the
    face stage's samplers scale them as they do the real sets.
    """
    labelled = _render3d_train(root)
    if count is not None:
        labelled = labelled[:count]
    return _render3d_photos(labelled)


def load_twins(plans: int, root: Path) -> list[Photo]:
    """The twins (``render3d --smoky``: the same throws with other dice) of a cache's first
    ``plans`` train photos, where rendered: a throw with no die to change has none, so the
    twins are chosen by the photo they twin, not by their count."""
    twinned = [lp for lp in _render3d_train(root) if int(lp.path.stem.split("-")[-1]) < plans]
    return _render3d_photos(twinned)


def _render3d_photos(labelled: list[LabelledPhoto]) -> list[Photo]:
    photos = []
    for lp in labelled:
        image = cv2.imread(str(lp.path), cv2.IMREAD_COLOR)
        if image is None or not lp.dice:
            continue
        centres = np.array([d.centre for d in lp.dice], np.float32)
        sides = np.array([max(d.box[2:]) for d in lp.dice], np.float32)
        classes = np.array([face_class(d.face, d.value) for d in lp.dice], np.int64)
        photos.append(Photo(image, centres, sides, classes, "render3d"))
    return photos


# ---------------------------------------------------------------- augmentation


def colour_jitter(img: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """Hue, saturation, brightness, contrast, gamma, white balance: other tables, other light.

    ``strength`` scales every change (1 = full, 0 = none).
    """
    img = img.astype(np.float32)
    k = strength
    if rng.random() < 0.6:
        hsv = cv2.cvtColor(np.clip(img, 0, 255).astype(np.uint8), cv2.COLOR_BGR2HSV).astype(
            np.float32
        )
        hsv[..., 0] = (hsv[..., 0] + rng.uniform(-90, 90) * k) % 180
        hsv[..., 1] *= 1 + k * (rng.uniform(0.5, 1.4) - 1)
        img = cv2.cvtColor(np.clip(hsv, 0, 255).astype(np.uint8), cv2.COLOR_HSV2BGR).astype(
            np.float32
        )
    img *= (1 + k * (rng.uniform(0.8, 1.2, size=3) - 1)).astype(np.float32)  # white balance
    mean = img.mean()
    img = (img - mean) * (1 + k * (rng.uniform(0.6, 1.4) - 1)) + mean * (
        1 + k * (rng.uniform(0.6, 1.4) - 1)
    )
    img = np.clip(img, 0, 255)
    if rng.random() < 0.3:
        img = 255.0 * (img / 255.0) ** (1 + k * (rng.uniform(0.6, 1.6) - 1))
    if rng.random() < 0.1 * k:
        g = cv2.cvtColor(img.astype(np.uint8), cv2.COLOR_BGR2GRAY)
        img = cv2.cvtColor(g, cv2.COLOR_GRAY2BGR).astype(np.float32)
    return img


def degrade(
    img: np.ndarray, rng: np.random.Generator, scale: float = 1.0, strength: float = 1.0
) -> np.ndarray:
    """Blur, sensor noise and JPEG: cheaper cameras than the ones that took the photos.

    ``strength`` scales blur, noise and JPEG loss (1 = full), as in ``colour_jitter``.
    """
    if rng.random() < 0.35:
        k = rng.uniform(0.3, 1.4) * scale * strength
        img = cv2.GaussianBlur(img, (0, 0), max(k, 0.1))
    if rng.random() < 0.4:
        img = img + rng.normal(0, rng.uniform(2, 12) * strength, img.shape).astype(np.float32)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        q = int(rng.integers(25, 90))
        q = round(100 - (100 - q) * strength)
        ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
        if ok:
            img = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return img


def random_affine(
    centre: tuple[float, float], angle: float, scale: float, out_centre: tuple[float, float]
) -> np.ndarray:
    m = cv2.getRotationMatrix2D(centre, angle, scale)
    m[0, 2] += out_centre[0] - centre[0]
    m[1, 2] += out_centre[1] - centre[1]
    return m


def transform(points: np.ndarray, m: np.ndarray) -> np.ndarray:
    return points @ m[:, :2].T + m[:, 2]


# ---------------------------------------------------------------- detector samples


def finder_sample(
    photo: Photo, rng: np.random.Generator, out: int = 256, stride: int = 4
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A warped crop in the finder's 320-letterbox scale, with heatmap, side and masks."""
    h, w = photo.image.shape[:2]
    base = 320.0 / max(h, w)
    scale = base * math.exp(rng.uniform(math.log(0.55), math.log(2.2)))
    if rng.random() < 0.3 and len(photo.centres):
        anchor = photo.centres[rng.integers(len(photo.centres))] + rng.normal(0, 20, 2)
    else:
        anchor = np.array([rng.uniform(0, w), rng.uniform(0, h)])
    angle = rng.uniform(0, 360) if rng.random() < 0.8 else 90.0 * int(rng.integers(4))
    m = random_affine((float(anchor[0]), float(anchor[1])), angle, scale, (out / 2, out / 2))
    if rng.random() < 0.5:  # mirror: dice faces are mirror-symmetric enough for finding
        m = np.array([[-1, 0, out], [0, 1, 0]], np.float64) @ np.vstack([m, [0, 0, 1]])
    border = tuple(float(v) for v in rng.integers(0, 256, 3))
    img = cv2.warpAffine(photo.image, m, (out, out), flags=cv2.INTER_LINEAR, borderValue=border)
    img = degrade(colour_jitter(img, rng), rng)
    g = out // stride
    heat = np.zeros((g, g), np.float32)
    side = np.zeros((g, g), np.float32)
    mask = np.zeros((g, g), np.float32)
    if len(photo.centres):
        pts = transform(photo.centres.astype(np.float64), m) / stride
        sides = photo.sides * scale
        ys, xs = np.mgrid[0:g, 0:g].astype(np.float32)
        for (cx, cy), s in zip(pts, sides, strict=True):
            if not (-2 <= cx < g + 2 and -2 <= cy < g + 2):
                continue
            sigma = max(s / stride / 5.0, 0.6)
            heat = np.maximum(heat, np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * sigma**2)))
            ix, iy = int(cx), int(cy)
            if 0 <= ix < g and 0 <= iy < g:
                heat[iy, ix] = 1.0
                side[iy, ix] = math.log(max(s, 2.0) / 16.0)
                mask[iy, ix] = 1.0 if photo.sized else 0.0
    return img, heat, side, mask


# ---------------------------------------------------------------- face samples


#: Share of die samples cut where the reader's own finder saw the die, when it did.
READER_VIEW_SHARE = 0.6


#: crops from photos taken through a lens (real ones, and Cycles' renders with their noise,
#: blur and JPEG) get their colour and camera jitter at this strength, 2D renders at 1
REAL_JITTER = 0.5
REAL_SOURCES = ("tray-multicolor", "webcam-white", "single-die-crops", "render3d", CLOSE_UP)


@dataclass
class Patch:
    """A die (or a bit of table) cut at PATCH_SPAN x its side, resized to PATCH px.

    ``seen``: where the reader's finder put this die, as (dx, dy, side ratio) relative to
    the label's centre and side, or None when it was not looked for or not found.
    """

    image: np.ndarray
    label: int
    source: str
    seen: tuple[float, float, float] | None = None


def cut_patch(image: np.ndarray, centre: np.ndarray, side: float, size: int = PATCH) -> np.ndarray:
    span = PATCH_SPAN * side
    s = size / span
    m = np.array([[s, 0, size / 2 - s * centre[0]], [0, s, size / 2 - s * centre[1]]])
    interp = cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
    return cv2.warpAffine(image, m, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE)


def court_patches(photo: Photo, seen: np.ndarray | None = None) -> list[Patch]:
    """The jacks, queens and kings of a photo at COURT_PATCH px, labelled 0..2."""
    out = []
    for i in np.nonzero(np.isin(photo.classes, range(COURTS.start, COURTS.stop)))[0]:
        view = None
        if seen is not None and not np.isnan(seen[i]).any():
            view = (float(seen[i, 0]), float(seen[i, 1]), float(seen[i, 2]))
        image = cut_patch(photo.image, photo.centres[i], float(photo.sides[i]), COURT_PATCH)
        out.append(Patch(image, int(photo.classes[i]) - COURTS.start, photo.source, view))
    return out


def patches_of(
    photo: Photo,
    rng: np.random.Generator,
    backgrounds: int = 3,
    seen: np.ndarray | None = None,
    min_side: float = 0.0,
) -> list[Patch]:
    """Every die of a photo, plus bits of table and half-dice labelled "not a die".

    ``seen`` (n, 3): where the reader's finder saw each die (see :class:`Patch`), NaN
    where it missed it. Dice under ``min_side`` px give no sample: a die of a few pixels
    cut up to the face crop's size is a blur no camera at the table shows (still no
    table either, so bits of table keep clear of it).
    """
    views: list[tuple[float, float, float] | None] = [None] * len(photo.centres)
    if seen is not None:
        views = [
            None if np.isnan(v).any() else (float(v[0]), float(v[1]), float(v[2])) for v in seen
        ]
    out = [
        Patch(cut_patch(photo.image, c, float(s)), int(k), photo.source, v)
        for c, s, k, v in zip(photo.centres, photo.sides, photo.classes, views, strict=True)
        if s >= min_side
    ]
    if photo.source in ("single-die-crops", CLOSE_UP):
        return out
    h, w = photo.image.shape[:2]
    typical = float(np.median(photo.sides))
    dice = len(out)
    for _ in range(backgrounds * 4):
        if len(out) >= dice + backgrounds * 2:
            break
        if rng.random() < 0.5 and len(photo.centres):
            # off-centre: half a die in view, the detector's near misses
            i = int(rng.integers(len(photo.centres)))
            a = rng.uniform(0, 2 * math.pi)
            r = rng.uniform(0.55, 0.9) * photo.sides[i]
            c = photo.centres[i] + r * np.array([math.cos(a), math.sin(a)])
        else:
            c = np.array([rng.uniform(0, w), rng.uniform(0, h)])
        d = np.hypot(*(photo.centres - c).T) / photo.sides
        if len(d) and d.min() < 0.5:
            continue
        out.append(Patch(cut_patch(photo.image, c, typical), BACKGROUND, photo.source))
    return out


def _reader_cut(patch: Patch, rng: np.random.Generator) -> tuple[tuple[float, float], float]:
    """Where the reader would centre its crop in the patch, and the die's side it would
    measure (patch px): mostly where its finder saw the die (its own offset and size,
    jittered a little), otherwise off-centre by about a tenth of a side and sized
    0.83-1.2 x."""
    span_die = patch.image.shape[0] / PATCH_SPAN
    if patch.seen is not None and rng.random() < READER_VIEW_SHARE:
        dx, dy, ratio = patch.seen
        shift = (np.array([dx, dy]) + rng.normal(0, 0.03, 2)) * span_die
        ratio = float(np.clip(ratio * rng.uniform(0.95, 1.05), 1.0 / CROP_SPAN, 2.8 / CROP_SPAN))
        side = span_die * ratio
    else:
        side = span_die * rng.uniform(1.25, 1.8) / CROP_SPAN
        shift = rng.normal(0, 0.09, 2) * span_die
    n = patch.image.shape[0]
    return (n / 2 + shift[0], n / 2 + shift[1]), side


def upright(
    patch: Patch, c: tuple[float, float], side: float, angle: float, span: float, size: int
) -> np.ndarray:
    """The crop the reader cuts at ``angle`` (degrees, the die's turn in the photo): the
    turn it then takes from the face crop's edges (``tilt``), with that measure's errors."""
    scale = FACE_INPUT / (CROP_SPAN * side)
    flags = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    m = random_affine(c, angle, scale, (FACE_INPUT / 2, FACE_INPUT / 2))
    look = cv2.warpAffine(
        patch.image, m, (FACE_INPUT, FACE_INPUT), flags=flags, borderMode=cv2.BORDER_REPLICATE
    )
    scale = size / (span * side)
    flags = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    m = random_affine(c, angle + tilt(look), scale, (size / 2, size / 2))
    border = cv2.BORDER_REPLICATE
    return cv2.warpAffine(patch.image, m, (size, size), flags=flags, borderMode=border)


def court_sample(patch: Patch, rng: np.random.Generator) -> np.ndarray:
    """A court crop as the reader cuts it, in any colours: each maker inks its courts its
    own way, and no render shows them all (on the held-out renders it made no difference,
    ``courts.md``), so the rank must be read from the picture's shapes and the index."""
    c, side = _reader_cut(patch, rng)
    img = upright(patch, c, side, rng.uniform(0, 360), COURT_SPAN, COURT_INPUT)
    img = img[:, :, rng.permutation(3)]
    if rng.random() < 0.2:
        img = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    elif rng.random() < 0.3:
        img = 255 - img  # dark ink on light dice and light ink on dark dice
    return degrade(colour_jitter(img, rng), rng, scale=0.7)


def face_sample(patch: Patch, rng: np.random.Generator, size: int = 48) -> np.ndarray:
    """A 48x48 crop as the reader cuts it, with its errors (``_reader_cut``)."""
    c, side = _reader_cut(patch, rng)
    img = upright(patch, c, side, rng.uniform(0, 360), CROP_SPAN, size)
    if rng.random() < 0.5 and (patch.label < CARDS or patch.label == BACKGROUND):
        img = np.ascontiguousarray(img[:, ::-1])  # pip faces read the same mirrored, cards not
    # A real photo already has a real camera's faults; jittering it as hard as a render
    # drowns a dark die's dark pips, and the net learns to shrug at them.
    k = REAL_JITTER if patch.source in REAL_SOURCES else 1.0
    return degrade(colour_jitter(img, rng, k), rng, scale=0.7, strength=k)
