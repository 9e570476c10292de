"""The table hardware: servo clock hand, status OLED, buttons, Ghost Hour alarm and voice.

`hardware.Table` is the one object the rest of the companion uses (docs/DESIGN.md,
"Hardware"); `companion hw ...` (hardware.cli) tests and calibrates the parts.
gpiozero and luma are imported only when a part is opened.
"""

from __future__ import annotations

from hardware.config import HardwareConfig
from hardware.table import Table

__all__ = ["HardwareConfig", "Table"]
