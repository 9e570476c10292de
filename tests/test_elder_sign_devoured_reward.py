"""An investigator devoured by their own reward (elder-sign-rules.txt:223 "a reward may not actually be beneficial") or
by the Lost & Found (:293): what more of it the host tells that would go to an investigator (clues :241, items and
allies :229-243, sanity :249, stamina :265) falls on no one, not on the new investigator: the devoured's clues and
items go back (:409) and the new one starts "with full Sanity and Stamina" (:413). What goes to the table still
counts: Elder Signs next to the Ancient One (:245), a gate (:247), a monster (:269), a doom token (:271). A game
stored before (a real SQLite file written by the companion then, tests/data/elder-sign-devoured-reward.*, where the
reward's clues fell on the new investigator) reopens as it was played."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from test_elder_sign_devoured_rest import new_investigator
from test_elder_sign_lost_found import at_the_entrance
from test_elder_sign_task_choice import at_two_tasks

from companion.errors import IllegalCommand
from companion.games.elder_sign.engine import Command, Game, Reading
from companion.games.elder_sign.module import MODULE
from companion.games.elder_sign.packs import load_packs
from companion.history import GameStore, replay_game

DATA = Path(__file__).parent / "data"
OLD_FILE = DATA / "elder-sign-devoured-reward.sqlite"  # written by main before this change (see its .json)
OLD = json.loads((DATA / "elder-sign-devoured-reward.json").read_text())
TABLE = {"elder-signs", "gate", "monster", "doom", "nothing"}


def reward_asked() -> Game:
    """The lore task done, then the other: the card completed, its reward asked (a stand-in)."""
    game = at_two_tasks()
    game.push("roll faces=lore,peril,peril,peril,peril,peril")
    game.push("roll faces=inv1,peril,peril,peril,peril")
    assert game.view()["question"]["part"] == "reward"
    return game


def lost_found_asked() -> Game:
    game = at_the_entrance()
    game.push("lost-found face=terror")
    assert game.view()["question"]["part"] == "lost_found"
    return game


@pytest.mark.parametrize("asked", [reward_asked, lost_found_asked])
def test_after_its_own_devouring_a_reward_gives_the_table_only(asked: object) -> None:
    game = asked()  # type: ignore[operator]
    game.push("card-did effect=sanity n=-9")  # the reward's sanity devours player 1's investigator
    question = game.view()["question"]
    assert question["player"] == 0 and question["devoured"] is True
    taps = {a.args["effect"] for a in game.legal_actions() if a.name == "card-did"}
    assert taps == TABLE  # the page offers only what still applies
    words = str(MODULE.publish(game.view(), game)["card_question"])
    assert "falls on no one" in words and "Elder Signs, a doom token, a monster or a gate" in words, words
    fresh = dict(new_investigator(game))
    for text in ("card-did effect=clues n=2", "card-did effect=common-items", "card-did effect=stamina n=1"):
        with pytest.raises(IllegalCommand, match="falls on no one"):
            game.push(text)
    before = game.view()
    game.push("card-did effect=elder-signs n=1")  # the table's: next to the Ancient One (:245)
    game.push("card-did effect=doom n=-1")  # a doom token off the track (:223 a reward not beneficial, or so)
    assert game.view()["elder_signs"] == before["elder_signs"] + 1 and game.view()["doom"] == before["doom"] - 1
    game.push("card-did effect=nothing")
    assert game.view()["question"] is None
    assert new_investigator(game) == fresh  # nothing of the reward fell on the new investigator (:413)


def test_a_reward_told_before_the_devouring_stands() -> None:
    """What the reward gave before its sanity devoured the investigator is theirs, gone back with them (:409)."""
    game = reward_asked()
    game.push("card-did effect=clues n=2")
    game.push("card-did effect=sanity n=-9")
    assert game.view()["question"]["devoured"] is True
    fresh = new_investigator(game)
    card = game.packs.investigators[str(fresh["id"])]
    assert fresh["clues"] == card.clues  # the new investigator's own clue tokens, none of the devoured's


def test_a_game_stored_before_reopens_as_it_was_played(tmp_path: Path) -> None:
    """Then the reward's clues told after the devouring fell on the new investigator: so it reopens
    (Reading.DEVOUR_REWARD), to the view the companion showed then."""
    db = tmp_path / "old.sqlite"
    shutil.copy(OLD_FILE, db)
    store = GameStore(db)
    try:
        again = replay_game(store, OLD["game_id"], load_packs())
        assert isinstance(again, Game) and again.reading >= Reading.DEVOUR_REWARD
        assert again.history == [Command.parse(text) for text in OLD["commands"]]
        assert again.view() == OLD["view"]
        fell = new_investigator(again)
        assert fell["clues"] == game_clues(again, fell) + 2  # as played then: the reward's 2 clues on the new one
    finally:
        store.close()


def game_clues(game: Game, inv: dict[str, object]) -> int:
    return game.packs.investigators[str(inv["id"])].clues
