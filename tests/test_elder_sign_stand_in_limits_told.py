"""A stand-in Ancient One whose doom track's length and Elder Sign limit the host has not entered yet
(elder-sign-rules.txt:245 the limit, :419-427 the track are printed on the card): no phone's log, no terminal line
and no OLED tells the stand-in's numbers as the card's, only the counts."""

from __future__ import annotations

from pathlib import Path

from games import write_played_then
from PIL import ImageChops

from companion.games.elder_sign.engine import Game, Reading, Setup
from companion.games.elder_sign.module import MODULE
from companion.games.elder_sign.packs import load_packs
from companion.history import GameStore, replay_game
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
    game, doom, signs = _stand_in_game()
    game.push("doom n=1")
    state = _state(game)
    assert state["doom_max"] is None and state["elder_signs_needed"] is None  # the view tells none (Game.doom_max)
    shown = screens.game_screen(state)
    # the screen reads the view's limit alone (no check of its own): a told one is drawn
    entered = screens.game_screen({**state, "doom_max": doom + 5, "elder_signs_needed": signs + 5})
    assert ImageChops.difference(shown, entered).getbbox() is not None


def test_a_game_stored_before_the_numbers_were_asked_reopens_showing_the_counts_alone(tmp_path: Path) -> None:
    """A file as the companion of before wrote it (Reading.NUMBERS: the stand-in's doom track stood for its
    stored history): its view told the stand-in's length, which each reader hid. Reopened, the view tells none, so
    the log, the terminal, the OLED and the end card show the counts alone as they did; the engine still plays the
    stored history by the stand-in's track (it wakes at its length)."""
    then = Game.new(Setup(players=2, seed=3), load_packs(), reading=Reading.NUMBERS)
    doom = then.ancient.doom
    commands = ["card-did effect=nothing", "end-turn", "doom n=2", "elder-signs n=1"]
    store = GameStore(tmp_path / "then.sqlite")
    try:
        game_id = write_played_then(store, then, commands)
        game = replay_game(store, game_id, load_packs())
    finally:
        store.close()
    assert isinstance(game, Game) and game.reading >= Reading.NUMBERS and game.history == then.history
    state = _state(game)
    assert (state["doom"], state["doom_max"], state["elder_signs"], state["elder_signs_needed"]) == (2, None, 1, None)
    line = MODULE.status_line(state)
    assert "doom 2 ·" in line and "Elder Signs 1" in line and " of " not in line, line
    summary = MODULE.sentences.end_summary(state)
    assert summary["lines"][:2] == ["Elder Signs: 1.", "Doom: 2."]
    oled = screens.game_screen(state)
    # the stand-in's track length, had the view told it, would be drawn: the OLED draws the count alone
    told = screens.game_screen({**state, "doom_max": doom, "elder_signs_needed": then.ancient.elder_signs})
    assert ImageChops.difference(oled, told).getbbox() is not None
    # the stored history played by the stand-in's track: more doom in it wakes the Ancient One at that length
    again = Game.new(Setup(players=2, seed=3), load_packs(), reading=Reading.NUMBERS)
    for command in [*commands[:3], f"doom n={doom}"]:
        again.push(command)
    assert again.view()["ancient_one_awake"] and again.view()["doom"] == doom
