"""The review of a finished game: what each decision cost against optimal play.

A game is a fold over its log, so every decision a player made can be found
again: the dice held before each re-throw (a keep) and each cell written or
struck (a write). Each is priced by :func:`scorer.strategy.hint` on the sheet
and dice of that moment: the expected final score of the choice made against
the best choice's. The difference is what the decision cost, in expected
points. Undone events are not decisions: only the events that stand count.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

from scorer.errors import ForbiddenMove
from scorer.game import Game, Setup
from scorer.strategy.hints import Choice, expected_after, hint
from scorer.strategy.solitaire import SOLVABLE, solitaire
from scorer.strategy.tables import table


class NoReview(ForbiddenMove):
    """A game that has no review: a ruleset without a strategy, or a game not over."""


@dataclass(frozen=True)
class Move:
    """A choice as the review names it: a keep, a write or a strike."""

    kind: Literal["keep", "write", "scratch"]
    keep: tuple[int, ...] | None = None
    cell: str | None = None

    @classmethod
    def of(cls, choice: Choice) -> Move:
        return cls(choice.kind, choice.keep, choice.cell)

    def describe(self) -> str:
        """``keep 5 5``, ``re-throw all``, ``write sixes``, ``strike yahtzee``."""
        if self.kind == "keep":
            return "keep " + " ".join(map(str, self.keep)) if self.keep else "re-throw all"
        return f"{'write' if self.kind == 'write' else 'strike'} {self.cell}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "keep": None if self.keep is None else list(self.keep),
            "cell": self.cell,
            "text": self.describe(),
        }


@dataclass(frozen=True)
class Decision:
    """One choice a player made, priced against the best one open at that moment."""

    player: int
    turn: int
    """The player's own turn, counted from 1."""
    throw: int
    """The throw after which the choice was made (1..3)."""
    dice: tuple[int, ...]
    made: Move
    best: Move
    expected: float
    """Expected final total after the choice made."""
    best_expected: float
    cost: float
    """``best_expected - expected``: the expected points the choice gave up (0 when best)."""

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["dice"] = list(self.dice)
        data["made"] = self.made.to_dict()
        data["best"] = self.best.to_dict()
        return data


@dataclass(frozen=True)
class PlayerReview:
    """One player's decisions and what they cost in all."""

    name: str
    decisions: tuple[Decision, ...]

    @property
    def lost(self) -> float:
        return round(sum(d.cost for d in self.decisions), 4)

    def costliest(self, n: int = 3) -> list[Decision]:
        """The ``n`` decisions that cost most (those that cost something), dearest first."""
        dear = [d for d in self.decisions if d.cost > 0]
        return sorted(dear, key=lambda d: (-d.cost, d.turn, d.throw))[:n]

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "lost": self.lost,
            "decisions": [d.to_dict() for d in self.decisions],
            "costliest": [d.to_dict() for d in self.costliest()],
        }


def reviewable(ruleset: str) -> bool:
    """Whether games of ``ruleset`` can be reviewed (the strategy solves it)."""
    return ruleset in SOLVABLE


def review(
    setup: Setup,
    events: Sequence[Mapping[str, Any]],
    *,
    directory: Path | None = None,
) -> list[PlayerReview]:
    """Every keep and write of every player, priced; raises :class:`NoReview` when none."""
    if not reviewable(setup.ruleset):
        raise NoReview(f"no review for {setup.ruleset}: the strategy solves only {SOLVABLE}")
    steps = Game.standing(setup, events)
    final = Game.replay(setup, events)
    if not final.finished:
        raise NoReview("the game is not over yet: a review comes at the end")
    table(solitaire(setup.ruleset, setup.options), directory=directory)  # built once, cached
    found: list[list[Decision]] = [[] for _ in setup.players]
    turns = [0] * len(setup.players)
    for before, event in steps:
        kind = event.get("type")
        if kind == "throw" and before.throw == 0:
            turns[before.player] += 1
        if kind == "throw" and before.throw >= 1:
            found[before.player].append(_keep(before, turns[before.player], directory=directory))
        elif kind in ("write", "scratch"):
            found[before.player].append(
                _write(before, str(event["cell"]), kind, turns[before.player], directory)
            )
    return [
        PlayerReview(name, tuple(decisions))
        for name, decisions in zip(setup.players, found, strict=True)
    ]


def _choices(game: Game, directory: Path | None) -> list[Choice]:
    return hint(
        game.setup.ruleset,
        game.setup.options,
        game.sheets[game.player],
        game.values,
        game.throw,
        directory=directory,
    )


def _keep(before: Game, turn: int, directory: Path | None) -> Decision:
    choices = _choices(before, directory)
    kept = tuple(sorted(d.value for d in before.dice if d.held))
    made = next(c for c in choices if c.kind == "keep" and c.keep == kept)
    return _decision(before, turn, Move.of(made), made.expected, choices[0])


def _write(before: Game, cell: str, kind: str, turn: int, directory: Path | None) -> Decision:
    """A write or strike, priced as the hint prices a write: points now plus the sheet's future."""
    choices = _choices(before, directory)
    rules = before.rules
    sheet = before.sheets[before.player]
    if kind == "scratch":
        after = rules.scratch(sheet, cell)
    else:
        after = rules.write(sheet, cell, before.values, before.throw)
    written = next((c for c in choices if c.kind == "write" and c.cell == cell), None)
    if kind == "write" and written is not None:
        expected = written.expected
    else:
        setup = before.setup
        expected = expected_after(setup.ruleset, setup.options, after, directory=directory)
    return _decision(before, turn, Move(kind, cell=cell), expected, choices[0])  # type: ignore[arg-type]


def _decision(before: Game, turn: int, made: Move, expected: float, best: Choice) -> Decision:
    cost = max(0.0, best.expected - expected)
    return Decision(
        player=before.player,
        turn=turn,
        throw=before.throw,
        dice=before.values,
        made=made,
        best=Move.of(best),
        expected=round(expected, 4),
        best_expected=round(best.expected, 4),
        cost=round(cost, 4),
    )
