"""Solved tables on disk: built on first use, cached in the data directory.

Why build rather than ship: the tables are 4 MB (yahtzee) and 8 MB (yatzy) of
float32 that do not compress (their figures are all different), over the ~2 MB
a file may weigh in the repository and the wheel, and they must be rebuilt
whenever a rule detail changes. Building is deterministic and quick (yahtzee
under 60 s, yatzy under 2 min on a 2-core x86; a Pi 5 a few times that), so
``scorer solve RULESET`` builds them ahead (the Pi installer can run it), and a
hint on a table not built yet builds it once, logs a line and caches it. The
file name carries a fingerprint of the scoring tables and the solver version,
so a changed rule never reads a stale table.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np

from scorer.datadir import data_dir
from scorer.strategy.solitaire import Solitaire
from scorer.strategy.solver import Progress, solve

log = logging.getLogger(__name__)

SOLVER_VERSION = 1
"""Raise when the solver's meaning of a table changes: old files are then ignored."""

_loaded: dict[str, np.ndarray] = {}
_locks: dict[str, threading.Lock] = {}
_locks_lock = threading.Lock()


def strategy_dir() -> Path:
    """``$SCORER_DATA/strategy`` (default ``~/.local/share/dice-scorer/strategy``)."""
    return data_dir() / "strategy"


def fingerprint(model: Solitaire) -> str:
    """A short hash of everything the table depends on."""
    digest = hashlib.sha256()
    digest.update(f"{SOLVER_VERSION}|{model.key}|{model.cells}|{model.upper_bonus}".encode())
    digest.update(f"{model.flag_cell}|{model.flagged_cell}|{model.joker_forced}".encode())
    digest.update(model.points_first.tobytes())
    digest.update(model.points_later.tobytes())
    return digest.hexdigest()[:12]


def table_path(model: Solitaire, directory: Path | None = None) -> Path:
    return (directory or strategy_dir()) / f"{model.key}.{fingerprint(model)}.npy"


def is_built(model: Solitaire, directory: Path | None = None) -> bool:
    return memo_key(model, directory) in _loaded or table_path(model, directory).exists()


def build(
    model: Solitaire, progress: Progress | None = None, directory: Path | None = None
) -> np.ndarray:
    """Solve ``model`` and write its table (atomically: a half-written file never shows)."""
    values = solve(model, progress)
    path = table_path(model, directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    with partial.open("wb") as out:
        np.save(out, values)
    partial.replace(path)
    _loaded[memo_key(model, directory)] = values
    return values


def table(
    model: Solitaire,
    progress: Progress | None = None,
    directory: Path | None = None,
    on_build: Callable[[Solitaire], None] | None = None,
) -> np.ndarray:
    """The solved table of ``model``: from memory, else from disk, else built now
    (once: a second caller for the same table waits for the first)."""
    memo = memo_key(model, directory)
    if memo in _loaded:
        return _loaded[memo]
    with _locks_lock:
        lock = _locks.setdefault(memo, threading.Lock())
    with lock:
        if memo in _loaded:
            return _loaded[memo]
        path = table_path(model, directory)
        if path.exists():
            try:
                values = np.load(path)
            except (OSError, ValueError):
                values = None
            if values is not None and values.shape == model.shape:
                _loaded[memo] = values
                return values
            log.warning("strategy table %s is damaged; building it again", path)
        log.info("strategy table for %s not built yet: building it (once)", model.key)
        if on_build:
            on_build(model)
        return build(model, progress, directory)


def forget() -> None:
    """Drop the tables held in memory (tests use it to read from disk again)."""
    _loaded.clear()


def memo_key(model: Solitaire, directory: Path | None) -> str:
    return f"{directory or strategy_dir()}|{model.key}|{fingerprint(model)}"
