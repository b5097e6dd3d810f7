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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self, TypeVar

from scorer.dice import card_rank, check_value, parse_die
from scorer.errors import BadDice, BadOption, ForbiddenMove, ScorerError
from scorer.rules import FLOW, UPPER, Ruleset, Sheet, get_ruleset
from scorer.rules.poker_ru import COMBINATIONS, part_one_complete
from scorer.rules.settlement import results_in_cents, transfers

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
    "rolloff",
    "options",
    "coach",
    "undo",
)
PART_TWO_OPTIONS = ("multipliers", *(f"value.{c}" for c in COMBINATIONS))
"""What a poker_ru table may change before part 2 (RULES.md, roll-off)."""


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
    #: a roll-off decides who starts (None: the ruleset's default, on in poker_ru)
    rolloff: bool | None = None
    #: hints at this table (None: on for one player, off for two or more: seed 004)
    hints: bool | None = None
    #: the whole-game flow the game follows; stored games without one are flow 1
    flow: int = FLOW

    def __post_init__(self) -> None:
        names = tuple(str(p).strip() for p in self.players)
        if self.flow not in (1, FLOW):
            raise BadOption(f"this scorer plays flows 1 and {FLOW}, not {self.flow!r}")
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
        rules = get_ruleset(self.ruleset, self.options, self.flow)  # validates id and options
        if self.flow >= 2:  # a game stored before (flow 1) keeps the table it was played by
            rules.check_players(len(names))
        object.__setattr__(self, "options", dict(rules.options))
        for name in ("rolloff", "hints"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, bool):
                raise BadOption(f"{name} is true, false or null (the default), not {value!r}")
        if self.rolloff is None:
            object.__setattr__(self, "rolloff", rules.rolloff_default and self.flow >= 2)
        if self.hints is None:
            object.__setattr__(self, "hints", len(names) == 1 or self.flow < 2)

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
        switches = {}
        for name in ("rolloff", "hints"):
            value = data.get(name)
            if value is not None and not isinstance(value, bool):
                raise ScorerError(f"{name} is true, false or null (the default), not {value!r}")
            switches[name] = value
        setup = cls(ruleset, tuple(players), dict(options), dice, timer, dice_set, **switches)
        _check_new_names(setup.players)
        return setup

    @classmethod
    def stored(cls, data: Mapping[str, Any]) -> Setup:
        """A setup as the store kept it; one stored before issue 26 has no flow and is flow 1."""
        return cls(
            data["ruleset"],
            tuple(data["players"]),
            data["options"],
            data["dice"],
            data["timer"],
            data.get("dice_set"),
            data.get("rolloff"),
            data.get("hints"),
            data.get("flow", 1),
        )

    def again(self, first: int) -> Setup:
        """A rematch: every agreement kept (the set of dice too), player ``first`` starting
        and the seating order kept around the table; played by today's flow."""
        players = self.players[first:] + self.players[:first]
        return dataclasses.replace(self, players=players, flow=FLOW)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "players": list(self.players),
            "options": dict(self.options),
            "dice": self.dice,
            "timer": self.timer,
            "rolloff": self.rolloff,
            "hints": self.hints,
            "flow": self.flow,
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
    #: the roll-off under way: the players still contending (None: no roll-off now)
    rolloff: tuple[int, ...] | None = None
    #: what each contender threw in this round of the roll-off (their totals)
    rolloff_throws: tuple[tuple[int, int], ...] = ()
    #: which part the roll-off under way opens (1 or 2)
    rolloff_part: int = 0
    #: every roll-off throw so far, for the page: (part, player, total)
    rolloff_log: tuple[tuple[int, int, int], ...] = ()
    starter: int = 0
    #: variant 2: players who miss their next turn after a failed combination
    misses: tuple[bool, ...] = ()
    first_finisher: int | None = None
    coach: bool = False
    previous: Game | None = field(default=None, repr=False, compare=False)
    event_types: ClassVar[tuple[str, ...]] = EVENT_TYPES

    # -- building -----------------------------------------------------------------

    @classmethod
    def start(cls, setup: Setup) -> Game:
        rules = get_ruleset(setup.ruleset, setup.options, setup.flow)
        if cls is Game and rules.game is not None:  # seed 003's bluff and board: own turns
            module, name = rules.game.split(":")
            return getattr(importlib.import_module(module), name).start(setup)
        n = len(setup.players)
        return cls.seated(
            setup,
            rules,
            rolloff=tuple(range(n)) if setup.rolloff and n >= 2 else None,
            rolloff_part=1 if setup.rolloff and n >= 2 else 0,
            misses=(False,) * n,
            coach=bool(setup.hints),
        )

    @classmethod
    def seated(cls, setup: Setup, rules: Ruleset, **state: Any) -> Self:
        """A new game at the table: a blank sheet, an empty bank and no hand for each
        player, whatever the game (``state`` is what this game adds to that)."""
        n = len(setup.players)
        return cls(
            setup=setup,
            rules=rules,
            sheets=tuple(Sheet() for _ in range(n)),
            bank=(0,) * n,
            hands=(None,) * n,
            **state,
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
        applied: list[tuple[Game, Mapping[str, Any]]] = []
        for event in events:
            after = game.apply(event)  # an undo with nothing to take back raises here
            applied.append((game, event))
            game = after
        return not_undone(applied, lambda pair: pair[1].get("type") == "undo")

    # -- the rules of play ------------------------------------------------------------

    @property
    def is_duel(self) -> bool:
        return self.rules.kind == "duel"

    @property
    def flow(self) -> int:
        return self.setup.flow

    @property
    def variant(self) -> int:
        return int(self.rules.options.get("variant", 1))

    @property
    def rolloff_next(self) -> int | None:
        """The player who throws next in the roll-off under way."""
        if self.rolloff is None:
            return None
        thrown = {p for p, _ in self.rolloff_throws}
        return next(p for p in self.rolloff if p not in thrown)

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
        if self.finished and kind not in ("extra_round", "coach"):
            raise ForbiddenMove("the game is over")
        game = self
        if self.rolloff is not None and kind not in ("rolloff", "options", "coach"):
            started = any(part == self.rolloff_part for part, *_ in self.rolloff_log)
            if started:
                name = self.setup.players[self.rolloff_next or 0]
                raise ForbiddenMove(f"finish the roll-off first: {name} throws for the first move")
            game = dataclasses.replace(self, rolloff=None)  # the table skipped the roll-off
        handler = getattr(game, f"_on_{kind}")
        after: Game = handler(event)
        return dataclasses.replace(after, version=self.version + 1, previous=self)

    def _on_rolloff(self, event: Mapping[str, Any]) -> Game:
        """One contender's throw of all five dice: the highest total starts, ties throw again."""
        player = self.rolloff_next
        if player is None:
            raise ForbiddenMove("there is no roll-off now")
        values = _dice_list(event.get("dice"))
        if len(values) != self.rules.dice_count:
            count = self.rules.dice_count
            raise BadDice(f"the roll-off throws all {count} dice, got {len(values)}")
        total = sum(values)
        thrown = (*self.rolloff_throws, (player, total))
        log = (*self.rolloff_log, (self.rolloff_part, player, total))
        assert self.rolloff is not None
        if len(thrown) < len(self.rolloff):
            return dataclasses.replace(self, rolloff_throws=thrown, rolloff_log=log)
        best = max(t for _, t in thrown)
        tied = tuple(p for p, t in thrown if t == best)
        if len(tied) > 1:
            return dataclasses.replace(self, rolloff=tied, rolloff_throws=(), rolloff_log=log)
        return dataclasses.replace(
            self,
            rolloff=None,
            rolloff_throws=(),
            rolloff_log=log,
            player=tied[0],
            starter=tied[0],
        )

    def _on_options(self, event: Mapping[str, Any]) -> Game:
        """poker_ru: before part 2 the table may change part 2's values and multipliers."""
        started = any(part == 2 for part, *_ in self.rolloff_log)  # a tie empties the throws
        if self.rolloff_part != 2 or self.rolloff is None or self.rolloff_throws or started:
            raise ForbiddenMove("the table changes options only before part 2's roll-off")
        changes = event.get("options")
        if not isinstance(changes, Mapping) or not changes:
            raise ScorerError('options is an object, e.g. {"multipliers": "off"}')
        for name in changes:
            if name not in PART_TWO_OPTIONS:
                allowed = ", ".join(PART_TWO_OPTIONS)
                raise BadOption(f"before part 2 the table may change {allowed}, not {name!r}")
        options = {**self.rules.options, **changes}
        return dataclasses.replace(self, rules=get_ruleset(self.setup.ruleset, options, self.flow))

    def _on_coach(self, event: Mapping[str, Any]) -> Game:
        """Coach mode: the table switches hints on (or off again) during a game."""
        on = event.get("on")
        if not isinstance(on, bool):
            raise ScorerError("coach mode is switched with on: true or false")
        return dataclasses.replace(self, coach=on)

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
        not_dice = reading.get("not_dice") or []
        if not isinstance(not_dice, list) or not all(_is_box(b) for b in not_dice):
            raise ScorerError("a reading's not_dice are boxes [x, y, w, h] where no die lies")
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
                    # seed 000: dice showing the committed number stay on the table
                    held=self._kept(value),
                )
            )
        return dataclasses.replace(
            self,
            throw=self.throw + 1,
            dice=tuple(dice),
            last_throw_seq=self.version + 1,
            photo=photo,
        )

    def _kept(self, value: int) -> bool:
        """Whether a die just thrown stays on the table (flow 2: it shows the committed number)."""
        return self.flow >= 2 and self.committed is not None and value == _face_of(self.committed)

    def _on_correct(self, event: Mapping[str, Any]) -> Game:
        index = self._die_index(event.get("index"))
        value = check_value(event.get("value"))
        dice = list(self.dice)
        was_kept = dice[index].held and self._kept(dice[index].value)
        held = self._kept(value) or (dice[index].held and not was_kept)  # kept: for its face
        dice[index] = dataclasses.replace(
            dice[index],
            value=value,
            corrected=True,
            unsure=False,
            confidence=1.0,
            guess=None,
            held=held,
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
                if cell in COMBINATIONS:
                    raise ForbiddenMove(
                        "chance is not replayed in extra rounds: it was the one allowed error"
                    )
                raise ForbiddenMove(f"extra rounds are played in the free part, not {cell}")
            rest = Sheet({c: p for c, p in sheet.cells.items() if c != cell}, sheet.bonus)
            points = self.rules.points(cell, self.values, rest, self.throw)
            return self._next_turn(sheet.written(cell, points), cell, points)
        after = self.rules.write(sheet, cell, self.values, self.throw)
        return self._next_turn(after, cell, after.cells[cell])

    def _on_scratch(self, event: Mapping[str, Any]) -> Game:
        if self.is_duel:
            raise ForbiddenMove("poker_dice has no cells to strike")
        cell = self._cell(event.get("cell"))
        sheet = self.sheets[self.player]
        if self.extra_turns:
            raise ForbiddenMove("in an extra round, write the dice into a cell")
        if self.committed is not None and cell != self.committed:
            raise ForbiddenMove(f"this turn is committed to {self.committed}")
        if self._banks and self.throw == 0:
            raise ForbiddenMove(f"throw at least once for {cell} before striking it (throw bank)")
        after = self.rules.scratch(sheet, cell)
        return self._next_turn(after, cell, after.cells[cell])

    def _on_extra_round(self, event: Mapping[str, Any]) -> Game:
        if not self.rules.extra_rounds:
            raise ForbiddenMove(f"{self.rules.id} has no extra rounds")
        if not self.finished:
            raise ForbiddenMove("extra rounds are agreed once the sheet is full")
        players = len(self.setup.players)
        first = self.starter if self.flow >= 2 else 0
        return dataclasses.replace(
            self, finished=False, extra_turns=players, player=first, throw=0, dice=()
        )

    # -- helpers of the transitions ---------------------------------------------------------

    def _check_turn(self, event: Mapping[str, Any]) -> None:
        """A move that names its player is refused when it is not that player's turn."""
        who = event.get("player")
        if who is not None and who != self.player:
            names = self.setup.players
            shown = names[who] if isinstance(who, int) and 0 <= who < len(names) else who
            raise ForbiddenMove(f"it is {names[self.player]}'s turn, not {shown}'s")

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

    @property
    def _banks(self) -> bool:
        """Whether this game banks unused throws under RULES.md's rule (flow 2)."""
        return bool(self.rules.options.get("throw_bank")) and self.flow >= 2

    def _next_turn(self, sheet: Sheet, cell: str, points: int) -> Game:
        """The player wrote ``points`` into ``cell``: bank, part changes, then whose turn."""
        player = self.player
        sheets = list(self.sheets)
        bank = list(self.bank)
        if self._banks:
            # RULES.md: a written cell banks its own allowance minus the throws used on it
            bank[player] = max(0, bank[player] + self.rules.throws_for(cell) - self.throw)
        elif self.rules.options.get("throw_bank"):
            bank[player] = max(0, self.throws_allowed - self.throw)  # flow 1
        misses = list(self.misses) or [False] * len(sheets)
        first_finisher = self.first_finisher
        if self.variant == 2 and self.flow >= 2 and not self.extra_turns:
            if first_finisher is None and part_one_complete(sheet):
                first_finisher = player
                bonus = int(self.rules.options.get("first_finisher_bonus", 0))
                if bonus:
                    sheet = Sheet(sheet.cells, {**sheet.bonus, "first_finisher": bonus})
            if cell in COMBINATIONS and points < 0:
                misses[player] = True  # a failed combination misses the next turn
        sheets[player] = sheet
        players = len(sheets)
        extra = max(0, self.extra_turns - 1) if self.extra_turns else 0
        if self.extra_turns:
            finished = self.extra_turns == 1
        elif self.variant == 2 and self.flow >= 2:
            finished = any(self.rules.is_complete(s) for s in sheets)
        else:
            finished = all(self.rules.is_complete(s) for s in sheets)
        turn = self.turn + 1
        following = (player + 1) % players
        if not finished:
            while misses[following]:
                misses[following] = False
                turn += 1
                following = (following + 1) % players
        state = dataclasses.replace(
            self,
            sheets=tuple(sheets),
            bank=tuple(bank),
            player=following,
            throw=0,
            dice=(),
            committed=None,
            turn=turn,
            extra_turns=extra,
            finished=finished,
            misses=tuple(misses),
            first_finisher=first_finisher,
        )
        return state._part_two_rolloff()

    def _part_two_rolloff(self) -> Game:
        """poker_ru, seed 000: once everyone's part 1 is full, a new roll-off opens part 2."""
        if (
            self.flow < 2
            or not self.setup.rolloff
            or self.finished
            or self.extra_turns
            or self.variant == 2
            or self.rules.id != "poker_ru"
            or len(self.sheets) < 2
            or not all(part_one_complete(s) for s in self.sheets)
            or any(not s.is_open(c) for s in self.sheets for c in COMBINATIONS)
            or any(part == 2 for part, *_ in self.rolloff_log)
        ):
            return self
        return dataclasses.replace(
            self, rolloff=tuple(range(len(self.sheets))), rolloff_throws=(), rolloff_part=2
        )

    def _stand(self) -> Game:
        """poker_dice: the player stands; after the last player the round is decided."""
        hands = list(self.hands)
        hands[self.player] = self.values
        players = len(hands)
        state = dataclasses.replace(self, hands=tuple(hands))
        # flow 2: round k is opened by player (k - 1) mod n, then round the table
        rotate = 1 if self.flow >= 2 else 0
        round_index = self.turn // players
        if self.turn % players < players - 1:
            following = (self.player + 1) % players
            return dataclasses.replace(
                state, player=following, throw=0, dice=(), turn=self.turn + 1
            )
        round_no = round_index + 1
        winners = _best_hands(self.rules, hands)
        sheets = tuple(
            s.written(f"round_{round_no}", 1 if i in winners else 0)
            for i, s in enumerate(self.sheets)
        )
        return dataclasses.replace(
            state,
            sheets=sheets,
            hands=(None,) * players,
            player=(self.starter + rotate * (round_index + 1)) % players,
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
        """The cell that gives the player the highest total now, counting any bonus the cell
        completes (upper bonus, premium, yahtzee's +100); first in sheet order on a tie."""
        if self.is_duel:
            return "hand"
        scores = self.scores()
        if not scores:
            raise ForbiddenMove("no cell can be written now")
        totals = {cell: self.rules.total(self._sheet_after(cell)) for cell in scores}
        best = max(totals.values())
        return next(c for c, t in totals.items() if t == best)

    def _sheet_after(self, cell: str) -> Sheet:
        """The current player's sheet if the dice were written into ``cell`` now."""
        sheet = self.sheets[self.player]
        if self.extra_turns:
            return sheet.written(cell, self.scores()[cell])
        return self.rules.write(sheet, cell, self.values, self.throw)

    def strike_costs(self) -> dict[str, dict[str, Any]]:
        """What striking each open cell now throws away, where it throws something away.

        A strike writes 0 whatever the dice. Where the dice would score in that cell, the
        cost is its points and any bonus writing there earns (yahtzee's +100); where the
        rules send the dice elsewhere (a forced joker), the cost is the best write instead.
        The pages say it before a strike (seed 004's yahtzee keeps the strike itself legal).
        """
        if self.throw == 0 or self.finished or self.is_duel or self.extra_turns:
            return {}
        sheet = self.sheets[self.player]
        scores = self.scores()

        def bonus(cell: str) -> int:
            return sum(self.rules.write_bonus(cell, self.values, sheet, self.throw).values())

        best = max(scores, key=lambda c: scores[c] + bonus(c), default=None)
        costs: dict[str, dict[str, Any]] = {}
        for cell in self.rules.open_cells(sheet):
            if self.rules.phase_forbids(cell, sheet):
                continue
            if self.committed is not None and cell != self.committed:
                continue
            if cell in scores:
                lost = scores[cell] - self.rules.scratch_points(cell)
                if lost > 0 or bonus(cell) > 0:
                    costs[cell] = {"points": scores[cell], "bonus": bonus(cell)}
            elif best is not None and scores[best] + bonus(best) > 0:
                instead = {"cell": best, "points": scores[best], "bonus": bonus(best)}
                costs[cell] = {"points": 0, "bonus": 0, "instead": instead}
        return costs

    def settlement(self) -> dict[str, Any] | None:
        """A finished game played for stakes: results rounded to 0.01 and who pays whom."""
        if not self.finished or self.rules.settlement(self.totals()) is None:
            return None
        cents = results_in_cents(self.totals())
        return {
            "results": [c / 100 for c in cents],
            "transfers": [t.to_dict() for t in transfers(cents)],
        }

    def timeout_events(self, rng: random.Random | None = None) -> list[dict[str, Any]]:
        """What the turn timer does on expiry: a virtual throw if none yet, then the best cell."""
        if self.finished:
            return []
        rng = rng or random.Random()
        if self.rolloff is not None:  # the timer throws the next contender's roll-off
            dice = [rng.randint(1, 6) for _ in range(self.rules.dice_count)]
            return [{"type": "rolloff", "dice": dice, "virtual": True}]
        events, game = self._virtual_throw(rng)
        while not game.unsure and not game.scores() and game.throw < game.throws_allowed:
            # no cell takes these dice yet (poker_ua's chance waits for the third throw)
            free = sum(not d.held for d in game.dice)
            events.append(
                {"type": "throw", "dice": [rng.randint(1, 6) for _ in range(free)], "virtual": True}
            )
            game = game.apply(events[-1])
        if game.unsure or not game.scores():
            return events
        events.append({"type": "write", "cell": game.best_cell()})
        return events

    def _virtual_throw(self, rng: random.Random) -> tuple[list[dict[str, Any]], Game]:
        """The timer's throw when the turn has none yet (its events and the game after)."""
        if self.throw != 0:
            return [], self
        dice = [rng.randint(1, 6) for _ in range(self.rules.dice_count)]
        event = {"type": "throw", "dice": dice, "virtual": True}
        return [event], self.apply(event)

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
        info = self.rules.describe()
        info["cells"] = list(self.cells)
        return {
            "version": self.version,
            "ruleset": self.setup.ruleset,
            "options": dict(self.rules.options),
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
            "settlement": self.settlement(),
            "rolloff": self._rolloff_state(),
            "starter": self.starter,
            "coach": self.coach,
            "bank": list(self.bank),
            "misses": [i for i, m in enumerate(self.misses) if m],
            "first_finisher": self.first_finisher,
            "strike_costs": self.strike_costs(),
            "flow": self.flow,
            "timer": {"seconds": self.setup.timer} if self.setup.timer else None,
            "last_throw_seq": self.last_throw_seq,
            "can_undo": self.previous is not None,
        }

    def _rolloff_state(self) -> dict[str, Any] | None:
        if self.rolloff is None and not self.rolloff_log:
            return None
        return {
            "pending": self.rolloff is not None,
            "part": self.rolloff_part,
            "contenders": list(self.rolloff or ()),
            "next": self.rolloff_next,
            "log": [{"part": a, "player": p, "total": t} for a, p, t in self.rolloff_log],
        }


Entry = TypeVar("Entry")


def not_undone(log: Iterable[Entry], is_undo: Callable[[Entry], bool]) -> list[Entry]:
    """The entries of a log that still stand: each undo takes back the latest one left.

    The one reading of undo for every log: the game's replay (``Game.standing``) and
    the stored rows a set of dice is taught from (``dice_sets.effective``).
    """
    stack: list[Entry] = []
    for entry in log:
        if is_undo(entry):
            if stack:
                stack.pop()
        else:
            stack.append(entry)
    return stack


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


def _is_box(raw: Any) -> bool:
    return (
        isinstance(raw, list)
        and len(raw) == 4
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in raw)
    )


def _box(raw: list[Any] | None) -> tuple[int, int, int, int] | None:
    """A die's box on the photo: [x, y, w, h] in whole pixels, or None."""
    if raw is None:
        return None
    if not _is_box(raw):
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
