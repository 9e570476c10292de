"""Camera sources (issue 4): replay plays files like a camera; a missing camera is a clear CameraError."""

from __future__ import annotations

import builtins
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.errors import CameraError, CompanionError
from vision.camera import PiCamera, ReplayCamera, UsbCamera, open_camera, sample_paths


def write_images(tmp_path: Path, n: int) -> list[Path]:
    paths = []
    for i in range(n):
        image = np.full((40, 60, 3), 40 * i, np.uint8)
        path = tmp_path / f"frame{i}.png"
        assert cv2.imwrite(str(path), image)
        paths.append(path)
    return paths


def test_replay_plays_each_file_for_repeat_frames_then_loops(tmp_path: Path) -> None:
    paths = write_images(tmp_path, 2)
    with ReplayCamera(paths, repeat=3) as camera:
        levels = [int(camera.read()[0, 0, 0]) for _ in range(8)]
    assert levels == [0, 0, 0, 40, 40, 40, 0, 0]
    assert camera.is_closed


def test_replay_without_loop_ends_like_an_unplugged_camera(tmp_path: Path) -> None:
    camera = ReplayCamera(write_images(tmp_path, 1), repeat=2, loop=False)
    camera.read()
    camera.read()
    with pytest.raises(CameraError, match="played every file"):
        camera.read()


def test_replay_returns_copies_that_callers_may_draw_on(tmp_path: Path) -> None:
    camera = ReplayCamera(write_images(tmp_path, 1), repeat=5)
    first = camera.read()
    first[:] = 255
    assert int(camera.read()[0, 0, 0]) == 0


def test_replay_of_missing_or_unreadable_files_says_which(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="nothing.jpg"):
        ReplayCamera([tmp_path / "nothing.jpg"])
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not a jpeg")
    camera = ReplayCamera([broken])
    with pytest.raises(CameraError, match="broken.jpg"):
        camera.read()
    with pytest.raises(CameraError, match="no image files"):
        ReplayCamera([])


def test_closed_camera_refuses_to_read(tmp_path: Path) -> None:
    camera = ReplayCamera(write_images(tmp_path, 1))
    camera.close()
    with pytest.raises(CameraError, match="closed"):
        camera.read()


def test_sim_camera_plays_the_bundled_samples() -> None:
    samples = sample_paths()
    assert 4 <= len(samples) <= 6
    with open_camera("sim", repeat=1) as camera:
        frame = camera.read()
    assert frame.shape == cv2.imread(str(samples[0])).shape


class ClosedCapture:
    """A VideoCapture whose device is not there (what OpenCV gives for an unplugged camera)."""

    released = False

    def isOpened(self) -> bool:
        return False

    def release(self) -> None:
        self.released = True


class DyingCapture:
    """Opens, gives one frame, then fails as an unplugged camera does."""

    def __init__(self) -> None:
        self.frames = 1
        self.props: dict[int, float] = {}

    def isOpened(self) -> bool:
        return True

    def set(self, prop: int, value: float) -> bool:
        self.props[prop] = value
        return True

    def read(self) -> tuple[bool, Any]:
        if self.frames:
            self.frames -= 1
            return True, np.zeros((48, 64, 3), np.uint8)
        return False, None

    def release(self) -> None:
        pass


def test_missing_usb_camera_is_a_clear_camera_error() -> None:
    capture = ClosedCapture()
    with pytest.raises(CameraError, match=r"no camera at /dev/video3.*by hand") as info:
        UsbCamera(3, capture=capture)
    assert capture.released
    assert isinstance(info.value, CompanionError)


def test_real_videocapture_on_a_device_that_is_not_there() -> None:
    with pytest.raises(CameraError, match="plug the USB camera in"):
        open_camera("/dev/video-not-here")
    with pytest.raises(CameraError, match="no camera at"):
        UsbCamera("/tmp/definitely-not-a-camera-device")


def test_unplugged_usb_camera_mid_game() -> None:
    capture = DyingCapture()
    camera = UsbCamera(0, size=(640, 480), capture=capture)
    assert camera.read().shape == (48, 64, 3)
    assert capture.props[cv2.CAP_PROP_FRAME_WIDTH] == 640
    with pytest.raises(CameraError, match="unplugged"):
        camera.read()


def test_pi_camera_without_picamera2(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_picamera2(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "picamera2":
            raise ImportError("No module named 'picamera2'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_picamera2)
    with pytest.raises(CameraError, match="picamera2 is not installed"):
        PiCamera()


class FakePicamera2Module:
    """picamera2's surface as used here; ``cameras`` = 0 behaves like a Pi with no camera attached."""

    def __init__(self, cameras: int) -> None:
        self.cameras = cameras
        self.started = self.closed = False

    def Picamera2(self) -> Any:
        if not self.cameras:
            raise IndexError("list index out of range")
        module = self

        class Cam:
            def create_still_configuration(self, main: dict[str, Any]) -> dict[str, Any]:
                return {"main": main}

            def configure(self, config: dict[str, Any]) -> None:
                self.size = config["main"]["size"]

            def start(self) -> None:
                module.started = True

            def capture_array(self, name: str) -> np.ndarray:
                return np.zeros((self.size[1], self.size[0], 3), np.uint8)

            def stop(self) -> None:
                pass

            def close(self) -> None:
                module.closed = True

        return Cam()


def test_pi_camera_with_no_camera_attached() -> None:
    with pytest.raises(CameraError, match="ribbon cable"):
        PiCamera(module=FakePicamera2Module(cameras=0))


def test_pi_camera_frames_and_close() -> None:
    module = FakePicamera2Module(cameras=1)
    with PiCamera(size=(320, 240), module=module) as camera:
        assert camera.read().shape == (240, 320, 3)
        assert module.started
    assert module.closed


def test_unknown_camera_spelling() -> None:
    with pytest.raises(CameraError, match="unknown camera 'webcam'"):
        open_camera("webcam")
    with pytest.raises(CameraError, match="usb:N"):
        open_camera("usb:first")
