"""How long a hint takes from a built table: the figure to reach is <= 20 ms.

Plays random yahtzee sheets to random points of a game (writing random throws
with scorer.rules), then times ``hint`` for random dice after throws 1, 2 and 3.
The table comes from --data DIR or the data directory; if it is not built there
it is built first (not timed). The first hint of a process also loads the table
from disk: that load is printed apart.

    .venv/bin/python benchmarks/strategy_hints.py [--ruleset yahtzee] [--n 300]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from scorer.rules import Sheet, get_ruleset
from scorer.strategy import hint, solitaire, tables


def random_sheet(rules, rng: random.Random) -> Sheet:
    sheet = Sheet()
    for _ in range(rng.randrange(len(rules.cells))):
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        cells = list(rules.scores(dice, sheet, 3))
        sheet = rules.write(sheet, rng.choice(cells), dice, 3)
    return sheet


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="yahtzee")
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--data", type=Path)
    args = parser.parse_args()
    rules = get_ruleset(args.ruleset)
    model = solitaire(args.ruleset)
    if not tables.is_built(model, args.data):
        print(f"building the {args.ruleset} table first (not timed)...")
        tables.build(model, directory=args.data)
    tables.forget()
    rng = random.Random(1)
    cases = [
        (random_sheet(rules, rng), tuple(rng.randint(1, 6) for _ in range(5)), rng.randint(1, 3))
        for _ in range(args.n)
    ]
    started = time.perf_counter()
    tables.table(model, directory=args.data)
    load_ms = (time.perf_counter() - started) * 1000
    times = []
    for sheet, dice, throw in cases:
        started = time.perf_counter()
        hint(args.ruleset, {}, sheet, dice, throw, directory=args.data)
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    print(f"{args.ruleset}: table load from disk {load_ms:.1f} ms (once per process)")
    print(
        f"hint over {len(times)} random situations: median {statistics.median(times):.2f} ms, "
        f"p95 {times[int(0.95 * len(times))]:.2f} ms, max {times[-1]:.2f} ms (target <= 20 ms)"
    )


if __name__ == "__main__":
    main()
