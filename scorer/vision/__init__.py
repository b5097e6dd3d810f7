"""Reading dice from photos of the tray: ``Reader(...).read(frame) -> Reading``."""

from collections.abc import Sequence

import numpy as np

from scorer.vision.reader import Reader
from scorer.vision.reading import DEFAULT_THRESHOLD, Die, Reading

__all__ = ["DEFAULT_THRESHOLD", "Die", "Reader", "Reading", "read_votes"]


def read_votes(
    frames: Sequence[np.ndarray], reader: Reader | None = None, faces: str = "any"
) -> Reading:
    """Read several frames of one throw and vote (see :meth:`Reader.read_votes`)."""
    return (reader or Reader()).read_votes(frames, faces)
