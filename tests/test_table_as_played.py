"""Issue 25: the table as players use it, through the table and the JSON API.

Each test replays one thing a new player ran into (a line that outlived its move,
held dice the camera missed, taps the server refused, English on Russian pages...)
and checks what the table does now. The pages themselves are in test_browser.py.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import numpy as np
import pytest

from scorer.game import Setup
from tests.test_table import new_game, wait_idle

ROOT = Path(__file__).resolve().parents[1]
PHONE = {"REMOTE_ADDR": "192.168.1.20"}


def start(client, ruleset="generala", players=("Anna", "Borys"), **extra) -> dict:
    response = client.post(
        "/api/games", json={"ruleset": ruleset, "players": list(players)} | extra
    )
    assert response.status_code == 201, response.json
    return response.json


def play(client, game_id: int, path: str, **body) -> dict:
    response = client.post(f"/api/games/{game_id}/{path}", json=body)
    assert response.status_code == 200, response.json
    return response.json


# -- 1, 2: what the table says ----------------------------------------------------------


def test_a_settled_line_does_not_outlive_its_move_nor_reach_a_new_game(table, reader):
    # given a generala game where three sixes are held and the camera then sees 6 6 2 3 4 5
    game_id = new_game(table)
    table.throw(game_id, [6, 6, 6, 1, 2])
    table.hold(game_id, [0, 1, 2])
    reader.queue([6, 6, 6, 3, 4, 5])
    assert table.press("button")
    wait_idle(table)
    assert "Saw 6 dice" in table.status.message
    # when the two free dice are typed in
    table.throw(game_id, [3, 4])
    # then the line is gone from the table, and stays gone in the next game
    assert table.view(game_id)["table"]["message"] == ""
    assert table.view(game_id)["table"]["pending"] is None
    other, _ = table.new_game(Setup("yacht", ("Anna",)))
    assert table.view(other)["table"]["message"] == ""


def test_held_dice_the_camera_missed_are_named_and_the_values_offered_are_taken(
    table, reader, client
):
    # given die 2 held at 6, and a camera that sees five dice, none of them a 6
    game_id = new_game(table)
    table.throw(game_id, [1, 6, 2, 3, 4])
    table.hold(game_id, [1])
    reader.queue([3, 3, 5, 2, 1])
    # when the button is pressed
    assert table.press("button")
    wait_idle(table)
    # then the line names the held die the camera did not find
    pending = table.view(game_id)["table"]["pending"]
    assert pending["missing"] == [{"index": 1, "value": 6}]
    assert table.status.message == (
        "Held dice not seen: die 2 (6). Check the dice and type them in."
    )
    # and the values offered keep the held die where it is, so sending them back is taken
    assert pending["values"][1] == 6
    response = client.post(f"/api/games/{game_id}/throw", json={"dice": pending["values"]})
    assert response.status_code == 200, response.json
    assert [d["value"] for d in response.json["dice"]] == pending["values"]


# -- 4, 6: the sheet offers only what the rules take --------------------------------------


def test_poker_ru_part_one_offers_no_part_two_cell_to_strike_or_commit(client):
    # given a poker_ru game after its first throw (part 1: a number must be chosen)
    game_id = start(client, "poker_ru")["id"]
    state = play(client, game_id, "throw", dice=[4, 1, 2, 3, 5])
    # then no part-2 cell is offered, and each cell offered is taken by the server
    assert state["needs_commit"]
    assert "pair" not in state["moves"]["commit"] + state["moves"]["strike"]
    assert set(state["moves"]["commit"]) == {"ones", "twos", "threes", "fours", "fives", "sixes"}
    assert client.post(f"/api/games/{game_id}/commit", json={"cell": "pair"}).status_code == 409
    assert play(client, game_id, "commit", cell="fours")["committed"] == "fours"


def test_a_finished_game_shows_its_last_round_not_one_past_it(client):
    # given a one-player yacht game (12 cells)
    game_id = start(client, "yacht", players=("Anna",))["id"]
    state = None
    cells = client.get(f"/api/games/{game_id}").json["ruleset_info"]["cells"]
    for cell in cells:
        play(client, game_id, "throw", dice=[1, 2, 3, 4, 6])
        state = play(client, game_id, "scratch", cell=cell)
    # then the game is over on round 12
    assert state["finished"]
    assert state["round"] == len(cells) == 12


# -- 9: every word in the page's language ----------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("ru", "на кости 1..6 (или 9, 10, В, Д, К, Т), а не 7"),
        ("uk", "на кістці 1..6 (або 9, 10, В, Д, К, Т), а не 7"),
        ("en", "a die shows 1..6 (or 9, 10, J, Q, K, A), not 7"),
    ],
)
def test_a_refusal_comes_in_the_page_language(client, lang, expected):
    # given a game and a page in this language (its cookie)
    game_id = start(client)["id"]
    client.set_cookie("lang", lang)
    # when a die of 7 is typed in
    response = client.post(f"/api/games/{game_id}/throw", json={"dice": [1, 2, 3, 4, 7]})
    # then the refusal is in that language
    assert response.status_code == 400
    assert response.json["message"] == expected


def test_values_in_a_refusal_are_named_as_players_name_them(client):
    # given a yahtzee game with twos written, on a Russian page
    game_id = start(client, "yahtzee")["id"]
    play(client, game_id, "throw", dice=[2, 2, 3, 4, 5])
    play(client, game_id, "write", cell="twos")
    play(client, game_id, "throw", dice=[2, 2, 3, 4, 5])
    client.set_cookie("lang", "ru")
    # when the other player writes twos too... and then the first tries twos again
    play(client, game_id, "write", cell="twos")
    play(client, game_id, "throw", dice=[2, 2, 3, 4, 5])
    response = client.post(f"/api/games/{game_id}/write", json={"cell": "twos"})
    # then the cell is called by its Russian name
    assert response.json["message"] == "клетка «Двойки» уже записана"


def test_an_unpaired_phone_is_refused_in_its_language(client):
    client.set_cookie("lang", "uk")
    response = client.post("/api/press", json={}, environ_base=PHONE)
    assert response.status_code == 403
    assert response.json["message"].startswith("Змінювати гру може лише стіл")


def _raised_lines() -> list[str]:
    """Every message scorer raises or says, as a sample line (each value shown as 7)."""
    lines = []
    files = [ROOT / "scorer" / "game.py", ROOT / "scorer" / "dice.py", ROOT / "scorer" / "table.py"]
    files += sorted((ROOT / "scorer" / "rules").glob("*.py"))
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                args = node.exc.args
            elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "say":
                args = node.args
            else:
                continue
            if not args:
                continue
            line = _sample(args[0])
            if line and " " in line:
                lines.append(line)
    return lines


def _sample(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "7" for v in node.values)
    return None


# Lines only a script or an operator sees (they name files, ids, or internals).
NOT_FOR_PLAYERS = re.compile(
    r"^(an event is|reading is|a reading|7 is a list|there is no die|"
    r"a die is chosen|the throw number|the store|7 was written|"
    r"export formats|7 exists already|no combination|a die face class)"
)


def test_every_line_the_table_raises_or_says_is_in_the_catalogues(app):
    # given every refusal and table line in scorer's code
    from scorer.devices import faults

    lines = [line for line in _raised_lines() if not NOT_FOR_PLAYERS.match(line)]
    assert len(lines) > 40
    # and every camera fault the bar names
    lines += [
        fault.default_problem
        for fault in vars(faults).values()
        if isinstance(fault, type) and issubclass(fault, faults.CameraError)
    ]
    from web.refusals import translate

    # then each one reads in Russian and in Ukrainian
    for lang in ("ru", "uk"):
        with app.test_request_context(f"/?lang={lang}"):
            untranslated = [line for line in lines if translate(line) == line]
        assert not untranslated, (lang, untranslated)


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_setup_names_every_option_in_the_page_language(client, lang):
    from scorer.rules import RULESET_IDS, get_ruleset

    # when /setup is opened in Russian or Ukrainian
    page = client.get(f"/setup?lang={lang}").get_data(as_text=True)
    shown = re.findall(r'<span class="option-name">([^<]*)</span>', page)
    helps = re.findall(r"<small>([^<]*)</small>", page)
    # then no option shows its id or its English help
    for ruleset in RULESET_IDS:
        for name, option in get_ruleset(ruleset).describe()["options"].items():
            assert name not in shown, name
            assert option["help"] not in helps, option["help"]
    assert not re.search(r"[a-z]+_[a-z]+|\bon/off\b", " ".join(shown + helps))
    assert ">30 с</option>" in page  # the turn timer's seconds too
    if lang == "ru":
        assert "кістках" not in page  # the Ukrainian word in the Russian name of poker_ua
        assert "Покер на костях (украинский, две части)" in page


# -- 10: words that say what happened -----------------------------------------------------


def test_history_names_who_undid_and_shows_held_dice_as_held(client):
    # given Anna throws, holds two dice, throws again, writes; then undoes her write
    game_id = start(client)["id"]
    play(client, game_id, "throw", dice=[6, 6, 1, 2, 3])
    play(client, game_id, "hold", held=[0, 1])
    play(client, game_id, "throw", dice=[6, 6, 6, 2, 3])
    play(client, game_id, "write", cell="sixes")
    play(client, game_id, "undo")
    # when the history page is opened
    page = client.get(f"/history/{game_id}").get_data(as_text=True)
    rows = re.findall(
        r'<tr class="log-(\w+)">.*?<td>.*?</td>\s*<td>.*?</td>\s*<td>(.*?)</td>'
        r"(.*?)</tr>",
        page,
        re.S,
    )
    # then the undo is Anna's (her move was taken back), not Borys's
    assert [(kind, who) for kind, who, _ in rows][-1] == ("undo", "Anna")
    # and the held sixes of the second throw say "held", not 100 %
    second_throw = [rest for kind, _, rest in rows if kind == "throw"][1]
    assert second_throw.count("<small>held</small>") == 2
    assert "100%" not in second_throw


def test_a_move_from_a_page_that_was_behind_is_refused_with_the_fresh_state(client):
    # given a page that saw the game before Anna wrote
    game_id = start(client)["id"]
    seen = play(client, game_id, "throw", dice=[6, 6, 1, 2, 3])
    play(client, game_id, "write", cell="sixes")
    # when that page writes without sending what it saw (an old tab)
    response = client.post(f"/api/games/{game_id}/write", json={"cell": "ones"})
    # then the refusal carries the fresh state, so the page can say it was behind
    assert response.status_code == 409
    assert response.json["state"]["version"] > seen["version"]


# -- 16, 17, 19: what the sheet's margins say --------------------------------------------


def test_yahtzee_shows_the_upper_subtotal_and_the_points_still_needed(client):
    game_id = start(client, "yahtzee", players=("Anna",))["id"]
    play(client, game_id, "throw", dice=[6, 6, 6, 1, 2])
    state = play(client, game_id, "write", cell="sixes")
    assert state["notes"]["subtotals"] == [
        {"sum": 18, "target": 63, "needed": 45, "complete": False}
    ]


def test_yacht_counts_to_its_bonus_and_generala_shows_its_subtotal_alone(client):
    yacht = start(client, "yacht", players=("Anna",))["id"]
    play(client, yacht, "throw", dice=[5, 5, 1, 2, 3])
    state = play(client, yacht, "write", cell="fives")
    assert state["notes"]["subtotals"][0]["needed"] == 53
    generala = start(client, "generala", players=("Anna",))["id"]
    play(client, generala, "throw", dice=[5, 5, 1, 2, 3])
    state = play(client, generala, "write", cell="fives")
    assert state["notes"]["subtotals"] == [
        {"sum": 10, "target": None, "needed": None, "complete": False}
    ]


def test_poker_ru_marks_x3_x2_banks_throws_and_counts_the_way_to_the_premium(client):
    # given poker_ru with a throw bank, one throw for every number but two for ones
    options = {"throw_bank": "on", "throws": "1", "throws.ones": "2"}
    game_id = start(client, "poker_ru", players=("Anna",), options=options)["id"]
    # when fours are chosen and made with three fours in one throw (0 points, no throw left)
    play(client, game_id, "throw", dice=[4, 4, 4, 1, 2])
    play(client, game_id, "commit", cell="fours")
    state = play(client, game_id, "write", cell="fours")
    assert state["notes"]["subtotals"][0] == {"sum": 0, "target": 0, "needed": 0, "complete": False}
    # and ones are struck after one throw (RULES.md: a cell is thrown before it is written):
    # the second throw of ones goes to the bank, and -9 to part 1
    play(client, game_id, "throw", dice=[2, 3, 4, 5, 6])
    state = play(client, game_id, "scratch", cell="ones")
    assert state["notes"]["subtotals"][0]["needed"] == 9
    assert state["notes"]["banked"] == [1]
    # then, part 1 done, a pair made on the first throw is marked x3
    for cell in ("twos", "threes", "fives", "sixes"):
        play(client, game_id, "throw", dice=[1, 1, 1, 1, 1])
        state = play(client, game_id, "scratch", cell=cell)
    play(client, game_id, "throw", dice=[3, 3, 1, 2, 5])
    state = play(client, game_id, "write", cell="pair")
    assert state["sheet"][0]["pair"] == 15
    assert state["notes"]["marks"] == [{"pair": "x3"}]


def test_poker_dice_keeps_every_round_hands_to_the_end(client):
    game_id = start(client, "poker_dice", options={"rounds": "2"})["id"]
    for dice in ([6, 6, 6, 5, 5], [1, 2, 3, 3, 5], [2, 2, 4, 5, 6], [4, 4, 4, 4, 1]):
        play(client, game_id, "throw", dice=dice)
        state = play(client, game_id, "write", cell="hand")
    assert state["finished"]
    assert state["notes"]["past_hands"] == [
        {
            "round": 1,
            "dice": [[6, 6, 6, 5, 5], [1, 2, 3, 3, 5]],
            "hands": ["full_house", "pair"],
            "winners": [0],
        },
        {  # round 2 is opened by the second player (RULES.md: the first thrower rotates)
            "round": 2,
            "dice": [[4, 4, 4, 4, 1], [2, 2, 4, 5, 6]],
            "hands": ["four_of_a_kind", "pair"],
            "winners": [0],
        },
    ]


# -- 18, 20: a new game --------------------------------------------------------------------


def test_a_rematch_is_the_same_game_again_with_the_winner_first(client):
    # given a finished poker_dice match Borys won
    game_id = start(
        client, "poker_dice", players=("Anna", "Borys", "Chrystia"), options={"rounds": "1"}
    )["id"]
    for dice in ([1, 2, 3, 3, 5], [6, 6, 6, 6, 1], [2, 2, 4, 4, 6]):
        play(client, game_id, "throw", dice=dice)
        play(client, game_id, "write", cell="hand")
    assert client.post(f"/api/games/{game_id + 1}/rematch", json={}).status_code == 404
    # when a rematch is asked for
    response = client.post(f"/api/games/{game_id}/rematch", json={})
    # then it is a new game of the same rules, Borys first and the order kept around the table
    assert response.status_code == 201
    state = response.json["state"]
    assert state["players"] == ["Borys", "Chrystia", "Anna"]
    assert state["ruleset"] == "poker_dice" and state["options"]["rounds"] == 1
    assert state["round"] == 1 and state["throw"] == 0
    # and a game still going has no rematch
    refused = client.post(f"/api/games/{response.json['id']}/rematch", json={})
    assert refused.status_code == 409


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["Anna", "anna"], "two players are called anna: give each a different name"),
        (["Anna", " ANNA "], "two players are called ANNA: give each a different name"),
        (["A" * 25], "a player's name has at most 24 characters"),
    ],
)
def test_names_that_cannot_tell_players_apart_are_refused(client, players, message):
    response = client.post("/api/games", json={"ruleset": "yacht", "players": players})
    assert response.status_code == 400
    assert response.json["message"].startswith(message)
    assert client.get("/api/games").json == []


def test_setup_does_not_cut_a_long_name_silently(client):
    page = client.get("/setup").get_data(as_text=True)
    assert 'name="player"' in page and "maxlength" not in page


# -- 21: a phone that is not paired ---------------------------------------------------------


def test_an_unpaired_phone_sees_the_game_and_a_pair_button_not_live_buttons(client):
    start(client)
    page = client.get("/play", environ_base=PHONE).get_data(as_text=True)
    assert 'id="pair-button"' in page and 'href="/pair"' in page
    for live in ("throw-button", "undo-button", "hint-button", "type-button"):
        assert f'id="{live}"' not in page
    assert 'data-paired="false"' in page
    at_table = client.get("/play").get_data(as_text=True)
    assert 'id="throw-button"' in at_table and 'id="pair-button"' not in at_table


def test_the_table_view_keeps_what_the_state_carries(table):
    # the notes and moves are additions: the game's own state is unchanged
    game_id = new_game(table)
    state = table.view(game_id)
    assert set(state["notes"]) == {"subtotals", "marks", "past_hands", "banked"}
    assert state["moves"] == {"strike": [], "commit": []}
    assert set(state) >= set(table.load(game_id).state())


# -- 3: the demo camera throws what the game plays ------------------------------------------


@pytest.fixture
def demo_table(store, tmp_path):
    from scorer.bus import Bus
    from scorer.commands.serve import RendererReader
    from scorer.devices import open_camera
    from scorer.table import Table

    camera = open_camera("demo", watch_every=None)
    table = Table(store, Bus(), camera=camera, reader=RendererReader(camera), photos=tmp_path)
    yield table
    table.close()


def test_the_demo_camera_leaves_held_dice_where_they_lie(demo_table):
    # given a generala game on the demo camera, after a first throw with three dice held
    game_id, _ = demo_table.new_game(Setup("generala", ("Anna",)))
    demo_table.throw(game_id)
    first = [d["value"] for d in demo_table.view(game_id)["dice"]]
    boxes = list(demo_table.camera.adapter.last_boxes)
    demo_table.hold(game_id, [0, 1, 2])
    # when the next throw is photographed and read
    demo_table.throw(game_id)
    state = demo_table.view(game_id)
    # then it is taken as it is (no dice to type in), the held dice unchanged, lying still
    assert demo_table.status.pending is None and state["throw"] == 2
    assert [d["value"] for d in state["dice"]][:3] == first[:3]
    assert sum(box in boxes for box in demo_table.camera.adapter.last_boxes) >= 3


def test_the_demo_camera_throws_new_dice_each_time_of_the_game_kind(demo_table):
    # given a poker_dice game played with card dice
    game_id, _ = demo_table.new_game(Setup("poker_dice", ("Anna", "Borys"), dice="cards"))
    seen = []
    for _ in range(13):  # the old demo served 12 throws, then the same 12 again
        demo_table.throw(game_id)
        seen.append(tuple(demo_table.camera.adapter.last_values))
        demo_table.write(game_id, "hand")
        if demo_table.view(game_id)["finished"]:
            game_id, _ = demo_table.new_game(Setup("poker_dice", ("Anna", "Borys"), dice="cards"))
    # then every die on the tray is a card die, and the throws do not come round again
    tray = demo_table.camera.adapter.warm_up()
    assert {die.art.face for die in tray.dice} == {"card"}
    assert seen[12] != seen[0]
    assert len(set(seen)) >= 12


def test_the_demo_reader_boxes_each_die_where_the_renderer_drew_it(demo_table):
    # given a card game on the demo camera (no dice reader installed)
    game_id, _ = demo_table.new_game(Setup("poker_dice", ("Anna", "Borys"), dice="cards"))
    # when a throw is photographed
    demo_table.throw(game_id)
    event = demo_table.store.events(game_id)[-1]["event"]
    # then each die's box holds the centre of that die as the tray's camera sees it (and no
    # other die's), is about one die across, and the die is read as the card face on top
    tray = demo_table.camera.adapter.warm_up()
    centres = tray.camera.project(np.array([die.position for die in tray.dice]))
    boxes = event["reading"]["boxes"]
    assert len(boxes) == len(tray.dice) == 5
    for i, (x, y, w, h) in enumerate(boxes):
        inside = [j for j, (cx, cy) in enumerate(centres) if x <= cx < x + w and y <= cy < y + h]
        assert inside == [i], f"box {i} {(x, y, w, h)} holds the centres of dice {inside}"
        assert 0.6 * tray.px_per_die < max(w, h) < 2.5 * tray.px_per_die
    assert event["dice"] == [die.up_value() for die in tray.dice]
    assert event["reading"]["faces"] == ["card"] * 5
