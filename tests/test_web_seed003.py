"""poker_bluff and poker_board through the API and the store: moves, refusals, the camera's
reveal, undo, history, export and replay (issue 27)."""

from __future__ import annotations

import json

from scorer.rules.board_layout import CENTRE, layout


def start(client, ruleset, players=("Anna", "Borys"), **extra) -> tuple[int, dict]:
    response = client.post(
        "/api/games", json={"ruleset": ruleset, "players": list(players), **extra}
    )
    assert response.status_code == 201, response.json
    return response.json["id"], response.json["state"]


def test_both_games_are_listed_and_refuse_a_lone_player(client):
    ids = [r["id"] for r in client.get("/api/rulesets").json]
    assert {"poker_bluff", "poker_board"} <= set(ids)
    for ruleset in ("poker_bluff", "poker_board"):
        response = client.post("/api/games", json={"ruleset": ruleset, "players": ["Anna"]})
        assert response.status_code == 400
        assert "players" in response.json["message"]


def test_a_bluff_round_called_and_revealed_by_the_camera(client, reader, table):
    game_id, state = start(client, "poker_bluff", ("Anna", "Borys", "Vera"))
    base = f"/api/games/{game_id}"
    # given Anna claims "full house, K over 9" (cards may be named as on the die)
    state = client.post(f"{base}/claim", json={"hand": "full_house", "ranks": ["K", "9"]}).json
    assert state["bluff"]["claims"] == [{"player": 0, "hand": "full_house", "ranks": [5, 1]}]
    # when Borys presses the button while the dice are hidden, nothing changes
    response = client.post(f"{base}/throw")
    assert response.status_code == 409
    assert response.json["message"] == "dice are hidden: call to reveal"
    assert reader.reads == 0
    # a lower claim and an out-of-turn call are refused, the state unchanged
    response = client.post(f"{base}/claim", json={"hand": "full_house", "ranks": [4, 6]})
    assert response.status_code == 409 and "higher" in response.json["message"]
    response = client.post(f"{base}/call", json={"player": 2})
    assert response.status_code == 409 and "Borys's turn" in response.json["message"]
    # when Borys calls and the camera reads the reveal: K K K 9 Q
    state = client.post(f"{base}/call", json={"player": 1}).json
    assert state["bluff"]["phase"] == "reveal" and state["bluff"]["caller"] == 1
    reader.queue([5, 5, 5, 1, 4])
    state = client.post(f"{base}/throw").json
    reveal = state["bluff"]["reveal"]
    assert reveal["hand"] == "three_of_a_kind" and reveal["loser"] == 0
    assert reveal["photo"] and len(reveal["boxes"]) == 5
    # a tap corrects the fifth die to a 9: the claim holds after all, Borys loses
    state = client.post(f"{base}/dice/4", json={"value": "9"}).json
    assert state["bluff"]["reveal"]["holds"] is True and state["bluff"]["reveal"]["loser"] == 1
    state = client.post(f"{base}/judge").json
    assert state["totals"] == [3, 2, 3] and state["current_player"] == 1
    assert state["bluff"]["last_round"]["photo"] == reveal["photo"]
    # undo takes the judgement back; the log replays and exports
    state = client.post(f"{base}/undo").json
    assert state["totals"] == [3, 3, 3] and state["bluff"]["phase"] == "reveal"
    exported = json.loads(client.get(f"{base}/export").data)
    kinds = [e["event"]["type"] for e in exported["events"]]
    assert kinds == ["claim", "call", "throw", "correct", "judge", "undo"]
    assert client.get(f"{base}/export?format=csv").status_code == 200
    assert client.get(f"/history/{game_id}").status_code == 200
    from scorer.store import Store

    fresh = Store(table.store.path)
    try:
        assert fresh.load(game_id).state() == table.store.load(game_id).state()
    finally:
        fresh.close()


def test_a_reveal_of_four_dice_waits_to_be_typed_in(client, reader):
    game_id, _ = start(client, "poker_bluff")
    base = f"/api/games/{game_id}"
    client.post(f"{base}/claim", json={"hand": "pair", "ranks": [6]})
    client.post(f"{base}/call")
    response = client.post(f"{base}/throw", json={"dice": [6, 6, 1, 2]})
    assert response.status_code == 400 and "all 5 dice" in response.json["message"]
    reader.queue([6, 6, 1, 2])  # the camera sees four: the table asks for the dice
    state = client.post(f"{base}/throw").json
    assert state["table"]["pending"]["expected"] == 5 and state["dice"] == []


def test_a_board_turn_through_the_api(client):
    game_id, state = start(client, "poker_board", dice="cards")
    base = f"/api/games/{game_id}"
    board = state["board"]
    assert len(board["squares"]) == 81 and board["squares"][CENTRE] is None
    assert {s["symbol"] for s in board["squares"] if s} >= {"KKK··", "7", "11", "AAAAA"}
    state = client.post(f"{base}/throw", json={"dice": ["9", "9", "9", "10", "10"]}).json
    lit = state["board"]["places"]
    assert {layout()[i] for i in lit} == {"full_house:1", "lucky:7"}
    # refusals: the centre, a square the dice do not take, a move out of turn
    for body, status in (
        ({"square": CENTRE}, 409),
        ({"square": next(i for i in range(81) if i not in lit and i != CENTRE)}, 409),
        ({"square": lit[0], "player": 1}, 409),
        ({"square": "A1"}, 400),
    ):
        response = client.post(f"{base}/place", json=body)
        assert response.status_code == status, (body, response.json)
    state = client.post(f"{base}/place", json={"square": lit[0], "player": 0}).json
    assert state["board"]["chips"][lit[0]] == 0 and state["current_player"] == 1
    response = client.post(f"{base}/pass")
    assert response.status_code == 409
    summary = client.get("/api/games").json[0]
    assert summary["ruleset"] == "poker_board" and summary["totals"] == [0, 0]


def test_the_pages_draw_their_own_table_and_an_unpaired_phone_only_watches(client):
    game_id, _ = start(client, "poker_bluff")
    client.post(f"/api/games/{game_id}/claim", json={"hand": "pair", "ranks": [6]})
    # the kiosk: the bluff table, with the claim in the state and no dice in it
    kiosk = client.get("/").get_data(as_text=True)
    assert 'id="s3-picker"' in kiosk and "seed003.js" in kiosk
    assert 'id="sheet"' not in kiosk
    state = json.loads(
        kiosk.split('<script id="state" type="application/json">')[1].split("</script>")[0]
    )
    assert state["dice"] == [] and state["bluff"]["claims"][0]["ranks"] == [6]
    # a phone that is not paired sees the game and a pair button, no live controls
    phone = client.get("/play", environ_base={"REMOTE_ADDR": "192.168.1.20"}).get_data(as_text=True)
    assert 'id="pair-button"' in phone and 'data-paired="false"' in phone
    assert 'id="s3-throw"' not in phone
    # in Russian the words of the page are Russian
    russian = client.get("/?lang=ru").get_data(as_text=True)
    assert "Заявки в этом раунде" in russian


def test_the_turn_timer_plays_a_board_turn_and_leaves_a_bluff_claim_to_the_player(table):
    import time

    from scorer.game import Setup

    board_id, _ = table.new_game(Setup("poker_board", ("Anna", "Borys"), timer=30))
    table.view(board_id)  # the page's first look starts the turn's clock
    # when the turn's time is up, a virtual throw is made and its chip placed
    assert table.tick(now=time.time() + 31)
    game = table.load(board_id)
    assert game.player == 1 and sum(chip == 0 for chip in game.board) == 1
    events = [e["event"] for e in table.store.events(board_id)]
    assert [e["type"] for e in events] == ["throw", "place"] and events[0]["virtual"]
    # a bluff claim is never made for a player
    bluff_id, _ = table.new_game(Setup("poker_bluff", ("Anna", "Borys"), timer=30))
    table.view(bluff_id)
    table.tick(now=time.time() + 31)
    assert table.store.events(bluff_id) == []
