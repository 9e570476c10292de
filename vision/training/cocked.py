"""Train the cocked-die look (issue 26): a tiny network that says whether a die the reader found is cocked (leaning
on another die or the tray's wall, so no face is up), exported to ``vision/models/dice_cocked.onnx``.

It sees a crop twice the die's face around the reader's centre (``vision.reader.cocked_crop``), so the side face
and the outline a cocked die shows are in it. It learns from synthetic scenes (``vision/training/synth.py``:
dice cocked 30-55 degrees among flat ones, top-down and oblique cameras, every table), the positives and
negatives at the reader's own readings, and from the real dice of the photos training may fit on
(``vision.dataset.is_fitting``: neither held out nor held back), all of which lie flat. The shipped finder and
reader are not changed.

    python -m venv /tmp/trainenv
    /tmp/trainenv/bin/pip install torch==2.13.0 onnx opencv-python-headless pillow
    OMP_NUM_THREADS=1 nice -n 19 /tmp/trainenv/bin/python vision/training/cocked.py --out /tmp/cocked
    cp /tmp/cocked/dice_cocked.onnx vision/models/     # when bench_vision.py says it is no worse
"""

from __future__ import annotations

import argparse
import math
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

import vision.reader as reader  # noqa: E402
from vision.dataset import SETS, is_fitting, load_set  # noqa: E402
from vision.training.synth import Style, render_scene  # noqa: E402

STYLE = Style(width=(720, 1400), aspect=(0.75, 1.0), face=(28.0, 90.0), dice=(3, 10), tilt=(0.0, 30.0), cocked=0.3,
              cocked_angle=(30.0, 55.0), symbol_share=0.08, lean=0.08, cluster=0.4, glare=0.15, motion_blur=0.05,
              perspective=0.04)


def _matched(readings: list, dice: list) -> list[tuple[object, object]]:
    out = []
    for r in readings:
        cx, cy = r.center
        hit = [d for d in dice if d.box[0] <= cx <= d.box[0] + d.box[2] and d.box[1] <= cy <= d.box[1] + d.box[3]]
        if hit:
            out.append((r, min(hit, key=lambda d: math.hypot(d.cx - cx, d.cy - cy))))
    return out


def synthetic(seeds: range) -> tuple[np.ndarray, np.ndarray]:
    crops, labels = [], []
    for seed in seeds:
        image, dice = render_scene(np.random.default_rng(seed), STYLE)
        for r, d in _matched(reader.read_frame(image, reader.ReaderSettings()).dice, dice):
            crops.append(reader.cocked_crop(image, *r.center, r.box[2]))
            labels.append(float(d.cocked))
    return np.array(crops), np.array(labels, np.float32)


def real() -> np.ndarray:
    crops = []
    for set_name in SETS:
        for photo in load_set(set_name):
            if not is_fitting(photo.image.name):
                continue
            image = cv2.imread(str(photo.image))
            for r in reader.read_frame(image, reader.ReaderSettings()).dice:
                crops.append(reader.cocked_crop(image, *r.center, r.box[2]))
    return np.array(crops)


class Cocked(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.c1 = nn.Conv2d(3, 16, 3, padding=1)
        self.c2 = nn.Conv2d(16, 32, 3, padding=1)
        self.c3 = nn.Conv2d(32, 32, 3, padding=1)
        self.c4 = nn.Conv2d(32, 48, 3, padding=1)
        self.fc = nn.Linear(48, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.max_pool2d(F.relu(self.c1(x)), 2)
        x = F.max_pool2d(F.relu(self.c2(x)), 2)
        x = F.max_pool2d(F.relu(self.c3(x)), 2)
        x = F.relu(self.c4(x)).mean(dim=(2, 3))
        return torch.sigmoid(self.fc(x))


def to_tensor(crops: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(crops.astype(np.float32) / 255.0).permute(0, 3, 1, 2).contiguous()


def augment(batch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    out = []
    for crop in batch:
        c = np.rot90(crop, int(rng.integers(4)))
        if rng.random() < 0.5:
            c = c[:, ::-1]
        c = c.astype(np.float32) * rng.uniform(0.75, 1.25) + rng.uniform(-25, 25, 3)
        if rng.random() < 0.3:
            c = c[:, :, rng.permutation(3)]
        out.append(np.clip(c, 0, 255))
    return np.array(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True)
    parser.add_argument("--scenes", type=int, default=500)
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--cache", default=None, help="an .npz of the crops made before (made when missing)")
    args = parser.parse_args()
    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    cache = Path(args.cache or out / "crops.npz")
    t0 = time.time()
    if cache.is_file():
        data = np.load(cache)
        xs, ys, xr, vs, vy = data["xs"], data["ys"], data["xr"], data["vs"], data["vy"]
    else:
        xs, ys = synthetic(range(10_000, 10_000 + args.scenes))
        vs, vy = synthetic(range(20_000, 20_000 + args.scenes // 5))  # a synthetic check on other seeds
        xr = real()
        np.savez_compressed(cache, xs=xs, ys=ys, xr=xr, vs=vs, vy=vy)
    print(f"crops: synthetic {len(xs)} ({int(ys.sum())} cocked), real flat {len(xr)}, check {len(vs)} "
          f"({int(vy.sum())} cocked); {time.time() - t0:.0f} s", flush=True)
    rng = np.random.default_rng(0)
    half = len(xr) // 2  # the first half of the real crops trains, the second checks
    x_all = np.concatenate([xs, xr[:half]])
    y_all = np.concatenate([ys, np.zeros(half, np.float32)])
    w_all = np.concatenate([np.where(ys > 0, 2.0, 1.0), np.full(half, 2.0)]).astype(np.float32)
    model = Cocked()
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    for step in range(1, args.steps + 1):
        idx = rng.integers(0, len(x_all), 64)
        x = to_tensor(augment(x_all[idx], rng))
        p = model(x)[:, 0]
        loss = F.binary_cross_entropy(p, torch.from_numpy(y_all[idx]), weight=torch.from_numpy(w_all[idx]))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 500 == 0:
            print(f"step {step} loss {loss.item():.3f} ({time.time() - t0:.0f} s)", flush=True)
    model.eval()
    with torch.no_grad():
        pv = model(to_tensor(vs))[:, 0].numpy()
        pr = model(to_tensor(xr[half:]))[:, 0].numpy()
    for t in (0.5, 0.7, 0.8, 0.9, 0.95):
        print(f"threshold {t}: check cocked {int(((pv > t) & (vy > 0)).sum())}/{int(vy.sum())}, check flat "
              f"{int(((pv > t) & (vy == 0)).sum())}/{int((vy == 0).sum())}, real flat {int((pr > t).sum())}/{len(pr)}")
    torch.onnx.export(model, torch.zeros(1, 3, reader.COCKED_CROP, reader.COCKED_CROP), str(out / "dice_cocked.onnx"),
                      input_names=["crop"], output_names=["cocked"], dynamic_axes={"crop": {0: "n"}, "cocked": {0: "n"}},
                      opset_version=13, dynamo=False)
    print(f"wrote {out / 'dice_cocked.onnx'}")


if __name__ == "__main__":
    main()
