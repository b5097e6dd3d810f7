"""Demo throws: rendered photos of five dice, for the replay camera when no camera exists.

The frames are rendered on demand from a seed, so the repository carries no photos
and the demo shows the same throws every time it starts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scorer.render.scene import render_scene

DEMO_DICE = 5
#: Keeps the demo's random stream apart from other renders (12: its first throws vary well).
_DEMO_STREAM = 12


def demo_frames(
    n: int = 12, seed: int = 0, kind: str = "pips"
) -> list[tuple[np.ndarray, list[int]]]:
    """``n`` throws of five dice: (BGR photo 640x640, the values on top in label order).

    Throw ``i`` depends only on ``seed`` and ``i``, so a replay can start anywhere.
    """
    frames = []
    for i in range(n):
        rng = np.random.default_rng([_DEMO_STREAM, seed, i])
        scene = render_scene(rng, DEMO_DICE, kind=kind)
        frames.append((scene.image, [die.value for die in scene.dice]))
    return frames


# -- issue 25: a demo table that keeps held dice where they lie ------------------------------

#: The demo camera's dice kinds by the game's dice (``auto`` games get pip dice).
DEMO_KINDS = {"pips": "pips", "cards": "cards", "auto": "pips"}


class DemoTable:
    """A tray the demo camera looks down on: one camera, felt, lamps and set of dice.

    Each :meth:`throw` is rendered fresh: the held dice stay where they lay, as they
    would on a real table, and the others land anew with new values; throw ``k``
    depends only on the seed, ``k`` and what was held, so a whole game sees every
    hand, never the same dozen throws again. A game of poker dice gets card dice.

    >>> table = DemoTable(seed=1)
    >>> first = table.throw(kind="pips")
    >>> again = table.throw(held=[first.values[0]], kind="pips")
    >>> again.values[0] == first.values[0], again.boxes[0] == first.boxes[0]
    (True, True)
    """

    def __init__(self, seed: int = 0, size: tuple[int, int] = (640, 640)) -> None:
        from scorer.render.scene import TRAY_COLOURS, _camera, _lights, _pick_arts, _tray_walls

        self.seed = seed
        self.size = size
        rng = np.random.default_rng([_DEMO_STREAM, seed])
        width, height = size
        looks = list(TRAY_COLOURS.values())
        self.look = looks[rng.integers(len(looks))]
        self.px_per_die = rng.uniform(40.0, 52.0) * min(width, height) / 640
        self.camera = _camera(rng, width, height, self.px_per_die)
        self.rect = _tray_walls(rng, self.camera, width, height)
        self.lights = _lights(rng)
        self.arts = {kind: _pick_arts(rng, 1, kind, None, False)[0] for kind in ("pips", "cards")}
        self.dice: list = []
        self.kind = "pips"
        self.count = 0

    def throw(self, held: list[int] | None = None, kind: str = "pips") -> DemoThrow:
        """Throw the dice not held (``held``: the values kept, any order)."""
        from scorer.render.scene import DIE_MM, _Floor, _place_dice

        kind = DEMO_KINDS.get(kind, kind)
        rng = np.random.default_rng([_DEMO_STREAM, self.seed, 1, self.count])
        self.count += 1
        lying = list(self.dice) if kind == self.kind else []
        kept = []
        for value in held or []:
            die = next((d for d in lying if d.value == value), None)
            if die is not None:
                lying.remove(die)
                kept.append(die)
        free = DEMO_DICE - len(kept)
        values = [int(v) for v in rng.integers(1, 7, size=free)]
        floor = _Floor.under(self.camera, self.rect, self.size, self.px_per_die)
        art = self.arts[kind]
        for _ in range(60):
            new = _place_dice(rng, floor, [art] * free, values)
            apart = all(
                np.linalg.norm(n.position[:2] - k.position[:2]) >= 1.45 * DIE_MM
                for n in new
                for k in kept
            )
            if len(new) == free and apart:
                break
        else:  # no room beside the held dice: they are thrown again at the same values
            new = _place_dice(rng, floor, [art] * DEMO_DICE, [d.value for d in kept] + values)
            kept = []
        self.dice, self.kind = kept + new, kind
        return DemoThrow(self._draw(rng), [d.value for d in self.dice], self._boxes())

    def _draw(self, rng: np.random.Generator) -> np.ndarray:
        from scorer.render.scene import photograph

        felt = np.random.default_rng([_DEMO_STREAM, self.seed, 2])  # the same felt every throw
        return photograph(
            rng,
            self.camera,
            self.look,
            self.rect,
            self.lights,
            self.dice,
            self.size,
            self.px_per_die,
            felt=felt,
        )

    def _boxes(self) -> list[tuple[int, int, int, int]]:
        return [tuple(int(v) for v in d.box) for d in self.dice]


@dataclass(frozen=True)
class DemoThrow:
    """One rendered throw: the photo (BGR), the values on top and each die's box."""

    image: np.ndarray
    values: list[int]
    boxes: list[tuple[int, int, int, int]]
