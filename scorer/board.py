"""poker_board as a game: throws as in every ruleset, then a chip on the 9x9 board.

A turn is up to three throws with holds (the plain game's own throw, hold and
correct), then ``place`` (a chip on a free square the hand names), ``remove``
(a straight or full house once all their squares are taken: an opponent's
unprotected chip goes) or ``pass`` (no square fits). Series are found after
every chip; two series win.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from scorer.errors import ForbiddenMove, ScorerError
from scorer.game import Game, Setup
from scorer.rules.board_layout import CENTRE, SIZE, layout
from scorer.rules.poker_board import (
    Board,
    PokerBoard,
    Window,
    named_square,
    places,
    protected,
    removable,
    removes,
    series_after,
    symbol,
)


@dataclass(frozen=True)
class BoardGame(Game):
    """A board game after some events; :meth:`Game.start` builds it for ``poker_board``."""

    board: Board = ()
    series: tuple[tuple[Window, ...], ...] = ()
    last_square: int | None = None
    event_types: ClassVar[tuple[str, ...]] = (
        "throw",
        "hold",
        "correct",
        "place",
        "remove",
        "pass",
        "undo",
    )

    @classmethod
    def start(cls, setup: Setup) -> BoardGame:
        rules = PokerBoard(setup.options)
        return cls.seated(
            setup,
            rules,
            board=(None,) * (SIZE * SIZE),
            series=((),) * rules.owners(len(setup.players)),
        )

    @property
    def board_rules(self) -> PokerBoard:
        assert isinstance(self.rules, PokerBoard)
        return self.rules

    @property
    def owner(self) -> int:
        return self.board_rules.owner(self.player)

    # -- events ------------------------------------------------------------------------

    def _on_place(self, event: Mapping[str, Any]) -> BoardGame:
        index = self._ready(event)
        if index == CENTRE:
            raise ForbiddenMove("the centre is free for everybody: nobody may take it")
        if self.board[index] is not None:
            raise ForbiddenMove(f"square {_where(index)} is taken")
        if index not in places(self.values, self.board):
            made = named_square(self.values)
            raise ForbiddenMove(
                f"these dice ({made}) do not take square {_where(index)} ({layout()[index]})"
            )
        board = list(self.board)
        board[index] = self.owner
        return self._next_turn_board(tuple(board), index)

    def _on_remove(self, event: Mapping[str, Any]) -> BoardGame:
        index = self._ready(event)
        if not removes(self.values, self.board):
            raise ForbiddenMove(
                "only a straight (or a full house) removes a chip, once every square of its"
                " kind is taken"
            )
        chip = self.board[index]
        if chip is None:
            raise ForbiddenMove(f"there is no chip on square {_where(index)}")
        if chip == self.owner:
            raise ForbiddenMove("a removal takes an opponent's chip, not your own")
        if index in protected(self.series):
            raise ForbiddenMove(f"the chip on {_where(index)} is in a finished series: it stays")
        board = list(self.board)
        board[index] = None
        return self._next_turn_board(tuple(board), index)

    def _on_pass(self, event: Mapping[str, Any]) -> BoardGame:
        self._check_turn(event)
        if self.throw == 0:
            raise ForbiddenMove("throw before passing")
        if self.unsure:
            raise ForbiddenMove(f"confirm die {self.unsure[0] + 1} first (tap it)")
        if self.options_now()["places"] or self.options_now()["removable"]:
            raise ForbiddenMove("these dice take a square: place the chip")
        return self._next_turn_board(self.board, None)

    # -- helpers ---------------------------------------------------------------------------

    def _ready(self, event: Mapping[str, Any]) -> int:
        self._check_turn(event)
        if self.throw == 0:
            raise ForbiddenMove("throw before placing a chip")
        if self.unsure:
            raise ForbiddenMove(f"confirm die {self.unsure[0] + 1} first (tap it)")
        index = event.get("square")
        if isinstance(index, bool) or not isinstance(index, int):
            raise ScorerError("a square is its number 0..80, row by row from the top left")
        if not 0 <= index < SIZE * SIZE:
            raise ScorerError(f"there is no square {index} (squares 0..80)")
        return index

    def _next_turn_board(self, board: Board, square: int | None) -> BoardGame:
        series = list(self.series)
        owner = self.owner
        series[owner] = series_after(board, owner, self.series[owner])
        return dataclasses.replace(
            self,
            board=board,
            series=tuple(series),
            last_square=square,
            player=(self.player + 1) % len(self.setup.players),
            throw=0,
            dice=(),
            turn=self.turn + 1,
            finished=len(series[owner]) >= 2,
        )

    def options_now(self) -> dict[str, Any]:
        """What the current dice allow: the free squares they take, or the chips they remove."""
        if not self.dice or self.finished:
            return {"places": [], "removes": False, "removable": []}
        can_remove = removes(self.values, self.board)
        return {
            "places": list(places(self.values, self.board)),
            "removes": can_remove,
            "removable": list(removable(self.board, self.owner, self.series)) if can_remove else [],
        }

    # -- what pages ask ----------------------------------------------------------------------

    def totals(self) -> tuple[int, ...]:
        """Series made, per player (a team's count for each of its players)."""
        return tuple(len(self.series[self.board_rules.owner(i)]) for i in range(len(self.sheets)))

    def winners(self) -> tuple[int, ...]:
        if not self.finished:
            return ()
        return tuple(i for i, n in enumerate(self.totals()) if n >= 2)

    def scores(self) -> dict[str, int]:
        return {}

    def timeout_events(self, rng: Any = None) -> list[dict[str, Any]]:
        """On expiry: a virtual throw if none yet, then the first square it takes (or a
        removal, or a pass)."""
        if self.finished:
            return []
        rng = rng or random.Random()
        events, game = self._virtual_throw(rng)
        if game.unsure:
            return events
        now = game.options_now()
        if now["places"]:
            events.append({"type": "place", "square": now["places"][0]})
        elif now["removable"]:
            events.append({"type": "remove", "square": now["removable"][0]})
        else:
            events.append({"type": "pass"})
        return events

    def state(self) -> dict[str, Any]:
        state = super().state()
        cards = self.setup.dice != "pips"  # "auto" shows card faces, as the page does
        teams = bool(self.board_rules.options["teams"])
        players = self.setup.players
        owners = self.board_rules.owners(len(players))
        state["board"] = {
            "size": SIZE,
            "centre": CENTRE,
            "squares": [
                {"hand": name, "symbol": symbol(name, cards)} if name else None for name in layout()
            ],
            "chips": list(self.board),
            "owner": self.owner,
            "owners": owners,
            "teams": teams,
            "owner_names": [
                " & ".join(p for i, p in enumerate(players) if self.board_rules.owner(i) == o)
                for o in range(owners)
            ],
            "series": [[list(w) for w in found] for found in self.series],
            "protected": sorted(protected(self.series)),
            "made": named_square(self.values) if self.dice else None,
            "last": self.last_square,
            **self.options_now(),
        }
        state["board"]["can_pass"] = bool(
            self.dice
            and not self.finished
            and not self.unsure
            and not state["board"]["places"]
            and not state["board"]["removable"]
        )
        return state


def _where(index: int) -> str:
    """A square as players name it: row 1-9 from the top, column A-I from the left."""
    row, col = divmod(index, SIZE)
    return f"{'ABCDEFGHI'[col]}{row + 1}"
