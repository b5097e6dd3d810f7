"""What the reader saw on the tray: one :class:`Die` per die, gathered in a :class:`Reading`.

These are the types the table, the game log and the web page pass around, so they are
plain frozen dataclasses with a ``to_dict`` that is the JSON the CLI and the API print.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: Below this confidence a die is "unsure": the screen asks the player to check it.
DEFAULT_THRESHOLD: float = 0.8

#: A second choice at least this likely is offered beside the first (``Die.guess``).
GUESS_FLOOR: float = 0.1

#: The kinds of dice a game can be played with, as the reader is told (``Reader.read``).
FACE_KINDS: tuple[str, ...] = ("pips", "cards", "any")
BACKENDS: tuple[str, ...] = ("cv2", "onnxruntime")
"""What may run the reader's networks (here, so the command line need not load OpenCV)."""


def fastest_backend() -> str:
    """onnxruntime where it is installed (about twice as fast a photo as OpenCV's dnn,
    the same readings to 1e-5: ``benchmarks/vision_peer.py``), else cv2."""
    import importlib.util

    return "onnxruntime" if importlib.util.find_spec("onnxruntime") else "cv2"


@dataclass(frozen=True)
class Die:
    """One die's top face as read: value 1..6, face kind, confidence 0..1, box [x, y, w, h].

    ``guess`` is the reader's second choice of the same face kind, where it is likely
    enough to be worth asking about: an unsure die is then "J, or K?", not "J?".
    """

    value: int
    face: str
    confidence: float
    box: tuple[int, int, int, int]
    rank: str | None = None
    guess: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of a die; card dice add their rank, dice with a second guess it."""
        out: dict[str, Any] = {
            "value": self.value,
            "face": self.face,
            "confidence": round(float(self.confidence), 4),
            "box": [int(v) for v in self.box],
        }
        if self.rank is not None:
            out["rank"] = self.rank
        if self.guess is not None:
            out["guess"] = self.guess
        return out


@dataclass(frozen=True)
class Reading:
    """Every die found in one frame (or voted over several), and the time it took."""

    dice: tuple[Die, ...]
    ms: float
    threshold: float = DEFAULT_THRESHOLD

    @property
    def values(self) -> tuple[int, ...]:
        """The values 1..6 in reading order (left to right, top to bottom)."""
        return tuple(d.value for d in self.dice)

    @property
    def unsure(self) -> tuple[int, ...]:
        """Indexes of the dice read with a confidence under the threshold."""
        return tuple(i for i, d in enumerate(self.dice) if d.confidence < self.threshold)

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of a reading: dice, unsure indexes and milliseconds."""
        return {
            "dice": [d.to_dict() for d in self.dice],
            "unsure": list(self.unsure),
            "ms": round(float(self.ms), 2),
        }
