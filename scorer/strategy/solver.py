"""The dynamic programme: the optimal expected future score of every sheet state.

States are solved from the full sheet backwards, one level (number of closed
cells) at a time, in chunks of 512 states so that every step is a
numpy operation over a (states, 252 throws) array:

1. writing: for each throw, the best open cell (points + bonuses + the value
   of the state it leads to), with yahtzee's forced joker;
2. re-throwing: for each keep, the mean over the free dice, one die at a time
   (:mod:`scorer.strategy.throws`), then the best keep inside each throw;
3. the turn: throw 3 writes, throw 2 keeps or writes, throw 1 likewise (with
   generala's servida points), and the first throw is averaged over the 252.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from scorer.strategy.solitaire import BONUS_LINE, JOKER_POINTS, Solitaire
from scorer.strategy.throws import DICE, lattice

Progress = Callable[[int, int], None]
CHUNK = 512
"""States per numpy step: small enough that the (states, 252) arrays stay in cache."""
MISSING = -np.inf


@dataclass(frozen=True)
class States:
    """A batch of sheet states: closed-cell bitmask, capped upper sum, flag."""

    mask: np.ndarray
    up: np.ndarray
    flag: np.ndarray

    def __len__(self) -> int:
        return len(self.mask)

    def take(self, part: slice | np.ndarray) -> States:
        return States(self.mask[part], self.up[part], self.flag[part])


def flat_index(model: Solitaire, mask: np.ndarray, up: np.ndarray, flag: np.ndarray) -> np.ndarray:
    """Position of states in the flattened value table."""
    _, uppers, flags = model.shape
    return (mask * uppers + up) * flags + flag


def cell_values(
    model: Solitaire, values: np.ndarray, states: States, first: bool
) -> Iterator[tuple[int, np.ndarray, np.ndarray | None]]:
    """For each cell: (states, 252) expected final score of writing each throw there
    (points + bonuses now + the optimal value of the state it leads to), -inf where the
    cell is closed; and, for yahtzee, (states, 6) the same for the five-of-a-kind throws
    under the joker rule (-inf where the joker forbids the cell), which replaces the
    plain value in states whose yahtzee cell is closed."""
    lat = lattice()
    points = model.points_first if first else model.points_later
    mask, up, flag = states.mask, states.up, states.flag
    n_cells = len(model.cells)
    dtype = values.dtype
    if model.joker:
        joker_cols = [lat.index((f,) * DICE) for f in range(1, 7)]
        lower_bits = sum(1 << c for c in range(n_cells) if not model.upper_face(c))
        lower_left = ((mask & lower_bits) != lower_bits)[:, None]
        upper_closed = np.stack([(mask >> c & 1).astype(bool) for c in range(6)], axis=1)
        extra = (100.0 * flag).astype(dtype)[:, None]
    for c in range(n_cells):
        bit = 1 << c
        is_open = (mask & bit) == 0
        after = mask | bit
        face = model.upper_face(c)
        joker = None
        if face:
            counts = np.arange(DICE + 1)
            if model.upper_bonus:
                new_up = np.minimum(BONUS_LINE, up[:, None] + face * counts[None, :])
                bonus = np.where(
                    (up[:, None] < BONUS_LINE) & (new_up >= BONUS_LINE), model.upper_bonus, 0
                )
            else:
                new_up = np.zeros((len(mask), DICE + 1), dtype=up.dtype)
                bonus = 0
            nxt = values[flat_index(model, after[:, None], new_up, flag[:, None])]
            by_count = (face * counts[None, :] + bonus + nxt).astype(dtype)
            by_count[~is_open] = MISSING
            cell = by_count[:, lat.counts[:, face]]
            if model.joker:
                # five of a kind f: this cell takes f's dice if f is this face, else 0
                # (only when nothing else is left under the forced joker).
                plain = np.where(np.arange(1, 7) == face, by_count[:, [DICE]], by_count[:, [0]])
                if model.joker_forced:
                    legal = (np.arange(1, 7) == face)[None, :] | (upper_closed & ~lower_left)
                    joker = np.where(legal, plain + extra, MISSING)
                else:
                    joker = plain + extra
        else:
            pts = points[:, c].astype(dtype)[None, :]
            if c == model.flag_cell:
                keep0 = values[flat_index(model, after, up, np.zeros_like(flag))]
                set1 = values[flat_index(model, after, up, np.ones_like(flag))]
                keep0 = np.where(is_open, keep0, MISSING)[:, None]
                set1 = np.where(is_open, set1, MISSING)[:, None]
                cell = pts + np.where(pts == 50, set1, keep0)
            else:
                nxt = values[flat_index(model, after, up, flag)]
                nxt = np.where(is_open, nxt, MISSING)[:, None]
                if c == model.flagged_cell:  # double_generala: 100 only while generala holds 50
                    pts = pts * flag[:, None]
                cell = pts + nxt
                if model.joker:
                    name = model.cells[c]
                    full = JOKER_POINTS.get(name)
                    joker_pts = (
                        np.full(6, full) if full is not None else points[joker_cols, c]
                    ).astype(dtype)[None, :]
                    if model.joker_forced:
                        joker = np.where(upper_closed, joker_pts + nxt + extra, MISSING)
                    else:
                        plain = points[joker_cols, c].astype(dtype)[None, :]
                        joker = np.where(upper_closed, joker_pts, plain) + nxt + extra
        yield c, cell, joker


def best_write(model: Solitaire, values: np.ndarray, states: States, first: bool) -> np.ndarray:
    """(states, 252): the best expected final score of writing each throw now."""
    best = np.full((len(states), len(lattice().throws)), MISSING, dtype=values.dtype)
    best_joker = None
    for _, cell, joker in cell_values(model, values, states, first):
        np.maximum(best, cell, out=best)
        if joker is not None:
            best_joker = joker if best_joker is None else np.maximum(best_joker, joker)
    if best_joker is not None:
        cols = [lattice().index((f,) * DICE) for f in range(1, 7)]
        joker_on = (states.mask >> model.flag_cell & 1).astype(bool)[:, None]
        best[:, cols] = np.where(joker_on, best_joker, best[:, cols])
    return best


def rethrow(final: np.ndarray) -> list[np.ndarray]:
    """Expected value of each keep, layer by layer, given the value of each final throw:
    element k is (states, keeps of k dice)."""
    lat = lattice()
    by_size: list[np.ndarray] = [final] * (DICE + 1)
    for size in range(DICE - 1, -1, -1):
        children = lat.layers[size].children
        by_size[size] = by_size[size + 1][:, children].sum(axis=2) / 6.0
    return by_size


def best_keep(by_size: list[np.ndarray]) -> np.ndarray:
    """(states, 252): the value of the best keep inside each throw (keeping all included)."""
    lat = lattice()
    best = by_size[0]
    for size in range(1, DICE + 1):
        best = np.maximum(by_size[size], best[:, lat.layers[size].parents].max(axis=2))
    return best


@dataclass(frozen=True)
class Turn:
    """Everything the optimal player weighs during one turn, for a batch of states."""

    write_first: np.ndarray
    """(states, 252) writing after throw 1."""
    write_later: np.ndarray
    """(states, 252) writing after throw 2 or 3."""
    after_second: np.ndarray
    """(states, 252) the value of holding this throw as the second throw (keep or write)."""
    after_first: np.ndarray
    """(states, 252) the same for the first throw."""

    def start(self) -> np.ndarray:
        """(states,) the expected future score before the first throw."""
        return self.after_first @ lattice().probability


def turn(model: Solitaire, values: np.ndarray, states: States) -> Turn:
    """Solve one turn for every state in the batch, from the values of later states."""
    later = best_write(model, values, states, first=False)
    same = np.array_equal(model.points_first, model.points_later)
    first = later if same else best_write(model, values, states, first=True)
    second = best_keep(rethrow(later))
    after_first = np.maximum(first, best_keep(rethrow(second)))
    return Turn(first, later, second, after_first)


def reachable_uppers() -> np.ndarray:
    """(64, 64) bool: which capped upper sums a set of closed upper cells can hold."""
    reach = np.zeros((64, BONUS_LINE + 1), dtype=bool)
    reach[0, 0] = True
    for sub in range(1, 64):
        face = sub.bit_length()
        before = reach[sub & ~(1 << (face - 1))]
        for count in range(DICE + 1):
            sums = np.minimum(BONUS_LINE, np.nonzero(before)[0] + face * count)
            reach[sub, sums] = True
    return reach


def level_states(model: Solitaire, closed: int, within: int = 0) -> States:
    """Every reachable state with ``closed`` cells written (among them those of ``within``)."""
    n_cells = len(model.cells)
    masks = np.array(
        [m for m in range(1 << n_cells) if m.bit_count() == closed and m & within == within],
        dtype=np.int64,
    )
    _, uppers, flags = model.shape
    mask, up, flag = (
        a.ravel() for a in np.meshgrid(masks, np.arange(uppers), np.arange(flags), indexing="ij")
    )
    ok = np.ones(len(mask), dtype=bool)
    if model.upper_bonus:
        ok &= reachable_uppers()[mask & 63, up]
    if model.flag_cell is not None:
        ok &= (flag == 0) | (mask >> model.flag_cell & 1).astype(bool)
    return States(mask[ok], up[ok], flag[ok])


def solve(
    model: Solitaire, progress: Progress | None = None, dtype: type = np.float32, within: int = 0
) -> np.ndarray:
    """The optimal expected future score of every state, shaped ``model.shape``
    (unreachable states hold 0). ``[0, 0, 0]`` is the expected score of a fresh game.

    float32 keeps the arrays in cache (about twice as fast) and agrees with float64
    within 3e-5 on every state (``benchmarks/strategy_solve.py --float64``).
    ``within``: only the sub-game whose sheets have these cells closed (a bitmask),
    which tests solve in milliseconds and check by brute force."""
    values = np.zeros(int(np.prod(model.shape)), dtype=dtype)
    n_cells = len(model.cells)
    levels = [level_states(model, k, within) for k in range(n_cells - 1, -1, -1)]
    total, done = sum(len(s) for s in levels), 0
    for states in levels:
        for start in range(0, len(states), CHUNK):
            part = states.take(slice(start, start + CHUNK))
            where = flat_index(model, part.mask, part.up, part.flag)
            values[where] = turn(model, values, part).start()
            done += len(part)
            if progress:
                progress(done, total)
    return values.reshape(model.shape)
