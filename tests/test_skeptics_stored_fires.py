"""A Skeptics game stored before the companion asked where a Fire card's tokens go (Game.fires_counted,
skeptics-rulebook.txt:286): a Fire card drawn and not fought yet, its stored `fires_placed` naming no spaces, reopens
to the state it was played to (the fires counted), not to a question the table was never asked."""

from __future__ import annotations

from pathlib import Path

from games import PACKS

from companion.games.skeptics.engine import Game, Setup
from companion.games.skeptics.module import MODULE
from companion.history import GameStore, replay_game


def test_a_stored_fire_drawn_and_not_fought_yet_reopens_with_its_fires_counted() -> None:
    setup = Setup(players=2, board="asylum", ghost="child", seed=4, physical=True)
    then = Game.new(setup, PACKS)
    then.fires_counted = True  # as the companion played it then
    played = ["end-round", "end-round", "end-round", "end-round room=8 environment=fire", "action kind=move"]
    events = [then.push(text) for text in played]
    assert then.view()["fires"] > 0 and then.view()["question"] is None
    game = Game.replay(setup, PACKS, played, events)
    assert game.fires_counted
    assert game.view() == then.view()


def _file_without_events(path: Path, setup: Setup, played: list[str]) -> int:
    """A history file as the companion wrote it before it stored the events of each command: the setup and the
    commands only."""
    with GameStore(path) as store:
        game_id = store.create_game(setup.to_dict())
        for seq, text in enumerate(played, 1):
            store.append(game_id, seq, Game.command_type.parse(text).to_dict(), [])
    return game_id


def test_a_file_without_events_whose_fire_was_drawn_and_not_fought_reopens_with_its_fires(tmp_path: Path) -> None:
    """Fire Card (skeptics-rulebook.txt:286): a game stored before events were, that drew the Fire and never fought
    it, has no stored `fires_placed` to tell that its fires were counted; it reopens with the fires it had, not
    with none and a question the table was never asked."""
    setup = Setup(players=2, board="asylum", ghost="child", seed=4, physical=True)
    then = Game.new(setup, PACKS)
    then.fires_counted = True  # as the companion played it then
    played = ["end-round", "end-round", "end-round", "end-round room=8 environment=fire", "action kind=move"]
    for text in played:
        then.push(text)
    assert then.view()["fires"] > 0 and then.view()["question"] is None
    game_id = _file_without_events(tmp_path / "then.sqlite", setup, played)
    with GameStore(tmp_path / "then.sqlite") as store:
        game = replay_game(store, game_id, PACKS, MODULE)
    assert isinstance(game, Game) and game.fires_counted
    assert game.view() == then.view() and game.view()["fires"] == then.view()["fires"]


def test_a_file_without_events_and_without_a_fire_reopens_in_the_newest_reading(tmp_path: Path) -> None:
    """No Fire drawn: nothing tells the fires were counted, and the game asks where a later Fire's tokens go."""
    setup = Setup(players=2, board="asylum", ghost="child", seed=4, physical=True)
    played = ["end-round", "end-round", "end-round", "end-round room=8 environment=corpse", "action kind=move"]
    game_id = _file_without_events(tmp_path / "then.sqlite", setup, played)
    with GameStore(tmp_path / "then.sqlite") as store:
        game = replay_game(store, game_id, PACKS, MODULE)
    assert isinstance(game, Game) and not game.fires_counted
    fresh = Game.new(setup, PACKS)
    for text in played:
        fresh.push(text)
    assert game.view() == fresh.view()


def test_a_file_without_events_reopened_and_played_on_reopens_again_with_its_fires(tmp_path: Path) -> None:
    """The file of before with the Fire drawn and not fought, reopened and played on (the new commands store their
    events, the old ones still none): reopened again, it still has the fires it had, not a question it never asked."""
    setup = Setup(players=2, board="asylum", ghost="child", seed=4, physical=True)
    played = ["end-round", "end-round", "end-round", "end-round room=8 environment=fire", "action kind=move"]
    game_id = _file_without_events(tmp_path / "then.sqlite", setup, played)
    with GameStore(tmp_path / "then.sqlite") as store:
        game = replay_game(store, game_id, PACKS, MODULE)
        assert isinstance(game, Game) and game.fires_counted and game.view()["fires"] > 0
        command = Game.command_type.parse("action kind=move")
        store.append(game_id, len(game.history) + 1, command.to_dict(), game.push(command))
        again = replay_game(store, game_id, PACKS, MODULE)
    assert isinstance(again, Game) and again.fires_counted
    assert again.view() == game.view() and again.view()["question"] is None
