"""The two dice networks: the finder (where the dice are, how large their faces) and the reader (which face a
crop shows), ONNX files run by OpenCV's dnn, loaded once per thread (a cv2.dnn.Net must not be shared between
threads).

    finder, reader = networks().find, networks().read
    use_models(folder / "dice_find.onnx", folder / "dice_read.onnx")   # a benchmark's or a training run's own

`digest()` names the networks in use, so a taught reader knows which networks it was taught on.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.errors import VisionError

__all__ = [
    "CLASSES",
    "COCKED_DIE",
    "CROP",
    "FIND_SIZE",
    "LOGO",
    "MODELS",
    "NOT_A_DIE",
    "Networks",
    "digest",
    "load_models",
    "model_paths",
    "networks",
    "use_models",
]

MODELS = Path(__file__).resolve().parent / "models"
FIND_SIZE = 320  # the finder's input side it is first run on (pixels)
CROP = 40  # the reader's input side (pixels)
NOT_A_DIE = 6  # the reader's classes: 0-5 for 1-6 pips, then "not a die", then "a logo instead of pips",
LOGO = 7
COCKED_DIE = 8  # then (issue 26) "a cocked die": leaning on another die or the tray's wall, no face up
CLASSES = 9

_paths = {"find": MODELS / "dice_find.onnx", "read": MODELS / "dice_read.onnx"}
COCKED_HEAD = (
    MODELS / "dice_cocked.npz"
)  # the cocked-dice head (vision.cocked), used with the networks it was fitted on
COCKED_NET = MODELS / "dice_cocked.onnx"  # the overhead cocked-dice network (vision.cocked.OVERHEAD_RATIO), if any


@dataclass
class Networks:
    """This thread's pair of networks and the outputs each is asked for."""

    find: Any = None
    read: Any = None
    read_outputs: list[str] = field(default_factory=list)  # the reader's features (before its last layer), output,
    # and its last feature map before pooling
    find_outputs: list[str] = field(default_factory=list)  # the finder's last features and its output
    cocked: Any = None  # the cocked-dice head fitted on these networks (vision.cocked.CockedHead), None: none
    overhead: Any = None  # the overhead cocked-dice network (a cv2.dnn.Net on vision.cocked.net_crop), None: none


class _PerThread(threading.local):
    def __init__(self) -> None:
        self.nets = Networks()


_loaded = _PerThread()


def model_paths() -> tuple[Path, Path]:
    """The finder's and the reader's ONNX files in use."""
    return _paths["find"], _paths["read"]


def use_models(find: Path, read: Path) -> None:
    """Run other networks from now on (this thread loads them at its next use)."""
    _paths["find"], _paths["read"] = Path(find), Path(read)
    _loaded.nets = Networks()


def digest() -> str:
    """The networks in use, by their files' contents."""
    find, read = model_paths()
    return hashlib.sha256(find.read_bytes() + read.read_bytes()).hexdigest()[:16]


def _load(path: Path) -> Any:
    # OpenCV 5's classic engine runs these small networks faster than the new one on one core
    engine = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
    if engine is not None:
        return cv2.dnn.readNetFromONNX(str(path), engine)
    return cv2.dnn.readNetFromONNX(str(path))


def networks() -> Networks:
    """This thread's networks, loaded (and run once on an empty input) at the first call."""
    nets = _loaded.nets
    if nets.find is None:
        find_path, read_path = model_paths()
        for path in (find_path, read_path):
            if not path.is_file():
                raise VisionError(
                    f"the dice model {path} is missing; reinstall the companion "
                    "or train it with vision/training/train.py."
                )
        find, read = _load(find_path), _load(read_path)
        # the first pass sets each network up (memory, fused layers): do it now, not on the first roll
        find_names = list(find.getLayerNames())
        head = max((i for i, n in enumerate(find_names) if n.endswith("Conv")), default=None)
        find_outputs = [find_names[head - 1], find_names[-1]] if head else []
        find.setInput(np.zeros((1, 3, FIND_SIZE, FIND_SIZE), np.float32))
        find.forward(find_outputs or find_names[-1:])
        names = list(read.getLayerNames())
        gemm = next((i for i, n in enumerate(names) if n.endswith("Gemm")), None)
        # the pooled features before the last layer, the output, and the last feature map before pooling
        outputs = [names[gemm - 1], names[-1], names[gemm - 2]] if gemm and gemm >= 2 else [names[-1]]
        read.setInput(np.zeros((1, 3, CROP, CROP), np.float32))
        read.forward(outputs)
        leaning = None
        if COCKED_HEAD.is_file() and find_outputs:
            from vision.cocked import load_head

            leaning = load_head(COCKED_HEAD)
            if leaning.digest != digest():
                leaning = None  # fitted on other networks: its features mean something else
        overhead = None
        if COCKED_NET.is_file():
            from vision.cocked import NET_CROP

            overhead = _load(COCKED_NET)
            overhead.setInput(np.zeros((1, 3, NET_CROP, NET_CROP), np.float32))
            overhead.forward()
        nets = _loaded.nets = Networks(find, read, outputs, find_outputs, leaning, overhead)
    return nets


def load_models() -> None:
    """Load the networks now (they load on first use otherwise); VisionError when missing."""
    networks()
