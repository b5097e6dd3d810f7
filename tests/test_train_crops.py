"""The face stage's crops: random convolutions, styles mixed inside the network, and crops
cut by workers (needs ``train``)."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from vision_models.train import fit  # noqa: E402
from vision_models.train.data import Patch, face_sample  # noqa: E402
from vision_models.train.fit import (  # noqa: E402
    mixed_styles,
    random_convolution,
    styles_mixed,
    train_classifier,
)
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


def styled() -> torch.Tensor:
    """Crops each in its own colour: a mean and a spread per crop and channel."""
    tone = torch.rand(8, 3, 1, 1, generator=torch.Generator().manual_seed(9))
    return crops(8) * (0.2 + tone) + 2 * tone.flip(0)


def test_given_a_batch_when_its_styles_mix_then_each_map_takes_a_mix_of_two_crops_statistics():
    # given feature maps whose crops differ in colour (each channel's mean and spread)
    x = styled()
    # when their styles mix in every batch
    mixed = mixed_styles(x, 1.0, np.random.default_rng(2))
    # then the shape stays, and the crops' means are no longer their own...
    assert mixed.shape == x.shape
    means, now = x.mean((2, 3)), mixed.mean((2, 3))
    assert not torch.allclose(means, now, atol=1e-3)
    # ... but each lies between its own and another crop's: a mix, never a new colour
    low, high = means.min(0).values, means.max(0).values
    assert bool(((now >= low - 1e-4) & (now <= high + 1e-4)).all())

    # and what each crop shows (its normalised pattern) is kept
    def pattern(t: torch.Tensor) -> torch.Tensor:
        return (t - t.mean((2, 3), keepdim=True)) / t.std((2, 3), keepdim=True)

    assert torch.allclose(pattern(mixed), pattern(x), atol=1e-3)
    # and no share leaves the batch as it was
    assert torch.equal(mixed_styles(x, 0.0, np.random.default_rng(2)), x)


def test_given_styles_mixed_when_the_network_is_read_then_only_training_sees_them():
    torch.manual_seed(0)
    net, x = FaceNet(), styled()
    net.eval()
    plain = net(x)
    # given the mixing hooked in, when the network reads in eval mode, then as without it
    with styles_mixed(net, 1.0, np.random.default_rng(4)):
        assert torch.equal(net(x), plain)
        # and while it trains its readings change (batch norms frozen, dropout off)
        net.train()
        for module in net.modules():
            if isinstance(module, (torch.nn.BatchNorm2d, torch.nn.Dropout)):
                module.eval()
        assert not torch.allclose(net(x), plain, atol=1e-3)
    # and once left, no hook is left behind: the exported network is the plain one
    assert all(not net.features[i]._forward_hooks for i in fit.MIXED_STAGES)
    assert torch.allclose(net(x), plain, atol=1e-6)


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
