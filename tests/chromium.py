"""Debian's chromium for the browser tests, and what they do beside the pages.

Every browser test drives /usr/bin/chromium (Playwright's own download does not work
here) with the same flags and is skipped where it is missing; the moves a test does
not play on a page go to the live server's API; the push button is a mock GPIO pin;
the README's screenshots are taken only when asked (``SCREENSHOTS=docs/screenshots``).
"""

from __future__ import annotations

import json
import os
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parent.parent


def need_chromium() -> None:
    """Skip the test where Debian's chromium is not installed."""
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is missing: `make chromium` (or apt-get install chromium)")


def api(url: str, path: str, body: dict | None = None) -> dict:
    """POST ``body`` as JSON to the live server's API; its JSON answer."""
    request = urllib.request.Request(
        url + path,
        data=json.dumps(body or {}).encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def press_button(pin: Any) -> None:
    """A real press on the mock pin: down, held a moment, up (the button fires on release)."""
    pin.drive_low()
    time.sleep(0.3)
    pin.drive_high()


def shoot(page: Any, name: str) -> None:
    """A screenshot for the README, only when asked: ``SCREENSHOTS=docs/screenshots``."""
    folder = os.environ.get("SCREENSHOTS")
    if not folder:
        return
    target = Path(folder) if Path(folder).is_absolute() else ROOT / folder
    target.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(target / name))


@contextmanager
def served_with_button(table: Any) -> Iterator[tuple[str, Any]]:
    """The table's pages on a free loopback port (waitress thread) and its push button on
    mock GPIO pin 17: the page's url and the pin. Closes the table when done."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    from scorer.commands.serve import attach_button, start_server, stop_server
    from web import create_app

    Device.pin_factory = MockFactory()
    button = attach_button(table, "gpio:17")
    server, thread = start_server(create_app({"TABLE": table}), threads=16)
    yield f"http://127.0.0.1:{server.effective_port}", Device.pin_factory.pin(17)
    table.close()
    stop_server(server, thread)
    button.close()
    Device.pin_factory.close()
    Device.pin_factory = None
