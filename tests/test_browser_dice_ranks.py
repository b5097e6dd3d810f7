"""Cyrillic poker dice on the pages, in Debian's chromium: the players say on /setup that
their set prints 9 10 В Д К Т, and the game's throw, face pad and one-tap picker show
those letters (Д, not Q), while the API keeps the values and RULES.md's Latin ranks.
"""

from __future__ import annotations

import pytest

from tests.chromium import ARGS, CHROMIUM, api, need_chromium, shoot

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def live(tmp_path):
    """A real server (waitress thread) with no camera (dice are typed), keeping sets of dice."""
    need_chromium()
    from scorer.bus import Bus
    from scorer.commands.serve import start_server, stop_server
    from scorer.dice_sets import DiceSets
    from scorer.store import Store
    from scorer.table import Table
    from web import create_app

    store = Store(tmp_path / "games.sqlite3")
    table = Table(store, Bus(), dice_sets=DiceSets(tmp_path / "dice-sets"))
    server, thread = start_server(create_app({"TABLE": table}), threads=16)
    yield f"http://127.0.0.1:{server.effective_port}", table
    table.close()
    stop_server(server, thread)
    store.close()


def test_a_poker_dice_game_with_a_cyrillic_set_shows_its_letters_on_the_throw(live):
    from playwright.sync_api import expect, sync_playwright

    url, table = live
    expect.set_options(timeout=15_000)
    # given a set of poker dice the table knows, stored before anyone named its letters
    set_id = api(url, "/api/dice-sets", {"name": "Red poker"})["set"]
    assert table.dice_sets.ranks(set_id) == "latin"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
            # when the players set up a poker-dice duel on /setup (in Russian) with that set
            page.goto(url + "/setup?lang=ru")
            page.locator("input[name=ruleset][value=poker_dice]").check()
            players = page.locator("input[name=player]")
            players.nth(0).fill("Иван")
            players.nth(1).fill("Ольга")
            page.locator("select[name=dice]").select_option("cards")
            expect(page.locator("select[name=dice_set] option:checked")).to_have_text("Red poker")
            toggle = page.locator("#setup-ranks")
            expect(toggle).to_contain_text("9 10 J Q K A")
            expect(toggle.locator("input[value=latin]")).to_be_checked()
            expect(toggle.locator(".rank-known")).to_be_hidden()
            # and say its dice print Cyrillic
            toggle.locator("input[value=cyrillic]").check()
            expect(page.locator("#toast")).to_contain_text("9 10 В Д К Т")
            # then the page says the table knows such dice, and that teaching helps more
            expect(toggle.locator(".rank-known")).to_be_visible()
            expect(toggle.locator(".rank-known")).to_contain_text("обучите")
            assert table.dice_sets.ranks(set_id) == "cyrillic"  # recorded for the set
            page.locator("#start-button").click()
            page.wait_for_url(url + "/play")
            # and type the throw as the dice show it: a pair of queens, 9, ace, king
            expect(page.locator('#typed-pad [data-face="Д"]')).to_be_visible()
            page.locator("#typed-dice").fill("Д д 9 Т К")
            page.locator('#typed button[type="submit"]').click()
            # then the throw shows Д, not Q, and every die its Cyrillic letter
            faces = page.locator("#dice .die .rank")
            expect(faces).to_have_text(["Д", "Д", "9", "Т", "К"])
            expect(page.locator("#dice")).not_to_contain_text("Q")
            # and the one-tap picker offers the faces as the dice print them
            page.locator("#dice .die").first.click()
            expect(page.locator("#picker-values .rank")).to_have_text(
                ["9", "10", "В", "Д", "К", "Т"]
            )
            shoot(page, "phone-cyrillic.png")
            page.locator('#picker-values [data-value="3"]').click()  # it was a jack: В
            expect(faces.first).to_have_text("В")
            # while the game keeps values and the API's Latin ranks
            state = table.view(table.current_game_id)
            assert [d["value"] for d in state["dice"]] == [3, 4, 1, 6, 5]
            assert [d["rank"] for d in state["dice"]] == ["J", "Q", "9", "A", "K"]
            # and after a restart of the page (the set's letters were stored), still Д
            page.reload()
            expect(page.locator("#dice .die .rank").nth(1)).to_have_text("Д")
        finally:
            browser.close()
