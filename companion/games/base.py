"""The game-module seam: every game the companion plays is one subclass of :class:`GameModule`, as python-chess's
variants are subclasses of one ``Board``.

A module names its rules engine (a :class:`~companion.commands.GameHistory` subclass: push/pop, ``view()``,
``legal_actions()``, ``outcome``, the same shapes for every game), how its packs load, its sentences (``names``,
``describe_event``, ``announcement``, ``action_label``, ``command_sentence``, ``end_summary``, ``for_players``),
and what the table does with it: the button's commands, the dice the companion rolls or reads in the tray, the
scripts it reads out. The service, the history, the hardware, the page and the terminal talk to a game only
through its module, so a new game is a new package under ``companion/games/`` and one line in :data:`RULES`.

    module = module_for("elder-sign")
    game = module.new(module.setup_from_dict({"players": 2, "seed": 7}), module.load_packs(None))
    module.describe_events(game.push(module.parse_command("end-turn")), module.names(game))

A stored setup names its rules (``"rules": "elder-sign"``); a setup without it is Skeptics' (:data:`DEFAULT_RULES`,
here and nowhere else), so every history file written before there were modules still opens.

What crosses the seam is typed: the engine as :class:`Engine`, commands as ``CommandBase``, events, views and
actions as JSON-like mappings; a game's packs and its table's names are the module's own (``object`` to the
service, which only hands them back).
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, Self, TypeVar

from companion.commands import CommandBase, LegalActionBase, Outcome, StoredEvents
from companion.errors import BadCommand, CompanionError, DiceError, IllegalCommand
from companion.pack_files import names_no_card
from companion.words import by_name, card_choice, card_note, command_buttons, undone

if TYPE_CHECKING:
    from companion.pack_edits import BoxPacks

__all__ = [
    "DEFAULT_RULES",
    "RULES",
    "Chance",
    "Engine",
    "GameModule",
    "GameModuleOf",
    "SeenDie",
    "Sentences",
    "TableDice",
    "Terminal",
    "TrayDie",
    "TrayOutcome",
    "card_entries",
    "module_for",
    "rules_of",
]

DEFAULT_RULES = "skeptics"
UNDONE = "undone"  # the event an undo leaves in the history (companion.history.GameStore.undo), alike for every game
# rules id -> (title, the module that defines MODULE)
RULES: Mapping[str, tuple[str, str]] = {
    "skeptics": ("Skeptics", "companion.games.skeptics.module"),
    "elder-sign": ("Elder Sign", "companion.games.elder_sign.module"),
    "among-cultists": ("Among Cultists", "companion.games.among_cultists.module"),
    "spooks": ("Spooks", "companion.games.spooks.module"),
}

#: An event record, a view, an action: JSON-like data.
Record = Mapping[str, object]
#: A game's commands as a replay takes them: typed, their stored form, or as written ("end-turn").
Played = Sequence[CommandBase | Record | str]


class SetupLike(Protocol):
    """An engine's ``Setup``: its stored form."""

    def to_dict(self) -> Mapping[str, object]: ...


class Engine(Protocol):
    """A game's rules engine as the seam sees it (each engine's ``Game``, a ``GameHistory`` subclass)."""

    @property
    def setup(self) -> SetupLike: ...

    @property
    def history(self) -> Sequence[CommandBase]: ...

    @property
    def played(self) -> int:
        """``len(history)``, without making the list."""
        ...

    @property
    def outcome(self) -> Outcome | None: ...

    def push(self, command: CommandBase) -> list[dict[str, object]]: ...

    def pop(self) -> CommandBase: ...

    def check(self, command: CommandBase) -> None: ...

    def legal_actions(self) -> Sequence[LegalActionBase]: ...

    def view(self) -> dict[str, object]: ...

    @classmethod
    def replay(cls, setup: SetupLike, packs: object, commands: Played, events: StoredEvents | None = None) -> Self:
        """The game after its commands, in the reading they were played in (GameHistory.replay)."""
        ...

    def read_stored(self, commands: Sequence[CommandBase], events: StoredEvents | None = None) -> Sequence[CommandBase]:
        """A new game's reading of a stored game's commands: those still to push (GameHistory.read_stored)."""
        ...


class SeenDie(Protocol):
    """One die found in the tray (vision.reader.DieReading has this shape): its colour, its pips (None: not read
    for sure), whether it is cocked (it leans, so no face is up) and where it lies. What it means in a game is
    the game's module's (:meth:`GameModule.tray_roll`)."""

    @property
    def color(self) -> str: ...

    @property
    def value(self) -> int | None: ...

    @property
    def cocked(self) -> bool: ...

    @property
    def box(self) -> tuple[int, int, int, int]: ...


@dataclass(frozen=True)
class TrayDie:
    """A die seen in the tray, as a value (tests, a photo read elsewhere)."""

    color: str
    value: int | None
    box: tuple[int, int, int, int] = (0, 0, 0, 0)
    cocked: bool = False


@dataclass(frozen=True)
class TableDice:
    """The table's dice as the configuration sets them: which game's kind of die each colour is (``[tray.kinds]``,
    colour -> kind name) and what the pips of each kind stand for (``[dice.pips]``, kind -> face -> pips)."""

    kinds: Mapping[str, str] = field(default_factory=dict)
    pips: Mapping[str, Mapping[str, Sequence[int]]] = field(default_factory=dict)


@dataclass(frozen=True)
class TrayOutcome:
    """What dice read in the tray do (a module's ``tray_roll``): the command that rolls them (None: nothing is
    rolled), a message for the table, a line for the log."""

    command: tuple[str, dict[str, str]] | None = None
    tell: str | None = None  # shown at the table (the OLED and a warning in the log)
    note: str | None = None  # only logged
    quiet: bool = False  # dice that came to rest with no roll waiting for them: logged for debugging only


@dataclass(frozen=True)
class Chance:
    """What one command says about an attempt whose chance the page showed (the dice's luck, companion.record).

    ``begins``: an attempt begins, and the page showed ``chance`` of it coming good (None: no chance was shown,
    so the attempt is counted but not weighed); ``player`` (0-based seat) and ``what`` (a few words) name it.
    ``good``: the attempt under way came good (True) or failed by the dice (False). ``dropped``: it ended by the
    players' choice or the game's end, not by the dice, so it is left out. One command may begin and settle one
    attempt (a summon's one roll)."""

    begins: bool = False
    chance: float | None = None
    player: int | None = None
    what: str = ""
    good: bool | None = None
    dropped: bool = False


class GameModule(ABC):
    """One game behind the seam (see the module docstring). Everything here is pure: no I/O but the packs' load."""

    rules: ClassVar[str]
    title: ClassVar[str]
    command_type: ClassVar[type[CommandBase]]
    # its commands for `companion game commands`: name -> (required args, optional args, what it does)
    commands: ClassVar[Mapping[str, tuple[tuple[str, ...], tuple[str, ...], str]]]
    # the setup keys the "game_started" event repeats (for the log and the history list)
    started_keys: ClassVar[tuple[str, ...]] = ("players",)
    # what the host chooses at the start besides the players and their names, by kind ("bool", "int", "text"):
    # the page's wizard sends these keys and the engine's Setup checks their values
    setup_choices: ClassVar[Mapping[str, str]] = MappingProxyType({})
    required_choices: ClassVar[tuple[str, ...]] = ()  # the choices the terminal's `game new` must be given
    seeded: ClassVar[bool] = True  # its setup takes a seed (its shuffles); a game with nothing to shuffle takes none
    # what the table's one button plays: the first of these that is legal now (none: the game is played on the phones)
    button_commands: ClassVar[tuple[str, ...]] = ("end-round",)
    # the scripts the companion reads out (kind -> its title: "night" -> "The night"), see :meth:`scripts`
    script_kinds: ClassVar[Mapping[str, str]] = MappingProxyType({})

    # -- the engine ------------------------------------------------------------------------------

    @abstractmethod
    def setup_from_dict(self, data: Record) -> SetupLike:
        """The engine's Setup from its stored form (the "rules" key is the seam's, not the engine's)."""

    @abstractmethod
    def new(self, setup: SetupLike, packs: object) -> Engine:
        """A new game; BadCommand if the setup does not fit the packs."""

    @abstractmethod
    def replay(self, setup: SetupLike, packs: object, commands: Played, events: StoredEvents | None = None) -> Engine:
        """The game after its commands, in the reading they were played in (`events`: what each caused when it was
        stored, where known); raises like push on the first refused one."""

    @abstractmethod
    def load_packs(self, folder: Path | None) -> object:
        """The game's packs: the bundled files, with the owner's of the same name in `folder`."""

    def box_packs(self) -> BoxPacks | None:
        """The game's pack files as the owner's box keeps them and the "Your box" page fills them in
        (companion.box); None for a game with no packs to fill in."""
        return None

    def setup_to_dict(self, setup: SetupLike) -> dict[str, object]:
        """The stored form of a setup: the engine's, with "rules" for every game but the default one (whose old
        files have none)."""
        data = {k: v for k, v in dict(setup.to_dict()).items() if k != "rules"}
        return data if self.rules == DEFAULT_RULES else {"rules": self.rules, **data}

    def setup_of(self, setup: SetupLike | Record) -> SetupLike:
        """A setup as given to the service: the engine's Setup, or its stored form."""
        return self.setup_from_dict(setup) if isinstance(setup, Mapping) else setup

    def first_game(self, choices: Record, packs: object) -> dict[str, object]:
        """The configuration's ``[game]`` (keys left None: not set) as the setup of a first game without its seed,
        checked: ConfigError names the key ("game.board: ..."), a refusal by the rules raises as the engine does."""
        setup = {
            key: value
            for key, value in choices.items()
            if value is not None and key in ("players", *self.setup_choices)
        }
        self.new(self.setup_from_dict({**setup, "seed": 0} if self.seeded else setup), packs)
        return setup

    def setup_defaults(self, packs: object) -> dict[str, object]:
        """What a new game from the page takes when the host leaves a choice out (Skeptics: the packs' first
        board and ghost)."""
        return {}

    def setup_options(self, packs: object) -> dict[str, object]:
        """What the page's new-game wizard and every page list of this game's packs, under the game's own keys
        (Elder Sign: "ancient_ones"), each entry as ``card_entries`` gives it; the page's /api/setup-options."""
        return {}

    # the colours of the game's dice as a table usually has them (colour -> kind of die: the ``[tray.kinds]`` left
    # out); the first is its common die, which --sim's replayed photos of ordinary dice in any other colour read as
    tray_kinds: ClassVar[Mapping[str, str]] = MappingProxyType({})

    def check_tray_kind(self, kind: str) -> str:
        """One kind of die of ``[tray.kinds]`` (``colour = kind``) in the game's words; CompanionError says which
        kinds there are. A game whose dice are known by their colour takes any."""
        return kind.strip().lower()

    def check_pips(self, pips: Mapping[str, Mapping[str, Sequence[int]]]) -> None:
        """The configuration's ``[dice.pips]`` (what the pips of each kind of die stand for), checked when the
        game's dice are read in the tray; CompanionError says what is wrong. A game without a pip map takes any."""
        return None

    def parse_command(self, text: str) -> CommandBase:
        return self.command_type.parse(text)

    def command_from_dict(self, data: Record) -> CommandBase:
        return self.command_type.from_dict(data)

    # -- the sentences -----------------------------------------------------------------------------

    @abstractmethod
    def names(self, game: Engine) -> object:
        """The table's names for a game (players, places ...), which the sentences take."""

    @abstractmethod
    def describe_event(self, record: Record, names: object) -> str: ...

    @abstractmethod
    def describe_events(self, records: Sequence[Record], names: object) -> list[str]: ...

    @abstractmethod
    def announcement(self, record: Record, names: object) -> dict[str, str] | None:
        """The banner every phone shows for a big moment, or None."""

    @abstractmethod
    def action_label(self, action: Record, names: object, current: object) -> str:
        """A legal action's button label (``current``: the current player)."""

    @abstractmethod
    def command_sentence(self, command: object, names: object, events: Sequence[Record]) -> str:
        """What a command did, in words (from its events)."""

    def undone_sentence(self, record: Record, names: object) -> str:
        """The sentence of an ``undone`` record (companion.history.GameStore.undo), one for every game: "Undone: "
        and what the command taken back did, in the game's words (:meth:`command_sentence`: the events it caused,
        else what the command is); :meth:`GameModuleOf.describe_event` gives it to an undone record."""
        events = record.get("events")
        told = [e for e in events if isinstance(e, Mapping)] if isinstance(events, list) else []
        stored = record.get("command")
        try:
            command: object = self.command_from_dict(stored) if isinstance(stored, Mapping) else stored
        except CompanionError:
            command = stored  # a command this game no longer knows: its words say "a command"
        return undone(self.command_sentence(command, names, told))

    @abstractmethod
    def end_summary(self, view: Record, names: object, minutes: float | None) -> dict[str, object]: ...

    @abstractmethod
    def for_players(self, message: str, names: object = None, current: object = None) -> str:
        """A refusal in the page's words (no command spelling; a command it names is its button, labelled as the
        page labels it with the table's `names` and the `current` player; each player the engine numbers, by the
        name the table gave them)."""

    @abstractmethod
    def read_stored(
        self, game: Engine, commands: Sequence[CommandBase], events: StoredEvents | None = None
    ) -> Sequence[CommandBase]:
        """A stored game's commands still to be pushed into the new `game`, in the reading they were played in, as
        its engine reads them (``read_stored``: all of them, for a game whose rules have been read one way only;
        Skeptics: a game played before the companion asked about a ghost card not filled in yet plays on in the
        reading it was played in; where only playing them tells, the engine pushes them itself, and leaves none when
        they are all accepted). ``events``: what each command caused when it was stored (one list a command; None
        where they are not known), which tells some readings apart (Elder Sign: a midnight resolved at once)."""

    def setup_checklist(self, view: Record, names: object, hand: bool) -> list[dict[str, str]]:
        """What the table sets out before the first turn, as a list the host ticks off (``hand``: a clock hand
        stands by the board); none where the game's rules text gives none."""
        return []

    @abstractmethod
    def status_line(self, state: Record) -> str:
        """One line for the terminal: where the game stands (the published state)."""

    @abstractmethod
    def state_text(self, state: Record) -> str:
        """The published state for a person at the terminal (`companion game state`)."""

    def page_odds(self, query: Mapping[str, str]) -> dict[str, object]:
        """The page's odds calculator (``GET /api/odds``): the chance the query asks for (its keys are the game's),
        as JSON-safe data; BadCommand names what is wrong with the question."""
        raise BadCommand(f"{self.title} has no odds calculator on the page.")

    def odds_report(self, args: argparse.Namespace) -> dict[str, object]:
        """`companion odds --rules RULES ...`: the exact chances asked for, as JSON-safe data; CompanionError
        names what is wrong with the question."""
        raise CompanionError(f"{self.title} has no dice to work out the odds of.")

    def odds_text(self, result: Mapping[str, object]) -> str:
        """The odds of :meth:`odds_report` as the table the terminal prints."""
        return json.dumps(result)

    def publish(self, view: Record, game: Engine) -> Mapping[str, object]:
        """Extra keys of the published state worked out from the view and the game (the odds of the roll under way)."""
        return {}

    # -- the table ---------------------------------------------------------------------------------

    def button_command(self, legal: Sequence[str]) -> str | None:
        """What the table's button plays now: the first of :attr:`button_commands` that is legal, else the first
        (refused in the table's words); None where the game is played on the phones."""
        if not self.button_commands:
            return None
        return next((name for name in self.button_commands if name in legal), self.button_commands[0])

    def virtual_roll(self, game: Engine, rng: random.Random, target: str | None) -> tuple[str, dict[str, str]]:
        """The command that rolls the dice now with `rng` (``target``: what for, e.g. "summon"; None: the roll
        under way). IllegalCommand where the companion rolls no dice for this game."""
        raise IllegalCommand(f"the companion does not roll dice for {self.title}; enter the roll.")

    def tray_roll(
        self, game: Engine, dice: Sequence[SeenDie], table: TableDice, *, why: str, auto_roll: bool
    ) -> TrayOutcome:
        """What dice read in the tray do: the command that rolls them, or what the table is told. ``why`` is
        "button" (the read-dice button) or "settled" (the dice came to rest)."""
        message = f"{self.title} is played without dice, so the tray's dice are not read."
        if why == "button":
            return TrayOutcome(tell=message)
        return TrayOutcome(note=f"dice settled: {message}", quiet=True)

    # -- the games record and the dice's luck (companion.record; docs/stats.md) ---------------------------------

    has_luck: ClassVar[bool] = False  # its attempts have a chance on the page (not Among Cultists, Spooks)

    def luck(self, game: Engine, command: CommandBase, events: Sequence[Record] | None) -> Chance | None:
        """What `command` says about an attempt whose chance the page showed: asked with ``events=None`` before the
        command of a replay is pushed and with its events after it; None where it says nothing."""
        return None

    def record_facts(self, view: Record) -> Mapping[str, object]:
        """The record's facts from the last view: "setup" [(label, value)], "rounds", "rounds_word", "marks" (the
        Ghost Hours, the midnights) and "marks_word", "winner" (a name, for a game a player wins)."""
        return {}

    def moments(self, view: Record, events: Sequence[Record]) -> Mapping[str, object]:
        """The timeline after each command: "values" {series: number} (doom, scores ...), "marks" [labels] and,
        for values played to a score, "goal" [the score, its label] (the chart draws it as a line)."""
        return {}

    def next_throw(self, game: Engine) -> tuple[str, ...]:
        """The dice the roll under way throws, by kind of die or colour ("clue", "green" ...); none when no roll is
        under way (--sim's tray camera shows those dice and no others)."""
        return ()

    def entered_faces(self, faces: Sequence[str]) -> list[str]:
        """Dice entered on the page by their faces, as the game's roll commands spell them (its engine checks the
        roll); DiceError names a face its dice do not have."""
        return list(faces)

    def pip_faces(self, kind: str, pips: Sequence[int], table: TableDice) -> list[str]:
        """Dice entered on the page as pips (1-6) of one kind of die, as faces by the table's pip map
        (``[dice.pips]``); DiceError where the game's dice are not entered by their pips."""
        raise DiceError(f"{self.title}'s dice are entered by their faces, not by their pips.")

    def icon_pips(self, name: str) -> int:
        """Teaching the dice reader by the game's icons: the pips that stand for an icon face on the stand-in dice
        (by the default pip map) for a label naming it ("eye", "key:blank", "yellow:lore"); DiceError for a name it
        does not know, that two dice print on different pips, or in a game without dice."""
        raise DiceError(f"{self.title} is played without dice, so no die shows {name!r}.")

    def scripts(self, game: Engine, names: object, kind: str, pause_s: float, language: str) -> list[dict[str, object]]:
        """A script the companion reads out with the voice, the OLED and every phone at once (Among Cultists'
        night): steps {"text", "pause", "screen", "buzz"}. KeyError for a kind not in :attr:`script_kinds`."""
        raise KeyError(kind)


class TableNames(Protocol):
    """What every game's Names hold: the players' names, in the order the engine numbers them (player 1 first)."""

    @property
    def players(self) -> Sequence[str]: ...


N = TypeVar("N", bound=TableNames)  # a game's Names (its sentences module's), which its sentences take
G = TypeVar("G", bound=Engine)  # a game's engine (its Game)


class Sentences(Protocol[N]):
    """A game's sentences module as its module uses it (each ``companion/games/*/sentences.py`` is one, as a module
    object): the sentences of its events, banners, button labels and commands, in the table's names."""

    NO_NAMES: N  # the names of a table that gave none

    def describe_event(self, record: Record, names: N, /) -> str: ...

    def describe_events(self, records: Sequence[Record], names: N, /) -> list[str]: ...

    def announcement(self, record: Record, names: N, /) -> dict[str, str] | None: ...

    def action_label(self, action: Record, names: N, /) -> str: ...

    def command_sentence(self, command: object, names: N, events: Sequence[Record], /) -> str: ...

    def end_summary(self, view: Record, names: N, /) -> dict[str, object]: ...

    def for_players(self, message: object, /) -> str: ...


class Terminal(Protocol):
    """A game's terminal module (``companion/games/*/terminal.py``): the published state in words."""

    def status_line(self, state: Record, /) -> str: ...

    def state_text(self, state: Record, /) -> str: ...


class GameModuleOf(GameModule, Generic[G, N]):
    """A game's module that names its engine's ``Game`` (:attr:`engine_type`), its sentences module (:attr:`sentences`) and
    its terminal module (:attr:`terminal`): the sentence methods of the seam are these modules' functions, said in the
    game's own names (a table's names of another kind, or none, are its sentences' ``NO_NAMES``), and its replay and
    reading of a stored game are its engine's (``Game.replay``, ``Game.read_stored``)::

        class SpooksModule(GameModuleOf[Game, sentences.Names]):
            engine_type, sentences, terminal = Game, sentences, terminal
    """

    engine_type: type[G]
    sentences: Sentences[N]
    terminal: Terminal

    def engine(self, game: Engine) -> G:
        """`game` as this game's engine; TypeError for another game's (a wiring mistake, never the players')."""
        if not isinstance(game, self.engine_type):
            raise TypeError(f"the module of {self.title} was given another game's engine: {game!r}")
        return game

    def replay(self, setup: SetupLike, packs: object, commands: Played, events: StoredEvents | None = None) -> G:
        return self.engine_type.replay(setup, packs, commands, events)

    def read_stored(
        self, game: Engine, commands: Sequence[CommandBase], events: StoredEvents | None = None
    ) -> Sequence[CommandBase]:
        kind = self.command_type
        parsed = [c if isinstance(c, kind) else kind.from_dict(c.to_dict()) for c in commands]
        return self.engine(game).read_stored(parsed, events)

    def names_of(self, names: object) -> N:
        """The table's names as the sentences take them (their ``NO_NAMES`` for anything else)."""
        none = self.sentences.NO_NAMES
        return names if isinstance(names, type(none)) else none

    def describe_event(self, record: Record, names: object) -> str:
        if record.get("type") == UNDONE:  # an undo is the table's, not the game's: one sentence for all
            return self.undone_sentence(record, names)
        return self.sentences.describe_event(record, self.names_of(names))

    def describe_events(self, records: Sequence[Record], names: object) -> list[str]:
        """The game's sentences of `records`, an undone record's the undo's (:meth:`undone_sentence`)."""
        out: list[str] = []
        run: list[Record] = []  # the game's records since the last undo, told together (a story of several)
        for record in records:
            if record.get("type") == UNDONE:
                out += self.sentences.describe_events(run, self.names_of(names)) if run else []
                out.append(self.undone_sentence(record, names))
                run = []
            else:
                run.append(record)
        return out + (self.sentences.describe_events(run, self.names_of(names)) if run else [])

    def announcement(self, record: Record, names: object) -> dict[str, str] | None:
        return self.sentences.announcement(record, self.names_of(names))

    def action_label(self, action: Record, names: object, current: object) -> str:
        return self.sentences.action_label(action, self.names_of(names))

    def command_sentence(self, command: object, names: object, events: Sequence[Record]) -> str:
        return self.sentences.command_sentence(command, self.names_of(names), events)

    def end_summary(self, view: Record, names: object, minutes: float | None) -> dict[str, object]:
        return self.sentences.end_summary(view, self.names_of(names))

    def for_players(self, message: str, names: object = None, current: object = None) -> str:
        """A refusal in the page's words: the commands it spells named by their buttons (companion.words.
        command_buttons, one way for every game), then the game's own words, each "player 2" or "seat 2" of the
        engine's by the name the table gave them (companion.words.by_name)."""
        labelled = command_buttons(message, self.commands, lambda action: self.action_label(action, names, current))
        return by_name(self.sentences.for_players(labelled), self.names_of(names).players)

    def status_line(self, state: Record) -> str:
        return self.terminal.status_line(state)

    def state_text(self, state: Record) -> str:
        return self.terminal.state_text(state)


_LOADED: dict[str, GameModule] = {}


def card_entries(cards: Mapping[Any, Any], kind: str | None = None) -> list[dict[str, object]]:
    """A pack's cards as a page lists them: {"id", "name", "stand_in"} (a card not filled in yet: its
    ``placeholder``), in the pack's order. With the `kind` in the companion's names of its stand-ins ("Ghost" of
    "Ghost 1", companion.pack_files.names_no_card), each has the "label" the new-game wizard lists it by too
    (companion.words.card_choice: a stand-in named by the companion marked as one) and the "note" it shows under its
    list when that card is chosen (companion.words.card_note: "" but for such a stand-in)."""
    entries: list[dict[str, object]] = []
    for key, card in cards.items():
        stand_in = bool(getattr(card, "placeholder", False))
        entry: dict[str, object] = {"id": str(key), "name": str(card.name), "stand_in": stand_in}
        if kind is not None:
            told = (str(card.name), stand_in, not names_no_card(card, kind), kind)
            entry["label"], entry["note"] = card_choice(*told), card_note(*told)
        entries.append(entry)
    return entries


def module_for(rules: str | None) -> GameModule:
    """The module of a game's rules (the default game's when None); BadCommand names the games there are."""
    key = DEFAULT_RULES if rules in (None, "") else str(rules)
    if key not in RULES:
        raise BadCommand(f"unknown rules {key!r}; the companion plays: {', '.join(RULES)}.")
    if key not in _LOADED:
        found = importlib.import_module(RULES[key][1]).MODULE
        assert isinstance(found, GameModule) and found.rules == key
        _LOADED[key] = found
    return _LOADED[key]


def rules_of(setup: Mapping[str, object]) -> str:
    """The rules a stored setup is for: its "rules" key, the default game's without one."""
    value = setup.get("rules") if isinstance(setup, Mapping) else None
    return str(value) if value else DEFAULT_RULES
