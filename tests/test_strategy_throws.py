"""The keep lattice: 252 throws, 462 keeps, and re-throwing that averages correctly."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from scorer.strategy.solver import best_keep, rethrow
from scorer.strategy.throws import lattice, outcome_probability


def test_given_five_dice_when_counting_then_252_throws_and_462_keeps():
    lat = lattice()

    sizes = [len(layer.keeps) for layer in lat.layers]

    assert sizes == [1, 6, 21, 56, 126, 252]
    assert sum(sizes) == 462
    assert lat.probability.sum() == pytest.approx(1.0)


def test_given_the_throw_probabilities_then_they_match_counting_7776_ordered_throws():
    lat = lattice()
    ways = np.zeros(len(lat.throws))
    for dice in itertools.product(range(1, 7), repeat=5):
        ways[lat.index(dice)] += 1

    assert np.allclose(lat.probability, ways / 7776)


@pytest.mark.parametrize("kept", [(), (6,), (2, 2), (1, 3, 5), (4, 4, 4, 1), (1, 2, 3, 4, 5)])
def test_given_a_keep_when_rethrowing_then_the_lattice_agrees_with_brute_force(kept):
    lat = lattice()
    rng = np.random.default_rng(7)
    final = rng.random((1, len(lat.throws)))
    expected = sum(p * final[0, lat.index(t)] for t, p in outcome_probability(kept).items())

    by_size = rethrow(final)

    assert by_size[len(kept)][0, lat.index(kept)] == pytest.approx(expected)


def test_given_values_when_taking_the_best_keep_then_it_is_the_max_over_the_32_subsets():
    lat = lattice()
    rng = np.random.default_rng(3)
    final = rng.random((2, len(lat.throws)))
    flat = np.concatenate(rethrow(final), axis=1)

    best = best_keep(rethrow(final))

    brute = flat[:, lat.subsets()].max(axis=2)
    assert np.allclose(best, brute)


def test_given_the_subset_table_then_each_subset_holds_the_dice_of_its_bits():
    lat = lattice()
    offsets = lat.flat_offsets()
    throw = (1, 3, 3, 5, 6)
    t = lat.index(throw)

    held = lat.subsets()[t, 0b01010]  # dice 1 and 3: a 3 and a 5

    assert held == offsets[2] + lat.index((3, 5))
