"""Diagnostics: the reader network alone, on crops at the labelled centres of the held-out photos.

    uv run python vision/training/oracle.py [--all]
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from vision.dataset import SETS, load_set  # noqa: E402
from vision.nets import networks  # noqa: E402
from vision.reader import CROP_SCALE, NOT_A_DIE, crop_face  # noqa: E402

MATTEO_FACE = 68.0


def main() -> None:
    use_all = "--all" in sys.argv
    reader = networks().read
    for set_name in SETS:
        right = total = 0
        conf = np.zeros((6, 7), int)
        for photo in load_set(set_name):
            if not (use_all or photo.held_out):
                continue
            img = cv2.imread(str(photo.image))
            crops, values = [], []
            for lab in photo.labels:
                cx, cy = lab.center
                size = MATTEO_FACE if set_name.startswith("matteop65") else (lab.box[2] + lab.box[3]) / 2
                crops.append(crop_face(img, cx, cy, size * CROP_SCALE))
                values.append(lab.value)
            if not crops:
                continue
            reader.setInput(cv2.dnn.blobFromImages(crops, 1 / 255.0))
            probs = reader.forward()
            for v, p in zip(values, probs):
                best = int(np.argmax(p))
                conf[v - 1, best] += 1
                total += 1
                right += best == v - 1
                if best != v - 1:
                    print(f"  {photo.image.name}: want {v} got {best + 1 if best != NOT_A_DIE else 'none'} "
                          f"p={p.round(2).tolist()}")
        print(f"{set_name}: {right}/{total} = {right / max(1, total):.4f}")
        print(conf)


if __name__ == "__main__":
    main()
