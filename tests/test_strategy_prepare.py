"""Warming a table in the background: one build per table and directory, never lost."""

from __future__ import annotations

from scorer.strategy import is_built, prepare, solitaire


def test_given_a_table_being_built_when_asked_again_then_the_same_build_answers(tmp_path):
    first = prepare("generala", {"double_generala": "off"}, tmp_path / "a")
    again = prepare("generala", {"double_generala": "off"}, tmp_path / "a")
    assert first is not None
    assert again is first or again is None  # None once the first build has finished
    first.join(30)
    assert is_built(solitaire("generala", {"double_generala": "off"}), tmp_path / "a")
    assert prepare("generala", {"double_generala": "off"}, tmp_path / "a") is None


def test_given_another_data_directory_then_it_gets_its_own_table(tmp_path):
    model = solitaire("generala", {"double_generala": "off"})
    build_a = prepare("generala", {"double_generala": "off"}, tmp_path / "a")
    build_b = prepare("generala", {"double_generala": "off"}, tmp_path / "b")
    assert build_a is not None and build_b is not None and build_a is not build_b
    build_a.join(30)
    build_b.join(30)
    assert is_built(model, tmp_path / "a") and is_built(model, tmp_path / "b")


def test_rulesets_without_a_table_have_nothing_to_warm(tmp_path):
    assert prepare("poker_ru", None, tmp_path) is None
