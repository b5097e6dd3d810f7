"""Fitting, exporting and checking the three networks (torch on the CPU, 2 threads; the face
stage on a GPU when asked)."""

from __future__ import annotations

import contextlib
import copy
import math
import multiprocessing as mp
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np
import torch
from torch import nn

from scorer.vision.crop import CROP_SPAN
from scorer.vision.network import load_net
from scorer.vision.profile import FEATURES, GRID
from scorer.vision.reader import Reader, find_dice
from scorer.vision.sweep import MAP
from vision_models.train.data import (
    BACKGROUND,
    CROWD,
    PATCH_SPAN,
    Patch,
    Photo,
    court_sample,
    cut_patch,
    face_sample,
    finder_sample,
    upright,
)
from vision_models.train.nets import (
    COURT_CLASSES,
    FACE_CLASSES,
    FACE_INPUT,
    FINDER_INPUT,
    CourtNet,
    DieFinder,
    FaceNet,
)

Log = Callable[[str], None]
N = TypeVar("N", bound=nn.Module)


def warm_start(net: N, path: Path) -> N:
    """``net`` set to the exported network at ``path``, its batch norms frozen as identity.

    The export folds each batch norm into its convolution; the folded weights go back
    into the convolution and the norm passes them through (mean 0, variance 1, scale 1,
    shift = the folded bias), so the network starts as exactly the exported one.
    Fine-tune it with ``frozen_norms`` (batch statistics would undo the fold).
    """
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    weights = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    nodes = [n for n in model.graph.node if n.op_type in ("Conv", "Gemm")]
    modules = list(net.modules())
    layers: list[tuple[nn.Module, nn.BatchNorm2d | None]] = []
    for i, m in enumerate(modules):
        if isinstance(m, (nn.Conv2d, nn.Linear)):
            after = modules[i + 1] if i + 1 < len(modules) else None
            layers.append((m, after if isinstance(after, nn.BatchNorm2d) else None))
    if len(layers) != len(nodes):
        raise ValueError(f"{path}: {len(nodes)} layers, the network has {len(layers)}")
    with torch.no_grad():
        for (layer, norm), node in zip(layers, nodes, strict=True):
            w = torch.from_numpy(weights[node.input[1]].copy())
            b = torch.from_numpy(weights[node.input[2]].copy())
            if w.shape != layer.weight.shape:
                raise ValueError(f"{path}: {node.name} is {tuple(w.shape)}, not the network's")
            layer.weight.copy_(w)
            if norm is None:
                layer.bias.copy_(b)
            else:
                norm.weight.fill_(1.0)
                norm.bias.copy_(b)
                norm.running_mean.zero_()
                norm.running_var.fill_(1.0 - norm.eps)
    return net


def blend(tuned: N, start: N, share: float) -> N:
    """``tuned``'s weights moved back toward the network it was fine-tuned from:
    ``share`` of the fine-tuning kept, the rest of ``start`` (Wortsman et al.'s WiSE-FT).

    Fine-tuning on the renders teaches unseen bodies and art but moves the readings of
    the real dice it already read; the networks on the line between the two weights
    often keep most of both. ``start`` must be ``warm_start``'s network of the same
    shape (its norms frozen as identity, as the tuned one's stayed).
    """
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"a blend keeps 0..1 of the fine-tuning, not {share}")
    begun = start.state_dict()
    mixed = {
        name: (1.0 - share) * begun[name] + share * value if value.is_floating_point() else value
        for name, value in tuned.state_dict().items()
    }
    out = copy.deepcopy(tuned)
    out.load_state_dict(mixed)
    return out.eval()


def frozen_norms(net: nn.Module) -> None:
    """Batch norms in evaluation mode (their running statistics kept) while training."""
    for m in net.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()


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
    groups: list[tuple[list[Photo], float]],
    steps: int,
    rng: np.random.Generator,
    log: Log,
    late: list[tuple[list[Photo], float]] | None = None,
    late_share: float = 0.0,
    start: Path | None = None,
    lr: float = 3e-3,
    keep: Path | None = None,
) -> DieFinder:
    """Fit the die finder on warped crops drawn from photo groups at given weights; the
    last ``late_share`` of the steps, where the learning rate anneals, from ``late``;
    from scratch, or fine-tuned from the exported finder ``start``.

    With ``keep`` (an exported finder), every crop that is not of a 3D render or a
    crowded tray (:func:`learnt_anew`) is fitted to what that finder makes of it rather
    than to its labels: the new finder learns those dice and keeps the old one's spots,
    sides and misses on every real photo,
    so the face network trained on the old finder's crops still reads them
    (render3d.md, run 10)."""
    net = DieFinder() if start is None else warm_start(DieFinder(), start)
    teacher = warm_start(DieFinder(), keep).eval() if keep is not None else None
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.1)
    weights = np.array([w for _, w in groups], np.float64)
    weights /= weights.sum()
    switch = steps - round(late_share * steps) if late else steps
    batch = 16
    t0 = time.time()
    run = 0.0
    for step in range(steps):
        if step == switch and late:
            groups = late
            weights = np.array([w for _, w in groups], np.float64)
            weights /= weights.sum()
            log(f"finder step {step}: the last {steps - step} steps on {len(groups)} groups")
        imgs, heats, sides, masks, kept = [], [], [], [], []
        for _ in range(batch):
            photos = groups[int(rng.choice(len(groups), p=weights))][0]
            photo = photos[int(rng.integers(len(photos)))]
            sample = finder_sample(photo, rng, out=192)
            kept.append(teacher is not None and not learnt_anew(photo))
            imgs.append(sample[0])
            heats.append(sample[1])
            sides.append(sample[2])
            masks.append(sample[3])
        x = to_tensor(imgs)
        heat = torch.from_numpy(np.stack(heats))
        side = torch.from_numpy(np.stack(sides))
        mask = torch.from_numpy(np.stack(masks))
        net.train()
        if start is not None:
            frozen_norms(net)
        out = net(x)
        if teacher is not None and any(kept):
            loss = kept_loss(out, teacher, x, torch.tensor(kept), heat, side, mask)
        else:
            loss = labels_loss(out, heat, side, mask)
        run = _stepped(opt, sched, loss, run, step, steps, "finder", t0, log)
    return net.eval()


def learnt_anew(photo: Photo) -> bool:
    """Whether a fine-tuned finder learns this photo's labels even where it keeps another
    finder's maps: the 3D renders and crowded trays, what the kept finder reads worst."""
    return photo.source in ("render3d", CROWD)


def labels_loss(
    out: torch.Tensor, heat: torch.Tensor, side: torch.Tensor, mask: torch.Tensor
) -> torch.Tensor:
    """The finder's loss on labelled crops: focal on the centre heatmap, L1 on the log
    side where a die's centre is."""
    loss_s = (torch.abs(out[:, 1] - side) * mask).sum() / mask.sum().clamp(min=1)
    return focal_loss(out[:, 0], heat) + loss_s


def kept_loss(
    out: torch.Tensor,
    teacher: nn.Module,
    x: torch.Tensor,
    kept: torch.Tensor,
    heat: torch.Tensor,
    side: torch.Tensor,
    mask: torch.Tensor,
) -> torch.Tensor:
    """The finder's loss on a batch whose ``kept`` crops are fitted to ``teacher``'s maps
    (its heat as a soft target, its side where it sees a die) and the rest to labels."""
    loss = out.new_zeros(())
    new = ~kept
    if new.any():
        loss = new.float().mean() * labels_loss(out[new], heat[new], side[new], mask[new])
    with torch.no_grad():
        t = teacher(x[kept])
    p = torch.sigmoid(t[:, 0])
    # binary cross-entropy less the target's own entropy: 0 where the maps agree
    bce = nn.functional.binary_cross_entropy_with_logits(out[kept, 0], p, reduction="none")
    q = p.clamp(1e-6, 1 - 1e-6)
    entropy = -(q * torch.log(q) + (1 - q) * torch.log(1 - q))
    peaks = (p > 0.5).float().sum().clamp(min=1)
    loss_h = (bce - entropy).sum() / peaks
    w = p * (p > 0.1)
    loss_s = (torch.abs(out[kept, 1] - t[:, 1]) * w).sum() / w.sum().clamp(min=1)
    return loss + kept.float().mean() * (loss_h + loss_s)


def reader_view(
    finder_onnx: Path, photos: list[Photo], per_photo: int = 4
) -> tuple[list[np.ndarray], list[Patch]]:
    """What the reader's finder makes of each photo, found exactly as the reader finds.

    Returns, per photo, where it saw each labelled die ((n, 3): dx, dy and side ratio
    relative to the label; NaN where it missed the die), so face crops are trained as the
    reader cuts them, and the spots it took for dice that are none: "not a die" patches.
    """
    net = load_net(finder_onnx)
    views, negatives = [], []
    for photo in photos:
        h, w = photo.image.shape[:2]
        centres, sides, _ = find_dice(net, photo.image, FINDER_INPUT / max(h, w))
        seen = np.full((len(photo.centres), 3), np.nan, np.float32)
        used = np.zeros(len(centres), bool)
        for i, (c, s) in enumerate(zip(photo.centres, photo.sides, strict=True)):
            if not len(centres):
                break
            d = np.hypot(*(centres - c).T)
            j = int(d.argmin())
            if d[j] < 0.5 * s:
                seen[i] = ((centres[j, 0] - c[0]) / s, (centres[j, 1] - c[1]) / s, sides[j] / s)
                used[j] = True
        views.append(seen)
        typical = float(np.median(photo.sides)) if len(photo.sides) else 32.0
        taken = 0
        for j in np.nonzero(~used)[0]:  # strongest first
            if taken >= per_photo:
                break
            d = np.hypot(*(photo.centres - centres[j]).T) / photo.sides
            if len(d) and d.min() < 0.6:
                continue  # a second peak on a labelled die: neither a die nor clearly not
            side = float(sides[j]) if 0.3 * typical < sides[j] < 3 * typical else typical
            negatives.append(Patch(cut_patch(photo.image, centres[j], side), BACKGROUND, "hard"))
            taken += 1
    return views, negatives


def reader_extras(models: Path, photos: list[Photo], per_photo: int = 4) -> list[Patch]:
    """The dice a whole reader (the networks in ``models``) reads in photos where no die
    lies, as "not a die" patches: playing cards, tokens, meeples and coins the finder
    marks and the face network takes for dice; on real photos, side faces of slanted dice
    and bits of the tray. Only for photos labelled whole (the 3D renders: every die left
    in the scene is labelled; the shared train splits label every top face), else a die
    nobody labelled would be taught as no die."""
    reader = Reader(models)
    negatives = []
    for photo in photos:
        taken = 0
        for die in reader.read(photo.image).dice:
            if taken >= per_photo:
                break
            x, y, w, h = die.box
            centre = np.array([x + w / 2, y + h / 2], np.float32)
            d = np.hypot(*(photo.centres - centre).T) / photo.sides
            if len(d) and d.min() < 0.6:
                continue  # on a labelled die
            side = float(max(w, h))  # a reading's box is the die's side
            negatives.append(Patch(cut_patch(photo.image, centre, side), BACKGROUND, EXTRA))
            taken += 1
    return negatives


#: the source of ``reader_extras``' patches: a kept network read them as dice, so its
#: readings of them are not kept (``distilled``)
EXTRA = "extra"
#: The source of the 2D renders' throws whose ranks are set in TrueType fonts (``--typeset``).
TYPESET_SOURCE = "rendered:random-typeset"
#: The source of the 2D renders' throws of poker dice printed as playing cards.
PLAYING_CARDS_SOURCE = "rendered:random-playing-cards"


def distilled(patch: Patch) -> bool:
    """Whether a kept network's reading of ``patch`` is kept while fine-tuning: not for a
    3D render's crops, ranks set in TrueType fonts (Cyrillic ones among them) nor dice
    printed as playing cards (what it is to learn), nor for an extra die a reader found,
    which the kept network reads as a die and the label says is none."""
    return patch.source not in ("render3d", TYPESET_SOURCE, PLAYING_CARDS_SOURCE, EXTRA)


def has_bf16() -> bool:
    """Whether this CPU does bfloat16 in hardware (AVX-512 BF16 or AMX), which makes the
    small convolutions of training about twice as fast (float32 elsewhere)."""
    supported = getattr(torch.ops.mkldnn, "_is_mkldnn_bf16_supported", None)
    return bool(torch.backends.mkldnn.is_available() and supported is not None and supported())


def train_faces(
    patches: list[Patch],
    steps: int,
    rng: np.random.Generator,
    log: Log,
    start: Path | None = None,
    lr: float = 3e-3,
    last: int = 128,
    keep: Path | None = None,
    teachers: Sequence[Path] = (),
    randconv: float = 0.0,
    device: str = "cpu",
    workers: int = 0,
    mixstyle: float = 0.0,
    convs: str = "full",
) -> FaceNet:
    """Fit the face classifier with class-balanced batches of augmented crops, from
    scratch or fine-tuned from the exported face network ``start``; with ``keep`` (an
    exported face network), crops that are not of 3D renders are also fitted to what it
    reads in them (``kept_faces_loss``); with ``teachers`` (exported face networks the
    reader ran side by side), every crop but a reader's extra dice is also fitted to
    their mean reading: one network where there were several; ``randconv``: the share of
    each batch's crops seen through a random convolution (``random_convolution``);
    ``mixstyle``: the share of batches whose crops swap styles inside the network
    (``styles_mixed``); ``device`` and ``workers``: as ``train_classifier``; ``convs``:
    the new network's convolutions (``nets.CONVS``; teachers are read as exported)."""
    net = FaceNet(last, convs) if start is None else warm_start(FaceNet(last, convs), start)
    teacher: nn.Module | None = None
    heeded: Callable[[Patch], bool] = distilled
    if keep is not None:
        teacher = warm_start(FaceNet(last, convs), keep).eval()
    elif teachers:
        teacher = MeanReading([warm_start(FaceNet(last), t).eval() for t in teachers])
        heeded = not_extra
    return train_classifier(
        net,
        patches,
        face_sample,
        FACE_CLASSES,
        steps,
        rng,
        log,
        "faces",
        lr,
        start is not None,
        teacher,
        heeded,
        randconv,
        device,
        workers,
        mixstyle,
    )


#: where MixStyle mixes the face network's styles: after its first and second poolings,
#: whose channel statistics hold most of a crop's colour and texture (Zhou et al.)
MIXED_STAGES = (1, 4)
#: the Beta(a, a) the mixing weights are drawn from: mostly near 0 or 1, a partner's
#: style borrowed a little or nearly whole
MIX_ALPHA = 0.1


def mixed_styles(x: torch.Tensor, share: float, styles: np.random.Generator) -> torch.Tensor:
    """MixStyle (Zhou et al., "Domain Generalization with MixStyle", ICLR 2021): in
    ``share`` of the batches, each crop's channel means and spreads in a feature map are
    mixed with those of a shuffled partner's, so that the network meets bodies, inks and
    light no crop had, while what the crop shows stays. The map's size and type stay."""
    if len(x) < 2 or styles.random() >= share:
        return x
    flat = x.float()
    mean = flat.mean((2, 3), keepdim=True).detach()
    spread = (flat.var((2, 3), keepdim=True) + 1e-6).sqrt().detach()
    weight = torch.from_numpy(styles.beta(MIX_ALPHA, MIX_ALPHA, (len(x), 1, 1, 1)))
    weight = weight.float().to(x.device)
    partner = torch.from_numpy(styles.permutation(len(x))).to(x.device)
    mixed_mean = weight * mean + (1 - weight) * mean[partner]
    mixed_spread = weight * spread + (1 - weight) * spread[partner]
    return ((flat - mean) / spread * mixed_spread + mixed_mean).to(x.dtype)


@contextlib.contextmanager
def styles_mixed(
    net: nn.Module, share: float, styles: np.random.Generator | None
) -> Iterator[None]:
    """``mixed_styles`` after the face network's ``MIXED_STAGES`` while the network
    trains (hooks, gone on leaving: the exported network is the plain one)."""
    if not share or styles is None:
        yield
        return

    def mix(module: nn.Module, inputs: object, output: torch.Tensor) -> torch.Tensor:
        return mixed_styles(output, share, styles) if module.training else output

    hooks = [net.features[i].register_forward_hook(mix) for i in MIXED_STAGES]
    try:
        yield
    finally:
        for hook in hooks:
            hook.remove()


def random_convolution(x: torch.Tensor, share: float, generator: torch.Generator) -> torch.Tensor:
    """Crops seen through a random convolution (Xu et al., "Robust and Generalizable Visual
    Representation Learning via Random Convolutions", ICLR 2021): each crop in ``share``
    of the batch is filtered by a fresh random 3->3 kernel of 1, 3, 5 or 7 px, rescaled to
    the crop's own mean and spread, and mixed back with a random weight. Shapes stay;
    colours and textures of bodies, inks and trays change in ways no jitter draws."""
    chosen = torch.nonzero(torch.rand(len(x), generator=generator) < share).flatten()
    if not len(chosen):
        return x
    x = x.clone()
    for i in chosen.tolist():
        k = int((1, 3, 5, 7)[int(torch.randint(4, (1,), generator=generator))])
        weight = torch.randn(3, 3, k, k, generator=generator).to(x.device) / (3 * k * k) ** 0.5
        crop = x[i : i + 1]
        seen = nn.functional.conv2d(crop, weight, padding=k // 2)
        seen = (seen - seen.mean()) / (seen.std() + 1e-6) * crop.std() + crop.mean()
        alpha = float(torch.rand(1, generator=generator))
        x[i : i + 1] = (alpha * crop + (1 - alpha) * seen).clamp(0, 1)
    return x


def not_extra(patch: Patch) -> bool:
    """Whether teachers' readings of ``patch`` are fitted: all but a reader's extra dice
    (which they read as dice and the label says are none)."""
    return patch.source != EXTRA


class MeanReading(nn.Module):
    """Several face networks read as one: logits whose softened distribution (at
    ``KEEP_TEMPERATURE``) is the mean of theirs, as the reader averages them."""

    def __init__(self, nets: Sequence[nn.Module]) -> None:
        super().__init__()
        self.nets = nn.ModuleList(nets)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        t = KEEP_TEMPERATURE
        mean = torch.stack([torch.softmax(n(x).float() / t, 1) for n in self.nets]).mean(0)
        return t * torch.log(mean.clamp_min(1e-12))


def train_courts(
    patches: list[Patch],
    steps: int,
    rng: np.random.Generator,
    log: Log,
    device: str = "cpu",
    workers: int = 0,
) -> CourtNet:
    """Fit the court network (jack, queen, king) on the courts' close crops; ``device``
    and ``workers``: as ``train_classifier``."""
    net = CourtNet()
    return train_classifier(
        net,
        patches,
        court_sample,
        COURT_CLASSES,
        steps,
        rng,
        log,
        "courts",
        device=device,
        workers=workers,
    )


def train_classifier(
    net: N,
    patches: list[Patch],
    sample: Callable[[Patch, np.random.Generator], np.ndarray],
    classes: int,
    steps: int,
    rng: np.random.Generator,
    log: Log,
    name: str,
    lr: float = 3e-3,
    warm: bool = False,
    teacher: nn.Module | None = None,
    heeded: Callable[[Patch], bool] = distilled,
    randconv: float = 0.0,
    device: str = "cpu",
    workers: int = 0,
    mixstyle: float = 0.0,
) -> N:
    """Class-balanced batches of 128 augmented crops, AdamW with a one-cycle schedule,
    under bfloat16 autocast where the CPU does it in hardware; ``warm``: a started
    network, its batch norms frozen (``warm_start``); ``teacher``: a network whose
    readings of the crops ``heeded`` says are kept (``kept_faces_loss``); ``randconv``: the
    share of crops seen through a random convolution (``random_convolution``);
    ``mixstyle``: the share of batches whose styles mix inside the network (``styles_mixed``).

    ``device`` "cuda" fits on a GPU (bfloat16 autocast there); ``workers`` > 0 cuts the
    crops in that many forked processes (threads where fork is missing), each batch from
    a seed the run's generator draws: as repeatable, but other crops than the one-thread
    path's, which ``make train`` uses."""
    pool: Executor | None = None
    if workers:
        cv2.setNumThreads(1)  # the workers share the cores
        _CUTTING[:] = [patches, sample]
        if "fork" in mp.get_all_start_methods():
            # forked children share the patches as they are (the interpreter lock binds
            # threads to about one core's worth of numpy-sized crops); forked before the
            # GPU is touched, which a child must not inherit
            pool = ProcessPoolExecutor(workers, mp_context=mp.get_context("fork"))
            pool.submit(int).result()  # a forking pool starts every worker at once
        else:
            pool = ThreadPoolExecutor(workers)
    net = net.to(device, memory_format=torch.channels_last)
    if teacher is not None:
        teacher = teacher.to(device)
    bf16 = device != "cpu" or has_bf16()
    log(f"{name}: on {device}, bfloat16 autocast {'on' if bf16 else 'off'}")
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.1)
    labels = np.array([p.label for p in patches])
    by_class = [np.nonzero(labels == k)[0] for k in range(classes)]
    present = [k for k in range(classes) if len(by_class[k])]
    batch = 128
    t0 = time.time()
    run = 0.0
    lossf = nn.CrossEntropyLoss(label_smoothing=0.05)
    # drawn only when used: a run without it repeats the runs before it to the bit
    filters = torch.Generator().manual_seed(int(rng.integers(2**31))) if randconv else None
    styles = np.random.default_rng(int(rng.integers(2**31))) if mixstyle else None

    def batches():
        for _ in range(steps):
            ks = rng.choice(present, size=batch)
            idx = [by_class[k][rng.integers(len(by_class[k]))] for k in ks]
            if workers:
                yield idx, int(rng.integers(2**63))
            else:
                yield idx, [sample(patches[i], rng) for i in idx]

    drawn: Iterable[tuple[list[int], list[np.ndarray]]] = batches()
    if pool is not None:
        drawn = _ahead(pool, _cut, batches(), 4 * workers)
    try:
        with styles_mixed(net, mixstyle, styles):
            for step, (idx, crops) in enumerate(drawn):
                x = to_tensor(crops).to(device)
                if filters is not None:
                    x = random_convolution(x, randconv, filters)
                x = x.contiguous(memory_format=torch.channels_last)
                y = torch.from_numpy(labels[idx]).to(device)
                net.train()
                if warm:
                    frozen_norms(net)
                with torch.autocast(torch.device(device).type, dtype=torch.bfloat16, enabled=bf16):
                    out = net(x).float()
                    loss = lossf(out, y)
                    if teacher is not None:
                        kept = torch.tensor([heeded(patches[i]) for i in idx], device=device)
                        if kept.any():
                            with torch.no_grad():
                                said = teacher(x[kept]).float()
                            loss = loss + kept.float().mean() * kept_faces_loss(out[kept], said)
                run = _stepped(opt, sched, loss, run, step, steps, name, t0, log)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
            _CUTTING.clear()
    return net.to("cpu", memory_format=torch.contiguous_format).eval()


def _stepped(
    opt: torch.optim.Optimizer,
    sched: torch.optim.lr_scheduler.LRScheduler,
    loss: torch.Tensor,
    run: float,
    step: int,
    steps: int,
    name: str,
    t0: float,
    log: Log,
) -> float:
    """One optimiser step on ``loss``; the running loss, logged every 100 steps."""
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    run = 0.98 * run + 0.02 * loss.item() if step else loss.item()
    if step % 100 == 0 or step == steps - 1:
        log(f"{name} step {step}/{steps} loss {run:.3f} ({time.time() - t0:.0f}s)")
    return run


#: (patches, sample) of the fit under way, for the workers that cut its crops
_CUTTING: list = []


def _cut(task: tuple[list[int], int]) -> tuple[list[int], list[np.ndarray]]:
    """One batch's crops, from the batch's own seed: the same in a thread or a process."""
    idx, seed = task
    patches, sample = _CUTTING
    own = np.random.default_rng(seed)
    return idx, [sample(patches[i], own) for i in idx]


def _ahead(pool: Executor, fn: Callable, tasks: Iterable, depth: int) -> Iterator:
    """``fn`` of each task, in order, with at most ``depth`` of them cut ahead."""
    pending: deque = deque()
    for task in tasks:
        pending.append(pool.submit(fn, task))
        if len(pending) >= depth:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


#: the softening of the kept network's readings (Hinton et al.'s distillation temperature)
KEEP_TEMPERATURE = 2.0


def kept_faces_loss(logits: torch.Tensor, said: torch.Tensor) -> torch.Tensor:
    """How far ``logits`` read crops from what a kept network ``said`` (its logits):
    the divergence of the softened distributions, x T^2 so it weighs like the labels'."""
    t = KEEP_TEMPERATURE
    target = torch.softmax(said / t, 1)
    return nn.functional.kl_div(torch.log_softmax(logits / t, 1), target, reduction="batchmean") * (
        t * t
    )


def plain_crops(
    patches: list[Patch],
    rotations: int = 4,
    span: float = CROP_SPAN,
    size: int = FACE_INPUT,
) -> tuple[np.ndarray, np.ndarray]:
    """Unaugmented crops as the reader cuts them (where its finder saw the die, else
    around the label's centre at its side), x4 rotations: 48x48 face crops of 1.5 x the
    side by default."""
    crops = []
    for p in patches:
        span_die = p.image.shape[0] / PATCH_SPAN
        dx, dy, ratio = p.seen if p.seen is not None else (0.0, 0.0, 1.0)
        n = p.image.shape[0]
        centre = (n / 2 + dx * span_die, n / 2 + dy * span_die)
        crop = upright(p, centre, ratio * span_die, 0.0, span, size)
        crops.extend(np.ascontiguousarray(np.rot90(crop, r)) for r in range(rotations))
    return np.stack(crops), np.array([p.label for p in patches])


def calibrate_and_export(
    net: nn.Module,
    hold: list[Patch],
    path: Path,
    span: float,
    size: int,
    log: Log,
    features: bool = False,
) -> dict[str, float]:
    """Fit the temperature on held-out crops cut as the reader cuts them, measure them
    (four quarter turns voting), write the calibrated network as ONNX and check it;
    ``features``: with its pooled features as a second output (``expose_features``)."""
    x, y = plain_crops(hold, rotations=4, span=span, size=size)
    logits = logits_of(net, x)
    temperature = fit_temperature(logits, np.repeat(y, 4))
    probs = np.exp(logits / temperature)
    probs = (probs / probs.sum(1, keepdims=True)).reshape(len(y), 4, -1).mean(1)
    acc = float((probs.argmax(1) == y).mean())
    log(f"held-out crops: {len(y)}, accuracy (4-rotation vote) {acc:.4f}, T={temperature:.2f}")
    diff = export(Calibrated(net, temperature), path, (4, 3, size, size), ("crop", "probs"))
    if features:
        expose_features(path)
        expose_grid(path)
        expose_map(path)
    log(f"wrote {path} (cv2.dnn vs torch max diff {diff:.2e})")
    return {
        "temperature": temperature,
        "held_out_crop_accuracy": acc,
        "held_out_crops": len(y),
        "onnx_max_diff": diff,
    }


def logits_of(net: nn.Module, crops: np.ndarray) -> np.ndarray:
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
    """A classifier with its temperature and softmax baked in, for export."""

    def __init__(self, net: nn.Module, temperature: float) -> None:
        super().__init__()
        self.net = net
        self.t = temperature

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.net(x) / self.t, dim=1)


def free_board(path: Path) -> None:
    """Mark the finder's board size free in its ONNX file (the graph is unchanged): the
    reader's survey runs it at 160 px, which onnxruntime refuses of a file that says 320
    (cv2.dnn re-plans either way)."""
    import onnx

    model = onnx.load(str(path))
    for value, names in ((model.graph.input[0], ("h", "w")), (model.graph.output[0], ("gh", "gw"))):
        dims = value.type.tensor_type.shape.dim
        for dim, name in zip(dims[2:], names, strict=True):
            dim.dim_param = name
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def expose_features(path: Path) -> None:
    """Name the face network's pooled features (the input of its last layer) a second
    output of its ONNX file, ``features``: dice profiles compare them. Every engine
    returns a file's outputs, where only OpenCV's classic engine (gone in OpenCV 5.1)
    returned an inner layer by its name. The graph computes the same."""
    import onnx

    model = _without_output(path, FEATURES)
    if model is None:
        return
    gemm = _one_node(model, "Gemm", path, "linear layers")
    old = gemm.input[0]
    for node in model.graph.node:
        node.input[:] = [FEATURES if i == old else i for i in node.input]
        node.output[:] = [FEATURES if o == old else o for o in node.output]
    weight = next(i for i in model.graph.initializer if i.name == gemm.input[1])
    shape = ["n", weight.dims[1]]  # Gemm's weight is (classes, features), as torch's Linear
    model.graph.output.append(
        onnx.helper.make_tensor_value_info(FEATURES, onnx.TensorProto.FLOAT, shape)
    )
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def expose_grid(path: Path) -> None:
    """Add a third output, ``grid``: the face network's last feature map averaged over
    each quarter of the crop (n, 4 x channels). Dice profiles compare it: where the pooled
    ``features`` hold what a face looks like, the grid also keeps where its pips lie, and
    on bodies the network never saw (a marbled set) every face pools to nearly the same
    features (docs/teaching.md). The graph's other outputs compute the same."""
    import onnx

    model = _without_output(path, GRID)
    if model is None:
        return
    pooled = _one_node(model, "GlobalAveragePool", path, "global poolings")
    inferred = onnx.shape_inference.infer_shapes(model)
    where = pooled.input[0]
    shape = next(
        (v.type.tensor_type.shape for v in inferred.graph.value_info if v.name == where), None
    )
    dims = [d.dim_value for d in shape.dim] if shape is not None else []
    if len(dims) != 4 or not all(dims[1:]) or dims[2] % 2 or dims[3] % 2:
        raise ValueError(f"{path}: the last feature map's shape {dims} does not halve")
    channels, height, width = dims[1:]
    quarters = f"{GRID}_map"
    model.graph.node.extend(
        [
            onnx.helper.make_node(
                "AveragePool",
                [where],
                [quarters],
                kernel_shape=[height // 2, width // 2],
                strides=[height // 2, width // 2],
            ),
            onnx.helper.make_node("Flatten", [quarters], [GRID], axis=1),
        ]
    )
    model.graph.output.append(
        onnx.helper.make_tensor_value_info(GRID, onnx.TensorProto.FLOAT, ["n", 4 * channels])
    )
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def expose_map(path: Path) -> None:
    """Add a fourth output, ``map``: the face network's last feature map itself. Swept
    over a whole tray (``scorer.vision.sweep``; OpenCV runs the file on a picture of any
    size), the network then says what a crop cut at every window would hold: a taught
    set's own look marks its dice with it. The input keeps its 48x48 shape: OpenCV 4.11's
    importer reads a free one as a zero-wide last layer. The other outputs compute the
    same."""
    import onnx

    model = _without_output(path, MAP)
    if model is None:
        return
    pooled = _one_node(model, "GlobalAveragePool", path, "global poolings")
    model.graph.node.append(onnx.helper.make_node("Identity", [pooled.input[0]], [MAP]))
    model.graph.output.append(
        onnx.helper.make_tensor_value_info(
            MAP, onnx.TensorProto.FLOAT, ["n", "channels", "rows", "columns"]
        )
    )
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def _without_output(path: Path, name: str):  # -> onnx.ModelProto | None
    """The ONNX file at ``path``, or None where it already has an output ``name``."""
    import onnx

    model = onnx.load(str(path))
    return None if any(o.name == name for o in model.graph.output) else model


def _one_node(model, op_type: str, path: Path, what: str):  # -> onnx.NodeProto
    """The graph's only node of ``op_type``: the face network has one of each."""
    found = [n for n in model.graph.node if n.op_type == op_type]
    if len(found) != 1:
        raise ValueError(f"{path}: {len(found)} {what}, not the face network's one")
    return found[0]


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
