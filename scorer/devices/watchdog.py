"""Telling systemd the server is up and alive (``Type=notify``, ``WatchdogSec=``).

The protocol is one datagram to the socket in ``$NOTIFY_SOCKET``; a few lines
of Python instead of a dependency. Outside systemd every call is a no-op that
returns False, so the server runs the same on a laptop.

>>> ready()       # not under systemd here
False
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable

log = logging.getLogger("scorer.devices")


def notify(message: str) -> bool:
    """Send ``message`` (``READY=1``, ``WATCHDOG=1``, ``STATUS=...``) to systemd, if it listens."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]  # an abstract socket
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(message.encode())
    except OSError as err:
        log.warning("systemd notify %r failed: %s", message, err)
        return False
    return True


_running: Watchdog | None = None


def ready(status: str = "serving", alive: Callable[[], bool] | None = None) -> bool:
    """Tell systemd start-up is over (``Type=notify`` waits for this).

    If the unit set ``WatchdogSec=``, this also starts pinging the watchdog
    while ``alive()`` (default: always) says the server is well, so a server
    that only calls ``ready()`` is not killed for silence.
    """
    global _running
    sent = notify(f"READY=1\nSTATUS={status}")
    if sent and _running is None:
        dog = Watchdog(alive or (lambda: True))
        if dog.start():
            _running = dog
    return sent


def stopping() -> bool:
    """Tell systemd a clean stop has begun, and stop pinging its watchdog."""
    global _running
    if _running is not None:
        _running.stop()
        _running = None
    return notify("STOPPING=1")


def watchdog_interval() -> float | None:
    """Seconds systemd allows between pings (``WatchdogSec=``), or None without a watchdog."""
    usec = os.environ.get("WATCHDOG_USEC")
    pid = os.environ.get("WATCHDOG_PID")
    if not usec or (pid and pid.isdigit() and int(pid) != os.getpid()):
        return None
    try:
        return int(usec) / 1_000_000
    except ValueError:
        return None


class Watchdog:
    """Pings systemd's watchdog at half its interval while ``alive()`` says so.

    If ``alive`` returns False (say, the web server stopped answering) the
    pings stop and systemd restarts the service after ``WatchdogSec``.

    >>> dog = Watchdog(alive=lambda: True)
    >>> dog.start()   # no WATCHDOG_USEC here: nothing to do
    False
    >>> dog.stop()
    """

    def __init__(self, alive: Callable[[], bool] = lambda: True, every: float | None = None):
        self.alive = alive
        interval = watchdog_interval()
        self.every = every if every is not None else (interval / 2 if interval else None)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> bool:
        """Start pinging; False when systemd asked for no watchdog."""
        if not self.every or self._thread is not None:
            return self._thread is not None
        self._thread = threading.Thread(target=self._run, name="systemd watchdog", daemon=True)
        self._thread.start()
        return True

    def stop(self) -> None:
        """Stop pinging (the server is shutting down)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)

    def _run(self) -> None:
        assert self.every
        while not self._stop.is_set():
            try:
                fine = self.alive()
            except Exception:
                log.exception("watchdog: alive() failed")
                fine = False
            if fine:
                notify("WATCHDOG=1")
            else:
                log.warning("watchdog: not alive; letting systemd restart us")
            self._stop.wait(self.every)
