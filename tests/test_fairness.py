"""Fair dice: which dice count, the chi-square test, and its verdict on loaded and fair dice."""

from __future__ import annotations

import random

import pytest

from scorer.fairness import chi_square_p, count, judge, table_fairness, thrown_values
from scorer.game import Setup

FAIR = [1 / 6] * 6
LOADED = [0.15] * 5 + [0.25]  # sixes come up a quarter of the time


def roll(weights: list[float], n: int, seed: int) -> list[int]:
    return random.Random(seed).choices(range(1, 7), weights=weights, k=n)


@pytest.mark.parametrize(
    ("statistic", "freedom", "p"),
    [(11.0705, 5, 0.05), (15.0863, 5, 0.01), (20.5150, 5, 0.001), (3.8415, 1, 0.05), (0, 5, 1.0)],
)
def test_given_textbook_critical_values_then_the_p_value_is_theirs(statistic, freedom, p):
    assert chi_square_p(statistic, freedom) == pytest.approx(p, rel=1e-3)


@pytest.mark.parametrize("seed", range(5))
def test_given_a_die_loaded_to_sixes_then_600_throws_flag_it(seed):
    verdict = judge(count(roll(LOADED, 600, seed)))

    assert verdict.biased
    assert (verdict.face, verdict.more) == (6, True)
    assert "6s come up more" in verdict.verdict()


@pytest.mark.parametrize("seed", range(5))
def test_given_a_fair_die_then_600_throws_show_no_bias(seed):
    verdict = judge(count(roll(FAIR, 600, seed)))

    assert not verdict.biased
    assert verdict.verdict() == "no sign of bias over 600 dice"


def test_given_too_few_dice_then_no_verdict_either_way():
    verdict = judge((6, 0, 0, 0, 0, 0))

    assert not verdict.enough and not verdict.biased and verdict.p_value is None
    assert "too few dice" in verdict.verdict()


def camera(dice: list[int], confidence: float = 0.97) -> dict:
    return {"type": "throw", "dice": dice, "reading": {"confidence": [confidence] * len(dice)}}


def test_given_holds_corrections_typed_and_virtual_throws_then_only_seen_thrown_dice_count():
    setup = Setup("yahtzee", ("Ann",))
    events = [
        camera([1, 2, 3, 4, 5]),  # all five count...
        {"type": "correct", "index": 0, "value": 6},  # ...die 1 as corrected
        {"type": "hold", "held": [0, 1]},
        camera([6, 2, 4, 4, 4]),  # the held 6 and 2 were not thrown again
        {"type": "write", "cell": "fours"},
        {"type": "throw", "dice": [5, 5, 5, 5, 5], "reading": None},  # typed: left out
        {"type": "write", "cell": "fives"},
        {"type": "throw", "dice": [3, 3, 3, 3, 3], "virtual": True},  # the timer's: left out
        {"type": "write", "cell": "threes"},
        camera([1, 1, 1, 2, 2]),
        {"type": "undo"},  # an undone throw was never thrown
        camera([2, 2, 6, 6, 6]),
    ]

    values = thrown_values(setup, events)

    first, rethrown, last = [6, 2, 3, 4, 5], [4, 4, 4], [2, 2, 6, 6, 6]
    assert sorted(values) == sorted([*first, *rethrown, *last])


def test_given_a_store_then_each_dice_set_is_judged_apart(store):
    rng = random.Random(7)
    pips, game = store.create(Setup("yahtzee", ("Ann",)))
    cards, _ = store.create(Setup("poker_dice", ("Ann", "Bo"), dice="cards"))
    for cell in game.rules.cells[6:12]:  # sixes on every throw but one die
        store.act(pips, camera([6, 6, 6, 6, rng.randint(1, 5)]))
        store.act(pips, {"type": "write", "cell": cell})
    store.act(cards, camera([1, 2, 3, 4, 5]))

    verdicts = {v.dice_set: v for v in table_fairness(store)}

    assert set(verdicts) == {"pips", "cards"}
    assert verdicts["pips"].dice == 30 and verdicts["pips"].counts[5] == 24
    assert verdicts["pips"].biased and verdicts["pips"].face == 6
    assert verdicts["cards"].counts == (1, 1, 1, 1, 1, 0) and not verdicts["cards"].enough
    assert verdicts["cards"].cards and not verdicts["pips"].cards
    assert [v.dice_set for v in table_fairness(store, "cards")] == ["cards"]


def test_given_games_with_chosen_sets_then_each_set_is_judged_apart_from_the_kinds(store):
    white, _ = store.create(Setup("yahtzee", ("Ann",), dice_set="white"))
    plain, _ = store.create(Setup("yahtzee", ("Ann",)))
    store.act(white, camera([1, 2, 3, 4, 5]))
    store.act(plain, camera([6, 6, 6, 6, 6]))

    verdicts = {v.dice_set: v.counts for v in table_fairness(store)}

    assert verdicts == {"white": (1, 1, 1, 1, 1, 0), "pips": (0, 0, 0, 0, 0, 5)}
    assert [v.counts for v in table_fairness(store, "white")] == [(1, 1, 1, 1, 1, 0)]


def test_given_a_game_counted_once_then_it_is_replayed_again_only_when_its_log_grows(
    store, monkeypatch
):
    import scorer.fairness

    replays = []
    real = scorer.fairness.thrown_values
    monkeypatch.setattr(scorer.fairness, "thrown_values", lambda *a: replays.append(1) or real(*a))
    game_id, _ = store.create(Setup("yahtzee", ("Ann",)))
    store.act(game_id, camera([1, 2, 3, 4, 5]))

    first = table_fairness(store)
    again = table_fairness(store)
    store.act(game_id, {"type": "correct", "index": 0, "value": 6})
    after = table_fairness(store)

    assert len(replays) == 2
    assert first[0].counts == again[0].counts == (1, 1, 1, 1, 1, 0)
    assert after[0].counts == (0, 1, 1, 1, 1, 1)


def test_given_a_bluff_reveal_photographed_twice_then_its_dice_count_once():
    setup = Setup("poker_bluff", ("Anna", "Borys"), dice="cards")
    events = [
        {"type": "claim", "hand": "pair", "ranks": [5]},
        {"type": "call"},
        camera([1, 1, 2, 3, 4]),  # the cup lifted, a blurred photo
        camera([5, 5, 2, 3, 4]),  # the same dice again, read right
        {"type": "judge"},
    ]

    assert sorted(thrown_values(setup, events)) == [2, 3, 4, 5, 5]
