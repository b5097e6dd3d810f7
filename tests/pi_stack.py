"""The reader on the Raspberry Pi's own stack reads what it reads here (``make pi-stack``).

Raspberry Pi OS ships OpenCV 4.6 and numpy 1.26 from apt, and the installer uses them;
the main venv has the newest of both. ``read`` writes the readings of every test photo
(read as a mixed tray and as a game of pip dice) as this interpreter's OpenCV and numpy
make them; ``compare`` fails, naming the photo, unless two such files hold the same dice
(value, face, box, second guess), the same dice unsure, and confidences within
``TOLERANCE``. Imports only numpy, OpenCV and the
reader, so that it runs in a venv holding nothing else (the tree on ``PYTHONPATH``).

    .venv-pi/bin/python tests/pi_stack.py read pi.json
    .venv/bin/python tests/pi_stack.py read main.json
    .venv/bin/python tests/pi_stack.py compare main.json pi.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "datasets"
SPLITS = ("tray-multicolor", "webcam-white")
#: OpenCV 4.6 and 5 run the finder with different kernels (~1e-7 apart); where that moves
#: a die's centre across a pixel boundary its crop moves a pixel, and its confidence by up
#: to 0.026 (measured on the shared test splits, OpenCV 4.6.0 against 5.0.0)
TOLERANCE = 0.05
#: each photo is read as a mixed tray and as a game of pip dice reads it
FACES = ("any", "pips")


def photos() -> list[Path]:
    """The shared test splits' photos, or the repository's sample renders without them."""
    found = [p for split in SPLITS for p in sorted((SHARED / split / "images" / "test").glob("*"))]
    return found or sorted((REPO / "docs" / "samples").glob("*.png"))


def read(out: Path) -> int:
    import cv2
    import numpy as np

    from scorer.vision import Reader

    reader = Reader()
    threshold = reader.threshold
    readings = {}
    for path in photos():
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        for faces in FACES:
            # a game of pip dice also looks again with the pip finder where a die is unsure
            dice = reader.read(image, faces=faces).dice
            readings[f"{path.relative_to(path.parents[3])} ({faces})"] = [
                [d.value, d.face, list(d.box), d.guess, d.confidence < threshold, d.confidence]
                for d in dice
            ]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(readings, indent=0) + "\n")
    print(
        f"pi_stack: OpenCV {cv2.__version__}, numpy {np.__version__}: "
        f"{sum(map(len, readings.values()))} dice in {len(readings)} readings -> {out}"
    )
    return 0


def differences(mine: dict, theirs: dict) -> list[str]:
    """What differs between two files of readings, one line a photo."""
    problems = [f"{name}: read on one stack only" for name in sorted(set(mine) ^ set(theirs))]
    for name in sorted(set(mine) & set(theirs)):
        a, b = mine[name], theirs[name]
        if [d[:5] for d in a] != [d[:5] for d in b]:
            problems.append(f"{name}: {[d[:5] for d in a]} against {[d[:5] for d in b]}")
        elif any(abs(x[5] - y[5]) > TOLERANCE for x, y in zip(a, b, strict=True)):
            problems.append(f"{name}: confidences {[x[5] for x in a]} against {[y[5] for y in b]}")
    return problems


def widest(mine: dict, theirs: dict) -> float:
    """The largest confidence difference of one die between the two files."""
    pairs = [
        abs(x[5] - y[5])
        for name in set(mine) & set(theirs)
        for x, y in zip(mine[name], theirs[name], strict=False)
    ]
    return max(pairs, default=0.0)


def compare(first: Path, second: Path) -> int:
    mine, theirs = json.loads(first.read_text()), json.loads(second.read_text())
    problems = differences(mine, theirs)
    for line in problems:
        print(f"pi_stack: {line}", file=sys.stderr)
    if problems:
        print(f"pi_stack: {len(problems)} readings differ", file=sys.stderr)
        return 1
    if not mine:
        print("pi_stack: no photos were read", file=sys.stderr)
        return 1
    dice = sum(map(len, mine.values()))
    print(
        f"pi_stack: {len(mine)} readings, {dice} dice read alike on both stacks"
        f" (confidences at most {widest(mine, theirs):.4f} apart)"
    )
    return 0


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "read":
        return read(Path(argv[1]))
    if len(argv) == 3 and argv[0] == "compare":
        return compare(Path(argv[1]), Path(argv[2]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
