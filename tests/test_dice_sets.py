"""The table's sets of dice: teaching from play (a write teaches, undo takes it back),
teaching on purpose through the API, and a damaged profile that must not stop a game.

The camera is the devices' FakeCamera showing drawn throws of the logo set
(``tests.test_vision_profile``), read by the real reader.
"""

from __future__ import annotations

import logging

import pytest

from scorer.bus import Bus
from scorer.dice_sets import DiceSets, effective, turn_lessons
from scorer.game import Setup
from scorer.table import Table
from scorer.vision.reader import Reader, default_model_dir
from tests.test_vision_profile import logo_throw

needs_models = pytest.mark.skipif(
    not (default_model_dir() / "faces.onnx").is_file(),
    reason="vision_models/*.onnx not built: run `make train`",
)


def row(seq: int, **event) -> dict:
    return {"seq": seq, "at": "", "event": event}


def test_given_a_turn_with_corrections_when_written_then_each_throw_teaches_its_settled_dice():
    # given a turn: a throw, a correction, a re-throw with a held die, a correction, a write
    boxes1 = [[0, 0, 10, 10], [20, 0, 10, 10], [40, 0, 10, 10]]
    boxes2 = [None, [20, 0, 10, 10], [40, 0, 10, 10]]
    log = [
        row(1, type="write", cell="ones"),
        row(2, type="throw", dice=[1, 2, 3], reading={"photo": "a.jpg", "boxes": boxes1}),
        row(3, type="correct", index=2, value=6),
        row(4, type="hold", held=[0]),
        row(5, type="throw", dice=[1, 4, 4], reading={"photo": "b.jpg", "boxes": boxes2}),
        row(6, type="correct", index=1, value=4),  # a tap confirming what was read
        row(7, type="throw", dice=[1, 5, 5], reading=None),  # typed in: no photo
        row(8, type="undo"),
        row(9, type="write", cell="fours"),
    ]
    # when the turn's lessons are taken from the effective log
    lessons = turn_lessons(effective(log), "pips")
    # then both photographed throws teach, with the values settled, held dice left out
    assert [lesson.photo for lesson in lessons] == ["a.jpg", "b.jpg"]
    assert lessons[0].dice == (
        ((0, 0, 10, 10), 1, "pips", False),
        ((20, 0, 10, 10), 2, "pips", False),
        ((40, 0, 10, 10), 6, "pips", True),
    )
    assert lessons[1].dice == (
        ((20, 0, 10, 10), 4, "pips", False),
        ((40, 0, 10, 10), 4, "pips", False),
    )


def test_given_sets_when_created_and_chosen_then_listed_and_remembered(tmp_path):
    sets = DiceSets(tmp_path / "dice-sets")
    white = sets.create("White")
    blue = sets.create("Blue  marbled")
    assert sets.create("white") == white  # the same name is the same set
    assert [s["name"] for s in sets.list()] == ["Blue marbled", "White"]
    assert sets.chosen == white
    sets.choose(blue)
    assert DiceSets(tmp_path / "dice-sets").chosen == blue  # across a restart
    with pytest.raises(Exception, match="no set of dice"):
        sets.choose("../etc")


def test_given_a_new_set_or_one_stored_before_sets_had_letters_then_its_dice_print_latin(tmp_path):
    # given a set made now, and one whose set.json predates the ranks field
    sets = DiceSets(tmp_path / "dice-sets")
    white = sets.create("White")
    old = tmp_path / "dice-sets" / "old"
    old.mkdir()
    (old / "set.json").write_text('{"name": "Old"}\n', encoding="utf-8")
    # then both print Latin ranks, as every set did before
    assert sets.ranks(white) == sets.ranks("old") == "latin"
    assert sets.labels("old") == ("9", "10", "J", "Q", "K", "A")
    assert {s["id"]: s["ranks"] for s in sets.list()} == {"old": "latin", "white": "latin"}


def test_given_cyrillic_dice_when_recorded_then_the_letters_survive_a_restart(tmp_path):
    # given a set of Russian poker dice
    sets = DiceSets(tmp_path / "dice-sets")
    red = sets.create("Red poker")
    # when the players say its dice print Cyrillic
    sets.set_ranks(red, "cyrillic")
    # then a table started afresh reads it so, and the set keeps its name
    again = DiceSets(tmp_path / "dice-sets")
    assert again.ranks(red) == "cyrillic"
    assert again.labels(red) == ("9", "10", "В", "Д", "К", "Т")
    assert again.name(red) == "Red poker"
    assert not list((tmp_path / "dice-sets" / red).glob("*.tmp"))  # written whole, then moved
    # and naming the letters on creation sets them, on a known set too
    assert sets.ranks(sets.create("Blue", "cyrillic")) == "cyrillic"
    assert sets.create("red poker", "latin") == red and sets.ranks(red) == "latin"
    assert sets.ranks(sets.create("RED POKER")) == "latin"  # none named: left as it is


def test_given_a_bad_ranks_value_then_it_is_refused_or_read_as_latin_never_a_crash(
    tmp_path, caplog
):
    from scorer.errors import ScorerError

    sets = DiceSets(tmp_path / "dice-sets")
    green = sets.create("Green")
    # when a player (or the API) names letters no dice print, then it is refused and says which
    for bad in ("greek", "Cyrillic", None, ["cyrillic"]):
        with pytest.raises(ScorerError, match=r"latin \(9 10 J Q K A\) or cyrillic"):
            sets.set_ranks(green, bad)
        with pytest.raises(ScorerError, match="latin"):
            sets.create("Yellow", bad or "x")
    assert sets.ranks(green) == "latin" and len(sets.list()) == 1
    # given a set.json edited by hand to something unknown (or not text at all)
    for stored in ('"greek"', '["cyrillic"]', "7"):
        (tmp_path / "dice-sets" / green / "set.json").write_text(
            f'{{"name": "Green", "ranks": {stored}}}', encoding="utf-8"
        )
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="scorer.dice_sets"):
            # then the set still lists and plays, Latin, and the log says why
            assert sets.ranks(green) == "latin"
            assert sets.list()[0]["ranks"] == "latin"
        assert "latin (9 10 J Q K A) or cyrillic" in caplog.text


@pytest.fixture(scope="module")
def real_reader():
    if not (default_model_dir() / "faces.onnx").is_file():
        pytest.skip("vision_models/*.onnx not built: run `make train`")
    return Reader()


@pytest.fixture
def logo_table(store, camera, real_reader, tmp_path):
    real_reader.profile = None
    sets = DiceSets(tmp_path / "dice-sets")
    table = Table(
        store,
        Bus(),
        camera=camera,
        reader=real_reader,
        photos=tmp_path / "photos",
        dice_sets=sets,
        frames=1,
    )
    yield table
    table.close()
    real_reader.profile = None


def sixes(reading_dice: list, values: list[int]) -> int:
    by_x = sorted(reading_dice, key=lambda d: d[0])
    return sum(v == 6 and d[1] == 6 for d, v in zip(by_x, values, strict=True))


def play_throw(table: Table, camera, game_id: int, seed: int, values: list[int]):
    camera.frame, _ = logo_throw(values, seed)
    game = table.throw(game_id)
    state = game.state()
    return state


@needs_models
def test_given_a_game_with_a_set_when_a_misread_six_is_corrected_and_written_then_taught(
    logo_table, camera
):
    table = logo_table
    set_id = table.dice_sets.create("Logo")
    game_id, _ = table.new_game(Setup("yahtzee", ("Anna",), dice_set=set_id))
    for seed, cell in ((10, "sixes"), (11, "chance")):
        values = [6, 1, 6, 3, 5]
        # given a throw whose logo sixes the untaught set misreads
        state = play_throw(table, camera, game_id, seed, values)
        read = [d["value"] for d in state["dice"]]
        if seed == 10:
            assert read != values
        # when the players correct every die and write the throw
        settle(table, game_id, read, values)
        table.write(game_id, cell)
    table.lessons.settle()
    # then the set was taught those dice, and the file is on disk
    profile = table.dice_sets.profile(set_id, table.reader)
    assert profile is not None and len(profile) == 10
    assert (table.dice_sets.folder(set_id) / "profile.npz").is_file()
    # and each written turn's photo was read again without it, with the set's size and
    # without, and the trials kept with the set (its dice all found either way)
    assert set(profile.trials) == profile.sources() and len(profile.trials) == 2
    assert all(t["sized"] == t["unsized"] >= 4 for t in profile.trials.values())
    # with how sure each die those trials read was, and whether it was read right
    assert set(profile.seen) == profile.sources()
    for trial in profile.seen.values():
        assert all(0.0 <= sure <= 1.0 and right in (0.0, 1.0) for sure, right in trial["sized"])
        assert sum(right for _, right in trial["sized"]) >= 4
    # and the next turn reads the logo sixes of a fresh throw right
    state = play_throw(table, camera, game_id, 21, [6, 4, 6, 2, 1])
    assert [d["value"] for d in state["dice"]] == [6, 4, 6, 2, 1]
    # when the last write is undone, its lesson goes with it, and the first one stays
    table.undo(game_id)  # the throw
    table.undo(game_id)  # the write
    table.lessons.settle()
    profile = table.dice_sets.profile(set_id, table.reader)
    assert len(profile) == 5 and len(profile.sources()) == 1
    assert set(profile.trials) == profile.sources() == set(profile.seen)


def settle(table: Table, game_id: int, read: list[int], values: list[int]) -> None:
    """Tap every misread die to its value and confirm the unsure ones."""
    for i, (got, wanted) in enumerate(zip(read, values, strict=True)):
        if got != wanted:
            table.correct(game_id, i, wanted)
    for i, die in enumerate(table.load(game_id).state()["dice"]):
        if die.get("unsure"):
            table.correct(game_id, i, die["value"])


@needs_models
def test_given_a_damaged_profile_when_a_game_throws_then_read_untaught_and_camera_says_why(
    logo_table, camera, caplog
):
    table = logo_table
    set_id = table.dice_sets.create("Logo")
    (table.dice_sets.folder(set_id) / "profile.npz").write_bytes(b"half a file")
    game_id, _ = table.new_game(Setup("yahtzee", ("Anna",), dice_set=set_id))
    # when a throw is read with the damaged set
    with caplog.at_level(logging.WARNING):
        state = play_throw(table, camera, game_id, 30, [2, 3, 4, 5, 1])
    # then it reads untaught, a log line names the problem, and the status carries it
    assert [d["value"] for d in state["dice"]] == [2, 3, 4, 5, 1]
    assert "reads untaught" in caplog.text
    assert "not a readable dice profile" in table.status.extra["dice_set_problem"]
    # and writing the throw neither crashes nor replaces the damaged file
    table.write(game_id, "twos")
    table.lessons.settle()
    assert (table.dice_sets.folder(set_id) / "profile.npz").read_bytes() == b"half a file"


@needs_models
def test_given_the_camera_page_api_when_a_set_is_taught_and_forgotten_then_summaries_say_so(
    logo_table, camera
):
    from web import create_app

    client = create_app({"TABLE": logo_table, "TESTING": True}).test_client()
    created = client.post("/api/dice-sets", json={"name": "Logo"}).get_json()
    set_id = created["set"]
    # when a lesson is photographed
    camera.frame, truth = logo_throw([6, 1, 6, 3, 5, 2], 10)
    lesson = client.post(f"/api/dice-sets/{set_id}/lesson", json={}).get_json()
    assert len(lesson["dice"]) >= 5 and lesson["photo"].startswith(f"lessons/{set_id}/")
    # and the player names every die (the one it missed, if any, tapped where it lies)
    named, used = [], set()
    for die in truth:
        x, y = die.centre
        near = [
            (abs(d["box"][0] + d["box"][2] / 2 - x) + abs(d["box"][1] + d["box"][3] / 2 - y), i)
            for i, d in enumerate(lesson["dice"])
            if i not in used
        ]
        dist, i = min(near) if near else (1e9, -1)
        value = die.label + 1
        if dist < 30:
            used.add(i)
            named.append(
                {
                    "box": lesson["dice"][i]["box"],
                    "value": value,
                    "read": lesson["dice"][i]["value"],
                }
            )
        else:
            named.append({"x": x, "y": y, "value": value})
    taught = client.post(
        f"/api/dice-sets/{set_id}/teach",
        json={"lesson": lesson["lesson"], "dice": named, "kind": "pips"},
    )
    # then the summary counts the faces seen and reads the taught photo right now
    summary = taught.get_json()
    assert taught.status_code == 200, summary
    assert summary["faces"] == {"pips:1": 1, "pips:2": 1, "pips:3": 1, "pips:5": 1, "pips:6": 2}
    assert sorted(d["value"] for d in summary["reads"][0]["dice"]) == [1, 2, 3, 5, 6, 6]
    profile = logo_table.dice_sets.profile(set_id, logo_table.reader)
    assert set(profile.trials) == {f"lesson {lesson['lesson']}"}
    assert summary["size"] == {
        "side": round(profile.size.side, 1),
        "frame": [640, 640],
        "used": True,
    }
    # and how sure the set may be: the photo read as if untaught, its sure dice counted
    dice, sure, wrong = profile.trial_sureness(0.8)
    assert summary["sureness"] == {
        "temperature": profile.temperature,
        "dice": dice,
        "sure": sure,
        "wrong": wrong,
    }
    assert dice >= 5 and 0 <= wrong <= sure <= dice
    # and card values for this pip set are refused
    refused = client.post(
        f"/api/dice-sets/{set_id}/teach",
        json={"lesson": lesson["lesson"], "dice": named, "kind": "card"},
    )
    assert refused.status_code == 400 and "holds pips dice" in refused.get_json()["message"]
    # when forgotten, the set has seen nothing
    forgotten = client.post(f"/api/dice-sets/{set_id}/forget", json={}).get_json()
    assert forgotten["faces"] == {} and forgotten["crops"] == 0 and forgotten["size"] is None
    assert client.get("/api/dice-sets/nope").status_code == 404


@needs_models
def test_given_sets_when_setup_and_camera_pages_are_shown_then_the_chosen_set_and_its_problem(
    logo_table,
):
    from web import create_app

    client = create_app({"TABLE": logo_table, "TESTING": True}).test_client()
    white = logo_table.dice_sets.create("White")
    logo = logo_table.dice_sets.create("Logo")
    (logo_table.dice_sets.folder(logo) / "profile.npz").write_bytes(b"PK\x03\x04 not whole")
    # /setup offers every set, the last one chosen first, and "no set"
    setup = client.get("/setup").get_data(as_text=True)
    assert f'<option value="{logo}" data-ranks="latin" selected>Logo</option>' in setup
    assert f'<option value="{white}" data-ranks="latin" >White</option>' in setup
    # /camera has the teaching step and a note saying the chosen set reads untaught, and why
    camera = client.get("/camera").get_data(as_text=True)
    assert "Teach my dice" in camera and "Forget these dice" in camera
    assert "These dice read untaught:" in camera and "not a readable dice profile" in camera
    # and a game started with a set refuses one the table does not have
    made = client.post(
        "/api/games", json={"ruleset": "yahtzee", "players": ["A"], "dice_set": "nope"}
    )
    assert made.status_code in (400, 404) and "no set of dice" in made.get_json()["message"]


@needs_models
def test_given_a_lesson_when_a_die_is_given_by_a_tap_then_it_is_taught_where_it_lies(
    logo_table, camera
):
    from web import create_app

    client = create_app({"TABLE": logo_table, "TESTING": True}).test_client()
    set_id = client.post("/api/dice-sets", json={"name": "Logo"}).get_json()["set"]
    camera.frame, truth = logo_throw([6, 2], 12)
    lesson = client.post(f"/api/dice-sets/{set_id}/lesson", json={}).get_json()
    # given the die on the right named by its box, the logo six by a tap where it lies
    right = max(lesson["dice"], key=lambda d: d["box"][0])
    six = truth[0].centre
    dice = [
        {"box": right["box"], "value": 2, "read": right["value"]},
        {"x": six[0], "y": six[1], "value": 6},
    ]
    # when taught
    summary = client.post(
        f"/api/dice-sets/{set_id}/teach", json={"lesson": lesson["lesson"], "dice": dice}
    ).get_json()
    # then both are taught, the tapped one as a correction cut around the tap
    assert summary["faces"] == {"pips:2": 1, "pips:6": 1}
    profile = logo_table.dice_sets.profile(set_id, logo_table.reader)
    tapped = next(e for e in profile.examples if e.label == 5)
    assert tapped.correction
    # and the crop shows the logo die in its middle: its violet body, not the green felt
    middle = tapped.crop[20:28, 20:28].reshape(-1, 3).mean(0)
    assert middle[2] > middle[1]
    # bad taps are refused by name
    bad = client.post(
        f"/api/dice-sets/{set_id}/teach",
        json={"lesson": lesson["lesson"], "dice": [{"x": "left", "value": 6}]},
    )
    assert bad.status_code == 400 and "x and y" in bad.get_json()["message"]


@needs_models
def test_given_two_sets_when_one_is_taught_then_the_other_reads_as_before(logo_table, camera):
    from tests.test_vision_reader import throw

    table = logo_table
    logo, white = table.dice_sets.create("Logo"), table.dice_sets.create("White")
    white_throw, _ = throw([4, 2, 6, 1, 5])
    camera.frame = white_throw
    before = table.test_read()["dice"]
    # when the logo set is taught from play
    game_id, _ = table.new_game(Setup("yahtzee", ("Anna",), dice_set=logo))
    for seed, cell in ((10, "sixes"), (11, "chance")):
        state = play_throw(table, camera, game_id, seed, [6, 1, 6, 3, 5])
        settle(table, game_id, [d["value"] for d in state["dice"]], [6, 1, 6, 3, 5])
        table.write(game_id, cell)
    table.lessons.settle()
    assert len(table.dice_sets.profile(logo, table.reader)) == 10
    # then a game with the white set reads the white dice exactly as before
    table.dice_sets.choose(white)
    camera.frame = white_throw
    assert table.test_read()["dice"] == before
    assert [d["value"] for d in before] == [4, 2, 6, 1, 5]


def test_given_a_reading_short_of_a_die_when_the_missed_one_is_tapped_then_thrown_and_taught(
    client, table, reader
):
    # given a five-dice game whose camera saw four dice (boxes 24 px, 30 px apart)
    game_id = client.post("/api/games", json={"ruleset": "yahtzee", "players": ["A"]}).json["id"]
    reader.queue([4, 4, 2, 3])
    client.post(f"/api/games/{game_id}/throw", json={})
    assert table.status.pending is not None and table.status.pending.expected == 5
    # a tap on a die the camera saw is not a missed die
    on_a_die = client.post(f"/api/games/{game_id}/missed", json={"x": 22, "y": 22, "value": 6})
    assert on_a_die.status_code == 409 and "tap it to correct it" in on_a_die.json["message"]
    # when the fifth die is tapped where it lies, right of the others, as a six
    tapped = client.post(f"/api/games/{game_id}/missed", json={"x": 142, "y": 22, "value": 6})
    # then the throw is applied with it, boxed where it was tapped, the pending reading gone
    assert tapped.status_code == 200, tapped.json
    assert [d["value"] for d in tapped.json["dice"]] == [4, 4, 2, 3, 6]
    assert table.status.pending is None
    throw = table.store.events(game_id)[-1]["event"]
    assert throw["reading"]["tapped"] == [4] and throw["reading"]["boxes"][4] == [130, 10, 24, 24]
    # and once written, the tapped die is taught as a correction, the others as read
    assert written_and_taught(client, table, game_id) == [
        (4, False),
        (4, False),
        (2, False),
        (3, False),
        (6, True),
    ]
    # no reading waits any more: a tap now is refused by name
    late = client.post(f"/api/games/{game_id}/missed", json={"x": 142, "y": 22, "value": 6})
    assert late.status_code == 409 and "no reading waits" in late.json["message"]


def test_given_taught_sets_when_backed_up_then_the_copy_carries_them(tmp_path, capsys):
    from scorer.cli import main
    from scorer.store import Store

    # given a database with a set of dice beside it, its profile on disk
    Store(tmp_path / "scorer.sqlite3").close()
    sets = DiceSets(tmp_path / "dice-sets")
    logo = sets.create("Logo")
    (sets.folder(logo) / "profile.npz").write_bytes(b"taught crops")
    # when the table is backed up
    target = tmp_path / "backup" / "copy.sqlite3"
    target.parent.mkdir()
    assert main(["backup", str(target), "--db", str(tmp_path / "scorer.sqlite3")]) == 0
    # then the sets of dice travel with the games, beside the copy
    copied = tmp_path / "backup" / "copy.sqlite3.dice-sets" / logo
    assert (copied / "profile.npz").read_bytes() == b"taught crops"
    assert DiceSets(copied.parent).chosen == logo
    assert "sets of dice" in capsys.readouterr().out


def test_given_a_die_too_many_when_the_offer_is_confirmed_then_the_left_out_is_taught_no_die(
    client, table, reader
):
    # given a five-dice game whose camera read six dice, the fourth far less surely
    game_id = client.post("/api/games", json={"ruleset": "yahtzee", "players": ["A"]}).json["id"]
    reader.queue([4, 4, 2, 1, 3, 5], confidence=[0.99, 0.98, 0.97, 0.41, 0.99, 0.6])
    client.post(f"/api/games/{game_id}/throw", json={})
    offered = table.status.pending.values
    assert offered == [4, 4, 2, 3, 5] and table.status.pending.left_out == [3]
    # when the players confirm the offer as it stands
    thrown = client.post(f"/api/games/{game_id}/throw", json={"dice": offered})
    # then the throw is the camera's: its photo and the kept dice's boxes, and the box left
    # out is named as no die
    assert thrown.status_code == 200, thrown.json
    reading = table.store.events(game_id)[-1]["event"]["reading"]
    assert reading["photo"] and len(reading["boxes"]) == 5
    assert reading["unsure"] == []  # the five, the unsure last one too, were confirmed
    assert reading["not_dice"] == [[100, 10, 24, 24]]  # the fourth of six boxes 30 px apart
    # and once written, the kept dice are taught as read, the spot left out as no die
    assert written_and_taught(client, table, game_id) == [
        (4, False),
        (4, False),
        (2, False),
        (3, False),
        (5, False),
        (0, True),
    ]


def test_given_a_die_too_many_when_other_dice_are_typed_then_a_typed_throw(client, table, reader):
    # given the same offer, when the players type other dice than offered
    game_id = client.post("/api/games", json={"ruleset": "yahtzee", "players": ["A"]}).json["id"]
    reader.queue([4, 4, 2, 1, 3, 5], confidence=[0.99, 0.98, 0.97, 0.41, 0.99, 0.9])
    client.post(f"/api/games/{game_id}/throw", json={})
    client.post(f"/api/games/{game_id}/throw", json={"dice": [4, 4, 2, 1, 3]})
    # then the throw is typed: which box held which die is not known, so nothing is taught
    event = table.store.events(game_id)[-1]["event"]
    assert event["dice"] == [4, 4, 2, 1, 3] and event["reading"] is None


def test_given_a_reading_whose_no_dice_are_not_boxes_when_thrown_then_refused_by_name(table):
    game_id, _ = table.new_game(Setup("yahtzee", ("Anna",)))
    bad = {"photo": None, "boxes": None, "not_dice": [[1, 2, 3]]}
    with pytest.raises(Exception, match="not_dice are boxes"):
        table.act(game_id, {"type": "throw", "dice": [1, 2, 3, 4, 5], "reading": bad})
    assert table.store.events(game_id) == []


@needs_models
def test_given_a_lesson_when_a_box_is_named_no_die_then_taught_as_no_die(logo_table, camera):
    from web import create_app

    client = create_app({"TABLE": logo_table, "TESTING": True}).test_client()
    set_id = client.post("/api/dice-sets", json={"name": "Logo"}).get_json()["set"]
    camera.frame, _ = logo_throw([3, 2], 12)
    lesson = client.post(f"/api/dice-sets/{set_id}/lesson", json={}).get_json()
    left, right = sorted(lesson["dice"], key=lambda d: d["box"][0])[:2]
    # given the left die named as read, and the right one's box named "no die here"
    dice = [
        {"box": left["box"], "value": 3, "read": left["value"]},
        {"box": right["box"], "value": 0, "read": right["value"]},
    ]
    # when taught
    summary = client.post(
        f"/api/dice-sets/{set_id}/teach", json={"lesson": lesson["lesson"], "dice": dice}
    ).get_json()
    # then the summary counts one face and one spot taught as no die
    assert summary["faces"] == {"pips:3": 1} and summary["not_dice"] == 1
    # and "no die" where no box was read is refused by name
    tapped = client.post(
        f"/api/dice-sets/{set_id}/teach",
        json={"lesson": lesson["lesson"], "dice": [{"x": 10, "y": 10, "value": 0}]},
    )
    assert tapped.status_code == 400 and "only a box" in tapped.get_json()["message"]


def test_given_a_token_read_as_a_die_when_named_no_die_then_the_missed_die_is_tapped_and_taught(
    client, table, reader
):
    # given a five-dice game whose camera read five dice, the fourth a token on the tray
    game_id = client.post("/api/games", json={"ruleset": "yahtzee", "players": ["A"]}).json["id"]
    reader.queue([4, 4, 2, 1, 3])
    thrown = client.post(f"/api/games/{game_id}/throw", json={}).json
    assert thrown["throw"] == 1
    # when the players name the fourth die no die
    named = client.post(f"/api/games/{game_id}/dice/3/no-die", json={"version": thrown["version"]})
    # then the throw is undone and waits, with the other four dice, for the missed one
    assert named.status_code == 200, named.json
    assert named.json["throw"] == 0
    pending = table.status.pending
    assert pending.values == [4, 4, 2, 3] and pending.expected == 5
    assert "Die 4 is no die: tap where the missed die lies" in table.status.message
    # when the missed die is tapped where it lies, as a six
    tapped = client.post(f"/api/games/{game_id}/missed", json={"x": 172, "y": 22, "value": 6})
    # then the throw stands with it, and the token's box is named as no die
    assert [d["value"] for d in tapped.json["dice"]] == [4, 4, 2, 3, 6]
    reading = table.store.events(game_id)[-1]["event"]["reading"]
    assert reading["not_dice"] == [[100, 10, 24, 24]] and reading["tapped"] == [4]
    # and once written, the set learns the dice as read, the tapped one, and the token
    assert written_and_taught(client, table, game_id) == [
        (4, False),
        (4, False),
        (2, False),
        (3, False),
        (6, True),
        (0, True),
    ]


def test_given_a_move_after_the_throw_when_a_die_is_named_no_die_then_refused(
    client, table, reader
):
    # given a throw read and then a die corrected
    game_id = client.post("/api/games", json={"ruleset": "yahtzee", "players": ["A"]}).json["id"]
    reader.queue([4, 4, 2, 1, 3])
    client.post(f"/api/games/{game_id}/throw", json={})
    client.post(f"/api/games/{game_id}/dice/0", json={"value": 5})
    # when a die is named no die, then it is refused by name and the game is as it was
    refused = client.post(f"/api/games/{game_id}/dice/3/no-die", json={})
    assert refused.status_code == 409 and "undo instead" in refused.json["message"]
    assert table.load(game_id).state()["throw"] == 1
    # and a die typed in (no photo) cannot be no die either
    game_id = client.post("/api/games", json={"ruleset": "yahtzee", "players": ["B"]}).json["id"]
    client.post(f"/api/games/{game_id}/throw", json={"dice": [1, 2, 3, 4, 5]})
    assert client.post(f"/api/games/{game_id}/dice/1/no-die", json={}).status_code == 409


def written_and_taught(client, table: Table, game_id: int) -> list[tuple[int, bool]]:
    """Write the throw into chance, and the dice its turn teaches: (value, corrected) each,
    value 0 for a spot named no die."""
    client.post(f"/api/games/{game_id}/write", json={"cell": "chance"})
    (lesson,) = turn_lessons(effective(table.store.events(game_id)), "pips")
    return [(value, fixed) for _, value, _, fixed in lesson.dice]
