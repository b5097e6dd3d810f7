"""The game state machine: turns, holds, undo, and that the log alone rebuilds a game."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.errors import BadDice, BadOption, ForbiddenMove, ScorerError, UnknownRuleset
from scorer.game import FLOW, Game, Setup


def start(ruleset: str = "yahtzee", players: tuple[str, ...] = ("Anna", "Borys"), **kw) -> Game:
    return Game.start(Setup(ruleset, players, **kw))


def play(game: Game, *events: dict) -> Game:
    for event in events:
        game = game.apply(event)
    return game


def comparable(game: Game) -> dict:
    state = game.state()
    state.pop("version")
    return state


def test_a_turn_throws_holds_rethrows_and_writes():
    # given a fresh two-player yahtzee game
    game = start()
    # when Anna throws, holds the twos and re-throws the rest
    game = play(
        game,
        {"type": "throw", "dice": [2, 2, 3, 4, 5]},
        {"type": "hold", "held": [0, 1]},
        {"type": "throw", "dice": [2, 6, 6]},
    )
    # then the held dice kept their values and the sheet offers the points
    assert game.values == (2, 2, 2, 6, 6)
    assert game.scores()["full_house"] == 25
    # when she writes the full house, the turn passes to Borys
    game = game.apply({"type": "write", "cell": "full_house"})
    assert game.sheets[0].cells == {"full_house": 25}
    assert (game.player, game.throw, game.dice) == (1, 0, ())


def test_a_released_die_is_thrown_again():
    game = play(
        start(),
        {"type": "throw", "dice": [1, 1, 1, 1, 1]},
        {"type": "hold", "held": [0, 1, 2]},
        {"type": "hold", "held": [0]},
        {"type": "throw", "dice": [3, 3, 3, 3]},
    )
    assert game.values == (1, 3, 3, 3, 3)


def test_a_held_die_cannot_change_value():
    game = play(start(), {"type": "throw", "dice": [6, 6, 1, 2, 3]}, {"type": "hold", "held": [0]})
    with pytest.raises(ForbiddenMove, match="die 1 is held at 6"):
        game.apply({"type": "throw", "dice": [5, 6, 1, 2, 3]})


def test_the_fourth_throw_is_refused():
    game = play(start(), *[{"type": "throw", "dice": [1, 2, 3, 4, 6]}] * 3)
    with pytest.raises(ForbiddenMove, match="no throws left"):
        game.apply({"type": "throw", "dice": [1, 2, 3, 4, 6]})


def test_writing_a_closed_cell_is_refused_and_changes_nothing():
    game = play(
        start(players=("Solo",)),
        {"type": "throw", "dice": [1, 1, 2, 3, 4]},
        {"type": "write", "cell": "ones"},
        {"type": "throw", "dice": [1, 1, 1, 3, 4]},
    )
    before = comparable(game)
    with pytest.raises(ForbiddenMove, match="ones is already written"):
        game.apply({"type": "write", "cell": "ones"})
    assert comparable(game) == before


@pytest.mark.parametrize(
    ("event", "error", "message"),
    [
        ({"type": "throw", "dice": [1, 2, 3, 4, 7]}, BadDice, "not 7"),
        ({"type": "throw", "dice": [1, 2, 3]}, BadDice, "expected 5 dice"),
        ({"type": "write", "cell": "twos"}, ForbiddenMove, "throw before writing"),
        ({"type": "write", "cell": "tens"}, ForbiddenMove, "throw before writing"),
        ({"type": "dance"}, ScorerError, "type among"),
        ({"type": "undo"}, ForbiddenMove, "nothing to undo"),
    ],
)
def test_bad_moves_name_the_problem(event, error, message):
    with pytest.raises(error, match=message):
        start().apply(event)


def test_unknown_cell_is_named():
    game = start().apply({"type": "throw", "dice": [1, 2, 3, 4, 5]})
    with pytest.raises(ScorerError, match="no cell 'tens'"):
        game.apply({"type": "write", "cell": "tens"})


def test_card_faces_are_accepted_as_dice():
    game = start("poker_dice").apply({"type": "throw", "dice": ["A", "K", "Q", "J", "10"]})
    assert game.values == (6, 5, 4, 3, 2)
    assert [d["rank"] for d in game.state()["dice"]] == [None] * 5  # a pips game shows pips
    cards = Game.start(Setup("poker_dice", ("A", "B"), dice="cards"))
    cards = cards.apply({"type": "throw", "dice": [6, 5, 4, 3, 2]})
    assert [d["rank"] for d in cards.state()["dice"]] == ["A", "K", "Q", "J", "10"]


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ({"ruleset": "chess", "players": ["A"]}, "unknown ruleset 'chess'"),
        ({"ruleset": "yahtzee", "players": []}, "1 to 6 players"),
        ({"ruleset": "yahtzee", "players": ["A"] * 7}, "1 to 6 players"),
        ({"ruleset": "yahtzee", "players": [" "]}, "cannot be empty"),
        ({"ruleset": "yahtzee", "players": ["A"], "timer": 17}, "turn timer"),
        ({"ruleset": "yahtzee", "players": ["A"], "dice": "d20"}, "pips, cards, auto"),
        ({"ruleset": "generala", "players": ["A"], "options": {"x": 1}}, "no option 'x'"),
    ],
)
def test_a_bad_setup_names_the_problem(setup, message):
    with pytest.raises((BadOption, UnknownRuleset, ScorerError), match=message):
        Setup.from_dict(setup)


def test_unsure_dice_wait_for_a_tap():
    # given a throw where the reader was unsure of die 3
    game = start().apply({"type": "throw", "dice": [5, 5, 5, 2, 2], "reading": {"unsure": [2]}})
    # then writing waits for the tap
    with pytest.raises(ForbiddenMove, match="confirm die 3"):
        game.apply({"type": "write", "cell": "full_house"})
    # when the player taps it to say it is a 2
    game = game.apply({"type": "correct", "index": 2, "value": 2})
    # then the die is corrected and writing works
    assert game.state()["dice"][2] == {
        "value": 2,
        "confidence": 1.0,
        "held": False,
        "corrected": True,
        "unsure": False,
        "rank": None,
        "guess": None,
        "guess_rank": None,
        "box": None,
    }
    assert game.apply({"type": "write", "cell": "twos"}).sheets[0].cells["twos"] == 6


def test_an_unsure_card_die_carries_its_second_guess_as_a_rank():
    # given poker dice, and a throw whose second die was read as J (3) but may be a K (5)
    game = Game.start(Setup("poker_dice", ("A", "B"), dice="cards"))
    reading = {"unsure": [1], "guesses": [None, 5, None, None, None]}
    game = game.apply({"type": "throw", "dice": [6, 3, 6, 1, 2], "reading": reading})
    # then the page can ask "J, or K?"
    die = game.state()["dice"][1]
    assert (die["rank"], die["guess"], die["guess_rank"]) == ("J", 5, "K")


def test_a_reading_with_a_second_guess_off_the_die_is_refused():
    with pytest.raises(BadDice, match="not 7"):
        start().apply(
            {
                "type": "throw",
                "dice": [1, 2, 3, 4, 5],
                "reading": {"guesses": [7, None, None, None, None]},
            }
        )


def test_a_game_ends_when_every_sheet_is_full_and_ties_share_the_win():
    game = start("generala", players=("A", "B"))
    for _ in range(len(game.rules.cells) * 2):
        game = game.apply({"type": "throw", "dice": [1, 2, 3, 4, 6]})
        game = game.apply(
            {"type": "scratch", "cell": game.rules.open_cells(game.sheets[game.player])[0]}
        )
    assert game.finished
    assert game.winners() == (0, 1)
    with pytest.raises(ForbiddenMove, match="game is over"):
        game.apply({"type": "throw", "dice": [1, 2, 3, 4, 6]})


def test_the_timer_throws_virtually_then_writes_the_best_cell():
    game = start(timer=45)
    events = game.timeout_events(random.Random(4))
    assert events[0]["type"] == "throw" and events[0]["virtual"] is True
    after = play(game, *events)
    expected = play(game, events[0]).best_cell()
    assert events[1] == {"type": "write", "cell": expected}
    assert after.player == 1


def test_the_timer_after_a_throw_only_writes():
    game = start().apply({"type": "throw", "dice": [3, 3, 3, 3, 3]})
    assert game.timeout_events() == [{"type": "write", "cell": "yahtzee"}]


def test_best_cell_takes_the_first_in_sheet_order_on_a_tie():
    game = start().apply({"type": "throw", "dice": [1, 2, 4, 4, 6]})
    # fours 8, chance 17, three_of_a_kind 0 ... chance is the most
    assert game.best_cell() == "chance"
    game = start().apply({"type": "throw", "dice": [2, 2, 2, 2, 2]})
    assert game.best_cell() == "yahtzee"


# -- properties ----------------------------------------------------------------------------

RULESETS = ["yahtzee", "yatzy", "yacht", "generala", "poker_ru", "poker_ua", "poker_dice"]


@st.composite
def games(draw):
    """A ruleset and a random run of attempted actions, some legal, some not."""
    ruleset = draw(st.sampled_from(RULESETS))
    players = draw(st.integers(2 if ruleset == "poker_dice" else 1, 3))
    steps = draw(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 10**6)), max_size=40))
    return ruleset, players, steps


def attempt(game: Game, kind: int, seed: int) -> dict:
    rng = random.Random(seed)
    if kind <= 2:
        return {"type": "throw", "dice": [rng.randint(1, 6) for _ in range(5)]}
    if kind == 3:
        return {"type": "hold", "held": rng.sample(range(5), rng.randint(0, 4))}
    if kind == 4:
        return {"type": "correct", "index": rng.randint(0, 4), "value": rng.randint(1, 6)}
    if kind == 5:
        return {"type": "undo"}
    if kind == 6:
        cells = game.rules.cells
        return {"type": "commit", "cell": rng.choice(cells)}
    if kind == 7:
        return {"type": "scratch", "cell": rng.choice(game.rules.cells)}
    if kind == 9 and seed % 2:
        return {"type": "rolloff", "dice": [rng.randint(1, 6) for _ in range(5)]}
    scores = game.scores()
    if scores and kind == 8:
        return {"type": "write", "cell": rng.choice(list(scores))}
    return {"type": "write", "cell": rng.choice([*game.rules.cells, "hand"])}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_replaying_the_log_rebuilds_the_same_state_and_undo_restores_the_last(spec):
    ruleset, players, steps = spec
    setup = Setup(ruleset, tuple(f"P{i}" for i in range(players)))
    game = Game.start(setup)
    log = []
    for kind, seed in steps:
        event = attempt(game, kind, seed)
        before = comparable(game)
        try:
            after = game.apply(event)
        except ScorerError:
            # a refused action changes nothing
            assert comparable(game) == before
            continue
        log.append(event)
        if event["type"] != "undo":
            # undo right after any action restores the state before it
            assert comparable(after.apply({"type": "undo"})) == before
        game = after
    rebuilt = Game.replay(setup, log)
    assert rebuilt.state() == game.state()
    # a total always equals its cells plus bonuses
    for sheet, total in zip(game.sheets, game.totals(), strict=True):
        bonuses = {} if game.is_duel else game.rules.bonuses(sheet)
        assert total == sum(sheet.cells.values()) + sum(bonuses.values())


def test_a_rematch_keeps_every_agreement_and_seats_the_winner_first():
    # given a stored flow-1 game read with the table's white dice, a timer and coach mode
    setup = Setup(
        "yahtzee",
        ("Anna", "Borys", "Chrystia"),
        timer=60,
        dice_set="white",
        hints=True,
        flow=1,
    )
    # when Borys won and the table asks for a rematch
    again = setup.again(1)
    # then Borys starts, the order around the table is kept, and nothing else changes
    assert again.players == ("Borys", "Chrystia", "Anna")
    assert (again.dice_set, again.timer, again.hints) == ("white", 60, True)
    assert again.options == setup.options and again.flow == FLOW
