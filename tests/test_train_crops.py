"""The face stage's crops: random convolutions, and crops cut by workers (needs ``train``)."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from vision_models.train import fit  # noqa: E402
from vision_models.train.data import Patch, face_sample  # noqa: E402
from vision_models.train.fit import random_convolution, train_classifier  # noqa: E402
from vision_models.train.nets import FACE_CLASSES, FaceNet  # noqa: E402


def crops(n: int = 16) -> torch.Tensor:
    return torch.rand(n, 3, 48, 48, generator=torch.Generator().manual_seed(0))


def test_given_no_share_when_convolved_then_every_crop_is_as_it_was():
    x = crops()
    assert torch.equal(random_convolution(x, 0.0, torch.Generator().manual_seed(1)), x)


def test_given_every_crop_when_convolved_then_each_changes_and_stays_a_picture():
    # given a batch, when every crop is seen through a random convolution
    x = crops()
    seen = random_convolution(x, 1.0, torch.Generator().manual_seed(1))
    # then each crop changed, the batch's shape did not, and its values stay within 0..1
    assert seen.shape == x.shape
    assert bool((seen != x).flatten(1).any(1).all())
    assert float(seen.min()) >= 0.0 and float(seen.max()) <= 1.0
    # and the batch handed in is left as it was
    assert torch.equal(x, crops())


def test_given_one_seed_when_convolved_twice_then_the_same_crops():
    x = crops()
    first = random_convolution(x, 0.5, torch.Generator().manual_seed(7))
    again = random_convolution(x, 0.5, torch.Generator().manual_seed(7))
    assert torch.equal(first, again)


def patches() -> list[Patch]:
    rng = np.random.default_rng(3)
    return [
        Patch(rng.integers(0, 255, (112, 112, 3), dtype=np.uint8), int(k % FACE_CLASSES), "x", None)
        for k in range(40)
    ]


def fitted(workers: int) -> dict[str, torch.Tensor]:
    torch.manual_seed(0)
    net = train_classifier(
        FaceNet(),
        patches(),
        face_sample,
        FACE_CLASSES,
        3,
        np.random.default_rng(5),
        lambda _msg: None,
        "faces",
        workers=workers,
    )
    return {k: v.clone() for k, v in net.state_dict().items()}


def test_given_workers_cutting_crops_when_fitted_twice_then_the_same_network():
    # given crops cut by two workers from seeds the run draws, when fitted twice
    first, again = fitted(2), fitted(2)
    # then both runs end with the same weights: the workers' order does not matter
    assert all(torch.equal(first[k], again[k]) for k in first)
    # and they are other crops than the one-thread path cuts, so other weights
    one = fitted(0)
    assert any(not torch.equal(first[k], one[k]) for k in first)


def test_given_no_fork_when_threads_cut_the_crops_then_the_same_network_as_processes(monkeypatch):
    # given the forked processes' network
    processes = fitted(2)
    # when the platform cannot fork and threads cut the crops instead
    monkeypatch.setattr(fit.mp, "get_all_start_methods", lambda: ["spawn"])
    threads = fitted(2)
    # then each batch came from the same seed: the same weights
    assert all(torch.equal(processes[k], threads[k]) for k in processes)
