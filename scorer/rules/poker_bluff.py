"""poker_bluff: the claims of seed 003's bluff game, their order, and the verdict of a call.

A claim names a category and its ranks ("full house, K over 9"; "two pairs, A
and 10" may leave the kicker out). Its strength is the weakest hand that
makes it, so a claim without kickers counts as one with the lowest kickers:
"pair of A" and "pair of A, J 10 9 kickers" are the same claim, and the second
does not beat the first. Hands rank as in poker_dice (``straights`` too).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from itertools import combinations_with_replacement
from typing import NamedTuple

from scorer.dice import card_rank, check_value
from scorer.errors import BadOption, ForbiddenMove, ScorerError
from scorer.rules.base import Option, Ruleset, one_or_more
from scorer.rules.poker_dice import RANKINGS, STRAIGHTS_OPTION, Hand, compare, hand
from scorer.rules.sheet import Sheet

DEFINING: dict[str, int] = {
    "five_of_a_kind": 1,
    "four_of_a_kind": 1,
    "full_house": 2,
    "straight": 1,
    "three_of_a_kind": 1,
    "two_pairs": 2,
    "pair": 1,
    "high_card": 1,
}
"""How many ranks a claim of each category must name (the rest are optional kickers)."""

TOP_CLAIM_KEY = ("five_of_a_kind", (6,))
"""Five aces: nothing beats it, the next player must call."""


class BadClaim(ScorerError):
    """A claim that names no hand (unknown category, ranks no throw makes)."""


class Claim(NamedTuple):
    """A hand announced: its category and the ranks named, larger group first."""

    hand: str
    ranks: tuple[int, ...]

    def to_dict(self) -> dict[str, object]:
        return {"hand": self.hand, "ranks": list(self.ranks)}


@cache
def all_hands(straights: str) -> tuple[Hand, ...]:
    """The 252 different hands five dice make, weakest first."""
    found = {hand(dice, straights) for dice in combinations_with_replacement(range(1, 7), 5)}
    ranks = {category: i for i, category in enumerate(RANKINGS[straights])}
    return tuple(sorted(found, key=lambda h: (ranks[h.category], h.key)))


def read_claim(raw: object) -> Claim:
    """A claim sent by a page or a script: ``{"hand": "pair", "ranks": [6]}``."""
    if isinstance(raw, Claim):
        return raw
    if not isinstance(raw, dict):
        raise BadClaim('a claim is {"hand": CATEGORY, "ranks": [values 1..6, highest group first]}')
    category, ranks = raw.get("hand"), raw.get("ranks")
    if category not in DEFINING:
        raise BadClaim(f"a claim's hand is one of {', '.join(DEFINING)}, not {category!r}")
    if not isinstance(ranks, list | tuple):
        raise BadClaim("a claim's ranks are a list of values 1..6 (9 10 J Q K A)")
    return Claim(category, tuple(check_value(r) for r in ranks))


@cache
def floor(claim: Claim, straights: str) -> Hand:
    """The weakest hand that makes ``claim``; raises :class:`BadClaim` when none does."""
    need = DEFINING[claim.hand]
    if len(claim.ranks) < need:
        raise BadClaim(f"a {claim.hand} claim names at least {need} rank(s)")
    for candidate in all_hands(straights):
        if candidate.category == claim.hand and candidate.key[: len(claim.ranks)] == claim.ranks:
            return candidate
    raise BadClaim(f"no throw makes {claim.hand} {list(claim.ranks)} (straights: {straights})")


def beats(claim: Claim, last: Claim | None, straights: str) -> bool:
    """Whether ``claim`` is strictly higher than ``last`` (any valid claim opens a round)."""
    mine = floor(claim, straights)
    return last is None or compare(mine, floor(last, straights), straights) > 0


def holds(dice: Sequence[int], claim: Claim, straights: str) -> bool:
    """Whether revealed dice make at least the claim: then the caller loses the round."""
    return compare(hand(dice, straights), floor(claim, straights), straights) >= 0


def is_top(claim: Claim, straights: str) -> bool:
    """Whether nothing beats ``claim`` (five aces)."""
    return floor(claim, straights) == all_hands(straights)[-1]


@cache
def _claims(straights: str) -> tuple[Claim, ...]:
    """Every claim that names a hand, shortest first within each hand, weakest first."""
    seen: dict[Claim, None] = {}
    for found in all_hands(straights):
        for length in range(DEFINING[found.category], len(found.key) + 1):
            seen.setdefault(Claim(found.category, found.key[:length]))
    return tuple(seen)


def next_claims(last: Claim | None, straights: str) -> tuple[Claim, ...]:
    """The claims the next player may make, each in its shortest form, weakest first.

    A claim is left out when a shorter claim (fewer kickers) already beats the
    last one, so every entry is one tap on the picker.
    """
    legal = [c for c in _claims(straights) if beats(c, last, straights)]
    chosen = set(legal)
    shortest = [
        c
        for c in legal
        if not any(
            Claim(c.hand, c.ranks[:n]) in chosen for n in range(DEFINING[c.hand], len(c.ranks))
        )
    ]
    ranks = {category: i for i, category in enumerate(RANKINGS[straights])}
    return tuple(
        sorted(shortest, key=lambda c: (ranks[c.hand], floor(c, straights).key, len(c.ranks)))
    )


class PokerBluff(Ruleset):
    """Seed 003's bluff: claims climb until someone calls; the camera reads the reveal."""

    id = "poker_bluff"
    name = "Poker dice bluff (seed 003)"
    kind = "bluff"
    game = "scorer.bluff:BluffGame"
    min_players = 2
    cells = ()
    OPTIONS = (
        Option("lives", 3, one_or_more, "lives each player starts with (1 or more)"),
        STRAIGHTS_OPTION,
    )

    def __init__(self, options: Mapping[str, object] | None = None) -> None:
        super().__init__(options)
        lives = self.options["lives"]
        if isinstance(lives, bool) or not isinstance(lives, int) or lives < 1:
            raise BadOption(f"option lives is a whole number, 1 or more, not {lives!r}")

    @property
    def straights(self) -> str:
        return str(self.options["straights"])

    def hand(self, dice: Sequence[int]) -> Hand:
        """The hand revealed dice make under the table's ``straights`` agreement."""
        return hand(self.check_dice(dice), self.straights)

    def check_claim(self, raw: object, last: Claim | None) -> Claim:
        """The claim if it beats ``last``; raises with the reason otherwise."""
        if last is not None and is_top(last, self.straights):
            raise ForbiddenMove("five aces cannot be beaten: call")
        claim = read_claim(raw)
        floor(claim, self.straights)
        if last is not None and not beats(claim, last, self.straights):
            raise ForbiddenMove(
                f"a claim must be higher than the last ({last.hand} {list(last.ranks)})"
            )
        return claim

    def next_claims(self, last: Claim | None) -> tuple[Claim, ...]:
        return next_claims(last, self.straights)

    def holds(self, dice: Sequence[int], claim: Claim) -> bool:
        return holds(self.check_dice(dice), claim, self.straights)

    def describe_hand(self, dice: Sequence[int]) -> dict[str, object]:
        """A revealed hand as ``scorer score`` shows it: category, ranks and card faces."""
        found = self.hand(dice)
        return {
            "hand": found.category,
            "key": list(found.key),
            "cards": [card_rank(v) for v in found.key],
        }

    def cell_points(self, cell: str, dice: tuple[int, ...], sheet: Sheet, throw: int) -> int:
        raise ForbiddenMove("poker_bluff has no cells: claim or call")
