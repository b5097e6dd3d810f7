"""poker_board (RULES.md, seed 003): the board and its seed, the squares a throw takes,
series, the second series' rule, protected chips, removals and whole games."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from itertools import combinations_with_replacement
from pathlib import Path

import pytest

from scorer.board import BoardGame
from scorer.errors import BadOption, ForbiddenMove, ScorerError
from scorer.game import Game, Setup
from scorer.rules.board_layout import (
    CENTRE,
    LAYOUT_SEED,
    SIZE,
    SQUARES,
    equal_neighbours,
    first_good_seed,
    layout,
    neighbours,
    shuffled,
)
from scorer.rules.poker_board import (
    WINDOWS,
    complete,
    named_square,
    places,
    removable,
    removes,
    second_allowed,
    series_after,
    squares_for,
    symbol,
)

EMPTY = (None,) * 81
MULTISETS = list(combinations_with_replacement(range(1, 7), 5))


def at(row: int, col: int) -> int:
    return row * SIZE + col


def squares_of(name: str) -> list[int]:
    return [i for i, n in enumerate(layout()) if n == name]


def board_with(owners: dict[int, int]) -> tuple:
    board = list(EMPTY)
    for square, owner in owners.items():
        board[square] = owner
    return tuple(board)


# -- the board --------------------------------------------------------------------------


def test_the_board_has_two_of_each_hand_and_a_free_centre():
    board = layout()
    assert len(board) == 81 and board[CENTRE] is None
    names = Counter(n for n in board if n is not None)
    assert sum(names.values()) == 80 and set(names.values()) == {2}
    expected = (
        {f"five_of_a_kind:{f}" for f in range(1, 7)}
        | {f"four_of_a_kind:{f}" for f in range(1, 7)}
        | {f"full_house:{f}" for f in range(1, 7)}
        | {f"three_of_a_kind:{f}" for f in range(1, 7)}
        | {f"two_pairs:{f}" for f in range(2, 7)}
        | {f"pair:{f}" for f in range(1, 7)}
        | {"straight:low", "straight:high", "high_card", "lucky:7", "lucky:11"}
    )
    assert set(names) == expected


RANK_VALUES = {"9": 1, "10": 2, "J": 3, "Q": 4, "K": 5, "A": 6}
DOC = Path(__file__).resolve().parents[1] / "docs" / "board.md"


def published_board(heading: str) -> list[list[str]]:
    """The 9x9 cells of the table under ``heading`` in docs/board.md, as printed."""
    text = DOC.read_text(encoding="utf-8").split(heading, 1)[1]
    rows = [line for line in text.splitlines() if re.match(r"^\| \d \|", line)][:SIZE]
    return [[cell.strip() for cell in row.strip("|").split("|")[1:]] for row in rows]


def read_card_square(cell: str) -> str | None:
    """A printed card-dice square by docs/board.md's key, read without the game's code."""
    fixed = {"★": None, "≠": "high_card", "7": "lucky:7", "11": "lucky:11"}
    fixed |= {"9-K": "straight:low", "10-A": "straight:high"}
    if cell in fixed:
        return fixed[cell]
    paired = cell.endswith("··")
    run = cell.removesuffix("··")
    rank, n = run.split("×") if "×" in run else (run[0], len(run))
    assert run == rank * int(n) or run == f"{rank}×{n}", cell
    kinds = {5: "five_of_a_kind", 4: "four_of_a_kind", 3: "three_of_a_kind", 2: "pair"}
    kind = {3: "full_house", 2: "two_pairs"}[int(n)] if paired else kinds[int(n)]
    return f"{kind}:{RANK_VALUES[rank]}"


def test_the_game_plays_on_the_published_board_and_its_seed_is_the_first_good_one():
    # given the card-dice board docs/board.md publishes, read by its key
    published = [read_card_square(c) for row in published_board("Card dice:") for c in row]
    assert len(published) == 81

    def touching(board) -> int:  # equal squares side by side or corner to corner
        return sum(
            board[r * SIZE + c] is not None
            and board[r * SIZE + c] == board[(r + dr) * SIZE + c + dc]
            for r in range(SIZE)
            for c in range(SIZE)
            for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1))
            if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE
        )

    # then the game's board is that one, two of each hand, no equal squares touching
    assert list(layout()) == published
    assert touching(published) == 0 and equal_neighbours(layout()) == 0
    # and it is what the page says made it: SQUARES shuffled by random.Random(25), the
    # centre left free, 25 being the first seed from 0 whose board keeps equal squares apart
    assert "random.Random(25).shuffle" in DOC.read_text(encoding="utf-8") and LAYOUT_SEED == 25
    order = list(SQUARES)
    random.Random(25).shuffle(order)
    assert [*order[:CENTRE], None, *order[CENTRE:]] == published
    assert all(touching(shuffled(seed)) > 0 for seed in range(25))
    assert first_good_seed() == 25
    for i, name in enumerate(layout()):
        assert all(layout()[j] != name for j in neighbours(i) if name is not None)


def test_the_pip_board_is_the_card_board_with_ranks_as_values():
    # given both printed boards, when each card cell's ranks are written as values (9=1..A=6)
    def as_pips(cell: str) -> str:
        straights = {"9-K": "1-5", "10-A": "2-6"}
        if cell in straights or cell in ("7", "11"):
            return straights.get(cell, cell)
        run = re.sub(r"10×(\d)", lambda m: "10" * int(m.group(1)), cell)
        tokens = re.findall(r"10|.", run)
        return "".join(str(RANK_VALUES.get(token, token)) for token in tokens)

    cards, pips = published_board("Card dice:"), published_board("Pip dice")
    # then they are the pip board, square for square
    assert [[as_pips(c) for c in row] for row in cards] == pips


# -- the squares a throw takes ----------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "square"),
    [
        ((5, 5, 5, 5, 5), "five_of_a_kind:5"),
        ((2, 2, 2, 2, 6), "four_of_a_kind:2"),
        ((5, 5, 5, 1, 1), "full_house:5"),  # by the triple's face
        ((1, 1, 1, 6, 6), "full_house:1"),
        ((4, 4, 4, 1, 6), "three_of_a_kind:4"),
        ((2, 2, 6, 6, 3), "two_pairs:6"),  # by the higher pair
        ((1, 1, 2, 2, 3), "two_pairs:2"),
        ((3, 3, 1, 5, 6), "pair:3"),
        ((1, 2, 3, 4, 5), "straight:low"),
        ((6, 2, 3, 4, 5), "straight:high"),
        ((1, 2, 3, 4, 6), "high_card"),
    ],
)
def test_each_throw_names_one_square(dice, square):
    assert named_square(dice) == square


def test_every_throw_names_a_square_on_the_board():
    for dice in MULTISETS:
        assert named_square(dice) in set(layout())


def test_lucky_sums_may_take_a_lucky_square_instead():
    # 9 9 9 10 10 is a full house of 9 summing to 7; 1 2 2 3 3 sums to 11
    assert squares_for((1, 1, 1, 2, 2)) == {"full_house:1", "lucky:7"}
    assert squares_for((1, 2, 2, 3, 3)) == {"two_pairs:3", "lucky:11"}
    assert squares_for((1, 1, 1, 1, 3)) == {"four_of_a_kind:1", "lucky:7"}
    assert squares_for((1, 1, 2, 3, 5)) == {"pair:1"}  # sum 12: no luck
    for dice in MULTISETS:
        lucky = {"lucky:7", "lucky:11"} & squares_for(dice)
        if len(set(dice)) > 1:
            assert lucky == ({f"lucky:{sum(dice)}"} if sum(dice) in (7, 11) else set())


def test_five_of_a_kind_takes_any_free_square_but_the_centre():
    board = board_with({squares_of("lucky:7")[0]: 1, squares_of("straight:low")[0]: 0})
    free = places((2, 2, 2, 2, 2), board)
    assert len(free) == 78
    assert CENTRE not in free and squares_of("lucky:7")[0] not in free
    assert squares_of("straight:high")[0] in free and squares_of("lucky:7")[1] in free


def test_a_taken_square_is_not_offered_and_a_hand_with_none_free_takes_nothing():
    first, second = squares_of("pair:3")
    assert places((3, 3, 1, 5, 6), EMPTY) == (first, second)
    assert places((3, 3, 1, 5, 6), board_with({first: 0, second: 1})) == ()


def test_a_straight_removes_only_once_every_straight_square_is_taken():
    straights = [i for n in ("straight:low", "straight:high") for i in squares_of(n)]
    three = board_with({s: 0 for s in straights[:3]})
    assert not removes((1, 2, 3, 4, 5), three)
    full = board_with({s: 0 for s in straights})
    assert removes((1, 2, 3, 4, 5), full) and removes((2, 3, 4, 5, 6), full)
    assert not removes((1, 1, 2, 3, 4), full)
    # the same for full houses: all twelve squares
    fulls = [i for i, n in enumerate(layout()) if n and n.startswith("full_house:")]
    assert not removes((5, 5, 5, 1, 1), board_with({s: 1 for s in fulls[:-1]}))
    assert removes((5, 5, 5, 1, 1), board_with({s: 1 for s in fulls}))


# -- series -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "window",
    [
        [at(0, c) for c in range(5)],  # across
        [at(r, 8) for r in range(4, 9)],  # down
        [at(k, k) for k in range(2, 7)],  # diagonal through the centre
        [at(k, 8 - k) for k in range(0, 5)],  # the other diagonal, through the centre
        [at(4, c) for c in range(2, 7)],  # the centre's row
    ],
)
def test_five_in_a_row_in_any_direction_is_a_series_the_centre_counting(window):
    board = board_with({s: 1 for s in window if s != CENTRE})
    assert complete(board, 1) == (tuple(window),)
    assert complete(board, 0) == ()
    # four of them are not a series
    missing = next(s for s in window if s != CENTRE)
    assert complete(board_with({s: 1 for s in window if s not in (missing, CENTRE)}), 1) == ()


def test_the_centre_counts_for_everybody_at_once():
    anna = [at(4, c) for c in range(0, 4)]  # 4 across + centre
    borys = [at(r, 4) for r in range(5, 9)]  # 4 down + centre
    board = board_with({**{s: 0 for s in anna}, **{s: 1 for s in borys}})
    assert complete(board, 0) and complete(board, 1)


def test_every_window_is_five_in_a_straight_line():
    assert len(WINDOWS) == 9 * 5 * 2 + 5 * 5 * 2
    for _, window in WINDOWS:
        rows = [i // SIZE for i in window]
        cols = [i % SIZE for i in window]
        steps = {(rows[k + 1] - rows[k], cols[k + 1] - cols[k]) for k in range(4)}
        assert len(steps) == 1 and steps <= {(0, 1), (1, 0), (1, 1), (1, -1)}


def test_a_second_series_crossing_the_first_on_one_chip_counts():
    first = tuple(at(0, c) for c in range(5))
    crossing = tuple(at(r, 2) for r in range(5))  # shares (0, 2): four chips not in the first
    assert second_allowed(first, crossing)
    board = board_with({s: 0 for s in first + crossing})
    assert series_after(board, 0, (first,)) == (first, crossing)


def test_a_second_series_sharing_two_chips_or_extending_the_first_does_not():
    first = tuple(at(0, c) for c in range(5))
    extended = tuple(at(0, c) for c in range(4, 9))  # the first extended at its end: 4 new chips
    assert not second_allowed(first, extended)
    shifted = tuple(at(0, c) for c in range(1, 6))
    assert not second_allowed(first, shifted)
    nine = board_with({at(0, c): 0 for c in range(9)})
    assert series_after(nine, 0, (first,)) == (first,)
    # a parallel row sharing nothing counts
    below = tuple(at(1, c) for c in range(5))
    assert second_allowed(first, below)
    # a diagonal sharing two squares with a crossing line cannot exist; one sharing
    # two chips of an L does not count
    corner = tuple(at(r, 0) for r in range(5))
    assert second_allowed(first, corner)  # shares (0, 0) only


def test_two_series_made_by_one_chip_both_count():
    across = [at(2, c) for c in range(5)]
    down = [at(r, 2) for r in range(5)]
    chips = {s: 0 for s in across + down if s != at(2, 2)}
    board = board_with({**chips, at(2, 2): 0})
    assert len(series_after(board, 0, ())) == 2


def test_chips_of_a_finished_series_are_protected():
    series = [(), (tuple(at(0, c) for c in range(5)),)]
    board = board_with({**{at(0, c): 1 for c in range(5)}, at(8, 8): 1, at(7, 7): 0})
    assert removable(board, 0, series) == (at(8, 8),)


def test_symbols_are_short():
    assert symbol("full_house:5", cards=True) == "KKK··"
    assert symbol("lucky:7", cards=True) == "7"
    assert symbol("four_of_a_kind:6", cards=False) == "6666"
    assert symbol("straight:high", cards=True) == "10-A"
    assert max(len(symbol(n, cards=True)) for n in layout() if n) <= 10


# -- the game -------------------------------------------------------------------------


def start(players=("Anna", "Borys"), **options) -> BoardGame:
    game = Game.start(Setup("poker_board", players, options))
    assert isinstance(game, BoardGame)
    return game


def dice_for(square: str) -> list[int]:
    """A throw that names this square (lucky squares: a throw that sums to it)."""
    for dice in MULTISETS:
        if named_square(dice) == square or (
            square.startswith("lucky") and square in squares_for(dice) and len(set(dice)) > 1
        ):
            return list(dice)
    raise AssertionError(square)


def place(game, square, player=None):
    """Throw dice naming ``square``'s hand and place the chip there."""
    event = {"type": "place", "square": square}
    if player is not None:
        event["player"] = player
    return game.apply({"type": "throw", "dice": dice_for(layout()[square])}).apply(event)


def test_players_and_teams():
    with pytest.raises(BadOption):
        Setup("poker_board", ("Anna",))
    with pytest.raises(BadOption):
        Setup("poker_board", ("A", "B", "C", "D", "E"))
    Setup("poker_board", ("A", "B", "C", "D"))
    with pytest.raises(BadOption):
        Setup("poker_board", ("A", "B", "C"), {"teams": "on"})
    game = start(("A", "B", "C", "D"), teams="on")
    game = place(game, 0)
    game = place(game, 1)
    game = place(game, 2)  # C plays for A's team
    assert game.board[:3] == (0, 1, 0)
    assert game.state()["board"]["owner_names"] == ["A & C", "B & D"]


def test_a_chip_goes_on_a_free_square_the_hand_names_and_the_turn_passes():
    game = start().apply({"type": "throw", "dice": [5, 5, 5, 1, 1]})
    offered = game.state()["board"]["places"]
    assert offered == squares_of("full_house:5")
    game = game.apply({"type": "place", "square": offered[1]})
    assert game.board[offered[1]] == 0 and game.player == 1 and game.dice == ()


def test_a_lucky_seven_takes_a_lucky_square():
    game = start().apply({"type": "throw", "dice": [1, 1, 1, 2, 2]})
    lucky = squares_of("lucky:7")[0]
    assert lucky in game.state()["board"]["places"]
    game = game.apply({"type": "place", "square": lucky})
    assert game.board[lucky] == 0


@pytest.mark.parametrize(
    ("square", "message"),
    [
        (CENTRE, "centre"),
        (squares_of("pair:3")[0], "do not take"),
        (81, "no square"),
    ],
)
def test_bad_squares_are_refused(square, message):
    game = start().apply({"type": "throw", "dice": [5, 5, 5, 1, 1]})
    with pytest.raises(ScorerError, match=message):
        game.apply({"type": "place", "square": square})


def test_an_occupied_square_and_a_move_out_of_turn_are_refused():
    taken = squares_of("full_house:5")[0]
    game = place(start(), taken)
    game = game.apply({"type": "throw", "dice": [5, 5, 5, 1, 1]})
    with pytest.raises(ForbiddenMove, match="taken"):
        game.apply({"type": "place", "square": taken})
    with pytest.raises(ForbiddenMove, match="Borys's turn"):
        game.apply({"type": "place", "square": squares_of("full_house:5")[1], "player": 0})
    with pytest.raises(ForbiddenMove, match="throw before"):
        start().apply({"type": "place", "square": 0})


def test_pass_only_when_nothing_fits():
    game = start().apply({"type": "throw", "dice": [3, 3, 1, 5, 6]})
    with pytest.raises(ForbiddenMove, match="place the chip"):
        game.apply({"type": "pass"})
    first, second = squares_of("pair:3")
    game = place(place(start(), first), second)
    game = game.apply({"type": "throw", "dice": [3, 3, 1, 5, 6]})
    assert game.state()["board"]["can_pass"]
    game = game.apply({"type": "pass"})
    assert game.player == 1 and game.board.count(None) == 79


def test_a_removal_takes_an_unprotected_opponent_chip():
    straights = [i for n in ("straight:low", "straight:high") for i in squares_of(n)]
    game = start()
    for square in straights:  # Anna and Borys share the four straights
        game = place(game, square)
    # Anna throws a fifth straight: the squares are full, so she removes a chip of Borys
    game = game.apply({"type": "throw", "dice": [1, 2, 3, 4, 5]})
    state = game.state()["board"]
    assert state["removes"] and state["places"] == []
    assert state["removable"] == [s for s in straights if game.board[s] == 1]
    with pytest.raises(ForbiddenMove, match="opponent"):
        game.apply({"type": "remove", "square": straights[0]})
    with pytest.raises(ForbiddenMove, match="no chip"):
        game.apply({"type": "remove", "square": 0 if game.board[0] is None else 1})
    game = game.apply({"type": "remove", "square": straights[1]})
    assert game.board[straights[1]] is None and game.player == 1


def test_a_removal_before_the_squares_are_full_is_refused():
    game = start().apply({"type": "throw", "dice": [1, 2, 3, 4, 5]})
    with pytest.raises(ForbiddenMove, match="once every square"):
        game.apply({"type": "remove", "square": 0})


def protected_game():
    """Anna has a series across row 0 (five of a kind takes any square); Borys removes."""
    game = start()
    filler = [i for i in range(81) if i // SIZE == 8][::2]
    for col in range(5):
        game = game.apply({"type": "throw", "dice": [6] * 5}).apply(
            {"type": "place", "square": at(0, col)}
        )
        game = game.apply({"type": "throw", "dice": [6] * 5}).apply(
            {"type": "place", "square": filler[col]}
        )
    return game


def test_a_chip_in_a_finished_series_cannot_be_removed():
    game = protected_game()
    assert game.series[0] == (tuple(at(0, c) for c in range(5)),)
    straights = [i for n in ("straight:low", "straight:high") for i in squares_of(n)]
    for square in straights:
        if game.board[square] is None:
            game = place(game, square)
    if game.player == 0:
        spare = next(i for i in range(80, 0, -1) if game.board[i] is None and i != CENTRE)
        game = game.apply({"type": "throw", "dice": [6] * 5}).apply(
            {"type": "place", "square": spare}
        )
    # Borys has a removal: Anna's series chips are protected, her others are not
    game = game.apply({"type": "throw", "dice": [2, 3, 4, 5, 6]})
    assert set(game.state()["board"]["removable"]).isdisjoint(range(5))
    with pytest.raises(ForbiddenMove, match="finished series"):
        game.apply({"type": "remove", "square": at(0, 2)})


def test_two_series_win_and_the_game_is_over():
    game = protected_game()
    # Anna adds a column down from (0, 0): four chips not in the first series
    for row in range(1, 5):
        game = game.apply({"type": "throw", "dice": [6] * 5}).apply(
            {"type": "place", "square": at(row, 0)}
        )
        if not game.finished:
            game = game.apply({"type": "throw", "dice": [6] * 5}).apply(
                {"type": "place", "square": at(7, row + 3)}
            )
    assert game.finished and game.winners() == (0,)
    assert game.totals() == (2, 0)
    with pytest.raises(ForbiddenMove, match="over"):
        game.apply({"type": "throw", "dice": [1, 1, 1, 1, 1]})


def test_the_timer_places_the_first_fitting_square_and_the_log_rebuilds_the_game():
    import random

    game = start()
    events = game.timeout_events(random.Random(3))
    assert [e["type"] for e in events] == ["throw", "place"]
    for event in events:
        game = game.apply(event)
    assert game.board.count(0) == 1
    replayed = Game.replay(game.setup, events)
    assert replayed.board == game.board and replayed.state() == game.state()


def test_scorer_score_names_the_square_a_throw_takes(capsys):
    from scorer.cli import main

    assert main(["score", "poker_board", "9", "9", "9", "10", "10"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown == {"square": "full_house:1", "takes": ["full_house:1", "lucky:7"]}


def test_docs_show_the_board_the_game_plays_on():
    from pathlib import Path

    from scorer.rules.board_layout import markdown

    doc = (Path(__file__).resolve().parents[1] / "docs" / "board.md").read_text(encoding="utf-8")
    assert markdown(cards=True) in doc and markdown(cards=False) in doc
    assert "Random(25)" in doc and LAYOUT_SEED == 25


@pytest.mark.parametrize("seed", range(6))
def test_random_games_keep_the_board_rules_after_every_move(seed):
    import random

    rng = random.Random(seed)
    game = start(("Anna", "Borys", "Vera"))
    while not game.finished:
        game = game.apply({"type": "throw", "dice": [rng.randint(1, 6) for _ in range(5)]})
        offered = game.options_now()
        before = game
        if offered["places"]:
            square = rng.choice(offered["places"])
            assert layout()[square] in squares_for(game.values)
            game = game.apply({"type": "place", "square": square})
        elif offered["removable"]:
            square = rng.choice(offered["removable"])
            assert removes(game.values, game.board) and game.board[square] != game.owner
            game = game.apply({"type": "remove", "square": square})
        else:
            game = game.apply({"type": "pass"})
        # then the centre stays free, every series stays whole and its chips stay put
        assert game.board[CENTRE] is None
        for owner, found in enumerate(game.series):
            assert before.series[owner] == found[: len(before.series[owner])]
            assert len(found) <= 2
            for window in found:
                assert all(i == CENTRE or game.board[i] == owner for i in window)
            if len(found) == 2:
                assert second_allowed(*found)
        assert game.finished == any(len(found) == 2 for found in game.series)
    assert len(game.winners()) == 1
