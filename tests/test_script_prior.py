"""Poker dice printing 9 10 В Д К Т read with the prior taught from renders of them.

The committed prior (``vision_models/ranks-cyrillic``, ``python -m
vision_models.train.ranks``) joins a set's own crops in games of poker dice when the set
says it prints Cyrillic, and reads its lessons; a Latin set and a pip game never see it.
"""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import pytest

from scorer.cli import main
from scorer.dice_sets import DiceSets
from scorer.render.scene import write_dataset
from scorer.vision.labelled import load_split
from scorer.vision.profile import FILE_NAME, DiceProfile
from scorer.vision.reader import Reader, default_model_dir
from scorer.vision.script import load_prior, prior_folder
from scorer.vision.teaching import teach_photos

PRIOR = prior_folder(default_model_dir(), "cyrillic")
pytestmark = pytest.mark.skipif(
    PRIOR is None or not (PRIOR / FILE_NAME).is_file(),
    reason="no vision_models/ranks-cyrillic: run `python -m vision_models.train.ranks`",
)


@pytest.fixture(scope="module")
def reader() -> Reader:
    return Reader()


@pytest.fixture(scope="module")
def cyrillic_throws(tmp_path_factory) -> Path:
    """20 throws of the held-out card families printing Cyrillic: art the prior never saw."""
    root = tmp_path_factory.mktemp("cyrillic")
    write_dataset(root, 20, 5, kind="cards", held_out=True, ranks="cyrillic")
    return root


def figures(capsys, *args: str) -> dict:
    assert main(["eval", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_given_unseen_cyrillic_art_when_read_told_its_letters_then_more_dice_right(
    cyrillic_throws, capsys
):
    # given throws of art neither the networks nor the prior saw, printing В Д К Т
    # when they are read as poker dice, untold and told that the dice print Cyrillic
    untold = figures(capsys, str(cyrillic_throws), "--faces", "cards")
    told = figures(capsys, str(cyrillic_throws), "--faces", "cards", "--ranks", "cyrillic")
    # then their own networks and the prior read far more dice right (66.67 -> 92.31 % of
    # 78 dice with run 42's networks) and no more sure dice wrong (10 of 48 -> 0 of 50)
    assert told["per_die"] >= max(0.90, untold["per_die"] + 0.2)
    assert told["confident_wrong"] <= min(1, untold["confident_wrong"])


def test_given_sets_when_a_game_reads_then_only_a_cyrillic_set_in_a_poker_game_has_the_prior(
    tmp_path, reader
):
    # given a set printing Cyrillic and one printing Latin, neither taught
    sets = DiceSets(tmp_path)
    russian = sets.create("Russian poker dice")
    sets.set_ranks(russian, "cyrillic")
    latin = sets.create("Latin poker dice")
    # when a poker-dice game and a pip game read with them
    poker = sets.reading_profile(russian, reader, "cards")
    # then only the Cyrillic set in the poker game reads with the prior's crops
    assert isinstance(poker, DiceProfile) and poker.kind == "card"
    assert len(poker) == len(DiceProfile.load(PRIOR))
    assert poker.votes
    assert sets.reading_profile(russian, reader, "pips") is None
    assert sets.reading_profile(latin, reader, "cards") is None
    # and the set's own profile (what teaching and its summary use) is still untaught
    assert sets.profile(russian, reader) is None


def test_given_a_taught_cyrillic_set_then_its_crops_join_the_prior_and_its_file_keeps_its_own(
    tmp_path, reader, cyrillic_throws
):
    # given a Cyrillic set taught from three photos of its dice
    sets = DiceSets(tmp_path)
    russian = sets.create("Russian poker dice")
    sets.set_ranks(russian, "cyrillic")
    own = sets.editable(russian, reader)
    try:
        teach_photos(reader, own, load_split(cyrillic_throws, "test")[:3], "lesson")
    finally:
        reader.profile = None
    sets.save(russian, own)
    # when a poker-dice game reads with it
    both = sets.reading_profile(russian, reader, "cards")
    prior = DiceProfile.load(PRIOR)
    # then the prior's crops vote beside its own, with its own size and look
    assert len(both) == len(prior) + len(own)
    assert both.size == own.size and both.look_windows == own.look_windows
    # and its file, what undo and "Forget these dice" change, holds its own crops alone
    assert len(DiceProfile.load(sets.folder(russian))) == len(own)
    assert sets.reading_profile(russian, reader, "cards") is both  # joined once, kept
    # when the set is taught two more photos and saved, as a written turn teaches it
    try:
        teach_photos(reader, own, load_split(cyrillic_throws, "test")[3:5], "turn")
    finally:
        reader.profile = None
    sets.save(russian, own)
    # then the next reading has those crops too
    again = sets.reading_profile(russian, reader, "cards")
    assert again is not both and len(again) == len(prior) + len(own) > len(both)


def without_prior(tmp_path: Path) -> Path:
    """A copy of the networks' folder with no prior in it."""
    models = tmp_path / "models"
    models.mkdir()
    for path in default_model_dir().glob("*.onnx"):
        (models / path.name).symlink_to(path)
    return models


def test_given_no_prior_or_latin_faces_when_read_with_cyrillic_ranks_then_refused_by_name(
    tmp_path, cyrillic_throws, capsys
):
    # given the reader's networks without their prior
    models = without_prior(tmp_path)
    # when the command line asks for Cyrillic ranks there, or for them in a pip reading
    missing = main(
        [
            "eval",
            str(cyrillic_throws),
            "--faces",
            "cards",
            "--ranks",
            "cyrillic",
            "--models",
            str(models),
        ]
    )
    said_missing = capsys.readouterr().err
    pips = main(["eval", str(cyrillic_throws), "--faces", "pips", "--ranks", "cyrillic"])
    said_pips = capsys.readouterr().err
    # then each is refused, naming what is wrong
    assert missing == 2 and "ranks-cyrillic" in said_missing and "train.ranks" in said_missing
    assert pips == 2 and "--faces cards" in said_pips


def test_given_a_damaged_prior_when_a_set_reads_then_its_own_crops_alone_and_a_log_line(
    tmp_path, caplog
):
    # given networks whose prior file is damaged
    models = without_prior(tmp_path)
    (models / "ranks-cyrillic").mkdir()
    shutil.copyfile(__file__, models / "ranks-cyrillic" / FILE_NAME)
    reader = Reader(models)
    sets = DiceSets(tmp_path / "sets")
    russian = sets.create("Russian poker dice")
    sets.set_ranks(russian, "cyrillic")
    # when a poker game reads with the set
    with caplog.at_level(logging.WARNING):
        profile = sets.reading_profile(russian, reader, "cards")
    # then it reads untaught, never crashing, and the log says why
    assert profile is None and load_prior(reader, "cyrillic") is None
    assert "read without their prior" in caplog.text


def test_given_a_poker_game_with_a_cyrillic_set_when_thrown_then_read_with_the_prior(
    store, camera, reader, tmp_path, cyrillic_throws
):
    import cv2

    from scorer.bus import Bus
    from scorer.game import Setup
    from scorer.table import Table

    # given a table whose set of poker dice prints Cyrillic, and a game of poker dice
    sets = DiceSets(tmp_path / "sets")
    russian = sets.create("Russian poker dice")
    sets.set_ranks(russian, "cyrillic")
    table = Table(
        store,
        Bus(),
        camera=camera,
        reader=reader,
        photos=tmp_path / "photos",
        dice_sets=sets,
        frames=1,
    )
    try:
        game_id, _ = table.new_game(
            Setup("poker_dice", ("Anna", "Bo"), dice="cards", dice_set=russian)
        )
        photo = load_split(cyrillic_throws, "test")[0]
        camera.frame = cv2.imread(str(photo.path))
        # when a throw is read
        state = table.throw(game_id).state()
        # then the reader read it with the prior and the set's letters' own networks, and
        # the throw holds its poker dice
        assert table.reader.ranks == "cyrillic" and table.reader.own_script
        assert table.reader.profile is sets.reading_profile(russian, reader, "cards")
        assert len(table.reader.profile) == len(DiceProfile.load(PRIOR))
        assert len(state["dice"]) == len(photo.dice)
    finally:
        table.close()
        reader.profile = None


def test_the_committed_prior_was_built_with_the_committed_networks():
    # given the prior on disk, as `make train`'s last line wrote it
    stored = DiceProfile.load(PRIOR)
    # then its crops were described by today's networks of Cyrillic poker dice (else every
    # table start would describe them again: `python -m vision_models.train.ranks`)
    assert stored.model == Reader(ranks="cyrillic").faces_digest("card")
    # and it holds faces alone, every face of poker dice, without a size or a look
    assert stored.kind == "card" and stored.size is None and stored.look is None
    assert set(stored.counts()) == set(range(6, 12))


def test_given_cyrillic_photos_when_taught_with_their_letters_then_read_as_the_table_reads_them(
    tmp_path, cyrillic_throws, capsys
):
    # given photos of a Cyrillic set, taught once as Latin dice and once told their letters
    said = {}
    for ranks in ("latin", "cyrillic"):
        args = ["teach", str(cyrillic_throws), "--split", "test", "--photos", "5"]
        assert main([*args, "--profile", str(tmp_path / ranks), "--ranks", ranks]) == 0
        said[ranks] = capsys.readouterr().out
    # then told, each photo was read with the prior as a table reads the set: fewer of its
    # dice were read wrong, so fewer corrections were taught
    corrections = {r: int(s.split(" corrections")[0].rsplit(" ", 1)[1]) for r, s in said.items()}
    assert corrections["cyrillic"] < corrections["latin"]
    # and the set's file holds its own crops, as many either way
    taught = {r: len(DiceProfile.load(tmp_path / r)) for r in said}
    assert taught["cyrillic"] == taught["latin"] > 0


def test_given_pip_photos_when_taught_as_cyrillic_then_refused_by_name(tmp_path, capsys):
    # given photos of pip dice
    pips = tmp_path / "pips"
    write_dataset(pips, 2, 1, kind="pips", held_out=False)
    # when taught as dice printing Cyrillic ranks
    code = main(
        [
            "teach",
            str(pips),
            "--split",
            "test",
            "--profile",
            str(tmp_path / "p"),
            "--ranks",
            "cyrillic",
        ]
    )
    # then refused, saying why, and no profile written
    assert code == 2 and "these photos show pip dice" in capsys.readouterr().err
    assert not (tmp_path / "p" / FILE_NAME).exists()
