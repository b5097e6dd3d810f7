"""Keeping a camera going: spotting its faults and picking it up again.

A camera over a dice tray fails in a handful of ways: it stops answering,
sends black frames, sends the same frame forever, or vanishes (a USB cable,
a ribbon, another program holding it). :class:`ResilientCamera` wraps any
:class:`~scorer.devices.camera.Camera` adapter, turns each of those into a
:class:`~scorer.devices.faults.CameraError` with a plain ``problem``, keeps
``health()`` current (also while nobody presses, by test shots of a live
camera), and reopens the hardware when it comes back. Nothing here raises
anything but CameraError, so a broken camera never takes the server down:
the game goes on by hand.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from scorer.devices.faults import (
    BlackFrames,
    CameraDisconnected,
    CameraError,
    CameraTimedOut,
    frames_problem,
)

if TYPE_CHECKING:  # only for hints: the camera chooser imports this module
    from scorer.devices.camera import Camera

log = logging.getLogger("scorer.devices")


class ResilientCamera:
    """A camera that reports its faults and reopens itself.

    ``opener`` makes a fresh adapter (``PiCamera``, ``UsbCamera(0)``...);
    ``first`` is one already open. A capture that takes longer than
    ``capture_timeout`` seconds, or an open longer than ``open_timeout``,
    fails with "camera timed out" (the stuck call is abandoned on a daemon
    thread). A live camera whose capture failed
    is closed and reopened at the next capture, or by the watcher every
    ``watch_every`` seconds (at most every ``retry_every`` seconds).
    ``on_health(problem_or_None)`` is called whenever the health changes.

    >>> from scorer.devices.fake import FakeCamera
    >>> hardware = FakeCamera()
    >>> camera = ResilientCamera(hardware.open, name="fake", watch_every=None)
    >>> hardware.fault = "black"
    >>> camera.capture()
    Traceback (most recent call last):
    ...
    scorer.devices.faults.BlackFrames: camera frames are black
    >>> camera.health()
    'camera frames are black'
    >>> hardware.fault = None
    >>> len(camera.capture()), camera.health()
    (1, None)
    >>> camera.close()
    """

    def __init__(
        self,
        opener: Callable[[], Camera],
        name: str,
        *,
        live: bool | None = None,
        first: Camera | None = None,
        capture_timeout: float = 4.0,
        open_timeout: float = 10.0,
        retry_every: float = 3.0,
        watch_every: float | None = 3.0,
        on_health: Callable[[str | None], Any] | None = None,
    ) -> None:
        self.name = name
        #: Why this camera was chosen (``auto`` fills it in).
        self.why = ""
        self.capture_timeout = capture_timeout
        self.open_timeout = open_timeout
        self.retry_every = retry_every
        self.on_health = on_health
        self._opener = opener
        self._camera: Camera | None = first
        self._problem: str | None = None
        self._lock = threading.RLock()
        self._closed = threading.Event()
        self._last_frame: np.ndarray | None = None
        self._last_try = float("-inf")
        self._last_use = float("-inf")
        self.live: bool = bool(live if live is not None else getattr(first, "live", False))
        if self._camera is None:
            try:
                self._reopen()
            except CameraError as err:
                log.warning("camera %s: %s; will keep trying", name, err)
            else:
                if live is None:
                    self.live = bool(getattr(self._camera, "live", False))
        self._watcher: threading.Thread | None = None
        if watch_every and self.live:
            self._watcher = threading.Thread(
                target=self._watch, args=(watch_every,), name=f"camera watch {name}", daemon=True
            )
            self._watcher.start()

    # -- the Camera interface ------------------------------------------------------

    def capture(self, frames: int = 1) -> list[np.ndarray]:
        """Photograph the tray; raises CameraError (and updates health) on any fault."""
        if self._closed.is_set():
            raise CameraDisconnected("the camera was closed")
        with self._lock:
            self._last_use = time.monotonic()
            return self._capture(frames)

    def health(self) -> str | None:
        """None when the last look at the camera went well, else the problem."""
        return self._problem

    def close(self) -> None:
        """Stop watching and release the hardware; safe to call twice."""
        self._closed.set()
        if self._watcher is not None and self._watcher is not threading.current_thread():
            self._watcher.join(timeout=self.capture_timeout + 1)
        with self._lock:
            camera, self._camera = self._camera, None
        if camera is not None:
            self._close_quietly(camera)

    def __enter__(self) -> ResilientCamera:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- looking after it ----------------------------------------------------------

    @property
    def adapter(self) -> Camera | None:
        """The hardware adapter in use now, or None while the camera is down."""
        return self._camera

    def check(self) -> str | None:
        """Look at the camera now (the watcher does this): reopen it or test-shoot it.

        Returns the health. Skips the look if a capture is running, and does
        not re-try a missing camera more often than every ``retry_every`` s.
        """
        if self._closed.is_set() or not self._lock.acquire(blocking=False):
            return self._problem
        try:
            if self._camera is None:
                if time.monotonic() - self._last_try < self.retry_every:
                    return self._problem
                try:
                    self._reopen()
                except CameraError:
                    return self._problem
            elif (adapter_problem := self._camera.health()) is not None:
                self._fail(CameraError(problem=adapter_problem))
                return self._problem
            if self.live:
                with contextlib.suppress(CameraError):
                    self._capture(1)
            return self._problem
        finally:
            self._lock.release()

    def _watch(self, every: float) -> None:
        while not self._closed.wait(every):
            if time.monotonic() - self._last_use < every:
                continue  # a real capture looked at it just now
            try:
                self.check()
            except Exception:  # the watcher must outlive any surprise
                log.exception("camera %s: watcher", self.name)

    def _capture(self, frames: int) -> list[np.ndarray]:
        if self._camera is None:
            self._reopen()
        camera = self._camera
        assert camera is not None
        try:
            got = within_timeout(self.capture_timeout, camera.capture, frames)
        except CameraError as err:
            self._fail(err)
            raise
        except Exception as err:
            wrapped = CameraError(f"{type(err).__name__}: {err}")
            self._fail(wrapped)
            raise wrapped from err
        problem = frames_problem(got, self._last_frame, self.live)
        if self.live and got:
            self._last_frame = got[-1]
        if problem is not None:
            self._fail(problem)
            raise problem
        self._set_problem(None)
        return got

    def _reopen(self) -> None:
        self._last_try = time.monotonic()
        try:
            camera = within_timeout(self.open_timeout, self._opener, on_late=self._close_quietly)
        except CameraError as err:
            self._set_problem(err.problem)
            raise
        except Exception as err:
            wrapped = CameraDisconnected(f"{type(err).__name__}: {err}")
            self._set_problem(wrapped.problem)
            raise wrapped from err
        self._camera = camera
        log.info("camera %s is open", self.name)

    def _fail(self, err: CameraError) -> None:
        """Record the fault; a live camera that did more than send black is reopened."""
        self._set_problem(err.problem)
        if self.live and not isinstance(err, BlackFrames) and self._camera is not None:
            camera, self._camera = self._camera, None
            threading.Thread(
                target=self._close_quietly, args=(camera,), name="camera close", daemon=True
            ).start()

    def _set_problem(self, problem: str | None) -> None:
        if problem == self._problem:
            return
        self._problem = problem
        if problem is None:
            log.info("camera %s is fine again", self.name)
        else:
            log.warning("camera %s: %s", self.name, problem)
        if self.on_health is not None:
            try:
                self.on_health(problem)
            except Exception:
                log.exception("camera %s: on_health callback failed", self.name)

    @staticmethod
    def _close_quietly(camera: Camera) -> None:
        try:
            camera.close()
        except Exception as err:
            log.debug("closing a failed camera: %s", err)


def within_timeout(
    timeout: float,
    call: Callable[..., Any],
    *args: object,
    on_late: Callable[[Any], Any] | None = None,
) -> Any:
    """Run ``call(*args)`` on a daemon thread; raise CameraTimedOut after ``timeout`` s.

    A driver stuck in a system call cannot be interrupted, only abandoned; if
    an abandoned call returns later, ``on_late`` gets its result (an opened
    camera is closed so it does not keep the hardware).
    """
    done = threading.Event()
    guard = threading.Lock()
    box: dict[str, Any] = {}

    def work() -> None:
        try:
            result, error = call(*args), None
        except BaseException as err:
            result, error = None, err
        with guard:
            box["result"], box["error"] = result, error
            done.set()
            late = box.get("abandoned", False)
        if late and on_late is not None and error is None:
            try:
                on_late(result)
            except Exception:
                log.exception("cleaning up after a call that came back too late")

    threading.Thread(target=work, name="camera call", daemon=True).start()
    done.wait(timeout)
    with guard:
        if not done.is_set():
            box["abandoned"] = True
            raise CameraTimedOut(f"no answer in {timeout:g} s")
    if box["error"] is not None:
        raise box["error"]
    return box["result"]
