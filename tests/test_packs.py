"""Data packs: the bundled boards, ghosts, environment cards and evidence symbols; validation; overrides."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.errors import PackError
from companion.games.skeptics.dice import Requirement
from companion.games.skeptics.packs import ENTRANCE, export_bundled, load_packs, main

PACKS = load_packs()
BUNDLED = Path(__file__).parents[1] / "companion" / "games" / "skeptics" / "packs"


def test_bundled_boards_have_twenty_rooms_an_entrance_and_a_map() -> None:
    """Game Components: 20 room cards; Setup: investigators start at the Entrance (not a room card)."""
    assert sorted(PACKS.boards) == ["asylum", "museum"]
    for board in PACKS.boards.values():
        assert sorted(board.rooms) == list(range(1, 21))
        assert board.entrance.number == ENTRANCE
        positions = [board.space(n).pos for n in board.spaces]
        assert len(set(positions)) == len(positions) == 21
        assert board.doors, "green door markers are placed on door spaces at setup"
        # every space can be reached from the Entrance by ordinary connections and doors
        seen, todo = {ENTRANCE}, [ENTRANCE]
        while todo:
            for nxt, _ in board.neighbours(todo.pop()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        assert seen == set(board.spaces)


def test_the_rulebook_names_are_in_the_packs() -> None:
    """The names the rulebook gives: Isolation (7), Bath (8), Padded Room and Bed Ward with a secret passage;
    Child Ghost, Poltergeist, Shadow Ghost; Fire, Watching Eyes, Corpse (asylum), Barrier (museum)."""
    asylum = PACKS.boards["asylum"]
    assert asylum.rooms[7].name == "Isolation" and not asylum.rooms[7].placeholder
    assert asylum.rooms[8].name == "Bath" and not asylum.rooms[8].placeholder
    by_name = {room.name: n for n, room in asylum.rooms.items()}
    passage = tuple(sorted((by_name["Padded Room"], by_name["Bed Ward"])))
    assert passage in asylum.secret_passages
    assert {g: PACKS.ghosts[g].name for g in ("child", "poltergeist", "shadow")} == {
        "child": "Child Ghost",
        "poltergeist": "Poltergeist",
        "shadow": "Shadow Ghost",
    }
    assert len(PACKS.ghosts) == 6
    cards = PACKS.environment
    assert (cards["fire"].deck, cards["watching_eyes"].deck) == ("common", "common")
    assert cards["corpse"].deck == "asylum" and cards["barrier"].deck == "museum"


def test_everything_else_is_a_marked_placeholder() -> None:
    museum = PACKS.boards["museum"]
    assert all(room.placeholder and room.name == f"Room {n}" for n, room in museum.rooms.items())
    assert all(PACKS.ghosts[g].placeholder for g in ("ghost4", "ghost5", "ghost6"))
    # common1/2 are Fire and Watching Eyes: the stand-ins after them are named from 1 (common6 is the fourth)
    assert PACKS.environment["common6"].placeholder and PACKS.environment["common6"].name == "Common card 4"
    assert not PACKS.environment["fire"].placeholder
    assert len(PACKS.evidence) == 7
    assert PACKS.placeholders  # the check command lists them for the owner


def test_icon_sets_and_symbols_are_valid_for_the_dice() -> None:
    """Ghost Card: icon sets to resolve (clue icons, red timer/disruption) and séance symbols (evidence tokens)."""
    for ghost in PACKS.ghosts.values():
        assert ghost.icon_sets
        for need in ghost.icon_sets:
            req = Requirement.parse(need)
            assert str(req) == need  # stored in the same canonical spelling as the dice use
        assert set(ghost.seance_symbols) <= set(PACKS.evidence)
        assert ghost.ability and ghost.lingering


def test_environment_decks_are_ten_plus_five() -> None:
    """Environment Deck: ten common cards and five per board."""
    for board in ("asylum", "museum"):
        deck = PACKS.environment_deck(board)
        assert len(deck) == 15
    assert {c.duration for c in PACKS.environment.values()} <= {"instant", "hour", "until_met"}


# -- validation errors name the file, the entry and the field ------------------------------------------


def edited(tmp_path: Path, rel: str, old: str, new: str) -> Path:
    text = (BUNDLED / rel).read_text(encoding="utf-8")
    assert old in text, old
    target = tmp_path / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text.replace(old, new, 1), encoding="utf-8")
    return target


@pytest.mark.parametrize(
    "rel, old, new, words",
    [
        (
            "ghosts.toml",
            "difficulty = 3",
            'difficulty = "hard"',
            ['ghosts[2] (id "shadow")', '"difficulty"', "1 to 10"],
        ),
        (
            "ghosts.toml",
            '"eye:2,camera:1", "cobweb:1,timer"',
            '"eye:2,ghost:1", "cobweb:1,timer"',
            ['id "shadow"', '"icon_sets"', "ghost"],
        ),
        (
            "ghosts.toml",
            'seance_symbols = ["evidence1", "evidence2", "evidence3"]',
            'seance_symbols = ["evidence1", "ectoplasm"]',
            ['id "child"', '"seance_symbols"', "ectoplasm"],
        ),
        (
            "environment.toml",
            'duration = "hour"',
            'duration = "forever"',
            ['id "watching_eyes"', '"duration"', "until_met"],
        ),
        (
            "environment.toml",
            'id = "corpse"\nname = "Corpse"\ndeck = "asylum"',
            'id = "corpse"\nname = "Corpse"\ndeck = "common"',
            ['deck = "common"', "10"],
        ),
        ("boards/asylum.toml", "number = 8\n", "number = 7\n", ["rooms[7]", '"number"', "repeats room 7"]),
        ("boards/asylum.toml", "between = [7, 8]", "between = [7, 7]", ['"between"', "itself"]),
        ("boards/museum.toml", "pos = [0, 1]", "pos = [0, 0]", ["museum.toml", "room 6", '"pos"']),
        ("evidence.toml", 'id = "evidence7"', 'id = "evidence6"', ['"id"', "repeats"]),
        ("boards/asylum.toml", "[board]", "[board\n", ["asylum.toml", "not valid TOML"]),
    ],
)
def test_errors_name_file_entry_and_field(tmp_path: Path, rel: str, old: str, new: str, words: list[str]) -> None:
    target = edited(tmp_path, rel, old, new)
    with pytest.raises(PackError) as info:
        load_packs(tmp_path)
    message = str(info.value)
    assert str(target) in message
    for word in words:
        assert word in message, (word, message)


def test_unknown_field_is_refused(tmp_path: Path) -> None:
    edited(tmp_path, "ghosts.toml", 'id = "child"', 'id = "child"\ncolour = "blue"')
    with pytest.raises(PackError, match="unknown field 'colour'"):
        load_packs(tmp_path)


def test_missing_room_is_named(tmp_path: Path) -> None:
    edited(tmp_path, "boards/museum.toml", "[[rooms]]\nnumber = 20\n", "[[rooms_unused]]\nnumber = 20\n")
    with pytest.raises(PackError, match="unknown section"):
        load_packs(tmp_path)


def test_owner_copy_overrides_the_bundled_file(tmp_path: Path) -> None:
    """docs/packs.md: an owner's edited copy replaces the bundled file of the same name."""
    edited(
        tmp_path,
        "boards/museum.toml",
        'name = "Room 12"\npos = [1, 2]\nplaceholder = true',
        'name = "Egyptian Hall"\npos = [1, 2]',
    )
    packs = load_packs(tmp_path)
    assert packs.boards["museum"].rooms[12].name == "Egyptian Hall"
    assert not packs.boards["museum"].rooms[12].placeholder
    assert packs.boards["asylum"] == PACKS.boards["asylum"]  # untouched files stay bundled


def test_extra_board_is_added_and_must_be_named_after_its_id(tmp_path: Path) -> None:
    text = (BUNDLED / "boards" / "museum.toml").read_text().replace('id = "museum"', 'id = "manor"')
    (tmp_path / "boards").mkdir()
    (tmp_path / "boards" / "mansion.toml").write_text(text)
    with pytest.raises(PackError, match="mansion.toml"):
        load_packs(tmp_path)


def test_missing_extra_dir_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(PackError, match="does not exist"):
        load_packs(tmp_path / "nope")


def test_export_then_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    written = export_bundled(tmp_path)
    assert (tmp_path / "ghosts.toml") in written and (tmp_path / "boards" / "asylum.toml") in written
    assert load_packs(tmp_path).boards["asylum"] == PACKS.boards["asylum"]
    assert main(["check", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "packs OK" in out and "placeholders" in out
    (tmp_path / "evidence.toml").write_text("[[symbols]]\nid = 'x'\n")
    assert main(["check", str(tmp_path)]) == 1
    assert "evidence.toml" in capsys.readouterr().err


def test_the_command_line_is_argparse(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "required: COMMAND" in capsys.readouterr().err
    assert main(["export"]) == 2  # export needs the folder
    assert "DIR" in capsys.readouterr().err
    assert main(["--help"]) == 0
    assert "export" in capsys.readouterr().out
    assert main(["check"]) == 0  # the bundled packs
    assert "packs OK" in capsys.readouterr().out


def test_icon_sets_use_the_dice_grammar_and_clue_icons(tmp_path: Path) -> None:
    """A pack's icon set is read as the dice read one ("2 eyes and a camera"), stored canonically."""
    from companion.games.skeptics.packs import icon_set_text, parse_requirement_text

    assert parse_requirement_text("2 eyes and a camera, with a timer") == "eye:2,camera:1,timer"
    assert parse_requirement_text("cobweb:1,disruption") == "cobweb:1,disruption"
    assert icon_set_text("eye:2,camera:1,timer") == "2 eyes, 1 camera (timer)"
    with pytest.raises(ValueError, match="'key:2' asks for key icons; a ghost's icon sets use the clue icons"):
        parse_requirement_text("key:2")
    with pytest.raises(ValueError, match="at most 5"):
        parse_requirement_text("eye:3,camera:3")
    edited(tmp_path, "ghosts.toml", '"eye:2,camera:1", "cobweb:1,timer"', '"eye:2,camera:1", "key:1"')
    with pytest.raises(PackError, match=r'"icon_sets".*entry 2: .key:1. asks for key icons|entry 2: .key:1. asks'):
        load_packs(tmp_path)


def test_cards_not_filled_in_yet_are_numbered_from_1_in_each_kind_and_real_names_stay() -> None:
    """The playtest's "Asylum card 2..5" with no card 1 (the Corpse is the deck's first card): a stand-in named by
    its kind in the file is named again by its place among the stand-ins of its kind, in the file's order; a
    stand-in with the rulebook's name (the Child Ghost, whose sets are not filled in) keeps it."""
    from companion.games.elder_sign.packs import load_packs as elder_sign_packs

    def stand_ins(cards: Any, deck: str | None = None) -> list[str]:
        return [c.name for c in cards.values() if c.placeholder and (deck is None or c.deck == deck)]

    for deck, words in (("asylum", "Asylum card"), ("museum", "Museum card"), ("common", "Common card")):
        names = stand_ins(PACKS.environment, deck)
        assert names == [f"{words} {n}" for n in range(1, len(names) + 1)], names
    assert [g.name for g in PACKS.ghosts.values()][:3] == ["Child Ghost", "Poltergeist", "Shadow Ghost"]
    assert stand_ins(PACKS.ghosts)[3:] == ["Ghost 1", "Ghost 2", "Ghost 3"]
    assert "Investigator Bag" in stand_ins(PACKS.items) and "Item 1" in stand_ins(PACKS.items)
    es = elder_sign_packs()
    assert [a.name for a in es.ancient_ones.values()] == ["Nyarlathotep", "Ancient One 1"]
    filled = PACKS.environment["asylum2"]
    assert filled.name == "Asylum card 1"  # the file says "Asylum card 2": its place in the deck, after the Corpse
