"""The JSON API the pages use, and phones or scripts can too (``/api/openapi.json``).

Every state-changing request is a JSON POST in this blueprint, so pairing and
CSRF checks (issue 7) go in one place. Each route's ``@operation`` names the model of
its body (:mod:`web.schema`), which checks the request and describes it in
``/api/openapi.json`` (:mod:`web.openapi`). Errors are JSON with a message: 400 bad
input, 404 unknown game, 409 a move the rules forbid now (a stale ``version``
also gets the fresh state); the state never changes on an error.
"""

from __future__ import annotations

import contextlib
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from scorer.errors import ForbiddenMove, ScorerError, UnknownGame
from web.openapi import BAD, FORBIDDEN, UNKNOWN, Reply, document, operation
from web.schema import (
    CellMove,
    Claim,
    Coach,
    Correction,
    Created,
    DiceSet,
    Error,
    Export,
    Hold,
    Missed,
    Move,
    NewGame,
    Nothing,
    PartTwoOptions,
    Region,
    Rolloff,
    Square,
    State,
    Table,
    Throw,
    Turn,
)

bp = Blueprint("api", __name__, url_prefix="/api")

STATE = Reply("the whole state of the game", State)
#: The answers of a move on a game.
MOVE = {200: STATE, 400: BAD, 404: UNKNOWN, 409: FORBIDDEN}


def table() -> Any:
    return current_app.config["TABLE"]


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
@operation("this document", {200: Reply("OpenAPI 3.1")})
def openapi() -> Response:
    if "openapi" not in current_app.extensions:  # the routes are fixed once the app serves
        current_app.extensions["openapi"] = document(current_app)
    return jsonify(current_app.extensions["openapi"])


@bp.get("/rulesets")
@operation("every ruleset with its cells and options", {200: Reply("list of rulesets")})
def rulesets() -> Response:
    from scorer.rules import RULESET_IDS, get_ruleset

    return jsonify([get_ruleset(r).describe() for r in RULESET_IDS])


@bp.get("/games")
@operation(
    "every stored game, newest first (id, ruleset, players, created, finished, winners, totals)",
    {200: Reply("game summaries")},
)
def games() -> Response:
    return jsonify(table().store.games())


@bp.post("/games")
@operation(
    "start a game; it becomes the table's current game",
    {201: Reply("{id, state}", Created), 400: BAD},
    body=NewGame,
)
def create_game(body: NewGame) -> tuple[Response, int]:
    game_id, game = table().new_game(body.setup())
    response = jsonify({"id": game_id, "state": table().view(game_id, game)})
    response.headers["Location"] = f"/api/games/{game_id}"
    return response, 201


@bp.get("/games/<int:game_id>")
@operation("the whole state of a game", {200: STATE, 404: UNKNOWN})
def game_state(game_id: int) -> Response:
    return state_of(game_id)


@bp.get("/games/current")
@operation("the table's current game", {200: STATE, 404: UNKNOWN})
def current_game() -> Response:
    current = table().current()
    if current is None:
        raise UnknownGame("no game at the table yet: start one on /setup")
    return state_of(*current)


@bp.post("/games/<int:game_id>/select")
@operation("make a stored game the table's current one (resume)", {200: STATE, 404: UNKNOWN})
def select_game(game_id: int) -> Response:
    return state_of(game_id, table().select(game_id))


@bp.post("/games/<int:game_id>/throw")
@operation(
    "a throw: no body captures from the camera as the button does; `dice` typed in by hand",
    MOVE,
    body=Throw,
    description=(
        "Without `dice`: 409 when there is no camera or reader (type the dice in), or while "
        "a reading already runs. A reading whose count does not fit stores nothing and sets "
        "`table.pending` (type the dice in)."
    ),
)
def throw(game_id: int, body: Throw) -> Response:
    if body.dice is None:
        table().load(game_id)  # 404 before "no camera"
    return state_of(game_id, table().throw(game_id, body.dice, body.version))


@bp.post("/games/<int:game_id>/dice/<int:index>")
@operation("correct (or confirm) a die of the current throw", MOVE, body=Correction)
def correct(game_id: int, index: int, body: Correction) -> Response:
    return state_of(game_id, table().correct(game_id, index, body.value, body.version))


@bp.post("/games/<int:game_id>/hold")
@operation("the dice kept before the next throw", MOVE, body=Hold)
def hold(game_id: int, body: Hold) -> Response:
    return state_of(game_id, table().hold(game_id, body.held, body.version))


@bp.post("/games/<int:game_id>/missed")
@operation(
    "a die the camera missed, tapped where it lies on the waiting reading's photo (issue 24): "
    "it joins the dice seen; with as many dice as in play the throw applies, the tapped die a "
    "correction the game's set of dice learns",
    {
        200: STATE,
        400: BAD,
        404: UNKNOWN,
        409: Reply(
            "no reading waits for a missed die, a die the camera saw lies there, or a stale "
            "version",
            Error,
        ),
    },
    body=Missed,
)
def missed(game_id: int, body: Missed) -> Response:
    """A die the camera missed, tapped where it lies on the waiting reading's photo."""
    game = table().mark_missed(game_id, body.x, body.y, body.value, body.version)
    return state_of(game_id, game)


@bp.post("/games/<int:game_id>/dice/<int:index>/no-die")
@operation(
    "a die of the throw just read where there is none (a token, a coin): the throw is undone "
    "and waits with the rest of its dice for the missed die to be tapped (`missed`) or the "
    "dice typed in; the spot is taught to the game's set of dice as no die (issue 24)",
    {
        200: STATE,
        400: BAD,
        404: UNKNOWN,
        409: Reply("not a die of the throw the camera just read, or a stale version", Error),
    },
    body=Move,
)
def no_die(game_id: int, index: int, body: Move) -> Response:
    """A die the camera read where there is none."""
    return state_of(game_id, table().no_die_here(game_id, index, body.version))


@bp.post("/games/<int:game_id>/write")
@operation(
    "write the current dice into a cell (poker_dice: cell `hand` stands)", MOVE, body=CellMove
)
def write(game_id: int, body: CellMove) -> Response:
    return state_of(game_id, table().write(game_id, body.cell, body.version))


@bp.post("/games/<int:game_id>/scratch")
@operation("strike a cell (0, or what the ruleset charges)", MOVE, body=CellMove)
def scratch(game_id: int, body: CellMove) -> Response:
    return state_of(game_id, table().scratch(game_id, body.cell, body.version))


@bp.post("/games/<int:game_id>/commit")
@operation("poker_ru part 1: the number played this turn", MOVE, body=CellMove)
def commit(game_id: int, body: CellMove) -> Response:
    event = {"type": "commit", "cell": body.cell}
    return state_of(game_id, table().act(game_id, event, body.version))


@bp.post("/games/<int:game_id>/extra_round")
@operation("poker_ru: agree one more round after the sheet is full", MOVE, body=Move)
def extra_round(game_id: int, body: Move) -> Response:
    return state_of(game_id, table().act(game_id, {"type": "extra_round"}, body.version))


@bp.post("/games/<int:game_id>/rematch")
@operation(
    "A finished game again: the same players and rules, the winner starting (201, the new game)",
    {
        201: Reply("the new game: {id, state}", Created),
        400: BAD,
        404: UNKNOWN,
        409: Reply("the game is not finished", Error),
    },
    body=Nothing,
)
def rematch(game_id: int, body: Nothing) -> tuple[Response, int]:
    """The same players and rules again, the winner first (a tie: the first winner)."""
    game = table().load(game_id)
    if not game.finished:
        raise ForbiddenMove("a rematch follows a finished game")
    new_id, new_game = table().new_game(game.setup.again((game.winners() or (0,))[0]))
    response = jsonify({"id": new_id, "state": table().view(new_id, new_game)})
    response.headers["Location"] = f"/api/games/{new_id}"
    return response, 201


# -- seed 003's bluff and board (issue 27) ----------------------------------------------


def seat(player: int | None) -> dict[str, Any]:
    """The player the page believes is moving, when it says: a move out of turn is refused."""
    return {} if player is None else {"player": player}


@bp.post("/games/<int:game_id>/claim")
@operation("poker_bluff: announce a hand strictly higher than the last claim", MOVE, body=Claim)
def claim(game_id: int, body: Claim) -> Response:
    """poker_bluff: announce a hand higher than the last claim."""
    event = {"type": "claim", "hand": body.hand, "ranks": body.ranks} | seat(body.player)
    return state_of(game_id, table().act(game_id, event, body.version))


@bp.post("/games/<int:game_id>/call")
@operation(
    "poker_bluff: call the last claim; the dice are revealed (camera or typed)", MOVE, body=Turn
)
def call(game_id: int, body: Turn) -> Response:
    """poker_bluff: call the last claim; the dice are then revealed to the camera."""
    event = {"type": "call"} | seat(body.player)
    return state_of(game_id, table().act(game_id, event, body.version))


@bp.post("/games/<int:game_id>/judge")
@operation("poker_bluff: accept the revealed dice; the round's loser loses a life", MOVE, body=Move)
def judge(game_id: int, body: Move) -> Response:
    """poker_bluff: accept the revealed dice; the loser of the round loses a life."""
    return state_of(game_id, table().act(game_id, {"type": "judge"}, body.version))


@bp.post("/games/<int:game_id>/place")
@operation("poker_board: place a chip on a free square the dice take", MOVE, body=Square)
def place(game_id: int, body: Square) -> Response:
    """poker_board: a chip on a free square the dice take."""
    event = {"type": "place", "square": body.square} | seat(body.player)
    return state_of(game_id, table().act(game_id, event, body.version))


@bp.post("/games/<int:game_id>/remove")
@operation(
    "poker_board: a straight or full house, once their squares are full, removes an "
    "opponent's chip not in a finished series",
    MOVE,
    body=Square,
)
def remove(game_id: int, body: Square) -> Response:
    """poker_board: a straight or full house takes an opponent's unprotected chip."""
    event = {"type": "remove", "square": body.square} | seat(body.player)
    return state_of(game_id, table().act(game_id, event, body.version))


@bp.post("/games/<int:game_id>/pass")
@operation("poker_board: no square fits the dice: no chip this turn", MOVE, body=Turn)
def pass_turn(game_id: int, body: Turn) -> Response:
    """poker_board: no square fits these dice: no chip this turn."""
    event = {"type": "pass"} | seat(body.player)
    return state_of(game_id, table().act(game_id, event, body.version))


# -- issue 26: the whole-game flow ---------------------------------------------------------


@bp.post("/games/<int:game_id>/rolloff")
@operation(
    "the roll-off: the next contender's throw of all five dice; no body reads the camera",
    MOVE,
    body=Rolloff,
    description=(
        "The highest total starts; players tied for it throw again, only they. A plain "
        "throw before anybody threw for the roll-off skips it (the seating order stands)."
    ),
)
def rolloff(game_id: int, body: Rolloff) -> Response:
    if body.dice is None:
        table().load(game_id)  # 404 before "no camera"
    return state_of(game_id, table().rolloff(game_id, body.dice, body.version))


@bp.post("/games/<int:game_id>/options")
@operation(
    "poker_ru, before part 2's roll-off: change part 2's values and multipliers",
    MOVE,
    body=PartTwoOptions,
)
def part_two_options(game_id: int, body: PartTwoOptions) -> Response:
    event = {"type": "options", "options": body.options}
    return state_of(game_id, table().act(game_id, event, body.version))


@bp.post("/games/<int:game_id>/coach")
@operation("coach mode: hints on (or off) at a table of two or more", MOVE, body=Coach)
def coach(game_id: int, body: Coach) -> Response:
    event = {"type": "coach", "on": body.on}
    return state_of(game_id, table().act(game_id, event, body.version))


@bp.post("/games/<int:game_id>/undo")
@operation("undo the last effective action", MOVE, body=Move)
def undo(game_id: int, body: Move) -> Response:
    return state_of(game_id, table().undo(game_id, body.version))


@bp.get("/games/<int:game_id>/export")
@operation(
    "the game's log as a file: format=json (default) or csv",
    {
        200: Reply("the file"),
        400: Reply("bad format", Error),
        404: UNKNOWN,
    },
    query=Export,
)
def export(game_id: int, query: Export) -> Response:
    """The game's log as a file to keep: ``?format=json`` (default) or ``csv``."""
    text = table().store.export(game_id, query.format)
    mimetype = "text/csv" if query.format == "csv" else "application/json"
    response = Response(text, mimetype=mimetype)
    response.headers["Content-Disposition"] = (
        f'attachment; filename="game-{game_id}.{query.format}"'
    )
    return response


@bp.get("/games/<int:game_id>/events")
@operation(
    "the game's log: each event with seq and time (throws keep photo, reading, confidence)",
    {200: Reply("[{seq, at, event}]"), 404: UNKNOWN},
)
def game_events(game_id: int) -> Response:
    table().load(game_id)
    return jsonify(table().store.events(game_id))


@bp.get("/games/<int:game_id>/hint")
@operation(
    "the strategy's advice for the current throw",
    {
        200: Reply("choices, best first"),
        404: Reply("unknown game, or no hint engine installed", Error),
        409: Reply("no throw yet", Error),
    },
)
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
    if not game.coach:
        raise ForbiddenMove(
            "hints are off at a table of two or more (seed 004): switch coach mode on first"
        )
    if not game.dice or game.finished:
        raise ForbiddenMove("a hint needs dice on the tray: throw first")
    if prepare(ruleset, game.setup.options) is not None:
        raise ForbiddenMove("the hint table is being computed (a minute or so): ask again soon")
    choices = strategy_hint(
        ruleset, game.setup.options, game.sheets[game.player], game.values, game.throw
    )
    return jsonify({"choices": [c.to_dict() | {"text": c.describe()} for c in choices[:3]]})


@bp.get("/games/<int:game_id>/review")
@operation(
    "what each decision of a finished game cost against optimal play",
    {
        200: Reply("per player: points lost in all, every decision priced, the three costliest"),
        404: Reply("unknown game, or a ruleset the strategy does not solve", Error),
        409: Reply("the game is not over, or its table is being computed", Error),
    },
)
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
@operation(
    "each dice set's face counts over every stored camera throw, and a chi-square verdict",
    {200: Reply("one verdict per dice set")},
    query=DiceSet,
)
def fairness(query: DiceSet) -> Response:
    """Each dice set's face counts over every stored camera throw, and the chi-square verdict."""
    from scorer.fairness import table_fairness

    sets = table_fairness(table().store, query.set or None)
    return jsonify({"sets": [f.to_dict() for f in sets]})


# -- the table itself ------------------------------------------------------------------


@bp.get("/table")
@operation(
    "the table itself: camera, reader, busy, last message, pending reading",
    {200: Reply("table status", Table)},
)
def table_status() -> Response:
    return jsonify(table().status.to_dict() | {"current_game": table().current_game_id})


@bp.post("/press")
@operation(
    "a 'throw complete' press for the current game, as the push button (answers at once; "
    "the reading runs in the background)",
    {
        200: Reply(
            "{accepted, table}: accepted false when ignored (reading running, bounce, no camera)"
        ),
        400: BAD,
    },
    body=Nothing,
)
def press(body: Nothing) -> Response:
    """The kiosk's space bar: the same as the push button."""
    accepted = table().press("web")
    return jsonify({"accepted": accepted, "table": table().status.to_dict()})


@bp.post("/camera/region")
@operation(
    "the tray region [x, y, w, h] as fractions of the picture, or null for all of it",
    {200: Reply("{region}"), 400: BAD},
    body=Region,
)
def camera_region(body: Region) -> Response:
    table().set_region(body.region)
    return jsonify({"region": table().region})


@bp.post("/camera/read")
@operation(
    "capture and read without touching any game (the camera page's test read)",
    {
        200: Reply(
            "{dice: [{value, face, confidence, box, rank?}], unsure, ms, size, die_px, small}"
        ),
        400: BAD,
        409: FORBIDDEN,
    },
    body=Nothing,
)
def camera_read(body: Nothing) -> Response:
    return jsonify(table().test_read())
