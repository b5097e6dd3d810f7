"""The pages: kiosk ``/``, phone ``/play``, ``/setup``, ``/camera`` and ``/history``.

Pages are server-rendered Jinja with the current state embedded; one small
script (``static/app.js``) re-renders the live parts from each SSE event. All
changes go through the JSON API, never through page forms.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    make_response,
    render_template,
    request,
    send_from_directory,
)
from flask_babel import get_locale
from flask_babel import gettext as _

from scorer.dice import RANK_SCRIPTS, check_value
from scorer.dice_sets import rank_labels
from scorer.errors import ScorerError
from scorer.framing import SMALL_DIE_PX
from web import refusals, seed003
from web.language import LANGUAGES
from web.names import (
    BONUS_NAMES,
    CELL_NAMES,
    RULESET_CELL_NAMES,
    RULESET_NAMES,
    option_name,
    ruleset_name,
    switch_text,
)
from web.pairing import phone_base

bp = Blueprint("pages", __name__)


def table() -> Any:
    return current_app.config["TABLE"]


def strings() -> dict[str, Any]:
    """Every word the script draws, in the page's language."""
    return {
        "cells": {cell: str(name) for cell, name in CELL_NAMES.items()},
        "ruleset_cells": {
            r: {c: str(n) for c, n in names.items()} for r, names in RULESET_CELL_NAMES.items()
        },
        "bonuses": {b: str(n) for b, n in BONUS_NAMES.items()},
        "round_n": _("Round %(n)s", n="{n}"),
        "missed_die": _("A die the camera missed"),
        "ranks_saved": _("These dice now show %(labels)s on every page.", labels="{labels}"),
        "missed_note": _("Which face is up? It joins the dice the camera saw."),
        "throw_n": _("Throw %(n)s of %(of)s", n="{n}", of="{of}"),
        "throw_none": _("Throw the dice"),
        "round": _("Round"),
        "total": _("Total"),
        "write": _("Write"),
        "strike": _("Strike"),
        "commit": _("Commit"),
        "stand": _("Stand on this hand"),
        "hold": _("Hold"),
        "release": _("Release"),
        "held": _("held"),
        "confirm": _("Confirm"),
        "tap_to_confirm": _("tap to confirm"),
        "tap_photo": _("Tap a die on the photo to correct it"),
        "tap_missed": _("Tap the photo where a missed die lies"),
        "erase": _("Erase the last die"),
        # an unsure die's second guess: "or K?"
        "or_face": _("or %(face)s?", face="{face}"),
        "pick_cell": _("Tap a cell to write"),
        "die_n": _("Die %(n)s", n="{n}"),
        "its_turn": _("%(name)s's turn", name="{name}"),
        "winner": _("Winner"),
        "winners": _("Game over. Winner: %(names)s", names="{names}"),
        "no_game": _("No game yet: open Setup to start one."),
        "reading": _("Reading the dice..."),
        "typed_hint": _("Type the dice, e.g. 44235"),
        "type_dice": _("Type dice"),
        "settlement": _("Settlement"),
        "time_up": _("Time is up"),
        "hands": {
            "five_of_a_kind": _("Five of a kind"),
            "four_of_a_kind": _("Four of a kind"),
            "full_house": _("Full house"),
            "straight": _("Straight"),
            "three_of_a_kind": _("Three of a kind"),
            "two_pairs": _("Two pairs"),
            "pair": _("Pair"),
            "high_card": _("High card"),
        },
        "camera_none": _("No camera: type the dice in."),
        "camera_problem": _(
            "Camera problem: %(problem)s. Type the dice in meanwhile.", problem="{problem}"
        ),
        "camera_ok": _("Camera: %(name)s", name="{name}"),
        "die_px": _("dice about %(px)s px across", px="{px}"),
        "dice_small": _(
            "The dice are only about %(px)s px across; below %(least)s px the reader misses "
            "more of them. Bring the camera closer or zoom in.",
            px="{px}",
            least=int(SMALL_DIE_PX),
        ),
        "no_reader": _("Camera: %(name)s, but no dice reader: type the dice in.", name="{name}"),
        "pending": _(
            "Saw %(seen)s dice, expected %(expected)s: check the dice and type them in.",
            seen="{seen}",
            expected="{expected}",
        ),
        "pending_over": _(
            "Saw %(seen)s dice, expected %(expected)s: the least sure left out (crossed out on "
            "the photo). Check the dice and confirm.",
            seen="{seen}",
            expected="{expected}",
        ),
        "pending_no_die": _(
            "Die %(n)s is no die: tap where the missed die lies on the photo, or type the dice in.",
            n="{n}",
        ),
        "left_out": _("left out"),
        "stale": _(
            "This screen was behind: the game had moved on. Here it is now; nothing was changed."
        ),
        "offline": _("Connection lost: reconnecting..."),
        # -- issue 25 -------------------------------------------------------------------
        "lines": refusals.for_pages(),
        "pending_held": _(
            "Held dice not seen: %(dice)s. Check the dice and type them in.", dice="{dice}"
        ),
        "die_held_at": _("die %(n)s (%(value)s)", n="{n}", value="{value}"),
        "committed_to": _("Committed: %(cell)s", cell="{cell}"),
        "banked": _("%(n)s banked throws", n="{n}"),
        "part_one": _("Part 1"),
        "upper_sum": _("Upper total"),
        "to_premium": _("%(n)s to the premium", n="{n}"),
        "to_bonus": _("%(n)s to the bonus", n="{n}"),
        "rematch": _("Rematch"),
        "new_game": _("New game"),
        "pair_phone": _("Pair this phone"),
        "round_hands": _("Round %(n)s hands", n="{n}"),
        "button_stuck": _("Button stuck: throw from the screen."),
        "hint": _("Hint"),
        "rethrow_all": _("re-throw all"),
        "rulesets": {r: ruleset_name(r) for r in RULESET_NAMES},
        # issue 26: the whole-game flow
        "rolloff_turn": _("Roll-off for the first move: %(name)s throws", name="{name}"),
        "rolloff_part2": _("Roll-off before part 2: %(name)s throws", name="{name}"),
        "rolloff_how": _("All five dice: the highest total starts"),
        "rolloff_tie": _("Tie: only %(names)s throw again", names="{names}"),
        "extra_round": _("Extra round"),
        "multipliers_on": _("Multipliers x3/x2: on (tap to turn off)"),
        "multipliers_off": _("Multipliers x3/x2: off (tap to turn on)"),
        "part_two_values": _("Part 2: points of each combination"),
        "save_values": _("Save the points"),
        "misses_turn": _(
            "%(names)s will miss the next turn (a failed combination)", names="{names}"
        ),
        "coach": _("Coach mode: hints on"),
        "coach_on": _("Coach mode"),
        "coach_off": _("Hints off"),
        "pays": _(
            "%(payer)s pays %(payee)s %(amount)s",
            payer="{payer}",
            payee="{payee}",
            amount="{amount}",
        ),
        "strike_cost": _(
            "Strike %(cell)s? %(dice)s would score %(points)s there",
            cell="{cell}",
            dice="{dice}",
            points="{points}",
        ),
        "strike_instead": _(
            "Strike %(cell)s? %(dice)s would score %(points)s in %(other)s",
            cell="{cell}",
            dice="{dice}",
            points="{points}",
            other="{other}",
        ),
        "strike_bonus": _("and the +%(bonus)s bonus", bonus="{bonus}"),
        # The table speaks English (it imports no Flask); the page translates its lines.
        "messages": {
            "Still reading the dice: press ignored.": _("Still reading the dice: press ignored."),
            "Reading the dice...": _("Reading the dice..."),
            "No camera: type the dice in.": _("No camera: type the dice in."),
            "Time is up: the best cell was written.": _("Time is up: the best cell was written."),
            "Time is up: confirm the dice, then write.": _(
                "Time is up: confirm the dice, then write."
            ),
            "No game at the table: start one on the setup page.": _(
                "No game at the table: start one on the setup page."
            ),
        },
    }


def initial_state() -> dict[str, Any] | None:
    try:
        current = table().current()
    except ScorerError:
        return None
    if current is None:
        return None
    return table().view(*current)


def render_table_page(template: str, page: str) -> str:
    state = initial_state()
    if state and state["ruleset"] in seed003.RULESETS:  # issue 27: a table of their own
        return seed003.render(page, state, strings(), table().status.to_dict())
    return render_template(
        template,
        page=page,
        state=state,
        strings=strings(),
        table_status=table().status.to_dict(),
        ruleset_title=ruleset_name(state["ruleset"]) if state else "",
        phone_url=phone_base() + "/play",
    )


@bp.after_app_request
def remember_language(response: Response) -> Response:
    lang = request.args.get("lang")
    if lang in LANGUAGES:
        response.set_cookie("lang", lang, max_age=3600 * 24 * 365, samesite="Lax")
    return response


@bp.app_context_processor
def page_globals() -> dict[str, Any]:
    return {
        "locale": str(get_locale() or "en"),
        "ruleset_name": ruleset_name,
        "switch_text": switch_text,
        "option_name": option_name,
    }


@bp.get("/")
def kiosk() -> str:
    return render_table_page("kiosk.html", "kiosk")


@bp.get("/play")
def play() -> str:
    return render_table_page("play.html", "play")


@bp.get("/setup")
def setup() -> str:
    from scorer.game import DICE_KINDS, MAX_NAME, MAX_PLAYERS, TIMER_CHOICES
    from scorer.rules import RULESET_IDS, get_ruleset
    from web.names import choice_name, option_help, option_name

    rulesets = [get_ruleset(r).describe() for r in RULESET_IDS]
    unfinished = [g for g in table().store.games() if not g.get("finished")][:8]
    sets = table().dice_sets
    return render_template(
        "setup.html",
        page="setup",
        dice_sets=sets.list() if sets is not None else [],
        chosen_set=sets.chosen if sets is not None else None,
        rank_scripts=rank_scripts(),
        rulesets=rulesets,
        dice_kinds=DICE_KINDS,
        timers=TIMER_CHOICES,
        max_players=MAX_PLAYERS,
        max_name=MAX_NAME,
        option_name=option_name,
        option_help=option_help,
        choice_name=choice_name,
        unfinished=unfinished,
        strings=strings(),
    )


@bp.get("/camera")
def camera() -> str:
    sets = table().dice_sets
    summary = None
    if sets is not None and sets.chosen is not None:
        try:
            summary = table().lessons.summary(sets.chosen, reread=False)  # teach.js asks
        except ScorerError:
            summary = None
    return render_template(
        "camera.html",
        page="camera",
        strings=strings(),
        table_status=table().status.to_dict(),
        region=table().region,
        live=bool(getattr(table().camera, "live", False)),
        dice_sets=sets.list() if sets is not None else None,
        chosen_set=sets.chosen if sets is not None else None,
        teach_summary=summary,
        teach_strings=teach_strings(),
        rank_scripts=rank_scripts(),
    )


def rank_scripts() -> list[dict[str, Any]]:
    """The choices of the letters a set's poker dice print, as /setup and /camera offer
    them: each shown as the six faces themselves, which a player matches to the dice."""
    return [{"id": key, "labels": list(labels)} for key, labels in RANK_SCRIPTS.items()]


def teach_strings() -> dict[str, str]:
    """The words of /camera's "Teach my dice" script, in the page's language."""
    return {
        "untaught": _("Not taught yet."),
        "faces": _("Faces seen: %(faces)s", faces="{faces}"),
        "not_dice": _("Spots taught as no die: %(count)s", count="{count}"),
        "reads": _("Reads now on the taught photos: %(reads)s", reads="{reads}"),
        "size_used": _(
            "The dice look %(side)s px across: photos are read at their size.", side="{side}"
        ),
        "size_unused": _(
            "The dice look %(side)s px across, but the taught photos read better without "
            "their size: it is not used.",
            side="{side}",
        ),
        "sureness": _(
            "Read as if untaught, the taught photos had %(wrong)s of %(sure)s sure dice wrong: "
            "these dice are now read less surely, and more of them are asked about.",
            wrong="{wrong}",
            sure="{sure}",
        ),
        "problem": _("These dice read untaught: %(problem)s", problem="{problem}"),
        "missed": _("missed die"),
        "read_as": _("read as %(value)s", value="{value}"),
        "choose": _("value?"),
        "no_die": _("no die here"),
        "forget": _("Forget everything these dice were taught?"),
        "name_first": _("Give the new set a name."),
        "all_values": _("Choose a value for every die."),
    }


@bp.get("/camera/preview.jpg")
def camera_preview() -> Response:
    jpeg = table().preview_jpeg()
    if jpeg is None:
        abort(404)
    response = make_response(jpeg)
    response.headers["Content-Type"] = "image/jpeg"
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/history")
def history() -> str:
    from scorer.fairness import table_fairness

    games = table().store.games()
    return render_template(
        "history.html",
        page="history",
        games=games,
        fairness=table_fairness(table().store),
        fairness_line=fairness_line,
        set_name=dice_set_name,
        set_faces=set_faces,
        strings=strings(),
    )


@bp.get("/history/download")
def download_everything() -> Response:
    """The whole database as one SQLite file: a consistent copy made while the table plays.

    Written to a temporary folder by :meth:`scorer.store.Store.backup` (SQLite's
    online backup), sent, and deleted once the answer is closed.
    """
    import shutil
    import tempfile
    from datetime import UTC, datetime

    from flask import send_file

    folder = Path(tempfile.mkdtemp(prefix="dice-scorer-download-"))
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    name = f"dice-scorer-{stamp}.sqlite3"
    try:
        copy = table().store.backup(folder / name)
        response = send_file(
            copy, mimetype="application/vnd.sqlite3", as_attachment=True, download_name=name
        )
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    response.headers["Cache-Control"] = "no-store"
    response.call_on_close(lambda: shutil.rmtree(folder, ignore_errors=True))
    return response


@bp.get("/history/<int:game_id>")
def history_game(game_id: int) -> str:
    try:
        state = table().view(game_id)
        log = table().store.events(game_id)
    except ScorerError:
        abort(404)
    setup = table().store.setup(game_id)
    labels = state["rank_labels"]  # poker dice as the game's set prints them
    rows = history_rows(log, setup, labels)
    rows = with_misreads(rows, table().misreads(game_id), labels if setup.dice == "cards" else None)
    return render_template(
        "history_game.html",
        page="history",
        state=state,
        rows=rows,
        coach=coach(setup, [e["event"] for e in log], state),
        move_words=lambda move: move_words(state["ruleset"], move),
        strings=strings(),
        cell_label=lambda cell: cell_label(state["ruleset"], cell),
        state_json=json.dumps(state),
    )


def coach(setup: Any, events: list[dict[str, Any]], state: dict[str, Any]) -> dict[str, Any]:
    """The review the game page shows: ``{"status": ..., "players": [...]}``.

    ``status`` is ``none`` (not a solved ruleset, or the game is not over),
    ``computing`` (its table is being built: the page says so and asks again
    later) or ``ready``.
    """
    from scorer.strategy import prepare
    from scorer.strategy.review import review, reviewable

    if not state.get("finished") or not reviewable(setup.ruleset):
        return {"status": "none", "players": []}
    if prepare(setup.ruleset, setup.options) is not None:
        return {"status": "computing", "players": []}
    return {"status": "ready", "players": review(setup, events)}


def move_words(ruleset: str, move: Any) -> str:
    """A keep, write or strike in the page's language: "keep 5 5", "write Sixes"."""
    if move.kind == "keep":
        if not move.keep:
            return _("re-throw all")
        return _("keep %(dice)s", dice=" ".join(map(str, move.keep)))
    if move.kind == "write":
        return _("write %(cell)s", cell=cell_label(ruleset, move.cell))
    return _("strike %(cell)s", cell=cell_label(ruleset, move.cell))


def dice_set_name(set_id: str) -> str:
    """A set of dice as /history names it: the table's own name, or pip / poker dice."""
    sets = table().dice_sets
    if sets is not None:
        with contextlib.suppress(ScorerError):
            if any(known["id"] == set_id for known in sets.list()):
                return sets.name(set_id)
    return _("Poker dice 9-A") if set_id == "cards" else _("Pips 1-6")


def fairness_line(verdict: Any) -> str:
    """A dice set's verdict in the page's language."""
    if not verdict.enough:
        from scorer.fairness import MIN_DICE

        return _(
            "Too few dice to tell: %(n)s seen, %(need)s needed.", n=verdict.dice, need=MIN_DICE
        )
    if not verdict.biased:
        return _("No sign of bias over %(n)s dice.", n=f"{verdict.dice:,}".replace(",", "\u202f"))
    face = set_faces(verdict)[verdict.face - 1]
    p = f"{verdict.p_value:.2g}"
    if verdict.more:
        return _("%(face)s comes up more often than a fair die would: p = %(p)s.", face=face, p=p)
    return _("%(face)s comes up less often than a fair die would: p = %(p)s.", face=face, p=p)


def set_faces(verdict: Any) -> list[str]:
    """The six faces of a fairness verdict's dice as they print them: 1..6, or a poker
    set's ranks in its own letters (Latin for the sets of dice kind ``cards``)."""
    if not verdict.cards:
        return [str(v) for v in range(1, 7)]
    return list(rank_labels(table().ranks_of(verdict.dice_set)))


def face_text(value: Any, labels: Sequence[str] | None) -> str:
    """A die as a page writes it: pips as the number, a poker die as its set prints it."""
    return labels[check_value(value) - 1] if labels else str(value)


def cell_label(ruleset: str, cell: str) -> str:
    from web.names import cell_name

    if cell.startswith("round_"):
        return _("Round %(n)s", n=cell.split("_", 1)[1])
    return cell_name(ruleset, cell)


def history_rows(
    log: list[dict[str, Any]], setup: Any = None, labels: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    """The log as the history page shows it: who acted, each throw with its corrections.

    ``labels``: the six ranks the game's poker dice print (Latin where not given)."""
    from scorer.dice import CARD_RANKS
    from scorer.game import Game

    game = Game.start(setup) if setup is not None else None
    cards = setup is not None and setup.dice == "cards"
    shown = (labels or CARD_RANKS) if cards else None
    rows: list[dict[str, Any]] = []
    last_throw: dict[str, Any] | None = None
    for entry in log:
        event = entry["event"]
        row: dict[str, Any] = {"seq": entry["seq"], "at": entry["at"], "event": event}
        row["corrections"] = []
        held: list[bool] = []
        if game is not None:
            thrower = game.rolloff_next if event.get("type") == "rolloff" else None
            row["player"] = setup.players[game.player if thrower is None else thrower]
            before = game.sheets[game.player].cells
            held = [d.held for d in game.dice]
            try:
                after_game = game.apply(event)
            except ScorerError:
                after_game = game
            if event.get("type") == "undo":  # the player whose move is taken back
                row["player"] = setup.players[after_game.player]
            written = after_game.sheets[game.player].cells
            cell = event.get("cell")
            if event.get("type") in {"write", "scratch"} and cell in written and cell not in before:
                row["points"] = written[cell]
            game = after_game
        if event.get("type") == "throw":
            reading = event.get("reading") or {}
            # a held die was not read again: it shows "held", not a confidence
            row["held"] = held
            row["confidence"] = [
                None if i < len(held) and held[i] else c
                for i, c in enumerate(reading.get("confidence") or [])
            ]
            row["photo"] = reading.get("photo")
            row["faces"] = [face_text(v, shown) for v in event.get("dice", [])]
            row["marks"] = photo_marks(
                reading.get("boxes") or [], row["faces"], reading.get("unsure") or []
            )
            last_throw = row
        elif event.get("type") == "rolloff":  # issue 26: who threw what for the first move
            reading = event.get("reading") or {}
            row["faces"] = [face_text(v, shown) for v in event.get("dice", [])]
            row["photo"] = reading.get("photo")
            row["marks"] = photo_marks(reading.get("boxes") or [], row["faces"])
            row["total"] = sum(int(v) for v in event.get("dice", []) if isinstance(v, int))
        elif event.get("type") == "correct" and last_throw is not None:
            last_throw["corrections"].append(event)
        rows.append(row)
    return rows


@bp.get("/photos/<path:name>")
def photo(name: str) -> Response:
    folder = current_app.config.get("PHOTOS")
    if not folder:
        abort(404)
    return send_from_directory(Path(folder), name, max_age=3600)


def photo_marks(
    boxes: list[Any], labels: list[str], unsure: list[int] | None = None
) -> list[dict[str, Any]]:
    """The dice drawn over a photo: each box with the face read there (app.js draws them)."""
    flagged = set(unsure or [])
    return [
        {"index": i, "box": box, "label": label, "unsure": i in flagged}
        for i, (box, label) in enumerate(zip(boxes, labels, strict=False))
        if box
    ]


def with_misreads(
    rows: list[dict[str, Any]], misreads: list[dict[str, Any]], labels: Sequence[str] | None
) -> list[dict[str, Any]]:
    """The history's rows with the readings that failed put in at their time (``labels``:
    the six ranks the game's poker dice print; None for pips)."""
    for record in misreads:
        values = [v for v in record.get("values") or [] if isinstance(v, int)]
        faces = [face_text(v, labels) for v in values]
        row = {
            "seq": "",
            "at": str(record.get("at", "")),
            "event": {"type": "misread"},
            "photo": record["photo"],
            "faces": faces,
            "seen": len(values),
            "expected": record.get("expected"),
            "marks": photo_marks(record.get("boxes") or [], faces),
            "corrections": [],
        }
        later = next((i for i, r in enumerate(rows) if str(r["at"]) > row["at"]), len(rows))
        rows.insert(later, row)
    return rows
