"""Settling a game played for stakes: each player's result against the average, and who pays whom.

RULES.md (poker_ru, poker_ua): result = total - average, rounded to 0.01 so the
results sum to exactly 0 (the rounding remainder goes to the largest result),
plus the fewest transfers "A pays B x" that settle it. Money is counted in
whole cents so no float ever leaves a remainder.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Transfer:
    """One payment that settles part of the game: ``payer`` pays ``payee`` ``amount``."""

    payer: int
    payee: int
    amount: float

    def to_dict(self) -> dict[str, float | int]:
        return {"from": self.payer, "to": self.payee, "amount": self.amount}


def results_in_cents(totals: Sequence[float]) -> tuple[int, ...]:
    """Each player's total minus the average, in cents, summing to exactly 0.

    >>> results_in_cents([10, 0, 0])
    (666, -333, -333)
    """
    if not totals:
        return ()
    exact = [Fraction(t).limit_denominator(10**6) for t in totals]
    average = sum(exact, Fraction(0)) / len(exact)
    cents = [round((t - average) * 100) for t in exact]
    remainder = -sum(cents)
    if remainder:
        largest = max(range(len(cents)), key=lambda i: (cents[i], -i))
        cents[largest] += remainder
    return tuple(cents)


def results(totals: Sequence[float]) -> tuple[float, ...]:
    """Each player's win (+) or loss (-) against the average, rounded to 0.01, summing to 0."""
    return tuple(c / 100 for c in results_in_cents(totals))


def _zero_sum_groups(cents: Sequence[int]) -> list[list[int]]:
    """Split the players into the most groups that each settle among themselves.

    n players need n - (number of such groups) transfers at least, and settling
    each group greedily reaches that bound; a table has at most 6 players, so all
    2**6 subsets are tried.
    """
    n = len(cents)
    full = (1 << n) - 1
    total = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = (mask & -mask).bit_length() - 1
        total[mask] = total[mask & (mask - 1)] + cents[low]
    best: dict[int, tuple[int, list[int]]] = {0: (0, [])}
    for mask in range(1, full + 1):
        if total[mask] != 0:
            continue
        low = mask & -mask
        choice: tuple[int, list[int]] | None = None
        sub = mask
        while sub:
            if sub & low and total[sub] == 0 and (mask ^ sub) in best:
                count, groups = best[mask ^ sub]
                if choice is None or count + 1 > choice[0]:
                    choice = (count + 1, [*groups, sub])
            sub = (sub - 1) & mask
        if choice is not None:
            best[mask] = choice
    return [[i for i in range(n) if group >> i & 1] for group in best[full][1]]


def transfers(cents: Sequence[int]) -> tuple[Transfer, ...]:
    """The fewest payments that settle results given in cents (which sum to 0)."""
    if sum(cents) != 0:
        raise ValueError(f"results must sum to 0 to be settled, not {sum(cents)} cents")
    payments: list[Transfer] = []
    for group in _zero_sum_groups(cents):
        owed = {i: cents[i] for i in group if cents[i]}
        while owed:
            payer = min(owed, key=lambda i: (owed[i], i))
            payee = max(owed, key=lambda i: (owed[i], -i))
            amount = min(-owed[payer], owed[payee])
            payments.append(Transfer(payer, payee, amount / 100))
            for player, change in ((payer, amount), (payee, -amount)):
                owed[player] += change
                if owed[player] == 0:
                    del owed[player]
    return tuple(payments)
