"""The solver's own score tables agree with scorer.rules, throw by throw and cell by cell.

With a value table of zeros the solver's "value of writing" is exactly the
points (and bonuses) a write earns now, so every throw x cell x throw number
is compared with ``ruleset.write`` on empty and on part-written sheets,
including the yahtzee joker, the upper bonus, servida and the double generala.
"""

from __future__ import annotations

import numpy as np
import pytest

from scorer.errors import ForbiddenMove
from scorer.rules import Sheet, get_ruleset
from scorer.strategy import solitaire
from scorer.strategy.solver import States, cell_values
from scorer.strategy.throws import lattice

RULESETS = [
    ("yahtzee", None),
    ("yatzy", None),
    ("yacht", None),
    ("generala", None),
    ("generala", {"double_generala": "off"}),
]

SHEETS = {
    "yahtzee": [
        {"yahtzee": 50, "sixes": 24},
        {"yahtzee": 0, "threes": 9},
        {"yahtzee": 50, "ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 20},
        {
            "yahtzee": 50,
            "three_of_a_kind": 20,
            "four_of_a_kind": 0,
            "full_house": 25,
            "small_straight": 30,
            "large_straight": 40,
            "chance": 22,
            "fours": 12,
        },
    ],
    "yatzy": [{"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 20, "yatzy": 50}],
    "yacht": [{"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 20, "yacht": 0}],
    "generala": [{"generala": 50, "ones": 2}, {"generala": 0}],
}


@pytest.mark.parametrize(("ruleset", "options"), RULESETS)
def test_given_an_empty_sheet_then_the_point_tables_equal_the_rules(ruleset, options):
    rules = get_ruleset(ruleset, options)
    model = solitaire(ruleset, options)
    assert model.cells == rules.cells

    for throw in (1, 2, 3):
        table = model.points_first if throw == 1 else model.points_later
        for t, dice in enumerate(lattice().throws):
            want = [rules.points(cell, dice, Sheet(), throw) for cell in rules.cells]
            if "double_generala" in rules.cells:  # scores only once generala holds 50
                want[-1] = 100 if len(set(dice)) == 1 else 0
            assert list(table[t]) == want, (throw, dice)


def _sheets():
    for ruleset, options in RULESETS:
        for written in SHEETS[ruleset]:
            if options is None or ("generala" in written and written["generala"] == 50):
                yield pytest.param(ruleset, options, written, id=f"{ruleset}-{sorted(written)}")


@pytest.mark.parametrize(("ruleset", "options", "written"), list(_sheets()))
def test_given_a_written_sheet_then_each_write_earns_what_the_rules_say(ruleset, options, written):
    rules = get_ruleset(ruleset, options)
    model = solitaire(ruleset, options)
    sheet = Sheet(written)
    states = States(*(np.array([x], dtype=np.int64) for x in model.state(sheet.cells)))
    zeros = np.zeros(int(np.prod(model.shape)))
    fives = {lattice().index((f,) * 5): f - 1 for f in range(1, 7)}
    joker_on = model.joker and not sheet.is_open("yahtzee")

    for throw in (1, 2, 3):
        earned = {
            model.cells[c]: (cell[0], joker)
            for c, cell, joker in cell_values(model, zeros, states, first=throw == 1)
        }
        for t, dice in enumerate(lattice().throws):
            for name, (cell, joker) in earned.items():
                jokered = joker is not None and joker_on and t in fives
                got = joker[0, fives[t]] if jokered else cell[t]
                try:
                    after = rules.write(sheet, name, dice, throw)
                except ForbiddenMove:
                    assert got == -np.inf, (name, dice, throw)
                    continue
                assert got == rules.total(after) - rules.total(sheet), (name, dice, throw)
