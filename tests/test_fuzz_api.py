"""Bad input at the API: every endpoint of ``/api/openapi.json`` fuzzed with hypothesis.

Each example is one request: a documented operation, with ids that exist or
do not (negative, huge, text), and a body that follows the schema loosely
(right keys, values of any type, huge numbers, NaN, unicode, nested junk) or
is junk altogether (not JSON, not an object, a form). Sent from the Pi or
from an unpaired phone. Then:

- no answer is a 5xx;
- a refused request (4xx) changes nothing: every game's log and the tray region are as before;
- every stored game still replays from a fresh :class:`scorer.store.Store`, and exports.

``FUZZ_REQUESTS`` sets the number of requests (CI runs the short version; the
README's figure comes from a long run). The last line printed says how many
requests were fuzzed and how they were answered.
"""

from __future__ import annotations

import json
import math
import os
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

REQUESTS = int(os.environ.get("FUZZ_REQUESTS", "400"))


def api_document() -> dict[str, Any]:
    """The document ``/api/openapi.json`` serves, written from the app's routes and models
    (writing it touches no table, so none stands behind this app)."""
    from web import create_app
    from web.openapi import document

    return document(create_app({"TABLE": object(), "SECRET_KEY": "fuzz"}))


OPENAPI = api_document()
STREAMS = {"/api/events"}  # endless by design; its header is fuzzed in test_web_events

HUGE = st.sampled_from([2**31, 2**53 + 1, 2**63 - 1, 2**63, 2**64, 10**30, -(2**63) - 1]) | (
    st.integers(min_value=-(2**80), max_value=2**80)
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-10, max_value=10),
    HUGE,
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.sampled_from(["", " ", "\x00", "😀" * 10, "<script>x</script>", "'; DROP TABLE games;--"]),
)
JUNK = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=20,
)


def resolve(schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if ref:
        node: Any = OPENAPI
        for part in ref.lstrip("#/").split("/"):
            node = node[part]
        return node
    return schema


def values_for(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values near what the schema asks for, mixed with values of any type."""
    schema = resolve(schema)
    near: list[st.SearchStrategy[Any]] = []
    if "enum" in schema:
        near.append(st.sampled_from(schema["enum"]))
    kinds = schema.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    if "integer" in kinds:
        near.append(st.integers(min_value=-3, max_value=12) | HUGE)
    if "number" in kinds:
        near.append(st.floats(allow_nan=True, allow_infinity=True) | st.integers(-2, 2))
    if "string" in kinds:
        near.append(st.text(max_size=40) | st.sampled_from(CELLS))
    if "array" in kinds:
        items = values_for(schema.get("items", {})) if schema.get("items") else JUNK
        near.append(st.lists(items | st.integers(0, 6), max_size=8))
    if "object" in kinds:
        near.append(body_for(schema))
    return st.one_of(*near, JUNK) if near else JUNK


def body_for(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    schema = resolve(schema)
    properties = schema.get("properties") or {}
    if not properties:
        return st.dictionaries(st.text(max_size=8), JUNK, max_size=4)
    return st.fixed_dictionaries(
        {}, optional={key: values_for(sub) for key, sub in properties.items()}
    )


CELLS = sorted(
    {
        "ones", "twos", "threes", "fours", "fives", "sixes", "chance", "full_house", "yahtzee",
        "small_straight", "large_straight", "three_of_a_kind", "four_of_a_kind", "escalera",
        "full", "poker", "generala", "double_generala", "pair", "two_pairs", "one_pair",
        "yatzy", "yacht", "choice", "round_1", "",
    }
)  # fmt: skip


def operations() -> list[tuple[str, str, dict[str, Any]]]:
    """(method, path template, operation) for every documented request."""
    found = []
    for path, item in OPENAPI["paths"].items():
        for method, operation in item.items():
            if method in ("get", "post", "put", "patch", "delete") and path not in STREAMS:
                found.append((method.upper(), path, operation))
    return found


OPERATIONS = operations()
PAGES = ["/", "/play", "/setup", "/camera", "/history", "/history/{id}", "/pair", "/photos/{name}"]


@st.composite
def requests(draw: st.DrawFn, game_ids: list[int]) -> dict[str, Any]:
    """One request: an operation of the API (or a page), its path filled in, a body, a sender."""
    if draw(st.integers(0, 9)) == 0:
        method, template, operation = "GET", draw(st.sampled_from(PAGES)), {}
    else:
        method, template, operation = draw(st.sampled_from(OPERATIONS))
        if draw(st.integers(0, 19)) == 0:  # the wrong method now and then
            method = draw(st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH"]))
    game_id = draw(
        st.sampled_from(game_ids)
        | st.integers(min_value=-5, max_value=10**3)
        | HUGE
        | st.text(min_size=1, max_size=12)
    )
    index = draw(st.integers(-3, 8) | HUGE | st.text(min_size=1, max_size=6))
    name = draw(st.sampled_from(["..", "../secret.key", "x.jpg", "%00", "game-1/x.jpg"]))
    path = (
        template.replace("{id}", quote(str(game_id), safe=""))
        .replace("{index}", quote(str(index), safe=""))
        .replace("{name}", name)
    )
    query = draw(
        st.sampled_from(["", "?format=csv", "?format=json", "?format=xml", "?lang=uk", "?pin=1"])
        | st.text(max_size=20).map(lambda t: "?format=" + quote(t))
    )
    schema = (
        (operation.get("requestBody") or {})
        .get("content", {})
        .get("application/json", {})
        .get("schema")
    )
    shape = draw(st.integers(0, 9))
    headers: dict[str, str] = {"Content-Type": "application/json"}
    if shape <= 5 and schema:
        data: bytes | None = dumps(draw(body_for(schema)), draw(st.booleans()))
    elif shape <= 7:
        data = dumps(draw(JUNK), draw(st.booleans()))
    elif shape == 8:
        data = draw(st.binary(max_size=40))
        headers["Content-Type"] = draw(
            st.sampled_from(["application/json", "text/plain", "application/x-www-form-urlencoded"])
        )
    else:
        data = None
        headers = {}
    address = draw(st.sampled_from(["127.0.0.1", "127.0.0.1", "127.0.0.1", "192.168.1.20"]))
    return {
        "method": method,
        "path": path + query,
        "data": data,
        "headers": headers,
        "environ_base": {"REMOTE_ADDR": address},
    }


def dumps(value: Any, ascii_only: bool) -> bytes:
    return json.dumps(value, ensure_ascii=ascii_only, allow_nan=True).encode()


def idle(table: Any) -> None:
    """Wait until no press is being read (the table's reading lock is free)."""
    lock = table._busy_lock
    assert lock.acquire(timeout=10), "a reading never finished"
    lock.release()


def snapshot(table: Any) -> tuple[Any, ...]:
    """What a refused request must not touch: every game's log, the games, the tray region."""
    store = table.store
    games = store.games()
    logs = tuple((g["id"], json.dumps(store.events(g["id"]), sort_keys=True)) for g in games)
    return len(games), logs, table.region


def still_readable(path: Path) -> int:
    """Every stored game replays from a fresh Store, as after a restart, and exports."""
    from scorer.store import Store

    fresh = Store(path)
    try:
        games = fresh.games()
        for summary in games:
            game = fresh.load(summary["id"])
            json.dumps(game.state(), allow_nan=False)
            fresh.export(summary["id"], "json")
            fresh.export(summary["id"], "csv")
        return len(games)
    finally:
        fresh.close()


@pytest.fixture(params=["typed dice", "camera"])
def fuzz_app(request, tmp_path, monkeypatch):
    """The app over a table that types its dice in, or one with a (fake) camera and reader."""
    import scorer.strategy
    from scorer.bus import Bus
    from scorer.devices.fake import FakeCamera
    from scorer.store import Store
    from scorer.table import Table
    from tests.conftest import ScriptedReader
    from web import create_app

    monkeypatch.setenv("SCORER_DATA", str(tmp_path / "data"))
    monkeypatch.setattr(scorer.strategy, "_warm", lambda model, directory: None)  # no tables
    store = Store(tmp_path / "fuzz.sqlite3")
    camera = FakeCamera() if request.param == "camera" else None
    reader = ScriptedReader() if camera is not None else None
    table = Table(store, Bus(), camera=camera, reader=reader, photos=tmp_path / "photos")
    app = create_app({"TABLE": table, "TESTING": True})
    yield app, table, store.path
    table.close()
    store.close()
    if camera is not None:
        camera.close()


def test_fuzzed_requests_never_fail_the_server_nor_change_anything_when_refused(fuzz_app):
    app, table, db = fuzz_app
    client = app.test_client()
    # given a few games under way, of rulesets with different shapes
    game_ids = []
    for ruleset in ("yahtzee", "poker_ru", "generala", "poker_dice"):
        response = client.post("/api/games", json={"ruleset": ruleset, "players": ["A", "Б"]})
        game_ids.append(response.json["id"])
    client.post(f"/api/games/{game_ids[0]}/throw", json={"dice": [3, 3, 3, 5, 5]})
    answered: Counter[int] = Counter()

    @settings(
        max_examples=REQUESTS,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(request=requests(game_ids))
    def one_request(request: dict[str, Any]) -> None:
        idle(table)  # a press accepted earlier reads the dice in the background: let it finish
        before = snapshot(table)
        # when a fuzzed request comes
        response = client.open(
            request["path"],
            method=request["method"],
            data=request["data"],
            headers=request["headers"],
            environ_base=request["environ_base"],
        )
        status = response.status_code
        response.close()
        answered[status] += 1
        # then the server never fails
        assert status < 500, (request, response.get_data(as_text=True)[:500])
        # and a refusal leaves everything as it was
        if status >= 400:
            idle(table)
            assert snapshot(table) == before, request
        # and the answer, when JSON, is strict JSON (no NaN a browser cannot parse)
        if response.mimetype == "application/json" and status != 404:
            json.loads(response.get_data(), parse_constant=reject_constant)
        if sum(answered.values()) % 100 == 0:
            still_readable(db)

    one_request()
    # then, at the end, every stored game still loads as a restarted server would load it
    games = still_readable(db)
    total = sum(answered.values())
    assert total >= min(REQUESTS, 100)
    codes = ", ".join(f"{code}: {n}" for code, n in sorted(answered.items()))
    print(f"\n{total} fuzzed requests, none 5xx ({codes}); {games} games all replay")


def reject_constant(name: str) -> float:
    raise AssertionError(f"the API answered {name}, which is not JSON")


def test_nan_and_infinity_are_not_numbers_the_api_accepts(client, table):
    # given a game with dice on the tray
    game_id = client.post("/api/games", json={"ruleset": "yacht", "players": ["A"]}).json["id"]
    client.post(f"/api/games/{game_id}/throw", json={"dice": [1, 2, 3, 4, 5]})
    # when a region or a version arrives as NaN or infinity
    for path, body in (
        ("/api/camera/region", '{"region": [NaN, 0, 1, 1]}'),
        ("/api/camera/region", '{"region": [0, 0, Infinity, 1]}'),
        (f"/api/games/{game_id}/hold", '{"held": [0], "version": NaN}'),
    ):
        response = client.post(path, data=body, content_type="application/json")
        # then it is a 400, not a crash and not stored
        assert response.status_code == 400, (path, body, response.json)
    assert table.region is None
    assert math.isfinite(client.get(f"/api/games/{game_id}").json["version"])


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/games/99999999999999999999999"),
        ("POST", "/api/games/9223372036854775808/throw"),
        ("GET", "/api/games/18446744073709551616/export"),
        ("GET", "/history/99999999999999999999999"),
        ("POST", "/api/games/1/dice/99999999999999999999999"),
    ],
)
def test_an_id_too_large_for_sqlite_is_unknown_not_a_crash(client, method, path):
    # found by the fuzzer: such an id reached SQLite and overflowed (a 500)
    response = client.open(path, method=method, json={"dice": [1, 2, 3, 4, 5], "value": 2})
    assert response.status_code == 404
