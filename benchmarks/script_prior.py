"""What reading poker dice printing 9 10 В Д К Т costs, and how big their prior is.

Reads rendered throws of the held-out card families printing Cyrillic as a poker-dice
game does (told how many dice were thrown): untold (the Latin networks, as a set not
marked Cyrillic reads), told (the Cyrillic networks with the prior alone: a set marked
Cyrillic, never taught), and with a set taught from 5 photos as a table teaches it,
alone and joined to the prior; interleaved photo by photo on one thread. Prints each
way's median and p95 a photo, the dice right, and the prior's size.

    .venv/bin/python benchmarks/script_prior.py [--photos 40]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from scorer.render import write_dataset
from scorer.vision.evaluation import match, same_face
from scorer.vision.labelled import load_split
from scorer.vision.profile import FILE_NAME, DiceProfile
from scorer.vision.reader import Reader
from scorer.vision.script import load_prior, prior_folder
from scorer.vision.teaching import teach_photos


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--photos", type=int, default=40)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    reader = Reader(ranks="cyrillic")
    prior = load_prior(reader, "cyrillic")
    if prior is None:
        raise SystemExit("no prior: python -m vision_models.train.ranks")
    with tempfile.TemporaryDirectory() as work:
        read_set, lesson = Path(work) / "read", Path(work) / "lesson"
        write_dataset(read_set, args.photos, 5, kind="cards", held_out=True, ranks="cyrillic")
        write_dataset(lesson, 5, 6, kind="cards", held_out=True, ranks="cyrillic")
        own = DiceProfile("taught", model=reader.faces_digest("card"))
        teach_photos(reader, own, load_split(lesson, "test"), "lesson", prior=prior)
        ways = {"untold": None, "told: the prior": prior, "told, taught 5": own}
        ways["told, taught 5 + prior"] = own.joined(prior)
        photos = load_split(read_set, "test")
        times: dict[str, list[float]] = {way: [] for way in ways}
        right = dict.fromkeys(ways, 0)
        for photo in photos:
            image = cv2.imread(str(photo.path))
            for way, profile in ways.items():
                reader.profile = profile
                reader.ranks = "latin" if way == "untold" else "cyrillic"
                start = time.perf_counter()
                reading = reader.read(image, "cards", least=len(photo.dice))
                times[way].append((time.perf_counter() - start) * 1000.0)
                pairs, _, _ = match(photo, reading)
                right[way] += sum(same_face(photo.dice[i], reading.dice[j]) for i, j in pairs)
    dice = sum(len(p.dice) for p in photos)
    print(f"{len(photos)} photos, {dice} dice, one thread, cv2.dnn:")
    for way, ms in times.items():
        p95 = float(np.percentile(ms, 95))
        print(
            f"  {way:22s} median {statistics.median(ms):6.1f} ms, p95 {p95:6.1f} ms, "
            f"{right[way]} dice right ({100 * right[way] / dice:.2f} %)"
        )
    folder = prior_folder(reader.model_dir, "cyrillic")
    assert folder is not None
    size = (folder / FILE_NAME).stat().st_size / 1e6
    print(f"the prior: {len(prior)} crops, {size:.2f} MB, temperature {prior.temperature:g}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
