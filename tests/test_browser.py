"""A whole two-player game through the pages, in Debian's chromium, against a real server.

The server is the app in a waitress thread on a free loopback port, with a
temporary SQLite file, the replay camera over a folder of photos, and the push
button on a gpiozero mock pin. The reader is a stand-in that knows each replay
photo's dice from its file name (``01_33256_u2.png``: dice 3 3 2 5 6, die 3 read
unsure), so the test is about the loop and the pages, not about vision.

The listed actions go through the pages (setup, button press, correction, hold,
re-throw by the button while the space bar is ignored during the reading, write,
undo, a throw from the kiosk's space bar); the rest of the 20 writes go through
the API's typed-dice path to keep it fast. Screenshots land in
docs/screenshots/ for the README.
"""

from __future__ import annotations

import json
import re
import threading
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# The replay photos, in the order the camera serves them.
PHOTOS = [
    "01_33256_u2_g3",  # first throw: die 3 unsure (a 2 that is really a 3, the second guess)
    "02_33331",  # the re-throw: the camera still sees the three held threes
    "03_12346",  # Borys's first throw, from the kiosk's space bar
]


class PhotoNameReader:
    """Reads the dice the replay photo's name lists; ``uN`` marks die N unsure, ``gV`` gives
    the unsure dice V as the reader's second guess."""

    def __init__(self, camera) -> None:
        self.camera = camera
        self.gate = threading.Event()  # cleared: the reading takes until it is set
        self.gate.set()

    def read(self, frame, faces="any"):
        from scorer.vision.reading import Die, Reading

        self.gate.wait(10)
        photo = self.camera.adapter.last_photo
        _, digits, *flags = photo.stem.split("_")
        unsure = {int(f[1:]) for f in flags if f.startswith("u")}
        guess = next((int(f[1:]) for f in flags if f.startswith("g")), None)
        dice = tuple(
            Die(
                int(v),
                "pips",
                0.35 if i in unsure else 0.97,
                (40 + 110 * i, 180, 90, 90),
                guess=guess if i in unsure else None,
            )
            for i, v in enumerate(digits)
        )
        return Reading(dice=dice, ms=2.0)


@pytest.fixture
def live(tmp_path):
    """A real server: waitress thread, replay camera, mock GPIO button."""
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is missing: `make chromium` (or apt-get install chromium)")
    import cv2
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    from scorer.bus import Bus
    from scorer.commands.serve import attach_button, start_server, stop_server
    from scorer.devices import open_camera
    from scorer.devices.replay import drawn_throws
    from scorer.store import Store
    from scorer.table import Table
    from web import create_app

    folder = tmp_path / "replay"
    folder.mkdir()
    for name, (frame, _) in zip(PHOTOS, drawn_throws(len(PHOTOS), seed=3), strict=True):
        cv2.imwrite(str(folder / f"{name}.png"), frame)
    camera = open_camera(f"replay:{folder}", watch_every=None)
    store = Store(tmp_path / "games.sqlite3")
    reader = PhotoNameReader(camera)
    table = Table(store, Bus(), camera=camera, reader=reader, photos=tmp_path / "photos")
    Device.pin_factory = MockFactory()
    button = attach_button(table, "gpio:17")
    app = create_app({"TABLE": table})
    server, thread = start_server(app, threads=16)
    url = f"http://127.0.0.1:{server.effective_port}"
    yield {"url": url, "table": table, "pin": Device.pin_factory.pin(17), "reader": reader}
    table.close()
    stop_server(server, thread)
    button.close()
    Device.pin_factory.close()
    Device.pin_factory = None
    store.close()


def api(url: str, path: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(
        url + path,
        data=json.dumps(body or {}).encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def press_button(pin) -> None:
    """A real press on the mock pin: down, held a moment, up (the button fires on release)."""
    pin.drive_low()
    time.sleep(0.3)
    pin.drive_high()


def test_a_whole_game_through_the_pages(live):
    from playwright.sync_api import expect, sync_playwright

    url, table = live["url"], live["table"]
    expect.set_options(timeout=15_000)  # a busy CI machine; the usual wait is milliseconds
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            kiosk = browser.new_page(viewport={"width": 1920, "height": 1080})
            phone = browser.new_page(
                viewport={"width": 390, "height": 844}, device_scale_factor=2, has_touch=True
            )
            small = browser.new_page(viewport={"width": 800, "height": 480})
            kiosk.goto(url + "/")
            small.goto(url + "/")
            expect(kiosk.locator("#empty")).to_be_visible()

            # setup, through the page: generala without double generala = 10 cells each
            phone.goto(url + "/setup")
            phone.locator("input[name=ruleset][value=generala]").check()
            phone.locator(
                '[data-ruleset="generala"] [data-option="double_generala"]'
            ).select_option("off")
            players = phone.locator("input[name=player]")
            players.nth(0).fill("Anna")
            players.nth(1).fill("Borys")
            phone.locator("#start-button").click()
            phone.wait_for_url(url + "/play")
            game_id = table.current_game_id
            expect(kiosk.locator("#current-player")).to_contain_text("Anna")
            expect(kiosk.locator("#sheet thead")).to_contain_text("Borys")

            # a throw: the push button on the mock GPIO pin; the camera reads it
            press_button(live["pin"])
            expect(kiosk.locator("#dice .die")).to_have_count(5)
            expect(kiosk.locator("#dice .die.unsure")).to_have_count(1)
            expect(phone.locator("#dice .die.unsure .die-note")).to_have_text("tap to confirm")
            expect(kiosk.locator("#dice .die.unsure .die-guess")).to_have_text("or 3?")

            # a correction, on the phone: die 3 is really a 3, the reader's second guess
            phone.locator("#dice .die").nth(2).click()
            expect(phone.locator("#picker-values .die.guess")).to_have_attribute("data-value", "3")
            SHOTS.mkdir(parents=True, exist_ok=True)
            phone.screenshot(path=str(SHOTS / "phone-picker.png"))
            phone.locator('#picker-values [data-value="3"]').click()
            expect(kiosk.locator("#dice .die.unsure")).to_have_count(0)
            expect(kiosk.locator("#dice .die.corrected")).to_have_count(1)

            # a hold: keep the three threes
            for index in (0, 1, 2):
                phone.locator("#dice .die").nth(index).click()
                phone.locator("#picker-hold").click()
                expect(phone.locator("#dice .die.held")).to_have_count(index + 1)
            expect(kiosk.locator("#dice .die.held")).to_have_count(3)

            # the re-throw: the push button again, and the reading takes a while...
            live["reader"].gate.clear()
            press_button(live["pin"])
            expect(kiosk.locator("#message")).to_have_text("Reading the dice...")
            # ...so the kiosk's space bar meanwhile is ignored, visibly
            kiosk.keyboard.press("Space")
            expect(kiosk.locator("#toast")).to_contain_text("press ignored")
            live["reader"].gate.set()
            # the camera still sees the held dice among the thrown ones
            expect(kiosk.locator("#throw-count")).to_contain_text("2")
            values = [
                kiosk.locator("#dice .die").nth(i).get_attribute("data-value") for i in range(5)
            ]
            assert values == ["3", "3", "3", "3", "1"]

            # a write: tap the cell, the button shows the points
            phone.locator('#sheet tr[data-cell="poker"] td.current').click()
            expect(phone.locator("#write-button")).to_have_text("Write: Poker (4) 40")
            phone.locator("#write-button").click()
            expect(kiosk.locator('#sheet tr[data-cell="poker"] td').first).to_have_text("40")
            expect(kiosk.locator("#current-player")).to_contain_text("Borys")

            # an undo, on the phone: the write comes back off the sheet
            phone.locator("#undo-button").click()
            poker = kiosk.locator('#sheet tr[data-cell="poker"] td').first
            expect(poker).to_have_class(re.compile(r"\boption\b"))  # open again, 40 on offer
            expect(kiosk.locator("#current-player")).to_contain_text("Anna")
            phone.locator('#sheet tr[data-cell="poker"] td.current').click()
            phone.locator("#write-button").click()
            expect(kiosk.locator("#current-player")).to_contain_text("Borys")

            # the kiosk's space bar is "throw complete" too: Borys's first throw
            kiosk.keyboard.press("Space")
            expect(kiosk.locator("#throw-count")).to_contain_text("1")
            expect(kiosk.locator("#dice .die")).to_have_count(5)
            values = [
                kiosk.locator("#dice .die").nth(i).get_attribute("data-value") for i in range(5)
            ]
            assert values == ["1", "2", "3", "4", "6"]

            # the rest of the game through the API's typed-dice path
            plan = {
                0: [
                    ("ones", [1, 1, 1, 2, 3]),
                    ("twos", [2, 2, 2, 5, 6]),
                    ("threes", [3, 3, 1, 2, 6]),
                    ("fours", [4, 4, 4, 1, 2]),
                    ("fives", [5, 5, 5, 1, 2]),
                    ("sixes", [6, 6, 6, 6, 1]),
                    ("escalera", [1, 2, 3, 4, 5]),
                    ("full", [2, 2, 3, 3, 3]),
                    ("generala", [5, 5, 5, 5, 5]),
                ],
                1: [
                    ("ones", [1, 2, 3, 4, 6]),
                    ("twos", [2, 3, 4, 6, 6]),
                    ("threes", [3, 1, 2, 4, 6]),
                    ("fours", [4, 1, 2, 3, 6]),
                    ("fives", [5, 1, 2, 3, 6]),
                    ("sixes", [6, 1, 2, 3, 4]),
                    ("escalera", [1, 1, 2, 2, 4]),
                    ("full", [1, 2, 3, 4, 6]),
                    ("poker", [1, 2, 3, 4, 6]),
                    ("generala", [1, 2, 3, 4, 6]),
                ],
            }
            turns = [plan[1].pop(0)]
            while plan[0] or plan[1]:
                for player in (0, 1):
                    if plan[player]:
                        turns.append(plan[player].pop(0))
            for number, (cell, dice) in enumerate(turns):
                if number > 0:  # the first was thrown with the space bar
                    api(url, f"/api/games/{game_id}/throw", {"dice": dice})
                if number == 9:
                    # half way: the screenshots of a game in progress, dice on the tray
                    api(url, f"/api/games/{game_id}/write", {"cell": cell})
                    api(url, f"/api/games/{game_id}/throw", {"dice": [6, 6, 4, 6, 2]})
                    api(url, f"/api/games/{game_id}/hold", {"held": [0, 1, 3]})
                    expect(kiosk.locator("#dice .die.held")).to_have_count(3)
                    # the earlier "press ignored" note goes away by itself, off the picture
                    expect(kiosk.locator("#toast")).to_be_hidden(timeout=6000)
                    SHOTS.mkdir(parents=True, exist_ok=True)
                    kiosk.screenshot(path=str(SHOTS / "kiosk.png"))
                    expect(small.locator("#dice .die.held")).to_have_count(3)
                    small.screenshot(path=str(SHOTS / "kiosk-800x480.png"))
                    phone.locator('#sheet tr[data-cell="sixes"] td.current').click()
                    expect(phone.locator("#write-button")).to_contain_text("18")
                    phone.evaluate("window.scrollTo(0, 0)")
                    phone.screenshot(path=str(SHOTS / "phone.png"))
                    phone.locator('#sheet tr[data-cell="sixes"] td.current').click()
                    api(url, f"/api/games/{game_id}/undo")  # the hold
                    api(url, f"/api/games/{game_id}/undo")  # and the throw
                    continue
                api(url, f"/api/games/{game_id}/write", {"cell": cell})

            # to the winner: every page says who won
            expect(kiosk.locator("#banner")).to_contain_text("Winner: Anna")
            expect(phone.locator("#banner")).to_contain_text("Winner: Anna")
            state = json.load(urllib.request.urlopen(f"{url}/api/games/{game_id}", timeout=10))
            assert state["finished"] and state["winners"] == [0]
            assert sum(v is not None for v in state["sheet"][0].values()) == 10
            kiosk.screenshot(path=str(SHOTS / "kiosk-finished.png"))
            # the history page shows the throw read by the camera with its correction
            phone.goto(f"{url}/history/{game_id}")
            expect(phone.locator(".correction")).to_contain_text("corrected die 3 to 3")
            expect(phone.locator("img.thumb").first).to_be_visible()
        finally:
            browser.close()
