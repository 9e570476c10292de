"""Reading the dice in the tray with a camera (OpenCV).

    from vision import read_dice, DieReading, to_roll
    readings = read_dice(cv2.imread("tray.jpg"))

See docs/vision.md. This package imports OpenCV; ``companion`` never imports it.
"""

from companion.games.skeptics.roll import DEFAULT_COLOR_KINDS, to_roll
from vision.reader import DieReading, ReaderSettings, annotate, read_dice

__all__ = ["DEFAULT_COLOR_KINDS", "DieReading", "ReaderSettings", "annotate", "read_dice", "to_roll"]
