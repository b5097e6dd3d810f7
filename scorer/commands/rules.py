"""``scorer rulesets`` and ``scorer score``: the rules of RULES.md from the command line.

``scorer score yatzy 5 5 3 3 1`` prints, as one JSON object, what every cell
of the ruleset would give these dice on an empty sheet; with ``-`` in place
of the dice it reads one throw a line from stdin and prints one object a line,
so a whole table of throws costs one process.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

from scorer.dice import parse_dice
from scorer.errors import BadDice, BadOption, ScorerError
from scorer.rules import RULESET_IDS, Ruleset, Sheet, get_ruleset

_SEPARATORS = re.compile(r"[\s,;/-]+")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``rulesets`` and ``score`` to the ``scorer`` command."""
    listing = subparsers.add_parser(
        "rulesets",
        help="list the rulesets, their cells and options",
        description="List the rulesets of RULES.md with their cells and table options.",
    )
    listing.add_argument("--json", action="store_true", help="print one JSON array")
    listing.set_defaults(run=run_rulesets)

    score = subparsers.add_parser(
        "score",
        help="what every cell would give a throw on an empty sheet",
        description=(
            "Print, as one JSON object, the points every cell of RULESET would give these "
            "dice on an empty sheet (poker_dice: the hand). Dice are 1..6 or card faces "
            "9 10 J Q K A. With '-' as the dice, read one throw a line from stdin and print "
            "one JSON object a line."
        ),
    )
    score.add_argument("ruleset", metavar="RULESET", help=f"one of {', '.join(RULESET_IDS)}")
    score.add_argument(
        "--throw",
        type=int,
        default=1,
        metavar="N",
        help="the throw of the turn after which the dice are written (default 1)",
    )
    score.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a table agreement, e.g. multipliers=off or value.pair=6 (repeatable)",
    )
    score.add_argument(
        "--cell",
        action="append",
        default=[],
        metavar="CELL",
        help="only these cells (repeatable; default every cell)",
    )
    score.add_argument("dice", nargs="+", metavar="DICE", help="five dice, or '-' for stdin")
    score.set_defaults(run=run_score)


def run_rulesets(args: argparse.Namespace) -> int:
    described = [get_ruleset(ruleset_id).describe() for ruleset_id in RULESET_IDS]
    if args.json:
        print(json.dumps(described))
        return 0
    for ruleset in described:
        print(
            f"{ruleset['id']}: {ruleset['name']} "
            f"({ruleset['kind']}, {ruleset['dice']} dice, up to {ruleset['throws']} throws)"
        )
        print(f"  cells: {' '.join(ruleset['cells'])}")
        for name, option in ruleset["options"].items():
            print(f"  option {name}={_shown(option['default'])}: {option['help']}")
    return 0


def run_score(args: argparse.Namespace) -> int:
    ruleset = get_ruleset(args.ruleset, parse_options(args.option))
    cells = tuple(ruleset.check_cell(c) for c in args.cell) or tuple(ruleset.cells)
    ruleset.check_throw(args.throw)
    if args.dice == ["-"]:
        return _score_stream(ruleset, cells, args.throw, sys.stdin, sys.stdout)
    if "-" in args.dice:
        raise BadDice("'-' (read throws from stdin) stands alone, in place of all the dice")
    print(json.dumps(score_throw(ruleset, read_throw(args.dice), cells, args.throw)))
    return 0


def parse_options(pairs: Iterable[str]) -> dict[str, str]:
    """``["multipliers=off", ...]`` -> ``{"multipliers": "off"}``; the ruleset reads the values."""
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise BadOption(f"an option is KEY=VALUE, not {pair!r}")
        options[key.strip()] = value.strip()
    return options


def read_throw(tokens: Sequence[str]) -> tuple[int, ...]:
    """Dice as a person types them: ``5 5 3 3 1``, ``5-5-3-3-1``, ``K,K,9,9,A``."""
    return parse_dice(t for token in tokens for t in _SEPARATORS.split(token) if t)


def score_throw(
    ruleset: Ruleset, dice: Sequence[int], cells: Sequence[str], throw: int
) -> dict[str, Any]:
    """What ``dice`` give in each of ``cells`` on an empty sheet (poker_dice: the hand)."""
    values = ruleset.check_dice(dice)
    describe = getattr(ruleset, "describe_hand", None)
    if callable(describe):  # poker_dice, poker_bluff, poker_board: a hand, not cells
        return describe(values)
    sheet = Sheet()
    return {cell: ruleset.cell_points(cell, values, sheet, throw) for cell in cells}


def _score_stream(
    ruleset: Ruleset, cells: Sequence[str], throw: int, lines: TextIO, out: TextIO
) -> int:
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            scored = score_throw(ruleset, read_throw([line]), cells, throw)
        except ScorerError as err:
            raise type(err)(f"stdin line {number}: {err}") from err
        out.write(json.dumps(scored) + "\n")
    out.flush()
    return 0


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return "-" if value is None else str(value)
