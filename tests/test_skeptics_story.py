"""What the table is told in Skeptics' words (companion.games.skeptics.sentences), for a fresh player's findings: the
Ghost Hour tells its environment card before the ghost appears, and a lost game's end card counts no icon sets of a
ghost card whose count was never told. Each test quotes ../shared/rules/skeptics-rulebook.txt."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

import pytest
from games import BUNDLED, PACKS

from companion.games.skeptics.engine import Game, Setup
from companion.games.skeptics.packs import Packs
from companion.games.skeptics.sentences import Names, describe_events, end_summary


def ghost_hour(packs: Packs) -> tuple[Game, list[str]]:
    """A game brought to its first Ghost Hour, and what the table is told of it."""
    game = Game.new(Setup(players=2, board="asylum", ghost="child", seed=4), packs)
    for _ in range(3):
        game.push("end-round")
    events = game.push("end-round")
    return game, describe_events(events, Names.of_game(game))


def environment_filled_in(packs: Packs) -> Packs:
    cards = {c.id: replace(c, placeholder=False) for c in packs.environment.values()}
    return replace(packs, environment=MappingProxyType(cards))


@pytest.mark.parametrize("packs", [BUNDLED, environment_filled_in(PACKS)], ids=["stand-in card", "filled-in card"])
def test_the_ghost_hour_tells_the_environment_card_before_the_ghost_appears(packs: Packs) -> None:
    """Ghost Hour Sequence: "An Environment Card is drawn and played immediately", then "A Room Card is drawn, and the
    Ghost appears"; "Note: An Environment Card is always drawn first, then a Room Card" (:204-207)."""
    game, said = ghost_hour(packs)
    card = packs.environment[game.state.env_active[-1]] if game.state.env_active else None
    appears = next(i for i, line in enumerate(said) if line.startswith("The ghost appears"))
    hour = next(i for i, line in enumerate(said) if line.startswith("Ghost Hour"))
    env = next(
        i
        for i, line in enumerate(said)
        if "environment card" in line.lower() or (card is not None and line.startswith(card.name + ":"))
    )
    assert hour < env < appears, said


def test_a_lost_games_end_card_counts_no_sets_of_a_card_whose_count_was_never_told() -> None:
    """Game End: Losing: "If the round expires or the Ghost does not appear, the game ends and the players lose"; Ghost
    Card: "Icon Sets to Resolve" (:223) are on the card on the table: until the host told how many, no count is made
    up ("0 of 5" was the stand-in's five)."""
    game = Game.new(Setup(players=2, board="asylum", ghost="child", seed=4), BUNDLED)
    while game.outcome is None:
        game.push("end-round")
        for tap in [a for a in game.legal_actions() if a.name == "tell-card"][-1:]:
            game.push(tap.command())
    assert game.view()["outcome"] == "lost" and game.view()["ghost_sets_told"] == 0
    lines = end_summary(game.view())["lines"]
    assert "0 icon sets proven." in lines and not any(" of 5 icon sets" in line for line in lines)
    told = Game.new(Setup(players=2, board="asylum", ghost="child", seed=4), BUNDLED)
    told.push("ghost-at room=3")
    told.push("tell-ghost sets=4")
    assert "0 of 4 icon sets proven." in end_summary(told.view())["lines"]
