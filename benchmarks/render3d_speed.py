"""How fast Blender's Cycles renders the physically based training photos (vision_models.render3d).

Prints wall and CPU seconds a photo (scene build, rigid-body throw and render together) for
a few training plans at one size and sample count. CPU time is printed too because the dev
machine's cores are shared. Needs bpy (``make renders`` builds .venv-render3d):

    .venv-render3d/bin/python benchmarks/render3d_speed.py [photos] [max_side] [samples] [threads]

In the main venv (no bpy) it says so and stops, so ``make bench`` still runs.
"""

from __future__ import annotations

import statistics
import sys
import time


def main(n: int = 3, max_side: int = 640, samples: int = 12, threads: int = 2) -> None:
    try:
        from vision_models.render3d import blender, dataset, looks
    except ImportError as err:
        print(f"render3d speed: skipped, needs bpy ({err}); run it in .venv-render3d")
        return
    walls, cpus = [], []
    for i in range(n):
        plan = looks.scene_plan(dataset.plan_seed(9, "train", i), "train")
        wall, cpu = time.perf_counter(), time.process_time()
        render = blender.render(plan, samples=samples, threads=threads, max_side=max_side)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        print(f"photo {i}: {len(render.dice)} dice, {walls[-1]:.1f} s wall, {cpus[-1]:.1f} s CPU")
    print(
        f"render3d {max_side}px {samples} samples {threads} threads: median "
        f"{statistics.median(walls):.1f} s wall, {statistics.median(cpus):.1f} s CPU a photo"
    )


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:5]))
