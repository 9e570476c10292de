"""The rules engine of Elder Sign: pure, checked, with an explicit history (push/pop) and exact replay.

    from companion.games.elder_sign.engine import Game, Setup, Command
    from companion.games.elder_sign.packs import load_packs

    game = Game.new(Setup(players=2, seed=7), load_packs())
    game.push("move to=3")                        # BadCommand / IllegalCommand; the state is unchanged on error
    game.push("roll faces=inv1,inv2,inv3,lore,peril,terror")
    game.pop()                                    # undo the last command
    game.view()                                   # JSON-safe, for the page and the OLED
    game.legal_actions()                          # what may be done now

Nothing here does I/O, reads a clock or uses the global random generator: the decks are shuffled at
setup by ``random.Random(f"{seed}:setup")`` (a reshuffled Mythos deck by ``random.Random(f"{seed}:mythos:{n}")``)
and every die face is written in the command. A command is applied to a copy of the state, which replaces
the state only when the whole command went through. docs/elder-sign.md explains how the rules text is read;
the comments cite its lines ("elder-sign-rules.txt:309" is written ":309").
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum, auto
from types import MappingProxyType
from typing import Any

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
    arg_ints,
    check_args,
    check_names,
)
from companion.errors import BadCommand, CardsNeeded, DiceError, IllegalCommand
from companion.games.elder_sign.dice import GREEN_DICE, Colour, Die, Face, Need, covers, parse_dice, placement
from companion.games.elder_sign.packs import (
    TASK_COSTS,
    Adventure,
    AncientOne,
    Effect,
    ElderSignPacks,
    MythosCard,
    TaskCard,
    parse_tasks,
)
from companion.words import listed

__all__ = ["CLOCK", "COMMANDS", "Command", "Game", "LegalAction", "Outcome", "Setup", "State", "RULES"]

RULES = "elder-sign"
CLOCK = ("XII", "III", "VI", "IX")  # :307 (the text's "K" is IX)
HOURS_PER_TURN = 3  # :307
ADVENTURES_IN_PLAY = 6  # :84: six cards faceup in two rows of three
MAX_PLAYERS = 8  # the text gives no player count (docs/elder-sign.md, gaps)
BOX_DICE = {Colour.GREEN: GREEN_DICE, Colour.YELLOW: 1, Colour.RED: 1}  # :60-62
ENTRANCE = "entrance"
ANCIENT_ONE = "ancient-one"
STATS = ("sanity", "stamina")

# name -> (required args, optional args, what it does)
# the commands that play a turn: none until the host copied the numbers of the cards not filled in yet (numbers_first)
PLAY_COMMANDS = frozenset(
    (
        "end-turn",
        "move",
        "add-die",
        "roll",
        "focus",
        "spell",
        "set-aside",
        "clue",
        "give-up",
        "first-aid",
        "lost-found",
        "lower",
        "complete",
    )
)
# the item cards an investigator holds that the companion counts (:329-351), as the card-did effects name them -> the
# investigator's field and the argument of `items` (an Ally's ability is printed on its card, :353-355, and offers
# nothing here, so Allies are written down, not counted)
ITEMS: Mapping[str, tuple[str, str]] = MappingProxyType(
    {
        "common-items": ("common_items", "common"),
        "unique-items": ("unique_items", "unique"),
        "spells": ("spells", "spells"),
    }
)
# the item a die of add-die comes from: "When you use a Common Item, you'll need to roll the yellow die" (:173), "When
# you spend a Unique Item in the game, you will usually roll the red die" (:175)
DIE_ITEM = MappingProxyType({"yellow": "common-items", "red": "unique-items"})
ITEM_WORDS = MappingProxyType({"common-items": "Common Item", "unique-items": "Unique Item", "spells": "Spell"})
# a roll whose dice meet more than one task waits for the player's choice (:177, :189): none of these until then
CHOICE_FIRST = PLAY_COMMANDS - {"complete", "lower"}
ENTRANCE_NAME = "the Entrance"  # a question's card when it is the Entrance sheet's Lost & Found chart (:293)


def number_to_copy(command: str, who: str) -> str:
    """What one of Game.numbers_first asks the host to copy, in words (`who`: whose investigator card): the one
    wording of the refusal below and of the page's (sentences.numbers_first_words)."""
    if command == "set-ancient-one":
        return "the Ancient One's doom track length and the Elder Signs it needs"
    return f"{who}'s sanity, stamina and clue tokens"


def choice_first_refusal(tasks: Sequence[int]) -> str:
    """The refusal of a turn's command while a roll's dice meet more than one task and the player has not chosen."""
    return (
        f"the roll's dice meet tasks {listed([str(t) for t in tasks])}, and one roll completes one task, the one the "
        "player chooses (or none): choose it first (complete task=N) (:177, :189)."
    )


def numbers_first_refusal(first: Sequence[str]) -> str:
    """The refusal of a turn's command while a card not filled in yet still has the stand-in's numbers."""
    parts = []
    for command in first:
        if command == "set-ancient-one":
            parts.append(f"{number_to_copy(command, '')} (set-ancient-one doom=N elder_signs=M)")
        else:
            player = command.rsplit("=", 1)[1]
            words = number_to_copy(command, f"player {player}'s investigator")
            parts.append(f"{words} ({command} sanity=S stamina=T clues=C)")
    return (
        "a card in play is not filled in yet, and its numbers are printed on it, not made up here: before playing "
        f"on, copy {' and '.join(parts)} (:84, :245, :419-427)."
    )


# what to do when a roll's faces do not fit the pool (read_faces), for the terminal; the page says its own way
# (sentences.FACES_AGAIN_PAGE: its dice sheet lists the pool's dice), by this sentence
FACES_AGAIN = "Give faces= one face for each die of the pool, a yellow or red die as yellow:inv4 or red:wild."


COMMANDS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...], str]] = MappingProxyType(
    {
        "end-turn": ((), ("attack",), "the active player's turn ends: the clock advances three hours (:305-323)"),
        "move": (("to",), (), "step 1: move to an adventure card or the Entrance (:99-103)"),
        "add-die": (("colour",), (), "an item adds the yellow or red die to the dice pool before a roll (:329-341)"),
        "roll": (("faces",), ("task", "lose", "hold", "on", "spell"), "one roll at the adventure or the Ancient One"),
        "focus": (
            ("die",),
            (),
            "after a roll that completed nothing: one other of its dice goes on the active investigator's marker "
            "(:213, :365-371), face unchanged, when the next roll is played",
        ),
        "spell": (
            ("die",),
            (),
            "after a roll: one of its dice goes on a Spell card the active investigator plays (:345-347), face "
            "unchanged, when the next roll is played: after a failed roll one other than the die set aside or held, "
            "after a roll that completed a task one it left; a Spell held when the items are counted",
        ),
        "set-aside": (
            ("colour",),
            (),
            "after a roll that completed nothing: the player chooses which of its dice is set aside (:211); "
            "the next roll throws the others",
        ),
        "clue": (
            ("faces",),
            ("task",),
            "spend a clue token: the dice of the failed roll in the pool are rolled again, none set aside; the dice "
            "chosen with focus and spell stay out on the marker and the Spell card (:347, :357-361, :371)",
        ),
        "complete": (
            ("task",),
            (),
            "the roll's dice meet more than one task: the one it completes, as the player chooses (:177, :189), or "
            "task=none, completing none (:179)",
        ),
        "give-up": ((), ("assist",), "stop rolling: the adventure fails (:206-219), or the attack ends (:447-449)"),
        "first-aid": ((), ("full",), "at the Entrance: regain 1 stamina and 1 sanity, or all of one or both (:291)"),
        "lost-found": (
            ("face",),
            (),
            "at the Entrance: search the Lost & Found (:293), face= the green die rolled as it lies; its chart is "
            "printed on the Entrance sheet, not here, so the host then tells what it gave (card-did)",
        ),
        "adjust": (
            ("player",),
            ("sanity", "stamina", "clues", "max_sanity", "max_stamina"),
            "a card effect changes an investigator's sanity, stamina or clues",
        ),
        "doom": (("n",), (), "a card effect adds (or removes) doom tokens (:271, :417-423)"),
        "elder-signs": (("n",), (), "a card effect gives Elder Signs (:245)"),
        "clock": (("hours",), (), "a card effect moves the clock during the turn (:185, :309)"),
        "monster": (("adventure", "need"), (), "a monster marker is placed on an adventure as a task (:377-391)"),
        "set-tasks": (
            ("adventure", "tasks"),
            ("ordered", "lock", "die", "from"),
            "enter the tasks printed on an adventure in play, top to bottom, costs after the symbols "
            '(tasks="inv:4;lore:1,peril:1,sanity:-1"); a card not filled in yet has none until then and takes '
            "ordered=true (the arrow on its left side, :281-283) or ordered=false, and lock=green|yellow|red "
            "when it shows a locked die icon (:399; during an attempt it takes a die of it at once, die=FACE the "
            "green one the player chooses, from=roll|spell|focus|assist where it is, :401)",
        ),
        "set-investigator": (
            ("player", "sanity", "stamina"),
            ("clues", "common", "unique", "spells"),
            "the sanity, stamina and clue tokens (clues=, 0 when the card lists none) printed on an investigator card "
            "not filled in yet, copied by the host (:84): the companion plays the card's numbers from then on (what "
            "was lost or gained so far still counts); with common=, unique= and spells= the starting items the card "
            "lists too, as items counts them (a new investigator after a devouring comes 'complete with their own "
            "starting items', :411)",
        ),
        "set-ancient-one": (
            ("doom", "elder_signs"),
            (),
            "the doom track's length and the Elder Sign limit printed on an Ancient One card not filled in yet, "
            "copied by the host (:245, :419-427)",
        ),
        "card-did": (
            ("effect",),
            ("n", "colour", "player", "die", "from"),
            "what the real card did, for a card not filled in yet: one effect a tap, then effect=nothing; a Mythos "
            "card's sanity, stamina or clues say whom they hit: player=all (every investigator) or player=N; a lock "
            "during an attempt takes a die of it at once, die=FACE the green one the player chooses, from=roll|spell|focus|"
            "assist where it is (:399-401)",
        ),
        "items": (
            ("player",),
            ("common", "unique", "spells"),
            "the item cards an investigator holds, as on the table (:329-351): the host counts them (all three for an "
            "investigator whose items are not counted yet) or puts the count right",
        ),
        "lower": (
            ("player", "stat"),
            (),
            "the Ancient One's attack at midnight: what the investigator of player= chose to lower by 1, "
            "stat=sanity (maximum sanity) or stat=stamina (maximum stamina) (:459)",
        ),
    }
)
# what the host may say a card not filled in yet did (card-did effect=...), with the amount a tap gives by default
CARD_EFFECTS: Mapping[str, int] = MappingProxyType(
    {
        "doom": 1,
        "sanity": -1,
        "stamina": -1,
        "clues": 1,
        "elder-signs": 1,
        "monster": 1,
        "gate": 1,
        "clock": 3,
        "lock": 1,
        # a devoured attempt's completed monster task (:395): its marker comes off the card, back to the cup (:409)
        "monster-won": 1,
        # drawn from their decks by the table (:229 Common Items, :237 Unique Items, :239 Spells, :243 Allies):
        # the companion keeps no items, it writes what the card gave
        "common-items": 1,
        "unique-items": 1,
        "spells": 1,
        "allies": 1,
        "nothing": 0,
    }
)
TABLE_DRAWS = ("common-items", "unique-items", "spells", "allies")
# the effects of a Mythos card's half that fall on investigators: whom they hit is the host's to say (player=), as the
# rules text says it only of a lingering half (:321 "All of us investigators will lose 2 Stamina"); nor does it name
# whom a Mythos card's items go to (:315-319 name only "a Doom token" and "a Monster marker" of its halves), so the host
# says that too (a game stored before gave them to every investigator, Reading.SPELLS)
AIMED = ("sanity", "stamina", "clues", *ITEMS)
# what an effect kind is called in a refusal (card-did: each kind is told once)
_TOLD_KIND: Mapping[str, str] = MappingProxyType(
    {
        "elder-signs": "Elder Signs",
        "monster": "monsters",
        "gate": "gates",
        "lock": "locked die",
    }
)
REWARD_TAPS = (
    ("elder-signs", ""),
    ("clues", ""),
    ("common-items", ""),
    ("unique-items", ""),
    ("spells", ""),
    ("allies", ""),
    ("sanity", "+1"),
    ("stamina", "+1"),
    ("gate", ""),
    ("monster", ""),
    ("doom", ""),
    ("nothing", ""),
)
# the taps offered for each part of a card (the command takes any effect, with n= for another amount)
PART_TAPS: Mapping[str, tuple[tuple[str, str], ...]] = MappingProxyType(
    {
        "immediate": (
            ("doom", ""),
            ("monster", ""),
            ("sanity", ""),
            ("stamina", ""),
            ("lock", "green"),
            ("lock", "yellow"),
            ("lock", "red"),
            ("nothing", ""),
        ),
        "at_midnight": (("sanity", ""), ("stamina", ""), ("doom", ""), ("monster", ""), ("nothing", "")),
        "terror": (("sanity", ""), ("stamina", ""), ("doom", ""), ("monster", ""), ("nothing", "")),
        # :229-271, every icon a reward may show; "a reward may not actually be beneficial" (:223): doom, monsters
        "reward": REWARD_TAPS,
        # :293 the Lost & Found chart on the Entrance sheet (not in the rules text): any icon of :229-271
        "lost_found": REWARD_TAPS,
        "penalty": (("doom", ""), ("sanity", ""), ("stamina", ""), ("monster", ""), ("nothing", "")),
        "task": (("sanity", ""), ("stamina", ""), ("clock", ""), ("nothing", "")),
        # an assistant of an attempt ended by a devouring (:373, the text silent whether that fails the card)
        "assisted": (("sanity", ""), ("stamina", ""), ("nothing", "")),
        # a monster task completed in an attempt ended by a devouring (:395, the text silent): its marker taken off
        "monster_won": (("monster-won", ""), ("nothing", "")),
        # the rest of what the devoured's turn was resolving (DEVOURED_REST): what it did to the table, if anything
        "devoured_rest": (("doom", ""), ("monster", ""), ("clock", ""), ("nothing", "")),
    }
)
# :405-415 name what a devouring costs and that the turn still ends with the clock (:413); the rest of what the
# devoured's turn was resolving (a terror of the adventure or the Mythos card, :202; a penalty, :219; a task's costs,
# :185) falls on no investigator: theirs went back to the box (:407) and the new one starts with full sanity and
# stamina, played from the next turn (:413). Whether its doom tokens, monsters or clock still happen the text does not
# say: one question to the host (part "devoured_rest", these taps), instead of the questions it replaces
DEVOURED_REST = "devoured_rest"
# the questions of the devoured's turn it replaces: (kind, part)
DEVOURED_WITHDRAWN = (("adventure", "terror"), ("adventure", "penalty"), ("adventure", "task"), ("mythos", "terror"))
# the questions of the devoured's turn whose rest is narrowed, not withdrawn: a reward (:223 "a reward may not actually
# be beneficial") and the Lost & Found (:293, any icon of :229-271): (kind, part)
DEVOURED_REWARD = (("adventure", "reward"), ("entrance", "lost_found"))
# what of such a reward, told after the devouring, still counts: what goes to the table, not to an investigator; an
# Elder Sign is put "next to the Ancient One card" (:245), a gate's card "below the six regular Adventure cards"
# (:247), a monster shows up (:269), a doom token goes on the track (:271; or comes off, :223). Its clues (:241),
# items and allies (:229-243), sanity (:249) and stamina (:265) fall on no one: the devoured's go back (:409) and the
# new investigator starts with full Sanity and Stamina, played from the next turn (:411-413)
DEVOURED_REWARD_TAPS = tuple(
    (effect, extra) for effect, extra in REWARD_TAPS if effect in ("elder-signs", "gate", "monster", "doom", "nothing")
)
# the questions of an attempt ended by a devouring, the text silent whether that fails the card (:373, :395)
DEVOUR_PARTS = ("assisted", "monster_won")
DRAW_ARGS = ("mythos", "adventure_card", "other_world")
# the event of the first command a stored game plays as now, after its stored history (Game.push, read_stored)
STORED_HISTORY_ENDS = "stored_history_ends"
# a failed roll's terror is resolved before trying again (:202-211): no roll while it is asked about and not told
TERROR_FIRST = (
    "tell what the terror did first: the next roll comes after it (a terror is resolved before trying again)."
)
# a die goes on a Spell card the active investigator plays (:345): refused when the items are counted and none is held
SPELL_NONE = (
    "{name} holds no Spell, and a die goes on a Spell card only by playing one (:345). If the table shows one, the "
    "host counts it first (items player={player} spells=1)."
)
# a die a lock took out of the attempt (:403 "you can't include that die in your rolls or use its result to complete
# tasks"): asked for a spell, a marker or a task
LOCKED_DIE = (
    "{key}={die}: that die of the last roll is locked on a card now (:399-403): it is not rolled again, goes on no "
    "Spell or marker and completes no task until the card is resolved or no longer in effect. Choose another die."
)
# nor is the attempt stopped nor the turn ended before it: "Whether or not I resolved any Terror effects, I have a couple
# of options: 1. I can try again ... 2. I can choose not to resolve the Adventure card" (:202-209)
TERROR_BEFORE_STOPPING = (
    "tell what the terror did first: a terror is resolved before choosing to try again or to stop, and before the turn "
    "ends."
)


# how the host tells an open card question, in ASKED_BEFORE_ENDING, MIDNIGHT_FIRST and PENALTY_FIRST (one place)
TELL_ASKED = "card-did effect=..., or card-did effect=nothing when the card did nothing (more); then"
# nor is the turn ended while any other card question is open: what was asked is resolved in the turn it came up in,
# before the clock (:219 the penalties, then "I move on to the Advance the Clock step"; :413 a devoured investigator's
# turn "still" ends with the clock), and the Mythos card drawn at midnight is resolved before "it's the next player's
# turn" (:317, :323). Answered in a later turn, its clock or doom would come after that turn's clock (the board and the
# companion apart)
ASKED_BEFORE_ENDING = (
    "{what} is still asked, and it belongs to this turn, before the clock (:219, :323, :413): answer with "
    + TELL_ASKED
    + " end the turn."
)
# nor is the next player's turn played while what the Mythos card did at midnight is still asked: the Mythos card is
# resolved, then "it's the next player's turn" (:311-323); the question is asked as the turn before ends, so it stands
# under the next one, whose move, rolls and end wait for it (a game stored before played them, Reading.MIDNIGHT_ASKED)
MIDNIGHT_FIRST = (
    "{what} is still asked: the Mythos card is resolved before it is the next player's turn (:311-323), so this turn "
    "waits for it. Answer with " + TELL_ASKED + " play the turn."
)
# nor is the next player's turn played while the penalty of an adventure whose attempt the end of the turn before
# failed is still asked: "When I fail an Adventure card, I have to face the penalties ... After that, I move on to the
# Advance the Clock step" (:219), and only after the clock "it's the next player's turn" (:323); the question is asked
# as the turn ends, so it stands under the next one, whose move, rolls and end wait for it (a game stored before played
# them, Reading.PENALTY_ASKED)
PENALTY_FIRST = (
    "{what} is still asked: the turn before ended with its attempt failed, and the card's penalty is faced before the "
    "clock and the next player's turn (:219, :323), so this turn waits for it. Answer with "
    + TELL_ASKED
    + " play the turn."
)
# what an open question is about, in ASKED_BEFORE_ENDING, MIDNIGHT_FIRST and PENALTY_FIRST (Question.kind, or its
# part where that says more; a Mythos card's question asked at midnight by its half)
ASKED_WORDS: Mapping[str, str] = MappingProxyType(
    {
        "midnight:at_midnight": "what the Mythos card in play did at midnight",
        "midnight:immediate": "what the Mythos card drawn at midnight did",
        DEVOURED_REST: "what is left of the devoured investigator's turn",
        "assisted": "what the assistants of the attempt ended by the devouring lost",
        "monster_won": "whether the monster marker of the attempt ended by the devouring came off",
        "lost_found": "what the Lost & Found chart gave",
        "mythos": "what the Mythos card did",
        "adventure": "what the adventure in place {slot} did",
    }
)


# a filled-in Mythos card's half that leaves whom to the table (Question.whom): the host tells whom, nothing else
WHOM_ONLY = (
    "{card} is filled in, and the companion played its card but whom its {kinds} went to, which the card leaves to "
    "the table: tell only that, card-did effect=KIND player=all (every investigator) or player=N, or card-did "
    "effect=nothing when it went to no one."
)


def whom_kinds(q: Question) -> str:
    """The effects a Question.whom asks whom they went to, in words ("stamina and Common Items")."""
    return listed([ITEM_WORDS[kind] + "s" if kind in ITEM_WORDS else kind for kind, _ in q.whom])


def aimed_of(effect: Effect) -> dict[str, int]:
    """What of an effect falls on investigators (AIMED, by card-did's effect kinds): its sanity, stamina, clues, items."""
    return {kind: getattr(effect, kind.replace("-", "_")) for kind in AIMED}


def to_the_table(effect: Effect) -> Effect:
    """An effect without what falls on investigators (aimed_of): what it does to the table."""
    return dataclasses.replace(effect, sanity=0, stamina=0, clues=0, common_items=0, unique_items=0, spells=0)


def asked_words(asked: Question) -> str:
    """What an open card question is about, in a refusal that waits for it (ASKED_WORDS)."""
    midnight = ASKED_WORDS.get(f"midnight:{asked.part}") if asked.midnight else None
    return midnight or ASKED_WORDS.get(asked.part) or ASKED_WORDS[asked.kind].format(slot=asked.slot)


# -- values ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    """What the table chose before the first turn (:78-87)."""

    players: int
    ancient_one: str = ""  # empty: drawn at random from the seed (:81)
    investigators: tuple[str, ...] = ()  # one per player; empty: dealt at random (:84)
    seed: int | str = 0
    physical: bool = False  # the table draws the Mythos, Adventure and Other World cards from the real decks
    names: tuple[str, ...] = ()
    first_mythos: str = ""  # physical mode: the Mythos card drawn at setup (:87)
    adventures: tuple[str, ...] = ()  # physical mode: the six adventures dealt at setup (:84)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rules": RULES, "players": self.players, "seed": self.seed, "physical": self.physical}
        for key in ("ancient_one", "first_mythos"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        for key in ("investigators", "names", "adventures"):
            if getattr(self, key):
                out[key] = list(getattr(self, key))
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Setup:
        if not isinstance(data, Mapping):
            raise BadCommand(f"an Elder Sign setup is a JSON object with players, not {data!r}.")
        allowed = (
            "rules",
            "players",
            "ancient_one",
            "investigators",
            "seed",
            "physical",
            "names",
            "first_mythos",
            "adventures",
        )
        unknown = [k for k in data if k not in allowed]
        if unknown:
            raise BadCommand(
                f"unknown setup field(s) {', '.join(map(str, unknown))}; the fields are {', '.join(allowed)}."
            )
        if data.get("rules", RULES) != RULES:
            raise BadCommand(f"this setup is for {data.get('rules')!r}, not {RULES}.")
        if "players" not in data:
            raise BadCommand("the setup lacks players; give the number of players.")

        def texts(key: str) -> tuple[str, ...]:
            value = data.get(key, ())
            return tuple(value) if isinstance(value, (list, tuple)) else value

        return cls(
            players=data["players"],
            ancient_one=data.get("ancient_one", ""),
            investigators=texts("investigators"),
            seed=data.get("seed", 0),
            physical=data.get("physical", False),
            names=texts("names"),
            first_mythos=data.get("first_mythos", ""),
            adventures=texts("adventures"),
        )

    def check(self, packs: ElderSignPacks) -> None:
        if not isinstance(self.players, int) or isinstance(self.players, bool) or not 1 <= self.players <= MAX_PLAYERS:
            raise BadCommand(f"Elder Sign is played here by 1 to {MAX_PLAYERS} players, not {self.players!r}.")
        if self.ancient_one and self.ancient_one not in packs.ancient_ones:
            raise BadCommand(f"unknown Ancient One {self.ancient_one!r}; they are: {', '.join(packs.ancient_ones)}.")
        validate.seed(self.seed)  # 0 to 2^63-1, or a short text: alike for every game
        if not isinstance(self.physical, bool):
            raise BadCommand(f"physical must be true or false, not {self.physical!r}.")
        for key in ("investigators", "names", "adventures"):
            value = getattr(self, key)
            if not isinstance(value, tuple) or not all(isinstance(v, str) for v in value):
                raise BadCommand(f"{key} must be a list of texts.")
        if self.investigators:
            if len(self.investigators) != self.players:
                raise BadCommand(
                    f"give one investigator per player: {self.players} players, "
                    f"{len(self.investigators)} investigators."
                )
            for inv in self.investigators:
                if inv not in packs.investigators:
                    raise BadCommand(f"unknown investigator {inv!r}; they are: {', '.join(packs.investigators)}.")
            if len(set(self.investigators)) != len(self.investigators):
                raise BadCommand("two players have the same investigator; each needs their own.")
        if self.players > len(packs.investigators):
            raise BadCommand(
                f"the packs hold {len(packs.investigators)} investigators, too few for {self.players} players."
            )
        check_names(self.names, self.players)
        if self.physical:
            if not self.first_mythos:
                raise CardsNeeded(
                    "the setup draws a Mythos card (:87); give first_mythos=ID, the card drawn.",
                    [("first_mythos", "the Mythos card drawn at setup")],
                )
            if self.first_mythos not in packs.mythos:
                raise BadCommand(f"unknown Mythos card {self.first_mythos!r}; they are: {', '.join(packs.mythos)}.")
            if len(self.adventures) != ADVENTURES_IN_PLAY or len(set(self.adventures)) != ADVENTURES_IN_PLAY:
                raise CardsNeeded(
                    f"the setup deals {ADVENTURES_IN_PLAY} different adventures (:84); give them in "
                    "adventures, first row then second.",
                    [("adventures", "the six adventures dealt")],
                )
            for card in self.adventures:
                if card not in packs.adventures:
                    raise BadCommand(f"unknown adventure {card!r}; they are: {', '.join(packs.adventures)}.")
        elif self.first_mythos or self.adventures:
            raise BadCommand("first_mythos and adventures are only given in physical deck mode; leave them out.")


class Command(CommandBase):
    """One Elder Sign command, as typed (``Command.parse("roll faces=inv1,lore,terror")``); args stay strings."""

    names = tuple(COMMANDS)


class LegalAction(LegalActionBase):
    """One thing the table may do now; ``asks`` names what the caller still fills in (``faces``, ``need``,
    ``tasks``, ``player``, ``n``, ``hours``) and ``cards`` the cards of the real decks it draws (physical mode)."""

    command_type = Command


@dataclass
class InvestigatorState:
    id: str
    name: str
    player: int
    sanity: int
    stamina: int
    max_sanity: int
    max_stamina: int
    clues: int
    place: str = ENTRANCE  # ENTRANCE, ANCIENT_ONE or an adventure's slot ("1".."6", "7"...)
    devoured: bool = False
    entered: bool = False  # its card's numbers were copied by the host (set-investigator; a card not filled in yet)
    # the item cards held (:84 the starting ones listed on the card, :229 :237 :239 rewards, spent :329), counted only
    # when the companion knows them: a filled-in card's, or once the host told them (`items`); not counted, a die of
    # an item is offered as the host says (the companion refuses nothing it cannot see) and nothing is taken off
    common_items: int = 0
    unique_items: int = 0
    spells: int = 0
    items_counted: bool = False


@dataclass
class TaskState:
    task: TaskCard
    done: bool = False
    monster: bool = False


@dataclass
class CardState:
    slot: str
    card: str
    name: str
    tasks: list[TaskState]
    ordered: bool
    other_world: bool
    lock: Colour | None
    # a card not filled in yet whose tasks the host has not entered (set-tasks): it has no tasks of its own (only its
    # monsters'), so no roll is judged against it (Game.tasks_missing); in a game stored before that reading, its
    # stand-in's made-up tasks (Reading.STAND_IN)
    stand_in: bool = False
    # a stand-in dealt in that older reading, within the stored history: its made-up tasks stand (not asked)
    made_up: bool = False


@dataclass(frozen=True)
class Question:
    """A card not filled in yet came up: the companion played nothing of it and asks the host what the real card
    did. `part` is the half of the card that would have acted: "immediate" or "at_midnight" (a Mythos card),
    "terror", "reward", "penalty" or "task" (what completing a task cost, :185), or (kind "entrance", card
    ENTRANCE_NAME) "lost_found": the Entrance's Lost & Found chart for the green die rolled (:293), printed on the
    Entrance sheet, not in the rules text; `player` is the player it fell on
    (None: every investigator, a Mythos card). Or (kind "attack", part "attack") the Ancient One attacked at
    midnight and the investigator of `player` chooses which maximum to lower (:459); `card` is the Ancient One."""

    card: str
    kind: str  # "mythos" | "adventure" | "attack" | "entrance"
    part: str
    player: int | None
    slot: str | None = None
    # the effect kinds the host has told of this card already (each at most once; a Mythos card's sanity, stamina,
    # clues and items once for each whom, "sanity:all", "sanity:2": Rules.told_as)
    told: tuple[str, ...] = ()
    # a DEVOURED_REST question: what of the turn's cards it stands for ("adventure:terror", "mythos:terror")
    rest: tuple[str, ...] = ()
    # a reward or the Lost & Found (DEVOURED_REWARD) whose investigator was devoured before the rest of it was told:
    # only what goes to the table is asked (DEVOURED_REWARD_TAPS)
    devoured: bool = False
    # a Mythos card's question asked at midnight (its At Midnight half, or the card drawn then): the next player's
    # turn waits for it (MIDNIGHT_FIRST). Not published: the part says which half it is
    midnight: bool = False
    # asked as the turn before ended, its attempt failed by the end-turn (the card's penalty, :219): the next player's
    # turn waits for it (PENALTY_FIRST). Not published: the part says what it is
    ended: bool = False
    # a filled-in Mythos card's half that leaves to the table whom it falls on (its pack entry's who = "ask"): the rest
    # of it was played, and the host says whom each of these went to (the effect kind of card-did, the card's amount)
    whom: tuple[tuple[str, int], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        told: dict[str, Any] = {"card": self.card, "kind": self.kind, "part": self.part, "player": self.player}
        told["slot"] = self.slot
        if self.rest:
            told["rest"] = list(self.rest)
        if self.devoured:
            told["devoured"] = True
        if self.whom:
            told["whom"] = [list(pair) for pair in self.whom]
        return told


@dataclass
class AttemptState:
    """The rolls of the active player's turn, at an adventure or at the Ancient One (:105-219, :439-449)."""

    place: str
    free: dict[str, int]  # colour -> dice in the pool, not placed, held or lost
    last: list[str] | None = None  # the faces of the last roll (Die spellings)
    placed: list[str] = field(default_factory=list)  # those of its dice placed on the task it completed (:183-187)
    failed: bool = False  # the last roll completed nothing: the next roll loses one of its dice
    holds: list[tuple[str, str, int | None]] = field(default_factory=list)  # (die, "focus"|"assist"|"spell", player)
    rolls: int = 0
    added: list[str] = field(default_factory=list)  # the colours items added to the pool this turn
    aside: str | None = None  # the colour of the failed roll's die the player chose to set aside (:211), if chosen
    hold: str | None = None  # the failed roll's die the player chose to focus on (:213, :365), if chosen
    spell: str | None = None  # the failed roll's die the player chose to put on a Spell card (:345), if chosen
    # the tasks the last roll's dice meet, when more than one: the player chooses which one it completes (:177, :189)
    choose: list[int] | None = None
    # the last roll's dice a lock took out of the attempt since (:399-403): no spell, marker or task takes them
    locked: list[str] = field(default_factory=list)


def set_aside(a: AttemptState) -> str:
    """The colour of the die the next roll sets aside after a failed roll (:211): the player's choice
    (`set-aside`), else the suggestion, a green die when the roll had one."""
    assert a.last
    colours = [Die.parse(f).colour.value for f in a.last]
    return a.aside or next(c for c in ("green", "yellow", "red") if c in colours)


@dataclass(frozen=True)
class FailedDice:
    """Which die of a failed roll (an index into its faces, `AttemptState.last`; None: none) each choice is: the one
    set aside (:211), the one held (focus, :213, :365 "a different die") and the Spell's (:345), each a die of its
    own; `only`: the die set aside is the one die of its colour, so it can be neither held nor put on the Spell."""

    aside: int | None
    hold: int | None
    spell: int | None
    only: int | None

    def to_dict(self) -> dict[str, int | None]:
        return dataclasses.asdict(self)


def failed_dice(
    a: AttemptState, hold: str | None = None, spell: str | None = None, lose: str | None = None
) -> FailedDice:
    """:211-213, :345: the die the next roll sets aside after a failed roll and the dice held and put on the Spell:
    `hold`, `spell` (a die's spelling, as a command gives it; by default the ones chosen, `a.hold`, `a.spell`) and the
    colour set aside (`lose`, by default set_aside). The die set aside is one of its colour that is neither the held
    one nor the Spell's (by face), else one of its colour left after those two, else the first of its colour; the held
    die and the Spell's are then the first of their faces among the others (None: none is left for it)."""
    assert a.last
    last = [Die.parse(f) for f in a.last]
    hold, spell = (hold or a.hold), (spell or a.spell)
    lose = lose or set_aside(a)
    wanted = [w.strip().lower() for w in (hold, spell) if w]
    of_colour = [i for i, d in enumerate(last) if d.colour.value == lose]
    spare = [i for i in of_colour if str(last[i]) not in wanted and last[i].face.value not in wanted]
    if not spare:  # every die of the colour shows a face chosen: one of the colour left after the held and Spell's
        taken: list[int] = []
        for text in (hold, spell):
            at = _first(last, text, taken)
            if at is not None:
                taken.append(at)
        spare = [i for i in of_colour if i not in taken]
    aside = (spare or of_colour)[0] if of_colour else None
    held = _first(last, hold, [aside])
    return FailedDice(aside, held, _first(last, spell, [aside, held]), aside if len(of_colour) == 1 else None)


def _first(dice: Sequence[Die], text: str | None, skip: Sequence[int | None]) -> int | None:
    """The index of the first of `dice` spelt `text` that is not at `skip` (None: none, or no die spelt so)."""
    try:
        wanted = Die.parse(text) if text else None
    except DiceError:
        return None  # the pick after says what is wrong with it
    return next((i for i, d in enumerate(dice) if d == wanted and i not in skip), None)


def lockable(a: AttemptState, colour: Colour) -> tuple[list[Die], int, list[tuple[int, Die, str]]]:
    """The dice of an attempt a lock of `colour` may take (:401): the last roll's still in the pool, how many not
    rolled yet, and those on a Spell card or an investigator marker (index in holds, die, how)."""
    rolled = [Die.parse(f) for f in a.last or []]
    pool = [d for d in (rolled if a.failed else left_by_task(a)) if d.colour is colour]
    held = [(i, Die.parse(d), how) for i, (d, how, _) in enumerate(a.holds) if Die.parse(d).colour is colour]
    return pool, a.free[colour.value] - len(pool), held


def lock_choices(a: AttemptState, colour: Colour) -> list[tuple[str, str]]:
    """The dice the player chooses among for a lock (die=FACE from=WHERE, :401 "you get to decide which die goes on
    the locked die icon ... even if it was on a Spell card or Investigator marker"): each face once where it is (the
    roll, or held on a Spell card or a marker: "spell", "focus", "assist"), so a held die whose face a rolled one shares
    is a choice of its own; none when there is one such die only, or one not rolled yet goes (the engine's choice)."""
    pool, unrolled, held = lockable(a, colour)
    choices = list(dict.fromkeys([(str(d), "roll") for d in pool] + [(str(d), how) for _, d, how in held]))
    return [] if len(choices) <= 1 or unrolled else choices


LOCK_FROM = ("roll", "spell", "focus", "assist")  # where a die a lock takes is (from=, the die_locked event's)


def said_lockable(a: AttemptState, colour: Colour) -> str:
    """The dice of an attempt a lock may take (:401), as the player names them."""
    pool, unrolled, held = lockable(a, colour)
    said = [f"{d} (rolled)" for d in dict.fromkeys(pool)] + [f"{d} (on the {how})" for _, d, how in held]
    return ", ".join(said + (["one not rolled yet"] if unrolled else [])) or "none"


def left_by_task(a: AttemptState) -> list[Die]:
    """The dice of a roll that completed a task that were not placed on it (:183-187): those a spell may take (:345)."""
    left = [Die.parse(f) for f in a.last or []]
    for placed in a.placed:
        left.remove(Die.parse(placed))
    return left


def combat_task(ancient: AncientOne, state: State) -> Need:
    """The Ancient One's combat task (:439): the card's, or for a card not filled in yet the one the host entered."""
    return Need.parse(state.combat) if state.combat and ancient.placeholder else ancient.combat


@dataclass
class State:
    turn: int = 1
    current: int = 0  # the active player, 0-based
    clock: int = 0  # index into CLOCK
    midnights: int = 0
    midnight_pending: int = 0  # midnights reached during the turn, resolved at its end (:309)
    doom: int = 0
    elder_signs: int = 0
    awake: bool = False
    monsters_pending: int = 0
    monsters_met: int = 0
    investigators: list[InvestigatorState] = field(default_factory=list)
    players: list[int | None] = field(default_factory=list)  # player -> index into investigators (None: out)
    unused: list[str] = field(default_factory=list)  # investigators not yet in play, in dealing order
    cards: list[CardState] = field(default_factory=list)  # adventures and Other Worlds in play
    next_slot: int = ADVENTURES_IN_PLAY + 1
    adventure_deck: list[str] = field(default_factory=list)  # top card last
    other_world_deck: list[str] = field(default_factory=list)
    mythos_deck: list[str] = field(default_factory=list)
    mythos_discard: list[str] = field(default_factory=list)
    mythos_reshuffles: int = 0
    mythos: str | None = None  # the card in play (its lingering half)
    mythos_active: bool = False  # False once the Ancient One is awake (:431)
    spells: list[str] = field(default_factory=list)  # dice left on spell cards between turns (:349), as "inv3"
    moved: bool = False
    attempted: bool = False  # the adventure step of this turn is over
    first_aid: bool = False
    attempt: AttemptState | None = None
    outcome: Outcome | None = None
    questions: list[Question] = field(default_factory=list)  # cards not filled in yet, asked about (first first)
    mythos_lock: Colour | None = None  # the die the host said the Mythos card in play locks (a card not filled in)
    combat: str = ""  # the combat task the host entered from the card, for an Ancient One not filled in yet (:439)
    # the doom track's length and the Elder Sign limit the host entered from the card (an Ancient One not filled in)
    ancient_numbers: tuple[int, int] | None = None

    def copy(self) -> State:
        """A copy whose lists and records may change without touching this one (the values are immutable)."""
        new = copy.copy(self)
        for name in (
            "players",
            "unused",
            "adventure_deck",
            "other_world_deck",
            "mythos_deck",
            "mythos_discard",
            "spells",
            "questions",
        ):
            setattr(new, name, list(getattr(self, name)))
        new.investigators = [copy.copy(inv) for inv in self.investigators]
        new.cards = []
        for card in self.cards:
            twin = copy.copy(card)
            twin.tasks = [copy.copy(t) for t in card.tasks]
            new.cards.append(twin)
        if self.attempt is not None:
            a = copy.copy(self.attempt)
            a.free = dict(a.free)
            a.last = None if a.last is None else list(a.last)
            a.placed = list(a.placed)
            a.locked = list(a.locked)
            a.holds = list(a.holds)
            a.added = list(a.added)
            a.choose = None if a.choose is None else list(a.choose)
            new.attempt = a
        return new


# -- argument reading ---------------------------------------------------------------------------------------------

_bool = arg_bool
_int = arg_int
_choice = arg_choice


# -- the game ------------------------------------------------------------------------------------------------------


class Reading(IntEnum):
    """The reading a stored game's commands play in (Game.read_stored): how the companion played them when the file
    was written. Newest first; each older reading holds the later ones (a game in SANITY plays as in NUMBERS, LENIENT,
    FIRST_TASK and DEVOUR too), so `game.reading >= Reading.X` asks whether X's older play holds. A new reading goes
    just after NOW (the values are never stored: read_stored works the reading out again from the commands)."""

    # as the companion plays now
    NOW = 0
    # a game stored before a clue's re-roll kept the dice chosen with focus and spell after the failed roll out of it
    # (_Rules.do_clue, :359 "the dice in my dice pool", :347, :371): the clue re-rolled every die of the roll, and the
    # choices were dropped
    CLUE_ALL = auto()
    # a game stored before the next player's turn waited for the penalty asked as the turn before ended with its
    # attempt failed (PENALTY_FIRST): the player moved, rolled or ended the turn with it still asked
    PENALTY_ASKED = auto()
    # a game stored before a lock told during an attempt took a die out of it at once (_Rules.lock_from_attempt): the
    # locked die was rolled on, held, put on a spell or used for a task until the next attempt
    LOCK_LATE = auto()
    # a game stored before the next player's turn waited for what the Mythos card did at midnight (MIDNIGHT_FIRST): the
    # player moved, rolled or ended the turn with it still asked
    MIDNIGHT_ASKED = auto()
    # a game stored before the end of a turn waited for the card questions still open (ASKED_BEFORE_ENDING): the turn
    # ended with them open, and they were told in the next one
    END_ASKED = auto()
    # a game stored before a devouring narrowed what was still asked of a reward or the Lost & Found of the devoured
    # (DEVOURED_REWARD) to what goes to the table: its clues, items, sanity and stamina told after it fell on the new
    # investigator
    DEVOUR_REWARD = auto()
    # a game stored before a die put on a spell after a roll that completed a task (roll spell=) came from the dice
    # of that roll left over: it could be one placed on the task (one die used twice)
    SPELL_DIE = auto()
    # a game stored before a devouring by what was still asked of the player's turn once it had ended (a penalty told
    # after the end of the turn, :219) withdrew the rest of it (DEVOURED_REST): it fell on the new investigator
    DEVOUR_AFTER = auto()
    # a game stored before the companion counted the Spells: a die went on a spell (roll spell=) whatever the active
    # investigator held, and no Spell came off the count; and a Mythos card's items told by the host without player=
    # went to every investigator
    SPELLS = auto()
    # a game stored before a devouring during the devoured's turn withdrew what was still asked of it (the rest of a
    # terror, a penalty, a task's costs, falling on the new investigator) for one question (DEVOURED_REST)
    DEVOUR_REST = auto()
    # a game stored before the companion counted the items an investigator holds: an item's die was added whatever
    # was held, and no investigator's items are counted (the host counts them with `items`)
    ITEMS = auto()
    # a game stored before the host was asked about an attempt ended by a devouring (the text silent whether it fails
    # the card): whether its assistants lost 1 sanity or stamina (:373; they lost nothing) and whether the monster
    # marker of a monster task completed in it came off (:395; its task was to do again)
    DEVOUR_ASKED = auto()
    # a game stored before the Ancient One woken during an attempt at an adventure took the dice off its tasks: the
    # tasks completed in it stayed done
    AWAKEN = auto()
    # a game stored before an investigator devoured during their attempt ended it with the dice off the adventure's
    # tasks: the tasks completed in it stayed done
    DEVOUR = auto()
    # a game stored before a roll whose dice meet more than one task waited for the player's choice: such a roll
    # completed the first task its dice met
    FIRST_TASK = auto()
    # a game stored before the companion asked set-investigator for the clue tokens printed on the card, refused a
    # roll, a give-up or an end-turn while a terror asked about was not told and a first aid after an adventure
    # completed that turn: without clues= the stand-in's clue tokens stood for the card's, and the rolls, give-ups,
    # ends of turns and first aid were played
    LENIENT = auto()
    # a game stored before the companion asked the host for a stand-in's printed numbers before the first turn: the
    # stand-ins' doom track, Elder Sign limit, sanity and stamina stand for its stored history
    NUMBERS = auto()
    # a game stored before the companion asked each investigator's choice at the Ancient One's attack: a choice not
    # given with the end of the turn (attack=) lowered sanity
    SANITY = auto()
    # a game stored before the companion stopped judging rolls against a stand-in adventure's made-up tasks: those
    # tasks stand, and doing one asks what it cost
    STAND_IN = auto()


class Game(GameHistory[State]):
    """A game of Elder Sign: the setup, the current state and the explicit history of commands."""

    command_type = Command
    legal_type = LegalAction

    rules = RULES

    def __init__(self, setup: Setup, packs: ElderSignPacks, state: State, ancient: AncientOne) -> None:
        self.setup = setup
        self.packs = packs
        self.ancient = ancient
        super().__init__(state)
        self.setup_events: list[dict[str, Any]] = []
        # a game stored before plays on as it was played (Reading, read_stored)
        self.reading = Reading.NOW
        # an older reading holds for the stored history only (the commands the file stored, as read; None: for every
        # command): what is played after the game was reopened plays as the companion plays now, also after an undo
        # back into the stored commands
        self.stored: tuple[CommandBase, ...] | None = None
        self._pushing: CommandBase | None = None  # the command push is playing (None: a check, a legal action)
        self._kept = 0  # how many of the history's first commands are the stored ones, each still in its place

    def in_stored_history(self) -> bool:
        """Whether the command being pushed is one of the stored history's (where an older reading holds): the very
        command the file stored at this place (the one read, put back by a redo or a corrected read's refusal),
        after every stored command before it. Not a command played after an undo back into the stored commands,
        even one written alike (the host undid the roll to play it as the companion plays now), nor a check."""
        if self.stored is None:
            return True
        at = len(self._stack)
        return self._kept == at < len(self.stored) and self._pushing is self.stored[at]

    def push(self, command: Any) -> list[dict[str, Any]]:
        if isinstance(command, str):
            command = self.command_type.parse(command)
        self._pushing = command
        try:
            # the first command after the stored ones kept (a game played on after it was reopened, or after an undo
            # back into its stored commands) plays as the companion plays now; its events say so, so the file
            # reopened later plays it so too (read_stored: the stored history ends there for every reading)
            kept = self.in_stored_history()
            now = self.reading > Reading.NOW and len(self._stack) == self._kept and not kept
            events = super().push(command)
        finally:
            self._pushing = None
        if self.stored is not None and kept:  # the stored command at its place, after every stored one before it
            self._kept += 1
        if now:
            events.append({"type": STORED_HISTORY_ENDS})
        return events

    def pop(self) -> Any:
        command = super().pop()
        self._kept = min(self._kept, len(self._stack))
        return command

    def plays_in(self, reading: Reading) -> bool:
        """Whether the command being pushed plays as in `reading` (Reading): a game stored then or before, and the
        command one of its stored history's."""
        return self.reading >= reading and self.in_stored_history()

    @classmethod
    def new(
        cls,
        setup: Setup,
        packs: ElderSignPacks,
        *,
        reading: Reading = Reading.NOW,
    ) -> Game:
        """Set up a game (:78-87): the clock at midnight, an Ancient One, six adventures, the investigators
        with full sanity and stamina, and the first Mythos card drawn and resolved. `reading`: the reading of a game
        stored before (Reading, read_stored)."""
        if not isinstance(setup, Setup):
            raise BadCommand(f"Game.new needs a Setup, not {setup!r}.")
        setup.check(packs)
        rng = random.Random(f"{setup.seed}:setup")
        ancient_id = setup.ancient_one or rng.choice(sorted(packs.ancient_ones))
        ancient = packs.ancient_ones[ancient_id]
        s = State()
        pool = sorted(packs.investigators)
        rng.shuffle(pool)
        chosen = list(setup.investigators) or pool[: setup.players]
        s.unused = [i for i in pool if i not in chosen]
        for player, inv_id in enumerate(chosen):
            s.investigators.append(_investigator(packs, inv_id, player, reading < Reading.ITEMS))
            s.players.append(player)
        adventures = sorted(packs.adventures)
        rng.shuffle(adventures)
        worlds = sorted(packs.other_worlds)
        rng.shuffle(worlds)
        mythos = sorted(packs.mythos)
        rng.shuffle(mythos)
        if setup.physical:
            dealt = list(setup.adventures)
            s.adventure_deck = sorted(c for c in packs.adventures if c not in dealt)
            s.other_world_deck = sorted(packs.other_worlds)
            s.mythos_deck = sorted(packs.mythos)
        else:
            dealt = [adventures.pop() for _ in range(min(ADVENTURES_IN_PLAY, len(adventures)))]
            s.adventure_deck = adventures
            s.other_world_deck = worlds
            s.mythos_deck = mythos
        for slot, card_id in enumerate(dealt, 1):
            s.cards.append(_card_state(packs.adventures[card_id], str(slot), reading >= Reading.STAND_IN))
        game = cls(setup, packs, s, ancient)
        game.reading = Reading(reading)
        rules = _Rules(game, s, Command("setup", {"mythos": setup.first_mythos} if setup.physical else {}))
        rules.draw_mythos("setup")
        rules.check_end()
        game.setup_events = rules.events
        return game

    def _rules(self, state: State, command: Command) -> _Rules:
        return _Rules(self, state, command)

    def read_stored(self, commands: Sequence[CommandBase], events: StoredEvents | None = None) -> Sequence[CommandBase]:
        """The commands of a stored game still to be pushed into this new game, in the reading they were played in.
        They are pushed here as the companion plays now, and none is left when that accepts them all. A game played
        before is refused by that reading, or its stored `events` tell it; then the game starts again in the next
        older reading (Reading, newest first), until one plays them as they were played, and every command is left to
        push. Each reading, and what tells a game played in it:
        - CLUE_ALL: a clue spent after a focus or a spell was chosen, its faces every die of the failed roll (where now
          the chosen dice go on the marker and the Spell card first and the clue re-rolls the others, :347, :359,
          :371); it holds for the whole stored history;
        - PENALTY_ASKED: a move, roll or other command of a turn while the penalty asked as the turn before ended was
          still asked (where now the turn waits for it, PENALTY_FIRST); it holds for the whole stored history;
        - LOCK_LATE: a lock told during an attempt (card-did effect=lock, set-tasks lock=) followed by a roll of the
          pool it left (where now the locked die is out of the pool at once, :399-403) or a green lock told without
          die= where now the player is asked which, or a lock whose stored events took no die from the attempt where
          now it takes one (the file's last command, with nothing after it to refuse); it holds for the whole stored
          history;
        - MIDNIGHT_ASKED: a move, roll or other command of a turn while what the Mythos card did at midnight was still
          asked (where now the turn waits for it, MIDNIGHT_FIRST); it holds for the whole stored history;
        - END_ASKED: an end-turn while a card question other than a terror's was still open (where now it is told
          first, ASKED_BEFORE_ENDING); it holds for the whole stored history;
        - DEVOUR_REWARD: a reward's or the Lost & Found's clues, items, sanity or stamina told after a devouring of its
          investigator (where now they fall on no one and are refused); it holds for the whole stored history;
        - SPELL_DIE: a die put on a spell after a roll that completed a task (roll spell=) that was one of the dice
          placed on the task (where now only a die the task left may go on it, :185, :345);
        - DEVOUR_AFTER: a devouring once the devoured's turn had ended (a penalty told after it) stored as asking on
          the rest of its cards (where now one question is asked in their place); it holds for the whole stored history;
        - SPELLS: a die put on a spell (roll spell=) for an investigator whose items are counted and who held no
          Spell, or stored with no Spell taken off the count (its events tell no items changed); a Mythos card's items
          told without player=;
        - ITEMS: an item's die added for an investigator whose items are counted now and who held none (a filled-in
          investigator card's; a stand-in's items are not counted until the host tells them);
        - DEVOUR_REST: a devouring in the devoured's turn stored as asking on the rest of its cards (where now one
          question is asked in their place, DEVOURED_REST); it holds for the commands before a stored one that asked it;
        - DEVOUR_ASKED: a devouring during an attempt with assistants or a completed monster task stored as asking
          nothing (where now the host is asked, :373, :395); it holds for the commands before a stored one that asked;
        - AWAKEN: an awakening during an attempt at an adventure stored as leaving its completed tasks done (where now
          the dice come off them); it holds for the commands before a stored awakening that took them off;
        - DEVOUR: a devouring during an attempt stored as leaving the adventure's completed tasks done (where now the
          dice come off them); it holds for the commands before a stored devouring that took them off;
        - FIRST_TASK: a roll whose dice meet more than one task stored as completing the first (where now the player
          chooses); it holds for the commands before a stored roll that waited for the choice;
        - LENIENT: a set-investigator without clues= (the stand-in's clue tokens stood), a roll, clue, give-up or
          end-turn before a terror asked about was told, a first aid after an adventure completed that turn;
        - NUMBERS: a command played before a stand-in's printed numbers were entered (its doom track, Elder Sign limit,
          sanity and stamina stood), only when the packs hold a stand-in Ancient One or investigator;
        - SANITY: a command played after an attack with no choices asked, where the companion lowered sanity, or a
          midnight whose stored events show the attack resolved at once (the file's last command, with nothing after
          it to refuse); it holds for the commands before the midnight of the first stored choice (lower);
        - STAND_IN: a roll judged against a stand-in's made-up tasks or a stand-in Ancient One's combat task, a
          stand-in's tasks entered without saying whether the card has the arrow, only when the packs hold stand-ins.
        """
        if self.reading > Reading.NOW or self._stack:  # an older reading was worked out already
            return commands
        cards = (*self.packs.adventures.values(), *self.packs.other_worlds.values())
        stand_ins = self.ancient.placeholder or any(card.placeholder for card in cards)
        numbers = self.ancient.placeholder or any(card.placeholder for card in self.packs.investigators.values())
        order = [r for r in Reading if (r != Reading.NUMBERS or numbers) and (r != Reading.STAND_IN or stand_ins)]
        # where a reading's stored history ends: the first command a later reading played (after the game was
        # reopened), which the older readings hold before only.
        # a choice asked at the attack (lower) was asked by the midnight just before it: in a reading that did not ask
        # it (sanity at the attack) that midnight was played after the game was reopened; a reading that asked it (the
        # numbers', the lenient) played it stored
        # a roll whose stored events wait for the player's choice of task was played in the first task's later reading
        # a devouring whose stored events took the dice off the tasks, in the devouring's later reading
        ends = {
            Reading.SANITY: next((i - 1 for i, c in enumerate(commands) if c.name == "lower"), None),
            Reading.FIRST_TASK: next((i for i, told in enumerate(events or ()) if _choice_asked(told)), None),
            Reading.DEVOUR: next((i for i, told in enumerate(events or ()) if _devour_cleared(told)), None),
            Reading.AWAKEN: next((i for i, told in enumerate(events or ()) if _awaken_cleared(told)), None),
            Reading.DEVOUR_ASKED: next((i for i, told in enumerate(events or ()) if _devour_asked(told)), None),
            Reading.DEVOUR_REST: next((i for i, told in enumerate(events or ()) if _rest_withdrawn(told)), None),
        }
        # the first command played as now after the stored ones (its stored events say so): no older reading holds
        # from there on, whatever the reading (a refusal, a devouring by made-up numbers: nothing else may tell it)
        now_at = next((i for i, told in enumerate(events or ()) if _history_ended(told)), None)
        stored = len(commands)
        for reading in order:
            stored = min([len(commands)] + [end for r, end in ends.items() if reading >= r and end is not None])
            stored = stored if now_at is None else min(stored, now_at)
            if reading > Reading.NOW:
                self._start_in(reading)
                self.stored = tuple(commands[: max(stored, 0)])
            if reading == order[-1]:
                break
            try:
                if self._plays_as_stored(commands, events):
                    self.stored = tuple(commands[: max(stored, 0)]) if reading > Reading.NOW else None
                    return ()
            except (BadCommand, IllegalCommand):
                pass
        self.stored = tuple(commands[: max(stored, 0)])
        return commands

    def _plays_as_stored(self, commands: Sequence[CommandBase], events: StoredEvents | None) -> bool:
        """Pushes `commands` in this game's reading: whether they play as they were played. Not where a stored
        midnight's events show the Ancient One's attack resolved at once (every maximum lowered, no one asked,
        :457-459 as the companion read it before) and this reading asks; BadCommand / IllegalCommand where it
        refuses one."""
        for i, command in enumerate(commands):
            made = self.push(command)
            stored = events[i] if events is not None and i < len(events) else None
            told = {e.get("type") for e in stored or ()}
            resolved = "ancient_one_attack" in told and "attack_asked" not in told
            if resolved and any(e["type"] == "attack_asked" for e in made):
                return False
            # a roll that waits for the player's choice of task, stored as played at once (the first task met)
            if stored is not None and _choice_asked(made) and not _choice_asked(stored):
                return False
            # a devouring that takes the dice off the tasks, stored as leaving them done
            if stored is not None and _devour_cleared(made) and not _devour_cleared(stored):
                return False
            # an awakening that takes the dice off the tasks, stored as leaving them done
            if stored is not None and _awaken_cleared(made) and not _awaken_cleared(stored):
                return False
            # a devouring that asks what its assistants lost, stored as asking nothing
            if stored is not None and _devour_asked(made) and not _devour_asked(stored):
                return False
            # a Spell taken off the count (a die put on it), stored as taking none off
            if stored is not None and "items_changed" in {e.get("type") for e in made} and "items_changed" not in told:
                return False
            # a devouring that withdraws what was asked of the turn, stored as asking it on
            if stored is not None and _rest_withdrawn(made) and not _rest_withdrawn(stored):
                return False
            # a lock that takes a die out of the attempt at once, stored as taking none (LOCK_LATE)
            if stored is not None and _lock_took(made) and not _lock_took(stored):
                return False
        return True

    def _start_in(self, reading: Reading) -> None:
        """Back to the setup, in a reading (nothing worked out in another one is kept)."""
        again = type(self).new(self.setup, self.packs, reading=reading)
        self._state, self.setup_events, self.reading = again._state, again.setup_events, again.reading
        self._stack.clear()
        self._kept = 0
        self._legal.clear()
        self._checker = None

    def combat_missing(self, state: State | None = None) -> bool:
        """Whether the Ancient One has no combat task yet: its card is not filled in and the host has not entered the
        one printed on it (:439); the stand-in's is not the card's, so no blow is judged against it."""
        s = self._state if state is None else state
        return self.ancient.placeholder and not s.combat and self.reading < Reading.STAND_IN

    def doom_max(self, state: State | None = None, *, played: bool = False) -> int | None:
        """The doom track's length (:419-427): the card's, or for one not filled in yet what the host entered; None
        until then (no made-up track wakes it, and none is told). `played`: the length the rules play by, where in a
        game stored before (Reading.NUMBERS) the stand-in's stands while its stored history is played (what is played
        after it was reopened waits for the card's numbers, numbers_first); not `played`: the length as the view and
        the events tell it, never the stand-in's."""
        s = self._state if state is None else state
        if s.ancient_numbers:
            return s.ancient_numbers[0]
        return self.ancient.doom if self._limits_count(played) else None

    def elder_signs_needed(self, state: State | None = None, *, played: bool = False) -> int | None:
        """The Elder Sign limit "printed on the Ancient One card" (:245), as doom_max: None until the host entered
        a stand-in's (no made-up limit wins the game, and none is told)."""
        s = self._state if state is None else state
        if s.ancient_numbers:
            return s.ancient_numbers[1]
        return self.ancient.elder_signs if self._limits_count(played) else None

    def _limits_count(self, played: bool) -> bool:
        """Whether the Ancient One card's pack numbers count (doom_max, elder_signs_needed): a filled-in card's always;
        a stand-in's only as played (pack_numbers_count), never as told."""
        return not self.ancient.placeholder or (played and self.pack_numbers_count(True, True))

    def pack_numbers_count(self, placeholder: bool, played: bool) -> bool:
        """Whether a card's pack numbers count: a filled-in card's always, a stand-in's only in a game stored
        before the companion asked for them (Reading.NUMBERS), for its stored history."""
        return not placeholder or (self.reading >= Reading.NUMBERS and (not played or self.in_stored_history()))

    def ancient_numbers_missing(self, state: State | None = None) -> bool:
        """Whether the Ancient One's track length and Elder Sign limit are still the stand-in's."""
        s = self._state if state is None else state
        return self.ancient.placeholder and s.ancient_numbers is None

    def numbers_missing(self, inv: InvestigatorState) -> bool:
        """Whether an investigator's sanity, stamina and clues are still its stand-in's: a card not filled in yet
        whose numbers the host has not copied (set-investigator); the page shows none of them until then."""
        return self.packs.investigators[inv.id].placeholder and not inv.entered

    def numbers_missing_players(self) -> list[int]:
        """The players (0-based) whose investigator in play still has the stand-in's numbers (numbers_missing)."""
        return [i.player for i in self._state.investigators if not i.devoured and self.numbers_missing(i)]

    def numbers_first(self, state: State | None = None) -> list[str]:
        """What the host copies from the cards not filled in yet before anyone plays (the rules' numbers are
        printed on the cards: the doom track and Elder Sign limit, :245, :419-427; sanity and stamina, :84): the
        commands still to give, `set-ancient-one` and `set-investigator player=N`. Empty in a game's stored history
        played before the companion asked for them (Reading.NUMBERS). An Ancient One woken in such a stored history
        (at the stand-in's track) is asked for too once it is reopened: its Elder Sign limit still wins (:461)."""
        s = self._state if state is None else state
        if self.plays_in(Reading.NUMBERS):
            return []
        out = ["set-ancient-one"] if self.ancient.placeholder and s.ancient_numbers is None else []
        for inv in s.investigators:
            index = s.players[inv.player] if inv.player < len(s.players) else None
            here = index is not None and s.investigators[index] is inv
            if here and not inv.devoured and self.packs.investigators[inv.id].placeholder and not inv.entered:
                out.append(f"set-investigator player={inv.player + 1}")
        return out

    def lenient(self) -> bool:
        """Whether the command being pushed plays as in a game stored before the refusals of Reading.LENIENT."""
        return self.plays_in(Reading.LENIENT)

    def terror_open(self, state: State | None = None) -> bool:
        """Whether a failed roll's terror on a card not filled in yet is asked about and not told yet: the next roll
        waits for it (:202-211 "I need to resolve all Terror effects ... Whether or not I resolved any Terror
        effects, I have a couple of options: 1. I can try again")."""
        s = self._state if state is None else state
        return any(q.kind != "attack" and q.part == "terror" for q in s.questions)

    def tasks_missing(self, card: CardState) -> bool:
        """Whether an adventure in play has no tasks of its own yet: a card not filled in yet whose tasks the host
        has not entered (its stand-in's are not the card's: no roll is judged against them, :115, :177)."""
        return card.stand_in and not card.made_up

    # -- what may be done ----------------------------------------------------------------------
    def _offers(self) -> list[LegalAction]:
        """What the table may do now; each is accepted by push() once what it `asks` is filled in."""
        s = self._state
        if s.outcome is not None:
            return []
        out: list[LegalAction] = []
        self.offer(out, "turn", "end-turn")
        for card in s.cards:
            self.offer(out, "move", "move", {"to": card.slot})
        self.offer(out, "move", "move", {"to": ENTRANCE})
        self.offer(
            out, "roll", "roll", asks=("faces",), sample={"faces": self._sample_faces(lose=True), "task": "none"}
        )
        self.offer(
            out, "roll", "clue", asks=("faces",), sample={"faces": self._sample_faces(lose=False), "task": "none"}
        )
        self.offer(out, "roll", "give-up")
        a = s.attempt
        if a is not None and a.choose:  # :177, :189: the roll's dice meet more than one task: the player's choice
            for number in [*map(str, a.choose), "none"]:
                self.offer(out, "roll", "complete", {"task": number})
        if s.attempt is not None and s.attempt.failed and s.attempt.last:  # :211: which die is set aside
            for colour in dict.fromkeys(Die.parse(f).colour.value for f in s.attempt.last):
                self.offer(out, "roll", "set-aside", {"colour": colour})
            for die in dict.fromkeys(s.attempt.last):  # :213, :365: one other die on the own marker
                self.offer(out, "roll", "focus", {"die": die})
            for die in dict.fromkeys(s.attempt.last):  # :345 one on a Spell card, offered only with a Spell to play
                self.offer(out, "roll", "spell", {"die": die})
        elif a is not None and a.last and not a.choose:  # :345 "After you roll": a die the completed task left
            for die in dict.fromkeys(map(str, left_by_task(a))):
                self.offer(out, "roll", "spell", {"die": die})
        for colour in ("yellow", "red"):
            self.offer(out, "roll", "add-die", {"colour": colour})
        self.offer(out, "entrance", "first-aid")
        self.offer(out, "entrance", "lost-found", asks=("face",), sample={"face": "inv1"})
        for at, inv in enumerate(s.investigators):
            if not inv.devoured and self.numbers_missing(inv):
                args = {"player": str(inv.player + 1)}
                asks: tuple[str, ...] = ("sanity", "stamina", "clues")
                sample = {"sanity": "1", "stamina": "1", "clues": "0"}
                if at >= len(s.players) and not inv.items_counted:
                    # a new investigator after a devouring, "complete with their own starting items" (:411): its card
                    # is a stand-in, so they are asked with its numbers, on the same step
                    asks += tuple(arg for _, arg in ITEMS.values())
                    sample |= {arg: "0" for _, arg in ITEMS.values()}
                self.offer(out, "table", "set-investigator", args, asks=asks, sample=sample)
        self.offer(out, "table", "adjust", asks=("player", "sanity"), sample={"player": "1", "sanity": "0"})
        # the host counts the item cards an investigator holds, or puts the count right (:329-351)
        sample = {"player": "1", "common": "0", "unique": "0", "spells": "0"}
        self.offer(out, "table", "items", asks=("player", "common", "unique", "spells"), sample=sample)
        self.offer(out, "table", "doom", asks=("n",), sample={"n": "0"})
        self.offer(out, "table", "elder-signs", asks=("n",), sample={"n": "0"})
        self.offer(out, "table", "clock", asks=("hours",), sample={"hours": "0"})
        index = s.players[s.current] if s.players else None
        here = s.investigators[index].place if index is not None and s.moved and not s.attempted else None
        for card in s.cards:
            self.offer(out, "table", "monster", {"adventure": card.slot}, asks=("need",), sample={"need": "inv:1"})
            if self.tasks_missing(card):
                # instead of a roll there: the tasks printed on the card first (and whether it has the arrow)
                group = "roll" if here == card.slot else "table"
                sample = {"tasks": "inv:1", "ordered": "false"}
                self.offer(out, group, "set-tasks", {"adventure": card.slot}, asks=("tasks", "ordered"), sample=sample)
            else:
                sample = {"tasks": "inv:1"}
                self.offer(out, "table", "set-tasks", {"adventure": card.slot}, asks=("tasks",), sample=sample)
        if self.ancient.placeholder and s.ancient_numbers is None:
            asks = ("doom", "elder_signs")
            self.offer(out, "table", "set-ancient-one", asks=asks, sample={"doom": "12", "elder_signs": "12"})
        if s.awake and self.ancient.placeholder:
            # with its combat task not entered, entering it comes instead of the attack on it
            group = "roll" if self.combat_missing() and not s.attempted else "table"
            self.offer(out, group, "set-tasks", {"adventure": ANCIENT_ONE}, asks=("tasks",), sample={"tasks": "inv:1"})
        choosing = {q.player: None for q in s.questions if q.kind == "attack" and q.player is not None}
        for p in choosing:  # :459: each investigator's own choice (once a player, two midnights in a turn or one)
            for stat in STATS:
                self.offer(out, "attack", "lower", {"player": str(p + 1), "stat": stat})
        cards_asked = [q for q in s.questions if q.kind != "attack"]
        if cards_asked:
            taps = DEVOURED_REWARD_TAPS if cards_asked[0].devoured else PART_TAPS[cards_asked[0].part]
            if cards_asked[0].whom:  # a filled-in card's half: only whom its own effects went to
                taps = (*((kind, str(n)) for kind, n in cards_asked[0].whom), ("nothing", ""))
            for effect, extra in taps:
                args = {"effect": effect}
                if effect == "lock":
                    args["colour"] = extra
                    choices = lock_choices(s.attempt, Colour.parse(extra)) if s.attempt else []
                    for die, where in choices or [("", "")]:  # :401 the player's choice of green die, where it is
                        self.offer(out, "card", "card-did", args | ({"die": die, "from": where} if die else {}))
                elif effect in ("nothing", "monster-won"):
                    self.offer(out, "card", "card-did", args)
                else:  # an amount: the page asks it (a stepper from this default) and sends it once
                    args["n"] = str(int(extra or CARD_EFFECTS[effect]))
                    if cards_asked[0].player is None and effect in AIMED:  # whom: every investigator, or one
                        whom = ["all"] + [str(p + 1) for p, index in enumerate(s.players) if index is not None]
                        for who in whom:
                            self.offer(out, "card", "card-did", {**args, "player": who}, asks=("n",))
                    else:
                        self.offer(out, "card", "card-did", args, asks=("n",))
        return out

    def next_roll_dice(self, clue: bool = False) -> list[Colour]:
        """The colours of the dice the next roll throws (green first), for rolling virtual dice or asking the
        table for faces: after a failed roll one die is set aside (by default a green one), unless a clue
        re-rolls (`clue=True`: the dice of the failed roll in the pool, none set aside, :359); the dice chosen with
        focus and spell go on the marker and the Spell card first (:347, :371), so neither roll throws them."""
        a = self._state.attempt
        if a is None:
            return [Colour.GREEN] * self.green_dice()
        free = dict(a.free)
        if a.failed and a.last:
            if not clue:
                free[set_aside(a)] -= 1
            for chosen in (a.hold, a.spell):
                if chosen:
                    free[Die.parse(chosen).colour.value] -= 1
        elif not clue and a.spell:  # chosen after a roll that completed a task: on the spell with the next roll
            free[Die.parse(a.spell).colour.value] -= 1
        return [Colour.GREEN] * free["green"] + [Colour.YELLOW] * free["yellow"] + [Colour.RED] * free["red"]

    def _sample_faces(self, lose: bool) -> str:
        """Faces of the right dice for probing a roll."""
        faces = [f"{c.value}:inv2" for c in self.next_roll_dice(clue=not lose)]
        return ",".join(faces) or "inv2"

    def dice_to_roll(self) -> int:
        """How many dice the next roll throws (next_roll_dice: the free dice; after a failed roll one fewer, and
        none for the dice chosen to be held or put on a spell; all the free dice after a lock took the failed roll's
        last die, as none of it is left to set aside, :211, :403)."""
        return len(self.next_roll_dice())

    def locked(self) -> dict[Colour, int]:
        """The dice locked on adventures and the Mythos card in play (:397-403)."""
        s = self._state
        out = dict.fromkeys(Colour, 0)
        for card in s.cards:
            if card.lock is not None:
                out[card.lock] += 1
        if s.mythos is not None and s.mythos_active:
            lock = self.packs.mythos[s.mythos].lock if not self.packs.mythos[s.mythos].placeholder else s.mythos_lock
            if lock is not None:
                out[lock] += 1
        return out

    def green_dice(self) -> int:
        """The green dice a new roll starts with: six, less those locked on cards and left on spells."""
        spells = [Die.parse(d) for d in self._state.spells]
        return max(0, GREEN_DICE - self.locked()[Colour.GREEN] - sum(1 for d in spells if d.colour is Colour.GREEN))

    # -- reading -------------------------------------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        """What everyone at the table may see, JSON-safe."""
        s = self._state
        a = self.ancient
        current = s.players[s.current] if s.players else None
        names = list(self.setup.names) or [f"Player {i + 1}" for i in range(self.setup.players)]
        return {
            "rules": RULES,
            "players": self.setup.players,
            "player_names": names,
            "physical": self.setup.physical,
            "turn": s.turn,
            "current_player": s.current,
            "clock": CLOCK[s.clock],
            "turns_to_midnight": (len(CLOCK) - s.clock) % len(CLOCK) or len(CLOCK),
            "midnights": s.midnights,
            "midnight_pending": s.midnight_pending > 0,
            "doom": s.doom,
            "doom_max": self.doom_max(),
            "monster_spaces": [] if a.placeholder else list(a.monster_spaces),
            "elder_signs": s.elder_signs,
            "elder_signs_needed": self.elder_signs_needed(),
            "ancient_one": {
                "id": a.id,
                "name": a.name,
                "said": a.said,  # its name in the table's words (never a stand-in's)
                "stand_in": a.placeholder,
                "combat": "" if self.combat_missing() else str(combat_task(a, s)),
                "combat_missing": self.combat_missing(),
                "attack": a.attack,
            },
            "ancient_one_awake": s.awake,
            "monsters_pending": s.monsters_pending,
            "investigators": self._investigators_view(current),
            "active_investigator": s.investigators[current].name if current is not None else None,
            "players_out": [p for p, inv in enumerate(s.players) if inv is None],
            "adventures": [self._adventure_view(c) for c in s.cards],
            "adventure_deck_left": len(s.adventure_deck),
            "other_world_deck_left": len(s.other_world_deck),
            "mythos": self._mythos_view(),
            "mythos_deck_left": len(s.mythos_deck),
            "locked": {c.value: n for c, n in self.locked().items() if n},
            "spell_dice": list(s.spells)
            if s.attempt is None
            else [d for d, how, _ in s.attempt.holds if how == "spell"],
            "moved": s.moved,
            "attempt": self._attempt_view(),
            **self._questions_view(),
            "outcome": s.outcome.result if s.outcome else None,
            "outcome_reason": s.outcome.reason if s.outcome else None,
            "history_length": len(self._stack),
        }

    def _investigators_view(self, current: int | None) -> list[dict[str, Any]]:
        return [
            {
                "id": inv.id,
                "name": inv.name,
                "player": inv.player,
                "sanity": inv.sanity,
                "stamina": inv.stamina,
                "max_sanity": inv.max_sanity,
                "max_stamina": inv.max_stamina,
                "clues": inv.clues,
                # the item cards held (None: not counted, the host tells them); Allies are not counted
                "items": {effect: getattr(inv, field) for effect, (field, _) in ITEMS.items()}
                if inv.items_counted
                else None,
                "place": inv.place,
                "devoured": inv.devoured,
                "active": index == current,
            }
            for index, inv in enumerate(self._state.investigators)
        ]

    def _adventure_view(self, c: CardState) -> dict[str, Any]:
        return {
            "slot": c.slot,
            "id": c.card,
            "name": c.name,
            "ordered": c.ordered,
            "other_world": c.other_world,
            "lock": c.lock.value if c.lock else None,
            "tasks": [
                {
                    "index": i + 1,
                    "need": str(t.task.need),
                    "done": t.done,
                    "monster": t.monster,
                    **{key: getattr(t.task, key) for key in TASK_COSTS if getattr(t.task, key)},  # :185
                }
                for i, t in enumerate(c.tasks)
            ],
            "tasks_missing": self.tasks_missing(c),
        }

    def _mythos_view(self) -> dict[str, Any] | None:
        s = self._state
        if not s.mythos:
            return None
        mythos = self.packs.mythos[s.mythos]
        return {
            "id": mythos.id,
            "name": mythos.name,
            "lingering": "" if mythos.placeholder else mythos.lingering,
            "kind": None if mythos.placeholder else mythos.lingering_kind,
            "active": s.mythos_active,
            "stand_in": mythos.placeholder,
        }

    def _questions_view(self) -> dict[str, Any]:
        questions = self._state.questions
        asked = [q for q in questions if q.kind != "attack"]  # the cards not filled in yet the host is asked about
        return {
            "question": (
                {**asked[0].to_dict(), "told": list(asked[0].told), "left": len(asked) - 1} if asked else None
            ),
            # the Ancient One attacked at midnight: the players whose investigators still choose what to lower (:459)
            "attack_choices": [q.player for q in questions if q.kind == "attack"],
        }

    def _attempt_view(self) -> dict[str, Any] | None:
        a = self._state.attempt
        if a is None:
            return None
        view: dict[str, Any] = {
            "place": a.place,
            "free": dict(a.free),
            "last": list(a.last) if a.last else None,
            "failed": a.failed,
            "held": [{"face": _face(d).value, "die": d, "how": how, "player": p} for d, how, p in a.holds],
            "rolls": a.rolls,
            "dice_to_roll": self.dice_to_roll(),
        }
        if a.failed and a.last:  # :211: the die the next roll sets aside, the player's choice or the suggestion
            view |= {"aside": set_aside(a), "aside_chosen": bool(a.aside), "hold": a.hold, "spell": a.spell}
            view["dice_chosen"] = failed_dice(a).to_dict()  # which die of the roll each choice is, for the page
        elif a.last:  # a roll that completed a task: its dice placed on it, those it left (for a spell, :345) and the
            # die chosen for a spell
            view |= {"placed": list(a.placed), "left": [str(d) for d in left_by_task(a)], "spell": a.spell}
        choices = lock_choices(a, Colour.GREEN)
        if choices:  # a green die locked now: the dice the player chooses among (:401, die=FACE from=WHERE)
            view["lock_choices"] = [{"die": die, "from": where} for die, where in choices]
        if a.choose:  # the tasks the last roll's dice meet: the player chooses the one it completes (:177, :189)
            view["choose"] = list(a.choose)
        return view

    def open_tasks(self) -> list[tuple[int, Need]]:
        """The tasks the next roll may complete, as (1-based index, need): at the adventure of the attempt, or
        the Ancient One's combat task."""
        s = self._state
        place = s.attempt.place if s.attempt else None
        if place == ANCIENT_ONE:
            return [(1, combat_task(self.ancient, s))]
        card = next((c for c in s.cards if c.slot == place), None)
        if card is None:
            return []
        return _open(card)

    def _roll_due(self) -> tuple[InvestigatorState, str] | None:
        """The active investigator and the place of their next roll (an adventure's slot or ANCIENT_ONE), or None
        when no roll is due."""
        s = self._state
        index = s.players[s.current] if s.players else None
        if s.outcome is not None or index is None or s.attempted or (s.attempt is not None and s.attempt.choose):
            return None  # (a roll waiting for the choice of its task is no roll due)
        inv = s.investigators[index]
        place = s.attempt.place if s.attempt else (ANCIENT_ONE if s.awake else inv.place)
        if inv.devoured or place == ENTRANCE or not (s.moved or s.awake):
            return None
        return inv, place

    def odds_costs(self) -> tuple[dict[int, Unpaid], Unpaid | None, bool]:
        """What the active investigator cannot pay of the tasks left where the next roll is (:189, `unpaid`): each
        task that cannot be paid alone (by its number), the card's shortfall when its tasks cannot all be paid
        (None: they can), and whether they can in every order they may be done (`card_unpaid`). Nothing when no
        roll is due or against the Ancient One (its combat task costs nothing)."""
        due = self._roll_due()
        if due is None or due[1] == ANCIENT_ONE:
            return {}, None, True
        inv, place = due
        card = next(c for c in self._state.cards if c.slot == place)
        left = [(i + 1, t.task) for i, t in enumerate(card.tasks) if not t.done]
        alone = {n: u for n, task in left if (u := unpaid(inv.sanity, inv.stamina, task, n)) is not None}
        short, every = card_unpaid(inv.sanity, inv.stamina, left, card.ordered)
        return alone, short, every

    def odds_question(self, clue: bool = False) -> dict[str, Any] | None:
        """The arguments of ``companion.games.elder_sign.odds.card_fraction`` for the next roll of the active
        player, or None when no roll is due: the tasks left (all of them; ``ordered`` says whether only the top
        one is open), the dice of the next roll (after a failed roll, one green die set aside), the dice held,
        the places to hold one (the held ones included: the own marker and the markers of investigators on the
        same card, none against the Ancient One, :449) and the active investigator's clues.

        `clue`: the roll a clue token makes instead, after a roll that completed nothing (:357-361): the dice of
        that roll in the pool again (none set aside; the dice chosen with focus and spell held, :347, :371) with one
        clue fewer; None when there is no such roll (no failed roll, no clue)."""
        s = self._state
        due = self._roll_due()
        if due is None:
            return None
        inv, place = due
        if clue and (s.attempt is None or not s.attempt.failed or not s.attempt.last or inv.clues <= 0):
            return None
        if place == ANCIENT_ONE:
            if self.combat_missing():
                return None  # no odds against a combat task that is not on the board
            tasks, ordered = [str(combat_task(self.ancient, s))], False
        else:
            card = next(c for c in s.cards if c.slot == place)
            if self.tasks_missing(card):
                return None  # no odds against tasks that are not on the board
            tasks, ordered = [str(t.task.need) for t in card.tasks if not t.done], card.ordered
        dice = self.next_roll_dice(clue)
        holds: list[tuple[str, str, int | None]] = (
            list(s.attempt.holds) if s.attempt else [(d, "spell", None) for d in s.spells]
        )
        if s.attempt is not None and s.attempt.failed and s.attempt.hold:  # chosen with focus: held by the next roll
            holds.append((s.attempt.hold, "focus", s.current))  # or the clue's re-roll (:371)
        if s.attempt is not None and s.attempt.spell:  # chosen with spell: on it with the next roll or clue (:345)
            holds.append((s.attempt.spell, "spell", None))
        markers = 0
        if place != ANCIENT_ONE:
            for other in s.investigators:
                if other.devoured or other.place != place or not self._in_play(other):
                    continue
                if not any(h in ("focus", "assist") and p == other.player for _, h, p in holds):
                    markers += 1
        return {
            "tasks": tasks,
            "ordered": ordered,
            "green": dice.count(Colour.GREEN),
            "yellow": dice.count(Colour.YELLOW),
            "red": dice.count(Colour.RED),
            "held": [_face(d).value for d, _, _ in holds],
            "holds": len(holds) + markers,
            "clues": inv.clues - 1 if clue else inv.clues,
        }

    def _in_play(self, inv: InvestigatorState) -> bool:
        index = self._state.players[inv.player]
        return index is not None and self._state.investigators[index] is inv

    def __repr__(self) -> str:
        s = self._state
        return f"<ElderSign {self.ancient.id} {self.setup.players}p turn {s.turn} {CLOCK[s.clock]} doom {s.doom}>"


def _investigator(packs: ElderSignPacks, inv_id: str, player: int, count_items: bool) -> InvestigatorState:
    """An investigator joining with what is listed on its card (:84, :411): a filled-in card's items counted (not in a
    game stored before they were, `count_items`); a stand-in's not, until the host tells them (never made up)."""
    inv = packs.investigators[inv_id]
    return InvestigatorState(
        inv.id,
        inv.name,
        player,
        inv.sanity,
        inv.stamina,
        inv.sanity,
        inv.stamina,
        inv.clues,
        common_items=inv.common_items,
        unique_items=inv.unique_items,
        spells=inv.spells,
        items_counted=count_items and not inv.placeholder,
    )


def _card_state(card: Adventure, slot: str, stand_in_reading: bool) -> CardState:
    """An adventure in play. A card not filled in yet plays nothing of its own: no tasks (the host enters the card's
    with set-tasks, and whether it has the arrow), no locked die. In the stand-in's reading (a game stored before,
    Game.read_stored) its tasks keep the stand-in's symbols and order, costing nothing."""
    if card.placeholder:
        tasks = [TaskState(TaskCard(t.need)) for t in card.tasks] if stand_in_reading else []
        ordered = card.ordered if stand_in_reading else False
        return CardState(
            slot, card.id, card.name, tasks, ordered, card.other_world, None, stand_in=True, made_up=stand_in_reading
        )
    return CardState(
        slot, card.id, card.name, [TaskState(t) for t in card.tasks], card.ordered, card.other_world, card.lock
    )


def _devour_cleared(events: Sequence[Mapping[str, Any]]) -> bool:
    """Whether these events took the dice off an adventure's tasks for a devouring during the attempt."""
    return any(e.get("type") == "attempt_ended" and e.get("why") == "devoured" for e in events)


def _awaken_cleared(events: Sequence[Mapping[str, Any]]) -> bool:
    """Whether these events took the dice off an adventure's tasks for the Ancient One woken during the attempt."""
    return any(e.get("type") == "attempt_ended" and e.get("why") == "awakened" for e in events)


def _history_ended(events: Sequence[Mapping[str, Any]]) -> bool:
    """Whether these events are those of the first command played as now after a stored game's stored history."""
    return any(e.get("type") == STORED_HISTORY_ENDS for e in events)


def _devour_asked(events: Sequence[Mapping[str, Any]]) -> bool:
    """Whether these events ask the host about an attempt ended by a devouring (:373 an assistant, :395 a monster)."""
    return any(e.get("type") == "card_asked" and e.get("part") in DEVOUR_PARTS for e in events)


def _rest_withdrawn(events: Sequence[Mapping[str, Any]]) -> bool:
    """Whether these events ask the one question of what is left of a devoured investigator's turn (DEVOURED_REST)."""
    return any(e.get("type") == "card_asked" and e.get("part") == DEVOURED_REST for e in events)


def _lock_took(events: Sequence[Mapping[str, Any]]) -> bool:
    """Whether these events lock a die taken out of the attempt at once (LOCKED_AT_ONCE, :399-403: it says `from`)."""
    return any(e.get("type") == "die_locked" and "from" in e for e in events)


def _choice_asked(events: Sequence[Mapping[str, Any]]) -> bool:
    """Whether a command's events leave a roll waiting for the player's choice of task (:177, :189)."""
    return any(e.get("type") == "rolled" and e.get("choose") for e in events)


def _face(die: str) -> Face:
    return Die.parse(die).face


@dataclass(frozen=True)
class Unpaid:
    """A cost the investigator cannot pay (:189 "I can't finish a task if the requirements will make my Sanity or
    Stamina lower than 0"): `cost` of `what` ("sanity" or "stamina") against the `has` the investigator holds, for
    task number `task` alone, or (`task` None) the tasks left of a card together; `cost` None: every task can be paid
    and so can their total, but in no order the card allows them (only with a task that gives some back)."""

    what: str
    cost: int | None
    has: int
    task: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def unpaid(sanity: int, stamina: int, task: TaskCard, number: int | None = None) -> Unpaid | None:
    """The one check of a task's costs (:189): what of them an investigator with `sanity` and `stamina` cannot pay
    (the first, sanity before stamina), or None when all can be paid (exactly to 0 too, :407 "below 0")."""
    return _short(sanity, stamina, task.sanity, task.stamina, number)


def _short(sanity: int, stamina: int, sanity_change: int, stamina_change: int, number: int | None) -> Unpaid | None:
    for what, has, change in (("sanity", sanity, sanity_change), ("stamina", stamina, stamina_change)):
        if has + change < 0:
            return Unpaid(what, -change, has, number)
    return None


def _paid_in_order(sanity: int, stamina: int, tasks: Sequence[TaskCard]) -> bool:
    for task in tasks:
        if unpaid(sanity, stamina, task) is not None:
            return False
        sanity, stamina = sanity + task.sanity, stamina + task.stamina
    return True


def card_unpaid(
    sanity: int, stamina: int, tasks: Sequence[tuple[int, TaskCard]], ordered: bool
) -> tuple[Unpaid | None, bool]:
    """Whether the tasks left of a card (number, task; top to bottom) can all be paid (:189), each when it is done:
    the first shortfall when they cannot in any order the card allows (`ordered`: its own, :281-283), and whether
    every such order pays (False only with a task that gives sanity or stamina back: then the order matters, which
    the odds do not follow)."""
    costly = [task for _, task in tasks if task.sanity or task.stamina]
    orders = [costly] if ordered else list(itertools.permutations(costly))
    paid = [_paid_in_order(sanity, stamina, order) for order in orders]
    if any(paid):
        return None, all(paid)
    alone = (unpaid(sanity, stamina, task, number) for number, task in tasks)
    together = _short(sanity, stamina, sum(t.sanity for t in costly), sum(t.stamina for t in costly), None)
    return next((u for u in alone if u is not None), together or Unpaid("sanity", None, sanity)), False


def _open(card: CardState) -> list[tuple[int, Need]]:
    left = [(i + 1, t.task.need) for i, t in enumerate(card.tasks) if not t.done]
    if card.ordered:
        # the arrow (:281-283): top to bottom; a monster marker's task is added under the bottom task (:391)
        return left[:1]
    return left


# -- the rules ---------------------------------------------------------------------------------------------------


def _players_list(players: Sequence[int]) -> str:
    """'player 1', 'player 1 and player 2', 'player 1, player 2 and player 3' (each named, so a page shows names)."""
    return listed([f"player {p + 1}" for p in players])


class _Rules(RulesBase[State, Command]):
    """Applies one command to a copy of the state, collecting its events."""

    def __init__(self, game: Game, state: State, cmd: Command) -> None:
        super().__init__(state, cmd)
        self.game = game
        self.packs = game.packs
        self.ancient = game.ancient
        self.physical = game.setup.physical
        self.needs: list[tuple[str, str]] = []
        self.answering: Question | None = None  # the question card-did answers
        self.given = {k: [v.strip() for v in cmd.args.get(k, "").split(",") if v.strip()] for k in DRAW_ARGS}

    def run(self) -> None:
        cmd = self.cmd
        check_args(cmd, COMMANDS, extra=DRAW_ARGS)
        required, optional, _ = COMMANDS[cmd.name]
        for key in cmd.args:
            if key in DRAW_ARGS and key not in required and key not in optional and not self.physical:
                raise BadCommand(
                    f"{cmd.name}: {key}= is only given in physical deck mode; this game draws its "
                    "own cards. Leave it out."
                )
        if self.s.outcome is not None:
            raise IllegalCommand(
                f"the game is over ({self.s.outcome}). Undo the last command if it was a mistake, or start a new game."
            )
        if cmd.name != "lower" and any(q.kind == "attack" for q in self.s.questions):
            waiting = [q.player for q in self.s.questions if q.kind == "attack" and q.player is not None]
            self.illegal(
                "the Ancient One attacked at midnight: each investigator lowers maximum sanity or maximum "
                f"stamina by 1 first (:459); still to choose: {_players_list(waiting)}. Each one answers with "
                "lower player=N stat=sanity|stamina."
            )
        first = self.game.numbers_first(self.s) if cmd.name in PLAY_COMMANDS else []
        if first:
            self.illegal(numbers_first_refusal(first))
        # a question the turn before left open (the Mythos card of midnight, else a penalty asked as it ended) holds
        # this turn's play; the Ancient One's attack at that midnight is chosen first (its check above)
        asked = next((q for q in self.s.questions if q.midnight), None) or next(
            (q for q in self.s.questions if q.ended), None
        )
        reading, refusal = (
            (Reading.MIDNIGHT_ASKED, MIDNIGHT_FIRST)
            if asked and asked.midnight
            else (Reading.PENALTY_ASKED, PENALTY_FIRST)
        )
        if asked is not None and cmd.name in PLAY_COMMANDS and cmd.name != "lower" and not self.game.plays_in(reading):
            self.illegal(refusal.format(what=asked_words(asked)))
        choosing = self.s.attempt.choose if self.s.attempt is not None else None
        if choosing and cmd.name in CHOICE_FIRST:
            self.illegal(choice_first_refusal(choosing))
        getattr(self, "do_" + cmd.name.replace("-", "_"))()
        self.check_end()
        if self.needs:
            text = " and ".join(f"{arg}=ID ({why})" for arg, why in self.needs)
            raise CardsNeeded(
                f"{cmd.name}: this command draws {len(self.needs)} card(s) from the real decks. Add {text}.",
                list(self.needs),
            )
        for arg, values in self.given.items():
            if values:
                raise BadCommand(f"{cmd.name}: {arg}= names a card this command does not draw; leave it out.")

    # -- who -----------------------------------------------------------------------------------
    def active(self) -> InvestigatorState | None:
        index = self.s.players[self.s.current]
        return None if index is None else self.s.investigators[index]

    def need_active(self) -> InvestigatorState:
        inv = self.active()
        if inv is None:
            self.illegal(f"player {self.s.current + 1} has no investigator left (:415); end the turn.")
        if inv.devoured:
            self.illegal(f"{inv.name} was devoured this turn; the turn still ends with the clock (:413). End the turn.")
        return inv

    def player_at(self, player: int) -> InvestigatorState:
        """The investigator a question fell on (0-based player; one in play, as the question went with a devouring)."""
        index = self.s.players[player]
        assert index is not None
        return self.s.investigators[index]

    def player_arg(self, key: str = "player") -> InvestigatorState:
        number = _int(self.cmd, key, 1, len(self.s.players))
        index = self.s.players[number - 1]
        if index is None or self.s.investigators[index].devoured:
            self.illegal(f"player {number} has no investigator in play.")
        return self.s.investigators[index]

    def card(self, slot: str) -> CardState:
        found = next((c for c in self.s.cards if c.slot == slot), None)
        if found is None:
            self.illegal(
                f"there is no adventure in place {slot!r}; the adventures in play are "
                f"{', '.join(c.slot for c in self.s.cards)}."
            )
        return found

    # -- cards -----------------------------------------------------------------------------------
    def take(self, arg: str, why: str, deck: list[str], known: Mapping[str, Any]) -> str | None:
        """The next card of a deck: the top card (virtual), or the card the host names (physical mode)."""
        if not self.physical:
            return deck.pop() if deck else None
        if not deck:
            return None
        if not self.given[arg]:
            self.needs.append((arg, why))
            return None
        card = self.given[arg].pop(0)
        if card not in known:
            raise BadCommand(f"{self.cmd.name}: unknown card {card!r} for {arg}=; the cards are: {', '.join(known)}.")
        if card not in deck:
            raise BadCommand(
                f"{self.cmd.name}: {card!r} is not in its deck now; the cards left are: "
                f"{', '.join(sorted(deck)) or 'none'}."
            )
        deck.remove(card)
        return card

    def draw_mythos(self, why: str) -> None:
        """Draw a Mythos card and resolve its immediate half; its lingering half replaces the last one (:311-321)."""
        s = self.s
        if not s.mythos_deck and not self.physical:
            s.mythos_reshuffles += 1
            deck = sorted(s.mythos_discard)
            random.Random(f"{self.game.setup.seed}:mythos:{s.mythos_reshuffles}").shuffle(deck)
            s.mythos_deck, s.mythos_discard = deck, []
            self.emit("mythos_reshuffled")
        if self.physical and not s.mythos_deck:
            s.mythos_deck, s.mythos_discard = sorted(s.mythos_discard), []
        card_id = self.take("mythos", f"the Mythos card drawn at {why}", s.mythos_deck, self.packs.mythos)
        if card_id is None:
            return
        if s.mythos is not None:
            s.mythos_discard.append(s.mythos)
        s.mythos = card_id
        s.mythos_active = True
        s.mythos_lock = None
        card = self.packs.mythos[card_id]
        if card.placeholder:
            self.emit(
                "mythos_drawn",
                card=card.id,
                name=card.name,
                immediate={},
                lingering="",
                kind=None,
                reason=why,
                stand_in=True,
            )
            self.ask(Question(card.id, "mythos", "immediate", None, midnight=why == "midnight"))
            return
        self.emit(
            "mythos_drawn",
            card=card.id,
            name=card.name,
            immediate=card.immediate.to_dict(),
            lingering=card.lingering,
            kind=card.lingering_kind,
            reason=why,
        )
        if card.lock is not None:
            self.emit("die_locked", colour=card.lock.value, by="mythos", name=card.name)
        self.mythos_half(card, "immediate", why="mythos", midnight=why == "midnight")

    def draw_adventure(self, slot: str) -> None:
        card_id = self.take(
            "adventure_card", f"the adventure drawn into place {slot}", self.s.adventure_deck, self.packs.adventures
        )
        if card_id is None:
            if not self.physical:
                self.emit("adventure_deck_empty", slot=slot)
            return
        card = self.packs.adventures[card_id]
        self.s.cards.append(_card_state(card, slot, self.game.plays_in(Reading.STAND_IN)))
        self.s.cards.sort(key=lambda c: int(c.slot))
        self.emit("adventure_drawn", slot=slot, card=card.id, name=card.name, other_world=False)

    def draw_other_world(self) -> None:
        """A gate: an Other World card goes below the six adventures (:247, :275-277)."""
        s = self.s
        card_id = self.take(
            "other_world", "the Other World card of a gate", s.other_world_deck, self.packs.other_worlds
        )
        if card_id is None:
            if not self.physical:
                self.emit("other_world_deck_empty")
            return
        slot = str(s.next_slot)
        s.next_slot += 1
        card = self.packs.other_worlds[card_id]
        s.cards.append(_card_state(card, slot, self.game.plays_in(Reading.STAND_IN)))
        self.emit("adventure_drawn", slot=slot, card=card.id, name=card.name, other_world=True)

    # -- effects -------------------------------------------------------------------------------
    def ask(self, question: Question) -> None:
        """A card not filled in yet came up: nothing of it is played; the host is asked what the real card did."""
        self.s.questions.append(question)
        self.emit_asked(question)

    def emit_asked(self, question: Question) -> None:
        """The question to the host, in the log (its words are the page's, Module's card question)."""
        names = {"adventure": lambda: self.packs.card(question.card).name, "entrance": lambda: ENTRANCE_NAME}
        self.emit(
            "card_asked",
            **question.to_dict(),
            name=names.get(question.kind, lambda: self.packs.mythos[question.card].name)(),
        )

    def effect(self, effect: Effect, everyone: bool, why: str, player: int | None = None) -> None:
        """Apply what the companion counts of an effect; the rest (`text`) is read out. Not `everyone`: the
        active investigator, or the investigator of `player`."""
        s = self.s
        if effect.text:
            self.emit("effect_text", text=effect.text, why=why)
        if effect.elder_signs:
            self.elder_signs(effect.elder_signs, why)
        targets = [inv for inv in s.investigators if not inv.devoured and self.in_play(inv)]
        if not everyone:
            index = s.players[player] if player is not None else None
            active = self.active() if player is None else (None if index is None else s.investigators[index])
            targets = [active] if active is not None and not active.devoured else []
        for inv in targets:
            if effect.clues:
                inv.clues = max(0, inv.clues + effect.clues)
                self.clues_changed(inv, effect.clues)
            if effect.sanity or effect.stamina:
                self.change(inv, effect.sanity, effect.stamina, why)
            for kind, (field_name, _) in ITEMS.items():
                if getattr(effect, field_name):
                    self.gain_items(inv, kind, getattr(effect, field_name))
        if effect.monsters:
            self.monsters(effect.monsters, why)
        if effect.gate:
            self.draw_other_world()
        if effect.clock:
            self.move_clock(effect.clock, why)
        if effect.doom:
            self.add_doom(effect.doom, why)

    def mythos_half(self, card: MythosCard, part: str, why: str, midnight: bool = False) -> None:
        """A filled-in Mythos card's half (`part`: immediate, at_midnight or terror): its sanity, stamina, clues and
        items fall on whom the card says (Effect.who; left out, every investigator, :321, and the terror's on the
        active investigator, who rolled, :202). Where the card leaves it to the table (who = "ask") the rest is played
        and the host is asked whom those went to (Question.whom), as for a card not filled in yet."""
        effect: Effect = getattr(card, part)
        who = effect.who or ("active" if part == "terror" else "each")
        if who != "ask":
            self.effect(effect, everyone=who == "each", why=why)
            return
        self.effect(to_the_table(effect), everyone=True, why=why)
        whom = tuple((kind, n) for kind, n in aimed_of(effect).items() if n)
        if whom:
            self.ask(Question(card.id, "mythos", part, None, midnight=midnight, whom=whom))

    def gain_items(self, inv: InvestigatorState, kind: str, n: int) -> None:
        """Item cards drawn for an investigator (:229, :237, :239: one a reward icon) or spent (:329, n < 0): counted
        when its items are (InvestigatorState.items_counted), else written down only (the host counts them)."""
        if not inv.items_counted:
            return
        field_name = ITEMS[kind][0]
        setattr(inv, field_name, max(0, getattr(inv, field_name) + n))
        self.items_changed(inv)

    def items_changed(self, inv: InvestigatorState) -> None:
        self.emit(
            "items_changed",
            player=inv.player,
            investigator=inv.name,
            items={kind: getattr(inv, field_name) for kind, (field_name, _) in ITEMS.items()},
        )

    def in_play(self, inv: InvestigatorState) -> bool:
        index = self.s.players[inv.player]
        return index is not None and self.s.investigators[index] is inv

    def clues_changed(self, inv: InvestigatorState, change: int) -> None:
        """The event of an investigator's clue tokens changed (the change alone is told while its card's numbers are
        the stand-in's, numbers_missing)."""
        self.emit(
            "clues_changed",
            player=inv.player,
            investigator=inv.name,
            clues=inv.clues,
            change=change,
            numbers_missing=self.game.numbers_missing(inv),
        )

    def change(self, inv: InvestigatorState, sanity: int, stamina: int, why: str) -> None:
        """:407: devoured when sanity or stamina "go below 0"; at 0 the investigator plays on (:189 lets a task
        take them to 0, not "lower than 0")."""
        # a stand-in's numbers are made up: no one is devoured by them (set-investigator judges it with the card's)
        made_up = self.game.numbers_missing(inv) and not self.game.pack_numbers_count(True, True)
        below = (inv.sanity + sanity < 0 or inv.stamina + stamina < 0) and not made_up
        # what went below 0, from what it was (the value shown stays 0): the words say so (sentences.fell_words)
        fell = [
            {"stat": stat, "was": was, "change": n}
            for stat, was, n in (("sanity", inv.sanity, sanity), ("stamina", inv.stamina, stamina))
            if was + n < 0
        ]
        inv.sanity = max(0, min(inv.max_sanity, inv.sanity + sanity))
        inv.stamina = max(0, min(inv.max_stamina, inv.stamina + stamina))
        self.emit(
            "investigator_changed",
            player=inv.player,
            investigator=inv.name,
            sanity=inv.sanity,
            stamina=inv.stamina,
            sanity_change=sanity,
            stamina_change=stamina,
            why=why,
            numbers_missing=self.game.numbers_missing(inv),  # the stand-in's numbers: the words tell the change only
            **({"below": [f["stat"] for f in fell]} if below else {}),
        )
        if below:
            self.devour(inv, fell)

    def devour(self, inv: InvestigatorState, fell: Sequence[Mapping[str, Any]] = ()) -> None:
        """:405-415: devoured when sanity or stamina go below 0: a doom token, and a new investigator for the
        player (none once the Ancient One is awake, :453). `fell`: what went below 0, from what it was, by how much
        (the words tell it: the value shown stays 0)."""
        s = self.s
        if inv.devoured:
            return
        inv.devoured = True
        inv.place = "box"
        inv.clues = 0
        inv.common_items = inv.unique_items = inv.spells = 0  # :409 the items go back to their decks
        s.questions = [q for q in s.questions if not (q.kind == "attack" and q.player == inv.player)]
        if inv.player == s.current:
            # :413: the player controls the new investigator from their next turn; this one ends with the clock
            s.moved = s.attempted = s.first_aid = True
        self.emit("investigator_devoured", player=inv.player, investigator=inv.name, fell=[dict(f) for f in fell])
        # what was still asked of the devoured's turn, in it or told once it ended (a penalty, :219), falls on no one
        if not self.game.plays_in(Reading.DEVOUR_AFTER if inv.player != s.current else Reading.DEVOUR_REST):
            self.withdraw_asked(inv)
        if not self.game.plays_in(Reading.DEVOUR_REWARD):
            self.narrow_rewards(inv)
        if s.attempt is not None and inv is self.active():
            self.devoured_attempt(s.attempt)
        if s.awake:
            s.players[inv.player] = None
            self.emit("player_out", player=inv.player, why="devoured in the battle")
        elif s.unused:
            new_id = s.unused.pop(0)
            s.investigators.append(_investigator(self.packs, new_id, inv.player, not self.game.plays_in(Reading.ITEMS)))
            s.players[inv.player] = len(s.investigators) - 1
            self.emit("investigator_joins", player=inv.player, investigator=s.investigators[-1].name)
        else:
            s.players[inv.player] = None
            self.emit("player_out", player=inv.player, why="no investigator left")
        self.add_doom(1, "devoured")

    def withdraw_asked(self, inv: InvestigatorState) -> None:
        """An investigator devoured (:407 "My Investigator card and marker are ... sent back to the box") in their turn,
        or by what was still asked of it once it ended (a penalty told after the end of the turn, :219): what was still
        asked of their turn's cards (DEVOURED_WITHDRAWN) falls on no one, not on the new investigator, who "start[s]
        with full Sanity and Stamina ... to control on their next turn" (:413); what is left of the turn is the clock
        (:413 "you still have to Advance the Clock on your turn"). Whether those cards' doom tokens, monsters or clock
        still happen the text does not say: one question (DEVOURED_REST) in their place."""
        s = self.s
        mine = [q for q in s.questions if q.player == inv.player and (q.kind, q.part) in DEVOURED_WITHDRAWN]
        if not mine:
            return
        s.questions = [q for q in s.questions if q not in mine]
        parts = [f"{q.kind}:{q.part}" for q in mine]
        # `over`: their turn had ended (the clock advanced) when what was asked of it devoured them
        self.emit("questions_withdrawn", player=inv.player, parts=parts, over=inv.player != s.current)
        first = next((q for q in mine if q.kind == "adventure"), mine[0])
        self.ask_rest(first.card, first.kind, first.slot, parts)

    def narrow_rewards(self, inv: InvestigatorState) -> None:
        """An investigator devoured (:405-415) while a reward or the Lost & Found of theirs was still being told
        (DEVOURED_REWARD; often by that reward's own sanity or stamina, :223 "a reward may not actually be
        beneficial"): the rest of it asks only what goes to the table (DEVOURED_REWARD_TAPS: Elder Signs, doom tokens,
        monsters, gates); what it would give an investigator falls on no one, not on the new investigator, who starts
        "with full Sanity and Stamina" and their own starting items (:411-413), the devoured's clues and items gone
        back (:409)."""
        s = self.s
        for i, q in enumerate(s.questions):
            if q.player == inv.player and (q.kind, q.part) in DEVOURED_REWARD and not q.devoured:
                s.questions[i] = dataclasses.replace(q, devoured=True)
                self.emit_asked(s.questions[i])

    def ask_rest(self, card: str, kind: str, slot: str | None, rest: Sequence[str]) -> None:
        """The one question of what is left of a devoured investigator's turn (DEVOURED_REST), asked once; `rest`:
        what of the turn's cards it stands for (its words name them)."""
        if not any(q.part == DEVOURED_REST for q in self.s.questions):
            self.ask(Question(card, kind, DEVOURED_REST, None, slot, rest=tuple(dict.fromkeys(rest))))

    def elder_signs(self, n: int, why: str) -> None:
        s = self.s
        s.elder_signs = max(0, s.elder_signs + n)
        self.emit("elder_signs", elder_signs=s.elder_signs, change=n, needed=self.game.elder_signs_needed(s), why=why)

    def monsters(self, n: int, why: str) -> None:
        self.s.monsters_pending += n
        self.emit("monster_appears", count=n, pending=self.s.monsters_pending, why=why)

    def add_doom(self, n: int, why: str) -> None:
        """Doom tokens on the track, left to right (:419-423); a monster at a monster space; the last space
        wakes the Ancient One (:427). While it is awake, tokens come off by combat (:439)."""
        s = self.s
        full = self.game.doom_max(s, played=True)  # None: a stand-in's track, not entered yet: no end to wake it
        if n > 0:
            for _ in range(n):
                if full is not None and s.doom >= full:
                    break
                s.doom += 1
                self.emit("doom", doom=s.doom, doom_max=self.game.doom_max(s), change=1, why=why)
                # :423 a monster at a monster icon of the track; a stand-in Ancient One's icons are not the card's
                if s.doom in self.ancient.monster_spaces and not s.awake and not self.ancient.placeholder:
                    self.monsters(1, "doom track")
            if full is not None and s.doom >= full and not s.awake:
                self.awaken("the doom track is full")
        elif n < 0:
            before = s.doom
            s.doom = max(0, s.doom + n)
            if s.doom != before:
                self.emit("doom", doom=s.doom, doom_max=self.game.doom_max(s), change=s.doom - before, why=why)

    def awaken(self, why: str) -> None:
        """:427-433: the Ancient One wakes: the track fills, every investigator goes to its card, the lingering
        Mythos effect ends, and the active player goes on to advance the clock (:433), when it woke during their turn.
        Woken by the Mythos card of the last clock step (:309-311; a card not filled in yet, told by the host only
        now) or of the setup (:87), or by a stand-in's numbers copied when the table had reached them, before the
        active player began: it woke before their turn, which is still to come (:323 "Once I've finished the steps
        for advancing the Clock, it's the next player's turn"; :435-439: it begins with the attack on it)."""
        s = self.s
        q = self.answering
        earlier = self.cmd.name in ("setup", "set-ancient-one") or (
            q is not None and q.kind == "mythos" and q.part in ("immediate", "at_midnight")
        )
        begun = s.moved or s.attempted or s.attempt is not None
        s.awake = True
        s.doom = self.game.doom_max(s, played=True) or s.doom
        s.mythos_active = False
        s.mythos_lock = None
        s.monsters_pending = 0
        for inv in s.investigators:
            if not inv.devoured:
                inv.place = ANCIENT_ONE
        # an adventure rolled for ends here (:433); `lost`: its dice had failed it already (only a clue was left)
        lost = None if s.attempt is None else s.attempt.failed and self.dice_cannot(s.attempt)
        a = s.attempt
        s.attempted = begun or not earlier
        s.moved = True
        self.emit("ancient_one_awakens", name=self.ancient.name, why=why, attempt_lost=lost)
        if a is not None and a.place != ANCIENT_ONE and not self.game.plays_in(Reading.AWAKEN):
            # the card is neither completed nor failed (:433: the turn goes on to the clock), and no marker comes back
            # to it (:431); its dice come off (:185 a die on a task is not rolled again "during this step", the step
            # ends here; the battle rolls them, :443): no task of it stays done. In a game stored before
            # (Reading.AWAKEN) they stayed done.
            card = self.card(a.place)
            undone = [i for i, t in enumerate(card.tasks, 1) if t.done]
            self.dice_off(card)
            self.emit("attempt_ended", slot=card.slot, name=card.name, why="awakened", player=s.current, undone=undone)
        if a is not None:
            self.end_attempt()

    def move_clock(self, hours: int, why: str) -> None:
        s = self.s
        for _ in range(hours // HOURS_PER_TURN):
            s.clock = (s.clock + 1) % len(CLOCK)
            self.emit("clock_advanced", clock=CLOCK[s.clock], why=why)
            if s.clock == 0:
                s.midnight_pending += 1

    def check_end(self) -> None:
        s = self.s
        if s.outcome is not None:
            return
        needed = self.game.elder_signs_needed(s, played=True)  # None: a stand-in's limit, not entered yet
        if needed is not None and s.elder_signs >= needed:
            s.outcome = Outcome("won", f"{s.elder_signs} Elder Signs seal {self.ancient.said} away")
            self.emit("game_won", reason=s.outcome.reason)
        elif s.awake and s.doom == 0:
            s.outcome = Outcome("won", f"the last doom token is removed: {self.ancient.said} is sent back")
            self.emit("game_won", reason=s.outcome.reason)
        elif all(p is None for p in s.players):
            reason = "every investigator is devoured in the battle" if s.awake else "no investigator is left to play"
            s.outcome = Outcome("lost", reason)
            self.emit("game_lost", reason=reason)

    # -- the turn ----------------------------------------------------------------------------------
    def end_attempt(self) -> None:
        """The rolls of the turn end: the dice come back, but a die on a spell card stays there (:347-349)."""
        s = self.s
        if s.attempt is not None:
            s.spells = [d for d, how, _ in s.attempt.holds if how == "spell"]
        s.attempt = None
        s.attempted = True

    def do_end_turn(self) -> None:
        """:305-323: three hours at the end of every turn; at midnight, the At Midnight effects, then a Mythos
        card (or, once the Ancient One is awake, its attack, :441, :457-459). Then the next player's turn; not before a
        failed roll's terror asked about is told (:202-211), nor any other card question still open (ASKED_BEFORE_ENDING;
        in a game stored before, Reading.END_ASKED, the turn ended with it open)."""
        s = self.s
        self.terror_first(TERROR_BEFORE_STOPPING)
        asked = next((q for q in s.questions if q.kind != "attack"), None)
        if asked is not None and not self.game.plays_in(Reading.END_ASKED):
            self.illegal(ASKED_BEFORE_ENDING.format(what=asked_words(asked)))
        if s.attempt is not None:
            self.fail_attempt("the turn ended")
            # no question was open before (ASKED_BEFORE_ENDING): what is open now was asked by the failing
            s.questions = [q if q.kind == "attack" else dataclasses.replace(q, ended=True) for q in s.questions]
        player = s.current
        self.emit("turn_ended", player=player, turn=s.turn)
        self.move_clock(HOURS_PER_TURN, "turn")
        while s.midnight_pending and s.outcome is None:
            s.midnight_pending -= 1
            self.midnight()
            self.check_end()
        # :413: a devoured investigator's player still advances the clock; the next player with an investigator
        n = len(s.players)
        for step in range(1, n + 1):
            nxt = (player + step) % n
            if s.players[nxt] is not None:
                s.current = nxt
                break
        s.turn += 1
        s.moved = s.attempted = s.first_aid = False
        if s.awake:
            s.moved = True
        active = self.active()
        self.emit(
            "turn_started", player=s.current, turn=s.turn, investigator=active.name if active is not None else None
        )

    def midnight(self) -> None:
        s = self.s
        s.midnights += 1
        self.emit("midnight", midnights=s.midnights, awake=s.awake)
        if s.mythos is not None and s.mythos_active:
            card = self.packs.mythos[s.mythos]
            if card.placeholder:
                self.ask(Question(card.id, "mythos", "at_midnight", None, midnight=True))
            elif card.lingering_kind == "at_midnight":
                self.emit("at_midnight", card=card.id, name=card.name, text=card.lingering)
                self.mythos_half(card, "at_midnight", why="at midnight", midnight=True)
        if s.outcome is not None:
            return
        if s.awake:
            self.attack()
        else:
            self.draw_mythos("midnight")

    def attack(self) -> None:
        """:457-459: "Each investigator ... must make a tough decision. We have to lower either our maximum Sanity or
        our maximum Stamina by 1", then a doom token unless the track is full. The choices given with the end of the
        turn (attack=sanity,stamina,... in player order) are played at once; each investigator without one is asked
        (a question a player: lower player=N stat=sanity|stamina), and nothing else is played until all have
        answered. In a game stored before the companion asked (Reading.SANITY) a choice not given was sanity."""
        s = self.s
        choices = [c.strip().lower() for c in self.cmd.args.get("attack", "").split(",") if c.strip()]
        for c in choices:
            if c not in STATS:
                raise BadCommand(f"{self.cmd.name}: attack= lists sanity or stamina for each player, not {c!r}.")
        self.emit("ancient_one_attack", name=self.ancient.name, text=self.ancient.attack)
        asked = []
        for player, index in enumerate(s.players):
            if index is None:
                continue
            inv = s.investigators[index]
            if player < len(choices) or self.game.plays_in(Reading.SANITY):
                self.lower_maximum(inv, choices[player] if player < len(choices) else "sanity")
            else:
                s.questions.append(Question(self.ancient.id, "attack", "attack", player))
                asked.append(player)
        if asked:
            self.emit("attack_asked", name=self.ancient.name, players=asked)
        full = self.game.doom_max(s, played=True)
        if full is None or s.doom < full:
            s.doom += 1
            self.emit("doom", doom=s.doom, doom_max=self.game.doom_max(s), change=1, why="attack")
        elif "attack" in self.cmd.args and not choices:
            raise BadCommand(f"{self.cmd.name}: attack= is empty; list sanity or stamina for each player.")

    def lower_maximum(self, inv: InvestigatorState, which: str) -> None:
        """:459: the investigator's maximum sanity or stamina goes down by 1 (the tokens with it); below 0 devours."""
        was = getattr(inv, which)
        if which == "sanity":
            inv.max_sanity -= 1
            inv.sanity = min(inv.sanity, inv.max_sanity)
        else:
            inv.max_stamina -= 1
            inv.stamina = min(inv.stamina, inv.max_stamina)
        self.emit(
            "maximum_lowered",
            player=inv.player,
            investigator=inv.name,
            stat=which,
            max_sanity=inv.max_sanity,
            max_stamina=inv.max_stamina,
        )
        if inv.sanity < 0 or inv.stamina < 0:  # :407 "go below 0"
            self.devour(inv, [{"stat": which, "was": was, "change": getattr(inv, which) - was}])

    def do_lower(self) -> None:
        """The answer to the Ancient One's attack for one investigator (:459): its maximum sanity or stamina by 1."""
        s = self.s
        number = _int(self.cmd, "player", 1, len(s.players))
        which = _choice(self.cmd, "stat", STATS)
        found = next((q for q in s.questions if q.kind == "attack" and q.player == number - 1), None)
        if found is None:
            self.illegal(
                f"player {number}'s investigator has no choice to make now: the Ancient One's attack asks each "
                "investigator once, at midnight (:459)."
            )
        s.questions.remove(found)
        index = s.players[number - 1]
        assert index is not None  # a devoured investigator's question goes with it (devour)
        self.lower_maximum(s.investigators[index], which)

    def do_move(self) -> None:
        """:93, :99-103: the active player moves to an adventure card or the Entrance, once, before rolling."""
        s = self.s
        inv = self.need_active()
        if s.awake:
            self.illegal("the Ancient One is awake: every investigator stays on its card (:431).")
        if s.moved:
            self.illegal("this turn's move is made; the investigator moves once, at the start of the turn (:93).")
        to = self.cmd.args["to"].strip().lower()
        if to != ENTRANCE:
            to = self.card(to).slot
        inv.place = to
        s.moved = True
        self.emit(
            "moved", player=s.current, investigator=inv.name, to=to, name=None if to == ENTRANCE else self.card(to).name
        )

    def start_attempt(self) -> None:
        s = self.s
        inv = self.need_active()
        if s.attempted:
            self.illegal("this turn's dice are rolled; end the turn to advance the clock.")
        if s.awake:
            place = ANCIENT_ONE
            if self.game.combat_missing(s):
                self.illegal(
                    "the Ancient One's card is not filled in yet and its combat task is not entered, so no roll can "
                    "be judged against it: enter the combat task printed on its card first "
                    "(set-tasks adventure=ancient-one tasks=inv:4,lore:1, :439)."
                )
        elif inv.place == ENTRANCE or not s.moved:
            self.illegal("the investigator is not on an adventure card; move to one first (:103, :107).")
        else:
            place = inv.place
            card = self.card(place)
            if self.game.tasks_missing(card):
                self.illegal(
                    f"the adventure in place {place} is not filled in yet and its tasks are not entered, so no roll "
                    "can be judged against it: enter the tasks printed on the card first "
                    f"(set-tasks adventure={place} tasks=inv:4;lore:1,peril:1 ordered=true|false, :115)."
                )
        s.attempt = AttemptState(
            place,
            {"green": self.game.green_dice(), "yellow": 0, "red": 0},
            holds=[(d, "spell", None) for d in s.spells],
        )
        s.spells = []
        self.emit(
            "attempt_started",
            player=s.current,
            investigator=inv.name,
            place=place,
            name=self.ancient.name if place == ANCIENT_ONE else self.card(place).name,
            green=s.attempt.free["green"],
        )

    def do_add_die(self) -> None:
        """:109, :329-341: an item adds the yellow or the red die before a roll; a locked die cannot be added."""
        s = self.s
        colour = Colour.parse(_choice(self.cmd, "colour", ("yellow", "red")))
        if s.attempt is None:
            self.start_attempt()
        a = s.attempt
        assert a is not None
        if self.game.locked()[colour] >= BOX_DICE[colour]:
            self.illegal(f"the {colour.value} die is locked on a card (:111, :403).")
        on_spells = sum(1 for d, how, _ in a.holds if how == "spell" and Die.parse(d).colour is colour)
        if a.added.count(colour.value) + self.game.locked()[colour] + on_spells >= BOX_DICE[colour]:
            self.illegal(f"the {colour.value} die was already added this turn; the box has one (:61-62, :341).")
        inv = self.need_active()
        kind = DIE_ITEM[colour.value]
        if inv.items_counted and getattr(inv, ITEMS[kind][0]) <= 0:
            self.illegal(
                f"{inv.name} holds no {ITEM_WORDS[kind]}, and the {colour.value} die comes from spending one (:173-175, "
                f":335-339). If the table shows one, the host counts it first (items player={inv.player + 1} "
                f"{ITEMS[kind][1]}=1)."
            )
        self.gain_items(inv, kind, -1)  # :329 spent: face down at the bottom of its deck
        a.added.append(colour.value)
        a.free[colour.value] += 1
        self.emit("die_added", colour=colour.value, player=s.current)

    def terror_first(self, words: str = TERROR_FIRST) -> None:
        """A roll (or a clue's re-roll), stopping the attempt or ending the turn (`words`: TERROR_BEFORE_STOPPING)
        waits for the terror asked about to be told (:202-211), but in a game stored before (Reading.LENIENT)."""
        if self.game.terror_open(self.s) and not self.game.lenient():
            self.illegal(f"{words[:-1]}: answer with card-did effect=..., then card-did effect=nothing (:202-211).")

    def do_roll(self) -> None:
        s = self.s
        self.terror_first()
        if s.attempt is None:
            self.start_attempt()
        a = s.attempt
        assert a is not None
        if a.failed:
            self.after_failure(a)
        elif "lose" in self.cmd.args or "hold" in self.cmd.args:
            self.illegal(
                "lose= and hold= follow a roll that completed nothing; the last roll completed a task "
                "(or this is the first roll), so no die is lost."
            )
        elif "spell" in self.cmd.args or a.spell:
            self.spell(a)
        self.settle(a, self.read_faces(a), clue=False)

    def after_failure(self, a: AttemptState) -> None:
        """:211-215: one die of the failed roll is set aside; one other may be held (focus or assist, :363-373)
        or put on a spell (:345); the rest are rolled again. A lock that took the failed roll's last die left none
        to set aside, hold or put on a spell: lose=, hold=, on= and spell= are refused then, saying why."""
        assert a.last is not None
        if not a.last:
            given = [f"{k}=" for k in ("lose", "hold", "on", "spell") if k in self.cmd.args]
            if given:
                self.illegal(
                    "the failed roll has no die left: a lock took its last one (:399-403), so none is set aside, held "
                    f"or put on a spell. Roll again without {', '.join(given)}."
                )
            a.failed = False
            return
        last = [Die.parse(f) for f in a.last]
        colours = [d.colour.value for d in last]
        if "lose" in self.cmd.args:
            lose = _choice(self.cmd, "lose", ("green", "yellow", "red"))
            if lose not in colours:
                self.illegal(f"the last roll had no {lose} die to set aside; it showed {', '.join(a.last)}.")
            if a.aside and a.aside != lose:
                self.illegal(f"the {a.aside} die was chosen to be set aside; choose again with set-aside first.")
        else:
            lose = set_aside(a)
        hold = self.cmd.args.get("hold") or a.hold  # hold= or the die chosen with focus
        if a.hold and "hold" in self.cmd.args and Die.parse(self.cmd.args["hold"]) != Die.parse(a.hold):
            self.illegal(f"{a.hold} was chosen to be held; choose again with focus first.")
        spell = self.cmd.args.get("spell") or a.spell  # spell= or the die chosen with spell
        self.spell_chosen_first(a)
        aside = failed_dice(a, hold, spell, lose).aside
        assert aside is not None  # lose is a colour of the roll
        a.aside, a.hold, a.spell = None, None, None
        a.free[lose] -= 1
        remaining = [d for i, d in enumerate(last) if i != aside]
        self.emit("die_lost", colour=lose, player=self.s.current)
        self.place_chosen(a, remaining, hold, spell)
        a.failed = False

    def place_chosen(self, a: AttemptState, remaining: list[Die], hold: str | None, spell: str | None) -> None:
        """The failed roll's dice chosen to be held (`hold`: focus, or assist with on=, :365-373) and put on a Spell
        card (`spell`, :345-347) go there, out of the pool (`remaining`: the roll's dice not set aside), as the next
        roll or a clue's re-roll is played: "You don't get to roll it again" (:371), "you don't have to roll it
        again" (:347)."""
        if hold:
            if self.s.awake:
                self.illegal("no one may focus or assist while battling the Ancient One (:449).")
            die = self.pick(remaining, hold, "hold")
            remaining.remove(die)
            on = self.s.current
            if "on" in self.cmd.args:
                on = _int(self.cmd, "on", 1, len(self.s.players)) - 1
            how = "focus" if on == self.s.current else "assist"
            target = self.s.players[on]
            if target is None or self.s.investigators[target].devoured:
                self.illegal(f"player {on + 1} has no investigator to put the die on.")
            if how == "assist" and self.s.investigators[target].place != a.place:
                self.illegal(
                    f"player {on + 1}'s investigator is not on this adventure card; assisting needs the "
                    "same card (:365, :369)."
                )
            if any(p == on and h in ("focus", "assist") for _, h, p in a.holds):
                self.illegal(f"player {on + 1}'s investigator marker already holds a die; one die a marker (:371).")
            a.free[die.colour.value] -= 1
            a.holds.append((str(die), how, on))
            self.emit("die_held", face=die.face.value, how=how, player=on)
        elif "on" in self.cmd.args:
            raise BadCommand(f"{self.cmd.name}: on= says whose marker gets the die of hold=; give hold= too.")
        if spell:
            die = self.pick(remaining, spell, "spell")
            remaining.remove(die)
            self.on_spell(a, die)

    def do_focus(self) -> None:
        """:213 "I can also choose one other die from my previous attempt to ... focus on my own Investigator
        marker": the player's choice after a failed roll, played with the next roll (:365-371: it keeps its face and
        counts for the later rolls); one die a marker, none in the battle (:449)."""
        s = self.s
        a = s.attempt
        self.need_active()
        if a is None or not a.failed or not a.last:
            self.illegal("a die is held after a roll that completed nothing; there is none now.")
        if s.awake:
            self.illegal("no one may focus or assist while battling the Ancient One (:449).")
        die = self.pick([Die.parse(f) for f in a.last], self.cmd.args["die"], "die")
        if any(p == s.current and h in ("focus", "assist") for _, h, p in a.holds):
            self.illegal("the investigator's marker already holds a die; one die a marker (:371).")
        same = [f for f in a.last if Die.parse(f).colour is die.colour]
        if die.colour.value == set_aside(a) and len(same) == 1:
            self.illegal(f"the {die.colour.value} die is the one set aside; set another die aside first (:211, :213).")
        if a.hold and Die.parse(a.hold) == die:
            self.illegal(f"{a.hold} is the die to hold already.")
        if a.spell and Die.parse(a.spell) == die and sum(1 for f in a.last if Die.parse(f) == die) == 1:
            self.illegal(f"{a.spell} is the die to put on the spell; hold another one (:345).")
        a.hold = str(die)
        self.emit("die_to_hold", face=die.face.value, colour=die.colour.value, player=s.current)

    def do_spell(self) -> None:
        """:345-347 "After you roll, you get to choose one of the dice and, without changing its result, place it on
        the Spell card": after a failed roll, the player's choice of one other die, played with the next roll (as a
        focus is); only with a Spell to play (spell_held), one a card (:347)."""
        a = self.s.attempt
        inv = self.need_active()
        if a is None or not a.last:
            self.illegal("a die goes on a spell after a roll; there is none now.")
        if not a.failed:  # :345 "After you roll": after a roll that completed a task, a die the task left
            die = self.spell_die(a, self.cmd.args["die"], "die")
            self.spell_held(inv)
            a.spell = str(die)
            self.emit("die_to_spell", face=die.face.value, colour=die.colour.value, player=self.s.current)
            return
        last = [Die.parse(f) for f in a.last]
        die = self.pick(last, self.cmd.args["die"], "die")
        self.spell_held(inv)
        if a.spell and Die.parse(a.spell) == die:
            self.illegal(f"{a.spell} is the die to put on the spell already.")
        # the die set aside and the one held stay theirs: another die of the roll must be left for the spell
        chosen = failed_dice(a, spell=str(die))
        if chosen.spell is None or (a.hold and chosen.hold is None):
            self.illegal(f"{die} is the die set aside or held; set aside or hold another one first (:211, :213).")
        a.spell = str(die)
        self.emit("die_to_spell", face=die.face.value, colour=die.colour.value, player=self.s.current)

    def do_set_aside(self) -> None:
        """:211: "I need to choose one of the dice I used in my previous attempt and set it aside": the player's
        choice, by its colour (the others are rolled again, so only its colour matters); the next roll plays it."""
        a = self.s.attempt
        self.need_active()
        if a is None or not a.failed or not a.last:
            self.illegal("a die is set aside after a roll that completed nothing; there is none now.")
        colour = _choice(self.cmd, "colour", ("green", "yellow", "red"))
        if colour not in (Die.parse(f).colour.value for f in a.last):
            self.illegal(f"the last roll had no {colour} die to set aside; it showed {', '.join(a.last)}.")
        if colour == set_aside(a):
            self.illegal(f"a {colour} die is the one set aside already.")
        held = Die.parse(a.hold) if a.hold else None
        if held and held.colour.value == colour and sum(1 for f in a.last if Die.parse(f).colour is held.colour) == 1:
            self.illegal(f"the {colour} die is the one to hold; hold another die first (:213).")
        on_spell = Die.parse(a.spell) if a.spell else None
        if (
            on_spell
            and on_spell.colour.value == colour
            and sum(1 for f in a.last if Die.parse(f).colour.value == colour) == 1
        ):
            self.illegal(f"the {colour} die is the one to put on the spell; set another die aside (:345).")
        a.aside = colour
        self.emit("die_set_aside", colour=colour, player=self.s.current)

    def spell(self, a: AttemptState) -> None:
        """:345-349: after a roll that completed a task, one die of it may go on a spell card: one the task left, as
        a die placed on a task "can't [be] roll[ed] again during this step" (:185), and the spell's die is one "of
        the dice" rolled, "without changing its result" (:345). A game stored before (Reading.SPELL_DIE) took it
        from the whole roll, placed or not."""
        if a.last is None:
            self.illegal("there is no roll yet to take a die from for the spell.")
        wanted = self.cmd.args.get("spell") or a.spell
        assert wanted is not None
        self.spell_chosen_first(a)
        die = self.spell_die(a, wanted, "spell")
        a.spell = None
        self.on_spell(a, die)

    def spell_chosen_first(self, a: AttemptState) -> None:
        """A roll's spell= that is not the die chosen for the spell (spell die=) is refused: the choice comes first."""
        if a.spell and "spell" in self.cmd.args and Die.parse(self.cmd.args["spell"]) != Die.parse(a.spell):
            self.illegal(f"{a.spell} was chosen to go on the spell; choose again first.")

    def spell_die(self, a: AttemptState, wanted: str, key: str) -> Die:
        """The die of a roll that completed a task to put on a spell (`wanted`, given as `key`=): one the task left
        (left_by_task); a game stored before (Reading.SPELL_DIE) took it from the whole roll, placed or not."""
        assert a.last is not None
        die = self.pick([Die.parse(f) for f in a.last], wanted, key)  # a die a lock took is refused there
        left = [Die.parse(f) for f in a.last] if self.game.plays_in(Reading.SPELL_DIE) else left_by_task(a)
        if die not in left:  # every die of its face the roll had was placed on the task
            self.illegal(
                f"{key}={wanted}: the last roll's {die} was placed on the task it completed, and a "
                "die placed on a task is spent for it (:185); the die put on a spell is one the roll left (:345): "
                f"{', '.join(map(str, left)) or 'none'}."
            )
        return die

    def on_spell(self, a: AttemptState, die: Die) -> None:
        """A die of the roll goes on a Spell card the active investigator plays (:345-347), one a card (:347).
        The Spell card leaves the hand then: "If I decide to use an item, I have to place it facedown at the bottom
        of its deck" (:329), a Spell "next to the play area right before you roll" (:345), and once its die is used
        it "is returned face down to the bottom of the Spell deck" (:351), never to the hand: so one Spell comes off
        the count as the die goes on it, as an item's die does (add-die), and nothing more when the die is used.
        Refused with no Spell held when the items are counted; offered freely while not (the host counts them)."""
        inv = self.need_active()
        self.spell_held(inv)
        a.free[die.colour.value] -= 1
        a.holds.append((str(die), "spell", None))
        self.emit("die_held", face=die.face.value, how="spell", player=None)
        if not self.game.plays_in(Reading.SPELLS):
            self.gain_items(inv, "spells", -1)

    def spell_held(self, inv: InvestigatorState) -> None:
        """The one check that the active investigator has a Spell to put a die on (:345), when its items are
        counted (a game stored before Spells were counted, Reading.SPELLS, played them whatever was held)."""
        if inv.items_counted and inv.spells <= 0 and not self.game.plays_in(Reading.SPELLS):
            self.illegal(SPELL_NONE.format(name=inv.name, player=inv.player + 1))

    def pick(self, dice: list[Die], text: str, key: str) -> Die:
        try:
            wanted = Die.parse(text)
        except DiceError as exc:
            raise BadCommand(f"{self.cmd.name}: {key}={text!r}: {exc}") from None
        found = next((d for d in dice if d == wanted), None)
        a = self.s.attempt
        if found is None and a is not None and any(Die.parse(f) == wanted for f in a.locked):
            self.illegal(LOCKED_DIE.format(key=key, die=wanted))
        if found is None:
            self.illegal(
                f"{key}={text}: the last roll has no such die left to take; it has "
                f"{', '.join(map(str, dice)) or 'none'}."
            )
        return found

    def read_faces(self, a: AttemptState) -> list[Die]:
        try:
            dice = list(parse_dice(self.cmd.args["faces"]))
        except DiceError as exc:
            raise BadCommand(f"{self.cmd.name}: faces: {exc}") from None
        for colour in Colour:
            have = sum(1 for d in dice if d.colour is colour)
            want = a.free[colour.value]
            if have != want:
                total = sum(a.free.values())
                raise BadCommand(
                    f"{self.cmd.name}: the pool rolls {total} dice ({a.free['green']} green, {a.free['yellow']} yellow, "
                    f"{a.free['red']} red); the dice sent have {have} {colour.value} instead of {want}. {FACES_AGAIN}"
                )
        if not dice:
            self.illegal("no dice are left to roll; give up to end the attempt.")
        return dice

    def do_clue(self) -> None:
        """:357-361: a clue token re-rolls "the dice in my dice pool" (:359) after a roll that completed nothing (no
        die is lost): the die chosen with focus goes on the marker and the one chosen with spell on the Spell card
        first, as a roll plays them (:347, :371 "You don't get to roll it again"), and the others are rolled. A game
        stored before (Reading.CLUE_ALL) re-rolled every die of the roll and dropped both choices."""
        s = self.s
        a = s.attempt
        inv = self.need_active()
        if a is None or not a.failed:
            self.illegal("a clue re-rolls a roll that completed nothing; there is none to re-roll.")
        self.terror_first()
        if inv.clues <= 0:
            self.illegal(f"{inv.name} has no clue token.")
        inv.clues -= 1
        self.emit("clue_spent", player=s.current, investigator=inv.name, clues=inv.clues)
        hold, spell = a.hold, a.spell
        a.failed, a.aside, a.hold, a.spell = False, None, None, None
        if a.last and not self.game.plays_in(Reading.CLUE_ALL):  # none set aside: the held ones stay out (:359)
            self.place_chosen(a, [Die.parse(f) for f in a.last], hold, spell)
        self.settle(a, self.read_faces(a), clue=True)

    def settle(self, a: AttemptState, dice: list[Die], clue: bool) -> None:
        """:177-191: one task per roll, met by this roll's dice with the held ones; its dice are placed and
        the others rolled again. Nothing met: the roll fails (:200-217)."""
        s = self.s
        a.rolls += 1
        a.last = [str(d) for d in dice]
        a.placed = []
        a.locked = []
        held = [_face(d) for d, _, _ in a.holds]
        inv = self.need_active()
        met = self.tasks_met(a, dice, held, inv)
        first_task = self.game.plays_in(Reading.FIRST_TASK)
        choose = [i for i, _ in met] if len(met) > 1 and "task" not in self.cmd.args and not first_task else None
        chosen = None if choose else self.task_met(a, dice, held, inv, met)
        self.emit(
            "rolled",
            player=s.current,
            dice=a.last,
            held=[d for d, _, _ in a.holds],
            clue=clue,
            task=chosen[0] if chosen else None,
            place=a.place,
            **({"choose": choose} if choose else {}),
        )
        if choose:  # :177 "If you are able and willing", :189 "I can only pick one": the player's choice first
            a.choose = choose
            return
        self.resolve(a, dice, held, inv, chosen)

    def do_complete(self) -> None:
        """The task the roll completes, when its dice meet more than one: the player's choice (:177 "If you are able
        and willing to meet all of the requirements for a single task, you can complete that task", :189 "Even if the
        results let me finish multiple tasks, I can only pick one"), or none (:179 "or choose not to meet")."""
        a = self.s.attempt
        inv = self.need_active()
        if a is None or not a.choose or a.last is None:
            self.illegal("there is no roll waiting for the choice of a task: the last roll was judged already.")
        dice = [Die.parse(f) for f in a.last]
        held = [_face(d) for d, _, _ in a.holds]
        chosen = self.task_met(a, dice, held, inv, self.tasks_met(a, dice, held, inv))
        if chosen is not None and chosen[0] not in a.choose:
            self.illegal(f"the roll's dice meet tasks {', '.join(map(str, a.choose))}; task {chosen[0]} is not one.")
        a.choose = None
        self.emit("task_chosen", player=self.s.current, task=chosen[0] if chosen else None, place=a.place)
        self.resolve(a, dice, held, inv, chosen)

    def resolve(
        self,
        a: AttemptState,
        dice: list[Die],
        held: list[Face],
        inv: InvestigatorState,
        chosen: tuple[int, Need] | None,
    ) -> None:
        """The roll judged: the task chosen is completed with its dice and the `held` ones (:183-191), or, none, the
        roll fails. `inv`: the active investigator, who pays the task's costs."""
        if chosen is None:
            self.failed_roll(a, dice)
            return
        used = placement(chosen[1], dice, held)
        assert used is not None
        free_used, held_used = used
        for i in free_used:
            a.free[dice[i].colour.value] -= 1
        a.placed = [str(dice[i]) for i in free_used]  # spent for the task (:185): none goes on a spell (:345)
        for i in sorted(held_used, reverse=True):
            a.holds.pop(i)
        placed = [str(dice[i]) for i in free_used] + [held[i].value for i in held_used]
        if a.place == ANCIENT_ONE:
            self.emit("combat_task_completed", dice=placed, name=self.ancient.name)
            self.add_doom(-1, "combat")
            self.continue_or_stop(a)
            return
        self.task_done(a, chosen, placed, inv)

    def tasks_met(
        self, a: AttemptState, dice: list[Die], held: list[Face], inv: InvestigatorState
    ) -> list[tuple[int, Need]]:
        """The open tasks this roll's dice and the held ones cover and the investigator can afford (:177, :189)."""
        faces = [d.face for d in dice] + held
        return [t for t in self.game_open(a) if covers(t[1], faces) and self.affordable(inv, a, t[0])]

    def task_met(
        self, a: AttemptState, dice: list[Die], held: list[Face], inv: InvestigatorState, met: list[tuple[int, Need]]
    ) -> tuple[int, Need] | None:
        """The task this roll meets: the one the player names (task=N, or task=none: :179, the player chooses not
        to meet one), else the first of `met` (the one, or in a game stored before, the first of several)."""
        open_tasks = self.game_open(a)
        if "task" in self.cmd.args and self.cmd.args["task"].strip().lower() == "none":
            return None  # :179: the player chooses not to meet a task
        if "task" not in self.cmd.args:
            return met[0] if met else None
        number = _int(self.cmd, "task", 1, 20)
        match = next((t for t in open_tasks if t[0] == number), None)
        if match is None:
            self.illegal(
                f"task {number} is not open now; the open tasks are "
                f"{', '.join(str(i) for i, _ in open_tasks) or 'none'}."
            )
        if not covers(match[1], [d.face for d in dice] + held):
            self.illegal(f"the roll does not meet task {number} ({match[1]}); leave task= out to let the roll fail.")
        if not self.affordable(inv, a, number):
            self.illegal(f"task {number} would take {inv.name}'s sanity or stamina below 0 (:189).")
        return match

    def task_done(self, a: AttemptState, chosen: tuple[int, Need], placed: list[str], inv: InvestigatorState) -> None:
        """A task of the adventure met (:185): its costs paid, and the adventure completed when it was the last."""
        s = self.s
        card = self.card(a.place)
        task = card.tasks[chosen[0] - 1]
        task.done = True
        self.emit(
            "task_completed",
            slot=card.slot,
            name=card.name,
            task=chosen[0],
            need=str(chosen[1]),
            dice=placed,
            monster=task.monster,
        )
        if card.stand_in and not task.monster:
            # :185 a task may cost sanity, stamina or time; the stand-in's costs are not the card's: asked instead
            self.ask(Question(card.card, "adventure", "task", s.current, card.slot))
        if task.task.sanity or task.task.stamina:
            self.change(inv, task.task.sanity, task.task.stamina, "task")
        if task.task.clock:
            self.move_clock(task.task.clock, "task")
        if s.attempt is None:
            return
        if all(t.done for t in card.tasks):
            self.complete(card)
            return
        self.continue_or_stop(a)

    def set_combat(self) -> None:
        """:439 "Each Ancient One has a specific Combat Task printed on its card": for an Ancient One not filled in
        yet the host enters it (its stand-in task is not the card's); a filled-in card's task is not changed."""
        s = self.s
        if not self.ancient.placeholder:
            self.illegal(
                f"{self.ancient.name}'s combat task is printed on its card and filled in: "
                f"{self.ancient.combat}. Only an Ancient One not filled in yet takes it from the host."
            )
        if s.attempt is not None and s.attempt.place == ANCIENT_ONE:
            self.illegal("the combat task cannot be changed during an attack; finish or give up first.")
        try:
            tasks = parse_tasks(self.cmd.args["tasks"])
        except ValueError as exc:
            raise BadCommand(f"set-tasks: tasks {str(exc).rstrip('.')}.") from None
        if len(tasks) != 1 or tasks[0].sanity or tasks[0].stamina or tasks[0].clock:
            raise BadCommand("set-tasks: the Ancient One has one combat task: give it alone, e.g. tasks=inv:4,lore:1.")
        s.combat = str(tasks[0].need)
        self.emit("tasks_set", slot=ANCIENT_ONE, name=self.ancient.name, tasks=[s.combat], ordered=False)

    def affordable(self, inv: InvestigatorState, a: AttemptState, number: int) -> bool:
        """Whether `inv` can pay task `number`'s costs (:189; the one check, `unpaid`, the odds use too)."""
        if a.place == ANCIENT_ONE:
            return True
        return unpaid(inv.sanity, inv.stamina, self.card(a.place).tasks[number - 1].task) is None

    def game_open(self, a: AttemptState) -> list[tuple[int, Need]]:
        if a.place == ANCIENT_ONE:
            return [(1, combat_task(self.ancient, self.s))]
        return _open(self.card(a.place))

    def continue_or_stop(self, a: AttemptState) -> None:
        """After a completed task the unused dice are rolled again (:191); with none left, the step ends."""
        a.failed = False
        if sum(a.free.values()) == 0 and not self.held_meets(a):
            if a.place == ANCIENT_ONE:
                self.emit("attack_ended", why="no dice left")
                self.end_attempt()
            else:
                self.fail_attempt("no dice left")

    def held_meets(self, a: AttemptState) -> bool:
        held = [_face(d) for d, _, _ in a.holds]
        return bool(held) and any(covers(need, held) for _, need in self.game_open(a))

    def failed_roll(self, a: AttemptState, dice: list[Die]) -> None:
        """:200-217: a roll that completes nothing: terror results are resolved (the card's and the Mythos
        card's terror effects), then the player tries again (losing a die) or stops."""
        s = self.s
        a.failed = True
        roller = self.active()
        terror = sum(1 for d in dice if d.face is Face.TERROR)
        self.emit("roll_failed", player=s.current, dice=a.last, terror=terror)
        if terror and a.place != ANCIENT_ONE:
            card = self.packs.card(self.card(a.place).card)
            mythos = self.packs.mythos[s.mythos] if s.mythos and s.mythos_active else None
            self.emit(
                "terror",
                player=s.current,
                count=terror,
                slot=a.place,
                name=card.name,
                effect=None if card.placeholder else card.terror.to_dict(),
                mythos=(
                    None if mythos is not None and mythos.placeholder else mythos.terror.to_dict() if mythos else {}
                ),
            )
            if card.placeholder:
                self.ask(Question(card.id, "adventure", "terror", s.current, a.place))
            else:
                self.effect(card.terror, everyone=False, why="terror")
            devoured = roller is not None and roller.devoured and not self.game.plays_in(Reading.DEVOUR_REST)
            if mythos is not None and devoured:
                # devoured by the adventure's terror: the Mythos card's falls on no one (:407, :413); whether what it
                # does to the table still happens the text does not say (withdraw_asked)
                table = to_the_table(mythos.terror)
                if mythos.placeholder or not table.empty:
                    self.ask_rest(card.id, "adventure", a.place, ["mythos:terror"])
            elif mythos is not None and mythos.placeholder:
                self.ask(Question(mythos.id, "mythos", "terror", s.current))
            elif mythos is not None and s.attempt is not None:
                self.mythos_half(mythos, "terror", why="terror")
        if s.attempt is None:
            return
        # :217: with the dice left (one is lost) no open task can be met: the card fails at once
        if self.dice_cannot(a):
            inv = self.active()
            if inv is not None and inv.clues > 0:
                return  # a clue may still re-roll this roll; the player gives up or re-rolls
            if a.place == ANCIENT_ONE:
                self.emit("attack_ended", why="no dice left")
                self.end_attempt()
            else:
                self.fail_attempt("the dice left cannot complete a task")

    def dice_cannot(self, a: AttemptState) -> bool:
        """After a roll that completed nothing: the dice left (one is set aside) cannot complete an open task (:217)."""
        left = sum(a.free.values()) - 1 + len(a.holds)
        need = min((n.min_dice for _, n in self.game_open(a)), default=99)
        return left < need or sum(a.free.values()) - 1 == 0

    def complete(self, card: CardState) -> None:
        """:193-198: the rewards; every investigator on the card goes to the Entrance; a new adventure is drawn
        (Other Worlds are not replaced, :277); then on to the clock."""
        s = self.s
        pack_card = self.packs.card(card.card)
        monsters = sum(1 for t in card.tasks if t.monster)
        s.monsters_met += monsters
        s.cards.remove(card)
        self.emit(
            "adventure_completed",
            slot=card.slot,
            card=card.card,
            name=card.name,
            reward=None if pack_card.placeholder else pack_card.reward.to_dict(),
            monsters=monsters,
            player=s.current,
        )
        for inv in s.investigators:
            if inv.place == card.slot:
                inv.place = ENTRANCE
        self.end_attempt()
        if pack_card.placeholder:
            self.ask(Question(card.card, "adventure", "reward", s.current, card.slot))
        else:
            self.effect(pack_card.reward, everyone=False, why="reward")
        if not card.other_world and not s.awake:
            self.draw_adventure(card.slot)

    def devoured_attempt(self, a: AttemptState) -> None:
        """The attempt of an investigator devoured during it ends: their marker leaves the card (:407), the turn goes
        on to the clock (:413), and the dice come off the adventure's tasks as when it fails (:219, dice_off), so a task
        they completed is to do again. No penalty: :405-415 say what a devouring costs (a doom token, the investigator,
        their items, trophies and clues) and name no adventure penalty (:219 gives it to the one who fails the card;
        the new investigator starts with full sanity and stamina, :413). In a game stored before (Reading.DEVOUR)
        the completed tasks stayed done. Whether the devouring fails the card the text does not say, so the host is
        asked (Reading.DEVOUR_ASKED: a game stored before asked nothing): what each assistant lost (:373, part
        `assisted`), and whether the marker of a monster task completed in it came off (:395, part `monster_won`:
        its task keeps its dice until told)."""
        s = self.s
        ask = a.place != ANCIENT_ONE and not self.game.plays_in(Reading.DEVOUR_ASKED)
        if a.place != ANCIENT_ONE and not self.game.plays_in(Reading.DEVOUR):
            card = self.card(a.place)
            kept = [t for t in card.tasks if t.done and t.monster] if ask else []
            undone = [i for i, t in enumerate(card.tasks, 1) if t.done and t not in kept]
            self.dice_off(card)
            for t in kept:
                t.done = True
            if kept:
                self.ask(Question(card.card, "adventure", "monster_won", s.current, card.slot))
            self.emit("attempt_ended", slot=card.slot, name=card.name, why="devoured", player=s.current, undone=undone)
        if ask:
            # :373 "If you can't or don't want to complete the tasks on your Adventure card, any investigators who
            # were assisting ... have to choose between losing 1 Sanity or losing 1 Stamina": whether a devouring is
            # such a failure the text does not say, so the host tells what each assistant lost (or nothing)
            slot = self.card(a.place)
            helpers = sorted({p for _, how, p in a.holds if how == "assist" and p is not None and p != s.current})
            for p in helpers:
                index = s.players[p]
                if index is not None and not s.investigators[index].devoured:
                    self.ask(Question(slot.card, "adventure", "assisted", p, slot.slot))
        self.end_attempt()

    def dice_off(self, card: CardState) -> None:
        """:219 "remove all the dice from the card, except for the ones on a locked die icon": no task stays done (the
        locked die is the card's lock, not a task's)."""
        for t in card.tasks:
            t.done = False

    def fail_attempt(self, why: str) -> None:
        """:217-219, :373, :395: the penalties; the dice come off (locks stay); assisting investigators lose 1
        sanity or stamina; completed monster tasks are still won."""
        s = self.s
        a = s.attempt
        if a is None:
            return
        if a.place == ANCIENT_ONE:
            self.emit("attack_ended", why=why)
            self.end_attempt()
            return
        card = self.card(a.place)
        pack_card = self.packs.card(card.card)
        won = [t for t in card.tasks if t.done and t.monster]
        for t in won:
            card.tasks.remove(t)
            s.monsters_met += 1
        self.dice_off(card)
        helpers = sorted({p for _, how, p in a.holds if how == "assist" and p is not None})
        self.emit(
            "adventure_failed",
            slot=card.slot,
            card=card.card,
            name=card.name,
            penalty=None if pack_card.placeholder else pack_card.penalty.to_dict(),
            why=why,
            player=s.current,
            monsters_won=len(won),
        )
        self.end_attempt()
        if pack_card.placeholder:
            self.ask(Question(card.card, "adventure", "penalty", s.current, card.slot))
        else:
            self.effect(pack_card.penalty, everyone=False, why="penalty")
        stat = "sanity"
        if "assist" in self.cmd.args:
            stat = _choice(self.cmd, "assist", STATS)
        for p in helpers:
            index = s.players[p]
            if index is not None and not s.investigators[index].devoured:
                inv = s.investigators[index]
                self.change(inv, -1 if stat == "sanity" else 0, -1 if stat == "stamina" else 0, "assist")

    def do_give_up(self) -> None:
        """:209 "I can choose not to resolve the Adventure card" (or :447 end the attack), once the failed roll's terror
        asked about is told (:202-208 "Whether or not I resolved any Terror effects")."""
        s = self.s
        self.terror_first(TERROR_BEFORE_STOPPING)
        if s.attempt is None:
            inv = self.need_active()
            if s.attempted or inv.place == ENTRANCE or not s.moved:
                self.illegal("there is no roll under way to give up.")
            self.start_attempt()
        self.fail_attempt("given up")

    def entrance_activity(self, what: str) -> InvestigatorState:
        """:289 "If I'm standing at the Entrance after moving, I get to pick one of three activities": one a turn,
        for a turn whose move went there (not back there from an adventure completed that turn, :196-198)."""
        s = self.s
        inv = self.need_active()
        if not s.moved or inv.place != ENTRANCE or s.awake:
            self.illegal(f"{what} is an activity of the Entrance; move there first (:289).")
        if s.first_aid:
            self.illegal("one Entrance activity a turn (:289).")
        if s.attempted and not self.game.lenient():
            self.illegal(
                "an adventure was completed this turn: its investigators are back at the Entrance, and the turn goes "
                f"on to the clock (:196-198); {what} is for a turn whose move went to the Entrance (:103, :289). "
                "End the turn."
            )
        s.first_aid = True  # the turn's Entrance activity is done
        s.attempted = True
        return inv

    def do_lost_found(self) -> None:
        """:293 "If I decide to search the Lost & Found, I roll a green die and look at the chart on the Entrance": the
        die's face as it lies; the chart is printed on the Entrance sheet, not in the rules text, so the companion plays
        nothing of it and asks the host what it gave (card-did, as for a card not filled in yet)."""
        try:
            dice = parse_dice(self.cmd.args["face"])
        except DiceError as exc:
            raise BadCommand(f"lost-found: face: {exc}") from None
        if len(dice) != 1 or dice[0].colour is not Colour.GREEN:
            raise BadCommand("lost-found: face= is the one green die rolled (:293), as it lies, e.g. face=lore.")
        self.entrance_activity("searching the Lost & Found")
        self.emit("lost_and_found", player=self.s.current, face=dice[0].face.value)
        self.ask(Question(ENTRANCE_NAME, "entrance", "lost_found", self.s.current))

    def do_first_aid(self) -> None:
        """:289-291: at the Entrance: 1 stamina and 1 sanity for free; full= (paid with trophies) restores all
        of one or both."""
        inv = self.entrance_activity("first aid")
        full = _choice(self.cmd, "full", ("none", "sanity", "stamina", "both")) if "full" in self.cmd.args else "none"
        sanity = inv.max_sanity - inv.sanity if full in ("sanity", "both") else min(1, inv.max_sanity - inv.sanity)
        stamina = (
            inv.max_stamina - inv.stamina if full in ("stamina", "both") else min(1, inv.max_stamina - inv.stamina)
        )
        self.change(inv, sanity, stamina, "first aid")

    def do_adjust(self) -> None:
        inv = self.player_arg()
        values = {}
        for key in ("sanity", "stamina", "clues", "max_sanity", "max_stamina"):
            if key in self.cmd.args:
                values[key] = _int(self.cmd, key, -20, 20)
        if not values:
            raise BadCommand("adjust: give sanity=, stamina=, clues=, max_sanity= or max_stamina= (changes, e.g. -1).")
        inv.max_sanity = max(0, inv.max_sanity + values.get("max_sanity", 0))
        inv.max_stamina = max(0, inv.max_stamina + values.get("max_stamina", 0))
        if values.get("clues"):
            inv.clues = max(0, inv.clues + values["clues"])
            self.clues_changed(inv, values["clues"])
        self.change(inv, values.get("sanity", 0), values.get("stamina", 0), "card")

    def do_items(self) -> None:
        """The host counts the item cards an investigator holds, as on the table (:329-351): all three kinds for one
        whose items are not counted yet (a stand-in's starting items are the card's, :84, never made up; a game
        stored before they were counted), any of them to put the count right."""
        inv = self.player_arg()
        if not any(arg in self.cmd.args for _, arg in ITEMS.values()):
            raise BadCommand("items: give common=, unique= or spells=, the item cards the investigator holds.")
        self.count_items(inv)

    def count_items(self, inv: InvestigatorState) -> None:
        """The item cards the host counts for `inv` (items, or set-investigator with a card's starting items): all
        three while its items are not counted yet, any of them to put the count right."""
        told = {kind: _int(self.cmd, arg, 0, 20) for kind, (_, arg) in ITEMS.items() if arg in self.cmd.args}
        if not inv.items_counted and len(told) < len(ITEMS):
            numbers = " sanity=S stamina=T clues=C" if self.cmd.name == "set-investigator" else ""
            raise BadCommand(
                f"{self.cmd.name}: {inv.name}'s items are not counted yet: give all three, the Common Items, Unique "
                f"Items and Spells the investigator holds ({self.cmd.name} player={inv.player + 1}{numbers} common=C "
                "unique=U spells=S)."
            )
        for kind, n in told.items():
            setattr(inv, ITEMS[kind][0], n)
        inv.items_counted = True
        self.items_changed(inv)

    def do_set_ancient_one(self) -> None:
        """The numbers printed on an Ancient One card not filled in yet: its doom track's length (:419-427) and its
        Elder Sign limit (:245 "it depends on the Ancient One's Elder Sign Limit"), once, before it wakes. A number the
        table has reached already plays at once: Elder Signs at the limit win (:245 "If you meet or exceed that number,
        victory is yours!", checked after every command); else doom tokens filling the card's track wake the Ancient
        One (:427 "As soon as that Doom token lands on the last spot"), the track holding no more than its spaces.
        Entered once it is awake (a game stored before the numbers were asked first woke at the stand-in's track, and
        reopened has no limit of the card's): the limit still wins (:461), the track's length caps the doom tokens
        (:459 "if the Doom track is already full, I don't add any additional Doom tokens")."""
        s = self.s
        if not self.ancient.placeholder:
            self.illegal(f"{self.ancient.name}'s card is filled in: its numbers are the card's.")
        if s.ancient_numbers is not None:
            self.illegal("the Ancient One's numbers were entered already.")
        # both numbers checked at once: a refusal names every one that does not fit
        doom, signs = arg_ints(self.cmd, ("doom", "elder_signs"), 1, 30, ", as printed on the card (:245, :419-427)")
        s.ancient_numbers = (doom, signs)
        self.emit("ancient_one_entered", doom_max=doom, elder_signs_needed=signs)
        if s.awake:
            s.doom = min(s.doom, doom)  # the track holds no more than its spaces
        # the Elder Signs won are the rewards taken before an awakening (:427): at the limit the game is won (check_end)
        elif s.elder_signs < signs and s.doom >= doom:
            self.awaken("the doom track is full")

    def do_set_investigator(self) -> None:
        """The numbers printed on an investigator card not filled in yet (:84 "we get our Investigator markers,
        Stamina and Sanity tokens, and any item cards and Clue tokens listed on our cards"): the card's maximums
        from now on, less what an attack lowered (:459); what was lost or gained since the start still counts, as do
        the clues spent or won."""
        inv = self.player_arg()
        card = self.packs.investigators[inv.id]
        if not card.placeholder:
            self.illegal(f"{inv.name}'s card is filled in: its numbers are the card's (a card effect is adjust).")
        if inv.entered:
            self.illegal(f"player {inv.player + 1}'s numbers were entered already; put a mistake right with adjust.")
        sanity, stamina = _int(self.cmd, "sanity", 1, 20), _int(self.cmd, "stamina", 1, 20)
        if "clues" in self.cmd.args:
            clues = _int(self.cmd, "clues", 0, 20)
        elif self.game.lenient():
            clues = card.clues  # as the companion played it then: the stand-in's clue tokens stood for the card's
        else:
            raise BadCommand(
                f"set-investigator: the clue tokens are printed on the investigator card too (:84), and the card is "
                "not filled in yet, so the companion has none of its own for it: add clues=C, the number on the card "
                f"(clues=0 when it lists none): set-investigator player={inv.player + 1} sanity={sanity} "
                f"stamina={stamina} clues=C."
            )
        lost_all = False
        for stat, printed in (("sanity", sanity), ("stamina", stamina)):
            top = max(0, printed - (getattr(card, stat) - getattr(inv, "max_" + stat)))
            lost_all = lost_all or top - (getattr(inv, "max_" + stat) - getattr(inv, stat)) < 0
            setattr(inv, stat, max(0, min(top, top - (getattr(inv, "max_" + stat) - getattr(inv, stat)))))
            setattr(inv, "max_" + stat, top)
        inv.clues = max(0, inv.clues + clues - card.clues)
        inv.entered = True
        self.emit(
            "investigator_entered",
            player=inv.player,
            sanity=inv.sanity,
            stamina=inv.stamina,
            max_sanity=inv.max_sanity,
            max_stamina=inv.max_stamina,
            clues=inv.clues,
        )
        if any(arg in self.cmd.args for _, arg in ITEMS.values()):  # :411 its starting items, on the same step
            self.count_items(inv)
        if lost_all:  # :407: what was lost before the card's numbers were in took it below 0
            self.devour(inv)

    def do_doom(self) -> None:
        n = _int(self.cmd, "n", -30, 30)
        if n == 0:
            return
        if self.s.awake and n > 0:
            self.illegal("the Ancient One is awake; its track is full (:429).")
        self.add_doom(n, "card")

    def do_elder_signs(self) -> None:
        n = _int(self.cmd, "n", -30, 30)
        if n:
            self.elder_signs(n, "card")

    def do_clock(self) -> None:
        hours = _int(self.cmd, "hours", 0, 12)
        if hours % HOURS_PER_TURN:
            raise BadCommand("clock: hours= is a multiple of 3 (the hand stops on XII, III, VI and IX, :307).")
        self.move_clock(hours, "card")

    def do_monster(self) -> None:
        """:377-391: a monster marker placed on an adventure; here its task is added to the card."""
        s = self.s
        if s.awake:
            self.illegal("no monsters are placed once the Ancient One is awake.")
        card = self.card(self.cmd.args["adventure"].strip())
        try:
            need = Need.parse(self.cmd.args["need"])
        except DiceError as exc:
            raise BadCommand(f"monster: need: {exc}") from None
        card.tasks.append(TaskState(TaskCard(need), monster=True))
        if s.monsters_pending:
            s.monsters_pending -= 1
        self.emit("monster_placed", slot=card.slot, name=card.name, need=str(need), pending=s.monsters_pending)

    def do_card_did(self) -> None:
        """A card not filled in yet came up and nothing of it was played: the host says what the real card did, each
        kind of effect once with its whole amount (on the investigator it fell on, or on every investigator for a
        Mythos card), and effect=nothing when that was all (docs/elder-sign.md, "Cards not filled in yet")."""
        s = self.s
        if not s.questions:
            self.illegal("no card is waiting to be told: every card that came up is filled in, or was told already.")
        q = s.questions[0]
        self.answering = q
        effect = _choice(self.cmd, "effect", tuple(CARD_EFFECTS))
        key, whom = self.told_as(q, effect)
        if key in q.told:
            self.illegal(
                f"this card's {_TOLD_KIND.get(effect, effect)}{whom} was told already, with the whole amount; "
                "a mistake is put right with the table's corrections, or by taking the tap back."
            )
        if effect != "nothing":
            s.questions[0] = dataclasses.replace(q, told=(*q.told, key))
        if effect == "nothing":
            if "n" in self.cmd.args or "colour" in self.cmd.args:
                raise BadCommand("card-did: effect=nothing takes no n= or colour=; it says the card did nothing more.")
            s.questions.pop(0)
            if q.part == "monster_won":  # the marker stays: its task's dice come off, to be done again (:219)
                for t in self.card(q.slot or "").tasks:
                    t.done = t.done and not t.monster
            self.emit("card_told", **q.to_dict())
            return
        if q.part == DEVOURED_REST and effect not in dict(PART_TAPS[DEVOURED_REST]):
            self.illegal(
                "what is left of a devoured investigator's turn falls on no investigator (:407, :413): tell its doom "
                "tokens, monsters or clock (effect=doom, monster or clock), or effect=nothing."
            )
        if q.devoured and effect not in dict(DEVOURED_REWARD_TAPS):
            self.illegal(
                f"the investigator this {'Lost & Found' if q.kind == 'entrance' else 'reward'} fell on was devoured: "
                "what more of it would go to an investigator falls on no one (the devoured's clues and items go back, "
                ":409; the new investigator starts with full sanity and stamina, :413). Tell what it gives the table "
                "(effect=elder-signs, doom, monster or gate), or effect=nothing."
            )
        if q.whom and effect not in dict(q.whom) and effect != "nothing":
            self.illegal(WHOM_ONLY.format(card=self.packs.mythos[q.card].name, kinds=whom_kinds(q)))
        if (effect == "monster-won") != (q.part == "monster_won") and effect != "nothing":
            self.illegal("monster-won answers whether a devoured attempt's monster marker came off its card, only.")
        if effect == "monster-won":
            if "n" in self.cmd.args or "colour" in self.cmd.args:
                raise BadCommand("card-did: effect=monster-won takes no n= or colour=.")
            card = self.card(q.slot or "")
            for t in [t for t in card.tasks if t.done and t.monster]:
                card.tasks.remove(t)  # :395 taken by the devoured, :409 back to the monster cup
            self.emit("card_effect", **q.to_dict(), effect=effect, n=1)
            return
        if effect == "lock":
            if "n" in self.cmd.args:
                raise BadCommand("card-did: a locked die takes colour=, not n=.")
            self.told_lock(q, Colour.parse(_choice(self.cmd, "colour", ("green", "yellow", "red"))))
            return
        if "colour" in self.cmd.args:
            raise BadCommand(f"card-did: colour= belongs to effect=lock, not effect={effect}.")
        n = _int(self.cmd, "n", -9, 9) if "n" in self.cmd.args else dict(q.whom).get(effect, CARD_EFFECTS[effect])
        if n == 0:
            raise BadCommand("card-did: n=0 changes nothing; give effect=nothing when the card did nothing more.")
        why = q.part.replace("_", " ")
        if effect == "doom" and s.awake and n > 0:
            self.illegal("the Ancient One is awake; its track is full (:429).")
        if (
            effect in ("monster", "gate", *TABLE_DRAWS)
            and n < 0
            and not (effect in ITEMS and dict(q.whom).get(effect, 0) < 0)
        ):
            raise BadCommand(f"card-did: effect={effect} adds; n= is 1 or more.")
        if effect == "clock" and (n < 0 or n % HOURS_PER_TURN):
            raise BadCommand("card-did: the clock moves forward by 3, 6 or 9 hours (:307).")
        target = self.aimed(q, effect)
        self.emit("card_effect", **{**q.to_dict(), "player": target}, effect=effect, n=n)
        if effect in TABLE_DRAWS:  # the table draws them: the items are counted on whom they fell (Allies written down)
            if effect in ITEMS:
                for inv in self.s.investigators if target is None else [self.player_at(target)]:
                    if not inv.devoured and self.in_play(inv):
                        self.gain_items(inv, effect, n)
            return
        if effect == "gate":
            for _ in range(n):
                self.draw_other_world()
            return

        def amount(name: str) -> int:
            return n if effect == name else 0

        told = Effect(
            elder_signs=amount("elder-signs"),
            clues=amount("clues"),
            doom=amount("doom"),
            sanity=amount("sanity"),
            stamina=amount("stamina"),
            monsters=amount("monster"),
            clock=amount("clock"),
        )
        self.effect(told, everyone=target is None, why=why, player=target)

    def told_as(self, q: Question, effect: str) -> tuple[str, str]:
        """What Question.told keeps of this tell, and whom it was for in a refusal's words: the effect kind, each
        once; a Mythos card's sanity, stamina, clues or items once for each whom the host names (player=all, or
        player=N: a card may cost sanity to two investigators, or to one and to everyone), as "sanity:all",
        "sanity:2"."""
        if q.player is not None or effect not in AIMED or "player" not in self.cmd.args:
            return effect, ""
        if self.cmd.args["player"].strip().lower() == "all":
            return f"{effect}:all", " for every investigator"
        number = _int(self.cmd, "player", 1, len(self.s.players))
        return f"{effect}:{number}", f" for player {number}"

    def aimed(self, q: Question, effect: str) -> int | None:
        """Whom a told effect falls on (a player, 0-based; None: every investigator): the investigator the question
        fell on, or for a Mythos card's sanity, stamina or clues the one the host names (player=N, or player=all); in
        a game stored before the host was asked (Reading.LENIENT), every investigator."""
        if q.player is not None or effect not in AIMED:
            if "player" in self.cmd.args:
                raise BadCommand(
                    "card-did: player= says whom a Mythos card's sanity, stamina, clues or items hit; this effect falls where the "
                    "card fell. Leave player= out."
                )
            return q.player
        if "player" not in self.cmd.args:
            if self.game.lenient() or (effect in ITEMS and self.game.plays_in(Reading.SPELLS)):
                return None
            if effect in ITEMS:
                raise BadCommand(
                    f"card-did: say whom the Mythos card's {ITEM_WORDS[effect]}s go to, as the card says: player=all "
                    "(every investigator) or player=N (one player's investigator)."
                )
            raise BadCommand(
                f"card-did: say whom the Mythos card's {effect} hits, as the card says: player=all (every "
                "investigator) or player=N (one player's investigator)."
            )
        if self.cmd.args["player"].strip().lower() == "all":
            return None
        return self.player_arg().player

    def told_lock(self, q: Question, colour: Colour) -> None:
        """:397-403: the card shows a locked die icon: a die of that colour is locked on it while it is in play."""
        s = self.s
        if q.kind == "mythos":
            if s.mythos != q.card or not s.mythos_active:
                self.illegal("that Mythos card is no longer in play, so it locks no die now.")
            if s.mythos_lock is not None:
                self.illegal(f"the Mythos card in play already locks a {s.mythos_lock.value} die.")
            if self.game.locked()[colour] >= BOX_DICE[colour]:
                self.illegal(f"every {colour.value} die is locked already (:401).")
            taken = self.lock_from_attempt(colour)
            s.mythos_lock = colour
            self.emit("die_locked", colour=colour.value, by="mythos", name=self.packs.mythos[q.card].name, **taken)
            return
        card = next((c for c in s.cards if c.slot == q.slot and c.card == q.card), None)
        if card is None:
            self.illegal("that adventure is no longer in play, so it locks no die now.")
        self.lock_card(card, colour)

    def lock_card(self, card: CardState, colour: Colour) -> None:
        """:399 a locked die icon on an adventure: one die of that colour goes on it while it is in play (:403)."""
        if card.lock is not None:
            self.illegal(f"that adventure already locks a {card.lock.value} die.")
        if self.game.locked()[colour] >= BOX_DICE[colour]:
            self.illegal(f"every {colour.value} die is locked already (:401).")
        taken = self.lock_from_attempt(colour)
        card.lock = colour
        self.emit("die_locked", colour=colour.value, by="adventure", slot=card.slot, name=card.name, **taken)

    def lock_from_attempt(self, colour: Colour) -> dict[str, str]:
        """:399 "I have to place one die of the matching color on top of it right away": a lock told during an attempt
        takes a die of its colour out of it at once, the last roll's, one not rolled yet, or one on a Spell card or an
        investigator marker (:401 "even if it was on a Spell card or Investigator marker"); it is not rolled again and
        its result completes no task (:403). For green "you get to decide which die" (:401): the player names it with
        die=FACE when the attempt's green dice differ (a die not rolled yet is taken unless die= names a held one);
        the yellow or red die is the one; from=roll|spell|focus|assist says where the die named is (a held die whose
        face a rolled one shares; without it the roll's is taken, as before). Returns what the event tells of it (`die`, `from`: roll, unrolled, spell,
        focus, assist), nothing when the attempt has no such die. A game stored before (Reading.LOCK_LATE) locked it
        from the next attempt on."""
        a = self.s.attempt
        where = _choice(self.cmd, "from", LOCK_FROM) if "from" in self.cmd.args else None
        if where is not None and "die" not in self.cmd.args:
            raise BadCommand(f"{self.cmd.name}: from= says where the die named with die= is; give die= too.")
        if a is None or self.game.plays_in(Reading.LOCK_LATE):
            if "die" in self.cmd.args:
                raise BadCommand(f"{self.cmd.name}: die= names the die a lock takes from an attempt; there is none.")
            return {}
        if a.choose:
            self.illegal(
                "the last roll waits for the choice of the task it completes: choose it first (complete task=N or "
                "task=none), then tell the lock (:399)."
            )
        pool, unrolled, held = lockable(a, colour)
        if "die" in self.cmd.args:
            try:
                wanted = Die.parse(self.cmd.args["die"])
            except DiceError as exc:
                raise BadCommand(f"{self.cmd.name}: die={self.cmd.args['die']!r}: {exc}") from None
            in_pool = next((d for d in pool if d == wanted), None) if where in (None, "roll") else None
            on = next(((i, d, how) for i, d, how in held if d == wanted and where in (None, how)), None)
            if in_pool is None and on is None:
                self.illegal(
                    f"die={wanted}{'' if where is None else ' from=' + where}: the attempt has no such "
                    f"{colour.value} die to lock; it has {said_lockable(a, colour)} (:401)."
                )
        else:
            if len({die for die, _ in lock_choices(a, colour)}) > 1:  # faces alike: the roll's goes, as before
                self.illegal(
                    f"a {colour.value} die is locked (:399) and the player decides which die goes on the locked die "
                    f"icon (:401): add die=FACE, one of {said_lockable(a, colour)} (from=spell, focus or assist for a "
                    "held one whose face the roll shows too)."
                )
            in_pool = pool[0] if pool else None
            on = None if in_pool is not None or unrolled or not held else held[0]
        if in_pool is not None:
            a.free[colour.value] -= 1
            assert a.last is not None
            a.last.remove(next(f for f in a.last if Die.parse(f) == in_pool))
            a.locked.append(str(in_pool))
            left = [Die.parse(f) for f in a.last] if a.failed else left_by_task(a)
            a.hold = a.hold if a.hold is None or Die.parse(a.hold) in left else None
            a.spell = a.spell if a.spell is None or Die.parse(a.spell) in left else None
            a.aside = a.aside if a.aside in {d.colour.value for d in left} else None
            return {"die": str(in_pool), "from": "roll"}
        if on is not None:
            a.holds.pop(on[0])
            return {"die": str(on[1]), "from": on[2]}
        if unrolled:
            a.free[colour.value] -= 1
            return {"from": "unrolled"}
        return {}

    def do_set_tasks(self) -> None:
        s = self.s
        if self.cmd.args["adventure"].strip() == ANCIENT_ONE:
            self.set_combat()
            return
        if s.awake:
            self.illegal(
                "the Ancient One is awake: the investigators stay on its card and no adventure is attempted any more "
                "(:431, :435-437), so no adventure's tasks are entered."
            )
        card = self.card(self.cmd.args["adventure"].strip())
        if any(t.done for t in card.tasks) or (s.attempt is not None and s.attempt.place == card.slot):
            self.illegal("the tasks of a card being rolled for cannot be changed; finish or give up first.")
        if self.game.tasks_missing(card) and "ordered" not in self.cmd.args:
            raise BadCommand(
                f"set-tasks: the adventure in place {card.slot} is not filled in yet, so whether its tasks are done "
                "in order is the card's: add ordered=true when it shows the arrow on its left side, else "
                "ordered=false (:281-283)."
            )
        try:
            tasks = parse_tasks(self.cmd.args["tasks"])
        except ValueError as exc:
            raise BadCommand(f"set-tasks: tasks {str(exc).rstrip('.')}.") from None
        empty = next((i for i, t in enumerate(tasks, 1) if t.need.min_dice == 0), None)
        if empty is not None:
            raise BadCommand(f"set-tasks: task {empty} needs no symbol; give each task's symbols, e.g. inv:4,lore:1.")
        lock = _choice(self.cmd, "lock", ("none", "green", "yellow", "red")) if "lock" in self.cmd.args else "none"
        if lock != "none" and not self.game.tasks_missing(card):
            raise BadCommand(
                "set-tasks: lock= is told with the tasks of a card not filled in yet; a filled-in card's locked die "
                "is its own, and a lock that came later is told with its card (leave lock= out)."
            )
        monsters = [t for t in card.tasks if t.monster]
        card.tasks = [TaskState(t) for t in tasks] + monsters
        card.stand_in = False  # the host entered the card's own tasks
        if "ordered" in self.cmd.args:
            card.ordered = _bool(self.cmd, "ordered")
        self.emit(
            "tasks_set",
            slot=card.slot,
            name=card.name,
            tasks=[str(t.need) for t in tasks],
            costs=[{key: getattr(t, key) for key in TASK_COSTS if getattr(t, key)} for t in tasks],
            ordered=card.ordered,
        )
        if lock != "none":
            self.lock_card(card, Colour.parse(lock))
