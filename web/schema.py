"""The API's requests and answers as pydantic models: the one description of the API.

A route names its body model (``@operation(body=Hold)`` in :mod:`web.openapi`); the
model checks the request, and the same model's JSON Schema is what ``/api/openapi.json``
shows, so the two cannot drift apart. The models check types and shapes, strictly
(``true`` is no integer, ``"3"`` no number); the values belong to the game (a known
cell, a die 1..6, a ruleset's options) and are checked once, in :mod:`scorer`, which
names the problem. A refused body is a 400 ``{error, message}`` whose message says what
was expected, as the pages and scripts have always been told.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, ClassVar, Literal, NamedTuple, Self

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    WithJsonSchema,
    model_validator,
)

from scorer.dice import CARD_RANKS, CYRILLIC_RANKS, RANK_SCRIPTS, parse_die
from scorer.dice_sets import BAD_RANKS, check_ranks
from scorer.errors import BadDice, ScorerError
from scorer.game import DICE_KINDS, MAX_NAME, MAX_PLAYERS, TIMER_CHOICES, Setup
from scorer.rules import RULESET_IDS
from scorer.rules.poker_bluff import DEFINING as CLAIMED


class BadRequest(ScorerError):
    """The request itself is malformed (not JSON, wrong types)."""


class Problem(NamedTuple):
    """What to answer for a wrong field: the error and its message (``{value!r}``: what came)."""

    error: type[ScorerError]
    message: str


def json_object(raw: bytes) -> dict[str, Any]:
    """A request's JSON object; an empty body is an empty object."""
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as err:
        raise BadRequest(f"the body is not JSON: {err}") from err
    if not isinstance(data, dict):
        raise BadRequest('the body is a JSON object, e.g. {"cell": "twos"}')
    return data


class Body(BaseModel):
    """A JSON object sent to the API; keys it does not know are ignored."""

    model_config = ConfigDict(strict=True, extra="ignore")

    #: the answer for a field that is wrong, or (``missing``) absent; else a generic 400
    problems: ClassVar[dict[str, Problem]] = {}
    missing: ClassVar[dict[str, Problem]] = {}

    @classmethod
    def check(cls, data: dict[str, Any]) -> Self:
        """The model of ``data``, or the game's error naming the first thing wrong."""
        try:
            return cls.model_validate(data)
        except ValidationError as err:
            raise cls._problem(err, data) from None

    @classmethod
    def _problem(cls, err: ValidationError, data: dict[str, Any]) -> ScorerError:
        first = err.errors()[0]
        cause = (first.get("ctx") or {}).get("error")
        if isinstance(cause, ScorerError):  # the game's own check (parse_die...) said why
            return cause
        field = str(first["loc"][0]) if first["loc"] else ""
        problem = (cls.missing if first["type"] == "missing" else {}).get(field) or (
            cls.problems.get(field)
        )
        if problem is None:
            return BadRequest(f"{field}: {first['msg']}" if field else first["msg"])
        return problem.error(problem.message.replace("{value!r}", repr(data.get(field))))


# -- what moves are made of ------------------------------------------------------------

VERSION = Problem(BadRequest, "version is the integer the state carried")
CELL = Problem(BadRequest, "cell is a non-empty string, not {value!r}")

Version = Annotated[
    int | None,
    Field(description="the state's version the client saw; a stale one gives 409 StaleState"),
]
Cell = Annotated[str, Field(min_length=1)]
#: Cyrillic poker dice's letters as the Latin ranks the game reads (В=J, Д=Q, К=K, Т=A):
#: a table whose dice print В Д К Т types what it sees.
_LATIN_RANK = dict(zip(CYRILLIC_RANKS, CARD_RANKS, strict=True))


def read_die(token: Any) -> int:
    """A die as a person writes it, Cyrillic letters too; the game's own
    :func:`scorer.dice.parse_die` reads it (and names a bad one as it always has)."""
    if isinstance(token, str):
        token = _LATIN_RANK.get(token.strip().upper(), token)
    return parse_die(token)


#: A die as a person writes it: 1..6, 9 10 J Q K A, or 9 10 В Д К Т (either case).
Die = Annotated[
    Any,
    AfterValidator(read_die),
    WithJsonSchema(
        {
            "oneOf": [
                {"type": "integer", "minimum": 1, "maximum": 6},
                {
                    "type": "string",
                    "enum": list(dict.fromkeys((*CARD_RANKS, *CYRILLIC_RANKS))),
                    "description": "a poker die's rank: 9 10 J Q K A, or В Д К Т as "
                    "Cyrillic dice print them (lower case too)",
                },
            ]
        }
    ),
]


def _enum(values: Any) -> dict[str, Any]:
    return {"json_schema_extra": {"enum": list(values)}}


class Nothing(Body):
    """Any JSON object (or no body): the request carries nothing but itself."""


class Move(Body):
    """A move that needs nothing but the version the client saw (undo, extra round)."""

    version: Version = None
    problems = {"version": VERSION}


class Throw(Body):
    """Dice typed in by hand; without them the camera takes the throw, as the button does."""

    dice: (
        Annotated[
            list[Die],
            Field(
                min_length=1,
                description="all dice (held ones at their held values) or only the thrown ones",
            ),
        ]
        | None
    ) = None
    version: Version = None
    problems = {
        "dice": Problem(BadDice, "dice: a list of values, e.g. [4, 4, 2, 3, 5]"),
        "version": VERSION,
    }


class Rolloff(Body):
    """Issue 26: a roll-off throw typed in; without dice the camera takes it, as the button does."""

    dice: (
        Annotated[list[Die], Field(min_length=1, description="all five dice of the roll-off")]
        | None
    ) = None
    version: Version = None
    problems = {
        "dice": Problem(BadDice, "dice: all five dice of the roll-off, e.g. [6, 6, 4, 2, 2]"),
        "version": VERSION,
    }


class PartTwoOptions(Body):
    """Issue 26: what a poker_ru table changes before part 2's roll-off."""

    options: Annotated[
        dict[str, Any],
        Field(
            min_length=1,
            description='part 2\'s values and multipliers, e.g. {"multipliers": "off"}',
        ),
    ]
    version: Version = None
    problems = {
        "options": Problem(
            BadRequest, 'options is an object, e.g. {"options": {"multipliers": "off"}}'
        ),
        "version": VERSION,
    }
    missing = problems


class Coach(Body):
    """Issue 26: coach mode (hints) switched on or off at a table of two or more."""

    on: bool
    version: Version = None
    problems = {
        "on": Problem(BadRequest, 'on is true or false, e.g. {"on": true}'),
        "version": VERSION,
    }
    missing = problems


class Correction(Body):
    """A die of the current throw as it really lies."""

    value: Die
    version: Version = None
    problems = {
        "value": Problem(BadDice, "a die shows 1..6 (or 9, 10, J, Q, K, A), not {value!r}"),
        "version": VERSION,
    }
    missing = {"value": Problem(BadRequest, 'value is the die as it lies, e.g. {"value": 6}')}


class Missed(Body):
    """A die the camera missed, tapped where it lies on the waiting reading's photo."""

    x: Annotated[float, Field(description="the tap's place on the photo, in its pixels")]
    y: Annotated[float, Field(description="the tap's place on the photo, in its pixels")]
    value: Annotated[int, Field(json_schema_extra={"minimum": 1, "maximum": 6})]
    version: Version = None
    problems = {
        "x": Problem(BadRequest, "x and y are the tap's place on the photo, in its pixels"),
        "y": Problem(BadRequest, "x and y are the tap's place on the photo, in its pixels"),
        "value": Problem(BadRequest, "value is an integer, not {value!r}"),
        "version": VERSION,
    }


class Hold(Body):
    """The dice kept before the next throw, by index."""

    held: list[int]
    version: Version = None
    problems = {
        "held": Problem(BadRequest, 'held is a list of dice indexes, e.g. {"held": [0, 1]}'),
        "version": VERSION,
    }


class CellMove(Body):
    """A move on one cell of the sheet (write, scratch, commit)."""

    cell: Cell
    version: Version = None
    problems = {"cell": CELL, "version": VERSION}


PLAYER = Problem(BadRequest, "player is an integer, not {value!r}")
Player = Annotated[
    int | None,
    Field(description="the seat the page believes is moving; another seat's move is refused (409)"),
]


class Turn(Body):
    """A move of the seat the page believes is moving (poker_bluff's call, poker_board's pass)."""

    player: Player = None
    version: Version = None
    problems = {"player": PLAYER, "version": VERSION}


class Claim(Body):
    """poker_bluff: a hand announced, higher than the last claim."""

    ranks: Annotated[
        list[Die],
        Field(
            description=(
                "the ranks named, larger group first: [5, 1] is a full house K over 9; "
                "kickers may be left out"
            )
        ),
    ]
    hand: Annotated[str, Field(min_length=1, **_enum(reversed(CLAIMED)))]
    player: Player = None
    version: Version = None
    problems = {
        "ranks": Problem(
            BadRequest, 'ranks is a list of values, e.g. {"hand": "full_house", "ranks": [5, 1]}'
        ),
        "hand": Problem(BadRequest, "hand is a non-empty string, not {value!r}"),
        "player": PLAYER,
        "version": VERSION,
    }


class Square(Body):
    """poker_board: a square of the 9x9 board."""

    square: Annotated[
        int, Field(description="0..80, row by row from the top left; 40 is the free centre")
    ]
    player: Player = None
    version: Version = None
    problems = {
        "square": Problem(BadRequest, "square is an integer, not {value!r}"),
        "player": PLAYER,
        "version": VERSION,
    }


#: The letters a set of poker dice prints (``scorer.dice_sets.RANK_SCRIPTS``).
Ranks = Annotated[
    str,
    AfterValidator(check_ranks),
    Field(
        description="the letters the set's poker dice print: latin 9 10 J Q K A, "
        "cyrillic 9 10 В Д К Т (what the pages draw; the API keeps values 1..6)",
        **_enum(RANK_SCRIPTS),
    ),
]
RANKS = Problem(ScorerError, BAD_RANKS + ", not {value!r}")


class DiceSetName(Body):
    """A new set of dice, by name (the same name: the same set), and the letters its poker
    dice print (none: a new set's are Latin, a known set's stay as they are)."""

    name: Annotated[str, Field(min_length=1)]
    ranks: Ranks | None = None
    problems = {
        "name": Problem(BadRequest, "name is a non-empty string, not {value!r}"),
        "ranks": RANKS,
    }


class DiceSetRanks(Body):
    """The letters a set's poker dice print, chosen where the set is chosen."""

    ranks: Ranks
    problems = {"ranks": RANKS}
    missing = {"ranks": RANKS}


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


class TaughtDie(BaseModel):
    """A die of a lesson as the player settled it: its box as read, or x, y where the
    reader missed it; its value (0 on a box: no die there, taught as such); the value
    read, if any (the set checks the values)."""

    model_config = ConfigDict(strict=True, extra="allow")

    box: Annotated[list[float] | None, Field(min_length=4, max_length=4)] = None
    x: float | None = None
    y: float | None = None
    value: Annotated[Any, WithJsonSchema({"type": "integer", "minimum": 0, "maximum": 6})] = None
    read: Annotated[Any, WithJsonSchema({"type": ["integer", "null"]})] = None

    @model_validator(mode="before")
    @classmethod
    def _placed(cls, die: Any) -> Any:
        if not isinstance(die, dict):
            raise BadRequest(TAUGHT_DICE)
        box = die.get("box")
        if box is not None and (
            not isinstance(box, list) or len(box) != 4 or not all(_number(v) for v in box)
        ):
            raise BadRequest("a die's box is [x, y, w, h] in pixels")
        if box is None and not (_number(die.get("x")) and _number(die.get("y"))):
            raise BadRequest("a die the reader missed is given by x and y on the photo")
        return die


TAUGHT_DICE = "dice is a list of {box | x, y, value, read}"


class Lesson(Body):
    """A lesson's dice as the player named them, to teach a set."""

    dice: list[TaughtDie]
    kind: Annotated[Any, WithJsonSchema({"type": "string", "enum": ["pips", "card"]})] = "pips"
    lesson: Annotated[str, Field(min_length=1)]
    problems = {
        "dice": Problem(BadRequest, TAUGHT_DICE),
        "lesson": Problem(BadRequest, "lesson is a non-empty string, not {value!r}"),
    }


class Region(Body):
    """Where the tray lies in the picture."""

    region: Annotated[
        list[float] | None,
        Field(description="[x, y, w, h] as fractions of the picture; null: all of it"),
    ] = None
    problems = {
        "region": Problem(BadRequest, "region is [x, y, w, h] as fractions of the picture, or null")
    }


class Export(Body):
    """The query of an export."""

    format: Literal["json", "csv"] = "json"
    problems = {"format": Problem(BadRequest, "format is json or csv")}


class DiceSet(Body):
    """The query of the fairness check: one dice set, or (none) every set."""

    set: Annotated[str | None, Field(description="the dice set's name; none: every set")] = None


class NewGame(Body):
    """A game to start; the rules check what the values mean (:class:`scorer.game.Setup`)."""

    ruleset: Annotated[str, Field(**_enum(RULESET_IDS))]
    players: Annotated[
        list[str],
        Field(
            json_schema_extra={
                "minItems": 1,
                "maxItems": MAX_PLAYERS,
                "items": {"type": "string", "maxLength": MAX_NAME},
            }
        ),
    ]
    options: Annotated[
        dict[str, Any],
        BeforeValidator(lambda value: value or {}),  # null, or nothing: the rules as written
        Field(description="the table's agreements: KEY: VALUE, as `/api/rulesets` lists"),
    ] = {}
    timer: Annotated[int | None, Field(**_enum((None, *TIMER_CHOICES)))] = None
    dice: Annotated[str, Field(**_enum(DICE_KINDS))] = "pips"
    dice_set: Annotated[
        str | None,
        Field(
            min_length=1,
            description="the id of one of the table's sets of dice (`/api/dice-sets`), or null",
        ),
    ] = None
    rolloff: Annotated[
        bool | None,
        Field(description="issue 26: a roll-off decides who starts; null: on in poker_ru only"),
    ] = None
    hints: Annotated[
        bool | None,
        Field(description="issue 26: hints (coach mode); null: on for one player only"),
    ] = None
    problems = {
        "rolloff": Problem(
            ScorerError, "rolloff is true, false or null (the default), not {value!r}"
        ),
        "hints": Problem(ScorerError, "hints is true, false or null (the default), not {value!r}"),
        "ruleset": Problem(ScorerError, "a game setup needs a ruleset id (text)"),
        "players": Problem(ScorerError, "players is a list of names"),
        "options": Problem(ScorerError, "options is an object of KEY: VALUE"),
        "timer": Problem(ScorerError, "timer is a number of seconds or null"),
        "dice": Problem(ScorerError, "dice is pips, cards or auto"),
        "dice_set": Problem(
            ScorerError, "dice_set is the id of one of the table's sets of dice, or null"
        ),
    }

    def setup(self) -> Setup:
        """The game's setup, read as the game reads a new one (its values, names...)."""
        return Setup.from_dict(self.model_dump())


# -- answers (described, not checked: the game builds them) ------------------------------


class Answer(BaseModel):
    """An answer's shape as the pages read it; it may carry more keys than are named."""

    model_config = ConfigDict(extra="allow")


class Table(Answer):
    """The table itself: camera, reader, the last message, a reading waiting for dice."""

    camera: Annotated[str, Field(**_enum(("ok", "none", "failed")))]
    camera_message: str
    reader: str
    busy: bool
    message: str
    message_id: int
    pending: dict[str, Any] | None
    current_game: int | None = None


class DieShown(Answer):
    """A die on the tray as the pages draw it."""

    value: int
    confidence: float | None = None
    held: bool
    corrected: bool
    unsure: bool
    rank: str | None = None
    box: Annotated[
        list[int] | None,
        Field(
            min_length=4,
            max_length=4,
            description=(
                "where the die lies on the throw's photo, [x, y, w, h] in its pixels; null "
                "when typed in (or a held die this photo does not show)"
            ),
        ),
    ] = None


class Timer(Answer):
    seconds: int
    deadline: float | None = None
    remaining: float | None = None


class State(Answer):
    """The whole game as the pages draw it."""

    id: int
    version: int
    ruleset: str
    options: dict[str, Any]
    dice_kind: str
    ranks: Annotated[
        str,
        Field(
            description="the letters the game's set of dice prints (latin without a set)",
            **_enum(RANK_SCRIPTS),
        ),
    ] = "latin"
    rank_labels: Annotated[
        list[str],
        Field(
            min_length=6,
            max_length=6,
            description=(
                "what the pages draw on a poker die of value 1..6: 9 10 J Q K A, or "
                "9 10 В Д К Т for a set printing Cyrillic; dice[].rank stays Latin"
            ),
        ),
    ] = list(CARD_RANKS)
    ruleset_info: dict[str, Any]
    players: list[str]
    current_player: int
    throw: int
    throws_allowed: int
    dice: list[DieShown]
    photo: Annotated[
        str | None,
        Field(description="the URL of the current throw's JPEG; null when the dice were typed in"),
    ] = None
    unsure: list[int]
    sheet: list[dict[str, Any]]
    bonuses: list[Any]
    totals: list[Any]
    scores: dict[str, Any]
    committed: str | None = None
    needs_commit: bool
    round: int
    finished: bool
    winners: list[Any]
    settlement: Annotated[
        dict[str, Any] | None,
        Field(
            description=(
                "poker_ru, poker_ua when finished: results (total - average, rounded to 0.01, "
                "summing to 0) and transfers [{from, to, amount}], the fewest that settle it"
            )
        ),
    ] = None
    rolloff: Annotated[
        dict[str, Any] | None,
        Field(
            description="the roll-off: pending, part, contenders, next, log [{part, player, total}]"
        ),
    ] = None
    coach: Annotated[bool, Field(description="hints are on at this table (coach mode)")] = False
    strike_costs: Annotated[
        dict[str, Any],
        Field(
            description=(
                "cell -> {points, bonus} a strike there throws away, or {points, bonus, "
                "instead: {cell, points, bonus}} where the rules send the dice elsewhere"
            )
        ),
    ] = {}
    timer: Timer | None = None
    last_throw_seq: int | None = None
    can_undo: bool
    table: Table


class Created(Answer):
    """A new game: its id and its state."""

    id: int
    state: State


class Error(Answer):
    """Every refusal: the error's name and a message that names the problem."""

    error: Annotated[
        str,
        Field(
            examples=[
                "BadDice",
                "UnknownCell",
                "ForbiddenMove",
                "StaleState",
                "UnknownGame",
                "BadRequest",
            ]
        ),
    ]
    message: str
    state: Annotated[State | None, Field(description="with StaleState: the fresh state")] = None
