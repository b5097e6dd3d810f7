"""poker_board: seed 003's 9x9 board game, as pure rules over a board of chips.

A board is 81 owners (None for a free square), row by row, the centre
(:data:`~scorer.rules.board_layout.CENTRE`) always free and counting for
everybody in a series. Owners are player indexes, or team indexes when the
table plays in two teams. The game (:mod:`scorer.board`) owns turns and
throws; this module says which squares a throw may take, when it removes a
chip instead, and where the series are.
"""

from __future__ import annotations

from collections.abc import Sequence

from scorer.dice import Dice
from scorer.errors import BadOption, ForbiddenMove
from scorer.rules.base import Option, Ruleset, on_off
from scorer.rules.board_layout import CENTRE, SIZE, SQUARES, layout
from scorer.rules.poker_dice import hand
from scorer.rules.sheet import Sheet

Board = tuple[int | None, ...]
Window = tuple[int, ...]
"""Five squares in a row; a series is a window whose squares are one owner's (or the centre)."""

LUCKY = {7: "lucky:7", 11: "lucky:11"}
REMOVERS = {"straight": "straight:", "full_house": "full_house:"}
"""Hands that remove a chip once every square of their kind is taken, by square prefix."""


def named_square(dice: Sequence[int]) -> str:
    """The square the hand of these dice names: ``"full_house:5"``, ``"straight:low"``..."""
    made = hand(dice, "above_full_house")
    if made.category == "straight":
        return "straight:high" if 6 in dice else "straight:low"
    if made.category == "high_card":
        return "high_card"
    return f"{made.category}:{made.key[0]}"


def squares_for(dice: Sequence[int]) -> frozenset[str]:
    """Every kind of square a throw may take: the hand's own, a lucky sum's, or any
    square at all for five of a kind."""
    named = named_square(dice)
    if named.startswith("five_of_a_kind:"):
        return frozenset(SQUARES)
    lucky = LUCKY.get(sum(dice))
    return frozenset({named, lucky} - {None})


def places(dice: Sequence[int], board: Board) -> tuple[int, ...]:
    """The free squares these dice may take now."""
    kinds = squares_for(dice)
    return tuple(i for i, name in enumerate(layout()) if name in kinds and board[i] is None)


def removes(dice: Sequence[int], board: Board) -> bool:
    """Whether the throw removes a chip: a straight once every straight square is taken,
    a full house once every full house square is."""
    prefix = REMOVERS.get(hand(dice, "above_full_house").category)
    if prefix is None:
        return False
    return all(
        board[i] is not None for i, name in enumerate(layout()) if name and name.startswith(prefix)
    )


def _windows() -> tuple[tuple[tuple[int, int, int], Window], ...]:
    found = []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for row in range(SIZE):
            for col in range(SIZE):
                cells = [(row + k * dr, col + k * dc) for k in range(5)]
                if all(0 <= r < SIZE and 0 <= c < SIZE for r, c in cells):
                    # the line a window lies on: its direction and where that line starts
                    back = 0
                    while 0 <= row - (back + 1) * dr < SIZE and 0 <= col - (back + 1) * dc < SIZE:
                        back += 1
                    line = (dr * 3 + dc, row - back * dr, col - back * dc)
                    found.append((line, tuple(r * SIZE + c for r, c in cells)))
    return tuple(found)


WINDOWS = _windows()
"""Every five squares in a row, across, down and on both diagonals, with the line they lie on."""
_LINE = {window: line for line, window in WINDOWS}


def complete(board: Board, owner: int) -> tuple[Window, ...]:
    """Every window filled by ``owner``'s chips, the centre counting for everybody."""
    return tuple(w for _, w in WINDOWS if all(i == CENTRE or board[i] == owner for i in w))


def second_allowed(first: Window, second: Window) -> bool:
    """A second series needs four squares not in the first and may not extend the first."""
    if len(set(second) - set(first)) < 4:
        return False
    return not (_LINE[first] == _LINE[second] and set(first) & set(second))


def series_after(board: Board, owner: int, found: tuple[Window, ...]) -> tuple[Window, ...]:
    """``owner``'s series once the board is as given: those already made stay; new ones are
    added while they follow the second series' rule (two at most: two win)."""
    ready = complete(board, owner)
    if not found:
        for first in ready:
            second = next((w for w in ready if second_allowed(first, w)), None)
            if second is not None:
                return (first, second)
        return ready[:1]
    if len(found) == 1:
        second = next((w for w in ready if second_allowed(found[0], w)), None)
        if second is not None:
            return (found[0], second)
    return found


def protected(series: Sequence[Sequence[Window]]) -> frozenset[int]:
    """The squares of every finished series: their chips stay to the end."""
    return frozenset(i for windows in series for w in windows for i in w)


def removable(board: Board, owner: int, series: Sequence[Sequence[Window]]) -> tuple[int, ...]:
    """The opponents' chips a removal may take: any not in a finished series."""
    safe = protected(series)
    return tuple(
        i for i, chip in enumerate(board) if chip is not None and chip != owner and i not in safe
    )


def symbol(square: str | None, cards: bool) -> str:
    """A square's hand in a few characters: ``KKK··`` (full house of K), ``7`` (lucky 7)."""
    if square is None:
        return ""
    faces = ("9", "10", "J", "Q", "K", "A") if cards else ("1", "2", "3", "4", "5", "6")
    kind, _, face = square.partition(":")
    if kind == "lucky":
        return face
    if kind == "high_card":
        return "≠"
    if kind == "straight":
        low, high = ("9-K", "10-A") if cards else ("1-5", "2-6")
        return low if face == "low" else high
    shown = faces[int(face) - 1]
    repeat = {"five_of_a_kind": 5, "four_of_a_kind": 4, "three_of_a_kind": 3, "pair": 2}
    group = repeat.get(kind, 3 if kind == "full_house" else 2)
    # "10" repeated is unreadable on a small square: 10×3 instead of 101010
    base = f"{shown}×{group}" if len(shown) > 1 else shown * group
    return base + "··" if kind in ("full_house", "two_pairs") else base


class PokerBoard(Ruleset):
    """Seed 003's board game: chips on the squares the throws name, two series win."""

    id = "poker_board"
    name = "Poker dice board, 9x9 (seed 003)"
    kind = "board"
    game = "scorer.board:BoardGame"
    min_players = 2
    max_players = 6
    cells = ()
    OPTIONS = (
        Option(
            "teams",
            False,
            on_off,
            "on: two teams, seats alternating (4 or 6 players); off: 2-4 players alone",
        ),
    )

    def check_players(self, count: int) -> None:
        """2-4 players alone, or two teams of two or three."""
        if self.options["teams"]:
            if count not in (4, 6):
                raise BadOption(f"two teams are 4 or 6 players, not {count}")
        elif not 2 <= count <= 4:
            raise BadOption(f"poker_board is 2 to 4 players (or two teams), not {count}")

    def owner(self, player: int) -> int:
        """Whose chips a player places: their own, or their team's (seats alternate)."""
        return player % 2 if self.options["teams"] else player

    def owners(self, players: int) -> int:
        return 2 if self.options["teams"] else players

    def describe_hand(self, dice: Sequence[int]) -> dict[str, object]:
        """A throw as ``scorer score`` shows it: the square it names and every kind it takes."""
        values = self.check_dice(dice)
        return {"square": named_square(values), "takes": sorted(squares_for(values))}

    def cell_points(self, cell: str, dice: Dice, sheet: Sheet, throw: int) -> int:
        raise ForbiddenMove("poker_board has no cells: place a chip on the board")

    def describe(self) -> dict[str, object]:
        info = super().describe()
        info["board"] = list(layout())
        return info
