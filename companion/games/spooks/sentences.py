"""Every sentence a player reads or hears about a Spooks game, made in one place (pure: no I/O).

The engine's events are data (``{"type": "hand_scored", "points": [0, 14, 31], ...}``); this module turns them
into plain words with the table's names ("Hand 1: Ada goes out; Bo 14, Cy 31."). It also says what may be played
on the top card (:func:`may_play`, :func:`suit_rule`) and what each Master does (:func:`master_rule`), for the page
and the OLED. No command spelling (``key=value``), command name or fragment of the rules text reaches a player.

    names = Names.of_game(game)
    describe_events(events, names)     # ["Hand 1: Ada goes out; Bo 14, Cy 31.", ...]
    announcement(event, names)         # {"kind": "grabbed", "title": ..., "text": ...} or None
    may_play(game.follow(), master_effects=True, reversed_=False)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.commands import page_words
from companion.games.spooks.engine import CARD_POINTS, CAT, MASTER, NUMBERS, SUITS, direction_of, follow
from companion.words import a_or_an, game_starts, listed

if TYPE_CHECKING:
    from companion.games.spooks.engine import Game

__all__ = [
    "NO_NAMES",
    "Names",
    "describe_event",
    "describe_events",
    "announcement",
    "for_players",
    "action_label",
    "command_sentence",
    "end_summary",
    "card_words",
    "suit_rule",
    "may_play",
    "top_rule",
    "master_rule",
    "master_rules",
    "tally_table",
    "setup_checklist",
]

_ONE = {"spiders": "Spider", "spooks": "Spook", "goblins": "Goblin", "bones": "Bone", "bats": "Bat"}


@dataclass(frozen=True)
class Names:
    """The names the table uses: the players, in seat order (seat 1 first)."""

    players: tuple[str, ...] = ()

    @classmethod
    def of_game(cls, game: Game) -> Names:
        return cls(tuple(game.setup.seat_names()))

    def seat(self, seat: Any) -> str:
        if isinstance(seat, int) and 1 <= seat <= len(self.players):
            return self.players[seat - 1]
        if isinstance(seat, int):
            return f"Player {seat}"
        return "A player"


NO_NAMES = Names()


def _sentence(text: str) -> str:
    text = text.strip()
    if text and text[-1] not in ".!?":
        text += "."
    return text[:1].upper() + text[1:]


def card_words(suit: Any, number: Any = None) -> str:
    """ "the 8 of Spiders", "the Master of Bats", "the Black Cat"."""
    if suit == CAT or number == CAT:
        return "the Black Cat"
    name = str(suit).title()
    if number == MASTER:
        return f"the Master of {name}"
    return f"the {number} of {name}"


def _value_words(value: str | None) -> str:
    return a_or_an("Master" if value == MASTER else value)  # "an 8 on a 9"


def _pass_way(reversed_: bool) -> str:
    """Which neighbour cards are handed to: the right, the left after a Master of Bones («the Master of Spooks makes
    you hand cards to the left»)."""
    return "left" if reversed_ else "right"


def suit_rule(rule: Mapping[str, Any], master_effects: bool = False, reversed_: bool = False) -> list[str]:
    """What may be played on a top card, in words: ``rule`` is :func:`companion.games.spooks.engine.follow`'s answer.
    The first sentence says what follows; the next ones what happens to a player who cannot."""
    kind = rule.get("rule")
    suit, number = rule.get("suit"), rule.get("number")
    if kind == "lead":
        return [
            "No card is on the pile yet: whoever holds the 1 of Spiders starts the hand with it (the lowest "
            "Spider there is, when nobody holds the 1; with two decks, the holder nearest the dealer's left)."
        ]
    if kind == "any":
        return ["The Black Cat is wild: the next player may play any card at all."]
    name = str(suit).title()
    out: list[str] = []
    if kind == "sequence":
        up = rule.get("step") != "down"
        if rule.get("next") is None:
            out.append(
                f"{name}: nothing follows {card_words(suit, number)} in sequence"
                + ("" if up else " while runs go backward")
                + "."
            )
        else:
            out.append(
                f"{name}: the next number {'up' if up else 'down'}, in any suit: "
                f"{_value_words(rule.get('next'))} on {_value_words(number)}"
                + ("" if up else " (runs go backward)")
                + "."
            )
        if master_effects and suit == "spiders":
            out.append("The Master of Spiders may also go on any Spider, whatever its number.")
        out.append(
            "A player who cannot follow passes; when nobody can, whoever laid the card starts again with any card."
        )
    elif kind == "trick":
        low = bool(rule.get("lowest_wins"))
        out.append(
            f"{name}: a trick round. Everyone plays one card; the {'lowest' if low else 'highest'} Goblin "
            "takes the trick and its winner plays next. A Black Cat takes it outright; two players tied play "
            "another trick between them."
        )
        if master_effects:
            out.append("A Master played in the trick has no effect.")
    elif kind == "match":
        one = _ONE.get(str(suit), name)
        out.append(f"{name}: {_value_words(number)} in any suit, or any {one}.")
        if suit == "bones":
            out.append(
                "Whoever cannot: the player who laid the Bone lays a straight from his hand (any suits, any "
                "length, highest on top), and the stuck player then plays on that new top card."
            )
        else:
            way = direction_of(reversed_)
            out.append(
                f"Whoever cannot is bitten: starting with the player who laid the Bat and going {way}, each "
                "other player gives the bitten one a card; then the bitten player plays any card."
            )
    out.append("The Black Cat may be played on any card.")
    return out


def may_play(rule: Mapping[str, Any], master_effects: bool = False, reversed_: bool = False) -> list[str]:
    """The sentences the page and the OLED show for the top card (the first one is the short form)."""
    return suit_rule(rule, master_effects, reversed_)


def top_rule(
    suit: str | None, number: str | None, backward: bool = False, master_effects: bool = False, reversed_: bool = False
) -> list[str]:
    """What may be played on a card given by suit and number (for a page that asks about any card)."""
    return suit_rule(follow(suit, number, backward), master_effects, reversed_)


def master_rule(suit: str, reversed_: bool = False) -> str:
    """What a Master played normally does with the optional effects (not when it is played in a trick)."""
    if suit == "spiders":
        return (
            "The Master of Spiders may be laid on any Spider, whatever its number; on the pile it counts as a "
            "Master, not as the number it covered."
        )
    if suit == "spooks":
        return (
            f"Everyone picks a card from his hand and, all at once, hands it to the player on his "
            f"{_pass_way(reversed_)}."
        )
    if suit == "goblins":
        return (
            "Whoever laid the Master of Goblins gives a card from his hand to the opponent holding the fewest "
            "cards (choosing one, when several hold as few)."
        )
    if suit == "bones":
        return (
            "The direction of play turns round: play goes clockwise, so do bat bites, and the Master of Spooks "
            "hands cards to the left. A second Master of Bones (two decks) turns it back."
        )
    if suit == "bats":
        return (
            "Spooks and Spiders run backward, a lower number on a higher one, and the lowest Goblin takes a "
            "trick. A second Master of Bats (two decks) puts them forward again."
        )
    return "This card has no Master effect."


def rules_in_force(view: Mapping[str, Any]) -> list[str]:
    """What holds for the hand under way, for the page: the way play goes, the way runs go, and the Masters."""
    clockwise = view.get("direction") == "clockwise"
    lines = [
        (
            "Play goes clockwise, to each player's left (a Master of Bones turned it), and so do bat bites."
            if clockwise
            else "Play goes counterclockwise, to each player's right."
        ),
        (
            "Spooks and Spiders run backward, a lower number on a higher one; the lowest Goblin takes a trick "
            "(a Master of Bats)."
            if view.get("backward_runs")
            else "Spooks and Spiders run up, the next number on the one before."
        ),
    ]
    until = "the hand ends" if view.get("master_lasting") == "hand" else "the end of the game"
    lines.append(
        f"The Masters' effects are played; a Master of Bones or Bats holds until {until}."
        if view.get("master_effects")
        else "The Masters' effects are not played in this game."
    )
    return lines


def master_rules(reversed_: bool = False) -> dict[str, str]:
    return {suit: master_rule(suit, reversed_) for suit in SUITS}


def tally_table() -> list[dict[str, Any]]:
    """What each card left in a losing hand costs, for the page: 1 to 10, a Master, the Black Cat."""
    return [
        {"card": "1 to 10", "points": "face value"},
        {"card": "Master", "points": CARD_POINTS[MASTER]},
        {"card": "Black Cat", "points": CARD_POINTS[CAT]},
    ]


def setup_checklist(view: Mapping[str, Any], names: Names = NO_NAMES, hand: bool = False) -> list[dict[str, str]]:
    """What the table does before the first hand, from the rules text, as a list the host ticks off (``hand``: no
    clock in this game). The deck «There are 11 cards in each suit» and «one BlackCat card», two decks «simply
    combine two decks!»; the deal «Shuffle the cards and play each hand as usual» (who deals is the setup's); the
    start «The player nearest the dealers leftplays it to start the game» (docs/spooks.md, "Starting"); the Masters'
    rule «A special effect happens only if the Master is playednormally»; the ghost hand «deal one extra hand of
    cards and set itaside» and «If nobody has the 1 of Spiders, start the game with the 2 ofSpiders»."""
    decks = view.get("decks") if view.get("decks") in (1, 2) else 1
    players = view.get("players")
    dealer = names.seat(view.get("dealer")) if isinstance(view.get("dealer"), int) else "The dealer"
    suits = "Spiders, Spooks, Goblins, Bones and Bats"
    cards = len(SUITS) * (len(NUMBERS) + 1) + 1  # each suit 1 to 10 and a Master, and the Cat
    out = [
        (
            "deck",
            f"Take the deck: five suits ({suits}), each 1 to 10 and a Master, and one Black Cat: {cards} cards."
            if decks == 1
            else f"Combine two decks: twice five suits ({suits}), each 1 to 10 and a Master, and two Black Cats: "
            f"{2 * cards} cards.",
        ),
        (
            "deal",
            f"{dealer} shuffles the cards and deals them out, one hand to each of the {players} players."
            if isinstance(players, int)
            else f"{dealer} shuffles the cards and deals them out, one hand to each player.",
        ),
        (
            "start",
            "Whoever holds the 1 of Spiders lays it to start the hand."
            if decks == 1
            else f"Of the two players holding a 1 of Spiders, the one nearest {dealer}'s left lays it to start the hand.",
        ),
    ]
    if view.get("master_effects"):
        out.append(
            (
                "masters",
                "The Masters' effects are played: a Master has its effect when it is played normally, never when it "
                "is played in a Goblin trick.",
            )
        )
    out += [
        (
            "ghost",
            "With a ghost hand (if the table plays it): deal one hand more and set it aside unplayed; when nobody "
            "holds the 1 of Spiders, the 2 starts, and so on.",
        ),
        (
            "score",
            "The companion keeps the score: when a hand is over, tell it the cards left in each hand, or each "
            "player's points.",
        ),
    ]
    return [{"id": key, "text": text} for key, text in out]


def _cards_words(cards: Sequence[str] | None) -> str:
    return ", ".join("Master" if c == MASTER else "Black Cat" if c == CAT else str(c) for c in cards or ())


def _said_hand_scored(event: Mapping[str, Any], names: Names, kind: str, who: str) -> str:
    points = list(event.get("points") or [])
    cards = event.get("cards")
    winner = names.seat(event.get("winner"))
    parts = []
    for seat, value in enumerate(points, 1):
        if value is None or seat == event.get("winner"):
            continue
        shown = f"{names.seat(seat)} {value} {'point' if value == 1 else 'points'}"
        if cards is not None and cards[seat - 1]:
            shown += f" (left: {_cards_words(cards[seat - 1])})"
        parts.append(shown)
    scores = list(event.get("scores") or [])
    totals = ", ".join(
        f"{names.seat(seat)} {score}" for seat, score in enumerate(scores, 1) if points[seat - 1 : seat] != [None]
    )
    text = f"hand {event.get('hand')}: {winner} goes out; {', '.join(parts) or 'nobody else scores'}"
    text += f". Totals: {totals}" if totals else ""
    return text


def _said_limit_reached(event: Mapping[str, Any], names: Names, kind: str, who: str) -> str:
    text = f"{who} has {event.get('score')} points, {event.get('limit')} or more: grabbed by the monsters!"
    return text


def _said_player_out(event: Mapping[str, Any], names: Names, kind: str, who: str) -> str:
    left = event.get("left")
    text = f"{who} drops out of the game with {event.get('score')}; {left} players are left"
    return text


def _said_game_won(event: Mapping[str, Any], names: Names, kind: str, who: str) -> str:
    winners = [names.seat(seat) for seat in event.get("winners") or []]
    if len(winners) == 1:
        text = f"{winners[0]} has the lowest score, {event.get('score')}, and is first out the door: {winners[0]} wins!"
    else:
        text = f"{listed(winners)} share the lowest score, {event.get('score')}, and the win!"
    return text


def _said_deal_passed(event: Mapping[str, Any], names: Names, kind: str, who: str) -> str:
    text = f"{names.seat(event.get('dealer'))} deals hand {event.get('hand')}"
    return text


def _said_hand_given_up(event: Mapping[str, Any], names: Names, kind: str, who: str) -> str:
    text = f"hand {event.get('hand')} is given up without a score and dealt again"
    return text


def _said_top_set(event: Mapping[str, Any], names: Names, kind: str, who: str) -> str:
    text = f"on top of the pile: {card_words(event.get('suit'), event.get('number'))}"
    if event.get("effect") is False:  # a Master played during a Goblin trick («it has no effect!»)
        text += ", played in a Goblin trick, so its effect does not happen"
    return text


def _said_master_played(event: Mapping[str, Any], names: Names, kind: str, who: str) -> str:
    player = names.seat(event.get("seat")) if event.get("seat") is not None else "A player"
    suit = str(event.get("suit"))
    text = f"{player} plays {card_words(suit, MASTER)}"
    if not event.get("lasting"):
        rule = master_rule(suit, event.get("direction") == "clockwise")
        text += ": " + rule[:1].lower() + rule[1:]
    return text


def _said_direction_changed(event: Mapping[str, Any], names: Names, kind: str, who: str) -> str:
    clockwise = event.get("direction") == "clockwise"
    if event.get("why") == "master":
        text = (
            "play turns round and now goes clockwise; bat bites too, and Spooks' cards go to the left"
            if clockwise
            else "play turns back and goes counterclockwise again"
        )
    else:
        text = "the new hand is played counterclockwise again"
    return text


def _said_runs_changed(event: Mapping[str, Any], names: Names, kind: str, who: str) -> str:
    if event.get("why") == "master":
        text = (
            "Spooks and Spiders now run backward, a lower number on a higher one; the lowest Goblin takes a trick"
            if event.get("backward")
            else "Spooks and Spiders run forward again"
        )
    else:
        text = "in the new hand Spooks and Spiders run forward again"
    return text


def _said_game_started(event: Mapping[str, Any], names: Names, kind: str, who: str) -> str:
    # spooks-rules.txt:3 "[F]or a longer game: When a player reaches 200 and is grabbed by the monsters, he drops out
    # and the others keep playing until three players are left"
    longer = ", the longer game: a player who reaches the limit drops out until three are left"
    return game_starts(names.players, event.get("players"), longer if event.get("variant") == "long" else "")


def _said_other(event: Mapping[str, Any], names: Names, kind: str, who: str) -> str:
    text = "something happens on the table"
    return text


_SAIDS: dict[str, Callable[[Mapping[str, Any], Names, str, str], str]] = {
    "game_started": _said_game_started,
    "hand_scored": _said_hand_scored,
    "limit_reached": _said_limit_reached,
    "player_out": _said_player_out,
    "game_won": _said_game_won,
    "deal_passed": _said_deal_passed,
    "hand_given_up": _said_hand_given_up,
    "top_set": _said_top_set,
    "master_played": _said_master_played,
    "direction_changed": _said_direction_changed,
    "runs_changed": _said_runs_changed,
}


def describe_event(event: Mapping[str, Any], names: Names = NO_NAMES) -> str:
    """One event in plain words."""
    kind = str(event.get("type"))
    who = names.seat(event.get("seat"))
    text = _SAIDS.get(kind, _said_other)(event, names, kind, who)
    return _sentence(text)


def describe_events(events: Sequence[Mapping[str, Any]], names: Names = NO_NAMES) -> list[str]:
    return [describe_event(e, names) for e in events]


def announcement(event: Mapping[str, Any], names: Names = NO_NAMES) -> dict[str, str] | None:
    """What every phone is told (and the voice says) at the moments that matter, with its weight ("screen" or
    "toast"); None for the others."""
    kind = str(event.get("type"))
    title: str | None = None
    key = kind
    if kind == "limit_reached":
        key, title = "grabbed", "Grabbed by the monsters"
    elif kind == "player_out":
        key, title = "out", "Out of the game"
    elif kind == "game_won":
        key, title = "won", "Out the door"
    elif kind == "direction_changed" and event.get("why") == "master":
        key, title = "direction", "Play turns round"
    elif kind == "runs_changed" and event.get("why") == "master":
        key, title = "runs", "Runs go backward" if event.get("backward") else "Runs go forward"
    if title is None:
        return None
    # the end of the game takes the screen until OK; the rest is a toast that goes by itself
    return {
        "kind": key,
        "title": title,
        "text": describe_event(event, names),
        "weight": "screen" if kind == "game_won" else "toast",
    }


_ACTION_LABELS = {"end": "Give the hand up and deal again"}


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def action_label(action: Mapping[str, Any], names: Names = NO_NAMES) -> str:
    """The words of a button for one of ``game.legal_actions()`` (given as its ``to_dict()``)."""
    name = str(action.get("name"))
    args = action.get("args") or {}
    asks = list(action.get("asks") or ())
    if name == "hand":
        return "Count the cards left in each hand" if "cards" in asks else "Enter the hand's points"
    if name == "top":
        suit = args.get("suit")
        return "The Black Cat is on top" if suit == CAT else f"A {_ONE.get(str(suit), str(suit))} is on top"
    if name == "master":
        return f"{capital(card_words(args.get('suit'), MASTER))} was played"
    return _ACTION_LABELS.get(name, "Do it")


def command_sentence(command: Any, names: Names = NO_NAMES, events: Sequence[Mapping[str, Any]] = ()) -> str:
    """A history entry in words: the events the command caused, or what it was."""
    if events:
        return " ".join(describe_events(events, names))
    name = getattr(command, "name", None)
    if name is None and isinstance(command, Mapping):
        name = command.get("name")
    if name is None:
        name = str(command).split(" ", 1)[0]
    words = {"hand": "a hand's scores", "top": "the top card", "master": "a Master played", "end": "a hand given up"}
    return _sentence(words.get(str(name), "a correction on the table"))


_PAGE_WORDS: tuple[tuple[str, str], ...] = (
    (r";? ?the commands are: [^.]*\.", "."),
    (r"\bpoints=A,B,C \(one number per seat\)", "the points of each seat"),
    (r"\bcards=\S+ \(the cards left in each hand, seats split by ;\)", "the cards left in each hand"),
    (r"\s*Seats are split by ; and the cards of a seat by \+\.", ""),
    (r"write - in its place in points=", "mark it as out"),
    (r"write - in its place in cards=", "mark it as out"),
    (r"without -", "without marking any as out"),
    (r"with - where a seat is out", "marking the seats that are out"),
    (r"^- marks a seat that is out", "A seat marked as out must be one that is out"),
    (r"number=1 to 10, or number=M for its Master", "a number 1 to 10, or its Master"),
    (r"leave number= out", "give it no number"),
    (r"\(the Black Cat is suit=cat\)", "(the Black Cat has a button of its own)"),
    (r"\b(points|cards)= gives", r"the \1 give"),
    (r"\bthe argument ([a-z_]+)= is missing", r"the \1 is missing"),
    (r"\bunknown argument '([a-z_]+)'; the arguments are: [^.]*\.", r"\1 is not something this asks for."),
    (r"\bseat (\d+) \(([^)]*)\)", r"\2"),
    (r"\b([a-z_]+)=(?=[,\s.)]|$)", r"\1"),
    (r"\b([a-z_]+)=(\S+)", r"\1 \2"),
)
_COMMAND_PREFIX = re.compile(r"^(?:hand|top|master|end|push|Game\.new): ")


def for_players(message: Any) -> str:
    """A refusal from the engine, in the page's words: no command names, no ``key=value``."""
    return _sentence(page_words(message, _PAGE_WORDS, _COMMAND_PREFIX))


def end_summary(view: Mapping[str, Any], names: Names = NO_NAMES) -> dict[str, Any]:
    """The end card: who won, why, and the scores (lowest first)."""
    winners = [names.seat(seat) for seat in view.get("winners") or []]
    if len(winners) == 1:
        title = f"{winners[0]} wins"
    elif winners:
        title = f"{listed(winners)} share the win"
    else:
        title = "The game is over"
    scores = list(view.get("scores") or [])
    order = sorted(range(1, len(scores) + 1), key=lambda seat: (scores[seat - 1], seat))
    out = set(view.get("out") or [])
    lines = [f"{names.seat(seat)}: {scores[seat - 1]}" + (" (dropped out)" if seat in out else "") for seat in order]
    lines.append(f"Hands played: {len(view.get('hands') or [])}.")
    return {"title": title, "text": _sentence(str(view.get("outcome_reason") or "")), "lines": lines}
