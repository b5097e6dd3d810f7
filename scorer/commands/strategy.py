"""``scorer solve``, ``scorer hint`` and ``scorer simulate``: optimal play from the shell.

``scorer solve yahtzee`` builds (once) and caches the table of optimal
expected scores and prints a fresh game's figure; ``scorer hint yahtzee
--sheet ones=3,yahtzee=50 --throw 2 6 6 6 2 1`` ranks what to do with these
dice; ``scorer simulate yahtzee --games 20000`` plays that many games by the
optimal policy with random dice and prints the mean and standard deviation.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from scorer.errors import ScorerError

RULESETS_HELP = "yahtzee, yatzy, yacht or generala"


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``solve``, ``hint`` and ``simulate`` to the ``scorer`` command."""
    solve = subparsers.add_parser(
        "solve",
        help="build the optimal-play table of a ruleset and print a fresh game's expected score",
        description=(
            "Build (once; cached under $SCORER_DATA/strategy) the table of optimal expected "
            "scores of RULESET and print the expected final score of a fresh game."
        ),
    )
    _common(solve)
    solve.add_argument("--force", action="store_true", help="build again even if cached")
    solve.add_argument(
        "--free-joker",
        action="store_true",
        help="yahtzee: Verhoeff's free joker instead of RULES.md's forced one (for comparison)",
    )
    solve.set_defaults(run=run_solve)

    hint = subparsers.add_parser(
        "hint",
        help="rank what to do with the dice on the tray by expected final score",
        description=(
            "Rank every choice (keep these dice and re-throw / write that cell) by the "
            "expected final score of optimal play. Dice are 1..6 or 9 10 J Q K A."
        ),
    )
    _common(hint)
    hint.add_argument(
        "--sheet",
        default="",
        metavar="SHEET",
        help=(
            "the written cells: 'ones=3,yahtzee=50', a JSON object like "
            '\'{"cells": {"ones": 3}, "bonus": {"yahtzee_bonus": 100}}\', or @FILE with that JSON'
        ),
    )
    hint.add_argument(
        "--throw", type=int, default=1, metavar="N", help="the throw just made, 1..3 (default 1)"
    )
    hint.add_argument("--top", type=int, default=10, metavar="K", help="show the K best (10)")
    hint.add_argument("--json", action="store_true", help="print the choices as a JSON array")
    hint.add_argument("dice", nargs="+", metavar="DICE", help="the five dice")
    hint.set_defaults(run=run_hint)

    simulate = subparsers.add_parser(
        "simulate",
        help="play games by the optimal policy with random dice; print mean and deviation",
        description="Play N games by the optimal policy with random dice.",
    )
    _common(simulate)
    simulate.add_argument("--games", type=int, default=10000, metavar="N", help="games (10000)")
    simulate.add_argument("--seed", type=int, default=None, help="random seed (default: fresh)")
    simulate.set_defaults(run=run_simulate)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ruleset", metavar="RULESET", help=RULESETS_HELP)
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a table agreement, e.g. double_generala=off (repeatable)",
    )
    parser.add_argument(
        "--data",
        metavar="DIR",
        help="where tables are cached (default: $SCORER_DATA/strategy)",
    )


class ProgressBar:
    """A one-line progress bar on stderr (only when stderr is a terminal, else silent)."""

    def __init__(self, label: str, stream: TextIO | None = None, width: int = 30) -> None:
        self.label, self.stream, self.width = label, stream or sys.stderr, width
        self.shown = -1
        self.live = self.stream.isatty()

    def __call__(self, done: int, total: int) -> None:
        if not self.live:
            return
        percent = 100 * done // max(total, 1)
        if percent == self.shown:
            return
        self.shown = percent
        filled = self.width * done // max(total, 1)
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {percent:3d}%")
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()


def _options(args: argparse.Namespace) -> dict[str, str]:
    from scorer.commands.rules import parse_options
    from scorer.rules import get_ruleset

    options = parse_options(args.option)
    get_ruleset(args.ruleset, options)  # unknown ruleset or option: the rules say why
    return options


def _directory(args: argparse.Namespace) -> Path | None:
    return Path(args.data) if args.data else None


def run_solve(args: argparse.Namespace) -> int:
    from scorer.strategy import solitaire, tables

    options = _options(args)
    model = solitaire(args.ruleset, options, free_joker=args.free_joker)
    directory = _directory(args)
    started = time.perf_counter()
    if args.force or not tables.is_built(model, directory):
        values = tables.build(model, ProgressBar(f"solving {model.key}"), directory)
        how = f"built in {time.perf_counter() - started:.1f} s"
    else:
        values = tables.table(model, directory=directory)
        how = "cached"
    path = tables.table_path(model, directory)
    print(f"{model.key}: expected score of a fresh game {float(values[0, 0, 0]):.4f}")
    print(f"table {path} ({path.stat().st_size / 1e6:.1f} MB, {how})")
    return 0


def read_sheet(text: str) -> Any:
    """``ones=3,yahtzee=50`` / JSON / ``@file.json`` -> a Sheet."""
    from scorer.rules import Sheet

    text = text.strip()
    if text.startswith("@"):
        try:
            text = Path(text[1:]).read_text(encoding="utf-8")
        except OSError as err:
            raise ScorerError(f"cannot read the sheet file {text[1:]}: {err}") from err
        text = text.strip()
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise ScorerError(f"the sheet is not valid JSON: {err}") from err
        if "cells" not in data and "bonus" not in data:
            data = {"cells": data}
        return Sheet.from_dict(data)
    cells: dict[str, int] = {}
    for pair in filter(None, (p.strip() for p in text.replace(";", ",").split(","))):
        cell, sep, points = pair.partition("=")
        try:
            cells[cell.strip()] = int(points)
        except ValueError:
            sep = ""
        if not sep:
            raise ScorerError(f"a written cell is CELL=POINTS, not {pair!r}")
    return Sheet(cells)


def run_hint(args: argparse.Namespace) -> int:
    from scorer.commands.rules import read_throw
    from scorer.strategy import hint

    options = _options(args)
    sheet = read_sheet(args.sheet)
    dice = read_throw(args.dice)
    choices = hint(args.ruleset, options, sheet, dice, args.throw, directory=_directory(args))
    shown = choices[: max(args.top, 1)]
    if args.json:
        print(json.dumps([c.to_dict() for c in shown]))
        return 0
    print(f"{'':>3} {'choice':<28} {'expected':>9} {'shortfall':>9}")
    for rank, choice in enumerate(shown, start=1):
        print(f"{rank:>3} {choice.describe():<28} {choice.expected:>9.2f} {choice.shortfall:>9.2f}")
    if len(choices) > len(shown):
        print(f"    ... {len(choices) - len(shown)} more (--top {len(choices)})")
    return 0


def run_simulate(args: argparse.Namespace) -> int:
    from scorer.strategy import solitaire, tables
    from scorer.strategy.simulation import simulate

    if args.games < 1:
        raise ScorerError(f"--games is 1 or more, not {args.games}")
    options = _options(args)
    model = solitaire(args.ruleset, options)
    directory = _directory(args)
    values = tables.table(model, ProgressBar(f"solving {model.key}"), directory)
    started = time.perf_counter()
    scores = simulate(model, values, args.games, args.seed, ProgressBar("playing"))
    seconds = time.perf_counter() - started
    mean, sd = float(scores.mean()), float(scores.std(ddof=1)) if args.games > 1 else 0.0
    print(
        f"{model.key}: {args.games} games, mean {mean:.2f}, sd {sd:.2f} "
        f"(standard error {sd / args.games**0.5:.2f}; optimum {float(values[0, 0, 0]):.4f})"
    )
    print(f"min {int(scores.min())}, max {int(scores.max())}, {seconds:.1f} s")
    return 0
