"""Skeptics behind the game-module seam (companion.games.base): its engine, packs, dice and sentences, named once.

What the published state adds: the odds of the attempt under way and of a summon with all the team's summon
dice. The companion rolls its dice (``virtual_roll``: the attempt's, or a summon's or a pull's) and reads them in
the tray (``tray_roll``: colours say the kind of die, pips the face, settled against the attempt under way)."""

from __future__ import annotations

import argparse
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from companion.commands import CommandBase
from companion.errors import BadCommand, CompanionError, ConfigError, IllegalCommand
from companion.games.base import (
    Chance,
    Engine,
    GameModuleOf,
    Record,
    SeenDie,
    SetupLike,
    TableDice,
    TrayOutcome,
    card_entries,
)
from companion.games.skeptics import odds_cli, sentences, terminal
from companion.games.skeptics.dice import (
    Attempt,
    DieKind,
    PipMap,
    Requirement,
    action_kind,
    parse_face,
    success_probability,
    summon_probability,
)
from companion.games.skeptics.engine import COMMANDS, Command, Game, Setup
from companion.games.skeptics.packs import GHOST_KIND, Packs, load_packs
from companion.games.skeptics.roll import DEFAULT_COLOR_KINDS, to_roll
from companion.games.skeptics.tray import settle_reading

if TYPE_CHECKING:
    from companion.pack_edits import BoxPacks


def next_throw(game: Game) -> tuple[str, ...]:
    """The kinds of the dice the attempt under way rolls next (none when no roll of it may be made now: the player
    has no action left for it, Player Turn: up to three actions). With no attempt under way, the team's summon dice
    when a summon or a pull may be made ("the player rolls their collected Summon Dice", skeptics-rulebook.txt:235,
    :243): a summon is no roll under way, so their reading is played only when the host asks (the summon sheet's
    throw, "Use these dice"), never as it settles."""
    from companion.games.skeptics.dice import action_kind

    attempt = game.state.attempt
    legal = {a.name for a in game.legal_actions()}
    if attempt is None or attempt.succeeded:
        summons = game.state.clues_solved if legal & {"summon", "pull"} else 0
        return (DieKind.SUMMON.value,) * summons
    if "roll" not in legal:
        return ()
    return (action_kind(attempt.action).value,) * attempt.dice_to_roll


def icon_pips(name: str) -> int:
    """The pips (by the default pip map) that stand for an icon face: "eye", "camera", "cobweb", "key", "summon",
    or "key:blank" / "summon:blank" (a bare "blank" takes pips that are blank on both)."""
    from companion.errors import DiceError
    from companion.games.skeptics.dice import DieKind, PipMap, parse_face

    kind_name, _, face_name = name.strip().lower().rpartition(":")
    face = parse_face(face_name)
    kinds = [DieKind.parse(kind_name)] if kind_name else [kind for kind in DieKind if face in kind.sides]
    tables = PipMap.default().tables
    pips = [{p + 1 for p, f in enumerate(tables[kind]) if f is face} for kind in kinds]
    common = set.intersection(*pips) if pips else set()
    if not common:
        if kind_name:
            raise DiceError(f"a {kinds[0].value} die has no {face.value} face.")
        raise DiceError(f"say which die shows {face.value}: {' or '.join(f'{k.value}:{face.value}' for k in kinds)}.")
    return min(common)


def attempt_odds(state: Mapping[str, Any]) -> float | None:
    """The chance that the attempt under way succeeds in the rolls it really has left (the engine's
    ``attempt_rolls_left``: the actions left, the Corpse's limit, the rolls until a third timer)."""
    attempt = state.get("attempt")
    if not attempt:
        return None
    try:
        current = Attempt.from_dict(attempt)
        rolls = state.get("attempt_rolls_left")
        rolls_left = int(rolls if rolls is not None else state.get("actions_left") or 0)
        if current.succeeded:
            return 1.0
        if rolls_left <= 0:
            return 0.0
        return float(current.odds(rolls_left))
    except (CompanionError, KeyError, TypeError, ValueError, ImportError):
        return None


def summon_odds(state: Mapping[str, Any]) -> float | None:
    """The chance that a summon or pull with all the team's summon dice succeeds."""
    try:
        count = int(state.get("summon_dice") or 0)
        if count < 1:
            return None
        return float(summon_probability(count))
    except (CompanionError, TypeError, ValueError, ImportError):
        return None


# -- the games record and the dice's luck (companion.record) ---------------------------------------------------


def _luck(game: Any, command: Any, events: Sequence[Mapping[str, Any]] | None) -> Chance | None:
    """Skeptics' attempts with a chance on the page: a keep-and-reroll attempt (the chance shown once it is under
    way, with the actions left: it comes good on the roll that succeeds, fails when no action is left for another
    roll or a third timer ends the turn, and is dropped when the players turn to something else), and each summon
    or pull (one roll of the team's summon dice)."""
    name = command.name
    if name in ("summon", "pull"):
        if events is None:
            view = game.view()
            return Chance(begins=True, chance=summon_odds(view), player=view.get("current_player"), what=name)
        return next((Chance(good=bool(e.get("success"))) for e in events if e.get("type") == name), None)
    if events is None:
        return None
    if name == "attempt":
        view = game.view()
        attempt = view.get("attempt") or {}
        return Chance(
            begins=True,
            chance=attempt_odds(view),
            player=view.get("current_player"),
            what=f"{attempt.get('action', 'attempt')} {attempt.get('need', '')}".strip(),
        )
    for event in events:
        if event.get("type") == "attempt_succeeded":
            return Chance(good=True)
        if event.get("type") == "attempt_ended":
            return Chance(good=False) if "timer" in str(event.get("why")) else Chance(dropped=True)
    rolled = next((e for e in events if e.get("type") == "rolled"), None)
    if rolled is not None and int(rolled.get("actions_left") or 0) <= 0:
        return Chance(good=False)  # the last action's roll failed: no roll is left for it this turn
    return None


def _facts(view: Mapping[str, Any]) -> Mapping[str, Any]:
    ghost = view.get("ghost") or {}
    return {
        "setup": [("Board", view.get("board_name") or view.get("board")), ("Ghost", ghost.get("name"))],
        "rounds": view.get("round"),
        "rounds_word": "rounds",
        "marks": view.get("hour"),
        "marks_word": "Ghost Hours",
    }


def _moments(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
    marks = []
    for event in events:
        if event.get("type") == "ghost_hour":
            marks.append(f"Ghost Hour: room {event.get('room')}" if event.get("room") is not None else "Ghost Hour")
        elif event.get("type") == "ghost_appeared" and event.get("reason") != "ghost_hour":
            marks.append(f"Ghost in room {event.get('room')}")
    return {
        "clock": view.get("clock"),
        "marks": marks,
        "values": {"Room cards left": view.get("room_deck_left"), "Clues solved": view.get("clues_solved")},
    }


def _number(args: Mapping[str, str], key: str, default: int, low: int, high: int) -> int:
    raw = args.get(key)
    if raw is None:
        return default
    if not raw.isdigit() or not low <= int(raw) <= high:
        raise BadCommand(f"{key} must be a whole number from {low} to {high}, not {raw!r}.")
    return int(raw)


def page_odds(args: Mapping[str, str]) -> dict[str, object]:
    """The Dice tab's odds calculator: ``need``, ``dice``, ``rolls`` and ``keep`` (an icon set's chance in the
    rolls left), or ``summon`` (a summon's chance with that many summon dice)."""
    unknown = sorted(set(args) - {"need", "dice", "rolls", "keep", "summon"})
    if unknown:
        raise BadCommand(f"unknown parameter(s) {', '.join(unknown)}; use need, dice, rolls, keep or summon.")
    if "summon" in args:
        dice = _number(args, "summon", 0, 0, 7)
        return {"summon": dice, "probability": summon_probability(dice)}
    need = args.get("need")
    if not need:
        raise BadCommand("say what the roll needs, e.g. ?need=eye:2,camera:1&dice=3&rolls=3.")
    keep_raw = args.get("keep", "true").lower()
    if keep_raw not in ("true", "false", "1", "0"):
        raise BadCommand("keep must be true or false.")
    dice, rolls = _number(args, "dice", 3, 1, 7), _number(args, "rolls", 3, 1, 3)
    requirement = Requirement.parse(need)
    probability = success_probability(requirement, dice=dice, rolls=rolls, keep=keep_raw in ("true", "1"))
    return {"need": str(requirement), "dice": dice, "rolls": rolls, "probability": probability}


def _roll(kind: DieKind, count: int, rng: random.Random) -> list[str]:
    sides = [face.value for face, n in kind.sides.items() for _ in range(n)]
    return [rng.choice(sides) for _ in range(count)]


class SkepticsModule(GameModuleOf[Game, sentences.Names]):
    """Skeptics behind the seam."""

    engine_type = Game
    sentences = sentences
    terminal = terminal
    rules = "skeptics"
    title = "Skeptics"
    command_type = Command
    has_luck = True  # its attempts have a chance on the page: the record weighs the dice's luck
    commands = COMMANDS
    started_keys = ("players", "board", "ghost")
    setup_choices = MappingProxyType(
        {"board": "text", "ghost": "text", "special_items": "int", "physical": "bool", "easier": "int"}
    )
    required_choices = ("board", "ghost")
    tray_kinds = MappingProxyType(DEFAULT_COLOR_KINDS)  # blue clue dice (the common ones), green key, red summon

    def setup_from_dict(self, data: Record) -> Setup:
        return Setup.from_dict({k: v for k, v in data.items() if k != "rules"})

    def new(self, setup: SetupLike, packs: object) -> Game:
        if not isinstance(setup, Setup) or not isinstance(packs, Packs):
            raise BadCommand(
                f"{self.title} starts from its own setup and packs, not {setup!r} and {type(packs).__name__}."
            )
        return Game.new(setup, packs)

    def load_packs(self, folder: Path | None) -> Packs:
        return load_packs(folder)

    def box_packs(self) -> BoxPacks:
        from companion.games.skeptics.box import BOX

        return BOX

    def first_game(self, choices: Record, packs: object) -> dict[str, object]:
        """The board and the ghost default to the packs' first; one the packs do not have names its key."""
        assert isinstance(packs, Packs)
        for key, known in (("board", packs.boards), ("ghost", packs.ghosts)):
            value = choices.get(key)
            if value is not None and value not in known:
                raise ConfigError(f"game.{key}: unknown {key} {value!r}; the {key}s are: {', '.join(sorted(known))}")
        setup: dict[str, object] = {
            "players": choices.get("players"),
            "board": choices.get("board") or next(iter(packs.boards)),
            "ghost": choices.get("ghost") or next(iter(packs.ghosts)),
            "special_items": choices.get("special_items"),
            "physical": choices.get("physical"),
        }
        Setup.from_dict({**setup, "seed": 0}).check(packs)
        return setup

    def setup_defaults(self, packs: object) -> dict[str, object]:
        assert isinstance(packs, Packs)
        return {"board": next(iter(packs.boards)), "ghost": next(iter(packs.ghosts))}

    def setup_options(self, packs: object) -> dict[str, object]:
        assert isinstance(packs, Packs)
        cards = {"boards": packs.boards, "environment": packs.environment, "evidence": packs.evidence}
        # the ghosts with the words the wizard lists them by: a stand-in named by the companion said plainly as one
        return {
            **{key: card_entries(part) for key, part in cards.items()},
            "ghosts": card_entries(packs.ghosts, GHOST_KIND),
        }

    def check_tray_kind(self, kind: str) -> str:
        return DieKind.parse(kind).value

    def check_pips(self, pips: Mapping[str, Mapping[str, Sequence[int]]]) -> None:
        PipMap.from_dict(pips)

    def names(self, game: Engine) -> sentences.Names:
        return sentences.Names.of_game(self.engine(game))

    def action_label(self, action: Record, names: object, current: object) -> str:
        return sentences.action_label(action, self.names_of(names), current)

    def end_summary(self, view: Record, names: object, minutes: float | None) -> dict[str, object]:
        return sentences.end_summary(view, self.names_of(names), minutes=minutes)

    def page_odds(self, query: Mapping[str, str]) -> dict[str, object]:
        return page_odds(query)

    def odds_report(self, args: argparse.Namespace) -> dict[str, object]:
        return odds_cli.report(args)

    def odds_text(self, result: Mapping[str, object]) -> str:
        return odds_cli.render(dict(result))

    def setup_checklist(self, view: Record, names: object, hand: bool) -> list[dict[str, str]]:
        return sentences.setup_checklist(view, self.names_of(names), hand)

    def publish(self, view: Record, game: Engine) -> Mapping[str, object]:
        question = view.get("question")
        # an environment card not filled in yet came up: what the host is asked (its taps are the legal tell-card
        # actions)
        asked = sentences.describe_event({"type": "card_asked", **question}) if isinstance(question, Mapping) else None
        return {
            "odds": attempt_odds(view),
            "summon_odds": summon_odds(view),
            "card_question": asked,
            "end_round_words": sentences.end_round_warning(view),
            # what the card in force leaves of the actions left, after the count (sentences.actions_left)
            "actions_limit_words": sentences.actions_limit(
                view.get("other_actions_left"), view.get("actions_left"), view.get("other_actions_card")
            ),
        }

    def virtual_roll(self, game: Engine, rng: random.Random, target: str | None) -> tuple[str, dict[str, str]]:
        """The dice the attempt under way needs, or the team's summon dice for a summon or a pull."""
        state = self.engine(game).state
        if target in ("summon", "pull"):
            count = state.clues_solved  # one summon die per solved clue
            if count < 1:
                raise IllegalCommand(
                    f"the team has no summon die yet, so there is nothing to roll for a {target}; "
                    "solve a clue first (each solved clue gives one)."
                )
            return target, {"faces": ",".join(_roll(DieKind.SUMMON, count, rng))}
        if target not in (None, "roll"):
            raise IllegalCommand(f"virtual dice are rolled for an attempt, a summon or a pull, not for {target!r}.")
        attempt = state.attempt
        if attempt is None:
            raise IllegalCommand(
                "no attempt is under way, so there are no dice to roll. Start one first "
                "(search, solve, prove or unlock), or roll for a summon or a pull."
            )
        return "roll", {"faces": ",".join(_roll(action_kind(attempt.action), attempt.dice_to_roll, rng))}

    def tray_roll(
        self, game: Engine, dice: Sequence[SeenDie], table: TableDice, *, why: str, auto_roll: bool
    ) -> TrayOutcome:
        """Colours say the kind of die ([tray.kinds]), pips the face ([dice.pips]); the faces are the roll of the
        attempt under way when they are exactly its dice (companion.games.skeptics.tray.settle_reading)."""
        pip_map = PipMap.from_dict(table.pips) if table.pips else PipMap.default()
        try:
            roll, problem = to_roll(dice, dict(table.kinds) or None, pip_map), None
        except CompanionError as exc:
            roll, problem = None, str(exc)
        state = self.engine(game).state
        if why == "button" and state.attempt is None and roll and set(roll) == {DieKind.SUMMON}:
            # red dice with no attempt under way, read when someone asked: the summon (or pull) they are for
            legal = {action.name for action in game.legal_actions()}
            target = next((name for name in ("summon", "pull") if name in legal), None)
            if target is not None:
                faces = ",".join(face.value for face in roll[DieKind.SUMMON])
                return TrayOutcome(command=(target, {"faces": faces}), note=f"tray: rolled {faces} for a {target}")
        settled = settle_reading(roll, state.attempt, why=why, auto_roll=auto_roll, problem=problem)
        command = None if settled.faces is None else ("roll", {"faces": ",".join(f.value for f in settled.faces)})
        return TrayOutcome(command=command, tell=settled.tell, note=settled.note, quiet=settled.quiet)

    def luck(self, game: Engine, command: CommandBase, events: Sequence[Record] | None) -> Chance | None:
        return _luck(self.engine(game), command, events)

    def record_facts(self, view: Record) -> Mapping[str, object]:
        return _facts(view)

    def moments(self, view: Record, events: Sequence[Record]) -> Mapping[str, object]:
        return _moments(view, events)

    def next_throw(self, game: Engine) -> tuple[str, ...]:
        return next_throw(self.engine(game))

    def entered_faces(self, faces: Sequence[str]) -> list[str]:
        return [parse_face(face).value for face in faces]

    def pip_faces(self, kind: str, pips: Sequence[int], table: TableDice) -> list[str]:
        # a kind of die, or a colour the tray read (the table's [tray.kinds], else the default colours, as to_roll)
        colours = {str(c).lower(): str(k) for c, k in (dict(table.kinds) or DEFAULT_COLOR_KINDS).items()}
        die = DieKind.parse(colours.get(kind.strip().lower(), kind))
        pip_map = PipMap.from_dict(table.pips) if table.pips else PipMap.default()
        return [pip_map.face(die, p).value for p in pips]

    def icon_pips(self, name: str) -> int:
        return icon_pips(name)


MODULE = SkepticsModule()
