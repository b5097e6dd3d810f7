"""Done-when of issue 2: ``scorer score`` agrees with RULES.md for every cell of every ruleset.

Each case runs the real CLI once (``-``: one throw a line on stdin) over all 252
distinct throws and compares every cell with the independent oracle of
``rules_oracle.py``; poker_dice's categories are counted over all 7776 ordered
throws against seed 003's frequency table.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import rules_oracle as oracle

from scorer.rules import get_ruleset

REPO = Path(__file__).resolve().parent.parent


def run_score_stdin(args: list[str], throws: tuple[tuple[int, ...], ...]) -> list[dict]:
    """Feed every throw to one ``scorer score ... -`` process; one JSON object a line back."""
    lines = "".join(" ".join(map(str, dice)) + "\n" for dice in throws)
    done = subprocess.run(
        [sys.executable, "-m", "scorer", "score", *args, "-"],
        input=lines,
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def mismatches(ruleset: str, got: list[dict], want: list[dict]) -> list[str]:
    wrong = []
    for dice, got_cells, want_cells in zip(oracle.THROWS_252, got, want, strict=True):
        if got_cells.keys() != want_cells.keys():
            wrong.append(f"{dice}: cells {list(got_cells)} != {list(want_cells)}")
            continue
        wrong += [
            f"{ruleset} {dice} {cell}: scorer {got_cells[cell]}, RULES.md {want_cells[cell]}"
            for cell in want_cells
            if got_cells[cell] != want_cells[cell]
        ]
    return wrong


@pytest.mark.parametrize("throw", [1, 2, 3])
@pytest.mark.parametrize("ruleset", list(oracle.SHEET_TABLES))
def test_every_cell_of_every_throw_matches_rules_md(ruleset: str, throw: int) -> None:
    # Given all 252 distinct throws and RULES.md's points for them
    want = [oracle.expected(ruleset, dice, throw) for dice in oracle.THROWS_252]
    # When the CLI scores them after this throw of the turn
    got = run_score_stdin([ruleset, "--throw", str(throw)], oracle.THROWS_252)
    # Then every cell agrees
    assert len(got) == 252
    assert mismatches(ruleset, got, want) == []


def test_poker_ru_agreed_values_without_multipliers_match_rules_md() -> None:
    # Given a table that turns the multipliers off and values pair and poker up
    values = {**oracle.POKER_RU_VALUES, "pair": 6, "poker": 60}
    table = oracle.poker_ru_table(values, multipliers=False)
    want = [dict(table(oracle.Throw(dice), 1)) for dice in oracle.THROWS_252]
    # When the CLI scores every throw after the first throw
    options = ["--option", "multipliers=off", "--option", "value.pair=6"]
    got = run_score_stdin(
        ["poker_ru", "--throw", "1", *options, "--option", "value.poker=60"], oracle.THROWS_252
    )
    # Then every cell agrees
    assert mismatches("poker_ru", got, want) == []


def test_poker_dice_categories_over_7776_throws_match_seed_003() -> None:
    # Given every ordered throw, written as card faces
    faces = {1: "9", 2: "10", 3: "J", 4: "Q", 5: "K", 6: "A"}
    throws = tuple(tuple(faces[v] for v in dice) for dice in oracle.THROWS_7776)
    # When the CLI names each hand
    got = run_score_stdin(["poker_dice"], throws)
    # Then the categories have seed 003's exact frequencies, and each is the oracle's
    assert Counter(h["hand"] for h in got) == oracle.SEED_003_FREQUENCIES
    assert [h["hand"] for h in got] == [oracle.poker_category(d) for d in oracle.THROWS_7776]


@pytest.mark.parametrize(
    ("straights", "frequencies"),
    [
        ("below_full_house", oracle.SEED_003_FREQUENCIES),
        (
            "none",
            {
                **{k: v for k, v in oracle.SEED_003_FREQUENCIES.items() if k != "straight"},
                "high_card": 720,
            },
        ),
    ],
)
def test_poker_dice_straight_agreements_count_as_the_seed_says(
    straights: str, frequencies: dict[str, int]
) -> None:
    # Given the table's straight agreement
    ruleset = get_ruleset("poker_dice", {"straights": straights})
    # When every ordered throw is named
    counted = Counter(ruleset.hand(dice).category for dice in oracle.THROWS_7776)
    # Then a straight ranks or vanishes into high card as agreed
    assert counted == frequencies


@pytest.mark.parametrize("straights", ["above_full_house", "below_full_house", "none"])
def test_poker_dice_compare_orders_all_hands_as_the_oracle(straights: str) -> None:
    # Given every distinct hand and the oracle's strength of each
    ruleset = get_ruleset("poker_dice", {"straights": straights})
    hands = [ruleset.hand(dice) for dice in oracle.THROWS_252]
    strength = [oracle.poker_strength(dice, straights) for dice in oracle.THROWS_252]
    # When every pair of hands is compared
    wrong = [
        (oracle.THROWS_252[i], oracle.THROWS_252[j])
        for i, a in enumerate(hands)
        for j, b in enumerate(hands)
        if ruleset.compare(a, b) != (strength[i] > strength[j]) - (strength[i] < strength[j])
    ]
    # Then the implementation agrees on every one
    assert wrong == []
