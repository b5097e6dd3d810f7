"""Our dice reader against the detector people would pick, on the same decoded photos.

Times, on one thread each (``cv2.setNumThreads(1)``, onnxruntime's intra-op threads 1):
our reader (``Reader.read``, on cv2.dnn and on onnxruntime), and YOLOv8n at 320 and 640
px on onnxruntime (letterbox, blob and network; its box decoding and NMS are left out,
which flatters it). Photos: the tray-multicolor test split from ../shared (or rendered
throws where it is absent), decoded once before timing. Prints median and p95 ms a
photo, our median and p95 against YOLOv8n-320's, and what each extra die costs us (the
slope of each photo's fastest pass over the dice read, least squares).

YOLOv8n is built from ultralytics' ``yolov8n.yaml`` with random weights (they time the
same as trained ones; nothing is downloaded) and exported to ONNX once, into
``~/.cache/dice-scorer/peer/`` (``$XDG_CACHE_HOME`` if set). ultralytics needs torch
and torchvision, which the benchmark itself does not: export from a throwaway venv,
then time from the project's venv with the ``bench`` extra (onnxruntime):

    python3 -m venv /tmp/peer-venv
    /tmp/peer-venv/bin/pip install torch==2.14.1 torchvision==0.29.1 ultralytics onnx
    /tmp/peer-venv/bin/python benchmarks/vision_peer.py --export
    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/vision_peer.py [--rounds 3] [--faces pips|cards|any]

``--ours-only`` times our reader alone (no YOLOv8n files needed): median, p95 and the
cost of an extra die on both backends, without the ratios.
"""

from __future__ import annotations

import argparse
import functools
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

SIZES = (320, 640)
REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "datasets" / "tray-multicolor" / "images" / "test"


def cache_dir() -> Path:
    """Where the exported YOLOv8n files live, outside the repository."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "dice-scorer" / "peer"


def onnx_path(size: int) -> Path:
    return cache_dir() / f"yolov8n-{size}.onnx"


def export() -> int:
    """Build YOLOv8n from its yaml (random weights) and write one ONNX file per size."""
    from ultralytics import YOLO  # only in the throwaway export venv

    cache_dir().mkdir(parents=True, exist_ok=True)
    here = Path.cwd()
    for size in SIZES:
        with tempfile.TemporaryDirectory() as tmp:
            os.chdir(tmp)  # ultralytics writes beside the model it was given
            try:
                written = YOLO("yolov8n.yaml").export(
                    format="onnx", imgsz=size, dynamic=False, simplify=False, opset=17
                )
                shutil.move(written, onnx_path(size))
            finally:
                os.chdir(here)
        print(f"vision_peer: wrote {onnx_path(size)}")
    return 0


def letterbox(image, size: int):
    """The frame scaled to fit ``size`` x ``size``, padded grey, as YOLOv8 expects."""
    import cv2
    import numpy as np

    h, w = image.shape[:2]
    scale = size / max(h, w)
    nh, nw = round(h * scale), round(w * scale)
    board = np.full((size, size, 3), 114, np.uint8)
    top, left = (size - nh) // 2, (size - nw) // 2
    board[top : top + nh, left : left + nw] = cv2.resize(
        image, (nw, nh), interpolation=cv2.INTER_LINEAR
    )
    return cv2.dnn.blobFromImage(board, 1 / 255.0, swapRB=True)


def timed(runs: dict[str, Callable[[object], object]], frames: list, rounds: int):
    """Milliseconds of each run on each frame, taken in turn (frame by frame, run by run),
    so that a machine busy with other work slows every contender alike."""
    for run in runs.values():
        for frame in frames[:3]:
            run(frame)  # warm-up
    ms: dict[str, list[float]] = {label: [] for label in runs}
    for _ in range(rounds):
        for frame in frames:
            for label, run in runs.items():
                start = time.perf_counter()
                run(frame)
                ms[label].append((time.perf_counter() - start) * 1000)
    return ms


def photos() -> tuple[str, list]:
    import cv2
    import numpy as np

    if SHARED.is_dir():
        paths = sorted(SHARED.iterdir())
        return f"{len(paths)} tray-multicolor test photos", [cv2.imread(str(p)) for p in paths]
    from scorer.render import render_throw

    rng = np.random.default_rng(7)
    frames = [render_throw(rng, int(rng.integers(1, 13)), kind="mixed")[0] for _ in range(40)]
    return "40 rendered 640x640 throws of 1-12 dice", frames


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--export", action="store_true", help="write the YOLOv8n ONNX files")
    parser.add_argument("--rounds", type=int, default=3, help="passes over the photos")
    parser.add_argument("--ours-only", action="store_true", help="time our reader alone")
    parser.add_argument(
        "--faces", choices=("pips", "cards", "any"), default="any", help="the game's dice"
    )
    parser.add_argument(
        "--models", type=Path, default=None, help="folder of our networks (default: committed)"
    )
    args = parser.parse_args()
    if args.export:
        return export()
    sizes = () if args.ours_only else SIZES
    missing = [str(onnx_path(s)) for s in sizes if not onnx_path(s).is_file()]
    try:
        import onnxruntime
    except ImportError:
        missing.append("onnxruntime (pip install -e '.[bench]')")
    if missing:
        print(
            "vision_peer: skipped, missing "
            + ", ".join(missing)
            + ": see the docstring (--ours-only times our reader alone)"
        )
        return 0

    import cv2
    import numpy as np

    from scorer.vision import Reader

    cv2.setNumThreads(1)
    what, frames = photos()
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    print(f"vision_peer: {what}, {args.rounds} passes, one thread each, decode excluded")
    runs: dict[str, Callable[[object], object]] = {}
    dice: list[int] = []
    for backend in ("cv2", "onnxruntime"):
        reader = Reader(args.models, backend=backend)
        dice = [len(reader.read(f, faces=args.faces).dice) for f in frames] * args.rounds
        runs[f"ours ({backend})"] = functools.partial(reader.read, faces=args.faces)
    for size in sizes:
        session = onnxruntime.InferenceSession(
            str(onnx_path(size)), options, providers=["CPUExecutionProvider"]
        )
        name = session.get_inputs()[0].name

        def yolo(frame, session=session, name=name, size=size):
            return session.run(None, {name: letterbox(frame, size)})

        runs[f"YOLOv8n-{size}"] = yolo
    rows = timed(runs, frames, args.rounds)
    peer = rows.get("YOLOv8n-320")
    for label, ms in rows.items():
        med, p95 = np.median(ms), np.percentile(ms, 95)
        line = f"vision_peer: {label:18s} median {med:6.2f} ms, p95 {p95:6.2f} ms"
        if label.startswith("ours"):
            # each photo's fastest pass (a busy machine only adds time), then least squares
            fastest = np.array(ms).reshape(args.rounds, -1).min(0)
            slope = float(np.polyfit(np.array(dice[: len(fastest)], float), fastest, 1)[0])
            against = (
                ""
                if peer is None
                else f"{med / np.median(peer):.2f}x and "
                f"{p95 / np.percentile(peer, 95):.2f}x YOLOv8n-320's; "
            )
            line += f"  ({against}+{slope:.2f} ms a die, {np.mean(dice):.1f} dice a photo)"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
