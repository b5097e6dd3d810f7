"""A player's scoresheet: the cells written so far and the bonuses earned while writing."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any


def _frozen(mapping: Mapping[str, int] | None) -> Mapping[str, int]:
    return MappingProxyType(dict(mapping or {}))


@dataclass(frozen=True)
class Sheet:
    """Written cells (cell id -> points) and bonuses earned at write time.

    Bonuses that depend only on the cells (the upper bonus, the premium) are
    computed by the ruleset; ``bonus`` holds those that depend on *when* a cell
    was written, such as yahtzee's +100 per extra yahtzee.

    >>> Sheet().written("ones", 3).cells["ones"]
    3
    """

    cells: Mapping[str, int] = field(default_factory=dict)
    bonus: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", _frozen(self.cells))
        object.__setattr__(self, "bonus", _frozen(self.bonus))

    def is_open(self, cell: str) -> bool:
        return cell not in self.cells

    def written(self, cell: str, points: int, bonus: Mapping[str, int] | None = None) -> Sheet:
        """A new sheet with ``points`` added to ``cell`` (extra rounds add to a written cell)."""
        cells = dict(self.cells)
        cells[cell] = cells.get(cell, 0) + points
        earned = dict(self.bonus)
        for name, value in (bonus or {}).items():
            earned[name] = earned.get(name, 0) + value
        return Sheet(cells, earned)

    def to_dict(self) -> dict[str, Any]:
        return {"cells": dict(self.cells), "bonus": dict(self.bonus)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Sheet:
        return cls(dict(data.get("cells", {})), dict(data.get("bonus", {})))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sheet):
            return NotImplemented
        return dict(self.cells) == dict(other.cells) and dict(self.bonus) == dict(other.bonus)

    def __hash__(self) -> int:
        return hash((frozenset(self.cells.items()), frozenset(self.bonus.items())))
