"""Labelled photos of thrown dice in YOLO layout, as the shared sets and the renderer write them.

A set is a folder with ``data.yaml`` (class index -> face, and ``box: die|pips``),
``images/<split>/`` and ``labels/<split>/<stem>.txt``. Both ``scorer eval`` and the
training code read sets through this module so they agree on what a label means.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from scorer.dice import CARD_RANKS
from scorer.errors import ScorerError

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")
_PIPS = re.compile(r"^(?:pips?[_ -]?)?([1-6])$", re.IGNORECASE)
_CARD = re.compile(r"^(?:cards?[_ -]?)?(9|10|J|Q|K|A)$", re.IGNORECASE)


class BadDataset(ScorerError):
    """A folder that is not a YOLO set of dice photos."""


@dataclass(frozen=True)
class LabelledDie:
    """One labelled die: face kind, value 1..6 and its box [x, y, w, h] in pixels."""

    face: str
    value: int
    box: tuple[float, float, float, float]

    @property
    def centre(self) -> tuple[float, float]:
        x, y, w, h = self.box
        return x + w / 2, y + h / 2


@dataclass(frozen=True)
class LabelledPhoto:
    """A photo and the dice a person (or the renderer) says it shows."""

    path: Path
    dice: tuple[LabelledDie, ...]
    box_kind: str  # "die": box is the whole die; "pips": only the top face's pip pattern


@dataclass(frozen=True)
class DatasetInfo:
    """What ``data.yaml`` says: which face each class is and what a box covers."""

    root: Path
    classes: dict[int, tuple[str, int]]
    box_kind: str
    split_dirs: dict[str, str]


def _parse_class_name(index: int, name: str) -> tuple[str, int]:
    text = name.strip().strip("'\"")
    if m := _PIPS.match(text):
        return "pips", int(m.group(1))
    if m := _CARD.match(text):
        return "card", CARD_RANKS.index(m.group(1).upper()) + 1
    if 0 <= index <= 5:
        return "pips", index + 1
    if 6 <= index <= 11:
        return "card", index - 5
    raise BadDataset(f"class {index} ({name!r}) is neither a pip value 1..6 nor a card 9..A")


def read_info(root: str | Path) -> DatasetInfo:
    """Read ``data.yaml`` of a set (a small subset of YAML: keys, inline or block ``names``)."""
    root = Path(root)
    yaml_path = root / "data.yaml"
    if not yaml_path.is_file():
        raise BadDataset(f"{root} has no data.yaml: not a YOLO set of dice photos")
    classes: dict[int, tuple[str, int]] = {}
    box_kind = "die"
    split_dirs: dict[str, str] = {}
    in_names = False
    for raw in yaml_path.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        if in_names and raw[:1] in (" ", "\t", "-"):
            key, _, value = line.strip().lstrip("- ").partition(":")
            if value.strip():
                classes[int(key)] = _parse_class_name(int(key), value)
            continue
        in_names = False
        key, _, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if key == "names":
            if not value:
                in_names = True
            elif value.startswith("{"):
                for item in value.strip("{}").split(","):
                    k, _, v = item.partition(":")
                    if k.strip():
                        classes[int(k)] = _parse_class_name(int(k), v)
            elif value.startswith("["):
                for i, v in enumerate(value.strip("[]").split(",")):
                    classes[i] = _parse_class_name(i, v)
        elif key == "box":
            box_kind = value.strip("'\"")
        elif key in ("train", "val", "test"):
            split_dirs[key] = value.strip("'\"")
    if box_kind not in ("die", "pips"):
        raise BadDataset(f"{yaml_path}: box must be 'die' or 'pips', not {box_kind!r}")
    if not classes:
        classes = {i: _parse_class_name(i, "") for i in range(12)}
    return DatasetInfo(root, classes, box_kind, split_dirs)


def load_split(root: str | Path, split: str = "test") -> list[LabelledPhoto]:
    """Every photo of one split with its labelled dice, in file-name order."""
    info = read_info(root)
    images_dir = info.root / info.split_dirs.get(split, f"images/{split}")
    if not images_dir.is_dir():
        raise BadDataset(f"{info.root} has no split {split!r} (looked for {images_dir})")
    labels_dir = info.root / "labels" / images_dir.name
    if not labels_dir.is_dir() and "images" in images_dir.parts:
        parts = list(images_dir.parts)
        parts[len(parts) - 1 - parts[::-1].index("images")] = "labels"
        labels_dir = Path(*parts)
    photos = []
    for path in sorted(images_dir.iterdir()):
        if path.suffix.lower() not in IMAGE_SUFFIXES:
            continue
        size = _image_size(path)
        label_path = labels_dir / (path.stem + ".txt")
        dice = _read_labels(label_path, info.classes, size) if label_path.is_file() else ()
        photos.append(LabelledPhoto(path, dice, info.box_kind))
    return photos


def _image_size(path: Path) -> tuple[int, int]:
    import cv2

    image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if image is None:
        raise BadDataset(f"cannot read image {path}")
    height, width = image.shape[:2]
    return width, height


def _read_labels(
    path: Path, classes: dict[int, tuple[str, int]], size: tuple[int, int]
) -> tuple[LabelledDie, ...]:
    width, height = size
    dice = []
    for line in path.read_text(encoding="utf-8").splitlines():
        fields = line.split()
        if len(fields) < 5:
            continue
        cls = int(float(fields[0]))
        if cls not in classes:
            raise BadDataset(f"{path}: class {cls} is not in data.yaml")
        cx, cy, w, h = (float(v) for v in fields[1:5])
        face, value = classes[cls]
        box = ((cx - w / 2) * width, (cy - h / 2) * height, w * width, h * height)
        dice.append(LabelledDie(face, value, box))
    return tuple(dice)
