"""Issue 25: a damaged box file never stops the companion; the host's page says what is wrong and how to mend it.

The box's files are the ones the page itself writes (the data folder's ``packs``). A damaged one is left
out, the bundled file plays in its place, and the problem names the file (never the machine's path) and
the ways to mend it; mending it from the page clears the problem.
"""

from __future__ import annotations

import random
import signal
from pathlib import Path

from companion.box import Box
from companion.games.skeptics.packs import export_bundled, load_packs
from companion.history import GameStore
from companion.service import GameService
from tests.test_serve_process import Client, Served


def box_with(tmp_path: Path) -> Path:
    folder = tmp_path / "packs"
    export_bundled(folder)
    return folder


def test_a_damaged_file_is_left_out_and_the_others_play(tmp_path: Path) -> None:
    folder = box_with(tmp_path)
    (folder / "ghosts.toml").write_text("[[ghosts]\nid = 'x'\n", encoding="utf-8")  # not TOML
    board = folder / "boards" / "asylum.toml"
    board.write_text(
        board.read_text(encoding="utf-8").replace('name = "Asylum"', 'name = "Our Asylum"', 1), encoding="utf-8"
    )
    box = Box(folder)
    packs = box.open_packs()
    assert packs.ghosts.keys() == load_packs().ghosts.keys()  # the bundled ghosts play
    assert packs.boards["asylum"].name == "Our Asylum"  # the good file of the box is used
    assert list(box.problems) == ["ghosts.toml"]
    problem = box.problems["ghosts.toml"]
    assert "packs/ghosts.toml" in problem and "line 1" in problem and "Bring back a box" in problem
    assert str(tmp_path) not in problem


def test_an_edit_is_checked_without_the_damaged_file_and_mending_it_clears_the_problem(tmp_path: Path) -> None:
    folder = box_with(tmp_path)
    (folder / "evidence.toml").write_text("= broken\n", encoding="utf-8")
    box = Box(folder)
    service = GameService(GameStore(tmp_path / "g.sqlite"), box.open_packs(), rng=random.Random(1), box=box)
    assert any("evidence.toml" in p for p in service.problems())
    service.edit_box("ghost", "child", {"name": "Little One"})  # another file: saved though evidence.toml is damaged
    assert service.packs.ghosts["child"].name == "Little One"
    service.import_box(Box(None).export())  # "Bring back a box": every file written again
    assert service.problems() == []
    assert Box(folder).open_packs() is not None and Box(folder).problems == {}
    service.close()


def test_a_damaged_file_of_another_game_plays_the_bundled_one(tmp_path: Path) -> None:
    folder = tmp_path / "packs"
    folder.mkdir()
    (folder / "events.toml").write_text("", encoding="utf-8")  # empty: no [[events]]
    box = Box(folder)
    service = GameService(GameStore(tmp_path / "g.sqlite"), box.open_packs(), rng=random.Random(1), box=box)
    state = service.new_game({"rules": "among-cultists", "players": 6, "cultists": 1, "points_needed": 5, "seed": 3})
    assert state["game_id"] is not None
    assert any("among-cultists" in p and "events.toml" in p for p in service.problems())
    service.close()


def test_serve_comes_up_with_a_damaged_ghosts_file_and_serves_the_state_and_the_page(tmp_path: Path) -> None:
    data = tmp_path / "data"
    folder = data / "packs"
    folder.mkdir(parents=True)
    (folder / "ghosts.toml").write_text('[[ghosts]]\nid = "child"\nname = \n', encoding="utf-8")
    (folder / "events.toml").write_text("", encoding="utf-8")
    served = Served(tmp_path, data)
    try:
        base = served.wait_ready()
        phone = Client(base)
        phone.join_as_host()
        state = phone.state()
        assert state["game_id"] is not None and state["ghost"]["id"] in load_packs().ghosts
        status, page = phone.request("GET", "/")
        assert status == 200 and b"<html" in page.lower()
        status, body = phone.request("GET", "/api/problems")
        problems = body["problems"]
        assert any("packs/ghosts.toml" in p and "line 3" in p for p in problems), problems
        assert not any(str(tmp_path) in p for p in problems)
        assert served.stop(signal.SIGTERM) == 0
    finally:
        served.close()


def test_an_edit_checked_outside_the_lock_keeps_an_edit_saved_meanwhile(tmp_path: Path) -> None:
    """The box is read and checked outside the service's lock; a change saved in between is not lost."""
    box = Box(tmp_path / "packs")
    service = GameService(GameStore(tmp_path / "g.sqlite"), box.open_packs(), rng=random.Random(1), box=box)
    check = box.check
    calls = []

    def check_then_another_edit(change: object) -> object:
        calls.append(change)
        if len(calls) == 1:  # while the first edit is checked, another phone saves an entry of the same file
            service.edit_box("evidence", "evidence2", {"name": "Handprint"})
        return check(change)  # type: ignore[arg-type]

    box.check = check_then_another_edit  # type: ignore[method-assign]
    service.edit_box("evidence", "evidence1", {"name": "Footprint"})
    box.check = check  # type: ignore[method-assign]
    packs = Box(tmp_path / "packs").open_packs()
    assert packs.evidence["evidence1"].name == "Footprint" and packs.evidence["evidence2"].name == "Handprint"
    service.close()


def test_the_box_page_names_its_folder_without_the_machines_path(tmp_path: Path) -> None:
    from companion.box import box_view

    box = Box(tmp_path / "data" / "packs")
    view = box_view(box.open_packs(), box)
    assert view["folder"] == "data/packs" and str(tmp_path) not in str(view)
