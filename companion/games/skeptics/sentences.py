"""Every sentence a player reads or hears, made in one place (pure: no I/O).

The engine's events are data (``{"type": "room_drawn", "room": 8, ...}``); this module turns them
into plain words with the table's own names ("Anna's turn ends.", "The ghost appears in room 8,
the Bath."). The terminal, the page's log, toasts and banners, undo, the OLED and the voice all
use these sentences, so no command spelling (``key=value``), command name or rulebook section
ever reaches a player.

    names = Names.of_game(game)
    describe_events(events, names)     # ['Round 1 ends.', 'The clock moves to III.']
    announcement(event, names)         # {"kind": "ghost_mode", "title": "Ghost Mode", "text": ...} or None
    for_players(refusal_message)       # a refusal in the page's words
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from companion.games.base import card_entries
from companion.games.skeptics.dice.faces import DieKind
from companion.games.skeptics.dice.requirement import ACTIONS
from companion.games.skeptics.packs import GHOST_KIND, LIMITS_ACTIONS, stand_in_called
from companion.stats import duration
from companion.words import a_or_an, count, listed, pack_words, plain

if TYPE_CHECKING:
    from companion.games.skeptics.engine import Game

__all__ = [
    "NO_NAMES",
    "Names",
    "action_label",
    "actions_left",
    "actions_limit",
    "announcement",
    "command_sentence",
    "describe_event",
    "describe_events",
    "door_words",
    "effect_words",
    "end_round_warning",
    "end_summary",
    "for_players",
    "need_words",
    "plain",
    "setup_checklist",
]

ENTRANCE = 0

FACE_WORDS = {
    "eye": "eye",
    "camera": "camera",
    "cobweb": "cobweb",
    "key": "key",
    "summon": "summon",
    "blank": "blank",
    "timer": "timer",
    "disruption": "disruption",
}

ACTION_WORDS = {  # attempt_started: "<player> <verb>"
    "search": "searches a room",
    "solve": "tries to solve a clue",
    "prove": "tries to prove",
    "unlock": "tries to unlock",
    "barrier": "tries to break through the barrier",
    "fire": "fights the fire",
}
ACTION_NOUNS = {
    "search": "search",
    "solve": "clue",
    "prove": "prove",
    "unlock": "unlock",
    "barrier": "barrier",
    "fire": "fire fight",
}
SPEND_WORDS = {"move": "moves", "pickup": "picks up an item", "give": "gives an item", "other": "uses an action"}
PLACEHOLDER_EFFECT = "its effect is not filled in yet: read it from your card"
_TELL_LABELS = {
    "clue-dice": "One clue die fewer (as the Watching Eyes)",
    "actions": "Two actions other than moves (as the Corpse)",
    "fires": "A fire token on each fire icon (as the Fire)",
    "nothing": "That was all: it lasts until its objective is met",
    "hour": "That was all: it lasts until the next Ghost Hour",
    "once": "That was all: a one-time effect, it ends now",
}


_GHOST_ASKED = {  # a ghost card not filled in yet: what the companion asks of the host
    "sets": "The ghost card is not filled in yet: how many icon sets does the card on the table show?",
    "last": "The ghost card is not filled in yet: was that the last icon set on the card?",
    "seance": ("The ghost card is not filled in yet: with this evidence, is every séance symbol on the card matched?"),
    # "Once the Ghost appears, the Ghost will use its Ghost Hour Ability" (skeptics-rulebook.txt:209, :219)
    "ability": (
        "The ghost card is not filled in yet, so the companion plays nothing of its Ghost Hour ability: read it on "
        "the card on the table and play it; what did it do?"
    ),
}
_GHOST_TAPS = {
    ("last", "yes"): "Yes, that was the last set",
    ("last", "no"): "No, the card has more sets",
    ("seance", "yes"): "Yes, every séance symbol is matched",
    ("seance", "no"): "No, not every one yet",
    ("ability", "doors"): "It closed the doors next to its room",
    ("ability", "nothing"): "Something else (the table plays it)",
}


def _ghost_told(event: Mapping[str, Any]) -> str:
    ask, yes = event.get("ask"), bool(event.get("yes"))
    if event.get("filled"):
        return "The ghost card is filled in: the companion reads its icon sets and séance symbols from it."
    if ask == "sets":
        return f"The ghost card shows {count(event.get('sets'), 'icon set')}."
    if ask == "last":
        return "That was the ghost card's last icon set." if yes else "The ghost card has more icon sets to prove."
    if ask == "ability":
        if event.get("ability") == "doors":
            return f"The ghost's Ghost Hour ability closed the doors next to room {event.get('room')}."
        return "The ghost's Ghost Hour ability: the table plays it, the companion changes nothing."
    return "Every séance symbol on the ghost card is matched." if yes else "Not every séance symbol is matched yet."


@dataclass(frozen=True)
class Names:
    """The names the table uses: players, spaces, evidence symbols, the board and the ghost."""

    players: tuple[str, ...] = ()
    rooms: Mapping[int, str] = field(default_factory=dict)
    evidence: Mapping[str, str] = field(default_factory=dict)
    board: str = ""
    ghost: str = ""
    # a stand-in ghost named by the companion ("Ghost 1"): what the wizard says of it (companion.words.card_note)
    ghost_note: str = ""
    doors: Mapping[str, int] = field(default_factory=dict)  # door key -> key icons needed
    icon_sets: tuple[str, ...] = ()
    environment: Mapping[str, str] = field(default_factory=dict)
    clues: Mapping[int, str] = field(default_factory=dict)  # clue card number -> what the table calls it
    # a stand-in environment card's id and pack name -> what the table calls it ("the environment card, as the Corpse")
    stand_ins: Mapping[str, str] = field(default_factory=dict)
    # a stand-in in play called as another in play is (two told as the Corpse): its id -> when it was drawn of those
    # ("drawn first"), so the buttons of each tell them apart without a pack name
    alike: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def of_game(cls, game: Game) -> Names:
        board = game.board
        rooms = {n: board.space_name(n) for n in board.spaces}
        evidence = {sym: item.name for sym, item in game.packs.evidence.items()}
        players = tuple(game.setup.names) or tuple(f"Player {i + 1}" for i in range(game.setup.players))
        doors = {d.key: d.keys for d in board.doors if not d.placeholder}  # a stand-in's keys are not the board's
        environment = {card.id: card.name for card in game.packs.environment.values()}
        clues = {card.number: card.label for card in game.packs.clues.values()}
        told = [game.env(card.id) for card in game.packs.environment.values() if card.placeholder]
        stand_ins = {key: card.called for card in told for key in (card.id, card.name)}
        in_play = [str(c["id"]) for c in game.view().get("environment") or () if str(c["id"]) in stand_ins]
        alike: dict[str, str] = {}
        for called in {stand_ins[c] for c in in_play}:
            same = [c for c in in_play if stand_ins[c] == called]
            if len(same) > 1:  # in the order drawn, as the page lists the cards in force
                alike.update(
                    {c: f"drawn {_ORDINALS[i] if i < len(_ORDINALS) else f'{i + 1}th'}" for i, c in enumerate(same)}
                )
        return cls(
            players=players,
            rooms=rooms,
            evidence=evidence,
            board=board.name,
            ghost=game.ghost.name,
            ghost_note=str(card_entries({game.ghost.id: game.ghost}, GHOST_KIND)[0]["note"]),  # the wizard's
            doors=doors,
            icon_sets=() if game.ghost.placeholder else tuple(game.ghost.icon_sets),
            environment=environment,
            clues=clues,
            stand_ins=stand_ins,
            alike=alike,
        )

    def card(self, card: Any, default: str) -> str:
        """An environment card's name, for "the ... card"; `default` for a card not known or a stand-in (its pack
        name, "Common card 5", is no card on the table)."""
        return default if str(card) in self.stand_ins else self.environment.get(str(card), default)

    def clue(self, number: Any) -> str:
        try:
            n = int(number)
        except (TypeError, ValueError):
            return "the clue card"
        label = self.clues.get(n, f"Clue card {n}")
        return label if label == f"Clue card {n}" else f"clue card {n}, {label}"

    def player(self, index: Any) -> str:
        try:
            i = int(index)
        except (TypeError, ValueError):
            return "the player"
        if 0 <= i < len(self.players):
            return self.players[i]
        return f"Player {i + 1}"

    def possessive(self, index: Any) -> str:
        name = self.player(index)
        return name + ("'" if name.endswith("s") else "'s")

    def room(self, number: Any, name: Any = None) -> str:
        """ "room 8, the Bath"; "room 8" while the pack names it only by its number; "the Entrance"."""
        if number is None:
            return "no space"
        try:
            n = int(number)
        except (TypeError, ValueError):
            return str(number)
        known = str(name or self.rooms.get(n) or "").strip()
        if n == ENTRANCE:
            return f"the {known or 'Entrance'}"
        if not known or known.lower() in (f"room {n}", str(n)):
            return f"room {n}"
        return f"room {n}, the {known}"

    def symbol(self, symbol: Any, name: Any = None) -> str:
        return str(name or self.evidence.get(str(symbol)) or symbol)


NO_NAMES = Names()


# -- small pieces --------------------------------------------------------------------------------


def faces_words(values: Any) -> str:
    if not values:
        return "nothing"
    items = values.split(",") if isinstance(values, str) else [str(v) for v in values]
    return ", ".join(FACE_WORDS.get(v.strip(), v.strip()) for v in items if v.strip())


def need_words(need: Any) -> str:
    """ "eye:2,camera:1,timer" -> "2 eyes and a camera, a timer set" (never in brackets: it goes inside others)."""
    text = str(need or "")
    parts: list[str] = []
    extras: list[str] = []
    for part in [p.strip() for p in text.split(",") if p.strip()]:
        icon, _, count = part.partition(":")
        n = int(count) if count.isdigit() else 1
        if icon in ("timer", "disruption"):
            extras.append(icon)
            continue
        if not icon:
            continue
        word = FACE_WORDS.get(icon, icon)
        parts.append(f"{'an' if word[:1] in 'aeiou' else 'a'} {word}" if n == 1 else f"{n} {word}s")
    words = listed(parts, "nothing")
    if extras:
        words += ", " + " and ".join(f"{a_or_an(x)} set" for x in extras)
    return words


def door_words(key: Any, names: Names = NO_NAMES) -> str:
    """ "3-4" -> "the door between room 3 and room 4"."""
    a, _, b = str(key).partition("-")
    if not b:
        return f"the door {key}"
    return f"the door between {names.room(a)} and {names.room(b)}"


def effect_words(effect: Any) -> str:
    """A card's effect, or plain words when the owner has not copied it from the card yet."""
    text = str(effect or "").strip()
    if not text or text.lower().startswith("placeholder"):
        return PLACEHOLDER_EFFECT
    return text


def _capital(text: str) -> str:
    """`text` with its first letter capitalised (after any opening quote), the rest as it is."""
    first = next((i for i, ch in enumerate(text) if ch.isalnum()), 0)
    return text[:first] + text[first : first + 1].upper() + text[first + 1 :]


def _sentence(text: str) -> str:
    text = _capital(text.strip())
    if not text:
        return ""
    return text if text[-1] in ".!?" else text + "."


# -- events ---------------------------------------------------------------------------------------


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh")


def _clue_place(position: Any) -> str:
    """Where a clue card lies: "the clue card third from the left" (Setup: the seven "face-down side by side along the
    top of the board", drawn "in order"); "" when the place is not known."""
    if isinstance(position, int) and not isinstance(position, bool) and 1 <= position <= len(_ORDINALS):
        return f"the clue card {_ORDINALS[position - 1]} from the left"
    return ""


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]


def _said_game_started(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    players = e("players")
    bits = []
    if names.players:
        bits.append(", ".join(names.players))
    elif players:
        bits.append(count(players, "player"))
    board = names.board or e("board")
    ghost = names.ghost or e("ghost")
    where = f" in the {board}" if board else ""
    against = f" against the {ghost}" if ghost else ""
    return f"A new game starts{': ' + bits[0] if bits else ''}{where}{against}."


def _said_turn_ended(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    return f"{names.possessive(e('player'))} turn ends."


def _said_turn_started(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    return f"It is {names.possessive(e('player'))} turn."


def _said_round_ended(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    return f"Round {e('round')} ends." if e("round") is not None else "The round ends."


def _said_clock_advanced(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    if e("reason") == "timer":
        return f"The third timer token moves the clock to {e('clock')}."
    return f"The clock moves to {e('clock')}."


def _said_environment_drawn(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    if e("stand_in"):
        # the companion's card is not filled in: it names no card, the table's own top card is the one drawn
        return (
            "The environment card, drawn before the room card, is not filled in yet: draw the top card of the real "
            "environment deck (that is the card drawn) and read it aloud; the companion plays nothing of its own."
        )

    return f"Environment card: {e('name') or e('card')}. {_sentence(effect_words(e('effect')))}"


def _said_card_asked(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    if e("kind") == "ghost":
        return _GHOST_ASKED.get(str(e("ask")), "")
    if e("kind") == "fires":
        # "one Fire Token is placed onto each Fire icon on the game board" (skeptics-rulebook.txt:286): the board's
        # icons are the table's to see, not the companion's
        card = e("name") or names.card(e("card"), "environment")
        return (
            f"The {card} card puts a fire token on each fire icon of the board: on which spaces of your board are "
            "the fire icons?"
        )
    return (
        "The environment card is not filled in yet, so the companion plays nothing of it: what does the real card "
        "do, and how long does it last?"
    )


def _said_card_effect(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    n = int(e("n") or 0)
    told = {
        "clue-dice": f"every clue roll has {count(abs(n), 'die', 'dice')} {'fewer' if n < 0 else 'more'}",
        "actions": f"{count(n, 'action')} other than moves a turn",
        "fires": f"{count(n, 'fire token')} on the fire icons" if n > 1 else "a fire token on each fire icon",
    }.get(str(e("effect")), "an effect")
    return f"The environment card in play: {told}."


def _said_card_told(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    if e("kind") == "ghost":
        return _ghost_told(event)
    lasts = {  # card_told's "lasts" (a history written before it says nothing: the rulebook's rule, until met)
        "hour": "it lasts until the next Ghost Hour",
        "instant": "it was a one-time effect",
    }.get(str(e("lasts")), "it lasts until its objective is met")
    return f"The environment card in play: that was all; {lasts}."


def _said_environment_ended(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    why = {
        "met": " (its objective is met)",
        "once": " (a one-time effect)",
        "reshuffled": ": every other card is in play, so it is shuffled back into the deck",
    }.get(str(e("why")), "")
    called = names.stand_ins.get(str(e("card")))
    if called:  # a stand-in: no card of that name is on the table
        return _sentence(f"{called} ends{why}")
    return f"The environment card {e('name') or e('card')} ends{why}."


def _said_environment_reshuffled(
    event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str
) -> str:
    return f"The environment discards are shuffled into a new deck of {count(e('cards'), 'card')}."


def _said_environment_deck_empty(
    event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str
) -> str:
    return "There is no environment card left to draw."


def _said_ghost_hour(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    env = e("environment")
    return f"Ghost Hour: {env}." if env else "Ghost Hour."


def _said_room_drawn(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    return f"Room card drawn: {names.room(e('room'), e('name'))}."


def _said_room_discarded_unseen(
    event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str
) -> str:
    return "A room card is discarded face down, unseen."


def _said_final_round(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    return "That was the last room card: this is the final round. Prove the ghost before it ends."


def _said_ghost_appeared(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    how = {
        "summon": " (summoned)",
        "seance": " (called by the séance)",
        "manual": " (placed by the host)",
        "ghost_mode": " (Ghost Mode)",
    }.get(str(e("reason")), "")
    return f"The ghost appears in {names.room(e('room'), e('room_name'))}{how}."


def _said_ghost_moved(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    return f"The ghost moves from {names.room(e('from'))} to {names.room(e('to'), e('room_name'))}."


def _said_ghost_disappeared(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    why = f": {plain(e('why'))}" if e("why") else ""
    return f"The ghost leaves the board{why}."


def _said_doors_closed(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    doors = [door_words(d, names) for d in e("doors") or []]
    if not doors:
        return ""
    return f"The {e('by') or 'ghost'} closes {', '.join(doors)}."


def _said_ghost_mode_started(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    why = f" ({plain(e('why'))})" if e("why") else ""
    return f"Ghost Mode begins{why}: the ghost now appears every quarter hour, and no one can summon it."


def _said_timer_added(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    return f"The team takes a timer token ({e('timers')} of 3)."


def _said_timers_reset(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    return "The three timer tokens are set aside."


def _said_clue_revealed(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    place = _clue_place(e("position") or e("count"))
    if e("clue_card"):
        return f"A clue token is revealed ({e('count')} of 7): {_lower(names.clue(e('clue_card')))}, {place}."
    token = e("position") or e("count")
    return (
        f"A clue token is revealed ({e('count')} of 7): turn {place}; the number {token} clue tokens go on it "
        "and on the search icon."
    )


def _said_clue_solved(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    card = _lower(names.clue(e("clue_card"))) if e("clue_card") else _clue_place(e("position"))
    card = f" ({card})" if card else ""
    return f"A clue is solved{card}: the team now has {count(e('summon_dice'), 'summon die', 'summon dice')}."


def _said_fires_placed(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    card = names.card(e("card"), "environment")
    spaces = e("spaces")
    if isinstance(spaces, list):  # where the host said the fire icons are
        if not spaces:
            return f"The {card} card: the board has no fire icon, so nothing burns."
        where = listed([names.room(n) for n in spaces])
        return (
            f"The {card} card puts {count(len(spaces), 'fire token')} on the board: on {where}. Whoever enters or "
            "shares a space with a fire can do nothing more until it is out."
        )
    return (
        f"The {card} card puts {count(e('count'), 'fire token')} on the board, one on each fire icon. Whoever enters "
        "or shares a space with a fire can do nothing more until it is out."
    )


def _said_fire_out(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    burning = int(e("left") or 0)
    where = f" in {names.room(e('space'))}" if e("space") is not None else ""
    return (
        f"The last fire is out{where}."
        if not burning
        else f"The fire{where} is out; {count(burning, 'fire')} still burn{'s' if burning == 1 else ''}."
    )


def _said_barrier_set_done(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    card = names.card(e("card"), "barrier")
    sets_left = int(e("left") or 0)
    tail = "the barrier is removed" if not sets_left else f"{count(sets_left, 'set')} to go"
    return f"Icon set {e('index')} of the {card} card is rolled: put a blue marker on it; {tail}."


def _said_evidence_flipped(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    if e("stand_in"):  # no token the table can find by the companion's stand-in name: the table turns over its own
        return (
            "Evidence: turn over one of the face-down evidence tokens and compare it with the séance symbols on "
            "the ghost card."
        )
    if e("matched") is None:  # a ghost card not filled in yet: the table compares
        return f"Evidence flipped: {names.symbol(e('symbol'), e('name'))}; compare it with the ghost card."
    match = "it matches a séance symbol" if e("matched") else "it does not match a séance symbol"
    return f"Evidence flipped: {names.symbol(e('symbol'), e('name'))}; {match}."


def _said_set_proven(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    return (
        f"Icon set {e('index')} ({need_words(e('need'))}) is proven!"
        if e("need")
        else f"Icon set {e('index')} is proven!"
    )


def _said_glass_taken(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    return f"{who} takes a magnifying glass: 3 uses."


def _said_corpse_carried(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    return f"{who} carries the Corpse toward the Entrance, and cannot run while carrying it."


def _said_glass_used(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    uses = int(e("left") or 0)
    return (
        f"{who}'s magnifying glass turns to {uses}."
        if uses
        else f"{who}'s magnifying glass is used up: put it back on the pile."
    )


def _said_item_held(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    giver = f" from {names.player(e('from'))}" if e("from") is not None else ""
    return f"{who} now holds the {e('name') or e('item')}{giver}."


def _said_item_dropped(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    return f"{who} drops the {e('name') or e('item')}."


def actions_limit(others: Any, left: Any, card: Any) -> str:
    """What a card in force ("Corpse": "two Actions per turn, excluding Move Actions") leaves of the actions left,
    as the engine counts it (other_actions_left): ", moves only (Corpse)", ", 2 of them other than moves
    (Corpse)", or "" when it takes none of them away."""
    if others is None or not isinstance(left, int) or others >= left:
        return ""
    named = f" ({card})" if card else ""
    if others <= 0:
        return f", moves only{named}"
    return f", only {others} of them other than moves{named}"


def actions_left(view: Mapping[str, Any]) -> str:
    """The current player's actions left, as the card in force leaves them: "3 actions left, only 2 of them other
    than moves (Corpse)"."""
    left = view.get("actions_left")
    return f"{count(left, 'action')} left" + actions_limit(
        view.get("other_actions_left"), left, view.get("other_actions_card")
    )


def _said_action(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    if e("run"):
        return f"{who} runs a fourth space."

    left = e("actions_left")
    # an action's limit is the Corpse's effect: a stand-in is named by it, whatever is told of the card now
    card = e("card")
    limit = actions_limit(
        e("other_actions_left"), left, stand_in_called(LIMITS_ACTIONS) if str(card) in names.stand_ins else card
    )
    # a card's limit has its own brackets: the count follows a colon then ("... an action: 2 actions left, only 1
    # of them other than moves (Corpse).")
    tail = (
        ""
        if left is None
        else f": {count(left, 'action')} left{limit}"
        if limit
        else f" ({count(left, 'action')} left)"
    )
    return f"{who} {SPEND_WORDS.get(str(e('kind')), 'uses an action')}{tail}."


def _said_attempt_started(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    action = str(e("action"))
    verb = ACTION_WORDS.get(action, f"tries {a_or_an(action)}")
    if action == "prove" and e("set"):
        verb += f" icon set {e('set')}"
    if action == "unlock" and e("door"):
        verb += f" {door_words(e('door'), names)}"
    if action == "fire" and e("space") is not None:
        verb += f" in {names.room(e('space'))}"
    dice = e("dice")
    with_dice = f" with {count(dice, 'die', 'dice')}" if dice else ""
    if e("counted"):
        with_dice += f" ({e('counted')})"
    subject = names.player(e("player")) if e("player") is not None else "The player"
    return f"{subject} {verb}: needs {need_words(e('need'))}{with_dice}."


def _said_attempt_ended(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    why = f" ({plain(e('why'))})" if e("why") else ""
    return f"The {ACTION_NOUNS.get(str(e('action')), 'attempt')} roll is over{why}."


def _said_attempt_succeeded(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    # A prove, a solve and an unlock are told by what follows ("Icon set 2 is proven!"); these are not.
    return {
        "search": "The search succeeds: turn over the search token.",
        "fire": "The fire is out: take the fire token off its space.",
        "barrier": "The barrier is broken: take it off the board.",
    }.get(str(e("action")), "")


def _said_rolled(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    """What one roll did: the dice of this roll set aside, apart from those kept from the rolls before ("kept" is
    every die kept so far, "kept_now" this roll's; a record written before "kept_now" says only "kept")."""
    now, kept = e("kept_now"), list(e("kept") or [])
    before = list(kept)
    for face in now or ():
        if face in before:
            before.remove(face)
    earlier = f" ({faces_words(before)} kept before)" if now is not None and before else ""
    if e("success"):
        result = "that does it"
    elif now is None:
        result = f"keeping {faces_words(kept)}" if kept else "none kept, all to roll again" if e("chose") else ""
        result = result or "nothing counts"
    elif now:
        result = f"keeping {faces_words(now)}{earlier}"
    elif e("chose"):
        result = f"none of these kept{earlier}" if earlier else "none kept, all to roll again"
    else:
        result = f"nothing more counts{earlier}" if earlier else "nothing counts"
    rolled = f"Rolled {faces_words(e('faces'))}{_on_dice(e('action'))}: {result}."
    failed = _FAILED.get(str(e("action")))
    if failed is None or e("success"):
        return rolled
    # A failed roll says so at once, first, with what happens next: the player may use another action on the same
    # attempt, keeping the dice that count; a turn's end (or another action) loses them. The token, the clue, the
    # icon set, the door stays as it was. Its own rule each: "Failing Search Actions" (skeptics-rulebook.txt:152-154),
    # "Failing Unlock Actions" (:130-132), the solve's (:172), the prove's (:225), the Barrier's ("similar to a Search
    # Action", :284), a fire's (:286-287). `rolls_left` is the engine's rolls_left (a card's limit, the third timer); a
    # record written before it says only "actions_left"
    fails, again, stays = failed
    left = e("rolls_left", e("actions_left"))
    player = names.player(e("player")) if e("player") is not None else "The player"
    if left:
        rolling = "rolling only the dice not kept" if kept else "rolling all the dice again"
        return f"{fails}: {player} has {count(left, 'action')} left to {again}, {rolling}. {rolled}"
    return f"{fails}: {player} has no action left to {again}; {stays}. {rolled}"


# A failed roll of an attempt the player may try again (_said_rolled): what fails, what another action does, what
# stays as it was when no action is left for it.
_FAILED = {
    "search": ("The search fails", "search again", "the search token stays face down"),
    "solve": ("The solve fails", "try the clue again", "the clue stays unsolved"),
    "prove": ("The prove fails", "try the icon set again", "the icon set stays unproven"),
    "unlock": ("The unlock fails", "try the door again", "the door stays locked"),
    "barrier": ("The barrier holds", "roll at the barrier again", "the barrier stays in place"),
    "fire": ("The fire burns on", "fight the fire again", "the fire stays on the board"),
}

# The colours of the dice an action rolls, in words: "three blue Clue Dice and three green Key Dice"
# (skeptics-rulebook.txt:83; it gives the summon dice none)
_DICE_WORDS = {DieKind.CLUE: "the blue clue dice", DieKind.KEY: "the green key dice"}


def _on_dice(action: Any) -> str:
    """ " on the blue clue dice" after a roll's faces (nothing for an action not known)."""
    kind = ACTIONS.get(str(action))
    return f" on {_DICE_WORDS[kind]}" if kind in _DICE_WORDS else ""


def _said_summon(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    if e("success"):
        return f"{who} summons the ghost: the summon succeeds."
    return f"{who} tries to summon the ghost: the summon fails and a room card is lost."


def _said_pull(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    if e("success"):
        return f"{who} pulls the ghost: the pull succeeds. Move it up to two spaces."
    return f"{who} tries to pull the ghost: the pull fails and the ghost slips away."


def _said_seance_declared(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    where = f" at {names.room(e('room'))}" if e("room") is not None else ""
    return f"A séance is declared{where}: when the clock reaches {e('clock')}, the ghost comes there."


def _said_seance_started(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    where = f" at {names.room(e('room'))}" if e("room") is not None else ""
    return f"The séance is held{where}: the ghost is there for this round."


def _said_seance_ended(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    why = f" ({plain(e('why'))})" if e("why") else ""
    return f"The séance ends{why}."


def _said_seance_cancelled(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    why = f" ({plain(e('why'))})" if e("why") else ""
    return f"The séance is called off{why}."


def _said_door_unlocked(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    again = " (a padlock: it locks again after the next action)" if e("relocks") else ""
    # "The player may then move into the next space without spending an action. Note: Moving for free may only be
    # done immediately after unlocking a door." (skeptics-rulebook.txt:125-126)
    return (
        f"{_sentence(door_words(e('door'), names))[:-1]} is unlocked{again}: the player may move through it into "
        "the next space now without spending an action (only straight after the unlock)."
    )


def _said_game_won(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    return "Every icon set is proven: the team wins!"


def _said_game_lost(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    why = f": {plain(e('reason'))}" if e("reason") else ""
    return f"The team loses{why}."


def _said_redone(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    return ""


def _said_other(event: Mapping[str, Any], names: Names, e: Callable[..., Any], kind: str, who: str) -> str:
    # Any other event: its name in words, no field spellings.
    return _sentence(kind.replace("_", " "))


_SAIDS: dict[str, Callable[[Mapping[str, Any], Names, Callable[..., Any], str, str], str]] = {
    "game_started": _said_game_started,
    "turn_ended": _said_turn_ended,
    "turn_started": _said_turn_started,
    "round_ended": _said_round_ended,
    "clock_advanced": _said_clock_advanced,
    "environment_drawn": _said_environment_drawn,
    "card_asked": _said_card_asked,
    "card_effect": _said_card_effect,
    "card_told": _said_card_told,
    "environment_ended": _said_environment_ended,
    "environment_reshuffled": _said_environment_reshuffled,
    "environment_deck_empty": _said_environment_deck_empty,
    "ghost_hour": _said_ghost_hour,
    "room_drawn": _said_room_drawn,
    "room_discarded_unseen": _said_room_discarded_unseen,
    "final_round": _said_final_round,
    "ghost_appeared": _said_ghost_appeared,
    "ghost_moved": _said_ghost_moved,
    "ghost_disappeared": _said_ghost_disappeared,
    "doors_closed": _said_doors_closed,
    "ghost_mode_started": _said_ghost_mode_started,
    "timer_added": _said_timer_added,
    "timers_reset": _said_timers_reset,
    "clue_revealed": _said_clue_revealed,
    "clue_solved": _said_clue_solved,
    "fires_placed": _said_fires_placed,
    "fire_out": _said_fire_out,
    "barrier_set_done": _said_barrier_set_done,
    "evidence_flipped": _said_evidence_flipped,
    "set_proven": _said_set_proven,
    "glass_taken": _said_glass_taken,
    "corpse_carried": _said_corpse_carried,
    "glass_used": _said_glass_used,
    "item_held": _said_item_held,
    "item_dropped": _said_item_dropped,
    "action": _said_action,
    "attempt_started": _said_attempt_started,
    "attempt_ended": _said_attempt_ended,
    "attempt_succeeded": _said_attempt_succeeded,
    "rolled": _said_rolled,
    "summon": _said_summon,
    "pull": _said_pull,
    "seance_declared": _said_seance_declared,
    "seance_started": _said_seance_started,
    "seance_ended": _said_seance_ended,
    "seance_cancelled": _said_seance_cancelled,
    "door_unlocked": _said_door_unlocked,
    "game_won": _said_game_won,
    "game_lost": _said_game_lost,
    "redone": _said_redone,
}


def describe_event(event: Mapping[str, Any], names: Names | Mapping[Any, Any] | None = None) -> str:
    """One event in words ("The clock moves to XII."); "" for an event that says nothing by itself."""
    if not isinstance(names, Names):
        names = Names(rooms={int(k): str(v) for k, v in dict(names or {}).items() if str(k).isdigit()})
    e = event.get
    kind = str(e("type", "?"))
    who = names.player(e("player"))
    return _SAIDS.get(kind, _said_other)(event, names, e, kind, who)


def describe_events(events: Sequence[Mapping[str, Any]], names: Names | Mapping[Any, Any] | None = None) -> list[str]:
    """One sentence per event, in order; a Ghost Hour reads as one story.

    >>> describe_events([{"type": "clock_advanced", "clock": "XII", "hour": 1, "reason": "round"},
    ...                  {"type": "room_drawn", "room": 8, "name": "Bath", "reason": "ghost_hour"},
    ...                  {"type": "ghost_hour", "environment": "Fire", "room": 8, "room_name": "Bath"},
    ...                  {"type": "ghost_appeared", "room": 8, "reason": "ghost_hour"}])
    ['The clock moves to XII.', 'Ghost Hour: Fire.', 'The ghost appears in room 8, the Bath.']
    """
    if not isinstance(names, Names):
        names = Names(rooms={int(k): str(v) for k, v in dict(names or {}).items() if str(k).isdigit()})
    rooms = dict(names.rooms)
    for event in events:
        for key, name_key in (("room", "name"), ("room", "room_name"), ("to", "room_name")):
            value = event.get(key)
            if event.get(name_key) and isinstance(value, int) and event.get("type") != "environment_drawn":
                rooms.setdefault(value, str(event.get(name_key)))
    names = replace(names, rooms=rooms)  # every other name as the table has it (the clue cards' labels too)
    appeared = {event.get("room") for event in events if event.get("type") == "ghost_appeared"}
    ghost_hour = any(event.get("type") == "ghost_hour" for event in events)
    # "Red Icons: Timers" (skeptics-rulebook.txt:299): the third token, the tokens set aside and the clock advanced
    # are one moment, told once ("The third timer token moves the clock to VI; the three tokens are set aside.");
    # the clock advancing again at the end of the round is said to be a second time
    third = any(e.get("type") == "clock_advanced" and e.get("reason") == "timer" for e in events)
    timer_clock = False
    out: list[str] = []
    notes: list[str] = []
    drawn_first: list[str] = []  # the Ghost Hour's environment card, told before the ghost appears
    for event in events:
        kind = event.get("type")
        if kind == "room_drawn" and event.get("room") in appeared:
            continue  # told by "The ghost appears in ..."
        if kind == "environment_drawn" and ghost_hour:
            # "An Environment Card is always drawn first, then a Room Card" (skeptics-rulebook.txt:207): the card and
            # its effect right after "Ghost Hour: Fire.", before the ghost appears
            if event.get("stand_in"):
                drawn_first.append(describe_event(event, names))
            else:
                effect = _sentence(effect_words(event.get("effect")))
                drawn_first.append(f"{event.get('name') or event.get('card')}: {effect}")
            continue
        if kind == "card_asked" and ghost_hour:
            # after the card it asks about: the environment card's question with the card, the ghost's at the end
            (drawn_first if event.get("kind") == "environment" else notes).append(describe_event(event, names))
            continue
        if kind == "ghost_hour":
            out.append(describe_event(event, names))
            out.extend(drawn_first)
            drawn_first = []
            continue
        if kind in ("turn_started", "action") and len(events) > 1:
            continue  # said by the status line that follows
        if third and (kind == "timers_reset" or (kind == "timer_added" and event.get("timers") == 3)):
            continue  # told with the clock the third token moves
        if third and kind == "clock_advanced":
            again = timer_clock
            timer_clock = timer_clock or event.get("reason") == "timer"
            if event.get("reason") == "timer":
                out.append(
                    f"The third timer token moves the clock to {event.get('clock')}; the three tokens are set aside."
                )
                continue
            if again:
                out.append(f"The clock moves again, to {event.get('clock')}.")
                continue
        if kind == "room_discarded_unseen" and any(e.get("type") == "summon" and not e.get("success") for e in events):
            continue  # "the summon fails and a room card is lost"
        sentence = describe_event(event, names)
        if sentence:
            out.append(sentence)
    return out + drawn_first + notes


_COMMAND_WORDS = {
    "end-turn": "the turn ended",
    "end-round": "the round ended",
    "action": "an action",
    "attempt": "a roll was started",
    "roll": "a roll",
    "summon": "a summon",
    "pull": "a pull",
    "move-ghost": "the ghost was moved",
    "ghost-at": "the ghost was placed",
    "reveal-clue": "a clue token was revealed",
    "solve": "a clue was solved",
    "prove": "an icon set was proven",
    "timer": "a timer token",
    "seance": "a séance was declared",
    "unlock": "a door was unlocked",
    "discard-environment": "an environment card was discarded",
    "tell-ghost": "the host told what the ghost card shows",
}


def command_sentence(command: Any, names: Names = NO_NAMES, events: Sequence[Mapping[str, Any]] = ()) -> str:
    """What one command did, for the log and undo: its events' sentences, else the command in words."""
    told = " ".join(describe_events(list(events), names)) if events else ""
    if told:
        return told
    name = command.get("name") if isinstance(command, Mapping) else str(command or "").split(" ")[0]
    return _sentence(_COMMAND_WORDS.get(str(name), "a command"))


# -- what the host may do now -----------------------------------------------------------------------


def _label_end_turn(action: Mapping[str, Any], names: Names, current: Any, name: str, args: dict[str, Any]) -> str:
    return f"End {names.possessive(current)} turn" if current is not None else "End the turn"


def _label_end_round(action: Mapping[str, Any], names: Names, current: Any, name: str, args: dict[str, Any]) -> str:
    return "End the round now"


def _label_roll(action: Mapping[str, Any], names: Names, current: Any, name: str, args: dict[str, Any]) -> str:
    return "Roll the dice"


def _label_attempt(action: Mapping[str, Any], names: Names, current: Any, name: str, args: dict[str, Any]) -> str:
    kind = args.get("action")
    if kind == "prove":
        index = int(args.get("set", 0) or 0)
        need = names.icon_sets[index - 1] if 0 < index <= len(names.icon_sets) else ""
        return f"Prove icon set {index}" + (f": {need_words(need)}" if need else "")
    if kind == "unlock":
        keys = names.doors.get(str(args.get("door")))
        tail = f" ({count(keys, 'key')})" if keys else ""
        return f"Unlock {door_words(args.get('door'), names)}{tail}"
    if kind == "fire" and args.get("space") is not None:
        return f"Fight the fire in {names.room(args.get('space'))}"
    if kind == "barrier" and args.get("set"):
        card = names.card(args.get("card"), "barrier")
        return f"Break through the {card}: icon set {args.get('set')}"
    return {
        "search": "Search a room",
        "solve": "Solve a clue",
        "barrier": "Break through a barrier",
        "fire": "Fight a fire",
    }.get(str(kind), "Roll for something")


def _label_summon(action: Mapping[str, Any], names: Names, current: Any, name: str, args: dict[str, Any]) -> str:
    return "Summon the ghost"


def _label_pull(action: Mapping[str, Any], names: Names, current: Any, name: str, args: dict[str, Any]) -> str:
    return "Pull the ghost"


def _label_move_ghost(action: Mapping[str, Any], names: Names, current: Any, name: str, args: dict[str, Any]) -> str:
    return f"Move the ghost to {names.room(args.get('to'))}"


def _label_seance(action: Mapping[str, Any], names: Names, current: Any, name: str, args: dict[str, Any]) -> str:
    return "Declare the séance"


def _label_action(action: Mapping[str, Any], names: Names, current: Any, name: str, args: dict[str, Any]) -> str:
    if args.get("glass"):
        return "Take a magnifying glass (or turn it back to 3)"

    if args.get("corpse"):
        return "Move, carrying the Corpse"

    if args.get("run"):
        return "Run a fourth space (not while carrying the Corpse)"

    return {"move": "Move", "pickup": "Pick up an item", "give": "Give an item", "other": "Another action"}.get(
        str(args.get("kind")), "Another action"
    )


def _label_tell_card(action: Mapping[str, Any], names: Names, current: Any, name: str, args: dict[str, Any]) -> str:
    return _TELL_LABELS.get(str(args.get("effect")), "Do it")


def _label_tell_fires(action: Mapping[str, Any], names: Names, current: Any, name: str, args: dict[str, Any]) -> str:
    return "Where the fire icons are\u2026"


def _label_tell_ghost(action: Mapping[str, Any], names: Names, current: Any, name: str, args: dict[str, Any]) -> str:
    if "sets" in args:
        return count(int(str(args.get("sets"))), "set") if str(args.get("sets")).isdigit() else "Tell it"
    ask = next(iter(args), "")
    return _GHOST_TAPS.get((ask, str(args.get(ask))), "Tell it")


def _label_reveal_clue(action: Mapping[str, Any], names: Names, current: Any, name: str, args: dict[str, Any]) -> str:
    return "A clue token was revealed"


def _label_timer(action: Mapping[str, Any], names: Names, current: Any, name: str, args: dict[str, Any]) -> str:
    return "The team takes a timer token"


def _label_solve(action: Mapping[str, Any], names: Names, current: Any, name: str, args: dict[str, Any]) -> str:
    return "A clue was solved (rolled at the table)"


def _label_prove(action: Mapping[str, Any], names: Names, current: Any, name: str, args: dict[str, Any]) -> str:
    return f"Icon set {args.get('set')} was proven (rolled at the table)"


def _label_unlock(action: Mapping[str, Any], names: Names, current: Any, name: str, args: dict[str, Any]) -> str:
    return f"{_sentence(door_words(args.get('door'), names))[:-1]} was opened (rolled at the table)"


def _label_discard_environment(
    action: Mapping[str, Any], names: Names, current: Any, name: str, args: dict[str, Any]
) -> str:
    card = str(args.get("card"))
    called = names.stand_ins.get(card)  # a stand-in: as what the host told it plays
    when = names.alike.get(card)  # two in play told alike: which of them
    named = _capital(f"{called}, {when}" if when else called) if called else names.environment.get(card, card)
    return f"{named}: met, discard it"


def _label_ghost_at(action: Mapping[str, Any], names: Names, current: Any, name: str, args: dict[str, Any]) -> str:
    return "Put the ghost somewhere else"


def _label_other(action: Mapping[str, Any], names: Names, current: Any, name: str, args: dict[str, Any]) -> str:
    return _sentence(_COMMAND_WORDS.get(name, "do it"))[:-1]


_LABELS: dict[str, Callable[[Mapping[str, Any], Names, Any, str, dict[str, Any]], str]] = {
    "end-turn": _label_end_turn,
    "end-round": _label_end_round,
    "roll": _label_roll,
    "attempt": _label_attempt,
    "summon": _label_summon,
    "pull": _label_pull,
    "move-ghost": _label_move_ghost,
    "seance": _label_seance,
    "action": _label_action,
    "tell-card": _label_tell_card,
    "tell-ghost": _label_tell_ghost,
    "tell-fires": _label_tell_fires,
    "reveal-clue": _label_reveal_clue,
    "timer": _label_timer,
    "solve": _label_solve,
    "prove": _label_prove,
    "unlock": _label_unlock,
    "discard-environment": _label_discard_environment,
    "ghost-at": _label_ghost_at,
}


def action_label(action: Mapping[str, Any], names: Names = NO_NAMES, current: Any = None) -> str:
    """The words on the host's button for one legal action (``LegalAction.to_dict()``)."""
    name = str(action.get("name"))
    args = dict(action.get("args") or {})
    return _LABELS.get(name, _label_other)(action, names, current, name, args)


# -- the big moments ------------------------------------------------------------------------------

_ANNOUNCE_TITLES = {
    "ghost_mode_started": ("ghost_mode", "Ghost Mode"),
    "seance_declared": ("seance", "Séance declared"),
    "seance_started": ("seance", "The séance"),
    "final_round": ("final_round", "Final round"),
    "game_won": ("won", "You won!"),
    "game_lost": ("lost", "The ghost got away"),
}


# The announcements that take the whole screen until OK is tapped; every other one is a toast that goes by itself.
_SCREEN = frozenset({"ghost_mode_started", "seance_started", "final_round", "game_won", "game_lost"})


def announcement(event: Mapping[str, Any], names: Names = NO_NAMES) -> dict[str, str] | None:
    """What every phone is told at the moments that matter (the Ghost Hour has its own banner), with its weight:
    "screen" (the whole screen, until OK) or "toast" (shown whole, it goes by itself; the Log keeps it)."""
    kind = str(event.get("type"))
    if kind == "clock_advanced" and event.get("reason") == "timer":
        text = f"The third timer token moves the clock to {event.get('clock')}, and the turn ends."
        return {"kind": "timer", "title": "Third timer", "text": text, "weight": "toast"}
    if kind == "summon" and not event.get("success"):
        return {
            "kind": "lost_card",
            "title": "Summon failed",
            "text": "Summon failed: a room card is lost, face down.",
            "weight": "toast",
        }
    if kind == "set_proven":  # the toast reads "title: text" unless the text starts with the title: said once
        need = f" ({need_words(event.get('need'))})" if event.get("need") else ""
        text = f"Icon set proven: set {event.get('index')}{need}."
        return {"kind": "proven", "title": "Icon set proven", "text": text, "weight": "toast"}
    if kind in _ANNOUNCE_TITLES:
        key, title = _ANNOUNCE_TITLES[kind]
        return {
            "kind": key,
            "title": title,
            "text": describe_event(event, names),
            "weight": "screen" if kind in _SCREEN else "toast",
        }
    return None


# -- refusals -------------------------------------------------------------------------------------

_PAGE_WORDS: tuple[tuple[str, str], ...] = (
    # the commands a refusal spells are named by their buttons before these (GameModuleOf.for_players)
    (
        r"give either faces=\.\.\. \(the summon dice rolled, e\.g\. faces=summon,blank\) or success=true\|false, "
        r"not (both|neither)",
        r"give either the summon dice rolled or whether it succeeded, not \1",
    ),
    (
        r"give one of sets=N, last=yes\|no, seance=yes\|no or ability=doors\|nothing",
        "answer the question the companion asks about the ghost card",
    ),
    (r",? ?or add free=true if an item gives a free action(?: \(FAQ\))?", ""),
    (r"add free=true", "use a free action"),
    (r"\bfree=true\b", "a free action"),
    (r"\bset=N\b", "the icon set"),
    (r"\bdoor=A-B\b", "the door"),
    (r"\broom=N\b", "the room card"),
    (r"\benvironment=ID\b", "the environment card"),
    (r"\bevidence=SYMBOL\b", "the evidence token"),
    (r"\bneed=\S*", "the icon set"),
    (r"\bdice=(\d+)", r"\1 dice"),
    (r"\bkind=\w+", ""),
    (r"\b(room|door|card|set)='?([^'\s]+)'?", r"\1 \2"),
    (r"\bto='?([^'\s]+)'?", r"room \1"),
    (r"\b(?:faces|keep|success|environment|evidence)='?([^'\s]+)'?", r"\1"),
    (r"`([^`]*)`", r"\1"),
)


def for_players(message: Any) -> str:
    """A refusal from the engine, in the page's words: no command names, no ``key=value``, no sections."""
    text = pack_words(str(message or ""))
    text = re.sub(r"^[a-z][a-z-]*: ", "", text)  # "summon: no summon at ..." -> "no summon at ..."
    for pattern, words in _PAGE_WORDS:
        text = re.sub(pattern, words, text)
    text = plain(text)
    text = text.replace("=", " ")
    text = re.sub(r"\s+([,.;:])", r"\1", text)
    text = re.sub(r"\s{2,}", " ", text).strip()
    return _sentence(text) if text else "That cannot be done now."


# -- ending a round early ----------------------------------------------------------------------------------


def end_round_warning(view: Mapping[str, Any]) -> str:
    """What the host is told before ending the round early: the current player's actions left and who has not
    played yet ("Ben, Cy and Di have not played this round yet."); "" when nobody is left out."""
    names = [str(n) for n in view.get("player_names") or []]
    current = int(view.get("current_player") or 0)
    left = int(view.get("actions_left") or 0)
    waiting = names[current + 1 :]
    words = []
    if left:
        who = names[current] if 0 <= current < len(names) else "The player"
        words.append(f"{who} still has {count(left, 'action')}.")
    if waiting:
        words.append(f"{listed(waiting)} {'has' if len(waiting) == 1 else 'have'} not played this round yet.")
    return " ".join([*words, "The clock moves on."]) if words else ""


# -- the end of the game ----------------------------------------------------------------------------


def end_summary(view: Mapping[str, Any], names: Names = NO_NAMES, minutes: float | None = None) -> dict[str, Any]:
    """The end card in plain words: won or lost and why, and how the game went."""
    won = view.get("outcome") == "won"
    title = "You won! The ghost is proven." if won else "You lost: the ghost got away."
    why = plain(view.get("outcome_reason") or "")
    if won and not why:
        why = "Every icon set on the ghost card is proven."
    sets = view.get("icon_sets") or []
    proven = sum(1 for s in sets if s.get("proven"))
    # a ghost card not filled in yet whose count of sets was never told: no count of the card's sets is made up
    told = view.get("ghost_sets_told") != 0
    lines = [
        f"{count(view.get('round'), 'round')} played; the clock stood at {view.get('clock')}"
        + (f" after {count(view.get('hour'), 'Ghost Hour')}." if view.get("hour") else "."),
        f"{proven} of {count(len(sets), 'icon set')} proven." if told else f"{count(proven, 'icon set')} proven.",
        f"{count(len(view.get('rooms_revealed') or []), 'room card')} drawn and shown; "
        f"{view.get('room_cards_discarded_unseen') or 0} discarded unseen.",
        f"{view.get('clues_solved') or 0} of 7 clues solved.",
    ]
    removed = view.get("removed_rooms")
    if isinstance(removed, list):

        def short(n: Any) -> str:
            full = names.room(n)
            return f"{n} ({full.split(', the ', 1)[1]})" if ", the " in full else str(n)

        rooms = ", ".join(short(r) for r in removed) or "none"
        lines.append(f"The room cards removed face down at setup were: {rooms}.")
    if minutes is not None:
        lines.append(f"Time played: {duration(minutes)}.")  # the one rounding rule (the record's chart title too)
    return {"won": won, "title": title, "why": _sentence(why) if why else "", "lines": lines}


# -- before the first turn ------------------------------------------------------------------------------


def setup_checklist(view: Mapping[str, Any], names: Names = NO_NAMES, hand: bool = False) -> list[dict[str, str]]:
    """The rulebook's Setup as a list the host ticks off, for this game (digital or physical decks)."""
    physical = bool(view.get("physical"))
    players = int(view.get("players") or 1)
    items_n = int(view.get("special_items") or 0)
    removed = int(view.get("room_cards_removed") or 0)
    board = names.board or str(view.get("board_name") or view.get("board") or "chosen")
    ghost = view.get("ghost") or {}
    ghost_name = names.ghost or str(ghost.get("name") or "ghost")
    last = names.player(players - 1)
    out: list[tuple[str, str]] = [
        ("board", f"Lay the {board} board in the middle of the table."),
        ("investigators", "Each player picks an Investigator and stands it on the Entrance."),
        (
            "clues",
            "Shuffle the clue cards and lay seven face down along the top of the board; the rest go back in the box.",
        ),
        ("clue-tokens", "Put the numbered clue tokens on the seven clue cards, in order."),
        ("items", "Shuffle the item cards into a face-down deck within reach."),
    ]
    if physical:
        out.append(
            (
                "environment",
                f"Find the ten common environment cards and the five {board} cards; "
                "shuffle them into a face-down deck.",
            )
        )
        if removed:
            out.append(
                (
                    "rooms",
                    f"Shuffle the room cards and take {removed} away face down without looking; "
                    "they go back in the box.",
                )
            )
        else:
            out.append(("rooms", "Shuffle all twenty room cards into a face-down deck."))
    else:
        out.append(
            (
                "decks",
                "The companion shuffles and draws the room cards and the environment cards: keep them beside you "
                "to read each card when it comes up.",
            )
        )
    # "Place all seven Evidence Tokens face-down and shuffle them ... next to the Ghost Card" (skeptics-rulebook.txt:76):
    # the table's own, whichever decks; a solved clue's player turns one over (:174)
    out.append(("evidence", "Shuffle the seven evidence tokens face down beside the ghost card."))
    if items_n:
        out.append(
            (
                "special",
                f"Shuffle the special item cards and take {items_n} face down. Add {items_n} special "
                f"item search tokens to the search tokens and {items_n} search markers to free "
                "furniture on the board (not in the Entrance).",
            )
        )
    else:
        out.append(("special", "Play without special item cards: leave them and their tokens in the box."))
    out += [
        (
            "search",
            "Shuffle the search tokens face down and lay one on each set of blue icons; "
            "none on the yellow magnifying glass or on doors.",
        ),
        (
            "ghost",
            # a stand-in named by the companion is no card of the box: the table plays one of its own, as the
            # new-game wizard said when it was chosen (companion.words.card_note)
            (f"{names.ghost_note} Put your card" if names.ghost_note else f"Put the {ghost_name} card")
            + " and the ghost pawn within reach, and read its Ghost Hour ability and its lingering effect aloud.",
        ),
        ("doors", "Put a green door marker on each green door space."),
        ("dice", "Take three blue clue dice and three green key dice; set the other dice aside."),
        (
            "clock",
            (
                f"The companion's clock hand stands at XII. {last} keeps an eye on it."
                if hand
                else f"Set the clock hand at XII and give the clock to {last}, the last player."
            ),
        ),
        ("tokens", "Put the fire, timer, summon, barrier and corpse tokens and the red and blue markers within reach."),
    ]
    return [{"id": key, "text": text} for key, text in out]
