"""The JSON API: every move, and every error as JSON with a message and no change."""

from __future__ import annotations

import json
import time

import pytest


def start(client, ruleset: str = "generala", players=("Anna", "Borys"), **extra) -> dict:
    response = client.post(
        "/api/games", json={"ruleset": ruleset, "players": list(players), **extra}
    )
    assert response.status_code == 201, response.json
    return response.json["state"]


def test_a_game_is_created_and_its_whole_state_returned(client):
    # when a game is created
    response = client.post("/api/games", json={"ruleset": "yahtzee", "players": ["Anna", "Borys"]})
    # then it answers the id, and GET returns the whole state
    assert response.status_code == 201
    game_id = response.json["id"]
    state = client.get(f"/api/games/{game_id}").json
    assert state["id"] == game_id
    assert state["players"] == ["Anna", "Borys"]
    assert state["throw"] == 0 and state["dice"] == []
    assert "ones" in state["sheet"][0]


def test_typed_throw_correct_hold_write_and_undo(client):
    # given a game
    game_id = start(client)["id"]
    base = f"/api/games/{game_id}"
    # when dice are typed in, one corrected, two held and the rest re-thrown
    state = client.post(f"{base}/throw", json={"dice": [4, 4, 2, 3, 5]}).json
    assert [d["value"] for d in state["dice"]] == [4, 4, 2, 3, 5]
    state = client.post(f"{base}/dice/2", json={"value": 4}).json
    assert state["dice"][2]["corrected"] is True
    state = client.post(f"{base}/hold", json={"held": [0, 1, 2]}).json
    assert [d["held"] for d in state["dice"]] == [True, True, True, False, False]
    state = client.post(f"{base}/throw", json={"dice": [4, 1]}).json
    assert [d["value"] for d in state["dice"]] == [4, 4, 4, 4, 1]
    # then writing scores the cell, and undo takes the write back
    state = client.post(f"{base}/write", json={"cell": "fours"}).json
    assert state["sheet"][0]["fours"] == 16 and state["current_player"] == 1
    state = client.post(f"{base}/undo").json
    assert state["sheet"][0]["fours"] is None and state["current_player"] == 0


def test_a_bodiless_throw_reads_the_camera(client, reader):
    # given the camera sees 1 2 3 4 5
    game_id = start(client)["id"]
    reader.queue([1, 2, 3, 4, 5])
    # when the page's "Throw complete" posts no body
    state = client.post(f"/api/games/{game_id}/throw").json
    # then the dice read are the throw
    assert [d["value"] for d in state["dice"]] == [1, 2, 3, 4, 5]
    assert state["scores"]["escalera"] == 25  # servida


@pytest.mark.parametrize(
    ("path", "body", "status", "error"),
    [
        ("/write", {"cell": "fours"}, 409, "ForbiddenMove"),  # no throw yet
        ("/write", {}, 400, "BadRequest"),
        ("/throw", {"dice": [1, 2, 7, 4, 5]}, 400, "BadDice"),
        ("/throw", {"dice": [1, 2, 3]}, 400, "BadDice"),
        ("/throw", {"dice": "12345"}, 400, "BadDice"),
        ("/hold", {"held": "0,1"}, 400, "BadRequest"),
        ("/hold", {"held": [0]}, 409, "ForbiddenMove"),  # nothing thrown to hold
        ("/dice/0", {"value": 3}, 409, "ForbiddenMove"),
        ("/undo", {}, 409, "ForbiddenMove"),
        ("/write", {"cell": "fours", "version": "7"}, 400, "BadRequest"),
    ],
)
def test_errors_are_json_with_a_message_and_change_nothing(client, path, body, status, error):
    # given a fresh game
    state = start(client)
    game_id = state["id"]
    # when a bad or forbidden request comes
    response = client.post(f"/api/games/{game_id}{path}", json=body)
    # then it is refused with a JSON message, and the state is as it was
    assert response.status_code == status
    assert response.json["message"]
    if error:
        assert response.json["error"] == error
    assert client.get(f"/api/games/{game_id}").json["version"] == state["version"]


def test_an_unknown_cell_is_a_400(client):
    game_id = start(client)["id"]
    client.post(f"/api/games/{game_id}/throw", json={"dice": [1, 2, 3, 4, 5]})
    response = client.post(f"/api/games/{game_id}/write", json={"cell": "nope"})
    assert response.status_code == 400
    assert response.json["error"] == "UnknownCell"


def test_malformed_json_is_a_400(client):
    game_id = start(client)["id"]
    response = client.post(
        f"/api/games/{game_id}/write", data="{cell:", content_type="application/json"
    )
    assert response.status_code == 400
    assert "JSON" in response.json["message"]
    response = client.post(f"/api/games/{game_id}/write", json=["twos"])
    assert response.status_code == 400


def test_unknown_game_is_a_404(client):
    for method, path in [("get", "/api/games/999"), ("post", "/api/games/999/throw")]:
        response = getattr(client, method)(path, json={"dice": [1, 2, 3, 4, 5]})
        assert response.status_code == 404
        assert response.json["error"] == "UnknownGame"


def test_bad_setups_are_400_with_the_reason(client):
    for body in (
        {"ruleset": "chess", "players": ["A"]},
        {"ruleset": "yahtzee", "players": []},
        {"ruleset": "yahtzee", "players": ["A"] * 7},
        {"ruleset": "yahtzee", "players": ["A"], "timer": 17},
        {"ruleset": "generala", "players": ["A"], "options": {"nope": 1}},
    ):
        response = client.post("/api/games", json=body)
        assert response.status_code == 400, body
        assert response.json["message"]


def test_two_phones_writing_at_once_one_wins_the_other_gets_409_and_fresh_state(client):
    # given both phones saw the same state after a throw
    state = start(client)
    game_id, base = state["id"], f"/api/games/{state['id']}"
    seen = client.post(f"{base}/throw", json={"dice": [3, 3, 3, 5, 5]}).json["version"]
    # when both write with the version they saw
    first = client.post(f"{base}/write", json={"cell": "full", "version": seen})
    second = client.post(f"{base}/write", json={"cell": "threes", "version": seen})
    # then the first wins; the second gets 409 StaleState with the fresh state
    assert first.status_code == 200
    assert second.status_code == 409
    assert second.json["error"] == "StaleState"
    assert second.json["state"]["version"] == first.json["version"]
    assert second.json["state"]["sheet"][0]["threes"] is None
    assert client.get(f"/api/games/{game_id}").json["sheet"][0]["full"] == 35


def test_the_openapi_document_covers_every_api_route(client, app):
    # when the API description is fetched
    doc = client.get("/api/openapi.json").json
    # then each API route of the app is documented
    documented = set(doc["paths"])
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/") and rule.endpoint != "static":
            path = rule.rule.replace("<int:game_id>", "{id}").replace("<int:index>", "{index}")
            path = path.replace("<set_id>", "{set_id}")
            assert path in documented, path
    json.dumps(doc)


def test_a_hint_names_the_best_choice_for_the_dice_on_the_tray(client, tmp_path, monkeypatch):
    # given a generala game (its table is small) with five sixes on the first throw
    monkeypatch.setenv("SCORER_DATA", str(tmp_path / "data"))
    game_id = start(client)["id"]
    # at a table of two hints are off (seed 004) until coach mode is switched on
    response = client.get(f"/api/games/{game_id}/hint")
    assert response.status_code == 409 and "coach mode" in response.json["message"]
    assert client.get(f"/api/games/{game_id}").json["hints"] is False
    on = client.post(f"/api/games/{game_id}/coach", json={"on": True})
    assert on.status_code == 200 and on.json["coach"] is True and on.json["hints"] is True
    response = client.get(f"/api/games/{game_id}/hint")
    assert response.status_code == 409 and "throw first" in response.json["message"]  # no dice
    client.post(f"/api/games/{game_id}/throw", json={"dice": [6, 6, 6, 6, 6]})
    # when a hint is asked (the table is computed on first use)
    for _ in range(100):
        response = client.get(f"/api/games/{game_id}/hint")
        if response.status_code != 409:
            break
        time.sleep(0.1)
    # then the best choice is to write generala
    assert response.status_code == 200, response.json
    best = response.json["choices"][0]
    assert best["kind"] == "write" and best["cell"] == "generala"


def test_rulesets_without_a_strategy_say_so(client):
    game_id = start(client, ruleset="poker_ua", hints=True)["id"]
    client.post(f"/api/games/{game_id}/throw", json={"dice": [1, 1, 2, 3, 4]})
    response = client.get(f"/api/games/{game_id}/hint")
    assert response.status_code == 404
    assert "no hints" in response.json["message"]


def test_a_game_exports_as_csv_and_json(client):
    game_id = start(client)["id"]
    client.post(f"/api/games/{game_id}/throw", json={"dice": [2, 2, 2, 5, 5]})
    client.post(f"/api/games/{game_id}/write", json={"cell": "full"})
    csv_file = client.get(f"/api/games/{game_id}/export?format=csv")
    assert csv_file.mimetype == "text/csv" and "full" in csv_file.get_data(as_text=True)
    assert client.get(f"/api/games/{game_id}/export").mimetype == "application/json"
    assert client.get(f"/api/games/{game_id}/export?format=xml").status_code == 400
