"""The two small networks of the dice reader, sized for one Raspberry Pi core.

``DieFinder`` is a CenterNet-style fully convolutional detector: a 320x320 letterboxed
frame in, a centre heatmap and a die side (both at stride 4) out. ``FaceNet`` names the
top face of one die from a 48x48 crop cut from the full-resolution frame: 12 faces
(pips 1..6, cards 9..A) and a "not a die" class. ``CourtNet`` looks again, at 64x64 and
closer, at a die the face network read as a jack, queen or king.
"""

from __future__ import annotations

import torch
from torch import nn

from scorer.dice import FACE_CLASSES  # 0..5 pips 1..6, 6..11 cards 9..A, 12 not a die

FINDER_INPUT = 320
FINDER_STRIDE = 4
FACE_INPUT = 48
COURT_INPUT = 64
COURT_CLASSES = 3  # jack, queen, king
#: die side in the finder's input pixels = exp(size_out) * SIZE_UNIT
SIZE_UNIT = 16.0


def conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
    )


def sep(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    """Depthwise-separable 3x3: most of a full conv's reach for a ninth of its cost."""
    return nn.Sequential(
        nn.Conv2d(cin, cin, 3, stride, 1, groups=cin, bias=False),
        nn.BatchNorm2d(cin),
        nn.ReLU(inplace=True),
        nn.Conv2d(cin, cout, 1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class DieFinder(nn.Module):
    """Centre heatmap (logit) and log die side, at stride 4 of a 320x320 input."""

    def __init__(self) -> None:
        super().__init__()
        self.s2 = conv(3, 16, 2)  # 160
        self.s4 = nn.Sequential(conv(16, 24, 2), sep(24, 24))  # 80
        self.s8 = nn.Sequential(sep(24, 48, 2), sep(48, 48))  # 40
        self.s16 = nn.Sequential(sep(48, 64, 2), sep(64, 64), sep(64, 64))  # 20
        self.lat16 = nn.Conv2d(64, 48, 1)
        self.up8 = sep(48, 48)
        self.lat8 = nn.Conv2d(48, 24, 1)
        self.up4 = sep(24, 32)
        self.head = nn.Conv2d(32, 2, 1)
        nn.init.constant_(self.head.bias, 0.0)
        with torch.no_grad():
            self.head.bias[0] = -4.0
        self.export_mode = False

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f4 = self.s4(self.s2(x))
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        u8 = self.up8(f8 + nn.functional.interpolate(self.lat16(f16), scale_factor=2.0))
        u4 = self.up4(f4 + nn.functional.interpolate(self.lat8(u8), scale_factor=2.0))
        out = self.head(u4)
        if self.export_mode:
            return torch.cat([torch.sigmoid(out[:, :1]), out[:, 1:]], dim=1)
        return out


#: how a face network's convolutions after the first are built: all full 3x3
#: ("full"), all depthwise-separable ("separable", about a sixth of the multiply-adds),
#: or full where a stage widens and separable after it ("mixed")
CONVS = ("full", "separable", "mixed")


def classifier(
    widths: tuple[int, int, int, int], classes: int, convs: str = "full"
) -> nn.Sequential:
    """One 3x3 convolution at full size, then two at each of three halvings, pooled."""
    if convs not in CONVS:
        raise ValueError(f"convs {convs!r}: one of {', '.join(CONVS)}")
    widen = conv if convs in ("full", "mixed") else sep
    keep = conv if convs == "full" else sep
    a, b, c, d = widths
    return nn.Sequential(
        conv(3, a),
        nn.MaxPool2d(2),
        widen(a, b),
        keep(b, b),
        nn.MaxPool2d(2),
        widen(b, c),
        keep(c, c),
        nn.MaxPool2d(2),
        widen(c, d),
        keep(d, d),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Dropout(0.2),
        nn.Linear(d, classes),
    )


class CourtNet(nn.Module):
    """Jack, queen or king, from a 64x64 crop of 1.3x the die's side (3 logits).

    The face network's shape at a third more pixels a side: a court's headwear and index
    are the few pixels that tell it, and only the dice read as courts pay for them
    (about 44 M multiply-adds a crop).
    """

    def __init__(self) -> None:
        super().__init__()
        self.layers = classifier((16, 32, 64, 128), COURT_CLASSES)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.layers(x)


class FaceNet(nn.Module):
    """Which face a 48x48 die crop shows (13 logits, the last one "not a die").

    Two convolutions at each of the three coarser scales: one per scale underfitted the
    many-coloured, marbled dice (90.6 % of held-out tray-multicolor train dice against
    96.9 % for this shape, both after 1200 steps), at 2.6x the cost. The last stage is
    128 wide, not 96: still underfitting (it missed 37 of its own 1311 fitted tray dice at
    96), the network gains most where weights are cheapest, at 6x6: +13 % multiply-adds,
    about 0.95 ms a crop on one core. ``convs`` other than "full" trade some of that
    fit for speed (``CONVS``); the layers keep their places, so profiles read the same
    feature layer.
    """

    def __init__(self, last: int = 128, convs: str = "full") -> None:
        super().__init__()
        layers = classifier((16, 32, 64, last), FACE_CLASSES, convs)
        # Named apart so that the export's feature layer is "/net/features/features.11/
        # Flatten", the name dice profiles read (``scorer.vision.profile.EMBEDDING``).
        self.features, self.drop, self.fc = layers[:12], layers[12], layers[13]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(self.drop(self.features(x)))
