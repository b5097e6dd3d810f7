"""Shared fixtures: a table with fakes and a temporary database, the app and its client.

Flask's tutorial shape (``app``, ``client``); the camera is the devices'
FakeCamera and the reader a scripted one, so no test needs hardware or a model.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED = REPO_ROOT.parent / "shared"


class ScriptedReader:
    """A dice reader that "sees" the throws a test queued, in order.

    ``queue([4, 4, 2, 3, 5])`` adds a throw read with full confidence;
    ``queue([4, 4, 2, 3, 5], confidence=[1, 1, 0.3, 1, 1])`` one with an unsure die,
    ``guesses=[None, None, 3, None, None]`` with the reader's second choice for it.
    With nothing queued it reads five sixes.
    """

    def __init__(self) -> None:
        self.throws: deque = deque()
        self.reads = 0
        self.faces: list[str] = []  # the dice kind the table named at each reading
        self.least: list[int] = []  # how many dice the table said it threw, each reading
        self.side = 24  # each die's box, px wide and high

    def queue(
        self,
        values: Iterable[int],
        confidence: Iterable[float] | None = None,
        guesses: Iterable[int | None] | None = None,
    ) -> None:
        values = list(values)
        conf = list(confidence) if confidence is not None else [0.99] * len(values)
        second = list(guesses) if guesses is not None else [None] * len(values)
        self.throws.append((values, conf, second))

    def read(self, frame, faces="any", least=0):  # the Reader interface of scorer.vision
        from scorer.vision.reading import Die, Reading

        self.reads += 1
        self.faces.append(faces)
        self.least.append(least)
        values, conf, second = (
            self.throws.popleft() if self.throws else ([6] * 5, [0.99] * 5, [None] * 5)
        )
        dice = tuple(
            Die(v, "pips", c, (10 + (self.side + 6) * i, 10, self.side, self.side), guess=g)
            for i, (v, c, g) in enumerate(zip(values, conf, second, strict=True))
        )
        return Reading(dice=dice, ms=1.0)


@pytest.fixture
def store(tmp_path):
    from scorer.store import Store

    store = Store(tmp_path / "games.sqlite3")
    yield store
    store.close()


@pytest.fixture
def reader() -> ScriptedReader:
    return ScriptedReader()


@pytest.fixture
def camera():
    from scorer.devices.fake import FakeCamera

    camera = FakeCamera()
    yield camera
    camera.close()


@pytest.fixture
def table(store, camera, reader, tmp_path):
    from scorer.bus import Bus
    from scorer.table import Table

    table = Table(store, Bus(), camera=camera, reader=reader, photos=tmp_path / "photos")
    yield table
    table.close()


@pytest.fixture
def app(table):
    from web import create_app

    return create_app({"TABLE": table, "TESTING": True, "SSE_HEARTBEAT": 0.05})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def shared_dir() -> Path:
    """The shared datasets beside the repository; tests that need them skip without."""
    if not SHARED.is_dir():
        pytest.skip(f"{SHARED} is absent: the shared datasets sit beside the repository")
    return SHARED
