"""What the sheet's margins say: subtotals, the way to a bonus, marks and past hands.

Players keep these in their heads on paper: how far the upper part is from its
bonus, which poker_ru cells were made on the first or second throw (x3, x2),
what each poker_dice round's hands were. They are read off the game and the
chain of states it came from (``Game.previous``), so nothing new is stored.
"""

from __future__ import annotations

import itertools
from typing import Any

from scorer.rules import UPPER

UPPER_TARGET = 63
"""yahtzee and yatzy pay their upper bonus from 63 in ones..sixes."""

TWO_PART = ("poker_ru", "poker_ua")
"""Part 1 earns the premium at a sum of 0 or more (RULES.md)."""


def history(game: Any) -> list[Any]:
    """The states the game went through, oldest first (undone moves are not among them)."""
    chain = []
    while game is not None:
        chain.append(game)
        game = game.previous
    return chain[::-1]


def written_on(game: Any) -> list[dict[str, int]]:
    """Per player, the throw number each cell was last written on (0: struck unthrown)."""
    throws: list[dict[str, int]] = [{} for _ in game.sheets]
    states = history(game)
    for before, after in itertools.pairwise(states):
        if before.is_duel:
            continue
        player = before.player
        if player >= len(after.sheets):
            continue
        old, new = before.sheets[player].cells, after.sheets[player].cells
        for cell, points in new.items():
            if old.get(cell) != points:
                throws[player][cell] = before.throw
    return throws


def marks(game: Any) -> list[dict[str, str]]:
    """Per player, "x3" / "x2" on the combinations a multiplier made (poker_ru, poker_ua)."""
    ruleset = game.setup.ruleset
    if ruleset not in TWO_PART:
        return [{} for _ in game.sheets]
    out: list[dict[str, str]] = []
    for sheet, throws in zip(game.sheets, written_on(game), strict=True):
        mine = {}
        for cell, throw in throws.items():
            if cell in UPPER or cell == "chance" or sheet.cells.get(cell, 0) <= 0:
                continue
            if ruleset == "poker_ru":
                factor = game.rules.multiplier(throw) if throw else 1
            else:
                factor = 2 if throw == 1 else 1
            if factor > 1:
                mine[cell] = f"x{factor}"
        out.append(mine)
    return out


def subtotals(game: Any) -> list[dict[str, Any]] | None:
    """Per player, the upper part's sum and what it still needs for its bonus.

    ``target`` is None where no bonus waits (yacht): the sum is shown alone.
    """
    ruleset = game.setup.ruleset
    if game.is_duel or not set(UPPER) <= set(game.rules.cells):
        return None
    out = []
    for sheet in game.sheets:
        total = sum(sheet.cells.get(c, 0) for c in UPPER)
        if ruleset in TWO_PART:
            target: int | None = 0
        elif "upper_bonus" in game.rules.bonuses(sheet):
            target = UPPER_TARGET
        else:
            target = None
        needed = None if target is None else max(0, target - total)
        complete = all(c in sheet.cells for c in UPPER)
        out.append({"sum": total, "target": target, "needed": needed, "complete": complete})
    return out


def past_hands(game: Any) -> list[dict[str, Any]]:
    """poker_dice: every decided round, its hands (dice and category) and its winners."""
    if not game.is_duel:
        return []
    rounds = []
    states = history(game)
    for before, after in itertools.pairwise(states):
        gained = [c for c in after.sheets[0].cells if c not in before.sheets[0].cells]
        if not gained:
            continue
        hands = list(before.hands)
        hands[before.player] = before.values
        rounds.append(
            {
                "round": int(gained[0].split("_", 1)[1]),
                "dice": [list(h) if h is not None else None for h in hands],
                "hands": [game.rules.hand(h).category if h is not None else None for h in hands],
                "winners": [i for i, s in enumerate(after.sheets) if s.cells.get(gained[0])],
            }
        )
    return rounds


def banked(game: Any) -> list[int] | None:
    """Throws each player has banked (poker_ru's ``throw_bank``), None when not agreed."""
    if not game.rules.options.get("throw_bank"):
        return None
    return [int(b) for b in game.bank]


def notes(game: Any) -> dict[str, Any]:
    """Everything above, as the state's ``notes``."""
    return {
        "subtotals": subtotals(game),
        "marks": marks(game),
        "past_hands": past_hands(game),
        "banked": banked(game),
    }
