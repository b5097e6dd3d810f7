"""Games on disk: SQLite, one append-only log of events per game.

The state of a game is never stored, only the events that made it, each
committed in its own transaction before the caller hears "done". A crash, a
``kill -9`` or a pulled power cable therefore loses nothing acknowledged and
leaves nothing half-written: a transaction is in the log whole or not at all.

Power loss, not only process crashes: the database runs in WAL mode with
``synchronous=FULL``, so each commit is fsynced to the WAL before it returns
(``NORMAL`` would be safe from crashes but may drop the last commits when the
power goes).
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import threading
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from scorer.errors import ScorerError, StaleState, UnknownGame
from scorer.game import Game, Setup

SCHEMA_VERSION = 2

# Each migration takes the database from version i to i + 1, in one transaction.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        created TEXT NOT NULL,
        setup TEXT NOT NULL
    );
    CREATE TABLE events (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        at TEXT NOT NULL,
        event TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID;
    """,
    # v2: a summary kept beside the log so /history lists games without replaying them.
    """
    ALTER TABLE games ADD COLUMN finished INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN summary TEXT NOT NULL DEFAULT '{}';
    """,
)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Store:
    """The games of one table, in one SQLite file.

    >>> import tempfile, os
    >>> store = Store(os.path.join(tempfile.mkdtemp(), "games.sqlite3"))
    >>> game_id, game = store.create(Setup("yacht", ("Anna",)))
    >>> store.act(game_id, {"type": "throw", "dice": [6, 6, 6, 6, 6]}).values
    (6, 6, 6, 6, 6)
    """

    def __init__(self, path: str | Path) -> None:
        if str(path) == ":memory:":
            raise ScorerError("the store keeps games on disk: give it a file path")
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._cache: dict[int, Game] = {}
        self._db = sqlite3.connect(
            self.path, check_same_thread=False, isolation_level=None, timeout=30
        )
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._migrate()

    # -- schema ------------------------------------------------------------------

    @property
    def schema_version(self) -> int:
        return self._db.execute("PRAGMA user_version").fetchone()[0]

    def _migrate(self) -> None:
        with self._lock:
            version = self.schema_version
            if version > SCHEMA_VERSION:
                raise ScorerError(
                    f"{self.path} was written by a newer scorer (schema {version}); upgrade first"
                )
            for target in range(version + 1, SCHEMA_VERSION + 1):
                with self._transaction():
                    for statement in MIGRATIONS[target - 1].split(";"):
                        if statement.strip():
                            self._db.execute(statement)
                    self._db.execute(f"PRAGMA user_version = {target}")

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- games -------------------------------------------------------------------

    def create(self, setup: Setup) -> tuple[int, Game]:
        """Store a new game; returns its id and starting state."""
        game = Game.start(setup)
        with self._lock, self._transaction():
            cursor = self._db.execute(
                "INSERT INTO games (created, setup, summary) VALUES (?, ?, ?)",
                (_now(), json.dumps(setup.to_dict()), json.dumps(_summary(game))),
            )
            game_id = int(cursor.lastrowid)
        self._cache[game_id] = game
        return game_id, game

    def setup(self, game_id: int) -> Setup:
        row = self._db.execute("SELECT setup FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise UnknownGame(f"there is no game {game_id}")
        return Setup.stored(json.loads(row[0]))

    def load(self, game_id: int) -> Game:
        """The current state of a game, rebuilt from its log (cached between calls)."""
        with self._lock:
            if game_id not in self._cache:
                setup = self.setup(game_id)
                events = [e["event"] for e in self.events(game_id)]
                self._cache[game_id] = Game.replay(setup, events)
            return self._cache[game_id]

    def act(
        self,
        game_id: int,
        event: Mapping[str, Any],
        expected_version: int | None = None,
        after_append: Callable[[Game], None] | None = None,
    ) -> Game:
        """Apply one player action; it is on disk before this returns.

        Raises (and stores nothing) if the rules forbid it, or if the caller saw
        an older version of the game than the stored one (two phones at once).
        """
        with self._lock:
            game = self.load(game_id)
            if expected_version is not None and expected_version != game.version:
                raise StaleState(
                    f"the game moved on (version {game.version}, you saw {expected_version})"
                )
            after = game.apply(event)
            stored = json.dumps(dict(event), separators=(",", ":"))
            with self._transaction():
                self._db.execute(
                    "INSERT INTO events (game_id, seq, at, event) VALUES (?, ?, ?, ?)",
                    (game_id, after.version, _now(), stored),
                )
                self._db.execute(
                    "UPDATE games SET finished = ?, summary = ? WHERE id = ?",
                    (int(after.finished), json.dumps(_summary(after)), game_id),
                )
            self._cache[game_id] = after
            if after_append is not None:
                after_append(after)
            return after

    def events(self, game_id: int) -> list[dict[str, Any]]:
        """The log of a game, oldest first: ``{"seq", "at", "event"}``."""
        self.setup(game_id)
        rows = self._db.execute(
            "SELECT seq, at, event FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        return [{"seq": seq, "at": at, "event": json.loads(event)} for seq, at, event in rows]

    def games(self) -> list[dict[str, Any]]:
        """Every game, newest first, with players, totals and winners."""
        rows = self._db.execute(
            "SELECT id, created, setup, finished, summary FROM games ORDER BY id DESC"
        ).fetchall()
        listing = []
        for game_id, created, setup, finished, summary in rows:
            info = json.loads(setup)
            listing.append(
                {
                    "id": game_id,
                    "created": created,
                    "ruleset": info["ruleset"],
                    "players": info["players"],
                    "finished": bool(finished),
                    **json.loads(summary),
                }
            )
        return listing

    # -- getting data out ---------------------------------------------------------------

    def export(self, game_id: int, fmt: str = "json") -> str:
        """One game as JSON (setup, log, final state) or CSV (one row per event)."""
        game = self.load(game_id)
        events = self.events(game_id)
        if fmt == "json":
            return json.dumps(
                {
                    "id": game_id,
                    "setup": game.setup.to_dict(),
                    "events": events,
                    "state": game.state(),
                },
                ensure_ascii=False,
                indent=2,
            )
        if fmt == "csv":
            return _events_csv(game.setup, events)
        raise ScorerError(f"export formats are json and csv, not {fmt!r}")

    def backup(self, destination: str | Path) -> Path:
        """A consistent copy of the whole database, safe while the server writes."""
        target = Path(destination)
        if target.exists():
            raise ScorerError(f"{target} exists already; choose a new file for the backup")
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".partial")
        copy = sqlite3.connect(partial)
        try:
            with self._lock:
                self._db.backup(copy)
        finally:
            copy.close()
        partial.replace(target)
        return target


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any error."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        if kind is None:
            self._db.execute("COMMIT")
        else:
            self._db.execute("ROLLBACK")


def _summary(game: Game) -> dict[str, Any]:
    return {"totals": list(game.totals()), "winners": list(game.winners()), "version": game.version}


def _events_csv(setup: Setup, events: list[dict[str, Any]]) -> str:
    """Replay the log, writing who did what with which dice, and the points written."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["seq", "at", "player", "action", "dice", "cell", "points", "total"])
    game = Game.start(setup)
    for row in events:
        event = row["event"]
        player = game.player
        before = game
        game = game.apply(event)
        cell = event.get("cell", "")
        points = ""
        if event["type"] in ("write", "scratch") and not game.is_duel:
            points = game.sheets[player].cells.get(cell, 0) - before.sheets[player].cells.get(
                cell, 0
            )
        dice = " ".join(str(d.value) for d in (game.dice or before.dice))
        writer.writerow(
            [
                row["seq"],
                row["at"],
                setup.players[player],
                event["type"],
                dice,
                cell,
                points,
                game.totals()[player],
            ]
        )
    return out.getvalue()
