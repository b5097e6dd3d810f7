"""The coach: every keep and write of a finished game priced against the best choice."""

from __future__ import annotations

import random

import pytest

from scorer.game import Game, Setup
from scorer.rules import get_ruleset
from scorer.strategy import hint, solitaire, tables
from scorer.strategy.review import NoReview, review

YAHTZEE_CELLS = 13


@pytest.fixture(scope="module")
def solved(tmp_path_factory):
    """yahtzee's table, built once for the module into its own folder."""
    folder = tmp_path_factory.mktemp("strategy")
    tables.table(solitaire("yahtzee", {}), directory=folder)
    yield folder
    tables.forget()


def best_game(seed: int, directory) -> list[dict]:
    """A solo yahtzee game in which every decision is the hint's first choice."""
    rng = random.Random(seed)
    game = Game.start(Setup("yahtzee", ("Ann",)))
    events: list[dict] = []

    def act(event: dict) -> None:
        nonlocal game
        game = game.apply(event)
        events.append(event)

    while not game.finished:
        act({"type": "throw", "dice": [rng.randint(1, 6) for _ in range(5)]})
        while True:
            best = hint("yahtzee", {}, game.sheets[0], game.values, game.throw, directory=directory)
            if best[0].kind == "write":
                act({"type": "write", "cell": best[0].cell})
                break
            act({"type": "hold", "held": list(best[0].keep_indexes)})
            free = 5 - len(best[0].keep_indexes)
            act({"type": "throw", "dice": [rng.randint(1, 6) for _ in range(free)]})
    return events


def test_given_a_game_of_best_choices_when_reviewed_then_nothing_was_lost(solved):
    events = best_game(seed=4, directory=solved)

    (player,) = review(Setup("yahtzee", ("Ann",)), events, directory=solved)

    writes = [d for d in player.decisions if d.made.kind == "write"]
    assert len(writes) == YAHTZEE_CELLS
    assert len(player.decisions) > YAHTZEE_CELLS  # some keeps too
    assert player.lost == 0.0
    assert player.costliest() == []


def blunder_game() -> list[dict]:
    """Five sixes on the first throw, and yahtzee struck; then each cell filled in order."""
    events: list[dict] = [
        {"type": "throw", "dice": [6, 6, 6, 6, 6]},
        {"type": "scratch", "cell": "yahtzee"},
    ]
    rules = get_ruleset("yahtzee")
    for cell in rules.cells:
        if cell != "yahtzee":
            events += [{"type": "throw", "dice": [1, 2, 3, 4, 6]}, {"type": "write", "cell": cell}]
    return events


def test_given_five_sixes_struck_from_yahtzee_then_it_costs_what_the_solver_says(solved):
    setup = Setup("yahtzee", ("Ann",))
    model = solitaire("yahtzee", {})
    rules = get_ruleset("yahtzee")

    (player,) = review(setup, blunder_game(), directory=solved)

    first = player.decisions[0]
    assert (first.made.kind, first.made.cell) == ("scratch", "yahtzee")
    fresh = Game.start(setup).sheets[0]
    best = hint("yahtzee", {}, fresh, (6, 6, 6, 6, 6), 1, directory=solved)[0]
    struck = rules.scratch(fresh, "yahtzee")
    mask, up, flag = model.state(struck.cells)
    solver_value = float(tables.table(model, directory=solved)[mask, up, flag])
    assert first.best_expected == pytest.approx(best.expected, abs=1e-4)
    assert first.cost == pytest.approx(best.expected - (0 + solver_value), abs=1e-4)
    assert first.cost > 40  # a sure 50 thrown away, less what the open yahtzee cell was worth
    assert player.costliest()[0] == first


def test_given_hints_during_play_then_the_review_prices_match_them(solved):
    """The review's expected values are the hint route's, to 1e-4, at every write."""
    setup = Setup("yahtzee", ("Ann",))
    events = blunder_game()
    game = Game.start(setup)
    offered = []
    for event in events:
        if event["type"] in ("write", "scratch"):
            offered.append(
                hint("yahtzee", {}, game.sheets[0], game.values, game.throw, directory=solved)
            )
        game = game.apply(event)

    (player,) = review(setup, events, directory=solved)

    for choices, decision in zip(offered, player.decisions, strict=True):
        assert decision.best_expected == pytest.approx(choices[0].expected, abs=1e-4)
        if decision.made.kind == "write":
            made = next(c for c in choices if c.kind == "write" and c.cell == decision.made.cell)
            assert decision.expected == pytest.approx(made.expected, abs=1e-4)


def test_given_an_undone_blunder_then_only_the_decision_that_stands_is_priced(solved):
    setup = Setup("yahtzee", ("Ann",))
    events = blunder_game()
    events[1:1] = [{"type": "scratch", "cell": "ones"}, {"type": "undo"}]

    (player,) = review(setup, events, directory=solved)

    assert [d.made.cell for d in player.decisions[:2]] == ["yahtzee", "ones"]
    assert player.decisions[0].turn == 1 and player.decisions[1].turn == 2


def test_given_two_players_then_each_has_their_own_decisions(solved):
    setup = Setup("yahtzee", ("Ann", "Bo"))
    single = blunder_game()
    events = []
    for i in range(0, len(single), 2):
        events += [*single[i : i + 2], {"type": "throw", "dice": [1, 3, 3, 4, 5]}]
        events.append({"type": "write", "cell": single[i + 1]["cell"]})

    ann, bo = review(setup, events, directory=solved)

    assert ann.name == "Ann" and bo.name == "Bo"
    assert len(ann.decisions) == len(bo.decisions) == YAHTZEE_CELLS
    assert ann.decisions[0].dice == (6, 6, 6, 6, 6) and bo.decisions[0].dice == (1, 3, 3, 4, 5)


def test_given_an_unfinished_game_or_an_unsolved_ruleset_then_no_review(solved):
    with pytest.raises(NoReview, match="not over"):
        review(Setup("yahtzee", ("Ann",)), blunder_game()[:4], directory=solved)
    with pytest.raises(NoReview, match="poker_ru"):
        review(Setup("poker_ru", ("Ann",)), [], directory=solved)
