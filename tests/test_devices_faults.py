"""A camera that times out, sends black or frozen frames, or disappears (issue 7).

Each fault is simulated with FakeCamera; the resilient camera must name it in
plain words within seconds, never crash, and pick the camera up again when
it returns.
"""

from __future__ import annotations

import queue
from collections.abc import Iterator

import numpy as np
import pytest

from scorer.devices import (
    BlackFrames,
    CameraDisconnected,
    CameraError,
    CameraTimedOut,
    FrozenFrames,
    ResilientCamera,
)
from scorer.devices.fake import FakeCamera

#: Generous: this is how long a test waits for an event, not a speed limit.
EVENT_WAIT_S = 10.0


@pytest.fixture
def hardware() -> FakeCamera:
    return FakeCamera()


@pytest.fixture
def camera(hardware: FakeCamera) -> Iterator[ResilientCamera]:
    cam = ResilientCamera(
        hardware.open, name="fake", capture_timeout=0.2, retry_every=0, watch_every=None
    )
    yield cam
    hardware.fault = None
    cam.close()


def test_a_working_camera_is_healthy(camera: ResilientCamera) -> None:
    frames = camera.capture(frames=3)
    assert len(frames) == 3
    assert camera.health() is None


def test_a_hung_camera_times_out_and_is_reopened_when_it_answers(
    hardware: FakeCamera, camera: ResilientCamera
) -> None:
    # given a camera that stops answering
    hardware.fault = "timeout"
    # when a throw is captured, then it fails with "camera timed out" rather than hanging
    with pytest.raises(CameraTimedOut):
        camera.capture()
    assert camera.health() == "camera timed out"
    # when the camera answers again, then the next capture reopens it and works
    hardware.fault = None
    assert len(camera.capture()) == 1
    assert camera.health() is None
    assert hardware.opened == 2


def test_black_frames_are_reported_and_not_mistaken_for_a_throw(
    hardware: FakeCamera, camera: ResilientCamera
) -> None:
    hardware.fault = "black"
    with pytest.raises(BlackFrames):
        camera.capture(frames=2)
    assert camera.health() == "camera frames are black"
    # the camera itself is kept (a lens cap is not a driver fault)
    hardware.fault = None
    camera.capture()
    assert camera.health() is None
    assert hardware.opened == 1


def test_frozen_frames_are_reported_across_captures(
    hardware: FakeCamera, camera: ResilientCamera
) -> None:
    # given a camera that worked, then stalled on its last frame
    camera.capture()
    hardware.fault = "frozen"
    # when the next throw is captured, then it is called frozen
    with pytest.raises(FrozenFrames):
        camera.capture()
    assert camera.health() == "camera frames are frozen"
    # and stays frozen after a reopen that still gives the same stale frame
    with pytest.raises(FrozenFrames):
        camera.capture()
    # until it sends fresh frames again
    hardware.fault = None
    camera.capture()
    assert camera.health() is None


def test_frozen_frames_within_one_capture(hardware: FakeCamera, camera: ResilientCamera) -> None:
    hardware.fault = "frozen"
    with pytest.raises(FrozenFrames, match="camera frames are frozen"):
        camera.capture(frames=3)


def test_a_disconnected_camera_is_reported_and_picked_up_when_it_returns(
    hardware: FakeCamera, camera: ResilientCamera
) -> None:
    camera.capture()
    # given the camera is unplugged
    hardware.fault = "disconnected"
    # when throws are captured, then each says "camera disconnected", nothing else
    for _ in range(3):
        with pytest.raises(CameraDisconnected):
            camera.capture()
    assert camera.health() == "camera disconnected"
    assert camera.adapter is None
    # when it is plugged back in, then the next capture picks it up
    hardware.fault = None
    assert len(camera.capture()) == 1
    assert camera.health() is None


def test_a_camera_missing_at_start_is_picked_up_later(hardware: FakeCamera) -> None:
    # given the camera is unplugged when the server starts
    hardware.fault = "disconnected"
    with ResilientCamera(hardware.open, name="fake", live=True, watch_every=None) as camera:
        # then the camera object exists and says what is wrong
        assert camera.health() == "camera disconnected"
        hardware.fault = None
        # and works once the camera is there
        assert len(camera.capture()) == 1


def test_any_driver_exception_becomes_a_camera_error(camera: ResilientCamera) -> None:
    # given an adapter that raises something unexpected
    adapter = camera.adapter

    def broken(frames: int = 1) -> list[np.ndarray]:
        raise OSError("VIDIOC_DQBUF: No such device")

    adapter.capture = broken
    # when captured, then a CameraError with a plain problem, not an OSError
    with pytest.raises(CameraError, match="VIDIOC_DQBUF") as err:
        camera.capture()
    assert err.value.problem == "camera failed"
    assert camera.health() == "camera failed"


def test_health_changes_are_announced_once_each(hardware: FakeCamera) -> None:
    # given a listener for health changes, which itself is broken half the time
    heard: list[str | None] = []

    def listener(problem: str | None) -> None:
        heard.append(problem)
        if problem is None:
            raise RuntimeError("the page is reloading")

    with ResilientCamera(
        hardware.open, name="fake", watch_every=None, retry_every=0, on_health=listener
    ) as camera:
        camera.capture()
        hardware.fault = "black"
        for _ in range(3):
            with pytest.raises(BlackFrames):
                camera.capture()
        hardware.fault = None
        camera.capture()
        camera.capture()
    # then each change was heard once, and the listener's failure broke nothing
    assert heard == ["camera frames are black", None]


@pytest.mark.parametrize(
    ("fault", "problem"),
    [
        ("disconnected", "camera disconnected"),
        ("timeout", "camera timed out"),
        ("frozen", "camera frames are frozen"),
        ("black", "camera frames are black"),
    ],
)
def test_the_watcher_notices_faults_and_recovery_while_nobody_presses(
    hardware: FakeCamera, fault: str, problem: str
) -> None:
    # given a watched camera and a listener, as the page has
    heard: queue.Queue[str | None] = queue.Queue()
    with ResilientCamera(
        hardware.open,
        name="fake",
        capture_timeout=0.2,
        retry_every=0.02,
        watch_every=0.02,
        on_health=heard.put,
    ) as camera:
        camera.capture()
        # when the camera develops a fault, without any capture
        hardware.fault = fault
        # then the listener hears what is wrong
        assert heard.get(timeout=EVENT_WAIT_S) == problem
        # and when it is mended, hears that it is fine again
        hardware.fault = None
        assert heard.get(timeout=EVENT_WAIT_S) is None
        assert camera.health() is None


def test_a_closed_camera_refuses_captures(camera: ResilientCamera) -> None:
    camera.close()
    camera.close()
    with pytest.raises(CameraDisconnected):
        camera.capture()


def test_an_open_that_hangs_times_out_and_the_late_camera_is_let_go() -> None:
    # given an opener that hangs until released
    import threading

    release = threading.Event()
    late = FakeCamera()

    def slow_open() -> FakeCamera:
        release.wait(EVENT_WAIT_S)
        return late

    # when the camera is opened, then opening times out instead of hanging the server
    camera = ResilientCamera(slow_open, name="slow", open_timeout=0.1, watch_every=None)
    assert camera.health() == "camera timed out"
    # and when the hung open finishes later, that camera is closed, not leaked
    release.set()
    for _ in range(int(EVENT_WAIT_S / 0.01)):
        if late.closed:
            break
        threading.Event().wait(0.01)
    assert late.closed
    camera.close()
