"""A game as a state machine over events: turns, throws, holds, writes and undo.

Every action is a small JSON-able event (``{"type": "write", "cell": "twos"}``).
``Game.apply`` checks it against the rules and returns the next state, or
raises a :class:`~scorer.errors.ScorerError` and changes nothing; the store
appends only events that applied. A game is therefore a fold over its log, so
undo, history and the audit of each throw come from the log itself.
"""

from __future__ import annotations

import dataclasses
import importlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from scorer.dice import card_rank, check_value, parse_die
from scorer.errors import BadDice, BadOption, ForbiddenMove, ScorerError
from scorer.rules import UPPER, Ruleset, Sheet, get_ruleset

DICE_KINDS = ("pips", "cards", "auto")
TIMER_CHOICES = (30, 45, 60, 90, 600)
MAX_PLAYERS = 6
MAX_NAME = 24
EVENT_TYPES = (
    "throw",
    "correct",
    "hold",
    "write",
    "scratch",
    "commit",
    "extra_round",
    "undo",
)


@dataclass(frozen=True)
class Setup:
    """What the table agreed before the first throw."""

    ruleset: str
    players: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    dice: str = "pips"
    timer: int | None = None
    #: the table's set of dice the game is read with (``scorer.dice_sets``), if chosen
    dice_set: str | None = None

    def __post_init__(self) -> None:
        names = tuple(str(p).strip() for p in self.players)
        if not 1 <= len(names) <= MAX_PLAYERS:
            raise BadOption(f"a game has 1 to {MAX_PLAYERS} players, not {len(names)}")
        for name in names:
            if not name:
                raise BadOption("a player's name cannot be empty")
            if len(name) > MAX_NAME:
                raise BadOption(f"a player's name has at most {MAX_NAME} characters: {name!r}")
        object.__setattr__(self, "players", names)
        if self.dice not in DICE_KINDS:
            raise BadOption(f"dice are one of {', '.join(DICE_KINDS)}, not {self.dice!r}")
        if self.timer is not None and self.timer not in TIMER_CHOICES:
            choices = ", ".join(map(str, TIMER_CHOICES))
            raise BadOption(
                f"the turn timer is off or one of {choices} seconds, not {self.timer!r}"
            )
        rules = get_ruleset(self.ruleset, self.options)  # validates id and options
        rules.check_players(len(names))
        object.__setattr__(self, "options", dict(rules.options))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Setup:
        """Read a setup sent by a page or a script, naming whatever is wrong."""
        if not isinstance(data, Mapping):
            raise ScorerError("a game setup is a JSON object")
        ruleset = data.get("ruleset")
        if not isinstance(ruleset, str):
            raise ScorerError("a game setup needs a ruleset id (text)")
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise ScorerError("players is a list of names")
        options = data.get("options") or {}
        if not isinstance(options, Mapping):
            raise ScorerError("options is an object of KEY: VALUE")
        timer = data.get("timer")
        if timer is not None and (isinstance(timer, bool) or not isinstance(timer, int)):
            raise ScorerError("timer is a number of seconds or null")
        dice = data.get("dice", "pips")
        if not isinstance(dice, str):
            raise ScorerError("dice is pips, cards or auto")
        dice_set = data.get("dice_set")
        if dice_set is not None and (not isinstance(dice_set, str) or not dice_set):
            raise ScorerError("dice_set is the id of one of the table's sets of dice, or null")
        setup = cls(ruleset, tuple(players), dict(options), dice, timer, dice_set)
        _check_new_names(setup.players)
        return setup

    def to_dict(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "players": list(self.players),
            "options": dict(self.options),
            "dice": self.dice,
            "timer": self.timer,
        } | ({"dice_set": self.dice_set} if self.dice_set is not None else {})


@dataclass(frozen=True)
class Die:
    """One die on the tray as the game knows it."""

    value: int
    confidence: float | None = None
    held: bool = False
    corrected: bool = False
    unsure: bool = False
    face: str | None = None
    #: the reader's second choice for an unsure die (``scorer.vision.Die.guess``)
    guess: int | None = None
    #: where the die lies on the throw's photo, [x, y, w, h] in its pixels (None: typed in,
    #: or a held die the camera did not see this time)
    box: tuple[int, int, int, int] | None = None


@dataclass(frozen=True)
class Game:
    """The state after some events. Use :meth:`start`, then :meth:`apply`."""

    setup: Setup
    rules: Ruleset
    sheets: tuple[Sheet, ...]
    player: int = 0
    throw: int = 0
    dice: tuple[Die, ...] = ()
    committed: str | None = None
    bank: tuple[int, ...] = ()
    turn: int = 0
    extra_turns: int = 0
    hands: tuple[tuple[int, ...] | None, ...] = ()
    finished: bool = False
    version: int = 0
    last_throw_seq: int | None = None
    #: the stored name of the current throw's photo (None: typed in, or no photo kept)
    photo: str | None = None
    previous: Game | None = field(default=None, repr=False, compare=False)
    event_types: ClassVar[tuple[str, ...]] = EVENT_TYPES

    # -- building -----------------------------------------------------------------

    @classmethod
    def start(cls, setup: Setup) -> Game:
        rules = get_ruleset(setup.ruleset, setup.options)
        if cls is Game and rules.game is not None:  # seed 003's bluff and board: own turns
            module, name = rules.game.split(":")
            return getattr(importlib.import_module(module), name).start(setup)
        n = len(setup.players)
        return cls(
            setup=setup,
            rules=rules,
            sheets=tuple(Sheet() for _ in range(n)),
            bank=(0,) * n,
            hands=(None,) * n,
        )

    @classmethod
    def replay(cls, setup: Setup, events: Sequence[Mapping[str, Any]]) -> Game:
        """Rebuild the state from the log (the store keeps nothing else)."""
        game = cls.start(setup)
        for event in events:
            game = game.apply(event)
        return game

    @classmethod
    def standing(
        cls, setup: Setup, events: Sequence[Mapping[str, Any]]
    ) -> list[tuple[Game, Mapping[str, Any]]]:
        """The events that stand (not undone), each with the state it was applied to.

        What was really decided and thrown: the review and the fairness count read this.
        """
        game = cls.start(setup)
        stack: list[tuple[Game, Mapping[str, Any]]] = []
        for event in events:
            after = game.apply(event)
            if event.get("type") == "undo":
                stack.pop()
            else:
                stack.append((game, event))
            game = after
        return stack

    # -- the rules of play ------------------------------------------------------------

    @property
    def is_duel(self) -> bool:
        return self.rules.kind == "duel"

    @property
    def rounds(self) -> int:
        """How many rounds a poker_dice match has (sheet games end when the sheets are full)."""
        return int(self.rules.options.get("rounds", 1))

    @property
    def cells(self) -> tuple[str, ...]:
        """The cells of a player's column (poker_dice: one per round)."""
        if self.is_duel:
            return tuple(f"round_{i}" for i in range(1, self.rounds + 1))
        return self.rules.cells

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(d.value for d in self.dice)

    @property
    def throws_allowed(self) -> int:
        allowed = self.rules.throws_allowed(self.sheets[self.player], self.committed)
        if self.rules.options.get("throw_bank"):
            allowed += self.bank[self.player]
        return allowed

    @property
    def unsure(self) -> tuple[int, ...]:
        return tuple(i for i, d in enumerate(self.dice) if d.unsure)

    def apply(self, event: Mapping[str, Any]) -> Game:
        """The state after ``event``; raises (and changes nothing) if the rules forbid it."""
        if not isinstance(event, Mapping) or event.get("type") not in self.event_types:
            kinds = ", ".join(self.event_types)
            raise ScorerError(f"an event is an object with a type among {kinds}")
        kind = event["type"]
        if kind == "undo":
            if self.previous is None:
                raise ForbiddenMove("nothing to undo")
            return dataclasses.replace(self.previous, version=self.version + 1)
        if self.finished and kind != "extra_round":
            raise ForbiddenMove("the game is over")
        handler = getattr(self, f"_on_{kind}")
        after: Game = handler(event)
        return dataclasses.replace(after, version=self.version + 1, previous=self)

    def _on_throw(self, event: Mapping[str, Any]) -> Game:
        if self.unsure:
            raise ForbiddenMove(f"confirm die {self.unsure[0] + 1} first (tap it)")
        if (
            self.throw >= 1
            and self.committed is None
            and self.rules.needs_commit(self.sheets[self.player])
        ):
            raise ForbiddenMove("commit to a number before throwing again")
        if self.throw >= self.throws_allowed:
            raise ForbiddenMove(f"no throws left this turn ({self.throws_allowed} allowed)")
        values = _dice_list(event.get("dice"))
        count = self.rules.dice_count
        held = [d.held for d in self.dice] if self.dice else [False] * count
        free = [i for i in range(count) if not held[i]]
        if not free:
            raise ForbiddenMove("every die is held: release one to throw")
        if len(values) == count:
            for i in range(count):
                if held[i] and values[i] != self.dice[i].value:
                    shown = self.dice[i].value
                    raise ForbiddenMove(
                        f"die {i + 1} is held at {shown}, the throw shows {values[i]}"
                    )
            thrown = values
        elif len(values) == len(free):
            thrown = [d.value for d in self.dice] if self.dice else [0] * count
            for i, value in zip(free, values, strict=True):
                thrown[i] = value
        else:
            raise BadDice(f"expected {count} dice (or the {len(free)} thrown), got {len(values)}")
        reading = event.get("reading") or {}
        if not isinstance(reading, Mapping):
            raise ScorerError("reading is an object")
        confidence = _per_die(reading.get("confidence"), count, float)
        faces = _per_die(reading.get("faces"), count, str)
        guesses = [
            None if g is None else check_value(g)
            for g in _per_die(reading.get("guesses"), count, int)
        ]
        unsure = set(_int_list(reading.get("unsure", []), "unsure"))
        boxes = [_box(b) for b in _per_die(reading.get("boxes"), count, list)]
        photo = reading.get("photo")
        if photo is not None and not isinstance(photo, str):
            raise ScorerError("a reading's photo is the stored photo's name")
        dice = []
        for i, value in enumerate(thrown):
            if held[i]:  # the same die, where this photo shows it (if it does)
                dice.append(dataclasses.replace(self.dice[i], box=boxes[i]))
                continue
            dice.append(
                Die(
                    value=value,
                    confidence=confidence[i],
                    face=faces[i],
                    unsure=i in unsure,
                    guess=guesses[i] if i in unsure and guesses[i] != value else None,
                    box=boxes[i],
                )
            )
        return dataclasses.replace(
            self,
            throw=self.throw + 1,
            dice=tuple(dice),
            last_throw_seq=self.version + 1,
            photo=photo,
        )

    def _on_correct(self, event: Mapping[str, Any]) -> Game:
        index = self._die_index(event.get("index"))
        value = check_value(event.get("value"))
        dice = list(self.dice)
        dice[index] = dataclasses.replace(
            dice[index], value=value, corrected=True, unsure=False, confidence=1.0, guess=None
        )
        return dataclasses.replace(self, dice=tuple(dice))

    def _on_hold(self, event: Mapping[str, Any]) -> Game:
        if self.throw == 0:
            raise ForbiddenMove("throw before holding dice")
        held = set(_int_list(event.get("held"), "held"))
        for index in held:
            self._die_index(index)
        if self.committed is not None:
            face = _face_of(self.committed)
            held |= {i for i, d in enumerate(self.dice) if d.value == face}
        dice = tuple(dataclasses.replace(d, held=i in held) for i, d in enumerate(self.dice))
        return dataclasses.replace(self, dice=dice)

    def _on_commit(self, event: Mapping[str, Any]) -> Game:
        sheet = self.sheets[self.player]
        if not self.rules.needs_commit(sheet):
            raise ForbiddenMove(f"{self.rules.id} has no commit now")
        if self.throw == 0:
            raise ForbiddenMove("throw before committing to a number")
        if self.committed is not None:
            raise ForbiddenMove(f"already committed to {self.committed} this turn")
        cell = self._cell(event.get("cell"))
        if _face_of(cell) is None or not sheet.is_open(cell):
            raise ForbiddenMove(f"commit to an open number cell, not {cell}")
        face = _face_of(cell)
        dice = tuple(dataclasses.replace(d, held=d.value == face) for d in self.dice)
        return dataclasses.replace(self, committed=cell, dice=dice)

    def _on_write(self, event: Mapping[str, Any]) -> Game:
        if self.throw == 0:
            raise ForbiddenMove("throw before writing")
        if self.unsure:
            raise ForbiddenMove(f"confirm die {self.unsure[0] + 1} first (tap it)")
        if self.is_duel:
            if event.get("cell", "hand") != "hand":
                raise ForbiddenMove("in poker_dice a turn ends by standing on the hand")
            return self._stand()
        cell = self._cell(event.get("cell"))
        if self.committed is not None and cell != self.committed:
            raise ForbiddenMove(f"this turn is committed to {self.committed}")
        sheet = self.sheets[self.player]
        if self.extra_turns:
            if not self.rules.extra_round_cell(cell):
                raise ForbiddenMove(f"extra rounds are played in the free part, not {cell}")
            rest = Sheet({c: p for c, p in sheet.cells.items() if c != cell}, sheet.bonus)
            points = self.rules.points(cell, self.values, rest, self.throw)
            return self._next_turn(sheet.written(cell, points))
        return self._next_turn(self.rules.write(sheet, cell, self.values, self.throw))

    def _on_scratch(self, event: Mapping[str, Any]) -> Game:
        if self.is_duel:
            raise ForbiddenMove("poker_dice has no cells to strike")
        cell = self._cell(event.get("cell"))
        sheet = self.sheets[self.player]
        if self.extra_turns:
            raise ForbiddenMove("in an extra round, write the dice into a cell")
        if self.committed is not None and cell != self.committed:
            raise ForbiddenMove(f"this turn is committed to {self.committed}")
        return self._next_turn(self.rules.scratch(sheet, cell))

    def _on_extra_round(self, event: Mapping[str, Any]) -> Game:
        if not self.rules.extra_rounds:
            raise ForbiddenMove(f"{self.rules.id} has no extra rounds")
        if not self.finished:
            raise ForbiddenMove("extra rounds are agreed once the sheet is full")
        players = len(self.setup.players)
        return dataclasses.replace(
            self, finished=False, extra_turns=players, player=0, throw=0, dice=()
        )

    # -- helpers of the transitions ---------------------------------------------------------

    def _die_index(self, index: object) -> int:
        if not self.dice:
            raise ForbiddenMove("there are no dice on the tray yet")
        if isinstance(index, bool) or not isinstance(index, int):
            raise ScorerError(f"a die is chosen by its index 0..{len(self.dice) - 1}")
        if not 0 <= index < len(self.dice):
            raise ScorerError(f"there is no die {index} (dice 0..{len(self.dice) - 1})")
        return index

    def _cell(self, cell: object) -> str:
        if not isinstance(cell, str):
            raise ScorerError("a cell is named by its id, e.g. 'twos'")
        return self.rules.check_cell(cell)

    def _next_turn(self, sheet: Sheet) -> Game:
        sheets = list(self.sheets)
        sheets[self.player] = sheet
        bank = list(self.bank)
        if self.rules.options.get("throw_bank"):
            bank[self.player] = max(0, self.throws_allowed - self.throw)
        players = len(sheets)
        extra = max(0, self.extra_turns - 1) if self.extra_turns else 0
        finished = (
            self.extra_turns == 1
            if self.extra_turns
            else all(self.rules.is_complete(s) for s in sheets)
        )
        return dataclasses.replace(
            self,
            sheets=tuple(sheets),
            bank=tuple(bank),
            player=(self.player + 1) % players,
            throw=0,
            dice=(),
            committed=None,
            turn=self.turn + 1,
            extra_turns=extra,
            finished=finished,
        )

    def _stand(self) -> Game:
        """poker_dice: the player stands; after the last player the round is decided."""
        hands = list(self.hands)
        hands[self.player] = self.values
        players = len(hands)
        state = dataclasses.replace(self, hands=tuple(hands))
        if self.player < players - 1:
            return dataclasses.replace(
                state, player=self.player + 1, throw=0, dice=(), turn=self.turn + 1
            )
        round_no = self.turn // players + 1
        winners = _best_hands(self.rules, hands)
        sheets = tuple(
            s.written(f"round_{round_no}", 1 if i in winners else 0)
            for i, s in enumerate(self.sheets)
        )
        return dataclasses.replace(
            state,
            sheets=sheets,
            hands=(None,) * players,
            player=0,
            throw=0,
            dice=(),
            turn=self.turn + 1,
            finished=round_no >= self.rounds,
        )

    # -- what pages and players ask -----------------------------------------------------------

    def totals(self) -> tuple[int, ...]:
        if self.is_duel:
            return tuple(sum(s.cells.values()) for s in self.sheets)
        return tuple(self.rules.total(s) for s in self.sheets)

    def winners(self) -> tuple[int, ...]:
        return self.rules.winners(self.totals()) if self.finished else ()

    def scores(self) -> dict[str, int]:
        """What each cell that may be written now would give with the current dice."""
        if self.throw == 0 or self.finished or self.is_duel:
            return {}
        sheet = self.sheets[self.player]
        if self.extra_turns:
            result = {}
            for cell in self.rules.cells:
                if self.rules.extra_round_cell(cell):
                    rest = Sheet({c: p for c, p in sheet.cells.items() if c != cell})
                    result[cell] = self.rules.points(cell, self.values, rest, self.throw)
            return result
        scores = self.rules.scores(self.values, sheet, self.throw)
        return {
            cell: points
            for cell, points in scores.items()
            if self.committed is None or cell == self.committed
        }

    def best_cell(self) -> str:
        """The open cell giving the most points now (first in sheet order on a tie)."""
        if self.is_duel:
            return "hand"
        scores = self.scores()
        if not scores:
            raise ForbiddenMove("no cell can be written now")
        best = max(scores.values())
        return next(c for c, p in scores.items() if p == best)

    def timeout_events(self, rng: random.Random | None = None) -> list[dict[str, Any]]:
        """What the turn timer does on expiry: a virtual throw if none yet, then the best cell."""
        if self.finished:
            return []
        rng = rng or random.Random()
        events: list[dict[str, Any]] = []
        game = self
        if game.throw == 0:
            dice = [rng.randint(1, 6) for _ in range(self.rules.dice_count)]
            events.append({"type": "throw", "dice": dice, "virtual": True})
            game = game.apply(events[-1])
        if game.unsure:
            return events
        events.append({"type": "write", "cell": game.best_cell()})
        return events

    def state(self) -> dict[str, Any]:
        """Everything a page shows, as JSON."""
        kind = self.setup.dice
        dice = []
        for d in self.dice:
            card = kind == "cards" or (kind == "auto" and d.face == "card")
            dice.append(
                {
                    "value": d.value,
                    "confidence": d.confidence,
                    "held": d.held,
                    "corrected": d.corrected,
                    "unsure": d.unsure,
                    "rank": card_rank(d.value) if card else None,
                    "guess": d.guess,
                    "guess_rank": card_rank(d.guess) if card and d.guess else None,
                    "box": list(d.box) if d.box else None,
                }
            )
        totals = self.totals()
        sheet_rows = [{c: s.cells.get(c) for c in self.cells} for s in self.sheets]
        bonuses = [{} if self.is_duel else self.rules.bonuses(s) for s in self.sheets]
        hand = self.rules.hand(self.values).category if self.is_duel and self.dice else None
        settlement = self.rules.settlement(totals) if self.finished else None
        info = self.rules.describe()
        info["cells"] = list(self.cells)
        return {
            "version": self.version,
            "ruleset": self.setup.ruleset,
            "options": dict(self.setup.options),
            "dice_kind": kind,
            "ruleset_info": info,
            "players": list(self.setup.players),
            "current_player": self.player,
            "throw": self.throw,
            "throws_allowed": self.throws_allowed,
            "dice": dice,
            "unsure": list(self.unsure),
            "sheet": sheet_rows,
            "bonuses": bonuses,
            "totals": list(totals),
            "scores": self.scores(),
            "hand": hand,
            "hands": [self.rules.hand(h).category if h is not None else None for h in self.hands]
            if self.is_duel
            else None,
            "committed": self.committed,
            "needs_commit": bool(
                self.throw >= 1
                and self.committed is None
                and self.rules.needs_commit(self.sheets[self.player])
            ),
            # a finished game stays on its last round
            "round": (self.turn - self.finished) // len(self.setup.players) + 1,
            "extra_turns": self.extra_turns,
            "finished": self.finished,
            "winners": list(self.winners()),
            "settlement": list(settlement) if settlement else None,
            "timer": {"seconds": self.setup.timer} if self.setup.timer else None,
            "last_throw_seq": self.last_throw_seq,
            "can_undo": self.previous is not None,
        }


def _check_new_names(players: Sequence[str]) -> None:
    """A new game's names tell the columns apart: two alike (any case) are refused. Only new
    games are checked, so a stored game of an earlier version still loads."""
    seen: dict[str, str] = {}
    for name in players:
        key = name.strip().casefold()
        if key and key in seen:
            raise BadOption(f"two players are called {name.strip()}: give each a different name")
        seen[key] = name


def _dice_list(raw: object) -> list[int]:
    if not isinstance(raw, list | tuple):
        raise BadDice("dice is a list of values 1..6 (or 9, 10, J, Q, K, A)")
    return [parse_die(v) if isinstance(v, str) else check_value(v) for v in raw]


def _int_list(raw: object, name: str) -> list[int]:
    if not isinstance(raw, list | tuple) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in raw
    ):
        raise ScorerError(f"{name} is a list of die indexes")
    return list(raw)


def _per_die(raw: object, count: int, kind: type) -> list[Any]:
    if raw is None:
        return [None] * count
    if not isinstance(raw, list | tuple) or len(raw) != count:
        raise ScorerError(f"a reading gives one entry per die ({count})")
    try:
        return [None if v is None else kind(v) for v in raw]
    except (TypeError, ValueError) as err:
        raise ScorerError(f"a reading's entries are {kind.__name__} values") from err


def _box(raw: list[Any] | None) -> tuple[int, int, int, int] | None:
    """A die's box on the photo: [x, y, w, h] in whole pixels, or None."""
    if raw is None:
        return None
    if len(raw) != 4 or any(isinstance(v, bool) or not isinstance(v, int | float) for v in raw):
        raise ScorerError("a reading's box is [x, y, w, h] in the photo's pixels")
    x, y, w, h = (int(v) for v in raw)
    return x, y, w, h


def _face_of(cell: str) -> int | None:
    return UPPER.index(cell) + 1 if cell in UPPER else None


def _best_hands(rules: Ruleset, hands: Sequence[tuple[int, ...] | None]) -> set[int]:
    best: list[int] = []
    for i, dice in enumerate(hands):
        if dice is None:
            continue
        if not best:
            best = [i]
            continue
        order = rules.compare(rules.hand(dice), rules.hand(hands[best[0]]))
        if order > 0:
            best = [i]
        elif order == 0:
            best.append(i)
    return set(best)
