"""The table's devices: the camera over the tray, the button, the status LED.

Small interfaces with the hardware chosen at run time, as in gpiozero: a
Pi camera (picamera2), a USB webcam (OpenCV) or a replay folder behind
:class:`Camera`; gpiozero pins behind :class:`Button` and :class:`StatusLed`;
fakes for tests (:class:`~scorer.devices.fake.FakeCamera`, gpiozero's
``MockFactory``). Each device reports its faults in plain words through
``health()`` and never takes the server down with it.
"""

from scorer.devices.button import Button, open_button
from scorer.devices.camera import Camera, open_camera
from scorer.devices.faults import (
    BlackFrames,
    CameraDisconnected,
    CameraError,
    CameraTimedOut,
    FrozenFrames,
)
from scorer.devices.led import StatusLed, open_status_led
from scorer.devices.spec import BadDeviceSpec, add_device_arguments
from scorer.devices.supervisor import ResilientCamera

__all__ = [
    "BadDeviceSpec",
    "BlackFrames",
    "Button",
    "Camera",
    "CameraDisconnected",
    "CameraError",
    "CameraTimedOut",
    "FrozenFrames",
    "ResilientCamera",
    "StatusLed",
    "add_device_arguments",
    "open_button",
    "open_camera",
    "open_status_led",
]
