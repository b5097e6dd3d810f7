"""Teaching a set of dice on /camera, in Debian's chromium, and a later game reading it.

A real server (the app in a waitress thread) with the devices' FakeCamera showing drawn
throws of the logo set (``tests.test_vision_profile``: violet dice whose six is a
maker's logo), read by the real reader with its committed models. The untaught reader
gets the logo six wrong; the players teach two throws on /camera, start a game with the
set on /setup, and the first throw of that game reads every logo six as a six.
"""

from __future__ import annotations

import pytest

from tests.chromium import ARGS, CHROMIUM, need_chromium
from tests.test_vision_profile import logo_throw

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TAUGHT = ((10, [6, 1, 6, 3, 5, 2]), (11, [2, 6, 4, 6, 1, 5]))
PLAYED = (21, [6, 4, 6, 2, 1])


@pytest.fixture
def live(tmp_path):
    need_chromium()
    from scorer.bus import Bus
    from scorer.commands.serve import start_server, stop_server
    from scorer.devices.fake import FakeCamera
    from scorer.dice_sets import DiceSets
    from scorer.store import Store
    from scorer.table import Table
    from scorer.vision.reader import Reader, default_model_dir
    from web import create_app

    if not (default_model_dir() / "faces.onnx").is_file():
        pytest.skip("vision_models/*.onnx not built: run `make train`")
    camera = FakeCamera(name="fake")
    store = Store(tmp_path / "games.sqlite3")
    table = Table(
        store,
        Bus(),
        camera=camera,
        reader=Reader(),
        photos=tmp_path / "photos",
        dice_sets=DiceSets(tmp_path / "dice-sets"),
        frames=1,
    )
    app = create_app({"TABLE": table})
    server, thread = start_server(app, threads=8)
    yield {
        "url": f"http://127.0.0.1:{server.effective_port}",
        "table": table,
        "camera": camera,
        "shots": tmp_path,  # a picture of the taught page, for a person debugging a failure
    }
    table.close()
    stop_server(server, thread)
    store.close()
    camera.close()


@pytest.fixture
def playing(tmp_path):
    """A real server and chromium on /play, a yahtzee game for Anna started on /setup; the
    camera's dice come from a scripted reader (boxes 24 px wide, 30 px apart)."""
    need_chromium()
    from playwright.sync_api import expect, sync_playwright

    from scorer.bus import Bus
    from scorer.commands.serve import start_server, stop_server
    from scorer.devices.fake import FakeCamera
    from scorer.store import Store
    from scorer.table import Table
    from tests.conftest import ScriptedReader
    from web import create_app

    camera, reader, store = FakeCamera(), ScriptedReader(), Store(tmp_path / "games.sqlite3")
    table = Table(store, Bus(), camera=camera, reader=reader, photos=tmp_path / "photos")
    server, thread = start_server(create_app({"TABLE": table}), threads=8)
    url = f"http://127.0.0.1:{server.effective_port}"
    expect.set_options(timeout=20_000)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            try:
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.goto(url + "/setup")
                page.locator("input[name=ruleset][value=yahtzee]").check()
                page.locator("input[name=player]").nth(0).fill("Anna")
                page.locator("#start-button").click()
                page.wait_for_url(url + "/play")
                yield {"page": page, "table": table, "reader": reader, "store": store}
            finally:
                browser.close()
    finally:
        table.close()
        stop_server(server, thread)
        store.close()
        camera.close()


def add_set(page, name: str) -> None:
    """A new set of dice added on /camera's teach step, and chosen."""
    from playwright.sync_api import expect

    page.locator("#teach-new-name").fill(name)
    page.locator("#teach-new").click()
    expect(page.locator("#teach-set option:checked")).to_have_text(name)


def test_a_set_taught_on_the_camera_page_reads_its_logo_six_in_a_later_game(live):
    from playwright.sync_api import expect, sync_playwright

    url, table, camera = live["url"], live["table"], live["camera"]
    expect.set_options(timeout=20_000)
    # given the untaught reader misreads the logo six of the throw the game will see
    seed, played = PLAYED
    frame, _ = logo_throw(played, seed)
    untaught = [d.value for d in table.reader.read(frame).dice]
    assert untaught != played
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            # when a new set is added on /camera
            page.goto(url + "/camera")
            expect(page.locator("#teach-summary")).to_have_text("Not taught yet.")
            add_set(page, "Logo dice")
            # and two throws are read, fixed die by die and confirmed
            for seed, values in TAUGHT:
                camera.frame, _ = logo_throw(values, seed)
                page.locator("#teach-throw").click()
                expect(page.locator("#teach-dice select")).to_have_count(len(values))
                expect(page.locator("#teach-image")).to_be_visible()
                for i, value in enumerate(values):  # the dice are listed left to right
                    page.locator(f'#teach-dice select[data-die="{i}"]').select_option(str(value))
                page.locator("#teach-confirm").click()
                expect(page.locator("#teach-confirm")).to_be_hidden()
            # then the summary counts the faces it has seen and reads the taught photos right
            summary = page.locator("#teach-summary")
            expect(summary).to_contain_text("Faces seen: 1 ×2, 2 ×2, 3 ×1, 4 ×1, 5 ×2, 6 ×4")
            expect(summary).to_contain_text("6 1 6 3 5 2 · 2 6 4 6 1 5")
            # and says how big the dice look, and that photos are read at that size (each
            # lesson, read without itself, reads no worse with it)
            expect(summary).to_contain_text("px across: photos are read at their size.")
            # and says it is read less surely exactly where its trials found sure dice wrong
            (set_id,) = [s["id"] for s in table.dice_sets.list() if s["name"] == "Logo dice"]
            sureness = table.lessons.summary(set_id, reread=False)["sureness"]
            told = "these dice are now read less surely"
            if sureness and sureness["temperature"] > 1:
                expect(summary).to_contain_text(f"{sureness['wrong']} of {sureness['sure']} sure")
                expect(summary).to_contain_text(told)
            else:
                expect(summary).not_to_contain_text(told)
            page.screenshot(path=str(live["shots"] / "camera-teach.png"), full_page=True)

            # when a game is started on /setup with that set (offered first) and thrown
            page.goto(url + "/setup")
            expect(page.locator("select[name=dice_set] option:checked")).to_have_text("Logo dice")
            page.locator("input[name=ruleset][value=yahtzee]").check()
            page.locator("input[name=player]").nth(0).fill("Anna")
            page.locator("#start-button").click()
            page.wait_for_url(url + "/play")
            camera.frame = frame
            page.locator("#throw-button").click()
            # then the logo sixes the untaught reader got wrong read as sixes
            read = page.locator("#dice .die[data-value]")
            expect(read).to_have_count(5)
            values = [read.nth(i).get_attribute("data-value") for i in range(5)]
            assert values == [str(v) for v in played]

            # when the set's trials had found a quarter of its sure dice wrong
            profile = table.dice_sets.editable(set_id, table.reader)
            dice = [[0.97, 1.0]] * 9 + [[0.97, 0.0]] * 3
            for source in profile.sources():
                profile.record(source, profile.trials[source], {"sized": dice, "unsized": dice})
            table.dice_sets.save(set_id, profile)
            assert profile.temperature > 1
            # then /camera says its dice are read less surely, and why
            page.goto(url + "/camera")
            summary = page.locator("#teach-summary")
            wrong, sure = 3 * len(profile.sources()), 12 * len(profile.sources())
            expect(summary).to_contain_text(f"had {wrong} of {sure} sure dice wrong")
            expect(summary).to_contain_text(told)
        finally:
            browser.close()


def test_a_tile_read_as_a_die_is_named_no_die_on_the_camera_page_and_taught_so(live):
    import cv2
    from playwright.sync_api import expect, sync_playwright

    url, table, camera = live["url"], live["table"], live["camera"]
    expect.set_options(timeout=20_000)
    # given a throw of two logo dice and a white square tile with a dark dot, which the
    # untaught reader takes for a third die (a one) right of them (a round token it drops
    # by its outline itself)
    frame, _ = logo_throw([3, 4], 21)
    cv2.rectangle(frame, (540, 70), (580, 110), (235, 235, 235), -1, cv2.LINE_AA)
    cv2.circle(frame, (560, 90), 7, (30, 30, 30), -1, cv2.LINE_AA)
    assert len(table.reader.read(frame).dice) == 3
    camera.frame = frame
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            page.goto(url + "/camera")
            add_set(page, "Tokens")
            page.locator("#teach-throw").click()
            expect(page.locator("#teach-dice select")).to_have_count(3)
            # when the two dice are named and the tile's box "no die here", and confirmed
            page.locator('#teach-dice select[data-die="0"]').select_option("3")
            page.locator('#teach-dice select[data-die="1"]').select_option("4")
            page.locator('#teach-dice select[data-die="2"]').select_option("0")
            page.locator("#teach-confirm").click()
            expect(page.locator("#teach-confirm")).to_be_hidden()
            # then the summary counts the two faces and the one spot taught as no die
            summary = page.locator("#teach-summary")
            expect(summary).to_contain_text("Faces seen: 3 ×1, 4 ×1")
            expect(summary).to_contain_text("Spots taught as no die: 1")
        finally:
            browser.close()


def test_a_die_the_camera_missed_is_tapped_on_the_photo_and_joins_the_throw(playing):
    """The camera saw four of five dice: a tap where the fifth lies, its face, and the
    throw is complete (the tapped die taught to the game's set once written)."""
    from playwright.sync_api import expect

    page, table, reader = playing["page"], playing["table"], playing["reader"]
    # given a throw the camera saw only four of five dice of (boxes 24 px, 30 apart)
    reader.queue([4, 4, 2, 3])
    page.locator("#throw-button").click()
    image = page.locator("#photo-image")
    expect(page.locator("#photo .photo-box")).to_have_count(4)
    expect(page.locator("#photo-note")).to_have_text("Tap the photo where a missed die lies")
    expect(page.locator("#message")).to_contain_text("Saw 4 dice")
    # when the photo is tapped where the fifth die lies, and its face chosen
    box = image.bounding_box()
    width, height = table.last_frame.shape[1], table.last_frame.shape[0]
    page.mouse.click(box["x"] + 142 * box["width"] / width, box["y"] + 22 * box["height"] / height)
    expect(page.locator("#picker-title")).to_have_text("A die the camera missed")
    page.locator('#picker-values [data-value="6"]').click()
    # then the throw is complete with it
    read = page.locator("#dice .die[data-value]")
    expect(read).to_have_count(5)
    assert [read.nth(i).get_attribute("data-value") for i in range(5)] == list("44236")


def test_a_token_read_as_a_die_is_named_no_die_and_the_missed_die_tapped_instead(playing):
    """The camera read five dice, one of them a token: "No die here" on its picker undoes
    the throw, which waits for the die the camera missed, tapped where it lies."""
    from playwright.sync_api import expect

    page, table, reader, store = (playing[k] for k in ("page", "table", "reader", "store"))
    # given a throw read as five dice, the fourth a token (boxes 24 px, 30 apart)
    reader.queue([4, 4, 2, 1, 3])
    page.locator("#throw-button").click()
    read = page.locator("#dice .die[data-value]")
    expect(read).to_have_count(5)
    # when the fourth die's picker says there is no die there
    read.nth(3).click()
    expect(page.locator("#picker-no-die")).to_be_visible()
    page.locator("#picker-no-die").click()
    # then the throw waits, with four dice on the photo, for the missed one
    expect(page.locator("#photo .photo-box")).to_have_count(4)
    expect(page.locator("#message")).to_contain_text("Die 4 is no die")
    expect(page.locator("#photo-note")).to_have_text("Tap the photo where a missed die lies")
    # when the missed die is tapped where it lies, as a six
    image = page.locator("#photo-image")
    box = image.bounding_box()
    width, height = table.last_frame.shape[1], table.last_frame.shape[0]
    page.mouse.click(box["x"] + 112 * box["width"] / width, box["y"] + 70 * box["height"] / height)
    page.locator('#picker-values [data-value="6"]').click()
    # then the throw stands with it, and the token's box is kept as no die
    expect(read).to_have_count(5)
    assert [read.nth(i).get_attribute("data-value") for i in range(5)] == list(
        "44263"
    )  # by where they lie, left to right
    event = store.events(table.current_game_id)[-1]["event"]
    assert event["reading"]["not_dice"] == [[100, 10, 24, 24]]
    # and once another move is made, a die's picker no longer offers "No die here"
    read.nth(0).click()
    page.locator('#picker-values [data-value="5"]').click()
    expect(read.nth(0)).to_have_attribute("data-value", "5")
    read.nth(1).click()
    expect(page.locator("#picker-title")).to_be_visible()
    expect(page.locator("#picker-no-die")).to_be_hidden()


def test_a_lesson_with_a_die_left_without_a_value_is_refused_on_the_page(live):
    from playwright.sync_api import expect, sync_playwright

    url, camera = live["url"], live["camera"]
    expect.set_options(timeout=20_000)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            # given a new set and a throw read on /camera
            page.goto(url + "/camera")
            add_set(page, "Logo dice")
            seed, values = TAUGHT[0]
            camera.frame, _ = logo_throw(values, seed)
            page.locator("#teach-throw").click()
            expect(page.locator("#teach-dice select")).to_have_count(len(values))
            # when a missed die is tapped on the photo but given no value, and it is confirmed
            page.locator("#teach-canvas").click(position={"x": 5, "y": 5})
            expect(page.locator("#teach-dice select")).to_have_count(len(values) + 1)
            page.locator("#teach-confirm").click()
            # then the page says why, as a refusal, and the lesson waits to be finished
            toast = page.locator("#toast")
            expect(toast).to_have_text("Choose a value for every die.")
            expect(toast).to_have_attribute("data-kind", "error")
            expect(page.locator("#teach-confirm")).to_be_visible()
            expect(page.locator("#teach-summary")).to_have_text("Not taught yet.")
        finally:
            browser.close()


def test_the_camera_page_warns_when_the_dice_are_too_small_to_read_well(playing):
    from playwright.sync_api import expect

    page, reader = playing["page"], playing["reader"]
    page.goto(page.url.replace("/play", "/camera"))
    warning = page.locator("#dice-small")
    # given a camera so far away that the dice are 12 px across
    reader.side = 12
    # when the test read is pressed
    page.locator("#test-read").click()
    # then the page says how small they are and what to do
    expect(warning).to_be_visible()
    expect(warning).to_contain_text("about 12 px across")
    expect(page.locator("#reading")).to_contain_text("dice about 12 px across")
    # and once the camera is brought closer, the warning goes
    reader.side = 40
    page.locator("#test-read").click()
    expect(page.locator("#reading")).to_contain_text("dice about 40 px across")
    expect(warning).to_be_hidden()
