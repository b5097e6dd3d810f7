"""poker_bluff as a game: hidden turns of claims, a call, the camera's reveal, lives.

Hidden throws are never recorded: the dice stay under the cup, and only a call
brings them to the tray, where the camera (or typed dice) shows them. The
state therefore holds no dice until a call; a press of the button before it
is refused with "dice are hidden: call to reveal". After the reveal the table
may tap a die to correct it; ``judge`` then takes the life and opens the next
round with the loser.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from scorer.errors import BadDice, ForbiddenMove, ScorerError
from scorer.game import Game, Setup, _dice_list
from scorer.rules.poker_bluff import Claim, PokerBluff

HIDDEN = "dice are hidden: call to reveal"


@dataclass(frozen=True)
class BluffGame(Game):
    """A bluff game after some events; :meth:`Game.start` builds it for ``poker_bluff``."""

    lives: tuple[int, ...] = ()
    claims: tuple[tuple[int, Claim], ...] = ()
    caller: int | None = None
    photo: str | None = None
    boxes: tuple[Any, ...] = ()
    rounds_played: int = 0
    last_round: Mapping[str, Any] | None = None
    event_types: ClassVar[tuple[str, ...]] = ("claim", "call", "throw", "correct", "judge", "undo")

    @classmethod
    def start(cls, setup: Setup) -> BluffGame:
        rules = PokerBluff(setup.options)
        return cls.seated(setup, rules, lives=(int(rules.options["lives"]),) * len(setup.players))

    @property
    def bluff(self) -> PokerBluff:
        assert isinstance(self.rules, PokerBluff)
        return self.rules

    @property
    def last_claim(self) -> Claim | None:
        return self.claims[-1][1] if self.claims else None

    @property
    def revealing(self) -> bool:
        return self.caller is not None

    # -- events ------------------------------------------------------------------------

    def _on_claim(self, event: Mapping[str, Any]) -> BluffGame:
        self._check_turn(event)
        if self.revealing:
            raise ForbiddenMove("the last claim was called: reveal the dice")
        claim = self.bluff.check_claim(
            {"hand": event.get("hand"), "ranks": event.get("ranks")}, self.last_claim
        )
        return dataclasses.replace(
            self, claims=(*self.claims, (self.player, claim)), player=self._next_alive(self.player)
        )

    def _on_call(self, event: Mapping[str, Any]) -> BluffGame:
        self._check_turn(event)
        if self.revealing:
            raise ForbiddenMove("the last claim is already called: reveal the dice")
        if not self.claims:
            raise ForbiddenMove("nothing to call yet: the first player claims a hand")
        return dataclasses.replace(self, caller=self.player, throw=0, dice=())

    def _on_throw(self, event: Mapping[str, Any]) -> BluffGame:
        if not self.revealing:
            raise ForbiddenMove(HIDDEN)
        values = _dice_list(event.get("dice"))
        if len(values) != self.rules.dice_count:
            raise BadDice(f"a reveal shows all {self.rules.dice_count} dice, not {len(values)}")
        # a second reveal (a better photo) replaces the first
        fresh = dataclasses.replace(self, throw=0, dice=())
        after = Game._on_throw(fresh, event)
        reading = event.get("reading") or {}
        boxes = reading.get("boxes") if isinstance(reading, Mapping) else None
        photo = reading.get("photo") if isinstance(reading, Mapping) else None
        if boxes is not None and (not isinstance(boxes, list) or len(boxes) != len(values)):
            raise ScorerError("a reading gives one box per die")
        return dataclasses.replace(
            after, photo=photo if isinstance(photo, str) else None, boxes=tuple(boxes or ())
        )

    def _on_judge(self, event: Mapping[str, Any]) -> BluffGame:
        if not self.revealing:
            raise ForbiddenMove("nothing to judge: call the last claim first")
        if not self.dice:
            raise ForbiddenMove("reveal the dice first: press the button or type them in")
        if self.unsure:
            raise ForbiddenMove(f"confirm die {self.unsure[0] + 1} first (tap it)")
        verdict = self._verdict()
        loser = verdict["loser"]
        lives = list(self.lives)
        lives[loser] -= 1
        alive = [i for i, n in enumerate(lives) if n > 0]
        state = dataclasses.replace(self, lives=tuple(lives))
        starter = loser if lives[loser] > 0 else state._next_alive(loser)
        return dataclasses.replace(
            state,
            claims=(),
            caller=None,
            player=starter,
            throw=0,
            dice=(),
            photo=None,
            boxes=(),
            turn=self.turn + 1,
            rounds_played=self.rounds_played + 1,
            last_round={**verdict, "out": lives[loser] == 0},
            finished=len(alive) <= 1,
        )

    def _on_hold(self, event: Mapping[str, Any]) -> BluffGame:
        raise ForbiddenMove("a reveal is judged as it lies: nothing to hold")

    # -- helpers ---------------------------------------------------------------------------

    def _next_alive(self, seat: int) -> int:
        n = len(self.setup.players)
        for step in range(1, n + 1):
            candidate = (seat + step) % n
            if self.lives[candidate] > 0:
                return candidate
        return seat

    def _verdict(self) -> dict[str, Any]:
        claimer, claim = self.claims[-1]
        assert self.caller is not None
        holds = self.bluff.holds(self.values, claim)
        return {
            "claim": claim.to_dict(),
            "claimer": claimer,
            "caller": self.caller,
            "dice": list(self.values),
            "hand": self.bluff.hand(self.values).category,
            "holds": holds,
            "loser": self.caller if holds else claimer,
            "photo": self.photo,
            "boxes": list(self.boxes),
        }

    # -- what pages ask ----------------------------------------------------------------------

    def totals(self) -> tuple[int, ...]:
        """Lives left: the sheet of a bluff game."""
        return self.lives

    def winners(self) -> tuple[int, ...]:
        return tuple(i for i, n in enumerate(self.lives) if n > 0) if self.finished else ()

    def scores(self) -> dict[str, int]:
        return {}

    def timeout_events(self, rng: Any = None) -> list[dict[str, Any]]:
        """A bluff has no automatic move: a claim is the player's own."""
        return []

    def state(self) -> dict[str, Any]:
        state = super().state()
        reveal = None
        if self.revealing and self.dice and not self.unsure:
            reveal = self._verdict()
        elif self.revealing:
            reveal = {"photo": self.photo, "boxes": list(self.boxes)}
        last = self.last_claim
        state["round"] = self.rounds_played + 1
        state["throws_allowed"] = 1 if self.revealing else 0
        state["bluff"] = {
            "lives": list(self.lives),
            "claims": [{"player": p, **c.to_dict()} for p, c in self.claims],
            "phase": "reveal" if self.revealing else "claim",
            "caller": self.caller,
            "claimer": self.claims[-1][0] if self.claims else None,
            "next_claims": []
            if self.revealing or self.finished
            else [c.to_dict() for c in self.bluff.next_claims(last)],
            "can_call": bool(self.claims) and not self.revealing and not self.finished,
            "reveal": reveal,
            "photo": self.photo,
            "last_round": dict(self.last_round) if self.last_round else None,
        }
        return state
