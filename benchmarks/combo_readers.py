"""Run bench_vision with the shipped reader combined with a second reader network (no training).

    COMBO=mean|unsure|agree SECOND=path/dice_read.onnx [MARGIN=0.9] uv run python benchmarks/combo_readers.py <bench_vision args>
mean: average the two readers' chances (the second's 9th class, cocked, dropped and renormalised);
unsure: the second is asked only on crops whose first best chance is under MARGIN, and averaged there;
agree: where both read the same best class keep the average, else take the reading of the more confident one.
"""

import os
import runpy
import sys

import cv2
import numpy as np

sys.path.insert(0, os.getcwd())
import vision.reader as R
from vision import nets

mode = os.environ["COMBO"]
second_path = os.environ["SECOND"]
margin = float(os.environ.get("MARGIN", "0.9"))
orig = R.reader_outputs
_second = {}


def second_probs(crops):
    net = _second.get("net")
    if net is None:
        net = _second["net"] = nets._load(nets.Path(second_path))
    net.setInput(cv2.dnn.blobFromImages(list(crops), 1 / 255.0))
    p = np.asarray(net.forward()).reshape(len(crops), -1)[:, :8]
    return p / p.sum(axis=1, keepdims=True)


def combined(crops):
    feats, probs = orig(crops)
    if len(crops) == 0:
        return feats, probs
    probs = np.array(probs)
    if mode == "mean":
        probs[:, :8] = (probs[:, :8] + second_probs(crops)) / 2
    elif mode == "unsure":
        idx = np.flatnonzero(probs[:, :6].max(axis=1) < margin)
        if len(idx):
            probs[idx, :8] = (probs[idx, :8] + second_probs([crops[i] for i in idx])) / 2
    elif mode == "agree":
        q = second_probs(crops)
        same = probs[:, :8].argmax(1) == q.argmax(1)
        mean = (probs[:, :8] + q) / 2
        pick = np.where((probs[:, :8].max(1) >= q.max(1))[:, None], probs[:, :8], q)
        probs[:, :8] = np.where(same[:, None], mean, pick)
    return feats, probs


R.reader_outputs = combined
sys.argv = ["bench_vision.py", *sys.argv[1:]]
runpy.run_path("benchmarks/bench_vision.py", run_name="__main__")
