"""`[game] packs_dir` / COMPANION_PACKS_DIR: the owner's edited packs reach `companion game` and `companion serve`.

Real files throughout: the bundled packs are exported to a temporary folder, a room is renamed in the copy,
and the console scripts run in a subprocess with a private HOME and data directory.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion import paths
from companion.config import load_config, parse_config
from companion.errors import ConfigError
from companion.games.skeptics.packs import export_bundled, load_packs

REPO = Path(__file__).resolve().parents[1]
SCRIPT = Path(sys.executable).parent / "companion"
ROOM = 7  # the Asylum's room 7 ("Isolation" in the bundled board)
NEW_NAME = "Quiet Cell of our table"


def edited_packs(folder: Path) -> Path:
    """The bundled packs exported to `folder`, with room 7 of the Asylum renamed."""
    export_bundled(folder)
    board = folder / "boards" / "asylum.toml"
    old = load_packs().boards["asylum"].space_name(ROOM)
    text = board.read_text(encoding="utf-8")
    assert f'name = "{old}"' in text
    board.write_text(text.replace(f'name = "{old}"', f'name = "{NEW_NAME}"', 1), encoding="utf-8")
    return folder


def clean_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_") and k != "XDG_CONFIG_HOME"}
    env.update(HOME=str(tmp_path / "home"), COMPANION_DATA_DIR=str(tmp_path / "data"), **extra)
    return env


def run(tool: str, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    command = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "companion"]
    return subprocess.run([*command, tool, *args], capture_output=True, text=True, env=env, timeout=60)


def ghost_room_name(env: dict[str, str], *extra: str) -> Any:
    """Start a game, put the ghost in room 7 (the host's correction), and read the room's name from the state."""
    new = run(
        "game",
        "new",
        "--players",
        "2",
        "--board",
        "asylum",
        "--ghost",
        "child",
        "--seed",
        "5",
        "--json",
        *extra,
        env=env,
    )
    assert new.returncode == 0, new.stderr
    assert json.loads(new.stdout)["board"] == "asylum"
    moved = run("game", "do", "ghost-at", f"room={ROOM}", *extra, env=env)
    assert moved.returncode == 0, moved.stderr
    state = run("game", "state", "--json", *extra, env=env)
    assert state.returncode == 0, state.stderr
    result = json.loads(state.stdout)
    assert result["ghost_room"] == ROOM
    return result["ghost_room_name"]


def assert_exit_2(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    for word in words:
        assert word in done.stderr, (word, done.stderr)


@pytest.fixture
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """An environment for load_config without the machine's /etc file or the user's file."""
    monkeypatch.setattr(paths, "SYSTEM_CONFIG", tmp_path / "etc" / "config.toml")
    return {"HOME": str(tmp_path / "home"), "COMPANION_DATA_DIR": str(tmp_path / "data")}


# -- the setting ------------------------------------------------------------------------------------------


def test_unset_means_the_bundled_packs_or_the_data_directorys_packs_folder(
    isolated: dict[str, str], tmp_path: Path
) -> None:
    config = load_config(env=isolated)
    assert config.game.packs_dir is None and config.packs_dir is None
    assert config.load_packs().boards["asylum"].space_name(ROOM) != NEW_NAME
    edited_packs(tmp_path / "data" / "packs")
    config = load_config(env=isolated)
    assert config.packs_dir == tmp_path / "data" / "packs"
    assert config.load_packs().boards["asylum"].space_name(ROOM) == NEW_NAME


def test_the_file_sets_it_and_the_environment_wins(isolated: dict[str, str], tmp_path: Path) -> None:
    mine, other = edited_packs(tmp_path / "mine"), tmp_path / "other"
    export_bundled(other)
    config = parse_config({"game": {"packs_dir": str(other)}}, env=isolated)
    assert config.packs_dir == other
    assert config.load_packs().boards["asylum"].space_name(ROOM) != NEW_NAME
    config = parse_config({"game": {"packs_dir": str(other)}}, env={**isolated, "COMPANION_PACKS_DIR": str(mine)})
    assert config.packs_dir == mine and config.packs_key == "COMPANION_PACKS_DIR"
    assert config.load_packs().boards["asylum"].space_name(ROOM) == NEW_NAME


@pytest.mark.parametrize("where", ["file", "env"])
def test_a_missing_folder_is_refused_naming_the_setting(isolated: dict[str, str], tmp_path: Path, where: str) -> None:
    missing = tmp_path / "nowhere"
    key = "game.packs_dir" if where == "file" else "COMPANION_PACKS_DIR"
    with pytest.raises(ConfigError, match=f"^{key}: the packs folder .*nowhere does not exist"):
        if where == "file":
            parse_config({"game": {"packs_dir": str(missing)}}, env=isolated)
        else:
            parse_config({}, env={**isolated, "COMPANION_PACKS_DIR": str(missing)})


def test_a_wrong_value_is_refused(isolated: dict[str, str]) -> None:
    with pytest.raises(ConfigError, match=r"^game.packs_dir: expected the path of a folder of pack files, got 7"):
        parse_config({"game": {"packs_dir": 7}}, env=isolated)


def test_a_broken_pack_names_the_setting_the_file_and_the_entry(isolated: dict[str, str], tmp_path: Path) -> None:
    folder = edited_packs(tmp_path / "mine")
    ghosts = folder / "ghosts.toml"
    ghosts.write_text(
        ghosts.read_text(encoding="utf-8").replace("difficulty = 1", 'difficulty = "easy"', 1), encoding="utf-8"
    )
    config = parse_config({"game": {"packs_dir": str(folder)}}, env=isolated)
    with pytest.raises(ConfigError) as caught:
        config.load_packs()
    message = str(caught.value)
    assert message.startswith("game.packs_dir (")
    assert str(ghosts) in message and "difficulty" in message and "ghosts[" in message


# -- companion game --------------------------------------------------------------------------------------


def test_companion_game_uses_COMPANION_PACKS_DIR(tmp_path: Path) -> None:
    folder = edited_packs(tmp_path / "mine")
    assert ghost_room_name(clean_env(tmp_path, COMPANION_PACKS_DIR=str(folder))) == NEW_NAME


def test_companion_game_uses_the_configuration_file(tmp_path: Path) -> None:
    folder = edited_packs(tmp_path / "mine")
    config = tmp_path / "config.toml"
    config.write_text(f'[game]\npacks_dir = "{folder}"\n', encoding="utf-8")
    env = clean_env(tmp_path)
    assert ghost_room_name(env, "--config", str(config)) == NEW_NAME
    # The same file found through COMPANION_CONFIG, on a fresh data directory.
    env["COMPANION_CONFIG"], env["COMPANION_DATA_DIR"] = str(config), str(tmp_path / "data2")
    assert ghost_room_name(env) == NEW_NAME


def test_companion_game_uses_the_packs_folder_of_the_data_directory(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    bundled = ghost_room_name(env)
    assert bundled == load_packs().boards["asylum"].space_name(ROOM) != NEW_NAME
    edited_packs(tmp_path / "data" / "packs")
    env["COMPANION_DATA_DIR"] = str(tmp_path / "data")
    assert ghost_room_name(env) == NEW_NAME


def test_packs_on_the_command_line_wins_over_the_environment(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    export_bundled(plain)
    env = clean_env(tmp_path, COMPANION_PACKS_DIR=str(edited_packs(tmp_path / "mine")))
    assert ghost_room_name(env, "--packs", str(plain)) == load_packs().boards["asylum"].space_name(ROOM)


def test_companion_game_refuses_a_broken_pack_file_with_exit_2(tmp_path: Path) -> None:
    folder = edited_packs(tmp_path / "mine")
    board = folder / "boards" / "asylum.toml"
    board.write_text(board.read_text(encoding="utf-8") + "\n[[rooms]\n", encoding="utf-8")  # not TOML
    done = run(
        "game",
        "new",
        "--players",
        "2",
        "--board",
        "asylum",
        "--ghost",
        "child",
        "--json",
        env=clean_env(tmp_path, COMPANION_PACKS_DIR=str(folder)),
    )
    assert_exit_2(done, "COMPANION_PACKS_DIR", str(board))
    assert not (tmp_path / "data" / "games.sqlite3").exists()  # nothing was written


def test_companion_game_refuses_a_missing_folder_in_the_file_with_exit_2(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f'[game]\npacks_dir = "{tmp_path / "gone"}"\n', encoding="utf-8")
    done = run(
        "game",
        "new",
        "--players",
        "2",
        "--board",
        "asylum",
        "--ghost",
        "child",
        "--config",
        str(config),
        env=clean_env(tmp_path),
    )
    assert_exit_2(done, "game.packs_dir", "gone", "does not exist")


def test_a_broken_file_given_with_packs_is_exit_2_too(tmp_path: Path) -> None:
    folder = edited_packs(tmp_path / "mine")
    (folder / "evidence.toml").write_text("[[symbols]]\nid = 'x'\n", encoding="utf-8")
    done = run(
        "game",
        "new",
        "--players",
        "2",
        "--board",
        "asylum",
        "--ghost",
        "child",
        "--packs",
        str(folder),
        env=clean_env(tmp_path),
    )
    assert_exit_2(done, "--packs", str(folder / "evidence.toml"))


# -- companion serve -------------------------------------------------------------------------------------


def test_serve_check_refuses_a_broken_pack_with_exit_2(tmp_path: Path) -> None:
    folder = edited_packs(tmp_path / "mine")
    ghosts = folder / "ghosts.toml"
    ghosts.write_text(
        ghosts.read_text(encoding="utf-8").replace("difficulty = 1", "difficulty = 99", 1), encoding="utf-8"
    )
    config = tmp_path / "config.toml"
    config.write_text(f'[game]\npacks_dir = "{folder}"\n', encoding="utf-8")
    done = run("serve", "--check", "--sim", "--config", str(config), env=clean_env(tmp_path))
    assert_exit_2(done, "game.packs_dir", str(ghosts), "difficulty")


def test_serve_check_reports_the_packs_folder(tmp_path: Path) -> None:
    folder = edited_packs(tmp_path / "mine")
    done = run("serve", "--check", "--sim", env=clean_env(tmp_path, COMPANION_PACKS_DIR=str(folder)))
    assert done.returncode == 0, done.stderr
    assert f"edited files in {folder}" in done.stdout


def test_serve_plays_with_the_edited_packs(isolated: dict[str, str], tmp_path: Path) -> None:
    """The packs checked at start are the ones the game service (and so the phone page) uses."""
    from companion.parts import check_parts
    from companion.serve import Companion

    folder = edited_packs(tmp_path / "mine")
    config = parse_config({"game": {"packs_dir": str(folder), "board": "asylum"}}, env=isolated)
    parts = check_parts(config, sim=True)
    assert parts.extra["packs"].boards["asylum"].space_name(ROOM) == NEW_NAME
    companion = Companion(config, sim=True, parts=parts, rng=random.Random(3))
    config.data_dir.mkdir(parents=True)
    companion._start_service()
    try:
        assert companion.service.packs is parts.extra["packs"]
        state = companion.service.do("ghost-at", {"room": str(ROOM)}).state
        assert state["ghost_room_name"] == NEW_NAME
    finally:
        companion.service.close()
