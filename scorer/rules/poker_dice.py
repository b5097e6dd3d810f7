"""poker_dice: the hand-ranking duel of seed 003.

Each player throws up to three times, re-throwing any dice; the best final
hand wins the round. Dice show card faces (9 10 J Q K A = 1..6, ace high).
Where the straight ranks is a table agreement (option ``straights``): above
the full house (default: it is the rarer hand), below it (as in card poker),
or not at all (a straight is then a high card).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from scorer.dice import Dice, card_rank
from scorer.rules.base import Option, Ruleset, one_or_more
from scorer.rules.sheet import Sheet

STRAIGHTS: tuple[frozenset[int], ...] = (frozenset({1, 2, 3, 4, 5}), frozenset({2, 3, 4, 5, 6}))
"""9-10-J-Q-K and 10-J-Q-K-A."""

RANKINGS: dict[str, tuple[str, ...]] = {
    "above_full_house": (
        "high_card",
        "pair",
        "two_pairs",
        "three_of_a_kind",
        "full_house",
        "straight",
        "four_of_a_kind",
        "five_of_a_kind",
    ),
    "below_full_house": (
        "high_card",
        "pair",
        "two_pairs",
        "three_of_a_kind",
        "straight",
        "full_house",
        "four_of_a_kind",
        "five_of_a_kind",
    ),
    "none": (
        "high_card",
        "pair",
        "two_pairs",
        "three_of_a_kind",
        "full_house",
        "four_of_a_kind",
        "five_of_a_kind",
    ),
}
"""Categories from the lowest to the highest for each ``straights`` agreement."""

_BY_SHAPE: dict[tuple[int, ...], str] = {
    (5,): "five_of_a_kind",
    (4, 1): "four_of_a_kind",
    (3, 2): "full_house",
    (3, 1, 1): "three_of_a_kind",
    (2, 2, 1): "two_pairs",
    (2, 1, 1, 1): "pair",
    (1, 1, 1, 1, 1): "high_card",
}


class Hand(NamedTuple):
    """A final hand: its category and the ranks that break ties within the category.

    ``key`` lists the dice values grouped, larger group first, then higher rank:
    K-K-K-9-9 is ``(5, 1)``, Q-Q-9-9-A is ``(4, 1, 6)``, a straight its ranks high to low.
    """

    category: str
    key: tuple[int, ...]


def _rank(straights: str) -> dict[str, int]:
    return {category: rank for rank, category in enumerate(RANKINGS[straights])}


def hand(dice: Sequence[int], straights: str = "above_full_house") -> Hand:
    """The hand five dice make under the ``straights`` agreement."""
    groups = sorted(Counter(dice).items(), key=lambda item: (item[1], item[0]), reverse=True)
    key = tuple(value for value, _ in groups)
    shape = tuple(size for _, size in groups)
    category = _BY_SHAPE[shape]
    if category == "high_card" and straights != "none" and frozenset(dice) in STRAIGHTS:
        category = "straight"
    return Hand(category, key)


def compare(a: Hand, b: Hand, straights: str = "above_full_house") -> int:
    """1 when ``a`` beats ``b``, -1 when it loses, 0 for equal hands."""
    ranks = _rank(straights)
    left = (ranks[a.category], a.key)
    right = (ranks[b.category], b.key)
    return (left > right) - (left < right)


STRAIGHTS_OPTION = Option(
    "straights",
    "above_full_house",
    str,
    "where a straight ranks: above_full_house, below_full_house or none",
    tuple(RANKINGS),
)
"""Where the straight ranks: one agreement for every game of poker hands (duel, bluff)."""


class PokerDice(Ruleset):
    """Seed 003: best hand wins the round; the game keeps the rounds, this ranks the hands."""

    id = "poker_dice"
    name = "Poker dice (duel, seed 003)"
    kind = "duel"
    cells = ("hand",)
    min_players = 2  # seed 003: "от двух игроков"
    OPTIONS = (
        STRAIGHTS_OPTION,
        Option(
            "rounds",
            3,
            one_or_more,
            "rounds a match has (1 or more); seed 003 is silent, so 3",
        ),
    )

    def hand(self, dice: Sequence[int]) -> Hand:
        """The hand these dice make under the table's ``straights`` agreement."""
        return hand(self.check_dice(dice), self.options["straights"])

    def rank(self, category: str) -> int:
        """0 for a high card up to the top category (7, or 6 without straights)."""
        return _rank(self.options["straights"])[category]

    def compare(self, a: Hand | Sequence[int], b: Hand | Sequence[int]) -> int:
        """1 when ``a`` beats ``b``, -1 when it loses, 0 for equal hands (dice or hands)."""
        return compare(self._as_hand(a), self._as_hand(b), self.options["straights"])

    def round_winners(self, hands: Sequence[Hand | Sequence[int]]) -> tuple[int, ...]:
        """Indexes of the players holding the best hand; equal best hands share the round."""
        ranked = [self._as_hand(h) for h in hands]
        if not ranked:
            return ()
        best = ranked[0]
        for candidate in ranked[1:]:
            if self.compare(candidate, best) > 0:
                best = candidate
        return tuple(i for i, h in enumerate(ranked) if self.compare(h, best) == 0)

    def cell_points(self, cell: str, dice: Dice, sheet: Sheet, throw: int) -> int:
        """The category's rank, so a sheet can hold the hand (the game compares with keys)."""
        return self.rank(self.hand(dice).category)

    def describe_hand(self, dice: Sequence[int]) -> dict[str, object]:
        """A hand as the CLI and the API show it: category, rank, key and the card faces."""
        found = self.hand(dice)
        size = Counter(dice)
        grouped = sorted(dice, key=lambda v: (size[v], v), reverse=True)
        return {
            "hand": found.category,
            "rank": self.rank(found.category),
            "key": list(found.key),
            "cards": [card_rank(v) for v in grouped],
        }

    def _as_hand(self, item: Hand | Sequence[int]) -> Hand:
        return item if isinstance(item, Hand) else self.hand(item)
