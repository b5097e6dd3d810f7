"""See the throw: the state names the current throw's photo and where each die lies on it.

Issue 25, item 12: ``"photo"`` is the URL of the throw's JPEG (null when typed in) and
every die carries ``"box": [x, y, w, h]`` in that photo's pixels (null when typed in); a
reading that could not become a throw is kept with its photo for /history.
"""

from __future__ import annotations

import html
import json
import re

from scorer.game import Setup

BOXES = [[10 + 30 * i, 10, 24, 24] for i in range(5)]  # the ScriptedReader's boxes


def test_a_camera_throw_names_its_photo_and_boxes_every_die(client, table, reader):
    # given a game and a tray showing 4 4 2 3 5
    game_id, _ = table.new_game(Setup("generala", ("Anna", "Borys")))
    reader.queue([4, 4, 2, 3, 5])
    # when the camera reads the throw
    state = client.post(f"/api/games/{game_id}/throw", json={}).get_json()
    # then the state names the photo, which the server serves as a JPEG
    assert state["photo"].startswith("/photos/game-")
    with client.get(state["photo"]) as photo:
        assert photo.status_code == 200 and photo.mimetype == "image/jpeg"
        assert photo.data[:2] == b"\xff\xd8"
    # and every die lies in its box on that photo
    assert [d["box"] for d in state["dice"]] == BOXES
    # and a correction keeps the die where it lies
    state = client.post(f"/api/games/{game_id}/dice/2", json={"value": 6}).get_json()
    assert state["dice"][2]["box"] == BOXES[2] and state["dice"][2]["value"] == 6


def test_a_held_die_seen_again_is_boxed_where_the_new_photo_shows_it(client, table, reader):
    # given a first throw 3 3 1 2 6 with both threes held
    game_id, _ = table.new_game(Setup("generala", ("Anna", "Borys")))
    reader.queue([3, 3, 1, 2, 6])
    first = client.post(f"/api/games/{game_id}/throw", json={}).get_json()
    client.post(f"/api/games/{game_id}/hold", json={"held": [0, 1]})
    # when the camera sees all five dice again, the threes now third and fifth
    reader.queue([5, 4, 3, 6, 3])
    state = client.post(f"/api/games/{game_id}/throw", json={}).get_json()
    # then the photo is the new one and the held threes are boxed where it shows them
    assert state["photo"] != first["photo"]
    assert [d["value"] for d in state["dice"]] == [3, 3, 5, 4, 6]
    assert state["dice"][0]["box"] == BOXES[2]
    assert state["dice"][1]["box"] == BOXES[4]
    assert [d["box"] for d in state["dice"][2:]] == [BOXES[0], BOXES[1], BOXES[3]]


def test_a_held_die_the_camera_did_not_see_has_no_box_on_the_new_photo(client, table, reader):
    # given a throw with die 1 held
    game_id, _ = table.new_game(Setup("generala", ("Anna", "Borys")))
    reader.queue([6, 1, 2, 3, 4])
    client.post(f"/api/games/{game_id}/throw", json={})
    client.post(f"/api/games/{game_id}/hold", json={"held": [0]})
    # when the camera sees only the four thrown dice
    reader.queue([5, 5, 5, 5])
    state = client.post(f"/api/games/{game_id}/throw", json={}).get_json()
    # then the held die has no box on this photo, the thrown ones have theirs
    assert state["dice"][0]["box"] is None
    assert [d["box"] for d in state["dice"][1:]] == BOXES[:4]


def test_typed_dice_have_no_photo_and_no_boxes(client, table):
    # given a game
    game_id, _ = table.new_game(Setup("yatzy", ("Anna",)))
    # when the dice are typed in
    state = client.post(f"/api/games/{game_id}/throw", json={"dice": [5, 5, 3, 3, 1]}).get_json()
    # then there is no photo and no die has a box
    assert state["photo"] is None
    assert [d["box"] for d in state["dice"]] == [None] * 5
    # and after the write the tray is empty: no photo either
    state = client.post(f"/api/games/{game_id}/write", json={"cell": "fives"}).get_json()
    assert state["dice"] == [] and state["photo"] is None


def test_a_reading_that_failed_keeps_its_photo_for_the_history(client, table, reader):
    # given a game, and a tray where the camera finds only four dice
    game_id, _ = table.new_game(Setup("generala", ("Anna", "Borys")))
    reader.queue([4, 4, 2, 3])
    # when the camera reads it
    client.post(f"/api/games/{game_id}/throw", json={})
    # then the table waits for the dice to be typed in, showing what it saw where
    pending = table.status.to_dict()["pending"]
    assert pending["photo"].startswith("/photos/game-")
    assert pending["seen"] == [
        {"value": v, "box": b} for v, b in zip([4, 4, 2, 3], BOXES[:4], strict=True)
    ]
    with client.get(pending["photo"]) as photo:
        assert photo.status_code == 200
    # and the reading is kept beside its photo
    (kept,) = table.misreads(game_id)
    assert kept["values"] == [4, 4, 2, 3] and kept["expected"] == 5
    assert "/photos/" + kept["photo"] == pending["photo"]
    # and the history page shows that photo with the four dice boxed, the throw's too
    client.post(f"/api/games/{game_id}/throw", json={"dice": [4, 4, 2, 3, 1]})
    reader.queue([6, 6, 6, 1, 2])
    client.post(f"/api/games/{game_id}/throw", json={})
    page = client.get(f"/history/{game_id}").get_data(as_text=True)
    marks = [json.loads(html.unescape(m)) for m in re.findall(r"data-marks='([^']*)'", page)]
    assert [[m["box"] for m in ms] for ms in marks] == [BOXES[:4], BOXES]
    assert [m["label"] for m in marks[0]] == ["4", "4", "2", "3"]
    assert "Reading failed" in page and kept["photo"] in page
