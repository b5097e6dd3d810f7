"""``scorer read``, ``scorer eval`` and ``scorer teach``: the dice reader from the command line."""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from scorer.dice import BACKGROUND, CLASS_NAMES, RANK_SCRIPTS
from scorer.errors import ScorerError
from scorer.vision.reading import BACKENDS, DEFAULT_THRESHOLD, FACE_KINDS, Die, Reading

FACES_HELP = "the dice in play: pips, cards (poker dice) or any (default); never read the other"
BACKEND_HELP = "what runs the networks: cv2 (OpenCV's dnn, default) or onnxruntime (if installed)"


def register(subparsers: argparse._SubParsersAction) -> None:
    read = subparsers.add_parser("read", help="read the dice in photos of the tray")
    read.add_argument("images", nargs="+", metavar="IMAGE")
    read.add_argument("--json", action="store_true", help="one JSON object per image per line")
    read.add_argument("--tray", type=parse_tray, help="X,Y,W,H: ignore everything outside")
    read.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD)
    read.add_argument("--models", type=Path, default=None, help="folder with the ONNX models")
    read.add_argument("--faces", choices=FACE_KINDS, default="any", help=FACES_HELP)
    read.add_argument("--backend", choices=BACKENDS, default="cv2", help=BACKEND_HELP)
    read.add_argument("--profile", type=Path, default=None, help=PROFILE_HELP)
    read.add_argument("--ranks", choices=RANK_CHOICES, default="latin", help=RANKS_HELP)
    read.add_argument(
        "--least",
        type=int,
        default=0,
        metavar="N",
        help="the game threw N dice: a game of pip dice that reads fewer looks again",
    )
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
    ev.add_argument("--profile", type=Path, default=None, help=PROFILE_HELP)
    ev.add_argument("--ranks", choices=RANK_CHOICES, default="latin", help=RANKS_HELP)
    ev.add_argument(
        "--skip",
        type=int,
        default=0,
        metavar="N",
        help="leave out the split's first N photos (those a profile was taught from)",
    )
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
    ev.add_argument(
        "--told",
        action="store_true",
        help="tell the reader each photo's number of labelled dice, as a table knows its throw's",
    )
    ev.set_defaults(run=run_eval)

    teach = subparsers.add_parser(
        "teach",
        help="teach a dice profile from a labelled YOLO set",
        description=(
            "Teach the dice profile in DIR (created if missing) from a labelled set, as the "
            "table learns from corrections: every labelled die is a confirmed example, a die "
            "read wrong or missed a correction, a die read where none is labelled no die."
        ),
    )
    teach.add_argument("dataset", type=Path, metavar="DATASET_DIR")
    teach.add_argument("--profile", type=Path, required=True, metavar="DIR", help=PROFILE_HELP)
    teach.add_argument("--split", default="train")
    teach.add_argument(
        "--photos", type=int, default=None, metavar="N", help="teach from the first N photos only"
    )
    teach.add_argument(
        "--wrong",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="teach this share (0..1) of the dice as a wrong face, to measure mistaken taps",
    )
    teach.add_argument("--seed", type=int, default=0, help="seed of --wrong (default 0)")
    teach.add_argument(
        "--closer",
        type=parse_zoom,
        default=1.0,
        metavar="ZOOM",
        help="teach each photo as `scorer eval --closer ZOOM` reads it",
    )
    teach.add_argument(
        "--wider",
        type=parse_zoom,
        default=1.0,
        metavar="ZOOM",
        help="teach each photo as `scorer eval --wider ZOOM` reads it",
    )
    teach.add_argument(
        "--ranks",
        choices=RANK_CHOICES,
        default="latin",
        help="the letters the poker dice print; cyrillic reads each photo as the table reads "
        "such a set (with the crops taught from renders of them) while teaching",
    )
    teach.add_argument("--models", type=Path, default=None)
    teach.set_defaults(run=run_teach)


PROFILE_HELP = "folder of a dice profile (scorer teach): read as that set of dice"
RANK_CHOICES = tuple(RANK_SCRIPTS)
RANKS_HELP = (
    "the letters the poker dice print: latin (9 10 J Q K A, default) or cyrillic "
    "(9 10 В Д К Т: read with the crops taught from renders of them, as a table reads a set "
    "that prints them; with --faces cards)"
)


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

    if args.least < 0:
        raise ScorerError(f"--least is a number of dice, not {args.least}")
    reader = Reader(
        args.models,
        threshold=args.threshold,
        tray=args.tray,
        backend=args.backend,
        ranks=args.ranks,
    )
    _use_profile(reader, args.profile, args.ranks, args.faces)
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
            reading = reader.read(image, faces=args.faces, least=args.least)
        except ScorerError as err:
            failed += 1
            if args.json:
                print(json.dumps({"image": name, "error": str(err)}), flush=True)
            print(f"scorer read: {name}: {err}", file=sys.stderr)
            continue
        if args.json:
            print(json.dumps({"image": name, **reading.to_dict()}), flush=True)
        else:
            print(f"{name}: {describe(reading, args.ranks)}", flush=True)
    return 1 if failed else 0


def describe(reading: Reading, ranks: str = "latin") -> str:
    """``4 4 2 6 J/K?  (5 dice, 1 unsure, 12.3 ms)``: a ? marks an unsure die, after
    its second guess where it has one; poker dice in the letters they print (``ranks``:
    ``4 В/К?`` for Cyrillic dice; the JSON keeps the Latin ranks of the API)."""
    labels = RANK_SCRIPTS[ranks]
    unsure = set(reading.unsure)
    faces = [
        _shown(d, labels) + (_second(d, labels) + "?" if i in unsure else "")
        for i, d in enumerate(reading.dice)
    ]
    shown = " ".join(faces) if faces else "no dice"
    return f"{shown}  ({len(faces)} dice, {len(unsure)} unsure, {reading.ms:.1f} ms)"


def _shown(die: Die, labels: Sequence[str]) -> str:
    return labels[die.value - 1] if die.face == "card" else str(die.value)


def _second(die: Die, labels: Sequence[str]) -> str:
    if die.guess is None:
        return ""
    return "/" + (labels[die.guess - 1] if die.face == "card" else str(die.guess))


def run_eval(args: argparse.Namespace) -> int:
    from scorer.vision.evaluation import evaluate
    from scorer.vision.labelled import load_split
    from scorer.vision.reader import Reader

    photos = load_split(args.dataset, args.split)
    if args.skip < 0:
        raise ScorerError(f"--skip is a number of photos, not {args.skip}")
    photos = photos[args.skip :]
    reader = Reader(args.models, threshold=args.threshold, backend=args.backend, ranks=args.ranks)
    _use_profile(reader, args.profile, args.ranks, args.faces)
    report = evaluate(
        functools.partial(reader.read, faces=args.faces),
        photos,
        threshold=args.threshold,
        failures=args.failures,
        zoom=args.closer,
        widen=args.wider,
        told=args.told,
    )
    if args.json:
        where = {"dataset": str(args.dataset), "split": args.split, "faces": args.faces}
        where |= {"skip": args.skip, "profile": str(args.profile) if args.profile else None}
        where |= {"ranks": args.ranks}
        where |= {"closer": args.closer, "wider": args.wider, "told": args.told}
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
        faces += ", told each photo's dice" if args.told else ""
        faces += f", ranks {args.ranks}" if args.ranks != "latin" else ""
        print(f"{args.dataset} ({args.split}{faces}{view})")
        for line in report.lines():
            print("  " + line)
        if args.failures is not None:
            failures = sum(not r.exact for r in report.results)
            print(f"  {failures} failure overlays in {args.failures}")
    return 0


def _use_profile(
    reader: object, folder: Path | None, ranks: str = "latin", faces: str = "any"
) -> None:
    """Read with the dice profile in ``folder`` and, for poker dice printing another
    script than the networks learnt, its prior (a clear error when either cannot be used)."""
    from scorer.vision.script import PRIORS, with_prior
    from scorer.vision.teaching import open_profile

    own = open_profile(folder, reader) if folder is not None else None  # type: ignore[arg-type]
    prior = None
    if ranks in PRIORS:
        if faces != "cards":
            raise ScorerError(f"--ranks {ranks} names the letters of poker dice: add --faces cards")
        prior = _prior(reader, ranks)
    reader.profile = with_prior(own, prior)  # type: ignore[attr-defined]


def _prior(reader: object, ranks: str) -> object:
    """The prior of poker dice printing ``ranks`` (a clear error where it cannot be used)."""
    from scorer.vision.script import load_prior, prior_folder

    prior = load_prior(reader, ranks)  # type: ignore[arg-type]
    if prior is None:
        where = prior_folder(reader.model_dir, ranks)  # type: ignore[attr-defined]
        raise ScorerError(
            f"no usable prior for poker dice printing {ranks} in {where} "
            "(python -m vision_models.train.ranks builds it)"
        )
    return prior


def run_teach(args: argparse.Namespace) -> int:
    """Teach the profile from the split's photos and say what it has seen."""
    import time

    from scorer.vision.labelled import load_split
    from scorer.vision.reader import Reader
    from scorer.vision.script import PRIORS
    from scorer.vision.teaching import open_profile, teach_photos

    if not 0.0 <= args.wrong < 1.0:
        raise ScorerError(f"--wrong is a share from 0 to 1, not {args.wrong}")
    photos = load_split(args.dataset, args.split)
    if args.photos is not None:
        if args.photos < 1:
            raise ScorerError(f"--photos must be at least 1, not {args.photos}")
        photos = photos[: args.photos]
    reader = Reader(args.models, ranks=args.ranks)
    profile = open_profile(args.profile, reader, create=True)
    prior = None
    if args.ranks in PRIORS:
        if {d.face for p in photos for d in p.dice} - {"card"}:
            raise ScorerError(
                f"--ranks {args.ranks} names the letters of poker dice: these photos show pip dice"
            )
        prior = _prior(reader, args.ranks)
    start = time.perf_counter()
    lesson = teach_photos(
        reader,
        profile,
        photos,
        f"{args.dataset.name}/{args.split}",
        wrong=args.wrong,
        seed=args.seed,
        zoom=args.closer,
        widen=args.wider,
        prior=prior,
    )
    seconds = time.perf_counter() - start
    path = profile.save(args.profile)
    print(
        f"taught {lesson.dice} dice from {lesson.photos} photos of {args.dataset} ({args.split}) "
        f"in {seconds:.1f} s: {lesson.corrections} corrections"
        + (f", {lesson.not_dice} spots no die" if lesson.not_dice else "")
        + (f", {lesson.refused} photos unreadable" if lesson.refused else "")
        + (f", {lesson.out_of_view} left out (a die out of view)" if lesson.out_of_view else "")
    )
    size = profile.size
    where = f"; dice {size.side:.1f} px in {size.frame[0]}x{size.frame[1]} frames" if size else ""
    print(
        f"{path}: {len(profile)} crops, {path.stat().st_size / 1e6:.2f} MB; {seen(profile)}{where}"
    )
    print(trials_said(profile))
    print(sureness_said(profile))
    print(look_said(profile))
    return 0


def trials_said(profile: object) -> str:
    """``its size: used (5 taught photos read without themselves: 14 dice right less extra
    with it, 13 without)``."""
    trials = profile.trials.values()  # type: ignore[attr-defined]
    used = "used" if profile.uses_size else "not used"  # type: ignore[attr-defined]
    if not trials:
        return f"its size: {used} (no taught photo read without itself yet)"
    sized, unsized = (sum(t[k] for t in trials) for k in ("sized", "unsized"))
    return (
        f"its size: {used} ({len(trials)} taught photos read without themselves: "
        f"{sized} dice right less extra with it, {unsized} without)"
    )


def sureness_said(profile: object) -> str:
    """``how sure: as its networks (its trials read 50 dice: 0 of 48 sure ones wrong)``, or
    ``how sure: less sure than its networks, temperature 2 (...: 6 of 30 sure ones wrong)``."""
    t = profile.temperature  # type: ignore[attr-defined]
    dice, sure, wrong = profile.trial_sureness(DEFAULT_THRESHOLD)  # type: ignore[attr-defined]
    if not dice:
        return "how sure: as its networks (no taught photo read without itself yet)"
    told = "as its networks" if t == 1.0 else f"less sure than its networks, temperature {t:g}"
    return f"how sure: {told} (its trials read {dice} dice: {wrong} of {sure} sure ones wrong)"


def look_said(profile: object) -> str:
    """``its own look: 412 windows of 5 photos, 80 on dice`` (``scorer.vision.sweep``)."""
    windows = profile.look_windows  # type: ignore[attr-defined]
    if not windows[0]:
        return "its own look: none yet (no taught photo swept)"
    return f"its own look: {windows[0]} windows of {windows[1]} photos, {windows[2]} on dice"


def seen(profile: object) -> str:
    """``faces seen: 1 x4, 2 x3, ..., not a die x1``."""
    parts = []
    for label, n in profile.counts().items():  # type: ignore[attr-defined]
        name = "not a die" if label == BACKGROUND else CLASS_NAMES[label]
        parts.append(f"{name} x{n}")
    return "faces seen: " + (", ".join(parts) if parts else "none")
