"""Optimal play: expected-score tables for the solitaire sheet, hints and simulated games.

``hint(ruleset, options, sheet, dice, throw)`` ranks every choice (keep these
dice / write that cell) by its expected final score; ``expected_score`` is a
fresh game's optimum (yahtzee 254.5877 under RULES.md's forced joker, 254.5896
under Verhoeff's free one); ``scorer solve | hint | simulate`` expose them.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from pathlib import Path

from scorer.strategy.hints import Choice, ImpossibleSheet, hint
from scorer.strategy.solitaire import SOLVABLE, NoStrategy, Solitaire, solitaire
from scorer.strategy.tables import is_built, memo_key, strategy_dir, table

log = logging.getLogger(__name__)
_warming: dict[str, threading.Thread] = {}
_warming_lock = threading.Lock()


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
    (yahtzee ~20 s, yatzy ~40 s here; a Pi several times that). Returns the building
    thread (the same one to every caller while it runs), or None when there is nothing
    to build (or the ruleset has no table)."""
    try:
        model = solitaire(ruleset_id, options)
    except NoStrategy:
        return None
    if is_built(model, directory):
        return None
    key = memo_key(model, directory)
    with _warming_lock:
        running = _warming.get(key)
        if running is not None and running.is_alive():
            return running
        worker = threading.Thread(
            target=_warm, args=(model, directory), daemon=True, name=f"strategy-{model.key}"
        )
        _warming[key] = worker
        worker.start()
    return worker


def _warm(model: Solitaire, directory: Path | None) -> None:
    try:
        table(model, directory=directory)
    except Exception:  # a daemon thread must not die silently; the next hint says what is wrong
        log.exception("building the strategy table for %s failed", model.key)


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
