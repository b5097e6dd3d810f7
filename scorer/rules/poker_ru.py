"""poker_ru: the two-part dice poker of seed 000, played for stakes.

Part 1 (mandatory) fills ones..sixes with ``3 x count - 9``: the player commits
to a number after the first throw and has as many throws as the table agreed
for that number. Part 2 (free, legal once part 1 is full) scores each
combination's agreed value when completed and charges it when failed; chance
scores 0 and so absorbs one failure. Completed on the first throw x3, on the
second x2 (option ``multipliers``). The result is settled against the
average: each player wins or loses ``total - average``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorer.dice import Dice, counts
from scorer.errors import UnknownCell
from scorer.rules import settlement
from scorer.rules.base import UPPER, Option, Ruleset, on_off
from scorer.rules.sheet import Sheet
from scorer.rules.yahtzee import is_five_alike, is_full_house, of_a_kind

COMBINATIONS: tuple[str, ...] = (
    "pair",
    "two_pairs",
    "three_of_a_kind",
    "small_straight",
    "large_straight",
    "full_house",
    "four_of_a_kind",
    "poker",
    "chance",
)
"""Part 2 of both two-part poker games, in sheet order (RULES.md)."""

DEFAULT_VALUES: Mapping[str, int] = {
    "pair": 5,
    "two_pairs": 7,
    "three_of_a_kind": 10,
    "small_straight": 15,
    "large_straight": 20,
    "full_house": 20,
    "four_of_a_kind": 30,
    "poker": 50,
    "chance": 0,
}
"""Seed 000's examples fix two_pairs, full_house, four_of_a_kind and chance; RULES.md the rest."""

PREMIUM = 50
"""Part 1 earns it when its sum is 0 or more (both two-part games)."""


def pairs_of(dice: Dice) -> list[int]:
    """Values shown at least twice, lowest first."""
    tally = counts(dice)
    return [v for v in range(1, 7) if tally[v] >= 2]


def holds(combination: str, dice: Dice) -> bool:
    """Whether the dice hold at least ``combination`` (chance always holds).

    Two pairs need two *different* values, a full house exactly 3 + 2, the
    straights exactly 1-2-3-4-5 and 2-3-4-5-6, poker five alike.
    """
    if combination == "pair":
        return of_a_kind(dice, 2) is not None
    if combination == "two_pairs":
        return len(pairs_of(dice)) >= 2
    if combination == "three_of_a_kind":
        return of_a_kind(dice, 3) is not None
    if combination == "four_of_a_kind":
        return of_a_kind(dice, 4) is not None
    if combination == "small_straight":
        return sorted(dice) == [1, 2, 3, 4, 5]
    if combination == "large_straight":
        return sorted(dice) == [2, 3, 4, 5, 6]
    if combination == "full_house":
        return is_full_house(dice)
    if combination == "poker":
        return is_five_alike(dice)
    if combination == "chance":
        return True
    raise UnknownCell(f"no combination {combination!r} (combinations: {', '.join(COMBINATIONS)})")


def part_one_complete(sheet: Sheet) -> bool:
    return all(not sheet.is_open(c) for c in UPPER)


def part_one_sum(sheet: Sheet) -> int:
    return sum(sheet.cells.get(c, 0) for c in UPPER)


def premium(sheet: Sheet) -> int:
    """+50 once ones..sixes are all written and sum to 0 or more (an open part 1 has none)."""
    return PREMIUM if part_one_complete(sheet) and part_one_sum(sheet) >= 0 else 0


def settle_against_average(totals: Sequence[float]) -> tuple[float, ...]:
    """Each player's win (+) or loss (-): total minus the players' average total, rounded to
    0.01 so that the results sum to exactly 0 (:mod:`scorer.rules.settlement`)."""
    return settlement.results(totals)


def _throw_count(text: str) -> int:
    value = int(text)
    if not 1 <= value <= 3:
        raise ValueError(text)
    return value


def _value(text: str) -> int:
    value = int(text)
    if value < 0:
        raise ValueError(text)
    return value


class TwoPartPoker(Ruleset):
    """What poker_ru and poker_ua share: the cells, the part order, premium and settlement."""

    cells = UPPER + COMBINATIONS

    def phase_forbids(self, cell: str, sheet: Sheet) -> str | None:
        if cell in COMBINATIONS and not part_one_complete(sheet):
            return f"part 2 ({cell}) opens once ones..sixes are all written"
        return None

    def bonuses(self, sheet: Sheet) -> dict[str, int]:
        earned = dict(sheet.bonus)
        earned["premium"] = premium(sheet)
        return earned

    def part_one_result(self, sheet: Sheet) -> int:
        """The intermediate result: the part-1 sum, plus the premium when it is 0 or more."""
        return part_one_sum(sheet) + premium(sheet)

    def settlement(self, totals: Sequence[float]) -> tuple[float, ...] | None:
        return settle_against_average(totals)


class PokerRu(TwoPartPoker):
    """Seed 000: part 1 at ``3 x count - 9`` with agreed throws, part 2 at +/- agreed values."""

    id = "poker_ru"
    name = "Poker (two parts, seed 000)"
    OPTIONS = (
        Option("throws", 2, _throw_count, "1..3 throws for every number of part 1"),
        *(
            Option(f"throws.{cell}", None, _throw_count, f"1..3 throws for {cell} (else `throws`)")
            for cell in UPPER
        ),
        *(
            Option(f"value.{cell}", value, _value, f"points of a completed {cell} (0 or more)")
            for cell, value in DEFAULT_VALUES.items()
        ),
        Option("multipliers", True, on_off, "on/off: x3 completed on throw 1, x2 on throw 2"),
        Option("throw_bank", False, on_off, "on/off: unused throws are banked for later turns"),
        Option("parts", 2, int, "2: both parts; 1: the game ends after part 1", (2, 1)),
        Option(
            "variant",
            1,
            int,
            "1: all play each part together; 2: each alone, with banked throws",
            (1, 2),
        ),
        Option(
            "first_finisher_bonus",
            0,
            _value,
            "variant 2: points for the first player to finish part 1",
        ),
    )
    rolloff_default = True

    def __init__(self, options: Mapping[str, object] | None = None) -> None:
        super().__init__(options)
        chosen: dict[str, Any] = dict(self.options)
        for cell in UPPER:
            if chosen[f"throws.{cell}"] is None:
                chosen[f"throws.{cell}"] = chosen["throws"]
        if chosen["variant"] == 2:
            chosen["throw_bank"] = True  # RULES.md: variant 2 implies the bank
        self.options = chosen
        if chosen["parts"] == 1:
            self.cells = UPPER
            self.extra_rounds = False  # extra rounds replay part 2, which this game has not

    extra_rounds = True

    def extra_round_cell(self, cell: str) -> bool:
        """Extra rounds replay part 2: their points add to the combination already written.
        Chance is not replayed (flow 2): it was the one failure a player may absorb."""
        if self.flow >= 2 and cell == "chance":
            return False
        return cell in COMBINATIONS

    def value(self, cell: str) -> int:
        """The agreed value of a part-2 combination."""
        return int(self.options[f"value.{cell}"])

    def throws_for(self, cell: str) -> int:
        """The throws the table agreed for a part-1 number (part 2: up to 3): what a written
        cell banks, less the throws used on it."""
        if cell in UPPER:
            return int(self.options[f"throws.{cell}"])
        return self.max_throws

    def multiplier(self, throw: int) -> int:
        if not self.options["multipliers"]:
            return 1
        return {1: 3, 2: 2}.get(throw, 1)

    def check_throw(self, throw: int, sheet: Sheet | None = None) -> int:
        if self.options["throw_bank"] and type(throw) is int and throw > self.max_throws:
            return throw  # banked throws stretch a turn; the game keeps the bank
        return super().check_throw(throw, sheet)

    def forbidden(self, cell: str, dice: Dice, sheet: Sheet, throw: int) -> str | None:
        if cell in UPPER and not self.options["throw_bank"] and throw > self.throws_for(cell):
            return f"{cell} is written after at most {self.throws_for(cell)} throws, not {throw}"
        return None

    def cell_points(self, cell: str, dice: Dice, sheet: Sheet, throw: int) -> int:
        if cell in UPPER:
            return 3 * dice.count(UPPER.index(cell) + 1) - 9
        value = self.value(cell)
        if cell == "chance":
            return value
        if holds(cell, dice):
            return value * self.multiplier(throw)
        return -value

    def scratch_points(self, cell: str) -> int:
        if cell in UPPER:
            return -9
        if cell == "chance":
            return 0
        return -self.value(cell)

    def needs_commit(self, sheet: Sheet) -> bool:
        return any(sheet.is_open(c) for c in UPPER)

    def throws_allowed(self, sheet: Sheet, committed: str | None = None) -> int:
        """Part 1: the committed number's agreed throws (before committing, the most any open
        number allows); part 2: 3. Banked throws come on top (the game keeps the bank)."""
        if committed is not None:
            self.check_cell(committed)
            if committed in UPPER:
                return self.throws_for(committed)
        if self.needs_commit(sheet):
            return max(self.throws_for(c) for c in UPPER if sheet.is_open(c))
        return self.max_throws
