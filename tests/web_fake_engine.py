"""A stand-in for companion.engine used ONLY while the real engine is not in the tree yet.

It implements the DESIGN.md engine interface minimally (clock, rounds, Ghost Hour, summon) so the
web tests can run against the real GameService and SQLite file. Installed by web_fixtures only when
`import companion.engine` fails; delete once the engine lands.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from companion.errors import BadCommand, IllegalCommand

CLOCK = ["XII", "III", "VI", "IX"]
KNOWN = {"end-turn", "end-round", "summon", "timer", "reveal-clue", "solve", "attempt", "roll", "move-ghost", "ghost-at", "prove", "pull", "seance", "action", "unlock", "discard-environment"}


@dataclass(frozen=True)
class Setup:
    players: int = 3
    board: str = "asylum"
    ghost: str = "child"
    special_items: int = 3
    seed: int = 0
    physical: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Setup:
        if not isinstance(data.get("players"), int) or not 1 <= data["players"] <= 4:
            raise BadCommand("players must be 1-4")
        return cls(**dict(data))


@dataclass(frozen=True)
class Command:
    name: str
    args: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Command:
        name = data.get("name")
        if name not in KNOWN:
            raise BadCommand(f"unknown command {name!r}")
        return cls(str(name), dict(data.get("args") or {}))

    @classmethod
    def parse(cls, text: str) -> Command:
        parts = text.split()
        return cls.from_dict({"name": parts[0], "args": dict(p.split("=", 1) for p in parts[1:])})

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "args": dict(self.args)}

    def __str__(self) -> str:
        return " ".join([self.name] + [f"{k}={v}" for k, v in self.args.items()])


class Game:
    def __init__(self, setup: Setup, packs: Any) -> None:
        self.setup = setup
        self.packs = packs
        self.history: list[Command] = []
        self._reset()

    def _reset(self) -> None:
        deck = list(range(1, 21))
        random.Random(self.setup.seed).shuffle(deck)
        self.s: dict[str, Any] = {"round": 1, "q": 0, "hour": 0, "deck": deck, "drawn": [], "ghost": None, "dice": 0, "player": 0}

    @classmethod
    def new(cls, setup: Setup, packs: Any) -> Game:
        return cls(setup, packs)

    def push(self, cmd: Command) -> list[dict[str, Any]]:
        s = dict(self.s)
        s["deck"], s["drawn"] = list(s["deck"]), list(s["drawn"])
        events: list[dict[str, Any]] = []
        if cmd.name == "end-round" or (cmd.name == "end-turn" and s["player"] == self.setup.players - 1):
            events.append({"type": "round_ended", "round": s["round"]})
            s["round"] += 1
            s["player"] = 0
            s["q"] = (s["q"] + 1) % 4
            s["ghost"] = None
            if s["q"] == 0:
                s["hour"] += 1
            events.append({"type": "clock_advanced", "clock": CLOCK[s["q"]], "hour": s["hour"], "reason": "round"})
            if s["q"] == 0:
                room = s["deck"].pop(0)
                s["drawn"].append(room)
                s["ghost"] = room
                events.append({"type": "ghost_hour", "environment": "Fire", "room": room, "room_name": f"Room {room}"})
        elif cmd.name == "end-turn":
            s["player"] += 1
            events.append({"type": "turn_ended", "player": s["player"] - 1})
        elif cmd.name == "summon":
            if s["dice"] < 1:
                raise IllegalCommand("the team has no summon die; solve a clue first.")
            if "success" not in cmd.args and "faces" not in cmd.args:
                raise BadCommand("summon needs success=true|false or faces=...")
            events.append({"type": "summoned"})
        elif cmd.name == "solve":
            s["dice"] += 1
            events.append({"type": "clue_solved", "summon_dice": s["dice"]})
        elif cmd.name == "move-ghost":
            raise IllegalCommand("the ghost is not on the board")
        else:
            events.append({"type": cmd.name.replace("-", "_")})
        self.s = s
        self.history.append(cmd)
        return events

    def pop(self) -> Command:
        cmd = self.history.pop()
        rest = list(self.history)
        self.history = []
        self._reset()
        for c in rest:
            self.push(c)
        return cmd

    @classmethod
    def replay(cls, setup: Setup, packs: Any, commands: list[Command]) -> Game:
        game = cls(setup, packs)
        for c in commands:
            game.push(c)
        return game

    @property
    def outcome(self) -> None:
        return None

    def view(self) -> dict[str, Any]:
        s = self.s
        return {
            "board": self.setup.board, "ghost": {"id": "child", "name": "Child Ghost", "difficulty": 1},
            "players": self.setup.players, "current_player": s["player"], "actions_left": 3,
            "clock": CLOCK[s["q"]], "round": s["round"], "hour": s["hour"], "ghost_room": s["ghost"],
            "ghost_reason": "ghost_hour" if s["ghost"] else None, "room_deck_left": len(s["deck"]),
            "rooms_revealed": list(s["drawn"]), "rooms_unseen": sorted(s["deck"]), "room_cards_discarded_unseen": 0,
            "red_markers": list(s["drawn"]), "environment_active": [], "environment": [],
            "summon_dice": s["dice"], "timers": 0, "clues_revealed": 0, "clues_solved": s["dice"], "evidence": [],
            "seance_symbols": ["candle", "bell"], "icon_sets": [{"index": 1, "need": "eye:2", "text": "2 eyes", "proven": False}],
            "ghost_mode": False, "seance_used": False, "seance_active": False, "pull_pending": False, "attempt": None,
            "final_round": False, "outcome": None, "outcome_reason": None, "history_length": len(self.history),
        }
