"""Whether a table's dice are fair: every face counted over its history, and a chi-square test.

Only dice that were really thrown and seen count: each camera throw's new
dice (a first throw's five, a re-throw's free dice; never a held die, which
was not thrown again), with the value a player corrected it to where they
did. Typed throws are left out (nobody knows which dice were typed from the
tray and which from memory), and so are the timer's virtual throws.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorer.game import Game, Setup

FACES = 6
ALPHA = 0.01
"""A verdict of bias needs p below this: one fair table in a hundred is flagged by chance."""
MIN_DICE = 30
"""Below this the chi-square's expected five a face is not met: too few dice to tell."""


@dataclass(frozen=True)
class Fairness:
    """The counts of one dice set's faces and what they say about the dice."""

    dice_set: str
    counts: tuple[int, ...]
    """How often each value 1..6 came up (card dice: 9, 10, J, Q, K, A)."""
    statistic: float | None
    p_value: float | None
    face: int | None
    """The value furthest from its fair share (None when there are too few dice)."""
    more: bool
    """Whether ``face`` came up more (True) or less often than a fair die's share."""
    cards: bool = False
    """Poker dice: faces 1..6 are shown as 9, 10, J, Q, K, A."""

    @property
    def dice(self) -> int:
        return sum(self.counts)

    @property
    def enough(self) -> bool:
        return self.dice >= MIN_DICE

    @property
    def biased(self) -> bool:
        return self.p_value is not None and self.p_value < ALPHA

    def verdict(self) -> str:
        """The plain English line (the pages say the same through their catalogues)."""
        if not self.enough:
            return f"too few dice to tell: {self.dice} seen, {MIN_DICE} needed"
        if not self.biased:
            return f"no sign of bias over {self.dice:,} dice"
        how = "more" if self.more else "less often"
        return f"{self.face}s come up {how} than a fair die would: p = {self.p_value:.3g}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "dice_set": self.dice_set,
            "dice": self.dice,
            "counts": list(self.counts),
            "statistic": self.statistic,
            "p_value": self.p_value,
            "face": self.face,
            "more": self.more,
            "cards": self.cards,
            "enough": self.enough,
            "biased": self.biased,
            "verdict": self.verdict(),
        }


def chi_square_p(statistic: float, freedom: int = FACES - 1) -> float:
    """P(chi-square with ``freedom`` degrees > ``statistic``): the test's p-value.

    The upper regularised gamma Q(k/2, x/2) in closed form for odd k, by
    Q(a + 1, y) = Q(a, y) + y^a e^-y / Gamma(a + 1) from Q(1/2, y) = erfc(sqrt y),
    so the Pi needs no SciPy for one number.
    """
    if freedom < 1 or freedom % 2 == 0:
        raise ValueError(f"closed form for odd degrees of freedom, not {freedom}")
    if statistic <= 0:
        return 1.0
    y = statistic / 2
    q = math.erfc(math.sqrt(y))
    a = 0.5
    while a < freedom / 2:
        q += math.exp(a * math.log(y) - y - math.lgamma(a + 1))
        a += 1
    return min(1.0, max(0.0, q))


def judge(counts: Sequence[int], dice_set: str = "", *, cards: bool = False) -> Fairness:
    """The chi-square test of ``counts`` (faces 1..6) against a fair die."""
    if len(counts) != FACES or any(c < 0 for c in counts):
        raise ValueError(f"counts are {FACES} numbers of times each face came up")
    total = sum(counts)
    if total < MIN_DICE:
        return Fairness(dice_set, tuple(counts), None, None, None, False, cards)
    share = total / FACES
    statistic = sum((c - share) ** 2 / share for c in counts)
    furthest = max(range(FACES), key=lambda i: abs(counts[i] - share))
    return Fairness(
        dice_set,
        tuple(counts),
        round(statistic, 4),
        chi_square_p(statistic),
        furthest + 1,
        counts[furthest] > share,
        cards,
    )


def dice_set_of(setup: Setup) -> str:
    """The set of dice a game was played with: the table's set chosen on /setup
    (``scorer.dice_sets``), else its dice kind (``pips`` or ``cards``)."""
    if setup.dice_set:
        return setup.dice_set
    return "cards" if setup.dice == "cards" else "pips"


def thrown_values(setup: Setup, events: Sequence[Mapping[str, Any]]) -> list[int]:
    """The values of the dice the camera saw thrown in one game, as finally corrected."""
    standing = Game.standing(setup, events)
    values: list[int] = []
    pending: list[int] = []
    for before, event in standing:
        kind = event.get("type")
        if kind in ("correct", "hold"):
            continue
        if kind == "throw" and before.rules.kind == "bluff" and before.dice:
            pending = []  # a bluff reveal photographed again replaces the first
        values.extend(before.dice[i].value for i in pending)
        pending = []
        if kind == "throw" and _seen_by_camera(event):
            held = {i for i, d in enumerate(before.dice) if d.held}
            pending = [i for i in range(before.rules.dice_count) if i not in held]
    last = standing[-1][0].apply(standing[-1][1]) if standing else None
    if last is not None:
        values.extend(last.dice[i].value for i in pending if i < len(last.dice))
    return values


def _seen_by_camera(event: Mapping[str, Any]) -> bool:
    return bool(event.get("reading")) and not event.get("virtual")


def count(values: Iterable[int]) -> tuple[int, ...]:
    """How often each value 1..6 appears."""
    counts = [0] * FACES
    for value in values:
        counts[value - 1] += 1
    return tuple(counts)


def table_fairness(store: Any, dice_set: str | None = None) -> list[Fairness]:
    """One verdict per dice set the camera has seen thrown (or for ``dice_set`` alone)."""
    by_set: dict[str, list[int]] = {}
    cards: set[str] = set()
    for listed in reversed(store.games()):
        setup = store.setup(listed["id"])
        name = dice_set_of(setup)
        if dice_set is not None and name != dice_set:
            continue
        if setup.dice == "cards":
            cards.add(name)
        by_set.setdefault(name, []).extend(_game_values(store, listed, setup))
    if dice_set is not None:
        by_set.setdefault(dice_set, [])
    return [
        judge(count(values), name, cards=name in cards)
        for name, values in sorted(by_set.items())
        if values or name == dice_set
    ]


_counted: dict[tuple[str, int, str], tuple[int, list[int]]] = {}
"""(database, game, its creation) -> (its last event's seq, its thrown values): /history
asks on every load, and a game's values change only with its log: each is replayed once."""


def _game_values(store: Any, listed: dict[str, Any], setup: Setup) -> list[int]:
    log = store.events(listed["id"])
    last = log[-1]["seq"] if log else 0
    key = (str(store.path), listed["id"], listed["created"])
    known = _counted.get(key)
    if known is None or known[0] != last:
        known = (last, thrown_values(setup, [e["event"] for e in log]))
        _counted[key] = known
    return known[1]
