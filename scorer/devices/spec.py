"""The device specs a person writes on the command line.

``--camera auto|pi|usb:N|replay:DIR|none``, ``--button gpio:17|none`` and
``--led gpio:27|none`` are parsed here, in one place, so the server, the
``read`` command and the systemd unit all spell devices the same way and a
typo is reported before any hardware is touched.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import NamedTuple

from scorer.errors import ScorerError

CAMERA_HELP = (
    "auto (Pi camera, else USB webcam 0, else the demo replay), pi, usb:N, "
    "replay:DIR (the photos of a folder, in order), demo, or none (dice are typed in)"
)


class BadDeviceSpec(ScorerError):
    """A ``--camera``/``--button``/``--led`` value that names no device we know."""


class CameraSpec(NamedTuple):
    """A parsed ``--camera`` value: a kind and its argument (an index or a folder)."""

    kind: str  # "auto" | "pi" | "usb" | "replay" | "demo" | "none"
    index: int = 0
    folder: Path | None = None


def parse_camera_spec(spec: str) -> CameraSpec:
    """Read ``auto``, ``pi``, ``usb``, ``usb:N``, ``replay:DIR``, ``demo`` or ``none``.

    >>> parse_camera_spec("usb:1")
    CameraSpec(kind='usb', index=1, folder=None)
    """
    text = spec.strip()
    kind, _, arg = text.partition(":")
    kind = kind.lower()
    if kind in ("auto", "pi", "demo", "none") and not arg:
        return CameraSpec(kind)
    if kind == "usb":
        if not arg:
            return CameraSpec("usb", 0)
        if arg.isdigit():
            return CameraSpec("usb", int(arg))
        raise BadDeviceSpec(f"usb camera index must be a number, as in usb:0, not {spec!r}")
    if kind == "replay":
        if not arg:
            raise BadDeviceSpec("replay needs a folder of photos, as in replay:photos/")
        return CameraSpec("replay", folder=Path(arg).expanduser())
    raise BadDeviceSpec(f"unknown camera {spec!r}; use {CAMERA_HELP}")


def parse_pin_spec(spec: str, what: str = "button") -> int | None:
    """Read ``gpio:17`` (also ``GPIO17`` or ``17``) as a BCM pin number; ``none`` as None.

    >>> parse_pin_spec("gpio:17"), parse_pin_spec("none")
    (17, None)
    """
    text = spec.strip().lower()
    if text == "none":
        return None
    for prefix in ("gpio:", "gpio", "bcm:"):
        if text.startswith(prefix):
            text = text[len(prefix) :]
            break
    if text.isdigit() and 0 <= int(text) <= 27:
        return int(text)
    raise BadDeviceSpec(f"{what} must be gpio:N with N a BCM pin 0..27, or none, not {spec!r}")


def add_device_arguments(
    parser: argparse.ArgumentParser,
    *,
    camera: str = "auto",
    button: str = "none",
    led: str = "none",
) -> None:
    """Add ``--camera``, ``--button`` and ``--led`` with the same help everywhere."""
    parser.add_argument("--camera", default=camera, metavar="SPEC", help=CAMERA_HELP)
    parser.add_argument(
        "--button",
        default=button,
        metavar="SPEC",
        help="gpio:N (a push button between BCM pin N and ground; hold = undo) or none",
    )
    parser.add_argument(
        "--led",
        default=led,
        metavar="SPEC",
        help="gpio:N (a status LED on BCM pin N, through a resistor) or none",
    )
