"""Elder Sign behind the game-module seam (companion.games.base): its engine, packs and sentences, named once."""

from __future__ import annotations

import argparse
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from companion.commands import CommandBase
from companion.errors import BadCommand
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
from companion.games.elder_sign import odds_cli, sentences, terminal
from companion.games.elder_sign.engine import (
    COMMANDS,
    ENTRANCE_NAME,
    TERROR_FIRST,
    Command,
    Game,
    Setup,
    choice_first_refusal,
)
from companion.games.elder_sign.packs import ANCIENT_KIND, ElderSignPacks, load_packs
from companion.words import a_or_an, left_to_the_host

if TYPE_CHECKING:
    from companion.pack_edits import BoxPacks


def _stand_ins(view: Mapping[str, Any], game: Game) -> dict[str, Any]:
    """The cards still stand-ins in the packs: the page says "not filled in yet" instead of showing them as real."""
    packs = game.packs
    cards = {**packs.adventures, **packs.other_worlds}
    return {
        "adventures": [
            c["slot"] for c in view.get("adventures") or [] if c.get("id") in cards and cards[c["id"]].placeholder
        ],
        "investigators": [
            i["player"]
            for i in view.get("investigators") or []
            if i.get("id") in packs.investigators and packs.investigators[i["id"]].placeholder
        ],
        # the players whose investigator's sanity, stamina and clues are still the stand-in's: the page shows none
        "numbers": game.numbers_missing_players(),
        # the investigators (by their place in the view's list), devoured ones too, whose sanity, stamina and clues
        # were never copied from the card: the numbers the companion has for them are the stand-in's
        "numbers_never_entered": [i for i, inv in enumerate(game.state.investigators) if game.numbers_missing(inv)],
        "ancient_one": bool(game.ancient.placeholder),
        # its doom track's length and Elder Sign limit are still the stand-in's: the page shows neither as the card's
        "ancient_numbers": game.ancient_numbers_missing(),
        "mythos": bool(view.get("mythos") and packs.mythos[view["mythos"]["id"]].placeholder),
    }


def _publish(view: Mapping[str, Any], game: Game) -> Mapping[str, Any]:
    """The dice of the next roll (their colours and faces, for the phone's dice pad) and the odds: the chance to
    complete the adventure the active investigator is at (or would roll at), and each of its open tasks, with the
    dice in the pool, the held dice and the clues, with the best play (companion.games.elder_sign.odds)."""
    from companion.games.elder_sign.dice import Colour

    colours = [c.value for c in game.next_roll_dice()]
    names = sentences.Names.of_game(game)
    adventures = view.get("adventures") or []
    out: dict[str, Any] = {
        "stand_ins": _stand_ins(view, game),
        # what the host copies from the cards not filled in yet before anyone plays on (Game.numbers_first)
        "numbers_first": game.numbers_first(),
        "numbers_first_note": sentences.numbers_first_note({**view, "numbers_first": game.numbers_first()}, names),
        # each investigator (as the view lists them) by the name the table may read: a stand-in's is not its card's
        "investigators_said": [names.card(i["name"], "an investigator") for i in view.get("investigators") or []],
        # the host picked the Ancient One in the setup (:81 "pick one randomly or all players can agree on one")
        "ancient_one_chosen": bool(game.setup.ancient_one),
        # the stand-in the companion drew at random, told plainly (sentences.drawn_words; "" when none)
        "ancient_one_drawn": names.drawn,
        # each adventure in play by the name its sentences say (its place while its card is a stand-in)
        "adventure_names": {str(c["slot"]): names.adventure(c["slot"]) for c in adventures},
        # a card not filled in yet that came up: what the host is asked (its effects are the legal card-did taps)
        "card_question": _question(view, game),
        # what a player's phone says the table waits for meanwhile: the host tells it (one sentence for every question)
        "table_waits": _waits(view, game),
        # a failed roll's terror asked about and not told yet: no roll until it is (:202-211, Game.terror_open)
        "terror_open": game.terror_open(),
        # where each investigator stands and where the roll is, in words (never a place's id)
        "where": {
            str(i["player"]): sentences.where_words(i, adventures, names) for i in view.get("investigators") or []
        },
        # this turn's adventure step is over (its dice are rolled): no roll is left this turn (Game.start_attempt)
        "rolls_over": game.state.attempted and view.get("attempt") is None,
        "attempt_at": (
            sentences.where_words({"place": view["attempt"]["place"]}, adventures, names)
            if view.get("attempt")
            else None
        ),
        "next_dice": colours,
        # the dice a clue rolls again (:357-361: the failed roll's dice in the pool, none set aside; the ones chosen with
        # focus and spell stay out, :347, :371): its sheet's dice
        "clue_dice": [c.value for c in game.next_roll_dice(clue=True)],
        "faces_of": {c.value: sorted({f.value for f in c.faces}) for c in Colour},
        # the green dice a lock may take, as the task-entry sheet says them (:401; the attempt's lock_choices, in order)
        "lock_choices_said": [
            sentences.lock_choice_words(c["die"], c["from"])
            for c in (view.get("attempt") or {}).get("lock_choices", [])
        ],
        "odds": None,
        "summon_odds": None,
        # before the roll: a die left on a Spell card from an earlier roll or turn is not rolled (:345-349)
        "spell_words": None if view.get("attempt") else sentences.spell_dice_words(view.get("spell_dice") or ()),
    }
    odds = _odds(view, game, names)
    if odds is not None:
        out["odds"] = odds["probability"]
        out["card_odds"] = odds
        out["odds_words"] = sentences.odds_words(odds)
    return out


def _odds(view: Mapping[str, Any], game: Game, names: sentences.Names) -> dict[str, Any] | None:
    """The chance to complete the card (or land a blow on the Ancient One) with the dice and rolls there are, before
    the first roll and after each: as "Roll for me" plays it (every roll thrown, no clue spent, no new die held; the
    dice held already stay, :347) and with the best play (the clues and the focus too, and after a roll that completed
    nothing a clue re-rolling it, :357-361), and each open task alone (companion.games.elder_sign.odds with the
    engine's own question, Game.odds_question). A task whose costs the active investigator cannot pay has no chance (:189, Game.odds_costs), nor has a card whose
    tasks they cannot all pay. A whole card with yellow or red dice in the pool costs seconds cold
    (benchmarks/bench_elder_sign_odds.py): then only what "Roll for me" does (one or two tasks) and each task alone."""
    from companion.errors import CompanionError

    q = game.odds_question()
    if not q or not q["tasks"] or not (q["green"] + q["yellow"] + q["red"]):
        return None
    attempt = view.get("attempt") or {}
    active = next((i for i in view.get("investigators") or [] if i.get("active")), None)
    place = attempt.get("place") or ("ancient-one" if view.get("ancient_one_awake") else (active or {}).get("place"))
    combat = place == "ancient-one"
    card = next((c for c in view.get("adventures") or [] if c.get("slot") == place), None)
    if not combat and card is None:
        return None
    needs = (
        [] if combat or card is None else [(int(t["index"]), str(t["need"])) for t in card["tasks"] if not t["done"]]
    )
    clue_q = game.odds_question(clue=True)
    try:
        plain, best, each = _chances(q, needs)
        _, clue, clue_each = _chances(clue_q, needs) if clue_q else (None, None, {})
    except (CompanionError, ValueError, KeyError):
        return None
    alone, short, every = game.odds_costs()
    if short is not None:  # :189: a task of it cannot be paid, so the card cannot be completed
        plain = best = clue = 0.0
    elif not every:  # paid in some orders only: the odds do not follow the order, so no chance is told
        plain = best = clue = None
    tasks = [
        {"task": i, "need": need, "probability": 0.0, "unpaid": alone[i].to_dict()}
        if i in alone
        else {"task": i, "need": need, "probability": max(each[i], clue_each.get(i, 0.0))}
        for i, need in needs
    ]
    return {
        "slot": place,
        "name": names.ancient_one if combat else names.adventure(place),
        "combat": combat,
        "dice": sum(q[c] for c in ("green", "yellow", "red")),
        # the best play, a clue re-rolling the failed roll included
        "probability": None if best is None else max(best, clue or 0.0),
        "roll_for_me": plain,
        "tasks": tasks,
        "clues": min(int(q["clues"]), 2),
        "holds": int(q["holds"]),
        # the dice held already for the next roll (on a marker or a spell, or chosen for one): "Roll for me" keeps them
        "held": list(q["held"]),
        "who": names.player(view.get("current_player")),
        # the tasks left cannot all be paid (:189): what falls short
        "unpaid": None if short is None else short.to_dict(),
        # after a roll that completed nothing, a clue held: the chance when it re-rolls that roll's dice (:357-361)
        "clue": clue if clue_q else None,
        "clue_dice": sum(clue_q[c] for c in ("green", "yellow", "red")) if clue_q else 0,
        # no roll of the dice left completes it, with every clue and die held (each chance exactly 0): the card fails
        # (elder-sign-rules.txt:217), and the step offered is the failing one, not a roll (a clue held may still
        # re-roll the failed roll: "clue" says its chance)
        "hopeless": best == 0 or (bool(needs) and all(i in alone or each[i] == 0 for i, _ in needs)),
    }


def _chances(
    q: Mapping[str, Any], needs: Sequence[tuple[int, str]]
) -> tuple[float | None, float | None, dict[int, float]]:
    """For the odds question `q` (Game.odds_question): the chance to complete every task as "Roll for me" plays it,
    with the best play (None: not worked out, yellow or red dice and more than two tasks), and each task of `needs`
    (number, need) alone."""
    from companion.games.elder_sign.odds import card_probability, task_probability

    dice = (q["green"], q["yellow"], q["red"])
    clues = min(int(q["clues"]), 2)
    coloured = bool(q["yellow"] or q["red"])
    tasks, ordered, held, holds = q["tasks"], bool(q["ordered"]), q["held"], int(q["holds"])
    # "Roll for me" holds no new die, but the dice held already stay held (:347): their places are counted; with
    # yellow or red dice each task alone is worked out with one new hold at most (a free marker's focus, :365-371)
    # beside them (holds counts every place, the held dice's included, so it is never under kept)
    kept = len(held)
    plain = card_probability(tasks, ordered, *dice, None, kept, 0, held) if not coloured or len(tasks) <= 2 else None
    best = (
        card_probability(tasks, ordered, *dice, None, holds, clues, held)
        if not coloured and (holds or clues)
        else plain
    )
    each = {
        i: task_probability(need, *dice, None, min(holds, kept + 1) if coloured else holds, clues, held)
        for i, need in needs
    }
    return plain, best, each


def _question(view: Mapping[str, Any], game: Game) -> str | None:
    asked = _asked(view, game)
    return None if asked is None else sentences.describe_event(*asked)


def _waits(view: Mapping[str, Any], game: Game) -> str | None:
    """What a player's phone says the table waits for while a card question is open (sentences.table_waits_words)."""
    asked = _asked(view, game)
    return None if asked is None else sentences.table_waits_words(*asked, view.get("current_player")) or None


def _asked(view: Mapping[str, Any], game: Game) -> tuple[dict[str, Any], sentences.Names] | None:
    """The open card question as a card_asked event, and the names it is said with (a stand-in by its place)."""
    question = view.get("question")
    if not question:
        return None
    players = tuple(view.get("player_names") or ())
    if question["kind"] == "entrance":  # the Lost & Found chart of the Entrance sheet (:293): not a card
        name, names = ENTRANCE_NAME, sentences.Names(players)
    else:
        cards = (
            game.packs.mythos if question["kind"] == "mythos" else {**game.packs.adventures, **game.packs.other_worlds}
        )
        card = cards[question["card"]]
        name = card.name
        names = sentences.Names(players, stand_ins=frozenset({name} if card.placeholder else ()))
    return {"type": "card_asked", **question, "name": name}, names


def virtual_roll(game: Game, rng: random.Random) -> tuple[str, dict[str, Any]]:
    """The next roll thrown by the companion: a face of each die the roll throws (companion's injected Random)."""
    faces = [f"{colour.value}:{rng.choice(colour.faces).value}" for colour in game.next_roll_dice()]
    return "roll", {"faces": ",".join(faces)}


def next_throw(game: Game) -> tuple[str, ...]:
    """The colours of the dice the next roll throws, when a roll is what the table may do now (not before a terror
    asked about is told: the engine refuses the roll then, Game.terror_open)."""
    if not any(action.name == "roll" for action in game.legal_actions()):
        return ()
    return tuple(colour.value for colour in game.next_roll_dice())


def icon_pips(name: str) -> int:
    """The pips (by the default pip map) that stand for an icon face: "inv1" ... "inv4", "lore", "peril", "terror",
    "wild", or with the die's colour ("yellow:lore") where the dice print it on different pips."""
    from companion.errors import DiceError
    from companion.games.elder_sign.dice import Colour, PipMap, parse_face

    colour_name, _, face_name = name.strip().lower().rpartition(":")
    face = parse_face(face_name)
    colours = [Colour.parse(colour_name)] if colour_name else list(Colour)
    tables = PipMap.default().tables
    pips = [{p + 1 for p, f in enumerate(tables[c]) if f is face} for c in colours]
    pips = [p for p in pips if p] if not colour_name else pips
    common = set.intersection(*pips) if pips else set()
    if not common:
        if colour_name or not pips:
            raise DiceError(
                f"{a_or_an(colour_name) + ' die has' if colour_name else 'no die has'} no {face.value} face."
            )
        shown = [c for c in colours if face in tables[c]]
        raise DiceError(f"say which die shows {face.value}: {' or '.join(f'{c.value}:{face.value}' for c in shown)}.")
    return min(common)


def _aside_seen(game: Game, wanted: list[str], seen: list[str]) -> str | None:
    """After a roll that completed nothing and no die chosen to set aside yet: the colour of the die the table set
    aside when the dice thrown are that roll's but for one die of another colour than the suggested one."""
    attempt = game.view()["attempt"]
    if not attempt or not attempt.get("aside") or attempt["aside_chosen"]:
        return None
    for colour in sorted({str(face).split(":")[0] if ":" in str(face) else "green" for face in attempt["last"]}):
        pool = [*wanted, attempt["aside"]]
        pool.remove(colour)
        if sorted(pool) == seen:
            return colour
    return None


def tray_roll(game: Game, dice: Sequence[tuple[str, int | None]]) -> tuple[str, dict[str, Any]] | str:
    """Stand-in pipped dice read by the tray's camera: green, yellow and red dice whose pips stand for faces by the
    pip map (companion.games.elder_sign.dice.PipMap). Only exactly the dice the next roll throws are a roll, and none
    while a terror asked about is not told yet (Game.terror_open: the engine refuses a roll then, :202-211)."""
    from companion.errors import DiceError
    from companion.games.elder_sign.dice import Colour, PipMap

    if game.terror_open():
        return TERROR_FIRST
    attempt = game.view()["attempt"]
    if attempt and attempt.get("choose"):  # the roll before waits for the player's choice of its task (:177, :189)
        return sentences.for_players(choice_first_refusal(attempt["choose"]))
    first = game.numbers_first()
    if first:  # the engine refuses every turn's command then (Game.numbers_first, :84, :245, :419-427)
        return sentences.numbers_first_words(first, sentences.Names.of_game(game))
    pip_map = PipMap.default()
    faces: list[str] = []
    for colour_name, pips in dice:
        try:
            colour = Colour.parse(colour_name)
        except DiceError:
            return f"{a_or_an(colour_name)} die lies in the tray; Elder Sign is rolled with green, yellow and red dice."
        if pips is None:
            return f"one {colour.value} die could not be read: turn it flat, or tap the dice in on the phone."
        faces.append(f"{colour.value}:{pip_map.face(colour, pips).value}")
    wanted = sorted(c.value for c in game.next_roll_dice())
    seen = sorted(face.split(":")[0] for face in faces)
    lose = _aside_seen(game, wanted, seen) if seen != wanted else None
    if lose:  # :211: the player set aside another die of the failed roll than the one suggested, and threw the rest
        return "roll", {"faces": ",".join(faces), "lose": lose}
    if seen != wanted:
        return (
            f"the tray shows {len(faces)} dice ({', '.join(seen) or 'none'}), but this roll throws "
            f"{len(wanted)} ({', '.join(wanted)}): add or take away dice, then read again."
        )
    return "roll", {"faces": ",".join(faces)}


# -- the games record and the dice's luck (companion.record) ---------------------------------------------------


def _luck(game: Game, command: Any, events: Sequence[Mapping[str, Any]] | None) -> Chance | None:
    """Elder Sign's attempts with a chance on the page, each as the phones showed it before its first roll (with the
    yellow or red die an item added before it, :329-341, in the pool):

    - an adventure attempted, from its first roll: its chance to complete the whole card with the best play (shown
      when the pool holds green dice only; with yellow or red dice the phones show each task's chance instead, so it
      is counted but not weighed). It comes good when the adventure is completed and fails when the dice left cannot
      complete it (the engine's own check, the player giving up or ending the turn with no die left to roll, or the
      Ancient One waking while only a clue could have saved it), and when it was given up (stopped rolling, or the
      turn ended with dice left: the attempt it was, not come good), or the one rolling was devoured (:405-415, as
      given up);
    - a blow against the Ancient One (:439-443), from the first roll of the attack and again from the first roll after
      each blow (the task may be completed again with the dice left, :443): its chance to land a blow with the dice
      there are. It comes good when the blow lands and fails when the dice run out first, it is given up or the one
      rolling is devoured.

    A roll the dice there are cannot win at all (a chance of 0: fewer dice than the symbols asked) is no attempt."""
    if command.name in ("give-up", "end-turn") and events is None:
        # no die is left to roll: the dice failed it, whatever ends it now
        return Chance(good=False) if game.view().get("attempt") is not None and game.dice_to_roll() <= 0 else None
    if command.name == "roll" and events is None:
        view = game.view()
        attempt = view.get("attempt")
        # a new attempt: the first roll of the turn (with no attempt under way, or one an item's die opened before
        # any roll, :329-341, its chance the one shown with that die), or at the Ancient One the first roll after a
        # blow landed
        if (
            attempt is not None
            and attempt["rolls"]
            and not (attempt["place"] == "ancient-one" and not attempt["failed"])
        ):
            return None
        shown = _publish(view, game)
        chance, card = shown.get("odds"), shown.get("card_odds") or {}
        if chance is not None and float(chance) == 0:
            return None  # the dice there are cannot do it at all (e.g. fewer dice than the task's symbols): no luck
        combat = bool(card.get("combat")) or view.get("ancient_one_awake")
        name = str(card.get("name") or sentences.Names.of_game(game).ancient_one)
        return Chance(
            begins=True,
            chance=None if chance is None else float(chance),
            player=view.get("current_player"),
            what=f"a blow against {name}" if combat else name,
        )
    for event in events or ():
        kind = event.get("type")
        if kind in ("adventure_completed", "combat_task_completed"):
            return Chance(good=True)
        if kind in ("adventure_failed", "attack_ended"):
            # failed by the dice, or given up (stopped rolling, or the turn ended with dice still to roll): the attempt
            # it was, not come good (a blow with the last dice came good above)
            return Chance(good=False)
        if kind == "ancient_one_awakens" and event.get("attempt_lost") is not None:
            return Chance(good=False) if event.get("attempt_lost") else Chance(dropped=True)
        if kind == "investigator_devoured" and event.get("player") == game.view().get("current_player"):
            # the one rolling devoured (:405-415): their attempt ends, the attempt it was, not come good (no attempt
            # is under way when it was settled already, or at a devouring outside the attempt: nothing to settle)
            return Chance(good=False)
    return None


def _facts(view: Mapping[str, Any]) -> Mapping[str, Any]:
    ancient = view.get("ancient_one") or {}
    return {
        # a stand-in's name is the companion's, not the card's: the record says the card is not filled in yet
        "setup": [("Ancient One", "its card not filled in yet" if ancient.get("stand_in") else ancient.get("name"))],
        "rounds": view.get("turn"),
        "rounds_word": "turns",
        "marks": view.get("midnights"),
        "marks_word": "midnights",
    }


def _moments(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
    marks = []
    for event in events:
        if event.get("type") == "midnight":
            marks.append("Midnight")
        elif event.get("type") == "ancient_one_awakens":
            said = str((view.get("ancient_one") or {}).get("said") or "the Ancient One")
            marks.append(f"{said[:1].upper()}{said[1:]} awakens")
    return {
        "clock": view.get("clock"),
        "marks": marks,
        "values": {"Doom": view.get("doom"), "Elder Signs": view.get("elder_signs")},
    }


class ElderSignModule(GameModuleOf[Game, sentences.Names]):
    """Elder Sign behind the seam."""

    engine_type = Game
    sentences = sentences
    terminal = terminal
    rules = "elder-sign"
    title = "Elder Sign"
    command_type = Command
    has_luck = True  # its attempts have a chance on the page: the record weighs the dice's luck
    commands = COMMANDS
    started_keys = ("players", "ancient_one")
    setup_choices = MappingProxyType({"ancient_one": "text", "physical": "bool"})
    button_commands = ("end-turn",)

    def setup_from_dict(self, data: Record) -> Setup:
        return Setup.from_dict({k: v for k, v in data.items() if k != "rules"})

    def new(self, setup: SetupLike, packs: object) -> Game:
        if not isinstance(setup, Setup) or not isinstance(packs, ElderSignPacks):
            raise BadCommand(
                f"{self.title} starts from its own setup and packs, not {setup!r} and {type(packs).__name__}."
            )
        return Game.new(setup, packs)

    def load_packs(self, folder: Path | None) -> ElderSignPacks:
        return load_packs(folder)

    def setup_options(self, packs: object) -> dict[str, object]:
        assert isinstance(packs, ElderSignPacks)
        # each with the words the wizard lists it by: a stand-in named by the companion said plainly as one
        return {
            "ancient_ones": card_entries(packs.ancient_ones, ANCIENT_KIND),
            # the labels of the host's items sheet, as its refusals name them (once a visit, not in every state)
            "item_fields": dict(sentences.ITEM_FIELDS),
            "ancient_fields": dict(sentences.ANCIENT_FIELDS),
        }

    def box_packs(self) -> BoxPacks:
        from companion.games.elder_sign.box import BOX

        return BOX

    def names(self, game: Engine) -> sentences.Names:
        return sentences.Names.of_game(self.engine(game))

    def setup_checklist(self, view: Record, names: object, hand: bool) -> list[dict[str, str]]:
        return sentences.setup_checklist(view, self.names_of(names), hand)

    def odds_report(self, args: argparse.Namespace) -> dict[str, object]:
        return odds_cli.report(args)

    def odds_text(self, result: Mapping[str, object]) -> str:
        return odds_cli.render(dict(result))

    def publish(self, view: Record, game: Engine) -> Mapping[str, object]:
        return _publish(view, self.engine(game))

    def virtual_roll(self, game: Engine, rng: random.Random, target: str | None) -> tuple[str, dict[str, str]]:
        return virtual_roll(self.engine(game), rng)

    def tray_roll(
        self, game: Engine, dice: Sequence[SeenDie], table: TableDice, *, why: str, auto_roll: bool
    ) -> TrayOutcome:
        """Stand-in pipped dice: their colours and pips (Elder Sign's own pip map) are the roll when they are exactly
        the dice it throws; otherwise the table is told why, when it asked (the read-dice button)."""
        if not auto_roll:
            return TrayOutcome(note=left_to_the_host())
        found = tray_roll(self.engine(game), [(die.color, die.value) for die in dice])
        if isinstance(found, str):
            return TrayOutcome(
                tell=found if why == "button" else None,
                note=f"dice settled, not a roll: {found}",
                quiet=why != "button",
            )
        return TrayOutcome(command=found, note=f"tray: rolled {found[1].get('faces')}")

    def luck(self, game: Engine, command: CommandBase, events: Sequence[Record] | None) -> Chance | None:
        return _luck(self.engine(game), command, events)

    def record_facts(self, view: Record) -> Mapping[str, object]:
        return _facts(view)

    def moments(self, view: Record, events: Sequence[Record]) -> Mapping[str, object]:
        return _moments(view, events)

    def next_throw(self, game: Engine) -> tuple[str, ...]:
        return next_throw(self.engine(game))

    def icon_pips(self, name: str) -> int:
        return icon_pips(name)


MODULE = ElderSignModule()
