"""A stand-in Ancient One whose doom track's length and Elder Sign limit the host has not entered yet
(elder-sign-rules.txt:245 the limit, :419-427 the track are printed on the card): no phone's log, no terminal line
and no OLED tells the stand-in's numbers as the card's, only the counts."""

from __future__ import annotations

from PIL import ImageChops

from companion.games.elder_sign.engine import Game, Setup
from companion.games.elder_sign.module import MODULE
from companion.games.elder_sign.packs import load_packs
from hardware import screens


def _stand_in_game() -> tuple[Game, int, int]:
    game = Game.new(Setup(players=2, seed=3), load_packs())
    stand_in = game.packs.ancient_ones[game.view()["ancient_one"]["id"]]
    assert stand_in.placeholder and game.ancient_numbers_missing()
    return game, stand_in.doom, stand_in.elder_signs


def _state(game: Game) -> dict[str, object]:
    view = game.view()
    return {**view, **MODULE.publish(view, game), "rules": "elder-sign"}


def test_the_log_and_the_terminal_tell_the_counts_alone_until_the_numbers_are_entered() -> None:
    game, doom, signs = _stand_in_game()
    events = game.push("doom n=1") + game.push("elder-signs n=1")
    words = MODULE.describe_events(events, MODULE.names(game))
    assert any("doom token is added: 1" in w for w in words), words
    assert not any(f"of {doom}" in w or f"of {signs}" in w for w in words), words
    line = MODULE.status_line(_state(game))
    assert "doom 1 ·" in line and "Elder Signs 1" in line and f"of {doom}" not in line and f"of {signs}" not in line
    entered = (doom + 2, signs + 3)  # the card's, other than the stand-in's
    game.push(f"set-ancient-one doom={entered[0]} elder_signs={entered[1]}")
    events = game.push("doom n=1") + game.push("elder-signs n=1")
    words = MODULE.describe_events(events, MODULE.names(game))
    assert any(f"2 of {entered[0]}" in w for w in words) and any(f"2 of {entered[1]}" in w for w in words), words
    line = MODULE.status_line(_state(game))
    assert f"doom 2 of {entered[0]}" in line and f"Elder Signs 2 of {entered[1]}" in line, line


def test_the_oled_shows_no_stand_in_limit() -> None:
    game, doom, _ = _stand_in_game()
    game.push("doom n=1")
    state = _state(game)
    shown = screens.game_screen(state)
    other_max = screens.game_screen({**state, "doom_max": doom + 5, "elder_signs_needed": 99})
    assert ImageChops.difference(shown, other_max).getbbox() is None  # the stand-in's numbers are not drawn
    told = {"doom_max": doom + 5, "elder_signs_needed": 99}
    entered = screens.game_screen({**state, **told, "stand_ins": {**state["stand_ins"], "ancient_numbers": False}})
    assert ImageChops.difference(shown, entered).getbbox() is not None  # entered numbers are
