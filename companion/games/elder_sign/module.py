"""Elder Sign behind the game-module seam (companion.games.base): its engine, packs and sentences, named once."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import GameModule, sentences_of
from companion.games.elder_sign import sentences
from companion.games.elder_sign.engine import Command, Game, Setup
from companion.games.elder_sign.packs import load_packs


def _publish(view: Mapping[str, Any], game: Game) -> Mapping[str, Any]:
    """The dice of the next roll (their colours and faces, for the phone's dice pad) and the odds: the chance to
    complete the adventure the active investigator is at (or would roll at), and each of its open tasks, with the
    dice in the pool, the held dice and the clues, with the best play (companion.games.elder_sign.odds)."""
    from companion.errors import CompanionError
    from companion.games.elder_sign.dice import Colour
    from companion.games.elder_sign.odds import card_probability, task_probability

    colours = [c.value for c in game.next_roll_dice()]
    packs = game.packs
    cards = {**packs.adventures, **packs.other_worlds}
    out: dict[str, Any] = {
        # the cards still stand-ins in the packs: the page says "not filled in yet" instead of showing them as real
        "stand_ins": {
            "adventures": [c["slot"] for c in view.get("adventures") or []
                           if c.get("id") in cards and cards[c["id"]].placeholder],
            "investigators": [i["player"] for i in view.get("investigators") or []
                              if i.get("id") in packs.investigators and packs.investigators[i["id"]].placeholder],
            "ancient_one": bool(game.ancient.placeholder),
            "mythos": bool(view.get("mythos") and packs.mythos[view["mythos"]["id"]].placeholder),
        },
        # a card not filled in yet that came up: what the host is asked (its effects are the legal card-did taps)
        "card_question": _question(view, game),
        "next_dice": colours,
        "faces_of": {c.value: sorted({f.value for f in c.faces}) for c in Colour},
        "odds": None,
        "summon_odds": None,
    }
    attempt = view.get("attempt") or {}
    active = next((i for i in view.get("investigators") or [] if i.get("active")), None)
    place = attempt.get("place") or (active or {}).get("place")
    card = next((c for c in view.get("adventures") or [] if c.get("slot") == place), None)
    if card is None:
        return out
    tasks = [t for t in card["tasks"] if not t["done"]]
    if not tasks:
        return out
    count = {c: colours.count(c) for c in ("green", "yellow", "red")}
    held = [h["face"] for h in attempt.get("held") or []]
    clues = int((active or {}).get("clues") or 0)
    try:
        # the whole card with yellow or red dice in the pool costs seconds cold (benchmarks/bench_elder_sign_odds.py):
        # too long for a tap's answer, so the phones then show each task's chance only
        whole = (card_probability([t["need"] for t in tasks], bool(card.get("ordered")), count["green"], 0, 0, None, 1,
                                  min(clues, 2), held) if not (count["yellow"] or count["red"]) else None)
        each = [{"task": t["index"], "need": t["need"],
                 "probability": task_probability(t["need"], count["green"], count["yellow"], count["red"], None, 1,
                                                 min(clues, 2), held)} for t in tasks]
    except (CompanionError, ValueError, KeyError):
        return out
    out["odds"] = whole
    out["card_odds"] = {"slot": card["slot"], "name": card["name"], "probability": whole, "tasks": each,
                        "clues": min(clues, 2)}
    return out


def _question(view: Mapping[str, Any], game: Game) -> str | None:
    question = view.get("question")
    if not question:
        return None
    cards = game.packs.mythos if question["kind"] == "mythos" else {**game.packs.adventures, **game.packs.other_worlds}
    name = cards[question["card"]].name
    names = sentences.Names(tuple(view.get("player_names") or ()), stand_ins=frozenset({name}))
    return sentences.describe_event({"type": "card_asked", **question, "name": name}, names)


def virtual_roll(game: Game, rng: random.Random) -> tuple[str, dict[str, Any]]:
    """The next roll thrown by the companion: a face of each die the roll throws (companion's injected Random)."""
    faces = [f"{colour.value}:{rng.choice(colour.faces).value}" for colour in game.next_roll_dice()]
    return "roll", {"faces": ",".join(faces)}


def tray_roll(game: Game, dice: Sequence[tuple[str, int | None]]) -> tuple[str, dict[str, Any]] | str:
    """Stand-in pipped dice read by the tray's camera: green, yellow and red dice whose pips stand for faces by the
    pip map (companion.games.elder_sign.dice.PipMap). Only exactly the dice the next roll throws are a roll."""
    from companion.errors import DiceError
    from companion.games.elder_sign.dice import Colour, PipMap

    pip_map = PipMap.default()
    faces: list[str] = []
    for colour_name, pips in dice:
        try:
            colour = Colour.parse(colour_name)
        except DiceError:
            return f"a {colour_name} die lies in the tray; Elder Sign is rolled with green, yellow and red dice."
        if pips is None:
            return f"one {colour.value} die could not be read: turn it flat, or tap the dice in on the phone."
        faces.append(f"{colour.value}:{pip_map.face(colour, pips).value}")
    wanted = sorted(c.value for c in game.next_roll_dice())
    seen = sorted(face.split(":")[0] for face in faces)
    if seen != wanted:
        return (f"the tray shows {len(faces)} dice ({', '.join(seen) or 'none'}), but this roll throws "
                f"{len(wanted)} ({', '.join(wanted)}): add or take away dice, then read again.")
    return "roll", {"faces": ",".join(faces)}


MODULE = GameModule(
    rules="elder-sign",
    title="Elder Sign",
    game=Game,
    setup=Setup,
    command=Command,
    load_packs=load_packs,
    **sentences_of(sentences),
    publish=_publish,
    started_keys=("players", "ancient_one"),
    virtual_roll=virtual_roll,
    tray_roll=tray_roll,
    setup_choices={"ancient_one": "text", "physical": "bool"},
    button_commands=("end-turn",),
)
