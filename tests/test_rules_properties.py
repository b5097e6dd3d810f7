"""Property: a total is its cells plus its bonuses, whatever legal writes led there.

Random sequences of legal writes and strikes are played on one sheet of every
sheet ruleset; the bonuses are recomputed here from RULES.md (upper bonus at
63, +100 per joker over a yahtzee of 50, premium on a finished part 1 of 0 or
more), not taken from the ruleset.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.rules import UPPER, Sheet, get_ruleset, settlement

UPPER_BONUS = {"yahtzee": (63, 35), "yatzy": (63, 50), "yacht": (63, 35)}

dice = st.one_of(
    st.tuples(*[st.integers(1, 6)] * 5),
    st.integers(1, 6).map(lambda v: (v,) * 5),  # five alike: jokers, yahtzee bonus, poker
    st.sampled_from([(1, 2, 3, 4, 5), (2, 3, 4, 5, 6), (3, 3, 3, 2, 2), (6, 6, 6, 6, 1)]),
)
# (dice, throw, which legal cell, how): "best" writes the top-scoring cell, as players do.
move = st.tuples(
    dice, st.integers(1, 3), st.integers(0, 20), st.sampled_from(["best", "any", "strike"])
)

TABLES = [
    ("yahtzee", {}),
    ("yatzy", {}),
    ("yacht", {}),
    ("generala", {}),
    ("generala", {"double_generala": "off"}),
    ("poker_ru", {}),
    ("poker_ru", {"multipliers": "off", "throws": "1", "throws.sixes": "3"}),
    ("poker_ua", {}),
]


def expected_bonus(ruleset: str, cells: dict[str, int], jokers_over_50: int) -> int:
    upper = sum(cells.get(c, 0) for c in UPPER)
    bonus = 0
    if ruleset in UPPER_BONUS:
        threshold, points = UPPER_BONUS[ruleset]
        bonus += points if upper >= threshold else 0
    if ruleset == "yahtzee":
        bonus += 100 * jokers_over_50
    if ruleset.startswith("poker_") and all(c in cells for c in UPPER) and upper >= 0:
        bonus += 50
    return bonus


@pytest.mark.parametrize("table", TABLES, ids=[f"{r}-{o}" for r, o in TABLES])
@settings(max_examples=50, deadline=None)
@given(moves=st.lists(move, min_size=1, max_size=25))
def test_total_is_cells_plus_bonuses_after_any_legal_writes(
    table: tuple[str, dict[str, str]], moves: list[tuple[tuple[int, ...], int, int, str]]
) -> None:
    ruleset_id, options = table
    rules = get_ruleset(ruleset_id, options)
    sheet = Sheet()
    written: dict[str, int] = {}
    jokers_over_50 = 0
    for thrown, throw, pick, how in moves:
        # Given a sheet reached by legal moves, and a throw
        scores = rules.scores(thrown, sheet, throw)
        if not scores:
            continue
        legal = list(scores)
        cell = max(legal, key=scores.__getitem__) if how == "best" else legal[pick % len(legal)]
        # When the player writes the dice into a legal cell, or strikes it
        if how == "strike":
            points = rules.scratch_points(cell)
            sheet = rules.scratch(sheet, cell)
        else:
            points = scores[cell]
            if len(set(thrown)) == 1 and written.get("yahtzee") == 50:
                jokers_over_50 += ruleset_id == "yahtzee"
            sheet = rules.write(sheet, cell, thrown, throw)
        written[cell] = points
        # Then the sheet holds what was promised, and the total is cells plus bonuses
        assert dict(sheet.cells) == written
        want = sum(written.values()) + expected_bonus(ruleset_id, written, jokers_over_50)
        assert rules.total(sheet) == want


@pytest.mark.parametrize("ruleset_id", ["poker_ru", "poker_ua"])
@settings(max_examples=50, deadline=None)
@given(totals=st.lists(st.integers(-500, 1500), min_size=1, max_size=6))
def test_settlement_sums_to_zero_and_is_total_minus_average(
    ruleset_id: str, totals: list[int]
) -> None:
    # Given 1 to 6 players' totals
    rules = get_ruleset(ruleset_id)
    # When the table settles
    result = rules.settlement(totals)
    # Then nothing is created or lost: whole cents summing to exactly 0
    assert result is not None
    cents = [round(r * 100) for r in result]
    assert all(abs(r * 100 - c) < 1e-6 for r, c in zip(result, cents, strict=True))
    assert sum(cents) == 0
    # and each pays or takes the distance to the average, to the cent (the rounding
    # remainder, at most half a cent a player, goes to the largest result)
    n = len(totals)
    for total, paid in zip(totals, result, strict=True):
        exact = total - sum(totals) / n
        assert abs(paid - exact) <= 0.005 * (n + 1) + 1e-9
    # and the transfers settle it, with at most one payment fewer than the players
    moves = settlement.transfers(cents)
    balance = list(cents)
    for move in moves:
        assert move.amount > 0
        balance[move.payer] += round(move.amount * 100)
        balance[move.payee] -= round(move.amount * 100)
    assert balance == [0] * n
    assert len(moves) <= max(0, sum(1 for c in cents if c) - 1)


def test_the_fewest_transfers_split_the_table_where_greedy_matching_would_not() -> None:
    # Given results where the largest debtor paying the largest creditor takes 4 payments
    cents = [600, 400, 300, -700, -600]
    # When the table settles
    moves = settlement.transfers(cents)
    # Then 3 do it: the 6 settle between themselves, then the 7 pays the 4 and the 3
    assert sorted(list(m.to_dict().values()) for m in moves) == [
        [3, 1, 4.0],
        [3, 2, 3.0],
        [4, 0, 6.0],
    ]
