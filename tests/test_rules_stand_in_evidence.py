"""A filled-in ghost card with evidence tokens not filled in yet: the companion's own draw of a stand-in token
("Evidence 4") names no token on the table, so it decides no match and no Ghost Mode; the host names the token the
table turned over, as in physical deck mode (`evidence=SYMBOL`). "Then the acting player flips over one of the seven
face-down Evidence Tokens and compares it to the Séance symbols on the Ghost Card" and "If the image on the Evidence
Token matches any of the Séance symbols on the Ghosts' Card, then place that token over the corresponding image"
(../shared/rules/skeptics-rulebook.txt:174-175); "If all matching symbols are found, the ghost will also go into Ghost
Mode" (:176, :259)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

import pytest
from games import BUNDLED, PACKS, types, write_played_then

from companion.errors import BadCommand, CardsNeeded
from companion.games.skeptics.engine import Game, Setup
from companion.games.skeptics.module import MODULE
from companion.history import GameStore, replay_game

# the ghost cards filled in, the evidence tokens as shipped (every one a stand-in)
GHOST_ONLY = replace(PACKS, evidence=BUNDLED.evidence)
SYMBOLS = PACKS.ghosts["poltergeist"].seance_symbols


def game_of(packs: object = GHOST_ONLY, seed: int = 7) -> Game:
    return Game.new(Setup(players=2, board="asylum", ghost="poltergeist", seed=seed), packs)  # type: ignore[arg-type]


def others() -> list[str]:
    return [sym for sym in BUNDLED.evidence if sym not in SYMBOLS]


def drawn_reading(seed: int) -> tuple[Game, list[str]]:
    """The companion of before: its own draw of the stand-in tokens decided; the solves until Ghost Mode."""
    then = game_of(seed=seed)
    then.evidence_drawn = True
    played: list[str] = []
    while not then.view()["ghost_mode"]:
        for text in ("reveal-clue", "solve"):
            then.push(text)
            played.append(text)
    return then, played


def test_a_stand_in_token_is_named_by_the_host_and_nothing_changes_until_it_is() -> None:
    game = game_of()
    game.push("reveal-clue")
    before = game.view()
    with pytest.raises(CardsNeeded, match="not filled in yet.*evidence=SYMBOL") as refused:
        game.push("solve")
    assert [arg for arg, _ in refused.value.needs] == ["evidence"]
    assert game.view() == before and len(game.history) == 1  # nothing changed
    solve = next(a for a in game.legal_actions() if a.name == "solve")
    assert solve.cards == ("evidence",)  # the page asks which token, as in physical deck mode
    assert solve == next(a for a in game.legal_actions_tried() if a.name == "solve")
    flipped = next(e for e in game.push(f"solve evidence={SYMBOLS[1]}") if e["type"] == "evidence_flipped")
    assert flipped["symbol"] == SYMBOLS[1] and flipped["matched"] is True
    game.push("reveal-clue")
    flipped = next(e for e in game.push(f"solve evidence={others()[0]}") if e["type"] == "evidence_flipped")
    assert flipped["matched"] is False
    assert [e["symbol"] for e in game.view()["evidence"]] == [SYMBOLS[1], others()[0]]


def test_ghost_mode_follows_the_tokens_the_host_named_not_the_companions_draw() -> None:
    """The companion's own draw would have matched every séance symbol; the real tokens turned over match none: no
    Ghost Mode, no séance. Then the host names the séance symbols: Ghost Mode (:176)."""
    seed = next(s for s in range(1, 200) if len(drawn_reading(s)[1]) // 2 <= len(others()))
    then, played = drawn_reading(seed)
    assert then.view()["ghost_mode"]
    game = game_of(seed=seed)
    for n in range(len(played) // 2):
        game.push("reveal-clue")
        events = game.push(f"solve evidence={others()[n]}")
        assert "ghost_mode_started" not in types(events)
    assert not game.view()["ghost_mode"] and not game.view()["seance_available"]
    game = game_of(seed=seed)
    for n, sym in enumerate(SYMBOLS):
        game.push("reveal-clue")
        events = game.push(f"solve evidence={sym}")
        assert ("ghost_mode_started" in types(events)) == (n == len(SYMBOLS) - 1)
    assert game.view()["ghost_mode"] and game.view()["seance_available"]


def test_a_solve_by_roll_asks_too_and_a_token_already_flipped_is_refused() -> None:
    game = game_of()
    game.push("reveal-clue")
    game.push("solve evidence=evidence2")
    game.push("reveal-clue")
    game.push("attempt action=solve need=eye:1")
    with pytest.raises(CardsNeeded, match="evidence=SYMBOL"):
        game.push("roll faces=eye,camera,camera")
    with pytest.raises(Exception, match="flipped already.*still face down"):
        game.push("roll faces=eye,camera,camera evidence=evidence2")
    events = game.push("roll faces=eye,camera,camera evidence=evidence5")
    assert [e["symbol"] for e in events if e["type"] == "evidence_flipped"] == ["evidence5"]


def test_a_filled_in_token_is_the_companions_to_name_and_a_token_named_stays_named_once_filled_in() -> None:
    """Only a stand-in is asked: a token filled in is named by the companion's draw. A token the host named stays
    the one named when the owner fills the evidence in later (Your box replays the game with the new cards)."""
    game = game_of()
    top = game.state.evidence_left[-1]
    mixed = replace(GHOST_ONLY, evidence=MappingProxyType({**BUNDLED.evidence, top: PACKS.evidence[top]}))
    game = game_of(mixed)
    game.push("reveal-clue")
    flipped = next(e for e in game.push("solve") if e["type"] == "evidence_flipped")
    assert flipped["symbol"] == top
    named = game_of()
    named.push("reveal-clue")
    named.push(f"solve evidence={others()[1]}")
    again = Game.replay(named.setup, PACKS, named.history)
    assert [e["symbol"] for e in again.view()["evidence"]] == [others()[1]] and not again.evidence_drawn
    physical_only = game_of(PACKS)
    physical_only.push("reveal-clue")
    with pytest.raises(BadCommand, match="only given in physical deck mode"):
        physical_only.push("end-round room=3")


def test_an_old_file_whose_draw_decided_ghost_mode_reopens_as_it_was_played(tmp_path: Path) -> None:
    """A history file written the old way: its solves took the companion's own stand-in draws (no evidence=), and
    the newest reading refuses them; it opens in the reading it was played in, its Ghost Mode as stored."""
    then, played = drawn_reading(7)
    with GameStore(tmp_path / "then.sqlite") as store:
        fresh = game_of()
        fresh.evidence_drawn = True
        gid = write_played_then(store, fresh, played)
    with GameStore(tmp_path / "then.sqlite") as store:
        game = replay_game(store, gid, GHOST_ONLY, MODULE)
    assert isinstance(game, Game) and game.evidence_drawn
    assert game.view() == then.view() and game.view()["ghost_mode"]
    now = game_of()  # the fixture is what it says: the newest reading refuses one of its solves
    with pytest.raises(CardsNeeded):
        for text in played:
            now.push(text)


def test_a_file_that_named_its_tokens_reopens_in_the_newest_reading(tmp_path: Path) -> None:
    played = ["reveal-clue", f"solve evidence={others()[0]}", "reveal-clue"]
    with GameStore(tmp_path / "now.sqlite") as store:
        gid = write_played_then(store, game_of(), played)
    with GameStore(tmp_path / "now.sqlite") as store:
        game = replay_game(store, gid, GHOST_ONLY, MODULE)
    assert isinstance(game, Game) and not game.evidence_drawn
    with pytest.raises(CardsNeeded):
        game.push("solve")
