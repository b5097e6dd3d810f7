"""Whole-game figures: the optimal expected score of a fresh game, and simulated play.

Generala and yacht solve in seconds; yahtzee and yatzy (under a minute each)
are marked slow and still run in CI.
"""

from __future__ import annotations

import numpy as np
import pytest

from scorer.strategy import solitaire, tables
from scorer.strategy.simulation import simulate

FIGURES = {
    ("generala", "on"): 162.47,
    ("generala", "off"): 151.90,
    ("yacht", None): 191.77,
    ("yatzy", None): 248.44,
}


@pytest.mark.parametrize("double", ["on", "off"])
def test_given_generala_when_solved_then_the_published_optimum(double, tmp_path):
    model = solitaire("generala", {"double_generala": double})

    values = tables.table(model, directory=tmp_path)

    assert float(values[0, 0, 0]) == pytest.approx(FIGURES[("generala", double)], abs=0.005)


@pytest.mark.slow
def test_given_yahtzee_when_solved_then_verhoeffs_optimum_within_0_005(tmp_path):
    model = solitaire("yahtzee")

    values = tables.build(model, directory=tmp_path)

    # RULES.md's forced joker gives 254.5877; Verhoeff's free joker gives his 254.5896.
    assert float(values[0, 0, 0]) == pytest.approx(254.5896, abs=0.005)
    assert float(values[0, 0, 0]) == pytest.approx(254.5877, abs=0.0005)
    assert tables.table_path(model, tmp_path).stat().st_size <= 16e6


def test_given_yacht_when_solved_then_the_independent_solvers_figure(tmp_path):
    values = tables.table(solitaire("yacht"), directory=tmp_path)

    assert float(values[0, 0, 0]) == pytest.approx(FIGURES[("yacht", None)], abs=0.005)


@pytest.mark.slow
def test_given_yatzy_when_solved_then_the_three_solvers_figure(tmp_path):
    values = tables.table(solitaire("yatzy"), directory=tmp_path)

    assert float(values[0, 0, 0]) == pytest.approx(FIGURES[("yatzy", None)], abs=0.005)


def test_given_generala_when_simulating_then_the_mean_is_the_optimum(tmp_path):
    model = solitaire("generala")
    values = tables.table(model, directory=tmp_path)

    scores = simulate(model, values, games=3000, seed=11)

    stderr = scores.std(ddof=1) / np.sqrt(len(scores))
    assert abs(scores.mean() - float(values[0, 0, 0])) < 4 * stderr
    assert scores.min() >= 0
    assert np.all(scores % 1 == 0)


def test_given_yacht_endgame_when_simulating_then_points_are_those_the_rules_allow(tmp_path):
    # one open cell (sixes, after 60 in the rest of the upper section): each game
    # scores 6 x sixes, plus 35 once the upper sum reaches 63.
    from scorer.strategy.simulation import play_turn
    from scorer.strategy.solver import States, solve

    model = solitaire("yacht")
    closed = (1 << len(model.cells)) - 1 - (1 << model.cells.index("sixes"))
    values = solve(model, within=closed).reshape(-1)
    n = 2000
    states = States(np.full(n, closed), np.full(n, 45), np.zeros(n, dtype=np.int64))

    _, earned = play_turn(model, values, states, np.random.default_rng(5))

    assert set(np.unique(earned)) <= {0, 6, 12, 18 + 35, 24 + 35, 30 + 35}
    assert earned.mean() == pytest.approx(float(values[closed * 64 + 45]), abs=3)
