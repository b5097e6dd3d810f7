"""A spot's outline: a round token is no die, a die's square face is one."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scorer.vision.outline import ROUND, is_round, roundness
from scorer.vision.reader import without_round
from scorer.vision.reading import Die

CENTRE = (100, 100)


def _felt(seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    img = np.full((200, 200, 3), (40, 110, 40), np.uint8)
    return cv2.add(img, rng.integers(0, 12, img.shape).astype(np.uint8))


def _token(img: np.ndarray, centre: tuple[int, int] = CENTRE, radius: int = 20) -> np.ndarray:
    """An ivory number token with a printed 9, as board games lay beside the tray."""
    cv2.circle(img, centre, radius, (200, 225, 235), -1, cv2.LINE_AA)
    x, y = centre
    cv2.putText(img, "9", (x - 10, y + 12), cv2.FONT_HERSHEY_SIMPLEX, 1, (30, 30, 160), 2)
    return img


def _die(img: np.ndarray, centre: tuple[int, int] = CENTRE, turn: float = 0.0) -> np.ndarray:
    """A white die showing three, turned ``turn`` degrees."""
    corners = cv2.boxPoints((centre, (36, 36), turn)).astype(np.int32)
    cv2.fillConvexPoly(img, corners, (245, 245, 245), cv2.LINE_AA)
    x, y = centre
    for dx, dy in ((-9, -9), (0, 0), (9, 9)):
        cv2.circle(img, (x + dx, y + dy), 3, (20, 20, 20), -1)
    return img


def test_a_token_is_round() -> None:
    # given a number token on felt, when its outline is measured, then it is round
    assert roundness(_token(_felt()), CENTRE, 40) >= ROUND
    assert is_round(_token(_felt()), CENTRE, 40)


@pytest.mark.parametrize("turn", [0.0, 20.0, 45.0])
def test_a_die_is_not_round(turn: float) -> None:
    # given a die's square face at any turn, then its outline is far from round
    r = roundness(_die(_felt(), turn=turn), CENTRE, 36)
    assert r is not None and r < 0.9
    assert not is_round(_die(_felt(), turn=turn), CENTRE, 36)


def test_bare_felt_is_not_round() -> None:
    # given nothing at the spot, then nothing round is there
    assert not is_round(_felt(), CENTRE, 36)


def _read(centre: tuple[int, int], confidence: float, side: int = 40) -> Die:
    x, y = centre
    return Die(3, "card", confidence, (x - side // 2, y - side // 2, side, side), "J")


def _table() -> tuple[np.ndarray, Die, Die]:
    img = _die(_token(_felt(), (60, 100)), (140, 100))
    return img, _read((60, 100), 0.5), _read((140, 100), 0.5, 36)


def test_a_doubted_token_is_dropped() -> None:
    # given a token and a die both read in doubt, when round spots are taken out,
    # then the die alone is left
    img, token, die = _table()
    assert without_round(img, (token, die)) == (die,)


def test_the_count_keeps_a_round_spot() -> None:
    # given a game that threw two dice, then a round spot stays: the count is not met
    img, token, die = _table()
    assert without_round(img, (token, die), least=2) == (token, die)
    assert without_round(img, (token, die), least=1) == (die,)


def test_a_sure_reading_is_never_measured() -> None:
    # given the token read surely (as no token was on the tables), then it is kept
    img, _, die = _table()
    sure = _read((60, 100), 0.999)
    assert without_round(img, (sure, die)) == (sure, die)


def test_the_reader_leaves_out_a_token_beside_a_throw() -> None:
    from scorer.vision.reader import Reader
    from tests.test_vision_profile import logo_throw

    # given two logo dice and a white token with a dark dot beside them, which the
    # networks alone take for a third die (a one)
    image, _ = logo_throw([3, 4], seed=21)
    cv2.circle(image, (560, 90), 22, (235, 235, 235), -1, cv2.LINE_AA)
    cv2.circle(image, (560, 90), 7, (30, 30, 30), -1, cv2.LINE_AA)
    reader = Reader()
    # when the photo is read alone, and as a press's frames
    one = reader.read(image)
    press = reader.read_votes([image, image, image])
    # then the two dice are read and nothing at the token
    for reading in (one, press):
        assert sorted(d.value for d in reading.dice) == [3, 4]
        assert all(abs(d.box[0] + d.box[2] / 2 - 560) > 30 for d in reading.dice)
    # and a game that threw three dice keeps the spot: the count is not met without it
    assert len(reader.read(image, least=3).dice) == 3
