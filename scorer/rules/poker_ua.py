"""poker_ua: the two-part dice poker of seed 001, played for stakes.

Part 1 fills ones..sixes with ``(count - 3) x face``: missing dice cost their
face, extra dice earn it. Part 2 scores the dice that form each combination,
doubled when made on the first throw (not chance), poker +50 on top; a
combination not made is struck for 0. Premium and settlement as in poker_ru.
"""

from __future__ import annotations

from scorer.dice import Dice, counts
from scorer.rules.base import UPPER
from scorer.rules.poker_ru import COMBINATIONS, TwoPartPoker, holds, pairs_of
from scorer.rules.sheet import Sheet

POKER_BONUS = 50


def forming_dice_sum(combination: str, dice: Dice) -> int:
    """The sum of the dice that form ``combination`` (0 when the dice do not hold it).

    A pair or a set counts only its matching dice, the highest one available;
    two pairs the four dice of the two highest pairs; straights, full house,
    poker and chance all five.
    """
    if not holds(combination, dice):
        return 0
    tally = counts(dice)
    if combination in ("pair", "three_of_a_kind", "four_of_a_kind"):
        size = {"pair": 2, "three_of_a_kind": 3, "four_of_a_kind": 4}[combination]
        return size * max(v for v in range(1, 7) if tally[v] >= size)
    if combination == "two_pairs":
        low, high = pairs_of(dice)[-2:]
        return 2 * (low + high)
    return sum(dice)


class PokerUa(TwoPartPoker):
    """Seed 001: part 1 at ``(count - 3) x face``, part 2 at the forming dice."""

    id = "poker_ua"
    name = "Poker (two parts, seed 001)"

    def cell_points(self, cell: str, dice: Dice, sheet: Sheet, throw: int) -> int:
        if cell in UPPER:
            face = UPPER.index(cell) + 1
            return (dice.count(face) - 3) * face
        points = forming_dice_sum(cell, dice)
        if points and cell != "chance" and throw == 1:
            points *= 2
        if cell == "poker" and points:
            points += POKER_BONUS
        return points

    def forbidden(self, cell: str, dice: Dice, sheet: Sheet, throw: int) -> str | None:
        """Chance (seed 001) is for a round where three tries made no needed combination."""
        if cell != "chance" or self.flow < 2:
            return None
        if throw < self.max_throws:
            return f"chance is written only after the third throw, not throw {throw}"
        made = [c for c in COMBINATIONS if c != "chance" and sheet.is_open(c) and holds(c, dice)]
        if made:
            return f"chance is for a round with no combination: the dice make {made[0]}"
        return None

    def scratch_points(self, cell: str) -> int:
        """A struck number counts as no dice (three missing); a struck combination 0."""
        if cell in UPPER:
            return -3 * (UPPER.index(cell) + 1)
        return 0
