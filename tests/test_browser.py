"""A whole two-player game through the pages, in Debian's chromium, against a real server.

The server is the app in a waitress thread on a free loopback port, with a
temporary SQLite file, the replay camera over a folder of photos, and the push
button on a gpiozero mock pin. The reader is a stand-in that knows each replay
photo's dice from its file name (``01_33256_u2.png``: dice 3 3 2 5 6, die 3 read
unsure), so the test is about the loop and the pages, not about vision.

The listed actions go through the pages (setup, button press, correction on the
throw's photo, hold, re-throw by the button while the space bar is ignored during the
reading, write, undo, a throw from the kiosk's space bar, dice typed in on the kiosk);
the kiosk's 800x480 touch screen does its share without a phone. The rest of the 20
writes go through the API's typed-dice path to keep it fast. The replay photos are
rendered throws showing the dice the reader reports, where it reports them.

Screenshots for the README are taken only when asked: ``SCREENSHOTS=docs/screenshots``
(``make screenshots``); otherwise the tracked ones stay as they are.
"""

from __future__ import annotations

import json
import os
import re
import socket
import threading
import urllib.request
from pathlib import Path

import pytest

from tests.chromium import (
    ARGS,
    CHROMIUM,
    api,
    need_chromium,
    press_button,
    served_with_button,
    shoot,
)

ROOT = Path(__file__).resolve().parent.parent
README_SHOTS = ROOT / "docs" / "screenshots"

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# The replay photos, in the order the camera serves them, and the seed each is rendered with.
PHOTOS = {
    "01_33256_u2_g3": 8,  # first throw: die 3 unsure (a 2 that is really a 3, the second guess)
    "02_33331": 7,  # the re-throw: the camera still sees the three held threes
    "03_12346": 12,  # Borys's first throw, from the kiosk's space bar
    "04_66462_u2": 13,  # half way, for the screenshots: die 3 unsure
    "05_6662": 15,  # a new game's first throw, where the camera finds only four dice
}


class PhotoNameReader:
    """Reads the dice the replay photo's name lists; ``uN`` marks die N unsure, ``gV`` gives
    the unsure dice V as the reader's second guess; the boxes are where the render put them."""

    def __init__(self, camera, boxes: dict[str, list]) -> None:
        self.camera = camera
        self.boxes = boxes
        self.gate = threading.Event()  # cleared: the reading takes until it is set
        self.gate.set()

    def read(self, frame, faces="any", least=0):
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
                self.boxes[photo.stem][i],
                guess=guess if i in unsure else None,
            )
            for i, v in enumerate(digits)
        )
        return Reading(dice=dice, ms=2.0)


@pytest.fixture
def live(tmp_path):
    """A real server: waitress thread, replay camera, mock GPIO button."""
    need_chromium()
    import cv2
    import numpy as np

    from scorer.bus import Bus
    from scorer.devices import open_camera
    from scorer.render.scene import render_scene
    from scorer.store import Store
    from scorer.table import Table

    folder = tmp_path / "replay"
    folder.mkdir()
    boxes = {}
    for name, seed in PHOTOS.items():
        values = [int(v) for v in name.split("_")[1]]
        scene = render_scene(
            np.random.default_rng(seed),
            len(values),
            family="pips-white",
            size=(640, 480),
            values=values,
        )
        assert [d.value for d in scene.dice] == values
        boxes[name] = [tuple(int(v) for v in d.box) for d in scene.dice]
        cv2.imwrite(str(folder / f"{name}.png"), scene.image)
    camera = open_camera(f"replay:{folder}", watch_every=None)
    store = Store(tmp_path / "games.sqlite3")
    reader = PhotoNameReader(camera, boxes)
    table = Table(store, Bus(), camera=camera, reader=reader, photos=tmp_path / "photos")
    with served_with_button(table) as (url, pin):
        port = int(url.rsplit(":", 1)[1])
        yield {
            "url": url,
            "port": port,
            "table": table,
            "pin": pin,
            "reader": reader,
            "boxes": boxes,
        }
    store.close()


def test_a_whole_game_through_the_pages(live):
    from playwright.sync_api import expect, sync_playwright

    url, table = live["url"], live["table"]
    expect.set_options(timeout=15_000)  # a busy CI machine; the usual wait is milliseconds
    shots_before = {p.name: p.stat().st_mtime_ns for p in README_SHOTS.glob("*.png")}
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
            # a table with no phone: the empty kiosk names the address a phone can open
            expect(small.locator("#phone-url")).to_have_text(
                f"http://{socket.gethostname()}.local:{live['port']}/play"
            )

            # setup, through the page, from the kiosk's own screen (it comes back to the
            # table); generala without double generala = 10 cells each
            small.locator("#empty .big-button").click()
            small.wait_for_url(url + "/setup?next=/")
            small.locator("input[name=ruleset][value=generala]").check()
            small.locator(
                '[data-ruleset="generala"] [data-option="double_generala"]'
            ).select_option("off")
            players = small.locator("input[name=player]")
            players.nth(0).fill("Anna")
            players.nth(1).fill("Borys")
            small.locator("#start-button").click()
            small.wait_for_url(url + "/")
            phone.goto(url + "/play")
            game_id = table.current_game_id
            expect(kiosk.locator("#current-player")).to_contain_text("Anna")
            expect(kiosk.locator("#sheet thead")).to_contain_text("Borys")

            # a throw: the push button on the mock GPIO pin; the camera reads it
            press_button(live["pin"])
            expect(kiosk.locator("#dice .die")).to_have_count(5)
            expect(kiosk.locator("#dice .die.unsure")).to_have_count(1)
            expect(phone.locator("#dice .die.unsure .die-note")).to_have_text("tap to confirm")
            expect(kiosk.locator("#dice .die.unsure .die-guess")).to_have_text("or 3?")

            # see the throw: the kiosk and the phone show its photo, each die boxed where it
            # lies with its value, the unsure one marked
            for page in (kiosk, small, phone):
                labels = page.locator("#photo .photo-box .photo-label")
                expect(labels).to_have_text(["3", "3", "2?", "5", "6"])
                expect(page.locator("#photo .photo-box.unsure")).to_have_count(1)
            photo = kiosk.locator("#photo-image").bounding_box()
            for index, (x, y, w, _) in enumerate(live["boxes"]["01_33256_u2_g3"]):
                drawn = kiosk.locator("#photo .photo-box").nth(index).bounding_box()
                scale = photo["width"] / 640
                assert abs(drawn["x"] - (photo["x"] + x * scale)) < 2
                assert abs(drawn["y"] - (photo["y"] + y * scale)) < 2
                assert abs(drawn["width"] - w * scale) < 2

            # a correction, on the phone, by tapping the die on the photo: die 3 is really a 3
            phone.locator("#photo .photo-box").nth(2).click()
            expect(phone.locator("#picker-title")).to_have_text("Die 3")
            expect(phone.locator("#picker-values .die.guess")).to_have_attribute("data-value", "3")
            shoot(phone, "phone-picker.png")
            phone.locator('#picker-values [data-value="3"]').click()
            expect(kiosk.locator("#dice .die.unsure")).to_have_count(0)
            expect(kiosk.locator("#dice .die.corrected")).to_have_count(1)
            expect(kiosk.locator("#photo .photo-box").nth(2)).to_have_text("3")

            # hints are off at a table of two (RULES.md, seed 004) until coach mode is on
            expect(small.locator("#hint-button")).to_be_hidden()
            api(url, f"/api/games/{game_id}/coach", {"on": True})
            expect(small.locator("#hint-button")).to_be_visible()  # the kiosk offers hints too

            # a hold, on the kiosk's own touch screen: keep the three threes
            for index in (0, 1, 2):
                small.locator("#dice .die").nth(index).click()
                small.locator("#picker-hold").click()
                expect(small.locator("#dice .die.held")).to_have_count(index + 1)
            expect(kiosk.locator("#dice .die.held")).to_have_count(3)
            expect(phone.locator("#photo .photo-box.held")).to_have_count(3)
            first_photo = kiosk.locator("#photo-image").get_attribute("src")

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
            # on the new photo, the held threes are boxed where it shows them
            assert kiosk.locator("#photo-image").get_attribute("src") != first_photo
            expect(kiosk.locator("#photo .photo-box.held")).to_have_count(3)

            # a write, on the kiosk: tap the cell, the button shows the points
            small.locator('#sheet tr[data-cell="poker"] td.current').click()
            expect(small.locator("#write-button")).to_have_text("Write: Poker (4) 40")
            small.locator("#write-button").click()
            expect(kiosk.locator('#sheet tr[data-cell="poker"] td').first).to_have_text("40")
            expect(kiosk.locator("#current-player")).to_contain_text("Borys")
            expect(kiosk.locator("#photo")).to_be_hidden()  # a new turn: no throw, no photo

            # an undo, on the kiosk: the write comes back off the sheet
            small.locator("#undo-button").click()
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
                if number == 1:  # typed in on the kiosk's touch screen, with the face pad
                    # the write has reached the kiosk: its typed field starts from no dice
                    expect(small.locator("#dice .die.blank")).to_have_count(5)
                    small.locator("#type-button").click()
                    for face in dice:
                        small.locator(f'#typed-pad [data-face="{face}"]').click()
                    expect(small.locator("#typed-dice")).to_have_value("1 1 1 2 3")
                    small.locator('#typed button[type="submit"]').click()
                    expect(small.locator("#throw-count")).to_contain_text("1")
                    expect(small.locator("#photo")).to_be_hidden()  # typed: no photo
                elif number > 0:  # the first was thrown with the space bar
                    api(url, f"/api/games/{game_id}/throw", {"dice": dice})
                if number == 9:
                    # half way: the screenshots of a game in progress, its throw's photo
                    api(url, f"/api/games/{game_id}/write", {"cell": cell})
                    api(url, f"/api/games/{game_id}/throw")  # the camera: 6 6 4 6 2, die 3 unsure
                    api(url, f"/api/games/{game_id}/hold", {"held": [0, 1, 3]})
                    expect(kiosk.locator("#dice .die.held")).to_have_count(3)
                    expect(kiosk.locator("#photo .photo-box.held")).to_have_count(3)
                    # the earlier "press ignored" note goes away by itself, off the picture
                    expect(kiosk.locator("#toast")).to_be_hidden(timeout=6000)
                    shoot(kiosk, "kiosk.png")
                    expect(small.locator("#photo .photo-box.held")).to_have_count(3)
                    shoot(small, "kiosk-800x480.png")
                    phone.locator('#sheet tr[data-cell="sixes"] td.current').click()
                    expect(phone.locator("#write-button")).to_contain_text("18")
                    phone.evaluate("window.scrollTo(0, 0)")
                    shoot(phone, "phone.png")
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
            shoot(kiosk, "kiosk-finished.png")
            # a reading that does not fit: the table shows what the camera saw, and where,
            # while the dice are typed in; /history keeps that photo
            second = api(url, "/api/games", {"ruleset": "yacht", "players": ["Anna"]})["id"]
            api(url, f"/api/games/{second}/throw")
            expect(kiosk.locator("#photo.pending .photo-label")).to_have_text(["6", "6", "6", "2"])
            expect(kiosk.locator("#typed")).to_be_visible()
            phone.goto(f"{url}/history/{second}")
            expect(phone.locator(".log-misread .throw-photo .photo-box")).to_have_count(4)
            # the history page shows the throws read by the camera, their dice boxed on the
            # photos, with the correction
            phone.goto(f"{url}/history/{game_id}")
            expect(phone.locator(".correction")).to_contain_text("corrected die 3 to 3")
            expect(phone.locator("img.thumb").first).to_be_visible()
            expect(phone.locator(".throw-photo").first.locator(".photo-box")).to_have_count(5)
            expect(phone.locator(".throw-photo .photo-box").first).to_be_visible()
            expect(phone.locator(".throw-photo .photo-label").first).to_have_text("3")
            # the kiosk switches language by itself
            small.locator('.bar .kiosk-links a[lang="uk"]').click()
            expect(small.locator("#sheet .total th")).to_have_text("Разом")
        finally:
            browser.close()
    if not os.environ.get("SCREENSHOTS"):  # the README's pictures change only when asked
        assert {p.name: p.stat().st_mtime_ns for p in README_SHOTS.glob("*.png")} == shots_before


FIT = """() => {
  const page = document.scrollingElement;
  const sheet = document.querySelector('#sheet');
  const cut = (el) => el.scrollWidth > el.clientWidth + 1;
  const ones = sheet.querySelector('tr[data-cell] th.cell-name');
  return {
    width: page.scrollWidth, height: page.scrollHeight,
    sheetWidth: sheet.parentElement.scrollWidth - sheet.parentElement.clientWidth,
    lowest: Math.max(...[...sheet.rows].map((r) => r.getBoundingClientRect().bottom)),
    font: parseFloat(getComputedStyle(ones).fontSize),
    cutNames: [...sheet.querySelectorAll('th.player')].filter(cut).map((t) => t.title),
    cutCells: [...sheet.querySelectorAll('td')].filter(cut).map((t) => t.textContent),
    winner: [...sheet.querySelectorAll('th.player.winner')].map((t) => [t.textContent, cut(t)]),
  };
}"""


def finish(table, ruleset: str, players: tuple[str, ...], seed: int) -> int:
    """A whole game played to its end by the turn timer's own moves (best cell each turn)."""
    import random

    from scorer.game import Setup

    game_id, game = table.new_game(Setup(ruleset, players))
    rng = random.Random(seed)
    while not game.finished:
        for event in game.timeout_events(rng):
            game = table.store.act(game_id, event)
    table.select(game_id)
    return game_id


def test_six_players_fit_every_screen_and_no_winner_is_cut(live):
    """Readable at 2 m: at 800x480 nothing scrolls and the sheet's text is >= 18 px, at
    1080p >= 32 px, the phone never scrolls sideways; a long winner's name is shown whole,
    and poker_ru's settlement row is on the 800x480 screen."""
    from playwright.sync_api import sync_playwright

    from scorer.game import Setup

    url, table = live["url"], live["table"]
    six = ("Alexandra", "Bob", "Catherine", "Dmitri", "Evgenia", "Fyodor")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:

            def measure(path: str, width: int, height: int, lang: str = "en") -> dict:
                page = browser.new_page(viewport={"width": width, "height": height})
                page.goto(f"{url}{path}?lang={lang}")
                page.wait_for_selector("#sheet tr[data-cell]")
                figures = page.evaluate(FIT)
                page.close()
                return figures

            # given yatzy with six players, dice on the tray
            game_id, _ = table.new_game(Setup("yatzy", six))
            table.throw(game_id, [5, 5, 3, 3, 1])
            for lang in ("en", "ru", "uk"):
                small = measure("/", 800, 480, lang)
                assert (small["width"], small["height"]) == (800, 480), (lang, small)
                assert small["lowest"] <= 480 and small["font"] >= 18, (lang, small)
                assert small["cutCells"] == [], (lang, small)
            big = measure("/", 1920, 1080)
            assert (big["width"], big["height"]) == (1920, 1080) and big["lowest"] <= 1080
            assert big["font"] >= 32 and big["cutCells"] == [], big
            assert "Bob" not in big["cutNames"] and "Dmitri" not in big["cutNames"], big
            phone = measure("/play", 390, 844)
            assert phone["width"] == 390 and phone["sheetWidth"] == 0, phone

            # poker_ru to its end: the settlement row is on the 800x480 screen, whole
            finish(table, "poker_ru", six, seed=1)
            small = measure("/", 800, 480)
            assert small["lowest"] <= 480 and small["cutCells"] == [], small
            assert small["height"] == 480, small

            # a long name wins among three: never cut, on the TV nor on the 7" screen
            finish(table, "yacht", ("Anna", "Borys", "Carolina Maria-Theresa"), seed=4)
            for width, height in ((1920, 1080), (800, 480)):
                figures = measure("/", width, height)
                assert figures["winner"] == [["Carolina Maria-Theresa ★", False]], figures
                assert figures["lowest"] <= height and figures["cutNames"] == [], figures
        finally:
            browser.close()
