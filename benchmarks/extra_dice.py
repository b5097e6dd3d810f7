"""A die too many: how often the table's offer, the least sure dice left out, is the throw.

Where the camera reads more dice than the game has (a side face, a token, a screw of the
tray), the table leaves out the dice read less surely than every one it keeps and offers
the rest to confirm (``scorer.table.least_sure``); where the confidences tie at the cut
it offers nothing and the players type the throw in. On labelled photos the game's
count is the labelled dice: per set, the photos read with too many dice, and of those
how often the offer was the labelled throw (every die found and read right, nothing
extra), another throw (a player then corrects it), or none.

    .venv/bin/python benchmarks/extra_dice.py [--sets DIR:FACES ...] [--split test]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

SHARED = REPO.parent / "shared" / "datasets"
SETS = (f"{SHARED}/tray-multicolor:pips", f"{SHARED}/webcam-white:pips")


def main(argv: list[str] | None = None) -> int:
    import cv2

    from scorer.table import least_sure
    from scorer.vision.evaluation import match
    from scorer.vision.labelled import load_split
    from scorer.vision.reader import Reader
    from scorer.vision.reading import Reading

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="+", default=list(SETS), help="DIR:FACES each")
    parser.add_argument("--split", default="test")
    args = parser.parse_args(argv)
    reader = Reader()
    for spec in args.sets:
        root, _, faces = spec.rpartition(":")
        if not Path(root).is_dir():
            print(f"extra_dice: skipped {root}: not here")
            continue
        photos = load_split(root, args.split)
        over = right = wrong = none = 0
        for photo in photos:
            image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
            if image is None:
                continue
            reading = reader.read(image, faces)
            if len(reading.dice) <= len(photo.dice):
                continue
            over += 1
            out = least_sure(reading.dice, len(photo.dice))
            if not out:
                none += 1
                continue
            kept = tuple(d for i, d in enumerate(reading.dice) if i not in out)
            pairs, missed, extra = match(photo, Reading(kept, reading.ms))
            exact = not missed and not extra
            exact = exact and all(
                photo.dice[i].value == kept[j].value and photo.dice[i].face == kept[j].face
                for i, j in pairs
            )
            right += exact
            wrong += not exact
        print(
            f"extra_dice: {Path(root).name} ({args.split}, --faces {faces}): {len(photos)} photos, "
            f"{over} read with too many dice: the offer was the throw on {right}, another "
            f"throw on {wrong}, none (a tie) on {none}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
