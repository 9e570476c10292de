"""A second look at the overhead network's cocked calls (issue 26, sixth round; measured, not shipped).

    uv run python vision/training/cocked_second.py collect --net /tmp/cn/net1.onnx --out /tmp/v39a/calls1.npz
    uv run python vision/training/cocked_second.py sweep --calls /tmp/v39a/calls1.npz

``collect`` reads every table ``cocked_net.py measure`` reads (the rendered seeds kept aside to choose on, the
measured seeds 0-39 of each table, byler-train's kept-aside fitting photos, its tuned-on fifth and its held-back part,
each as a calibrated overhead table) with the network's call at ``--floor`` (every reading and dropped candidate it
gives that chance comes back cocked, with the chance as its confidence), and keeps, for each such call, what the
reader measures of its face at a calibrated table: the pips' roundness (``vision.reader.pip_roundness``, against
the table's ``flat_ratio``) and the face's outline (``cocked_shape.face_outline``: short over long side, solidity,
long side against the calibrated face). ``sweep`` then calls a die cocked only if the network gives it at least
``t`` AND the second look says its face is not square on, choosing ``t`` and the second look's limits on the kept-aside
seeds and photos only, and prints them on the measured ones.

A call's threshold applied afterwards gives the reader's own calls but for one thing: a dropped candidate under
``t`` (but over the floor) can keep a later one within a face of it out, so dropped-candidate calls may count one
or two short of the reader's.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

SETS = (
    "choose pi",
    "choose overhead",
    "pi",
    "overhead",
    "real choose",
    "real tuned on",
    "real held back",
    "choose pi more",
)
MORE_CHOOSE_SEEDS = 410_000  # more kept-aside Pi trays (eighth round): the Pi tables of seeds 410000 on


def collect(args: argparse.Namespace) -> None:
    import cv2

    import vision.cocked as cocked
    import vision.nets as nets
    import vision.reader as reader
    from vision.dataset import is_fitting
    from vision.reader import ReaderSettings, pip_roundness, read_frame
    from vision.training.cocked_net import CHOOSE_SEEDS, choose_photo, real_table, rendered_table
    from vision.training.cocked_shape import face_outline, on_die
    from vision.training.synth import render_scene

    cv2.setNumThreads(1)
    cocked.NET_SPAN, cocked.NET_CROP = args.span, args.crop
    nets.COCKED_NET = Path(args.net)
    nets.use_models(*nets.model_paths())
    reader.NET_SURE = reader.NET_ADD_SURE = args.floor
    rows: list[tuple[float, ...]] = []  # set, scene, die (-1: none), label (1 cocked, 0 flat, -1 none), p, 0, the look
    dice_rows: list[tuple[int, int, int, int]] = []  # set, scene, die, cocked (every rendered die, for the counts)

    def look(image: np.ndarray, r: Any, face: float, ratio: float) -> tuple[float, float, float, float]:
        cx, cy = r.center
        roundness = pip_roundness(image, cx, cy, face)
        outline = face_outline(image, cx, cy, face)
        return (
            np.nan if roundness is None else roundness / ratio,
            np.nan if outline is None else outline[0] / max(outline[1], 1e-6),
            np.nan if outline is None else outline[2],
            np.nan if outline is None else outline[1],
        )

    scene = 0
    wanted = args.sets or list(SETS)
    for s, name in enumerate(SETS):
        if name.startswith("real") or name not in wanted:
            continue
        table = name.split()[1] if name.startswith("choose") else name
        if name == "choose pi more":
            tables = [
                (*rendered_table(seed), seed) for seed in range(MORE_CHOOSE_SEEDS, MORE_CHOOSE_SEEDS + 3 * args.more)
            ]
            tables = [t for t in tables if t[2] == "pi"]
        elif name.startswith("choose"):
            tables = [(*rendered_table(seed), seed) for seed in range(CHOOSE_SEEDS, CHOOSE_SEEDS + 80)]
            tables = [t for t in tables if t[2] == table]
        else:
            tables = [(*rendered_table(seed * 3 if table == "pi" else seed * 3 + 1), seed) for seed in range(40)]
            tables = [(replace(t[0], cocked=0.4), *t[1:]) for t in tables]
        for style, face, _, seed in tables:
            scene += 1
            image, dice = render_scene(np.random.default_rng(seed), style)
            index = {id(d): i for i, d in enumerate(dice)}
            for i, d in enumerate(dice):
                dice_rows.append((s, scene, i, int(d.cocked)))
            for r in read_frame(image, ReaderSettings(face_size=face, flat_ratio=0.97)).dice:
                if not r.cocked:
                    continue
                die = on_die(r, dice)
                lab = -1 if die is None else int(die.cocked)
                rows.append(
                    (s, scene, -1 if die is None else index[id(die)], lab, r.confidence, 0, *look(image, r, face, 0.97))
                )
        print(f"  {name}: {len(rows)} calls so far", flush=True)
    if any(n.startswith("real") for n in wanted):
        photos, settings = real_table()
        face, ratio = settings.face_size, settings.flat_ratio
        for s, name in enumerate(SETS):
            if not name.startswith("real") or name not in wanted:
                continue
            for p in photos:
                if name == "real choose":
                    keep = is_fitting(p.image.name) and choose_photo(p.image.name)
                elif name == "real tuned on":
                    keep = p.held_out and not is_fitting(p.image.name)
                else:
                    keep = p.held_back and not is_fitting(p.image.name)
                if not keep:
                    continue
                scene += 1
                image = cv2.imread(str(p.image))
                for r in read_frame(image, settings).dice:
                    if r.cocked:
                        rows.append((s, scene, -1, 0, r.confidence, 0, *look(image, r, face, ratio)))
            print(f"  {name}: {len(rows)} calls so far", flush=True)
    np.savez_compressed(args.out, calls=np.array(rows, np.float64), dice=np.array(dice_rows, np.int64))


def sweep(args: argparse.Namespace) -> None:
    d = np.load(args.calls)
    calls, dice = d["calls"], d["dice"]
    s, scene, die, lab, p = (calls[:, i] for i in range(5))
    roundness, squeeze, solidity, _long_side = (calls[:, i] for i in range(6, 10))

    def count(keep: np.ndarray, sets: tuple[int, ...]) -> str:
        out = []
        for k in sets:
            on = (s == k) & keep
            if SETS[k].startswith("real"):
                out.append(f"{int(on.sum())} real")
                continue
            cocked_dice = dice[(dice[:, 0] == k) & (dice[:, 3] == 1)]
            flat_dice = dice[(dice[:, 0] == k) & (dice[:, 3] == 0)]
            hit = {(int(a), int(b)) for a, b in zip(scene[on & (lab == 1)], die[on & (lab == 1)])}
            fl = {(int(a), int(b)) for a, b in zip(scene[on & (lab == 0)], die[on & (lab == 0)])}
            out.append(
                f"{len(hit)}/{len(cocked_dice)} c {len(fl)}/{len(flat_dice)} f {int((on & (lab == -1)).sum())} o"
            )
        return "  ".join(out)

    def second(r_max: float, q_max: float) -> np.ndarray:
        """Not square on: the pips' roundness under r_max, or the outline squeezed under q_max (a clean one)."""
        by_pips = np.nan_to_num(roundness, nan=9.0) < r_max
        by_outline = (np.nan_to_num(squeeze, nan=9.0) < q_max) & (np.nan_to_num(solidity) >= 0.85)
        unknown = np.isnan(roundness) & np.isnan(squeeze)
        return by_pips | by_outline | (unknown if args.unknown_passes else np.zeros_like(by_pips))

    print("sets: " + ", ".join(SETS))
    for t in args.thresholds:
        print(f"net >= {t:.2f}, no second look:".ljust(44) + count(p >= t, tuple(range(len(SETS)))))
        for r_max in args.roundness:
            for q_max in args.squeeze:
                keep = (p >= t) & second(r_max, q_max)
                print(
                    f"  and pips < {r_max:.2f} or outline < {q_max:.2f}:".ljust(44)
                    + count(keep, tuple(range(len(SETS))))
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("collect")
    p.add_argument("--net", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--span", type=float, default=2.0, help="the crop's width in faces (1.3125: train --center 42)")
    p.add_argument("--crop", type=int, default=64, help="the crop's pixels across (42: train --center 42)")
    p.add_argument("--floor", type=float, default=0.5)
    p.add_argument("--sets", nargs="+", choices=SETS, help="read only these sets (default: all)")
    p.add_argument("--more", type=int, default=100, help="'choose pi more': the Pi tables among 3*MORE seeds")
    p = sub.add_parser("sweep")
    p.add_argument("--calls", required=True)
    p.add_argument("--thresholds", type=float, nargs="+", default=[0.8, 0.9, 0.95, 0.98])
    p.add_argument("--roundness", type=float, nargs="+", default=[0.8, 0.85, 0.9, 0.95])
    p.add_argument("--squeeze", type=float, nargs="+", default=[0.0, 0.8, 0.85, 0.9])
    p.add_argument("--unknown-passes", action="store_true")
    args = parser.parse_args()
    {"collect": collect, "sweep": sweep}[args.command](args)


if __name__ == "__main__":
    main()
