"""What looking after the camera costs per press: judging frames and the timeout thread.

Every capture is checked for black and frozen frames and runs on a daemon
thread so a hung driver cannot hang the table. This prints the cost of each,
per frame of the sizes the adapters ask for, so it can be weighed against a
capture (tens to hundreds of ms on a Pi). Wall and CPU time: the dev
machine's cores are shared.

    .venv/bin/python benchmarks/devices_overhead.py
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from scorer.devices import ResilientCamera
from scorer.devices.fake import FakeCamera
from scorer.devices.faults import is_black, is_repeat


def per_call(n: int, call: Callable[[], object]) -> tuple[float, float]:
    """Mean wall and CPU milliseconds of ``call`` over ``n`` runs, after one warm-up."""
    call()
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(n):
        call()
    return (time.perf_counter() - wall) / n * 1000, (time.process_time() - cpu) / n * 1000


def main(n: int = 50) -> None:
    rng = np.random.default_rng(0)
    for width, height in ((1280, 720), (1920, 1080)):
        frame = rng.integers(0, 256, (height, width, 3), dtype=np.uint8)
        twin = frame.copy()
        noisy = frame.copy()
        noisy[-1, -1, -1] ^= 1  # worst case for the repeat check: differs in the last byte
        for label, call in (
            ("is_black", lambda f=frame: is_black(f)),
            ("is_repeat (equal)", lambda f=frame, t=twin: is_repeat(f, t)),
            ("is_repeat (last byte differs)", lambda f=frame, o=noisy: is_repeat(f, o)),
        ):
            wall, cpu = per_call(n, call)
            print(f"{width}x{height} {label:30s}: {wall:6.2f} ms wall, {cpu:6.2f} ms CPU")
    hardware = FakeCamera(frame=rng.integers(0, 256, (720, 1280, 3), dtype=np.uint8))
    raw_wall, raw_cpu = per_call(n, lambda: hardware.capture(3))
    with ResilientCamera(hardware.open, name="fake", watch_every=None) as camera:
        wall, cpu = per_call(n, lambda: camera.capture(3))
    print(f"3 frames 1280x720, raw fake  : {raw_wall:6.2f} ms wall, {raw_cpu:6.2f} ms CPU")
    print(f"3 frames 1280x720, supervised: {wall:6.2f} ms wall, {cpu:6.2f} ms CPU")
    print(f"supervision overhead a press : {wall - raw_wall:6.2f} ms wall")


if __name__ == "__main__":
    main()
