"""Issue 24's measure on sets the reader never saw: every rendered table, taught and read.

A rendered table (`python -m vision_models.render3d --table N --kind pips|cards ...`) is
one make of a held-out family thrown 60 times under one fixed camera, in
``~/.cache/dice-scorer/render3d/v<VERSION>-table<N>-<kind>``. For each table found there
(or named), this teaches a fresh profile from its first test photos as ``scorer teach``
does (10 for poker dice, 5 for pip dice: the issue's figures), reads the rest untaught
and taught as ``scorer eval --skip N [--profile P]`` does, with the table's dice kind,
and prints per table and summed per kind: dice right of those labelled, missed, extra,
confident and wrong (threshold 0.8). One command instead of two a table and a sum by
hand, so that a change to the reader or its networks is judged on every table alike.

    .venv/bin/python benchmarks/taught_tables.py [--tables NAME ...] [--models DIR]
        [--root DIR] [--told]
"""

from __future__ import annotations

import argparse
import functools
import re
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from scorer.vision.evaluation import Report  # noqa: E402

#: photos taught a table of each kind before the rest are read (issue 24's figures)
TAUGHT = {"cards": 10, "pips": 5}
TABLE = re.compile(r"^v(\d+)-table(\d+)-(pips|cards)$")


def tables(
    root: Path, names: list[str] | None, version: int | None = None
) -> list[tuple[Path, str]]:
    """(folder, kind) of each table beside the render cache, in table order (of the
    renderer's look ``version`` alone where given: the README's are of look 1)."""
    found = []
    for folder in sorted(root.parent.iterdir()) if root.parent.is_dir() else []:
        match = TABLE.match(folder.name)
        if not match or (names is not None and folder.name not in names):
            continue
        if version is None or int(match[1]) == version:
            found.append((int(match[2]), match[3], folder))
    found.sort()
    return [(folder, kind) for _, kind, folder in found]


def line(report: Report) -> str:
    """Dice right of those labelled, missed, extra, and the confident ones wrong."""
    sure, wrong, _, _ = report.confident()
    return (
        f"{report.correct:4d}/{report.labelled:<4d} {100 * report.per_die:6.2f} %  "
        f"missed {report.missed:3d}  extra {report.extra:3d}  sure & wrong {wrong:2d} of {sure}"
        f" ({report.confident_extra()} extra)"
    )


def main(argv: list[str] | None = None) -> int:
    from scorer.vision.evaluation import DEFAULT_THRESHOLD, evaluate
    from scorer.vision.labelled import load_split
    from scorer.vision.reader import Reader
    from scorer.vision.teaching import open_profile, teach_photos
    from vision_models.render3d.dataset import default_root

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=None, help="render cache (default: ~/.cache)")
    parser.add_argument(
        "--tables", nargs="+", default=None, help="folder names, e.g. v1-table0-cards"
    )
    parser.add_argument("--models", type=Path, default=None, help="folder of the .onnx networks")
    parser.add_argument(
        "--version", type=int, default=None, help="only tables of the renderer's look N (vN-...)"
    )
    parser.add_argument(
        "--told", action="store_true", help="read each photo told its dice, as the table does"
    )
    args = parser.parse_args(argv)
    found = tables(args.root or default_root(), args.tables, args.version)
    if not found:
        print("taught tables: none rendered; `make tables` renders those of the README")
        return 0
    sums: dict[str, tuple[Report, Report]] = {}
    print(f"{'table':18s} {'untaught':69s} taught")
    for folder, kind in found:
        photos = load_split(folder, "test")
        n = TAUGHT[kind]
        reader = Reader(args.models)
        read = functools.partial(reader.read, faces=kind)
        untaught = evaluate(read, photos[n:], told=args.told)
        with tempfile.TemporaryDirectory() as where:
            profile = open_profile(Path(where) / "set", reader, create=True)
            teach_photos(reader, profile, photos[:n], f"{folder.name}/test")
            reader.profile = profile
            taught = evaluate(read, photos[n:], told=args.told)
        print(f"{folder.name:18s} {line(untaught):69s} {line(taught)}")
        # a kind's sum is one report of all its tables' photos
        both = sums.setdefault(kind, (Report(DEFAULT_THRESHOLD), Report(DEFAULT_THRESHOLD)))
        for total, report in zip(both, (untaught, taught), strict=True):
            total.results.extend(report.results)
    for kind, (untaught, taught) in sums.items():
        print(f"{'all ' + kind:18s} {line(untaught):69s} {line(taught)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
