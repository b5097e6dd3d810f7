"""A set's letters: poker dice printing another script read with networks and crops of it.

The Latin face networks learnt poker dice printing 9 10 J Q K A; Russian and Ukrainian
dice print 9 10 В Д К Т, and those networks read their В as 10 or Q, Д as A and Т as J.
A set that says it prints Cyrillic (``set.json``'s ``ranks``) reads with that script's own
pair of face networks (``NETWORKS``, ``Reader.card_files``) and with a profile taught from
renders printing that script, the train card families and random art in many fonts
(``vision_models/ranks-cyrillic``, built by ``python -m vision_models.train.ranks``): its
crops vote beside the set's own taught ones (``DiceProfile.joined``), in games of poker
dice only, and its lessons are read with it too.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from scorer.errors import ScorerError

if TYPE_CHECKING:
    from scorer.vision.profile import DiceProfile
    from scorer.vision.reader import Reader

log = logging.getLogger(__name__)

#: the scripts whose dice start from a prior, and its folder beside the networks
PRIORS = {"cyrillic": "ranks-cyrillic"}
#: the scripts whose poker dice have face networks of their own beside the networks (the
#: poker dice's two fine-tuned on ranks set in fonts, half of them in that script, and on
#: 3D tables of its dice; built by ``make train``, ``vision_models/faces-cards-cyrillic.md``):
#: a reader told its dice print one reads them with these
NETWORKS = {"cyrillic": ("faces-cards-cyrillic.onnx", "faces-cards-2-cyrillic.onnx")}


def prior_folder(model_dir: str | Path, ranks: str) -> Path | None:
    """Where the prior of dice printing ``ranks`` lives in ``model_dir``; None for a
    script the networks learnt (Latin)."""
    name = PRIORS.get(ranks)
    return Path(model_dir) / name if name is not None else None


def load_prior(reader: Reader, ranks: str) -> DiceProfile | None:
    """The prior of dice printing ``ranks`` for this reader's face networks (described
    again if they changed since it was built), or None: none for that script, or its file
    missing or unreadable (a log line; the set then reads with its own crops alone)."""
    from scorer.vision.teaching import open_profile

    folder = prior_folder(reader.model_dir, ranks)
    if folder is None:
        return None
    before, reader.ranks = reader.ranks, ranks  # described by that script's networks
    try:
        return open_profile(folder, reader)
    except ScorerError as err:
        log.warning("poker dice printing %s read without their prior: %s", ranks, err)
        return None
    finally:
        reader.ranks = before


def with_prior(own: DiceProfile | None, prior: DiceProfile | None) -> DiceProfile | None:
    """The profile a set reads with: its own joined with the prior, either alone."""
    if prior is None:
        return own
    return own.joined(prior) if own is not None else prior
