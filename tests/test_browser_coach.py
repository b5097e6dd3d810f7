"""The coach's review and the fairness verdict on the history pages, in Debian's chromium.

A real server (waitress thread, SQLite on disk) holds a finished yahtzee game
whose throws the camera read (a scripted reader): its page shows what each
player's decisions cost, and /history says whether the dice look fair, in
English, Russian and Ukrainian.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from scorer.game import Setup
from tests.chromium import ARGS, CHROMIUM, need_chromium
from tests.test_coach_review import blunder_game

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"


@pytest.fixture
def live(table, reader, tmp_path, monkeypatch):
    need_chromium()
    from scorer.commands.serve import start_server, stop_server
    from scorer.strategy import solitaire, tables
    from web import create_app

    monkeypatch.setenv("SCORER_DATA", str(tmp_path))
    tables.table(solitaire("yahtzee", {}), directory=tmp_path / "strategy")
    server, thread = start_server(create_app({"TABLE": table}), threads=8)
    yield f"http://127.0.0.1:{server.effective_port}"
    table.close()
    stop_server(server, thread)
    tables.forget()


def finished_game(table, reader) -> int:
    """The blunder game for Anna; Borys throws 6 6 6 1 2 every turn; the camera reads all."""
    game_id, _ = table.new_game(Setup("yahtzee", ("Anna", "Borys")))
    events = blunder_game()
    for throw, write in zip(events[::2], events[1::2], strict=True):
        for dice in (throw["dice"], [6, 6, 6, 1, 2]):
            reader.queue(dice)
            table.capture_throw(game_id)
            table.act(game_id, dict(write))
    return game_id


LANGUAGES = [
    ("en", "Coach", "points lost", "6 comes up more often than a fair die would"),
    ("ru", "Тренер", "очков потеряно", "6 выпадает чаще, чем у честной кости"),
    ("uk", "Тренер", "очок втрачено", "6 випадає частіше, ніж у чесної кістки"),
]


def test_the_review_and_the_fairness_verdict_in_each_language(live, table, reader):
    from playwright.sync_api import expect, sync_playwright

    game_id = finished_game(table, reader)
    expect.set_options(timeout=15_000)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page(viewport={"width": 800, "height": 1000})
        for lang, coach, lost, fair in LANGUAGES:
            page.goto(f"{live}/history/{game_id}?lang={lang}")
            section = page.locator("#coach")
            expect(section.locator("h2")).to_have_text(coach)
            expect(section.locator(".coach-player")).to_have_count(2)
            expect(section.locator(".coach-player").first).to_contain_text(lost)
            dearest = section.locator(".coach-table tbody tr").first.locator(".cost")
            expect(dearest).to_have_text(re.compile(r"^−\d+\.\d$"))
            if lang == "en" and os.environ.get("SCREENSHOTS"):
                section.screenshot(path=str(SHOTS / "review.png"))

            page.goto(f"{live}/history?lang={lang}")
            expect(page.locator("#fairness .verdict.biased")).to_contain_text(fair)
        browser.close()
