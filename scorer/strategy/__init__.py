"""Optimal play: expected-score tables for the solitaire sheet, hints and simulated games.

``hint(ruleset, options, sheet, dice, throw)`` ranks every choice (keep these
dice / write that cell) by its expected final score; ``expected_score`` is a
fresh game's optimum (yahtzee 254.5877 under RULES.md's forced joker, 254.5896
under Verhoeff's free one); ``scorer solve | hint | simulate`` expose them.
"""

from __future__ import annotations

import threading
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


def prepare(
    ruleset_id: str, options: Mapping[str, object] | None = None, directory: Path | None = None
) -> threading.Thread | None:
    """Start building a ruleset's table on a daemon thread unless it is built already, so
    the server can warm it when a game starts rather than make the first hint wait
    (yahtzee ~20 s, yatzy ~40 s here; a Pi several times that). Returns the thread, or
    None when there is nothing to build (or the ruleset has no table)."""
    try:
        model = solitaire(ruleset_id, options)
    except NoStrategy:
        return None
    if is_built(model, directory):
        return None
    worker = threading.Thread(
        target=table,
        args=(model,),
        kwargs={"directory": directory},
        daemon=True,
        name=f"strategy-{model.key}",
    )
    worker.start()
    return worker


__all__ = [
    "SOLVABLE",
    "Choice",
    "ImpossibleSheet",
    "NoStrategy",
    "Solitaire",
    "expected_score",
    "hint",
    "is_built",
    "prepare",
    "solitaire",
    "strategy_dir",
    "table",
]
