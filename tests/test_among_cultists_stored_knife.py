"""Among Cultists' start player's knife in a game stored before it passed to a ghost (seance-deduction-rules-de.txt:57
"das Startspieler-Messer weitergereicht", :52 a player voted out "spielt ab jetzt als Geist weiter"). Now the knife
goes to the next seat, a ghost's too; the companion of before skipped the ghosts. A history file written then, a real
SQLite file, reopens to the game as it was played and plays on in that reading; a file written now reopens in the
rule of now (docs/among-cultists.md, gap 9)."""

from __future__ import annotations

import random
import re
from pathlib import Path

from games import write_played_then

from companion.box import Box
from companion.games.among_cultists.engine import Game, Setup
from companion.games.among_cultists.packs import load_packs
from companion.games.skeptics.packs import load_packs as skeptics_packs
from companion.history import GameStore, replay_game
from companion.service import GameService

PACKS = load_packs()
SETUP = Setup(players=4, cultists=1, points_needed=5, start_player=1)
# round 1: seat 2 is voted out and plays on as a ghost; the clean-up passes the knife on from seat 1
ROUND_1 = ["night-done", "next-phase", "draw-event", "next-phase", "vote seat=2", "end-round"]


def passed(events: list[dict[str, object]]) -> tuple[object, object]:
    knife = next(e for e in events if e["type"] == "start_player_passed")
    return knife["seat"], knife["to"]


def test_a_file_written_while_the_knife_skipped_the_ghosts_reopens_as_it_was_played(tmp_path: Path) -> None:
    then = Game.new(SETUP, PACKS, knife_skips_ghosts=True)
    store = GameStore(tmp_path / "then.sqlite3")
    try:
        game_id = write_played_then(store, then, ROUND_1)
        stored = store.command_events(game_id)
        # the file says the knife went from seat 1 past the ghost at seat 2 to seat 3
        assert passed(stored[len(ROUND_1)]) == (1, 3)
        game = replay_game(store, game_id, PACKS)
    finally:
        store.close()
    assert isinstance(game, Game) and game.knife_skips_ghosts
    assert game.view()["start_player"] == 3 and game.view()["order"] == [3, 4, 1]
    assert game.view() == then.view() and game.history == then.history
    # the reading of now would have given the ghost the knife: the file is not what it replays to
    now = Game.replay(SETUP, PACKS, ROUND_1)
    assert now.view()["start_player"] == 2 and not now.knife_skips_ghosts
    # played on after reopening: the knife still skips the ghosts, as the table played it
    for command in ["next-phase", "draw-event", "next-phase", "found-dead seat=4", "vote seat=none called=body"]:
        game.push(command)
    assert passed(game.push("end-round")) == (3, 1)  # seat 4 is a ghost now too


def test_a_file_written_now_reopens_with_the_knife_passed_to_the_ghost(tmp_path: Path) -> None:
    now = Game.new(SETUP, PACKS)
    store = GameStore(tmp_path / "now.sqlite3")
    try:
        game_id = write_played_then(store, now, ROUND_1)
        assert passed(store.command_events(game_id)[len(ROUND_1)]) == (1, 2)
        game = replay_game(store, game_id, PACKS)
    finally:
        store.close()
    assert isinstance(game, Game) and not game.knife_skips_ghosts
    assert game.view()["start_player"] == 2 and game.view()["order"] == [2, 3, 4, 1]
    assert game.view() == now.view()


def test_a_file_whose_knife_never_came_to_a_ghost_plays_on_by_the_rule_of_now(tmp_path: Path) -> None:
    # both readings passed the knife alike (seat 3 is the ghost, the knife went from 1 to 2): nothing stored tells
    # them apart, so the game goes on as the text passes the knife
    commands = [*ROUND_1[:4], "vote seat=3", "end-round"]
    then = Game.new(SETUP, PACKS, knife_skips_ghosts=True)
    store = GameStore(tmp_path / "alike.sqlite3")
    try:
        game_id = write_played_then(store, then, commands)
        game = replay_game(store, game_id, PACKS)
    finally:
        store.close()
    assert isinstance(game, Game) and not game.knife_skips_ghosts
    assert game.view()["start_player"] == then.view()["start_player"] == 2
    for command in ["next-phase", "draw-event", "next-phase"]:
        game.push(command)
    assert passed(game.push("end-round")) == (2, 3)  # now the ghost at seat 3 is given the knife


def test_a_box_edit_during_a_game_stored_before_keeps_its_knife(tmp_path: Path) -> None:
    # the game under way replays with the new event marker (GameService._use_box), in the reading it was played in
    store = GameStore(tmp_path / "then.sqlite3")
    svc = GameService(store, skeptics_packs(), rng=random.Random(2), box=Box(tmp_path / "packs"))
    try:
        game_id = write_played_then(store, Game.new(SETUP, PACKS, knife_skips_ghosts=True), ROUND_1)
        svc.load_game(game_id)
        assert svc.state()["start_player"] == 3
        svc.do("next-phase")
        svc.do("draw-event")
        drawn = svc.state()["event"]
        svc.edit_box("event", drawn["id"], {"name": "Power cut", "text": "No light in the house this round."})
        state = svc.state()
        assert state["event"]["name"] == "Power cut" and state["start_player"] == 3 and state["order"] == [3, 4, 1]
    finally:
        svc.close()


def test_a_file_whose_knife_never_came_to_a_ghost_shows_the_table_the_same_either_way(tmp_path: Path) -> None:
    """Nothing stored tells the two readings apart when the knife never came to a ghost: the commands are the
    same, and so is every event they caused (the same start_player_passed, from 1 to 2). The one thing of the
    view that differs is its "order" (the reading of before left the ghost at seat 3 out of it), and nothing the
    table is shown reads it: the page, the host's buttons, the OLED, the terminal, the log and the end card are
    the same in either reading."""
    from companion.games.among_cultists import sentences, terminal
    from companion.games.among_cultists.module import MODULE
    from hardware.screens import game_screen

    commands = [*ROUND_1[:4], "vote seat=3", "end-round", "next-phase", "draw-event", "next-phase", "points n=1"]
    then = Game.new(SETUP, PACKS, knife_skips_ghosts=True)
    store = GameStore(tmp_path / "alike.sqlite3")
    try:
        game_id = write_played_then(store, then, commands)
        stored = store.command_events(game_id)
        game = replay_game(store, game_id, PACKS)
    finally:
        store.close()
    assert isinstance(game, Game) and not game.knife_skips_ghosts
    # every event as it was stored: the log and the voice say the same
    again = Game.new(SETUP, PACKS)
    for seq, text in enumerate(commands, 1):
        assert again.push(text) == stored.get(seq, [])
    old, new = then.view(), game.view()
    assert {key for key in old.keys() | new.keys() if old.get(key) != new.get(key)} == {"order"}
    assert old["order"] == [2, 4, 1] and new["order"] == [2, 3, 4, 1]
    # what the table is shown of the state
    assert terminal.state_text(old) == terminal.state_text(new) and terminal.status_line(old) == terminal.status_line(
        new
    )
    assert game_screen(old).tobytes() == game_screen(new).tobytes()
    names = MODULE.names(game)
    assert MODULE.publish(old, then) == MODULE.publish(new, game)
    assert MODULE.end_summary(old, names, 12.0) == MODULE.end_summary(new, names, 12.0)
    assert [(a.name, dict(a.args)) for a in then.legal_actions()] == [
        (a.name, dict(a.args)) for a in game.legal_actions()
    ]
    assert sentences.describe_events(stored[6], names)  # the clean-up's words, from the same events either way
    # and no page script, template or other module reads the view's order
    root = Path(__file__).resolve().parent.parent
    readers = [
        path
        for folder in ("web", "hardware", "companion")
        for path in (root / folder).rglob("*")
        if path.suffix in (".js", ".html", ".py")
        and path != root / "companion" / "games" / "among_cultists" / "engine.py"
        and re.search(r"""\.order\b(?!\()|\[["']order["']\]|get\(["']order["']""", path.read_text(encoding="utf-8"))
    ]
    assert readers == []
