"""--sim's tray camera: a tray that shows the dice a person threw, the dice of the roll under way and no others.

Nobody throws real dice in the simulation, so a person taps "Throw the dice (simulated tray)" on a phone (the
page's ``POST /api/tray/throw``): `Thrower.throw` takes the dice the roll under way throws at that moment
(``GameService.next_throw``: colour names or kinds of dice) and counts the throw; nothing else throws, not a move,
a card told or a turn's end (the tray once threw by itself after every command that was not a roll). `ThrowCamera`
asks the thrower on every frame for ``(serial, names)`` and, when the serial changes, draws (with
``vision.training.synth``, from numbers alone) a new top-down photo of exactly those dice, each in the colour of
its kind (``kinds`` turns a kind into the colour of its dice), with pips its own seeded generator throws: the tray
watcher sees it move, then settle, and reads it as it reads a real tray. Before the first throw the tray is empty;
a throw stays in the tray until the next.

    thrower = Thrower(service.next_throw)
    camera = ThrowCamera(thrower, kinds={"clue": "blue", "key": "green", "summon": "red"})
    thrower.throw()  # a tap
    frame = camera.read()
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

import numpy as np

from companion.errors import CameraError, IllegalCommand
from vision.camera import CameraBase
from vision.training.synth import DIE_PAINT

Throw = tuple[Hashable, Sequence[str]]

# the page shows this on its disabled "Throw the dice (simulated tray)" and the endpoint refuses with it: the host
# reads what the host does next (a roll to start, or first a terror to tell or a task to choose, which refuse a roll
# until they are done), a player what comes next (only the host starts a roll)
NO_DICE = (
    "no roll can be made now (none is under way, no action is left for one, or the page asks something first), "
    "so there are no dice to throw"
)
NO_ROLL = (
    NO_DICE + ": start a roll, or first do what the page asks for now (a card to tell, a choice to make); with no "
    "action left, end the turn."
)
NO_ROLL_PLAYER = NO_DICE + " yet: the host starts the next roll."
# once the game has ended (won or lost) no roll comes: not "end the turn", not "the host starts the next roll"
GAME_OVER = "the game is over, so there are no dice to throw."


class Thrower:
    """The hand that throws --sim's dice when a person taps (see the module docstring); safe from any thread."""

    def __init__(self, dice: Callable[[], Sequence[str]], over: Callable[[], bool] = lambda: False) -> None:
        self.dice = dice  # the dice the roll under way throws now (GameService.next_throw)
        self.over = over  # whether the game has ended (GameService.over): then why none is GAME_OVER
        self._lock = threading.Lock()
        self._serial = 0
        self._names: tuple[str, ...] = ()

    def __call__(self) -> tuple[int, tuple[str, ...]]:
        """The newest throw: its number (0 before the first) and its dice (what ThrowCamera draws)."""
        with self._lock:
            return self._serial, self._names

    def throw(self, host: bool = True) -> tuple[str, ...]:
        """A tap: the dice of the roll under way thrown into the tray; IllegalCommand when none is (NO_ROLL, or
        NO_ROLL_PLAYER for a player's phone: `host` False; GAME_OVER once the game has ended)."""
        names = tuple(self.dice())
        if not names:
            raise IllegalCommand(self._why(host))
        with self._lock:
            self._serial += 1
            self._names = names
        return names

    def view(self, host: bool = True) -> dict[str, Any]:
        """For the page: the dice a tap throws now (none: ``why`` says so, in the host's words or, `host` False, a
        player's) and how many throws so far."""
        names = list(self.dice())
        with self._lock:
            throws = self._serial
        return {"dice": names, "why": None if names else self._why(host), "throws": throws}

    def _why(self, host: bool) -> str:
        return GAME_OVER if self.over() else NO_ROLL if host else NO_ROLL_PLAYER


class ThrowCamera(CameraBase):
    """A simulated tray camera that draws the dice of each throw (see the module docstring)."""

    name = "simulated tray (throw its dice from a phone)"

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
