"""``scorer review`` and ``scorer fairness``: the coach after a game, and the dice's honesty."""

from __future__ import annotations

import argparse
import json

from scorer.commands.games import stored_games


def _review(args: argparse.Namespace) -> int:
    from scorer.strategy.review import review

    store = stored_games(args)
    setup = store.setup(args.game)
    events = [e["event"] for e in store.events(args.game)]
    players = review(setup, events)
    if args.json:
        print(json.dumps([p.to_dict() for p in players], ensure_ascii=False))
        return 0
    for player in players:
        print(f"{player.name}: {player.lost:.1f} points lost in {len(player.decisions)} decisions")
        for d in player.costliest():
            dice = " ".join(map(str, d.dice))
            print(
                f"  turn {d.turn}, throw {d.throw}, dice {dice}: {d.made.describe()} cost"
                f" {d.cost:.1f} ({d.best.describe()} was best)"
            )
    return 0


def _fairness(args: argparse.Namespace) -> int:
    from scorer.fairness import table_fairness

    verdicts = table_fairness(stored_games(args), args.set)
    if args.json:
        print(json.dumps([v.to_dict() for v in verdicts], ensure_ascii=False))
        return 0
    if not verdicts:
        print("no dice thrown before the camera yet")
    for v in verdicts:
        counts = "  ".join(f"{face}: {n}" for face, n in enumerate(v.counts, start=1))
        print(f"{v.dice_set}: {v.verdict()}")
        print(f"  {counts}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    db_help = "the SQLite file (default: $SCORER_DATA/scorer.sqlite3)"

    rev = sub.add_parser("review", help="what each decision of a finished game cost")
    rev.add_argument("game", type=int, help="the game id (see `scorer games`)")
    rev.add_argument("--json", action="store_true", help="every decision as JSON")
    rev.add_argument("--db", help=db_help)
    rev.set_defaults(run=_review)

    fair = sub.add_parser("fairness", help="whether the dice are fair, over every stored throw")
    fair.add_argument(
        "--set",
        help="one set of dice only: a set's id (see /setup), or pips / cards for games without one",
    )
    fair.add_argument("--json", action="store_true", help="the counts and test as JSON")
    fair.add_argument("--db", help=db_help)
    fair.set_defaults(run=_fairness)
