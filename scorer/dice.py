"""Dice values and poker-dice card faces.

Every die is stored and scored as a value 1..6. Poker dice show card ranks,
mapped as in RULES.md: 9=1, 10=2, J=3, Q=4, K=5, A=6. The face network, the
rendered and labelled sets and the taught profiles number a top face by its
class (:func:`face_class`): pips 1..6 are 0..5, card ranks 9..A are 6..11, and
12 is "not a die".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from scorer.errors import BadDice

VALUES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
CARD_RANKS: tuple[str, ...] = ("9", "10", "J", "Q", "K", "A")
#: The same ranks as Russian and Ukrainian poker dice print them: В(алет), Д(ама),
#: К(ороль), Т(уз). No glyph is another script's rank of a different value.
CYRILLIC_RANKS: tuple[str, ...] = ("9", "10", "В", "Д", "К", "Т")
#: The scripts a poker die prints its ranks in, by the name sets of dice and renders use.
RANK_SCRIPTS: dict[str, tuple[str, ...]] = {"latin": CARD_RANKS, "cyrillic": CYRILLIC_RANKS}
_RANK_VALUE = {rank: value for value, rank in zip(VALUES, CARD_RANKS, strict=True)}

Dice = tuple[int, ...]

#: A top face is ``pips`` or ``card`` (the reader's ``Die.face``, the labels' face).
FACES: tuple[str, ...] = ("pips", "card")
#: The face classes: 0..5 pips 1..6, from CARDS on card ranks 9..A, then BACKGROUND.
CARDS = 6
BACKGROUND = 12
FACE_CLASSES = 13
#: Each die face class's name, in class order (the YOLO sets' ``names``).
CLASS_NAMES: tuple[str, ...] = (*(str(v) for v in VALUES), *CARD_RANKS)

PIP_LAYOUT: dict[int, list[tuple[int, int]]] = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}
"""Where each face's pips lie: -1, 0 or 1 across and down from the face's centre.

One layout for every die drawn (the replay camera, the renders, the tests' throws).
"""


def card_rank(value: int) -> str:
    """The card rank a poker die shows for a value 1..6."""
    check_value(value)
    return CARD_RANKS[value - 1]


def face_class(face: str, value: int) -> int:
    """The class of a top face (``face`` "pips" or "card", ``value`` 1..6): 0..11.

    >>> face_class("pips", 6), face_class("card", 1)
    (5, 6)
    """
    if face not in FACES or value not in VALUES:
        raise BadDice(f"a die is pips or card with a value 1..6, not {face} {value}")
    return int(value) - 1 + (CARDS if face == "card" else 0)


def class_face(label: int) -> tuple[str, int]:
    """The (face, value) of a die face class 0..11: :func:`face_class` undone.

    >>> class_face(5), class_face(8)
    (('pips', 6), ('card', 3))
    """
    if label not in range(BACKGROUND):
        raise BadDice(f"a die face class is 0..{BACKGROUND - 1}, not {label}")
    return ("card", int(label) - CARDS + 1) if label >= CARDS else ("pips", int(label) + 1)


def check_value(value: object) -> int:
    """Return ``value`` if it is a die value 1..6, else raise :class:`BadDice`."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise BadDice(f"a die shows 1..6 (or 9, 10, J, Q, K, A), not {value!r}")
    return value


def parse_die(token: str | int) -> int:
    """Read one die as written by a person: ``4``, ``"4"``, ``"J"`` or ``"10"``."""
    if isinstance(token, int) and not isinstance(token, bool):
        return check_value(token)
    text = str(token).strip().upper()
    if text in _RANK_VALUE:
        return _RANK_VALUE[text]
    if text.isdigit() and len(text) == 1:
        return check_value(int(text))
    raise BadDice(f"a die shows 1..6 (or 9, 10, J, Q, K, A), not {token!r}")


def parse_dice(tokens: Iterable[str | int], count: int | None = None) -> Dice:
    """Read a throw; with ``count``, insist on exactly that many dice."""
    dice = tuple(parse_die(t) for t in tokens)
    if count is not None and len(dice) != count:
        raise BadDice(f"expected {count} dice, got {len(dice)}")
    return dice


def counts(dice: Sequence[int]) -> tuple[int, ...]:
    """How many dice show each value: ``counts(d)[v]`` for v in 1..6 (index 0 unused)."""
    tally = [0] * 7
    for value in dice:
        tally[value] += 1
    return tuple(tally)
