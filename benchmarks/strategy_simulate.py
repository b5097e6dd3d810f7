"""Optimal play with random dice: the mean must sit within 1.3 of the solved optimum.

Figures to reach: ``scorer simulate yahtzee --games 20000`` mean within 1.3 of
254.59, sd about 59.6. Uses the table in --data DIR or the data directory
(built first if missing, not timed).

    .venv/bin/python benchmarks/strategy_simulate.py [--ruleset yahtzee] [--games 20000]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from scorer.strategy import solitaire, tables
from scorer.strategy.simulation import simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="yahtzee")
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--data", type=Path)
    args = parser.parse_args()
    model = solitaire(args.ruleset)
    values = tables.table(model, directory=args.data)
    started = time.perf_counter()
    scores = simulate(model, values, args.games, args.seed)
    seconds = time.perf_counter() - started
    mean, sd = scores.mean(), scores.std(ddof=1)
    optimum = float(values[0, 0, 0])
    print(
        f"{model.key}: {args.games} games in {seconds:.1f} s: mean {mean:.2f} "
        f"(optimum {optimum:.4f}, diff {mean - optimum:+.2f}, standard error "
        f"{sd / args.games**0.5:.2f}), sd {sd:.2f}, min {scores.min()}, max {scores.max()}"
    )


if __name__ == "__main__":
    main()
