"""``scorer serve`` as ``make run`` starts it: no camera, no GPIO -> the demo, playable."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def call(url: str, method: str = "GET", body: dict | None = None) -> tuple[int, dict]:
    data = None if body is None and method == "GET" else json.dumps(body or {}).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as err:
        payload = err.read()
        err.close()
        return err.code, json.loads(payload)


def test_without_camera_or_gpio_serve_plays_the_demo_and_stops_cleanly(tmp_path):
    # given `scorer serve` with the defaults make run uses, plus the button it cannot have
    port = free_port()
    env = {**os.environ, "SCORER_DATA": str(tmp_path), "PYTHONPATH": str(ROOT)}
    env.pop("GPIOZERO_PIN_FACTORY", None)
    command = [sys.executable, "-m", "scorer", "serve", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--button", "gpio:17", "--camera", "auto"]
    proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                status, table = call(url + "/api/table")
                break
            except OSError:
                assert proc.poll() is None, proc.stderr.read().decode()
                time.sleep(0.1)
        else:
            raise AssertionError("scorer serve did not answer")
        # then it runs the demo camera and a dice reader of some kind
        assert status == 200 and table["camera"] == "ok" and table["reader"] == "ok", table
        # and a person can play: start a game, press "Throw complete", see dice
        status, created = call(url + "/api/games", "POST", {"ruleset": "yacht", "players": ["A"]})
        assert status == 201
        for _ in range(40):  # the demo renders its throws at start: a few seconds
            status, state = call(f"{url}/api/games/{created['id']}/throw", "POST")
            if status != 409 or "timed out" not in state["message"]:
                break
            time.sleep(0.5)
        assert status == 200, state
        assert state["throw"] == 1 or state["table"]["pending"], state
        assert (tmp_path / "scorer.sqlite3").exists()
        with urllib.request.urlopen(url + "/", timeout=20) as page:
            assert b"Throw complete" in page.read()
    finally:
        # when it is told to stop, then it stops at once, cleanly
        proc.send_signal(signal.SIGTERM)
        try:
            assert proc.wait(timeout=15) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.stderr.close()
