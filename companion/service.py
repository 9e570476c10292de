"""The game service: the one owner of the game at the table, safe to use from many threads.

The web page, the buttons, the dice tray and the terminal all go through one
:class:`GameService`. Each command is checked by the rules engine, written to the history
file (one SQLite transaction, on disk when the commit returns) and only then published: the
new state becomes visible to :meth:`GameService.state` and the listeners are called, in
commit order, with the event records (the engine's events plus ``"id"`` and ``"seq"``). The state and the
records are one for everyone, the caller, every listener and state(), copied for nobody: read them, and change
a copy (:class:`ReadOnlyDict`).

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
from typing import Any, NoReturn, TypeVar

from companion.box import Box, BoxChange, BoxEdit, box_view
from companion.commands import CommandBase
from companion.errors import BadCommand, CardsNeeded, CompanionError, EngineFault, HistoryError, IllegalCommand
from companion.games.base import Engine, GameModule, SeenDie, SetupLike, TableDice, TrayOutcome, module_for, rules_of
from companion.history import GameStore, StaleGameError, replay_game
from companion.tray_readings import TrayReadings

__all__ = [
    "NO_GAME_MESSAGE",
    "CommandResult",
    "GameService",
    "Listener",
    "ReadOnlyDict",
    "ReadOnlyList",
    "no_game_state",
    "read_only",
]

log = logging.getLogger(__name__)

_T = TypeVar("_T")

ENGINE_FAULT = (
    "the companion could not work that out (a fault in its rules): nothing was played and the game is as it was. "
    "The companion's log has the details for a bug report."
)

#: fn(events, state): called after every commit, in commit order, from the committing thread.
Listener = Callable[[list[dict[str, Any]], dict[str, Any]], None]

# a script read out (GameService.narrate): the pause after each step, by default and at most, and how fast the
# voice is taken to speak when nothing measures its lines (espeak-ng's default 175 words a minute, a little slower
# so the phones never run ahead of it)
DEFAULT_PAUSE_S = 4.0
MIN_PAUSE_S, MAX_PAUSE_S = 0.5, 30.0
SPEECH_WORDS_PER_S = 2.5

NO_GAME_MESSAGE = (
    "No game yet. Start one: `companion game new --players 3 --board asylum --ghost child`, or from the host page."
)


@dataclass(frozen=True)
class CommandResult:
    """What one accepted command did: its event records and the state after it."""

    events: list[dict[str, Any]] = field(default_factory=list)
    state: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"events": self.events, "state": self.state}


class ReadOnlyDict(dict[str, Any]):
    """A dict that refuses every change: the published state, its event records, and what outlives one state (its
    legal actions, the script being read out). One of each is handed to every caller and listener, none copied;
    read it as a dict (JSON, ``==``, ``get``), and to change it change a copy: ``dict(state)``, or
    ``copy.deepcopy(state)`` (plain dicts and lists all the way down)."""

    __slots__ = ()

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError(READ_ONLY)

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self) -> tuple[type, tuple[dict[str, Any]]]:
        return dict, (dict(self),)  # a copy (copy.deepcopy, pickle) is a plain dict, to change at will


class ReadOnlyList(list[Any]):
    """A list that refuses every change (see :class:`ReadOnlyDict`); ``list(x)`` is a copy to change."""

    __slots__ = ()

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError(READ_ONLY)

    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = remove = pop = clear = sort = reverse = _refuse

    def __reduce__(self) -> tuple[type, tuple[list[Any]]]:
        return list, (list(self),)


READ_ONLY = (
    "the published state is shared by every caller and listener, so it cannot be changed: "
    "change a copy of it instead (dict(state), or copy.deepcopy(state))."
)


# taken as they are: the values nobody can change, and what is read-only already
_KEPT = frozenset({str, int, float, bool, type(None), ReadOnlyDict, ReadOnlyList})


def read_only(value: Any) -> Any:
    """`value` (JSON-like data) with every dict and list made read-only, all the way down; what is read-only already
    (what a state keeps from the one before, made once) is taken as it is. A scalar is taken without a call: this
    runs over every published state."""
    kind = type(value)
    if kind is dict:
        return ReadOnlyDict({key: item if type(item) in _KEPT else read_only(item) for key, item in value.items()})
    if kind is list or kind is tuple:
        return ReadOnlyList([item if type(item) in _KEPT else read_only(item) for item in value])
    if kind in _KEPT:
        return value
    if isinstance(value, dict):
        return ReadOnlyDict({key: read_only(item) for key, item in value.items()})
    if isinstance(value, (list, tuple)):
        return ReadOnlyList(read_only(item) for item in value)
    return value


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
        packs: Any,
        rng: random.Random | None = None,
        now: Callable[[], float] = time.time,
        box: Box | None = None,
        speech_language: str = "en",
        speech_length: Callable[[str], float | None] | None = None,
        table_dice: TableDice | None = None,
    ) -> None:
        self.store = store
        self.speech_language = speech_language  # the voice's language: a script read out is spoken in it
        # how long the voice takes to say a line (the hardware renders it), None where nothing speaks it; and
        # what renders a game's script lines ahead, in the background, when the game becomes the current one
        self.speech_length = speech_length
        self.speech_prepare: Callable[[list[str]], object] | None = None
        self.packs = packs  # the packs the box edits (of the game Box.rules names), validated
        self.box = box if box is not None else Box(None)
        self.table_dice = table_dice if table_dice is not None else TableDice()  # [tray.kinds], [dice.pips]
        self._rng = rng if rng is not None else random.Random()
        self._now = now
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._game: Engine | None = None
        self._game_id: int | None = None
        self._name: str | None = None
        self._closed = False
        self._state: dict[str, Any] = ReadOnlyDict(no_game_state())  # the published state, one for everyone
        self._names: object = None  # the current game's names for its sentences (its module's)
        self._module: GameModule = module_for(None)
        self._packs_of: dict[str, object] = {}  # the packs of the other games, loaded when one is first played
        self._started = 0.0
        self._redo: list[tuple[CommandBase, str]] = []  # commands taken back by undo, newest last, with their sentence
        self._narration: ReadOnlyDict | None = None  # the script being read out (not part of the game's history)
        self._narrations = 0
        self._box_saves = 0  # box changes saved: an edit checked outside the lock is checked again if one came between
        self._tray = TrayReadings()  # the tray's newest reading: played as a roll at most once
        # the published form of each legal action (with its label) for the current game's names and the current
        # player, by the action's id or by what it is, made once and read-only: the same few dozen come back
        self._legal_memo: tuple[object, dict[object, dict[object, tuple[object, dict[str, Any]]]]] = (None, {})

    # -- games -------------------------------------------------------------------------------

    def new_game(self, setup: SetupLike | Mapping[str, Any], *, name: str | None = None) -> dict[str, Any]:
        """Start and save a new game; it becomes the current one. Returns its state."""
        with self._lock:
            self._check_open()
            module = module_for(rules_of(setup if isinstance(setup, Mapping) else setup.to_dict()))
            real_setup = module.setup_of(setup)
            game = module.new(real_setup, self.packs_for(module.rules))  # checks the setup before anything is written
            setup_json = module.setup_to_dict(real_setup)
            started: dict[str, Any] = {"type": "game_started"}
            if "rules" in setup_json:  # the stored setup names its rules: so does the event
                started["rules"] = module.rules
            started.update({key: setup_json[key] for key in module.started_keys if key in setup_json})
            game_id = self.store.create_game(setup_json, name=name, events=[started], at=self._now())
            return self._switch_to(game_id, game, name, self.store.events(game_id), module)

    def packs_for(self, rules: str) -> Any:
        """The packs of a game's rules: those the box edits are the service's own, the others' load once."""
        if rules == self.box.rules:
            return self.packs
        with self._lock:
            return self._other_packs(rules)

    def _other_packs(self, rules: str) -> Any:
        if rules not in self._packs_of:
            # the owner's files for that game (Among Cultists' events.toml ...) sit in the box folder beside Skeptics';
            # a damaged one: the bundled packs play, and problems() says so
            self._packs_of[rules] = self.box.game_packs(module_for(rules))
        return self._packs_of[rules]

    def problems(self) -> list[str]:
        """What the host must mend: the history kept in memory (a full disk), the box's damaged files."""
        found = [self.store.problem] if self.store.problem else []
        return [*found, *self.box.problems.values()]

    def _replay(self, game_id: int) -> tuple[Engine, GameModule]:
        module = module_for(rules_of(self.store.game(game_id).setup))
        return replay_game(self.store, game_id, self.packs_for(module.rules), module), module

    def say(self, message: str) -> str:
        """A refusal in the page's words, by the sentences of the game in play (no command spelling, no sections),
        each player by the name the table gave them (its module's for_players, with the table's names)."""
        return self._module.for_players(message, self._names, self._state.get("current_player"))

    def describe(self, events: Iterable[Mapping[str, Any]]) -> list[str]:
        """The sentences of events of the current game (its module's words, its table's names)."""
        return list(self._module.describe_events(list(events), self._names))

    @property
    def module(self) -> GameModule:
        """The module of the current game (companion.games.base), for what a part asks of the game itself."""
        return self._module

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
    def names(self) -> object:
        """The current game's names (players, spaces, symbols) for its module's sentences."""
        return self._names

    # -- reading -----------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The published state: game.view() plus "game_id", "name", "last_event_id" and "odds".

        Without a game: ``{"game_id": None, "outcome": None, "message": ...}``. The one published state, shared
        with every listener and caller: read-only (:class:`ReadOnlyDict`), a copy is for changing.
        """
        return self._state

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
            return self._apply(game, game_id, self._command(name, args), source)

    def check(self, name: str, args: Mapping[str, Any] | None = None) -> None:
        """Raise BadCommand / IllegalCommand as :meth:`do` would refuse the command now; nothing is played,
        written or told. A page asks it before its own question (Spooks' "So many points?"), so the engine's
        refusal comes first, from the one place it is made."""
        with self._lock:
            game, _ = self._require_game()
            self._engine(game.check, self._command(name, args))

    def _command(self, name: str, args: Mapping[str, Any] | None) -> CommandBase:
        return self._module.command_from_dict(
            {"name": name, "args": {str(k): _arg_text(v) for k, v in (args or {}).items()}}
        )

    def do_text(self, text: str, source: str = "host") -> CommandResult:
        """The same as :meth:`do` for the text form, e.g. ``"summon success=true"``."""
        with self._lock:
            game, game_id = self._require_game()
            return self._apply(game, game_id, self._module.parse_command(text), source)

    def roll_from_tray(
        self, dice: Sequence[SeenDie], *, why: str = "settled", auto_roll: bool = True, reading: int | None = None
    ) -> tuple[TrayOutcome, CommandResult | None]:
        """Dice read in the tray (their colours and pips): the game's module says whether they are its roll now
        (the attempt under way, the dice the next roll throws) and what the table is told; a roll is played with
        source "tray". One operation under the lock, so no other command comes between the look and the roll.

        Each new reading is numbered (companion.tray_readings); ``reading`` plays that one again when the host asks
        (the page's "Use these dice", whose ``dice`` are ignored: the service's own are played). A reading is played
        at most once and never after the game moved on since it was read: IllegalCommand, nothing played. An empty
        tray come to rest (the dice taken out, vision.tray) is the newest reading, and goes to no module: nothing is
        rolled or told."""
        with self._lock:
            game, game_id = self._require_game()
            mark = self._state.get("last_event_id")
            if reading is None:
                seen = self._tray.add(dice, game_id=game_id, mark=mark, at=self._now())
                if not seen.dice and why == "settled":
                    return TrayOutcome(note="the tray is empty: the dice were taken out", quiet=True), None
            else:
                seen = self._tray.take(reading, game_id=game_id, mark=mark)
            outcome = self._module.tray_roll(game, list(seen.dice), self.table_dice, why=why, auto_roll=auto_roll)
            if outcome.command is None:
                if reading is not None:
                    raise IllegalCommand(outcome.tell or outcome.note or "those dice are not the roll now under way.")
                return outcome, None
            name, args = outcome.command
            result = self._apply(game, game_id, self._module.command_type(name, args), "tray")
            self._tray.played(seen)
            return outcome, result

    def tray_reading(self) -> dict[str, Any] | None:
        """The tray's newest reading as the service took it: its number, dice and time, whether it was played and
        whether it may be played now (and why not); None before the first and when it was read in another game."""
        with self._lock:
            return self._tray.view(game_id=self._game_id, mark=self._state.get("last_event_id"))

    def next_throw(self) -> tuple[str, ...]:
        """The dice the roll under way throws now (kinds or colours, see GameModule.next_throw); none when no roll
        is under way or no game. --sim's tray throws them when a person taps (vision.sim_tray.Thrower)."""
        with self._lock:
            game = self._game
            return () if game is None else tuple(self._module.next_throw(game))

    def over(self) -> bool:
        """Whether the game has ended (won or lost): no roll comes in it (--sim's tray says so, not "end the turn")."""
        with self._lock:
            game = self._game
            return game is not None and game.outcome is not None

    def roll_virtual(self, command: str | None = None, source: str = "host") -> CommandResult:
        """Roll, with the injected Random, the dice the game needs now (its module says which), and record them.

        With ``command`` (Skeptics' ``"summon"`` or ``"pull"``) the dice are rolled for that action. A roll that
        draws from the real decks raises CardsNeeded carrying the faces (``faces``), to roll the same again."""
        with self._lock:
            game, _ = self._require_game()
            name, args = self._module.virtual_roll(game, self._rng, command)
            try:
                return self.do(name, args, source=source)
            except CardsNeeded as exc:  # physical decks: the same dice again once the cards are named
                exc.faces = args.get("faces", "").split(",")  # type: ignore[attr-defined]
                raise

    def press_button(self, source: str = "button") -> CommandResult:
        """The table's one button: the command the game's module says it plays now (Skeptics' end of the round,
        Elder Sign's end of the turn, Among Cultists' next phase); IllegalCommand where it plays none."""
        with self._lock:
            game, game_id = self._require_game()
            name = self._module.button_command([action.name for action in game.legal_actions()])
            if name is None:
                raise IllegalCommand(f"{self._module.title} is played on the phones; the button does nothing in it.")
            return self._apply(game, game_id, self._module.command_type(name, {}), source)

    def replace_last(self, name: str, args: Mapping[str, Any], source: str = "host") -> CommandResult:
        """Correct the last roll, summon or pull (the tray misread a die): one operation under the lock.

        The last command must be a ``name``; it is taken back and ``name`` with ``args`` is played in its
        place. If the new one is refused, the old one is put back exactly and the refusal is raised.
        """
        with self._lock:
            game, game_id = self._require_game()
            if not game.history or game.history[-1].name != name:
                raise IllegalCommand(f"the last command is not a {name}, so there is no read to correct.")
            old = game.history[-1]
            new = self._command(name, args)
            game.pop()
            try:
                self._engine(game.check, new)  # a fault rebuilds the game from the file, which still has `old`
            except EngineFault:
                raise
            except CompanionError:
                game.push(old)
                raise
            game.push(old)
            self.undo(source=source)
            return self._apply(game, game_id, new, source)

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
            if kind not in module.script_kinds:
                offered = ", ".join(module.script_kinds.values()) or "nothing"
                raise IllegalCommand(f"{module.title} has no {kind!r} to read out (it reads out: {offered}).")
            pause = DEFAULT_PAUSE_S if pause_s is None else pause_s
            if (
                not isinstance(pause, (int, float))
                or isinstance(pause, bool)
                or pause != pause
                or not MIN_PAUSE_S <= pause <= MAX_PAUSE_S
            ):
                raise BadCommand(f"a pause is {MIN_PAUSE_S:g} to {MAX_PAUSE_S:g} seconds, not {pause_s!r}.")
            steps: list[dict[str, Any]] = [
                dict(step) for step in module.scripts(game, self._names, kind, float(pause), "en")
            ]
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
            self._narration = read_only(  # published in every state until it ends: read-only, made once
                {
                    "id": f"{game_id}.{self._narrations}",
                    "kind": kind,
                    "title": module.script_kinds[kind],
                    "pause": float(pause),
                    "steps": steps,
                    "length": round(at, 2),
                }
            )
            state = self._publish()
            self._notify([], state)
            return state

    def script_lines(self) -> list[str]:
        """Every line the current game's scripts have the voice say (in its language, with the default pause), so
        the voice can render them before they are read out."""
        with self._lock:
            module, game = self._module, self._game
            if game is None or not module.script_kinds:
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
                return self._state
            self._narration = None
            state = self._publish()
            self._notify([], state)
            return state

    def undo(self, source: str = "host") -> CommandResult:
        """Take back the last command; undoing a draw puts exactly that card back. :meth:`redo` plays it again."""
        with self._lock:
            game, game_id = self._require_game()
            if not game.played:
                raise IllegalCommand("there is nothing to undo: no command has been given in this game yet.")
            seq = game.played
            command = game.pop()
            try:
                record = self.store.undo(
                    game_id,
                    seq,
                    source=source,
                    at=self._now(),
                    status=self._status(game),
                    extra={"history_length": seq - 1},
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
            return CommandResult(records, state)

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
        self._check_open()
        edit = BoxEdit(section, key, dict(fields))
        saves = self._box_saves
        change = self.box.edit(self.packs, edit)  # read and checked outside the lock: the table plays on
        packs = self.box.check(change)
        with self._lock:
            self._check_open()
            if saves != self._box_saves:  # another change was saved meanwhile: made again on the box as it is now
                change = self.box.edit(self.packs, edit)
                packs = self.box.check(change)
            return self._use_box(change, f"Saved: {change.what}.", packs)

    def import_box(self, data: Any) -> dict[str, Any]:
        """Replace the whole box with a box file (as export_box makes it); returns {"said", "box"}."""
        self._check_open()
        saves = self._box_saves
        change = self.box.parse_import(data)  # bounded (companion.toml_text) and outside the lock
        packs = self.box.check(change)
        with self._lock:
            self._check_open()
            if saves != self._box_saves:  # another change was saved meanwhile: checked with the box as it is now
                packs = self.box.check(change)
            return self._use_box(change, "Your box is back as the file had it.", packs)

    def export_box(self) -> dict[str, Any]:
        """The whole box as one value to save in a file and share (companion.box.Box.export)."""
        with self._lock:
            return self.box.export()

    def _use_box(self, change: BoxChange, said: str, packs: Any) -> dict[str, Any]:
        """Save `change` and play on with `packs` (the packs with it, checked); under the lock."""
        from companion.box import NO_BOX_FOLDER, OTHER_FILES
        from companion.errors import PackError

        if not self.box.is_writable:
            raise PackError(NO_BOX_FOLDER)

        others = {OTHER_FILES[rel] for rel in change.files if rel in OTHER_FILES}
        game = None
        # what each command caused when it was played: the game replays in the reading it was played in (read_stored)
        stored = None
        if self._game is not None and self._game_id is not None:
            stored = self.store.events_per_command(self._game_id, self._game.played)
        try:
            if self._game is not None and self._module.rules == self.box.rules:
                game = self._module.replay(self._game.setup, packs, self._game.history, stored)
            elif self._game is not None and self._module.rules in others:
                game = self._module.replay(
                    self._game.setup, self.box.other_packs(self._module.rules, change), self._game.history, stored
                )
        except CompanionError as exc:
            raise PackError(
                "that change does not fit the game being played, so nothing was saved "
                f"({self._module.for_players(str(exc))}). Make it between games."
            ) from None
        self.box.save(change)
        self._box_saves += 1
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

    # -- listeners ---------------------------------------------------------------------------

    def add_listener(self, fn: Listener) -> None:
        """Call ``fn(events, state)`` after every commit (and with ``[]`` when another game is loaded). Every listener
        is handed the same records and state, read-only (:class:`ReadOnlyDict`): one that keeps or changes them
        makes its own copy."""
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

    def _require_game(self) -> tuple[Engine, int]:
        self._check_open()
        if self._game is None or self._game_id is None:
            raise IllegalCommand(NO_GAME_MESSAGE)
        return self._game, self._game_id

    def _switch_to(
        self, game_id: int, game: Engine, name: str | None, records: list[dict[str, Any]], module: GameModule
    ) -> dict[str, Any]:
        """Make `game` the current one, publish its state and tell the listeners; returns the state."""
        self._game, self._game_id, self._name = game, game_id, name
        self._module = module
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
        return state

    def _reload(self) -> None:
        """Rebuild the current game from the file (after another program changed it)."""
        if self._game_id is None:
            return
        game, _ = self._replay(self._game_id)
        self._game = game
        self._redo = []
        self._publish()

    @staticmethod
    def _status(game: Engine) -> str:
        outcome = game.outcome
        return outcome.result if outcome is not None else "playing"

    def _engine(self, step: Callable[[CommandBase], _T], command: CommandBase) -> _T:
        """`step(command)` on the rules engine (its push or check), under the lock. Its refusals (CompanionError) go
        out as they are; any other fault is logged with the command, the game is rebuilt from the history (a fault
        must not leave a half-changed game behind: the file is the truth) and it is answered with EngineFault."""
        try:
            return step(command)
        except CompanionError:
            raise
        except Exception as exc:
            log.exception("the rules engine failed on %s; rebuilding the game from the history", command)
            self._reload()
            raise EngineFault(ENGINE_FAULT) from exc

    def _apply(
        self,
        game: Engine,
        game_id: int,
        command: CommandBase,
        source: str,
        keep_redo: list[tuple[CommandBase, str]] | None = None,
    ) -> CommandResult:
        events = self._engine(game.push, command)  # checked: raises BadCommand / IllegalCommand, nothing changed
        seq = game.played
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
        return CommandResult(records, state)

    def _publish(self, last_event_id: int | None = None) -> dict[str, Any]:
        """Make the state every caller and listener reads (one, read-only; see ReadOnlyDict) and return it.

        Every dict and list in it refuses changes, all the way down: what it keeps from one state to the next (the
        legal actions, the script read out) is made read-only once, the engine's view afresh for this state, so no
        listener can change what another one, or state(), sees (tests/test_service_copies.py)."""
        game, game_id = self._game, self._game_id
        if game is None or game_id is None:
            self._state = ReadOnlyDict(no_game_state())
            return self._state
        state: dict[str, Any] = dict(game.view())
        state["game_id"] = game_id
        state["name"] = self._name
        state["last_event_id"] = self.store.last_event_id(game_id) if last_event_id is None else last_event_id
        module = self._module
        state.setdefault("rules", module.rules)
        state["rules_title"] = module.title
        state.update(module.publish(state, game))
        state["legal"] = self._legal_published(game, state.get("current_player"))
        state["redo"] = self._redo[-1][1] if self._redo else None
        state["started"] = self._started  # when the game was created: with game_id, names it across restores
        if self._narration is not None:  # a script being read out (none: the key is left out)
            state["narration"] = self._narration
        if state.get("outcome"):
            info = self.store.game(game_id)
            state["summary"] = module.end_summary(state, self._names, max(0.0, (info.updated - info.created) / 60))
            luck = self._luck_of(game_id)
            if luck is not None:
                state["summary"]["luck"] = luck  # the dice's luck this game, in words (companion.record, .stats)
        published: ReadOnlyDict = read_only(state)  # all the way down: one state for everyone, nobody changes it
        self._state = published
        return published

    def _legal_published(self, game: Engine, current: object) -> list[dict[str, Any]]:
        """The legal actions as the state publishes them: each one's to_dict() with its button's label, read-only
        (the same ones come back in later states)."""
        names, memo = self._legal_memo
        if names is not self._names or len(memo) > 4096:
            memo = {}
            self._legal_memo = (self._names, memo)
        # by the current player, then by the action itself (an engine offers the same objects state after state; kept
        # here, so its id names no other), else by what it is
        mine = memo.get(current)
        if mine is None:
            mine = memo[current] = {}
        out = []
        for action in game.legal_actions():
            found = mine.get(id(action))
            if found is None or found[0] is not action:
                named = (action.group, action.name, tuple(action.args.items()), action.asks, action.cards)
                entry = mine.get(named)
                if entry is None:
                    published = action.to_dict()
                    published["label"] = self._module.action_label(published, self._names, current)
                    entry = mine[named] = (action, read_only(published))
                if len(mine) > 4096:
                    mine.clear()
                found = mine[id(action)] = (action, entry[1])
            out.append(found[1])
        return ReadOnlyList(out)

    def records(self) -> list[dict[str, Any]]:
        """The record of every game in the history (companion.record), the newest first; kept in the file, so a
        game is replayed only when it changed since its record was made (about half a second for a long game:
        benchmarks/bench_stats.py). Made outside the game's lock, from the file, so the table plays on meanwhile."""
        from companion.record import RecordBook

        self._check_open()
        return RecordBook(self.store, self.packs_for).records()

    def record(self, game_id: int) -> dict[str, Any]:
        """The record of one game (HistoryError when there is none with that id)."""
        from companion.record import RecordBook

        self._check_open()
        return RecordBook(self.store, self.packs_for).record(game_id)

    def _luck_of(self, game_id: int) -> dict[str, Any] | None:
        """The luck of a finished game for its end card and the OLED (None for a game without dice odds); its
        record is kept in the history file, so this replays the game once."""
        from companion.stats import game_luck

        try:
            return game_luck(self.record(game_id))
        except CompanionError:
            log.exception("the record of game %s could not be made; the end card goes without the luck", game_id)
            return None

    def _narrate(self, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Each event record gains its sentence ("text"); the first of a command also the whole "story",
        and the big moments an "announce" banner for every phone. Read-only: the caller and every listener get
        these same records."""
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
            if kind == "undone":
                record["text"] = module.undone_sentence(record, names)  # "Undone: " and what the command did
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
            out.append(read_only(record))
        return ReadOnlyList(out)

    def _notify(self, records: list[dict[str, Any]], state: dict[str, Any]) -> None:
        records = read_only(records)  # as they came from _narrate (made read-only there), or the records of a switch
        for fn in list(self._listeners):
            try:
                fn(records, state)  # the same for every listener: read-only (ReadOnlyDict), none copied
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
