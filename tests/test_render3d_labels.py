"""The Blender renderer's labels, checked in plain numpy (no Blender needed).

A rendered die's label is the face pointing up, and its box encloses every pixel of the
die: both come from vision_models.render3d.geometry, checked here against independent
constructions (face centres, dense points on the mesh's surface, a lens's field of view).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from scorer.dice import CARD_RANKS
from scorer.vision.labelled import load_split, read_info
from vision_models.render3d import dataset, geometry, looks
from vision_models.render3d.geometry import Camera


def random_rotation(rng: np.random.Generator) -> np.ndarray:
    q = rng.normal(size=4)
    w, x, y, z = q / np.linalg.norm(q)
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def face_up(normal: np.ndarray, yaw: float) -> np.ndarray:
    """A rotation that turns a die's face ``normal`` to world up, then spins it by ``yaw``."""
    axis = np.cross(normal, geometry.UP)
    if np.linalg.norm(axis) < 1e-9:
        tip = np.eye(3) if normal[2] > 0 else geometry.rotation_about([1, 0, 0], math.pi)
    else:
        tip = geometry.rotation_about(axis, math.acos(float(np.clip(normal @ geometry.UP, -1, 1))))
    return geometry.rotation_about(geometry.UP, yaw) @ tip


@pytest.mark.parametrize(("face", "yaw"), list(itertools.product(range(6), (0.0, 0.7, 2.0, 4.1))))
def test_the_label_is_the_value_on_the_face_turned_up(face: int, yaw: float) -> None:
    # given a die turned so that one face's normal points at the sky
    rotation = face_up(geometry.NORMALS[face], yaw)
    # when its top face is read
    value, level = geometry.top_face(rotation)
    # then it is that face's value, lying flat
    assert value == geometry.FACES[face][3]
    assert level == pytest.approx(1.0)


def test_opposite_faces_sum_to_seven_and_no_face_is_mirrored() -> None:
    for normal, u, v, value in geometry.FACES:
        opposite = [f[3] for f in geometry.FACES if tuple(-np.array(f[0])) == normal]
        assert opposite == [7 - value]
        assert tuple(np.cross(u, v)) == normal


def test_the_top_face_is_the_face_whose_centre_lies_highest() -> None:
    rng = np.random.default_rng(1)
    for _ in range(500):
        # given a die in any orientation
        rotation = random_rotation(rng)
        # when the label is taken
        value, _ = geometry.top_face(rotation)
        # then it names the face whose centre is highest above the floor
        heights = (rotation @ geometry.NORMALS.T)[2]
        assert value == geometry.VALUES[int(np.argmax(heights))]


@pytest.mark.parametrize(
    ("tilt", "level"), [(0.0, True), (15.0, True), (25.0, False), (44.0, False)]
)
def test_a_cocked_die_is_not_level(tilt: float, level: bool) -> None:
    rotation = geometry.rotation_about([1, 1, 0], math.radians(tilt))
    assert geometry.is_level(rotation) is level


def faces_started_up(version: int, throws: int = 6000) -> np.ndarray:
    """The share of each value 1..6 on top of dice turned as ``version`` drops them."""
    rng = np.random.default_rng(38)
    ups = [
        geometry.top_face(geometry.turn_matrix(*geometry.drop_turn(rng, version)))[0]
        for _ in range(throws)
    ]
    return np.bincount(ups, minlength=7)[1:] / throws


def test_a_die_is_dropped_with_every_face_as_likely_to_start_up() -> None:
    # given the renderer's current look, when 6000 dice are turned before the drop
    shares = faces_started_up(dataset.VERSION)
    # then each face starts up a sixth of the time (within 2 points: 4.8 standard errors)
    assert np.abs(shares - 1 / 6).max() < 0.02, shares


def test_the_first_looks_keep_their_drop_with_two_and_five_up_half_the_time() -> None:
    # given the looks older networks learnt from, when their dice are turned before the drop
    shares = faces_started_up(1)
    # then it is the draw those photos were rendered with: 2 and 5 start up half the time
    assert shares[1] + shares[4] > 0.45, shares
    assert faces_started_up(2).tolist() == shares.tolist()


def test_a_turn_is_a_rotation_whatever_its_mode_and_a_bad_mode_is_named() -> None:
    rng = np.random.default_rng(5)
    for version in (1, 3):
        m = geometry.turn_matrix(*geometry.drop_turn(rng, version))
        assert np.allclose(m @ m.T, np.eye(3)) and np.isclose(np.linalg.det(m), 1.0)
    # a quarter turn about z by either mode turns x to y
    quarter = (math.cos(math.pi / 4), 0.0, 0.0, math.sin(math.pi / 4))
    for mode, values in (("XYZ", (0.0, 0.0, math.pi / 2)), ("QUATERNION", quarter)):
        assert np.allclose(geometry.turn_matrix(mode, values) @ [1, 0, 0], [0, 1, 0])
    with pytest.raises(ValueError, match="AXIS_ANGLE"):
        geometry.turn_matrix("AXIS_ANGLE", (1.0, 0.0, 0.0, 0.0))


def test_a_lens_as_long_as_the_sensor_is_wide_sees_half_the_distance_to_each_side() -> None:
    # given a camera 100 cm above the floor, looking straight down, lens = sensor width
    camera = Camera(geometry.look_at([0, 0, 100], [0, 0, 0]), 36.0, 36.0, 800, 600)
    # when points on the floor are projected
    pixels = camera.project(np.array([[0, 0, 0], [50, 0, 0], [-50, 0, 0], [0, 50, 0]]))
    # then the middle lands mid-image and +-50 cm land on the left and right edges;
    # the image's up is world +y
    assert pixels[0] == pytest.approx([400, 300])
    assert pixels[1] == pytest.approx([800, 300])
    assert pixels[2] == pytest.approx([0, 300])
    assert pixels[3] == pytest.approx([400, -100])


def test_a_camera_looks_at_its_target_from_any_tilt_and_roll() -> None:
    rng = np.random.default_rng(2)
    for _ in range(50):
        target = rng.uniform(-10, 10, 3)
        eye = target + rng.uniform(20, 80) * np.array([*rng.uniform(-0.7, 0.7, 2), 1.0])
        camera = Camera(geometry.look_at(eye, target, rng.uniform(-3, 3)), 50.0, 36.0, 640, 480)
        assert camera.project(target[None])[0] == pytest.approx([320, 240])


def test_points_behind_the_camera_are_refused() -> None:
    camera = Camera(geometry.look_at([0, 0, 10], [0, 0, 0]), 50.0, 36.0, 64, 64)
    with pytest.raises(ValueError, match="behind"):
        camera.project(np.array([[0, 0, 20.0]]))


def surface_samples(side: float, bevel: float, rng: np.random.Generator) -> np.ndarray:
    """Dense points on the rendered mesh's surface: inside every quad of every face grid."""
    grids, _ = geometry.rounded_cube(side, bevel, 4)
    a, b = rng.random((2, 40))
    p00, p01 = grids[:, :-1, :-1, None], grids[:, :-1, 1:, None]
    p10, p11 = grids[:, 1:, :-1, None], grids[:, 1:, 1:, None]
    w = [
        ((1 - a) * (1 - b))[:, None],
        (a * (1 - b))[:, None],
        ((1 - a) * b)[:, None],
        (a * b)[:, None],
    ]
    return (w[0] * p00 + w[1] * p01 + w[2] * p10 + w[3] * p11).reshape(-1, 3)


@pytest.mark.parametrize("seed", range(8))
def test_the_box_encloses_every_point_of_the_die_and_no_more(seed: int) -> None:
    rng = np.random.default_rng(seed)
    side, bevel = rng.uniform(1.2, 2.5), rng.uniform(0.12, 0.4)
    # given a die lying anywhere, turned any way, seen by a tilted camera
    matrix = np.eye(4)
    matrix[:3, :3] = random_rotation(rng)
    matrix[:3, 3] = [*rng.uniform(-5, 5, 2), side / 2]
    tilt, azimuth = math.radians(rng.uniform(0, 45)), rng.uniform(0, 2 * math.pi)
    eye = 30 * np.array(
        [math.sin(tilt) * math.cos(azimuth), math.sin(tilt) * math.sin(azimuth), math.cos(tilt)]
    )
    camera = Camera(
        geometry.look_at(eye, [0, 0, 0], rng.uniform(-3, 3)), rng.uniform(24, 70), 36.0, 1024, 768
    )
    # when its box is computed from the mesh's vertices
    x, y, w, h = geometry.die_box(camera, matrix, geometry.die_points(side, bevel))
    # then every point on the die's surface projects inside the box, and the box is tight
    points = surface_samples(side, bevel, rng) @ matrix[:3, :3].T + matrix[:3, 3]
    pixels = camera.project(points)
    assert pixels[:, 0].min() >= x - 1e-6 and pixels[:, 0].max() <= x + w + 1e-6
    assert pixels[:, 1].min() >= y - 1e-6 and pixels[:, 1].max() <= y + h + 1e-6
    assert pixels[:, 0].min() - x < 0.5 and x + w - pixels[:, 0].max() < 0.5
    assert pixels[:, 1].min() - y < 0.5 and y + h - pixels[:, 1].max() < 0.5


def test_the_rounded_die_stays_inside_its_cube_and_touches_each_face() -> None:
    points = geometry.die_points(2.0, 0.3)
    assert np.abs(points).max() == pytest.approx(1.0)
    corner = np.abs(points).sum(axis=1).max()
    assert corner < 3.0 - 0.05  # the corners are rounded off


# --- what the photos show ---------------------------------------------------------------------


def test_training_plans_never_show_a_held_out_family_and_test_plans_always_do() -> None:
    for seed in range(300):
        train = looks.scene_plan(dataset.plan_seed(0, "train", seed), "train")
        test = looks.scene_plan(dataset.plan_seed(0, "test", seed), "test")
        assert looks.held_out_families(train) == set()
        assert looks.held_out_families(test)


def test_a_plan_is_the_same_for_the_same_seed_and_differs_between_seeds() -> None:
    assert looks.scene_plan(7, "train") == looks.scene_plan(7, "train")
    assert looks.scene_plan(7, "train") != looks.scene_plan(8, "train")


def test_plans_span_the_sizes_cameras_and_families_asked_for() -> None:
    plans = [looks.scene_plan(s, "train") for s in range(400)]
    sides = [s for p in plans for s in p.side_mm]
    assert 12.0 <= min(sides) < 13.0 and 24.0 < max(sides) <= 25.0
    tilts = [p.camera.tilt_deg for p in plans]
    assert min(tilts) == 0.0 and 40 < max(tilts) <= 45
    lenses = [p.camera.lens_mm for p in plans]
    assert 24 <= min(lenses) < 27 and 65 < max(lenses) <= 70
    assert {p.camera.sensor for p in plans} == set(looks.SENSORS)
    assert {len(p.lights) for p in plans} == {1, 2, 3}
    seen = {axis: set() for axis in ("body", "pips", "emblem", "card_art", "tray")}
    for p in plans:
        for axis, names in looks.families(p).items():
            seen[axis] |= names
    assert seen["body"] == set(looks.BODIES) - looks.HELD_OUT["body"]
    assert seen["tray"] == set(looks.TRAYS) - looks.HELD_OUT["tray"]
    assert seen["card_art"] == set(looks.CARD_ART) - looks.HELD_OUT["card_art"]
    assert {c for p in plans for c in p.clutter} == set(looks.CLUTTER)


def test_a_bad_split_or_kind_is_named() -> None:
    with pytest.raises(ValueError, match="split"):
        looks.scene_plan(1, "val")
    with pytest.raises(ValueError, match="kind"):
        looks.scene_plan(1, "train", kind="dominoes")


# --- the cache ------------------------------------------------------------------------------


def test_a_written_photo_reads_back_through_the_projects_own_loader(tmp_path: Path) -> None:
    # given a photo with a pip die and a card die written into the cache
    image = np.full((480, 640, 3), 90, np.uint8)
    dice = [
        dataset.LabelledDie("pips", 5, (100.0, 50.0, 40.0, 42.0)),
        dataset.LabelledDie("card", 3, (300.0, 200.0, 60.0, 58.0)),
    ]
    dataset.write_data_yaml(tmp_path)
    dataset.write_photo(tmp_path, "train", 3, image, dice, {"seed": 1})
    # when the set is read as every other set is
    info = read_info(tmp_path)
    [photo] = load_split(tmp_path, "train")
    # then the faces, values and boxes come back
    assert info.box_kind == "die" and len(info.classes) == 12
    assert [(d.face, d.value) for d in photo.dice] == [("pips", 5), ("card", 3)]
    assert photo.dice[1].box == pytest.approx((300.0, 200.0, 60.0, 58.0), abs=1e-3)
    assert dataset.is_written(tmp_path, "train", 3)
    assert not list(tmp_path.rglob("*.tmp"))


def test_a_photo_cut_off_before_its_image_landed_is_rendered_again(tmp_path: Path) -> None:
    # given a run killed after the label was written but before the image
    (tmp_path / "labels" / "train").mkdir(parents=True)
    (tmp_path / "labels" / "train" / "train-000004.txt").write_text("0 0.5 0.5 0.1 0.1\n")
    # then that photo still counts as missing
    assert not dataset.is_written(tmp_path, "train", 4)


def test_a_throws_close_ups_count_only_once_its_notes_land(tmp_path: Path) -> None:
    # given a throw of two close-ups written into a cache
    square = np.full((64, 64, 3), 90, np.uint8)
    die = dataset.LabelledDie("card", 6, (20.0, 21.0, 24.0, 23.0))
    dataset.write_data_yaml(tmp_path)
    assert not dataset.close_ups_written(tmp_path, "train", 7)
    paths = dataset.write_close_ups(
        tmp_path, "train", 7, [(square, [die]), (square, [])], {"close_ups": 2}
    )
    # then the throw counts as written, and its squares read back through the loader
    assert dataset.close_ups_written(tmp_path, "train", 7)
    assert [p.name for p in paths] == ["train-000007-00.jpg", "train-000007-01.jpg"]
    photos = load_split(tmp_path, "train")
    assert [len(p.dice) for p in photos] == [1, 0]
    assert (photos[0].dice[0].face, photos[0].dice[0].value) == ("card", 6)
    # and a throw whose notes never landed does not count
    dataset.throw_notes(tmp_path, "train", 7).unlink()
    assert not dataset.close_ups_written(tmp_path, "train", 7)
    # and written again with fewer squares, none of the old ones stays behind
    dataset.write_close_ups(tmp_path, "train", 7, [(square, [die])], {"close_ups": 1})
    assert [p.path.stem for p in load_split(tmp_path, "train")] == ["train-000007-00"]


def test_plan_seeds_differ_between_photos_splits_and_bases() -> None:
    seeds = {
        dataset.plan_seed(b, s, i) for b in (0, 1) for s in ("train", "test") for i in range(1000)
    }
    assert len(seeds) == 4000
    with pytest.raises(ValueError, match="split"):
        dataset.plan_seed(0, "val", 1)


def test_the_schedule_interleaves_the_splits_in_proportion() -> None:
    order = dataset.schedule(90, 10)
    assert len(order) == 100 and len(set(order)) == 100
    first = order[:20]
    assert sum(split == "test" for split, _ in first) == 2
    assert [i for split, i in order if split == "train"] == list(range(90))


def test_the_contact_sheet_draws_each_labelled_box(tmp_path: Path) -> None:
    # given one grey photo with one labelled die
    dice = [dataset.LabelledDie("card", 6, (200.0, 100.0, 100.0, 100.0))]
    dataset.write_photo(tmp_path, "test", 0, np.full((400, 640, 3), 128, np.uint8), dice, {})
    # when its contact sheet is drawn at 320 px a tile
    sheet = dataset.contact_sheet(tmp_path, "test", tile=320)
    # then the box's outline is green where the die lies, and the grey is left elsewhere
    green = (sheet[..., 1] > 200) & (sheet[..., 0] < 60) & (sheet[..., 2] < 60)
    rows, cols = np.nonzero(green)
    assert abs(cols.min() - 100) <= 2 and abs(cols.max() - 150) <= 2
    assert abs(rows.max() - 100) <= 2
    assert sheet[150, 250].tolist() == [128, 128, 128]


@pytest.mark.parametrize(
    ("sides", "side"),
    [
        ([50.0, 60.0, 70.0], 640),  # dice big enough: as asked
        ([], 640),  # no die labelled: nothing to enlarge for
        ([20.0, 21.0, 30.0], 1248),  # 640 x 40 / 21 = 1219, rounded up to 32
        ([15.0, 16.0, 17.0], 1600),  # 640 x 40 / 16
        ([2.0], 3200),  # never past the limit
    ],
)
def test_a_photo_of_small_dice_is_rendered_large_enough_to_show_them(
    sides: list[float], side: int
) -> None:
    # given the dice's sides at 640 px, and a wish for dice of 40 px
    # when the side to render at is chosen (at most 3200 px)
    chosen = geometry.sharp_side(sides, 640, 40.0, 3200)
    # then small dice are brought to 40 px, by a side a multiple of 32 px
    assert chosen == side
    if sides and 640 < side < 3200:
        assert np.median(sides) * side / 640 >= 40.0 and side % 32 == 0
    # and without the wish the photo stays as asked
    assert geometry.sharp_side(sides, 640, 0.0, 3200) == 640


#: what the command refuses before it renders anything, and the message that says why
REFUSED = (
    (["--train", "-1"], "--train must not be negative"),
    (["--min-die", "-5"], "--min-die must not be negative"),
    (["--close-ups", "--table", "3"], "--close-ups renders throws of every make"),
    (["--table", "3", "--kind", "mixed"], "pips or cards, not mixed"),
    (["--plain", "both", "--table", "3"], "--plain renders the cache's own throws"),
    (["--smoky", "--close-ups"], "--smoky renders the cache's own throws"),
    (["--smoky", "--plain", "art"], "--plain and --smoky each change the dice's look"),
)


def test_the_command_names_bad_input_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from vision_models.render3d.__main__ import main

    for argv, message in REFUSED:
        with pytest.raises(SystemExit) as stop:
            main([*argv, "--root", str(tmp_path)])
        assert stop.value.code == 2
        assert message in capsys.readouterr().err
    assert main(["--sheet", str(tmp_path / "s.png"), "--root", str(tmp_path)]) == 2
    assert "no rendered photos" in capsys.readouterr().err


# --- the faces painted on the dice -----------------------------------------------------------


def pip_die(pips: str, emblem: str = "none") -> looks.DieLook:
    look = looks.die_look(np.random.default_rng(11), "pips", "test")
    return looks.DieLook(**{**look.__dict__, "pips": pips, "emblem": emblem, "emblem_on": 6})


def count_spots(cover: np.ndarray) -> int:
    import cv2

    n, _ = cv2.connectedComponents((cover > 0.5).astype(np.uint8))
    return n - 1


@pytest.mark.parametrize("pips", looks.PIPS)
def test_the_cell_a_face_is_mapped_to_shows_as_many_pips_as_its_value(pips: str) -> None:
    from vision_models.render3d import faces

    # given the atlas of a make of pip dice
    ink, _, _ = faces.atlas(pip_die(pips), None, seed=3)
    height, width = ink.shape[:2]
    for value in range(1, 7):
        # when the part of the atlas a face's UVs (0..1) land on is cut out
        (u0, v0), (u1, v1) = faces.cell_uv(value, np.array([[0.0, 0.0], [1.0, 1.0]]))
        cell = ink[
            round((1 - v1) * height) : round((1 - v0) * height),
            round(u0 * width) : round(u1 * width),
            3,
        ]
        # then it holds that value's pips
        assert cell.shape == (faces.CELL, faces.CELL)
        assert count_spots(cell) == value


def test_an_emblem_takes_the_place_of_its_face_only() -> None:
    from vision_models.render3d import faces

    plain = pip_die("round")
    marked = pip_die("round", emblem="star")
    for value in range(1, 7):
        a = faces.pip_face(plain, value, np.random.default_rng(value))[1]
        b = faces.pip_face(marked, value, np.random.default_rng(value))[1]
        assert np.array_equal(a, b) == (value != 6)


def test_training_reads_the_cache_in_index_order_up_to_the_count_asked(tmp_path: Path) -> None:
    from vision_models.train import data

    # given three rendered photos in the cache (written out of order), one with no dice
    dataset.write_data_yaml(tmp_path)
    image = np.full((480, 640, 3), 90, np.uint8)
    for index, dice in (
        (2, [dataset.LabelledDie("card", 5, (300.0, 200.0, 60.0, 58.0))]),
        (0, [dataset.LabelledDie("pips", 5, (100.0, 50.0, 40.0, 42.0))]),
        (1, []),
    ):
        dataset.write_photo(tmp_path, "train", index, image, dice, {"seed": index})
    # when the trainer takes the first two, and then all of them
    two = data.load_render3d(2, tmp_path)
    every = data.load_render3d(None, tmp_path)
    # then photo 0 comes first, the empty photo is skipped, and centres, sides and the
    # networks' classes come from the boxes (a card's K is class 6 + 4)
    assert [p.classes.tolist() for p in two] == [[4]]
    assert [p.classes.tolist() for p in every] == [[4], [10]]
    assert every[1].centres.tolist() == [pytest.approx([330.0, 229.0], abs=0.01)]
    assert every[1].sides.tolist() == pytest.approx([60.0], abs=0.01)
    assert {p.source for p in every} == {"render3d"}
    # and the cache counts as three photos, the empty one too: asking for three is met
    assert data.render3d_cached(tmp_path) == 3
    # and an empty or missing cache gives nothing rather than failing
    assert data.load_render3d(None, tmp_path / "none") == []
    assert data.render3d_cached(tmp_path / "none") == 0
    # and twins (the same folder standing in for a twins' cache) are chosen by the photo
    # they twin: those of the first two photos, then of all three
    assert [p.classes.tolist() for p in data.load_twins(2, tmp_path)] == [[4]]
    assert [p.classes.tolist() for p in data.load_twins(3, tmp_path)] == [[4], [10]]
    assert data.load_twins(3, tmp_path / "none") == []


def test_a_scripts_tables_are_all_read_or_the_run_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vision_models.train import data

    # given a cache holding the train photos of Cyrillic 3D table 100 only
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    cache = dataset.default_root()
    table = cache.with_name(f"{cache.name}-table100-cards-cyrillic")
    dataset.write_data_yaml(table)
    image = np.full((480, 640, 3), 90, np.uint8)
    die = dataset.LabelledDie("card", 3, (300.0, 200.0, 60.0, 58.0))
    dataset.write_photo(table, "train", 0, image, [die], {"seed": 0})
    # when training asks for that table, then for it and table 101
    photos = data.load_render3d_tables([100], "cyrillic", dataset.VERSION)
    # then the one table's photo is read (a card's jack, class 6 + 2)
    assert [p.classes.tolist() for p in photos] == [[8]]
    # and a missing table stops the run with the command that renders it
    with pytest.raises(SystemExit, match=r"table101.*make cyrillic-tables"):
        data.load_render3d_tables([100, 101], "cyrillic", dataset.VERSION)
    # and the same table of another look of the renderer is another folder, not found
    other = 1 if dataset.VERSION != 1 else 2
    with pytest.raises(SystemExit, match=rf"v{other}-table100"):
        data.load_render3d_tables([100], "cyrillic", version=other)


def test_one_tables_photos_show_one_make_of_dice_on_one_tray_under_one_camera() -> None:
    # given one table's evening on the test split
    plans = [
        looks.table_plan(3, dataset.plan_seed(0, "test", i), "test", "cards") for i in range(30)
    ]
    # then every throw shows the same make, size, tray and camera, a held-out make at that
    makes = {d for p in plans for d in p.dice}
    assert len(makes) == 1 and looks.look_held_out(next(iter(makes)))
    assert {p.dice[0].face for p in plans} == {"card"}
    assert len({p.side_mm[0] for p in plans}) == 1 and len({p.tray for p in plans}) == 1
    assert len({(p.camera.lens_mm, p.camera.tilt_deg, p.camera.sensor) for p in plans}) == 1
    # and the camera does not follow the dice: it frames the one tray, as a table's does
    assert len({(p.camera.reach_cm, p.tray_cm) for p in plans}) == 1
    assert plans[0].camera.reach_cm > 0 and plans[0].tray_cm > 0
    # and the throws themselves differ: how many dice, the lights, the seeds
    assert len({len(p.dice) for p in plans}) > 1 and len({p.lights for p in plans}) == 30
    # while another table brings other dice
    assert looks.table_plan(4, plans[0].seed, "test", "cards").dice[0] != plans[0].dice[0]


def test_a_training_table_never_shows_a_held_out_make() -> None:
    for table in range(50):
        plan = looks.table_plan(table, 1, "train", "pips")
        assert looks.held_out_families(plan) == set()


def test_a_table_of_mixed_dice_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="kind must be pips or cards"):
        looks.table_plan(1, 1, "test", "mixed")


def test_a_cyrillic_table_prints_its_ranks_in_fonts_that_have_them() -> None:
    from vision_models.render3d import faces

    asked: list[tuple[str, str]] = []

    def glyphs(font: str, text: str) -> np.ndarray:
        asked.append((font, text))
        return np.array([[(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)]])  # one triangle

    for table in range(8):
        # given a held-out table of poker dice printing Cyrillic ranks
        plan = looks.table_plan(table, 1, "test", "cards", cyrillic=True)
        look = plan.dice[0]
        assert look.cyrillic and look.card_art in looks.CYRILLIC_ART
        assert looks.held_out_families(plan)
        # when its faces are painted
        asked.clear()
        for value in range(1, 7):
            faces.glyph_card(look, value, glyphs)
        # then its ranks are the Cyrillic ones, each asked of a font that has the letters
        ranks = [(font, text) for font, text in asked if font not in ("symbols", "emoji")]
        assert {"В", "Д", "Т"} <= {text for _, text in ranks} <= {"9", "10", "В", "Д", "К", "Т"}
        assert all(font in faces.CYRILLIC_FONTS for font, _ in ranks)
    # and a table of pip dice has no ranks to print
    with pytest.raises(ValueError, match="Cyrillic"):
        looks.table_plan(1, 1, "test", "pips", cyrillic=True)


def courts_drawn(card_art: str, makes: int = 40, version: int = 2) -> dict[int, set[str]]:
    """The pictures (glyphs not in a rank's font) each court of ``makes`` makes asks for."""
    from vision_models.render3d import faces

    drawn: dict[int, set[str]] = {3: set(), 4: set(), 5: set()}
    base = looks.die_look(np.random.default_rng(5), "card", "train")
    for seed in range(makes):
        look = looks.DieLook(
            **{**base.__dict__, "card_art": card_art, "art_seed": seed, "version": version}
        )
        for value in drawn:
            asked: list[tuple[str, str]] = []

            def glyphs(font: str, text: str, asked: list = asked) -> np.ndarray:
                asked.append((font, text))
                return np.array([[(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)]])

            faces.glyph_card(look, value, glyphs)
            drawn[value] |= {text for font, text in asked if font in ("symbols", "emoji")}
    return drawn


def test_a_training_makes_court_pictures_do_not_name_the_court() -> None:
    # given makes of the train families that print courts, when their faces are painted
    for art in ("chess", "fonts"):
        drawn = courts_drawn(art, makes=80)
        # then each court takes many pictures, and the jack's, queen's and king's overlap:
        # only the corner index tells them apart
        assert all(len(pictures) >= 8 for pictures in drawn.values()), art
        assert drawn[3] & drawn[4] & drawn[5], art


def test_a_held_out_makes_courts_keep_their_own_pictures() -> None:
    from vision_models.render3d import faces

    # given held-out emoji makes, when their courts are painted
    drawn = courts_drawn("emoji")
    # then each court shows its own picture, as players' dice do
    assert drawn == {v: {faces.COURTS["emoji"][v - 3]} for v in (3, 4, 5)}


def test_the_first_look_is_still_rendered_where_asked() -> None:
    from vision_models.render3d import faces

    # given a training plan, when it is asked for in the renderer's first look
    plan = looks.scene_plan(dataset.plan_seed(0, "train", 3), "train")
    first = looks.with_version(plan, 1)
    # then every draw is the same, only the version of each make differs
    assert [replace(d, version=dataset.VERSION) for d in first.dice] == list(plan.dice)
    assert {d.version for d in first.dice} == {1}
    # and a chess make of that look draws the court its own picture, as the older
    # networks saw it
    drawn = courts_drawn("chess", makes=10, version=1)
    assert drawn == {v: {faces.COURTS["chess"][v - 3]} for v in (3, 4, 5)}


def test_the_projects_random_makes_are_printed_as_playing_cards_from_version_3() -> None:
    from scorer.render import art
    from vision_models.render3d import faces

    base = looks.die_look(np.random.default_rng(5), "card", "train")
    printed = {}
    for version in (2, 3):
        for seed in range(60):
            look = looks.DieLook(
                **{**base.__dict__, "card_art": "project", "art_seed": seed, "version": version}
            )
            printed[version, seed] = faces._project_card(look, 1)[1]
    # given the project's makes in version 2 and 3, when their nines are painted
    changed = [s for s in range(60) if not np.array_equal(printed[2, s], printed[3, s])]
    # then version 3 prints some of the random makes as playing cards and keeps the rest
    assert 6 <= len(changed) <= 20, changed
    for seed in changed:  # a playing card's nine: nine suit symbols, where a rank was
        rng = np.random.default_rng(seed)
        assert rng.random() >= 0.3  # a random make, not a fixed family
        made = art.random_art(rng, "card")
        nine = art.face_art(dataclasses.replace(made, layout=art.PLAYING_CARD), 1, faces.CELL)
        assert np.array_equal(printed[3, seed], nine[1])


# --- plain dice: the control for what the dice's look costs ----------------------------------


@pytest.mark.parametrize("what", looks.PLAIN)
def test_plain_dice_are_thrown_as_the_plans_own_and_only_their_look_changes(what: str) -> None:
    for i in range(12):
        # given a held-out photo's plan (any kind of dice)
        plan = looks.scene_plan(dataset.plan_seed(0, "test", i), "test")
        # when its dice are made plain
        made = looks.plain(plan, what)
        # then the throw, the tray, the lights and the camera are the plan's own
        assert replace(made, dice=plan.dice) == plan
        for old, new in zip(plan.dice, made.dice, strict=True):
            assert new.face == old.face and new.art_seed == old.art_seed
            cards = old.face == "card"
            # and the body is plain where asked, else the die's own
            if what == "art":
                assert (new.body, new.colour, new.ink) == (old.body, old.colour, old.ink)
            else:
                assert new.body == "opaque" and new.ink == looks.BLACK
                assert new.colour == (looks.IVORY if cards else looks.WHITE)
            # and so is the art
            art = (new.card_art,) if cards else (new.pips, new.emblem)
            if what == "body":
                assert art == ((old.card_art,) if cards else (old.pips, old.emblem))
            else:
                assert art == ((looks.PLAIN_ART,) if cards else ("round", "none"))


def test_smoky_twins_make_every_pip_make_see_through_and_leave_the_rest() -> None:
    smoked = 0
    for i in range(40):
        # given a training photo's plan (any kind of dice)
        plan = looks.scene_plan(dataset.plan_seed(0, "train", i), "train")
        # when its pip dice are made smoky
        made = looks.smoky(plan)
        # then the throw, the tray, the lights and the camera are the plan's own
        assert replace(made, dice=plan.dice) == plan
        assert looks.smoky(plan) == made  # its own draws, the same every time
        for old, new in zip(plan.dice, made.dice, strict=True):
            if old.face == "card":
                assert new == old
                continue
            smoked += 1
            # and a pip die is see-through, light enough for the pips below to show, its
            # pips and emblem where they were
            assert new.body == "translucent" and 0.45 <= max(new.colour) <= 0.9 and new.glass
            assert (new.pips, new.emblem, new.emblem_on) == (old.pips, old.emblem, old.emblem_on)
            # painted bright or white
            assert new.ink == new.one_ink and (new.ink == looks.WHITE or max(new.ink) >= 0.75)
        # and the dice of one make stay one make
        for a, b in itertools.combinations(range(len(plan.dice)), 2):
            assert (plan.dice[a] == plan.dice[b]) == (made.dice[a] == made.dice[b])
    assert smoked > 20


def test_a_plain_poker_die_prints_its_rank_alone_in_inter(monkeypatch: pytest.MonkeyPatch) -> None:
    from vision_models.render3d import faces

    asked: list[tuple[str, str]] = []
    monkeypatch.setattr(faces, "_suit", lambda *a: asked.append(("suit", a[0])) or 0)

    def glyphs(font: str, text: str) -> np.ndarray:
        asked.append((font, text))
        return np.array([[(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)]])

    for seed in range(20):
        # given a poker die of any make (courts, suits, corner indices), made plain
        look = looks.die_look(np.random.default_rng(seed), "card", "test")
        plan = replace(looks.scene_plan(1, "test", "cards"), dice=(look,))
        plain = looks.plain(plan, "art").dice[0]
        for value in range(1, 7):
            # when a face is painted
            asked.clear()
            _, cover = faces.glyph_card(plain, value, glyphs)
            # then it asks Inter for its rank and nothing else: no suit, court or index
            assert asked == [("inter", CARD_RANKS[value - 1])]
            assert cover.any()


def test_plain_names_what_it_makes_plain_when_asked_something_else() -> None:
    with pytest.raises(ValueError, match="body, art, both"):
        looks.plain(looks.scene_plan(1, "test"), "tray")
