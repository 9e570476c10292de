"""Dice of Skeptics: faces, pip maps, icon sets, keep-and-reroll attempts and exact odds (pure).

    from companion.games.skeptics.dice import Requirement, success_probability
    success_probability(Requirement.parse("eye:2,camera:1"), dice=3, rolls=3, keep=True)

See docs/dice.md for the rules behind each part and docs/DESIGN.md ("Dice") for the contract.
"""

from companion.games.skeptics.dice.attempt import Attempt, RollOutcome, summon_succeeds
from companion.games.skeptics.dice.faces import DieKind, Face, PipMap, parse_face, parse_faces
from companion.games.skeptics.dice.odds import (
    MAX_ROLLS,
    clear_cache,
    odds_table,
    success_fraction,
    success_probability,
    summon_fraction,
    summon_probability,
)
from companion.games.skeptics.dice.requirement import ACTIONS, Requirement, action_kind, dice_for

__all__ = [
    "ACTIONS",
    "Attempt",
    "DieKind",
    "Face",
    "MAX_ROLLS",
    "PipMap",
    "Requirement",
    "RollOutcome",
    "action_kind",
    "clear_cache",
    "dice_for",
    "odds_table",
    "parse_face",
    "parse_faces",
    "success_fraction",
    "success_probability",
    "summon_fraction",
    "summon_probability",
    "summon_succeeds",
]
