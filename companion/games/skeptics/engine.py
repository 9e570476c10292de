"""The rules engine of Skeptics: pure, checked, with an explicit history (push/pop) and exact replay.

    from companion.games.skeptics.engine import Game, Setup, Command, Outcome
    from companion.games.skeptics.packs import load_packs

    game = Game.new(Setup(players=3, board="asylum", ghost="child", seed=7), load_packs())
    events = game.push(Command.parse("end-round"))   # BadCommand / IllegalCommand; state unchanged on error
    game.pop()                                       # undo the last command
    game.view()                                      # JSON-safe, no secrets

Nothing here does I/O, reads a clock or uses the global random generator: every deck order comes
from the seed (``random.Random(f"{seed}:setup")``; the n-th environment reshuffle uses
``random.Random(f"{seed}:env:{n}")``) and every die face is written in the command. A command is
applied to a copy of the state, which replaces the state only when the whole command went
through; ``pop`` puts back the state from before the command (a drawn card is back on top of its
deck). docs/rules-engine.md explains how the rulebook is read, section by section.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, NamedTuple

from companion import validate
from companion.commands import (
    CommandBase,
    GameHistory,
    LegalActionBase,
    Outcome,
    RulesBase,
    StoredEvents,
    arg_bool,
    arg_choice,
    arg_int,
    arg_list,
    check_names,
)
from companion.errors import BadCommand, CardsNeeded, DiceError, IllegalCommand
from companion.games.skeptics.dice import Attempt, DieKind, Face, Requirement, parse_faces
from companion.games.skeptics.dice.requirement import (
    BASE_DICE,
    GLASS_ACTIONS,
    NO_ITEM_ACTIONS,
    action_kind,
    an,
    dice_for,
)
from companion.games.skeptics.packs import (
    ENTRANCE,
    MAX_FIRES,
    ROOM_COUNT,
    Board,
    Connection,
    EnvironmentCard,
    Ghost,
    Packs,
    icon_set_text,
)
from companion.pack_files import card_words

__all__ = [
    "ACTIONS_PER_TURN",
    "CLOCK",
    "COMMANDS",
    "ROOMS_REMOVED",
    "Command",
    "Game",
    "Outcome",
    "Setup",
    "State",
]

CLOCK = ("XII", "III", "VI", "IX")  # "Advancing the Clock"
ROOMS_REMOVED = {1: 0, 2: 2, 3: 8, 4: 11}  # "Setup: Room Deck" and "Variant Rules: 1 Player Game"
ACTIONS_PER_TURN = 3  # "Player Turn"
CLUE_TOKENS = 7  # seven clue cards on the board, one clue search token each
CLUE_CARDS = 16  # "Game Components": 16 Clue Cards
TIMERS_TO_ADVANCE = 3  # "Red Icons: Timers"
MAX_SPECIAL_ITEMS = 3  # "Setup: Special Item Deck"
PULL_SPACES = 2  # "Action 7: Pull Ghost"
MAX_ITEMS = 3  # "Search: Item": "a player may only hold up to three Items at a time"

ACTION_KINDS = ("move", "pickup", "give", "other")
ATTEMPT_ACTIONS = ("search", "solve", "prove", "unlock", "barrier", "fire")
DRAW_ARGS = ("room", "environment", "evidence")

# name -> (required args, optional args, what it does)
COMMANDS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...], str]] = MappingProxyType(
    {
        "end-turn": ((), (), "the current player's turn ends; after the last player the round ends"),
        "end-round": ((), (), "the round ends now; the clock advances"),
        "action": (
            ("kind",),
            ("free", "run", "glass", "item", "to", "corpse"),
            "spend one action on a move, pick-up, give or other (item=ID to=N: which item goes to whom)",
        ),
        "attempt": (
            ("action",),
            (
                "need",
                "timer",
                "disruption",
                "dice",
                "set",
                "door",
                "free",
                "glass",
                "aid",
                "items",
                "clue",
                "card",
                "space",
            ),
            "start a keep-and-reroll attempt (space=N: the burning space whose fire it fights)",
        ),
        "roll": (("faces",), ("keep", "free"), "one roll of the attempt under way (one action)"),
        "summon": ((), ("faces", "success", "free"), "Action 8: Summon (one action)"),
        "pull": ((), ("faces", "success", "free"), "Action 7: Pull Ghost (one action)"),
        "move-ghost": (("to",), (), "move the ghost after a successful pull or summon"),
        "ghost-at": (("room",), (), "host correction: put the ghost in a room, or room=none"),
        "reveal-clue": ((), ("card",), "a clue search token was revealed (card=N: which clue card came up)"),
        "tell-card": (
            ("effect",),
            ("n",),
            "what the real environment card did, for one not filled in yet: one effect a tap, then effect=nothing",
        ),
        "tell-fires": (
            ("spaces",),
            (),
            "where the fire tokens of the environment card in play go: spaces=N,N (the spaces of the real board's fire "
            "icons, one per icon) or spaces=none",
        ),
        "tell-ghost": (
            (),
            ("sets", "last", "seance", "ability"),
            "what the real ghost card shows, for one not filled in yet: sets=N (its icon sets), last=yes|no "
            "(was that its last set), seance=yes|no (are all its séance symbols matched), ability=doors|nothing "
            "(what its Ghost Hour ability did: closed the doors next to its room, or nothing the companion keeps)",
        ),
        "solve": ((), ("clue",), "a clue card was solved"),
        "prove": (("set",), (), "an icon set of the ghost card was proven"),
        "timer": ((), (), "the team receives a timer token"),
        "seance": ((), ("room",), "declare the séance"),
        "unlock": (("door",), (), "a door was unlocked"),
        "discard-environment": (("card",), (), "an environment card that lasts until met ends"),
        "hold": (("item",), ("player",), "an investigator now holds an item card (drawn, given or picked up)"),
        "drop": (("item",), (), "an item is dropped or leaves the game (no action)"),
    }
)
# commands whose own argument is called "room" (so it is not a card drawn in physical mode)
_OWN_ROOM = ("ghost-at", "seance")
# the commands that may draw a card (a room card, an environment card, an evidence token): by the clock's quarter hour
# (end-turn, end-round, timer, a roll's third timer), a summon's room card, a solve's evidence token (a roll's too)
_DRAWING = frozenset({"end-turn", "end-round", "timer", "roll", "summon", "solve"})
_EVIDENCE_DRAWING = frozenset({"roll", "solve"})  # those that may flip an evidence token (a solve's)
# each command's arguments as the rules read them: (required, its own, the cards it may be given in physical deck
# mode, the name of its handler in _Rules)
_SPECS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], str]] = MappingProxyType(
    {
        name: (
            required,
            (*required, *optional),
            tuple(a for a in DRAW_ARGS if not (a == "room" and name in _OWN_ROOM)),
            "do_" + name.replace("-", "_"),
        )
        for name, (required, optional, _) in COMMANDS.items()
    }
)
_OWN_ARGS = {name: frozenset(spec[1]) for name, spec in _SPECS.items()}
_REASON_TEXT = {"ghost_hour": "Ghost Hour", "ghost_mode": "Ghost Mode quarter hour", "summon": "summon"}
# ghosts that leave at the end of the round (after the last player's turn)
_ROUND_GHOSTS = ("ghost_hour", "ghost_mode", "seance", "manual")
BOX_DICE = {"clue": 5, "key": 4, "summon": 7}  # "Game Components": 5 Clue Dice, 4 Key Dice, 7 Summon Dice
_SAMPLE_FACE = {"clue": "cobweb", "key": "blank", "summon": "blank"}  # a face of each kind, to probe a roll
_LAST_QUARTER = 3  # IX: the quarter before the Ghost Hour
MAX_GHOST_SETS = 9  # the most icon sets the host may tell for a ghost card not filled in yet (the bundled: 5 or 6)
GHOST_ASKS = ("sets", "last", "seance", "ability")  # what the companion asks about a ghost card not filled in yet
# what the host may say the real ghost card's Ghost Hour ability did (tell-ghost ability=...), for one not filled in
# yet: the kind of ability the engine plays (the box's `closes_doors`), or "nothing" the companion keeps (the table
# plays it: "the Poltergeist will fling objects to all adjacent spaces", skeptics-rulebook.txt:220)
GHOST_ABILITIES = ("doors", "nothing")


# -- values ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    """What the table chose before the first turn ("Setup")."""

    players: int
    board: str
    ghost: str
    special_items: int = 3
    seed: int | str = 0
    physical: bool = False
    names: tuple[str, ...] = ()  # the players' names in turn order; empty: "Player 1", "Player 2", ...
    easier: int = 0  # "Variant Rules: Easier Play": remove one or two fewer room cards at setup (0, 1 or 2)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "players": self.players,
            "board": self.board,
            "ghost": self.ghost,
            "special_items": self.special_items,
            "seed": self.seed,
            "physical": self.physical,
        }
        if self.names:
            out["names"] = list(self.names)
        if self.easier:
            out["easier"] = self.easier
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Setup:
        if not isinstance(data, Mapping):
            raise BadCommand(f"a setup is a JSON object with players, board and ghost, not {data!r}.")
        allowed = ("players", "board", "ghost", "special_items", "seed", "physical", "names", "easier")
        unknown = [k for k in data if k not in allowed]
        if unknown:
            raise BadCommand(
                f"unknown setup field(s) {', '.join(map(str, unknown))}; the fields are {', '.join(allowed)}."
            )
        missing = [k for k in ("players", "board", "ghost") if k not in data]
        if missing:
            raise BadCommand(f"the setup lacks {', '.join(missing)}; give players (1-4), board and ghost.")
        return cls(
            players=data["players"],
            board=data["board"],
            ghost=data["ghost"],
            special_items=data.get("special_items", 3),
            seed=data.get("seed", 0),
            physical=data.get("physical", False),
            names=tuple(data["names"]) if isinstance(data.get("names"), (list, tuple)) else data.get("names", ()),
            easier=data.get("easier", 0),
        )

    def check(self, packs: Packs) -> None:
        """Raise BadCommand if this setup cannot be played with `packs`."""
        if not isinstance(self.players, int) or isinstance(self.players, bool) or not 1 <= self.players <= 4:
            raise BadCommand(f"Skeptics is played by 1 to 4 players, not {self.players!r}; give players=1..4.")
        if self.board not in packs.boards:
            raise BadCommand(f"unknown board {self.board!r}; the boards are: {', '.join(packs.boards)}.")
        if self.ghost not in packs.ghosts:
            raise BadCommand(f"unknown ghost {self.ghost!r}; the ghosts are: {', '.join(packs.ghosts)}.")
        if (
            not isinstance(self.special_items, int)
            or isinstance(self.special_items, bool)
            or not 0 <= self.special_items <= MAX_SPECIAL_ITEMS
        ):
            raise BadCommand(
                f"special_items must be 0 to {MAX_SPECIAL_ITEMS} (Setup: 'Do not use more than three cards'), "
                f"not {self.special_items!r}."
            )
        validate.seed(self.seed)  # 0 to 2^63-1, or a short text: alike for every game
        if not isinstance(self.physical, bool):
            raise BadCommand(f"physical must be true or false, not {self.physical!r}.")
        if not isinstance(self.easier, int) or isinstance(self.easier, bool) or not 0 <= self.easier <= 2:
            raise BadCommand(
                f"easier must be 0, 1 or 2 (Easier Play: one or two fewer room cards removed), not {self.easier!r}."
            )
        if not isinstance(self.names, tuple) or not all(isinstance(n, str) for n in self.names):
            raise BadCommand("the players' names must be a list of texts, one per player.")
        check_names(self.names, self.players)


class Command(CommandBase):
    """One Skeptics command, as typed (``Command.parse("summon success=true")``); args stay strings."""

    names = tuple(COMMANDS)


_ROOMS = range(1, ROOM_COUNT + 1)  # the room cards, by number
_END_TURN = Command("end-turn")  # a command to make the rules that check the legal actions with


class LegalAction(LegalActionBase):
    """One thing the table may do now (see :meth:`Game.legal_actions`).

    ``asks`` names what the caller still chooses: ``"faces"`` (the dice: roll them or tap the real
    ones), ``"need"`` (the icons of the set being attempted), ``"room"`` (a space on the map).
    ``cards`` names the cards drawn from the real decks in physical deck mode, in order.
    """

    command_type = Command


@dataclass(eq=True)
class State:
    """Everything the rules need to know. Lists are copied by `copy()`; values are immutable."""

    current: int = 0
    actions_left: int = ACTIONS_PER_TURN
    clock: int = 0  # index into CLOCK
    round: int = 1
    hour: int = 0
    # room deck ("Setup: Room Deck"); virtual: the real order, top card last
    room_deck: list[int] = field(default_factory=list)
    room_deck_left: int = 0
    removed_rooms: list[int] = field(default_factory=list)  # virtual mode only
    removed_count: int = 0
    rooms_revealed: list[int] = field(default_factory=list)
    discarded_unseen: list[int] = field(default_factory=list)  # virtual mode only: secret
    discarded_unseen_count: int = 0
    # environment deck: virtual: the order, top card last; physical: the ids that may still be in it
    env_deck: list[str] = field(default_factory=list)
    env_discard: list[str] = field(default_factory=list)
    env_active: list[str] = field(default_factory=list)
    env_reshuffles: int = 0
    # evidence tokens: virtual: the face-down order, top last; physical: the symbols not yet flipped
    evidence_left: list[str] = field(default_factory=list)
    evidence_flipped: list[str] = field(default_factory=list)
    clue_cards: list[int] = field(default_factory=list)  # the seven clue cards in play (virtual)
    clues_revealed: int = 0
    clues_solved: int = 0
    timers: int = 0
    ghost_present: bool = False
    ghost_room: int | None = None
    ghost_reason: str | None = None
    summoner: int | None = None
    pull_pending: bool = False
    ghost_mode: bool = False
    ghost_mode_why: str | None = None
    seance_declared: bool = False
    seance_room: int | None = None
    seance_active: bool = False
    seance_used: bool = False
    proven: list[bool] = field(default_factory=list)
    open_doors: list[str] = field(default_factory=list)
    attempt: Attempt | None = None
    attempt_set: int | None = None
    attempt_door: str | None = None
    attempt_counted: str = ""  # how the attempt's dice were worked out ("3 dice − Watching Eyes: 2 to roll")
    attempt_clue: int | None = None  # a solve: the position of its clue in clue_found
    attempt_card: str | None = None  # a barrier: the environment card rolled against
    final_round: bool = False
    outcome: Outcome | None = None
    # this turn's actions, for Running and cards that limit the actions other than moves ("Running", "Corpse")
    turn_moves: int = 0
    turn_others: int = 0
    ran: bool = False
    fires: int = 0  # fire tokens on the board ("Fire Card")
    fire_spaces: list[int] = field(default_factory=list)  # the space of each fire token (none in the counted reading)
    fire_asks: list[str] = field(default_factory=list)  # cards putting fire tokens, where not told yet (first first)
    attempt_space: int | None = None  # a fire fight: the burning space
    sets_done: list[str] = field(default_factory=list)  # "CARD:N": icon sets of environment cards rolled (Barrier)
    clue_found: list[int] = field(default_factory=list)  # the clue card of each revealed clue, in order (0: unknown)
    clue_done: list[int] = field(default_factory=list)  # positions in clue_found that are solved
    glass: list[int] = field(default_factory=list)  # each investigator's magnifying glass: uses left (0: none)
    glass_spent: list[int] = field(default_factory=list)  # the investigators whose glass was used up and discarded
    corpse_holder: int | None = None  # the investigator moving the Corpse ("Corpse": attached until taken over)
    env_asks: list[str] = field(default_factory=list)  # stand-in environment cards drawn, not told yet (first first)
    env_told: list[str] = field(default_factory=list)  # "card:kind:value": what the host said a stand-in does
    held: list[str] = field(default_factory=list)  # "PLAYER:ITEM": the item cards each investigator holds
    attempt_glass: bool = False  # the attempt under way uses the player's magnifying glass
    # a ghost card not filled in yet ("Cards not filled in yet"): the host tells what the real card shows
    # questions waiting, first first: "sets", "last", "seance", "ability"
    ghost_asks: list[str] = field(default_factory=list)
    ghost_sets: int = 0  # the icon sets the host said the real card has (0: not told)
    sets_told: list[str] = field(default_factory=list)  # "N=ICONS": the icons the table gave for set N (last given)
    seance_told: bool = False  # the host said every séance symbol on the real card is matched
    ability_room: int | None = None  # where the ghost appeared when its Ghost Hour ability was asked ("ability")

    def copy(self) -> State:
        new = State.__new__(State)
        d = new.__dict__
        d.update(self.__dict__)
        for name in _LIST_FIELDS:
            d[name] = list(d[name])
        return new


_LIST_FIELDS = tuple(
    name for name in State.__dataclass_fields__ if str(State.__dataclass_fields__[name].type).startswith("list")
)


# -- argument reading ---------------------------------------------------------------------------

_bool = arg_bool
_int = arg_int
_choice = arg_choice
_list = arg_list


class _Supply:
    """The cards the host drew from the real decks (physical mode), taken in the order given.

    A draw with nothing left to take records what was needed and goes on with a stand-in, so
    that one refusal can tell the host every card the command needs.
    """

    def __init__(self, physical: bool, rooms: list[int], envs: list[str], evidence: list[str]) -> None:
        self.physical = physical
        self.rooms = rooms
        self.envs = envs
        self.evidence = evidence
        self.needs: list[tuple[str, str]] = []  # (arg, why)

    def room(self, why: str, possible: Sequence[int]) -> int:
        if not self.rooms:
            self.needs.append(("room", why))
            return possible[0]
        number = self.rooms.pop(0)
        if number not in possible:
            raise IllegalCommand(
                f"room card {number} cannot be drawn now: it was already drawn and shown. The room cards "
                f"still possibly in the deck are: {', '.join(map(str, possible))}. Give the number on the card "
                "you drew."
            )
        return number

    def environment(self, why: str, possible: Sequence[str]) -> str:
        if not self.envs:
            self.needs.append(("environment", why))
            return possible[0]
        card = self.envs.pop(0)
        if card not in possible:
            raise IllegalCommand(
                f"environment card {card!r} is not in the environment deck now (it is in play, in the discard "
                f"pile or not in this game). The cards that can be drawn are: {', '.join(possible)}."
            )
        return card

    def symbol(self, why: str, possible: Sequence[str]) -> str:
        if not self.evidence:
            self.needs.append(("evidence", why))
            return possible[0]
        symbol = self.evidence.pop(0)
        if symbol not in possible:
            raise IllegalCommand(
                f"evidence token {symbol!r} cannot be flipped now: it was flipped already or is not a symbol. "
                f"The tokens still face down are: {', '.join(possible)}."
            )
        return symbol

    def finish(self, name: str) -> None:
        if self.needs:
            counts: dict[str, list[str]] = {}
            for arg, why in self.needs:
                counts.setdefault(arg, []).append(why)
            wanted = []
            for arg, whys in counts.items():
                sample = {"room": "N", "environment": "ID", "evidence": "SYMBOL"}[arg]
                wanted.append(f"{arg}={','.join([sample] * len(whys))} ({'; then '.join(whys)})")
            if not self.physical:  # only an evidence token not filled in yet (names_evidence)
                raise CardsNeeded(
                    f"{name}: the evidence token this solve flips is not filled in yet, so its name names no token "
                    "on the table: turn over one of the face-down evidence tokens and add "
                    + " and ".join(wanted)
                    + ".",
                    list(self.needs),
                )
            raise CardsNeeded(
                f"{name}: in physical deck mode the host enters every card drawn from the real decks; this "
                f"command draws {len(self.needs)} card(s). Add " + " and ".join(wanted) + ", in the order drawn.",
                list(self.needs),
            )
        left: list[tuple[str, Sequence[object]]] = [
            ("room", self.rooms),
            ("environment", self.envs),
            ("evidence", self.evidence),
        ]
        for arg, values in left:
            if values:
                raise BadCommand(
                    f"{name}: {arg}={','.join(str(v) for v in values)} was given but this command draws no "
                    f"{'more ' if arg == 'room' else ''}{arg} {'token' if arg == 'evidence' else 'card'} for it; "
                    "leave it out."
                )


# -- the game -----------------------------------------------------------------------------------


# what the host may say a stand-in environment card did (tell-card effect=...): the kinds of effect the engine
# plays, with what a tap gives ("Environment Cards"; the kinds of docs/rules-engine.md, "Rules the box data
# switches on"). The last tap says how long the card lasts ("Environment Cards": "Environment Cards may end right
# away with one-time effects, may last for a full hour until the next one is drawn, or may last until the card's
# objectives are met. If it is not stated on the card, then the card lasts until the conditions are met."), as a
# duration of the pack's cards
_LASTS: Mapping[str, str] = MappingProxyType({"nothing": "until_met", "hour": "hour", "once": "instant"})
ENV_TAPS: Mapping[str, tuple[int, int, int]] = MappingProxyType(
    {  # effect -> (a tap's amount, lowest, highest)
        "clue-dice": (-1, -2, 2),
        "actions": (2, 1, 3),
        "fires": (1, 1, 10),  # the card puts fire tokens on the fire icons: where, the host tells (tell-fires)
        "nothing": (0, 0, 0),
        "hour": (0, 0, 0),
        "once": (0, 0, 0),
    }
)


def environment_card(
    packs: Packs, told: Iterable[str], card: str, memo: dict[tuple[str, tuple[str, ...]], EnvironmentCard] | None = None
) -> EnvironmentCard:
    """The environment card as it plays: the pack's card once filled in; a stand-in plays no effect of its own,
    only what the host told (`told`: "card:kind:value" entries of tell-card). `memo` keeps the stand-ins already
    made for one game's packs (they are values)."""
    info = packs.environment[card]
    if not info.placeholder:
        return info
    prefix = card + ":"
    said = tuple(entry for entry in told if entry.startswith(prefix))
    key = (card, said)
    if memo is not None and key in memo:
        return memo[key]
    kinds = {kind: int(value) for entry in said for kind, value in [entry[len(prefix) :].split(":")]}
    made = replace(
        info,
        clue_dice=kinds.get("clue-dice", 0),
        actions=kinds.get("actions", 0),
        fires=kinds.get("fires", 0),
        icon_sets=(),
        duration="hour" if kinds.get("hour") else info.duration,
    )
    if memo is not None:
        memo[key] = made
    return made


def other_actions_limit(cards: Iterable[EnvironmentCard]) -> tuple[int, EnvironmentCard | None]:
    """The fewest actions other than moves a card in play allows each turn (the Corpse: two), and the first card
    that allows so few; (0, None) when no card limits them."""
    limits = [c for c in cards if c.actions]
    return (min(c.actions for c in limits), min(limits, key=lambda c: (c.actions, c.name))) if limits else (0, None)


def other_actions_left(s: State, limit: int) -> int | None:
    """How many of the turn's actions left may be other than moves while a card limits them to `limit` each turn
    (other_actions_limit; "Corpse": "two Actions per turn, excluding Move Actions"): no more than the actions left
    ("Player Turn") nor than the limit less those used; None when no card limits them (0: every action left may be
    any)."""
    return max(0, min(s.actions_left, limit - s.turn_others)) if limit else None


def rolls_left(s: State, limit: int, timer_coming: bool = False) -> int | None:
    """How many more rolls the attempt under way can really have this turn (None without one): the actions left
    ("Player Turn"), no more than the actions other than moves a card still allows (`limit`, other_actions_limit;
    "Corpse": "two Actions per turn, excluding Move Actions"; a roll is such an action), and on a timer set no more
    than the rolls until the third timer ("Red Icons: Timers": the unsuccessful roll that gives it ends the turn),
    counting the one a roll just failed gives (`timer_coming`: not placed yet). Free rolls an item gives are not
    foreseen."""
    if s.attempt is None:
        return None
    others = other_actions_left(s, limit)
    rolls = s.actions_left if others is None else others
    if s.attempt.requirement.timer:
        rolls = min(rolls, TIMERS_TO_ADVANCE - s.timers - timer_coming)
    return max(0, rolls)


def _before_events(events: StoredEvents | None) -> int:
    """How many of a stored game's first commands were stored before the commands' events were (none stored for
    them; every command played since stores its events): 0 when the events are not known or the first one has some.
    A file reopened and played on keeps its old commands without events, the later ones with theirs."""
    if events is None:
        return 0
    return next((i for i, told in enumerate(events) if told), len(events))


def seance_matched(ghost: Ghost, s: State, asks: bool) -> bool:
    """ "Ghost Mode": "If all matching Séance symbols on a Ghost Card are found": on a card filled in, every symbol
    it lists is among the evidence flipped; on one not filled in yet (`asks`), the host said so (its symbols are
    stand-ins)."""
    if asks:
        return s.seance_told
    return all(sym in s.evidence_flipped for sym in ghost.seance_symbols)


def ghost_question(s: State) -> dict[str, Any] | None:
    """What the companion asks next about a ghost card not filled in yet (None: nothing). The environment card's
    question comes first (it came up now); "left" counts the questions after this one."""
    if s.env_asks or s.fire_asks or not s.ghost_asks:
        return None
    return {
        "kind": "ghost",
        "ask": s.ghost_asks[0],
        "left": len(s.ghost_asks) - 1,
        **({"set": s.proven.count(True)} if s.ghost_asks[0] == "last" else {}),
    }


def ghost_taps(s: State) -> list[dict[str, str]]:
    """The answers the host taps for the ghost question asked now (the args of tell-ghost)."""
    question = ghost_question(s)
    if question is None:
        return []
    ask = question["ask"]
    if ask == "ability":
        return [{ask: ability} for ability in GHOST_ABILITIES]
    if ask == "sets":
        highest = max((i + 1 for i, p in enumerate(s.proven) if p), default=1)
        return [{"sets": str(n)} for n in range(max(1, highest), MAX_GHOST_SETS + 1)]
    return [{ask: "yes"}, {ask: "no"}]


def told_set(s: State, index: int) -> str:
    """The icons the table gave for icon set `index` of a ghost card not filled in yet ("" : none given yet)."""
    prefix = f"{index}="
    return next((entry[len(prefix) :] for entry in reversed(s.sets_told) if entry.startswith(prefix)), "")


def remember_set(s: State, index: int, need: str) -> None:
    """ "Players must match the icons in a chosen set": the set printed on the card, given once by the table, is the
    same on the next attempt of that set (the last given replaces one given before: a correction)."""
    prefix = f"{index}="
    s.sets_told = [entry for entry in s.sets_told if not entry.startswith(prefix)] + [f"{prefix}{need}"]


def evidence_unseen(setup: Setup, packs: Packs, symbol: str, asks: bool) -> bool:
    """An evidence token the companion flipped for itself whose symbol is not filled in yet, for a ghost card not
    filled in yet (`asks`: the host compares the real token with the real card): its stand-in name ("Evidence 4")
    names no token the table can find, and it decides nothing. In physical deck mode the host named the token; a
    filled-in ghost card names its séance symbols by the box's evidence, which then decide Ghost Mode."""
    return asks and not setup.physical and packs.evidence[symbol].placeholder


def names_evidence(game: Game, s: State) -> bool:
    """The host names the evidence token the next solve flips, as in physical deck mode (`evidence=SYMBOL`): the
    table's decks are real, or the token on top of the companion's face-down order is not filled in yet while the ghost
    card is ("Action 4: Solve": "If the image on the Evidence Token matches any of the Séance symbols on the Ghosts'
    Card", skeptics-rulebook.txt:174-175). Its stand-in face ("Evidence 4") is no token the table can find, so it
    decides no match and no Ghost Mode: the table turns a real one over and the host says which symbol it shows. (On a
    ghost card not filled in either, the séance question asks instead: evidence_unseen; a game played before the
    companion asked, `evidence_drawn`, plays the companion's draw as it did.)"""
    if game.setup.physical:
        return True
    return game.may_name_evidence and bool(s.evidence_left) and game.packs.evidence[s.evidence_left[-1]].placeholder


class _Offered:
    """The candidates (GameHistory.candidate) that a game's legal actions check in every state, made once: the
    commands and their legal actions do not change from one state to the next, only whether they are accepted."""

    def __init__(self, game: Game) -> None:
        make = game.candidate
        told = not game.stand_in_reading  # a way not filled in yet: the host gives its keys
        self.end_turn = make("turn", "end-turn")
        self.end_round = make("turn", "end-round")
        self.seance = make("ghost", "seance", asks=("room",), sample={"room": str(ENTRANCE)})
        self.actions = tuple((kind, make("spend", "action", {"kind": kind})) for kind in ACTION_KINDS)
        self.run = make("spend", "action", {"kind": "move", "run": "true"})
        self.corpse = make("spend", "action", {"kind": "move", "corpse": "true"})
        self.glass = make("spend", "action", {"kind": "pickup", "glass": "true"})
        self.tell_card = tuple(make("card", "tell-card", {"effect": effect}) for effect in ENV_TAPS)
        self.reveal_clue = make("team", "reveal-clue")
        self.timer = make("team", "timer")
        self.solve = make("table", "solve")
        self.ghost_at = make("fix", "ghost-at", asks=("room",), sample={"room": str(ENTRANCE)})
        self.search = make("attempt", "attempt", {"action": "search"}, asks=("need",), sample={"need": "eye:1"})
        self.solve_card = make("attempt", "attempt", {"action": "solve"})
        self.solve_told = make("attempt", "attempt", {"action": "solve"}, asks=("need",), sample={"need": "eye:1"})
        self.barrier_told = make("attempt", "attempt", {"action": "barrier"}, asks=("need",), sample={"need": "eye:1"})
        self.fire = make("attempt", "attempt", {"action": "fire"})
        self.tell_fires = make("card", "tell-fires", asks=("spaces",), sample={"spaces": "none"})
        self.summon = make("ghost", "summon", asks=("faces",), sample={"success": "false"})
        self.pull = make("ghost", "pull", asks=("faces",), sample={"success": "false"})
        # each door: its key, unlock (the host opened it) and the unlock attempt
        self.doors = tuple(
            (
                door.key,
                make("table", "unlock", {"door": door.key}),
                make(
                    "attempt",
                    "attempt",
                    {"action": "unlock", "door": door.key},
                    asks=("need",) if door.placeholder and told else (),
                    sample={"need": "key:1"} if door.placeholder and told else None,
                ),
            )
            for door in game.doors
        )
        self._make = make
        self._discard: dict[str, tuple[Any, Any]] = {}

    def discard(self, card: str) -> tuple[Any, Any]:
        """The host discards environment card `card` (one that lasts until met), made once a card."""
        found = self._discard.get(card)
        if found is None:
            found = self._discard[card] = self._make("table", "discard-environment", {"card": card})
        return found


class Game(GameHistory[State]):
    """A game of Skeptics: the setup, the current state and the explicit history of commands."""

    command_type = Command
    legal_type = LegalAction
    checked = frozenset(COMMANDS)  # every handler of _Rules marks where its checks end

    def __init__(self, setup: Setup, packs: Packs, state: State) -> None:
        self.setup = setup
        self.packs = packs
        self.board: Board = packs.boards[setup.board]
        self.ghost: Ghost = packs.ghosts[setup.ghost]
        self.env_memo: dict[tuple[str, tuple[str, ...]], EnvironmentCard] = {}  # stand-ins as they play (values)
        self.in_play_memo: dict[tuple[tuple[str, ...], tuple[str, ...]], tuple[EnvironmentCard, ...]] = {}
        self.door_memo: dict[str, str] = {}  # a door as typed -> its key on the board (the board does not change)
        # id -> a command whose argument names _Rules.run read (kept, so the id names no other): the candidates
        self.args_read: dict[int, Command] = {}
        self._offered: dict[bool, _Offered] = {}  # by stand_in_reading: the candidates of every state (_made)
        self.doors: tuple[Connection, ...] = self.board.doors
        self.door_of: Mapping[str, Connection] = MappingProxyType({door.key: door for door in self.doors})
        # a game stored before the companion asked about a ghost card not filled in yet plays on as it was played
        # (see read_stored): the stand-in's icon sets, séance symbols and count, and a stand-in way's keys
        self.stand_in_reading = False
        # a game stored before the companion asked which evidence token not filled in yet came up (see read_stored):
        # the companion's own draw of it decides, as it did then
        self.evidence_drawn = False
        # a game stored before the companion asked where the fire tokens go (see read_stored): a card's fires are
        # counted, the box's 4 (or the number the host tapped), and a fire fight names no space, as it was played
        self.fires_counted = False
        # a game stored before the companion asked what a stand-in ghost's Ghost Hour ability did (see read_stored):
        # the stand-in's own ability played (its `closes_doors` closed the doors next to its room), as it was played
        self.ability_played = False
        super().__init__(state)

    @property
    def asks_ghost(self) -> bool:
        """The ghost card is not filled in yet and the companion asks the host what the real card shows."""
        return self.ghost.placeholder and not self.stand_in_reading

    @property
    def may_name_evidence(self) -> bool:
        """A game drawing its own decks whose flipped evidence token the host may name (`evidence=`): the ghost card
        is filled in. The host must name one the companion drew that is not filled in yet (names_evidence); a token
        named stays named when the box is filled in later (the game replays with the host's word)."""
        return not self.setup.physical and not self.ghost.placeholder and not self.evidence_drawn

    # -- building ---------------------------------------------------------------
    @classmethod
    def new(cls, setup: Setup, packs: Packs) -> Game:
        """Set up a game ("Setup"); BadCommand if the setup does not fit the packs."""
        if not isinstance(setup, Setup):
            raise BadCommand(f"Game.new needs a Setup, not {setup!r}.")
        setup.check(packs)
        rng = random.Random(f"{setup.seed}:setup")
        s = State()
        ghost = packs.ghosts[setup.ghost]
        s.proven = [False] * len(ghost.icon_sets)
        removed = max(0, ROOMS_REMOVED[setup.players] - setup.easier)  # "Easier Play": 1 or 2 fewer removed
        env_ids = list(packs.environment_deck(setup.board))
        symbols = list(packs.evidence)
        if setup.physical:
            s.room_deck = []
            s.removed_count = removed
            s.env_deck = sorted(env_ids)
            s.evidence_left = sorted(symbols)
        else:
            deck = list(range(1, ROOM_COUNT + 1))
            rng.shuffle(deck)
            s.removed_rooms = sorted(deck[:removed])
            s.room_deck = deck[removed:]
            s.removed_count = removed
            rng.shuffle(env_ids)
            s.env_deck = env_ids
            rng.shuffle(symbols)
            s.evidence_left = symbols
            s.clue_cards = rng.sample(range(1, CLUE_CARDS + 1), CLUE_TOKENS)
        s.room_deck_left = ROOM_COUNT - removed
        s.glass = [0] * setup.players
        return cls(setup, packs, s)

    def _offers(self) -> list[LegalAction]:
        """What the table may do now, as python-chess offers its legal moves: each one is accepted by push().

        An action that still needs a choice the engine cannot make (the faces of real dice, the icons of a
        clue token, which card came up in physical deck mode) says so in ``asks``; its ``args`` are then
        completed by the caller. The list never holds a command that push() would refuse for the rules.

        A candidate is left out by a check its command makes, asked once here (the rule's own, so one place): with
        no action left this turn (out_of_actions, as need_action refuses) no attempt, roll, summon, pull or action
        of that kind; with the ghost off the board (ghost_on_board, as check_ghost_on_board refuses) no prove and no
        pull, and with it on the board no summon; no prove of a set the ghost's "these sets first" holds back
        (first_sets_allow); no run before three moves (may_run); no carrying with no Corpse in play
        (other_actions_limit); no séance before the ghost's symbols are matched (seance_matched); with no clue
        waiting (clue_is_waiting, as clue_waiting and aim_solve refuse) no solve; with no fire (fire_on_board, as
        aim_fire refuses) no attempt at one; with no barrier in play (barrier_cards) no barrier attempt. Each is a
        refusal fewer a state; the rest is checked as push does.
        """
        s = self._state
        if s.outcome is not None:
            return []
        out: list[LegalAction] = []
        rules = self._checks(_END_TURN)
        assert isinstance(rules, _Rules)
        acts, moves, proves = not rules.out_of_actions(), not rules.out_of_actions("move"), rules.ghost_on_board()
        ghost_on_board = s.ghost_present and s.ghost_room is not None
        made = self._made()
        self.offer_made(out, made.end_turn)
        self.offer_made(out, made.end_round)
        if acts:
            self._offer_attempts(out, proves)
        if s.pull_pending and ghost_on_board:
            for to in sorted(self._reachable_now()):
                self.offer(out, "ghost", "move-ghost", {"to": str(to)})
        if seance_matched(self.ghost, s, self.asks_ghost):  # what do_seance refuses by first (Ghost Mode's symbols)
            self.offer_made(out, made.seance)
        for kind, action in made.actions:
            if moves if kind == "move" else acts:
                self.offer_made(out, action)
        if rules.may_run():
            self.offer_made(out, made.run)
        if moves and rules.other_actions_limit()[0]:  # a Corpse in play to carry (as do_action refuses)
            self.offer_made(out, made.corpse)
        if acts:
            self.offer_made(out, made.glass)
        if s.env_asks:
            for tell in made.tell_card:
                self.offer_made(out, tell)
        if s.fire_asks:
            self.offer_made(out, made.tell_fires)
        for tap in ghost_taps(s):
            self.offer(out, "card", "tell-ghost", tap)
        self.offer_made(out, made.reveal_clue)
        self.offer_made(out, made.timer)
        if rules.clue_is_waiting():
            self.offer_made(out, made.solve)
        for index, proven in enumerate(s.proven, start=1):
            if not proven and proves and rules.first_sets_allow(index):
                self.offer(out, "table", "prove", {"set": str(index)})
        for key, unlock, _ in made.doors:
            if key not in s.open_doors:
                self.offer_made(out, unlock)
        for card, info in zip(s.env_active, self.env_in_play(), strict=True):
            if info.duration == "until_met":
                self.offer_made(out, made.discard(card))
        self.offer_made(out, made.ghost_at)
        return out

    def _offer_attempts(self, out: list[LegalAction], proves: bool) -> None:
        """The legal rolls, attempts, summons and pulls (an action is left this turn; `proves`: the ghost is on the
        board to be proven)."""
        s = self._state
        rules = self._checks(_END_TURN)
        assert isinstance(rules, _Rules)
        if s.attempt is not None:
            kind = action_kind(s.attempt.action).value
            count = s.attempt.dice_to_roll
            self.offer(
                out, "roll", "roll", asks=("faces",), sample={"faces": ",".join([_SAMPLE_FACE[kind]] * max(count, 1))}
            )
        made = self._made()
        self.offer_made(out, made.search)
        if rules.clue_is_waiting():
            # the clue card filled in: its icons are known; else the host gives them
            self.offer_made(out, made.solve_card if self._solve_card() is not None else made.solve_told)
        barriers = [(c, info) for c, info in zip(s.env_active, self.env_in_play(), strict=True) if info.icon_sets]
        for card, info in barriers:
            for index in range(1, len(info.icon_sets) + 1):
                self.offer(out, "attempt", "attempt", {"action": "barrier", "card": card, "set": str(index)})
        if not barriers and rules.barrier_cards():  # a barrier without icon sets filled in: the host gives them
            self.offer_made(out, made.barrier_told)
        if rules.fire_on_board():
            if self.fires_counted:
                self.offer_made(out, made.fire)
            for space in sorted(set(s.fire_spaces)):  # one fight a burning space ("Fire Card")
                self.offer(out, "attempt", "attempt", {"action": "fire", "space": str(space)})
        # a ghost card or a door not filled in yet: the icons are the real card's, asked of the host
        asks: tuple[str, ...] = ("need",) if self.asks_ghost else ()
        for index, proven in enumerate(s.proven, start=1):
            if not proven and proves and rules.first_sets_allow(index):
                told = bool(asks) and bool(told_set(s, index))  # the table gave its icons before: not asked again
                self.offer(
                    out,
                    "attempt",
                    "attempt",
                    {"action": "prove", "set": str(index)},
                    asks=() if told else asks,
                    sample={"need": "eye:1"} if asks and not told else None,
                )
        for key, _, attempt in made.doors:
            if key not in s.open_doors:
                self.offer_made(out, attempt)
        if not proves:  # a summon brings the ghost: none while it is on the board (as do_summon refuses)
            self.offer_made(out, made.summon)
        if proves:
            self.offer_made(out, made.pull)

    def _made(self) -> _Offered:
        """The candidates of the legal actions that are the same in every state of the game, made once (offer_made);
        for each reading, as a way not filled in yet asks the host its keys in one and plays the stand-in's in the
        other (see read_stored)."""
        made = self._offered.get(self.stand_in_reading)
        if made is None:
            made = self._offered[self.stand_in_reading] = _Offered(self)
        return made

    def _checks_alone(self, command: Any) -> bool:
        """In physical deck mode a command that may draw a card is tried: what it draws is known only by applying it;
        so is a solve (or a roll) whose evidence token the host names (names_evidence)."""
        if command.name not in self.checked:
            return False
        if self.setup.physical:
            return command.name not in _DRAWING
        return not (command.name in _EVIDENCE_DRAWING and names_evidence(self, self._state))

    def _legal_with_cards(self, probe: Command, needs: Sequence[tuple[str, str]]) -> bool:
        """Physical deck mode: would `probe` be accepted once the host names the cards it draws?"""
        s = self._state
        possible = {
            "room": [str(n) for n in range(1, ROOM_COUNT + 1) if n not in s.rooms_revealed],
            "environment": self._drawable_environment(),
            "evidence": [sym for sym in self.packs.evidence if sym not in s.evidence_flipped],
        }
        args = dict(probe.args)
        taken: dict[str, list[str]] = {}
        for arg, _ in needs:
            pool = [v for v in possible.get(arg, []) if v not in taken.get(arg, [])]
            if not pool:
                return False
            taken.setdefault(arg, []).append(pool[0])
        for arg, values in taken.items():
            args[arg] = ",".join(values)
        try:
            self.check(Command(probe.name, args))
        except (BadCommand, IllegalCommand):
            return False
        return True

    def _solve_card(self) -> Any:
        """The filled-in clue card the next solve is for (its icons are known), or None."""
        s = self._state
        waiting = [i for i in range(s.clues_revealed) if i not in s.clue_done]
        if not waiting or waiting[0] >= len(s.clue_found):
            return None
        card = self.packs.clues.get(s.clue_found[waiting[0]])
        return card if card is not None and not card.placeholder else None

    def _drawable_environment(self) -> list[str]:
        """The environment cards the next Ghost Hour can draw, as `draw_environment` works it out: the deck; when it
        is empty, the discards with the cards that last an hour (they end first); when every card is in play, the
        card in play longest."""
        s = self._state
        if s.env_deck:
            return sorted(s.env_deck)
        ending = [c for c in s.env_active if self.env(c).duration == "hour"]
        pool = sorted({*s.env_discard, *ending})
        if not pool:
            lasting = [c for c in s.env_active if c not in ending]
            pool = lasting[:1]
        return pool

    def _reachable_now(self) -> set[int]:
        rules = _Rules(self, self._state.copy(), Command("move-ghost", {"to": "0"}))
        assert self._state.ghost_room is not None
        return set(rules.reachable(self._state.ghost_room))

    def _rules(self, state: State, command: Command) -> _Rules:
        return _Rules(self, state, command)

    # -- reading --------------------------------------------------------------------
    def env(self, card: str) -> EnvironmentCard:
        """An environment card as it plays now (a stand-in: what the host told, nothing of its own)."""
        return environment_card(self.packs, self._state.env_told, card, self.env_memo)

    def env_in_play(self) -> tuple[EnvironmentCard, ...]:
        return self.cards_in_play(self._state.env_active, self._state.env_told)

    def cards_in_play(self, active: Sequence[str], told: Sequence[str]) -> tuple[EnvironmentCard, ...]:
        """The environment cards in play as they play, in order; made once for each (cards, told) of this game."""
        key = (tuple(active), tuple(told))
        cards = self.in_play_memo.get(key)
        if cards is None:
            cards = tuple(environment_card(self.packs, told, c, self.env_memo) for c in active)
            self.in_play_memo[key] = cards
        return cards

    def rolls_left(self) -> int | None:
        """How many more rolls the attempt under way can really have this turn (None without one): rolls_left."""
        return rolls_left(self._state, other_actions_limit(self.env_in_play())[0])

    def view(self) -> dict[str, Any]:
        """What everyone at the table may see, JSON-safe (removed and unseen cards stay secret)."""
        s = self._state
        board, ghost = self.board, self.ghost
        # a ghost card not filled in yet: its séance symbols and icon sets are stand-ins, so none is shown as the card's
        asks = self.asks_ghost
        symbols = () if asks else ghost.seance_symbols
        matched = [sym for sym in s.evidence_flipped if sym in symbols]
        limit, limiting = other_actions_limit(self.env_in_play())
        revealed = set(s.rooms_revealed)
        view: dict[str, Any] = {
            "rules": "skeptics",
            "board": board.id,
            "board_name": board.name,
            "ghost": {
                "id": ghost.id,
                "name": ghost.name,
                # a card not filled in yet: its difficulty and the count of its top row are the stand-in's
                "difficulty": None if asks else ghost.difficulty,
                "ability": card_words(ghost.ability),
                "lingering": card_words(ghost.lingering),
                "first_sets": 0 if asks else ghost.first_sets,
                "stand_in": ghost.placeholder,
            },
            "players": self.setup.players,
            "player_names": list(self.setup.names) or [f"Player {i + 1}" for i in range(self.setup.players)],
            "special_items": self.setup.special_items,
            "easier": self.setup.easier,
            "physical": self.setup.physical,
            "current_player": s.current,
            "actions_left": s.actions_left,
            "attempt_rolls_left": self.rolls_left(),
            "question": (
                {"card": s.env_asks[0], "kind": "environment", "left": len(s.env_asks) - 1}
                if s.env_asks
                else self._fire_question()
                if s.fire_asks
                else ghost_question(s)
            ),
            "clock": CLOCK[s.clock],
            "round": s.round,
            "hour": s.hour,
            **self._view_ghost_place(),
            "room_deck_left": s.room_deck_left,
            "rooms_revealed": list(s.rooms_revealed),
            "rooms_unseen": [n for n in _ROOMS if n not in revealed],
            "room_cards_discarded_unseen": s.discarded_unseen_count,
            "room_cards_removed": s.removed_count,
            "red_markers": list(s.rooms_revealed),
            **self._view_environment(),
            "environment_deck_left": len(s.env_deck),
            "environment_discards": len(s.env_discard),
            "summon_dice": s.clues_solved,
            "timers": s.timers,
            "clues_revealed": s.clues_revealed,
            "clues_solved": s.clues_solved,
            **self._view_clues(),
            "fires": s.fires,
            "fire_spaces": sorted(set(s.fire_spaces)),
            **self._view_barriers(),
            "other_actions_limit": limit,
            "other_actions_used": s.turn_others,
            # of the actions left, how many may be other than moves, and the card that says so (None, "": any)
            "other_actions_left": other_actions_left(s, limit),
            "other_actions_card": limiting.limiting if limiting else "",
            "corpse_holder": s.corpse_holder if limit else None,
            **self._view_hands(),
            "evidence": [self._evidence_view(sym, symbols, asks) for sym in s.evidence_flipped],
            "evidence_left": CLUE_TOKENS - len(s.evidence_flipped),
            "seance_symbols": list(symbols),
            "seance_symbols_matched": matched,
            "seance_told": s.seance_told if asks else None,
            "icon_sets": self._icon_sets_view(),
            "ghost_sets_told": s.ghost_sets if asks else None,
            "ghost_mode": s.ghost_mode,
            "ghost_mode_why": s.ghost_mode_why,
            "seance_available": self._seance_ready(),
            "solo_aid": self._solo_aid(),
            "seance_declared": s.seance_declared,
            "seance_used": s.seance_used,
            "seance_active": s.seance_active,
            "pull_pending": s.pull_pending,
            "doors_open": list(s.open_doors),
            "attempt": self._attempt_view(),
            "final_round": s.final_round,
            "outcome": s.outcome.result if s.outcome else None,
            "outcome_reason": s.outcome.reason if s.outcome else None,
            "history_length": len(self._stack),
        }
        view.update(self._view_secrets())
        return view

    def _fire_question(self) -> dict[str, Any]:
        """Where the fire tokens of the card first in line go: asked of the host (tell-fires); the card named when it
        is filled in (a stand-in's name is no card on the table)."""
        s = self._state
        card = self.packs.environment[s.fire_asks[0]]
        return {
            "card": card.id,
            "kind": "fires",
            "left": len(s.fire_asks) - 1,
            **({} if card.placeholder else {"name": card.name}),
        }

    def _view_secrets(self) -> dict[str, Any]:
        """What is secret until it is not: the cards the real decks can give next (the host holds them in physical
        deck mode), and at the end the removed and unseen room cards."""
        s, packs = self._state, self.packs
        view: dict[str, Any] = {}
        if self.setup.physical:
            # The host holds the real decks: the cards that can come up next are no secret.
            pool = self._drawable_environment()
            view["environment_drawable"] = [
                {"id": c, "name": packs.environment[c].name, "stand_in": packs.environment[c].placeholder}
                for c in sorted(pool)
            ]
        if s.outcome is not None:
            view["removed_rooms"] = None if self.setup.physical else list(s.removed_rooms)
            view["room_cards_discarded"] = None if self.setup.physical else list(s.discarded_unseen)
        return view

    def _icon_sets_view(self) -> list[dict[str, Any]]:
        """The ghost card's icon sets; on a card not filled in yet their icons are the card's on the table, shown once
        the table gave them (need None until then), and there are as many as the host told; until the host told the
        count, only the sets proven or given are listed (the stand-in's count is not the card's)."""
        s = self._state
        if not self.asks_ghost:
            return [
                {"index": i + 1, "need": need, "text": icon_set_text(need), "proven": s.proven[i]}
                for i, need in enumerate(self.ghost.icon_sets)
            ]
        return [
            {"index": i + 1, "need": need, "text": icon_set_text(need) if need else "as on the card", "proven": proven}
            for i, proven in enumerate(s.proven)
            for need in (told_set(s, i + 1) or None,)
            # the sets the table spoke of: proven, rolled for, or more than the stand-in's (a "not the last" told)
            if proven or need or s.ghost_sets or i >= len(self.ghost.icon_sets)
        ]

    def _evidence_view(self, sym: str, symbols: Sequence[str], asks: bool) -> dict[str, Any]:
        """One evidence token flipped. One the companion flipped for itself whose symbol is not filled in yet
        (evidence_unseen) is no token the table can find: it is shown by no name, and matches nothing known."""
        if evidence_unseen(self.setup, self.packs, sym, asks):
            return {"symbol": None, "name": None, "stand_in": True, "matched": None}
        return {"symbol": sym, "name": self.packs.evidence[sym].name, "matched": None if asks else sym in symbols}

    def read_stored(self, commands: Sequence[CommandBase], events: StoredEvents | None = None) -> Sequence[CommandBase]:
        """The commands of a stored game still to be pushed into this new game, in the reading they were played in:
        a game played before the companion asked about a ghost card (or a way) not filled in yet (no answer told,
        and a prove that rolled for the stand-in's icons, or a command the asking reading refuses) plays on in the
        stand-in's reading. Where only playing them tells, they are pushed here in the asking reading, and none is
        left when it accepts them all; when it refuses one, the game starts again in the stand-in's reading and
        every command is left to push.

        Likewise a game played before the host named an evidence token not filled in yet (names_evidence: no
        `evidence=` in it, and a solve the newest reading refuses for want of one) plays on with the companion's own
        draw deciding, as it did (`evidence_drawn`).

        And a game played before the companion asked where a card's fire tokens go (a fire fought with no space=, or
        fire tokens tapped as a number: tell-card effect=fires n=N, or a Fire card whose stored `fires_placed` names
        no spaces, drawn and not fought yet) plays on with the fires counted (`fires_counted`). A file older still,
        stored before the commands' events were (none stored for its first commands, _before_events, also when it
        was reopened and played on since), tells only by playing: when the asking reading leaves a Fire card asking
        where its tokens go after those commands, or refuses one, it was drawn then and its fires were counted.

        And a game with a stand-in ghost played before the companion asked what its Ghost Hour ability did
        (_ability_played) plays on with the stand-in's own ability, as it did (`ability_played`)."""
        counted = any(e.get("type") == "fires_placed" and "spaces" not in e for told in events or () for e in told)
        if not any(c.name == "tell-fires" for c in commands) and (
            counted
            or any(
                (c.name == "attempt" and c.args.get("action") == "fire" and "space" not in c.args)
                or (c.name == "tell-card" and c.args.get("effect") == "fires" and "n" in c.args)
                for c in commands
            )
            or self._fire_left_asking(commands[: _before_events(events)])
        ):
            self.fires_counted = True
        if self.ghost.placeholder and self._ability_played(commands, events):
            self.ability_played = True
        stand_in_tokens = any(e.placeholder for e in self.packs.evidence.values())
        if self.may_name_evidence and stand_in_tokens and not any("evidence" in c.args for c in commands):
            if self._pushed_all(commands):
                return ()
            self.evidence_drawn = True
        stand_ins = self.ghost.placeholder or any(d.placeholder for d in self.board.doors)
        if not stand_ins or any(c.name == "tell-ghost" for c in commands):
            return commands
        proved = any(
            c.name == "attempt" and c.args.get("action") == "prove" and not c.args.get("need") for c in commands
        )
        if not (proved and self.ghost.placeholder) and self._pushed_all(commands):
            return ()
        self.stand_in_reading = True
        return commands

    def _ability_played(self, commands: Sequence[CommandBase], events: StoredEvents | None) -> bool:
        """The stored game of a stand-in ghost was played before the companion asked what its Ghost Hour ability did
        (skeptics-rulebook.txt:219): its stored events show the ghost appearing at a Ghost Hour or in Ghost Mode and
        no question about the ability (the stand-in's `closes_doors` closed the doors then). Commands stored before
        the events were tell only by playing (_before_events): pushed in the asking reading, they ask it, or one is
        refused. Events not known (None) or an answer told: no."""
        if events is None or any(c.name == "tell-ghost" and "ability" in c.args for c in commands):
            return False
        stored = [e for told in events for e in told]
        if any(e.get("type") == "card_asked" and e.get("ask") == "ability" for e in stored):
            return False
        appeared = ("ghost_hour", "ghost_mode")
        if any(
            e.get("type") == "ghost_appeared" and e.get("reason") in appeared and e.get("room") is not None
            for e in stored
        ):
            return True
        return self._ability_left_asking(commands[: _before_events(events)])

    def _ability_left_asking(self, commands: Sequence[CommandBase]) -> bool:
        """Pushed in the asking reading, `commands` ask what the ghost's ability did (or one is refused); the game is
        back before the first either way."""
        asked = False
        try:
            for c in commands:
                if any(e.get("type") == "card_asked" and e.get("ask") == "ability" for e in self.push(c)):
                    asked = True
                    break
        except (BadCommand, IllegalCommand):
            asked = True
        self._start_again()
        return asked

    def _fire_left_asking(self, commands: Sequence[CommandBase]) -> bool:
        """Pushed in the asking reading, `commands` leave a Fire card asking where its tokens go (or one is
        refused); the game is back before the first either way. None: no."""
        if not commands:
            return False
        asking = not self._pushed_all(commands) or bool(self._state.fire_asks)
        self._start_again()
        return asking

    def _pushed_all(self, commands: Sequence[CommandBase]) -> bool:
        """Push `commands` in the reading set now: True when it accepts them all; when it refuses one, False, and the
        game is back before the first (_start_again)."""
        try:
            for c in commands:
                self.push(c)
        except (BadCommand, IllegalCommand):
            self._start_again()
            return False
        return True

    def _start_again(self) -> None:
        """Back to the state before the first command (the reading may change: nothing worked out in it is kept)."""
        if self._stack:
            self._state = self._stack[0][1]
            self._stack.clear()
        self._legal.clear()
        self._checker = None

    def _view_ghost_place(self) -> dict[str, Any]:
        """Where the ghost is, and why it is there."""
        s, board = self._state, self.board
        return {
            "ghost_room": s.ghost_room if s.ghost_present else None,
            "ghost_room_name": (
                board.space_name(s.ghost_room) if s.ghost_present and s.ghost_room is not None else None
            ),
            "ghost_present": s.ghost_present,
            "ghost_reason": s.ghost_reason if s.ghost_present else None,
            "summoner": s.summoner if s.ghost_present and s.ghost_reason == "summon" else None,
        }

    def _view_environment(self) -> dict[str, Any]:
        """The environment cards in play, as they play now."""
        s, packs = self._state, self.packs
        cards = [(c, packs.environment[c], played) for c, played in zip(s.env_active, self.env_in_play(), strict=True)]
        return {
            "environment_active": [card.name for _, card, _ in cards],
            "environment": [
                {
                    "id": c,
                    "name": card.name,
                    "effect": card_words(card.effect),
                    # a stand-in lasts as the host told ("that was all"); until then nobody has said (None)
                    "duration": None if c in s.env_asks else played.duration,
                    "clue_dice": played.clue_dice,
                    "actions": played.actions,
                    "fires": played.fires,
                    "stand_in": card.placeholder,
                }
                for c, card, played in cards
            ],
        }

    def _view_clues(self) -> dict[str, Any]:
        """The clues revealed, solved and the clue cards the host can still name."""
        s, packs = self._state, self.packs
        return {
            "clue_cards_revealed": [number for number in s.clue_found if number],  # the cards the host named
            "clues": [
                {
                    "card": number or None,
                    "label": packs.clues[number].label if number in packs.clues else None,
                    "need": packs.clues[number].icon_set
                    if number in packs.clues and not packs.clues[number].placeholder
                    else None,
                    "solved": i in s.clue_done,
                }
                for i, number in enumerate(s.clue_found)
            ],
            "clue_cards_to_name": [
                {"card": c.number, "label": c.label, "need": c.icon_set}
                for c in packs.clues.values()
                if not c.placeholder and c.number not in s.clue_found
            ],
        }

    def _view_barriers(self) -> dict[str, Any]:
        """The barriers in play and their icon sets."""
        s, packs = self._state, self.packs
        return {
            "barriers": [
                {
                    "card": c,
                    "name": packs.environment[c].name,
                    "sets": [
                        {"index": i, "need": need, "text": icon_set_text(need), "done": f"{c}:{i}" in s.sets_done}
                        for i, need in enumerate(info.icon_sets, start=1)
                    ],
                }
                for c, info in zip(s.env_active, self.env_in_play(), strict=True)
                if info.icon_sets
            ],
        }

    def _view_hands(self) -> dict[str, Any]:
        """What each investigator holds, and the items left to take."""
        s, packs = self._state, self.packs
        taken = {entry.partition(":")[2] for entry in s.held}  # "player:item": the items someone holds
        return {
            "hands": [
                {
                    "player": p,
                    "glass": s.glass[p] if p < len(s.glass) else 0,
                    "items": [
                        {
                            "id": i,
                            "name": packs.items[i].name,
                            "dice": packs.items[i].dice,
                            "actions": list(packs.items[i].actions),
                            "stand_in": packs.items[i].placeholder,
                        }
                        for e in s.held
                        for who, _, i in [e.partition(":")]
                        if int(who) == p and i in packs.items
                    ],
                }
                for p in range(self.setup.players)
            ],
            "items_free": [
                {"id": i.id, "name": i.name, "dice": i.dice, "actions": list(i.actions), "stand_in": i.placeholder}
                for i in packs.items.values()
                if i.id not in taken
            ],
        }

    def _attempt_view(self) -> dict[str, Any] | None:
        s = self._state
        if s.attempt is None:
            return None
        out = s.attempt.to_dict()
        out["set"] = s.attempt_set
        out["door"] = s.attempt_door
        out["space"] = s.attempt_space
        out["counted"] = s.attempt_counted
        return out

    def _seance_ready(self) -> bool:
        """True when `seance` would be accepted now (the same checks as the command)."""
        s = self._state
        return (
            s.outcome is None
            and not s.seance_used
            and not s.final_round
            and s.clock != _LAST_QUARTER
            and seance_matched(self.ghost, s, self.asks_ghost)
        )

    def _solo_aid(self) -> bool:
        """ "Variant Rules: 1 Player Game": the player may add the aiding bonus (+1 clue die on prove rolls, to
        at most five) while the ghost is there by a summon or a séance. docs/rules-engine.md, Interpretations."""
        s = self._state
        return self.setup.players == 1 and s.ghost_present and s.ghost_reason in ("summon", "seance")

    def __repr__(self) -> str:
        s = self._state
        return (
            f"<Game {self.setup.board}/{self.setup.ghost} {self.setup.players}p round {s.round} "
            f"{CLOCK[s.clock]} history {len(self._stack)}>"
        )


# -- the rules ------------------------------------------------------------------------------------


class _Aim(NamedTuple):
    """What an attempt is for: its icon set (``need``) and the set, door, barrier card or clue it aims at (a value;
    a tuple, made fast: the legal actions make one for every attempt they check)."""

    need: str
    set_index: int | None = None
    door: str | None = None
    card: str | None = None
    clue: int | None = None
    told: bool = False  # the icons are the host's, for a card not filled in yet
    space: int | None = None  # a fire fight: the burning space


class _Rules(RulesBase[State, Command]):
    """Applies one command to a copy of the state, collecting its events."""

    def __init__(self, game: Game, state: State, cmd: Command) -> None:
        super().__init__(state, cmd)
        self.game = game
        self.setup = game.setup
        self.board = game.board
        self.ghost = game.ghost
        self.packs = game.packs
        self.supply = _Supply(self.setup.physical, [], [], [])
        self.asks_ghost = game.asks_ghost  # a ghost card not filled in yet: its icons, count and symbols are asked
        self.counted: dict[tuple[str, str | None, str | None, str | None], tuple[int, str]] = {}  # dice_counted
        self.spent: dict[str, bool] = {}  # out_of_actions, while checking

    # -- entry --------------------------------------------------------------------
    def run(self) -> None:
        cmd = self.cmd
        spec = _SPECS.get(cmd.name)
        if spec is None:
            raise BadCommand(f"unknown command {cmd.name!r}; the commands are: {', '.join(COMMANDS)}.")
        required, own, draw_args, handler = spec
        read = self.game.args_read  # a command whose argument names were read already: the same names again
        if read.get(id(cmd)) is not cmd:
            self._read_args(cmd, required, own, draw_args)
            if self.checking:  # a candidate of the legal actions: the same few are checked state after state
                if len(read) > 1024:
                    read.clear()
                read[id(cmd)] = cmd
        named = self.setup.physical or self.game.may_name_evidence  # the host may name what comes up
        if named:
            self._read_supply(cmd, draw_args)
        if self.s.outcome is not None:
            raise IllegalCommand(
                f"the game is over ({self.s.outcome}). Undo the last command if it was a mistake, or start a new game."
            )
        getattr(self, handler)()
        if named:  # a game that draws its own cards takes none from the host (but a stand-in's evidence token)
            self.supply.finish(cmd.name)

    def _read_args(self, cmd: Command, required: Sequence[str], own: Sequence[str], draw_args: Sequence[str]) -> None:
        """Every argument of `cmd` is one of its command's (a drawn card's only in physical deck mode), and the ones
        it needs are there: BadCommand says which is not (names only; the handler reads the values)."""
        for key in () if _OWN_ARGS[cmd.name].issuperset(cmd.args) else cmd.args:  # all its own: nothing to read
            if key in own:
                continue
            if key in draw_args:
                if not self.setup.physical and not (key == "evidence" and self.game.may_name_evidence):
                    raise BadCommand(
                        f"{cmd.name}: {key}= is only given in physical deck mode; this game draws its own cards. "
                        "Leave it out."
                    )
                continue
            valid = list(own) + (list(draw_args) if self.setup.physical else [])
            raise BadCommand(
                f"{cmd.name}: unknown argument {key!r}; "
                + (f"the arguments are: {', '.join(valid)}." if valid else "it takes no arguments.")
            )
        for key in required:
            if key not in cmd.args:
                raise BadCommand(f"{cmd.name}: the argument {key}= is missing; {self._hint(cmd.name)}")

    def _hint(self, name: str) -> str:
        examples = {
            "action": "e.g. action kind=move (kinds: " + ", ".join(ACTION_KINDS) + ")",
            "attempt": "e.g. attempt action=search need=eye:2,camera:1 (actions: " + ", ".join(ATTEMPT_ACTIONS) + ")",
            "roll": "e.g. roll faces=eye,camera,cobweb",
            "move-ghost": "e.g. move-ghost to=5",
            "ghost-at": "e.g. ghost-at room=8 or ghost-at room=none",
            "prove": f"e.g. prove set=1 (sets 1-{len(self.ghost.icon_sets)})",
            "unlock": "e.g. unlock door=7-8 (doors: " + ", ".join(d.key for d in self.board.doors) + ")",
            "discard-environment": "e.g. discard-environment card=fire",
            "tell-fires": "e.g. tell-fires spaces=3,12 (the spaces of the board's fire icons) or tell-fires spaces=none",
        }
        return examples.get(name, "see docs/rules-engine.md") + "."

    def _read_supply(self, cmd: Command, draw_args: Sequence[str]) -> None:
        rooms: list[int] = []
        if "room" in draw_args and "room" in cmd.args:
            for part in _list(cmd.args["room"]):
                try:
                    number = int(part)
                except ValueError:
                    raise BadCommand(
                        f"{cmd.name}: room={cmd.args['room']!r}: a room card is a number 1 to {ROOM_COUNT}."
                    ) from None
                if not 1 <= number <= ROOM_COUNT:
                    raise BadCommand(
                        f"{cmd.name}: room card {number} does not exist; room cards are 1 to {ROOM_COUNT}."
                    )
                rooms.append(number)
        envs = [e.lower() for e in _list(cmd.args.get("environment", ""))]
        for card in envs:
            if card not in self.packs.environment:
                raise BadCommand(
                    f"{cmd.name}: unknown environment card {card!r}; the cards of this game are: "
                    f"{', '.join(self.packs.environment_deck(self.setup.board))}."
                )
        symbols = [e.lower() for e in _list(cmd.args.get("evidence", ""))]
        for sym in symbols:
            if sym not in self.packs.evidence:
                raise BadCommand(
                    f"{cmd.name}: unknown evidence symbol {sym!r}; the symbols are: {', '.join(self.packs.evidence)}."
                )
        self.supply = _Supply(self.setup.physical, rooms, envs, symbols)

    # -- helpers ------------------------------------------------------------------
    def free(self) -> bool:
        return "free" in self.cmd.args and _bool(self.cmd, "free")

    def out_of_actions(self, kind: str = "other") -> bool:
        """No action of `kind` ("move" or "other") is left this turn, free=true aside: the three are used ("Player
        Turn"), or a card in play allows no more actions other than moves (the Corpse)."""
        if self.checking:  # the state does not change: each kind is worked out once
            found = self.spent.get(kind)
            if found is None:
                found = self.spent[kind] = self._out_of_actions(kind)
            return found
        return self._out_of_actions(kind)

    def _out_of_actions(self, kind: str) -> bool:
        s = self.s
        if s.actions_left <= 0:
            return True
        limit, _ = self.other_actions_limit()
        return kind != "move" and bool(limit) and s.turn_others >= limit

    def need_action(self, kind: str = "other") -> None:
        """An action of `kind` is left this turn (out_of_actions), or the command is free."""
        s = self.s
        if self.free() or not self.out_of_actions(kind):
            return
        if s.actions_left <= 0:
            self.illegal(
                f"player {s.current + 1} has used all {ACTIONS_PER_TURN} actions of this turn "
                "(Player Turn: up to three actions); end-turn ends it, or add free=true if an item "
                "gives a free action."
                + (
                    " Three moves in a row let the player run a fourth space with action kind=move run=true."
                    if kind == "move" and self.may_run()
                    else ""
                )
            )
        limit, card = self.other_actions_limit()
        self.illegal(
            # a stand-in is "the environment card, as the Corpse", closed with its comma
            f"while {card.limiting if card else 'a card'}{',' if card and card.placeholder else ''} is in play each turn has {limit} action{'s' if limit != 1 else ''} other than "
            "moves, and they are used; move, or end the turn."
        )

    def other_actions_limit(self) -> tuple[int, EnvironmentCard | None]:
        return other_actions_limit(self.game.cards_in_play(self.s.env_active, self.s.env_told))

    def env(self, card: str) -> EnvironmentCard:
        """An environment card as it plays now (a stand-in: what the host told, nothing of its own)."""
        return environment_card(self.packs, self.s.env_told, card, self.game.env_memo)

    def may_run(self) -> bool:
        """ "Running": all three actions of the turn were moves, and the fourth space is not yet run."""
        s = self.s
        return s.actions_left <= 0 and s.turn_moves >= ACTIONS_PER_TURN and s.turn_others == 0 and not s.ran

    def spend_action(self, keep_attempt: bool = False, kind: str = "other") -> None:
        """One action is used ("Player Turn"); a different action ends the attempt and a pending pull."""
        self.need_action(kind)
        self.use_action(keep_attempt, kind)

    def use_action(self, keep_attempt: bool = False, kind: str = "other") -> None:
        """One action is used, its check (need_action) passed."""
        if not self.free():
            self.s.actions_left -= 1
            if kind == "move":
                self.s.turn_moves += 1
            else:
                self.s.turn_others += 1
        if not keep_attempt:
            self.drop_attempt("another action")
        self.s.pull_pending = False

    def dice_counted(self, action: str) -> tuple[int, str]:
        """The dice an attempt rolls, worked out from what is in play, and how ("3 dice − Watching Eyes: 2 to roll").

        FAQ: a card that reduces the dice is applied first, then the bonuses (a magnifying glass, the aid die on a
        prove, items that add dice), and never more than five clue dice are rolled. Only checking (the legal
        actions), the count is made once for each kind of attempt and its arguments, and without its words."""
        cmd = self.cmd
        if not self.checking:
            return self._dice_counted(action)
        key = (action, cmd.args.get("glass"), cmd.args.get("aid"), cmd.args.get("items"))
        found = self.counted.get(key)
        if found is None:
            found = self.counted[key] = self._dice_counted(action)
        return found

    def _dice_counted(self, action: str) -> tuple[int, str]:
        cmd = self.cmd
        kind = action_kind(action).value
        glass = "glass" in cmd.args and _bool(cmd, "glass")
        aid = "aid" in cmd.args and _bool(cmd, "aid")
        held = self.held_dice(action)
        items = _int(cmd, "items", 0, 5) if "items" in cmd.args else sum(n for _, n in held)
        if glass and action not in GLASS_ACTIONS:
            self.illegal(
                f"a magnifying glass adds a die to a search, a solve or a prove, not to {an(action)} {action}."
            )
        if aid and action != "prove":
            self.illegal("the aid die is added to a prove only (a player on the same space helps).")
        if items and action in NO_ITEM_ACTIONS:
            self.illegal("items cannot be used on environment cards, so this roll takes no item dice.")
        minus = 0
        cards: list[EnvironmentCard] = []
        # a Fire or a Barrier is rolled with "three Clue Dice" ("Fire Card": "rolling one Cobweb with three Clue
        # Dice"; "Barrier": "Players roll three Clue Dice without the use of Items"): a card that takes dice away
        # (the Watching Eyes) reduces the other clue rolls, not these
        if kind == "clue" and action not in NO_ITEM_ACTIONS:
            for info in self.game.cards_in_play(self.s.env_active, self.s.env_told):
                if info.clue_dice:
                    minus -= info.clue_dice
                    cards.append(info)
        try:
            dice = dice_for(action, glass=glass, aid=aid, items=items, minus=max(0, minus))
        except DiceError as exc:
            self.illegal(str(exc))
        if minus < 0:  # a card that adds dice (none in the rulebook): after the reduction, before the cap
            dice -= minus
        dice = min(dice, BOX_DICE[kind])  # bonuses beyond the box's dice do not count (FAQ: five clue dice at most)
        if self.checking or not (cards or glass or aid or items):
            return dice, ""
        words = [f"{BASE_DICE} dice"]
        words.extend(f"{'−' if info.clue_dice < 0 else '+'} {info.name}" for info in cards)
        item_words = (
            " ".join(f"+ {name}" for name, _ in held) if held and "items" not in cmd.args else f"+ {items} from items"
        )
        for on, word in ((glass, "+ magnifying glass"), (aid, "+ aid"), (items, item_words)):
            if on:
                words.append(word)
        return dice, " ".join(words) + f": {dice} to roll"

    def held_dice(self, action: str) -> list[tuple[str, int]]:
        """The current investigator's items that add dice to `action`, by name: [("EVP Recorder", 1)]."""
        if action in NO_ITEM_ACTIONS:
            return []
        out = []
        for entry in self.s.held:
            player, _, item_id = entry.partition(":")
            item = self.packs.items.get(item_id)
            if int(player) == self.s.current and item is not None and item.dice and action in item.actions:
                out.append((item.name, item.dice))
        return out

    def same_need(self, given: str, fixed: str, what: Callable[[], str], words: str) -> None:
        """A prove or an unlock takes its icons from the ghost card or the door: a different `need=` is refused
        (`what` names the card, in words made only for the refusal)."""
        if not given:
            return
        try:
            same = Requirement.parse(given) == Requirement.parse(fixed)
        except DiceError as exc:
            raise BadCommand(f"attempt: {exc}") from None
        if not same:
            self.illegal(
                f"{what()} needs {fixed}, not {given}: {words} come from the card and the board, "
                "with their red icons. Leave need= out."
            )

    def need_told(self, need: str, words: Callable[[], str]) -> None:
        """A card or a way not filled in yet: its icons are only the host's (the stand-in's are not played); `words`
        says what to give, made only for the refusal."""
        if not need:
            raise BadCommand(f"attempt: {words()}.")

    def glass_expires(self) -> None:
        """ "Magnifying Glass": "The use of the Magnifying Glass remains in effect until the player performs a different
        action ... or runs out of actions. The player orients the token to the next number down after the action has
        expired"; "Once the player expires the last use, the token is discarded." """
        s = self.s
        if not s.attempt_glass:
            return
        s.attempt_glass = False
        s.glass[s.current] = max(0, s.glass[s.current] - 1)
        if not s.glass[s.current] and s.current not in s.glass_spent:
            s.glass_spent.append(s.current)  # "Once the player expires the last use, the token is discarded"
        self.emit("glass_used", player=s.current, left=s.glass[s.current])

    def drop_attempt(self, why: str) -> None:
        s = self.s
        self.glass_expires()
        if s.attempt is not None:
            self.emit("attempt_ended", action=s.attempt.action, why=why, kept=[f.value for f in s.attempt.kept])
            s.attempt = None
            s.attempt_set = None
            s.attempt_door = None
            s.attempt_clue = None
            s.attempt_card = None
            s.attempt_space = None

    # -- environment cards the companion applies (Fire, Barrier) ------------------------------
    def barrier_cards(self) -> list[str]:
        """The cards in play a barrier attempt can roll against: those with icon sets, and the Barrier itself."""
        s = self.s  # the cards as they play, made once for each (cards, told) of the game
        cards = self.game.cards_in_play(s.env_active, s.env_told)
        return [c for c, info in zip(s.env_active, cards, strict=True) if info.icon_sets or c == "barrier"]

    def barrier_card(self) -> str:
        """The card in play that a barrier attempt rolls against: one with icon sets (or the Barrier itself)."""
        cmd = self.cmd
        cards = self.barrier_cards()
        if "card" in cmd.args:
            card = cmd.args["card"].strip().lower()
            if card not in cards:
                self.illegal(
                    f"{card!r} is not a barrier card in play; the barriers in play are: {', '.join(cards) or 'none'}."
                )
            return card
        if not cards:
            self.illegal("no barrier is in play: a barrier attempt is made while its environment card is in play.")
        return cards[0]

    def forget_card(self, card: str) -> None:
        """A card leaves play: what the host told of a stand-in, and the question about it, go with it."""
        s = self.s
        s.env_told = [e for e in s.env_told if not e.startswith(f"{card}:")]
        s.env_asks = [c for c in s.env_asks if c != card]
        s.fire_asks = [c for c in s.fire_asks if c != card]

    def end_card(self, card: str, why: str = "met") -> None:
        s = self.s
        if card in s.env_active:
            s.env_active.remove(card)
            s.env_discard.append(card)
            self.forget_card(card)
            self.emit("environment_ended", card=card, name=self.packs.environment[card].name, why=why)
        s.sets_done = [d for d in s.sets_done if not d.startswith(f"{card}:")]

    def fire_out(self, space: int | None) -> None:
        """ "Fire Card": the fire on `space` is put out (None: a counted fire, a game stored before fires had spaces);
        "Fires remain on the board until extinguished", then the card ends (skeptics-rulebook.txt:286-287)."""
        s = self.s
        if space is not None and space in s.fire_spaces:
            s.fire_spaces.remove(space)
        s.fires = max(0, s.fires - 1)
        self.emit("fire_out", left=s.fires, **({"space": space} if space is not None else {}))
        if s.fires == 0:
            for card in [c for c in s.env_active if self.env(c).fires and c not in s.fire_asks]:
                self.end_card(card)

    def place_fires(self, card: str, count: int | None = None) -> None:
        """ "Fire Card": "one Fire Token is placed onto each Fire icon on the game board" (skeptics-rulebook.txt:286).
        The board packs do not show the fire icons, so the companion asks the host where they are (tell-fires) and
        puts no made-up count on the board; a game stored before it asked plays on with `count` (fires_counted)."""
        s = self.s
        if self.game.fires_counted:
            s.fires = count if count is not None else MAX_FIRES
            self.emit("fires_placed", count=s.fires, card=card)
            return
        if card not in s.fire_asks:
            s.fire_asks.append(card)
            info = self.packs.environment[card]  # a stand-in's name is no card on the table: not said
            self.emit("card_asked", card=card, kind="fires", **({} if info.placeholder else {"name": info.name}))

    def barrier_set_done(self, card: str, index: int) -> None:
        """ "Barrier": "As each icon set is resolved, a blue marker is added ... When all sets are satisfied, the
        Barrier is removed." """
        s = self.s
        s.sets_done.append(f"{card}:{index}")
        sets = self.env(card).icon_sets
        left = [i for i in range(1, len(sets) + 1) if f"{card}:{i}" not in s.sets_done]
        self.emit("barrier_set_done", card=card, index=index, left=len(left))
        if not left:
            self.end_card(card)

    def clue_target(self) -> int:
        """The revealed clue a solve is for: clue=N names its card, else the oldest unsolved one."""
        s = self.s
        waiting = [i for i in range(s.clues_revealed) if i not in s.clue_done]
        if "clue" in self.cmd.args:
            number = _int(self.cmd, "clue", 1, CLUE_CARDS)
            for i in waiting:
                if i < len(s.clue_found) and s.clue_found[i] == number:
                    return i
            self.illegal(f"clue card {number} is not a revealed clue waiting to be solved.")
        return waiting[0]

    def summon_dice_or_refuse(self, what: str) -> None:
        if self.s.clues_solved < 1:
            self.illegal(
                f"a {what} needs at least one summon die, and the team has none yet ({'Action 8: Summon' if what == 'summon' else 'Action 7: Pull Ghost'}: "
                "one summon die per solved clue). Solve a clue first."
            )

    def summon_roll(self, what: str) -> bool:
        cmd = self.cmd
        has_faces, has_success = "faces" in cmd.args, "success" in cmd.args
        if has_faces == has_success:
            raise BadCommand(
                f"{what}: give either faces=... (the summon dice rolled, e.g. faces=summon,blank) or "
                "success=true|false, not " + ("both." if has_faces else "neither.")
            )
        if has_success:
            return _bool(cmd, "success")
        try:
            faces = parse_faces(cmd.args["faces"], DieKind.SUMMON)
        except DiceError as exc:
            raise BadCommand(f"{what}: {exc}") from None
        held = self.s.clues_solved
        # "Action 8: Summon" / "Action 7: Pull Ghost": the player rolls the team's summon dice, one per solved
        # clue. (The one-player aiding bonus is a clue die on prove rolls, not a summon die: see solo_aid.)
        if len(faces) != held:
            raise BadCommand(
                f"{what}: the team holds {held} summon dice, so give the faces of {held} dice, not {len(faces)}."
            )
        return Face.SUMMON in faces

    def ghost_on_board(self) -> bool:
        """The ghost is on the board: what a prove and a pull need."""
        return self.s.ghost_present

    def clue_is_waiting(self) -> bool:
        """A revealed clue is not solved yet: what a solve needs (and a solve attempt, and its rolls)."""
        return self.s.clues_solved < self.s.clues_revealed

    def fire_on_board(self) -> bool:
        """A fire is on the board: what an attempt to put one out needs."""
        return self.s.fires > 0

    def check_ghost_on_board(self, what: str) -> None:
        if not self.ghost_on_board():
            self.illegal(
                f"the ghost is not on the board; {what} only while it is (Action 6: Prove, Action 7: Pull Ghost). "
                "If it is on the board at the table, set it with ghost-at room=N."
            )

    def parse_space(self, key: str, allow_none: bool = False) -> int | None:
        text = self.cmd.args[key].strip().lower()
        if allow_none and text in ("none", "off", ""):
            return None
        if text == "entrance":
            return ENTRANCE
        try:
            number = int(text)
        except ValueError:
            raise BadCommand(
                f"{self.cmd.name}: {key}={self.cmd.args[key]!r} must be a room number 1 to {ROOM_COUNT}, "
                "0 (the Entrance)" + (" or none" if allow_none else "") + "."
            ) from None
        if not 0 <= number <= ROOM_COUNT:
            raise BadCommand(
                f"{self.cmd.name}: {key}={number} is not a space of the {self.board.name}; give 1 to {ROOM_COUNT} "
                "(rooms) or 0 (the Entrance)."
            )
        return number

    def parse_door(self, text: str) -> str:
        """The key of the door `text` names ("7-8"); BadCommand for one that is not a door of the board. Each text is
        read once a game."""
        key = self.game.door_memo.get(text)
        if key is None:
            key = self.game.door_memo[text] = self._parse_door(text)
        return key

    def _parse_door(self, text: str) -> str:
        parts = text.replace(" ", "").split("-")
        try:
            a, b = (int(p) for p in parts)
        except ValueError:
            a = b = -1
        conn = self.board.connection(min(a, b), max(a, b)) if a >= 0 else None
        if conn is None or not conn.door:
            doors = ", ".join(d.key for d in self.board.doors) or "none"
            raise BadCommand(
                f"{self.cmd.name}: door={text!r} is not a door of the {self.board.name}; the doors are: {doors}."
            )
        return conn.key

    # -- cards --------------------------------------------------------------------
    def possible_rooms(self) -> list[int]:
        return [n for n in range(1, ROOM_COUNT + 1) if n not in self.s.rooms_revealed]

    def draw_room(self, reason: str, seen: bool = True) -> int | None:
        """Draw the top room card: shown (a red marker goes there) or discarded unseen. None if none left."""
        s = self.s
        if s.room_deck_left <= 0:
            self.lose(
                "no room card is left for the ghost to appear (Game End: Losing: 'If the round expires or "
                "the Ghost does not appear, the game ends')"
            )
            return None
        number: int | None
        if self.setup.physical:
            number = (
                self.supply.room(f"the room card for the {_REASON_TEXT[reason]}", self.possible_rooms())
                if seen
                else None
            )
        else:
            number = s.room_deck.pop()
        s.room_deck_left -= 1
        if seen:
            assert number is not None
            s.rooms_revealed.append(number)
            self.emit("room_drawn", room=number, name=self.board.space_name(number), reason=reason)
        else:
            if number is not None:
                s.discarded_unseen.append(number)
            s.discarded_unseen_count += 1
            self.emit("room_discarded_unseen")
        if s.room_deck_left == 0 and not s.final_round:
            s.final_round = True
            self.emit("final_round", round=s.round)
        return number

    def draw_environment(self) -> None:
        """ "Ghost Hour Sequence": an environment card is drawn and played; reshuffle when none are left."""
        s = self.s
        for card in list(s.env_active):
            if self.env(card).duration == "hour":
                s.env_active.remove(card)
                s.env_discard.append(card)
                self.forget_card(card)
                self.emit("environment_ended", card=card, name=self.packs.environment[card].name, why="hour")
        if not s.env_deck:
            if not s.env_discard:
                # Every card is in play (they last until met): "If there are no cards left, reshuffle the deck and
                # play one" (Ghost Hour Sequence). The card in play longest ends and is shuffled back, so a card
                # is always played. docs/rules-engine.md, Interpretations.
                if not s.env_active:
                    self.emit("environment_deck_empty")
                    return
                oldest = s.env_active.pop(0)
                s.env_discard.append(oldest)
                self.forget_card(oldest)
                self.emit("environment_ended", card=oldest, name=self.packs.environment[oldest].name, why="reshuffled")
            s.env_reshuffles += 1
            pile = sorted(s.env_discard)
            s.env_discard = []
            if not self.setup.physical:
                random.Random(f"{self.setup.seed}:env:{s.env_reshuffles}").shuffle(pile)
            s.env_deck = pile
            self.emit("environment_reshuffled", cards=len(pile))
        if self.setup.physical:
            card = self.supply.environment("the environment card for the Ghost Hour", s.env_deck)
            s.env_deck.remove(card)
        else:
            card = s.env_deck.pop()
        info = self.packs.environment[card]
        self.emit(
            "environment_drawn",
            card=card,
            name=info.name,
            effect=card_words(info.effect),
            duration=info.duration,
            **({"stand_in": True} if info.placeholder else {}),
        )
        info = self.env(card)  # a stand-in plays nothing of its own until the host tells what the real card did
        if info.duration == "instant":
            s.env_discard.append(card)
        else:
            s.env_active.append(card)
            if info.placeholder:
                s.env_asks.append(card)
                self.emit("card_asked", card=card, name=info.name, kind="environment")
            if info.actions:
                s.corpse_holder = None  # a Corpse come anew lies where the clue die says, carried by nobody yet
            if info.fires:
                self.place_fires(card)

    # -- the ghost ------------------------------------------------------------------
    def appear(self, room: int | None, reason: str) -> None:
        s = self.s
        was = s.ghost_room if s.ghost_present else None
        s.ghost_present = True
        s.ghost_room = room
        s.ghost_reason = reason
        s.summoner = s.current if reason == "summon" else None
        s.pull_pending = False
        if reason != "seance" and s.seance_active:
            s.seance_active = False
            self.emit("seance_ended", why=reason)
        data: dict[str, Any] = {"room": room, "reason": reason}
        if room is not None:
            data["room_name"] = self.board.space_name(room)
        if was is not None:
            data["from"] = was
        self.emit("ghost_appeared", **data)
        # "Each time the Ghost is revealed at the Ghost Hour or during Ghost Mode (see Ghost Mode), the Ghost will
        # immediately use its Ghost Hour Ability" (skeptics-rulebook.txt:219): a card not filled in yet plays none of
        # its own, the host says what the real card's did (tell-ghost ability=...), first of what is asked of it
        ability = reason in ("ghost_hour", "ghost_mode") and room is not None
        asked = ability and self.asks_ghost and not self.game.ability_played
        if asked:
            s.ability_room = room
            self.ask_ghost("ability", first=True)
        if self.asks_ghost and not s.ghost_sets:
            self.ask_ghost("sets")  # the ghost is here to be proven: how many icon sets does the real card show?
        if ability and not asked and self.ghost.closes_doors and room is not None:
            self.close_doors(room)

    def close_doors(self, room: int) -> None:
        """The ghost's ability closes every door next to `room` ("the Child Ghost will close all adjacent doors",
        skeptics-rulebook.txt:220)."""
        s = self.s
        closed = []
        for _, conn in self.board.neighbours(room):
            if conn.door and conn.key in s.open_doors:
                s.open_doors.remove(conn.key)
                closed.append(conn.key)
        if closed:
            self.emit("doors_closed", doors=closed, by=self.ghost.name)

    def disappear(self, why: str) -> None:
        s = self.s
        if not s.ghost_present:
            return
        self.emit("ghost_disappeared", room=s.ghost_room, why=why)
        if s.seance_active:
            s.seance_active = False
            self.emit("seance_ended", why=why)
        s.ghost_present = False
        s.ghost_room = None
        s.ghost_reason = None
        s.summoner = None
        s.pull_pending = False

    def reachable(self, start: int) -> dict[int, int]:
        """Spaces a pull can move the ghost to, with the steps: up to two through open connections,
        one through a closed door, never through a secret passage ("Action 7: Pull Ghost")."""
        out: dict[int, int] = {}
        for nxt, conn in self.board.neighbours(start):
            if self.closed(conn.key, conn.door, conn.lock):
                out.setdefault(nxt, 1)
                continue
            out[nxt] = 1
            for far, conn2 in self.board.neighbours(nxt):
                if far == start or self.closed(conn2.key, conn2.door, conn2.lock):
                    continue
                out.setdefault(far, 2)
        out.pop(start, None)
        return out

    def closed(self, key: str, door: bool, lock: bool) -> bool:
        return door and (lock or key not in self.s.open_doors)

    # -- evidence and ghost mode -----------------------------------------------------
    def clue_waiting(self) -> None:
        """A solve needs a revealed clue that is not solved yet."""
        s = self.s
        if not self.clue_is_waiting():
            self.illegal(
                f"no revealed clue is waiting to be solved ({s.clues_revealed} revealed, {s.clues_solved} solved). "
                "A clue card is solved after its clue token was revealed: use reveal-clue first."
            )

    def solve_clue(self, at: int) -> None:
        """ "Action 4: Solve": +1 summon die, flip an evidence token, compare it to the séance symbols (the clue at
        `at` is waiting: clue_waiting, or the attempt's roll checked it)."""
        s = self.s
        s.clue_done.append(at)
        s.clues_solved += 1
        number = s.clue_found[at] if at < len(s.clue_found) else 0
        self.emit(
            "clue_solved",
            clues_solved=s.clues_solved,
            summon_dice=s.clues_solved,
            position=at + 1,
            **({"clue_card": number} if number else {}),
        )
        if names_evidence(self.game, s) or self.supply.evidence:  # the host says which token came up
            why = "the evidence token flipped for this solve"
            if not self.setup.physical:
                why = "the evidence token turned over at the table for this solve, the symbol it shows"
            symbol = self.supply.symbol(why, sorted(s.evidence_left))
            s.evidence_left.remove(symbol)
        else:
            symbol = s.evidence_left.pop()
        s.evidence_flipped.append(symbol)
        if evidence_unseen(self.setup, self.packs, symbol, self.asks_ghost):
            # the table turns over a token of its own: the companion's stand-in names none it can find
            self.emit("evidence_flipped", symbol=None, name=None, stand_in=True, matched=None)
        else:
            matched = None if self.asks_ghost else symbol in self.ghost.seance_symbols
            self.emit("evidence_flipped", symbol=symbol, name=self.packs.evidence[symbol].name, matched=matched)
        if self.asks_ghost and not s.seance_told and not s.seance_used:
            self.ask_ghost("seance")  # the card's symbols are the one on the table: the host compares
        elif seance_matched(self.ghost, s, self.asks_ghost):
            self.start_ghost_mode("every séance symbol is matched")

    def start_ghost_mode(self, why: str) -> None:
        """ "Ghost Mode": from now on a room card at every quarter hour, no more summons."""
        s = self.s
        if s.ghost_mode:
            return
        s.ghost_mode = True
        s.ghost_mode_why = why
        self.emit("ghost_mode_started", why=why)

    def prove_set(self, index: int, need: str | None = None) -> None:
        s = self.s
        s.proven[index - 1] = True
        if not self.asks_ghost:
            need = self.ghost.icon_sets[index - 1]
        self.emit("set_proven", index=index, **({"need": need} if need else {}))
        if not all(s.proven):
            return
        if self.asks_ghost and not s.ghost_sets:
            # "All icon sets on a Ghost Card must be Proven to win the game": how many the real card has, the host says
            self.ask_ghost("last", first=True)
            return
        self.win()

    def ask_ghost(self, ask: str, first: bool = False) -> None:
        """Ask the host about the ghost card not filled in yet (view()["question"]), once while it waits; `first`: before
        the questions already waiting."""
        if ask not in self.s.ghost_asks:
            self.s.ghost_asks.insert(0 if first else len(self.s.ghost_asks), ask)
            self.emit("card_asked", kind="ghost", ask=ask)

    def win(self) -> None:
        self.s.outcome = Outcome("won", "every icon set on the ghost card is proven (Action 6: Prove)")
        self.s.pull_pending = False
        self.drop_attempt("the game is won")
        self.emit("game_won")

    def lose(self, reason: str) -> None:
        if self.s.outcome is not None:
            return
        self.s.outcome = Outcome("lost", reason)
        self.s.pull_pending = False
        self.drop_attempt("the game is lost")
        self.emit("game_lost", reason=reason)

    # -- time -----------------------------------------------------------------------
    def end_turn(self) -> None:
        """The current player's turn ends; after the last player the round ends ("Turn Sequence")."""
        s = self.s
        self.drop_attempt("the turn ended")
        s.pull_pending = False
        if self.setup.players == 1 and s.ghost_present and s.ghost_reason == "summon":
            # "Variant Rules: 1 Player Game": a summon ends at the end of the player's turn.
            self.disappear("the summon ended with the turn")
        self.emit("turn_ended", player=s.current)
        if s.current >= self.setup.players - 1:
            self.end_round()
        else:
            s.current += 1
            s.actions_left = ACTIONS_PER_TURN
            self.start_turn()

    def start_turn(self) -> None:
        s = self.s
        s.turn_moves = s.turn_others = 0
        s.ran = False
        self.emit("turn_started", player=s.current)
        if s.ghost_present and s.ghost_reason == "summon" and s.summoner == s.current:
            # "Action 8: Summon": the ghost disappears at the beginning of the summoner's next turn.
            self.disappear("the summon ended: a full round has passed")

    def end_round(self) -> None:
        """After the last player's turn (or when the players end the round early)."""
        s = self.s
        self.emit("round_ended", round=s.round)
        if s.ghost_present and s.ghost_reason in _ROUND_GHOSTS:
            self.disappear("the round ended")
        if s.final_round:
            self.lose(
                "the round in which the last room card was drawn has ended before every icon set was proven "
                "(Game End: Losing)"
            )
            return
        s.round += 1
        s.current = 0
        s.actions_left = ACTIONS_PER_TURN
        self.advance_clock("round")
        if s.outcome is None:
            self.start_turn()

    def advance_clock(self, reason: str) -> None:
        """ "Advancing the Clock": a quarter hour; the Ghost Hour at XII; Ghost Mode draws otherwise."""
        s = self.s
        s.clock = (s.clock + 1) % 4
        if s.clock == 0:
            s.hour += 1
        self.emit("clock_advanced", clock=CLOCK[s.clock], hour=s.hour, reason=reason)
        seance = s.seance_declared
        s.seance_declared = False
        if s.clock == 0:
            if seance:  # cannot happen through the checks of `seance`; kept for safety
                s.seance_used = False
                self.emit("seance_cancelled", why="the Ghost Hour supersedes")
            self.ghost_hour()
        elif seance:
            s.seance_active = True
            self.emit("seance_started", room=s.seance_room)
            self.appear(s.seance_room, "seance")
            s.seance_active = True
        elif s.ghost_mode:
            room = self.draw_room("ghost_mode")
            if room is not None:
                self.appear(room, "ghost_mode")

    def ghost_hour(self) -> None:
        """ "Ghost Hour Sequence": the environment card first, then the room card; the ghost appears."""
        self.draw_environment()
        room = self.draw_room("ghost_hour")
        if room is None:
            return
        env = [e for e in self.events if e["type"] == "environment_drawn"]
        self.emit(
            "ghost_hour",
            environment=env[-1]["name"] if env and not env[-1].get("stand_in") else None,
            room=room,
            room_name=self.board.space_name(room),
        )
        self.appear(room, "ghost_hour")

    def add_timer(self) -> None:
        """ "Red Icons: Timers": the third token ends the turn and advances the clock; tokens reset."""
        s = self.s
        s.timers += 1
        self.emit("timer_added", timers=s.timers)
        if s.timers < TIMERS_TO_ADVANCE:
            return
        s.timers = 0
        self.emit("timers_reset")
        self.drop_attempt("the third timer ended the turn")
        s.pull_pending = False
        if s.seance_declared:
            s.seance_declared = False
            s.seance_used = False
            self.emit("seance_cancelled", why="a third timer ends a séance")
        if s.seance_active:
            s.seance_active = False
            self.emit("seance_ended", why="a third timer ends a séance")
            if s.ghost_present and s.ghost_reason == "seance":
                self.disappear("a third timer ended the séance")
        self.advance_clock("timer")
        if s.outcome is None:
            self.end_turn()

    # -- commands ----------------------------------------------------------------------
    def do_end_turn(self) -> None:
        if self.checking:
            return
        self.end_turn()

    def do_end_round(self) -> None:
        s = self.s
        if self.checking:
            return
        self.drop_attempt("the round ended")
        s.pull_pending = False
        if self.setup.players == 1 and s.ghost_present and s.ghost_reason == "summon":
            self.disappear("the summon ended with the turn")
        self.emit("turn_ended", player=s.current)
        self.end_round()

    def do_action(self) -> None:
        s = self.s
        kind = _choice(self.cmd, "kind", ACTION_KINDS)
        carries = self.flag("corpse") and self.corpse_may_go(kind)
        if self.flag("run"):
            self.run_fourth_space(kind, carries)
            return
        glass, item = self.action_args_fit(kind)
        action = "move" if kind == "move" else "other"
        self.need_action(action)
        # "Action 5: Pick Up/Give/Exchange Item": the item changes hands in the same action
        to = _int(self.cmd, "to", 1, self.setup.players) - 1 if "to" in self.cmd.args else s.current
        if item is not None:
            self.item_may_move(item, to)
        if self.checking:
            return
        self.use_action(kind=action)
        limit, limiting = self.other_actions_limit()
        others = other_actions_left(s, limit)
        # the card's pack name is stored as before (a stand-in's too): the sentence says it as the table calls it
        limited = {} if others is None else {"other_actions_left": others, "card": limiting.name if limiting else ""}
        self.emit("action", kind=kind, player=s.current, actions_left=s.actions_left, **limited)
        if carries:
            self.carry_corpse()
        if item is not None:
            self.move_item(item, to)
        if glass:
            self.take_glass_token()

    def flag(self, name: str) -> bool:
        """The command's true/false argument `name`, false when it is not given."""
        return name in self.cmd.args and _bool(self.cmd, name)

    def corpse_may_go(self, kind: str) -> bool:
        """corpse=true: the player moves the Corpse with this action ("Corpse": "To move the Corpse, a player must
        land on its space and then start moving toward the Entrance. The Corpse will be attached to that player
        until another player moves on the space and decides to take over.")"""
        if kind != "move":
            self.illegal("the Corpse is moved with Move Actions: use kind=move corpse=true.")
        if not self.other_actions_limit()[0]:
            self.illegal("no Corpse is in play to carry.")
        return True

    def run_fourth_space(self, kind: str, carries: bool) -> None:
        """run=true: "Running": "If all three consecutive actions in a turn are Move Actions, a player may run ... a
        fourth space as long as the path ... is not blocked by a door or another obstacle." """
        s = self.s
        if (carries or s.corpse_holder == s.current) and self.other_actions_limit()[0]:
            self.illegal(
                "'Players, however, cannot run with a fourth Move Action if in possession of the Corpse' "
                "(Corpse): this player carries it. Hand it over first, or end the turn."
            )
        if kind != "move":
            self.illegal("running is a fourth move; use kind=move.")
        if not self.may_run():
            self.illegal(
                "a player runs a fourth space only after all three actions of the turn were moves"
                + (", and only once a turn." if s.ran else ".")
            )
        if self.checking:
            return
        s.ran = True
        self.drop_attempt("another action")
        s.pull_pending = False
        self.emit("action", kind="move", player=s.current, actions_left=0, run=True)

    def action_args_fit(self, kind: str) -> tuple[bool, str | None]:
        """The arguments that belong to one kind of action only: glass=true (a pick-up) and the item of item= (a
        give or a pick-up, to= the player who gets it)."""
        glass = self.flag("glass")
        if glass and kind != "pickup":
            self.illegal("taking a magnifying glass is a pick-up action: use kind=pickup.")
        item = self.item_arg() if "item" in self.cmd.args else None
        if (item or "to" in self.cmd.args) and kind not in ("give", "pickup"):
            raise BadCommand("action: item= and to= are for kind=give and kind=pickup.")
        if "to" in self.cmd.args and item is None:
            raise BadCommand("action: to= says who gets the item of item=; give item= too.")
        return glass, item

    def carry_corpse(self) -> None:
        s = self.s
        if s.corpse_holder != s.current:
            s.corpse_holder = s.current
            self.emit("corpse_carried", player=s.current)

    def take_glass_token(self) -> None:
        """ "Magnifying Glass": "the player may use one action to take a Magnifying Glass Token ... they will point
        the number '3' toward them"; going back "to reset their Magnifying Glass ... counts as an action"."""
        s = self.s
        s.glass[s.current] = 3
        if s.current in s.glass_spent:
            s.glass_spent.remove(s.current)
        self.emit("glass_taken", player=s.current, left=3)

    def do_attempt(self) -> None:
        cmd, s = self.cmd, self.s
        action = _choice(cmd, "action", ATTEMPT_ACTIONS)
        self.attempt_args_fit(action)
        need = cmd.args.get("need", "").strip()
        aim = _AIMS[action](self, need) if action in _AIMS else _Aim(need)  # what it aims at is there, first
        need = aim.need
        counted = ""
        if "dice" in cmd.args:
            dice = _int(cmd, "dice", 1, 7)  # the host counted the dice at the table
        else:
            dice, counted = self.dice_counted(action)
        self.attempt_dice_fit(action, dice)
        if not need:
            raise BadCommand(
                f"attempt: give the icon set with need=..., e.g. need=eye:2,camera:1 (a {action} attempt)."
            )
        need = self.red_icons(action, need, aim.told)
        if s.actions_left <= 0 and not self.free():
            self.illegal(
                "no action is left this turn to roll for it (Player Turn: up to three actions); end the turn, or "
                "add free=true if an item gives a free action (FAQ)."
            )
        self.need_action()  # and a card that limits the actions other than moves (the Corpse)
        try:
            attempt = Attempt.start(action, Requirement.parse(need), dice=dice)
        except DiceError as exc:
            raise BadCommand(f"attempt: {exc}") from None
        glass = "glass" in cmd.args and _bool(cmd, "glass")
        if glass:
            self.glass_usable()
        if self.checking:
            return
        self.drop_attempt("a new attempt")
        s.pull_pending = False
        s.attempt = attempt
        if action == "prove" and aim.told and aim.set_index is not None and self.asks_ghost:
            remember_set(s, aim.set_index, str(attempt.requirement))
        s.attempt_set = aim.set_index
        s.attempt_door = aim.door
        s.attempt_space = aim.space
        s.attempt_card = aim.card
        s.attempt_clue = aim.clue
        if glass:
            self.take_glass()
        s.attempt_counted = counted
        self.emit(
            "attempt_started",
            action=action,
            need=str(attempt.requirement),
            dice=dice,
            set=aim.set_index,
            door=aim.door,
            player=s.current,
            **({"space": aim.space} if aim.space is not None else {}),
            **({"counted": counted} if counted else {}),
        )

    def attempt_args_fit(self, action: str) -> None:
        """The arguments that belong to one kind of attempt only."""
        cmd = self.cmd
        if "set" in cmd.args and action not in ("prove", "barrier"):
            raise BadCommand("attempt: set= is only for action=prove and action=barrier.")
        if "clue" in cmd.args and action != "solve":
            raise BadCommand("attempt: clue= is only for action=solve.")
        if "card" in cmd.args and action != "barrier":
            raise BadCommand("attempt: card= is only for action=barrier.")
        if "door" in cmd.args and action != "unlock":
            raise BadCommand("attempt: door= is only for action=unlock.")
        if "space" in cmd.args and action != "fire":
            raise BadCommand("attempt: space= is only for action=fire (the burning space whose fire it fights).")

    def aim_prove(self, need: str) -> _Aim:
        cmd, s = self.cmd, self.s
        if "set" not in cmd.args:
            raise BadCommand(
                f"attempt: a prove attempt names its icon set: add set=N (1-{len(self.ghost.icon_sets)}); "
                "'Players must call the icon set they are proving before any dice are rolled'."
            )
        set_index = _int(cmd, "set", 1, len(s.proven))
        self.check_ghost_on_board("a prove attempt is made")
        if s.proven[set_index - 1]:
            self.illegal(f"icon set {set_index} is already proven; choose another set.")
        self.check_first_sets(set_index)
        # "Action 6: Prove": "Players must match the icons in a chosen set", the set on the card on the table: a
        # ghost card not filled in yet has stand-in sets, so the icons the host gives are the set (red icons too)
        told = self.ghost.placeholder and (bool(need) or self.asks_ghost)
        if told and not need and self.asks_ghost:
            need = told_set(s, set_index)  # the icons the table gave for this set before
        if told:
            self.need_told(
                need,
                lambda: (
                    f"the ghost card is not filled in yet: give the icons of set {set_index} as "
                    "printed on the card on the table, need=eye:2,camera:1 (and timer=true or "
                    "disruption=true for a red icon)"
                ),
            )
        else:
            fixed = self.ghost.icon_sets[set_index - 1]
            self.same_need(need, fixed, lambda: f"icon set {set_index} of the ghost card", "the icon set")
            need = fixed
        return _Aim(need, set_index=set_index, told=told)

    def aim_unlock(self, need: str) -> _Aim:
        cmd = self.cmd
        if "door" not in cmd.args:
            raise BadCommand("attempt: an unlock attempt names its door: add door=A-B.")
        door = self.parse_door(cmd.args["door"])
        conn = self.game.door_of.get(door)
        assert conn is not None
        if not self.closed(door, conn.door, conn.lock):
            self.illegal(f"door {door} is already open.")
        # "Action 2: Unlock": "The number of Keys necessary is represented by either a single Key icon or an icon
        # with a number above it", on the board on the table: a way not filled in yet has stand-in keys
        told = conn.placeholder and (bool(need) or not self.game.stand_in_reading)
        if told:
            self.need_told(
                need, lambda: f"door {door} is not filled in yet: give the keys shown at it on the board, need=key:2"
            )
        else:
            fixed = f"key:{conn.keys}"
            self.same_need(need, fixed, lambda: f"door {door}", "the keys")
            need = fixed
        return _Aim(need, door=door, told=told)

    def aim_solve(self, need: str) -> _Aim:
        s = self.s
        if not self.clue_is_waiting():
            self.illegal("no revealed clue is waiting to be solved; reveal a clue first (reveal-clue).")
        clue_at = self.clue_target()
        number = s.clue_found[clue_at] if clue_at < len(s.clue_found) else 0
        card = self.packs.clues.get(number)
        if card is not None and not card.placeholder:
            # "Action 4: Solve": "The dice must match all of the icons on the Clue Card."
            self.same_need(need, card.icon_set, lambda: f"clue card {number}", "the icons")
            need = card.icon_set
        return _Aim(need, clue=clue_at)

    def aim_fire(self, need: str) -> _Aim:
        """ "Fire Card": "Players entering or sharing a space with a Fire cannot take any further actions until the
        fire is extinguished" (skeptics-rulebook.txt:286): a fire is fought on its space, so the attempt names it
        (space=N), as a search names its icon set (:144)."""
        s = self.s
        if not self.fire_on_board():
            self.illegal("there is no fire on the board to put out.")
        need = need or "cobweb:1"
        if Requirement.parse(need) != Requirement.parse("cobweb:1"):
            self.illegal("a fire is put out by rolling one cobweb (Fire Card); leave the icons to the companion.")
        if self.game.fires_counted:  # a game stored before the fires had spaces: no space to name
            if "space" in self.cmd.args:
                raise BadCommand("attempt: this game's fires were counted, not placed on spaces; leave out space=.")
            return _Aim(need)
        burning = sorted(set(s.fire_spaces))
        if "space" not in self.cmd.args:
            raise BadCommand(
                "attempt: a fire fight names the burning space whose fire it puts out: add space=N (burning now: "
                + ", ".join(map(str, burning))
                + ")."
            )
        space = self.parse_space("space")
        if space not in burning:
            self.illegal(
                f"no fire burns on space {space}; the fires are on space{'s' if len(burning) != 1 else ''} "
                + ", ".join(map(str, burning))
                + "."
            )
        return _Aim(need, space=space)

    def aim_barrier(self, need: str) -> _Aim:
        cmd, s = self.cmd, self.s
        set_index: int | None = None
        barrier_card = self.barrier_card()
        sets = self.env(barrier_card).icon_sets
        if sets:
            if "set" not in cmd.args:
                raise BadCommand(f"attempt: a barrier attempt names the barrier's icon set: add set=N (1-{len(sets)}).")
            set_index = _int(cmd, "set", 1, len(sets))
            if f"{barrier_card}:{set_index}" in s.sets_done:
                self.illegal(f"icon set {set_index} of the barrier is already rolled; choose another.")
            self.same_need(need, sets[set_index - 1], lambda: f"icon set {set_index} of the barrier", "the icon set")
            need = sets[set_index - 1]
        elif "set" in cmd.args:
            raise BadCommand("attempt: this barrier card has no icon sets filled in; give need= instead of set=.")
        return _Aim(need, set_index=set_index, card=barrier_card)

    def attempt_dice_fit(self, action: str, dice: int) -> None:
        """No more dice than the box holds, and no item dice on an environment card."""
        kind = action_kind(action)
        most = BOX_DICE[kind.value]
        if dice > most:
            # The box holds 5 clue dice and 4 key dice ("Game Components"); FAQ: "The maximum amount of Clue Dice
            # you can roll is five".
            self.illegal(
                f"{an(action)} {action} roll uses {kind.value} dice, and the box has {most} of them; "
                f"roll {most} at most (bonuses beyond that do not count)."
            )
        if action in NO_ITEM_ACTIONS and dice > BASE_DICE:
            self.illegal(
                f"a {action} roll uses {BASE_DICE} clue dice at most: 'Items, including Magnifying Glasses, cannot be "
                f"used on Environment Cards' (Environment Cards). Give dice={BASE_DICE} (fewer if a card such as "
                "the Watching Eyes takes dice away)."
            )

    def red_icons(self, action: str, need: str, told: bool) -> str:
        """The red icons the command adds (timer=true, disruption=true), where the card does not fix them (``told``:
        the host gave the icons of a card not filled in yet)."""
        cmd = self.cmd
        for red in ("timer", "disruption"):
            if red in cmd.args and _bool(cmd, red) and red not in need:
                if action in ("prove", "unlock") and not told:
                    self.illegal(
                        f"the {red} icon is not on {'that icon set' if action == 'prove' else 'that door'}; "
                        f"a {action} attempt takes its red icons from the card, so leave {red}= out."
                    )
                need += f",{red}"
        return need

    def glass_usable(self) -> None:
        """The player's magnifying glass is not used up and discarded."""
        s = self.s
        if not s.glass[s.current] and s.current in s.glass_spent:
            self.illegal(
                f"player {s.current + 1}'s magnifying glass is used up and discarded (Magnifying Glass: 'Once the "
                "player expires the last use, the token is discarded'); a new one is picked up at the Magnifying "
                "Glass icon with action kind=pickup glass=true ('This counts as an action')."
            )

    def take_glass(self) -> None:
        """The attempt uses the player's magnifying glass (glass_usable said it may)."""
        s = self.s
        if not s.glass[s.current]:
            # ticked without a glass on record: the player has a fresh one (the host knows the table)
            s.glass[s.current] = 3
        s.attempt_glass = True

    def do_roll(self) -> None:
        cmd, s = self.cmd, self.s
        attempt = s.attempt
        if attempt is None:
            self.illegal("no attempt is under way; start one first (attempt action=... need=...).")
        self.need_action()
        keep: list[str] | None = None
        if "keep" in cmd.args:
            text = cmd.args["keep"].strip().lower()
            keep = [] if text in ("", "none") else _list(text)
        # the target must still be open before dice are spent on it
        if attempt.action == "solve" and not self.clue_is_waiting():
            self.illegal("the clue of this attempt is already solved; start a new attempt.")
        if attempt.action == "prove":
            assert s.attempt_set is not None
            if s.proven[s.attempt_set - 1]:
                self.illegal(f"icon set {s.attempt_set} is already proven; start a new attempt.")
            self.check_ghost_on_board("a prove roll is made")
        if attempt.action == "unlock" and s.attempt_door in s.open_doors:
            self.illegal(f"door {s.attempt_door} is already open; start a new attempt.")
        try:
            after, out = attempt.roll(cmd.args["faces"], keep=keep)
        except DiceError as exc:
            raise BadCommand(f"roll: {exc}") from None
        if self.checking:
            return
        self.use_action(keep_attempt=True)
        s.attempt = after
        self.emit(
            "rolled",
            action=attempt.action,
            faces=[f.value for f in out.faces],
            kept=[f.value for f in out.kept],
            kept_now=[f.value for f in out.newly_kept],  # the dice of this roll among `kept`
            success=out.success,
            actions_left=s.actions_left,
            **({"chose": True} if keep is not None else {}),  # the player chose what to keep (keep=)
            # a failed roll: who may roll again, and how many times this turn (skeptics-rulebook.txt:153), said
            # at once ("Failing Search Actions")
            **(
                {}
                if out.success
                else {"player": s.current, "rolls_left": rolls_left(s, self.other_actions_limit()[0], out.timer) or 0}
            ),
        )
        if out.success:
            set_index, door, clue_at, card = s.attempt_set, s.attempt_door, s.attempt_clue, s.attempt_card
            space = s.attempt_space
            self.glass_expires()
            s.attempt = None
            s.attempt_set = None
            s.attempt_door = None
            s.attempt_clue = None
            s.attempt_card = None
            s.attempt_space = None
            self.emit("attempt_succeeded", action=attempt.action)
            if attempt.action == "solve":
                self.solve_clue(clue_at if clue_at is not None else self.clue_target())
            elif attempt.action == "prove":
                assert set_index is not None
                self.prove_set(set_index, str(attempt.requirement))
            elif attempt.action == "unlock":
                assert door is not None
                self.open_door(door)
            elif attempt.action == "fire":
                self.fire_out(space)
            elif attempt.action == "barrier" and card is not None and set_index is not None:
                self.barrier_set_done(card, set_index)
        elif out.timer:
            self.add_timer()

    def do_summon(self) -> None:
        s = self.s
        self.need_action()
        self.summon_dice_or_refuse("summon")
        if s.clock == 0:
            self.illegal(
                "no summon at the Ghost Hour (the clock is at XII; Action 8: Summon: 'not at Ghost Hour'). "
                "Summon in the rounds at III, VI or IX."
            )
        if s.ghost_mode:
            self.illegal("the ghost is in Ghost Mode: players lose the Summon action for the rest of the game.")
        if self.ghost_on_board():
            # "Action 8: Summon": a summon attempts "to Summon the Ghost", and "When successfully Summoned, the Ghost
            # is revealed": with the ghost on the board already there is nothing to summon
            how = "summoned" if s.ghost_reason == "summon" else "on the board"
            self.illegal(
                f"the ghost is already {how}; a summon brings the ghost when it is not on the board. Prove "
                "or pull it while it stays."
            )
        if s.room_deck_left <= 0:
            self.illegal("the room deck is empty: a summon draws a room card, so it cannot be made.")
        success = self.summon_roll("summon")
        if self.checking:
            return
        self.use_action()
        self.emit("summon", success=success, player=s.current)
        if success:
            room = self.draw_room("summon")
            assert room is not None
            self.appear(room, "summon")
            s.pull_pending = True  # the free pull of the summoning sequence
        else:
            self.draw_room("summon", seen=False)
            if s.final_round and not s.ghost_present:
                # "Game End: Losing": the last room card is gone and the ghost did not appear; no room card is
                # left to summon it, and no séance may follow (FAQ), so it cannot come back this round.
                self.lose(
                    "the last room card was discarded unseen by a failed summon and the ghost does not appear "
                    "(Game End: Losing: 'If the round expires or the Ghost does not appear, the game ends')"
                )

    def do_pull(self) -> None:
        s = self.s
        self.need_action()
        self.summon_dice_or_refuse("pull")
        self.check_ghost_on_board("a pull is made")
        if s.ghost_room is None:
            self.illegal("the ghost's space is not known; set it with ghost-at room=N first.")
        success = self.summon_roll("pull")
        if self.checking:
            return
        self.use_action()
        self.emit("pull", success=success, player=s.current)
        if success:
            s.pull_pending = True
        else:
            self.disappear("the pull failed")

    def do_move_ghost(self) -> None:
        s = self.s
        to = self.parse_space("to")
        assert to is not None
        if not s.pull_pending:
            self.illegal("no pull is pending: the ghost is moved after a successful pull or summon.")
        if not s.ghost_present or s.ghost_room is None:
            self.illegal("the ghost is not on the board.")
        start = s.ghost_room
        options = self.reachable(start)
        if to not in options:
            where = ", ".join(f"{n} ({self.board.space_name(n)})" for n in sorted(options)) or "nowhere"
            self.illegal(
                f"the ghost cannot be pulled from {start} to {to}: a pull moves it up to {PULL_SPACES} spaces "
                "through connected spaces, only one through a closed door, never through a secret passage "
                f"(Action 7: Pull Ghost). From {start} it can reach: {where}."
            )
        if self.checking:
            return
        s.ghost_room = to
        s.pull_pending = False
        self.emit("ghost_moved", **{"from": start, "to": to, "room_name": self.board.space_name(to)})

    def do_ghost_at(self) -> None:
        s = self.s
        room = self.parse_space("room", allow_none=True)
        if room is None and not s.ghost_present:
            self.illegal("the ghost is not on the board already.")
        if self.checking:
            return
        if room is None:
            self.disappear("the host took it off the board")
            return
        if s.ghost_present:
            start = s.ghost_room
            s.ghost_room = room
            self.emit("ghost_moved", **{"from": start, "to": room, "room_name": self.board.space_name(room)})
        else:
            self.appear(room, "manual")

    def do_tell_card(self) -> None:
        """An environment card not filled in yet came up and played nothing: the host says what the real card does,
        one effect a tap, and effect=nothing when that was all (docs/rules-engine.md, "Cards not filled in yet")."""
        s = self.s
        if not s.env_asks:
            self.illegal("no environment card is waiting to be told: the cards in play are filled in, or told.")
        card = s.env_asks[0]
        effect = _choice(self.cmd, "effect", tuple(ENV_TAPS))
        if effect in _LASTS:
            if "n" in self.cmd.args:
                raise BadCommand(
                    f"tell-card: effect={effect} takes no n=; it says the card does nothing more, and how long it lasts."
                )
            if self.checking:
                return
            s.env_asks.pop(0)
            name = self.packs.environment[card].name
            self.emit("card_told", card=card, name=name, kind="environment", lasts=_LASTS[effect])
            if effect == "hour":
                s.env_told.append(f"{card}:hour:1")
            elif effect == "once":
                self.end_card(card, why="once")
            return
        tap, low, high = ENV_TAPS[effect]
        if effect == "fires" and not self.game.fires_counted and "n" in self.cmd.args:
            raise BadCommand(
                "tell-card: effect=fires takes no n=; the card puts one fire token on each fire icon of the board, "
                "and the companion asks next where they are (tell-fires spaces=N,N)."
            )
        if "n" in self.cmd.args:
            n = _int(self.cmd, "n", low, high)
        else:  # a counted game (fires_counted) tapped the box's 4 fire tokens
            n = MAX_FIRES if effect == "fires" and self.game.fires_counted else tap
        if n == 0:
            raise BadCommand(
                "tell-card: n=0 changes nothing; when the card does nothing more, say how long it lasts: "
                "effect=nothing (until its objective is met), effect=hour or effect=once."
            )
        if self.checking:
            return
        s.env_told = [e for e in s.env_told if not e.startswith(f"{card}:{effect}:")] + [f"{card}:{effect}:{n}"]
        self.emit(
            "card_effect", card=card, name=self.packs.environment[card].name, kind="environment", effect=effect, n=n
        )
        if effect == "fires":
            self.place_fires(card, n)

    def do_tell_fires(self) -> None:
        """ "Fire Card": "When a Fire Card is drawn, one Fire Token is placed onto each Fire icon on the game board"
        (skeptics-rulebook.txt:286): the host says on which spaces of the real board the fire icons are (the board
        packs do not show them; "Fire: These icons on the game board are used when the Fire Environment Card is
        drawn", :309-310), a space once for each icon. The box has 4 fire tokens (:36). No fire icon: nothing burns,
        and the card's objective is met."""
        s = self.s
        if not s.fire_asks:
            self.illegal("no card is waiting to be told where its fire tokens go.")
        text = self.cmd.args["spaces"].strip().lower()
        spaces: list[int] = []
        if text not in ("none", "0 fires", ""):
            for part in _list(text):
                try:
                    number = int(part)
                except ValueError:
                    number = -1
                if not 0 <= number <= ROOM_COUNT:
                    raise BadCommand(
                        f"tell-fires: {part!r} is not a space of the {self.board.name}; give the spaces of the fire "
                        f"icons as numbers 1 to {ROOM_COUNT} (0: the Entrance), e.g. spaces=3,12, or spaces=none."
                    )
                spaces.append(number)
        if len(s.fire_spaces) + len(spaces) > MAX_FIRES:
            raise BadCommand(
                f"tell-fires: the box has {MAX_FIRES} fire tokens (Game Components), so at most {MAX_FIRES} burn at "
                f"once; {len(s.fire_spaces)} burn already and {len(spaces)} were given. Give each fire icon's space once."
            )
        if self.checking:
            return
        card = s.fire_asks.pop(0)
        s.fire_spaces += spaces
        s.fires = len(s.fire_spaces)
        self.emit("fires_placed", count=len(spaces), card=card, spaces=spaces)
        if not s.fires:
            self.end_card(card)

    def do_tell_ghost(self) -> None:
        """A ghost card not filled in yet: the host says what the real card shows (docs/rules-engine.md, "Cards not
        filled in yet"): how many icon sets, whether the set just proven was its last, whether every séance symbol
        is matched."""
        s, args = self.s, self.cmd.args
        given = [a for a in GHOST_ASKS if a in args]
        if len(given) != 1:
            raise BadCommand("tell-ghost: give one of sets=N, last=yes|no, seance=yes|no or ability=doors|nothing.")
        ask = given[0]
        if not self.asks_ghost:
            # filled in since (Your box): the card itself says it now, so what was told changes nothing
            if not self.checking:
                self.emit("card_told", kind="ghost", ask=ask, filled=True)
            return
        if ask == "sets":
            count = _int(self.cmd, "sets", 1, MAX_GHOST_SETS)
            self.sets_fit(count)
            if not self.checking:
                self.tell_sets(count)
            return
        if ask not in s.ghost_asks:
            what = {"last": "the last icon set", "seance": "the séance symbols", "ability": "the ghost's ability"}
            self.illegal(f"nothing is asked about {what[ask]} now.")
        if ask == "ability":
            self.tell_ability()
            return
        yes = _bool(self.cmd, ask)
        if self.checking:
            return
        s.ghost_asks.remove(ask)
        self.emit("card_told", kind="ghost", ask=ask, yes=yes)
        if ask == "seance" and yes:
            s.seance_told = True
            self.start_ghost_mode("every séance symbol is matched")
        elif ask == "last" and yes:
            self.tell_sets(s.proven.count(True))  # the sets proven: sets_fit holds
        elif ask == "last":
            s.proven.append(False)  # the real card has a set more than the stand-in: it can be proven now

    def tell_ability(self) -> None:
        """What the real card's Ghost Hour ability did (skeptics-rulebook.txt:219): the doors next to the room the
        ghost appeared in closed, as the Child Ghost's (:220), or nothing the companion keeps (the table plays it)."""
        s = self.s
        ability = _choice(self.cmd, "ability", GHOST_ABILITIES)
        if self.checking:
            return
        s.ghost_asks.remove("ability")
        room, s.ability_room = s.ability_room, None
        self.emit("card_told", kind="ghost", ask="ability", ability=ability, room=room)
        if ability == "doors" and room is not None:
            self.close_doors(room)

    def sets_fit(self, count: int) -> None:
        """The real card shows no fewer icon sets than are proven already."""
        proven = self.s.proven.count(True)
        if proven > count:
            self.illegal(f"{proven} icon sets are proven already, so the card has at least {proven}.")

    def tell_sets(self, count: int) -> None:
        """ "Icon Sets to Resolve": the real card shows `count` icon sets (sets_fit said it may); with every one
        proven the team wins."""
        s = self.s
        proven = [i + 1 for i, p in enumerate(s.proven) if p]
        # the sets proven keep their marks; the card's sets are numbered 1 to count
        marks = [True] * len(proven) + [False] * (count - len(proven))
        if proven and proven[-1] > count:
            s.proven = marks
        else:
            s.proven = (s.proven + [False] * count)[:count]
        s.ghost_sets = count
        s.ghost_asks = [a for a in s.ghost_asks if a not in ("sets", "last")]
        self.emit("card_told", kind="ghost", ask="sets", sets=count)
        if all(s.proven):
            self.win()

    def do_reveal_clue(self) -> None:
        s = self.s
        if s.clues_revealed >= CLUE_TOKENS:
            self.illegal(f"all {CLUE_TOKENS} clue tokens are already revealed.")
        if "card" in self.cmd.args:
            # the host names the clue card that came up (drawn in order from the seven face-down ones)
            card: int | None = _int(self.cmd, "card", 1, CLUE_CARDS)
            if card in s.clue_found:
                self.illegal(f"clue card {card} is already revealed.")
        else:
            # "A Clue Card is drawn, in order, from the face-down cards at the top of the Game Board": the next card
            # of the row laid out at setup; which of the sixteen it is nobody knows until the host names it, so the
            # companion says it by its place in the row (and its numbered token), never by a number of its own
            card = None
        if self.checking:
            return
        s.clues_revealed += 1
        s.clue_found.append(card or 0)
        self.emit("clue_revealed", count=s.clues_revealed, clue_card=card, position=s.clues_revealed)
        if s.clues_revealed == CLUE_TOKENS:
            self.start_ghost_mode("all seven clue tokens are revealed")

    def do_solve(self) -> None:
        self.clue_waiting()
        at = self.clue_target()
        if self.checking:
            return
        self.solve_clue(at)

    def do_prove(self) -> None:
        s = self.s
        index = _int(self.cmd, "set", 1, len(s.proven))
        self.check_ghost_on_board("a set is proven")
        if s.proven[index - 1]:
            self.illegal(f"icon set {index} is already proven; the unproven sets are: {self._unproven()}.")
        self.check_first_sets(index)
        if self.checking:
            return
        self.prove_set(index)

    def first_sets_allow(self, index: int) -> bool:
        """Icon set `index` may be proven now by the ghost's "these sets first": it is one of them, or they are all
        proven (check_first_sets)."""
        first = 0 if self.asks_ghost else self.ghost.first_sets  # a card not filled in yet: its top row is the table's
        return index <= first or all(self.s.proven[:first])

    def check_first_sets(self, index: int) -> None:
        """The ghost's lingering effect "these sets first" ("Ghost Card: Lingering Effects": "the Child Ghost requires
        the top row of icons to be solved before any other icon sets can be resolved")."""
        if not self.first_sets_allow(index):
            first = self.ghost.first_sets
            waiting = [i + 1 for i in range(min(first, len(self.s.proven))) if not self.s.proven[i]]
            self.illegal(
                f"the ghost's lingering effect: its first {first} icon sets (the top row) are proven before any "
                f"other; prove set {' or '.join(map(str, waiting))} first."
            )

    def _unproven(self) -> str:
        return ", ".join(str(i + 1) for i, p in enumerate(self.s.proven) if not p) or "none"

    def do_timer(self) -> None:
        if self.checking:
            return
        self.add_timer()

    def do_seance(self) -> None:
        s = self.s
        room = self.parse_space("room") if "room" in self.cmd.args else None
        if s.seance_used:
            self.illegal("the séance was already used: it can only be performed once per game (Séance).")
        if not seance_matched(self.ghost, s, self.asks_ghost):  # Ghost Mode's symbols, as the offers ask it too
            if self.asks_ghost:
                self.illegal(
                    "a séance needs every séance symbol on the ghost card matched first. The card is not filled in "
                    "yet, so after each solve the companion asks the host whether they all are; answer yes when they "
                    "are."
                )
            missing = [sym for sym in self.ghost.seance_symbols if sym not in s.evidence_flipped]
            self.illegal(
                f"a séance needs every séance symbol matched first; {len(missing)} of "
                f"{len(self.ghost.seance_symbols)} are not yet (Séance). Solve more clues."
            )
        if s.final_round:
            self.illegal(
                "the last room card was drawn: the game ends at the end of this round, so no séance can follow (FAQ)."
            )
        if s.clock == _LAST_QUARTER:
            self.illegal(
                "the next quarter hour is the Ghost Hour (XII), and a séance cannot be made during the Ghost Hour "
                "(Séance). Declare it in the round at XII, III or VI."
            )
        if room is None:
            self.illegal(
                "say where the séance is held: the first player's space, where the ghost will appear (seance room=N)."
            )
        if self.checking:
            return
        s.seance_declared = True
        s.seance_used = True
        s.seance_room = room
        self.emit("seance_declared", room=room, clock=CLOCK[(s.clock + 1) % 4])

    def do_unlock(self) -> None:
        key = self.parse_door(self.cmd.args["door"])
        conn = self.game.door_of.get(key)
        assert conn is not None
        if key in self.s.open_doors:
            self.illegal(f"door {key} is already open.")
        if self.checking:
            return
        self.open_door(key)

    def open_door(self, key: str) -> None:
        conn = self.game.door_of.get(key)
        assert conn is not None
        if conn.lock:
            self.emit("door_unlocked", door=key, relocks=True)
            return
        self.s.open_doors.append(key)
        self.emit("door_unlocked", door=key, relocks=False)

    def item_arg(self) -> str:
        item = self.cmd.args["item"].strip().lower()
        if item not in self.packs.items:
            raise BadCommand(f"{self.cmd.name}: unknown item {item!r}; the items are: {', '.join(self.packs.items)}.")
        return item

    def do_hold(self) -> None:
        """ "Search: Item": "a player may only hold up to three Items at a time"; an item is held by one player."""
        s = self.s
        item = self.item_arg()
        player = _int(self.cmd, "player", 1, self.setup.players) - 1 if "player" in self.cmd.args else s.current
        self.item_may_move(item, player)
        if self.checking:
            return
        self.move_item(item, player)

    def item_may_move(self, item: str, player: int) -> None:
        """ "Search: Item": "a player may only hold up to three Items at a time"; an item is held by one player."""
        s = self.s
        before = next((e for e in s.held if e.endswith(f":{item}")), None)
        if before == f"{player}:{item}":
            self.illegal(f"player {player + 1} already holds it.")
        if sum(1 for e in s.held if e.startswith(f"{player}:")) >= MAX_ITEMS:
            self.illegal(
                f"player {player + 1} holds {MAX_ITEMS} items already, the most a player may carry; drop one "
                "first (dropping is not an action)."
            )

    def move_item(self, item: str, player: int) -> None:
        """The item changes hands (item_may_move said it may)."""
        s = self.s
        before = next((e for e in s.held if e.endswith(f":{item}")), None)
        if before is not None:
            s.held.remove(before)
        s.held.append(f"{player}:{item}")
        self.emit(
            "item_held",
            player=player,
            item=item,
            name=self.packs.items[item].name,
            **({"from": int(before.partition(":")[0])} if before is not None else {}),
        )

    def do_drop(self) -> None:
        s = self.s
        item = self.item_arg()
        entry = next((e for e in s.held if e.endswith(f":{item}")), None)
        if entry is None:
            self.illegal(f"nobody holds {self.packs.items[item].name}.")
        if self.checking:
            return
        s.held.remove(entry)
        self.emit("item_dropped", player=int(entry.partition(":")[0]), item=item, name=self.packs.items[item].name)

    def do_discard_environment(self) -> None:
        s = self.s
        card = self.cmd.args["card"].strip().lower()
        if card not in self.packs.environment:
            raise BadCommand(
                f"discard-environment: unknown card {card!r}; the cards in play are: "
                f"{', '.join(s.env_active) or 'none'}."
            )
        if card not in s.env_active:
            self.illegal(f"{card!r} is not in play; the cards in play are: {', '.join(s.env_active) or 'none'}.")
        if self.checking:
            return
        self.end_card(card)
        if self.env(card).fires:
            s.fires = 0  # the host ended the Fire by hand: its tokens leave the board with it
            s.fire_spaces = []


# how each kind of attempt finds what it aims at (the others take the icon set given)
_AIMS: dict[str, Callable[[_Rules, str], _Aim]] = {
    "prove": _Rules.aim_prove,
    "unlock": _Rules.aim_unlock,
    "solve": _Rules.aim_solve,
    "fire": _Rules.aim_fire,
    "barrier": _Rules.aim_barrier,
}
