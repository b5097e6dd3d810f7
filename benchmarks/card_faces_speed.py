"""What the poker dice's own face network costs a throw: the reader on poker-dice photos
read as a game of poker dice reads them (``faces="cards"``: both face networks) against
read as any dice (the general face network alone), on cv2.dnn and onnxruntime, one
thread, decode excluded; medians of each pass, two passes each, interleaved.

    scorer render /tmp/c --images 100 --seed 5 --kind cards --held-out
    .venv/bin/python benchmarks/card_faces_speed.py /tmp/c --photos 40
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import cv2

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from scorer.vision.reader import Reader  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="a labelled set of poker-dice photos")
    parser.add_argument("--photos", type=int, default=40)
    args = parser.parse_args()
    paths = sorted((args.folder / "images" / "test").glob("*"))[: args.photos]
    if not paths:
        print(f"card_faces_speed: no photos under {args.folder}/images/test", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    frames = [cv2.imread(str(p)) for p in paths]
    for backend in ("cv2", "onnxruntime"):
        reader = Reader(backend=backend)
        if backend == "onnxruntime":
            reader.read(frames[0], faces="cards")  # sessions warm
        for faces in ("any", "cards", "any", "cards"):
            times = []
            for frame in frames:
                start = time.perf_counter()
                reader.read(frame, faces=faces)
                times.append((time.perf_counter() - start) * 1000)
            median = statistics.median(times)
            print(
                f"card_faces_speed: {backend:11s} faces={faces:5s} median {median:.1f} ms a photo"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
