"""Hints: ranked choices, their meaning, the cache, and the rulesets without a table."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from scorer.errors import ForbiddenMove, ScorerError
from scorer.rules import Sheet, get_ruleset
from scorer.strategy import ImpossibleSheet, NoStrategy, expected_score, hint, tables
from scorer.strategy.throws import lattice


@pytest.fixture
def data(tmp_path, monkeypatch):
    """A fresh data directory, and no table held in memory."""
    monkeypatch.setenv("SCORER_DATA", str(tmp_path))
    tables.forget()
    yield tmp_path
    tables.forget()


@pytest.mark.parametrize("ruleset", ["poker_ru", "poker_ua", "poker_dice"])
def test_given_a_poker_ruleset_when_hinting_then_no_strategy(ruleset, data):
    with pytest.raises(NoStrategy) as raised:
        hint(ruleset, {}, Sheet(), (1, 2, 3, 4, 5), 1)

    assert isinstance(raised.value, ScorerError)
    assert ruleset in str(raised.value)


def test_given_no_table_when_hinting_then_it_is_built_once_and_cached(data, caplog):
    caplog.set_level(logging.INFO, logger="scorer.strategy.tables")

    hint("generala", {}, Sheet(), (1, 2, 3, 4, 6), 1)
    hint("generala", {}, Sheet(), (1, 2, 3, 4, 6), 2)

    built = [r for r in caplog.records if "building" in r.getMessage()]
    assert len(built) == 1
    assert list((data / "strategy").glob("generala-double_generala=on.*.npy"))


def test_given_a_fresh_sheet_then_the_best_first_choices_average_to_the_expected_score(data):
    lat = lattice()

    best = [hint("generala", {}, Sheet(), throw, 1)[0].expected for throw in lat.throws]

    assert float(np.dot(best, lat.probability)) == pytest.approx(162.4695, abs=1e-3)
    assert expected_score("generala") == pytest.approx(162.4695, abs=1e-3)


def test_given_choices_then_they_are_ranked_with_shortfalls_from_the_best(data):
    choices = hint("generala", {}, Sheet({"ones": 2}), (5, 2, 5, 5, 1), 2)

    expected = [c.expected for c in choices]
    assert expected == sorted(expected, reverse=True)
    assert choices[0].shortfall == 0
    for choice in choices:
        assert choice.shortfall == pytest.approx(choices[0].expected - choice.expected, abs=1e-3)


def test_given_keeps_then_the_indexes_point_at_the_kept_values(data):
    dice = (5, 2, 5, 5, 1)

    keeps = [c for c in hint("generala", {}, Sheet(), dice, 1) if c.kind == "keep"]

    # {5,5,5} x {2} x {1}: 4 x 2 x 2 sub-multisets, less keeping all five
    assert len(keeps) == len({c.keep for c in keeps}) == 15
    for choice in keeps:
        assert tuple(sorted(dice[i] for i in choice.keep_indexes)) == choice.keep
        assert choice.cell is None


def test_given_the_last_throw_then_only_writes_and_only_legal_cells(data):
    sheet = Sheet({"generala": 50, "sixes": 24})
    rules = get_ruleset("generala")

    choices = hint("generala", {}, sheet, (3, 3, 3, 3, 3), 3)

    assert {c.kind for c in choices} == {"write"}
    assert {c.cell for c in choices} == set(rules.open_cells(sheet))
    assert choices[0].cell == "double_generala"


def test_given_servida_then_writing_on_the_first_throw_is_worth_five_more(data):
    first = {c.cell: c.expected for c in hint("generala", {}, Sheet(), (2, 2, 2, 4, 4), 1)}
    later = {c.cell: c.expected for c in hint("generala", {}, Sheet(), (2, 2, 2, 4, 4), 2)}

    assert first["full"] - later["full"] == pytest.approx(5)
    assert first["twos"] == pytest.approx(later["twos"])


def test_given_a_full_sheet_when_hinting_then_forbidden(data):
    rules = get_ruleset("generala", {"double_generala": "off"})
    full = Sheet(dict.fromkeys(rules.cells, 0))

    with pytest.raises(ForbiddenMove):
        hint("generala", {"double_generala": "off"}, full, (1, 1, 1, 1, 1), 1)


def test_given_an_impossible_upper_cell_when_hinting_then_an_error_names_it(data, monkeypatch):
    monkeypatch.setattr(tables, "table", lambda *a, **k: pytest.fail("must not build"))

    with pytest.raises(ImpossibleSheet):
        hint("yahtzee", {}, Sheet({"ones": 7}), (1, 2, 3, 4, 5), 1)


def test_given_bad_dice_or_throw_when_hinting_then_scorer_errors(data):
    with pytest.raises(ScorerError):
        hint("generala", {}, Sheet(), (1, 2, 3, 4), 1)
    with pytest.raises(ScorerError):
        hint("generala", {}, Sheet(), (1, 2, 3, 4, 5), 4)


def test_given_a_choice_then_it_serialises_for_the_api(data):
    choice = hint("generala", {}, Sheet(), (6, 6, 6, 6, 1), 1)[0]

    data = choice.to_dict()

    assert set(data) == {"kind", "keep", "keep_indexes", "cell", "expected", "shortfall"}
    assert data["kind"] in {"keep", "write"}


def test_given_prepare_then_the_table_is_built_in_the_background_once(data):
    from scorer.strategy import is_built, prepare, solitaire

    worker = prepare("generala", {"double_generala": "off"})
    worker.join(timeout=60)

    assert is_built(solitaire("generala", {"double_generala": "off"}))
    assert prepare("generala", {"double_generala": "off"}) is None
    assert prepare("poker_dice") is None
