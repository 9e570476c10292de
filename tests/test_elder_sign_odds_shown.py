"""Elder Sign's odds as the page shows them before the roll (companion/games/elder_sign/module.py publish): the
chance as "Roll for me" plays it (no clue, no die held) beside the best play, the Ancient One's combat, and the
sentences that say them (companion/games/elder_sign/sentences.py odds_words)."""

from __future__ import annotations

import random
from pathlib import Path

from games import cards_told, numbers_copied

from companion.games.elder_sign.odds import card_probability
from companion.games.elder_sign.sentences import odds_words, percent
from companion.games.skeptics.packs import load_packs
from companion.history import GameStore
from companion.service import GameService


def _service(tmp_path: Path) -> GameService:
    service = GameService(GameStore(tmp_path / "games.sqlite"), load_packs(), rng=random.Random(4))
    service.new_game({"rules": "elder-sign", "players": 2, "seed": 3, "names": ["Anna", "Ben"]})
    numbers_copied(service._game, service)
    return service


def test_before_the_first_roll_the_card_odds_say_what_roll_for_me_does(tmp_path: Path) -> None:
    service = _service(tmp_path)
    try:
        assert service.state().get("card_odds") is None  # at the Entrance: nothing to roll for yet
        service.do("move", {"to": "2"})
        assert service.state().get("card_odds") is None  # its card is not filled in: no tasks, no odds yet
        service.do("set-tasks", {"adventure": "2", "tasks": "inv:4,lore:1;peril:1", "ordered": "false"})
        state = service.state()
        odds = state["card_odds"]
        card = next(c for c in state["adventures"] if c["slot"] == "2")
        tasks = [t["need"] for t in card["tasks"] if not t["done"]]
        dice = len(state["next_dice"])
        clue = next(i for i in state["investigators"] if i["active"])["clues"]
        assert state["attempt"] is None and odds["dice"] == dice
        # "Roll for me" throws every die and neither spends a clue nor holds one
        assert odds["roll_for_me"] == card_probability(tasks, card["ordered"], dice, 0, 0, None, 0, 0)
        assert odds["probability"] == card_probability(tasks, card["ordered"], dice, 0, 0, None, 1, min(clue, 2))
        assert odds["roll_for_me"] < odds["probability"]  # the clue and the focus help
        words = state["odds_words"]
        assert words[0].startswith('"Roll for me" with 6 dice') and percent(odds["roll_for_me"]) in words[0]
        assert percent(odds["probability"]) in words[1] and "clue" in words[1] and "focus" in words[1]
        assert all("inv:" not in w and "ancient-one" not in w for w in words)
    finally:
        service.close()


def test_the_ancient_ones_combat_has_its_odds(tmp_path: Path) -> None:
    service = _service(tmp_path)
    try:
        while not service.state()["ancient_one_awake"]:
            service.do("doom", {"n": "5"})
        cards_told(service._game, service)
        service.do("end-turn")
        # its card is not filled in yet: no combat task and no odds until the host enters the one printed on it
        assert service.state()["odds"] is None and service.state()["ancient_one"]["combat_missing"] is True
        service.do("set-tasks", {"adventure": "ancient-one", "tasks": "inv:3,lore:1"})
        state = service.state()
        odds = state["card_odds"]
        assert odds["combat"] and odds["slot"] == "ancient-one" and odds["tasks"] == []
        combat = state["ancient_one"]["combat"]
        assert odds["roll_for_me"] == card_probability([combat], False, len(state["next_dice"]), 0, 0, None, 0, 0)
        assert "a blow against the Ancient One" in state["odds_words"][0]
    finally:
        service.close()


def test_the_odds_sentences_round_the_edges_and_skip_what_is_not_worked_out() -> None:
    assert percent(0.2174) == "21.7 %" and percent(0.99999) == "over 99.9 %" and percent(0.0001) == "under 0.1 %"
    coloured = {
        "name": "The Hedge Maze",
        "dice": 8,
        "probability": None,
        "roll_for_me": None,
        "clues": 1,
        "holds": 1,
        "tasks": [{"need": "inv:4,lore:1", "probability": 0.5}],
    }
    assert odds_words(coloured) == ["Each task alone — 4 investigation and 1 lore: 50.0 %."]
    # a fresh player read "3 investigation over 99.9 % · 1 lore 99.3 %" oddly: each task's need, then its chance
    two = coloured | {"tasks": [{"need": "inv:3", "probability": 0.99995}, {"need": "lore:1", "probability": 0.9931}]}
    assert odds_words(two) == ["Each task alone — 3 investigation: over 99.9 % · 1 lore: 99.3 %."]
