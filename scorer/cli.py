"""The ``scorer`` command.

Each group of subcommands lives in a module of :mod:`scorer.commands` with a
``register(subparsers)`` function, so the parts of the product (rules, games,
vision, strategy, the server) add their commands without touching each other.
Bad input exits with status 2 and a message naming the problem.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from scorer.errors import ScorerError

COMMAND_MODULES: tuple[str, ...] = (
    "scorer.commands.rules",
    "scorer.commands.games",
    "scorer.commands.vision",
    "scorer.commands.strategy",
    "scorer.commands.coach",
    "scorer.commands.serve",
    "scorer.commands.render",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="scorer", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as err:
            if err.name != name:
                raise
            continue
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status = args.run(args)
    except ScorerError as err:
        print(f"scorer: error: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    return int(status or 0)


if __name__ == "__main__":
    sys.exit(main())
