"""Whole games as the seeds play them (issue 26): each departure is a scripted game through
``Game.apply``, played to its end, that the scorer before issue 26 got wrong.

RULES.md "Whole-game flow decisions" is the contract; the seed lines are quoted where
they decide.
"""

from __future__ import annotations

import random

import pytest

from scorer.errors import BadOption, ForbiddenMove
from scorer.game import Game, Setup
from scorer.rules.poker_ru import COMBINATIONS

UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")

#: dice that make each part-2 combination (and nothing more useful for chance)
MAKES = {
    "pair": [2, 2, 3, 4, 6],
    "two_pairs": [2, 2, 3, 3, 6],
    "three_of_a_kind": [5, 5, 5, 1, 2],
    "small_straight": [1, 2, 3, 4, 5],
    "large_straight": [2, 3, 4, 5, 6],
    "full_house": [4, 4, 4, 6, 6],
    "four_of_a_kind": [1, 1, 1, 1, 6],
    "poker": [3, 3, 3, 3, 3],
    "chance": [1, 2, 3, 5, 6],
}
NOTHING = [1, 2, 3, 5, 6]


def play(game: Game, *events: dict) -> Game:
    for event in events:
        game = game.apply(event)
    return game


def throw(dice: list[int]) -> dict:
    return {"type": "throw", "dice": dice}


def write(cell: str) -> dict:
    return {"type": "write", "cell": cell}


def number_turn(game: Game, cell: str, count: int) -> Game:
    """One part-1 turn: one throw showing ``count`` dice of the number, commit, write."""
    face = UPPER.index(cell) + 1
    other = 1 if face != 1 else 2
    dice = [face] * count + [other] * (5 - count)
    game = game.apply(throw(dice))
    if game.state()["needs_commit"]:
        game = game.apply({"type": "commit", "cell": cell})
    return game.apply(write(cell))


def fill_part_one(game: Game, count: int = 3) -> Game:
    """Players write ones..sixes in turn order with ``count`` dice each, until part 1 is full."""
    while any(game.sheets[game.player].is_open(c) for c in UPPER):
        sheet = game.sheets[game.player]
        game = number_turn(game, next(c for c in UPPER if sheet.is_open(c)), count)
    return game


def fill_part_two(game: Game) -> Game:
    """Players write the open combinations in sheet order, each made on throw 1, to the end."""
    while not game.finished:
        sheet = game.sheets[game.player]
        cell = next(c for c in COMBINATIONS if sheet.is_open(c))
        game = play(game, throw(MAKES[cell]), write(cell))
    return game


# -- 1. roll-off ----------------------------------------------------------------------------


def test_rolloff_decides_who_opens_each_part_and_olga_opens_part_two():
    # given seed 000's table of three, poker_ru with its default roll-off
    game = Game.start(Setup("poker_ru", ("Ivan", "Olga", "Petr")))
    assert game.state()["rolloff"]["next"] == 0
    # when Ivan throws 12 and Olga and Petr both 20, only the tied two throw again
    game = play(
        game,
        {"type": "rolloff", "dice": [1, 2, 3, 3, 3]},
        {"type": "rolloff", "dice": [4, 4, 4, 4, 4]},
        {"type": "rolloff", "dice": [6, 6, 4, 2, 2]},
    )
    assert game.state()["rolloff"]["contenders"] == [1, 2]
    with pytest.raises(ForbiddenMove, match="Olga throws"):
        game.apply(throw([1, 1, 1, 1, 1]))
    game = play(
        game, {"type": "rolloff", "dice": [1, 1, 1, 1, 1]}, {"type": "rolloff", "dice": [6] * 5}
    )
    # then Petr starts part 1 and play goes round the table from him
    assert (game.player, game.starter, game.state()["rolloff"]["pending"]) == (2, 2, False)
    game = number_turn(game, "ones", 3)
    assert game.player == 0
    game = fill_part_one(game)
    # when part 1 is full, a second roll-off opens part 2 ("снова разыграть право первого хода")
    state = game.state()
    assert state["rolloff"]["pending"] and state["rolloff"]["part"] == 2
    # and the table turns the multipliers off before it
    game = game.apply({"type": "options", "options": {"multipliers": False}})
    game = play(
        game,
        {"type": "rolloff", "dice": [1, 1, 1, 1, 2]},
        {"type": "rolloff", "dice": [6, 6, 6, 6, 5]},
        {"type": "rolloff", "dice": [2, 2, 2, 2, 2]},
    )
    # then Olga opens part 2, and a pair made on throw 1 scores 5, not 15
    assert game.player == 1
    game = play(game, throw(MAKES["pair"]), write("pair"))
    assert game.sheets[1].cells["pair"] == 5
    assert game.player == 2
    game = fill_part_two(game)
    assert game.finished
    assert game.state()["rolloff"]["log"][-1] == {"part": 2, "player": 2, "total": 10}
    # and the options cannot change once part 2 is under way
    with pytest.raises(ForbiddenMove):
        game.apply({"type": "options", "options": {"multipliers": True}})


def test_a_table_that_throws_for_part_one_skips_the_rolloff():
    # given poker_ru with a roll-off nobody has thrown for yet
    game = Game.start(Setup("poker_ru", ("Ivan", "Olga")))
    # when Ivan simply throws for part 1, the seating order stands
    game = number_turn(game, "ones", 4)
    assert game.state()["rolloff"] is None and game.player == 1
    # and the whole game plays to its end, the table skipping part 2's roll-off too
    game = fill_part_two(fill_part_one(game))
    assert game.finished and game.state()["rolloff"] is None
    # and a table whose timer runs the game throws the roll-off virtually, then plays on
    game = Game.start(Setup("poker_ru", ("Ivan", "Olga"), timer=30))
    rng = random.Random(5)
    while not game.finished:
        for event in game.timeout_events(rng):
            game = game.apply(event)
    assert [e["player"] for e in game.state()["rolloff"]["log"][:2]] == [0, 1]
    # while with roll-off off there is none at all
    game = Game.start(Setup("poker_ru", ("Ivan", "Olga"), rolloff=False))
    assert game.state()["rolloff"] is None
    with pytest.raises(ForbiddenMove, match="no roll-off"):
        game.apply({"type": "rolloff", "dice": [1, 2, 3, 4, 5]})


# -- 2. part 1 only ----------------------------------------------------------------------------


def test_parts_1_ends_the_game_after_part_one_with_the_premium():
    # given seed 000's "можно ограничиться одной только обязательной частью"
    game = Game.start(Setup("poker_ru", ("Ivan", "Olga"), {"parts": 1}, rolloff=False))
    # when both fill part 1, Ivan with four of each number, Olga with two
    game = play(game)
    for cell in UPPER:
        game = number_turn(game, cell, 4)
        game = number_turn(game, cell, 2)
    # then the game is over: Ivan 6 x 3 + premium 50, Olga 6 x -3 and no premium
    assert game.finished
    assert game.totals() == (68, -18)
    assert game.state()["settlement"]["results"] == [43.0, -43.0]
    assert game.rules.cells == UPPER


# -- 3. variant 2 ------------------------------------------------------------------------------


def test_variant_2_players_move_alone_a_failure_misses_a_turn_and_the_first_to_finish_ends():
    # given variant 2 with a bonus of 10 for the first to finish part 1
    setup = Setup("poker_ru", ("Ivan", "Olga"), {"variant": 2, "first_finisher_bonus": 10})
    game = Game.start(setup)
    assert game.rules.options["throw_bank"] is True  # variant 2 implies the bank
    # when Ivan fills part 1 one turn ahead of Olga, he gets the bonus
    for cell in UPPER:
        game = number_turn(game, cell, 3)
        if cell != "sixes":
            game = number_turn(game, cell, 3)
    assert game.first_finisher == 0
    assert game.rules.bonuses(game.sheets[0])["first_finisher"] == 10
    # and plays part 2 from his next turn while Olga still writes her sixes
    game = number_turn(game, "sixes", 3)
    assert game.player == 0
    # when he writes a failed pair (-5), he misses his next turn: Olga plays twice
    game = play(game, throw(NOTHING), write("pair"))
    assert game.sheets[0].cells["pair"] == -5
    assert game.player == 1
    game = play(game, throw(MAKES["pair"]), write("pair"))
    assert game.player == 1
    game = play(game, throw(MAKES["two_pairs"]), write("two_pairs"))
    assert game.player == 0
    # then the game ends the moment one player writes his last part-2 cell
    game = fill_part_two(game)
    assert game.finished
    open_cells = [c for g in game.sheets for c in COMBINATIONS if g.is_open(c)]
    assert open_cells and all(c in game.rules.cells for c in open_cells)
    assert game.totals()[1] == sum(game.sheets[1].cells.values()) + 50


# -- 4. the throw bank --------------------------------------------------------------------------


def test_a_written_cell_banks_its_own_allowance_less_the_throws_used():
    # given throws=1 with ones and twos at 2, and the bank on, for one player
    options = {"throws": 1, "throws.ones": 2, "throws.twos": 2, "throw_bank": True}
    game = Game.start(Setup("poker_ru", ("Olga",), options))
    # when she throws once and writes sixes (allowance 1), nothing is banked
    game = play(game, throw([6, 6, 6, 1, 2]), write("sixes"))
    assert game.bank == (0,)
    # and a cell may not be struck before a throw for it
    with pytest.raises(ForbiddenMove, match="throw at least once"):
        game.apply({"type": "scratch", "cell": "threes"})
    # when she writes ones after one throw (allowance 2), one throw is banked
    game = play(game, throw([1, 1, 1, 2, 3]), {"type": "commit", "cell": "ones"}, write("ones"))
    assert game.bank == (1,)
    # and spends it: three throws on twos (2 + 1 banked) leave nothing
    game = play(
        game,
        throw([2, 3, 4, 5, 6]),
        {"type": "commit", "cell": "twos"},
        throw([2, 3, 4, 5]),
        throw([2, 2, 5]),
        write("twos"),
    )
    assert game.bank == (0,)
    # when the timer writes fours after one throw (allowance 1), it banks 0
    game = game.apply(throw([4, 4, 4, 4, 1]))
    (event,) = game.timeout_events()
    assert event == write("fours")
    game = game.apply(event)
    assert game.bank == (0,)
    # then the game plays to its end with part 2 banking 3 less the throws used
    game = fill_part_one(game)
    game = play(game, throw(MAKES["pair"]), write("pair"))
    assert game.bank == (2,)
    game = fill_part_two(game)
    assert game.finished and game.bank == (2 * 9,)


# -- 5. dice showing the number stay on the table -----------------------------------------------


def test_dice_showing_the_committed_number_stay_on_the_table_after_every_throw():
    # given three throws for every number, one player
    game = Game.start(Setup("poker_ru", ("Olga",), {"throws": 3}))
    # when she throws 4-1-2-3-5, commits to fours and throw 2 brings two more fours
    game = play(game, throw([4, 1, 2, 3, 5]), {"type": "commit", "cell": "fours"})
    game = game.apply(throw([4, 4, 1, 2]))
    assert game.values == (4, 4, 4, 1, 2)
    # then the new fours are kept without a hold: throw 3 throws the other two only
    assert [d.held for d in game.dice] == [True, True, True, False, False]
    game = play(game, throw([4, 6]), write("fours"))
    assert game.sheets[0].cells["fours"] == 3 * 4 - 9
    # and the rest of the game plays to the end the same way
    game = fill_part_two(fill_part_one(game))
    assert game.finished


# -- 6. extra rounds ----------------------------------------------------------------------------


def test_extra_rounds_add_to_written_combinations_but_never_to_chance():
    # given a finished two-player poker_ru game without multipliers
    setup = Setup("poker_ru", ("Ivan", "Olga"), {"multipliers": False}, rolloff=False)
    game = fill_part_two(fill_part_one(Game.start(setup)))
    assert game.finished
    before = game.totals()
    # when the table agrees an extra round ("к тому количеству очков, которое уже записано")
    game = game.apply({"type": "extra_round"})
    game = game.apply(throw(NOTHING))
    # then chance is not offered and cannot take a failure
    assert "chance" not in game.scores()
    with pytest.raises(ForbiddenMove, match="chance"):
        game.apply(write("chance"))
    # and a made poker adds its 50 to the poker already written, a failed pair costs 5
    game = play(game, write("poker"))
    game = play(game, throw(MAKES["poker"]), write("poker"))
    assert game.finished
    assert game.sheets[0].cells["poker"] == 50 - 50
    assert game.sheets[1].cells["poker"] == 50 + 50
    assert game.totals() == (before[0] - 50, before[1] + 50)


# -- 7. poker_ua chance -------------------------------------------------------------------------


def test_poker_ua_chance_only_after_the_third_throw_with_no_combination_open():
    # given a poker_ua player whose part 1 is full
    game = Game.start(Setup("poker_ua", ("Taras",)))
    for face, cell in enumerate(UPPER, 1):
        game = play(game, throw([face, face, face, 1 if face != 1 else 2, 6]), write(cell))
    # when she throws a full house, chance is refused on throw 1
    game = game.apply(throw([6, 6, 6, 5, 5]))
    assert "chance" not in game.scores()
    with pytest.raises(ForbiddenMove, match="third throw"):
        game.apply(write("chance"))
    # and on throw 3 too while the dice make an open combination
    game = play(game, throw([6, 6, 6, 5, 5]), throw([6, 6, 6, 5, 5]))
    with pytest.raises(ForbiddenMove, match="no combination"):
        game.apply(write("chance"))
    game = game.apply(write("full_house"))
    # then chance takes a third throw that makes nothing (seed 001)
    game = play(game, throw(NOTHING), throw(NOTHING), throw([1, 2, 3, 4, 6]), write("chance"))
    assert game.sheets[0].cells["chance"] == 16
    # and the game plays to its end
    while not game.finished:
        cell = next(c for c in COMBINATIONS if game.sheets[0].is_open(c))
        game = play(game, throw(MAKES[cell]), write(cell))
    assert game.finished


# -- 8. settlement ------------------------------------------------------------------------------


def test_the_settlement_is_rounded_to_cents_sums_to_zero_and_says_who_pays_whom():
    # given three players whose totals do not divide by three
    game = Game.start(Setup("poker_ru", ("A", "B", "C"), {"parts": 1}, rolloff=False))
    for cell in UPPER:
        for count in (5, 3, 2):
            game = number_turn(game, cell, count)
    game = play(game)
    assert game.finished and game.totals() == (86, 50, -18)
    # then results are rounded to 0.01, sum to exactly 0, the remainder on the largest
    settlement = game.state()["settlement"]
    assert settlement["results"] == [46.66, 10.67, -57.33]
    assert sum(round(r * 100) for r in settlement["results"]) == 0
    # and two transfers settle it: C pays A and B
    assert settlement["transfers"] == [
        {"from": 2, "to": 0, "amount": 46.66},
        {"from": 2, "to": 1, "amount": 10.67},
    ]


# -- 9. timer expiry ----------------------------------------------------------------------------


def test_the_timer_counts_the_bonus_a_cell_completes():
    # given a yahtzee player with 60 in twos..sixes and ones open
    game = Game.start(Setup("yahtzee", ("Anna",), timer=30))
    for face, cell in enumerate(UPPER[1:], 2):
        game = play(game, throw([face, face, face, 1, 1]), write(cell))
    # when the timer runs out on 1-1-1-2-3
    game = game.apply(throw([1, 1, 1, 2, 3]))
    events = game.timeout_events()
    # then ones (3 + the 35 bonus) beats three of a kind (8)
    assert events == [write("ones")]
    game = game.apply(events[0])
    assert game.totals() == (98,)
    # and the timer plays the game to its end
    while not game.finished:
        for event in game.timeout_events():
            game = game.apply(event)
    assert game.finished


# -- 10. hints ----------------------------------------------------------------------------------


def test_hints_are_off_at_a_table_of_two_unless_coach_mode_is_on():
    # given seed 004: no hint where two or more live players play
    assert Setup("yacht", ("Anna",)).hints is True
    two = Setup("yacht", ("Anna", "Borys"))
    assert two.hints is False
    assert Setup("yacht", ("Anna", "Borys"), hints=True).hints is True
    game = Game.start(two)
    assert game.state()["coach"] is False
    # when the table switches coach mode on mid-game, the sheet shows it
    game = play(game, throw([2, 2, 2, 3, 3]), {"type": "coach", "on": True}, write("full_house"))
    assert game.state()["coach"] is True
    # and the game plays to its end
    while not game.finished:
        game = game.apply(throw([1, 2, 3, 4, 6]))
        game = game.apply(write(game.best_cell()))
    assert game.finished and game.state()["coach"] is True
    with pytest.raises(BadOption, match="hints"):
        Setup("yacht", ("Anna",), hints="yes")  # type: ignore[arg-type]


# -- 11. poker_dice -----------------------------------------------------------------------------


def test_poker_dice_needs_two_players_and_the_first_thrower_rotates():
    # given seed 003's "от двух игроков"
    with pytest.raises(BadOption, match="2 to 6 players"):
        Setup("poker_dice", ("Solo",))
    game = Game.start(Setup("poker_dice", ("A", "B", "C"), dice="cards"))
    openers = []
    # when three rounds are played
    for _ in range(3):
        openers.append(game.player)
        for _ in range(3):
            game = play(
                game, throw([6, 6, 6, 5, 5] if game.player == 2 else NOTHING), write("hand")
            )
    # then round k was opened by player (k - 1) mod 3, and C won every round
    assert openers == [0, 1, 2]
    assert game.finished and game.totals() == (0, 0, 3)


# -- 12. striking in yahtzee ----------------------------------------------------------------------


def test_the_sheet_says_what_a_strike_throws_away():
    # given a yahtzee sheet with 50 in yahtzee, sixes still open
    game = Game.start(Setup("yahtzee", ("Anna",)))
    game = play(game, throw([2] * 5), write("yahtzee"))
    # when five sixes come, the joker must go to sixes (30, and +100)
    game = game.apply(throw([6] * 5))
    assert list(game.scores()) == ["sixes"]
    costs = game.state()["strike_costs"]
    # then striking chance instead throws away sixes' 30 and the +100 bonus
    assert costs["chance"] == {
        "points": 0,
        "bonus": 0,
        "instead": {"cell": "sixes", "points": 30, "bonus": 100},
    }
    assert costs["sixes"] == {"points": 30, "bonus": 100}
    game = play(game, write("sixes"))
    # when five sixes come again with sixes written, any lower cell takes them at full value
    game = game.apply(throw([6] * 5))
    costs = game.state()["strike_costs"]
    # then striking chance would throw away 30 and the +100 bonus ("Strike chance?")
    assert costs["chance"] == {"points": 30, "bonus": 100}
    assert costs["full_house"] == {"points": 25, "bonus": 100}
    # while the strike itself stays allowed (the standard rule) and scores 0
    game = game.apply({"type": "scratch", "cell": "chance"})
    assert game.sheets[0].cells["chance"] == 0 and game.totals() == (50 + 30 + 100,)
    # and a throw that scores nowhere costs nothing where it scores 0
    game = game.apply(throw([1, 2, 3, 5, 6]))
    assert "yahtzee" not in game.state()["strike_costs"]
    while not game.finished:
        game = game.apply({"type": "scratch", "cell": game.rules.open_cells(game.sheets[0])[0]})
        game = game if game.finished else game.apply(throw([1, 2, 3, 5, 6]))
    assert game.finished


# -- found in review: corrections, ties, the timer in poker_ua ---------------------------------


def test_a_die_corrected_away_from_the_committed_number_is_thrown_again():
    # given poker_ru with three throws for every number, committed to twos
    game = Game.start(Setup("poker_ru", ("Ivan",), {"throws": 3}, rolloff=False))
    game = play(game, throw([2, 1, 3, 4, 5]), {"type": "commit", "cell": "twos"})
    # when the camera reads a 5 as a 2 and the player corrects it
    game = play(game, throw([2, 2, 1, 1, 1]), {"type": "correct", "index": 1, "value": 5})
    # then only the real two stays on the table: the 5 is thrown again with the rest
    assert [d.held for d in game.dice] == [True, False, False, False, False]
    game = game.apply(throw([3, 4, 4, 4]))
    assert game.values == (2, 3, 4, 4, 4)


def test_part_two_options_cannot_change_once_its_rolloff_has_tied():
    # given a poker_ru pair whose part-2 roll-off ties at 30
    game = play(
        Game.start(Setup("poker_ru", ("Ivan", "Olga"))),
        {"type": "rolloff", "dice": [6] * 5},
        {"type": "rolloff", "dice": [1] * 5},
    )
    game = fill_part_one(game)
    assert game.state()["rolloff"]["part"] == 2
    game = play(game, {"type": "rolloff", "dice": [6] * 5}, {"type": "rolloff", "dice": [6] * 5})
    assert game.state()["rolloff"]["contenders"] == [0, 1]
    # then the agreements stand: the roll-off is under way
    with pytest.raises(ForbiddenMove, match="before part 2's roll-off"):
        game.apply({"type": "options", "options": {"multipliers": False}})


def test_the_timer_throws_on_when_poker_ua_has_only_chance_left():
    # given a poker_ua player with only chance open
    game = Game.start(Setup("poker_ua", ("Taras",), timer=30))
    for face, cell in enumerate(UPPER, 1):
        game = play(game, throw([face, face, face, 1 if face != 1 else 2, 6]), write(cell))
    for cell in COMBINATIONS:
        if cell != "chance":
            game = play(game, throw(MAKES[cell]), write(cell))
    # when the timer runs out before a throw
    events = game.timeout_events(random.Random(3))
    # then it throws until a cell takes the dice (chance after the third throw), and writes
    assert [e["type"] for e in events][-1] == "write"
    game = play(game, *events)
    assert game.finished
