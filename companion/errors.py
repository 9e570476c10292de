"""One error root for the whole companion, with specific subclasses.

Every message says what happened and what to do about it, because it is shown
to a host at the table (terminal, phone page, OLED or the journal).
"""

from __future__ import annotations


class CompanionError(Exception):
    """Root of every error the companion raises on purpose."""


class BadCommand(CompanionError):
    """A command that is not well-formed: unknown name, missing or malformed argument."""


class CardsNeeded(BadCommand):
    """Physical deck mode: the command draws cards from the real decks, and the host must say which.

    ``needs`` lists what is drawn, in order: ``[("room", "the room card for the Ghost Hour"), ...]``.
    """

    def __init__(self, message: str, needs: list[tuple[str, str]]) -> None:
        super().__init__(message)
        self.needs = needs


class IllegalCommand(CompanionError):
    """A well-formed command that the rules do not allow now (wrong phase, no summon die ...)."""


class EngineFault(CompanionError):
    """A rules engine failed on a command (a fault in the companion, not a refusal): it is logged, the game is
    rebuilt from its history and nothing was played."""


class DiceError(CompanionError):
    """Bad dice input: unknown icon, too many dice, a roll that does not match the dice."""


class PackError(CompanionError):
    """A data pack (board, ghosts, environment cards) that is missing or invalid."""


class HistoryError(CompanionError):
    """The game history file cannot be opened, read or written."""


class ConfigError(CompanionError):
    """A configuration value that is missing or wrong; the message names the key."""


class HardwareError(CompanionError):
    """A part of the table hardware (servo, OLED, buttons, buzzer) failed or is missing."""


class DisplayError(HardwareError):
    """The OLED does not answer (for example I2C errno 121) or cannot be opened."""


class ServoError(HardwareError):
    """The clock hand's servo cannot be driven."""


class PinError(HardwareError):
    """A GPIO pin is already in use or cannot be opened."""


class CameraError(CompanionError):
    """The camera is missing, unplugged or returns no frames."""


class VisionError(CompanionError):
    """An image cannot be read or analysed."""


class AuthError(CompanionError):
    """A request that lacks the join code or the host PIN."""
