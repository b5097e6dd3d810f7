"""Real Blender renders (tiny, a few samples): a thrown die's label is the face that
points up in the rendered picture, and its box encloses the die's pixels.

These need Blender's bpy (the ``render3d`` extra, in its own venv because bpy pins
numpy<2): ``make test-render3d``. Without bpy they are skipped.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

bpy = pytest.importorskip("bpy")

from vision_models.render3d import blender, dataset, geometry, looks  # noqa: E402

#: each face of the test die glows in its own colour (sRGB), value 1..6
GLOW = (
    (1.0, 0.0, 0.0),
    (0.0, 1.0, 0.0),
    (0.0, 0.0, 1.0),
    (1.0, 1.0, 0.0),
    (1.0, 0.0, 1.0),
    (0.0, 1.0, 1.0),
)
SIDE = 2.0  # cm


def glowing_die(seed: int) -> bpy.types.Object:
    """A die whose six faces glow in the six GLOW colours, mapped exactly as the
    renderer maps its face art (the same mesh, UVs and atlas)."""
    atlas = np.zeros((2 * 8, 3 * 8, 4), np.float32)
    for value, colour in enumerate(GLOW, start=1):
        col, row = (value - 1) % 3, (value - 1) // 3
        atlas[row * 8 : (row + 1) * 8, col * 8 : (col + 1) * 8] = (*colour, 1.0)
    nodes = blender._Nodes("glow")
    tex = nodes.add(
        "ShaderNodeTexImage", image=blender._image(atlas, "glow", True), interpolation="Closest"
    )
    emit = nodes.add("ShaderNodeEmission", Strength=1.0)
    nodes.link(nodes.add("ShaderNodeUVMap").outputs[0], tex.inputs["Vector"])
    nodes.link(tex.outputs["Color"], emit.inputs["Color"])
    nodes.link(emit.outputs[0], nodes.out.inputs["Surface"])
    die = blender.link(bpy.data.objects.new("die", blender.die_mesh(SIDE, 0.25)))
    die.data.materials.append(nodes.material)
    rng = np.random.default_rng(seed)
    die.location = (0.0, 0.0, 6.0)
    die.rotation_euler = tuple(float(a) for a in rng.uniform(0, 2 * math.pi, 3))
    return die


def throw_and_shoot(seed: int, tilt_deg: float, tmp_path: Path) -> tuple[np.ndarray, int, tuple]:
    """Drop the glowing die on a black floor, photograph it at 128x128: image, label, box."""
    import cv2

    scene = blender.new_scene(threads=2)
    bpy.ops.rigidbody.world_add()
    floor = blender.box_object("floor", (40.0, 40.0, 2.0), (0.0, 0.0, -1.0))
    floor.data.materials.append(blender.plain_material("floor", (0.0, 0.0, 0.0), 1.0))
    blender.make_rigid(floor, "PASSIVE", "BOX")
    die = glowing_die(seed)
    blender.make_rigid(die, "ACTIVE", "BOX")
    blender.settle(scene, [die], np.random.default_rng(seed))
    matrix = np.array(die.matrix_world)
    value, _ = geometry.top_face(matrix[:3, :3])
    tilt = math.radians(tilt_deg)
    target = matrix[:3, 3]
    eye = target + 12.0 * np.array([math.sin(tilt), 0.0, math.cos(tilt)])
    camera = geometry.Camera(geometry.look_at(eye, target), 50.0, 36.0, 128, 128)
    data = bpy.data.cameras.new("camera")
    data.lens, data.sensor_width, data.sensor_fit = 50.0, 36.0, "AUTO"
    obj = blender.link(bpy.data.objects.new("camera", data))
    obj.matrix_world = blender._matrix(camera.matrix)
    scene.camera = obj
    scene.render.resolution_x = scene.render.resolution_y = 128
    scene.cycles.samples = 4
    scene.cycles.use_denoising = False
    scene.view_settings.view_transform = "Standard"
    world = bpy.data.worlds.new("black")
    world.use_nodes = True
    world.node_tree.nodes["Background"].inputs["Strength"].default_value = 0.0
    scene.world = world
    scene.render.filepath = str(tmp_path / "die.png")
    bpy.ops.render.render(write_still=True)
    image = cv2.imread(str(tmp_path / "die.png"), cv2.IMREAD_COLOR)[..., ::-1] / 255.0
    box = geometry.die_box(camera, matrix, geometry.die_points(SIDE, 0.25, blender.SEGMENTS))
    return image, value, box


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_thrown_die_seen_from_above_shows_the_face_its_label_names(
    seed: int, tmp_path: Path
) -> None:
    # given a die thrown by the physics and photographed straight down
    image, value, _ = throw_and_shoot(seed, 0.0, tmp_path)
    # when the colour filling most of the die's pixels is found
    lit = image.max(axis=2) > 0.5
    colours = np.round(image[lit]).astype(int)
    names = [
        GLOW.index(tuple(float(c) for c in rgb)) + 1
        for rgb in colours
        if tuple(rgb) in {tuple(map(int, g)) for g in GLOW}
    ]
    seen = np.bincount(names, minlength=7).argmax()
    # then it is the colour of the face the label names
    assert lit.sum() > 200
    assert seen == value


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "tilt"), [(4, 0.0), (5, 30.0), (6, 45.0)])
def test_the_box_of_a_rendered_die_encloses_its_pixels_tightly(
    seed: int, tilt: float, tmp_path: Path
) -> None:
    # given a thrown die photographed from straight down to 45 degrees
    image, _, (x, y, w, h) = throw_and_shoot(seed, tilt, tmp_path)
    # when its pixels (anything not black floor) are found
    rows, cols = np.nonzero(image.max(axis=2) > 0.15)
    cx, cy = cols + 0.5, rows + 0.5
    # then every one lies inside the label's box (a pixel's width of anti-aliasing allowed)
    assert cx.min() >= x - 1 and cx.max() <= x + w + 1
    assert cy.min() >= y - 1 and cy.max() <= y + h + 1
    # and the box holds no more than the die
    assert cx.min() <= x + 1.5 and cx.max() >= x + w - 1.5
    assert cy.min() <= y + 1.5 and cy.max() >= y + h - 1.5


@pytest.mark.slow
def test_a_whole_scene_renders_with_labels_inside_the_photo() -> None:
    # given a training plan of a few dice
    seeds = (dataset.plan_seed(9, "train", i) for i in range(50))  # big seeds too
    plan = next(p for s in seeds if len((p := looks.scene_plan(s, "train")).dice) <= 4)
    # when it is rendered tiny
    render = blender.render(plan, samples=2, threads=2, max_side=160)
    # then every die is labelled or accounted for, and every box lies inside the photo
    height, width = render.image.shape[:2]
    assert max(height, width) == 160
    assert len(render.dice) + render.dropped == len(plan.dice)
    for die in render.dice:
        x, y, w, h = die.box
        assert x >= 0 and y >= 0 and x + w <= width and y + h <= height
        assert 1 <= die.value <= 6 and die.face == die.look.face


def test_a_print_in_the_bodys_own_colour_is_not_seen_and_a_black_one_on_white_is() -> None:
    # given a plan of a few pip dice, printed once black on white, once in the white itself
    seeds = (dataset.plan_seed(9, "train", i) for i in range(80))
    plan = next(p for s in seeds if len((p := looks.scene_plan(s, "train", "pips")).dice) <= 4)
    white = (0.9, 0.9, 0.9)

    def printed(ink: tuple[float, float, float]) -> looks.ScenePlan:
        return replace(
            plan,
            dice=tuple(
                replace(
                    d,
                    body="opaque",
                    colour=white,
                    second=white,
                    pips="round",
                    emblem="none",
                    ink=ink,
                    one_ink=ink,
                )
                for d in plan.dice
            ),
        )

    # when both are rendered
    clear = blender.render(printed((0.02, 0.02, 0.02)), samples=2, threads=2, max_side=320)
    hidden = blender.render(printed(white), samples=2, threads=2, max_side=320)
    # then every die's top face is seen within its box, and only the black print stands out
    assert clear.dice and len(clear.dice) == len(hidden.dice)
    for die in clear.dice:
        assert die.seen is not None
        assert 0 < die.seen.ink_px < die.seen.top_px <= die.box[2] * die.box[3]
        assert die.seen.contrast > 30
    for die in hidden.dice:
        assert die.seen is not None and die.seen.ink_px > 0
        assert die.seen.contrast < 10


def test_a_translucent_body_is_clear_plastic_coloured_through_from_version_4() -> None:
    # given a make of translucent pip dice, as each look draws it, and as a smoky twin
    plan = looks.scene_plan(dataset.plan_seed(9, "train", 0), "train", "pips")
    tint = (0.8, 0.2, 0.1)
    look = replace(plan.dice[0], body="translucent", colour=tint, second=tint)
    for version, glass, clear in (
        (1, False, False),
        (3, False, False),
        (4, False, True),
        (1, True, True),
    ):
        # when its material is made
        made = replace(look, version=version, glass=glass)
        tree = blender.die_material(made, 1.6, seed=7).node_tree
        output = next(n for n in tree.nodes if n.type == "OUTPUT_MATERIAL")
        volume = output.inputs["Volume"].links
        body = next(n for n in tree.nodes if n.type == "BSDF_PRINCIPLED")
        # then from version 4 (and in a twin) its colour lies in its volume, deeper with
        # depth, its surface clear, and its shadow lets the light through tinted
        assert bool(volume) == clear
        surface = output.inputs["Surface"].links[0].from_node
        if clear:
            absorb = volume[0].from_node
            assert absorb.type == "VOLUME_ABSORPTION"
            assert tuple(absorb.inputs["Color"].default_value) == pytest.approx(blender._rgba(tint))
            depth = absorb.inputs["Density"].default_value * 1.6
            assert blender.CLEAR_DEPTH[0] <= depth <= blender.CLEAR_DEPTH[1]
            assert min(body.inputs["Base Color"].default_value[:3]) > 0.9
            shadow = surface.inputs[0].links[0].from_socket
            assert shadow.name == "Is Shadow Ray"
            assert surface.inputs[2].links[0].from_node.type == "BSDF_TRANSPARENT"
        else:
            # and before, a tinted glass surface (dark where no light reaches inside)
            assert 0.6 <= body.inputs["Transmission Weight"].default_value <= 0.95
            assert all(link.from_node.type != "LIGHT_PATH" for link in tree.links)


def test_a_marbled_body_that_lets_light_through_casts_a_tinted_shadow_from_version_4() -> None:
    # given marbled pip dice of many makes (half of them let some light through)
    plan = looks.scene_plan(dataset.plan_seed(9, "train", 0), "train", "pips")
    look = replace(plan.dice[0], body="marbled", colour=(0.2, 0.3, 0.8), second=(0.9, 0.9, 1))
    through = 0
    for seed in range(12):
        for version in (3, 4):
            # when each make's material is made in the third look and the fourth
            tree = blender.die_material(replace(look, version=version), 1.6, seed).node_tree
            body = next(n for n in tree.nodes if n.type == "BSDF_PRINCIPLED")
            lets = body.inputs["Transmission Weight"].default_value > 0
            shadow = any(n.type == "LIGHT_PATH" for n in tree.nodes)
            # then from version 4 one that lets light through lets its shadow through too,
            # its veins still on its surface (no volume)
            assert shadow == (lets and version == 4)
            output = next(n for n in tree.nodes if n.type == "OUTPUT_MATERIAL")
            assert not output.inputs["Volume"].links
            through += lets and version == 4
    assert 0 < through < 12


@pytest.mark.slow
def test_small_dice_are_rendered_with_more_pixels_and_the_same_labels() -> None:
    # given a plan whose dice come out small in a tiny photo
    seeds = (dataset.plan_seed(9, "train", i) for i in range(50))
    plan = next(p for s in seeds if len((p := looks.scene_plan(s, "train")).dice) <= 4)
    small = blender.render(plan, samples=1, threads=2, max_side=96)
    assert small.dice and np.median([max(d.box[2:]) for d in small.dice]) < 40
    # when it is rendered asking for dice of 40 px
    sharp = blender.render(plan, samples=1, threads=2, max_side=96, min_die=40.0)
    # then the photo is larger, the same dice are labelled, and each box grew with it
    height, width = sharp.image.shape[:2]
    grown = max(height, width) / 96
    assert grown > 1 and max(height, width) % 32 == 0
    assert np.median([max(d.box[2:]) for d in sharp.dice]) >= 40 - 1e-6
    assert [(d.value, d.face) for d in sharp.dice] == [(d.value, d.face) for d in small.dice]
    for a, b in zip(small.dice, sharp.dice, strict=True):
        assert np.allclose(np.array(b.box), np.array(a.box) * grown, atol=1.0)
        x, y, w, h = b.box
        assert x >= 0 and y >= 0 and x + w <= width and y + h <= height


@pytest.mark.slow
def test_a_stopped_run_carries_on_with_only_the_missing_photos(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from vision_models.render3d.__main__ import main

    args = ["--root", str(tmp_path), "--train", "2", "--test", "1", "--max-side", "96"]
    args += ["--samples", "1", "--threads", "2"]
    # given a finished run of three photos, one of which was lost before its image landed
    assert main(args) == 0
    label = tmp_path / "labels" / "train" / "train-000001.txt"
    first = label.read_text()
    (tmp_path / "images" / "train" / "train-000001.jpg").unlink()
    capsys.readouterr()
    # when the same command runs again
    assert main(args) == 0
    # then only that photo is rendered, and it is the same throw with the same labels
    out = capsys.readouterr().out
    assert "1 photos to render" in out and "train-000001.jpg" in out
    assert label.read_text() == first
    assert len(list(tmp_path.glob("images/*/*.jpg"))) == 3


@pytest.mark.slow
def test_a_tables_evening_is_one_make_of_dice_throw_after_throw(tmp_path: Path) -> None:
    from vision_models.render3d.__main__ import main

    # given two throws of table 2's poker dice, rendered small
    args = ["--root", str(tmp_path), "--train", "0", "--test", "2", "--max-side", "96"]
    assert main([*args, "--samples", "1", "--threads", "2", "--table", "2", "--kind", "cards"]) == 0
    # then both photos show the table's one held-out make of card dice, and say so
    notes = [json.loads(p.read_text()) for p in sorted(tmp_path.glob("notes/test/*.json"))]
    assert len(notes) == 2 and {n["table"] for n in notes} == {2}
    assert {n["kind"] for n in notes} == {"cards"}
    assert notes[0]["families"] == notes[1]["families"] and notes[0]["held_out"]


@pytest.mark.slow
def test_plain_dice_are_the_same_throw_with_the_same_labels(tmp_path: Path) -> None:
    from vision_models.render3d.__main__ import main

    args = ["--train", "0", "--test", "2", "--max-side", "128", "--samples", "1", "--threads", "2"]
    # given two held-out photos, rendered as drawn and with their dice made plain
    assert main([*args, "--root", str(tmp_path / "own")]) == 0
    assert main([*args, "--root", str(tmp_path / "plain"), "--plain", "both"]) == 0
    # then each plain twin holds the same dice, with the same faces up, in the same boxes
    for own in sorted((tmp_path / "own" / "labels" / "test").glob("*.txt")):
        assert (tmp_path / "plain" / "labels" / "test" / own.name).read_text() == own.read_text()
    # and its notes say its dice are plain: opaque bodies, no held-out art
    notes = [json.loads(p.read_text()) for p in (tmp_path / "plain").glob("notes/test/*.json")]
    assert len(notes) == 2
    assert all(n["families"]["body"] == ["opaque"] for n in notes)
    assert all(set(n["families"]["card_art"]) <= {looks.PLAIN_ART} for n in notes)


@pytest.mark.slow
def test_smoky_twins_are_the_same_throw_with_the_same_labels(tmp_path: Path) -> None:
    from vision_models.render3d.__main__ import main

    args = ["--train", "0", "--test", "2", "--max-side", "128", "--samples", "1", "--threads", "2"]
    # given two held-out photos (pip dice, then poker dice alone), as drawn and made smoky
    assert main([*args, "--root", str(tmp_path / "own")]) == 0
    assert main([*args, "--root", str(tmp_path / "smoky"), "--smoky"]) == 0
    own = tmp_path / "own"
    kinds = {p.stem: json.loads(p.read_text())["kind"] for p in own.glob("notes/test/*.json")}
    assert sorted(kinds.values()) == ["cards", "pips"]
    # then the photo with pip dice has a twin holding the same dice in the same boxes,
    # and the one of poker dice alone none (it would be the photo itself)
    twins = sorted((tmp_path / "smoky" / "labels" / "test").glob("*.txt"))
    assert [t.stem for t in twins] == [k for k, kind in kinds.items() if kind == "pips"]
    for twin in twins:
        assert twin.read_text() == (own / "labels" / "test" / twin.name).read_text()
        # and its notes say its dice are translucent
        notes = tmp_path / "smoky" / "notes" / "test" / f"{twin.stem}.json"
        assert json.loads(notes.read_text())["families"]["body"] == ["translucent"]


@pytest.mark.slow
def test_a_close_up_is_a_square_about_its_die_with_the_whole_photos_label() -> None:
    # given a training plan of a few poker dice, rendered whole
    seeds = (dataset.plan_seed(9, "train", i) for i in range(50))
    plan = next(
        p for s in seeds if 2 <= len((p := looks.scene_plan(s, "train", "cards")).dice) <= 4
    )
    whole = blender.render(plan, samples=1, threads=2, max_side=160)
    # when each of its clear dice is rendered close up at 24 px
    shots = blender.render_close_ups(plan, samples=1, threads=2, die_px=(24.0, 24.0))
    # then each close-up is a square of CLOSE_UP_SPAN dice, its die 24 px and centred
    n = round(blender.CLOSE_UP_SPAN * 24)
    assert shots and len(shots) <= len(whole.dice)
    for shot in shots:
        assert shot.image.shape == (n, n, 3)
        die = min(shot.dice, key=lambda d: math.dist(centre(d.box), (n / 2, n / 2)))
        assert math.dist(centre(die.box), (n / 2, n / 2)) <= 1.0
        assert max(die.box[2:]) == pytest.approx(24.0, abs=0.5)
    # and the dice shown close up are the whole photo's, labelled alike (the face turned up)
    close = sorted(
        (d.value, d.face) for s in shots for d in s.dice if max(d.box[2:]) > 20 and near(d, n)
    )
    assert set(close) <= {(d.value, d.face) for d in whole.dice}


def centre(box: tuple[float, float, float, float]) -> tuple[float, float]:
    x, y, w, h = box
    return x + w / 2, y + h / 2


def near(die: blender.RenderedDie, n: int) -> bool:
    return math.dist(centre(die.box), (n / 2, n / 2)) <= 1.0


@pytest.mark.slow
def test_a_stopped_close_up_run_carries_on_by_whole_throws(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from vision_models.render3d.__main__ import main

    args = ["--root", str(tmp_path), "--close-ups", "--kind", "cards", "--train", "2"]
    args += ["--test", "0", "--samples", "1", "--threads", "2"]
    # given two throws rendered close up, the second stopped before its notes landed
    assert main(args) == 0
    assert dataset.close_ups_written(tmp_path, "train", 1)
    dataset.throw_notes(tmp_path, "train", 1).unlink()
    capsys.readouterr()
    # when the same command runs again
    assert main(args) == 0
    # then only that throw is rendered again, and its notes say how many dice it showed
    out = capsys.readouterr().out
    assert "1 throws to render close up" in out
    notes = json.loads(dataset.throw_notes(tmp_path, "train", 1).read_text())
    assert notes["kind"] == "cards"
    assert len(list(tmp_path.glob("images/train/train-000001-*.jpg"))) == notes["close_ups"]


def test_blender_turns_a_dropped_die_as_its_label_reckons() -> None:
    # given drop turns of the first look (Euler angles) and of the current one (quaternions)
    blender.new_scene(threads=1)
    rng = np.random.default_rng(38)
    for version in (1, dataset.VERSION, dataset.VERSION):
        mode, values = geometry.drop_turn(rng, version)
        # when Blender turns a die by one
        die = blender.link(bpy.data.objects.new(f"die-{version}", blender.die_mesh(SIDE, 0.25)))
        blender.turned(die, mode, values)
        # then it is the rotation the labels are reckoned with (Blender keeps float32)
        reckoned = geometry.turn_matrix(mode, values)
        assert np.allclose(np.array(die.matrix_basis)[:3, :3], reckoned, atol=1e-6)
