"""Every ruleset of RULES.md behind one registry: ``get_ruleset("yahtzee", options)``."""

from __future__ import annotations

import importlib
from collections.abc import Mapping

from scorer.errors import UnknownRuleset
from scorer.rules.base import FLOW, UPPER, Option, Ruleset
from scorer.rules.sheet import Sheet

# ruleset id -> "module:Class"; modules load on first use.
_REGISTRY: dict[str, str] = {
    "yahtzee": "scorer.rules.yahtzee:Yahtzee",
    "yatzy": "scorer.rules.yahtzee:Yatzy",
    "yacht": "scorer.rules.yahtzee:Yacht",
    "generala": "scorer.rules.generala:Generala",
    "poker_ru": "scorer.rules.poker_ru:PokerRu",
    "poker_ua": "scorer.rules.poker_ua:PokerUa",
    "poker_dice": "scorer.rules.poker_dice:PokerDice",
    "poker_bluff": "scorer.rules.poker_bluff:PokerBluff",
    "poker_board": "scorer.rules.poker_board:PokerBoard",
}

RULESET_IDS: tuple[str, ...] = tuple(_REGISTRY)


def ruleset_class(ruleset_id: str) -> type[Ruleset]:
    if ruleset_id not in _REGISTRY:
        known = ", ".join(_REGISTRY)
        raise UnknownRuleset(f"unknown ruleset {ruleset_id!r} (rulesets: {known})")
    module, name = _REGISTRY[ruleset_id].split(":")
    return getattr(importlib.import_module(module), name)


def get_ruleset(
    ruleset_id: str, options: Mapping[str, object] | None = None, flow: int = FLOW
) -> Ruleset:
    """The ruleset with the table's options applied; raises on unknown ids or options.

    ``flow`` 1 keeps the rules games stored before issue 26 were played by."""
    rules = ruleset_class(ruleset_id)(options)
    rules.flow = flow
    return rules


__all__ = [
    "FLOW",
    "RULESET_IDS",
    "UPPER",
    "Option",
    "Ruleset",
    "Sheet",
    "get_ruleset",
    "ruleset_class",
]
