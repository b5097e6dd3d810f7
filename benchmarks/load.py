"""Load: the kiosk plus 20 phones with event streams open, 20 actions a second, on loopback.

A real ``scorer serve`` process (``tests/served.py``). ``--phones`` + 1 Server-Sent
Events streams stay open the whole run, as the kiosk and the phones' pages keep
them. A metronome sends ``--rate`` moves a second for ``--seconds`` to a few
"phones" that play the table's current game at once, each sending the
``version`` it saw, as the pages do (so two at once may get 409 StaleState, and
that is the game's answer, not a failure). When a game ends the next starts.

Checked on every stream, and the exit status says it:

- no event lost: event ids arrive consecutive, none skipped;
- none out of order: ids rise, and no game's state goes back to an older version;
- every acknowledged move reached every page: each (game, version) the API
  answered 200 for is in every stream.

Printed: streams, events each, moves sent and acknowledged, the rate held, and
the latency of a move (request to answer) p50/p95/p99. Run:
``.venv/bin/python benchmarks/load.py [--seconds 60] [--phones 20] [--rate 20]``.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import itertools
import json
import random
import socket
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.served import Served  # noqa: E402

RULESET = {"ruleset": "yacht", "players": ["Anna", "Борис", "Оля"]}


class Stream:
    """One page's ``/api/events``, read on its own thread; keeps what arrived, in order."""

    def __init__(self, port: int, name: str) -> None:
        self.name = name
        self.events: list[tuple[int, str, int | None, int | None]] = []  # id, kind, game, version
        self.seen: set[tuple[int, int]] = set()
        self.error: str | None = None
        self._lock = threading.Lock()
        self._open = threading.Event()
        self._conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self._thread = threading.Thread(target=self._read, name=f"sse-{name}", daemon=True)
        self._thread.start()

    def wait_open(self, timeout: float = 30.0) -> None:
        if not self._open.wait(timeout):
            raise RuntimeError(f"stream {self.name} did not open")

    def _read(self) -> None:
        try:
            self._conn.connect()
            self._sock = self._conn.sock  # http.client lets go of it once the reply streams
            self._conn.request("GET", "/api/events", headers={"Accept": "text/event-stream"})
            reply = self._conn.getresponse()
            fields: dict[str, str] = {}
            while True:
                line = reply.readline()
                if not line:
                    return
                text = line.decode("utf-8").rstrip("\r\n")
                if text.startswith("retry:"):
                    self._open.set()
                if text == "":
                    if "id" in fields:
                        self._keep(fields)
                    fields = {}
                elif not text.startswith(":") and ":" in text:
                    key, _, value = text.partition(":")
                    value = value[1:] if value.startswith(" ") else value
                    fields[key] = fields[key] + "\n" + value if key in fields else value
        except (OSError, http.client.HTTPException, ValueError) as err:
            if not self._closing:
                self.error = repr(err)
        finally:
            self._open.set()

    _closing = False
    _sock: Any = None

    def _keep(self, fields: dict[str, str]) -> None:
        data = json.loads(fields.get("data") or "null") or {}
        game = data.get("id") if isinstance(data, dict) else None
        version = data.get("version") if isinstance(data, dict) else None
        with self._lock:
            self.events.append((int(fields["id"]), fields.get("event", ""), game, version))
            if game is not None and version is not None:
                self.seen.add((game, version))

    def has(self, acked: set[tuple[int, int]]) -> bool:
        with self._lock:
            return acked <= self.seen

    def problems(self, acked: set[tuple[int, int]]) -> list[str]:
        """Lost, out-of-order or missing events on this stream (empty when all is well)."""
        with self._lock:
            events = list(self.events)
        found = check_stream(self.name, events, acked)
        if self.error:
            found.append(f"{self.name}: stream broke: {self.error}")
        return found

    def close(self) -> None:
        self._closing = True
        if self._sock is not None:
            with contextlib.suppress(OSError):
                self._sock.shutdown(socket.SHUT_RDWR)
        self._conn.close()
        self._thread.join(timeout=5)


def check_stream(
    name: str, events: list[tuple[int, str, int | None, int | None]], acked: set[tuple[int, int]]
) -> list[str]:
    """What went wrong on one stream of ``(id, kind, game, version)``: an id skipped (lost),
    an id lower than the last (out of order), a game's state older than one already shown,
    an acknowledged ``(game, version)`` that never came."""
    found = []
    ids = [e[0] for e in events]
    for before, after in itertools.pairwise(ids):
        if after != before + 1:
            kind = "lost" if after > before + 1 else "out of order"
            found.append(f"{name}: event {after} after {before} ({kind})")
    latest: dict[int, int] = {}
    for event_id, _, game, version in events:
        if game is None or version is None:
            continue
        if version < latest.get(game, -1):
            found.append(
                f"{name}: game {game} went back to version {version} "
                f"after {latest[game]} (event {event_id})"
            )
        latest[game] = max(version, latest.get(game, -1))
    seen = {(game, version) for _, _, game, version in events if game is not None}
    missing = acked - seen
    if missing:
        found.append(f"{name}: {len(missing)} acknowledged moves never arrived")
    return found


@dataclass
class Report:
    """What a load run measured."""

    seconds: float
    streams: int
    sent: int = 0
    acked: int = 0
    conflicts: int = 0
    refused: int = 0
    events_per_stream: list[int] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def percentile(self, q: float) -> float:
        if not self.latencies_ms:
            return float("nan")
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]

    def lines(self) -> list[str]:
        events = self.events_per_stream or [0]
        return [
            f"streams open: {self.streams} (kiosk + {self.streams - 1} phones), "
            f"events received per stream: min {min(events)}, max {max(events)}",
            f"moves: {self.sent} sent in {self.seconds:.1f} s "
            f"({self.sent / max(self.seconds, 1e-9):.1f}/s), {self.acked} acknowledged, "
            f"{self.conflicts} answered 409 (another phone moved first), {self.refused} other",
            f"move latency ms: p50 {self.percentile(50):.1f}, p95 {self.percentile(95):.1f}, "
            f"p99 {self.percentile(99):.1f}, max {max(self.latencies_ms or [float('nan')]):.1f}",
            f"events lost or out of order on any stream: {len(self.problems)}",
        ]


class Players:
    """The phones that play: each move is chosen from the freshest state any answer showed."""

    def __init__(self, served: Served, seed: int) -> None:
        self.served = served
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        self.state: dict[str, Any] = {}
        self.acked: set[tuple[int, int]] = set()
        self.latencies: list[float] = []
        self.conflicts = 0
        self.refused = 0
        self.blind = 0.25

    def new_game(self) -> None:
        status, created = self.served.request("POST", "/api/games", RULESET)
        if status != 201:
            raise RuntimeError(f"cannot start a game: {status} {created}")
        self.remember(created["state"], ack=True)

    def remember(self, state: dict[str, Any], ack: bool) -> None:
        with self.lock:
            if ack:
                self.acked.add((state["id"], state["version"]))
            mine = self.state
            newer = state["id"] > mine.get("id", -1) or (
                state["id"] == mine.get("id") and state["version"] >= mine.get("version", -1)
            )
            if newer:
                self.state = state

    def move(self) -> None:
        with self.lock:
            state = self.state
            path, body = next_move(state, self.rng)
            if self.rng.random() < self.blind:  # the button and the space bar send no version
                body.pop("version", None)
        started = time.perf_counter()
        status, answer = self.served.request("POST", path, body)
        elapsed = (time.perf_counter() - started) * 1000
        with self.lock:
            self.latencies.append(elapsed)
        if status in (200, 201):
            self.remember(answer.get("state", answer), ack=True)
        elif status == 409:
            with self.lock:
                self.conflicts += 1
            if isinstance(answer, dict) and answer.get("state"):
                self.remember(answer["state"], ack=False)
        else:
            with self.lock:
                self.refused += 1


def next_move(state: dict[str, Any], rng: random.Random) -> tuple[str, dict[str, Any]]:
    """A plausible move for the state: throw, hold, re-throw or write; a new game at the end."""
    if state.get("finished"):
        return "/api/games", RULESET
    base = f"/api/games/{state['id']}"
    version = state["version"]
    if state["throw"] == 0:
        dice = [rng.randint(1, 6) for _ in range(5)]
        return f"{base}/throw", {"dice": dice, "version": version}
    if state["throw"] < state["throws_allowed"] and rng.random() < 0.5:
        held = sum(d["held"] for d in state["dice"])
        if rng.random() < 0.5:
            chosen = sorted(rng.sample(range(5), rng.randint(0, 4)))
            return f"{base}/hold", {"held": chosen, "version": version}
        dice = [rng.randint(1, 6) for _ in range(5 - held)]
        return f"{base}/throw", {"dice": dice, "version": version}
    scores = state["scores"]
    cell = max(scores, key=lambda c: (scores[c], rng.random()))
    return f"{base}/write", {"cell": cell, "version": version}


def run_load(
    seconds: float = 60.0,
    phones: int = 20,
    rate: float = 20.0,
    players: int = 4,
    folder: Path | None = None,
    seed: int = 7,
) -> Report:
    """Run the load against a fresh ``scorer serve``; returns what was measured."""
    owned = None
    if folder is None:
        owned = tempfile.TemporaryDirectory(prefix="dice-scorer-load-")
        folder = Path(owned.name)
    threads = phones + players + 16
    served = Served(folder / "load.sqlite3", None, "--threads", str(threads)).start()
    streams: list[Stream] = []
    report = Report(seconds=seconds, streams=phones + 1)
    try:
        table = Players(served, seed)
        table.new_game()
        streams = [Stream(served.port, "kiosk")]
        streams += [Stream(served.port, f"phone-{n + 1}") for n in range(phones)]
        for stream in streams:
            stream.wait_open()
        pool = ThreadPoolExecutor(max_workers=players, thread_name_prefix="phone")
        futures = []
        started = time.perf_counter()
        beat = 1.0 / rate
        n = 0
        while True:
            due = started + n * beat
            if due - started >= seconds:
                break
            pause = due - time.perf_counter()
            if pause > 0:
                time.sleep(pause)
            futures.append(pool.submit(table.move))
            n += 1
        for future in futures:
            future.result()
        report.seconds = time.perf_counter() - started
        pool.shutdown()
        # every acknowledged move has had its event published: wait for the pages to get them
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not all(s.has(table.acked) for s in streams):
            time.sleep(0.05)
        report.sent = n
        report.acked = len(table.acked) - 1  # the first game's start is not a move
        report.conflicts = table.conflicts
        report.refused = table.refused
        report.latencies_ms = table.latencies
        for stream in streams:
            report.problems += stream.problems(table.acked)
            report.events_per_stream.append(len(stream.events))
    finally:
        served.stop()  # ends every stream from the server's side
        for stream in streams:
            stream.close()
        if owned is not None:
            owned.cleanup()
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to play (60)")
    parser.add_argument("--phones", type=int, default=20, help="phones with a stream open (20)")
    parser.add_argument("--rate", type=float, default=20.0, help="moves a second (20)")
    parser.add_argument("--players", type=int, default=4, help="phones that move at once (4)")
    args = parser.parse_args(argv)
    report = run_load(args.seconds, args.phones, args.rate, args.players)
    print(f"load: {args.seconds:g} s, {args.phones} phones + kiosk, {args.rate:g} moves/s")
    for line in report.lines():
        print(line)
    for problem in report.problems[:20]:
        print("PROBLEM", problem)
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
