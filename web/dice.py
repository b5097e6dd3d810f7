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
from web.openapi import BAD, Reply, operation
from web.refusals import translate
from web.schema import DiceSetName, DiceSetRanks, Error, Lesson, Nothing

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
    return jsonify({"error": type(err).__name__, "message": translate(str(err))}), status


UNKNOWN_SET = Reply("no such set of dice", Error)
SUMMARY = Reply(
    '{set, name, kind, faces: {"pips:6": n, ...}, crops, reads: [{photo, dice}], '
    "size: {side, frame: [w, h], used} | null, problem, ranks, rank_labels}"
)


@bp.get("")
@operation(
    "the table's sets of dice (issue 24) and the one the last game used",
    {200: Reply("{sets: [{id, name, taught, problem, ranks}], chosen}")},
)
def listing() -> Response:
    return jsonify({"sets": sets().list(), "chosen": sets().chosen})


@bp.post("")
@operation(
    "a new set of dice by name (the same name: the same set); it becomes the chosen one",
    {200: Reply("{set, sets, chosen}"), 400: BAD},
    body=DiceSetName,
)
def create(body: DiceSetName) -> Response:
    set_id = sets().create(body.name, body.ranks)
    return jsonify({"set": set_id, "sets": sets().list(), "chosen": sets().chosen})


@bp.post("/<set_id>/ranks")
@operation(
    "the letters the set's poker dice print (latin 9 10 J Q K A, cyrillic 9 10 В Д К Т): "
    "every page then draws its games' dice so; games and the API keep values 1..6",
    {200: Reply("{set, ranks, rank_labels, sets}"), 400: BAD, 404: UNKNOWN_SET},
    body=DiceSetRanks,
)
def ranks(set_id: str, body: DiceSetRanks) -> Response:
    sets().set_ranks(set_id, body.ranks)
    table().publish()  # the game on the table may be played with this set
    return jsonify(
        {
            "set": set_id,
            "ranks": sets().ranks(set_id),
            "rank_labels": list(sets().labels(set_id)),
            "sets": sets().list(),
        }
    )


@bp.get("/<set_id>")
@operation(
    "what a set of dice has been taught, and how it reads its taught photos now",
    {200: SUMMARY, 404: UNKNOWN_SET},
)
def summary(set_id: str) -> Response:
    return jsonify(table().lessons.summary(set_id))


@bp.post("/<set_id>/lesson")
@operation(
    "photograph the tray and read it as the set reads now, for the player to fix and confirm",
    {
        200: Reply(
            "{lesson, photo, size: [w, h], dice: [{value, face, confidence, box, rank, guess}], "
            "kind, threshold}"
        ),
        400: BAD,
        404: UNKNOWN_SET,
        409: Reply("no camera, or a reading is running", Error),
    },
    body=Nothing,
)
def lesson(set_id: str, body: Nothing) -> Response:
    return jsonify(table().lesson(set_id))


@bp.post("/<set_id>/teach")
@operation(
    "teach the set a lesson's dice as the player named them (a missed die by x, y on the photo)",
    {
        200: SUMMARY,
        400: Reply("a bad die, a lesson no longer kept, or values of the other dice kind", Error),
        404: UNKNOWN_SET,
    },
    body=Lesson,
)
def teach(set_id: str, body: Lesson) -> Response:
    dice = [die.model_dump() for die in body.dice]
    return jsonify(table().lessons.teach(set_id, body.lesson, dice, body.kind))


@bp.post("/<set_id>/forget")
@operation(
    "forget everything the set was taught (the set stays)",
    {200: SUMMARY, 400: BAD, 404: UNKNOWN_SET},
    body=Nothing,
)
def forget(set_id: str, body: Nothing) -> Response:
    return jsonify(table().lessons.forget(set_id))
