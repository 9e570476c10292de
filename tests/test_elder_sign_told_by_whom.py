"""A Mythos card not filled in yet that costs sanity to two named investigators, or sanity to one and to everyone, is
told in full: each of its sanity, stamina or clues is told once for each whom it fell on (every investigator, or one
player's), where a fresh player at midnight told "Sanity, Ben -1" and every other sanity row vanished (the question
had taken sanity as told for the whole card). A second tell for the same whom is still refused, naming whom."""

from __future__ import annotations

import pytest
from test_elder_sign_engine import STAND_IN_MYTHOS, game_with

from companion.errors import IllegalCommand


def sanity_whom(game: object) -> list[str]:
    """Whom the card's sanity may still be told for (the legal card-did taps' player=)."""
    return [a.args["player"] for a in game.legal_actions() if a.name == "card-did" and a.args["effect"] == "sanity"]  # type: ignore[attr-defined]


def sanity(game: object) -> list[int]:
    return [i["sanity"] for i in sorted(game.view()["investigators"], key=lambda i: i["player"])]  # type: ignore[attr-defined]


def test_a_mythos_cards_sanity_is_told_for_two_investigators_and_for_everyone() -> None:
    game = game_with("easy", players=3, mythos=STAND_IN_MYTHOS)
    assert game.view()["question"]["kind"] == "mythos"
    before = sanity(game)
    assert sanity_whom(game) == ["all", "1", "2", "3"]
    game.push("card-did effect=sanity player=2")
    assert sanity_whom(game) == ["all", "1", "3"]  # the others' rows stay; player 2's is told
    game.push("card-did effect=sanity player=3 n=-2")
    game.push("card-did effect=sanity player=all")
    assert sanity(game) == [before[0] - 1, before[1] - 2, before[2] - 3]
    assert sanity_whom(game) == ["1"]
    with pytest.raises(IllegalCommand, match="sanity for player 2 was told already"):
        game.push("card-did effect=sanity player=2")
    with pytest.raises(IllegalCommand, match="sanity for every investigator was told already"):
        game.push("card-did effect=sanity player=all")
    stamina = [a.args["player"] for a in game.legal_actions() if a.name == "card-did" and a.args["effect"] == "stamina"]
    assert stamina == ["all", "1", "2", "3"]  # another kind is its own
    game.push("card-did effect=nothing")
    assert game.view()["question"] is None


def test_an_investigators_own_card_still_takes_each_kind_once() -> None:
    """A card that fell on one investigator (a terror, a penalty) names no whom: its sanity is told once."""
    game = game_with("easy", mythos=STAND_IN_MYTHOS)
    game.push("card-did effect=doom n=2")
    with pytest.raises(IllegalCommand, match="this card's doom was told already"):
        game.push("card-did effect=doom")
