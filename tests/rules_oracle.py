"""RULES.md read a second time, apart from ``scorer.rules``, so the two can disagree.

The implementation asks questions of the dice (``of_a_kind``, ``has_run``);
this oracle instead looks a throw up by its *shape* (the sorted group sizes,
e.g. ``(3, 2)`` for a full house) and its sorted values, in tables typed
from RULES.md. Every function answers for an empty sheet.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from itertools import combinations_with_replacement, product

THROWS_252: tuple[tuple[int, ...], ...] = tuple(combinations_with_replacement(range(1, 7), 5))
"""Every distinct throw of five dice, sorted."""

THROWS_7776: tuple[tuple[int, ...], ...] = tuple(product(range(1, 7), repeat=5))
"""Every ordered throw of five dice."""

FACE_OF = {"ones": 1, "twos": 2, "threes": 3, "fours": 4, "fives": 5, "sixes": 6}

SMALL_RUNS = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})
FIVE_RUNS = ((1, 2, 3, 4, 5), (2, 3, 4, 5, 6))

# Which "at least" combinations each shape holds (straights hold by their values, below).
HELD_BY_SHAPE: Mapping[tuple[int, ...], frozenset[str]] = {
    (5,): frozenset({"pair", "three_of_a_kind", "four_of_a_kind", "poker"}),
    (4, 1): frozenset({"pair", "three_of_a_kind", "four_of_a_kind"}),
    (3, 2): frozenset({"pair", "two_pairs", "three_of_a_kind", "full_house"}),
    (3, 1, 1): frozenset({"pair", "three_of_a_kind"}),
    (2, 2, 1): frozenset({"pair", "two_pairs"}),
    (2, 1, 1, 1): frozenset({"pair"}),
    (1, 1, 1, 1, 1): frozenset(),
}
GROUP_SIZE = {"pair": 2, "three_of_a_kind": 3, "four_of_a_kind": 4}


class Throw:
    """The facts about five dice that RULES.md's tables are written in."""

    def __init__(self, dice: tuple[int, ...]) -> None:
        self.sorted = tuple(sorted(dice))
        self.count = Counter(dice)
        self.shape = tuple(sorted(self.count.values(), reverse=True))
        self.total = sum(dice)

    def held(self) -> frozenset[str]:
        extra = {"small_straight"} if self.sorted == (1, 2, 3, 4, 5) else set()
        if self.sorted == (2, 3, 4, 5, 6):
            extra = {"large_straight"}
        return HELD_BY_SHAPE[self.shape] | extra | {"chance"}

    def top_value_with(self, size: int) -> int:
        """Highest value shown ``size`` times or more (0 when none)."""
        return max((v for v, n in self.count.items() if n >= size), default=0)

    def two_pair_values(self) -> tuple[int, int] | None:
        pairs = sorted((v for v, n in self.count.items() if n >= 2), reverse=True)
        return (pairs[0], pairs[1]) if len(pairs) >= 2 else None

    def has_small_run(self) -> bool:
        return any(run <= set(self.sorted) for run in SMALL_RUNS)


Table = Callable[[Throw, int], Mapping[str, int]]


def _faces(t: Throw, points: Callable[[int, int], int]) -> dict[str, int]:
    return {cell: points(face, t.count[face]) for cell, face in FACE_OF.items()}


def yahtzee(t: Throw, throw: int) -> dict[str, int]:
    return {
        **_faces(t, lambda face, n: face * n),
        "three_of_a_kind": t.total if t.shape[0] >= 3 else 0,
        "four_of_a_kind": t.total if t.shape[0] >= 4 else 0,
        "full_house": 25 if t.shape == (3, 2) else 0,
        "small_straight": 30 if t.has_small_run() else 0,
        "large_straight": 40 if t.sorted in FIVE_RUNS else 0,
        "yahtzee": 50 if t.shape == (5,) else 0,
        "chance": t.total,
    }


def yatzy(t: Throw, throw: int) -> dict[str, int]:
    pairs = t.two_pair_values()
    return {
        **_faces(t, lambda face, n: face * n),
        "one_pair": 2 * t.top_value_with(2),
        "two_pairs": 2 * sum(pairs) if pairs else 0,
        "three_of_a_kind": 3 * t.top_value_with(3),
        "four_of_a_kind": 4 * t.top_value_with(4),
        "small_straight": 15 if t.sorted == (1, 2, 3, 4, 5) else 0,
        "large_straight": 20 if t.sorted == (2, 3, 4, 5, 6) else 0,
        "full_house": t.total if t.shape == (3, 2) else 0,
        "chance": t.total,
        "yatzy": 50 if t.shape == (5,) else 0,
    }


def yacht(t: Throw, throw: int) -> dict[str, int]:
    return {
        **_faces(t, lambda face, n: face * n),
        "choice": t.total,
        "four_of_a_kind": t.total if t.shape[0] >= 4 else 0,
        "full_house": t.total if t.shape in ((3, 2), (5,)) else 0,
        "small_straight": 15 if t.has_small_run() else 0,
        "large_straight": 30 if t.sorted in FIVE_RUNS else 0,
        "yacht": 50 if t.shape == (5,) else 0,
    }


def generala(t: Throw, throw: int) -> dict[str, int]:
    servida = 5 if throw == 1 else 0
    escaleras = ((1, 2, 3, 4, 5), (2, 3, 4, 5, 6), (1, 3, 4, 5, 6))
    return {
        **_faces(t, lambda face, n: face * n),
        "escalera": 20 + servida if t.sorted in escaleras else 0,
        "full": 30 + servida if t.shape == (3, 2) else 0,
        "poker": 40 + servida if t.shape[0] >= 4 else 0,
        "generala": 50 if t.shape == (5,) else 0,
        "double_generala": 0,  # an empty sheet has no generala of 50
    }


POKER_RU_VALUES = {
    "pair": 5,
    "two_pairs": 7,
    "three_of_a_kind": 10,
    "small_straight": 15,
    "large_straight": 20,
    "full_house": 20,
    "four_of_a_kind": 30,
    "poker": 50,
}


def poker_ru_table(values: Mapping[str, int], multipliers: bool) -> Table:
    """poker_ru under the given cell values and multiplier agreement."""
    times = {1: 3, 2: 2, 3: 1} if multipliers else {1: 1, 2: 1, 3: 1}

    def table(t: Throw, throw: int) -> dict[str, int]:
        held = t.held()
        part2 = {
            cell: value * times[throw] if cell in held else -value for cell, value in values.items()
        }
        return {**_faces(t, lambda face, n: 3 * n - 9), **part2, "chance": 0}

    return table


def poker_ua(t: Throw, throw: int) -> dict[str, int]:
    held = t.held()
    pairs = t.two_pair_values()
    forming = {
        "pair": 2 * t.top_value_with(2),
        "two_pairs": 2 * sum(pairs) if pairs else 0,
        "three_of_a_kind": 3 * t.top_value_with(3),
        "small_straight": 15,
        "large_straight": 20,
        "full_house": t.total,
        "four_of_a_kind": 4 * t.top_value_with(4),
        "poker": t.total,
    }
    doubling = 2 if throw == 1 else 1
    part2 = {cell: points * doubling if cell in held else 0 for cell, points in forming.items()}
    if "poker" in held:
        part2["poker"] += 50
    return {**_faces(t, lambda face, n: (n - 3) * face), **part2, "chance": t.total}


SHEET_TABLES: Mapping[str, Table] = {
    "yahtzee": yahtzee,
    "yatzy": yatzy,
    "yacht": yacht,
    "generala": generala,
    "poker_ru": poker_ru_table(POKER_RU_VALUES, multipliers=True),
    "poker_ua": poker_ua,
}


def expected(ruleset_id: str, dice: tuple[int, ...], throw: int) -> dict[str, int]:
    """RULES.md's points for every cell of a sheet ruleset, on an empty sheet."""
    return dict(SHEET_TABLES[ruleset_id](Throw(dice), throw))


# -- poker_dice -------------------------------------------------------------------

CATEGORY_BY_SHAPE = {
    (5,): "five_of_a_kind",
    (4, 1): "four_of_a_kind",
    (3, 2): "full_house",
    (3, 1, 1): "three_of_a_kind",
    (2, 2, 1): "two_pairs",
    (2, 1, 1, 1): "pair",
    (1, 1, 1, 1, 1): "high_card",
}

RANKING_HIGH_TO_LOW = {
    "above_full_house": [
        "five_of_a_kind",
        "four_of_a_kind",
        "straight",
        "full_house",
        "three_of_a_kind",
        "two_pairs",
        "pair",
        "high_card",
    ],
    "below_full_house": [
        "five_of_a_kind",
        "four_of_a_kind",
        "full_house",
        "straight",
        "three_of_a_kind",
        "two_pairs",
        "pair",
        "high_card",
    ],
    "none": [
        "five_of_a_kind",
        "four_of_a_kind",
        "full_house",
        "three_of_a_kind",
        "two_pairs",
        "pair",
        "high_card",
    ],
}

SEED_003_FREQUENCIES = {
    "five_of_a_kind": 6,
    "four_of_a_kind": 150,
    "full_house": 300,
    "straight": 240,
    "three_of_a_kind": 1200,
    "two_pairs": 1800,
    "pair": 3600,
    "high_card": 480,
}
"""Seed 003's table of exact frequencies over all 7776 throws."""


def poker_category(dice: tuple[int, ...], straights: str = "above_full_house") -> str:
    t = Throw(dice)
    if straights != "none" and t.sorted in FIVE_RUNS:
        return "straight"
    return CATEGORY_BY_SHAPE[t.shape]


def poker_strength(dice: tuple[int, ...], straights: str = "above_full_house") -> tuple:
    """A sortable strength: category, then all five dice lined up larger group first."""
    ranking = RANKING_HIGH_TO_LOW[straights]
    category = poker_category(dice, straights)
    count = Counter(dice)
    lined_up = tuple(sorted(dice, key=lambda v: (count[v], v), reverse=True))
    return (len(ranking) - ranking.index(category), lined_up)
