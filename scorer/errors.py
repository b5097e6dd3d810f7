"""The errors a player or a caller can cause, each naming the problem.

The web layer maps them to HTTP statuses and the CLI to exit status 2, so they
live apart from the modules that raise them.
"""


class ScorerError(ValueError):
    """Bad input: a message a person can act on; nothing was changed."""


class BadDice(ScorerError):
    """Dice that are not dice: a value outside 1..6 / 9..A, or the wrong number of them."""


class UnknownRuleset(ScorerError):
    """A ruleset id that RULES.md does not define."""


class UnknownCell(ScorerError):
    """A cell id the ruleset does not have."""


class BadOption(ScorerError):
    """A ruleset option that does not exist or has a value it cannot take."""


class ForbiddenMove(ScorerError):
    """A move the rules forbid right now (closed cell, joker placement, throw limit...)."""


class UnknownGame(ScorerError):
    """No stored game has this id."""


class StaleState(ForbiddenMove):
    """The move was made against an older state of the game than the stored one."""
