"""What every game's engine shares (pure): a command as typed, the legal actions offered, the outcome, and the
reading of a command's arguments. Each engine subclasses ``CommandBase`` with its own command names, so its
messages list its commands; Skeptics' is ``companion.games.skeptics.engine.Command``, Elder Sign's
``companion.games.elder_sign.engine.Command``."""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, ClassVar, Generic, NoReturn, Protocol, Self, TypeVar

from companion.errors import BadCommand, CardsNeeded, IllegalCommand
from companion.validate import control_character

__all__ = [
    "COMMAND_PREFIX",
    "CommandBase",
    "GameHistory",
    "LegalActionBase",
    "Outcome",
    "RulesBase",
    "StoredEvents",
    "arg_bool",
    "arg_choice",
    "arg_int",
    "arg_list",
    "check_args",
    "check_names",
    "page_words",
    "seat_names",
]

C = TypeVar("C", bound="CommandBase")


class _HasOutcome(Protocol):
    outcome: Any

    def copy(self) -> Any: ...


S = TypeVar("S", bound=_HasOutcome)
#: The events each command of a stored game caused when it was played, as the history keeps them: one list a
#: command, in the commands' order (a game's reading of its stored commands may tell from them how they were played).
StoredEvents = Sequence[Sequence[Mapping[str, Any]]]
_TRUE = ("true", "yes", "1", "on")
_FALSE = ("false", "no", "0", "off")


@dataclass(frozen=True)
class CommandBase:
    """One command, as typed (``Command.parse("summon success=true")``); args stay strings."""

    name: str
    args: Mapping[str, str] = field(default_factory=dict)
    names: ClassVar[Sequence[str]] = ()  # the game's commands, for the messages

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise BadCommand(f"a command name is text, not {self.name!r}; the commands are: {', '.join(self.names)}.")
        if not isinstance(self.args, Mapping):
            raise BadCommand(f"command arguments are key=value pairs, not {self.args!r}.")
        args: dict[str, str] = {}
        for key, value in self.args.items():
            if not isinstance(key, str) or not key:
                raise BadCommand(f"an argument name must be text, not {key!r}.")
            if isinstance(value, bool):
                value = "true" if value else "false"
            elif isinstance(value, (list, tuple)):
                value = ",".join(str(v) for v in value)
            elif value is None:
                value = "none"
            elif not isinstance(value, str):
                value = str(value)
            args[key] = value
        object.__setattr__(self, "args", MappingProxyType(args))

    __hash__ = None  # type: ignore[assignment]

    @classmethod
    def parse(cls: type[C], text: str) -> C:
        """``"end-round"``, ``"summon success=true"``, ``"roll faces=eye,eye,blank"``."""
        if not isinstance(text, str):
            raise BadCommand(f"a command is text such as 'end-turn', not {text!r}.")
        try:
            words = shlex.split(text)
        except ValueError as exc:
            raise BadCommand(f"cannot read the command {text!r} ({exc}); check the quotes.") from None
        if not words:
            raise BadCommand(f"the command is empty; the commands are: {', '.join(cls.names)}.")
        name, args = words[0], {}
        for word in words[1:]:
            key, sep, value = word.partition("=")
            if not sep or not key:
                raise BadCommand(f"the argument {word!r} of {name!r} is not key=value; write it like key=value.")
            if key in args:
                raise BadCommand(f"the argument {key!r} is given twice in {text!r}; give it once.")
            args[key] = value
        return cls(name, args)

    @classmethod
    def from_dict(cls: type[C], data: object) -> C:
        if not isinstance(data, Mapping) or "name" not in data:
            raise BadCommand(f'a command is a JSON object like {{"name": "end-turn", "args": {{}}}}, not {data!r}.')
        args = data.get("args") or {}
        if not isinstance(args, Mapping):
            raise BadCommand(f"the args of a command are a JSON object of key: value, not {args!r}.")
        return cls(str(data["name"]), dict(args))

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "args": dict(self.args)}

    def __str__(self) -> str:
        return " ".join([shlex.quote(self.name)] + [f"{shlex.quote(k)}={shlex.quote(v)}" for k, v in self.args.items()])


@dataclass(frozen=True)
class LegalActionBase:
    """One thing the table may do now (an engine's ``legal_actions()``).

    ``asks`` names what the caller still chooses (the faces of the dice, the icons of a set, a space, a number
    ...); ``cards`` names the cards drawn from the real decks in physical deck mode, in order.
    """

    group: str
    name: str
    args: Mapping[str, str] = field(default_factory=dict)
    asks: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    command_type: ClassVar[type[CommandBase]] = CommandBase

    def command(self, **more: str) -> Any:
        return self.command_type(self.name, {**dict(self.args), **more})

    def to_dict(self) -> dict[str, Any]:
        return {
            "group": self.group,
            "name": self.name,
            "args": dict(self.args),
            "asks": list(self.asks),
            "cards": list(self.cards),
        }


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``Outcome("won", ...)`` or ``Outcome("lost", reason)``."""

    result: str  # "won" | "lost"
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"result": self.result, "reason": self.reason}

    def __str__(self) -> str:
        return f"{self.result}: {self.reason}"


def arg_bool(cmd: CommandBase, key: str) -> bool:
    value = cmd.args[key].strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise BadCommand(f"{cmd.name}: {key}={cmd.args[key]!r} must be true or false.")


def arg_int(cmd: CommandBase, key: str, low: int, high: int) -> int:
    text = cmd.args[key].strip()
    try:
        value = int(text)
    except ValueError:
        raise BadCommand(f"{cmd.name}: {key}={text!r} must be a whole number {low} to {high}.") from None
    if not low <= value <= high:
        raise BadCommand(f"{cmd.name}: {key}={value} is out of range; give a whole number {low} to {high}.")
    return value


def arg_ints(cmd: CommandBase, keys: Sequence[str], low: int, high: int, then: str = "") -> tuple[int, ...]:
    """The whole numbers `low` to `high` of `keys`, each checked: BadCommand names every one that is empty, no whole
    number or out of range at once ("doom=0 is out of range and elder_signs= is empty: give whole numbers 1 to 30"),
    `then` said after it (where the numbers come from)."""
    values: list[int] = []
    bad: list[str] = []
    for key in keys:
        text = cmd.args.get(key, "").strip()
        try:
            value = int(text)
        except ValueError:
            bad.append(f"{key}= is empty" if not text else f"{key}={text!r} is no whole number")
            continue
        if not low <= value <= high:
            bad.append(f"{key}={value} is out of range")
        values.append(value)
    if bad:
        said = bad[0] if len(bad) == 1 else ", ".join(bad[:-1]) + " and " + bad[-1]
        each = "a whole number" if len(bad) == 1 else "whole numbers"
        raise BadCommand(f"{cmd.name}: {said}: give {each} {low} to {high}{then}.")
    return tuple(values)


def arg_choice(cmd: CommandBase, key: str, choices: Sequence[str]) -> str:
    value = cmd.args[key].strip().lower()
    if value not in choices:
        raise BadCommand(f"{cmd.name}: {key}={cmd.args[key]!r} is not valid; use one of: {', '.join(choices)}.")
    return value


MAX_NAME = 24  # letters in a player's name, in every game


def check_names(names: Sequence[str], players: int, per: str = "player") -> None:
    """The players' names of a setup (texts already; empty: none given): one per `per` ("player", "seat"), each
    1 to MAX_NAME printable letters, no two the same. BadCommand says which is wrong."""
    if not names:
        return
    cleaned = [n.strip() for n in names]
    if len(cleaned) != players:
        raise BadCommand(f"give one name per {per}: {players} players, {len(cleaned)} names.")
    if any(not n or len(n) > MAX_NAME or control_character(n) for n in cleaned):
        raise BadCommand(f"each player's name is 1 to {MAX_NAME} letters, with no control characters.")
    if len({n.casefold() for n in cleaned}) != len(cleaned):
        raise BadCommand("two players have the same name; give each player a name of their own.")


def seat_names(names: Sequence[str], players: int) -> list[str]:
    """The name of each seat in order: the names given, else "Player 1" ..."""
    return [n.strip() for n in names] if names else [f"Player {i}" for i in range(1, players + 1)]


def check_args(
    cmd: CommandBase, commands: Mapping[str, tuple[tuple[str, ...], tuple[str, ...], str]], extra: Sequence[str] = ()
) -> None:
    """A command's name and arguments against its game's COMMANDS (name -> (required, optional, what it does)):
    BadCommand names an unknown command, an unknown or a missing argument. `extra`: arguments the engine checks
    itself (Elder Sign's cards drawn in physical deck mode)."""
    spec = commands.get(cmd.name)
    if spec is None:
        raise BadCommand(f"unknown command {cmd.name!r}; the commands are: {', '.join(commands)}.")
    required, optional, _ = spec
    for key in cmd.args:
        if key not in required and key not in optional and key not in extra:
            valid = [*required, *optional]
            raise BadCommand(
                f"{cmd.name}: unknown argument {key!r}; "
                + (f"the arguments are: {', '.join(valid)}." if valid else "it takes no arguments.")
            )
    for key in required:
        if key not in cmd.args:
            raise BadCommand(f"{cmd.name}: the argument {key}= is missing.")


COMMAND_PREFIX = re.compile(r"^(?:[a-z]+(?:-[a-z]+)*): ")


def page_words(message: Any, patterns: Sequence[tuple[str, str]], prefix: re.Pattern[str] = COMMAND_PREFIX) -> str:
    """An engine's refusal in a player's words: the command's name taken off the front, then each game's
    (pattern, words) in order (its spellings, ``key=value`` and line numbers), and the spaces tidied."""
    text = prefix.sub("", str(message).strip())
    for pattern, words in patterns:
        text = re.sub(pattern, words, text)
    return re.sub(r"\s{2,}", " ", text).replace(" .", ".").replace("..", ".").replace(" ;", ";")


def arg_list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


ST = TypeVar("ST")
CT = TypeVar("CT", bound=CommandBase)


class RulesBase(Generic[ST, CT]):
    """One command applied to a copy of a game's state, collecting its events: what each engine's ``_Rules``
    shares (the state ``s``, the command, ``emit`` an event, ``illegal`` a refusal by the rules)."""

    # Only checking (the legal actions): ``s`` is the game's own state, not a copy, and each handler of a command the
    # engine names in ``GameHistory.checked`` returns where its checks end (``if self.checking: return``), before it
    # changes anything. Its refusals are then the same code for push and for the legal actions.
    checking: bool = False

    def __init__(self, state: ST, cmd: CT) -> None:
        self.s = state
        self.cmd = cmd
        self.events: list[dict[str, Any]] = []

    def again(self, cmd: CT) -> None:
        """Ready to check another command on the same state (checking only: nothing was changed). An engine whose
        rules keep more of a command than ``cmd`` and ``events`` resets it here too."""
        self.cmd = cmd
        self.events = []

    def emit(self, type_: str, **data: Any) -> None:
        self.events.append({"type": type_, **data})

    def illegal(self, message: str) -> NoReturn:
        raise IllegalCommand(f"{self.cmd.name}: {message}")

    def run(self) -> None:  # pragma: no cover - every engine defines it
        """Apply the command to ``s``, emitting its events, or refuse it."""
        raise NotImplementedError


# (the game's Game class, group, name, args, asks, sample) -> (the command it is checked with, the legal action)
_Candidate = tuple[type, str, str, tuple[tuple[str, str], ...], tuple[str, ...], tuple[tuple[str, str], ...]]
_CANDIDATES: dict[_Candidate, tuple[Any, Any]] = {}


def _candidate(game: GameHistory[Any], key: _Candidate) -> tuple[Any, Any]:
    """The command a legal action is checked with and the action offered (without cards), made once: both are
    immutable, and the legal actions of every state check the same few dozen."""
    found = _CANDIDATES.get(key)
    if found is None:
        if len(_CANDIDATES) > 4096:
            _CANDIDATES.clear()
        _, group, name, args, asks, sample = key
        real = dict(args)
        probe = game.command_type(name, {**real, **dict(sample)})
        found = _CANDIDATES[key] = (probe, game.legal_type(group, name, MappingProxyType(real), asks))
    return found


class GameHistory(Generic[S]):
    """The explicit history every engine keeps, as python-chess's Board keeps its move stack: ``push`` checks and
    applies a command (nothing changes when it is refused), ``pop`` takes the last one back, ``replay`` rebuilds a
    game from its commands. An engine's Game subclasses it, names its ``command_type`` and supplies ``new`` and
    ``_apply`` (the command on a copy of the state: the new state and its events, or a refusal)."""

    command_type: ClassVar[type[CommandBase]] = CommandBase
    legal_type: ClassVar[type[LegalActionBase]] = LegalActionBase
    command_example: ClassVar[str] = "end-turn"  # a command of the game, for the message of a wrong push
    # The commands whose rules handler marks where its checks end (``if self.checking: return``, RulesBase): a
    # legal action of one of them is found by running its checks alone on the state as it is (no copy, nothing
    # applied, no events made), as python-chess generates its moves from the position. Every other command is
    # tried: applied to a copy of the state, and offered when that is accepted.
    checked: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, state: S) -> None:
        self._state: S = state
        self._stack: list[tuple[Any, S]] = []
        self._legal: dict[int, tuple[S, tuple[Any, ...]]] = {}  # id(state) -> (state, its legal actions)
        self._trying = False  # legal_actions_tried(): every command tried, preconditions or not
        self._checker: RulesBase[S, Any] | None = None  # the rules that check commands on the current state

    @classmethod
    def new(cls, setup: Any, packs: Any) -> Any:  # pragma: no cover - every engine defines it
        raise NotImplementedError

    def _rules(self, state: S, command: Any) -> RulesBase[S, Any]:  # pragma: no cover - every engine defines it
        """The engine's rules, ready to apply `command` to `state` (a copy of the current state)."""
        raise NotImplementedError

    def _offers(self) -> list[Any]:  # pragma: no cover - every engine defines it
        """Every legal action now (the engine's, by :meth:`offer`); :meth:`legal_actions` keeps them per state."""
        raise NotImplementedError

    def _apply(self, command: Any) -> tuple[S, list[dict[str, Any]]]:
        """The command on a copy of the state: the new state and its events, or BadCommand / IllegalCommand."""
        if not isinstance(command, self.command_type):
            raise BadCommand(f"push needs a Command (Command.parse('{self.command_example}')), not {command!r}.")
        rules = self._rules(self._state.copy(), command)
        rules.run()
        return rules.s, rules.events

    def legal_actions(self) -> list[Any]:
        """What the table may do now, as python-chess offers its legal moves: each one is accepted by push() once
        what it ``asks`` is filled in. Worked out once per state (undo and redo come back to a state already seen)."""
        if self._state.outcome is not None:
            return []
        found = self._legal.get(id(self._state))
        if found is None or found[0] is not self._state:
            found = (self._state, tuple(self._offers()))
            if len(self._legal) > 64:
                self._legal.clear()
            self._legal[id(self._state)] = found
        return list(found[1])

    def legal_actions_tried(self) -> list[Any]:
        """The legal actions as found by applying each candidate command to a copy of the state, preconditions or
        not: what :meth:`legal_actions` must equal (the tests hold them together). Not cached."""
        if self._state.outcome is not None:
            return []
        self._trying = True
        try:
            return self._offers()
        finally:
            self._trying = False

    def _checks_alone(self, command: Any) -> bool:
        """Whether `command`'s checks alone say if push accepts it (its name is in :attr:`checked`); an engine
        narrows it where applying it can still refuse (Skeptics: a draw from the real decks in physical mode)."""
        return command.name in self.checked

    def _precheck(self, command: Any) -> None:
        """The checks of a command in :attr:`checked`, run alone on the current state: BadCommand / IllegalCommand
        as push would raise them; nothing is copied, changed or applied."""
        rules = self._checks(command)
        rules.again(command)
        rules.run()

    def _checks(self, command: Any) -> RulesBase[S, Any]:
        """The rules that check commands on the current state, only checking (made once a state): what an engine's
        ``_offers`` asks too, to leave out whole groups of candidates by the same checks (no action left)."""
        rules = self._checker
        if rules is None or rules.s is not self._state:
            rules = self._checker = self._rules(self._state, command)
            rules.checking = True
        return rules

    @classmethod
    def replay(
        cls,
        setup: Any,
        packs: Any,
        commands: Iterable[CommandBase | Mapping[str, Any] | str],
        events: StoredEvents | None = None,
    ) -> Self:
        """The game after pushing `commands` one by one, in the reading they were played in (:meth:`read_stored`;
        `events`: what each caused when it was stored, where known); raises like push on the first refused one."""
        game: Self = cls.new(setup, packs)
        kind = cls.command_type
        parsed: list[CommandBase] = [
            c if isinstance(c, kind) else kind.parse(c) if isinstance(c, str) else kind.from_dict(c) for c in commands
        ]
        for cmd in game.read_stored(parsed, events):
            game.push(cmd)
        return game

    def read_stored(self, commands: Sequence[CommandBase], events: StoredEvents | None = None) -> Sequence[CommandBase]:
        """A stored game's commands still to be pushed into this new game, in the reading they were played in
        (`events`: what each caused when it was stored, one list a command; None where they are not known): all of
        them, for a game whose rules have been read one way only. An engine whose rules changed reads here which
        way its commands were played; where only playing them tells, it pushes them itself and leaves none when
        they are all accepted."""
        return commands

    def push(self, command: Any) -> list[dict[str, Any]]:
        """Check and apply a command; return its events. On BadCommand/IllegalCommand nothing changes."""
        if isinstance(command, str):
            command = self.command_type.parse(command)
        new, events = self._apply(command)
        self._stack.append((command, self._state))
        self._state = new
        return events

    def pop(self) -> Any:
        """Undo the last command and return it; IllegalCommand if there is none."""
        if not self._stack:
            raise IllegalCommand("there is nothing to undo: no command has been played in this game yet.")
        command, state = self._stack.pop()
        self._state = state
        return command

    def check(self, command: Any) -> None:
        """Raise BadCommand/IllegalCommand if `command` would be refused now; change nothing."""
        if isinstance(command, str):
            command = self.command_type.parse(command)
        self._apply(command)

    def candidate(
        self,
        group: str,
        name: str,
        args: Mapping[str, str] | None = None,
        asks: Sequence[str] = (),
        sample: Mapping[str, str] | None = None,
    ) -> tuple[Any, Any]:
        """The command a legal action is checked with and the action offered (both immutable, made once): what
        :meth:`offer` takes. An engine may keep the ones it offers state after state and hand them to
        :meth:`offer_made`, for the legal actions of every state check the same few dozen."""
        key = (
            type(self),
            group,
            name,
            tuple(args.items()) if args else (),
            tuple(asks),
            tuple(sample.items()) if sample else (),
        )
        found = _CANDIDATES.get(key)
        return found if found is not None else _candidate(self, key)

    def offer(
        self,
        out: list[Any],
        group: str,
        name: str,
        args: Mapping[str, str] | None = None,
        asks: Sequence[str] = (),
        sample: Mapping[str, str] | None = None,
    ) -> None:
        """Add one legal action to `out` (the engine's ``legal_actions()``) when its command would be accepted now,
        with a `sample` of what it `asks` (see :meth:`offer_made`)."""
        self.offer_made(out, self.candidate(group, name, args, asks, sample))

    def offer_made(self, out: list[Any], made: tuple[Any, Any]) -> None:
        """Add the legal action of `made` (:meth:`candidate`) to `out` when its command would be accepted now: by its
        checks alone (:attr:`checked`), else tried on a copy. A command that draws from the real decks (physical
        mode) is offered with the cards it needs, where :meth:`_legal_with_cards` says it would then be accepted."""
        probe, action = made
        try:
            if not self._trying and self._checks_alone(probe):
                rules = self._checker  # _precheck, written out: it runs for each of some forty candidates a state
                if rules is None or rules.s is not self._state:
                    rules = self._checks(probe)
                rules.again(probe)
                rules.run()
            else:
                self.check(probe)
        except CardsNeeded as exc:
            if not self._legal_with_cards(probe, exc.needs):
                return
            action = replace(action, cards=tuple(arg for arg, _ in exc.needs))
        except (BadCommand, IllegalCommand):
            return
        out.append(action)

    def _legal_with_cards(self, probe: Any, needs: Any) -> bool:
        """Whether a command that needs cards from the real decks would be accepted with them (an engine checks)."""
        return True

    def is_legal(self, command: Any) -> bool:
        try:
            self.check(command)
        except (BadCommand, IllegalCommand):
            return False
        return True

    @property
    def history(self) -> list[Any]:
        return [command for command, _ in self._stack]

    @property
    def played(self) -> int:
        """How many commands the game has had: ``len(history)``, without making the list."""
        return len(self._stack)

    @property
    def state(self) -> S:
        """The current state (read it, do not change it; use push)."""
        return self._state

    @property
    def outcome(self) -> Any:
        return self._state.outcome
