"""Issue 25: a full data disk never moves a good history aside, and nothing acknowledged is lost.

Each test mounts a small tmpfs of its own (as root; skipped with the reason where it cannot), writes a
real history there with a real companion process, fills the disk to the last byte, and plays on with the
real GameService: the history file stays where it was, untouched, the commands go on in memory, and once
space is freed they are in the file.
"""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.games.skeptics.packs import load_packs
from companion.history import GameStore, open_history
from companion.service import GameService

SETUP = {"players": 3, "board": "asylum", "ghost": "child", "special_items": 3, "seed": 11}


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Path]:
    """A 4 MB tmpfs mounted for this test only."""
    folder = tmp_path / "disk"
    folder.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root (the full-disk case is tested where the tests run as root)")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(folder)], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip() or done.returncode}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def play_and_leave(path: Path, commands: int, *, killed: bool) -> None:
    """A companion process plays `commands` end-rounds into `path`, then stops cleanly or is killed."""
    code = f"""
import os, random
from companion.history import GameStore
from companion.games.skeptics.packs import load_packs
from companion.service import GameService
service = GameService(GameStore({str(path)!r}), load_packs(), rng=random.Random(3))
service.new_game({SETUP!r})
for _ in range({commands}):
    service.do("end-round")
if {killed}:
    os._exit(0)   # as a power cut leaves it: the -wal holds the last commands
service.close()
"""
    subprocess.run([sys.executable, "-c", code], check=True)


def fill(folder: Path) -> Path:
    """Fill the disk to its last byte (unbuffered writes, large then one byte at a time)."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (65536, 4096, 1):
            try:
                while True:
                    os.write(fd, b"\0" * size)
            except OSError:
                pass
    finally:
        os.close(fd)
    return filler


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def length(store: GameStore) -> int:
    game = store.last_game_id()
    assert game is not None
    return store.command_count(game)


@pytest.mark.parametrize("killed", [False, True], ids=["closed", "killed"])
def test_a_full_disk_at_start_keeps_the_history_and_loses_nothing_acknowledged(disk: Path, killed: bool) -> None:
    history = disk / "games.sqlite3"
    play_and_leave(history, 6, killed=killed)
    before = digest(history)
    filler = fill(disk)

    store, problem = open_history(history, stamp="now")
    service = GameService(store, load_packs(), rng=random.Random(5))
    assert service.resume_last() is not None
    assert service.state()["history_length"] == 6
    acknowledged = 0
    for _ in range(4):
        service.do("end-round")  # each returned: acknowledged to the table
        acknowledged += 1
    assert store.problem is not None and "cannot be written now" in store.problem
    assert (problem or store.problem) and "kept as it is" in (problem or store.problem)
    assert sorted(p.name for p in disk.iterdir() if "damaged" in p.name) == []  # nothing moved aside
    if not killed:  # (after a power cut SQLite moves the -wal's commands into the file: same games, new bytes)
        assert digest(history) == before  # the file is as it was
    before = digest(history)
    assert store.write_back() is False  # still no space: the file stays as it was
    assert digest(history) == before

    filler.unlink()  # the host frees space
    service.do("end-round")
    acknowledged += 1
    assert store.write_back() is True
    assert store.problem is None
    service.do("end-round")  # in the file again
    acknowledged += 1
    service.close()

    with GameStore(history) as again:
        assert length(again) == 6 + acknowledged


def test_a_history_kept_in_memory_is_written_back_when_the_companion_stops(disk: Path) -> None:
    history = disk / "games.sqlite3"
    play_and_leave(history, 3, killed=False)
    filler = fill(disk)
    store, problem = open_history(history, stamp="now")
    assert problem is not None
    service = GameService(store, load_packs(), rng=random.Random(5))
    service.resume_last()
    service.do("end-round")
    filler.unlink()
    service.close()  # the last try to write back
    with GameStore(history) as again:
        assert length(again) == 4


def test_a_disk_that_fills_during_the_game_goes_on_in_memory(disk: Path) -> None:
    history = disk / "games.sqlite3"
    service = GameService(GameStore(history), load_packs(), rng=random.Random(5))
    service.new_game(SETUP)
    service.do("end-round")
    filler = fill(disk)
    for _ in range(3):
        service.do("end-round")
    assert service.store.problem is not None
    filler.unlink()
    service.close()
    with GameStore(history) as again:
        assert length(again) == 4


def test_a_damaged_history_is_still_moved_aside(tmp_path: Path) -> None:
    history = tmp_path / "games.sqlite3"
    history.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    store, problem = open_history(history, stamp="now")
    assert problem is not None and "damaged" in problem
    assert (tmp_path / "games.sqlite3.damaged-now").exists()
    store.close()


def test_the_copy_is_written_back_by_itself_once_space_is_free(disk: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    import companion.history as history_module

    monkeypatch.setattr(history_module, "WRITE_BACK_EVERY", 0.2)  # the companion's 5 s, shortened for the test
    history = disk / "games.sqlite3"
    play_and_leave(history, 2, killed=False)
    filler = fill(disk)
    store, _ = open_history(history, stamp="now")
    service = GameService(store, load_packs(), rng=random.Random(5))
    service.resume_last()
    service.do("end-round")  # acknowledged while the disk is full
    filler.unlink()  # space comes back; no command follows
    end = time.monotonic() + 15.0  # an upper bound for what happens by itself, not a speed claim
    while store.problem is not None and time.monotonic() < end:
        time.sleep(0.05)
    assert store.problem is None
    with GameStore(history) as again:
        assert length(again) == 3
    service.close()
