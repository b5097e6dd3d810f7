"""Poker dice drawn as the table's dice print them: a set of dice records its letters
(9 10 J Q K A, or 9 10 В Д К Т), and every page of a game played with it shows those,
while the stored game and the API keep values 1..6 and RULES.md's Latin ranks.
"""

from __future__ import annotations

import pytest

from scorer.dice import CARD_RANKS, CYRILLIC_RANKS
from web.schema import State

THROWN = [4, 4, 1, 6, 5]  # Q Q 9 A K: a pair of queens


@pytest.fixture
def table(store, tmp_path):
    """A table without a camera (dice are typed) that keeps sets of dice."""
    from scorer.bus import Bus
    from scorer.dice_sets import DiceSets
    from scorer.table import Table

    table = Table(store, Bus(), dice_sets=DiceSets(tmp_path / "dice-sets"))
    yield table
    table.close()


def cyrillic_game(client, *, ranks: str = "cyrillic") -> tuple[str, int]:
    """A set of dice printing ``ranks`` and a poker-dice duel played with it: their ids."""
    made = client.post("/api/dice-sets", json={"name": "Red poker", "ranks": ranks})
    assert made.status_code == 200, made.json
    body = {"ruleset": "poker_dice", "players": ["Anna", "Borys"], "dice": "cards"}
    created = client.post("/api/games", json=body | {"dice_set": made.json["set"]})
    assert created.status_code == 201, created.json
    return made.json["set"], created.json["id"]


def test_given_a_cyrillic_set_then_the_games_state_carries_its_letters_and_latin_ranks(client):
    # given a poker-dice game played with a set of dice that prints Cyrillic
    _, game_id = cyrillic_game(client)
    # when a throw is written
    state = client.post(f"/api/games/{game_id}/throw", json={"dice": THROWN}).json
    # then the state names the letters to draw, and the dice keep values and Latin ranks
    assert state["ranks"] == "cyrillic"
    assert state["rank_labels"] == list(CYRILLIC_RANKS)
    assert [d["value"] for d in state["dice"]] == THROWN
    assert [d["rank"] for d in state["dice"]] == ["Q", "Q", "9", "A", "K"]
    State.model_validate(state)
    # and a game without a set, or with a Latin one, draws Latin
    plain = client.post(
        "/api/games", json={"ruleset": "poker_dice", "players": ["A", "B"], "dice": "cards"}
    ).json["state"]
    assert (plain["ranks"], plain["rank_labels"]) == ("latin", list(CARD_RANKS))


def test_given_cyrillic_dice_when_typed_in_their_own_letters_then_read_as_the_values(client):
    _, game_id = cyrillic_game(client)
    # when the players type what their dice show, in either case
    typed = client.post(f"/api/games/{game_id}/throw", json={"dice": ["Д", "д", "9", "Т", "к"]})
    # then the throw is the values those faces stand for
    assert typed.status_code == 200, typed.json
    assert [d["value"] for d in typed.json["dice"]] == THROWN
    # and a letter no die prints is refused as before
    bad = client.post(f"/api/games/{game_id}/dice/0", json={"value": "Ж"})
    assert bad.status_code == 400
    assert bad.json["message"] == "a die shows 1..6 (or 9, 10, J, Q, K, A), not 'Ж'"


def test_given_a_set_when_its_letters_are_switched_then_the_games_pages_follow(client):
    set_id, game_id = cyrillic_game(client, ranks="latin")
    client.post(f"/api/games/{game_id}/throw", json={"dice": THROWN})
    assert client.get(f"/api/games/{game_id}").json["rank_labels"] == list(CARD_RANKS)
    # when the set's letters are switched to Cyrillic (the toggle on /setup or /camera)
    switched = client.post(f"/api/dice-sets/{set_id}/ranks", json={"ranks": "cyrillic"})
    # then the answer, the set's list and the game's state all say so
    assert switched.status_code == 200, switched.json
    assert switched.json["rank_labels"] == list(CYRILLIC_RANKS)
    assert client.get("/api/dice-sets").json["sets"][0]["ranks"] == "cyrillic"
    assert client.get(f"/api/games/{game_id}").json["rank_labels"] == list(CYRILLIC_RANKS)
    # and the game's history page writes the throw as the dice show it
    page = client.get(f"/history/{game_id}").get_data(as_text=True)
    faces = [part.split("<")[0] for part in page.split('<span class="mini-die">')[1:]]
    assert faces == ["Д", "Д", "9", "Т", "К"]


@pytest.mark.parametrize("ranks", ["greek", "CYRILLIC", None, {"x": 1}])
def test_given_letters_no_dice_print_then_refused_with_the_sentence_the_pages_know(client, ranks):
    set_id, _ = cyrillic_game(client, ranks="latin")
    # when a set is given letters that are neither Latin nor Cyrillic, or none at all
    answer = client.post(f"/api/dice-sets/{set_id}/ranks", json={"ranks": ranks})
    # then it is refused, says what it takes, and the set keeps its letters
    assert answer.status_code == 400
    assert "latin (9 10 J Q K A) or cyrillic (9 10 В Д К Т)" in answer.json["message"]
    assert client.get("/api/dice-sets").json["sets"][0]["ranks"] == "latin"
    made = client.post("/api/dice-sets", json={"name": "Other", "ranks": ranks})
    assert made.status_code == (200 if ranks is None else 400)  # null: a new set is Latin
    # and in Russian, the refusal is Russian
    russian = client.post(f"/api/dice-sets/{set_id}/ranks?lang=ru", json={"ranks": "greek"})
    assert russian.json["message"].startswith("на наборе костей достоинства латиницей")


def test_an_unknown_set_has_no_letters_to_switch(client):
    answer = client.post("/api/dice-sets/nothing-here/ranks", json={"ranks": "cyrillic"})
    assert answer.status_code == 404


def test_the_setup_and_camera_pages_offer_the_chosen_sets_letters_as_one_toggle(client):
    # given a Cyrillic set, the one the last game used
    set_id, _ = cyrillic_game(client)
    for path, toggle in (("/setup", "setup-ranks"), ("/camera", "teach-ranks")):
        page = client.get(path).get_data(as_text=True)
        # then the page shows both choices as the faces themselves, Cyrillic checked
        assert f'id="{toggle}"' in page
        assert "9 10 J Q K A" in page and "9 10 В Д К Т" in page
        checked = page.split(f'name="{toggle}" value="cyrillic"')[1].split(">")[0]
        assert "checked" in checked, path
        assert f'value="{set_id}" data-ranks="cyrillic"' in page
    # and in Ukrainian the toggle is named in Ukrainian
    assert "Літери на цих покерних кістках" in client.get("/setup?lang=uk").get_data(as_text=True)
    # and the note on what the table knows of such dice is there, in the page's language
    assert "from pictures of such dice" in client.get("/camera?lang=en").get_data(as_text=True)
    assert "по снимкам таких костей" in client.get("/camera?lang=ru").get_data(as_text=True)


def test_the_history_counts_a_cyrillic_sets_faces_in_its_letters(client):
    # given a Cyrillic set's game whose throw came from the camera (typed ones are not counted)
    from scorer.fairness import Fairness
    from web.pages import set_faces

    set_id, _ = cyrillic_game(client)
    verdict = Fairness(set_id, (1, 1, 1, 1, 1, 1), None, None, None, False, cards=True)
    with client.application.test_request_context():
        # then its faces are headed in the set's letters, a pip set's as numbers
        assert set_faces(verdict) == list(CYRILLIC_RANKS)
        assert set_faces(Fairness("cards", (0,) * 6, None, None, None, False, cards=True)) == list(
            CARD_RANKS
        )
        assert set_faces(Fairness("pips", (0,) * 6, None, None, None, False)) == list("123456")
