"""Generala: 11 cells, servida (+5 when made on the first throw) and the double generala."""

from __future__ import annotations

from scorer.dice import Dice
from scorer.rules.base import UPPER, Option, Ruleset, face_points, on_off
from scorer.rules.sheet import Sheet
from scorer.rules.yahtzee import is_five_alike, is_full_house, of_a_kind

ESCALERAS = ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}, {3, 4, 5, 6, 1})


class Generala(Ruleset):
    id = "generala"
    name = "Generala"
    OPTIONS = (
        Option(
            "double_generala",
            True,
            on_off,
            "on/off: a second generala scores 100 while generala holds 50",
        ),
    )
    SERVIDA = 5

    @property
    def cells(self) -> tuple[str, ...]:  # type: ignore[override]
        lower = ("escalera", "full", "poker", "generala")
        if self.options["double_generala"]:
            lower = (*lower, "double_generala")
        return UPPER + lower

    def cell_points(self, cell: str, dice: Dice, sheet: Sheet, throw: int) -> int:
        if cell in UPPER:
            return face_points(cell, dice)
        servida = self.SERVIDA if throw == 1 else 0
        if cell == "escalera":
            return 20 + servida if set(dice) in ESCALERAS and len(set(dice)) == 5 else 0
        if cell == "full":
            return 30 + servida if is_full_house(dice) else 0
        if cell == "poker":
            return 40 + servida if of_a_kind(dice, 4) else 0
        if cell == "generala":
            return 50 if is_five_alike(dice) else 0
        # double_generala: five alike, only while generala holds 50
        return 100 if is_five_alike(dice) and sheet.cells.get("generala") == 50 else 0
