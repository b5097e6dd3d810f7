"""Write tests/data/flow1-games.sqlite3 and its states, as the scorer of main 7656746 played.

Run once from a checkout of main 7656746 (before issue 26 changed the whole-game flow):

    git -C /work/main worktree add --detach /tmp/old 7656746
    cp tests/data/make_flow1_games.py /tmp/old/tests/data/
    (cd /tmp/old && /path/to/.venv/bin/python tests/data/make_flow1_games.py)
    cp /tmp/old/tests/data/flow1-games.* tests/data/

The database is kept in git although ``*.sqlite3`` is ignored (``git add -f``).
The games are picked to hit every place where issue 26 changed the flow, so
that replaying them under the new code proves old games keep their old rules:
a throw_bank game whose bank the old formula credited, a part-1 throw that
re-threw new dice of the committed number, a poker_ua chance written on throw
1, extra rounds into chance, a one-player poker_dice, poker_dice rounds always
opened by the first player, and a poker_ru game with no roll-off.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from scorer.game import Game, Setup  # noqa: E402
from scorer.store import Store  # noqa: E402

DB = HERE / "flow1-games.sqlite3"
EXPECTED = HERE / "flow1-games.json"

UPPER = ["ones", "twos", "threes", "fours", "fives", "sixes"]
PART2 = [
    "pair",
    "two_pairs",
    "three_of_a_kind",
    "small_straight",
    "large_straight",
    "full_house",
    "four_of_a_kind",
    "poker",
    "chance",
]


def throw(dice: list[int]) -> dict:
    return {"type": "throw", "dice": dice}


def write(cell: str) -> dict:
    return {"type": "write", "cell": cell}


def poker_ru_full(players: int) -> list[dict]:
    events: list[dict] = []
    for face, cell in enumerate(UPPER, 1):
        for p in range(players):
            other = 1 if face != 1 else 2
            events += [
                throw([face, face, other, other, (face % 6) + 1]),
                {"type": "commit", "cell": cell},
                throw([face, face, face] if p == 0 else [other, other, other]),
                write(cell),
            ]
    hands = {
        "pair": [2, 2, 3, 4, 6],
        "two_pairs": [2, 2, 3, 3, 6],
        "three_of_a_kind": [5, 5, 5, 1, 2],
        "small_straight": [1, 2, 3, 4, 5],
        "large_straight": [2, 3, 4, 5, 6],
        "full_house": [4, 4, 4, 6, 6],
        "four_of_a_kind": [1, 1, 1, 1, 6],
        "poker": [1, 2, 3, 5, 6],
        "chance": [1, 2, 3, 5, 6],
    }
    for cell in PART2:
        for _ in range(players):
            events += [throw(hands[cell]), write(cell)]
    return events


def games() -> list[tuple[Setup, list[dict]]]:
    yahtzee = [
        throw([2, 2, 3, 4, 5]),
        {"type": "hold", "held": [0, 1]},
        throw([2, 6, 6]),
        write("full_house"),
        throw([1, 1, 1, 1, 1]),
        write("yahtzee"),
        throw([3, 4, 5, 6, 6]),
        {"type": "correct", "index": 4, "value": 2},
        write("small_straight"),
        throw([5, 5, 5, 5, 5]),
        write("fives"),
        throw([6, 6, 6, 6, 6]),
        write("sixes"),
        {"type": "undo"},
        {"type": "scratch", "cell": "chance"},
    ]
    # poker_ru, the old throw_bank: one throw then writing sixes banked 1 (RULES.md now: 0),
    # so the next turn's third throw on ones is legal only under the old rule.
    bank = [
        throw([6, 6, 6, 1, 2]),
        write("sixes"),
        {"type": "scratch", "cell": "threes"},
        throw([1, 2, 3, 4, 5]),
        {"type": "commit", "cell": "ones"},
        throw([2, 2, 2, 2]),
        throw([1, 1, 1, 2]),
        write("ones"),
    ]
    # poker_ru, 3 throws for a number: throw 2 shows new fours that throw 3 re-throws with
    # no hold event (RULES.md now keeps them on the table).
    rethrow = [
        throw([4, 1, 2, 3, 5]),
        {"type": "commit", "cell": "fours"},
        throw([4, 4, 1, 2]),
        throw([4, 6, 6, 1, 2]),
        write("fours"),
    ]
    # poker_ua: chance on throw 1 with a full house (RULES.md now: only after throw 3).
    ua = []
    for face, cell in enumerate(UPPER, 1):
        ua += [throw([face, face, face, 7 - face, 7 - face]), write(cell)]
    ua += [throw([6, 6, 6, 5, 5]), write("chance"), throw([2, 2, 3, 4, 6]), write("pair")]
    duel_solo = [throw([6, 6, 6, 5, 5]), write("hand"), throw([1, 2, 3, 4, 6]), write("hand")]
    duel = []
    for rnd in range(3):
        duel += [
            throw([6, 6, 6, 5, 5]),
            write("hand"),
            throw([rnd + 1] * 5),
            {"type": "hold", "held": [0]},
            throw([1, 2, 3, 4]),
            write("hand"),
        ]
    extra = [
        *poker_ru_full(2),
        {"type": "extra_round"},
        throw([6, 6, 6, 6, 6]),
        write("poker"),
        throw([1, 2, 3, 5, 6]),
        write("chance"),
        {"type": "extra_round"},
        throw([1, 2, 4, 5, 6]),
        write("chance"),
    ]
    generala = [
        throw([1, 2, 3, 4, 5]),
        write("escalera"),
        throw([3, 3, 3, 3, 3]),
        write("generala"),
    ]
    yatzy = [throw([5, 5, 3, 3, 1]), write("two_pairs"), throw([6, 6, 6, 6, 6]), write("yatzy")]
    yacht = [throw([2, 2, 2, 2, 2]), write("full_house"), throw([1, 3, 3, 4, 5]), write("choice")]
    return [
        (Setup("yahtzee", ("Anna", "Borys")), yahtzee),
        (
            Setup(
                "poker_ru",
                ("Olga", "Ivan"),
                {"throws": 1, "throws.ones": 2, "throws.twos": 2, "throw_bank": True},
            ),
            bank,
        ),
        (Setup("poker_ru", ("Olga",), {"throws": 3}), rethrow),
        (Setup("poker_ua", ("Taras",)), ua),
        (Setup("poker_dice", ("Solo",), dice="cards"), duel_solo),
        (Setup("poker_dice", ("A", "B"), dice="cards"), duel),
        (Setup("poker_ru", ("Olga", "Ivan"), {"multipliers": False}), extra),
        (Setup("generala", ("Ana", "Bea")), generala),
        (Setup("yatzy", ("Sven",), timer=60), yatzy),
        (Setup("yacht", ("Kim",)), yacht),
    ]


def summary(game: Game) -> dict:
    """What the replay under new code must reproduce (state() gained keys since)."""
    state = game.state()
    keep = ("sheet", "bonuses", "totals", "current_player", "throw", "finished", "winners")
    out = {k: state[k] for k in keep}
    out["version"] = game.version
    out["dice"] = [d["value"] for d in state["dice"]]
    out["extra_turns"] = state["extra_turns"]
    return out


def main() -> None:
    for path in (DB, Path(f"{DB}-wal"), Path(f"{DB}-shm")):
        path.unlink(missing_ok=True)
    store = Store(DB)
    expected = {}
    for setup, events in games():
        game_id, game = store.create(setup)
        for event in events:
            game = store.act(game_id, event)
        expected[str(game_id)] = summary(game)
    store._db.execute("PRAGMA journal_mode=DELETE")
    store.close()
    EXPECTED.write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(expected)} games in {DB.name}, expected states in {EXPECTED.name}")


if __name__ == "__main__":
    main()
