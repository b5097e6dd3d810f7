"""The pages render in three languages, escape names, and show the camera's trouble plainly."""

from __future__ import annotations

import pytest


def start(client, players=("Anna", "Borys"), ruleset="yahtzee") -> int:
    response = client.post("/api/games", json={"ruleset": ruleset, "players": list(players)})
    return response.json["id"]


@pytest.mark.parametrize("path", ["/", "/play", "/setup", "/camera", "/history"])
def test_every_page_renders_with_and_without_a_game(client, path):
    assert client.get(path).status_code == 200
    start(client)
    assert client.get(path).status_code == 200


def test_player_names_are_shown_escaped(client):
    # given a player named like markup
    game_id = start(client, players=("<img src=x onerror=1>", "Bo"))
    client.post(f"/api/games/{game_id}/throw", json={"dice": [1, 2, 3, 4, 5]})
    client.post(f"/api/games/{game_id}/write", json={"cell": "chance"})
    # then no page carries it as markup
    for path in ("/", "/play", "/history", f"/history/{game_id}"):
        html = client.get(path).get_data(as_text=True)
        assert "<img src=x onerror=1>" not in html, path


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("ru", ["Единицы", "Шестёрки", "Сет", "Каре", "Фулл-хаус", "Малый стрит", "Покер", "Шанс"]),
        ("uk", ["Одиниці", "Шістки", "Трійка", "Каре", "Фул хаус", "Малий стріт", "Покер", "Шанс"]),
        ("en", ["Ones", "Sixes", "Three of a kind", "Full house", "Yahtzee", "Chance"]),
    ],
)
def test_cell_names_are_the_players_words_in_each_language(client, lang, words):
    start(client)
    html = client.get(f"/?lang={lang}").get_data(as_text=True)
    for word in words:
        assert word in html, word


def test_the_chosen_language_sticks_through_a_cookie(client):
    client.get("/setup?lang=uk")
    assert "Нова гра" in client.get("/setup").get_data(as_text=True)


def test_the_server_language_is_the_default(table):
    from web import create_app

    app = create_app({"TABLE": table, "LANG": "ru"})
    html = app.test_client().get("/setup").get_data(as_text=True)
    assert "Новая игра" in html


def test_history_shows_each_throw_with_photo_confidence_and_correction(client, reader):
    # given a throw read by the camera with an unsure die, then corrected
    game_id = start(client, ruleset="generala")
    reader.queue([4, 4, 2, 3, 5], confidence=[0.99, 0.99, 0.4, 0.99, 0.99])
    client.post(f"/api/games/{game_id}/throw")
    client.post(f"/api/games/{game_id}/dice/2", json={"value": 6})
    # when the game's history is opened
    html = client.get(f"/history/{game_id}").get_data(as_text=True)
    # then the photo, the confidence and the correction are there
    assert "/photos/game-" in html
    assert "40%" in html
    assert "corrected die 3 to 6" in html


def test_photos_are_served_from_the_photo_folder(client, reader):
    game_id = start(client, ruleset="generala")
    state = client.post(f"/api/games/{game_id}/throw").json
    assert state["throw"] == 1
    photo = client.get(f"/api/games/{game_id}/events").json[-1]["event"]["reading"]["photo"]
    with client.get(f"/photos/{photo}") as response:
        assert response.status_code == 200 and response.mimetype == "image/jpeg"


def test_the_camera_page_previews_and_test_reads_without_touching_the_game(client, reader):
    game_id = start(client, ruleset="generala")
    reader.queue([6, 5, 4, 3, 2])
    reading = client.post("/api/camera/read", json={}).json
    assert [d["value"] for d in reading["dice"]] == [6, 5, 4, 3, 2]
    assert (reading["die_px"], reading["small"]) == (24.0, False)
    # and dice the camera sees small are called so
    reader.side = 12
    reading = client.post("/api/camera/read", json={}).json
    assert (reading["die_px"], reading["small"]) == (12.0, True)
    assert client.get("/camera/preview.jpg").mimetype == "image/jpeg"
    assert client.get(f"/api/games/{game_id}").json["throw"] == 0
    # and the tray region is checked and kept
    assert (
        client.post("/api/camera/region", json={"region": [0.1, 0.1, 0.8, 0.8]}).status_code == 200
    )
    assert (
        client.post("/api/camera/region", json={"region": [0.9, 0.9, 0.8, 0.8]}).status_code == 400
    )


def test_the_app_builds_its_own_table_from_a_database_path(tmp_path):
    # given only a database path (no table injected)
    from web import create_app

    app = create_app({"DATABASE": str(tmp_path / "games.sqlite3")})
    client = app.test_client()
    # then games can be played by typing the dice in, and the page says there is no camera
    game_id = client.post("/api/games", json={"ruleset": "yacht", "players": ["A"]}).json["id"]
    state = client.post(f"/api/games/{game_id}/throw", json={"dice": [6, 6, 6, 6, 6]}).json
    assert state["scores"]["yacht"] == 50
    assert client.post(f"/api/games/{game_id}/throw").status_code == 409
    assert state["table"]["camera"] == "none"
    app.config["TABLE"].store.close()


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_every_message_of_the_pages_is_translated(lang):
    # given the catalogue the pages use
    from babel.messages.pofile import read_po

    from web.language import SOURCES

    with (SOURCES / lang / "LC_MESSAGES" / "messages.po").open("rb") as po:
        catalog = read_po(po, locale=lang)
    # then no message is left in English, and placeholders survive translation
    missing = [m.id for m in catalog if m.id and not m.string]
    assert missing == []
    for message in catalog:
        if message.id and "%(" in message.id:
            names = ("n", "of", "name", "names", "url", "problem", "seen", "expected", "v", "face")
            for name in names:
                assert (f"%({name})s" in message.id) == (f"%({name})s" in message.string), (
                    message.id
                )


def test_the_empty_kiosk_names_an_address_a_phone_can_open(client, app):
    import socket

    # given the kiosk browser on the Pi itself, at 127.0.0.1
    page = client.get("/", base_url="http://127.0.0.1:8000").get_data(as_text=True)
    # then its empty screen names the Pi's LAN name, not the loopback address
    assert f'id="phone-url">http://{socket.gethostname()}.local:8000/play<' in page
    assert "127.0.0.1" not in page
    # and an address given at the command line wins
    app.config["PUBLIC_URL"] = "http://dice.example:8000/"
    page = client.get("/", base_url="http://127.0.0.1:8000").get_data(as_text=True)
    assert 'id="phone-url">http://dice.example:8000/play<' in page
