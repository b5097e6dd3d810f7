"""The 13-cell family: yahtzee (classic), yatzy (Scandinavian 15 cells) and yacht (12 cells)."""

from __future__ import annotations

from scorer.dice import Dice, counts
from scorer.rules.base import UPPER, Ruleset, face_points, upper_sum
from scorer.rules.sheet import Sheet


def of_a_kind(dice: Dice, n: int) -> int | None:
    """The highest value shown at least ``n`` times, or None."""
    tally = counts(dice)
    found = [v for v in range(1, 7) if tally[v] >= n]
    return max(found) if found else None


def is_full_house(dice: Dice) -> bool:
    """Exactly three of one value and two of another (five alike is not a full house)."""
    return sorted(c for c in counts(dice) if c) == [2, 3]


def is_five_alike(dice: Dice) -> bool:
    return len(set(dice)) == 1


def has_run(dice: Dice, length: int) -> bool:
    """Any ``length`` consecutive values among the dice (1234 / 2345 / 3456 for 4)."""
    faces = set(dice)
    return any(all(v in faces for v in range(lo, lo + length)) for lo in range(1, 8 - length))


class Yahtzee(Ruleset):
    """Classic 13 cells with the upper bonus, the yahtzee bonus and the forced joker."""

    id = "yahtzee"
    name = "Yahtzee"
    LOWER = (
        "three_of_a_kind",
        "four_of_a_kind",
        "full_house",
        "small_straight",
        "large_straight",
        "yahtzee",
        "chance",
    )
    cells = UPPER + LOWER
    UPPER_BONUS = 35

    def _joker(self, dice: Dice, sheet: Sheet) -> bool:
        return is_five_alike(dice) and not sheet.is_open("yahtzee")

    def cell_points(self, cell: str, dice: Dice, sheet: Sheet, throw: int) -> int:
        if cell in UPPER:
            return face_points(cell, dice)
        joker = self._joker(dice, sheet)
        total = sum(dice)
        if cell == "three_of_a_kind":
            return total if of_a_kind(dice, 3) else 0
        if cell == "four_of_a_kind":
            return total if of_a_kind(dice, 4) else 0
        if cell == "full_house":
            return 25 if joker or is_full_house(dice) else 0
        if cell == "small_straight":
            return 30 if joker or has_run(dice, 4) else 0
        if cell == "large_straight":
            return 40 if joker or has_run(dice, 5) else 0
        if cell == "yahtzee":
            return 50 if is_five_alike(dice) else 0
        return total  # chance

    def forbidden(self, cell: str, dice: Dice, sheet: Sheet, throw: int) -> str | None:
        if not self._joker(dice, sheet):
            return None
        face_cell = UPPER[dice[0] - 1]
        if sheet.is_open(face_cell):
            if cell != face_cell:
                return f"joker rule: five {dice[0]}s go into {face_cell} while it is open"
            return None
        lower_open = [c for c in self.LOWER if sheet.is_open(c)]
        if lower_open and cell in UPPER:
            return "joker rule: with the number cell closed, five alike go into an open lower cell"
        return None

    def write_bonus(self, cell: str, dice: Dice, sheet: Sheet, throw: int) -> dict[str, int]:
        if self._joker(dice, sheet) and sheet.cells.get("yahtzee") == 50:
            return {"yahtzee_bonus": 100}
        return {}

    def bonuses(self, sheet: Sheet) -> dict[str, int]:
        earned = dict(sheet.bonus)
        earned["upper_bonus"] = self.UPPER_BONUS if upper_sum(sheet) >= 63 else 0
        return earned


class _JokerlessUpperBonus(Ruleset):
    UPPER_BONUS = 35

    def bonuses(self, sheet: Sheet) -> dict[str, int]:
        earned = dict(sheet.bonus)
        earned["upper_bonus"] = self.UPPER_BONUS if upper_sum(sheet) >= 63 else 0
        return earned


class Yatzy(_JokerlessUpperBonus):
    """Scandinavian 15 cells: pairs, exact straights, matching dice only; no joker."""

    id = "yatzy"
    name = "Yatzy"
    cells = (
        *UPPER,
        "one_pair",
        "two_pairs",
        "three_of_a_kind",
        "four_of_a_kind",
        "small_straight",
        "large_straight",
        "full_house",
        "chance",
        "yatzy",
    )
    UPPER_BONUS = 50

    def cell_points(self, cell: str, dice: Dice, sheet: Sheet, throw: int) -> int:
        if cell in UPPER:
            return face_points(cell, dice)
        tally = counts(dice)
        if cell == "one_pair":
            pair = of_a_kind(dice, 2)
            return 2 * pair if pair else 0
        if cell == "two_pairs":
            pairs = [v for v in range(1, 7) if tally[v] >= 2]
            return 2 * (pairs[-1] + pairs[-2]) if len(pairs) >= 2 else 0
        if cell == "three_of_a_kind":
            value = of_a_kind(dice, 3)
            return 3 * value if value else 0
        if cell == "four_of_a_kind":
            value = of_a_kind(dice, 4)
            return 4 * value if value else 0
        if cell == "small_straight":
            return 15 if sorted(dice) == [1, 2, 3, 4, 5] else 0
        if cell == "large_straight":
            return 20 if sorted(dice) == [2, 3, 4, 5, 6] else 0
        if cell == "full_house":
            return sum(dice) if is_full_house(dice) else 0
        if cell == "yatzy":
            return 50 if is_five_alike(dice) else 0
        return sum(dice)  # chance


class Yacht(_JokerlessUpperBonus):
    """Clubhouse Games' 12 cells: choice, sums for four alike and full house, no bonus yacht."""

    id = "yacht"
    name = "Yacht"
    cells = (
        *UPPER,
        "choice",
        "four_of_a_kind",
        "full_house",
        "small_straight",
        "large_straight",
        "yacht",
    )

    def cell_points(self, cell: str, dice: Dice, sheet: Sheet, throw: int) -> int:
        if cell in UPPER:
            return face_points(cell, dice)
        if cell == "four_of_a_kind":
            return sum(dice) if of_a_kind(dice, 4) else 0
        if cell == "full_house":
            return sum(dice) if is_full_house(dice) or is_five_alike(dice) else 0
        if cell == "small_straight":
            return 15 if has_run(dice, 4) else 0
        if cell == "large_straight":
            return 30 if has_run(dice, 5) else 0
        if cell == "yacht":
            return 50 if is_five_alike(dice) else 0
        return sum(dice)  # choice
