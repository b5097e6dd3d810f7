"""The systemd side: notify/watchdog messages, the unit files, the Pi installer."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorer.devices import watchdog

ROOT = Path(__file__).resolve().parents[1]
SYSTEMD = ROOT / "systemd"
EVENT_WAIT_S = 10.0


@pytest.fixture
def systemd_socket(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[socket.socket]:
    """A datagram socket standing in for systemd's, named in $NOTIFY_SOCKET."""
    path = tmp_path / "notify"
    if len(str(path)) > 100:
        pytest.skip("temporary path too long for a unix socket")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(EVENT_WAIT_S)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    yield sock
    sock.close()


def test_outside_systemd_notifying_does_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    assert watchdog.ready() is False
    assert watchdog.watchdog_interval() is None
    assert watchdog.Watchdog().start() is False


def test_ready_tells_systemd_the_server_is_up(systemd_socket: socket.socket) -> None:
    assert watchdog.ready("serving on :8000") is True
    assert systemd_socket.recv(256) == b"READY=1\nSTATUS=serving on :8000"


def test_ready_starts_the_watchdog_systemd_asked_for(
    systemd_socket: socket.socket, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a unit with WatchdogSec (here 20 ms)
    monkeypatch.setenv("WATCHDOG_USEC", "20000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    # when the server says it is ready, then pings follow without more calls
    try:
        assert watchdog.ready()
        assert systemd_socket.recv(256).startswith(b"READY=1")
        assert systemd_socket.recv(64) == b"WATCHDOG=1"
    finally:
        watchdog.stopping()
    messages = []
    systemd_socket.settimeout(0.2)
    with contextlib.suppress(TimeoutError):
        while True:
            messages.append(systemd_socket.recv(64))
    assert messages[-1] == b"STOPPING=1"


def test_abstract_notify_sockets_are_understood(monkeypatch: pytest.MonkeyPatch) -> None:
    name = f"dice-scorer-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(EVENT_WAIT_S)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        assert watchdog.notify("WATCHDOG=1")
        assert sock.recv(64) == b"WATCHDOG=1"


def test_watchdog_interval_comes_from_systemd(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert watchdog.watchdog_interval() == 30.0
    assert watchdog.Watchdog().every == 15.0
    # meant for another process: not ours to ping
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid() + 1))
    assert watchdog.watchdog_interval() is None


def test_the_watchdog_pings_while_alive_and_stops_when_not(
    systemd_socket: socket.socket,
) -> None:
    alive = [True]
    dog = watchdog.Watchdog(alive=lambda: alive[0], every=0.01)
    assert dog.start()
    assert systemd_socket.recv(64) == b"WATCHDOG=1"
    alive[0] = False
    dog.stop()
    # drain what was sent before it stopped; after stop() nothing more comes
    systemd_socket.settimeout(0.2)
    with pytest.raises(TimeoutError):
        while True:
            systemd_socket.recv(64)


# -- unit files ---------------------------------------------------------------------------


def render_unit(tmp_path: Path) -> Path:
    """The unit as install.sh writes it, pointing at a stand-in venv."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    scorer = venv / "bin" / "scorer"
    scorer.write_text("#!/bin/sh\n")
    scorer.chmod(0o755)
    text = (SYSTEMD / "dice-scorer.service").read_text()
    user = subprocess.run(["id", "-un"], capture_output=True, text=True, check=True).stdout
    unit = tmp_path / "dice-scorer.service"
    unit.write_text(text.replace("@USER@", user.strip()).replace("@VENV@", str(venv)))
    return unit


def test_the_server_unit_runs_scorer_serve_with_the_pi_devices(tmp_path: Path) -> None:
    unit = render_unit(tmp_path).read_text()
    assert "Type=notify" in unit and "WatchdogSec=" in unit and "Restart=always" in unit
    assert "bin/scorer serve --port 8000 --camera auto --button gpio:17" in unit
    assert "PrivateDevices" not in unit.replace("No PrivateDevices=", "")


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
def test_the_server_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    unit = render_unit(tmp_path)
    done = subprocess.run(
        ["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60
    )
    complaints = [
        line for line in (done.stdout + done.stderr).splitlines() if "dice-scorer" in line
    ]
    assert done.returncode == 0 and complaints == [], done.stdout + done.stderr


def test_the_kiosk_opens_the_page_full_screen() -> None:
    autostart = (SYSTEMD / "labwc-autostart").read_text()
    for flag in ("--kiosk", "--noerrdialogs", "--disable-infobars", "--no-first-run"):
        assert flag in autostart
    assert "http://localhost:8000/" in autostart


# -- the installer -------------------------------------------------------------------------


def test_installer_is_valid_bash() -> None:
    subprocess.run(["bash", "-n", str(SYSTEMD / "install.sh")], check=True)


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="no shellcheck here")
def test_installer_passes_shellcheck() -> None:
    subprocess.run(["shellcheck", str(SYSTEMD / "install.sh")], check=True)


def test_installer_keeps_one_numpy() -> None:
    # given a dry run of the installer (it changes nothing)
    env = {**os.environ, "DRY_RUN": "1", "VENV": "/opt/dice-scorer/venv", "KIOSK": "1"}
    done = subprocess.run(
        ["bash", str(SYSTEMD / "install.sh")],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=True,
    )
    lines = done.stdout.splitlines()
    apt = next(line for line in lines if "apt-get install" in line and "picamera2" in line)
    pips = [line for line in lines if "/bin/pip install" in line]
    # then numpy, OpenCV, picamera2 and lgpio come from apt
    for package in ("python3-picamera2", "python3-lgpio", "python3-opencv", "python3-numpy"):
        assert package in apt
    # and the venv sees them, the project goes in without its deps
    assert any("venv --system-site-packages" in line for line in lines)
    assert any("--no-deps" in line for line in pips)
    # and pip installs every other run-time dependency of pyproject, but no numpy or OpenCV
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    pure = [d for d in deps if not d.lower().startswith(("numpy", "opencv"))]
    pip_line = next(line for line in pips if "--no-deps" not in line)
    for dep in pure:
        assert dep.replace(">", "\\>").replace("<", "\\<") in pip_line or dep in pip_line
    assert all("opencv" not in line for line in pips)
    # and onnxruntime, the faster backend, with numpy only pinned to apt's own version
    # (a pin the apt numpy meets, so pip adds none)
    assert any("onnxruntime" in line for line in pips)
    for line in pips:
        assert all(word.startswith("numpy==") for word in line.split() if "numpy" in word)
    # and the unit it installs runs that venv's scorer
    assert "ExecStart=/opt/dice-scorer/venv/bin/scorer serve" in done.stdout
    assert "labwc/autostart" in done.stdout
