"""How fast the dice reader is on one core, and how much memory ``scorer read`` takes.

Prints the median and 95th-percentile milliseconds per 640x640 photo with
``cv2.setNumThreads(1)`` (decode excluded, as ``Reading.ms``) and what each extra die
costs (the slope of each photo's fastest pass over the dice read, least squares), then
the peak RSS of a fresh ``scorer read`` process reading one photo, then each network
alone on cv2.dnn and on onnxruntime. Photos: the tray-multicolor test split from
../shared (or rendered throws when ../shared is absent), then 30 rendered throws of five
held-out poker dice, where the court network looks again at every jack, queen and king.

    .venv/bin/python benchmarks/vision_speed.py [--models DIR] [--backend onnxruntime]

``--models`` measures another pair of ONNX files (a candidate from ``make train``);
``--backend onnxruntime`` runs them on onnxruntime (one intra-op thread) instead of cv2.dnn.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from scorer.vision import Reader

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "datasets" / "tray-multicolor" / "images" / "test"


def photos() -> list[tuple[str, list[np.ndarray]]]:
    from scorer import render

    rng = np.random.default_rng(5)
    cards = [render.render_throw(rng, 5, kind="cards", held_out=True)[0] for _ in range(30)]
    poker = ("30 rendered throws of 5 held-out poker dice", cards)
    if SHARED.is_dir():
        paths = sorted(SHARED.iterdir())
        tray = [cv2.imread(str(p)) for p in paths]
        return [(f"{len(paths)} tray-multicolor test photos", tray), poker]
    rng = np.random.default_rng(7)
    frames = [render.render_throw(rng, 5, kind="mixed")[0] for _ in range(30)]
    return [("30 rendered 640x640 throws of 5 dice", frames), poker]


def peak_of_scorer_read(models: Path | None, backend: str = "cv2") -> float:
    """Peak RSS (MB) of a fresh ``scorer read --json`` process reading one photo."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "throw.png"
        image = cv2.imread(str(next(iter(sorted(SHARED.iterdir()))))) if SHARED.is_dir() else None
        if image is None:
            from scorer import render

            image = render.render_throw(np.random.default_rng(7), 5, kind="mixed")[0]
        cv2.imwrite(str(path), image)
        code = "import sys; from scorer.cli import main; sys.exit(main(sys.argv[1:]))"
        extra = ["--models", str(models)] if models else []
        extra += ["--backend", backend]
        subprocess.run(
            [sys.executable, "-c", code, "read", "--json", *extra, str(path)],
            check=True,
            capture_output=True,
            cwd=REPO,
        )
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def network_times(models: Path | None) -> None:
    """Each network alone on random input, cv2.dnn against onnxruntime (where installed):
    median ms a call of a fixed batch (one finder's board; 1 and 16 face crops; 1 and 4
    court crops), one thread."""
    from scorer.vision.network import load_net
    from scorer.vision.reader import default_model_dir

    try:
        import onnxruntime  # noqa: F401 (only whether it is there)
    except ImportError:
        print("vision_speed: onnxruntime not installed, networks timed on cv2.dnn only")
    backends = ("cv2", "onnxruntime") if "onnxruntime" in sys.modules else ("cv2",)
    folder = models or default_model_dir()
    rng = np.random.default_rng(0)
    for name, size, batches in (
        ("finder", 320, (1,)),
        ("faces", 48, (1, 16)),
        ("courts", 64, (1, 4)),
    ):
        for n in batches:
            blob = rng.random((n, 3, size, size), dtype=np.float32)
            line = []
            for backend in backends:
                net = load_net(folder / f"{name}.onnx", backend)
                ms = []
                for i in range(23):
                    t0 = time.perf_counter()
                    net.setInput(blob)
                    net.forward()
                    if i >= 3:  # warm-up
                        ms.append((time.perf_counter() - t0) * 1000)
                line.append(f"{backend} {np.median(ms):.2f} ms ({np.median(ms) / n:.3f} a crop)")
            print(f"vision_speed: {name}.onnx, batch {n}: " + ", ".join(line))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=None, help="folder of the ONNX files")
    parser.add_argument(
        "--backend", choices=("cv2", "onnxruntime"), default="cv2", help="what runs the networks"
    )
    args = parser.parse_args()
    # Memory first: a child's peak RSS counts the pages it shares with this process when
    # forked, so it is measured while this one is small (68 MB), not after it has loaded
    # the photos and a reader (about 175 MB, which the child's figure then showed).
    peak_mb = peak_of_scorer_read(args.models, args.backend)
    cv2.setNumThreads(1)
    reader = Reader(args.models, backend=args.backend)
    for what, frames in photos():
        for frame in frames[:3]:
            reader.read(frame)  # warm-up
        ms, dice = [], []
        for _ in range(2):
            for frame in frames:
                t0 = time.perf_counter()
                reading = reader.read(frame)
                ms.append((time.perf_counter() - t0) * 1000)
                dice.append(len(reading.dice))
        per_die = ""
        if np.ptp(dice) >= 5:  # photos of many numbers of dice: what one more costs
            fastest = np.array(ms).reshape(2, -1).min(0)  # each photo's fastest pass
            slope = float(np.polyfit(np.array(dice[: len(fastest)], float), fastest, 1)[0])
            per_die = f", +{slope:.2f} ms a die"
        print(f"vision_speed: {what}, {args.backend}, 1 thread, {np.mean(dice):.1f} dice per photo")
        print(
            f"vision_speed: median {np.median(ms):.1f} ms, p95 {np.percentile(ms, 95):.1f} ms"
            + per_die
        )
    print(f"vision_speed: scorer read on one photo: max RSS {peak_mb:.0f} MB")
    network_times(args.models)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
