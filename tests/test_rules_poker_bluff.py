"""poker_bluff (RULES.md, seed 003): claims, their order over all hands, calls and lives."""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement, product

import pytest

from scorer.bluff import HIDDEN, BluffGame
from scorer.errors import BadDice, BadOption, ForbiddenMove, ScorerError
from scorer.game import Game, Setup
from scorer.rules import get_ruleset
from scorer.rules.poker_bluff import (
    BadClaim,
    Claim,
    all_hands,
    beats,
    floor,
    holds,
    is_top,
    next_claims,
)
from scorer.rules.poker_dice import compare, hand
from tests.rules_oracle import RANKING_HIGH_TO_LOW, poker_category

STRAIGHTS = ("above_full_house", "below_full_house", "none")
MULTISETS = list(combinations_with_replacement(range(1, 7), 5))

# -- an oracle written from RULES.md alone, not from the product's code (tests/rules_oracle)


def category_rank(name, straights):
    """0 for a high card up to the top category under the ``straights`` agreement."""
    ranking = RANKING_HIGH_TO_LOW[straights]
    return len(ranking) - 1 - ranking.index(name)


def oracle(dice, straights):
    """(category rank, category, ranks larger group first then higher) from the counts alone."""
    count = Counter(dice)
    key = tuple(sorted(count, key=lambda v: (count[v], v), reverse=True))
    name = poker_category(tuple(dice), straights)
    return category_rank(name, straights), name, key


def oracle_holds(dice, claim, straights):
    """A hand makes at least a claim: a higher category, or the same one with the named
    ranks matched or bettered (kickers not named are any)."""
    rank, _, key = oracle(dice, straights)
    wanted = category_rank(claim.hand, straights)
    if rank != wanted:
        return rank > wanted
    return key[: len(claim.ranks)] >= claim.ranks


def full_claim(dice, straights):
    _, name, key = oracle(dice, straights)
    return Claim(name, key)


@pytest.mark.parametrize("straights", STRAIGHTS)
def test_full_claims_order_exactly_as_the_hands_over_all_252_hands(straights):
    # given every different hand of five dice, claimed with all its ranks
    claims = {d: full_claim(d, straights) for d in MULTISETS}
    for a, b in product(MULTISETS, repeat=2):
        # then one beats the other exactly when its hand is higher by the oracle
        ra, _, ka = oracle(a, straights)
        rb, _, kb = oracle(b, straights)
        assert beats(claims[a], claims[b], straights) == ((ra, ka) > (rb, kb)), (a, b)
        assert beats(claims[a], claims[b], straights) == (
            compare(hand(a, straights), hand(b, straights), straights) > 0
        )


@pytest.mark.parametrize("straights", STRAIGHTS)
def test_a_call_is_judged_as_the_oracle_judges_it_for_every_claim_and_every_hand(straights):
    # given every claim the picker can offer (all kickers) and every hand
    claims = {
        Claim(c.hand, c.ranks[:n])
        for c in (full_claim(d, straights) for d in MULTISETS)
        for n in range(1, len(c.ranks) + 1)
        if n >= (2 if c.hand in ("full_house", "two_pairs") else 1)
    }
    assert len(all_hands(straights)) == len({oracle(d, straights)[1:] for d in MULTISETS})
    for claim in claims:
        for dice in MULTISETS:
            # then the revealed hand makes the claim exactly when the oracle says so
            assert holds(dice, claim, straights) == oracle_holds(dice, claim, straights)


def test_a_claim_without_kickers_counts_as_the_lowest_kickers():
    pair_of_aces = Claim("pair", (6,))
    # given "pair of A": adding the lowest kickers is the same claim, a higher kicker beats it
    assert floor(pair_of_aces, "above_full_house").key == (6, 3, 2, 1)
    assert not beats(Claim("pair", (6, 3, 2, 1)), pair_of_aces, "above_full_house")
    assert beats(Claim("pair", (6, 4)), pair_of_aces, "above_full_house")
    # "two pairs, A and 10" may leave the kicker out; "9 kicker" is no higher, "J kicker" is
    two_pairs = Claim("two_pairs", (6, 2))
    assert not beats(Claim("two_pairs", (6, 2, 1)), two_pairs, "above_full_house")
    assert beats(Claim("two_pairs", (6, 2, 3)), two_pairs, "above_full_house")
    # "full house, K over 9" beats "full house, Q over A" (the triple ranks first)
    assert beats(Claim("full_house", (5, 1)), Claim("full_house", (4, 6)), "above_full_house")


def test_straights_rank_as_the_table_agreed():
    straight, full = Claim("straight", (5,)), Claim("full_house", (6, 5))
    assert beats(straight, full, "above_full_house")
    assert beats(full, straight, "below_full_house")
    with pytest.raises(BadClaim):  # no straight without straights: 9-10-J-Q-K is a high card
        floor(straight, "none")


@pytest.mark.parametrize(
    "claim",
    [
        Claim("full_house", (5, 5)),  # a full house of one rank is five of a kind
        Claim("full_house", (5,)),  # names the triple only
        Claim("straight", (4,)),  # no straight tops at Q
        Claim("high_card", (5,)),  # with straights, a high card always holds an A
        Claim("two_pairs", (2, 6)),  # the higher pair comes first
    ],
)
def test_a_claim_no_throw_makes_is_refused(claim):
    with pytest.raises(BadClaim):
        floor(claim, "above_full_house")


@pytest.mark.parametrize("straights", STRAIGHTS)
def test_the_picker_offers_only_higher_claims_each_one_tap_and_climbs_to_five_aces(straights):
    # given the picker from the round's start, always taking its lowest offer
    last, steps = None, 0
    while True:
        offered = next_claims(last, straights)
        for claim in offered:
            # then every offer beats the last claim, and no shorter form of it would do
            assert beats(claim, last, straights)
            need = 2 if claim.hand in ("full_house", "two_pairs") else 1
            for n in range(need, len(claim.ranks)):
                assert not beats(Claim(claim.hand, claim.ranks[:n]), last, straights)
        if not offered:
            break
        # and every higher hand is reachable from some offer
        assert {floor(c, straights) for c in offered} <= set(all_hands(straights))
        last, steps = offered[0], steps + 1
    # the climb ends on five aces, which nothing beats
    assert last == Claim("five_of_a_kind", (6,))
    assert is_top(last, straights)
    # and taking the lowest offer each time steps through every one of the hands in order
    assert steps == len(all_hands(straights)) == len({oracle(d, straights)[1:] for d in MULTISETS})


def test_every_higher_hand_is_claimable_from_the_picker():
    last = Claim("two_pairs", (5, 4, 6))
    offered = next_claims(last, "above_full_house")
    higher = [
        h for h in all_hands("above_full_house") if compare(h, floor(last, "above_full_house")) > 0
    ]
    # each higher hand is made by some offer that it satisfies
    for h in higher:
        assert any(c.hand == h.category and h.key[: len(c.ranks)] == c.ranks for c in offered), h


# -- the game -------------------------------------------------------------------------


def start(players=("Anna", "Borys", "Vera"), **options) -> BluffGame:
    game = Game.start(Setup("poker_bluff", players, options))
    assert isinstance(game, BluffGame)
    return game


def play(game, *events):
    for event in events:
        game = game.apply(event)
    return game


def claim(hand_name, *ranks, **extra):
    return {"type": "claim", "hand": hand_name, "ranks": list(ranks), **extra}


def test_ruleset_options_and_players():
    rules = get_ruleset("poker_bluff")
    assert rules.options == {"lives": 3, "straights": "above_full_house"}
    assert rules.describe()["kind"] == "bluff"
    with pytest.raises(BadOption):
        Setup("poker_bluff", ("Anna",))
    with pytest.raises(BadOption):
        Setup("poker_bluff", ("A", "B"), {"lives": 0})
    assert start(("A", "B"), lives=5).lives == (5, 5)


def test_a_call_the_claim_holds_costs_the_caller_a_life():
    # given Anna claims three kings and Borys raises to a full house, K over 9
    game = play(start(), claim("three_of_a_kind", 5), claim("full_house", 5, 1))
    assert game.player == 2
    # when Vera calls and the camera reads K K K A A (higher than the claim)
    game = play(game, {"type": "call"}, {"type": "throw", "dice": [5, 5, 6, 5, 6]})
    verdict = game.state()["bluff"]["reveal"]
    assert (verdict["hand"], verdict["holds"], verdict["loser"]) == ("full_house", True, 2)
    game = game.apply({"type": "judge"})
    # then Vera loses a life and starts the next round; the ladder is empty again
    assert game.lives == (3, 3, 2)
    assert (game.player, game.claims, game.dice) == (2, (), ())
    assert game.state()["bluff"]["last_round"]["loser"] == 2


def test_a_call_of_a_bluff_costs_the_claimer_a_life_and_a_tap_corrects_the_reading():
    game = play(start(), claim("four_of_a_kind", 6), {"type": "call"})
    # given the reveal read as A A A A 9 (the claim would hold)
    game = game.apply(
        {
            "type": "throw",
            "dice": [6, 6, 6, 6, 1],
            "reading": {"confidence": [0.9] * 4 + [0.3], "unsure": [4]},
        }
    )
    with pytest.raises(ForbiddenMove, match="confirm die 5"):
        game.apply({"type": "judge"})
    game = game.apply({"type": "correct", "index": 3, "value": 2})  # the fourth die is a 10
    game = game.apply({"type": "correct", "index": 4, "value": 1})
    assert game.state()["bluff"]["reveal"]["holds"] is False
    game = game.apply({"type": "judge"})
    # then the claimer, Anna, loses the life and starts again
    assert game.lives == (2, 3, 3)
    assert game.player == 0


def test_a_player_with_no_lives_is_out_and_the_last_one_left_wins():
    game = start(("Anna", "Borys", "Vera"), lives=1)
    game = play(
        game, claim("pair", 1), {"type": "call"}, {"type": "throw", "dice": [1, 1, 2, 3, 4]}
    )
    game = game.apply({"type": "judge"})  # Borys called a true pair: out
    assert game.lives == (1, 0, 1)
    # the loser is out, so the next player alive starts, and turns skip him
    assert game.player == 2
    game = game.apply(claim("pair", 2))
    assert game.player == 0
    game = play(
        game, {"type": "call"}, {"type": "throw", "dice": [3, 4, 5, 6, 1]}, {"type": "judge"}
    )
    # Vera's pair of 10 was a bluff: she is out, Anna is the last one left
    assert game.finished and game.winners() == (0,)
    with pytest.raises(ForbiddenMove, match="over"):
        game.apply(claim("pair", 3))


def test_five_aces_cannot_be_beaten():
    game = play(start(), claim("five_of_a_kind", 6))
    assert game.state()["bluff"]["next_claims"] == []
    with pytest.raises(ForbiddenMove, match="call"):
        game.apply(claim("five_of_a_kind", 6))


@pytest.mark.parametrize(
    ("events", "refusal"),
    [
        ([claim("pair", 5), claim("pair", 4)], ForbiddenMove),  # not higher than the last
        ([claim("pair", 5), claim("pair", 5)], ForbiddenMove),  # equal is not higher
        ([claim("five_of_a_kind", 6), claim("five_of_a_kind", 6)], ForbiddenMove),  # after the top
        ([{"type": "call"}], ForbiddenMove),  # a call before any claim
        ([claim("pair", 5), {"type": "call"}, {"type": "throw", "dice": [1, 2, 3, 4]}], BadDice),
        (
            [claim("pair", 5), {"type": "call"}, {"type": "throw", "dice": [1, 2, 3, 4, 5, 6]}],
            BadDice,
        ),
        ([{"type": "throw", "dice": [1, 2, 3, 4, 5]}], ForbiddenMove),  # hidden dice
        ([claim("pair", 5), {"type": "judge"}], ForbiddenMove),  # nothing called
        ([claim("pair", 5), {"type": "call"}, {"type": "judge"}], ForbiddenMove),  # no reveal
        ([claim("pair", 5, player=1)], ForbiddenMove),  # out of turn
        ([claim("royal_flush", 6)], BadClaim),
        ([{"type": "write", "cell": "hand"}], ScorerError),
    ],
)
def test_bad_moves_are_refused_and_change_nothing(events, refusal):
    game = play(start(), *events[:-1])
    before = game.state()
    with pytest.raises(refusal):
        game.apply(events[-1])
    assert game.state() == before


def test_a_throw_during_a_hidden_turn_says_the_dice_are_hidden():
    with pytest.raises(ForbiddenMove, match=HIDDEN):
        start().apply({"type": "throw", "dice": [1, 2, 3, 4, 5]})


def test_the_state_never_shows_hidden_dice_and_the_log_rebuilds_the_game():
    events = [
        claim("pair", 3),
        claim("two_pairs", 4, 2),
        {"type": "call"},
        {
            "type": "throw",
            "dice": [4, 4, 2, 2, 1],
            "reading": {"photo": "game-1/a.jpg", "boxes": [[1, 2, 3, 4]] * 5},
        },
        {"type": "judge"},
        claim("three_of_a_kind", 1),
    ]
    game = play(start(), *events)
    state = game.state()
    assert state["dice"] == [] and state["bluff"]["phase"] == "claim"
    assert state["bluff"]["last_round"]["photo"] == "game-1/a.jpg"
    assert state["bluff"]["claims"] == [{"player": 2, "hand": "three_of_a_kind", "ranks": [1]}]
    again = Game.replay(game.setup, events)
    assert again.state() | {"version": 0} == state | {"version": 0}
    # undo takes back the last claim only
    assert game.apply({"type": "undo"}).claims == ()


def test_scorer_score_shows_a_revealed_hand(capsys):
    import json

    from scorer.cli import main

    assert main(["score", "poker_bluff", "K", "K", "K", "9", "9"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown == {"hand": "full_house", "key": [5, 1], "cards": ["K", "9"]}
