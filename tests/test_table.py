"""The table loop: a press becomes a throw; what the camera cannot settle waits for a person."""

from __future__ import annotations

import threading
import time

import pytest

from scorer.errors import ForbiddenMove, ScorerError
from scorer.game import Setup
from scorer.table import CameraUnavailable, Table, TableBusy


def new_game(table: Table, ruleset: str = "generala", timer: int | None = None) -> int:
    game_id, _ = table.new_game(Setup(ruleset, ("Anna", "Borys"), timer=timer))
    return game_id


def wait_idle(table: Table, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while table._busy_lock.locked():
        if time.monotonic() > deadline:
            raise AssertionError("the press never finished")
        time.sleep(0.01)


def test_a_press_reads_the_dice_and_stores_the_throw_with_its_photo(table, reader, store):
    # given a game and a tray showing 4 4 2 3 5
    game_id = new_game(table)
    reader.queue([4, 4, 2, 3, 5])
    # when the button is pressed
    assert table.press("button") is True
    wait_idle(table)
    # then the throw is in the log with its reading and photo
    state = table.view(game_id)
    assert [d["value"] for d in state["dice"]] == [4, 4, 2, 3, 5]
    throw = store.events(game_id)[-1]["event"]
    assert throw["type"] == "throw"
    assert throw["reading"]["confidence"] == [0.99] * 5
    assert (table.photos / throw["reading"]["photo"]).is_file()


@pytest.mark.parametrize(
    ("ruleset", "dice", "faces"),
    [("generala", "pips", "pips"), ("poker_dice", "cards", "cards"), ("yahtzee", "auto", "any")],
)
def test_the_reader_is_told_which_dice_the_game_is_played_with(table, reader, ruleset, dice, faces):
    # given a game played with pip dice, poker dice, or either
    game_id, _ = table.new_game(Setup(ruleset, ("Anna", "Borys"), dice=dice))
    # when a throw is captured
    table.capture_throw(game_id)
    # then the reader was asked for that kind of face only
    assert reader.faces == [faces]


def test_the_reader_is_told_how_many_dice_were_thrown(table, reader):
    # given a game of five dice with two held
    game_id = new_game(table, "yahtzee")
    reader.queue([6, 2, 6, 3, 1])
    table.capture_throw(game_id)
    table.hold(game_id, [0, 2])
    reader.queue([6, 6, 4, 4, 5])
    # when the next throw is captured
    table.capture_throw(game_id)
    # then the reader was told five dice lay there at first, then at least the three thrown
    assert reader.least == [5, 3]


def test_a_press_while_a_reading_runs_is_ignored_with_feedback(table, reader):
    # given a reading that takes a while
    game_id = new_game(table)
    release = threading.Event()
    slow_read = reader.read

    def read(frame, faces="any", least=0):
        release.wait(5)
        return slow_read(frame, faces, least)

    reader.read = read
    table.press_gap = 0
    assert table.press("button") is True
    # when a second press comes while it runs
    second = table.press("button")
    # then it is ignored, and every page is told so
    assert second is False
    assert "ignored" in table.status.message
    with pytest.raises(TableBusy):
        table.throw(game_id)
    release.set()
    wait_idle(table)
    assert table.view(game_id)["throw"] == 1


def test_a_bouncing_button_is_one_press(table, reader):
    # given a game and a clock that does not move (all presses at one instant)
    game_id = new_game(table)
    table.clock = lambda: 100.0
    # when the press arrives five times at once
    accepted = [table.press("button") for _ in range(5)]
    wait_idle(table)
    # then one throw was made
    assert accepted.count(True) == 1
    assert table.view(game_id)["throw"] == 1
    assert reader.reads == 1


def test_given_a_sixth_die_read_less_surely_when_captured_then_the_five_sure_ones_are_offered(
    table, reader, store
):
    # given the camera sees six dice of five, the fourth read far less surely (a side face)
    game_id = new_game(table)
    reader.queue([4, 4, 2, 1, 3, 5], confidence=[0.99, 0.98, 0.97, 0.41, 0.99, 0.9])
    # when the throw is captured
    table.throw(game_id)
    # then nothing is stored yet, the five others are offered in their order, the fourth
    # is left out, and the line says to check and confirm
    assert store.events(game_id) == []
    pending = table.status.pending
    assert pending.values == [4, 4, 2, 3, 5] and pending.left_out == [3]
    assert pending.to_dict()["left_out"] == [3] and len(pending.seen) == 6
    assert "Saw 6 dice, expected 5: the least sure left out" in table.status.message
    # and confirming the offer settles the throw
    table.throw(game_id, pending.values)
    assert table.status.pending is None
    assert [d["value"] for d in table.view(game_id)["dice"]] == [4, 4, 2, 3, 5]


def test_given_six_dice_read_alike_when_captured_then_none_is_left_out(table, reader):
    # given six dice of five, the two least sure read alike (no die to leave out)
    game_id = new_game(table)
    reader.queue([4, 4, 2, 1, 3, 5], confidence=[0.99, 0.98, 0.97, 0.5, 0.99, 0.5])
    # when captured, then all six are shown to be typed in, none left out
    table.throw(game_id)
    pending = table.status.pending
    assert pending.values == [4, 4, 2, 1, 3, 5] and pending.left_out == []
    assert "check the dice and type them in" in table.status.message


def test_given_held_dice_and_an_extra_one_when_captured_then_held_keep_their_places(table, reader):
    # given three sixes held, and a camera that sees them, two thrown dice and a sixth,
    # unsure one
    game_id = new_game(table)
    table.throw(game_id, [6, 1, 6, 2, 6])
    table.hold(game_id, [0, 2, 4])
    reader.queue([3, 6, 6, 4, 6, 1], confidence=[0.99, 0.99, 0.99, 0.99, 0.99, 0.3])
    # when captured, then the five sure dice are offered with the held sixes at their places
    table.throw(game_id)
    pending = table.status.pending
    assert pending.left_out == [5] and pending.values == [6, 3, 6, 4, 6]
    assert pending.missing == []


def test_a_reading_with_the_wrong_count_waits_for_the_dice_typed_in(table, reader, store):
    # given the camera sees only four dice of five
    game_id = new_game(table)
    reader.queue([4, 4, 2, 3])
    # when the throw is captured
    table.throw(game_id)
    # then nothing is stored, the table says what it saw, and waits
    assert store.events(game_id) == []
    pending = table.status.pending
    assert pending is not None and pending.values == [4, 4, 2, 3] and pending.expected == 5
    # and typing the dice in settles it
    table.throw(game_id, [4, 4, 2, 3, 6])
    assert table.status.pending is None
    assert [d["value"] for d in table.view(game_id)["dice"]] == [4, 4, 2, 3, 6]


def test_an_unsure_die_must_be_confirmed_before_writing(table, reader):
    # given a throw whose third die was read with low confidence
    game_id = new_game(table)
    reader.queue([4, 4, 2, 3, 5], confidence=[0.99, 0.99, 0.3, 0.99, 0.99])
    table.throw(game_id)
    assert table.view(game_id)["unsure"] == [2]
    # when the player writes at once, then the write is refused
    with pytest.raises(ForbiddenMove):
        table.write(game_id, "fours")
    # and a tap confirming the die lets the write through
    table.correct(game_id, 2, 2)
    table.write(game_id, "fours")
    assert table.view(game_id)["sheet"][0]["fours"] == 8


def test_an_unsure_die_shows_the_readers_second_guess_until_tapped(table, reader):
    # given a throw whose third die was read as 2, unsure, with 3 as the second guess
    game_id = new_game(table)
    reader.queue(
        [4, 4, 2, 3, 5], confidence=[0.99, 0.99, 0.4, 0.99, 0.99], guesses=[6, None, 3, 1, None]
    )
    table.throw(game_id)
    # then the page is told of the unsure die's second guess, and of no sure die's
    assert [d["guess"] for d in table.view(game_id)["dice"]] == [None, None, 3, None, None]
    # and the tap that settles the die settles its guess too
    table.correct(game_id, 2, 3)
    assert table.view(game_id)["dice"][2]["guess"] is None


def test_held_dice_still_seen_by_the_camera_are_taken_out_of_the_reading(table, reader):
    # given 6 6 1 2 3 with both sixes held
    game_id = new_game(table)
    table.throw(game_id, [6, 6, 1, 2, 3])
    table.hold(game_id, [0, 1])
    # when the camera sees all five dice again, the held sixes among them
    reader.queue([5, 6, 4, 6, 6])
    table.throw(game_id)
    # then the held dice keep their places and the others are the new ones
    dice = table.view(game_id)["dice"]
    assert [d["value"] for d in dice] == [6, 6, 5, 4, 6]
    assert [d["held"] for d in dice] == [True, True, False, False, False]


def test_held_dice_taken_off_the_tray_need_only_the_others_read(table, reader):
    # given two held dice moved off the tray
    game_id = new_game(table)
    table.throw(game_id, [6, 6, 1, 2, 3])
    table.hold(game_id, [0, 1])
    # when the camera sees the three thrown dice
    reader.queue([1, 6, 5])
    table.throw(game_id)
    # then the throw is the held dice plus those three
    assert [d["value"] for d in table.view(game_id)["dice"]] == [6, 6, 1, 6, 5]


def test_a_reading_missing_a_held_value_waits_for_a_person(table, reader, store):
    # given a held six, and the camera sees five dice but no six
    game_id = new_game(table)
    table.throw(game_id, [6, 1, 1, 2, 3])
    table.hold(game_id, [0])
    reader.queue([1, 2, 3, 4, 5])
    # when the throw is captured, then it is flagged, not applied
    table.throw(game_id)
    assert table.status.pending is not None
    assert len(store.events(game_id)) == 2


def test_a_camera_failing_mid_game_is_said_plainly_and_typing_goes_on(table, camera, reader):
    # given a game under way with a working camera
    game_id = new_game(table)
    table.throw(game_id)
    table.write(game_id, "sixes")
    # when the camera is unplugged
    camera.fault = "disconnected"
    with pytest.raises(CameraUnavailable) as err:
        table.throw(game_id)
    # then the pages say so, and the dice can be typed in
    assert "camera" in str(err.value).lower()
    assert table.status.camera == "failed"
    assert "type the dice in" in table.view(game_id)["table"]["camera_message"].lower()
    table.throw(game_id, [1, 1, 1, 2, 2])
    assert table.view(game_id)["throw"] == 1


def test_without_a_camera_a_press_says_to_type_the_dice_in(store):
    # given a table with no camera
    table = Table(store, camera=None, reader=None)
    new_game(table)
    # when the button is pressed, then nothing is read and the reason is shown
    assert table.press("button") is False
    assert "type the dice in" in table.status.message
    assert table.view(table.current_game_id)["table"]["camera"] == "none"


def test_the_turn_timer_writes_the_best_cell_when_time_is_up(table):
    # given a game with a 30 s timer and a throw of five sixes
    game_id = new_game(table, "generala", timer=30)
    table.throw(game_id, [6, 6, 6, 6, 6])
    state = table.view(game_id)
    assert state["timer"]["seconds"] == 30
    # when the clock passes the deadline
    assert table.tick(now=state["timer"]["deadline"] + 1) is True
    # then the best cell (generala, 50) is written and the next player is up
    after = table.view(game_id)
    assert after["sheet"][0]["generala"] == 50
    assert after["current_player"] == 1


def test_every_change_is_published_with_the_full_state(table):
    # given a subscriber
    sub = table.bus.subscribe()
    # when a game starts and a throw is typed in
    game_id = new_game(table)
    table.throw(game_id, [1, 2, 3, 4, 5])
    # then each change arrived as a state event carrying the whole game
    events = [sub.get(timeout=1) for _ in range(2)]
    assert [e.kind for e in events] == ["state", "state"]
    assert events[1].data["id"] == game_id
    assert [d["value"] for d in events[1].data["dice"]] == [1, 2, 3, 4, 5]
    assert events[0].id < events[1].id


def test_a_mock_gpio_press_throws_once_and_a_long_press_undoes(table, reader):
    # given the push button on a mock pin, wired as `scorer serve` wires it
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    from scorer.commands.serve import attach_button

    Device.pin_factory = MockFactory()
    try:
        game_id = new_game(table)
        reader.queue([2, 2, 2, 3, 3])
        button = attach_button(table, "gpio:17")
        assert button is not None
        pin = Device.pin_factory.pin(17)
        # when the contact bounces on press and release
        for _ in range(3):
            pin.drive_low()
            pin.drive_high()
        pin.drive_low()
        time.sleep(0.3)
        pin.drive_high()
        time.sleep(0.3)
        wait_idle(table)
        # then exactly one throw was read
        assert table.view(game_id)["throw"] == 1
        assert reader.reads == 1
        # and a long press (past the hold time) takes the throw back
        pin.drive_low()
        time.sleep(button.hold_time + 0.3)
        pin.drive_high()
        time.sleep(0.3)
        assert table.view(game_id)["throw"] == 0
        assert reader.reads == 1
        button.close()
    finally:
        Device.pin_factory.close()
        Device.pin_factory = None


def test_time_up_with_a_die_to_confirm_writes_nothing_and_restarts_the_timer(table, reader):
    # given a timed turn whose throw has an unsure die
    game_id = new_game(table, "generala", timer=30)
    reader.queue([6, 6, 6, 6, 2], confidence=[0.99, 0.99, 0.99, 0.99, 0.2])
    table.throw(game_id)
    deadline = table.view(game_id)["timer"]["deadline"]
    # when the time runs out
    table.tick(now=deadline + 1)
    # then nothing is written for the player, who gets a fresh period to tap the die
    after = table.view(game_id)
    assert after["current_player"] == 0 and after["unsure"] == [4]
    assert all(v is None for v in after["sheet"][0].values())
    assert after["timer"]["deadline"] >= deadline


def test_a_throw_the_rules_forbid_is_refused_before_the_camera_is_used(table, reader, camera):
    # given a turn with all three throws used
    game_id = new_game(table)
    for _ in range(3):
        table.throw(game_id, [1, 2, 3, 4, 6])
    captures = camera.captures
    # when the button asks for a fourth
    with pytest.raises(ForbiddenMove):
        table.throw(game_id)
    # then the camera was not used and the pages were told
    assert camera.captures == captures and reader.reads == 0
    assert "throws" in table.status.message


def test_the_tray_region_crops_the_reading_and_is_kept_across_restarts(store, camera, tmp_path):
    # given a table whose tray is marked as the right half of the picture
    from tests.conftest import ScriptedReader

    seen = []
    reader = ScriptedReader()
    plain_read = reader.read

    def read(frame, faces="any", least=0):
        seen.append(frame.shape)
        return plain_read(frame, faces, least)

    reader.read = read
    tray = tmp_path / "tray.json"
    table = Table(store, camera=camera, reader=reader, tray_file=tray)
    table.set_region([0.5, 0.0, 0.5, 1.0])
    # when a test read runs
    reading = table.test_read()
    # then the reader saw only the tray, and the boxes are in the whole picture's pixels
    height, width = camera.frame.shape[:2]
    assert seen[-1][:2] == (height, width // 2)
    assert reading["dice"][0]["box"][0] >= width // 2
    # and a restarted table remembers the tray
    assert Table(store, tray_file=tray).region == [0.5, 0.0, 0.5, 1.0]
    with pytest.raises(ScorerError):
        table.set_region([0.9, 0.0, 0.5, 1.0])
