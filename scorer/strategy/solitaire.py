"""Each ruleset as the solver sees it: a solitaire sheet in the "Verhoeff" model.

A state between turns is (which cells are closed, the upper sum capped at 63
where an upper bonus exists, whether the yahtzee/generala cell holds 50). The
points of every cell for every one of the 252 throws are tabulated here once,
from the rules as RULES.md states them; a test checks the tables against
:mod:`scorer.rules` so the two can never drift apart silently.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache

import numpy as np

from scorer.errors import BadOption, ScorerError, UnknownRuleset
from scorer.strategy.throws import lattice

Throw = tuple[int, ...]

UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
SOLVABLE = ("yahtzee", "yatzy", "yacht", "generala")
BONUS_LINE = 63


class NoStrategy(ScorerError):
    """The ruleset has no optimal-play table (the poker games are not solitaire sheets)."""


def _tally(dice: Throw) -> list[int]:
    return sorted((dice.count(v) for v in set(dice)), reverse=True)


def _kind(n: int) -> Callable[[Throw], bool]:
    return lambda d: _tally(d)[0] >= n


def _full_house(d: Throw) -> bool:
    return _tally(d) == [3, 2]


def _run(d: Throw, runs: tuple[set[int], ...]) -> bool:
    return any(run <= set(d) for run in runs)


SMALL_RUNS = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})
LARGE_RUNS = ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6})


def _if(test: Callable[[Throw], bool], points: Callable[[Throw], int]) -> Callable[[Throw], int]:
    return lambda d: points(d) if test(d) else 0


def _face(v: int) -> Callable[[Throw], int]:
    return lambda d: v * d.count(v)


def _fixed(n: int) -> Callable[[Throw], int]:
    return lambda d: n


def _pairs(d: Throw) -> list[int]:
    return sorted((v for v in set(d) if d.count(v) >= 2), reverse=True)


def _kind_value(n: int) -> Callable[[Throw], int]:
    def points(d: Throw) -> int:
        held = [v for v in set(d) if d.count(v) >= n]
        return n * held[0] if held else 0

    return points


def _yahtzee_cells() -> dict[str, Callable[[Throw], int]]:
    return {
        "three_of_a_kind": _if(_kind(3), sum),
        "four_of_a_kind": _if(_kind(4), sum),
        "full_house": _if(_full_house, _fixed(25)),
        "small_straight": _if(lambda d: _run(d, SMALL_RUNS), _fixed(30)),
        "large_straight": _if(lambda d: _run(d, LARGE_RUNS), _fixed(40)),
        "yahtzee": _if(_kind(5), _fixed(50)),
        "chance": sum,
    }


def _yatzy_cells() -> dict[str, Callable[[Throw], int]]:
    return {
        "one_pair": lambda d: 2 * _pairs(d)[0] if _pairs(d) else 0,
        "two_pairs": lambda d: 2 * sum(_pairs(d)[:2]) if len(_pairs(d)) >= 2 else 0,
        "three_of_a_kind": _kind_value(3),
        "four_of_a_kind": _kind_value(4),
        "small_straight": _if(lambda d: d == (1, 2, 3, 4, 5), _fixed(15)),
        "large_straight": _if(lambda d: d == (2, 3, 4, 5, 6), _fixed(20)),
        "full_house": _if(_full_house, sum),
        "chance": sum,
        "yatzy": _if(_kind(5), _fixed(50)),
    }


def _yacht_cells() -> dict[str, Callable[[Throw], int]]:
    return {
        "choice": sum,
        "four_of_a_kind": _if(_kind(4), sum),
        "full_house": _if(lambda d: _full_house(d) or _kind(5)(d), sum),
        "small_straight": _if(lambda d: _run(d, SMALL_RUNS), _fixed(15)),
        "large_straight": _if(lambda d: _run(d, LARGE_RUNS), _fixed(30)),
        "yacht": _if(_kind(5), _fixed(50)),
    }


ESCALERAS = ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}, {3, 4, 5, 6, 1})


def _generala_cells(double: bool) -> dict[str, Callable[[Throw], int]]:
    cells = {
        "escalera": _if(lambda d: _run(d, ESCALERAS), _fixed(20)),
        "full": _if(_full_house, _fixed(30)),
        "poker": _if(_kind(4), _fixed(40)),
        "generala": _if(_kind(5), _fixed(50)),
    }
    if double:
        # 100 only while generala holds 50: the solver applies the flag.
        cells["double_generala"] = _if(_kind(5), _fixed(100))
    return cells


SERVIDA = {"escalera": 5, "full": 5, "poker": 5}


@dataclass(frozen=True)
class Solitaire:
    """One ruleset (with its options) reduced to what the dynamic programme needs."""

    ruleset: str
    options: tuple[tuple[str, str], ...]
    cells: tuple[str, ...]
    points_first: np.ndarray
    """(252, cells) int: points of each throw in each cell when written after throw 1."""
    points_later: np.ndarray
    """(252, cells) int: the same after throws 2 and 3."""
    upper_bonus: int
    """Points for reaching 63 in ones..sixes; 0 when the ruleset has no upper bonus."""
    flag_cell: int | None
    """The cell whose 50 matters later (yahtzee: +100 and joker; generala: double)."""
    flagged_cell: int | None
    """A cell that scores only while the flag is set (double_generala)."""
    joker: bool
    """Yahtzee's joker and +100 per extra yahtzee."""
    joker_forced: bool = True
    """RULES.md's forced joker (the face's upper cell first, then the lower cells, then
    any upper cell for 0); False is Verhoeff's reading, where five of a kind may go in
    any open cell and is a full-value joker in the lower cells once the face's upper cell
    is closed."""

    @property
    def key(self) -> str:
        """File-name-safe name of the table: ruleset and the options that change it."""
        parts = [self.ruleset, *(f"{k}={v}" for k, v in self.options)]
        if self.joker and not self.joker_forced:
            parts.append("joker=free")
        return "-".join(parts)

    @property
    def upper_states(self) -> int:
        return BONUS_LINE + 1 if self.upper_bonus else 1

    @property
    def flag_states(self) -> int:
        return 2 if self.flag_cell is not None else 1

    @property
    def shape(self) -> tuple[int, int, int]:
        return (1 << len(self.cells), self.upper_states, self.flag_states)

    def state(self, written: Mapping[str, int]) -> tuple[int, int, int]:
        """(closed-cell mask, capped upper sum, flag) of a sheet's written cells."""
        mask = sum(1 << i for i, cell in enumerate(self.cells) if cell in written)
        up = min(BONUS_LINE, sum(written.get(c, 0) for c in UPPER)) if self.upper_bonus else 0
        flag = 0
        if self.flag_cell is not None and written.get(self.cells[self.flag_cell]) == 50:
            flag = 1
        return mask, up, flag

    def upper_face(self, cell: int) -> int:
        """The face a cell counts (1..6), or 0 for cells outside the upper section."""
        name = self.cells[cell]
        return UPPER.index(name) + 1 if name in UPPER else 0


def _options(ruleset: str, options: Mapping[str, object] | None) -> tuple[tuple[str, str], ...]:
    """Read the options that change optimal play; the others do not change the table."""
    chosen = dict(options or {})
    if ruleset != "generala":
        return ()
    raw = chosen.get("double_generala", True)
    if isinstance(raw, str):
        text = raw.strip().lower()
        if text not in {"on", "off", "yes", "no", "true", "false", "1", "0"}:
            raise BadOption(f"option double_generala is on or off, not {raw!r}")
        raw = text in {"on", "yes", "true", "1"}
    return (("double_generala", "on" if raw else "off"),)


def solitaire(
    ruleset: str, options: Mapping[str, object] | None = None, *, free_joker: bool = False
) -> Solitaire:
    """The solver's view of ``ruleset``; raises :class:`NoStrategy` for the poker games.

    ``free_joker`` swaps yahtzee's forced joker for Verhoeff's free one, only to
    show where his 254.5896 differs from RULES.md (by 0.002)."""
    if ruleset not in SOLVABLE:
        if ruleset in {"poker_ru", "poker_ua", "poker_dice"}:
            raise NoStrategy(f"{ruleset} has no optimal-play table (only {', '.join(SOLVABLE)})")
        raise UnknownRuleset(f"no ruleset {ruleset!r} (solvable: {', '.join(SOLVABLE)})")
    return _build(ruleset, _options(ruleset, options), not free_joker)


@cache
def _build(ruleset: str, options: tuple[tuple[str, str], ...], joker_forced: bool) -> Solitaire:
    uppers = {name: _face(v + 1) for v, name in enumerate(UPPER)}
    if ruleset == "yahtzee":
        lower, bonus = _yahtzee_cells(), 35
    elif ruleset == "yatzy":
        lower, bonus = _yatzy_cells(), 50
    elif ruleset == "yacht":
        lower, bonus = _yacht_cells(), 35
    else:
        lower, bonus = _generala_cells(dict(options)["double_generala"] == "on"), 0
    rules = {**uppers, **lower}
    cells = tuple(rules)
    throws = lattice().throws
    later = np.array([[rules[c](t) for c in cells] for t in throws], dtype=np.int64)
    first = later.copy()
    if ruleset == "generala":
        for c, extra in SERVIDA.items():
            i = cells.index(c)
            first[:, i] += np.where(later[:, i] > 0, extra, 0)
    flag_cell = flagged = None
    if ruleset == "yahtzee":
        flag_cell = cells.index("yahtzee")
    if "double_generala" in cells:
        flag_cell, flagged = cells.index("generala"), cells.index("double_generala")
    return Solitaire(
        ruleset=ruleset,
        options=options,
        cells=cells,
        points_first=first,
        points_later=later,
        upper_bonus=bonus,
        flag_cell=flag_cell,
        flagged_cell=flagged,
        joker=ruleset == "yahtzee",
        joker_forced=joker_forced,
    )


JOKER_POINTS = {"full_house": 25, "small_straight": 30, "large_straight": 40}
"""What a forced joker scores in the fixed-value lower cells (the others take the sum)."""
