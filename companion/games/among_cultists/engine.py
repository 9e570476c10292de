"""The rules engine of Among Cultists: pure, checked, with an explicit history (push/pop) and exact replay.

    from companion.games.among_cultists.engine import Game, Setup, Command
    from companion.games.among_cultists.packs import load_packs

    game = Game.new(Setup(players=6, seed=7, points_needed=5), load_packs())  # the box's points: the text has none
    game.push("night-done")                  # BadCommand / IllegalCommand; the state is unchanged on error
    game.push("next-phase")                  # movement -> event
    game.push("draw-event")                  # the round's event marker from the companion's bag
    game.push("next-phase")                  # event -> action
    game.push("vote seat=3 last=no")         # the cafeteria vote: seat 3's character is out
    game.push("end-round")                   # the clean-up: the knife passes, the clock moves one hour
    game.pop()                               # undo the last command
    game.view()                              # JSON-safe, for the page and the OLED
    game.legal_actions()                     # what may be done now

The companion is the table's clock, score pad and event bag. It never knows or stores who is a cultist or the
seer: the roles stay in the envelopes, and the host only enters what the table sees (who was voted out, whether
that player revealed the last cultist). Nothing here does I/O, reads a clock or uses the global random
generator: the event bag is shuffled by ``random.Random(f"{seed}:events:{n}")`` (n counts the refills). A command
is applied to a copy of the state, which replaces the state only when the whole command went through.

docs/among-cultists.md explains how the review the rules come from is read; the comments cite its lines
("seance-deduction-rules-de.txt:52" is written ":52").
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
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
    check_args,
    check_names,
    seat_names,
)
from companion.errors import BadCommand, IllegalCommand
from companion.games.among_cultists.packs import AmongCultistsPacks, EventMarker

__all__ = [
    "CLOCK",
    "CULTISTS_MISSING",
    "COMMANDS",
    "PHASES",
    "RULES",
    "ROUNDS",
    "Command",
    "Game",
    "LegalAction",
    "Outcome",
    "Setup",
    "State",
    "stored_cultists",
]

RULES = "among-cultists"
ROUNDS = 10  # :26 "über maximal 10 Runden"
# :57: the hand of the round clock moves one hour a round; it starts at twelve (docs/among-cultists.md)
CLOCK = ("XII", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX")
NIGHT, MOVEMENT, EVENT, ACTION, CLEANUP, OVER = "night", "movement", "event", "action", "cleanup", "over"
PHASES = (MOVEMENT, EVENT, ACTION, CLEANUP)  # :26-31, in this order every round
MIN_PLAYERS, MAX_PLAYERS = 4, 8  # the box says 4-8; the review gives no player count
MAX_POINTS = 99
CAFETERIA, BODY = "cafeteria", "body"
NOBODY = "none"

# name -> (required args, optional args, what it does)
COMMANDS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...], str]] = MappingProxyType(
    {
        "night-done": ((), (), "the night is over and everyone has opened their eyes: round 1 begins (:18-24)"),
        "next-phase": ((), (), "on to the next phase of the round: movement, event, action, then clean-up (:26-31)"),
        "draw-event": ((), (), "the companion draws the round's event marker from its bag (:37)"),
        "event": ((), ("id", "name"), "enter the event marker the table drew: its id in the pack, or its name (:37)"),
        "vote": (
            ("seat",),
            ("last", "called"),
            "the result of a vote: the seat voted out (none on a tie), last=yes when that player revealed the last "
            "cultist; called=body for the vote a found body calls (:52)",
        ),
        "found-dead": (
            ("seat",),
            (),
            "a check found a character dead: the seat plays on as a ghost and a vote follows (:44, :52)",
        ),
        "points": (("n",), (), "the investigators gain (or, with a minus, lose) victory points (:51)"),
        "cultists-win": ((), (), "the cultists have removed as many investigators as their win needs (:60)"),
        "points-win": (
            (),
            (),
            "the host records the investigators' win by points, in a game stored before the points that reach the "
            "goal ended it by themselves (:60)",
        ),
        "end-round": (
            (),
            (),
            "the clean-up: the vote marker turns back, then the game ends after round 10, or the "
            "start player's knife passes on and the clock moves one hour (:57)",
        ),
    }
)


def stored_cultists(players: int) -> int:
    """The count a game stored with ``cultists`` 0 plays with: the companion of before read 0 as "from the player
    count", one with 4-6 players and two with 7 or 8. Only for reopening such a game as it was played: the review
    gives no count (it defers to the box's table, :4; two is possible, :9 and :21), so a new game asks the host."""
    return 2 if players >= 7 else 1


# the refusal of a setup that does not say how many cultists play (Setup.check, the new-game path of the module)
CULTISTS_MISSING = (
    "say how many cultists play, 1 or 2: the rules text gives no number, so give the one your box's table gives "
    "for your number of players."
)


# -- values ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    """What the table chose before the night (:3-15)."""

    players: int
    # one or two (:9, :21 "falls mit zwei Kultisten"): the text defers to the box's table (:4), so the host gives the
    # number; no default (None: not given yet, which check() refuses)
    cultists: int | None = None
    seer: bool = False  # the seer variant (:21-24)
    seed: int | str = 0
    # :57 "genug", :60 "ausreichend viele Siegpunkte": the text gives no number, so the host gives the box's; no
    # default (None: not given yet, which check() refuses)
    points_needed: int | None = None
    physical: bool = False  # the table draws the event markers from its own bag and the host enters them
    names: tuple[str, ...] = ()
    start_player: int = 1  # the seat given the start player's knife (:15)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rules": RULES,
            "players": self.players,
            "cultists": self.cultists,
            "seer": self.seer,
            "seed": self.seed,
            "points_needed": self.points_needed,
            "physical": self.physical,
            "start_player": self.start_player,
        }
        if self.names:
            out["names"] = list(self.names)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Setup:
        if not isinstance(data, Mapping):
            raise BadCommand(f"an Among Cultists setup is a JSON object with players, not {data!r}.")
        allowed = ("rules", "players", "cultists", "seer", "seed", "points_needed", "physical", "names", "start_player")
        unknown = [k for k in data if k not in allowed]
        if unknown:
            raise BadCommand(
                f"unknown setup field(s) {', '.join(map(str, unknown))}; the fields are {', '.join(allowed)}."
            )
        if data.get("rules", RULES) != RULES:
            raise BadCommand(f"this setup is for {data.get('rules')!r}, not {RULES}.")
        if "players" not in data:
            raise BadCommand(f"the setup lacks players; give the number of players ({MIN_PLAYERS} to {MAX_PLAYERS}).")
        names = data.get("names", ())
        cultists = data.get("cultists")
        if cultists == 0 and not isinstance(cultists, bool) and isinstance(data["players"], int):
            cultists = stored_cultists(data["players"])  # the stored form of before: 0 was "from the player count"
        return cls(
            players=data["players"],
            cultists=cultists,
            seer=data.get("seer", False),
            seed=data.get("seed", 0),
            points_needed=data.get("points_needed"),
            physical=data.get("physical", False),
            names=tuple(names) if isinstance(names, (list, tuple)) else names,
            start_player=data.get("start_player", 1),
        )

    def check(self, packs: AmongCultistsPacks | None = None) -> None:
        """BadCommand, naming the field and what to give, when the setup cannot be played."""
        if (
            not isinstance(self.players, int)
            or isinstance(self.players, bool)
            or not MIN_PLAYERS <= self.players <= MAX_PLAYERS
        ):
            raise BadCommand(
                f"Among Cultists is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {self.players!r}."
            )
        if self.cultists is None:
            raise BadCommand(CULTISTS_MISSING)
        if not isinstance(self.cultists, int) or isinstance(self.cultists, bool) or self.cultists not in (1, 2):
            raise BadCommand(f"the game has 1 or 2 cultists, not {self.cultists!r}. {CULTISTS_MISSING}")
        for key in ("seer", "physical"):
            if not isinstance(getattr(self, key), bool):
                raise BadCommand(f"{key} must be true or false, not {getattr(self, key)!r}.")
        validate.seed(self.seed)  # 0 to 2^63-1, or a short text: alike for every game
        if self.points_needed is None:
            raise BadCommand(
                "say how many victory points the investigators need to win: the rules text gives no number, so give "
                f"the one your box's rulebook gives, 1 to {MAX_POINTS}."
            )
        if (
            not isinstance(self.points_needed, int)
            or isinstance(self.points_needed, bool)
            or not 1 <= self.points_needed <= MAX_POINTS
        ):
            raise BadCommand(
                f"points_needed is the investigators' victory points to win, a whole number 1 to "
                f"{MAX_POINTS}, not {self.points_needed!r}."
            )
        if (
            not isinstance(self.start_player, int)
            or isinstance(self.start_player, bool)
            or not 1 <= self.start_player <= self.players
        ):
            raise BadCommand(
                f"start_player is the seat that holds the knife first, 1 to {self.players}, not {self.start_player!r}."
            )
        if not isinstance(self.names, tuple) or not all(isinstance(n, str) for n in self.names):
            raise BadCommand("names must be a list of texts, one per seat.")
        check_names(self.names, self.players, per="seat")

    def seat_names(self) -> list[str]:
        return seat_names(self.names, self.players)

    @property
    def goal(self) -> int:
        """The victory points needed, of a checked setup (check() refuses a setup without them)."""
        if self.points_needed is None:
            self.check()  # refuses it, saying what to give
        return self.points_needed or 0


class Command(CommandBase):
    """One Among Cultists command, as typed (``Command.parse("vote seat=3 last=no")``); args stay strings."""

    names = tuple(COMMANDS)


class LegalAction(LegalActionBase):
    """One thing the table may do now; ``asks`` names what the host still chooses: ``seat`` (or ``none``),
    ``last``, ``n``, ``id`` (an event marker)."""

    command_type = Command


@dataclass(frozen=True)
class RoundEvent:
    """The event of the round (:37): a marker of the pack, or one the host named that the pack lacks."""

    id: str | None
    name: str
    text: str = ""
    placeholder: bool = False

    @classmethod
    def of(cls, marker: EventMarker) -> RoundEvent:
        """The round's event from a marker of the pack; a stand-in's words are not the card's, so none are kept."""
        return cls(marker.id, marker.name, "" if marker.placeholder else marker.text, marker.placeholder)

    @property
    def stand_in(self) -> bool:
        return self.placeholder

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "text": self.text, "stand_in": self.placeholder}


@dataclass
class State:
    phase: str = NIGHT
    round: int = 1
    start_player: int = 1  # a seat, from 1
    vote_used: bool = False  # the vote marker shows its used side (:52, :57)
    body_votes: int = 0  # votes called by a found body and not yet entered (:52)
    voted_out: list[int] = field(default_factory=list)  # seats, in the order they went (:52)
    found_dead: list[int] = field(default_factory=list)  # seats a check found dead (:44, :52)
    votes: list[dict[str, Any]] = field(default_factory=list)  # {"round", "seat", "called", "last"}
    event: RoundEvent | None = None
    bag: list[str] = field(default_factory=list)  # the event markers left in the companion's bag, next one last
    refills: int = 0
    points: int = 0
    winner: str | None = None  # "investigators" | "cultists"
    outcome: Outcome | None = None

    def copy(self) -> State:
        """A copy whose lists may change without touching this one (the values in them are immutable)."""
        new = copy.copy(self)
        new.voted_out = list(self.voted_out)
        new.found_dead = list(self.found_dead)
        new.votes = [dict(v) for v in self.votes]
        new.bag = list(self.bag)
        return new

    def ghosts(self) -> list[int]:
        """The seats whose character is out and who play on as ghosts (:52)."""
        return sorted(set(self.voted_out) | set(self.found_dead))


_bool = arg_bool
_int = arg_int
_choice = arg_choice


# -- the game ------------------------------------------------------------------------------------------------------


class Game(GameHistory[State]):
    """A game of Among Cultists: the setup, the current state and the explicit history of commands."""

    command_type = Command
    command_example = "end-round"
    legal_type = LegalAction
    checked = frozenset(COMMANDS)  # every handler of _Rules marks where its checks end
    rules = RULES

    def __init__(self, setup: Setup, packs: AmongCultistsPacks, state: State) -> None:
        self.setup = setup
        self.packs = packs
        super().__init__(state)
        self.setup_events: list[dict[str, Any]] = []
        # a game stored before the companion ended the game at the victory points (see read_stored) plays on as it
        # was played: the points may pass the goal, and the host records the win with points-win
        self.host_records_points_win = False
        # a game stored while the knife skipped the ghosts (see read_stored) plays on as it was played: a ghost has
        # no character to hold the knife with, nor a place in the order (docs/among-cultists.md, gap 9)
        self.knife_skips_ghosts = False

    @classmethod
    def new(cls, setup: Setup, packs: AmongCultistsPacks, *, knife_skips_ghosts: bool = False) -> Game:
        """Set up a game: the start player holds the knife (:15), the clock stands at round 1, the companion's
        event bag is filled (unless the table draws from its own), and the night comes first (:18)."""
        if not isinstance(setup, Setup):
            raise BadCommand(f"Game.new needs a Setup, not {setup!r}.")
        if not isinstance(packs, AmongCultistsPacks):
            raise BadCommand(f"Game.new needs the Among Cultists packs (load_packs()), not {packs!r}.")
        setup.check(packs)
        s = State(start_player=setup.start_player)
        if not setup.physical:
            s.bag = _filled_bag(setup, packs, 0)
        game = cls(setup, packs, s)
        game.knife_skips_ghosts = knife_skips_ghosts
        game.setup_events = [
            {"type": "night_started", "players": setup.players, "cultists": setup.cultists, "seer": setup.seer}
        ]
        return game

    def _rules(self, state: State, command: Command) -> _Rules:
        return _Rules(self, state, command)

    def read_stored(self, commands: Sequence[CommandBase], events: StoredEvents | None = None) -> Sequence[CommandBase]:
        """The commands of a stored game to push into this new game, in the reading they were played in. Now the game
        ends when the investigators' points reach the goal (:60); a game stored before that, whose score reached
        the goal while more commands followed (the table played on, or the host tapped points-win), plays on in the
        old reading (the host records the win). The commands tell it alone: the score is the sum of the points
        commands, and the reading of now would refuse any command after the one that reaches the goal. The knife
        passes to the next seat, a ghost's too (:52, :57); a game stored while it skipped the ghosts plays on so
        (knife_skips_ghosts): its stored `events` tell it, a knife passed to another seat than the next. Nothing is
        pushed here: every command is left to push."""
        self.knife_skips_ghosts = self.knife_skips_ghosts or _knife_skipped_ghosts(self.setup.players, events)
        needed, score = self.setup.goal, 0
        for i, c in enumerate(commands):
            if c.name == "points-win":
                self.host_records_points_win = True
                break
            if c.name != "points":
                continue
            try:
                score += int(str(c.args.get("n", "0")).strip())
            except ValueError:
                continue  # refused alike in either reading
            if score >= needed and i < len(commands) - 1:
                self.host_records_points_win = True
                break
        return commands

    # -- what may be done ----------------------------------------------------------------------
    def _offers(self) -> list[LegalAction]:
        """What the table may do now; each is accepted by push() once what it `asks` is filled in."""
        s = self._state
        if s.outcome is not None:
            return []
        out: list[LegalAction] = []
        self.offer(out, "round", "night-done")
        self.offer(out, "round", "next-phase")
        self.offer(out, "event", "draw-event")
        self.offer(out, "event", "event", asks=("id",), sample={"id": next(iter(self.packs.events))})
        in_play = self.in_play()
        # :52, :60: the last cultist can be voted out only once the others were; with two, not before a first vote out
        vote_asks = ("seat", "last") if self.last_cultist_possible() else ("seat",)
        self.offer(out, "vote", "vote", asks=vote_asks, sample={"seat": NOBODY})
        self.offer(out, "vote", "vote", {"called": BODY}, asks=vote_asks, sample={"seat": NOBODY})
        if in_play:
            self.offer(out, "table", "found-dead", asks=("seat",), sample={"seat": str(in_play[0])})
        self.offer(out, "table", "points", asks=("n",), sample={"n": "1"})
        self.offer(out, "round", "end-round")
        self.offer(out, "table", "points-win")
        self.offer(out, "table", "cultists-win")
        return out

    def last_cultist_possible(self) -> bool:
        """Whether a vote now could put out the last cultist: :60 has the investigators win when they "alle Kultisten
        durch Abstimmung aus dem Spiel genommen" have, so with two cultists one must already be voted out; the
        companion knows no roles, so it asks only that someone was voted out before (a reading,
        docs/among-cultists.md)."""
        return len(self._state.voted_out) >= (self.setup.cultists or 1) - 1  # checked: 1 or 2

    def in_play(self) -> list[int]:
        """The seats whose character is still on the board (not voted out, not found dead)."""
        out = set(self._state.ghosts())
        return [seat for seat in range(1, self.setup.players + 1) if seat not in out]

    def order(self) -> list[int]:
        """The seats in player order this round, from the start player (:34); a ghost keeps its place, for a player
        voted out "spielt ab jetzt als Geist weiter" (:52) and the text takes nobody out of the order."""
        s = self._state
        seats = [(s.start_player - 1 + i) % self.setup.players + 1 for i in range(self.setup.players)]
        if self.knife_skips_ghosts:  # a game stored before: a ghost had no place in the order
            ghosts = set(s.ghosts())
            return [seat for seat in seats if seat not in ghosts]
        return seats

    # -- reading -------------------------------------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        """What everyone at the table may see, JSON-safe. No role is in it: the companion knows none."""
        s = self._state
        names = self.setup.seat_names()
        voted, dead = set(s.voted_out), set(s.found_dead)
        return {
            "rules": RULES,
            "players": self.setup.players,
            "player_names": names,
            "seats": [
                {
                    "seat": seat,
                    "name": names[seat - 1],
                    "start": seat == s.start_player,
                    "out": "voted" if seat in voted else ("dead" if seat in dead else None),
                }
                for seat in range(1, self.setup.players + 1)
            ],
            "cultists": self.setup.cultists,
            "seer": self.setup.seer,
            "physical": self.setup.physical,
            "round": s.round,
            "rounds": ROUNDS,
            "rounds_left": ROUNDS - s.round,
            "phase": s.phase,
            "clock": CLOCK[s.round - 1],
            "start_player": s.start_player,
            "current_player": None,  # each phase is played by everyone (:34, :40); the order is "order"
            "order": self.order(),
            "eliminated": list(s.voted_out),
            "found_dead": list(s.found_dead),
            "ghosts": s.ghosts(),
            "vote_used": s.vote_used,
            "body_votes": s.body_votes,
            "votes": [dict(v) for v in s.votes],
            "event": s.event.to_dict() if s.event else None,
            "events_left": None if self.setup.physical else len(s.bag),
            "points": s.points,
            "points_needed": self.setup.points_needed,
            "winner": s.winner,
            "outcome": s.outcome.result if s.outcome else None,
            "outcome_reason": s.outcome.reason if s.outcome else None,
            "history_length": len(self._stack),
        }

    def __repr__(self) -> str:
        s = self._state
        return f"<AmongCultists {self.setup.players}p round {s.round} {s.phase} points {s.points}>"


def _knife_skipped_ghosts(players: int, events: StoredEvents | None) -> bool:
    """Whether a stored game's knife passed by a seat (a ghost's, as the companion read it before): a stored
    start_player_passed event whose seat is not the next one after the seat that held it. None where the events are
    not known, and a game whose knife never came to a ghost, play by the rule of now (both readings passed it alike)."""
    for told in events or ():
        for event in told:
            seat = event.get("seat")
            if (
                event.get("type") == "start_player_passed"
                and isinstance(seat, int)
                and event.get("to") != seat % players + 1
            ):
                return True
    return False


def _filled_bag(setup: Setup, packs: AmongCultistsPacks, refills: int) -> list[str]:
    """Every event marker of the pack, shuffled by the seed; the next one drawn is the last."""
    bag = sorted(packs.events)
    random.Random(f"{setup.seed}:events:{refills}").shuffle(bag)
    return bag


# -- the rules ---------------------------------------------------------------------------------------------------


class _Rules(RulesBase[State, Command]):
    """Applies one command to a copy of the state, collecting its events."""

    def __init__(self, game: Game, state: State, cmd: Command) -> None:
        super().__init__(state, cmd)
        self.game = game
        self.setup = game.setup
        self.packs = game.packs

    def run(self) -> None:
        cmd = self.cmd
        check_args(cmd, COMMANDS)
        if self.s.outcome is not None:
            raise IllegalCommand(
                f"the game is over: the {self.s.winner} have won ({self.s.outcome.reason}). Undo "
                "the last command if it was a mistake, or start a new game."
            )
        getattr(self, "do_" + cmd.name.replace("-", "_"))()

    def need_phase(self, *phases: str, doing: str) -> None:
        """The phase a command belongs to; the refusal says which phase it is and what comes next."""
        phase = self.s.phase
        if phase in phases:
            return
        wanted = " or ".join(_PHASE_WORDS[p] for p in phases)
        if phase == NIGHT:
            self.illegal(
                f"{doing} belongs to the {wanted}, and the night is not over yet; when everyone has "
                "opened their eyes, end the night (:18)."
            )
        self.illegal(f"{doing} belongs to the {wanted}; this is the {_PHASE_WORDS[phase]} of round {self.s.round}.")

    def end(self, winner: str, reason: str) -> None:
        s = self.s
        s.winner = winner
        s.phase = OVER
        s.outcome = Outcome("won" if winner == "investigators" else "lost", reason)
        self.emit(
            "game_won" if winner == "investigators" else "game_lost",
            reason=reason,
            winner=winner,
            round=s.round,
            points=s.points,
            needed=self.setup.goal,
        )

    def seat_arg(self, allow_nobody: bool) -> int | None:
        text = self.cmd.args["seat"].strip().lower()
        if allow_nobody and text in (NOBODY, "nobody", "0", "tie"):
            return None
        seat = _int(self.cmd, "seat", 1, self.setup.players)
        if seat in self.s.voted_out:
            self.illegal(
                f"seat {seat}'s character was already voted out and plays on as a ghost (:52); "
                "name a player whose character is still in play."
            )
        if seat in self.s.found_dead:
            self.illegal(
                f"seat {seat}'s character was already found dead and plays on as a ghost; "
                "name a player whose character is still in play."
            )
        return seat

    # -- the night and the phases -------------------------------------------------------------------
    def do_night_done(self) -> None:
        """:18-24: the night comes once, at the start; then round 1 begins with its movement phase."""
        s = self.s
        if s.phase != NIGHT:
            self.illegal("the night comes only once, at the start of the game (:18), and it is over.")
        if self.checking:
            return
        self.emit("night_ended")
        self.start_round()

    def start_round(self) -> None:
        s = self.s
        s.phase = MOVEMENT
        self.emit("round_started", round=s.round, rounds=ROUNDS, clock=CLOCK[s.round - 1], start_player=s.start_player)
        self.emit("phase_started", phase=MOVEMENT, round=s.round, start_player=s.start_player)

    def do_next_phase(self) -> None:
        """:26-31: movement, event, action, clean-up, in that order; the clean-up is done by ending the round."""
        s = self.s
        if s.phase == NIGHT:
            self.illegal("the night comes first (:18); when everyone has opened their eyes, end the night.")
        if s.phase == CLEANUP:
            self.illegal("this is the clean-up, the last phase of the round; end the round to go on (:57).")
        if s.phase == EVENT and s.event is None:
            self.illegal("the event of the round is not drawn yet (:37); draw it, or enter the marker the table drew.")
        if s.phase == ACTION:
            self.need_no_body_vote()
        if self.checking:
            return
        s.phase = PHASES[PHASES.index(s.phase) + 1]
        self.emit("phase_started", phase=s.phase, round=s.round, start_player=s.start_player)

    def need_no_body_vote(self) -> None:
        if self.s.body_votes:
            self.illegal("a character was found dead, and that calls a vote (:52); enter its result first.")

    # -- the event ------------------------------------------------------------------------------------------
    def need_event_open(self, table: bool = False) -> None:
        """One marker a round (:37); the marker the table drew may still replace a stand-in the companion drew
        (it names no effect of its own: the host enters the real one)."""
        self.need_phase(EVENT, doing="the event marker")
        s = self.s
        if table and s.event is not None and s.event.stand_in:
            return
        if s.event is not None:
            self.illegal(
                f"this round's event is already {s.event.name}; one marker a round (:37). Undo if it was the wrong one."
            )

    def do_draw_event(self) -> None:
        """:37: a marker from the bag; the companion's bag is refilled with every marker once it is empty."""
        self.need_event_open()
        s = self.s
        if self.setup.physical:
            self.illegal("this table draws the event markers from its own bag; enter the marker that was drawn.")
        if self.checking:
            return
        if not s.bag:
            s.refills += 1
            s.bag = _filled_bag(self.setup, self.packs, s.refills)
            self.emit("events_refilled", count=len(s.bag))
        marker = self.packs.events[s.bag.pop()]
        self.set_event(RoundEvent.of(marker), "companion")

    def do_event(self) -> None:
        """:37: the host enters the marker the table drew: by its id in the pack, or by a name the pack lacks."""
        self.need_event_open(table=True)
        s = self.s
        has_id, has_name = "id" in self.cmd.args, "name" in self.cmd.args
        if has_id == has_name:
            raise BadCommand(
                "event: give the marker drawn, either id=ID (an event of the pack) or name=TEXT (one the pack lacks)."
            )
        if has_id:
            ident = self.cmd.args["id"].strip()
            if ident not in self.packs.events:
                raise BadCommand(
                    f"event: unknown event {ident!r}; the pack's events are: {', '.join(self.packs.events)}. "
                    "Give name=TEXT for one the pack lacks."
                )
            taken: str | None = ident
            event = RoundEvent.of(self.packs.events[ident])
        else:
            name = self.cmd.args["name"].strip()
            if not name or len(name) > 60 or validate.control_character(name):
                raise BadCommand("event: give the marker's name, 1 to 60 letters.")
            known = next((m for m in self.packs.events.values() if m.name.casefold() == name.casefold()), None)
            taken = known.id if known is not None else None
            event = RoundEvent.of(known) if known is not None else RoundEvent(None, name)
        if self.checking:
            return
        if taken is not None and taken in s.bag:
            s.bag.remove(taken)  # the marker is out of the bag now, as at the table
        self.set_event(event, "table")

    def set_event(self, event: RoundEvent, by: str) -> None:
        s = self.s
        s.event = event
        self.emit(
            "event_drawn", round=s.round, by=by, left=None if self.setup.physical else len(s.bag), **event.to_dict()
        )

    # -- the vote ---------------------------------------------------------------------------------------------
    def do_vote(self) -> None:
        """:52: the vote is a room action of the cafeteria, once a round (the vote marker); everyone points at
        once and a simple majority puts that character out (a tie or no majority: nobody). A found body calls a
        vote of its own, which does not use the marker. The last cultist voted out wins for the investigators."""
        s = self.s
        called = _choice(self.cmd, "called", (CAFETERIA, BODY)) if "called" in self.cmd.args else CAFETERIA
        self.need_phase(ACTION, doing="a vote")
        if called == CAFETERIA and s.vote_used:
            self.illegal(
                "the vote was already held this round: it is held only once a round, in the cafeteria "
                "(:52). The vote marker turns back in the clean-up (:57)."
            )
        if called == BODY and not s.body_votes:
            self.illegal(
                "no character was found dead this phase, so no vote is called by a body (:52); the "
                "cafeteria vote is the other way to vote."
            )
        seat = self.seat_arg(allow_nobody=True)
        last = _bool(self.cmd, "last") if "last" in self.cmd.args else False
        if last and seat is None:
            raise BadCommand(
                "vote: last=yes says the player voted out revealed the last cultist; give that "
                "player's seat, or last=no when nobody was voted out."
            )
        if last and not self.game.last_cultist_possible():
            self.illegal(
                f"this game has {self.setup.cultists} cultists and nobody has been voted out yet, so this "
                "vote cannot put out the last of them (:52, :60: the investigators win when every cultist is "
                "voted out). A cultist voted out while another remains does not reveal: enter the vote "
                "without the last cultist."
            )
        if self.checking:
            return
        if called == CAFETERIA:
            s.vote_used = True
        else:
            s.body_votes -= 1
        if seat is not None:
            s.voted_out.append(seat)
        s.votes.append({"round": s.round, "seat": seat, "called": called, "last": last})
        self.emit("vote", round=s.round, seat=seat, called=called, last=last)
        if last:
            self.end("investigators", "the last cultist is voted out of the game")

    def do_found_dead(self) -> None:
        """:44, :52: a check of a character's condition finds them dead: they play on as a ghost, and a vote is
        called (entered with the body's vote)."""
        s = self.s
        self.need_phase(ACTION, doing="checking a character's condition")
        seat = self.seat_arg(allow_nobody=False)
        assert seat is not None
        if self.checking:
            return
        s.found_dead.append(seat)
        s.body_votes += 1
        self.emit("found_dead", seat=seat, round=s.round, ghosts=len(s.ghosts()))

    # -- the score and the end -------------------------------------------------------------------------------------
    def do_points(self) -> None:
        """:51: the investigators score victory points; :60: they win when they "innerhalb der maximalen Rundenanzahl
        ausreichend viele Siegpunkte erzielt haben", so the points that reach the goal end the game at once (an undo
        takes a point entered by mistake back, and the game with it). A game stored before this reading plays on as
        it was played (Game.read_stored): the host recorded the win with points-win."""
        s = self.s
        if s.phase == NIGHT:
            self.illegal("no victory points are scored in the night; end the night first (:18).")
        n = _int(self.cmd, "n", -MAX_POINTS, MAX_POINTS)
        if n == 0:
            raise BadCommand("points: n=0 changes nothing; give the points won, such as n=2, or lost, such as n=-1.")
        if s.points + n < 0:
            self.illegal(
                f"the investigators have {s.points} victory point{'' if s.points == 1 else 's'}; they cannot lose {-n}."
            )
        if self.checking:
            return
        s.points += n
        self.emit("points", points=s.points, change=n, needed=self.setup.goal)
        if s.points >= self.setup.goal and not self.game.host_records_points_win:
            self.points_won()  # :60: the goal reached within the rounds is the investigators' win, at once

    def do_points_win(self) -> None:
        """The win by points recorded by the host, as games stored before the points ended the game at once were
        played (Game.read_stored); now the points that reach the goal end the game themselves (do_points)."""
        s = self.s
        if s.phase == NIGHT:
            self.illegal("no victory points are scored in the night; end the night first (:18).")
        if not self.game.host_records_points_win:
            self.illegal(
                "the game ends by itself when the investigators' points reach the goal (:60); add the points they "
                "scored."
            )
        needed = self.setup.goal
        if s.points < needed:
            self.illegal(
                f"the investigators have {s.points} of the {needed} victory points they need; add the points "
                "they scored first, or play on."
            )
        if self.checking:
            return
        self.points_won()

    def points_won(self) -> None:
        self.end("investigators", f"{self.s.points} victory points within {ROUNDS} rounds")

    def do_cultists_win(self) -> None:
        """:60: the cultists win by removing a number of investigators the review does not give; the host ends
        the game when the table sees that it is reached."""
        if self.s.phase == NIGHT:
            self.illegal("no one is removed in the night; end the night first (:18).")
        if self.checking:
            return
        self.end("cultists", "enough investigators have been removed")

    def do_end_round(self) -> None:
        """:57: the clean-up: the vote marker turns to its active side; after round 10 the game ends (the cultists
        win unless the investigators have the points needed); else the start player's knife passes on and the
        clock moves one hour."""
        s = self.s
        self.need_phase(ACTION, CLEANUP, doing="ending the round")
        if s.phase == ACTION:
            self.need_no_body_vote()
        if self.checking:
            return
        if s.phase == ACTION:
            s.phase = CLEANUP
            self.emit("phase_started", phase=CLEANUP, round=s.round, start_player=s.start_player)
        if s.vote_used:
            s.vote_used = False
            self.emit("vote_marker_reset", round=s.round)
        self.emit("round_ended", round=s.round)
        if s.round >= ROUNDS:
            if s.points >= self.setup.goal:
                self.points_won()
            else:
                self.end(
                    "cultists",
                    f"the {ROUNDS} rounds are over with {s.points} of {self.setup.goal} "
                    "victory points: the investigation was sabotaged long enough",
                )
            return
        # :37 the event lasts its round: cleared for the next one; a game ended by round 10 keeps the last round's
        # marker, so the end card names the event that was drawn
        s.event = None
        before = s.start_player
        s.start_player = self.next_seat(before)
        self.emit("start_player_passed", seat=before, to=s.start_player)
        s.round += 1
        self.emit("clock_advanced", round=s.round, clock=CLOCK[s.round - 1])
        self.start_round()

    def next_seat(self, seat: int) -> int:
        """The next seat round the table: :57 says only "das Startspieler-Messer weitergereicht", and a ghost plays
        on (:52), so the knife skips nobody (docs/among-cultists.md, gap 9). A game stored while the knife skipped the
        ghosts (Game.knife_skips_ghosts) passes it to the next seat whose character is in play, as it was played."""
        players = self.setup.players
        if self.game.knife_skips_ghosts:
            ghosts = set(self.s.ghosts())
            for step in range(1, players + 1):
                nxt = (seat - 1 + step) % players + 1
                if nxt not in ghosts:
                    return nxt
        return seat % players + 1


_PHASE_WORDS = {
    NIGHT: "night",
    MOVEMENT: "movement phase",
    EVENT: "event phase",
    ACTION: "action phase",
    CLEANUP: "clean-up",
    OVER: "end of the game",
}
