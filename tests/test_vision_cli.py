"""``scorer read`` and ``scorer eval`` on pictures and sets made in the test."""

from __future__ import annotations

import json
import re

import cv2
import pytest

from scorer.cli import main
from scorer.commands.vision import describe
from scorer.vision.reader import default_model_dir
from scorer.vision.reading import Die, Reading
from tests.test_vision_pip_finder import SHARED, paler
from tests.test_vision_reader import felt, throw

pytestmark = pytest.mark.skipif(
    not (default_model_dir() / "faces.onnx").is_file(),
    reason="vision_models/*.onnx not built: run `make train`",
)


def test_given_images_and_a_missing_one_when_read_json_then_the_rest_are_read(tmp_path, capsys):
    image, _ = throw([4, 2, 6])
    good = tmp_path / "throw.png"
    cv2.imwrite(str(good), image)
    empty = tmp_path / "empty.png"
    cv2.imwrite(str(empty), felt())
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not a jpeg")

    status = main(
        ["read", "--json", str(good), str(tmp_path / "missing.jpg"), str(broken), str(empty)]
    )

    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 1
    assert [o["image"] for o in out] == [
        str(good),
        str(tmp_path / "missing.jpg"),
        str(broken),
        str(empty),
    ]
    assert len(out[0]["dice"]) == 3
    assert all(1 <= d["value"] <= 6 and d["face"] in ("pips", "card") for d in out[0]["dice"])
    assert set(out[0]["dice"][0]) - {"rank"} == {"value", "face", "confidence", "box"}
    assert out[0]["ms"] > 0
    assert "no such file" in out[1]["error"]
    assert "not a readable image" in out[2]["error"]
    assert out[3]["dice"] == []


def test_given_one_image_when_read_plain_then_a_readable_line(tmp_path, capsys):
    image, _ = throw([1, 5])
    path = tmp_path / "t.png"
    cv2.imwrite(str(path), image)
    assert main(["read", str(path)]) == 0
    line = capsys.readouterr().out.strip()
    assert re.fullmatch(rf"{re.escape(str(path))}: \S+ \S+  \(2 dice, \d unsure, [\d.]+ ms\)", line)


def test_given_a_bad_tray_option_when_read_then_usage_error(tmp_path):
    with pytest.raises(SystemExit) as exit_info:
        main(["read", "--tray", "1,2,3", str(tmp_path / "x.png")])
    assert exit_info.value.code == 2


@pytest.mark.parametrize("command", ["read", "eval"])
def test_given_an_unknown_dice_kind_when_read_then_usage_error_naming_it(tmp_path, capsys, command):
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--faces", "dots", str(tmp_path / "x.png")])
    assert exit_info.value.code == 2
    assert "'dots'" in capsys.readouterr().err


def test_given_a_small_labelled_set_when_evaluated_then_figures_and_failure_pictures(
    tmp_path, capsys
):
    # given a YOLO set of two drawn throws, one labelled wrong on purpose
    (tmp_path / "images" / "test").mkdir(parents=True)
    (tmp_path / "labels" / "test").mkdir(parents=True)
    (tmp_path / "data.yaml").write_text("names: {0: 1, 1: 2, 2: 3, 3: 4, 4: 5, 5: 6}\nbox: die\n")
    for name, values, lie in (("a", [3, 6], None), ("b", [2, 5], 0)):
        image, spots = throw(values)
        cv2.imwrite(str(tmp_path / "images" / "test" / f"{name}.png"), image)
        lines = []
        for i, (v, (x, y)) in enumerate(zip(values, spots, strict=True)):
            label = (v % 6) if i == lie else v - 1  # the lie: one more than shown
            lines.append(f"{label} {x / 640} {y / 640} {60 / 640} {60 / 640}")
        (tmp_path / "labels" / "test" / f"{name}.txt").write_text("\n".join(lines) + "\n")

    status = main(["eval", str(tmp_path), "--failures", str(tmp_path / "fail")])

    out = capsys.readouterr().out
    assert status == 0
    per_die = float(re.search(r"per-die accuracy\s+([\d.]+) %", out).group(1))
    assert per_die <= 75.0  # one of the four labels is a lie
    assert "per-image exact" in out and "missed dice" in out and "confusion" in out
    assert "confident & wrong" in out and "flagged unsure" in out and "p95" in out
    assert sorted(p.name for p in (tmp_path / "fail").iterdir()) == ["b.jpg"]


def drawn_set(folder, values) -> None:
    """A YOLO set in ``folder`` of one drawn throw of ``values``, labelled right."""
    (folder / "images" / "test").mkdir(parents=True)
    (folder / "labels" / "test").mkdir(parents=True)
    (folder / "data.yaml").write_text("names: {0: 1, 1: 2, 2: 3, 3: 4, 4: 5, 5: 6}\nbox: die\n")
    image, spots = throw(values)
    cv2.imwrite(str(folder / "images" / "test" / "a.png"), image)
    rows = [
        f"{v - 1} {x / 640} {y / 640} {60 / 640} {60 / 640}"
        for v, (x, y) in zip(values, spots, strict=True)
    ]
    (folder / "labels" / "test" / "a.txt").write_text("\n".join(rows) + "\n")


def test_given_a_set_seen_closer_when_evaluated_then_the_header_says_how_many_photos(
    tmp_path, capsys
):
    # given a YOLO set of one drawn throw of two dice near the middle
    drawn_set(tmp_path, [3, 6])
    # when measured as a camera twice as close would see it
    assert main(["eval", str(tmp_path), "--closer", "2", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    # then the photo is measured with both dice, read right at twice their size
    assert figures["closer"] == 2.0 and figures["photos"] == 1 and figures["dice"] == 2
    assert figures["per_die"] == 1.0
    assert main(["eval", str(tmp_path), "--closer", "2"]) == 0
    assert "seen 2x closer: 1 of 1 photos" in capsys.readouterr().out


def test_given_a_zoom_under_one_when_evaluated_closer_then_usage_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["eval", str(tmp_path), "--closer", "0.5"])
    assert exit_info.value.code == 2
    assert "argument --closer: a zoom is from 1 to 10" in capsys.readouterr().err


def test_given_not_a_set_when_evaluated_then_exit_2(tmp_path, capsys):
    assert main(["eval", str(tmp_path)]) == 2
    assert "data.yaml" in capsys.readouterr().err


def test_given_unsure_dice_when_described_then_each_shows_its_second_guess():
    # given a sure four, an unsure jack that may be a king, an unsure two with no second guess
    reading = Reading(
        (
            Die(4, "pips", 0.99, (0, 0, 5, 5)),
            Die(3, "card", 0.55, (9, 0, 5, 5), "J", guess=5),
            Die(2, "pips", 0.4, (18, 0, 5, 5)),
        ),
        ms=12.34,
    )
    # when described, then the jack reads "J/K?" and the two "2?"
    assert describe(reading) == "4 J/K? 2?  (3 dice, 2 unsure, 12.3 ms)"
    # and for dice printing Cyrillic, the same jack reads "В/К?"
    assert describe(reading, "cyrillic") == "4 В/К? 2?  (3 dice, 2 unsure, 12.3 ms)"


def test_given_a_negative_count_of_dice_when_read_then_refused_naming_it(tmp_path, capsys):
    image, _ = throw([1, 5])
    path = tmp_path / "t.png"
    cv2.imwrite(str(path), image)
    assert main(["read", "--least", "-1", str(path)]) == 2
    assert "--least is a number of dice, not -1" in capsys.readouterr().err


PALE_WEBCAM = SHARED / "webcam-white" / "images" / "test" / "valid_6.jpg"


@pytest.mark.skipif(not PALE_WEBCAM.is_file(), reason="../shared/datasets is absent")
def test_given_a_pip_game_that_threw_one_die_when_read_then_told_it_finds_it(tmp_path, capsys):
    # given a webcam photo made paler (gamma 0.5), where the one die is not found untold
    path = tmp_path / "pale.png"
    cv2.imwrite(str(path), paler(PALE_WEBCAM))
    assert main(["read", "--faces", "pips", str(path)]) == 0
    assert "no dice" in capsys.readouterr().out
    # when the game says it threw one die, then it is read
    assert main(["read", "--faces", "pips", "--least", "1", str(path)]) == 0
    assert ": 2  (1 dice, 0 unsure" in capsys.readouterr().out


def test_given_a_set_when_evaluated_told_then_its_figures_say_so(tmp_path, capsys):
    # given a YOLO set of one drawn throw of two dice
    drawn_set(tmp_path, [3, 6])
    # when each photo is read told its number of dice, as a table reads its throws
    assert main(["eval", str(tmp_path), "--faces", "pips", "--told", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    # then both dice are read and the figures say how they were read
    assert figures["told"] is True and figures["per_die"] == 1.0
    assert main(["eval", str(tmp_path), "--faces", "pips", "--told"]) == 0
    assert "told each photo's dice" in capsys.readouterr().out
