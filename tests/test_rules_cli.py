"""``scorer rulesets`` and ``scorer score`` through ``scorer.cli.main``: output and bad input."""

from __future__ import annotations

import io
import json

import pytest

from scorer.cli import main
from scorer.rules import RULESET_IDS


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_rulesets_lists_every_ruleset_with_its_cells(capsys: pytest.CaptureFixture[str]) -> None:
    # Given the registry
    # When the rulesets are listed as text and as JSON
    status, text, _ = run(capsys, "rulesets")
    _, raw, _ = run(capsys, "rulesets", "--json")
    listed = json.loads(raw)
    # Then every ruleset is there, with its cells and options
    assert status == 0
    assert [r["id"] for r in listed] == list(RULESET_IDS)
    for ruleset in RULESET_IDS:
        assert f"{ruleset}:" in text
    by_id = {r["id"]: r for r in listed}
    assert by_id["poker_dice"]["cells"] == ["hand"]
    assert by_id["poker_dice"]["kind"] == "duel"
    assert by_id["poker_ru"]["options"]["value.two_pairs"]["default"] == 7
    assert "two_pairs" in by_id["yatzy"]["cells"]


def test_score_prints_every_cell_as_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    # Given yatzy and 5-5-3-3-1
    # When scored
    status, out, _ = run(capsys, "score", "yatzy", "5", "5", "3", "3", "1")
    scored = json.loads(out)
    # Then one object with every cell
    assert status == 0
    assert scored["two_pairs"] == 16 and scored["one_pair"] == 10 and scored["chance"] == 17
    assert len(scored) == 15


def test_score_reads_card_faces_and_joined_dice(capsys: pytest.CaptureFixture[str]) -> None:
    # Given a full house written as card faces, joined by dashes
    # When poker_dice scores it
    status, out, _ = run(capsys, "score", "poker_dice", "K-K-K-9-9")
    # Then the hand is named, with its rank, tie-break key and cards
    assert status == 0
    assert json.loads(out) == {
        "hand": "full_house",
        "rank": 4,
        "key": [5, 1],
        "cards": ["K", "K", "K", "9", "9"],
    }


def test_score_with_options_throw_and_cells(capsys: pytest.CaptureFixture[str]) -> None:
    # Given poker_ru without multipliers and a costlier pair
    argv = ["score", "poker_ru", "--throw", "1", "--option", "multipliers=off"]
    argv += ["--option", "value.pair=6", "--cell", "pair", "--cell", "fours", "4,4,1,2,3"]
    # When scored
    status, out, _ = run(capsys, *argv)
    # Then only the asked cells, at the agreed values
    assert status == 0
    assert json.loads(out) == {"pair": 6, "fours": -3}


def test_score_stdin_prints_one_object_a_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given three throws on stdin, one a blank line apart
    monkeypatch.setattr("sys.stdin", io.StringIO("6 6 6 6 6\n\nA K Q J 10\n9,9,9,9,9\n"))
    # When poker_dice reads them
    status, out, _ = run(capsys, "score", "poker_dice", "-")
    # Then one hand a line
    assert status == 0
    assert [json.loads(line)["hand"] for line in out.splitlines()] == [
        "five_of_a_kind",
        "straight",
        "five_of_a_kind",
    ]


BAD_INPUT = [
    (["score", "yatzy", "1", "2", "3", "4", "7"], "not 7"),
    (["score", "yatzy", "1", "2", "3", "4", "Z"], "not 'Z'"),
    (["score", "yatzy", "1", "2", "3", "4"], "5 dice, got 4"),
    (["score", "yatzy", "1", "2", "3", "4", "5", "6"], "5 dice, got 6"),
    (["score", "farkle", "1", "2", "3", "4", "5"], "unknown ruleset 'farkle'"),
    (["score", "yatzy", "--cell", "yahtzee", "1", "2", "3", "4", "5"], "no cell 'yahtzee'"),
    (["score", "yatzy", "--option", "bonus=0", "1", "2", "3", "4", "5"], "no option 'bonus'"),
    (["score", "poker_ru", "--option", "multipliers", "1", "2", "3", "4", "5"], "KEY=VALUE"),
    (["score", "poker_ru", "--option", "multipliers=maybe", "1", "1", "1", "1", "1"], "multipl"),
    (["score", "poker_ru", "--option", "value.pair=-5", "1", "1", "1", "1", "1"], "value.pair"),
    (["score", "poker_dice", "--option", "straights=wild", "1", "1", "1", "1", "1"], "straights"),
    (["score", "poker_dice", "--option", "rounds=0", "1", "1", "1", "1", "1"], "rounds"),
    (["score", "yahtzee", "--throw", "4", "1", "2", "3", "4", "5"], "at most 3 throws"),
    (["score", "yahtzee", "--throw", "0", "1", "2", "3", "4", "5"], "throw number"),
    (["score", "yahtzee", "1", "2", "-", "4", "5"], "'-'"),
]


@pytest.mark.parametrize(("argv", "named"), BAD_INPUT, ids=[" ".join(a[1:]) for a, _ in BAD_INPUT])
def test_bad_input_exits_2_naming_the_problem(
    capsys: pytest.CaptureFixture[str], argv: list[str], named: str
) -> None:
    # Given a command line with one thing wrong
    # When it runs
    status, out, err = run(capsys, *argv)
    # Then exit 2, nothing printed, and the message names the problem
    assert status == 2
    assert out == ""
    assert named in err


def test_bad_stdin_line_is_named_by_its_number(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a good throw, then a line with four dice
    monkeypatch.setattr("sys.stdin", io.StringIO("1 2 3 4 5\n1 2 3 4\n"))
    # When yacht reads them
    status, _, err = run(capsys, "score", "yacht", "-")
    # Then exit 2 naming line 2
    assert status == 2
    assert "stdin line 2" in err and "got 4" in err


def test_throw_bank_lets_poker_ru_score_a_fourth_throw(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Given the throw bank variant
    # When dice are scored after a fourth (banked) throw
    status, out, _ = run(
        capsys, "score", "poker_ru", "--option", "throw_bank=on", "--throw", "4", "3 3 3 3 1"
    )
    # Then they score, without multiplier
    assert status == 0
    assert json.loads(out)["four_of_a_kind"] == 30
