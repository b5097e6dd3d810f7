"""Who may change scores: anyone may look, only the table (the Pi, or a paired phone) may act.

Requests "from a phone" come from a LAN address through Flask's test client
(``environ_base={"REMOTE_ADDR": ...}``); the kiosk is the default loopback peer.
"""

from __future__ import annotations

import re
import stat
import time

import pytest

from web.pairing import COOKIE, WRONG_PER_MINUTE, WRONG_PER_PIN, Pairing

PHONE = {"REMOTE_ADDR": "192.168.1.20"}
OTHER_PHONE = {"REMOTE_ADDR": "192.168.1.21"}


def start(client) -> int:
    response = client.post("/api/games", json={"ruleset": "yacht", "players": ["Anna", "Borys"]})
    assert response.status_code == 201, response.json
    return response.json["id"]


def kiosk_pin(client) -> str:
    return client.get("/pair/code.json").json["pin"]


def pair(client, pin: str, environ=PHONE):
    return client.post("/pair", data={"pin": pin}, environ_base=environ)


def test_an_unpaired_phone_may_look_but_not_change_the_game(client):
    # given a game the kiosk started
    game_id = start(client)
    before = client.get(f"/api/games/{game_id}").json
    # when a phone that never paired throws, writes, starts a game or presses
    refused = [
        client.post(
            f"/api/games/{game_id}/throw", json={"dice": [1, 2, 3, 4, 5]}, environ_base=PHONE
        ),
        client.post(f"/api/games/{game_id}/undo", json={}, environ_base=PHONE),
        client.post("/api/games", json={"ruleset": "yacht", "players": ["X"]}, environ_base=PHONE),
        client.post("/api/press", json={}, environ_base=PHONE),
        client.post("/api/camera/region", json={"region": None}, environ_base=PHONE),
    ]
    # then each is a 403 that says how to pair, and nothing changed
    for response in refused:
        assert response.status_code == 403
        assert response.json["error"] == "NotPaired"
        assert "/pair" in response.json["message"]
    assert client.get(f"/api/games/{game_id}").json["version"] == before["version"]
    assert len(client.get("/api/games").json) == 1
    # and it may still read everything
    for path in ("/", "/play", "/history", f"/history/{game_id}", "/api/games", "/api/table"):
        assert client.get(path, environ_base=PHONE).status_code == 200, path
    assert client.get(f"/api/games/{game_id}", environ_base=PHONE).json == before


def test_a_phone_paired_with_the_kiosk_pin_may_play(client):
    # given a game and the PIN on the kiosk's screen
    game_id = start(client)
    pin = kiosk_pin(client)
    assert re.fullmatch(r"\d{6}", pin)
    # when the phone opens the QR code's link and sends the PIN
    form = client.get(f"/pair?pin={pin}", environ_base=PHONE)
    assert form.status_code == 200 and f'value="{pin}"' in form.get_data(as_text=True)
    response = pair(client, pin)
    # then it gets a signed, HttpOnly, SameSite=Strict cookie for a day, and is sent to /play
    assert response.status_code == 302 and response.headers["Location"].endswith("/play")
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie
    assert "SameSite=Strict" in cookie and "Max-Age=86400" in cookie
    # and its moves count
    thrown = client.post(
        f"/api/games/{game_id}/throw", json={"dice": [6, 6, 6, 6, 6]}, environ_base=PHONE
    )
    assert thrown.status_code == 200 and thrown.json["throw"] == 1
    # and the used PIN is replaced, so the next phone needs the next one
    assert kiosk_pin(client) != pin


def test_a_forged_or_foreign_cookie_does_not_pair(client, app):
    game_id = start(client)
    # given a cookie signed with another key, and plain junk
    foreign = Pairing("someone else's key").pair(Pairing("x").pin(), "1.2.3.4")
    for value in (foreign, "junk", ""):
        client.set_cookie(COOKIE, value or "x")
        # when a phone sends it
        response = client.post(
            f"/api/games/{game_id}/throw", json={"dice": [1, 1, 1, 1, 1]}, environ_base=PHONE
        )
        # then it is not paired
        assert response.status_code == 403
    client.delete_cookie(COOKIE)


def test_a_pairing_expires_after_a_day(monkeypatch):
    import itsdangerous.timed

    # given a phone paired now
    pairing = Pairing("key")
    token = pairing.pair(pairing.pin(), "192.168.1.20")
    paired_at = time.time()
    # then it is paired for the evening, and a tampered cookie never is
    monkeypatch.setattr(itsdangerous.timed.time, "time", lambda: paired_at + 23 * 3600)
    assert pairing.is_paired(token)
    assert not pairing.is_paired(token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB"))
    # when a day and a minute have passed, it must pair again
    monkeypatch.setattr(itsdangerous.timed.time, "time", lambda: paired_at + 24 * 3600 + 60)
    assert not pairing.is_paired(token)


def test_wrong_pins_are_rate_limited_per_address(client):
    # given a phone guessing
    pin = kiosk_pin(client)
    wrong = f"{(int(pin) + 1) % 10**6:06d}"
    codes = [pair(client, wrong).status_code for _ in range(WRONG_PER_MINUTE)]
    assert codes == [403] * WRONG_PER_MINUTE
    # when it guesses once more, even the right PIN
    blocked = pair(client, pin)
    # then it must wait, and says so
    assert blocked.status_code == 429
    assert "try again" in blocked.get_data(as_text=True)
    # while another phone pairs at once
    assert pair(client, pin, OTHER_PHONE).status_code == 302


def test_many_wrong_pins_from_many_addresses_replace_the_pin():
    # given the PIN on the screen
    pairing = Pairing("key", clock=lambda: 0.0)
    pin = pairing.pin()
    wrong = f"{(int(pin) + 1) % 10**6:06d}"
    # when wrong guesses come from many addresses
    for n in range(WRONG_PER_PIN):
        assert pairing.pair(wrong, f"10.0.{n}.1") is None
    # then the PIN has been replaced: guessing starts over against a new one
    assert pairing.pin() != pin


def test_the_pin_rotates_after_ten_minutes():
    now = [0.0]
    pairing = Pairing("key", clock=lambda: now[0])
    first = pairing.pin()
    now[0] = 599.0
    assert pairing.pin() == first
    now[0] = 600.0
    assert pairing.pin() != first


def test_only_the_kiosk_sees_the_pin(client):
    # when the kiosk (loopback) asks, it gets the PIN and a QR code of the pairing link
    code = client.get("/pair/code.json").json
    assert code["url"].endswith(f"/pair?pin={code['pin']}")
    assert code["svg"].lstrip().startswith("<svg") and "localhost" not in code["url"]
    assert 'class="pair-panel"' in client.get("/").get_data(as_text=True)
    # when a phone asks, it is refused, and its kiosk page has no PIN corner
    assert client.get("/pair/code.json", environ_base=PHONE).status_code == 403
    assert 'class="pair-panel"' not in client.get("/", environ_base=PHONE).get_data(as_text=True)


def test_the_qr_code_points_at_the_public_address_when_configured(table):
    from web import create_app

    app = create_app({"TABLE": table, "PUBLIC_URL": "http://dice.home:8000/"})
    code = app.test_client().get("/pair/code.json").json
    assert code["url"] == f"http://dice.home:8000/pair?pin={code['pin']}"


def test_pairings_survive_a_restart_and_the_key_is_private(table, tmp_path):
    from web import create_app

    # given a phone paired with one server process
    first = create_app({"TABLE": table}).test_client()
    response = pair(first, kiosk_pin(first))
    token = response.headers["Set-Cookie"].split(";")[0].split("=", 1)[1]
    # when the server restarts (a new app over the same data folder)
    second = create_app({"TABLE": table}).test_client()
    second.set_cookie(COOKIE, token)
    # then the phone is still paired
    game = second.post(
        "/api/games", json={"ruleset": "yacht", "players": ["A"]}, environ_base=PHONE
    )
    assert game.status_code == 201
    # and the key that signs the cookies is readable by its owner only
    key = tmp_path / "secret.key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600


def test_pairing_off_trusts_the_home_network(table):
    from web import create_app

    # given the setting for a trusted home network
    client = create_app({"TABLE": table, "PAIRING": False}).test_client()
    # when a phone that never paired starts a game
    response = client.post(
        "/api/games", json={"ruleset": "yacht", "players": ["A"]}, environ_base=PHONE
    )
    # then it may
    assert response.status_code == 201
    assert "Pairing is off" in client.get("/pair", environ_base=PHONE).get_data(as_text=True)


def test_serve_has_a_pairing_switch():
    from scorer.cli import build_parser

    args = build_parser().parse_args(["serve", "--pairing", "off"])
    assert args.pairing == "off"
    assert build_parser().parse_args(["serve"]).pairing == "on"


def test_an_unpaired_phone_sees_it_is_watching_only(client):
    start(client)
    page = client.get("/play", environ_base=PHONE).get_data(as_text=True)
    assert 'id="view-only"' in page and 'href="/pair"' in page
    assert 'id="view-only"' not in client.get("/play").get_data(as_text=True)


@pytest.mark.parametrize("address", ["127.0.0.1", "::1", "::ffff:127.0.0.1", "127.3.4.5"])
def test_the_pi_itself_is_at_the_table(address):
    from web.pairing import is_loopback

    assert is_loopback(address)
    assert not is_loopback("192.168.1.20") and not is_loopback(None) and not is_loopback("junk")


def test_a_forwarded_for_header_does_not_make_a_phone_the_pi(client):
    game_id = start(client)
    response = client.post(
        f"/api/games/{game_id}/throw",
        json={"dice": [1, 2, 3, 4, 5]},
        headers={"X-Forwarded-For": "127.0.0.1", "X-Real-IP": "127.0.0.1"},
        environ_base=PHONE,
    )
    assert response.status_code == 403


@pytest.mark.slow
def test_pairing_through_a_real_server_from_the_network(tmp_path):
    """The whole walk on a real ``scorer serve``: waitress's peer address is what decides."""
    import http.cookiejar
    import json
    import urllib.error
    import urllib.request

    from tests.served import Served
    from web.pairing import is_loopback, network_address

    lan = network_address()
    if lan.endswith(".local") or is_loopback(lan):
        pytest.skip("this machine has no network address to come from")
    # given the server listening on every address, reached from the network address
    served = Served(tmp_path / "games.sqlite3", None, "--host", "0.0.0.0").start()
    phone = urllib.request.build_opener(
        urllib.request.ProxyHandler({}),  # straight to the table, whatever the environment says
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()),
    )
    base = f"http://{lan}:{served.port}"

    def post(path: str, body: dict) -> int:
        request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST")
        request.add_header("Content-Type", "application/json")
        try:
            with phone.open(request, timeout=10) as reply:
                return reply.status
        except urllib.error.HTTPError as err:
            err.close()
            return err.code

    try:
        game = {"ruleset": "yacht", "players": ["A"]}
        # when the phone starts a game before pairing, it is refused
        assert post("/api/games", game) == 403
        # when it sends the PIN the kiosk (loopback) shows
        status, code = served.request("GET", "/pair/code.json")
        assert status == 200
        form = urllib.request.Request(
            base + "/pair", data=f"pin={code['pin']}".encode(), method="POST"
        )
        with phone.open(form, timeout=10) as reply:
            assert reply.status == 200 and reply.url.endswith("/play")
        # then it may
        assert post("/api/games", game) == 201
    finally:
        served.stop()
