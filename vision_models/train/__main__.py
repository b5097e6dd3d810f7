"""Retrain the dice reader from scratch: ``python -m vision_models.train`` (``make train``).

Fixed seeds, two CPU threads, about an hour and five minutes. Reads only the train splits
of the shared photo sets (plus the single-die crops and, when ``scorer.render.scene`` is
there, rendered throws of pip and poker dice), writes ``vision_models/finder.onnx``,
``vision_models/faces.onnx``, ``vision_models/courts.onnx`` and
``vision_models/train_report.json``. ``--only STAGE ...`` retrains those stages on the
networks already in ``--out``; ``--only faces --faces-kind cards --render3d 400`` writes the poker
dice's own face network, ``vision_models/faces-cards.onnx``, and ``--only finder
--finder-kind pips --warm DIR ...`` the finder a game of pip dice looks again with,
``vision_models/finder-pips.onnx``; ``--second`` beside ``--faces-kind cards`` writes the
second poker-dice network, ``faces-cards-2.onnx``, and ``--ranks cyrillic --typeset --warm
DIR`` beside them the pair that reads dice printing 9 10 В Д К Т (``make train`` runs them
all). ``--faces-kind pips`` writes a trial's face network for pip dice alone,
``faces-pips.onnx``, which no reader reads (``vision_models/faces.md``, "What limits it").
"""

from __future__ import annotations

import argparse
import json
import math
import random
import shutil
import time
from pathlib import Path

import numpy as np
import torch

from scorer.dice import BACKGROUND, CARDS
from scorer.render import RANDOM, RANDOM_PLAYING_CARDS, RANDOM_TYPESET
from scorer.render.art import typefaces
from scorer.vision.crop import COURT_INPUT, COURT_SPAN, CROP_SPAN
from scorer.vision.script import NETWORKS
from vision_models.render3d import dataset as r3d
from vision_models.train import data, fit
from vision_models.train.nets import CONVS, FACE_INPUT, FINDER_INPUT, DieFinder, FaceNet

OUT = Path(__file__).resolve().parents[1]
SEED = 20261129
STAGES = ("finder", "faces", "courts")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision_models.train", description=__doc__)
    parser.add_argument("--finder-steps", type=int, default=3000)
    parser.add_argument("--faces-steps", type=int, default=15000)
    parser.add_argument("--rendered", type=int, default=2000, help="rendered throws to use")
    parser.add_argument(
        "--slant",
        type=float,
        default=None,
        help="the most degrees a rendered throw's slanted camera leans (a quarter of the "
        "throws; default: the renderer's own, 13.75)",
    )
    parser.add_argument(
        "--render3d",
        type=int,
        default=None,
        help="the first N photos of the physically based render cache (`make renders`; "
        "default: all cached, 0: none)",
    )
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--courts-steps", type=int, default=4000)
    parser.add_argument(
        "--court-throws",
        type=int,
        default=3000,
        help="rendered poker-dice throws added for the court network",
    )
    parser.add_argument(
        "--finder-late",
        type=float,
        default=0.0,
        help="share of the finder's last steps (as its learning rate anneals) drawn "
        "without the 3D renders",
    )
    parser.add_argument(
        "--warm",
        type=Path,
        default=None,
        help="fine-tune the finder and face network exported in this folder (batch norms "
        "frozen) instead of training them from scratch: the face network of the kind this "
        "run trains (faces.onnx, faces-cards.onnx or, with --second, faces-cards-2.onnx)",
    )
    parser.add_argument(
        "--finder-keep",
        type=Path,
        default=None,
        help="a folder whose exported finder's maps of every photo but the 3D renders the "
        "new finder is fitted to (it learns the renders and keeps the real photos' spots)",
    )
    parser.add_argument(
        "--faces-keep",
        type=Path,
        default=None,
        help="a folder whose exported face network (of the kind this run trains) the new "
        "one is also fitted to on every crop but the 3D renders' and the typeset ranks' (it "
        "learns those and keeps what that one reads on real photos)",
    )
    parser.add_argument(
        "--distil",
        type=Path,
        nargs="+",
        default=(),
        help="exported face networks the reader ran side by side: the new face network is "
        "also fitted to their mean reading of every crop (one network in their place)",
    )
    parser.add_argument(
        "--render3d-version",
        type=int,
        choices=r3d.VERSIONS,
        default=r3d.VERSION,
        help="the 3D renders' look to learn from (render3d --version; default %(default)s, the "
        "renderer's own): the networks learnt before version 2 saw 1",
    )
    parser.add_argument(
        "--render3d-close-ups",
        type=int,
        default=0,
        help="the face stage also learns the dice of this many close-up throws (render3d "
        "--close-ups --version V, V the --render3d-version; default none)",
    )
    parser.add_argument(
        "--render3d-smoky",
        type=int,
        default=0,
        help="the fitted 3D renders also hold the smoky twins (render3d --smoky, folder "
        "v<VERSION>-smoky) of the first N train photos, where rendered (default none)",
    )
    parser.add_argument(
        "--render3d-extras",
        type=Path,
        default=None,
        help="a folder of networks whose reader's extra dice on the 3D renders (cards, "
        "tokens, meeples where no die lies) the face stage learns as not a die",
    )
    parser.add_argument(
        "--real-extras",
        type=Path,
        default=None,
        help="a folder of networks whose reader's extra dice on the real train photos (side "
        "faces of slanted dice, bits of tray) the face stage learns as not a die",
    )
    parser.add_argument(
        "--finder-render3d-weight",
        type=float,
        default=0.2,
        help="the 3D renders' share of the finder's crops, against 0.4 + 0.3 + 0.35 for "
        "tray-multicolor, webcam-white and the 2D renders",
    )
    parser.add_argument(
        "--warm-lr", type=float, default=5e-4, help="the fine-tuning's peak learning rate"
    )
    parser.add_argument(
        "--faces-width", type=int, default=128, help="channels of the face network's 6x6 stage"
    )
    parser.add_argument(
        "--faces-convs",
        choices=CONVS,
        default="full",
        help="the face network's convolutions after the first: full 3x3, depthwise-separable "
        "(about a quarter of a crop's time), or full where a stage widens",
    )
    parser.add_argument(
        "--finder-blend",
        type=float,
        nargs="+",
        default=None,
        help="with --warm: the share of the finder's fine-tuning kept, the rest of the finder "
        "it started from; further shares to OUT/finder-blend-SHARE/, as --faces-blend",
    )
    parser.add_argument(
        "--faces-blend",
        type=float,
        nargs="+",
        default=None,
        help="with --warm: the share of the face network's fine-tuning kept, the rest of the "
        "network it started from (WiSE-FT); the first share is written to --out, each "
        "further one to OUT/blend-SHARE/ beside the out folder's other networks, to compare",
    )
    parser.add_argument(
        "--render3d-min-side",
        type=float,
        default=0.0,
        help="the face stage leaves out 3D renders' dice under this side (photo px)",
    )
    parser.add_argument(
        "--faces-kind",
        choices=("any", "cards", "pips"),
        default="any",
        help="cards: a face network for poker dice alone (faces-cards.onnx), trained on the "
        "card dice and on every photo's bits of table; pips: one for pip dice alone "
        "(faces-pips.onnx, a trial's: the reader does not read it), fine-tuned from the "
        "general one where --warm holds no faces-pips.onnx",
    )
    parser.add_argument(
        "--second",
        action="store_true",
        help="with --faces-kind cards: write the second poker-dice network, faces-cards-2.onnx, "
        "read beside the first (make train trains it on twice the 3D renders)",
    )
    parser.add_argument(
        "--ranks",
        choices=tuple(NETWORKS),
        default=None,
        help="with --faces-kind cards --typeset: write the poker dice's networks of that "
        "script (faces-cards-cyrillic.onnx, with --second faces-cards-2-cyrillic.onnx), "
        "fine-tuned from --warm's Latin ones",
    )
    parser.add_argument(
        "--render3d-tables",
        type=int,
        nargs=2,
        metavar=("FIRST", "LAST"),
        default=None,
        help="with --ranks: also the train photos of 3D tables FIRST..LAST printing that "
        "script (render3d --table N --kind cards --cyrillic --train K), trained on and, an "
        "eighth of them, calibrated on",
    )
    parser.add_argument(
        "--typeset",
        action="store_true",
        help="a third of the rendered throws set their poker dice's ranks in TrueType fonts "
        "(scorer.render.RANDOM_TYPESET: matplotlib's, `pip install matplotlib`), half those "
        "with Cyrillic capitals printing 9 10 В Д К Т",
    )
    parser.add_argument(
        "--playing-cards",
        action="store_true",
        help="as many rendered throws as each other family print their poker dice as small "
        "playing cards (a third; a quarter with --typeset; scorer.render.RANDOM_PLAYING_CARDS: "
        "nine and ten suit symbols on the 9 and 10)",
    )
    parser.add_argument(
        "--crowds",
        type=int,
        default=0,
        help="crowded rendered throws (8-30 dice, many touching, scorer render --crowd) the "
        "finder also learns from; with --finder-keep it learns their labels, not the kept "
        "finder's maps",
    )
    parser.add_argument(
        "--crowd-weight",
        type=float,
        default=0.3,
        help="the crowded throws' share of the finder's crops, against 0.4 + 0.3 + 0.35 for "
        "tray-multicolor, webcam-white and the 2D renders",
    )
    parser.add_argument(
        "--finder-kind",
        choices=("any", "pips"),
        default="any",
        help="pips: the finder a game of pip dice looks again with (finder-pips.onnx), the "
        "finder in --warm fine-tuned on the 3D renders",
    )
    parser.add_argument(
        "--only",
        nargs="+",
        choices=STAGES,
        default=list(STAGES),
        help="retrain these stages alone, on the networks already in --out (default: all)",
    )
    parser.add_argument(
        "--threads", type=int, default=2, help="torch threads (1: two runs side by side)"
    )
    parser.add_argument(
        "--device",
        default="cpu",
        help="where the face and court stages fit: cpu (default, as `make train`) or cuda",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=0,
        help="processes cutting the face and court stages' crops (0: the main one, as `make "
        "train`; others cut other crops from the same seed)",
    )
    parser.add_argument(
        "--faces-randconv",
        type=float,
        default=0.0,
        help="share of the face stage's crops seen through a random convolution (textures "
        "and colours no jitter draws; 0: none)",
    )
    parser.add_argument(
        "--faces-mixstyle",
        type=float,
        default=0.0,
        help="share of the face stage's batches whose crops swap colour and texture "
        "statistics inside the network while it trains (MixStyle; 0: none)",
    )
    parser.add_argument(
        "--faces-seed", type=int, default=2, help="the face stage's seed, added to SEED"
    )
    parser.add_argument(
        "--courts-seed", type=int, default=3, help="the court stage's seed, added to SEED"
    )
    args = parser.parse_args(argv)
    # the face network this run trains, and the one --warm and --faces-keep start from
    faces_name = {"any": "faces", "cards": "faces-cards", "pips": "faces-pips"}[args.faces_kind]
    if args.second:
        faces_name = "faces-cards-2"

    def own(folder: Path) -> Path:
        """``folder``'s face network this run starts from or keeps to: its own kind's; a
        first pip network the general one, which already names every pip face."""
        path = folder / f"{faces_name}.onnx"
        return folder / "faces.onnx" if args.faces_kind == "pips" and not path.is_file() else path

    if args.warm is not None:
        wanted = ("finder.onnx", own(args.warm).name)
        missing = [n for n in wanted if not (args.warm / n).is_file()]
        if missing:
            parser.error(f"--warm {args.warm}: no {' or '.join(missing)} there to fine-tune")
    if args.render3d_extras is not None and not (args.render3d_extras / "faces.onnx").is_file():
        parser.error(f"--render3d-extras {args.render3d_extras}: no networks there to read with")
    if args.real_extras is not None and not (args.real_extras / "faces.onnx").is_file():
        parser.error(f"--real-extras {args.real_extras}: no networks there to read with")
    for option, shares in (
        ("--finder-blend", args.finder_blend),
        ("--faces-blend", args.faces_blend),
    ):
        if shares is None:
            continue
        if args.warm is None:
            parser.error(f"{option} needs --warm: a blend is of a network and its fine-tuning")
        if any(not 0.0 <= a <= 1.0 for a in shares):
            parser.error(f"{option}: each share is between 0 and 1")
    if args.faces_keep is not None and not own(args.faces_keep).is_file():
        kept = own(args.faces_keep).name
        parser.error(f"--faces-keep {args.faces_keep}: no {kept} there to keep")
    for option, share in (
        ("--faces-randconv", args.faces_randconv),
        ("--faces-mixstyle", args.faces_mixstyle),
    ):
        if not 0.0 <= share <= 1.0:
            parser.error(f"{option} is a share between 0 and 1, not {share}")
    args.only = list(dict.fromkeys(args.only))  # a stage named twice runs once
    if args.distil and "faces" not in args.only:
        parser.error("--distil teaches a face network: add faces to --only")
    if args.crowds and "finder" not in args.only:
        parser.error("--crowds teaches the finder: add finder to --only")
    if args.crowds < 0 or args.crowd_weight <= 0.0:
        parser.error(
            "--crowds is a count and --crowd-weight a positive share, not "
            f"{args.crowds} and {args.crowd_weight}"
        )
    missing = [str(p) for p in args.distil if not p.is_file()]
    if missing:
        parser.error(f"--distil: no face network at {', '.join(missing)}")
    if args.distil and args.faces_keep is not None:
        parser.error("--distil and --faces-keep each give the face network a teacher: one only")
    if args.finder_keep is not None and not (args.finder_keep / "finder.onnx").is_file():
        parser.error(f"--finder-keep {args.finder_keep}: no finder.onnx there to keep")
    if args.faces_kind != "any" and args.only != ["faces"]:
        dice = "poker dice's" if args.faces_kind == "cards" else "pip dice's"
        parser.error(
            f"--faces-kind {args.faces_kind} trains the {dice} face network alone: add --only faces"
        )
    if args.second and args.faces_kind != "cards":
        parser.error("--second writes a second poker-dice network: add --faces-kind cards")
    if args.render3d_tables and not args.ranks:
        parser.error("--render3d-tables are tables of a script's dice: add --ranks")
    if args.ranks and (args.faces_kind != "cards" or not args.typeset or args.warm is None):
        parser.error(
            f"--ranks {args.ranks} fine-tunes the poker dice's networks on ranks set in fonts: "
            "add --faces-kind cards --typeset --warm DIR"
        )
    if args.finder_kind == "pips" and (args.only != ["finder"] or args.warm is None):
        parser.error(
            "--finder-kind pips fine-tunes a finder for pip dice: add --only finder --warm DIR"
        )
    missing = [n for n in data.REAL_SETS if not (data.SHARED / n).is_dir()]
    if missing:
        parser.error(
            f"no {' or '.join(missing)} in {data.SHARED}: the shared photo sets must lie "
            "beside the repository (../shared/datasets)"
        )
    if args.slant is not None and not 4.6 <= args.slant <= 57:
        parser.error(f"--slant is 4.6 to 57 degrees, not {args.slant}")
    if args.typeset and not typefaces():
        parser.error("--typeset: no TrueType fonts: pip install matplotlib (OpenCV 5 or later)")
    r3d_root = r3d.default_root(args.render3d_version)
    cached = data.render3d_cached(r3d_root) if args.render3d else 0
    if args.render3d and cached < args.render3d:  # before any folder or minutes of loading
        parser.error(
            f"--render3d {args.render3d}: only {cached} 3D renders are cached "
            "(`make renders` renders them, resumable)"
        )
    smoky_root = r3d_root.with_name(f"{r3d_root.name}-smoky")
    if args.render3d_smoky and not data.render3d_cached(smoky_root):
        parser.error(
            f"--render3d-smoky {args.render3d_smoky}: no smoky twins in {smoky_root} "
            "(render3d --smoky renders them, resumable)"
        )
    close_root = r3d.default_close_up_root(args.render3d_version)
    if args.render3d_close_ups:
        held = data.close_up_throws(close_root)
        if held < args.render3d_close_ups:
            parser.error(
                f"--render3d-close-ups {args.render3d_close_ups}: only {held} close-up throws "
                f"are cached in {close_root} (render3d --close-ups renders them, resumable)"
            )
    args.out.mkdir(parents=True, exist_ok=True)

    random.seed(SEED)
    np.random.seed(SEED)
    torch.manual_seed(SEED)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(SEED)
    t_start = time.time()

    def log(msg: str) -> None:
        print(f"[{time.time() - t_start:6.0f}s] {msg}", flush=True)

    real = data.load_real("train")
    crops = data.load_crops()
    families: list[str | None] = [RANDOM]
    if args.typeset:
        families.append(RANDOM_TYPESET)
    if args.playing_cards:
        families.append(RANDOM_PLAYING_CARDS)
    families.append(None)  # the fixed train families
    lean = None if args.slant is None else math.radians(args.slant)
    rendered = data.load_rendered(args.rendered, SEED + 1, families, most_slant=lean)
    crowds = data.load_rendered(args.crowds, SEED + 7, families, crowd=True)
    physical = data.load_render3d(args.render3d, r3d_root) if args.render3d != 0 else []
    if args.render3d_tables:
        first, last = args.render3d_tables
        physical += data.load_render3d_tables(
            range(first, last + 1), args.ranks, args.render3d_version
        )
    close = data.load_close_ups(args.render3d_close_ups, close_root)
    log(
        f"photos: {len(real)} real, {len(crops)} crops, {len(rendered)} rendered "
        f"({len(crowds)} crowded), "
        f"{len(physical)} rendered in 3D, {len(close)} dice rendered close up"
    )

    # A held-out eighth of the train photos (never the test splits) to calibrate and check.
    def split(photos: list[data.Photo]) -> tuple[list[data.Photo], list[data.Photo]]:
        order = rng.permutation(len(photos))
        cut = len(photos) // 8
        return [photos[i] for i in order[cut:]], [photos[i] for i in order[:cut]]

    tray_fit, tray_hold = split([p for p in real if p.source == "tray-multicolor"])
    cam_fit, cam_hold = split([p for p in real if p.source == "webcam-white"])
    ren_fit, ren_hold = split(rendered)
    crowd_fit, _ = split(crowds)
    r3d_fit, r3d_hold = split(physical)
    # fitted only, added after the split: the hold-out and every draw after it stay as they
    # are without them
    twins = data.load_twins(args.render3d_smoky, smoky_root) if args.render3d_smoky else []
    r3d_fit = r3d_fit + twins
    if twins:
        log(f"{len(twins)} smoky twins of the 3D renders fitted too")
    close_fit, close_hold = split(close)
    report: dict[str, object] = {
        "seed": SEED,
        "photos": {
            "tray-multicolor train": len(tray_fit) + len(tray_hold),
            "webcam-white train": len(cam_fit) + len(cam_hold),
            "single-die-crops": len(crops),
            "rendered": len(rendered),
            "rendered crowded": len(crowds),
            "rendered slant (degrees)": args.slant,
            "rendered in 3D": len(physical),
            "smoky twins of 3D renders": len(twins),
            "dice rendered close up": len(close),
            "held out for calibration": len(tray_hold)
            + len(cam_hold)
            + len(ren_hold)
            + len(r3d_hold)
            + len(close_hold),
        },
    }

    finder_path = args.out / "finder.onnx"
    if "finder" in args.only:
        finder_name = "finder-pips.onnx" if args.finder_kind == "pips" else "finder.onnx"
        groups = [(tray_fit, 0.4), (cam_fit, 0.3)]
        if ren_fit:
            groups.append((ren_fit, 0.35))
        if crowd_fit:
            groups.append((crowd_fit, args.crowd_weight))
        late = list(groups)
        if r3d_fit:
            # translucent, marbled, dark and oblique dice: where the finder missed most
            # (0.2 with 4500 finder steps lost less on tray-multicolor than 0.35 with 3000;
            # the two were not tried apart: render3d.md, "Training on it")
            groups.append((r3d_fit, args.finder_render3d_weight))
        finder = fit.train_finder(
            groups,
            args.finder_steps,
            rng,
            log,
            late,
            args.finder_late,
            start=args.warm / "finder.onnx" if args.warm else None,
            lr=args.warm_lr if args.warm else 3e-3,
            keep=args.finder_keep / "finder.onnx" if args.finder_keep else None,
        )
        tuned = finder
        if args.finder_blend is not None:
            started = fit.warm_start(DieFinder(), args.warm / "finder.onnx")
            finder = fit.blend(tuned, started, args.finder_blend[0])
            for share in args.finder_blend[1:]:
                folder = args.out / f"finder-blend-{share:g}"
                copy_networks(args.out, folder, finder_name)
                export_finder(fit.blend(tuned, started, share), folder / finder_name, log)
        diff = export_finder(finder, args.out / finder_name, log)
        report["finder"] = {
            "steps": args.finder_steps,
            "late_share": args.finder_late,
            "blend": args.finder_blend[0] if args.finder_blend else 1.0,
            "warm": str(args.warm) if args.warm else None,
            "keep": str(args.finder_keep) if args.finder_keep else None,
            "lr": args.warm_lr if args.warm else 3e-3,
            "render3d_weight": args.finder_render3d_weight if r3d_fit else 0.0,
            "crowd_weight": args.crowd_weight if crowd_fit else 0.0,
            "onnx_max_diff": diff,
        }
    if "faces" in args.only:
        if not finder_path.is_file():
            parser.error(f"no {finder_path}: train the finder first (leave out --only)")
        # The face stage draws from its own generator: `--only faces` repeats it exactly.
        rng = np.random.default_rng(SEED + args.faces_seed)
        fit_photos = tray_fit + cam_fit + ren_fit + r3d_fit
        # Face crops are trained where the reader's finder puts them, and the spots it
        # takes for dice that are none become "not a die" samples.
        views, hard = fit.reader_view(finder_path, fit_photos)
        seen = dict(zip(map(id, fit_photos), views, strict=True))
        hold_photos = tray_hold + cam_hold + ren_hold + r3d_hold
        hold_views, _ = fit.reader_view(finder_path, hold_photos)
        seen.update(zip(map(id, hold_photos), hold_views, strict=True))
        found = np.concatenate(views)
        log(f"finder saw {np.isfinite(found[:, 0]).mean():.1%} of the training dice")
        if args.render3d_extras is not None and r3d_fit:
            extras = fit.reader_extras(args.render3d_extras, r3d_fit)
            log(f"{len(extras)} extra dice read on the 3D renders: not a die")
            hard = hard + extras
        if args.real_extras is not None:
            extras = fit.reader_extras(args.real_extras, tray_fit + cam_fit)
            log(f"{len(extras)} extra dice read on the real train photos: not a die")
            hard = hard + extras

        # tray-multicolor's many-coloured small dice are the hardest: they count twice
        def samples(p: data.Photo) -> list[data.Patch]:
            least = args.render3d_min_side if p.source == "render3d" else 0.0
            return data.patches_of(p, rng, seen=seen.get(id(p)), min_side=least)

        patches = [q for p in tray_fit + fit_photos + crops + close_fit for q in samples(p)]
        if args.faces_kind != "any":  # a game of one kind of dice never shows the other
            patches = [q for q in patches if kept_kind(q.label, args.faces_kind)]
        log(f"face patches: {len(patches)} + {len(hard)} hard negatives")
        faces = fit.train_faces(
            patches + hard,
            args.faces_steps,
            rng,
            log,
            start=own(args.warm) if args.warm else None,
            lr=args.warm_lr if args.warm else 3e-3,
            last=args.faces_width,
            keep=own(args.faces_keep) if args.faces_keep else None,
            teachers=args.distil,
            randconv=args.faces_randconv,
            mixstyle=args.faces_mixstyle,
            device=args.device,
            workers=args.workers,
            convs=args.faces_convs,
        )
        hold = [q for p in hold_photos + close_hold for q in samples(p)]
        if args.faces_kind != "any":
            hold = [q for q in hold if kept_kind(q.label, args.faces_kind)]
        # a script's own networks start from (and keep to) the Latin ones: named apart
        name = f"{faces_name}-{args.ranks}" if args.ranks else faces_name
        tuned = faces
        shares = args.faces_blend or [1.0]
        if args.faces_blend is not None:
            started = fit.warm_start(FaceNet(args.faces_width, args.faces_convs), own(args.warm))
            faces = fit.blend(tuned, started, shares[0])
        figures = fit.calibrate_and_export(
            faces, hold, args.out / f"{name}.onnx", CROP_SPAN, FACE_INPUT, log, features=True
        )
        for share in shares[1:]:
            folder = args.out / f"blend-{share:g}"
            copy_networks(args.out, folder, f"{name}.onnx")
            blended = fit.blend(tuned, started, share)
            fit.calibrate_and_export(
                blended, hold, folder / f"{name}.onnx", CROP_SPAN, FACE_INPUT, log, features=True
            )
        report[name] = {
            "steps": args.faces_steps,
            "width": args.faces_width,
            "convs": args.faces_convs,
            "typeset": args.typeset,
            "render3d_min_side": args.render3d_min_side,
            "keep": str(args.faces_keep) if args.faces_keep else None,
            "distilled_from": [p.name for p in args.distil],
            "blend": shares[0],
            "render3d_extras": str(args.render3d_extras) if args.render3d_extras else None,
            "real_extras": str(args.real_extras) if args.real_extras else None,
            "patches": len(patches),
            "hard_negatives": len(hard),
            **figures,
        }
    if "courts" in args.only:
        if not finder_path.is_file():
            parser.error(f"no {finder_path}: train the finder first (leave out --only)")
        report["courts"] = train_courts(args, ren_fit + r3d_fit, ren_hold + r3d_hold, log)
    report["minutes"] = round((time.time() - t_start) / 60, 1)
    stage = "+".join(args.only) if set(args.only) != set(STAGES) else None
    if args.finder_kind == "pips":
        # a second finder beside the first: the first's figures still describe it
        stage = "finder-pips"
        report["finder-pips"] = report.pop("finder")
        report["finder-pips"]["photos"] = report.pop("photos")
    if args.faces_kind != "any":
        # a second face network beside the first: its data kept apart from the first's
        stage = "faces-cards-2" if args.second else faces_name
        stage = f"{stage}-{args.ranks}" if args.ranks else stage
        report[stage]["photos"] = report.pop("photos")
    path = args.out / "train_report.json"
    if stage and path.is_file():
        # one stage retrained: the other stages' figures still describe their networks
        kept = json.loads(path.read_text())
        kept[f"{stage} minutes"] = report.pop("minutes")
        report = {**kept, **report}
    path.write_text(json.dumps(report, indent=2) + "\n")
    log("done")
    return 0


def export_finder(finder: torch.nn.Module, path: Path, log: fit.Log) -> float:
    """Write the finder's ONNX file, its board size left free; the export's max diff."""
    finder.export_mode = True
    diff = fit.export(finder, path, (1, 3, FINDER_INPUT, FINDER_INPUT), ("image", "maps"))
    fit.free_board(path)
    finder.export_mode = False
    log(f"wrote {path} (cv2.dnn vs torch max diff {diff:.2e})")
    return diff


def kept_kind(label: int, kind: str) -> bool:
    """Whether a face network for one kind of dice learns a crop of this label: its own
    dice's faces and "not a die", never the other kind's faces."""
    return label == BACKGROUND or (label >= CARDS if kind == "cards" else label < CARDS)


def copy_networks(out: Path, folder: Path, but: str) -> None:
    """``folder`` made to hold ``out``'s networks but ``but``: the reader of a blend."""
    folder.mkdir(exist_ok=True)
    for other in out.glob("*.onnx"):
        if other.name != but:
            shutil.copy2(other, folder / other.name)


def train_courts(
    args: argparse.Namespace,
    ren_fit: list[data.Photo],
    ren_hold: list[data.Photo],
    log: fit.Log,
) -> dict[str, object]:
    """The court network's stage: jacks, queens and kings of rendered throws (no real
    photo shows a poker die), crops cut where the reader's finder sees them."""
    rng = np.random.default_rng(SEED + args.courts_seed)
    extra = data.load_rendered(args.court_throws, SEED + 4, kinds=("cards",))
    order = rng.permutation(len(extra))
    cut = len(extra) // 8
    photos = ren_fit + [extra[i] for i in order[cut:]]
    hold_photos = ren_hold + [extra[i] for i in order[:cut]]
    finder_path = args.out / "finder.onnx"
    views, _ = fit.reader_view(finder_path, photos, per_photo=0)
    patches = [q for p, v in zip(photos, views, strict=True) for q in data.court_patches(p, v)]
    hold_views, _ = fit.reader_view(finder_path, hold_photos, per_photo=0)
    hold = [
        q for p, v in zip(hold_photos, hold_views, strict=True) for q in data.court_patches(p, v)
    ]
    log(f"court patches: {len(patches)} from {len(photos)} throws, {len(hold)} held out")
    courts = fit.train_courts(patches, args.courts_steps, rng, log, args.device, args.workers)
    figures = fit.calibrate_and_export(
        courts, hold, args.out / "courts.onnx", COURT_SPAN, COURT_INPUT, log
    )
    return {
        "steps": args.courts_steps,
        "throws": len(photos) + len(hold_photos),
        "patches": len(patches),
        **figures,
    }


if __name__ == "__main__":
    raise SystemExit(main())
