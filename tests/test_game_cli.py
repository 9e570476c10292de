"""`companion game ...` through the real console script, in a subprocess, on a temporary file.

The spellings tested here are used outside the project (issue 2, "A terminal interface").
Rule references: "Advancing the Clock" (XII -> III -> VI -> IX -> XII; the Ghost Hour draws an
Environment Card first, then a Room Card), "Action 8: Summon" (needs a summon die).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.games.skeptics.engine import Game, Setup
from companion.games.skeptics.packs import load_packs

pytestmark = pytest.mark.slow  # each test starts the console script several times

SCRIPT = Path(sys.executable).with_name("companion")
REQUIRED = (
    "clock",
    "round",
    "hour",
    "ghost_room",
    "room_deck_left",
    "rooms_revealed",
    "environment_active",
    "summon_dice",
    "timers",
    "ghost_mode",
    "seance_used",
    "outcome",
)


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    command = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "companion"]
    full_env = {**os.environ, **(env or {})}
    full_env.pop("COMPANION_DEBUG", None)
    return subprocess.run([*command, "game", *args], capture_output=True, text=True, env=full_env, timeout=60)


def state_json(db: Path) -> dict[str, Any]:
    done = run("state", "--db", str(db), "--json")
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def assert_clean_error(done: subprocess.CompletedProcess[str], code: int, *words: str) -> None:
    assert done.returncode == code, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout
    for word in words:
        assert word in done.stderr, (word, done.stderr)


def test_a_game_from_new_to_the_ghost_hour_and_back(tmp_path: Path) -> None:
    db = tmp_path / "game.sqlite"
    new = run("new", "--players", "3", "--board", "asylum", "--ghost", "child", "--seed", "7", "--db", str(db))
    assert new.returncode == 0, new.stderr
    assert "seed 7" in new.stdout and "Round 1" in new.stdout

    state = state_json(db)
    for key in REQUIRED:
        assert key in state, key
    assert (state["clock"], state["round"], state["hour"], state["ghost_room"]) == ("XII", 1, 0, None)
    assert state["rooms_revealed"] == [] and state["outcome"] is None
    assert state["room_deck_left"] == 12  # "Room Deck": 3 players remove 8 of the 20 cards

    outputs = []
    for _ in range(4):
        done = run("do", "--db", str(db), "end-round")
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    assert "The clock moves to III." in outputs[0]
    state = state_json(db)
    assert state["clock"] == "XII" and state["hour"] == 1 and state["round"] == 5
    assert len(state["rooms_revealed"]) == 1 and state["ghost_room"] == state["rooms_revealed"][0]
    assert state["room_deck_left"] == 11
    room, name = state["ghost_room"], state["ghost_room_name"]
    # The same game in-process tells which environment card the Ghost Hour drew.
    game = Game.new(Setup(players=3, board="asylum", ghost="child", special_items=3, seed=7), load_packs())
    for _ in range(3):
        game.push("end-round")
    drawn = [e for e in game.push("end-round") if e["type"] == "environment_drawn"]
    assert len(drawn) == 1
    story = outputs[3]
    # The environment card first, then the room card ("Ghost Hour Sequence"); a card not filled in yet is not named
    card = "" if drawn[0].get("stand_in") else f": {drawn[0]['name']}"
    # ("An Environment Card is always drawn first, then a Room Card", skeptics-rulebook.txt:207): told in that order
    hour = story.index(f"The clock moves to XII. Ghost Hour{card}.")
    told = story.index(
        "The environment card, drawn before the room card, is not filled in yet"
        if not card
        else f"{drawn[0]['name']}:",
        hour,
    )
    assert hour < told < story.index(f"The ghost appears in room {room}, the {name}.", hour)

    text = run("state", "--db", str(db))
    assert text.returncode == 0
    assert "clock XII" in text.stdout and f"room {room}" in text.stdout

    undo = run("undo", "--db", str(db))
    assert undo.returncode == 0, undo.stderr
    # Undo says in words what it took back: the end of the round and the Ghost Hour it brought.
    assert undo.stdout.startswith("Undone: ") and "The clock moves to XII." in undo.stdout and "=" not in undo.stdout
    after = state_json(db)
    assert (after["clock"], after["rooms_revealed"], after["room_deck_left"]) == ("IX", [], 12)
    redo = run("do", "--db", str(db), "end-round")
    assert redo.returncode == 0
    assert state_json(db)["rooms_revealed"] == [room]  # the same card comes back

    history = run("history", "--db", str(db))
    assert history.returncode == 0
    lines = history.stdout.strip().splitlines()
    assert len(lines) == 4 and all("Round" in line and "ends" in line and "=" not in line for line in lines)
    records = json.loads(run("history", "--db", str(db), "--json").stdout)
    assert [r["command"]["name"] for r in records] == ["end-round"] * 4
    assert all(r["text"] in line for r, line in zip(records, lines, strict=True))  # the same sentences


def test_refusals_and_usage_errors_exit_cleanly(tmp_path: Path) -> None:
    db = tmp_path / "game.sqlite"
    assert_clean_error(run("do", "--db", str(db), "end-round"), 1, "No game yet", "companion game new")
    nothing = run("state", "--db", str(db))
    assert nothing.returncode == 0 and "No game yet" in nothing.stdout
    assert state_json(db)["game_id"] is None
    assert not db.exists()  # looking does not create a history file

    assert_clean_error(run("new", "--board", "asylum", "--ghost", "child", "--db", str(db)), 2, "--players")
    assert_clean_error(
        run("new", "--players", "3", "--board", "attic", "--ghost", "child", "--db", str(db)),
        2,
        "attic",
        "asylum, museum",
    )
    assert_clean_error(
        run("new", "--players", "3", "--board", "asylum", "--ghost", "nobody", "--db", str(db)), 2, "nobody", "child"
    )
    assert_clean_error(
        run("new", "--players", "9", "--board", "asylum", "--ghost", "child", "--db", str(db)), 2, "1 to 4"
    )

    assert (
        run(
            "new",
            "--players",
            "2",
            "--board",
            "museum",
            "--ghost",
            "child",
            "--seed",
            "1",
            "--db",
            str(db),
            "--name",
            "Museum night",
        ).returncode
        == 0
    )
    before = state_json(db)
    # "Action 8: Summon": no summon die yet, so the rules refuse it (exit 1).
    assert_clean_error(run("do", "--db", str(db), "summon", "success=true"), 1, "summon die")
    assert_clean_error(run("do", "--db", str(db), "fly-away"), 2, "fly-away")
    assert_clean_error(run("do", "--db", str(db), "end-round", "loud"), 2, "key=value")
    assert_clean_error(run("undo", "--db", str(db)), 1, "nothing to undo")
    assert_clean_error(run("frobnicate", "--db", str(db)), 2)
    assert state_json(db) == before  # nothing changed


def test_several_games_list_and_pick(tmp_path: Path) -> None:
    db = tmp_path / "game.sqlite"
    assert (
        run(
            "new",
            "--players",
            "1",
            "--board",
            "asylum",
            "--ghost",
            "child",
            "--seed",
            "3",
            "--name",
            "solo",
            "--db",
            str(db),
        ).returncode
        == 0
    )
    assert run("do", "--db", str(db), "end-round").returncode == 0
    assert (
        run("new", "--players", "4", "--board", "museum", "--ghost", "child", "--physical", "--db", str(db)).returncode
        == 0
    )
    listing = run("list", "--db", str(db))
    assert listing.returncode == 0
    rows = [line.split() for line in listing.stdout.splitlines()]
    numbered = [row for row in rows if row and (row[0].isdigit() or (row[0] == "*" and row[1].isdigit()))]
    assert len(numbered) == 2 and numbered[0][0] == "*"  # the newest game is the current one
    assert "solo" in listing.stdout and "museum" in listing.stdout
    games = json.loads(run("list", "--db", str(db), "--json").stdout)
    assert [g["setup"]["players"] for g in games] == [4, 1] and games[0]["current"]
    solo = games[1]["id"]
    assert state_json(db)["physical"] is True
    picked = run("state", "--db", str(db), "--game", str(solo), "--json")
    assert json.loads(picked.stdout)["clock"] == "III"
    assert state_json(db)["physical"] is True  # looking at a game does not make it the current one
    assert run("do", "--db", str(db), "--game", str(solo), "end-round").returncode == 0
    assert state_json(db)["clock"] == "VI"  # playing it does


def test_a_damaged_file_is_reported_not_crashed_on(tmp_path: Path) -> None:
    db = tmp_path / "game.sqlite"
    db.write_text("not a database at all\n" * 20)
    done = run("state", "--db", str(db))
    assert_clean_error(done, 1, str(db), "Move it aside")


def test_the_default_file_is_in_the_data_directory(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = {"COMPANION_DATA_DIR": str(data), "COMPANION_CONFIG": ""}
    done = run("new", "--players", "2", "--board", "asylum", "--ghost", "child", "--seed", "5", env=env)
    assert done.returncode == 0, done.stderr
    files = list(data.glob("games.sqlite*"))
    assert files and str(files[0].parent) in done.stdout
    assert run("do", "end-turn", env=env).returncode == 0
    again = run("state", "--json", env=env)
    assert json.loads(again.stdout)["current_player"] == 1


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_is_not_an_error(flag: str) -> None:
    done = run(flag)
    assert done.returncode == 0 and "new" in done.stdout and "state" in done.stdout


def test_a_board_added_with_packs_can_be_played(tmp_path: Path) -> None:
    """The boards come from the packs, so a board added in --packs DIR is accepted by `new` (no fixed list)."""
    from companion.games.skeptics.packs import export_bundled

    packs = tmp_path / "packs"
    export_bundled(packs)
    asylum = (packs / "boards" / "asylum.toml").read_text(encoding="utf-8")
    (packs / "boards" / "attic.toml").write_text(asylum.replace('id = "asylum"', 'id = "attic"', 1), encoding="utf-8")
    cards = "".join(
        f'\n[[cards]]\nid = "attic{i}"\nname = "Attic card {i}"\ndeck = "attic"\nduration = "hour"\neffect = "Dusty."\n'
        for i in range(1, 6)
    )
    with (packs / "environment.toml").open("a", encoding="utf-8") as handle:
        handle.write(cards)
    db = tmp_path / "game.sqlite"
    done = run(
        "new",
        "--players",
        "2",
        "--board",
        "attic",
        "--ghost",
        "child",
        "--seed",
        "3",
        "--packs",
        str(packs),
        "--db",
        str(db),
        "--json",
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["board"] == "attic"


def test_commands_lists_the_game_in_play_or_the_rules_asked(tmp_path: Path) -> None:
    from companion.games.elder_sign.engine import COMMANDS as ELDER_SIGN
    from companion.games.skeptics.engine import COMMANDS as SKEPTICS
    from companion.games.spooks.engine import COMMANDS as SPOOKS

    def listed(*args: str) -> tuple[str, list[str]]:
        done = run("commands", *args, "--json")
        assert done.returncode == 0, done.stderr
        found = json.loads(done.stdout)
        return found["rules"], sorted(found["commands"])

    db = tmp_path / "game.sqlite"
    assert listed("--db", str(db)) == ("skeptics", sorted(SKEPTICS))  # no file yet: the default game's, none created
    assert not db.exists()
    assert run("new", "--rules", "spooks", "--players", "3", "--db", str(db)).returncode == 0
    assert listed("--db", str(db)) == ("spooks", sorted(SPOOKS))  # the game in play
    assert listed("--db", str(db), "--rules", "elder-sign") == ("elder-sign", sorted(ELDER_SIGN))
    assert run("new", "--players", "1", "--board", "asylum", "--ghost", "child", "--db", str(db)).returncode == 0
    assert listed("--db", str(db))[0] == "skeptics"
    assert listed("--db", str(db), "--game", "1")[0] == "spooks"  # another saved game's
    words = run("commands", "--db", str(db), "--game", "1")
    assert words.stdout.startswith("Spooks: ") and "  hand " in words.stdout and "summon" not in words.stdout
    assert_clean_error(run("commands", "--rules", "chess"), 2, "unknown rules 'chess'")
