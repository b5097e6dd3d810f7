"""Fill the render cache: ``python -m vision_models.render3d --train 5000 --test 500``.

Renders the photos missing from the cache (see :mod:`vision_models.render3d.dataset`),
train and test interleaved, one at a time, and says what it wrote. Stop it at any time;
the same command carries on where it stopped. ``make renders`` builds the Blender venv
and runs it niced, on one Cycles thread.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2

from vision_models.render3d import dataset, looks


def parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m vision_models.render3d", description=__doc__)
    p.add_argument("--root", type=Path, default=None, help="cache folder (default: %(default)s)")
    p.add_argument("--train", type=int, default=5000, help="training photos wanted")
    p.add_argument("--test", type=int, default=500, help="held-out photos wanted")
    p.add_argument("--seed", type=int, default=0, help="base seed of every plan")
    p.add_argument("--samples", type=int, default=16, help="Cycles samples a pixel")
    p.add_argument("--threads", type=int, default=1, help="Cycles threads")
    p.add_argument("--max-side", type=int, default=1024, help="longest side of a photo, px")
    p.add_argument(
        "--min-die",
        type=float,
        default=0.0,
        help="a photo whose median die would be under this many px is rendered larger "
        "(up to 1600 px), as a camera shows small dice (default: never)",
    )
    p.add_argument(
        "--sheet", type=Path, default=None, help="write a contact sheet PNG of the cache and stop"
    )
    p.add_argument("--split", choices=("train", "test"), default="train", help="for --sheet")
    p.add_argument(
        "--version",
        type=int,
        choices=dataset.VERSIONS,
        default=dataset.VERSION,
        help="the renderer's look (dataset.VERSION; default %(default)s, folder v<VERSION>)",
    )
    p.add_argument(
        "--table",
        type=int,
        default=None,
        help="render one table's evening instead: set N of dice (a held-out make on the test "
        "split) thrown on one tray under one camera, for teaching (default root: "
        "v<VERSION>-table<N>-<kind> beside the cache)",
    )
    p.add_argument(
        "--kind",
        choices=("pips", "cards", "mixed"),
        default=None,
        help="the dice thrown: a table's (default pips) or the close-ups' (default any kind)",
    )
    p.add_argument(
        "--close-ups",
        action="store_true",
        help="render each clear die of a throw alone, a square about it at 16-56 px a die, "
        "instead of whole photos: the face networks' crops at a fraction of the pixels "
        "(default root: v<VERSION>-close-ups beside the cache)",
    )
    p.add_argument(
        "--cyrillic",
        action="store_true",
        help="with --table and --kind cards: the table's poker dice print 9 10 В Д К Т "
        "(folder v<VERSION>-table<N>-cards-cyrillic)",
    )
    p.add_argument(
        "--plain",
        choices=looks.PLAIN,
        default=None,
        help="the same throws with the dice's body, art or both made plain (looks.plain), a "
        "control for what the dice's look costs a reader (default root: v<VERSION>-plain-<WHAT>)",
    )
    p.add_argument(
        "--smoky",
        action="store_true",
        help="the same throws with every make of pip dice see-through, clear plastic coloured "
        "through, bright pips (looks.smoky); throws without pip dice are left out (default root: "
        "v<VERSION>-smoky)",
    )
    args = p.parse_args(argv)
    if args.plain and args.smoky:
        p.error("--plain and --smoky each change the dice's look: one only")
    for twin in ("plain", "smoky"):
        if getattr(args, twin) and (args.close_ups or args.table is not None):
            p.error(f"--{twin} renders the cache's own throws: leave out --close-ups and --table")
    if args.close_ups and args.table is not None:
        p.error("--close-ups renders throws of every make, not a table's: leave out --table")
    if args.table is not None and args.kind == "mixed":
        p.error("a table's dice are pips or cards, not mixed")
    if args.table is not None and args.kind is None:
        args.kind = "pips"
    if args.cyrillic and (args.table is None or args.kind != "cards"):
        p.error("--cyrillic renders a table of poker dice: add --table N --kind cards")
    for name in ("train", "test", "seed", "table"):
        if (getattr(args, name) or 0) < 0:
            p.error(f"--{name} must not be negative")
    if args.min_die < 0:
        p.error("--min-die must not be negative")
    for name in ("samples", "threads", "max_side"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    root = args.root or dataset.default_root(args.version)
    if args.close_ups and args.root is None:
        root = dataset.default_close_up_root(args.version)
    if args.plain and args.root is None:
        root = root.with_name(f"{root.name}-plain-{args.plain}")
    if args.smoky and args.root is None:
        root = root.with_name(f"{root.name}-smoky")
    if args.table is not None and args.root is None:
        script = "-cyrillic" if args.cyrillic else ""
        root = root.with_name(f"{root.name}-table{args.table}-{args.kind}{script}")
    if args.sheet is not None:
        try:
            sheet = dataset.contact_sheet(root, args.split)
        except ValueError as err:
            print(err, file=sys.stderr)
            return 2
        cv2.imwrite(str(args.sheet), sheet)
        print(f"{args.sheet}: {sheet.shape[1]}x{sheet.shape[0]}")
        return 0
    try:
        from vision_models.render3d import blender
    except ImportError as err:
        print(
            f"render3d needs Blender's bpy ({err}); install the render3d extra: make renders",
            file=sys.stderr,
        )
        return 2
    dataset.write_data_yaml(root)
    if args.close_ups:
        return close_ups(root, args, blender)
    planned = (
        (split, i, plan_of(args, split, i))
        for split, i in dataset.schedule(args.train, args.test)
        if not dataset.is_written(root, split, i)
    )
    todo = [(split, i, plan) for split, i, plan in planned if plan is not None]
    print(f"{root}: {len(todo)} photos to render", flush=True)
    started = time.monotonic()
    for n, (split, i, plan) in enumerate(todo, start=1):
        t0 = time.monotonic()
        render = blender.render(
            plan,
            samples=args.samples,
            threads=args.threads,
            max_side=args.max_side,
            min_die=args.min_die,
        )
        notes = {
            **plan_notes(plan, args.version),
            "dice": len(render.dice),
            "dropped": render.dropped,
            "camera": {
                "tilt_deg": round(plan.camera.tilt_deg, 1),
                "lens_mm": round(plan.camera.lens_mm, 1),
                "sensor": list(plan.camera.sensor),
            },
            "seconds": round(time.monotonic() - t0, 1),
            "size": [int(render.image.shape[1]), int(render.image.shape[0])],
            # each labelled die in the label's order: its top face's pixels, the printed
            # ones among them, and the print's colour difference from the body in the photo
            "print_seen": [
                [d.seen.top_px, d.seen.ink_px, d.seen.contrast] if d.seen else None
                for d in render.dice
            ],
        }
        if args.table is not None:
            notes["table"] = args.table
        dice = [dataset.LabelledDie(d.face, d.value, d.box) for d in render.dice]
        path = dataset.write_photo(
            root, split, i, render.image, dice, notes, jpeg_quality=plan.camera.jpeg
        )
        hours = (time.monotonic() - started) / 3600
        print(
            f"{path.name}: {len(dice)} dice, {notes['seconds']} s ({n / hours:.0f} photos/h)",
            flush=True,
        )
    return 0


def plan_of(args: argparse.Namespace, split: str, i: int) -> looks.ScenePlan | None:
    """Photo ``i``'s plan as the command's options draw it; None for a smoky twin of a
    throw with no pip die, which would be the photo itself."""
    seed = dataset.plan_seed(args.seed, split, i)
    if args.table is None:
        plan = looks.scene_plan(seed, split)
    else:
        plan = looks.table_plan(args.table, seed, split, args.kind, args.cyrillic)
    if args.version != dataset.VERSION:
        plan = looks.with_version(plan, args.version)
    if args.plain:
        plan = looks.plain(plan, args.plain)
    if args.smoky:
        if all(d.face != "pips" for d in plan.dice):
            return None
        plan = looks.smoky(plan)
    return plan


def plan_notes(plan: looks.ScenePlan, version: int) -> dict:
    """What a photo's or a throw's notes say of its plan: seed, look, dice and families."""
    return {
        "seed": plan.seed,
        "version": version,
        "kind": plan.kind,
        "families": {k: sorted(v) for k, v in looks.families(plan).items()},
        "held_out": sorted(looks.held_out_families(plan)),
    }


def close_ups(root: Path, args: argparse.Namespace, blender) -> int:
    """``--close-ups``: each throw's clear dice rendered alone, resumable by throw."""
    todo = [
        (split, i)
        for split, i in dataset.schedule(args.train, args.test)
        if not dataset.close_ups_written(root, split, i)
    ]
    print(f"{root}: {len(todo)} throws to render close up", flush=True)
    started, dice = time.monotonic(), 0
    for split, i in todo:
        t0 = time.monotonic()
        plan = looks.scene_plan(
            dataset.plan_seed(args.seed + dataset.CLOSE_UP_SEED, split, i), split, args.kind
        )
        if args.version != dataset.VERSION:
            plan = looks.with_version(plan, args.version)
        shots = blender.render_close_ups(plan, samples=args.samples, threads=args.threads)
        notes = {
            **plan_notes(plan, args.version),
            "close_ups": len(shots),
            "seconds": round(time.monotonic() - t0, 1),
        }
        labelled = [
            (shot.image, [dataset.LabelledDie(d.face, d.value, d.box) for d in shot.dice])
            for shot in shots
        ]
        dataset.write_close_ups(root, split, i, labelled, notes, jpeg_quality=plan.camera.jpeg)
        dice += len(shots)
        hours = (time.monotonic() - started) / 3600
        print(
            f"{split} throw {i}: {len(shots)} close-ups, {notes['seconds']} s "
            f"({dice / hours:.0f} dice/h)",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
