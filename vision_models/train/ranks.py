"""Build the prior of poker dice printing Cyrillic ranks: ``python -m vision_models.train.ranks``.

Renders throws printing 9 10 В Д К Т: of the train card families (``scorer render
--ranks cyrillic``) and of random art set in training fonts that have those letters
(matplotlib's, ``pip install matplotlib``; the held-out families and font never), teaches
a dice profile from them as ``scorer teach`` does, with the face networks in ``--out``,
keeps its taught crops alone (no size: a set's dice are as big as its camera makes them;
no look of a tray; no spot taught as no die), and reads other throws of the same kinds
with it to say how sure it may be. A set that prints Cyrillic reads with it
(``scorer.vision.script``). No torch: about three minutes on the CPU, the last line of
``make train``, after the networks it describes.
"""

from __future__ import annotations

import argparse
import csv
import random
import tempfile
import time
from pathlib import Path

import cv2

from scorer.render.art import typefaces
from scorer.render.scene import RANDOM_TYPESET, write_dataset
from scorer.vision.evaluation import match, same_face
from scorer.vision.labelled import LabelledPhoto, load_split
from scorer.vision.profile import TRIAL, DiceProfile
from scorer.vision.reader import Reader
from scorer.vision.script import PRIORS, prior_folder
from scorer.vision.teaching import teach_photos

OUT = Path(__file__).resolve().parents[1]
#: throws of the train card families, and of random art in training fonts (those with the
#: script's letters; about half of them): the fonts are what carries to unseen art
PHOTOS = 100
TYPESET = 200
SEED = 11
#: about this many throws of random typeset art, not taught, say how sure it may be: art
#: it has not seen, as a table's dice are (the train families it has would flatter it)
CALIBRATION = 40
#: ... and so do these 3D-rendered tables of Cyrillic poker dice (``python -m
#: vision_models.render3d --table N --kind cards --cyrillic``): art as a camera sees it,
#: small, slanted, lit, where 2D art alone left the prior surer than right
#: (``vision_models/ranks-cyrillic.md``)
CALIBRATION_TABLES = (0, 1)
PER_FACE = 80


def build(
    out: Path,
    ranks: str = "cyrillic",
    photos: int = PHOTOS,
    typeset: int = TYPESET,
    seed: int = SEED,
    per_face: int = PER_FACE,
) -> Path:
    """Write ``out``'s prior of dice printing ``ranks``; returns its file."""
    folder = prior_folder(out, ranks)
    if folder is None:
        raise SystemExit(f"no prior is built for {ranks} ranks (only {', '.join(PRIORS)})")
    if typeset and not typefaces():
        raise SystemExit("no TrueType fonts for the typeset dice: pip install matplotlib")
    tables = [table_root(n, ranks) for n in CALIBRATION_TABLES]
    missing = [str(t) for t in tables if not (t / "images" / "test").is_dir()]
    if missing:
        raise SystemExit(
            f"no 3D tables of {ranks} poker dice at {', '.join(missing)}: `make cyrillic-tables` "
            "renders them"
        )
    reader = Reader(out, ranks=ranks)
    with tempfile.TemporaryDirectory(prefix="ranks-") as work:

        def render(name: str, n: int, first: int, family: str | None = None) -> Path:
            root = Path(work) / name
            write_dataset(root, n, first, kind="cards", held_out=False, ranks=ranks, family=family)
            return root

        fixed = render("fixed", photos, seed)
        fonts = render("fonts", typeset, seed + 2, RANDOM_TYPESET)
        held = render("held", 2 * CALIBRATION, seed + 1, RANDOM_TYPESET)
        lessons = load_split(fixed, "test") + in_script(fonts, ranks)
        random.Random(seed).shuffle(lessons)
        profile = DiceProfile(f"poker dice printing {ranks}", model=reader.faces_digest("card"))
        profile.per_face = per_face
        teach_photos(reader, profile, lessons, f"rendered-{ranks}")
        seen = in_script(held, ranks) + [p for t in tables for p in load_split(t, "test")]
        prior = calibrated(profile.as_prior(), reader, seen)
    return prior.save(folder)


def table_root(table: int, ranks: str, version: int = 1) -> Path:
    """Where ``python -m vision_models.render3d --table N --kind cards --cyrillic`` keeps
    table N's photos (beside the 3D render cache); the committed prior was fitted on the
    first look's tables (``make cyrillic-tables``)."""
    from vision_models.render3d.dataset import default_root

    root = default_root(version)
    return root.with_name(f"{root.name}-table{table}-cards-{ranks}")


def in_script(root: Path, ranks: str) -> list[LabelledPhoto]:
    """The photos of a rendered set whose every die prints ``ranks``: a typeset family
    whose font lacks the script's letters keeps its Latin ones."""
    with (root / "renders-test.csv").open(encoding="utf-8") as fh:
        wanted = {
            row["image"]
            for row in csv.DictReader(fh)
            if all(name.endswith(ranks) for name in row["families"].split())
        }
    return [p for p in load_split(root, "test") if p.path.stem in wanted]


def calibrated(prior: DiceProfile, reader: Reader, photos: list[LabelledPhoto]) -> DiceProfile:
    """The prior, told how sure its readings may be from photos it was not taught from
    (its teaching's own trials read each photo without itself, but beside crops of the
    same families)."""
    prior.trials, prior.seen = {}, {}
    prior.choose()
    reader.profile = prior
    rows: list[list[float]] = []
    try:
        for photo in photos:
            reading = reader.read(cv2.imread(str(photo.path)), "cards")
            pairs, _, _ = match(photo, reading)
            right = {j for i, j in pairs if same_face(photo.dice[i], reading.dice[j])}
            rows += [[float(d.confidence), float(j in right)] for j, d in enumerate(reading.dice)]
    finally:
        reader.profile = None
    score = int(sum(r for _, r in rows))
    prior.record("calibration", dict.fromkeys(TRIAL, score), dict.fromkeys(TRIAL, rows))
    return prior


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m vision_models.train.ranks", description=__doc__
    )
    parser.add_argument("--out", type=Path, default=OUT, help="the networks' folder")
    parser.add_argument("--photos", type=int, default=PHOTOS, help="rendered throws to teach")
    parser.add_argument("--typeset", type=int, default=TYPESET, help="random typeset throws")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--per-face", type=int, default=PER_FACE, help="crops kept a face")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    path = build(
        args.out, photos=args.photos, typeset=args.typeset, seed=args.seed, per_face=args.per_face
    )
    profile = DiceProfile.load(path.parent)
    print(
        f"{path}: {len(profile)} crops, {path.stat().st_size / 1e6:.2f} MB, "
        f"temperature {profile.temperature:g}, {time.perf_counter() - start:.0f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
