"""Every public device class carries a runnable example (gpiozero's habit); run them."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "scorer.devices.spec",
    "scorer.devices.camera",
    "scorer.devices.faults",
    "scorer.devices.replay",
    "scorer.devices.fake",
    "scorer.devices.supervisor",
    "scorer.devices.button",
    "scorer.devices.led",
    "scorer.devices.watchdog",
    "scorer.devices.picamera",
    "scorer.devices.webcam",
]


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_in_the_docstrings_run(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # given a module's documented examples (outside systemd, without GPIO)
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    module = importlib.import_module(name)
    # when run, then each gives what its docstring shows
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0
