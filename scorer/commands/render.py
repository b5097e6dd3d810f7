"""``scorer render``: write a set of rendered dice photos with YOLO labels."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import cv2
import numpy as np

from scorer.dice import RANK_SCRIPTS
from scorer.errors import ScorerError
from scorer.render.scene import (
    FAMILIES,
    HELD_OUT_FAMILIES,
    KINDS,
    RANDOM,
    RANDOM_PLAYING_CARDS,
    render_scene,
    sample_sheet,
    write_dataset,
)

#: Sample pictures stay small: docs/rendering.md shows them, the repository carries them.
SAMPLE_BYTES = 58_000


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``scorer render`` to the command line."""
    parser = subparsers.add_parser(
        "render",
        help="render photos of thrown dice with labels (YOLO layout)",
        description=(
            "Render top-down photos of 1-6 thrown dice (8-30 with --crowd; pip or poker-dice "
            "faces) with their labels, in the layout of ../shared/datasets. --held-out uses "
            "only the art families and tray colours that training never sees."
        ),
    )
    parser.add_argument("out_dir", type=Path, help="folder of the set (created if missing)")
    parser.add_argument("--images", type=int, default=100, help="how many photos (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--kind", choices=KINDS, default="pips", help="dice faces (default pips)")
    parser.add_argument(
        "--held-out", action="store_true", help="only held-out families and tray colours"
    )
    parser.add_argument("--split", default="test", help="split folder name (default test)")
    parser.add_argument(
        "--ranks",
        choices=RANK_SCRIPTS,
        default=None,
        help="the script every poker die prints its ranks in: latin (9 10 J Q K A) or "
        "cyrillic (9 10 В Д К Т, as Russian and Ukrainian dice do); the same throws either "
        "way (default: as each family prints them, the fixed families Latin)",
    )
    parser.add_argument(
        "--family",
        choices=(RANDOM, RANDOM_PLAYING_CARDS),
        default=None,
        help="every make drawn fresh at random (random), or poker dice printed as small "
        "playing cards, fresh at random (random-playing-cards); default: the fixed families",
    )
    parser.add_argument(
        "--crowd",
        action="store_true",
        help="crowded trays: 8-30 dice a photo, packed so that many touch, smaller in the frame",
    )
    parser.add_argument(
        "--samples",
        action="store_true",
        help="instead of a set, write small sample PNGs: one sheet per family, three throws",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Render the set and say where it went."""
    if args.samples:
        return write_samples(args.out_dir, args.seed)
    if args.images < 1:
        raise ScorerError(f"--images must be at least 1, not {args.images}")
    start = time.perf_counter()
    write_dataset(
        args.out_dir,
        args.images,
        args.seed,
        kind=args.kind,
        held_out=args.held_out,
        split=args.split,
        ranks=args.ranks,
        family=args.family,
        crowd=args.crowd,
    )
    seconds = time.perf_counter() - start
    families = args.family or ("held-out" if args.held_out else "train")
    crowded = "crowded " if args.crowd else ""
    print(
        f"rendered {args.images} {crowded}{args.kind} photos ({families} families) into "
        f"{args.out_dir}/images/{args.split} in {seconds:.1f} s"
    )
    return 0


def write_samples(out_dir: Path, seed: int) -> int:
    """docs/rendering.md's pictures: close-ups of every family and three throws, small PNGs."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for i, name in enumerate((*FAMILIES, *HELD_OUT_FAMILIES)):
        _write_small_png(out_dir / f"{name}.png", sample_sheet(name, seed * 1000 + i))
    for i, (kind, held_out) in enumerate((("pips", False), ("cards", False), ("mixed", True))):
        rng = np.random.default_rng(seed * 100 + 11 + i)
        scene = render_scene(rng, 5, kind=kind, held_out=held_out)
        small = cv2.resize(scene.image, (240, 240), interpolation=cv2.INTER_AREA)
        _write_small_png(out_dir / f"throw-{kind}{'-held-out' if held_out else ''}.png", small)
    # randomised art, as half the rendered training throws use it
    for i in (1, 2):
        sheet = sample_sheet("random", seed * 1000 + 50 + i, kind="cards")
        _write_small_png(out_dir / f"random-cards-{i}.png", sheet)
    scene = render_scene(np.random.default_rng(seed * 100 + 20), 5, kind="cards", family="random")
    small = cv2.resize(scene.image, (240, 240), interpolation=cv2.INTER_AREA)
    _write_small_png(out_dir / "random-cards-throw.png", small)
    # poker dice printed as small playing cards, as a third of them may be in training
    sheet = sample_sheet(RANDOM_PLAYING_CARDS, seed * 1000 + 60, kind="cards")
    _write_small_png(out_dir / "random-playing-cards.png", sheet)
    # held-out poker dice printing Cyrillic ranks, as Russian and Ukrainian dice do
    rng = np.random.default_rng(seed * 100 + 21)
    scene = render_scene(rng, 5, kind="cards", held_out=True, ranks="cyrillic")
    small = cv2.resize(scene.image, (240, 240), interpolation=cv2.INTER_AREA)
    _write_small_png(out_dir / "throw-cards-cyrillic.png", small)
    # a crowded tray of held-out dice, many touching (--crowd)
    scene = render_scene(
        np.random.default_rng(seed * 100 + 28), 24, kind="mixed", crowd=True, held_out=True
    )
    boxes = np.array([box for _, _, box in scene.labels()])
    (x0, y0), (x1, y1) = boxes[:, :2].min(0), (boxes[:, :2] + boxes[:, 2:]).max(0)
    half, (cx, cy) = max(x1 - x0, y1 - y0) // 2 + 16, ((x0 + x1) // 2, (y0 + y1) // 2)
    heap = scene.image[max(cy - half, 0) : cy + half, max(cx - half, 0) : cx + half]
    _write_small_png(out_dir / "throw-crowd-held-out.png", heap)
    print(f"wrote {len(FAMILIES) + len(HELD_OUT_FAMILIES) + 9} sample PNGs into {out_dir}")
    return 0


def _write_small_png(path: Path, image: np.ndarray, limit: int = SAMPLE_BYTES) -> None:
    """Write a PNG under ``limit`` bytes, shrinking the picture a little at a time if needed."""
    while True:
        ok, buf = cv2.imencode(".png", image, [cv2.IMWRITE_PNG_COMPRESSION, 9])
        if not ok:
            raise ScorerError(f"cannot encode {path.name} as PNG")
        if len(buf) <= limit or min(image.shape[:2]) < 64:
            path.write_bytes(buf.tobytes())
            return
        h, w = image.shape[:2]
        image = cv2.resize(image, (round(w * 0.92), round(h * 0.92)), interpolation=cv2.INTER_AREA)
