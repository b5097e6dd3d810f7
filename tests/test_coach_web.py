"""The coach and the fairness verdict through the API, the pages and the command line."""

from __future__ import annotations

import json

import pytest

from scorer.cli import main
from scorer.strategy import solitaire, tables
from tests.test_coach_review import blunder_game


@pytest.fixture(scope="module")
def solved_data(tmp_path_factory):
    """A data folder whose yahtzee table is already built (as `scorer solve` leaves it)."""
    folder = tmp_path_factory.mktemp("data")
    tables.table(solitaire("yahtzee", {}), directory=folder / "strategy")
    yield folder
    tables.forget()


@pytest.fixture
def data(solved_data, monkeypatch):
    monkeypatch.setenv("SCORER_DATA", str(solved_data))
    return solved_data


def play(client, events: list[dict], ruleset: str = "yahtzee", players=("Anna",)) -> int:
    created = client.post("/api/games", json={"ruleset": ruleset, "players": list(players)})
    game_id = created.json["id"]
    for event in events:
        kind = event["type"]
        body = {k: v for k, v in event.items() if k != "type"}
        answer = client.post(f"/api/games/{game_id}/{kind}", json=body)
        assert answer.status_code == 200, answer.json
    return game_id


def test_given_a_finished_game_when_reviewed_by_the_api_then_each_player_has_their_costs(
    client, data
):
    game_id = play(client, blunder_game())

    answer = client.get(f"/api/games/{game_id}/review")

    assert answer.status_code == 200
    (anna,) = answer.json["players"]
    assert anna["name"] == "Anna"
    dearest = anna["costliest"][0]
    assert dearest["made"] == {
        "kind": "scratch",
        "keep": None,
        "cell": "yahtzee",
        "text": "strike yahtzee",
    }
    assert dearest["dice"] == [6, 6, 6, 6, 6] and dearest["cost"] > 40
    assert anna["lost"] == pytest.approx(sum(d["cost"] for d in anna["decisions"]), abs=1e-3)


def test_given_no_review_then_the_api_says_why(client, data):
    unfinished = play(client, blunder_game()[:2])
    poker = play(client, [], ruleset="poker_ru")

    assert client.get(f"/api/games/{unfinished}/review").status_code == 409
    assert "not over" in client.get(f"/api/games/{unfinished}/review").json["message"]
    assert client.get(f"/api/games/{poker}/review").status_code == 404
    assert client.get("/api/games/999/review").status_code == 404


@pytest.mark.parametrize(
    ("lang", "title", "lost", "strike"),
    [
        ("en", "Coach", "points lost", "strike Yahtzee"),
        ("ru", "Тренер", "очков потеряно", "вычеркнуть Покер"),
        ("uk", "Тренер", "очок втрачено", "викреслити Покер"),
    ],
)
def test_given_a_finished_game_then_its_page_shows_the_costliest_decisions(
    client, data, lang, title, lost, strike
):
    game_id = play(client, blunder_game())

    page = client.get(f"/history/{game_id}?lang={lang}").get_data(as_text=True)

    assert f"<h2>{title}</h2>" in page
    assert lost in page and strike in page


def test_given_camera_throws_then_history_shows_each_dice_sets_verdict(client, reader, data):
    game_id = client.post("/api/games", json={"ruleset": "yahtzee", "players": ["A"]}).json["id"]
    for cell in ("ones", "twos", "threes", "fours", "fives", "sixes", "chance"):
        reader.queue([6, 6, 6, 6, 1])
        assert client.post(f"/api/games/{game_id}/throw").status_code == 200
        client.post(f"/api/games/{game_id}/write", json={"cell": cell})

    fair = client.get("/api/fairness").json["sets"]
    page = client.get("/history?lang=ru").get_data(as_text=True)

    (pips,) = fair
    assert pips["dice"] == 35 and pips["counts"] == [7, 0, 0, 0, 0, 28] and pips["biased"]
    assert "Честные ли кости?" in page
    assert "6 выпадает чаще, чем у честной кости" in page


def test_given_a_database_then_the_commands_print_the_review_and_the_verdict(
    client, table, data, capsys
):
    game_id = play(client, blunder_game())
    db = str(table.store.path)

    assert main(["review", str(game_id), "--db", db]) == 0
    out = capsys.readouterr().out
    assert "Anna:" in out and "strike yahtzee cost" in out and "was best" in out

    assert main(["review", str(game_id), "--db", db, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["name"] == "Anna"

    assert main(["fairness", "--db", db]) == 0
    assert "no dice thrown before the camera yet" in capsys.readouterr().out

    assert main(["review", "999", "--db", db]) == 2
    assert "no game 999" in capsys.readouterr().err


def test_given_the_hint_route_during_a_solo_game_then_the_review_prices_every_write_alike(
    client, data
):
    # given a solo game (hints on) played write by write, the hint route asked before each
    events = blunder_game()
    game_id = client.post("/api/games", json={"ruleset": "yahtzee", "players": ["Anna"]}).json["id"]
    offered = []
    for event in events:
        body = {k: v for k, v in event.items() if k != "type"}
        if event["type"] != "throw":
            offered.append(client.get(f"/api/games/{game_id}/hint").json["choices"][0])
        assert client.post(f"/api/games/{game_id}/{event['type']}", json=body).status_code == 200
    # when the finished game is reviewed
    (anna,) = client.get(f"/api/games/{game_id}/review").json["players"]
    # then each decision's best is the route's first choice, to 1e-4
    assert len(anna["decisions"]) == len(offered)
    for decision, best in zip(anna["decisions"], offered, strict=True):
        assert decision["best_expected"] == pytest.approx(best["expected"], abs=1e-4)
        assert decision["best"]["text"] == best["text"]


def test_given_a_finished_game_then_its_page_lists_three_decisions_with_what_was_best(client, data):
    game_id = play(client, blunder_game())

    page = client.get(f"/history/{game_id}").get_data(as_text=True)

    rows = page.split('<table class="coach-table">', 1)[1].split("</tbody>", 1)[0]
    assert rows.count("<tr>") == 1 + 3  # the header and the three costliest
    assert "strike Yahtzee" in rows and "write Yahtzee" in rows  # what was done, what was best
    assert rows.count('class="cost"') == 3


def test_given_camera_throws_then_scorer_fairness_prints_each_sets_verdict(
    client, reader, table, data, capsys
):
    from scorer.game import Setup

    white, _ = table.new_game(Setup("yahtzee", ("A",), dice_set=None))
    for cell in ("ones", "twos", "threes", "fours", "fives", "sixes", "chance"):
        reader.queue([6, 6, 6, 6, 1])
        table.capture_throw(white)
        table.act(white, {"type": "write", "cell": cell})
    db = str(table.store.path)

    assert main(["fairness", "--db", db, "--set", "pips"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("pips: 6s come up more than a fair die would: p = ")
    assert "1: 7  2: 0  3: 0  4: 0  5: 0  6: 28" in out
    assert main(["fairness", "--db", db, "--set", "cards"]) == 0
    assert "cards: too few dice to tell: 0 seen" in capsys.readouterr().out
