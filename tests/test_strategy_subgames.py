"""The solver against brute force on end games small enough to solve by hand.

The oracle below knows nothing of the solver: it plays turns with the rules
of :mod:`scorer.rules` (``scores``, ``write``, ``total``), enumerating every
throw, keep and cell, and memoises whole sheets. The solver solves only the
sub-game (``within``: the cells already written stay written).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from scorer.rules import UPPER, Sheet, get_ruleset
from scorer.strategy import hint, solitaire, tables
from scorer.strategy.solver import solve
from scorer.strategy.throws import lattice, outcome_probability


def _keeps_of(throw: tuple[int, ...]) -> set[tuple[int, ...]]:
    return {
        tuple(sorted(throw[i] for i in idx))
        for n in range(6)
        for idx in itertools.combinations(range(5), n)
    }


class Oracle:
    """Expected future points of a sheet under optimal play, by exhaustive search."""

    def __init__(self, ruleset: str, options: dict | None = None) -> None:
        self.rules = get_ruleset(ruleset, options)
        self.future = self._future
        self.seen: dict[tuple, float] = {}

    def _key(self, sheet: Sheet) -> tuple:
        return tuple(sorted(sheet.cells.items())), tuple(sorted(sheet.bonus.items()))

    def write_value(self, sheet: Sheet, throw: tuple[int, ...], n: int) -> float:
        """Best points-now plus future over the legal cells."""
        best = -np.inf
        for cell in self.rules.scores(throw, sheet, n):
            after = self.rules.write(sheet, cell, throw, n)
            gain = self.rules.total(after) - self.rules.total(sheet)
            best = max(best, gain + self.future_of(after))
        return best

    def future_of(self, sheet: Sheet) -> float:
        """Sheets alike in what the rules can still see share one future: the same closed
        cells, upper sum (capped at 63) and whether yahtzee / generala hold 50."""
        if self.rules.is_complete(sheet):
            return 0.0
        upper = sum(sheet.cells.get(c, 0) for c in UPPER)
        key = (
            frozenset(sheet.cells),
            min(upper, 63),
            sheet.cells.get("yahtzee") == 50,
            sheet.cells.get("generala") == 50,
        )
        if key not in self.seen:
            self.seen[key] = self.future(Sheet(dict(sheet.cells), {}))
        return self.seen[key]

    def keep_values(self, sheet: Sheet, value_after: dict) -> dict:
        return {
            keep: sum(p * value_after[t] for t, p in outcome_probability(keep).items())
            for keep in itertools.chain.from_iterable(
                itertools.combinations_with_replacement(range(1, 7), n) for n in range(6)
            )
        }

    def turn(self, sheet: Sheet) -> tuple[dict, dict]:
        """(value of keeps after throw 1, value of keeps after throw 2)."""
        throws = lattice().throws
        third = {t: self.write_value(sheet, t, 3) for t in throws}
        keeps_2 = self.keep_values(sheet, third)
        second = {t: max(keeps_2[k] for k in _keeps_of(t)) for t in throws}
        keeps_1 = self.keep_values(sheet, second)
        return keeps_1, keeps_2

    def _future(self, sheet: Sheet) -> float:
        keeps_1, _ = self.turn(sheet)
        total = 0.0
        for t, p in zip(lattice().throws, lattice().probability, strict=True):
            first = max(self.write_value(sheet, t, 1), max(keeps_1[k] for k in _keeps_of(t)))
            total += p * first
        return total


def _solved(ruleset: str, sheet: Sheet, options: dict | None = None) -> tuple:
    model = solitaire(ruleset, options)
    within = model.state(sheet.cells)[0]
    return model, solve(model, within=within, dtype=np.float64)


# Each end game leaves two open cells, and a rule detail to get right.
END_GAMES = [
    pytest.param(
        "yahtzee",
        None,
        {
            "ones": 3,
            "twos": 6,
            "threes": 9,
            "fours": 12,
            "fives": 15,
            "full_house": 25,
            "small_straight": 30,
            "large_straight": 40,
            "yahtzee": 50,
            "three_of_a_kind": 20,
            "four_of_a_kind": 0,
        },
        id="yahtzee-sixes-for-the-bonus-and-joker",
    ),
    pytest.param(
        "yahtzee",
        None,
        {
            "ones": 3,
            "twos": 6,
            "threes": 9,
            "fours": 12,
            "fives": 15,
            "sixes": 18,
            "small_straight": 30,
            "yahtzee": 0,
            "three_of_a_kind": 20,
            "four_of_a_kind": 0,
            "chance": 22,
        },
        id="yahtzee-forced-joker-after-a-scratched-yahtzee",
    ),
    pytest.param(
        "yatzy",
        None,
        {
            "ones": 3,
            "twos": 6,
            "threes": 9,
            "fours": 12,
            "fives": 15,
            "sixes": 18,
            "three_of_a_kind": 9,
            "four_of_a_kind": 0,
            "small_straight": 15,
            "large_straight": 0,
            "full_house": 0,
            "chance": 20,
            "yatzy": 0,
        },
        id="yatzy-one-pair-and-two-pairs",
    ),
    pytest.param(
        "yacht",
        None,
        {
            "ones": 3,
            "twos": 6,
            "threes": 9,
            "fours": 12,
            "fives": 15,
            "sixes": 18,
            "choice": 20,
            "four_of_a_kind": 0,
            "small_straight": 15,
            "yacht": 50,
        },
        id="yacht-full-house-takes-five-alike",
    ),
    pytest.param(
        "generala",
        None,
        {
            "ones": 3,
            "twos": 6,
            "threes": 9,
            "fours": 12,
            "fives": 15,
            "sixes": 18,
            "escalera": 20,
            "poker": 40,
            "generala": 50,
        },
        id="generala-servida-and-double",
    ),
    pytest.param(
        "generala",
        {"double_generala": "off"},
        {
            "ones": 3,
            "twos": 6,
            "threes": 9,
            "fours": 12,
            "fives": 15,
            "sixes": 18,
            "escalera": 0,
            "poker": 40,
        },
        id="generala-without-double",
    ),
]


@pytest.mark.parametrize(("ruleset", "options", "written"), END_GAMES)
def test_given_an_end_game_when_solved_then_it_matches_brute_force(ruleset, options, written):
    sheet = Sheet(written)
    model, values = _solved(ruleset, sheet, options)
    oracle = Oracle(ruleset, options)

    solved = values[model.state(sheet.cells)]

    assert solved == pytest.approx(oracle.future_of(sheet), abs=1e-6)


@pytest.mark.parametrize(("ruleset", "options", "written"), END_GAMES[:2] + END_GAMES[4:5])
def test_given_an_end_game_when_hinting_then_every_choice_matches_brute_force(
    ruleset, options, written, tmp_path
):
    sheet = Sheet(written)
    model, values = _solved(ruleset, sheet, options)
    path = tables.table_path(model, tmp_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.save(path, values.astype(np.float32))
    tables.forget()
    oracle = Oracle(ruleset, options)
    rules = oracle.rules
    keeps_1, keeps_2 = oracle.turn(sheet)
    dice = (6, 6, 6, 6, 2)

    for throw, keeps in ((1, keeps_1), (2, keeps_2), (3, None)):
        choices = hint(ruleset, options, sheet, dice, throw, directory=tmp_path)

        for choice in choices:
            if choice.kind == "keep":
                want = rules.total(sheet) + keeps[choice.keep]
            else:
                after = rules.write(sheet, choice.cell, dice, throw)
                want = rules.total(after) + oracle.future_of(after)
            assert choice.expected - rules.total(sheet) == pytest.approx(
                want - rules.total(sheet), abs=1e-3
            ), choice
    tables.forget()
