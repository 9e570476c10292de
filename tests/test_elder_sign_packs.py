"""Elder Sign's data packs: the bundled placeholders load, and every error names file, entry and field."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from companion.errors import PackError
from companion.games.elder_sign.packs import FILES, load_packs, parse_pack_texts

PACKS = Path(__file__).resolve().parents[1] / "companion" / "games" / "elder_sign" / "packs"


def test_the_bundled_packs_load_and_say_they_are_placeholders() -> None:
    packs = load_packs()
    assert len(packs.adventures) >= 7  # six dealt at setup (:84) and one to replace the first completed
    assert packs.other_worlds and packs.mythos and packs.ancient_ones and len(packs.investigators) >= 2
    every = (
        len(packs.ancient_ones)
        + len(packs.investigators)
        + len(packs.adventures)
        + len(packs.other_worlds)
        + len(packs.mythos)
    )
    assert len(packs.placeholders) == every  # the text ships no card text: everything is to be filled in
    for name in FILES:
        assert "placeholder = true" in (PACKS / name).read_text(encoding="utf-8")


def test_an_extra_directory_replaces_a_file(tmp_path: Path) -> None:
    text = (PACKS / "ancient_ones.toml").read_text(encoding="utf-8").replace("elder_signs = 11", "elder_signs = 9")
    (tmp_path / "ancient_ones.toml").write_text(text, encoding="utf-8")
    assert load_packs(tmp_path).ancient_ones["nyarlathotep"].elder_signs == 9
    with pytest.raises(PackError):
        load_packs(tmp_path / "missing")


BAD = [
    (
        "adventures.toml",
        '[[adventures]]\nid = "a"\nname = "A"\ntasks = ["inv4"]\n',
        'adventures[0] (id "a"): field "tasks"',
    ),
    ("adventures.toml", '[[adventures]]\nid = "a"\nname = "A"\ntasks = []\n', 'field "tasks"'),
    ("adventures.toml", '[[adventures]]\nid = "a"\nname = "A"\ntasks = ["inv:1"]\nlock = "blue"\n', 'field "lock"'),
    (
        "adventures.toml",
        '[[adventures]]\nid = "a"\nname = "A"\ntasks = ["inv:1"]\nreward = { doom = "x" }\n',
        'field "reward": field "doom"',
    ),
    ("adventures.toml", '[[adventures]]\nid = "a"\nname = "A"\ntasks = ["inv:1"]\ncolour = 1\n', "unknown field"),
    (
        "ancient_ones.toml",
        '[[ancient_ones]]\nid = "x"\nname = "X"\ndoom = 4\nelder_signs = 3\nmonster_spaces = [9]\n'
        'combat = "inv:2"\nattack = "a"\n',
        'field "monster_spaces"',
    ),
    ("investigators.toml", '[[investigators]]\nid = "i"\nname = "I"\nsanity = 0\nstamina = 4\n', 'field "sanity"'),
    (
        "mythos.toml",
        '[[mythos]]\nid = "m"\nname = "M"\nimmediate = {}\nlingering = "x"\nlingering_kind = "soon"\n',
        'field "lingering_kind"',
    ),
    ("mythos.toml", '[[mythos]]\nid = "m"\nname = "M"\nimmediate = { clock = 4 }\nlingering = "x"\n', 'field "clock"'),
    (
        "mythos.toml",
        '[[mythos]]\nid = "m"\nname = "M"\nimmediate = {}\nlingering = "x"\n[[mythos]]\nid = "m"\n'
        'name = "N"\nimmediate = {}\nlingering = "y"\n',
        "repeats the id",
    ),
    ("mythos.toml", "[[mythos]\n", "not valid TOML"),
]


@pytest.mark.parametrize(("name", "text", "where"), BAD)
def test_errors_name_the_file_the_entry_and_the_field(name: str, text: str, where: str) -> None:
    with pytest.raises(PackError) as error:
        parse_pack_texts({name: text})
    assert str(error.value).startswith(name)
    assert where in str(error.value)


def test_the_pure_modules_use_only_seeded_generators() -> None:
    """docs/DESIGN.md: the rules core builds seeded random.Random generators only (as tests/test_layers.py checks
    for Skeptics' modules)."""
    for path in [*sorted(PACKS.parent.glob("*.py")), PACKS.parents[1] / "__init__.py"]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            assert not (isinstance(node, ast.ImportFrom) and node.module == "random"), path
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "random":
                assert node.attr == "Random", (path, node.lineno)
            if isinstance(node, ast.Import):
                assert not {a.name for a in node.names} & {"time", "threading", "sqlite3", "socket"}, path
