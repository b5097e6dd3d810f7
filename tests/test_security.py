"""Cross-site requests, hostile text, paths from the request, and the data leaving the Pi.

Also the stuck button reaching the page (issue 7, item 2) and the whole-database
download on /history (item 6).
"""

from __future__ import annotations

import sqlite3
import time

import pytest

HOSTILE = "<script>bad()</script>"  # a name has at most 24 characters


def start(client, players=("Anna", "Borys")) -> int:
    response = client.post("/api/games", json={"ruleset": "yahtzee", "players": list(players)})
    assert response.status_code == 201, response.json
    return response.json["id"]


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Origin": "http://localhost:9999"},
        {"Referer": "http://evil.example/page"},
    ],
)
def test_a_request_from_another_site_is_refused_even_on_the_pi(client, headers):
    # given a game on the kiosk (loopback: at the table)
    game_id = start(client)
    # when a page of another site, open in the kiosk's browser, posts a move
    response = client.post(
        f"/api/games/{game_id}/throw", json={"dice": [1, 2, 3, 4, 5]}, headers=headers
    )
    # then it is refused, and the game did not move
    assert response.status_code == 403
    assert response.json["error"] == "CrossSite"
    assert client.get(f"/api/games/{game_id}").json["version"] == 0


def test_the_pages_own_requests_pass_the_cross_site_check(client):
    game_id = start(client)
    response = client.post(
        f"/api/games/{game_id}/throw",
        json={"dice": [1, 2, 3, 4, 5]},
        headers={"Origin": "http://localhost", "Referer": "http://localhost/play"},
    )
    assert response.status_code == 200


@pytest.mark.parametrize(
    ("content_type", "data"),
    [
        ("application/x-www-form-urlencoded", "dice=12345"),
        ("text/plain", '{"dice": [1, 2, 3, 4, 5]}'),
        ("multipart/form-data; boundary=x", "--x--"),
        (None, '{"dice": [1, 2, 3, 4, 5]}'),
    ],
)
def test_a_body_that_an_html_form_could_send_is_refused(client, content_type, data):
    # given a game
    game_id = start(client)
    # when the move arrives as a form would send it (no JSON content type)
    headers = {"Content-Type": content_type} if content_type else {}
    response = client.post(f"/api/games/{game_id}/throw", data=data, headers=headers)
    # then it is refused before it reaches the game
    assert response.status_code == 415
    assert client.get(f"/api/games/{game_id}").json["version"] == 0


def test_a_script_tag_name_is_text_on_every_page(client):
    # given a player whose name is a script tag, and a game played a little
    game_id = start(client, players=(HOSTILE, "Борис"))
    client.post(f"/api/games/{game_id}/throw", json={"dice": [2, 2, 2, 5, 5]})
    client.post(f"/api/games/{game_id}/write", json={"cell": "full_house"})
    # when every page that shows names is rendered
    for path in ("/", "/play", "/setup", "/history", f"/history/{game_id}", "/pair"):
        page = client.get(path).get_data(as_text=True)
        # then the name never appears as markup, only escaped
        assert "<script>bad" not in page, path
    assert "&lt;script&gt;bad()" in client.get("/history").get_data(as_text=True)
    # and the JSON the pages draw from keeps it as plain text
    assert client.get(f"/api/games/{game_id}").json["players"][0] == HOSTILE


def test_the_pair_form_escapes_what_it_echoes(client):
    page = client.get(f"/pair?pin={HOSTILE}", environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert "<script>bad" not in page.get_data(as_text=True)


@pytest.mark.parametrize(
    "path",
    [
        "/photos/../secret.key",
        "/photos/%2e%2e/secret.key",
        "/photos/..%2fsecret.key",
        "/photos//etc/passwd",
        "/photos/../games.sqlite3",
    ],
)
def test_photo_paths_cannot_leave_the_photos_folder(client, tmp_path, path):
    # given the cookie key and the database beside the photos folder
    (tmp_path / "photos").mkdir(exist_ok=True)
    assert (tmp_path / "secret.key").exists()
    # when a path climbs out of the folder
    response = client.get(path, follow_redirects=True)
    # then nothing is served
    assert response.status_code == 404
    assert b"secret" not in response.data


def test_the_whole_database_downloads_from_history_while_playing(client, tmp_path):
    # given two games, one under way
    first = start(client)
    client.post(f"/api/games/{first}/throw", json={"dice": [6, 6, 6, 6, 6]})
    client.post(f"/api/games/{first}/write", json={"cell": "yahtzee"})
    second = start(client, players=("Оля",))
    # when /history offers the download and it is fetched
    assert 'href="/history/download"' in client.get("/history").get_data(as_text=True)
    response = client.get("/history/download")
    # then it is an SQLite file with every game and every event, named for keeping
    assert response.status_code == 200
    assert response.headers["Content-Disposition"].startswith("attachment; filename=dice-scorer-")
    saved = tmp_path / "downloaded.sqlite3"
    saved.write_bytes(response.data)
    response.close()
    with sqlite3.connect(saved) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert {r[0] for r in db.execute("SELECT id FROM games")} == {first, second}
        assert (
            db.execute("SELECT count(*) FROM events WHERE game_id = ?", (first,)).fetchone()[0] == 2
        )
    # and a restored copy replays: the store opens it and the game is as it was
    from scorer.store import Store

    restored = Store(saved)
    assert restored.load(first).sheets[0].cells["yahtzee"] == 50
    restored.close()
    # and no temporary copy is left behind
    assert not list(tmp_path.glob("**/*.partial"))


def test_each_game_downloads_as_json_and_csv_from_history(client):
    game_id = start(client)
    page = client.get("/history").get_data(as_text=True)
    assert f"/api/games/{game_id}/export?format=csv" in page
    assert f"/api/games/{game_id}/export?format=json" in page


def test_no_shell_is_built_from_requests():
    # given the web package's source
    from pathlib import Path

    import web

    sources = [p.read_text() for p in Path(web.__file__).parent.glob("*.py")]
    # then it never runs a shell or a program
    for text in sources:
        for call in ("subprocess", "os.system", "os.popen", "shell=True", "eval(", "exec("):
            assert call not in text, call


def test_a_stuck_button_reaches_every_page(table):
    # given the table with a push button on a mock pin, wired as `scorer serve` wires it
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    from scorer.commands.serve import attach_button
    from web import create_app

    Device.pin_factory = MockFactory()
    button = attach_button(table, "gpio:17", stuck_time=0.3, poll=0.02)
    page = table.bus.subscribe()
    client = create_app({"TABLE": table}).test_client()
    try:
        pin = Device.pin_factory.pin(17)
        assert 'id="button-status" hidden' in client.get("/").get_data(as_text=True)
        # when something keeps the button down
        pin.drive_low()
        # then every open page hears "button stuck"
        status = wait_for(page, lambda s: s["button_problem"] == "button stuck")
        assert status["button_problem"] == "button stuck"
        # and a page opened now shows it
        kiosk = client.get("/").get_data(as_text=True)
        assert 'id="button-status">Button stuck: throw from the screen.' in kiosk
        # when it comes free, the pages hear that too
        pin.drive_high()
        wait_for(page, lambda s: s["button_problem"] == "")
        assert table.status.button_problem == ""
    finally:
        button.close()
        Device.pin_factory.close()
        Device.pin_factory = None


def wait_for(subscription, predicate, seconds: float = 10.0) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        event = subscription.get(timeout=0.2)
        if event is not None and predicate(event.data["table"]):
            return event.data["table"]
    raise AssertionError("the page heard nothing")


def test_a_huge_body_is_refused_before_it_is_read(client):
    game_id = start(client)
    response = client.post(
        f"/api/games/{game_id}/write",
        data=b'{"cell": "' + b"x" * (1024 * 1024) + b'"}',
        content_type="application/json",
    )
    assert response.status_code == 413
    assert client.get(f"/api/games/{game_id}").json["version"] == 0
