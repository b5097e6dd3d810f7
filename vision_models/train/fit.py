"""Fitting, exporting and checking the two networks (torch on the CPU, 2 threads)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from vision_models.train.data import (
    BACKGROUND,
    Patch,
    Photo,
    cut_patch,
    face_sample,
    finder_sample,
)
from vision_models.train.nets import FACE_INPUT, FINDER_INPUT, DieFinder, FaceNet

Log = Callable[[str], None]


def to_tensor(images: Sequence[np.ndarray]) -> torch.Tensor:
    """BGR uint8 HWC images -> float NCHW in 0..1, as ``cv2.dnn.blobFromImages`` makes them."""
    arr = np.stack(images).astype(np.float32) / 255.0
    return torch.from_numpy(arr).permute(0, 3, 1, 2).contiguous()


def focal_loss(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss on a Gaussian centre heatmap."""
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    pos = target.eq(1).float()
    neg = 1 - pos
    pos_loss = torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = torch.log(1 - p) * p**2 * (1 - target) ** 4 * neg
    n = pos.sum().clamp(min=1)
    return -(pos_loss.sum() + neg_loss.sum()) / n


def train_finder(
    groups: list[tuple[list[Photo], float]], steps: int, rng: np.random.Generator, log: Log
) -> DieFinder:
    """Fit the die finder on warped crops drawn from photo groups at given weights."""
    net = DieFinder()
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.1)
    weights = np.array([w for _, w in groups], np.float64)
    weights /= weights.sum()
    batch = 16
    t0 = time.time()
    run = 0.0
    for step in range(steps):
        imgs, heats, sides, masks = [], [], [], []
        for _ in range(batch):
            photos = groups[int(rng.choice(len(groups), p=weights))][0]
            sample = finder_sample(photos[int(rng.integers(len(photos)))], rng, out=192)
            imgs.append(sample[0])
            heats.append(sample[1])
            sides.append(sample[2])
            masks.append(sample[3])
        x = to_tensor(imgs)
        heat = torch.from_numpy(np.stack(heats))
        side = torch.from_numpy(np.stack(sides))
        mask = torch.from_numpy(np.stack(masks))
        net.train()
        out = net(x)
        loss_h = focal_loss(out[:, 0], heat)
        loss_s = (torch.abs(out[:, 1] - side) * mask).sum() / mask.sum().clamp(min=1)
        loss = loss_h + loss_s
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        run = 0.98 * run + 0.02 * loss.item() if step else loss.item()
        if step % 100 == 0 or step == steps - 1:
            log(f"finder step {step}/{steps} loss {run:.3f} ({time.time() - t0:.0f}s)")
    return net.eval()


def letterbox(image: np.ndarray, size: int = FINDER_INPUT) -> tuple[np.ndarray, float]:
    """Scale the longer side to ``size`` and pad bottom/right with grey (as the reader does)."""
    h, w = image.shape[:2]
    s = size / max(h, w)
    resized = cv2.resize(image, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
    out = np.full((size, size, 3), 114, np.uint8)
    out[: resized.shape[0], : resized.shape[1]] = resized
    return out, s


def hard_negatives(
    net: DieFinder, photos: list[Photo], rng: np.random.Generator, per_photo: int = 4
) -> list[Patch]:
    """Places the fitted finder mistakes for dice: extra "not a die" patches."""
    out = []
    with torch.no_grad():
        for i in range(0, len(photos), 16):
            chunk = photos[i : i + 16]
            boxes = [letterbox(p.image) for p in chunk]
            maps = net(to_tensor([b[0] for b in boxes])).numpy()
            for photo, (_, s), m in zip(chunk, boxes, maps, strict=True):
                heat = 1 / (1 + np.exp(-m[0]))
                peaks = (heat == cv2.dilate(heat, np.ones((3, 3)))) & (heat > 0.15)
                ys, xs = np.nonzero(peaks)
                order = np.argsort(-heat[ys, xs])[: per_photo * 3]
                typical = float(np.median(photo.sides))
                taken = 0
                for j in order:
                    c = np.array([(xs[j] + 0.5) * 4 / s, (ys[j] + 0.5) * 4 / s])
                    d = np.hypot(*(photo.centres - c).T) / photo.sides
                    if len(d) and d.min() < 0.6:
                        continue
                    side = math.exp(m[1, ys[j], xs[j]]) * 16 / s
                    side = side if 0.3 * typical < side < 3 * typical else typical
                    out.append(Patch(cut_patch(photo.image, c, side), BACKGROUND, "hard"))
                    taken += 1
                    if taken >= per_photo:
                        break
    return out


def train_faces(patches: list[Patch], steps: int, rng: np.random.Generator, log: Log) -> FaceNet:
    """Fit the face classifier with class-balanced batches of augmented crops."""
    net = FaceNet()
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.1)
    labels = np.array([p.label for p in patches])
    by_class = [np.nonzero(labels == k)[0] for k in range(13)]
    present = [k for k in range(13) if len(by_class[k])]
    batch = 128
    t0 = time.time()
    run = 0.0
    lossf = nn.CrossEntropyLoss(label_smoothing=0.05)
    for step in range(steps):
        ks = rng.choice(present, size=batch)
        idx = [by_class[k][rng.integers(len(by_class[k]))] for k in ks]
        x = to_tensor([face_sample(patches[i], rng) for i in idx])
        y = torch.from_numpy(labels[idx])
        net.train()
        loss = lossf(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        run = 0.98 * run + 0.02 * loss.item() if step else loss.item()
        if step % 100 == 0 or step == steps - 1:
            log(f"faces step {step}/{steps} loss {run:.3f} ({time.time() - t0:.0f}s)")
    return net.eval()


def plain_crops(patches: list[Patch], rotations: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """Unaugmented 48x48 crops at 1.5 x the die side, as the reader cuts them, x4 rotations."""
    span_die = 112 / 3.0
    side = 1.5 * span_die
    s = FACE_INPUT / side
    c = 56.0
    m = np.array([[s, 0, FACE_INPUT / 2 - s * c], [0, s, FACE_INPUT / 2 - s * c]])
    crops = []
    for p in patches:
        crop = cv2.warpAffine(p.image, m, (FACE_INPUT, FACE_INPUT), flags=cv2.INTER_AREA)
        crops.extend(np.ascontiguousarray(np.rot90(crop, r)) for r in range(rotations))
    return np.stack(crops), np.array([p.label for p in patches])


def logits_of(net: FaceNet, crops: np.ndarray) -> np.ndarray:
    with torch.no_grad():
        return np.concatenate(
            [net(to_tensor(crops[i : i + 512])).numpy() for i in range(0, len(crops), 512)]
        )


def fit_temperature(logits: np.ndarray, labels: np.ndarray) -> float:
    """Temperature that makes softmax confidences honest on held-out dice (1-D search)."""
    best, best_t = 1e9, 1.0
    for t in np.exp(np.linspace(math.log(0.3), math.log(5), 60)):
        z = logits / t
        z = z - z.max(1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(1, keepdims=True))
        nll = -logp[np.arange(len(labels)), labels].mean()
        if nll < best:
            best, best_t = nll, float(t)
    return best_t


class Calibrated(nn.Module):
    """The face net with its temperature and softmax baked in, for export."""

    def __init__(self, net: FaceNet, temperature: float) -> None:
        super().__init__()
        self.net = net
        self.t = temperature

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.net(x) / self.t, dim=1)


def export(net: nn.Module, path: Path, shape: tuple[int, ...], names: tuple[str, str]) -> float:
    """Write ONNX (opset 13, batch axis dynamic), load it with cv2.dnn, return max |diff|."""
    import warnings

    net.eval()
    x = torch.rand(*shape)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            net,
            x,
            str(path),
            opset_version=13,
            input_names=[names[0]],
            output_names=[names[1]],
            dynamic_axes={names[0]: {0: "n"}, names[1]: {0: "n"}},
            dynamo=False,
        )
    dnn = cv2.dnn.readNetFromONNX(str(path))
    dnn.setInput(x.numpy())
    got = dnn.forward()
    with torch.no_grad():
        want = net(x).numpy()
    return float(np.abs(got - want).max())
