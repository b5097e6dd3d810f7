"""What every ruleset answers: its cells, the points a throw gives, the legal cells, totals.

A ruleset is a pure function of (dice, sheet, throw number, options); the game
state machine (:mod:`scorer.game`) owns turns, holds and players, and asks the
ruleset everything about scoring, so each rule lives in exactly one place.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from scorer.dice import Dice, check_value
from scorer.errors import BadDice, BadOption, ForbiddenMove, UnknownCell
from scorer.rules.sheet import Sheet

UPPER: tuple[str, ...] = ("ones", "twos", "threes", "fours", "fives", "sixes")
"""The number cells, in face order: ``UPPER[v - 1]`` counts the dice showing v."""

FLOW = 2
"""The whole-game flow a new game follows (RULES.md "Whole-game flow decisions", issue 26).
Games stored before it carry no flow and replay as flow 1, the rules they were played by."""


@dataclass(frozen=True)
class Option:
    """A table agreement: name, default and how to read it from ``KEY=VALUE`` text."""

    name: str
    default: Any
    parse: Callable[[str], Any]
    help: str
    choices: tuple[Any, ...] | None = None

    def read(self, raw: object) -> Any:
        try:
            value = self.parse(raw) if isinstance(raw, str) else raw
        except (TypeError, ValueError) as err:
            raise BadOption(f"option {self.name}: cannot read {raw!r} ({self.help})") from err
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise BadOption(f"option {self.name} is one of {allowed}, not {raw!r}")
        return value


def on_off(text: str) -> bool:
    """Read a yes/no table agreement."""
    lowered = text.strip().lower()
    if lowered in {"on", "yes", "true", "1"}:
        return True
    if lowered in {"off", "no", "false", "0"}:
        return False
    raise ValueError(text)


def one_or_more(text: str) -> int:
    """Read a count the table agrees on that cannot be zero (rounds, lives)."""
    value = int(text)
    if value < 1:
        raise ValueError(text)
    return value


class Ruleset:
    """Base of every ruleset; subclasses define ``id``, ``cells`` and ``cell_points``."""

    id: ClassVar[str]
    name: ClassVar[str]
    kind: ClassVar[str] = "sheet"
    """``sheet``: write a cell each turn; ``duel``: best hand wins the round (poker_dice)."""
    cells: tuple[str, ...] = ()
    game: ClassVar[str | None] = None
    """``module:Class`` of a game that plays its own turns (seed 003's bluff and board)."""
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 6
    dice_count: ClassVar[int] = 5
    max_throws: ClassVar[int] = 3
    rolloff_default: ClassVar[bool] = False
    """Whether a roll-off decides who starts unless the table says otherwise (poker_ru)."""
    OPTIONS: ClassVar[tuple[Option, ...]] = ()

    flow: int = FLOW
    """The whole-game flow the rules serve (:func:`scorer.rules.get_ruleset` sets it)."""

    def __init__(self, options: Mapping[str, object] | None = None) -> None:
        known = {opt.name: opt for opt in self.OPTIONS}
        chosen = {name: opt.default for name, opt in known.items()}
        for name, raw in (options or {}).items():
            if name not in known:
                allowed = ", ".join(known) or "none"
                raise BadOption(f"{self.id} has no option {name!r} (options: {allowed})")
            chosen[name] = known[name].read(raw)
        self.options: Mapping[str, Any] = chosen

    def check_players(self, count: int) -> None:
        """Refuse a table of the wrong size for this ruleset."""
        if not self.min_players <= count <= self.max_players:
            raise BadOption(
                f"{self.id} is played by {self.min_players} to {self.max_players} players,"
                f" not {count}"
            )

    # -- what subclasses define -------------------------------------------------

    def cell_points(self, cell: str, dice: Dice, sheet: Sheet, throw: int) -> int:
        """Points of ``dice`` in ``cell``, assuming the cell may be written now."""
        raise NotImplementedError

    def forbidden(self, cell: str, dice: Dice, sheet: Sheet, throw: int) -> str | None:
        """Why ``cell`` may not take these dice now (None when it may). Closed cells are
        checked before this is asked."""
        return None

    def write_bonus(self, cell: str, dice: Dice, sheet: Sheet, throw: int) -> dict[str, int]:
        """Bonuses earned by the act of writing (yahtzee's +100), beyond the cell's points."""
        return {}

    def bonuses(self, sheet: Sheet) -> dict[str, int]:
        """Every bonus of the sheet, those from the cells and those earned when writing."""
        return dict(sheet.bonus)

    def scratch_points(self, cell: str) -> int:
        """What striking a cell writes: 0 unless a ruleset charges for a failure."""
        return 0

    def phase_forbids(self, cell: str, sheet: Sheet) -> str | None:
        """Why ``cell`` is not yet in play whatever the dice (a later part of the sheet)."""
        return None

    extra_rounds: ClassVar[bool] = False
    """Whether the table may agree extra rounds once the sheet is full (poker_ru)."""

    def extra_round_cell(self, cell: str) -> bool:
        """Whether an extra round may add to ``cell``."""
        return False

    # -- shared behaviour -------------------------------------------------------

    def check_cell(self, cell: str) -> str:
        if cell not in self.cells:
            raise UnknownCell(f"{self.id} has no cell {cell!r} (cells: {', '.join(self.cells)})")
        return cell

    def check_dice(self, dice: Sequence[int]) -> Dice:
        values = tuple(check_value(v) for v in dice)
        if len(values) != self.dice_count:
            raise BadDice(f"{self.id} is played with {self.dice_count} dice, got {len(values)}")
        return values

    def check_throw(self, throw: int, sheet: Sheet | None = None) -> int:
        if isinstance(throw, bool) or not isinstance(throw, int) or throw < 1:
            raise ForbiddenMove(f"the throw number is 1 or more, not {throw!r}")
        if throw > self.max_throws:
            raise ForbiddenMove(f"{self.id} allows at most {self.max_throws} throws a turn")
        return throw

    def open_cells(self, sheet: Sheet) -> tuple[str, ...]:
        return tuple(c for c in self.cells if sheet.is_open(c))

    def why_not(self, cell: str, dice: Dice, sheet: Sheet, throw: int) -> str | None:
        if not sheet.is_open(cell):
            return f"cell {cell} is already written"
        return self.phase_forbids(cell, sheet) or self.forbidden(cell, dice, sheet, throw)

    def points(self, cell: str, dice: Sequence[int], sheet: Sheet, throw: int) -> int:
        """Points that writing ``dice`` into ``cell`` after throw ``throw`` gives now."""
        self.check_cell(cell)
        values = self.check_dice(dice)
        self.check_throw(throw, sheet)
        reason = self.why_not(cell, values, sheet, throw)
        if reason:
            raise ForbiddenMove(reason)
        return self.cell_points(cell, values, sheet, throw)

    def legal_cells(self, dice: Sequence[int], sheet: Sheet, throw: int) -> tuple[str, ...]:
        values = self.check_dice(dice)
        self.check_throw(throw, sheet)
        return tuple(c for c in self.open_cells(sheet) if not self.why_not(c, values, sheet, throw))

    def scores(self, dice: Sequence[int], sheet: Sheet, throw: int) -> dict[str, int]:
        """Every cell that may be written now, with its points, in sheet order."""
        values = self.check_dice(dice)
        return {
            c: self.cell_points(c, values, sheet, throw)
            for c in self.legal_cells(values, sheet, throw)
        }

    def write(self, sheet: Sheet, cell: str, dice: Sequence[int], throw: int) -> Sheet:
        """The sheet after writing ``dice`` into ``cell``; raises if the rules forbid it."""
        values = self.check_dice(dice)
        points = self.points(cell, values, sheet, throw)
        return sheet.written(cell, points, self.write_bonus(cell, values, sheet, throw))

    def scratch(self, sheet: Sheet, cell: str) -> Sheet:
        """The sheet after striking ``cell`` without dice (a failed or skipped cell)."""
        self.check_cell(cell)
        if not sheet.is_open(cell):
            raise ForbiddenMove(f"cell {cell} is already written")
        reason = self.phase_forbids(cell, sheet)
        if reason:
            raise ForbiddenMove(reason)
        return sheet.written(cell, self.scratch_points(cell))

    def total(self, sheet: Sheet) -> int:
        return sum(sheet.cells.values()) + sum(self.bonuses(sheet).values())

    def is_complete(self, sheet: Sheet) -> bool:
        return not self.open_cells(sheet)

    def winners(self, totals: Sequence[float]) -> tuple[int, ...]:
        """Indexes of the players with the highest total: ties share first place."""
        if not totals:
            return ()
        best = max(totals)
        return tuple(i for i, t in enumerate(totals) if t == best)

    def settlement(self, totals: Sequence[float]) -> tuple[float, ...] | None:
        """What each player wins or loses for rulesets played for stakes (None otherwise)."""
        return None

    def throws_allowed(self, sheet: Sheet, committed: str | None = None) -> int:
        """How many throws this turn allows (poker_ru sets them per cell)."""
        return self.max_throws

    def throws_for(self, cell: str) -> int:
        """The throws a cell is allowed on its own: what a banked turn credits (poker_ru)."""
        return self.max_throws

    def needs_commit(self, sheet: Sheet) -> bool:
        """Whether, after the first throw, the player must commit to a number (poker_ru)."""
        return False

    def describe(self) -> dict[str, Any]:
        """The ruleset as the API and ``scorer rulesets`` show it."""
        return {
            "id": self.id,
            "name": self.name,
            "kind": self.kind,
            "cells": list(self.cells),
            "dice": self.dice_count,
            "throws": self.max_throws,
            "extra_rounds": self.extra_rounds,
            "min_players": self.min_players,
            "options": {
                o.name: {"default": o.default, "help": o.help, "choices": o.choices}
                for o in self.OPTIONS
            },
        }


def upper_sum(sheet: Sheet) -> int:
    return sum(sheet.cells.get(c, 0) for c in UPPER)


def face_points(cell: str, dice: Dice) -> int:
    """Ones..sixes: the face times the dice showing it."""
    face = UPPER.index(cell) + 1
    return face * dice.count(face)
