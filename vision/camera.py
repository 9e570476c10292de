"""Camera sources behind one small interface: ``read() -> frame`` (BGR), ``close()``, ``with``.

- ``PiCamera``: the Raspberry Pi's own camera through picamera2 (on Raspberry Pi OS OpenCV
  cannot open it).
- ``UsbCamera``: a USB camera through OpenCV's ``VideoCapture``.
- ``ReplayCamera``: plays image files in turn, each for a number of frames (``--sim`` and tests).

``open_camera(spec)`` picks one from a short spelling ("auto", "pi", "usb", "usb:1",
"/dev/video2", "sim", "replay:DIR_OR_FILES"). A camera that is missing, unplugged or stops
giving frames raises ``CameraError`` with a message that says what to do; the companion
then carries on with dice entered by hand.
"""

from __future__ import annotations

import glob
import importlib
import os
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol

import cv2
import numpy as np

from companion.errors import CameraError

SAMPLES = Path(__file__).resolve().parent / "samples"
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")
HAND_ENTRY = "The companion carries on: enter the dice by hand."


class Camera(Protocol):
    def read(self) -> np.ndarray: ...

    def close(self) -> None: ...


class CameraBase:
    """What every camera source is: read() a frame, close(), and use as a context manager."""

    name = "camera"
    _closed = False

    def read(self) -> np.ndarray:  # pragma: no cover - overridden
        raise NotImplementedError

    def close(self) -> None:
        self._closed = True

    @property
    def is_closed(self) -> bool:
        return self._closed

    def _check_open(self) -> None:
        if self._closed:
            raise CameraError(f"the {self.name} is closed; open it again.")

    def __enter__(self) -> CameraBase:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


class PiCamera(CameraBase):
    """The Pi camera (CSI) through picamera2; frames come as BGR arrays of ``size``."""

    name = "Pi camera"

    def __init__(self, size: tuple[int, int] = (1280, 960), module: Any = None) -> None:
        if module is None:
            try:
                module = importlib.import_module("picamera2")
            except ImportError as exc:
                raise CameraError(
                    "picamera2 is not installed, so the Pi camera cannot be used "
                    f"(sudo apt install python3-picamera2). {HAND_ENTRY}"
                ) from exc
        try:
            self._cam = module.Picamera2()
            # "RGB888" in libcamera's naming is stored B, G, R: what OpenCV expects
            config = self._cam.create_still_configuration(main={"size": tuple(size), "format": "RGB888"})
            self._cam.configure(config)
            self._cam.start()
        except Exception as exc:  # picamera2 raises IndexError/RuntimeError when no camera is attached
            raise CameraError(
                f"no Pi camera answers ({exc}); check the ribbon cable and that the camera is enabled. {HAND_ENTRY}"
            ) from exc

    def read(self) -> np.ndarray:
        self._check_open()
        try:
            frame = self._cam.capture_array("main")
        except Exception as exc:
            raise CameraError(f"the Pi camera stopped giving frames ({exc}). {HAND_ENTRY}") from exc
        return np.ascontiguousarray(frame[:, :, :3])

    def close(self) -> None:
        if not self._closed:
            try:
                self._cam.stop()
                self._cam.close()
            finally:
                super().close()


class UsbCamera(CameraBase):
    """A USB camera through OpenCV's VideoCapture (index 0 is /dev/video0)."""

    name = "USB camera"

    def __init__(self, device: int | str = 0, size: tuple[int, int] | None = (1280, 960), capture: Any = None) -> None:
        self.device = device
        self._cap = capture if capture is not None else cv2.VideoCapture(device)
        if not self._cap.isOpened():
            self._cap.release()
            where = f"/dev/video{device}" if isinstance(device, int) else str(device)
            raise CameraError(
                f"no camera at {where}: plug the USB camera in (or choose another with [camera] source). {HAND_ENTRY}"
            )
        if size is not None:
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])

    def read(self) -> np.ndarray:
        self._check_open()
        ok, frame = self._cap.read()
        if not ok or frame is None:
            raise CameraError(f"the USB camera ({self.device}) gave no frame: it may have been unplugged. {HAND_ENTRY}")
        return np.asarray(frame)

    def close(self) -> None:
        if not self._closed:
            self._cap.release()
            super().close()


class ReplayCamera(CameraBase):
    """Plays image files as a camera would: each file for ``repeat`` frames, then the next.

    With ``loop`` it starts again after the last file; without, reading past the end raises
    CameraError (like an unplugged camera).
    """

    name = "replay camera"

    def __init__(self, paths: Sequence[str | os.PathLike[str]], repeat: int = 1, loop: bool = True) -> None:
        if repeat < 1:
            raise CameraError("the replay camera needs repeat >= 1.")
        self.paths = [Path(p) for p in paths]
        if not self.paths:
            raise CameraError(f"the replay camera has no image files to play. {HAND_ENTRY}")
        missing = [str(p) for p in self.paths if not p.is_file()]
        if missing:
            raise CameraError(f"the replay camera cannot find {', '.join(missing)}.")
        self.repeat = repeat
        self.loop = loop
        self.frames_read = 0
        self._cache: dict[int, np.ndarray] = {}

    @property
    def current_path(self) -> Path:
        return self.paths[(max(0, self.frames_read - 1) // self.repeat) % len(self.paths)]

    def read(self) -> np.ndarray:
        self._check_open()
        index = self.frames_read // self.repeat
        if index >= len(self.paths) and not self.loop:
            raise CameraError("the replay camera has played every file.")
        index %= len(self.paths)
        if index not in self._cache:
            self._cache = {}
            frame = cv2.imread(str(self.paths[index]), cv2.IMREAD_COLOR)
            if frame is None:
                raise CameraError(f"the replay camera cannot read {self.paths[index]} as an image.")
            self._cache[index] = frame
        self.frames_read += 1
        return self._cache[index].copy()


def sample_paths() -> list[Path]:
    """The bundled sample photos (vision/samples) that ``--sim`` replays."""
    return sorted(p for p in SAMPLES.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)


def _image_files(spec: str) -> list[Path]:
    path = Path(spec)
    if path.is_dir():
        return sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    return [Path(p) for p in sorted(glob.glob(spec))] or [path]


def open_camera(spec: str = "auto", size: tuple[int, int] = (1280, 960), repeat: int = 8) -> CameraBase:
    """A camera from its spelling.

    "auto": the Pi camera when picamera2 is importable, else the first USB camera;
    "pi"; "usb" or "usb:N"; a device path "/dev/videoN"; "sim": the bundled samples;
    "replay:PATH" (a folder, a file or a glob).
    """
    spec = spec.strip()
    if spec == "sim":
        return ReplayCamera(sample_paths(), repeat=repeat)
    if spec.startswith("replay:"):
        return ReplayCamera(_image_files(spec[len("replay:") :]), repeat=repeat)
    if spec == "pi":
        return PiCamera(size)
    if spec == "usb":
        return UsbCamera(0, size)
    if spec.startswith("usb:"):
        try:
            return UsbCamera(int(spec[4:]), size)
        except ValueError:
            raise CameraError(f"camera {spec!r}: expected usb:N with a number N, e.g. usb:0.") from None
    if spec.startswith("/dev/"):
        if not os.path.exists(spec):
            raise CameraError(f"no camera at {spec}: plug the USB camera in. {HAND_ENTRY}")
        return UsbCamera(spec, size)
    if spec == "auto":
        try:
            importlib.import_module("picamera2")
        except ImportError:
            return UsbCamera(0, size)
        return PiCamera(size)
    raise CameraError(f"unknown camera {spec!r}; use auto, pi, usb, usb:N, /dev/videoN, sim or replay:PATH.")
