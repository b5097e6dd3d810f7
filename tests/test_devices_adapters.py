"""The Pi camera and USB webcam adapters, against stand-ins for picamera2 and OpenCV.

picamera2 cannot be imported off a Pi (no libcamera), so a fake module is put
in ``sys.modules``; the webcam gets a fake ``cv2.VideoCapture``.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from scorer.devices import CameraDisconnected, CameraError, CameraTimedOut, open_camera

# -- a stand-in picamera2 -----------------------------------------------------------


class FakePicamera2:
    """Records what the adapter asks of picamera2; returns noisy BGR stills."""

    cameras = 1
    has_autofocus = True
    instances: list[FakePicamera2] = []  # noqa: RUF012 - the test's record

    def __init__(self) -> None:
        if not self.cameras:
            raise IndexError("list index out of range")
        self.camera_controls: dict[str, Any] = {"ExposureTime": (1, 10**6, None)}
        if self.has_autofocus:
            self.camera_controls["AfMode"] = (0, 2, 0)
        self.controls: list[dict[str, Any]] = []
        self.config: dict[str, Any] | None = None
        self.started = self.closed = False
        self.rng = np.random.default_rng(len(self.instances))
        self.instances.append(self)

    def create_still_configuration(self, main: dict[str, Any], **_: Any) -> dict[str, Any]:
        return {"kind": "still", "main": main}

    def configure(self, config: dict[str, Any]) -> None:
        self.config = config

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.controls.append(dict(controls))

    def start(self) -> None:
        self.started = True

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        self.closed = True

    def capture_metadata(self) -> dict[str, Any]:
        return {"ExposureTime": 16000, "AnalogueGain": 2.5, "ColourGains": (1.9, 1.4), "Lux": 210}

    def capture_array(self, name: str = "main") -> np.ndarray:
        assert self.started and name == "main"
        width, height = self.config["main"]["size"]
        return self.rng.integers(40, 200, (height, width, 3), dtype=np.uint8)


@pytest.fixture
def picamera2(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[FakePicamera2]]:
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2
    monkeypatch.setitem(sys.modules, "picamera2", module)
    monkeypatch.setattr(FakePicamera2, "instances", [])
    yield FakePicamera2


def test_pi_camera_takes_bgr_stills_with_exposure_and_white_balance_locked(
    picamera2: type[FakePicamera2],
) -> None:
    from scorer.devices.picamera import PiCamera

    # given a Pi camera module with autofocus, when the adapter opens it
    camera = PiCamera(size=(640, 480), settle_s=0)
    cam = picamera2.instances[0]
    # then it asked for stills laid out for OpenCV, at the size it wanted
    assert cam.config["main"] == {"size": (640, 480), "format": "RGB888"}
    # and focuses continuously, then locks what auto exposure and white balance settled on
    assert cam.controls[0] == {"AfMode": 2}
    assert cam.controls[1] == {
        "AeEnable": False,
        "AwbEnable": False,
        "ExposureTime": 16000,
        "AnalogueGain": 2.5,
        "ColourGains": (1.9, 1.4),
    }
    # when a throw is captured, then fresh frames come back
    a, b = camera.capture(frames=2)
    assert a.shape == (480, 640, 3) and not np.array_equal(a, b)
    # when closed, then picamera2 is stopped and released
    camera.close()
    camera.close()
    assert cam.closed and not cam.started
    with pytest.raises(CameraDisconnected):
        camera.capture()


def test_pi_camera_without_autofocus_is_not_asked_to_focus(
    picamera2: type[FakePicamera2], monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorer.devices.picamera import PiCamera

    monkeypatch.setattr(picamera2, "has_autofocus", False)
    PiCamera(settle_s=0, lock=False).close()
    assert picamera2.instances[0].controls == []


def test_no_pi_camera_on_the_ribbon_is_disconnected(
    picamera2: type[FakePicamera2], monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorer.devices.picamera import PiCamera

    monkeypatch.setattr(picamera2, "cameras", 0)
    with pytest.raises(CameraDisconnected, match="no Pi camera found"):
        PiCamera(settle_s=0)


def test_a_failing_pi_capture_is_a_camera_error(picamera2: type[FakePicamera2]) -> None:
    from scorer.devices.picamera import PiCamera

    camera = PiCamera(settle_s=0)

    def dead(name: str = "main") -> np.ndarray:
        raise RuntimeError("Camera frontend has timed out!")

    picamera2.instances[0].capture_array = dead
    with pytest.raises(CameraError, match="timed out"):
        camera.capture()


def test_auto_chooses_the_pi_camera_first(
    picamera2: type[FakePicamera2], monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorer.devices import picamera

    real_init = picamera.PiCamera.__init__
    monkeypatch.setattr(
        picamera.PiCamera,
        "__init__",
        lambda self, **kw: real_init(self, size=(320, 240), settle_s=0, **kw),
    )
    with open_camera("auto", watch_every=None) as camera:
        assert camera.name == "pi" and camera.why == "chose pi"
        assert camera.capture()[0].ndim == 3


def test_pi_spec_opens_through_picamera2(
    picamera2: type[FakePicamera2], monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorer.devices import picamera

    real_init = picamera.PiCamera.__init__
    monkeypatch.setattr(
        picamera.PiCamera,
        "__init__",
        lambda self, **kw: real_init(self, size=(64, 48), settle_s=0, **kw),
    )
    with open_camera("pi", watch_every=None) as camera:
        assert camera.capture()[0].shape == (48, 64, 3)
        assert camera.health() is None


# -- a stand-in cv2.VideoCapture -----------------------------------------------------


class FakeCapture:
    """A webcam that buffers stale frames, as V4L2 does."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.opened = True
        self.props: dict[int, float] = {}
        self.grabs = self.reads = 0
        self.working = True

    def isOpened(self) -> bool:  # OpenCV's name
        return self.opened

    def set(self, prop: int, value: float) -> bool:
        self.props[prop] = value
        return True

    def get(self, prop: int) -> float:
        return self.props.get(prop, 0.0)

    def grab(self) -> bool:
        self.grabs += 1
        return self.working

    def read(self) -> tuple[bool, np.ndarray | None]:
        self.reads += 1
        if not self.working:
            return False, None
        return True, np.full((720, 1280, 3), self.reads % 250, np.uint8)

    def release(self) -> None:
        self.opened = False


@pytest.fixture
def webcams(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[FakeCapture]:
    from scorer.devices import webcam

    made: list[FakeCapture] = []

    def video_capture(index: int) -> FakeCapture:
        made.append(FakeCapture(index))
        return made[-1]

    monkeypatch.setattr(webcam, "DEV_DIR", tmp_path)
    monkeypatch.setattr(cv2, "VideoCapture", video_capture)
    (tmp_path / "video0").touch()
    return made


def test_webcam_asks_for_720p_and_drops_stale_frames(webcams: list[FakeCapture]) -> None:
    from scorer.devices.webcam import STALE_FRAMES, UsbCamera

    # given webcam 0, when opened, then it asked for 1280x720 and proved it delivers
    camera = UsbCamera(0)
    cap = webcams[0]
    assert cap.props[cv2.CAP_PROP_FRAME_WIDTH] == 1280
    assert cap.props[cv2.CAP_PROP_FRAME_HEIGHT] == 720
    assert cap.reads == 1
    # when a throw of 3 frames is captured, then stale frames were dropped first
    frames = camera.capture(frames=3)
    assert len(frames) == 3 and cap.grabs == STALE_FRAMES and cap.reads == 4
    # when closed, then the webcam is released
    camera.close()
    assert not cap.opened


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="device nodes are Linux's")
def test_webcam_without_its_device_node_is_disconnected(
    webcams: list[FakeCapture], tmp_path: Path
) -> None:
    from scorer.devices.webcam import UsbCamera

    with pytest.raises(CameraDisconnected, match="video3"):
        UsbCamera(3)
    assert webcams == []  # OpenCV was not even asked


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="device nodes are Linux's")
def test_webcam_unplugged_mid_game_is_disconnected_and_a_stall_is_a_timeout(
    webcams: list[FakeCapture], tmp_path: Path
) -> None:
    from scorer.devices.webcam import UsbCamera

    camera = UsbCamera(0)
    webcams[0].working = False
    # a webcam that stops sending while its node is there: timed out
    with pytest.raises(CameraTimedOut):
        camera.capture()
    # a webcam whose node is gone: disconnected
    (tmp_path / "video0").unlink()
    with pytest.raises(CameraDisconnected):
        camera.capture()
    assert camera.health() == "camera disconnected"


def test_webcam_that_will_not_open_is_disconnected(
    webcams: list[FakeCapture], monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorer.devices.webcam import UsbCamera

    monkeypatch.setattr(FakeCapture, "isOpened", lambda self: False)
    with pytest.raises(CameraDisconnected, match="would not open"):
        UsbCamera(0)
