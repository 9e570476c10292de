"""Among Cultists' event pack: the bundled stand-ins (the review names no event, seance-deduction-rules-de.txt:37
says only that a marker is drawn from a bag), the owner's own file replacing them, and messages that name the
file, the entry and the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.errors import PackError
from companion.games.among_cultists.engine import Game, Setup
from companion.games.among_cultists.packs import load_packs, parse_pack_texts

OWN = """
[[events]]
id = "blackout"
name = "Blackout"
text = "No room may be checked this round."
"""


def test_every_bundled_event_is_a_marked_stand_in() -> None:
    packs = load_packs()
    assert len(packs.events) == 10
    for number, event in enumerate(packs.events.values(), 1):
        assert event.placeholder and event.name == f"Event {number}" and event.id == f"event{number:02d}"
    assert len(packs.placeholders) == 10 and packs.placeholders[0] == "event event01 (Event 1)"


def test_the_owners_file_replaces_the_bundled_one(tmp_path: Path) -> None:
    (tmp_path / "events.toml").write_text(OWN, encoding="utf-8")
    packs = load_packs(tmp_path)
    assert list(packs.events) == ["blackout"] and packs.placeholders == []
    assert packs.sources == (str(tmp_path / "events.toml"),)
    game = Game.new(Setup(cultists=1, points_needed=5, players=4), packs)
    for command in ("night-done", "next-phase", "draw-event"):
        game.push(command)
    assert game.view()["event"] == {
        "id": "blackout",
        "name": "Blackout",
        "text": "No room may be checked this round.",
        "stand_in": False,
    }
    empty = tmp_path / "empty"
    empty.mkdir()
    assert list(load_packs(empty).events) == list(load_packs().events)  # a folder without the file


def test_a_missing_folder_is_named(tmp_path: Path) -> None:
    with pytest.raises(PackError, match="does not exist"):
        load_packs(tmp_path / "nope")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[[events]\n", "not valid TOML"),
        ("", "no \\[\\[events\\]\\] entries"),
        (
            '[[events]]\nid = "a"\nname = "A"\ncolour = "red"\n',
            "events\\[0\\] \\(id \"a\"\\) has an unknown field 'colour'",
        ),
        ('[[events]]\nid = "a"\n', 'events\\[0\\] \\(id "a"\\): field "name" is missing'),
        ('[[events]]\nid = "A b"\nname = "A"\n', 'field "id" must be a short lowercase id'),
        ('[[events]]\nid = "a"\nname = "A"\n[[events]]\nid = "a"\nname = "B"\n', "repeats the id 'a'"),
        ('[[events]]\nid = "a"\nname = "Fog"\n[[events]]\nid = "b"\nname = "fog"\n', "repeats the name 'fog'"),
        ('[[events]]\nid = "a"\nname = "A"\nplaceholder = "yes"\n', 'field "placeholder" must be true or false'),
        ('[[events]]\nid = "a"\nname = "A"\ntext = 3\n', 'field "text" must be text'),
        ("[cards]\n", "unknown section 'cards'"),
    ],
)
def test_a_bad_file_is_refused_naming_the_file_entry_and_field(text: str, words: str) -> None:
    with pytest.raises(PackError, match=words) as err:
        parse_pack_texts({"events.toml": text})
    assert str(err.value).startswith("events.toml: ")
