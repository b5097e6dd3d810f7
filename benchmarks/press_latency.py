"""Press -> SSE update latency: how long a page waits after the button for the new dice.

A real server (the app in a waitress thread on a loopback port), the replay
camera over a folder of rendered throws, and an SSE client reading
``/api/events`` as a page does. Each sample: the button's callback fires
(``table.press``, as gpiozero calls it), the frames are captured and read, the
throw is stored, and the clock stops when the state event with the new throw
arrives at the client. Target: median <= 300 ms.

Uses the project's dice reader when ``scorer.vision`` provides one, else a
stand-in that knows each photo's dice from its name (then the figure is the
loop without vision). Run: ``.venv/bin/python benchmarks/press_latency.py [N]``.
"""

from __future__ import annotations

import http.client
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


class PhotoNameReader:
    """Stand-in reader: the replay photo's name lists its dice (``007_44235.png``)."""

    name = "stand-in (dice from the photo's name)"

    def __init__(self, camera) -> None:
        self.camera = camera

    def read(self, frame, faces="any", least=0):
        from scorer.vision.reading import Die, Reading

        digits = self.camera.adapter.last_photo.stem.split("_")[1]
        dice = tuple(Die(int(v), "pips", 0.97, (40 * i, 0, 30, 30)) for i, v in enumerate(digits))
        return Reading(dice=dice, ms=0.0)


def listen(port: int, arrivals: dict[int, float], ready: threading.Event) -> None:
    """An SSE client: note when each event (by its id) arrives."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", "/api/events")
    response = conn.getresponse()
    ready.set()
    while True:
        line = response.readline()
        if not line:
            return
        text = line.decode().rstrip("\n")
        if text.startswith("id: "):
            arrivals.setdefault(int(text[4:]), time.perf_counter())


def throws(n: int) -> list[tuple[object, list[int]]]:
    """Realistic rendered throws (the demo camera's), or simple drawings without them."""
    try:
        from scorer.demo import demo_frames
    except ImportError:
        from scorer.devices.replay import drawn_throws

        return drawn_throws(n, seed=11)
    return demo_frames(n, seed=11)


def post(port: int, path: str, body: dict | None = None) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("POST", path, json.dumps(body or {}), {"Content-Type": "application/json"})
    out = json.loads(conn.getresponse().read())
    conn.close()
    return out


def main(samples: int = 40) -> int:
    import cv2

    from scorer.bus import Bus
    from scorer.commands.serve import start_server, stop_server
    from scorer.devices import open_camera
    from scorer.game import Setup
    from scorer.store import Store
    from scorer.table import Table, load_reader
    from web import create_app

    work = Path(tempfile.mkdtemp(prefix="press-latency-"))
    folder = work / "replay"
    folder.mkdir()
    for i, (frame, values) in enumerate(throws(samples)):
        cv2.imwrite(str(folder / f"{i:03d}_{''.join(map(str, values))}.png"), frame)
    camera = open_camera(f"replay:{folder}", watch_every=None)
    reader = load_reader()
    reader_name = type(reader).__name__ if reader is not None else ""
    if reader is None:
        reader = PhotoNameReader(camera)
        reader_name = PhotoNameReader.name
    table = Table(Store(work / "games.sqlite3"), Bus(), camera=camera, reader=reader, photos=work)
    table.press_gap = 0.0
    server, thread = start_server(create_app({"TABLE": table}), threads=8)
    port = server.effective_port
    arrivals: dict[int, float] = {}
    ready = threading.Event()
    threading.Thread(target=listen, args=(port, arrivals, ready), daemon=True).start()
    ready.wait(10)

    latencies: list[float] = []
    pending: list[str] = []
    applied = 0
    game_id = None
    for _ in range(samples):
        if game_id is None or table.load(game_id).finished:
            game_id, _ = table.new_game(Setup("yahtzee", ("Bench",)))
        start = time.perf_counter()
        if not table.press("button"):
            pending.append("press refused")
            continue
        # the press is answered by the last event the reading published: the new
        # throw, or "saw 4 dice, check them" when the reading does not fit
        while not table._busy_lock.acquire(timeout=0.0005):
            pass
        table._busy_lock.release()
        answer = table.bus.last_id
        deadline = time.perf_counter() + 10
        while answer not in arrivals and time.perf_counter() < deadline:
            time.sleep(0.0005)
        if answer not in arrivals:
            pending.append("no event")
            continue
        latencies.append((arrivals[answer] - start) * 1000)
        state = table.view(game_id)
        if state["throw"]:
            applied += 1
            if state["unsure"]:
                for index in state["unsure"]:
                    value = state["dice"][index]["value"]
                    post(port, f"/api/games/{game_id}/dice/{index}", {"value": value})
            best = table.load(game_id).best_cell()
            post(port, f"/api/games/{game_id}/write", {"cell": best})
    table.close()
    stop_server(server, thread)

    print(f"press -> SSE update, replay camera, {table.frames} frames a press")
    print(f"reader: {reader_name}")
    if not latencies:
        print(f"no samples: {pending}")
        return 1
    ordered = sorted(latencies)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    print(f"samples {len(latencies)}: {applied} applied as a throw, the rest answered")
    print(f"        'check the dice' (not answered: {len(pending)} {sorted(set(pending))})")
    print(f"median  {statistics.median(latencies):7.1f} ms   (target <= 300 ms)")
    print(f"p95     {p95:7.1f} ms")
    print(f"min/max {ordered[0]:7.1f} / {ordered[-1]:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 40))
