"""The reader on pictures drawn here with cv2: plain dice on a felt, no photos needed."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from scorer.dice import PIP_LAYOUT
from scorer.errors import ScorerError
from scorer.vision import Reader, read_votes
from scorer.vision import crop as crop_module
from scorer.vision import reader as reader_module
from scorer.vision.crop import COURT_INPUT, COURT_SPAN, court_crop, face_crop, tilt, tilts
from scorer.vision.network import OnnxRuntimeNet, board_blob, crops_blob
from scorer.vision.reader import (
    BACKGROUND,
    COURTS,
    DECISIVE,
    FAINT,
    FINDER_STRIDE,
    PEAK_SHIFT,
    SAME_DIE,
    SAME_FACE,
    SIZE_UNIT,
    SURE_DIE,
    ZOOM_IN,
    ZOOM_OUT,
    BadFrame,
    ModelMissing,
    as_bgr,
    default_model_dir,
    face_mask,
    huddled,
    peaks_found,
    restricted,
    second_guess,
)

ANY = face_mask("any")

needs_models = pytest.mark.skipif(
    not (default_model_dir() / "faces.onnx").is_file(),
    reason="vision_models/*.onnx not built: run `make train`",
)


def draw_die(
    image: np.ndarray,
    centre: tuple[float, float],
    value: int,
    side: float = 60,
    angle: float = 0.0,
    body: tuple[int, int, int] = (235, 235, 235),
    pip: tuple[int, int, int] = (20, 20, 20),
) -> None:
    """A die seen from above: a rounded square with the standard pip pattern."""
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))

    def at(u: float, v: float) -> tuple[int, int]:
        return (round(centre[0] + u * c - v * s), round(centre[1] + u * s + v * c))

    h = side / 2
    corners = np.array([at(-h, -h), at(h, -h), at(h, h), at(-h, h)], np.int32)
    cv2.fillConvexPoly(image, corners, (40, 40, 40), cv2.LINE_AA)
    inner = np.array([at(-h + 2, -h + 2), at(h - 2, -h + 2), at(h - 2, h - 2), at(-h + 2, h - 2)])
    cv2.fillConvexPoly(image, inner.astype(np.int32), body, cv2.LINE_AA)
    for u, v in PIP_LAYOUT[value]:
        cv2.circle(
            image, at(u * side * 0.27, v * side * 0.27), round(side * 0.09), pip, -1, cv2.LINE_AA
        )


def felt(width: int = 640, height: int = 640, colour=(60, 120, 40), seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    image = np.empty((height, width, 3), np.uint8)
    image[:] = colour
    noise = rng.normal(0, 4, image.shape)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


def throw(values, seed=0, side=60, angle_step=17.0):
    image = felt(seed=seed)
    spots = [(120 + 100 * i, 200 + 60 * (i % 2)) for i in range(len(values))]
    for i, (v, p) in enumerate(zip(values, spots, strict=True)):
        draw_die(image, p, v, side=side, angle=i * angle_step)
    return image, spots


@pytest.fixture(scope="module")
def reader() -> Reader:
    if not (default_model_dir() / "faces.onnx").is_file():
        pytest.skip("vision_models/*.onnx not built: run `make train`")
    return Reader()


# ---------------------------------------------------------------- pieces without models


def test_given_a_grey_or_bgra_frame_when_converted_then_three_channel_uint8():
    grey = np.full((10, 12), 7, np.uint8)
    assert as_bgr(grey).shape == (10, 12, 3)
    bgra = np.zeros((10, 12, 4), np.uint8)
    assert as_bgr(bgra).shape == (10, 12, 3)
    as_float = np.ones((4, 4, 3), np.float32)
    assert as_bgr(as_float).max() == 255


def test_given_not_a_picture_when_converted_then_bad_frame():
    with pytest.raises(BadFrame):
        as_bgr(np.zeros((0, 0), np.uint8))
    with pytest.raises(BadFrame):
        as_bgr("photo.jpg")  # type: ignore[arg-type]


def test_given_a_die_near_the_edge_when_cropped_then_48_square_with_the_die_centred():
    image = felt()
    draw_die(image, (20, 20), 5, side=40)
    crop = face_crop(image, (20, 20), 40)
    assert crop.shape == (48, 48, 3)
    # the die's dark centre pip sits in the middle of the crop
    assert crop[24, 24].mean() < 80


@pytest.mark.parametrize("angle", [0.0, 12.0, 27.0, 40.0, -33.0])
def test_given_a_turned_die_when_cropped_then_its_edges_run_upright(angle):
    # given a die of four drawn turned by some angle
    image = felt()
    draw_die(image, (300, 300), 4, side=50, angle=angle)
    # when it is cut for the face network
    crop = face_crop(image, (300, 300), 50)
    # then its edges run upright, its four pips sit on the crop's diagonals, and the
    # middle (a four has no centre pip) is the die's white body
    assert abs(tilt(crop)) < 2.5
    h = 48 / 1.5 * 0.27  # pip offset in crop pixels
    for u, v in PIP_LAYOUT[4]:
        assert crop[round(24 + v * h), round(24 + u * h)].mean() < 110
    assert crop[24, 24].mean() > 180


@pytest.mark.parametrize("angle", [0.0, 21.0, -38.0])
def test_given_a_turned_die_when_cut_for_the_court_network_then_closer_and_upright(angle):
    # given a die of four drawn turned by some angle
    image = felt()
    draw_die(image, (300, 300), 4, side=50, angle=angle)
    # when it is cut for the court network
    crop = court_crop(image, (300, 300), 50)
    # then the crop is COURT_INPUT px of COURT_SPAN x the side, turned as the face crop is:
    # the pips sit on its diagonals, the die's white body between them
    assert crop.shape == (COURT_INPUT, COURT_INPUT, 3)
    assert abs(tilt(cv2.resize(crop, (48, 48), interpolation=cv2.INTER_AREA))) < 2.5
    h = COURT_INPUT / COURT_SPAN * 0.27
    mid = (COURT_INPUT - 1) / 2
    for u, v in PIP_LAYOUT[4]:
        assert crop[round(mid + v * h), round(mid + u * h)].mean() < 110
    assert crop[round(mid), round(mid)].mean() > 180


def sobel_tilt(crop: np.ndarray) -> float:
    """The turn as ``tilt`` measured it one crop at a time with OpenCV's Sobel, before
    the turns were measured over a stack of crops (issue 23's speed)."""
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    a, b = gx * gx - gy * gy, 2 * gx * gy
    weight = crop_module._middle(grey.shape[0]) / (gx * gx + gy * gy + 1e-6)
    re, im = float(((a * a - b * b) * weight).sum()), float((2 * a * b * weight).sum())
    return math.degrees(math.atan2(im, re) / 4)


def test_given_many_crops_when_their_turns_are_measured_at_once_then_each_is_one_crops_to_the_bit():
    # given dice turned every way, some at the picture's edge (reflected borders), and noise
    rng = np.random.default_rng(23)
    image = felt()
    for i, angle in enumerate(np.linspace(-44.0, 44.0, 9)):
        draw_die(image, (40 + 70 * i, 300), 1 + i % 6, side=45, angle=float(angle))
    crops = [face_crop(image, (40 + 70 * i, 300), 45) for i in range(9)]
    crops += [rng.integers(0, 256, (48, 48, 3), dtype=np.uint8) for _ in range(5)]
    crops += [cv2.resize(image[280:320, 0:40], (48, 48))]
    # when their turns are measured over the stack
    turns = tilts(crops)
    # then each is exactly the turn measured on that crop alone with OpenCV's Sobel, so
    # that batching changes no crop the face network sees
    assert turns == [sobel_tilt(c) for c in crops]
    assert [tilt(c) for c in crops] == turns
    assert tilts([]) == []


def one_peak_at_a_time(heat: np.ndarray, log_side: np.ndarray, scale: float, weakest: float):
    """The finder's decoding as it was written first: each peak's 3x3 patch on its own."""
    peaks = (heat >= weakest) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
    ys, xs = np.nonzero(peaks)
    centres, sides, heats = [], [], []
    for i in np.argsort(-heat[ys, xs])[:60]:
        y, x = int(ys[i]), int(xs[i])
        y0, y1, x0, x1 = max(0, y - 1), y + 2, max(0, x - 1), x + 2
        patch = heat[y0:y1, x0:x1]
        wy, wx = np.mgrid[y0:y1, x0:x1][:, : patch.shape[0], : patch.shape[1]]
        cy = float((patch * wy).sum() / patch.sum())
        cx = float((patch * wx).sum() / patch.sum())
        side = float(np.exp(min(max(log_side[y, x], np.float32(-3)), np.float32(3))))
        side = side * SIZE_UNIT / scale
        centre = (
            (cx + PEAK_SHIFT) * FINDER_STRIDE / scale,
            (cy + PEAK_SHIFT) * FINDER_STRIDE / scale,
        )
        if any(
            np.hypot(centre[0] - c[0], centre[1] - c[1]) < SAME_DIE * max(side, s)
            for c, s in zip(centres, sides, strict=True)
        ):
            continue
        centres.append(centre)
        sides.append(side)
        heats.append(float(heat[y, x]))
    return np.array(centres, np.float32), np.array(sides, np.float32), np.array(heats)


def test_given_heat_maps_when_their_peaks_are_decoded_at_once_then_each_is_one_peaks_to_the_bit():
    # given heat maps of blurred noise with peaks everywhere, the map's edges included
    rng = np.random.default_rng(23)
    for shape in [(80, 80), (40, 40), (64, 112)] * 20:
        heat = cv2.GaussianBlur(rng.random(shape).astype(np.float32), (0, 0), rng.uniform(0.5, 3))
        heat = ((heat - heat.min()) / (heat.max() - heat.min())) ** rng.uniform(1, 6)
        heat = heat.astype(np.float32)
        log_side = rng.normal(0, 2, shape).astype(np.float32)
        scale = float(rng.uniform(0.1, 3))
        # when all peaks are decoded at once
        got = peaks_found(heat, log_side, scale, 0.2)
        # then centres, sides and heat are those of the peak-by-peak loop, to the bit
        want = one_peak_at_a_time(heat, log_side, scale, 0.2)
        for g, w in zip(got, want, strict=True):
            assert g.dtype == w.dtype and g.shape == w.shape and np.array_equal(g, w)
    empty = peaks_found(np.zeros((40, 40), np.float32), np.zeros((40, 40), np.float32), 1.0)
    assert [len(a) for a in empty] == [0, 0, 0]


def test_given_pictures_when_made_network_inputs_then_opencvs_blobs_to_the_bit():
    # given every 8-bit level in every channel, on a board wider than the picture
    levels = np.arange(256, dtype=np.uint8)
    picture = np.stack([levels, levels[::-1], np.roll(levels, 85)], 1).reshape(16, 16, 3)
    board = np.full((32, 48, 3), 114, np.uint8)
    board[:16, :16] = picture
    # when made into the finder's input, then it is OpenCV's blob of the padded board
    want = cv2.dnn.blobFromImage(board, 1.0 / 255.0)
    got = board_blob(picture, 32, 48)
    assert got.dtype == want.dtype and np.array_equal(got, want)
    # and crops made into one input are OpenCV's blob of them too
    crops = [picture, np.ascontiguousarray(picture[::-1]), np.rot90(picture)]
    assert np.array_equal(crops_blob(crops), cv2.dnn.blobFromImages(crops, 1.0 / 255.0))


def test_given_crops_over_the_frames_edge_when_cut_then_as_from_the_frame_padded_whole():
    # given a small frame and crops partly or wholly off it, of every size
    rng = np.random.default_rng(23)
    image = rng.integers(0, 256, (60, 45, 3), dtype=np.uint8)
    for _ in range(300):
        centre = (float(rng.uniform(-40, 85)), float(rng.uniform(-40, 100)))
        span = float(rng.uniform(2, 90))
        # when cut, then the pixels are those of the whole frame padded by its edges
        n = max(4, round(max(4.0, span)))
        x0, y0 = round(centre[0] - max(4.0, span) / 2), round(centre[1] - max(4.0, span) / 2)
        pad = max(0, -x0, -y0, x0 + n - 45, y0 + n - 60)
        whole = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
        crop = whole[y0 + pad : y0 + pad + n, x0 + pad : x0 + pad + n]
        want = cv2.resize(
            crop, (48, 48), interpolation=cv2.INTER_AREA if n > 48 else cv2.INTER_LINEAR
        )
        assert np.array_equal(crop_module._square(image, centre, span, 48), want)


def test_given_a_die_and_its_measured_turn_when_turned_back_then_the_turn_is_undone():
    # given a die drawn turned 20 degrees clockwise (y points down), and its measured turn
    image = felt()
    draw_die(image, (200, 200), 1, side=60, angle=20.0)
    square = cv2.resize(image[155:245, 155:245], (48, 48), interpolation=cv2.INTER_AREA)
    turn = tilt(square)
    # when the picture is turned by it (OpenCV turns counter-clockwise by a positive angle)
    back = cv2.warpAffine(image, cv2.getRotationMatrix2D((200, 200), turn, 1.0), (640, 640))
    # then the turn was 20 degrees, and the die now stands upright
    assert turn == pytest.approx(20.0, abs=2.0)
    again = cv2.resize(back[155:245, 155:245], (48, 48), interpolation=cv2.INTER_AREA)
    assert abs(tilt(again)) < 2.0


def _spot(x: float, face: int, side: float = 60.0, heat: float = 0.9) -> reader_module._Spot:
    probs = np.full(BACKGROUND + 1, 0.01)
    probs[face] = 0.9
    return reader_module._Spot((x, 100.0), side, heat, probs)


@pytest.mark.parametrize(
    ("second", "between", "kept"),
    [
        (_spot(130.0, 11, side=40.0, heat=0.3), 0.0, 1),  # the ace's faint index
        (_spot(130.0, 11, side=40.0, heat=0.6), 0.99, 1),  # strong, but one ace between
        (_spot(130.0, 11, side=40.0, heat=0.6), 0.1, 2),  # strong, nothing between: leaning
        (_spot(160.0, 11, heat=0.3), 0.99, 2),  # a touching die showing an ace too
        (_spot(130.0, 10, side=40.0, heat=0.3), 0.99, 2),  # close and faint, but a king
    ],
)
def test_given_a_spot_beside_a_stronger_one_reading_its_face_when_one_die_then_reported_once(
    reader, monkeypatch, second, between, kept
):
    # given an ace found at x = 100 (side 60, strongest) and a second spot beside it,
    # and what a crop centred between them reads as an ace
    spots = [_spot(100.0, 11), second]
    looks = []

    def faces_read(crops, allowed, taught=True, sides=None):
        looks.append(crops)
        probs = np.full((len(crops), BACKGROUND + 1), 0.0)
        probs[:, spots[0].probs.argmax()] = between
        return probs

    monkeypatch.setattr(reader, "_run_faces", faces_read)
    # when each die is to be reported once
    dice = reader._one_per_die(felt(), spots, ANY)
    # then a spot reading the same face within SAME_FACE x the side is the same die when
    # it is faint or a crop between the two reads one ace whole; only a strong spot
    # that close needed that look
    assert len(dice) == kept and dice[0] is spots[0]
    close = second.probs.argmax() == 11 and second.centre[0] - 100.0 < SAME_FACE * 60
    assert len(looks) == int(close and second.heat >= FAINT)


def test_given_two_close_spots_reading_one_pip_face_when_reported_then_both_are_dice(
    reader, monkeypatch
):
    # given a three found at x = 100 and a faint three 0.5 of a side beside it (two small
    # dice side by side), and a crop between them that would read a three whole
    spots = [_spot(100.0, 2), _spot(130.0, 2, side=40.0, heat=0.3)]
    three = np.eye(BACKGROUND + 1)[2]
    monkeypatch.setattr(
        reader,
        "_run_faces",
        lambda crops, allowed, taught=True, sides=None: np.tile(three, (len(crops), 1)),
    )
    # when each die is to be reported once, then both are: a pip face's print is not in
    # parts that the finder finds apart
    assert reader._one_per_die(felt(), spots, ANY) == spots


def test_given_a_folder_without_models_when_reader_built_then_it_says_how_to_build(tmp_path):
    with pytest.raises(ModelMissing, match="make train"):
        Reader(tmp_path)


def test_given_a_bad_tray_when_reader_built_then_refused():
    with pytest.raises(ScorerError):
        Reader(tray=(0, 0, -5, 10))


# ---------------------------------------------------------------- the trained reader


@needs_models
def test_given_an_empty_felt_when_read_then_no_dice(reader):
    assert reader.read(felt()).dice == ()


@needs_models
def test_given_drawn_dice_when_read_then_one_die_each_where_it_lies(reader):
    values = [1, 2, 3, 4, 5, 6]
    image, spots = throw(values)
    reading = reader.read(image)
    assert len(reading.dice) == len(values)
    for die, (x, y) in zip(reading.dice, spots, strict=True):
        bx, by, bw, bh = die.box
        assert abs(bx + bw / 2 - x) < 15 and abs(by + bh / 2 - y) < 15
        assert die.face == "pips" and die.rank is None
        assert 0.0 <= die.confidence <= 1.0
    assert reading.ms > 0


@needs_models
def test_given_dice_at_any_sub_pixel_spot_when_read_then_boxes_are_centred_on_them(reader):
    # given 60 small dice (40 px) drawn at random sub-pixel offsets and turns
    rng = np.random.default_rng(3)
    offsets = []
    for k in range(12):
        image, spots = felt(seed=k), []
        for i in range(5):
            spot = (100 + 110 * i + rng.uniform(0, 8), 150 + 100 * (k % 3) + rng.uniform(0, 8))
            draw_die(image, spot, int(rng.integers(1, 7)), side=40, angle=rng.uniform(0, 90))
            spots.append(spot)
        # when read
        dice = reader.read(image).dice
        for x, y in spots:
            centres = [(d.box[0] + d.box[2] / 2, d.box[1] + d.box[3] / 2) for d in dice]
            cx, cy = min(centres, key=lambda c: (c[0] - x) ** 2 + (c[1] - y) ** 2)
            offsets.append((cx - x, cy - y))
    # then no systematic shift (the finder's peaks sit half a heatmap cell up-left, ~4 px
    # here, unless decoding puts it back) and crops are cut around the die, not beside it
    mean = np.mean(offsets, axis=0)
    assert np.all(np.abs(mean) < 2.0), mean
    assert np.median(np.hypot(*np.array(offsets).T)) < 3.5


@needs_models
def test_given_drawn_dice_when_read_then_every_value_right(reader):
    for values in ([1, 2, 3, 4, 5, 6], [2, 5, 6], [5, 2, 3]):
        assert reader.read(throw(values)[0]).values == tuple(values)


@needs_models
def test_given_a_grey_frame_when_read_then_the_same_dice(reader):
    image, _ = throw([2, 5, 6])
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    colour, grey_reading = reader.read(image), reader.read(grey)
    assert len(grey_reading.dice) == len(colour.dice) == 3
    for a, b in zip(colour.dice, grey_reading.dice, strict=True):
        assert abs(a.box[0] - b.box[0]) <= 6 and abs(a.box[1] - b.box[1]) <= 6


@needs_models
def test_given_a_huge_frame_when_read_then_the_dice_in_its_pixels(reader):
    image, spots = throw([3, 4])
    huge = cv2.resize(image, None, fx=5, fy=5, interpolation=cv2.INTER_CUBIC)
    reading = reader.read(huge)
    assert len(reading.dice) == 2
    # within a quarter of a die (60 px drawn, 300 px here) of where it was drawn
    assert abs(reading.dice[0].box[0] + reading.dice[0].box[2] / 2 - 5 * spots[0][0]) < 75


@needs_models
def test_given_dice_too_big_for_the_finder_when_read_then_each_is_found_whole(reader):
    # given four dice 140 px wide in a 640 px frame (70 px on the finder's board: a camera
    # close to a small tray), which the finder alone splits into their pips
    image = felt(seed=1)
    spots = [(150, 170), (470, 190), (170, 470), (460, 460)]
    values = [6, 5, 3, 4]
    for i, (value, spot) in enumerate(zip(values, spots, strict=True)):
        draw_die(image, spot, value, side=140, angle=11 + 23 * i)
    # when read
    dice = reader.read(image).dice
    # then one die each, where it lies, with its value
    assert len(dice) == 4
    for value, (x, y) in zip(values, spots, strict=True):
        die = min(
            dice, key=lambda d: math.hypot(d.box[0] + d.box[2] / 2 - x, d.box[1] + d.box[3] / 2 - y)
        )
        assert (
            abs(die.box[0] + die.box[2] / 2 - x) < 35 and abs(die.box[1] + die.box[3] / 2 - y) < 35
        )
        assert die.value == value


# What the finder found at full scale inside a survey spot, as shares of its side
# (measured on the held-out renders and the held-out train photos seen closer).
HUDDLE_OF_FIVE = [0.36, 0.36, 0.39, 0.43]
PIPS_OF_A_BIG_SIX = [0.11, 0.11, 0.12, 0.13, 0.13, 0.13]
PIPS_OF_A_BIG_FIVE = [0.14, 0.18, 0.19, 0.19, 0.21, 0.22]
PIPS_OF_A_BIG_TWO = [0.33, 0.41]
A_BIG_DIE_FOUND_WHOLE_WITH_A_PIP = [0.33, 0.70]


@pytest.mark.parametrize(
    ("shares", "huddle"),
    [
        (HUDDLE_OF_FIVE, True),
        ([0.5, 0.55], True),
        (PIPS_OF_A_BIG_SIX, False),
        (PIPS_OF_A_BIG_FIVE, False),
        (PIPS_OF_A_BIG_TWO, False),
        (A_BIG_DIE_FOUND_WHOLE_WITH_A_PIP, False),
        ([0.95], False),
        ([], False),
    ],
)
def test_given_spots_inside_a_big_one_when_judged_then_only_touching_dice_are_a_huddle(
    shares, huddle
):
    # given the spots the finder found at full scale inside one big spot of the survey
    # when judged
    # then dice a third to two thirds of its side covering much of it are a huddle; a big
    # die's pips, or the die found whole, are not
    assert huddled(np.array(shares, np.float32)) is huddle


@pytest.mark.parametrize(
    ("inner", "huddle"),
    [
        ([3, 4, 1], True),  # dice of a camera far from the table: a four, a five, a two
        ([0, 0, 0, 0], False),  # a big die's pips, each read as a one
        ([0, 5], False),  # one die beside pips is not yet a huddle
    ],
)
def test_given_small_things_inside_a_big_spot_when_read_as_faces_then_only_dice_make_a_huddle(
    reader, monkeypatch, inner, huddle
):
    # given one big spot of the survey (200 px), and inside it small things of 30 px the
    # finder at full scale found, which the face network reads surely as the given faces
    found = [(250.0 + 30 * i, 300.0) for i in range(len(inner))]
    # when the reader asks whether the spot is a huddle of smaller dice
    answer = _big_spot_judged(reader, monkeypatch, found, inner, felt())
    # then it is one only when two or more of them are faces other than a one
    assert answer is huddle


def _big_spot_judged(reader, monkeypatch, found, faces, image) -> bool:
    """``Reader._huddle`` on one big survey spot (200 px at 300, 300), the finder at full
    scale finding things of 30 px at ``found`` that the face network reads surely as
    ``faces``."""
    centres = np.array([(300.0, 300.0)], np.float32)
    sides = np.array([200.0], np.float32)
    spots = np.array(found, np.float32)

    def finder_sees(*args, **kwargs):
        return spots, np.full(len(spots), 30.0, np.float32), np.ones(len(spots), np.float32)

    def faces_read(crops, allowed, taught=True, sides=None):
        probs = np.full((len(crops), BACKGROUND + 1), 0.001)
        probs[np.arange(len(crops)), faces[: len(crops)]] = 0.99
        return probs

    monkeypatch.setattr(reader_module, "find_on_board", finder_sees)
    monkeypatch.setattr(reader, "_run_faces", faces_read)
    return reader._huddle(image, image, 1.0, centres, sides, ANY)


@pytest.mark.parametrize(
    ("beside", "smaller"),
    [
        ([3, 4, 1], True),  # dice of the photo beside one big spot (a playing card)
        ([0, 0, 0], False),  # a big die's pips beside it, each read as a one
        ([3], False),  # one die beside one big spot: not more of them than big spots
    ],
)
def test_given_dice_beside_a_big_spot_when_they_outnumber_it_then_the_photo_is_not_of_big_dice(
    reader, monkeypatch, beside, smaller
):
    # given one big spot of the survey (200 px), and beside it (not inside) things of
    # 30 px the finder at full scale found, which the face network reads surely as faces
    found = [(500.0 + 40 * i, 300.0) for i in range(len(beside))]
    # when the reader asks whether the big spot is the size of the photo's dice
    answer = _big_spot_judged(reader, monkeypatch, found, beside, felt(800, 600))
    # then more dice beside it than big spots say the dice are the smaller ones
    assert answer is smaller


@pytest.mark.parametrize(("faces", "die"), [("any", True), ("cards", True), ("pips", False)])
def test_given_a_card_read_surely_when_the_survey_weighs_it_then_a_pip_game_does_not_count_it(
    faces, die
):
    # given a crop the face network reads surely as a jack (a playing card's letter)
    probs = np.full((1, BACKGROUND + 1), 0.001)
    probs[0, 8] = 0.99
    # when the survey asks whether it is a die of the game in play
    # then a pip game's survey does not take it for one of its dice
    assert bool(reader_module.sure_dice(probs, face_mask(faces))[0]) is die


@needs_models
def test_given_a_small_tray_in_a_big_frame_when_read_then_its_dice_are_read(reader):
    # given five dice 40 px wide in a 480 px tray in the middle of a 1920 px frame (under
    # 7 px on the finder's board at the whole frame's scale)
    image = felt(1920, 1920, seed=3)
    values = [6, 5, 3, 4, 2]
    spots = [(872, 920), (972, 888), (940, 1020), (1040, 984), (968, 960)]
    for i, (value, spot) in enumerate(zip(values, spots, strict=True)):
        draw_die(image, spot, value, side=40, angle=7 + 19 * i)
    # when read with the tray marked
    dice = Reader(tray=(720, 720, 480, 480)).read(image).dice
    # then the tray fills the finder's board and every die is read
    assert sorted(d.value for d in dice) == sorted(values)


@needs_models
def test_given_a_tray_region_when_read_then_dice_outside_are_ignored(reader):
    image, spots = throw([6, 1, 4, 2, 5])
    # given a tray that holds only the first two dice
    tray = (0, 60, 270, 400)
    reading = Reader(tray=tray).read(image)
    assert len(reader.read(image).dice) == 5
    assert len(reading.dice) == 2
    for die, (x, y) in zip(reading.dice, spots[:2], strict=True):
        bx, by, bw, bh = die.box
        assert abs(bx + bw / 2 - x) < 15 and abs(by + bh / 2 - y) < 15


@needs_models
def test_given_three_frames_of_one_throw_when_voted_then_one_die_each(reader):
    frames = [throw([5, 2, 3], seed=s)[0] for s in range(3)]
    reading = read_votes(frames, reader)
    assert len(reading.dice) == 3
    assert all(0.0 <= d.confidence <= 1.0 for d in reading.dice)


@needs_models
def test_given_three_frames_of_a_pip_game_when_voted_then_pip_faces_only(reader, monkeypatch):
    # given frames of three dice the face network calls card nines more than pip ones
    frames = [throw([1, 1, 1], seed=s)[0] for s in range(3)]
    probs = np.zeros(BACKGROUND + 1)
    probs[[6, 0, BACKGROUND]] = [0.6, 0.39, 0.01]
    monkeypatch.setattr(
        reader,
        "_run_faces",
        lambda crops, allowed, taught=True, sides=None: np.tile(probs, (len(crops), 1)),
    )
    # when voted on for a game of pip dice, then every die is a one, as sure as that leaves it
    reading = read_votes(frames, reader, faces="pips")
    assert [(d.face, d.value) for d in reading.dice] == [("pips", 1)] * 3
    assert all(d.confidence == pytest.approx(0.975) for d in reading.dice)


@needs_models
def test_given_a_die_seen_in_one_frame_of_three_when_voted_then_it_is_left_out(reader):
    frames = [throw([5, 2], seed=s)[0] for s in range(3)]
    draw_die(frames[1], (500, 450), 6, side=60)  # a flicker: one frame only
    reading = read_votes(frames, reader)
    assert len(reader.read(frames[1]).dice) == 3
    assert len(reading.dice) == 2
    assert all(d.box[1] < 400 for d in reading.dice)


@needs_models
def test_given_a_blank_die_when_read_then_reported_unsure_not_dropped(reader):
    image = felt()
    draw_die(image, (320, 320), 1, side=70)
    cv2.circle(image, (320, 320), 8, (235, 235, 235), -1)  # paint the one pip out
    draw_die(image, (150, 320), 4, side=70)
    reading = reader.read(image)
    # then the other die is still read, and any die reported at the blank spot is unsure
    four = [d for d in reading.dice if abs(d.box[0] + d.box[2] / 2 - 150) < 20]
    assert len(four) == 1
    blank = [d for d in reading.dice if abs(d.box[0] + d.box[2] / 2 - 320) < 20]
    assert all(d.confidence < reader.threshold for d in blank)


@needs_models
def test_given_an_unsure_die_when_named_then_a_turned_and_a_wider_crop_vote_too(
    reader, monkeypatch
):
    # given a blank die (no first look can be sure of it) beside a plain four, and the
    # court network left out (its own test is below)
    monkeypatch.setattr(reader, "_name_courts", lambda image, centres, sides, probs, *_: probs)
    image = felt()
    draw_die(image, (320, 320), 1, side=70)
    cv2.circle(image, (320, 320), 8, (235, 235, 235), -1)
    draw_die(image, (150, 320), 4, side=70)
    centres = np.array([(320.0, 320.0), (150.0, 320.0)], np.float32)
    sides = np.array([70.0, 70.0], np.float32)
    batches = []
    run_faces = reader._run_faces

    def spy(crops, allowed, taught=True, sides=None):
        batches.append(crops)
        return run_faces(crops, allowed, taught, sides)

    # when both are named
    reader._run_faces = spy
    try:
        probs = reader._name_faces(image, centres, sides, np.array([0.9, 0.9]), ANY)
    finally:
        del reader._run_faces
    # then the blank die was looked at twice more: half-turned, then through a crop
    # ZOOM_OUT times wider, and the three looks were averaged
    first = run_faces(batches[0], ANY)
    assert first[0].max() < DECISIVE
    unsure = [i for i in range(2) if first[i].max() < DECISIVE]
    assert len(batches) == 2 and len(batches[1]) == 2 * len(unsure)
    k = unsure.index(0)
    np.testing.assert_array_equal(batches[1][2 * k], np.rot90(batches[0][0], 2))
    wide = face_crop(image, centres[0], ZOOM_OUT * sides[0])
    np.testing.assert_array_equal(batches[1][2 * k + 1], wide)
    looks = run_faces([batches[0][0], batches[1][2 * k], wide], ANY)
    np.testing.assert_allclose(probs[0], looks.mean(0), atol=1e-6)


@needs_models
def test_given_an_unsure_poker_die_when_named_then_a_narrower_crop_votes_too(reader, monkeypatch):
    # given a blank die in a game of poker dice (no first look can name a card face on
    # it), the court network left out
    monkeypatch.setattr(reader, "_name_courts", lambda image, centres, sides, probs, *_: probs)
    cards = face_mask("cards")
    image = felt()
    draw_die(image, (320, 320), 1, side=70)
    cv2.circle(image, (320, 320), 8, (235, 235, 235), -1)
    centre = np.array([(320.0, 320.0)], np.float32)
    side = np.array([70.0], np.float32)
    batches = []
    run_faces = reader._run_faces
    reader._run_faces = lambda crops, allowed, taught=True, sides=None: (
        batches.append(crops) or run_faces(crops, allowed, taught, sides)
    )
    # when it is named
    try:
        probs = reader._name_faces(image, centre, side, np.array([0.9]), cards)
    finally:
        del reader._run_faces
    # then besides the half turn and the wider crop, a crop ZOOM_IN times its side voted,
    # the four looks averaged
    assert [len(b) for b in batches] == [1, 3]
    narrow = face_crop(image, centre[0], ZOOM_IN * side[0])
    np.testing.assert_array_equal(batches[1][2], narrow)
    looks = restricted(run_faces([batches[0][0], *batches[1]], cards), cards)
    np.testing.assert_allclose(probs[0], looks.mean(0), atol=1e-6)


class _TaughtAsIs:
    """A taught set that leaves every reading as the networks give it."""

    kind, votes = "card", False

    def __len__(self) -> int:
        return 1

    def rescore(self, features, probs, sides=None):
        return probs


@needs_models
def test_given_a_taught_poker_set_when_a_die_is_unsure_then_no_narrower_look(reader, monkeypatch):
    # given the same blank die in a game of poker dice, read with a taught set
    monkeypatch.setattr(reader, "_name_courts", lambda image, centres, sides, probs, *_: probs)
    monkeypatch.setattr(reader, "profile", _TaughtAsIs())
    image = felt()
    draw_die(image, (320, 320), 1, side=70)
    cv2.circle(image, (320, 320), 8, (235, 235, 235), -1)
    batches = []
    run_faces = reader._run_faces
    monkeypatch.setattr(
        reader,
        "_run_faces",
        lambda crops, allowed, taught=True, sides=None: (
            batches.append(crops) or run_faces(crops, allowed, taught, sides)
        ),
    )
    # when it is named
    reader._name_faces(
        image,
        np.array([(320.0, 320.0)], np.float32),
        np.array([70.0], np.float32),
        np.array([0.9]),
        face_mask("cards"),
    )
    # then it gets the half turn and the wider crop alone: a set reads as it was taught
    assert [len(b) for b in batches] == [1, 2]


@needs_models
def test_given_a_faint_spot_judged_no_die_when_named_then_no_second_look(reader):
    # given a grey disc on the felt (a bottle cap), which a first look calls "not a die"
    # without being decisive about it
    image = felt()
    cv2.circle(image, (320, 320), 25, (90, 90, 90), -1)
    centre = np.array([(320.0, 320.0)], np.float32)
    first = reader._run_faces([face_crop(image, centre[0], 60.0)], ANY)
    assert first[0][BACKGROUND] >= 0.5 and first[0].max() < DECISIVE
    calls = []
    run_faces = reader._run_faces
    reader._run_faces = lambda crops, allowed, taught=True, sides=None: (
        calls.append(len(crops)) or run_faces(crops, allowed, taught, sides)
    )
    try:
        # when it is named with a heat below a sure die's
        reader._name_faces(
            image, centre, np.array([60.0], np.float32), np.array([SURE_DIE / 2]), ANY
        )
    finally:
        del reader._run_faces
    # then the first look is all it gets
    assert calls == [1]


class _CourtNet:
    """Stands in for the court network: the same shares for every crop of one call (a
    row of ``shares`` per call), and what it was shown."""

    def __init__(self, shares: list[list[float]]) -> None:
        self.shares = np.array(shares)
        self.shown: list[np.ndarray] = []

    def setInput(self, blob: np.ndarray) -> None:
        self.shown.append(blob)

    def forward(self, name: str = "probs") -> np.ndarray:
        assert name == "probs"  # a classifier's output, as the exported files name it
        return np.tile(self.shares[len(self.shown) - 1], (len(self.shown[-1]), 1))


@needs_models
def test_given_a_die_read_as_a_court_when_named_then_the_court_network_shares_out_the_courts(
    reader, monkeypatch
):
    # given two dice: the face network reads the first a queen (0.6), maybe a king (0.3)
    # or a jack (0.05), the second a pip four; the court network sees a king in a queen,
    # though not decisively
    image = felt()
    centres = np.array([(200.0, 300.0), (400.0, 300.0)], np.float32)
    sides = np.array([60.0, 60.0], np.float32)
    first = np.full((2, BACKGROUND + 1), 0.0)
    first[0, [8, 9, 10, 12]] = [0.05, 0.6, 0.3, 0.05]
    first[1, [3, 12]] = [0.999, 0.001]
    monkeypatch.setattr(
        reader,
        "_run_faces",
        lambda crops, allowed, taught=True, sides=None: first[: len(crops)].copy(),
    )
    monkeypatch.setattr(reader_module, "DECISIVE", 0.5)  # one look each
    courts = _CourtNet([[0.1, 0.2, 0.7], [0.1, 0.1, 0.8]])
    monkeypatch.setattr(reader, "_courts", courts)
    # when both are named
    probs = reader._name_faces(image, centres, sides, np.array([0.9, 0.9]), ANY)
    # then only the queen's close crop went to the court network; not decisive (0.7), it
    # looked at the crop's three other quarter turns too, and shared out the three
    # courts' 0.95 by the four looks' mean: the die is now a king; nothing else moved
    crop = court_crop(image, centres[0], 60.0)
    turns = [np.ascontiguousarray(np.rot90(crop, r)) for r in (1, 2, 3)]
    assert len(courts.shown) == 2
    np.testing.assert_array_equal(courts.shown[0], cv2.dnn.blobFromImages([crop], 1.0 / 255.0))
    np.testing.assert_array_equal(courts.shown[1], cv2.dnn.blobFromImages(turns, 1.0 / 255.0))
    np.testing.assert_allclose(probs[0, COURTS], 0.95 * np.array([0.1, 0.125, 0.775]))
    np.testing.assert_allclose(probs[0, BACKGROUND], 0.05)
    assert int(np.argmax(probs[0])) == 10
    np.testing.assert_array_equal(probs[1], first[1])


def test_given_a_jack_that_may_be_a_king_when_named_then_the_king_is_its_second_guess():
    # given face probabilities: jack 0.55, king 0.25, a pip three 0.15 (a likelier pip face)
    probs = np.zeros(13)
    probs[[8, 10, 2, BACKGROUND]] = [0.55, 0.25, 0.15, 0.05]
    # when the second guess of the jack (class 8) is asked, then it is the king (value 5)
    assert second_guess(probs, 8) == 5
    # and a pip three's doubt stays among pip faces: none of them is likely enough
    assert second_guess(probs, 2) is None


def test_given_a_sure_die_when_named_then_no_second_guess():
    probs = np.full(13, 0.004)
    probs[3] = 0.952
    assert second_guess(probs, 3) is None


# ------------------------------------------------------- the dice kind a game is played with


def test_given_a_game_of_pip_dice_when_probabilities_restricted_then_card_faces_drop_out():
    # given a crop the network calls a card nine (0.6), maybe a pip one (0.2), or no die
    probs = np.zeros((1, BACKGROUND + 1))
    probs[0, [6, 0, BACKGROUND]] = [0.6, 0.2, 0.2]
    # when only pip faces can be true, then the nine's share is gone and the rest is
    # renormalised, "not a die" included
    pips = restricted(probs, face_mask("pips"))
    np.testing.assert_allclose(pips[0, [0, BACKGROUND]], [0.5, 0.5])
    assert pips[0, 6:BACKGROUND].sum() == 0.0
    # and when only card faces can, the one's share goes instead
    cards = restricted(probs, face_mask("cards"))
    np.testing.assert_allclose(cards[0, [6, BACKGROUND]], [0.75, 0.25])
    # and any dice leave the probabilities as they are
    assert restricted(probs, ANY) is probs


def test_given_an_unknown_dice_kind_when_masked_then_refused_by_name():
    with pytest.raises(ScorerError, match="'dots'"):
        face_mask("dots")


@needs_models
@pytest.mark.parametrize(
    ("faces", "face", "value", "confidence"),
    [
        ("any", "card", 3, 0.7),
        ("cards", "card", 3, 0.7 / 0.75),
        ("pips", "pips", 2, 0.25 / 0.3),
    ],
)
def test_given_a_die_read_as_a_jack_or_a_two_when_the_game_names_its_dice_then_only_that_kind(
    reader, monkeypatch, faces, face, value, confidence
):
    # given one drawn die the face network calls a jack (0.7) or a pip two (0.25), and a
    # court network that would call any court a king
    image = felt()
    draw_die(image, (320, 320), 2, side=60)
    probs = np.zeros(BACKGROUND + 1)
    probs[[8, 1, BACKGROUND]] = [0.7, 0.25, 0.05]
    monkeypatch.setattr(
        reader,
        "_run_faces",
        lambda crops, allowed, taught=True, sides=None: np.tile(probs, (len(crops), 1)),
    )
    courts = _CourtNet([[1.0, 0.0, 0.0]] * 4)
    monkeypatch.setattr(reader, "_courts", courts)
    # when it is read for a game of that kind of dice
    reading = reader.read(image, faces=faces)
    # then it is a face of that kind only, as likely as the kind leaves it; and the court
    # network looked at it only where it could be a court
    (die,) = reading.dice
    assert (die.face, die.value) == (face, value)
    assert die.confidence == pytest.approx(confidence)
    assert bool(courts.shown) == (face == "card")


@pytest.mark.parametrize(("faces", "kept"), [("any", 2), ("cards", 1)])
def test_given_a_second_peak_on_an_ace_when_the_game_is_poker_dice_then_the_merge_sees_cards_only(
    reader, monkeypatch, faces, kept
):
    # given an ace and a strong second spot reading an ace beside it, and a crop between
    # the two that reads an ace (0.6) or a pip one (0.35): not whole among all faces
    spots = [_spot(100.0, 11), _spot(130.0, 11, side=40.0, heat=0.6)]
    between = np.zeros(BACKGROUND + 1)
    between[[11, 0, BACKGROUND]] = [0.6, 0.35, 0.05]
    monkeypatch.setattr(
        reader,
        "_run_faces",
        lambda crops, allowed, taught=True, sides=None: np.tile(between, (len(crops), 1)),
    )
    # when each die is to be reported once, then in a poker-dice game the ace is whole
    # (0.6 of the 0.65 left to card faces and "not a die"), so the spots are one die
    assert len(reader._one_per_die(felt(), spots, face_mask(faces))) == kept


@needs_models
def test_given_drawn_pip_dice_when_read_as_a_pip_game_then_every_value_right(reader):
    values = [1, 2, 3, 4, 5]
    image, _ = throw(values)
    assert reader.read(image, faces="pips").values == tuple(values)
    with pytest.raises(ScorerError, match="'dots'"):
        reader.read(image, faces="dots")


# ------------------------------------------------------------------ what runs the networks


@needs_models
def test_given_onnxruntime_when_it_runs_the_networks_then_the_same_reading_as_opencv(reader):
    pytest.importorskip("onnxruntime")
    # given a throw of five drawn dice and a reader whose networks run on onnxruntime
    image, _ = throw([6, 2, 5, 1, 3], seed=3)
    other = Reader(backend="onnxruntime")
    # when both read it, then they see the same dice, as surely to 1e-4
    mine, theirs = reader.read(image), other.read(image)
    assert [(d.value, d.face, d.box) for d in theirs.dice] == [
        (d.value, d.face, d.box) for d in mine.dice
    ]
    assert theirs.values == (6, 2, 5, 1, 3)
    for a, b in zip(mine.dice, theirs.dice, strict=True):
        assert b.confidence == pytest.approx(a.confidence, abs=1e-4)


@needs_models
def test_given_the_committed_finder_when_on_onnxruntime_then_the_survey_runs_there_too():
    pytest.importorskip("onnxruntime")
    # given the finder's ONNX file, whose board size is left free
    finder = OnnxRuntimeNet(default_model_dir() / "finder.onnx")
    assert finder.free_board
    # when it looks at the survey's 160 px board, then the heat map is a quarter of it
    finder.setInput(np.zeros((1, 3, 160, 160), np.float32))
    assert finder.forward().shape == (1, 2, 40, 40)
    # and a reader on onnxruntime surveys with it
    assert isinstance(Reader(backend="onnxruntime")._surveyor, OnnxRuntimeNet)


def test_given_an_unknown_backend_when_reader_built_then_refused_by_name():
    with pytest.raises(ScorerError, match="'tflite'"):
        Reader(backend="tflite")


class _SureOfSixes:
    """A taught set's vote that names every crop a six, surely (a set of logo sixes)."""

    kind = "pips"
    size = None

    def __bool__(self) -> bool:
        return True

    def rescore(self, features: np.ndarray, probs: np.ndarray, sides=None) -> np.ndarray:
        out = np.zeros_like(probs)
        out[:, 5] = 1.0
        return out


@needs_models
def test_given_a_taught_vote_when_big_dice_are_read_then_the_scale_is_chosen_untaught(reader):
    # given three big fives (150 px on a 640 px frame), which the survey finds too big for
    # the finder, and a taught set whose vote reads every crop surely as a six
    image = felt()
    for k in range(3):
        draw_die(image, (130 + k * 190, 320), 5, side=150)
    untaught = reader.read(image, faces="pips")
    reader.profile = _SureOfSixes()
    try:
        # when the throw is read with the set
        taught = reader.read(image, faces="pips")
    finally:
        reader.profile = None
    # then it is read at the untaught scale: three dice, named by the vote; not the dice's
    # pips, which a vote sure of anything made look like a huddle of small dice (19 "dice")
    assert len(untaught.dice) == 3
    assert [d.box for d in taught.dice] == [d.box for d in untaught.dice]
    assert taught.values == (6, 6, 6)
