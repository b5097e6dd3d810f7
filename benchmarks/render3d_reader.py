"""The reader on the physically based renders' held-out families (dice it never trained on).

Reads the render cache's ``test`` split (``make renders``; every test photo shows at
least one held-out family: pearl and wood bodies, square pips, the sun emblem, mono and
script fonts, emoji courts, leather and printed-cloth trays), telling the reader the
photo's kind of dice as a table would (pips, cards; a mixed tray ``any``). Prints the
whole split's figures as ``scorer eval`` does, then one line per kind of tray (pips,
cards, mixed) and one per held-out family over the photos that show it:

    .venv/bin/python benchmarks/render3d_reader.py [--skip M] [--count N] [--models DIR]
        [--root DIR] [--told]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

FACES = {"pips": "pips", "cards": "cards", "mixed": "any"}


def main(argv: list[str] | None = None) -> int:
    from scorer.vision.evaluation import Report, evaluate
    from scorer.vision.labelled import load_split
    from scorer.vision.reader import Reader
    from vision_models.render3d.dataset import default_root

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=None, help="render cache (default: ~/.cache)")
    parser.add_argument("--count", type=int, default=None, help="N test photos (after --skip)")
    parser.add_argument("--skip", type=int, default=0, help="leave out the first N test photos")
    parser.add_argument("--models", type=Path, default=None, help="folder of the .onnx networks")
    parser.add_argument(
        "--told", action="store_true", help="read each photo told its dice, as the table does"
    )
    args = parser.parse_args(argv)
    root = args.root or default_root()
    if not (root / "images" / "test").is_dir():
        print(f"render3d reader: no test photos in {root}; run `make renders`")
        return 0
    photos = load_split(root, "test")[args.skip :][: args.count]
    reader = Reader(args.models)
    whole = Report(reader.threshold)
    families: dict[str, Report] = defaultdict(lambda: Report(reader.threshold))
    kinds: dict[str, Report] = defaultdict(lambda: Report(reader.threshold))
    for photo in photos:
        notes = json.loads((root / "notes" / "test" / f"{photo.path.stem}.json").read_text())
        faces = FACES[notes["kind"]]
        report = evaluate(
            lambda image, f=faces, **told: reader.read(image, faces=f, **told),
            [photo],
            told=args.told,
        )
        [result] = report.results
        whole.add(result)
        kinds[notes["kind"]].add(result)
        for family in notes["held_out"]:
            families[family].add(result)
    print(f"render3d test split of {root} ({len(photos)} photos, held-out families)")
    for line in whole.lines():
        print(f"  {line}")
    print("  per kind of tray and per held-out family (photos showing it):")
    print("  per-die, per-image, missed, extra")
    for family, report in [*sorted(kinds.items()), *sorted(families.items())]:
        print(
            f"    {family:<24} {report.per_die:6.1%} {report.per_image:6.1%}"
            f"  {report.missed:3d} {report.extra:3d}  ({report.labelled} dice)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
