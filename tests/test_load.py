"""Load, the short version CI runs: the kiosk and phones streaming while moves pour in.

``benchmarks/load.py`` is the full run (60 s, 20 phones, 20 moves a second; its
figures go in the README). Here: a few seconds, and only what must hold at any
speed: no event lost or out of order on any stream, every acknowledged move on
every page. Timings are printed, never asserted. Plus the two races that would
reorder events, forced deterministically.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from load import check_stream, run_load  # noqa: E402

SECONDS = float(os.environ.get("LOAD_SECONDS", "5"))


@pytest.mark.slow
def test_every_stream_gets_every_event_in_order_under_load(tmp_path):
    # given a real server, the kiosk and 20 phones with streams open
    # when moves come at 20 a second for a few seconds
    report = run_load(seconds=SECONDS, phones=20, rate=20, folder=tmp_path)
    print("\n" + "\n".join(report.lines()))
    # then no stream lost an event or got one out of order, and every move reached every page
    assert report.problems == []
    assert report.streams == 21 and len(report.events_per_stream) == 21
    assert report.acked > 0 and min(report.events_per_stream) >= report.acked


def test_the_stream_check_sees_a_lost_a_reordered_and_a_missing_event():
    # given streams that went wrong in each way the load check looks for
    acked = {(1, 1), (1, 2), (1, 3)}
    fine = [(5, "state", 1, 1), (6, "table", None, None), (7, "state", 1, 2), (8, "state", 1, 3)]
    lost = [(5, "state", 1, 1), (7, "state", 1, 2), (8, "state", 1, 3)]
    swapped = [(5, "state", 1, 1), (7, "state", 1, 3), (6, "state", 1, 2)]
    stale = [(5, "state", 1, 1), (6, "state", 1, 3), (7, "state", 1, 2)]
    missing = [(5, "state", 1, 1), (6, "state", 1, 2)]
    # then each is named, and the good one passes
    assert check_stream("ok", fine, acked) == []
    assert "lost" in check_stream("a", lost, acked)[0]
    assert "out of order" in " ".join(check_stream("b", swapped, acked))
    assert "went back" in check_stream("c", stale, acked)[0]
    assert "never arrived" in check_stream("d", missing, acked)[0]


def test_two_publishers_at_once_deliver_in_id_order(monkeypatch):
    # given a page subscribed, and the first event's delivery held up a moment
    from scorer.bus import Bus, Subscription

    bus = Bus()
    page = bus.subscribe()
    original = Subscription.offer
    first = threading.Event()

    def slow_first(self, event):
        if event.id == 1:
            first.set()
            time.sleep(0.2)
        return original(self, event)

    monkeypatch.setattr(Subscription, "offer", slow_first)
    # when two threads publish at once
    one = threading.Thread(target=bus.publish, args=("state", {"n": 1}))
    one.start()
    first.wait(5)
    bus.publish("state", {"n": 2})
    one.join()
    # then the page gets them in the order of their ids
    assert [page.get(timeout=1).id, page.get(timeout=1).id] == [1, 2]


def test_two_moves_at_once_reach_the_pages_in_the_order_they_were_stored(table, monkeypatch):
    # given a game, a page listening, and the first move's publishing held up a moment
    from scorer.game import Setup

    game_id, _ = table.new_game(Setup("yacht", ("A", "B")))
    table.throw(game_id, [1, 2, 3, 4, 5])
    page = table.bus.subscribe()
    page.get(timeout=1)  # the replayed latest state
    original = table.view
    held = threading.Event()

    def slow_view(gid, game=None):
        if game is not None and game.version == 2:
            held.set()
            time.sleep(0.2)
        return original(gid, game)

    monkeypatch.setattr(table, "view", slow_view)
    # when two phones move at once (version 2, then version 3)
    one = threading.Thread(target=table.hold, args=(game_id, [0]))
    one.start()
    held.wait(5)
    table.hold(game_id, [0, 1])
    one.join()
    # then the pages hear version 2 before version 3: never an older state last
    versions = [page.get(timeout=1).data["version"] for _ in range(2)]
    assert versions == [2, 3]
