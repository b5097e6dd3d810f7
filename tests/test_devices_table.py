"""Issue 7 end to end: a failing camera, through the device layer, onto the table's page.

The camera is the real ResilientCamera around a FakeCamera, wired to the table
as ``scorer serve`` wires it (``on_health`` -> ``Table.on_camera_health``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorer.bus import Bus
from scorer.devices import ResilientCamera
from scorer.devices.fake import FakeCamera
from scorer.game import Setup
from scorer.store import Store
from scorer.table import CameraUnavailable, Table

EVENT_WAIT_S = 10.0


@pytest.fixture
def rig(tmp_path: Path, reader: Any) -> Iterator[tuple[Table, FakeCamera, Any]]:
    hardware = FakeCamera()
    holder: dict[str, Table] = {}
    camera = ResilientCamera(
        hardware.open,
        name="usb:0",
        capture_timeout=0.2,
        retry_every=0.02,
        watch_every=0.02,
        on_health=lambda problem: holder["table"].on_camera_health(problem),
    )
    store = Store(tmp_path / "games.sqlite3")
    bus = Bus()
    table = Table(store, bus, camera=camera, reader=reader, photos=tmp_path / "photos")
    holder["table"] = table
    yield table, hardware, bus.subscribe()
    hardware.fault = None
    table.close()
    camera.close()
    store.close()


def page_hears(subscription: Any, predicate: Any) -> dict[str, Any]:
    """The first event every page receives for which ``predicate(table_status)`` holds."""
    while True:
        event = subscription.get(timeout=EVENT_WAIT_S)
        assert event is not None, "the page heard nothing"
        status = event.data["table"]
        if predicate(status):
            return status


@pytest.mark.parametrize(
    ("fault", "problem"),
    [
        ("disconnected", "camera disconnected"),
        ("timeout", "camera timed out"),
        ("frozen", "camera frames are frozen"),
        ("black", "camera frames are black"),
    ],
)
def test_a_camera_fault_reaches_the_page_the_game_goes_on_and_the_camera_comes_back(
    rig: tuple[Table, FakeCamera, Any], fault: str, problem: str
) -> None:
    table, hardware, page = rig
    game_id, _ = table.new_game(Setup("generala", ("Anna", "Borys")))
    table.capture_throw(game_id)
    # when the camera develops the fault, with nobody pressing
    hardware.fault = fault
    # then the page is told what is wrong, in those words
    status = page_hears(page, lambda s: s["camera"] == "failed")
    assert problem in status["camera_message"]
    # and a press says to type the dice in, and typing them in works
    with pytest.raises(CameraUnavailable):
        table.capture_throw(game_id)
    table.throw(game_id, dice=[1, 2, 3, 4, 5])
    assert [d["value"] for d in table.view(game_id)["dice"]] == [1, 2, 3, 4, 5]
    # when the camera is mended, then the page hears it is back, and it reads throws again
    hardware.fault = None
    page_hears(page, lambda s: s["camera"] == "ok")
    table.capture_throw(game_id)
