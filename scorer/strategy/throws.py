"""The 252 distinct throws of five dice and the 462 keeps, as a lattice for the solver.

Dice order never matters to the score, so the solver works on sorted multisets:
a *keep* is the sorted values held back before a re-throw (0 to 5 dice), a
*throw* is a keep of all five. Keeps are numbered layer by layer (by size), and
each layer knows its neighbours one die up (``children``: add one die of each
value) and one die down (``parents``: drop one die of each value held), which
is all the solver needs: rolling the free dice one at a time averages over the
children, and the best keep inside a throw is a running maximum over parents.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from math import factorial

import numpy as np

DICE = 5
FACES = 6


@dataclass(frozen=True)
class Layer:
    """The keeps of one size, with index arrays to their neighbour layers."""

    size: int
    keeps: tuple[tuple[int, ...], ...]
    children: np.ndarray
    """(len(keeps), 6): index in the next layer of this keep plus a die showing 1..6."""
    parents: np.ndarray
    """(len(keeps), size): index in the previous layer of this keep less one die (padded)."""


@dataclass(frozen=True)
class Lattice:
    """Every keep of five dice, layered by size; ``layers[5]`` are the 252 throws."""

    layers: tuple[Layer, ...]
    probability: np.ndarray
    """(252,): the chance of each throw of five fresh dice."""
    counts: np.ndarray
    """(252, 7): how many dice of each throw show each value (column 0 unused)."""

    @property
    def throws(self) -> tuple[tuple[int, ...], ...]:
        return self.layers[DICE].keeps

    def index(self, keep: Sequence[int]) -> int:
        """Position of a keep (any order of values) within its layer."""
        return _positions(len(keep))[tuple(sorted(keep))]

    def subsets(self) -> np.ndarray:
        """(252, 32): for each throw, the index (in a flat 462 numbering) of the keep held by
        each of the 32 subsets of its dice positions; subset bit i holds die i."""
        return _subsets()

    def flat_offsets(self) -> tuple[int, ...]:
        """Where each layer starts in the flat 462 numbering of keeps."""
        offsets, total = [], 0
        for layer in self.layers:
            offsets.append(total)
            total += len(layer.keeps)
        return tuple(offsets)


@cache
def _positions(size: int) -> dict[tuple[int, ...], int]:
    keeps = itertools.combinations_with_replacement(range(1, FACES + 1), size)
    return {keep: i for i, keep in enumerate(keeps)}


def _probability(throw: tuple[int, ...]) -> float:
    ways = factorial(len(throw))
    for value in set(throw):
        ways //= factorial(throw.count(value))
    return ways / FACES ** len(throw)


@cache
def lattice() -> Lattice:
    """The keep lattice, built once per process (a few milliseconds)."""
    layers = []
    for size in range(DICE + 1):
        keeps = tuple(_positions(size))
        if size < DICE:
            up = _positions(size + 1)
            children = np.array(
                [[up[tuple(sorted((*k, v)))] for v in range(1, FACES + 1)] for k in keeps],
                dtype=np.intp,
            )
        else:
            children = np.zeros((len(keeps), 0), dtype=np.intp)
        if size > 0:
            down = _positions(size - 1)
            parents = np.array(
                [[down[k[:i] + k[i + 1 :]] for i in range(size)] for k in keeps], dtype=np.intp
            )
        else:
            parents = np.zeros((1, 0), dtype=np.intp)
        layers.append(Layer(size, keeps, children, parents))
    throws = layers[DICE].keeps
    probability = np.array([_probability(t) for t in throws])
    counts = np.zeros((len(throws), FACES + 1), dtype=np.int64)
    for i, t in enumerate(throws):
        for v in t:
            counts[i, v] += 1
    return Lattice(tuple(layers), probability, counts)


@cache
def _subsets() -> np.ndarray:
    lat = lattice()
    offsets = lat.flat_offsets()
    table = np.zeros((len(lat.throws), 1 << DICE), dtype=np.intp)
    for t, throw in enumerate(lat.throws):
        for bits in range(1 << DICE):
            kept = tuple(v for i, v in enumerate(throw) if bits >> i & 1)
            table[t, bits] = offsets[len(kept)] + lat.index(kept)
    return table


def outcome_probability(kept: Sequence[int]) -> dict[tuple[int, ...], float]:
    """Chance of each final throw when ``kept`` is held and the other dice are thrown.

    Written the slow, obvious way: tests compare the lattice against it.
    """
    free = DICE - len(kept)
    result: dict[tuple[int, ...], float] = {}
    for rolled in itertools.product(range(1, FACES + 1), repeat=free):
        final = tuple(sorted((*kept, *rolled)))
        result[final] = result.get(final, 0.0) + FACES**-free
    return result
