"""Whole games played by the optimal policy with random dice, many at once.

Every game of a batch takes its turn together: the turn arrays of the solver
say, for each game's sheet, what each throw and each keep is worth; the game
keeps the best subset of its dice (or writes), re-throws, and finally writes
the best cell. The points a write earns are its value less the value of the
state it leads to, so the scoring is the solver's own, checked against
:mod:`scorer.rules` by the tests.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np

from scorer.strategy.solitaire import BONUS_LINE, Solitaire
from scorer.strategy.solver import (
    CHUNK,
    States,
    best_keep,
    best_write,
    cell_values,
    flat_index,
    rethrow,
)
from scorer.strategy.throws import DICE, FACES, lattice

KEEP_ALL = (1 << DICE) - 1


@cache
def _throw_lookup() -> np.ndarray:
    lookup = np.zeros(FACES**DICE, dtype=np.intp)
    for i, throw in enumerate(lattice().throws):
        lookup[_code(np.array([throw]))[0]] = i
    return lookup


def _code(sorted_dice: np.ndarray) -> np.ndarray:
    return ((sorted_dice - 1) * FACES ** np.arange(DICE)).sum(axis=1)


def throw_index(dice: np.ndarray) -> np.ndarray:
    """(games,) index among the 252 throws of each row of (games, 5) sorted dice."""
    return _throw_lookup()[_code(dice)]


def _rethrow(dice: np.ndarray, keep_bits: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    held = (keep_bits[:, None] >> np.arange(DICE)[None, :] & 1).astype(bool)
    fresh = rng.integers(1, FACES + 1, size=dice.shape)
    return np.sort(np.where(held, dice, fresh), axis=1)


def play_turn(
    model: Solitaire, values: np.ndarray, states: States, rng: np.random.Generator
) -> tuple[States, np.ndarray]:
    """One optimal turn for every game: the states after it and the points it earned."""
    lat = lattice()
    n = len(states)
    rows = np.arange(n)
    later = best_write(model, values, states, first=False)
    same = np.array_equal(model.points_first, model.points_later)
    first = later if same else best_write(model, values, states, first=True)
    by_size_2 = rethrow(later)
    second = best_keep(by_size_2)
    keeps_1 = np.concatenate(rethrow(second), axis=1)
    keeps_2 = np.concatenate(by_size_2, axis=1)
    subsets = lat.subsets()

    dice = np.sort(rng.integers(1, FACES + 1, size=(n, DICE)), axis=1)
    t = throw_index(dice)
    options = np.take_along_axis(keeps_1, subsets[t], axis=1)
    choice = options.argmax(axis=1)
    written_first = first[rows, t] >= options[rows, choice]
    going = ~written_first
    dice = np.where(going[:, None], _rethrow(dice, choice, rng), dice)
    t = throw_index(dice)
    options = np.take_along_axis(keeps_2, subsets[t], axis=1)
    choice = options.argmax(axis=1)
    going &= later[rows, t] < options[rows, choice]
    dice = np.where(going[:, None], _rethrow(dice, np.where(going, choice, KEEP_ALL), rng), dice)
    t = throw_index(dice)
    return _write(model, values, states, t, written_first)


def _write(
    model: Solitaire, values: np.ndarray, states: States, t: np.ndarray, first: np.ndarray
) -> tuple[States, np.ndarray]:
    lat = lattice()
    rows = np.arange(len(states))
    n_cells = len(model.cells)
    worth = np.empty((len(states), n_cells), dtype=values.dtype)
    if np.array_equal(model.points_first, model.points_later):
        kinds = [(False, np.ones(len(states), dtype=bool))]
    else:
        kinds = [(False, ~first), (True, first)]
    if model.joker:
        joker_on = (states.mask >> model.flag_cell & 1).astype(bool)
        five = lat.counts[t, 1:].max(axis=1) == DICE
    for is_first, which in kinds:
        for c, cell, joker in cell_values(model, values, states, is_first):
            column = cell[rows, t]
            if joker is not None:
                faces = lat.counts[t, 1:].argmax(axis=1)
                column = np.where(joker_on & five, joker[rows, faces], column)
            worth[which, c] = column[which]
    best = worth.argmax(axis=1)
    mask = states.mask | (1 << best)
    up = states.up.copy()
    flag = states.flag.copy()
    for c in range(n_cells):
        chosen = best == c
        face = model.upper_face(c)
        if face and model.upper_bonus:
            up = np.where(chosen, np.minimum(BONUS_LINE, up + face * lat.counts[t, face]), up)
        if c == model.flag_cell:
            points = np.where(first, model.points_first[t, c], model.points_later[t, c])
            flag = np.where(chosen & (points == 50), 1, flag)
    after = States(mask, up, flag)
    full = mask == (1 << n_cells) - 1
    future = np.where(full, 0.0, values[flat_index(model, mask, up, flag)])
    earned = np.rint(worth[rows, best] - future).astype(np.int64)
    return after, earned


def simulate(
    model: Solitaire,
    values: np.ndarray,
    games: int,
    seed: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> np.ndarray:
    """Final scores of ``games`` games played optimally with random dice."""
    rng = np.random.default_rng(seed)
    flat = values.reshape(-1)
    scores = np.zeros(games, dtype=np.int64)
    for start in range(0, games, CHUNK):
        count = min(CHUNK, games - start)
        zero = np.zeros(count, dtype=np.int64)
        states = States(zero.copy(), zero.copy(), zero.copy())
        for _ in model.cells:
            states, earned = play_turn(model, flat, states, rng)
            scores[start : start + count] += earned
        if progress:
            progress(start + count, games)
    return scores
