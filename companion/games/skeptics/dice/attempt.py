"""One keep-and-reroll attempt, as an immutable value.

Rulebook: "Action 2: Unlock" and "Action 3: Search" (keep the dice that count, reroll the
others, one roll per action, the dice are lost on another action or at the end of the turn),
"Action 4: Solve", "Action 6: Prove", "Red Icons" (Timers, Disruption), "Action 7: Pull Ghost"
and "Action 8: Summon" (success on any summon icon among the team's summon dice).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from companion.errors import DiceError
from companion.games.skeptics.dice.faces import DieKind, Face, parse_faces
from companion.games.skeptics.dice.odds import MAX_ROLLS, keep_choices, success_fraction
from companion.games.skeptics.dice.requirement import Requirement, action_kind, an

__all__ = ["Attempt", "RollOutcome", "summon_succeeds"]


@dataclass(frozen=True)
class RollOutcome:
    """What one roll did: the faces rolled, every die kept after it, and the result."""

    faces: tuple[Face, ...]  # the faces of the dice just rolled
    kept: tuple[Face, ...]  # all the dice kept after this roll (earlier ones included)
    success: bool
    timer: bool  # the roll failed on a set with a Timer: the team gets a timer token
    newly_kept: tuple[Face, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "faces": [f.value for f in self.faces],
            "kept": [f.value for f in self.kept],
            "success": self.success,
            "timer": self.timer,
        }


@dataclass(frozen=True)
class Attempt:
    """An attempt at one icon set: start it, then `roll` once per action until it succeeds.

    The value never changes; `roll` returns the next attempt. The engine drops the attempt when
    the player does something else or the turn ends (the kept dice are then lost).
    """

    action: str
    requirement: Requirement
    dice: int
    kept: tuple[Face, ...] = ()
    rolls: int = 0
    timers: int = 0
    succeeded: bool = False
    history: tuple[RollOutcome, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def start(cls, action: str, requirement: Requirement | str, dice: int = 3) -> Attempt:
        """Start an attempt; DiceError if the action, the set or the number of dice do not fit. An attempt is a
        value: each one is made once (the legal actions start the same few state after state)."""
        req = Requirement.parse(requirement) if isinstance(requirement, str) else requirement
        if not isinstance(req, Requirement):
            raise DiceError(f'an attempt needs an icon set such as "eye:2,camera:1", not {requirement!r}.')
        if cls is Attempt and type(action) is str and type(dice) is int:
            return _started(action, req, dice)
        return cls._start(action, req, dice)

    @classmethod
    def _start(cls, action: str, req: Requirement, dice: int) -> Attempt:
        kind = action_kind(action)
        if req.kind is not kind:
            raise DiceError(
                f"{an(action)} {action} rolls {kind.value} dice, so its icon set must use "
                f"{', '.join(f.value for f in kind.icons)}; {req.describe()} needs {req.kind.value} dice."
            )
        if not isinstance(dice, int) or isinstance(dice, bool) or not 1 <= dice <= kind.max_dice:
            raise DiceError(f"{an(action)} {action} rolls 1 to {kind.max_dice} {kind.value} dice, not {dice}.")
        if req.size > dice:
            # "More Than Three Icons ... would require the use of collected Items or a Magnifying Glass"
            # (skeptics-rulebook.txt:148), in the words the phone shows
            raise DiceError(
                f"{req.describe()[0].upper()}{req.describe()[1:]}: that needs {req.size} dice showing icons, but "
                f"only {dice} would be rolled; add dice (a magnifying glass, a player helping, items) before starting."
            )
        return cls(action=action, requirement=req, dice=dice)

    # -- reading ------------------------------------------------------------------
    @property
    def kind(self) -> DieKind:
        return self.requirement.kind

    @property
    def keeps(self) -> bool:
        """False under Disruption: no dice may be kept ("Red Icons")."""
        return not self.requirement.disruption and self.kind is not DieKind.SUMMON

    @property
    def dice_to_roll(self) -> int:
        """How many dice the next roll uses (all dice minus the ones kept)."""
        return self.dice - len(self.kept)

    @property
    def is_over(self) -> bool:
        return self.succeeded

    @property
    def missing(self) -> Requirement | None:
        """What the kept dice do not yet show (None once the attempt succeeded)."""
        if self.succeeded:
            return None
        return self.requirement.without(self.kept)

    def odds(self, rolls_left: int) -> Fraction:
        """The exact chance of succeeding within `rolls_left` more rolls from here."""
        if self.succeeded:
            return Fraction(1)
        missing = self.missing
        assert missing is not None
        return success_fraction(missing, self.dice_to_roll, rolls_left, keep=self.keeps)

    def useful(self, faces: Iterable[Face]) -> tuple[Face, ...]:
        """The faces among `faces` that still count toward the set, given the kept dice."""
        left = self.requirement.missing(self.kept)
        out = []
        for face in faces:
            if left.get(face, 0) > 0:
                out.append(face)
                left[face] -= 1
        return tuple(out)

    def keep_choices(
        self, faces: Sequence[Face | str] | str, rolls_after: int
    ) -> list[tuple[tuple[Face, ...], Fraction]]:
        """Which dice of this roll to keep, each choice with its exact chance of success, best first.

        `faces` are the faces just rolled (as for `roll`), `rolls_after` the rolls the player can
        still make after this one. Keeping every die that counts is not always best: with
        "eye:1,camera:1", three dice and one roll to come, a roll of eye, eye, cobweb is better
        rerolled whole (7/12) than keeping the eye (5/9). See docs/dice.md, "Keeping dice".
        """
        missing = self.missing
        if missing is None:
            raise DiceError(f"the {self.action} attempt at {self.requirement} already succeeded; start a new one.")
        rolled = self._check_faces(faces)
        if not self.keeps:
            success = missing.satisfied_by(rolled)
            chance = Fraction(1) if success else success_fraction(missing, self.dice_to_roll, rolls_after, False)
            return [(self.useful(rolled) if success else (), chance)]
        return keep_choices(missing, self.dice_to_roll, rolled, rolls_after)

    def _check_faces(self, faces: Sequence[Face | str] | str) -> tuple[Face, ...]:
        rolled = parse_faces(faces, self.kind)
        if len(rolled) != self.dice_to_roll:
            held = f" ({len(self.kept)} kept: {', '.join(f.value for f in self.kept)})" if self.kept else ""
            raise DiceError(
                f"this roll needs the faces of {self.dice_to_roll} {self.kind.value} dice{held}, "
                f"got {len(rolled)}: {', '.join(f.value for f in rolled) or 'none'}."
            )
        return rolled

    # -- rolling ------------------------------------------------------------------
    def roll(
        self, faces: Sequence[Face | str] | str, keep: Sequence[Face | str] | None = None
    ) -> tuple[Attempt, RollOutcome]:
        """One roll of the dice not kept. Returns the next attempt and what the roll did.

        By default every face that still counts is kept, as the rulebook's examples do; `keep`
        names the faces the player set aside instead (a part of those that count, possibly none;
        `keep_choices` says which is best). Under Disruption nothing is kept.
        """
        if self.succeeded:
            raise DiceError(f"the {self.action} attempt at {self.requirement} already succeeded; start a new one.")
        if self.rolls >= MAX_ROLLS:
            raise DiceError(f"an attempt takes at most {MAX_ROLLS} rolls.")
        rolled = self._check_faces(faces)
        success = self.requirement.satisfied_by(self.kept + rolled)
        useful = self.useful(rolled)
        if keep is not None:
            chosen = parse_faces(keep, self.kind)
            if chosen and not self.keeps:
                raise DiceError(
                    f"no dice may be kept on {self.requirement} (Disruption, or a summon roll); leave keep out."
                )
            pool = list(useful)
            for face in chosen:
                if face not in pool:
                    raise DiceError(
                        f"cannot keep {face.value}: the dice that count are {', '.join(f.value for f in useful) or 'none'}."
                    )
                pool.remove(face)
            useful = chosen
        if success:
            # The dice that make up the set; under Disruption only this roll's dice count.
            new_kept = self.useful(rolled)
            kept = self.kept + new_kept
        elif self.keeps:
            new_kept = useful
            kept = self.kept + new_kept
        else:
            new_kept = kept = ()
        timer = not success and self.requirement.timer
        outcome = RollOutcome(
            faces=rolled, kept=_canonical(kept), success=success, timer=timer, newly_kept=_canonical(new_kept)
        )
        after = replace(
            self,
            kept=_canonical(kept),
            rolls=self.rolls + 1,
            timers=self.timers + int(timer),
            succeeded=success,
            history=(*self.history, outcome),
        )
        return after, outcome

    # -- JSON -----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The `attempt` field of game.view() (docs/DESIGN.md)."""
        return {
            "action": self.action,
            "need": str(self.requirement),
            "dice": self.dice,
            "kept": [f.value for f in self.kept],
            "rolls": self.rolls,
            "timers": self.timers,
            "timer": self.requirement.timer,
            "disruption": self.requirement.disruption,
            "dice_to_roll": self.dice_to_roll,
            "succeeded": self.succeeded,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Attempt:
        """The attempt back from `to_dict` (checked like `start`)."""
        try:
            attempt = cls.start(str(data["action"]), Requirement.parse(str(data["need"])), int(data["dice"]))
            kept = parse_faces(list(data.get("kept", [])), attempt.kind)
            rolls = int(data.get("rolls", 0))
            timers = int(data.get("timers", 0))
            succeeded = bool(data.get("succeeded", False))
        except (KeyError, TypeError, ValueError) as exc:
            raise DiceError(f"an attempt needs action, need and dice; could not read it ({exc}).") from None
        if _canonical(attempt.useful(kept)) != _canonical(kept) or (kept and not attempt.keeps and not succeeded):
            raise DiceError(
                f"the kept dice {', '.join(f.value for f in kept)} do not all count toward {attempt.requirement}."
            )
        if succeeded and not attempt.requirement.satisfied_by(kept):
            raise DiceError(f"a succeeded attempt must keep the dice that show {attempt.requirement}.")
        if not 0 <= rolls <= MAX_ROLLS or (kept and rolls == 0):
            raise DiceError(f"rolls must be 0 to {MAX_ROLLS} (and at least 1 once dice are kept), not {rolls}.")
        if not 0 <= timers <= rolls or (timers and not attempt.requirement.timer):
            raise DiceError(f"timers must be 0 to the number of failed rolls on a set with a timer, not {timers}.")
        return replace(attempt, kept=_canonical(kept), rolls=rolls, timers=timers, succeeded=succeeded)


_ORDER = {face: i for i, face in enumerate(Face)}


def _canonical(faces: Iterable[Face]) -> tuple[Face, ...]:
    return tuple(sorted(faces, key=_ORDER.__getitem__))


def summon_succeeds(faces: Sequence[Face | str] | str, held: int | None = None) -> bool:
    """True if any of the summon dice shows a summon icon ("Action 7", "Action 8").

    With `held`, the number of faces must equal the summon dice the team holds.
    """
    rolled = parse_faces(faces, DieKind.SUMMON)
    if held is not None:
        if not isinstance(held, int) or isinstance(held, bool) or held < 0:
            raise DiceError(f"the number of summon dice held must be 0 or more, not {held!r}.")
        if held == 0:
            raise DiceError("the team holds no summon dice yet; solve a clue to gain one.")
        if len(rolled) != held:
            raise DiceError(f"the team holds {held} summon dice, so the roll needs {held} faces, got {len(rolled)}.")
    if not rolled:
        raise DiceError('a summon or pull roll needs the faces of the summon dice, e.g. "summon,blank".')
    return Face.SUMMON in rolled


@functools.lru_cache(maxsize=1024)
def _started(action: str, req: Requirement, dice: int) -> Attempt:
    return Attempt._start(action, req, dice)
