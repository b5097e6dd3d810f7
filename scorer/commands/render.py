"""``scorer render``: write a set of rendered dice photos with YOLO labels."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from scorer.errors import ScorerError
from scorer.vision.synth import KINDS, write_dataset


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``scorer render`` to the command line."""
    parser = subparsers.add_parser(
        "render",
        help="render photos of thrown dice with labels (YOLO layout)",
        description=(
            "Render top-down photos of 1-6 thrown dice (pip or poker-dice faces) with their "
            "labels, in the layout of ../shared/datasets. --held-out uses only the art "
            "families and tray colours that training never sees."
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
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Render the set and say where it went."""
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
    )
    seconds = time.perf_counter() - start
    print(
        f"rendered {args.images} {args.kind} photos ({'held-out' if args.held_out else 'train'} "
        f"families) into {args.out_dir}/images/{args.split} in {seconds:.1f} s"
    )
    return 0
