"""An Elder Sign history file written before the companion asked each investigator's choice at the Ancient One's
attack (elder-sign-rules.txt:457-459, "We have to lower either our maximum Sanity or our maximum Stamina by 1"): its
midnight lowered every investigator's maximum sanity at once. When that midnight is the file's last command, no
command after it tells the reading apart; the events it stored do (no attack asked), so the game reopens as it was
played, not asking the choices again."""

from __future__ import annotations

from pathlib import Path

from games import types, write_played_then
from test_elder_sign_engine import packs

from companion.games.elder_sign.engine import Game, Reading, Setup
from companion.history import GameStore, replay_game
from companion.record import RecordBook

SETUP = Setup(players=2, seed=1, names=("Ada", "Bo"))


def _to_the_midnight(game: Game) -> list[str]:
    """The commands that wake the Ancient One and bring the clock to IX, pushed on `game`, then the midnight's."""
    played = [f"doom n={game.view()['doom_max']}"]
    game.push(played[0])
    while game.view()["clock"] != "IX":
        game.push("end-turn")
        played.append("end-turn")
    return [*played, "end-turn"]


def _file_of_then(path: Path) -> tuple[int, Game]:
    """The file as the companion of then wrote it (its midnight chose sanity for everyone), and that game."""
    probe = Game.new(SETUP, packs())
    commands = _to_the_midnight(probe)
    then = Game.new(SETUP, packs(), reading=Reading.SANITY)
    store = GameStore(path)
    game_id = write_played_then(store, then, commands)
    store.close()
    return game_id, then


def test_the_file_of_then_stored_its_midnight_resolved(tmp_path: Path) -> None:
    """The fixture is what it says: the stored midnight lowered both maximums, asked nothing; now it asks."""
    game_id, then = _file_of_then(tmp_path / "then.sqlite")
    store = GameStore(tmp_path / "then.sqlite")
    last = store.command_events(game_id)[len(then.history)]
    store.close()
    assert "ancient_one_attack" in types(last) and "attack_asked" not in types(last)
    assert types(last).count("maximum_lowered") == 2
    now = Game.replay(SETUP, packs(), [c.to_dict() for c in then.history])  # the commands alone: it asks
    assert now.view()["attack_choices"] == [0, 1]


def test_an_old_file_ending_at_its_midnight_reopens_as_it_was_played(tmp_path: Path) -> None:
    path = tmp_path / "then.sqlite"
    game_id, then = _file_of_then(path)
    store = GameStore(path)
    try:
        game = replay_game(store, game_id, packs())  # as the companion reopens a game (GameService.load_game)
        assert isinstance(game, Game) and game.reading >= Reading.SANITY
        view = game.view()
        assert view["attack_choices"] == []  # no choice asked again: the stored midnight lowered sanity
        assert "lower" not in {a.name for a in game.legal_actions()}
        assert view == then.view() and game.history == then.history
        record = RecordBook(store, lambda rules: packs()).record(game_id)  # the games record reads it alike
        assert "problem" not in record and record["commands"] == len(then.history)
    finally:
        store.close()
    # the next midnight, played after reopening, asks each investigator, as the companion plays now
    while game.view()["clock"] != "IX":
        game.push("end-turn")
    assert "attack_asked" in types(game.push("end-turn"))
    assert game.view()["attack_choices"] == [0, 1]
