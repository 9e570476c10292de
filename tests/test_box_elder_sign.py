"""Elder Sign in Your box (companion/box.py, the es_* parts): its cards filled in with the same checks as
Skeptics' (the game's own pack validation names the file, the entry and the field), kept in the box folder, in
the exported box file and back from it, and played by the next Elder Sign game."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.box import Box
from companion.errors import BadCommand, PackError
from companion.games.skeptics.packs import load_packs
from companion.history import GameStore
from companion.service import GameService

HEDGE_MAZE = {
    "name": "The Hedge Maze",
    "tasks": ["inv:3", "lore:1,peril:1"],
    "ordered": True,
    "trophies": 2,
    "reward": {"elder_signs": 1, "clues": 0, "text": ""},
    "penalty": {"doom": 1},
    "terror": {"sanity": -1, "text": "a monster stirs"},
}


@pytest.fixture
def service(tmp_path: Path):  # type: ignore[no-untyped-def]
    svc = GameService(
        GameStore(tmp_path / "games.sqlite"), load_packs(), rng=random.Random(4), box=Box(tmp_path / "packs")
    )
    yield svc
    svc.close()


def test_an_adventure_filled_in_is_kept_and_played(service: GameService, tmp_path: Path) -> None:
    before = service.box_view()
    adventure = next(a for a in before["elder_sign"]["adventures"] if a["id"] == "adv01")
    assert not adventure["filled"] and before["elder_sign_left"] > 0
    out = service.edit_box("es_adventure", "adv01", HEDGE_MAZE)
    assert out["said"] == "Saved: the adventure The Hedge Maze."
    shown = next(a for a in out["box"]["elder_sign"]["adventures"] if a["id"] == "adv01")
    assert shown["filled"] and shown["tasks"] == ["inv:3", "lore:1,peril:1"] and shown["ordered"]
    assert shown["reward"] == {"elder_signs": 1}  # nothing is left out, not written as 0
    assert shown["terror"] == {"sanity": -1, "text": "a monster stirs"}
    assert out["box"]["elder_sign_left"] == before["elder_sign_left"] - 1
    text = (tmp_path / "packs" / "adventures.toml").read_text(encoding="utf-8")
    assert 'name = "The Hedge Maze"' in text and "# Elder Sign: the Adventure cards" in text  # comments kept
    packs = service.packs_for("elder-sign")
    assert packs.adventures["adv01"].name == "The Hedge Maze" and not packs.adventures["adv01"].placeholder


def test_every_kind_of_elder_sign_card_can_be_filled_in(service: GameService) -> None:
    service.edit_box(
        "es_investigator",
        "investigator1",
        {"name": "Monterey Jack", "sanity": 3, "stamina": 7, "clues": 1, "ability": "Rolls an extra die once a turn."},
    )
    service.edit_box(
        "es_ancient_one",
        "nyarlathotep",
        {"name": "Nyarlathotep", "doom": 11, "elder_signs": 11, "combat": "inv:4,lore:1", "attack": "Two doom tokens."},
    )
    service.edit_box(
        "es_mythos",
        "mythos01",
        {"name": "Blood Moon", "immediate": {"doom": 1}, "lingering": "No clue may be spent.", "at_midnight": {}},
    )
    world = service.box_view()["elder_sign"]["other_worlds"][0]["id"]
    service.edit_box("es_other_world", world, {**HEDGE_MAZE, "name": "The Plateau of Leng"})
    packs = service.packs_for("elder-sign")
    assert packs.investigators["investigator1"].stamina == 7 and not packs.investigators["investigator1"].placeholder
    assert packs.ancient_ones["nyarlathotep"].attack == "Two doom tokens."
    assert packs.mythos["mythos01"].lingering == "No clue may be spent."
    assert packs.other_worlds[world].name == "The Plateau of Leng"


def test_a_bad_entry_is_refused_and_nothing_is_written(service: GameService, tmp_path: Path) -> None:
    with pytest.raises(PackError, match=r'adventures\.toml.*adv02.*field "tasks"'):
        service.edit_box("es_adventure", "adv02", {"tasks": ["inv:x"]})
    with pytest.raises(BadCommand, match="wrong kind"):
        service.edit_box("es_adventure", "adv02", {"reward": {"doom": "lots"}})
    with pytest.raises(BadCommand, match="no adventure"):
        service.edit_box("es_adventure", "nope", {"name": "Nowhere"})
    assert not (tmp_path / "packs" / "adventures.toml").exists()
    # an investigator named but its stand-in ability left: the message names Elder Sign's field, not a Ghost Hour's
    with pytest.raises(BadCommand, match="^box: the ability still holds the stand-in.s words"):
        service.edit_box("es_investigator", "investigator1", {"name": "Monterey Jack"})
    assert not (tmp_path / "packs" / "investigators.toml").exists()


def test_the_box_file_carries_elder_signs_cards_and_brings_them_back(service: GameService, tmp_path: Path) -> None:
    service.edit_box("es_adventure", "adv01", HEDGE_MAZE)
    exported = service.export_box()
    assert "The Hedge Maze" in exported["files"]["adventures.toml"]
    other = GameService(
        GameStore(tmp_path / "other.sqlite"), load_packs(), rng=random.Random(1), box=Box(tmp_path / "other-packs")
    )
    try:
        other.import_box(exported)
        assert other.packs_for("elder-sign").adventures["adv01"].name == "The Hedge Maze"
    finally:
        other.close()


def mythos_card(name: str, **fields: object) -> dict[str, object]:
    """A Mythos card as the box editor sends it, whole: its top half with items and whom they fall on (who)."""
    return {
        "name": name,
        "immediate": {"doom": 1, "common_items": 1, "who": "active"},
        "lingering": "Each investigator loses 1 stamina at midnight.",
        "lingering_kind": "at_midnight",
        "at_midnight": {"stamina": -1, "spells": -1, "who": "each"},
        "terror": {"sanity": -1, "unique_items": -1, "who": "ask"},
        "lock": "red",
        **fields,
    }


def test_a_mythos_card_filled_in_whole_is_written_and_played_as_written(service: GameService, tmp_path: Path) -> None:
    """elder-sign-rules.txt:313-319: the top half of the Mythos card drawn at setup (:87) happens right away; a filled-in
    card's items fall on whom its `who` says (the active investigator here), written by the editor into the box file
    and read back by the next game."""
    for n in (1, 2):  # filled in, so their items are counted from the start
        service.edit_box(
            "es_investigator",
            f"investigator{n}",
            {"name": f"Seeker {n}", "sanity": 5, "stamina": 5, "clues": 0, "ability": "Looks twice."},
        )
    ids = [m["id"] for m in service.box_view()["elder_sign"]["mythos"]]
    for n, card in enumerate(ids):  # every card alike: whichever the setup draws plays the same
        out = service.edit_box("es_mythos", card, mythos_card(f"Blood Moon {n}"))
    assert out["box"]["elder_sign"]["mythos"][-1]["immediate"] == {"doom": 1, "common_items": 1, "who": "active"}
    shown = out["box"]["elder_sign"]["mythos"][-1]
    assert (shown["lingering_kind"], shown["lock"]) == ("at_midnight", "red")
    assert shown["terror"] == {"sanity": -1, "unique_items": -1, "who": "ask"}
    assert out["box"]["elder_sign_who"]["active"] == "the active investigator"
    text = (tmp_path / "packs" / "mythos.toml").read_text(encoding="utf-8")
    assert 'immediate = {doom = 1, common_items = 1, who = "active"}' in text, text
    assert 'at_midnight = {stamina = -1, spells = -1, who = "each"}' in text, text
    assert "\nplaceholder = true" not in text, text
    # the file the editor wrote, read by the packs loader as a file edited by hand
    reread = GameService(
        GameStore(tmp_path / "again.sqlite"), load_packs(), rng=random.Random(2), box=Box(tmp_path / "packs")
    )
    try:
        state = reread.new_game(
            {"rules": "elder-sign", "players": 2, "investigators": ["investigator1", "investigator2"], "seed": 5}
        )
        assert state["mythos"]["name"].startswith("Blood Moon") and not state["mythos"]["stand_in"], state["mythos"]
        assert (state["mythos"]["lingering"], state["mythos"]["kind"]) == (mythos_card("")["lingering"], "at_midnight")
        held = sorted(state["investigators"], key=lambda inv: inv["player"])
        active = state["current_player"]
        assert [inv["items"]["common-items"] for inv in held] == [int(i == active) for i in range(2)], held
        assert state["doom"] == 1 and state["question"] is None, (state["doom"], state["question"])
    finally:
        reread.close()


def test_a_mythos_card_whose_items_say_no_one_is_refused_in_the_forms_words(
    service: GameService, tmp_path: Path
) -> None:
    """The packs loader's own check (:315-319 name no one a Mythos card's items go to) refuses the edit; the page reads
    it in the form's words, and nothing is written."""
    from companion.words import pack_words

    half = {"doom": 1, "spells": 1}
    with pytest.raises(PackError) as refused:
        service.edit_box("es_mythos", "mythos01", mythos_card("Blood Moon", immediate=half))
    said = pack_words(str(refused.value))
    assert said.startswith("The top half gives or takes items") and "say whom they fall on" in said, said
    # in the form's words: its choices as the form names them, no file spelling, no rule line
    from companion.games.elder_sign.packs import WHO

    assert all(words in said for words in WHO.values()), said
    assert "who" not in said.split() and '"each"' not in said and "(:" not in said, said
    assert 'who = "each"' in str(refused.value)  # the file's own spelling, for a file edited by hand
    with pytest.raises(PackError) as refused:
        service.edit_box("es_mythos", "mythos01", mythos_card("Blood Moon", immediate={**half, "who": "someone"}))
    assert pack_words(str(refused.value)).startswith("Whom it falls on must be one of 'each'"), refused.value
    with pytest.raises(PackError) as refused:  # `who` is a Mythos card's only
        service.edit_box("es_adventure", "adv01", {**HEDGE_MAZE, "reward": {"clues": 1, "who": "each"}})
    assert pack_words(str(refused.value)).startswith("The reward has an unknown field 'who'"), refused.value
    assert not (tmp_path / "packs" / "mythos.toml").exists() and not (tmp_path / "packs" / "adventures.toml").exists()


def test_an_adventures_reward_gives_items_from_the_editor(service: GameService) -> None:
    """:229-239: an item drawn as a reward is a whole number of the effect, as in a file edited by hand."""
    service.edit_box("es_adventure", "adv01", {**HEDGE_MAZE, "reward": {"elder_signs": 1, "common_items": 1}})
    reward = service.packs_for("elder-sign").adventures["adv01"].reward
    assert (reward.elder_signs, reward.common_items, reward.who) == (1, 1, "")


def test_a_mythos_card_back_to_until_the_next_card_loses_its_midnight_effect(service: GameService) -> None:
    service.edit_box("es_mythos", "mythos02", mythos_card("Blood Moon"))
    service.edit_box(
        "es_mythos",
        "mythos02",
        mythos_card("Blood Moon", lingering_kind="until_next", at_midnight={}, terror={}, lock=""),
    )
    card = service.packs_for("elder-sign").mythos["mythos02"]
    assert (card.lingering_kind, card.at_midnight.empty, card.terror.empty, card.lock) == (
        "until_next",
        True,
        True,
        None,
    )
