"""Hints: for the dice on the tray, every choice ranked by its expected final score.

The writes are scored by :mod:`scorer.rules` itself (so the joker, servida and
bonuses are exactly the game's), plus the solved value of the sheet they leave;
the keeps come from the solver's turn arrays for the current sheet. A choice's
``shortfall`` is how much expected score it gives up against the best one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np

from scorer.errors import ForbiddenMove, ScorerError
from scorer.rules import Sheet, get_ruleset
from scorer.strategy import tables
from scorer.strategy.solitaire import Solitaire, solitaire
from scorer.strategy.solver import States, best_keep, best_write, reachable_uppers, rethrow
from scorer.strategy.throws import DICE, lattice


class ImpossibleSheet(ScorerError):
    """A sheet no game can reach (an upper cell that is not a multiple of its face...)."""


@dataclass(frozen=True)
class Choice:
    """One thing the player may do now, with the expected final score of doing it."""

    kind: Literal["keep", "write"]
    keep: tuple[int, ...] | None
    """Values held (sorted) before the next throw; () re-throws all five."""
    keep_indexes: tuple[int, ...] | None
    """Which of the dice (indexes into the hinted dice) to hold."""
    cell: str | None
    """The cell to write now."""
    expected: float
    """Expected final total of the sheet (points already written included)."""
    shortfall: float
    """How much lower ``expected`` is than the best choice's (0 for the best)."""

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for key in ("keep", "keep_indexes"):
            if data[key] is not None:
                data[key] = list(data[key])
        return data

    def describe(self) -> str:
        """A short line for people: ``keep 5 5 5`` / ``re-throw all`` / ``write sixes``."""
        if self.kind == "write":
            return f"write {self.cell}"
        if not self.keep:
            return "re-throw all"
        return "keep " + " ".join(str(v) for v in self.keep)


def hint(
    ruleset_id: str,
    options: Mapping[str, object] | None,
    sheet: Sheet,
    dice: Sequence[int],
    throw: int,
    *,
    directory: Path | None = None,
) -> list[Choice]:
    """Every choice open after throw ``throw`` with these dice, best first.

    After the last throw only writes remain. Raises :class:`NoStrategy` (a
    :class:`~scorer.errors.ScorerError`) for rulesets without a table; builds and
    caches the table the first time a ruleset is hinted.
    """
    model = solitaire(ruleset_id, options)
    rules = get_ruleset(ruleset_id, options)
    values = rules.check_dice(dice)
    rules.check_throw(throw)
    if rules.is_complete(sheet):
        raise ForbiddenMove("the sheet is full: nothing left to choose")
    state = _state(model, sheet)
    flat = tables.table(model, directory=directory).reshape(-1)
    now = rules.total(sheet)
    found: list[tuple[float, str, tuple[int, ...] | None, tuple[int, ...] | None, str | None]]
    found = []
    for cell in rules.scores(values, sheet, throw):
        after = rules.write(sheet, cell, values, throw)
        found.append((_expected(model, rules, flat, after), "write", None, None, cell))
    if throw < rules.max_throws:
        found.extend(_keeps(model, flat, state, values, throw, rules.max_throws, now))
    found.sort(key=lambda f: (-f[0], f[1] != "write"))
    best = found[0][0]
    return [
        Choice(kind, keep, indexes, cell, round(exp, 4), round(best - exp, 4))  # type: ignore[arg-type]
        for exp, kind, keep, indexes, cell in found
    ]


def _keeps(
    model: Solitaire,
    flat: np.ndarray,
    state: tuple[int, int, int],
    dice: tuple[int, ...],
    throw: int,
    max_throws: int,
    now: int,
) -> list[tuple[float, str, tuple[int, ...], tuple[int, ...], None]]:
    lat = lattice()
    states = States(*(np.array([x], dtype=np.int64) for x in state))
    held_value = best_write(model, flat, states, first=False)  # the dice after the last throw
    for _ in range(throw + 1, max_throws):  # ...and after each earlier re-throw
        held_value = best_keep(rethrow(held_value))
    by_size = rethrow(held_value)
    seen: dict[tuple[int, ...], tuple[int, ...]] = {}
    for bits in range((1 << DICE) - 1):  # keeping all five is writing (or waiting): left out
        indexes = tuple(i for i in range(DICE) if bits >> i & 1)
        seen.setdefault(tuple(sorted(dice[i] for i in indexes)), indexes)
    return [
        (now + float(by_size[len(kept)][0, lat.index(kept)]), "keep", kept, indexes, None)
        for kept, indexes in seen.items()
    ]


def expected_after(
    ruleset_id: str,
    options: Mapping[str, object] | None,
    sheet: Sheet,
    *,
    directory: Path | None = None,
) -> float:
    """The expected final total of a sheet just written: its points plus optimal play after.

    A write's price in :func:`hint`; the review prices strikes, which hints leave out, the same way.
    """
    model = solitaire(ruleset_id, options)
    rules = get_ruleset(ruleset_id, options)
    _state(model, sheet)
    return _expected(model, rules, tables.table(model, directory=directory).reshape(-1), sheet)


def _expected(model: Solitaire, rules: Any, flat: np.ndarray, sheet: Sheet) -> float:
    future = 0.0 if rules.is_complete(sheet) else float(flat[_index(model, sheet)])
    return rules.total(sheet) + future


def _state(model: Solitaire, sheet: Sheet) -> tuple[int, int, int]:
    unknown = set(sheet.cells) - set(model.cells)
    if unknown:
        raise ImpossibleSheet(f"{model.ruleset} has no cell {sorted(unknown)[0]!r}")
    mask, up, flag = model.state(sheet.cells)
    if model.upper_bonus and not reachable_uppers()[mask & 63, up]:
        raise ImpossibleSheet(f"no {model.ruleset} game reaches these number cells")
    return mask, up, flag


def _index(model: Solitaire, sheet: Sheet) -> int:
    mask, up, flag = model.state(sheet.cells)
    _, uppers, flags = model.shape
    return (mask * uppers + up) * flags + flag
