"""What the screen calls each cell and bonus, in the words players use.

Cell ids are canonical (RULES.md); the names are English message ids that the
Russian and Ukrainian catalogues translate (seed 004's Russian, seed 001's
Ukrainian). A few cells share an id across rulesets but not a name (generala's
``poker`` is four alike), so a ruleset may override a name.
"""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l

CELL_NAMES: dict[str, Any] = {
    "ones": _l("Ones"),
    "twos": _l("Twos"),
    "threes": _l("Threes"),
    "fours": _l("Fours"),
    "fives": _l("Fives"),
    "sixes": _l("Sixes"),
    "three_of_a_kind": _l("Three of a kind"),
    "four_of_a_kind": _l("Four of a kind"),
    "full_house": _l("Full house"),
    "small_straight": _l("Small straight"),
    "large_straight": _l("Large straight"),
    "yahtzee": _l("Yahtzee"),
    "chance": _l("Chance"),
    "one_pair": _l("One pair"),
    "pair": _l("Pair"),
    "two_pairs": _l("Two pairs"),
    "yatzy": _l("Yatzy"),
    "choice": _l("Choice"),
    "yacht": _l("Yacht"),
    "escalera": _l("Escalera"),
    "full": _l("Full"),
    "poker": _l("Poker"),
    "generala": _l("Generala"),
    "double_generala": _l("Double generala"),
    "hand": _l("Hand"),
}

RULESET_CELL_NAMES: dict[str, dict[str, Any]] = {
    "generala": {"poker": _l("Poker (4)")},
}

BONUS_NAMES: dict[str, Any] = {
    "upper_bonus": _l("Bonus"),
    "yahtzee_bonus": _l("Yahtzee bonus"),
    "premium": _l("Premium"),
    "first_finisher": _l("First to finish part 1"),  # issue 26: poker_ru variant 2
}

RULESET_NAMES: dict[str, Any] = {
    "yahtzee": _l("Yahtzee (classic, 13 cells)"),
    "yatzy": _l("Yatzy (Scandinavian, 15 cells)"),
    "yacht": _l("Yacht (12 cells)"),
    "generala": _l("Generala"),
    "poker_ru": _l("Dice poker (Russian, two parts)"),
    "poker_ua": _l("Dice poker (Ukrainian, two parts)"),  # Russian: "на костях", not "кістках"
    "poker_dice": _l("Poker dice (best hand wins)"),
    "poker_bluff": _l("Poker dice bluff (the camera referees)"),
    "poker_board": _l("Poker dice board game (9x9)"),
}


# -- issue 25: the table agreements on /setup, by name, help and choice ---------------------
OPTION_NAMES: dict[str, Any] = {
    "throws": _l("Throws for each number"),
    "multipliers": _l("x3 and x2 for early combinations"),
    "throw_bank": _l("Bank unused throws"),
    "double_generala": _l("Double generala"),
    "straights": _l("Where a straight ranks"),
    "rounds": _l("Rounds"),
}
OPTION_PATTERNS: dict[str, Any] = {
    "throws.": _l("Throws for %(cell)s"),
    "value.": _l("Points for %(cell)s"),
}
OPTION_HELP: tuple[Any, ...] = (
    _l("1..3 throws for every number of part 1"),
    _l("1..3 throws for %(cell)s (else `throws`)"),
    _l("points of a completed %(cell)s (0 or more)"),
    _l("on/off: x3 completed on throw 1, x2 on throw 2"),
    _l("on/off: unused throws are banked for later turns"),
    _l("on/off: a second generala scores 100 while generala holds 50"),
    _l("where a straight ranks: above_full_house, below_full_house or none"),
    _l("rounds a match has (1 or more); seed 003 is silent, so 3"),
)
CHOICE_NAMES: dict[str, Any] = {
    "above_full_house": _l("above a full house"),
    "below_full_house": _l("below a full house"),
    "none": _l("not a hand"),
}

# -- issue 27: seed 003's bluff and board --------------------------------------------------
OPTION_NAMES |= {"lives": _l("Lives"), "teams": _l("Two teams")}
OPTION_HELP += (
    _l("lives each player starts with (1 or more)"),
    _l("on: two teams, seats alternating (4 or 6 players); off: 2-4 players alone"),
)


def option_name(option: str) -> str:
    """The translated name of a table agreement (``throws.ones``: "Throws for ones")."""
    if option in OPTION_NAMES:
        return str(OPTION_NAMES[option])
    for prefix, template in OPTION_PATTERNS.items():
        if option.startswith(prefix):
            return str(template) % {"cell": cell_name("", option[len(prefix) :])}
    return option


def option_help(text: str) -> str:
    """A ruleset's English help for an agreement, in the page's language."""
    from web.refusals import translate

    return translate(text)


def choice_name(choice: object) -> str:
    name = CHOICE_NAMES.get(str(choice))
    return str(name) if name is not None else str(choice)


# -- issue 26: the whole-game flow's agreements ------------------------------------------------
OPTION_NAMES.update(
    {
        "parts": _l("Parts"),
        "variant": _l("Variant"),
        "first_finisher_bonus": _l("First to finish part 1"),
    }
)
OPTION_HELP += (
    _l("2: both parts; 1: the game ends after part 1"),
    _l("1: all play each part together; 2: each alone, with banked throws"),
    _l("variant 2: points for the first player to finish part 1"),
)
SWITCHES: dict[str, tuple[Any, Any]] = {
    "rolloff": (
        _l("Roll-off"),
        _l("Everyone throws all five dice once: the highest total starts, ties throw again"),
    ),
    "hints": (
        _l("Hints (coach mode)"),
        _l("Seed 004: no hints where two or more play, unless the table wants them"),
    ),
}
"""The agreements of every ruleset on /setup (Setup's own fields): name and help."""


def switch_text(switch: str) -> tuple[str, str]:
    name, help_text = SWITCHES[switch]
    return str(name), str(help_text)


def cell_name(ruleset: str, cell: str) -> str:
    """The translated name of a cell as this ruleset calls it."""
    name = RULESET_CELL_NAMES.get(ruleset, {}).get(cell) or CELL_NAMES.get(cell)
    return str(name) if name is not None else cell.replace("_", " ").capitalize()


def bonus_name(bonus: str) -> str:
    name = BONUS_NAMES.get(bonus)
    return str(name) if name is not None else bonus.replace("_", " ").capitalize()


def ruleset_name(ruleset: str) -> str:
    name = RULESET_NAMES.get(ruleset)
    return str(name) if name is not None else ruleset


def names_for(ruleset: str, cells: list[str], bonuses: list[str]) -> dict[str, dict[str, str]]:
    """Every name a page needs to draw one ruleset's sheet, for the page's JS."""
    return {
        "cells": {cell: cell_name(ruleset, cell) for cell in cells},
        "bonuses": {b: bonus_name(b) for b in set(bonuses) | set(BONUS_NAMES)},
    }
