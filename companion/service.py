"""The game service: the one owner of the game at the table, safe to use from many threads.

The web page, the buttons, the dice tray and the terminal all go through one
:class:`GameService`. Each command is checked by the rules engine, written to the history
file (one SQLite transaction, on disk when the commit returns) and only then published: the
new state becomes visible to :meth:`GameService.state` and the listeners are called, in
commit order, with the event records (the engine's events plus ``"id"`` and ``"seq"``).

    service = GameService(GameStore(path), load_packs(), rng=random.Random(7))
    service.new_game(Setup(players=3, board="asylum", ghost="child", seed=7))
    result = service.do("end-round")
    result.events   # [{"type": "round_ended", ..., "id": 12, "seq": 1}, ...]
"""

from __future__ import annotations

import logging
import math
import random
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.box import Box, BoxChange, BoxEdit, box_view
from companion.errors import BadCommand, CardsNeeded, CompanionError, HistoryError, IllegalCommand
from companion.games.base import DEFAULT_RULES, GameModule, module_for, rules_of
from companion.games.skeptics.sentences import (
    NO_NAMES,
    describe_event,
    for_players,
)
from companion.history import GameStore, StaleGameError, replay_game

if TYPE_CHECKING:
    from companion.games.skeptics.engine import Command, Game, Setup
    from companion.games.skeptics.packs import Packs
    from companion.games.skeptics.tray import TrayOutcome

__all__ = ["NO_GAME_MESSAGE", "CommandResult", "GameService", "Listener", "no_game_state"]

log = logging.getLogger(__name__)

#: fn(events, state): called after every commit, in commit order, from the committing thread.
Listener = Callable[[list[dict[str, Any]], dict[str, Any]], None]

# a script read out (GameService.narrate): the pause after each step, by default and at most, and how fast the
# voice is taken to speak when nothing measures its lines (espeak-ng's default 175 words a minute, a little slower
# so the phones never run ahead of it)
DEFAULT_PAUSE_S = 4.0
MIN_PAUSE_S, MAX_PAUSE_S = 0.5, 30.0
SPEECH_WORDS_PER_S = 2.5

NO_GAME_MESSAGE = (
    "No game yet. Start one: `companion game new --players 3 --board asylum --ghost child`, "
    "or from the host page."
)


@dataclass(frozen=True)
class CommandResult:
    """What one accepted command did: its event records and the state after it."""

    events: list[dict[str, Any]] = field(default_factory=list)
    state: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"events": self.events, "state": self.state}


def _copy(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars), much faster than copy.deepcopy.

    Every caller and listener gets its own copy, so none can change what the others see.
    """
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_copy(item) for item in value]
    return value


def _copy_state(state: dict[str, Any]) -> dict[str, Any]:
    copied: dict[str, Any] = _copy(state)
    return copied


def _copy_records(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    copied: list[dict[str, Any]] = _copy(records)
    return copied


def _arg_text(value: Any) -> str:
    """Command arguments stay strings in the history; accept the obvious Python values too."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(_arg_text(item) for item in value)
    if value is None:
        return "none"
    return str(getattr(value, "value", value))


class GameService:
    """One owner of the current game (see the module docstring).

    Every method is safe to call from any thread. Listeners run inside the service's lock,
    so they must return quickly (hand work to a queue) and must not call :meth:`do`.
    """

    def __init__(
        self,
        store: GameStore,
        packs: Packs,
        rng: random.Random | None = None,
        now: Callable[[], float] = time.time,
        box: Box | None = None,
        speech_language: str = "en",
        speech_length: Callable[[str], float | None] | None = None,
    ) -> None:
        self.store = store
        self.speech_language = speech_language  # the voice's language: a script read out is spoken in it
        # how long the voice takes to say a line (the hardware renders it), None where nothing speaks it; and
        # what renders a game's script lines ahead, in the background, when the game becomes the current one
        self.speech_length = speech_length
        self.speech_prepare: Callable[[list[str]], object] | None = None
        self.packs = packs
        self.box = box if box is not None else Box(None)
        self._rng = rng if rng is not None else random.Random()
        self._now = now
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._game: Game | None = None
        self._game_id: int | None = None
        self._name: str | None = None
        self._closed = False
        self._state: dict[str, Any] = no_game_state()
        self._names: Any = NO_NAMES
        self._module: GameModule = module_for(DEFAULT_RULES)
        self._packs_of: dict[str, Any] = {}  # the packs of the other games, loaded when one is first played
        self._started = 0.0
        self._redo: list[tuple[Command, str]] = []  # commands taken back by undo, newest last, with their sentence
        self._narration: dict[str, Any] | None = None  # the script being read out (not part of the game's history)
        self._narrations = 0

    # -- games -------------------------------------------------------------------------------

    def new_game(self, setup: Setup | Mapping[str, Any], *, name: str | None = None) -> dict[str, Any]:
        """Start and save a new game; it becomes the current one. Returns its state."""
        with self._lock:
            self._check_open()
            if isinstance(setup, Mapping):
                module = module_for(rules_of(setup))
                real_setup = module.setup_from_dict(setup)
            else:
                module = module_for(rules_of(setup.to_dict()))
                real_setup = setup
            game = module.new(real_setup, self.packs_for(module.rules))  # checks the setup before anything is written
            setup_json = module.setup_to_dict(real_setup)
            started: dict[str, Any] = {"type": "game_started"}
            if module.rules != DEFAULT_RULES:
                started["rules"] = module.rules
            started.update({key: setup_json[key] for key in module.started_keys if key in setup_json})
            game_id = self.store.create_game(setup_json, name=name, events=[started], at=self._now())
            return self._switch_to(game_id, game, name, self.store.events(game_id), module)

    def packs_for(self, rules: str) -> Any:
        """The packs of a game's rules: Skeptics' are the service's own (the box edits them), the others' load once."""
        if rules == DEFAULT_RULES:
            return self.packs
        if rules not in self._packs_of:
            # the owner's files for that game (Among Cultists' events.toml ...) sit in the box folder beside Skeptics'
            folder = self.box.folder if self.box.folder is not None and self.box.folder.is_dir() else None
            self._packs_of[rules] = module_for(rules).load_packs(folder)
        return self._packs_of[rules]

    def _replay(self, game_id: int) -> tuple[Any, GameModule]:
        module = module_for(rules_of(self.store.game(game_id).setup))
        return replay_game(self.store, game_id, self.packs_for(module.rules), module), module

    def say(self, message: str) -> str:
        """A refusal in the page's words, by the sentences of the game in play (no command spelling, no sections)."""
        return self._module.for_players(message)

    def describe(self, events: Iterable[Mapping[str, Any]]) -> list[str]:
        """The sentences of events of the current game (its module's words, its table's names)."""
        return list(self._module.describe_events(list(events), self._names))

    @property
    def rules(self) -> str:
        """The rules of the current game ("skeptics", "elder-sign", ...)."""
        return self._module.rules

    def load_game(self, game_id: int, *, make_current: bool = True) -> dict[str, Any]:
        """Load a saved game (replaying its commands) and return its state.

        With ``make_current`` (the default) the file remembers it as the last game played,
        so :meth:`resume_last` picks it next time.
        """
        with self._lock:
            self._check_open()
            info = self.store.game(game_id)
            game, module = self._replay(game_id)
            if make_current:
                self.store.touch(game_id, at=self._now())
            return self._switch_to(game_id, game, info.name, [], module)

    def resume_last(self) -> dict[str, Any] | None:
        """Make the most recently played game the current one; None if the history is empty.

        Nothing is written to the file (a read-only look such as `companion game state`
        uses it too).
        """
        with self._lock:
            self._check_open()
            game_id = self.store.last_game_id()
            if game_id is None:
                return None
            info = self.store.game(game_id)
            game, module = self._replay(game_id)
            return self._switch_to(game_id, game, info.name, [], module)

    def list_games(self) -> list[dict[str, Any]]:
        """Every saved game (id, name, setup, created, updated, status, commands, current)."""
        current = self._game_id
        return [{**info.to_dict(), "current": info.id == current} for info in self.store.list_games()]

    @property
    def game_id(self) -> int | None:
        return self._game_id

    @property
    def names(self) -> Any:
        """The current game's names (players, spaces, symbols) for :mod:`companion.games.skeptics.sentences`."""
        return self._names

    # -- reading -----------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The published state: game.view() plus "game_id", "name", "last_event_id" and "odds".

        Without a game: ``{"game_id": None, "outcome": None, "message": ...}``.
        """
        return _copy_state(self._state)

    def history(self) -> list[dict[str, Any]]:
        """The current game's accepted commands: {"seq", "command", "text", "source", "at"}.

        ``text`` is what the command did in plain words (the same sentences the page and the terminal show).
        """
        game_id = self._game_id
        if game_id is None:
            return []
        names = self._names
        events = self.store.command_events(game_id)
        return [
            {
                "seq": record.seq,
                "command": record.command,
                "text": self._module.command_sentence(record.command, names, events.get(record.seq, [])),
                "source": record.source,
                "at": record.at,
            }
            for record in self.store.commands(game_id)
        ]

    def events_since(self, last_id: int = 0) -> list[dict[str, Any]]:
        """The current game's event records with an id greater than ``last_id``, oldest first."""
        game_id = self._game_id
        if game_id is None:
            return []
        return self._narrate(self.store.events(game_id, after=int(last_id)))

    # -- commands ----------------------------------------------------------------------------

    def do(self, name: str, args: Mapping[str, Any] | None = None, source: str = "host") -> CommandResult:
        """Check, record and apply one command (see the command table in docs/DESIGN.md).

        Raises BadCommand / IllegalCommand (nothing changed) or HistoryError (nothing changed:
        the command could not be written, so it was taken back).
        """
        with self._lock:
            game, game_id = self._require_game()
            command = self._module.command.from_dict(
                {"name": name, "args": {str(k): _arg_text(v) for k, v in (args or {}).items()}}
            )
            return self._apply(game, game_id, command, source)

    def do_text(self, text: str, source: str = "host") -> CommandResult:
        """The same as :meth:`do` for the text form, e.g. ``"summon success=true"``."""
        with self._lock:
            game, game_id = self._require_game()
            return self._apply(game, game_id, self._module.command.parse(text), source)

    def roll_from_tray(
        self, roll: Mapping[Any, Any] | None, *, why: str, auto_roll: bool, problem: str | None = None
    ) -> tuple[TrayOutcome, CommandResult | None]:
        """Dice read in the tray (faces per kind of die, or why they could not be read): settled against the
        attempt under way, from the engine's own state, and rolled if they are exactly its dice. One operation
        under the lock, so no other command can come between the look at the attempt and the roll."""
        from companion.games.skeptics.engine import Command
        from companion.games.skeptics.tray import settle_reading

        with self._lock:
            game, game_id = self._require_game()
            self._skeptics_only("dice read in the tray")
            outcome = settle_reading(roll, game.state.attempt, why=why, auto_roll=auto_roll, problem=problem)
            if outcome.faces is None:
                return outcome, None
            command = Command("roll", {"faces": ",".join(face.value for face in outcome.faces)})
            return outcome, self._apply(game, game_id, command, "tray")

    def roll_from_dice_seen(self, dice: Sequence[tuple[str, int | None]], source: str = "tray") -> CommandResult:
        """Dice read in the tray by a game whose module settles them itself (Elder Sign's stand-in dice): the
        colours and pips become its roll, or IllegalCommand says in the table's words why they are not one."""
        with self._lock:
            game, _ = self._require_game()
            settle = self._module.tray_roll
            if settle is None:
                raise IllegalCommand("this game settles the tray's dice by their kinds; use roll_from_tray.")
            found = settle(game, list(dice))
            if isinstance(found, str):
                raise IllegalCommand(found)
            name, args = found
            return self.do(name, args, source=source)

    def roll_from_readings(self, faces: Iterable[Any], source: str = "tray") -> CommandResult:
        """Dice read by the camera (or typed in): one `roll` of the attempt under way."""
        return self.do("roll", {"faces": [_arg_text(face) for face in faces]}, source=source)

    def roll_virtual(self, command: str | None = None, source: str = "host") -> CommandResult:
        """Roll, with the injected Random, the dice the attempt under way needs, and record them.

        With ``command="summon"`` or ``"pull"`` the team's summon dice are rolled for that action.
        """
        from companion.games.skeptics.dice import DieKind, action_kind

        with self._lock:
            game, _ = self._require_game()
            if self._module.rules != DEFAULT_RULES:
                name, args = self._module_roll(game)
                return self.do(name, args, source=source)
            state = game.state
            if command in ("summon", "pull"):
                count = state.clues_solved  # one summon die per solved clue
                if count < 1:
                    raise IllegalCommand(
                        f"the team has no summon die yet, so there is nothing to roll for a {command}; "
                        "solve a clue first (each solved clue gives one)."
                    )
                faces = self._roll(DieKind.SUMMON, count)
                try:
                    return self.do(command, {"faces": faces}, source=source)
                except CardsNeeded as exc:  # physical decks: the same dice again once the cards are named
                    exc.faces = faces  # type: ignore[attr-defined]
                    raise
            if command not in (None, "roll"):
                raise IllegalCommand(f"virtual dice are rolled for an attempt, a summon or a pull, not for {command!r}.")
            attempt = state.attempt
            if attempt is None:
                raise IllegalCommand(
                    "no attempt is under way, so there are no dice to roll. Start one first "
                    "(search, solve, prove or unlock), or roll for a summon or a pull."
                )
            faces = self._roll(action_kind(attempt.action), attempt.dice_to_roll)
            try:
                return self.do("roll", {"faces": faces}, source=source)
            except CardsNeeded as exc:
                exc.faces = faces  # type: ignore[attr-defined]
                raise

    def replace_last(self, name: str, args: Mapping[str, Any], source: str = "host") -> CommandResult:
        """Correct the last roll, summon or pull (the tray misread a die): one operation under the lock.

        The last command must be a ``name``; it is taken back and ``name`` with ``args`` is played in its
        place. If the new one is refused, the old one is put back exactly and the refusal is raised.
        """
        with self._lock:
            game, game_id = self._require_game()
            command_type = self._module.command
            if not game.history or game.history[-1].name != name:
                raise IllegalCommand(f"the last command is not a {name}, so there is no read to correct.")
            old = game.history[-1]
            new = command_type.from_dict({"name": name, "args": {str(k): _arg_text(v) for k, v in args.items()}})
            game.pop()
            try:
                game.check(new)
            except CompanionError:
                game.push(old)
                raise
            game.push(old)
            self.undo(source=source)
            return self._apply(game, game_id, new, source)

    def _skeptics_only(self, what: str) -> None:
        if self._module.rules != DEFAULT_RULES:
            raise IllegalCommand(f"{what} are for Skeptics' dice; this game is {self._module.title}.")

    def _module_roll(self, game: Any) -> tuple[str, dict[str, Any]]:
        """Another game's virtual roll: its module says which dice and how they are written."""
        roll = self._module.virtual_roll
        if roll is None:
            raise IllegalCommand(f"the companion does not roll dice for {self._module.title}; enter the roll.")
        result: tuple[str, dict[str, Any]] = roll(game, self._rng)
        return result

    def _roll(self, kind: Any, count: int) -> list[str]:
        sides = [face.value for face, n in kind.sides.items() for _ in range(n)]
        return [self._rng.choice(sides) for _ in range(count)]

    # -- scripts read out ------------------------------------------------------------------------

    def narrate(self, kind: str, pause_s: float | None = None) -> dict[str, Any]:
        """Read out one of the game's scripts (Among Cultists' night, the vote's "3, 2, 1, point!") on the voice,
        the OLED and every phone at once: each step gets its time ("at", seconds from the start, rounded up to
        the hundredth): after the step before has been said ("speech_s": as long as ``speech_length`` measures
        its words, else its words at SPEECH_WORDS_PER_S) and its pause, or, for a step on a "beat", that many
        seconds after the step before began (the countdown keeps its time while a word fits). The published state
        carries the script under "narration" with a new id, so every listener plays it once. It is no command of the game: nothing is written, and the next
        command, undo or :meth:`stop_narration` ends it. Returns the state."""
        with self._lock:
            game, game_id = self._require_game()
            module = self._module
            if module.scripts is None or kind not in module.script_kinds:
                offered = ", ".join(module.script_kinds.values()) or "nothing"
                raise IllegalCommand(f"{module.title} has no {kind!r} to read out (it reads out: {offered}).")
            pause = DEFAULT_PAUSE_S if pause_s is None else pause_s
            if (not isinstance(pause, (int, float)) or isinstance(pause, bool) or pause != pause
                    or not MIN_PAUSE_S <= pause <= MAX_PAUSE_S):
                raise BadCommand(f"a pause is {MIN_PAUSE_S:g} to {MAX_PAUSE_S:g} seconds, not {pause_s!r}.")
            steps = [dict(step) for step in module.scripts(game, self._names, kind, float(pause), "en")]
            if self.speech_language != "en":
                try:
                    spoken = module.scripts(game, self._names, kind, float(pause), self.speech_language)
                except (CompanionError, KeyError, ValueError):
                    spoken = []  # the game has no script in the voice's language: the OLED and phones only
                if len(spoken) == len(steps):
                    for step, other in zip(steps, spoken, strict=True):
                        step["say"] = str(other.get("text") or "")
                else:
                    for step in steps:
                        step["say"] = ""
            at = 0.0
            for step in steps:
                at = math.ceil(round(at * 100, 6)) / 100  # never before the step before has ended
                step["at"] = at
                seconds = self._speech_seconds(str(step.get("say") or step.get("text") or ""))
                step["speech_s"] = round(seconds, 3)
                beat = step.get("beat")
                at += max(float(beat), seconds) if beat else seconds + float(step.get("pause") or 0)
            self._narrations += 1
            self._narration = {"id": f"{game_id}.{self._narrations}", "kind": kind, "title": module.script_kinds[kind],
                               "pause": float(pause), "steps": steps, "length": round(at, 2)}
            state = self._publish()
            self._notify([], state)
            return _copy_state(state)

    def script_lines(self) -> list[str]:
        """Every line the current game's scripts have the voice say (in its language, with the default pause), so
        the voice can render them before they are read out."""
        with self._lock:
            module, game = self._module, self._game
            if game is None or module.scripts is None:
                return []
            lines: list[str] = []
            for kind in module.script_kinds:
                try:
                    steps = module.scripts(game, self._names, kind, DEFAULT_PAUSE_S, self.speech_language)
                except (CompanionError, KeyError, ValueError):
                    continue  # no script in the voice's language: narrate says nothing aloud either
                lines += [str(step.get("text") or "") for step in steps]
            return [line for line in dict.fromkeys(lines) if line.strip()]

    def _speech_seconds(self, words: str) -> float:
        """How long the voice takes to say `words`: measured by the hardware when it can, else estimated."""
        measured = None
        if self.speech_length is not None and words.strip():
            try:
                measured = self.speech_length(words)
            except Exception:  # the voice is a nicety: a script is timed by its words when it cannot be measured
                log.exception("the length of a line could not be measured")
        return float(measured) if measured is not None else len(words.split()) / SPEECH_WORDS_PER_S

    def stop_narration(self) -> dict[str, Any]:
        """Stop the script being read out (the voice stops, the OLED and phones go back to the game)."""
        with self._lock:
            self._check_open()
            if self._narration is None:
                return _copy_state(self._state)
            self._narration = None
            state = self._publish()
            self._notify([], state)
            return _copy_state(state)

    def undo(self, source: str = "host") -> CommandResult:
        """Take back the last command; undoing a draw puts exactly that card back. :meth:`redo` plays it again."""
        with self._lock:
            game, game_id = self._require_game()
            if not game.history:
                raise IllegalCommand("there is nothing to undo: no command has been given in this game yet.")
            seq = len(game.history)
            command = game.pop()
            try:
                record = self.store.undo(
                    game_id, seq, source=source, at=self._now(),
                    status=self._status(game), extra={"history_length": seq - 1},
                )
            except StaleGameError:
                self._reload()
                raise
            except BaseException:
                game.push(command)  # the file still has it, so the game keeps it too
                raise
            # What was taken back, in words, from the events the undo record carries (no second read of the file).
            said = self._module.command_sentence(command.to_dict(), self._names, record.get("events") or [])
            self._redo.append((command, said))
            self._narration = None
            state = self._publish()
            records = self._narrate([record])
            self._notify(records, state)
            return CommandResult(_copy_records(records), _copy_state(state))

    def redo(self, source: str = "host") -> CommandResult:
        """Play again the command the last undo took back (a draw draws the same card, dice show the same faces)."""
        with self._lock:
            game, game_id = self._require_game()
            if not self._redo:
                raise IllegalCommand("there is nothing to redo: redo plays again what undo took back, and nothing was.")
            command, _ = self._redo[-1]
            redo = self._redo[:-1]
            result = self._apply(game, game_id, command, source, keep_redo=redo)
            return result

    # -- your box ----------------------------------------------------------------------------

    def box_view(self) -> dict[str, Any]:
        """The cards of the copy on the table as the "Your box" page shows them (companion.box.box_view)."""
        with self._lock:
            return box_view(self.packs, self.box)

    def edit_box(self, section: str, key: str, fields: Mapping[str, Any]) -> dict[str, Any]:
        """Fill in one entry of the box; returns {"said", "box"}. The game in play goes on with the new cards.

        Raises BadCommand for a malformed edit and PackError when the packs' validation refuses it (naming
        the entry and the field) or when the game in play no longer fits (nothing is written then)."""
        with self._lock:
            self._check_open()
            change = self.box.edit(self.packs, BoxEdit(section, key, dict(fields)))
            return self._use_box(change, f"Saved: {change.what}.")

    def import_box(self, data: Any) -> dict[str, Any]:
        """Replace the whole box with a box file (as export_box makes it); returns {"said", "box"}."""
        with self._lock:
            self._check_open()
            change = self.box.parse_import(data)
            return self._use_box(change, "Your box is back as the file had it.")

    def export_box(self) -> dict[str, Any]:
        """The whole box as one value to save in a file and share (companion.box.Box.export)."""
        with self._lock:
            return self.box.export()

    def _use_box(self, change: BoxChange, said: str) -> dict[str, Any]:
        from companion.errors import PackError
        from companion.games.skeptics.engine import Game

        if not self.box.is_writable:
            raise PackError("this companion has no folder to keep your box in; set game.packs_dir in the "
                            "configuration file (docs/packs.md).")
        from companion.box import OTHER_FILES

        packs = self.box.check(change)
        others = {OTHER_FILES[rel] for rel in change.files if rel in OTHER_FILES}
        game = None
        try:
            if self._game is not None and self._module.rules == DEFAULT_RULES:
                game = Game.replay(self._game.setup, packs, self._game.history)
            elif self._game is not None and self._module.rules in others:
                game = self._module.replay(self._game.setup, self.box.among_cultists_packs(change), self._game.history)
        except CompanionError as exc:
            raise PackError(
                "that change does not fit the game being played, so nothing was saved "
                f"({for_players(str(exc))}). Make it between games."
            ) from None
        self.box.save(change)
        self.packs = packs
        for rules in others:
            self._packs_of.pop(rules, None)  # loaded again, from the box folder, when next needed
        if game is not None and self._game_id is not None:
            redo = self._redo
            self._game = game
            self._names = self._module.names(game)
            self._redo = redo
            self._notify([], self._publish())
        return {"said": said, "box": box_view(self.packs, self.box)}

    # -- listeners    # -- listeners ---------------------------------------------------------------------------

    def add_listener(self, fn: Listener) -> None:
        """Call ``fn(events, state)`` after every commit (and with ``[]`` when another game is loaded)."""
        with self._lock:
            self._listeners.append(fn)

    def remove_listener(self, fn: Listener) -> None:
        with self._lock:
            try:
                self._listeners.remove(fn)
            except ValueError:
                pass

    def close(self) -> None:
        """Forget the listeners and close the history file."""
        with self._lock:
            if not self._closed:
                self._closed = True
                self._listeners.clear()
                self.store.close()

    def __enter__(self) -> GameService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- inside ------------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise HistoryError("the game service is closed; start the companion again.")

    def _require_game(self) -> tuple[Game, int]:
        self._check_open()
        if self._game is None or self._game_id is None:
            raise IllegalCommand(NO_GAME_MESSAGE)
        return self._game, self._game_id

    def _switch_to(self, game_id: int, game: Game, name: str | None, records: list[dict[str, Any]],
                   module: GameModule | None = None) -> dict[str, Any]:
        """Make `game` the current one, publish its state and tell the listeners; returns a copy of the state."""
        self._game, self._game_id, self._name = game, game_id, name
        self._module = module if module is not None else module_for(DEFAULT_RULES)
        self._started = self.store.game(game_id).created
        self._names = self._module.names(game)
        self._redo = []
        self._narration = None
        state = self._publish()
        self._notify(records, state)
        if self.speech_prepare is not None:
            try:
                self.speech_prepare(self.script_lines())
            except Exception:  # the voice is a nicety: a game starts whatever it says
                log.exception("the game's script lines could not be rendered ahead")
        return _copy_state(state)

    def _reload(self) -> None:
        """Rebuild the current game from the file (after another program changed it)."""
        if self._game_id is None:
            return
        game, _ = self._replay(self._game_id)
        self._game = game
        self._redo = []
        self._publish()

    @staticmethod
    def _status(game: Game) -> str:
        outcome = game.outcome
        return outcome.result if outcome is not None else "playing"

    def _apply(
        self, game: Game, game_id: int, command: Command, source: str, keep_redo: list[tuple[Command, str]] | None = None
    ) -> CommandResult:
        try:
            events = game.push(command)  # checked: raises BadCommand / IllegalCommand, nothing changed
        except CompanionError:
            raise
        except Exception:
            # A fault in the engine must not leave a half-changed game behind: the file is the truth.
            log.exception("the rules engine failed on %s; rebuilding the game from the history", command)
            self._reload()
            raise
        seq = len(game.history)
        try:
            records = self.store.append(
                game_id, seq, command.to_dict(), events, source=source, at=self._now(), status=self._status(game)
            )
        except StaleGameError:
            game.pop()
            self._reload()
            raise
        except BaseException:
            game.pop()  # not written, so not played
            raise
        self._redo = keep_redo if keep_redo is not None else []
        self._narration = None  # a command ends the script being read out
        records = self._narrate(records)
        state = self._publish(records[-1]["id"] if records else None)
        self._notify(records, state)
        return CommandResult(_copy_records(records), _copy_state(state))

    def _publish(self, last_event_id: int | None = None) -> dict[str, Any]:
        game, game_id = self._game, self._game_id
        if game is None or game_id is None:
            self._state = no_game_state()
            return self._state
        state: dict[str, Any] = dict(game.view())
        state["game_id"] = game_id
        state["name"] = self._name
        state["last_event_id"] = self.store.last_event_id(game_id) if last_event_id is None else last_event_id
        module = self._module
        state.setdefault("rules", module.rules)
        state["rules_title"] = module.title
        state.update(module.publish(state, game))
        current = state.get("current_player")
        state["legal"] = [
            {**action.to_dict(), "label": module.action_label(action.to_dict(), self._names, current)}
            for action in game.legal_actions()
        ]
        state["redo"] = self._redo[-1][1] if self._redo else None
        state["started"] = self._started  # when the game was created: with game_id, names it across restores
        if self._narration is not None:  # a script being read out (none: the key is left out)
            state["narration"] = self._narration
        if state.get("outcome"):
            info = self.store.game(game_id)
            state["summary"] = module.end_summary(state, self._names, max(0.0, (info.updated - info.created) / 60))
        self._state = state
        return state

    def _narrate(self, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Each event record gains its sentence ("text"); the first of a command also the whole "story",
        and the big moments an "announce" banner for every phone."""
        names, module = self._names, self._module
        by_seq: dict[tuple[str, int], list[dict[str, Any]]] = {}
        for record in records:
            key = ("undo" if record.get("type") == "undone" else "command", int(record.get("seq") or 0))
            by_seq.setdefault(key, []).append(record)
        out: list[dict[str, Any]] = []
        told: set[tuple[str, int]] = set()
        for record in records:
            record = dict(record)
            kind = record.get("type")
            if kind == "undone" and module.rules != DEFAULT_RULES:
                record["text"] = "Undone: " + module.command_sentence(record.get("command"), names,
                                                                      record.get("events") or [])
            elif kind == "undone":
                record["text"] = describe_event(record, names)  # "Undone: " and what the command did
            else:
                record["text"] = module.describe_event(record, names)
                banner = module.announcement(record, names)
                if banner is not None:
                    record["announce"] = banner
            key = ("undo" if kind == "undone" else "command", int(record.get("seq") or 0))
            if key not in told:
                told.add(key)
                group = by_seq[key]
                record["story"] = record["text"] if kind == "undone" else " ".join(module.describe_events(group, names))
            out.append(record)
        return out

    def _notify(self, records: list[dict[str, Any]], state: dict[str, Any]) -> None:
        for fn in list(self._listeners):
            try:
                fn(_copy_records(records), _copy_state(state))
            except Exception:
                log.exception("a game listener (%r) failed; the command stands and the other listeners were called", fn)


def no_game_state() -> dict[str, Any]:
    """What :meth:`GameService.state` returns while there is no game."""
    return {
        "game_id": None,
        "name": None,
        "last_event_id": 0,
        "odds": None,
        "outcome": None,
        "history_length": 0,
        "message": NO_GAME_MESSAGE,
    }


def _odds(state: Mapping[str, Any]) -> float | None:
    """The chance that the attempt under way succeeds (companion.games.skeptics.attempt_odds)."""
    from companion.games.skeptics.module import attempt_odds

    return attempt_odds(state)


def _summon_odds(state: Mapping[str, Any]) -> float | None:
    """The chance that a summon or pull succeeds (companion.games.skeptics.summon_odds)."""
    from companion.games.skeptics.module import summon_odds

    return summon_odds(state)
