"""Rules findings of a fresh player's Elder Sign game, each checked against elder-sign-rules.txt: the setup checklist
says which Ancient One was chosen (:81 "choose an Ancient One ... place the Ancient One card next to the Clock"), a
stand-in one as the Ancient One, its card not filled in yet."""

from __future__ import annotations

from pathlib import Path

from test_elder_sign_stand_in_ancient import filled_in

from companion.games.elder_sign import sentences
from companion.games.elder_sign.engine import Game, Setup
from companion.games.elder_sign.packs import load_packs


def _checklist(game: Game) -> dict[str, str]:
    items = sentences.setup_checklist(game.view(), sentences.Names.of_game(game), False)
    return {item["id"]: item["text"] for item in items}


def test_the_setup_checklist_says_which_ancient_one_was_chosen(tmp_path: Path) -> None:
    packs = load_packs()
    for ancient in ("nyarlathotep", "ancient_two"):
        stand_in = _checklist(Game.new(Setup(players=2, ancient_one=ancient, seed=1), packs))["ancient_one"]
        assert "The companion chose the Ancient One, its card not filled in yet" in stand_in, stand_in
        assert packs.ancient_ones[ancient].name not in stand_in  # a stand-in's name is never told as its card's
    real = filled_in(tmp_path)
    text = _checklist(Game.new(Setup(players=2, ancient_one="nyarlathotep", seed=1), real))["ancient_one"]
    assert text == "Lay Nyarlathotep's card beside the clock (the companion chose it)."
