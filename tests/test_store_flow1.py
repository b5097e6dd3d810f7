"""Games stored before issue 26 changed the whole-game flow still load, replay and play on.

tests/data/flow1-games.sqlite3 was written by main 7656746 with
tests/data/make_flow1_games.py, and flow1-games.json holds the states that
scorer computed. Their setups carry no ``flow``: they replay as flow 1, the
rules they were played by.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest

from scorer.errors import ScorerError
from scorer.game import Game, Setup
from scorer.rules import FLOW
from scorer.store import Store
from tests.data.make_flow1_games import summary  # the states were written by this summary

DATA = Path(__file__).parent / "data"


@pytest.fixture
def old_store(tmp_path):
    db = tmp_path / "games.sqlite3"
    shutil.copy(DATA / "flow1-games.sqlite3", db)
    store = Store(db)
    yield store
    store.close()


def test_every_game_main_stored_replays_to_the_state_main_computed(old_store):
    # given the database today's main wrote, and the states it computed then
    expected = json.loads((DATA / "flow1-games.json").read_text(encoding="utf-8"))
    assert len(expected) == 10
    for game_id, want in expected.items():
        # when the new scorer loads each game from its log
        game = old_store.load(int(game_id))
        # then it is a flow-1 game and every sheet, total and turn is as it was
        assert game.flow == 1, game_id
        assert summary(game) == want, f"game {game_id} ({game.setup.ruleset})"
    # and the history lists them all
    assert len(old_store.games()) == 10


def test_the_stored_games_hit_every_rule_issue_26_changed(old_store):
    # given the stored logs of the games whose play the new flow would refuse
    refused = {}
    for game_id in (2, 3, 4, 5, 7):
        setup = old_store.setup(game_id)
        events = [e["event"] for e in old_store.events(game_id)]
        # when they are replayed as if they were new (flow 2) games
        try:
            Game.replay(dataclasses.replace(setup, flow=FLOW), events)
        except ScorerError as err:
            refused[game_id] = str(err)
    # then each is refused: the flow-1 replay above is what keeps them loadable
    assert set(refused) == {2, 3, 4, 5, 7}, refused
    assert "before striking" in refused[2]  # the old bank let a cell be struck unthrown
    assert "held" in refused[3]  # new fours re-thrown
    assert "chance" in refused[4]  # chance on throw 1
    assert "2 to 6 players" in refused[5]  # poker_dice alone
    assert "chance" in refused[7]  # chance in an extra round


def test_an_old_game_plays_on_under_its_old_rules_and_new_games_get_the_new_flow(old_store):
    # given the old poker_ru game with the old bank: Olga spent hers, Ivan's strike banked 2
    game = old_store.load(2)
    assert (game.bank, game.player) == ((0, 2), 1)
    # when Ivan throws once, commits to twos and writes
    game = old_store.act(2, {"type": "throw", "dice": [2, 2, 1, 3, 4]})
    game = old_store.act(2, {"type": "commit", "cell": "twos"})
    game = old_store.act(2, {"type": "write", "cell": "twos"})
    # then the old formula banked what was left of his turn, as before
    assert game.bank == (0, 2 + 2 - 1)
    # and the game still loads from disk the same after reopening
    path = old_store.path
    old_store.close()
    again = Store(path)
    assert summary(again.load(2)) == summary(game)
    # and a game created now is stored with the current flow
    game_id, _ = again.create(Setup("poker_ru", ("Olga", "Ivan")))
    assert again.setup(game_id).flow == FLOW
    assert again.setup(2).flow == 1
    again.close()
