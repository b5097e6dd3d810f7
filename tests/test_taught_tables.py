"""benchmarks/taught_tables.py finds the rendered tables it measures: those of one look
(`--version`), the Cyrillic tables left to their own benchmark."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "taught_tables.py"


def _bench():
    spec = importlib.util.spec_from_file_location("taught_tables", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _cache(tmp_path: Path, names: list[str]) -> Path:
    for name in names:
        (tmp_path / name).mkdir()
    return tmp_path / "v1"


def test_given_tables_of_two_looks_when_one_look_asked_then_only_its_tables_in_order(tmp_path):
    root = _cache(
        tmp_path,
        [
            "v1",
            "v1-table10-pips",
            "v1-table3-cards",
            "v2-table70-cards",
            "v1-table100-cards-cyrillic",
        ],
    )
    found = _bench().tables(root, None, 1)
    assert [(folder.name, kind) for folder, kind in found] == [
        ("v1-table3-cards", "cards"),
        ("v1-table10-pips", "pips"),
    ]


def test_given_no_look_when_tables_found_then_every_look_and_names_narrow_them(tmp_path):
    root = _cache(tmp_path, ["v1-table0-pips", "v2-table70-cards", "v2-table82-pips"])
    bench = _bench()
    assert [f.name for f, _ in bench.tables(root, None)] == [
        "v1-table0-pips",
        "v2-table70-cards",
        "v2-table82-pips",
    ]
    assert [f.name for f, _ in bench.tables(root, ["v2-table82-pips"], 2)] == ["v2-table82-pips"]
    assert bench.tables(root, ["v2-table82-pips"], 1) == []
