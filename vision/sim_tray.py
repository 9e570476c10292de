"""--sim's tray camera: a tray that shows the dice of the roll under way and no others.

The replayed sample photos hold 20 dice of every colour that have nothing to do with the game; this camera draws
(with ``vision.training.synth``, from numbers alone) a top-down photo of exactly the dice the roll under way throws,
each in the colour of its kind, with pips the camera's own seeded generator throws. It asks ``throw()`` on every
frame: ``(serial, names)``, where the names are colour names or kinds of dice (``kinds`` turns a kind into the
colour of its dice) and ``serial`` changes when the players throw (every command but a roll: a roll settles the
dice thrown, and a player decides whether to roll again). When either changes, the dice are thrown again (a new
photo: the tray watcher sees it move, then settle, and reads it); no roll under way is an empty tray.

    camera = ThrowCamera(service.next_throw, kinds={"clue": "blue", "key": "green", "summon": "red"})
    frame = camera.read()
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence

import numpy as np

from companion.errors import CameraError
from vision.camera import CameraBase
from vision.training.synth import DIE_PAINT

Throw = tuple[Hashable, Sequence[str]]


class ThrowCamera(CameraBase):
    """A simulated tray camera that draws the dice of the roll under way (see the module docstring)."""

    name = "simulated tray (the dice of the roll under way)"

    def __init__(
        self,
        throw: Callable[[], Throw],
        *,
        kinds: Mapping[str, str] | None = None,
        size: tuple[int, int] = (960, 720),
        seed: int = 0,
    ) -> None:
        self.throw = throw
        self.kinds = dict(kinds or {})
        self.size = size
        self.throws = 0
        self.shown: tuple[str, ...] = ()  # the colours of the dice in the tray now
        self._rng = np.random.default_rng(seed)
        self._key: Hashable = object()
        self._frame: np.ndarray | None = None

    def colour_of(self, name: str) -> str:
        """The paint of a die named by kind or by colour; CameraError for a name that is neither."""
        colour = self.kinds.get(name, name)
        if colour not in DIE_PAINT:
            raise CameraError(f"the simulated tray has no {name!r} dice (it paints {', '.join(DIE_PAINT)}).")
        return colour

    def read(self) -> np.ndarray:
        self._check_open()
        serial, names = self.throw()
        key = (serial, tuple(names))
        if key != self._key or self._frame is None:
            self._key = key
            self.shown = tuple(self.colour_of(name) for name in names)
            self._frame = self._draw(self.shown)
            self.throws += 1
        return self._frame.copy()

    def _draw(self, colours: Sequence[str]) -> np.ndarray:
        from dataclasses import replace

        from vision.training.synth import TRAY, render_scene

        width, height = self.size
        style = replace(TRAY, width=(width, width), aspect=(height / width, height / width))
        frame, _ = render_scene(self._rng, style, [DIE_PAINT[c] for c in colours])
        return frame
