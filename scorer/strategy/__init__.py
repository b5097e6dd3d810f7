"""Optimal play: expected-score tables for the solitaire sheet, hints and simulated games.

``hint(ruleset, options, sheet, dice, throw)`` ranks every choice (keep these
dice / write that cell) by its expected final score; ``expected_score`` is a
fresh game's optimum (yahtzee 254.5877 under RULES.md's forced joker, 254.5896
under Verhoeff's free one); ``scorer solve | hint | simulate`` expose them.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from scorer.strategy.hints import Choice, ImpossibleSheet, hint
from scorer.strategy.solitaire import SOLVABLE, NoStrategy, Solitaire, solitaire
from scorer.strategy.tables import is_built, strategy_dir, table


def expected_score(
    ruleset_id: str, options: Mapping[str, object] | None = None, directory: Path | None = None
) -> float:
    """The optimal expected final score of a fresh sheet (builds the table if needed)."""
    return float(table(solitaire(ruleset_id, options), directory=directory)[0, 0, 0])


__all__ = [
    "SOLVABLE",
    "Choice",
    "ImpossibleSheet",
    "NoStrategy",
    "Solitaire",
    "expected_score",
    "hint",
    "is_built",
    "solitaire",
    "strategy_dir",
    "table",
]
