"""The JSON API the pages use, and phones or scripts can too (``/api/openapi.json``).

Every state-changing request is a JSON POST in this blueprint, so pairing and
CSRF checks (issue 7) go in one place. Errors are JSON with a message: 400 bad
input, 404 unknown game, 409 a move the rules forbid now (a stale ``version``
also gets the fresh state); the state never changes on an error.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from scorer.errors import (
    BadDice,
    ForbiddenMove,
    ScorerError,
    UnknownGame,
)

bp = Blueprint("api", __name__, url_prefix="/api")

OPENAPI = Path(__file__).parent / "openapi.json"


class BadRequest(ScorerError):
    """The request itself is malformed (not JSON, wrong types)."""


def table() -> Any:
    return current_app.config["TABLE"]


def body() -> dict[str, Any]:
    """The request's JSON object; an empty body is an empty object."""
    raw = request.get_data(cache=True)
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as err:
        raise BadRequest(f"the body is not JSON: {err}") from err
    if not isinstance(data, dict):
        raise BadRequest('the body is a JSON object, e.g. {"cell": "twos"}')
    return data


def version_of(data: dict[str, Any]) -> int | None:
    version = data.get("version")
    if version is None:
        return None
    if isinstance(version, bool) or not isinstance(version, int):
        raise BadRequest("version is the integer the state carried")
    return version


def integer(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRequest(f"{key} is an integer, not {value!r}")
    return value


def text(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value:
        raise BadRequest(f"{key} is a non-empty string, not {value!r}")
    return value


@bp.errorhandler(ScorerError)
def scorer_error(err: ScorerError) -> tuple[Response, int]:
    status = 400
    if isinstance(err, UnknownGame):
        status = 404
    elif isinstance(err, ForbiddenMove):
        status = 409
    from web.refusals import translate

    payload: dict[str, Any] = {"error": type(err).__name__, "message": translate(str(err))}
    if isinstance(err, ForbiddenMove):  # the page shows what the game is now, not what it was
        game_id = request.view_args.get("game_id") if request.view_args else None
        if game_id is not None:
            with contextlib.suppress(ScorerError):
                payload["state"] = table().view(game_id)
    return jsonify(payload), status


@bp.errorhandler(404)
def not_found(err: Any) -> tuple[Response, int]:
    return jsonify({"error": "NotFound", "message": f"no such API path: {request.path}"}), 404


@bp.errorhandler(405)
def wrong_method(err: Any) -> tuple[Response, int]:
    return jsonify({"error": "MethodNotAllowed", "message": f"{request.method} not allowed"}), 405


def state_of(game_id: int, game: Any = None) -> Response:
    return jsonify(table().view(game_id, game))


# -- rulesets and games ---------------------------------------------------------------


@bp.get("/openapi.json")
def openapi() -> Response:
    return Response(OPENAPI.read_text(encoding="utf-8"), mimetype="application/json")


@bp.get("/rulesets")
def rulesets() -> Response:
    from scorer.rules import RULESET_IDS, get_ruleset

    return jsonify([get_ruleset(r).describe() for r in RULESET_IDS])


@bp.get("/games")
def games() -> Response:
    return jsonify(table().store.games())


@bp.post("/games")
def create_game() -> tuple[Response, int]:
    from scorer.game import Setup

    data = body()
    setup = Setup.from_dict(data)
    game_id, game = table().new_game(setup)
    response = jsonify({"id": game_id, "state": table().view(game_id, game)})
    response.headers["Location"] = f"/api/games/{game_id}"
    return response, 201


@bp.get("/games/<int:game_id>")
def game_state(game_id: int) -> Response:
    return state_of(game_id)


@bp.get("/games/current")
def current_game() -> Response:
    current = table().current()
    if current is None:
        raise UnknownGame("no game at the table yet: start one on /setup")
    return state_of(*current)


@bp.post("/games/<int:game_id>/select")
def select_game(game_id: int) -> Response:
    return state_of(game_id, table().select(game_id))


@bp.post("/games/<int:game_id>/throw")
def throw(game_id: int) -> Response:
    data = body()
    dice = data.get("dice")
    if dice is not None:
        if not isinstance(dice, list) or not dice:
            raise BadDice("dice: a list of values, e.g. [4, 4, 2, 3, 5]")
        from scorer.dice import parse_die

        values = [parse_die(v) for v in dice]
        game = table().throw(game_id, values, version_of(data))
    else:
        table().load(game_id)  # 404 before "no camera"
        game = table().throw(game_id, None, version_of(data))
    return state_of(game_id, game)


@bp.post("/games/<int:game_id>/dice/<int:index>")
def correct(game_id: int, index: int) -> Response:
    from scorer.dice import parse_die

    data = body()
    if "value" not in data:
        raise BadRequest('value is the die as it lies, e.g. {"value": 6}')
    value = data["value"]
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise BadDice(f"a die shows 1..6 (or 9, 10, J, Q, K, A), not {value!r}")
    game = table().correct(game_id, index, parse_die(value), version_of(data))
    return state_of(game_id, game)


@bp.post("/games/<int:game_id>/hold")
def hold(game_id: int) -> Response:
    data = body()
    held = data.get("held")
    if not isinstance(held, list) or any(
        isinstance(i, bool) or not isinstance(i, int) for i in held
    ):
        raise BadRequest('held is a list of dice indexes, e.g. {"held": [0, 1]}')
    game = table().hold(game_id, held, version_of(data))
    return state_of(game_id, game)


@bp.post("/games/<int:game_id>/missed")
def missed(game_id: int) -> Response:
    """A die the camera missed, tapped where it lies on the waiting reading's photo."""
    data = body()
    x, y = data.get("x"), data.get("y")
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in (x, y)):
        raise BadRequest("x and y are the tap's place on the photo, in its pixels")
    game = table().mark_missed(
        game_id, float(x), float(y), integer(data, "value"), version_of(data)
    )
    return state_of(game_id, game)


@bp.post("/games/<int:game_id>/write")
def write(game_id: int) -> Response:
    data = body()
    game = table().write(game_id, text(data, "cell"), version_of(data))
    return state_of(game_id, game)


@bp.post("/games/<int:game_id>/scratch")
def scratch(game_id: int) -> Response:
    data = body()
    game = table().scratch(game_id, text(data, "cell"), version_of(data))
    return state_of(game_id, game)


@bp.post("/games/<int:game_id>/commit")
def commit(game_id: int) -> Response:
    data = body()
    event = {"type": "commit", "cell": text(data, "cell")}
    return state_of(game_id, table().act(game_id, event, version_of(data)))


@bp.post("/games/<int:game_id>/extra_round")
def extra_round(game_id: int) -> Response:
    data = body()
    return state_of(game_id, table().act(game_id, {"type": "extra_round"}, version_of(data)))


@bp.post("/games/<int:game_id>/rematch")
def rematch(game_id: int) -> tuple[Response, int]:
    """The same players and rules again, the winner first (a tie: the first winner)."""
    from scorer.game import Setup

    body()
    game = table().load(game_id)
    if not game.finished:
        raise ForbiddenMove("a rematch follows a finished game")
    setup = game.setup
    first = (game.winners() or (0,))[0]
    players = setup.players[first:] + setup.players[:first]
    again = Setup(setup.ruleset, players, dict(setup.options), setup.dice, setup.timer)
    new_id, new_game = table().new_game(again)
    response = jsonify({"id": new_id, "state": table().view(new_id, new_game)})
    response.headers["Location"] = f"/api/games/{new_id}"
    return response, 201


# -- seed 003's bluff and board (issue 27) ----------------------------------------------


def seat(data: dict[str, Any]) -> dict[str, Any]:
    """The player the page believes is moving, when it says: a move out of turn is refused."""
    return {} if data.get("player") is None else {"player": integer(data, "player")}


@bp.post("/games/<int:game_id>/claim")
def claim(game_id: int) -> Response:
    """poker_bluff: announce a hand higher than the last claim."""
    data = body()
    ranks = data.get("ranks")
    if not isinstance(ranks, list):
        raise BadRequest('ranks is a list of values, e.g. {"hand": "full_house", "ranks": [5, 1]}')
    from scorer.dice import parse_die

    event = {"type": "claim", "hand": text(data, "hand"), "ranks": [parse_die(r) for r in ranks]}
    return state_of(game_id, table().act(game_id, event | seat(data), version_of(data)))


@bp.post("/games/<int:game_id>/call")
def call(game_id: int) -> Response:
    """poker_bluff: call the last claim; the dice are then revealed to the camera."""
    data = body()
    event = {"type": "call"} | seat(data)
    return state_of(game_id, table().act(game_id, event, version_of(data)))


@bp.post("/games/<int:game_id>/judge")
def judge(game_id: int) -> Response:
    """poker_bluff: accept the revealed dice; the loser of the round loses a life."""
    data = body()
    return state_of(game_id, table().act(game_id, {"type": "judge"}, version_of(data)))


@bp.post("/games/<int:game_id>/place")
def place(game_id: int) -> Response:
    """poker_board: a chip on a free square the dice take."""
    data = body()
    event = {"type": "place", "square": integer(data, "square")} | seat(data)
    return state_of(game_id, table().act(game_id, event, version_of(data)))


@bp.post("/games/<int:game_id>/remove")
def remove(game_id: int) -> Response:
    """poker_board: a straight or full house takes an opponent's unprotected chip."""
    data = body()
    event = {"type": "remove", "square": integer(data, "square")} | seat(data)
    return state_of(game_id, table().act(game_id, event, version_of(data)))


@bp.post("/games/<int:game_id>/pass")
def pass_turn(game_id: int) -> Response:
    """poker_board: no square fits these dice: no chip this turn."""
    data = body()
    event = {"type": "pass"} | seat(data)
    return state_of(game_id, table().act(game_id, event, version_of(data)))


@bp.post("/games/<int:game_id>/undo")
def undo(game_id: int) -> Response:
    data = body()
    return state_of(game_id, table().undo(game_id, version_of(data)))


@bp.get("/games/<int:game_id>/export")
def export(game_id: int) -> Response:
    """The game's log as a file to keep: ``?format=json`` (default) or ``csv``."""
    fmt = request.args.get("format", "json")
    if fmt not in ("json", "csv"):
        raise BadRequest("format is json or csv")
    text = table().store.export(game_id, fmt)
    mimetype = "text/csv" if fmt == "csv" else "application/json"
    response = Response(text, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="game-{game_id}.{fmt}"'
    return response


@bp.get("/games/<int:game_id>/events")
def game_events(game_id: int) -> Response:
    table().load(game_id)
    return jsonify(table().store.events(game_id))


@bp.get("/games/<int:game_id>/hint")
def hint(game_id: int) -> tuple[Response, int] | Response:
    """The strategy's advice for the current dice, best first (top three)."""
    game = table().load(game_id)
    ruleset = game.setup.ruleset
    try:
        from scorer.strategy import SOLVABLE, prepare
        from scorer.strategy import hint as strategy_hint
    except ImportError:
        return jsonify({"error": "NoHints", "message": "hints are not installed"}), 404
    if ruleset not in SOLVABLE:
        return jsonify({"error": "NoHints", "message": f"no hints for {ruleset}"}), 404
    if not game.dice or game.finished:
        raise ForbiddenMove("a hint needs dice on the tray: throw first")
    if prepare(ruleset, game.setup.options) is not None:
        raise ForbiddenMove("the hint table is being computed (a minute or so): ask again soon")
    choices = strategy_hint(
        ruleset, game.setup.options, game.sheets[game.player], game.values, game.throw
    )
    return jsonify({"choices": [c.to_dict() | {"text": c.describe()} for c in choices[:3]]})


@bp.get("/games/<int:game_id>/review")
def review(game_id: int) -> tuple[Response, int] | Response:
    """What each decision of a finished game cost against optimal play, per player."""
    from scorer.strategy import prepare
    from scorer.strategy.review import review as review_game
    from scorer.strategy.review import reviewable

    setup = table().store.setup(game_id)
    if not reviewable(setup.ruleset):
        return jsonify({"error": "NoReview", "message": f"no review for {setup.ruleset}"}), 404
    if prepare(setup.ruleset, setup.options) is not None:
        raise ForbiddenMove("the review's table is being computed (a minute or so): ask again soon")
    events = [e["event"] for e in table().store.events(game_id)]
    players = review_game(setup, events)
    return jsonify({"game": game_id, "players": [p.to_dict() for p in players]})


@bp.get("/fairness")
def fairness() -> Response:
    """Each dice set's face counts over every stored camera throw, and the chi-square verdict."""
    from scorer.fairness import table_fairness

    dice_set = request.args.get("set") or None
    return jsonify({"sets": [f.to_dict() for f in table_fairness(table().store, dice_set)]})


# -- the table itself ------------------------------------------------------------------


@bp.get("/table")
def table_status() -> Response:
    return jsonify(table().status.to_dict() | {"current_game": table().current_game_id})


@bp.post("/press")
def press() -> Response:
    """The kiosk's space bar: the same as the push button."""
    body()
    accepted = table().press("web")
    return jsonify({"accepted": accepted, "table": table().status.to_dict()})


@bp.post("/camera/region")
def camera_region() -> Response:
    data = body()
    region = data.get("region")
    if region is not None and not isinstance(region, list):
        raise BadRequest("region is [x, y, w, h] as fractions of the picture, or null")
    table().set_region(region)
    return jsonify({"region": table().region})


@bp.post("/camera/read")
def camera_read() -> Response:
    body()
    return jsonify(table().test_read())
