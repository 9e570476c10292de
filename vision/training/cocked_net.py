"""A small binary "cocked vs flat" network for a calibrated overhead camera (issue 26, fifth round).

    uv run python vision/training/cocked_net.py data --out /tmp/cn/data.npz            # crops (~4 min)
    OMP_NUM_THREADS=1 PYTHONPATH=. nice -n 19 /tmp/trainenv/bin/python vision/training/cocked_net.py train \\
        --data /tmp/cn/data.npz --out /tmp/cn/dice_cocked.onnx                         # ~14 min, one thread
    uv run python vision/training/cocked_net.py choose --data /tmp/cn/data.npz --net /tmp/cn/dice_cocked.onnx
    uv run python vision/training/cocked_net.py measure --net /tmp/cn/dice_cocked.onnx --sure 0.95 --add-sure 0.95
    #   add --choose to measure on the rendered seeds and fitting photos kept aside to choose on instead

Seen from straight above, a flat die's top face is a square; a cocked die shows its most-up face squeezed and a
second face beside it. So a crop ``vision.cocked.NET_SPAN`` calibrated faces across (``vision.cocked.net_crop``),
centred where the reader looks, tells them apart there, where seen obliquely it cannot (a flat die shows its side
faces too). The network sees the crops at the reader's candidates, as it will in the reader: every reading, and every
candidate the reader dropped (a third of the cocked dice at a Pi tray get only that).

``data``: rendered overhead tables (``synth.PI_TRAY``, ``synth.OVERHEAD``; a pinhole camera above, cocked dice
resting against a neighbour as real ones do; a fifth of them with no cocked die), each read as a calibrated table
(the rendered face size, ``flat_ratio`` 0.97): a candidate on a cocked die is positive, one on a flat die or on
nothing negative; and the real flat dice of byler-train's fitting photos (``vision.dataset.is_fitting``; never the
held-out fifth or the held-back part), read as a calibrated overhead table (calibrated on 5 fitting photos as
``cocked_shape.py`` does), every candidate negative. A fifth of the fitting photos (by a hash of the name) and
rendered seeds of their own are kept aside to choose the threshold (``--choose``).

``train``: PyTorch (not a dependency of the companion), exported to ONNX for OpenCV's dnn.

``choose``: the network's chances on the crops kept aside (per crop). ``measure``: through the real reader (``vision.reader.read_frame`` with the network in place of the shipped one's
file): rendered tables on seeds no training or choice used (``--seeds``), and byler-train's tuned-on fifth and
held-back part read as a calibrated overhead table, where every die lies flat.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import random
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

TRAIN_SEEDS = 300_000  # rendered scenes for training start here
CHOOSE_SEEDS = 400_000  # and those the threshold is chosen on
FACES = {"pi": (60.0, 90.0), "overhead": (50.0, 95.0)}


def choose_photo(name: str) -> bool:
    """A fifth of the fitting photos, kept out of training to choose the threshold on."""
    return hashlib.sha256(b"cocked net, choose: " + name.encode()).digest()[0] % 5 == 0


# ---------------------------------------------------------------- where the reader looks


def samples(image: np.ndarray, settings: Any) -> list[tuple[float, float, str]]:
    """(cx, cy, kind) of every place the reader's cocked call looks at in this frame: its readings ("value",
    "unsure") and the candidates it dropped ("dropped"), as vision.reader.read_frame sees them."""
    from vision.reader import TOUCHING, even_sizes, find_dice, read_frame

    readings = read_frame(image, replace(settings, flat_ratio=None)).dice
    out = [(r.center[0], r.center[1], "value" if r.value is not None else "unsure") for r in readings]
    kept, _, _ = find_dice(image, settings)
    for cx, cy, size, _ in even_sizes(kept[: settings.max_dice]):
        if all(math.hypot(cx - r.center[0], cy - r.center[1]) >= TOUCHING[0] * size for r in readings):
            out.append((cx, cy, "dropped"))
    return out


def label(x: float, y: float, dice: list[Any]) -> int:
    """1 on a cocked die (the die seen there, ``synth.die_at``, its top face or a side face), 0 else."""
    from vision.training.synth import die_at

    die = die_at(x, y, dice)
    return int(die is not None and die.cocked)


def rendered_table(seed: int) -> tuple[Any, float, str]:
    from vision.training.synth import OVERHEAD, PI_TRAY

    rng = random.Random(seed)
    name = "pi" if seed % 3 == 0 else "overhead"
    face = rng.uniform(*FACES[name])
    style = replace(PI_TRAY if name == "pi" else OVERHEAD, face=(face, face))
    if seed % 5 == 4:
        style = replace(style, cocked=0.0, cluster=0.5)  # flat dice only, many touching
    return style, face, name


# ---------------------------------------------------------------- data


def _crops(image: np.ndarray, x: float, y: float, face: float, rng: np.random.Generator, n: int) -> list[np.ndarray]:
    from vision.cocked import net_crop

    if n == 1:
        return [net_crop(image, x, y, face)]
    out = []
    for _ in range(n):
        f = face * rng.uniform(0.9, 1.1)
        dx, dy = rng.uniform(-0.1, 0.1, 2) * face
        out.append(net_crop(image, x + dx, y + dy, f, float(rng.uniform(0, 360))))
    return out


def real_table(set_name: str = "byler-train") -> tuple[list[Any], Any]:
    """The set's photos and its settings as a calibrated table (calibrated on 5 fitting photos, cocked_shape.py's)."""
    from vision.training.cocked_shape import calibrated

    photos, _, settings = calibrated(set_name)
    return photos, settings


def data(args: argparse.Namespace) -> None:
    import cv2

    import vision.cocked as cocked

    cocked.NET_SPAN = args.span  # the crop's width in faces (net_crop's default)

    from vision.dataset import is_fitting
    from vision.reader import ReaderSettings
    from vision.training.synth import render_scene

    cv2.setNumThreads(1)
    rng = np.random.default_rng(0)
    xs: list[np.ndarray] = []
    rows: list[tuple[int, float, int, str, str]] = []  # label, weight, chosen-on (1) or trained-on (0), source, kind
    start = time.time()

    def add(crops: list[np.ndarray], y: int, w: float, choose: int, source: str, kind: str) -> None:
        xs.extend(crops)
        rows.extend([(y, w, choose, source, kind)] * len(crops))

    for n, base in ((args.scenes, TRAIN_SEEDS), (args.choose_scenes, CHOOSE_SEEDS)):
        choose = int(base == CHOOSE_SEEDS)
        for seed in range(base, base + n):
            style, face, name = rendered_table(seed)
            image, dice = render_scene(np.random.default_rng(seed), style)
            settings = ReaderSettings(face_size=face, flat_ratio=0.97)
            for x, y, kind in samples(image, settings):
                y_ = label(x, y, dice)
                add(_crops(image, x, y, face, rng, 1 if choose else (6 if y_ else 2)), y_, 1.0, choose, name, kind)
            if not choose:  # the true centres too, of the cocked dice and of as many flat ones
                for d in dice:
                    add(_crops(image, d.cx, d.cy, face, rng, 4 if d.cocked else 1), int(d.cocked), 1.0, 0, name, "true")
            if seed % 50 == 0:
                print(f"  scene {seed}: {len(xs)} crops, {time.time() - start:.0f} s", flush=True)
    photos, settings = real_table()
    face = settings.face_size
    print(f"byler-train as a calibrated table: face {face:.1f}, flat_ratio {settings.flat_ratio:.3f}", flush=True)
    for p in photos:
        if not is_fitting(p.image.name):
            continue  # never the held-out fifth or the held-back part
        choose = int(choose_photo(p.image.name))
        image = cv2.imread(str(p.image))
        for x, y, kind in samples(image, settings):
            add(_crops(image, x, y, face, rng, 1 if choose else 8), 0, args.real_weight, choose, "real", kind)
    arr = np.stack(xs)
    y_arr = np.array([r[0] for r in rows], np.int64)
    print(f"{len(arr)} crops ({int(y_arr.sum())} cocked), {time.time() - start:.0f} s")
    np.savez_compressed(
        args.out,
        x=arr,
        y=y_arr,
        w=np.array([r[1] for r in rows], np.float32),
        choose=np.array([r[2] for r in rows], np.int64),
        source=np.array([r[3] for r in rows]),
        kind=np.array([r[4] for r in rows]),
        span=np.float32(args.span),
    )


# ---------------------------------------------------------------- training (PyTorch)


def build() -> Any:
    import torch.nn as nn

    def block(a: int, b: int) -> list[Any]:
        return [nn.Conv2d(a, b, 3, padding=1, bias=False), nn.BatchNorm2d(b), nn.ReLU()]

    return nn.Sequential(
        *block(3, 16), nn.MaxPool2d(2),  # 32
        *block(16, 24), nn.MaxPool2d(2),  # 16
        *block(24, 32), nn.MaxPool2d(2),  # 8
        *block(32, 48), nn.MaxPool2d(2),  # 4
        *block(48, 64), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 1),
    )  # fmt: skip


def train(args: argparse.Namespace) -> None:
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    d = np.load(args.data)
    fit = d["choose"] == 0
    x = torch.from_numpy(d["x"][fit]).permute(0, 3, 1, 2).contiguous()  # uint8 N,3,H,W (BGR)
    if args.center:  # the middle of each crop only, at the same pixels a face: a crop fewer faces across
        edge = (x.shape[2] - args.center) // 2
        x = x[:, :, edge : edge + args.center, edge : edge + args.center].contiguous()
    y = torch.from_numpy(d["y"][fit]).float()
    w = torch.from_numpy(np.where(d["source"][fit] == "real", args.real_weight, 1.0).astype(np.float32))
    pos = float(y.sum())
    print(f"{len(x)} training crops, {int(pos)} cocked", flush=True)
    # draw cocked and not-cocked crops half and half, each weighted as given
    p = torch.where(y > 0, 0.5 / pos, 0.5 / (len(y) - pos)) * w
    p = p / p.sum()
    net = build()
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, args.lr, total_steps=args.steps)
    loss_fn = torch.nn.BCEWithLogitsLoss()
    start = time.time()
    for step in range(args.steps):
        idx = torch.multinomial(p, args.batch, replacement=True)
        xb = x[idx].float() / 255.0
        k = int(torch.randint(4, (1,)))
        xb = torch.rot90(xb, k, (2, 3))
        if torch.rand(1) < 0.5:
            xb = xb.flip(3)
        gain = torch.empty(len(xb), 1, 1, 1).uniform_(0.7, 1.3)
        shift = torch.empty(len(xb), 1, 1, 1).uniform_(-0.12, 0.12)
        tint = torch.empty(len(xb), 3, 1, 1).uniform_(0.9, 1.1)
        xb = ((xb - 0.5) * gain + 0.5 + shift) * tint
        xb = (xb + torch.randn_like(xb) * 0.02).clamp(0, 1)
        net.train()
        loss = loss_fn(net(xb).squeeze(1), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 250 == 0 or step == args.steps - 1:
            print(f"  step {step}: loss {loss.item():.3f}, {time.time() - start:.0f} s", flush=True)
    net.eval()
    from vision.cocked import NET_CROP

    size = args.center or NET_CROP
    torch.onnx.export(
        net, torch.zeros(1, 3, size, size), args.out, input_names=["crop"], output_names=["logit"],
        dynamic_axes={"crop": {0: "n"}, "logit": {0: "n"}}, opset_version=13, dynamo=False,
    )  # fmt: skip
    print(f"wrote {args.out}")


# ---------------------------------------------------------------- choosing the threshold, measuring


def _net(path: str) -> Any:
    import cv2

    return cv2.dnn.readNetFromONNX(path)


def _chances(net: Any, crops: np.ndarray) -> np.ndarray:
    import cv2

    out = []
    for i in range(0, len(crops), 256):
        net.setInput(cv2.dnn.blobFromImages(list(crops[i : i + 256]), 1 / 255.0))
        out.append(np.asarray(net.forward()).reshape(-1))
    return 1 / (1 + np.exp(-np.concatenate(out)))


def choose(args: argparse.Namespace) -> None:
    """The chances on the crops kept aside (rendered seeds of their own, a fifth of the fitting photos)."""
    d = np.load(args.data)
    keep = d["choose"] == 1
    p = _chances(_net(args.net), d["x"][keep])
    y, source, kind = d["y"][keep], d["source"][keep], d["kind"][keep]
    real = source == "real"
    print(f"real flat crops: {real.sum()}, top chances {np.sort(p[real])[-5:].round(3)}")
    for reads in (("value", "unsure"), ("dropped",)):
        on = np.isin(kind, reads)
        for t in args.thresholds:
            cocked = (~real) & on & (y == 1)
            flat = (~real) & on & (y == 0)
            print(
                f"  {'/'.join(reads):<13} at {t:.2f}: cocked {int((p[cocked] >= t).sum())}/{int(cocked.sum())}, "
                f"rendered not cocked {int((p[flat] >= t).sum())}/{int(flat.sum())}, "
                f"real {int((p[real & on] >= t).sum())}/{int((real & on).sum())}"
            )


def measure(args: argparse.Namespace) -> None:
    import cv2

    import vision.nets as nets
    import vision.reader as reader
    from vision.dataset import is_fitting
    from vision.reader import ReaderSettings, read_frame
    from vision.training.cocked_shape import BANDS, on_die
    from vision.training.synth import render_scene

    cv2.setNumThreads(1)
    nets.COCKED_NET = Path(args.net)
    nets.use_models(*nets.model_paths())
    reader.NET_SURE, reader.NET_ADD_SURE, reader.NET_ONE_OF_TWO = args.sure, args.add_sure, args.one_of_two
    for name in ("pi", "overhead"):
        count: dict[str, int] = {}

        def bump(key: str, n: int = 1) -> None:
            count[key] = count.get(key, 0) + n

        if args.choose:  # the rendered seeds kept aside to choose on (as their crops were)
            tables = [(seed, rendered_table(seed)) for seed in range(CHOOSE_SEEDS, CHOOSE_SEEDS + args.choose_scenes)]
            tables = [(seed, t) for seed, t in tables if t[2] == name]
        else:
            tables = [
                (seed, rendered_table(seed * 3 if name == "pi" else seed * 3 + 1))
                for seed in range(args.seeds[0], args.seeds[1])
            ]
            tables = [(seed, (replace(t[0], cocked=0.4), t[1], t[2])) for seed, t in tables]
        for seed, (style, face, _) in tables:
            image, dice = render_scene(np.random.default_rng(seed), style)
            seen: dict[int, list[bool]] = {}
            for r in read_frame(image, ReaderSettings(face_size=face, flat_ratio=0.97)).dice:
                die = on_die(r, dice)
                if die is None:
                    bump("off", r.cocked)
                    continue
                seen.setdefault(id(die), []).append(r.cocked)
            for die in dice:
                band = next((f"{lo:.0f}-{min(hi, 55):.0f}" for lo, hi in BANDS if lo <= die.leaning < hi), "")
                kind = "cocked" if die.cocked else "flat"
                bump(kind)
                calls = seen.get(id(die), [])
                bump(kind + " read", bool(calls))
                bump(kind + " called", any(calls))
                if die.cocked:
                    bump(f"band {band}")
                    bump(f"band {band} called", any(calls))
        bands = ", ".join(
            f"{lo:.0f}-{min(hi, 55):.0f}: {count.get(f'band {lo:.0f}-{min(hi, 55):.0f} called', 0)}/"
            f"{count.get(f'band {lo:.0f}-{min(hi, 55):.0f}', 0)}"
            for lo, hi in BANDS
        )
        print(
            f"{name}, {'choice seeds' if args.choose else f'seeds {args.seeds[0]}-{args.seeds[1] - 1}'}: cocked called {count.get('cocked called', 0)}/"
            f"{count.get('cocked', 0)} (read {count.get('cocked read', 0)}; {bands}), flat called "
            f"{count.get('flat called', 0)}/{count.get('flat', 0)}, cocked readings on no die {count.get('off', 0)}",
            flush=True,
        )
    photos, settings = real_table()
    print(f"byler-train as a calibrated table: face {settings.face_size:.1f}, flat_ratio {settings.flat_ratio:.3f}")
    parts = (("tuned on", lambda p: p.held_out), ("held back", lambda p: p.held_back))
    if args.choose:
        parts = (("fitting, kept aside to choose on", lambda p: choose_photo(p.image.name)),)
    for part, keep in parts:
        readings = called = 0
        for p in photos:
            if not keep(p) or (is_fitting(p.image.name) != bool(args.choose)):
                continue
            found = read_frame(cv2.imread(str(p.image)), settings).dice
            readings += len(found)
            called += sum(r.cocked for r in found)
        print(f"  {part}: {called} of {readings} readings called cocked (every die lies flat)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("data")
    p.add_argument("--out", required=True)
    p.add_argument("--scenes", type=int, default=400)
    p.add_argument("--choose-scenes", type=int, default=80)
    p.add_argument("--real-weight", type=float, default=4.0)
    p.add_argument("--span", type=float, default=2.0, help="the crop's width in calibrated faces")
    p = sub.add_parser("train")
    p.add_argument("--data", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--steps", type=int, default=4000)
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--real-weight", type=float, default=4.0, help="a real flat crop counts this many rendered ones")
    p.add_argument("--center", type=int, default=0, help="train on the middle CENTER x CENTER pixels of each crop")
    p = sub.add_parser("choose")
    p.add_argument("--data", required=True)
    p.add_argument("--net", required=True)
    p.add_argument("--thresholds", type=float, nargs="+", default=[0.5, 0.7, 0.9, 0.95, 0.98])
    p = sub.add_parser("measure")
    p.add_argument("--net", required=True)
    p.add_argument("--seeds", type=int, nargs=2, default=(0, 40))
    p.add_argument("--sure", type=float, default=0.95)
    p.add_argument("--add-sure", type=float, default=0.95)
    p.add_argument("--one-of-two", action="store_true", help="of two cocked calls against each other, the surer only")
    p.add_argument("--choose", action="store_true", help="measure on what the choices are made on instead")
    p.add_argument("--choose-scenes", type=int, default=80)
    args = parser.parse_args()
    {"data": data, "train": train, "choose": choose, "measure": measure}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
