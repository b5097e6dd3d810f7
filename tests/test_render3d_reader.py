"""The committed reader on a fixed set of physically based renders of held-out families.

The first ``PHOTOS`` test photos of the render cache's plans (base seed 0) in the
renderer's first look (``--version 1``, the look these floors were measured on), rendered as
``make renders`` renders them (640 px, 8 denoised samples): every one shows at least one
family the networks never trained on. The floors are the committed models' figures on
these photos less a margin for Cycles' last-bit differences between machines
(measured with ``benchmarks/render3d_reader.py --count 8``). Needs bpy: ``make test-render3d``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("bpy")

from scorer.vision.evaluation import Report, evaluate
from scorer.vision.labelled import load_split
from scorer.vision.reader import Reader
from vision_models.render3d.__main__ import main as render

PHOTOS = 8
FACES = {"pips": "pips", "cards": "cards", "mixed": "any"}
#: floors: the committed models read 65.38 % per die with 1 confident error
#: (``benchmarks/render3d_reader.py --count 8``; 53.85 % with 3 and one card die read as
#: pips before the poker dice had a face network of their own)
PER_DIE = 0.55
CONFIDENT_WRONG = 5
MIXED_UP = 1


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Report:
    root = tmp_path_factory.mktemp("render3d")
    args = ["--root", str(root), "--version", "1", "--train", "0", "--test", str(PHOTOS)]
    assert render([*args, "--max-side", "640", "--samples", "8", "--threads", "2"]) == 0
    reader = Reader()
    whole = Report(reader.threshold)
    for photo in load_split(root, "test"):
        kind = _kind(root, photo.path)
        result = evaluate(lambda image, f=FACES[kind]: reader.read(image, faces=f), [photo])
        whole.add(result.results[0])
    return whole


def _kind(root: Path, image: Path) -> str:
    return json.loads((root / "notes" / "test" / f"{image.stem}.json").read_text())["kind"]


@pytest.mark.slow
def test_the_reader_reads_held_out_rendered_dice_above_its_floor(report: Report) -> None:
    # given the fixed held-out renders, read as a table reads them (told the kind of dice)
    # then the reader keeps its measured floor
    assert len(report.results) == PHOTOS
    assert report.per_die >= PER_DIE, "\n".join(report.lines())
    _, wrong, _, _ = report.confident()
    assert wrong <= CONFIDENT_WRONG, "\n".join(report.lines())


@pytest.mark.slow
def test_a_mixed_tray_read_as_any_dice_mixes_up_the_kinds_at_most_once(report: Report) -> None:
    # given the same renders, the mixed trays read with any face allowed (photos of one
    # kind are told their kind, so they cannot mix them up)
    confusion = report.confusion()
    # then card dice read as pips and pip dice read as cards stay at the measured 1 (a
    # queen read as a six; issue 23 asks for 0)
    assert confusion[:6, 6:12].sum() + confusion[6:12, :6].sum() <= MIXED_UP
