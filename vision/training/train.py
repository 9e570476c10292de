"""Train the two small networks of the dice reader and export them to ONNX.

PyTorch is used here only; it is not a dependency of the companion, which runs the
exported ONNX files with OpenCV's dnn module.

1. The finder (``vision/models/dice_find.onnx``): a tiny fully convolutional network on the
   frame scaled to 320x320 that puts a peak on the centre of every die's top face
   (heat map at a quarter of the input, plus the face size and a sub-cell offset).
2. The reader (``vision/models/dice_read.onnx``): a small network that looks at a 40x40
   crop of the full-resolution frame around each peak and says 1..6, "not a die", or
   "a logo instead of pips". It learns from the labelled dice, from the finder's own peaks
   on the training photos (mined through cv2.dnn, so "not a die" sees the tray's holes,
   dust and the gaps between touching dice) and from die faces whose pips are painted out
   and replaced by a drawn logo (letters, stars, rings with a gap, crescents, bars).

Photos whose names hash into the held-out fifth (vision.dataset.is_held_out) or the
held-back part (vision.dataset.is_held_back, issue 26; the shipped networks were trained
before it existed) are never used here. Augmentation (any rotation, scale, colour and brightness shifts, swapped colour
channels, light gradients, blur, noise) stands in for the other tables, lights and dice.

The shipped models were made with these steps (about an hour on two shared cores):

    python -m venv /tmp/trainenv
    /tmp/trainenv/bin/pip install torch==2.13.0 onnx opencv-python-headless==5.0.0.93 pillow  # the project's OpenCV: 5.1 fails in mine()
    T="nice -n 10 /tmp/trainenv/bin/python vision/training/train.py --out /tmp/dice"
    $T --only finder --epochs-det 30                                    # finder from scratch
    $T --only finder --epochs-det 30 --finder-weights /tmp/dice/dice_find.pt    # and on, slower
    $T --only reader --epochs-cls 30                                    # labelled dice + mined peaks
    $T --only finetune --epochs-tune 12 --reader-weights /tmp/dice/dice_read.pt  # + logo class
    $T --only finetune --epochs-tune 25 --seed 7 --reader-weights /tmp/dice/dice_read_tuned.pt
    $T --only finetune --epochs-tune 25 --seed 11 --reader-weights /tmp/dice/dice_read_tuned.pt
    cp /tmp/dice/*.onnx vision/models/

(The shipped reader's first step ran before the logo class existed, with seven classes; the
first finetune added the eighth, with ``logo_share`` 0.12, the later two ran with 0.2. The
second finder step writes over the first's files: copy ``dice_find.pt`` aside first.)
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from vision.dataset import SETS, Photo, load_set  # noqa: E402

# The networks' input contract (finder size and stride, crop size and scale, classes) is the reader's own,
# so a model trained here always fits the code that runs it.
import vision.reader as vr  # noqa: E402
from vision.nets import CLASSES, CROP, FIND_SIZE, model_paths, use_models  # noqa: E402
from vision.reader import CROP_SCALE, LOGO, NOT_A_DIE, STRIDE, crop_face  # noqa: E402

GRID = FIND_SIZE // STRIDE
TRAIN_WINDOW = 192
# matteop65 labels box the pip pattern only; the face itself is about this big there (pixels at 640x480)
MATTEO_FACE = 68.0


def face_boxes(photo: Photo) -> list[tuple[float, float, float, int]]:
    """(cx, cy, face size in pixels, value) for each label."""
    out = []
    for label in photo.labels:
        cx, cy = label.center
        if photo.set_name.startswith("matteop65"):
            size = MATTEO_FACE
        else:
            size = (label.box[2] + label.box[3]) / 2
        out.append((cx, cy, size, label.value))
    return out


def color_jitter(img: np.ndarray, rng: random.Random, crop: bool = False) -> np.ndarray:
    """Colour, light, blur and noise changes; milder blur and light gradients on a die crop."""
    out = img.astype(np.float32)
    if rng.random() < 0.3:  # swap or rotate colour channels: new die colours
        perm = [0, 1, 2]
        rng.shuffle(perm)
        out = out[:, :, perm]
    if rng.random() < 0.5:
        hsv = cv2.cvtColor(np.clip(out, 0, 255).astype(np.uint8), cv2.COLOR_BGR2HSV).astype(np.float32)
        hsv[:, :, 0] = (hsv[:, :, 0] + rng.uniform(-12, 12)) % 180
        hsv[:, :, 1] *= rng.uniform(0.7, 1.3)
        out = cv2.cvtColor(np.clip(hsv, 0, 255).astype(np.uint8), cv2.COLOR_HSV2BGR).astype(np.float32)
    contrast = rng.uniform(0.65, 1.35)
    bright = rng.uniform(-40, 40)
    out = out * contrast + bright + np.array([rng.uniform(-15, 15) for _ in range(3)], np.float32)
    if rng.random() < 0.4:  # uneven light: a gradient across the frame
        h, w = out.shape[:2]
        g = 15 if crop else 45
        gx = np.linspace(-1, 1, w, dtype=np.float32)[None, :, None] * rng.uniform(-g, g)
        gy = np.linspace(-1, 1, h, dtype=np.float32)[:, None, None] * rng.uniform(-g, g)
        out = out + gx + gy
    if rng.random() < (0.15 if crop else 0.3):
        if crop:
            out = cv2.GaussianBlur(out, (3, 3), rng.uniform(0.4, 0.9))
        else:
            k = rng.choice([3, 5])
            out = cv2.GaussianBlur(out, (k, k), 0)
    if rng.random() < 0.3:
        out = out + np.random.normal(0, rng.uniform(2, 5 if crop else 8), out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def to_blob(img: np.ndarray) -> np.ndarray:
    return (img.astype(np.float32) / 255.0).transpose(2, 0, 1)


# ---------------------------------------------------------------- the finder


def conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class Finder(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.s2 = conv(3, 12, 2)  # 160
        self.s4 = nn.Sequential(conv(12, 16, 2), conv(16, 16))  # 80
        self.s8 = nn.Sequential(conv(16, 32, 2), conv(32, 32))  # 40
        self.s16 = nn.Sequential(conv(32, 64, 2), conv(64, 64))  # 20
        self.lat16 = nn.Conv2d(64, 32, 1)
        self.fuse8 = conv(32, 32)
        self.lat8 = nn.Conv2d(32, 16, 1)
        self.fuse4 = conv(16, 16)
        self.head = nn.Conv2d(16, 5, 1)  # heat, size (log), offset x, offset y
        with torch.no_grad():
            self.head.bias.zero_()
            self.head.bias[0] = -2.19  # start with few peaks (CenterNet's prior)
            self.head.bias[1] = 2.0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f4 = self.s4(self.s2(x))
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        p8 = self.fuse8(f8 + F.interpolate(self.lat16(f16), scale_factor=2.0, mode="nearest"))
        p4 = self.fuse4(f4 + F.interpolate(self.lat8(p8), scale_factor=2.0, mode="nearest"))
        out = self.head(p4)
        return torch.cat([torch.sigmoid(out[:, :1]), out[:, 1:]], dim=1)


def paint_face(target: np.ndarray, xs: np.ndarray, ys: np.ndarray, px: float, py: float, size: float) -> None:
    """Mark one top face at (px, py) of the finder's input, `size` pixels across, on the finder's target:
    a Gaussian heat peak (1 at its cell), the log size, the offsets within the cell and the mask."""
    gx, gy = px / STRIDE, py / STRIDE
    ix, iy = int(gx), int(gy)
    sigma = max(0.6, size / STRIDE / 5.0)
    g = np.exp(-((xs - gx + 0.5) ** 2 + (ys - gy + 0.5) ** 2) / (2 * sigma**2))
    target[0] = np.maximum(target[0], g)
    target[0, iy, ix] = 1.0
    target[1, iy, ix] = math.log(max(size, 1.0) / STRIDE)
    target[2, iy, ix] = gx - ix
    target[3, iy, ix] = gy - iy
    target[4, iy, ix] = 1.0


def finder_sample(photo: Photo, img: np.ndarray, rng: random.Random) -> tuple[np.ndarray, np.ndarray]:
    h, w = img.shape[:2]
    base = FIND_SIZE / max(h, w)
    scale = base * math.exp(rng.uniform(math.log(0.6), math.log(1.6)))
    angle = rng.uniform(0, 360)
    cx, cy = w / 2 + rng.uniform(-0.2, 0.2) * w, h / 2 + rng.uniform(-0.2, 0.2) * h
    m = cv2.getRotationMatrix2D((cx, cy), angle, scale)
    m[0, 2] += FIND_SIZE / 2 - cx
    m[1, 2] += FIND_SIZE / 2 - cy
    border = tuple(int(v) for v in img[rng.randrange(h), rng.randrange(w)])
    out = cv2.warpAffine(img, m, (FIND_SIZE, FIND_SIZE), flags=cv2.INTER_AREA if scale < 0.7 else cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=border)
    if rng.random() < 0.5:
        out = out[:, ::-1].copy()
        flip = True
    else:
        flip = False
    out = color_jitter(out, rng)
    target = np.zeros((5, GRID, GRID), np.float32)  # heat, log size, off x, off y, mask
    ys, xs = np.mgrid[0:GRID, 0:GRID].astype(np.float32)
    for fx, fy, size, _ in face_boxes(photo):
        px = m[0, 0] * fx + m[0, 1] * fy + m[0, 2]
        py = m[1, 0] * fx + m[1, 1] * fy + m[1, 2]
        if flip:
            px = FIND_SIZE - 1 - px
        if not (0 <= px < FIND_SIZE and 0 <= py < FIND_SIZE):
            continue
        paint_face(target, xs, ys, px, py, size * scale)
    # train on a random window of the view: the network is fully convolutional, and a window
    # costs a third of the whole view
    wx, wy = rng.randrange(0, FIND_SIZE - TRAIN_WINDOW + 1, STRIDE), rng.randrange(0, FIND_SIZE - TRAIN_WINDOW + 1, STRIDE)
    gx0, gy0, gw = wx // STRIDE, wy // STRIDE, TRAIN_WINDOW // STRIDE
    return (to_blob(out[wy : wy + TRAIN_WINDOW, wx : wx + TRAIN_WINDOW]),
            np.ascontiguousarray(target[:, gy0 : gy0 + gw, gx0 : gx0 + gw]))


def finder_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    heat = pred[:, 0].clamp(1e-4, 1 - 1e-4)
    gt = target[:, 0]
    pos = (gt == 1).float()
    neg = 1 - pos
    pos_loss = -(torch.log(heat) * (1 - heat) ** 2 * pos).sum()
    neg_loss = -(torch.log(1 - heat) * heat**2 * (1 - gt) ** 4 * neg).sum()
    n = pos.sum().clamp(min=1)
    mask = target[:, 4]
    reg = (F.l1_loss(pred[:, 1], target[:, 1], reduction="none") * mask).sum() * 0.5
    reg = reg + ((F.l1_loss(pred[:, 2:4], target[:, 2:4], reduction="none")) * mask[:, None]).sum()
    return (pos_loss + neg_loss + reg) / n


# ---------------------------------------------------------------- the reader


class Reader(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(
            conv(3, 16), conv(16, 24, 2),  # 20
            conv(24, 32), conv(32, 48, 2),  # 10
            conv(48, 64), conv(64, 64, 2),  # 5
            conv(64, 64),
        )
        self.fc = nn.Linear(64, CLASSES)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f = self.body(x).mean(dim=(2, 3))
        return torch.softmax(self.fc(f), dim=1)

    def logits(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(self.body(x).mean(dim=(2, 3)))


def reader_samples(photo: Photo, img: np.ndarray, rng: random.Random, negatives: int) -> list[tuple[np.ndarray, int]]:
    faces = face_boxes(photo)
    out = []
    for cx, cy, size, value in faces:
        jx, jy = rng.uniform(-0.12, 0.12) * size, rng.uniform(-0.12, 0.12) * size
        side = size * CROP_SCALE * math.exp(rng.uniform(math.log(0.85), math.log(1.2)))
        out.append((crop_face(img, cx + jx, cy + jy, side, rng.uniform(0, 360)), value - 1))
    h, w = img.shape[:2]
    sizes = [f[2] for f in faces] or [40.0]
    tries = 0
    made = 0
    while made < negatives and tries < 50:
        tries += 1
        size = rng.choice(sizes) * rng.uniform(0.8, 1.2)
        if faces and rng.random() < 0.5:  # near a die, or between two: half dice in the crop
            fx, fy, fs, _ = rng.choice(faces)
            a = rng.uniform(0, 2 * math.pi)
            d = rng.uniform(0.55, 1.0) * fs
            x, y = fx + d * math.cos(a), fy + d * math.sin(a)
        else:
            x, y = rng.uniform(0, w), rng.uniform(0, h)
        if any(math.hypot(x - fx, y - fy) < 0.5 * fs for fx, fy, fs, _ in faces):
            continue
        out.append((crop_face(img, x, y, size * CROP_SCALE, rng.uniform(0, 360)), NOT_A_DIE))
        made += 1
    return out


# ---------------------------------------------------------------- training


def load_training(root: str | None) -> list[tuple[Photo, np.ndarray]]:
    data = []
    for set_name in SETS:
        for photo in load_set(set_name, root):
            if photo.held_out or photo.held_back:  # never a held-out or held-back photo
                continue
            img = cv2.imread(str(photo.image))
            if img is not None:
                data.append((photo, img))
    return data


def train_finder(data: list[tuple[Photo, np.ndarray]], epochs: int, rng: random.Random,
                 start: str | None = None) -> Finder:
    """Train from scratch, or go on from the weights in ``start`` at a lower rate."""
    model = Finder()
    lr = 3e-3
    if start:
        model.load_state_dict(torch.load(start))
        lr = 1e-3
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    steps = epochs * math.ceil(len(data) / 16)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    for epoch in range(epochs):
        order = list(range(len(data)))
        rng.shuffle(order)
        model.train()
        total, t0 = 0.0, time.time()
        for b in range(0, len(order), 16):
            xs, ts = zip(*(finder_sample(*data[i], rng) for i in order[b : b + 16]))
            x, t = torch.from_numpy(np.stack(xs)), torch.from_numpy(np.stack(ts))
            loss = finder_loss(model(x), t)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(xs)
        print(f"finder epoch {epoch + 1}/{epochs} loss {total / len(data):.4f} ({time.time() - t0:.0f}s)", flush=True)
    return model


def reader_epoch(model: Reader, opt: torch.optim.Optimizer, sched: torch.optim.lr_scheduler.LRScheduler,
                 samples: list[tuple[np.ndarray, int]]) -> tuple[float, int]:
    """One pass of the reader over `samples` in batches of 64: (summed loss, crops classified right)."""
    model.train()
    right, total_loss = 0, 0.0
    for b in range(0, len(samples), 64):
        batch = samples[b : b + 64]
        x = torch.from_numpy(np.stack([to_blob(s[0]) for s in batch]))
        y = torch.tensor([s[1] for s in batch])
        logits = model.logits(x)
        loss = F.cross_entropy(logits, y, label_smoothing=0.05)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        total_loss += float(loss.detach()) * len(batch)
        right += int((logits.argmax(1) == y).sum())
    return total_loss, right


def train_reader(data: list[tuple[Photo, np.ndarray]], epochs: int, rng: random.Random) -> Reader:
    model = Reader()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    per_epoch = sum(len(p.labels) + 3 for p, _ in data)
    steps = epochs * math.ceil(per_epoch / 64) + epochs
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.15)
    for epoch in range(epochs):
        samples: list[tuple[np.ndarray, int]] = []
        for photo, img in data:
            samples += [(color_jitter(c, rng, crop=True), v) for c, v in reader_samples(photo, img, rng, negatives=3)]
        rng.shuffle(samples)
        total_loss, right = reader_epoch(model, opt, sched, samples)
        print(f"reader epoch {epoch + 1}/{epochs} loss {total_loss / len(samples):.4f} "
              f"train acc {right / len(samples):.4f}", flush=True)
    return model


# ---------------------------------------------------------------- logo faces

LOGO_LETTERS = "ABDEFGHJKMNPQRSTUVWXYZ"


def logo_face(patch: np.ndarray, rng: random.Random) -> np.ndarray:
    """A die crop with its pips painted over in the face colour and a printed logo drawn instead.

    The training photos hold too few logo faces to learn from, so the reader learns them from
    these: letters, rings with a gap, stars, crescents, bars and triangles in the pip colour."""
    out = patch.copy()
    c = CROP / 2
    face = CROP / CROP_SCALE
    radius = 0.44 * face
    yy, xx = np.mgrid[0:CROP, 0:CROP]
    inside = (xx - c + 0.5) ** 2 + (yy - c + 0.5) ** 2 <= radius**2
    pixels = out[inside].astype(np.float32)
    body = np.median(pixels, axis=0)
    far = np.linalg.norm(pixels - body, axis=1)
    ink = pixels[far >= np.percentile(far, 92)].mean(axis=0) if len(pixels) else body
    if np.linalg.norm(ink - body) < 60:  # no clear pips: take white or black, whichever stands out
        ink = np.array([235.0, 235.0, 235.0]) if body.mean() < 128 else np.array([25.0, 25.0, 25.0])
    # paint the pips out: pixels of the face far from its colour, filled from their surroundings
    distance = np.linalg.norm(out.astype(np.float32) - body, axis=2)
    pips = ((distance > max(45.0, float(np.percentile(far, 60)))) & inside).astype(np.uint8) * 255
    pips = cv2.dilate(pips, np.ones((3, 3), np.uint8))
    out = cv2.inpaint(out, pips, 3, cv2.INPAINT_TELEA)
    colour = tuple(float(v) for v in ink)
    art = np.zeros((CROP * 4, CROP * 4, 3), np.uint8)  # drawn large, then shrunk: smooth edges
    mask = np.zeros((CROP * 4, CROP * 4), np.uint8)
    big, size = CROP * 2, face * 4 * rng.uniform(0.35, 0.7)
    kind = rng.choice(["letter", "letter", "ring", "star", "crescent", "bars", "triangle"])
    t = max(2, int(size * rng.uniform(0.08, 0.16)))
    if kind == "letter":
        text = "".join(rng.choice(LOGO_LETTERS) for _ in range(rng.choice([1, 1, 2])))
        font = rng.choice([cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX,
                           cv2.FONT_HERSHEY_COMPLEX])
        (tw, th), _ = cv2.getTextSize(text, font, 1.0, t)
        scale = size / max(tw, th)
        (tw, th), _ = cv2.getTextSize(text, font, scale, t)
        cv2.putText(mask, text, (int(big - tw / 2), int(big + th / 2)), font, scale, 255, t)
    elif kind == "ring":
        start = rng.uniform(0, 360)
        cv2.ellipse(mask, (big, big), (int(size / 2), int(size / 2)), 0, start, start + rng.uniform(220, 320), 255, t)
    elif kind == "star":
        n = rng.choice([5, 6, 8])
        pts = []
        for i in range(2 * n):
            r = size / 2 if i % 2 == 0 else size / 5
            a = math.pi * i / n
            pts.append((big + r * math.cos(a), big + r * math.sin(a)))
        cv2.fillPoly(mask, [np.array(pts, np.int32)], 255)
    elif kind == "crescent":
        cv2.circle(mask, (big, big), int(size / 2), 255, -1)
        cv2.circle(mask, (int(big + size / 4), big), int(size / 2.2), 0, -1)
    elif kind == "bars":
        for k in range(rng.choice([2, 3])):
            y = int(big - size / 2 + k * size / 2.5)
            cv2.rectangle(mask, (int(big - size / 2), y), (int(big + size / 2), y + t), 255, -1)
    else:
        pts = [(big + size / 2 * math.cos(a), big + size / 2 * math.sin(a)) for a in (0, 2.09, 4.19)]
        cv2.polylines(mask, [np.array(pts, np.int32)], True, 255, t)
    rot = cv2.getRotationMatrix2D((big, big), rng.uniform(0, 360), 1.0)
    mask = cv2.warpAffine(mask, rot, mask.shape[::-1])
    alpha = cv2.resize(mask, (CROP, CROP), interpolation=cv2.INTER_AREA).astype(np.float32)[:, :, None] / 255.0
    alpha *= inside[:, :, None]
    art = np.full_like(out, 0, dtype=np.float32) + np.array(colour, np.float32)
    return np.clip(out * (1 - alpha) + art * alpha, 0, 255).astype(np.uint8)


# ---------------------------------------------------------------- hard examples from the finder


def mine(data: list[tuple[Photo, np.ndarray]], finder_path: Path, rng: random.Random,
         variants: int = 3) -> list[tuple[int, float, float, float, int]]:
    """Run the exported finder (through cv2.dnn, as the companion does) on the training photos and
    on a few rotated and scaled copies; every peak becomes a reader example with the finder's own
    centre and size: the value of the die it sits on, or "not a die" when it sits on none
    (tray holes, dust, the gap between touching dice). (photo index, cx, cy, size, class)."""
    sys.path.insert(0, str(ROOT))
    use_models(finder_path, model_paths()[1])
    out = []
    for index, (photo, img) in enumerate(data):
        faces = face_boxes(photo)
        h, w = img.shape[:2]
        for v in range(variants):
            if v == 0:
                m = np.array([[1.0, 0, 0], [0, 1.0, 0]])
            else:
                m = cv2.getRotationMatrix2D((w / 2, h / 2), rng.uniform(0, 360), rng.uniform(0.75, 1.3))
            view = cv2.warpAffine(img, m, (w, h), borderMode=cv2.BORDER_REPLICATE) if v else img
            inv = cv2.invertAffineTransform(m)
            scale = math.sqrt(abs(np.linalg.det(m[:, :2])))
            for cx, cy, size, _ in vr.find_candidates(view, 0.2):
                ox = inv[0, 0] * cx + inv[0, 1] * cy + inv[0, 2]
                oy = inv[1, 0] * cx + inv[1, 1] * cy + inv[1, 2]
                osize = size / scale
                if not (0 <= ox < w and 0 <= oy < h):
                    continue
                near = min(faces, key=lambda f: math.hypot(f[0] - ox, f[1] - oy), default=None)
                d = math.hypot(near[0] - ox, near[1] - oy) if near else 1e9
                if near and d < 0.3 * near[2]:
                    out.append((index, ox, oy, osize, near[3] - 1))
                elif not near or d > 0.6 * near[2]:
                    out.append((index, ox, oy, osize, NOT_A_DIE))
    counts = np.bincount([m[4] for m in out], minlength=7)
    print(f"mined {len(out)} finder peaks: per class {counts.tolist()}", flush=True)
    return out


def finetune_reader(model: Reader, data: list[tuple[Photo, np.ndarray]],
                    mined: list[tuple[int, float, float, float, int]], epochs: int, rng: random.Random,
                    lr: float = 1e-3, mined_share: float = 1.0, logo_share: float = 0.0) -> Reader:
    """Train the reader on the finder's own peaks (a share of them each epoch) plus the labelled dice."""
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    per_epoch = sum(len(p.labels) + 1 for p, _ in data) + int(len(mined) * mined_share) + 1
    steps = epochs * (math.ceil(per_epoch / 64) + 1)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.2)
    for epoch in range(epochs):
        samples: list[tuple[np.ndarray, int]] = []
        for photo, img in data:
            for c, v in reader_samples(photo, img, rng, negatives=1):
                if v != NOT_A_DIE and rng.random() < logo_share:
                    c, v = logo_face(c, rng), LOGO
                samples.append((color_jitter(c, rng, crop=True), v))
        for index, cx, cy, size, cls in rng.sample(mined, int(len(mined) * mined_share)):
            img = data[index][1]
            j = 0.06 * size
            side = size * CROP_SCALE * math.exp(rng.uniform(math.log(0.9), math.log(1.1)))
            c = crop_face(img, cx + rng.uniform(-j, j), cy + rng.uniform(-j, j), side, rng.uniform(0, 360))
            samples.append((color_jitter(c, rng, crop=True), cls))
        rng.shuffle(samples)
        total_loss, right = reader_epoch(model, opt, sched, samples)
        print(f"fine-tune epoch {epoch + 1}/{epochs} loss {total_loss / len(samples):.4f} "
              f"train acc {right / len(samples):.4f}", flush=True)
    return model


def export(model: nn.Module, shape: tuple[int, ...], path: Path) -> None:
    model.eval()
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, torch.zeros(shape), str(path), input_names=["image"], output_names=["out"],
                      opset_version=13, dynamo=False)
    print(f"wrote {path} ({path.stat().st_size / 1024:.0f} KiB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", default=None)
    parser.add_argument("--out", default=str(ROOT / "vision" / "models"))
    parser.add_argument("--epochs-det", type=int, default=60)
    parser.add_argument("--epochs-cls", type=int, default=40)
    parser.add_argument("--only", choices=["finder", "reader", "finetune"], default=None)
    parser.add_argument("--epochs-tune", type=int, default=15)
    parser.add_argument("--finder-weights", default=None, help="go on training the finder from these weights")
    parser.add_argument("--reader-weights", default="/tmp/dice_read.pt")
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    rng = random.Random(args.seed)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    data = load_training(args.data)
    print(f"{len(data)} training photos, {sum(len(p.labels) for p, _ in data)} dice", flush=True)
    out = Path(args.out)
    if args.only in (None, "finder"):
        finder = train_finder(data, args.epochs_det, rng, args.finder_weights)
        export(finder, (1, 3, FIND_SIZE, FIND_SIZE), out / "dice_find.onnx")
        torch.save(finder.state_dict(), out / "dice_find.pt")
    if args.only in (None, "reader"):
        # the labelled dice plus the finder's own peaks (so "not a die" learns the tray's holes and dust)
        mined = mine(data, out / "dice_find.onnx", rng)
        reader = finetune_reader(Reader(), data, mined, args.epochs_cls, rng, lr=3e-3, mined_share=0.4,
                                 logo_share=0.12)
        export(reader, (1, 3, CROP, CROP), out / "dice_read.onnx")
        torch.save(reader.state_dict(), out / "dice_read.pt")
    if args.only == "finetune":
        reader = Reader()
        state = torch.load(args.reader_weights)
        if state["fc.weight"].shape[0] < CLASSES:  # a reader without the logo class: add it
            for key in ("fc.weight", "fc.bias"):
                grown = reader.state_dict()[key].clone() * 0.01
                grown[: state[key].shape[0]] = state[key]
                state[key] = grown
        reader.load_state_dict(state)
        mined = mine(data, out / "dice_find.onnx", rng)
        reader = finetune_reader(reader, data, mined, args.epochs_tune, rng, lr=1e-3, mined_share=0.4,
                                 logo_share=0.2)
        export(reader, (1, 3, CROP, CROP), out / "dice_read.onnx")
        torch.save(reader.state_dict(), out / "dice_read_tuned.pt")


if __name__ == "__main__":
    main()
