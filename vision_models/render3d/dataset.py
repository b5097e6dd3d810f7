"""The render cache: a YOLO set in the layout of ../shared/datasets, written as it goes.

Photo ``i`` of a split is always drawn from the same plan seed, and a photo counts as
written once its image file exists (its label and notes are renamed into place first),
so a run that is stopped, killed or crashes loses at most the photo it was on: the
next run starts at the first photo missing. Nothing here imports Blender.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from scorer.dice import CLASS_NAMES, face_class

#: Bump when a change to the renderer makes old photos unlike new ones: a new folder.
#: 2: a train make's court pictures no longer name the court (``faces.PICTURES``).
#: 3: a die is dropped in any turn, each as likely (``geometry.drop_turn``): every face comes
#: up as often, where 2 and 5 came up half the time.
#: 4: a translucent body is clear plastic coloured through, and lets light through to the
#: tray and the faces below (``blender._clear_plastic``): until then a tinted glass surface,
#: which Cycles renders dark where no light reaches inside it.
#: ``--version 1`` still renders the first look, which the older networks learnt from.
VERSION = 4
VERSIONS = (1, 2, 3, 4)
SPLIT_CODES = {"train": 1, "test": 2}


def default_root(version: int = VERSION) -> Path:
    """``$XDG_CACHE_HOME/dice-scorer/render3d/v<version>`` (``~/.cache`` by default)."""
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "dice-scorer" / "render3d" / f"v{version}"


def plan_seed(base: int, split: str, index: int) -> int:
    """The plan seed of photo ``index`` of a split: fixed, so reruns redraw the same photo."""
    if split not in SPLIT_CODES:
        raise ValueError(f"split must be one of {', '.join(SPLIT_CODES)}, not {split!r}")
    if index < 0 or base < 0:
        raise ValueError("photo index and base seed must not be negative")
    return (base << 28) + (SPLIT_CODES[split] << 24) + index


@dataclass(frozen=True)
class LabelledDie:
    face: str  # "pips" or "card"
    value: int  # 1..6
    box: tuple[float, float, float, float]  # x, y, w, h in pixels


def yolo_lines(dice: list[LabelledDie], width: int, height: int) -> str:
    """One ``class cx cy w h`` line a die, normalised to the image."""
    lines = []
    for die in dice:
        x, y, w, h = die.box
        lines.append(
            f"{face_class(die.face, die.value)} {(x + w / 2) / width:.6f} "
            f"{(y + h / 2) / height:.6f} {w / width:.6f} {h / height:.6f}"
        )
    return "".join(line + "\n" for line in lines)


def write_data_yaml(root: Path) -> None:
    names = ", ".join(f'{i}: "{n}"' for i, n in enumerate(CLASS_NAMES))
    text = "\n".join(
        [
            "# Rendered by vision_models.render3d (Blender Cycles). YOLO labels: class x_center",
            "# y_center width height (normalised). Box = the whole die. Classes 0..5: pip faces",
            "# 1..6; 6..11: card ranks 9..A. test = photos showing held-out families.",
            "path: .",
            "train: images/train",
            "test: images/test",
            f"names: {{{names}}}",
            "box: die",
        ]
    )
    root.mkdir(parents=True, exist_ok=True)
    _replace(root / "data.yaml", (text + "\n").encode())


def _replace(path: Path, data: bytes) -> None:
    """Write a file whole or not at all (a rename is atomic on one file system)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def image_path(root: Path, split: str, index: int) -> Path:
    return root / "images" / split / f"{split}-{index:06d}.jpg"


def is_written(root: Path, split: str, index: int) -> bool:
    return image_path(root, split, index).is_file()


def write_photo(
    root: Path,
    split: str,
    index: int,
    image: np.ndarray,
    dice: list[LabelledDie],
    notes: dict,
    jpeg_quality: int = 92,
) -> Path:
    """Store one rendered photo: notes and label first, the image (the commit) last."""
    path = image_path(root, split, index)
    stem = path.stem
    for folder in ("images", "labels", "notes"):
        (root / folder / split).mkdir(parents=True, exist_ok=True)
    _replace(root / "notes" / split / f"{stem}.json", json.dumps(notes, sort_keys=True).encode())
    _write_labelled(root, split, path, image, dice, jpeg_quality)
    return path


def _write_labelled(
    root: Path, split: str, path: Path, image: np.ndarray, dice: list[LabelledDie], quality: int
) -> None:
    """An image's label, then the image itself (the commit)."""
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise ValueError(f"could not encode {path.stem}")
    height, width = image.shape[:2]
    _replace(root / "labels" / split / f"{path.stem}.txt", yolo_lines(dice, width, height).encode())
    _replace(path, jpeg.tobytes())


#: close-up throws draw their plans from this base seed (added to ``--seed``): throws of
#: their own, not again the whole photos' throws seen closer
CLOSE_UP_SEED = 1


def default_close_up_root(version: int = VERSION) -> Path:
    """``.../render3d/v<version>-close-ups`` beside the photo cache."""
    root = default_root(version)
    return root.with_name(f"{root.name}-close-ups")


def close_up_path(root: Path, split: str, index: int, k: int) -> Path:
    return root / "images" / split / f"{split}-{index:06d}-{k:02d}.jpg"


def throw_notes(root: Path, split: str, index: int) -> Path:
    return root / "notes" / split / f"{split}-{index:06d}.json"


def close_ups_written(root: Path, split: str, index: int) -> bool:
    """Whether throw ``index``'s close-ups are all written: its notes come last."""
    return throw_notes(root, split, index).is_file()


def write_close_ups(
    root: Path,
    split: str,
    index: int,
    shots: list[tuple[np.ndarray, list[LabelledDie]]],
    notes: dict,
    jpeg_quality: int = 92,
) -> list[Path]:
    """Store one throw's close-ups (each its label, then its image) and the throw's notes
    last: a throw stopped halfway is rendered again whole, its files replaced."""
    for folder in ("images", "labels", "notes"):
        (root / folder / split).mkdir(parents=True, exist_ok=True)
    # a throw stopped halfway on another machine may have left more squares than this one
    for old in (root / "images" / split).glob(f"{split}-{index:06d}-*.jpg"):
        old.unlink()
    paths = []
    for k, (image, dice) in enumerate(shots):
        path = close_up_path(root, split, index, k)
        _write_labelled(root, split, path, image, dice, jpeg_quality)
        paths.append(path)
    _replace(throw_notes(root, split, index), json.dumps(notes, sort_keys=True).encode())
    return paths


def schedule(train: int, test: int) -> list[tuple[str, int]]:
    """The order photos are rendered in: the splits interleaved, so any prefix of a run
    holds both in proportion."""
    if train < 0 or test < 0:
        raise ValueError("photo counts must not be negative")
    order = [("train", i, (i + 0.5) / max(train, 1)) for i in range(train)]
    order += [("test", i, (i + 0.5) / max(test, 1)) for i in range(test)]
    order.sort(key=lambda item: (item[2], item[0] != "test"))
    return [(split, i) for split, i, _ in order]


def contact_sheet(root: Path, split: str, count: int = 12, tile: int = 320) -> np.ndarray:
    """The first ``count`` photos of a split with each die's box and label drawn: a look at
    what the renderer makes (green boxes, pip values as digits, card ranks as 9..A)."""
    folder = root / "images" / split
    paths = sorted(folder.glob("*.jpg"))[:count] if folder.is_dir() else []
    if not paths:
        raise ValueError(f"{folder} holds no rendered photos yet")
    tiles = []
    for path in paths:
        photo = cv2.imread(str(path), cv2.IMREAD_COLOR)
        height, width = photo.shape[:2]
        k = tile / max(height, width)
        size = (round(width * k), round(height * k))
        image = cv2.resize(photo, size, interpolation=cv2.INTER_AREA)
        label = root / "labels" / split / f"{path.stem}.txt"
        for line in label.read_text().splitlines() if label.is_file() else []:
            cls, cx, cy, w, h = line.split()
            x0 = round((float(cx) - float(w) / 2) * size[0])
            y0 = round((float(cy) - float(h) / 2) * size[1])
            x1, y1 = x0 + round(float(w) * size[0]), y0 + round(float(h) * size[1])
            cv2.rectangle(image, (x0, y0), (x1, y1), (0, 255, 0), 1)
            name = CLASS_NAMES[int(cls)]
            cv2.putText(image, name, (x0, max(y0 - 2, 8)), 0, 0.35, (0, 255, 255), 1, cv2.LINE_AA)
        canvas = np.zeros((tile, tile, 3), np.uint8)
        canvas[: size[1], : size[0]] = image
        tiles.append(canvas)
    cols = min(4, len(tiles))
    while len(tiles) % cols:
        tiles.append(np.zeros_like(tiles[0]))
    rows = [np.hstack(tiles[i : i + cols]) for i in range(0, len(tiles), cols)]
    return np.vstack(rows)
