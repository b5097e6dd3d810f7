"""A real ``scorer serve`` process on a free loopback port, for tests and benchmarks."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Served:
    """``scorer serve`` in a subprocess; ``kill()`` is SIGKILL, as a pulled cable is."""

    def __init__(self, db: Path, port: int | None = None, *extra: str) -> None:
        self.db = db
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.extra = extra
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 30.0) -> Served:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "SCORER_DATA": str(self.db.parent)}
        command = [sys.executable, "-m", "scorer", "serve", "--camera", "none"]
        command += ["--button", "none", "--db", str(self.db), "--host", "127.0.0.1"]
        command += ["--port", str(self.port), *self.extra]
        self.proc = subprocess.Popen(
            command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"scorer serve exited with {self.proc.returncode}")
            try:
                self.request("GET", "/api/games")
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("scorer serve did not answer in time")

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
        if self.proc:
            self.proc.wait()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        req.add_header("X-Requested-With", "scorer-test")
        try:
            with urllib.request.urlopen(req, timeout=10) as resp:
                return resp.status, json.loads(resp.read() or b"null")
        except urllib.error.HTTPError as err:
            payload = err.read()
            err.close()
            return err.code, json.loads(payload or b"null")
        except http.client.HTTPException as err:
            # the server died between the headers and the body: nothing was acknowledged
            raise ConnectionError(f"connection broke mid-answer: {err!r}") from err
