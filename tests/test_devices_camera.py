"""Choosing a camera from its spec, the replay and demo cameras, and judging frames."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from scorer.devices import BadDeviceSpec, CameraDisconnected, CameraError, open_camera
from scorer.devices.fake import FakeCamera
from scorer.devices.faults import (
    BlackFrames,
    FrozenFrames,
    frames_problem,
    is_black,
    is_repeat,
)
from scorer.devices.replay import DemoCamera, NoPhotos, ReplayCamera, drawn_throws
from scorer.devices.spec import CameraSpec, parse_camera_spec, parse_pin_spec
from scorer.errors import ScorerError

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


def write_photo(path: Path, colour: tuple[int, int, int]) -> Path:
    assert cv2.imwrite(str(path), np.full((48, 64, 3), colour, np.uint8))
    return path


# -- specs -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("auto", CameraSpec("auto")),
        ("PI", CameraSpec("pi")),
        ("usb", CameraSpec("usb", 0)),
        ("usb:2", CameraSpec("usb", 2)),
        ("replay:photos/throws", CameraSpec("replay", folder=Path("photos/throws"))),
        ("demo", CameraSpec("demo")),
        ("none", CameraSpec("none")),
    ],
)
def test_camera_specs_parse(text: str, expected: CameraSpec) -> None:
    # given a --camera value, when parsed, then it names the device
    assert parse_camera_spec(text) == expected


@pytest.mark.parametrize("text", ["webcam", "usb:x", "replay:", "pi:1", ""])
def test_bad_camera_specs_are_scorer_errors(text: str) -> None:
    # given a typo, when parsed, then a ScorerError (CLI exit 2) names the choices
    with pytest.raises(BadDeviceSpec, match=r"camera|usb|replay") as err:
        parse_camera_spec(text)
    assert isinstance(err.value, ScorerError)


@pytest.mark.parametrize(
    ("text", "pin"), [("gpio:17", 17), ("GPIO27", 27), ("17", 17), ("none", None)]
)
def test_pin_specs_parse(text: str, pin: int | None) -> None:
    assert parse_pin_spec(text) == pin


@pytest.mark.parametrize("text", ["gpio:99", "gpio:", "pin17", "gpio:-1"])
def test_bad_pin_specs_are_rejected(text: str) -> None:
    with pytest.raises(BadDeviceSpec, match="gpio:N"):
        parse_pin_spec(text)


# -- open_camera ---------------------------------------------------------------------


def test_none_means_dice_are_typed_in() -> None:
    assert open_camera("none") is None


def test_demo_camera_serves_rendered_throws_with_their_values(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # given the demo camera (two throws: rendering takes a while)
    from scorer.devices import replay

    monkeypatch.setattr(replay, "DEMO_THROWS", 2)
    # when a throw is captured, then frames and true values come back
    with open_camera("demo", watch_every=None) as camera:
        frames = camera.capture(frames=3)
        assert camera.name == "demo"
        assert len(frames) == 3 and frames[0].ndim == 3 and frames[0].dtype == np.uint8
        assert len(camera.adapter.last_values) == 5
        assert camera.health() is None


def test_demo_camera_falls_back_to_drawn_dice_while_scorer_demo_is_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # given no scorer.demo module, when the demo camera opens, then it draws its own dice
    monkeypatch.setitem(sys.modules, "scorer.demo", None)
    camera = DemoCamera(n=4, seed=3)
    assert [values for _, values in camera.throws] == [v for _, v in drawn_throws(4, 3)]


def test_drawn_throws_show_as_many_pips_as_their_values() -> None:
    # given a drawn throw, when its dark blobs are counted, then they add up to the values
    frame, values = drawn_throws(1, seed=5)[0]
    dark = (cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) < 60).astype(np.uint8)
    blobs, _ = cv2.connectedComponents(dark)
    assert blobs - 1 == sum(values)


def test_replay_serves_photos_in_name_order_and_cycles(tmp_path: Path) -> None:
    # given three photos written out of order, and a file that is no photo
    write_photo(tmp_path / "b.png", (0, 200, 0))
    write_photo(tmp_path / "a.png", (200, 0, 0))
    write_photo(tmp_path / "c.jpg", (0, 0, 200))
    (tmp_path / "notes.txt").write_text("not a photo")
    # when four throws are captured
    with open_camera(f"replay:{tmp_path}") as camera:
        served = [camera.capture()[0][10, 10].argmax() for _ in range(4)]
        # then they come a, b, c, a (blue, green, red channels in BGR)
        assert served == [0, 1, 2, 0]
        assert camera.adapter.last_photo.name == "a.png"
        assert camera.name == f"replay:{tmp_path}"


def test_replay_of_one_photo_is_not_called_frozen(tmp_path: Path) -> None:
    # given a folder with one photo, when captured twice, then no "frozen" fault
    write_photo(tmp_path / "only.png", (90, 90, 90))
    with open_camera(f"replay:{tmp_path}") as camera:
        camera.capture()
        camera.capture(frames=2)
        assert camera.health() is None


@pytest.mark.parametrize("make", ["empty", "missing", "file"])
def test_replay_says_clearly_when_the_folder_has_no_photos(tmp_path: Path, make: str) -> None:
    folder = tmp_path / "throws"
    if make == "empty":
        folder.mkdir()
    elif make == "file":
        folder.write_text("x")
    with pytest.raises(
        NoPhotos,
        match=r"replay folder .*throws.* (holds no photos|does not"
        r" exist|is not a folder)",
    ):
        open_camera(f"replay:{folder}")


def test_replay_skips_an_unreadable_photo_after_reporting_it(tmp_path: Path) -> None:
    # given a broken jpg between two good photos
    write_photo(tmp_path / "1.png", (200, 0, 0))
    (tmp_path / "2.jpg").write_bytes(b"not a jpeg")
    write_photo(tmp_path / "3.png", (0, 0, 200))
    with open_camera(f"replay:{tmp_path}") as camera:
        camera.capture()
        # when the broken one comes up, then a CameraError says so
        with pytest.raises(CameraError, match="cannot read photo"):
            camera.capture()
        assert camera.health() == "replay photo unreadable"
        # and the next capture goes on with the next photo
        assert camera.capture()[0][5, 5].argmax() == 2
        assert camera.health() is None


def test_replay_of_the_real_webcam_photos() -> None:
    # given the shared webcam photos, when replayed, then the first comes back as BGR
    folder = SHARED / "datasets" / "webcam-white" / "images" / "test"
    if not folder.is_dir():
        pytest.skip(f"{folder} is absent (the shared datasets sit beside the repository)")
    camera = ReplayCamera(folder)
    frame = camera.capture()[0]
    assert frame.shape[2] == 3 and len(camera.photos) > 10


def test_pi_without_picamera2_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # given a machine where picamera2 cannot be imported (any x86 laptop)
    monkeypatch.setitem(sys.modules, "picamera2", None)
    # when --camera pi is asked for, then the error says what to install
    with pytest.raises(BadDeviceSpec, match="python3-picamera2"):
        open_camera("pi")


def test_a_missing_usb_camera_does_not_stop_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    # given no webcam 7 on this machine
    from scorer.devices import webcam

    def unplugged(index: int = 0) -> None:
        raise CameraDisconnected(f"no /dev/video{index}")

    monkeypatch.setattr(webcam, "UsbCamera", unplugged)
    # when --camera usb:7 opens, then it reports the fault instead of raising
    with open_camera("usb:7", watch_every=None, retry_every=0) as camera:
        assert camera.name == "usb:7"
        assert camera.health() == "camera disconnected"
        # and a capture raises a CameraError the table can show
        with pytest.raises(CameraDisconnected):
            camera.capture()


def test_auto_falls_back_to_the_demo_and_says_why(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # given no picamera2 and no webcam
    from scorer.devices import webcam

    def unplugged(index: int = 0) -> None:
        raise CameraDisconnected(f"no /dev/video{index}")

    monkeypatch.setitem(sys.modules, "picamera2", None)
    monkeypatch.setattr(webcam, "UsbCamera", unplugged)
    # when --camera auto opens
    with caplog.at_level("INFO", logger="scorer.devices"), open_camera("auto") as camera:
        # then it chose the demo and says what it tried
        assert camera.name == "demo"
        assert "no pi camera (picamera2 is not installed" in camera.why
        assert "no usb:0 camera (camera disconnected: no /dev/video0)" in camera.why
        assert "chose the demo" in caplog.text


def test_auto_skips_a_webcam_that_hangs_while_opening(monkeypatch: pytest.MonkeyPatch) -> None:
    # given no picamera2, and a webcam node whose driver never answers
    import threading

    from scorer.devices import webcam

    never = threading.Event()
    monkeypatch.setitem(sys.modules, "picamera2", None)
    late = FakeCamera(name="usb:0")
    monkeypatch.setattr(webcam, "UsbCamera", lambda index=0: never.wait() and late)
    # when auto opens, then it gives up on the webcam and serves the demo
    with open_camera("auto", open_timeout=0.1) as camera:
        assert camera.name == "demo"
        assert "no usb:0 camera (camera timed out" in camera.why
    # and the webcam that answers too late is closed, not left holding the device
    never.set()
    for _ in range(1000):
        if late.closed:
            break
        threading.Event().wait(0.01)
    assert late.closed


def test_auto_takes_a_webcam_when_there_is_no_pi_camera(monkeypatch: pytest.MonkeyPatch) -> None:
    from scorer.devices import webcam

    monkeypatch.setitem(sys.modules, "picamera2", None)
    monkeypatch.setattr(webcam, "UsbCamera", lambda index=0: FakeCamera(name=f"usb:{index}"))
    with open_camera("auto", watch_every=None) as camera:
        assert camera.name == "usb:0" and camera.live
        assert "chose usb:0" in camera.why
        assert len(camera.capture()) == 1


# -- judging frames ------------------------------------------------------------------


def test_black_means_too_dark_for_any_die() -> None:
    rng = np.random.default_rng(0)
    lens_cap = rng.integers(0, 6, (120, 160, 3), dtype=np.uint8)  # sensor noise in the dark
    dim_tray = np.full((120, 160, 3), 35, np.uint8)
    assert is_black(lens_cap)
    assert not is_black(dim_tray)


def test_a_repeat_is_an_exact_copy_only() -> None:
    frame = np.full((30, 40, 3), 100, np.uint8)
    noisy = frame.copy()
    noisy[3, 4, 1] += 1
    assert is_repeat(frame.copy(), frame)
    assert not is_repeat(noisy, frame)
    assert not is_repeat(frame, None)
    assert not is_repeat(frame[:20], frame)


def test_frames_problem_names_black_and_frozen() -> None:
    grey = np.full((30, 40, 3), 100, np.uint8)
    other = grey.copy()
    other[0, 0] = 0
    assert isinstance(frames_problem([np.zeros_like(grey)], None, live=True), BlackFrames)
    assert isinstance(frames_problem([grey, grey.copy()], None, live=True), FrozenFrames)
    assert isinstance(frames_problem([grey], grey.copy(), live=True), FrozenFrames)
    assert frames_problem([grey, grey.copy()], None, live=False) is None
    assert frames_problem([grey, other], None, live=True) is None
    assert frames_problem([grey[:, :, 0]], None, live=True).problem == "camera failed"
