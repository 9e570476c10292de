"""The rules core of Spooks: a score pad and rules reminder, pure, checked, with an explicit history and exact replay.

    from companion.games.spooks.engine import Game, Setup, Command

    game = Game.new(Setup(players=3, names=("Ada", "Bo", "Cy")), None)
    game.push("top suit=spiders number=8")       # BadCommand / IllegalCommand; the state is unchanged on error
    game.push("hand points=0,14,31")             # one hand's points in seat order; the deal moves on
    game.push("hand cards=;5+9+M;cat+10")         # the same, from the cards left in each hand
    game.pop()                                   # undo the last command
    game.view()                                  # JSON-safe, for the page and the OLED

The companion does not follow the cards played; the table tells it the top card of the discard pile, the Masters
played (their optional effects) and the cards left at the end of each hand. Nothing here does I/O, reads a clock or
draws a random number. Seats are numbered from 1 in the order play normally goes round the table.

The rules text is a damaged extraction (two long lines); the comments cite it by a short fragment copied exactly
as it stands there, between guillemets: «until three players are left». docs/spooks.md lists the gaps and the
readings chosen.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NoReturn

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
from companion.words import listed

__all__ = [
    "CARD_POINTS",
    "CAT",
    "COMMANDS",
    "LOSS_LIMIT",
    "MASTER",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "SUITS",
    "VARIANTS",
    "Command",
    "Game",
    "LegalAction",
    "Outcome",
    "Setup",
    "State",
    "RULES",
    "card_value",
    "deck_points",
    "follow",
    "hand_points",
    "lasting_master",
    "parse_cards",
    "rank_of",
]

RULES = "spooks"
SUITS = ("spiders", "spooks", "goblins", "bones", "bats")  # «Spiders, Spooks, Goblins,Bones, and Bats»
MASTER = "M"
CAT = "cat"  # «one BlackCat card»
NUMBERS = tuple(range(1, 11))  # «1 through 10, plus the Master»
MIN_PLAYERS = 3  # «a card game for 3 or more players»
MAX_PLAYERS = 10  # the text sets no upper bound: ten keeps five cards a hand with one deck (docs/spooks.md)
LOSS_LIMIT = 200  # «When one person hits 200»
LAST_THREE = 3  # «until three players are left»
DECKS = (1, 2)  # «simply combine two decks!»
VARIANTS = ("short", "long")  # «or a longer game:»
# «CardPoints1-10face valueM20Cat30»: what one card left in a losing hand costs
CARD_POINTS: Mapping[str, int] = MappingProxyType({**{str(n): n for n in NUMBERS}, MASTER: 20, CAT: 30})
_CARD_SPELLINGS: Mapping[str, str] = MappingProxyType(
    {
        **{str(n): str(n) for n in NUMBERS},
        "m": MASTER,
        "master": MASTER,
        "cat": CAT,
        "c": CAT,
        "blackcat": CAT,
        "black-cat": CAT,
    }
)
# the Masters whose effect lasts (the rest happen once, when the Master is played): «The Bones and Bats effects
# last until the end ofthe game»
LASTING = ("bones", "bats")
# how long those effects last: «The Bones and Bats effects last until the end ofthe game» (the default), or, as the
# table may agree, until the hand ends (docs/spooks.md)
LASTING_FOR = ("game", "hand")
OUT = "-"  # a seat already out, in `hand points=` and `hand cards=`

# name -> (required args, optional args, what it does)
COMMANDS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...], str]] = MappingProxyType(
    {
        "hand": (
            (),
            ("points", "cards", "winner"),
            "a hand is over: its points per seat (points=A,B,C or cards=5+9+M;;cat+10); the deal moves on",
        ),
        "top": (
            ("suit",),
            ("number", "effect"),
            "the top card of the discard pile (suit=spiders number=8, or suit=cat); a Master with the Masters' "
            "effects: effect=yes when it was played normally (its effect happens), effect=no in a Goblin trick",
        ),
        "master": (("suit",), ("seat",), "a Master was played normally, with its optional effect"),
        "end": ((), (), "the hand is given up without a score (a misdeal): the deal moves on"),
    }
)


# -- the cards (one place for each rule) --------------------------------------------------------------------------


def card_value(token: str) -> str:
    """A card's value as written: "1".."10", "M" (a Master, also "m" or "master") or "cat" (the Black Cat)."""
    text = str(token).strip().lower().replace(" ", "")
    if text not in _CARD_SPELLINGS:
        raise BadCommand(
            f"the card {token!r} is not one of the game's; write 1 to 10, M for a Master or cat for the Black Cat."
        )
    return _CARD_SPELLINGS[text]


def hand_points(cards: Iterable[str]) -> int:
    """What the cards left in a losing hand count: 1-10 their face value, a Master 20, the Black Cat 30."""
    return sum(CARD_POINTS[card_value(card)] for card in cards)


def deck_points(decks: int = 1) -> int:
    """Every card of the deck(s) counted (the most a hand can cost a player): 405 for one deck."""
    per_suit = sum(NUMBERS) + CARD_POINTS[MASTER]
    return decks * (len(SUITS) * per_suit + CARD_POINTS[CAT])


def hand_most(decks: int = 1) -> int:
    """The most points the losing hands can hold together (so one hand too): every card of the deck(s) but the
    1 of Spiders, which the player on the dealer's left «plays it to start the game»: 404 for one deck."""
    return deck_points(decks) - CARD_POINTS["1"]


def copies(value: str, decks: int) -> int:
    """How many cards of a value the deck(s) hold: each number and the Master once per suit, one Cat per deck."""
    return decks * (1 if value == CAT else len(SUITS))


def parse_cards(text: str) -> list[str]:
    """ "5+9+M" -> ["5", "9", "M"]; "" (the player who went out) -> []."""
    return [card_value(part) for part in str(text).split("+") if part.strip()]


def rank_of(number: str) -> int:
    """The place of a card in a suit's sequence: 1..10, then the Master («9…10…M»)."""
    return 11 if number == MASTER else int(number)


def _number_of(rank: int) -> str | None:
    if 1 <= rank <= 10:
        return str(rank)
    return MASTER if rank == 11 else None


def _top_master(command: CommandBase) -> bool:
    """Whether a stored command sets a Master of a suit as the top card."""
    if command.name != "top" or command.args.get("suit", "").strip().lower() == CAT:
        return False
    try:
        return card_value(command.args.get("number", "")) == MASTER
    except BadCommand:
        return False


def _stored_points(command: CommandBase) -> int:
    """The points a stored `hand` command gives all the hands together, as written (0 where it cannot be read:
    such a command is refused for that, not for its points)."""
    try:
        if "points" in command.args:
            return sum(int(part) for part in command.args["points"].split(",") if part.strip() not in ("", OUT))
        return sum(
            hand_points(parse_cards(part)) for part in command.args.get("cards", "").split(";") if part.strip() != OUT
        )
    except (ValueError, BadCommand):
        return 0


def card_words_short(suit: str) -> str:
    """ "The Master of Bones", for a refusal."""
    return f"the Master of {suit.title()}"


def lasting_master(suit: str) -> bool:
    return suit in LASTING


def follow(suit: str | None, number: str | None, backward: bool = False) -> dict[str, Any]:
    """What may be played on the top card (data; companion.games.spooks.sentences says it in words).

    ``rule`` is "lead" (no top card), "any" (the Black Cat), "sequence" (Spiders, Spooks: ``next`` is the number
    that follows, None when none can; ``step`` "up", or "down" while runs go backward), "trick" (Goblins:
    ``lowest_wins`` while runs go backward) or "match" (Bones, Bats: ``number``, any suit, or any card of ``suit``).
    The Black Cat may be played on any card («It can be played on any card.»)."""
    if suit is None:
        return {"rule": "lead", "suit": None, "number": None}
    if suit == CAT:
        return {"rule": "any", "suit": CAT, "number": None}  # «The next player can then play any card he chooses»
    assert number is not None
    if suit in ("spiders", "spooks"):  # «SpidersNext number in sequence», «SpooksNext number in sequence»
        step = -1 if backward else 1  # «played backwardin sequence, so low numbers areplayed on high ones»
        return {
            "rule": "sequence",
            "suit": suit,
            "number": number,
            "step": "down" if backward else "up",
            "next": _number_of(rank_of(number) + step),
        }
    if suit == "goblins":  # «GreenGoblinsPlay a trickŽ round»
        return {"rule": "trick", "suit": suit, "number": number, "lowest_wins": backward}
    # «BonesPlay the number OR the same suit»; Bats' column is lost («BatsPlay the TM»): read as Bones'
    return {"rule": "match", "suit": suit, "number": number}


# -- values ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    """What the table chose before the first hand."""

    players: int
    names: tuple[str, ...] = ()  # one per seat, in the order play goes; empty: "Player 1" ...
    decks: int = 1
    variant: str = "short"
    master_effects: bool = False  # the optional rule «add these effects forMaster cards»
    dealer: int = 1  # the seat (from 1) that deals the first hand
    loss_limit: int = LOSS_LIMIT
    master_lasting: str = "game"  # LASTING_FOR: the Bones and Bats effects last the game (the text) or the hand

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rules": RULES,
            "players": self.players,
            "decks": self.decks,
            "variant": self.variant,
            "master_effects": self.master_effects,
            "dealer": self.dealer,
            "loss_limit": self.loss_limit,
            "master_lasting": self.master_lasting,
        }
        if self.names:
            out["names"] = list(self.names)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Setup:
        if not isinstance(data, Mapping):
            raise BadCommand(f"a Spooks setup is a JSON object with players, not {data!r}.")
        allowed = (
            "rules",
            "players",
            "names",
            "decks",
            "variant",
            "master_effects",
            "dealer",
            "loss_limit",
            "master_lasting",
        )
        unknown = [k for k in data if k not in allowed]
        if unknown:
            raise BadCommand(
                f"unknown setup field(s) {', '.join(map(str, unknown))}; the fields are {', '.join(allowed)}."
            )
        if data.get("rules", RULES) != RULES:
            raise BadCommand(f"this setup is for {data.get('rules')!r}, not {RULES}.")
        names = data.get("names", ())
        names = tuple(names) if isinstance(names, (list, tuple)) else names
        if "players" not in data:
            if not names:
                raise BadCommand("the setup lacks players; give the number of players or their names.")
            players: Any = len(names)
        else:
            players = data["players"]
        return cls(
            players=players,
            names=names,
            decks=data.get("decks", 1),
            variant=data.get("variant", "short"),
            master_effects=data.get("master_effects", False),
            dealer=data.get("dealer", 1),
            loss_limit=data.get("loss_limit", LOSS_LIMIT),
            master_lasting=data.get("master_lasting", "game"),
        )

    def check(self) -> None:
        def whole(value: Any) -> bool:
            return isinstance(value, int) and not isinstance(value, bool)

        if not whole(self.players) or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise BadCommand(f"Spooks is played by {MIN_PLAYERS} to {MAX_PLAYERS} players here, not {self.players!r}.")
        if not isinstance(self.names, tuple) or not all(isinstance(n, str) for n in self.names):
            raise BadCommand("names must be a list of texts, one per player.")
        check_names(self.names, self.players)
        if not whole(self.decks) or self.decks not in DECKS:
            raise BadCommand(f"Spooks is played with 1 deck or 2 decks combined, not {self.decks!r}.")
        if self.variant not in VARIANTS:
            raise BadCommand(
                f"the variant is short (the first to reach the limit loses) or long (players drop out "
                f"until three are left), not {self.variant!r}."
            )
        if not isinstance(self.master_effects, bool):
            raise BadCommand(f"master_effects must be true or false, not {self.master_effects!r}.")
        if self.master_lasting not in LASTING_FOR:
            raise BadCommand(
                f"master_lasting says how long the Bones and Bats effects last: game (until the end of "
                f"the game, as the rules say) or hand (until the hand ends), not {self.master_lasting!r}."
            )
        if not whole(self.dealer) or not 1 <= self.dealer <= self.players:
            raise BadCommand(f"the first dealer is a seat 1 to {self.players}, not {self.dealer!r}.")
        if not whole(self.loss_limit) or not 1 <= self.loss_limit <= 10000:
            raise BadCommand(
                f"the loss limit is a whole number of points 1 to 10000 (the rules say {LOSS_LIMIT}), "
                f"not {self.loss_limit!r}."
            )

    def seat_names(self) -> list[str]:
        return seat_names(self.names, self.players)


class Command(CommandBase):
    """One Spooks command, as typed (``Command.parse("hand points=0,14,31")``); args stay strings."""

    names = tuple(COMMANDS)


class LegalAction(LegalActionBase):
    """One thing the table may do now; ``asks`` names what the caller still fills in (``points``, ``cards``,
    ``number``)."""

    command_type = Command


@dataclass
class State:
    scores: list[int] = field(default_factory=list)  # per seat, in seat order
    hands: list[list[int | None]] = field(default_factory=list)  # per hand, points per seat (None: out then)
    hand_winners: list[int] = field(default_factory=list)  # per hand, the seat that went out
    dealer: int = 1  # seat from 1
    out: list[int] = field(default_factory=list)  # seats grabbed in the long game, in the order they dropped out
    backward: bool = False  # Spooks and Spiders runs go backward (Master of Bats), until the game (or hand) ends
    reversed: bool = False  # the direction of play is reversed (Master of Bones), until the game (or hand) ends
    masters: dict[str, int] = field(default_factory=dict)  # suit -> Masters played normally this hand
    top: tuple[str, str | None] | None = None  # (suit or "cat", number or None)
    winners: list[int] = field(default_factory=list)
    losers: list[int] = field(default_factory=list)
    outcome: Outcome | None = None

    def copy(self) -> State:
        new = copy.copy(self)
        new.scores = list(self.scores)
        new.hands = [list(h) for h in self.hands]
        new.hand_winners = list(self.hand_winners)
        new.out = list(self.out)
        new.masters = dict(self.masters)
        new.winners = list(self.winners)
        new.losers = list(self.losers)
        return new


def in_force(s: State) -> list[str]:
    """The suits whose Master's lasting effect is in force now ("bones": play reversed, "bats": runs backward)."""
    return [suit for suit, on in (("bones", s.reversed), ("bats", s.backward)) if on]


def direction_of(reversed_: bool) -> str:
    """The way play goes round the table: counterclockwise, clockwise after a Master of Bones («The direction of
    play reverses. Regular play now goesclockwise.»)."""
    return "clockwise" if reversed_ else "counterclockwise"


# -- the game ------------------------------------------------------------------------------------------------------


class Game(GameHistory[State]):
    """A game of Spooks: the setup, the current state and the explicit history of commands."""

    command_type = Command
    command_example = "hand points=0,5,9"
    legal_type = LegalAction
    checked = frozenset(COMMANDS)  # every handler of _Rules marks where its checks end
    rules = RULES

    def __init__(self, setup: Setup, state: State) -> None:
        self.setup = setup
        self.packs = None
        super().__init__(state)
        self.setup_events: list[dict[str, Any]] = []
        # a game stored before a Master set as the top card asked whether its effect was played (see read_stored):
        # such a Master on top changed nothing, and the effect came only with the `master` command
        self.top_master_without_effect = False
        # a game stored before the companion refused a hand the deck cannot hold (see read_stored) keeps its stored
        # hands as they were played then: a hand counted 0 to every point of the deck(s), with no bound for all the
        # hands together. How many of the commands were played so (None: every one); the rest are bound as now
        self.uncapped_length: int | None = 0

    @classmethod
    def new(cls, setup: Setup, packs: Any = None) -> Game:
        """A new game: every score 0, the first dealer's deal, no top card yet."""
        if not isinstance(setup, Setup):
            raise BadCommand(f"Game.new needs a Setup, not {setup!r}.")
        setup.check()
        return cls(setup, State(scores=[0] * setup.players, dealer=setup.dealer))

    def _rules(self, state: State, command: Command) -> _Rules:
        return _Rules(self, state, command)

    def read_stored(self, commands: Sequence[CommandBase], events: StoredEvents | None = None) -> Sequence[CommandBase]:
        """The commands of a stored game to push into this new game, in the reading they were played in. Now a
        Master set as the top card with the Masters' effects says whether its effect was played (``effect=``,
        «A special effect happens only if the Master is playednormally»); a game stored before, with such a
        ``top`` without ``effect=``, plays on as it was played: the Master on top changed nothing."""
        if self.setup.master_effects and any(_top_master(c) and "effect" not in c.args for c in commands):
            self.top_master_without_effect = True
        # a stored hand above what the deck holds (its opening 1 of Spiders on the pile) was taken before the
        # companion refused it: the stored history is bound as it was then
        if any(c.name == "hand" and _stored_points(c) > hand_most(self.setup.decks) for c in commands):
            self.uncapped_length = len(commands)
        return commands

    def deck_capped(self) -> bool:
        """Whether the command being pushed is bound by the deck's points (:func:`hand_most`): every one but a
        stored history's played before that bound (see read_stored)."""
        return self.uncapped_length is not None and len(self._stack) >= self.uncapped_length

    # -- what may be done ----------------------------------------------------------------------
    def _offers(self) -> list[LegalAction]:
        """What the table may do now; each is accepted by push() once what it `asks` is filled in."""
        if self._state.outcome is not None:
            return []
        out: list[LegalAction] = []
        seats_in = self.seats_in()
        sample_points = ",".join("0" if i == 0 else "1" for i in range(len(seats_in)))

        self.offer(out, "hand", "hand", asks=("points",), sample={"points": sample_points})
        self.offer(
            out,
            "hand",
            "hand",
            asks=("cards",),
            sample={"cards": ";".join("" if p == "0" else "1" for p in sample_points.split(","))},
        )
        for suit in SUITS:
            self.offer(out, "top", "top", {"suit": suit}, asks=("number",), sample={"number": "1"})
        self.offer(out, "top", "top", {"suit": CAT})
        for suit in SUITS:
            self.offer(out, "master", "master", {"suit": suit})
        self.offer(out, "hand", "end")
        return out

    # -- reading -------------------------------------------------------------------------------------------
    def seats_in(self) -> list[int]:
        return [seat for seat in range(1, self.setup.players + 1) if seat not in self._state.out]

    def follow(self) -> dict[str, Any]:
        """What may be played on the top card now (:func:`follow` with the runs' direction in force)."""
        top = self._state.top
        return follow(top[0] if top else None, top[1] if top else None, self._state.backward)

    def view(self) -> dict[str, Any]:
        """What everyone at the table may see, JSON-safe."""
        from companion.games.spooks.sentences import may_play

        s = self._state
        top = {"suit": s.top[0], "number": s.top[1]} if s.top else None
        return {
            "rules": RULES,
            "players": self.setup.players,
            "names": self.setup.seat_names(),
            "player_names": self.setup.seat_names(),
            "variant": self.setup.variant,
            "decks": self.setup.decks,
            "master_effects": self.setup.master_effects,
            "master_lasting": self.setup.master_lasting,
            "loss_limit": self.setup.loss_limit,
            "hand": len(s.hands) + 1,
            "scores": list(s.scores),
            "hands": [list(h) for h in s.hands],
            "hand_winners": list(s.hand_winners),
            "dealer": s.dealer,
            "out": list(s.out),
            "seats_in": self.seats_in(),
            "direction": direction_of(s.reversed),
            "backward_runs": s.backward,
            "masters": in_force(s),
            "masters_played": dict(s.masters),
            "top": top,
            "follow": self.follow(),
            "may_play": may_play(self.follow(), self.setup.master_effects, s.reversed),
            "outcome": s.outcome.result if s.outcome else None,
            "outcome_reason": s.outcome.reason if s.outcome else None,
            "winner": s.winners[0] if len(s.winners) == 1 else None,
            "winners": list(s.winners),
            "losers": list(s.losers),
            "current_player": None,  # the companion does not follow the cards played, so not whose turn it is
            "history_length": len(self._stack),
        }

    def __repr__(self) -> str:
        return f"<Spooks {self.setup.players}p {self.setup.variant} hand {len(self._state.hands) + 1} {self._state.scores}>"


# -- the rules ---------------------------------------------------------------------------------------------------


class _Rules(RulesBase[State, Command]):
    """Applies one command to a copy of the state, collecting its events."""

    def __init__(self, game: Game, state: State, cmd: Command) -> None:
        super().__init__(state, cmd)
        self.game = game
        self.setup = game.setup
        self.names = game.setup.seat_names()

    def run(self) -> None:
        cmd = self.cmd
        check_args(cmd, COMMANDS)
        if self.s.outcome is not None:
            raise IllegalCommand(
                f"the game is over ({self.s.outcome.reason}). Undo the last command if it was a "
                "mistake, or start a new game."
            )
        getattr(self, "do_" + cmd.name)()

    def bad(self, message: str) -> NoReturn:
        raise BadCommand(f"{self.cmd.name}: {message}")

    def seats_in(self) -> list[int]:
        return [seat for seat in range(1, self.setup.players + 1) if seat not in self.s.out]

    def decks(self) -> str:
        return "one deck" if self.setup.decks == 1 else "two decks"

    def who(self, seat: int) -> str:
        return f"seat {seat} ({self.names[seat - 1]})"

    # -- a hand's scores --------------------------------------------------------------------------
    def per_seat(self, key: str, parts: list[str]) -> dict[int, str]:
        """The values of `points=`/`cards=` by seat: one per seat (``-`` where a seat is out), or one per seat
        still in, in seat order."""
        seats, every = self.seats_in(), self.setup.players
        if len(parts) == every:
            given: dict[int, str] = {}
            for seat, part in zip(range(1, every + 1), parts):
                if seat in self.s.out:
                    if part.strip() != OUT:
                        self.bad(
                            f"{self.who(seat)} is out of the game; write {OUT} in its place in {key}=, or "
                            f"give only the {len(seats)} seats still in."
                        )
                    continue
                if part.strip() == OUT:
                    self.bad(f"{OUT} marks a seat that is out, but {self.who(seat)} is still in; give its points.")
                given[seat] = part
            return given
        if len(parts) == len(seats):
            if any(p.strip() == OUT for p in parts):
                self.bad(
                    f"give the {len(seats)} seats still in without {OUT}, or all {every} seats with {OUT} "
                    "where a seat is out."
                )
            return dict(zip(seats, parts))
        also = f" (or {len(seats)}, only the seats still in)" if len(seats) != every else ""
        self.bad(f"{key}= gives {len(parts)} values; give {every}{also}, one per seat in seat order.")

    def do_hand(self) -> None:
        cmd, s = self.cmd, self.s
        if ("points" in cmd.args) == ("cards" in cmd.args):
            self.bad(
                "give points=A,B,C (one number per seat) or cards=5+9+M;;cat+10 (the cards left in each hand, "
                "seats split by ;), not both or neither."
            )
        cards: dict[int, list[str]] | None = None
        limit = deck_points(self.setup.decks)
        # «CardPoints1-10face valueM20Cat30» over «11 cards in each suit», five suits and «one BlackCat card»: the
        # deck(s) hold `limit` points; the hand starts with the 1 of Spiders on the pile («The player nearest the
        # dealers leftplays it to start the game»; «If nobody has the 1 of Spiders» it lies in the set-aside ghost
        # hand): the losing hands hold at most `most` together. A stored history played before that bound keeps
        # the bound of then
        capped = self.game.deck_capped()
        most = hand_most(self.setup.decks) if capped else limit
        pile = ", and the 1 of Spiders that starts the hand is on the pile" if capped else ""
        holds = f"{self.decks()} {'holds' if self.setup.decks == 1 else 'hold'} {limit} points"
        if "points" in cmd.args:
            points: dict[int, int] = {}
            given = self.per_seat("points", cmd.args["points"].split(","))
            blank = [seat for seat, text in given.items() if not text.strip()]
            if blank:
                self.bad(
                    f"no points are written for {listed([self.names[seat - 1] for seat in blank])}; write each "
                    "one's points: 0 for the player who went out."
                )
            for seat, text in given.items():
                try:
                    value = int(text.strip())
                except ValueError:
                    self.bad(
                        f"{self.who(seat)} has {text.strip()!r}, which is not a number of points; write a whole number."
                    )
                if not 0 <= value <= most:
                    self.bad(
                        f"{self.who(seat)} cannot have {value} points from one hand: {holds}{pile}, so a hand "
                        f"counts 0 to {most}; check the points (1 to 10 as numbered, a Master 20, the Black Cat 30)."
                    )
                points[seat] = value
        else:
            try:
                cards = {
                    seat: parse_cards(text)
                    for seat, text in self.per_seat("cards", cmd.args["cards"].split(";")).items()
                }
            except BadCommand as exc:
                self.bad(f"{exc} Seats are split by ; and the cards of a seat by +.")
            for kind in (*map(str, NUMBERS), MASTER, CAT):
                held = sum(hand.count(kind) for hand in cards.values())
                if held > copies(kind, self.setup.decks):
                    word = {"M": "Masters", CAT: "Black Cats"}.get(kind, f"cards numbered {kind}")
                    self.bad(
                        f"the hands hold {held} {word}, but {self.decks()} {'has' if self.setup.decks == 1 else 'have'} "
                        f"only {copies(kind, self.setup.decks)}; check the cards."
                    )
            points = {seat: hand_points(hand) for seat, hand in cards.items()}
        if capped and sum(points.values()) > most:
            self.bad(
                f"the hands add up to {sum(points.values())} points, but {holds}{pile}: at most {most} are left in "
                f"all the hands together; check the {'points' if cards is None else 'cards'}."
            )
        # «The first player to empty his handwins»: exactly one player has no card (and no point) left
        zero = [seat for seat, value in points.items() if value == 0]
        if len(zero) != 1:
            if zero:
                who = listed([self.names[seat - 1] for seat in zero])
                self.bad(
                    f"{who} all have nothing left, but a hand ends when one player goes out: only that player "
                    "scores 0; give the others the cards (or points) they still hold."
                )
            self.bad("every player still has points, but a hand ends when one player goes out: give that player 0.")
        winner = zero[0]
        if "winner" in cmd.args:
            noted = arg_int(cmd, "winner", 1, self.setup.players)
            if noted != winner:
                self.bad(
                    f"the winner noted is {self.who(noted)}, but {self.who(winner)} is the one scoring 0; "
                    "the player who went out scores 0."
                )
        if self.checking:
            return
        number = len(s.hands) + 1
        # «tally the points in each losing hand»
        for seat, value in points.items():
            s.scores[seat - 1] += value
        s.hands.append([points.get(seat) for seat in range(1, self.setup.players + 1)])
        s.hand_winners.append(winner)
        row = [points.get(seat) for seat in range(1, self.setup.players + 1)]
        event: dict[str, Any] = {"hand": number, "points": row, "scores": list(s.scores), "winner": winner}
        if cards is not None:
            event["cards"] = [cards.get(seat) for seat in range(1, self.setup.players + 1)]
        self.emit("hand_scored", **event)
        self.settle()
        if s.outcome is None:
            self.next_hand()

    def settle(self) -> None:
        """Who the monsters grab at the limit, who drops out and who wins (docs/spooks.md, "The end")."""
        s, limit = self.s, self.setup.loss_limit
        before = self.seats_in()
        reached = [seat for seat in before if s.scores[seat - 1] >= limit]
        if not reached:
            return
        for seat in reached:
            self.emit("limit_reached", seat=seat, score=s.scores[seat - 1], limit=limit)
        if self.setup.variant == "long" and len(before) > LAST_THREE:
            # «he drops out andthe others keep playing until three players are left»
            for count, seat in enumerate(reached, 1):
                s.out.append(seat)
                self.emit("player_out", seat=seat, score=s.scores[seat - 1], left=len(before) - count)
            left = self.seats_in()
            if len(left) >= LAST_THREE:
                return
            # more than one grabbed at once, fewer than three left: the game ends among those still in
            pool, losers = left, reached
        else:
            # «When one person hits 200, hes grabbed by the monsters and loses»; in the long game «When one of
            # those three hits 200, the game endsand the player with the lowest score wins.»
            pool, losers = before, reached
        low = min(s.scores[seat - 1] for seat in pool)
        s.winners = [seat for seat in pool if s.scores[seat - 1] == low]
        s.losers = list(losers)
        names = [self.names[seat - 1] for seat in s.winners]
        grabbed = " and ".join(self.names[seat - 1] for seat in losers)
        if len(names) == 1:
            reason = f"{grabbed} reached {limit}; {names[0]} has the lowest score, {low}, and wins"
        else:
            reason = f"{grabbed} reached {limit}; {' and '.join(names)} share the lowest score, {low}, and the win"
        s.outcome = Outcome("won", reason)
        self.emit(
            "game_won", winners=list(s.winners), losers=list(losers), score=low, scores=list(s.scores), reason=reason
        )

    def next_hand(self) -> None:
        """The hand is over: the top card is cleared and the deal passes to the next seat still in (docs/spooks.md:
        the text does not say who deals next). The Bones and Bats effects last «until the end ofthe game»; only a
        table that chose master_lasting=hand puts them back here."""
        s = self.s
        if self.setup.master_lasting == "hand":
            if s.reversed:
                s.reversed = False
                self.emit("direction_changed", direction=direction_of(False), why="new hand")
            if s.backward:
                s.backward = False
                self.emit("runs_changed", backward=False, why="new hand")
        s.top = None
        s.masters = {}
        seats = self.seats_in()
        after = [seat for seat in seats if seat > s.dealer]
        s.dealer = after[0] if after else seats[0]
        self.emit("deal_passed", dealer=s.dealer, hand=len(s.hands) + 1)

    def do_end(self) -> None:
        """A hand given up unscored (a misdeal): nothing is counted, it is dealt again by the next dealer."""
        if self.checking:
            return
        self.emit("hand_given_up", hand=len(self.s.hands) + 1)
        self.next_hand()

    # -- the table ----------------------------------------------------------------------------------
    def card_arg(self) -> tuple[str, str | None]:
        cmd = self.cmd
        suit = arg_choice(cmd, "suit", (*SUITS, CAT))
        if suit == CAT:
            if "number" in cmd.args:
                self.bad("the Black Cat has no number; leave number= out.")
            return CAT, None
        if "number" not in cmd.args:
            self.bad(f"give the number of the {suit.title()} card: number=1 to 10, or number=M for its Master.")
        try:
            value = card_value(cmd.args["number"])
        except BadCommand:
            self.bad(
                f"the number {cmd.args['number']!r} is not a card of a suit; give 1 to 10, or M for its "
                "Master (the Black Cat is suit=cat)."
            )
        if value == CAT:
            return CAT, None
        return suit, value

    def do_top(self) -> None:
        """The top card of the pile. A Master with the optional rule has its effect when it is played normally, not
        in a trick: «If its played during a trick, it has no effect!»; after a Bones straight, too:
        «its special effect countsif you are using that rule». The table says which (``effect=``), and a Master
        played normally has its effect here, as with the ``master`` command (one place: play_master)."""
        suit, number = self.card_arg()
        asks_effect = self.setup.master_effects and number == MASTER and not self.game.top_master_without_effect
        if "effect" in self.cmd.args and not asks_effect:
            if not self.setup.master_effects:
                self.bad("this game is played without the Masters' effects, so no card has one; leave effect= out.")
            self.bad("only a Master has an effect to play; leave effect= out.")
        if asks_effect:
            if "effect" not in self.cmd.args:
                self.bad(
                    f"{card_words_short(suit)} on top: say whether it was played normally (effect=yes: its effect "
                    "happens) or during a Goblin trick (effect=no: no effect)."
                )
            if arg_bool(self.cmd, "effect"):
                self.check_master(suit, None)
                if self.checking:
                    return
                self.play_master(suit, None)
                return
        if self.checking:
            return
        self.s.top = (suit, number)
        if asks_effect:
            self.emit("top_set", suit=suit, number=number, effect=False)  # played in a trick: no effect
        else:
            self.emit("top_set", suit=suit, number=number)

    def do_master(self) -> None:
        cmd = self.cmd
        suit = arg_choice(cmd, "suit", SUITS)
        seat = arg_int(cmd, "seat", 1, self.setup.players) if "seat" in cmd.args else None
        self.check_master(suit, seat)
        if self.checking:
            return
        self.play_master(suit, seat)

    def check_master(self, suit: str, seat: int | None) -> None:
        """Whether a Master of `suit` may be played normally now, with its effect (the optional rule only)."""
        s = self.s
        if not self.setup.master_effects:
            self.illegal(
                "this game is played without the Masters' effects (an optional rule chosen at the start); "
                f"a Master of {suit.title()} is an ordinary card: set it as the top card instead."
            )
        if seat is not None and seat in s.out:
            self.illegal(f"{self.who(seat)} is out of the game and plays no cards.")
        played = s.masters.get(suit, 0)
        if played >= self.setup.decks:
            held = "one Master" if self.setup.decks == 1 else "two Masters"
            self.illegal(
                f"{self.decks()} {'holds' if self.setup.decks == 1 else 'hold'} {held} of {suit.title()}, "
                f"and {'it has' if played == 1 else 'both have'} been played this hand already; undo the wrong "
                "one, or start the next hand."
            )

    def play_master(self, suit: str, seat: int | None) -> None:
        """A Master played normally: it becomes the top card and its effect happens (the lasting ones change the
        direction of play or the runs)."""
        s = self.s
        played = s.masters.get(suit, 0)
        s.masters[suit] = played + 1
        s.top = (suit, MASTER)
        self.emit(
            "master_played",
            suit=suit,
            seat=seat,
            count=played + 1,
            lasting=lasting_master(suit),
            direction=direction_of(s.reversed),
        )
        # «The Bones and Bats effects last until the end ofthe game ... unless you are playing with two decks.»
        # «the second Master of Bones reverses theirst one and puts the directions back to normal. Thesame holds
        # true for Bats.»: with two decks each Master of Bones or Bats turns its effect over; with one deck the effect
        # is on and stays on (the same card, dealt again in a later hand, reverses nothing)
        if suit in LASTING:
            now = s.reversed if suit == "bones" else s.backward
            after = (not now) if self.setup.decks == 2 else True
            if suit == "bones":
                s.reversed = after
            else:
                s.backward = after
            if after != now:
                if suit == "bones":
                    self.emit("direction_changed", direction=direction_of(s.reversed), why="master")
                else:
                    self.emit("runs_changed", backward=s.backward, why="master")
