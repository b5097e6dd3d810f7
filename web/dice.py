"""The table's sets of dice over JSON: list and create them, teach one on /camera, forget.

``/api/dice-sets``: a lesson photographs the tray and reads it as the set reads now;
the player fixes what was read wrong, taps dice it missed, and the confirmed lesson
teaches the set (``scorer.vision.profile``). Writes pass the app's pairing guard like
every other change.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify

from scorer.dice_sets import UnknownDiceSet
from scorer.errors import ForbiddenMove, ScorerError
from web.api import BadRequest, body, text

bp = Blueprint("dice", __name__, url_prefix="/api/dice-sets")


def table() -> Any:
    return current_app.config["TABLE"]


def sets() -> Any:
    found = table().dice_sets
    if found is None:
        raise ScorerError("this table keeps no sets of dice")
    return found


@bp.errorhandler(ScorerError)
def scorer_error(err: ScorerError) -> tuple[Response, int]:
    status = (
        404 if isinstance(err, UnknownDiceSet) else 409 if isinstance(err, ForbiddenMove) else 400
    )
    return jsonify({"error": type(err).__name__, "message": str(err)}), status


@bp.get("")
def listing() -> Response:
    return jsonify({"sets": sets().list(), "chosen": sets().chosen})


@bp.post("")
def create() -> Response:
    set_id = sets().create(text(body(), "name"))
    return jsonify({"set": set_id, "sets": sets().list(), "chosen": sets().chosen})


@bp.get("/<set_id>")
def summary(set_id: str) -> Response:
    return jsonify(table().dice_set_summary(set_id))


@bp.post("/<set_id>/lesson")
def lesson(set_id: str) -> Response:
    body()
    return jsonify(table().lesson(set_id))


@bp.post("/<set_id>/teach")
def teach(set_id: str) -> Response:
    data = body()
    dice = data.get("dice")
    if not isinstance(dice, list) or not all(isinstance(d, dict) for d in dice):
        raise BadRequest("dice is a list of {box | x, y, value, read}")
    for die in dice:
        box = die.get("box")
        if box is not None and (
            not isinstance(box, list) or len(box) != 4 or not all(_number(v) for v in box)
        ):
            raise BadRequest("a die's box is [x, y, w, h] in pixels")
        if box is None and not (_number(die.get("x")) and _number(die.get("y"))):
            raise BadRequest("a die the reader missed is given by x and y on the photo")
    kind = data.get("kind", "pips")
    return jsonify(table().teach_lesson(set_id, text(data, "lesson"), dice, kind))


@bp.post("/<set_id>/forget")
def forget(set_id: str) -> Response:
    body()
    return jsonify(table().forget_dice_set(set_id))


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
