"""Fine-tuning starts from the committed networks exactly (needs the ``train`` extra)."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from scorer.vision.network import load_net  # noqa: E402
from scorer.vision.reader import default_model_dir  # noqa: E402
from vision_models.train.fit import (  # noqa: E402
    KEEP_TEMPERATURE,
    MeanReading,
    frozen_norms,
    kept_faces_loss,
    kept_loss,
    warm_start,
)
from vision_models.train.nets import DieFinder, FaceNet  # noqa: E402


def test_given_the_committed_finder_when_warm_started_then_the_same_maps():
    # given the exported finder and a board
    path = default_model_dir() / "finder.onnx"
    board = np.random.default_rng(1).random((1, 3, 320, 320), dtype=np.float32)
    exported = load_net(path)
    exported.setInput(board)
    # when its weights are put back into the torch network, batch norms frozen
    net = warm_start(DieFinder(), path)
    net.export_mode = True
    net.train()
    frozen_norms(net)
    with torch.no_grad():
        maps = net(torch.from_numpy(board)).numpy()
    # then it is the exported network, in training mode too
    assert np.abs(maps - exported.forward()).max() < 1e-4


def test_given_the_committed_face_network_when_warm_started_then_the_same_ranking():
    path = default_model_dir() / "faces.onnx"
    crops = np.random.default_rng(2).random((6, 3, 48, 48), dtype=np.float32)
    exported = load_net(path)
    exported.setInput(crops)
    probs = exported.forward("probs")
    net = warm_start(FaceNet(), path).eval()
    with torch.no_grad():
        logits = net(torch.from_numpy(crops)).numpy()
    # the exported file divides these logits by its temperature before the softmax
    assert (logits.argmax(1) == probs.argmax(1)).all()
    scaled = np.log(probs) - np.log(probs).mean(1, keepdims=True)
    centred = logits - logits.mean(1, keepdims=True)
    temperature = float((centred * centred).sum() / (centred * scaled).sum())
    assert 0.3 < temperature < 2.0
    assert np.abs(centred / temperature - scaled).max() < 1e-3


def test_given_a_network_of_another_shape_when_warm_started_then_refused():
    with pytest.raises(ValueError, match="layers"):
        warm_start(FaceNet(), default_model_dir() / "finder.onnx")


def test_given_the_card_network_asked_for_in_a_whole_run_then_refused_before_any_data(
    tmp_path, capsys
):
    from vision_models.train.__main__ import main

    # given `--faces-kind cards` without `--only faces` alone (it would write no faces.onnx)
    with pytest.raises(SystemExit) as stop:
        main(["--faces-kind", "cards", "--out", str(tmp_path / "m")])
    assert stop.value.code == 2
    with pytest.raises(SystemExit) as stop:
        main(["--faces-kind", "cards", "--only", "faces", "courts", "--out", str(tmp_path / "m")])
    # then it stops at once, naming the option to add, and writes nothing
    assert stop.value.code == 2
    assert "--only faces" in capsys.readouterr().err
    assert not (tmp_path / "m").exists()


def test_given_a_second_card_network_asked_for_without_the_card_kind_then_refused(tmp_path, capsys):
    from vision_models.train.__main__ import main

    # given `--second` for the general face network (there is one of those)
    with pytest.raises(SystemExit) as stop:
        main(["--only", "faces", "--second", "--out", str(tmp_path / "m")])
    # then it stops at once, naming the option to add, and writes nothing
    assert stop.value.code == 2
    assert "--faces-kind cards" in capsys.readouterr().err
    assert not (tmp_path / "m").exists()


def test_given_smoky_twins_asked_for_where_none_are_rendered_then_refused_before_any_data(
    tmp_path, capsys, monkeypatch
):
    from vision_models.train.__main__ import main

    # given a cache folder with no smoky twins in it
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    with pytest.raises(SystemExit) as stop:
        main(
            [
                "--only",
                "faces",
                "--render3d",
                "0",
                "--render3d-smoky",
                "400",
                "--out",
                str(tmp_path / "m"),
            ]
        )
    # then it stops at once, naming the command that renders them, and writes nothing
    assert stop.value.code == 2
    assert "render3d --smoky renders them" in capsys.readouterr().err
    assert not (tmp_path / "m").exists()


@pytest.mark.parametrize(
    "options",
    [
        ["--only", "finder"],
        ["--warm", "vision_models"],
        ["--only", "faces"],
        ["--only", "finder", "faces", "--warm", "vision_models"],
    ],
)
def test_given_the_pip_finder_asked_for_without_a_finder_to_tune_then_refused_before_any_data(
    tmp_path, capsys, options
):
    from vision_models.train.__main__ import main

    # given `--finder-kind pips` without both `--only finder` and `--warm DIR`
    with pytest.raises(SystemExit) as stop:
        main(["--finder-kind", "pips", *options, "--out", str(tmp_path / "m")])
    # then it stops at once, naming what to add, and writes nothing
    assert stop.value.code == 2
    assert "--only finder --warm DIR" in capsys.readouterr().err
    assert not (tmp_path / "m").exists()


def test_given_a_finder_kept_when_the_crops_are_not_renders_then_only_a_changed_map_costs():
    # given the committed finder as the one to keep, and a copy of it to train
    path = default_model_dir() / "finder.onnx"
    keep = warm_start(DieFinder(), path).eval()
    net = warm_start(DieFinder(), path)
    net.train()
    frozen_norms(net)
    x = torch.from_numpy(np.random.default_rng(3).random((3, 3, 96, 96), dtype=np.float32))
    empty = torch.zeros(3, 24, 24)
    kept = torch.tensor([True, True, True])
    # when a batch of crops that are not 3D renders is scored against it
    same = kept_loss(net(x), keep, x, kept, empty, empty, empty).item()
    with torch.no_grad():
        net.head.bias[0] += 2.0  # every spot hotter than the kept finder's
    moved = kept_loss(net(x), keep, x, kept, empty, empty, empty).item()
    # then the unchanged finder costs nothing, and one whose maps moved does
    assert abs(same) < 1e-4
    assert moved > 0.1
    # and a batch of renders is scored on its labels alone (none here: the finder's
    # heat everywhere is a cost)
    renders = kept_loss(net(x), keep, x, ~kept, empty, empty, empty).item()
    assert renders > 0.1


def test_given_a_face_network_kept_when_a_copy_reads_as_it_does_then_nothing_to_pay():
    # given the committed face network kept, and a copy of it
    path = default_model_dir() / "faces.onnx"
    keep = warm_start(FaceNet(), path).eval()
    copy = warm_start(FaceNet(), path).eval()
    x = torch.from_numpy(np.random.default_rng(4).random((6, 3, 48, 48), dtype=np.float32))
    with torch.no_grad():
        said = keep(x)
        # when the copy reads the same crops, then again after its last layer moved
        same = kept_faces_loss(copy(x), said).item()
        last = [m for m in copy.modules() if isinstance(m, torch.nn.Linear)][-1]
        last.bias[0] += 5.0  # every crop a likelier one
        moved = kept_faces_loss(copy(x), said).item()
    # then the copy costs nothing, and the moved one does
    assert abs(same) < 1e-5
    assert moved > 0.1


def test_given_two_poker_networks_as_teachers_then_their_mean_reading_is_the_target():
    # given the two committed poker-dice networks read as one teacher
    models = default_model_dir()
    nets = [
        warm_start(FaceNet(), models / n).eval() for n in ("faces-cards.onnx", "faces-cards-2.onnx")
    ]
    x = torch.from_numpy(np.random.default_rng(5).random((6, 3, 48, 48), dtype=np.float32))
    t = KEEP_TEMPERATURE
    with torch.no_grad():
        # when it reads crops
        said = MeanReading(nets)(x)
        each = [torch.softmax(n(x) / t, 1) for n in nets]
        alone = MeanReading(nets[:1])(x)
    # then its softened reading is the mean of theirs (and one teacher's is its own)
    target = torch.softmax(said / t, 1)
    assert torch.allclose(target, (each[0] + each[1]) / 2, atol=1e-5)
    assert torch.allclose(torch.softmax(alone / t, 1), each[0], atol=1e-5)
    assert not torch.allclose(each[0], each[1], atol=1e-3)  # two networks, two readings
    # and a student reading as the mean pays nothing under the kept loss
    assert abs(kept_faces_loss(said, said).item()) < 1e-5


@pytest.mark.parametrize(
    "options, named",
    [
        (["--only", "faces", "--distil", "/nowhere/faces-cards.onnx"], "/nowhere/faces-cards.onnx"),
        (["--only", "courts", "--distil", "vision_models/faces-cards.onnx"], "add faces to --only"),
        (
            [
                *("--only", "faces", "--distil", "vision_models/faces-cards.onnx"),
                *("--faces-keep", "vision_models"),
            ],
            "one only",
        ),
    ],
)
def test_given_teachers_that_cannot_teach_then_refused_before_any_data(
    tmp_path, capsys, options, named
):
    from vision_models.train.__main__ import main

    # given a teacher that is not there, teachers beside a network to keep, or teachers
    # for a run that trains no face network
    with pytest.raises(SystemExit) as stop:
        main([*options, "--out", str(tmp_path / "m")])
    # then it stops at once, naming the trouble, and writes nothing
    assert stop.value.code == 2
    assert named in capsys.readouterr().err
    assert not (tmp_path / "m").exists()


def test_given_a_render_with_an_unlabelled_thing_read_as_a_die_then_it_is_taught_as_no_die():
    from tests.test_vision_reader import draw_die, felt
    from vision_models.train.data import BACKGROUND, PATCH, Patch, Photo
    from vision_models.train.fit import (
        PLAYING_CARDS_SOURCE,
        TYPESET_SOURCE,
        distilled,
        reader_extras,
    )

    # given a photo labelled with one die, and a second die-like thing nobody labelled
    image = felt(480, 480, seed=5)
    draw_die(image, (140, 240), 5, side=60, angle=10)
    draw_die(image, (340, 240), 3, side=60, angle=25)
    photo = Photo(
        image,
        np.array([(140.0, 240.0)], np.float32),
        np.array([60.0], np.float32),
        np.array([4]),
        "render3d",
    )
    # when the committed reader's extra dice are mined from it
    extras = reader_extras(default_model_dir(), [photo])
    # then only the unlabelled one comes back, as "not a die", cut around it
    assert len(extras) == 1
    assert extras[0].label == BACKGROUND
    assert extras[0].image.shape[:2] == (PATCH, PATCH)
    # and a kept network's reading of it (a die) is not kept while fine-tuning
    assert not distilled(extras[0]) and not distilled(Patch(image, 4, "render3d"))
    assert distilled(Patch(image, 4, "tray-multicolor"))
    # nor of ranks set in TrueType fonts (Cyrillic among them), which it reads wrong
    assert not distilled(Patch(image, 8, TYPESET_SOURCE))
    assert not distilled(Patch(image, 7, PLAYING_CARDS_SOURCE))
    assert distilled(Patch(image, 8, "rendered:random"))


def test_given_a_fine_tuned_face_network_when_blended_then_its_ends_are_the_two_networks():
    from vision_models.train.fit import blend

    # given the committed face network and a "fine-tuned" copy whose weights all moved
    path = default_model_dir() / "faces.onnx"
    start = warm_start(FaceNet(), path).eval()
    tuned = warm_start(FaceNet(), path).eval()
    with torch.no_grad():
        for p in tuned.parameters():
            p.add_(0.05 * torch.randn_like(p, generator=torch.Generator().manual_seed(6)))
    x = torch.from_numpy(np.random.default_rng(6).random((5, 3, 48, 48), dtype=np.float32))
    # when blended keeping none, half and all of the fine-tuning
    with torch.no_grad():
        none, half, whole = (blend(tuned, start, s)(x) for s in (0.0, 0.5, 1.0))
        want_start, want_tuned = start(x), tuned(x)
        last = [m for m in blend(tuned, start, 0.5).modules() if isinstance(m, torch.nn.Linear)]
    # then the ends read as the two networks, and the middle's weights lie halfway
    assert torch.allclose(none, want_start, atol=1e-5)
    assert torch.allclose(whole, want_tuned, atol=1e-5)
    assert not torch.allclose(half, want_start, atol=1e-3)
    mid = (start.fc.weight + tuned.fc.weight) / 2
    assert torch.allclose(last[-1].weight, mid)
    # and the networks blended are left as they were
    assert torch.allclose(start(x), want_start) and torch.allclose(tuned(x), want_tuned)


def test_given_a_blend_without_a_network_to_start_from_then_refused_before_any_data(
    tmp_path, capsys
):
    from vision_models.train.__main__ import main

    with pytest.raises(SystemExit) as stop:
        main(["--only", "faces", "--faces-blend", "0.5", "--out", str(tmp_path / "m")])
    assert stop.value.code == 2
    assert "--warm" in capsys.readouterr().err
    assert not (tmp_path / "m").exists()
    with pytest.raises(SystemExit):
        main(["--warm", "vision_models", "--faces-blend", "1.5", "--out", str(tmp_path / "m")])
    assert "between 0 and 1" in capsys.readouterr().err


def exposed_twice(expose, path) -> None:
    """``expose`` run on ``path`` twice: the second run leaves the file as the first did."""
    expose(path)
    once = path.read_bytes()
    expose(path)
    assert path.read_bytes() == once


def test_given_a_face_network_exported_when_its_features_are_exposed_then_every_engine_reads_them(
    tmp_path,
):
    from scorer.vision.profile import FEATURES, GRID, OUTPUT
    from scorer.vision.sweep import MAP
    from vision_models.train.fit import (
        Calibrated,
        export,
        expose_features,
        expose_grid,
        expose_map,
    )

    # given a face network exported as training exports it (temperature and softmax baked in)
    net = FaceNet().eval()
    path = tmp_path / "faces.onnx"
    export(Calibrated(net, 0.7), path, (4, 3, 48, 48), ("crop", OUTPUT))
    x = np.random.default_rng(7).random((3, 3, 48, 48), dtype=np.float32)
    # when its pooled features are named an output (twice: the second changes nothing)
    exposed_twice(expose_features, path)
    # then OpenCV returns them beside the probabilities, and they are torch's features
    dnn = load_net(path)
    dnn.setInput(x)
    probs, features = dnn.forward([OUTPUT, FEATURES])
    with torch.no_grad():
        pooled = net.features(torch.from_numpy(x)).numpy()
        want = torch.softmax(net(torch.from_numpy(x)) / 0.7, 1).numpy()
    np.testing.assert_allclose(features, pooled, atol=1e-4)
    np.testing.assert_allclose(probs, want, atol=1e-5)
    # and the probabilities alone are still what a plain reading asks for
    dnn.setInput(x)
    np.testing.assert_allclose(dnn.forward(OUTPUT), want, atol=1e-5)
    # and where the last map by quarters is named too (twice: the second changes nothing),
    # it is torch's map averaged over each quarter of the crop, the rest as it was
    exposed_twice(expose_grid, path)
    dnn = load_net(path)
    dnn.setInput(x)
    probs, features, grid = dnn.forward([OUTPUT, FEATURES, GRID])
    with torch.no_grad():
        maps = net.features[:10](torch.from_numpy(x))
        quarters = torch.nn.functional.avg_pool2d(maps, maps.shape[-1] // 2).flatten(1).numpy()
    np.testing.assert_allclose(grid, quarters, atol=1e-4)
    np.testing.assert_allclose(features, pooled, atol=1e-4)
    # and where the last map itself is named too (twice: the second changes nothing), it is
    # torch's map: OpenCV's of a picture of any size (a tray swept), onnxruntime's of crops
    exposed_twice(expose_map, path)
    wide = np.random.default_rng(8).random((1, 3, 72, 96), dtype=np.float32)
    with torch.no_grad():
        want_map = net.features[:10](torch.from_numpy(wide)).numpy()
        crop_map = net.features[:10](torch.from_numpy(x)).numpy()
    dnn = load_net(path)
    dnn.setInput(wide)
    np.testing.assert_allclose(dnn.forward(MAP), want_map, atol=1e-4)
    for backend in ("cv2", "onnxruntime"):
        dnn = load_net(path, backend)
        dnn.setInput(x)
        np.testing.assert_allclose(dnn.forward(MAP), crop_map, atol=1e-4)
        dnn.setInput(x)
        np.testing.assert_allclose(dnn.forward(OUTPUT), want, atol=1e-5)
    np.testing.assert_allclose(probs, want, atol=1e-5)


def test_given_no_shared_photo_sets_when_training_then_refused_naming_the_folder(
    tmp_path, monkeypatch, capsys
):
    from vision_models.train import data
    from vision_models.train.__main__ import main

    # given a checkout whose ../shared/datasets is not there
    monkeypatch.setattr(data, "SHARED", tmp_path / "datasets")
    # when the networks are trained
    with pytest.raises(SystemExit) as stop:
        main(["--out", str(tmp_path / "m")])
    # then it stops before any data, naming the sets and where they were looked for
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "tray-multicolor or webcam-white" in err and str(tmp_path / "datasets") in err
    assert not (tmp_path / "m").exists()


def test_given_a_poker_network_to_fine_tune_then_it_starts_from_its_own_kind(tmp_path, capsys):
    from vision_models.train.__main__ import main

    # given a folder with the finder and the general face network, but no poker-dice one
    warm = tmp_path / "warm"
    warm.mkdir()
    for name in ("finder.onnx", "faces.onnx"):
        (warm / name).write_bytes((default_model_dir() / name).read_bytes())
    for second, wanted in (([], "faces-cards.onnx"), (["--second"], "faces-cards-2.onnx")):
        # when a poker-dice network is fine-tuned from it, or kept to it
        for option in ("--warm", "--faces-keep"):
            with pytest.raises(SystemExit) as stop:
                args = ["--only", "faces", "--faces-kind", "cards", *second, option, str(warm)]
                main([*args, "--out", str(tmp_path / "m")])
            # then it is refused, naming the network of its own kind, and writes nothing
            assert stop.value.code == 2
            assert wanted in capsys.readouterr().err
            assert not (tmp_path / "m").exists()


def test_given_a_pip_network_asked_for_then_it_starts_from_the_general_one_until_it_has_its_own(
    tmp_path, monkeypatch, capsys
):
    from vision_models.train import data
    from vision_models.train.__main__ import main

    monkeypatch.setattr(data, "SHARED", tmp_path / "datasets")  # stops it before any data
    warm = tmp_path / "warm"
    warm.mkdir()
    (warm / "finder.onnx").write_bytes((default_model_dir() / "finder.onnx").read_bytes())
    args = ["--only", "faces", "--faces-kind", "pips", "--warm", str(warm), "--faces-keep"]
    args += [str(warm), "--out", str(tmp_path / "m")]
    # given a folder with a finder and no face network at all
    with pytest.raises(SystemExit) as stop:
        main(args)
    # then a pip network is refused, naming the general network it would start from
    assert stop.value.code == 2
    assert "faces.onnx there" in capsys.readouterr().err
    # given the general face network beside it, but no pip one yet
    (warm / "faces.onnx").write_bytes((default_model_dir() / "faces.onnx").read_bytes())
    with pytest.raises(SystemExit) as stop:
        main(args)
    # then it gets past the networks to the data (here missing), writing nothing
    assert stop.value.code == 2
    assert "tray-multicolor or webcam-white" in capsys.readouterr().err
    assert not (tmp_path / "m").exists()
    # and in a whole run it is refused, naming the option to add
    with pytest.raises(SystemExit) as stop:
        main(["--faces-kind", "pips", "--out", str(tmp_path / "m")])
    assert "--only faces" in capsys.readouterr().err


def test_given_a_network_for_one_kind_of_dice_then_it_learns_its_faces_and_no_die_alone():
    from scorer.dice import BACKGROUND, CARDS
    from vision_models.train.__main__ import kept_kind

    # given every label a crop can carry: six pip faces, six card faces, "not a die"
    labels = range(BACKGROUND + 1)
    # then a pip network learns the pip faces and "not a die", a poker one the rest
    assert [x for x in labels if kept_kind(x, "pips")] == [*range(CARDS), BACKGROUND]
    assert [x for x in labels if kept_kind(x, "cards")] == list(range(CARDS, BACKGROUND + 1))


def test_given_a_crowded_tray_when_a_finder_is_kept_then_its_labels_are_learnt_not_the_old_maps():
    from vision_models.train import data
    from vision_models.train.fit import learnt_anew

    # given two rendered throws of one seed: a plain one and a crowded one
    plain = data.load_rendered(1, 7, kinds=("pips",))
    crowded = data.load_rendered(1, 7, kinds=("pips",), crowd=True)
    # then the crowded one holds a crowd's dice, and only it is learnt from its labels
    assert len(crowded[0].classes) >= 8 > len(plain[0].classes)
    assert learnt_anew(crowded[0]) and not learnt_anew(plain[0])


def test_given_crowds_asked_for_without_a_finder_to_train_then_refused_before_any_data(
    tmp_path, capsys
):
    from vision_models.train.__main__ import main

    # given crowded throws asked for a run that trains only a face network
    with pytest.raises(SystemExit) as stop:
        main(["--only", "faces", "--crowds", "10", "--out", str(tmp_path / "m")])
    # then it stops at once, naming what to add, and writes nothing
    assert stop.value.code == 2
    assert "add finder to --only" in capsys.readouterr().err
    assert not (tmp_path / "m").exists()
