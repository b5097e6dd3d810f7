"""What a game's review costs once the ruleset's table is built.

Plays 20 solo yahtzee games with random keeps and writes (a table's players
are not optimal: many priced keeps), then times :func:`scorer.strategy.review.review`
over each whole log. The table is built first (and its time printed apart), as
`scorer solve` or the first hint leaves it on a real table.

    .venv/bin/python benchmarks/review_speed.py
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from scorer.game import Game, Setup
from scorer.strategy import solitaire, tables
from scorer.strategy.review import review

GAMES = 20


def random_game(seed: int) -> list[dict]:
    """A solo yahtzee game of random holds and random open cells (two re-throws a turn)."""
    rng = random.Random(seed)
    game = Game.start(Setup("yahtzee", ("Ann",)))
    events: list[dict] = []
    while not game.finished:
        for throw in range(3):
            free = 5 if throw == 0 else 5 - sum(d.held for d in game.dice)
            event = {"type": "throw", "dice": [rng.randint(1, 6) for _ in range(free)]}
            game = game.apply(event)
            events.append(event)
            if throw < 2:
                held = [i for i in range(5) if rng.random() < 0.5]
                held = held if len(held) < 5 else held[:4]
                game = game.apply({"type": "hold", "held": held})
                events.append({"type": "hold", "held": held})
        cell = rng.choice(list(game.scores()))
        game = game.apply({"type": "write", "cell": cell})
        events.append({"type": "write", "cell": cell})
    return events


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="review-bench-"))
    started = time.perf_counter()
    tables.table(solitaire("yahtzee", {}), directory=folder)
    print(f"yahtzee table built in {time.perf_counter() - started:.1f} s (once per table)")
    setup = Setup("yahtzee", ("Ann",))
    times, decisions = [], 0
    for seed in range(GAMES):
        events = random_game(seed)
        started = time.perf_counter()
        (player,) = review(setup, events, directory=folder)
        times.append(time.perf_counter() - started)
        decisions += len(player.decisions)
    print(
        f"review of a yahtzee game ({decisions / GAMES:.0f} decisions): "
        f"median {statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms "
        f"over {GAMES} games (target <= 1 s)"
    )


if __name__ == "__main__":
    main()
