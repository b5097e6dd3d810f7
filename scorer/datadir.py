"""Where the scorer keeps its files: ``$SCORER_DATA``, else ``~/.local/share/dice-scorer``."""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """The data directory (games, photos, strategy tables); created on first use."""
    base = os.environ.get("SCORER_DATA")
    if base:
        path = Path(base)
    else:
        xdg = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        path = Path(xdg) / "dice-scorer"
    path.mkdir(parents=True, exist_ok=True)
    return path


def default_db() -> Path:
    """The SQLite file the server and the CLI share unless ``--db`` says otherwise."""
    return data_dir() / "scorer.sqlite3"
