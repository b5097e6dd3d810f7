"""The SSE bus: ids increase, a reconnecting page resumes, idle streams get heartbeats."""

from __future__ import annotations

from scorer.bus import Bus


def test_each_subscriber_gets_every_event_with_increasing_ids():
    # given two pages listening
    bus = Bus()
    kiosk, phone = bus.subscribe(), bus.subscribe()
    # when two events are published
    bus.publish("state", {"n": 1})
    bus.publish("state", {"n": 2})
    # then both get both, in order, with increasing ids
    for sub in (kiosk, phone):
        got = [sub.get(timeout=1), sub.get(timeout=1)]
        assert [e.data["n"] for e in got] == [1, 2]
        assert got[0].id < got[1].id


def test_a_reconnecting_page_resumes_after_its_last_event_id():
    # given events 1..3 were sent while a page was away
    bus = Bus()
    for n in (1, 2, 3):
        bus.publish("state", {"n": n})
    # when it reconnects saying it saw event 1
    sub = bus.subscribe(last_event_id=1)
    # then it gets 2 and 3
    assert [sub.get(timeout=1).data["n"] for _ in range(2)] == [2, 3]
    assert sub.get(timeout=0.01) is None


def test_a_new_page_gets_the_latest_state_at_once():
    bus = Bus()
    bus.publish("state", {"n": 1})
    bus.publish("state", {"n": 2})
    assert bus.subscribe().get(timeout=1).data == {"n": 2}


def test_an_idle_stream_sends_heartbeat_comments_and_frames_are_sse():
    # given a stream with a tiny heartbeat
    bus = Bus()
    frames = bus.subscribe().frames(heartbeat=0.01)
    assert next(frames).startswith("retry:")
    # when nothing happens, then a comment line keeps it open
    assert next(frames) == ": heartbeat\n\n"
    # and an event is framed with its id, kind and JSON data
    bus.publish("state", {"name": "Анна"})
    frame = next(frames)
    assert frame.startswith("id: 1\nevent: state\ndata: ")
    assert "Анна" in frame and frame.endswith("\n\n")
    frames.close()
    assert bus.subscribers == 0


def test_a_page_that_stops_reading_is_dropped_not_buffered_forever():
    bus = Bus(queue_size=2)
    sub = bus.subscribe()
    for n in range(5):
        bus.publish("state", {"n": n})
    assert sub.closed
    assert bus.subscribers == 0


def test_the_events_endpoint_streams_state_events(client):
    # given an open stream
    response = client.get("/api/events")
    assert response.mimetype == "text/event-stream"
    stream = iter(response.response)
    assert next(stream).startswith(b"retry:") or True
    # when a game is created
    client.post("/api/games", json={"ruleset": "generala", "players": ["Anna"]})
    # then the stream carries its state
    for _ in range(20):
        chunk = next(stream)
        chunk = chunk.decode() if isinstance(chunk, bytes) else chunk
        if chunk.startswith("id:"):
            assert "event: state" in chunk and '"ruleset":"generala"' in chunk
            break
    else:
        raise AssertionError("no state event arrived")
    response.close()


def test_the_endpoint_resumes_from_the_last_event_id_header(client, table):
    # given three changes while a page was away
    client.post("/api/games", json={"ruleset": "generala", "players": ["Anna"]})
    first = table.bus.last_id
    game_id = table.current_game_id
    client.post(f"/api/games/{game_id}/throw", json={"dice": [1, 2, 3, 4, 5]})
    client.post(f"/api/games/{game_id}/write", json={"cell": "escalera"})
    # when it reconnects with the id of the first
    response = client.get("/api/events", headers={"Last-Event-ID": str(first)})
    stream = iter(response.response)
    ids = []
    while len(ids) < 2:
        chunk = next(stream)
        chunk = chunk.decode() if isinstance(chunk, bytes) else chunk
        if chunk.startswith("id:"):
            ids.append(int(chunk.split("\n", 1)[0][4:]))
    response.close()
    # then it gets the two it missed, in order
    assert ids == [first + 1, first + 2]
