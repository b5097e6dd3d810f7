"""The whole-game flow through the API (issue 26): the roll-off read by the camera or typed,
options before part 2, extra rounds, settlement and the players a ruleset needs."""

from __future__ import annotations

from tests.test_game_flow import MAKES, UPPER


def start(client, ruleset: str, players: list[str], **extra) -> dict:
    response = client.post("/api/games", json={"ruleset": ruleset, "players": players, **extra})
    assert response.status_code == 201, response.json
    return response.json["state"]


def write_part_one(client, game_id: int) -> None:
    """Two players write ones..sixes in turn, each with three of the number (one throw)."""
    for face, cell in enumerate(UPPER, 1):
        for _ in range(2):
            other = 1 if face != 1 else 2
            client.post(f"/api/games/{game_id}/throw", json={"dice": [face] * 3 + [other] * 2})
            client.post(f"/api/games/{game_id}/commit", json={"cell": cell})
            assert (
                client.post(f"/api/games/{game_id}/write", json={"cell": cell}).status_code == 200
            )


def test_the_rolloff_is_read_by_the_camera_or_typed_and_the_winner_starts(client, reader, table):
    # given poker_ru for three, whose roll-off is on by default
    state = start(client, "poker_ru", ["Ivan", "Olga", "Petr"])
    game_id = state["id"]
    assert state["rolloff"] == {
        "pending": True,
        "part": 1,
        "contenders": [0, 1, 2],
        "next": 0,
        "log": [],
    }
    # when Ivan's roll-off is read by the camera (the button does the same)
    reader.queue([6, 6, 6, 6, 5])
    read = client.post(f"/api/games/{game_id}/rolloff")
    assert read.status_code == 200, read.json
    assert read.json["rolloff"]["log"] == [{"part": 1, "player": 0, "total": 29}]
    # and Olga's and Petr's are typed in, card faces too
    client.post(f"/api/games/{game_id}/rolloff", json={"dice": ["A", "A", "A", "A", "A"]})
    state = client.post(f"/api/games/{game_id}/rolloff", json={"dice": [1, 1, 1, 1, 1]}).json
    # then Olga (30) starts, and the log keeps the camera's photo of Ivan's throw
    assert (state["current_player"], state["starter"], state["rolloff"]["pending"]) == (1, 1, False)
    first = client.get(f"/api/games/{game_id}/events").json[0]["event"]
    assert first["type"] == "rolloff" and first["reading"]["photo"]
    # and a roll-off once decided takes no more throws
    again = client.post(f"/api/games/{game_id}/rolloff", json={"dice": [1, 2, 3, 4, 5]})
    assert again.status_code == 409
    # and the history lists who threw what for the first move
    page = client.get(f"/history/{game_id}").get_data(as_text=True)
    assert page.count("<b>Roll-off</b>") == 3
    assert "= 29" in page and "= 30" in page and "= 5" in page
    rows = page.split('class="log-rolloff"')[1:]
    assert ["Ivan" in rows[0], "Olga" in rows[1], "Petr" in rows[2]] == [True, True, True]


def test_a_press_during_the_rolloff_throws_for_it(client, reader, table):
    # given poker_ru for two with its roll-off pending
    game_id = start(client, "poker_ru", ["Ivan", "Olga"])["id"]
    reader.queue([2, 2, 2, 2, 2])
    # when the push button is pressed
    table._capture_locked(game_id, None)
    # then the throw went to the roll-off, not to part 1
    state = client.get(f"/api/games/{game_id}").json
    assert state["throw"] == 0 and state["rolloff"]["next"] == 1


def test_options_change_before_part_two_and_extra_rounds_from_the_api(client):
    # given a poker_ru game for two, roll-off skipped, part 1 written with three of each
    game_id = start(client, "poker_ru", ["Ivan", "Olga"])["id"]
    write_part_one(client, game_id)
    # when the table turns multipliers off before part 2's roll-off
    state = client.post(f"/api/games/{game_id}/options", json={"options": {"multipliers": "off"}})
    assert state.status_code == 200, state.json
    assert state.json["options"]["multipliers"] is False
    bad = client.post(f"/api/games/{game_id}/options", json={"options": {"throws": 3}})
    assert bad.status_code == 400 and bad.json["message"].endswith("not Throws for each number")
    # and both write every combination, made on the first throw
    for cell, dice in MAKES.items():
        for _ in range(2):
            client.post(f"/api/games/{game_id}/throw", json={"dice": dice})
            assert (
                client.post(f"/api/games/{game_id}/write", json={"cell": cell}).status_code == 200
            )
    state = client.get(f"/api/games/{game_id}").json
    # then no multiplier applied, the game is even, and nobody pays anybody
    assert state["finished"] and state["totals"] == [50 + 157, 50 + 157]
    assert state["settlement"] == {"results": [0.0, 0.0], "transfers": []}
    # when an extra round is agreed, chance is refused and a pair adds to the pair
    assert client.post(f"/api/games/{game_id}/extra_round").status_code == 200
    client.post(f"/api/games/{game_id}/throw", json={"dice": [1, 2, 3, 5, 6]})
    refused = client.post(f"/api/games/{game_id}/write", json={"cell": "chance"})
    assert refused.status_code == 409 and "chance" in refused.json["message"]
    client.post(f"/api/games/{game_id}/write", json={"cell": "pair"})
    client.post(f"/api/games/{game_id}/throw", json={"dice": [6, 6, 1, 2, 3]})
    state = client.post(f"/api/games/{game_id}/write", json={"cell": "pair"}).json
    assert state["finished"] and state["sheet"][0]["pair"] == 0 and state["sheet"][1]["pair"] == 10
    assert state["settlement"] == {
        "results": [-5.0, 5.0],
        "transfers": [{"from": 0, "to": 1, "amount": 5.0}],
    }


def test_poker_dice_needs_two_players_at_the_api(client):
    response = client.post("/api/games", json={"ruleset": "poker_dice", "players": ["A"]})
    assert response.status_code == 400 and "2 to 6 players" in response.json["message"]
    bad = client.post(
        "/api/games", json={"ruleset": "yacht", "players": ["A", "B"], "hints": "please"}
    )
    assert bad.status_code == 400 and "hints" in bad.json["message"]


def test_variant_2_names_the_first_finishers_bonus_on_the_sheet(client):
    # given variant 2 with 10 points for the first to finish part 1
    options = {"variant": 2, "first_finisher_bonus": 10}
    game_id = start(client, "poker_ru", ["Ivan", "Olga"], options=options)["id"]
    # when Ivan fills part 1 first
    write_part_one(client, game_id)
    state = client.get(f"/api/games/{game_id}").json
    # then his sheet carries the bonus, and the page names it in the page's language
    assert (
        state["bonuses"][0]["first_finisher"] == 10 and "first_finisher" not in state["bonuses"][1]
    )
    assert state["totals"] == [50 + 10, 50]
    page = client.get("/play?lang=ru").get_data(as_text=True)
    assert '"first_finisher": "Первому закончившему первую часть"' in page
