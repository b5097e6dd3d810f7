"""One description of the API: the models of ``web/schema.py`` check the requests, and
``/api/openapi.json`` is written from those same models and the app's routes."""

from __future__ import annotations

import dataclasses
import doctest

import pytest
from flask import Flask

import web.openapi
from scorer.game import Setup
from web import api
from web.openapi import UndocumentedRoute, document
from web.schema import Created, Error, NewGame, State, Table


def start(client, ruleset: str = "yacht") -> dict:
    response = client.post("/api/games", json={"ruleset": ruleset, "players": ["Anna", "Borys"]})
    assert response.status_code == 201, response.json
    return response.json


def resolve(doc: dict, schema: dict) -> dict:
    node = doc
    for part in schema["$ref"].lstrip("#/").split("/"):
        node = node[part]
    return node


def test_the_examples_in_the_docstring_run():
    result = doctest.testmod(web.openapi, verbose=False)
    assert result.attempted > 0 and result.failed == 0


def test_the_served_document_is_the_one_written_from_the_app(client, app):
    # when the app serves its document, then it is the one written from its routes, to the
    # letter, and it names every /api/ route
    served = client.get("/api/openapi.json")
    assert served.status_code == 200
    assert served.json == document(app)
    api_rules = {r.rule for r in app.url_map.iter_rules() if r.rule.startswith("/api/")}
    assert len(served.json["paths"]) == len(api_rules)


def test_an_api_route_without_a_description_stops_the_document():
    # given an /api/ route that nobody described
    app = Flask(__name__)
    app.register_blueprint(api.bp)
    app.add_url_rule("/api/secret", "secret", lambda: "")
    # when the document is written, then it names the route instead of leaving it out
    with pytest.raises(UndocumentedRoute, match="/api/secret"):
        document(app)


def test_every_documented_body_field_is_checked(client, app):
    # given every POST the document gives a body with named fields
    doc = client.get("/api/openapi.json").json
    game_id = start(client)["id"]
    checked = []
    for path, item in doc["paths"].items():
        body = item.get("post", {}).get("requestBody")
        if body is None:
            continue
        schema = resolve(doc, body["content"]["application/json"]["schema"])
        fields = [name for name in schema.get("properties", {}) if name != "options"]
        url = path.replace("{id}", str(game_id)).replace("{index}", "0")
        # when each field comes as an object, which none of them takes
        for name in fields:
            response = client.post(url, json={name: {"x": 1}})
            # then it is refused with a message, and nothing changes
            assert response.status_code == 400, (path, name, response.json)
            assert response.json["message"], (path, name)
            checked.append((path, name))
    assert client.get(f"/api/games/{game_id}").json["version"] == 0
    assert ("/api/games/{id}/hold", "held") in checked
    assert ("/api/games", "players") in checked


DIE = "a die shows 1..6 (or 9, 10, J, Q, K, A), not "
HELD = 'held is a list of dice indexes, e.g. {"held": [0, 1]}'


@pytest.mark.parametrize(
    ("path", "body", "error", "message"),
    [
        ("/hold", {"held": "0,1"}, "BadRequest", HELD),
        (
            "/write",
            {"cell": "twos", "version": "7"},
            "BadRequest",
            "version is the integer the state carried",
        ),
        ("/write", {"cell": ""}, "BadRequest", "cell is a non-empty string, not ''"),
        ("/dice/0", {}, "BadRequest", 'value is the die as it lies, e.g. {"value": 6}'),
        ("/dice/0", {"value": True}, "BadDice", DIE + "True"),
        ("/throw", {"dice": [1, 2, "Z", 4, 5]}, "BadDice", DIE + "'Z'"),
        ("/throw", {"dice": []}, "BadDice", "dice: a list of values, e.g. [4, 4, 2, 3, 5]"),
    ],
)
def test_a_wrong_field_gets_the_sentence_the_pages_know(client, path, body, error, message):
    # given a game; when a body is wrong in one field
    game_id = start(client)["id"]
    response = client.post(f"/api/games/{game_id}{path}", json=body)
    # then the refusal names it in the sentence the pages translate (web/refusals.py)
    assert response.status_code == 400
    assert response.json["error"] == error
    assert response.json["message"] == message


def test_a_setup_is_read_as_the_game_reads_a_new_one(client):
    # given setups wrong in shape, then in what the game allows
    for body, message in (
        ({"ruleset": 7, "players": ["A"]}, "a game setup needs a ruleset id (text)"),
        ({"ruleset": "yacht", "players": "A"}, "players is a list of names"),
        ({"ruleset": "yacht", "players": ["A"], "timer": True}, "timer is a number of seconds"),
        ({"ruleset": "yacht", "players": ["A"], "options": [1]}, "options is an object"),
        ({"ruleset": "yacht", "players": ["Anna", "anna"]}, "two players are called anna"),
    ):
        # when each is sent, then it is a 400 whose message names the problem
        response = client.post("/api/games", json=body)
        assert response.status_code == 400, body
        assert response.json["message"].startswith(message), response.json
    # and no options, or null options, are the rules as written
    created = client.post(
        "/api/games", json={"ruleset": "yacht", "players": ["A"], "options": None}
    )
    assert created.status_code == 201


def test_a_new_game_carries_every_part_of_a_setup():
    # given the parts of the game's own setup
    parts = {part.name for part in dataclasses.fields(Setup)}
    parts.discard("flow")  # issue 26: a new game follows today's flow; only stored ones are older
    # then the API's model of a new game names each one (a part the game learns must be
    # added to NewGame, or the API would drop it and the document would not show it)
    assert set(NewGame.model_fields) == parts


def test_the_documented_answers_are_what_the_table_sends(client):
    # given a game played a little through the API
    created = start(client, "yahtzee")
    game_id = created["id"]
    thrown = client.post(f"/api/games/{game_id}/throw", json={"dice": [2, 2, 2, 5, 5]}).json
    refused = client.post(f"/api/games/{game_id}/write", json={"cell": "twos", "version": 0})
    # then each answer has the shape the document gives it
    Created.model_validate(created)
    State.model_validate(thrown)
    Table.model_validate(client.get("/api/table").json)
    assert refused.status_code == 409
    error = Error.model_validate(refused.json)
    assert error.error == "StaleState" and error.state is not None
