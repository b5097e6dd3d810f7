"""Choose the reader's thresholds on photos training never fitted: the held-out eighth of
the train splits (the same split ``python -m vision_models.train`` makes) and fresh renders
of the training families. The test splits are never looked at here.

    .venv/bin/python -m vision_models.train.tune
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np

from scorer.vision import reader as reader_module
from scorer.vision.evaluation import evaluate
from scorer.vision.labelled import LabelledPhoto, load_split
from vision_models.train.__main__ import SEED
from vision_models.train.data import SHARED


def held_out_photos() -> dict[str, list[LabelledPhoto]]:
    """The photos ``__main__`` kept out of fitting (same seed, same order of draws)."""
    rng = np.random.default_rng(SEED)
    out = {}
    for name in ("tray-multicolor", "webcam-white"):
        photos = [p for p in load_split(SHARED / name, "train") if p.dice]
        order = rng.permutation(len(photos))
        out[name] = [photos[i] for i in order[: len(photos) // 8]]
    return out


def rendered(kind: str, n: int, seed: int = 99) -> list[LabelledPhoto]:
    from scorer import render

    folder = Path(tempfile.mkdtemp(prefix=f"tune-{kind}-"))
    render.write_dataset(folder, n, seed, kind=kind, held_out=False, split="test")
    return load_split(folder, "test")


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m vision_models.train.tune")
    parser.add_argument("--models", type=Path, default=None, help="folder with the ONNX files")
    args = parser.parse_args(argv)
    sets = held_out_photos()
    sets["rendered cards (train families, fresh seed)"] = rendered("cards", 60)
    sets["rendered mixed (train families, fresh seed)"] = rendered("mixed", 60)
    reader = reader_module.Reader(args.models)
    # SAME_DIE: how close a weaker peak may lie to a die and still be another die (side
    # faces of big, slanted dice get peaks of their own); SURE_DIE: heat that makes a die
    for same_die, sure_die in ((0.5, 0.7), (0.65, 0.7), (0.8, 0.7), (0.5, 0.5), (0.5, 0.9)):
        reader_module.SAME_DIE = same_die
        reader_module.SURE_DIE = sure_die
        for name, photos in sets.items():
            report = evaluate(reader.read, photos)
            print(
                f"SAME_DIE {same_die} SURE_DIE {sure_die}  {name}: per-die {report.per_die:.4f} "
                f"exact {report.per_image:.4f} missed {report.missed} extra {report.extra}"
            )
            for t in (0.5, 0.6, 0.7, 0.8, 0.9, 0.95):
                report.threshold = t
                sure, wrong, unsure, total = report.confident()
                print(
                    f"    threshold {t}: confident wrong {wrong}/{sure}, "
                    f"unsure {unsure}/{total} ({100 * unsure / max(total, 1):.1f} %)"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
