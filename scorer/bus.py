"""The event bus between the table and every open page (Server-Sent Events).

Each page that opens ``/api/events`` subscribes and gets its own queue, so a slow
phone never holds up the kiosk. Every event carries an increasing id; the bus
keeps the last few, so a page that lost its connection resumes from its
``Last-Event-ID`` without missing a throw. The full state travels in each event:
it is small, and the page re-renders from it alone.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import queue
import threading
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

HEARTBEAT_SECONDS = 15.0
"""A comment line this often keeps proxies and the browser from closing an idle stream."""


@dataclass(frozen=True)
class Event:
    """One message to the pages: ``kind`` names it, ``data`` is JSON-able."""

    id: int
    kind: str
    data: Any

    def sse(self) -> str:
        """The event as a Server-Sent Events frame."""
        body = json.dumps(self.data, ensure_ascii=False, separators=(",", ":"))
        lines = "".join(f"data: {line}\n" for line in body.splitlines() or [""])
        return f"id: {self.id}\nevent: {self.kind}\n{lines}\n"


class Subscription:
    """One page's queue; iterate :meth:`frames` to stream it."""

    def __init__(self, bus: Bus, size: int) -> None:
        self._bus = bus
        self._queue: queue.Queue[Event | None] = queue.Queue(maxsize=size)
        self.closed = False

    def put(self, event: Event) -> None:
        if not self.offer(event):
            # A page that does not read is dropped; it reconnects and resumes.
            self.close()

    def offer(self, event: Event) -> bool:
        """Queue ``event`` without waiting; False when the page stopped reading (queue full)."""
        try:
            self._queue.put_nowait(event)
        except queue.Full:
            return False
        return True

    def get(self, timeout: float | None = None) -> Event | None:
        """The next event, or None on timeout or once closed."""
        if self.closed and self._queue.empty():
            return None
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._bus._drop(self)
            with contextlib.suppress(queue.Full):
                self._queue.put_nowait(None)

    def frames(self, heartbeat: float = HEARTBEAT_SECONDS) -> Iterator[str]:
        """SSE text for a streaming response: events, and a heartbeat comment when idle."""
        try:
            yield "retry: 2000\n\n"
            while not self.closed:
                event = self.get(timeout=heartbeat)
                if event is None:
                    if self.closed:
                        break
                    yield ": heartbeat\n\n"
                else:
                    yield event.sse()
        finally:
            self.close()


class Bus:
    """Publish once, deliver to every subscriber; thread-safe.

    >>> bus = Bus()
    >>> sub = bus.subscribe()
    >>> bus.publish("state", {"throw": 1}).id
    1
    >>> sub.get(timeout=0).data
    {'throw': 1}
    """

    def __init__(self, backlog: int = 64, queue_size: int = 256) -> None:
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._backlog: deque[Event] = deque(maxlen=backlog)
        self._subscribers: set[Subscription] = set()
        self._queue_size = queue_size

    def publish(self, kind: str, data: Any) -> Event:
        # Queued under the lock: two publishers at once reach every page in id order.
        with self._lock:
            event = Event(next(self._ids), kind, data)
            self._backlog.append(event)
            full = [sub for sub in self._subscribers if not sub.offer(event)]
        for sub in full:  # closing takes the lock again
            sub.close()
        return event

    def subscribe(self, last_event_id: int | None = None) -> Subscription:
        """A new queue; with ``last_event_id`` it first replays what was missed since.

        Without an id (a fresh page) only the latest event is replayed, so the page
        shows the current state at once.
        """
        sub = Subscription(self, self._queue_size)
        with self._lock:
            if last_event_id is None:
                missed = list(self._backlog)[-1:]
            else:
                missed = [e for e in self._backlog if e.id > last_event_id]
            for event in missed:
                sub.offer(event)  # a fresh queue holds the whole backlog
            self._subscribers.add(sub)
        return sub

    @property
    def last_id(self) -> int:
        with self._lock:
            return self._backlog[-1].id if self._backlog else 0

    @property
    def subscribers(self) -> int:
        with self._lock:
            return len(self._subscribers)

    def close(self) -> None:
        """End every stream (server shutdown)."""
        with self._lock:
            subscribers = list(self._subscribers)
        for sub in subscribers:
            sub.close()

    def _drop(self, sub: Subscription) -> None:
        with self._lock:
            self._subscribers.discard(sub)
