"""How fast the renderer makes photos: training renders thousands on the Pi-less dev box.

Prints wall and CPU seconds per 640x640 photo for each kind, per demo frame, and per
demo camera throw (a throw renders at each press, with the held dice left lying).
CPU time is printed too because the dev machine's cores are shared.
"""

from __future__ import annotations

import time

import numpy as np

from scorer.demo import DemoTable, demo_frames
from scorer.render.scene import render_throw


def main(n: int = 30) -> None:
    """Render ``n`` throws of 1-6 dice per kind, after one warm-up, and print the figures."""
    render_throw(np.random.default_rng(0), 5, kind="mixed")  # warm the art caches
    for kind in ("pips", "cards", "mixed"):
        rng = np.random.default_rng(1)
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(n):
            render_throw(rng, int(rng.integers(1, 7)), kind=kind)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        per_wall, per_cpu = wall / n * 1000, cpu / n * 1000
        print(f"render {kind:5s}: {per_wall:6.1f} ms wall, {per_cpu:6.1f} ms CPU a photo")
    wall, cpu = time.perf_counter(), time.process_time()
    demo_frames(n=10)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"demo frame  : {wall / 10 * 1000:6.1f} ms wall, {cpu / 10 * 1000:6.1f} ms CPU a frame")
    tray = DemoTable(seed=0)
    tray.throw()
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(n):  # none, one or two of the last throw's dice held
        tray.throw(held=[d.value for d in tray.dice[: i % 3]])
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"demo throw  : {wall / n * 1000:6.1f} ms wall, {cpu / n * 1000:6.1f} ms CPU a press")


if __name__ == "__main__":
    main()
