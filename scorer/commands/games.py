"""``scorer games``, ``scorer export`` and ``scorer backup``: stored games from the shell."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from scorer.datadir import default_db
from scorer.errors import ScorerError


def stored_games(args: argparse.Namespace):  # -> Store, imported late: `scorer --help` stays fast
    """The store named by ``--db`` (or the default one), which must exist."""
    from scorer.store import Store

    path = Path(args.db) if args.db else default_db()
    if not path.exists():
        raise ScorerError(f"no database at {path} (give --db PATH)")
    return Store(path)


def _games(args: argparse.Namespace) -> int:
    for game in stored_games(args).games():
        if args.json:
            print(json.dumps(game, ensure_ascii=False))
            continue
        players = ", ".join(
            f"{name} {total}" for name, total in zip(game["players"], game["totals"], strict=False)
        )
        state = "finished" if game["finished"] else "in play"
        when = game["created"][:16]
        print(f"{game['id']:>4}  {when}  {game['ruleset']:<10} {state:<8} {players}")
    return 0


def _export(args: argparse.Namespace) -> int:
    text = stored_games(args).export(args.game, args.format)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


def _backup(args: argparse.Namespace) -> int:
    target = stored_games(args).backup(args.destination)
    print(f"backed up to {target}")
    sets = (Path(args.db) if args.db else default_db()).parent / "dice-sets"
    if sets.is_dir() and any(sets.iterdir()):
        import shutil

        copy = target.with_name(target.name + ".dice-sets")
        shutil.copytree(sets, copy, ignore=shutil.ignore_patterns("*.tmp", ".profile-*"))
        print(f"the table's sets of dice (taught profiles) copied to {copy}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    db_help = "the SQLite file (default: $SCORER_DATA/scorer.sqlite3)"

    games = sub.add_parser("games", help="list stored games")
    games.add_argument("--db", help=db_help)
    games.add_argument("--json", action="store_true", help="one JSON object per game")
    games.set_defaults(run=_games)

    export = sub.add_parser("export", help="write one game as JSON or CSV")
    export.add_argument("game", type=int, help="the game id (see `scorer games`)")
    export.add_argument("--format", choices=("json", "csv"), default="json")
    export.add_argument("--output", "-o", help="a file instead of standard output")
    export.add_argument("--db", help=db_help)
    export.set_defaults(run=_export)

    backup = sub.add_parser(
        "backup",
        help="a consistent copy of the database, safe while serving (and of the taught dice sets)",
    )
    backup.add_argument("destination", help="the new file to write")
    backup.add_argument("--db", help=db_help)
    backup.set_defaults(run=_backup)
