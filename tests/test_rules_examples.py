"""The seeds' worked examples and RULES.md's decided cases, one test each."""

from __future__ import annotations

import pytest

from scorer.dice import parse_dice
from scorer.errors import BadOption, ForbiddenMove
from scorer.rules import RULESET_IDS, UPPER, Sheet, get_ruleset
from scorer.rules.poker_dice import Hand

EMPTY = Sheet()


def sheet_with(**cells: int) -> Sheet:
    return Sheet(cells)


def full_part_one(points: int = 0, **overrides: int) -> Sheet:
    """A sheet whose ones..sixes are written (``points`` each unless overridden)."""
    return Sheet({cell: overrides.get(cell, points) for cell in UPPER})


# -- poker_ru (seed 000) -----------------------------------------------------------------


def test_poker_ru_irina_keeps_fours_and_misses_gives_minus_3() -> None:
    # Given Irina's first throw 3-1-4-5-4, committed to fours, then 5-6-1 on the others
    rules = get_ruleset("poker_ru")
    dice = (5, 1, 4, 6, 4)
    # When she writes fours after her second (last) throw
    points = rules.points("fours", dice, EMPTY, 2)
    # Then two fours give 2 x 3 - 9
    assert points == -3


def test_poker_ru_galina_one_more_five_gives_minus_3_none_gives_minus_6() -> None:
    # Given Galina kept one five from 1-4-6-3-5
    rules = get_ruleset("poker_ru")
    # When the second throw brings one more five, or none
    hit = rules.points("fives", (5, 2, 5, 1, 1), EMPTY, 2)
    miss = rules.points("fives", (5, 2, 3, 1, 1), EMPTY, 2)
    # Then she writes -3, or -6 from the single five
    assert (hit, miss) == (-3, -6)


def test_poker_ru_olga_four_twos_gives_3() -> None:
    # Given Olga's first throw shows four twos
    rules = get_ruleset("poker_ru")
    # When she writes twos at once
    points = rules.points("twos", (2, 2, 6, 2, 2), EMPTY, 1)
    # Then 4 x 3 - 9
    assert points == 3


def test_poker_ru_part_one_result_of_53_is_sum_plus_premium() -> None:
    # Given part 1 written with a sum of 3 (as Galina's 53 in seed 000)
    rules = get_ruleset("poker_ru")
    sheet = Sheet({"ones": -3, "twos": 0, "threes": 3, "fours": -3, "fives": 3, "sixes": 3})
    # When the intermediate result is taken
    result = rules.part_one_result(sheet)
    # Then the premium is added: 3 + 50
    assert result == 53
    assert rules.bonuses(sheet)["premium"] == 50
    assert rules.total(sheet) == 53


def test_poker_ru_negative_part_one_is_its_own_result_without_premium() -> None:
    # Given part 1 summing to -6
    rules = get_ruleset("poker_ru")
    sheet = full_part_one(0, ones=-6)
    # When the intermediate result is taken
    # Then it is the sum, with no premium
    assert rules.part_one_result(sheet) == -6
    assert rules.bonuses(sheet)["premium"] == 0


def test_poker_ru_open_part_one_has_no_premium_yet() -> None:
    # Given five of six numbers written, summing to 0
    rules = get_ruleset("poker_ru")
    sheet = Sheet({cell: 0 for cell in UPPER[:5]})
    # When the bonuses are asked
    # Then no premium is shown while sixes is open
    assert rules.bonuses(sheet)["premium"] == 0


def test_poker_ru_part_two_waits_for_part_one() -> None:
    # Given a sheet with sixes still open
    rules = get_ruleset("poker_ru")
    sheet = Sheet({cell: 0 for cell in UPPER[:5]})
    # When two pairs are thrown
    legal = rules.legal_cells((3, 3, 1, 1, 2), sheet, 1)
    # Then only sixes may be written, and part 2 says why not
    assert legal == ("sixes",)
    with pytest.raises(ForbiddenMove, match="part 2"):
        rules.points("two_pairs", (3, 3, 1, 1, 2), sheet, 1)


def test_poker_ru_part_two_seed_examples_without_multipliers() -> None:
    # Given a table that plays the seed's examples: multipliers off
    rules = get_ruleset("poker_ru", {"multipliers": "off"})
    part_two = full_part_one()
    # When Olga's two pairs, a full house, Irina's four of a kind and a miss are written
    olga = rules.points("two_pairs", (3, 1, 3, 2, 1), part_two, 2)
    full = rules.points("full_house", (3, 3, 3, 4, 4), part_two, 2)
    irina = rules.points("four_of_a_kind", (4, 3, 4, 4, 4), part_two, 2)
    chance = rules.points("chance", (5, 3, 6, 1, 4), part_two, 2)
    # Then the seed's values: 7, 20, 30 and chance 0
    assert (olga, full, irina, chance) == (7, 20, 30, 0)


def test_poker_ru_multipliers_triple_on_first_throw_double_on_second() -> None:
    # Given four fours and part 1 done
    rules = get_ruleset("poker_ru")
    part_two = full_part_one()
    dice = (4, 4, 4, 4, 2)
    # When written after throws 1, 2 and 3
    points = [rules.points("four_of_a_kind", dice, part_two, t) for t in (1, 2, 3)]
    # Then 30 x 3, x 2, x 1
    assert points == [90, 60, 30]


def test_poker_ru_failed_combination_costs_its_value_and_chance_absorbs() -> None:
    # Given a throw that holds no straight, and part 1 done
    rules = get_ruleset("poker_ru", {"value.small_straight": "12"})
    part_two = full_part_one()
    dice = (1, 2, 3, 4, 6)
    # When it is written into small_straight, or into chance, or small_straight is struck
    failed = rules.points("small_straight", dice, part_two, 3)
    absorbed = rules.points("chance", dice, part_two, 3)
    struck = rules.scratch(part_two, "small_straight").cells["small_straight"]
    # Then the failure costs the agreed value, chance costs nothing
    assert (failed, absorbed, struck) == (-12, 0, -12)


def test_poker_ru_struck_number_counts_as_no_dice() -> None:
    # Given an empty sheet
    rules = get_ruleset("poker_ru")
    # When ones is struck
    sheet = rules.scratch(EMPTY, "ones")
    # Then it counts 0 dice: -9
    assert sheet.cells["ones"] == -9


def test_poker_ru_throws_per_number_as_agreed() -> None:
    # Given two throws for ones and twos, one for the rest
    rules = get_ruleset("poker_ru", {"throws": "1", "throws.ones": "2", "throws.twos": "2"})
    # When the game asks how many throws a committed number gets
    allowed = {cell: rules.throws_allowed(EMPTY, cell) for cell in UPPER}
    # Then as agreed, and writing threes after throw 2 is refused
    assert allowed == {"ones": 2, "twos": 2, "threes": 1, "fours": 1, "fives": 1, "sixes": 1}
    assert rules.throws_allowed(EMPTY) == 2
    assert rules.needs_commit(EMPTY)
    assert "threes" not in rules.legal_cells((3, 3, 3, 1, 2), EMPTY, 2)
    assert not rules.needs_commit(full_part_one())
    assert rules.throws_allowed(full_part_one()) == 3


def test_poker_ru_throw_bank_lets_a_turn_run_past_three_throws() -> None:
    # Given the throw bank variant
    rules = get_ruleset("poker_ru", {"throw_bank": "on"})
    # When threes are written after a fifth (banked) throw
    points = rules.points("threes", (3, 3, 3, 3, 1), EMPTY, 5)
    # Then they count as usual; without the bank a fourth throw is refused
    assert points == 3
    with pytest.raises(ForbiddenMove, match="at most 3 throws"):
        get_ruleset("poker_ru").points("threes", (3, 3, 3, 3, 1), EMPTY, 4)


def test_poker_ru_extra_rounds_add_to_the_free_part_only() -> None:
    # Given poker_ru
    rules = get_ruleset("poker_ru")
    # When the game asks where an extra round may add
    # Then to the combinations, not to the numbers
    assert rules.extra_rounds
    assert rules.extra_round_cell("pair") and not rules.extra_round_cell("ones")


def test_poker_ru_refuses_a_throw_count_it_cannot_take() -> None:
    # Given a table agreeing 4 throws a number
    # When the ruleset is built
    # Then the option is refused, naming it
    with pytest.raises(BadOption, match=r"throws\.ones"):
        get_ruleset("poker_ru", {"throws.ones": "4"})


# -- poker_ua (seed 001) -----------------------------------------------------------------


def test_poker_ua_five_sixes_give_12() -> None:
    # Given five sixes
    rules = get_ruleset("poker_ua")
    # When written in sixes
    points = rules.points("sixes", (6, 6, 6, 6, 6), EMPTY, 3)
    # Then (5 - 3) x 6, not the seed's slip 10
    assert points == 12


def test_poker_ua_missing_dice_cost_their_face() -> None:
    # Given one five after three throws
    rules = get_ruleset("poker_ua")
    # When written in fives
    # Then two missing fives cost 10
    assert rules.points("fives", (5, 1, 2, 3, 4), EMPTY, 3) == -10


def test_poker_ua_forming_dice_doubled_on_the_first_throw() -> None:
    # Given part 1 done
    rules = get_ruleset("poker_ua")
    part_two = full_part_one()
    # When a pair of threes is written after throw 2 and after throw 1, and chance scored on
    # throw 1 (writing it then is refused: chance waits for throw 3, tests/test_game_flow.py)
    later = rules.points("pair", (3, 3, 1, 5, 6), part_two, 2)
    first = rules.points("pair", (3, 3, 1, 5, 6), part_two, 1)
    chance = rules.cell_points("chance", (1, 3, 5, 4, 6), part_two, 1)
    # Then 3 + 3, doubled to 12; chance is the plain sum 19
    assert (later, first, chance) == (6, 12, 19)


def test_poker_ua_poker_is_the_dice_plus_50_doubled_dice_first() -> None:
    # Given five fours and part 1 done
    rules = get_ruleset("poker_ua")
    part_two = full_part_one()
    # When written in poker after throw 1 and after throw 3
    # Then 2 x 20 + 50 and 20 + 50
    assert rules.points("poker", (4, 4, 4, 4, 4), part_two, 1) == 90
    assert rules.points("poker", (4, 4, 4, 4, 4), part_two, 3) == 70


def test_poker_ua_missed_combination_is_struck_for_zero() -> None:
    # Given part 1 done and no full house
    rules = get_ruleset("poker_ua")
    part_two = full_part_one()
    # When full_house is written with the dice, or struck
    # Then both count 0
    assert rules.points("full_house", (1, 2, 3, 4, 6), part_two, 3) == 0
    assert rules.scratch(part_two, "full_house").cells["full_house"] == 0


def test_poker_ua_struck_number_counts_as_no_dice() -> None:
    # Given an empty sheet
    rules = get_ruleset("poker_ua")
    # When sixes is struck rather than written
    sheet = rules.scratch(EMPTY, "sixes")
    # Then it costs three missing sixes, so striking never beats writing
    assert sheet.cells["sixes"] == -18


def test_poker_ua_premium_at_zero_or_more() -> None:
    # Given part 1 summing to exactly 0
    rules = get_ruleset("poker_ua")
    sheet = full_part_one(0, ones=-2, twos=2)
    # When totalled
    # Then the premium counts
    assert rules.total(sheet) == 50


# -- yatzy, yahtzee, generala ------------------------------------------------------------


def test_yatzy_two_pairs_counts_two_different_pairs_only() -> None:
    # Given yatzy
    rules = get_ruleset("yatzy")
    # When 5-5-3-3-1 and 6-6-6-6-1 go into two_pairs
    # Then 16 and 0 (four alike is one value)
    assert rules.points("two_pairs", (5, 5, 3, 3, 1), EMPTY, 1) == 16
    assert rules.points("two_pairs", (6, 6, 6, 6, 1), EMPTY, 1) == 0


JOKER_CASES = [
    # (branch, sheet without yahtzee, dice, legal cells, cell written, its points)
    ("number cell open", {}, (3,) * 5, ("threes",), "threes", 15),
    (
        "number cell closed: any lower cell at full value",
        {"threes": 9},
        (3,) * 5,
        (
            "three_of_a_kind",
            "four_of_a_kind",
            "full_house",
            "small_straight",
            "large_straight",
            "chance",
        ),
        "large_straight",
        40,
    ),
    (
        "number and lower cells closed: an upper cell for 0",
        {
            "threes": 9,
            "three_of_a_kind": 0,
            "four_of_a_kind": 0,
            "full_house": 0,
            "small_straight": 0,
            "large_straight": 0,
            "chance": 0,
        },
        (3,) * 5,
        ("ones", "twos", "fours", "fives", "sixes"),
        "ones",
        0,
    ),
]


@pytest.mark.parametrize(("yahtzee_cell", "bonus"), [(50, 100), (0, 0)])
@pytest.mark.parametrize(
    ("branch", "written", "dice", "legal", "cell", "points"),
    JOKER_CASES,
    ids=[case[0] for case in JOKER_CASES],
)
def test_yahtzee_joker_branches(
    branch: str,
    written: dict[str, int],
    dice: tuple[int, ...],
    legal: tuple[str, ...],
    cell: str,
    points: int,
    yahtzee_cell: int,
    bonus: int,
) -> None:
    # Given the yahtzee cell closed with 50 or 0 and five threes thrown
    rules = get_ruleset("yahtzee")
    sheet = Sheet({**written, "yahtzee": yahtzee_cell})
    # When the legal cells are asked and one is written
    allowed = rules.legal_cells(dice, sheet, 2)
    after = rules.write(sheet, cell, dice, 2)
    # Then the joker rule decides where, at full value, with +100 only over a 50
    assert allowed == legal
    assert after.cells[cell] == points
    assert after.bonus.get("yahtzee_bonus", 0) == bonus
    assert rules.total(after) == rules.total(sheet) + points + bonus


def test_yahtzee_joker_refuses_a_lower_cell_while_the_number_is_open() -> None:
    # Given yahtzee written with 50 and threes open
    rules = get_ruleset("yahtzee")
    sheet = Sheet({"yahtzee": 50})
    # When five threes go to chance
    # Then the joker rule refuses, naming threes
    with pytest.raises(ForbiddenMove, match="threes"):
        rules.write(sheet, "chance", (3, 3, 3, 3, 3), 1)


@pytest.mark.parametrize(("generala", "double"), [(50, 100), (0, 0)])
def test_double_generala_only_over_a_generala_of_50(generala: int, double: int) -> None:
    # Given generala written with 50, or struck
    rules = get_ruleset("generala")
    sheet = Sheet({"generala": generala})
    # When a second five alike goes into double_generala
    # Then 100 only over the 50
    assert rules.points("double_generala", (2, 2, 2, 2, 2), sheet, 2) == double


def test_generala_without_the_double_has_no_such_cell() -> None:
    # Given the table plays without double generala
    rules = get_ruleset("generala", {"double_generala": "off"})
    # When the cells are listed
    # Then there are ten
    assert "double_generala" not in rules.cells and len(rules.cells) == 10


# -- every ruleset ----------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_tied_players_share_first_place(ruleset: str) -> None:
    # Given three players, two of them tied on top
    rules = get_ruleset(ruleset)
    # When the winners are asked
    # Then both tied players win
    assert rules.winners((120, 181, 181)) == (1, 2)


@pytest.mark.parametrize("ruleset", ["poker_ru", "poker_ua"])
def test_settlement_is_total_minus_average_and_sums_to_zero(ruleset: str) -> None:
    # Given totals 0, 28 and 71 (the average is 33)
    rules = get_ruleset(ruleset)
    # When the table settles
    result = rules.settlement((0, 28, 71))
    # Then each wins or loses against the average, and nothing is created or lost
    assert result == (-33, -5, 38)
    assert sum(result) == 0


@pytest.mark.parametrize("ruleset", ["yahtzee", "yatzy", "yacht", "generala", "poker_dice"])
def test_rulesets_not_played_for_stakes_have_no_settlement(ruleset: str) -> None:
    # Given a ruleset without stakes
    # When the table settles
    # Then there is nothing to settle
    assert get_ruleset(ruleset).settlement((10, 20)) is None


# -- poker_dice (seed 003) -------------------------------------------------------------


def test_poker_dice_straight_beats_full_house_by_default_not_below() -> None:
    # Given K-K-K-9-9 and 10-J-Q-K-A
    full_house = parse_dice(["K", "K", "K", "9", "9"])
    straight = parse_dice(["10", "J", "Q", "K", "A"])
    above = get_ruleset("poker_dice")
    below = get_ruleset("poker_dice", {"straights": "below_full_house"})
    without = get_ruleset("poker_dice", {"straights": "none"})
    # When they are compared under each agreement
    # Then the straight wins, loses, or is a mere high card
    assert above.compare(straight, full_house) == 1
    assert below.compare(straight, full_house) == -1
    assert without.hand(straight) == Hand("high_card", (6, 5, 4, 3, 2))


def test_poker_dice_equal_categories_compare_group_then_rank_then_kicker() -> None:
    # Given poker_dice
    rules = get_ruleset("poker_dice")
    # When hands of one category meet
    # Then the larger group's rank decides first, then the next group, then the kicker
    assert rules.compare((1, 1, 1, 6, 6), (6, 6, 2, 2, 2)) == -1  # 999-AA < JJJ-AA
    assert rules.compare((6, 6, 4, 4, 1), (6, 6, 3, 3, 5)) == 1  # AA-QQ beats AA-JJ
    assert rules.compare((6, 6, 4, 4, 2), (6, 6, 4, 4, 1)) == 1  # kicker 10 beats 9
    assert rules.compare((6, 5, 4, 3, 2), (5, 4, 3, 2, 1)) == 1  # ace-high straight
    assert rules.compare((4, 4, 6, 5, 1), (5, 1, 4, 6, 4)) == 0  # same hand, any order


def test_poker_dice_equal_best_hands_share_the_round() -> None:
    # Given three players, two with the same two pairs and one with a pair
    rules = get_ruleset("poker_dice")
    hands = [(6, 6, 4, 4, 2), (2, 2, 1, 3, 5), (4, 6, 4, 6, 2)]
    # When the round is decided
    winners = rules.round_winners(hands)
    # Then the two equal best hands share it; a better hand takes it alone
    assert winners == (0, 2)
    assert rules.round_winners([*hands, (2, 2, 2, 1, 3)]) == (3,)


def test_poker_dice_hand_cell_holds_the_category_rank() -> None:
    # Given poker_dice
    rules = get_ruleset("poker_dice")
    # When five aces and a high card are scored
    # Then the top rank is 7, a high card 0
    assert rules.points("hand", (6, 6, 6, 6, 6), EMPTY, 1) == 7
    assert rules.points("hand", (6, 5, 4, 3, 1), EMPTY, 3) == 0
    assert rules.options["rounds"] == 3


@pytest.mark.parametrize(("ruleset", "bonus"), [("yahtzee", 35), ("yatzy", 50), ("yacht", 35)])
def test_upper_bonus_from_exactly_63(ruleset: str, bonus: int) -> None:
    # Given upper cells summing to 62, and to 63 (three of each face)
    rules = get_ruleset(ruleset)
    at_63 = Sheet({cell: 3 * face for face, cell in enumerate(UPPER, start=1)})
    at_62 = Sheet({**at_63.cells, "ones": 2})
    # When the bonuses are asked
    # Then the bonus comes at 63, shown before the sheet is full
    assert rules.bonuses(at_62)["upper_bonus"] == 0
    assert rules.bonuses(at_63)["upper_bonus"] == bonus
    assert rules.total(at_63) == 63 + bonus
