"""Elder Sign's sentences: every event in words, banners at the big moments, refusals in the page's words."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from games import cards_told, numbers_copied
from test_elder_sign_engine import new

from companion.errors import BadCommand, IllegalCommand
from companion.games.elder_sign import sentences
from companion.games.elder_sign.engine import COMMANDS, Game, Setup
from companion.games.elder_sign.module import MODULE
from companion.games.elder_sign.packs import load_packs
from companion.games.elder_sign.sentences import Names, announcement, describe_event, for_players

ENGINE = Path(sentences.__file__).with_name("engine.py")
EMITTED = sorted(set(re.findall(r'emit\(\s*"([a-z_]+)"', ENGINE.read_text(encoding="utf-8"))))
FALLBACK = describe_event({"type": "no_such_event"})
SPELLINGS = re.compile(
    r"\b[a-z_]+=|\(:\d+|[\s,]:\d+|\b(?:inv|lore|peril|terror):\d|\.\.|"
    + "|".join(re.escape(c) for c in COMMANDS if "-" in c)
)


def played_events(games: int = 6, steps: int = 120) -> list[dict[str, object]]:
    """Events of random games played through the engine's own legal actions (with random faces)."""
    out: list[dict[str, object]] = []
    packs = load_packs()
    for seed in range(games):
        rng = random.Random(seed)
        game = Game.new(Setup(players=2, seed=seed), packs)
        numbers_copied(game)
        out += game.setup_events
        for _ in range(steps):
            cards_told(game)  # the host tells each stand-in card: nothing (more)
            actions = [a for a in game.legal_actions() if a.group in ("turn", "move", "roll")]
            if not actions or game.outcome is not None:
                break
            action = rng.choice(actions)
            faces = ",".join(
                f"{c.value}:{rng.choice(c.faces).value}" for c in game.next_roll_dice(action.name == "clue")
            )
            fill = {"faces": faces, "tasks": rng.choice(["inv:3;lore:1", "peril:1,inv:2"]), "ordered": "false"}
            out += game.push(action.command(**{k: fill[k] for k in action.asks}))
        if game.outcome is None and not game.view()["ancient_one_awake"]:
            out += game.push(f"doom n={game.ancient.doom}")
    return out


@pytest.fixture(scope="module")
def events() -> list[dict[str, object]]:
    return played_events()


def test_every_event_the_engine_emits_has_its_own_sentence() -> None:
    assert len(EMITTED) > 30
    for kind in EMITTED:
        text = describe_event({"type": kind, "player": 0, "investigator": "Ann", "name": "Card", "dice": ["inv2"]})
        assert text != FALLBACK, kind
        assert text[0].isupper() and text[-1] in ".!?", (kind, text)


def test_the_sentences_of_played_games_carry_no_command_spelling(events: list[dict[str, object]]) -> None:
    kinds = {e["type"] for e in events}
    assert {"turn_ended", "midnight", "mythos_drawn", "rolled"} <= kinds
    names = Names(("Ann", "Bo"))
    for event in events:
        text = describe_event(event, names)
        assert text != FALLBACK
        assert not SPELLINGS.search(text), text
        assert "None" not in text, (event, text)


def test_the_big_moments_have_banners(events: list[dict[str, object]]) -> None:
    midnight = next(e for e in events if e["type"] == "midnight")
    banner = announcement(midnight)
    assert banner is not None and banner["kind"] == "midnight" and banner["text"]
    terror = announcement({"type": "terror", "count": 1, "name": "Card", "effect": {"sanity": -1}})
    assert terror is not None and "sanity" in terror["text"]
    assert announcement({"type": "rolled", "dice": ["inv1"]}) is None


def test_words_for_tasks_dice_and_effects() -> None:
    assert sentences.need_words("inv:4,lore:1") == "4 investigation and 1 lore"
    assert (
        sentences.dice_words(["inv2", "yellow:inv4", "red:wild"]) == "2 investigation, yellow 4 investigation, red wild"
    )
    assert "Elder Sign" in sentences.effect_words({"elder_signs": 1, "clues": 2})


def refusals() -> list[str]:
    packs = load_packs()
    game = Game.new(Setup(players=2, seed=4), packs)
    numbers_copied(game)
    cards_told(game)  # the setup's Mythos card: a turn ends only once it is told
    tries = [
        "move to=99",
        "roll faces=inv1",
        "clue faces=inv1",
        "give-up",
        "first-aid",
        "clock hours=4",
        "adjust player=1",
        "add-die colour=yellow",
        "monster adventure=1 need=nothing",
        "move to=1",
        "roll faces=inv1 hold=lore",
        "set-tasks adventure=1 tasks=wrong",
        "end-turn attack=legs",
        "clock hours=5",
        "move to=entrance",
        "first-aid full=all",
    ]
    out = []
    for text in tries:
        try:
            game.push(text)
        except (BadCommand, IllegalCommand) as exc:
            out.append(str(exc))
    return out


def test_refusals_are_put_in_the_page_s_words() -> None:
    messages = refusals()
    assert len(messages) >= 8
    for message in messages:
        words = for_players(message)
        assert not SPELLINGS.search(words), (message, words)
        assert words and words[0].isupper()


def test_the_adventures_in_play_are_listed_by_the_names_their_sentences_say() -> None:
    """A card not filled in yet is one card with one name: the page's list of the adventures in play names it as
    the buttons and the sentences do ("the adventure in place 1"), never by its stand-in's pack name ("Adventure
    6"); a card filled in keeps its own name."""
    game = Game.new(Setup(players=2, seed=3), load_packs())  # the bundled adventures are all stand-ins
    numbers_copied(game)
    published = MODULE.publish(game.view(), game)
    names = published["adventure_names"]
    slots = [str(c["slot"]) for c in game.view()["adventures"]]
    assert sorted(names) == sorted(slots) and published["stand_ins"]["adventures"] == slots
    moves = {str(a.args["to"]): a for a in game.legal_actions() if a.name == "move" and a.args["to"] != "entrance"}
    for slot in slots:
        assert names[slot] == f"the adventure in place {slot}"
        assert sentences.action_label(moves[slot].to_dict(), Names.of_game(game)) == f"Go to {names[slot]}"
    pack_names = {c["name"] for c in game.view()["adventures"]}
    assert not pack_names & set(names.values())

    filled = new()
    shown = MODULE.publish(filled.view(), filled)
    assert shown["adventure_names"] == {str(c["slot"]): c["name"] for c in filled.view()["adventures"]}
    assert not shown["stand_ins"]["adventures"]
