"""Issue 25: every game's seed is checked alike, and no text field takes a control character.

One check each (companion.validate.seed, companion.validate.control_character), reached from every game's
setup, the box's fields and pack files, players' and phones' names, and every body the page sends.
"""

from __future__ import annotations

import pytest

from companion.box import Box, BoxEdit
from companion.errors import BadCommand, PackError
from companion.games.base import module_for
from companion.games.skeptics.packs import load_packs
from companion.validate import SEED_MAX, control_character
from tests.web_fixtures import Table

SETUPS = {
    "skeptics": {"players": 2, "board": "asylum", "ghost": "child"},
    "elder-sign": {"rules": "elder-sign", "players": 2},
    "among-cultists": {"rules": "among-cultists", "players": 6, "cultists": 1, "points_needed": 5},
}


@pytest.mark.parametrize("rules", sorted(SETUPS))
@pytest.mark.parametrize(
    "seed", [-1, SEED_MAX + 1, 9999999999999999999, -9999999999999999999, True, 1.5, "", "x" * 65, "a\u0007"]
)
def test_every_game_refuses_the_same_wrong_seeds(rules: str, seed: object) -> None:
    module = module_for(rules)
    with pytest.raises(BadCommand, match="the seed must be a whole number 0 to 9223372036854775807"):
        setup = module.setup_from_dict({**SETUPS[rules], "seed": seed})
        module.new(setup, module.load_packs(None) if rules != "skeptics" else load_packs())


@pytest.mark.parametrize("rules", sorted(SETUPS))
@pytest.mark.parametrize("seed", [0, SEED_MAX, "tuesday"])
def test_every_game_takes_the_same_right_seeds(rules: str, seed: object) -> None:
    module = module_for(rules)
    setup = module.setup_from_dict({**SETUPS[rules], "seed": seed})
    assert module.new(setup, module.load_packs(None) if rules != "skeptics" else load_packs()) is not None


@pytest.mark.parametrize("text", ["\u0000\u0007", "Sha\u0085dow", "\u202eGhost", "two\nlines", "tab\there"])
def test_a_box_field_with_a_control_character_is_refused(text: str) -> None:
    box = Box(None)
    with pytest.raises(BadCommand, match="plain text, with no control characters"):
        box.edit(load_packs(), BoxEdit("ghost", "child", {"name": text}))


def test_a_pack_file_with_an_escaped_control_character_is_refused() -> None:
    from companion.games.skeptics.packs import bundled_dir

    ghosts = (bundled_dir() / "ghosts.toml").read_text(encoding="utf-8")
    first_name = ghosts.index('name = "') + len('name = "')
    damaged = ghosts[:first_name] + "\\u0007" + ghosts[first_name:]
    with pytest.raises(PackError, match="control character U\\+0007"):
        load_packs(None, overrides={"ghosts.toml": ("ghosts.toml", damaged)})


def test_names_refuse_what_they_refused_and_emoji_still_pass() -> None:
    assert control_character("Ada 👩‍🚀") is None
    assert control_character("A\u0000") == "U+0000"


def test_on_the_server_no_body_carries_a_control_character(table: Table) -> None:
    host = table.host()
    for path, body in (
        ("/api/phone/name", {"name": "Anna\u0007"}),
        ("/api/box", {"part": "ghost", "key": "child", "fields": {"name": "\u0000\u0007"}}),
        ("/api/new-game", {"players": 2, "names": ["A\u001b[31m", "B"], "confirm": True}),
    ):
        reply = host.post(path, body)
        assert reply.status == 400, (path, reply.body)
        assert "control character" in reply.json()["error"]
    reply = host.post(
        "/api/new-game", {"rules": "elder-sign", "players": 2, "seed": -9999999999999999999, "confirm": True}
    )
    assert reply.status == 400 and "seed" in reply.json()["error"]
