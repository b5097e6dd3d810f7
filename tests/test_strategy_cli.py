"""``scorer solve``, ``scorer hint`` and ``scorer simulate`` from the command line."""

from __future__ import annotations

import json

import pytest

from scorer.cli import main
from scorer.strategy import tables


@pytest.fixture(autouse=True)
def fresh(tmp_path, monkeypatch):
    monkeypatch.setenv("SCORER_DATA", str(tmp_path))
    tables.forget()
    yield
    tables.forget()


def test_given_solve_then_the_expected_score_and_the_cached_table_are_printed(capsys, tmp_path):
    status = main(["solve", "generala", "--option", "double_generala=off"])

    out = capsys.readouterr().out
    assert status == 0
    assert "expected score of a fresh game 151.8990" in out
    assert str(tmp_path / "strategy") in out

    main(["solve", "generala", "--option", "double_generala=off"])
    assert "cached" in capsys.readouterr().out


def test_given_hint_then_choices_are_ranked_best_first(capsys):
    status = main(
        ["hint", "generala", "--sheet", "ones=3,generala=50", "--throw", "2", "6-6-6-6-2"]
    )

    lines = capsys.readouterr().out.splitlines()
    assert status == 0
    assert lines[1].split()[:4] == ["1", "keep", "6", "6"]
    assert "0.00" in lines[1]


def test_given_hint_json_then_one_array_of_choices(capsys):
    sheet = json.dumps({"cells": {"ones": 3}})

    main(
        ["hint", "generala", "--sheet", sheet, "--throw", "3", "--json", "--top", "3", "1 1 1 2 2"]
    )

    choices = json.loads(capsys.readouterr().out)
    assert len(choices) == 3
    assert all(c["kind"] == "write" for c in choices)
    assert choices[0]["shortfall"] == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["hint", "poker_ru", "1", "2", "3", "4", "5"], "no optimal-play table"),
        (["hint", "generala", "--sheet", "ones", "1", "2", "3", "4", "5"], "CELL=POINTS"),
        (["hint", "generala", "1", "2", "3", "4", "7"], "1..6"),
        (["solve", "generala", "--option", "bonus=1"], "no option"),
        (["simulate", "generala", "--games", "0"], "--games"),
    ],
)
def test_given_bad_input_then_status_2_and_a_message(argv, message, capsys):
    status = main(argv)

    assert status == 2
    assert message in capsys.readouterr().err


def test_given_simulate_then_mean_and_deviation_are_printed(capsys):
    status = main(["simulate", "generala", "--games", "500", "--seed", "1"])

    out = capsys.readouterr().out
    assert status == 0
    assert "500 games, mean" in out
    assert "sd" in out
