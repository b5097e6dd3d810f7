"""``scorer read`` and ``scorer eval``: the dice reader from the command line."""

from __future__ import annotations

import argparse
import functools
import json
import sys
from pathlib import Path

from scorer.dice import card_rank
from scorer.errors import ScorerError
from scorer.vision.reading import DEFAULT_THRESHOLD, FACE_KINDS, Die, Reading

FACES_HELP = "the dice in play: pips, cards (poker dice) or any (default); never read the other"
BACKEND_HELP = "what runs the networks: cv2 (OpenCV's dnn, default) or onnxruntime (if installed)"
BACKENDS = ("cv2", "onnxruntime")  # scorer.vision.reader.BACKENDS, without loading OpenCV


def register(subparsers: argparse._SubParsersAction) -> None:
    read = subparsers.add_parser("read", help="read the dice in photos of the tray")
    read.add_argument("images", nargs="+", metavar="IMAGE")
    read.add_argument("--json", action="store_true", help="one JSON object per image per line")
    read.add_argument("--tray", type=parse_tray, help="X,Y,W,H: ignore everything outside")
    read.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD)
    read.add_argument("--models", type=Path, default=None, help="folder with the ONNX models")
    read.add_argument("--faces", choices=FACE_KINDS, default="any", help=FACES_HELP)
    read.add_argument("--backend", choices=BACKENDS, default="cv2", help=BACKEND_HELP)
    read.set_defaults(run=run_read)

    ev = subparsers.add_parser("eval", help="measure the reader on a labelled YOLO set")
    ev.add_argument("dataset", type=Path, metavar="DATASET_DIR")
    ev.add_argument("--split", default="test")
    ev.add_argument("--failures", type=Path, default=None, help="write failure overlays here")
    ev.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD)
    ev.add_argument("--models", type=Path, default=None)
    ev.add_argument("--faces", choices=FACE_KINDS, default="any", help=FACES_HELP)
    ev.add_argument("--backend", choices=BACKENDS, default="cv2", help=BACKEND_HELP)
    ev.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    ev.add_argument(
        "--closer",
        type=parse_zoom,
        default=1.0,
        metavar="ZOOM",
        help="see each photo as a camera ZOOM (>= 1) times closer would (dice ZOOM times bigger)",
    )
    ev.add_argument(
        "--wider",
        type=parse_zoom,
        default=1.0,
        metavar="ZOOM",
        help="put each photo in a frame ZOOM times as wide (its dice as many times smaller)",
    )
    ev.set_defaults(run=run_eval)


def parse_zoom(text: str) -> float:
    """A zoom from 1 to 10 (``--closer``, ``--wider``)."""
    try:
        zoom = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a zoom is a number like 2, not {text!r}") from None
    if not 1.0 <= zoom <= 10.0:
        raise argparse.ArgumentTypeError(f"a zoom is from 1 to 10, not {text}")
    return zoom


def parse_tray(text: str) -> tuple[int, int, int, int]:
    """``X,Y,W,H`` in frame pixels."""
    try:
        values = tuple(int(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"tray is X,Y,W,H in pixels, not {text!r}") from None
    if len(values) != 4 or values[2] <= 0 or values[3] <= 0:
        raise argparse.ArgumentTypeError(f"tray is X,Y,W,H with W, H > 0, not {text!r}")
    return values  # type: ignore[return-value]


def run_read(args: argparse.Namespace) -> int:
    """Read each image; a bad one is reported and the others are still read."""
    import cv2

    from scorer.vision.reader import Reader

    reader = Reader(args.models, threshold=args.threshold, tray=args.tray, backend=args.backend)
    failed = 0
    for name in args.images:
        image = cv2.imread(name, cv2.IMREAD_UNCHANGED) if Path(name).is_file() else None
        if image is None:
            failed += 1
            why = "no such file" if not Path(name).exists() else "not a readable image"
            if args.json:
                print(json.dumps({"image": name, "error": why}), flush=True)
            print(f"scorer read: {name}: {why}", file=sys.stderr)
            continue
        try:
            reading = reader.read(image, faces=args.faces)
        except ScorerError as err:
            failed += 1
            if args.json:
                print(json.dumps({"image": name, "error": str(err)}), flush=True)
            print(f"scorer read: {name}: {err}", file=sys.stderr)
            continue
        if args.json:
            print(json.dumps({"image": name, **reading.to_dict()}), flush=True)
        else:
            print(f"{name}: {describe(reading)}", flush=True)
    return 1 if failed else 0


def describe(reading: Reading) -> str:
    """``4 4 2 6 J/K?  (5 dice, 1 unsure, 12.3 ms)``: a ? marks an unsure die, after
    its second guess where it has one."""
    unsure = set(reading.unsure)
    faces = [
        _shown(d) + (_second(d) + "?" if i in unsure else "") for i, d in enumerate(reading.dice)
    ]
    shown = " ".join(faces) if faces else "no dice"
    return f"{shown}  ({len(faces)} dice, {len(unsure)} unsure, {reading.ms:.1f} ms)"


def _shown(die: Die) -> str:
    return die.rank if die.rank is not None else str(die.value)


def _second(die: Die) -> str:
    if die.guess is None:
        return ""
    return "/" + (card_rank(die.guess) if die.face == "card" else str(die.guess))


def run_eval(args: argparse.Namespace) -> int:
    from scorer.vision.evaluation import evaluate
    from scorer.vision.labelled import load_split
    from scorer.vision.reader import Reader

    photos = load_split(args.dataset, args.split)
    reader = Reader(args.models, threshold=args.threshold, backend=args.backend)
    report = evaluate(
        functools.partial(reader.read, faces=args.faces),
        photos,
        threshold=args.threshold,
        failures=args.failures,
        zoom=args.closer,
        widen=args.wider,
    )
    if args.json:
        where = {"dataset": str(args.dataset), "split": args.split, "faces": args.faces}
        where |= {"closer": args.closer, "wider": args.wider}
        print(json.dumps({**where, **report.to_dict()}))
    else:
        view = ""
        if args.closer != 1.0:
            view += (
                f", seen {args.closer:g}x closer: {len(report.results)} of {len(photos)}"
                " photos keep all their dice in view"
            )
        if args.wider != 1.0:
            view += f", in a frame {args.wider:g}x as wide"
        faces = "" if args.faces == "any" else f", --faces {args.faces}"
        print(f"{args.dataset} ({args.split}{faces}{view})")
        for line in report.lines():
            print("  " + line)
        if args.failures is not None:
            failures = sum(not r.exact for r in report.results)
            print(f"  {failures} failure overlays in {args.failures}")
    return 0
