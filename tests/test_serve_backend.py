"""The table reads on onnxruntime where it is installed (about twice as fast), else cv2."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from scorer.table import load_reader
from scorer.vision.reading import fastest_backend


def test_given_onnxruntime_installed_when_the_table_loads_its_reader_then_it_runs_on_it():
    pytest.importorskip("onnxruntime")
    # given onnxruntime (the test extra installs it), when the serve default is resolved
    backend = fastest_backend()
    reader = load_reader(backend)
    # then the reader runs on it
    assert backend == "onnxruntime"
    assert reader is not None and reader.backend == "onnxruntime"


def test_given_no_onnxruntime_when_the_backend_is_chosen_then_opencv(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "onnxruntime" else real(name)
    )
    assert fastest_backend() == "cv2"
    reader = load_reader("cv2")
    assert reader is not None and reader.backend == "cv2"


def test_given_an_unknown_backend_when_serve_starts_then_exit_2_naming_it():
    result = subprocess.run(
        [sys.executable, "-m", "scorer", "serve", "--backend", "tflite"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "tflite" in result.stderr and "--backend" in result.stderr


def test_given_onnxruntime_failing_when_the_table_loads_its_reader_then_opencv_reads(
    monkeypatch, caplog
):
    # given a reader that cannot start on onnxruntime (a broken install on the Pi)
    from scorer.vision import reader as reader_module

    real = reader_module.Reader

    def reader(*args, backend="cv2", **kwargs):
        if backend == "onnxruntime":
            raise RuntimeError("onnxruntime: illegal instruction")
        return real(*args, backend=backend, **kwargs)

    monkeypatch.setattr(reader_module, "Reader", reader)
    import scorer.vision

    monkeypatch.setattr(scorer.vision, "Reader", reader)
    # when the table loads it, then it reads on OpenCV's dnn and says why
    loaded = load_reader("onnxruntime")
    assert loaded is not None and loaded.backend == "cv2"
    assert "illegal instruction" in caplog.text
