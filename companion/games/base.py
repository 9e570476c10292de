"""The game-module seam: every game the companion plays is one GameModule, as python-chess's variants share
one Board.

A module names its rules engine (``Game``, ``Setup``, ``Command``: push/pop, ``view()``, ``legal_actions()``,
``outcome``, the same shapes for every game), how its packs load, and its sentences (``names``,
``describe_event``, ``announcement``, ``action_label``, ``command_sentence``, ``end_summary``, ``for_players``).
The service, the history, the hardware, the page and the terminal talk to a game only through its module, so
a new game is a new package under ``companion/games/`` and one line in :data:`RULES`.

    module = module_for("elder-sign")
    game = module.new(module.setup_from_dict({"players": 2, "seed": 7}), module.load_packs(None))
    module.describe_events(game.push("end-turn"), module.names(game))

A stored setup names its rules (``"rules": "elder-sign"``); a setup without it is Skeptics', so every history
file written before there were modules still opens.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.errors import BadCommand

__all__ = ["DEFAULT_RULES", "RULES", "GameModule", "module_for", "rules_of", "sentences_of"]

DEFAULT_RULES = "skeptics"
# rules id -> (title, the module that defines MODULE)
RULES: Mapping[str, tuple[str, str]] = {
    "skeptics": ("Skeptics", "companion.games.skeptics.module"),
    "elder-sign": ("Elder Sign", "companion.games.elder_sign.module"),
    "among-cultists": ("Among Cultists", "companion.games.among_cultists.module"),
    "spooks": ("Spooks", "companion.games.spooks.module"),
}


@dataclass(frozen=True)
class GameModule:
    """One game behind the seam (see the module docstring). Everything here is pure: no I/O but the packs' load."""

    rules: str
    title: str
    game: Any  # the engine's Game class: new(setup, packs), replay(setup, packs, commands)
    setup: Any  # its Setup class: from_dict(data), to_dict()
    command: Any  # its Command class: parse(text), from_dict(data), to_dict()
    load_packs: Callable[[Path | None], Any]
    names: Callable[[Any], Any]  # the table's names for a game (players, places ...), for the sentences
    describe_event: Callable[[Mapping[str, Any], Any], str]
    describe_events: Callable[[Sequence[Mapping[str, Any]], Any], list[str]]
    announcement: Callable[[Mapping[str, Any], Any], dict[str, str] | None]
    action_label: Callable[[Mapping[str, Any], Any, Any], str]  # (action, names, current player)
    command_sentence: Callable[[Any, Any, Sequence[Mapping[str, Any]]], str]
    end_summary: Callable[[Mapping[str, Any], Any, float | None], dict[str, Any]]
    for_players: Callable[[Any], str]
    # extra keys of the published state worked out from the view and the game (the odds of the roll under way)
    publish: Callable[[Mapping[str, Any], Any], Mapping[str, Any]] = field(default=lambda view, game: {})
    # the setup keys the "game_started" event repeats (for the log and the history list)
    started_keys: tuple[str, ...] = ("players",)
    # virtual dice: (game, random.Random) -> the command that rolls them; None where the service rolls them itself
    virtual_roll: Callable[[Any, Any], tuple[str, dict[str, Any]]] | None = None
    # dice read in the tray: (game, [(colour name, pips 1-6 or None), ...]) -> the command that rolls them, or a
    # sentence saying why they are not a roll; None where the service settles tray readings itself (Skeptics)
    tray_roll: Callable[[Any, Sequence[tuple[str, int | None]]], tuple[str, dict[str, Any]] | str] | None = None
    # scripts the companion reads out with the voice, the OLED and every phone at once (Among Cultists' night, the
    # vote's countdown): (game, names, kind, pause seconds, language) -> steps [{"text", "pause", "screen", "buzz"}]
    scripts: Callable[[Any, Any, str, float, str], list[dict[str, Any]]] | None = None
    script_kinds: Mapping[str, str] = field(default_factory=dict)  # kind -> its title ("night" -> "The night")
    # what the host chooses at the start besides the players and their names, by kind ("bool", "int", "text"):
    # the page's wizard sends these keys and the engine's Setup checks their values
    setup_choices: Mapping[str, str] = field(default_factory=dict)
    seeded: bool = True  # its setup takes a seed (its shuffles); a game with nothing to shuffle (Spooks) takes none
    # what the table's one button plays: the first of these that is legal now (none: the game is played on the phones)
    button_commands: tuple[str, ...] = ("end-round",)

    def setup_from_dict(self, data: Mapping[str, Any]) -> Any:
        """The engine's Setup from its stored form (the "rules" key is the seam's, not the engine's)."""
        clean = {k: v for k, v in data.items() if k != "rules"}
        return self.setup.from_dict(clean)

    def setup_to_dict(self, setup: Any) -> dict[str, Any]:
        """The stored form of a setup: the engine's, with "rules" for every game but Skeptics (whose old files have
        none)."""
        data = {k: v for k, v in dict(setup.to_dict()).items() if k != "rules"}
        return data if self.rules == DEFAULT_RULES else {"rules": self.rules, **data}

    def new(self, setup: Any, packs: Any) -> Any:
        return self.game.new(setup, packs)

    def replay(self, setup: Any, packs: Any, commands: Sequence[Any]) -> Any:
        return self.game.replay(setup, packs, commands)


def sentences_of(words: Any) -> dict[str, Any]:
    """A module's sentence fields from a game's sentences module (Elder Sign's, Among Cultists', Spooks'): its
    ``Names.of_game``, ``describe_event(s)``, ``announcement``, ``command_sentence``, ``for_players``, and its
    ``action_label`` and ``end_summary``, which need neither the current player nor the minutes played."""

    def label(action: Mapping[str, Any], names: Any, current: Any) -> str:
        return str(words.action_label(action, names))

    def summary(view: Mapping[str, Any], names: Any, minutes: float | None) -> dict[str, Any]:
        return dict(words.end_summary(view, names))

    return {"names": words.Names.of_game, "describe_event": words.describe_event,
            "describe_events": words.describe_events, "announcement": words.announcement, "action_label": label,
            "command_sentence": words.command_sentence, "end_summary": summary, "for_players": words.for_players}


_LOADED: dict[str, GameModule] = {}


def module_for(rules: str | None) -> GameModule:
    """The module of a game's rules ("skeptics" when None); BadCommand names the games there are."""
    key = DEFAULT_RULES if rules in (None, "") else str(rules)
    if key not in RULES:
        raise BadCommand(f"unknown rules {key!r}; the companion plays: {', '.join(RULES)}.")
    if key not in _LOADED:
        found = importlib.import_module(RULES[key][1]).MODULE
        assert isinstance(found, GameModule) and found.rules == key
        _LOADED[key] = found
    return _LOADED[key]


def rules_of(setup: Mapping[str, Any]) -> str:
    """The rules a stored setup is for: its "rules" key, Skeptics without one."""
    value = setup.get("rules") if isinstance(setup, Mapping) else None
    return str(value) if value else DEFAULT_RULES
