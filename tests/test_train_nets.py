"""The face network's cheaper shapes keep what the reader relies on (needs the ``train`` extra)."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from torch import nn  # noqa: E402

from scorer.dice import FACE_CLASSES  # noqa: E402
from vision_models.train.nets import CONVS, FACE_INPUT, FaceNet  # noqa: E402


def multiply_adds(net: nn.Module) -> int:
    """A crop's multiply-adds in the network's convolutions and linear layer."""
    total = 0

    def count(module: nn.Module, inputs: tuple, output: torch.Tensor) -> None:
        nonlocal total
        if isinstance(module, nn.Conv2d):
            per_out = module.in_channels // module.groups * module.kernel_size[0] ** 2
            total += output.numel() * per_out
        elif isinstance(module, nn.Linear):
            total += module.in_features * module.out_features

    hooks = [m.register_forward_hook(count) for m in net.modules()]
    with torch.no_grad():
        net.eval()(torch.zeros(1, 3, FACE_INPUT, FACE_INPUT))
    for hook in hooks:
        hook.remove()
    return total


@pytest.mark.parametrize("convs", CONVS)
def test_given_each_shape_when_built_then_the_profiles_feature_layer_keeps_its_place(convs):
    # given a face network of each kind of convolution
    net = FaceNet(convs=convs).eval()
    # when it reads a batch of crops
    with torch.no_grad():
        logits = net(torch.rand(3, 3, FACE_INPUT, FACE_INPUT))
    # then it names the same classes, and profiles find the features where they were
    assert logits.shape == (3, FACE_CLASSES)
    assert isinstance(net.features[11], nn.Flatten)
    assert net.fc.in_features == 128


def test_given_separable_convolutions_then_a_crop_costs_a_fraction_of_the_full_network():
    full = multiply_adds(FaceNet())
    # the full network's own figure (faces.md: about 25 M a crop)
    assert 20e6 < full < 30e6
    assert multiply_adds(FaceNet(convs="mixed")) < full / 2
    assert multiply_adds(FaceNet(convs="separable")) < full / 5


def test_given_an_unknown_shape_then_refused_by_name():
    with pytest.raises(ValueError, match="'dense'"):
        FaceNet(convs="dense")
