"""An undo is the table's, not a game's: one sentence for every game ("Undone: " and what the command taken back did,
companion.words.undone), the same in the terminal (GameService.describe), the page's log and the voice (the
narrated record's "text"), on a real SQLite file. Before, Elder Sign, Among Cultists and Spooks said "Something
happens on the table." in the terminal, and only Skeptics' sentences had an undo's words."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from companion.games.base import module_for
from companion.games.skeptics.packs import load_packs
from companion.history import GameStore
from companion.service import GameService

NAMES = ["Ada", "Bo", "Cy", "Di"]
# each game, its setup and the first command a table plays in it
GAMES: dict[str, tuple[dict[str, Any], str, dict[str, str]]] = {
    "skeptics": ({"players": 2, "board": "asylum", "ghost": "child", "seed": 5}, "end-round", {}),
    "elder-sign": ({"players": 2, "seed": 5}, "set-ancient-one", {"doom": "12", "elder_signs": "10"}),
    "among-cultists": ({"players": 4, "cultists": 1, "points_needed": 5, "seed": 5}, "night-done", {}),
    "spooks": ({"players": 3}, "hand", {"cards": "5+9+M;;cat+10"}),
}


@pytest.mark.parametrize("rules", list(GAMES))
def test_an_undo_says_what_it_took_back_in_every_game_and_every_place(tmp_path: Path, rules: str) -> None:
    setup, name, args = GAMES[rules]
    service = GameService(GameStore(tmp_path / "g.sqlite3"), load_packs(), rng=random.Random(5))
    try:
        service.new_game({"rules": rules, "names": NAMES[: setup["players"]], **setup})
        story = service.do(name, args).events[0]["story"]
        assert story and "happens on the table" not in story
        undone = service.undo()
        record = undone.events[0]
        assert record["type"] == "undone" and record["command"]["name"] == name
        said = "Undone: " + story if story.endswith((".", "!", "?")) else f"Undone: {story}."
        assert record["text"] == record["story"] == said  # the page's log and the voice
        assert service.describe(undone.events) == [said]  # the terminal
        # read back from the file: the stored record says the same
        stored = service.store.events(service.game_id)[-1]
        assert service.describe([stored]) == [said]
    finally:
        service.close()


def test_an_undo_among_a_games_events_keeps_its_place_and_the_game_tells_the_others() -> None:
    module = module_for("among-cultists")
    names = module.sentences.NO_NAMES
    ended = {"type": "night_ended"}
    undone = {"type": "undone", "command": {"name": "night-done", "args": {}}, "events": [ended]}
    night = module.describe_event(ended, names)
    assert module.describe_events([ended, undone, ended], names) == [night, f"Undone: {night}", night]
    # a command whose events are not known: what the command is, in the game's words
    bare = {"type": "undone", "command": {"name": "night-done", "args": {}}, "events": []}
    said = module.describe_event(bare, names)
    assert said.startswith("Undone: ") and "happens on the table" not in said and "correction" not in said
