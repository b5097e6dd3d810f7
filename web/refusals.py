"""The table's English lines and refusals, in the page's language.

``scorer`` speaks English and imports no Flask: its errors and table lines are
f-strings ("die 2 is held at 6, the throw shows 3"). Each one a player can see is
listed here as its template (``%(name)s`` where the f-string has a value); a line
is matched against the templates and re-built from the catalogue's translation,
the values translated in turn (a cell id becomes the cell's name). The pages get
the same templates, so a line that comes over the event stream is translated in
the browser too.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from flask_babel import force_locale
from flask_babel import lazy_gettext as _l

from web.names import OPTION_HELP, cell_name, option_name, ruleset_name

# -- issue 25: every refusal and table line a player sees ----------------------------------
LINES: tuple[Any, ...] = (
    # dice
    _l("a die shows 1..6 (or 9, 10, J, Q, K, A), not %(value)s"),
    _l("a die is pips or card with a value 1..6, not %(face)s %(value)s"),
    _l("expected %(count)s dice, got %(got)s"),
    _l("expected %(count)s dice (or the %(free)s thrown), got %(got)s"),
    _l("dice is a list of values 1..6 (or 9, 10, J, Q, K, A)"),
    _l("dice: a list of values, e.g. [4, 4, 2, 3, 5]"),
    _l("%(ruleset)s is played with %(count)s dice, got %(got)s"),
    # setup
    _l("a game has 1 to %(max)s players, not %(n)s"),
    _l("a player's name cannot be empty"),
    _l("a player's name has at most %(max)s characters: %(name)s"),
    _l("two players are called %(name)s: give each a different name"),
    _l("dice are one of %(kinds)s, not %(value)s"),
    _l("the turn timer is off or one of %(choices)s seconds, not %(value)s"),
    _l("a game setup is a JSON object"),
    _l("a game setup needs a ruleset id (text)"),
    _l("players is a list of names"),
    _l("options is an object of KEY: VALUE"),
    _l("timer is a number of seconds or null"),
    _l("dice is pips, cards or auto"),
    _l("unknown ruleset %(ruleset)s (rulesets: %(known)s)"),
    _l("%(ruleset)s has no option %(option)s (options: %(known)s)"),
    _l("option %(option)s: cannot read %(value)s (%(help)s)"),
    _l("option %(option)s is one of %(allowed)s, not %(value)s"),
    # turns
    _l("nothing to undo"),
    _l("the game is over"),
    _l("confirm die %(n)s first (tap it)"),
    _l("commit to a number before throwing again"),
    _l("no throws left this turn (%(n)s allowed)"),
    _l("every die is held: release one to throw"),
    _l("die %(n)s is held at %(held)s, the throw shows %(shown)s"),
    _l("throw before holding dice"),
    _l("throw before committing to a number"),
    _l("throw before writing"),
    _l("%(ruleset)s has no commit now"),
    _l("already committed to %(cell)s this turn"),
    _l("commit to an open number cell, not %(cell)s"),
    _l("this turn is committed to %(cell)s"),
    _l("in poker_dice a turn ends by standing on the hand"),
    _l("poker_dice has no cells to strike"),
    _l("extra rounds are played in the free part, not %(cell)s"),
    _l("in an extra round, write the dice into a cell"),
    _l("%(ruleset)s has no extra rounds"),
    _l("extra rounds are agreed once the sheet is full"),
    _l("there are no dice on the tray yet"),
    _l("no cell can be written now"),
    _l("a cell is named by its id, e.g. 'twos'"),
    _l("%(ruleset)s has no cell %(cell)s (cells: %(known)s)"),
    _l("cell %(cell)s is already written"),
    _l("part 2 (%(cell)s) opens once ones..sixes are all written"),
    _l("%(cell)s is written after at most %(n)s throws, not %(throw)s"),
    _l("joker rule: five %(face)ss go into %(cell)s while it is open"),
    _l("joker rule: with the number cell closed, five alike go into an open lower cell"),
    _l("%(ruleset)s allows at most %(n)s throws a turn"),
    # the store and the API
    _l("there is no game %(id)s"),
    _l("no game at the table yet: start one on /setup"),
    _l("the game moved on (version %(now)s, you saw %(seen)s)"),
    _l("a hint needs dice on the tray: throw first"),
    _l("the hint table is being computed (a minute or so): ask again soon"),
    _l("hints are not installed"),
    _l("no hints for %(ruleset)s"),
    _l("a rematch follows a finished game"),
    # the table
    _l("Still reading the dice: press ignored."),
    _l("Still reading the dice: try again in a moment."),
    _l("Reading the dice..."),
    _l("No camera: type the dice in."),
    _l("Time is up: the best cell was written."),
    _l("Time is up: confirm the dice, then write."),
    _l("Time is up, but: %(problem)s"),
    _l("No game at the table: start one on the setup page."),
    _l("The dice could not be read: %(problem)s"),
    _l("cannot read the dice: %(problem)s"),
    _l("Camera problem (%(name)s): %(problem)s. Type the dice in meanwhile."),
    _l("Camera problem: %(problem)s. Type the dice in meanwhile."),
    _l("Saw %(seen)s dice, expected %(expected)s: check the dice and type them in."),
    _l(
        "Saw %(seen)s dice, expected %(expected)s: the least sure left out (crossed out on "
        "the photo). Check the dice and confirm."
    ),
    _l("Held dice not seen: %(dice)s. Check the dice and type them in."),
    _l("die %(n)s (%(value)s)"),
    _l("camera failed"),
    _l("camera timed out"),
    _l("camera disconnected"),
    _l("camera frames are black"),
    _l("camera frames are frozen"),
    _l("replay photo unreadable"),
    _l("no picture came back"),
    _l("the tray region is [x, y, w, h], each a fraction 0..1"),
    _l("the tray region must lie inside the picture and not be tiny"),
    # pairing
    _l(
        "Only the table may change the game: pair this phone on /pair "
        "with the PIN the table's screen shows."
    ),
    _l("a request from another site may not change the game"),
    _l("send the request body as JSON (Content-Type: application/json)"),
    _l("too many wrong PINs: try again in %(n)s s"),
)
# -- issue 27: seed 003's bluff and 9x9 board -------------------------------------------------
LINES += (
    _l("%(ruleset)s is played by %(min)s to %(max)s players, not %(n)s"),
    _l("it is %(name)s's turn, not %(other)s's"),
    _l("a claim's hand is one of %(known)s, not %(value)s"),
    _l("a claim's ranks are a list of values 1..6 (9 10 J Q K A)"),
    _l("a %(hand)s claim names at least %(n)s rank(s)"),
    _l("no throw makes %(hand)s %(ranks)s (straights: %(straights)s)"),
    _l("five aces cannot be beaten: call"),
    _l("a claim must be higher than the last (%(hand)s %(ranks)s)"),
    _l("option lives is a whole number, 1 or more, not %(value)s"),
    _l("the last claim was called: reveal the dice"),
    _l("the last claim is already called: reveal the dice"),
    _l("nothing to call yet: the first player claims a hand"),
    _l("dice are hidden: call to reveal"),
    _l("a reveal shows all %(count)s dice, not %(got)s"),
    _l("nothing to judge: call the last claim first"),
    _l("reveal the dice first: press the button or type them in"),
    _l("a reveal is judged as it lies: nothing to hold"),
    _l("the centre is free for everybody: nobody may take it"),
    _l("square %(square)s is taken"),
    _l("these dice (%(made)s) do not take square %(square)s (%(hand)s)"),
    _l("only a straight (or a full house) removes a chip, once every square of its kind is taken"),
    _l("there is no chip on square %(square)s"),
    _l("a removal takes an opponent's chip, not your own"),
    _l("the chip on %(square)s is in a finished series: it stays"),
    _l("throw before passing"),
    _l("throw before placing a chip"),
    _l("these dice take a square: place the chip"),
    _l("a square is its number 0..80, row by row from the top left"),
    _l("there is no square %(square)s (squares 0..80)"),
    _l("two teams are 4 or 6 players, not %(n)s"),
    _l("poker_board is 2 to 4 players (or two teams), not %(n)s"),
    _l('a claim is {"hand": CATEGORY, "ranks": [values 1..6, highest group first]}'),
    _l("poker_bluff has no cells: claim or call"),
    _l("poker_board has no cells: place a chip on the board"),
)
# -- issue 26: the whole-game flow's refusals ----------------------------------------------
LINES += (
    _l("this scorer plays flows 1 and %(flow)s, not %(value)s"),
    _l("%(switch)s is true, false or null (the default), not %(value)s"),
    _l("there is no roll-off now"),
    _l("the roll-off throws all %(count)s dice, got %(got)s"),
    _l("finish the roll-off first: %(name)s throws for the first move"),
    _l("the table changes options only before part 2's roll-off"),
    _l("before part 2 the table may change %(allowed)s, not %(option)s"),
    _l('options is an object, e.g. {"multipliers": "off"}'),
    _l('options is an object, e.g. {"options": {"multipliers": "off"}}'),
    _l("coach mode is switched with on: true or false"),
    _l('on is true or false, e.g. {"on": true}'),
    _l("hints are off at a table of two or more (seed 004): switch coach mode on first"),
    _l("throw at least once for %(cell)s before striking it (throw bank)"),
    _l("chance is not replayed in extra rounds: it was the one allowed error"),
    _l("chance is written only after the third throw, not throw %(n)s"),
    _l("chance is for a round with no combination: the dice make %(cell)s"),
    _l("dice: all five dice of the roll-off, e.g. [6, 6, 4, 2, 2]"),
    _l("results must sum to 0 to be settled, not %(n)s cents"),
)
LINES += OPTION_HELP  # the rulesets' help for their options (web.names names the options)

# -- issue 24: teach your dice (the table's sets of dice, lessons on /camera) --------------
LINES += (
    _l("dice_set is the id of one of the table's sets of dice, or null"),
    _l("this table keeps no sets of dice"),
    _l("no set of dice %(id)s"),
    _l("a set of dice has a name of 1 to %(max)s characters"),
    _l("a table keeps at most %(max)s sets of dice"),
    _l(
        "a set of dice prints its ranks latin (9 10 J Q K A) or cyrillic "
        "(9 10 В Д К Т), not %(value)s"
    ),
    _l("that photo is no longer kept: throw and read again"),
    _l("dice are pips or card dice, not %(kind)s"),
    _l("the set %(name)s holds %(kind)s dice: %(other)s labels belong to another set"),
    _l("a die's value is 1..6 (0: no die there), not %(value)s"),
    _l("only a box the reader marked can be no die (value 0)"),
    _l("a die the reader missed is given by x and y on the photo"),
    _l("No camera: nothing to teach."),
    _l("no reading waits for a missed die: type the dice in"),
    _l("the camera saw no dice here: type the dice in"),
    _l("a die the camera saw lies there: tap it to correct it"),
    _l("only a die of the throw the camera just read can be no die: undo instead"),
    _l("die %(n)s was not read on this throw's photo"),
    _l("Die %(n)s is no die: tap where the missed die lies on the photo, or type the dice in."),
    _l("x and y are the tap's place on the photo, in its pixels"),
)

# Values that name a cell or a ruleset are shown by their names, not their ids.
CELL_VALUES = {"cell"}
RULESET_VALUES = {"ruleset"}
OPTION_VALUES = {"option"}
_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


@cache
def _english() -> tuple[tuple[re.Pattern[str], Any], ...]:
    """Each line's template as a pattern, with the lazy string that translates it."""
    with force_locale("en"):
        templates = [(str(line), line) for line in LINES]
    return tuple((_pattern(template), line) for template, line in templates)


def _pattern(template: str) -> re.Pattern[str]:
    parts = _PLACEHOLDER.split(template)
    regex = "".join(
        f"(?P<{part}>.+?)" if i % 2 else re.escape(part) for i, part in enumerate(parts)
    )
    return re.compile(regex, re.DOTALL)


def translate(line: str) -> str:
    """``line`` in the current locale, or as it came when no template matches it."""
    for pattern, lazy in _english():
        match = pattern.fullmatch(line)
        if match is None:
            continue
        values: dict[str, str] = {}
        for name, value in match.groupdict().items():
            bare = value.strip("'\"")
            if name in CELL_VALUES:
                values[name] = cell_name("", bare)
            elif name in RULESET_VALUES:
                values[name] = ruleset_name(bare)
            elif name in OPTION_VALUES:
                values[name] = option_name(bare)
            else:
                values[name] = translate(value)
        return str(lazy) % values
    return line


def for_pages() -> list[list[str]]:
    """The templates for the page's script: ``[JS regex, translation with {name} holes]``."""
    out = []
    for pattern, lazy in _english():
        source = re.sub(r"\(\?P<(\w+)>", r"(?<\1>", pattern.pattern)
        out.append([f"^{source}$", _PLACEHOLDER.sub(r"{\1}", str(lazy))])
    return out
