"""Dice profiles: how long teaching takes, what a profile costs a reading, how big it gets.

Prints (issue 24's budget in brackets):
- teaching 5 photos of rendered dice as ``scorer teach`` does (<= 10 s),
- the median time to read a photo untaught, with the taught profile, with its vote forced
  on (the most a profile costs), and with a full profile voting (<= +2 ms),
- the size of that profile, and of a full one: every face of a kind and "not a die" at
  the most crops a profile keeps (<= 5 MB),
- how long judging the set's size on its taught photos takes (``teaching.judge``).

    python benchmarks/teach_profiles.py [--photos 5] [--kind pips|cards] [--threads 1]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from scorer.dice import BACKGROUND, face_class
from scorer.render import write_dataset
from scorer.vision.crop import face_crop
from scorer.vision.labelled import load_split
from scorer.vision.profile import LOOK_PHOTOS, MAX_PER_FACE, NEARS, DiceProfile
from scorer.vision.reader import Reader
from scorer.vision.sweep import windows
from scorer.vision.teaching import (
    JUDGED_PHOTOS,
    judge,
    named_dice,
    open_profile,
    teach_dice,
    teach_photos,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=5, help="photos taught (default 5)")
    parser.add_argument("--read", type=int, default=20, help="photos read (default 20)")
    parser.add_argument("--kind", choices=("pips", "cards"), default="cards")
    parser.add_argument("--threads", type=int, default=1, help="OpenCV threads (default 1)")
    args = parser.parse_args()
    cv2.setNumThreads(args.threads)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "set"
        write_dataset(folder, args.photos + args.read, 5, kind=args.kind, held_out=True)
        photos = load_split(folder, "test")
        reader = Reader()
        profile = open_profile(Path(tmp) / "profile", reader, create=True)

        start = time.perf_counter()
        lesson = teach_photos(reader, profile, photos[: args.photos], "benchmark")
        taught_s = time.perf_counter() - start
        path = profile.save(Path(tmp) / "profile")
        print(
            f"teach {lesson.photos} photos ({lesson.dice} dice, held-out {args.kind} renders): "
            f"{taught_s:.2f} s   [<= 10 s]"
        )

        images = [cv2.imread(str(p.path)) for p in photos[args.photos :]]
        counts = [len(p.dice) for p in photos[args.photos :]]
        full = _full_profile(reader, Path(tmp) / "more", args.kind)
        full_path = full.save(Path(tmp) / "full")
        opened = open_profile(Path(tmp) / "profile", reader)
        opened.near = NEARS[0]  # the vote always on: what a profile can cost at most
        full.near = NEARS[0]
        profiles = {
            "untaught": None,
            "taught": profile,
            "taught, told": profile,  # told how many dice were thrown, as a table is
            "vote on": opened,
            "full, vote on": full,
        }
        # read as a game of these dice reads them (poker dice with both face networks)
        faces = "cards" if args.kind == "cards" else "pips"
        times: dict[str, list[float]] = {name: [] for name in profiles}
        names = list(profiles)
        for rep in range(4):
            order = names[rep:] + names[:rep]  # each profile read first as often: no warm-up bias
            for image, count in zip(images, counts, strict=True):
                for name in order:
                    reader.profile = profiles[name]
                    told = count if name.endswith("told") else 0
                    times[name].append(_timed(reader, image, faces, told))
        print(
            f"read a photo ({len(images)} photos x 4, CPU time), median ms and median extra "
            "ms a photo:"
        )
        for name in profiles:
            extra = statistics.median(
                t - u for t, u in zip(times[name], times["untaught"], strict=True)
            )
            gate = "" if profiles[name] is None else f" (gate {profiles[name].near:.2f})"
            print(f"  {name:14s}{gate:13s} {statistics.median(times[name]):6.1f} ms  {extra:+.2f}")
        print("  [<= +2 ms a photo]")
        print(f"profile of {len(profile)} taught dice: {path.stat().st_size / 1e6:.2f} MB")
        image, photo = images[0], photos[args.photos]
        start = time.perf_counter()
        taught_dice = named_dice(reader, image, photo)
        teach_dice(reader, full, image, taught_dice, "one more throw")
        full.save(Path(tmp) / "full")
        print(
            f"a written throw of {len(taught_dice)} dice taught to the full profile and saved: "
            f"{(time.perf_counter() - start) * 1000:.0f} ms (wall)"
        )
        reader.profile = profile
        views = []
        for photo in photos[: args.photos]:
            shown = cv2.imread(str(photo.path))
            views.append((f"benchmark:{photo.path.name}", shown, named_dice(reader, shown, photo)))

        def read(trial: DiceProfile, shown: np.ndarray):
            reader.profile = trial
            return reader.read(shown, faces)

        start = time.perf_counter()
        judge(profile, views, read)
        print(
            f"its size judged on its {len(views)} taught photos (each read twice; the table "
            f"judges up to {JUDGED_PHOTOS} after each written turn, off the game's thread): "
            f"{(time.perf_counter() - start) * 1000:.0f} ms (wall)"
        )
        print(
            f"a full profile ({len(full)} crops: up to {MAX_PER_FACE} of each face and of "
            f"'not a die', and {full.look_windows[0]} windows of {LOOK_PHOTOS} photos): "
            f"{full_path.stat().st_size / 1e6:.2f} MB   [<= 5 MB]"
        )


def _timed(reader: Reader, image: np.ndarray, faces: str, least: int = 0) -> float:
    """CPU ms of one reading (the process's CPU time: other programs sharing the machine
    slow the wall clock, not this; with one OpenCV thread it is the reading's cost). Read
    without a count, a taught set's own look sweeps every photo; told one (``least``),
    only a photo read short."""
    start = time.process_time()
    reader.read(image, faces=faces, least=least)
    return (time.process_time() - start) * 1000.0


def _full_profile(reader: Reader, folder: Path, kind: str) -> DiceProfile:
    """A profile at its cap: MAX_PER_FACE crops of each face, cut where the labels say
    from more rendered photos, as many of bare tray ("not a die"), and the look's windows
    of its newest LOOK_PHOTOS photos."""
    write_dataset(folder, 200, 6, kind=kind, held_out=True)
    rng = np.random.default_rng(0)
    crops: dict[int, list[np.ndarray]] = {}
    looks = []
    for photo in load_split(folder, "test"):
        image = cv2.imread(str(photo.path))
        if len(looks) < LOOK_PHOTOS:
            sides = [max(d.box[2], d.box[3]) for d in photo.dice]
            sweep = reader.sweep(
                image, float(np.median(sides)), "card" if kind == "cards" else kind
            )
            centres = [d.centre for d in photo.dice]
            looks.append((windows(sweep, centres, sides, photo.path.name), photo.path.name))
        for die in photo.dice:
            label = face_class(die.face, die.value)
            crops.setdefault(label, []).append(
                face_crop(image, die.centre, max(die.box[2], die.box[3]))
            )
        side = float(np.median([max(d.box[2], d.box[3]) for d in photo.dice]))
        for _ in range(3):
            spot = rng.uniform(side, np.array(image.shape[1::-1]) - side)
            if all(np.hypot(*(spot - d.centre)) > 1.5 * side for d in photo.dice):
                crops.setdefault(BACKGROUND, []).append(face_crop(image, spot, side))
    profile = DiceProfile("full")
    for label, cut in sorted(crops.items()):
        picked = cut[:MAX_PER_FACE]
        profile.teach(picked, [label] * len(picked), f"class {label}", reader.embed)
    for (rows, labels), source in looks:
        profile.teach_look(rows, labels, source)
    return profile


if __name__ == "__main__":
    main()
