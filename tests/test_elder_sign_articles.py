"""Elder Sign's sentences take the indefinite article from companion.words (one place for it, as the other games do):
"a lore die goes on the spell", and "an orange die lies in the tray" where the tray's camera saw a die of a colour
the game has none of (it said "a orange die")."""

from __future__ import annotations

import pytest
from games import numbers_copied

from companion.games.elder_sign import sentences
from companion.games.elder_sign.dice import Colour, Face
from companion.games.elder_sign.engine import Game, Setup
from companion.games.elder_sign.module import tray_roll
from companion.games.elder_sign.packs import load_packs
from companion.words import a_or_an

FACES = [face.value for face in Face]
WORDS = dict(zip(FACES, sentences.dice_words(FACES).split(", "), strict=True))  # "inv1" -> "1 investigation"


@pytest.mark.parametrize("face", FACES)
@pytest.mark.parametrize("how", ["spell", "assist", "focus"])
def test_a_held_die_takes_the_article_of_its_face(face: str, how: str) -> None:
    said = sentences.describe_event({"type": "die_held", "face": face, "how": how, "player": 0})
    assert f"{a_or_an(WORDS[face])} die" in said.lower()


@pytest.mark.parametrize("colour", [c.value for c in Colour])
@pytest.mark.parametrize("kind", ["die_locked", "die_lost"])
def test_a_die_by_its_colour_takes_the_article_of_the_colour(colour: str, kind: str) -> None:
    said = sentences.describe_event({"type": kind, "colour": colour, "slot": "1"})
    assert said.lower().startswith(f"{a_or_an(colour)} die")


@pytest.mark.parametrize(("colour", "said"), [("orange", "an orange die"), ("blue", "a blue die")])
def test_a_die_of_another_game_in_the_tray_is_named_with_its_article(colour: str, said: str) -> None:
    game = Game.new(Setup(players=1), load_packs())
    numbers_copied(game)  # the stand-in cards' numbers, before the first turn (else the tray says to copy them)
    told = tray_roll(game, [(colour, 3)])
    assert isinstance(told, str) and told.startswith(f"{said} lies in the tray")
