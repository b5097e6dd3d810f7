"""Building the optimal-play tables: time, size, and each fresh game's expected score.

Builds every table into a temporary directory (or --data DIR), timing wall and
CPU seconds (the dev machine's 2 cores are shared, so wall time varies with the
other engineers' load), and compares each figure with the published one.
Figures to reach: yahtzee within 0.005 of 254.5896 and built in <= 60 s; every
table <= 16 MB on disk.

    .venv/bin/python benchmarks/strategy_solve.py [--only yahtzee] [--data DIR]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np

from scorer.strategy import solitaire, tables
from scorer.strategy.solver import solve

CASES = [
    # ruleset, options, free joker, published figure
    ("generala", {"double_generala": "on"}, False, 162.47),
    ("generala", {"double_generala": "off"}, False, 151.90),
    ("yacht", {}, False, 191.77),
    ("yahtzee", {}, False, 254.5896),
    ("yahtzee", {}, True, 254.5896),
    ("yatzy", {}, False, 248.44),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", help="only these rulesets")
    parser.add_argument("--data", type=Path, help="build into DIR (default: a temporary one)")
    parser.add_argument("--float64", action="store_true", help="also compare with float64")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        directory = args.data or Path(scratch)
        print(f"{'table':<34} {'wall s':>7} {'cpu s':>7} {'MB':>5} {'expected':>10} {'target':>9}")
        for ruleset, options, free, target in CASES:
            if args.only and ruleset not in args.only:
                continue
            model = solitaire(ruleset, options, free_joker=free)
            wall, cpu = time.perf_counter(), time.process_time()
            values = tables.build(model, directory=directory)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            size = tables.table_path(model, directory).stat().st_size / 1e6
            got = float(values[0, 0, 0])
            print(
                f"{model.key:<34} {wall:>7.1f} {cpu:>7.1f} {size:>5.1f} {got:>10.4f} "
                f"{target:>9} (diff {got - target:+.4f})"
            )
            if args.float64:
                exact = solve(model, dtype=np.float64)
                print(f"{'':<34} float64 vs float32: max |diff| {np.abs(exact - values).max():.2e}")


if __name__ == "__main__":
    main()
