"""Reading the dice in the tray with a camera (OpenCV).

    from vision import read_dice, DieReading
    readings = read_dice(cv2.imread("tray.jpg"))
    outcome, result = service.roll_from_tray(readings)  # what the dice mean is the game's module's

See docs/vision.md. This package imports OpenCV; ``companion`` never imports it, and it reaches a game only
through its module (``companion.games.base``).
"""

from vision.reader import DieReading, ReaderSettings, annotate, read_dice

__all__ = ["DieReading", "ReaderSettings", "annotate", "read_dice"]
