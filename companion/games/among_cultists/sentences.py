"""Every sentence a player reads or hears about an Among Cultists game, made in one place (pure: no I/O), and the
narrator's two scripts: the night and the vote's countdown.

The engine's events are data (``{"type": "vote", "seat": 3, ...}``); this module turns them into plain words with
the table's names ("Bo is voted out and plays on as a ghost."). No command spelling (``key=value``), command name
or line of the review reaches a player.

    names = Names.of_game(game)
    describe_events(events, names)          # ["Round 2 of 10 begins; the clock shows I. ..."]
    announcement(event, names)              # {"kind": "vote", "title": "The vote", "text": ...} or None
    for_players(refusal_message)            # a refusal in the page's words
    night_script(setup, names, 4.0)         # [{"text": ..., "pause": 4.0, "screen": "Eyes closed"}, ...]
    vote_script(names, language="de")       # the countdown, in German

A script is a list of steps ``{"text": what the voice says, "pause": seconds to wait after it, "screen": a short
line for the 128x64 OLED}`` (the vote's steps also carry ``"buzz"``); whoever plays it keeps the real time.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.commands import page_words
from companion.errors import BadCommand
from companion.words import listed

if TYPE_CHECKING:
    from companion.games.among_cultists.engine import Game, Setup

__all__ = [
    "DEFAULT_PAUSE_S",
    "LANGUAGES",
    "NO_NAMES",
    "Names",
    "action_label",
    "announcement",
    "command_sentence",
    "describe_event",
    "describe_events",
    "end_summary",
    "for_players",
    "night_script",
    "phase_sentence",
    "setup_checklist",
    "vote_script",
]

DEFAULT_PAUSE_S = 4.0  # the night's pause between two steps, before the host lengthens it
MAX_PAUSE_S = 60.0
LANGUAGES = ("en", "de")
SCREEN_WIDTH = 20  # characters of the OLED's line


@dataclass(frozen=True)
class Names:
    """The names the table uses: the players by seat (seat 1 first), and the event markers still stand-ins."""

    players: tuple[str, ...] = ()
    stand_ins: frozenset[str] = frozenset()  # names of event markers the owner has not filled in yet

    @classmethod
    def of_game(cls, game: Game) -> Names:
        stand_ins = frozenset(e.name for e in game.packs.events.values() if e.placeholder)
        return cls(tuple(game.view()["player_names"]), stand_ins)

    def seat(self, seat: Any) -> str:
        """A seat's name (seats count from 1)."""
        if isinstance(seat, int) and not isinstance(seat, bool) and 1 <= seat <= len(self.players):
            return self.players[seat - 1]
        if isinstance(seat, int) and not isinstance(seat, bool):
            return f"Player {seat}"
        return "A player"


NO_NAMES = Names()


def _sentence(text: str) -> str:
    text = re.sub(r"\s{2,}", " ", text.strip())
    if text and text[-1] not in ".!?":
        text += "."
    return text[:1].upper() + text[1:]


def _cultist_words(n: Any) -> str:
    return "two cultists hide" if n == 2 else "one cultist hides"


_PHASE_SENTENCES = {
    # seance-deduction-rules-de.txt:34 "wenn er zu irgendeinem Zeitpunkt der Bewegung genau zu zweit ist": at any
    # moment of the move, not only where it ends
    "movement": "Movement: starting with {start}, each character moves up to three rooms or corridors; whenever, "
    "at any moment of the move, exactly two characters are together, those two have an encounter",
    "event": "Event phase: an event marker comes out of the bag; what it does lasts this round",
    "action": "Action phase: each character takes one action or passes",
    "cleanup": "Clean-up: the round comes to its end",
}


def _said_night_started(event: Mapping[str, Any], names: Names, kind: str) -> str:
    text = (
        f"night falls over the séance: {event.get('players')} players, and {_cultist_words(event.get('cultists'))} "
        "among them"
    )
    if event.get("seer"):
        text += "; a seer is watching"
    return text


def _said_night_ended(event: Mapping[str, Any], names: Names, kind: str) -> str:
    text = "the night is over: everyone has opened their eyes"
    return text


def _said_round_started(event: Mapping[str, Any], names: Names, kind: str) -> str:
    text = (
        f"round {event.get('round')} of {event.get('rounds', 10)} begins; the clock shows {event.get('clock')}. "
        f"{names.seat(event.get('start_player'))} holds the knife"
    )
    return text


def _said_phase_started(event: Mapping[str, Any], names: Names, kind: str) -> str:
    return phase_sentence(event.get("phase"), event.get("start_player"), names)


def phase_sentence(phase: Any, start_player: Any, names: Names = NO_NAMES) -> str:
    """What a phase asks of the table (seance-deduction-rules-de.txt:33-40): the log's line when it begins and the
    page's card while it lasts, one sentence for both."""
    template = _PHASE_SENTENCES.get(str(phase), "the next phase begins")
    return _sentence(template.format(start=names.seat(start_player)))


def _said_event_drawn(event: Mapping[str, Any], names: Names, kind: str) -> str:
    name = str(event.get("name") or "")
    stand_in = bool(event.get("stand_in")) or name in names.stand_ins
    if stand_in and event.get("by") == "companion":
        text = "the companion draws an event that is not filled in yet: draw a marker from the real bag and read it out"
    elif stand_in:
        text = "the event marker the table drew is in play this round; its words are not filled in yet"
    else:
        text = f"the event of the round: {name}"
        if event.get("text"):
            text += f". {_sentence(str(event['text']))}"
    return text


def _said_events_refilled(event: Mapping[str, Any], names: Names, kind: str) -> str:
    text = "the event bag is empty: every marker goes back in and is mixed"
    return text


def _said_vote(event: Mapping[str, Any], names: Names, kind: str) -> str:
    prefix = "the vote the body called: " if event.get("called") == "body" else ""
    seat = event.get("seat")
    if seat is None:
        text = prefix + "no majority, so nobody is voted out"
    elif event.get("last"):
        text = prefix + f"{names.seat(seat)} is voted out and reveals the last cultist"
    else:
        text = prefix + f"{names.seat(seat)} is voted out and plays on as a ghost"
    return text


def _said_found_dead(event: Mapping[str, Any], names: Names, kind: str) -> str:
    text = f"{names.seat(event.get('seat'))} is found dead and plays on as a ghost; now the table votes"
    return text


def _said_points(event: Mapping[str, Any], names: Names, kind: str) -> str:
    change = int(event.get("change") or 0)
    verb = "gain" if change > 0 else "lose"
    amount = abs(change)
    text = (
        f"the investigators {verb} {amount} victory point{'' if amount == 1 else 's'}: "
        f"{event.get('points')} of {event.get('needed')}"
    )
    if (
        isinstance(event.get("points"), int)
        and isinstance(event.get("needed"), int)
        and event["points"] >= event["needed"]
    ):
        text += ", enough to win"
    return text


def _said_vote_marker_reset(event: Mapping[str, Any], names: Names, kind: str) -> str:
    text = "the vote marker turns back: the cafeteria may vote again next round"
    return text


def _said_round_ended(event: Mapping[str, Any], names: Names, kind: str) -> str:
    text = f"round {event.get('round')} is over"
    return text


def _said_start_player_passed(event: Mapping[str, Any], names: Names, kind: str) -> str:
    text = f"the knife passes from {names.seat(event.get('seat'))} to {names.seat(event.get('to'))}"
    return text


def _said_clock_advanced(event: Mapping[str, Any], names: Names, kind: str) -> str:
    text = f"the clock moves on one hour, to {event.get('clock')}"
    return text


def _said_game_won(event: Mapping[str, Any], names: Names, kind: str) -> str:
    text = f"the investigators win: {event.get('reason')}"
    return text


def _said_game_lost(event: Mapping[str, Any], names: Names, kind: str) -> str:
    text = f"the cultists win: {event.get('reason')}"
    return text


def _said_other(event: Mapping[str, Any], names: Names, kind: str) -> str:
    text = "something happens on the table"
    return text


_SAIDS: dict[str, Callable[[Mapping[str, Any], Names, str], str]] = {
    "night_started": _said_night_started,
    "game_started": _said_night_started,
    "night_ended": _said_night_ended,
    "round_started": _said_round_started,
    "phase_started": _said_phase_started,
    "event_drawn": _said_event_drawn,
    "events_refilled": _said_events_refilled,
    "vote": _said_vote,
    "found_dead": _said_found_dead,
    "points": _said_points,
    "vote_marker_reset": _said_vote_marker_reset,
    "round_ended": _said_round_ended,
    "start_player_passed": _said_start_player_passed,
    "clock_advanced": _said_clock_advanced,
    "game_won": _said_game_won,
    "game_lost": _said_game_lost,
}


def describe_event(event: Mapping[str, Any], names: Names = NO_NAMES) -> str:
    """One event in plain words."""
    kind = str(event.get("type"))
    text = _SAIDS.get(kind, _said_other)(event, names, kind)
    return _sentence(text.replace("..", "."))


def describe_events(events: Sequence[Mapping[str, Any]], names: Names = NO_NAMES) -> list[str]:
    return [describe_event(e, names) for e in events]


def announcement(event: Mapping[str, Any], names: Names = NO_NAMES) -> dict[str, str] | None:
    """What every phone is told (and the voice says) at the moments that matter, with its weight: the night, a
    vote's result and the end take the screen until OK ("screen"); a new round is a toast that goes by itself."""
    kind = str(event.get("type"))
    if kind in ("night_started", "game_started"):
        if kind == "game_started" and event.get("rules") not in (None, "among-cultists"):
            return None
        return {"kind": "night", "title": "The night", "text": describe_event(event, names), "weight": "screen"}
    if kind == "round_started":
        return {
            "kind": "round",
            "title": f"Round {event.get('round')}",
            "text": describe_event(event, names),
            "weight": "toast",
        }
    if kind == "vote":
        return {"kind": "vote", "title": "The vote", "text": describe_event(event, names), "weight": "screen"}
    if kind == "game_won":
        return {
            "kind": "won",
            "title": "The investigators win",
            "text": describe_event(event, names),
            "weight": "screen",
        }
    if kind == "game_lost":
        return {"kind": "lost", "title": "The cultists win", "text": describe_event(event, names), "weight": "screen"}
    return None


_ACTION_LABELS = {
    "night-done": "The night is over",
    "next-phase": "Next phase",
    "draw-event": "Draw the event",
    "event": "Enter the event drawn",
    "found-dead": "A character is found dead",
    "points": "Change the victory points",
    "end-round": "End the round",
    "cultists-win": "The cultists have won",
    "points-win": "The investigators have their victory points: they win",
}


def action_label(action: Mapping[str, Any], names: Names = NO_NAMES) -> str:
    """The words of a button for one of ``game.legal_actions()`` (given as its ``to_dict()``)."""
    name = str(action.get("name"))
    args = action.get("args") or {}
    if name == "vote":
        return "Enter the vote the body called" if args.get("called") == "body" else "Enter the vote's result"
    return _ACTION_LABELS.get(name, "Do it")


def command_sentence(command: Any, names: Names = NO_NAMES, events: Sequence[Mapping[str, Any]] = ()) -> str:
    """A history entry in words: the events the command caused, or what it was."""
    if events:
        # the round's end first (the clean-up's vote marker and knife follow it), so an undo names what it takes back
        ordered = sorted(events, key=lambda e: 0 if e.get("type") == "round_ended" else 1)
        return " ".join(describe_events(ordered, names))
    name = getattr(command, "name", str(command).split(" ", 1)[0])
    return _sentence(_ACTION_LABELS.get(name, "a correction on the table"))


_PAGE_WORDS: tuple[tuple[str, str], ...] = (
    (r"\s*\(:\d+(?:-\d+)?(?:,\s*:\d+(?:-\d+)?)*\)", ""),
    (r"unknown command '[^']*'; the commands are: .*", "the companion does not know that step of the game"),
    (
        r"unknown event '[^']*'; the pack's events are: [^.]*\. Give name=TEXT for one the pack lacks",
        "that marker is not in the pack; give its name instead",
    ),
    (r"unknown argument '[^']*'; .*", "that detail does not belong to this step; leave it out"),
    (r"the argument (\w+)= is missing", r"the \1 is missing"),
    (
        r"either id=ID \(an event of the pack\) or name=TEXT \(one the pack lacks\)",
        "either a marker of the pack or the name of one it lacks",
    ),
    (r"Give name=TEXT for one the pack lacks", "Give its name if the pack lacks it"),
    (r"\bname= is the marker's name", "the marker's name is"),
    (
        r"last=yes says the player voted out revealed the last cultist; give that player's seat, or last=no when nobody "
        r"was voted out",
        "only a player who was voted out can reveal the last cultist; name that player, or say nobody revealed it",
    ),
    (
        r"\bn=0 changes nothing; give the points won, such as n=2, or lost, such as n=-1",
        "zero points change nothing; give the points won or lost",
    ),
    (r"\bcalled='[^']*' is not valid; use one of: [a-z, ]*", "a vote is called in the cafeteria or by a body found"),
    (r"\blast='[^']*' must be true or false", "say whether the last cultist was revealed"),
    (r"\bn='([^']*)'", r"the number '\1'"),
    (r"\bn=(-?\d+)", r"the number \1"),
    (r"\bseat='([^']*)'", r"the seat '\1'"),
    (r"\bseat=(\d+)", r"seat \1"),
    (r"\b([a-z_]+)=(?=[,\s.)]|$)", r"\1"),
    (r"\b([a-z_]+)=(\S+)", r"\1 \2"),
)


def for_players(message: Any) -> str:
    """A refusal from the engine, in the page's words: no command names, no ``key=value``, no line numbers."""
    return _sentence(page_words(message, _PAGE_WORDS))


def roles_note(view: Mapping[str, Any], names: Names = NO_NAMES) -> str:
    """What the companion knows of the roles, under the seats on every phone: none but what the host entered, which the
    whole table saw (:52 the cultists show themselves once the vote put out the last of them). It names no one the
    host did not."""
    shown = [names.seat(v["seat"]) for v in view.get("votes") or [] if v.get("last") and v.get("seat")]
    seer = view.get("seer")
    if not shown:
        return f"The companion never knows who is a cultist{' or the seer' if seer else ''}: the roles stay in their envelopes."
    return (
        f"The companion knows only what the host told it: {listed(shown)} showed the last cultist's card when voted "
        f"out. It was told no other role{', nor who the seer was' if seer else ''}."
    )


def end_summary(view: Mapping[str, Any], names: Names = NO_NAMES) -> dict[str, Any]:
    """The end card: who won, why, and the counts."""
    won = view.get("outcome") == "won"
    voted = [names.seat(s) for s in view.get("eliminated") or []]
    dead = [names.seat(s) for s in view.get("found_dead") or []]
    lines = [
        f"Victory points: {view.get('points')} of {view.get('points_needed')}.",
        f"Rounds played: {view.get('round')} of {view.get('rounds')}.",
        f"Voted out: {listed(voted, 'nobody')}.",
    ]
    if dead:
        lines.append(f"Found dead: {listed(dead)}.")
    return {
        "title": "The investigators win" if won else "The cultists win",
        "text": _sentence(str(view.get("outcome_reason") or "")),
        "lines": lines,
    }


# -- the narrator's scripts ---------------------------------------------------------------------------------------


def _step(text: str, pause: float, screen: str) -> dict[str, Any]:
    return {"text": text, "pause": round(pause, 2), "screen": screen[:SCREEN_WIDTH]}


def _language(language: str) -> str:
    if language not in LANGUAGES:
        raise BadCommand(f"the narrator speaks {' or '.join(LANGUAGES)}, not {language!r}.")
    return language


def setup_checklist(view: Mapping[str, Any], names: Names = NO_NAMES, hand: bool = False) -> list[dict[str, str]]:
    """The preparation of the rules text (seance-deduction-rules-de.txt:3-15, "Vorbereitung") as a list the host
    ticks off, for this game. It names no role: the envelopes are dealt at random and each player looks at their own
    marker alone."""
    players = view.get("players")
    cultists = view.get("cultists")
    start = view.get("start_player")
    holder = names.seat(start) if isinstance(start, int) else "The start player"
    envelopes = (
        f"{players} envelopes, {'two' if cultists == 2 else 'one'} of them a cultist's"
        if isinstance(players, int)
        else "one envelope a player"
    )
    clock = (
        "The companion's clock stands at XII for round 1; set the hand of the board's round indicator to its first "
        "hour too."
        if hand
        else "Set the hand of the round indicator to its first hour (the companion's round 1, XII)."
    )
    # :4-5 the decks, :7 what they hold, :9 the envelopes and the secret look, :11 the board, :13 the books, :15 the
    # supply, the discs and the knife; :57 the round indicator's hand; :37 the bag
    out = [
        (
            "decks",
            "Lay out the cards by the table in your rulebook: the investigators' decks, the cultists' decks, "
            "the pulse card start decks, the room start cards and the unsafe paths deck (success, failure, "
            "sabotage, alive and dead cards).",
        ),
        (
            "route",
            "An investigator's deck holds alive and success cards and a route card; a cultist's deck fewer of "
            "those, with failure, sabotage and dead cards besides, and a route card too.",
        ),
        (
            "envelopes",
            f"Add alive and dead cards at random as your player count asks, every cultist's deck keeping at least "
            f"one alive card; put each deck with its alignment marker in an envelope: {envelopes}.",
        ),
        (
            "deal",
            "Shuffle the envelopes and deal one to each player at random; each player looks at their own marker "
            "in secret and shows it to nobody.",
        ),
        (
            "board",
            f"Build the six-part board for {players} players: a room start card drawn at random beside every "
            "room, and a room marker at each."
            if isinstance(players, int)
            else "Build the six-part board for your player count: a room start card drawn at random beside every "
            "room, and a room marker at each.",
        ),
        ("books", "Put the small book markers on the rooms, as many as the dashed boxes in each room show."),
        (
            "supply",
            "Lay out the draw pile, the three cultist markers, the fish-man marker and the unsafe paths deck; every "
            "character's disc goes in the central corridor.",
        ),
        ("knife", f"{holder} is the start player and takes the knife."),
        ("clock", clock),
    ]
    if view.get("physical"):
        out.append(("bag", "Put the event markers in their bag: one is drawn each round."))
    return [{"id": key, "text": text} for key, text in out]


_NIGHT = {
    "en": {
        "close": "Night falls. Everyone, close your eyes, take the deck from your envelope and lay it face up.",
        "ghosts": "Night falls. Everyone, close your eyes and lay your envelope's deck face up: now it shows who "
        "begins the game as a ghost.",
        "open2": "Cultists, open your eyes and find your accomplice.",
        "open1": "Cultist, open your eyes.",
        "dead2": "See whether an investigator begins this game dead, without knowing it.",
        "dead1": "See whether an investigator begins this game dead, without knowing it.",
        "shut2": "Cultists, close your eyes.",
        "shut1": "Cultist, close your eyes.",
        "fist2": "Everyone, keep your eyes closed and hold out a fist. Cultists, raise your thumb.",
        "fist1": "Everyone, keep your eyes closed and hold out a fist. Cultist, raise your thumb.",
        "seer": "Seer, wake for a moment and see whose thumb is raised.",
        "seer_shut": "Seer, close your eyes.",
        "wake_fists": "Everyone, lower your fists and open your eyes. The séance begins.",
        "wake": "Everyone, open your eyes. The séance begins.",
        "s_close": "Eyes closed",
        "s_open": "Cultists: look",
        "s_fist": "Fists, thumbs up",
        "s_seer": "Seer: look",
        "s_wake": "Eyes open",
    },
    "de": {
        "close": "Es wird Nacht. Schließt alle die Augen, holt euer Deck aus dem Umschlag und legt es offen hin.",
        "ghosts": "Es wird Nacht. Schließt alle die Augen und legt das Deck aus eurem Umschlag offen hin: Jetzt "
        "zeigt es, wer das Spiel schon als Geist beginnt.",
        "open2": "Kultisten, öffnet die Augen und erkennt einander.",
        "open1": "Kultist, öffne die Augen.",
        "dead2": "Seht, ob ein Ermittler dieses Spiel schon tot beginnt, ohne es zu wissen.",
        "dead1": "Sieh, ob ein Ermittler dieses Spiel schon tot beginnt, ohne es zu wissen.",
        "shut2": "Kultisten, schließt die Augen.",
        "shut1": "Kultist, schließ die Augen.",
        "fist2": "Alle lassen die Augen zu und strecken eine Faust vor. Kultisten, hebt den Daumen.",
        "fist1": "Alle lassen die Augen zu und strecken eine Faust vor. Kultist, heb den Daumen.",
        "seer": "Seherin, wach kurz auf und sieh, wer den Daumen hebt.",
        "seer_shut": "Seherin, schließ die Augen.",
        "wake_fists": "Nehmt die Fäuste herunter und öffnet alle die Augen. Die Séance beginnt.",
        "wake": "Öffnet alle die Augen. Die Séance beginnt.",
        "s_close": "Augen zu",
        "s_open": "Kultisten: schauen",
        "s_fist": "Faust, Daumen hoch",
        "s_seer": "Seherin: schauen",
        "s_wake": "Augen auf",
    },
}


def night_script(
    setup: Setup, names: Names = NO_NAMES, pause_s: float = DEFAULT_PAUSE_S, language: str = "en"
) -> list[dict[str, Any]]:
    """The night (seance-deduction-rules-de.txt:18-24), step by step: everyone closes their eyes and turns their
    deck up; the cultists open theirs, see each other and (unless seven play, :20) whether an investigator starts
    the game dead; the cultists close their eyes again (:22);
    with the seer variant everyone then shows a fist, the cultists raise a thumb and the seer looks; then everyone
    opens their eyes. Every step but the last waits `pause_s` after its words, the host's choice as it is (an earlier
    version waited twice as long where someone looks, so "2 s" read as 4 s there); the last waits for nothing.
    The night names nobody, so `names` is not read (it keeps the shape of the other sentences)."""
    words = _NIGHT[_language(language)]
    if isinstance(pause_s, bool) or not isinstance(pause_s, (int, float)) or not 0 <= pause_s <= MAX_PAUSE_S:
        raise BadCommand(f"the night's pause is 0 to {MAX_PAUSE_S:g} seconds, not {pause_s!r}.")
    n = "2" if setup.cultists == 2 else "1"
    pause = float(pause_s)
    seven = setup.players == 7  # :20 "sofern nicht zu siebt gespielt wird": with seven, nobody begins as a ghost
    # :20 "Jetzt sollte ... sichtbar sein, wer bereits zu Beginn der Partie ein Geist ist": the decks laid face up
    # show it (to the cultists, who open their eyes next, :21)
    first = words["close" if seven else "ghosts"]
    looking = words["open" + n] + ("" if seven else " " + words["dead" + n])
    steps = [_step(first, pause, words["s_close"]), _step(looking, pause, words["s_open"])]
    if setup.seer:
        # :22 "Alle schließen wieder ihre Augen": the cultists close theirs before anyone shows a fist, so nobody
        # looking can watch the seer wake (:23)
        steps += [
            _step(words["shut" + n], pause, words["s_close"]),
            _step(words["fist" + n], pause, words["s_fist"]),
            _step(words["seer"], pause, words["s_seer"]),
            _step(words["seer_shut"], pause, words["s_close"]),
            _step(words["wake_fists"], 0.0, words["s_wake"]),
        ]
    else:
        steps += [_step(words["shut" + n], pause, words["s_close"]), _step(words["wake"], 0.0, words["s_wake"])]
    return steps


_VOTE = {
    "en": (
        "Get ready to point at the player you suspect.",
        ("Three", "Two", "One"),
        "Point!",
        "Count the fingers: a simple majority votes that character out; without one, nobody goes.",
        "Vote: get ready",
        "POINT!",
        "Count the votes",
    ),
    "de": (
        "Macht euch bereit, auf den zu zeigen, den ihr verdächtigt.",
        ("Drei", "Zwei", "Eins"),
        "Zeigt!",
        "Zählt die Finger: Mit einfacher Mehrheit ist dieser Charakter raus; ohne sie niemand.",
        "Abstimmung: bereit",
        "ZEIGT!",
        "Stimmen zählen",
    ),
}
COUNT_S = 1.0  # each number of the countdown
COUNTING_S = 3.0  # the fingers stay up this long after the point


def vote_script(names: Names = NO_NAMES, language: str = "en") -> list[dict[str, Any]]:
    """The vote's synchronised countdown (:52: everyone points at once): ready, three, two, one (on a beat of a
    second each: ``"beat"``, from the start of one number to the start of the next, however long the word takes),
    point (``"buzz": True``), then the count. `names` is not read: the vote names nobody before it is counted."""
    ready, numbers, point, count, s_ready, s_point, s_count = _VOTE[_language(language)]
    steps = [{**_step(ready, COUNT_S, s_ready), "buzz": False}]
    steps += [{**_step(word, COUNT_S, str(3 - i)), "buzz": False, "beat": COUNT_S} for i, word in enumerate(numbers)]
    steps.append({**_step(point, COUNTING_S, s_point), "buzz": True})
    steps.append({**_step(count, 0.0, s_count), "buzz": False})
    return steps
