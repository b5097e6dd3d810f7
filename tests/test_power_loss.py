"""Power loss: scripted games against a real ``scorer serve``, killed with SIGKILL at random.

After each kill the database is opened as the restarted server would open it:
every action the API acknowledged must be in the log, in order, nothing half
applied, and the game must go on. ``POWER_LOSS_KILLS`` sets the number of kills
(CI runs the short version; the README's figure comes from 200).
"""

from __future__ import annotations

import os
import random
import threading

import pytest

from scorer.store import Store
from tests.served import Served

KILLS = int(os.environ.get("POWER_LOSS_KILLS", "12"))


def next_action(state: dict, rng: random.Random) -> tuple[str, dict]:
    """A plausible player's next move for the state the server showed."""
    if state["throw"] == 0:
        return "throw", {"dice": [rng.randint(1, 6) for _ in range(5)]}
    if state["throw"] < state["throws_allowed"] and rng.random() < 0.5:
        if rng.random() < 0.5:
            return "hold", {"held": sorted(rng.sample(range(5), rng.randint(0, 4)))}
        held = sum(d["held"] for d in state["dice"])
        return "throw", {"dice": [rng.randint(1, 6) for _ in range(5 - held)]}
    scores = state["scores"]
    cell = max(scores, key=lambda c: (scores[c], rng.random()))
    return "write", {"cell": cell}


@pytest.mark.slow
def test_every_acknowledged_action_survives_sigkill(tmp_path):
    rng = random.Random(2026)
    db = tmp_path / "table.sqlite3"
    served = Served(db).start()
    status, created = served.request(
        "POST", "/api/games", {"ruleset": "yahtzee", "players": ["Anna", "Борис"]}
    )
    assert status in (200, 201), created
    game_id = created["id"]
    acked: list[tuple[int, str]] = []  # (version, action) the API confirmed
    kills = 0
    while kills < KILLS:
        killer = threading.Timer(rng.uniform(0.05, 0.4), served.kill)
        killer.start()
        while served.proc.poll() is None:
            try:
                status, state = served.request("GET", f"/api/games/{game_id}")
            except OSError:
                break
            if state["finished"]:
                try:
                    status, created = served.request(
                        "POST", "/api/games", {"ruleset": "yacht", "players": ["Оля"]}
                    )
                except OSError:
                    break  # killed while starting the next game
                game_id = created["id"]
                continue
            action, body = next_action(state, rng)
            try:
                status, after = served.request("POST", f"/api/games/{game_id}/{action}", body)
            except OSError:
                break  # killed mid-request: not acknowledged, may or may not be stored
            assert status == 200, after
            acked.append((game_id, after["version"]))
        killer.join()
        served.kill()
        kills += 1
        # the power comes back: the log holds every acknowledged action, whole
        store = Store(db)
        for gid, version in acked[-50:]:
            events = store.events(gid)
            assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
            assert len(events) >= version
        store.load(game_id)  # replays without error
        store.close()
        served = Served(db, served.port).start()
    served.stop()
    assert len(acked) > KILLS
    print(f"\n{kills} kills survived, {len(acked)} acknowledged actions all on disk")
