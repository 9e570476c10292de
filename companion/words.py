"""Words every game's terminal and sentences share (pure): counts, players by turn or seat, percentages, a game's
title. Each game's own words are in its package (``companion/games/<game>/``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = [
    "a_or_an",
    "article",
    "asked",
    "by_name",
    "card_choice",
    "card_note",
    "command_buttons",
    "count",
    "game_starts",
    "game_title",
    "listed",
    "outcome_words",
    "pack_words",
    "percent",
    "plain",
    "player",
    "seat",
    "stand_in_no_card",
    "undone",
]


def count(number: Any, one: str, many: str | None = None) -> str:
    """ "1 action", "3 actions", "2 dice" (with `many`)."""
    return f"{number} {one if number == 1 else (many or one + 's')}"


def listed(words: Sequence[str], none: str = "") -> str:
    """ "Ada", "Ada and Bo", "Ada, Bo and Cy" (no comma before "and"); `none` when there are no words at all."""
    words = list(words)
    if not words:
        return none
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def stand_in_no_card(kind: str) -> str:
    """What a stand-in whose name is the companion's ("Ghost 1", "Ancient One 1") is, by its `kind` ("Ghost",
    "Ancient One"): no card of the table's own."""
    return f"a stand-in in your box, not one of your {kind} cards"


def card_choice(name: str, stand_in: bool, names_a_card: bool, kind: str) -> str:
    """A card as a new-game wizard lists it beside the others of its `kind` ("Ghost", "Ancient One"), short enough
    for a phone's closed list: a filled-in card by its name; one not filled in yet by the name the rulebook gives it
    (the Child Ghost, Nyarlathotep), marked so; a stand-in whose name is the companion's marked as one, so "Ghost 1"
    never reads as a card of the box beside the Child Ghost (card_note says what that means, under the list)."""
    if not stand_in:
        return name
    if names_a_card:
        return f"{name} (not filled in yet)"
    return f"{name} (a stand-in)"


def card_note(name: str, stand_in: bool, names_a_card: bool, kind: str) -> str:
    """What the wizard says under its list when that card is chosen: for a stand-in whose name is the companion's,
    that the table plays a card of its own of that `kind`; "" for any other card (its label says it all)."""
    if not stand_in or names_a_card:
        return ""
    return f"{name} is {stand_in_no_card(kind)}: play any {kind} card of your own."


# words spelled with a vowel that are said with a consonant ("a one", "a unique"), and the other way round ("an hour")
_SAID_WITH_A = ("one", "once", "uni", "use", "usu", "eu", "ewe", "ukulele")
_SAID_WITH_AN = ("hour", "honest", "honour", "honor", "heir")


def article(word: Any) -> str:
    """The indefinite article English says before `word`: "an" before a vowel's sound, else "a". Numbers in digits
    go by how they are said: "an 8", "an 11", "an 18", "an 80", "an 800", "an 8000", "a 1", "a 100"."""
    text = str(word).strip()
    digits = re.match(r"\d+", text.replace(",", ""))
    if digits:
        number = digits.group(0).lstrip("0") or "0"
        head = int(number[: len(number) % 3 or 3])  # the group said first: 8 of 8,000, 11 of 11,000
        return "an" if head in (8, 11, 18) or 80 <= head <= 89 or 800 <= head <= 899 else "a"
    low = text.lower()
    if low.startswith(_SAID_WITH_AN):
        return "an"
    if low.startswith(_SAID_WITH_A):
        return "a"
    return "an" if low[:1] in tuple("aeiou") else "a"


def a_or_an(word: Any) -> str:
    """`word` with its indefinite article: "an 8", "a 9", "an eye", "a Master" (see :func:`article`)."""
    return f"{article(word)} {word}"


def game_starts(players: Sequence[str], number: Any, then: str = "") -> str:
    """A game's first line in the log (its ``game_started`` record): "A new game starts: Ada and Bo" (or "2
    players"), then what the game adds, with its own lead (" against Azathoth")."""
    who = listed([str(p) for p in players]) or (count(number, "player") if isinstance(number, int) else "")
    return f"A new game starts{': ' + who if who else ''}{then}."


def left_to_the_host(seen: str = "") -> str:
    """A tray reading not played because the settings leave the dice to the host (the configuration file's dice
    reading into the roll is off), alike for every game: "Dice read (clue: eye): the companion is set to leave them
    to the host, who enters the roll"."""
    return (
        f"Dice read{f' ({seen})' if seen else ''}: the companion is set to leave them to the host, who enters the roll"
    )


def undone(what: Any) -> str:
    """An undo in words, alike for every game (terminal, the page's log, the voice): "Undone: " and what the command
    taken back did, one sentence or more ("Undone: Ada's turn ends. The clock moves to III.")."""
    told = str(what or "").strip() or "the last command"
    return f"Undone: {told}" if told.endswith((".", "!", "?")) else f"Undone: {told}."


def player(number: Any, state: Mapping[str, Any] | None = None) -> str:
    """A player by turn (0 first), by their name in the state when it has one."""
    names = (state or {}).get("player_names") or []
    try:
        index = int(number)
    except (TypeError, ValueError):
        return "the player"
    return str(names[index]) if 0 <= index < len(names) else f"player {index + 1}"


def seat(state: Mapping[str, Any], number: Any) -> str:
    """A player by seat (1 first), by their name in the state when it has one."""
    names = state.get("player_names") or state.get("names") or []
    if isinstance(number, int) and 1 <= number <= len(names) and names[number - 1]:
        return str(names[number - 1])
    return f"seat {number}"


# "player 2", "Seat 3's": an engine names a player by number (the engines keep no names in their words); not
# "seat 2 (Ben)", which names the player already.
_NUMBERED = re.compile(r"\b(?:[Pp]layer|[Ss]eat) (\d{1,2})\b(?! \()")


def by_name(text: str, names: Sequence[Any]) -> str:
    """A refusal's "player 2" or "seat 2" as that player's name (seats and players count from 1), where the table
    gave the player one; a player without a name (the default "Player 2") keeps the number."""

    def name(match: re.Match[str]) -> str:
        number = int(match.group(1))
        given = str(names[number - 1]).strip() if 1 <= number <= len(names) and names[number - 1] else ""
        return given if given and given.casefold() != f"player {number}" else match.group(0)

    return _NUMBERED.sub(name, text) if names else text


def percent(value: Any) -> str:
    return f"{float(value) * 100:.0f}%" if isinstance(value, (int, float)) else "?"


def outcome_words(state: Mapping[str, Any]) -> str | None:
    outcome = state.get("outcome")  # "won" or "lost", as every game's view gives it
    return f"game {outcome}" if outcome else None


def game_title(state: Mapping[str, Any]) -> str:
    """ "Game 3 “Friday”"."""
    return f"Game {state.get('game_id')}" + (f" “{state.get('name')}”" if state.get("name") else "")


def asked(state: Mapping[str, Any], command: str) -> list[str]:
    """A card not filled in yet came up and played nothing: the question, and the page's taps spelled as commands."""
    if not state.get("card_question"):
        return []
    taps = [
        " ".join([a["name"], *(f"{k}={v}" for k, v in a["args"].items())])
        for a in state.get("legal") or []
        if a.get("name") == command
    ]
    return [f"Asked: {state['card_question']}", "  Tell it with: " + " | ".join(taps)]


# A value the engines write where the terminal's user fills one in ("room=N", "action=...", "door=A-B").
_PLACEHOLDER = re.compile(r"^(?:N|M|ID|A-B|A,B,C|\.\.\.|[A-Z]+|\w+(?:\|\w+)+)$")
# The engines' shortest argument names in the page's words (the others are words already: "the colour", "the card").
_ARG_WORDS = {"to": "space to go to", "n": "number", "faces": "dice", "hours": "number of hours"}
_ARG = r"[a-z_]+=(?:\.\.\.|'[^']*'|[^\s)]*?)(?=[\s)]|[.,;](?:\s|$)|$)"


def command_buttons(
    text: str,
    commands: Mapping[str, tuple[tuple[str, ...], tuple[str, ...], str]],
    label: Callable[[Mapping[str, Any]], str],
) -> str:
    """A refusal's commands as the terminal spells them ("end-turn", "action kind=move run=true") in the page's
    words, before a game's own (its ``for_players``): each is the button that plays it, by the label it has on the
    page ("the “Run a fourth space” button", the label's bracketed tail left out). A command named with a value to
    fill in ("(seance room=N)") is the terminal's hint alone, and goes where it stands in brackets. What is there
    for the terminal only goes too: "; e.g. ..." examples, "see docs/...", and "the argument kind= is missing" is
    "the kind is missing". `commands` is the game's command table (GameModule.commands), `label` its button label
    of a legal action's dict."""
    names = "|".join(re.escape(n) for n in sorted(commands, key=len, reverse=True))
    spelled = re.compile(
        rf"(?P<open>\()?`?(?<![\w-])(?P<name>{names})(?![\w-])(?!:)(?P<args>(?: {_ARG})*)`?(?:,? :\d+(?:-\d+)?)?(?P<close>\))?"
    )

    def button(found: re.Match[str]) -> str:
        name, raw = found.group("name"), found.group("args").split()
        if "-" not in name and not raw:
            return found.group(0)  # a plain word that is also a command's name ("a roll", "summon")
        args = dict(part.split("=", 1) for part in raw)
        args = {key: value.strip("'") for key, value in args.items()}
        to_fill = [key for key, value in args.items() if _PLACEHOLDER.match(value)]
        inside = bool(found.group("open") and found.group("close"))
        if to_fill and inside:
            return ""  # the terminal's hint in brackets
        try:
            words = label({"name": name, "args": {k: v for k, v in args.items() if k not in to_fill}})
        except (KeyError, TypeError, ValueError, IndexError):
            return found.group(0)
        words = re.sub(r"\s*\([^()]*\)$", "", words).strip()
        return (found.group("open") or "") + f"the \u201c{words}\u201d button" + (found.group("close") or "")

    text = re.sub(r";\s*e\.g\.\s[^;]*?(?=;|\.?$)", "", text)
    text = re.sub(r";?\s*see docs/\S+?(?=[.;]?(?:\s|$))", "", text)
    text = re.sub(
        r"\bthe argument ([a-z_]+)= is missing",
        lambda m: f"the {_ARG_WORDS.get(m.group(1), m.group(1).replace('_', ' '))} is missing",
        text,
    )
    return spelled.sub(button, text)


# -- rulebook references and the box's pack errors (every game's sentences, the OLED, the page) ------------------

_SECTION = re.compile(
    r"\s*\((?:[^()]*'[^()]*|(?:Game End|Player Turn|Action \d+|FAQ|Setup|Variant Rules|Environment Cards|Red Icons|"
    r"Game Components|Environment Deck|Séance|Ghost Mode|Interpretations)[^()]*)\)"
)
_QUOTE = re.compile(r":?\s*'[A-Z][^']{12,}'")  # a sentence quoted from the rulebook


def plain(text: Any) -> str:
    """Drop rulebook references ("(Game End: Losing: '...')", quoted rules) from a sentence made by the engine."""
    out = _QUOTE.sub("", _SECTION.sub("", str(text or "")))
    return re.sub(r"\s{2,}", " ", out).strip()


_PACK_ERROR = re.compile(
    r"^.*?\.toml: (?P<label>.+?)(?:: field \"(?P<field>\w+)\")? (?P<msg>(?:must|is|has|repeats|names|puts|connects|"
    r"cannot|asks|entry|gives).*?)\. Fix the file.*$",
    re.S,
)
_FILE_ONLY = re.compile(r"\s*\((?::\d|in the file: )[^()]*\)")
BOX_FIELD_WORDS = {  # a pack file's fields as the box editor's form names them
    "name": "The name",
    "difficulty": "The difficulty",
    "seance_symbols": "The séance symbols",
    "icon_sets": "The icon sets",
    "icon_set": "The icon set",
    "ability": "The Ghost Hour ability",
    "lingering": "The lingering effect",
    "first_sets": "The number of sets proven first",
    "clue_dice": "The change to the clue dice",
    "actions": "The number of actions",
    "fires": "The number of fires",
    "duration": "How long it lasts",
    "pos": "The place on the map",
    "between": "The way between two spaces",
    "keys": "The number of keys",
    "effect": "The effect",
    "reward": "The reward",
    "penalty": "The penalty",
    "terror": "The terror effect",
    "immediate": "The top half",
    "lingering_kind": "When the lower half plays",
    "at_midnight": "The midnight effect",
    "who": "Whom it falls on",
    "common_items": "The number of Common Items",
    "unique_items": "The number of Unique Items",
    "spells": "The number of Spells",
    "lock": "The locked die",
}


def pack_words(text: str) -> str:
    """A pack file's error (companion.pack_files, the box editor) with the field in the form's words and without
    the file; any other text as it is. A game's ``for_players`` finishes the sentence."""
    pack = _PACK_ERROR.match(text)
    if not pack:
        return text
    subject = BOX_FIELD_WORDS.get(pack.group("field") or "", "This entry")
    # the form's words: no rule line ("(:315-319)") and no spelling only a file edited by hand needs ("(in the file:
    # who = ...)")
    text = f"{subject} {_FILE_ONLY.sub('', pack.group('msg'))}"
    place = re.match(r"^The place on the map puts (room \d+) on \[(\d+), (\d+)\], where (.+) already is", text)
    if place:  # the map counts from 0 in the file, from 1 on the form
        text = (
            f"{place.group(1).capitalize()} would sit in column {int(place.group(2)) + 1}, row "
            f"{int(place.group(3)) + 1}, where {place.group(4)} already is: choose another place"
        )
    return text
