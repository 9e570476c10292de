"""Every sentence a player reads or hears about an Elder Sign game, made in one place (pure: no I/O).

The engine's events are data (``{"type": "mythos_drawn", "name": "Mythos 3", ...}``); this module turns them
into plain words with the table's names ("Anna's turn ends.", "Midnight strikes."). No command spelling
(``key=value``), command name or line of the rules text reaches a player.

    names = Names.of_game(game)
    describe_events(events, names)     # ["Anna's turn ends.", "The clock moves to III."]
    announcement(event, names)         # {"kind": "midnight", "title": "Midnight", "text": ...} or None
    for_players(refusal_message)       # a refusal in the page's words
    action_label(action, names)        # a button of the host's panel
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.commands import page_words
from companion.games.elder_sign.engine import FACES_AGAIN, number_to_copy
from companion.games.elder_sign.packs import ANCIENT_KIND, WHO
from companion.words import a_or_an, count, game_starts, listed, stand_in_no_card

if TYPE_CHECKING:
    from companion.games.elder_sign.engine import Game

__all__ = [
    "NO_NAMES",
    "Names",
    "describe_event",
    "describe_events",
    "announcement",
    "for_players",
    "action_label",
    "command_sentence",
    "need_words",
    "numbers_first_words",
    "cost_words",
    "dice_words",
    "effect_words",
    "end_summary",
    "where_words",
    "odds_words",
    "percent",
    "setup_checklist",
]


@dataclass(frozen=True)
class Names:
    """The names the table uses: the players (in turn order) and the adventures in play by place."""

    players: tuple[str, ...] = ()
    ancient_one: str = "the Ancient One"
    stand_ins: frozenset[str] = frozenset()  # names of cards the owner has not filled in yet (never said as content)
    adventures: tuple[tuple[str, str], ...] = ()  # (place, name) of the adventures in play
    drawn: str = ""  # the Ancient One the companion drew at random, a stand-in, told plainly (drawn_words)
    masks: bool | None = None  # whether the mask monsters go in the cup (:82); None: the card in play is not known

    @classmethod
    def of_game(cls, game: Game) -> Names:
        view = game.view()
        packs = game.packs
        groups = (packs.investigators, packs.adventures, packs.other_worlds, packs.mythos, packs.ancient_ones)
        stand_ins = frozenset(card.name for group in groups for card in group.values() if card.placeholder)
        a = game.ancient
        drawn = "" if game.setup.ancient_one else drawn_words(a.name, a.placeholder, a.names_a_card)
        # :82 "If the Ancient One is Nyarlathotep": known for a filled-in card and for a stand-in by a name the
        # rulebook gives, drawn by the companion or picked by the table (it picked that Ancient One by its name); not
        # for the companion's "Ancient One 2", which names no card: the table plays a card of its own there
        known = a.names_a_card
        return cls(
            tuple(view["player_names"]),
            str(view["ancient_one"]["said"]),
            stand_ins,
            tuple((str(c["slot"]), str(c["name"])) for c in view.get("adventures") or ()),
            drawn,
            a.name.strip().lower() == "nyarlathotep" if known else None,
        )

    def adventure(self, slot: Any) -> str:
        """The adventure in a place by its name (its place while the card is a stand-in)."""
        name = dict(self.adventures).get(str(slot))
        return _place({"slot": slot, "name": name}, self)

    def card(self, name: Any, instead: str) -> str:
        """A card's name, or `instead` while the card is a stand-in."""
        return instead if not name or str(name) in self.stand_ins else str(name)

    def player(self, index: Any) -> str:
        if isinstance(index, int) and 0 <= index < len(self.players):
            return self.players[index]
        if isinstance(index, int):
            return f"Player {index + 1}"
        return "The active player"


NO_NAMES = Names()

_FACE_WORDS = {
    "inv1": "1 investigation",
    "inv2": "2 investigation",
    "inv3": "3 investigation",
    "inv4": "4 investigation",
    "lore": "lore",
    "peril": "peril",
    "terror": "terror",
    "wild": "wild",
}
_SYMBOL_WORDS = {"lore": ("lore", "lore"), "peril": ("peril", "perils"), "terror": ("terror", "terrors")}


def need_words(need: Any) -> str:
    """ "inv:4,lore:1" -> "4 investigation and 1 lore"."""
    parts = []
    for part in str(need).split(","):
        name, _, number = part.partition(":")
        if not number:
            continue
        n = int(number)
        if name == "inv":
            parts.append(f"{n} investigation")
        elif name in _SYMBOL_WORDS:
            one, many = _SYMBOL_WORDS[name]
            parts.append(f"{n} {one if n == 1 else many}")
    return listed(parts, "nothing")


def dice_words(dice: Any) -> str:
    """["inv2", "yellow:inv4", "lore"] -> "2 investigation, yellow 4 investigation, lore" (a green die is said as its
    face alone, "green:lore" too)."""
    out = []
    for die in dice or ():
        colour, sep, face = str(die).partition(":")
        if not sep:
            colour, face = "", colour
        word = _FACE_WORDS.get(face, face)
        out.append(f"{colour} {word}" if colour and colour[0] != "g" else word)
    return ", ".join(out) if out else "no dice"


def effect_words(effect: Mapping[str, Any] | None) -> str:
    """What an effect does: "1 Elder Sign, 1 clue" (its own text last)."""
    if not effect:
        return "nothing"
    parts = []
    for key, one in (
        ("elder_signs", "Elder Sign"),
        ("clues", "clue"),
        ("doom", "doom token"),
        ("monsters", "monster"),
        ("common_items", "Common Item"),
        ("unique_items", "Unique Item"),
        ("spells", "Spell"),
    ):
        n = effect.get(key)
        if n:
            parts.append(count(n, one) if n > 0 else f"{count(-n, one)} less")
    for key in ("sanity", "stamina"):
        n = effect.get(key)
        if n:
            parts.append(f"{'+' if n > 0 else '-'}{abs(n)} {key}")
    if effect.get("gate"):
        parts.append("a gate to an Other World")
    if effect.get("clock"):
        parts.append(f"the clock {effect['clock']} hours on")
    if effect.get("text"):
        parts.append(str(effect["text"]).rstrip("."))
    if parts and effect.get("who") in _WHO_WORDS:  # a Mythos card's half (packs.WHO)
        parts.append(_WHO_WORDS[effect["who"]])
    return ", ".join(parts) if parts else "nothing"


# whom a Mythos card's half falls on, after its effects (packs.WHO)
_WHO_WORDS = {"each": "on " + WHO["each"], "active": "on " + WHO["active"], "ask": "on whom the host says"}


def _sentence(text: str) -> str:
    text = text.strip()
    if text and text[-1] not in ".!?":
        text += "."
    return text[:1].upper() + text[1:]


def _place(event: Mapping[str, Any], names: Names = NO_NAMES) -> str:
    """Where it happens: the adventure's name, or its place on the table while its card is a stand-in."""
    slot = event.get("slot") or event.get("place") or event.get("to")
    if slot == "ancient-one":
        return names.ancient_one
    if slot == "entrance":
        return "the Entrance"
    return names.card(
        event.get("name"), f"the adventure in place {slot}" if slot not in (None, "") else "the adventure"
    )


def where_words(
    investigator: Mapping[str, Any], adventures: Sequence[Mapping[str, Any]], names: Names = NO_NAMES
) -> str:
    """Where an investigator stands, in the table's words: "at the Entrance", "at The Hedge Maze", "facing Azathoth",
    "devoured" (never a place's id)."""
    place = investigator.get("place")
    if investigator.get("devoured"):
        return "devoured"
    if place == "ancient-one":
        return "facing " + names.ancient_one
    if place == "entrance":
        return "at the Entrance"
    card = next((c for c in adventures if c.get("slot") == place), None)
    if card is None:
        return "not on an adventure"
    return "at " + _place({"slot": place, "name": card.get("name")}, names)


def _said_turn_ended(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = f"{who}'s turn ends"
    return text


def _said_turn_started(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = f"{who}'s turn" + (f": {inv}" if inv != who else "")
    return text


def _said_clock_advanced(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = f"the clock moves to {event.get('clock')}" + (
        " (a card moves it)" if event.get("why") in ("card", "task", "reward", "penalty", "terror") else ""
    )
    return text


def _said_midnight(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = "midnight strikes" + (f": {ao} attacks" if event.get("awake") else "")
    return text


def _said_at_midnight(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = f"at midnight, {names.card(event.get('name'), 'a card in play')}: {event.get('text')}"
    return text


def _said_mythos_drawn(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    if event.get("stand_in") or str(event.get("name")) in names.stand_ins:
        text = "a Mythos card comes up that is not filled in yet"
        return text

    immediate = effect_words(event.get("immediate"))
    text = f"Mythos card: {event.get('name')}" + (f"; now: {immediate}" if immediate != "nothing" else "")
    if event.get("lingering") and not str(event.get("lingering")).lower().startswith("placeholder"):
        text += f"; until the next one: {event.get('lingering')}"
    return text


def _said_mythos_reshuffled(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = "the Mythos cards are shuffled into a new deck"
    return text


def _said_die_locked(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    where = names.card(event.get("name"), "the Mythos card") if event.get("by") == "mythos" else _place(event, names)
    text = f"{a_or_an(event.get('colour'))} die is locked on {where}"
    taken = {"roll": "of the roll", "unrolled": "not rolled yet", "spell": "from the Spell card"}
    taken |= {"focus": "from the investigator marker", "assist": "from the investigator marker"}
    if event.get("from") in taken:  # taken out of the attempt at once (:399-403)
        die = f"the {dice_words([event['die']])} die" if event.get("die") else "a die"
        text += f": {die} {taken[str(event['from'])]}, out of the attempt"
    return text


# where a die a lock may take is (:401 "even if it was on a Spell card or Investigator marker"), after the die's words
LOCK_CHOICE_WHERE = {
    "roll": "of the roll",
    "spell": "on the Spell card",
    "focus": "held on the marker (focus)",
    "assist": "held on a marker (assist)",
}


def lock_choice_words(die: object, where: object) -> str:
    """One die the player may choose for a green lock (:401), as the page and the buttons say it: "the peril die on
    the Spell card", "the 3 investigation die of the roll"."""
    place = LOCK_CHOICE_WHERE.get(str(where), "")
    return f"the {dice_words([str(die)])} die" + (f" {place}" if place else "")


def _said_effect_text(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = str(event.get("text"))
    return text


def _said_clues_changed(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    if event.get("numbers_missing"):  # its card is not filled in yet: the change, not a made-up count
        change = int(event.get("change") or 0)
        return f"{inv} {'gains' if change > 0 else 'loses'} {count(abs(change), 'clue token')}"
    text = f"{inv} has {count(event.get('clues'), 'clue token')}"
    return text


ITEM_NAMES = (("common-items", "Common Item"), ("unique-items", "Unique Item"), ("spells", "Spell"))


def items_words(items: Mapping[str, Any] | None) -> str:
    """The item cards an investigator holds, as the view and the events give them: "1 Common Item, no Unique Item,
    2 Spells"; "items not counted" when the companion does not count them (the host tells them)."""
    if items is None:
        return "items not counted"
    return ", ".join(count(int(items.get(key) or 0), one) for key, one in ITEM_NAMES)


def _said_items_changed(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    return f"{inv} holds {items_words(event.get('items'))}"


def _said_investigator_changed(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    if event.get("numbers_missing"):  # its card is not filled in yet: no made-up number is told, only the change
        changes = [(k, event.get(f"{k}_change")) for k in ("sanity", "stamina")]
        said = ", ".join(f"{k} {'+' if n > 0 else ''}{n}" for k, n in changes if n)
        return f"{inv}: {said}" if said else f"{inv}'s sanity and stamina stay as they were"
    below = event.get("below") or ()  # :407 a loss that goes below 0 devours: the 0 shown is not a 0 played on
    stats = [f"{k} below 0" if k in below else f"{k} {event.get(k)}" for k in ("sanity", "stamina")]
    return f"{inv}: {', '.join(stats)}"


def _said_maximum_lowered(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = f"{inv} loses 1 maximum {event.get('stat')}"
    return text


def _said_ancient_one_entered(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    return (
        f"the Ancient One's card as printed: a doom track of {event.get('doom_max')}, "
        f"{event.get('elder_signs_needed')} Elder Signs to win"
    )


def _said_investigator_entered(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    return (
        f"{names.player(event.get('player'))}'s investigator card as printed: sanity {event.get('sanity')} of "
        f"{event.get('max_sanity')}, stamina {event.get('stamina')} of {event.get('max_stamina')}, "
        f"{event.get('clues')} clue{'' if event.get('clues') == 1 else 's'}"
    )


def fell_words(event: Mapping[str, Any], inv: str) -> str:
    """Why an investigator was devoured (:407 "If my Sanity, Stamina, or both ... go below 0"): what fell below 0,
    from what it was, by how much ("Anna's sanity fell below 0 (she had 0 and lost 2)"); the value shown stays 0."""
    fell = [f for f in event.get("fell") or () if isinstance(f, Mapping)]
    if not fell:  # a game stored before the event told it, or numbers entered that were below 0 already
        return f"{inv}'s sanity or stamina went below 0"
    stats = " and ".join(str(f.get("stat")) for f in fell)
    how = "; ".join(
        f"{str(f.get('stat')) + ' ' if len(fell) > 1 else ''}had {f.get('was')} and lost {-int(f.get('change') or 0)}"
        for f in fell
    )
    return f"{inv}'s {stats} fell below 0 ({how})"


def _said_investigator_devoured(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    return f"{fell_words(event, inv)}: {inv} is devoured"


def _said_investigator_joins(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    joined = names.card(event.get("investigator"), "a new investigator")
    text = f"{joined} joins the investigation for {who}"
    return text


def _said_player_out(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = f"{who} is out of the game" + (
        ": no investigator is left" if event.get("why") == "no investigator left" else ""
    )
    return text


def _said_elder_signs(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = f"Elder Signs: {out_of(event.get('elder_signs'), event.get('needed'))}"
    return text


def _said_monster_appears(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = "a monster appears" if event.get("count") == 1 else f"{event.get('count')} monsters appear"
    text += ": place it on a monster task"
    return text


def _said_monster_placed(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = f"a monster joins {_place(event, names)}: {need_words(event.get('need'))}"
    return text


def _said_doom(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    change = event.get("change", 0)
    text = (
        f"a doom token is added: {out_of(event.get('doom'), event.get('doom_max'))}"
        if change > 0
        else f"doom is now {out_of(event.get('doom'), event.get('doom_max'))}"
    )
    return text


def _said_ancient_one_awakens(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = f"{ao} awakens! Every investigator faces it"
    return text


def _said_ancient_one_attack(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = f"{ao} attacks: {event.get('text')}"
    return text


def _said_attack_asked(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    players = [names.player(p) for p in event.get("players") or []]
    text = (
        "each investigator chooses to lower their maximum sanity or their maximum stamina by 1: "
        f"{listed(players)} to choose"
    )
    return text


def _said_moved(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = f"{inv} goes to " + ("the Entrance" if event.get("to") == "entrance" else _place(event, names))
    return text


def _said_attempt_started(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = f"{inv} rolls at {_place(event, names)}"
    return text


def _said_die_added(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = f"the {event.get('colour')} die joins the roll"
    return text


def _said_die_lost(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = f"{a_or_an(event.get('colour'))} die is set aside"
    return text


def _said_die_set_aside(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    return f"{who} chooses to set {a_or_an(event.get('colour'))} die aside"


def _said_die_to_hold(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    face = _FACE_WORDS.get(str(event.get("face")), str(event.get("face")))
    colour = "" if event.get("colour") in (None, "green") else f"{event.get('colour')} "
    return f"{who} chooses to hold the {colour}{face} die on their marker (focus) with the next roll"


def _said_die_to_spell(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    face = _FACE_WORDS.get(str(event.get("face")), str(event.get("face")))
    colour = "" if event.get("colour") in (None, "green") else f"{event.get('colour')} "
    return f"{who} chooses to put the {colour}{face} die on a Spell card with the next roll"


def _said_die_held(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    how = event.get("how")
    face = _FACE_WORDS.get(str(event.get("face")), str(event.get("face")))
    if how == "spell":
        text = f"{a_or_an(face)} die goes on the spell"
    elif how == "assist":
        text = f"{a_or_an(face)} die goes on {who}'s investigator (assist)"
    else:
        text = f"{who} focuses: {a_or_an(face)} die is held"
    return text


def _said_clue_spent(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = f"{inv} spends a clue and rolls again ({count(event.get('clues'), 'clue')} left)"
    return text


def _said_rolled(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = f"{who} rolls {dice_words(event.get('dice'))}"
    if event.get("held"):
        text += f", with {dice_words(event.get('held'))} held"
    if event.get("choose"):  # :177, :189: the dice meet more than one task, and one roll completes one
        text += f": its dice meet {_tasks_words(event['choose'])}, and {who} chooses the one it completes"
    return text


def _tasks_words(tasks: Sequence[Any]) -> str:
    """Tasks by number: "task 2", "tasks 1 and 3", "tasks 1, 2 and 3"."""
    return ("task " if len(tasks) == 1 else "tasks ") + listed([str(t) for t in tasks])


def _said_task_chosen(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    task = event.get("task")
    return f"{who} chooses task {task}" if task is not None else f"{who} chooses to complete no task with the roll"


def _said_task_completed(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = f"task {event.get('task')} of {_place(event, names)} is done ({need_words(event.get('need'))})"
    return text


def _said_combat_task_completed(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = f"a blow against {ao}: a doom token comes off"
    return text


def _said_roll_failed(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = "the roll completes no task"
    return text


def _said_terror(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = "terror!"
    if event.get("effect") is not None:
        text += f" {_place(event, names)}'s terror effect: {effect_words(event.get('effect'))}"
    if event.get("mythos"):
        text += f"; the Mythos card's: {effect_words(event.get('mythos'))}"
    return text


def _said_adventure_completed(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = f"{_place(event, names)} is completed"
    if event.get("reward") is not None:
        text += f": {effect_words(event.get('reward'))}"
    return text


def _said_adventure_failed(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    why = {
        "given up": "given up",
        "the turn ended": "the turn ended",
        "no dice left": "no dice are left",
        "the dice left cannot complete a task": "the dice left cannot complete it",
    }.get(str(event.get("why")), "")
    text = f"{_place(event, names)} fails" + (f" ({why})" if why else "")
    if event.get("penalty") is not None:
        text += f": {effect_words(event.get('penalty'))}"
    return text


def _said_attack_ended(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = f"the attack on {ao} ends"
    return text


def _said_attempt_ended(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    undone = list(event.get("undone") or ())
    tasks = f"task {undone[0]}" if len(undone) == 1 else f"tasks {listed([str(n) for n in undone])}" if undone else ""
    if event.get("why") == "awakened":  # no marker comes back to the card (:431)
        text = f"the attempt at {_place(event, names)} ends with the awakening"
        return text + (f": the dice come off {tasks}" if tasks else "")
    text = f"the attempt at {_place(event, names)} ends with the devouring"
    return text + (f": the dice come off {tasks}, to be completed again" if tasks else "")


def _said_adventure_drawn(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = (
        f"a gate opens: {_place(event, names)}"
        if event.get("other_world")
        else f"a new adventure: {_place(event, names)}"
    )
    return text


def _said_adventure_deck_empty(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = "no adventure is left to deal"
    return text


def _said_other_world_deck_empty(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = "no Other World is left to open"
    return text


def _said_tasks_set(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    if event.get("slot") == "ancient-one":
        text = f"the combat task of {ao}: " + "; ".join(need_words(t) for t in event.get("tasks", ()))
        return text

    costs = list(event.get("costs") or ())
    tasks = "; ".join(
        need_words(t) + cost_words(costs[i] if i < len(costs) else {}) for i, t in enumerate(event.get("tasks", ()))
    )
    text = f"the tasks of {_place(event, names)}: {tasks}" + (" (in order)" if event.get("ordered") else "")
    return text


def cost_words(cost: Mapping[str, Any]) -> str:
    """What doing a task costs, after its symbols (:185): " (sanity -1, the clock 3 hours on)", or "" for none."""
    parts = [f"{key} {int(cost[key]):+d}" for key in ("sanity", "stamina") if cost.get(key)]
    if cost.get("clock"):
        parts.append(f"the clock {cost['clock']} hours on")
    return f" ({', '.join(parts)})" if parts else ""


def _said_lost_and_found(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    face = _FACE_WORDS.get(str(event.get("face")), str(event.get("face")))
    return f"{who} searches the Lost & Found: the green die shows {face}"


def _said_card_asked(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    if event.get("devoured"):  # engine.DEVOURED_REWARD: the rest of a reward whose investigator was devoured
        what = "the Lost & Found" if event.get("kind") == "entrance" else f"the reward of {_asked_card(event, names)}"
        return (
            f"{who}'s investigator was devoured, so what more {what} gives an investigator falls on no one: the "
            "devoured's clues and items go back, and the new one starts with full sanity and stamina (:409, :413). "
            "What it gives the table still counts: did it give Elder Signs, a doom token, a monster or a gate, or "
            "nothing more?"
        )
    if event.get("kind") == "entrance":  # :293 the chart is the Entrance sheet's, not in the companion
        return (
            f"the Lost & Found chart is on the Entrance sheet, not in the companion: what did it give {who} for the "
            "green die's result?"
        )
    if event.get("part") == "assisted":  # :373, the rules text silent whether a devouring fails the card
        return (
            f"the attempt at {_asked_card(event, names)} ended with the devouring, and the rules text does not say "
            f"whether that fails the card: did {who}, who assisted, lose 1 sanity or 1 stamina (:373)?"
        )
    if event.get("part") == "monster_won":  # :395, the rules text silent whether a devouring fails the card
        return (
            f"the attempt at {_asked_card(event, names)} ended with the devouring, and the rules text does not say "
            "whether that fails the card: did the monster marker whose task was completed come off the card (:395; "
            "the devoured's markers go back to the cup, :409), or does it stay with its task to do again?"
        )
    if event.get("part") == "devoured_rest":  # :407, :413 (engine.DEVOURED_REST), the text silent on the table's part
        rest, cards = _rest_words(event, names)
        return (
            f"what was still to be resolved in the devoured investigator's turn ({rest}) falls on no investigator: "
            "theirs is in the box, and the new one starts with full sanity and stamina and plays from the next turn "
            f"(:407, :413). The rules text does not say whether {'their' if cards > 1 else 'its'} doom tokens, "
            f"monsters or clock still happen: did {'the cards' if cards > 1 else 'the card'} add any, or nothing?"
        )
    if event.get("whom"):  # engine.Question.whom: a filled-in Mythos card's half that leaves whom to the table
        gives = effect_words({kind.replace("-", "_"): n for kind, n in event["whom"]})
        return (
            f"{_asked_card(event, names)} gave {gives}{_PART_WORDS.get(str(event.get('part')), '')}, and the card "
            "leaves to the table whom: did that go to every investigator, or to which one?"
        )
    text = (
        f"{_asked_card(event, names)} is not filled in yet, so the companion plays nothing of it: what did "
        f"the real card do{_PART_WORDS.get(str(event.get('part')), '')}?"
    )
    return text + whose_words(event, names)


# whose a card question's sanity or stamina is, when it fell on one investigator who is not always the one whose turn it
# is now: :219 "I have to face the penalties" (a turn ended with its attempt failed asks the penalty under the next
# turn), :202 "If I fail to complete a task and any of the dice I rolled result in terror, I must face the consequences"
# (the adventure's terror and the Mythos card's; its rows say no name, as a Mythos card's rows do, "Sanity, Ada")
_WHOSE = {"penalty": "who failed the card", "terror": "whose roll showed the terror"}


def whose_words(event: Mapping[str, Any], names: Names = NO_NAMES) -> str:
    """ " Whatever sanity or stamina it costs is Ben's, who failed the card." after a card question (the host's, and
    what a player's phone says the table waits for) whose costs fall on one investigator; "" for any other."""
    why = _WHOSE.get(str(event.get("part")))
    if why is None or event.get("player") is None:
        return ""
    return f" Whatever sanity or stamina it costs is {names.player(event.get('player'))}'s, {why}."


def table_waits_words(event: Mapping[str, Any], names: Names, current: Any) -> str:
    """What a player's phone says while the table waits for the host to tell a card question (the host's phone asks
    it, card_asked): what the host tells, whose it is, and what goes on after it (the rolls after a terror, :202-211;
    else the turn of `current`, the player whose turn it is: after a penalty or a Mythos card asked as the turn before
    ended, :219, :323). One sentence for every card question; "" for the Ancient One's attack (asked of each
    investigator on its own)."""
    if event.get("kind") == "attack":
        return ""
    card = _asked_card(event, names)
    if event.get("kind") == "entrance":
        what = f"what the Lost & Found chart gave {names.player(event.get('player'))}"
    elif event.get("whom"):
        what = f"whom what {card} gave went to"
    else:
        what = f"what {card} did{_PART_WORDS.get(str(event.get('part')), '')}"
    after = (
        "The rolls go on after it."
        if event.get("part") == "terror"
        else f"{names.player(current)}'s turn goes on after it."
    )
    return _sentence(f"the table waits for the host to tell the companion {what}, from the real card") + (
        whose_words(event, names) + " " + after
    )


# what of an adventure a devoured investigator's turn still had to resolve (engine.DEVOURED_WITHDRAWN)
_REST_PARTS = {"terror": "terror", "penalty": "penalty", "task": "task's costs"}


def _rest_words(event: Mapping[str, Any], names: Names) -> tuple[str, int]:
    """What a devoured_rest question stands for, each card named once ("the terror and penalty of the adventure in
    place 1 and the Mythos card's terror"), and how many cards that is."""
    rest = [str(part).partition(":") for part in event.get("rest") or ()]
    adventure = [_REST_PARTS.get(part, part) for kind, _, part in rest if kind == "adventure"]
    words = [f"the {listed(adventure)} of {_place(event, names)}"] if adventure else []
    words += ["the Mythos card's terror"] if any(kind == "mythos" for kind, _, _ in rest) else []
    return (listed(words) if words else "what its cards still had to do"), max(1, len(words))


def _said_card_effect(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = f"{_asked_card(event, names)}: {_told_words(event)}"
    return text


def _said_card_told(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = f"{_asked_card(event, names)}: that was all"
    return text


def _said_game_won(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = f"the investigators win: {event.get('reason')}"
    return text


def _said_game_lost(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = f"the investigators lose: {event.get('reason')}"
    return text


def _said_game_started(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    return game_starts(names.players, event.get("players"), f" against {ao}") + (
        f" {names.drawn}" if names.drawn else ""
    )


def drawn_words(name: str, stand_in: bool, names_a_card: bool) -> str:
    """The Ancient One the companion drew at random at setup (:81 "You can either pick one randomly"), told where a
    chosen one is named (the Game tab, the setup checklist, the log's first line, the terminal): "" for a filled-in
    card (named as it is); a card not filled in yet by the name the rulebook gives it, or plainly a stand-in of the
    box, whose name is the companion's and names no card of the deck: the table draws one of its own instead. Either
    way the host copies the numbers printed on the card on the table (Game.numbers_first)."""
    if not stand_in:
        return ""
    if names_a_card:
        return f"The companion drew {name} at random; its card is not filled in yet in your box."
    return (
        f"The companion drew {name} at random: {stand_in_no_card(ANCIENT_KIND)}, so draw one of "
        f"your own {ANCIENT_KIND} cards at random and play that one."
    )


def _said_stored_history_ends(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    return (
        "this game was stored by an older companion: what was played before this plays as it was played then, "
        "and from here on it plays as the companion plays now"
    )


def _said_questions_withdrawn(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    if event.get("over"):  # told once the turn had ended: its clock was advanced already
        return f"nothing more of the cards of {who}'s last turn falls on an investigator (:407, :413)"
    return f"{who}'s turn still ends with the clock (:413); nothing more of its cards falls on an investigator"


def _said_other(event: Mapping[str, Any], names: Names, kind: str, who: str, inv: str, ao: str) -> str:
    text = "something happens on the table"
    return text


_SAIDS: dict[str, Callable[[Mapping[str, Any], Names, str, str, str, str], str]] = {
    "game_started": _said_game_started,
    "stored_history_ends": _said_stored_history_ends,
    "turn_ended": _said_turn_ended,
    "turn_started": _said_turn_started,
    "clock_advanced": _said_clock_advanced,
    "midnight": _said_midnight,
    "at_midnight": _said_at_midnight,
    "mythos_drawn": _said_mythos_drawn,
    "mythos_reshuffled": _said_mythos_reshuffled,
    "die_locked": _said_die_locked,
    "effect_text": _said_effect_text,
    "clues_changed": _said_clues_changed,
    "items_changed": _said_items_changed,
    "investigator_changed": _said_investigator_changed,
    "maximum_lowered": _said_maximum_lowered,
    "investigator_entered": _said_investigator_entered,
    "ancient_one_entered": _said_ancient_one_entered,
    "investigator_devoured": _said_investigator_devoured,
    "investigator_joins": _said_investigator_joins,
    "player_out": _said_player_out,
    "elder_signs": _said_elder_signs,
    "monster_appears": _said_monster_appears,
    "monster_placed": _said_monster_placed,
    "doom": _said_doom,
    "ancient_one_awakens": _said_ancient_one_awakens,
    "ancient_one_attack": _said_ancient_one_attack,
    "attack_asked": _said_attack_asked,
    "moved": _said_moved,
    "attempt_started": _said_attempt_started,
    "die_added": _said_die_added,
    "die_lost": _said_die_lost,
    "die_set_aside": _said_die_set_aside,
    "die_to_hold": _said_die_to_hold,
    "die_to_spell": _said_die_to_spell,
    "die_held": _said_die_held,
    "clue_spent": _said_clue_spent,
    "rolled": _said_rolled,
    "task_chosen": _said_task_chosen,
    "task_completed": _said_task_completed,
    "combat_task_completed": _said_combat_task_completed,
    "roll_failed": _said_roll_failed,
    "terror": _said_terror,
    "adventure_completed": _said_adventure_completed,
    "adventure_failed": _said_adventure_failed,
    "attack_ended": _said_attack_ended,
    "attempt_ended": _said_attempt_ended,
    "adventure_drawn": _said_adventure_drawn,
    "adventure_deck_empty": _said_adventure_deck_empty,
    "other_world_deck_empty": _said_other_world_deck_empty,
    "tasks_set": _said_tasks_set,
    "lost_and_found": _said_lost_and_found,
    "card_asked": _said_card_asked,
    "questions_withdrawn": _said_questions_withdrawn,
    "card_effect": _said_card_effect,
    "card_told": _said_card_told,
    "game_won": _said_game_won,
    "game_lost": _said_game_lost,
}


def describe_event(event: Mapping[str, Any], names: Names = NO_NAMES) -> str:
    """One event in plain words."""
    kind = str(event.get("type"))
    who = names.player(event.get("player"))
    inv = names.card(event.get("investigator"), who if event.get("player") is not None else "the investigator")
    ao = names.ancient_one
    text = _SAIDS.get(kind, _said_other)(event, names, kind, who, inv, ao)
    # A card's words the owner has not filled in yet are never said as if they were the card's
    text = _STAND_IN_WORDS.sub("not filled in yet: read it from the card", text)
    return _sentence(text)


_STAND_IN_WORDS = re.compile(r"[Pp]laceholder:[^.;]*\.?")

# the half of a card not filled in yet that the host is asked about (the engine's Question.part)
_PART_WORDS = {
    "immediate": " when it was drawn",
    "at_midnight": " at midnight",
    "terror": " on the terror",
    "reward": " as its reward",
    "penalty": " as its penalty",
    "task": " for the task just done (sanity, stamina or time it cost)",
}
_TOLD = {
    "doom": ("a doom token", "doom tokens"),
    "monster": ("a monster appears", "monsters appear"),
    "gate": ("a gate opens", "gates open"),
    "clues": ("clue", "clues"),
    "elder-signs": ("Elder Sign", "Elder Signs"),
    "common-items": ("Common Item drawn", "Common Items drawn"),
    "unique-items": ("Unique Item drawn", "Unique Items drawn"),
    "spells": ("Spell drawn", "Spells drawn"),
    "allies": ("Ally drawn", "Allies drawn"),
}


def _asked_card(event: Mapping[str, Any], names: Names) -> str:
    """The card a question is about, by its place on the table while it is a stand-in."""
    if event.get("kind") == "mythos":
        return names.card(event.get("name"), "the Mythos card")
    if event.get("kind") == "entrance":
        return "the Lost & Found"
    return _place(event, names)


def _told_words(event: Mapping[str, Any]) -> str:
    """What the host said a card not filled in yet did: "sanity -1", "a doom token", "a green die is locked"."""
    effect, n = str(event.get("effect")), int(event.get("n") or 0)
    if effect in ("sanity", "stamina"):
        return f"{effect} {'+' if n > 0 else '-'}{abs(n)}" + (
            " for every investigator" if event.get("player") is None else ""
        )
    if effect == "clock":
        return f"the clock moves {n} hours on"
    if effect == "monster-won":
        return "the monster marker comes off the card, back to the cup"
    one, many = _TOLD.get(effect, (effect, effect))
    if effect in ("monster", "gate"):
        return one if n == 1 else f"{n} {many}"
    if effect == "doom" and n < 0:
        return f"{-n} doom token{'' if n == -1 else 's'} off"
    return one if effect == "doom" and n == 1 else f"{n} {one if abs(n) == 1 else many}"


def describe_events(events: Sequence[Mapping[str, Any]], names: Names = NO_NAMES) -> list[str]:
    return [describe_event(e, names) for e in events]


_ANNOUNCE = {
    "midnight": ("midnight", "Midnight"),
    "mythos_drawn": ("mythos", "Mythos"),
    "terror": ("terror", "Terror"),
    "ancient_one_awakens": ("awakening", "The Ancient One awakens"),
    "ancient_one_attack": ("attack", "The Ancient One attacks"),
    # the title names the fate; the text says why (sentences.fell_words), so the pair does not say "devoured" twice
    "investigator_devoured": ("devoured", "Devoured"),
    "monster_appears": ("monster", "A monster appears"),
    "adventure_completed": ("completed", "Adventure completed"),
    "game_won": ("won", "Victory"),
    "game_lost": ("lost", "Defeat"),
}


# The announcements that take the whole screen until OK is tapped; every other one is a toast that goes by itself.
_SCREEN = frozenset({"midnight", "ancient_one_awakens", "game_won", "game_lost"})


def announcement(event: Mapping[str, Any], names: Names = NO_NAMES) -> dict[str, str] | None:
    """What every phone is told (and the voice says) at the moments that matter, with its weight: "screen" (the
    whole screen, until OK) or "toast" (two lines that go by themselves; the Log has it whole). None for the rest."""
    kind = str(event.get("type"))
    if kind not in _ANNOUNCE:
        return None
    key, title = _ANNOUNCE[kind]
    # the title already says who attacks: the text is the attack alone
    if kind == "ancient_one_attack":
        text = _sentence(str(event.get("text")))
    elif kind == "investigator_devoured":  # the title says "Devoured": the text, why (not "is devoured" again)
        who = names.player(event.get("player"))
        text = _sentence(fell_words(event, names.card(event.get("investigator"), who)))
    else:
        text = describe_event(event, names)
    return {"kind": key, "title": title, "text": text, "weight": "screen" if kind in _SCREEN else "toast"}


# the player's choice to stop trying, in the rules text's words: "I can either keep trying, using one of my dice, or I
# can admit defeat" (elder-sign-rules.txt:447; for an adventure :209 "I can choose not to resolve the Adventure
# card"; the text's "give up" is of trophies, :301-303): the button, the refusals and the odds say it alike
ADMIT_DEFEAT = "admit defeat"
_ACTION_LABELS = {
    "end-turn": "End the turn",
    "give-up": ADMIT_DEFEAT.capitalize(),
    "first-aid": "First aid",
    "lost-found": "Search the Lost & Found",
    "roll": "Roll the dice",
    "clue": "Spend a clue and roll again",
    "adjust": "Change sanity, stamina or clues",
    "doom": "Change the doom track",
    "elder-signs": "Add Elder Signs",
    "clock": "Move the clock",
}
# a tap of what a card not filled in yet did: the kind; the page's stepper asks the amount and sends it once (n=)
_CARD_DID_LABELS = {
    "doom": "Doom tokens",
    "monster": "Monsters",
    "gate": "Gates",
    "clues": "Clues",
    "elder-signs": "Elder Signs",
    "common-items": "Common Items",
    "unique-items": "Unique Items",
    "spells": "Spells",
    "allies": "Allies",
    "clock": "Clock (hours)",
    "monster-won": "The monster marker came off the card",
    "sanity": "Sanity",
    "stamina": "Stamina",
    "nothing": "Nothing (more): that was all",
}


def action_label(action: Mapping[str, Any], names: Names = NO_NAMES) -> str:
    """The words of a button for one of ``game.legal_actions()`` (given as its ``to_dict()``)."""
    name = str(action.get("name"))
    args = action.get("args") or {}
    if name == "move":
        return "Go to the Entrance" if args.get("to") == "entrance" else f"Go to {names.adventure(args.get('to'))}"
    if name == "add-die":  # :173 a Common Item adds the yellow die, :175 a Unique Item the red one, :329 spent
        item = "a Unique Item" if args.get("colour") == "red" else "a Common Item"
        return f"Spend {item}: add the {args.get('colour')} die"
    if name == "items":
        return ITEMS_LABEL
    if name == "monster":
        return f"Place a monster on {names.adventure(args.get('adventure'))}"
    if name == "set-tasks" and args.get("adventure") == "ancient-one":
        return "Enter the Ancient One's combat task"
    if name == "set-tasks":
        return f"Enter the tasks of {names.adventure(args.get('adventure'))}"
    if name == "lower":
        return f"Maximum {args.get('stat')} -1"
    if name == "set-ancient-one":
        return "Enter the numbers on the Ancient One's card"
    if name == "set-investigator":
        return f"Enter the numbers on {names.player(int(args.get('player') or 1) - 1)}'s investigator card"
    if name == "focus":
        die = str(args.get("die"))
        return f"Hold the {dice_words([die])} die (focus)"
    if name == "spell":
        die = str(args.get("die"))
        return f"Put the {dice_words([die])} die on a Spell card"
    if name == "set-aside":
        return f"Set {a_or_an(args.get('colour'))} die aside"
    if name == "complete":
        task = str(args.get("task"))
        return "None: the roll completes no task" if task == "none" else f"Complete task {task}"
    if name == "card-did":
        effect = str(args.get("effect"))
        if effect == "lock" and args.get("die"):  # :401 the player's choice of green die, where it is
            return f"A {args.get('colour')} die locked: {lock_choice_words(args.get('die'), args.get('from'))}"
        if effect == "lock":
            return f"A {args.get('colour')} die locked"
        if "effect" not in args:  # any amount the card did: each of its rows sends it with "Tell" (core.js amountRow)
            return "Tell"
        label = _CARD_DID_LABELS.get(effect, "Do it")
        whom = str(args.get("player") or "")
        if whom == "all":
            return f"{label}, everyone"
        return f"{label}, {names.player(int(whom) - 1)}" if whom.isdigit() else label
    return _ACTION_LABELS.get(name, "Do it")


def command_sentence(command: Any, names: Names = NO_NAMES, events: Sequence[Mapping[str, Any]] = ()) -> str:
    """A history entry in words: the events the command caused, or what it was."""
    if events:
        return " ".join(describe_events(events, names))
    name = getattr(command, "name", str(command).split(" ", 1)[0])
    return _sentence(_ACTION_LABELS.get(name, "a correction on the table"))


# the fields of the host's "Count the items an investigator holds" sheet (the items command's arguments), as the sheet
# labels them (published as item_fields) and as a refusal names them
ITEM_FIELDS: Mapping[str, str] = {"common": "Common Items held", "unique": "Unique Items held", "spells": "Spells held"}

# the fields of the host's sheet of the numbers on an Ancient One card not filled in yet (set-ancient-one's arguments),
# as the sheet labels them (published as ancient_fields) and as a refusal names them
ANCIENT_FIELDS: Mapping[str, str] = {"doom": "Doom track: its spaces", "elder_signs": "Elder Signs to win (its limit)"}

# the host's button that counts the item cards an investigator holds (the items command), under "Card effects and
# corrections": where a refusal sends the host to count one
ITEMS_LABEL = "Count the items an investigator holds"

# what to do when the dice sent do not fit the pool (the engine's FACES_AGAIN, on the page): the dice sheet lists the
# pool's dice, so the page's dice are stale
FACES_AGAIN_PAGE = "Close the sheet and open it again: it lists the pool's dice, one face to tap for each."

_PAGE_WORDS: tuple[tuple[str, str], ...] = (
    *(
        pair
        for arg, label in ITEM_FIELDS.items()
        for pair in (
            (rf"^{arg}='' must be", f"{label}: give"),
            (rf"^{arg}=(\S+)", rf"{label}: \1"),
        )
    ),
    *(
        pair
        for arg, label in ANCIENT_FIELDS.items()
        for pair in (
            (rf"\b{arg}= is empty", f"{label} is empty"),
            (rf"\b{arg}=('[^']*'|-?\d+) is", rf"{label}: \1 is"),
        )
    ),
    (r"\s*\(set-tasks [^)]*\)", ""),
    (r"\s*\(items player=[^)]*\)", f" under Card effects and corrections ({ITEMS_LABEL})"),
    (r"\s*\(set-investigator player=[^)]*\)", ""),
    (r"\s*\(lower [^)]*\)", ""),
    (r"\s*\(complete task=N\)", ""),
    (r"\s*\(:\d+(?:[-,]\s*:?\d+)*(?:, :\d+(?:-\d+)?)*\)", ""),
    (r"\binv:(\d+)", r"\1 investigation"),
    (r"\b(lore|peril|terror):(\d+)", r"\2 \1"),
    (r",?\s+:\d+(?:-\d+)?(?=[\s,)])", ""),
    (r"\bend-turn\b", "End the turn"),
    (
        r"add ordered=true when it shows the arrow on its left side, else ordered=false",
        "say whether it shows the arrow on its left side",
    ),
    (r"\bgive up\b", ADMIT_DEFEAT),
    (r"\bgive-up\b", ADMIT_DEFEAT),
    (r"\blose= and hold=", "Setting a die aside and holding one"),
    (r"\bhold=(\S+)", r"holding \1"),
    (r"\bspell=(\S+)", r"the spell's \1"),
    (r"\bon= says whose marker gets the die of hold=; give hold= too", "say which die to hold"),
    (r"\btask=(\d+)", r"task \1"),
    (r"leave task= out to let the roll fail", "let the roll fail instead"),
    # the pool's count refused (read_faces): the engine's what-to-do, for the terminal, said the page's way
    (re.escape(FACES_AGAIN), FACES_AGAIN_PAGE),
    (r"\bfaces=", "the dice "),
    (r"\battack=", "the attack's losses "),
    (r"\b(mythos|adventure_card|other_world)=ID\b", "the card"),
    (r"\b([a-z_]+)=(?=[,\s.)]|$)", r"\1"),
    (r"\b([a-z_]+)=(\S+)", r"\1 \2"),
    (r"\b([a-z_]+)=", r"\1 "),
    (r"yellow:(\w+)", r"yellow \1"),
    (r"red:(\w+)", r"red \1"),
)


def for_players(message: Any) -> str:
    """A refusal from the engine, in the page's words: no command names, no ``key=value``, no line numbers."""
    return _sentence(page_words(message, _PAGE_WORDS))


def end_summary(view: Mapping[str, Any], names: Names = NO_NAMES) -> dict[str, Any]:
    """The end card: who won, why, and the counts."""
    won = view.get("outcome") == "won"
    # a stand-in Ancient One whose numbers the host did not enter: the counts alone (the view tells no limit)
    signs = limited(view, "elder_signs", "elder_signs_needed")
    doom = limited(view, "doom", "doom_max")
    return {
        "title": "The investigators win" if won else "The investigators lose",
        "text": _sentence(str(view.get("outcome_reason") or "")),
        "lines": [
            f"Elder Signs: {signs}.",
            f"Doom: {doom}.",
            f"Midnights: {view.get('midnights')}; turns: {view.get('turn')}.",
        ],
    }


def out_of(count: Any, limit: Any) -> str:
    """A count and its limit ("2 of 12"), or the count alone where no limit is known (None: a stand-in Ancient
    One's, not entered yet, is never made up)."""
    return f"{count}" if limit is None else f"{count} of {limit}"


def limited(view: Mapping[str, Any], count: str, limit: str) -> str:
    """A count of the published state with its limit (doom of doom_max, Elder Signs of elder_signs_needed), the
    count alone where the view tells no limit (a stand-in Ancient One's numbers not entered: Game.doom_max)."""
    return out_of(view.get(count), view.get(limit))


def percent(p: float) -> str:
    """0.2174 -> "21.7 %" (as the page writes every chance)."""
    if 0.999 < p < 1:
        return "over 99.9 %"
    if 0 < p < 0.0005:
        return "under 0.1 %"
    return f"{round(p * 1000) / 10:.1f} %"


def spell_dice_words(dice: Sequence[str]) -> str | None:
    """Before the roll, the dice left on Spell cards from an earlier roll or turn (:345-349, "yellow:lore" or "lore"):
    "A lore die is on a Spell card: it is not rolled, and counts for the next roll's tasks as it stands." None when
    there are none."""
    if not dice:
        return None
    said = [a_or_an(dice_words([die])) + " die" for die in dice]
    one = len(dice) == 1
    return (
        f"{listed(said).capitalize()} {'is on a Spell card' if one else 'are on Spell cards'}: {'it is' if one else 'they are'} not "
        f"rolled, and {'counts' if one else 'count'} for the next roll's tasks as {'it stands' if one else 'they stand'}."
    )


def odds_words(odds: Mapping[str, Any]) -> list[str]:
    """The chances before (and between) the rolls, said as what the host's buttons will do: the first line what
    "Roll for me" does (every roll thrown, no clue spent, no die held but those held already), the next the best play with the clues and
    the focus, then each task alone. `odds` is the published "card_odds"."""
    dice = count(odds.get("dice"), "die", "dice")
    what = f"for a blow against {odds.get('name')}" if odds.get("combat") else f"to complete {odds.get('name')}"
    lines: list[str] = []
    who, penalty = odds.get("who") or "The active player", f"{ADMIT_DEFEAT} to face the card's penalty."
    if odds.get(
        "unpaid"
    ):  # :189 "I can't finish a task if the requirements will make my Sanity or Stamina lower than 0"
        return [
            f"{unpaid_words(who, odds['unpaid'])}, so no roll can complete {odds.get('name')}. {penalty.capitalize()}"
        ]
    if odds.get("hopeless"):  # :217 "If I can't complete any of the remaining tasks ... I automatically fail"
        clue, again = odds.get("clue"), count(odds.get("clue_dice"), "die", "dice")
        if clue:  # :357-361: a clue re-rolls the failed roll's dice, the one set aside too
            return [
                f"No roll of the {dice} left can complete {odds.get('name')}, but {who} still holds a clue: spent, it "
                f"rolls the last roll's {again} again, {percent(clue)} to complete it with the best play. Else "
                f"{penalty}"
            ]
        nor = "" if clue is None else f", nor can a clue rolling the last roll's {again} again"
        return [
            f"No roll of the {dice} left can complete {odds.get('name')}{nor}: the attempt fails. {penalty.capitalize()}"
        ]
    plain, best = odds.get("roll_for_me"), odds.get("probability")
    if plain is not None:
        held = odds.get("held") or []
        kept = f" and the {dice_words(held)} held" if held else ""
        lines.append(
            f'"Roll for me" with {dice}{kept}, no clue spent and no {"other " if held else ""}die held: '
            f"{percent(plain)} {what}."
        )
    extras = [
        x
        for x in (
            f"spending up to {count(odds.get('clues'), 'clue')}" if odds.get("clues") else "",
            # a free place only: "holds" counts the places the held dice take too (a full marker cannot focus, :365)
            "holding a die (focus) after a roll that fails" if holds_free(odds) else "",
        )
        if x
    ]
    if best is not None and extras and best != plain:
        lines.append(f"With the best play, {' and '.join(extras)}: {percent(best)}.")
    tasks = odds.get("tasks") or []
    if tasks and (plain is None or len(tasks) > 1):
        lines.append(
            "Each task alone — "
            + " · ".join(f"{need_words(t['need'])}: {percent(t['probability'])}" for t in tasks)
            + "."
        )
    return lines


def holds_free(odds: Mapping[str, Any]) -> bool:
    """Whether a new die can still be held (focus, :365-371) in the odds' attempt: "holds" counts every place, the
    ones the dice held already take included."""
    return int(odds.get("holds") or 0) > len(odds.get("held") or [])


def unpaid_words(who: str, unpaid: Mapping[str, Any]) -> str:
    """What `who` cannot pay (engine.Unpaid as a dict, :189): "Ana cannot pay task 3's 3 sanity: Ana has 2", or
    what the tasks left cost together."""
    what, cost, has, task = unpaid["what"], unpaid["cost"], unpaid["has"], unpaid.get("task")
    if cost is None:
        return f"{who} cannot pay the costs of the tasks left in any order the card allows them"
    owed = f"task {task}'s {cost} {what}" if task else f"the {cost} {what} the tasks left cost together"
    return f"{who} cannot pay {owed}: {who} has {has}"


def _first_words(command: str, names: Names) -> str:
    """One of Game.numbers_first in the host's words (engine.number_to_copy), the player by name."""
    who = "" if command == "set-ancient-one" else names.player(int(command.rsplit("=", 1)[1]) - 1)
    return number_to_copy(command, who)


def numbers_first_words(first: Sequence[str], names: Names = NO_NAMES) -> str:
    """Why no roll is played while Game.numbers_first is not empty, in the host's words (the tray, the page's "Use
    these dice"): the engine's refusal names the commands, for the terminal."""
    return (
        "first copy the numbers printed on the cards not filled in yet (the Game tab's \"Enter the numbers printed on "
        f'it"): {"; ".join(_first_words(c, names) for c in first)}. The companion makes none up, so no roll is played '
        "before them."
    )


ADVENTURES = 6  # :84 "deal six cards faceup"


def _dealt_adventures(view: Mapping[str, Any]) -> str:
    """The checklist's adventures (:84) the companion dealt: the Game tab names each filled-in card; a card not filled
    in yet is a stand-in there by its place, naming no card of the deck, so the table deals one of its own there."""
    places = [str(p) for p in (view.get("stand_ins") or {}).get("adventures") or []]
    decks = "the Adventure and Other World decks shuffled beside them."
    if not places:
        return f"Lay out the six adventures the companion dealt (the Game tab names them) in two rows of three below the clock, {decks}"
    where = "all six" if len(places) >= ADVENTURES else "those in " + listed([f"place {p}" for p in places])
    return (
        "Lay out the adventures the companion dealt in two rows of three below the clock (the Game tab lists them by "
        f"place, first row then second): {where} are not filled in yet, stand-ins that name no card of your deck, "
        f"so shuffle your Adventure deck and deal one of its cards face up in each of those places, {decks}"
    )


def _dealt_investigators(view: Mapping[str, Any], names: Names) -> str:
    """The checklist's investigators (:84): the Game tab names each filled-in card; a player whose card is not filled
    in yet has a stand-in that names no card of the deck, so they take one of the table's at random (:84 "we can
    randomly assign them"), whose numbers the host copies."""
    players = (view.get("stand_ins") or {}).get("investigators") or []
    then = "its marker on the Entrance, its sanity and stamina tokens, and the items and clue tokens the card lists."
    if not players:
        return f"Each player takes their investigator card (the Game tab names them), {then}"
    every = len(players) >= int(view.get("players") or 0)
    who = "every player" if every else listed([names.player(p) for p in players])
    return (
        f"Each player takes an investigator card: the companion dealt {who} a card not filled in yet, a stand-in "
        "that names no card of your deck, so "
        + ("each player" if every else "each of them")
        + " takes one of your investigator cards at random"
        + ("" if every else " (the Game tab names the others)")
        + f"; with it, {then}"
    )


def _first_mythos(view: Mapping[str, Any], physical: bool) -> str:
    """The checklist's first Mythos card (:87): drawn by the table (physical), or by the companion, whose Game tab
    shows the card when it is filled in; a stand-in names no card of the deck, so the table draws its own and the
    host tells what it does when asked."""
    if physical:
        return "Shuffle the Mythos deck beside the Ancient One, draw the first card and enter it here."
    if (view.get("stand_ins") or {}).get("mythos"):
        return (
            "Shuffle the Mythos deck beside the Ancient One and draw its first card: the companion drew a Mythos card "
            "not filled in yet, a stand-in that names no card of your deck, so play the card you drew and tell what "
            "it does when the Game tab asks; a die goes on it if it shows a locked die icon."
        )
    return (
        "Shuffle the Mythos deck beside the Ancient One: the companion drew the first Mythos card (the Game tab shows "
        "it); a die goes on it if it shows a locked die icon."
    )


def numbers_first_note(view: Mapping[str, Any], names: Names = NO_NAMES) -> str:
    """Why the turn waits while Game.numbers_first is not empty (the host's turn panel): before the first turn; or a
    player whose investigator was devoured takes a new one (:411 "I am granted a fresh start with a new investigator,
    someone who has not yet been devoured ... complete with their own starting items") whose card is not filled in
    yet; else before playing on."""
    first = [str(c) for c in view.get("numbers_first") or []]
    if not first:
        return ""
    investigators = view.get("investigators") or []
    asked = [int(c.rsplit("=", 1)[1]) - 1 for c in first if c.startswith("set-investigator")]
    fresh = [p for p in asked if any(i.get("player") == p and i.get("devoured") for i in investigators)]
    if fresh:
        who = listed([names.player(p) for p in fresh])
        return (
            f"{who} {'takes' if len(fresh) == 1 else 'take'} a new investigator, one not devoured yet in this game, "
            "with its starting items, sanity, stamina and clue tokens: its card is not filled in yet here, so copy "
            "the numbers printed on it. The companion makes none up, so no one plays on until they are in."
        )
    opening = view.get("turn") == 1 and not any(i.get("devoured") for i in investigators)
    return (
        f"{'Before the first turn' if opening else 'Before playing on'}: copy the numbers printed on the cards not "
        "filled in yet. The companion makes none up, so no one plays until they are in."
    )


def setup_checklist(view: Mapping[str, Any], names: Names = NO_NAMES, hand: bool = False) -> list[dict[str, str]]:
    """The setup of the rules text (elder-sign-rules.txt:79-88) as a list the host ticks off, for this game: what
    the companion dealt and drew (digital decks) or what the table deals and tells it (physical)."""
    physical = bool(view.get("physical"))
    ao = names.ancient_one
    picked = bool(view.get("ancient_one_chosen"))  # :81 the table picked it (else the companion drew it)
    who = "You chose" if picked else "This game's Ancient One is" if physical else "The companion chose"
    known = (view.get("ancient_one") or {}).get("name") if names.masks is not None else None
    if names.drawn:  # a stand-in the companion drew: which card it is, or that it is none of the deck's
        card = f"{known}'s card" if known else "the card you drew"
        chosen = (
            f"{names.drawn} Lay {card} beside the clock, and fill it in once (Your box) for its doom track, Elder "
            "Sign limit and combat task."
        )
    elif ao == "the Ancient One":
        # a stand-in's name is never told as its card's: which Ancient One it is, is the card the table plays
        chosen = (
            f"{who} the Ancient One, its card not filled in yet: lay the Ancient One card you "
            + ("chose" if picked else "play")
            + " beside the clock, and fill it in once (Your box) for its doom track, Elder Sign limit and combat task."
        )
    else:
        chosen = f"Lay {ao}'s card beside the clock{'' if physical or picked else ' (the companion chose it)'}."
    # :82 the mask monsters go in the cup for Nyarlathotep only: said for the card in play once it is known
    masks = (
        f"with the mask monsters if the Ancient One {'card you drew ' if names.drawn else ''}is Nyarlathotep, else set "
        "those aside"
        if names.masks is None
        else f"with the mask monsters ({known} is in play)"
        if names.masks
        else f"without the mask monsters: set those aside ({known} is in play, not Nyarlathotep)"
    )
    clock = (
        "The companion's clock stands at midnight (XII): put the Entrance sheet beside it"
        if hand
        else "Set the clock in the middle of the table at midnight (XII) with the Entrance sheet beside it"
    )
    out = [
        ("clock", f"{clock}, and the six green dice, the yellow die and the red die near it."),
        ("ancient_one", chosen),
        (
            "monsters",
            f"Put the monster markers in a cup no one can see into: {masks}.",
        ),
        (
            "adventures",
            "Shuffle the Adventure deck, deal six face up below the clock in two rows of three, and enter "
            "them here; shuffle the Other World deck beside them."
            if physical
            else _dealt_adventures(view),
        ),
        ("locks", "Put a die of its colour on every adventure with a locked die icon."),
        (
            "items",
            "Keep the clue tokens together at the side; shuffle the Common Item, Unique Item, Spell and Ally "
            "cards into four decks beside them.",
        ),
        (
            "investigators",
            _dealt_investigators(view, names),
        ),
        *(
            [
                (
                    "numbers",
                    "Copy the numbers printed on the cards not filled in yet (the Game tab's \"Enter the numbers "
                    'printed on it"): '
                    + "; ".join(_first_words(c, names) for c in view.get("numbers_first") or [])
                    + ". The companion makes none up, so the first turn waits for them.",
                )
            ]
            if view.get("numbers_first")
            else []
        ),
        ("first", f"{names.player(0)} plays first; play goes clockwise."),
        ("mythos", _first_mythos(view, physical)),
    ]
    return [{"id": key, "text": text} for key, text in out]
