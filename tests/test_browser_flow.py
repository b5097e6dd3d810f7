"""The whole-game flow on the pages (issue 26), in Debian's chromium against a real server:
/setup's agreements in three languages, the roll-off step, the settlement's transfers, the
"Extra round" button, coach mode and what a strike throws away. No camera: dice are typed,
as at a table without one."""

from __future__ import annotations

import pytest

from tests.chromium import ARGS, CHROMIUM, api, need_chromium
from tests.test_game_flow import MAKES, UPPER

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def live(tmp_path):
    """A real server (waitress thread) with no camera and a temporary database."""
    need_chromium()
    from scorer.bus import Bus
    from scorer.commands.serve import start_server, stop_server
    from scorer.store import Store
    from scorer.table import Table
    from web import create_app

    store = Store(tmp_path / "games.sqlite3")
    table = Table(store, Bus())
    server, thread = start_server(create_app({"TABLE": table}), threads=16)
    yield f"http://127.0.0.1:{server.effective_port}", table
    table.close()
    stop_server(server, thread)
    store.close()


def part_one(url: str, game_id: int, players: int, counts=(4, 2)) -> None:
    for face, cell in enumerate(UPPER, 1):
        for p in range(players):
            other = 1 if face != 1 else 2
            dice = [face] * counts[p] + [other] * (5 - counts[p])
            api(url, f"/api/games/{game_id}/throw", {"dice": dice})
            api(url, f"/api/games/{game_id}/commit", {"cell": cell})
            api(url, f"/api/games/{game_id}/write", {"cell": cell})


def test_the_whole_game_flow_on_the_pages(live):
    from playwright.sync_api import expect, sync_playwright

    url, table = live
    expect.set_options(timeout=15_000)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            phone = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
            # /setup names and explains the agreements in Russian and Ukrainian, and English
            for lang, rolloff, parts in (
                ("ru", "Розыгрыш первого хода", "Части"),
                ("uk", "Розіграш першого ходу", "Частини"),
                ("en", "Roll-off", "Parts"),
            ):
                phone.goto(url + f"/setup?lang={lang}")
                phone.locator("input[name=ruleset][value=poker_ru]").check()
                box = phone.locator('[data-ruleset="poker_ru"]')
                expect(box).to_contain_text(parts)
                expect(phone.locator("form")).to_contain_text(rolloff)
            expect(box).to_contain_text("Throws for Ones")
            expect(box).not_to_contain_text("throws.ones")

            # a poker_ru game for two, part 1 only, set up on the page (roll-off by default)
            box.locator('[data-option="parts"]').select_option("1")
            players = phone.locator("input[name=player]")
            players.nth(0).fill("Ivan")
            players.nth(1).fill("Olga")
            phone.locator("#start-button").click()
            phone.wait_for_url(url + "/play")
            game_id = table.current_game_id
            # the roll-off step: Ivan throws first; typed dice go to the roll-off
            expect(phone.locator("#banner")).to_contain_text("Roll-off for the first move: Ivan")
            phone.locator("#typed-dice").fill("33333")
            phone.locator("#typed button[type=submit]").click()
            expect(phone.locator("#banner")).to_contain_text("Olga throws")
            expect(phone.locator("#banner")).to_contain_text("Ivan 15")
            phone.locator("#typed-dice").fill("66666")
            phone.locator("#typed button[type=submit]").click()
            # then Olga (30) starts part 1
            expect(phone.locator("#banner")).to_be_hidden()
            expect(phone.locator("#current-player")).to_contain_text("Olga")
            # the game to its end (part 1 only): the banner says who pays whom
            part_one(url, game_id, 2)
            # (Olga, first to throw, wrote four of each number, Ivan two)
            expect(phone.locator("#banner")).to_contain_text("Ivan pays Olga 43.00")
            expect(phone.locator("#sheet")).to_contain_text("+43.00")
            expect(phone.locator("#extra-round-button")).to_be_hidden()  # no part 2

            # a full poker_ru game: the Extra round button, and chance not offered in it
            state = api(
                url,
                "/api/games",
                {"ruleset": "poker_ru", "players": ["Ivan", "Olga"], "rolloff": False},
            )
            game_id = state["id"]
            part_one(url, game_id, 2, counts=(3, 3))
            for cell, dice in MAKES.items():
                for _ in range(2):
                    api(url, f"/api/games/{game_id}/throw", {"dice": dice})
                    api(url, f"/api/games/{game_id}/write", {"cell": cell})
            phone.goto(url + "/play")
            expect(phone.locator("#extra-round-button")).to_be_visible()
            phone.locator("#extra-round-button").click()
            expect(phone.locator("#extra-round-button")).to_be_hidden()
            assert table.store.load(game_id).extra_turns == 2
            api(url, f"/api/games/{game_id}/throw", {"dice": [6, 6, 6, 6, 6]})
            poker = phone.locator('#sheet tr[data-cell="poker"] td.option')
            expect(poker).to_have_text("150 +150")  # written 150, this round adds 150
            expect(phone.locator('#sheet tr[data-cell="chance"] td.option')).to_have_count(0)
            poker.click()
            phone.locator("#write-button").click()
            expect(phone.locator("#current-player")).to_contain_text("Olga")
            assert table.store.load(game_id).sheets[0].cells["poker"] == 300

            # poker_ru's second roll-off: the table turns the multipliers off before it
            state = api(url, "/api/games", {"ruleset": "poker_ru", "players": ["Ivan", "Olga"]})
            game_id = state["id"]
            part_one(url, game_id, 2, counts=(3, 3))  # a plain throw skips the first roll-off
            phone.goto(url + "/play")
            expect(phone.locator("#banner")).to_contain_text("Roll-off before part 2: Ivan")
            toggle = phone.locator("#multipliers-button")
            expect(toggle).to_have_text("Multipliers x3/x2: on (tap to turn off)")
            toggle.click()
            expect(toggle).to_have_text("Multipliers x3/x2: off (tap to turn on)")
            assert table.store.load(game_id).rules.options["multipliers"] is False
            # ...and what a pair is worth: the form shows every combination's points
            phone.locator(".part-two-values summary").click()
            values = phone.locator("#part-two-values")
            expect(values.locator("input")).to_have_count(9)
            values.locator('input[name="value.pair"]').fill("8")
            # the form shows what was typed at once: wait for the server's answer instead
            with phone.expect_response(lambda r: r.url.endswith("/options")):
                values.locator("button[type=submit]").click()
            expect(values.locator('input[name="value.pair"]')).to_have_value("8")
            assert table.store.load(game_id).rules.options["value.pair"] == 8
            phone.locator("#typed-dice").fill("12345")
            phone.locator("#typed button[type=submit]").click()
            expect(phone.locator("#banner")).to_contain_text("Olga throws")
            expect(toggle).to_have_count(0)  # once the roll-off is under way, the options stand

            # variant 2: a failed part-2 combination, and the page says who misses a turn
            state = api(
                url,
                "/api/games",
                {
                    "ruleset": "poker_ru",
                    "players": ["Ivan", "Olga"],
                    "rolloff": False,
                    "options": {"variant": 2},
                },
            )
            game_id = state["id"]
            part_one(url, game_id, 2, counts=(3, 3))
            api(url, f"/api/games/{game_id}/throw", {"dice": [1, 2, 3, 5, 6]})
            api(url, f"/api/games/{game_id}/write", {"cell": "pair"})
            phone.goto(url + "/play?lang=ru")
            expect(phone.locator(".turn-notes")).to_contain_text(
                "Ivan пропускает следующий ход (неудачная комбинация)"
            )
            phone.goto(url + "/play?lang=en")

            # yahtzee for two: coach mode on from the page, and the strike that costs a joker
            state = api(url, "/api/games", {"ruleset": "yahtzee", "players": ["Anna", "Borys"]})
            game_id = state["id"]
            phone.goto(url + "/play")
            expect(phone.locator("#sheet caption")).to_have_count(0)
            phone.locator("#coach-button").click()
            expect(phone.locator("#sheet caption.coach")).to_have_text("Coach mode: hints on")
            api(url, f"/api/games/{game_id}/throw", {"dice": [2, 2, 2, 2, 2]})
            api(url, f"/api/games/{game_id}/write", {"cell": "yahtzee"})
            api(url, f"/api/games/{game_id}/throw", {"dice": [1, 2, 3, 5, 6]})
            api(url, f"/api/games/{game_id}/write", {"cell": "chance"})
            api(url, f"/api/games/{game_id}/throw", {"dice": [6, 6, 6, 6, 6]})
            expect(phone.locator("#hint-button")).to_be_visible()
            phone.locator('#sheet tr[data-cell="full_house"] td.current').click()
            expect(phone.locator("#write-button")).to_have_text(
                "Strike Full house? 6 6 6 6 6 would score 30 in Sixes and the +100 bonus"
            )
        finally:
            browser.close()


def test_the_turn_timer_counts_down_on_the_kiosk_and_hides_without_one(live):
    import re

    from playwright.sync_api import expect, sync_playwright

    url, _ = live
    expect.set_options(timeout=15_000)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            kiosk = browser.new_page(viewport={"width": 1280, "height": 720})
            # given a yacht game whose table set a ten-minute turn timer
            api(url, "/api/games", {"ruleset": "yacht", "players": ["Anna"], "timer": 600})
            # when the kiosk shows it, then the timer counts down from 10:00 as m:ss
            kiosk.goto(url + "/")
            timer = kiosk.locator("#timer")
            expect(timer).to_have_text(re.compile(r"^(10:00|9:[0-5]\d)$"))
            expect(timer).not_to_have_class(re.compile(r"\blow\b"))
            # and a new game without a timer hides it
            api(url, "/api/games", {"ruleset": "yacht", "players": ["Anna"]})
            kiosk.reload()
            expect(kiosk.locator("#sheet")).to_be_visible()
            expect(timer).to_be_hidden()
        finally:
            browser.close()
