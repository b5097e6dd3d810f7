"""What a move of seed 003's bluff and board costs the table: the state every page gets.

Each move is published as ``Game.state()``; bluff's state carries the claim
picker (every claim higher than the last) and board's the squares the dice
take, so these are the figures that grow with the games' rules. Also times
rebuilding a whole played game from its log (what the store does on a cold
start). Prints the median of ``--n`` runs of each.

    .venv/bin/python benchmarks/seed003_state.py [--n 300]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from scorer.game import Game, Setup


def median_ms(action: Callable[[], object], n: int) -> float:
    action()  # caches warm, as on a running table
    times = []
    for _ in range(n):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def board_game(rng: random.Random) -> tuple[Setup, list[dict]]:
    """A board game played by random throws to its end (or 400 turns)."""
    setup = Setup("poker_board", ("Anna", "Borys"))
    game, events = Game.start(setup), []
    while not game.finished and len(events) < 1200:
        event = {"type": "throw", "dice": [rng.randint(1, 6) for _ in range(5)]}
        game = game.apply(event)
        events.append(event)
        state = game.state()["board"]
        if state["places"]:
            move = {"type": "place", "square": rng.choice(state["places"])}
        elif state["removable"]:
            move = {"type": "remove", "square": rng.choice(state["removable"])}
        else:
            move = {"type": "pass"}
        game = game.apply(move)
        events.append(move)
    return setup, events


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=300)
    args = parser.parse_args()
    bluff = Game.start(Setup("poker_bluff", ("Anna", "Borys", "Vera")))
    opening = bluff.apply({"type": "claim", "hand": "pair", "ranks": [1]})
    called = opening.apply({"type": "call"}).apply({"type": "throw", "dice": [1, 1, 2, 3, 5]})
    print(
        f"bluff state, claim picker open ({len(opening.state()['bluff']['next_claims'])} claims):"
        f" {median_ms(opening.state, args.n):.2f} ms"
    )
    print(f"bluff state, a reveal with its verdict: {median_ms(called.state, args.n):.2f} ms")
    board = Game.start(Setup("poker_board", ("Anna", "Borys"))).apply(
        {"type": "throw", "dice": [6, 6, 6, 6, 6]}
    )
    print(f"board state, five of a kind lit (78 squares): {median_ms(board.state, args.n):.2f} ms")
    setup, events = board_game(random.Random(1))
    played = Game.replay(setup, events)
    print(
        f"board game rebuilt from its log ({len(events)} events, "
        f"{'finished' if played.finished else 'unfinished'}): "
        f"{median_ms(lambda: Game.replay(setup, events), max(1, args.n // 30)):.1f} ms"
    )


if __name__ == "__main__":
    main()
