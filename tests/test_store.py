"""The store: an append-only log per game on disk, that a crash cannot corrupt."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time

import pytest

from scorer.cli import main
from scorer.errors import ForbiddenMove, ScorerError, StaleState, UnknownGame
from scorer.game import Setup
from scorer.store import SCHEMA_VERSION, Store


@pytest.fixture
def store(tmp_path):
    store = Store(tmp_path / "games.sqlite3")
    yield store
    store.close()


def test_a_game_survives_reopening_the_file(store, tmp_path):
    # given a game with a throw and a write
    game_id, _ = store.create(Setup("yahtzee", ("Anna", "Borys")))
    store.act(game_id, {"type": "throw", "dice": [1, 2, 3, 4, 5]})
    store.act(game_id, {"type": "write", "cell": "large_straight"})
    # when another process opens the same file
    again = Store(tmp_path / "games.sqlite3")
    # then it rebuilds the same state from the log
    assert again.load(game_id).state() == store.load(game_id).state()
    assert again.load(game_id).totals() == (40, 0)
    assert [e["event"]["type"] for e in again.events(game_id)] == ["throw", "write"]


def test_a_refused_action_stores_nothing(store):
    game_id, _ = store.create(Setup("yahtzee", ("Anna",)))
    store.act(game_id, {"type": "throw", "dice": [6, 6, 6, 6, 6]})
    with pytest.raises(ScorerError):
        store.act(game_id, {"type": "throw", "dice": [6, 6, 6, 6, 9]})
    with pytest.raises(ScorerError, match="no cell 'x'"):
        store.act(game_id, {"type": "write", "cell": "x"})
    store.act(game_id, {"type": "throw", "dice": [6, 6, 6, 6, 6]})
    store.act(game_id, {"type": "throw", "dice": [6, 6, 6, 6, 6]})
    with pytest.raises(ForbiddenMove, match="no throws left"):
        store.act(game_id, {"type": "throw", "dice": [6, 6, 6, 6, 6]})
    assert len(store.events(game_id)) == 3
    assert Store(store.path).load(game_id).version == 3


def test_a_stale_version_is_refused_like_a_second_phone(store):
    game_id, _ = store.create(Setup("yahtzee", ("Anna", "Borys")))
    store.act(game_id, {"type": "throw", "dice": [2, 2, 2, 3, 3]}, expected_version=0)
    store.act(game_id, {"type": "write", "cell": "full_house"}, expected_version=1)
    # the second phone still thinks the game is at version 1
    with pytest.raises(StaleState, match="moved on"):
        store.act(game_id, {"type": "write", "cell": "twos"}, expected_version=1)
    assert store.load(game_id).version == 2


def test_unknown_games_are_named(store):
    with pytest.raises(UnknownGame, match="no game 42"):
        store.load(42)


def test_export_json_and_csv(store):
    game_id, _ = store.create(Setup("yacht", ("Олег",)))
    store.act(game_id, {"type": "throw", "dice": [4, 4, 4, 4, 4]})
    store.act(game_id, {"type": "write", "cell": "yacht"})
    data = json.loads(store.export(game_id, "json"))
    assert data["state"]["totals"] == [50]
    assert data["setup"]["players"] == ["Олег"]
    rows = store.export(game_id, "csv").splitlines()
    assert rows[0] == "seq,at,player,action,dice,cell,points,total"
    assert rows[2].endswith(",Олег,write,4 4 4 4 4,yacht,50,50")
    with pytest.raises(ScorerError, match="json and csv"):
        store.export(game_id, "xml")


def test_cli_export_and_backup(store, tmp_path, capsys):
    game_id, _ = store.create(Setup("yacht", ("A",)))
    store.act(game_id, {"type": "throw", "dice": [1, 1, 1, 1, 1]})
    db = str(store.path)
    assert main(["export", str(game_id), "--format", "csv", "--db", db]) == 0
    assert "throw,1 1 1 1 1" in capsys.readouterr().out
    assert main(["backup", str(tmp_path / "copy.sqlite3"), "--db", db]) == 0
    assert Store(tmp_path / "copy.sqlite3").load(game_id).values == (1, 1, 1, 1, 1)
    # a backup never overwrites a file
    assert main(["backup", str(tmp_path / "copy.sqlite3"), "--db", db]) == 2
    assert "exists already" in capsys.readouterr().err
    assert main(["export", "99", "--db", db]) == 2


def test_an_old_database_is_migrated(tmp_path):
    # given a database at schema 1 (no summary column)
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(
        """
        CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, created TEXT NOT NULL,
                            setup TEXT NOT NULL);
        CREATE TABLE events (game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
                             at TEXT NOT NULL, event TEXT NOT NULL,
                             PRIMARY KEY (game_id, seq)) WITHOUT ROWID;
        PRAGMA user_version = 1;
        """
    )
    setup = Setup("yacht", ("A",)).to_dict()
    old.execute("INSERT INTO games (created, setup) VALUES ('2026-01-01', ?)", (json.dumps(setup),))
    old.execute(
        "INSERT INTO events VALUES (1, 1, '2026-01-01', ?)",
        (json.dumps({"type": "throw", "dice": [2, 2, 2, 2, 2]}),),
    )
    old.commit()
    old.close()
    # when the scorer opens it
    store = Store(path)
    # then it is at the current schema and the game is intact
    assert store.schema_version == SCHEMA_VERSION
    assert store.load(1).values == (2, 2, 2, 2, 2)
    assert store.games()[0]["finished"] is False


def test_a_newer_database_is_refused(tmp_path):
    path = tmp_path / "new.sqlite3"
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(ScorerError, match="newer scorer"):
        Store(path)


WRITER = textwrap.dedent(
    """
    import random, sys
    from scorer.game import Setup
    from scorer.store import Store
    store = Store(sys.argv[1])
    rng = random.Random(int(sys.argv[2]))
    game_id, game = store.create(Setup("yahtzee", ("A", "B")))
    print("game", game_id, flush=True)
    while not game.finished:
        if game.throw == 0:
            event = {"type": "throw", "dice": [rng.randint(1, 6) for _ in range(5)]}
        else:
            event = {"type": "write", "cell": game.best_cell()}
        game = store.act(game_id, event)
        print("ack", game.version, flush=True)
    """
)


@pytest.mark.parametrize("seed", range(4))
def test_kill_9_while_writing_loses_no_acknowledged_action(tmp_path, seed):
    # given a process writing a game as fast as it can
    db = tmp_path / "killed.sqlite3"
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(db), str(seed)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": os.getcwd()},
    )
    game_id = int(proc.stdout.readline().split()[1])
    acked = 0
    deadline = time.monotonic() + 0.15 + 0.1 * seed
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        acked = int(line.split()[1])
    # when it is killed with SIGKILL mid-stream
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    proc.stdout.close()
    # then every acknowledged action is on disk, and the log replays cleanly
    store = Store(db)
    game = store.load(game_id)
    assert acked > 0
    assert game.version >= acked
    seqs = [e["seq"] for e in store.events(game_id)]
    assert seqs == list(range(1, game.version + 1))
    # and the game goes on
    event = {"type": "throw", "dice": [1, 2, 3, 4, 5]}
    if game.throw:
        event = {"type": "write", "cell": game.best_cell()}
    if not game.finished:
        assert store.act(game_id, event).version == game.version + 1
